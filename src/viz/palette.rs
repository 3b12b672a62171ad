//! Colours and labels: the Okabe–Ito palette (colour-blind safe), and never
//! colour alone — every message also carries its phase label.

use crate::protocol::commit::{CommitMsg, Outcome, RmVote};
use crate::protocol::lease::LeaseMsg;
use crate::protocol::multipaxos::MpMsg;
use crate::protocol::paxos::PaxosMsg;
use crate::protocol::Msg;

pub const BLUE: &str = "#0072B2";
pub const SKY: &str = "#56B4E9";
pub const ORANGE: &str = "#E69F00";
pub const GREEN: &str = "#009E73";
pub const BLACK: &str = "#000000";
pub const VERMILLION: &str = "#D55E00";
pub const PURPLE: &str = "#CC79A7";
pub const YELLOW: &str = "#F0E442";
pub const GREY: &str = "#8a8a8a";

/// Colour of a message by its kind.
pub fn message_colour(m: &Msg) -> &'static str {
    match m {
        Msg::Paxos(p) => match p {
            PaxosMsg::Prepare { .. } => BLUE,
            PaxosMsg::Promise { .. } => SKY,
            PaxosMsg::Accept { .. } => ORANGE,
            PaxosMsg::Accepted { .. } => GREEN,
            PaxosMsg::Decided { .. } => BLACK,
        },
        // 2PC is Paxos Commit with F = 0, so its messages wear the colours
        // of the phases they are: Prepared is a 2a, the TM's Commit a phase 3.
        Msg::Commit(c) => match c {
            CommitMsg::Prepare { .. } | CommitMsg::Phase1a { .. } => BLUE,
            CommitMsg::Phase1b { .. } => SKY,
            CommitMsg::Vote {
                vote: RmVote::Prepared,
                ..
            }
            | CommitMsg::Phase2a { .. } => ORANGE,
            CommitMsg::Phase2b { .. } => GREEN,
            CommitMsg::Decision {
                outcome: Outcome::Commit,
                ..
            } => BLACK,
            CommitMsg::Vote {
                vote: RmVote::Aborted,
                ..
            }
            | CommitMsg::Decision {
                outcome: Outcome::Abort,
                ..
            } => VERMILLION,
            CommitMsg::BeginCommit { .. } => GREY,
        },
        Msg::Lease(l) => match l {
            LeaseMsg::Acquire { .. }
            | LeaseMsg::AcquireReply { .. }
            | LeaseMsg::Release { .. }
            | LeaseMsg::Row { .. } => BLUE,
            LeaseMsg::Write { .. } | LeaseMsg::WriteReply { .. } => GREEN,
            LeaseMsg::Ask { .. } | LeaseMsg::Answer { .. } => PURPLE,
        },
        Msg::Multipaxos(m) => match m {
            MpMsg::Prepare { .. } => BLUE,
            MpMsg::Promise { .. } => SKY,
            MpMsg::Accept { .. } => ORANGE,
            MpMsg::Accepted { .. } => GREEN,
            MpMsg::Decided { .. } => BLACK,
            MpMsg::Nack { .. } => VERMILLION,
            MpMsg::Heartbeat { .. } | MpMsg::HeartbeatAck { .. } => PURPLE,
            MpMsg::Request { .. } | MpMsg::Reply { .. } | MpMsg::Redirect { .. } => YELLOW,
            MpMsg::CatchUp { .. } | MpMsg::Entries { .. } => GREY,
            MpMsg::KeepAlive { .. } | MpMsg::KeepAliveReply { .. } | MpMsg::SessionGone => SKY,
            MpMsg::Write { .. } | MpMsg::WriteReply { .. } => VERMILLION,
        },
    }
}

/// A stable hue per ballot round, so the same ballot is recognisable in the
/// chamber, the ledgers and the diagram. Golden-angle steps keep neighbours apart.
pub fn ballot_hue(round: u32, node: u8) -> u32 {
    ((round as u64 * 137 + node as u64 * 53) % 360) as u32
}

pub fn ballot_colour(round: u32, node: u8) -> String {
    format!("hsl({}, 65%, 42%)", ballot_hue(round, node))
}
