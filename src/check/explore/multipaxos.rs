//! Multi-Paxos under the model checker.
//!
//! **Configuration.** 3 (or 5) replicas and clients that each write once
//! (so the log has as many slots as there are clients, 2 by default: the
//! issue's "2 slots, 3 acceptors"). Messages may be lost, duplicated and
//! reordered; every timeout may fire at any moment — an election, a phase
//! timeout, a heartbeat, a client's retry elsewhere.
//!
//! **Time.** By default it is abstracted away (as for every protocol here:
//! the handlers run with a fixed clock) and the lease is off — the log's
//! safety must not depend on it. **With the lease on** (`--lease`, and for
//! the lease mutations `no-lease-wait` and `lease-no-drift-margin`) time
//! passes in ticks of one second, every clock with them, up to
//! `ticks` ticks (2 by default); the master lease T is two ticks, so a promise given at one
//! tick has run out two ticks later, and a message may be delivered any
//! number of ticks after it was sent (its delay is unbounded). The clocks
//! do not drift in the model: what the drift margin adds against drift is
//! left to the random search, which draws drift; what a lease counted from
//! the reply loses against *delay* is found here.
//!
//! **Bound.** At most `ballots` distinct ballots (in 1a or 2a messages: a
//! leader that skips phase 1 still counts), heartbeat rounds up to
//! `heartbeats` (each round is a new message, without a bound the search
//! would not end), no slot beyond `slots` — and, unlike the Synod's, a
//! **depth**: clients' retries, redirects, heartbeats, decisions and
//! catch-up make the full space of even 2 slots larger than 60 million
//! states, so the search is bounded model checking: *every* schedule of up
//! to `depth` steps (default 12: 2.4 million states, a few seconds), the
//! shortest counterexample if one exists within them. Both log mutations
//! break agreement within 10 steps.
//!
//! **Invariants**, from the messages: per-slot agreement (a majority's 2b
//! for one command in one ballot chooses it; two commands chosen in one slot
//! break it); from the nodes: no two replicas hold different commands as
//! chosen in one slot (their logs are prefixes of one another), and, with
//! the lease on, no two replicas believe at one instant that they hold the
//! master lease (the belief a master serves reads on: its lease runs past
//! the instant, by its own clock — here, the model's).

use super::{Action, Explorer, Found, Limits, ModelClock, Spec, Stop};
use crate::check::Invariant;
use crate::protocol::multipaxos::{Ballot, Cmd, MpMsg, MpMutation, MpNode, Slot};
use crate::protocol::{Mutation, NodeState};
use crate::scenario::multipaxos_spec::{group, ClientScript, MultiSpec, ScriptOp};
use crate::scenario::Scenario;
use crate::sim::{NodeId, Output, Protocol, SimDuration, SimTime};
use crate::trace::multipaxos::cmd_label;

/// What the command line chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MultiModel {
    pub replicas: usize,
    /// Clients, one write each: the slots the log can fill.
    pub slots: usize,
    pub ballots: u32,
    pub heartbeats: u32,
    pub crashes: u8,
    /// Every schedule of up to this many steps.
    pub depth: u32,
    /// The master lease on, and time passing in ticks.
    pub lease: bool,
    /// With the lease on: the most ticks (of [`TICK`]) a schedule takes.
    pub ticks: u32,
    pub mutation: Option<MpMutation>,
}

/// One tick of the model's time, with the lease on.
pub const TICK: SimDuration = SimDuration(1_000_000);
/// The master lease T in the model: two ticks.
pub const MODEL_LEASE: SimDuration = SimDuration(2 * TICK.0);

impl Default for MultiModel {
    /// 3 replicas, 2 slots, 2 ballots (one takeover), one heartbeat round
    /// (the one a new leader sends at once), 12 steps: a search of seconds
    /// that reaches a slot re-proposed and chosen again by a new leader.
    fn default() -> Self {
        MultiModel {
            replicas: 3,
            slots: 2,
            ballots: 2,
            heartbeats: 1,
            crashes: 0,
            depth: 12,
            lease: false,
            ticks: 2,
            mutation: None,
        }
    }
}

pub type MultiExplorer = Explorer<MpNode, MultiChecks>;

impl MultiModel {
    /// Check the numbers; every problem named.
    pub fn validate(&self) -> Result<(), String> {
        if !matches!(self.replicas, 3 | 5) {
            return Err(format!("{} replicas: choose 3 or 5", self.replicas));
        }
        if !(1..=3).contains(&self.slots) {
            return Err(format!("{} slots: choose 1 to 3", self.slots));
        }
        if !(1..=3).contains(&self.ballots) {
            return Err(format!("{} ballots: choose 1 to 3", self.ballots));
        }
        if self.heartbeats > 3 {
            return Err(format!(
                "{} heartbeat rounds: choose 0 to 3",
                self.heartbeats
            ));
        }
        if !(1..=16).contains(&self.depth) {
            return Err(format!("depth {}: choose 1 to 16 steps", self.depth));
        }
        if self.crashes > 2 {
            return Err(format!("{} crashes: choose 0 to 2", self.crashes));
        }
        if self.ticks > 6 {
            return Err(format!("{} ticks: choose 0 to 6", self.ticks));
        }
        if let Some(m @ (MpMutation::NoLeaseWait | MpMutation::LeaseNoDriftMargin)) = self.mutation
        {
            if !self.lease {
                return Err(format!(
                    "{} is about the master lease, a statement about time: check it with the lease on and time passing (--lease)",
                    m.as_str()
                ));
            }
        }
        Ok(())
    }

    /// The model for a mutation: the lease on (and one slot, which is all a
    /// master lease needs, so that the takeover fits the depth) for the
    /// lease mutations, the default otherwise.
    pub fn for_mutation(mutation: Option<MpMutation>) -> Self {
        let lease = matches!(
            mutation,
            Some(MpMutation::NoLeaseWait | MpMutation::LeaseNoDriftMargin)
        );
        let base = if lease {
            Self::with_lease()
        } else {
            Self::default()
        };
        MultiModel { mutation, ..base }
    }

    /// The lease on: 3 replicas, 1 slot, 2 ballots (one takeover), one lease
    /// round per master, up to 2 ticks (one lease) and 12 steps — the
    /// shortest takeover under the lease: a master's lease, a lease's time,
    /// an election and a lease round of the next (4.3 million states, a few
    /// seconds).
    pub fn with_lease() -> Self {
        MultiModel {
            slots: 1,
            lease: true,
            ..Self::default()
        }
    }

    /// The scenario whose nodes the search starts from (and whose scripted
    /// twin replays a counterexample): the lease off, each client writing
    /// once at once.
    pub fn scenario(&self, name: &str) -> Scenario {
        const KEYS: [&str; 3] = ["x", "y", "z"];
        let clients = (0..self.slots)
            .map(|c| ClientScript {
                node: format!("C{}", c + 1),
                ops: vec![ScriptOp::put(0, KEYS[c], &(c + 1).to_string())],
            })
            .collect();
        let lease_us = self.lease.then_some(MODEL_LEASE.0);
        let spec = MultiSpec {
            lease_us,
            window: self.slots as u32,
            clients,
            ..MultiSpec::default()
        };
        let mut s = group(name, self.replicas, self.slots, spec);
        s.mutation = self.mutation.map(Mutation::Multipaxos);
        s
    }

    pub fn nodes(&self) -> Vec<MpNode> {
        let world = self
            .scenario("model")
            .build()
            .expect("the model's scenario is valid");
        world
            .nodes
            .into_iter()
            .map(|n| match n {
                NodeState::Multipaxos(m) => m,
                _ => unreachable!("a Multi-Paxos scenario builds Multi-Paxos nodes"),
            })
            .collect()
    }

    pub fn checks(&self) -> MultiChecks {
        MultiChecks {
            names: self.scenario("model").node_names(),
            majority: self.replicas / 2 + 1,
            ballots: self.ballots,
            heartbeats: self.heartbeats,
            slots: self.slots as u32,
            clock: self.lease.then_some(ModelClock {
                tick: TICK,
                ticks: self.ticks,
            }),
        }
    }

    /// A search of this configuration.
    pub fn explorer(&self, stop: Stop) -> MultiExplorer {
        let limits = Limits {
            crashes: self.crashes,
            stop,
            max_depth: self.depth,
            ..Limits::default()
        };
        Explorer::new(self.checks(), self.nodes(), limits)
    }

    /// The scenario that replays `path`: the same nodes on a scripted
    /// network, one step of the script per millisecond (after the ticks
    /// passed before it).
    pub fn counterexample(&self, x: &mut MultiExplorer, path: &[Action], name: &str) -> Scenario {
        let mut s = self.scenario(name);
        s.network.scripted = true;
        (s.faults, s.stop_at_us) = x.script_faults(path, &s.node_names());
        s
    }
}

const LEASE_WITNESSES: &[&str] = &[
    "a master held the lease",
    "a new master held the lease after the old one's ran out",
];

const WITNESSES: &[&str] = &[
    "a slot was chosen",
    "every slot was chosen",
    "one slot was chosen in two ballots (a new leader re-proposed it)",
];

/// The invariants and bound of a Multi-Paxos group.
#[derive(Clone, Debug)]
pub struct MultiChecks {
    names: Vec<String>,
    majority: usize,
    ballots: u32,
    heartbeats: u32,
    slots: u32,
    clock: Option<ModelClock>,
}

/// What the watched messages of a state say.
#[derive(Clone, Debug, Default)]
pub struct Wire {
    /// (slot, ballot, command) chosen: a majority's 2b.
    pub chosen: Vec<(Slot, Ballot, Cmd)>,
    /// Distinct ballots in 1a and 2a messages.
    pub ballots: u32,
    /// The highest heartbeat round sent.
    pub heartbeat_round: u32,
    /// The highest slot proposed.
    pub top_slot: u32,
}

impl MultiChecks {
    fn name(&self, n: NodeId) -> &str {
        self.names.get(n.index()).map(|s| s.as_str()).unwrap_or("?")
    }
}

impl Spec<MpNode> for MultiChecks {
    type Summary = Wire;

    fn watches(&self, msg: &MpMsg) -> bool {
        matches!(
            msg,
            MpMsg::Prepare { .. }
                | MpMsg::Accept { .. }
                | MpMsg::Accepted { .. }
                | MpMsg::Heartbeat { .. }
        )
    }

    fn messages(&self, sent: &[(NodeId, NodeId, &MpMsg)], found: &mut Vec<Found>) -> Wire {
        let mut ballots: Vec<Ballot> = Vec::new();
        let mut wire = Wire::default();
        // (slot, ballot, command, acceptors as bits)
        let mut votes: Vec<(Slot, Ballot, Cmd, u64)> = Vec::new();
        for &(from, _, m) in sent {
            match m {
                MpMsg::Prepare { ballot, .. } | MpMsg::Accept { ballot, .. }
                    if !ballots.contains(ballot) =>
                {
                    ballots.push(*ballot)
                }
                _ => {}
            }
            match m {
                MpMsg::Accept { slot, .. } => wire.top_slot = wire.top_slot.max(slot.0),
                MpMsg::Accepted { ballot, slot, cmd } => match votes
                    .iter_mut()
                    .find(|e| (e.0, e.1, e.2) == (*slot, *ballot, *cmd))
                {
                    Some(e) => e.3 |= 1 << from.index(),
                    None => votes.push((*slot, *ballot, *cmd, 1 << from.index())),
                },
                MpMsg::Heartbeat { round, .. } => {
                    wire.heartbeat_round = wire.heartbeat_round.max(*round)
                }
                _ => {}
            }
        }
        votes.retain(|e| e.3.count_ones() as usize >= self.majority);
        wire.chosen = votes.iter().map(|e| (e.0, e.1, e.2)).collect();
        for (i, a) in wire.chosen.iter().enumerate() {
            if let Some(b) = wire.chosen[i + 1..]
                .iter()
                .find(|b| b.0 == a.0 && b.2 != a.2)
            {
                found.push((
                    Invariant::Agreement,
                    format!(
                        "slot {} chose {} in ballot {} and {} in ballot {}",
                        a.0 .0,
                        cmd_label(&a.2),
                        crate::trace::label::ballot(&self.names, a.1),
                        cmd_label(&b.2),
                        crate::trace::label::ballot(&self.names, b.1)
                    ),
                ));
            }
        }
        wire.ballots = ballots.len() as u32;
        wire
    }

    fn nodes(&self, nodes: &[&MpNode], now: SimTime, _wire: &Wire, found: &mut Vec<Found>) {
        let replicas: Vec<(usize, &crate::protocol::multipaxos::Replica)> = nodes
            .iter()
            .enumerate()
            .filter_map(|(i, n)| n.as_replica().map(|r| (i, r)))
            .collect();
        let masters: Vec<(usize, SimTime)> = replicas
            .iter()
            .filter_map(|(i, r)| {
                r.lease
                    .filter(|&until| until > now)
                    .map(|until| (*i, until))
            })
            .collect();
        if let [(a, until_a), (b, until_b), ..] = masters[..] {
            let secs = |t: SimTime| format!("{:.2} s", t.0 as f64 / 1e6);
            found.push((
                Invariant::SingleMaster,
                format!(
                    "at {} {} believes it holds the master lease until {} and {} until {}",
                    secs(now),
                    self.name(NodeId(a as u8)),
                    secs(until_a),
                    self.name(NodeId(b as u8)),
                    secs(until_b)
                ),
            ));
        }
        for (k, (i, a)) in replicas.iter().enumerate() {
            for (j, b) in &replicas[k + 1..] {
                if let Some((slot, x)) = a
                    .chosen
                    .iter()
                    .find(|(s, x)| b.chosen.get(s).is_some_and(|y| y != *x))
                {
                    found.push((
                        Invariant::LogPrefix,
                        format!(
                            "{} holds {} in slot {} and {} holds {}",
                            self.name(NodeId(*i as u8)),
                            cmd_label(x),
                            slot.0,
                            self.name(NodeId(*j as u8)),
                            cmd_label(&b.chosen[slot])
                        ),
                    ));
                    return;
                }
            }
        }
    }

    fn step(
        &self,
        _me: NodeId,
        _before: &MpNode,
        _after: &MpNode,
        _out: &[Output<MpNode>],
        _found: &mut Vec<Found>,
    ) {
    }

    fn within_bounds(&self, _nodes: &[&MpNode], wire: &Wire) -> bool {
        wire.ballots <= self.ballots
            && wire.heartbeat_round <= self.heartbeats
            && wire.top_slot <= self.slots
    }

    fn witnesses(&self) -> &'static [&'static str] {
        if self.clock.is_some() {
            LEASE_WITNESSES
        } else {
            WITNESSES
        }
    }

    fn clock(&self) -> Option<ModelClock> {
        self.clock
    }

    fn witnessed(&self, nodes: &[&MpNode], now: SimTime, wire: &Wire) -> u32 {
        if self.clock.is_some() {
            // A master whose lease runs past now, and another whose belief
            // is still on record but has run out: a takeover under the lease.
            let leases: Vec<(usize, SimTime)> = nodes
                .iter()
                .enumerate()
                .filter_map(|(i, n)| n.as_replica().and_then(|r| r.lease).map(|u| (i, u)))
                .collect();

            let held = leases.iter().any(|l| l.1 > now);
            let after = leases
                .iter()
                .any(|a| a.1 > now && leases.iter().any(|b| b.0 != a.0 && b.1 <= now));
            return held as u32 | (after as u32) << 1;
        }
        let any = !wire.chosen.is_empty();
        let every = (1..=self.slots).all(|s| wire.chosen.iter().any(|c| c.0 == Slot(s)));
        let twice = wire.chosen.iter().enumerate().any(|(i, a)| {
            wire.chosen[i + 1..]
                .iter()
                .any(|b| b.0 == a.0 && b.1 != a.1)
        });
        any as u32 | (every as u32) << 1 | (twice as u32) << 2
    }
}

impl MultiExplorer {
    /// Describe a path, one line per step: what happened and what it caused.
    pub fn render(&mut self, path: &[Action]) -> String {
        let names = self.spec().names.clone();
        let name = |n: NodeId| names.get(n.index()).cloned().unwrap_or_default();
        let mut text = String::new();
        for (k, (a, out)) in self.outputs(path).into_iter().enumerate() {
            text += &format!("\n  {:>2}. {}", k + 1, self.describe(a));
            let facts: Vec<String> = out
                .into_iter()
                .filter_map(|o| match o {
                    Output::Send(to, m) if to != self.actor(a) => {
                        Some(format!("{}→{}", label(&names, &m), name(to)))
                    }
                    _ => None,
                })
                .collect();
            if !facts.is_empty() {
                text += &format!("   ⇒ {}", facts.join(", "));
            }
        }
        text
    }

    /// One step, in words.
    pub fn describe(&self, a: Action) -> String {
        let names = &self.spec().names;
        let name = |n: NodeId| names.get(n.index()).cloned().unwrap_or_default();
        match a {
            Action::Deliver(m) => {
                let e = self.envelope(m);
                format!("{}→{} {}", name(e.from), name(e.to), label(names, &e.msg))
            }
            Action::Fire { node, timer } => format!(
                "{}: timer {} fires",
                name(NodeId(node)),
                MpNode::timer_name(&self.timer(timer))
            ),
            Action::Reboot { node } => format!("{} crashes and restarts", name(NodeId(node))),
            Action::Tick => format!("time passes: one tick ({} s)", TICK.0 / 1_000_000),
        }
    }
}

fn label(names: &[String], m: &MpMsg) -> String {
    crate::trace::label::msg(names, &crate::protocol::Msg::Multipaxos(m.clone()))
}
