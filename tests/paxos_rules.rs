//! One test per rule of the paper, driving the sans-IO roles by hand — the
//! way raft-rs's `test_raft_paper.rs` tests Raft.

use paxos_island::protocol::paxos::{
    Ballot, Choice, PaxosMsg, PaxosMutation, PaxosNode, PaxosNote, PaxosTimer, Phase, Proposer,
    Synod, Vote,
};
use paxos_island::protocol::Value;
use paxos_island::sim::rng::{Rng, Stream};
use paxos_island::sim::{Ctx, NodeId, SimDuration, SimTime};
use std::sync::Arc;

const A: NodeId = NodeId(0);
const B: NodeId = NodeId(1);
const G: NodeId = NodeId(2);
const D: NodeId = NodeId(3);
const E: NodeId = NodeId(4);

fn v(s: &str) -> Value {
    Value::new(s).unwrap()
}
fn b(round: u32, node: NodeId) -> Ballot {
    Ballot { round, node }
}

type Output = paxos_island::sim::Output<PaxosNode>;

fn synod(backoff: bool) -> Arc<Synod> {
    synod_with(backoff, None)
}

fn synod_with(backoff: bool, mutation: Option<PaxosMutation>) -> Arc<Synod> {
    let all: Vec<NodeId> = (0..5).map(NodeId).collect();
    Arc::new(Synod {
        acceptors: all.clone(),
        everyone: all.clone(),
        learners: all,
        quorum: 3,
        timeout: SimDuration::from_ms(500),
        backoff,
        leader: None,
        learn_from_votes: false,
        mutation,
    })
}

/// A legislator playing the given roles, with a proposer for `value`.
fn legislator(acceptor: bool, value: Option<&str>, learner: bool) -> PaxosNode {
    PaxosNode::new(
        synod(true),
        acceptor,
        value.map(|x| Proposer::new(v(x), SimDuration::ZERO)),
        learner,
    )
}

/// Run one handler as node `me` and return what it asked for.
fn step(me: NodeId, f: impl FnOnce(&mut Ctx<PaxosNode>)) -> Vec<Output> {
    let mut rng = Rng::new(1, Stream::Timers);
    let mut out = Vec::new();
    let mut ctx = Ctx::new(me, SimTime::from_ms(10), &mut rng, &mut out);
    f(&mut ctx);
    out
}

fn sends(out: &[Output]) -> Vec<(NodeId, PaxosMsg)> {
    out.iter()
        .filter_map(|o| match o {
            Output::Send(to, m) => Some((*to, *m)),
            _ => None,
        })
        .collect()
}

fn notes(out: &[Output]) -> Vec<PaxosNote> {
    out.iter()
        .filter_map(|o| match o {
            Output::Note(n) => Some(n.clone()),
            _ => None,
        })
        .collect()
}

fn deliver(node: &mut PaxosNode, me: NodeId, from: NodeId, m: PaxosMsg) -> Vec<Output> {
    step(me, |ctx| node.on_message(from, m, ctx))
}

/// Start node `me`'s proposer: it runs phase 1a at once.
fn start(node: &mut PaxosNode, me: NodeId) -> Vec<Output> {
    step(me, |ctx| node.on_timer(PaxosTimer::Start, ctx))
}

#[test]
fn phase_1a_prepare_goes_to_every_acceptor_with_a_fresh_ballot() {
    let mut p = legislator(false, Some("α"), false);
    let out = start(&mut p, G);
    let s = sends(&out);
    assert_eq!(s.len(), 5);
    assert!(s
        .iter()
        .all(|(_, m)| *m == PaxosMsg::Prepare { ballot: b(1, G) }));
    assert_eq!(
        p.proposer.as_ref().unwrap().last_tried,
        1,
        "lastTried is recorded before sending"
    );
}

#[test]
fn b1_distinct_proposers_use_distinct_ballots() {
    let mut p = legislator(false, Some("α"), false);
    let mut q = legislator(false, Some("β"), false);
    let bp = sends(&start(&mut p, A))[0].1.ballot();
    let bq = sends(&start(&mut q, B))[0].1.ballot();
    assert_eq!(bp.round, bq.round);
    assert_ne!(bp, bq, "same round, different node: different ballots");
}

#[test]
fn phase_1b_promise_carries_the_last_vote() {
    let mut a = legislator(true, None, false);
    deliver(
        &mut a,
        D,
        B,
        PaxosMsg::Accept {
            ballot: b(5, B),
            value: v("β"),
        },
    );
    let out = deliver(&mut a, D, E, PaxosMsg::Prepare { ballot: b(14, E) });
    assert_eq!(
        sends(&out),
        vec![(
            E,
            PaxosMsg::Promise {
                ballot: b(14, E),
                last_vote: Some(Vote {
                    ballot: b(5, B),
                    value: v("β")
                })
            }
        )]
    );
}

#[test]
fn p1a_an_acceptor_ignores_a_prepare_below_its_promise() {
    let mut a = legislator(true, None, false);
    deliver(&mut a, D, E, PaxosMsg::Prepare { ballot: b(14, E) });
    let out = deliver(&mut a, D, B, PaxosMsg::Prepare { ballot: b(5, B) });
    assert!(sends(&out).is_empty(), "no promise below maxBal");
    assert!(matches!(notes(&out)[..], [PaxosNote::Ignored { .. }]));
    assert_eq!(a.acceptor.unwrap().max_bal, Some(b(14, E)));
}

#[test]
fn p1a_an_acceptor_refuses_to_vote_below_its_promise() {
    let mut a = legislator(true, None, false);
    deliver(&mut a, D, E, PaxosMsg::Prepare { ballot: b(14, E) });
    let out = deliver(
        &mut a,
        D,
        B,
        PaxosMsg::Accept {
            ballot: b(5, B),
            value: v("β"),
        },
    );
    assert!(sends(&out).is_empty());
    assert_eq!(a.acceptor.as_ref().unwrap().max_vbal, None);
}

#[test]
fn p1_an_acceptor_accepts_the_first_proposal_it_receives() {
    let mut a = legislator(true, None, false);
    let out = deliver(
        &mut a,
        D,
        B,
        PaxosMsg::Accept {
            ballot: b(5, B),
            value: v("β"),
        },
    );
    assert_eq!(
        sends(&out),
        vec![(
            B,
            PaxosMsg::Accepted {
                ballot: b(5, B),
                value: v("β")
            }
        )]
    );
    let acc = a.acceptor.unwrap();
    assert_eq!(
        (acc.max_bal, acc.max_vbal, acc.max_val),
        (Some(b(5, B)), Some(b(5, B)), Some(v("β")))
    );
}

#[test]
fn a_duplicated_prepare_gets_the_same_promise_again() {
    let mut a = legislator(true, None, false);
    let first = deliver(&mut a, D, E, PaxosMsg::Prepare { ballot: b(3, E) });
    let again = deliver(&mut a, D, E, PaxosMsg::Prepare { ballot: b(3, E) });
    assert_eq!(sends(&first), sends(&again));
}

#[test]
fn stable_storage_the_acceptor_writes_its_ledger_before_it_replies() {
    let mut a = legislator(true, None, false);
    let out = deliver(
        &mut a,
        D,
        B,
        PaxosMsg::Accept {
            ballot: b(5, B),
            value: v("β"),
        },
    );
    let ledger = out
        .iter()
        .position(|o| matches!(o, Output::Note(PaxosNote::Ledger { .. })));
    let reply = out.iter().position(|o| matches!(o, Output::Send(..)));
    assert!(ledger.unwrap() < reply.unwrap());
}

#[test]
fn stable_storage_survives_a_crash_and_restart() {
    let mut a = legislator(true, Some("δ"), true);
    deliver(
        &mut a,
        D,
        B,
        PaxosMsg::Accept {
            ballot: b(5, B),
            value: v("β"),
        },
    );
    deliver(&mut a, D, E, PaxosMsg::Prepare { ballot: b(9, E) });
    start(&mut a, D);
    a.on_crash();
    step(D, |ctx| a.on_restart(ctx));
    let acc = a.acceptor.as_ref().unwrap();
    assert_eq!(acc.max_bal, Some(b(9, E)), "promise kept");
    assert_eq!(
        acc.last_vote(),
        Some(Vote {
            ballot: b(5, B),
            value: v("β")
        }),
        "vote kept"
    );
    let p = a.proposer.as_ref().unwrap();
    assert_eq!(p.phase, Phase::Idle, "the proposer's pencil slips are gone");
    assert!(p.last_tried >= 1, "lastTried is stable");
}

#[test]
fn forget_on_restart_mutation_loses_the_ledger() {
    let mut a = PaxosNode::new(
        synod_with(true, Some(PaxosMutation::ForgetOnRestart)),
        true,
        None,
        false,
    );
    deliver(&mut a, D, E, PaxosMsg::Prepare { ballot: b(9, E) });
    a.on_crash();
    step(D, |ctx| a.on_restart(ctx));
    assert_eq!(a.acceptor.unwrap().max_bal, None);
}

#[test]
fn a_proposer_never_reuses_a_round_after_a_restart() {
    let mut p = legislator(false, Some("α"), false);
    start(&mut p, A);
    p.on_crash();
    step(A, |ctx| p.on_restart(ctx));
    let out = start(&mut p, A);
    assert_eq!(sends(&out)[0].1.ballot(), b(2, A));
}

/// Phase 1 of proposer Ε in ballot 14 with the given promises.
fn phase_2a_after(
    promises: &[(NodeId, Option<Vote>)],
    mutation: Option<PaxosMutation>,
) -> (Vec<Output>, PaxosNode) {
    let s = synod_with(true, mutation);
    let mut p = PaxosNode::new(
        s,
        false,
        Some(Proposer::new(v("ε"), SimDuration::ZERO)),
        false,
    );
    start(&mut p, E);
    // Bring it to round 14, as in Lamport's figure.
    p.proposer.as_mut().unwrap().phase = Phase::Preparing {
        ballot: b(14, E),
        promises: Default::default(),
    };
    let mut last = Vec::new();
    for &(from, vote) in promises {
        last = step(E, |ctx| {
            p.on_message(
                from,
                PaxosMsg::Promise {
                    ballot: b(14, E),
                    last_vote: vote,
                },
                ctx,
            )
        });
    }
    (last, p)
}

#[test]
fn b3_free_when_no_member_of_the_quorum_has_voted() {
    let (out, _) = phase_2a_after(&[(B, None), (D, None), (E, None)], None);
    assert!(notes(&out).contains(&PaxosNote::ValuePicked {
        ballot: b(14, E),
        value: v("ε"),
        choice: Choice::Free
    }));
    assert!(sends(&out).iter().all(|(_, m)| *m
        == PaxosMsg::Accept {
            ballot: b(14, E),
            value: v("ε")
        }));
}

#[test]
fn b3_p2c_forced_to_the_decree_of_the_highest_numbered_vote() {
    // Lamport's ballot 27: Γ's vote in 5 (β) is later than Δ's in 2 (α): β.
    let promises = [
        (A, None),
        (
            G,
            Some(Vote {
                ballot: b(5, G),
                value: v("β"),
            }),
        ),
        (
            D,
            Some(Vote {
                ballot: b(2, D),
                value: v("α"),
            }),
        ),
    ];
    let (out, p) = phase_2a_after(&promises, None);
    assert!(notes(&out).contains(&PaxosNote::ValuePicked {
        ballot: b(14, E),
        value: v("β"),
        choice: Choice::Forced {
            by: b(5, G),
            voter: G
        }
    }));
    assert!(matches!(p.proposer.unwrap().phase, Phase::Accepting { value, .. } if value == v("β")));
}

/// The vote that forces the decree is the *highest*-numbered one, wherever it
/// stands in the list: here the first vote reported (Β's, ballot 2) is not it.
#[test]
fn b3_the_highest_vote_wins_even_when_a_lower_one_comes_first() {
    let promises = [
        (
            B,
            Some(Vote {
                ballot: b(2, B),
                value: v("α"),
            }),
        ),
        (
            G,
            Some(Vote {
                ballot: b(5, G),
                value: v("β"),
            }),
        ),
        (D, None),
    ];
    let (out, _) = phase_2a_after(&promises, None);
    assert!(sends(&out).iter().all(|(_, m)| m.value() == Some(v("β"))));
    let (out, _) = phase_2a_after(&promises, Some(PaxosMutation::PickFirstVote));
    assert!(
        sends(&out).iter().all(|(_, m)| m.value() == Some(v("α"))),
        "the pick-first-vote mutation takes Β's lower vote"
    );
    // Its note says so: not "forced by the highest vote".
    assert!(notes(&out).contains(&PaxosNote::ValuePicked {
        ballot: b(14, E),
        value: v("α"),
        choice: Choice::NotHighest {
            by: b(2, B),
            voter: B,
            highest: b(5, G)
        }
    }));
}

#[test]
fn skip_b3_mutation_proposes_its_own_decree_regardless() {
    let promises = [
        (A, None),
        (
            G,
            Some(Vote {
                ballot: b(5, G),
                value: v("β"),
            }),
        ),
        (D, None),
    ];
    let (out, _) = phase_2a_after(&promises, Some(PaxosMutation::SkipB3));
    assert!(sends(&out).iter().all(|(_, m)| m.value() == Some(v("ε"))));
    // Its note says the votes reported were ignored (it said "free: nobody
    // in the quorum has voted", which the promises on screen contradict).
    assert!(notes(&out).contains(&PaxosNote::ValuePicked {
        ballot: b(14, E),
        value: v("ε"),
        choice: Choice::Ignored {
            by: b(5, G),
            voter: G
        }
    }));
    let (out, _) = phase_2a_after(
        &[(A, None), (G, None), (D, None)],
        Some(PaxosMutation::SkipB3),
    );
    assert!(notes(&out).iter().any(|n| matches!(
        n,
        PaxosNote::ValuePicked {
            choice: Choice::Free,
            ..
        }
    )));
}

#[test]
fn b2_no_phase_2a_before_a_majority_has_promised() {
    let (out, p) = phase_2a_after(&[(B, None), (D, None)], None);
    assert!(sends(&out).is_empty(), "two of five is not a quorum");
    assert!(matches!(p.proposer.unwrap().phase, Phase::Preparing { .. }));
}

#[test]
fn minority_quorum_mutation_proceeds_with_two_of_five() {
    let (out, _) = phase_2a_after(&[(B, None), (D, None)], Some(PaxosMutation::MinorityQuorum));
    assert_eq!(sends(&out).len(), 5);
}

#[test]
fn duplicated_promises_from_one_acceptor_count_once() {
    let (out, _) = phase_2a_after(&[(B, None), (B, None), (B, None)], None);
    assert!(sends(&out).is_empty());
}

#[test]
fn phase_3_success_is_announced_after_a_quorum_of_votes() {
    let (_, mut p) = phase_2a_after(&[(B, None), (D, None), (E, None)], None);
    let mut outs = Vec::new();
    for from in [B, D, E] {
        outs = deliver(
            &mut p,
            E,
            from,
            PaxosMsg::Accepted {
                ballot: b(14, E),
                value: v("ε"),
            },
        );
    }
    let decided: Vec<_> = sends(&outs)
        .into_iter()
        .filter(|(_, m)| matches!(m, PaxosMsg::Decided { .. }))
        .collect();
    assert_eq!(decided.len(), 5, "everyone hears the success");
}

#[test]
fn a_learner_learns_from_a_quorum_of_accepted_and_never_changes_its_ink() {
    let s = Arc::new(Synod {
        learn_from_votes: true,
        ..(*synod(true)).clone()
    });
    let mut l = PaxosNode::new(s, false, None, true);
    for from in [A, B] {
        let out = deliver(
            &mut l,
            G,
            from,
            PaxosMsg::Accepted {
                ballot: b(3, A),
                value: v("α"),
            },
        );
        assert!(notes(&out).is_empty());
    }
    let out = deliver(
        &mut l,
        G,
        D,
        PaxosMsg::Accepted {
            ballot: b(3, A),
            value: v("α"),
        },
    );
    assert_eq!(
        notes(&out),
        vec![PaxosNote::Learned {
            ballot: b(3, A),
            value: v("α")
        }]
    );
    let out = deliver(
        &mut l,
        G,
        E,
        PaxosMsg::Decided {
            ballot: b(9, E),
            value: v("ε"),
        },
    );
    assert!(matches!(notes(&out)[..], [PaxosNote::LearnConflict { .. }]));
    assert_eq!(l.learned(), Some(v("α")));
}

#[test]
fn a_proposer_that_sees_a_higher_ballot_gives_its_own_up() {
    // Without backoff it retries at once with a higher round: dueling.
    let mut p = PaxosNode::new(
        synod(false),
        true,
        Some(Proposer::new(v("α"), SimDuration::ZERO)),
        false,
    );
    start(&mut p, A);
    let out = deliver(&mut p, A, B, PaxosMsg::Prepare { ballot: b(1, B) });
    assert!(notes(&out)
        .iter()
        .any(|n| matches!(n, PaxosNote::Preempted { .. })));
    assert!(sends(&out)
        .iter()
        .any(|(_, m)| *m == PaxosMsg::Prepare { ballot: b(2, A) }));
}

#[test]
fn with_backoff_a_preempted_proposer_waits_a_random_while() {
    let mut p = PaxosNode::new(
        synod(true),
        true,
        Some(Proposer::new(v("α"), SimDuration::ZERO)),
        false,
    );
    start(&mut p, A);
    let out = deliver(&mut p, A, B, PaxosMsg::Prepare { ballot: b(1, B) });
    assert!(out
        .iter()
        .any(|o| matches!(o, Output::SetTimer(PaxosTimer::Backoff, _))));
    assert!(!sends(&out)
        .iter()
        .any(|(_, m)| matches!(m, PaxosMsg::Prepare { .. })));
}
