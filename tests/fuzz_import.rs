//! Property test of everything that reads what a user hands us: the trace
//! importer (`import::parse`, `import::scenario_from_text`) and the share-link
//! decoder. 100 000+ inputs, made by mutating real exports with the crate's
//! own pinned RNG (so a failure reproduces from its iteration number), must
//! never panic, and every error must be one readable line.
//!
//! A panic here would be an abort in the browser (`panic = "abort"`), so
//! "no panic" is the property; `catch_unwind` reports which input broke it.

use paxos_island::scenario::builtin;
use paxos_island::scenario::run::Run;
use paxos_island::sim::rng::{Rng, Stream};
use paxos_island::trace::import::{parse, scenario_from_text};
use paxos_island::trace::json::{export, export_scenario};
use paxos_island::trace::share;
use serde_json::Value as J;
use std::panic::{catch_unwind, AssertUnwindSafe};

const ITERATIONS: u64 = 100_000;

/// Real documents to start from: short traces (so 100 000 parses stay fast),
/// scenario files, bare scenarios and share links.
fn seeds() -> Vec<String> {
    let mut out = Vec::new();
    for name in [
        "calm",
        "forced",
        "lossy",
        "restart",
        "kleppmann",
        "llm-in-loop",
        "clock-drift",
    ] {
        let mut s = builtin::get(name).expect("built in");
        out.push(export_scenario(&s));
        out.push(serde_json::to_string(&s).unwrap());
        out.push(share::encode(&s));
        s.stop_at_us = if s.paxos.is_some() {
            200_000
        } else {
            1_200_000
        };
        let run = Run::record(&s).expect("runs");
        out.push(export(&run.scenario, &run.names, &run.trace));
    }
    out
}

const HOSTILE: [&str; 12] = [
    "<script>alert(1)</script>",
    "\"><img src=x onerror=alert(1)>",
    "\\ud800",
    "\\u0000",
    "\\uDFFF\\uD800",
    "Α\u{2028}Β",
    "💥💥💥💥💥💥💥💥💥",
    "",
    " ",
    "net",
    "%00",
    "#s=s1.",
];

fn big_number(r: &mut Rng) -> J {
    let texts = [
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-1",
        "1e400",
        "-0",
        "0.5",
        "1e-400",
        "340282366920938463463374607431768211456",
        "9007199254740993",
    ];
    serde_json::from_str(texts[r.below(texts.len() as u64) as usize]).unwrap_or(J::Null)
}

fn any_value(r: &mut Rng) -> J {
    match r.below(8) {
        0 => J::Null,
        1 => J::Bool(r.chance(0.5)),
        2 => big_number(r),
        3 => J::from(HOSTILE[r.below(HOSTILE.len() as u64) as usize]),
        4 => J::Array(vec![]),
        5 => J::Object(Default::default()),
        6 => J::from(r.below(1000)),
        _ => {
            let depth = 1 + r.below(200) as usize;
            serde_json::from_str(&format!("{}{}", "[".repeat(depth), "]".repeat(depth)))
                .unwrap_or(J::Null)
        }
    }
}

/// Every object and array in `v`, as paths of keys/indices.
fn paths(v: &J, here: &mut Vec<J>, out: &mut Vec<Vec<J>>) {
    out.push(here.clone());
    match v {
        J::Object(o) => o.iter().for_each(|(k, x)| {
            here.push(J::from(k.as_str()));
            paths(x, here, out);
            here.pop();
        }),
        J::Array(a) => a.iter().enumerate().for_each(|(i, x)| {
            here.push(J::from(i));
            paths(x, here, out);
            here.pop();
        }),
        _ => {}
    }
}

fn at<'a>(v: &'a mut J, path: &[J]) -> &'a mut J {
    path.iter().fold(v, |v, k| match k {
        J::String(s) => &mut v[s.as_str()],
        _ => &mut v[k.as_u64().unwrap_or(0) as usize],
    })
}

/// One structural mutation of a JSON document.
fn mutate_json(doc: &mut J, r: &mut Rng) -> &'static str {
    let mut all = Vec::new();
    paths(doc, &mut Vec::new(), &mut all);
    let path = all[r.below(all.len() as u64) as usize].clone();
    let target = at(doc, &path);
    match r.below(9) {
        0 => {
            if let J::Object(o) = target {
                if let Some(k) = o
                    .keys()
                    .nth(r.below(o.len().max(1) as u64) as usize)
                    .cloned()
                {
                    o.remove(&k);
                }
            }
            "delete a field"
        }
        1 => {
            if let J::Object(o) = target {
                o.insert(HOSTILE[r.below(12) as usize].to_string(), J::from(1));
            }
            "add a field"
        }
        2 => {
            if let J::Array(a) = target {
                if !a.is_empty() {
                    let i = r.below(a.len() as u64) as usize;
                    let x = a[i].clone();
                    a.insert(i, x);
                }
            }
            "duplicate an element (out-of-order seq)"
        }
        3 => {
            if let J::Array(a) = target {
                if a.len() > 1 {
                    let (i, j) = (
                        r.below(a.len() as u64) as usize,
                        r.below(a.len() as u64) as usize,
                    );
                    a.swap(i, j);
                }
            }
            "swap elements (out-of-order t_us)"
        }
        4 | 5 => {
            *target = any_value(r);
            "replace with a wrong type, a huge number or hostile text"
        }
        6 => {
            if let J::Object(o) = target {
                for (_, x) in o.iter_mut() {
                    if x.is_string() && r.chance(0.5) {
                        *x = J::from(HOSTILE[r.below(12) as usize]);
                    }
                }
            }
            "hostile strings in names and values"
        }
        7 => {
            doc["version"] = any_value(r);
            "unknown version"
        }
        _ => {
            if let J::Object(o) = target {
                for key in [
                    "t_us",
                    "seq",
                    "at_us",
                    "stop_at_us",
                    "seed",
                    "drift_ppm",
                    "offset_us",
                    "ppm",
                    "by_us",
                ] {
                    if o.contains_key(key) {
                        o.insert(key.into(), big_number(r));
                    }
                }
            }
            "huge numbers in time and clock fields"
        }
    }
}

/// One textual mutation.
fn mutate_text(text: &str, r: &mut Rng) -> (String, &'static str) {
    let bytes = text.as_bytes();
    let at = r.below(bytes.len() as u64 + 1) as usize;
    match r.below(6) {
        0 => (
            String::from_utf8_lossy(&bytes[..at]).into_owned(),
            "truncate",
        ),
        1 => {
            let mut b = bytes.to_vec();
            for _ in 0..1 + r.below(4) {
                if !b.is_empty() {
                    let i = r.below(b.len() as u64) as usize;
                    b[i] ^= 1 << r.below(8);
                }
            }
            (String::from_utf8_lossy(&b).into_owned(), "flip bits")
        }
        2 => {
            let junk = [
                "\\ud800", "\\u0000", "\"", "{", "]", ",", "\\", "\u{feff}", "1e999999",
            ];
            let j = junk[r.below(junk.len() as u64) as usize];
            let cut = (0..=at.min(text.len()))
                .rev()
                .find(|&i| text.is_char_boundary(i))
                .unwrap_or(0);
            (
                format!("{}{j}{}", &text[..cut], &text[cut..]),
                "insert a bad escape or bracket",
            )
        }
        3 => {
            let d = 1 + r.below(100_000) as usize;
            (
                format!("{}{}", "[".repeat(d), "]".repeat(d.min(10))),
                "deep nesting",
            )
        }
        4 => (
            text.replacen("\"version\":1", "\"version\":2", 1),
            "unknown version",
        ),
        _ => (format!("{text}{text}"), "two documents"),
    }
}

fn check_error(what: &str, msg: String, input: &str, failures: &mut Vec<String>) {
    if msg.trim().is_empty() || msg.contains('\n') || msg.chars().count() > 600 {
        failures.push(format!(
            "{what}: unhelpful message {msg:?} for {:?}",
            short(input)
        ));
    }
}

fn short(s: &str) -> String {
    s.chars().take(160).collect()
}

#[test]
fn readers_never_panic_on_mutated_input() {
    let seeds = seeds();
    let parsed: Vec<Option<J>> = seeds.iter().map(|s| serde_json::from_str(s).ok()).collect();
    let mut r = Rng::new(2024, Stream::Workload);
    let mut failures: Vec<String> = Vec::new();
    let mut accepted = 0u64;
    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {})); // reported below, with the input
    for i in 0..ITERATIONS {
        let k = r.below(seeds.len() as u64) as usize;
        let (input, how) = match (&parsed[k], r.below(3)) {
            (Some(doc), 0 | 1) => {
                let mut doc = doc.clone();
                let how = mutate_json(&mut doc, &mut r);
                (doc.to_string(), how)
            }
            _ => mutate_text(&seeds[k], &mut r),
        };
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let a = parse(&input).map(|_| ()).map_err(|e| e.to_string());
            let b = scenario_from_text(&input)
                .map(|_| ())
                .map_err(|e| e.to_string());
            let c = share::decode(&input).map(|_| ()).map_err(|e| e.to_string());
            [a, b, c]
        }));
        match outcome {
            Err(p) => {
                let why = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                failures.push(format!(
                    "iteration {i} ({how}): PANIC {why:?} on {:?}",
                    short(&input)
                ));
            }
            Ok(results) => {
                for (what, res) in ["parse", "scenario_from_text", "share::decode"]
                    .iter()
                    .zip(results)
                {
                    match res {
                        Ok(()) => accepted += 1,
                        Err(msg) => check_error(what, msg, &input, &mut failures),
                    }
                }
            }
        }
        if failures.len() > 20 {
            break;
        }
    }
    std::panic::set_hook(previous_hook);
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The mutations must not be so wild that nothing gets past the JSON parser.
    assert!(
        accepted > ITERATIONS / 20,
        "only {accepted} inputs were accepted at all"
    );
}

#[test]
fn share_links_survive_mutation_of_the_link_itself() {
    let links: Vec<String> = builtin::names()
        .iter()
        .map(|n| share::encode(&builtin::get(n).unwrap()))
        .collect();
    let mut r = Rng::new(7, Stream::Workload);
    for i in 0..20_000u64 {
        let link = &links[r.below(links.len() as u64) as usize];
        let (input, how) = mutate_text(link, &mut r);
        let res = catch_unwind(|| share::decode(&input).map(|_| ()).map_err(|e| e.to_string()));
        match res {
            Err(_) => panic!("iteration {i} ({how}): share::decode panicked on {input:?}"),
            Ok(Err(m)) => assert!(!m.contains('\n') && !m.is_empty(), "{m:?}"),
            Ok(Ok(())) => {}
        }
    }
}
