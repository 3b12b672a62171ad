//! The Synod under the model checker.
//!
//! **Configuration.** `acceptors` legislators, each an acceptor and a
//! learner; the first `proposers` of them also propose, each its own decree
//! (α, β, γ …). Quorum: a majority. Backoff off (nothing random is drawn),
//! no president. A counterexample replays in the simulator as a scenario
//! with a scripted network (see [`PaxosModel::counterexample`]).
//!
//! **Bound.** At most `ballots` ballots are started (distinct ballots in
//! phase-1a messages). Three is the least that tells "take the highest
//! reported vote" (B3) from "take the first": a proposer must hear of votes
//! cast in two different earlier ballots.
//!
//! **Invariants** (DOMAIN.md §9), as in `Voting.tla`: Agreement (chosen =
//! some ballot has 2b(b, v) from a majority), Validity, one value per ballot,
//! `maxVBal ≤ maxBal`, no 2b below a promise, no promise ever goes down,
//! learner consistency.

use super::{Action, Explorer, Found, Limits, Spec, Stop};
use crate::check::Invariant;
use crate::protocol::paxos::{
    Ballot, Choice, Members, PaxosMsg, PaxosMutation, PaxosNode, PaxosNote, Phase, Proposer, Synod,
};
use crate::protocol::{Kind, Mutation, Value};
use crate::scenario::names::{DECREES, GREEK};
use crate::scenario::{NodeSpec, PaxosSpec, Proposal, Role, Scenario};
use crate::sim::network::NetworkConfig;
use crate::sim::{NodeId, Output, Protocol, SimDuration, SimTime};
use std::sync::Arc;

/// What the student (or the command line) chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PaxosModel {
    pub acceptors: usize,
    pub proposers: usize,
    pub ballots: u32,
    pub crashes: u8,
    pub mutation: Option<PaxosMutation>,
}

impl Default for PaxosModel {
    /// The default bounds: small enough to finish in seconds, large enough
    /// that every mutation breaks agreement within them.
    fn default() -> Self {
        PaxosModel {
            acceptors: 3,
            proposers: 2,
            ballots: 3,
            crashes: 0,
            mutation: None,
        }
    }
}

pub type PaxosExplorer = Explorer<PaxosNode, PaxosChecks>;

impl PaxosModel {
    /// Check the numbers; every problem named.
    pub fn validate(&self) -> Result<(), String> {
        if !(1..=5).contains(&self.acceptors) {
            return Err(format!("{} acceptors: choose 1 to 5", self.acceptors));
        }
        if !(1..=3).contains(&self.proposers) || self.proposers > self.acceptors {
            return Err(format!(
                "{} proposers: choose 1 to 3, and no more than the acceptors",
                self.proposers
            ));
        }
        if !(1..=4).contains(&self.ballots) {
            return Err(format!("{} ballots: choose 1 to 4", self.ballots));
        }
        if self.crashes > 2 {
            return Err(format!("{} crashes: choose 0 to 2", self.crashes));
        }
        Ok(())
    }

    pub fn names(&self) -> Vec<String> {
        GREEK[..self.acceptors]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    fn decree(i: usize) -> Value {
        Value::new(DECREES[i]).expect("the built-in decrees are valid")
    }

    fn synod(&self) -> Arc<Synod> {
        let all: Vec<NodeId> = (0..self.acceptors as u8).map(NodeId).collect();
        Arc::new(Synod {
            acceptors: all.clone(),
            everyone: all.clone(),
            learners: all,
            quorum: Synod::majority(self.acceptors),
            timeout: SimDuration::from_ms(500),
            backoff: false,
            leader: None,
            learn_from_votes: false,
            mutation: self.mutation,
        })
    }

    pub fn nodes(&self) -> Vec<PaxosNode> {
        let synod = self.synod();
        (0..self.acceptors)
            .map(|i| {
                let p =
                    (i < self.proposers).then(|| Proposer::new(Self::decree(i), SimDuration::ZERO));
                PaxosNode::new(synod.clone(), true, p, true)
            })
            .collect()
    }

    pub fn checks(&self) -> PaxosChecks {
        PaxosChecks {
            names: self.names(),
            majority: Synod::majority(self.acceptors),
            ballots: self.ballots,
            proposed: (0..self.proposers).map(Self::decree).collect(),
        }
    }

    /// A search of this configuration.
    pub fn explorer(&self, stop: Stop) -> PaxosExplorer {
        let limits = Limits {
            crashes: self.crashes,
            stop,
            ..Limits::default()
        };
        Explorer::new(self.checks(), self.nodes(), limits)
    }

    /// The scenario that replays `path` in the simulator: the same
    /// legislators, a scripted network, and one step of the script per
    /// millisecond — deliver this message, fire that timer, crash and
    /// restart that legislator.
    pub fn counterexample(&self, x: &mut PaxosExplorer, path: &[Action], name: &str) -> Scenario {
        let names = self.names();
        let (faults, stop_at_us) = x.script_faults(path, &names);
        Scenario {
            name: name.to_string(),
            protocol: Kind::Paxos,
            seed: 0,
            nodes: names
                .iter()
                .enumerate()
                .map(|(i, n)| NodeSpec {
                    id: n.clone(),
                    roles: if i < self.proposers {
                        vec![Role::Proposer, Role::Acceptor, Role::Learner]
                    } else {
                        vec![Role::Acceptor, Role::Learner]
                    },
                })
                .collect(),
            network: NetworkConfig {
                scripted: true,
                ..NetworkConfig::default()
            },
            clocks: Vec::new(),
            faults,
            paxos: Some(PaxosSpec {
                proposals: (0..self.proposers)
                    .map(|i| Proposal {
                        node: names[i].clone(),
                        value: DECREES[i].to_string(),
                        start_us: 0,
                    })
                    .collect(),
                timeout_us: 500_000,
                backoff: false,
                leader: None,
                learn_from_votes: false,
            }),
            lease: None,
            multipaxos: None,
            commit: None,
            mutation: self.mutation.map(Mutation::Paxos),
            stop_at_us,
        }
    }
}

/// The Synod's invariants, bound and witnesses.
#[derive(Clone, Debug)]
pub struct PaxosChecks {
    names: Vec<String>,
    majority: usize,
    ballots: u32,
    proposed: Vec<Value>,
}

/// What the phase-1a, 2a and 2b messages of a state say.
#[derive(Clone, Debug, Default)]
pub struct Wire {
    /// (ballot, value, voters) with a majority of 2b.
    pub chosen: Vec<(Ballot, Value, Members)>,
    /// Distinct ballots whose phase 1a went out.
    pub ballots: u32,
}

impl PaxosChecks {
    fn name(&self, n: NodeId) -> &str {
        self.names.get(n.index()).map(|s| s.as_str()).unwrap_or("?")
    }
    fn bal(&self, b: Ballot) -> String {
        format!("({},{})", b.round, self.name(b.node))
    }
    fn members(&self, m: Members) -> String {
        m.iter().map(|n| self.name(n).to_string()).collect()
    }
}

fn max_bal(n: &PaxosNode) -> Option<Ballot> {
    n.acceptor.as_ref().and_then(|a| a.max_bal)
}

const WITNESSES: &[&str] = &[
    "a decree is chosen",
    "a 2a decree is forced by a vote of another ballot",
    "every learner has learned",
    "the last ballot allowed is started",
];

impl Spec<PaxosNode> for PaxosChecks {
    type Summary = Wire;

    fn watches(&self, msg: &PaxosMsg) -> bool {
        matches!(
            msg,
            PaxosMsg::Prepare { .. } | PaxosMsg::Accept { .. } | PaxosMsg::Accepted { .. }
        )
    }

    fn messages(&self, sent: &[(NodeId, NodeId, &PaxosMsg)], found: &mut Vec<Found>) -> Wire {
        let mut ballots: Vec<Ballot> = Vec::new();
        let mut per_ballot: Vec<(Ballot, Value)> = Vec::new();
        let mut votes: Vec<(Ballot, Value, Members)> = Vec::new();
        for &(from, _, m) in sent {
            match *m {
                PaxosMsg::Prepare { ballot } => {
                    if !ballots.contains(&ballot) {
                        ballots.push(ballot);
                    }
                    continue;
                }
                PaxosMsg::Accept { value, ballot } if !self.proposed.contains(&value) => found
                    .push((
                        Invariant::Validity,
                        format!(
                            "2a of ballot {} carries {value}, which nobody proposed",
                            self.bal(ballot)
                        ),
                    )),
                PaxosMsg::Accepted { ballot, value } => {
                    match votes.iter_mut().find(|x| (x.0, x.1) == (ballot, value)) {
                        Some(x) => x.2.insert(from),
                        None => votes.push((ballot, value, Members(1 << from.index()))),
                    }
                }
                _ => {}
            }
            let (b, v) = (m.ballot(), m.value().expect("2a and 2b carry a decree"));
            match per_ballot.iter().find(|x| x.0 == b) {
                Some(&(_, w)) if w != v => found.push((
                    Invariant::OneValuePerBallot,
                    format!("ballot {} carries {w} and also {v}", self.bal(b)),
                )),
                Some(_) => {}
                None => per_ballot.push((b, v)),
            }
        }
        votes.retain(|x| x.2.len() >= self.majority);
        if votes.iter().any(|c| c.1 != votes[0].1) {
            let list: Vec<String> = votes
                .iter()
                .map(|(b, v, m)| format!("{v} in {} by {}", self.bal(*b), self.members(*m)))
                .collect();
            found.push((
                Invariant::Agreement,
                format!("two decrees chosen: {}", list.join(", ")),
            ));
        }
        Wire {
            chosen: votes,
            ballots: ballots.len() as u32,
        }
    }

    fn nodes(&self, nodes: &[&PaxosNode], _now: SimTime, wire: &Wire, found: &mut Vec<Found>) {
        let mut learned: Option<(NodeId, Value)> = None;
        for (i, node) in nodes.iter().enumerate() {
            let me = NodeId(i as u8);
            if node
                .acceptor
                .as_ref()
                .is_some_and(|a| a.max_vbal > a.max_bal)
            {
                found.push((
                    Invariant::VoteBelowPromise,
                    format!("{}'s maxVBal is above its maxBal", self.name(me)),
                ));
            }
            let Some(v) = node.learned() else { continue };
            if !wire.chosen.iter().any(|c| c.1 == v) {
                found.push((
                    Invariant::LearnerConsistency,
                    format!("{} learned {v}, which is not chosen", self.name(me)),
                ));
            }
            match learned {
                Some((o, w)) if w != v => found.push((
                    Invariant::LearnerConsistency,
                    format!(
                        "{} learned {v}, {} learned {w}",
                        self.name(me),
                        self.name(o)
                    ),
                )),
                _ => learned = Some((me, v)),
            }
        }
    }

    fn step(
        &self,
        me: NodeId,
        before: &PaxosNode,
        after: &PaxosNode,
        out: &[Output<PaxosNode>],
        found: &mut Vec<Found>,
    ) {
        for o in out {
            match o {
                Output::Send(_, PaxosMsg::Accepted { ballot, .. }) => {
                    if let Some(m) = max_bal(after).filter(|m| m > ballot) {
                        let d = format!(
                            "{} sends 2b in {} after promising {}",
                            self.name(me),
                            self.bal(*ballot),
                            self.bal(m)
                        );
                        found.push((Invariant::PromiseMonotonic, d));
                    }
                }
                Output::Note(PaxosNote::LearnConflict { have, told }) => found.push((
                    Invariant::LearnerConsistency,
                    format!(
                        "{} has {have} in its ledger and is told {told} passed",
                        self.name(me)
                    ),
                )),
                _ => {}
            }
        }
        if let Some(was) = max_bal(before).filter(|&w| max_bal(after) < Some(w)) {
            let now = max_bal(after)
                .map(|b| self.bal(b))
                .unwrap_or_else(|| "nothing".into());
            found.push((
                Invariant::PromiseMonotonic,
                format!(
                    "{}'s promise went down from {} to {now}",
                    self.name(me),
                    self.bal(was)
                ),
            ));
        }
    }

    fn within_bounds(&self, _nodes: &[&PaxosNode], wire: &Wire) -> bool {
        wire.ballots <= self.ballots
    }

    fn witnesses(&self) -> &'static [&'static str] {
        WITNESSES
    }

    fn witnessed(&self, nodes: &[&PaxosNode], _now: SimTime, wire: &Wire) -> u32 {
        let forced = nodes.iter().enumerate().any(|(i, n)| {
            n.proposer.as_ref().is_some_and(|p| {
                matches!(p.phase, Phase::Accepting { choice: Choice::Forced { by, .. }, .. } if by.node != NodeId(i as u8))
            })
        });
        (!wire.chosen.is_empty()) as u32
            | (forced as u32) << 1
            | (nodes.iter().all(|n| n.learned().is_some()) as u32) << 2
            | ((wire.ballots >= self.ballots) as u32) << 3
    }
}

impl PaxosExplorer {
    /// Describe a path, one line per step: what happened and what it caused.
    pub fn render(&mut self, path: &[Action]) -> String {
        let names = self.spec().names.clone();
        let name = |n: NodeId| names.get(n.index()).cloned().unwrap_or_default();
        let bal = |b: Ballot| format!("({},{})", b.round, name(b.node));
        let mut text = String::new();
        for (k, (a, out)) in self.outputs(path).into_iter().enumerate() {
            text += &format!("\n  {:>2}. {}", k + 1, self.describe(a));
            let mut facts = Vec::new();
            let mut sends: Vec<(&'static str, String)> = Vec::new();
            for o in out {
                match o {
                    Output::Note(PaxosNote::ValuePicked { value, choice, .. }) => {
                        facts.push(match choice {
                            Choice::Free => format!("picks {value} (free)"),
                            Choice::Forced { by, voter } => format!(
                                "picks {value} (forced by {}'s vote in {})",
                                name(voter),
                                bal(by)
                            ),
                            Choice::Ignored { by, voter } => format!(
                                "picks {value} (B3 broken: ignores {}'s vote in {})",
                                name(voter),
                                bal(by)
                            ),
                            Choice::NotHighest { by, voter, highest } => format!(
                                "picks {value} (B3 broken: {}'s vote in {}, below {})",
                                name(voter),
                                bal(by),
                                bal(highest)
                            ),
                        })
                    }
                    Output::Note(PaxosNote::Preempted { ballot, by }) => {
                        facts.push(format!("gives up {} for {}", bal(ballot), bal(by)))
                    }
                    Output::Note(PaxosNote::Learned { value, .. }) => {
                        facts.push(format!("learns {value}"))
                    }
                    Output::Send(to, m) => match sends.iter_mut().find(|s| s.0 == m.phase()) {
                        Some(s) => s.1 += &name(to),
                        None => sends.push((m.phase(), name(to))),
                    },
                    _ => {}
                }
            }
            facts.extend(sends.into_iter().map(|(phase, to)| format!("{phase}→{to}")));
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
        let bal = |b: Ballot| format!("({},{})", b.round, name(b.node));
        match a {
            Action::Deliver(m) => {
                let e = self.envelope(m);
                let what = match e.msg {
                    PaxosMsg::Prepare { ballot } => format!("1a prepare {}", bal(ballot)),
                    PaxosMsg::Promise { ballot, last_vote } => format!(
                        "1b promise {}, last vote {}",
                        bal(ballot),
                        last_vote.map_or("none".into(), |v| format!(
                            "{}={}",
                            bal(v.ballot),
                            v.value
                        ))
                    ),
                    PaxosMsg::Accept { ballot, value } => {
                        format!("2a accept {}={value}", bal(ballot))
                    }
                    PaxosMsg::Accepted { ballot, value } => {
                        format!("2b accepted {}={value}", bal(ballot))
                    }
                    PaxosMsg::Decided { ballot, value } => {
                        format!("3 decided {}={value}", bal(ballot))
                    }
                };
                format!("{}→{} {what}", name(e.from), name(e.to))
            }
            Action::Fire { node, timer } => format!(
                "{}: timer {} fires",
                name(NodeId(node)),
                PaxosNode::timer_name(&self.timer(timer))
            ),
            Action::Reboot { node } => format!("{} crashes and restarts", name(NodeId(node))),
            Action::Tick => "time passes".into(),
        }
    }
}
