//! A client of the replicated store.
//!
//! It works through a script of operations, one at a time: each goes to the
//! replica it believes leads; a redirect names another; no answer in time
//! and it tries the next replica. A retry keeps its sequence number, so the
//! group applies it once however many replicas it reaches.

use super::{Cmd, Group, MpCommand, MpMsg, MpNode, MpNote, MpTimer, Op, KEYS};
use crate::protocol::value::Value;
use crate::sim::{Ctx, Hosts, NodeId, SimDuration, SimTime};
use std::collections::VecDeque;
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Client {
    pub group: Arc<Group>,
    /// (not before this local instant, operation), in order.
    pub script: Arc<[(SimTime, Op)]>,
    pub next: usize,
    /// Operations added by hand (the teacher's commands), run first.
    pub extra: VecDeque<Op>,
    pub seq: u32,
    /// The command waiting for its answer.
    pub outstanding: Option<Cmd>,
    /// The replica it believes leads.
    pub target: NodeId,
    /// Redirects followed since the last timer (two replicas pointing at
    /// each other must not bounce a request for ever).
    pub hops: u8,
}

impl Client {
    pub fn new(group: Arc<Group>, script: Arc<[(SimTime, Op)]>) -> Self {
        let target = group.replicas[0];
        Client { group, script, next: 0, extra: VecDeque::new(), seq: 0, outstanding: None, target, hops: 0 }
    }

    pub fn on_start<H: Hosts<MpNode>>(&mut self, ctx: &mut Ctx<MpNode, H>) {
        self.schedule(ctx);
    }

    /// Arm the timer for the next operation, if any.
    fn schedule<H: Hosts<MpNode>>(&mut self, ctx: &mut Ctx<MpNode, H>) {
        if self.outstanding.is_some() {
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
        }
    }

    /// The replica after `n` in the group, round the table.
    fn after(&self, n: NodeId) -> NodeId {
        let r = &self.group.replicas;
        let i = r.iter().position(|&x| x == n).map_or(0, |i| (i + 1) % r.len());
        r[i]
    }

    pub fn on_timer<H: Hosts<MpNode>>(&mut self, t: MpTimer, ctx: &mut Ctx<MpNode, H>) {
        match t {
            MpTimer::Next if self.outstanding.is_none() => {
                let op = match self.extra.pop_front() {
                    Some(op) => op,
                    None => match self.script.get(self.next) {
                        Some(&(_, op)) => {
                            self.next += 1;
                            op
                        }
                        None => return,
                    },
                };
                self.seq += 1;
                let cmd = Cmd { client: ctx.me, seq: self.seq, op };
                self.outstanding = Some(cmd);
                ctx.note(MpNote::Asked { cmd });
                self.send(ctx);
            }
            MpTimer::Retry if self.outstanding.is_some() => {
                self.target = self.after(self.target);
                self.send(ctx);
            }
            _ => {}
        }
    }

    pub fn on_message<H: Hosts<MpNode>>(&mut self, from: NodeId, msg: MpMsg, ctx: &mut Ctx<MpNode, H>) {
        let Some(cmd) = self.outstanding else { return };
        match msg {
            MpMsg::Reply { seq, outcome, .. } if seq == cmd.seq => {
                self.outstanding = None;
                self.target = from;
                ctx.cancel_timer(MpTimer::Retry);
                ctx.note(MpNote::Answered { seq, outcome });
                self.schedule(ctx);
            }
            // Only the answer of the replica it last asked counts: a late or
            // duplicated redirect would otherwise start a storm of requests.
            MpMsg::Redirect { seq, leader } if seq == cmd.seq && from == self.target => match leader {
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
            },
            _ => {}
        }
    }

    /// A teacher's extra command for this client.
    pub fn on_command<H: Hosts<MpNode>>(&mut self, c: &MpCommand, ctx: &mut Ctx<MpNode, H>) -> bool {
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

    pub fn on_crash(&mut self) {
        self.outstanding = None;
    }

    pub fn on_restart<H: Hosts<MpNode>>(&mut self, ctx: &mut Ctx<MpNode, H>) {
        self.schedule(ctx);
    }
}
