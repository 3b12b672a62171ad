//! Trace encoding of Multi-Paxos's messages and notes (format v1), and
//! their short labels for diagrams and logs. Every message and note about a
//! slot carries `slot` (an integer).

use super::json::Namer;
use super::label::{node_name, NoteClass};
use crate::protocol::ballot::{Ballot, Members};
use crate::protocol::lease_row::{Cas, LeaseRow};
use crate::protocol::multipaxos::{Cmd, MpMsg, MpNote, Op, Outcome, Pick, Slot, Verdict, KEYS};
use crate::sim::NodeId;
use serde_json::{json, Map, Value as J};

fn key(k: u8) -> &'static str {
    KEYS.get(k as usize).copied().unwrap_or("?")
}

/// A command as JSON: `{"client", "seq", "op", "key"?, "value"?, "lock"?}`.
pub fn cmd_json(n: &Namer, c: &Cmd) -> J {
    let mut m = Map::new();
    m.insert("client".into(), n.node(c.client));
    m.insert("seq".into(), json!(c.seq));
    match c.op {
        Op::Noop => {
            m.insert("op".into(), json!("noop"));
        }
        Op::Put { key: k, value } => {
            m.insert("op".into(), json!("put"));
            m.insert("key".into(), json!(key(k)));
            m.insert("value".into(), json!(value.as_str()));
        }
        Op::Get { key: k } => {
            m.insert("op".into(), json!("get"));
            m.insert("key".into(), json!(key(k)));
        }
        Op::Acquire { lock } => {
            m.insert("op".into(), json!("acquire"));
            m.insert("lock".into(), json!(lock));
        }
        Op::Release { lock } => {
            m.insert("op".into(), json!("release"));
            m.insert("lock".into(), json!(lock));
        }
        Op::OpenSession => {
            m.insert("op".into(), json!("open_session"));
        }
        Op::EndSession { client } => {
            m.insert("op".into(), json!("end_session"));
            m.insert("session".into(), n.node(client));
        }
        Op::Check { lock, generation } => {
            m.insert("op".into(), json!("check_sequencer"));
            m.insert("lock".into(), json!(lock));
            m.insert("generation".into(), json!(generation));
        }
        Op::LeaseCas { ttl_us, now_us } => {
            m.insert("op".into(), json!("lease_cas"));
            m.insert("ttl_us".into(), json!(ttl_us));
            m.insert("now_us".into(), json!(now_us));
        }
        Op::LeaseRelease { epoch, now_us } => {
            m.insert("op".into(), json!("lease_release"));
            m.insert("epoch".into(), json!(epoch));
            m.insert("now_us".into(), json!(now_us));
        }
    }
    J::Object(m)
}

/// The `worker_leases` row as JSON: `{"holder", "epoch", "expires_at_us"}`.
pub fn row_json(n: &Namer, r: &LeaseRow) -> J {
    json!({"holder": n.node(r.holder), "epoch": r.epoch, "expires_at_us": r.expires_at.0})
}

pub fn outcome_json(n: &Namer, o: &Outcome) -> J {
    match *o {
        Outcome::Done => json!({"result": "done"}),
        Outcome::Value { value, version } => {
            json!({"result": "value", "value": value.map(|v| v.as_str().to_string()), "version": version.0})
        }
        Outcome::Written { version } => json!({"result": "written", "version": version.0}),
        Outcome::Granted { generation } => json!({"result": "granted", "generation": generation}),
        Outcome::Busy { holder } => json!({"result": "busy", "holder": n.node(holder)}),
        Outcome::Released => json!({"result": "released"}),
        Outcome::NotHeld => json!({"result": "not_held"}),
        Outcome::SessionOpened => json!({"result": "session_opened"}),
        Outcome::NoSession => json!({"result": "no_session"}),
        Outcome::Sequencer { current } => json!({"result": "sequencer", "current": current}),
        Outcome::Lease {
            cas: Cas::Granted { row, previous },
            now_us,
        } => json!({
            "result": "lease_granted", "row": row_json(n, &row), "previous": previous.map(|p| row_json(n, &p)), "now_us": now_us
        }),
        Outcome::Lease {
            cas: Cas::Renewed { row },
            now_us,
        } => {
            json!({"result": "lease_renewed", "row": row_json(n, &row), "now_us": now_us})
        }
        Outcome::Lease {
            cas: Cas::Refused { holder, epoch },
            now_us,
        } => {
            json!({"result": "lease_refused", "holder": n.node(holder), "epoch": epoch, "now_us": now_us})
        }
        Outcome::LeaseReleased { row } => {
            json!({"result": "lease_released", "row": row_json(n, &row)})
        }
    }
}

/// A file server's verdict: `"accepted"`, `"stale"` (with `highest`) or `"not_current"`.
fn verdict_fields(v: Verdict, put: &mut impl FnMut(&str, J)) {
    put("verdict", json!(v.as_str()));
    if let Verdict::Stale { highest } = v {
        put("highest", json!(highest));
    }
}

pub fn msg_fields(n: &Namer, m: &MpMsg, out: &mut Map<String, J>) {
    out.insert("type".into(), json!(m.type_name()));
    let mut put = |k: &str, v: J| {
        out.insert(k.into(), v);
    };
    match m {
        MpMsg::Request { cmd } => put("cmd", cmd_json(n, cmd)),
        MpMsg::Reply { seq, outcome, slot } => {
            put("seq", json!(seq));
            put("outcome", outcome_json(n, outcome));
            put("slot", slot.map(|s| json!(s.0)).unwrap_or(J::Null));
        }
        MpMsg::Redirect { seq, leader } => {
            put("seq", json!(seq));
            put("leader", leader.map(|l| n.node(l)).unwrap_or(J::Null));
        }
        MpMsg::Prepare { ballot, from } => {
            put("ballot", n.ballot(*ballot));
            put("slot", json!(from.0));
        }
        MpMsg::Promise {
            ballot,
            from,
            votes,
        } => {
            put("ballot", n.ballot(*ballot));
            put("slot", json!(from.0));
            put(
                "votes",
                J::Array(
                    votes
                        .iter()
                        .map(|v| json!({"slot": v.slot.0, "ballot": n.ballot(v.ballot), "cmd": cmd_json(n, &v.cmd)}))
                        .collect(),
                ),
            );
        }
        MpMsg::Accept { ballot, slot, cmd } | MpMsg::Accepted { ballot, slot, cmd } => {
            put("ballot", n.ballot(*ballot));
            put("slot", json!(slot.0));
            put("cmd", cmd_json(n, cmd));
        }
        MpMsg::Decided { slot, cmd } => {
            put("slot", json!(slot.0));
            put("cmd", cmd_json(n, cmd));
        }
        MpMsg::Nack { ballot, promised } => {
            put("ballot", n.ballot(*ballot));
            put("promised", n.ballot(*promised));
        }
        MpMsg::Heartbeat {
            ballot,
            round,
            commit,
        } => {
            put("ballot", n.ballot(*ballot));
            put("round", json!(round));
            put("commit", json!(commit.0));
        }
        MpMsg::HeartbeatAck { ballot, round } => {
            put("ballot", n.ballot(*ballot));
            put("round", json!(round));
        }
        MpMsg::CatchUp { from } => put("slot", json!(from.0)),
        MpMsg::Entries { entries } => put(
            "entries",
            J::Array(
                entries
                    .iter()
                    .map(|(s, c)| json!({"slot": s.0, "cmd": cmd_json(n, c)}))
                    .collect(),
            ),
        ),
        MpMsg::KeepAlive { epoch } => put("epoch", epoch.map(|e| n.ballot(e)).unwrap_or(J::Null)),
        MpMsg::KeepAliveReply { epoch, lease_us } => {
            put("epoch", n.ballot(*epoch));
            put("lease_us", json!(lease_us));
        }
        MpMsg::SessionGone => {}
        MpMsg::Write {
            lock,
            generation,
            value,
        } => {
            put("lock", json!(lock));
            put("generation", json!(generation));
            put("value", json!(value.as_str()));
        }
        MpMsg::WriteReply {
            lock,
            generation,
            verdict,
        } => {
            put("lock", json!(lock));
            put("generation", json!(generation));
            verdict_fields(*verdict, &mut put);
        }
    }
}

fn members(n: &Namer, m: Members) -> J {
    J::Array(m.iter().map(|x| n.node(x)).collect())
}

pub fn note_fields(n: &Namer, note: &MpNote, m: &mut Map<String, J>) {
    let mut put = |k: &str, v: J| {
        m.insert(k.into(), v);
    };
    match note {
        MpNote::Asked { cmd } => put("cmd", cmd_json(n, cmd)),
        // `cmd_seq`, not `seq`: an event's own `seq` is its place in the trace.
        MpNote::Answered { seq, outcome } => {
            put("cmd_seq", json!(seq));
            put("outcome", outcome_json(n, outcome));
        }
        MpNote::BallotStarted { ballot, from } => {
            put("ballot", n.ballot(*ballot));
            put("slot", json!(from.0));
        }
        MpNote::Elected {
            ballot,
            forced,
            noops,
        } => {
            put("ballot", n.ballot(*ballot));
            put("forced", json!(forced));
            put("noops", json!(noops));
        }
        MpNote::SlotPicked {
            ballot,
            slot,
            cmd,
            pick,
        } => {
            put("ballot", n.ballot(*ballot));
            put("slot", json!(slot.0));
            put("cmd", cmd_json(n, cmd));
            match pick {
                Pick::New => put("pick", json!("new")),
                Pick::Noop => put("pick", json!("noop")),
                Pick::Forced { by } => {
                    put("pick", json!("forced"));
                    put("forced_by", n.ballot(*by));
                }
            }
        }
        MpNote::SteppedDown { ballot, by } => {
            put("ballot", n.ballot(*ballot));
            put("by", n.ballot(*by));
        }
        MpNote::LeaseRefused { candidate, grantee } => {
            put("candidate", n.node(*candidate));
            put("grantee", n.node(*grantee));
        }
        MpNote::Learned { slot, cmd } => {
            put("slot", json!(slot.0));
            put("cmd", cmd_json(n, cmd));
        }
        MpNote::Applied { slot, cmd, outcome } => {
            put("slot", json!(slot.0));
            put("cmd", cmd_json(n, cmd));
            put("outcome", outcome_json(n, outcome));
        }
        MpNote::CaughtUp { from, to } => {
            put("slot", json!(from.0));
            put("to", json!(to.0));
        }
        MpNote::LeaseHeld { until_local_us } => put("until_local_us", json!(until_local_us)),
        MpNote::LeaseLost { why } => put("why", json!(why.as_str())),
        MpNote::ReadServed {
            client,
            seq,
            key: k,
            value,
            version,
        } => {
            put("client", n.node(*client));
            put("cmd_seq", json!(seq));
            put("key", json!(key(*k)));
            put("value", value.map(|v| json!(v.as_str())).unwrap_or(J::Null));
            put("version", json!(version.0));
        }
        MpNote::Chosen {
            slot,
            ballot,
            cmd,
            members: mm,
        } => {
            put("slot", json!(slot.0));
            put("ballot", n.ballot(*ballot));
            put("cmd", cmd_json(n, cmd));
            put("members", members(n, *mm));
        }
        MpNote::MasterLeaseHeld {
            holder,
            until_local_us,
            until_us,
        } => {
            put("holder", n.node(*holder));
            put("until_local_us", json!(until_local_us));
            put("until_us", json!(until_us));
        }
        MpNote::MasterLeaseReleased { holder, why } => {
            put("holder", n.node(*holder));
            put("why", json!(why.as_str()));
        }
        MpNote::SessionTimedOut { client } => put("client", n.node(*client)),
        MpNote::Jeopardy => {}
        MpNote::SessionSafe { epoch, failover } => {
            put("epoch", n.ballot(*epoch));
            put("failover", json!(failover));
        }
        MpNote::SessionLost { why } => put("why", json!(why.as_str())),
        MpNote::NotHolding { lock } => put("lock", json!(lock)),
        MpNote::WriteChecked {
            client,
            lock,
            generation,
            verdict,
        } => {
            put("client", n.node(*client));
            put("lock", json!(lock));
            put("generation", json!(generation));
            verdict_fields(*verdict, &mut put);
        }
    }
}

// ----- short labels --------------------------------------------------------

fn bal(names: &[String], b: Ballot) -> String {
    super::label::ballot(names, b)
}

/// A command in a few characters: `x=3`, `get x`, `no-op`, `lock 1`.
pub fn cmd_label(c: &Cmd) -> String {
    match c.op {
        Op::Noop => "no-op".into(),
        Op::Put { key: k, value } => format!("{}={value}", key(k)),
        Op::Get { key: k } => format!("get {}", key(k)),
        Op::Acquire { lock } => format!("lock {lock}"),
        Op::Release { lock } => format!("unlock {lock}"),
        Op::OpenSession => "open session".into(),
        Op::EndSession { .. } => "end session".into(),
        Op::Check { lock, generation } => format!("check {lock}/g{generation}"),
        Op::LeaseCas { .. } => "lease".into(),
        Op::LeaseRelease { epoch, .. } => format!("release e{epoch}"),
    }
}

fn outcome_label(o: &Outcome) -> String {
    match *o {
        Outcome::Done => "done".into(),
        Outcome::Value {
            value: Some(v),
            version,
        } => format!("{v} (#{})", version.0),
        Outcome::Value { value: None, .. } => "nothing".into(),
        Outcome::Written { version } => format!("ok #{}", version.0),
        Outcome::Granted { generation } => format!("granted g{generation}"),
        Outcome::Busy { .. } => "busy".into(),
        Outcome::Released => "released".into(),
        Outcome::NotHeld => "not held".into(),
        Outcome::SessionOpened => "session open".into(),
        Outcome::NoSession => "no session".into(),
        Outcome::Sequencer { current: true } => "current".into(),
        Outcome::Sequencer { current: false } => "not current".into(),
        Outcome::Lease {
            cas: Cas::Refused { epoch, .. },
            ..
        } => format!("refused (e{epoch} held)"),
        Outcome::Lease { cas, .. } => format!("epoch {}", cas.epoch().unwrap_or(0)),
        Outcome::LeaseReleased { .. } => "released".into(),
    }
}

/// The label drawn on a messenger.
pub fn msg_label(names: &[String], m: &MpMsg) -> String {
    let s = |s: Slot| format!("#{}", s.0);
    match m {
        MpMsg::Request { cmd } => format!("req {}", cmd_label(cmd)),
        MpMsg::Reply { outcome, .. } => format!("rep {}", outcome_label(outcome)),
        MpMsg::Redirect { leader, .. } => match leader {
            Some(l) => format!("→ {}", node_name(names, *l)),
            None => "→ ?".into(),
        },
        MpMsg::Prepare { ballot, from } => format!("1a {} {}…", bal(names, *ballot), s(*from)),
        MpMsg::Promise { ballot, votes, .. } => {
            format!("1b {} {} votes", bal(names, *ballot), votes.len())
        }
        MpMsg::Accept { ballot, slot, cmd } => {
            format!("2a {} {} {}", bal(names, *ballot), s(*slot), cmd_label(cmd))
        }
        MpMsg::Accepted { slot, cmd, .. } => format!("2b {} {}", s(*slot), cmd_label(cmd)),
        MpMsg::Decided { slot, cmd } => format!("3 {} {}", s(*slot), cmd_label(cmd)),
        MpMsg::Nack { promised, .. } => format!("nack {}", bal(names, *promised)),
        MpMsg::Heartbeat { round, .. } => format!("♥ {round}"),
        MpMsg::HeartbeatAck { round, .. } => format!("♥✓ {round}"),
        MpMsg::CatchUp { from } => format!("catch up {}…", s(*from)),
        MpMsg::Entries { entries } => format!("{} slots", entries.len()),
        MpMsg::KeepAlive { .. } => "KeepAlive".into(),
        MpMsg::KeepAliveReply { .. } => "KeepAlive ✓".into(),
        MpMsg::SessionGone => "session ended".into(),
        MpMsg::Write {
            generation, value, ..
        } => format!("write {value} g{generation}"),
        MpMsg::WriteReply {
            generation,
            verdict,
            ..
        } => match verdict {
            Verdict::Accepted => format!("ok g{generation}"),
            _ => format!("refused g{generation}"),
        },
    }
}

/// A mark on a diagram, for the notes worth one.
pub fn note_mark(names: &[String], n: &MpNote) -> Option<(NoteClass, String)> {
    let name = |id: NodeId| node_name(names, id).to_string();
    Some(match n {
        MpNote::Chosen { slot, cmd, .. } => (
            NoteClass::Chosen,
            format!("chosen #{} {}", slot.0, cmd_label(cmd)),
        ),
        MpNote::Elected {
            ballot,
            forced,
            noops,
        } => (
            NoteClass::Info,
            format!(
                "leads {} ({forced} recovered, {noops} no-ops)",
                bal(names, *ballot)
            ),
        ),
        MpNote::SteppedDown { by, .. } => (
            NoteClass::Info,
            format!("steps down for {}", bal(names, *by)),
        ),
        MpNote::CaughtUp { from, to } => (
            NoteClass::Learned,
            format!("caught up #{}…#{}", from.0, to.0.saturating_sub(1)),
        ),
        MpNote::MasterLeaseHeld { holder, .. } => (
            NoteClass::Lease,
            format!("{} holds the master lease", name(*holder)),
        ),
        MpNote::MasterLeaseReleased { holder, why } => (
            NoteClass::Lease,
            format!(
                "{}'s lease ends ({})",
                name(*holder),
                why.as_str().replace('_', " ")
            ),
        ),
        MpNote::ReadServed { key: k, value, .. } => (
            NoteClass::Info,
            format!(
                "reads {} = {}",
                key(*k),
                value
                    .map(|v| v.to_string())
                    .unwrap_or_else(|| "nothing".into())
            ),
        ),
        MpNote::LeaseRefused { candidate, grantee } => (
            NoteClass::Rejected,
            format!("refuses {}: lease to {}", name(*candidate), name(*grantee)),
        ),
        MpNote::SessionTimedOut { client } => (
            NoteClass::Lease,
            format!("ends {}'s session", name(*client)),
        ),
        MpNote::Jeopardy => (NoteClass::Lease, "session in jeopardy".into()),
        MpNote::SessionSafe { .. } => (NoteClass::Lease, "session safe".into()),
        MpNote::SessionLost { .. } => (NoteClass::Rejected, "session lost".into()),
        MpNote::WriteChecked {
            generation,
            verdict: Verdict::Accepted,
            ..
        } => (NoteClass::Info, format!("accepts g{generation}")),
        MpNote::WriteChecked {
            generation,
            verdict,
            ..
        } => (
            NoteClass::Rejected,
            format!(
                "refuses g{generation} ({})",
                verdict.as_str().replace('_', " ")
            ),
        ),
        _ => return None,
    })
}

/// The other notes, in words (for logs such as ShiViz's).
pub fn note_detail(names: &[String], n: &MpNote) -> String {
    match n {
        MpNote::Asked { cmd } => format!("asks {} (#{})", cmd_label(cmd), cmd.seq),
        MpNote::Answered { outcome, .. } => format!("answered {}", outcome_label(outcome)),
        MpNote::BallotStarted { ballot, from } => {
            format!("runs with {} from #{}", bal(names, *ballot), from.0)
        }
        MpNote::SlotPicked {
            slot, cmd, pick, ..
        } => format!(
            "#{} ← {} ({})",
            slot.0,
            cmd_label(cmd),
            match pick {
                Pick::New => "new".to_string(),
                Pick::Noop => "gap: no-op".to_string(),
                Pick::Forced { by } => format!("forced by {}", bal(names, *by)),
            }
        ),
        MpNote::Learned { slot, cmd } => format!("learns #{} {}", slot.0, cmd_label(cmd)),
        MpNote::Applied { slot, cmd, outcome } => format!(
            "applies #{} {} → {}",
            slot.0,
            cmd_label(cmd),
            outcome_label(outcome)
        ),
        MpNote::LeaseHeld { .. } => "believes it holds the master lease".into(),
        MpNote::LeaseLost { why } => format!("lease belief ends ({})", why.as_str()),
        _ => note_mark(names, n)
            .map(|m| m.1)
            .unwrap_or_else(|| n.type_name().to_string()),
    }
}
