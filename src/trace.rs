//! The trace: every step of a run, in order, as data.
//!
//! In memory a trace is a `Vec<TraceEvent>` of compact, `Copy`-friendly
//! values (node ids, interned decrees). `trace::json` turns it into the
//! documented, versioned JSON format (`docs/trace-format.md`) with names, and
//! back. The trace hash is an FNV-1a hash of that canonical JSON, so "the same
//! trace" means the same bytes natively and in the browser.

pub mod decode;
pub mod import;
pub mod json;
pub mod label;
pub mod mermaid;
pub mod share;
pub mod shiviz;
pub mod svg;

use crate::check::Invariant;
use crate::protocol::{Msg, Note, Timer};
use crate::sim::fault::Fault;
use crate::sim::{MsgId, NodeId, SimTime};

#[derive(Clone, Debug, PartialEq)]
pub struct TraceEvent {
    pub seq: u64,
    /// True time.
    pub t: SimTime,
    /// The node the event happened at (the sender for `send`, the receiver
    /// for `deliver`/`drop`), or `NodeId::NET` for network-wide events.
    pub node: NodeId,
    pub kind: EventKind,
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
pub enum EventKind {
    Send { id: MsgId, to: NodeId, msg: Msg },
    Deliver { id: MsgId, from: NodeId, msg: Msg },
    Drop { id: MsgId, from: NodeId, to: NodeId, msg: Msg, reason: DropReason },
    Duplicate { id: MsgId, of: MsgId, to: NodeId, msg: Msg },
    Timer { timer: Timer },
    Fault { fault: Fault<NodeId> },
    /// A paused node wakes up.
    Resume,
    /// Something a protocol role wants on the record (learned a value, chose
    /// a value freely or forced, was granted a lease …).
    Note(Note),
    /// An invariant monitor saw a broken rule.
    Violation { invariant: Invariant, detail: String },
    /// An event of a kind this version does not know (another tool's, or a
    /// hand-made trace): kept and shown as it was written.
    Foreign { kind: String, detail: String },
}

impl EventKind {
    /// The message this event carries, if any, with its id and endpoints.
    pub fn message(&self, node: NodeId) -> Option<(MsgId, NodeId, NodeId, &Msg)> {
        match self {
            EventKind::Send { id, to, msg } => Some((*id, node, *to, msg)),
            EventKind::Deliver { id, from, msg } => Some((*id, *from, node, msg)),
            EventKind::Drop { id, from, to, msg, .. } => Some((*id, *from, *to, msg)),
            EventKind::Duplicate { id, to, msg, .. } => Some((*id, node, *to, msg)),
            _ => None,
        }
    }
}

/// FNV-1a, 64 bit: tiny, pinned, the same everywhere.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

pub fn hex_hash(h: u64) -> String {
    format!("{h:016x}")
}
