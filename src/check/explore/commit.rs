//! Transaction commit under the model checker.
//!
//! **Configuration.** N RMs (2 or 3) with the TM on RM1's node, as the
//! built-in scenarios have it; for Paxos Commit 2F+1 acceptors on RM1,
//! RM2, … and a backup coordinator on RM2. Every RM may also give up on
//! its own while still working (`unilateral_abort`, a timer the search may
//! fire at any moment — Gray and Lamport's RMChooseToAbort), so one search
//! reaches both outcomes. Messages may be lost, duplicated and reordered;
//! every timeout may fire at any moment.
//!
//! **Bound.** At most `ballots` coordinator ballots are started (distinct
//! ballots in phase-1a messages); 2PC has none.
//!
//! **Invariants**, as in `TCommit.tla` and `PaxosCommit.tla`: atomicity
//! (never one RM committed and another aborted), validity (a Commit — an
//! RM's, the TM's decision, a coordinator's — only when every RM has voted
//! "prepared"), and per-instance agreement (F+1 acceptors' 2b for one value
//! in one ballot choose it; two values chosen in one instance break it).

use super::{Action, Explorer, Found, Limits, Spec, Stop};
use crate::check::Invariant;
use crate::protocol::commit::{
    Algorithm, Ballot, CommitMsg, CommitMutation, CommitNode, CommitNote, Outcome, RmState, RmVote,
};
use crate::protocol::{Mutation, NodeState};
use crate::scenario::commit_spec::{transaction, Placement, Shape};
use crate::scenario::Scenario;
use crate::sim::{NodeId, Output, Protocol, SimTime};

/// What the student (or the command line) chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommitModel {
    pub algorithm: Algorithm,
    pub faster: bool,
    pub rms: usize,
    pub f: usize,
    pub ballots: u32,
    pub crashes: u8,
    pub mutation: Option<CommitMutation>,
}

impl Default for CommitModel {
    /// Paxos Commit with 2 RMs, F = 1 (three acceptors) and one coordinator
    /// ballot — the leader's or a backup's: a search of seconds. Two ballots
    /// (two coordinators at once) take some 13 million states.
    fn default() -> Self {
        CommitModel {
            algorithm: Algorithm::PaxosCommit,
            faster: false,
            rms: 2,
            f: 1,
            ballots: 1,
            crashes: 0,
            mutation: None,
        }
    }
}

pub type CommitExplorer = Explorer<CommitNode, CommitChecks>;

impl CommitModel {
    /// Check the numbers; every problem named.
    pub fn validate(&self) -> Result<(), String> {
        if !(1..=3).contains(&self.rms) {
            return Err(format!("{} RMs: choose 1 to 3", self.rms));
        }
        if self.f > 1 {
            return Err(format!("F = {}: choose 0 or 1", self.f));
        }
        if self.algorithm == Algorithm::TwoPhaseCommit && (self.f != 0 || self.faster) {
            return Err(
                "two-phase commit has no F and no faster variant (those are Paxos Commit's)".into(),
            );
        }
        if !(1..=3).contains(&self.ballots) {
            return Err(format!("{} ballots: choose 1 to 3", self.ballots));
        }
        if self.crashes > 2 {
            return Err(format!("{} crashes: choose 0 to 2", self.crashes));
        }
        Ok(())
    }

    fn shape(&self) -> Shape {
        Shape {
            algorithm: self.algorithm,
            faster: self.faster,
            rms: self.rms,
            f: self.f,
            placement: Placement::Colocated,
        }
    }

    /// The scenario whose nodes the search starts from (and whose scripted
    /// twin replays a counterexample).
    pub fn scenario(&self, name: &str) -> Scenario {
        let mut s = transaction(name, self.shape());
        if let Some(c) = s.commit.as_mut() {
            c.unilateral_abort = true;
        }
        s.mutation = self.mutation.map(Mutation::Commit);
        s
    }

    pub fn nodes(&self) -> Vec<CommitNode> {
        let world = self
            .scenario("model")
            .build()
            .expect("the model's scenario is valid");
        world
            .nodes
            .into_iter()
            .map(|n| match n {
                NodeState::Commit(c) => c,
                _ => unreachable!("a commit scenario builds commit nodes"),
            })
            .collect()
    }

    pub fn checks(&self) -> CommitChecks {
        let s = self.scenario("model");
        let nodes = self.nodes();
        let tx = nodes[0].tx.clone();
        CommitChecks {
            names: s.node_names(),
            rms: tx.rms.clone(),
            majority: tx.majority(),
            ballots: self.ballots,
            witnesses: match self.algorithm {
                Algorithm::TwoPhaseCommit => TWO_PC_WITNESSES,
                // With F = 0 the one acceptor shares the leader's node: once
                // it has every vote the leader decides in the same step, so a
                // commit never needs a coordinator's ballot.
                Algorithm::PaxosCommit if self.f == 0 => &PAXOS_WITNESSES[..3],
                Algorithm::PaxosCommit => PAXOS_WITNESSES,
            },
        }
    }

    /// A search of this configuration.
    pub fn explorer(&self, stop: Stop) -> CommitExplorer {
        let limits = Limits {
            crashes: self.crashes,
            stop,
            ..Limits::default()
        };
        Explorer::new(self.checks(), self.nodes(), limits)
    }

    /// The scenario that replays `path`: the same nodes on a scripted
    /// network, one step of the script per millisecond.
    pub fn counterexample(&self, x: &mut CommitExplorer, path: &[Action], name: &str) -> Scenario {
        let mut s = self.scenario(name);
        s.network.scripted = true;
        (s.faults, s.stop_at_us) = x.script_faults(path, &s.node_names());
        s
    }
}

const TWO_PC_WITNESSES: &[&str] = &[
    "every RM committed",
    "every RM aborted",
    "the TM decided Abort while an RM was prepared",
];
const PAXOS_WITNESSES: &[&str] = &[
    "every RM committed",
    "every RM aborted",
    "an instance was chosen in a coordinator's ballot",
    "every RM committed after a coordinator's ballot",
];

/// The invariants, bound and witnesses of a transaction.
#[derive(Clone, Debug)]
pub struct CommitChecks {
    names: Vec<String>,
    rms: Vec<NodeId>,
    majority: usize,
    ballots: u32,
    witnesses: &'static [&'static str],
}

/// What the 1a and 2b messages of a state say.
#[derive(Clone, Debug, Default)]
pub struct Wire {
    /// (instance, ballot, value) chosen: F+1 acceptors' 2b.
    pub chosen: Vec<(NodeId, Ballot, RmVote)>,
    /// Distinct coordinator ballots whose phase 1a went out.
    pub ballots: u32,
}

impl CommitChecks {
    fn name(&self, n: NodeId) -> &str {
        self.names.get(n.index()).map(|s| s.as_str()).unwrap_or("?")
    }
    fn rm_states<'a>(
        &'a self,
        nodes: &'a [&CommitNode],
    ) -> impl Iterator<Item = (NodeId, RmState)> + 'a {
        self.rms.iter().filter_map(move |&r| {
            nodes
                .get(r.index())
                .and_then(|n| n.rm.as_ref())
                .map(|rm| (r, rm.state))
        })
    }
    fn all(&self, nodes: &[&CommitNode], s: RmState) -> bool {
        self.rm_states(nodes).all(|(_, x)| x == s)
    }
}

impl Spec<CommitNode> for CommitChecks {
    type Summary = Wire;

    fn watches(&self, msg: &CommitMsg) -> bool {
        matches!(msg, CommitMsg::Phase1a { .. } | CommitMsg::Phase2b { .. })
    }

    fn messages(&self, sent: &[(NodeId, NodeId, &CommitMsg)], found: &mut Vec<Found>) -> Wire {
        let mut ballots: Vec<Ballot> = Vec::new();
        // (instance, ballot, value, acceptors as bits)
        let mut votes: Vec<(NodeId, Ballot, RmVote, u64)> = Vec::new();
        for &(from, _, m) in sent {
            match *m {
                CommitMsg::Phase1a { ballot, .. } if !ballots.contains(&ballot) => {
                    ballots.push(ballot)
                }
                CommitMsg::Phase2b { ballot, votes: v } => {
                    for (rm, x) in v.iter() {
                        match votes
                            .iter_mut()
                            .find(|e| (e.0, e.1, e.2) == (rm, ballot, x))
                        {
                            Some(e) => e.3 |= 1 << from.index(),
                            None => votes.push((rm, ballot, x, 1 << from.index())),
                        }
                    }
                }
                _ => {}
            }
        }
        votes.retain(|e| e.3.count_ones() as usize >= self.majority);
        let chosen: Vec<(NodeId, Ballot, RmVote)> = votes.iter().map(|e| (e.0, e.1, e.2)).collect();
        for (i, a) in chosen.iter().enumerate() {
            if let Some(b) = chosen[i + 1..].iter().find(|b| b.0 == a.0 && b.2 != a.2) {
                found.push((
                    Invariant::Agreement,
                    format!(
                        "{}'s instance chose {} in ballot {} and {} in ballot {}",
                        self.name(a.0),
                        a.2.as_str(),
                        a.1,
                        b.2.as_str(),
                        b.1
                    ),
                ));
            }
        }
        Wire {
            chosen,
            ballots: ballots.len() as u32,
        }
    }

    fn nodes(&self, nodes: &[&CommitNode], _now: SimTime, _wire: &Wire, found: &mut Vec<Found>) {
        let committed = self
            .rm_states(nodes)
            .find(|(_, s)| *s == RmState::Committed);
        let aborted = self.rm_states(nodes).find(|(_, s)| *s == RmState::Aborted);
        if let (Some((c, _)), Some((a, _))) = (committed, aborted) {
            found.push((
                Invariant::Atomicity,
                format!("{} committed and {} aborted", self.name(c), self.name(a)),
            ));
        }
        // A Commit — an RM's, the TM's, a coordinator's — while some RM has
        // not voted "prepared" (it is working, or voted aborted).
        let commit_by = nodes.iter().enumerate().find_map(|(i, n)| {
            let tm =
                n.tm.as_ref()
                    .is_some_and(|t| t.decision == Some(Outcome::Commit));
            let leader = n
                .coordinator
                .as_ref()
                .is_some_and(|c| c.decided == Some(Outcome::Commit));
            let rm = n.rm.as_ref().is_some_and(|r| r.state == RmState::Committed);
            (tm || leader || rm).then_some(NodeId(i as u8))
        });
        if let Some(by) = commit_by {
            if let Some((r, s)) = self
                .rm_states(nodes)
                .find(|(_, s)| matches!(s, RmState::Working | RmState::Aborted))
            {
                let why = if s == RmState::Working {
                    "has not voted"
                } else {
                    "is aborted"
                };
                found.push((
                    Invariant::CommitValidity,
                    format!("{} commits, but {} {why}", self.name(by), self.name(r)),
                ));
            }
        }
    }

    fn step(
        &self,
        _me: NodeId,
        _before: &CommitNode,
        _after: &CommitNode,
        _out: &[Output<CommitNode>],
        _found: &mut Vec<Found>,
    ) {
    }

    fn within_bounds(&self, _nodes: &[&CommitNode], wire: &Wire) -> bool {
        wire.ballots <= self.ballots
    }

    fn witnesses(&self) -> &'static [&'static str] {
        self.witnesses
    }

    fn witnessed(&self, nodes: &[&CommitNode], _now: SimTime, wire: &Wire) -> u32 {
        let committed = self.all(nodes, RmState::Committed);
        let aborted = self.all(nodes, RmState::Aborted);
        let third = if self.witnesses[2] == TWO_PC_WITNESSES[2] {
            // 2PC: the TM aborted on its own (a timeout, or presumed abort
            // after a restart) an RM that had prepared.
            let tm_abort = nodes.iter().any(|n| {
                n.tm.as_ref()
                    .is_some_and(|t| t.decision == Some(Outcome::Abort))
            });
            tm_abort && self.rm_states(nodes).any(|(_, s)| s == RmState::Prepared)
        } else {
            wire.chosen.iter().any(|c| !c.1.is_zero())
        };
        let fourth = committed && wire.chosen.iter().any(|c| !c.1.is_zero());
        committed as u32 | (aborted as u32) << 1 | (third as u32) << 2 | (fourth as u32) << 3
    }
}

impl CommitExplorer {
    /// Describe a path, one line per step: what happened and what it caused.
    pub fn render(&mut self, path: &[Action]) -> String {
        let names = self.spec().names.clone();
        let name = |n: NodeId| names.get(n.index()).cloned().unwrap_or_default();
        let mut text = String::new();
        for (k, (a, out)) in self.outputs(path).into_iter().enumerate() {
            text += &format!("\n  {:>2}. {}", k + 1, self.describe(a));
            let mut facts = Vec::new();
            for o in out {
                match o {
                    Output::Note(n) if !matches!(n, CommitNote::InstanceChosen { .. }) => {
                        facts.push(n.type_name().replace('_', " "))
                    }
                    Output::Send(to, m) if to != self.actor(a) => {
                        facts.push(format!("{}→{}", label(&names, &m), name(to)))
                    }
                    _ => {}
                }
            }
            if !facts.is_empty() {
                text += &format!("   ⇒ {}", facts.join(", "));
            }
        }
        text
    }

    /// One step, in words.
    pub fn describe(&self, a: Action) -> String {
        let names = &self.spec().names;
        let name = |n: NodeId| names.get(n.index()).cloned().unwrap_or_default();
        match a {
            Action::Deliver(m) => {
                let e = self.envelope(m);
                format!("{}→{} {}", name(e.from), name(e.to), label(names, &e.msg))
            }
            Action::Fire { node, timer } => format!(
                "{}: timer {} fires",
                name(NodeId(node)),
                CommitNode::timer_name(&self.timer(timer))
            ),
            Action::Reboot { node } => format!("{} crashes and restarts", name(NodeId(node))),
            Action::Tick => "time passes".into(),
        }
    }
}

fn label(names: &[String], m: &CommitMsg) -> String {
    let mut s = crate::trace::label::msg(names, &crate::protocol::Msg::Commit(*m));
    if let Some(r) = m.rm() {
        s = format!("{s}({})", names.get(r.index()).cloned().unwrap_or_default());
    }
    s
}
