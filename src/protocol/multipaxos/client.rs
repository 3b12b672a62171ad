//! A client of the replicated store (and, in a Chubby cell, of its sessions).
//!
//! It works through a script of actions, one at a time: each command goes to
//! the replica it believes leads; a redirect names another; no answer in
//! time and it tries the next replica. A retry keeps its sequence number, so
//! the group applies it once however many replicas it reaches.
//!
//! In a Chubby cell, once its session is open it sends a KeepAlive every so
//! often and counts the session lease from *before* each one left,
//! shortened by the drift bound — a conservative estimate of the master's.
//! When that estimate runs out without a reply the session is in
//! **jeopardy**: it keeps looking for a master, round the table, for the
//! **grace period**; a reply in time makes it safe again, and none means the
//! session — with every lock it held — is lost. A write to the file server
//! carries the sequencer of the lock it believes it holds; whether that
//! belief is still true is for the file server to check.

use super::{
    Ballot, Cmd, Group, MpCommand, MpMsg, MpNode, MpNote, MpTimer, Op, Outcome, SessionEnd,
    Verdict, KEYS,
};
use crate::protocol::value::Value;
use crate::sim::{Ctx, Hosts, NodeId, SimDuration, SimTime};
use crate::sorted::VecMap;
use std::collections::VecDeque;
use std::sync::Arc;

/// One step of a client's script.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// A command for the replicated state machine.
    Cell(Op),
    /// Write `value` to the file server under the sequencer held for `lock`.
    Write { lock: u8, value: Value },
}

/// A Chubby client's view of its session.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Session {
    #[default]
    None,
    /// Its estimate of the lease has not run out.
    Safe,
    /// The estimate ran out: looking for a master until the grace period ends.
    Jeopardy,
    /// Lost: no lock is held any more.
    Lost,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Client {
    pub group: Arc<Group>,
    /// (not before this local instant, action), in order.
    pub script: Arc<[(SimTime, Action)]>,
    pub next: usize,
    /// Operations added by hand (the teacher's commands), run first.
    pub extra: VecDeque<Op>,
    pub seq: u32,
    /// The command waiting for its answer, and when it was first sent (local).
    pub outstanding: Option<Cmd>,
    pub asked_at: SimTime,
    /// The replica it believes leads.
    pub target: NodeId,
    /// Redirects followed since the last timer (two replicas pointing at
    /// each other must not bounce a request for ever).
    pub hops: u8,
    // ── Chubby ──
    pub session: Session,
    /// Its estimate of the session lease (local).
    pub lease_until: SimTime,
    /// The master epoch it last heard.
    pub epoch: Option<Ballot>,
    /// When the unanswered KeepAlive left (local).
    pub keepalive_sent: Option<SimTime>,
    /// Sequencers it believes it holds: lock → generation.
    pub held: VecMap<u8, u32>,
    /// The write waiting for the file server's answer.
    pub writing: Option<(u8, u32, Value)>,
}

impl Client {
    pub fn new(group: Arc<Group>, script: Arc<[(SimTime, Action)]>) -> Self {
        let target = group.replicas[0];
        Client {
            group,
            script,
            next: 0,
            extra: VecDeque::new(),
            seq: 0,
            outstanding: None,
            asked_at: SimTime::ZERO,
            target,
            hops: 0,
            session: Session::None,
            lease_until: SimTime::ZERO,
            epoch: None,
            keepalive_sent: None,
            held: VecMap::new(),
            writing: None,
        }
    }

    pub fn on_start<H: Hosts<MpNode>>(&mut self, ctx: &mut Ctx<MpNode, H>) {
        self.schedule(ctx);
    }

    fn busy(&self) -> bool {
        self.outstanding.is_some() || self.writing.is_some()
    }

    /// Arm the timer for the next action, if any.
    fn schedule<H: Hosts<MpNode>>(&mut self, ctx: &mut Ctx<MpNode, H>) {
        if self.busy() {
            return;
        }
        if !self.extra.is_empty() {
            ctx.set_timer(MpTimer::Next, SimDuration::ZERO);
        } else if let Some(&(at, _)) = self.script.get(self.next) {
            ctx.set_timer(MpTimer::Next, at.since(ctx.now()));
        }
    }

    fn send<H: Hosts<MpNode>>(&mut self, ctx: &mut Ctx<MpNode, H>) {
        self.hops = 0;
        if let Some(cmd) = self.outstanding {
            ctx.send(self.target, MpMsg::Request { cmd });
            ctx.set_timer(MpTimer::Retry, self.group.client_retry);
        } else if let (Some((lock, generation, value)), Some(fs)) = (
            self.writing,
            self.group.cell.as_ref().and_then(|c| c.file_server),
        ) {
            ctx.send(
                fs,
                MpMsg::Write {
                    lock,
                    generation,
                    value,
                },
            );
            ctx.set_timer(MpTimer::Retry, self.group.client_retry);
        }
    }

    /// The replica after `n` in the group, round the table.
    fn after(&self, n: NodeId) -> NodeId {
        let r = &self.group.replicas;
        let i = r
            .iter()
            .position(|&x| x == n)
            .map_or(0, |i| (i + 1) % r.len());
        r[i]
    }

    /// Queue a command for the group (the file server's CheckSequencer).
    pub fn ask<H: Hosts<MpNode>>(&mut self, op: Op, ctx: &mut Ctx<MpNode, H>) {
        self.extra.push_back(op);
        self.schedule(ctx);
    }

    /// Start the next action now.
    fn act<H: Hosts<MpNode>>(&mut self, ctx: &mut Ctx<MpNode, H>) {
        let action = match self.extra.pop_front() {
            Some(op) => Action::Cell(op),
            None => match self.script.get(self.next) {
                Some(&(_, a)) => {
                    self.next += 1;
                    a
                }
                None => return,
            },
        };
        match action {
            Action::Cell(op) => {
                self.seq += 1;
                let cmd = Cmd {
                    client: ctx.me,
                    seq: self.seq,
                    op,
                };
                self.outstanding = Some(cmd);
                self.asked_at = ctx.now();
                ctx.note(MpNote::Asked { cmd });
            }
            // It writes under the sequencer it *believes* it holds: a client
            // paused since it last looked still believes it.
            Action::Write { lock, value } => match self.held.get(&lock) {
                Some(&generation) => self.writing = Some((lock, generation, value)),
                None => {
                    ctx.note(MpNote::NotHolding { lock });
                    self.schedule(ctx);
                    return;
                }
            },
        }
        self.send(ctx);
    }

    pub fn on_timer<H: Hosts<MpNode>>(&mut self, t: MpTimer, ctx: &mut Ctx<MpNode, H>) {
        match t {
            // In jeopardy a write waits: whether the lock is still held is
            // unknown until a master answers (or the grace period ends).
            MpTimer::Next if self.session == Session::Jeopardy && self.next_is_write() => {}
            MpTimer::Next if !self.busy() => self.act(ctx),
            MpTimer::Retry if self.outstanding.is_some() => {
                self.target = self.after(self.target);
                self.send(ctx);
            }
            MpTimer::Retry if self.writing.is_some() => self.send(ctx),
            MpTimer::KeepAlive => self.keep_alive(ctx),
            MpTimer::SessionEnd
                if self.session == Session::Safe && ctx.now() >= self.lease_until =>
            {
                self.session = Session::Jeopardy;
                ctx.note(MpNote::Jeopardy);
                if let Some(cell) = &self.group.cell {
                    ctx.set_timer(MpTimer::Grace, cell.grace);
                }
            }
            MpTimer::Grace if self.session == Session::Jeopardy => {
                self.lose_session(SessionEnd::Grace, ctx)
            }
            _ => {}
        }
    }

    fn next_is_write(&self) -> bool {
        self.extra.is_empty()
            && matches!(self.script.get(self.next), Some((_, Action::Write { .. })))
    }

    /// Send a KeepAlive; an unanswered one means the master may be gone, so
    /// the next goes to the replica after it.
    fn keep_alive<H: Hosts<MpNode>>(&mut self, ctx: &mut Ctx<MpNode, H>) {
        let Some(cell) = &self.group.cell else { return };
        if !matches!(self.session, Session::Safe | Session::Jeopardy) {
            return;
        }
        let every = cell.keepalive_every;
        if self.keepalive_sent.is_some() {
            self.target = self.after(self.target);
        }
        self.keepalive_sent = Some(ctx.now());
        ctx.send(self.target, MpMsg::KeepAlive { epoch: self.epoch });
        ctx.set_timer(MpTimer::KeepAlive, every);
    }

    fn lose_session<H: Hosts<MpNode>>(&mut self, why: SessionEnd, ctx: &mut Ctx<MpNode, H>) {
        self.session = Session::Lost;
        self.held.clear();
        self.keepalive_sent = None;
        for t in [MpTimer::KeepAlive, MpTimer::SessionEnd, MpTimer::Grace] {
            ctx.cancel_timer(t);
        }
        ctx.note(MpNote::SessionLost { why });
        self.schedule(ctx);
    }

    /// The session lease holds (by its own reckoning) until `until`.
    fn extend<H: Hosts<MpNode>>(&mut self, until: SimTime, ctx: &mut Ctx<MpNode, H>) {
        if until > self.lease_until {
            self.lease_until = until;
        }
        if self.lease_until > ctx.now() {
            ctx.set_timer(MpTimer::SessionEnd, self.lease_until.since(ctx.now()));
        }
    }

    /// Handle a message; the answer to a command, when one arrives.
    pub fn on_message<H: Hosts<MpNode>>(
        &mut self,
        from: NodeId,
        msg: MpMsg,
        ctx: &mut Ctx<MpNode, H>,
    ) -> Option<Outcome> {
        match msg {
            MpMsg::KeepAliveReply { epoch, .. } => {
                let (Some(sent), Some(cell)) = (self.keepalive_sent.take(), &self.group.cell)
                else {
                    return None;
                };
                if !matches!(self.session, Session::Safe | Session::Jeopardy) {
                    return None;
                }
                let budget = cell.session_budget;
                self.target = from;
                let failover = self.epoch.is_some_and(|e| e != epoch);
                self.epoch = Some(epoch);
                if self.session == Session::Jeopardy || failover {
                    self.session = Session::Safe;
                    ctx.cancel_timer(MpTimer::Grace);
                    ctx.note(MpNote::SessionSafe { epoch, failover });
                    self.schedule(ctx); // a write held back may go now
                }
                self.extend(sent + budget, ctx);
                return None;
            }
            MpMsg::SessionGone => {
                if matches!(self.session, Session::Safe | Session::Jeopardy) {
                    self.lose_session(SessionEnd::Ended, ctx);
                }
                return None;
            }
            // A KeepAlive reached a replica that does not lead: to the one it
            // names at once; if it knows none, to the next one at the next
            // KeepAlive (not one further: the redirect was an answer).
            MpMsg::Redirect { seq: 0, leader } => {
                if self.keepalive_sent.is_some() && from == self.target {
                    match leader {
                        Some(l) => {
                            self.target = l;
                            self.keepalive_sent = Some(ctx.now());
                            ctx.send(l, MpMsg::KeepAlive { epoch: self.epoch });
                        }
                        None => {
                            self.target = self.after(from);
                            self.keepalive_sent = None;
                        }
                    }
                }
                return None;
            }
            MpMsg::WriteReply {
                lock,
                generation,
                verdict,
            } => {
                if self
                    .writing
                    .is_some_and(|w| (w.0, w.1) == (lock, generation))
                {
                    self.writing = None;
                    ctx.cancel_timer(MpTimer::Retry);
                    if verdict != Verdict::Accepted {
                        // Told its sequencer is stale: it holds that lock no more.
                        self.held.remove(&lock);
                    }
                    self.schedule(ctx);
                }
                return None;
            }
            _ => {}
        }
        let cmd = self.outstanding?;
        match msg {
            MpMsg::Reply { seq, outcome, .. } if seq == cmd.seq => {
                self.outstanding = None;
                self.target = from;
                ctx.cancel_timer(MpTimer::Retry);
                ctx.note(MpNote::Answered { seq, outcome });
                self.answered(cmd.op, outcome, ctx);
                self.schedule(ctx);
                return Some(outcome);
            }
            // Only the answer of the replica it last asked counts: a late or
            // duplicated redirect would otherwise start a storm of requests.
            MpMsg::Redirect { seq, leader } if seq == cmd.seq && from == self.target => {
                match leader {
                    Some(l) => {
                        self.target = l;
                        if (self.hops as usize) < self.group.replicas.len() {
                            let hops = self.hops + 1;
                            self.send(ctx);
                            self.hops = hops;
                        }
                    }
                    // Nobody known to lead (an election is on): try the next one
                    // when the retry timer says so, not at once.
                    None => self.target = self.after(from),
                }
            }
            _ => {}
        }
        None
    }

    /// What an answer changes in its beliefs: a session, a sequencer.
    fn answered<H: Hosts<MpNode>>(&mut self, op: Op, outcome: Outcome, ctx: &mut Ctx<MpNode, H>) {
        match (op, outcome) {
            (Op::OpenSession, Outcome::SessionOpened) => {
                let Some(cell) = &self.group.cell else { return };
                // The master started the lease when it applied the command,
                // after this client asked: counting from the asking is safe.
                let until = self.asked_at + cell.session_budget;
                self.session = Session::Safe;
                self.extend(until, ctx);
                self.keep_alive(ctx);
            }
            (Op::Acquire { lock }, Outcome::Granted { generation }) => {
                self.held.insert(lock, generation);
            }
            (Op::Release { lock }, _) => {
                self.held.remove(&lock);
            }
            _ => {}
        }
    }

    /// A teacher's extra command for this client.
    pub fn on_command<H: Hosts<MpNode>>(
        &mut self,
        c: &MpCommand,
        ctx: &mut Ctx<MpNode, H>,
    ) -> bool {
        let key = |k: &str| KEYS.iter().position(|x| *x == k.trim()).map(|i| i as u8);
        let op = match c {
            MpCommand::Put { key: k, value, .. } => match (key(k), Value::new(value)) {
                (Some(key), Ok(value)) => Op::Put { key, value },
                _ => return false,
            },
            MpCommand::Get { key: k, .. } => match key(k) {
                Some(key) => Op::Get { key },
                None => return false,
            },
        };
        self.extra.push_back(op);
        self.schedule(ctx);
        true
    }

    /// A crash loses everything it knew: the command in flight, the session
    /// and the locks it believed it held.
    pub fn on_crash(&mut self) {
        self.outstanding = None;
        self.writing = None;
        self.keepalive_sent = None;
        if self.session != Session::None {
            self.session = Session::Lost;
        }
        self.held.clear();
    }

    pub fn on_restart<H: Hosts<MpNode>>(&mut self, ctx: &mut Ctx<MpNode, H>) {
        self.schedule(ctx);
    }
}
