//! The app's non-reactive model: a recorded run and everything derived from
//! it once (flights, quorum marks, narration), plus the cursor — the world at
//! the time the user is looking at. It lives in a `StoredValue`, outside the
//! reactive graph; each frame publishes a small `Snap` of it.

use crate::check::lease_monitor::LeaseStats;
use crate::check::red_flags::RedFlags;
use crate::check::Invariant;
use crate::viz::lease::Lanes;
use crate::protocol::paxos::PaxosNote;
use crate::protocol::{Note, Value};
use crate::scenario::run::Run;
use crate::scenario::{Protocol, Scenario};
use crate::sim::{SimTime, Simulator};
use crate::trace::EventKind;
use crate::viz::flights::Flights;
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
    pub chosen: Option<(Value, u64)>,
    /// The trace hash (same bytes natively and here), for runs of a sane size.
    pub hash: Option<String>,
    /// Lease lab: the lanes and the red flags.
    pub lanes: Option<Lanes>,
    pub flags: Option<RedFlags>,
}

impl Model {
    pub fn new(scenario: &Scenario) -> Result<Model, String> {
        let run = Run::record(scenario).map_err(|e| e.to_string())?;
        Ok(Self::from_run(run))
    }

    pub fn from_run(run: Run) -> Model {
        let flights = Flights::from_trace(&run.trace, run.end);
        let marks = Marks::from_trace(&run.trace);
        let story = story(&run.trace, run.names.len());
        let mut times: Vec<u64> = run.trace.iter().map(|e| e.t.0).collect();
        times.dedup();
        let mut milestones = Vec::new();
        let mut broken = Vec::new();
        let mut chosen = None;
        for e in &run.trace {
            let m = match &e.kind {
                EventKind::Fault { .. } => Some(Milestone::Fault),
                EventKind::Violation { invariant, .. } => {
                    broken.push((*invariant, e.t.0, e.seq));
                    Some(Milestone::Violation)
                }
                EventKind::Note(Note::Paxos(PaxosNote::Chosen { value, .. })) => {
                    chosen.get_or_insert((*value, e.t.0));
                    Some(Milestone::Decision)
                }
                EventKind::Note(Note::Lease(
                    crate::protocol::lease::LeaseNote::Granted { .. } | crate::protocol::lease::LeaseNote::WriteRejected { .. },
                )) => Some(Milestone::Lease),
                _ => None,
            };
            if let Some(m) = m {
                milestones.push((e.t.0, m));
            }
        }
        let mut cursor = run.checkpoints[0].sim.clone();
        cursor.set_recording(false);
        let layout = Layout::new(run.names.len());
        let hash = (run.trace.len() <= 300_000).then(|| run.hash());
        let lease = run.scenario.protocol == Protocol::Lease;
        let lanes = lease.then(|| crate::viz::lease::lanes(&run));
        let flags = if lease { crate::check::red_flags::evaluate(&run.scenario).ok() } else { None };
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
            hash,
            lanes,
            flags,
        }
    }

    pub fn end(&self) -> u64 {
        self.run.end.0
    }

    pub fn scenario(&self) -> &Scenario {
        &self.run.scenario
    }

    pub fn is_paxos(&self) -> bool {
        self.run.scenario.protocol == Protocol::Paxos
    }

    pub fn seek(&mut self, t: u64) {
        let end = self.end();
        self.run.seek(&mut self.cursor, SimTime(t.min(end)));
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
        self.milestones.iter().map(|m| m.0).filter(|&x| x < t).last()
    }

    /// How many narration lines have happened by `t`.
    pub fn story_upto(&self, t: u64) -> usize {
        self.story.partition_point(|l| l.t.0 <= t)
    }

    /// The parliament as it is at the cursor.
    pub fn snap(&self, t: u64) -> Snap {
        let t = SimTime(t);
        let seats = parliament::seats(&self.cursor);
        let quorum = self.marks.quorum_at(t).cloned();
        let pick = self.marks.pick_at(t).cloned();
        let mut messengers = parliament::messengers(&self.layout, &self.flights, t);
        // Sorted by id: components find their messenger by binary search.
        messengers.sort_by_key(|m| m.id);
        Snap {
            t: t.0,
            seats,
            messengers,
            quorum,
            pick,
            chosen: self.chosen.filter(|(_, at)| *at <= t.0),
            broken: self.broken.iter().copied().filter(|(_, at, _)| *at <= t.0).collect(),
            story_upto: self.story_upto(t.0),
            lease: self.cursor.monitors().lease.as_ref().map(|m| m.stats_at(t)),
        }
    }
}

/// What the views draw for one instant.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Snap {
    pub t: u64,
    pub seats: Vec<Seat>,
    pub messengers: Vec<Messenger>,
    pub quorum: Option<QuorumMark>,
    pub pick: Option<ForcedMark>,
    pub chosen: Option<(Value, u64)>,
    pub broken: Vec<(Invariant, u64, u64)>,
    pub story_upto: usize,
    /// Lease lab: the figures so far.
    pub lease: Option<LeaseStats>,
}
