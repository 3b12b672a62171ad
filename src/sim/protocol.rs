//! The interface between the simulator and the protocols it runs.
//!
//! A protocol is described by the type of its node: the state one process
//! keeps (`Self`), the messages it sends, the timers it sets on its own
//! clock, the facts it notes for the record, and the commands a teacher (or a
//! script) may give it — "propose decree γ", "stall the next LLM answer".
//! The simulator knows nothing else about it: it delivers messages, fires
//! timers, crashes and restarts processes, and hands commands to every
//! running node, which ignores the ones that are not about it.
//!
//! Handlers are *sans-IO*, in the manner of stateright's `Actor` and
//! raft-rs's `RawNode`: they get a [`Ctx`] with their identity, their local
//! time and a seeded random stream, and answer with [`Output`]s (send, set a
//! timer, cancel one, note a fact). Crashes, pauses, partitions and clocks are
//! the simulator's business and never appear here (turmoil keeps host faults
//! apart from the program in the same way).
//!
//! A [`Monitor`] watches a run from outside: each message as it leaves, each
//! note, each node's state after a step. It reports violations and derived
//! facts as trace events. The simulator is generic over both, and the app
//! instantiates it once, with the enum of all protocols (see
//! `crate::protocol`), so the wasm module holds one copy of it.

use super::event::EventKind;
use super::rng::Rng;
use super::{NodeId, SimDuration, SimTime};
use std::fmt::Debug;

/// The state machine of one process of a protocol.
pub trait Protocol: Clone + Debug + Sized + 'static {
    /// A message on the wire.
    type Msg: Clone + Debug + PartialEq;
    /// A timer the node sets on its own (local, possibly drifting) clock.
    type Timer: Copy + Debug + Ord;
    /// A fact the node puts on the record.
    type Note: Clone + Debug + PartialEq;
    /// An instruction from outside the protocol (a new proposal, an LLM stall).
    type Command: Clone + Debug + PartialEq;

    /// The process starts, for the first time.
    fn on_start(&mut self, ctx: &mut Ctx<Self>);
    fn on_message(&mut self, from: NodeId, msg: Self::Msg, ctx: &mut Ctx<Self>);
    fn on_timer(&mut self, timer: Self::Timer, ctx: &mut Ctx<Self>);
    /// The process dies: keep stable storage, lose the rest. (It can send
    /// nothing while dying, hence no context.)
    fn on_crash(&mut self);
    /// A crashed process comes back and reads its stable storage.
    fn on_restart(&mut self, ctx: &mut Ctx<Self>);
    /// A command, offered to every running node. Returns true if this node
    /// acted on it.
    fn on_command(&mut self, command: &Self::Command, ctx: &mut Ctx<Self>) -> bool;
    /// The node a command is about, if it is about one (the trace records
    /// the command at that node).
    fn command_subject(command: &Self::Command) -> Option<NodeId>;
    /// A timer's name, as traces and scripts write it (`fire`).
    fn timer_name(timer: &Self::Timer) -> &'static str;
}

/// What a protocol handler asks the simulator to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Output<P: Protocol> {
    Send(NodeId, P::Msg),
    SetTimer(P::Timer, SimDuration),
    CancelTimer(P::Timer),
    Note(P::Note),
}

/// Where a handler's outputs go: the simulator's buffer, or a wrapper that
/// lifts one protocol's outputs into an enclosing protocol's.
pub trait Sink<P: Protocol> {
    fn put(&mut self, o: Output<P>);
    /// The buffer itself, when this sink is one (lets [`Ctx::lift`] push
    /// straight into it instead of through a second indirection).
    fn as_vec(&mut self) -> Option<&mut Vec<Output<P>>> {
        None
    }
}

impl<P: Protocol> Sink<P> for Vec<Output<P>> {
    #[inline]
    fn put(&mut self, o: Output<P>) {
        self.push(o);
    }
    fn as_vec(&mut self) -> Option<&mut Vec<Output<P>>> {
        Some(self)
    }
}

/// Outputs of protocol `Q` lifted into protocol `P`'s buffer.
struct Lifted<'b, Q: Protocol, P: Protocol> {
    out: &'b mut Vec<Output<P>>,
    lift: fn(Output<Q>) -> Output<P>,
}

impl<Q: Protocol, P: Protocol> Sink<Q> for Lifted<'_, Q, P> {
    #[inline]
    fn put(&mut self, o: Output<Q>) {
        self.out.push((self.lift)(o));
    }
}

/// The same, into any sink of `P` (an enum of protocols inside another).
struct LiftedDyn<'b, Q: Protocol, P: Protocol> {
    out: &'b mut dyn Sink<P>,
    lift: fn(Output<Q>) -> Output<P>,
}

impl<Q: Protocol, P: Protocol> Sink<Q> for LiftedDyn<'_, Q, P> {
    fn put(&mut self, o: Output<Q>) {
        self.out.put((self.lift)(o));
    }
}

/// The handle protocol code gets: its identity, its *local* time, a random
/// stream for backoffs, and a place to put outputs. Nothing else.
pub struct Ctx<'a, P: Protocol> {
    pub me: NodeId,
    now: SimTime,
    rng: &'a mut Rng,
    out: &'a mut dyn Sink<P>,
}

impl<'a, P: Protocol> Ctx<'a, P> {
    pub fn new(me: NodeId, now: SimTime, rng: &'a mut Rng, out: &'a mut dyn Sink<P>) -> Self {
        Ctx { me, now, rng, out }
    }
    /// This node's local clock reading.
    pub fn now(&self) -> SimTime {
        self.now
    }
    #[inline]
    pub fn send(&mut self, to: NodeId, msg: impl Into<P::Msg>) {
        self.out.put(Output::Send(to, msg.into()));
    }
    #[inline]
    pub fn set_timer(&mut self, timer: impl Into<P::Timer>, after: SimDuration) {
        self.out.put(Output::SetTimer(timer.into(), after));
    }
    #[inline]
    pub fn cancel_timer(&mut self, timer: impl Into<P::Timer>) {
        self.out.put(Output::CancelTimer(timer.into()));
    }
    #[inline]
    pub fn note(&mut self, note: impl Into<P::Note>) {
        self.out.put(Output::Note(note.into()));
    }
    pub fn rng(&mut self) -> &mut Rng {
        self.rng
    }

    /// Run a handler of protocol `Q` (one member of an enum of protocols)
    /// with a context whose outputs are lifted into `P`'s by `lift`.
    #[inline]
    pub fn lift<Q: Protocol, R>(&mut self, lift: fn(Output<Q>) -> Output<P>, f: impl FnOnce(&mut Ctx<'_, Q>) -> R) -> R {
        let (me, now) = (self.me, self.now);
        let rng = &mut *self.rng;
        let out: &mut dyn Sink<P> = &mut *self.out;
        // Two arms rather than one `&mut dyn`: the borrow checker cannot see
        // that `as_vec`'s `None` leaves `out` free again.
        if out.as_vec().is_some() {
            let vec = out.as_vec().expect("checked just above");
            let mut sink = Lifted { out: vec, lift };
            f(&mut Ctx { me, now, rng, out: &mut sink })
        } else {
            let mut sink = LiftedDyn { out, lift };
            f(&mut Ctx { me, now, rng, out: &mut sink })
        }
    }
}

/// An observer of a run: the invariant monitors. It sees what can be
/// observed — messages as they leave, notes, a node's state after a step —
/// and reports violations and derived facts as trace events in `found`.
pub trait Monitor<P: Protocol>: Clone + Debug {
    /// The rules it checks, as recorded in `violation` events.
    type Invariant: Copy + Debug + PartialEq;
    fn on_send(
        &mut self,
        now: SimTime,
        from: NodeId,
        to: NodeId,
        msg: &P::Msg,
        sender: &P,
        found: &mut Vec<EventKind<P, Self::Invariant>>,
    );
    fn on_note(&mut self, now: SimTime, node: NodeId, note: &P::Note, found: &mut Vec<EventKind<P, Self::Invariant>>);
    fn after_step(&mut self, now: SimTime, node: NodeId, state: &P, found: &mut Vec<EventKind<P, Self::Invariant>>);
}

/// No monitor at all (a benchmark of the bare simulator, a model checker that
/// checks its own way).
#[derive(Clone, Copy, Debug, Default)]
pub struct Unwatched;

impl<P: Protocol> Monitor<P> for Unwatched {
    type Invariant = std::convert::Infallible;
    fn on_send(&mut self, _: SimTime, _: NodeId, _: NodeId, _: &P::Msg, _: &P, _: &mut Vec<EventKind<P, Self::Invariant>>) {}
    fn on_note(&mut self, _: SimTime, _: NodeId, _: &P::Note, _: &mut Vec<EventKind<P, Self::Invariant>>) {}
    fn after_step(&mut self, _: SimTime, _: NodeId, _: &P, _: &mut Vec<EventKind<P, Self::Invariant>>) {}
}
