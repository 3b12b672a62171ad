//! The lease lab's store as a Multi-Paxos group: the one module that speaks
//! both families.
//!
//! In every real system the lease store is itself replicated (Chubby, etcd,
//! a PostgreSQL with synchronous standbys). Here the lease lab's workers
//! (family [`super::lease`]) talk to the replicas of a Multi-Paxos group
//! (family [`super::multipaxos`]) whose state machine holds the
//! `worker_leases` row ([`super::lease_row`]). Neither family imports the
//! other; the simulator hands this module every message or timer that
//! crosses from one to the other, and it translates:
//!
//! - a worker's `Acquire` becomes a command `LeaseCas`, stamped with the
//!   receiving replica's clock — the master's `now()`, written into the log
//!   so that every replica applies the same compare-and-set; `Release`
//!   becomes `LeaseRelease`. A replica that does not lead answers with a
//!   redirect, which the worker follows.
//! - the master's reply becomes the worker's `AcquireReply`.
//! - when the master applies the statement, it puts on the record what the
//!   single store would have (`lease_granted`, `lease_renewed`,
//!   `lease_refused`, `lease_released`), sends the row's new version to
//!   `orders` (numbered by its slot, so that versions grow across masters),
//!   and watches the row's expiry on its own clock (`lease_expired`, view
//!   `store`, and the advisor told).
//!
//! The master lease of the group is what keeps a new master from judging
//! the row before the old one's lease has run out: replicas refuse to
//! follow a new master while they have promised the old one.

use super::lease::store::cas_note;
use super::lease::{LeaseMsg, LeaseNode, LeaseNote, LeaseTimer, View};
use super::lease_row::LeaseRow;
use super::multipaxos::{Cmd, MpMsg, MpNode, MpNote, Op, Outcome, Replica, Slot};
use super::{Msg, NodeState, Note, Timer};
use crate::sim::{Ctx, NodeId};

/// A store replica, if `node` is one.
fn store_replica(node: &mut NodeState) -> Option<&mut Replica> {
    match node {
        NodeState::Multipaxos(MpNode::Replica(r)) if r.group.lease_store.is_some() => Some(r),
        _ => None,
    }
}

/// The row as a store replica holds it, and how far along its log it is
/// (the next slot it would apply).
pub fn row_of(node: &NodeState) -> Option<(Slot, LeaseRow)> {
    match node {
        NodeState::Multipaxos(MpNode::Replica(r)) if r.group.lease_store.is_some() => {
            Some((r.applied, r.machine.lease?))
        }
        _ => None,
    }
}

/// What a master's step did that the lease lab must hear of.
enum Fact {
    Applied {
        slot: Slot,
        cmd: Cmd,
        outcome: Outcome,
    },
    Elected,
}

/// A message from one family to a node of the other.
#[cold]
#[inline(never)]
pub fn deliver(node: &mut NodeState, from: NodeId, msg: Msg, ctx: &mut Ctx<NodeState>) {
    if let Some(r) = store_replica(node) {
        let Msg::Lease(m) = msg else { return };
        let now_us = ctx.now().0;
        let (seq, op) = match m {
            LeaseMsg::Acquire { req, ttl_us } => (req, Op::LeaseCas { ttl_us, now_us }),
            // A release needs no answer: sequence 0 is never deduplicated.
            LeaseMsg::Release { epoch } => (0, Op::LeaseRelease { epoch, now_us }),
            _ => return,
        };
        let mark = ctx.mark();
        r.on_message(
            from,
            MpMsg::Request {
                cmd: Cmd {
                    client: from,
                    seq,
                    op,
                },
            },
            &mut ctx.view(),
        );
        after_step(node, mark, ctx);
        return;
    }
    let (NodeState::Lease(LeaseNode::Worker(w)), Msg::Multipaxos(m)) = (node, msg) else {
        return;
    };
    match m {
        MpMsg::Reply {
            seq,
            outcome: Outcome::Lease { cas, .. },
            ..
        } => w.on_message(
            LeaseMsg::AcquireReply {
                req: seq,
                epoch: cas.epoch(),
            },
            &mut ctx.view(),
        ),
        MpMsg::Redirect { seq, leader } if seq != 0 => w.on_redirect(seq, leader, &mut ctx.view()),
        _ => {}
    }
}

/// A timer of one family on a node of the other: the master's watch on the
/// row's expiry.
#[cold]
#[inline(never)]
pub fn timer(node: &mut NodeState, t: Timer, ctx: &mut Ctx<NodeState>) {
    let (Some(r), Timer::Lease(LeaseTimer::Expire)) = (store_replica(node), t) else {
        return;
    };
    let (Some(row), Some(duty)) = (r.machine.lease, r.group.lease_store) else {
        return;
    };
    if !r.is_leader() {
        return;
    }
    let now = ctx.now();
    let mut ctx = ctx.view::<LeaseNode>();
    if row.expires_at <= now {
        ctx.note(LeaseNote::Expired {
            holder: row.holder,
            epoch: row.epoch,
            view: View::Store,
        });
        if let Some(to) = duty.advisor {
            ctx.send(
                to,
                LeaseMsg::Row {
                    version: r.applied.0 as u64,
                    row,
                },
            );
        }
    } else {
        ctx.set_timer(LeaseTimer::Expire, row.expires_at.since(now));
    }
}

/// After a store replica's step: what it applied as master, said in the
/// lease lab's words; a new master starts watching the row's expiry.
#[inline(never)]
pub fn after_step(node: &mut NodeState, mark: usize, ctx: &mut Ctx<NodeState>) {
    let Some(r) = store_replica(node) else { return };
    if !r.is_leader() {
        return;
    }
    let Some(duty) = r.group.lease_store else {
        return;
    };
    let mut facts = Vec::new();
    for n in ctx.notes_since(mark) {
        match n {
            Note::Multipaxos(MpNote::Applied { slot, cmd, outcome }) => facts.push(Fact::Applied {
                slot: *slot,
                cmd: *cmd,
                outcome: *outcome,
            }),
            Note::Multipaxos(MpNote::Elected { .. }) => facts.push(Fact::Elected),
            _ => {}
        }
    }
    let now = ctx.now();
    let mut ctx = ctx.view::<LeaseNode>();
    for fact in facts {
        match fact {
            Fact::Applied {
                slot,
                cmd,
                outcome: Outcome::Lease { cas, now_us },
            } => {
                let client = cmd.client;
                ctx.note(cas_note(client, &cas, now_us, Some(slot.0 as u64)));
                if let Some(row) = cas.row() {
                    if let Some(to) = duty.storage {
                        ctx.send(
                            to,
                            LeaseMsg::Row {
                                version: slot.0 as u64,
                                row,
                            },
                        );
                    }
                    ctx.set_timer(LeaseTimer::Expire, row.expires_at.since(now));
                }
            }
            Fact::Applied {
                slot,
                outcome: Outcome::LeaseReleased { row },
                ..
            } => {
                let version = Some(slot.0 as u64);
                ctx.note(LeaseNote::Released {
                    holder: row.holder,
                    epoch: row.epoch,
                    at_us: row.expires_at.0,
                    version,
                });
                ctx.cancel_timer(LeaseTimer::Expire);
                if let Some(to) = duty.storage {
                    ctx.send(
                        to,
                        LeaseMsg::Row {
                            version: slot.0 as u64,
                            row,
                        },
                    );
                }
            }
            // Elected: watch the row its predecessors left, if it is still live.
            Fact::Elected => {
                if let Some(row) = r.machine.lease.filter(|row| row.expires_at > now) {
                    ctx.set_timer(LeaseTimer::Expire, row.expires_at.since(now));
                }
            }
            _ => {}
        }
    }
}
