use crate::i18n::Lang;
use crate::trace::import::{parse, scenario_from_text};
use serde_json::{json, Value};

/// Words Japanese prose writes in Latin letters: names of things and units.
const WORDS: [&str; 12] = [
    "JSON", "true", "false", "Paxos", "Island", "Multi", "Chubby", "Commit", "TTL", "LLM", "ppm",
    "ms",
];

/// The English left in a Japanese sentence, outside what the file itself
/// says (quoted with 「」, ``, "") and the names it may use instead
/// ("使えるのは crash, restart, …）").
pub(super) fn english_in(ja: &str) -> Option<String> {
    let mut bare = String::new();
    let mut quote: Option<char> = None;
    let ja = match ja.split_once("使えるのは ") {
        Some((head, tail)) => format!("{head}{}", tail.split_once('）').map_or("", |(_, t)| t)),
        None => ja.to_string(),
    };
    for c in ja.chars() {
        match (quote, c) {
            (None, '「') => quote = Some('」'),
            (None, '`') => quote = Some('`'),
            (None, '"') => quote = Some('"'),
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, c) => bare.push(c),
        }
    }
    bare.split(|c: char| !c.is_ascii_alphabetic())
        .find(|w| w.len() >= 2 && !WORDS.contains(w))
        .map(str::to_string)
}

fn dueling() -> Value {
    serde_json::to_value(crate::scenario::builtin::get("dueling").unwrap()).unwrap()
}

/// A scenario changed by `f`, read as a bare scenario file.
fn said(f: impl FnOnce(&mut Value)) -> String {
    let mut v = dueling();
    f(&mut v);
    let e = scenario_from_text(&v.to_string()).expect_err(&v.to_string());
    Lang::Ja.tell().import_error(&e)
}

#[test]
fn every_reading_complaint_of_a_scenario_reads_in_japanese() {
    let node = |id: &str| json!({"id": id, "roles": ["acceptor"]});
    let cases: Vec<(Box<dyn FnOnce(&mut Value)>, &str)> = vec![
        (
            Box::new(|v| v["nodes"][1]["roles"][0] = json!("acceptr")),
            "「acceptr」という種類はありません",
        ),
        (
            Box::new(|v| v["bogus"] = json!(1)),
            "「bogus」という項目はありません",
        ),
        (
            Box::new(|v| {
                v.as_object_mut().unwrap().remove("nodes");
            }),
            "「nodes」がありません",
        ),
        (
            Box::new(|v| v["seed"] = json!("x")),
            "「seed」の型が違います：文字列 \"x\"ではなく、0 以上の整数が必要です",
        ),
        (
            Box::new(|v| v["seed"] = json!(-1)),
            "「seed」の値が範囲外です：整数 `-1`",
        ),
        (Box::new(|v| v["seed"] = json!(1.5)), "小数 `1.5`"),
        (Box::new(|v| v["seed"] = json!(true)), "真偽値 `true`"),
        (
            Box::new(|v| v["nodes"] = json!({})),
            "オブジェクトではなく、リストが必要です",
        ),
        (
            Box::new(|v| v["nodes"] = json!([])),
            "ノードがひとつもありません",
        ),
        (
            Box::new(move |v| {
                v["nodes"] = json!((0..40).map(|i| node(&format!("N{i}"))).collect::<Vec<_>>())
            }),
            "ノードが 40 個あります",
        ),
        (Box::new(move |v| v["nodes"][0] = node("")), "空です"),
        (
            Box::new(move |v| v["nodes"][0] = node("net")),
            "ネットワークのための名前",
        ),
        (Box::new(move |v| v["nodes"][0] = node("a<b")), "制御文字"),
        (Box::new(move |v| v["nodes"][0] = node(" a")), "空白"),
        (
            Box::new(move |v| v["nodes"][0] = node("abcdefghijklmnopq")),
            "16 文字",
        ),
        (
            Box::new(move |v| {
                let n = v["nodes"][1].clone();
                v["nodes"][0] = n;
            }),
            "二度現れます",
        ),
        (
            Box::new(|v| v["faults"] = json!([{"at_us": 5, "fault": {"explode": {}}}])),
            "「explode」という障害はありません",
        ),
        (
            Box::new(|v| v["faults"] = json!([{"at_us": 5, "fault": "explode"}])),
            "「explode」という障害はありません",
        ),
        (
            Box::new(|v| v["faults"] = json!([{"at_us": 5, "fault": {"heal": 3}}])),
            "「heal」は項目をとりません",
        ),
        (
            Box::new(|v| v["faults"] = json!([{"at_us": 5, "fault": {}}])),
            "障害には種類がひとつ必要です",
        ),
        (
            Box::new(|v| {
                v["faults"] =
                    json!([{"at_us": 5, "fault": {"heal": null, "restart": {"node": "Α"}}}])
            }),
            "二つめのキー",
        ),
        (
            Box::new(|v| v["faults"] = json!([{"at_us": 5, "fault": 5}])),
            "障害かコマンド",
        ),
        (
            Box::new(|v| v["faults"] = json!([{"at_us": 5, "fault": {"crash": {}}}])),
            "「node」がありません",
        ),
        (
            Box::new(|v| v["faults"] = json!([{"at_us": 5, "fault": {"crash": {"node": "Ω"}}}])),
            "知らないノード",
        ),
        (
            Box::new(|v| v["faults"] = json!([{"at_us": 5, "fault": {"crash": "Α"}}])),
            "「crash」には項目が必要です",
        ),
        (
            Box::new(|v| v["protocol"] = json!("lease")),
            "の節がありません",
        ),
        (Box::new(|v| v["protocol"] = json!(7)), "型が違います"),
    ];
    for (change, want) in cases {
        let ja = said(change);
        assert!(ja.contains(want), "{want} not in {ja}");
        assert_eq!(english_in(&ja), None, "{ja}");
    }
}

#[test]
fn every_complaint_about_a_traces_events_reads_in_japanese() {
    let trace = |events: Value| {
        json!({"format": "paxos-island-trace", "version": 1, "scenario": dueling(), "events": events})
            .to_string()
    };
    let ev = |seq: Value, t: Value| json!({"seq": seq, "t_us": t, "node": "Α", "kind": "send"});
    for (events, want) in [
        (json!([1]), "イベントはオブジェクトでなければなりません"),
        (
            json!([ev(json!("zero"), json!(0))]),
            "\"seq\" は0 以上の整数でなければなりません（\"zero\" です）",
        ),
        (
            json!([{"seq": 0, "node": "Α", "kind": "send"}]),
            "\"t_us\" がありません",
        ),
        (
            json!([{"seq": 0, "t_us": 0, "kind": "send"}]),
            "\"node\" がありません",
        ),
        (
            json!([ev(json!(1), json!(0)), ev(json!(0), json!(0))]),
            "「seq」0 が 1 のあとにあります",
        ),
        (
            json!([ev(json!(0), json!(5)), ev(json!(1), json!(1))]),
            "「t_us」1 が 5 のあとにあります",
        ),
    ] {
        let e = parse(&trace(events)).expect_err("refused");
        let ja = Lang::Ja.tell().import_error(&e);
        assert!(ja.contains(want), "{want} not in {ja}");
        assert_eq!(english_in(&ja), None, "{ja}");
    }
}

/// Every reading complaint in Japanese, a setting's reason too (`settings`).
#[test]
fn every_built_in_scenario_damaged_once_is_refused_in_japanese() {
    let mut cases = std::collections::BTreeSet::new();
    for name in crate::scenario::builtin::names() {
        let doc = serde_json::to_value(crate::scenario::builtin::get(name).unwrap()).unwrap();
        crate::scenario::read::tests::damaged(&doc, &mut cases);
    }
    let mut left = std::collections::BTreeMap::new();
    let mut refused = 0;
    for t in &cases {
        let Err(e) = scenario_from_text(t) else {
            continue;
        };
        refused += 1;
        let ja = Lang::Ja.tell().import_error(&e);
        if let Some(w) = english_in(&ja) {
            left.entry(w).or_insert(ja);
        }
    }
    for (w, ja) in &left {
        eprintln!("{w}: {ja}");
    }
    assert!(refused > 10_000, "{refused} of {} refused", cases.len());
    assert!(left.is_empty(), "{} words left", left.len());
}

#[test]
fn the_menus_other_writings_opened_by_mistake_are_named_in_both_languages() {
    for (text, en, ja) in [
        (
            "\u{fffd}PNG\r\n\u{1a}\n",
            "this is a PNG picture",
            "これはPNG 画像で",
        ),
        (
            "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
            "this is an SVG picture",
            "これはSVG 画像で",
        ),
        (
            "sequenceDiagram\n    participant n0 as A\n",
            "this is a Mermaid diagram",
            "これはMermaid の図で",
        ),
        (
            "(?<host>\\S*) (?<clock>{.*})\\n(?<event>.*)\n",
            "this is a ShiViz log",
            "これはShiViz のログで",
        ),
    ] {
        let e = parse(text).expect_err(text);
        let said = Lang::En.tell().import_error(&e);
        assert!(said.contains(en), "{said}");
        let said = Lang::Ja.tell().import_error(&e);
        assert!(said.contains(ja), "{said}");
    }
    // Anything else that is not JSON is the parser's complaint, as before.
    let e = parse("hello").expect_err("hello");
    assert!(Lang::En.tell().import_error(&e).contains("not valid JSON"));
}
