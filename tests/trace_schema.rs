//! Every trace the simulator writes must match the published JSON Schema
//! (`docs/trace-format.schema.json`), so the documented format and the code
//! cannot drift apart unnoticed.
//!
//! Why a small validator of our own: the real ones are heavy dev-dependencies
//! for this crate (measured cold, debug: `jsonschema` 0.61 without default
//! features ≈ 75 s and 78 crates, `boon` 0.6 ≈ 29 s and 73 crates, against
//! ≈ 70 s for this whole test suite). The schema uses a small subset of JSON
//! Schema 2020-12 — `$ref` into `$defs`, `type`, `enum`, `const`, `properties`,
//! `required`, `additionalProperties: false`, `items`, `oneOf`, `anyOf`,
//! `minimum`, `maximum`, `minLength`, `maxLength` — and this validator
//! implements exactly that subset with the standard's semantics. It refuses a
//! schema that uses any other keyword, so the subset cannot grow silently,
//! and the last tests show it does reject broken events.

use paxos_island::check::explore::paxos::PaxosModel;
use paxos_island::check::explore::Stop;
use paxos_island::check::search::{random_paxos, FaultSet};
use paxos_island::check::{Invariant, Mutation};
use paxos_island::protocol::commit::CommitMutation;
use paxos_island::protocol::lease::LeaseMutation;
use paxos_island::protocol::paxos::PaxosMutation;
use paxos_island::scenario::builtin;
use paxos_island::scenario::commit_spec::random_commit;
use paxos_island::scenario::lease_spec::random_lease_with;
use paxos_island::scenario::run::Run;
use paxos_island::scenario::Scenario;
use paxos_island::trace::json::export;
use serde_json::Value as J;
use std::collections::BTreeSet;

const SCHEMA: &str = include_str!("../docs/trace-format.schema.json");
const DOC: &str = include_str!("../docs/trace-format.md");

const KEYWORDS: [&str; 19] = [
    "$schema",
    "$id",
    "$defs",
    "$ref",
    "title",
    "description",
    "type",
    "enum",
    "const",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "oneOf",
    "anyOf",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
];

struct Validator {
    root: J,
}

impl Validator {
    fn new() -> Self {
        let root: J = serde_json::from_str(SCHEMA).expect("the schema is JSON");
        Validator { root }
    }

    fn resolve<'a>(&'a self, r: &str) -> &'a J {
        let name = r
            .strip_prefix("#/$defs/")
            .unwrap_or_else(|| panic!("unsupported $ref {r}"));
        self.root["$defs"]
            .get(name)
            .unwrap_or_else(|| panic!("dangling $ref {r}"))
    }

    /// Problems of `v` against `s`, each prefixed with its JSON path.
    fn check(&self, s: &J, v: &J, path: &str, errs: &mut Vec<String>) {
        let J::Object(s) = s else {
            panic!("schema at {path} is not an object")
        };
        if let Some(J::String(r)) = s.get("$ref") {
            self.check(self.resolve(r), v, path, errs);
        }
        if let Some(t) = s.get("type") {
            let types: Vec<&str> = match t {
                J::String(x) => vec![x.as_str()],
                J::Array(xs) => xs.iter().filter_map(J::as_str).collect(),
                _ => panic!("bad type keyword at {path}"),
            };
            if !types.iter().any(|t| has_type(v, t)) {
                errs.push(format!("{path}: expected {types:?}, found {}", short(v)));
                return;
            }
        }
        if let Some(c) = s.get("const") {
            if !same(c, v) {
                errs.push(format!("{path}: expected {c}, found {}", short(v)));
            }
        }
        if let Some(J::Array(options)) = s.get("enum") {
            if !options.iter().any(|o| same(o, v)) {
                errs.push(format!(
                    "{path}: {} is not one of {}",
                    short(v),
                    J::Array(options.clone())
                ));
            }
        }
        if let (Some(min), Some(x)) = (s.get("minimum").and_then(J::as_f64), v.as_f64()) {
            if x < min {
                errs.push(format!("{path}: {x} is below the minimum {min}"));
            }
        }
        if let (Some(max), Some(x)) = (s.get("maximum").and_then(J::as_f64), v.as_f64()) {
            if x > max {
                errs.push(format!("{path}: {x} is above the maximum {max}"));
            }
        }
        if let J::String(text) = v {
            let len = text.chars().count() as u64; // the standard counts characters
            if s.get("minLength")
                .and_then(J::as_u64)
                .is_some_and(|m| len < m)
            {
                errs.push(format!("{path}: text too short"));
            }
            if s.get("maxLength")
                .and_then(J::as_u64)
                .is_some_and(|m| len > m)
            {
                errs.push(format!("{path}: text too long"));
            }
        }
        if let J::Object(o) = v {
            if let Some(J::Array(req)) = s.get("required") {
                for k in req.iter().filter_map(J::as_str) {
                    if !o.contains_key(k) {
                        errs.push(format!("{path}: missing \"{k}\""));
                    }
                }
            }
            let props = s.get("properties").and_then(J::as_object);
            for (k, x) in o {
                match props.and_then(|p| p.get(k)) {
                    Some(ps) => self.check(ps, x, &format!("{path}.{k}"), errs),
                    None if s.get("additionalProperties") == Some(&J::Bool(false)) => {
                        errs.push(format!("{path}: unexpected field \"{k}\""))
                    }
                    None => {}
                }
            }
        }
        if let (J::Array(items), Some(is)) = (v, s.get("items")) {
            for (i, x) in items.iter().enumerate() {
                self.check(is, x, &format!("{path}[{i}]"), errs);
            }
        }
        for (word, exactly_one) in [("oneOf", true), ("anyOf", false)] {
            let Some(J::Array(alts)) = s.get(word) else {
                continue;
            };
            let results: Vec<Vec<String>> = alts
                .iter()
                .map(|a| {
                    let mut e = Vec::new();
                    self.check(a, v, path, &mut e);
                    e
                })
                .collect();
            let ok = results.iter().filter(|e| e.is_empty()).count();
            if ok == 0 {
                // Report the closest alternative: usually the one whose tag matched.
                let best = results.into_iter().min_by_key(Vec::len).unwrap_or_default();
                errs.push(format!(
                    "{path}: matches no alternative of {word}; closest: {}",
                    best.join("; ")
                ));
            } else if exactly_one && ok > 1 {
                errs.push(format!("{path}: matches {ok} alternatives of oneOf"));
            }
        }
    }

    fn validate(&self, v: &J) -> Vec<String> {
        let mut errs = Vec::new();
        self.check(&self.root, v, "$", &mut errs);
        errs
    }
}

fn has_type(v: &J, t: &str) -> bool {
    match t {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        "number" => v.is_number(),
        // 2020-12: any number with a zero fractional part is an integer.
        "integer" => v.is_u64() || v.is_i64() || v.as_f64().is_some_and(|x| x.fract() == 0.0),
        other => panic!("unsupported type {other}"),
    }
}

/// JSON equality, with numbers compared by value (1 equals 1.0).
fn same(a: &J, b: &J) -> bool {
    match (a, b) {
        (J::Number(x), J::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

fn short(v: &J) -> String {
    v.to_string().chars().take(60).collect()
}

/// Every keyword the schema uses is one this validator implements.
fn keywords_used(s: &J, out: &mut BTreeSet<String>) {
    match s {
        J::Object(o) => {
            for (k, v) in o {
                out.insert(k.clone());
                match k.as_str() {
                    "properties" | "$defs" => v
                        .as_object()
                        .into_iter()
                        .flatten()
                        .for_each(|(_, x)| keywords_used(x, out)),
                    "enum" | "const" | "required" | "type" | "description" | "title" => {}
                    _ => keywords_used(v, out),
                }
            }
        }
        J::Array(a) => a.iter().for_each(|x| keywords_used(x, out)),
        _ => {}
    }
}

fn trace_of(s: &Scenario) -> J {
    let run = Run::record(s).unwrap_or_else(|e| panic!("{}: {e}", s.name));
    serde_json::from_str(&export(&run.scenario, &run.names, &run.trace)).expect("export is JSON")
}

fn assert_valid(v: &Validator, doc: &J, what: &str) {
    let errs = v.validate(doc);
    assert!(
        errs.is_empty(),
        "{what}: {} problems, first: {:#?}",
        errs.len(),
        &errs[..errs.len().min(3)]
    );
}

#[test]
fn the_schema_uses_only_what_the_validator_implements() {
    let v = Validator::new();
    let mut used = BTreeSet::new();
    keywords_used(&v.root, &mut used);
    for k in &used {
        assert!(
            KEYWORDS.contains(&k.as_str()),
            "the schema uses {k:?}, which this validator does not implement"
        );
    }
}

#[test]
fn every_builtin_trace_matches_the_schema() {
    let v = Validator::new();
    let mut kinds = BTreeSet::new();
    for name in builtin::names() {
        let doc = trace_of(&builtin::get(name).expect("listed"));
        assert_valid(&v, &doc, name);
        for (i, e) in doc["events"].as_array().expect("events").iter().enumerate() {
            kinds.insert(e["kind"].as_str().unwrap_or("").to_string());
            // An event's own fields never overwrite the envelope's (a note's
            // `seq` once did, and the trace would not open again).
            assert_eq!(
                e["seq"].as_u64(),
                Some(i as u64),
                "{name}: event {i} has seq {}: {e}",
                e["seq"]
            );
        }
        // And the file opens again: `replay --verify` accepts it.
        let text = serde_json::to_string(&doc).unwrap();
        let imported =
            paxos_island::trace::import::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let scenario = imported
            .scenario
            .expect("the envelope carries the scenario");
        assert!(
            matches!(
                paxos_island::trace::import::verify(&scenario, &imported.events),
                paxos_island::trace::import::Verdict::Identical { .. }
            ),
            "{name}: replay --verify refuses its own trace"
        );
    }
    assert!(
        kinds.len() >= 30,
        "only {} kinds seen: {kinds:?}",
        kinds.len()
    );
}

#[test]
fn mutations_and_random_schedules_match_the_schema_too() {
    // These reach what the demos do not: violations, forced decrees after
    // restarts, clock steps, drift, loss changes, proposals injected mid-run.
    let v = Validator::new();
    for m in Mutation::all() {
        if let Some((name, s)) = builtin::showcase(m) {
            assert_valid(&v, &trace_of(&s), &format!("{name} with {m}"));
        }
    }
    for seed in 0..8 {
        let mutation = [
            None,
            Some(Mutation::Paxos(PaxosMutation::SkipB3)),
            Some(Mutation::Paxos(PaxosMutation::MinorityQuorum)),
        ][seed as usize % 3];
        assert_valid(
            &v,
            &trace_of(&random_paxos(seed, FaultSet::ALL, mutation)),
            &format!("random paxos {seed}"),
        );
        let lm = [
            None,
            Some(Mutation::Lease(LeaseMutation::NoFence)),
            Some(Mutation::Lease(LeaseMutation::BlindAcquire)),
        ][seed as usize % 3];
        let s = random_lease_with(
            seed,
            FaultSet::ALL,
            lm,
            paxos_island::protocol::storage::Fencing::ALL[(seed % 3) as usize],
        );
        assert_valid(&v, &trace_of(&s), &format!("random lease {seed}"));
        let cm = [
            None,
            Some(Mutation::Commit(CommitMutation::CommitWithoutAllPrepared)),
        ][seed as usize % 2];
        assert_valid(
            &v,
            &trace_of(&random_commit(seed, FaultSet::ALL, cm)),
            &format!("random commit {seed}"),
        );
        let mm = [
            None,
            Some(Mutation::Multipaxos(
                paxos_island::protocol::multipaxos::MpMutation::NoLeaseWait,
            )),
        ][seed as usize % 2];
        let s = paxos_island::scenario::multipaxos_spec::random_multipaxos(seed, FaultSet::ALL, mm);
        assert_valid(&v, &trace_of(&s), &format!("random multipaxos {seed}"));
    }
    // A model checker's counterexample: a scripted network, deliver and fire steps.
    let model = PaxosModel {
        mutation: Some(PaxosMutation::PickFirstVote),
        ..PaxosModel::default()
    };
    let mut x = model.explorer(Stop::When(Invariant::Agreement));
    while !x.run(100_000) {}
    let path = x
        .violations()
        .iter()
        .find(|v| v.invariant == Invariant::Agreement)
        .expect("caught")
        .path
        .clone();
    assert_valid(
        &v,
        &trace_of(&model.counterexample(&mut x, &path, "counterexample")),
        "counterexample",
    );
}

#[test]
fn the_validator_rejects_broken_traces() {
    let v = Validator::new();
    let good = trace_of(&builtin::get("forced").expect("built in"));
    assert_valid(&v, &good, "forced");
    let first_send = good["events"]
        .as_array()
        .unwrap()
        .iter()
        .position(|e| e["kind"] == "send")
        .unwrap();
    type Break = fn(&mut J);
    let breaks: [(&str, Break); 10] = [
        ("msg removed", |e| {
            drop(e.as_object_mut().unwrap().remove("msg"))
        }),
        ("unknown kind", |e| e["kind"] = J::from("sned")),
        ("extra field", |e| e["colour"] = J::from("red")),
        ("time as text", |e| e["t_us"] = J::from("12")),
        ("negative seq", |e| e["seq"] = J::from(-1)),
        ("fractional time", |e| e["t_us"] = J::from(1.5)),
        ("round as text", |e| {
            e["msg"]["ballot"]["round"] = J::from("1")
        }),
        ("unknown message type", |e| {
            e["msg"]["type"] = J::from("nextballot")
        }),
        ("value on a prepare", |e| e["msg"]["value"] = J::from("α")),
        ("empty node name", |e| e["node"] = J::from("")),
    ];
    for (what, f) in breaks {
        let mut doc = good.clone();
        f(&mut doc["events"][first_send]);
        let errs = v.validate(&doc);
        assert!(!errs.is_empty(), "{what}: the broken event was accepted");
        assert!(
            errs[0].contains(&format!("$.events[{first_send}]")),
            "{what}: {errs:?}"
        );
    }
    let mut doc = good.clone();
    doc["version"] = J::from(2);
    assert!(!v.validate(&doc).is_empty(), "version 2 accepted");
    let mut doc = good;
    doc["scenario"]["stop_at_us"] = J::from(0);
    assert!(!v.validate(&doc).is_empty(), "stop_at_us 0 accepted");
}

#[test]
fn the_document_describes_every_event_kind() {
    let v = Validator::new();
    for (name, def) in v.root["$defs"].as_object().expect("$defs") {
        if name.starts_with("event_") {
            let kind = def["properties"]["kind"]["const"]
                .as_str()
                .unwrap_or_else(|| panic!("{name} has no kind"));
            assert!(
                DOC.contains(&format!("`{kind}`")),
                "docs/trace-format.md does not mention `{kind}`"
            );
        }
    }
}
