//! A search of the Synod as a job the page hands to its worker.
//!
//! The page runs the model checker in a Web Worker, in its own WebAssembly
//! module (`src/checker.rs`, built for speed and fetched only when a search
//! starts), so the main module stays small and the page paints while the
//! search works. The two speak JSON: a [`Request`] goes in, [`Reply`]s come
//! back — progress while it runs, then the verdict, with the shortest
//! counterexample as a scenario the time machine opens. This file is that
//! protocol; it knows nothing of workers and is tested natively.

use super::paxos::{PaxosExplorer, PaxosModel};
use super::{Progress, Stop};
use crate::check::Invariant;
use crate::protocol::paxos::PaxosMutation;
use serde::{Deserialize, Serialize};

mod read;

/// The most states a search in the page explores (about 60 bytes each).
pub const PAGE_MAX_STATES: usize = 6_000_000;

/// What the student chose.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    pub acceptors: usize,
    pub proposers: usize,
    pub ballots: u32,
    pub crashes: u8,
    /// A mutation's id (`PaxosMutation::as_str`), or none.
    pub mutation: Option<String>,
}

impl Request {
    pub fn of(model: &PaxosModel) -> Request {
        Request {
            acceptors: model.acceptors,
            proposers: model.proposers,
            ballots: model.ballots,
            crashes: model.crashes,
            mutation: model.mutation.map(|m| m.as_str().to_string()),
        }
    }

    /// The model, its numbers checked; every problem named.
    pub fn model(&self) -> Result<PaxosModel, String> {
        let mutation = match &self.mutation {
            None => None,
            Some(id) => Some(
                PaxosMutation::ALL
                    .into_iter()
                    .find(|m| m.as_str() == id)
                    .ok_or_else(|| format!("unknown mutation {id:?}"))?,
            ),
        };
        let model = PaxosModel {
            acceptors: self.acceptors,
            proposers: self.proposers,
            ballots: self.ballots,
            crashes: self.crashes,
            mutation,
        };
        model.validate()?;
        Ok(model)
    }
}

/// What the worker says. Written by serde's derive as `{"kind": "progress",
/// …}`; read by hand in the page (`Reply::from_value`, see `json::tagged`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Reply {
    /// Still searching.
    Progress {
        states: usize,
        depth: u32,
        frontier: usize,
    },
    /// Every state seen (or the budget spent: `truncated`), no rule broken.
    Clean { states: usize, truncated: bool },
    /// A rule broke: the shortest path to it, and the shortest to the
    /// others broken on the way.
    Found {
        invariant: Invariant,
        steps: usize,
        detail: String,
        states: usize,
        also: Vec<(Invariant, usize)>,
        /// The scenario that replays it (`Scenario::to_json`).
        counterexample: String,
    },
    /// The request was refused, or the worker failed.
    Failed { message: String },
}

#[cfg(test)]
impl<'de> serde::Deserialize<'de> for Reply {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        crate::json::by_hand(d)
    }
}

impl Reply {
    const KINDS: &'static [&'static str] = &["progress", "clean", "found", "failed"];
}

impl crate::json::FromValue for Reply {
    fn from_value(value: serde_json::Value) -> Result<Reply, String> {
        let (kind, mut f) = crate::json::tagged(value, "kind", Self::KINDS)?;
        let reply = match kind {
            "progress" => Reply::Progress {
                states: f.read("states")?,
                depth: f.read("depth")?,
                frontier: f.read("frontier")?,
            },
            "clean" => Reply::Clean {
                states: f.read("states")?,
                truncated: f.read("truncated")?,
            },
            "found" => Reply::Found {
                invariant: f.read("invariant")?,
                steps: f.read("steps")?,
                detail: f.read("detail")?,
                states: f.read("states")?,
                also: f.read("also")?,
                counterexample: f.read("counterexample")?,
            },
            _ => Reply::Failed {
                message: f.read("message")?,
            },
        };
        // Unknown keys are let through, as serde's derive (without
        // `deny_unknown_fields`) did: a newer worker may say more.
        Ok(reply)
    }
}

impl Reply {
    pub fn is_final(&self) -> bool {
        !matches!(self, Reply::Progress { .. })
    }
}

/// One search.
pub struct Job {
    model: PaxosModel,
    x: PaxosExplorer,
}

impl Job {
    pub fn new(request: &Request) -> Result<Job, String> {
        let model = request.model()?;
        let mut x = model.explorer(Stop::When(Invariant::Agreement));
        x.set_max_states(PAGE_MAX_STATES);
        Ok(Job { model, x })
    }

    /// Search on for `budget` states.
    pub fn step(&mut self, budget: usize) -> Reply {
        let done = self.x.run(budget);
        let p: Progress = self.x.progress().clone();
        if !done {
            return Reply::Progress {
                states: p.states,
                depth: p.depth,
                frontier: p.frontier,
            };
        }
        let vs = self.x.violations().to_vec();
        // Agreement is the rule the search is for; others are kept too.
        let Some(v) = vs
            .iter()
            .find(|v| v.invariant == Invariant::Agreement)
            .or(vs.first())
            .cloned()
        else {
            return Reply::Clean {
                states: p.states,
                truncated: p.truncated,
            };
        };
        let also = vs
            .iter()
            .filter(|o| o.invariant != v.invariant)
            .map(|o| (o.invariant, o.path.len()))
            .collect();
        let scenario = self.model.counterexample(
            &mut self.x,
            &v.path,
            &format!("counterexample: {}", v.invariant),
        );
        Reply::Found {
            invariant: v.invariant,
            steps: v.path.len(),
            detail: v.detail,
            states: p.states,
            also,
            counterexample: scenario.to_json(),
        }
    }
}

/// The worker's whole conversation for one message: parse, or say why not.
pub fn start(request_json: &str) -> Result<Job, Reply> {
    let request = read::read(request_json).map_err(|e| Reply::Failed {
        message: format!("a bad request to the model checker: {e}"),
    })?;
    Job::new(&request).map_err(|message| Reply::Failed { message })
}

/// A reply as the worker posts it: with the search's age by the worker's
/// clock (the core has none), taken after the slice that made the reply.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
pub struct Posted {
    pub secs: f64,
    pub reply: Reply,
}

/// Unknown keys let through, as for the reply.
impl crate::json::FromValue for Posted {
    fn from_value(value: serde_json::Value) -> Result<Posted, String> {
        let mut f = crate::json::object(value)?;
        Ok(Posted {
            secs: f.read("secs")?,
            reply: f.read("reply")?,
        })
    }
}

impl Posted {
    /// Through the page's one JSON reader (`json::read`).
    pub fn from_json(text: &str) -> Result<Posted, String> {
        crate::json::read(text.as_bytes())
            .map_err(|e| format!("the model checker's worker said something unreadable: {e}"))
    }
}

impl Reply {
    pub fn to_json(&self) -> String {
        // Not `expect` (see `Scenario::to_json_compact`).
        serde_json::to_string(self).unwrap_or_else(|_| unreachable!("a reply always serializes"))
    }
    pub fn from_json(text: &str) -> Result<Reply, String> {
        crate::json::read(text.as_bytes())
            .map_err(|e| format!("the model checker's worker said something unreadable: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::{Posted, Reply};
    use crate::check::Invariant;

    #[test]
    fn every_reply_reads_back_as_written() {
        for reply in [
            Reply::Progress {
                states: 12_345,
                depth: 7,
                frontier: 99,
            },
            Reply::Clean {
                states: 5,
                truncated: true,
            },
            Reply::Found {
                invariant: Invariant::Agreement,
                steps: 9,
                detail: "two values \"chosen\"".into(),
                states: 400,
                also: vec![(Invariant::Validity, 3), (Invariant::PromiseMonotonic, 11)],
                counterexample: "{\"name\": \"x\"}".into(),
            },
            Reply::Failed {
                message: "a bad request".into(),
            },
        ] {
            assert_eq!(Reply::from_json(&reply.to_json()).unwrap(), reply);
            let posted = Posted {
                secs: 0.30000000000000004,
                reply,
            };
            let text = serde_json::to_string(&posted).unwrap();
            assert_eq!(Posted::from_json(&text).unwrap(), posted);
        }
    }

    #[test]
    fn a_reply_that_does_not_fit_says_why() {
        let e = |t: &str| Reply::from_json(t).unwrap_err();
        assert!(e(r#"{"kind": "progress", "states": 1, "depth": 2}"#)
            .ends_with("missing field `frontier`"));
        assert!(e(r#"{"kind": "clean", "states": 1, "truncated": 0}"#)
            .ends_with("invalid type for `truncated`: integer `0`, expected a boolean"));
        assert!(e(r#"{"kind": "found", "invariant": "agreement", "steps": 1, "detail": "", "states": 1, "also": [["no-such-rule", 1]], "counterexample": ""}"#)
            .contains("unknown variant `no-such-rule`"));
        assert!(e(r#"{"kind": "done"}"#).contains("unknown variant `done`"));
        assert!(
            e(r#"{"kind": "progress", "states": 1, "depth": 4294967296, "frontier": 0}"#)
                .ends_with("invalid value for `depth`: integer `4294967296`, expected u32")
        );
    }
}
