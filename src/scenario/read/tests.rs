//! The scenario's hand readers against serde's derive with the attributes
//! the structs keep for writing (`#[cfg_attr(test, derive(Deserialize))]`):
//! every built-in scenario as written, then damaged at one place at a time.
//! (The faults, commands, latencies and LLM presets inside are read by hand
//! on both sides here; `json::tagged`'s tests hold them to copies of their
//! old derived enums.)

use super::super::{builtin, Scenario, Scheduled};
use crate::json::oracle::agree;
use serde_json::{json, Value};
use std::collections::BTreeSet;

/// Values that are wrong for most fields, and right for some.
fn others() -> [Value; 8] {
    [
        json!(null),
        json!("x"),
        json!(-1),
        json!(1.5),
        json!(70_000),
        json!(true),
        json!([1]),
        json!({}),
    ]
}

/// `doc` damaged at one place each: at every object, a key dropped, a key
/// too many, each key's value replaced by each of `others`; at every list,
/// an item replaced by each of `others`, and the list emptied.
pub(crate) fn damaged(doc: &Value, out: &mut BTreeSet<String>) {
    fn walk(at: &mut Value, root: &Value, path: &mut Vec<PathStep>, out: &mut BTreeSet<String>) {
        match at {
            Value::Object(map) => {
                let keys: Vec<String> = map.keys().cloned().collect();
                let mut more = root.clone();
                if let Value::Object(m) = get_mut(&mut more, path) {
                    m.insert("extra".into(), json!(1));
                }
                out.insert(more.to_string());
                for k in keys {
                    let mut less = root.clone();
                    if let Value::Object(m) = get_mut(&mut less, path) {
                        m.remove(&k);
                    }
                    out.insert(less.to_string());
                    path.push(PathStep::Key(k.clone()));
                    replace(root, path, out);
                    walk(map.get_mut(&k).expect("a key"), root, path, out);
                    path.pop();
                }
            }
            Value::Array(items) => {
                let mut empty = root.clone();
                *get_mut(&mut empty, path) = json!([]);
                out.insert(empty.to_string());
                for (i, item) in items.iter_mut().enumerate() {
                    path.push(PathStep::Index(i));
                    replace(root, path, out);
                    walk(item, root, path, out);
                    path.pop();
                }
            }
            _ => {}
        }
    }
    fn replace(root: &Value, path: &[PathStep], out: &mut BTreeSet<String>) {
        for bad in others() {
            let mut doc = root.clone();
            *get_mut(&mut doc, path) = bad;
            out.insert(doc.to_string());
        }
    }
    let mut copy = doc.clone();
    walk(&mut copy, doc, &mut Vec::new(), out);
}

#[derive(Clone)]
enum PathStep {
    Key(String),
    Index(usize),
}

fn get_mut<'a>(v: &'a mut Value, path: &[PathStep]) -> &'a mut Value {
    path.iter().fold(v, |v, step| match step {
        PathStep::Key(k) => v.get_mut(k.as_str()).expect("a key on the path"),
        PathStep::Index(i) => v.get_mut(*i).expect("an item on the path"),
    })
}

#[test]
fn every_built_in_scenario_damaged_once_reads_as_the_derive_reads_it() {
    let mut cases = BTreeSet::new();
    let mut full = 0;
    for name in builtin::names() {
        let s = builtin::get(name).expect("a built-in");
        let doc = serde_json::to_value(&s).unwrap();
        assert!(agree::<Scenario, Scenario>(&doc.to_string()), "{name}");
        full += 1;
        damaged(&doc, &mut cases);
    }
    for t in ["null", "3", "\"x\"", "[]", "{}"] {
        cases.insert(t.into());
    }
    let (mut accepted, mut positional) = (0, 0);
    for t in &cases {
        let ours = crate::json::read::<Scenario>(t.as_bytes());
        match (ours, serde_json::from_str::<Scenario>(t)) {
            (Ok(a), Ok(b)) => {
                let (a, b) = (
                    serde_json::to_value(a).unwrap(),
                    serde_json::to_value(b).unwrap(),
                );
                assert_eq!(a, b, "{t}");
                accepted += 1;
            }
            (Err(_), Err(_)) => {}
            // serde's derive also reads a struct from a list of its fields
            // in order (`"multipaxos": [1]`); the app never wrote one and
            // the format is objects, so ours refuses it.
            (Err(e), Ok(_)) if e.message.ends_with("a sequence, expected an object") => {
                positional += 1
            }
            (ours, theirs) => panic!("{t}: ours {:?}, derived {:?}", ours.err(), theirs.err()),
        }
    }
    // Both readers accept some damage (a default's field left out, a whole
    // number where any number goes, an optional field set to `null`) and
    // refuse the rest; the counts show the test saw both.
    assert!(full >= 30, "{full} built-in scenarios");
    assert!(cases.len() > 20_000, "{} cases", cases.len());
    assert!(
        accepted > 1_000 && accepted < cases.len() / 2,
        "{accepted} of {}",
        cases.len()
    );
    assert!(positional < 100, "{positional} structs read from lists");
    eprintln!(
        "{} cases: {accepted} accepted by both, {positional} structs as lists refused by ours",
        cases.len()
    );
}

#[test]
fn a_script_step_reads_as_the_derive_reads_it() {
    let steps = [
        r#"{"at_us": 5, "fault": "heal"}"#,
        r#"{"at_us": 5, "fault": {"crash": {"node": "Α"}}}"#,
        r#"{"at_us": 5, "fault": {"propose": {"node": "Α", "value": "x"}}}"#,
        r#"{"at_us": 5, "fault": {"llm_stall": {"node": "w1", "for_us": 3}}}"#,
        r#"{"at_us": 5, "fault": {"crash": {"node": "Α"}, "heal": null}}"#,
        r#"{"at_us": 5, "fault": {}}"#,
        r#"{"at_us": 5, "fault": "crash"}"#,
        r#"{"at_us": 5, "fault": "no_such"}"#,
        r#"{"at_us": 5, "fault": {"no_such": {}}}"#,
        r#"{"at_us": 5, "fault": 3}"#,
        r#"{"at_us": 5, "fault": null}"#,
        r#"{"at_us": 5}"#,
        r#"{"at_us": 5, "fault": "heal", "x": 1}"#,
    ];
    let accepted = steps
        .iter()
        .filter(|t| agree::<Scheduled<String>, Scheduled<String>>(t))
        .count();
    assert_eq!(accepted, 4);
}

#[test]
fn a_message_says_where_in_the_scenario_the_problem_is() {
    let mut doc = serde_json::to_value(builtin::get("dueling").unwrap()).unwrap();
    doc["nodes"][1]["roles"][0] = json!("acceptr");
    let e = crate::json::from_value::<Scenario>(doc)
        .unwrap_err()
        .message;
    assert!(
        e.starts_with("`nodes`: item 2: `roles`: item 1: unknown variant `acceptr`, expected one of `proposer`"),
        "{e}"
    );
    let mut doc = serde_json::to_value(builtin::get("dueling").unwrap()).unwrap();
    doc["seed"] = json!("7");
    let e = crate::json::from_value::<Scenario>(doc)
        .unwrap_err()
        .message;
    assert_eq!(e, "invalid type for `seed`: string \"7\", expected u64");
    let mut doc = serde_json::to_value(builtin::get("dueling").unwrap()).unwrap();
    doc["network"]["loss"] = json!("lots");
    let e = crate::json::from_value::<Scenario>(doc)
        .unwrap_err()
        .message;
    assert_eq!(
        e,
        "`network`: invalid type for `loss`: string \"lots\", expected f64"
    );
}
