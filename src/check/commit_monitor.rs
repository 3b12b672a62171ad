//! The invariants of transaction commit, checked after every step, and the
//! time each RM spends uncertain.
//!
//! - **Atomicity** (Gray and Lamport's TCConsistent): never one RM committed
//!   and another aborted.
//! - **Validity** (`commit-validity`): the transaction commits — a
//!   coordinator decides Commit, or an RM commits — only if every RM has
//!   voted "prepared".
//! - **Agreement**, per instance (Paxos Commit): as in `PaxosCommit.tla`, a
//!   value is chosen in RM r's instance when F+1 acceptors have sent 2b for
//!   it in one ballot; two values chosen in one instance break it.
//!
//! Like the Synod's monitor it trusts no coordinator: it reads what the RMs
//! wrote (`rm_vote`, `rm_outcome`) and what the acceptors sent.

use super::{Finding, Invariant};
use crate::protocol::commit::{Ballot, CommitMsg, CommitNote, Outcome, RmVote};
use crate::sim::{NodeId, SimTime};
use std::sync::Arc;

/// One RM's record: its vote and outcome, with when it wrote them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RmRecord {
    pub vote: Option<(RmVote, SimTime)>,
    pub outcome: Option<(Outcome, SimTime)>,
}

impl RmRecord {
    fn aborted(&self) -> bool {
        matches!(self.vote, Some((RmVote::Aborted, _)))
            || matches!(self.outcome, Some((Outcome::Abort, _)))
    }
    fn committed(&self) -> bool {
        matches!(self.outcome, Some((Outcome::Commit, _)))
    }
    /// How long it has been uncertain by `t`: from writing "prepared" to
    /// learning the outcome (or to `t`, if it has not).
    pub fn uncertain_us(&self, t: SimTime) -> u64 {
        match self.vote {
            Some((RmVote::Prepared, from)) => {
                let to = self.outcome.map_or(t, |(_, at)| at.min(t));
                to.0.saturating_sub(from.0)
            }
            _ => 0,
        }
    }
}

#[derive(Clone, Debug)]
pub struct CommitMonitor {
    names: Arc<Vec<String>>,
    /// The RMs, in order.
    pub rms: Vec<NodeId>,
    /// Per RM (same order): what it wrote.
    pub records: Vec<RmRecord>,
    majority: usize,
    /// 2b seen: (instance, ballot, value, acceptors as node bits).
    votes: Vec<(NodeId, Ballot, RmVote, u64)>,
    /// Chosen per instance.
    pub chosen: Vec<(NodeId, Ballot, RmVote)>,
    /// The coordinators' decisions (2PC TM or Paxos Commit leader).
    pub decisions: Vec<(NodeId, Outcome, SimTime)>,
}

impl CommitMonitor {
    pub fn new(names: Arc<Vec<String>>, rms: Vec<NodeId>, acceptors: usize) -> Self {
        let n = rms.len();
        CommitMonitor {
            names,
            rms,
            records: vec![RmRecord::default(); n],
            majority: acceptors / 2 + 1,
            votes: Vec::new(),
            chosen: Vec::new(),
            decisions: Vec::new(),
        }
    }

    fn name(&self, n: NodeId) -> &str {
        self.names.get(n.index()).map(|s| s.as_str()).unwrap_or("?")
    }

    fn slot(&self, n: NodeId) -> Option<usize> {
        self.rms.iter().position(|&r| r == n)
    }

    /// Only the acceptors' 2b concern the invariants; everything else passes here.
    #[inline]
    pub fn on_send(&mut self, from: NodeId, msg: &CommitMsg, found: &mut Vec<Finding>) {
        if let CommitMsg::Phase2b { ballot, votes } = *msg {
            for (rm, v) in votes.iter() {
                self.count_vote(from, rm, ballot, v, found);
            }
        }
    }

    fn count_vote(
        &mut self,
        acc: NodeId,
        rm: NodeId,
        ballot: Ballot,
        v: RmVote,
        found: &mut Vec<Finding>,
    ) {
        let bit = 1u64 << acc.index();
        let k = match self
            .votes
            .iter()
            .position(|e| e.0 == rm && e.1 == ballot && e.2 == v)
        {
            Some(k) => k,
            None => {
                self.votes.push((rm, ballot, v, 0));
                self.votes.len() - 1
            }
        };
        if self.votes[k].3 & bit != 0 {
            return; // a repeated 2b: already counted
        }
        self.votes[k].3 |= bit;
        if self.votes[k].3.count_ones() as usize != self.majority {
            return;
        }
        if let Some(&(_, b, w)) = self.chosen.iter().find(|c| c.0 == rm && c.2 != v) {
            found.push(Finding::Violation(
                Invariant::Agreement,
                format!(
                    "{}'s instance chose {} in ballot {b} and {} in ballot {ballot}",
                    self.name(rm),
                    w.as_str(),
                    v.as_str()
                ),
            ));
        }
        if !self.chosen.iter().any(|c| c.0 == rm && c.2 == v) {
            self.chosen.push((rm, ballot, v));
            found.push(Finding::Note(
                CommitNote::InstanceChosen {
                    rm,
                    ballot,
                    vote: v,
                }
                .into(),
            ));
        }
    }

    /// Only votes, outcomes and decisions concern the invariants.
    #[inline]
    pub fn on_note(
        &mut self,
        now: SimTime,
        node: NodeId,
        note: &CommitNote,
        found: &mut Vec<Finding>,
    ) {
        match *note {
            CommitNote::RmVoted { vote } => {
                if let Some(i) = self.slot(node) {
                    self.records[i].vote = Some((vote, now));
                    if vote == RmVote::Aborted {
                        self.atomicity(found);
                    }
                }
            }
            CommitNote::RmDecided { outcome } => {
                if let Some(i) = self.slot(node) {
                    self.records[i].outcome = Some((outcome, now));
                    if outcome == Outcome::Commit {
                        self.validity(&format!("{} commits", self.name(node)), found);
                    }
                    self.atomicity(found);
                }
            }
            CommitNote::TmDecided { outcome } | CommitNote::LeaderDecided { outcome } => {
                self.decisions.push((node, outcome, now));
                if outcome == Outcome::Commit {
                    self.validity(&format!("{} decides Commit", self.name(node)), found);
                }
            }
            _ => {}
        }
    }

    /// Commit only if every RM voted "prepared".
    fn validity(&self, who: &str, found: &mut Vec<Finding>) {
        let missing: Vec<String> = self
            .rms
            .iter()
            .zip(&self.records)
            .filter(|(_, r)| !matches!(r.vote, Some((RmVote::Prepared, _))))
            .map(|(&n, r)| {
                let why = match r.vote {
                    Some(_) => "voted aborted",
                    None => "never voted",
                };
                format!("{} {why}", self.name(n))
            })
            .collect();
        if !missing.is_empty() {
            found.push(Finding::Violation(
                Invariant::CommitValidity,
                format!("{who}, but {}", missing.join(", ")),
            ));
        }
    }

    /// Never one RM committed and another aborted.
    fn atomicity(&self, found: &mut Vec<Finding>) {
        let committed = self
            .rms
            .iter()
            .zip(&self.records)
            .find(|(_, r)| r.committed())
            .map(|(&n, _)| n);
        let aborted = self
            .rms
            .iter()
            .zip(&self.records)
            .find(|(_, r)| r.aborted())
            .map(|(&n, _)| n);
        if let (Some(c), Some(a)) = (committed, aborted) {
            found.push(Finding::Violation(
                Invariant::Atomicity,
                format!("{} committed and {} aborted", self.name(c), self.name(a)),
            ));
        }
    }

    /// Per RM (in order): how long it has been uncertain by `t`.
    pub fn uncertain_at(&self, t: SimTime) -> Vec<(NodeId, u64)> {
        self.rms
            .iter()
            .zip(&self.records)
            .map(|(&n, r)| (n, r.uncertain_us(t)))
            .collect()
    }

    /// The outcome every RM that decided agrees on, if they all decided.
    pub fn all_decided(&self) -> Option<Outcome> {
        let first = self.records.first()?.outcome.map(|o| o.0).or_else(|| {
            self.records.first().and_then(|r| {
                matches!(r.vote, Some((RmVote::Aborted, _))).then_some(Outcome::Abort)
            })
        })?;
        self.records
            .iter()
            .all(|r| {
                r.outcome.map(|o| o.0) == Some(first) || (first == Outcome::Abort && r.aborted())
            })
            .then_some(first)
    }
}
