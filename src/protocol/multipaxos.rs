//! Multi-Paxos: a replicated log with a stable leader, master leases, and a
//! small replicated state machine (keys and locks with sequencers, as in
//! Chubby). Paxos Made Simple §3 and Paxos Made Live §4–5 are the references.
//!
//! - **Slots.** Every slot of the log is a Synod instance; ballots `(round,
//!   node)` are shared by all slots, and an acceptor keeps one promise for
//!   all of them (`max_bal`) and one vote per slot.
//! - **Election, once for all slots.** A replica that no longer hears a
//!   leader runs phase 1 for every slot from its first unchosen one, in one
//!   message (`Prepare { ballot, from }`). Each promise reports the
//!   acceptor's votes from that slot on. With a quorum, the new leader
//!   re-proposes, slot by slot, the decree of the highest-numbered vote
//!   reported (**B3**, P2c), fills every gap below the highest reported slot
//!   with a **no-op**, and only then takes new commands.
//! - **A stable leader runs phase 2 only**: `Accept(b, slot, cmd)`, a quorum
//!   of `Accepted`, then `Decided` to every replica — with at most α slots in
//!   flight (the pipeline window). Replicas apply chosen slots strictly in
//!   order; one that misses slots (it was cut off, or restarted) asks for
//!   them (`CatchUp`) and applies them when they come.
//! - **Stepping down.** An acceptor that has promised a higher ballot answers
//!   `Nack`; a leader or candidate that hears of a higher ballot steps down.
//! - **Master lease** (Paxos Made Live §5.2, Chubby). Every heartbeat round
//!   is a lease request: a replica that acknowledges the master promises not
//!   to follow another master for T (it refuses other candidates' prepares
//!   until then, and for T after it restarts, having forgotten whom it
//!   promised). The master counts its lease from *before* it asked and
//!   shortens it by the drift bound: `start + T·(1−ρ)/(1+ρ) − margin`. Only
//!   while it holds the lease does it answer reads from its own copy; without
//!   it, a read goes through the log. A new master is thereby made to wait
//!   out the old lease. With the lease switched off, whoever believes it
//!   leads answers reads locally — the two-masters problem.
//!
//! Clients send each command to the replica they believe leads, follow
//! redirects, and retry elsewhere after a timeout; a command is identified by
//! (client, sequence number), so a retried one is applied once.
//!
//! - **A Chubby cell** (Burrows, OSDI 2006) when the group has a [`CellConfig`]:
//!   a client opens a *session* through the log and keeps it alive with
//!   KeepAlives to the master, which extends the session lease (never
//!   shortens it) and, when no KeepAlive came for a whole lease, ends the
//!   session through the log — freeing its locks. The client keeps its own,
//!   shorter estimate; when that runs out the session is in *jeopardy* and a
//!   *grace period* begins, during which it looks for a master (after a
//!   failover, the new one, with a new *epoch*, assumes the longest lease its
//!   predecessor could have granted). A lock grant carries a *sequencer*
//!   (lock, generation), checked by a file server ([`fileserver`]).

pub mod client;
pub mod fileserver;
pub mod machine;
pub mod replica;

use super::lease_row::{Cas, LeaseRow, StoreDuty};
use super::value::Value;
use crate::sim::{Ctx, Hosts, NodeId, Protocol, SimDuration};
use serde::Serialize;
use std::fmt;
use std::sync::Arc;

pub use super::ballot::{Ballot, Members};
pub use client::{Action, Client, Session};
pub use fileserver::{FileServer, Verdict};
pub use machine::Machine;
pub use replica::{Replica, Role};

/// A position in the log.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Slot(pub u32);

impl Slot {
    pub fn next(self) -> Slot {
        Slot(self.0 + 1)
    }
}

impl fmt::Display for Slot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// An operation of the replicated state machine.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// Fills a gap a failed leader left: changes nothing.
    Noop,
    Put {
        key: u8,
        value: Value,
    },
    Get {
        key: u8,
    },
    /// Take an exclusive lock; the grant carries a generation number — with
    /// the lock's name, Chubby's sequencer, a fencing token.
    Acquire {
        lock: u8,
    },
    Release {
        lock: u8,
    },
    /// Chubby: open a session for the sending client.
    OpenSession,
    /// Chubby: the master ends a session no KeepAlive renewed; its locks are freed.
    EndSession {
        client: NodeId,
    },
    /// Chubby's CheckSequencer: is `generation` the lock's current grant?
    Check {
        lock: u8,
        generation: u32,
    },
    /// The lease lab's `worker_leases` statement, for the sending worker,
    /// judged at `now_us` — the clock of the master that took the request,
    /// written into the command so that every replica applies the same.
    LeaseCas {
        ttl_us: u64,
        now_us: u64,
    },
    /// The sending worker gives up the lease of `epoch`.
    LeaseRelease {
        epoch: u64,
        now_us: u64,
    },
}

impl Op {
    /// Answered from the state as it stands, without changing it — by a
    /// master under its lease, from its own copy.
    pub fn is_read(&self) -> bool {
        matches!(self, Op::Get { .. } | Op::Check { .. })
    }

    /// The lease lab's `worker_leases` statement (run each time it is
    /// applied: never answered from the retry cache).
    pub fn is_lease_statement(&self) -> bool {
        matches!(self, Op::LeaseCas { .. } | Op::LeaseRelease { .. })
    }
}

/// A command: a client's operation, identified by (client, seq) so that a
/// retried command is applied once.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cmd {
    pub client: NodeId,
    pub seq: u32,
    pub op: Op,
}

impl Cmd {
    pub const NOOP: Cmd = Cmd {
        client: NodeId::NET,
        seq: 0,
        op: Op::Noop,
    };
    pub fn is_noop(&self) -> bool {
        self.op == Op::Noop
    }
}

/// What applying a command returned.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Done,
    /// A read: the value, and the slot whose write it is (0: never written).
    Value {
        value: Option<Value>,
        version: Slot,
    },
    /// A write, applied at this slot.
    Written {
        version: Slot,
    },
    Granted {
        generation: u32,
    },
    Busy {
        holder: NodeId,
    },
    Released,
    NotHeld,
    SessionOpened,
    /// A lock asked for without an open session.
    NoSession,
    /// CheckSequencer's answer.
    Sequencer {
        current: bool,
    },
    /// What the `worker_leases` statement did, judged at `now_us` (the
    /// command's time, or a later one already applied: the row's time never
    /// runs backwards).
    Lease {
        cas: Cas,
        now_us: u64,
    },
    /// The holder gave the lease up: the row now ends at `row.expires_at`.
    LeaseReleased {
        row: LeaseRow,
    },
}

/// One slot's vote, as a promise reports it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SlotVote {
    pub slot: Slot,
    pub ballot: Ballot,
    pub cmd: Cmd,
}

/// The messages, with the phase each belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MpMsg {
    /// A client's command, to the replica it believes leads.
    Request { cmd: Cmd },
    /// The answer to a command; `slot`: where it was applied (none for a
    /// read answered under the lease).
    Reply {
        seq: u32,
        outcome: Outcome,
        slot: Option<Slot>,
    },
    /// "I do not lead; try this one."
    Redirect { seq: u32, leader: Option<NodeId> },
    /// 1a, for every slot from `from` on.
    Prepare { ballot: Ballot, from: Slot },
    /// 1b: the promise, with the votes from `from` on.
    Promise {
        ballot: Ballot,
        from: Slot,
        votes: Arc<[SlotVote]>,
    },
    /// 2a, one slot.
    Accept {
        ballot: Ballot,
        slot: Slot,
        cmd: Cmd,
    },
    /// 2b.
    Accepted {
        ballot: Ballot,
        slot: Slot,
        cmd: Cmd,
    },
    /// 3: the slot's decree is chosen.
    Decided { slot: Slot, cmd: Cmd },
    /// "I have promised `promised`, above your `ballot`" (or: I grant another
    /// master a lease).
    Nack { ballot: Ballot, promised: Ballot },
    /// The leader is alive, knows the log up to `commit`, and asks for its lease.
    Heartbeat {
        ballot: Ballot,
        round: u32,
        commit: Slot,
    },
    /// "I follow you, and promise not to follow another master for T."
    HeartbeatAck { ballot: Ballot, round: u32 },
    /// "Send me the chosen slots from `from` on."
    CatchUp { from: Slot },
    /// Chosen slots, for a replica that is behind.
    Entries { entries: Arc<[(Slot, Cmd)]> },
    /// Chubby: a client keeps its session alive; `epoch`: the master it last heard.
    KeepAlive { epoch: Option<Ballot> },
    /// Chubby: the session lease is extended by `lease_us`, from now, by the master of `epoch`.
    KeepAliveReply { epoch: Ballot, lease_us: u64 },
    /// Chubby: "your session has ended" (its locks are freed).
    SessionGone,
    /// To the file server: write `value` under the sequencer (lock, generation).
    Write {
        lock: u8,
        generation: u32,
        value: Value,
    },
    /// The file server's answer.
    WriteReply {
        lock: u8,
        generation: u32,
        verdict: Verdict,
    },
}

impl MpMsg {
    /// The trace's `type` field.
    pub fn type_name(&self) -> &'static str {
        match self {
            MpMsg::Request { .. } => "request",
            MpMsg::Reply { .. } => "reply",
            MpMsg::Redirect { .. } => "redirect",
            MpMsg::Prepare { .. } => "prepare",
            MpMsg::Promise { .. } => "promise",
            MpMsg::Accept { .. } => "accept",
            MpMsg::Accepted { .. } => "accepted",
            MpMsg::Decided { .. } => "decided",
            MpMsg::Nack { .. } => "nack",
            MpMsg::Heartbeat { .. } => "heartbeat",
            MpMsg::HeartbeatAck { .. } => "heartbeat_ack",
            MpMsg::CatchUp { .. } => "catch_up",
            MpMsg::Entries { .. } => "entries",
            MpMsg::KeepAlive { .. } => "keep_alive",
            MpMsg::KeepAliveReply { .. } => "keep_alive_reply",
            MpMsg::SessionGone => "session_gone",
            MpMsg::Write { .. } => "fs_write",
            MpMsg::WriteReply { .. } => "fs_write_reply",
        }
    }
    /// The label drawn on a messenger.
    pub fn phase(&self) -> &'static str {
        match self {
            MpMsg::Prepare { .. } => "1a",
            MpMsg::Promise { .. } => "1b",
            MpMsg::Accept { .. } => "2a",
            MpMsg::Accepted { .. } => "2b",
            MpMsg::Decided { .. } => "3",
            MpMsg::Nack { .. } => "nack",
            MpMsg::Heartbeat { .. } => "♥",
            MpMsg::HeartbeatAck { .. } => "♥✓",
            MpMsg::Request { .. } => "req",
            MpMsg::Reply { .. } => "rep",
            MpMsg::Redirect { .. } => "→",
            MpMsg::CatchUp { .. } => "?",
            MpMsg::Entries { .. } => "log",
            MpMsg::KeepAlive { .. } => "ka",
            MpMsg::KeepAliveReply { .. } => "ka✓",
            MpMsg::SessionGone => "✗",
            MpMsg::Write { .. } => "w",
            MpMsg::WriteReply { .. } => "w?",
        }
    }
    pub fn slot(&self) -> Option<Slot> {
        match *self {
            MpMsg::Accept { slot, .. }
            | MpMsg::Accepted { slot, .. }
            | MpMsg::Decided { slot, .. } => Some(slot),
            MpMsg::Prepare { from, .. } | MpMsg::Promise { from, .. } | MpMsg::CatchUp { from } => {
                Some(from)
            }
            _ => None,
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MpTimer {
    /// Replica: no leader heard for a while — run for election.
    Election,
    /// Candidate: phase 1 took too long.
    PhaseTimeout,
    /// Leader: heartbeat and lease round.
    Heartbeat,
    /// Leader: the master lease runs out (by its own clock).
    LeaseEnd,
    /// Replica: slots are missing — ask for them.
    CatchUp,
    /// Client: send the next command.
    Next,
    /// Client: no answer in time — try another replica.
    Retry,
    /// Chubby client: send a KeepAlive.
    KeepAlive,
    /// Chubby client: its own estimate of the session lease runs out.
    SessionEnd,
    /// Chubby client: the grace period is over.
    Grace,
}

impl MpTimer {
    pub fn type_name(&self) -> &'static str {
        match self {
            MpTimer::Election => "election",
            MpTimer::PhaseTimeout => "phase_timeout",
            MpTimer::Heartbeat => "heartbeat",
            MpTimer::LeaseEnd => "lease_end",
            MpTimer::CatchUp => "catch_up",
            MpTimer::Next => "next",
            MpTimer::Retry => "retry",
            MpTimer::KeepAlive => "keep_alive",
            MpTimer::SessionEnd => "session_end",
            MpTimer::Grace => "grace",
        }
    }
}

/// How a leader chose a slot's decree.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Pick {
    /// A new command (the slot was free).
    New,
    /// B3: the highest-numbered vote reported for the slot.
    Forced { by: Ballot },
    /// A gap below the highest reported slot: nothing to recover, a no-op.
    Noop,
}

/// Why a master's lease belief ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum LeaseEnd {
    Expired,
    SteppedDown,
    Crashed,
}

impl LeaseEnd {
    pub fn as_str(self) -> &'static str {
        match self {
            LeaseEnd::Expired => "expired",
            LeaseEnd::SteppedDown => "stepped_down",
            LeaseEnd::Crashed => "crashed",
        }
    }
}

/// Why a client's session ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SessionEnd {
    /// The grace period ran out with no master heard.
    Grace,
    /// The cell said the session had ended.
    Ended,
}

impl SessionEnd {
    pub fn as_str(self) -> &'static str {
        match self {
            SessionEnd::Grace => "grace_over",
            SessionEnd::Ended => "ended_by_cell",
        }
    }
}

/// Facts put on the record.
#[derive(Clone, Debug, PartialEq)]
pub enum MpNote {
    /// A client sends a command (first time).
    Asked { cmd: Cmd },
    /// A client got its answer.
    Answered { seq: u32, outcome: Outcome },
    /// A replica runs for election: phase 1 for every slot from `from`.
    BallotStarted { ballot: Ballot, from: Slot },
    /// A quorum promised: this replica leads, having re-proposed `forced`
    /// slots and filled `noops` gaps.
    Elected {
        ballot: Ballot,
        forced: u32,
        noops: u32,
    },
    /// A leader's decree for a slot, and how it chose it.
    SlotPicked {
        ballot: Ballot,
        slot: Slot,
        cmd: Cmd,
        pick: Pick,
    },
    /// A leader or candidate heard of a higher ballot.
    SteppedDown { ballot: Ballot, by: Ballot },
    /// An acceptor refuses a candidate: it grants another master a lease.
    LeaseRefused { candidate: NodeId, grantee: NodeId },
    /// A replica writes a chosen slot in its log (ink).
    Learned { slot: Slot, cmd: Cmd },
    /// A replica applies a slot to its state machine (in order).
    Applied {
        slot: Slot,
        cmd: Cmd,
        outcome: Outcome,
    },
    /// A replica that was behind has caught up to `to`.
    CaughtUp { from: Slot, to: Slot },
    /// A master believes it holds the lease until this instant of its own clock.
    LeaseHeld { until_local_us: u64 },
    /// A master no longer believes it holds the lease.
    LeaseLost { why: LeaseEnd },
    /// A read answered from the master's own copy (under the lease, or,
    /// with the lease off, on the belief of leading).
    ReadServed {
        client: NodeId,
        seq: u32,
        key: u8,
        value: Option<Value>,
        version: Slot,
    },
    /// Monitor: a quorum of 2b for `cmd` in `slot` went out: chosen.
    Chosen {
        slot: Slot,
        ballot: Ballot,
        cmd: Cmd,
        members: Members,
    },
    /// Monitor: a master holds its lease until `until_us` of true time
    /// (`until_local_us` by its own clock).
    MasterLeaseHeld {
        holder: NodeId,
        until_local_us: u64,
        until_us: u64,
    },
    /// Monitor: a master's lease belief ended.
    MasterLeaseReleased { holder: NodeId, why: LeaseEnd },
    /// Chubby master: no KeepAlive from `client` for a whole session lease —
    /// it ends the session (through the log).
    SessionTimedOut { client: NodeId },
    /// Chubby client: its estimate of the session lease ran out; the grace
    /// period begins.
    Jeopardy,
    /// Chubby client: a master answered in time; `failover`: a new epoch.
    SessionSafe { epoch: Ballot, failover: bool },
    /// Chubby client: the session is lost; it holds no lock any more.
    SessionLost { why: SessionEnd },
    /// Chubby client: it would write under `lock`, but holds no sequencer for it.
    NotHolding { lock: u8 },
    /// The file server's verdict on a write.
    WriteChecked {
        client: NodeId,
        lock: u8,
        generation: u32,
        verdict: Verdict,
    },
}

impl MpNote {
    pub fn type_name(&self) -> &'static str {
        match self {
            MpNote::Asked { .. } => "command",
            MpNote::Answered { .. } => "answered",
            MpNote::BallotStarted { .. } => "ballot_started",
            MpNote::Elected { .. } => "elected",
            MpNote::SlotPicked { .. } => "slot_picked",
            MpNote::SteppedDown { .. } => "stepped_down",
            MpNote::LeaseRefused { .. } => "lease_refused",
            MpNote::Learned { .. } => "learned",
            MpNote::Applied { .. } => "applied",
            MpNote::CaughtUp { .. } => "caught_up",
            MpNote::LeaseHeld { .. } => "lease_held",
            MpNote::LeaseLost { .. } => "lease_lost",
            MpNote::ReadServed { .. } => "read_served",
            MpNote::Chosen { .. } => "chosen",
            MpNote::MasterLeaseHeld { .. } => "master_lease_held",
            MpNote::MasterLeaseReleased { .. } => "master_lease_released",
            MpNote::SessionTimedOut { .. } => "session_timed_out",
            MpNote::Jeopardy => "jeopardy",
            MpNote::SessionSafe { .. } => "session_safe",
            MpNote::SessionLost { .. } => "session_lost",
            MpNote::NotHolding { .. } => "not_holding",
            MpNote::WriteChecked { .. } => "write_checked",
        }
    }
}

/// What a teacher (or a script) can tell the replicated system.
/// Written by serde's derive (`{"put": {…}}`); read by hand (`from_json`,
/// see `json::tagged`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MpCommand<N = NodeId> {
    /// Client `node` writes `value` under `key` (an extra command).
    Put { node: N, key: String, value: String },
    /// Client `node` reads `key`.
    Get { node: N, key: String },
}

impl<N: crate::json::FromValue> MpCommand<N> {
    /// The command named `kind` (one of `KINDS`) from its fields.
    pub fn from_json(kind: &str, value: serde_json::Value) -> Result<Self, String> {
        crate::json::Fields::variant(kind, value)?.read_all(|f| {
            Ok(match kind {
                "put" => MpCommand::Put {
                    node: f.read("node")?,
                    key: f.read("key")?,
                    value: f.read("value")?,
                },
                "get" => MpCommand::Get {
                    node: f.read("node")?,
                    key: f.read("key")?,
                },
                _ => return Err(format!("unknown command `{kind}`")),
            })
        })
    }
}

impl<N> MpCommand<N> {
    pub const KINDS: &'static [&'static str] = &["put", "get"];
    pub fn kind(&self) -> &'static str {
        match self {
            MpCommand::Put { .. } => "put",
            MpCommand::Get { .. } => "get",
        }
    }
    pub fn node(&self) -> Option<&N> {
        match self {
            MpCommand::Put { node, .. } | MpCommand::Get { node, .. } => Some(node),
        }
    }
    pub fn try_map<M, E>(&self, mut f: impl FnMut(&N) -> Result<M, E>) -> Result<MpCommand<M>, E> {
        Ok(match self {
            MpCommand::Put { node, key, value } => MpCommand::Put {
                node: f(node)?,
                key: key.clone(),
                value: value.clone(),
            },
            MpCommand::Get { node, key } => MpCommand::Get {
                node: f(node)?,
                key: key.clone(),
            },
        })
    }
}

/// The keys of the store, as the trace and the page name them.
pub const KEYS: [&str; 4] = ["x", "y", "z", "w"];

pub fn key_index(name: &str) -> Option<u8> {
    KEYS.iter().position(|k| *k == name.trim()).map(|i| i as u8)
}

/// Ways to break Multi-Paxos and its lease on purpose.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MpMutation {
    /// Replicas do not keep their lease promise: a new master is elected (and
    /// serves) at once, while the old one still believes in its lease.
    NoLeaseWait,
    /// The master counts its lease from the reply, for the full T, without
    /// the drift bound.
    LeaseNoDriftMargin,
    /// A new leader goes straight to phase 2 for new commands.
    SkipPhase1OnTakeover,
    /// A new leader fills the slots it recovers with new commands (or
    /// no-ops) instead of the votes reported.
    NoOpFreeGaps,
}

impl MpMutation {
    pub const ALL: [MpMutation; 4] = [
        MpMutation::NoLeaseWait,
        MpMutation::LeaseNoDriftMargin,
        MpMutation::SkipPhase1OnTakeover,
        MpMutation::NoOpFreeGaps,
    ];
    pub fn as_str(self) -> &'static str {
        match self {
            MpMutation::NoLeaseWait => "no-lease-wait",
            MpMutation::LeaseNoDriftMargin => "lease-no-drift-margin",
            MpMutation::SkipPhase1OnTakeover => "skip-phase1-on-takeover",
            MpMutation::NoOpFreeGaps => "no-op-free-gaps",
        }
    }
}

/// A Chubby cell's settings: the client sessions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CellConfig {
    /// The session lease a KeepAlive grants (the master's side).
    pub session_lease: SimDuration,
    /// The client's own estimate of it, counted from before it asked and
    /// shortened by the drift bound: `T·(1−ρ)/(1+ρ) − margin`.
    pub session_budget: SimDuration,
    /// How long a client in jeopardy looks for a master before giving up.
    pub grace: SimDuration,
    pub keepalive_every: SimDuration,
    /// The file server that checks sequencers, if any.
    pub file_server: Option<NodeId>,
}

/// Settings every node of one group shares.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Group {
    pub replicas: Vec<NodeId>,
    pub quorum: usize,
    /// A replica runs for election after this long without hearing a
    /// leader (plus a stagger by its place, so they rarely collide).
    pub election_timeout: SimDuration,
    pub heartbeat_every: SimDuration,
    /// Slots in flight at most (α).
    pub window: u32,
    /// The master lease: T, and the master's own budget from before it asks
    /// (`T·(1−ρ)/(1+ρ) − margin`). None: no lease.
    pub lease: Option<(SimDuration, SimDuration)>,
    /// How long a client waits before trying another replica.
    pub client_retry: SimDuration,
    pub mutation: Option<MpMutation>,
    /// Sessions and sequencers (a Chubby cell); none: a bare group.
    pub cell: Option<CellConfig>,
    /// The lease lab's store as a replicated group: the machine holds the
    /// `worker_leases` row (see [`crate::protocol::lease_group`]).
    pub lease_store: Option<StoreDuty>,
}

impl Group {
    pub fn majority(n: usize) -> usize {
        n / 2 + 1
    }
    pub fn lease_t(&self) -> Option<SimDuration> {
        self.lease.map(|l| l.0)
    }
    pub fn mutated(&self, m: MpMutation) -> bool {
        self.mutation == Some(m)
    }
}

/// One node: a replica or a client.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MpNode {
    Replica(Replica),
    Client(Client),
    FileServer(FileServer),
}

impl MpNode {
    pub fn on_start<H: Hosts<MpNode>>(&mut self, ctx: &mut Ctx<MpNode, H>) {
        match self {
            MpNode::Replica(r) => r.on_start(ctx),
            MpNode::Client(c) => c.on_start(ctx),
            MpNode::FileServer(f) => f.on_start(ctx),
        }
    }
    pub fn on_message<H: Hosts<MpNode>>(
        &mut self,
        from: NodeId,
        msg: MpMsg,
        ctx: &mut Ctx<MpNode, H>,
    ) {
        match self {
            MpNode::Replica(r) => r.on_message(from, msg, ctx),
            MpNode::Client(c) => {
                c.on_message(from, msg, ctx);
            }
            MpNode::FileServer(f) => f.on_message(from, msg, ctx),
        }
    }
    pub fn on_timer<H: Hosts<MpNode>>(&mut self, t: MpTimer, ctx: &mut Ctx<MpNode, H>) {
        match self {
            MpNode::Replica(r) => r.on_timer(t, ctx),
            MpNode::Client(c) => c.on_timer(t, ctx),
            MpNode::FileServer(f) => f.cell.on_timer(t, ctx),
        }
    }
    pub fn on_crash(&mut self) {
        match self {
            MpNode::Replica(r) => r.on_crash(),
            MpNode::Client(c) => c.on_crash(),
            MpNode::FileServer(f) => f.on_crash(),
        }
    }
    pub fn on_restart<H: Hosts<MpNode>>(&mut self, ctx: &mut Ctx<MpNode, H>) {
        match self {
            MpNode::Replica(r) => r.on_restart(ctx),
            MpNode::Client(c) => c.on_restart(ctx),
            MpNode::FileServer(f) => f.cell.on_restart(ctx),
        }
    }
    pub fn on_command<H: Hosts<MpNode>>(
        &mut self,
        command: &MpCommand,
        ctx: &mut Ctx<MpNode, H>,
    ) -> bool {
        match self {
            MpNode::Client(c) if command.node() == Some(&ctx.me) => c.on_command(command, ctx),
            _ => false,
        }
    }
    pub fn as_replica(&self) -> Option<&Replica> {
        match self {
            MpNode::Replica(r) => Some(r),
            _ => None,
        }
    }
}

/// The registry's names for this protocol's commands and mutations.
pub type Command<N = NodeId> = MpCommand<N>;
pub type Mutation = MpMutation;

impl Protocol for MpNode {
    type Msg = MpMsg;
    type Timer = MpTimer;
    type Note = MpNote;
    type Command = MpCommand;

    fn on_start(&mut self, ctx: &mut Ctx<Self>) {
        MpNode::on_start(self, ctx)
    }
    fn on_message(&mut self, from: NodeId, msg: MpMsg, ctx: &mut Ctx<Self>) {
        MpNode::on_message(self, from, msg, ctx)
    }
    fn on_timer(&mut self, timer: MpTimer, ctx: &mut Ctx<Self>) {
        MpNode::on_timer(self, timer, ctx)
    }
    fn on_crash(&mut self) {
        MpNode::on_crash(self)
    }
    fn on_restart(&mut self, ctx: &mut Ctx<Self>) {
        MpNode::on_restart(self, ctx)
    }
    fn on_command(&mut self, command: &MpCommand, ctx: &mut Ctx<Self>) -> bool {
        MpNode::on_command(self, command, ctx)
    }
    fn command_subject(command: &MpCommand) -> Option<NodeId> {
        command.node().copied()
    }
    fn timer_name(timer: &MpTimer) -> &'static str {
        timer.type_name()
    }
}
