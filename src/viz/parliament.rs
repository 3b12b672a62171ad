//! The chamber: where legislators sit, what their ledgers say at time t, and
//! where the messengers are. Pure geometry and data for the parliament view.

use super::flights::{Fate, Flight, Flights};
use crate::float::{clamp, fixed};
use crate::protocol::paxos::{Ballot, Choice, Members, PaxosNode, PaxosNote, Phase, Vote};
use crate::protocol::{Msg, Note, Value};
use crate::scenario::Simulator;
use crate::sim::{NodeId, SimTime, Status};
use crate::trace::{DropReason, EventKind, TraceEvent};

/// Seat circle radius, and ledger card size.
pub const SEAT_R: f64 = 32.0;
const CARD_W: f64 = 160.0;
const CARD_H: f64 = 80.0;

#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

/// Seat and ledger positions for `n` legislators on a semicircle. The
/// chamber grows with the number of legislators (the SVG scales it to fit),
/// so that cards never cover seats or each other.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub width: f64,
    pub height: f64,
    pub centre: Point,
    pub radius: f64,
    pub seats: Vec<Point>,
    pub ledgers: Vec<Point>,
    pub ledger_w: f64,
    pub ledger_h: f64,
}

impl Layout {
    pub fn new(n: usize) -> Layout {
        let n = n.max(1);
        let r = 280.0 + 34.0 * n.saturating_sub(4) as f64;
        let (cx, cy) = (r + 230.0, r + 180.0);
        let (width, height) = (2.0 * cx, cy + 64.0);
        let (w, h) = (CARD_W, CARD_H);
        // A horseshoe open towards the viewer: seats from the far left (180°)
        // over the top to the far right (360°).
        let angle = |i: usize| {
            if n == 1 {
                270f64.to_radians()
            } else {
                (180.0 + 180.0 * i as f64 / (n - 1) as f64).to_radians()
            }
        };
        let mut seats = Vec::with_capacity(n);
        let mut ledgers = Vec::with_capacity(n);
        for i in 0..n {
            let a = angle(i);
            let (c, s) = (a.cos(), a.sin());
            seats.push(Point {
                x: cx + r * c,
                y: cy + r * s,
            });
            // Distance from the card's centre to its edge along the ray, plus
            // the seat, a gap, and a little more on the diagonals (corners).
            let edge = (if c.abs() > 1e-9 {
                w / 2.0 / c.abs()
            } else {
                f64::MAX
            })
            .min(if s.abs() > 1e-9 {
                h / 2.0 / s.abs()
            } else {
                f64::MAX
            });
            let out = SEAT_R + 12.0 + edge + 18.0 * (2.0 * a).sin().abs();
            ledgers.push(Point {
                x: clamp(cx + (r + out) * c, w / 2.0 + 4.0, width - w / 2.0 - 4.0),
                y: clamp(cy + (r + out) * s, h / 2.0 + 4.0, height - h / 2.0 - 4.0),
            });
        }
        Layout {
            width,
            height,
            centre: Point { x: cx, y: cy },
            radius: r,
            seats,
            ledgers,
            ledger_w: w,
            ledger_h: h,
        }
    }

    pub fn view_box(&self) -> String {
        format!("0 0 {} {}", fixed(self.width, 0), fixed(self.height, 0))
    }

    /// The chamber without the ledger cards, for a phone: the seats, with
    /// room above them for a door or a pause, below them for the role marks,
    /// and the banner at the top. Its scale is about twice the full view's,
    /// so seats stay large enough to tap; the ledgers are listed under it.
    pub fn seats_view_box(&self) -> String {
        let pad = SEAT_R + 30.0;
        let (x0, x1) = self
            .seats
            .iter()
            .fold((f64::MAX, f64::MIN), |(a, b), s| (a.min(s.x), b.max(s.x)));
        let (x0, x1) = (x0 - pad, x1 + pad);
        let bottom = self.seats.iter().map(|s| s.y).fold(0.0, f64::max) + SEAT_R + 26.0;
        format!(
            "{} 12 {} {}",
            fixed(x0, 0),
            fixed(x1 - x0, 0),
            fixed(bottom - 12.0, 0)
        )
    }

    /// The chamber floor: an arc under the seats.
    pub fn floor_path(&self) -> String {
        let (c, r) = (self.centre, self.radius);
        format!(
            "M {} {} A {r} {r} 0 0 1 {} {}",
            fixed(c.x - r, 1),
            fixed(c.y, 1),
            fixed(c.x + r, 1),
            fixed(c.y, 1),
            r = fixed(r, 1)
        )
    }

    /// Where a messenger from `a` to `b` is at progress `p` (0..1): a curve
    /// through the chamber floor, offset by direction so that a request and its
    /// reply do not overlap.
    pub fn path_point(&self, a: NodeId, b: NodeId, p: f64) -> Point {
        let (pa, pb) = (self.seats[a.index()], self.seats[b.index()]);
        let mid = Point {
            x: (pa.x + pb.x) / 2.0,
            y: (pa.y + pb.y) / 2.0,
        };
        let (dx, dy) = (pb.x - pa.x, pb.y - pa.y);
        let len = (dx * dx + dy * dy).sqrt().max(1.0);
        let side = if a < b { 1.0 } else { -1.0 };
        let c = self.centre;
        let q = Point {
            x: mid.x + (c.x - mid.x) * 0.35 - dy / len * 14.0 * side,
            y: mid.y + (c.y - 60.0 - mid.y) * 0.35 + dx / len * 14.0 * side,
        };
        let u = 1.0 - p;
        Point {
            x: u * u * pa.x + 2.0 * u * p * q.x + p * p * pb.x,
            y: u * u * pa.y + 2.0 * u * p * q.y + p * p * pb.y,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Default)]
pub enum SeatStatus {
    #[default]
    Present,
    /// Crashed: away from the chamber; the ledger stays.
    Away,
    /// Paused: asleep until `until_us` (simulated time). The moment it
    /// wakes, not the time left: the seat's state then changes only at
    /// events, and the countdown is the view's, worked out from the cursor.
    Asleep { until_us: u64 },
}

/// The proposer's pencil slips.
#[derive(Clone, Debug, PartialEq)]
pub enum Pencil {
    Idle,
    Collecting {
        ballot: Ballot,
        promises: usize,
        need: usize,
    },
    Voting {
        ballot: Ballot,
        value: Value,
        choice: Choice,
        votes: usize,
        need: usize,
    },
    Passed {
        value: Value,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Seat {
    pub id: NodeId,
    pub proposer: bool,
    pub acceptor: bool,
    pub learner: bool,
    pub status: SeatStatus,
    /// Ink: the promise and the last vote.
    pub max_bal: Option<Ballot>,
    pub last_vote: Option<Vote>,
    /// Ink: the decree it learned.
    pub learned: Option<Value>,
    pub pencil: Option<Pencil>,
    /// The decree its proposer wants.
    pub wants: Option<Value>,
}

pub fn seats(sim: &Simulator) -> Vec<Seat> {
    (0..sim.node_count())
        .map(|i| {
            let id = NodeId(i as u8);
            let status = match sim.status(id) {
                Status::Up => SeatStatus::Present,
                Status::Down => SeatStatus::Away,
                Status::Paused { until, .. } => SeatStatus::Asleep { until_us: until.0 },
            };
            let Some(p) = sim.node(id).as_paxos() else {
                return Seat {
                    id,
                    proposer: false,
                    acceptor: false,
                    learner: false,
                    status,
                    max_bal: None,
                    last_vote: None,
                    learned: None,
                    pencil: None,
                    wants: None,
                };
            };
            seat_of(id, p, status)
        })
        .collect()
}

fn seat_of(id: NodeId, p: &PaxosNode, status: SeatStatus) -> Seat {
    let need = p.synod.quorum;
    let pencil = p.proposer.as_ref().map(|pr| match &pr.phase {
        Phase::Idle => Pencil::Idle,
        Phase::Preparing { ballot, promises } => Pencil::Collecting {
            ballot: *ballot,
            promises: promises.len(),
            need,
        },
        Phase::Accepting {
            ballot,
            value,
            choice,
            accepted,
            ..
        } => Pencil::Voting {
            ballot: *ballot,
            value: *value,
            choice: *choice,
            votes: accepted.len(),
            need,
        },
        Phase::Done { value, .. } => Pencil::Passed { value: *value },
    });
    Seat {
        id,
        proposer: p.proposer.is_some(),
        acceptor: p.acceptor.is_some(),
        learner: p.learner.is_some(),
        status,
        max_bal: p.acceptor.as_ref().and_then(|a| a.max_bal),
        last_vote: p.acceptor.as_ref().and_then(|a| a.last_vote()),
        learned: p.learned(),
        pencil,
        wants: p.proposer.as_ref().map(|pr| pr.value),
    }
}

/// Seats rebuilt from a trace alone (a recorded or foreign trace, with no
/// simulator behind it): the ledgers from `ledger` and `learned` notes, the
/// presence from crash, restart, pause and resume events. `events` are those
/// up to the instant shown.
pub fn seats_from_trace(n: usize, events: &[TraceEvent]) -> Vec<Seat> {
    use crate::sim::fault::Fault;
    let mut seats: Vec<Seat> = (0..n)
        .map(|i| Seat {
            id: NodeId(i as u8),
            proposer: false,
            acceptor: false,
            learner: false,
            status: SeatStatus::Present,
            max_bal: None,
            last_vote: None,
            learned: None,
            pencil: None,
            wants: None,
        })
        .collect();
    for e in events {
        let i = e.node.index();
        match &e.kind {
            EventKind::Note(Note::Paxos(p)) if i < n => match *p {
                PaxosNote::Ledger { max_bal, last_vote } => {
                    seats[i].acceptor = true;
                    seats[i].max_bal = max_bal;
                    seats[i].last_vote = last_vote;
                }
                PaxosNote::Learned { value, .. } => {
                    seats[i].learner = true;
                    seats[i].learned = Some(value);
                }
                PaxosNote::Asked { value } => {
                    seats[i].proposer = true;
                    seats[i].wants = Some(value);
                }
                PaxosNote::BallotStarted { .. } => seats[i].proposer = true,
                _ => {}
            },
            EventKind::Fault { fault } => match *fault {
                Fault::Crash { node } if node.index() < n => {
                    seats[node.index()].status = SeatStatus::Away
                }
                Fault::Restart { node } if node.index() < n => {
                    seats[node.index()].status = SeatStatus::Present
                }
                Fault::Pause { node, for_us }
                    if node.index() < n && seats[node.index()].status != SeatStatus::Away =>
                {
                    seats[node.index()].status = SeatStatus::Asleep {
                        until_us: e.t.0.saturating_add(for_us),
                    };
                }
                _ => {}
            },
            EventKind::Resume if i < n => {
                seats[i].status = SeatStatus::Present;
            }
            _ => {}
        }
    }
    seats
}

/// A messenger as drawn at time t.
#[derive(Clone, Debug, PartialEq)]
pub struct Messenger {
    pub id: u64,
    pub at: Point,
    pub msg: Msg,
    pub from: NodeId,
    pub to: NodeId,
    /// 0..1 once it has fallen (lost), for the fall-and-fade.
    pub falling: Option<f64>,
    pub blocked: bool,
    pub duplicate: bool,
}

/// How long a lost messenger keeps falling on screen (simulated µs).
pub const FALL_US: u64 = 250_000;

/// Where a messenger in flight stands when the page is asked not to move
/// things (`prefers-reduced-motion`): still, two fifths of the way, so the
/// two directions between a pair of seats do not cover each other.
pub const STILL_AT: f64 = 0.4;

/// The messengers at `t`. With `still`, a messenger in flight stays put on its
/// path (it appears when sent and goes when it arrives) and a lost one fades
/// where it stood instead of falling.
pub fn messengers(layout: &Layout, flights: &Flights, t: SimTime, still: bool) -> Vec<Messenger> {
    flights
        .at(t, FALL_US)
        .map(|f: &Flight| {
            let (falling, p) = match f.fate {
                Fate::Dropped(_) if t >= f.ended => {
                    let k = (t.0 - f.ended.0) as f64 / FALL_US as f64;
                    (Some(k.min(1.0)), f.progress(f.ended))
                }
                _ => (None, f.progress(t)),
            };
            let p = if still { STILL_AT } else { p };
            let mut at = layout.path_point(f.from, f.to, p);
            if let (Some(k), false) = (falling, still) {
                at.y += 70.0 * k * k;
            }
            Messenger {
                id: f.id.0,
                at,
                msg: f.msg.clone(),
                from: f.from,
                to: f.to,
                falling,
                blocked: matches!(f.fate, Fate::Dropped(DropReason::Partition)),
                duplicate: f.duplicate,
            }
        })
        .collect()
}

/// A quorum as drawn: its members, the phase, and the member(s) it shares
/// with the quorum before it (B2).
#[derive(Clone, Debug, PartialEq)]
pub struct QuorumMark {
    pub proposer: NodeId,
    pub ballot: Ballot,
    pub phase: &'static str,
    pub members: Members,
    pub shared: Members,
    pub t: SimTime,
}

/// The forced choice on display: the proposer, the vote that forced it.
#[derive(Clone, Debug, PartialEq)]
pub struct ForcedMark {
    pub proposer: NodeId,
    pub ballot: Ballot,
    pub value: Value,
    pub choice: Choice,
}

/// Quorum and value-choice facts of a run, indexed by time.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Marks {
    pub quorums: Vec<QuorumMark>,
    pub picks: Vec<(SimTime, ForcedMark)>,
}

impl Marks {
    pub fn from_trace(trace: &[TraceEvent]) -> Marks {
        let mut m = Marks::default();
        for e in trace {
            let EventKind::Note(Note::Paxos(n)) = &e.kind else {
                continue;
            };
            match *n {
                PaxosNote::PromiseQuorum { ballot, members }
                | PaxosNote::AcceptedQuorum {
                    ballot, members, ..
                } => {
                    let shared = m
                        .quorums
                        .last()
                        .map(|q: &QuorumMark| Members(q.members.0 & members.0))
                        .unwrap_or_default();
                    m.quorums.push(QuorumMark {
                        proposer: e.node,
                        ballot,
                        phase: if matches!(n, PaxosNote::PromiseQuorum { .. }) {
                            "1b"
                        } else {
                            "2b"
                        },
                        members,
                        shared,
                        t: e.t,
                    });
                }
                PaxosNote::ValuePicked {
                    ballot,
                    value,
                    choice,
                } => m.picks.push((
                    e.t,
                    ForcedMark {
                        proposer: e.node,
                        ballot,
                        value,
                        choice,
                    },
                )),
                _ => {}
            }
        }
        m
    }

    /// The latest quorum formed at or before `t`.
    pub fn quorum_at(&self, t: SimTime) -> Option<&QuorumMark> {
        let i = self.quorums.partition_point(|q| q.t <= t);
        i.checked_sub(1).map(|i| &self.quorums[i])
    }

    /// The latest value choice at or before `t`.
    pub fn pick_at(&self, t: SimTime) -> Option<&ForcedMark> {
        let i = self.picks.partition_point(|(pt, _)| *pt <= t);
        i.checked_sub(1).map(|i| &self.picks[i].1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::builtin;
    use crate::scenario::run::Run;

    /// With reduced motion a messenger in flight stands still on its path,
    /// and a lost one fades where it stood: between two moments of the same
    /// flight nothing moves, while the moving view does move.
    #[test]
    fn still_messengers_do_not_move_while_in_flight() {
        let run = Run::record(&builtin::get("lossy").unwrap()).unwrap();
        let flights = Flights::from_trace(&run.trace, run.end);
        let layout = Layout::new(run.names.len());
        let mut checked = 0;
        for f in flights.list.iter().filter(|f| f.ended.0 > f.sent.0 + 2) {
            let (a, b) = (SimTime(f.sent.0 + 1), SimTime(f.ended.0 - 1));
            let pos = |t, still| {
                messengers(&layout, &flights, t, still)
                    .into_iter()
                    .find(|m| m.id == f.id.0)
                    .map(|m| m.at)
            };
            let (Some(sa), Some(sb)) = (pos(a, true), pos(b, true)) else {
                continue;
            };
            assert_eq!((sa.x, sa.y), (sb.x, sb.y), "flight {} moved", f.id.0);
            let (ma, mb) = (pos(a, false).unwrap(), pos(b, false).unwrap());
            assert!(
                (ma.x, ma.y) != (mb.x, mb.y),
                "flight {} does not move when motion is allowed",
                f.id.0
            );
            checked += 1;
        }
        assert!(checked > 10, "only {checked} flights checked");
    }

    /// The phone's view box holds every seat whole, with its role marks
    /// under it, and is at most four fifths of the full view's width.
    #[test]
    fn the_seats_view_holds_every_seat_and_zooms_in() {
        for n in 1..=9 {
            let l = Layout::new(n);
            let v: Vec<f64> = l
                .seats_view_box()
                .split(' ')
                .map(|x| x.parse().unwrap())
                .collect();
            for s in &l.seats {
                assert!(
                    s.x - SEAT_R >= v[0] && s.x + SEAT_R <= v[0] + v[2],
                    "n={n}: seat outside"
                );
                assert!(
                    s.y - SEAT_R >= v[1] && s.y + SEAT_R + 20.0 <= v[1] + v[3],
                    "n={n}: seat outside"
                );
            }
            assert!(v[2] <= 0.8 * l.width, "n={n}: {} of {}", v[2], l.width);
        }
    }

    #[test]
    fn seats_and_cards_fit_the_stage_for_every_size() {
        for n in 1..=9 {
            let l = Layout::new(n);
            for (s, c) in l.seats.iter().zip(&l.ledgers) {
                assert!(
                    s.x > SEAT_R
                        && s.x < l.width - SEAT_R
                        && s.y > SEAT_R
                        && s.y < l.height - SEAT_R
                );
                assert!(c.x - l.ledger_w / 2.0 >= 0.0 && c.x + l.ledger_w / 2.0 <= l.width);
                assert!(c.y - l.ledger_h / 2.0 >= 0.0 && c.y + l.ledger_h / 2.0 <= l.height);
            }
        }
    }

    #[test]
    fn ledgers_never_cover_a_seat_or_each_other() {
        for n in 1..=9 {
            let l = Layout::new(n);
            let (hw, hh) = (l.ledger_w / 2.0, l.ledger_h / 2.0);
            for (i, c) in l.ledgers.iter().enumerate() {
                for (k, s) in l.seats.iter().enumerate() {
                    // Closest point of the card to the seat's centre.
                    let qx = clamp(s.x, c.x - hw, c.x + hw);
                    let qy = clamp(s.y, c.y - hh, c.y + hh);
                    let d = ((s.x - qx).powi(2) + (s.y - qy).powi(2)).sqrt();
                    assert!(d >= SEAT_R + 4.0, "n={n}: card {i} covers seat {k}");
                }
                for (j, d) in l.ledgers.iter().enumerate().skip(i + 1) {
                    let apart =
                        (c.x - d.x).abs() >= 2.0 * hw + 4.0 || (c.y - d.y).abs() >= 2.0 * hh + 4.0;
                    assert!(apart, "n={n}: cards {i} and {j} overlap");
                }
            }
        }
    }

    #[test]
    fn messengers_start_at_the_sender_and_end_at_the_receiver() {
        let l = Layout::new(5);
        let a = l.path_point(NodeId(0), NodeId(3), 0.0);
        let b = l.path_point(NodeId(0), NodeId(3), 1.0);
        assert!((a.x - l.seats[0].x).abs() < 1e-9 && (b.y - l.seats[3].y).abs() < 1e-9);
    }

    #[test]
    fn forced_scenario_shows_quorums_sharing_a_member() {
        let run = Run::record(&builtin::get("forced").unwrap()).unwrap();
        let m = Marks::from_trace(&run.trace);
        assert!(m.quorums.len() >= 2);
        // B2: every quorum shares a member with the one before it.
        assert!(m.quorums.windows(2).all(|w| w[1].shared.len() >= 1));
        assert!(m
            .picks
            .iter()
            .any(|(_, p)| matches!(p.choice, Choice::Forced { .. })));
    }
}
