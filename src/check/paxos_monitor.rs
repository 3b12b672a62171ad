//! The Synod's invariants, checked after every step (DOMAIN.md §9).
//!
//! Like `Voting.tla`, the monitor keeps the set of every 2b message ever sent
//! and computes *chosen* from it: a value is chosen when, in some ballot, a
//! quorum (a true majority — whatever a broken proposer believes) has sent
//! `Accepted(b, v)`. Agreement is `|chosen| ≤ 1`. It does not trust anything a
//! proposer or learner claims; it looks at what went on the wire and at the
//! acceptors' ledgers.

use super::{Finding, Invariant};
use crate::protocol::paxos::{Acceptor, Ballot, Members, PaxosMsg, PaxosNode, PaxosNote, Synod};
use crate::protocol::{NodeState, Value};
use crate::sim::NodeId;
use std::sync::Arc;

#[derive(Clone, Debug)]
pub struct PaxosMonitor {
    names: Arc<Vec<String>>,
    majority: usize,
    /// Decrees someone was asked to propose (validity).
    proposed: Vec<Value>,
    /// Every ballot seen in a 2a or 2b, sorted by ballot. A run has a
    /// handful of ballots, so a sorted `Vec` is cheaper than a map.
    ballots: Vec<BallotSeen>,
    /// Chosen values, in the order they became chosen.
    pub chosen: Vec<(Ballot, Value)>,
    /// The highest promise each acceptor has ever had (survives restart).
    high_water: Vec<Option<Ballot>>,
    /// What each learner has learned.
    learned: Vec<Option<Value>>,
}

/// What the wire has shown of one ballot.
#[derive(Clone, Debug)]
struct BallotSeen {
    ballot: Ballot,
    /// The value it carries, from its first 2a or 2b.
    value: Value,
    /// Who has sent 2b in it.
    voters: Members,
}

impl PaxosMonitor {
    pub fn new(names: Arc<Vec<String>>, acceptors: usize) -> Self {
        let n = names.len();
        PaxosMonitor {
            names,
            majority: Synod::majority(acceptors),
            proposed: Vec::new(),
            ballots: Vec::new(),
            chosen: Vec::new(),
            high_water: vec![None; n],
            learned: vec![None; n],
        }
    }

    fn name(&self, n: NodeId) -> &str {
        self.names.get(n.index()).map(|s| s.as_str()).unwrap_or("?")
    }

    fn ballot(&self, b: Ballot) -> String {
        format!("({},{})", b.round, self.name(b.node))
    }

    /// Check that ballot `b` carries `v` as all its earlier 2a/2b did; the
    /// first one fixes its value. Returns the index of `b`'s record.
    fn one_value_per_ballot(
        &mut self,
        b: Ballot,
        v: Value,
        what: &str,
        found: &mut Vec<Finding>,
    ) -> usize {
        match self.ballots.binary_search_by(|s| s.ballot.cmp(&b)) {
            Ok(i) => {
                let w = self.ballots[i].value;
                if w != v {
                    found.push(Finding::Violation(
                        Invariant::OneValuePerBallot,
                        format!(
                            "ballot {} carries {w} and also {v} (in a {what})",
                            self.ballot(b)
                        ),
                    ));
                }
                i
            }
            Err(i) => {
                self.ballots.insert(
                    i,
                    BallotSeen {
                        ballot: b,
                        value: v,
                        voters: Members::default(),
                    },
                );
                i
            }
        }
    }

    /// Only phase 2 concerns the invariants; the other messages (most of the
    /// traffic) are let through here, inline, without a call.
    #[inline]
    pub fn on_send(
        &mut self,
        from: NodeId,
        msg: &PaxosMsg,
        sender: &NodeState,
        found: &mut Vec<Finding>,
    ) {
        match *msg {
            PaxosMsg::Accept { ballot, value } => self.on_accept_sent(ballot, value, found),
            PaxosMsg::Accepted { ballot, value } => {
                self.on_accepted_sent(from, ballot, value, sender, found)
            }
            _ => {}
        }
    }

    fn on_accept_sent(&mut self, ballot: Ballot, value: Value, found: &mut Vec<Finding>) {
        if !self.proposed.contains(&value) {
            found.push(Finding::Violation(
                Invariant::Validity,
                format!(
                    "2a of ballot {} carries {value}, which nobody proposed",
                    self.ballot(ballot)
                ),
            ));
        }
        self.one_value_per_ballot(ballot, value, "2a", found);
    }

    fn on_accepted_sent(
        &mut self,
        from: NodeId,
        ballot: Ballot,
        value: Value,
        sender: &NodeState,
        found: &mut Vec<Finding>,
    ) {
        let seen = self.one_value_per_ballot(ballot, value, "2b", found);
        if let Some(a) = sender.as_paxos().and_then(|p| p.acceptor.as_ref()) {
            if let Some(m) = a.max_bal {
                if m > ballot {
                    found.push(Finding::Violation(
                        Invariant::PromiseMonotonic,
                        format!(
                            "{} votes in ballot {} although it promised {}",
                            self.name(from),
                            self.ballot(ballot),
                            self.ballot(m)
                        ),
                    ));
                }
            }
        }
        let voters = &mut self.ballots[seen].voters;
        voters.insert(from);
        let voters = *voters;
        if voters.len() >= self.majority && !self.chosen.iter().any(|(_, v)| *v == value) {
            self.chosen.push((ballot, value));
            found.push(Finding::Note(
                PaxosNote::Chosen {
                    ballot,
                    value,
                    members: voters,
                }
                .into(),
            ));
            if self.chosen.len() > 1 {
                let list: Vec<String> = self
                    .chosen
                    .iter()
                    .map(|(b, v)| format!("{v} in ballot {}", self.ballot(*b)))
                    .collect();
                found.push(Finding::Violation(
                    Invariant::Agreement,
                    format!("two decrees passed: {}", list.join(" and ")),
                ));
            }
        }
    }

    /// Only what was proposed and what was learned concern the invariants;
    /// the other notes (most of them) are let through here, inline.
    #[inline]
    pub fn on_note(&mut self, node: NodeId, note: &PaxosNote, found: &mut Vec<Finding>) {
        if matches!(
            note,
            PaxosNote::Asked { .. } | PaxosNote::Learned { .. } | PaxosNote::LearnConflict { .. }
        ) {
            self.check_note(node, note, found);
        }
    }

    fn check_note(&mut self, node: NodeId, note: &PaxosNote, found: &mut Vec<Finding>) {
        match *note {
            PaxosNote::Asked { value } => {
                if !self.proposed.contains(&value) {
                    self.proposed.push(value);
                }
            }
            PaxosNote::Learned { value, ballot } => {
                if !self.chosen.iter().any(|(_, v)| *v == value) {
                    found.push(Finding::Violation(
                        Invariant::LearnerConsistency,
                        format!(
                            "{} learns {value} (ballot {}), but no majority voted for it",
                            self.name(node),
                            self.ballot(ballot)
                        ),
                    ));
                }
                if let Some((other, v)) = self
                    .learned
                    .iter()
                    .enumerate()
                    .find_map(|(i, l)| l.filter(|v| *v != value).map(|v| (i, v)))
                {
                    found.push(Finding::Violation(
                        Invariant::LearnerConsistency,
                        format!(
                            "{} learns {value} but {} learned {v}",
                            self.name(node),
                            self.name(NodeId(other as u8))
                        ),
                    ));
                }
                if let Some(slot) = self.learned.get_mut(node.index()) {
                    *slot = Some(value);
                }
            }
            PaxosNote::LearnConflict { have, told } => found.push(Finding::Violation(
                Invariant::LearnerConsistency,
                format!(
                    "{} has {have} in its ledger and is told {told} passed",
                    self.name(node)
                ),
            )),
            _ => {}
        }
    }

    /// Runs after every step of every node, so the usual case is decided
    /// inline: an acceptor whose promise is where it was and whose vote is
    /// not above it can break nothing (nor move the high-water mark).
    #[inline]
    pub fn after_step(&mut self, node: NodeId, state: &PaxosNode, found: &mut Vec<Finding>) {
        let Some(a) = &state.acceptor else { return };
        if let Some(&high) = self.high_water.get(node.index()) {
            if a.max_bal == high && a.max_vbal <= a.max_bal {
                return;
            }
        }
        self.check_acceptor(node, a, found);
    }

    fn check_acceptor(&mut self, node: NodeId, a: &Acceptor, found: &mut Vec<Finding>) {
        if let (Some(v), Some(b)) = (a.max_vbal, a.max_bal) {
            if v > b {
                found.push(Finding::Violation(
                    Invariant::VoteBelowPromise,
                    format!(
                        "{}'s last vote {} is above its promise {}",
                        self.name(node),
                        self.ballot(v),
                        self.ballot(b)
                    ),
                ));
            }
        }
        let Some(slot) = self.high_water.get(node.index()).copied() else {
            return;
        };
        if slot.is_some() && a.max_bal < slot {
            found.push(Finding::Violation(
                Invariant::PromiseMonotonic,
                format!(
                    "{}'s promise went down from {} to {}",
                    self.name(node),
                    self.ballot(slot.unwrap_or(Ballot { round: 0, node })),
                    a.max_bal
                        .map(|b| self.ballot(b))
                        .unwrap_or_else(|| "nothing".into())
                ),
            ));
        }
        if a.max_bal > slot {
            self.high_water[node.index()] = a.max_bal;
        }
    }
}
