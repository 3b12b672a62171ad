//! Per-rule tests of the two protocols live in tests/commit_rules.rs; these
//! check the small data types they are built from.

use super::*;

const R0: NodeId = NodeId(0);
const R1: NodeId = NodeId(1);
const R2: NodeId = NodeId(2);

#[test]
fn votes_keep_one_value_per_instance() {
    let mut v = Votes::default();
    v.set(R0, RmVote::Prepared);
    v.set(R2, RmVote::Aborted);
    assert_eq!(v.get(R0), Some(RmVote::Prepared));
    assert_eq!(v.get(R1), None);
    assert_eq!(v.get(R2), Some(RmVote::Aborted));
    assert!(v.any_aborted());
    v.set(R2, RmVote::Prepared);
    assert!(!v.any_aborted());
    assert_eq!(
        v.iter().collect::<Vec<_>>(),
        vec![(R0, RmVote::Prepared), (R2, RmVote::Prepared)]
    );
}

#[test]
fn last_votes_follow_the_order_of_their_set() {
    let rms = RmSet::of(&[R2, R0]);
    let r = Report {
        ballot: Ballot::ZERO,
        vote: RmVote::Prepared,
    };
    let l = LastVotes::collect(rms, |n| (n == R2).then_some(r));
    assert_eq!(l.get(rms, R0), None);
    assert_eq!(l.get(rms, R2), Some(r));
    assert_eq!(l.get(rms, R1), None);
}

#[test]
fn a_tally_chooses_with_f_plus_one_votes_in_one_ballot() {
    let b1 = Ballot {
        round: 1,
        node: NodeId(4),
    };
    let mut t = Tally::default();
    t.add(0, Ballot::ZERO, Votes::one(R0, RmVote::Prepared));
    assert_eq!(t.chosen(R0, 2), None);
    // Votes of different ballots do not add up.
    t.add(1, b1, Votes::one(R0, RmVote::Prepared));
    assert_eq!(t.chosen(R0, 2), None);
    t.add(1, Ballot::ZERO, Votes::one(R0, RmVote::Prepared));
    assert_eq!(t.chosen(R0, 2), Some(RmVote::Prepared));
    assert_eq!(t.outcome(&[R0, R1], 2), None, "R1's instance is still open");
    t.add(0, b1, Votes::one(R1, RmVote::Aborted));
    t.add(2, b1, Votes::one(R1, RmVote::Aborted));
    assert_eq!(t.outcome(&[R0, R1], 2), Some(Outcome::Abort));
}

#[test]
fn ballot_zero_is_below_every_coordinator_ballot() {
    assert!(
        Ballot::ZERO
            < Ballot {
                round: 1,
                node: NodeId(0)
            }
    );
    assert!(
        Ballot {
            round: 1,
            node: NodeId(3)
        } < Ballot {
            round: 2,
            node: NodeId(0)
        }
    );
}
