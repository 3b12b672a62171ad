//! Faults: the verbs a teacher (or a random schedule) uses to make life hard.
//!
//! These are the simulator's own faults — processes, network and clocks —
//! the same for every protocol. A protocol's instructions (propose a decree,
//! stall an LLM answer) are its commands, not faults.
//!
//! The same enum serves three purposes: a fault script in a scenario (node
//! names as strings), a fault injected at the current moment from the UI or
//! the CLI (then recorded into the scenario, so the branch replays), and the
//! simulator's internal form (node ids). `Fault<N>` is generic over how a node
//! is named.

use super::dist::Latency;
use crate::json::{Fields, FromValue};
use serde::Serialize;
use serde_json::Value;

/// Written by serde's derive (`{"pause": {"node": "Α", "for_us": 500000}}`,
/// `"heal"`); read by hand (`Fault::from_json`, see `json::tagged`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fault<N> {
    /// The process dies: volatile state is lost, stable storage (the ink in
    /// the ledger) is kept, messages to it are lost until it restarts.
    Crash {
        node: N,
    },
    /// A crashed process comes back and reads its stable storage.
    Restart {
        node: N,
    },
    /// The process is frozen (a GC pause, a VM migration, a call that blocks
    /// the loop): its inbox and timers pile up, its clock keeps running, and
    /// when it resumes it carries on with its old beliefs. Not a crash.
    Pause {
        node: N,
        for_us: u64,
    },
    /// Cut the network between the listed groups; nodes not listed keep
    /// talking to everyone. With `oneway`, only messages *from* the first group
    /// to the others are lost; the other direction still works.
    Partition {
        groups: Vec<Vec<N>>,
        oneway: bool,
    },
    /// Restore every link.
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
        latency: Latency,
    },
    /// Jump a node's clock (positive: forward).
    ClockStep {
        node: N,
        by_us: i64,
    },
    /// Change a node's clock rate error.
    SetDrift {
        node: N,
        ppm: i64,
    },
    /// Scripted network only: deliver (again) the message sent with this id.
    Deliver {
        id: u64,
    },
    /// Scripted network only: fire `node`'s pending timer of this kind now.
    Fire {
        node: N,
        timer: String,
    },
}

impl<N: FromValue> Fault<N> {
    /// The fault named `kind` (one of `KINDS`) from its content: `null` for
    /// `heal`, an object of its fields for the others (a field with a default
    /// may be left out; any other key is refused).
    pub fn from_json(kind: &str, value: Value) -> Result<Fault<N>, String> {
        if kind == "heal" {
            return match value {
                Value::Null => Ok(Fault::Heal),
                v => Err(format!(
                    "`heal` has no fields, not {}",
                    crate::json::shown(&v)
                )),
            };
        }
        Fields::variant(kind, value)?.read_all(|f| {
            Ok(match kind {
                "crash" => Fault::Crash {
                    node: f.read("node")?,
                },
                "restart" => Fault::Restart {
                    node: f.read("node")?,
                },
                "pause" => Fault::Pause {
                    node: f.read("node")?,
                    for_us: f.read("for_us")?,
                },
                "partition" => Fault::Partition {
                    groups: f.read("groups")?,
                    oneway: f.read_or("oneway", false)?,
                },
                "set_loss" => Fault::SetLoss { p: f.read("p")? },
                "set_duplicate" => Fault::SetDuplicate { p: f.read("p")? },
                "set_reorder" => Fault::SetReorder { p: f.read("p")? },
                "set_latency" => Fault::SetLatency {
                    latency: Latency::from_json(f.value("latency")?)?,
                },
                "clock_step" => Fault::ClockStep {
                    node: f.read("node")?,
                    by_us: f.read("by_us")?,
                },
                "set_drift" => Fault::SetDrift {
                    node: f.read("node")?,
                    ppm: f.read("ppm")?,
                },
                "deliver" => Fault::Deliver { id: f.read("id")? },
                "fire" => Fault::Fire {
                    node: f.read("node")?,
                    timer: f.read("timer")?,
                },
                _ => return Err(format!("unknown fault `{kind}`")),
            })
        })
    }
}

/// `"heal"`, or an object of one key, the fault's name: for the tests, which
/// hold `from_json` to a derived copy. (A scenario's script step reads a
/// fault or a command itself: `scenario::read`.)
#[cfg(test)]
impl<N: FromValue> FromValue for Fault<N> {
    fn from_value(v: Value) -> Result<Self, String> {
        match v {
            Value::String(kind) => Fault::from_json(&kind, Value::Null),
            Value::Object(map) if map.len() == 1 => {
                let (kind, content) = map.into_iter().next().expect("one key");
                Fault::from_json(&kind, content)
            }
            v => Err(crate::json::invalid(&v, "a fault")),
        }
    }
}

#[cfg(test)]
impl<'de, N: FromValue> serde::Deserialize<'de> for Fault<N> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        crate::json::by_hand(d)
    }
}

impl<N> Fault<N> {
    /// Every kind, as written in scenarios and traces.
    pub const KINDS: &'static [&'static str] = &[
        "crash",
        "restart",
        "pause",
        "partition",
        "heal",
        "set_loss",
        "set_duplicate",
        "set_reorder",
        "set_latency",
        "clock_step",
        "set_drift",
        "deliver",
        "fire",
    ];

    /// The snake_case name used as the trace event kind.
    pub fn kind(&self) -> &'static str {
        match self {
            Fault::Crash { .. } => "crash",
            Fault::Restart { .. } => "restart",
            Fault::Pause { .. } => "pause",
            Fault::Partition { .. } => "partition",
            Fault::Heal => "heal",
            Fault::SetLoss { .. } => "set_loss",
            Fault::SetDuplicate { .. } => "set_duplicate",
            Fault::SetReorder { .. } => "set_reorder",
            Fault::SetLatency { .. } => "set_latency",
            Fault::ClockStep { .. } => "clock_step",
            Fault::SetDrift { .. } => "set_drift",
            Fault::Deliver { .. } => "deliver",
            Fault::Fire { .. } => "fire",
        }
    }

    /// The node a fault is about, if it is about one.
    pub fn node(&self) -> Option<&N> {
        match self {
            Fault::Crash { node }
            | Fault::Restart { node }
            | Fault::Pause { node, .. }
            | Fault::ClockStep { node, .. }
            | Fault::SetDrift { node, .. }
            | Fault::Fire { node, .. } => Some(node),
            _ => None,
        }
    }

    /// Translate the node names (or ids) with `f`; stops at the first error.
    pub fn try_map<M, E>(&self, mut f: impl FnMut(&N) -> Result<M, E>) -> Result<Fault<M>, E> {
        Ok(match self {
            Fault::Crash { node } => Fault::Crash { node: f(node)? },
            Fault::Restart { node } => Fault::Restart { node: f(node)? },
            Fault::Pause { node, for_us } => Fault::Pause {
                node: f(node)?,
                for_us: *for_us,
            },
            Fault::Partition { groups, oneway } => Fault::Partition {
                groups: groups
                    .iter()
                    .map(|g| g.iter().map(&mut f).collect::<Result<Vec<_>, E>>())
                    .collect::<Result<Vec<_>, E>>()?,
                oneway: *oneway,
            },
            Fault::Heal => Fault::Heal,
            Fault::SetLoss { p } => Fault::SetLoss { p: *p },
            Fault::SetDuplicate { p } => Fault::SetDuplicate { p: *p },
            Fault::SetReorder { p } => Fault::SetReorder { p: *p },
            Fault::SetLatency { latency } => Fault::SetLatency {
                latency: latency.clone(),
            },
            Fault::ClockStep { node, by_us } => Fault::ClockStep {
                node: f(node)?,
                by_us: *by_us,
            },
            Fault::SetDrift { node, ppm } => Fault::SetDrift {
                node: f(node)?,
                ppm: *ppm,
            },
            Fault::Deliver { id } => Fault::Deliver { id: *id },
            Fault::Fire { node, timer } => Fault::Fire {
                node: f(node)?,
                timer: timer.clone(),
            },
        })
    }
}
