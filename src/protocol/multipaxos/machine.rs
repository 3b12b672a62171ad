//! The replicated state machine: a few keys and a few locks.
//!
//! Every replica applies the chosen commands in slot order, so every replica
//! holds the same state after the same slots. A command is identified by
//! (client, seq): applied once, its outcome kept, so that a client's retry —
//! sent to a new leader after the old one went quiet — gets the same answer
//! instead of writing twice. A lock grant carries a generation number that
//! grows with every grant: with the lock's name it is Chubby's *sequencer*,
//! the fencing token a server checks.

use super::{Cmd, Op, Outcome, Slot};
use crate::protocol::value::Value;
use crate::sim::NodeId;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Machine {
    /// key → (value, the slot that wrote it).
    pub store: BTreeMap<u8, (Value, Slot)>,
    /// lock → (holder, generation).
    pub locks: BTreeMap<u8, (NodeId, u32)>,
    /// The last generation handed out per lock.
    pub generations: BTreeMap<u8, u32>,
    /// Per client: its last applied seq and what it returned.
    pub done: BTreeMap<NodeId, (u32, Outcome)>,
}

impl Machine {
    /// A read, as the current state answers it (a read served by a master
    /// from its own copy, without a slot).
    pub fn read(&self, key: u8) -> Outcome {
        match self.store.get(&key) {
            Some(&(value, version)) => Outcome::Value { value: Some(value), version },
            None => Outcome::Value { value: None, version: Slot(0) },
        }
    }

    /// The answer already given to this command, if it was applied before.
    pub fn answered(&self, cmd: &Cmd) -> Option<Outcome> {
        self.done.get(&cmd.client).filter(|d| d.0 >= cmd.seq && cmd.seq != 0).map(|d| d.1)
    }

    /// Apply the command chosen for `slot`.
    pub fn apply(&mut self, slot: Slot, cmd: &Cmd) -> Outcome {
        if let Some(o) = self.answered(cmd) {
            return o; // a retry of something already applied: same answer
        }
        let outcome = match cmd.op {
            Op::Noop => Outcome::Done,
            Op::Put { key, value } => {
                self.store.insert(key, (value, slot));
                Outcome::Written { version: slot }
            }
            Op::Get { key } => self.read(key),
            Op::Acquire { lock } => match self.locks.get(&lock) {
                Some(&(holder, generation)) if holder == cmd.client => Outcome::Granted { generation },
                Some(&(holder, _)) => Outcome::Busy { holder },
                None => {
                    let g = self.generations.entry(lock).or_insert(0);
                    *g += 1;
                    self.locks.insert(lock, (cmd.client, *g));
                    Outcome::Granted { generation: *g }
                }
            },
            Op::Release { lock } => match self.locks.get(&lock) {
                Some(&(holder, _)) if holder == cmd.client => {
                    self.locks.remove(&lock);
                    Outcome::Released
                }
                _ => Outcome::NotHeld,
            },
        };
        if cmd.seq != 0 {
            self.done.insert(cmd.client, (cmd.seq, outcome));
        }
        outcome
    }
}
