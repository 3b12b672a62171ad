//! A Paxos Commit coordinator: the leader, or a backup ready to take over.
//!
//! The **first leader** (rank 0, on the TM's node) gets `BeginCommit` from
//! the initiating RM and sends `Prepare` to the others. It counts the
//! acceptors' 2b votes; an instance's value is *chosen* once F+1 acceptors
//! voted for it in one ballot. It announces `Commit` when every instance
//! chose "prepared", `Abort` as soon as one chose "aborted".
//!
//! If no outcome comes in time — a vote lost, an RM silent, the leader down —
//! a coordinator runs a higher ballot of its own, `(round, itself)`, for
//! every instance it has not seen chosen: phase 1a to all 2F+1 acceptors;
//! with F+1 promises it picks, per instance, the value of the highest vote
//! reported (**B3**: forced), or "aborted" where nobody reports one (free:
//! an RM that has not voted may not be committed for); phase 2a; and counts
//! 2b as before. Backups (rank k ≥ 1, on RM nodes) start watching when
//! their RM is asked to prepare, and wait (k+1) timeouts, so the first
//! leader goes first. Two coordinators at once only cost progress.
//! `last_round` (lastTried) is its one stable field.

use super::{
    Ballot, CommitMsg, CommitMutation, CommitNode, CommitNote, CommitTimer, LastVotes, Outcome,
    RmSet, RmVote, Transaction, Votes,
};
use crate::sim::{Ctx, Hosts, NodeId};

/// 2b votes counted per (instance, ballot): which acceptors voted for what.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tally {
    /// (instance, ballot, value, acceptors as bits), sorted.
    entries: Vec<(NodeId, Ballot, RmVote, u8)>,
}

impl Tally {
    pub fn add(&mut self, acc: u8, ballot: Ballot, votes: Votes) {
        for (i, v) in votes.iter() {
            let key = (i, ballot, v);
            match self.entries.binary_search_by(|e| (e.0, e.1, e.2).cmp(&key)) {
                Ok(k) => self.entries[k].3 |= 1 << acc,
                Err(k) => self.entries.insert(k, (i, ballot, v, 1 << acc)),
            }
        }
    }
    /// The value chosen in instance `i` (F+1 votes in one ballot), if any.
    pub fn chosen(&self, i: NodeId, majority: usize) -> Option<RmVote> {
        self.entries
            .iter()
            .find(|e| e.0 == i && e.3.count_ones() as usize >= majority)
            .map(|e| e.2)
    }
    /// The outcome once it is known: Abort if some instance chose
    /// "aborted", Commit if every one of `rms` chose "prepared".
    pub fn outcome(&self, rms: &[NodeId], majority: usize) -> Option<Outcome> {
        let mut all = true;
        for &i in rms {
            match self.chosen(i, majority) {
                Some(RmVote::Aborted) => return Some(Outcome::Abort),
                Some(RmVote::Prepared) => {}
                None => all = false,
            }
        }
        all.then_some(Outcome::Commit)
    }
    /// The instances not yet chosen.
    pub fn open(&self, rms: &[NodeId], majority: usize) -> RmSet {
        let mut s = RmSet::default();
        for &i in rms {
            if self.chosen(i, majority).is_none() {
                s.insert(i);
            }
        }
        s
    }
}

/// Where a coordinator's own ballot is (volatile).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Round {
    #[default]
    Idle,
    /// 1a sent; collecting promises: (acceptor, its last votes).
    Phase1 {
        ballot: Ballot,
        rms: RmSet,
        promises: Vec<(u8, LastVotes)>,
    },
    /// 2a sent; counting 2b.
    Phase2 { ballot: Ballot },
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Coordinator {
    /// 0: the first leader (the TM); k ≥ 1: the k-th backup.
    pub rank: u8,
    /// lastTried: the highest round it has used (stable).
    pub last_round: u16,
    /// The highest round it has seen anyone use (volatile).
    pub highest_seen: u16,
    pub round: Round,
    pub tally: Tally,
    /// The outcome it has learned (volatile).
    pub decided: Option<Outcome>,
    /// It has sent `Prepare` (the first leader) or is watching (a backup).
    pub begun: bool,
}

impl Coordinator {
    pub fn new(rank: u8) -> Coordinator {
        Coordinator {
            rank,
            last_round: 0,
            highest_seen: 0,
            round: Round::Idle,
            tally: Tally::default(),
            decided: None,
            begun: false,
        }
    }

    fn timer(&self) -> CommitTimer {
        if self.rank == 0 {
            CommitTimer::VoteTimeout
        } else {
            CommitTimer::Takeover
        }
    }

    fn patience(&self, tx: &Transaction) -> crate::sim::SimDuration {
        crate::sim::SimDuration(tx.timeout.0.saturating_mul(self.rank as u64 + 1))
    }

    /// The first leader: the initiating RM asks to commit.
    pub fn on_begin<H: Hosts<CommitNode>>(
        &mut self,
        initiator: NodeId,
        tx: &Transaction,
        ctx: &mut Ctx<CommitNode, H>,
    ) {
        if self.rank != 0 || self.begun || self.decided.is_some() {
            return;
        }
        self.begun = true;
        for &r in &tx.rms {
            if r != initiator {
                ctx.send(r, CommitMsg::Prepare { rm: r });
            }
        }
        ctx.set_timer(self.timer(), tx.timeout);
    }

    /// A backup: this node's RM was asked to prepare, so a transaction is under way.
    pub fn watch<H: Hosts<CommitNode>>(&mut self, tx: &Transaction, ctx: &mut Ctx<CommitNode, H>) {
        if self.rank == 0 || self.begun || self.decided.is_some() {
            return;
        }
        self.begun = true;
        ctx.set_timer(self.timer(), self.patience(tx));
    }

    /// This node's RM has learned the outcome: no need to take over.
    pub fn stand_down<H: Hosts<CommitNode>>(&mut self, ctx: &mut Ctx<CommitNode, H>) {
        if self.rank != 0 && self.decided.is_none() {
            ctx.cancel_timer(self.timer());
        }
    }

    pub fn seen(&mut self, ballot: Ballot) {
        self.highest_seen = self.highest_seen.max(ballot.round);
    }

    pub fn on_timeout<H: Hosts<CommitNode>>(
        &mut self,
        t: CommitTimer,
        rm_decided: bool,
        tx: &Transaction,
        ctx: &mut Ctx<CommitNode, H>,
    ) {
        if t != self.timer() || self.decided.is_some() || (self.rank != 0 && rm_decided) {
            return;
        }
        self.start_ballot(tx, ctx);
    }

    /// Phase 1a of a fresh ballot for every instance not seen chosen.
    fn start_ballot<H: Hosts<CommitNode>>(
        &mut self,
        tx: &Transaction,
        ctx: &mut Ctx<CommitNode, H>,
    ) {
        let rms = self.tally.open(&tx.rms, tx.majority());
        if rms.is_empty() {
            return;
        }
        let round = self.last_round.max(self.highest_seen).saturating_add(1);
        // lastTried is written before the 1a leaves.
        self.last_round = round;
        let ballot = Ballot {
            round,
            node: ctx.me,
        };
        ctx.note(CommitNote::CoordinatorBallot { ballot, rms });
        self.round = Round::Phase1 {
            ballot,
            rms,
            promises: Vec::new(),
        };
        for &a in &tx.acceptors {
            ctx.send(a, CommitMsg::Phase1a { ballot, rms });
        }
        ctx.set_timer(self.timer(), tx.timeout);
    }

    pub fn on_phase1b<H: Hosts<CommitNode>>(
        &mut self,
        acc: u8,
        ballot: Ballot,
        rms: RmSet,
        last: &LastVotes,
        tx: &Transaction,
        ctx: &mut Ctx<CommitNode, H>,
    ) {
        for r in last.0.iter().flatten() {
            self.highest_seen = self.highest_seen.max(r.ballot.round);
        }
        let Round::Phase1 {
            ballot: mine,
            rms: want,
            promises,
        } = &mut self.round
        else {
            return;
        };
        // Count an acceptor only if it promised every instance asked for.
        if *mine != ballot || rms != *want || promises.iter().any(|p| p.0 == acc) {
            return;
        }
        promises.push((acc, *last));
        if promises.len() < tx.majority() {
            return;
        }
        let free = if tx.mutation == Some(CommitMutation::CommitWithoutAllPrepared) {
            RmVote::Prepared
        } else {
            RmVote::Aborted
        };
        let mut votes = Votes::default();
        for i in want.iter() {
            // B3: the value of the highest-numbered vote reported, if any.
            let forced = promises
                .iter()
                .filter_map(|(_, l)| l.get(*want, i))
                .max_by_key(|r| r.ballot);
            votes.set(i, forced.map_or(free, |r| r.vote));
        }
        self.round = Round::Phase2 { ballot };
        for &a in &tx.acceptors {
            ctx.send(a, CommitMsg::Phase2a { ballot, votes });
        }
    }

    pub fn on_phase2b<H: Hosts<CommitNode>>(
        &mut self,
        acc: u8,
        ballot: Ballot,
        votes: Votes,
        tx: &Transaction,
        ctx: &mut Ctx<CommitNode, H>,
    ) {
        if self.decided.is_some() {
            return;
        }
        self.tally.add(acc, ballot, votes);
        let Some(o) = self.tally.outcome(&tx.rms, tx.majority()) else {
            return;
        };
        self.decided = Some(o);
        ctx.note(CommitNote::LeaderDecided { outcome: o });
        ctx.cancel_timer(self.timer());
        // In Faster Paxos Commit the RMs count the ballot-0 votes themselves;
        // the votes of a coordinator's ballot reach the coordinator only.
        let recovered = !matches!(self.round, Round::Idle);
        if !tx.faster || recovered {
            for &r in &tx.rms {
                ctx.send(r, CommitMsg::Decision { rm: r, outcome: o });
            }
        }
    }

    pub fn on_crash(&mut self) {
        self.round = Round::Idle;
        self.tally = Tally::default();
        self.decided = None;
        self.highest_seen = 0;
        self.begun = false;
    }

    /// Back from a crash: if this node's RM is still uncertain, the
    /// transaction is unfinished as far as it knows — find out, with a ballot
    /// of its own after one timeout.
    pub fn on_restart<H: Hosts<CommitNode>>(
        &mut self,
        rm_uncertain: bool,
        tx: &Transaction,
        ctx: &mut Ctx<CommitNode, H>,
    ) {
        if rm_uncertain {
            self.begun = true;
            ctx.set_timer(self.timer(), tx.timeout);
        }
    }
}
