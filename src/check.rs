//! Checking: invariant monitors, deliberate mutations, and the search over
//! random faulty schedules.
//!
//! The monitors watch every step of the simulator — each message as it is
//! sent, each fact a role notes, each node's state after it handled an event —
//! and record a `violation` trace event the first time a rule breaks. They are
//! the judge of the mutations: each mutation breaks the algorithm in a way a
//! student might, and the search must find a schedule where a monitor fires.

pub mod commit_monitor;
pub mod explore;
pub mod lease_monitor;
pub mod liveness;
pub mod multipaxos_monitor;
pub mod paxos_monitor;
pub mod red_flags;
pub mod search;

use crate::held::Held;
use crate::protocol::{Msg, NodeState, Note};
use crate::sim::clock::Clock;
use crate::sim::{Monitor, NodeId, SimTime};
use crate::trace::EventKind;
use serde::Serialize;
use std::fmt;
use std::sync::Arc;

/// The catalogue of deliberate bugs: each protocol defines its own, and the
/// registry (`crate::protocol`) lists them all.
pub use crate::protocol::Mutation;

pub use commit_monitor::CommitMonitor;
pub use lease_monitor::LeaseMonitor;
pub use multipaxos_monitor::MultiMonitor;
pub use paxos_monitor::PaxosMonitor;

/// The rules the monitors check.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(rename_all = "kebab-case")]
pub enum Invariant {
    /// At most one value is chosen (a quorum of 2b for it in some ballot).
    Agreement,
    /// Every 2a value was proposed by someone.
    Validity,
    /// All 2a/2b messages of one ballot carry the same value.
    OneValuePerBallot,
    /// An acceptor's promise (maxBal) never goes down, even across restart,
    /// and it never votes below it.
    PromiseMonotonic,
    /// maxVBal ≤ maxBal.
    VoteBelowPromise,
    /// A learner learns only a chosen value, all learners agree, and a
    /// learned value never changes.
    LearnerConsistency,
    /// Leases: at most one unexpired grant per lease at any instant.
    SingleGrant,
    /// Leases: an epoch belongs to one holder, and epochs grow with each new holder.
    EpochUnique,
    /// Fencing: the epochs accepted for a row never decrease.
    FencingMonotonic,
    /// Fencing (the article's): an accepted write carries the epoch of the
    /// lease that is live at the store at that instant.
    LiveLease,
    /// Multi-Paxos: every replica applies the same command at each slot (the
    /// applied logs are prefixes of one another).
    LogPrefix,
    /// Master lease: at most one replica believes it holds the lease at any
    /// instant of true time.
    SingleMaster,
    /// Master lease: no read returns a value older than a write that
    /// completed before the read began.
    FreshReads,
    /// Commit: never one RM committed and another aborted.
    Atomicity,
    /// Commit: the transaction commits only if every RM voted "prepared".
    CommitValidity,
}

/// Written by name: `"one-value-per-ballot"`.
impl crate::json::FromValue for Invariant {
    fn from_value(v: serde_json::Value) -> Result<Self, String> {
        crate::json::named(v, &Invariant::ALL, Invariant::as_str)
    }
}

impl Invariant {
    pub const ALL: [Invariant; 15] = [
        Invariant::Agreement,
        Invariant::Validity,
        Invariant::OneValuePerBallot,
        Invariant::PromiseMonotonic,
        Invariant::VoteBelowPromise,
        Invariant::LearnerConsistency,
        Invariant::SingleGrant,
        Invariant::EpochUnique,
        Invariant::FencingMonotonic,
        Invariant::LiveLease,
        Invariant::LogPrefix,
        Invariant::SingleMaster,
        Invariant::FreshReads,
        Invariant::Atomicity,
        Invariant::CommitValidity,
    ];
    pub const MULTIPAXOS: [Invariant; 5] = [
        Invariant::Agreement,
        Invariant::Validity,
        Invariant::LogPrefix,
        Invariant::SingleMaster,
        Invariant::FreshReads,
    ];
    pub const PAXOS: [Invariant; 6] = [
        Invariant::Agreement,
        Invariant::Validity,
        Invariant::OneValuePerBallot,
        Invariant::PromiseMonotonic,
        Invariant::VoteBelowPromise,
        Invariant::LearnerConsistency,
    ];
    pub const LEASE: [Invariant; 4] = [
        Invariant::SingleGrant,
        Invariant::EpochUnique,
        Invariant::FencingMonotonic,
        Invariant::LiveLease,
    ];
    /// Transaction commit; agreement is per RM's instance (Paxos Commit).
    pub const COMMIT: [Invariant; 3] = [
        Invariant::Atomicity,
        Invariant::CommitValidity,
        Invariant::Agreement,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Invariant::Agreement => "agreement",
            Invariant::Validity => "validity",
            Invariant::OneValuePerBallot => "one-value-per-ballot",
            Invariant::PromiseMonotonic => "promise-monotonic",
            Invariant::VoteBelowPromise => "vote-below-promise",
            Invariant::LearnerConsistency => "learner-consistency",
            Invariant::SingleGrant => "single-grant",
            Invariant::EpochUnique => "epoch-unique",
            Invariant::FencingMonotonic => "fencing-monotonic",
            Invariant::LiveLease => "live-lease",
            Invariant::LogPrefix => "log-prefix",
            Invariant::SingleMaster => "single-master",
            Invariant::FreshReads => "fresh-reads",
            Invariant::Atomicity => "atomicity",
            Invariant::CommitValidity => "commit-validity",
        }
    }

    /// The rules checked for a protocol.
    pub fn of(kind: crate::protocol::Kind) -> &'static [Invariant] {
        match kind {
            crate::protocol::Kind::Paxos => &Self::PAXOS,
            crate::protocol::Kind::Lease => &Self::LEASE,
            crate::protocol::Kind::Multipaxos => &Self::MULTIPAXOS,
            crate::protocol::Kind::Commit => &Self::COMMIT,
        }
    }

    pub fn parse(s: &str) -> Option<Invariant> {
        Invariant::ALL.into_iter().find(|i| i.as_str() == s)
    }
}

/// The rule a deliberate bug is meant to break (a search counts the bug
/// caught only when that one breaks); none for the lease lab's, where any
/// of its rules will do.
pub fn meant(m: Mutation) -> Option<Invariant> {
    use crate::protocol::multipaxos::MpMutation;
    match m {
        Mutation::Paxos(_) => Some(Invariant::Agreement),
        Mutation::Multipaxos(MpMutation::NoLeaseWait | MpMutation::LeaseNoDriftMargin) => {
            Some(Invariant::SingleMaster)
        }
        Mutation::Multipaxos(MpMutation::SkipPhase1OnTakeover | MpMutation::NoOpFreeGaps) => {
            Some(Invariant::Agreement)
        }
        // A coordinator that takes silence for consent decides Commit
        // before all have prepared.
        Mutation::Commit(_) => Some(Invariant::CommitValidity),
        Mutation::Lease(_) => None,
    }
}

impl fmt::Display for Invariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// All the monitors of one run.
///
/// The hooks run on every step, so they allocate nothing when all is well:
/// monitors put findings in a scratch buffer kept here, and each hook appends
/// them, as trace events, to a buffer the simulator keeps.
#[derive(Debug, Default)]
pub struct Monitors {
    pub paxos: Option<PaxosMonitor>,
    // The other protocols' monitors are held type-erased: `Monitors` is
    // dropped on the parliament's path too, and a plain field's drop would
    // bring their drop code into the first load (`crate::held`).
    pub lease: Option<Held<LeaseMonitor>>,
    pub multipaxos: Option<Held<MultiMonitor>>,
    pub commit: Option<Held<CommitMonitor>>,
    /// Invariants already reported (each is reported once per run).
    reported: Vec<Invariant>,
    /// Every violation found, reported or not.
    pub violations: u64,
    /// Findings of the hook being run (empty between hooks).
    scratch: Vec<Finding>,
}

// Cloned with the simulator (every checkpoint of a seek, every state of the
// model checker): a Paxos run's monitor here, the others' through the table.
impl Clone for Monitors {
    fn clone(&self) -> Self {
        let mut m = Monitors {
            paxos: self.paxos.clone(),
            lease: None,
            multipaxos: None,
            commit: None,
            reported: self.reported.clone(),
            violations: self.violations,
            scratch: self.scratch.clone(),
        };
        if self.lease.is_some() || self.multipaxos.is_some() || self.commit.is_some() {
            (monitors().clone_others)(self, &mut m);
        }
        m
    }
}

impl Monitors {
    pub fn for_paxos(m: PaxosMonitor) -> Self {
        Monitors {
            paxos: Some(m),
            ..Default::default()
        }
    }
    pub fn for_multipaxos(m: MultiMonitor) -> Self {
        Monitors {
            multipaxos: Some(Held::new(m)),
            ..Default::default()
        }
    }

    pub fn for_commit(m: CommitMonitor) -> Self {
        Monitors {
            commit: Some(Held::new(m)),
            ..Default::default()
        }
    }
    pub fn for_lease(m: LeaseMonitor) -> Self {
        Monitors {
            lease: Some(Held::new(m)),
            ..Default::default()
        }
    }

    pub fn broken(&self) -> &[Invariant] {
        &self.reported
    }

    /// Turn the scratch findings into trace events: a violation the first
    /// time its invariant breaks, every derived note.
    #[cold]
    fn collect(&mut self, out: &mut Vec<EventKind>) {
        let mut found = std::mem::take(&mut self.scratch);
        for f in found.drain(..) {
            match f {
                Finding::Violation(inv, detail) => {
                    self.violations += 1;
                    if !self.reported.contains(&inv) {
                        self.reported.push(inv);
                        out.push(EventKind::Violation {
                            invariant: inv,
                            detail,
                        });
                    }
                }
                Finding::Note(n) => out.push(EventKind::Note(n)),
            }
        }
        self.scratch = found;
    }
}

/// The other protocols' monitors, as a table (see `protocol::Handlers`):
/// `Monitors` watches a Paxos run itself and any other through this table,
/// which in the split page comes with the other protocols' builders. Each
/// puts its findings in `scratch`.
pub struct MonitorHandlers {
    pub on_send: fn(&mut Monitors, SimTime, NodeId, NodeId, &Msg),
    pub on_note: fn(&mut Monitors, SimTime, NodeId, &Clock, &Note),
    pub after_step: fn(&mut Monitors, SimTime, NodeId, &NodeState),
    /// Copies the other protocols' monitors of the first into the second.
    pub clone_others: fn(&Monitors, &mut Monitors),
    /// A recorded lease run's figures up to the end of `trace` (see
    /// [`recorded_lease_tally`]).
    pub recorded_lease_tally: fn(
        Arc<Vec<String>>,
        &crate::scenario::lease_spec::LeaseSpec,
        &[crate::trace::TraceEvent],
    ) -> lease_monitor::LeaseTally,
}

/// A recorded lease run's figures (its notes up to the end of `trace`; a
/// recorded run is not simulated). Such a run comes with the readers, and
/// with them the other protocols' monitors.
pub fn recorded_lease_tally(
    names: Arc<Vec<String>>,
    lease: &crate::scenario::lease_spec::LeaseSpec,
    trace: &[crate::trace::TraceEvent],
) -> lease_monitor::LeaseTally {
    (monitors().recorded_lease_tally)(names, lease, trace)
}

static OTHER_MONITORS: MonitorHandlers = MonitorHandlers {
    on_send: |ms, now, from, to, msg| {
        match (msg, &mut ms.lease, &mut ms.multipaxos) {
            (Msg::Lease(lm), Some(m), _) => m.on_send(now, from, to, lm, &mut ms.scratch),
            (Msg::Multipaxos(mm), _, Some(m)) => m.on_send(from, mm, &mut ms.scratch),
            (Msg::Commit(cm), _, _) => {
                if let Some(m) = &mut ms.commit {
                    m.on_send(from, cm, &mut ms.scratch)
                }
            }
            _ => {}
        }
        // A replicated lease store: a worker's request is a command's origin.
        if let (Msg::Lease(lm), Some(m)) = (msg, &mut ms.multipaxos) {
            m.on_lease_request(now, from, lm);
        }
    },
    on_note: |ms, now, node, clock, note| match (note, &mut ms.lease, &mut ms.multipaxos) {
        (Note::Lease(n), Some(m), _) => m.on_note(now, node, n, &mut ms.scratch),
        (Note::Multipaxos(n), _, Some(m)) => m.on_note(now, node, clock, n, &mut ms.scratch),
        (Note::Commit(n), _, _) => {
            if let Some(m) = &mut ms.commit {
                m.on_note(now, node, n, &mut ms.scratch)
            }
        }
        _ => {}
    },
    after_step: |ms, now, node, state| match (state, &mut ms.lease, &mut ms.multipaxos) {
        (NodeState::Lease(l), Some(m), _) => m.after_step(now, node, l, &mut ms.scratch),
        (NodeState::Multipaxos(r), _, Some(m)) => m.after_step(node, r, &mut ms.scratch),
        _ => {}
    },
    recorded_lease_tally: |names, lease, trace| {
        let notes = trace.iter().filter_map(|e| match &e.kind {
            EventKind::Note(Note::Lease(n)) => Some((e.t, e.node, n)),
            _ => None,
        });
        LeaseMonitor::new(names, lease.keys, lease.fencing).tally_of_recorded(notes)
    },
    clone_others: |from, to| {
        to.lease = from.lease.clone();
        to.multipaxos = from.multipaxos.clone();
        to.commit = from.commit.clone();
    },
};

#[cfg(all(target_arch = "wasm32", feature = "split"))]
static MONITORS: std::sync::OnceLock<&'static MonitorHandlers> = std::sync::OnceLock::new();

/// Makes the other protocols' runs watchable (with their builders: see
/// `scenario::install_builders`; elsewhere they are always here).
pub fn install_monitors() {
    #[cfg(all(target_arch = "wasm32", feature = "split"))]
    let _ = MONITORS.set(&OTHER_MONITORS);
}

fn monitors() -> &'static MonitorHandlers {
    #[cfg(all(target_arch = "wasm32", feature = "split"))]
    return MONITORS
        .get()
        .expect("a run of another protocol than Paxos exists only once its builders (and monitors) are here");
    #[cfg(not(all(target_arch = "wasm32", feature = "split")))]
    &OTHER_MONITORS
}

impl Monitor<NodeState> for Monitors {
    type Invariant = Invariant;

    /// A message is about to leave `from`; events found go to `out`.
    #[inline]
    fn on_send(
        &mut self,
        now: SimTime,
        from: NodeId,
        to: NodeId,
        msg: &Msg,
        sender: &NodeState,
        out: &mut Vec<EventKind>,
    ) {
        match (msg, &mut self.paxos) {
            (Msg::Paxos(pm), Some(m)) => m.on_send(from, pm, sender, &mut self.scratch),
            (Msg::Paxos(_), None) => {}
            _ => (monitors().on_send)(self, now, from, to, msg),
        }
        if !self.scratch.is_empty() {
            self.collect(out);
        }
    }

    /// A role of `node` noted a fact; events found go to `out`.
    #[inline]
    fn on_note(
        &mut self,
        now: SimTime,
        node: NodeId,
        clock: &Clock,
        note: &Note,
        out: &mut Vec<EventKind>,
    ) {
        match (note, &mut self.paxos) {
            (Note::Paxos(n), Some(m)) => m.on_note(node, n, &mut self.scratch),
            (Note::Paxos(_), None) => {}
            _ => (monitors().on_note)(self, now, node, clock, note),
        }
        if !self.scratch.is_empty() {
            self.collect(out);
        }
    }

    /// `node` has handled an event and is now in `state`; events found go to `out`.
    #[inline]
    fn after_step(
        &mut self,
        now: SimTime,
        node: NodeId,
        state: &NodeState,
        out: &mut Vec<EventKind>,
    ) {
        match (state, &mut self.paxos) {
            (NodeState::Paxos(p), Some(m)) => m.after_step(node, p, &mut self.scratch),
            (NodeState::Paxos(_), None) => {}
            _ => (monitors().after_step)(self, now, node, state),
        }
        if !self.scratch.is_empty() {
            self.collect(out);
        }
    }
}

/// What a monitor can say about a step.
#[derive(Clone, Debug, PartialEq)]
pub enum Finding {
    Violation(Invariant, String),
    /// A derived fact for the record (a value became chosen, a split-brain
    /// window opened …).
    Note(Note),
}
