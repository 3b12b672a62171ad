//! The lease lab's lanes, from a run's trace: per worker what it *believes*
//! and, beneath it, what the store says; frozen and LLM-waiting spans; the
//! store's grants; the writes on `orders`, accepted or refused; the LLM's
//! calls; and the split-brain windows. Pure data; the view maps time to x.

use crate::check::lease_monitor::LeaseTruth;
use crate::protocol::lease::{LeaseMsg, LeaseNote, View};
use crate::protocol::llm::{LlmOutcome, Purpose};
use crate::protocol::multipaxos::MpNote;
use crate::protocol::storage::Refusal;
use crate::protocol::{Msg, Note};
use crate::scenario::run::Run;
use crate::scenario::Role;
use crate::sim::fault::Fault;
use crate::sim::{NodeId, SimTime};
use crate::trace::EventKind;

#[derive(Clone, Debug, PartialEq)]
pub struct Band {
    pub from: SimTime,
    pub to: SimTime,
    pub epoch: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Span {
    pub from: SimTime,
    pub to: SimTime,
}

#[derive(Clone, Debug, PartialEq)]
pub struct WorkerLane {
    pub node: NodeId,
    pub name: String,
    /// "I hold the lease with epoch e" — the worker's belief.
    pub believed: Vec<Band>,
    /// The store's grants to this worker (granted → expired on the store's clock).
    pub truth: Vec<Band>,
    /// Paused (frozen) spans.
    pub frozen: Vec<Span>,
    /// Crashed spans.
    pub down: Vec<Span>,
    /// Waiting on an LLM answer inside the loop.
    pub waiting: Vec<Span>,
    /// Believed while the store had already let the lease go: the danger.
    pub danger: Vec<Span>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct WriteMark {
    pub t: SimTime,
    pub writer: NodeId,
    pub epoch: u64,
    pub key: u16,
    pub accepted: bool,
    /// The row's `fence_epoch` before the write (accepted) or at the refusal.
    pub row: u64,
    /// For a refusal: the clause of the fenced `UPDATE` that refused it.
    pub reason: Option<Refusal>,
    /// Accepted, but over a row written with a higher epoch (damage).
    pub overwrote: bool,
    /// Accepted, but its epoch was not the live lease at that instant (the
    /// damage the article's fence prevents; `token` and `off` let it in).
    pub dead: bool,
    /// For a refusal: the lease row `orders` judged against, and its clock.
    pub lease: Option<crate::protocol::lease::LeaseRow>,
    pub now_us: u64,
}

impl WriteMark {
    /// Accepted, not over a higher epoch's row, while its lease was live: a
    /// plain dot on the lane, with no mark or label of its own.
    pub fn plain(&self) -> bool {
        self.accepted && !self.overwrote && !self.dead
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct GrantMark {
    pub t: SimTime,
    pub holder: NodeId,
    pub epoch: u64,
    pub takeover: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LlmCall {
    pub worker: NodeId,
    pub from: SimTime,
    pub to: Option<SimTime>,
    pub purpose: Purpose,
    pub outcome: Option<LlmOutcome>,
}

/// A compare-and-set request on its way from a worker to the store.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub worker: NodeId,
    pub sent: SimTime,
    /// Arrival, or where it was lost.
    pub ended: SimTime,
    pub delivered: bool,
}

/// A replica of a replicated store: when it held the group's master lease
/// (and alone answered the workers), when it was down, when it was elected.
#[derive(Clone, Debug, PartialEq)]
pub struct StoreLane {
    pub node: NodeId,
    pub name: String,
    pub master: Vec<Span>,
    pub down: Vec<Span>,
    pub elected: Vec<SimTime>,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Lanes {
    pub requests: Vec<Request>,
    /// A replicated store's replicas (empty for the single store).
    pub stores: Vec<StoreLane>,
    pub workers: Vec<WorkerLane>,
    pub grants: Vec<GrantMark>,
    pub expiries: Vec<(SimTime, NodeId, u64)>,
    pub writes: Vec<WriteMark>,
    pub calls: Vec<LlmCall>,
    pub split: Vec<Span>,
    pub end: SimTime,
}

fn close(open: &mut Option<(SimTime, u64)>, at: SimTime, into: &mut Vec<Band>) {
    if let Some((from, epoch)) = open.take() {
        into.push(Band {
            from,
            to: at.max(from),
            epoch,
        });
    }
}

fn close_span(open: &mut Option<SimTime>, at: SimTime, into: &mut Vec<Span>) {
    if let Some(from) = open.take() {
        into.push(Span {
            from,
            to: at.max(from),
        });
    }
}

pub fn lanes(run: &Run) -> Lanes {
    let names = &run.names;
    let workers: Vec<NodeId> = run.scenario.nodes_with(Role::Worker);
    let n = run.names.len();
    let mut believed: Vec<Option<(SimTime, u64)>> = vec![None; n];
    let mut truth: Vec<Option<(SimTime, u64)>> = vec![None; n];
    let mut frozen: Vec<Option<SimTime>> = vec![None; n];
    let mut down: Vec<Option<SimTime>> = vec![None; n];
    let mut waiting: Vec<Option<SimTime>> = vec![None; n];
    let store_nodes = run.scenario.nodes_with(Role::LeaseStore);
    let stores: Vec<NodeId> = if store_nodes.len() > 1 {
        store_nodes
    } else {
        Vec::new()
    };
    let mut master: Vec<Option<SimTime>> = vec![None; n];
    let mut out = Lanes {
        stores: stores
            .iter()
            .map(|&s| StoreLane {
                node: s,
                name: names[s.index()].clone(),
                master: Vec::new(),
                down: Vec::new(),
                elected: Vec::new(),
            })
            .collect(),
        workers: workers
            .iter()
            .map(|&w| WorkerLane {
                node: w,
                name: names[w.index()].clone(),
                believed: Vec::new(),
                truth: Vec::new(),
                frozen: Vec::new(),
                down: Vec::new(),
                waiting: Vec::new(),
                danger: Vec::new(),
            })
            .collect(),
        end: run.end,
        ..Lanes::default()
    };
    let lane = |w: NodeId| workers.iter().position(|&x| x == w);
    let mut split_open: Option<SimTime> = None;
    // Acquire/renew requests in flight: message id → index in `out.requests`.
    let mut open_req: crate::sorted::VecMap<u64, usize> = crate::sorted::VecMap::new();
    let mut row_epoch: Vec<u64> = Vec::new();
    let mut store_row = LeaseTruth::default();
    // The verdict on the write note being handled below (set just above it).
    let mut out_dead: Vec<bool> = Vec::new();
    for e in &run.trace {
        let t = e.t;
        // A replicated store's new master re-telling old statements: history.
        if let EventKind::Note(Note::Lease(n)) = &e.kind {
            if store_row.is_stale(n) {
                continue;
            }
        }
        if let EventKind::Note(Note::Lease(n)) = &e.kind {
            if let LeaseNote::WriteAccepted {
                writer,
                epoch,
                db_now_us,
                ..
            } = *n
            {
                let dead = !store_row.live(writer, epoch, db_now_us);
                out_dead.push(dead);
            }
            store_row.on_note(n);
        }
        let store_lane = |node: NodeId| stores.iter().position(|&s| s == node);
        match &e.kind {
            EventKind::Note(Note::Multipaxos(MpNote::MasterLeaseHeld { holder, .. })) => {
                if store_lane(*holder).is_some() && master[holder.index()].is_none() {
                    master[holder.index()] = Some(t);
                }
            }
            EventKind::Note(Note::Multipaxos(MpNote::MasterLeaseReleased { holder, .. })) => {
                if let Some(s) = store_lane(*holder) {
                    close_span(&mut master[holder.index()], t, &mut out.stores[s].master);
                }
            }
            EventKind::Note(Note::Multipaxos(MpNote::Elected { .. })) => {
                if let Some(s) = store_lane(e.node) {
                    out.stores[s].elected.push(t);
                }
            }
            EventKind::Fault {
                fault: Fault::Crash { node },
            } if store_lane(*node).is_some() => {
                down[node.index()] = Some(t);
            }
            EventKind::Fault {
                fault: Fault::Restart { node },
            } if store_lane(*node).is_some() => {
                let s = store_lane(*node).unwrap_or(0);
                close_span(&mut down[node.index()], t, &mut out.stores[s].down);
            }
            EventKind::Send {
                id,
                msg: Msg::Lease(LeaseMsg::Acquire { .. }),
                ..
            } => {
                open_req.insert(id.0, out.requests.len());
                out.requests.push(Request {
                    worker: e.node,
                    sent: t,
                    ended: run.end,
                    delivered: false,
                });
            }
            EventKind::Deliver {
                id,
                msg: Msg::Lease(LeaseMsg::Acquire { .. }),
                ..
            } => {
                if let Some(i) = open_req.remove(&id.0) {
                    out.requests[i].ended = t;
                    out.requests[i].delivered = true;
                }
            }
            EventKind::Drop {
                id,
                msg: Msg::Lease(LeaseMsg::Acquire { .. }),
                ..
            } => {
                if let Some(i) = open_req.remove(&id.0) {
                    out.requests[i].ended = t;
                }
            }
            EventKind::Note(Note::Lease(note)) => match *note {
                LeaseNote::Belief { holding, epoch } => {
                    if let Some(l) = lane(e.node) {
                        if holding {
                            believed[e.node.index()] = Some((t, epoch));
                        } else {
                            close(
                                &mut believed[e.node.index()],
                                t,
                                &mut out.workers[l].believed,
                            );
                        }
                    }
                }
                LeaseNote::Granted {
                    holder,
                    epoch,
                    previous,
                    ..
                } => {
                    if let Some((h, _, _)) = previous {
                        if let Some(l) = lane(h) {
                            close(&mut truth[h.index()], t, &mut out.workers[l].truth);
                        }
                    }
                    if lane(holder).is_some() {
                        truth[holder.index()] = Some((t, epoch));
                    }
                    out.grants.push(GrantMark {
                        t,
                        holder,
                        epoch,
                        takeover: previous.is_some_and(|(h, _, _)| h != holder),
                    });
                }
                LeaseNote::Renewed { holder, epoch, .. } => {
                    // A renewal that bumps the epoch starts a new band.
                    if let Some(l) = lane(holder) {
                        if truth[holder.index()].is_some_and(|(_, e0)| e0 != epoch) {
                            close(&mut truth[holder.index()], t, &mut out.workers[l].truth);
                            truth[holder.index()] = Some((t, epoch));
                        } else if truth[holder.index()].is_none() {
                            truth[holder.index()] = Some((t, epoch));
                        }
                    }
                }
                LeaseNote::Expired {
                    holder,
                    epoch,
                    view: View::Store,
                }
                | LeaseNote::Released { holder, epoch, .. } => {
                    if let Some(l) = lane(holder) {
                        if truth[holder.index()].is_some_and(|(_, e0)| e0 == epoch) {
                            close(&mut truth[holder.index()], t, &mut out.workers[l].truth);
                        }
                    }
                    out.expiries.push((t, holder, epoch));
                }
                LeaseNote::WriteAccepted {
                    writer,
                    epoch,
                    key,
                    previous,
                    db_now_us,
                } => {
                    let k = key as usize;
                    if row_epoch.len() <= k {
                        row_epoch.resize(k + 1, 0);
                    }
                    let overwrote = epoch < row_epoch[k].max(previous);
                    row_epoch[k] = epoch;
                    out.writes.push(WriteMark {
                        t,
                        writer,
                        epoch,
                        key,
                        accepted: true,
                        row: previous,
                        reason: None,
                        overwrote,
                        dead: out_dead.pop().unwrap_or(false),
                        lease: None,
                        now_us: db_now_us,
                    });
                }
                LeaseNote::WriteRejected {
                    writer,
                    epoch,
                    key,
                    row,
                    reason,
                    lease,
                    db_now_us,
                } => out.writes.push(WriteMark {
                    t,
                    writer,
                    epoch,
                    key,
                    accepted: false,
                    row,
                    reason: Some(reason),
                    overwrote: false,
                    dead: false,
                    lease,
                    now_us: db_now_us,
                }),
                LeaseNote::LlmRequest { purpose } => {
                    out.calls.push(LlmCall {
                        worker: e.node,
                        from: t,
                        to: None,
                        purpose,
                        outcome: None,
                    });
                    if purpose == Purpose::KeepLease {
                        waiting[e.node.index()] = Some(t);
                    }
                }
                LeaseNote::LlmResponse { outcome, .. } => {
                    if let Some(c) = out
                        .calls
                        .iter_mut()
                        .rev()
                        .find(|c| c.worker == e.node && c.to.is_none())
                    {
                        c.to = Some(t);
                        c.outcome = Some(outcome);
                    }
                    if let Some(l) = lane(e.node) {
                        close_span(&mut waiting[e.node.index()], t, &mut out.workers[l].waiting);
                    }
                }
                LeaseNote::SplitBrainStart { .. } => split_open = Some(t),
                LeaseNote::SplitBrainEnd { .. } => close_span(&mut split_open, t, &mut out.split),
                _ => {}
            },
            EventKind::Fault {
                fault: Fault::Pause { node, .. },
            } => {
                // A pause while paused only lengthens the first (one Resume
                // ends both), and a crashed worker does not pause: the span
                // keeps its first start (a second pause moved it).
                if lane(*node).is_some() && down[node.index()].is_none() {
                    frozen[node.index()].get_or_insert(t);
                }
            }
            EventKind::Resume => {
                if let Some(l) = lane(e.node) {
                    close_span(&mut frozen[e.node.index()], t, &mut out.workers[l].frozen);
                }
            }
            EventKind::Fault {
                fault: Fault::Crash { node },
            } => {
                if let Some(l) = lane(*node) {
                    // A crash wipes the worker's belief (volatile) and its wait.
                    close(&mut believed[node.index()], t, &mut out.workers[l].believed);
                    close_span(&mut waiting[node.index()], t, &mut out.workers[l].waiting);
                    close_span(&mut frozen[node.index()], t, &mut out.workers[l].frozen);
                    down[node.index()] = Some(t);
                }
            }
            EventKind::Fault {
                fault: Fault::Restart { node },
            } => {
                if let Some(l) = lane(*node) {
                    close_span(&mut down[node.index()], t, &mut out.workers[l].down);
                }
            }
            _ => {}
        }
    }
    let end = run.end;
    for (l, &w) in workers.iter().enumerate() {
        let i = w.index();
        close(&mut believed[i], end, &mut out.workers[l].believed);
        close(&mut truth[i], end, &mut out.workers[l].truth);
        close_span(&mut frozen[i], end, &mut out.workers[l].frozen);
        close_span(&mut down[i], end, &mut out.workers[l].down);
        close_span(&mut waiting[i], end, &mut out.workers[l].waiting);
    }
    for (s, &node) in stores.iter().enumerate() {
        close_span(&mut master[node.index()], end, &mut out.stores[s].master);
        close_span(&mut down[node.index()], end, &mut out.stores[s].down);
    }
    close_span(&mut split_open, end, &mut out.split);
    for w in &mut out.workers {
        w.danger = w
            .believed
            .iter()
            .flat_map(|b| uncovered(b, &w.truth))
            .collect();
    }
    out
}

/// The parts of belief band `b` that no truth band of the same epoch covers.
fn uncovered(b: &Band, truth: &[Band]) -> Vec<Span> {
    let mut gaps = vec![Span {
        from: b.from,
        to: b.to,
    }];
    for t in truth.iter().filter(|t| t.epoch == b.epoch) {
        gaps = gaps
            .into_iter()
            .flat_map(|g| {
                let mut parts = Vec::new();
                if t.from > g.from {
                    parts.push(Span {
                        from: g.from,
                        to: t.from.min(g.to),
                    });
                }
                if t.to < g.to {
                    parts.push(Span {
                        from: t.to.max(g.from),
                        to: g.to,
                    });
                }
                parts.into_iter().filter(|p| p.to > p.from)
            })
            .collect();
    }
    // Slivers from message latency are not the danger the lab is about.
    gaps.retain(|g| g.to.0 - g.from.0 >= 50_000);
    gaps
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::builtin;

    #[test]
    fn kleppmann_lanes_tell_the_story() {
        let run = Run::record(&builtin::get("kleppmann").unwrap()).unwrap();
        let l = lanes(&run);
        assert_eq!(l.workers.len(), 2);
        let w1 = &l.workers[0];
        assert_eq!(w1.believed[0].epoch, 33);
        assert_eq!(w1.frozen.len(), 1, "one pause");
        // W1 believed well past the store's expiry of its lease: the danger gap.
        let truth_end = w1.truth[0].to;
        assert!(w1.believed[0].to > truth_end);
        assert!(l.writes.iter().any(|w| !w.accepted
            && w.epoch == 33
            && w.row == 34
            && w.reason == Some(Refusal::RowFenced)));
        assert_eq!(l.split.len(), 1);
        assert!(
            w1.danger.iter().any(|d| d.to.0 - d.from.0 > 5_000_000),
            "W1 believed long after expiry"
        );
        assert!(l.grants.iter().any(|g| g.takeover && g.epoch == 34));
        // W1's renewals stop while it is paused.
        let paused = &w1.frozen[0];
        assert!(!l
            .requests
            .iter()
            .any(|r| r.worker == w1.node && r.sent > paused.from && r.sent < paused.to));
        assert!(l.requests.iter().filter(|r| r.delivered).count() > 10);
    }

    #[test]
    fn a_pause_injected_while_paused_keeps_the_frozen_span_where_it_began() {
        use crate::scenario::{Scheduled, Step};
        let s = builtin::get("kleppmann").unwrap();
        let run = Run::record(&s).unwrap();
        let l = lanes(&run);
        let before = l.workers[0].frozen.clone();
        let mut again = s.clone();
        let w1 = run.names[l.workers[0].node.index()].clone();
        let at = before[0].from.0 + 900_000;
        again.faults.push(Scheduled {
            at_us: at,
            fault: Step::Fault(Fault::Pause {
                node: w1,
                for_us: 1_000_000,
            }),
        });
        let after = lanes(&Run::record(&again).unwrap()).workers[0]
            .frozen
            .clone();
        assert_eq!(after.len(), 1);
        assert_eq!(
            after[0].from, before[0].from,
            "the span moved to the second pause"
        );
        assert_eq!(after[0].to, before[0].to);
    }

    #[test]
    fn a_replicated_stores_lanes_show_the_masters_and_the_crash() {
        let run = Run::record(&builtin::get("replicated-store").unwrap()).unwrap();
        let l = lanes(&run);
        let names: Vec<&str> = l.stores.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["S1", "S2", "S3"]);
        let (s1, s2) = (&l.stores[0], &l.stores[1]);
        assert_eq!(s1.down.len(), 1, "S1 is down once");
        // S1's master lease ends with its crash; S2's starts after it.
        assert!(s1.master.first().is_some_and(|m| m.to == s1.down[0].from));
        let s2_from = s2.master.first().map(|m| m.from).unwrap();
        assert!(s2_from > s1.down[0].from && s2.elected.first().is_some_and(|&t| t <= s2_from));
        // The grants and renewals of both masters reach W2's lane, without a break.
        let w2 = l.workers.iter().find(|w| w.name == "W2").unwrap();
        assert!(w2
            .truth
            .iter()
            .any(|b| b.epoch == 33 && b.from.0 < 1_000_000 && b.to.0 > 12_000_000));
    }

    #[test]
    fn llm_calls_pair_with_their_answers() {
        let run = Run::record(&builtin::get("llm-in-loop").unwrap()).unwrap();
        let l = lanes(&run);
        assert!(!l.calls.is_empty());
        let stalled = l
            .calls
            .iter()
            .map(|c| c.to.map(|to| to.0 - c.from.0).unwrap_or(0))
            .max()
            .unwrap();
        assert!(stalled >= 12_000_000, "the 12 s stall shows: {stalled}");
        assert!(l.workers[0]
            .waiting
            .iter()
            .any(|s| s.to.0 - s.from.0 >= 12_000_000));
    }
}
