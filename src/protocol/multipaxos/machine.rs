//! The replicated state machine: a few keys and a few locks.
//!
//! Every replica applies the chosen commands in slot order, so every replica
//! holds the same state after the same slots. A command is identified by
//! (client, seq): applied once, its outcome kept, so that a client's retry —
//! sent to a new leader after the old one went quiet — gets the same answer
//! instead of writing twice. A lock grant carries a generation number that
//! grows with every grant: with the lock's name it is Chubby's *sequencer*,
//! the fencing token a server checks.
//!
//! In a Chubby cell (`cell`), locks belong to sessions: a client must open
//! one before it may lock, and when the master ends a session (no KeepAlive
//! for a whole lease) its locks are freed — so a later grant gets a higher
//! generation, and the old holder's sequencer is no longer current.
//!
//! A group that stands in for the lease lab's store holds the
//! `worker_leases` row too ([`crate::protocol::lease_row`]): its
//! compare-and-set is a command like any other, judged at the time the
//! master wrote into it.

use super::{Cmd, Op, Outcome, Slot};
use crate::protocol::lease_row::{self, CasRules, LeaseRow};
use crate::protocol::value::Value;
use crate::sim::NodeId;
use crate::sim::{SimDuration, SimTime};
use crate::sorted::{VecMap, VecSet};

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Machine {
    /// key → (value, the slot that wrote it).
    pub store: VecMap<u8, (Value, Slot)>,
    /// lock → (holder, generation).
    pub locks: VecMap<u8, (NodeId, u32)>,
    /// The last generation handed out per lock.
    pub generations: VecMap<u8, u32>,
    /// Per client: its last applied seq and what it returned.
    pub done: VecMap<NodeId, (u32, Outcome)>,
    /// A Chubby cell: locks need an open session.
    pub cell: bool,
    /// The open sessions.
    pub sessions: VecSet<NodeId>,
    /// The lease lab's store: the `worker_leases` row, and its statement's rules.
    pub lease: Option<LeaseRow>,
    pub lease_rules: CasRules,
    /// The latest time a lease statement was judged at. A command a deposed
    /// master stamped long ago can be chosen late (recovered by its
    /// successor); it is judged at this time instead, so that the row's
    /// history never runs backwards.
    pub lease_now: u64,
}

impl Machine {
    /// A read, as the current state answers it (a read served by a master
    /// from its own copy, without a slot).
    pub fn read(&self, key: u8) -> Outcome {
        match self.store.get(&key) {
            Some(&(value, version)) => Outcome::Value {
                value: Some(value),
                version,
            },
            None => Outcome::Value {
                value: None,
                version: Slot(0),
            },
        }
    }

    /// A read-only operation ([`Op::is_read`]), as the current state answers it.
    pub fn answer(&self, op: &Op) -> Option<Outcome> {
        match *op {
            Op::Get { key } => Some(self.read(key)),
            Op::Check { lock, generation } => Some(Outcome::Sequencer {
                current: self.locks.get(&lock).is_some_and(|&(_, g)| g == generation),
            }),
            _ => None,
        }
    }

    /// The answer already given to this command, if it was applied before.
    /// A lease statement has none: like any statement a database receives,
    /// it runs each time (a worker never sends one twice on purpose).
    pub fn answered(&self, cmd: &Cmd) -> Option<Outcome> {
        if cmd.op.is_lease_statement() {
            return None;
        }
        self.done
            .get(&cmd.client)
            .filter(|d| d.0 >= cmd.seq && cmd.seq != 0)
            .map(|d| d.1)
    }

    /// The time a lease statement stamped `now_us` is judged at: never
    /// before one already applied (see `lease_now`).
    fn lease_time(&mut self, now_us: u64) -> SimTime {
        self.lease_now = now_us.max(self.lease_now);
        SimTime(self.lease_now)
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
            Op::Get { .. } | Op::Check { .. } => self.answer(&cmd.op).unwrap_or(Outcome::Done),
            Op::Acquire { .. } if self.cell && !self.sessions.contains(&cmd.client) => {
                Outcome::NoSession
            }
            Op::Acquire { lock } => match self.locks.get(&lock) {
                Some(&(holder, generation)) if holder == cmd.client => {
                    Outcome::Granted { generation }
                }
                Some(&(holder, _)) => Outcome::Busy { holder },
                None => {
                    let g = self.generations.or_insert(lock, 0);
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
            Op::OpenSession => {
                self.sessions.insert(cmd.client);
                Outcome::SessionOpened
            }
            Op::EndSession { client } => {
                self.sessions.remove(&client);
                self.locks.retain(|_, &mut (holder, _)| holder != client);
                Outcome::Done
            }
            Op::LeaseCas { ttl_us, now_us } => {
                let now = self.lease_time(now_us);
                let cas = lease_row::compare_and_set(
                    self.lease,
                    cmd.client,
                    now,
                    SimDuration(ttl_us),
                    self.lease_rules,
                );
                if let Some(row) = cas.row() {
                    self.lease = Some(row);
                }
                Outcome::Lease { cas, now_us: now.0 }
            }
            Op::LeaseRelease { epoch, now_us } => {
                let now = self.lease_time(now_us);
                match lease_row::release(self.lease, cmd.client, epoch, now) {
                    Some(row) => {
                        self.lease = Some(row);
                        Outcome::LeaseReleased { row }
                    }
                    None => Outcome::NotHeld,
                }
            }
        };
        if cmd.seq != 0 && !cmd.op.is_lease_statement() {
            self.done.insert(cmd.client, (cmd.seq, outcome));
        }
        outcome
    }
}
