//! Lease-lab scenarios: settings, validation, the built-in demos and random
//! schedules for `check --protocol lease`.

use super::{NodeSpec, Role, Scenario, ScenarioError};
use super::{Scheduled, Step};
use crate::check::search::FaultSet;
use crate::check::MultiMonitor;
use crate::check::{LeaseMonitor, Monitors};
use crate::protocol::lease::LeaseCommand;
use crate::protocol::lease::{
    Advisor, Design, LeaseMutation, LeaseNode, LeaseShared, LeaseStore, Worker,
};
use crate::protocol::lease_row::StoreDuty;
use crate::protocol::llm::{Llm, LlmPreset};
use crate::protocol::multipaxos::{Group, MpNode, Replica};
use crate::protocol::storage::{Fencing, Storage};
use crate::protocol::Kind as Protocol;
use crate::protocol::Mutation;
use crate::protocol::NodeState;
use crate::sim::dist::Latency;
use crate::sim::fault::Fault;
use crate::sim::network::LinkSpec;
use crate::sim::network::NetworkConfig;
use crate::sim::rng::{mix, Rng, Stream};
use crate::sim::{NodeId, SimDuration};
use serde::Serialize;
use std::sync::Arc;

/// At most this many workers.
pub const MAX_WORKERS: usize = 5;

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub struct LeaseSpec {
    /// Lease time-to-live, granted by the store on its own clock.
    pub ttl_us: u64,
    /// How often a worker renews (default TTL/3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub renew_us: Option<u64>,
    /// Safety margin taken off the worker's budget (default TTL/20).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin_us: Option<u64>,
    /// The clock-rate error ρ the workers assume, in ppm.
    #[serde(default = "default_rho")]
    pub rho_ppm: u64,
    /// How `orders` fences writes: `article` (the live lease and the row's
    /// `fence_epoch`, the default), `token` (the row's `fence_epoch` alone —
    /// Kleppmann's monotonic token) or `off`. Older scenarios wrote a boolean:
    /// `true` reads as `token`, which is what it meant then.
    #[serde(default)]
    pub fencing: Fencing,
    /// Bump the epoch on every renewal too (not only on takeover).
    #[serde(default, skip_serializing_if = "is_false")]
    pub bump_epoch_on_renew: bool,
    /// The epoch the row starts from (the first holder gets one more).
    #[serde(default)]
    pub initial_epoch: u64,
    pub design: Design,
    #[serde(default)]
    pub llm: LlmPreset,
    /// How long a worker waits for the LLM before giving up.
    #[serde(default = "default_llm_timeout")]
    pub llm_timeout_us: u64,
    /// A holder takes an order this often.
    #[serde(default = "default_work_every")]
    pub work_every_us: u64,
    /// Time between checking the lease and sending the write.
    #[serde(default = "default_work_takes")]
    pub work_takes_us: u64,
    /// Rows in `orders`.
    #[serde(default = "default_keys")]
    pub keys: u16,
    /// Worker i starts i × this after the run begins.
    #[serde(default = "default_stagger")]
    pub stagger_us: u64,
    /// The store as a Multi-Paxos group: its timings. Used when the
    /// scenario has two or more `lease_store` nodes (defaults when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub store: Option<StoreGroupSpec>,
}

/// A replicated store's timings: the group elects a master, which holds a
/// master lease and alone answers the workers.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub struct StoreGroupSpec {
    /// The master's heartbeat (and master-lease round).
    #[serde(default = "default_store_heartbeat")]
    pub heartbeat_us: u64,
    /// A replica runs for master after this long without hearing one.
    #[serde(default = "default_store_election")]
    pub election_timeout_us: u64,
    /// The master lease T: replicas follow no other master for this long.
    #[serde(default = "default_master_lease")]
    pub master_lease_us: u64,
}

impl Default for StoreGroupSpec {
    fn default() -> Self {
        StoreGroupSpec {
            heartbeat_us: default_store_heartbeat(),
            election_timeout_us: default_store_election(),
            master_lease_us: default_master_lease(),
        }
    }
}

// A failover (the old master lease, then an election) must fit in the
// workers' slack — TTL minus the renew interval, 2 s by default — or their
// leases lapse while the store elects a master.
pub(super) fn default_store_heartbeat() -> u64 {
    50_000
}
pub(super) fn default_store_election() -> u64 {
    200_000
}
pub(super) fn default_master_lease() -> u64 {
    500_000
}

/// At most this many store replicas.
pub const MAX_STORE_REPLICAS: usize = 5;

pub(super) fn default_rho() -> u64 {
    1_000
}
fn is_false(b: &bool) -> bool {
    !*b
}
pub(super) fn default_llm_timeout() -> u64 {
    30_000_000
}
pub(super) fn default_work_every() -> u64 {
    500_000
}
pub(super) fn default_work_takes() -> u64 {
    100_000
}
pub(super) fn default_keys() -> u16 {
    3
}
pub(super) fn default_stagger() -> u64 {
    200_000
}

impl LeaseSpec {
    pub fn new(ttl_us: u64, design: Design, llm: LlmPreset) -> Self {
        LeaseSpec {
            ttl_us,
            renew_us: None,
            margin_us: None,
            rho_ppm: default_rho(),
            fencing: Fencing::Article,
            bump_epoch_on_renew: false,
            initial_epoch: 0,
            design,
            llm,
            llm_timeout_us: default_llm_timeout(),
            work_every_us: default_work_every(),
            work_takes_us: default_work_takes(),
            keys: default_keys(),
            stagger_us: default_stagger(),
            store: None,
        }
    }
    pub fn renew(&self) -> u64 {
        self.renew_us.unwrap_or(self.ttl_us / 3)
    }
    pub fn margin(&self) -> u64 {
        self.margin_us.unwrap_or(self.ttl_us / 20)
    }
    pub fn budget(&self) -> SimDuration {
        LeaseShared::budget_for(self.ttl_us, self.rho_ppm, self.margin())
    }

    /// Refuse impossible settings, saying which value and why.
    pub fn validate(&self, workers: usize, has_llm: bool) -> Result<(), ScenarioError> {
        let bad = |f: &str, r: String| Err(ScenarioError::setting(format!("lease.{f}"), r));
        if self.ttl_us == 0 {
            return bad(
                "ttl_us",
                "the TTL must be above 0: a lease that expires at once protects nothing".into(),
            );
        }
        if self.ttl_us > 600_000_000 {
            return bad("ttl_us", "the TTL may be at most 10 minutes here".into());
        }
        let renew = self.renew();
        if renew == 0 {
            return bad("renew_us", "the renew interval must be above 0".into());
        }
        if renew >= self.ttl_us {
            return bad(
                "renew_us",
                format!(
                    "renewing every {} with a TTL of {} lets the lease lapse between renewals; renew more often than the TTL",
                    crate::sim::time::human_us(renew),
                    crate::sim::time::human_us(self.ttl_us)
                ),
            );
        }
        if self.rho_ppm >= 500_000 {
            return bad(
                "rho_ppm",
                "a clock-rate error of 50 % or more leaves no budget".into(),
            );
        }
        if self.budget().0 == 0 {
            return bad(
                "margin_us",
                format!(
                    "the margin {} leaves the worker no time to hold the lease",
                    crate::sim::time::human_us(self.margin())
                ),
            );
        }
        if workers == 0 || workers > MAX_WORKERS {
            return bad(
                "workers",
                format!("{workers} workers; this lab supports 1 to {MAX_WORKERS}"),
            );
        }
        if self.keys == 0 || self.keys > 16 {
            return bad("keys", format!("{} rows; use 1 to 16", self.keys));
        }
        if self.work_every_us == 0 {
            return bad(
                "work_every_us",
                "a holder must take orders at some interval above 0".into(),
            );
        }
        if self.llm_timeout_us == 0 {
            return bad("llm_timeout_us", "the LLM time-out must be above 0".into());
        }
        if self.design != Design::NoLlm && !has_llm {
            return bad(
                "design",
                "this design uses an LLM, but the scenario has no llm node".into(),
            );
        }
        match self.llm {
            LlmPreset::Stall { for_us: 0 } => {
                bad("llm.for_us", "a stall must last longer than 0".into())
            }
            LlmPreset::RateLimit { retry_after_us: 0 } => {
                bad("llm.retry_after_us", "retry-after must be above 0".into())
            }
            _ => Ok(()),
        }
    }
}

/// Nodes of a lease scenario: W1…Wn, the store, `orders`, and the LLM.
pub fn lab_nodes(workers: usize) -> Vec<NodeSpec> {
    lab_nodes_with(workers, &store_names(1))
}

/// The store's node names: `store`, or S1…Sn for a replicated one.
pub fn store_names(replicas: usize) -> Vec<String> {
    if replicas <= 1 {
        vec!["store".into()]
    } else {
        (1..=replicas).map(|i| format!("S{i}")).collect()
    }
}

fn lab_nodes_with(workers: usize, stores: &[String]) -> Vec<NodeSpec> {
    let mut v: Vec<NodeSpec> = (1..=workers)
        .map(|i| NodeSpec {
            id: format!("W{i}"),
            roles: vec![Role::Worker],
        })
        .collect();
    v.extend(stores.iter().map(|id| NodeSpec {
        id: id.clone(),
        roles: vec![Role::LeaseStore],
    }));
    v.push(NodeSpec {
        id: "orders".into(),
        roles: vec![Role::Storage],
    });
    v.push(NodeSpec {
        id: "llm".into(),
        roles: vec![Role::Llm],
    });
    v.push(NodeSpec {
        id: "advisor".into(),
        roles: vec![Role::Advisor],
    });
    v
}

/// Keep the advisor only in the design that has one (the sound design).
pub fn trim_nodes(s: &mut Scenario) {
    let design = s.lease.as_ref().map(|l| l.design).unwrap_or(Design::NoLlm);
    s.nodes
        .retain(|n| n.roles.as_slice() != [Role::Advisor] || design == Design::Beside);
}

/// The link that makes the store and `orders` one database: the store's row
/// reaches `orders` in the simulator's least hop, and is never lost.
pub fn one_database_link() -> LinkSpec {
    one_database_link_from("store")
}

/// The same, from one replica of a replicated store.
pub fn one_database_link_from(store: &str) -> LinkSpec {
    LinkSpec {
        from: store.into(),
        to: "orders".into(),
        latency: Some(Latency::Constant { us: 0 }),
        loss: Some(0.0),
    }
}

/// A lease scenario with `workers` workers and the given spec.
pub fn lab(name: &str, workers: usize, spec: LeaseSpec) -> Scenario {
    lab_with_store(name, workers, 1, spec)
}

/// A lease scenario whose store has `replicas` replicas (1: the single store).
pub fn lab_with_store(name: &str, workers: usize, replicas: usize, spec: LeaseSpec) -> Scenario {
    let stores = store_names(replicas);
    let mut s = Scenario {
        name: name.to_string(),
        protocol: Protocol::Lease,
        seed: 42,
        nodes: lab_nodes_with(workers, &stores),
        network: NetworkConfig {
            latency: Latency::Uniform {
                min_us: 5_000,
                max_us: 20_000,
            },
            links: stores.iter().map(|id| one_database_link_from(id)).collect(),
            ..NetworkConfig::default()
        },
        clocks: Vec::new(),
        faults: Vec::new(),
        paxos: None,
        lease: Some(spec),
        multipaxos: None,
        commit: None,
        mutation: None,
        stop_at_us: 30_000_000,
    };
    trim_nodes(&mut s);
    s
}

pub fn build(
    s: &Scenario,
    names: &Arc<Vec<String>>,
) -> Result<(Vec<NodeState>, Monitors), ScenarioError> {
    let spec = s
        .lease
        .as_ref()
        .ok_or(ScenarioError::MissingSection("lease", "lease"))?;
    let mutation = match s.mutation {
        Some(Mutation::Lease(m)) => Some(m),
        _ => None,
    };
    let one = |role: Role, what: &str| -> Result<NodeId, ScenarioError> {
        match s.nodes_with(role).as_slice() {
            [id] => Ok(*id),
            list => Err(ScenarioError::setting(
                "nodes",
                format!(
                    "a lease scenario needs exactly one {what}; found {}",
                    list.len()
                ),
            )),
        }
    };
    let stores = s.nodes_with(Role::LeaseStore);
    if stores.is_empty() || stores.len() > MAX_STORE_REPLICAS {
        return Err(ScenarioError::setting(
            "nodes",
            format!("{} lease_store nodes; a lease scenario needs one store, or 2 to {MAX_STORE_REPLICAS} replicas of one", stores.len()),
        ));
    }
    if stores.len() == 1 && spec.store.is_some() {
        return Err(ScenarioError::setting(
            "lease.store",
            "these are a replicated store's settings, but the scenario has one lease_store node; add replicas or drop the section",
        ));
    }
    let store = stores[0];
    let storage = one(Role::Storage, "storage node")?;
    let llms = s.nodes_with(Role::Llm);
    if llms.len() > 1 {
        return Err(ScenarioError::setting("nodes", "at most one llm node"));
    }
    let advisors = s.nodes_with(Role::Advisor);
    if advisors.len() > 1 {
        return Err(ScenarioError::setting("nodes", "at most one advisor node"));
    }
    let workers = s.nodes_with(Role::Worker);
    for node in &s.nodes {
        if node.roles.len() != 1
            || matches!(
                node.roles[0],
                Role::Proposer | Role::Acceptor | Role::Learner
            )
        {
            return Err(ScenarioError::setting(
                format!("nodes.{}.roles", node.id),
                "each lease-lab node plays exactly one of: worker, lease_store, storage, llm, advisor",
            ));
        }
    }
    spec.validate(workers.len(), !llms.is_empty())?;
    let advisor = advisors
        .first()
        .copied()
        .filter(|_| spec.design == Design::Beside);
    let group = match stores.len() {
        1 => None,
        _ => Some(store_group(spec, &stores, mutation, storage, advisor)?),
    };
    let shared = Arc::new(LeaseShared {
        store,
        replicas: if group.is_some() {
            stores.clone()
        } else {
            Vec::new()
        },
        storage,
        llm: llms
            .first()
            .copied()
            .filter(|_| spec.design != Design::NoLlm),
        ttl: SimDuration(spec.ttl_us),
        renew_every: SimDuration(spec.renew()),
        budget: spec.budget(),
        design: spec.design,
        llm_timeout: SimDuration(spec.llm_timeout_us),
        work_every: SimDuration(spec.work_every_us),
        work_takes: SimDuration(spec.work_takes_us),
        keys: spec.keys,
    });
    let mut nth_worker = 0u64;
    let mut nth_replica = 0usize;
    let nodes = s
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| {
            if let (Role::LeaseStore, Some(g)) = (n.roles[0], &group) {
                nth_replica += 1;
                return NodeState::Multipaxos(MpNode::Replica(Replica::new(
                    g.clone(),
                    nth_replica - 1,
                )));
            }
            NodeState::Lease(match n.roles[0] {
                Role::Worker => {
                    let start = SimDuration(spec.stagger_us.saturating_mul(nth_worker));
                    nth_worker += 1;
                    LeaseNode::Worker(Worker::new(
                        shared.clone(),
                        start,
                        Rng::new(mix(s.seed, i as u64), Stream::Workload),
                    ))
                }
                Role::LeaseStore => LeaseNode::Store(LeaseStore {
                    mutation,
                    storage: Some(storage),
                    advisor,
                    ..LeaseStore::new(spec.initial_epoch, spec.bump_epoch_on_renew)
                }),
                Role::Storage => LeaseNode::Storage(Storage {
                    mutation,
                    ..Storage::new(spec.keys, spec.fencing)
                }),
                Role::Advisor => LeaseNode::Advisor(Advisor::new(shared.llm)),
                _ => LeaseNode::Llm(Llm::new(spec.llm.clone(), Rng::new(s.seed, Stream::Llm))),
            })
        })
        .collect();
    let mut monitors =
        Monitors::for_lease(LeaseMonitor::new(names.clone(), spec.keys, spec.fencing));
    if group.is_some() {
        // The store's own log and master lease are checked as any group's.
        monitors.multipaxos = Some(crate::held::Held::new(MultiMonitor::new(
            names.clone(),
            stores.len(),
        )));
    }
    Ok((nodes, monitors))
}

/// The store's replicas as a Multi-Paxos group with a master lease.
fn store_group(
    spec: &LeaseSpec,
    stores: &[NodeId],
    mutation: Option<LeaseMutation>,
    storage: NodeId,
    advisor: Option<NodeId>,
) -> Result<Arc<Group>, ScenarioError> {
    let g = spec.store.clone().unwrap_or_default();
    let bad = |f: &str, r: String| Err(ScenarioError::setting(format!("lease.store.{f}"), r));
    let human = crate::sim::time::human_us;
    if !(1_000..=60_000_000).contains(&g.heartbeat_us) {
        return bad(
            "heartbeat_us",
            format!("{} is outside 1 ms … 60 s", human(g.heartbeat_us)),
        );
    }
    if g.election_timeout_us <= g.heartbeat_us || g.election_timeout_us > 60_000_000 {
        return bad(
            "election_timeout_us",
            format!(
                "{} must be above the heartbeat ({}) and at most 60 s",
                human(g.election_timeout_us),
                human(g.heartbeat_us)
            ),
        );
    }
    if g.master_lease_us <= g.heartbeat_us || g.master_lease_us > 600_000_000 {
        return bad(
            "master_lease_us",
            format!(
                "{} must be above the heartbeat ({}): the master renews its lease every heartbeat",
                human(g.master_lease_us),
                human(g.heartbeat_us)
            ),
        );
    }
    let t = SimDuration(g.master_lease_us);
    let budget = LeaseShared::budget_for(t.0, spec.rho_ppm, t.0 / 20);
    Ok(Arc::new(Group {
        quorum: Group::majority(stores.len()),
        replicas: stores.to_vec(),
        election_timeout: SimDuration(g.election_timeout_us),
        heartbeat_every: SimDuration(g.heartbeat_us),
        window: 8,
        lease: Some((t, budget)),
        client_retry: SimDuration(g.election_timeout_us),
        mutation: None,
        cell: None,
        lease_store: Some(StoreDuty {
            rules: LeaseMutation::rules(mutation, spec.initial_epoch, spec.bump_epoch_on_renew),
            storage: Some(storage),
            advisor,
        }),
    }))
}

pub const BUILTIN_NAMES: [&str; 14] = [
    "kleppmann",
    "kleppmann-unfenced",
    "lone-pause",
    "lone-pause-token",
    "llm-in-loop",
    "llm-in-loop-unfenced",
    "llm-beside",
    "llm-outage-drill",
    "clock-drift",
    "llm-article-cadence",
    "llm-flaky",
    "llm-throttled",
    "llm-ttl-stretched",
    "replicated-store",
];

fn at(ms: u64, fault: impl Into<Step<String>>) -> Scheduled<String> {
    Scheduled {
        at_us: ms * 1_000,
        fault: fault.into(),
    }
}

/// The LLM-in-the-loop story: W1 holds the lease; at 6 s its next LLM call stalls 12 s.
fn stall_story(name: &str, design: Design, fencing: Fencing) -> Scenario {
    let mut spec = LeaseSpec::new(3_000_000, design, LlmPreset::FastApi);
    spec.fencing = fencing;
    spec.keys = 2;
    let mut s = lab(name, 3, spec);
    s.faults = vec![at(
        6_000,
        LeaseCommand::LlmStall {
            node: "W1".into(),
            for_us: 12_000_000,
        },
    )];
    s
}

pub fn builtin(name: &str) -> Option<Scenario> {
    let s = match name {
        // Kleppmann (2016): token 33 pauses, 34 writes, 33's late write is refused.
        // The same, with W2 gone: nobody takes over. W1's epoch 33 is still
        // the highest there is when it wakes, long after the store let it go;
        // only the article's live-lease check refuses its write.
        "kleppmann" | "kleppmann-unfenced" | "lone-pause" | "lone-pause-token" => {
            let mut spec = LeaseSpec::new(3_000_000, Design::NoLlm, LlmPreset::FastApi);
            spec.initial_epoch = 32;
            spec.keys = 1;
            spec.fencing = match name {
                "kleppmann-unfenced" => Fencing::Off,
                "lone-pause-token" => Fencing::Token,
                _ => Fencing::Article,
            };
            let workers = if name.starts_with("lone") { 1 } else { 2 };
            let mut s = lab(name, workers, spec);
            s.nodes.retain(|n| n.id != "llm");
            // Constant latency so that the story is the same for every seed.
            s.network.latency = Latency::Constant { us: 10_000 };
            s.faults = vec![at(
                1_050,
                Fault::Pause {
                    node: "W1".into(),
                    for_us: 10_000_000,
                },
            )];
            s.stop_at_us = 15_000_000;
            s
        }
        "llm-in-loop" => stall_story(name, Design::InLoop, Fencing::Article),
        // The article's cadence — renew every few hundred ms, a TTL of about a
        // second — with the fast API in the loop and no stall at all: its p99
        // (0.76 s) is above TTL/2, and red flag 2 trips. (The lab's 3 s TTL,
        // renewed every second, is slower, so that a run can be followed.)
        "llm-article-cadence" => {
            let mut spec = LeaseSpec::new(1_000_000, Design::InLoop, LlmPreset::FastApi);
            spec.renew_us = Some(300_000);
            spec.keys = 2;
            let mut s = lab(name, 3, spec);
            // A seed whose run shows a takeover within the half minute.
            s.seed = 2;
            s
        }
        "llm-in-loop-unfenced" => stall_story(name, Design::InLoop, Fencing::Off),
        // Non-determinism and authority, each alone: a fast API whose answers
        // vary (keep, release, malformed JSON), and one whose vendor
        // rate-limits and refuses now and then. Nothing stalls.
        "llm-flaky" | "llm-throttled" => {
            let preset = if name == "llm-flaky" {
                LlmPreset::Flaky
            } else {
                LlmPreset::Throttled
            };
            let mut spec = LeaseSpec::new(3_000_000, Design::InLoop, preset);
            spec.keys = 2;
            lab(name, 3, spec)
        }
        // Red flag 3: the TTL stretched to 10 s to wait for an LLM that takes
        // about 2 s.
        // The holder crashes at 5 s, and the lease sits unusable until it
        // runs out.
        "llm-ttl-stretched" => {
            let mut spec = LeaseSpec::new(
                10_000_000,
                Design::InLoop,
                LlmPreset::Custom {
                    latency: Latency::LogNormal {
                        median_us: 2_000_000,
                        sigma: 0.25,
                    },
                },
            );
            spec.keys = 2;
            let mut s = lab(name, 3, spec);
            // A seed where W1 is the first holder, as the flag's crash drill assumes.
            s.seed = 2;
            s.faults = vec![at(5_000, Fault::Crash { node: "W1".into() })];
            s
        }
        "llm-beside" => stall_story(name, Design::Beside, Fencing::Article),
        // Kleppmann's story with the store as three replicas of a Multi-Paxos
        // group. W2 is the first holder (W1's first request reaches S1 before
        // it is elected). The store's master S1 crashes at 4 s: S2 and S3
        // refuse a new master until S1's master lease has run out, and W2's
        // lease outlives the failover. Then W2 pauses, W1 takes over through
        // the new master, and W2's late write is refused.
        "replicated-store" => {
            let mut spec = LeaseSpec::new(3_000_000, Design::NoLlm, LlmPreset::FastApi);
            spec.initial_epoch = 32;
            spec.keys = 1;
            spec.store = Some(StoreGroupSpec::default());
            let mut s = lab_with_store(name, 2, 3, spec);
            s.nodes.retain(|n| n.id != "llm");
            s.network.latency = Latency::Constant { us: 10_000 };
            s.faults = vec![
                at(4_000, Fault::Crash { node: "S1".into() }),
                at(10_000, Fault::Restart { node: "S1".into() }),
                at(
                    12_250,
                    Fault::Pause {
                        node: "W2".into(),
                        for_us: 7_000_000,
                    },
                ),
            ];
            s.stop_at_us = 22_000_000;
            s
        }
        // The drill: the LLM vendor goes down at 5 s. Does the loop keep working?
        "llm-outage-drill" => {
            let mut s = stall_story(name, Design::InLoop, Fencing::Article);
            s.faults = vec![at(5_000, LeaseCommand::LlmOutage { down: true })];
            s
        }
        // W1's clock runs 20 % slow and the store's 10 % fast, far beyond the
        // 0.1 % the workers assume. Cut off from the store at 5 s, W1 keeps
        // believing after the store has let the lease go.
        "clock-drift" => {
            let mut spec = LeaseSpec::new(6_000_000, Design::NoLlm, LlmPreset::FastApi);
            spec.renew_us = Some(1_000_000);
            let mut s = lab(name, 2, spec);
            s.nodes.retain(|n| n.id != "llm");
            let clock = |node: &str, drift_ppm| crate::sim::clock::ClockSpec {
                node: node.into(),
                drift_ppm,
                offset_us: 0,
            };
            s.clocks = vec![clock("W1", -200_000), clock("store", 100_000)];
            s.faults = vec![
                at(
                    5_000,
                    Fault::Partition {
                        groups: vec![vec!["W1".into()], vec!["store".into()]],
                        oneway: false,
                    },
                ),
                at(16_000, Fault::Heal),
            ];
            s.stop_at_us = 25_000_000;
            s
        }
        _ => return None,
    };
    Some(s)
}

/// A random lease configuration with random faults (for `check --protocol lease`).
pub fn random_lease(seed: u64, faults: FaultSet, mutation: Option<Mutation>) -> Scenario {
    random_lease_with(seed, faults, mutation, Fencing::Article)
}

pub fn random_lease_with(
    seed: u64,
    faults: FaultSet,
    mutation: Option<Mutation>,
    fencing: Fencing,
) -> Scenario {
    let mut r = Rng::new(seed, Stream::Schedule);
    let workers = r.range_inclusive(2, MAX_WORKERS as u64) as usize;
    let ttl = r.range_inclusive(300, 4_000) * 1_000;
    let design = *r
        .pick(&[Design::NoLlm, Design::InLoop, Design::Beside])
        .unwrap_or(&Design::NoLlm);
    let llm = match r.below(6) {
        0 => LlmPreset::FastApi,
        1 => LlmPreset::TypicalLlm,
        2 => LlmPreset::Stall {
            for_us: r.range_inclusive(100, 8_000) * 1_000,
        },
        3 => LlmPreset::MalformedJson,
        4 => LlmPreset::RateLimit {
            retry_after_us: r.range_inclusive(100, 3_000) * 1_000,
        },
        _ => LlmPreset::Refusal,
    };
    let mut spec = LeaseSpec::new(ttl, design, llm);
    spec.renew_us = Some(ttl / r.range_inclusive(2, 5));
    spec.fencing = fencing;
    spec.keys = r.range_inclusive(1, 4) as u16;
    spec.bump_epoch_on_renew = r.chance(0.2);
    spec.work_every_us = r.range_inclusive(50, 600) * 1_000;
    spec.work_takes_us = r.range_inclusive(1, 200) * 1_000;
    spec.llm_timeout_us = r.range_inclusive(1, 20) * 1_000_000;
    // A third of the schedules put the store on a Multi-Paxos group. Its
    // draws come from a stream of their own, so that the other schedules
    // stay what they were.
    let mut g = Rng::new(mix(seed, 0x5_70_8e), Stream::Schedule);
    let replicas = if g.below(3) == 0 {
        *g.pick(&[3usize, 5]).unwrap_or(&3)
    } else {
        1
    };
    if replicas > 1 {
        spec.store = Some(StoreGroupSpec {
            heartbeat_us: g.range_inclusive(10, 100) * 1_000,
            election_timeout_us: g.range_inclusive(150, 600) * 1_000,
            master_lease_us: g.range_inclusive(150, 1_000) * 1_000,
        });
    }
    let stores = store_names(replicas);
    let mut s = lab_with_store("random-lease", workers, replicas, spec);
    s.seed = seed;
    s.mutation = mutation;
    s.stop_at_us = 20_000_000;
    s.network.latency = Latency::Exponential {
        mean_us: r.range_inclusive(1, 80) * 1_000,
        min_us: 1_000,
    };
    if faults.loss {
        s.network.loss = r.below(20) as f64 / 100.0;
    }
    if faults.duplicate {
        s.network.duplicate = r.below(20) as f64 / 100.0;
    }
    if faults.reorder {
        s.network.reorder = r.below(20) as f64 / 100.0;
    }
    let w = |r: &mut Rng| format!("W{}", r.range_inclusive(1, workers as u64));
    for _ in 0..r.below(8) {
        let t = r.below(15_000) * 1_000;
        match r.below(5) {
            0 if faults.pause => s.faults.push(Scheduled {
                at_us: t,
                fault: Fault::Pause {
                    node: w(&mut r),
                    for_us: r.range_inclusive(50, 10_000) * 1_000,
                }
                .into(),
            }),
            1 if faults.crash => {
                let node = w(&mut r);
                s.faults.push(Scheduled {
                    at_us: t,
                    fault: Fault::Crash { node: node.clone() }.into(),
                });
                s.faults.push(Scheduled {
                    at_us: t + r.range_inclusive(10, 5_000) * 1_000,
                    fault: Fault::Restart { node }.into(),
                });
            }
            2 if faults.pause => s.faults.push(Scheduled {
                at_us: t,
                fault: LeaseCommand::LlmStall {
                    node: w(&mut r),
                    for_us: r.range_inclusive(100, 20_000) * 1_000,
                }
                .into(),
            }),
            3 if faults.partition => {
                s.faults.push(Scheduled {
                    at_us: t,
                    fault: Fault::Partition {
                        groups: vec![
                            vec![w(&mut r)],
                            vec![g.pick(&stores).cloned().unwrap_or_default()],
                        ],
                        oneway: r.chance(0.3),
                    }
                    .into(),
                });
                s.faults.push(Scheduled {
                    at_us: t + r.range_inclusive(100, 6_000) * 1_000,
                    fault: Fault::Heal.into(),
                });
            }
            4 if faults.drift => {
                let node = if r.chance(0.3) {
                    g.pick(&stores).cloned().unwrap_or_default()
                } else {
                    w(&mut r)
                };
                s.clocks.retain(|c| c.node != node);
                s.clocks.push(crate::sim::clock::ClockSpec {
                    node,
                    drift_ppm: r.range_inclusive(0, 400) as i64 - 200,
                    offset_us: 0,
                });
            }
            _ => {}
        }
    }
    if replicas > 1 {
        // The store's own faults: replicas crash and come back, or are cut
        // off from the others (the master among them, often).
        for _ in 0..g.below(4) {
            let t = g.below(15_000) * 1_000;
            let node = g.pick(&stores).cloned().unwrap_or_default();
            if g.chance(0.5) && faults.crash {
                s.faults.push(Scheduled {
                    at_us: t,
                    fault: Fault::Crash { node: node.clone() }.into(),
                });
                s.faults.push(Scheduled {
                    at_us: t + g.range_inclusive(10, 5_000) * 1_000,
                    fault: Fault::Restart { node }.into(),
                });
            } else if faults.partition {
                let rest: Vec<String> = stores.iter().filter(|n| **n != node).cloned().collect();
                s.faults.push(Scheduled {
                    at_us: t,
                    fault: Fault::Partition {
                        groups: vec![vec![node], rest],
                        oneway: false,
                    }
                    .into(),
                });
                s.faults.push(Scheduled {
                    at_us: t + g.range_inclusive(100, 6_000) * 1_000,
                    fault: Fault::Heal.into(),
                });
            }
        }
    }
    crate::sorted::sort_by_key(&mut s.faults, |f| (f.at_us, 0));
    s
}

/// The lease lines of `paxos-island run`.
pub fn print_summary(run: &super::run::Run, out: &mut dyn std::io::Write) {
    let Some(m) = run.last.monitors().lease.as_ref() else {
        return;
    };
    let st = m.stats_at(run.end);
    let h = crate::sim::time::human_us;
    let _ = writeln!(
        out,
        "grants     {} grants, {} renewals, failover {}",
        st.grants,
        st.renewals,
        st.mean_failover_us()
            .map(h)
            .unwrap_or_else(|| "none".into())
    );
    let _ = writeln!(
        out,
        "writes     {} accepted, {} rejected; stale: {} attempted, {} rejected, {} accepted; {} lost updates",
        st.writes_accepted, st.writes_rejected, st.stale_attempted, st.stale_rejected, st.stale_accepted, st.lost_updates
    );
    let _ = writeln!(
        out,
        "fence      {}: refused {} row fenced, {} lease held by another, {} lease expired; {} accepted on a lease not live",
        run.scenario.lease.as_ref().map(|l| l.fencing.as_str()).unwrap_or("?"),
        st.refused_row_fenced, st.refused_held_by_another, st.refused_expired, st.dead_lease_writes
    );
    let _ = writeln!(
        out,
        "split brain {} windows, {} in all (longest {})",
        st.split_brain_windows,
        h(st.split_brain_us),
        h(st.longest_split_brain_us)
    );
    if let Ok(f) = crate::check::red_flags::evaluate(&run.scenario) {
        let yn = |b: bool| if b { "RAISED" } else { "quiet " };
        let _ = writeln!(out, "red flags  {} of 4 raised", f.raised());
        let _ = writeln!(out, "  {} the lease module talks to the LLM ({} questions from workers, {} from the advisor)", yn(f.depends_on_llm), f.worker_llm_calls, f.other_llm_calls);
        let _ = writeln!(
            out,
            "  {} LLM p99 {} vs TTL/2 {}",
            yn(f.p99_over_half_ttl),
            f.llm_p99_us.map(h).unwrap_or_else(|| "n/a".into()),
            h(f.ttl_us / 2)
        );
        let _ = writeln!(
            out,
            "  {} TTL stretched for the LLM: TTL {} vs {} (failover {} vs {})",
            yn(f.ttl_stretched),
            h(f.ttl_us),
            h(f.baseline_ttl_us),
            f.failover_us.map(h).unwrap_or_else(|| "-".into()),
            f.baseline_failover_us.map(h).unwrap_or_else(|| "-".into())
        );
        let _ = writeln!(
            out,
            "  {} LLM-down drill: lease held {:.0} % of the time (normally {:.0} %), {} writes (normally {})",
            yn(f.drill_fails),
            f.drill_held_fraction * 100.0,
            f.held_fraction * 100.0,
            f.drill_writes,
            f.writes
        );
    }
}
