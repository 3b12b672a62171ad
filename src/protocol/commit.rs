//! Transaction commit: two-phase commit and Paxos Commit, after Gray and
//! Lamport, *Consensus on Transaction Commit* (ACM TODS 31(1), 2006).
//!
//! A transaction touches N **resource managers** (RMs); it must commit at all
//! of them or at none (*atomicity*), and commit only if every one of them is
//! prepared to (*validity*). Both protocols below are run by the same roles,
//! any of which one node may play:
//!
//! - **Two-phase commit** ([`tm`], [`rm`]). The initiating RM prepares — it
//!   writes "prepared" to stable storage — and sends `Prepared` to the
//!   **transaction manager** (TM); the TM sends `Prepare` to the other RMs;
//!   each writes its vote (prepared or aborted) and sends it; the TM writes
//!   its decision — Commit if and only if every RM prepared — and sends
//!   `Commit` (or `Abort`) to all. If the TM fails after the RMs have
//!   prepared, they stay prepared and *uncertain*, holding their locks, until
//!   it returns: no RM may decide alone. That is blocking.
//! - **Paxos Commit** ([`acceptor`], [`coordinator`]). Each RM's "prepared or
//!   aborted" is decided by its own instance of the Synod, and all instances
//!   share 2F+1 **acceptors**. Ballot 0 of each instance belongs to its RM, so
//!   a ready RM skips phase 1 and sends a phase-2a "prepared" straight to the
//!   acceptors, after writing it. The acceptors' votes (2b) go to a
//!   **leader** (initially the TM), which sends `Commit` once every instance
//!   chose "prepared" and `Abort` as soon as one chose "aborted". If the
//!   leader fails, another **coordinator** runs a higher ballot (phases 1 and
//!   2) for every instance it has not seen decided; B3 forces it to keep a
//!   vote already cast, and where a majority reports none it proposes
//!   "aborted". The transaction ends while any F+1 acceptors work.
//! - **Faster Paxos Commit**: the acceptors send their 2b straight to the
//!   RMs, which learn the outcome themselves — one message delay less, more
//!   messages.
//!
//! With F = 0 there is one acceptor; put it on the TM's node and Paxos
//! Commit *is* two-phase commit: the RM's ballot-0 2a is `Prepared`, the
//! acceptor's written vote is the TM's log record, and the leader's `Commit`
//! is the TM's.
//!
//! **Counting as the paper does.** In the normal case an RM sends its
//! ballot-0 2a to F+1 acceptors (any F+1 of 2F+1 are a majority; the other F
//! stand by for a coordinator's higher ballot), and an acceptor writes and
//! sends the votes of all N instances at once: one write, one 2b message.
//! That is how Gray and Lamport count N(F+3)−3 messages and N+F+1 writes.
//!
//! Every step is optional, as in the Synod: a lost message stalls an
//! instance until a coordinator's timeout, and never makes two RMs disagree.

pub mod acceptor;
pub mod coordinator;
pub mod rm;
pub mod tm;

use crate::sim::{Ctx, Hosts, NodeId, Protocol, SimDuration};
use serde::Serialize;
use std::fmt;
use std::sync::Arc;

pub use acceptor::Acceptor;
pub use coordinator::{Coordinator, Round, Tally};
pub use rm::{Rm, RmState};
pub use tm::Tm;

/// The most RMs a transaction may have.
pub const MAX_RMS: usize = 8;
/// The most acceptors (2F+1 with F ≤ 3).
pub const MAX_ACCEPTORS: usize = 7;

/// What one RM's instance decides: the RM's vote.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RmVote {
    Prepared,
    Aborted,
}

impl RmVote {
    pub fn as_str(self) -> &'static str {
        match self {
            RmVote::Prepared => "prepared",
            RmVote::Aborted => "aborted",
        }
    }
}

/// The transaction's outcome.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    Commit,
    Abort,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Commit => "commit",
            Outcome::Abort => "abort",
        }
    }
}

/// Which protocol the transaction runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(rename_all = "snake_case")]
pub enum Algorithm {
    TwoPhaseCommit,
    PaxosCommit,
}

/// Written by name: `"paxos_commit"`.
impl crate::json::FromValue for Algorithm {
    fn from_value(v: serde_json::Value) -> Result<Self, String> {
        const ALL: [(&str, Algorithm); 2] = [
            ("two_phase_commit", Algorithm::TwoPhaseCommit),
            ("paxos_commit", Algorithm::PaxosCommit),
        ];
        crate::json::named(v, &ALL, |(n, _)| n).map(|(_, a)| a)
    }
}

/// A ballot of one instance: `(round, coordinator)`. Round 0 is the RM's own
/// ballot — whoever holds it is the RM of the instance — and every
/// coordinator's ballot is above it (B1: coordinators own disjoint ballots).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Ballot {
    pub round: u16,
    pub node: NodeId,
}

impl Ballot {
    /// Ballot 0, the RM's.
    pub const ZERO: Ballot = Ballot {
        round: 0,
        node: NodeId(0),
    };
    pub fn is_zero(self) -> bool {
        self.round == 0
    }
}

/// A set of RMs — of instances, each named by its RM's node — as bits.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RmSet(pub u32);

impl RmSet {
    pub fn one(n: NodeId) -> RmSet {
        RmSet(1 << n.index())
    }
    pub fn of(nodes: &[NodeId]) -> RmSet {
        let mut s = RmSet::default();
        nodes.iter().for_each(|&n| s.insert(n));
        s
    }
    pub fn contains(self, n: NodeId) -> bool {
        n.index() < 32 && self.0 & (1 << n.index()) != 0
    }
    pub fn insert(&mut self, n: NodeId) {
        self.0 |= 1 << n.index();
    }
    pub fn remove(&mut self, n: NodeId) {
        self.0 &= !(1 << n.index());
    }
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn iter(self) -> impl Iterator<Item = NodeId> {
        (0..32u8)
            .filter(move |i| self.0 & (1 << i) != 0)
            .map(NodeId)
    }
}

/// The values of some instances: for each RM in `rms`, "prepared" if it is in
/// `prepared`, "aborted" otherwise. One phase-2a or 2b message carries the
/// instances of one ballot together.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Votes {
    pub rms: RmSet,
    pub prepared: RmSet,
}

impl Votes {
    pub fn one(rm: NodeId, v: RmVote) -> Votes {
        let mut x = Votes::default();
        x.set(rm, v);
        x
    }
    pub fn set(&mut self, rm: NodeId, v: RmVote) {
        self.rms.insert(rm);
        match v {
            RmVote::Prepared => self.prepared.insert(rm),
            RmVote::Aborted => self.prepared.remove(rm),
        }
    }
    pub fn remove(&mut self, rm: NodeId) {
        self.rms.remove(rm);
        self.prepared.remove(rm);
    }
    pub fn get(&self, rm: NodeId) -> Option<RmVote> {
        self.rms.contains(rm).then(|| {
            if self.prepared.contains(rm) {
                RmVote::Prepared
            } else {
                RmVote::Aborted
            }
        })
    }
    pub fn iter(&self) -> impl Iterator<Item = (NodeId, RmVote)> + '_ {
        self.rms
            .iter()
            .map(|r| (r, self.get(r).expect("in the set")))
    }
    pub fn is_empty(&self) -> bool {
        self.rms.is_empty()
    }
    pub fn any_aborted(&self) -> bool {
        self.rms.0 & !self.prepared.0 != 0
    }
}

/// One acceptor's last vote in one instance, as a phase-1b reports it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Report {
    pub ballot: Ballot,
    pub vote: RmVote,
}

/// The last votes a phase-1b reports, one entry per RM of its `rms`, in
/// node order (None: the acceptor has not voted in that instance).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct LastVotes(pub [Option<Report>; MAX_RMS]);

impl LastVotes {
    /// The report for `rm`, one of `rms`.
    pub fn get(&self, rms: RmSet, rm: NodeId) -> Option<Report> {
        let k = rms.iter().position(|r| r == rm)?;
        self.0.get(k).copied().flatten()
    }
    /// Reports for `rms`, in order, from a per-node lookup.
    pub fn collect(rms: RmSet, mut f: impl FnMut(NodeId) -> Option<Report>) -> LastVotes {
        let mut l = LastVotes::default();
        for (k, r) in rms.iter().take(MAX_RMS).enumerate() {
            l.0[k] = f(r);
        }
        l
    }
}

/// The messages of both protocols. Each is about one RM (`rm`), or carries
/// the instances of several (`rms`, `votes`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CommitMsg {
    /// TM (or leader) → RM: prepare to commit.
    Prepare { rm: NodeId },
    /// 2PC, RM → TM: its vote, written to stable storage first (`prepared`
    /// or `aborted`). The initiating RM's `Prepared` is also its request to commit.
    Vote { rm: NodeId, vote: RmVote },
    /// TM (or leader) → RM: the outcome (`commit`, `abort`).
    Decision { rm: NodeId, outcome: Outcome },
    /// Paxos Commit, the initiating RM → the leader: "please commit".
    BeginCommit { rm: NodeId },
    /// 1a: a coordinator starts ballot `ballot` for these instances.
    Phase1a { ballot: Ballot, rms: RmSet },
    /// 1b: an acceptor promises `ballot` for these instances and reports its last votes.
    Phase1b {
        ballot: Ballot,
        rms: RmSet,
        last: LastVotes,
    },
    /// 2a: vote for these values in `ballot` (ballot 0: one RM's own vote).
    Phase2a { ballot: Ballot, votes: Votes },
    /// 2b: an acceptor voted for these values in `ballot`.
    Phase2b { ballot: Ballot, votes: Votes },
}

impl CommitMsg {
    /// The trace's `type` field.
    pub fn type_name(&self) -> &'static str {
        match self {
            CommitMsg::Prepare { .. } => "prepare",
            CommitMsg::Vote {
                vote: RmVote::Prepared,
                ..
            } => "prepared",
            CommitMsg::Vote {
                vote: RmVote::Aborted,
                ..
            } => "aborted",
            CommitMsg::Decision {
                outcome: Outcome::Commit,
                ..
            } => "commit",
            CommitMsg::Decision {
                outcome: Outcome::Abort,
                ..
            } => "abort",
            CommitMsg::BeginCommit { .. } => "begin_commit",
            CommitMsg::Phase1a { .. } => "phase1a",
            CommitMsg::Phase1b { .. } => "phase1b",
            CommitMsg::Phase2a { .. } => "phase2a",
            CommitMsg::Phase2b { .. } => "phase2b",
        }
    }
    /// The RM the message is about, when it is about one.
    pub fn rm(&self) -> Option<NodeId> {
        match *self {
            CommitMsg::Prepare { rm }
            | CommitMsg::Vote { rm, .. }
            | CommitMsg::Decision { rm, .. }
            | CommitMsg::BeginCommit { rm } => Some(rm),
            _ => None,
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CommitTimer {
    /// The initiating RM asks to commit.
    Begin,
    /// The RM gives up on the transaction by itself, if still working (the
    /// model checker's RMChooseToAbort; scenarios use the `vote_abort` command).
    UnilateralAbort,
    /// The TM (or the first leader) has waited long enough for the outcome.
    VoteTimeout,
    /// A backup coordinator has waited long enough: it takes over.
    Takeover,
}

impl CommitTimer {
    /// The trace's `timer` field.
    pub fn type_name(&self) -> &'static str {
        match self {
            CommitTimer::Begin => "begin",
            CommitTimer::UnilateralAbort => "unilateral_abort",
            CommitTimer::VoteTimeout => "vote_timeout",
            CommitTimer::Takeover => "takeover",
        }
    }
}

/// Facts the roles put on the record. The four `*Written` notes are the
/// stable-storage writes (`rm_vote`, `rm_outcome`, `tm_decision`,
/// `acceptor_vote`, `acceptor_promise`, `coordinator_ballot`).
#[derive(Clone, Debug, PartialEq)]
pub enum CommitNote {
    /// The RM writes its vote (`rm_vote`): from "prepared" on it is
    /// uncertain and holds its locks until it learns the outcome.
    RmVoted { vote: RmVote },
    /// The RM writes the outcome (`rm_outcome`).
    RmDecided { outcome: Outcome },
    /// The 2PC TM writes its decision (`tm_decision`).
    TmDecided { outcome: Outcome },
    /// An acceptor writes votes (`acceptor_vote`).
    AcceptorVoted { ballot: Ballot, votes: Votes },
    /// An acceptor writes a promise (`acceptor_promise`).
    AcceptorPromised { ballot: Ballot, rms: RmSet },
    /// A coordinator writes a new ballot and starts phase 1 for these
    /// instances (`coordinator_ballot`): the leader timed out, or a backup takes over.
    CoordinatorBallot { ballot: Ballot, rms: RmSet },
    /// A coordinator has learned every instance it needs: the outcome
    /// (`leader_decision`; kept in memory only).
    LeaderDecided { outcome: Outcome },
    /// The monitors saw F+1 acceptors vote for `vote` in instance `rm`
    /// (`instance_chosen`).
    InstanceChosen {
        rm: NodeId,
        ballot: Ballot,
        vote: RmVote,
    },
}

impl CommitNote {
    /// The trace's `kind` field.
    pub fn type_name(&self) -> &'static str {
        match self {
            CommitNote::RmVoted { .. } => "rm_vote",
            CommitNote::RmDecided { .. } => "rm_outcome",
            CommitNote::TmDecided { .. } => "tm_decision",
            CommitNote::AcceptorVoted { .. } => "acceptor_vote",
            CommitNote::AcceptorPromised { .. } => "acceptor_promise",
            CommitNote::CoordinatorBallot { .. } => "coordinator_ballot",
            CommitNote::LeaderDecided { .. } => "leader_decision",
            CommitNote::InstanceChosen { .. } => "instance_chosen",
        }
    }
    /// Is this note a write to stable storage?
    pub fn is_write(&self) -> bool {
        !matches!(
            self,
            CommitNote::LeaderDecided { .. } | CommitNote::InstanceChosen { .. }
        )
    }
}

/// What a teacher (or a script) can tell the transaction.
/// Written by serde's derive (`{"vote_abort": {…}}`); read by hand (`from_json`,
/// see `json::tagged`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CommitCommand<N = NodeId> {
    /// The RM on `node` will vote "aborted" when asked (if it has not voted yet).
    VoteAbort { node: N },
}

impl<N: crate::json::FromValue> CommitCommand<N> {
    /// The command named `kind` (one of `KINDS`) from its fields.
    pub fn from_json(kind: &str, value: serde_json::Value) -> Result<Self, String> {
        crate::json::Fields::variant(kind, value)?.read_all(|f| {
            Ok(match kind {
                "vote_abort" => CommitCommand::VoteAbort {
                    node: f.read("node")?,
                },
                _ => return Err(format!("unknown command `{kind}`")),
            })
        })
    }
}

impl<N> CommitCommand<N> {
    pub const KINDS: &'static [&'static str] = &["vote_abort"];
    pub fn kind(&self) -> &'static str {
        match self {
            CommitCommand::VoteAbort { .. } => "vote_abort",
        }
    }
    pub fn node(&self) -> Option<&N> {
        match self {
            CommitCommand::VoteAbort { node } => Some(node),
        }
    }
    pub fn try_map<M, E>(
        &self,
        mut f: impl FnMut(&N) -> Result<M, E>,
    ) -> Result<CommitCommand<M>, E> {
        Ok(match self {
            CommitCommand::VoteAbort { node } => CommitCommand::VoteAbort { node: f(node)? },
        })
    }
}

/// Ways to break the commit protocols on purpose.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CommitMutation {
    /// A coordinator takes silence for consent: the 2PC TM commits when its
    /// wait for votes times out, and a Paxos Commit coordinator proposes
    /// "prepared" for an instance in which nobody reports a vote.
    CommitWithoutAllPrepared,
}

impl CommitMutation {
    pub const ALL: [CommitMutation; 1] = [CommitMutation::CommitWithoutAllPrepared];
    pub fn as_str(self) -> &'static str {
        match self {
            CommitMutation::CommitWithoutAllPrepared => "commit-without-all-prepared",
        }
    }
}

/// Settings every node of one transaction shares.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Transaction {
    pub algorithm: Algorithm,
    /// Faster Paxos Commit: acceptors send their 2b to the RMs too.
    pub faster: bool,
    /// The RMs; RM i is instance i.
    pub rms: Vec<NodeId>,
    /// The 2PC TM, or Paxos Commit's first leader.
    pub tm: NodeId,
    /// Paxos Commit's 2F+1 acceptors (empty for 2PC).
    pub acceptors: Vec<NodeId>,
    /// How long the TM waits for votes, and a coordinator for an outcome.
    pub timeout: SimDuration,
    pub mutation: Option<CommitMutation>,
}

impl Transaction {
    /// F, from the 2F+1 acceptors.
    pub fn f(&self) -> usize {
        self.acceptors.len().saturating_sub(1) / 2
    }
    /// A majority of the acceptors: F+1.
    pub fn majority(&self) -> usize {
        self.acceptors.len() / 2 + 1
    }
    /// The acceptors an RM sends its ballot-0 vote to: the first F+1.
    pub fn first_acceptors(&self) -> &[NodeId] {
        &self.acceptors[..self.majority().min(self.acceptors.len())]
    }
    pub fn is_rm(&self, n: NodeId) -> bool {
        self.rms.contains(&n)
    }
    pub fn acceptor_index(&self, n: NodeId) -> Option<u8> {
        self.acceptors.iter().position(|&a| a == n).map(|i| i as u8)
    }
    pub fn all(&self) -> RmSet {
        RmSet::of(&self.rms)
    }
    /// Where 2b messages go: the leader, and in Faster Paxos Commit every RM
    /// too (one message per node, whatever roles it plays).
    pub fn learners(&self) -> Vec<NodeId> {
        let mut to = vec![self.tm];
        if self.faster {
            for &r in &self.rms {
                if !to.contains(&r) {
                    to.push(r);
                }
            }
        }
        to
    }
}

/// One node of a transaction: whichever roles it plays.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CommitNode {
    pub tx: Arc<Transaction>,
    pub rm: Option<Rm>,
    pub tm: Option<Tm>,
    pub acceptor: Option<Acceptor>,
    pub coordinator: Option<Coordinator>,
}

impl CommitNode {
    /// Has the RM on this node (if any) learned the outcome?
    fn rm_decided(&self) -> bool {
        self.rm.as_ref().is_some_and(|r| r.state.is_final())
    }
    fn rm_uncertain(&self) -> bool {
        self.rm
            .as_ref()
            .is_some_and(|r| r.state == RmState::Prepared)
    }

    pub fn on_start<H: Hosts<CommitNode>>(&mut self, ctx: &mut Ctx<CommitNode, H>) {
        if let Some(r) = &mut self.rm {
            r.on_start(ctx);
        }
    }

    pub fn on_message<H: Hosts<CommitNode>>(
        &mut self,
        from: NodeId,
        msg: CommitMsg,
        ctx: &mut Ctx<CommitNode, H>,
    ) {
        let tx = self.tx.clone();
        let was_decided = self.rm_decided();
        match msg {
            CommitMsg::Prepare { .. } => {
                if let Some(r) = &mut self.rm {
                    r.on_prepare(&tx, ctx);
                }
                // The transaction is under way: a backup starts watching it.
                if let Some(c) = &mut self.coordinator {
                    c.watch(&tx, ctx);
                }
            }
            CommitMsg::Vote { rm, vote } => {
                if let Some(t) = &mut self.tm {
                    t.on_vote(rm, vote, &tx, ctx);
                }
            }
            CommitMsg::Decision { outcome, .. } => {
                if let Some(r) = &mut self.rm {
                    r.on_decision(outcome, ctx);
                }
            }
            CommitMsg::BeginCommit { rm } => {
                if let Some(c) = &mut self.coordinator {
                    c.on_begin(rm, &tx, ctx);
                }
            }
            CommitMsg::Phase1a { ballot, rms } => {
                if let Some(a) = &mut self.acceptor {
                    a.on_phase1a(from, ballot, rms, ctx);
                }
                if let Some(c) = &mut self.coordinator {
                    c.seen(ballot);
                }
            }
            CommitMsg::Phase1b { ballot, rms, last } => {
                let Some(acc) = tx.acceptor_index(from) else {
                    return;
                };
                if let Some(c) = &mut self.coordinator {
                    c.on_phase1b(acc, ballot, rms, &last, &tx, ctx);
                }
            }
            CommitMsg::Phase2a { ballot, votes } => {
                if let Some(a) = &mut self.acceptor {
                    a.on_phase2a(from, ballot, votes, &tx, ctx);
                }
                if let Some(c) = &mut self.coordinator {
                    c.seen(ballot);
                }
            }
            CommitMsg::Phase2b { ballot, votes } => {
                let Some(acc) = tx.acceptor_index(from) else {
                    return;
                };
                if let Some(c) = &mut self.coordinator {
                    c.on_phase2b(acc, ballot, votes, &tx, ctx);
                }
                if tx.faster {
                    if let Some(r) = &mut self.rm {
                        r.on_phase2b(acc, ballot, votes, &tx, ctx);
                    }
                }
            }
        }
        if !was_decided && self.rm_decided() {
            // This node's RM knows the outcome: nothing left to take over.
            if let Some(c) = &mut self.coordinator {
                c.stand_down(ctx);
            }
        }
    }

    pub fn on_timer<H: Hosts<CommitNode>>(&mut self, t: CommitTimer, ctx: &mut Ctx<CommitNode, H>) {
        let tx = self.tx.clone();
        let decided = self.rm_decided();
        match t {
            CommitTimer::Begin | CommitTimer::UnilateralAbort => {
                if let Some(r) = &mut self.rm {
                    r.on_timer(t, &tx, ctx);
                }
            }
            CommitTimer::VoteTimeout | CommitTimer::Takeover => {
                if let Some(tm) = &mut self.tm {
                    tm.on_timeout(&tx, ctx);
                }
                if let Some(c) = &mut self.coordinator {
                    c.on_timeout(t, decided, &tx, ctx);
                }
            }
        }
    }

    pub fn on_crash(&mut self) {
        if let Some(r) = &mut self.rm {
            r.on_crash();
        }
        if let Some(t) = &mut self.tm {
            t.on_crash();
        }
        if let Some(a) = &mut self.acceptor {
            a.on_crash();
        }
        if let Some(c) = &mut self.coordinator {
            c.on_crash();
        }
    }

    pub fn on_restart<H: Hosts<CommitNode>>(&mut self, ctx: &mut Ctx<CommitNode, H>) {
        let tx = self.tx.clone();
        let uncertain = self.rm_uncertain();
        if let Some(r) = &mut self.rm {
            r.on_restart(&tx, ctx);
        }
        if let Some(t) = &mut self.tm {
            t.on_restart(&tx, ctx);
        }
        if let Some(c) = &mut self.coordinator {
            c.on_restart(uncertain, &tx, ctx);
        }
    }

    pub fn on_command<H: Hosts<CommitNode>>(
        &mut self,
        command: &CommitCommand,
        ctx: &mut Ctx<CommitNode, H>,
    ) -> bool {
        match command {
            CommitCommand::VoteAbort { node } if *node == ctx.me => match &mut self.rm {
                Some(r) => {
                    r.will = RmVote::Aborted;
                    true
                }
                None => false,
            },
            _ => false,
        }
    }
}

/// The registry's names for this protocol's commands and mutations.
pub type Command<N = NodeId> = CommitCommand<N>;
pub type Mutation = CommitMutation;

impl Protocol for CommitNode {
    type Msg = CommitMsg;
    type Timer = CommitTimer;
    type Note = CommitNote;
    type Command = CommitCommand;

    fn on_start(&mut self, ctx: &mut Ctx<Self>) {
        CommitNode::on_start(self, ctx)
    }
    fn on_message(&mut self, from: NodeId, msg: CommitMsg, ctx: &mut Ctx<Self>) {
        CommitNode::on_message(self, from, msg, ctx)
    }
    fn on_timer(&mut self, timer: CommitTimer, ctx: &mut Ctx<Self>) {
        CommitNode::on_timer(self, timer, ctx)
    }
    fn on_crash(&mut self) {
        CommitNode::on_crash(self)
    }
    fn on_restart(&mut self, ctx: &mut Ctx<Self>) {
        CommitNode::on_restart(self, ctx)
    }
    fn on_command(&mut self, command: &CommitCommand, ctx: &mut Ctx<Self>) -> bool {
        CommitNode::on_command(self, command, ctx)
    }
    fn command_subject(command: &CommitCommand) -> Option<NodeId> {
        command.node().copied()
    }
    fn timer_name(timer: &CommitTimer) -> &'static str {
        timer.type_name()
    }
}

impl fmt::Display for Ballot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_zero() {
            write!(f, "0")
        } else {
            write!(f, "({},{})", self.round, self.node.0)
        }
    }
}

#[cfg(test)]
mod tests;
