//! The deterministic discrete-event simulator.
//!
//! One `Simulator` holds the whole world: every node's state machine, its
//! clock and timers, the network, the event queue and the invariant monitors.
//! Protocol code is *sans-IO*: it is handed a message or a timer together with
//! a [`Ctx`] that tells it its own local time, and it answers with outputs
//! (send this, set that timer, note this fact). The simulator does the I/O:
//! it samples latency and loss from the seeded network stream, converts local
//! timer deadlines into true instants through the node's clock, and records
//! every step as a trace event.
//!
//! Determinism: all randomness comes from streams of the scenario seed, all
//! time from this queue, and ties are broken by (time, class, sequence number),
//! never by a hash map's iteration order. Cloning a `Simulator` is a complete
//! checkpoint: restoring a clone and stepping it forward replays exactly.

pub mod clock;
pub mod dist;
pub mod event;
pub mod fault;
pub mod network;
pub mod protocol;
pub mod queue;
pub mod rng;
pub mod time;

use clock::Clock;
pub use event::{DropReason, Event, EventKind, Input};
use fault::Fault;
use network::Network;
pub use protocol::{Ctx, Hosts, Monitor, Output, Protocol, Unwatched};
use queue::EventQueue;
use rng::{Rng, Stream};
pub use time::{SimDuration, SimTime};

/// A node of the simulation, by index into the scenario's node list.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct NodeId(pub u8);

impl NodeId {
    /// Pseudo-node for events that belong to the network as a whole.
    pub const NET: NodeId = NodeId(255);
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The most nodes a scenario may have (partitions are kept as 64-bit masks).
pub const MAX_NODES: usize = 32;

/// Identity of one message copy on the wire.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct MsgId(pub u64);

/// Whether a node is running.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Up,
    /// Crashed: away from the chamber, ledger kept.
    Down,
    /// Frozen until the resume event with this token.
    Paused {
        until: SimTime,
        token: u64,
    },
}

#[derive(Clone, Debug)]
struct Slot<P: Protocol> {
    state: P,
    clock: Clock,
    status: Status,
    /// Pending timers: local deadline and the token of its queue entry.
    timers: Timers<P::Timer>,
    /// Events that arrived while paused, in arrival order.
    held: Vec<Action<P>>,
}

/// One node's pending timers as `(timer, local deadline, token)`, sorted by
/// timer. A node has a handful (a proposer at most four, a worker six; only
/// the LLM service has one per open question), so a sorted `Vec` is cheaper
/// than a `BTreeMap`, which allocates a node when the first timer is set and
/// frees it when the last one fires. Kept sorted so that re-scheduling after a
/// clock change walks the timers in the same order as ever: the order in which
/// they get new tokens and queue positions reaches the trace.
#[derive(Clone, Debug)]
struct Timers<T>(Vec<(T, i64, u64)>);

impl<T> Default for Timers<T> {
    fn default() -> Self {
        Timers(Vec::new())
    }
}

impl<T: Ord + Copy> Timers<T> {
    #[inline]
    fn find(&self, timer: T) -> Result<usize, usize> {
        self.0.binary_search_by(|e| e.0.cmp(&timer))
    }
    /// The token of the live queue entry of `timer`, if it is set.
    fn token(&self, timer: T) -> Option<u64> {
        self.find(timer).ok().map(|i| self.0[i].2)
    }
    /// Set `timer` (replacing a pending one of the same kind).
    fn insert(&mut self, timer: T, deadline: i64, token: u64) {
        match self.find(timer) {
            Ok(i) => self.0[i] = (timer, deadline, token),
            Err(i) => self.0.insert(i, (timer, deadline, token)),
        }
    }
    fn remove(&mut self, timer: T) {
        if let Ok(i) = self.find(timer) {
            self.0.remove(i);
        }
    }
    fn clear(&mut self) {
        self.0.clear();
    }
}

#[derive(Clone, Debug)]
enum Action<P: Protocol> {
    Input(Input<P>),
    Resume {
        node: NodeId,
        token: u64,
    },
    Deliver {
        id: MsgId,
        from: NodeId,
        to: NodeId,
        msg: P::Msg,
    },
    Fall {
        id: MsgId,
        from: NodeId,
        to: NodeId,
        msg: P::Msg,
    },
    Timer {
        node: NodeId,
        timer: P::Timer,
        token: u64,
    },
}

impl<P: Protocol> Action<P> {
    /// Faults first at equal times, so that a fault scheduled at t (by a script
    /// or by a click at t) is applied before anything else happening at t.
    fn class(&self) -> u8 {
        match self {
            Action::Input(_) => 0,
            Action::Resume { .. } => 1,
            _ => 2,
        }
    }
    fn target(&self) -> Option<NodeId> {
        match self {
            Action::Deliver { to, .. } => Some(*to),
            Action::Timer { node, .. } => Some(*node),
            _ => None,
        }
    }
}

/// Everything the simulator needs to start: the nodes, their clocks, the
/// network, the scripted inputs, the monitors and the seed.
pub struct World<P: Protocol, M> {
    pub nodes: Vec<P>,
    pub clocks: Vec<Clock>,
    pub network: Network,
    pub inputs: Vec<(SimTime, Input<P>)>,
    pub monitors: M,
    pub seed: u64,
}

#[derive(Clone, Debug)]
pub struct Simulator<P: Protocol, M: Monitor<P>> {
    now: SimTime,
    queue: EventQueue<Action<P>>,
    next_token: u64,
    next_msg: u64,
    slots: Vec<Slot<P>>,
    net: Network,
    rng_net: Rng,
    rng_timers: Rng,
    monitors: M,
    /// Trace events produced since the last `drain_events`.
    pending: Vec<Event<P, M::Invariant>>,
    record: bool,
    next_seq: u64,
    steps: u64,
    /// Outputs of the handler that just ran (kept for its buffer).
    out: Vec<Output<P>>,
    /// Events the monitors found in the current hook (kept for its buffer).
    found: Vec<EventKind<P, M::Invariant>>,
    /// Scripted network: every message sent, by id, and whether it has
    /// been delivered yet (empty otherwise).
    pool: crate::sorted::VecMap<u64, (NodeId, NodeId, P::Msg, bool)>,
}

impl<P: Protocol, M: Monitor<P>> Simulator<P, M> {
    pub fn new(world: World<P, M>, record: bool) -> Self {
        let n = world.nodes.len();
        let mut sim = Simulator {
            now: SimTime::ZERO,
            queue: EventQueue::with_capacity(64),
            next_token: 1,
            next_msg: 0,
            slots: world
                .nodes
                .into_iter()
                .zip(world.clocks)
                .map(|(state, clock)| Slot {
                    state,
                    clock,
                    status: Status::Up,
                    timers: Timers::default(),
                    held: Vec::new(),
                })
                .collect(),
            net: world.network,
            rng_net: Rng::new(world.seed, Stream::Network),
            rng_timers: Rng::new(world.seed, Stream::Timers),
            monitors: world.monitors,
            pending: Vec::new(),
            record,
            next_seq: 0,
            steps: 0,
            // A handler's outputs: a broadcast to every acceptor and a timer.
            out: Vec::with_capacity(16),
            found: Vec::new(),
            pool: Default::default(),
        };
        debug_assert!(n <= MAX_NODES);
        for (at, input) in world.inputs {
            sim.push(at, Action::Input(input));
        }
        for i in 0..n {
            let id = NodeId(i as u8);
            sim.with_node(id, |state, ctx| state.on_start(ctx));
            sim.finish_step(id);
        }
        sim
    }

    // ----- reading the world -------------------------------------------

    /// True time: the latest instant the simulation has reached.
    pub fn now(&self) -> SimTime {
        self.now
    }
    pub fn node_count(&self) -> usize {
        self.slots.len()
    }
    pub fn node(&self, id: NodeId) -> &P {
        &self.slots[id.index()].state
    }
    pub fn status(&self, id: NodeId) -> Status {
        self.slots[id.index()].status
    }
    /// What `id`'s own clock reads now.
    pub fn local_time(&self, id: NodeId) -> SimTime {
        self.slots[id.index()].clock.local(self.now)
    }
    pub fn clock(&self, id: NodeId) -> &Clock {
        &self.slots[id.index()].clock
    }
    pub fn network(&self) -> &Network {
        &self.net
    }
    pub fn monitors(&self) -> &M {
        &self.monitors
    }
    /// Queue events processed so far (the benchmark's unit).
    pub fn steps(&self) -> u64 {
        self.steps
    }
    /// Trace events emitted so far (recorded or not).
    pub fn events_emitted(&self) -> u64 {
        self.next_seq
    }
    pub fn next_event_time(&self) -> Option<SimTime> {
        self.queue.peek_time()
    }
    pub fn is_quiet(&self) -> bool {
        self.queue.is_empty()
    }
    /// Turn trace recording on or off (a replay for display needs none).
    pub fn set_recording(&mut self, on: bool) {
        self.record = on;
        if !on {
            self.pending.clear();
        }
    }
    /// Trace events produced since the last call.
    pub fn drain_events(&mut self) -> std::vec::Drain<'_, Event<P, M::Invariant>> {
        self.pending.drain(..)
    }
    pub fn pending_events(&self) -> &[Event<P, M::Invariant>] {
        &self.pending
    }

    // ----- driving it ---------------------------------------------------

    /// Process one queue event, if any. Returns false when nothing is left.
    pub fn step(&mut self) -> bool {
        self.step_until(SimTime(u64::MAX))
    }

    /// Process the next event if it is due at or before `t`; false if none
    /// is. Stale entries due by then are dropped on the way — but never
    /// stepped over to a live one after `t` (a seek or the end of a
    /// recording once did an event that lay after its instant so).
    pub fn step_until(&mut self, t: SimTime) -> bool {
        while self.queue.peek_time().is_some_and(|at| at <= t) {
            let Some((at, action)) = self.queue.pop() else {
                break;
            };
            if self.is_stale(&action) {
                continue;
            }
            self.now = self.now.max(at);
            self.steps += 1;
            self.dispatch(action);
            return true;
        }
        false
    }

    /// Process every event due at or before `t`, then stand at `t`.
    pub fn run_until(&mut self, t: SimTime) {
        while self.step_until(t) {}
        self.now = self.now.max(t);
    }

    /// Inject a fault or a command *now*. It is scheduled one microsecond
    /// after the present instant so that replaying a scenario with
    /// `{at_us: now + 1, fault}` in its script gives exactly the same run.
    /// Returns the time it was given.
    pub fn inject(&mut self, input: impl Into<Input<P>>) -> SimTime {
        let at = SimTime(self.now.0 + 1);
        self.push(at, Action::Input(input.into()));
        at
    }

    /// Schedule a fault or a command at a given future time.
    pub fn schedule(&mut self, at: SimTime, input: impl Into<Input<P>>) {
        self.push(at.max(self.now), Action::Input(input.into()));
    }

    // ----- internals ----------------------------------------------------

    fn push(&mut self, at: SimTime, action: Action<P>) {
        self.queue.push(at, action.class(), action);
    }

    /// A timer that was cancelled or set again, or a resume of a pause that
    /// was extended: its queue entry is left in place and skipped here.
    fn is_stale(&self, action: &Action<P>) -> bool {
        match action {
            Action::Timer { node, timer, token } => {
                self.slots[node.index()].timers.token(*timer) != Some(*token)
            }
            Action::Resume { node, token } => !matches!(
                self.slots[node.index()].status,
                Status::Paused { token: t, .. } if t == *token
            ),
            _ => false,
        }
    }

    /// Put an event on the record: every event gets a sequence number, but
    /// it is only built when recording (checking, benchmarks and the Monte
    /// Carlo record nothing, and building and dropping events adds up).
    #[inline(always)]
    fn emit(&mut self, node: NodeId, kind: impl FnOnce() -> EventKind<P, M::Invariant>) {
        if self.record {
            self.record_event(node, kind());
        }
        self.next_seq += 1;
    }

    fn record_event(&mut self, node: NodeId, kind: EventKind<P, M::Invariant>) {
        self.pending.push(Event {
            seq: self.next_seq,
            t: self.now,
            node,
            kind,
        });
    }

    fn dispatch(&mut self, action: Action<P>) {
        // A paused node does not run: whatever arrives for it waits.
        if let Some(target) = action.target() {
            if let Status::Paused { .. } = self.slots[target.index()].status {
                self.slots[target.index()].held.push(action);
                return;
            }
        }
        match action {
            Action::Input(Input::Fault(f)) => self.apply_fault(f),
            Action::Input(Input::Command(c)) => self.apply_command(c),
            Action::Resume { node, .. } => self.resume(node),
            Action::Fall { id, from, to, msg } => {
                self.emit(to, || EventKind::Drop {
                    id,
                    from,
                    to,
                    msg,
                    reason: DropReason::Loss,
                });
            }
            Action::Deliver { id, from, to, msg } => {
                let reason = if self.slots[to.index()].status == Status::Down {
                    Some(DropReason::Down)
                } else if self.net.is_blocked(from, to) {
                    Some(DropReason::Partition)
                } else {
                    None
                };
                if let Some(reason) = reason {
                    self.emit(to, || EventKind::Drop {
                        id,
                        from,
                        to,
                        msg,
                        reason,
                    });
                    return;
                }
                self.emit(to, || EventKind::Deliver {
                    id,
                    from,
                    msg: msg.clone(),
                });
                self.with_node(to, |state, ctx| state.on_message(from, msg, ctx));
                self.finish_step(to);
            }
            Action::Timer { node, timer, .. } => {
                self.slots[node.index()].timers.remove(timer);
                self.emit(node, || EventKind::Timer { timer });
                self.with_node(node, |state, ctx| state.on_timer(timer, ctx));
                self.finish_step(node);
            }
        }
    }

    /// Run a handler of `id` with a fresh context; outputs land in `self.out`.
    fn with_node(&mut self, id: NodeId, f: impl FnOnce(&mut P, &mut Ctx<P>)) {
        let slot = &mut self.slots[id.index()];
        let local = slot.clock.local(self.now);
        let mut out = std::mem::take(&mut self.out);
        {
            let mut ctx = Ctx::new(id, local, &mut self.rng_timers, &mut out);
            f(&mut slot.state, &mut ctx);
        }
        self.out = out;
    }

    /// Carry out the outputs of the handler that just ran on `id`, then let
    /// the monitors look at the result.
    fn finish_step(&mut self, id: NodeId) {
        let mut out = std::mem::take(&mut self.out);
        for o in out.drain(..) {
            match o {
                Output::Send(to, msg) => self.send(id, to, msg),
                Output::SetTimer(timer, after) => self.set_timer(id, timer, after),
                Output::CancelTimer(timer) => self.slots[id.index()].timers.remove(timer),
                Output::Note(note) => {
                    self.monitors.on_note(
                        self.now,
                        id,
                        &self.slots[id.index()].clock,
                        &note,
                        &mut self.found,
                    );
                    self.emit(id, || EventKind::Note(note));
                    self.record_findings(id);
                }
            }
        }
        self.out = out;
        self.monitors
            .after_step(self.now, id, &self.slots[id.index()].state, &mut self.found);
        self.record_findings(id);
    }

    /// Emit what the monitors just found (usually nothing), at `id`.
    #[inline(always)]
    fn record_findings(&mut self, id: NodeId) {
        if !self.found.is_empty() {
            self.emit_findings(id);
        }
    }

    #[cold]
    fn emit_findings(&mut self, id: NodeId) {
        let mut found = std::mem::take(&mut self.found);
        for k in found.drain(..) {
            self.emit(id, || k);
        }
        self.found = found;
    }

    fn send(&mut self, from: NodeId, to: NodeId, msg: P::Msg) {
        let id = MsgId(self.next_msg);
        self.next_msg += 1;
        self.monitors.on_send(
            self.now,
            from,
            to,
            &msg,
            &self.slots[from.index()].state,
            &mut self.found,
        );
        self.emit(from, || EventKind::Send {
            id,
            to,
            msg: msg.clone(),
        });
        self.record_findings(from);
        if self.net.scripted && from != to {
            // It waits for the script to deliver it.
            self.pool.insert(id.0, (from, to, msg, false));
            return;
        }
        if from == to {
            // Roles on one machine talk without the network.
            self.push(self.now, Action::Deliver { id, from, to, msg });
            return;
        }
        let fate = self.net.fate(from, to, &mut self.rng_net);
        if self.net.is_blocked(from, to) {
            self.emit(to, || EventKind::Drop {
                id,
                from,
                to,
                msg,
                reason: DropReason::Partition,
            });
            return;
        }
        let copy = fate.duplicate.map(|lat| (lat, msg.clone()));
        match fate.latency {
            Some(lat) => self.push(self.now + lat, Action::Deliver { id, from, to, msg }),
            None => self.push(
                self.now + fate.fall_after,
                Action::Fall { id, from, to, msg },
            ),
        }
        if let Some((lat, msg)) = copy {
            let copy = MsgId(self.next_msg);
            self.next_msg += 1;
            self.emit(from, || EventKind::Duplicate {
                id: copy,
                of: id,
                to,
                msg: msg.clone(),
            });
            self.push(
                self.now + lat,
                Action::Deliver {
                    id: copy,
                    from,
                    to,
                    msg,
                },
            );
        }
    }

    fn set_timer(&mut self, id: NodeId, timer: P::Timer, after: SimDuration) {
        let token = self.next_token;
        self.next_token += 1;
        let slot = &mut self.slots[id.index()];
        let deadline = slot
            .clock
            .local_raw(self.now)
            .saturating_add(after.0 as i64);
        let at = slot.clock.true_at(self.now, deadline);
        slot.timers.insert(timer, deadline, token);
        if !self.net.scripted {
            self.push(
                at,
                Action::Timer {
                    node: id,
                    timer,
                    token,
                },
            );
        }
    }

    /// Re-schedule a node's timers after its clock changed, in timer order.
    fn reschedule_timers(&mut self, id: NodeId) {
        for i in 0..self.slots[id.index()].timers.0.len() {
            let token = self.next_token;
            self.next_token += 1;
            let slot = &mut self.slots[id.index()];
            let (timer, deadline, _) = slot.timers.0[i];
            let at = slot.clock.true_at(self.now, deadline);
            slot.timers.0[i].2 = token;
            if !self.net.scripted {
                self.push(
                    at,
                    Action::Timer {
                        node: id,
                        timer,
                        token,
                    },
                );
            }
        }
    }

    /// Is `subject` a node of this world (or the whole network)?
    fn exists(&self, subject: NodeId) -> bool {
        subject == NodeId::NET || subject.index() < self.slots.len()
    }

    // Kept out of line (as are `resume` and `emit_findings`): faults are rare,
    // and inlined into `step` they would only crowd the hot path.
    #[cold]
    fn apply_fault(&mut self, f: Fault<NodeId>) {
        let subject = f.node().copied().unwrap_or(NodeId::NET);
        if !self.exists(subject) {
            return; // a fault for a node that does not exist: nothing to do
        }
        if let Fault::Deliver { .. } | Fault::Fire { .. } = f {
            // Not faults but a script's steps: the delivery or the timer
            // that follows is the event.
            return self.apply_script(f);
        }
        self.emit(subject, || EventKind::Fault { fault: f.clone() });
        match f {
            Fault::Crash { node } => {
                let slot = &mut self.slots[node.index()];
                if slot.status == Status::Down {
                    return;
                }
                slot.status = Status::Down;
                slot.timers.clear();
                // Whatever was waiting in a frozen process's inbox is gone too.
                let held = std::mem::take(&mut slot.held);
                slot.state.on_crash();
                for action in held {
                    if let Action::Deliver { id, from, to, msg } = action {
                        self.emit(to, || EventKind::Drop {
                            id,
                            from,
                            to,
                            msg,
                            reason: DropReason::Down,
                        });
                    }
                }
                self.monitors.after_step(
                    self.now,
                    node,
                    &self.slots[node.index()].state,
                    &mut self.found,
                );
                self.record_findings(node);
            }
            Fault::Restart { node } => {
                if self.slots[node.index()].status != Status::Down {
                    return;
                }
                self.slots[node.index()].status = Status::Up;
                self.with_node(node, |state, ctx| state.on_restart(ctx));
                self.finish_step(node);
            }
            Fault::Pause { node, for_us } => {
                let until = SimTime(self.now.0.saturating_add(for_us));
                let slot = &mut self.slots[node.index()];
                match slot.status {
                    Status::Down => {}
                    Status::Paused { until: u, .. } if u >= until => {}
                    _ => {
                        let token = self.next_token;
                        self.next_token += 1;
                        slot.status = Status::Paused { until, token };
                        self.push(until, Action::Resume { node, token });
                    }
                }
            }
            Fault::Partition { groups, oneway } => {
                let n = self.slots.len();
                let mut group_of = vec![usize::MAX; n];
                for (g, members) in groups.iter().enumerate() {
                    for m in members {
                        if m.index() < n {
                            group_of[m.index()] = g;
                        }
                    }
                }
                for a in 0..n {
                    for b in 0..n {
                        let (ga, gb) = (group_of[a], group_of[b]);
                        if ga == gb || ga == usize::MAX || gb == usize::MAX {
                            continue;
                        }
                        if oneway && ga != 0 {
                            continue;
                        }
                        self.net.block(NodeId(a as u8), NodeId(b as u8));
                    }
                }
            }
            Fault::Heal => self.net.heal(),
            Fault::SetLoss { p } => self.net.loss = p,
            Fault::SetDuplicate { p } => self.net.duplicate = p,
            Fault::SetReorder { p } => self.net.reorder = p,
            Fault::SetLatency { latency } => self.net.latency = latency,
            Fault::ClockStep { node, by_us } => {
                self.slots[node.index()].clock.step(self.now, by_us);
                self.reschedule_timers(node);
            }
            Fault::SetDrift { node, ppm } => {
                let slot = &mut self.slots[node.index()];
                let local = slot.clock.local_raw(self.now);
                slot.clock = Clock::new(ppm, 0);
                // Keep the reading continuous: only the rate changes.
                let here = slot.clock.local_raw(self.now);
                slot.clock.step(self.now, local - here);
                self.reschedule_timers(node);
            }
            Fault::Deliver { .. } | Fault::Fire { .. } => {}
        }
    }

    /// A step of a scripted network: deliver a message that was sent (a
    /// second delivery is a duplicate, with an id of its own), or fire a
    /// pending timer. Outside a scripted network, or for a message or timer
    /// that is not there, nothing happens.
    #[cold]
    fn apply_script(&mut self, f: Fault<NodeId>) {
        if !self.net.scripted {
            return;
        }
        match f {
            Fault::Deliver { id } => {
                let Some((from, to, msg, delivered)) = self.pool.get_mut(&id) else {
                    return;
                };
                let (from, to, msg, again) = (*from, *to, msg.clone(), *delivered);
                *delivered = true;
                let mut id = MsgId(id);
                if again {
                    let copy = MsgId(self.next_msg);
                    self.next_msg += 1;
                    self.emit(from, || EventKind::Duplicate {
                        id: copy,
                        of: id,
                        to,
                        msg: msg.clone(),
                    });
                    id = copy;
                }
                self.push(self.now, Action::Deliver { id, from, to, msg });
            }
            Fault::Fire { node, timer } => {
                let slot = &self.slots[node.index()];
                let pending = slot
                    .timers
                    .0
                    .iter()
                    .find(|(t, _, _)| P::timer_name(t) == timer);
                if let Some(&(timer, _, token)) = pending {
                    self.push(self.now, Action::Timer { node, timer, token });
                }
            }
            _ => {}
        }
    }

    /// A protocol command (a new proposer, an LLM stall) is handed to every
    /// running node; the ones it concerns act on it.
    #[cold]
    fn apply_command(&mut self, command: P::Command) {
        let subject = P::command_subject(&command).unwrap_or(NodeId::NET);
        if !self.exists(subject) {
            return;
        }
        self.emit(subject, || EventKind::Command {
            command: command.clone(),
        });
        for i in 0..self.slots.len() {
            let id = NodeId(i as u8);
            if self.slots[i].status != Status::Up {
                continue;
            }
            let mut handled = false;
            self.with_node(id, |state, ctx| handled = state.on_command(&command, ctx));
            if handled {
                self.finish_step(id);
            } else {
                self.out.clear();
            }
        }
    }

    #[cold]
    fn resume(&mut self, node: NodeId) {
        let slot = &mut self.slots[node.index()];
        slot.status = Status::Up;
        let held = std::mem::take(&mut slot.held);
        self.emit(node, || EventKind::Resume);
        // Everything that piled up is handled now, in the order it arrived.
        for action in held {
            self.push(self.now, action);
        }
    }
}
