//! The trace: every step of a run, in order, as data.
//!
//! In memory a trace is a `Vec<TraceEvent>` of compact, `Copy`-friendly
//! values (node ids, interned decrees). `trace::json` turns it into the
//! documented, versioned JSON format (`docs/trace-format.md`) with names, and
//! back. The trace hash is an FNV-1a hash of that canonical JSON, so "the same
//! trace" means the same bytes natively and in the browser.

pub mod commit;
pub mod decode;
pub mod import;
pub mod json;
pub mod label;
pub mod lease;
pub mod mermaid;
pub mod multipaxos;
pub mod paxos;
pub mod pretty;
pub mod share;
pub mod shiviz;
pub mod svg;

use crate::check::Invariant;
use crate::protocol::NodeState;

pub use crate::sim::DropReason;

/// One event of a run of any protocol.
pub type TraceEvent = crate::sim::Event<NodeState, Invariant>;
/// What happened, in a run of any protocol.
pub type EventKind = crate::sim::EventKind<NodeState, Invariant>;

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
