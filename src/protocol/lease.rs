//! Leases, fencing tokens and the LLM-in-the-loop stall (work in progress).

use crate::sim::fault::Fault;
use crate::sim::{Ctx, NodeId};

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum LeaseMsg {}

#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LeaseTimer {}

#[derive(Clone, Debug, PartialEq)]
pub enum LeaseNote {}

#[derive(Clone, Debug, PartialEq)]
pub struct LeaseNode;

impl LeaseNode {
    pub fn on_start(&mut self, _ctx: &mut Ctx) {}
    pub fn on_message(&mut self, _from: NodeId, _m: LeaseMsg, _ctx: &mut Ctx) {}
    pub fn on_timer(&mut self, _t: LeaseTimer, _ctx: &mut Ctx) {}
    pub fn on_crash(&mut self) {}
    pub fn on_restart(&mut self, _ctx: &mut Ctx) {}
    pub fn on_command(&mut self, _f: &Fault<NodeId>, _ctx: &mut Ctx) -> bool {
        false
    }
}

/// Trace encoding of the lease messages, timers and notes.
pub mod trace {
    use super::{LeaseMsg, LeaseNote, LeaseTimer};
    use crate::trace::json::Namer;
    use serde_json::{Map, Value as J};

    pub fn msg_fields(_n: &Namer, m: &LeaseMsg, _out: &mut Map<String, J>) {
        match *m {}
    }
    pub fn timer_name(t: &LeaseTimer) -> &'static str {
        match *t {}
    }
    pub fn note_fields(_n: &Namer, note: &LeaseNote, _out: &mut Map<String, J>) -> &'static str {
        match *note {}
    }
}
