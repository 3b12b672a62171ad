//! A Paxos Commit acceptor: one Synod acceptor for every RM's instance.
//!
//! Per instance it keeps, in stable storage, `mbal` (the highest ballot it
//! has promised or voted in — maxBal) and its last vote (ballot and value —
//! maxVBal, maxVal), exactly as in `PaxosCommit.tla`; it writes them before
//! it answers. It votes in ballot b only if it has promised nothing above b
//! (P1a).
//!
//! **One write for all instances.** An RM's ballot-0 2a is held (in memory)
//! until the acceptor has one from every RM; then it writes all N votes at
//! once and sends one 2b for all of them — the normal-case economy Gray and
//! Lamport count. An "aborted" is written and sent at once: one aborted
//! instance decides the transaction. Held votes are only pencil: a crash
//! loses them, which is as harmless as a lost message.

use super::{
    Ballot, CommitMsg, CommitNode, CommitNote, LastVotes, Report, RmSet, RmVote, Transaction, Votes,
};
use crate::sim::{Ctx, Hosts, NodeId, MAX_NODES};

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Acceptor {
    /// mbal per instance, by the RM's node (stable).
    pub mbal: [Ballot; MAX_NODES],
    /// The last vote per instance, by the RM's node (stable).
    pub last: [Option<Report>; MAX_NODES],
    /// Ballot-0 votes received but not yet written (volatile).
    pub held: Votes,
}

impl Acceptor {
    /// Phase 1b: promise `ballot` in each instance where nothing higher is
    /// promised (a duplicate 1a gets the same answer), and report the last
    /// votes. A ballot-0 vote still held is cast first — it is allowed, as
    /// nothing above 0 was promised — so the coordinator hears of it (B3).
    pub fn on_phase1a<H: Hosts<CommitNode>>(
        &mut self,
        from: NodeId,
        ballot: Ballot,
        rms: RmSet,
        ctx: &mut Ctx<CommitNode, H>,
    ) {
        let mut promised = RmSet::default();
        let mut cast = Votes::default();
        let mut raised = false;
        for r in rms.iter() {
            let k = r.index();
            if self.mbal[k] <= ballot {
                if let Some(v) = self.held.get(r) {
                    self.last[k] = Some(Report {
                        ballot: Ballot::ZERO,
                        vote: v,
                    });
                    self.held.remove(r);
                    cast.set(r, v);
                }
                raised |= self.mbal[k] < ballot;
                self.mbal[k] = ballot;
                promised.insert(r);
            }
        }
        if promised.is_empty() {
            return;
        }
        if !cast.is_empty() {
            ctx.note(CommitNote::AcceptorVoted {
                ballot: Ballot::ZERO,
                votes: cast,
            });
        }
        if raised {
            ctx.note(CommitNote::AcceptorPromised {
                ballot,
                rms: promised,
            });
        }
        let last = LastVotes::collect(promised, |r| self.last[r.index()]);
        ctx.send(
            from,
            CommitMsg::Phase1b {
                ballot,
                rms: promised,
                last,
            },
        );
    }

    /// Phase 2b.
    pub fn on_phase2a<H: Hosts<CommitNode>>(
        &mut self,
        from: NodeId,
        ballot: Ballot,
        votes: Votes,
        tx: &Transaction,
        ctx: &mut Ctx<CommitNode, H>,
    ) {
        if ballot.is_zero() {
            return self.on_rm_vote(votes, tx, ctx);
        }
        // A coordinator's ballot: vote in every instance not promised higher,
        // write, and answer the coordinator.
        let mut voted = Votes::default();
        for (r, v) in votes.iter() {
            let k = r.index();
            if self.mbal[k] <= ballot {
                self.mbal[k] = ballot;
                self.last[k] = Some(Report { ballot, vote: v });
                self.held.remove(r);
                voted.set(r, v);
            }
        }
        if voted.is_empty() {
            return;
        }
        ctx.note(CommitNote::AcceptorVoted {
            ballot,
            votes: voted,
        });
        ctx.send(
            from,
            CommitMsg::Phase2b {
                ballot,
                votes: voted,
            },
        );
    }

    /// An RM's own ballot-0 vote: hold it until every RM's is in (or it is
    /// an "aborted"), then write them all and send one 2b.
    fn on_rm_vote<H: Hosts<CommitNode>>(
        &mut self,
        votes: Votes,
        tx: &Transaction,
        ctx: &mut Ctx<CommitNode, H>,
    ) {
        for (r, v) in votes.iter() {
            let k = r.index();
            // Only if no coordinator's ballot was promised, and not voted yet.
            if tx.is_rm(r) && self.mbal[k].is_zero() && self.last[k].is_none() {
                self.held.set(r, v);
            }
        }
        if self.held.is_empty() {
            return;
        }
        let mut covered = self.held.rms;
        for &r in &tx.rms {
            if self.last[r.index()].is_some_and(|x| x.ballot.is_zero()) {
                covered.insert(r);
            }
        }
        if covered != tx.all() && !self.held.any_aborted() {
            return;
        }
        let votes = std::mem::take(&mut self.held);
        for (r, v) in votes.iter() {
            self.last[r.index()] = Some(Report {
                ballot: Ballot::ZERO,
                vote: v,
            });
        }
        ctx.note(CommitNote::AcceptorVoted {
            ballot: Ballot::ZERO,
            votes,
        });
        for to in tx.learners() {
            ctx.send(
                to,
                CommitMsg::Phase2b {
                    ballot: Ballot::ZERO,
                    votes,
                },
            );
        }
    }

    pub fn on_crash(&mut self) {
        self.held = Votes::default();
    }

    /// Its vote in `rm`'s instance, if any.
    pub fn vote(&self, rm: NodeId) -> Option<RmVote> {
        self.last.get(rm.index()).copied().flatten().map(|r| r.vote)
    }
}
