//! What the simulator records: one event per thing that happened, in order.
//!
//! The events are generic over the protocol (`P`: its messages, timers,
//! notes and commands) and over the invariants its monitor checks (`I`). The
//! trace format (`crate::trace`) writes them as documented JSON.

use super::fault::Fault;
use super::protocol::Protocol;
use super::{MsgId, NodeId, SimTime};

/// Something the world is told to do from outside: a fault the simulator
/// carries out (crash, partition, clock jump …), or a command for the
/// protocol (propose a decree, stall an LLM answer).
#[derive(Clone, Debug, PartialEq)]
pub enum Input<P: Protocol> {
    Fault(Fault<NodeId>),
    Command(P::Command),
}

impl<P: Protocol> From<Fault<NodeId>> for Input<P> {
    fn from(f: Fault<NodeId>) -> Self {
        Input::Fault(f)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Event<P: Protocol, I> {
    pub seq: u64,
    /// True time.
    pub t: SimTime,
    /// The node the event happened at (the sender for `send`, the receiver
    /// for `deliver`/`drop`), or `NodeId::NET` for network-wide events.
    pub node: NodeId,
    pub kind: EventKind<P, I>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DropReason {
    /// The messenger was lost on the way.
    Loss,
    /// The link was cut.
    Partition,
    /// The receiver had left the chamber (crashed).
    Down,
}

impl DropReason {
    pub fn as_str(self) -> &'static str {
        match self {
            DropReason::Loss => "loss",
            DropReason::Partition => "partition",
            DropReason::Down => "down",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum EventKind<P: Protocol, I> {
    Send {
        id: MsgId,
        to: NodeId,
        msg: P::Msg,
    },
    Deliver {
        id: MsgId,
        from: NodeId,
        msg: P::Msg,
    },
    Drop {
        id: MsgId,
        from: NodeId,
        to: NodeId,
        msg: P::Msg,
        reason: DropReason,
    },
    Duplicate {
        id: MsgId,
        of: MsgId,
        to: NodeId,
        msg: P::Msg,
    },
    Timer {
        timer: P::Timer,
    },
    /// A fault the simulator carried out.
    Fault {
        fault: Fault<NodeId>,
    },
    /// A command handed to the protocol.
    Command {
        command: P::Command,
    },
    /// A paused node wakes up.
    Resume,
    /// Something a protocol role wants on the record (learned a value, chose
    /// a value freely or forced, was granted a lease …), or a fact a monitor
    /// derived (a value became chosen, a split brain began).
    Note(P::Note),
    /// An invariant monitor saw a broken rule.
    Violation {
        invariant: I,
        detail: String,
    },
    /// An event of a kind this version does not know (another tool's, or a
    /// hand-made trace): kept and shown as it was written.
    Foreign {
        kind: String,
        detail: String,
    },
}

impl<P: Protocol, I> EventKind<P, I> {
    /// The message this event carries, if any, with its id and endpoints.
    pub fn message(&self, node: NodeId) -> Option<(MsgId, NodeId, NodeId, &P::Msg)> {
        match self {
            EventKind::Send { id, to, msg } => Some((*id, node, *to, msg)),
            EventKind::Deliver { id, from, msg } => Some((*id, *from, node, msg)),
            EventKind::Drop {
                id, from, to, msg, ..
            } => Some((*id, *from, *to, msg)),
            EventKind::Duplicate { id, to, msg, .. } => Some((*id, node, *to, msg)),
            _ => None,
        }
    }
}
