//! The app's non-reactive model: a recorded run and everything derived from
//! it once (flights, quorum marks, narration), plus the cursor — the world at
//! the time the user is looking at. It lives in a `StoredValue`, outside the
//! reactive graph; each frame publishes a small `Snap` of it.

use crate::check::lease_monitor::LeaseTally;
use crate::check::red_flags::RedFlags;
use crate::check::Invariant;
use crate::protocol::multipaxos::MpNote;
use crate::protocol::paxos::PaxosNote;
use crate::protocol::Kind as Protocol;
use crate::protocol::{Note, Value};
use crate::scenario::run::Run;
use crate::scenario::{Scenario, Simulator};
use crate::sim::SimTime;
use crate::trace::EventKind;
use crate::viz::flights::Flights;
use crate::viz::lease::Lanes;
use crate::viz::narrate::{story, Line};
use crate::viz::parliament::{self, ForcedMark, Layout, Marks, Messenger, QuorumMark, Seat};

/// Kinds of scrubber marker.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Milestone {
    Fault,
    Decision,
    Violation,
    Lease,
}

/// A model's derived views of other protocols than Paxos (see [`Model::lanes`]).
#[derive(Default)]
struct Derived {
    lanes: std::sync::OnceLock<Option<Lanes>>,
    sql: std::sync::OnceLock<Vec<crate::viz::sql::SqlStep>>,
    commit: std::sync::OnceLock<Option<crate::viz::commit::CommitLanes>>,
    flags: std::sync::OnceLock<Option<RedFlags>>,
}

pub struct Model {
    pub run: Run,
    pub flights: Flights,
    pub marks: Marks,
    pub story: Vec<Line>,
    /// Distinct event times, for stepping.
    pub times: Vec<u64>,
    pub milestones: Vec<(u64, Milestone)>,
    pub cursor: Simulator,
    pub layout: Layout,
    /// First violation of each invariant: time and trace position.
    pub broken: Vec<(Invariant, u64, u64)>,
    /// The first decree passed, and when.
    pub chosen: Option<(Value, u64)>,
    /// Another decree passed after it (a broken algorithm), and when.
    pub also: Option<(Value, u64)>,
    /// The trace hash (same bytes natively and here), for runs of a sane
    /// size: computed when first shown (it encodes the whole trace, and the
    /// first paint does not wait for it).
    hash: std::sync::OnceLock<Option<String>>,
    /// What only the lease lab's and commit's views draw, derived the first
    /// time one asks (through [`Model::lanes`] and its siblings, which only
    /// those views call: so their code is in those parts of the page, not in
    /// the first load).
    derived: Derived,
    /// Shown from recorded events alone (no simulator behind them): a trace
    /// from another version, a hand-made one, or another tool's.
    pub recorded_only: bool,
    /// Where a live run was recorded (`paxos-island pg --live`, `etcd`).
    pub recorded_on: Option<String>,
}

impl Model {
    pub fn new(scenario: &Scenario) -> Result<Model, String> {
        let run = Run::record(scenario).map_err(|e| e.to_string())?;
        Ok(Self::from_run(run))
    }

    fn is_lease(&self) -> bool {
        self.run.scenario.protocol == Protocol::Lease
    }

    /// Lease lab: a lane per worker (computed once, when first drawn).
    pub fn lanes(&self) -> Option<&Lanes> {
        self.derived
            .lanes
            .get_or_init(|| self.is_lease().then(|| crate::viz::lease::lanes(&self.run)))
            .as_ref()
    }

    /// Lease lab: the statement behind each step of the store and of `orders`.
    pub fn sql(&self) -> &[crate::viz::sql::SqlStep] {
        self.derived.sql.get_or_init(|| {
            if self.is_lease() {
                crate::viz::sql::steps(&self.run.scenario, &self.run.names, &self.run.trace)
            } else {
                Vec::new()
            }
        })
    }

    /// Lease lab: the scenario's red flags (not for recorded events alone).
    pub fn flags(&self) -> Option<&RedFlags> {
        self.derived
            .flags
            .get_or_init(|| {
                (self.is_lease() && !self.recorded_only)
                    .then(|| crate::check::red_flags::evaluate(&self.run.scenario).ok())
                    .flatten()
            })
            .as_ref()
    }

    /// Transaction commit: a lane per RM.
    pub fn commit(&self) -> Option<&crate::viz::commit::CommitLanes> {
        self.derived
            .commit
            .get_or_init(|| {
                (self.run.scenario.protocol == Protocol::Commit)
                    .then(|| crate::viz::commit::lanes(&self.run))
            })
            .as_ref()
    }

    /// The run's trace hash, for runs of a sane size (computed once).
    pub fn hash(&self) -> Option<&str> {
        self.hash
            .get_or_init(|| (self.run.trace.len() <= 300_000).then(|| self.run.hash()))
            .as_deref()
    }

    pub fn from_run(run: Run) -> Model {
        let flights = Flights::from_trace(&run.trace, run.end);
        let marks = Marks::from_trace(&run.trace);
        let story = story(&run.trace, run.names.len());
        let mut times: Vec<u64> = run.trace.iter().map(|e| e.t.0).collect();
        times.dedup();
        let mut milestones = Vec::new();
        let mut broken = Vec::new();
        let mut chosen: Option<(Value, u64)> = None;
        let mut also = None;
        for e in &run.trace {
            let m = match &e.kind {
                EventKind::Fault { .. } => Some(Milestone::Fault),
                EventKind::Violation { invariant, .. } => {
                    broken.push((*invariant, e.t.0, e.seq));
                    Some(Milestone::Violation)
                }
                EventKind::Note(Note::Paxos(PaxosNote::Chosen { value, .. })) => {
                    match chosen {
                        None => chosen = Some((*value, e.t.0)),
                        // A broken algorithm (a mutation) can pass a second decree.
                        Some((first, _)) if first != *value && also.is_none() => {
                            also = Some((*value, e.t.0))
                        }
                        _ => {}
                    }
                    Some(Milestone::Decision)
                }
                // The lease lab: a grant, a refused write, and a lease running
                // out (Shift+→ went from W1's grant to the refusal, past the
                // moment its lease died while it waited on the LLM).
                EventKind::Note(Note::Lease(
                    crate::protocol::lease::LeaseNote::Granted { .. }
                    | crate::protocol::lease::LeaseNote::Expired { .. }
                    | crate::protocol::lease::LeaseNote::WriteRejected { .. },
                )) => Some(Milestone::Lease),
                // Multi-Paxos and Chubby: a leader elected or deposed, a slot
                // chosen, a replica caught up; a session's turns and the file
                // server's verdicts (only faults stopped Shift+→ there).
                EventKind::Note(Note::Multipaxos(
                    MpNote::Elected { .. }
                    | MpNote::SteppedDown { .. }
                    | MpNote::Chosen { .. }
                    | MpNote::CaughtUp { .. },
                )) => Some(Milestone::Decision),
                EventKind::Note(Note::Multipaxos(
                    MpNote::LeaseLost { .. }
                    | MpNote::SessionTimedOut { .. }
                    | MpNote::Jeopardy
                    | MpNote::SessionSafe { failover: true, .. }
                    | MpNote::SessionLost { .. }
                    | MpNote::WriteChecked { .. },
                )) => Some(Milestone::Lease),
                EventKind::Note(Note::Commit(
                    crate::protocol::commit::CommitNote::TmDecided { .. }
                    | crate::protocol::commit::CommitNote::LeaderDecided { .. }
                    | crate::protocol::commit::CommitNote::CoordinatorBallot { .. },
                )) => Some(Milestone::Decision),
                _ => None,
            };
            if let Some(m) = m {
                milestones.push((e.t.0, m));
            }
        }
        let mut cursor = run.checkpoints[0].sim.clone();
        cursor.set_recording(false);
        // At the start, what happens at 0 µs has happened (as after a seek
        // to 0): the narration's first line is told, so its ledgers show it.
        run.seek(&mut cursor, SimTime(0));
        let layout = Layout::new(run.names.len());
        Model {
            run,
            flights,
            marks,
            story,
            times,
            milestones,
            cursor,
            layout,
            broken,
            chosen,
            also,
            hash: std::sync::OnceLock::new(),
            derived: Derived::default(),
            recorded_only: false,
            recorded_on: None,
        }
    }

    /// A model of recorded events alone. `scenario` is the file's, if it had
    /// a usable one (for names and roles); otherwise nodes are named from the
    /// events and the roles guessed from the names.
    pub fn recorded(
        scenario: Option<Scenario>,
        names: Vec<String>,
        trace: Vec<crate::trace::TraceEvent>,
    ) -> Result<Model, String> {
        use crate::scenario::run::Checkpoint;
        let end = trace.last().map_or(SimTime(1), |e| SimTime(e.t.0.max(1)));
        let scenario = match scenario {
            Some(s) => s,
            None => placeholder(&names, end.0),
        };
        // A quiet world to satisfy the time machine; nothing is simulated.
        let world = scenario
            .build()
            .or_else(|_| placeholder(&names, end.0).build())
            .map_err(|e| e.to_string())?;
        let sim = Simulator::new(world, false);
        let run = Run {
            names: std::sync::Arc::new(names),
            scenario,
            trace,
            checkpoints: vec![Checkpoint {
                steps: 0,
                trace_len: 0,
                sim: sim.clone(),
            }],
            end,
            truncated: false,
            last: sim,
        };
        let mut m = Model::from_run(run);
        m.recorded_only = true;
        Ok(m)
    }

    pub fn end(&self) -> u64 {
        self.run.end.0
    }

    pub fn scenario(&self) -> &Scenario {
        &self.run.scenario
    }

    /// Is the scenario a built-in one as it comes, but for the seed and the
    /// mutation (which the menus and a short link set)?
    pub fn as_built_in(&self) -> bool {
        let s = self.scenario();
        crate::scenario::builtin::get(&s.name).is_some_and(|mut b| {
            b.seed = s.seed;
            b.mutation = s.mutation;
            b == *s
        })
    }

    pub fn is_paxos(&self) -> bool {
        self.run.scenario.protocol == Protocol::Paxos
    }

    pub fn kind(&self) -> Protocol {
        self.run.scenario.protocol
    }

    pub fn seek(&mut self, t: u64) {
        let end = self.end();
        self.run.seek(&mut self.cursor, SimTime(t.min(end)));
    }

    /// How many distinct event times lie at or before `t`: what is on
    /// screen at `t` but for the messengers and the cursor changes only when
    /// this does.
    pub fn times_passed(&self, t: u64) -> usize {
        self.times.partition_point(|&x| x <= t)
    }

    /// The next distinct event time after `t`.
    pub fn next_time(&self, t: u64) -> Option<u64> {
        let i = self.times.partition_point(|&x| x <= t);
        self.times.get(i).copied()
    }

    /// The previous distinct event time before `t`.
    pub fn prev_time(&self, t: u64) -> Option<u64> {
        let i = self.times.partition_point(|&x| x < t);
        i.checked_sub(1).map(|i| self.times[i])
    }

    pub fn next_milestone(&self, t: u64) -> Option<u64> {
        self.milestones.iter().map(|m| m.0).find(|&x| x > t)
    }

    pub fn prev_milestone(&self, t: u64) -> Option<u64> {
        self.milestones
            .iter()
            .map(|m| m.0)
            .filter(|&x| x < t)
            .last()
    }

    /// How many narration lines have happened by `t`.
    pub fn story_upto(&self, t: u64) -> usize {
        self.story.partition_point(|l| l.t.0 <= t)
    }

    /// A recorded lease run's counters, from its notes up to `t`.
    fn recorded_lease_tally(&self, t: SimTime) -> Option<crate::check::lease_monitor::LeaseTally> {
        let l = self.run.scenario.lease.as_ref()?;
        let upto = self.run.events_until(t);
        Some(crate::check::recorded_lease_tally(
            self.run.names.clone(),
            l,
            &self.run.trace[..upto],
        ))
    }

    /// The messengers on their way at `t`, sorted by id (components find
    /// their messenger by binary search).
    pub fn messengers(&self, t: u64) -> Vec<Messenger> {
        let mut messengers = parliament::messengers(
            &self.layout,
            &self.flights,
            SimTime(t),
            super::browser::reduced_motion(),
        );
        crate::sorted::sort_by_key(&mut messengers, |m| (m.id, 0));
        messengers
    }

    /// The parliament as it is at the cursor.
    pub fn snap(&self, t: u64) -> Snap {
        let t = SimTime(t);
        let seats = if self.recorded_only {
            let upto = self.run.events_until(t);
            parliament::seats_from_trace(self.run.names.len(), &self.run.trace[..upto])
        } else {
            parliament::seats(&self.cursor)
        };
        let quorum = self.marks.quorum_at(t).cloned();
        let pick = self.marks.pick_at(t).cloned();
        Snap {
            seats,
            quorum,
            pick,
            chosen: self.chosen.filter(|(_, at)| *at <= t.0),
            also: self.also.filter(|(_, at)| *at <= t.0),
            broken: self
                .broken
                .iter()
                .copied()
                .filter(|(_, at, _)| *at <= t.0)
                .collect(),
            story_upto: self.story_upto(t.0),
            lease: if self.recorded_only {
                self.recorded_lease_tally(t)
            } else {
                self.cursor.monitors().lease.as_ref().map(|m| m.tally())
            },
        }
    }
}

/// What the views draw for one instant, but for what moves with every
/// frame (the messengers, [`Model::messengers`], and the cursor itself): it
/// changes only when an event passes, so a playing run publishes it only
/// then, and the views that read it stay still between events.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Snap {
    pub seats: Vec<Seat>,
    pub quorum: Option<QuorumMark>,
    pub pick: Option<ForcedMark>,
    pub chosen: Option<(Value, u64)>,
    pub also: Option<(Value, u64)>,
    pub broken: Vec<(Invariant, u64, u64)>,
    pub story_upto: usize,
    /// Lease lab: the figures so far, as the last event left them (those
    /// that grow between events are worked out per frame, `LeaseTally::at`).
    pub lease: Option<LeaseTally>,
}

/// A scenario that only names the nodes of a trace (roles guessed from the
/// names the built-in lease lab uses; everyone else is a legislator).
fn placeholder(names: &[String], end_us: u64) -> Scenario {
    use crate::scenario::{NodeSpec, PaxosSpec, Role};
    let lease = names.iter().any(|n| n == "store" || n == "orders");
    let role = |n: &str| -> Vec<Role> {
        if !lease {
            return vec![Role::Acceptor, Role::Learner];
        }
        vec![match n {
            "store" => Role::LeaseStore,
            "orders" => Role::Storage,
            "llm" => Role::Llm,
            "advisor" => Role::Advisor,
            _ => Role::Worker,
        }]
    };
    let mut nodes: Vec<NodeSpec> = names
        .iter()
        .filter(|n| crate::scenario::names::check_name(n).is_ok())
        .map(|n| NodeSpec {
            id: n.clone(),
            roles: role(n),
        })
        .collect();
    if nodes.is_empty() {
        nodes.push(NodeSpec {
            id: "?".into(),
            roles: vec![Role::Acceptor],
        });
    }
    let mut s = crate::scenario::builtin::parliament("recorded", 1, &[]);
    s.nodes = nodes;
    s.stop_at_us = end_us.clamp(1, crate::scenario::MAX_STOP_US);
    if lease {
        s.protocol = Protocol::Lease;
        s.paxos = None;
        s.lease = Some(crate::scenario::LeaseSpec::new(
            3_000_000,
            crate::protocol::lease::Design::NoLlm,
            Default::default(),
        ));
    } else {
        // A placeholder with more than nine legislators keeps nine acceptors.
        for n in s.nodes.iter_mut().skip(9) {
            n.roles = vec![Role::Learner];
        }
        s.paxos = Some(PaxosSpec {
            proposals: Vec::new(),
            ..s.paxos.clone().expect("a parliament has a paxos section")
        });
    }
    s
}
