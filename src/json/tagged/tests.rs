//! The hand readers of `Latency` and `LlmPreset` against serde's derive with
//! the attributes they had (`#[serde(tag = …, deny_unknown_fields)]`), on
//! every variant written out, then damaged one way at a time.

use crate::json::oracle::agree;
use crate::protocol::llm::LlmPreset;
use crate::sim::dist::Latency;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

#[derive(Serialize, Deserialize)]
#[serde(tag = "dist", rename_all = "snake_case", deny_unknown_fields)]
enum Derived {
    Constant {
        us: u64,
    },
    Uniform {
        min_us: u64,
        max_us: u64,
    },
    Normal {
        mean_us: u64,
        sd_us: u64,
        #[serde(default)]
        min_us: u64,
    },
    LogNormal {
        median_us: u64,
        sigma: f64,
    },
    Exponential {
        mean_us: u64,
        #[serde(default)]
        min_us: u64,
    },
    LlmLike {
        median_us: u64,
        sigma: f64,
        tail_prob: f64,
        tail_min_us: u64,
        tail_alpha: f64,
        max_us: u64,
    },
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "preset", rename_all = "snake_case", deny_unknown_fields)]
enum DerivedPreset {
    FastApi,
    TypicalLlm,
    Stall { for_us: u64 },
    Timeout,
    RateLimit { retry_after_us: u64 },
    Refusal,
    MalformedJson,
    Outage,
    Flaky,
    Throttled,
    Custom { latency: Derived },
}

/// Each variant in full, then each with one field dropped, one field of the
/// wrong type, one key too many, and its tag changed.
fn cases(tag: &str, full: &[Value]) -> Vec<String> {
    let mut out = Vec::new();
    for v in full {
        let obj = v.as_object().unwrap();
        out.push(v.to_string());
        for key in obj.keys() {
            let mut less = obj.clone();
            less.remove(key);
            out.push(Value::Object(less).to_string());
            if key != tag {
                for bad in [
                    json!("x"),
                    json!(-1),
                    json!(1.5),
                    json!(null),
                    json!([1]),
                    json!(7),
                ] {
                    let mut wrong = obj.clone();
                    wrong.insert(key.clone(), bad);
                    out.push(Value::Object(wrong).to_string());
                }
            }
        }
        let mut more = obj.clone();
        more.insert("extra".into(), json!(1));
        out.push(Value::Object(more).to_string());
        let mut other = obj.clone();
        other.insert(tag.into(), json!("no_such_kind"));
        out.push(Value::Object(other).to_string());
        let mut number = obj.clone();
        number.insert(tag.into(), json!(3));
        out.push(Value::Object(number).to_string());
    }
    out.extend(["null", "3", "\"constant\"", "[]", "{}"].map(String::from));
    out
}

fn latencies() -> Vec<Value> {
    vec![
        json!({"dist": "constant", "us": 5}),
        json!({"dist": "uniform", "min_us": 1, "max_us": 9}),
        json!({"dist": "normal", "mean_us": 40_000, "sd_us": 5_000, "min_us": 100}),
        json!({"dist": "log_normal", "median_us": 1_500_000, "sigma": 0.30000000000000004}),
        json!({"dist": "exponential", "mean_us": 20_000, "min_us": 3}),
        json!({"dist": "llm_like", "median_us": 1, "sigma": 2, "tail_prob": 0.03,
               "tail_min_us": 4, "tail_alpha": 1.5, "max_us": 6}),
    ]
}

#[test]
fn latencies_read_as_the_derived_reader_read_them() {
    let cases = cases("dist", &latencies());
    let accepted = cases
        .iter()
        .filter(|t| agree::<Latency, Derived>(t))
        .count();
    // Each full variant, the defaults' two fields left out, and whole
    // numbers where any number goes; everything else refused by both.
    assert_eq!((accepted, cases.len()), (32, 147));
}

#[test]
fn presets_read_as_the_derived_reader_read_them() {
    let mut full: Vec<Value> = LlmPreset::KINDS
        .iter()
        .map(|k| json!({ "preset": k }))
        .collect();
    full[2] = json!({"preset": "stall", "for_us": 20_000_000});
    full[4] = json!({"preset": "rate_limit", "retry_after_us": 2_000_000});
    full[10] = json!({"preset": "custom", "latency": {"dist": "constant", "us": 5}});
    let mut cases = cases("preset", &full);
    for l in latencies() {
        cases.push(json!({"preset": "custom", "latency": l}).to_string());
    }
    cases.push(r#"{"preset": "custom", "latency": {"dist": "constant"}}"#.into());
    cases.push(r#"{"preset": "custom", "latency": {"dist": "constant", "us": 1, "x": 2}}"#.into());
    // serde lets a preset without fields carry any other key, although the
    // enum denies unknown fields; ours refuses it like any other stray key.
    let stray = |t: &String| t.contains("\"extra\"") && !t.contains("_us");
    let strays: Vec<&String> = cases.iter().filter(|t| stray(t)).collect();
    assert!(strays.len() >= 8, "{strays:?}");
    for t in strays {
        assert!(crate::json::read::<LlmPreset>(t.as_bytes()).is_err(), "{t}");
    }
    let compared: Vec<&String> = cases.iter().filter(|t| !stray(t)).collect();
    let accepted = compared
        .iter()
        .filter(|t| agree::<LlmPreset, DerivedPreset>(t))
        .count();
    // Each preset in full, each latency inside `custom`, and a whole number
    // where a u64 goes (stall, rate limit).
    assert_eq!((accepted, compared.len()), (11 + 6 + 2, 80));
}

#[test]
fn messages_name_the_field_and_what_was_expected() {
    let e = |t: &str| {
        crate::json::read::<Latency>(t.as_bytes())
            .unwrap_err()
            .message
    };
    assert_eq!(e(r#"{"us": 5}"#), "missing field `dist`");
    assert_eq!(e(r#"{"dist": "constant"}"#), "missing field `us`");
    assert_eq!(
        e(r#"{"dist": "constant", "us": -1}"#),
        "invalid value for `us`: integer `-1`, expected u64"
    );
    assert_eq!(
        e(r#"{"dist": "constant", "us": 1, "ms": 2}"#),
        "unknown field `ms`, expected `us`"
    );
    assert!(e(r#"{"dist": "gamma"}"#)
        .starts_with("unknown variant `gamma`, expected one of `constant`, `uniform`"));
    let p = |t: &str| {
        crate::json::read::<LlmPreset>(t.as_bytes())
            .unwrap_err()
            .message
    };
    assert_eq!(
        p(r#"{"preset": "outage", "for_us": 1}"#),
        "unknown field `for_us`, there are no fields"
    );
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum DerivedFault {
    Crash {
        node: String,
    },
    Restart {
        node: String,
    },
    Pause {
        node: String,
        for_us: u64,
    },
    Partition {
        groups: Vec<Vec<String>>,
        #[serde(default)]
        oneway: bool,
    },
    Heal,
    SetLoss {
        p: f64,
    },
    SetDuplicate {
        p: f64,
    },
    SetReorder {
        p: f64,
    },
    SetLatency {
        latency: Derived,
    },
    ClockStep {
        node: String,
        by_us: i64,
    },
    SetDrift {
        node: String,
        ppm: i64,
    },
    Deliver {
        id: u64,
    },
    Fire {
        node: String,
        timer: String,
    },
}

#[test]
fn faults_read_as_the_derived_reader_read_them() {
    use crate::sim::fault::Fault;
    let full = [
        json!({"crash": {"node": "Α"}}),
        json!({"restart": {"node": "Β"}}),
        json!({"pause": {"node": "Γ", "for_us": 500_000}}),
        json!({"partition": {"groups": [["Α", "Β"], ["Γ"]], "oneway": true}}),
        json!({"set_loss": {"p": 0.33299999999999996}}),
        json!({"set_duplicate": {"p": 0.1}}),
        json!({"set_reorder": {"p": 1}}),
        json!({"set_latency": {"latency": {"dist": "constant", "us": 5}}}),
        json!({"clock_step": {"node": "Α", "by_us": -250_000}}),
        json!({"set_drift": {"node": "Α", "ppm": 200}}),
        json!({"deliver": {"id": 17}}),
        json!({"fire": {"node": "Α", "timer": "retry"}}),
    ];
    let mut cases: Vec<String> = vec![
        "\"heal\"".into(),
        r#"{"heal": null}"#.into(),
        r#"{"heal": {}}"#.into(),
        r#"{"heal": 1}"#.into(),
        "\"crash\"".into(),
        r#"{"crash": null}"#.into(),
        r#"{"crash": []}"#.into(),
        r#"{"crash": {"node": "Α"}, "heal": null}"#.into(),
        r#"{"melt": {"node": "Α"}}"#.into(),
        r#"{"set_latency": {"latency": {"dist": "gamma"}}}"#.into(),
    ];
    cases.extend(damaged_variants(&full));
    let accepted = cases
        .iter()
        .filter(|t| agree::<Fault<String>, DerivedFault>(t))
        .count();
    // 12 faults in full, `heal` two ways, `partition` without `oneway`, and
    // the replacements that still fit: 9 numbers as a probability, 4 signed
    // and 2 unsigned whole numbers, 6 node names and a timer given "x", a
    // `true` and a list of lists; the other 131 refused by both.
    assert_eq!(
        (accepted, cases.len()),
        (12 + 2 + 1 + 9 + 4 + 2 + 7 + 2, 170)
    );
}

/// Externally tagged variants (`{"kind": {fields}}`) in full, then each with
/// one field dropped, one field replaced by a value of each JSON type, and
/// one key too many.
fn damaged_variants(full: &[Value]) -> Vec<String> {
    let mut cases = Vec::new();
    for v in full {
        let (kind, content) = v.as_object().unwrap().iter().next().unwrap();
        let obj = content.as_object().unwrap();
        cases.push(v.to_string());
        for key in obj.keys() {
            let mut less = obj.clone();
            less.remove(key);
            cases.push(json!({ kind: less }).to_string());
            for bad in [
                json!("x"),
                json!(-1),
                json!(1.5),
                json!(null),
                json!([["A"]]),
                json!(7),
                json!(true),
            ] {
                let mut wrong = obj.clone();
                wrong.insert(key.clone(), bad);
                cases.push(json!({ kind: wrong }).to_string());
            }
        }
        let mut more = obj.clone();
        more.insert("extra".into(), json!(1));
        cases.push(json!({ kind: more }).to_string());
    }
    cases
}

/// Every protocol's commands as they were derived: one externally tagged
/// namespace (`flat`).
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum DerivedCommand {
    Propose {
        node: String,
        value: String,
    },
    Put {
        node: String,
        key: String,
        value: String,
    },
    Get {
        node: String,
        key: String,
    },
    VoteAbort {
        node: String,
    },
    LlmStall {
        node: String,
        for_us: u64,
    },
    LlmOutage {
        down: bool,
    },
}

#[test]
fn commands_read_as_the_derived_reader_read_them() {
    use crate::protocol::Command;
    let full = [
        json!({"propose": {"node": "Α", "value": "🐐 tax"}}),
        json!({"put": {"node": "C1", "key": "x", "value": "1"}}),
        json!({"get": {"node": "C1", "key": "x"}}),
        json!({"vote_abort": {"node": "RM2"}}),
        json!({"llm_stall": {"node": "W1", "for_us": 20_000_000}}),
        json!({"llm_outage": {"down": true}}),
    ];
    let mut cases = damaged_variants(&full);
    cases.extend(
        [
            r#""propose""#,
            r#"{"propose": null}"#,
            r#"{"propose": []}"#,
            r#"{"elect": {"node": "Α"}}"#,
            "{}",
        ]
        .map(String::from),
    );
    let accepted = cases
        .iter()
        .filter(|t| agree::<Command<String>, DerivedCommand>(t))
        .count();
    // 6 commands in full, and the replacements that still fit: "x" for each
    // of 9 string fields, 7 for the one u64, `true` for the one bool.
    assert_eq!((accepted, cases.len()), (6 + 9 + 1 + 1, 6 + 11 * 8 + 6 + 5));
}
