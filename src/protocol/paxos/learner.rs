//! The learner: writes the passed decree into its ledger, in ink.
//!
//! It learns from the president's `Decided` (phase 3, Success), or — when the
//! Synod is set to `learn_from_votes` — by counting a quorum of `Accepted`
//! itself. The learned decree is stable storage; the tally is pencil.

use super::PaxosNode;
use super::{Ballot, Members, PaxosNote, Vote};
use crate::protocol::value::Value;
use crate::sim::{Ctx, Hosts, NodeId};
use crate::sorted::VecMap;

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Learner {
    /// The decree in the ledger (stable).
    pub learned: Option<Vote>,
    /// Votes counted per ballot (volatile).
    pub tally: VecMap<Ballot, (Value, Members)>,
}

impl Learner {
    pub fn on_decided<H: Hosts<PaxosNode>>(
        &mut self,
        ballot: Ballot,
        value: Value,
        ctx: &mut Ctx<PaxosNode, H>,
    ) {
        self.learn(ballot, value, ctx);
    }

    pub fn on_accepted<H: Hosts<PaxosNode>>(
        &mut self,
        from: NodeId,
        ballot: Ballot,
        value: Value,
        quorum: usize,
        ctx: &mut Ctx<PaxosNode, H>,
    ) {
        let entry = self.tally.or_insert(ballot, (value, Members::default()));
        entry.1.insert(from);
        if entry.1.len() >= quorum {
            self.learn(ballot, value, ctx);
        }
    }

    fn learn<H: Hosts<PaxosNode>>(
        &mut self,
        ballot: Ballot,
        value: Value,
        ctx: &mut Ctx<PaxosNode, H>,
    ) {
        match self.learned {
            None => {
                self.learned = Some(Vote { ballot, value });
                self.tally.clear();
                ctx.note(PaxosNote::Learned { ballot, value });
            }
            Some(have) if have.value != value => {
                // Ink cannot be changed; a correct Synod never gets here.
                ctx.note(PaxosNote::LearnConflict {
                    have: have.value,
                    told: value,
                });
            }
            Some(_) => {}
        }
    }

    pub fn on_crash(&mut self) {
        self.tally.clear();
    }
}
