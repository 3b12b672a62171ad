//! Exhaustive model check of a small Synod, driving the crate's REAL
//! `PaxosNode` state machines (no re-implementation of the algorithm).
//!
//! **Configuration.** Legislators Α, Β, Γ are all acceptors and learners; Α
//! and Β also propose α and β. Quorum 2 of 3. `backoff: false`: nothing random
//! is drawn (handlers get a fixed `Rng`, asserted untouched). No president, so
//! `LeaderWatch` never arms. A pending timer may fire at any moment, as any
//! enabled action may in `Paxos.tla`; clocks play no part.
//!
//! **The network is the set of every message ever sent** (`msgs` in
//! `Paxos.tla`). Delivery does not remove a message, so each one can be
//! delivered 0, 1 or many times, in any order, after any delay: never
//! delivering it IS loss, delivering it again IS duplication. A "drop" action
//! would add no behaviour (a dropped message is one never picked) and only
//! multiply states by the subsets of messages in flight, which is why
//! stateright's lossy + duplicating network explodes while its
//! duplicating-only one is equivalent for safety. A node's messages to itself
//! use this network too; the simulator always delivers those, so letting them
//! be late or lost only adds behaviours, which is sound for safety.
//!
//! **Crash.** `Reboot` = `on_crash` + `on_restart` as one step (timers die,
//! as in `Simulator::apply_fault`). Splitting it would add nothing: a node
//! that is down takes no steps, and messages sent to it stay in the set, so a
//! crash at t1 and a restart at t2 reach the same states as idling until t2
//! and then rebooting. `on_crash` changes no ledger, so the invariants hold
//! while a node is down exactly when they held just before the crash.
//!
//! **Why a hand-written BFS and not stateright.** The roles are sans-IO and
//! `Clone + Eq + Hash`, so a small search drives them directly. stateright
//! would need an `Actor` adapter from `Ctx`/`Output` to its `Out`, a history
//! for the 2b set, `fn`-pointer properties, and ~44 more crates; and with
//! several properties its BFS does not keep the shortest path. Here BFS order
//! gives the SHORTEST counterexample for each invariant. Two things make it
//! fast, and neither changes what is explored:
//! - a world state is 32 bytes: each `PaxosNode` is interned (whole nodes are
//!   compared, so equal ids ⇔ equal nodes), the network is a bit set over
//!   interned messages, and the visited set is exact (no fingerprints);
//! - a handler is a pure function of (node, input): it is sans-IO, with fixed
//!   `me`, time and `Rng`. So the real handler runs once per distinct (node,
//!   input), and its effect (new node, timers, messages) is memoized.
//!
//! **Bound.** The proposers' rounds (`last_tried`) add up to at most 2: both
//! run round 1, or one retries (or jumps) to round 2. A state past that is
//! checked but not expanded. At most one reboot, of any legislator. Measured
//! on 2 busy cores, release: no reboot, 970 394 states in ~2 s; one reboot,
//! 9 263 621 states in ~15 s CPU, 0.8 GB; the whole file ~24 s wall (debug
//! build: ~47 s). Rounds adding up to 3 did not finish in 4 minutes (7.4 GB,
//! tens of millions of states): out of reach for a test.
//!
//! **Invariants** (DOMAIN.md §9), in every reachable state or step: Agreement
//! (chosen = some ballot has 2b(b, v) from a majority, as in `Voting.tla`),
//! one value per ballot, `max_vbal ≤ max_bal`, no 2b(b) from an acceptor with
//! `max_bal > b`, no promise ever goes down, learner consistency.
//!
//! `cargo test --release --test exhaustive -- --nocapture` prints the numbers
//! and every counterexample.

use paxos_island::check::{Invariant, Mutation};
use paxos_island::protocol::Kind;
use paxos_island::protocol::paxos::{Ballot, Choice, Members, PaxosMsg, PaxosNode, PaxosNote, PaxosTimer};
use paxos_island::protocol::paxos::{Phase, Proposer, Synod, Vote};
use paxos_island::protocol::Value;
use paxos_island::sim::rng::{Rng, Stream};
use paxos_island::sim::{Ctx, NodeId, SimDuration, SimTime};
type Output = paxos_island::sim::Output<PaxosNode>;
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// FxHash (rustc's): SipHash's DoS resistance buys nothing in a model checker.
#[derive(Default)]
struct Fx(u64);
impl Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        for c in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}
type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;
fn fx(x: &impl Hash) -> u64 {
    let mut h = Fx::default();
    x.hash(&mut h);
    h.finish()
}

/// Numbers things as they are first seen. The table compares whole values,
/// so equal numbers ⇔ equal values.
struct Interner<T> {
    ids: FxMap<T, u16>,
    all: Vec<T>,
}
impl<T: Clone + Eq + Hash> Interner<T> {
    fn id(&mut self, x: T, limit: usize) -> u16 {
        if let Some(&id) = self.ids.get(&x) {
            return id;
        }
        assert!(self.all.len() < limit, "more than {limit} distinct values: raise the limit");
        self.all.push(x.clone());
        self.ids.insert(x, self.all.len() as u16 - 1);
        self.all.len() as u16 - 1
    }
}

const N: usize = 3;
const NAMES: [&str; N] = ["Α", "Β", "Γ"];
const TIMERS: [PaxosTimer; 4] =
    [PaxosTimer::Start, PaxosTimer::PhaseTimeout, PaxosTimer::Backoff, PaxosTimer::LeaderWatch];

fn bit(t: PaxosTimer) -> u8 {
    1 << TIMERS.iter().position(|&x| x == t).unwrap()
}
fn name(n: NodeId) -> &'static str {
    NAMES[n.index()]
}
fn bal(b: Ballot) -> String {
    format!("({},{})", b.round, name(b.node))
}
fn members(m: Members) -> String {
    m.iter().map(name).collect()
}
fn max_bal(n: &PaxosNode) -> Option<Ballot> {
    n.acceptor.as_ref().and_then(|a| a.max_bal)
}
fn show(m: &PaxosMsg) -> String {
    let vote = |v: Option<Vote>| v.map_or("none".into(), |v| format!("{}={}", bal(v.ballot), v.value));
    match *m {
        PaxosMsg::Prepare { ballot } => format!("1a prepare {}", bal(ballot)),
        PaxosMsg::Promise { ballot, last_vote } => format!("1b promise {}, last vote {}", bal(ballot), vote(last_vote)),
        PaxosMsg::Accept { ballot, value } => format!("2a accept {}={value}", bal(ballot)),
        PaxosMsg::Accepted { ballot, value } => format!("2b accepted {}={value}", bal(ballot)),
        PaxosMsg::Decided { ballot, value } => format!("3 decided {}={value}", bal(ballot)),
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
struct Envelope {
    from: NodeId,
    to: NodeId,
    msg: PaxosMsg,
}

/// A set of interned messages, one bit each (so at most 128 distinct ones).
type MsgSet = u128;
fn members_of(set: MsgSet) -> impl Iterator<Item = u16> {
    let mut bits = set;
    std::iter::from_fn(move || {
        let b = bits.trailing_zeros() as u16;
        bits &= bits.wrapping_sub(1); // clear the lowest set bit
        (b < 128).then_some(b)
    })
}

/// The world (32 bytes): each node's interned `PaxosNode`, its pending
/// timers (a bit per `PaxosTimer`), the reboots so far, every message sent.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct State {
    nodes: [u16; N],
    timers: [u8; N],
    reboots: u8,
    sent: MsgSet,
}

/// What can happen to a node.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Input {
    Deliver(u16),
    Fire(PaxosTimer),
    /// Crash, then restart (see the header for why this is one step).
    Reboot,
}

#[derive(Copy, Clone, Debug, PartialEq)]
struct Action {
    node: NodeId,
    input: Input,
}

type Found = Vec<(Invariant, String)>;

/// The memoized effect of one handler run: the new node, the timers it set
/// or cancelled (new = (old & !touched) | set), the messages it sent, and
/// the rules the step broke.
#[derive(Clone)]
struct Effect {
    node: u16,
    touched: u8,
    set: u8,
    sends: MsgSet,
    found: Found,
}

#[derive(Clone, Copy, Debug)]
struct Bounds {
    /// The most the proposers' `last_tried` may add up to in an expanded state.
    rounds: u32,
    reboots: u8,
}

struct Checker {
    synod: Arc<Synod>,
    mutation: Option<Mutation>,
    bounds: Bounds,
    msgs: Interner<Envelope>,
    /// The 2a and 2b messages, which the state invariants read.
    votes: MsgSet,
    nodes: Interner<PaxosNode>,
    memo: FxMap<(NodeId, u16, Input), Effect>,
    /// Findings of the message-only invariants, and the chosen values, per 2a/2b set.
    msg_checks: FxMap<MsgSet, (Found, Vec<Value>)>,
}

impl Checker {
    fn new(mutation: Option<Mutation>, bounds: Bounds) -> Self {
        let all: Vec<NodeId> = (0..N as u8).map(NodeId).collect();
        let synod = Arc::new(Synod {
            acceptors: all.clone(),
            everyone: all.clone(),
            learners: all,
            quorum: Synod::majority(N),
            timeout: SimDuration::from_ms(500),
            backoff: false,
            leader: None,
            learn_from_votes: false,
            mutation: match mutation {
                Some(Mutation::Paxos(m)) => Some(m),
                _ => None,
            },
        });
        let (msgs, nodes) =
            (Interner { ids: FxMap::default(), all: vec![] }, Interner { ids: FxMap::default(), all: vec![] });
        let (votes, memo, msg_checks) = Default::default();
        Checker { synod, mutation, bounds, msgs, votes, nodes, memo, msg_checks }
    }

    fn ctx_run(&self, me: NodeId, f: impl FnOnce(&mut Ctx<PaxosNode>)) -> Vec<Output> {
        let fresh = Rng::new(0, Stream::Timers);
        let (mut rng, mut out) = (fresh.clone(), Vec::new());
        f(&mut Ctx::new(me, SimTime::ZERO, &mut rng, &mut out));
        assert_eq!(rng, fresh, "with backoff off the Synod must draw no randomness");
        out
    }

    /// Run one REAL handler of `me` on a copy of node state `node`.
    fn run(&self, me: NodeId, node: u16, input: Input) -> (PaxosNode, Vec<Output>) {
        let mut n = self.nodes.all[node as usize].clone();
        let out = self.ctx_run(me, |ctx| match input {
            Input::Deliver(id) => n.on_message(self.msgs.all[id as usize].from, self.msgs.all[id as usize].msg, ctx),
            Input::Fire(t) => n.on_timer(t, ctx),
            Input::Reboot => {
                n.on_crash();
                n.on_restart(ctx);
            }
        });
        (n, out)
    }

    /// The effect of `input` on node `me` in state `node`, computed once.
    fn effect(&mut self, me: NodeId, node: u16, input: Input) -> Effect {
        if let Some(e) = self.memo.get(&(me, node, input)) {
            return e.clone();
        }
        let (n, out) = self.run(me, node, input);
        // A crash kills the process's timers, as in `Simulator::apply_fault`.
        let touched = if input == Input::Reboot { 0xff } else { 0 };
        let mut e = Effect { node: 0, touched, set: 0, sends: 0, found: Vec::new() };
        for o in out {
            match o {
                Output::Send(to, msg) => {
                    // Checked against the state after the handler, as the simulator's monitor does.
                    if let (PaxosMsg::Accepted { ballot: b, .. }, Some(m)) = (msg, max_bal(&n)) {
                        if m > b {
                            let d = format!("{} sends 2b in {} after promising {}", name(me), bal(b), bal(m));
                            e.found.push((Invariant::PromiseMonotonic, d));
                        }
                    }
                    let id = self.msgs.id(Envelope { from: me, to, msg }, 128);
                    if matches!(msg, PaxosMsg::Accept { .. } | PaxosMsg::Accepted { .. }) {
                        self.votes |= 1 << id;
                    }
                    e.sends |= 1 << id;
                }
                Output::SetTimer(t, _) => (e.touched, e.set) = (e.touched | bit(t), e.set | bit(t)),
                Output::CancelTimer(t) => (e.touched, e.set) = (e.touched | bit(t), e.set & !bit(t)),
                Output::Note(PaxosNote::LearnConflict { have, told }) => {
                    let d = format!("{} has {have} in its ledger and is told {told} passed", name(me));
                    e.found.push((Invariant::LearnerConsistency, d));
                }
                _ => {}
            }
        }
        if let Some(was) = max_bal(&self.nodes.all[node as usize]).filter(|&w| max_bal(&n) < Some(w)) {
            let d = format!("{}'s promise went down from {} to {:?}", name(me), bal(was), max_bal(&n));
            e.found.push((Invariant::PromiseMonotonic, d));
        }
        e.node = self.nodes.id(n, 1 << 16);
        self.memo.insert((me, node, input), e.clone());
        e
    }

    fn initial(&mut self) -> State {
        let mut s = State { nodes: [0; N], timers: [0; N], reboots: 0, sent: 0 };
        for (i, decree) in [Some("α"), Some("β"), None].into_iter().enumerate() {
            let p = decree.map(|v| Proposer::new(Value::new(v).unwrap(), SimDuration::ZERO));
            let mut n = PaxosNode::new(self.synod.clone(), true, p, true);
            for o in self.ctx_run(NodeId(i as u8), |ctx| n.on_start(ctx)) {
                match o {
                    Output::SetTimer(t, _) => s.timers[i] |= bit(t),
                    Output::Note(_) => {}
                    other => panic!("unexpected output at start: {other:?}"),
                }
            }
            s.nodes[i] = self.nodes.id(n, 1 << 16);
        }
        s
    }

    /// Take action `a` in `s`: `None` if it is disabled, or changes nothing
    /// and breaks nothing (e.g. a duplicate the node ignores).
    fn step(&mut self, s: &State, a: Action) -> Option<(State, Found)> {
        let i = a.node.index();
        let enabled = match a.input {
            Input::Deliver(_) => true,
            Input::Fire(t) => s.timers[i] & bit(t) != 0,
            Input::Reboot => s.reboots < self.bounds.reboots,
        };
        if !enabled {
            return None;
        }
        let e = self.effect(a.node, s.nodes[i], a.input);
        let mut n = *s;
        if let Input::Fire(t) = a.input {
            n.timers[i] &= !bit(t); // a timer is gone once it has fired
        }
        n.nodes[i] = e.node;
        n.timers[i] = (n.timers[i] & !e.touched) | e.set;
        n.sent |= e.sends;
        n.reboots += (a.input == Input::Reboot) as u8;
        (n != *s || !e.found.is_empty()).then_some((n, e.found))
    }

    fn enabled(&self, s: &State) -> impl Iterator<Item = Action> + '_ {
        let deliveries =
            members_of(s.sent).map(|id| Action { node: self.msgs.all[id as usize].to, input: Input::Deliver(id) });
        let inputs = TIMERS.into_iter().map(Input::Fire).chain([Input::Reboot]);
        deliveries
            .chain((0..N as u8).flat_map(move |i| inputs.clone().map(move |input| Action { node: NodeId(i), input })))
    }

    /// `chosen` as in Voting.tla: (b, v, voters) where a majority has sent 2b(b, v).
    fn chosen(&self, s: &State) -> Vec<(Ballot, Value, Members)> {
        let mut votes: Vec<(Ballot, Value, Members)> = Vec::new();
        for e in members_of(s.sent & self.votes).map(|id| self.msgs.all[id as usize]) {
            if let PaxosMsg::Accepted { ballot, value } = e.msg {
                match votes.iter_mut().find(|x| (x.0, x.1) == (ballot, value)) {
                    Some(x) => x.2.insert(e.from),
                    None => votes.push((ballot, value, Members(1 << e.from.index()))),
                }
            }
        }
        votes.retain(|x| x.2.len() >= Synod::majority(N));
        votes
    }

    /// The state invariants. The part that reads only the 2a/2b messages
    /// is memoized per set of them (there are few).
    fn check(&mut self, s: &State) -> Found {
        let votes = s.sent & self.votes;
        if !self.msg_checks.contains_key(&votes) {
            let mut found = Vec::new();
            let chosen = self.chosen(s);
            if chosen.iter().any(|c| c.1 != chosen[0].1) {
                let list: Vec<String> =
                    chosen.iter().map(|(b, v, m)| format!("{v} in {} by {}", bal(*b), members(*m))).collect();
                found.push((Invariant::Agreement, format!("two decrees chosen: {}", list.join(", "))));
            }
            let mut per_ballot: Vec<(Ballot, Value)> = Vec::new();
            for m in members_of(votes).map(|id| self.msgs.all[id as usize].msg) {
                let (b, v) = (m.ballot(), m.value().unwrap());
                match per_ballot.iter().find(|x| x.0 == b) {
                    Some(&(_, w)) if w != v => {
                        found.push((Invariant::OneValuePerBallot, format!("{} carries {w} and {v}", bal(b))))
                    }
                    Some(_) => {}
                    None => per_ballot.push((b, v)),
                }
            }
            self.msg_checks.insert(votes, (found, chosen.iter().map(|c| c.1).collect()));
        }
        let (mut found, chosen) = self.msg_checks[&votes].clone();
        let mut learned: Option<(NodeId, Value)> = None;
        for (i, &id) in s.nodes.iter().enumerate() {
            let (me, node) = (NodeId(i as u8), &self.nodes.all[id as usize]);
            if node.acceptor.as_ref().is_some_and(|a| a.max_vbal > a.max_bal) {
                found.push((Invariant::VoteBelowPromise, format!("{}'s maxVBal is above its maxBal", name(me))));
            }
            let Some(v) = node.learned() else { continue };
            if !chosen.contains(&v) {
                found.push((Invariant::LearnerConsistency, format!("{} learned {v}, which is not chosen", name(me))));
            }
            match learned {
                Some((o, w)) if w != v => found.push((
                    Invariant::LearnerConsistency,
                    format!("{} learned {v}, {} learned {w}", name(me), name(o)),
                )),
                _ => learned = Some((me, v)),
            }
        }
        found
    }

    /// Breadth-first search of every state within the bounds. Records the
    /// shortest path to each broken invariant and to each witness; with
    /// `stop_at`, stops once that invariant is broken.
    fn explore(&mut self, witnesses: &[(&'static str, Witness)], stop_at: Option<Invariant>) -> Report {
        let t0 = Instant::now();
        let mut rep = Report::default();
        // The states in BFS order (this Vec is also the queue), and how each was first reached.
        let mut states = vec![self.initial()];
        let mut parents: Vec<(u32, Option<Action>)> = vec![(u32::MAX, None)];
        // The exact visited set, without a second copy of each state: hash →
        // the first state with that hash; `same_hash` chains the (rare) others.
        let mut by_hash: FxMap<u64, u32> = FxMap::default();
        let mut same_hash: Vec<u32> = vec![u32::MAX];
        by_hash.insert(fx(&states[0]), 0);
        let path = |parents: &[(u32, Option<Action>)], mut k: u32| {
            let mut p = Vec::new();
            while let (up, Some(a)) = parents[k as usize] {
                p.push(a);
                k = up;
            }
            p.reverse();
            p
        };
        let (mut k, mut level_end, mut actions) = (0, 1, Vec::new());
        'bfs: while k < states.len() {
            if k == level_end {
                (rep.depth, level_end) = (rep.depth + 1, states.len());
            }
            let (s, kk) = (states[k], k as u32);
            k += 1;
            let proposers = s.nodes.iter().filter_map(|&id| self.nodes.all[id as usize].proposer.as_ref());
            if proposers.map(|p| p.last_tried).sum::<u32>() > self.bounds.rounds {
                rep.cut += 1;
                continue;
            }
            actions.clear();
            actions.extend(self.enabled(&s));
            for &a in &actions {
                let Some((n, mut found)) = self.step(&s, a) else { continue };
                rep.transitions += 1;
                let h = fx(&n);
                let mut at = by_hash.get(&h).copied().unwrap_or(u32::MAX);
                while at != u32::MAX && states[at as usize] != n {
                    at = same_hash[at as usize];
                }
                if at == u32::MAX {
                    let kn = states.len() as u32;
                    same_hash.push(by_hash.insert(h, kn).unwrap_or(u32::MAX));
                    parents.push((kk, Some(a)));
                    states.push(n);
                    found.extend(self.check(&n));
                    for (w, pred) in witnesses {
                        if !rep.witnesses.contains_key(w) && pred(self, &n) {
                            rep.witnesses.insert(w, path(&parents, kn));
                        }
                    }
                }
                // BFS: the first path found to a violation is a shortest one.
                for (invariant, detail) in found {
                    if !rep.violations.iter().any(|v| v.0 == invariant) {
                        let mut p = path(&parents, kk);
                        p.push(a);
                        rep.violations.push((invariant, detail, p));
                    }
                }
                if stop_at.is_some_and(|inv| rep.violations.iter().any(|v| v.0 == inv)) {
                    break 'bfs;
                }
            }
        }
        (rep.states, rep.messages, rep.node_states) = (states.len(), self.msgs.all.len(), self.nodes.all.len());
        rep.elapsed = t0.elapsed();
        rep
    }

    /// Replay a path, one line per step: what happened and what it caused.
    fn render(&mut self, path: &[Action]) -> String {
        let mut s = self.initial();
        let mut text = String::new();
        for (k, &a) in path.iter().enumerate() {
            let me = name(a.node);
            text += &match a.input {
                Input::Deliver(id) => {
                    let e = self.msgs.all[id as usize];
                    format!("\n  {:>2}. {}→{me} {}", k + 1, name(e.from), show(&e.msg))
                }
                Input::Fire(t) => format!("\n  {:>2}. {me}: timer {t:?} fires", k + 1),
                Input::Reboot => format!("\n  {:>2}. {me} crashes and restarts", k + 1),
            };
            let (mut facts, mut sends) = (Vec::new(), BTreeMap::<&str, String>::new());
            for o in self.run(a.node, s.nodes[a.node.index()], a.input).1 {
                match o {
                    Output::Send(to, m) => sends.entry(m.phase()).or_default().push_str(name(to)),
                    Output::Note(PaxosNote::ValuePicked { value, choice, .. }) => {
                        facts.push(match choice {
                            Choice::Free => format!("picks {value} (free)"),
                            Choice::Forced { by, voter } => {
                                format!("picks {value} (forced by {}'s vote in {})", name(voter), bal(by))
                            }
                        })
                    }
                    Output::Note(PaxosNote::Preempted { ballot, by }) => {
                        facts.push(format!("gives up {} for {}", bal(ballot), bal(by)))
                    }
                    Output::Note(PaxosNote::Learned { value, .. }) => {
                        facts.push(format!("learns {value}"))
                    }
                    _ => {}
                }
            }
            facts.extend(sends.into_iter().map(|(phase, to)| format!("{phase}→{to}")));
            let before = self.chosen(&s);
            s = self.step(&s, a).expect("every step of a path is enabled").0;
            for (b, v, m) in self.chosen(&s).into_iter().filter(|c| !before.iter().any(|x| (x.0, x.1) == (c.0, c.1))) {
                facts.push(format!("** {v} is chosen in {} by {} **", bal(b), members(m)));
            }
            if !facts.is_empty() {
                text += &format!("   ⇒ {}", facts.join(", "));
            }
        }
        text
    }
}

#[derive(Default)]
struct Report {
    states: usize,
    transitions: u64,
    cut: u64,
    depth: u32,
    messages: usize,
    node_states: usize,
    elapsed: Duration,
    /// The first (so shortest) violation of each invariant, with its path.
    violations: Vec<(Invariant, String, Vec<Action>)>,
    witnesses: BTreeMap<&'static str, Vec<Action>>,
}

impl Report {
    fn summary(&self, label: &str) -> String {
        format!(
            "{label}: {} distinct states, {} state-changing transitions, {} states past the bound, depth {}, \
             {} distinct messages, {} distinct node states, {:.2?}",
            self.states, self.transitions, self.cut, self.depth, self.messages, self.node_states, self.elapsed
        )
    }
}

/// States the search must reach, so that "no violation" means something.
type Witness = fn(&Checker, &State) -> bool;
const FORCED: &str = "Β's 2a decree is forced by a vote in Α's ballot";
fn node<'a>(c: &'a Checker, s: &State, i: usize) -> &'a PaxosNode {
    &c.nodes.all[s.nodes[i] as usize]
}
fn witnesses() -> Vec<(&'static str, Witness)> {
    vec![
        ("a decree is chosen", |c, s| !c.chosen(s).is_empty()),
        (FORCED, |c, s| {
            let phase = &node(c, s, 1).proposer.as_ref().unwrap().phase;
            matches!(phase, Phase::Accepting { choice: Choice::Forced { by, .. }, .. } if by.node == NodeId(0))
        }),
        ("every learner has learned", |c, s| (0..N).all(|i| node(c, s, i).learned().is_some())),
        ("a proposer runs round 2", |c, s| (0..2).any(|i| node(c, s, i).proposer.as_ref().unwrap().last_tried == 2)),
    ]
}

const BOUNDS: Bounds = Bounds { rounds: 2, reboots: 1 };
const NO_REBOOT: Bounds = Bounds { rounds: 2, reboots: 0 };

fn check_correct(bounds: Bounds, min_states: usize) {
    let mut c = Checker::new(None, bounds);
    let rep = c.explore(&witnesses(), None);
    println!("{}", rep.summary(&format!("correct Synod, {bounds:?}")));
    if let Some((inv, detail, path)) = rep.violations.first() {
        panic!("{inv} violated: {detail}\ncounterexample:{}", c.render(path));
    }
    // Guard against a search that silently explores (almost) nothing.
    assert!(rep.states >= min_states, "only {} states explored (expected ≥ {min_states})", rep.states);
    for (w, _) in witnesses() {
        let p = rep.witnesses.get(w).unwrap_or_else(|| panic!("the search never reached a state where {w}"));
        println!("  reached \"{w}\" in {} steps", p.len());
    }
    println!("  shortest path to \"{FORCED}\":{}", c.render(&rep.witnesses[FORCED]));
}

#[test]
fn correct_synod_is_safe_on_a_lossy_duplicating_network() {
    check_correct(NO_REBOOT, 900_000);
}

#[test]
fn correct_synod_is_safe_with_one_crash_and_restart() {
    check_correct(BOUNDS, 9_000_000);
}

/// The same search with each deliberate bug must find a violation. It stops
/// at the first Agreement violation, so the numbers are smaller.
#[test]
fn every_paxos_mutation_is_caught_with_a_shortest_counterexample() {
    // pick-first-vote needs three ballots: see src/check/explore.rs.
    for m in Mutation::of(Kind::Paxos).into_iter().filter(|m| m.as_str() != "pick-first-vote") {
        let mut c = Checker::new(Some(m), BOUNDS);
        let rep = c.explore(&[], Some(Invariant::Agreement));
        println!("{}", rep.summary(&format!("mutation {m}")));
        let (inv, detail, path) =
            rep.violations.first().unwrap_or_else(|| panic!("{m}: no violation in {} states", rep.states));
        let first = c.render(path);
        println!("  first rule broken: {inv} ({detail}), {} steps:{first}", path.len());
        // Each bug must break Agreement itself, not only a side rule.
        let Some((_, detail, path)) = rep.violations.iter().find(|v| v.0 == Invariant::Agreement) else {
            panic!("{m}: {inv} is broken but never agreement; shortest counterexample:{first}");
        };
        let trace = c.render(path);
        if *inv != Invariant::Agreement {
            println!("  shortest agreement violation ({detail}), {} steps:{trace}", path.len());
        }
        assert!(path.len() <= 20, "{m}: the shortest counterexample is longer than expected:{trace}");
    }
}

/// Sizing: `EXHAUSTIVE_ROUNDS=3 EXHAUSTIVE_REBOOTS=0 cargo test --release
/// --test exhaustive -- --ignored --nocapture measure`.
#[test]
#[ignore]
fn measure() {
    let env = |k: &str, default: u32| std::env::var(k).map_or(default, |v| v.parse().unwrap());
    check_correct(Bounds { rounds: env("EXHAUSTIVE_ROUNDS", 2), reboots: env("EXHAUSTIVE_REBOOTS", 0) as u8 }, 1);
}
