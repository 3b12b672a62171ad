//! Trace format v1: the JSON envelope and the event encoding.
//!
//! ```json
//! {"format": "paxos-island-trace", "version": 1,
//!  "scenario": { … "seed": 42, "nodes": [{"id": "Α", "roles": ["acceptor"]}] … },
//!  "events": [{"seq": 0, "t_us": 0, "node": "Α", "kind": "send",
//!              "msg": {"id": 0, "type": "prepare", "ballot": {"round": 1, "node": "Α"},
//!                      "from": "Α", "to": "Β"}}, …]}
//! ```
//!
//! Documented in `docs/trace-format.md`, with a JSON Schema in
//! `docs/trace-format.schema.json`. The hash of a run is FNV-1a over the
//! compact JSON of each event followed by a newline.

use super::{EventKind, TraceEvent};
use crate::protocol::paxos::{Ballot, Members, Vote};
use crate::protocol::{Msg, Note};
use crate::scenario::Scenario;
use crate::sim::NodeId;
use serde_json::{json, Map, Value as J};

pub const FORMAT: &str = "paxos-island-trace";
pub const VERSION: u64 = 1;

/// Names the events refer to nodes by.
pub struct Namer<'a>(pub &'a [String]);

impl Namer<'_> {
    pub fn node(&self, n: NodeId) -> J {
        match self.0.get(n.index()) {
            Some(s) => J::String(s.clone()),
            None => J::String("net".into()),
        }
    }
    pub fn ballot(&self, b: Ballot) -> J {
        json!({"round": b.round, "node": self.node(b.node)})
    }
    pub fn vote(&self, v: Vote) -> J {
        json!({"ballot": self.ballot(v.ballot), "value": v.value.as_str()})
    }
    pub fn members(&self, m: Members) -> J {
        J::Array(m.iter().map(|n| self.node(n)).collect())
    }
}

/// The `msg` object of a message event.
pub fn msg_json(n: &Namer, id: u64, from: NodeId, to: NodeId, msg: &Msg) -> J {
    let mut m = Map::new();
    m.insert("id".into(), json!(id));
    msg_fields(n, msg, &mut m);
    m.insert("from".into(), n.node(from));
    m.insert("to".into(), n.node(to));
    J::Object(m)
}

// Each protocol's encoding lives in `trace/<module>.rs`.
macro_rules! codecs {
    ($($V:ident $m:ident $Node:ident,)*) => {
        fn msg_fields(n: &Namer, msg: &Msg, m: &mut Map<String, J>) {
            match msg {
                $(Msg::$V(x) => super::$m::msg_fields(n, x, m),)*
            }
        }
        /// The extra fields of a note (its `kind` is [`Note::type_name`]).
        fn note_fields(n: &Namer, note: &Note, m: &mut Map<String, J>) {
            match note {
                $(Note::$V(x) => super::$m::note_fields(n, x, m),)*
            }
        }
    };
}
crate::protocol::for_each_protocol!(codecs);

/// One event as a JSON object.
pub fn event_json(n: &Namer, e: &TraceEvent) -> J {
    let mut m = Map::new();
    m.insert("seq".into(), json!(e.seq));
    m.insert("t_us".into(), json!(e.t.0));
    m.insert("node".into(), n.node(e.node));
    let kind: &str = match &e.kind {
        EventKind::Send { id, to, msg } => {
            m.insert("msg".into(), msg_json(n, id.0, e.node, *to, msg));
            "send"
        }
        EventKind::Deliver { id, from, msg } => {
            m.insert("msg".into(), msg_json(n, id.0, *from, e.node, msg));
            "deliver"
        }
        EventKind::Drop {
            id,
            from,
            to,
            msg,
            reason,
        } => {
            m.insert("msg".into(), msg_json(n, id.0, *from, *to, msg));
            m.insert("reason".into(), json!(reason.as_str()));
            "drop"
        }
        EventKind::Duplicate { id, of, to, msg } => {
            m.insert("msg".into(), msg_json(n, id.0, e.node, *to, msg));
            m.insert("of".into(), json!(of.0));
            "duplicate"
        }
        EventKind::Timer { timer } => {
            m.insert("timer".into(), json!(timer.type_name()));
            "timer"
        }
        EventKind::Fault { fault } => {
            let named = fault
                .try_map(|id| Ok::<String, ()>(n.node(*id).as_str().unwrap_or("net").to_string()))
                .expect("naming never fails");
            m.insert("fault".into(), through_text(&named));
            fault.kind()
        }
        EventKind::Command { command } => {
            let named = command
                .try_map(|id| Ok::<String, ()>(n.node(*id).as_str().unwrap_or("net").to_string()))
                .expect("naming never fails");
            m.insert("fault".into(), through_text(&named));
            command.kind()
        }
        EventKind::Resume => "resume",
        EventKind::Note(note) => {
            note_fields(n, note, &mut m);
            note.type_name()
        }
        EventKind::Violation { invariant, detail } => {
            m.insert("invariant".into(), json!(invariant.as_str()));
            m.insert("detail".into(), json!(detail));
            "violation"
        }
        EventKind::Foreign { kind, detail } => {
            if !detail.is_empty() {
                m.insert("detail".into(), json!(detail));
            }
            m.insert("kind".into(), json!(kind));
            return J::Object(m);
        }
    };
    m.insert("kind".into(), json!(kind));
    J::Object(m)
}

/// A fault or command as a JSON value, through its compact text rather than
/// `serde_json::to_value` (whose serializer would be one more copy of every
/// fault's and command's `Serialize`); the same value either way, floats
/// included (`float::decimal` reads them exactly).
fn through_text(x: &impl serde::Serialize) -> J {
    let text = serde_json::to_vec(x).expect("faults and commands serialize");
    crate::json::parse(&text).expect("what serde_json wrote, it reads")
}

pub fn events_json(names: &[String], events: &[TraceEvent]) -> Vec<J> {
    let n = Namer(names);
    events.iter().map(|e| event_json(&n, e)).collect()
}

/// FNV-1a over each event's compact JSON and a newline.
pub fn events_hash(names: &[String], events: &[TraceEvent]) -> u64 {
    let n = Namer(names);
    let mut buf = Vec::with_capacity(256 * events.len().min(100_000));
    for e in events {
        serde_json::to_writer(&mut buf, &event_json(&n, e)).expect("writing to a Vec cannot fail");
        buf.push(b'\n');
    }
    super::fnv1a(&buf)
}

/// The envelope, with its keys in the order a `serde_json` map writes them
/// (sorted): written by hand so that the scenario goes through the one
/// compact serializer the page has (`Scenario::to_json_compact`), not again
/// through `serde_json::Value`'s.
fn envelope(scenario: &Scenario, recorded_on: Option<&str>, events: Option<Vec<J>>) -> String {
    let mut s = String::from("{");
    if let Some(events) = events {
        s.push_str("\"events\":");
        s.push_str(&J::Array(events).to_string());
        s.push(',');
    }
    s.push_str("\"format\":");
    s.push_str(&J::from(FORMAT).to_string());
    if let Some(r) = recorded_on {
        s.push_str(",\"recorded_on\":");
        s.push_str(&J::from(r).to_string());
    }
    s.push_str(",\"scenario\":");
    s.push_str(&scenario.to_json_compact());
    s.push_str(",\"version\":");
    s.push_str(&VERSION.to_string());
    s.push('}');
    s
}

/// The whole trace file.
pub fn export(scenario: &Scenario, names: &[String], events: &[TraceEvent]) -> String {
    envelope(scenario, None, Some(events_json(names, events)))
}

/// A trace recorded on a real server, live (`paxos-island pg --live`,
/// `paxos-island etcd`): `recorded_on` says where and how. The scenario gives
/// the names and the settings; it cannot reproduce the events (wall-clock
/// time, real threads), so a reader shows them as recorded.
pub fn export_recorded(
    scenario: &Scenario,
    names: &[String],
    events: &[TraceEvent],
    recorded_on: &str,
) -> String {
    envelope(
        scenario,
        Some(recorded_on),
        Some(events_json(names, events)),
    )
}

/// The scenario alone, in the same envelope but without events, laid out
/// for reading.
pub fn export_scenario(scenario: &Scenario) -> String {
    super::pretty::pretty(&envelope(scenario, None, None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{builtin, lease_spec, Run};

    /// The hand-written envelope holds what `json!` held (the scenario's
    /// keys now in its fields' order, as `Scenario::to_json` writes them,
    /// rather than sorted), and `through_text` gives what `to_value` gave.
    #[test]
    fn the_envelope_holds_what_serde_json_wrote() {
        let parse = |s: &str| serde_json::from_str::<J>(s).unwrap();
        for name in ["crash-f", "partition-heal", "lossy"]
            .into_iter()
            .chain(lease_spec::BUILTIN_NAMES.into_iter().take(4))
        {
            let s = builtin::get(name).unwrap();
            let run = Run::record(&s).unwrap();
            let events = events_json(&run.names, &run.trace);
            let text = export(&s, &run.names, &run.trace);
            let doc =
                json!({"format": FORMAT, "version": VERSION, "scenario": &s, "events": events});
            assert_eq!(parse(&text), doc, "{name}");
            assert!(text.starts_with("{\"events\":[{") && text.ends_with(",\"version\":1}"));
            assert!(text.contains(&format!(",\"scenario\":{},", s.to_json_compact())));
            let doc = json!({"format": FORMAT, "version": VERSION, "recorded_on": "pg \"live\"", "scenario": &s, "events": events});
            assert_eq!(
                parse(&export_recorded(&s, &run.names, &run.trace, "pg \"live\"")),
                doc
            );
            let doc = json!({"format": FORMAT, "version": VERSION, "scenario": &s});
            let pretty = export_scenario(&s);
            assert_eq!(parse(&pretty), doc);
            assert!(pretty.starts_with(
                "{\n  \"format\": \"paxos-island-trace\",\n  \"scenario\": {\n    \"name\": "
            ));
            for step in &s.faults {
                let named = &step.fault;
                assert_eq!(through_text(named), serde_json::to_value(named).unwrap());
            }
        }
    }
}
