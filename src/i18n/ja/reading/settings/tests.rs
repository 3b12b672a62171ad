use super::{fill, REASONS};
use crate::i18n::Lang;
use crate::trace::import::{scenario_from_text, ImportError};
use serde_json::{json, Value};
use std::collections::BTreeSet;

/// A built-in scenario as its file says it.
fn doc(name: &str) -> Value {
    serde_json::to_value(crate::scenario::builtin::get(name).unwrap()).unwrap()
}

/// Does the node play `role`?
fn has(node: &Value, role: &str) -> bool {
    node["roles"]
        .as_array()
        .is_some_and(|r| r.contains(&json!(role)))
}

/// One damaged scenario for each of the checks' reasons: the built-in named,
/// changed by the edit.
fn cases() -> Vec<(&'static str, Box<dyn Fn(&mut Value)>)> {
    let node = |id: &str, role: &str| json!({"id": id, "roles": [role]});
    let fault = |f: Value| json!({"at_us": 1000, "fault": f});
    vec![
        // The network.
        (
            "dueling",
            Box::new(|v| {
                v["network"]["latency"] = json!({"dist": "uniform", "min_us": 9, "max_us": 1})
            }),
        ),
        (
            "dueling",
            Box::new(|v| {
                v["network"]["latency"] =
                    json!({"dist": "log_normal", "median_us": 9, "sigma": 9.0})
            }),
        ),
        (
            "dueling",
            Box::new(|v| v["network"]["latency"] = json!({"dist": "exponential", "mean_us": 0})),
        ),
        (
            "dueling",
            Box::new(
                |v| v["network"]["latency"] = json!({"dist": "llm_like", "median_us": 9, "sigma": 0.5, "tail_prob": 2.0, "tail_min_us": 9, "tail_alpha": 1.0, "max_us": 99}),
            ),
        ),
        (
            "dueling",
            Box::new(
                |v| v["network"]["latency"] = json!({"dist": "llm_like", "median_us": 9, "sigma": 0.5, "tail_prob": 0.5, "tail_min_us": 9, "tail_alpha": 0.0, "max_us": 99}),
            ),
        ),
        (
            "dueling",
            Box::new(
                |v| v["network"]["latency"] = json!({"dist": "llm_like", "median_us": 99, "sigma": 0.5, "tail_prob": 0.5, "tail_min_us": 9, "tail_alpha": 1.0, "max_us": 9}),
            ),
        ),
        ("dueling", Box::new(|v| v["network"]["loss"] = json!(1.5))),
        // The run, clocks and faults.
        ("dueling", Box::new(|v| v["stop_at_us"] = json!(0))),
        (
            "dueling",
            Box::new(|v| v["clocks"] = json!([{"node": "Α", "drift_ppm": 9_000_000}])),
        ),
        (
            "dueling",
            Box::new(move |v| {
                v["faults"] = json!([fault(json!({"pause": {"node": "Α", "for_us": 0}}))])
            }),
        ),
        (
            "dueling",
            Box::new(move |v| {
                v["faults"] = json!([fault(json!({"partition": {"groups": [[], ["Α"]]}}))])
            }),
        ),
        (
            "dueling",
            Box::new(move |v| v["faults"] = json!([fault(json!({"deliver": {"id": 0}}))])),
        ),
        (
            "dueling",
            Box::new(move |v| v["faults"] = json!([fault(json!({"vote_abort": {"node": "Α"}}))])),
        ),
        (
            "dueling",
            Box::new(move |v| {
                v["faults"] = json!([fault(json!({"propose": {"node": "Α", "value": ""}}))])
            }),
        ),
        (
            "dueling",
            Box::new(|v| v["paxos"]["proposals"][0]["value"] = json!("x".repeat(30))),
        ),
        (
            "multi-calm",
            Box::new(move |v| {
                v["faults"] = json!([fault(
                    json!({"put": {"node": "C1", "key": "q", "value": "7"}})
                )])
            }),
        ),
        (
            "multi-calm",
            Box::new(move |v| {
                v["faults"] = json!([fault(
                    json!({"put": {"node": "C1", "key": "x", "value": " "}})
                )])
            }),
        ),
        (
            "multi-calm",
            Box::new(move |v| {
                v["faults"] = json!([fault(
                    json!({"put": {"node": "C1", "key": "x", "value": "こんにちは世界です"}})
                )])
            }),
        ),
        (
            "multi-calm",
            Box::new(move |v| {
                v["faults"] = json!([fault(
                    json!({"put": {"node": "C1", "key": "x", "value": "a\u{7}"}})
                )])
            }),
        ),
        (
            "dueling",
            Box::new(|v| v["paxos"]["proposals"][0]["value"] = json!("a\u{7}")),
        ),
        // The Synod.
        (
            "dueling",
            Box::new(|v| v["nodes"][0]["roles"] = json!(["worker"])),
        ),
        (
            "dueling",
            Box::new(move |v| v["nodes"] = json!([node("Α", "proposer")])),
        ),
        ("dueling", Box::new(|v| v["paxos"]["timeout_us"] = json!(0))),
        (
            "dueling",
            Box::new(|v| v["nodes"][0]["roles"] = json!(["acceptor"])),
        ),
        (
            "dueling",
            Box::new(|v| {
                let p = v["paxos"]["proposals"][0].clone();
                v["paxos"]["proposals"][1] = p;
            }),
        ),
        // Transaction commit.
        (
            "commit-paxos",
            Box::new(|v| v["nodes"][0]["roles"] = json!(["worker"])),
        ),
        (
            "commit-2pc",
            Box::new(|v| v["nodes"].as_array_mut().unwrap().retain(|n| !has(n, "tm"))),
        ),
        (
            "commit-2pc",
            Box::new(move |v| v["nodes"] = json!([node("T", "tm")])),
        ),
        (
            "commit-2pc",
            Box::new(|v| v["commit"]["faster"] = json!(true)),
        ),
        (
            "commit-paxos",
            Box::new(move |v| {
                v["nodes"]
                    .as_array_mut()
                    .unwrap()
                    .push(node("A9", "acceptor"))
            }),
        ),
        (
            "commit-2pc",
            Box::new(|v| v["commit"]["timeout_us"] = json!(0)),
        ),
        (
            "commit-paxos",
            Box::new(move |v| {
                v["nodes"]
                    .as_array_mut()
                    .unwrap()
                    .push(node("C", "coordinator"));
                v["commit"]["initiator"] = json!("C");
            }),
        ),
        // The lease lab.
        ("kleppmann", Box::new(|v| v["lease"]["ttl_us"] = json!(0))),
        (
            "kleppmann",
            Box::new(|v| v["lease"]["ttl_us"] = json!(700_000_000)),
        ),
        ("kleppmann", Box::new(|v| v["lease"]["renew_us"] = json!(0))),
        (
            "kleppmann",
            Box::new(|v| v["lease"]["renew_us"] = json!(200_000_000)),
        ),
        (
            "kleppmann",
            Box::new(|v| v["lease"]["rho_ppm"] = json!(600_000)),
        ),
        (
            "kleppmann",
            Box::new(|v| v["lease"]["margin_us"] = json!(100_000_000)),
        ),
        (
            "kleppmann",
            Box::new(|v| {
                v["faults"] = json!([]);
                v["nodes"]
                    .as_array_mut()
                    .unwrap()
                    .retain(|n| !has(n, "worker"));
            }),
        ),
        ("kleppmann", Box::new(|v| v["lease"]["keys"] = json!(0))),
        (
            "kleppmann",
            Box::new(|v| v["lease"]["work_every_us"] = json!(0)),
        ),
        (
            "kleppmann",
            Box::new(|v| v["lease"]["llm_timeout_us"] = json!(0)),
        ),
        (
            "llm-in-loop",
            Box::new(|v| {
                v["nodes"]
                    .as_array_mut()
                    .unwrap()
                    .retain(|n| !has(n, "llm"))
            }),
        ),
        (
            "llm-in-loop",
            Box::new(|v| v["lease"]["llm"] = json!({"preset": "stall", "for_us": 0})),
        ),
        (
            "llm-in-loop",
            Box::new(|v| v["lease"]["llm"] = json!({"preset": "rate_limit", "retry_after_us": 0})),
        ),
        (
            "kleppmann",
            Box::new(move |v| {
                v["nodes"]
                    .as_array_mut()
                    .unwrap()
                    .push(node("S2", "storage"))
            }),
        ),
        (
            "kleppmann",
            Box::new(|v| {
                v["faults"] = json!([]);
                v["network"]["links"] = json!([]);
                v["nodes"]
                    .as_array_mut()
                    .unwrap()
                    .retain(|n| !has(n, "lease_store"));
            }),
        ),
        ("kleppmann", Box::new(|v| v["lease"]["store"] = json!({}))),
        (
            "llm-in-loop",
            Box::new(move |v| v["nodes"].as_array_mut().unwrap().push(node("L2", "llm"))),
        ),
        (
            "llm-beside",
            Box::new(move |v| {
                v["nodes"]
                    .as_array_mut()
                    .unwrap()
                    .push(node("A2", "advisor"))
            }),
        ),
        (
            "kleppmann",
            Box::new(|v| v["nodes"][0]["roles"] = json!(["acceptor"])),
        ),
        (
            "replicated-store",
            Box::new(|v| v["lease"]["store"]["heartbeat_us"] = json!(5)),
        ),
        (
            "replicated-store",
            Box::new(|v| v["lease"]["store"]["election_timeout_us"] = json!(1_000)),
        ),
        (
            "replicated-store",
            Box::new(|v| v["lease"]["store"]["master_lease_us"] = json!(1_000)),
        ),
        // Multi-Paxos and Chubby.
        (
            "chubby-sequencer",
            Box::new(|v| {
                v["multipaxos"]["clients"][0]["ops"][0] =
                    json!({"at_us": 1000, "op": "acquire", "lock": 9})
            }),
        ),
        (
            "chubby-sequencer",
            Box::new(|v| {
                v["multipaxos"]["clients"][0]["ops"][0] = json!({"at_us": 1000, "op": "acquire"})
            }),
        ),
        (
            "multi-calm",
            Box::new(|v| {
                v["multipaxos"]["clients"][0]["ops"][0] =
                    json!({"at_us": 1000, "op": "acquire", "lock": 1})
            }),
        ),
        (
            "multi-calm",
            Box::new(|v| {
                v["multipaxos"]["clients"][0]["ops"][0] =
                    json!({"at_us": 1000, "op": "put", "key": "q", "value": "v"})
            }),
        ),
        (
            "multi-calm",
            Box::new(|v| {
                v["multipaxos"]["clients"][0]["ops"][0] = json!({"at_us": 1000, "op": "jump"})
            }),
        ),
        (
            "multi-calm",
            Box::new(|v| v["nodes"][0]["roles"] = json!(["worker"])),
        ),
        (
            "multi-calm",
            Box::new(move |v| {
                v["nodes"]
                    .as_array_mut()
                    .unwrap()
                    .push(node("F", "storage"))
            }),
        ),
        (
            "multi-calm",
            Box::new(|v| {
                v["nodes"]
                    .as_array_mut()
                    .unwrap()
                    .retain(|n| !has(n, "replica"))
            }),
        ),
        (
            "multi-calm",
            Box::new(move |v| {
                for i in 0..9 {
                    v["nodes"]
                        .as_array_mut()
                        .unwrap()
                        .push(node(&format!("K{i}"), "client"));
                }
            }),
        ),
        (
            "multi-calm",
            Box::new(|v| v["multipaxos"]["heartbeat_us"] = json!(5)),
        ),
        (
            "multi-calm",
            Box::new(|v| v["multipaxos"]["window"] = json!(0)),
        ),
        (
            "multi-calm",
            Box::new(|v| v["multipaxos"]["rho_ppm"] = json!(600_000)),
        ),
        (
            "multi-calm",
            Box::new(|v| v["multipaxos"]["clients"][0]["node"] = v["nodes"][0]["id"].clone()),
        ),
    ]
}

/// Every reason the checks give is said in Japanese: each of `REASONS` is
/// reached by one damaged scenario (so an English sentence changed, or one
/// added without its line, fails here), and no English is left in the
/// sentence but the names and values the file has.
#[test]
fn every_reason_a_setting_is_refused_reads_in_japanese() {
    let mut reached = BTreeSet::new();
    for (i, (name, edit)) in cases().into_iter().enumerate() {
        let mut v = doc(name);
        edit(&mut v);
        let e =
            scenario_from_text(&v.to_string()).expect_err(&format!("case {i} ({name}) is refused"));
        let ImportError::BadScenario(en) = &e else {
            panic!("case {i} ({name}): {e}");
        };
        let (_, reason) = en
            .split_once(": ")
            .unwrap_or_else(|| panic!("case {i}: {en}"));
        let Some(at) = REASONS
            .iter()
            .position(|(p, ja)| fill(p, ja, reason).is_some())
        else {
            panic!("case {i} ({name}): no Japanese for {reason:?}");
        };
        reached.insert(at);
        let ja = Lang::Ja.tell().import_error(&e);
        assert!(ja.contains("が使えません："), "case {i}: {ja}");
        assert_eq!(super::super::tests::english_in(&ja), None, "case {i}: {ja}");
    }
    let missed: Vec<&str> = (0..REASONS.len())
        .filter(|i| !reached.contains(i))
        .map(|i| REASONS[i].0)
        .collect();
    assert!(missed.is_empty(), "not reached: {missed:#?}");
}

#[test]
fn a_reasons_values_go_to_their_japanese_places() {
    assert_eq!(
        fill(
            "renewing every {} with a TTL of {} lets the lease lapse between renewals; renew more often than the TTL",
            REASONS.iter().find(|(e, _)| e.starts_with("renewing")).unwrap().1,
            "renewing every 3 min 05 s with a TTL of 2.000 s lets the lease lapse between renewals; renew more often than the TTL",
        )
        .as_deref(),
        Some("TTL が 2.000 s なのに 3 分 05 s ごとの更新では、更新と更新のあいだにリースが切れます。TTL より短い間隔で更新してください")
    );
    assert_eq!(
        fill("{} rows; use 1 to 16", "行が {0}", "0 rows; use 1 to 17"),
        None
    );
    assert_eq!(
        fill("at most one llm node", "x", "at most one llm node!"),
        None
    );
}
