//! Lease and fencing invariants, and the measurements the lease lab shows.
//!
//! Invariants (DOMAIN.md §9): at most one unexpired grant per lease at any
//! instant (judged by the store's clock — the authority); each epoch belongs
//! to one holder and epochs grow with each new holder; the epochs a row
//! accepts never go down; and — with the article's fence — every accepted
//! write carries the epoch of the lease that is live at the store at that
//! instant (DOMAIN.md §9's strict variant: "the lease row showed *e*,
//! unexpired, at commit"). The monitor learns the row from the store's own
//! notes, not from `orders`' copy, so a fence that reads a stale copy shows.
//! Under `token` and `off` such writes are not violations of the setting
//! chosen, but they are counted: they are the damage the article's fence
//! prevents.
//!
//! Measurements, which are *not* invariants: split-brain windows (two workers
//! each believing they hold the lease — expected under pauses and stalls; the
//! point is that fencing makes them harmless), stale writes attempted /
//! rejected / accepted, lost updates, rows written by two holders in one
//! window, and failover time.

use super::{Finding, Invariant};
use crate::protocol::lease::{LeaseMsg, LeaseNode, LeaseNote, LeaseRow, View};
use crate::protocol::storage::{key_name, Fencing, Refusal};
use crate::sim::{NodeId, SimTime};
use crate::sorted::VecMap;
use std::sync::Arc;

/// Figures of one lease run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LeaseStats {
    pub split_brain_us: u64,
    pub split_brain_windows: u32,
    pub longest_split_brain_us: u64,
    /// Writes that reached storage with an epoch below the current lease's.
    pub stale_attempted: u32,
    pub stale_rejected: u32,
    pub stale_accepted: u32,
    /// Accepted writes that overwrote a row written with a higher epoch.
    pub lost_updates: u32,
    /// Accepted writes whose epoch was not the live lease at the store at
    /// that instant (expired, released, or another holder's by then).
    pub dead_lease_writes: u32,
    /// Refusals by the clause that refused them.
    pub refused_row_fenced: u32,
    pub refused_held_by_another: u32,
    pub refused_expired: u32,
    /// Rows that received accepted writes from two holders in one split-brain window.
    pub rows_double_written: u32,
    pub writes_accepted: u32,
    pub writes_rejected: u32,
    pub grants: u32,
    pub renewals: u32,
    /// From the old holder's last grant or renewal to a new holder's grant.
    pub failovers_us: Vec<u64>,
    /// Time during which at least one worker believed it held the lease.
    pub held_us: u64,
    pub llm_calls: u32,
    pub llm_latencies_us: Vec<u64>,
}

impl LeaseStats {
    pub fn mean_failover_us(&self) -> Option<u64> {
        if self.failovers_us.is_empty() {
            None
        } else {
            Some(self.failovers_us.iter().sum::<u64>() / self.failovers_us.len() as u64)
        }
    }
}

/// The `worker_leases` row as the store's notes tell it — what a write is
/// judged against when the question is "was this epoch live at that instant?".
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LeaseTruth {
    pub row: Option<LeaseRow>,
    /// A replicated store: the newest row version heard of.
    pub version: u64,
}

impl LeaseTruth {
    /// A replicated store's note about a row version older than one
    /// already heard of (a new master recovering its predecessor's slots):
    /// history, not news.
    pub fn is_stale(&self, n: &LeaseNote) -> bool {
        n.version().is_some_and(|v| v <= self.version)
    }

    /// Follow the store's notes (a stale one changes nothing).
    pub fn on_note(&mut self, n: &LeaseNote) {
        if self.is_stale(n) {
            return;
        }
        if let Some(v) = n.version() {
            self.version = v;
        }
        match *n {
            LeaseNote::Granted {
                holder,
                epoch,
                expires_at_us,
                ..
            }
            | LeaseNote::Renewed {
                holder,
                epoch,
                expires_at_us,
                ..
            } => {
                self.row = Some(LeaseRow {
                    holder,
                    epoch,
                    expires_at: SimTime(expires_at_us),
                });
            }
            LeaseNote::Released {
                holder,
                epoch,
                at_us,
                ..
            } => {
                if let Some(r) = self
                    .row
                    .as_mut()
                    .filter(|r| r.holder == holder && r.epoch == epoch)
                {
                    r.expires_at = SimTime(at_us);
                }
            }
            _ => {}
        }
    }
    /// Was `writer`'s `epoch` the live lease when the database's clock read `now_us`?
    pub fn live(&self, writer: NodeId, epoch: u64, now_us: u64) -> bool {
        self.row
            .is_some_and(|r| r.holder == writer && r.epoch == epoch && r.expires_at.0 > now_us)
    }
}

/// The lease figures between two notes: those the last note left, and the
/// two that grow with time until the next one (a split brain still open,
/// a lease still believed held). A view keeps this from one event to the
/// next and works out the figures for each frame's instant with [`at`].
///
/// [`at`]: LeaseTally::at
#[derive(Clone, Debug, PartialEq, Default)]
pub struct LeaseTally {
    pub stats: LeaseStats,
    split_since: Option<SimTime>,
    held_since: Option<SimTime>,
}

impl LeaseTally {
    /// The figures at `now` (not before the last note).
    pub fn at(&self, now: SimTime) -> LeaseStats {
        let mut s = self.stats.clone();
        if let Some(start) = self.split_since {
            let d = now.since(start).0;
            s.split_brain_us += d;
            s.longest_split_brain_us = s.longest_split_brain_us.max(d);
        }
        if let Some(start) = self.held_since {
            s.held_us += now.since(start).0;
        }
        s
    }
}

#[derive(Clone, Debug)]
pub struct LeaseMonitor {
    names: Arc<Vec<String>>,
    /// Workers that currently believe they hold the lease (bit per node).
    believers: u64,
    since: SimTime,
    split_since: Option<SimTime>,
    /// Writers per row during the open split-brain window.
    window_writers: Vec<u64>,
    epoch_holder: VecMap<u64, NodeId>,
    /// The store's row as last granted: (holder, epoch, time of last grant/renewal).
    current: Option<(NodeId, u64, SimTime)>,
    /// Last accepted epoch per row.
    row_epoch: Vec<u64>,
    /// The store's row, from its notes.
    truth: LeaseTruth,
    /// The rows the store replaced within the last least hop, with when:
    /// the one database's row reaches `orders` a least hop (1 µs) after the
    /// store changed it, so a write `orders` judges in that hop is
    /// concurrent with the change — one database would serialize the two
    /// statements either way — and passes on either row.
    recently_replaced: Vec<(SimTime, LeaseRow)>,
    /// The fence the storage runs: with `article`, a write on a dead lease
    /// is a violation; otherwise it is counted.
    fencing: Fencing,
    pub stats: LeaseStats,
}

/// The simulator's least hop: the one database's row reaches `orders` this
/// long after the store changed it.
const LEAST_HOP_US: u64 = 1;

impl LeaseMonitor {
    pub fn new(names: Arc<Vec<String>>, keys: u16, fencing: Fencing) -> Self {
        LeaseMonitor {
            names,
            believers: 0,
            since: SimTime::ZERO,
            split_since: None,
            window_writers: vec![0; keys.max(1) as usize],
            epoch_holder: VecMap::new(),
            current: None,
            row_epoch: vec![0; keys.max(1) as usize],
            truth: LeaseTruth::default(),
            recently_replaced: Vec::new(),
            fencing,
            stats: LeaseStats::default(),
        }
    }

    fn name(&self, n: NodeId) -> &str {
        self.names.get(n.index()).map(|s| s.as_str()).unwrap_or("?")
    }

    /// The figures, with any open window counted up to `now`.
    pub fn stats_at(&self, now: SimTime) -> LeaseStats {
        self.tally().at(now)
    }

    /// The figures as the last note left them, with what keeps growing
    /// after it: `tally().at(now)` is `stats_at(now)` for any `now` until
    /// the next note.
    pub fn tally(&self) -> LeaseTally {
        LeaseTally {
            stats: self.stats.clone(),
            split_since: self.split_since,
            held_since: (self.believers != 0).then_some(self.since),
        }
    }

    /// The figures of a recorded run, which is not simulated: its notes
    /// alone, the split-brain windows from its own split-brain notes.
    pub fn tally_of_recorded<'a>(
        mut self,
        events: impl Iterator<Item = (SimTime, NodeId, &'a LeaseNote)>,
    ) -> LeaseTally {
        let mut ignored = Vec::new();
        for (now, node, n) in events {
            match *n {
                LeaseNote::SplitBrainStart { .. } => {
                    self.split_since = Some(now);
                    self.stats.split_brain_windows += 1;
                }
                LeaseNote::SplitBrainEnd { .. } => {
                    if let Some(start) = self.split_since.take() {
                        let d = now.since(start).0;
                        self.stats.split_brain_us += d;
                        self.stats.longest_split_brain_us =
                            self.stats.longest_split_brain_us.max(d);
                    }
                }
                _ => self.on_note(now, node, n, &mut ignored),
            }
        }
        self.tally()
    }

    pub fn believers(&self) -> u64 {
        self.believers
    }

    pub fn on_send(
        &mut self,
        _now: SimTime,
        _from: NodeId,
        _to: NodeId,
        m: &LeaseMsg,
        _found: &mut Vec<Finding>,
    ) {
        if let LeaseMsg::Ask { .. } = m {
            self.stats.llm_calls += 1;
        }
    }

    pub fn on_note(
        &mut self,
        now: SimTime,
        _node: NodeId,
        n: &LeaseNote,
        found: &mut Vec<Finding>,
    ) {
        if let LeaseNote::WriteAccepted {
            writer,
            epoch,
            key,
            db_now_us,
            ..
        } = *n
        {
            // Judged before this note can move the row (it cannot: only the
            // store's notes do), against the row as the store has it.
            let concurrent = self.recently_replaced.iter().any(|(at, r)| {
                now.0 <= at.0 + LEAST_HOP_US
                    && r.holder == writer
                    && r.epoch == epoch
                    && r.expires_at.0 > db_now_us
            });
            if !self.truth.live(writer, epoch, db_now_us) && !concurrent {
                self.stats.dead_lease_writes += 1;
                if self.fencing == Fencing::Article {
                    let why = match self.truth.row {
                        Some(r) if r.holder == writer && r.epoch == epoch => {
                            format!(
                                "it had expired at {} on the store's clock",
                                crate::sim::time::human_us(r.expires_at.0)
                            )
                        }
                        Some(r) => format!(
                            "the live lease was {}'s epoch {}",
                            self.name(r.holder),
                            r.epoch
                        ),
                        None => "no lease had been granted".to_string(),
                    };
                    found.push(Finding::Violation(
                        Invariant::LiveLease,
                        format!(
                            "{} accepted {}'s write with epoch {epoch}, but {why}",
                            key_name(key),
                            self.name(writer)
                        ),
                    ));
                }
            }
        }
        if self.truth.is_stale(n) {
            return; // a new master re-telling a statement already told
        }
        let before = self.truth.row;
        self.truth.on_note(n);
        if let Some(old) = before.filter(|_| before != self.truth.row) {
            self.recently_replaced
                .retain(|(at, _)| now.0 <= at.0 + LEAST_HOP_US);
            self.recently_replaced.push((now, old));
        }
        match *n {
            LeaseNote::Granted {
                holder,
                epoch,
                previous,
                store_now_us,
                ..
            } => {
                self.stats.grants += 1;
                if let Some((h, e, expires)) = previous {
                    if h != holder && expires > store_now_us {
                        found.push(Finding::Violation(
                            Invariant::SingleGrant,
                            format!(
                                "the store gave the lease to {} while {}'s grant (epoch {e}) was still unexpired",
                                self.name(holder),
                                self.name(h)
                            ),
                        ));
                    }
                    if h != holder && epoch <= e {
                        found.push(Finding::Violation(
                            Invariant::EpochUnique,
                            format!(
                                "the lease passed from {} to {} but the epoch stayed at {epoch}",
                                self.name(h),
                                self.name(holder)
                            ),
                        ));
                    }
                }
                if let Some(&other) = self.epoch_holder.get(&epoch) {
                    if other != holder {
                        found.push(Finding::Violation(
                            Invariant::EpochUnique,
                            format!(
                                "epoch {epoch} was given to {} and to {}",
                                self.name(other),
                                self.name(holder)
                            ),
                        ));
                    }
                }
                self.epoch_holder.insert(epoch, holder);
                if let Some((old, _, last)) = self.current {
                    if old != holder {
                        self.stats.failovers_us.push(now.since(last).0);
                    }
                }
                self.current = Some((holder, epoch, now));
            }
            LeaseNote::Renewed { holder, epoch, .. } => {
                self.stats.renewals += 1;
                self.current = Some((holder, epoch, now));
            }
            LeaseNote::Expired {
                view: View::Store, ..
            } => {}
            LeaseNote::WriteAccepted {
                writer,
                epoch,
                key,
                previous,
                ..
            } => {
                self.stats.writes_accepted += 1;
                self.count_stale(epoch, true);
                let k = key as usize;
                if k < self.row_epoch.len() {
                    if epoch < self.row_epoch[k] || epoch < previous {
                        self.stats.lost_updates += 1;
                        found.push(Finding::Violation(
                            Invariant::FencingMonotonic,
                            format!(
                                "{} accepted epoch {epoch} from {} after epoch {} — a stale write overwrote newer data",
                                key_name(key),
                                self.name(writer),
                                self.row_epoch[k].max(previous)
                            ),
                        ));
                    }
                    self.row_epoch[k] = epoch;
                    if self.split_since.is_some() {
                        self.window_writers[k] |= 1u64 << writer.index();
                    }
                }
            }
            LeaseNote::WriteRejected { epoch, reason, .. } => {
                self.stats.writes_rejected += 1;
                match reason {
                    Refusal::RowFenced => self.stats.refused_row_fenced += 1,
                    Refusal::LeaseHeldByAnother => self.stats.refused_held_by_another += 1,
                    Refusal::LeaseExpired => self.stats.refused_expired += 1,
                }
                self.count_stale(epoch, false);
            }
            LeaseNote::LlmResponse { latency_us, .. } => {
                self.stats.llm_latencies_us.push(latency_us)
            }
            _ => {}
        }
    }

    fn count_stale(&mut self, epoch: u64, accepted: bool) {
        if let Some((_, current, _)) = self.current {
            if epoch < current {
                self.stats.stale_attempted += 1;
                if accepted {
                    self.stats.stale_accepted += 1;
                } else {
                    self.stats.stale_rejected += 1;
                }
            }
        }
    }

    pub fn after_step(
        &mut self,
        now: SimTime,
        node: NodeId,
        state: &LeaseNode,
        found: &mut Vec<Finding>,
    ) {
        let Some(w) = state.as_worker() else { return };
        let bit = 1u64 << node.index();
        let before = self.believers;
        let after = if w.holding {
            before | bit
        } else {
            before & !bit
        };
        if before == after {
            return;
        }
        if before != 0 {
            self.stats.held_us += now.since(self.since).0;
        }
        self.since = now;
        self.believers = after;
        let (was, is) = (before.count_ones() >= 2, after.count_ones() >= 2);
        if !was && is {
            self.split_since = Some(now);
            self.window_writers.iter_mut().for_each(|w| *w = 0);
            self.stats.split_brain_windows += 1;
            found.push(Finding::Note(
                LeaseNote::SplitBrainStart { believers: after }.into(),
            ));
        } else if was && !is {
            let start = self.split_since.take().unwrap_or(now);
            let lasted = now.since(start).0;
            self.stats.split_brain_us += lasted;
            self.stats.longest_split_brain_us = self.stats.longest_split_brain_us.max(lasted);
            self.stats.rows_double_written += self
                .window_writers
                .iter()
                .filter(|m| m.count_ones() >= 2)
                .count() as u32;
            found.push(Finding::Note(
                LeaseNote::SplitBrainEnd { lasted_us: lasted }.into(),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// W1 holds epoch 16; at 10 µs a renewal bumps it to 17; a write with
    /// 16 is judged at `write_at`.
    fn judged_at(write_at: u64) -> Vec<Invariant> {
        let names = Arc::new(vec![
            "store".to_string(),
            "orders".to_string(),
            "W1".to_string(),
        ]);
        let (store, orders, w1) = (NodeId(0), NodeId(1), NodeId(2));
        let mut m = LeaseMonitor::new(names, 1, Fencing::Article);
        let mut found = Vec::new();
        let grant = LeaseNote::Granted {
            holder: w1,
            epoch: 16,
            expires_at_us: 1_000,
            previous: None,
            store_now_us: 0,
            version: None,
        };
        m.on_note(SimTime(0), store, &grant, &mut found);
        let bump = LeaseNote::Renewed {
            holder: w1,
            epoch: 17,
            expires_at_us: 2_000,
            store_now_us: 10,
            version: None,
        };
        m.on_note(SimTime(10), store, &bump, &mut found);
        let write = LeaseNote::WriteAccepted {
            writer: w1,
            epoch: 16,
            key: 0,
            previous: 0,
            db_now_us: write_at,
        };
        m.on_note(SimTime(write_at), orders, &write, &mut found);
        found
            .into_iter()
            .filter_map(|f| match f {
                Finding::Violation(i, _) => Some(i),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_write_within_the_least_hop_of_the_rows_change_may_be_serialized_before_it() {
        assert_eq!(judged_at(10), vec![], "the same instant");
        assert_eq!(
            judged_at(11),
            vec![],
            "one hop later: the row was still on its way to orders"
        );
    }

    #[test]
    fn a_write_later_than_the_least_hop_with_the_replaced_epoch_breaks_live_lease() {
        assert_eq!(judged_at(12), vec![Invariant::LiveLease]);
        assert_eq!(judged_at(500), vec![Invariant::LiveLease]);
    }
}
