//! The protocols that run on the simulator, as sans-IO state machines, and
//! the one list of them.
//!
//! Each protocol is a sibling module that implements [`crate::sim::Protocol`]
//! for its node type and imports nothing from the others:
//!
//! - [`paxos`]: Lamport's single-decree Paxos (the Synod): proposer, acceptor
//!   and learner roles, any of which one legislator may play.
//! - [`commit`]: two-phase commit and Paxos Commit (Gray and Lamport): a
//!   transaction manager, resource managers, and one Synod per RM.
//! - [`lease`]: the lease loop of the article — a lease store with one
//!   compare-and-set row, workers that renew it, fenced storage, and an LLM
//!   advisor service that is slow, flaky and sometimes inside the loop.
//! - [`multipaxos`]: a replicated log with a stable leader, master leases and
//!   a Chubby cell.
//!
//! Two modules are shared rather than siblings: [`lease_row`], the
//! `worker_leases` statement both the lease store and a replicated machine
//! run, and [`lease_group`], the one place where the lease lab's workers talk
//! to a Multi-Paxos group standing in for their store.
//!
//! [`for_each_protocol!`] is the registry: the one place that lists them. It
//! generates the enums of all protocols here — [`NodeState`], [`Msg`],
//! [`Timer`], [`Note`], [`Command`], [`Mutation`], [`Kind`] — and the
//! dispatch in the layers above (monitors, trace encoding). The page and the
//! command line run the simulator over [`NodeState`], so the wasm module
//! holds one instantiation of it whatever the number of protocols.

pub mod ballot;
pub mod commit;
pub mod flat;
pub mod lease;
pub mod lease_group;
pub mod lease_row;
pub mod llm;
pub mod multipaxos;
pub mod paxos;
pub mod storage;
pub mod value;

use crate::json::FromValue;
use crate::sim::{Ctx, Hosts, NodeId, Protocol};
use serde::{Serialize, Serializer};
use std::fmt;

pub use value::Value;

/// The registry: calls `$m!` with the list of protocols, each as
/// `Variant module NodeType`. Each module exports `Command<N>` and `Mutation`
/// beside its node type. Adding a protocol is one entry here.
macro_rules! for_each_protocol {
    ($m:ident) => {
        $m! {
            Paxos paxos PaxosNode,
            Lease lease LeaseNode,
            Multipaxos multipaxos MpNode,
            Commit commit CommitNode,
        }
    };
}
pub(crate) use for_each_protocol;

macro_rules! registry {
    ($($V:ident $m:ident $Node:ident,)*) => {
        /// Which protocol a scenario runs.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
        #[cfg_attr(test, derive(serde::Deserialize))]
        #[serde(rename_all = "snake_case")]
        pub enum Kind {
            $($V,)*
        }

        impl Kind {
            pub const ALL: &'static [Kind] = &[$(Kind::$V,)*];
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Kind::$V => stringify!($m),)*
                }
            }
            pub fn parse(s: &str) -> Option<Kind> {
                Kind::ALL.iter().copied().find(|k| k.as_str() == s)
            }
        }

        /// One node of the simulation, of whichever protocol. (Cloned by
        /// hand: a Paxos node here, any other through the table of handlers.)
        #[derive(Debug, PartialEq)]
        pub enum NodeState {
            $($V($m::$Node),)*
        }

        /// A message on the wire. (Cloned by hand, as `NodeState`.)
        #[derive(Debug, PartialEq)]
        pub enum Msg {
            $($V(<$m::$Node as Protocol>::Msg),)*
        }

        /// A timer a node can set on its own (local) clock.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Timer {
            $($V(<$m::$Node as Protocol>::Timer),)*
        }

        /// A fact a role (or a monitor) puts on the record. (Cloned by
        /// hand, as `NodeState`.)
        #[derive(Debug, PartialEq)]
        pub enum Note {
            $($V(<$m::$Node as Protocol>::Note),)*
        }

        /// A protocol's command, with nodes named by `N`.
        #[derive(Clone, Debug, PartialEq, Serialize)]
        #[serde(untagged)]
        pub enum Command<N = NodeId> {
            $($V($m::Command<N>),)*
        }

        /// A deliberate bug in one protocol.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Mutation {
            $($V($m::Mutation),)*
        }

        $(
            impl From<<$m::$Node as Protocol>::Msg> for Msg {
                fn from(x: <$m::$Node as Protocol>::Msg) -> Msg {
                    Msg::$V(x)
                }
            }
            impl From<<$m::$Node as Protocol>::Timer> for Timer {
                fn from(x: <$m::$Node as Protocol>::Timer) -> Timer {
                    Timer::$V(x)
                }
            }
            impl From<<$m::$Node as Protocol>::Note> for Note {
                fn from(x: <$m::$Node as Protocol>::Note) -> Note {
                    Note::$V(x)
                }
            }
            impl<N> From<$m::Command<N>> for Command<N> {
                fn from(x: $m::Command<N>) -> Command<N> {
                    Command::$V(x)
                }
            }
            impl From<$m::Mutation> for Mutation {
                fn from(x: $m::Mutation) -> Mutation {
                    Mutation::$V(x)
                }
            }
        )*

        impl Msg {
            /// The trace's `type` field.
            pub fn type_name(&self) -> &'static str {
                match self {
                    $(Msg::$V(m) => m.type_name(),)*
                }
            }
            pub fn kind(&self) -> Kind {
                match self {
                    $(Msg::$V(_) => Kind::$V,)*
                }
            }
        }

        impl Timer {
            /// The trace's `timer` field.
            pub fn type_name(&self) -> &'static str {
                match self {
                    $(Timer::$V(t) => t.type_name(),)*
                }
            }
        }

        impl Note {
            /// The trace's `kind` field.
            pub fn type_name(&self) -> &'static str {
                match self {
                    $(Note::$V(n) => n.type_name(),)*
                }
            }
        }

        impl<N> Command<N> {
            /// The snake_case name used in scripts and as the trace event kind.
            pub fn kind(&self) -> &'static str {
                match self {
                    $(Command::$V(c) => c.kind(),)*
                }
            }
            /// Is `tag` the kind of some protocol's command?
            pub fn is_kind(tag: &str) -> bool {
                false $(|| $m::Command::<N>::KINDS.contains(&tag))*
            }
            pub fn all_kinds() -> Vec<&'static str> {
                let mut v = Vec::new();
                $(v.extend_from_slice($m::Command::<N>::KINDS);)*
                v
            }
            /// The node the command is about, if any.
            pub fn node(&self) -> Option<&N> {
                match self {
                    $(Command::$V(c) => c.node(),)*
                }
            }
            /// The protocol the command belongs to.
            pub fn protocol(&self) -> Kind {
                match self {
                    $(Command::$V(_) => Kind::$V,)*
                }
            }
            /// Translate the node names (or ids) with `f`; stops at the first error.
            pub fn try_map<M, E>(&self, f: impl FnMut(&N) -> Result<M, E>) -> Result<Command<M>, E> {
                Ok(match self {
                    $(Command::$V(c) => Command::$V(c.try_map(f)?),)*
                })
            }
            /// The command named `kind` from its fields (`{"kind": {…}}`).
            pub fn from_json(kind: &str, value: serde_json::Value) -> Result<Command<N>, String>
            where
                N: FromValue,
            {
                $(if $m::Command::<N>::KINDS.contains(&kind) {
                    return $m::Command::<N>::from_json(kind, value).map(Command::$V);
                })*
                Err(format!("unknown command `{kind}`"))
            }
        }

        impl Mutation {
            pub fn all() -> Vec<Mutation> {
                let mut v = Vec::new();
                $(v.extend($m::Mutation::ALL.iter().map(|&m| Mutation::$V(m)));)*
                v
            }
            /// The mutations of one protocol.
            pub fn of(kind: Kind) -> Vec<Mutation> {
                Mutation::all().into_iter().filter(|m| m.protocol() == kind).collect()
            }
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Mutation::$V(m) => m.as_str(),)*
                }
            }
            pub fn parse(s: &str) -> Option<Mutation> {
                Mutation::all().into_iter().find(|m| m.as_str() == s)
            }
            /// The protocol it breaks.
            pub fn protocol(self) -> Kind {
                match self {
                    $(Mutation::$V(_) => Kind::$V,)*
                }
            }
        }

        /// Every protocol's handlers, by the node's variant (see
        /// [`Handlers`]): one function per event, each a `match` over the
        /// registry.
        static EVERY_PROTOCOL: Handlers = Handlers {
            on_start: |node, ctx| match node {
                $(NodeState::$V(n) => n.on_start(&mut ctx.view()),)*
            },
            on_message: |node, from, msg, ctx| {
                let mark = ctx.mark();
                match (&mut *node, msg) {
                    $((NodeState::$V(n), Msg::$V(m)) => n.on_message(from, m, &mut ctx.view()),)*
                    // A message of another protocol: only the lease lab's
                    // workers and a replicated store speak across.
                    #[allow(unreachable_patterns)]
                    (_, m) => return lease_group::deliver(node, from, m, ctx),
                }
                if let NodeState::Multipaxos(multipaxos::MpNode::Replica(r)) = node {
                    if r.group.lease_store.is_some() {
                        lease_group::after_step(node, mark, ctx);
                    }
                }
            },
            on_timer: |node, timer, ctx| match (node, timer) {
                $((NodeState::$V(n), Timer::$V(t)) => n.on_timer(t, &mut ctx.view()),)*
                #[allow(unreachable_patterns)]
                (n, t) => lease_group::timer(n, t, ctx),
            },
            on_crash: |node| match node {
                $(NodeState::$V(n) => Protocol::on_crash(n),)*
            },
            on_restart: |node, ctx| match node {
                $(NodeState::$V(n) => n.on_restart(&mut ctx.view()),)*
            },
            on_command: |node, command, ctx| match (node, command) {
                $((NodeState::$V(n), Command::$V(k)) => n.on_command(k, &mut ctx.view()),)*
                #[allow(unreachable_patterns)]
                _ => false,
            },
            clone: |node| match node {
                $(NodeState::$V(n) => NodeState::$V(n.clone()),)*
            },
            clone_msg: |msg| match msg {
                $(Msg::$V(m) => Msg::$V(m.clone()),)*
            },
            clone_note: |note| match note {
                $(Note::$V(n) => Note::$V(n.clone()),)*
            },
        };

        // The simulator is cloned for every checkpoint of a seek and every
        // state of the model checker.
        impl Clone for NodeState {
            fn clone(&self) -> Self {
                match self {
                    NodeState::Paxos(n) => NodeState::Paxos(n.clone()),
                    _ => (handlers().clone)(self),
                }
            }
        }

        // Messages and notes are cloned into the trace as they happen: a
        // Paxos one here, any other's through the table (a derived `Clone`
        // brought every protocol's copy code into the first load).
        impl Clone for Msg {
            fn clone(&self) -> Self {
                match self {
                    Msg::Paxos(m) => Msg::Paxos(m.clone()),
                    _ => (handlers().clone_msg)(self),
                }
            }
        }

        impl Clone for Note {
            fn clone(&self) -> Self {
                match self {
                    Note::Paxos(n) => Note::Paxos(n.clone()),
                    _ => (handlers().clone_note)(self),
                }
            }
        }

        // A Paxos node is handled here; any other through the table of
        // handlers (`handlers()`), which in the split page comes with the
        // other protocols' builders — no node of theirs exists before.
        impl Protocol for NodeState {
            type Msg = Msg;
            type Timer = Timer;
            type Note = Note;
            type Command = Command;

            fn on_start(&mut self, ctx: &mut Ctx<Self>) {
                match self {
                    NodeState::Paxos(n) => n.on_start(&mut ctx.view()),
                    _ => (handlers().on_start)(self, ctx),
                }
            }
            #[inline]
            fn on_message(&mut self, from: NodeId, msg: Msg, ctx: &mut Ctx<Self>) {
                match (&mut *self, msg) {
                    (NodeState::Paxos(n), Msg::Paxos(m)) => n.on_message(from, m, &mut ctx.view()),
                    (_, m) => (handlers().on_message)(self, from, m, ctx),
                }
            }
            #[inline]
            fn on_timer(&mut self, timer: Timer, ctx: &mut Ctx<Self>) {
                match (&mut *self, timer) {
                    (NodeState::Paxos(n), Timer::Paxos(t)) => n.on_timer(t, &mut ctx.view()),
                    (_, t) => (handlers().on_timer)(self, t, ctx),
                }
            }
            fn on_crash(&mut self) {
                match self {
                    NodeState::Paxos(n) => Protocol::on_crash(n),
                    _ => (handlers().on_crash)(self),
                }
            }
            fn on_restart(&mut self, ctx: &mut Ctx<Self>) {
                match self {
                    NodeState::Paxos(n) => n.on_restart(&mut ctx.view()),
                    _ => (handlers().on_restart)(self, ctx),
                }
            }
            fn on_command(&mut self, command: &Command, ctx: &mut Ctx<Self>) -> bool {
                match (&mut *self, command) {
                    (NodeState::Paxos(n), Command::Paxos(k)) => n.on_command(k, &mut ctx.view()),
                    _ => (handlers().on_command)(self, command, ctx),
                }
            }
            fn command_subject(command: &Command) -> Option<NodeId> {
                command.node().copied()
            }
            fn timer_name(timer: &Timer) -> &'static str {
                timer.type_name()
            }
        }

        impl NodeState {
            pub fn kind(&self) -> Kind {
                match self {
                    $(NodeState::$V(_) => Kind::$V,)*
                }
            }
        }

        $(
            impl Hosts<$m::$Node> for NodeState {
                #[inline(always)]
                fn msg(m: <$m::$Node as Protocol>::Msg) -> Msg {
                    Msg::$V(m)
                }
                #[inline(always)]
                fn timer(t: <$m::$Node as Protocol>::Timer) -> Timer {
                    Timer::$V(t)
                }
                #[inline(always)]
                fn note(n: <$m::$Node as Protocol>::Note) -> Note {
                    Note::$V(n)
                }
            }
        )*
    };
}

for_each_protocol!(registry);

/// What a node does at each event, as a table: [`NodeState`] handles a
/// Paxos node itself and any other through this table, so that in the split
/// page the other protocols' code (the lease lab's workers and store,
/// Multi-Paxos replicas, the commit protocols) is not in the first load: the
/// table comes with their scenario builders (`scenario::install_builders`),
/// and no node of theirs exists before them.
pub struct Handlers {
    pub on_start: fn(&mut NodeState, &mut Ctx<NodeState>),
    pub on_message: fn(&mut NodeState, NodeId, Msg, &mut Ctx<NodeState>),
    pub on_timer: fn(&mut NodeState, Timer, &mut Ctx<NodeState>),
    pub on_crash: fn(&mut NodeState),
    pub on_restart: fn(&mut NodeState, &mut Ctx<NodeState>),
    pub on_command: fn(&mut NodeState, &Command, &mut Ctx<NodeState>) -> bool,
    pub clone: fn(&NodeState) -> NodeState,
    pub clone_msg: fn(&Msg) -> Msg,
    pub clone_note: fn(&Note) -> Note,
}

#[cfg(all(target_arch = "wasm32", feature = "split"))]
static HANDLERS: std::sync::OnceLock<&'static Handlers> = std::sync::OnceLock::new();

/// Makes every protocol's nodes runnable (the split page's parts call it,
/// through `scenario::install_builders`, when they arrive; elsewhere every
/// protocol is always here).
pub fn install_handlers() {
    #[cfg(all(target_arch = "wasm32", feature = "split"))]
    let _ = HANDLERS.set(&EVERY_PROTOCOL);
}

fn handlers() -> &'static Handlers {
    #[cfg(all(target_arch = "wasm32", feature = "split"))]
    return HANDLERS
        .get()
        .expect("a node of another protocol than Paxos exists only once its builders (and handlers) are here");
    #[cfg(not(all(target_arch = "wasm32", feature = "split")))]
    &EVERY_PROTOCOL
}

/// Commands are written flat in scripts: `{"propose": {...}}`. For the
/// tests, which hold `from_json` to a derived copy; a scenario's script step
/// reads a fault or a command itself (`scenario::read`).
#[cfg(test)]
impl<N: FromValue> FromValue for Command<N> {
    fn from_value(v: serde_json::Value) -> Result<Self, String> {
        let serde_json::Value::Object(map) = v else {
            let kinds = Command::<N>::all_kinds().join(", ");
            return Err(crate::json::invalid(
                &v,
                &format!("a command, one of: {kinds}"),
            ));
        };
        let (tag, content, second) = flat::first(map, "command")?;
        if !Command::<N>::is_kind(&tag) {
            return Err(format!(
                "unknown command {tag:?}; expected one of: {}",
                Command::<N>::all_kinds().join(", ")
            ));
        }
        let c = Command::from_json(&tag, content)?;
        flat::end(second, "command")?;
        Ok(c)
    }
}

#[cfg(test)]
impl<'de, N: FromValue> serde::Deserialize<'de> for Command<N> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        crate::json::by_hand(d)
    }
}

/// Mutations are written by name: `"skip-b3"`.
impl Serialize for Mutation {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl FromValue for Mutation {
    fn from_value(v: serde_json::Value) -> Result<Self, String> {
        let s = String::from_value(v)?;
        Mutation::parse(&s).ok_or_else(|| {
            let names: Vec<&str> = Mutation::all().into_iter().map(Mutation::as_str).collect();
            format!(
                "unknown mutation {s:?}; expected one of: {}",
                names.join(", ")
            )
        })
    }
}

#[cfg(test)]
impl<'de> serde::Deserialize<'de> for Mutation {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        crate::json::by_hand(d)
    }
}

impl FromValue for Kind {
    fn from_value(v: serde_json::Value) -> Result<Self, String> {
        crate::json::named(v, Kind::ALL, Kind::as_str)
    }
}

impl fmt::Display for Mutation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl NodeState {
    pub fn as_paxos(&self) -> Option<&paxos::PaxosNode> {
        match self {
            NodeState::Paxos(n) => Some(n),
            _ => None,
        }
    }
    pub fn as_commit(&self) -> Option<&commit::CommitNode> {
        match self {
            NodeState::Commit(n) => Some(n),
            _ => None,
        }
    }
    pub fn as_lease(&self) -> Option<&lease::LeaseNode> {
        match self {
            NodeState::Lease(n) => Some(n),
            _ => None,
        }
    }
}
