//! Reading trace and scenario files that a user hands us — which may be
//! truncated, hand-edited, from another version, or not ours at all.
//!
//! Nothing here panics on bad input: every problem becomes an `ImportError`
//! whose message says what is wrong and where.

use super::json::{events_json, FORMAT, VERSION};
use crate::scenario::run::Run;
use crate::scenario::Scenario;
use serde_json::Value as J;
use thiserror::Error;

/// Files above this size are refused before they are parsed.
pub const MAX_BYTES: usize = 50_000_000;

#[derive(Debug, Error, Clone, PartialEq)]
pub enum ImportError {
    #[error("the file is {0} bytes; files above {MAX_BYTES} bytes (50 MB) are refused")]
    TooBig(usize),
    #[error("the file is empty")]
    Empty,
    #[error("not valid JSON: {0}")]
    NotJson(crate::json::Error),
    /// A picture, a diagram or a log (the File menu writes them for slides
    /// and other tools): what it is, in English ("a PNG picture").
    #[error(
        "this is {0}, not a trace or a scenario: open a .trace.json or a scenario's .json file"
    )]
    NotATrace(&'static str),
    #[error(
        "not a Paxos Island trace: the top level must be an object with \"format\": \"{FORMAT}\""
    )]
    NotObject,
    #[error("not a Paxos Island trace: \"format\" is {0}, expected \"{FORMAT}\"")]
    WrongFormat(String),
    #[error("trace version {0} is not supported (this version reads version {VERSION})")]
    WrongVersion(String),
    #[error("\"events\" must be a list")]
    EventsNotList,
    #[error("event {index}: {problem}")]
    BadEvent { index: usize, problem: String },
    #[error("the file has neither a usable scenario nor events")]
    Nothing,
    #[error("the scenario is not valid: {0}")]
    BadScenario(String),
}

/// A trace as read from a file.
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    /// The scenario, if present and valid.
    pub scenario: Option<Scenario>,
    /// Why the scenario could not be used, if it was present but broken.
    pub scenario_problem: Option<String>,
    /// The recorded events, checked for shape and order.
    pub events: Vec<J>,
    /// Where a live run was recorded (a real PostgreSQL or etcd): its events
    /// cannot be reproduced by replaying the scenario.
    pub recorded_on: Option<String>,
}

/// The parser's complaint, kept whole (its place and its words, which each
/// language says its own way), on one line.
fn not_json(e: crate::json::Error) -> ImportError {
    ImportError::NotJson(crate::json::Error {
        message: one_line(&e.message),
        ..e
    })
}

/// Text that is not JSON: one of the File menu's other writings (or another
/// picture or diagram) is named, anything else is the parser's complaint.
fn not_json_in(text: &str, e: crate::json::Error) -> ImportError {
    let head = text.trim_start_matches('\u{feff}').trim_start();
    let kind = if head.chars().skip(1).take(3).eq("PNG".chars()) {
        Some("a PNG picture")
    } else if head.starts_with("<svg") || head.starts_with("<?xml") {
        Some("an SVG picture")
    } else if head.starts_with("sequenceDiagram") {
        Some("a Mermaid diagram")
    } else if head.starts_with("(?<host>") {
        Some("a ShiViz log")
    } else {
        None
    };
    kind.map_or_else(|| not_json(e), ImportError::NotATrace)
}

/// Make a message safe to show on one line: parser messages quote the
/// user's own text (an unknown field name, say), which may hold line breaks
/// or control characters; those are shown escaped, and a very long message
/// is shortened.
pub fn one_line(msg: &str) -> String {
    const MAX_CHARS: usize = 400;
    let mut out = String::with_capacity(msg.len().min(MAX_CHARS + 8));
    for (i, c) in msg.chars().enumerate() {
        if i == MAX_CHARS {
            out.push('…');
            break;
        }
        if c.is_control() || c == '\u{2028}' || c == '\u{2029}' {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

fn describe(v: &J) -> String {
    match v {
        J::String(s) => format!("{s:?}"),
        J::Null => "missing".into(),
        other => other.to_string().chars().take(40).collect(),
    }
}

/// Parse a trace file (or a scenario-only file in the same envelope).
pub fn parse(text: &str) -> Result<Imported, ImportError> {
    if text.len() > MAX_BYTES {
        return Err(ImportError::TooBig(text.len()));
    }
    if text.trim().is_empty() {
        return Err(ImportError::Empty);
    }
    let doc: J = crate::json::parse(text.as_bytes()).map_err(|e| not_json_in(text, e))?;
    let J::Object(obj) = &doc else {
        return Err(ImportError::NotObject);
    };
    let format = obj.get("format").unwrap_or(&J::Null);
    if format.as_str() != Some(FORMAT) {
        return Err(ImportError::WrongFormat(describe(format)));
    }
    let version = obj.get("version").unwrap_or(&J::Null);
    if version.as_u64() != Some(VERSION) {
        return Err(ImportError::WrongVersion(describe(version)));
    }
    let (scenario, scenario_problem) = match obj.get("scenario") {
        None | Some(J::Null) => (None, Some("the file has no scenario".to_string())),
        Some(s) => match scenario_from_value(s) {
            Ok(s) => (Some(s), None),
            Err(e) => (None, Some(e)),
        },
    };
    let events = match obj.get("events") {
        None => Vec::new(),
        Some(J::Array(list)) => list.clone(),
        Some(_) => return Err(ImportError::EventsNotList),
    };
    check_events(&events)?;
    if scenario.is_none() && events.is_empty() {
        return match scenario_problem {
            Some(p) if obj.contains_key("scenario") => Err(ImportError::BadScenario(p)),
            _ => Err(ImportError::Nothing),
        };
    }
    let recorded_on = obj.get("recorded_on").and_then(J::as_str).map(one_line);
    Ok(Imported {
        recorded_on,
        scenario,
        scenario_problem,
        events,
    })
}

/// Every event needs `seq`, `t_us`, `node` and `kind`; `seq` must rise and
/// time must not run backwards.
fn check_events(events: &[J]) -> Result<(), ImportError> {
    let mut last: Option<(u64, u64)> = None;
    for (index, e) in events.iter().enumerate() {
        let bad = |problem: String| ImportError::BadEvent { index, problem };
        let J::Object(o) = e else {
            return Err(bad("an event must be an object".into()));
        };
        let num = |k: &str| -> Result<u64, ImportError> {
            o.get(k).and_then(J::as_u64).ok_or_else(|| {
                bad(format!(
                    "\"{k}\" must be a whole number ≥ 0, found {}",
                    describe(o.get(k).unwrap_or(&J::Null))
                ))
            })
        };
        let seq = num("seq")?;
        let t = num("t_us")?;
        for k in ["node", "kind"] {
            match o.get(k) {
                Some(J::String(s)) if !s.is_empty() && s.len() <= 64 => {}
                other => {
                    return Err(bad(format!(
                        "\"{k}\" must be a short text, found {}",
                        describe(other.unwrap_or(&J::Null))
                    )))
                }
            }
        }
        if let Some((ls, lt)) = last {
            if seq <= ls {
                return Err(bad(format!(
                    "events out of order: seq {seq} comes after {ls}"
                )));
            }
            if t < lt {
                return Err(bad(format!(
                    "events out of order: t_us {t} comes after {lt}"
                )));
            }
        }
        last = Some((seq, t));
    }
    Ok(())
}

fn scenario_from_value(v: &J) -> Result<Scenario, String> {
    let s: Scenario = crate::json::from_value(v.clone()).map_err(|e| one_line(&e.to_string()))?;
    s.validate().map_err(|e| one_line(&e.to_string()))?;
    Ok(s)
}

/// A scenario from a file: either a trace/scenario envelope or a bare scenario.
pub fn scenario_from_text(text: &str) -> Result<Scenario, ImportError> {
    if text.len() > MAX_BYTES {
        return Err(ImportError::TooBig(text.len()));
    }
    let doc: J = crate::json::parse(text.as_bytes()).map_err(|e| not_json_in(text, e))?;
    if doc.get("format").is_some() {
        let imp = parse(text)?;
        return imp.scenario.ok_or_else(|| {
            ImportError::BadScenario(imp.scenario_problem.unwrap_or_else(|| "missing".into()))
        });
    }
    scenario_from_value(&doc).map_err(ImportError::BadScenario)
}

/// Result of re-simulating a trace's scenario.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    Identical {
        hash: String,
    },
    /// First difference: index, recorded event, simulated event.
    Differs {
        at: usize,
        expected: String,
        got: String,
    },
}

pub fn verify(scenario: &Scenario, recorded: &[J]) -> Verdict {
    let run = match Run::record(scenario) {
        Ok(r) => r,
        Err(e) => {
            return Verdict::Differs {
                at: 0,
                expected: "a runnable scenario".into(),
                got: e.to_string(),
            }
        }
    };
    let ours = events_json(&run.names, &run.trace);
    for (i, (a, b)) in recorded.iter().zip(ours.iter()).enumerate() {
        if a != b {
            return Verdict::Differs {
                at: i,
                expected: a.to_string(),
                got: b.to_string(),
            };
        }
    }
    if recorded.len() != ours.len() {
        let at = recorded.len().min(ours.len());
        return Verdict::Differs {
            at,
            expected: format!("{} events", recorded.len()),
            got: format!("{} events", ours.len()),
        };
    }
    Verdict::Identical { hash: run.hash() }
}
