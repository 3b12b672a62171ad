//! The Multi-Paxos view's data, from a run's trace up to a moment: each
//! replica's log (slots as back-of-ledger notes while only voted, in ink once chosen and
//! learned, underlined once applied), who sits in the leader's chair with
//! which ballot, who is down, what each client last heard — and, over the
//! whole run, when each replica believed it held the master lease. Pure
//! data computed from the trace (never from node internals); the view draws it.

use crate::protocol::ballot::Ballot;
use crate::protocol::multipaxos::{Cmd, MpMsg, MpNote, Op, Outcome, Verdict};
use crate::protocol::{Msg, Note};
use crate::scenario::run::Run;
use crate::scenario::Role;
use crate::sim::fault::Fault;
use crate::sim::{NodeId, SimTime};
use crate::sorted::VecMap;
use crate::trace::{EventKind, TraceEvent};

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
    /// The command, for the page to word in its language.
    pub cmd: Cmd,
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
    pub cells: VecMap<u32, Cell>,
    /// The ballot it leads with, while it believes it leads.
    pub leads: Option<Ballot>,
    /// Running for election with this ballot (phase 1 not yet done).
    pub running: Option<Ballot>,
    pub down: bool,
    /// A partition leaves it on a side with fewer than a majority of the
    /// replicas: it cannot be chosen a leader there, nor get anything chosen.
    pub cut_off: bool,
    /// It believes it holds the master lease.
    pub lease: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ClientRow {
    pub node: NodeId,
    pub name: String,
    /// The command it waits on, if any.
    pub waiting: Option<Cmd>,
    /// Its last command and the answer it heard.
    pub last: Option<(Cmd, Outcome)>,
    /// A Chubby client: its session as it sees it.
    pub session: Option<SessionMark>,
    /// The sequencers it believes it holds: (lock, generation).
    pub holds: Vec<(u8, u32)>,
}

/// A Chubby client's session, as the client sees it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SessionMark {
    Safe,
    Jeopardy,
    Lost,
}

impl SessionMark {
    pub fn as_str(self) -> &'static str {
        match self {
            SessionMark::Safe => "safe",
            SessionMark::Jeopardy => "jeopardy",
            SessionMark::Lost => "lost",
        }
    }

    /// What a client's own note makes of its session; `asked`: the
    /// operation it was waiting on (an answer opens a session only to
    /// `OpenSession`).
    fn after(note: &MpNote, asked: Option<Op>) -> Option<SessionMark> {
        match note {
            MpNote::Answered {
                outcome: Outcome::SessionOpened,
                ..
            } if asked == Some(Op::OpenSession) => Some(SessionMark::Safe),
            MpNote::Jeopardy => Some(SessionMark::Jeopardy),
            MpNote::SessionSafe { .. } => Some(SessionMark::Safe),
            MpNote::SessionLost { .. } => Some(SessionMark::Lost),
            _ => None,
        }
    }
}

/// A Chubby cell's file server: the file, and its last verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct FileRow {
    pub node: NodeId,
    pub name: String,
    /// The file's contents and the generation that wrote them.
    pub file: Option<(String, u32)>,
    /// The last write checked: (writer, generation, verdict).
    pub last: Option<(String, u32, Verdict)>,
}

/// The picture at one moment.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Snapshot {
    pub replicas: Vec<ReplicaRow>,
    pub clients: Vec<ClientRow>,
    /// Slots 1 … `slots − 1` appear in some log (slot numbers start at 1).
    pub slots: u32,
    /// A Chubby cell's file server.
    pub file: Option<FileRow>,
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

fn cell(cmd: &Cmd, ink: Ink, ballot: Option<Ballot>) -> Cell {
    Cell {
        cmd: *cmd,
        noop: cmd.is_noop(),
        ink,
        ballot,
    }
}

/// The logs, chairs and clients after the events `trace` (a prefix of a run).
pub fn snapshot(run: &Run, trace: &[TraceEvent]) -> Snapshot {
    let mut c = LogCursor::new(run);
    c.advance_over(run, trace);
    c.snap
}

/// The picture, kept up to date as the cursor moves forward: playing a run
/// costs the events that passed since the last frame, not the whole prefix
/// again (a long run has tens of thousands). Moving back starts over.
#[derive(Clone, Debug, Default)]
pub struct LogCursor {
    pub snap: Snapshot,
    /// Events taken in so far (a prefix of the run's trace).
    pub upto: usize,
    /// Writes delivered to the file server: (writer, generation, value).
    pending: Vec<(NodeId, u32, String)>,
}

impl LogCursor {
    pub fn new(run: &Run) -> Self {
        let s = &run.scenario;
        let name = |n: NodeId| run.names.get(n.index()).cloned().unwrap_or_default();
        let replicas = s
            .nodes_with(Role::Replica)
            .into_iter()
            .map(|node| ReplicaRow {
                node,
                name: name(node),
                cells: VecMap::new(),
                leads: None,
                running: None,
                down: false,
                cut_off: false,
                lease: false,
            })
            .collect();
        let clients = s
            .nodes_with(Role::Client)
            .into_iter()
            .map(|node| ClientRow {
                node,
                name: name(node),
                waiting: None,
                last: None,
                session: None,
                holds: Vec::new(),
            })
            .collect();
        let file = s.nodes_with(Role::Storage).first().map(|&node| FileRow {
            node,
            name: name(node),
            file: None,
            last: None,
        });
        LogCursor {
            snap: Snapshot {
                replicas,
                clients,
                slots: 0,
                file,
            },
            upto: 0,
            pending: Vec::new(),
        }
    }

    /// The picture after the first `upto` events of the run.
    pub fn advance(&mut self, run: &Run, upto: usize) -> &Snapshot {
        let upto = upto.min(run.trace.len());
        if upto < self.upto {
            *self = LogCursor::new(run);
        }
        let from = self.upto;
        self.advance_over(run, &run.trace[from..upto]);
        self.upto = upto;
        &self.snap
    }

    fn advance_over(&mut self, run: &Run, trace: &[TraceEvent]) {
        let name = |n: NodeId| run.names.get(n.index()).cloned().unwrap_or_default();
        let Snapshot {
            replicas,
            clients,
            slots,
            file,
        } = &mut self.snap;
        let pending = &mut self.pending;
        for e in trace {
            let r = replicas.iter().position(|r| r.node == e.node);
            let c = clients.iter().position(|c| c.node == e.node);
            // A client's session, before its note's other effects (an answer
            // is read against the command still waiting).
            if let (Some(i), EventKind::Note(Note::Multipaxos(n))) = (c, &e.kind) {
                if let Some(m) = SessionMark::after(n, clients[i].waiting.map(|w| w.op)) {
                    clients[i].session = Some(m);
                }
            }
            match &e.kind {
                // Acknowledging another's heartbeat: it follows, whatever it ran for.
                EventKind::Send {
                    msg: Msg::Multipaxos(MpMsg::HeartbeatAck { ballot, .. }),
                    to,
                    ..
                } if *to != e.node => {
                    if let Some(i) = r {
                        if replicas[i].running.is_some_and(|b| b < *ballot) {
                            replicas[i].running = None;
                        }
                    }
                }
                EventKind::Send {
                    msg: Msg::Multipaxos(MpMsg::Accepted { ballot, slot, cmd }),
                    ..
                } => {
                    if let Some(i) = r {
                        *slots = (*slots).max(slot.0 + 1);
                        let row = &mut replicas[i];
                        // A vote is pencil; it never overwrites ink.
                        let keep = row.cells.get(&slot.0).is_some_and(|c| c.ink > Ink::Voted);
                        if !keep {
                            row.cells
                                .insert(slot.0, cell(cmd, Ink::Voted, Some(*ballot)));
                        }
                    }
                }
                EventKind::Note(Note::Multipaxos(n)) => match n {
                    MpNote::Learned { slot, cmd } => {
                        if let Some(i) = r {
                            *slots = (*slots).max(slot.0 + 1);
                            replicas[i]
                                .cells
                                .insert(slot.0, cell(cmd, Ink::Learned, None));
                        }
                    }
                    MpNote::Applied { slot, cmd, .. } => {
                        if let Some(i) = r {
                            *slots = (*slots).max(slot.0 + 1);
                            replicas[i]
                                .cells
                                .insert(slot.0, cell(cmd, Ink::Applied, None));
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
                            clients[i].waiting = Some(*cmd);
                        }
                    }
                    MpNote::Answered { outcome, .. } => {
                        if let Some(i) = c {
                            let row = &mut clients[i];
                            let Some(asked) = row.waiting.take() else {
                                continue;
                            };
                            row.last = Some((asked, *outcome));
                            match (asked.op, outcome) {
                                (Op::Acquire { lock }, Outcome::Granted { generation }) => {
                                    row.holds.retain(|h| h.0 != lock);
                                    row.holds.push((lock, *generation));
                                }
                                (Op::Release { lock }, _) => row.holds.retain(|h| h.0 != lock),
                                _ => {}
                            }
                        }
                    }
                    MpNote::SessionLost { .. } => {
                        if let Some(i) = c {
                            clients[i].holds.clear();
                        }
                    }
                    MpNote::WriteChecked {
                        client,
                        lock,
                        generation,
                        verdict,
                    } => {
                        if let Some(f) = file.as_mut().filter(|f| f.node == e.node) {
                            f.last = Some((name(*client), *generation, *verdict));
                        }
                        // Told its sequencer is stale, the writer drops it.
                        if *verdict != Verdict::Accepted {
                            if let Some(w) = clients.iter_mut().find(|c| c.node == *client) {
                                w.holds.retain(|h| h.0 != *lock);
                            }
                        }
                    }
                    _ => {}
                },
                // The file's contents come with the write the server accepts.
                EventKind::Send {
                    msg:
                        Msg::Multipaxos(MpMsg::WriteReply {
                            generation,
                            verdict: Verdict::Accepted,
                            ..
                        }),
                    to,
                    ..
                } => {
                    if let Some(f) = file.as_mut().filter(|f| f.node == e.node) {
                        let value = pending
                            .iter()
                            .find(|p| p.0 == *to && p.1 == *generation)
                            .map(|p| p.2.clone());
                        f.file = value.map(|v| (v, *generation));
                    }
                }
                EventKind::Deliver {
                    msg:
                        Msg::Multipaxos(MpMsg::Write {
                            generation, value, ..
                        }),
                    from,
                    ..
                } => {
                    if file.as_ref().is_some_and(|f| f.node == e.node) {
                        pending.push((*from, *generation, value.to_string()));
                    }
                }
                EventKind::Fault {
                    fault: Fault::Crash { node },
                } => {
                    if let Some(w) = clients.iter_mut().find(|c| c.node == *node) {
                        if w.session.is_some() {
                            w.session = Some(SessionMark::Lost);
                        }
                        w.holds.clear();
                        w.waiting = None;
                    }
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
                EventKind::Fault {
                    fault: Fault::Restart { node },
                } => {
                    if let Some(row) = replicas.iter_mut().find(|r| r.node == *node) {
                        row.down = false;
                    }
                }
                // A node in no group reaches every side.
                EventKind::Fault {
                    fault: Fault::Partition { groups, .. },
                } => {
                    let majority = replicas.len() / 2 + 1;
                    let on_side =
                        |g: &Vec<NodeId>| replicas.iter().filter(|r| g.contains(&r.node)).count();
                    let sides: Vec<usize> = replicas
                        .iter()
                        .map(|r| {
                            groups
                                .iter()
                                .find(|g| g.contains(&r.node))
                                .map_or(majority, on_side)
                        })
                        .collect();
                    for (row, n) in replicas.iter_mut().zip(sides) {
                        row.cut_off = n < majority;
                    }
                }
                EventKind::Fault { fault: Fault::Heal } => {
                    replicas.iter_mut().for_each(|r| r.cut_off = false);
                }
                _ => {}
            }
        }
    }
}

/// A span of a Chubby client's session, as the client saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct SessionSpan {
    pub from: SimTime,
    pub to: SimTime,
    pub mark: SessionMark,
}

/// A write the file server judged, at the instant it judged it.
#[derive(Clone, Debug, PartialEq)]
pub struct WriteMark {
    pub at: SimTime,
    pub writer: NodeId,
    pub generation: u32,
    pub verdict: Verdict,
}

/// A Chubby cell's session lanes over the whole run: per client, when its
/// session was safe, in jeopardy or lost (by its own notes), and the file
/// server's verdicts on its writes.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SessionLanes {
    pub lanes: Vec<(NodeId, String, Vec<SessionSpan>)>,
    pub writes: Vec<WriteMark>,
    /// When a client was paused (it believes what it believed before).
    pub paused: Vec<(NodeId, SimTime, SimTime)>,
    /// When a master ended a client's session: (client, at, master).
    pub ended: Vec<(NodeId, SimTime, NodeId)>,
}

pub fn session_lanes(run: &Run) -> SessionLanes {
    let s = &run.scenario;
    if s.multipaxos.as_ref().is_none_or(|m| m.cell.is_none()) {
        return SessionLanes::default();
    }
    let mut lanes: Vec<(NodeId, String, Vec<SessionSpan>)> = s
        .nodes_with(Role::Client)
        .into_iter()
        .map(|n| {
            (
                n,
                run.names.get(n.index()).cloned().unwrap_or_default(),
                Vec::new(),
            )
        })
        .collect();
    let mut open: Vec<Option<(SimTime, SessionMark)>> = vec![None; lanes.len()];
    let mut writes = Vec::new();
    let (mut paused, mut ended) = (Vec::new(), Vec::new());
    let mut asked: Vec<Option<Op>> = vec![None; lanes.len()];
    for e in &run.trace {
        let subject = match &e.kind {
            EventKind::Fault {
                fault: Fault::Crash { node },
            } => *node,
            _ => e.node,
        };
        let i = lanes.iter().position(|l| l.0 == subject);
        let mark = match &e.kind {
            EventKind::Note(Note::Multipaxos(n)) => match n {
                MpNote::Asked { cmd } => {
                    if let Some(i) = i {
                        asked[i] = Some(cmd.op);
                    }
                    None
                }
                MpNote::WriteChecked {
                    client,
                    generation,
                    verdict,
                    ..
                } => {
                    writes.push(WriteMark {
                        at: e.t,
                        writer: *client,
                        generation: *generation,
                        verdict: *verdict,
                    });
                    None
                }
                MpNote::SessionTimedOut { client } => {
                    ended.push((*client, e.t, e.node));
                    None
                }
                _ => SessionMark::after(n, i.and_then(|i| asked[i])),
            },
            EventKind::Fault {
                fault: Fault::Pause { node, for_us },
            } => {
                paused.push((*node, e.t, SimTime((e.t.0 + for_us).min(run.end.0))));
                None
            }
            EventKind::Fault {
                fault: Fault::Crash { .. },
            } => i.and_then(|i| open[i]).map(|_| SessionMark::Lost),
            _ => None,
        };
        let (Some(i), Some(mark)) = (i, mark) else {
            continue;
        };
        if let Some((from, m)) = open[i].take() {
            lanes[i].2.push(SessionSpan {
                from,
                to: e.t,
                mark: m,
            });
        }
        // A lost session stays lost: drawn to the end of the run.
        open[i] = Some((e.t, mark));
    }
    for (i, o) in open.into_iter().enumerate() {
        if let Some((from, mark)) = o {
            lanes[i].2.push(SessionSpan {
                from,
                to: run.end,
                mark,
            });
        }
    }
    SessionLanes {
        lanes,
        writes,
        paused,
        ended,
    }
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
        .map(|n| {
            (
                n,
                run.names.get(n.index()).cloned().unwrap_or_default(),
                Vec::new(),
            )
        })
        .collect();
    // Per lane: the open span's start.
    let mut open: Vec<Option<SimTime>> = vec![None; lanes.len()];
    let close = |lane: &mut Vec<LeaseSpan>, o: &mut Option<SimTime>, at: SimTime| {
        if let Some(from) = o.take() {
            lane.push(LeaseSpan { from, to: at });
        }
    };
    for e in &run.trace {
        let EventKind::Note(Note::Multipaxos(n)) = &e.kind else {
            continue;
        };
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
    use crate::trace::multipaxos::cmd_label;

    fn run(name: &str) -> Run {
        Run::record(&builtin::get(name).unwrap()).unwrap()
    }

    #[test]
    fn after_a_calm_run_every_replica_holds_the_same_applied_log() {
        let r = run("multi-calm");
        let s = snapshot(&r, &r.trace);
        assert_eq!(s.replicas.len(), 3);
        assert!(s.slots >= 4, "four writes, {} slots", s.slots);
        let first: Vec<_> = s.replicas[0]
            .cells
            .values()
            .map(|c| (cmd_label(&c.cmd), c.ink))
            .collect();
        for row in &s.replicas {
            let mine: Vec<_> = row
                .cells
                .values()
                .map(|c| (cmd_label(&c.cmd), c.ink))
                .collect();
            assert_eq!(mine, first, "{}", row.name);
            assert!(
                row.cells.values().all(|c| c.ink == Ink::Applied),
                "{}",
                row.name
            );
        }
        assert_eq!(s.replicas.iter().filter(|r| r.leads.is_some()).count(), 1);
        assert!(s
            .clients
            .iter()
            .all(|c| c.waiting.is_none() && c.last.is_some()));
    }

    /// `two-masters` cuts Α (with C1) off from Β and Γ (with C2) from 0.6 s
    /// to 3.5 s: Α's row says it is cut off from a majority, theirs do not
    /// (two of three are a majority), and after the heal nobody's does.
    #[test]
    fn a_replica_on_the_minority_side_of_a_partition_is_cut_off() {
        let r = run("two-masters");
        let at = |us: u64| snapshot(&r, &r.trace[..r.events_until(SimTime(us))]);
        let cut = |s: &Snapshot| s.replicas.iter().map(|x| x.cut_off).collect::<Vec<_>>();
        assert_eq!(cut(&at(500_000)), [false, false, false]);
        assert_eq!(cut(&at(1_000_000)), [true, false, false]);
        assert_eq!(cut(&at(4_000_000)), [false, false, false]);
    }

    #[test]
    fn a_new_leader_fills_the_gap_with_a_no_op() {
        let r = run("multi-leader-crash");
        let s = snapshot(&r, &r.trace);
        let alpha = &s.replicas[0];
        assert!(alpha.down, "Α crashed");
        let leader = s
            .replicas
            .iter()
            .find(|r| r.leads.is_some())
            .expect("someone leads at the end");
        assert_ne!(leader.node, alpha.node);
        assert!(
            leader.cells.values().any(|c| c.noop),
            "the gap became a no-op: {:?}",
            leader.cells
        );
    }

    #[test]
    fn with_the_lease_the_beliefs_never_overlap_and_without_it_they_do() {
        let overlap = |l: &LeaseLanes| {
            let all: Vec<&LeaseSpan> = l.lanes.iter().flat_map(|x| x.2.iter()).collect();
            all.iter()
                .enumerate()
                .any(|(i, a)| all[i + 1..].iter().any(|b| a.from < b.to && b.from < a.to))
        };
        let on = lease_lanes(&run("master-lease"));
        assert!(on.enabled);
        assert!(
            on.lanes.iter().filter(|l| !l.2.is_empty()).count() >= 2,
            "the lease changed hands: {on:?}"
        );
        assert!(!overlap(&on), "{on:?}");
        let off = lease_lanes(&run("two-masters"));
        assert!(!off.enabled);
    }
}
