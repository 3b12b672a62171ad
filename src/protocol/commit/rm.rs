//! The resource manager: a participant of the transaction.
//!
//! Its state is stable storage (Gray and Lamport's *rmState*): working,
//! prepared, committed or aborted. It writes its vote *before* it sends it —
//! once it has said "prepared" it must be able to commit after any crash —
//! and from then on it is **uncertain**: it holds the transaction's locks and
//! may neither commit nor abort until it is told the outcome. An RM that is
//! still working may abort on its own (it votes "aborted", or just aborts).
//!
//! - In two-phase commit the vote goes to the TM (`Prepared` / `Aborted`).
//! - In Paxos Commit it is the phase-2a message of ballot 0 of the RM's own
//!   instance, sent to F+1 acceptors; the initiating RM also asks the leader
//!   to begin (`BeginCommit`). In Faster Paxos Commit the RM learns the
//!   outcome itself by counting the acceptors' 2b messages.

use super::{
    Algorithm, CommitMsg, CommitNode, CommitNote, CommitTimer, Outcome, RmVote, Tally, Transaction,
    Votes,
};
use crate::sim::{Ctx, Hosts, SimDuration};

/// Gray and Lamport's rmState.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RmState {
    Working,
    /// Voted "prepared": uncertain until it learns the outcome.
    Prepared,
    Committed,
    Aborted,
}

impl RmState {
    pub fn is_final(self) -> bool {
        matches!(self, RmState::Committed | RmState::Aborted)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rm {
    /// rmState (stable).
    pub state: RmState,
    /// How it will vote when asked (the scenario's choice, or a command).
    pub will: RmVote,
    /// It starts the commit: after `start_after`, it prepares and asks.
    pub initiator: bool,
    pub start_after: SimDuration,
    /// Model checking: it may abort on its own at any moment while working.
    pub may_abort: bool,
    /// Faster Paxos Commit: the 2b votes it has counted (volatile).
    pub tally: Tally,
}

impl Rm {
    pub fn new(will: RmVote, initiator: bool, start_after: SimDuration) -> Rm {
        Rm {
            state: RmState::Working,
            will,
            initiator,
            start_after,
            may_abort: false,
            tally: Tally::default(),
        }
    }

    pub fn on_start<H: Hosts<CommitNode>>(&mut self, ctx: &mut Ctx<CommitNode, H>) {
        if self.initiator {
            ctx.set_timer(CommitTimer::Begin, self.start_after);
        }
        if self.may_abort {
            ctx.set_timer(CommitTimer::UnilateralAbort, self.start_after);
        }
    }

    pub fn on_timer<H: Hosts<CommitNode>>(
        &mut self,
        t: CommitTimer,
        tx: &Transaction,
        ctx: &mut Ctx<CommitNode, H>,
    ) {
        match t {
            CommitTimer::Begin if self.state == RmState::Working => self.vote(self.will, tx, ctx),
            CommitTimer::UnilateralAbort if self.state == RmState::Working => {
                self.vote(RmVote::Aborted, tx, ctx)
            }
            _ => {}
        }
    }

    /// The TM (or leader) asks it to prepare. Only a working RM votes; a
    /// second request (a duplicate) gets no second vote.
    pub fn on_prepare<H: Hosts<CommitNode>>(
        &mut self,
        tx: &Transaction,
        ctx: &mut Ctx<CommitNode, H>,
    ) {
        if self.state == RmState::Working {
            self.vote(self.will, tx, ctx);
        }
    }

    /// Write the vote, then send it.
    fn vote<H: Hosts<CommitNode>>(
        &mut self,
        vote: RmVote,
        tx: &Transaction,
        ctx: &mut Ctx<CommitNode, H>,
    ) {
        self.state = match vote {
            RmVote::Prepared => RmState::Prepared,
            RmVote::Aborted => RmState::Aborted,
        };
        ctx.note(CommitNote::RmVoted { vote });
        let me = ctx.me;
        match tx.algorithm {
            Algorithm::TwoPhaseCommit => ctx.send(tx.tm, CommitMsg::Vote { rm: me, vote }),
            Algorithm::PaxosCommit => {
                if self.initiator {
                    ctx.send(tx.tm, CommitMsg::BeginCommit { rm: me });
                }
                // Ballot 0 is this RM's: no phase 1 is needed.
                let votes = Votes::one(me, vote);
                for &a in tx.first_acceptors() {
                    ctx.send(
                        a,
                        CommitMsg::Phase2a {
                            ballot: super::Ballot::ZERO,
                            votes,
                        },
                    );
                }
            }
        }
    }

    /// The outcome, from the TM or the leader.
    pub fn on_decision<H: Hosts<CommitNode>>(
        &mut self,
        outcome: Outcome,
        ctx: &mut Ctx<CommitNode, H>,
    ) {
        let next = match (self.state, outcome) {
            // A correct coordinator never commits a working RM; if a broken
            // one does, the RM obeys and the monitors judge.
            (RmState::Working | RmState::Prepared, Outcome::Commit) => RmState::Committed,
            (RmState::Working | RmState::Prepared, Outcome::Abort) => RmState::Aborted,
            // Already final: the outcome was written; a contrary message
            // (only a broken protocol sends one) cannot change it.
            _ => return,
        };
        self.state = next;
        self.tally = super::Tally::default();
        ctx.note(CommitNote::RmDecided { outcome });
    }

    /// Faster Paxos Commit: count the acceptors' votes; once every instance
    /// is chosen "prepared", or one "aborted", the outcome is known.
    pub fn on_phase2b<H: Hosts<CommitNode>>(
        &mut self,
        acc: u8,
        ballot: super::Ballot,
        votes: Votes,
        tx: &Transaction,
        ctx: &mut Ctx<CommitNode, H>,
    ) {
        if self.state.is_final() {
            return;
        }
        self.tally.add(acc, ballot, votes);
        if let Some(o) = self.tally.outcome(&tx.rms, tx.majority()) {
            self.on_decision(o, ctx);
        }
    }

    pub fn on_crash(&mut self) {
        self.tally = Tally::default();
    }

    /// Back from a crash. A 2PC RM that is still uncertain asks the TM again
    /// by repeating its vote (a TM that has decided answers with the outcome).
    pub fn on_restart<H: Hosts<CommitNode>>(
        &mut self,
        tx: &Transaction,
        ctx: &mut Ctx<CommitNode, H>,
    ) {
        if self.state == RmState::Prepared && tx.algorithm == Algorithm::TwoPhaseCommit {
            ctx.send(
                tx.tm,
                CommitMsg::Vote {
                    rm: ctx.me,
                    vote: RmVote::Prepared,
                },
            );
        }
        if self.initiator && self.state == RmState::Working {
            ctx.set_timer(CommitTimer::Begin, self.start_after);
        }
    }
}
