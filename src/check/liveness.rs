//! Bounded liveness of the Synod (DOMAIN.md §9): once the trouble is over —
//! every legislator back and reachable, no more loss, duplication or
//! reordering — and one proposer is distinguished (the president), a decree
//! passes within a bound.
//!
//! Safety never depends on this; progress does, and FLP says it must depend
//! on something: here, on time (the faults stop) and on a president. Without
//! one, two proposers without backoff can pre-empt each other for ever
//! (`dueling`), and the check says so.

use super::search::{random_paxos, FaultSet};
use crate::scenario::run::Run;
use crate::scenario::{Scenario, Scheduled};
use crate::sim::dist::Latency;
use crate::sim::fault::Fault;

/// What a run did after its last fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Liveness {
    /// The last scripted fault (0 if none).
    pub last_fault_us: u64,
    /// When a decree was first chosen, if it was.
    pub decided_us: Option<u64>,
    pub bound_us: u64,
}

impl Liveness {
    /// A decree passed no later than `bound` after the last fault.
    pub fn holds(&self) -> bool {
        self.decided_us
            .is_some_and(|t| t <= self.last_fault_us + self.bound_us)
    }
}

/// Run `s` and see whether a decree passes within `bound_us` of its last fault.
pub fn check(s: &Scenario, bound_us: u64) -> Liveness {
    let last_fault_us = s.faults.iter().map(|f| f.at_us).max().unwrap_or(0);
    let mut s = s.clone();
    s.stop_at_us = s.stop_at_us.max(last_fault_us + bound_us + 1);
    let decided_us = Run::record(&s).ok().and_then(|r| r.summary().decided_at_us);
    Liveness {
        last_fault_us,
        decided_us,
        bound_us,
    }
}

/// When the random faults of [`random_paxos`] are surely over: the last
/// crash is at 3 s, restarts come within 1.5 s, heals within 2 s, pauses
/// last at most 2 s.
pub const CALM_FROM_US: u64 = 5_000_000;

/// A random faulty schedule whose trouble ends at [`CALM_FROM_US`]: every
/// partition healed, every crashed legislator restarted, the network made
/// reliable — no loss, and every message delivered within a quarter of the
/// phase timeout ("a majority that communicates within bounded delay"; a
/// timeout shorter than a round trip would doom every ballot) — and the first
/// proposer made president.
pub fn stabilizing(seed: u64) -> Scenario {
    let mut s = random_paxos(seed, FaultSet::ALL, None);
    let at = CALM_FROM_US;
    let timeout = s.paxos.as_ref().map_or(1_000_000, |p| p.timeout_us);
    let mut end = vec![
        Fault::Heal,
        Fault::SetLoss { p: 0.0 },
        Fault::SetDuplicate { p: 0.0 },
        Fault::SetReorder { p: 0.0 },
        Fault::SetLatency {
            latency: Latency::Uniform {
                min_us: 1_000,
                max_us: timeout / 4,
            },
        },
    ];
    end.extend(
        s.nodes
            .iter()
            .map(|n| Fault::Restart { node: n.id.clone() }),
    );
    s.faults.extend(end.into_iter().map(|f| Scheduled {
        at_us: at,
        fault: f.into(),
    }));
    if let Some(p) = s.paxos.as_mut() {
        p.leader = p.proposals.first().map(|p| p.node.clone());
    }
    s
}

/// The bound for a scenario: a few phase timeouts (each attempt at a
/// ballot is abandoned after one) plus room for a slow messenger.
pub fn bound_for(s: &Scenario) -> u64 {
    let timeout = s.paxos.as_ref().map_or(1_000_000, |p| p.timeout_us);
    10 * timeout + 2_000_000
}
