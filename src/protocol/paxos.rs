//! Single-decree Paxos — Lamport's Synod — as three sans-IO roles.
//!
//! One legislator (node) may play any of the roles:
//!
//! - **Proposer** ([`proposer`]): picks a ballot `(round, node)` — distinct
//!   proposers own disjoint ballots, which is condition **B1** — and runs
//!   *phase 1a*: `Prepare(b)` to every acceptor. With a quorum (a majority, so
//!   any two quorums share a member: **B2**) of `Promise` replies it runs
//!   *phase 2a*: `Accept(b, v)`, where `v` is **forced** to be the value of the
//!   highest-numbered vote reported in the promises (**B3**, Lamport's P2c), or
//!   **free** — its own decree — when no member of the quorum has voted. With
//!   a quorum of `Accepted` it announces `Decided(b, v)` (*phase 3*, Success).
//! - **Acceptor** ([`acceptor`]): keeps `max_bal` (maxBal, its promise),
//!   `max_vbal`/`max_val` (maxVBal/maxVal, its last vote) in stable storage —
//!   the ink of the ledger — and writes them *before* replying. It promises
//!   (*1b*) and votes (*2b*) only for ballots at least its promise (**P1a**).
//! - **Learner** ([`learner`]): writes the decree in its ledger when told of a
//!   success, or (optionally) when it has counted a quorum of `Accepted`.
//!
//! Every step is optional, so lost or duplicated messages can stall the
//! Synod but never make two ledgers disagree. Progress needs a single
//! proposer to run undisturbed for long enough: without a distinguished
//! proposer (the *president*) and randomized backoff, two proposers can keep
//! pre-empting each other for ever (dueling proposers, as FLP allows).

pub mod acceptor;
pub mod learner;
pub mod proposer;

pub use super::ballot::{Ballot, Members};
use super::value::Value;
use crate::sim::{Ctx, Hosts, NodeId, Protocol, SimDuration, SimTime};
use serde::Serialize;
use std::sync::Arc;

pub use acceptor::Acceptor;
pub use learner::Learner;
pub use proposer::{Phase, Proposer};

/// A vote as reported in a promise: the ballot and its decree.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Vote {
    pub ballot: Ballot,
    pub value: Value,
}

/// The Synod's messages, with the phase each belongs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PaxosMsg {
    /// 1a — NextBallot(b): "start ballot b".
    Prepare { ballot: Ballot },
    /// 1b — LastVote(b, v): "I promise not to vote below b; my last vote was …".
    Promise {
        ballot: Ballot,
        last_vote: Option<Vote>,
    },
    /// 2a — BeginBallot(b, d): "vote for decree d in ballot b".
    Accept { ballot: Ballot, value: Value },
    /// 2b — Voted(b): "I voted for it".
    Accepted { ballot: Ballot, value: Value },
    /// 3 — Success(d): "decree d has passed".
    Decided { ballot: Ballot, value: Value },
}

impl PaxosMsg {
    pub fn ballot(&self) -> Ballot {
        match *self {
            PaxosMsg::Prepare { ballot }
            | PaxosMsg::Promise { ballot, .. }
            | PaxosMsg::Accept { ballot, .. }
            | PaxosMsg::Accepted { ballot, .. }
            | PaxosMsg::Decided { ballot, .. } => ballot,
        }
    }
    pub fn value(&self) -> Option<Value> {
        match *self {
            PaxosMsg::Accept { value, .. }
            | PaxosMsg::Accepted { value, .. }
            | PaxosMsg::Decided { value, .. } => Some(value),
            PaxosMsg::Promise { last_vote, .. } => last_vote.map(|v| v.value),
            PaxosMsg::Prepare { .. } => None,
        }
    }
    /// The trace's `type` field.
    pub fn type_name(&self) -> &'static str {
        match self {
            PaxosMsg::Prepare { .. } => "prepare",
            PaxosMsg::Promise { .. } => "promise",
            PaxosMsg::Accept { .. } => "accept",
            PaxosMsg::Accepted { .. } => "accepted",
            PaxosMsg::Decided { .. } => "decided",
        }
    }
    /// The phase label drawn on a messenger: "1a", "1b", "2a", "2b", "3".
    pub fn phase(&self) -> &'static str {
        match self {
            PaxosMsg::Prepare { .. } => "1a",
            PaxosMsg::Promise { .. } => "1b",
            PaxosMsg::Accept { .. } => "2a",
            PaxosMsg::Accepted { .. } => "2b",
            PaxosMsg::Decided { .. } => "3",
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PaxosTimer {
    /// A proposer's first attempt.
    Start,
    /// Phase 1 or 2 took too long: try a higher ballot.
    PhaseTimeout,
    /// The randomized pause before retrying.
    Backoff,
    /// A non-president proposer checks whether the president is still heard.
    LeaderWatch,
}

impl PaxosTimer {
    /// The trace's `timer` field.
    pub fn type_name(&self) -> &'static str {
        match self {
            PaxosTimer::Start => "start",
            PaxosTimer::PhaseTimeout => "phase_timeout",
            PaxosTimer::Backoff => "backoff",
            PaxosTimer::LeaderWatch => "leader_watch",
        }
    }
}

/// How a proposer chose the decree of its phase 2a.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Choice {
    /// No member of the promise quorum had voted: any decree is allowed.
    Free,
    /// B3: the decree of the highest-numbered vote reported, cast by `voter`.
    Forced { by: Ballot, voter: NodeId },
    /// Broken on purpose (`skip-b3`): votes were reported, the highest in
    /// ballot `by` by `voter`, and the proposer ignored them for its own decree.
    Ignored { by: Ballot, voter: NodeId },
    /// Broken on purpose (`pick-first-vote`): the decree of the first vote
    /// reported (`by`, `voter`), though one in ballot `highest` was higher.
    NotHighest {
        by: Ballot,
        voter: NodeId,
        highest: Ballot,
    },
}

/// Facts the roles put on the record (trace `kind`s in parentheses).
#[derive(Clone, Debug, PartialEq)]
pub enum PaxosNote {
    /// A proposer is asked to pass a decree (`proposal`).
    Asked { value: Value },
    /// Phase 1a begins (`ballot_started`).
    BallotStarted { ballot: Ballot },
    /// A quorum of promises is in (`promise_quorum`).
    PromiseQuorum { ballot: Ballot, members: Members },
    /// The decree of phase 2a, free or forced (`value_picked`).
    ValuePicked {
        ballot: Ballot,
        value: Value,
        choice: Choice,
    },
    /// A quorum of votes is in: the decree passed (`accepted_quorum`).
    AcceptedQuorum {
        ballot: Ballot,
        value: Value,
        members: Members,
    },
    /// The proposer saw a higher ballot and gives its own up (`preempted`).
    Preempted { ballot: Ballot, by: Ballot },
    /// An acceptor refuses a request below its promise (`ignored`).
    Ignored {
        ballot: Ballot,
        promised: Ballot,
        phase: &'static str,
    },
    /// The acceptor's ledger, after it wrote in ink (`ledger`).
    Ledger {
        max_bal: Option<Ballot>,
        last_vote: Option<Vote>,
    },
    /// A learner writes the decree in its ledger (`learned`).
    Learned { ballot: Ballot, value: Value },
    /// A learner is told of a different decree than the one in its ledger
    /// (`learn_conflict`); only a broken algorithm gets here.
    LearnConflict { have: Value, told: Value },
    /// The monitors saw a quorum of `Accepted(b, v)` go out: `v` is chosen
    /// (`chosen`). Recorded at the acceptor whose vote completed the quorum.
    Chosen {
        ballot: Ballot,
        value: Value,
        members: Members,
    },
}

impl PaxosNote {
    /// The trace's `kind` field.
    pub fn type_name(&self) -> &'static str {
        match self {
            PaxosNote::Asked { .. } => "proposal",
            PaxosNote::BallotStarted { .. } => "ballot_started",
            PaxosNote::PromiseQuorum { .. } => "promise_quorum",
            PaxosNote::ValuePicked { .. } => "value_picked",
            PaxosNote::AcceptedQuorum { .. } => "accepted_quorum",
            PaxosNote::Preempted { .. } => "preempted",
            PaxosNote::Ignored { .. } => "ignored",
            PaxosNote::Ledger { .. } => "ledger",
            PaxosNote::Learned { .. } => "learned",
            PaxosNote::LearnConflict { .. } => "learn_conflict",
            PaxosNote::Chosen { .. } => "chosen",
        }
    }
}

/// What a teacher (or a script) can tell a legislator to do.
/// Written by serde's derive (`{"propose": {…}}`); read by hand (`from_json`,
/// see `json::tagged`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PaxosCommand<N = NodeId> {
    /// A new proposer starts on `node` proposing `value` (or an existing one
    /// is asked again, with a new decree).
    Propose { node: N, value: String },
}

impl<N: crate::json::FromValue> PaxosCommand<N> {
    /// The command named `kind` (one of `KINDS`) from its fields.
    pub fn from_json(kind: &str, value: serde_json::Value) -> Result<Self, String> {
        crate::json::Fields::variant(kind, value)?.read_all(|f| {
            Ok(match kind {
                "propose" => PaxosCommand::Propose {
                    node: f.read("node")?,
                    value: f.read("value")?,
                },
                _ => return Err(format!("unknown command `{kind}`")),
            })
        })
    }
}

impl<N> PaxosCommand<N> {
    pub const KINDS: &'static [&'static str] = &["propose"];
    /// The snake_case name used as the trace event kind.
    pub fn kind(&self) -> &'static str {
        match self {
            PaxosCommand::Propose { .. } => "propose",
        }
    }
    pub fn node(&self) -> Option<&N> {
        match self {
            PaxosCommand::Propose { node, .. } => Some(node),
        }
    }
    pub fn try_map<M, E>(
        &self,
        mut f: impl FnMut(&N) -> Result<M, E>,
    ) -> Result<PaxosCommand<M>, E> {
        Ok(match self {
            PaxosCommand::Propose { node, value } => PaxosCommand::Propose {
                node: f(node)?,
                value: value.clone(),
            },
        })
    }
}

/// Ways to break the Synod on purpose: each is a mistake a student might
/// make, and the checkers must catch every one with agreement broken.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PaxosMutation {
    /// The proposer ignores the votes reported in promises and always
    /// proposes its own decree (breaks B3 / P2c).
    SkipB3,
    /// The proposer takes the first vote reported in its list of promises,
    /// not the highest-numbered one (B3 read carelessly).
    PickFirstVote,
    /// An acceptor's ledger is in pencil: a restart erases its promise and vote.
    ForgetOnRestart,
    /// The proposer treats a minority (⌊n/2⌋) as a quorum (breaks B2).
    MinorityQuorum,
    /// An acceptor votes in a ballot below the one it promised (breaks P1a).
    AcceptLowerBallot,
}

impl PaxosMutation {
    pub const ALL: [PaxosMutation; 5] = [
        PaxosMutation::SkipB3,
        PaxosMutation::PickFirstVote,
        PaxosMutation::ForgetOnRestart,
        PaxosMutation::MinorityQuorum,
        PaxosMutation::AcceptLowerBallot,
    ];
    pub fn as_str(self) -> &'static str {
        match self {
            PaxosMutation::SkipB3 => "skip-b3",
            PaxosMutation::PickFirstVote => "pick-first-vote",
            PaxosMutation::ForgetOnRestart => "forget-on-restart",
            PaxosMutation::MinorityQuorum => "minority-quorum",
            PaxosMutation::AcceptLowerBallot => "accept-lower-ballot",
        }
    }
    /// It acts only when an acceptor restarts: with no crash allowed, a
    /// search finds nothing wrong with it.
    pub fn needs_a_restart(self) -> bool {
        self == PaxosMutation::ForgetOnRestart
    }
}

/// Settings shared by every node of one Synod.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Synod {
    pub acceptors: Vec<NodeId>,
    /// Everyone who hears phase 3 (every Paxos node).
    pub everyone: Vec<NodeId>,
    pub learners: Vec<NodeId>,
    /// Votes needed for a quorum (a majority of acceptors).
    pub quorum: usize,
    /// How long a proposer waits for a phase to complete.
    pub timeout: SimDuration,
    /// Randomized backoff before retrying (off: retry at once).
    pub backoff: bool,
    /// The distinguished proposer (president), if any.
    pub leader: Option<NodeId>,
    /// Learners also count `Accepted` messages themselves.
    pub learn_from_votes: bool,
    /// A deliberate bug, if any.
    pub mutation: Option<PaxosMutation>,
}

impl Synod {
    pub fn majority(acceptors: usize) -> usize {
        acceptors / 2 + 1
    }
}

/// A legislator: whichever roles it plays.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PaxosNode {
    pub synod: Arc<Synod>,
    pub acceptor: Option<Acceptor>,
    pub proposer: Option<Proposer>,
    pub learner: Option<Learner>,
    /// Local time this node last heard from the president (volatile).
    pub heard_leader_at: SimTime,
}

impl PaxosNode {
    pub fn new(
        synod: Arc<Synod>,
        acceptor: bool,
        proposer: Option<Proposer>,
        learner: bool,
    ) -> Self {
        PaxosNode {
            synod,
            acceptor: acceptor.then(Acceptor::default),
            proposer,
            learner: learner.then(Learner::default),
            heard_leader_at: SimTime::ZERO,
        }
    }

    /// Quorum size this node's proposer uses (a broken one may use a minority).
    fn quorum(&self) -> usize {
        if self.synod.mutation == Some(PaxosMutation::MinorityQuorum) {
            (self.synod.acceptors.len() / 2).max(1)
        } else {
            self.synod.quorum
        }
    }

    pub fn learned(&self) -> Option<Value> {
        self.learner
            .as_ref()
            .and_then(|l| l.learned.map(|v| v.value))
    }

    pub fn on_start<H: Hosts<PaxosNode>>(&mut self, ctx: &mut Ctx<PaxosNode, H>) {
        if let Some(p) = &self.proposer {
            ctx.note(PaxosNote::Asked { value: p.value });
            ctx.set_timer(PaxosTimer::Start, p.start_after);
        }
    }

    pub fn on_message<H: Hosts<PaxosNode>>(
        &mut self,
        from: NodeId,
        msg: PaxosMsg,
        ctx: &mut Ctx<PaxosNode, H>,
    ) {
        if Some(from) == self.synod.leader {
            self.heard_leader_at = ctx.now();
        }
        match msg {
            PaxosMsg::Prepare { ballot } => {
                if let Some(a) = &mut self.acceptor {
                    a.on_prepare(from, ballot, ctx);
                }
                self.check_preempted(ballot, ctx);
            }
            PaxosMsg::Accept { ballot, value } => {
                let learners = if self.synod.learn_from_votes {
                    &self.synod.learners[..]
                } else {
                    &[]
                };
                let break_promise = self.synod.mutation == Some(PaxosMutation::AcceptLowerBallot);
                if let Some(a) = &mut self.acceptor {
                    a.on_accept(from, ballot, value, learners, break_promise, ctx);
                }
                self.check_preempted(ballot, ctx);
            }
            PaxosMsg::Promise { ballot, last_vote } => {
                let q = self.quorum();
                if let Some(p) = &mut self.proposer {
                    p.on_promise(from, ballot, last_vote, q, &self.synod, ctx);
                }
            }
            PaxosMsg::Accepted { ballot, value } => {
                let q = self.quorum();
                if let Some(p) = &mut self.proposer {
                    p.on_accepted(from, ballot, value, q, &self.synod, ctx);
                }
                if self.synod.learn_from_votes {
                    if let Some(l) = &mut self.learner {
                        l.on_accepted(from, ballot, value, q, ctx);
                    }
                }
            }
            PaxosMsg::Decided { ballot, value } => {
                if let Some(l) = &mut self.learner {
                    l.on_decided(ballot, value, ctx);
                }
                if let Some(p) = &mut self.proposer {
                    p.on_decided(ballot, value, ctx);
                }
            }
        }
    }

    /// Dueling proposers: the acceptor on this node has just seen a higher
    /// ballot than the one our proposer is running, so that ballot is doomed.
    fn check_preempted<H: Hosts<PaxosNode>>(&mut self, seen: Ballot, ctx: &mut Ctx<PaxosNode, H>) {
        if let Some(p) = &mut self.proposer {
            p.on_seen_ballot(seen, &self.synod, ctx);
        }
    }

    pub fn on_timer<H: Hosts<PaxosNode>>(&mut self, t: PaxosTimer, ctx: &mut Ctx<PaxosNode, H>) {
        let learned = self.learned().is_some();
        let heard = self.heard_leader_at;
        if let Some(p) = &mut self.proposer {
            p.on_timer(t, learned, heard, &self.synod, ctx);
        }
    }

    pub fn on_crash(&mut self) {
        if let Some(p) = &mut self.proposer {
            p.on_crash();
        }
        if let Some(l) = &mut self.learner {
            l.on_crash();
        }
        self.heard_leader_at = SimTime::ZERO;
    }

    pub fn on_restart<H: Hosts<PaxosNode>>(&mut self, ctx: &mut Ctx<PaxosNode, H>) {
        let forget = self.synod.mutation == Some(PaxosMutation::ForgetOnRestart);
        if let Some(a) = &mut self.acceptor {
            a.on_restart(forget, ctx);
        }
        let learned = self.learned().is_some();
        if let Some(p) = &mut self.proposer {
            p.on_restart(learned, &self.synod, ctx);
        }
    }

    pub fn on_command<H: Hosts<PaxosNode>>(
        &mut self,
        command: &PaxosCommand,
        ctx: &mut Ctx<PaxosNode, H>,
    ) -> bool {
        match command {
            PaxosCommand::Propose { node, value } if *node == ctx.me => {
                let Ok(value) = Value::new(value) else {
                    return false;
                };
                ctx.note(PaxosNote::Asked { value });
                let learned = self.learned().is_some();
                let p = self
                    .proposer
                    .get_or_insert_with(|| Proposer::new(value, SimDuration::ZERO));
                p.value = value;
                p.begin(learned, &self.synod, ctx);
                true
            }
            _ => false,
        }
    }
}

/// The registry's names for this protocol's commands and mutations.
pub type Command<N = NodeId> = PaxosCommand<N>;
pub type Mutation = PaxosMutation;

impl Protocol for PaxosNode {
    type Msg = PaxosMsg;
    type Timer = PaxosTimer;
    type Note = PaxosNote;
    type Command = PaxosCommand;

    fn on_start(&mut self, ctx: &mut Ctx<Self>) {
        PaxosNode::on_start(self, ctx)
    }
    fn on_message(&mut self, from: NodeId, msg: PaxosMsg, ctx: &mut Ctx<Self>) {
        PaxosNode::on_message(self, from, msg, ctx)
    }
    fn on_timer(&mut self, timer: PaxosTimer, ctx: &mut Ctx<Self>) {
        PaxosNode::on_timer(self, timer, ctx)
    }
    fn on_crash(&mut self) {
        PaxosNode::on_crash(self)
    }
    fn on_restart(&mut self, ctx: &mut Ctx<Self>) {
        PaxosNode::on_restart(self, ctx)
    }
    fn on_command(&mut self, command: &PaxosCommand, ctx: &mut Ctx<Self>) -> bool {
        PaxosNode::on_command(self, command, ctx)
    }
    fn command_subject(command: &PaxosCommand) -> Option<NodeId> {
        command.node().copied()
    }
    fn timer_name(timer: &PaxosTimer) -> &'static str {
        timer.type_name()
    }
}

#[cfg(test)]
mod tests;
