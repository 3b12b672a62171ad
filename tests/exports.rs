//! The drawing exports — ShiViz log, Mermaid sequence diagram, space-time
//! geometry and SVG — for every built-in scenario: each must be readable by
//! the tool it is meant for, and must say what the run did.

use paxos_island::protocol::Value;
use paxos_island::scenario::builtin;
use paxos_island::scenario::run::Run;
use paxos_island::scenario::Scenario;
use paxos_island::trace::{mermaid, shiviz, svg, EventKind};
use paxos_island::viz::spacetime::{self, Fate, Options, SpanKind};
use serde_json::Value as J;
use std::collections::BTreeMap;

fn runs() -> Vec<Run> {
    builtin::names()
        .into_iter()
        .map(|n| Run::record(&builtin::get(n).expect("listed")).expect("built-ins run"))
        .collect()
}

/// A scenario whose user-typed strings are hostile to every output syntax.
fn nasty() -> Scenario {
    let mut s = builtin::get("forced").expect("built in");
    s.name = "<script>alert(\"x\")</script> & 'co'; #1: %%".into();
    let v = "<b>&\"x'#;:%</b>";
    assert!(Value::new(v).is_ok(), "the decree must be a legal value");
    s.paxos.as_mut().expect("paxos").proposals[0].value = v.into();
    s
}

// ----- ShiViz --------------------------------------------------------------

/// One ShiViz event: host, vector clock, description.
type Entry = (String, BTreeMap<String, u64>, String);

/// Split a ShiViz log the way ShiViz's file upload and its parser regex
/// `(?<host>\S*) (?<clock>{.*})\n(?<event>.*)` (anchored per line) do.
fn parse_shiviz(text: &str) -> Result<Vec<Entry>, String> {
    let mut lines = text.split('\n');
    if lines.next() != Some(shiviz::REGEX) {
        return Err("first line is not the parser regex".into());
    }
    if lines.next() != Some("") {
        return Err("second line (the delimiter) is not empty".into());
    }
    let rest: Vec<&str> = lines.collect();
    let rest = match rest.split_last() {
        Some((&"", body)) => body,
        _ => return Err("the log does not end with a newline".into()),
    };
    if rest.len() % 2 != 0 {
        return Err("odd number of lines".into());
    }
    let mut out = Vec::new();
    for pair in rest.chunks(2) {
        let (head, event) = (pair[0], pair[1]);
        let (host, clock) = head
            .split_once(' ')
            .ok_or_else(|| format!("no space in {head:?}"))?;
        if host.is_empty() || host.chars().any(char::is_whitespace) {
            return Err(format!("bad host in {head:?}"));
        }
        if !(clock.starts_with('{') && clock.ends_with('}')) {
            return Err(format!("clock is not {{…}} in {head:?}"));
        }
        // JavaScript's `.` stops at these, so an event text must not hold them.
        if event.contains(['\r', '\u{2028}', '\u{2029}']) {
            return Err(format!("line break inside {event:?}"));
        }
        let clock: BTreeMap<String, u64> =
            serde_json::from_str(clock).map_err(|e| format!("{head:?}: {e}"))?;
        if clock.get(host).copied().unwrap_or(0) == 0 || clock.values().any(|&c| c == 0) {
            return Err(format!("{head:?}: own entry missing or a zero entry"));
        }
        out.push((host.to_string(), clock, event.to_string()));
    }
    Ok(out)
}

#[test]
fn shiviz_logs_parse_and_their_clocks_respect_happens_before() {
    for run in runs() {
        let name = &run.scenario.name;
        let log = shiviz::export(&run.names, &run.trace);
        let events = parse_shiviz(&log).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            events.len(),
            run.trace.len(),
            "{name}: one entry per trace event"
        );
        let hosts = shiviz::hosts(&run.names);
        // Own entries count the host's events 1, 2, 3 …; no entry runs ahead of
        // the events that host has had so far (nothing known from the future).
        let mut seen: BTreeMap<&str, u64> = BTreeMap::new();
        let mut last: BTreeMap<&str, &BTreeMap<String, u64>> = BTreeMap::new();
        for (i, (host, clock, _)) in events.iter().enumerate() {
            assert!(hosts.contains(host), "{name}: unknown host {host}");
            let n = seen.entry(host).or_insert(0);
            *n += 1;
            assert_eq!(
                clock[host], *n,
                "{name} event {i}: own entry must grow by exactly 1"
            );
            for (h, c) in clock {
                assert!(
                    *c <= seen.get(h.as_str()).copied().unwrap_or(0),
                    "{name} event {i}: {h}={c} is in the future"
                );
            }
            if let Some(prev) = last.insert(host, clock) {
                assert!(
                    dominates(clock, prev),
                    "{name} event {i}: a host's clock never goes back"
                );
            }
        }
        // A delivery (or a drop, at the `net` host) knows its send.
        let mut sent: BTreeMap<u64, usize> = BTreeMap::new();
        for (i, e) in run.trace.iter().enumerate() {
            match &e.kind {
                EventKind::Send { id, .. } | EventKind::Duplicate { id, .. } => {
                    sent.insert(id.0, i);
                }
                EventKind::Deliver { id, .. } | EventKind::Drop { id, .. } => {
                    let s = sent[&id.0];
                    assert!(
                        dominates(&events[i].1, &events[s].1),
                        "{name}: event {i} does not know its send {s}"
                    );
                    assert_ne!(
                        events[i].1, events[s].1,
                        "{name}: event {i} equals its send"
                    );
                    if matches!(e.kind, EventKind::Drop { .. }) {
                        assert_eq!(events[i].0, shiviz::NET_HOST);
                    }
                }
                _ => {}
            }
        }
    }
}

fn dominates(a: &BTreeMap<String, u64>, b: &BTreeMap<String, u64>) -> bool {
    b.iter().all(|(h, c)| a.get(h).copied().unwrap_or(0) >= *c)
}

#[test]
fn shiviz_host_names_never_contain_whitespace_and_stay_unique() {
    let names: Vec<String> = ["a b", "a_b", "net", "Γ"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(shiviz::hosts(&names), ["a_b", "a_b~2", "net", "Γ", "net~2"]);
    assert!(parse_shiviz("nonsense\n\nx {}\ny\n").is_err());
    assert!(
        parse_shiviz(&format!("{}\n\nA {{\"A\":1}}\n", shiviz::REGEX)).is_err(),
        "an odd line count is broken"
    );
}

// ----- Mermaid -------------------------------------------------------------

/// A parser for exactly the Mermaid subset the export writes. It refuses
/// anything else, including text Mermaid would cut short or misread.
fn parse_mermaid(text: &str) -> Result<(usize, usize, usize), String> {
    let mut lines = text.lines();
    if lines.next() != Some("sequenceDiagram") {
        return Err("missing header".into());
    }
    let (mut participants, mut messages, mut notes) = (0usize, 0usize, 0usize);
    let known = |id: &str, n: usize| {
        id.strip_prefix('n')
            .and_then(|k| k.parse::<usize>().ok())
            .is_some_and(|k| k < n && id == format!("n{k}"))
    };
    for line in lines {
        let l = line
            .strip_prefix("    ")
            .ok_or_else(|| format!("not indented: {line:?}"))?;
        if let Some(rest) = l.strip_prefix("participant ") {
            if messages + notes > 0 {
                return Err("participant after a message".into());
            }
            let (id, alias) = rest.split_once(" as ").ok_or("participant without alias")?;
            if id != format!("n{participants}") {
                return Err(format!("participant {id} out of order"));
            }
            check_text(alias)?;
            participants += 1;
        } else if let Some(rest) = l.strip_prefix("Note over ") {
            let (who, t) = rest.split_once(": ").ok_or("note without text")?;
            for id in who.split(',') {
                if !known(id, participants) {
                    return Err(format!("note over unknown {id:?}"));
                }
            }
            check_text(t)?;
            notes += 1;
        } else {
            let (arrow, t) = l
                .split_once(": ")
                .ok_or_else(|| format!("unknown statement {l:?}"))?;
            let (a, b) = arrow
                .split_once("->>")
                .or_else(|| arrow.split_once("-x"))
                .ok_or("no arrow")?;
            if !known(a, participants) || !known(b, participants) {
                return Err(format!("unknown participant in {l:?}"));
            }
            check_text(t)?;
            messages += 1;
        }
    }
    Ok((participants, messages, notes))
}

/// Text must be non-empty and hold no `;` `:` `%` `<` `>` `&` and no `#`
/// except in a decimal entity code `#NN;`.
fn check_text(t: &str) -> Result<(), String> {
    if t.trim().is_empty() {
        return Err("empty text".into());
    }
    let mut rest = t;
    while let Some(i) = rest.find(['#', ';', ':', '%', '<', '>', '&', '\n', '\r']) {
        let tail = &rest[i..];
        let digits = tail[1..].bytes().take_while(u8::is_ascii_digit).count();
        if !(tail.starts_with('#') && digits > 0 && tail[1 + digits..].starts_with(';')) {
            return Err(format!("unescaped character in {t:?}"));
        }
        rest = &tail[digits + 2..];
    }
    if t.chars().any(char::is_control) {
        return Err(format!("control character in {t:?}"));
    }
    Ok(())
}

#[test]
fn mermaid_exports_of_every_builtin_parse_for_any_window() {
    for run in runs() {
        let name = &run.scenario.name;
        let end = run.end.0;
        for (from, to) in [
            (0, end),
            (0, end / 3),
            (end / 3, end / 2),
            (end / 2, end / 2 + 1),
        ] {
            let text = mermaid::export(&run.names, &run.trace, from, to);
            let (p, m, notes) = parse_mermaid(&text)
                .unwrap_or_else(|e| panic!("{name} [{from},{to}]: {e}\n{text}"));
            assert_eq!(p, run.names.len(), "{name}");
            let arrived = run
                .trace
                .iter()
                .filter(|e| (from..=to).contains(&e.t.0))
                .filter(|e| matches!(e.kind, EventKind::Deliver { .. } | EventKind::Drop { .. }))
                .count();
            if m + notes < mermaid::MAX_STATEMENTS {
                assert_eq!(
                    m, arrived,
                    "{name} [{from},{to}]: one arrow per arrival or loss"
                );
            } else {
                // The diagram is full: notes share the statements with arrows.
                assert!(
                    m <= arrived,
                    "{name} [{from},{to}]: {m} arrows for {arrived} arrivals or losses"
                );
            }
        }
    }
}

#[test]
fn mermaid_escapes_user_text_and_caps_long_windows() {
    assert_eq!(
        mermaid::text("a;b#c:d%e<f>g&h\ni\u{2028}j"),
        "a#59;b#35;c#58;d#37;e#60;f#62;g#38;h i j"
    );
    assert_eq!(mermaid::text("\n\t"), "-");
    let run = Run::record(&nasty()).expect("runs");
    let text = mermaid::export(&run.names, &run.trace, 0, run.end.0);
    parse_mermaid(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert!(
        text.contains("#60;b#62;#38;\"x'#35;#59;#58;#37;#60;/b#62;"),
        "{text}"
    );
    let mut long = builtin::get("dueling").expect("built in");
    long.stop_at_us = 60_000_000;
    let run = Run::record(&long).expect("runs");
    let text = mermaid::export(&run.names, &run.trace, 0, run.end.0);
    let (_, m, n) = parse_mermaid(&text).expect("parses");
    assert_eq!(
        m + n,
        mermaid::MAX_STATEMENTS + 1,
        "capped, plus the note that says so"
    );
    assert!(text.contains("more left out"));
    for broken in [
        "sequenceDiagram\n    participant n0 as A\n    n0->>n1#58; x\n",
        "sequenceDiagram\n    participant n0 as A\n    n0->>n0: a ; b\n",
        "sequenceDiagram\n    participant n0 as A\n    n0->>n0: a # b\n",
        "sequenceDiagram\n    participant n0 as A\n    Note over n3: x\n",
        "sequenceDiagram\n    participant n0 as A\n    n0 -> n0: x\n",
        "graph TD\n",
        "sequenceDiagram\n    n0->>n0: x\n",
    ] {
        assert!(parse_mermaid(broken).is_err(), "accepted {broken:?}");
    }
}

// ----- space-time geometry and SVG -----------------------------------------

#[test]
fn spacetime_geometry_shows_fates_spans_and_marks() {
    let all = runs();
    let get = |n: &str| all.iter().find(|r| r.scenario.name == n).expect("run");
    let full = |r: &Run| spacetime::layout(r, &Options::new(0, r.end.0, 1000.0, 300.0));

    let calm = full(get("calm"));
    assert_eq!(calm.lanes.len(), 5);
    assert!(
        calm.lanes.windows(2).all(|w| w[0].y < w[1].y),
        "lanes top to bottom in node order"
    );
    assert!(calm
        .arrows
        .iter()
        .all(|a| a.fate == Fate::Delivered && a.x1 <= a.x2 + 1e-9));
    assert!(calm
        .arrows
        .iter()
        .all(|a| a.x1 >= calm.plot.x - 1e-9 && a.x2 <= calm.plot.x + calm.plot.w + 1e-9));
    assert!(calm
        .arrows
        .iter()
        .any(|a| a.label == "1a (1,Α)" && a.msg_type == "prepare"));
    assert!(calm.markers.iter().any(|m| m.label == "learned α"));
    assert_eq!(calm.omitted_arrows, 0);

    let lossy = full(get("lossy"));
    let lost: Vec<_> = lossy
        .arrows
        .iter()
        .filter(|a| a.fate == Fate::Lost)
        .collect();
    assert!(!lost.is_empty() && lossy.arrows.iter().any(|a| a.duplicate));
    for a in lost {
        let (ya, yb) = (lossy.lanes[a.from.index()].y, lossy.lanes[a.to.index()].y);
        assert!(
            (a.y2 - (ya + yb) / 2.0).abs() < 1e-9,
            "a lost messenger falls halfway"
        );
    }
    assert!(full(get("partition-heal"))
        .arrows
        .iter()
        .any(|a| a.fate == Fate::Partitioned));
    assert!(!full(get("partition-heal")).net_spans.is_empty());

    let restart = full(get("restart"));
    let crashed: Vec<_> = restart
        .spans
        .iter()
        .filter(|s| s.kind == SpanKind::Crashed)
        .collect();
    assert_eq!(crashed.len(), 3, "Α, Γ, Δ leave; Γ and Δ come back");
    assert!(crashed
        .iter()
        .any(|s| s.node.0 == 2 && s.from_us == 700_000 && s.to_us == 1_200_000));
    assert!(crashed
        .iter()
        .any(|s| s.node.0 == 0 && s.to_us == get("restart").end.0));
    assert!(full(get("crash-f"))
        .arrows
        .iter()
        .any(|a| a.fate == Fate::ReceiverDown));
    assert!(runs_with_pause(&all), "some built-in pauses a node");

    let mut capped = Options::new(0, get("dueling").end.0, 800.0, 300.0);
    capped.max_arrows = 5;
    let d = spacetime::layout(get("dueling"), &capped);
    let total = full(get("dueling")).arrows.len() + full(get("dueling")).omitted_arrows;
    assert_eq!(
        (d.arrows.len(), d.arrows.len() + d.omitted_arrows),
        (5, total)
    );
    // The five are an even sample across the run, in sending order: the
    // first arrow of the run, then the rest spread over it (the first five
    // would all sit in its first instants and leave the cursor's stretch empty).
    let sent: Vec<u64> = d.arrows.iter().map(|a| a.t_send_us).collect();
    let every = full(get("dueling"));
    assert_eq!(every.omitted_arrows, 0);
    assert_eq!(sent[0], every.arrows[0].t_send_us);
    assert!(sent.windows(2).all(|w| w[0] <= w[1]), "{sent:?}");
    assert!(sent[4] >= every.arrows[total * 4 / 5].t_send_us, "{sent:?}");
    assert!(sent[4] > every.arrows[4].t_send_us, "{sent:?}");
    // A window in the middle keeps only what crosses it.
    let w = spacetime::layout(get("forced"), &Options::new(500_000, 600_000, 800.0, 300.0));
    assert!(w
        .arrows
        .iter()
        .all(|a| a.t_send_us <= 600_000 && a.t_end_us >= 500_000));
    assert!(
        w.ticks
            .iter()
            .all(|t| (500_000..=600_000).contains(&t.t_us))
            && w.ticks.len() >= 2
    );
}

fn runs_with_pause(all: &[Run]) -> bool {
    all.iter().any(|r| {
        let d = spacetime::layout(r, &Options::new(0, r.end.0, 1000.0, 300.0));
        d.spans
            .iter()
            .any(|s| s.kind == SpanKind::Paused && s.to_us > s.from_us)
    })
}

/// Read an SVG with a real XML parser; return the text content, or why not.
fn read_xml(doc: &str) -> Result<String, String> {
    use quick_xml::escape::resolve_predefined_entity;
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(doc);
    let (mut depth, mut roots, mut text) = (0i32, 0, String::new());
    loop {
        match reader
            .read_event()
            .map_err(|e| format!("at {}: {e}", reader.buffer_position()))?
        {
            Event::Start(e) | Event::Empty(e) if depth == 0 && e.name().as_ref() != "svg" => {
                return Err("the root is not <svg>".into())
            }
            Event::Start(e) => {
                roots += (depth == 0) as i32;
                depth += 1;
                for a in e.attributes() {
                    let a = a.map_err(|e| e.to_string())?;
                    a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                        .map_err(|e| e.to_string())?;
                }
            }
            Event::Empty(e) => {
                for a in e.attributes() {
                    let a = a.map_err(|e| e.to_string())?;
                    a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                        .map_err(|e| e.to_string())?;
                }
            }
            Event::End(_) => depth -= 1,
            Event::Text(t) => text.push_str(&t.xml10_content()),
            Event::GeneralRef(r) => match r.resolve_char_ref().map_err(|e| e.to_string())? {
                Some(c) => text.push(c),
                None => text.push_str(
                    resolve_predefined_entity(&r)
                        .ok_or_else(|| format!("unknown entity &{};", &*r))?,
                ),
            },
            Event::Eof => break,
            _ => {}
        }
    }
    if depth != 0 || roots != 1 {
        return Err(format!("unbalanced: depth {depth}, {roots} roots"));
    }
    Ok(text)
}

#[test]
fn every_svg_is_well_formed_xml_with_every_arrow_labelled() {
    for run in runs() {
        for (from, to) in [(0, run.end.0), (run.end.0 / 4, run.end.0 / 2)] {
            let d = spacetime::layout(&run, &Options::new(from, to.max(from + 1), 1200.0, 260.0));
            let doc = svg::render(&d, &run.scenario.name);
            let text = read_xml(&doc).unwrap_or_else(|e| panic!("{}: {e}", run.scenario.name));
            for a in &d.arrows {
                assert!(
                    text.contains(&a.label),
                    "{}: arrow {} unlabelled",
                    run.scenario.name,
                    a.label
                );
            }
        }
    }
    assert!(read_xml("<svg><g></svg>").is_err());
    assert!(read_xml("<svg><text>a & b</text></svg>").is_err());
    assert!(read_xml("<svg><text>&nbsp;</text></svg>").is_err());
    assert!(read_xml("<svg/><svg/>").is_err());
}

/// The page's diagram of a crowded window (over 60 arrows, no labels) draws
/// the arrows of a colour as one path each: every arrow's line is still
/// there, every arrow that arrived or is in flight has its head with its tip
/// on the arrow's end, and every lost one its ✕.
#[test]
fn a_crowded_live_diagram_draws_every_arrow_in_few_paths() {
    let mut crowded = 0;
    for run in runs() {
        let d = spacetime::layout(&run, &Options::new(0, run.end.0, 1200.0, 260.0));
        if d.arrows.len() <= 60 {
            continue;
        }
        crowded += 1;
        let name = &run.scenario.name;
        let doc = svg::render_live(&d, name, svg::DiagramWords::ENGLISH);
        read_xml(&doc).unwrap_or_else(|e| panic!("{name}: {e}"));
        let group = doc
            .split("<g class=\"arrows\"")
            .nth(1)
            .and_then(|g| g.split("</g>").next())
            .expect("an arrows group");
        let ds: Vec<(&str, bool)> = group
            .split("<path d=\"")
            .skip(1)
            .map(|p| {
                let (d, rest) = p.split_once('"').expect("a closed d");
                (d, rest.trim_start().starts_with("fill=\"#"))
            })
            .collect();
        let lines: usize = ds
            .iter()
            .filter(|(_, head)| !head)
            .map(|(d, _)| d.matches('M').count())
            .sum();
        let heads: String = ds
            .iter()
            .filter(|(_, head)| *head)
            .map(|(d, _)| *d)
            .collect();
        let missed = d
            .arrows
            .iter()
            .filter(|a| !matches!(a.fate, Fate::Delivered | Fate::InFlight))
            .count();
        assert_eq!(lines, d.arrows.len(), "{name}: a line per arrow");
        assert_eq!(
            heads.matches('z').count(),
            d.arrows.len() - missed,
            "{name}: a head per arrow that arrived"
        );
        assert_eq!(
            group.matches('✕').count(),
            missed,
            "{name}: a ✕ per lost arrow"
        );
        assert!(ds.len() <= 3 * 8, "{name}: {} paths", ds.len());
        assert!(!group.contains("<line"), "{name}: an arrow drawn alone");
        for a in d
            .arrows
            .iter()
            .filter(|a| a.from != a.to && matches!(a.fate, Fate::Delivered | Fate::InFlight))
        {
            let tip = format!("L{:.1},{:.1}L", a.x2, a.y2);
            assert!(heads.contains(&tip), "{name}: no head at {tip}");
        }
    }
    assert!(crowded > 0, "no built-in run has a crowded diagram");
}

#[test]
fn svg_escapes_names_and_values() {
    let s = nasty();
    let run = Run::record(&s).expect("runs");
    let d = spacetime::layout(&run, &Options::new(0, run.end.0, 1200.0, 260.0));
    let doc = svg::render(&d, &s.name);
    let text = read_xml(&doc).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        !doc.contains("<script") && !doc.contains("<b>"),
        "raw markup leaked"
    );
    assert!(text.contains(&s.name), "the title survives escaping");
    assert!(
        text.contains("2a (1,Α) <b>&\"x'#;:%</b>"),
        "the decree survives escaping"
    );
    assert_eq!(svg::escape("a<b>&\"'\u{1}c"), "a&lt;b&gt;&amp;&quot;&#39;c");
    // The JSON trace of the same run is still valid JSON with the value intact.
    let json: J = serde_json::from_str(&paxos_island::trace::json::export(
        &run.scenario,
        &run.names,
        &run.trace,
    ))
    .unwrap();
    assert_eq!(json["scenario"]["name"], J::from(s.name.as_str()));
}

#[test]
fn odd_windows_and_sizes_neither_panic_nor_break_the_xml() {
    let run = Run::record(&builtin::get("lossy").unwrap()).unwrap();
    for (from, to, w, h) in [
        (u64::MAX, 0, 800.0, 300.0),
        (0, u64::MAX, f64::NAN, f64::INFINITY),
        (5, 5, -1.0, 0.0),
        (run.end.0 + 1_000_000, run.end.0 + 2_000_000, 1e9, 1e9),
    ] {
        let d = spacetime::layout(&run, &Options::new(from, to, w, h));
        assert!(d.width.is_finite() && d.height.is_finite());
        read_xml(&svg::render(&d, "odd")).unwrap_or_else(|e| panic!("[{from},{to}] {w}x{h}: {e}"));
        parse_mermaid(&mermaid::export(&run.names, &run.trace, from, to)).expect("parses");
    }
}

/// Marks close together on one lane: the second label goes over the line,
/// a third (both places taken) is left out — its mark keeps the words as a
/// title — and none covers another (two-masters drew "stepped down" across
/// "caught up").
#[test]
fn marker_labels_that_would_cover_each_other_move_over_the_line_or_stay_in_the_title() {
    let run = Run::record(&builtin::get("calm").expect("calm")).expect("runs");
    let mut d = spacetime::layout(&run, &Options::new(0, run.end.0, 1000.0, 300.0));
    let mut m = d.markers[0].clone();
    m.x = d.plot.x + 100.0;
    let y = m.y;
    let mut marks = Vec::new();
    for (i, label) in ["stepped down", "caught up to slot 2", "third word"]
        .iter()
        .enumerate()
    {
        m.label = label.to_string();
        m.x += 10.0 * i as f64;
        marks.push(m.clone());
    }
    // Far away on the same lane: under the line again.
    m.label = "far".into();
    m.x += 400.0;
    marks.push(m);
    d.markers = marks;
    let text = svg::render(&d, "t");
    let marks: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("<g class=\"marker "))
        .collect();
    assert_eq!(marks.len(), 4);
    let y_of = |line: &str| -> Option<f64> {
        let at = line.find("<text ")?;
        let rest = &line[at..];
        let y = rest.split("y=\"").nth(1)?.split('"').next()?;
        Some(y.parse().unwrap())
    };
    let near = |got: Option<f64>, want: f64| got.is_some_and(|g| (g - want).abs() < 0.06);
    assert!(near(y_of(marks[0]), y + 12.0), "{}", marks[0]);
    assert!(near(y_of(marks[1]), y - 5.0), "{}", marks[1]);
    assert_eq!(y_of(marks[2]), None, "{}", marks[2]);
    assert!(marks[2].contains("<title>third word</title>"));
    assert!(near(y_of(marks[3]), y + 12.0), "{}", marks[3]);
}

/// The page's two-layer diagram (`svg::Layer`): the settled past, laid out to
/// the last event before the cursor, and over it what moves with the cursor,
/// laid out to the cursor, draw between them exactly what one drawing to the
/// cursor draws — every arrow and span once, in the same place, in the layer
/// it belongs to.
#[test]
fn the_settled_and_moving_layers_draw_what_one_drawing_draws() {
    use paxos_island::sim::SimTime;
    let groups = |doc: &str, start: &str| -> Vec<String> {
        doc.split(start)
            .skip(1)
            .map(|g| format!("{start}{}", g.split("</g>").next().unwrap_or_default()))
            .collect()
    };
    let spans = |doc: &str| -> usize {
        doc.split("<g class=\"spans\"")
            .nth(1)
            .and_then(|g| g.split("</g>").next())
            .map_or(0, |g| g.matches("<rect").count())
    };
    let (mut both, mut moments) = (0, 0);
    for run in runs() {
        let end = run.end.0.max(1);
        let opts = Options::new(0, end, 1000.0, 200.0);
        for k in 1..40u64 {
            let t = end * k / 40;
            let upto = run.events_until(SimTime(t));
            let trace = &run.trace[..upto];
            let last = trace.last().map_or(0, |e| e.t.0);
            let whole = spacetime::layout_trace(&run.names, trace, SimTime(t), &opts);
            let past = spacetime::layout_trace(&run.names, trace, SimTime(last), &opts);
            let w = svg::DiagramWords::ENGLISH;
            let all = svg::render_layer(&whole, "t", true, w, svg::Layer::All);
            let settled = svg::render_layer(&past, "t", true, w, svg::Layer::Settled);
            let moving = svg::render_layer(&whole, "t", true, w, svg::Layer::Moving);
            let name = &run.scenario.name;
            read_xml(&settled).unwrap_or_else(|e| panic!("{name} at {t}: {e}"));
            // Nothing open and nothing in flight: no layer at all.
            let still = !whole.arrows.iter().any(|a| a.fate == Fate::InFlight)
                && !whole.spans.iter().any(|s| s.open)
                && !whole.net_spans.iter().any(|s| s.open);
            assert_eq!(
                moving.is_empty(),
                still,
                "{name} at {t}: an empty moving layer"
            );
            if !still {
                read_xml(&moving).unwrap_or_else(|e| panic!("{name} at {t}: {e}"));
            }
            let (a, s, m) = (
                groups(&all, "<g class=\"msg "),
                groups(&settled, "<g class=\"msg "),
                groups(&moving, "<g class=\"msg "),
            );
            let mut layered: Vec<String> = s.iter().chain(&m).cloned().collect();
            let mut whole_list = a.clone();
            layered.sort();
            whole_list.sort();
            assert_eq!(layered, whole_list, "{name} at {t}: arrows");
            assert_eq!(
                spans(&settled) + spans(&moving),
                spans(&all),
                "{name} at {t}: spans"
            );
            assert!(
                !moving.contains("<g class=\"marker"),
                "{name} at {t}: a mark moves"
            );
            let open = whole.spans.iter().filter(|s| s.open).count()
                + whole.net_spans.iter().filter(|s| s.open).count();
            assert_eq!(spans(&moving), open, "{name} at {t}: open spans");
            moments += 1;
            if !m.is_empty() && open > 0 {
                both += 1;
            }
        }
    }
    assert!(moments > 100);
    assert!(
        both > 0,
        "no moment with a message in flight and an open span"
    );
}

/// Every word an SVG export writes over the run (the arrows', the marks' and
/// the spans' — not the ✕ signs), as boxes: x from, x to, y top, y bottom,
/// and whether it is an arrow's, by the renderer's own estimate of a word's
/// box (`svg::word_box`; the page's end-to-end tests measure the browser's).
fn words_of(doc: &str) -> Vec<([f64; 4], bool, String)> {
    let from = doc.find("<g class=\"spans\"").expect("spans");
    let attr = |tag: &str, name: &str| -> Option<f64> {
        let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        tag[at..].split('"').next()?.parse().ok()
    };
    let mut out = Vec::new();
    let mut rest = &doc[from..];
    let mut arrow = false;
    while let Some(at) = rest.find("<text ") {
        // Inside an arrow's group since its last opening?
        let before = &rest[..at];
        if let Some(g) = before.rfind("<g class=\"") {
            arrow = before[g..].starts_with("<g class=\"msg ");
        }
        let tail = &rest[at..];
        let close = tail.find('>').expect("tag ends");
        let tag = &tail[..close];
        let body_end = tail.find("</text>").expect("text ends");
        let text = tail[close + 1..body_end]
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&amp;", "&");
        rest = &tail[body_end..];
        if text == "✕" {
            continue;
        }
        let size = attr(tag, "font-size").unwrap_or(10.0);
        let (x, y) = (attr(tag, "x").expect("x"), attr(tag, "y").expect("y"));
        let end = tag.contains("text-anchor=\"end\"");
        out.push((svg::word_box(x, y, &text, size, end), arrow, text));
    }
    out
}

/// Where many messengers cross at once (four "Prepared ✕ receiver down" in
/// a commit run near 150 ms), their words were written over each other and
/// the last ones cut at the plot's right edge ("Abo"). No word of an arrow
/// or a mark covers another word now, and an arrow's word stays inside the
/// plot; a word with no room is left to its arrow's title (checked above:
/// every arrow is still labelled).
#[test]
fn no_word_of_a_diagram_covers_another_or_leaves_the_plot() {
    let mut words_seen = 0;
    for run in runs() {
        for (from, to) in [(0, run.end.0), (run.end.0 / 4, run.end.0 / 2)] {
            let d = spacetime::layout(&run, &Options::new(from, to.max(from + 1), 1200.0, 260.0));
            let doc = svg::render(&d, &run.scenario.name);
            let words = words_of(&doc);
            let name = &run.scenario.name;
            let (lo, hi) = (d.plot.x, d.plot.x + d.plot.w);
            for (i, (a, arrow, ta)) in words.iter().enumerate() {
                if *arrow {
                    assert!(
                        a[0] >= lo - 0.1 && a[1] <= hi + 0.1,
                        "{name} [{from},{to}]: {ta:?} leaves the plot ({a:?}, plot {lo}..{hi})"
                    );
                }
                for (b, _, tb) in &words[i + 1..] {
                    // Boxes rounded to a tenth of a pixel in the file.
                    let overlap = a[0] < b[1] - 0.15
                        && b[0] < a[1] - 0.15
                        && a[2] < b[3] - 0.15
                        && b[2] < a[3] - 0.15;
                    assert!(!overlap, "{name} [{from},{to}]: {ta:?} covers {tb:?}");
                }
            }
            words_seen += words.len();
        }
    }
    assert!(words_seen > 1000, "only {words_seen} words");
}
