//! The Multi-Paxos view's data, from a run's trace up to a moment: each
//! replica's log (slots as back-of-ledger notes while only voted, in ink once chosen and
//! learned, underlined once applied), who sits in the leader's chair with
//! which ballot, who is down, what each client last heard — and, over the
//! whole run, when each replica believed it held the master lease. Pure
//! data computed from the trace (never from node internals); the view draws it.

use crate::protocol::ballot::Ballot;
use crate::protocol::multipaxos::{Cmd, MpMsg, MpNote};
use crate::protocol::{Msg, Note};
use crate::scenario::run::Run;
use crate::scenario::Role;
use crate::sim::fault::Fault;
use crate::sim::{NodeId, SimTime};
use crate::trace::multipaxos::cmd_label;
use crate::trace::{EventKind, TraceEvent};
use std::collections::BTreeMap;

/// How far a slot is in a replica's log.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Ink {
    /// The replica voted (2b) for this command in this slot: a note at the back of the ledger (stable).
    Voted,
    /// Chosen and written in the log (ink).
    Learned,
    /// Applied to the state machine, in slot order.
    Applied,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub label: String,
    pub noop: bool,
    pub ink: Ink,
    /// The ballot of the vote (for a cell only voted).
    pub ballot: Option<Ballot>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ReplicaRow {
    pub node: NodeId,
    pub name: String,
    /// Slot number → what this replica holds there.
    pub cells: BTreeMap<u32, Cell>,
    /// The ballot it leads with, while it believes it leads.
    pub leads: Option<Ballot>,
    /// Running for election with this ballot (phase 1 not yet done).
    pub running: Option<Ballot>,
    pub down: bool,
    /// It believes it holds the master lease.
    pub lease: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ClientRow {
    pub node: NodeId,
    pub name: String,
    /// The command it waits on, if any.
    pub waiting: Option<String>,
    /// What it last heard: "x=1 → ok #0".
    pub last: Option<String>,
}

/// The picture at one moment.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Snapshot {
    pub replicas: Vec<ReplicaRow>,
    pub clients: Vec<ClientRow>,
    /// Slots 1 … `slots − 1` appear in some log (slot numbers start at 1).
    pub slots: u32,
}

/// A span of true time during which a replica believed it held the master lease.
#[derive(Clone, Debug, PartialEq)]
pub struct LeaseSpan {
    pub from: SimTime,
    pub to: SimTime,
}

/// The master-lease lanes of a whole run (drawn up to the cursor).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct LeaseLanes {
    /// Per replica: its name and its spans of belief.
    pub lanes: Vec<(NodeId, String, Vec<LeaseSpan>)>,
    /// True when the scenario runs with a master lease at all.
    pub enabled: bool,
}

fn outcome_short(o: &crate::protocol::multipaxos::Outcome) -> String {
    use crate::protocol::multipaxos::Outcome;
    match *o {
        Outcome::Done => "done".into(),
        Outcome::Value { value: Some(v), .. } => v.to_string(),
        Outcome::Value { value: None, .. } => "—".into(),
        Outcome::Written { version } => format!("ok #{}", version.0),
        Outcome::Granted { generation } => format!("g{generation}"),
        Outcome::Busy { .. } => "busy".into(),
        Outcome::Released => "released".into(),
        Outcome::NotHeld => "not held".into(),
        Outcome::SessionOpened => "session".into(),
        Outcome::NoSession => "no session".into(),
        Outcome::Sequencer { current } => if current { "current" } else { "stale" }.into(),
    }
}

fn cell(cmd: &Cmd, ink: Ink, ballot: Option<Ballot>) -> Cell {
    Cell { label: cmd_label(cmd), noop: cmd.is_noop(), ink, ballot }
}

/// The logs, chairs and clients after the events `trace` (a prefix of a run).
pub fn snapshot(run: &Run, trace: &[TraceEvent]) -> Snapshot {
    let s = &run.scenario;
    let name = |n: NodeId| run.names.get(n.index()).cloned().unwrap_or_default();
    let mut replicas: Vec<ReplicaRow> = s
        .nodes_with(Role::Replica)
        .into_iter()
        .map(|node| ReplicaRow {
            node,
            name: name(node),
            cells: BTreeMap::new(),
            leads: None,
            running: None,
            down: false,
            lease: false,
        })
        .collect();
    let mut clients: Vec<ClientRow> =
        s.nodes_with(Role::Client).into_iter().map(|node| ClientRow { node, name: name(node), waiting: None, last: None }).collect();
    let mut slots = 0u32;
    for e in trace {
        let r = replicas.iter().position(|r| r.node == e.node);
        let c = clients.iter().position(|c| c.node == e.node);
        match &e.kind {
            // Acknowledging another's heartbeat: it follows, whatever it ran for.
            EventKind::Send { msg: Msg::Multipaxos(MpMsg::HeartbeatAck { ballot, .. }), to, .. } if *to != e.node => {
                if let Some(i) = r {
                    if replicas[i].running.is_some_and(|b| b < *ballot) {
                        replicas[i].running = None;
                    }
                }
            }
            EventKind::Send { msg: Msg::Multipaxos(MpMsg::Accepted { ballot, slot, cmd }), .. } => {
                if let Some(i) = r {
                    slots = slots.max(slot.0 + 1);
                    let row = &mut replicas[i];
                    // A vote is pencil; it never overwrites ink.
                    let keep = row.cells.get(&slot.0).is_some_and(|c| c.ink > Ink::Voted);
                    if !keep {
                        row.cells.insert(slot.0, cell(cmd, Ink::Voted, Some(*ballot)));
                    }
                }
            }
            EventKind::Note(Note::Multipaxos(n)) => match n {
                MpNote::Learned { slot, cmd } => {
                    if let Some(i) = r {
                        slots = slots.max(slot.0 + 1);
                        replicas[i].cells.insert(slot.0, cell(cmd, Ink::Learned, None));
                    }
                }
                MpNote::Applied { slot, cmd, .. } => {
                    if let Some(i) = r {
                        slots = slots.max(slot.0 + 1);
                        replicas[i].cells.insert(slot.0, cell(cmd, Ink::Applied, None));
                    }
                }
                MpNote::BallotStarted { ballot, .. } => {
                    if let Some(i) = r {
                        replicas[i].running = Some(*ballot);
                        replicas[i].leads = None;
                    }
                }
                MpNote::Elected { ballot, .. } => {
                    if let Some(i) = r {
                        replicas[i].leads = Some(*ballot);
                        replicas[i].running = None;
                    }
                }
                MpNote::SteppedDown { .. } => {
                    if let Some(i) = r {
                        replicas[i].leads = None;
                        replicas[i].running = None;
                        replicas[i].lease = false;
                    }
                }
                MpNote::LeaseHeld { .. } => {
                    if let Some(i) = r {
                        replicas[i].lease = true;
                    }
                }
                MpNote::LeaseLost { .. } => {
                    if let Some(i) = r {
                        replicas[i].lease = false;
                    }
                }
                MpNote::Asked { cmd } => {
                    if let Some(i) = c {
                        clients[i].waiting = Some(cmd_label(cmd));
                    }
                }
                MpNote::Answered { outcome, .. } => {
                    if let Some(i) = c {
                        let asked = clients[i].waiting.take().unwrap_or_default();
                        clients[i].last = Some(format!("{asked} → {}", outcome_short(outcome)));
                    }
                }
                _ => {}
            },
            EventKind::Fault { fault: Fault::Crash { node } } => {
                if let Some(row) = replicas.iter_mut().find(|r| r.node == *node) {
                    row.down = true;
                    row.leads = None;
                    row.running = None;
                    row.lease = false;
                    // Votes are on stable storage and so is the log; what is
                    // lost is the applied state machine, rebuilt on restart.
                    for c in row.cells.values_mut() {
                        if c.ink == Ink::Applied {
                            c.ink = Ink::Learned;
                        }
                    }
                }
            }
            EventKind::Fault { fault: Fault::Restart { node } } => {
                if let Some(row) = replicas.iter_mut().find(|r| r.node == *node) {
                    row.down = false;
                }
            }
            _ => {}
        }
    }
    Snapshot { replicas, clients, slots }
}

/// When each replica believed it held the master lease, in true time, from
/// the monitors' notes: `master_lease_held` when a belief begins (renewals
/// extend it silently), `master_lease_released` when it ends — by expiry on
/// the master's own clock, a step-down or a crash — or the end of the run.
pub fn lease_lanes(run: &Run) -> LeaseLanes {
    let s = &run.scenario;
    let enabled = s.multipaxos.as_ref().is_some_and(|m| m.lease_us.is_some());
    let mut lanes: Vec<(NodeId, String, Vec<LeaseSpan>)> = s
        .nodes_with(Role::Replica)
        .into_iter()
        .map(|n| (n, run.names.get(n.index()).cloned().unwrap_or_default(), Vec::new()))
        .collect();
    // Per lane: the open span's start.
    let mut open: Vec<Option<SimTime>> = vec![None; lanes.len()];
    let close = |lane: &mut Vec<LeaseSpan>, o: &mut Option<SimTime>, at: SimTime| {
        if let Some(from) = o.take() {
            lane.push(LeaseSpan { from, to: at });
        }
    };
    for e in &run.trace {
        let EventKind::Note(Note::Multipaxos(n)) = &e.kind else { continue };
        match n {
            MpNote::MasterLeaseHeld { holder, .. } => {
                if let Some(i) = lanes.iter().position(|l| l.0 == *holder) {
                    open[i].get_or_insert(e.t);
                }
            }
            MpNote::MasterLeaseReleased { holder, .. } => {
                if let Some(i) = lanes.iter().position(|l| l.0 == *holder) {
                    close(&mut lanes[i].2, &mut open[i], e.t);
                }
            }
            _ => {}
        }
    }
    for (i, o) in open.iter_mut().enumerate() {
        close(&mut lanes[i].2, o, run.end);
    }
    LeaseLanes { lanes, enabled }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::builtin;

    fn run(name: &str) -> Run {
        Run::record(&builtin::get(name).unwrap()).unwrap()
    }

    #[test]
    fn after_a_calm_run_every_replica_holds_the_same_applied_log() {
        let r = run("multi-calm");
        let s = snapshot(&r, &r.trace);
        assert_eq!(s.replicas.len(), 3);
        assert!(s.slots >= 4, "four writes, {} slots", s.slots);
        let first: Vec<_> = s.replicas[0].cells.values().map(|c| (c.label.clone(), c.ink)).collect();
        for row in &s.replicas {
            let mine: Vec<_> = row.cells.values().map(|c| (c.label.clone(), c.ink)).collect();
            assert_eq!(mine, first, "{}", row.name);
            assert!(row.cells.values().all(|c| c.ink == Ink::Applied), "{}", row.name);
        }
        assert_eq!(s.replicas.iter().filter(|r| r.leads.is_some()).count(), 1);
        assert!(s.clients.iter().all(|c| c.waiting.is_none() && c.last.is_some()));
    }

    #[test]
    fn a_new_leader_fills_the_gap_with_a_no_op() {
        let r = run("multi-leader-crash");
        let s = snapshot(&r, &r.trace);
        let alpha = &s.replicas[0];
        assert!(alpha.down, "Α crashed");
        let leader = s.replicas.iter().find(|r| r.leads.is_some()).expect("someone leads at the end");
        assert_ne!(leader.node, alpha.node);
        assert!(leader.cells.values().any(|c| c.noop), "the gap became a no-op: {:?}", leader.cells);
    }

    #[test]
    fn with_the_lease_the_beliefs_never_overlap_and_without_it_they_do() {
        let overlap = |l: &LeaseLanes| {
            let all: Vec<&LeaseSpan> = l.lanes.iter().flat_map(|x| x.2.iter()).collect();
            all.iter().enumerate().any(|(i, a)| all[i + 1..].iter().any(|b| a.from < b.to && b.from < a.to))
        };
        let on = lease_lanes(&run("master-lease"));
        assert!(on.enabled);
        assert!(on.lanes.iter().filter(|l| !l.2.is_empty()).count() >= 2, "the lease changed hands: {on:?}");
        assert!(!overlap(&on), "{on:?}");
        let off = lease_lanes(&run("two-masters"));
        assert!(!off.enabled);
    }
}
