//! Ballot numbers and quorum sets, shared by the protocols built on Paxos
//! (the Synod, Multi-Paxos).

use crate::sim::NodeId;
use std::fmt;

/// A ballot number `(round, node)`. Ordered by round, then by node, so that
/// two proposers can never use the same number (B1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ballot {
    pub round: u32,
    pub node: NodeId,
}

impl fmt::Display for Ballot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.round, self.node.0)
    }
}

/// Members of a quorum, as a bit set of node indices.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Members(pub u64);

impl Members {
    pub fn insert(&mut self, n: NodeId) {
        self.0 |= 1u64 << n.index();
    }
    pub fn contains(self, n: NodeId) -> bool {
        self.0 & (1u64 << n.index()) != 0
    }
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn iter(self) -> impl Iterator<Item = NodeId> {
        (0..64u8)
            .filter(move |i| self.0 & (1u64 << i) != 0)
            .map(NodeId)
    }
}
