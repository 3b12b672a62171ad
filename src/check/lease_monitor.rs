//! Lease and fencing invariants (work in progress).

use super::Finding;
use crate::protocol::lease::{LeaseMsg, LeaseNode, LeaseNote};
use crate::sim::{NodeId, SimTime};

#[derive(Clone, Debug, Default)]
pub struct LeaseMonitor;

impl LeaseMonitor {
    pub fn on_send(&mut self, _now: SimTime, _from: NodeId, _to: NodeId, _m: &LeaseMsg, _found: &mut Vec<Finding>) {}
    pub fn on_note(&mut self, _now: SimTime, _node: NodeId, _n: &LeaseNote, _found: &mut Vec<Finding>) {}
    pub fn after_step(&mut self, _now: SimTime, _node: NodeId, _s: &LeaseNode, _found: &mut Vec<Finding>) {}
}
