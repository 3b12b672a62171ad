//! Message flights: every message copy of a run, from its send to its end
//! (delivered, lost, cut off by a partition, or sent to a crashed node).
//!
//! Built once per run from the trace. A messenger's position at time t is a
//! pure function of (sent, ended, t), so playing, pausing, stepping and
//! scrubbing all draw through the same code.

use crate::protocol::Msg;
use crate::sim::{MsgId, NodeId, SimTime};
use crate::sorted::VecMap;
use crate::trace::{DropReason, EventKind, TraceEvent};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Fate {
    Delivered,
    Dropped(DropReason),
    /// Still on the way when the run ended.
    Unfinished,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Flight {
    pub id: MsgId,
    pub from: NodeId,
    pub to: NodeId,
    pub msg: Msg,
    pub sent: SimTime,
    pub ended: SimTime,
    pub fate: Fate,
    /// A copy made by a duplicating network.
    pub duplicate: bool,
    /// Trace position of the send (or duplicate) event.
    pub seq: u64,
}

impl Flight {
    /// Progress along the path at `t`, 0 at the sender and 1 at the receiver.
    pub fn progress(&self, t: SimTime) -> f64 {
        let span = self.ended.0.saturating_sub(self.sent.0).max(1) as f64;
        crate::float::clamp((t.0.saturating_sub(self.sent.0)) as f64 / span, 0.0, 1.0)
    }
    pub fn in_flight(&self, t: SimTime) -> bool {
        self.sent <= t && t < self.ended
    }
}

/// All flights of a run, ordered by send time — and, for the space-time
/// diagram, where in the trace the faults and wake-ups are.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Flights {
    pub list: Vec<Flight>,
    /// Positions of fault and resume events in the trace.
    pub span_events: Vec<usize>,
    /// The longest flight, to bound searches.
    longest_us: u64,
}

impl Flights {
    pub fn from_trace(trace: &[TraceEvent], end: SimTime) -> Flights {
        let mut open: VecMap<MsgId, usize> = VecMap::new();
        let mut list: Vec<Flight> = Vec::new();
        let mut span_events = Vec::new();
        for (i, e) in trace.iter().enumerate() {
            if matches!(e.kind, EventKind::Fault { .. } | EventKind::Resume) {
                span_events.push(i);
            }
            match &e.kind {
                EventKind::Send { id, to, msg } | EventKind::Duplicate { id, to, msg, .. } => {
                    open.insert(*id, list.len());
                    list.push(Flight {
                        id: *id,
                        from: e.node,
                        to: *to,
                        msg: msg.clone(),
                        sent: e.t,
                        ended: end.max(e.t),
                        fate: Fate::Unfinished,
                        duplicate: matches!(e.kind, EventKind::Duplicate { .. }),
                        seq: e.seq,
                    });
                }
                EventKind::Deliver { id, .. } | EventKind::Drop { id, .. } => {
                    if let Some(i) = open.remove(id) {
                        list[i].ended = e.t;
                        list[i].fate = match &e.kind {
                            EventKind::Drop { reason, .. } => Fate::Dropped(*reason),
                            _ => Fate::Delivered,
                        };
                    }
                }
                _ => {}
            }
        }
        // Sends are recorded in time order already; keep it explicit.
        crate::sorted::sort_by_key(&mut list, |f| (f.sent.0, f.seq));
        let longest_us = list.iter().map(|f| f.ended.0 - f.sent.0).max().unwrap_or(0);
        Flights {
            list,
            span_events,
            longest_us,
        }
    }

    /// Every flight that overlaps [from, to] — sent by `to`, ended at or after
    /// `from` — in send order. Uses the send-time order to skip the rest.
    pub fn overlapping(&self, from: SimTime, to: SimTime) -> impl Iterator<Item = &Flight> {
        let hi = self.list.partition_point(|f| f.sent <= to);
        let lo_time = from.0.saturating_sub(self.longest_us);
        let lo = self.list[..hi].partition_point(|f| f.sent.0 < lo_time);
        self.list[lo..hi].iter().filter(move |f| f.ended >= from)
    }

    /// Flights on the way at `t` (sent at or before t, not yet ended), plus
    /// lost ones for a short while after they fell, so that the fall shows.
    pub fn at(&self, t: SimTime, linger_us: u64) -> impl Iterator<Item = &Flight> {
        let hi = self.list.partition_point(|f| f.sent <= t);
        let lo_time = t.0.saturating_sub(self.longest_us + linger_us);
        let lo = self.list[..hi].partition_point(|f| f.sent.0 < lo_time);
        self.list[lo..hi].iter().filter(move |f| {
            f.from != f.to
                && (f.in_flight(t)
                    || matches!(f.fate, Fate::Dropped(_))
                        && t.0 < f.ended.0 + linger_us
                        && t >= f.ended)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::builtin;
    use crate::scenario::run::Run;

    #[test]
    fn every_send_becomes_a_flight_with_its_fate() {
        let run = Run::record(&builtin::get("lossy").unwrap()).unwrap();
        let f = Flights::from_trace(&run.trace, run.end);
        let sends = run
            .trace
            .iter()
            .filter(|e| matches!(e.kind, EventKind::Send { .. } | EventKind::Duplicate { .. }))
            .count();
        assert_eq!(f.list.len(), sends);
        assert!(f
            .list
            .iter()
            .any(|x| x.fate == Fate::Dropped(DropReason::Loss)));
        assert!(f.list.iter().any(|x| x.duplicate));
        assert!(f.list.iter().all(|x| x.ended >= x.sent));
    }

    #[test]
    fn in_flight_query_matches_a_full_scan() {
        let run = Run::record(&builtin::get("lossy").unwrap()).unwrap();
        let f = Flights::from_trace(&run.trace, run.end);
        for k in 0..50 {
            let t = SimTime(run.end.0 * k / 50);
            let fast: Vec<MsgId> = f.at(t, 0).map(|x| x.id).collect();
            let slow: Vec<MsgId> = f
                .list
                .iter()
                .filter(|x| x.from != x.to && x.in_flight(t))
                .map(|x| x.id)
                .collect();
            assert_eq!(fast, slow, "at {t:?}");
        }
    }

    #[test]
    fn progress_is_clamped() {
        let fl = Flight {
            id: MsgId(0),
            from: NodeId(0),
            to: NodeId(1),
            msg: Msg::Paxos(crate::protocol::paxos::PaxosMsg::Prepare {
                ballot: crate::protocol::paxos::Ballot {
                    round: 1,
                    node: NodeId(0),
                },
            }),
            sent: SimTime(100),
            ended: SimTime(200),
            fate: Fate::Delivered,
            duplicate: false,
            seq: 0,
        };
        assert_eq!(fl.progress(SimTime(50)), 0.0);
        assert_eq!(fl.progress(SimTime(150)), 0.5);
        assert_eq!(fl.progress(SimTime(250)), 1.0);
    }
}
