//! Geometry of the space-time diagram: one horizontal lane per node, time
//! running left to right, an arrow per messenger, shaded spans while a node
//! is crashed or paused, and marks for the facts a reader looks for.
//!
//! Pure functions of (trace, window, pixel size): no DOM, no signals. The
//! page draws the result with its own SVG elements, and `trace::svg` turns
//! the same [`Diagram`] into a standalone file, so what the page shows and
//! what a user exports cannot drift apart.
//!
//! Where an arrow ends says what became of the messenger:
//! - **delivered**: at the receiver's lane, at the arrival time;
//! - **lost**: messengers "fall halfway" (the network decides a loss at
//!   half the would-be latency), so the arrow stops midway between the two
//!   lanes at the moment of the fall, still pointing where it was going;
//! - **cut by a partition** or **receiver down**: at the receiver's lane when
//!   it was refused there, or as a short stub when the link was already cut
//!   at sending time;
//! - **in flight**: still travelling when the run stopped; drawn to the end.
//!
//! A busy run has thousands of messengers; at most `max_arrows` are laid out
//! (an even sample of the window's, in sending order, so that every stretch of
//! the window keeps its share), and `omitted_arrows` says how many were left
//! out, so a view can tell the reader rather than silently drop them.

use crate::scenario::run::Run;
use crate::sim::fault::Fault;
use crate::sim::{NodeId, SimTime};
use crate::trace::label::{self, NoteClass};
use crate::trace::{DropReason, EventKind, TraceEvent};
use crate::viz::flights::{Fate as FlightFate, Flight, Flights};

mod axis;

/// Default cap on arrows (an SVG with more is slow to draw and unreadable).
pub const DEFAULT_MAX_ARROWS: usize = 800;

#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub from_us: u64,
    pub to_us: u64,
    /// Pixel size of the whole drawing, lane names included.
    pub width: f64,
    pub height: f64,
    pub max_arrows: usize,
}

impl Options {
    pub fn new(from_us: u64, to_us: u64, width: f64, height: f64) -> Self {
        Options {
            from_us,
            to_us,
            width,
            height,
            max_arrows: DEFAULT_MAX_ARROWS,
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    pub node: NodeId,
    pub name: String,
    pub y: f64,
}

/// What became of a messenger.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Fate {
    Delivered,
    /// Fell into the sea halfway.
    Lost,
    /// Refused by a cut link.
    Partitioned,
    /// The receiver had crashed.
    ReceiverDown,
    /// Still travelling when the run stopped.
    InFlight,
}

impl Fate {
    pub fn as_str(self) -> &'static str {
        match self {
            Fate::Delivered => "delivered",
            Fate::Lost => "lost",
            Fate::Partitioned => "partition",
            Fate::ReceiverDown => "receiver down",
            Fate::InFlight => "in flight",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Arrow {
    /// The message copy's id (`msg.id` in the trace).
    pub id: u64,
    pub from: NodeId,
    pub to: NodeId,
    pub t_send_us: u64,
    /// Arrival, fall or refusal; the run's end for one still in flight.
    pub t_end_us: u64,
    pub x1: f64,
    pub y1: f64,
    pub x2: f64,
    pub y2: f64,
    /// `1a (3,Α)`, `2a (3,Α) α`, `write order-1 e2` …
    pub label: String,
    /// The trace's message type (`prepare` … `llm_answer`).
    pub msg_type: &'static str,
    pub fate: Fate,
    /// A second copy made by the network.
    pub duplicate: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SpanKind {
    Crashed,
    Paused,
}

/// A stretch of a lane during which the node was away or frozen.
#[derive(Clone, Debug, PartialEq)]
pub struct Span {
    pub node: NodeId,
    pub kind: SpanKind,
    pub from_us: u64,
    pub to_us: u64,
    /// Clipped to the window.
    pub x1: f64,
    pub x2: f64,
    pub y: f64,
    /// Still open when the trace ends (drawn to `end`): a page that draws
    /// the settled past once and what moves with the cursor over it draws
    /// this one with the cursor.
    pub open: bool,
}

/// A partition, from the cut to the heal, across all lanes.
#[derive(Clone, Debug, PartialEq)]
pub struct NetSpan {
    pub from_us: u64,
    pub to_us: u64,
    pub x1: f64,
    pub x2: f64,
    pub label: String,
    /// Where in the trace the cut is (so a view can word it in its language).
    pub event: usize,
    /// Not healed when the trace ends (drawn to `end`).
    pub open: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Marker {
    /// The node it happened at (`NodeId::NET` for the network).
    pub node: NodeId,
    pub t_us: u64,
    pub x: f64,
    pub y: f64,
    pub class: NoteClass,
    pub label: String,
    /// Where in the trace the fact is (so a view can word it in its language).
    pub event: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Tick {
    pub t_us: u64,
    pub x: f64,
    pub label: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Diagram {
    pub width: f64,
    pub height: f64,
    pub from_us: u64,
    pub to_us: u64,
    /// Where time runs: the lanes' horizontal extent and the arrows' room.
    pub plot: Rect,
    pub lanes: Vec<Lane>,
    pub arrows: Vec<Arrow>,
    pub omitted_arrows: usize,
    pub spans: Vec<Span>,
    pub net_spans: Vec<NetSpan>,
    pub markers: Vec<Marker>,
    pub omitted_markers: usize,
    pub ticks: Vec<Tick>,
}

/// Lay a recorded run out.
pub fn layout(run: &Run, opts: &Options) -> Diagram {
    layout_trace(&run.names, &run.trace, run.end, opts)
}

/// Lay out any trace; `end` is when the run stopped (open spans and
/// messengers still in flight reach it).
pub fn layout_trace(
    names: &[String],
    trace: &[TraceEvent],
    end: SimTime,
    opts: &Options,
) -> Diagram {
    let end = SimTime(end.0.max(trace.last().map_or(0, |e| e.t.0)));
    layout_indexed(names, trace, &Flights::from_trace(trace, end), end, opts)
}

/// The window of a run the page's live diagram shows for cursor `t`: the
/// whole run if it is at most `span` long, otherwise `span` of it holding
/// the cursor between a quarter and three quarters of the way across. It
/// moves in half-spans, so that while a run plays the drawing is laid out
/// again every half-span of simulated time, not every frame.
pub fn live_window(t: u64, end: u64, span: u64) -> (u64, u64) {
    if end <= span {
        return (0, end.max(1));
    }
    let step = (span / 2).max(1);
    let from = (t.saturating_sub(span / 4) / step * step).min(end - span);
    (from, from + span)
}

/// Lay out a trace whose flights are already indexed (the page keeps the
/// index of the run on screen, so a redraw costs the window, not the run).
pub fn layout_indexed(
    names: &[String],
    trace: &[TraceEvent],
    flights: &Flights,
    end: SimTime,
    opts: &Options,
) -> Diagram {
    let from = opts.from_us.min(u64::MAX - 1);
    let to = opts.to_us.max(from + 1);
    let width = finite_or(opts.width, 800.0).clamp(100.0, 100_000.0);
    let height = finite_or(opts.height, 300.0).clamp(60.0, 100_000.0);
    let label_w = (width * 0.2).min(90.0);
    let plot = Rect {
        x: label_w,
        y: 24.0,
        w: width - label_w - 12.0,
        h: height - 24.0 - 8.0,
    };
    let n = names.len().max(1);
    let lane_y = |id: NodeId| {
        if id.index() < names.len() {
            plot.y + (id.index() as f64 + 0.5) * plot.h / n as f64
        } else {
            plot.y // the network's marks sit on the top edge
        }
    };
    let x_of = |t: u64| plot.x + (t as f64 - from as f64) / (to - from) as f64 * plot.w;
    let lanes = names
        .iter()
        .enumerate()
        .map(|(i, name)| Lane {
            node: NodeId(i as u8),
            name: name.clone(),
            y: lane_y(NodeId(i as u8)),
        })
        .collect();
    let end = end.0.max(trace.last().map_or(0, |e| e.t.0));

    let (arrows, omitted_arrows) =
        arrows(names, flights, from, to, opts.max_arrows, &lane_y, &x_of);
    // Only faults and wake-ups shape the spans; the index lists where they are.
    let (spans, net_spans) = spans(
        names,
        flights.span_events.iter().map(|&i| (i, &trace[i])),
        end,
        from,
        to,
        &lane_y,
        &x_of,
    );
    let mut markers = Vec::new();
    let mut omitted_markers = 0;
    // The trace is in time order: look only at the window's slice.
    let lo = trace.partition_point(|e| e.t.0 < from);
    let hi = trace.partition_point(|e| e.t.0 <= to);
    for (k, e) in trace[lo..hi].iter().enumerate() {
        let mark = match &e.kind {
            EventKind::Note(note) => label::note(names, note),
            EventKind::Violation { invariant, detail } => Some((
                NoteClass::Violation,
                format!("VIOLATION {invariant}: {detail}"),
            )),
            _ => None,
        };
        if let Some((class, label)) = mark {
            if markers.len() >= opts.max_arrows {
                omitted_markers += 1;
                continue;
            }
            markers.push(Marker {
                node: e.node,
                t_us: e.t.0,
                x: x_of(e.t.0),
                y: lane_y(e.node),
                class,
                label,
                event: lo + k,
            });
        }
    }
    Diagram {
        width,
        height,
        from_us: from,
        to_us: to,
        plot,
        lanes,
        arrows,
        omitted_arrows,
        spans,
        net_spans,
        markers,
        omitted_markers,
        ticks: axis::ticks(from, to, plot.w, &x_of),
    }
}

fn finite_or(x: f64, default: f64) -> f64 {
    if x.is_finite() {
        x
    } else {
        default
    }
}

#[allow(clippy::too_many_arguments)]
fn arrows(
    names: &[String],
    flights: &Flights,
    from: u64,
    to: u64,
    max: usize,
    lane_y: &dyn Fn(NodeId) -> f64,
    x_of: &dyn Fn(u64) -> f64,
) -> (Vec<Arrow>, usize) {
    // More than `max` in the window: an even sample across it (every k-th
    // in sending order), not the first `max`, so that a crowded stretch is
    // thinned everywhere alike and the cursor's neighbourhood is never empty.
    let all: Vec<&Flight> = flights.overlapping(SimTime(from), SimTime(to)).collect();
    let omitted = all.len().saturating_sub(max);
    let kept = all.len() - omitted;
    let mut out = Vec::with_capacity(kept);
    for k in 0..kept {
        let f = all[k * all.len() / kept];
        let (id, t_send, t_end) = (f.id.0, f.sent.0, f.ended.0);
        let fate = match f.fate {
            FlightFate::Delivered => Fate::Delivered,
            FlightFate::Dropped(DropReason::Loss) => Fate::Lost,
            FlightFate::Dropped(DropReason::Partition) => Fate::Partitioned,
            FlightFate::Dropped(DropReason::Down) => Fate::ReceiverDown,
            FlightFate::Unfinished => Fate::InFlight,
        };
        let (x1, y1) = (x_of(t_send), lane_y(f.from));
        let (mut x2, mut y2) = (x_of(t_end), lane_y(f.to));
        match fate {
            Fate::Lost => y2 = (y1 + y2) / 2.0,
            Fate::Partitioned | Fate::ReceiverDown if t_end == t_send => {
                x2 = x1 + 8.0;
                y2 = y1 + (y2 - y1) * 0.2;
            }
            _ => {}
        }
        out.push(Arrow {
            id,
            from: f.from,
            to: f.to,
            t_send_us: t_send,
            t_end_us: t_end,
            x1,
            y1,
            x2,
            y2,
            label: label::msg(names, &f.msg),
            msg_type: label::msg_type(&f.msg),
            fate,
            duplicate: f.duplicate,
        });
    }
    (out, omitted)
}

fn spans<'t>(
    names: &[String],
    trace: impl Iterator<Item = (usize, &'t TraceEvent)>,
    end: u64,
    from: u64,
    to: u64,
    lane_y: &dyn Fn(NodeId) -> f64,
    x_of: &dyn Fn(u64) -> f64,
) -> (Vec<Span>, Vec<NetSpan>) {
    // Per node: the open span, if any (kind, start).
    let mut open: Vec<Option<(SpanKind, u64)>> = vec![None; names.len()];
    let mut done: Vec<(NodeId, SpanKind, u64, u64)> = Vec::new();
    let mut cuts: Vec<(u64, u64, String, usize)> = Vec::new();
    let mut open_cuts: Vec<(u64, String, usize)> = Vec::new();
    for (k, e) in trace {
        if e.t.0 > to {
            break; // spans still open are drawn to the window's edge anyway
        }
        let i = e.node.index();
        match &e.kind {
            EventKind::Fault { fault } => match fault {
                Fault::Crash { node } if node.index() < open.len() => {
                    let slot = &mut open[node.index()];
                    match *slot {
                        Some((SpanKind::Crashed, _)) => {} // already away
                        Some((SpanKind::Paused, s)) => {
                            done.push((*node, SpanKind::Paused, s, e.t.0));
                            *slot = Some((SpanKind::Crashed, e.t.0));
                        }
                        None => *slot = Some((SpanKind::Crashed, e.t.0)),
                    }
                }
                Fault::Restart { node } if node.index() < open.len() => {
                    if let Some((SpanKind::Crashed, s)) = open[node.index()] {
                        done.push((*node, SpanKind::Crashed, s, e.t.0));
                        open[node.index()] = None;
                    }
                }
                // A pause of a crashed node does nothing; a longer pause of a
                // paused one extends the same span (its resume ends it).
                Fault::Pause { node, .. }
                    if node.index() < open.len() && open[node.index()].is_none() =>
                {
                    open[node.index()] = Some((SpanKind::Paused, e.t.0));
                }
                Fault::Partition { .. } => {
                    open_cuts.push((e.t.0, label::fault(&label::named_fault(names, fault)), k));
                }
                Fault::Heal => {
                    for (s, l, k) in open_cuts.drain(..) {
                        cuts.push((s, e.t.0, l, k));
                    }
                }
                _ => {}
            },
            EventKind::Resume if i < open.len() => {
                if let Some((SpanKind::Paused, s)) = open[i] {
                    done.push((e.node, SpanKind::Paused, s, e.t.0));
                    open[i] = None;
                }
            }
            _ => {}
        }
    }
    let mut done: Vec<_> = done
        .into_iter()
        .map(|(n, k, s, t)| (n, k, s, t, false))
        .collect();
    for (i, o) in open.iter().enumerate() {
        if let Some((kind, s)) = *o {
            done.push((NodeId(i as u8), kind, s, end, true));
        }
    }
    let mut cuts: Vec<_> = cuts
        .into_iter()
        .map(|(s, t, l, k)| (s, t, l, k, false))
        .collect();
    cuts.extend(open_cuts.into_iter().map(|(s, l, k)| (s, end, l, k, true)));
    crate::sorted::sort_by_key(&mut done, |&(n, _, s, _, _)| (n.0 as u64, s));
    let clip = |s: u64, t: u64| (x_of(s.max(from)), x_of(t.min(to)));
    let spans = done
        .into_iter()
        .filter(|&(_, _, s, t, _)| s <= to && t >= from)
        .map(|(node, kind, s, t, open)| {
            let (x1, x2) = clip(s, t);
            Span {
                node,
                kind,
                from_us: s,
                to_us: t,
                x1,
                x2,
                y: lane_y(node),
                open,
            }
        })
        .collect();
    let net = cuts
        .into_iter()
        .filter(|&(s, t, _, _, _)| s <= to && t >= from)
        .map(|(s, t, label, event, open)| {
            let (x1, x2) = clip(s, t);
            NetSpan {
                from_us: s,
                to_us: t,
                x1,
                x2,
                label,
                event,
                open,
            }
        })
        .collect();
    (spans, net)
}

#[cfg(test)]
mod tests {
    use super::live_window;

    #[test]
    fn the_live_window_holds_the_cursor_in_its_middle_half() {
        let span = 3_000_000;
        let end = 26_000_000;
        for t in (0..=end).step_by(7_919) {
            let (from, to) = live_window(t, end, span);
            assert_eq!(to - from, span);
            assert!(from <= t && t <= to, "{t} outside {from}..{to}");
            // In the middle half, except near the run's two ends.
            if t >= span && t + span <= end {
                let at = (t - from) as f64 / span as f64;
                assert!(
                    (0.25..=0.75).contains(&at),
                    "{t} at {at:.2} of {from}..{to}"
                );
            }
            assert!(
                from % (span / 2) == 0 || to == end,
                "{from} neither on a half-span nor at the end"
            );
        }
        assert_eq!(live_window(1_000, 2_000_000, span), (0, 2_000_000));
        assert_eq!(live_window(0, 0, span), (0, 1));
    }
}
