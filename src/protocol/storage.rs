//! Fenced storage: the `orders` table, and the statement that writes it.
//!
//! The article's rule: the database accepts a write only if its epoch is the
//! epoch of the lease that is live *at that moment*. DOMAIN.md §6 writes it as
//! one fenced `UPDATE` (our SQL, tested on PostgreSQL 15 — the article itself
//! shows no SQL):
//!
//! ```sql
//! UPDATE orders o SET status = $5, fence_epoch = $3
//!  WHERE o.id = $4
//!    AND o.fence_epoch <= $3                          -- (1) the row's fence
//!    AND EXISTS (SELECT 1 FROM worker_leases l         -- (2) the live lease
//!                 WHERE l.lease_name = $1 AND l.holder_id = $2
//!                   AND l.epoch = $3 AND l.expires_at > now())
//! RETURNING o.id;                                      -- no row = fenced out
//! ```
//!
//! [`Fencing`] chooses how much of it runs: `article` both clauses, `token`
//! clause (1) alone — Kleppmann's monotonic token: "storage has already
//! processed a write with token 34, so it rejects the request with token 33"
//! — and `off` neither. An *equal* epoch passes (1): one holder writes many
//! times. The check runs here, at the storage, because a check at the client
//! straddles the pause it is meant to catch.
//!
//! **Two nodes, one database.** In the article both tables live in one
//! PostgreSQL, so clause (2) reads the lease row as it is at the instant of
//! the write. Here the store and `orders` are two nodes (two lanes on the
//! page), and a sans-IO node cannot read another's memory: the store sends
//! `orders` every new version of its row ([`LeaseMsg::Row`]) over a link the
//! built-in scenarios make instantaneous and lossless (one microsecond, the
//! simulator's least hop — the two tables of one database), and `orders`
//! judges `expires_at > now()` on *its own* clock against the newest version
//! it holds. Over an ordinary link the copy lags by one hop; the lag is shown,
//! not hidden (see docs/design.md).

use crate::protocol::lease::{LeaseMsg, LeaseMutation, LeaseNode, LeaseNote, LeaseRow};
use crate::sim::{Ctx, Hosts, NodeId, SimTime};
use serde::{Serialize, Serializer};
use std::fmt;

/// Row names as the trace and the page show them.
pub fn key_name(k: u16) -> String {
    format!("order-{}", k + 1)
}

/// How much of the fenced `UPDATE` the storage runs.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Fencing {
    /// The article: the row's fence *and* the live lease, in one statement.
    #[default]
    Article,
    /// Kleppmann's monotonic token alone: the row's fence.
    Token,
    /// No check: every write lands.
    Off,
}

impl Fencing {
    pub const ALL: [Fencing; 3] = [Fencing::Article, Fencing::Token, Fencing::Off];
    pub fn as_str(self) -> &'static str {
        match self {
            Fencing::Article => "article",
            Fencing::Token => "token",
            Fencing::Off => "off",
        }
    }
    pub fn parse(s: &str) -> Option<Fencing> {
        Fencing::ALL.into_iter().find(|f| f.as_str() == s)
    }
    /// Does the storage check the row's `fence_epoch`?
    pub fn row_fence(self) -> bool {
        self != Fencing::Off
    }
    /// Does it check the live lease?
    pub fn live_lease(self) -> bool {
        self == Fencing::Article
    }
}

impl fmt::Display for Fencing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Fencing {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// `"article" | "token" | "off"`; the booleans of older scenarios and traces
/// read as what they meant then: `true` was the monotonic token, `false` off.
impl crate::json::FromValue for Fencing {
    fn from_value(v: serde_json::Value) -> Result<Self, String> {
        match v {
            serde_json::Value::Bool(true) => Ok(Fencing::Token),
            serde_json::Value::Bool(false) => Ok(Fencing::Off),
            serde_json::Value::String(s) => Fencing::parse(&s).ok_or_else(|| {
                format!("unknown fencing {s:?}; expected one of: article, token, off")
            }),
            v => Err(crate::json::invalid(
                &v,
                "one of \"article\", \"token\", \"off\"",
            )),
        }
    }
}

#[cfg(test)]
impl<'de> serde::Deserialize<'de> for Fencing {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        crate::json::by_hand(d)
    }
}

/// Which clause of the fenced `UPDATE` turned a write away, in the order the
/// statement's `WHERE` lists them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// `o.fence_epoch <= $3` failed: the row was written with a higher epoch.
    RowFenced,
    /// The `EXISTS` failed because the live row is another lease: another
    /// holder, or a newer epoch (a takeover, a re-acquire, a bump on renewal).
    LeaseHeldByAnother,
    /// The `EXISTS` failed because this very lease has expired: `expires_at`
    /// is not after `now()` on the storage's clock.
    LeaseExpired,
}

impl Refusal {
    pub fn as_str(self) -> &'static str {
        match self {
            Refusal::RowFenced => "row_fenced",
            Refusal::LeaseHeldByAnother => "lease_held_by_another",
            Refusal::LeaseExpired => "lease_expired",
        }
    }
    pub fn parse(s: &str) -> Option<Refusal> {
        [
            Refusal::RowFenced,
            Refusal::LeaseHeldByAnother,
            Refusal::LeaseExpired,
        ]
        .into_iter()
        .find(|r| r.as_str() == s)
    }
}

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Row {
    /// The epoch of the last accepted write (`orders.fence_epoch`).
    pub fence_epoch: u64,
    pub last_writer: Option<NodeId>,
    pub writes: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Storage {
    pub rows: Vec<Row>,
    /// The `worker_leases` row as the store last sent it: (version, row).
    pub lease: Option<(u64, LeaseRow)>,
    pub fencing: Fencing,
    /// A deliberate bug, if any (`no-fence`).
    pub mutation: Option<LeaseMutation>,
}

/// The verdict of the fenced `UPDATE` on one write.
pub fn judge(
    fencing: Fencing,
    row: &Row,
    lease: Option<&LeaseRow>,
    writer: NodeId,
    epoch: u64,
    now: SimTime,
) -> Result<(), Refusal> {
    if fencing.row_fence() && row.fence_epoch > epoch {
        return Err(Refusal::RowFenced);
    }
    if fencing.live_lease() {
        match lease {
            Some(l) if l.holder == writer && l.epoch == epoch => {
                if l.expires_at <= now {
                    return Err(Refusal::LeaseExpired);
                }
            }
            _ => return Err(Refusal::LeaseHeldByAnother),
        }
    }
    Ok(())
}

impl Storage {
    pub fn new(keys: u16, fencing: Fencing) -> Self {
        Storage {
            rows: vec![Row::default(); keys.max(1) as usize],
            lease: None,
            fencing,
            mutation: None,
        }
    }

    pub fn on_message<H: Hosts<LeaseNode>>(
        &mut self,
        from: NodeId,
        m: LeaseMsg,
        ctx: &mut Ctx<LeaseNode, H>,
    ) {
        match m {
            // Keep the newest version: a duplicate or a late copy must not
            // bring back an older row.
            LeaseMsg::Row { version, row } if self.lease.is_none_or(|(v, _)| v < version) => {
                self.lease = Some((version, row));
            }
            LeaseMsg::Write { req, key, epoch } => self.write(from, req, key, epoch, ctx),
            _ => {}
        }
    }

    /// The fenced `UPDATE … RETURNING`: check and write in one step.
    fn write<H: Hosts<LeaseNode>>(
        &mut self,
        from: NodeId,
        req: u32,
        key: u16,
        epoch: u64,
        ctx: &mut Ctx<LeaseNode, H>,
    ) {
        let Some(row) = self.rows.get_mut(key as usize) else {
            return;
        };
        let fencing = if self.mutation == Some(LeaseMutation::NoFence) {
            Fencing::Off
        } else {
            self.fencing
        };
        let now = ctx.now();
        let lease = self.lease.map(|(_, l)| l);
        let verdict = judge(fencing, row, lease.as_ref(), from, epoch, now);
        match verdict {
            Ok(()) => {
                ctx.note(LeaseNote::WriteAccepted {
                    writer: from,
                    epoch,
                    key,
                    previous: row.fence_epoch,
                    db_now_us: now.0,
                });
                row.fence_epoch = epoch;
                row.last_writer = Some(from);
                row.writes += 1;
            }
            Err(reason) => ctx.note(LeaseNote::WriteRejected {
                writer: from,
                epoch,
                key,
                row: row.fence_epoch,
                reason,
                lease,
                db_now_us: now.0,
            }),
        }
        ctx.send(
            from,
            LeaseMsg::WriteReply {
                req,
                key,
                epoch,
                ok: verdict.is_ok(),
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::SimDuration;

    const W1: NodeId = NodeId(0);
    const W2: NodeId = NodeId(1);

    fn lease(holder: NodeId, epoch: u64, expires_s: u64) -> LeaseRow {
        LeaseRow {
            holder,
            epoch,
            expires_at: SimTime::ZERO + SimDuration(expires_s * 1_000_000),
        }
    }
    fn at(s: u64) -> SimTime {
        SimTime::ZERO + SimDuration(s * 1_000_000)
    }
    fn row(fence_epoch: u64) -> Row {
        Row {
            fence_epoch,
            ..Row::default()
        }
    }

    #[test]
    fn article_refuses_an_expired_lease_that_nobody_took_over() {
        let l = lease(W1, 33, 4);
        assert_eq!(
            judge(Fencing::Article, &row(33), Some(&l), W1, 33, at(3)),
            Ok(())
        );
        assert_eq!(
            judge(Fencing::Article, &row(33), Some(&l), W1, 33, at(11)),
            Err(Refusal::LeaseExpired)
        );
        // Kleppmann's token alone lets it through: 33 is still the highest epoch.
        assert_eq!(
            judge(Fencing::Token, &row(33), Some(&l), W1, 33, at(11)),
            Ok(())
        );
    }

    #[test]
    fn expiry_is_strict_as_in_expires_at_greater_than_now() {
        let l = lease(W1, 33, 4);
        assert_eq!(
            judge(Fencing::Article, &row(0), Some(&l), W1, 33, at(4)),
            Err(Refusal::LeaseExpired)
        );
    }

    #[test]
    fn article_refuses_a_lease_held_by_another_even_before_the_row_moved() {
        let l = lease(W2, 34, 10);
        assert_eq!(
            judge(Fencing::Article, &row(33), Some(&l), W1, 33, at(5)),
            Err(Refusal::LeaseHeldByAnother)
        );
        assert_eq!(
            judge(Fencing::Token, &row(33), Some(&l), W1, 33, at(5)),
            Ok(())
        );
        // No lease row at all is no live lease either.
        assert_eq!(
            judge(Fencing::Article, &row(0), None, W1, 1, at(0)),
            Err(Refusal::LeaseHeldByAnother)
        );
    }

    #[test]
    fn the_row_fence_is_named_first_as_in_the_where_clause() {
        let l = lease(W2, 34, 10);
        assert_eq!(
            judge(Fencing::Article, &row(34), Some(&l), W1, 33, at(5)),
            Err(Refusal::RowFenced)
        );
        assert_eq!(
            judge(Fencing::Token, &row(34), Some(&l), W1, 33, at(5)),
            Err(Refusal::RowFenced)
        );
        assert_eq!(
            judge(Fencing::Off, &row(34), Some(&l), W1, 33, at(5)),
            Ok(())
        );
    }

    #[test]
    fn old_boolean_settings_read_as_token_and_off() {
        let f: Fencing = crate::json::read(b"true").unwrap();
        assert_eq!(f, Fencing::Token);
        let f: Fencing = crate::json::read(b"false").unwrap();
        assert_eq!(f, Fencing::Off);
        let f: Fencing = crate::json::read(b"\"article\"").unwrap();
        assert_eq!(f, Fencing::Article);
        let e = crate::json::read::<Fencing>(b"\"on\"")
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown fencing \"on\""), "{e}");
    }
}
