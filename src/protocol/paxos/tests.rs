//! Per-rule unit tests live in tests/paxos_rules.rs; this module keeps a smoke test.

use super::*;

#[test]
fn ballots_order_by_round_then_node() {
    let a = Ballot {
        round: 2,
        node: NodeId(4),
    };
    let b = Ballot {
        round: 3,
        node: NodeId(0),
    };
    let c = Ballot {
        round: 3,
        node: NodeId(1),
    };
    assert!(a < b && b < c);
}

#[test]
fn members_count_and_iterate() {
    let mut m = Members::default();
    m.insert(NodeId(0));
    m.insert(NodeId(3));
    m.insert(NodeId(3));
    assert_eq!(m.len(), 2);
    assert_eq!(m.iter().collect::<Vec<_>>(), vec![NodeId(0), NodeId(3)]);
}
