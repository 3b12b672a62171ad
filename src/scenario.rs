//! Scenarios: everything needed to reproduce a run — nodes and roles,
//! network, clocks, the fault script, the seed — as plain data.
//!
//! A scenario is what a share link encodes, what a trace file carries in its
//! envelope, and what the built-in demos and lessons are made of. `build`
//! validates it (every problem named, nothing panics) and turns it into the
//! simulator's `World`.

pub mod ballots;
pub mod builtin;
pub mod commit_spec;
pub mod commit_table;
pub mod latency;
pub mod lease_mc;
pub mod lease_spec;
pub mod lessons;
pub mod multipaxos_spec;
pub mod names;
pub(crate) mod read;
pub mod run;

use crate::check::{Monitors, PaxosMonitor};
use crate::protocol::multipaxos::MpCommand;
use crate::protocol::paxos::{PaxosCommand, PaxosMutation, PaxosNode, Proposer, Synod};
use crate::protocol::{Command, Kind, Mutation, NodeState, Value};
use crate::sim::clock::{Clock, ClockSpec, MAX_DRIFT_PPM};
use crate::sim::fault::Fault;
use crate::sim::network::{Link, Network, NetworkConfig};
use crate::sim::{Input, NodeId, SimDuration, SimTime, MAX_NODES};
use serde::Serialize;
use std::sync::Arc;
use thiserror::Error;

pub use commit_spec::CommitSpec;
pub use lease_spec::LeaseSpec;
pub use run::{Run, RunSummary};

/// The longest run a scenario may ask for: one simulated hour.
pub const MAX_STOP_US: u64 = 3_600_000_000;

/// The simulator's world for a run of any protocol.
pub type World = crate::sim::World<NodeState, Monitors>;
/// The simulator, as the page and the command line run it.
pub type Simulator = crate::sim::Simulator<NodeState, Monitors>;

/// One scripted thing: a fault the simulator carries out, or a command for
/// the protocol. Written flat, as one list: `{"crash": {"node": "Γ"}}`,
/// `{"propose": {"node": "Β", "value": "γ"}}`, `"heal"`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Step<N> {
    Fault(Fault<N>),
    Command(Command<N>),
}

impl<N> Step<N> {
    /// The snake_case name, as in scripts and trace events.
    pub fn kind(&self) -> &'static str {
        match self {
            Step::Fault(f) => f.kind(),
            Step::Command(c) => c.kind(),
        }
    }
    /// The node it is about, if any.
    pub fn node(&self) -> Option<&N> {
        match self {
            Step::Fault(f) => f.node(),
            Step::Command(c) => c.node(),
        }
    }
    /// Translate the node names (or ids) with `f`; stops at the first error.
    pub fn try_map<M, E>(&self, f: impl FnMut(&N) -> Result<M, E>) -> Result<Step<M>, E> {
        Ok(match self {
            Step::Fault(x) => Step::Fault(x.try_map(f)?),
            Step::Command(x) => Step::Command(x.try_map(f)?),
        })
    }
    pub fn as_fault(&self) -> Option<&Fault<N>> {
        match self {
            Step::Fault(f) => Some(f),
            Step::Command(_) => None,
        }
    }
    pub fn as_command(&self) -> Option<&Command<N>> {
        match self {
            Step::Command(c) => Some(c),
            Step::Fault(_) => None,
        }
    }
}

impl Step<NodeId> {
    /// What the simulator is given.
    pub fn into_input(self) -> Input<NodeState> {
        match self {
            Step::Fault(f) => Input::Fault(f),
            Step::Command(c) => Input::Command(c),
        }
    }
}

impl<N> From<Fault<N>> for Step<N> {
    fn from(f: Fault<N>) -> Self {
        Step::Fault(f)
    }
}
impl<N> From<Command<N>> for Step<N> {
    fn from(c: Command<N>) -> Self {
        Step::Command(c)
    }
}
impl<N> From<PaxosCommand<N>> for Step<N> {
    fn from(c: PaxosCommand<N>) -> Self {
        Step::Command(c.into())
    }
}
impl<N> From<crate::protocol::commit::CommitCommand<N>> for Step<N> {
    fn from(c: crate::protocol::commit::CommitCommand<N>) -> Self {
        Step::Command(c.into())
    }
}
impl<N> From<crate::protocol::lease::LeaseCommand<N>> for Step<N> {
    fn from(c: crate::protocol::lease::LeaseCommand<N>) -> Self {
        Step::Command(c.into())
    }
}

fn step_kinds<N>() -> String {
    let mut all: Vec<&str> = Fault::<N>::KINDS.to_vec();
    all.extend(Command::<N>::all_kinds());
    all.join(", ")
}

/// A fault or command and the true time at which it strikes.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(deny_unknown_fields, bound(deserialize = "N: crate::json::FromValue"))]
pub struct Scheduled<N> {
    pub at_us: u64,
    pub fault: Step<N>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Proposer,
    Acceptor,
    Learner,
    Worker,
    LeaseStore,
    Storage,
    Llm,
    /// Lease lab, sound design: explains a lapsed lease with the LLM, apart
    /// from the lease loop (the workers never call the LLM).
    Advisor,
    Replica,
    Client,
    /// Transaction commit: the transaction manager (Paxos Commit's first leader).
    Tm,
    /// Transaction commit: a resource manager.
    Rm,
    /// Paxos Commit: a backup coordinator, ready to take over from the leader.
    Coordinator,
}

impl Role {
    /// The role as a scenario file names it (`lease_store`).
    pub fn file_name(self) -> &'static str {
        read::ROLES
            .iter()
            .find(|(_, r)| *r == self)
            .map_or("?", |(n, _)| n)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub struct NodeSpec {
    pub id: String,
    pub roles: Vec<Role>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub struct Proposal {
    pub node: String,
    pub value: String,
    #[serde(default)]
    pub start_us: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub struct PaxosSpec {
    pub proposals: Vec<Proposal>,
    /// How long a proposer waits for a phase before trying a higher ballot.
    #[serde(default = "default_timeout")]
    pub timeout_us: u64,
    /// Randomized backoff between attempts.
    #[serde(default = "yes")]
    pub backoff: bool,
    /// The distinguished proposer (president).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leader: Option<String>,
    /// Learners count `Accepted` messages themselves (besides phase 3).
    #[serde(default, skip_serializing_if = "is_false")]
    pub learn_from_votes: bool,
}

fn default_timeout() -> u64 {
    1_000_000
}
fn yes() -> bool {
    true
}
fn is_false(b: &bool) -> bool {
    !*b
}

/// (Cloned and compared by hand: see [`OtherSections`].)
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    pub protocol: Kind,
    pub seed: u64,
    pub nodes: Vec<NodeSpec>,
    #[serde(default)]
    pub network: NetworkConfig,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clocks: Vec<ClockSpec>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub faults: Vec<Scheduled<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paxos: Option<PaxosSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lease: Option<LeaseSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multipaxos: Option<multipaxos_spec::MultiSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<CommitSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mutation: Option<Mutation>,
    /// The run ends here (true time), or earlier if nothing is left to happen.
    pub stop_at_us: u64,
}

/// Builds the nodes and monitors of a scenario of one protocol.
pub type Build =
    fn(&Scenario, &Arc<Vec<String>>) -> Result<(Vec<NodeState>, Monitors), ScenarioError>;

/// The builders of the protocols other than Paxos. The page's first load
/// builds only the parliament's runs: in its split build these builders are
/// in the chunk the other protocols' views share, which installs them
/// ([`install_builders`]) before it builds anything. Everywhere else they
/// are an ordinary call.
fn build_others(
    s: &Scenario,
    names: &Arc<Vec<String>>,
) -> Result<(Vec<NodeState>, Monitors), ScenarioError> {
    match s.protocol {
        Kind::Paxos => s.build_paxos(names),
        Kind::Lease => lease_spec::build(s, names),
        Kind::Multipaxos => multipaxos_spec::build(s, names),
        Kind::Commit => commit_spec::build(s, names),
    }
}

#[cfg(all(target_arch = "wasm32", feature = "split"))]
static OTHERS: std::sync::OnceLock<Build> = std::sync::OnceLock::new();

/// Makes the other protocols' scenarios buildable (the split page's parts
/// call it when they arrive; elsewhere it does nothing).
pub fn install_builders() -> Build {
    #[cfg(all(target_arch = "wasm32", feature = "split"))]
    let _ = OTHERS.set(build_others);
    #[cfg(all(target_arch = "wasm32", feature = "split"))]
    let _ = SECTIONS.set(&OTHER_SECTIONS);
    // Every build checks its scenario from now on.
    install_checks();
    // Their built-in scenarios, their nodes' handlers and their monitors come with them.
    builtin::install_others();
    crate::protocol::install_handlers();
    crate::check::install_monitors();
    build_others
}

/// A scenario's checks ([`Scenario::check`]). Every build runs them first.
/// In the split page they are in the parts' shared chunk, installed by every
/// part that builds or reads a scenario ([`install_checks`]): before any part
/// is here the page builds only scenarios it made itself — a built-in with
/// its seed and mutation, a crash or restart of one of its nodes — which
/// pass them and draw only latencies the first load can draw (the others
/// come with `sim::dist::install_shapes`):
/// `tests::what_the_first_load_builds_passes_the_checks`. Everywhere else
/// they are an ordinary call.
fn checks() -> fn(&Scenario) -> Result<(), ScenarioError> {
    #[cfg(all(target_arch = "wasm32", feature = "split"))]
    return CHECKS.get().copied().unwrap_or(|_| Ok(()));
    #[cfg(not(all(target_arch = "wasm32", feature = "split")))]
    Scenario::check
}

#[cfg(all(target_arch = "wasm32", feature = "split"))]
static CHECKS: std::sync::OnceLock<fn(&Scenario) -> Result<(), ScenarioError>> =
    std::sync::OnceLock::new();

/// Makes the page ready for any scenario, not only those its first load
/// makes: every build checks its scenario, and every latency can be drawn
/// (`sim::dist::install_shapes`). The split page's parts call it when they
/// arrive, with the builders; elsewhere it does nothing.
pub fn install_checks() {
    #[cfg(all(target_arch = "wasm32", feature = "split"))]
    let _ = CHECKS.set(Scenario::check);
    crate::sim::dist::install_shapes();
}

/// The sections of the other protocols (`lease`, `multipaxos`, `commit`)
/// are copied and compared through this table, installed with their
/// builders: a scenario with one of them is made only by a part that
/// installs the builders (the readers, the labs, the lessons, the checker),
/// so the parliament's first load needs none of their code.
struct OtherSections {
    clone: fn(&Scenario, &mut Scenario),
    eq: fn(&Scenario, &Scenario) -> bool,
    flip: fn(&Scenario, Flip) -> Option<Scenario>,
}

static OTHER_SECTIONS: OtherSections = OtherSections {
    clone: |from, to| {
        to.lease = from.lease.clone();
        to.multipaxos = from.multipaxos.clone();
        to.commit = from.commit.clone();
    },
    eq: |a, b| a.lease == b.lease && a.multipaxos == b.multipaxos && a.commit == b.commit,
    flip: flip_other,
};

/// The setting a comparison flips: the lease lab's fence or design, or the
/// commit protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flip {
    /// The article's fence against Kleppmann's token alone (a run without
    /// any fence is compared with the article's).
    Fencing,
    /// The LLM inside the lease loop against beside it.
    Design,
    /// Two-phase commit against Paxos Commit, same faults.
    Protocol,
}

impl Scenario {
    /// The same scenario with one setting flipped, for a comparison's second
    /// pane; none where the flip does not apply (a Paxos run has none).
    pub fn flipped(&self, how: Flip) -> Option<Scenario> {
        if !self.has_other_sections() {
            return None;
        }
        (other_sections().flip)(self, how)
    }
}

fn flip_other(s: &Scenario, how: Flip) -> Option<Scenario> {
    use crate::protocol::lease::Design;
    use crate::protocol::storage::Fencing;
    if s.protocol == Kind::Commit {
        return if how == Flip::Protocol {
            commit_spec::twin(s)
        } else {
            None
        };
    }
    let mut b = s.clone();
    let l = b.lease.as_mut()?;
    match how {
        Flip::Protocol => return None,
        Flip::Fencing => {
            l.fencing = if l.fencing == Fencing::Article {
                Fencing::Token
            } else {
                Fencing::Article
            };
        }
        Flip::Design => {
            l.design = if l.design == Design::InLoop {
                Design::Beside
            } else {
                Design::InLoop
            };
            let beside = l.design == Design::Beside;
            if !b.nodes.iter().any(|n| n.roles.contains(&Role::Llm))
                || (beside && b.nodes_with(Role::Advisor).is_empty())
            {
                b.nodes = lease_spec::lab_nodes(b.nodes_with(Role::Worker).len());
            }
            lease_spec::trim_nodes(&mut b);
        }
    }
    Some(b)
}

fn other_sections() -> &'static OtherSections {
    #[cfg(all(target_arch = "wasm32", feature = "split"))]
    return SECTIONS.get().copied().expect(
        "a scenario with another protocol's section exists only once its builders are here",
    );
    #[cfg(not(all(target_arch = "wasm32", feature = "split")))]
    &OTHER_SECTIONS
}

#[cfg(all(target_arch = "wasm32", feature = "split"))]
static SECTIONS: std::sync::OnceLock<&'static OtherSections> = std::sync::OnceLock::new();

impl Scenario {
    fn has_other_sections(&self) -> bool {
        self.lease.is_some() || self.multipaxos.is_some() || self.commit.is_some()
    }
}

impl Clone for Scenario {
    fn clone(&self) -> Self {
        let Scenario {
            name,
            protocol,
            seed,
            nodes,
            network,
            clocks,
            faults,
            paxos,
            lease: _,
            multipaxos: _,
            commit: _,
            mutation,
            stop_at_us,
        } = self;
        let mut s = Scenario {
            name: name.clone(),
            protocol: *protocol,
            seed: *seed,
            nodes: nodes.clone(),
            network: network.clone(),
            clocks: clocks.clone(),
            faults: faults.clone(),
            paxos: paxos.clone(),
            lease: None,
            multipaxos: None,
            commit: None,
            mutation: *mutation,
            stop_at_us: *stop_at_us,
        };
        if self.has_other_sections() {
            (other_sections().clone)(self, &mut s);
        }
        s
    }
}

impl PartialEq for Scenario {
    fn eq(&self, o: &Self) -> bool {
        let Scenario {
            name,
            protocol,
            seed,
            nodes,
            network,
            clocks,
            faults,
            paxos,
            lease: _,
            multipaxos: _,
            commit: _,
            mutation,
            stop_at_us,
        } = self;
        *name == o.name
            && *protocol == o.protocol
            && *seed == o.seed
            && *nodes == o.nodes
            && *network == o.network
            && *clocks == o.clocks
            && *faults == o.faults
            && *paxos == o.paxos
            && *mutation == o.mutation
            && *stop_at_us == o.stop_at_us
            && ((!self.has_other_sections() && !o.has_other_sections())
                || (other_sections().eq)(self, o))
    }
}

/// Are the other protocols' scenarios buildable now?
pub fn builders_installed() -> bool {
    #[cfg(all(target_arch = "wasm32", feature = "split"))]
    return OTHERS.get().is_some();
    #[cfg(not(all(target_arch = "wasm32", feature = "split")))]
    true
}

/// Can a scenario of `kind` be built now? (Paxos always; the others once
/// their builders are here.)
pub fn buildable_now(kind: Kind) -> bool {
    kind == Kind::Paxos || builders_installed()
}

fn others(kind: Kind) -> Result<Build, ScenarioError> {
    #[cfg(all(target_arch = "wasm32", feature = "split"))]
    return OTHERS
        .get()
        .copied()
        .ok_or(ScenarioError::NotHere(kind.as_str()));
    #[cfg(not(all(target_arch = "wasm32", feature = "split")))]
    {
        let _ = kind;
        Ok(build_others)
    }
}

/// Everything that can be wrong with a scenario, each naming what and why.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum ScenarioError {
    #[error("the scenario has no nodes")]
    NoNodes,
    #[error("the scenario has {0} nodes; at most {MAX_NODES} are supported")]
    TooManyNodes(usize),
    #[error("node name {} is not usable: {}", names::Quoted(.0), .1)]
    BadNodeName(String, &'static str),
    #[error("node {} appears twice", names::Quoted(.0))]
    DuplicateNode(String),
    #[error("unknown node {} in {}", names::Quoted(.0), .1)]
    UnknownNode(String, &'static str),
    #[error("{field}: {reason}")]
    BadSetting { field: String, reason: String },
    #[error("the {0} section is missing for a {1} scenario")]
    MissingSection(&'static str, &'static str),
    #[error("mutation {0} does not apply to a {1} scenario")]
    WrongMutation(Mutation, &'static str),
    /// The page's first load has not (yet) the code that builds this
    /// protocol's scenarios (see [`install_builders`]).
    #[error("the page has not yet loaded what runs a {0} scenario; try again")]
    NotHere(&'static str),
    /// A build found what its checks should have refused (they had not run:
    /// see [`install_checks`]).
    #[error("the scenario was not checked before it was built")]
    Unchecked,
}

impl ScenarioError {
    pub fn setting(field: impl Into<String>, reason: impl Into<String>) -> Self {
        ScenarioError::BadSetting {
            field: field.into(),
            reason: reason.into(),
        }
    }
}

impl From<crate::sim::dist::BadSetting> for ScenarioError {
    fn from(b: crate::sim::dist::BadSetting) -> Self {
        ScenarioError::setting(b.field, b.reason)
    }
}

impl Scenario {
    pub fn node_names(&self) -> Vec<String> {
        self.nodes.iter().map(|n| n.id.clone()).collect()
    }

    /// Resolve a node name as a user might type it ("Γ", "gamma", "G", "W1").
    pub fn resolve(&self, name: &str, context: &'static str) -> Result<NodeId, ScenarioError> {
        // The exact name, as `names::resolve` tries first, without copying
        // the list of names: scenarios built by code (every run of a search or
        // a sweep) always name nodes exactly.
        let exact = name.trim();
        if let Some(i) = self.nodes.iter().position(|n| n.id == exact) {
            return Ok(NodeId(i as u8));
        }
        names::resolve(&self.node_names(), name)
            .ok_or_else(|| ScenarioError::UnknownNode(name.to_string(), context))
    }

    pub fn nodes_with(&self, role: Role) -> Vec<NodeId> {
        self.nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.roles.contains(&role))
            .map(|(i, _)| NodeId(i as u8))
            .collect()
    }

    /// Check everything a user could have typed wrong.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        self.build().map(|_| ())
    }

    /// The checks of what a user could have typed wrong (names, counts,
    /// times, the network's settings, the faults, the Paxos section): the
    /// first part of every build. The other protocols' builders check their
    /// own sections. In the split page they come with the parts (see
    /// [`install_checks`]).
    fn check(&self) -> Result<(), ScenarioError> {
        self.check_common()?;
        if self.protocol == Kind::Paxos {
            self.check_paxos()?;
        }
        Ok(())
    }

    fn check_common(&self) -> Result<(), ScenarioError> {
        if self.nodes.is_empty() {
            return Err(ScenarioError::NoNodes);
        }
        if self.nodes.len() > MAX_NODES {
            return Err(ScenarioError::TooManyNodes(self.nodes.len()));
        }
        for (i, n) in self.nodes.iter().enumerate() {
            names::check_name(&n.id)
                .map_err(|why| ScenarioError::BadNodeName(n.id.clone(), why))?;
            if self.nodes[..i].iter().any(|m| m.id == n.id) {
                return Err(ScenarioError::DuplicateNode(n.id.clone()));
            }
        }
        if self.stop_at_us == 0 || self.stop_at_us > MAX_STOP_US {
            return Err(ScenarioError::setting(
                "stop_at_us",
                format!("{} µs is outside 1 µs … 1 hour", self.stop_at_us),
            ));
        }
        self.network.validate()?;
        for c in &self.clocks {
            self.resolve(&c.node, "clocks")?;
            // unsigned_abs: `abs` of i64::MIN overflows (a hand-edited file can hold it).
            if c.drift_ppm.unsigned_abs() > MAX_DRIFT_PPM as u64 {
                return Err(ScenarioError::setting(
                    "clocks.drift_ppm",
                    format!("{} ppm is beyond ±{MAX_DRIFT_PPM} ppm", c.drift_ppm),
                ));
            }
        }
        for f in &self.faults {
            self.check_fault(&f.fault)?;
        }
        Ok(())
    }

    fn check_fault(&self, step: &Step<String>) -> Result<(), ScenarioError> {
        step.try_map(|n| self.resolve(n, "faults"))?;
        let f = match step {
            Step::Fault(f) => f,
            Step::Command(c) => return self.check_command(c),
        };
        match f {
            Fault::Pause { for_us: 0, .. } => Err(ScenarioError::setting("faults.pause.for_us", "a pause must last longer than 0 µs")),
            Fault::Partition { groups, .. } if groups.is_empty() || groups.iter().any(|g| g.is_empty()) => {
                Err(ScenarioError::setting("faults.partition.groups", "every group needs at least one node"))
            }
            Fault::SetLoss { p } | Fault::SetDuplicate { p } | Fault::SetReorder { p } => {
                crate::sim::network::check_probability(&format!("faults.{}.p", f.kind()), *p).map_err(Into::into)
            }
            Fault::SetLatency { latency } => latency
                .validate()
                .map_err(|b| b.within("faults.set_latency.latency").into()),
            Fault::Deliver { .. } | Fault::Fire { .. } if !self.network.scripted => Err(ScenarioError::setting(
                format!("faults.{}", f.kind()),
                "deliver and fire are steps of a scripted network (set network.scripted to true)",
            )),
            Fault::SetDrift { ppm, .. } if ppm.unsigned_abs() > MAX_DRIFT_PPM as u64 => Err(ScenarioError::setting(
                "faults.set_drift.ppm",
                format!("{ppm} ppm is beyond ±{MAX_DRIFT_PPM} ppm"),
            )),
            _ => Ok(()),
        }
    }

    fn check_command(&self, c: &Command<String>) -> Result<(), ScenarioError> {
        if c.protocol() != self.protocol {
            return Err(ScenarioError::setting(
                "faults",
                format!(
                    "{} is a {} command, and this is a {} scenario",
                    c.kind(),
                    c.protocol(),
                    self.protocol
                ),
            ));
        }
        match c {
            Command::Paxos(PaxosCommand::Propose { value, .. }) => Value::new(value)
                .map(|_| ())
                .map_err(|e| ScenarioError::setting("faults.propose.value", e.to_string())),
            // A client drops a write it cannot hold (`Client::on_command`):
            // refused here, the run on screen stays and the reason is said
            // (the page said "recorded", and the write never happened).
            Command::Multipaxos(MpCommand::Put { key, value, .. }) => {
                multipaxos_spec::read_key("faults.put.key", key)?;
                multipaxos_spec::write_value("faults.put.value", value).map(|_| ())
            }
            Command::Multipaxos(MpCommand::Get { key, .. }) => {
                multipaxos_spec::read_key("faults.get.key", key).map(|_| ())
            }
            _ => Ok(()),
        }
    }

    /// The node names as the monitors keep them. Searches, sweeps and the
    /// benchmark build thousands of scenarios over the same nodes, so the
    /// list of the last build is shared when it is the same (it is only read).
    fn shared_names(&self) -> Arc<Vec<String>> {
        thread_local! {
            static LAST: std::cell::RefCell<Option<Arc<Vec<String>>>> = const { std::cell::RefCell::new(None) };
        }
        LAST.with(|last| {
            let mut last = last.borrow_mut();
            if let Some(names) = last.as_ref() {
                if names.len() == self.nodes.len()
                    && names.iter().zip(&self.nodes).all(|(a, b)| *a == b.id)
                {
                    return names.clone();
                }
            }
            let names = Arc::new(self.node_names());
            *last = Some(names.clone());
            names
        })
    }

    /// Validate and turn into the simulator's world.
    pub fn build(&self) -> Result<World, ScenarioError> {
        checks()(self)?;
        let names = self.shared_names();
        let n = self.nodes.len();
        let mut clocks = vec![Clock::default(); n];
        for c in &self.clocks {
            let id = self.resolve(&c.node, "clocks")?;
            clocks[id.index()] = Clock::new(c.drift_ppm, c.offset_us);
        }
        let mut links = crate::sorted::VecMap::new();
        for l in &self.network.links {
            let from = self.resolve(&l.from, "network.links")?;
            let to = self.resolve(&l.to, "network.links")?;
            links.insert(
                (from, to),
                Link {
                    latency: l.latency.clone(),
                    loss: l.loss,
                },
            );
        }
        let network = Network::new(&self.network, links, n);
        let mut inputs = Vec::with_capacity(self.faults.len());
        for f in &self.faults {
            inputs.push((
                SimTime(f.at_us),
                f.fault.try_map(|x| self.resolve(x, "faults"))?.into_input(),
            ));
        }
        if let Some(m) = self.mutation {
            if m.protocol() != self.protocol {
                return Err(ScenarioError::WrongMutation(m, self.protocol.as_str()));
            }
        }
        let (nodes, monitors) = match self.protocol {
            Kind::Paxos => self.build_paxos(&names)?,
            kind => others(kind)?(self, &names)?,
        };
        Ok(World {
            nodes,
            clocks,
            network,
            inputs,
            monitors,
            seed: self.seed,
        })
    }

    /// The Paxos section's checks: roles, the number of acceptors, the
    /// timeout, the leader, one valid proposal per proposer.
    fn check_paxos(&self) -> Result<(), ScenarioError> {
        let spec = self
            .paxos
            .as_ref()
            .ok_or(ScenarioError::MissingSection("paxos", "paxos"))?;
        for node in &self.nodes {
            if let Some(r) = node
                .roles
                .iter()
                .find(|r| !matches!(r, Role::Proposer | Role::Acceptor | Role::Learner))
            {
                return Err(ScenarioError::setting(
                    format!("nodes.{}.roles", node.id),
                    format!(
                        "{} is not a Paxos role (proposer, acceptor, learner)",
                        r.file_name()
                    ),
                ));
            }
        }
        let acceptors = self.nodes_with(Role::Acceptor).len();
        if acceptors == 0 || acceptors > 9 {
            return Err(ScenarioError::setting(
                "nodes",
                format!("{acceptors} acceptors; use 1 to 9 (3, 5, 7 or 9 tolerate 1 to 4 crashes)"),
            ));
        }
        if spec.timeout_us == 0 || spec.timeout_us > 600_000_000 {
            return Err(ScenarioError::setting(
                "paxos.timeout_us",
                "the phase timeout must be between 1 µs and 10 minutes",
            ));
        }
        if let Some(l) = &spec.leader {
            self.resolve(l, "paxos.leader")?;
        }
        let mut seen = Vec::new();
        for p in &spec.proposals {
            let id = self.resolve(&p.node, "paxos.proposals")?;
            if !self.nodes[id.index()].roles.contains(&Role::Proposer) {
                return Err(ScenarioError::setting(
                    "paxos.proposals",
                    format!("{} has no proposer role", p.node),
                ));
            }
            if seen.contains(&id) {
                return Err(ScenarioError::setting(
                    "paxos.proposals",
                    format!("{} already has a proposal; one per proposer", p.node),
                ));
            }
            seen.push(id);
            Value::new(&p.value)
                .map_err(|e| ScenarioError::setting("paxos.proposals.value", e.to_string()))?;
        }
        Ok(())
    }

    /// A checked Paxos scenario's nodes and monitor (`check_paxos` has
    /// said yes).
    fn build_paxos(
        &self,
        names: &Arc<Vec<String>>,
    ) -> Result<(Vec<NodeState>, Monitors), ScenarioError> {
        let spec = self
            .paxos
            .as_ref()
            .ok_or(ScenarioError::MissingSection("paxos", "paxos"))?;
        let mutation: Option<PaxosMutation> = match self.mutation {
            Some(Mutation::Paxos(m)) => Some(m),
            _ => None,
        };
        let acceptors = self.nodes_with(Role::Acceptor);
        let leader = match &spec.leader {
            Some(l) => Some(self.resolve(l, "paxos.leader")?),
            None => None,
        };
        let synod = Arc::new(Synod {
            acceptors: acceptors.clone(),
            everyone: (0..self.nodes.len()).map(|i| NodeId(i as u8)).collect(),
            learners: self.nodes_with(Role::Learner),
            quorum: Synod::majority(acceptors.len()),
            timeout: SimDuration(spec.timeout_us),
            backoff: spec.backoff,
            leader,
            learn_from_votes: spec.learn_from_votes,
            mutation,
        });
        let mut proposers: Vec<Option<Proposer>> = vec![None; self.nodes.len()];
        for p in &spec.proposals {
            let id = self.resolve(&p.node, "paxos.proposals")?;
            let value = Value::new(&p.value).map_err(|_| ScenarioError::Unchecked)?;
            proposers[id.index()] = Some(Proposer::new(value, SimDuration(p.start_us)));
        }
        let nodes = self
            .nodes
            .iter()
            .zip(proposers)
            .map(|(spec, prop)| {
                NodeState::Paxos(PaxosNode::new(
                    synod.clone(),
                    spec.roles.contains(&Role::Acceptor),
                    prop,
                    spec.roles.contains(&Role::Learner),
                ))
            })
            .collect();
        let monitors = Monitors::for_paxos(PaxosMonitor::new(names.clone(), acceptors.len()));
        Ok((nodes, monitors))
    }

    /// The one way a scenario is read from JSON (every reader goes through
    /// it, so the wasm module holds one copy of the deserializer).
    pub fn read(bytes: &[u8]) -> Result<Scenario, crate::json::Error> {
        crate::json::read(bytes)
    }

    /// Parse a scenario from JSON, with a message that says what is wrong.
    pub fn from_json(text: &str) -> Result<Scenario, String> {
        let s =
            Scenario::read(text.as_bytes()).map_err(|e| format!("not a valid scenario: {e}"))?;
        s.validate().map_err(|e| e.to_string())?;
        Ok(s)
    }

    /// Laid out for reading (`trace::pretty` over the compact form: one
    /// serializer in the module).
    pub fn to_json(&self) -> String {
        crate::trace::pretty::pretty(&self.to_json_compact())
    }

    /// The same on one line (autosave, and share links through
    /// `trace::share`): one serializer for the page's first load.
    pub fn to_json_compact(&self) -> String {
        // Not `expect`: its message would format serde_json's error with
        // `Debug` (and its escaping tables) for a failure that cannot come.
        serde_json::to_string(self).unwrap_or_else(|_| unreachable!("a scenario always serializes"))
    }
}

impl Scenario {
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::dist::Latency;

    /// A Multi-Paxos write the client cannot hold (empty, 25 bytes or more,
    /// a key that is not one of the table's) was "recorded" and then dropped
    /// without a word by the client: the scenario refuses it and says why.
    #[test]
    fn a_multi_paxos_write_the_client_cannot_hold_is_refused_with_the_reason() {
        let base = builtin::get("multi-calm").unwrap();
        let with = |key: &str, value: &str| {
            let mut s = base.clone();
            s.faults.push(Scheduled {
                at_us: 1,
                fault: Step::Command(Command::Multipaxos(MpCommand::Put {
                    node: "C1".into(),
                    key: key.into(),
                    value: value.into(),
                })),
            });
            s.build().err().map(|e| e.to_string())
        };
        assert_eq!(with("x", "7"), None);
        for (key, value, says) in [
            ("x", "", "faults.put.value"),
            ("x", " ", "faults.put.value"),
            ("x", &"a".repeat(30), "faults.put.value"),
            ("x", "こんにちは世界です", "faults.put.value"),
            ("q", "7", "faults.put.key"),
            ("x", "a\u{7}", "faults.put.value"),
        ] {
            let e = with(key, value).unwrap_or_else(|| panic!("{key}={value:?} was taken"));
            assert!(e.contains(says), "{key}={value:?}: {e}");
        }
    }

    /// Before any part has arrived the split page builds without the checks
    /// (`checks`) and draws no normal-shaped latency
    /// (`sim::dist::install_shapes`), so everything its first load can make
    /// must pass the checks and use neither:
    /// each built-in Paxos run (the scenario menu, a `#run=` link), with any
    /// seed and any Paxos mutation (the seed field, the mutation menu), and
    /// with a crash or a restart of any of its nodes (the chamber's rows).
    #[test]
    fn what_the_first_load_builds_passes_the_checks() {
        let mut checked = 0;
        for name in builtin::PAXOS_NAMES {
            let base = builtin::get(name).expect("a built-in");
            assert_eq!(base.protocol, Kind::Paxos, "{name}");
            let mut variants = vec![base.clone(), base.clone().with_seed(u64::MAX)];
            for m in Mutation::of(Kind::Paxos) {
                let mut s = base.clone();
                s.mutation = Some(m);
                variants.push(s);
            }
            for node in base.node_names() {
                for (at_us, fault) in [
                    (1, Fault::Crash { node: node.clone() }),
                    (base.stop_at_us / 2, Fault::Restart { node: node.clone() }),
                ] {
                    let mut s = base.clone();
                    s.faults.push(Scheduled {
                        at_us,
                        fault: fault.into(),
                    });
                    variants.push(s);
                }
            }
            for s in variants {
                assert_eq!(s.check(), Ok(()), "{name}");
                let mut latencies = vec![&s.network.latency];
                latencies.extend(s.network.links.iter().filter_map(|l| l.latency.as_ref()));
                latencies.extend(s.faults.iter().filter_map(|f| match &f.fault {
                    Step::Fault(Fault::SetLatency { latency }) => Some(latency),
                    _ => None,
                }));
                for l in latencies {
                    assert!(
                        matches!(
                            l,
                            Latency::Constant { .. }
                                | Latency::Uniform { .. }
                                | Latency::Exponential { .. }
                        ),
                        "{name}: {l:?} is drawn by the parts' code (`sim::dist::install_shapes`)"
                    );
                }
                s.build().expect("it builds");
                checked += 1;
            }
        }
        assert!(checked > 50, "{checked}");
    }

    /// The checks still refuse what a user could type wrong (natively they
    /// run in every build; in the page once a part is here).
    #[test]
    fn the_checks_refuse_a_bad_paxos_section() {
        let base = builtin::get("dueling").expect("a built-in");
        let mut s = base.clone();
        s.paxos.as_mut().unwrap().timeout_us = 0;
        assert!(matches!(s.build(), Err(ScenarioError::BadSetting { .. })));
        let mut s = base.clone();
        let p = s.paxos.as_mut().unwrap().proposals[0].clone();
        s.paxos.as_mut().unwrap().proposals.push(p);
        let e = s.build().err().expect("refused").to_string();
        assert!(e.contains("one per proposer"), "{e}");
        let mut s = base;
        s.paxos.as_mut().unwrap().proposals[0].value = String::new();
        let e = s.build().err().expect("refused").to_string();
        assert!(e.contains("paxos.proposals.value"), "{e}");
    }
}
