//! A scenario read from its JSON value by hand ([`FromValue`]), every struct
//! of it in one place.
//!
//! Each reader follows the serde attributes its struct keeps for writing:
//! a field with `#[serde(default)]` (or `default = "f"`) may be left out and
//! then takes that default, an `Option` may be left out or `null`, and any
//! other key is refused (`deny_unknown_fields`). The tests hold each reader
//! to serde's derive with those very attributes (derived in test builds
//! only), on every built-in scenario damaged one field at a time — so a
//! field added to a struct and not here fails them.

use super::commit_spec::{self, CommitSpec};
use super::lease_spec::{self, LeaseSpec, StoreGroupSpec};
use super::multipaxos_spec::{self, CellSpec, ClientScript, MultiSpec, ScriptOp};
use super::{default_timeout, step_kinds, yes, NodeSpec, PaxosSpec, Proposal, Role, Scenario};
use super::{Scheduled, Step};
use crate::json::{invalid, named, object, FromValue};
use crate::protocol::{flat, Command};
use crate::sim::clock::ClockSpec;
use crate::sim::fault::Fault;
use crate::sim::network::{LinkSpec, NetworkConfig};
use serde_json::Value;

/// `"heal"`, or an object of one key: a fault's or a command's name.
impl<N: FromValue> FromValue for Step<N> {
    fn from_value(v: Value) -> Result<Step<N>, String> {
        let unknown = |tag: &str| {
            format!(
                "unknown fault {tag:?}; expected one of: {}",
                step_kinds::<N>()
            )
        };
        match v {
            Value::String(s) if Fault::<N>::KINDS.contains(&s.as_str()) => {
                Fault::from_json(&s, Value::Null).map(Step::Fault)
            }
            Value::String(s) => Err(unknown(&s)),
            Value::Object(map) => {
                let (tag, content, second) = flat::first(map, "fault")?;
                let step = if Fault::<N>::KINDS.contains(&tag.as_str()) {
                    Step::Fault(Fault::from_json(&tag, content)?)
                } else if Command::<N>::is_kind(&tag) {
                    Step::Command(Command::from_json(&tag, content)?)
                } else {
                    return Err(unknown(&tag));
                };
                flat::end(second, "fault")?;
                Ok(step)
            }
            v => Err(invalid(
                &v,
                &format!("a fault or command, one of: {}", step_kinds::<N>()),
            )),
        }
    }
}

#[cfg(test)]
impl<'de, N: FromValue> serde::Deserialize<'de> for Step<N> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        crate::json::by_hand(d)
    }
}

impl<N: FromValue> FromValue for Scheduled<N> {
    fn from_value(v: Value) -> Result<Self, String> {
        object(v)?.read_all(|f| {
            Ok(Scheduled {
                at_us: f.read("at_us")?,
                fault: f.read("fault")?,
            })
        })
    }
}

/// The roles by the names a scenario file gives them.
pub(crate) const ROLES: [(&str, Role); 13] = [
    ("proposer", Role::Proposer),
    ("acceptor", Role::Acceptor),
    ("learner", Role::Learner),
    ("worker", Role::Worker),
    ("lease_store", Role::LeaseStore),
    ("storage", Role::Storage),
    ("llm", Role::Llm),
    ("advisor", Role::Advisor),
    ("replica", Role::Replica),
    ("client", Role::Client),
    ("tm", Role::Tm),
    ("rm", Role::Rm),
    ("coordinator", Role::Coordinator),
];

impl FromValue for Role {
    fn from_value(v: Value) -> Result<Role, String> {
        named(v, &ROLES, |(n, _)| n).map(|(_, r)| r)
    }
}

impl FromValue for NodeSpec {
    fn from_value(v: Value) -> Result<Self, String> {
        object(v)?.read_all(|f| {
            Ok(NodeSpec {
                id: f.read("id")?,
                roles: f.read("roles")?,
            })
        })
    }
}

impl FromValue for Proposal {
    fn from_value(v: Value) -> Result<Self, String> {
        object(v)?.read_all(|f| {
            Ok(Proposal {
                node: f.read("node")?,
                value: f.read("value")?,
                start_us: f.read_or("start_us", 0)?,
            })
        })
    }
}

impl FromValue for PaxosSpec {
    fn from_value(v: Value) -> Result<Self, String> {
        object(v)?.read_all(|f| {
            Ok(PaxosSpec {
                proposals: f.read("proposals")?,
                timeout_us: f.read_or("timeout_us", default_timeout())?,
                backoff: f.read_or("backoff", yes())?,
                leader: f.opt("leader")?,
                learn_from_votes: f.read_or("learn_from_votes", false)?,
            })
        })
    }
}

impl FromValue for Scenario {
    fn from_value(v: Value) -> Result<Self, String> {
        object(v)?.read_all(|f| {
            Ok(Scenario {
                name: f.read("name")?,
                protocol: f.read("protocol")?,
                seed: f.read("seed")?,
                nodes: f.read("nodes")?,
                network: f.read_or("network", NetworkConfig::default())?,
                clocks: f.read_or("clocks", Vec::new())?,
                faults: f.read_or("faults", Vec::new())?,
                paxos: f.opt("paxos")?,
                lease: f.opt("lease")?,
                multipaxos: f.opt("multipaxos")?,
                commit: f.opt("commit")?,
                mutation: f.opt("mutation")?,
                stop_at_us: f.read("stop_at_us")?,
            })
        })
    }
}

impl FromValue for NetworkConfig {
    fn from_value(v: Value) -> Result<Self, String> {
        object(v)?.read_all(|f| {
            Ok(NetworkConfig {
                latency: f.read_or("latency", Default::default())?,
                loss: f.read_or("loss", 0.0)?,
                duplicate: f.read_or("duplicate", 0.0)?,
                reorder: f.read_or("reorder", 0.0)?,
                links: f.read_or("links", Vec::new())?,
                scripted: f.read_or("scripted", false)?,
            })
        })
    }
}

impl FromValue for LinkSpec {
    fn from_value(v: Value) -> Result<Self, String> {
        object(v)?.read_all(|f| {
            Ok(LinkSpec {
                from: f.read("from")?,
                to: f.read("to")?,
                latency: f.opt("latency")?,
                loss: f.opt("loss")?,
            })
        })
    }
}

impl FromValue for ClockSpec {
    fn from_value(v: Value) -> Result<Self, String> {
        object(v)?.read_all(|f| {
            Ok(ClockSpec {
                node: f.read("node")?,
                drift_ppm: f.read_or("drift_ppm", 0)?,
                offset_us: f.read_or("offset_us", 0)?,
            })
        })
    }
}

impl FromValue for LeaseSpec {
    fn from_value(v: Value) -> Result<Self, String> {
        object(v)?.read_all(|f| {
            Ok(LeaseSpec {
                ttl_us: f.read("ttl_us")?,
                renew_us: f.opt("renew_us")?,
                margin_us: f.opt("margin_us")?,
                rho_ppm: f.read_or("rho_ppm", lease_spec::default_rho())?,
                fencing: f.read_or("fencing", Default::default())?,
                bump_epoch_on_renew: f.read_or("bump_epoch_on_renew", false)?,
                initial_epoch: f.read_or("initial_epoch", 0)?,
                design: f.read("design")?,
                llm: f.read_or("llm", Default::default())?,
                llm_timeout_us: f.read_or("llm_timeout_us", lease_spec::default_llm_timeout())?,
                work_every_us: f.read_or("work_every_us", lease_spec::default_work_every())?,
                work_takes_us: f.read_or("work_takes_us", lease_spec::default_work_takes())?,
                keys: f.read_or("keys", lease_spec::default_keys())?,
                stagger_us: f.read_or("stagger_us", lease_spec::default_stagger())?,
                store: f.opt("store")?,
            })
        })
    }
}

impl FromValue for StoreGroupSpec {
    fn from_value(v: Value) -> Result<Self, String> {
        object(v)?.read_all(|f| {
            Ok(StoreGroupSpec {
                heartbeat_us: f.read_or("heartbeat_us", lease_spec::default_store_heartbeat())?,
                election_timeout_us: f
                    .read_or("election_timeout_us", lease_spec::default_store_election())?,
                master_lease_us: f
                    .read_or("master_lease_us", lease_spec::default_master_lease())?,
            })
        })
    }
}

impl FromValue for MultiSpec {
    fn from_value(v: Value) -> Result<Self, String> {
        object(v)?.read_all(|f| {
            Ok(MultiSpec {
                election_timeout_us: f
                    .read_or("election_timeout_us", multipaxos_spec::default_election())?,
                heartbeat_us: f.read_or("heartbeat_us", multipaxos_spec::default_heartbeat())?,
                window: f.read_or("window", multipaxos_spec::default_window())?,
                lease_us: f.opt("lease_us")?,
                rho_ppm: f.read_or("rho_ppm", multipaxos_spec::default_rho())?,
                margin_us: f.opt("margin_us")?,
                client_retry_us: f.read_or("client_retry_us", multipaxos_spec::default_retry())?,
                clients: f.read_or("clients", Vec::new())?,
                cell: f.opt("cell")?,
            })
        })
    }
}

impl FromValue for CellSpec {
    fn from_value(v: Value) -> Result<Self, String> {
        object(v)?.read_all(|f| {
            Ok(CellSpec {
                session_lease_us: f
                    .read_or("session_lease_us", multipaxos_spec::default_session_lease())?,
                grace_us: f.read_or("grace_us", multipaxos_spec::default_grace())?,
                keepalive_us: f.read_or("keepalive_us", multipaxos_spec::default_keepalive())?,
            })
        })
    }
}

impl FromValue for ClientScript {
    fn from_value(v: Value) -> Result<Self, String> {
        object(v)?.read_all(|f| {
            Ok(ClientScript {
                node: f.read("node")?,
                ops: f.read("ops")?,
            })
        })
    }
}

impl FromValue for ScriptOp {
    fn from_value(v: Value) -> Result<Self, String> {
        object(v)?.read_all(|f| {
            Ok(ScriptOp {
                at_us: f.read_or("at_us", 0)?,
                op: f.read("op")?,
                key: f.opt("key")?,
                value: f.opt("value")?,
                lock: f.opt("lock")?,
            })
        })
    }
}

impl FromValue for CommitSpec {
    fn from_value(v: Value) -> Result<Self, String> {
        object(v)?.read_all(|f| {
            Ok(CommitSpec {
                algorithm: f.read("algorithm")?,
                faster: f.read_or("faster", false)?,
                initiator: f.opt("initiator")?,
                start_us: f.read_or("start_us", 0)?,
                aborts: f.read_or("aborts", Vec::new())?,
                timeout_us: f.read_or("timeout_us", commit_spec::default_timeout())?,
                unilateral_abort: f.read_or("unilateral_abort", false)?,
            })
        })
    }
}

#[cfg(test)]
pub(crate) mod tests;
