//! Multi-Paxos scenarios: settings, validation, the built-in demos and
//! random schedules for `check --protocol multipaxos`.

use super::{NodeSpec, Role, Scenario, ScenarioError, Scheduled, Step};
use crate::check::search::FaultSet;
use crate::check::{Monitors, MultiMonitor};
use crate::protocol::multipaxos::{
    key_index, Action, CellConfig, Client, FileServer, Group, MpMutation, MpNode, Op, Replica,
};
use crate::protocol::value::Value;
use crate::protocol::{Kind, Mutation, NodeState};
use crate::scenario::names::GREEK;
use crate::sim::dist::Latency;
use crate::sim::fault::Fault;
use crate::sim::network::NetworkConfig;
use crate::sim::rng::{Rng, Stream};
use crate::sim::{SimDuration, SimTime};
use serde::Serialize;
use std::sync::Arc;

/// At most this many replicas (and clients).
pub const MAX_REPLICAS: usize = 9;
pub const MAX_CLIENTS: usize = 4;

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub struct MultiSpec {
    /// A replica runs for election after this long without a leader.
    #[serde(default = "default_election")]
    pub election_timeout_us: u64,
    #[serde(default = "default_heartbeat")]
    pub heartbeat_us: u64,
    /// Slots in flight at most (α).
    #[serde(default = "default_window")]
    pub window: u32,
    /// The master lease T; none (absent) for no lease.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lease_us: Option<u64>,
    /// The clock-rate error ρ the master assumes, in ppm.
    #[serde(default = "default_rho")]
    pub rho_ppm: u64,
    /// A safety margin off the master's budget (default T/20).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin_us: Option<u64>,
    #[serde(default = "default_retry")]
    pub client_retry_us: u64,
    /// What each client does.
    #[serde(default)]
    pub clients: Vec<ClientScript>,
    /// A Chubby cell: client sessions kept alive, and sequencers checked by
    /// a file server (the node with the `storage` role, if any).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cell: Option<CellSpec>,
}

/// A Chubby cell's session settings (Chubby's defaults are a 12 s lease and
/// a 45 s grace period; the demos shrink them with the master lease).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub struct CellSpec {
    #[serde(default = "default_session_lease")]
    pub session_lease_us: u64,
    #[serde(default = "default_grace")]
    pub grace_us: u64,
    #[serde(default = "default_keepalive")]
    pub keepalive_us: u64,
}

impl Default for CellSpec {
    fn default() -> Self {
        CellSpec {
            session_lease_us: default_session_lease(),
            grace_us: default_grace(),
            keepalive_us: default_keepalive(),
        }
    }
}

pub(super) fn default_session_lease() -> u64 {
    1_000_000
}
pub(super) fn default_grace() -> u64 {
    3_000_000
}
pub(super) fn default_keepalive() -> u64 {
    300_000
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub struct ClientScript {
    pub node: String,
    pub ops: Vec<ScriptOp>,
}

/// One operation of a client's script: `{"at_us": 0, "op": "put", "key": "x", "value": "1"}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub struct ScriptOp {
    /// Not before this instant (the client's clock).
    #[serde(default)]
    pub at_us: u64,
    pub op: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// The lock of `acquire`, `release` and `write` (0 … 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock: Option<u8>,
}

pub(super) fn default_election() -> u64 {
    400_000
}
pub(super) fn default_heartbeat() -> u64 {
    100_000
}
pub(super) fn default_window() -> u32 {
    3
}
pub(super) fn default_rho() -> u64 {
    10_000
}
pub(super) fn default_retry() -> u64 {
    500_000
}

impl Default for MultiSpec {
    fn default() -> Self {
        MultiSpec {
            election_timeout_us: default_election(),
            heartbeat_us: default_heartbeat(),
            window: default_window(),
            lease_us: Some(1_000_000),
            rho_ppm: default_rho(),
            margin_us: None,
            client_retry_us: default_retry(),
            clients: Vec::new(),
            cell: None,
        }
    }
}

impl ScriptOp {
    fn new(at_ms: u64, op: &str) -> Self {
        ScriptOp {
            at_us: at_ms * 1_000,
            op: op.into(),
            key: None,
            value: None,
            lock: None,
        }
    }
    pub fn put(at_ms: u64, key: &str, value: &str) -> Self {
        ScriptOp {
            key: Some(key.into()),
            value: Some(value.into()),
            ..Self::new(at_ms, "put")
        }
    }
    pub fn get(at_ms: u64, key: &str) -> Self {
        ScriptOp {
            key: Some(key.into()),
            ..Self::new(at_ms, "get")
        }
    }
    pub fn open(at_ms: u64) -> Self {
        Self::new(at_ms, "open")
    }
    pub fn acquire(at_ms: u64, lock: u8) -> Self {
        ScriptOp {
            lock: Some(lock),
            ..Self::new(at_ms, "acquire")
        }
    }
    pub fn write(at_ms: u64, lock: u8, value: &str) -> Self {
        ScriptOp {
            lock: Some(lock),
            value: Some(value.into()),
            ..Self::new(at_ms, "write")
        }
    }

    /// The action, checked; the session and lock operations only in a cell.
    fn to_action(&self, field: &str, cell: bool) -> Result<Action, ScenarioError> {
        let lock = || match self.lock {
            Some(l) if l < 4 => Ok(l),
            Some(l) => Err(ScenarioError::setting(
                format!("{field}.lock"),
                format!("{l} is not a lock; use 0 to 3"),
            )),
            None => Err(ScenarioError::setting(
                format!("{field}.lock"),
                format!("{:?} needs a lock (0 to 3)", self.op),
            )),
        };
        let value = || {
            let v = self.value.as_deref().unwrap_or("");
            Value::new(v)
                .map_err(|e| ScenarioError::setting(format!("{field}.value"), e.to_string()))
        };
        if matches!(self.op.as_str(), "open" | "acquire" | "release" | "write") && !cell {
            return Err(ScenarioError::setting(
                format!("{field}.op"),
                format!(
                    "{:?} needs a Chubby cell: add \"cell\": {{}} to the multipaxos section",
                    self.op
                ),
            ));
        }
        Ok(match self.op.as_str() {
            "open" => Action::Cell(Op::OpenSession),
            "acquire" => Action::Cell(Op::Acquire { lock: lock()? }),
            "release" => Action::Cell(Op::Release { lock: lock()? }),
            "write" => Action::Write {
                lock: lock()?,
                value: value()?,
            },
            _ => Action::Cell(self.to_op(field)?),
        })
    }

    fn to_op(&self, field: &str) -> Result<Op, ScenarioError> {
        let key = || {
            let k = self.key.as_deref().unwrap_or("");
            read_key(&format!("{field}.key"), k)
        };
        match self.op.as_str() {
            "put" => {
                let v = self.value.as_deref().unwrap_or("");
                let value = write_value(&format!("{field}.value"), v)?;
                Ok(Op::Put { key: key()?, value })
            }
            "get" => Ok(Op::Get { key: key()? }),
            other => Err(ScenarioError::setting(
                format!("{field}.op"),
                format!(
                    "{other:?} is not an operation; use put, get, open, acquire, release or write"
                ),
            )),
        }
    }
}

/// Build the nodes and monitors of a Multi-Paxos scenario.
pub fn build(
    s: &Scenario,
    names: &Arc<Vec<String>>,
) -> Result<(Vec<NodeState>, Monitors), ScenarioError> {
    let spec = s
        .multipaxos
        .as_ref()
        .ok_or(ScenarioError::MissingSection("multipaxos", "multipaxos"))?;
    let mutation = match s.mutation {
        Some(Mutation::Multipaxos(m)) => Some(m),
        _ => None,
    };
    for node in &s.nodes {
        if node.roles.len() != 1
            || !matches!(node.roles[0], Role::Replica | Role::Client | Role::Storage)
        {
            return Err(ScenarioError::setting(
                format!("nodes.{}.roles", node.id),
                "each Multi-Paxos node plays exactly one of: replica, client, storage (a Chubby cell's file server)",
            ));
        }
    }
    let file_servers = s.nodes_with(Role::Storage);
    if file_servers.len() > 1 || (!file_servers.is_empty() && spec.cell.is_none()) {
        return Err(ScenarioError::setting(
            "nodes",
            "at most one storage node (a file server), and only in a Chubby cell",
        ));
    }
    let replicas = s.nodes_with(Role::Replica);
    if replicas.is_empty() || replicas.len() > MAX_REPLICAS {
        return Err(ScenarioError::setting(
            "nodes",
            format!("{} replicas; use 1 to {MAX_REPLICAS}", replicas.len()),
        ));
    }
    if s.nodes_with(Role::Client).len() > MAX_CLIENTS {
        return Err(ScenarioError::setting(
            "nodes",
            format!("at most {MAX_CLIENTS} clients"),
        ));
    }
    let ms = |field: &str, us: u64, lo: u64, hi: u64| {
        if (lo..=hi).contains(&us) {
            Ok(SimDuration(us))
        } else {
            Err(ScenarioError::setting(
                format!("multipaxos.{field}"),
                format!("{us} µs is outside {lo} µs … {hi} µs"),
            ))
        }
    };
    let election = ms(
        "election_timeout_us",
        spec.election_timeout_us,
        1_000,
        60_000_000,
    )?;
    let heartbeat = ms("heartbeat_us", spec.heartbeat_us, 1_000, 60_000_000)?;
    let retry = ms("client_retry_us", spec.client_retry_us, 1_000, 60_000_000)?;
    if spec.window == 0 || spec.window > 64 {
        return Err(ScenarioError::setting(
            "multipaxos.window",
            "the window holds 1 to 64 slots",
        ));
    }
    if spec.rho_ppm >= 500_000 {
        return Err(ScenarioError::setting(
            "multipaxos.rho_ppm",
            "the drift bound must be below 500,000 ppm",
        ));
    }
    let lease = match spec.lease_us {
        None => None,
        Some(t) => {
            let t = ms("lease_us", t, 1_000, 600_000_000)?;
            let margin = spec.margin_us.unwrap_or(t.0 / 20);
            let budget = crate::protocol::lease::LeaseShared::budget_for(t.0, spec.rho_ppm, margin);
            Some((t, budget))
        }
    };
    let cell = match &spec.cell {
        None => None,
        Some(c) => {
            let lease = ms(
                "cell.session_lease_us",
                c.session_lease_us,
                1_000,
                600_000_000,
            )?;
            let margin = lease.0 / 20;
            Some(CellConfig {
                session_lease: lease,
                session_budget: crate::protocol::lease::LeaseShared::budget_for(
                    lease.0,
                    spec.rho_ppm,
                    margin,
                ),
                grace: ms("cell.grace_us", c.grace_us, 0, 600_000_000)?,
                keepalive_every: ms("cell.keepalive_us", c.keepalive_us, 1_000, 600_000_000)?,
                file_server: file_servers.first().copied(),
            })
        }
    };
    let group = Arc::new(Group {
        quorum: Group::majority(replicas.len()),
        replicas: replicas.clone(),
        election_timeout: election,
        heartbeat_every: heartbeat,
        window: spec.window,
        lease,
        client_retry: retry,
        mutation,
        cell,
        lease_store: None,
    });
    let mut scripts: Vec<Option<Arc<[(SimTime, Action)]>>> = vec![None; s.nodes.len()];
    for (i, c) in spec.clients.iter().enumerate() {
        let id = s.resolve(&c.node, "multipaxos.clients")?;
        if !s.nodes[id.index()].roles.contains(&Role::Client) {
            return Err(ScenarioError::setting(
                "multipaxos.clients",
                format!("{} is not a client", c.node),
            ));
        }
        let mut ops = Vec::new();
        for (j, op) in c.ops.iter().enumerate() {
            ops.push((
                SimTime(op.at_us),
                op.to_action(
                    &format!("multipaxos.clients[{i}].ops[{j}]"),
                    spec.cell.is_some(),
                )?,
            ));
        }
        scripts[id.index()] = Some(ops.into());
    }
    let mut nth = 0;
    let nodes = s
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| {
            NodeState::Multipaxos(match n.roles[0] {
                Role::Replica => {
                    nth += 1;
                    MpNode::Replica(Replica::new(group.clone(), nth - 1))
                }
                Role::Storage => MpNode::FileServer(FileServer::new(Client::new(
                    group.clone(),
                    Vec::new().into(),
                ))),
                _ => MpNode::Client(Client::new(
                    group.clone(),
                    scripts[i].clone().unwrap_or_else(|| Vec::new().into()),
                )),
            })
        })
        .collect();
    Ok((
        nodes,
        Monitors::for_multipaxos(MultiMonitor::new(names.clone(), replicas.len())),
    ))
}

pub const BUILTIN_NAMES: [&str; 7] = [
    "multi-calm",
    "multi-leader-crash",
    "multi-catch-up",
    "two-masters",
    "master-lease",
    "chubby-failover",
    "chubby-sequencer",
];

fn f(at_ms: u64, fault: impl Into<Step<String>>) -> Scheduled<String> {
    Scheduled {
        at_us: at_ms * 1_000,
        fault: fault.into(),
    }
}

fn partition(a: &[&str], b: &[&str]) -> Fault<String> {
    Fault::Partition {
        groups: vec![
            a.iter().map(|s| s.to_string()).collect(),
            b.iter().map(|s| s.to_string()).collect(),
        ],
        oneway: false,
    }
}

/// `replicas` Greek-named replicas and clients C1…, with a constant latency
/// (so that the story is the same for every seed).
pub fn group(name: &str, replicas: usize, clients: usize, spec: MultiSpec) -> Scenario {
    let mut nodes: Vec<NodeSpec> = (0..replicas)
        .map(|i| NodeSpec {
            id: GREEK[i].to_string(),
            roles: vec![Role::Replica],
        })
        .collect();
    nodes.extend((0..clients).map(|i| NodeSpec {
        id: format!("C{}", i + 1),
        roles: vec![Role::Client],
    }));
    Scenario {
        name: name.to_string(),
        protocol: Kind::Multipaxos,
        seed: 42,
        nodes,
        network: NetworkConfig {
            latency: Latency::Constant { us: 10_000 },
            ..NetworkConfig::default()
        },
        clocks: Vec::new(),
        faults: Vec::new(),
        paxos: None,
        lease: None,
        multipaxos: Some(spec),
        commit: None,
        mutation: None,
        stop_at_us: 3_000_000,
    }
}

pub fn builtin(name: &str) -> Option<Scenario> {
    let script = |node: &str, ops: Vec<ScriptOp>| ClientScript {
        node: node.into(),
        ops,
    };
    Some(match name {
        // Α is elected once, then runs phase 2 only, three slots in flight.
        "multi-calm" => {
            let spec = MultiSpec {
                clients: vec![
                    script(
                        "C1",
                        vec![
                            ScriptOp::put(100, "x", "1"),
                            ScriptOp::put(0, "y", "2"),
                            ScriptOp::get(0, "x"),
                        ],
                    ),
                    script(
                        "C2",
                        vec![
                            ScriptOp::put(105, "z", "3"),
                            ScriptOp::put(0, "x", "4"),
                            ScriptOp::get(0, "z"),
                        ],
                    ),
                ],
                ..MultiSpec::default()
            };
            let mut s = group(name, 3, 2, spec);
            // Room after the last answer for a crash or a write of one's own.
            s.stop_at_us = 3_000_000;
            s
        }
        // Α has three slots in flight when it crashes: its 2a for the middle
        // one reached nobody (a one-way cut at that instant). Β takes over:
        // phase 1 once, the outer slots recovered (B3), the middle one a no-op.
        "multi-leader-crash" => {
            let spec = MultiSpec {
                clients: vec![
                    script("C1", vec![ScriptOp::put(200, "x", "1")]),
                    script("C2", vec![ScriptOp::put(201, "y", "2")]),
                    script("C3", vec![ScriptOp::put(202, "z", "3")]),
                ],
                ..MultiSpec::default()
            };
            let mut s = group(name, 5, 3, spec);
            s.faults = vec![
                // Α's accept for the second command leaves at 211 ms.
                Scheduled {
                    at_us: 210_500,
                    fault: Fault::Partition {
                        groups: vec![
                            vec!["Α".into()],
                            vec!["Β".into(), "Γ".into(), "Δ".into(), "Ε".into()],
                        ],
                        oneway: true,
                    }
                    .into(),
                },
                Scheduled {
                    at_us: 211_500,
                    fault: Fault::Heal.into(),
                },
                f(215, Fault::Crash { node: "Α".into() }),
            ];
            s.stop_at_us = 2_500_000;
            s
        }
        // Γ is cut off while Α and Β decide slots; healed, it asks for what it
        // missed and applies it in order.
        "multi-catch-up" => {
            let spec = MultiSpec {
                clients: vec![script(
                    "C1",
                    vec![
                        ScriptOp::put(150, "x", "1"),
                        ScriptOp::put(0, "y", "2"),
                        ScriptOp::put(0, "z", "3"),
                        ScriptOp::put(0, "x", "5"),
                        ScriptOp::get(0, "y"),
                    ],
                )],
                ..MultiSpec::default()
            };
            let mut s = group(name, 3, 1, spec);
            s.faults = vec![
                f(120, partition(&["Γ"], &["Α", "Β", "C1"])),
                f(700, Fault::Heal),
            ];
            s.stop_at_us = 1_500_000;
            s
        }
        // No lease: Α, cut off with C1, still believes it leads and answers
        // C1's read from its own copy — after C2 wrote x = 2 through the new
        // leader Β. A stale read.
        "two-masters" | "master-lease" => {
            let spec = MultiSpec {
                lease_us: if name == "master-lease" {
                    Some(1_000_000)
                } else {
                    None
                },
                clients: vec![
                    script(
                        "C1",
                        vec![ScriptOp::put(150, "x", "1"), ScriptOp::get(2_200, "x")],
                    ),
                    script("C2", vec![ScriptOp::put(1_300, "x", "2")]),
                ],
                ..MultiSpec::default()
            };
            let mut s = group(name, 3, 2, spec);
            s.faults = vec![
                f(600, partition(&["Α", "C1"], &["Β", "Γ", "C2"])),
                f(3_500, Fault::Heal),
            ];
            s.stop_at_us = 4_500_000;
            s
        }
        // A Chubby cell of five. C1 holds lock 0 when the master Α crashes.
        // Its own estimate of the session lease runs out before a new master
        // can be elected (the replicas wait out Α's master lease first): the
        // session is in jeopardy. Within the grace period a KeepAlive reaches
        // the new master, which assumed the longest lease Α could have
        // granted: the session — and the lock — survive, and C1's next write
        // passes the file server's check with the same sequencer.
        "chubby-failover" => {
            let spec = MultiSpec {
                cell: Some(CellSpec::default()),
                clients: vec![script(
                    "C1",
                    vec![
                        ScriptOp::open(100),
                        ScriptOp::acquire(0, 0),
                        ScriptOp::write(0, 0, "a"),
                        ScriptOp::write(2_900, 0, "b"),
                    ],
                )],
                ..MultiSpec::default()
            };
            let mut s = cell(name, 5, 1, spec);
            s.faults = vec![f(800, Fault::Crash { node: "Α".into() })];
            s.stop_at_us = 4_000_000;
            s
        }
        // C1 holds lock 0 (generation 1) and has written under it. It is
        // paused for 3 s — a GC pause, a long call — just before its next
        // write. The master hears no KeepAlive, ends C1's session through
        // the log, and C2 gets the lock with generation 2. C1 wakes up still
        // believing it holds the lock and writes with generation 1. The file
        // server has seen no higher generation yet, so comparing alone would
        // let it in; it asks the cell, which says generation 1 is no longer
        // current: refused. C2's write with generation 2 then passes.
        "chubby-sequencer" => {
            let spec = MultiSpec {
                cell: Some(CellSpec::default()),
                clients: vec![
                    script(
                        "C1",
                        vec![
                            ScriptOp::open(100),
                            ScriptOp::acquire(0, 0),
                            ScriptOp::write(0, 0, "a"),
                            ScriptOp::write(1_000, 0, "b"),
                        ],
                    ),
                    script(
                        "C2",
                        vec![
                            ScriptOp::open(150),
                            ScriptOp::acquire(600, 0),
                            ScriptOp::acquire(2_500, 0),
                            ScriptOp::write(4_500, 0, "c"),
                        ],
                    ),
                ],
                ..MultiSpec::default()
            };
            let mut s = cell(name, 3, 2, spec);
            s.faults = vec![f(
                900,
                Fault::Pause {
                    node: "C1".into(),
                    for_us: 3_000_000,
                },
            )];
            s.stop_at_us = 5_500_000;
            s
        }
        _ => return None,
    })
}

/// A Chubby cell: `group` plus a file server F (the `storage` role).
fn cell(name: &str, replicas: usize, clients: usize, spec: MultiSpec) -> Scenario {
    let mut s = group(name, replicas, clients, spec);
    s.nodes.push(NodeSpec {
        id: "F".into(),
        roles: vec![Role::Storage],
    });
    s
}

/// A random faulty Multi-Paxos run, for the random search.
pub fn random_multipaxos(seed: u64, faults: FaultSet, mutation: Option<Mutation>) -> Scenario {
    let mut r = Rng::new(seed, Stream::Schedule);
    let n = *r.pick(&[3usize, 3, 5]).unwrap_or(&3);
    let clients = r.range_inclusive(1, 3) as usize;
    // Always with the lease: without it, a master that does not know it was
    // replaced answers stale reads by design (the `two-masters` demo).
    let _ = MpMutation::NoLeaseWait;
    let mut spec = MultiSpec {
        election_timeout_us: r.range_inclusive(150, 600) * 1_000,
        heartbeat_us: r.range_inclusive(30, 120) * 1_000,
        window: r.range_inclusive(1, 4) as u32,
        lease_us: Some(r.range_inclusive(300, 1_500) * 1_000),
        ..MultiSpec::default()
    };
    let keys = ["x", "y"];
    for c in 0..clients {
        let mut ops = Vec::new();
        let mut at = r.below(400);
        for k in 0..r.range_inclusive(2, 6) {
            let key = keys[r.below(2) as usize];
            at += r.below(600);
            ops.push(if r.chance(0.5) {
                ScriptOp::put(at, key, &format!("{}{}", c + 1, k))
            } else {
                ScriptOp::get(at, key)
            });
        }
        spec.clients.push(ClientScript {
            node: format!("C{}", c + 1),
            ops,
        });
    }
    let mut s = group("random", n, clients, spec);
    s.seed = seed;
    s.mutation = mutation;
    s.network.latency = Latency::Uniform {
        min_us: 1_000,
        max_us: r.range_inclusive(5, 60) * 1_000,
    };
    if faults.loss {
        s.network.loss = r.below(15) as f64 / 100.0;
    }
    if faults.duplicate {
        s.network.duplicate = r.below(15) as f64 / 100.0;
    }
    let name = |r: &mut Rng| GREEK[r.below(n as u64) as usize].to_string();
    for _ in 0..r.below(6) {
        let at = r.below(3_000);
        match r.below(4) {
            0 if faults.crash => {
                let node = name(&mut r);
                s.faults.push(f(at, Fault::Crash { node: node.clone() }));
                s.faults.push(f(
                    at + r.range_inclusive(50, 1_500),
                    Fault::Restart { node },
                ));
            }
            1 if faults.pause => s.faults.push(f(
                at,
                Fault::Pause {
                    node: name(&mut r),
                    for_us: r.range_inclusive(100, 2_000) * 1_000,
                },
            )),
            2 if faults.partition => {
                let cut = name(&mut r);
                let mut rest: Vec<String> = s
                    .nodes
                    .iter()
                    .map(|x| x.id.clone())
                    .filter(|x| *x != cut)
                    .collect();
                let mut side = vec![cut];
                // Take a client along sometimes: a client that can only reach the old leader.
                if let Some(i) = rest
                    .iter()
                    .position(|x| x.starts_with('C'))
                    .filter(|_| r.chance(0.5))
                {
                    side.push(rest.remove(i));
                }
                s.faults.push(f(
                    at,
                    Fault::Partition {
                        groups: vec![side, rest],
                        oneway: false,
                    },
                ));
                s.faults
                    .push(f(at + r.range_inclusive(100, 2_500), Fault::Heal));
            }
            3 if faults.drift => s.faults.push(f(
                at,
                Fault::SetDrift {
                    node: name(&mut r),
                    ppm: r.range_inclusive(0, 200_000) as i64 - 100_000,
                },
            )),
            _ => {}
        }
    }
    crate::sorted::sort_by_key(&mut s.faults, |x| (x.at_us, 0));
    s.stop_at_us = 6_000_000;
    s
}

/// One of the table's keys, else what the keys are.
pub fn read_key(field: &str, k: &str) -> Result<u8, ScenarioError> {
    key_index(k).ok_or_else(|| {
        ScenarioError::setting(field, format!("{k:?} is not a key; use x, y, z or w"))
    })
}

/// A value a client writes: the same bounds as a decree, in its own words.
pub fn write_value(field: &str, v: &str) -> Result<Value, ScenarioError> {
    use crate::protocol::value::{BadValue, MAX_VALUE_BYTES};
    Value::new(v).map_err(|e| {
        ScenarioError::setting(
            field,
            match e {
                BadValue::Empty => "a value to write cannot be empty".to_string(),
                BadValue::TooLong { bytes } => format!(
                    "a value to write may have at most {MAX_VALUE_BYTES} bytes (about 8 Japanese or 24 Latin characters); this one has {bytes}"
                ),
                BadValue::Control => "a value to write cannot contain control characters".to_string(),
            },
        )
    })
}
