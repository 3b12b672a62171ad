//! The `worker_leases` row and its one compare-and-set, shared by the lease
//! lab's single store ([`super::lease::store`]) and the replicated state
//! machine of a Multi-Paxos group ([`super::multipaxos::machine`]) that can
//! stand in for it. Pure: the caller says what time `now` is (the store's
//! clock, or the clock of the master that proposed the command).
//!
//! The rule is DOMAIN.md §6's statement: a live holder renews and keeps its
//! epoch; anyone may take an expired lease, and a takeover (or re-acquire)
//! bumps the epoch; otherwise nothing is returned.

use crate::sim::{NodeId, SimDuration, SimTime};

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct LeaseRow {
    pub holder: NodeId,
    pub epoch: u64,
    /// Store-clock time at which the lease runs out.
    pub expires_at: SimTime,
}

/// How the statement behaves: its settings and the lease lab's deliberate bugs.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CasRules {
    /// The epoch the row starts from (the first holder gets one more).
    pub initial_epoch: u64,
    /// Bump the epoch on every renewal too.
    pub bump_on_renew: bool,
    /// Mutation `blind-acquire`: no compare — anyone who asks gets it.
    pub blind: bool,
    /// Mutation `no-epoch-bump`: a takeover keeps the old epoch.
    pub no_bump: bool,
}

/// A Multi-Paxos group standing in for the lease lab's store: the
/// statement's rules, and whom its master tells of the row.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct StoreDuty {
    pub rules: CasRules,
    /// `orders`, whose fence reads the row (each new version, numbered by its slot).
    pub storage: Option<NodeId>,
    /// The sound design's advisor, told of a lapsed lease.
    pub advisor: Option<NodeId>,
}

/// What one compare-and-set did.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Cas {
    /// A new holder (first acquire, takeover or re-acquire); `previous`: the row before.
    Granted {
        row: LeaseRow,
        previous: Option<LeaseRow>,
    },
    /// The live holder extended its lease.
    Renewed { row: LeaseRow },
    /// Someone else holds an unexpired lease: nothing returned.
    Refused { holder: NodeId, epoch: u64 },
}

impl Cas {
    /// The epoch the statement returns, or nothing.
    pub fn epoch(&self) -> Option<u64> {
        match self {
            Cas::Granted { row, .. } | Cas::Renewed { row } => Some(row.epoch),
            Cas::Refused { .. } => None,
        }
    }
    /// The row after the statement, if it changed.
    pub fn row(&self) -> Option<LeaseRow> {
        match self {
            Cas::Granted { row, .. } | Cas::Renewed { row } => Some(*row),
            Cas::Refused { .. } => None,
        }
    }
}

/// The statement, run at `now` for `asker` with time-to-live `ttl`.
pub fn compare_and_set(
    row: Option<LeaseRow>,
    asker: NodeId,
    now: SimTime,
    ttl: SimDuration,
    rules: CasRules,
) -> Cas {
    let expires_at = now + ttl;
    let bump = if rules.no_bump { 0 } else { 1 };
    let new_row = match row {
        None => LeaseRow {
            holder: asker,
            epoch: rules.initial_epoch + bump.max(1),
            expires_at,
        },
        Some(r) if r.holder == asker && r.expires_at > now => LeaseRow {
            epoch: if rules.bump_on_renew {
                r.epoch + bump
            } else {
                r.epoch
            },
            expires_at,
            ..r
        },
        Some(r) if r.expires_at <= now || rules.blind => LeaseRow {
            holder: asker,
            epoch: r.epoch + bump,
            expires_at,
        },
        Some(r) => {
            return Cas::Refused {
                holder: r.holder,
                epoch: r.epoch,
            }
        }
    };
    let renewal =
        row.is_some_and(|o| o.holder == asker && o.expires_at > now && o.epoch == new_row.epoch);
    if renewal {
        Cas::Renewed { row: new_row }
    } else {
        Cas::Granted {
            row: new_row,
            previous: row,
        }
    }
}

/// The holder gives the lease up: the row now expires at `now`. None if
/// `holder` does not hold `epoch`.
pub fn release(
    row: Option<LeaseRow>,
    holder: NodeId,
    epoch: u64,
    now: SimTime,
) -> Option<LeaseRow> {
    row.filter(|r| r.holder == holder && r.epoch == epoch)
        .map(|r| LeaseRow {
            expires_at: now,
            ..r
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const W1: NodeId = NodeId(0);
    const W2: NodeId = NodeId(1);

    fn at(s: u64) -> SimTime {
        SimTime(s * 1_000_000)
    }
    const TTL: SimDuration = SimDuration(3_000_000);

    #[test]
    fn a_live_holder_renews_an_expired_lease_is_taken_over_with_a_new_epoch() {
        let rules = CasRules {
            initial_epoch: 32,
            ..CasRules::default()
        };
        let g = compare_and_set(None, W1, at(0), TTL, rules);
        assert_eq!(g.epoch(), Some(33));
        let row = g.row();
        assert!(
            matches!(compare_and_set(row, W1, at(1), TTL, rules), Cas::Renewed { row } if row.epoch == 33 && row.expires_at == at(4))
        );
        assert_eq!(
            compare_and_set(row, W2, at(2), TTL, rules),
            Cas::Refused {
                holder: W1,
                epoch: 33
            }
        );
        let t = compare_and_set(row, W2, at(3), TTL, rules);
        assert!(
            matches!(t, Cas::Granted { row, previous: Some(p) } if row.holder == W2 && row.epoch == 34 && p.holder == W1)
        );
    }

    #[test]
    fn the_mutations_break_the_compare_and_the_bump() {
        let row = compare_and_set(None, W1, at(0), TTL, CasRules::default()).row();
        let blind = CasRules {
            blind: true,
            ..CasRules::default()
        };
        assert_eq!(compare_and_set(row, W2, at(1), TTL, blind).epoch(), Some(2));
        let no_bump = CasRules {
            no_bump: true,
            ..CasRules::default()
        };
        assert_eq!(
            compare_and_set(row, W2, at(5), TTL, no_bump).epoch(),
            Some(1)
        );
    }

    #[test]
    fn only_the_holder_of_the_epoch_releases() {
        let row = compare_and_set(None, W1, at(0), TTL, CasRules::default()).row();
        assert_eq!(release(row, W2, 1, at(1)), None);
        assert_eq!(release(row, W1, 2, at(1)), None);
        assert_eq!(
            release(row, W1, 1, at(1)).map(|r| r.expires_at),
            Some(at(1))
        );
    }
}
