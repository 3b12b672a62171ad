//! The model checker: a breadth-first search of every state a small
//! configuration can reach, driving the protocol's REAL handlers.
//!
//! **The world.** A state is each node's protocol state, the timers it has
//! pending, the crashes it has been through, and the set of every message
//! ever sent (`msgs` in `Paxos.tla`). Delivery does not remove a message, so
//! each one can be delivered 0, 1 or many times, in any order, after any
//! delay: never delivering it is loss, delivering it again is duplication,
//! delivering a later one first is reordering. A pending timer may fire at
//! any moment (time is abstracted away, as in TLA+: the handlers run with a
//! fixed clock and a fixed random stream, so the protocol under check must
//! not draw randomness — Paxos with backoff off draws none, and the explorer
//! asserts it). A node's messages to itself do not cross the network: they
//! are handled at once, in order, as part of the same step — as the
//! simulator does ("roles on one machine talk without the network").
//!
//! **Crash.** A reboot is `on_crash` then `on_restart`, as one step, with
//! its timers gone (as in the simulator). A crash followed later by a restart
//! reaches the same states: a node that is down takes no steps, and what was
//! sent to it stays in the set. The number of reboots is bounded.
//!
//! **Exact.** States are compared whole (no fingerprints): each node's
//! state is interned (equal ids ⇔ equal states), the message set is a bit
//! set over interned messages (trimmed of trailing zero words, so equal sets
//! pack equally), and a world state packs into `2n + 1` words plus the bit
//! set; the visited set compares them all. A handler is a pure function of
//! (node, input), so its effect is computed once per distinct (node, state,
//! input) and memoized.
//!
//! **Bounds.** The protocol's [`Spec`] says which states may be expanded
//! (for Paxos: at most so many ballots started); a state past the bound is
//! checked but not expanded. A depth bound and a state budget stop a search
//! that would not end. Breadth-first order makes the first path found to a
//! violation a shortest one.
//!
//! **Resumable.** [`Explorer::run`] does a slice of work and returns, so the
//! page can search without freezing and show progress in between.

use super::Invariant;
use crate::scenario::{Scheduled, Step};
use crate::sim::fault::Fault;
use crate::sim::rng::{Rng, Stream};
use crate::sim::{Ctx, NodeId, Output, Protocol, SimTime};
use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hash, Hasher};

pub mod commit;
pub mod job;
pub mod multipaxos;
pub mod paxos;
pub mod sizes;

/// A broken rule and what broke it.
pub type Found = (Invariant, String);

/// What a protocol brings to the checker: its invariants, its bound, and
/// the witnesses that prove the search reached the interesting states.
pub trait Spec<P: Protocol> {
    /// What the node checks and the bound need to know of the messages.
    type Summary;
    /// Does this message matter to [`Spec::messages`]? Only those are handed
    /// over, and the verdict is memoized per set of them.
    fn watches(&self, msg: &P::Msg) -> bool;
    /// Rules over the watched messages ever sent (from, to, message).
    fn messages(&self, sent: &[(NodeId, NodeId, &P::Msg)], found: &mut Vec<Found>)
        -> Self::Summary;
    /// Rules over the nodes of one state, at `now` (the model's time: zero
    /// unless [`Spec::clock`] lets it pass).
    fn nodes(&self, nodes: &[&P], now: SimTime, summary: &Self::Summary, found: &mut Vec<Found>);
    /// Rules over one handler run of `me`: its state before and after, its outputs.
    fn step(&self, me: NodeId, before: &P, after: &P, out: &[Output<P>], found: &mut Vec<Found>);
    /// May a state with these nodes and messages be expanded further?
    fn within_bounds(&self, nodes: &[&P], summary: &Self::Summary) -> bool;
    /// Names of the witnesses: states the search must reach for "no
    /// violation" to mean something.
    fn witnesses(&self) -> &'static [&'static str];
    /// Which witnesses this state is (bit i for witness i).
    fn witnessed(&self, nodes: &[&P], now: SimTime, summary: &Self::Summary) -> u32;
    /// Time in the model. `None` (the default): abstracted away, every
    /// handler runs at time zero. `Some(clock)`: time passes in ticks — one
    /// more action, [`Action::Tick`], moves every node's clock on together.
    fn clock(&self) -> Option<ModelClock> {
        None
    }
}

/// Time as a model sees it: discrete ticks of one length, every node's clock
/// moving with them (the clocks do not drift apart: a protocol whose safety
/// rests on a lease is checked against message delay, which is unbounded
/// here, not against drift, which the random search draws).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ModelClock {
    /// The length of a tick.
    pub tick: crate::sim::SimDuration,
    /// The most ticks a path may take.
    pub ticks: u32,
}

/// What can happen in a state: a message delivered to its addressee, a
/// timer fired, a node crashed and restarted.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Deliver(u32),
    Fire {
        node: u8,
        timer: u8,
    },
    Reboot {
        node: u8,
    },
    /// Time passes: one tick of the spec's [`ModelClock`], on every node's clock.
    Tick,
}

/// The reboots a state has been through are the low byte of its packed
/// `[reboots | ticks]` word; the ticks that passed, the rest.
const TICK: u32 = 1 << 8;

/// A step of a path as the simulator's script takes it (a scripted
/// network: see `NetworkConfig::scripted`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scripted {
    /// Deliver (a copy of) the message the simulator numbered `send`.
    Deliver { send: u64 },
    /// Fire the node's pending timer of this name.
    Fire { node: NodeId, timer: &'static str },
    /// Crash the node and restart it at once.
    Reboot { node: NodeId },
}

/// Limits of a search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Reboots (crash + restart) in a path.
    pub crashes: u8,
    /// Longest path explored.
    pub max_depth: u32,
    /// Stop (unfinished) after this many states.
    pub max_states: usize,
    /// When to stop early.
    pub stop: Stop,
}

/// When a search stops before it has seen every state.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// At the first violation of any rule.
    First,
    /// Once this rule is broken (others found on the way are kept).
    When(Invariant),
    /// Never: record the shortest path to every rule broken.
    Never,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            crashes: 0,
            max_depth: 500,
            max_states: 60_000_000,
            stop: Stop::When(Invariant::Agreement),
        }
    }
}

/// A violation and the shortest path to it.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    pub invariant: Invariant,
    pub detail: String,
    pub path: Vec<Action>,
}

/// How far a search has got.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    pub states: usize,
    pub transitions: u64,
    /// States checked but not expanded (past the protocol's bound).
    pub cut: u64,
    /// BFS level being expanded.
    pub depth: u32,
    /// States not yet expanded.
    pub frontier: usize,
    pub messages: usize,
    pub node_states: usize,
    /// Distinct sets of watched messages (each checked once).
    pub message_sets: usize,
    pub done: bool,
    /// Stopped by `max_states` or `max_depth` before the end.
    pub truncated: bool,
    /// Stopped by `max_depth` (bounded model checking: every path of up
    /// to that many steps was checked), not by the state limit.
    pub depth_bounded: bool,
}

/// FxHash (rustc's): SipHash's DoS resistance buys nothing in a model checker.
#[derive(Default)]
pub struct Fx(u64);
impl Hasher for Fx {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for c in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            self.write_u64(u64::from_le_bytes(w));
        }
    }
    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    #[inline]
    fn write_u32(&mut self, x: u32) {
        self.write_u64(x as u64);
    }
    #[inline]
    fn write_u8(&mut self, x: u8) {
        self.write_u64(x as u64);
    }
    #[inline]
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}
type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;

/// Numbers things as they are first seen; equal numbers ⇔ equal values.
struct Interner<T> {
    ids: FxMap<T, u32>,
    all: Vec<T>,
}

impl<T: Clone + Eq + Hash> Interner<T> {
    fn new() -> Self {
        Interner {
            ids: FxMap::default(),
            all: Vec::new(),
        }
    }
    fn id(&mut self, x: T) -> u32 {
        if let Some(&id) = self.ids.get(&x) {
            return id;
        }
        self.all.push(x.clone());
        let id = self.all.len() as u32 - 1;
        self.ids.insert(x, id);
        id
    }
}

/// One message on the wire.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Envelope<M> {
    pub from: NodeId,
    pub to: NodeId,
    pub msg: M,
}

/// An open-addressing set of fixed-size records of `u32` words, numbered
/// in the order they are added: the visited states, and the message sets.
struct Table {
    words: Vec<u32>,
    /// Start of each record in `words`, and one past the last.
    starts: Vec<u32>,
    slots: Vec<u32>,
}

const EMPTY: u32 = u32::MAX;

impl Table {
    fn new() -> Self {
        Table {
            words: Vec::new(),
            starts: vec![0],
            slots: vec![EMPTY; 1 << 10],
        }
    }
    fn len(&self) -> usize {
        self.starts.len() - 1
    }
    fn get(&self, k: u32) -> &[u32] {
        &self.words[self.starts[k as usize] as usize..self.starts[k as usize + 1] as usize]
    }
    fn hash(words: &[u32]) -> u64 {
        let mut h = Fx::default();
        h.write_u64(words.len() as u64);
        for w in words {
            h.write_u64(*w as u64);
        }
        h.finish()
    }
    /// The number of `rec`, adding it if new: (number, new?).
    fn insert(&mut self, rec: &[u32]) -> (u32, bool) {
        let mask = self.slots.len() - 1;
        let mut slot = Self::hash(rec) as usize & mask;
        loop {
            let at = self.slots[slot];
            if at == EMPTY {
                break;
            }
            if self.get(at) == rec {
                return (at, false);
            }
            slot = (slot + 1) & mask;
        }
        let k = self.len() as u32;
        self.words.extend_from_slice(rec);
        self.starts.push(self.words.len() as u32);
        self.slots[slot] = k;
        if self.len() * 2 > self.slots.len() {
            self.grow();
        }
        (k, true)
    }
    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        let mut slots = vec![EMPTY; size];
        for k in 0..self.len() as u32 {
            let mut slot = Self::hash(self.get(k)) as usize & (size - 1);
            while slots[slot] != EMPTY {
                slot = (slot + 1) & (size - 1);
            }
            slots[slot] = k;
        }
        self.slots = slots;
    }
}

/// The memoized effect of one step (a handler run, then the node's
/// messages to itself, handled in order).
#[derive(Clone, Copy)]
struct Effect {
    node: u32,
    /// Timers touched (set or cancelled) and set: new = (old & !touched) | set.
    touched: u32,
    set: u32,
    /// The messages it sent: a range of `Explorer::sends`.
    sends: (u32, u32),
    /// Index into `Explorer::step_found` (u32::MAX: it broke nothing).
    found: u32,
}

/// What running one step really did, in the simulator's order.
struct Ran<P: Protocol> {
    node: P,
    /// Every message sent, to itself too, in order.
    sent: Vec<(NodeId, P::Msg)>,
    /// Each handler run's outputs, in order.
    outputs: Vec<Output<P>>,
    found: Vec<Found>,
}

/// Most distinct timer kinds (bits of a node's timer mask).
const MAX_TIMERS: usize = 32;

/// A breadth-first search over the states of `P`.
pub struct Explorer<P: Protocol + Hash + Eq, S: Spec<P>>
where
    P::Msg: Hash + Eq,
    P::Timer: Hash + Eq,
{
    spec: S,
    limits: Limits,
    n: usize,
    nodes: Interner<P>,
    msgs: Interner<Envelope<P::Msg>>,
    /// Is message i watched by the spec?
    watched: Vec<bool>,
    /// Is message i a node's message to itself (never delivered again)?
    local: Vec<bool>,
    timers: Interner<P::Timer>,
    /// Effects per (node, its state, action, ticks passed).
    memo: FxMap<(u8, u32, Action, u32), Effect>,
    step_found: Vec<Vec<Found>>,
    /// The messages of each effect, one range each.
    sends: Vec<u32>,
    /// The watched messages, as a bit set.
    watched_bits: Vec<u32>,
    /// The spec's verdict per set of watched messages (its bit set).
    summary_of: FxMap<Vec<u32>, u32>,
    summaries: Vec<(Vec<Found>, S::Summary)>,
    // The search: packed states `[node ids; n][timer masks; n][reboots | ticks][message bits…]`.
    states: Table,
    parents: Vec<(u32, Action)>,
    /// States past the protocol's bound (checked, not expanded), as bits.
    cut_off: Vec<u64>,
    next: usize,
    level_end: usize,
    progress: Progress,
    violations: Vec<Violation>,
    witnessed: Vec<Option<Vec<Action>>>,
    /// Messages sent by `on_start`, in the order the simulator numbers them.
    init_sends: Vec<u32>,
    scratch: Vec<u32>,
}

impl<P: Protocol + Hash + Eq, S: Spec<P>> Explorer<P, S>
where
    P::Msg: Hash + Eq,
    P::Timer: Hash + Eq,
{
    /// A search from `nodes`, each started (`on_start`) as the simulator does.
    pub fn new(spec: S, nodes: Vec<P>, limits: Limits) -> Self {
        let n = nodes.len();
        assert!(n > 0 && n <= 64, "1 to 64 nodes");
        let witnesses = spec.witnesses().len();
        let mut x = Explorer {
            spec,
            limits,
            n,
            nodes: Interner::new(),
            msgs: Interner::new(),
            watched: Vec::new(),
            local: Vec::new(),
            timers: Interner::new(),
            memo: FxMap::default(),
            step_found: Vec::new(),
            sends: Vec::new(),
            watched_bits: Vec::new(),
            summary_of: FxMap::default(),
            summaries: Vec::new(),
            states: Table::new(),
            parents: Vec::new(),
            cut_off: Vec::new(),
            next: 0,
            level_end: 1,
            progress: Progress::default(),
            violations: Vec::new(),
            witnessed: vec![None; witnesses],
            init_sends: Vec::new(),
            scratch: Vec::new(),
        };
        let mut init = vec![0u32; 2 * n + 1];
        for (i, node) in nodes.into_iter().enumerate() {
            let me = NodeId(i as u8);
            let ran = x.run_step(me, node, SimTime::ZERO, |n, ctx| n.on_start(ctx));
            let (mut touched, mut set) = (0, 0);
            x.timer_effect(&ran.outputs, &mut touched, &mut set);
            for (to, msg) in ran.sent {
                let id = x.msg_id(me, to, msg);
                x.init_sends.push(id);
                set_bit(&mut init, 2 * n + 1, id);
            }
            init[i] = x.nodes.id(ran.node);
            init[n + i] = set;
        }
        trim(&mut init, 2 * n + 1);
        x.add_state(&init, u32::MAX, Action::Reboot { node: 0 });
        x
    }

    pub fn set_max_states(&mut self, n: usize) {
        self.limits.max_states = n;
    }
    pub fn set_max_depth(&mut self, d: u32) {
        self.limits.max_depth = d;
    }
    pub fn progress(&self) -> &Progress {
        &self.progress
    }
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }
    /// The shortest path found to each witness (None: never reached).
    pub fn witnesses(&self) -> Vec<(&'static str, Option<&Vec<Action>>)> {
        self.spec
            .witnesses()
            .iter()
            .zip(&self.witnessed)
            .map(|(n, p)| (*n, p.as_ref()))
            .collect()
    }
    pub fn spec(&self) -> &S {
        &self.spec
    }
    pub fn envelope(&self, m: u32) -> &Envelope<P::Msg> {
        &self.msgs.all[m as usize]
    }
    pub fn timer(&self, t: u8) -> P::Timer {
        self.timers.all[t as usize]
    }

    /// The node an action happens at.
    pub fn actor(&self, a: Action) -> NodeId {
        match a {
            Action::Deliver(m) => self.msgs.all[m as usize].to,
            Action::Fire { node, .. } | Action::Reboot { node } => NodeId(node),
            Action::Tick => NodeId::NET,
        }
    }

    /// The model's time after `ticks` ticks.
    pub fn time_at(&self, ticks: u32) -> SimTime {
        match self.spec.clock() {
            Some(c) => SimTime(c.tick.0 * ticks as u64),
            None => SimTime::ZERO,
        }
    }

    // ----- running the real handlers --------------------------------------

    fn msg_id(&mut self, from: NodeId, to: NodeId, msg: P::Msg) -> u32 {
        let watched = self.spec.watches(&msg);
        let id = self.msgs.id(Envelope { from, to, msg });
        if id as usize == self.watched.len() {
            self.watched.push(watched);
            self.local.push(from == to);
            if watched {
                set_bit(&mut self.watched_bits, 0, id);
            }
        }
        id
    }

    fn timer_bit(&mut self, t: P::Timer) -> u32 {
        let id = self.timers.id(t);
        assert!(
            (id as usize) < MAX_TIMERS,
            "more than {MAX_TIMERS} timer kinds"
        );
        id
    }

    fn timer_effect(&mut self, outputs: &[Output<P>], touched: &mut u32, set: &mut u32) {
        for o in outputs {
            match o {
                Output::SetTimer(t, _) => {
                    let b = 1u32 << self.timer_bit(*t);
                    *touched |= b;
                    *set |= b;
                }
                Output::CancelTimer(t) => {
                    let b = 1u32 << self.timer_bit(*t);
                    *touched |= b;
                    *set &= !b;
                }
                _ => {}
            }
        }
    }

    /// Run one handler with a fixed clock and random stream, then the
    /// messages the node sent itself, in order, each with the spec's step
    /// rules checked on its own before/after.
    fn run_step(
        &self,
        me: NodeId,
        mut node: P,
        now: SimTime,
        first: impl FnOnce(&mut P, &mut Ctx<P>),
    ) -> Ran<P> {
        let fresh = Rng::new(0, Stream::Timers);
        let mut rng = fresh.clone();
        let mut ran = Ran {
            node: node.clone(),
            sent: Vec::new(),
            outputs: Vec::new(),
            found: Vec::new(),
        };
        let mut local: VecDeque<P::Msg> = VecDeque::new();
        let mut run = |node: &mut P,
                       ran: &mut Ran<P>,
                       local: &mut VecDeque<P::Msg>,
                       f: &mut dyn FnMut(&mut P, &mut Ctx<P>)| {
            let before = node.clone();
            let mut out = Vec::new();
            f(node, &mut Ctx::new(me, now, &mut rng, &mut out));
            self.spec.step(me, &before, node, &out, &mut ran.found);
            for o in &out {
                if let Output::Send(to, m) = o {
                    ran.sent.push((*to, m.clone()));
                    if *to == me {
                        local.push_back(m.clone());
                    }
                }
            }
            ran.outputs.extend(out);
        };
        let mut first = Some(first);
        run(&mut node, &mut ran, &mut local, &mut |n, c| {
            (first.take().expect("runs once"))(n, c)
        });
        while let Some(m) = local.pop_front() {
            let mut m = Some(m);
            run(&mut node, &mut ran, &mut local, &mut |n, c| {
                n.on_message(me, m.take().expect("runs once"), c)
            });
        }
        assert!(
            rng == fresh,
            "a protocol under the model checker must draw no randomness"
        );
        ran.node = node;
        ran
    }

    fn run_action(&self, me: NodeId, node: u32, action: Action, ticks: u32) -> Ran<P> {
        let state = self.nodes.all[node as usize].clone();
        let now = self.time_at(ticks);
        match action {
            Action::Deliver(m) => {
                let e = self.msgs.all[m as usize].clone();
                self.run_step(me, state, now, |n, ctx| n.on_message(e.from, e.msg, ctx))
            }
            Action::Fire { timer, .. } => {
                let t = self.timers.all[timer as usize];
                self.run_step(me, state, now, |n, ctx| n.on_timer(t, ctx))
            }
            Action::Reboot { .. } => self.run_step(me, state, now, |n, ctx| {
                n.on_crash();
                n.on_restart(ctx);
            }),
            Action::Tick => unreachable!("a tick runs no handler"),
        }
    }

    /// The effect of `action` on node `me` in interned state `node`.
    #[inline]
    fn effect(&mut self, me: u8, node: u32, action: Action, ticks: u32) -> Effect {
        if let Some(e) = self.memo.get(&(me, node, action, ticks)) {
            return *e;
        }
        let e = self.compute_effect(me, node, action, ticks);
        self.memo.insert((me, node, action, ticks), e);
        e
    }

    #[cold]
    fn compute_effect(&mut self, me: u8, node: u32, action: Action, ticks: u32) -> Effect {
        let id = NodeId(me);
        let ran = self.run_action(id, node, action, ticks);
        // A crash kills the process's timers, as in the simulator.
        let mut touched = if matches!(action, Action::Reboot { .. }) {
            u32::MAX
        } else {
            0
        };
        let mut set = 0;
        self.timer_effect(&ran.outputs, &mut touched, &mut set);
        // Messages to itself were handled already, but they were sent: they
        // join the set (the invariants read it) without being deliverable.
        let start = self.sends.len() as u32;
        for (to, msg) in ran.sent {
            let m = self.msg_id(id, to, msg);
            self.sends.push(m);
        }
        let sends = (start, self.sends.len() as u32);
        let found = if ran.found.is_empty() {
            u32::MAX
        } else {
            self.step_found.push(ran.found);
            self.step_found.len() as u32 - 1
        };
        Effect {
            node: self.nodes.id(ran.node),
            touched,
            set,
            sends,
            found,
        }
    }

    // ----- message sets ---------------------------------------------------

    /// The spec's verdict on the watched messages of a state's bit set.
    fn summary(&mut self, bits: &[u32]) -> u32 {
        let mut key = std::mem::take(&mut self.scratch);
        key.clear();
        key.extend(
            bits.iter()
                .zip(self.watched_bits.iter().chain(std::iter::repeat(&0)))
                .map(|(a, b)| a & b),
        );
        while key.last() == Some(&0) {
            key.pop();
        }
        let k = match self.summary_of.get(key.as_slice()) {
            Some(&k) => k,
            None => {
                let mut sent: Vec<(NodeId, NodeId, &P::Msg)> = Vec::new();
                for (w, &word) in key.iter().enumerate() {
                    let mut b = word;
                    while b != 0 {
                        let e = &self.msgs.all[w * 32 + b.trailing_zeros() as usize];
                        b &= b - 1;
                        sent.push((e.from, e.to, &e.msg));
                    }
                }
                let mut found = Vec::new();
                let summary = self.spec.messages(&sent, &mut found);
                self.summaries.push((found, summary));
                let k = self.summaries.len() as u32 - 1;
                self.summary_of.insert(key.clone(), k);
                k
            }
        };
        self.scratch = key;
        k
    }

    // ----- the search -----------------------------------------------------

    /// Add a state; if new, check it. Returns (number, new?).
    fn add_state(&mut self, words: &[u32], parent: u32, action: Action) -> (u32, bool) {
        let (k, new) = self.states.insert(words);
        if !new {
            return (k, false);
        }
        self.parents.push((parent, action));
        if k as usize / 64 >= self.cut_off.len() {
            self.cut_off.push(0);
        }
        self.progress.states += 1;
        let n = self.n;
        let sum = self.summary(&words[2 * n + 1..]) as usize;
        let mut found = self.summaries[sum].0.clone();
        let nodes: Vec<&P> = words[..n]
            .iter()
            .map(|&i| &self.nodes.all[i as usize])
            .collect();
        let summary = &self.summaries[sum].1;
        let now = self.time_at(words[2 * n] / TICK);
        self.spec.nodes(&nodes, now, summary, &mut found);
        let w = self.spec.witnessed(&nodes, now, summary);
        let within = self.spec.within_bounds(&nodes, summary);
        if !within {
            self.cut_off[k as usize / 64] |= 1 << (k % 64);
        }
        for i in 0..self.witnessed.len() {
            if self.witnessed[i].is_none() && w & (1 << i) != 0 {
                self.witnessed[i] = Some(self.path_to(k));
            }
        }
        for (invariant, detail) in found {
            let path = self.path_to(k);
            self.record(invariant, detail, path);
        }
        (k, true)
    }

    /// The path from the initial state to state `k`.
    pub fn path_to(&self, mut k: u32) -> Vec<Action> {
        let mut p = Vec::new();
        loop {
            let (up, a) = self.parents[k as usize];
            if up == u32::MAX {
                break;
            }
            p.push(a);
            k = up;
        }
        p.reverse();
        p
    }

    fn record(&mut self, invariant: Invariant, detail: String, path: Vec<Action>) {
        if !self.violations.iter().any(|v| v.invariant == invariant) {
            self.violations.push(Violation {
                invariant,
                detail,
                path,
            });
        }
    }

    /// Search for at most `budget` more expanded states. Returns true when
    /// the search is over (done, stopped at a violation, or out of limits).
    pub fn run(&mut self, budget: usize) -> bool {
        let n = self.n;
        let mut s: Vec<u32> = Vec::new();
        let mut next: Vec<u32> = Vec::new();
        let mut spent = 0;
        'search: while self.next < self.parents.len() && spent < budget {
            if self.next == self.level_end {
                self.progress.depth += 1;
                self.level_end = self.parents.len();
                if self.progress.depth >= self.limits.max_depth {
                    // Every path of up to `max_depth` steps is checked; the
                    // rest of the frontier is left unexpanded.
                    self.progress.truncated = true;
                    self.progress.depth_bounded = true;
                    self.next = self.parents.len();
                    break;
                }
            }
            let k = self.next;
            self.next += 1;
            spent += 1;
            if self.cut_off[k / 64] & (1 << (k % 64)) != 0 {
                self.progress.cut += 1;
                continue;
            }
            s.clear();
            s.extend_from_slice(self.states.get(k as u32));
            // Deliveries of the messages in the set, then timers, then
            // reboots, then a tick.
            let deliveries = (s.len() - (2 * n + 1)) * 32;
            let mut a_i = 0;
            loop {
                let a = if a_i < deliveries {
                    let (w, b) = (2 * n + 1 + a_i / 32, a_i % 32);
                    if s[w] >> b == 0 {
                        a_i = (a_i / 32 + 1) * 32; // the rest of this word is empty
                        continue;
                    }
                    if s[w] & (1 << b) == 0 || self.local[a_i] {
                        a_i += 1;
                        continue;
                    }
                    Action::Deliver(a_i as u32)
                } else {
                    let rest = a_i - deliveries;
                    let mut found = None;
                    let mut c = 0;
                    'timers: for i in 0..n {
                        let mut m = s[n + i];
                        while m != 0 {
                            let t = m.trailing_zeros() as u8;
                            m &= m - 1;
                            if c == rest {
                                found = Some(Action::Fire {
                                    node: i as u8,
                                    timer: t,
                                });
                                break 'timers;
                            }
                            c += 1;
                        }
                    }
                    let reboots = if s[2 * n] % TICK < self.limits.crashes as u32 {
                        n
                    } else {
                        0
                    };
                    match found {
                        Some(a) => a,
                        None if rest - c < reboots => Action::Reboot {
                            node: (rest - c) as u8,
                        },
                        None if rest - c == reboots
                            && self.spec.clock().is_some_and(|k| s[2 * n] / TICK < k.ticks) =>
                        {
                            Action::Tick
                        }
                        None => break,
                    }
                };
                a_i += 1;
                next.clear();
                next.extend_from_slice(&s);
                let me = match a {
                    Action::Deliver(m) => self.msgs.all[m as usize].to.0,
                    Action::Fire { node, .. } | Action::Reboot { node } => node,
                    Action::Tick => {
                        next[2 * n] += TICK;
                        self.progress.transitions += 1;
                        self.add_state(&next, k as u32, a);
                        if self.stop_now() {
                            break 'search;
                        }
                        continue;
                    }
                };
                let i = me as usize;
                let e = self.effect(me, s[i], a, s[2 * n] / TICK);
                let mut mask = s[n + i];
                if let Action::Fire { timer, .. } = a {
                    mask &= !(1u32 << timer);
                }
                next[i] = e.node;
                next[n + i] = (mask & !e.touched) | e.set;
                for &m in &self.sends[e.sends.0 as usize..e.sends.1 as usize] {
                    set_bit(&mut next, 2 * n + 1, m);
                }
                if let Action::Reboot { .. } = a {
                    next[2 * n] += 1;
                }
                if next == s && e.found == u32::MAX {
                    continue; // nothing changed: a duplicate the node ignored
                }
                self.progress.transitions += 1;
                self.add_state(&next, k as u32, a);
                if e.found != u32::MAX {
                    let mut path = self.path_to(k as u32);
                    path.push(a);
                    for (inv, d) in self.step_found[e.found as usize].clone() {
                        self.record(inv, d, path.clone());
                    }
                }
                if self.stop_now() {
                    break 'search;
                }
            }
        }
        self.progress.frontier = self.parents.len() - self.next.min(self.parents.len());
        self.progress.messages = self.msgs.all.len();
        self.progress.node_states = self.nodes.all.len();
        self.progress.message_sets = self.summary_of.len();
        self.progress.done = self.next >= self.parents.len();
        self.progress.done
    }

    /// Should the search stop here (a violation it stops at, or the state
    /// limit)? If so, the frontier is dropped.
    fn stop_now(&mut self) -> bool {
        let stop = match self.limits.stop {
            Stop::First => !self.violations.is_empty(),
            Stop::When(inv) => self.violations.iter().any(|v| v.invariant == inv),
            Stop::Never => false,
        };
        if !stop && self.progress.states >= self.limits.max_states {
            self.progress.truncated = true;
        } else if !stop {
            return false;
        }
        self.next = self.parents.len();
        true
    }

    // ----- paths ------------------------------------------------------------

    /// Walk `path` from the initial state, calling `f` with each action
    /// that runs a handler and what running it did (a tick runs none).
    fn walk(&mut self, path: &[Action], mut f: impl FnMut(&mut Self, Action, Ran<P>)) {
        let mut cur: Vec<u32> = self.states.get(0)[..self.n].to_vec();
        let mut ticks = 0;
        for &a in path {
            if a == Action::Tick {
                ticks += 1;
                continue;
            }
            let me = self.actor(a);
            let ran = self.run_action(me, cur[me.index()], a, ticks);
            cur[me.index()] = self.nodes.id(ran.node.clone());
            f(self, a, ran);
        }
    }

    /// `path` as a scenario's faults — one scripted step per millisecond
    /// after the ticks that passed before it (a step at tick `k` falls a few
    /// milliseconds after `k` ticks: every comparison of times the model
    /// made comes out the same, as later steps stay later), a reboot as a
    /// crash and a restart — and the instant the replay stops. `names` are
    /// the scenario's node names.
    pub fn script_faults(
        &mut self,
        path: &[Action],
        names: &[String],
    ) -> (Vec<Scheduled<String>>, u64) {
        let mut faults = Vec::new();
        let mut at_tick = path.iter().scan(0u32, |ticks, a| {
            *ticks += (*a == Action::Tick) as u32;
            Some((*a != Action::Tick).then_some(*ticks))
        });
        let mut steps = 0u64;
        for step in self.script(path) {
            let ticks = at_tick
                .by_ref()
                .flatten()
                .next()
                .expect("a step per action that is not a tick");
            steps += 1;
            let at_us = self.time_at(ticks).0 + steps * 1_000;
            let mut push = |f: Fault<String>| {
                faults.push(Scheduled {
                    at_us,
                    fault: Step::Fault(f),
                })
            };
            match step {
                Scripted::Deliver { send } => push(Fault::Deliver { id: send }),
                Scripted::Fire { node, timer } => push(Fault::Fire {
                    node: names[node.index()].clone(),
                    timer: timer.into(),
                }),
                Scripted::Reboot { node } => {
                    push(Fault::Crash {
                        node: names[node.index()].clone(),
                    });
                    push(Fault::Restart {
                        node: names[node.index()].clone(),
                    });
                }
            }
        }
        let ticks = path.iter().filter(|a| **a == Action::Tick).count() as u32;
        (
            faults,
            self.time_at(ticks).0 + (path.len() as u64 + 2) * 1_000,
        )
    }

    /// The steps of `path` as a simulator script. The simulator numbers
    /// messages as they are sent (and a second delivery of one as a new
    /// copy), so walking the path in order gives each message its number.
    pub fn script(&mut self, path: &[Action]) -> Vec<Scripted> {
        let mut number: FxMap<u32, u64> = FxMap::default();
        let mut delivered: FxMap<u32, ()> = FxMap::default();
        let mut next = 0u64;
        for &m in &self.init_sends {
            number.entry(m).or_insert(next);
            next += 1;
        }
        let mut steps = Vec::new();
        self.walk(path, |x, a, ran| {
            match a {
                Action::Deliver(m) => {
                    steps.push(Scripted::Deliver { send: number[&m] });
                    if delivered.insert(m, ()).is_some() {
                        next += 1; // the copy's number
                    }
                }
                Action::Fire { node, timer } => steps.push(Scripted::Fire {
                    node: NodeId(node),
                    timer: P::timer_name(&x.timer(timer)),
                }),
                Action::Reboot { node } => steps.push(Scripted::Reboot { node: NodeId(node) }),
                Action::Tick => unreachable!("walk skips ticks"),
            }
            let me = x.actor(a);
            for (to, msg) in ran.sent {
                let m = x.msg_id(me, to, msg);
                number.entry(m).or_insert(next);
                next += 1;
            }
        });
        steps
    }

    /// Each step of `path` with the outputs its handlers gave (run again;
    /// a tick gave none).
    pub fn outputs(&mut self, path: &[Action]) -> Vec<(Action, Vec<Output<P>>)> {
        let mut ran = Vec::new();
        self.walk(path, |_, _, r| ran.push(r.outputs));
        let mut ran = ran.into_iter();
        path.iter()
            .map(|&a| {
                (
                    a,
                    if a == Action::Tick {
                        Vec::new()
                    } else {
                        ran.next().unwrap_or_default()
                    },
                )
            })
            .collect()
    }
}

/// Set bit `m` of the bit set that starts at word `base` of `words`,
/// growing it as needed.
#[inline]
fn set_bit(words: &mut Vec<u32>, base: usize, m: u32) {
    let w = base + m as usize / 32;
    if words.len() <= w {
        words.resize(w + 1, 0);
    }
    words[w] |= 1 << (m % 32);
}

/// Drop the trailing zero words of the bit set at `base`, so that equal sets
/// pack equally.
fn trim(words: &mut Vec<u32>, base: usize) {
    while words.len() > base && words.last() == Some(&0) {
        words.pop();
    }
}
