//! Multi-Paxos's invariants, from what can be observed (DOMAIN.md §9).
//!
//! - **Agreement, per slot**: from the 2b messages sent, as for the Synod —
//!   a command is chosen in a slot when a true majority of replicas has sent
//!   `Accepted(b, slot, cmd)`; two different commands chosen in one slot
//!   break it.
//! - **Validity**: every 2a carries a client's command, a no-op, or the end
//!   of a session the proposing master said had timed out.
//! - **Log prefix**: every replica applies the same command at each slot
//!   (from the replicas' `applied` notes).
//! - **Single master**: at most one replica believes it holds the master
//!   lease at any instant of true time. A replica's belief is a note with
//!   the end by its own clock; the monitor, which sees the replica's clock,
//!   puts that end in true time.
//! - **Fresh reads**: no read returns a value older than a write that
//!   completed (its client had the answer) before the read began (its
//!   client sent it) — from the clients' own notes.
//! - **Fencing** (a Chubby cell): the generations the file server accepts
//!   for a lock never decrease — from its answers on the wire.

use super::{Finding, Invariant};
use crate::protocol::lease::LeaseMsg;
use crate::protocol::multipaxos::{
    Ballot, Cmd, LeaseEnd, Members, MpMsg, MpNode, MpNote, Op, Outcome, Replica, Slot, Verdict,
    KEYS,
};
use crate::protocol::Note;
use crate::sim::clock::Clock;
use crate::sim::{NodeId, SimTime};
use crate::sorted::{VecMap, VecSet};
use std::sync::Arc;

#[derive(Clone, Debug)]
pub struct MultiMonitor {
    names: Arc<Vec<String>>,
    majority: usize,
    /// Per slot: each (ballot, command) voted for, and who voted.
    votes: VecMap<Slot, Vec<(Ballot, Cmd, Members)>>,
    /// The command chosen per slot.
    pub chosen: VecMap<Slot, Cmd>,
    /// The command first applied per slot, and by whom.
    applied: VecMap<Slot, (Cmd, NodeId)>,
    /// Commands clients sent (validity).
    asked: VecMap<(NodeId, u32), (u64, Op)>,
    /// Per key: writes whose client had the answer, (when, version).
    written: VecMap<u8, Vec<(u64, Slot)>>,
    /// Per node: the end of the master lease it believes it holds, in true time.
    lease: Vec<Option<u64>>,
    /// Sessions a master said had timed out: (master, client).
    timed_out: VecSet<(NodeId, NodeId)>,
    /// Per lock: the highest generation the file server accepted a write with.
    fenced: VecMap<u8, u32>,
}

impl MultiMonitor {
    pub fn new(names: Arc<Vec<String>>, replicas: usize) -> Self {
        let n = names.len();
        MultiMonitor {
            names,
            majority: replicas / 2 + 1,
            votes: VecMap::new(),
            chosen: VecMap::new(),
            applied: VecMap::new(),
            asked: VecMap::new(),
            written: VecMap::new(),
            lease: vec![None; n],
            timed_out: VecSet::new(),
            fenced: VecMap::new(),
        }
    }

    fn name(&self, n: NodeId) -> &str {
        self.names.get(n.index()).map(|s| s.as_str()).unwrap_or("?")
    }

    fn cmd(&self, c: &Cmd) -> String {
        crate::trace::multipaxos::cmd_label(c)
    }

    pub fn on_send(&mut self, from: NodeId, msg: &MpMsg, found: &mut Vec<Finding>) {
        match *msg {
            MpMsg::Accept { cmd, slot, .. } => {
                let timed_out = matches!(cmd.op, Op::EndSession { client } if self.timed_out.contains(&(cmd.client, client)));
                if !cmd.is_noop() && !timed_out && !self.asked.contains_key(&(cmd.client, cmd.seq))
                {
                    found.push(Finding::Violation(
                        Invariant::Validity,
                        format!(
                            "slot {} is proposed {}, which no client asked for",
                            slot.0,
                            self.cmd(&cmd)
                        ),
                    ));
                }
            }
            MpMsg::Accepted { ballot, slot, cmd } => self.on_vote(from, ballot, slot, cmd, found),
            MpMsg::WriteReply {
                lock,
                generation,
                verdict: Verdict::Accepted,
            } => {
                let highest = *self.fenced.or_insert(lock, generation);
                if generation < highest {
                    let detail = format!(
                        "{} accepted a write under lock {lock} with generation {generation} after one with generation {highest}",
                        self.name(from),
                    );
                    found.push(Finding::Violation(Invariant::FencingMonotonic, detail));
                } else {
                    self.fenced.insert(lock, generation);
                }
            }
            _ => {}
        }
    }

    fn on_vote(
        &mut self,
        from: NodeId,
        ballot: Ballot,
        slot: Slot,
        cmd: Cmd,
        found: &mut Vec<Finding>,
    ) {
        let list = self.votes.or_default(slot);
        let i = match list.iter().position(|v| v.0 == ballot && v.1 == cmd) {
            Some(i) => i,
            None => {
                list.push((ballot, cmd, Members::default()));
                list.len() - 1
            }
        };
        if list[i].2.contains(from) {
            return;
        }
        list[i].2.insert(from);
        let members = list[i].2;
        if members.len() != self.majority {
            return;
        }
        match self.chosen.get(&slot) {
            Some(other) if *other != cmd => {
                let detail = format!(
                    "slot {}: {} was chosen, and now {} in ballot ({},{}) by a majority",
                    slot.0,
                    self.cmd(other),
                    self.cmd(&cmd),
                    ballot.round,
                    self.name(ballot.node)
                );
                found.push(Finding::Violation(Invariant::Agreement, detail));
            }
            Some(_) => {}
            None => {
                self.chosen.insert(slot, cmd);
                found.push(Finding::Note(Note::Multipaxos(MpNote::Chosen {
                    slot,
                    ballot,
                    cmd,
                    members,
                })));
            }
        }
    }

    /// A lease-lab worker asks a replicated store (see `protocol::lease_group`):
    /// its request is the command's origin, as a client's `command` note is.
    /// The command is written by the replica that takes it (with its clock),
    /// so only who asked, and with which number, is known here.
    pub fn on_lease_request(&mut self, now: SimTime, worker: NodeId, msg: &LeaseMsg) {
        let (seq, op) = match *msg {
            LeaseMsg::Acquire { req, ttl_us } => (req, Op::LeaseCas { ttl_us, now_us: 0 }),
            LeaseMsg::Release { epoch } => (0, Op::LeaseRelease { epoch, now_us: 0 }),
            _ => return,
        };
        self.asked.insert((worker, seq), (now.0, op));
    }

    pub fn on_note(
        &mut self,
        now: SimTime,
        node: NodeId,
        clock: &Clock,
        note: &MpNote,
        found: &mut Vec<Finding>,
    ) {
        match *note {
            MpNote::Asked { cmd } => {
                self.asked.insert((node, cmd.seq), (now.0, cmd.op));
            }
            MpNote::Answered { seq, outcome } => self.on_answer(now, node, seq, outcome, found),
            MpNote::Applied { slot, cmd, .. } => match self.applied.get(&slot) {
                Some(&(first, by)) if first != cmd => {
                    let detail = format!(
                        "{} applied {} at slot {}, {} applied {}",
                        self.name(by),
                        self.cmd(&first),
                        slot.0,
                        self.name(node),
                        self.cmd(&cmd)
                    );
                    found.push(Finding::Violation(Invariant::LogPrefix, detail));
                }
                Some(_) => {}
                None => {
                    self.applied.insert(slot, (cmd, node));
                }
            },
            MpNote::LeaseHeld { until_local_us } => {
                let until = clock.true_at(now, until_local_us as i64).0;
                if let Some(other) = (0..self.lease.len())
                    .find(|&i| i != node.index() && self.lease[i].is_some_and(|u| u > now.0))
                {
                    let detail = format!(
                        "{} believes it holds the master lease while {} still does (until {})",
                        self.name(node),
                        self.name(NodeId(other as u8)),
                        crate::sim::time::human_us(self.lease[other].unwrap_or(0))
                    );
                    found.push(Finding::Violation(Invariant::SingleMaster, detail));
                }
                let Some(l) = self.lease.get_mut(node.index()) else {
                    return;
                };
                let new = l.is_none();
                *l = Some(until);
                // A renewal moves the end silently; the record shows when a
                // master's belief begins (and, below, when it ends).
                if new {
                    found.push(Finding::Note(Note::Multipaxos(MpNote::MasterLeaseHeld {
                        holder: node,
                        until_local_us,
                        until_us: until,
                    })));
                }
            }
            MpNote::LeaseLost { why } => self.release(node, why, found),
            MpNote::SessionTimedOut { client } => {
                self.timed_out.insert((node, client));
            }
            _ => {}
        }
    }

    fn release(&mut self, node: NodeId, why: LeaseEnd, found: &mut Vec<Finding>) {
        if let Some(l) = self.lease.get_mut(node.index()) {
            if l.take().is_some() {
                found.push(Finding::Note(Note::Multipaxos(
                    MpNote::MasterLeaseReleased { holder: node, why },
                )));
            }
        }
    }

    fn on_answer(
        &mut self,
        now: SimTime,
        client: NodeId,
        seq: u32,
        outcome: Outcome,
        found: &mut Vec<Finding>,
    ) {
        let Some(&(start, op)) = self.asked.get(&(client, seq)) else {
            return;
        };
        match (op, outcome) {
            (Op::Put { key, .. }, Outcome::Written { version }) => {
                self.written.or_default(key).push((now.0, version));
            }
            (Op::Get { key }, Outcome::Value { version, .. }) => {
                let newer = self
                    .written
                    .get(&key)
                    .into_iter()
                    .flatten()
                    .filter(|w| w.0 < start && w.1 > version)
                    .max_by_key(|w| w.1);
                if let Some(&(done, w)) = newer {
                    let detail = format!(
                        "{} read {} as written in slot {}, but slot {} had written it and answered at {}, before the read began at {}",
                        self.name(client),
                        KEYS.get(key as usize).unwrap_or(&"?"),
                        version.0,
                        w.0,
                        crate::sim::time::human_us(done),
                        crate::sim::time::human_us(start)
                    );
                    found.push(Finding::Violation(Invariant::FreshReads, detail));
                }
            }
            _ => {}
        }
    }

    /// A crash ends a lease belief without a note: the replica's state says so.
    pub fn after_step(&mut self, node: NodeId, state: &MpNode, found: &mut Vec<Finding>) {
        if let MpNode::Replica(Replica { lease: None, .. }) = state {
            if self.lease.get(node.index()).is_some_and(|l| l.is_some()) {
                self.release(node, LeaseEnd::Crashed, found);
            }
        }
    }
}
