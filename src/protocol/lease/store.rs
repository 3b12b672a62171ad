//! The lease store: one `worker_leases` row and its compare-and-set.
//!
//! The article gives the rule in words — one statement that returns the new
//! epoch or nothing; the SQL is DOMAIN.md §6's, tested on PostgreSQL 15
//! (`super::sql` holds the text the page shows and `paxos-island pg` runs):
//!
//! ```sql
//! INSERT INTO worker_leases AS l (lease_name, holder_id, epoch, expires_at)
//! VALUES ($1, $2, 1, now() + make_interval(secs => $3))
//! ON CONFLICT (lease_name) DO UPDATE
//!    SET epoch = CASE WHEN l.holder_id = EXCLUDED.holder_id AND l.expires_at > now()
//!                     THEN l.epoch ELSE l.epoch + 1 END,
//!        holder_id = EXCLUDED.holder_id, expires_at = EXCLUDED.expires_at
//!  WHERE l.holder_id = EXCLUDED.holder_id OR l.expires_at <= now()
//! RETURNING l.epoch;
//! ```
//!
//! `now()` is the store's own clock: a store whose clock jumps ahead expires
//! leases early. The row is durable (a database); the store never shortens a
//! live holder's lease. Option: bump the epoch on every renewal too, which
//! also fences the holder's own in-flight writes.
//!
//! Every new version of the row goes to `orders` as well ([`LeaseMsg::Row`]):
//! the article keeps both tables in one database, where the fenced `UPDATE`
//! reads this row directly; here they are two nodes (see `storage`). When a
//! lease lapses on the store's clock, the row as it stood also goes to the
//! advisor, if the scenario has one (the sound design's explainer).

use super::{LeaseMsg, LeaseMutation, LeaseNode, LeaseNote, LeaseTimer, View};
use crate::protocol::lease_row::{self, Cas, CasRules};
use crate::sim::{Ctx, Hosts, NodeId, SimDuration};

pub use crate::protocol::lease_row::LeaseRow;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LeaseStore {
    pub row: Option<LeaseRow>,
    /// The epoch the row starts from (Kleppmann's example starts at 32, so
    /// the first holder gets 33).
    pub initial_epoch: u64,
    pub bump_on_renew: bool,
    /// A deliberate bug, if any (`blind-acquire`, `no-epoch-bump`).
    pub mutation: Option<LeaseMutation>,
    /// Where the row's new versions go (the `orders` node).
    pub storage: Option<NodeId>,
    /// Versions of the row sent so far.
    pub version: u64,
    /// Who hears of a lapsed lease (the advisor of the sound design).
    pub advisor: Option<NodeId>,
}

impl LeaseStore {
    pub fn new(initial_epoch: u64, bump_on_renew: bool) -> Self {
        LeaseStore {
            row: None,
            initial_epoch,
            bump_on_renew,
            mutation: None,
            storage: None,
            version: 0,
            advisor: None,
        }
    }

    /// Tell `orders` the row's new version.
    fn publish<H: Hosts<LeaseNode>>(&mut self, ctx: &mut Ctx<LeaseNode, H>) {
        if let (Some(to), Some(row)) = (self.storage, self.row) {
            self.version += 1;
            ctx.send(
                to,
                LeaseMsg::Row {
                    version: self.version,
                    row,
                },
            );
        }
    }

    pub fn on_message<H: Hosts<LeaseNode>>(
        &mut self,
        from: NodeId,
        m: LeaseMsg,
        ctx: &mut Ctx<LeaseNode, H>,
    ) {
        match m {
            LeaseMsg::Acquire { req, ttl_us } => {
                let epoch = self.compare_and_set(from, SimDuration(ttl_us), ctx);
                ctx.send(from, LeaseMsg::AcquireReply { req, epoch });
            }
            LeaseMsg::Release { epoch } => {
                let now = ctx.now();
                let Some(row) = lease_row::release(self.row, from, epoch, now) else {
                    return;
                };
                self.row = Some(row);
                ctx.note(LeaseNote::Released {
                    holder: from,
                    epoch,
                    at_us: now.0,
                    version: None,
                });
                ctx.cancel_timer(LeaseTimer::Expire);
                self.publish(ctx);
            }
            _ => {}
        }
    }

    /// The statement's settings, with the deliberate bugs.
    pub fn rules(&self) -> CasRules {
        LeaseMutation::rules(self.mutation, self.initial_epoch, self.bump_on_renew)
    }

    /// The one statement. Returns the epoch, or nothing.
    fn compare_and_set<H: Hosts<LeaseNode>>(
        &mut self,
        asker: NodeId,
        ttl: SimDuration,
        ctx: &mut Ctx<LeaseNode, H>,
    ) -> Option<u64> {
        let now = ctx.now();
        let cas = lease_row::compare_and_set(self.row, asker, now, ttl, self.rules());
        ctx.note(cas_note(asker, &cas, now.0, None));
        let row = cas.row()?;
        self.row = Some(row);
        ctx.set_timer(LeaseTimer::Expire, ttl);
        self.publish(ctx);
        Some(row.epoch)
    }

    pub fn on_timer<H: Hosts<LeaseNode>>(&mut self, t: LeaseTimer, ctx: &mut Ctx<LeaseNode, H>) {
        if t != LeaseTimer::Expire {
            return;
        }
        if let Some(row) = self.row {
            if row.expires_at <= ctx.now() {
                ctx.note(LeaseNote::Expired {
                    holder: row.holder,
                    epoch: row.epoch,
                    view: View::Store,
                });
                if let Some(to) = self.advisor {
                    ctx.send(
                        to,
                        LeaseMsg::Row {
                            version: self.version,
                            row,
                        },
                    );
                }
            } else {
                // The clock was stepped back: wait for the real expiry.
                ctx.set_timer(LeaseTimer::Expire, row.expires_at.since(ctx.now()));
            }
        }
    }

    pub fn on_restart<H: Hosts<LeaseNode>>(&mut self, ctx: &mut Ctx<LeaseNode, H>) {
        if let Some(row) = self.row {
            ctx.set_timer(LeaseTimer::Expire, row.expires_at.since(ctx.now()));
        }
    }
}

/// What the statement did, as the note the store puts on the record
/// (`version`: a replicated store's slot).
pub fn cas_note(asker: NodeId, cas: &Cas, store_now_us: u64, version: Option<u64>) -> LeaseNote {
    match *cas {
        Cas::Granted { row, previous } => LeaseNote::Granted {
            holder: asker,
            epoch: row.epoch,
            expires_at_us: row.expires_at.0,
            previous: previous.map(|o| (o.holder, o.epoch, o.expires_at.0)),
            store_now_us,
            version,
        },
        Cas::Renewed { row } => LeaseNote::Renewed {
            holder: asker,
            epoch: row.epoch,
            expires_at_us: row.expires_at.0,
            store_now_us,
            version,
        },
        Cas::Refused { holder, epoch } => LeaseNote::Refused {
            asker,
            holder,
            epoch,
            store_now_us,
        },
    }
}
