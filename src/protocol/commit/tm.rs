//! The transaction manager of two-phase commit.
//!
//! The initiating RM's `Prepared` is the request to commit: the TM sends
//! `Prepare` to the other RMs and collects their votes. It decides **Commit
//! if and only if every RM has voted "prepared"** — and Abort at the first
//! "aborted", or when it has waited too long. It writes the decision to
//! stable storage *before* it sends it; that record is the one thing an
//! uncertain RM needs, and only the TM has it. So while the TM is down after
//! the RMs have prepared, they block.
//!
//! On restart the TM reads its log: a logged decision is sent again; no
//! decision means it never told anyone to commit, so it aborts (presumed
//! abort). An RM that repeats its vote after a decision is answered with it.

use super::{
    CommitMsg, CommitMutation, CommitNode, CommitNote, CommitTimer, Outcome, RmSet, RmVote,
    Transaction,
};
use crate::sim::{Ctx, Hosts, NodeId};

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tm {
    /// The decision, once written (stable).
    pub decision: Option<Outcome>,
    /// The RMs that have voted "prepared" (volatile).
    pub prepared: RmSet,
    /// `Prepare` has gone out (volatile).
    pub asked: bool,
}

impl Tm {
    pub fn on_vote<H: Hosts<CommitNode>>(
        &mut self,
        rm: NodeId,
        vote: RmVote,
        tx: &Transaction,
        ctx: &mut Ctx<CommitNode, H>,
    ) {
        if !tx.is_rm(rm) {
            return;
        }
        if let Some(d) = self.decision {
            // Decided already: this RM is asking (a duplicate, or after its restart).
            ctx.send(rm, CommitMsg::Decision { rm, outcome: d });
            return;
        }
        if vote == RmVote::Aborted {
            return self.decide(Outcome::Abort, tx, ctx);
        }
        self.prepared.insert(rm);
        if !self.asked {
            // The first vote is the initiator's request to commit.
            self.asked = true;
            for &r in &tx.rms {
                if !self.prepared.contains(r) {
                    ctx.send(r, CommitMsg::Prepare { rm: r });
                }
            }
            ctx.set_timer(CommitTimer::VoteTimeout, tx.timeout);
        }
        if self.prepared == tx.all() {
            self.decide(Outcome::Commit, tx, ctx);
        }
    }

    /// Waited too long for votes: abort (a vote may have been lost, or an RM
    /// may be down). The broken variant commits instead.
    pub fn on_timeout<H: Hosts<CommitNode>>(
        &mut self,
        tx: &Transaction,
        ctx: &mut Ctx<CommitNode, H>,
    ) {
        if self.decision.is_none() && self.asked {
            let o = if tx.mutation == Some(CommitMutation::CommitWithoutAllPrepared) {
                Outcome::Commit
            } else {
                Outcome::Abort
            };
            self.decide(o, tx, ctx);
        }
    }

    /// Write the decision, then tell every RM.
    fn decide<H: Hosts<CommitNode>>(
        &mut self,
        o: Outcome,
        tx: &Transaction,
        ctx: &mut Ctx<CommitNode, H>,
    ) {
        self.decision = Some(o);
        ctx.note(CommitNote::TmDecided { outcome: o });
        ctx.cancel_timer(CommitTimer::VoteTimeout);
        self.announce(tx, ctx);
    }

    fn announce<H: Hosts<CommitNode>>(&self, tx: &Transaction, ctx: &mut Ctx<CommitNode, H>) {
        let Some(o) = self.decision else { return };
        for &r in &tx.rms {
            ctx.send(r, CommitMsg::Decision { rm: r, outcome: o });
        }
    }

    pub fn on_crash(&mut self) {
        self.prepared = RmSet::default();
        self.asked = false;
    }

    pub fn on_restart<H: Hosts<CommitNode>>(
        &mut self,
        tx: &Transaction,
        ctx: &mut Ctx<CommitNode, H>,
    ) {
        match self.decision {
            Some(_) => self.announce(tx, ctx),
            // Nothing in the log: nobody was told to commit. Presumed abort.
            None => self.decide(Outcome::Abort, tx, ctx),
        }
    }
}
