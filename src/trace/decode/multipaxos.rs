//! Multi-Paxos's messages, notes and timers back from trace format v1 (the
//! inverse of `trace::multipaxos`).
//!
//! Several names are shared with the Synod (`prepare`, `promise`, `accept`,
//! `accepted`, `decided`, `ballot_started`, `learned`, `chosen`): Multi-Paxos
//! writes a `slot` on every one of them, the Synod never does, so the slot
//! decides. One timer name is shared too (`phase_timeout`): a trace is read
//! as Multi-Paxos's when any of its events is (see [`is_multipaxos`]).

use super::{s, u, val, Decoder, O};
use crate::protocol::lease_row::{Cas, LeaseRow};
use crate::protocol::multipaxos::{
    Cmd, LeaseEnd, MpMsg, MpNote, MpTimer, Op, Outcome, Pick, SessionEnd, Slot, SlotVote, Verdict,
};
use crate::protocol::{Msg, Note, Timer};
use crate::sim::SimTime;
use crate::trace::EventKind;
use serde_json::Value as J;
use std::sync::Arc;

/// Names only Multi-Paxos writes (as a message type or an event kind).
const OWN: &[&str] = &[
    "request",
    "reply",
    "redirect",
    "nack",
    "heartbeat",
    "heartbeat_ack",
    "catch_up",
    "entries",
    "command",
    "answered",
    "elected",
    "slot_picked",
    "stepped_down",
    "lease_refused",
    "applied",
    "caught_up",
    "lease_held",
    "lease_lost",
    "read_served",
    "master_lease_held",
    "master_lease_released",
    "keep_alive",
    "keep_alive_reply",
    "session_gone",
    "fs_write",
    "fs_write_reply",
    "session_timed_out",
    "jeopardy",
    "session_safe",
    "session_lost",
    "not_holding",
    "write_checked",
];

/// Is this (checked) trace Multi-Paxos's? One event of its own decides.
pub fn is_multipaxos(events: &[J]) -> bool {
    events.iter().filter_map(|j| j.as_object()).any(|o| {
        let kind = s(o, "kind").unwrap_or("");
        let msg = o.get("msg").and_then(|m| m.as_object());
        let ty = msg.and_then(|m| s(m, "type")).unwrap_or("");
        // The commit protocol's messages never carry a slot; Multi-Paxos's
        // phase messages always do.
        OWN.contains(&kind) || OWN.contains(&ty) || msg.is_some_and(|m| m.contains_key("slot"))
    })
}

fn slot(o: &O, k: &str) -> Option<Slot> {
    u32::try_from(u(o, k)?).ok().map(Slot)
}

fn key(o: &O) -> Option<u8> {
    crate::protocol::multipaxos::key_index(s(o, "key")?)
}

fn lease_end(s: &str) -> Option<LeaseEnd> {
    Some(match s {
        "expired" => LeaseEnd::Expired,
        "stepped_down" => LeaseEnd::SteppedDown,
        "crashed" => LeaseEnd::Crashed,
        _ => return None,
    })
}

fn session_end(s: &str) -> Option<SessionEnd> {
    Some(match s {
        "grace_over" => SessionEnd::Grace,
        "ended_by_cell" => SessionEnd::Ended,
        _ => return None,
    })
}

fn lock(o: &O) -> Option<u8> {
    u8::try_from(u(o, "lock")?).ok()
}

fn generation(o: &O) -> Option<u32> {
    u32::try_from(u(o, "generation")?).ok()
}

fn verdict(o: &O) -> Option<Verdict> {
    Some(match s(o, "verdict")? {
        "accepted" => Verdict::Accepted,
        "stale" => Verdict::Stale {
            highest: u32::try_from(u(o, "highest")?).ok()?,
        },
        "not_current" => Verdict::NotCurrent,
        _ => return None,
    })
}

pub fn timer(name: &str) -> Option<Timer> {
    Some(Timer::Multipaxos(match name {
        "election" => MpTimer::Election,
        "phase_timeout" => MpTimer::PhaseTimeout,
        "heartbeat" => MpTimer::Heartbeat,
        "lease_end" => MpTimer::LeaseEnd,
        "catch_up" => MpTimer::CatchUp,
        "next" => MpTimer::Next,
        "retry" => MpTimer::Retry,
        "keep_alive" => MpTimer::KeepAlive,
        "session_end" => MpTimer::SessionEnd,
        "grace" => MpTimer::Grace,
        _ => return None,
    }))
}

impl Decoder<'_> {
    fn cmd(&mut self, j: Option<&J>) -> Option<Cmd> {
        let o = j?.as_object()?;
        let op = match s(o, "op")? {
            "noop" => Op::Noop,
            "put" => Op::Put {
                key: key(o)?,
                value: val(o, "value")?,
            },
            "get" => Op::Get { key: key(o)? },
            "acquire" => Op::Acquire { lock: lock(o)? },
            "release" => Op::Release { lock: lock(o)? },
            "open_session" => Op::OpenSession,
            "end_session" => Op::EndSession {
                client: self.node(o, "session")?,
            },
            "check_sequencer" => Op::Check {
                lock: lock(o)?,
                generation: generation(o)?,
            },
            "lease_cas" => Op::LeaseCas {
                ttl_us: u(o, "ttl_us")?,
                now_us: u(o, "now_us")?,
            },
            "lease_release" => Op::LeaseRelease {
                epoch: u(o, "epoch")?,
                now_us: u(o, "now_us")?,
            },
            _ => return None,
        };
        Some(Cmd {
            client: self.node(o, "client")?,
            seq: u32::try_from(u(o, "seq")?).ok()?,
            op,
        })
    }

    fn outcome(&mut self, j: Option<&J>) -> Option<Outcome> {
        let o = j?.as_object()?;
        Some(match s(o, "result")? {
            "done" => Outcome::Done,
            "value" => Outcome::Value {
                value: match o.get("value")? {
                    J::Null => None,
                    _ => Some(val(o, "value")?),
                },
                version: slot(o, "version")?,
            },
            "written" => Outcome::Written {
                version: slot(o, "version")?,
            },
            "granted" => Outcome::Granted {
                generation: u32::try_from(u(o, "generation")?).ok()?,
            },
            "busy" => Outcome::Busy {
                holder: self.node(o, "holder")?,
            },
            "released" => Outcome::Released,
            "not_held" => Outcome::NotHeld,
            "session_opened" => Outcome::SessionOpened,
            "no_session" => Outcome::NoSession,
            "sequencer" => Outcome::Sequencer {
                current: o.get("current")?.as_bool()?,
            },
            "lease_granted" => Outcome::Lease {
                cas: Cas::Granted {
                    row: self.row(o.get("row"))?,
                    previous: match o.get("previous")? {
                        J::Null => None,
                        p => Some(self.row(Some(p))?),
                    },
                },
                now_us: u(o, "now_us")?,
            },
            "lease_renewed" => Outcome::Lease {
                cas: Cas::Renewed {
                    row: self.row(o.get("row"))?,
                },
                now_us: u(o, "now_us")?,
            },
            "lease_refused" => Outcome::Lease {
                cas: Cas::Refused {
                    holder: self.node(o, "holder")?,
                    epoch: u(o, "epoch")?,
                },
                now_us: u(o, "now_us")?,
            },
            "lease_released" => Outcome::LeaseReleased {
                row: self.row(o.get("row"))?,
            },
            _ => return None,
        })
    }

    fn row(&mut self, j: Option<&J>) -> Option<LeaseRow> {
        let o = j?.as_object()?;
        Some(LeaseRow {
            holder: self.node(o, "holder")?,
            epoch: u(o, "epoch")?,
            expires_at: SimTime(u(o, "expires_at_us")?),
        })
    }

    /// A Multi-Paxos message, or None when it is not one (then the Synod's
    /// and the others' readers are tried).
    pub(super) fn mp_msg(&mut self, o: &O) -> Option<Msg> {
        let b = |d: &mut Self, k: &str| d.ballot(o.get(k));
        let seq = || u32::try_from(u(o, "seq")?).ok();
        let m = match s(o, "type")? {
            "request" => MpMsg::Request {
                cmd: self.cmd(o.get("cmd"))?,
            },
            "reply" => MpMsg::Reply {
                seq: seq()?,
                outcome: self.outcome(o.get("outcome"))?,
                slot: match o.get("slot")? {
                    J::Null => None,
                    _ => Some(slot(o, "slot")?),
                },
            },
            "redirect" => MpMsg::Redirect {
                seq: seq()?,
                leader: match o.get("leader")? {
                    J::Null => None,
                    _ => Some(self.node(o, "leader")?),
                },
            },
            "prepare" if o.contains_key("slot") => MpMsg::Prepare {
                ballot: b(self, "ballot")?,
                from: slot(o, "slot")?,
            },
            "promise" if o.contains_key("slot") => {
                let mut votes = Vec::new();
                for v in o.get("votes")?.as_array()? {
                    let v = v.as_object()?;
                    votes.push(SlotVote {
                        slot: slot(v, "slot")?,
                        ballot: self.ballot(v.get("ballot"))?,
                        cmd: self.cmd(v.get("cmd"))?,
                    });
                }
                MpMsg::Promise {
                    ballot: b(self, "ballot")?,
                    from: slot(o, "slot")?,
                    votes: Arc::from(votes),
                }
            }
            "accept" if o.contains_key("slot") => MpMsg::Accept {
                ballot: b(self, "ballot")?,
                slot: slot(o, "slot")?,
                cmd: self.cmd(o.get("cmd"))?,
            },
            "accepted" if o.contains_key("slot") => MpMsg::Accepted {
                ballot: b(self, "ballot")?,
                slot: slot(o, "slot")?,
                cmd: self.cmd(o.get("cmd"))?,
            },
            "decided" if o.contains_key("slot") => MpMsg::Decided {
                slot: slot(o, "slot")?,
                cmd: self.cmd(o.get("cmd"))?,
            },
            "nack" => MpMsg::Nack {
                ballot: b(self, "ballot")?,
                promised: b(self, "promised")?,
            },
            "heartbeat" => MpMsg::Heartbeat {
                ballot: b(self, "ballot")?,
                round: u32::try_from(u(o, "round")?).ok()?,
                commit: slot(o, "commit")?,
            },
            "heartbeat_ack" => MpMsg::HeartbeatAck {
                ballot: b(self, "ballot")?,
                round: u32::try_from(u(o, "round")?).ok()?,
            },
            "catch_up" => MpMsg::CatchUp {
                from: slot(o, "slot")?,
            },
            "entries" => {
                let mut entries = Vec::new();
                for e in o.get("entries")?.as_array()? {
                    let e = e.as_object()?;
                    entries.push((slot(e, "slot")?, self.cmd(e.get("cmd"))?));
                }
                MpMsg::Entries {
                    entries: Arc::from(entries),
                }
            }
            "keep_alive" => MpMsg::KeepAlive {
                epoch: match o.get("epoch")? {
                    J::Null => None,
                    _ => Some(b(self, "epoch")?),
                },
            },
            "keep_alive_reply" => MpMsg::KeepAliveReply {
                epoch: b(self, "epoch")?,
                lease_us: u(o, "lease_us")?,
            },
            "session_gone" => MpMsg::SessionGone,
            "fs_write" => MpMsg::Write {
                lock: lock(o)?,
                generation: generation(o)?,
                value: val(o, "value")?,
            },
            "fs_write_reply" => MpMsg::WriteReply {
                lock: lock(o)?,
                generation: generation(o)?,
                verdict: verdict(o)?,
            },
            _ => return None,
        };
        Some(Msg::Multipaxos(m))
    }

    /// A Multi-Paxos note, or None when `k` is not one.
    pub(super) fn mp_note(&mut self, k: &str, o: &O) -> Option<EventKind> {
        let b = |d: &mut Self, key: &str| d.ballot(o.get(key));
        let has_slot = o.contains_key("slot");
        let n = match k {
            "command" => MpNote::Asked {
                cmd: self.cmd(o.get("cmd"))?,
            },
            "answered" => MpNote::Answered {
                seq: u32::try_from(u(o, "cmd_seq")?).ok()?,
                outcome: self.outcome(o.get("outcome"))?,
            },
            "ballot_started" if has_slot => MpNote::BallotStarted {
                ballot: b(self, "ballot")?,
                from: slot(o, "slot")?,
            },
            "elected" => MpNote::Elected {
                ballot: b(self, "ballot")?,
                forced: u32::try_from(u(o, "forced")?).ok()?,
                noops: u32::try_from(u(o, "noops")?).ok()?,
            },
            "slot_picked" => MpNote::SlotPicked {
                ballot: b(self, "ballot")?,
                slot: slot(o, "slot")?,
                cmd: self.cmd(o.get("cmd"))?,
                pick: match s(o, "pick")? {
                    "new" => Pick::New,
                    "noop" => Pick::Noop,
                    "forced" => Pick::Forced {
                        by: b(self, "forced_by")?,
                    },
                    _ => return None,
                },
            },
            "stepped_down" => MpNote::SteppedDown {
                ballot: b(self, "ballot")?,
                by: b(self, "by")?,
            },
            "lease_refused" => MpNote::LeaseRefused {
                candidate: self.node(o, "candidate")?,
                grantee: self.node(o, "grantee")?,
            },
            "learned" if has_slot => MpNote::Learned {
                slot: slot(o, "slot")?,
                cmd: self.cmd(o.get("cmd"))?,
            },
            "applied" => MpNote::Applied {
                slot: slot(o, "slot")?,
                cmd: self.cmd(o.get("cmd"))?,
                outcome: self.outcome(o.get("outcome"))?,
            },
            "caught_up" => MpNote::CaughtUp {
                from: slot(o, "slot")?,
                to: slot(o, "to")?,
            },
            "lease_held" => MpNote::LeaseHeld {
                until_local_us: u(o, "until_local_us")?,
            },
            "lease_lost" => MpNote::LeaseLost {
                why: lease_end(s(o, "why")?)?,
            },
            "read_served" => MpNote::ReadServed {
                client: self.node(o, "client")?,
                seq: u32::try_from(u(o, "cmd_seq")?).ok()?,
                key: key(o)?,
                value: match o.get("value")? {
                    J::Null => None,
                    _ => Some(val(o, "value")?),
                },
                version: slot(o, "version")?,
            },
            "chosen" if has_slot => MpNote::Chosen {
                slot: slot(o, "slot")?,
                ballot: b(self, "ballot")?,
                cmd: self.cmd(o.get("cmd"))?,
                members: self.members(o.get("members"))?,
            },
            "master_lease_held" => MpNote::MasterLeaseHeld {
                holder: self.node(o, "holder")?,
                until_local_us: u(o, "until_local_us")?,
                until_us: u(o, "until_us")?,
            },
            "master_lease_released" => MpNote::MasterLeaseReleased {
                holder: self.node(o, "holder")?,
                why: lease_end(s(o, "why")?)?,
            },
            "session_timed_out" => MpNote::SessionTimedOut {
                client: self.node(o, "client")?,
            },
            "jeopardy" => MpNote::Jeopardy,
            "session_safe" => MpNote::SessionSafe {
                epoch: b(self, "epoch")?,
                failover: o.get("failover")?.as_bool()?,
            },
            "session_lost" => MpNote::SessionLost {
                why: session_end(s(o, "why")?)?,
            },
            "not_holding" => MpNote::NotHolding { lock: lock(o)? },
            "write_checked" => MpNote::WriteChecked {
                client: self.node(o, "client")?,
                lock: lock(o)?,
                generation: generation(o)?,
                verdict: verdict(o)?,
            },
            _ => return None,
        };
        Some(EventKind::Note(Note::Multipaxos(n)))
    }
}
