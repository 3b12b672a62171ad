//! A lease worker: the loop that must stay boring.
//!
//! **Sound loop** (designs `no_llm` and `beside`): every R the worker sends
//! one compare-and-set (acquire or renew). Its deadline is measured on its
//! own clock from *before* the request left — `sent + TTL·(1−ρ)/(1+ρ) −
//! margin` — so a slow reply can only make it give up early, never late. A
//! `Deadline` timer ends its belief the moment that budget is spent. While it
//! believes, it takes an order every `work_every`, spends `work_takes`
//! processing it, and sends the write stamped with its epoch. The check and
//! the write straddle the processing time: a process pause right there is
//! Kleppmann's GC pause, and only the storage's fence can catch it.
//! In `beside` the worker never calls the LLM at all: a separate advisor
//! ([`super::advisor`]) hears of a lapsed lease from the store.
//!
//! **Anti-pattern loop** (design `in_loop`): one blocking loop,
//!
//! ```text
//! loop {
//!     if now >= deadline { holding = false }
//!     batch  = if holding { next_order() }        // decided while it believed
//!     advice = llm.ask("keep the lease?")          // may take seconds
//!     match parse(advice) {
//!         Keep    => { write(batch, epoch); renew() }   // or acquire
//!         Release => { release(); holding = false }
//!         Err(_)  => log and skip this round             // malformed, refused, timeout, outage
//!     }
//!     sleep(R)
//! }
//! ```
//!
//! **A replicated store.** When the store is a Multi-Paxos group the worker
//! keeps its replicas' list and asks the one it believes leads. A replica
//! that does not lead says so, naming the leader if it knows one: the worker
//! asks that one at once, or the next replica a moment later. A request left
//! unanswered when the next one is due means the replica is gone: the next
//! request goes to the next replica.
//!
//! While the loop waits on the LLM nothing else runs — no deadline check, no
//! renewal — so a stall longer than the TTL lets another worker take over
//! while this one still believes it holds the lease; when the answer comes,
//! it writes with its stale epoch.

use super::LeaseNode;
use super::{Design, LeaseMsg, LeaseNote, LeaseShared, LeaseTimer, View};
use crate::protocol::llm::{LlmOutcome, Purpose};
use crate::sim::rng::Rng;
use crate::sim::{Ctx, Hosts, NodeId, SimDuration, SimTime};
use crate::sorted::VecMap;
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq)]
pub struct Worker {
    pub shared: Arc<LeaseShared>,
    /// When this worker's loop first runs (local time after start).
    pub start_after: SimDuration,
    /// Its belief: "I hold the lease with this epoch".
    pub holding: bool,
    pub epoch: u64,
    /// Its own conservative deadline (local clock).
    pub deadline: SimTime,
    /// Outstanding CAS requests: req → local time sent.
    pub pending: VecMap<u32, SimTime>,
    pub next_req: u32,
    /// Anti-pattern: the loop is blocked on this LLM request (sent at).
    pub waiting_llm: Option<(u32, SimTime)>,
    /// An order taken while holding, not yet written: (key, epoch).
    pub batch: Option<(u16, u64)>,
    /// Picks which order to take.
    pub rng: Rng,
    pub writes_sent: u32,
    pub writes_ok: u32,
    pub writes_refused: u32,
    /// A replicated store: which replica it asks (an index into the list).
    pub store_at: usize,
    /// The last compare-and-set sent, until it is answered.
    pub unanswered: Option<u32>,
}

impl Worker {
    pub fn new(shared: Arc<LeaseShared>, start_after: SimDuration, rng: Rng) -> Self {
        Worker {
            shared,
            start_after,
            holding: false,
            epoch: 0,
            deadline: SimTime::ZERO,
            pending: VecMap::new(),
            next_req: 0,
            waiting_llm: None,
            batch: None,
            rng,
            writes_sent: 0,
            writes_ok: 0,
            writes_refused: 0,
            store_at: 0,
            unanswered: None,
        }
    }

    /// The store, or the replica of it this worker believes leads.
    pub fn store(&self) -> NodeId {
        match self.shared.replicas.len() {
            0 => self.shared.store,
            n => self.shared.replicas[self.store_at % n],
        }
    }

    fn in_loop(&self) -> bool {
        self.shared.design == Design::InLoop && self.shared.llm.is_some()
    }

    fn req(&mut self) -> u32 {
        self.next_req = self.next_req.wrapping_add(1);
        self.next_req
    }

    pub fn on_start<H: Hosts<LeaseNode>>(&mut self, ctx: &mut Ctx<LeaseNode, H>) {
        ctx.set_timer(LeaseTimer::Tick, self.start_after);
    }

    fn believe<H: Hosts<LeaseNode>>(&mut self, holding: bool, ctx: &mut Ctx<LeaseNode, H>) {
        if self.holding != holding {
            self.holding = holding;
            ctx.note(LeaseNote::Belief {
                holding,
                epoch: self.epoch,
            });
        }
    }

    /// The belief ends: the deadline passed, or the store said no.
    fn lose<H: Hosts<LeaseNode>>(&mut self, ctx: &mut Ctx<LeaseNode, H>) {
        if !self.holding {
            return;
        }
        ctx.note(LeaseNote::Expired {
            holder: ctx.me,
            epoch: self.epoch,
            view: View::Worker,
        });
        self.believe(false, ctx);
        ctx.cancel_timer(LeaseTimer::Deadline);
        ctx.cancel_timer(LeaseTimer::Work);
    }

    /// One compare-and-set: acquire if not holding, renew if holding.
    fn send_cas<H: Hosts<LeaseNode>>(&mut self, ctx: &mut Ctx<LeaseNode, H>) {
        let req = self.req();
        // The deadline clock starts *before* the request leaves.
        self.pending.insert(req, ctx.now());
        // Keep the table small: requests older than a TTL cannot help any more.
        let ttl = self.shared.ttl;
        let now = ctx.now();
        self.pending.retain(|_, sent| now.since(*sent) < ttl);
        if let Some(last) = self.unanswered.replace(req) {
            // No answer to the last one: that replica is down or cut off.
            if self.pending.contains_key(&last) && !self.shared.replicas.is_empty() {
                self.store_at += 1;
            }
        }
        ctx.send(self.store(), LeaseMsg::Acquire { req, ttl_us: ttl.0 });
    }

    /// A store replica does not lead: ask the leader it names at once, or
    /// the next replica in a moment (an election may be under way).
    pub fn on_redirect<H: Hosts<LeaseNode>>(
        &mut self,
        req: u32,
        leader: Option<NodeId>,
        ctx: &mut Ctx<LeaseNode, H>,
    ) {
        if self.unanswered != Some(req) {
            return; // an older request's answer: a newer one is on its way
        }
        self.unanswered = None;
        self.pending.remove(&req);
        let n = self.shared.replicas.len().max(1);
        match leader.and_then(|l| self.shared.replicas.iter().position(|&r| r == l)) {
            Some(i) => {
                self.store_at = i;
                self.send_cas(ctx);
            }
            None => {
                self.store_at = (self.store_at + 1) % n;
                ctx.set_timer(
                    LeaseTimer::Redirected,
                    SimDuration(self.shared.renew_every.0 / 4),
                );
            }
        }
    }

    pub fn on_timer<H: Hosts<LeaseNode>>(&mut self, t: LeaseTimer, ctx: &mut Ctx<LeaseNode, H>) {
        match t {
            LeaseTimer::Tick => {
                if self.in_loop() {
                    self.loop_turn(ctx);
                } else {
                    self.send_cas(ctx);
                    ctx.set_timer(LeaseTimer::Tick, self.shared.renew_every);
                }
            }
            LeaseTimer::Deadline => self.lose(ctx),
            LeaseTimer::Work => {
                if self.holding && ctx.now() < self.deadline {
                    self.take_order(ctx);
                    ctx.set_timer(LeaseTimer::Commit, self.shared.work_takes);
                    ctx.set_timer(LeaseTimer::Work, self.shared.work_every);
                }
            }
            LeaseTimer::Commit => self.write_batch(ctx),
            LeaseTimer::LlmTimeout => {
                if let Some((_, sent)) = self.waiting_llm.take() {
                    ctx.note(LeaseNote::LlmResponse {
                        latency_us: ctx.now().since(sent).0,
                        outcome: LlmOutcome::Timeout,
                    });
                    // An exception: this round is skipped; the loop goes on.
                    self.batch = None;
                    ctx.set_timer(LeaseTimer::Tick, self.shared.renew_every);
                }
            }
            LeaseTimer::LlmRetry => self.loop_turn(ctx),
            LeaseTimer::Redirected => self.send_cas(ctx),
            _ => {}
        }
    }

    fn take_order<H: Hosts<LeaseNode>>(&mut self, _ctx: &mut Ctx<LeaseNode, H>) {
        let key = self.rng.below(self.shared.keys.max(1) as u64) as u16;
        self.batch = Some((key, self.epoch));
    }

    /// Send the write — without looking at the lease again.
    fn write_batch<H: Hosts<LeaseNode>>(&mut self, ctx: &mut Ctx<LeaseNode, H>) {
        if let Some((key, epoch)) = self.batch.take() {
            let req = self.req();
            self.writes_sent += 1;
            ctx.note(LeaseNote::WriteSent { key, epoch });
            ctx.send(self.shared.storage, LeaseMsg::Write { req, key, epoch });
        }
    }

    /// The anti-pattern loop's turn: check, take an order, ask the LLM, wait.
    fn loop_turn<H: Hosts<LeaseNode>>(&mut self, ctx: &mut Ctx<LeaseNode, H>) {
        if self.holding && ctx.now() >= self.deadline {
            self.lose(ctx);
        }
        if self.holding {
            self.take_order(ctx);
        }
        let Some(llm) = self.shared.llm else { return };
        let req = self.req();
        self.waiting_llm = Some((req, ctx.now()));
        ctx.note(LeaseNote::LlmRequest {
            purpose: Purpose::KeepLease,
        });
        ctx.send(
            llm,
            LeaseMsg::Ask {
                req,
                purpose: Purpose::KeepLease,
            },
        );
        ctx.set_timer(LeaseTimer::LlmTimeout, self.shared.llm_timeout);
    }

    fn on_answer<H: Hosts<LeaseNode>>(
        &mut self,
        req: u32,
        outcome: LlmOutcome,
        ctx: &mut Ctx<LeaseNode, H>,
    ) {
        let Some((waiting, sent)) = self.waiting_llm else {
            return;
        };
        if waiting != req {
            return; // a late answer to a request already given up on
        }
        self.waiting_llm = None;
        ctx.cancel_timer(LeaseTimer::LlmTimeout);
        ctx.note(LeaseNote::LlmResponse {
            latency_us: ctx.now().since(sent).0,
            outcome,
        });
        match outcome {
            LlmOutcome::Keep => {
                // The batch was decided when the worker believed it held the
                // lease — possibly many seconds ago.
                self.write_batch(ctx);
                self.send_cas(ctx);
                ctx.set_timer(LeaseTimer::Tick, self.shared.renew_every);
            }
            LlmOutcome::Release => {
                self.batch = None;
                if self.holding {
                    ctx.send(self.store(), LeaseMsg::Release { epoch: self.epoch });
                    self.lose(ctx);
                }
                ctx.set_timer(LeaseTimer::Tick, self.shared.renew_every);
            }
            LlmOutcome::RateLimited { retry_after_us } => {
                // Obey the vendor: wait, then ask again; the loop stays blocked.
                self.waiting_llm = None;
                ctx.set_timer(LeaseTimer::LlmRetry, SimDuration(retry_after_us));
            }
            _ => {
                // Malformed JSON, a refusal, an outage: the parse fails, the
                // round is skipped, nothing is renewed.
                self.batch = None;
                ctx.set_timer(LeaseTimer::Tick, self.shared.renew_every);
            }
        }
    }

    pub fn on_message<H: Hosts<LeaseNode>>(&mut self, m: LeaseMsg, ctx: &mut Ctx<LeaseNode, H>) {
        match m {
            LeaseMsg::AcquireReply { req, epoch } => {
                if self.unanswered == Some(req) {
                    self.unanswered = None;
                }
                let Some(sent) = self.pending.remove(&req) else {
                    return;
                };
                match epoch {
                    Some(e) => {
                        let deadline = sent + self.shared.budget;
                        if deadline <= ctx.now() {
                            return; // the reply came too late to be of any use
                        }
                        if self.holding && e != self.epoch {
                            // A different epoch: the old lease is gone, this is a new one.
                            self.lose(ctx);
                        }
                        let newly = !self.holding;
                        self.epoch = e;
                        if newly || deadline > self.deadline {
                            self.deadline = deadline;
                            // The sound loop ends its belief on time, whatever it is
                            // doing; the blocking loop only looks at the top of a turn.
                            if !self.in_loop() {
                                ctx.set_timer(LeaseTimer::Deadline, deadline.since(ctx.now()));
                            }
                        }
                        self.believe(true, ctx);
                        if newly && !self.in_loop() {
                            ctx.set_timer(LeaseTimer::Work, SimDuration::ZERO);
                        }
                    }
                    None => self.lose(ctx),
                }
            }
            LeaseMsg::WriteReply { ok, .. } => {
                if ok {
                    self.writes_ok += 1;
                } else {
                    self.writes_refused += 1;
                }
            }
            LeaseMsg::Answer { req, outcome } => self.on_answer(req, outcome, ctx),
            _ => {}
        }
    }

    pub fn on_crash(&mut self) {
        // Everything a worker knows is volatile: the lease itself lives in the store.
        self.holding = false;
        self.epoch = 0;
        self.deadline = SimTime::ZERO;
        self.pending.clear();
        self.waiting_llm = None;
        self.batch = None;
        self.unanswered = None;
    }

    pub fn on_restart<H: Hosts<LeaseNode>>(&mut self, ctx: &mut Ctx<LeaseNode, H>) {
        ctx.set_timer(LeaseTimer::Tick, SimDuration::ZERO);
    }
}
