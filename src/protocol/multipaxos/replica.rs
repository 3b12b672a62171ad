//! A replica: acceptor, candidate or leader, learner, and the state machine.
//!
//! Stable storage (the ink): the acceptor's promise and votes, the log of
//! chosen slots, the state machine with its cursor (a snapshot), and the
//! highest round this replica has tried. Everything else — who it follows,
//! what it leads, the lease it believes or grants — is lost in a crash.
//!
//! In a Chubby cell the master also keeps the session leases — in memory,
//! as Chubby's master does: a new master, not knowing what its predecessor
//! granted, assumes the longest lease it could have (a full one from now).

use super::machine::Machine;
use super::{
    Ballot, Cmd, Group, LeaseEnd, Members, MpMsg, MpMutation, MpNode, MpNote, MpTimer, Op, Pick,
    Slot, SlotVote,
};
use crate::sim::{Ctx, Hosts, NodeId, SimDuration, SimTime};
use crate::sorted::{VecMap, VecSet};
use std::collections::VecDeque;
use std::sync::Arc;

/// What a replica is doing (volatile).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Role {
    #[default]
    Follower,
    /// Phase 1 for every slot from `from`, collecting promises.
    Candidate {
        ballot: Ballot,
        from: Slot,
        promises: VecMap<NodeId, Arc<[SlotVote]>>,
    },
    Leader(Box<Leading>),
}

/// A leader's desk.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Leading {
    pub ballot: Ballot,
    /// The next free slot.
    pub next: Slot,
    /// The first slot of its own term: every slot below was recovered, and
    /// until it has applied them its own copy may lack writes that others
    /// acknowledged — it answers no read from it before.
    pub ready_at: Slot,
    /// Slots in phase 2: the decree and who has voted for it.
    pub inflight: VecMap<Slot, (Cmd, Members)>,
    /// Commands waiting for a slot (the window is full).
    pub queue: VecDeque<Cmd>,
    /// The latest heartbeat (lease) round.
    pub round: u32,
    /// The last few rounds: number, when it was sent (local), who acked. An
    /// ack may come back after the next round has left (a round trip longer
    /// than the heartbeat period); it still counts, from its own round's start.
    pub rounds: VecDeque<(u32, SimTime, Members)>,
}

/// Rounds whose acks still count.
const ROUNDS_KEPT: usize = 4;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Replica {
    pub group: Arc<Group>,
    /// This replica's place in the group (its election stagger).
    pub index: usize,
    // ── stable ──
    /// maxBal: the promise, for every slot.
    pub max_bal: Option<Ballot>,
    /// The vote per slot (maxVBal, maxVal).
    pub votes: VecMap<Slot, (Ballot, Cmd)>,
    /// The log: chosen slots.
    pub chosen: VecMap<Slot, Cmd>,
    /// The next slot to apply (everything below is applied).
    pub applied: Slot,
    pub machine: Machine,
    /// lastTried: the highest round this replica has used.
    pub last_tried: u32,
    // ── volatile ──
    pub highest_seen: u32,
    pub role: Role,
    /// Whom it believes leads.
    pub leader: Option<NodeId>,
    /// A lease it granted: the master, and until when (local).
    pub grant: Option<(NodeId, SimTime)>,
    /// After a restart it has forgotten whom it promised: it follows no new
    /// master before this (local).
    pub quiet_until: SimTime,
    /// A master's belief: its lease holds until this (local).
    pub lease: Option<SimTime>,
    /// A Chubby master: each open session's lease (local).
    pub sessions: VecMap<NodeId, SimTime>,
    /// Sessions it is ending (through the log).
    pub ending: VecSet<NodeId>,
}

impl Replica {
    pub fn new(group: Arc<Group>, index: usize) -> Self {
        let machine = Machine {
            cell: group.cell.is_some(),
            lease_rules: group.lease_store.map(|d| d.rules).unwrap_or_default(),
            ..Machine::default()
        };
        Replica {
            group,
            index,
            max_bal: None,
            votes: VecMap::new(),
            chosen: VecMap::new(),
            applied: Slot(1),
            machine,
            last_tried: 0,
            highest_seen: 0,
            role: Role::Follower,
            leader: None,
            grant: None,
            quiet_until: SimTime::ZERO,
            lease: None,
            sessions: VecMap::new(),
            ending: VecSet::new(),
        }
    }

    /// The first slot not yet in this replica's log.
    pub fn first_unchosen(&self) -> Slot {
        let mut s = self.applied;
        while self.chosen.contains_key(&s) {
            s = s.next();
        }
        s
    }

    pub fn ballot(&self) -> Option<Ballot> {
        match &self.role {
            Role::Candidate { ballot, .. } => Some(*ballot),
            Role::Leader(l) => Some(l.ballot),
            Role::Follower => None,
        }
    }

    pub fn is_leader(&self) -> bool {
        matches!(self.role, Role::Leader(_))
    }

    /// Staggered election timeouts: the first replica runs first, so that
    /// candidates rarely collide (and nothing random is needed).
    fn election_delay(&self) -> SimDuration {
        let t = self.group.election_timeout;
        t + SimDuration(t.0 / 2 * self.index as u64)
    }

    pub fn on_start<H: Hosts<MpNode>>(&mut self, ctx: &mut Ctx<MpNode, H>) {
        // The first replica stands at once; the others wait their turn.
        let first = SimDuration(self.group.heartbeat_every.0 * self.index as u64 * 4);
        ctx.set_timer(MpTimer::Election, first);
    }

    pub fn on_timer<H: Hosts<MpNode>>(&mut self, t: MpTimer, ctx: &mut Ctx<MpNode, H>) {
        match t {
            MpTimer::Election => {
                if !self.is_leader() {
                    self.start_election(ctx);
                }
            }
            MpTimer::PhaseTimeout => {
                if matches!(self.role, Role::Candidate { .. }) {
                    self.role = Role::Follower;
                    ctx.set_timer(MpTimer::Election, self.election_delay());
                }
            }
            MpTimer::Heartbeat => self.heartbeat(ctx),
            MpTimer::LeaseEnd => {
                if self.lease.is_some_and(|until| ctx.now() >= until) {
                    self.lose_lease(LeaseEnd::Expired, ctx);
                }
            }
            MpTimer::CatchUp => {
                if let Some(l) = self.leader.filter(|&l| l != ctx.me) {
                    ctx.send(
                        l,
                        MpMsg::CatchUp {
                            from: self.first_unchosen(),
                        },
                    );
                }
            }
            MpTimer::Next
            | MpTimer::Retry
            | MpTimer::KeepAlive
            | MpTimer::SessionEnd
            | MpTimer::Grace => {}
        }
    }

    /// Phase 1a: a fresh ballot, for every slot from the first unchosen one.
    fn start_election<H: Hosts<MpNode>>(&mut self, ctx: &mut Ctx<MpNode, H>) {
        let round = self.last_tried.max(self.highest_seen) + 1;
        // lastTried is written to stable storage before the prepare leaves.
        self.last_tried = round;
        let ballot = Ballot {
            round,
            node: ctx.me,
        };
        let from = self.first_unchosen();
        self.leader = None;
        if self.group.mutated(MpMutation::SkipPhase1OnTakeover) {
            // Broken on purpose: lead at once, as if nothing could have been
            // voted in the slots it does not know are chosen.
            ctx.note(MpNote::BallotStarted { ballot, from });
            self.lead(ballot, from, VecMap::new(), ctx);
            return;
        }
        self.role = Role::Candidate {
            ballot,
            from,
            promises: VecMap::new(),
        };
        ctx.note(MpNote::BallotStarted { ballot, from });
        for r in self.group.replicas.clone() {
            ctx.send(r, MpMsg::Prepare { ballot, from });
        }
        ctx.cancel_timer(MpTimer::Election);
        ctx.set_timer(MpTimer::PhaseTimeout, self.group.election_timeout);
    }

    pub fn on_message<H: Hosts<MpNode>>(
        &mut self,
        from: NodeId,
        msg: MpMsg,
        ctx: &mut Ctx<MpNode, H>,
    ) {
        match msg {
            MpMsg::Request { cmd } => self.on_request(from, cmd, ctx),
            MpMsg::Prepare { ballot, from: slot } => self.on_prepare(from, ballot, slot, ctx),
            MpMsg::Promise { ballot, votes, .. } => self.on_promise(from, ballot, votes, ctx),
            MpMsg::Accept { ballot, slot, cmd } => self.on_accept(from, ballot, slot, cmd, ctx),
            MpMsg::Accepted { ballot, slot, .. } => self.on_accepted(from, ballot, slot, ctx),
            MpMsg::Decided { slot, cmd } => self.learn(slot, cmd, ctx),
            MpMsg::Nack { promised, .. } => {
                self.highest_seen = self.highest_seen.max(promised.round);
                self.check_higher(promised, ctx);
            }
            MpMsg::Heartbeat {
                ballot,
                round,
                commit,
            } => self.on_heartbeat(from, ballot, round, commit, ctx),
            MpMsg::HeartbeatAck { ballot, round } => {
                self.on_heartbeat_ack(from, ballot, round, ctx)
            }
            MpMsg::CatchUp { from: slot } => {
                let entries: Vec<(Slot, Cmd)> = self
                    .chosen
                    .range_from(&slot)
                    .take(64)
                    .map(|(s, c)| (*s, *c))
                    .collect();
                if !entries.is_empty() {
                    ctx.send(
                        from,
                        MpMsg::Entries {
                            entries: entries.into(),
                        },
                    );
                }
            }
            MpMsg::Entries { entries } => {
                let before = self.first_unchosen();
                for &(slot, cmd) in entries.iter() {
                    self.learn(slot, cmd, ctx);
                }
                let after = self.first_unchosen();
                if after > before {
                    ctx.note(MpNote::CaughtUp {
                        from: before,
                        to: after,
                    });
                }
            }
            MpMsg::KeepAlive { .. } => self.on_keep_alive(from, ctx),
            MpMsg::Reply { .. }
            | MpMsg::Redirect { .. }
            | MpMsg::KeepAliveReply { .. }
            | MpMsg::SessionGone
            | MpMsg::Write { .. }
            | MpMsg::WriteReply { .. } => {}
        }
    }

    /// Someone runs with `ballot`: if it is above what this replica leads or
    /// stands for, its own attempt is doomed — step down.
    fn check_higher<H: Hosts<MpNode>>(&mut self, seen: Ballot, ctx: &mut Ctx<MpNode, H>) {
        if let Some(mine) = self.ballot() {
            if seen > mine {
                ctx.note(MpNote::SteppedDown {
                    ballot: mine,
                    by: seen,
                });
                if self.lease.is_some() {
                    self.lose_lease(LeaseEnd::SteppedDown, ctx);
                }
                // Its promise to itself guarded only its own lease, which it
                // has just given up: keeping it would make it refuse the new
                // master for up to T and fight it for the chair.
                if self.grant.is_some_and(|(m, _)| m == ctx.me) {
                    self.grant = None;
                }
                self.role = Role::Follower;
                for t in [MpTimer::Heartbeat, MpTimer::PhaseTimeout, MpTimer::LeaseEnd] {
                    ctx.cancel_timer(t);
                }
                ctx.set_timer(MpTimer::Election, self.election_delay());
            }
        }
    }

    fn allows(&self, b: Ballot) -> bool {
        self.max_bal.is_none_or(|m| b >= m)
    }

    /// The lease it granted keeps it from following `candidate`.
    fn bound_by_lease(&self, candidate: NodeId, now: SimTime) -> Option<NodeId> {
        if self.group.lease.is_none() || self.group.mutated(MpMutation::NoLeaseWait) {
            return None;
        }
        match self.grant {
            Some((master, until)) if master != candidate && now < until => Some(master),
            // Restarted: whom it promised is forgotten, so it promised anyone.
            _ if now < self.quiet_until => Some(NodeId::NET),
            _ => None,
        }
    }

    /// A master other than the one it promised, with a new ballot, while the
    /// promise holds: refused ("refuse to process messages from any other
    /// replica while the lease is held", Paxos Made Live §5.2).
    fn refuses<H: Hosts<MpNode>>(
        &self,
        from: NodeId,
        ballot: Ballot,
        ctx: &mut Ctx<MpNode, H>,
    ) -> bool {
        if self.max_bal.is_some_and(|m| ballot <= m) {
            return false; // the master it follows, or an old one it will refuse anyway
        }
        match self.bound_by_lease(from, ctx.now()) {
            Some(grantee) => {
                ctx.note(MpNote::LeaseRefused {
                    candidate: from,
                    grantee,
                });
                true
            }
            None => false,
        }
    }

    /// Phase 1b, for every slot from `from`.
    fn on_prepare<H: Hosts<MpNode>>(
        &mut self,
        c: NodeId,
        ballot: Ballot,
        from: Slot,
        ctx: &mut Ctx<MpNode, H>,
    ) {
        self.highest_seen = self.highest_seen.max(ballot.round);
        if let Some(grantee) = self.bound_by_lease(c, ctx.now()) {
            ctx.note(MpNote::LeaseRefused {
                candidate: c,
                grantee,
            });
            return;
        }
        if !self.allows(ballot) {
            ctx.send(
                c,
                MpMsg::Nack {
                    ballot,
                    promised: self.max_bal.unwrap_or(ballot),
                },
            );
            return;
        }
        self.max_bal = Some(ballot);
        let votes: Vec<SlotVote> = self
            .votes
            .range_from(&from)
            .map(|(&slot, &(ballot, cmd))| SlotVote { slot, ballot, cmd })
            .collect();
        ctx.send(
            c,
            MpMsg::Promise {
                ballot,
                from,
                votes: votes.into(),
            },
        );
        if c != ctx.me {
            self.check_higher(ballot, ctx);
            // Someone is running: give it time before running too.
            if !self.is_leader() {
                ctx.set_timer(MpTimer::Election, self.election_delay());
            }
        }
    }

    fn on_promise<H: Hosts<MpNode>>(
        &mut self,
        a: NodeId,
        ballot: Ballot,
        votes: Arc<[SlotVote]>,
        ctx: &mut Ctx<MpNode, H>,
    ) {
        let Role::Candidate {
            ballot: mine,
            from,
            promises,
        } = &mut self.role
        else {
            return;
        };
        if *mine != ballot {
            return;
        }
        promises.insert(a, votes);
        if promises.len() < self.group.quorum {
            return;
        }
        let (from, promises) = (*from, std::mem::take(promises));
        self.lead(ballot, from, promises, ctx);
    }

    /// A quorum has promised: recover every slot from `from` up to the
    /// highest one reported — B3 per slot, a no-op in each gap — then lead.
    fn lead<H: Hosts<MpNode>>(
        &mut self,
        ballot: Ballot,
        from: Slot,
        promises: VecMap<NodeId, Arc<[SlotVote]>>,
        ctx: &mut Ctx<MpNode, H>,
    ) {
        let mut highest: VecMap<Slot, SlotVote> = VecMap::new();
        for v in promises
            .values()
            .flat_map(|vs| vs.iter())
            .filter(|v| v.slot >= from)
        {
            match highest.get(&v.slot) {
                Some(h) if h.ballot >= v.ballot => {}
                _ => {
                    highest.insert(v.slot, *v);
                }
            }
        }
        let top = highest
            .keys()
            .next_back()
            .copied()
            .unwrap_or(Slot(from.0.saturating_sub(1)));
        let mut l = Leading {
            ballot,
            next: from,
            ready_at: from,
            inflight: VecMap::new(),
            queue: VecDeque::new(),
            round: 0,
            rounds: VecDeque::new(),
        };
        let (mut forced, mut noops) = (0, 0);
        let mut slot = from;
        while slot <= top {
            let (cmd, pick) = if self.group.mutated(MpMutation::NoOpFreeGaps) {
                // Broken on purpose: every slot is treated as a gap.
                (Cmd::NOOP, Pick::Noop)
            } else {
                match highest.get(&slot) {
                    Some(v) => (v.cmd, Pick::Forced { by: v.ballot }),
                    None => (Cmd::NOOP, Pick::Noop),
                }
            };
            match pick {
                Pick::Forced { .. } => forced += 1,
                _ => noops += 1,
            }
            Self::propose(&self.group, &mut l, slot, cmd, pick, ctx);
            slot = slot.next();
        }
        l.next = slot;
        l.ready_at = slot;
        self.role = Role::Leader(Box::new(l));
        // A new epoch: whatever leases its predecessor granted, it will
        // assume the longest (see `check_sessions`).
        self.sessions.clear();
        self.ending.clear();
        self.leader = Some(ctx.me);
        ctx.note(MpNote::Elected {
            ballot,
            forced,
            noops,
        });
        for t in [MpTimer::PhaseTimeout, MpTimer::Election] {
            ctx.cancel_timer(t);
        }
        self.heartbeat(ctx);
    }

    /// Phase 2a for one slot.
    fn propose<H: Hosts<MpNode>>(
        group: &Group,
        l: &mut Leading,
        slot: Slot,
        cmd: Cmd,
        pick: Pick,
        ctx: &mut Ctx<MpNode, H>,
    ) {
        l.inflight.insert(slot, (cmd, Members::default()));
        ctx.note(MpNote::SlotPicked {
            ballot: l.ballot,
            slot,
            cmd,
            pick,
        });
        for &r in &group.replicas {
            ctx.send(
                r,
                MpMsg::Accept {
                    ballot: l.ballot,
                    slot,
                    cmd,
                },
            );
        }
    }

    /// Give waiting commands free slots, up to the window.
    fn pump<H: Hosts<MpNode>>(&mut self, ctx: &mut Ctx<MpNode, H>) {
        let Role::Leader(l) = &mut self.role else {
            return;
        };
        while (l.inflight.len() as u32) < self.group.window {
            let Some(cmd) = l.queue.pop_front() else {
                break;
            };
            let slot = l.next;
            l.next = slot.next();
            Self::propose(&self.group, l, slot, cmd, Pick::New, ctx);
        }
    }

    /// May this replica answer a read from its own copy? Only a leader
    /// that has applied everything it recovered, and — with the lease on —
    /// only while it holds the lease.
    fn serves_reads(&self, now: SimTime) -> bool {
        let Role::Leader(l) = &self.role else {
            return false;
        };
        if self.applied < l.ready_at {
            return false;
        }
        match self.group.lease {
            // No lease: it answers on the belief that it leads (unsafe).
            None => true,
            Some(_) => self.lease.is_some_and(|until| now < until),
        }
    }

    fn on_request<H: Hosts<MpNode>>(&mut self, client: NodeId, cmd: Cmd, ctx: &mut Ctx<MpNode, H>) {
        if let Some(outcome) = self.machine.answered(&cmd) {
            ctx.send(
                client,
                MpMsg::Reply {
                    seq: cmd.seq,
                    outcome,
                    slot: None,
                },
            );
            return;
        }
        if !self.is_leader() {
            ctx.send(
                client,
                MpMsg::Redirect {
                    seq: cmd.seq,
                    leader: self.leader.filter(|&l| l != ctx.me),
                },
            );
            return;
        }
        if cmd.op.is_read() && self.serves_reads(ctx.now()) {
            if let Some(outcome) = self.machine.answer(&cmd.op) {
                if let (Op::Get { key }, super::Outcome::Value { value, version }) =
                    (cmd.op, outcome)
                {
                    ctx.note(MpNote::ReadServed {
                        client,
                        seq: cmd.seq,
                        key,
                        value,
                        version,
                    });
                }
                ctx.send(
                    client,
                    MpMsg::Reply {
                        seq: cmd.seq,
                        outcome,
                        slot: None,
                    },
                );
                return;
            }
        }
        let Role::Leader(l) = &mut self.role else {
            return;
        };
        let same = |c: &Cmd| c.client == cmd.client && c.seq == cmd.seq;
        if l.queue.iter().any(same) || l.inflight.values().any(|(c, _)| same(c)) {
            return; // a retry of something already on its way
        }
        l.queue.push_back(cmd);
        self.pump(ctx);
    }

    /// A leader's 2a or heartbeat with `ballot`: refused under another's
    /// lease, nacked below the promise, otherwise promised (maxBal raised).
    fn admit<H: Hosts<MpNode>>(
        &mut self,
        l: NodeId,
        ballot: Ballot,
        ctx: &mut Ctx<MpNode, H>,
    ) -> bool {
        self.highest_seen = self.highest_seen.max(ballot.round);
        if self.refuses(l, ballot, ctx) {
            return false;
        }
        if !self.allows(ballot) {
            ctx.send(
                l,
                MpMsg::Nack {
                    ballot,
                    promised: self.max_bal.unwrap_or(ballot),
                },
            );
            return false;
        }
        self.max_bal = Some(ballot);
        true
    }

    /// Phase 2b.
    fn on_accept<H: Hosts<MpNode>>(
        &mut self,
        l: NodeId,
        ballot: Ballot,
        slot: Slot,
        cmd: Cmd,
        ctx: &mut Ctx<MpNode, H>,
    ) {
        if !self.admit(l, ballot, ctx) {
            return;
        }
        self.votes.insert(slot, (ballot, cmd));
        ctx.send(l, MpMsg::Accepted { ballot, slot, cmd });
        if l != ctx.me {
            self.follow(l, ballot, ctx);
        }
    }

    /// `l` leads with `ballot`: follow it, and wait before running.
    fn follow<H: Hosts<MpNode>>(&mut self, l: NodeId, ballot: Ballot, ctx: &mut Ctx<MpNode, H>) {
        self.check_higher(ballot, ctx);
        self.leader = Some(l);
        if !self.is_leader() {
            ctx.set_timer(MpTimer::Election, self.election_delay());
        }
    }

    fn on_accepted<H: Hosts<MpNode>>(
        &mut self,
        a: NodeId,
        ballot: Ballot,
        slot: Slot,
        ctx: &mut Ctx<MpNode, H>,
    ) {
        let Role::Leader(l) = &mut self.role else {
            return;
        };
        if l.ballot != ballot {
            return;
        }
        let Some((cmd, voters)) = l.inflight.get_mut(&slot) else {
            return;
        };
        voters.insert(a);
        if voters.len() < self.group.quorum {
            return;
        }
        let cmd = *cmd;
        l.inflight.remove(&slot);
        // Phase 3: every replica learns the slot.
        for r in self.group.replicas.clone() {
            ctx.send(r, MpMsg::Decided { slot, cmd });
        }
        self.pump(ctx);
    }

    /// Write a chosen slot in the log, and apply what can be applied.
    fn learn<H: Hosts<MpNode>>(&mut self, slot: Slot, cmd: Cmd, ctx: &mut Ctx<MpNode, H>) {
        if slot < self.applied || self.chosen.contains_key(&slot) {
            return;
        }
        self.chosen.insert(slot, cmd);
        ctx.note(MpNote::Learned { slot, cmd });
        while let Some(&cmd) = self.chosen.get(&self.applied) {
            let slot = self.applied;
            let outcome = self.machine.apply(slot, &cmd);
            ctx.note(MpNote::Applied { slot, cmd, outcome });
            if self.is_leader() && !cmd.is_noop() && cmd.client != ctx.me {
                ctx.send(
                    cmd.client,
                    MpMsg::Reply {
                        seq: cmd.seq,
                        outcome,
                        slot: Some(slot),
                    },
                );
            }
            self.sessions_applied(&cmd, ctx);
            self.applied = slot.next();
        }
        if self
            .chosen
            .keys()
            .next_back()
            .is_some_and(|&top| top > self.applied)
        {
            // A gap: slots were chosen that this replica never heard of.
            ctx.set_timer(MpTimer::CatchUp, self.group.heartbeat_every);
        }
    }

    /// The leader's heartbeat: it is alive, how far its log goes, and — as a
    /// new lease round — "promise not to follow another master for T".
    fn heartbeat<H: Hosts<MpNode>>(&mut self, ctx: &mut Ctx<MpNode, H>) {
        let commit = self.first_unchosen();
        let Role::Leader(l) = &mut self.role else {
            return;
        };
        l.round += 1;
        // The lease is counted from before the request leaves.
        l.rounds.push_back((l.round, ctx.now(), Members::default()));
        if l.rounds.len() > ROUNDS_KEPT {
            l.rounds.pop_front();
        }
        let (ballot, round) = (l.ballot, l.round);
        for r in self.group.replicas.clone() {
            ctx.send(
                r,
                MpMsg::Heartbeat {
                    ballot,
                    round,
                    commit,
                },
            );
        }
        ctx.set_timer(MpTimer::Heartbeat, self.group.heartbeat_every);
        self.check_sessions(ctx);
    }

    /// A leader that has applied what it recovered: it knows the open
    /// sessions and the locks, and may speak for the cell.
    fn ready(&self) -> bool {
        matches!(&self.role, Role::Leader(l) if self.applied >= l.ready_at)
    }

    /// Chubby: a KeepAlive extends the session lease by a full T from now.
    fn on_keep_alive<H: Hosts<MpNode>>(&mut self, client: NodeId, ctx: &mut Ctx<MpNode, H>) {
        let Some(cell) = self.group.cell.as_ref() else {
            return;
        };
        let Role::Leader(l) = &self.role else {
            ctx.send(
                client,
                MpMsg::Redirect {
                    seq: 0,
                    leader: self.leader.filter(|&l| l != ctx.me),
                },
            );
            return;
        };
        let ballot = l.ballot;
        if !self.ready() {
            return; // still recovering: the client will ask again
        }
        if !self.machine.sessions.contains(&client) || self.ending.contains(&client) {
            ctx.send(client, MpMsg::SessionGone);
            return;
        }
        let lease = cell.session_lease;
        self.sessions.insert(client, ctx.now() + lease);
        ctx.send(
            client,
            MpMsg::KeepAliveReply {
                epoch: ballot,
                lease_us: lease.0,
            },
        );
    }

    /// Chubby: end, through the log, every session no KeepAlive renewed for
    /// a whole lease. A session this master has not heard of yet (it took
    /// over) gets the longest lease its predecessor could have granted.
    fn check_sessions<H: Hosts<MpNode>>(&mut self, ctx: &mut Ctx<MpNode, H>) {
        let Some(lease) = self.group.cell.as_ref().map(|c| c.session_lease) else {
            return;
        };
        if !self.ready() {
            return;
        }
        let now = ctx.now();
        let mut expired = Vec::new();
        for &c in &self.machine.sessions {
            let until = *self.sessions.or_insert(c, now + lease);
            if now >= until && !self.ending.contains(&c) {
                expired.push(c);
            }
        }
        for client in expired {
            self.ending.insert(client);
            ctx.note(MpNote::SessionTimedOut { client });
            if let Role::Leader(l) = &mut self.role {
                l.queue.push_back(Cmd {
                    client: ctx.me,
                    seq: 0,
                    op: Op::EndSession { client },
                });
            }
        }
        self.pump(ctx);
    }

    /// A master that applies a session's opening starts its lease; one that
    /// applies its end forgets it.
    fn sessions_applied<H: Hosts<MpNode>>(&mut self, cmd: &Cmd, ctx: &mut Ctx<MpNode, H>) {
        let Some(lease) = self.group.cell.as_ref().map(|c| c.session_lease) else {
            return;
        };
        match cmd.op {
            Op::OpenSession if self.is_leader() => {
                self.sessions.insert(cmd.client, ctx.now() + lease);
            }
            Op::EndSession { client } => {
                self.sessions.remove(&client);
                self.ending.remove(&client);
            }
            _ => {}
        }
    }

    fn on_heartbeat<H: Hosts<MpNode>>(
        &mut self,
        l: NodeId,
        ballot: Ballot,
        round: u32,
        commit: Slot,
        ctx: &mut Ctx<MpNode, H>,
    ) {
        if !self.admit(l, ballot, ctx) {
            return;
        }
        if l != ctx.me {
            self.follow(l, ballot, ctx);
        }
        if let Some(t) = self.group.lease_t() {
            // The promise: no other master for T, by this replica's clock.
            self.grant = Some((l, ctx.now() + t));
        }
        ctx.send(l, MpMsg::HeartbeatAck { ballot, round });
        if self.first_unchosen() < commit && l != ctx.me {
            ctx.send(
                l,
                MpMsg::CatchUp {
                    from: self.first_unchosen(),
                },
            );
        }
    }

    fn on_heartbeat_ack<H: Hosts<MpNode>>(
        &mut self,
        a: NodeId,
        ballot: Ballot,
        round: u32,
        ctx: &mut Ctx<MpNode, H>,
    ) {
        let Some((t, budget)) = self.group.lease else {
            return;
        };
        let Role::Leader(l) = &mut self.role else {
            return;
        };
        if l.ballot != ballot {
            return;
        }
        let Some((_, start, acks)) = l.rounds.iter_mut().find(|r| r.0 == round) else {
            return;
        };
        if acks.contains(a) {
            return;
        }
        acks.insert(a);
        if acks.len() != self.group.quorum {
            return;
        }
        let round_start = *start;
        let until = if self.group.mutated(MpMutation::LeaseNoDriftMargin) {
            // Broken on purpose: from the reply, for the full T.
            ctx.now() + t
        } else {
            // From before it asked, shortened by the drift bound.
            round_start + budget
        };
        if until <= ctx.now() || self.lease.is_some_and(|u| u >= until) {
            return;
        }
        self.lease = Some(until);
        ctx.note(MpNote::LeaseHeld {
            until_local_us: until.0,
        });
        ctx.set_timer(MpTimer::LeaseEnd, until.since(ctx.now()));
    }

    fn lose_lease<H: Hosts<MpNode>>(&mut self, why: LeaseEnd, ctx: &mut Ctx<MpNode, H>) {
        if self.lease.take().is_some() {
            ctx.note(MpNote::LeaseLost { why });
            ctx.cancel_timer(MpTimer::LeaseEnd);
        }
    }

    pub fn on_crash(&mut self) {
        self.role = Role::Follower;
        self.leader = None;
        self.grant = None;
        self.lease = None;
        self.highest_seen = 0;
        self.sessions.clear();
        self.ending.clear();
    }

    pub fn on_restart<H: Hosts<MpNode>>(&mut self, ctx: &mut Ctx<MpNode, H>) {
        if let Some(t) = self.group.lease_t() {
            // Gray & Cheriton: honour the leases granted before the crash.
            self.quiet_until = ctx.now() + t;
        }
        ctx.set_timer(MpTimer::Election, self.election_delay());
        if self.first_unchosen() > Slot(1) || !self.chosen.is_empty() {
            ctx.set_timer(MpTimer::CatchUp, self.group.heartbeat_every);
        }
    }
}
