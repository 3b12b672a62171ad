//! Transaction-commit scenarios: settings, validation, the built-in runs,
//! the other protocol's twin, and random schedules for `check --protocol commit`.
//!
//! Who plays what is data, as in the parliament: a node with the `tm` role
//! is the 2PC transaction manager (or Paxos Commit's first leader); `rm`
//! nodes are the resource managers, in order; `acceptor` nodes are Paxos
//! Commit's 2F+1 acceptors; `coordinator` nodes are its backup leaders. The
//! **placement** follows: the TM is *co-located* when its node is also an
//! RM (the paper's 3N−3 / N(F+3)−3 / (N−1)(2F+3) count), *separate* otherwise (3N−1).

use super::{NodeSpec, Role, Scenario, ScenarioError, Scheduled};
use crate::check::search::FaultSet;
use crate::check::{CommitMonitor, Monitors};
use crate::protocol::commit::{
    Acceptor, Algorithm, CommitNode, Coordinator, Rm, RmVote, Tm, Transaction, MAX_ACCEPTORS,
    MAX_RMS,
};
use crate::protocol::{Kind, Mutation, NodeState};
use crate::sim::dist::Latency;
use crate::sim::fault::Fault;
use crate::sim::network::NetworkConfig;
use crate::sim::rng::{Rng, Stream};
use crate::sim::{NodeId, SimDuration};
use serde::Serialize;
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub struct CommitSpec {
    pub algorithm: Algorithm,
    /// Faster Paxos Commit: the acceptors send their 2b to the RMs too.
    #[serde(default, skip_serializing_if = "is_false")]
    pub faster: bool,
    /// The RM that asks to commit (default: the first RM).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initiator: Option<String>,
    /// When it asks.
    #[serde(default)]
    pub start_us: u64,
    /// RMs that vote "aborted" when asked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aborts: Vec<String>,
    /// How long the TM waits for votes, and a coordinator for the outcome.
    #[serde(default = "default_timeout")]
    pub timeout_us: u64,
    /// Every RM may give up on its own while still working, when its
    /// `unilateral_abort` timer fires (set at `start_us`): the model
    /// checker's RMChooseToAbort, for scripted runs.
    #[serde(default, skip_serializing_if = "is_false")]
    pub unilateral_abort: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}
pub(super) fn default_timeout() -> u64 {
    500_000
}

/// Where the TM (the first leader) sits.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Placement {
    /// On its own node.
    Separate,
    /// On the initiating RM's node.
    Colocated,
}

impl Placement {
    pub fn as_str(self) -> &'static str {
        match self {
            Placement::Separate => "separate",
            Placement::Colocated => "co-located",
        }
    }
}

/// The shape of a transaction: what `transaction` builds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    pub algorithm: Algorithm,
    pub faster: bool,
    /// N resource managers.
    pub rms: usize,
    /// F (Paxos Commit: 2F+1 acceptors).
    pub f: usize,
    pub placement: Placement,
}

impl Shape {
    pub fn of(s: &Scenario) -> Option<Shape> {
        let spec = s.commit.as_ref()?;
        let tm = *s.nodes_with(Role::Tm).first()?;
        let acceptors = s.nodes_with(Role::Acceptor).len();
        Some(Shape {
            algorithm: spec.algorithm,
            faster: spec.faster,
            rms: s.nodes_with(Role::Rm).len(),
            f: acceptors.saturating_sub(1) / 2,
            placement: if s.nodes[tm.index()].roles.contains(&Role::Rm) {
                Placement::Colocated
            } else {
                Placement::Separate
            },
        })
    }
}

/// A transaction of `shape`, calm: RM1…RMN, the TM on RM1's node (or on a
/// node "TM" of its own), the acceptors on RM1…RM(2F+1) (then on nodes
/// "A…" if there are too few RMs), and a backup coordinator on RM2.
pub fn transaction(name: &str, shape: Shape) -> Scenario {
    let mut nodes: Vec<NodeSpec> = Vec::new();
    if shape.placement == Placement::Separate {
        nodes.push(NodeSpec {
            id: "TM".into(),
            roles: vec![Role::Tm],
        });
    }
    for i in 0..shape.rms {
        let mut roles = vec![Role::Rm];
        if i == 0 && shape.placement == Placement::Colocated {
            roles.insert(0, Role::Tm);
        }
        nodes.push(NodeSpec {
            id: format!("RM{}", i + 1),
            roles,
        });
    }
    if shape.algorithm == Algorithm::PaxosCommit {
        let acceptors = 2 * shape.f + 1;
        let first_rm = nodes.len() - shape.rms;
        for k in 0..acceptors {
            match nodes.get_mut(first_rm + k) {
                Some(n) => n.roles.push(Role::Acceptor),
                None => nodes.push(NodeSpec {
                    id: format!("A{}", k + 1),
                    roles: vec![Role::Acceptor],
                }),
            }
        }
        if shape.f >= 1 && shape.rms >= 2 {
            nodes[first_rm + 1].roles.push(Role::Coordinator);
        }
    }
    Scenario {
        name: name.to_string(),
        protocol: Kind::Commit,
        seed: 42,
        nodes,
        network: NetworkConfig {
            // Every Prepare is in by 120 ms, no vote is back before 160 ms:
            // a crash at 140 ms finds every RM prepared and no vote counted.
            latency: Latency::Uniform {
                min_us: 80_000,
                max_us: 120_000,
            },
            ..NetworkConfig::default()
        },
        clocks: Vec::new(),
        faults: Vec::new(),
        paxos: None,
        lease: None,
        multipaxos: None,
        commit: Some(CommitSpec {
            algorithm: shape.algorithm,
            faster: shape.faster,
            initiator: None,
            start_us: 0,
            aborts: Vec::new(),
            timeout_us: default_timeout(),
            unilateral_abort: false,
        }),
        mutation: None,
        stop_at_us: 2_000_000,
    }
}

pub const BUILTIN_NAMES: [&str; 5] = [
    "commit-2pc",
    "commit-2pc-tm-crash",
    "commit-paxos",
    "commit-paxos-tm-crash",
    "commit-paxos-f0",
];

fn at(ms: u64, f: Fault<String>) -> Scheduled<String> {
    Scheduled {
        at_us: ms * 1_000,
        fault: f.into(),
    }
}

const TWO_PC: Shape = Shape {
    algorithm: Algorithm::TwoPhaseCommit,
    faster: false,
    rms: 5,
    f: 0,
    placement: Placement::Colocated,
};
const PAXOS: Shape = Shape {
    algorithm: Algorithm::PaxosCommit,
    faster: false,
    rms: 5,
    f: 1,
    placement: Placement::Colocated,
};

/// The TM's node fails after every RM has prepared and before any vote is
/// back, and returns at 3 s.
fn tm_crash(mut s: Scenario) -> Scenario {
    s.faults = vec![
        at(140, Fault::Crash { node: "RM1".into() }),
        at(3_000, Fault::Restart { node: "RM1".into() }),
    ];
    s.stop_at_us = 5_000_000;
    s
}

pub fn builtin(name: &str) -> Option<Scenario> {
    Some(match name {
        // Five RMs, the TM on RM1's node: 3N−3 = 12 messages.
        "commit-2pc" => transaction(name, TWO_PC),
        // The TM's node crashes after the RMs have prepared: they block until it returns.
        "commit-2pc-tm-crash" => tm_crash(transaction(name, TWO_PC)),
        // Five RMs, F = 1: three acceptors, N(F+3)−3 = 17 messages.
        "commit-paxos" => transaction(name, PAXOS),
        // The leader's node crashes at the same moment: RM2's coordinator finishes.
        "commit-paxos-tm-crash" => tm_crash(transaction(name, PAXOS)),
        // F = 0: one acceptor, on the TM's node — two-phase commit again.
        "commit-paxos-f0" => transaction(name, Shape { f: 0, ..PAXOS }),
        _ => return None,
    })
}

/// The same transaction and faults under the other protocol: Paxos Commit
/// (F = 1, or 0 with fewer than 3 RMs) for 2PC, and 2PC for Paxos Commit.
/// A built-in's twin is named as the built-in it equals.
pub fn twin(s: &Scenario) -> Option<Scenario> {
    let shape = Shape::of(s)?;
    let other = match shape.algorithm {
        Algorithm::TwoPhaseCommit => Shape {
            algorithm: Algorithm::PaxosCommit,
            f: if shape.rms >= 3 { 1 } else { 0 },
            ..shape
        },
        Algorithm::PaxosCommit => Shape {
            algorithm: Algorithm::TwoPhaseCommit,
            f: 0,
            faster: false,
            ..shape
        },
    };
    let mut t = transaction(
        &format!("{} ({})", s.name, algorithm_name(other.algorithm)),
        other,
    );
    let spec = s.commit.clone()?;
    t.commit = Some(CommitSpec {
        algorithm: other.algorithm,
        faster: other.faster,
        ..spec
    });
    t.seed = s.seed;
    t.network = s.network.clone();
    t.clocks = s.clocks.clone();
    t.faults = s.faults.clone();
    t.stop_at_us = s.stop_at_us;
    t.mutation = s.mutation.filter(|m| m.protocol() == Kind::Commit);
    for b in BUILTIN_NAMES {
        let mut named = t.clone();
        named.name = b.to_string();
        if builtin(b).as_ref() == Some(&named) {
            return Some(named);
        }
    }
    Some(t)
}

pub fn algorithm_name(a: Algorithm) -> &'static str {
    match a {
        Algorithm::TwoPhaseCommit => "2PC",
        Algorithm::PaxosCommit => "Paxos Commit",
    }
}

/// Validate a commit scenario and build its nodes and monitors.
pub fn build(
    s: &Scenario,
    names: &Arc<Vec<String>>,
) -> Result<(Vec<NodeState>, Monitors), ScenarioError> {
    let spec = s
        .commit
        .as_ref()
        .ok_or(ScenarioError::MissingSection("commit", "commit"))?;
    let mutation = match s.mutation {
        Some(Mutation::Commit(m)) => Some(m),
        _ => None,
    };
    for node in &s.nodes {
        if let Some(r) = node
            .roles
            .iter()
            .find(|r| !matches!(r, Role::Tm | Role::Rm | Role::Acceptor | Role::Coordinator))
        {
            return Err(ScenarioError::setting(
                format!("nodes.{}.roles", node.id),
                format!(
                    "{} is not a commit role (tm, rm, acceptor, coordinator)",
                    r.file_name()
                ),
            ));
        }
    }
    let tm = match s.nodes_with(Role::Tm).as_slice() {
        [tm] => *tm,
        list => {
            return Err(ScenarioError::setting(
                "nodes",
                format!(
                    "a commit scenario needs exactly one tm; found {}",
                    list.len()
                ),
            ))
        }
    };
    let rms = s.nodes_with(Role::Rm);
    if rms.is_empty() || rms.len() > MAX_RMS {
        return Err(ScenarioError::setting(
            "nodes",
            format!("{} resource managers; use 1 to {MAX_RMS}", rms.len()),
        ));
    }
    let acceptors = s.nodes_with(Role::Acceptor);
    match spec.algorithm {
        Algorithm::TwoPhaseCommit => {
            if !acceptors.is_empty() || !s.nodes_with(Role::Coordinator).is_empty() || spec.faster {
                return Err(ScenarioError::setting(
                    "commit.algorithm",
                    "two-phase commit has no acceptors, backup coordinators or faster variant; those are Paxos Commit's",
                ));
            }
        }
        Algorithm::PaxosCommit => {
            if acceptors.len() % 2 == 0 || acceptors.len() > MAX_ACCEPTORS {
                return Err(ScenarioError::setting(
                    "nodes",
                    format!(
                        "{} acceptors; Paxos Commit needs 2F+1 of them: 1, 3, 5 or 7",
                        acceptors.len()
                    ),
                ));
            }
        }
    }
    if spec.timeout_us == 0 || spec.timeout_us > 600_000_000 {
        return Err(ScenarioError::setting(
            "commit.timeout_us",
            "the timeout must be between 1 µs and 10 minutes",
        ));
    }
    let initiator = match &spec.initiator {
        Some(n) => s.resolve(n, "commit.initiator")?,
        None => rms[0],
    };
    if !rms.contains(&initiator) {
        return Err(ScenarioError::setting(
            "commit.initiator",
            format!(
                "{} is not a resource manager",
                s.nodes[initiator.index()].id
            ),
        ));
    }
    let mut aborts = Vec::new();
    for a in &spec.aborts {
        let id = s.resolve(a, "commit.aborts")?;
        if !rms.contains(&id) {
            return Err(ScenarioError::setting(
                "commit.aborts",
                format!("{a} is not a resource manager"),
            ));
        }
        aborts.push(id);
    }
    let tx = Arc::new(Transaction {
        algorithm: spec.algorithm,
        faster: spec.faster,
        rms: rms.clone(),
        tm,
        acceptors: acceptors.clone(),
        timeout: SimDuration(spec.timeout_us),
        mutation,
    });
    let paxos = spec.algorithm == Algorithm::PaxosCommit;
    let mut rank = 0u8;
    let nodes = (0..s.nodes.len())
        .map(|i| {
            let id = NodeId(i as u8);
            let roles = &s.nodes[i].roles;
            let rm = roles.contains(&Role::Rm).then(|| {
                let will = if aborts.contains(&id) {
                    RmVote::Aborted
                } else {
                    RmVote::Prepared
                };
                Rm {
                    may_abort: spec.unilateral_abort,
                    ..Rm::new(will, id == initiator, SimDuration(spec.start_us))
                }
            });
            let coordinator = if paxos && id == tm {
                Some(Coordinator::new(0))
            } else if paxos && roles.contains(&Role::Coordinator) {
                rank += 1;
                Some(Coordinator::new(rank))
            } else {
                None
            };
            NodeState::Commit(CommitNode {
                tx: tx.clone(),
                rm,
                tm: (!paxos && id == tm).then(Tm::default),
                acceptor: (paxos && roles.contains(&Role::Acceptor)).then(Acceptor::default),
                coordinator,
            })
        })
        .collect();
    Ok((
        nodes,
        Monitors::for_commit(CommitMonitor::new(names.clone(), rms, acceptors.len())),
    ))
}

/// A random transaction with random faults (for `check --protocol commit`):
/// either protocol, 2 to 5 RMs, F from 0 to 2, either placement, some RMs
/// voting "aborted"; crashes and restarts, pauses, loss, duplication,
/// reordering and partitions.
pub fn random_commit(seed: u64, faults: FaultSet, mutation: Option<Mutation>) -> Scenario {
    let mut r = Rng::new(seed, Stream::Schedule);
    let rms = r.range_inclusive(2, 5) as usize;
    let algorithm = if r.chance(0.4) {
        Algorithm::TwoPhaseCommit
    } else {
        Algorithm::PaxosCommit
    };
    let f = match algorithm {
        Algorithm::TwoPhaseCommit => 0,
        Algorithm::PaxosCommit => r.below(3) as usize,
    };
    let placement = if r.chance(0.5) {
        Placement::Colocated
    } else {
        Placement::Separate
    };
    let faster = algorithm == Algorithm::PaxosCommit && r.chance(0.3);
    let mut s = transaction(
        "random-commit",
        Shape {
            algorithm,
            faster,
            rms,
            f,
            placement,
        },
    );
    s.seed = seed;
    s.mutation = mutation;
    let names = s.node_names();
    let rm_names: Vec<String> = s
        .nodes
        .iter()
        .filter(|n| n.roles.contains(&Role::Rm))
        .map(|n| n.id.clone())
        .collect();
    if let Some(spec) = s.commit.as_mut() {
        spec.timeout_us = r.range_inclusive(100, 800) * 1_000;
        spec.start_us = r.below(200) * 1_000;
        for n in &rm_names {
            if r.chance(0.15) {
                spec.aborts.push(n.clone());
            }
        }
    }
    s.network.latency = Latency::Exponential {
        mean_us: r.range_inclusive(5, 120) * 1_000,
        min_us: 1_000,
    };
    if faults.loss {
        s.network.loss = r.below(25) as f64 / 100.0;
    }
    if faults.duplicate {
        s.network.duplicate = r.below(25) as f64 / 100.0;
    }
    if faults.reorder {
        s.network.reorder = r.below(25) as f64 / 100.0;
    }
    let pick = |r: &mut Rng| names[r.below(names.len() as u64) as usize].clone();
    for _ in 0..r.below(6) {
        let t = r.below(2_000) * 1_000;
        match r.below(3) {
            0 if faults.crash => {
                let node = pick(&mut r);
                s.faults.push(Scheduled {
                    at_us: t,
                    fault: Fault::Crash { node: node.clone() }.into(),
                });
                if r.chance(0.7) {
                    s.faults.push(Scheduled {
                        at_us: t + r.range_inclusive(1, 3_000) * 1_000,
                        fault: Fault::Restart { node }.into(),
                    });
                }
            }
            1 if faults.pause => s.faults.push(Scheduled {
                at_us: t,
                fault: Fault::Pause {
                    node: pick(&mut r),
                    for_us: r.range_inclusive(10, 2_000) * 1_000,
                }
                .into(),
            }),
            2 if faults.partition => {
                let (mut a, mut b) = (Vec::new(), Vec::new());
                for n in &names {
                    if r.chance(0.5) {
                        a.push(n.clone())
                    } else {
                        b.push(n.clone())
                    }
                }
                if a.is_empty() || b.is_empty() {
                    continue;
                }
                s.faults.push(Scheduled {
                    at_us: t,
                    fault: Fault::Partition {
                        groups: vec![a, b],
                        oneway: r.chance(0.25),
                    }
                    .into(),
                });
                s.faults.push(Scheduled {
                    at_us: t + r.range_inclusive(50, 3_000) * 1_000,
                    fault: Fault::Heal.into(),
                });
            }
            _ => {}
        }
    }
    crate::sorted::sort_by_key(&mut s.faults, |f| (f.at_us, 0));
    s.stop_at_us = 10_000_000;
    s
}
