//! The proposer: the priest who starts a ballot.
//!
//! Phase 1a sends `Prepare(b)` with a ballot above any it has tried or seen.
//! When a quorum has promised (1b), phase 2a picks the decree:
//!
//! - **forced** (B3 / P2c): some member of the quorum reported a vote; the
//!   decree must be that of the highest-numbered one;
//! - **free**: no member has voted; the proposer may use its own decree.
//!
//! With a quorum of `Accepted` (2b) the decree has passed; phase 3 announces
//! `Decided` to everyone. A phase that takes too long is abandoned for a higher
//! ballot, after a randomized backoff unless backoff is switched off — and
//! without backoff or a president, two proposers may pre-empt each other for
//! ever. Only `last_tried` (lastTried) and the decree are stable storage.

use super::{
    Ballot, Choice, Members, PaxosMsg, PaxosMutation, PaxosNode, PaxosNote, PaxosTimer, Synod, Vote,
};
use crate::protocol::value::Value;
use crate::sim::{Ctx, Hosts, NodeId, SimDuration, SimTime};
use crate::sorted::VecMap;

/// Where the proposer is (volatile: the pencil slips on its desk).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Phase {
    #[default]
    Idle,
    /// 1a sent; collecting promises (and the votes they report).
    Preparing {
        ballot: Ballot,
        promises: VecMap<NodeId, Option<Vote>>,
    },
    /// 2a sent; collecting votes.
    Accepting {
        ballot: Ballot,
        value: Value,
        choice: Choice,
        promised: Members,
        accepted: Members,
    },
    /// The decree has passed (seen by this proposer).
    Done { ballot: Ballot, value: Value },
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Proposer {
    /// The decree this proposer was asked to pass (stable).
    pub value: Value,
    /// When to make the first attempt (local time after start).
    pub start_after: SimDuration,
    /// lastTried: the highest round this proposer has used (stable).
    pub last_tried: u32,
    /// Whether it has been asked to start at all (stable).
    pub active: bool,
    /// The highest round seen from anyone (volatile).
    pub highest_seen: u32,
    /// Failed attempts in a row, for the backoff (volatile).
    pub attempts: u32,
    pub phase: Phase,
}

impl Proposer {
    pub fn new(value: Value, start_after: SimDuration) -> Self {
        Proposer {
            value,
            start_after,
            last_tried: 0,
            active: false,
            highest_seen: 0,
            attempts: 0,
            phase: Phase::Idle,
        }
    }

    pub fn ballot(&self) -> Option<Ballot> {
        match &self.phase {
            Phase::Preparing { ballot, .. } | Phase::Accepting { ballot, .. } => Some(*ballot),
            _ => None,
        }
    }

    fn is_president(synod: &Synod, me: NodeId) -> bool {
        synod.leader.is_none_or(|l| l == me)
    }

    /// Start (or restart) trying, respecting the president rule.
    pub fn begin<H: Hosts<PaxosNode>>(
        &mut self,
        learned: bool,
        synod: &Synod,
        ctx: &mut Ctx<PaxosNode, H>,
    ) {
        self.active = true;
        if learned || matches!(self.phase, Phase::Done { .. }) {
            return;
        }
        if Self::is_president(synod, ctx.me) {
            self.start_ballot(synod, ctx);
        } else {
            // Not the president: stay quiet while the president is heard.
            ctx.set_timer(PaxosTimer::LeaderWatch, synod.timeout + synod.timeout);
        }
    }

    /// Phase 1a with a fresh ballot above anything tried or seen.
    fn start_ballot<H: Hosts<PaxosNode>>(&mut self, synod: &Synod, ctx: &mut Ctx<PaxosNode, H>) {
        let round = self.last_tried.max(self.highest_seen) + 1;
        // lastTried is written to stable storage before the prepare leaves.
        self.last_tried = round;
        let ballot = Ballot {
            round,
            node: ctx.me,
        };
        self.phase = Phase::Preparing {
            ballot,
            promises: VecMap::new(),
        };
        ctx.note(PaxosNote::BallotStarted { ballot });
        for &a in &synod.acceptors {
            ctx.send(a, PaxosMsg::Prepare { ballot });
        }
        ctx.set_timer(PaxosTimer::PhaseTimeout, synod.timeout);
    }

    /// Give up the current ballot and try again later (or at once).
    fn retry<H: Hosts<PaxosNode>>(&mut self, synod: &Synod, ctx: &mut Ctx<PaxosNode, H>) {
        if synod.backoff {
            // Only the backoff reads it; without one, counting would only
            // make otherwise equal states differ (the model checker's).
            self.attempts = self.attempts.saturating_add(1);
        }
        ctx.cancel_timer(PaxosTimer::PhaseTimeout);
        if !Self::is_president(synod, ctx.me) {
            // A stand-in that lost: go back to listening for the president.
            self.phase = Phase::Idle;
            ctx.set_timer(PaxosTimer::LeaderWatch, synod.timeout + synod.timeout);
        } else if synod.backoff {
            // Randomized, growing backoff: the classic way out of a duel.
            let cap = synod.timeout.0.saturating_mul(1 << self.attempts.min(4));
            let wait = ctx.rng().range_inclusive(synod.timeout.0 / 4, cap);
            self.phase = Phase::Idle;
            ctx.set_timer(PaxosTimer::Backoff, SimDuration(wait));
        } else {
            self.start_ballot(synod, ctx);
        }
    }

    pub fn on_promise<H: Hosts<PaxosNode>>(
        &mut self,
        from: NodeId,
        ballot: Ballot,
        last_vote: Option<Vote>,
        quorum: usize,
        synod: &Synod,
        ctx: &mut Ctx<PaxosNode, H>,
    ) {
        if let Some(v) = last_vote {
            self.highest_seen = self.highest_seen.max(v.ballot.round);
        }
        let Phase::Preparing {
            ballot: mine,
            promises,
        } = &mut self.phase
        else {
            return;
        };
        if *mine != ballot {
            return; // a promise for an abandoned ballot
        }
        promises.insert(from, last_vote);
        if promises.len() < quorum {
            return;
        }
        let mut members = Members::default();
        promises.keys().for_each(|&n| members.insert(n));
        // B3 / P2c: the highest-numbered vote reported by the quorum decides.
        let votes = || {
            promises
                .iter()
                .filter_map(|(&voter, v)| v.map(|v| (v.ballot, voter, v.value)))
        };
        let highest = votes().max_by_key(|(b, _, _)| *b);
        let (value, choice) = match (synod.mutation, highest) {
            (_, None) => (self.value, Choice::Free),
            // Broken on purpose: the votes reported are ignored.
            (Some(PaxosMutation::SkipB3), Some((by, voter, _))) => {
                (self.value, Choice::Ignored { by, voter })
            }
            // Broken on purpose: the first vote in the list, not the highest.
            (Some(PaxosMutation::PickFirstVote), Some((top, top_voter, top_value))) => {
                match votes().next() {
                    Some((by, voter, value)) if by != top => (
                        value,
                        Choice::NotHighest {
                            by,
                            voter,
                            highest: top,
                        },
                    ),
                    _ => (
                        top_value,
                        Choice::Forced {
                            by: top,
                            voter: top_voter,
                        },
                    ),
                }
            }
            (_, Some((by, voter, value))) => (value, Choice::Forced { by, voter }),
        };
        ctx.note(PaxosNote::PromiseQuorum { ballot, members });
        ctx.note(PaxosNote::ValuePicked {
            ballot,
            value,
            choice,
        });
        self.phase = Phase::Accepting {
            ballot,
            value,
            choice,
            promised: members,
            accepted: Members::default(),
        };
        for &a in &synod.acceptors {
            ctx.send(a, PaxosMsg::Accept { ballot, value });
        }
        ctx.set_timer(PaxosTimer::PhaseTimeout, synod.timeout);
    }

    pub fn on_accepted<H: Hosts<PaxosNode>>(
        &mut self,
        from: NodeId,
        ballot: Ballot,
        value: Value,
        quorum: usize,
        synod: &Synod,
        ctx: &mut Ctx<PaxosNode, H>,
    ) {
        let Phase::Accepting {
            ballot: mine,
            accepted,
            ..
        } = &mut self.phase
        else {
            return;
        };
        if *mine != ballot {
            return;
        }
        accepted.insert(from);
        if accepted.len() < quorum {
            return;
        }
        let members = *accepted;
        ctx.note(PaxosNote::AcceptedQuorum {
            ballot,
            value,
            members,
        });
        self.phase = Phase::Done { ballot, value };
        self.attempts = 0;
        ctx.cancel_timer(PaxosTimer::PhaseTimeout);
        // Phase 3: tell the whole chamber.
        for &n in &synod.everyone {
            ctx.send(n, PaxosMsg::Decided { ballot, value });
        }
    }

    pub fn on_decided<H: Hosts<PaxosNode>>(
        &mut self,
        ballot: Ballot,
        value: Value,
        ctx: &mut Ctx<PaxosNode, H>,
    ) {
        if !matches!(self.phase, Phase::Done { .. }) {
            self.phase = Phase::Done { ballot, value };
            for t in [
                PaxosTimer::PhaseTimeout,
                PaxosTimer::Backoff,
                PaxosTimer::LeaderWatch,
                PaxosTimer::Start,
            ] {
                ctx.cancel_timer(t);
            }
        }
    }

    /// A ballot `seen` arrived at this node's acceptor. If it beats ours, ours
    /// cannot succeed any more: give it up now rather than wait for the timeout.
    pub fn on_seen_ballot<H: Hosts<PaxosNode>>(
        &mut self,
        seen: Ballot,
        synod: &Synod,
        ctx: &mut Ctx<PaxosNode, H>,
    ) {
        self.highest_seen = self.highest_seen.max(seen.round);
        let Some(mine) = self.ballot() else { return };
        if seen > mine {
            ctx.note(PaxosNote::Preempted {
                ballot: mine,
                by: seen,
            });
            self.retry(synod, ctx);
        }
    }

    pub fn on_timer<H: Hosts<PaxosNode>>(
        &mut self,
        t: PaxosTimer,
        learned: bool,
        heard_leader_at: SimTime,
        synod: &Synod,
        ctx: &mut Ctx<PaxosNode, H>,
    ) {
        if learned || matches!(self.phase, Phase::Done { .. }) {
            return;
        }
        match t {
            PaxosTimer::Start => self.begin(learned, synod, ctx),
            PaxosTimer::PhaseTimeout => {
                if self.ballot().is_some() {
                    self.retry(synod, ctx);
                }
            }
            PaxosTimer::Backoff => self.start_ballot(synod, ctx),
            PaxosTimer::LeaderWatch => {
                let patience = synod.timeout + synod.timeout;
                if ctx.now().since(heard_leader_at) >= patience {
                    // The president has been silent too long: act in its place
                    // (two presidents only cost progress, never safety).
                    self.start_ballot(synod, ctx);
                } else {
                    ctx.set_timer(PaxosTimer::LeaderWatch, patience);
                }
            }
        }
    }

    pub fn on_crash(&mut self) {
        self.phase = Phase::Idle;
        self.highest_seen = 0;
        self.attempts = 0;
    }

    pub fn on_restart<H: Hosts<PaxosNode>>(
        &mut self,
        learned: bool,
        synod: &Synod,
        ctx: &mut Ctx<PaxosNode, H>,
    ) {
        if self.active && !learned {
            ctx.set_timer(PaxosTimer::Start, synod.timeout);
        } else if !self.active {
            ctx.set_timer(PaxosTimer::Start, self.start_after);
        }
    }
}
