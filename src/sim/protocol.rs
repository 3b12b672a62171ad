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

use super::clock::Clock;
use super::event::EventKind;
use super::rng::Rng;
use super::{NodeId, SimDuration, SimTime};
use std::fmt::Debug;
use std::marker::PhantomData;

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

/// A protocol that can carry `Q`'s messages, timers and notes: `Q` itself,
/// or an enum of protocols with `Q` among its members. Protocol code is
/// written against a context `Ctx<Q, H>` for any such `H`, so that run inside
/// the enum its outputs go straight into the enum's buffer (no copy, no
/// indirect call per output), and run alone (a unit test, a model checker)
/// into its own.
pub trait Hosts<Q: Protocol>: Protocol {
    fn msg(m: Q::Msg) -> Self::Msg;
    fn timer(t: Q::Timer) -> Self::Timer;
    fn note(n: Q::Note) -> Self::Note;
}

impl<P: Protocol> Hosts<P> for P {
    #[inline(always)]
    fn msg(m: P::Msg) -> P::Msg {
        m
    }
    #[inline(always)]
    fn timer(t: P::Timer) -> P::Timer {
        t
    }
    #[inline(always)]
    fn note(n: P::Note) -> P::Note {
        n
    }
}

/// The handle protocol `Q`'s code gets: its identity, its *local* time, a
/// random stream for backoffs, and a place to put outputs (`H`'s buffer).
/// Nothing else.
pub struct Ctx<'a, Q: Protocol, H: Hosts<Q> = Q> {
    pub me: NodeId,
    now: SimTime,
    rng: &'a mut Rng,
    out: &'a mut Vec<Output<H>>,
    of: PhantomData<fn(Q)>,
}

impl<'a, P: Protocol> Ctx<'a, P> {
    pub fn new(me: NodeId, now: SimTime, rng: &'a mut Rng, out: &'a mut Vec<Output<P>>) -> Self {
        Ctx {
            me,
            now,
            rng,
            out,
            of: PhantomData,
        }
    }
}

impl<'a, Q: Protocol, H: Hosts<Q>> Ctx<'a, Q, H> {
    /// This node's local clock reading.
    pub fn now(&self) -> SimTime {
        self.now
    }
    #[inline]
    pub fn send(&mut self, to: NodeId, msg: impl Into<Q::Msg>) {
        self.out.push(Output::Send(to, H::msg(msg.into())));
    }
    #[inline]
    pub fn set_timer(&mut self, timer: impl Into<Q::Timer>, after: SimDuration) {
        self.out
            .push(Output::SetTimer(H::timer(timer.into()), after));
    }
    #[inline]
    pub fn cancel_timer(&mut self, timer: impl Into<Q::Timer>) {
        self.out.push(Output::CancelTimer(H::timer(timer.into())));
    }
    #[inline]
    pub fn note(&mut self, note: impl Into<Q::Note>) {
        self.out.push(Output::Note(H::note(note.into())));
    }
    pub fn rng(&mut self) -> &mut Rng {
        self.rng
    }
}

impl<'a, H: Protocol> Ctx<'a, H> {
    /// The same context as member protocol `R` of the enum `H` sees it.
    #[inline]
    pub fn view<R: Protocol>(&mut self) -> Ctx<'_, R, H>
    where
        H: Hosts<R>,
    {
        Ctx {
            me: self.me,
            now: self.now,
            rng: &mut *self.rng,
            out: &mut *self.out,
            of: PhantomData,
        }
    }

    /// How many outputs this step has put so far (see [`Ctx::notes_since`]).
    #[inline]
    pub fn mark(&self) -> usize {
        self.out.len()
    }

    /// The notes this step has put since `mark`: what a node that hosts two
    /// protocols' roles (a replica that also answers for the lease lab's
    /// store) reads to say the same in the other protocol's words.
    pub fn notes_since(&self, mark: usize) -> impl Iterator<Item = &H::Note> {
        self.out[mark.min(self.out.len())..]
            .iter()
            .filter_map(|o| match o {
                Output::Note(n) => Some(n),
                _ => None,
            })
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
    /// A node noted a fact. `clock` is the node's clock: a note that speaks
    /// of the node's own time (a lease it believes it holds until a local
    /// instant) can be put in true time.
    fn on_note(
        &mut self,
        now: SimTime,
        node: NodeId,
        clock: &Clock,
        note: &P::Note,
        found: &mut Vec<EventKind<P, Self::Invariant>>,
    );
    fn after_step(
        &mut self,
        now: SimTime,
        node: NodeId,
        state: &P,
        found: &mut Vec<EventKind<P, Self::Invariant>>,
    );
}

/// No monitor at all (a benchmark of the bare simulator, a model checker that
/// checks its own way).
#[derive(Clone, Copy, Debug, Default)]
pub struct Unwatched;

impl<P: Protocol> Monitor<P> for Unwatched {
    type Invariant = std::convert::Infallible;
    fn on_send(
        &mut self,
        _: SimTime,
        _: NodeId,
        _: NodeId,
        _: &P::Msg,
        _: &P,
        _: &mut Vec<EventKind<P, Self::Invariant>>,
    ) {
    }
    fn on_note(
        &mut self,
        _: SimTime,
        _: NodeId,
        _: &Clock,
        _: &P::Note,
        _: &mut Vec<EventKind<P, Self::Invariant>>,
    ) {
    }
    fn after_step(
        &mut self,
        _: SimTime,
        _: NodeId,
        _: &P,
        _: &mut Vec<EventKind<P, Self::Invariant>>,
    ) {
    }
}
