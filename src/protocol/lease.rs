//! The lease loop of *The Lease Loop Is Not a Chat Completion*, with
//! Kleppmann's fencing tokens.
//!
//! - The **lease store** ([`store`]) holds one `worker_leases` row: holder,
//!   epoch, `expires_at` — judged by the *store's* clock. Acquire and renew are
//!   one compare-and-set that returns the epoch or nothing. The article
//!   describes it in words; the SQL is DOMAIN.md §6's `INSERT … ON CONFLICT …
//!   WHERE … RETURNING epoch` (tested on PostgreSQL 15, and run verbatim by
//!   `paxos-island pg`): a live holder renews and keeps its epoch; anyone may
//!   take an expired lease, and a takeover (or re-acquire) bumps the epoch.
//! - **Workers** ([`worker`]) renew every R (default TTL/3). Each keeps its
//!   own conservative deadline, started *before* the request leaves:
//!   `TTL·(1−ρ)/(1+ρ) − margin`, and works only while it believes it holds
//!   the lease. Every write carries its epoch — the fencing token.
//! - **Storage** ([`crate::protocol::storage`]), the `orders` table, runs the
//!   fenced `UPDATE`: by default the article's rule — the row's `fence_epoch`
//!   *and* the live lease, at the storage's clock — or Kleppmann's monotonic
//!   token alone, or nothing; the monitors count the damage.
//! - [`sql`] holds those statements as text, for the page and for the real
//!   PostgreSQL, and says for each step of a run which one ran, with what.
//! - The **LLM advisor** ([`crate::protocol::llm`]) is an external service that
//!   is slow (heavy-tailed), non-deterministic and not ours (rate limits,
//!   refusals, outages). In the *anti-pattern* design the worker asks it
//!   before every renewal and waits; in the *sound* design the worker never
//!   calls it: a separate [`advisor`] hears of a lapsed lease from the store
//!   and asks it, after the fact, to explain.
//!
//! The point of the demo: a stall longer than the TTL makes the worker wake
//! up still believing it holds the lease (split brain); fencing is what makes
//! its stale write harmless.

pub mod advisor;
pub mod sql;
pub mod store;
pub mod worker;

use crate::protocol::lease_row::CasRules;
use crate::protocol::llm::{Llm, LlmOutcome, Purpose};
use crate::protocol::storage::{Refusal, Storage};
use crate::sim::{Ctx, Hosts, NodeId, Protocol, SimDuration, SimTime};
use serde::Serialize;
use std::sync::Arc;

pub use advisor::Advisor;
pub use store::{LeaseRow, LeaseStore};
pub use worker::Worker;

/// Where the LLM sits relative to the lease loop.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(rename_all = "snake_case")]
pub enum Design {
    /// No LLM at all: the plain, boring lease loop.
    NoLlm,
    /// Anti-pattern: ask the LLM before each renewal, wait, obey.
    InLoop,
    /// Sound: the workers never call the LLM; a separate advisor asks it,
    /// afterwards, to explain a lapsed lease.
    Beside,
}

/// Written by name: `"in_loop"`.
impl crate::json::FromValue for Design {
    fn from_value(v: serde_json::Value) -> Result<Self, String> {
        const ALL: [(&str, Design); 3] = [
            ("no_llm", Design::NoLlm),
            ("in_loop", Design::InLoop),
            ("beside", Design::Beside),
        ];
        crate::json::named(v, &ALL, |(n, _)| n).map(|(_, d)| d)
    }
}

/// What a teacher (or a script) can do to the lease lab's LLM service.
/// Written by serde's derive (`{"llm_stall": {…}}`); read by hand (`from_json`,
/// see `json::tagged`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LeaseCommand<N = NodeId> {
    /// The LLM service's next answer to `node` takes `for_us` (a stall).
    LlmStall { node: N, for_us: u64 },
    /// The LLM service is down (true) or back (false).
    LlmOutage { down: bool },
}

impl<N: crate::json::FromValue> LeaseCommand<N> {
    /// The command named `kind` (one of `KINDS`) from its fields.
    pub fn from_json(kind: &str, value: serde_json::Value) -> Result<Self, String> {
        crate::json::Fields::variant(kind, value)?.read_all(|f| {
            Ok(match kind {
                "llm_stall" => LeaseCommand::LlmStall {
                    node: f.read("node")?,
                    for_us: f.read("for_us")?,
                },
                "llm_outage" => LeaseCommand::LlmOutage {
                    down: f.read("down")?,
                },
                _ => return Err(format!("unknown command `{kind}`")),
            })
        })
    }
}

impl<N> LeaseCommand<N> {
    pub const KINDS: &'static [&'static str] = &["llm_stall", "llm_outage"];
    /// The snake_case name used as the trace event kind.
    pub fn kind(&self) -> &'static str {
        match self {
            LeaseCommand::LlmStall { .. } => "llm_stall",
            LeaseCommand::LlmOutage { .. } => "llm_outage",
        }
    }
    pub fn node(&self) -> Option<&N> {
        match self {
            LeaseCommand::LlmStall { node, .. } => Some(node),
            LeaseCommand::LlmOutage { .. } => None,
        }
    }
    pub fn try_map<M, E>(
        &self,
        mut f: impl FnMut(&N) -> Result<M, E>,
    ) -> Result<LeaseCommand<M>, E> {
        Ok(match self {
            LeaseCommand::LlmStall { node, for_us } => LeaseCommand::LlmStall {
                node: f(node)?,
                for_us: *for_us,
            },
            LeaseCommand::LlmOutage { down } => LeaseCommand::LlmOutage { down: *down },
        })
    }
}

/// Ways to break the lease loop on purpose.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LeaseMutation {
    /// Lease store: renew/acquire without the compare — anyone who asks gets it.
    BlindAcquire,
    /// Lease store: a takeover keeps the old epoch, so two holders share one token.
    NoEpochBump,
    /// Storage: the fence check is missing; every write is accepted.
    NoFence,
}

impl LeaseMutation {
    /// The `worker_leases` statement's rules for the lab's settings, with
    /// this deliberate bug (if any) in them — for the single store and a
    /// replicated one alike.
    pub fn rules(
        mutation: Option<LeaseMutation>,
        initial_epoch: u64,
        bump_on_renew: bool,
    ) -> CasRules {
        CasRules {
            initial_epoch,
            bump_on_renew,
            blind: mutation == Some(LeaseMutation::BlindAcquire),
            no_bump: mutation == Some(LeaseMutation::NoEpochBump),
        }
    }

    pub const ALL: [LeaseMutation; 3] = [
        LeaseMutation::BlindAcquire,
        LeaseMutation::NoEpochBump,
        LeaseMutation::NoFence,
    ];
    pub fn as_str(self) -> &'static str {
        match self {
            LeaseMutation::BlindAcquire => "blind-acquire",
            LeaseMutation::NoEpochBump => "no-epoch-bump",
            LeaseMutation::NoFence => "no-fence",
        }
    }
}

/// Settings every lease node shares.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LeaseShared {
    pub store: NodeId,
    /// The store's replicas when the store is a Multi-Paxos group (see
    /// [`crate::protocol::lease_group`]); empty: the single `store`.
    pub replicas: Vec<NodeId>,
    pub storage: NodeId,
    pub llm: Option<NodeId>,
    pub ttl: SimDuration,
    pub renew_every: SimDuration,
    /// The worker's own budget: TTL·(1−ρ)/(1+ρ) − margin.
    pub budget: SimDuration,
    pub design: Design,
    /// How long the worker waits for the LLM before giving up.
    pub llm_timeout: SimDuration,
    /// A holder writes one order this often.
    pub work_every: SimDuration,
    /// Time between checking the lease and sending the write.
    pub work_takes: SimDuration,
    /// Rows in `orders`.
    pub keys: u16,
}

impl LeaseShared {
    /// `TTL·(1−ρ)/(1+ρ) − margin`, in whole microseconds.
    pub fn budget_for(ttl_us: u64, rho_ppm: u64, margin_us: u64) -> SimDuration {
        let num = ttl_us as u128 * (1_000_000 - rho_ppm.min(999_999)) as u128;
        let den = 1_000_000 + rho_ppm as u128;
        SimDuration(((num / den) as u64).saturating_sub(margin_us))
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum LeaseMsg {
    /// Acquire or renew (one compare-and-set), for the sender.
    Acquire { req: u32, ttl_us: u64 },
    /// The CAS answer: the epoch, or nothing.
    AcquireReply { req: u32, epoch: Option<u64> },
    /// Give the lease up.
    Release { epoch: u64 },
    /// The store's row, new version `version`, for `orders` (whose fence
    /// checks the live lease against it) — and, when a lease lapses, for the
    /// advisor.
    Row { version: u64, row: LeaseRow },
    /// Write one order row, stamped with the writer's epoch.
    Write { req: u32, key: u16, epoch: u64 },
    WriteReply {
        req: u32,
        key: u16,
        epoch: u64,
        ok: bool,
    },
    /// A question to the LLM.
    Ask { req: u32, purpose: Purpose },
    /// Its answer (if it answers at all).
    Answer { req: u32, outcome: LlmOutcome },
}

impl LeaseMsg {
    pub fn type_name(&self) -> &'static str {
        match self {
            LeaseMsg::Acquire { .. } => "acquire",
            LeaseMsg::AcquireReply { .. } => "acquire_reply",
            LeaseMsg::Release { .. } => "release",
            LeaseMsg::Row { .. } => "lease_row",
            LeaseMsg::Write { .. } => "write",
            LeaseMsg::WriteReply { .. } => "write_reply",
            LeaseMsg::Ask { .. } => "llm_ask",
            LeaseMsg::Answer { .. } => "llm_answer",
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LeaseTimer {
    /// Worker: the loop's next turn (renew, or try to acquire).
    Tick,
    /// Worker: its own conservative deadline.
    Deadline,
    /// Worker: time to take the next order.
    Work,
    /// Worker: the order is processed; send the write.
    Commit,
    /// Worker: the LLM took too long.
    LlmTimeout,
    /// Worker: retry after a rate limit.
    LlmRetry,
    /// Store: the lease row's expiry, as the store's clock sees it.
    Expire,
    /// LLM service: answer request `n`.
    Answer(u32),
    /// Worker: a store replica said it does not lead; ask again.
    Redirected,
}

impl LeaseTimer {
    /// The trace's `timer` field.
    pub fn type_name(&self) -> &'static str {
        match self {
            LeaseTimer::Tick => "tick",
            LeaseTimer::Deadline => "deadline",
            LeaseTimer::Work => "work",
            LeaseTimer::Commit => "commit",
            LeaseTimer::LlmTimeout => "llm_timeout",
            LeaseTimer::LlmRetry => "llm_retry",
            LeaseTimer::Expire => "expire",
            LeaseTimer::Answer(_) => "answer",
            LeaseTimer::Redirected => "redirected",
        }
    }
}

/// Whose view an expiry is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum View {
    /// The worker's own deadline passed (or it learned it lost the lease).
    Worker,
    /// The store's clock passed `expires_at`.
    Store,
}

#[derive(Clone, Debug, PartialEq)]
pub enum LeaseNote {
    /// The store grants the lease to a new holder (takeover or first acquire).
    ///
    /// `version`: a replicated store's row version — the slot of the
    /// statement. A new master that recovers its predecessor's slots puts
    /// them on the record again, late; the version tells a reader that the
    /// row has moved on since. The single store writes none.
    Granted {
        holder: NodeId,
        epoch: u64,
        expires_at_us: u64,
        previous: Option<(NodeId, u64, u64)>,
        store_now_us: u64,
        version: Option<u64>,
    },
    /// The store extends a live holder's lease.
    Renewed {
        holder: NodeId,
        epoch: u64,
        expires_at_us: u64,
        store_now_us: u64,
        version: Option<u64>,
    },
    /// The store says no (someone else holds an unexpired lease).
    Refused {
        asker: NodeId,
        holder: NodeId,
        epoch: u64,
        store_now_us: u64,
    },
    /// The holder gives the lease up; the row expires at `at_us` (store clock).
    Released {
        holder: NodeId,
        epoch: u64,
        at_us: u64,
        version: Option<u64>,
    },
    /// The lease ran out (as the worker believes, or as the store knows).
    Expired {
        holder: NodeId,
        epoch: u64,
        view: View,
    },
    /// A worker's belief changed: it now thinks it holds epoch `epoch` (or not).
    Belief {
        holding: bool,
        epoch: u64,
    },
    /// A worker sends a write stamped with `epoch`.
    WriteSent {
        key: u16,
        epoch: u64,
    },
    /// `orders` took the write; `previous` was the row's `fence_epoch`, and
    /// `db_now_us` the storage's clock — the statement's `now()`.
    WriteAccepted {
        writer: NodeId,
        epoch: u64,
        key: u16,
        previous: u64,
        db_now_us: u64,
    },
    /// `orders` turned the write away: `reason` names the clause; `row` is the
    /// row's `fence_epoch` and `lease` the live row as `orders` saw it
    /// (holder, epoch, expires_at on the store's clock).
    WriteRejected {
        writer: NodeId,
        epoch: u64,
        key: u16,
        row: u64,
        reason: Refusal,
        lease: Option<LeaseRow>,
        db_now_us: u64,
    },
    LlmRequest {
        purpose: Purpose,
    },
    LlmResponse {
        latency_us: u64,
        outcome: LlmOutcome,
    },
    /// Two or more workers believe they hold the lease.
    SplitBrainStart {
        believers: u64,
    },
    SplitBrainEnd {
        lasted_us: u64,
    },
}

impl LeaseNote {
    /// The row version a replicated store's note carries (see `Granted`).
    pub fn version(&self) -> Option<u64> {
        match *self {
            LeaseNote::Granted { version, .. }
            | LeaseNote::Renewed { version, .. }
            | LeaseNote::Released { version, .. } => version,
            _ => None,
        }
    }

    /// The trace's `kind` field.
    pub fn type_name(&self) -> &'static str {
        match self {
            LeaseNote::Granted { .. } => "lease_granted",
            LeaseNote::Renewed { .. } => "lease_renewed",
            LeaseNote::Refused { .. } => "lease_refused",
            LeaseNote::Released { .. } => "lease_released",
            LeaseNote::Expired { .. } => "lease_expired",
            LeaseNote::Belief { .. } => "belief",
            LeaseNote::WriteSent { .. } => "write_sent",
            LeaseNote::WriteAccepted { .. } => "write_accepted",
            LeaseNote::WriteRejected { .. } => "write_rejected",
            LeaseNote::LlmRequest { .. } => "llm_request",
            LeaseNote::LlmResponse { .. } => "llm_response",
            LeaseNote::SplitBrainStart { .. } => "split_brain_start",
            LeaseNote::SplitBrainEnd { .. } => "split_brain_end",
        }
    }
}

/// One node of the lease lab.
#[derive(Clone, Debug, PartialEq)]
pub enum LeaseNode {
    Worker(Worker),
    Store(LeaseStore),
    Storage(Storage),
    Llm(Llm),
    /// The sound design's explainer, apart from the lease loop.
    Advisor(Advisor),
}

impl LeaseNode {
    pub fn on_start<H: Hosts<LeaseNode>>(&mut self, ctx: &mut Ctx<LeaseNode, H>) {
        if let LeaseNode::Worker(w) = self {
            w.on_start(ctx)
        }
    }
    pub fn on_message<H: Hosts<LeaseNode>>(
        &mut self,
        from: NodeId,
        m: LeaseMsg,
        ctx: &mut Ctx<LeaseNode, H>,
    ) {
        match self {
            LeaseNode::Worker(w) => w.on_message(m, ctx),
            LeaseNode::Store(s) => s.on_message(from, m, ctx),
            LeaseNode::Storage(s) => s.on_message(from, m, ctx),
            LeaseNode::Llm(l) => l.on_message(from, m, ctx),
            LeaseNode::Advisor(a) => a.on_message(m, ctx),
        }
    }
    pub fn on_timer<H: Hosts<LeaseNode>>(&mut self, t: LeaseTimer, ctx: &mut Ctx<LeaseNode, H>) {
        match self {
            LeaseNode::Worker(w) => w.on_timer(t, ctx),
            LeaseNode::Store(s) => s.on_timer(t, ctx),
            LeaseNode::Storage(_) | LeaseNode::Advisor(_) => {}
            LeaseNode::Llm(l) => l.on_timer(t, ctx),
        }
    }
    pub fn on_crash(&mut self) {
        match self {
            LeaseNode::Worker(w) => w.on_crash(),
            LeaseNode::Llm(l) => l.on_crash(),
            LeaseNode::Advisor(a) => a.on_crash(),
            // The store and storage are databases: their rows are durable.
            LeaseNode::Store(_) | LeaseNode::Storage(_) => {}
        }
    }
    pub fn on_restart<H: Hosts<LeaseNode>>(&mut self, ctx: &mut Ctx<LeaseNode, H>) {
        match self {
            LeaseNode::Worker(w) => w.on_restart(ctx),
            LeaseNode::Store(s) => s.on_restart(ctx),
            _ => {}
        }
    }
    pub fn on_command<H: Hosts<LeaseNode>>(
        &mut self,
        c: &LeaseCommand,
        _ctx: &mut Ctx<LeaseNode, H>,
    ) -> bool {
        match (self, c) {
            (LeaseNode::Llm(l), LeaseCommand::LlmStall { node, for_us }) => {
                l.stall_next.insert(*node, SimDuration(*for_us));
                true
            }
            (LeaseNode::Llm(l), LeaseCommand::LlmOutage { down }) => {
                l.down = *down;
                true
            }
            _ => false,
        }
    }

    pub fn as_worker(&self) -> Option<&Worker> {
        match self {
            LeaseNode::Worker(w) => Some(w),
            _ => None,
        }
    }
}

/// The registry's names for this protocol's commands and mutations.
pub type Command<N = NodeId> = LeaseCommand<N>;
pub type Mutation = LeaseMutation;

impl Protocol for LeaseNode {
    type Msg = LeaseMsg;
    type Timer = LeaseTimer;
    type Note = LeaseNote;
    type Command = LeaseCommand;

    fn on_start(&mut self, ctx: &mut Ctx<Self>) {
        LeaseNode::on_start(self, ctx)
    }
    fn on_message(&mut self, from: NodeId, msg: LeaseMsg, ctx: &mut Ctx<Self>) {
        LeaseNode::on_message(self, from, msg, ctx)
    }
    fn on_timer(&mut self, timer: LeaseTimer, ctx: &mut Ctx<Self>) {
        LeaseNode::on_timer(self, timer, ctx)
    }
    fn on_crash(&mut self) {
        LeaseNode::on_crash(self)
    }
    fn on_restart(&mut self, ctx: &mut Ctx<Self>) {
        LeaseNode::on_restart(self, ctx)
    }
    fn on_command(&mut self, command: &LeaseCommand, ctx: &mut Ctx<Self>) -> bool {
        LeaseNode::on_command(self, command, ctx)
    }
    fn command_subject(command: &LeaseCommand) -> Option<NodeId> {
        command.node().copied()
    }
    fn timer_name(timer: &LeaseTimer) -> &'static str {
        timer.type_name()
    }
}

/// The lease lab's shared settings, for nodes built from a scenario.
pub fn shared(s: LeaseShared) -> Arc<LeaseShared> {
    Arc::new(s)
}

/// Keep `SimTime` in scope for the submodules' doc links.
#[allow(dead_code)]
type _Time = SimTime;
