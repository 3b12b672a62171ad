//! The protocols that run on the simulator, as sans-IO state machines.
//!
//! Each node of a scenario is one `NodeState`. The simulator hands it inputs
//! (`on_message`, `on_timer`, a crash, a restart, an injected command) and a
//! [`Ctx`](crate::sim::Ctx) to put its outputs in; the node never touches a
//! clock, a socket or a random generator of its own.
//!
//! - [`paxos`]: Lamport's single-decree Paxos (the Synod): proposer, acceptor
//!   and learner roles, any of which one legislator may play.
//! - [`lease`]: the lease loop of the article — a lease store with one
//!   compare-and-set row, workers that renew it, fenced storage, and an LLM
//!   advisor service that is slow, flaky and sometimes inside the loop.

pub mod lease;
pub mod llm;
pub mod paxos;
pub mod storage;
pub mod value;

use crate::sim::fault::Fault;
use crate::sim::{Ctx, NodeId};

pub use value::Value;

/// A message on the wire.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Msg {
    Paxos(paxos::PaxosMsg),
    Lease(lease::LeaseMsg),
}

/// A timer a node can set on its own (local) clock.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Timer {
    Paxos(paxos::PaxosTimer),
    Lease(lease::LeaseTimer),
}

/// A fact a role puts on the record.
#[derive(Clone, Debug, PartialEq)]
pub enum Note {
    Paxos(paxos::PaxosNote),
    Lease(lease::LeaseNote),
}

impl Timer {
    /// The trace's `timer` field.
    pub fn type_name(&self) -> &'static str {
        match self {
            Timer::Paxos(t) => t.type_name(),
            Timer::Lease(t) => t.type_name(),
        }
    }
}

impl Note {
    /// The trace's `kind` field.
    pub fn type_name(&self) -> &'static str {
        match self {
            Note::Paxos(n) => n.type_name(),
            Note::Lease(n) => n.type_name(),
        }
    }
}

/// One node of the simulation.
#[derive(Clone, Debug, PartialEq)]
pub enum NodeState {
    Paxos(paxos::PaxosNode),
    Lease(lease::LeaseNode),
}

impl NodeState {
    pub fn on_start(&mut self, ctx: &mut Ctx) {
        match self {
            NodeState::Paxos(n) => n.on_start(ctx),
            NodeState::Lease(n) => n.on_start(ctx),
        }
    }
    pub fn on_message(&mut self, from: NodeId, msg: Msg, ctx: &mut Ctx) {
        match (self, msg) {
            (NodeState::Paxos(n), Msg::Paxos(m)) => n.on_message(from, m, ctx),
            (NodeState::Lease(n), Msg::Lease(m)) => n.on_message(from, m, ctx),
            _ => {} // a message of another protocol: not for this node
        }
    }
    pub fn on_timer(&mut self, timer: Timer, ctx: &mut Ctx) {
        match (self, timer) {
            (NodeState::Paxos(n), Timer::Paxos(t)) => n.on_timer(t, ctx),
            (NodeState::Lease(n), Timer::Lease(t)) => n.on_timer(t, ctx),
            _ => {}
        }
    }
    /// The process dies: keep stable storage, lose the rest.
    pub fn on_crash(&mut self) {
        match self {
            NodeState::Paxos(n) => n.on_crash(),
            NodeState::Lease(n) => n.on_crash(),
        }
    }
    pub fn on_restart(&mut self, ctx: &mut Ctx) {
        match self {
            NodeState::Paxos(n) => n.on_restart(ctx),
            NodeState::Lease(n) => n.on_restart(ctx),
        }
    }
    /// A protocol-level command (a new proposal, an LLM stall). Returns true
    /// if this node acted on it.
    pub fn on_command(&mut self, fault: &Fault<NodeId>, ctx: &mut Ctx) -> bool {
        match self {
            NodeState::Paxos(n) => n.on_command(fault, ctx),
            NodeState::Lease(n) => n.on_command(fault, ctx),
        }
    }

    pub fn as_paxos(&self) -> Option<&paxos::PaxosNode> {
        match self {
            NodeState::Paxos(n) => Some(n),
            _ => None,
        }
    }
    pub fn as_lease(&self) -> Option<&lease::LeaseNode> {
        match self {
            NodeState::Lease(n) => Some(n),
            _ => None,
        }
    }
}

macro_rules! wrap_into {
    ($outer:ident :: $variant:ident, $inner:ty) => {
        impl From<$inner> for $outer {
            fn from(x: $inner) -> $outer {
                $outer::$variant(x)
            }
        }
    };
}
wrap_into!(Msg::Paxos, paxos::PaxosMsg);
wrap_into!(Msg::Lease, lease::LeaseMsg);
wrap_into!(Timer::Paxos, paxos::PaxosTimer);
wrap_into!(Timer::Lease, lease::LeaseTimer);
wrap_into!(Note::Paxos, paxos::PaxosNote);
wrap_into!(Note::Lease, lease::LeaseNote);
