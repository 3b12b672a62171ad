//! The acceptor: a priest with a ledger.
//!
//! Its three fields are stable storage — ink, not pencil: `max_bal` is the
//! highest ballot it has promised (maxBal / nextBal in the paper), `max_vbal`
//! and `max_val` its last vote (maxVBal, maxVal / prevVote). It updates them
//! *before* it replies (in this model a handler's state change is durable the
//! moment the handler returns, and replies leave after that), and a crash
//! does not erase them — unless the `forget-on-restart` mutation is on, which
//! is exactly the bug that breaks Paxos.

use super::PaxosNode;
use super::{Ballot, PaxosMsg, PaxosNote, Vote};
use crate::protocol::value::Value;
use crate::sim::{Ctx, Hosts, NodeId};

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Acceptor {
    /// maxBal: the highest ballot promised (1b) or voted in (2b).
    pub max_bal: Option<Ballot>,
    /// maxVBal: the ballot of the last vote.
    pub max_vbal: Option<Ballot>,
    /// maxVal: the decree of the last vote.
    pub max_val: Option<Value>,
}

impl Acceptor {
    pub fn last_vote(&self) -> Option<Vote> {
        match (self.max_vbal, self.max_val) {
            (Some(ballot), Some(value)) => Some(Vote { ballot, value }),
            _ => None,
        }
    }

    /// P1a: may this acceptor take part in ballot `b`? Only if it has not
    /// promised a higher one.
    pub fn allows(&self, b: Ballot) -> bool {
        self.max_bal.is_none_or(|m| b >= m)
    }

    /// Phase 1b. A prepare at or above the promise is answered (at, so that a
    /// duplicated prepare gets the same answer again) with a promise carrying
    /// the last vote; a lower one is ignored.
    pub fn on_prepare<H: Hosts<PaxosNode>>(
        &mut self,
        from: NodeId,
        ballot: Ballot,
        ctx: &mut Ctx<PaxosNode, H>,
    ) {
        if !self.allows(ballot) {
            ctx.note(PaxosNote::Ignored {
                ballot,
                promised: self.max_bal.unwrap_or(ballot),
                phase: "1a",
            });
            return;
        }
        if self.max_bal != Some(ballot) {
            self.max_bal = Some(ballot);
            self.note_ledger(ctx);
        }
        ctx.send(
            from,
            PaxosMsg::Promise {
                ballot,
                last_vote: self.last_vote(),
            },
        );
    }

    /// Phase 2b. Vote for `(ballot, value)` unless a higher ballot has been
    /// promised (P1a). The vote is written before `Accepted` is sent.
    /// `break_promise` is the `accept-lower-ballot` mutation.
    pub fn on_accept<H: Hosts<PaxosNode>>(
        &mut self,
        from: NodeId,
        ballot: Ballot,
        value: Value,
        learners: &[NodeId],
        break_promise: bool,
        ctx: &mut Ctx<PaxosNode, H>,
    ) {
        if !self.allows(ballot) {
            if !break_promise {
                ctx.note(PaxosNote::Ignored {
                    ballot,
                    promised: self.max_bal.unwrap_or(ballot),
                    phase: "2a",
                });
                return;
            }
            // Broken on purpose: vote anyway, breaking the promise.
        } else {
            self.max_bal = Some(ballot);
        }
        self.max_vbal = Some(ballot);
        self.max_val = Some(value);
        self.note_ledger(ctx);
        ctx.send(from, PaxosMsg::Accepted { ballot, value });
        for &l in learners {
            if l != from {
                ctx.send(l, PaxosMsg::Accepted { ballot, value });
            }
        }
    }

    /// `forget` is the `forget-on-restart` mutation.
    pub fn on_restart<H: Hosts<PaxosNode>>(&mut self, forget: bool, ctx: &mut Ctx<PaxosNode, H>) {
        if forget {
            // Broken on purpose: the ledger was kept in pencil.
            *self = Acceptor::default();
            self.note_ledger(ctx);
        }
    }

    fn note_ledger<H: Hosts<PaxosNode>>(&self, ctx: &mut Ctx<PaxosNode, H>) {
        ctx.note(PaxosNote::Ledger {
            max_bal: self.max_bal,
            last_vote: self.last_vote(),
        });
    }
}
