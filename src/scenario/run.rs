//! A recorded run of a scenario: the whole trace plus checkpoints, so that
//! the time machine can jump to any instant by restoring the nearest
//! checkpoint and replaying forward (determinism makes the replay exact).

use super::Simulator;
use super::{Scenario, ScenarioError};
use crate::check::Invariant;
use crate::protocol::paxos::PaxosNote;
use crate::protocol::Note;
use crate::sim::SimTime;
use crate::trace::{self, EventKind, TraceEvent};
use std::sync::Arc;

/// How a run is recorded.
#[derive(Clone, Copy, Debug)]
pub struct RecordOptions {
    /// Take a checkpoint every this many simulator steps.
    pub checkpoint_every: u64,
    /// Stop recording after this many trace events (protects the browser).
    pub max_events: usize,
}

impl Default for RecordOptions {
    fn default() -> Self {
        RecordOptions {
            // Seeking replays at most this many steps from a checkpoint.
            checkpoint_every: 64,
            max_events: 2_000_000,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Checkpoint {
    pub steps: u64,
    pub trace_len: usize,
    pub sim: Simulator,
}

#[derive(Clone, Debug)]
pub struct Run {
    pub scenario: Scenario,
    pub names: Arc<Vec<String>>,
    pub trace: Vec<TraceEvent>,
    pub checkpoints: Vec<Checkpoint>,
    /// The instant the run stopped (the stop time, or when nothing was left).
    pub end: SimTime,
    /// Recording stopped at `max_events` before the scenario's end.
    pub truncated: bool,
    /// The world at the end of the run.
    pub last: Simulator,
}

/// Headline figures of a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunSummary {
    pub events: usize,
    pub steps: u64,
    pub end_us: u64,
    /// Time the first decree became chosen (a majority voted for it).
    pub decided_at_us: Option<u64>,
    pub chosen: Vec<String>,
    /// (node, decree, time) for each learner that learned.
    pub learned: Vec<(String, String, u64)>,
    /// (invariant, time, seq, detail) for each reported violation.
    pub violations: Vec<(Invariant, u64, u64, String)>,
    pub sent: usize,
    pub delivered: usize,
    pub dropped: usize,
    pub duplicated: usize,
    pub ballots_started: usize,
}

impl Run {
    pub fn record(scenario: &Scenario) -> Result<Run, ScenarioError> {
        Self::record_with(scenario, RecordOptions::default())
    }

    pub fn record_with(scenario: &Scenario, opts: RecordOptions) -> Result<Run, ScenarioError> {
        let world = scenario.build()?;
        let mut sim = Simulator::new(world, true);
        let mut trace: Vec<TraceEvent> = sim.drain_events().collect();
        let mut checkpoints = vec![Checkpoint {
            steps: 0,
            trace_len: trace.len(),
            sim: sim.clone(),
        }];
        let stop = SimTime(scenario.stop_at_us);
        let mut truncated = false;
        while sim.step_until(stop) {
            trace.extend(sim.drain_events());
            if sim.steps() % opts.checkpoint_every.max(1) == 0 {
                checkpoints.push(Checkpoint {
                    steps: sim.steps(),
                    trace_len: trace.len(),
                    sim: sim.clone(),
                });
            }
            if trace.len() >= opts.max_events {
                truncated = true;
                break;
            }
        }
        let end = if truncated || sim.is_quiet() {
            sim.now()
        } else {
            stop
        };
        sim.run_until(end);
        Ok(Run {
            scenario: scenario.clone(),
            names: Arc::new(scenario.node_names()),
            trace,
            checkpoints,
            end,
            truncated,
            last: sim,
        })
    }

    /// Run without keeping a trace (for checking and benchmarks).
    pub fn execute(scenario: &Scenario) -> Result<Simulator, ScenarioError> {
        let mut sim = Simulator::new(scenario.build()?, false);
        let stop = SimTime(scenario.stop_at_us);
        while sim.step_until(stop) {}
        Ok(sim)
    }

    /// The world as it was at true time `t` (every event at or before `t` done).
    pub fn state_at(&self, t: SimTime) -> Simulator {
        let mut sim = self.checkpoints[self.checkpoint_before(t)].sim.clone();
        sim.set_recording(false);
        sim.run_until(t.min(self.end));
        sim
    }

    /// The last checkpoint at or before `t`.
    fn checkpoint_before(&self, t: SimTime) -> usize {
        self.checkpoints
            .partition_point(|c| c.sim.now() <= t)
            .saturating_sub(1)
    }

    /// Bring `sim` (a state of this run) to time `t`: forward by stepping
    /// while no checkpoint lies between, otherwise from the last checkpoint
    /// before `t` (backward, or a long jump forward: replaying every step
    /// in between would cost as much as the distance).
    pub fn seek(&self, sim: &mut Simulator, t: SimTime) {
        let t = t.min(self.end);
        // A checkpoint strictly after `sim` has done everything `sim` has.
        if t >= sim.now() && self.checkpoints[self.checkpoint_before(t)].sim.now() <= sim.now() {
            sim.run_until(t);
        } else {
            *sim = self.state_at(t);
        }
    }

    /// Index of the first trace event after time `t`.
    pub fn events_until(&self, t: SimTime) -> usize {
        self.trace.partition_point(|e| e.t <= t)
    }

    /// The trace hash: FNV-1a of the canonical JSON of the events.
    pub fn hash(&self) -> String {
        trace::hex_hash(trace::json::events_hash(&self.names, &self.trace))
    }

    pub fn summary(&self) -> RunSummary {
        let mut s = RunSummary {
            events: self.trace.len(),
            steps: self.last.steps(),
            end_us: self.end.0,
            ..Default::default()
        };
        let name = |i: crate::sim::NodeId| {
            self.names
                .get(i.index())
                .cloned()
                .unwrap_or_else(|| "net".into())
        };
        for e in &self.trace {
            match &e.kind {
                EventKind::Send { .. } => s.sent += 1,
                EventKind::Deliver { .. } => s.delivered += 1,
                EventKind::Drop { .. } => s.dropped += 1,
                EventKind::Duplicate { .. } => s.duplicated += 1,
                EventKind::Note(Note::Paxos(PaxosNote::Chosen { value, .. })) => {
                    s.decided_at_us.get_or_insert(e.t.0);
                    s.chosen.push(value.to_string());
                }
                EventKind::Note(Note::Paxos(PaxosNote::Learned { value, .. })) => {
                    s.learned.push((name(e.node), value.to_string(), e.t.0));
                }
                EventKind::Note(Note::Paxos(PaxosNote::BallotStarted { .. })) => {
                    s.ballots_started += 1
                }
                EventKind::Violation { invariant, detail } => {
                    s.violations
                        .push((*invariant, e.t.0, e.seq, detail.clone()));
                }
                _ => {}
            }
        }
        s
    }
}
