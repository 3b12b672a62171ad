//! A lane per RM, drawn up to the cursor: working (grey), **uncertain** —
//! prepared, locks held, the outcome unknown (amber, hatched) — committed
//! (green) or aborted (vermillion); hatched where its node is down; the
//! coordinators' decisions (◆) and takeovers (▲). At the right, how long each
//! RM has been uncertain so far.

use super::super::lease::lanes::Pane;
use super::super::use_app;
use crate::float::{coord, fixed};
use crate::viz::commit::{CommitLanes, Mark, RmPhase, Span};
use crate::viz::palette;
use leptos::prelude::*;

const X0: f64 = 118.0;
const X1: f64 = 860.0;
const LANE_H: f64 = 40.0;
const TOP: f64 = 24.0;

fn x(t: u64, end: u64) -> f64 {
    X0 + (t.min(end) as f64 / end.max(1) as f64) * (X1 - X0)
}

fn phase_name(p: RmPhase) -> &'static str {
    match p {
        RmPhase::Working => "working",
        RmPhase::Uncertain => "uncertain",
        RmPhase::Committed => "committed",
        RmPhase::Aborted => "aborted",
    }
}

/// The phase at `t`: phases follow one another, and the last one lasts past
/// the end of its run (side by side, the other run may be longer).
fn phase_at(spans: &[Span<RmPhase>], t: u64) -> Option<RmPhase> {
    spans.iter().rev().find(|s| s.from.0 <= t).map(|s| s.what)
}

fn at<T: Copy>(spans: &[Span<T>], t: u64) -> Option<T> {
    spans
        .iter()
        .rev()
        .find(|s| s.from.0 <= t && t < s.to.0.max(s.from.0 + 1))
        .map(|s| s.what)
}

/// A lane's state at the cursor: its phase, whether its node is down, and
/// how long it has been uncertain so far.
#[derive(Clone, Copy, PartialEq)]
struct LaneNow {
    phase: RmPhase,
    down: bool,
    uncertain_us: u64,
}

fn lanes_at(l: &CommitLanes, t: u64) -> Vec<LaneNow> {
    l.rms
        .iter()
        .map(|rm| LaneNow {
            phase: phase_at(&rm.phases, t).unwrap_or(RmPhase::Working),
            down: at(&rm.down, t).is_some(),
            uncertain_us: rm
                .phases
                .iter()
                .filter(|p| p.what == RmPhase::Uncertain && p.from.0 <= t)
                .map(|p| p.to.0.min(t) - p.from.0)
                .sum(),
        })
        .collect()
}

/// A word on the lanes — a phase's or a down span's name, a decision (◆) or
/// a takeover (▲) — shown whole from `from` on: a phase's name once the part
/// of its bar left of the cursor holds it, a mark once the cursor reaches it.
#[derive(Clone, PartialEq)]
struct Word {
    from: u64,
    x: f64,
    y: f64,
    text: String,
    class: String,
}

/// The words of a run, in the order they appear (so the shown ones are the
/// first so many).
fn words(l: &CommitLanes, end: u64, lang: crate::i18n::Lang) -> Vec<Word> {
    let w = lang.words();
    // The time the cursor needs past `from` for `px` of bar.
    let after = |from: u64, px: f64| from + (px / (X1 - X0) * end.max(1) as f64).floor() as u64 + 1;
    let mut out = Vec::new();
    let mut word = |from: u64, to: u64, px: f64, at: f64, y: f64, text: String, class: String| {
        // A bar too short for its word never shows it.
        if x(to, end) - x(from, end) > px {
            out.push(Word {
                from: after(from, px),
                x: at,
                y,
                text,
                class,
            });
        }
    };
    // Where each row's phase names stand (x from, x to), at the largest type
    // (presenter mode draws them 16/11 as wide): a down span's name keeps clear.
    let mut taken: Vec<Vec<(f64, f64)>> = vec![Vec::new(); l.rms.len()];
    for (i, rm) in l.rms.iter().enumerate() {
        let y = TOP + i as f64 * LANE_H;
        for p in &rm.phases {
            let label = match p.what {
                RmPhase::Uncertain => w.rm_uncertain,
                RmPhase::Committed => w.rm_committed,
                RmPhase::Aborted => w.rm_aborted,
                RmPhase::Working => w.rm_working,
            };
            let px = 8.0 * label.chars().count() as f64;
            let at = x(p.from.0, end) + 4.0;
            if x(p.to.0, end) - x(p.from.0, end) > px {
                taken[i].push((at, at + px * 16.0 / 11.0));
            }
            let class = format!("phase-label {}", phase_name(p.what));
            word(
                p.from.0,
                p.to.0,
                px,
                x(p.from.0, end) + 4.0,
                y + 23.0,
                label.into(),
                class,
            );
        }
    }
    let downs = l
        .rms
        .iter()
        .map(|rm| &rm.down)
        .chain(l.others.iter().map(|o| &o.2));
    for (i, list) in downs.enumerate() {
        let y = TOP + i as f64 * LANE_H;
        for s in list {
            let start = x(s.from.0, end) + 4.0;
            // After a phase's name it would cover ("down" lay on "uncertain — locks held").
            let a = taken
                .get(i)
                .into_iter()
                .flatten()
                .fold(start, |a, &(from, to)| {
                    if a < to + 6.0 && a + 44.0 > from {
                        to + 10.0
                    } else {
                        a
                    }
                });
            let y = y + LANE_H - 10.0;
            word(
                s.from.0,
                s.to.0,
                a - start + 44.0,
                a,
                y,
                w.node_down.into(),
                "down-label".into(),
            );
        }
    }
    let row_of = |node: crate::sim::NodeId| -> usize {
        l.rms
            .iter()
            .position(|r| r.node == node)
            .unwrap_or_else(|| l.rms.len() + l.others.iter().position(|o| o.0 == node).unwrap_or(0))
    };
    for (at, m) in &l.marks {
        let (node, text, class) = match m {
            Mark::Decided { node, outcome } => {
                (*node, format!("◆ {}", outcome.as_str()), "mark decided")
            }
            Mark::Takeover { node, round } => (*node, format!("▲ {round}"), "mark takeover"),
        };
        let y = TOP + row_of(node) as f64 * LANE_H + 5.0;
        out.push(Word {
            from: at.0,
            x: x(at.0, end),
            y,
            text,
            class: class.into(),
        });
    }
    crate::sorted::sort_by_key(&mut out, |w| (w.from, 0));
    out
}

#[component]
pub fn RmLanes(pane: Pane) -> impl IntoView {
    let app = use_app();
    let data = move || {
        app.rev.get();
        match pane {
            Pane::A => app.model.with_value(|m| m.commit().cloned()),
            Pane::B => app
                .model_b
                .with_value(|b| b.as_ref().and_then(|m| m.commit().cloned())),
        }
    };
    let data = Memo::new(move |_| data());
    let end = move || app.end.get();
    let rows = move || data.with(|d| d.as_ref().map_or(1, |l| l.rms.len() + l.others.len()));
    let height = move || TOP + rows() as f64 * LANE_H + 6.0;
    // The lanes are drawn whole, once per run; what lies past the cursor is
    // cut off by a clip whose edge, like the cursor, the frame moves
    // (`App::on_frame`). Drawn again up to the cursor in every frame, a
    // playing run cost a frame 6–8 ms.
    let cursor_g: NodeRef<leptos::svg::G> = NodeRef::new();
    let edge: NodeRef<leptos::svg::Rect> = NodeRef::new();
    let place = move |t: u64| {
        let at = x(t, app.end.get_untracked());
        if let (Some(g), Some(e)) = (cursor_g.get_untracked(), edge.get_untracked()) {
            super::super::perf::translate_x(&g, at);
            super::super::perf::translate_x(&e, at);
        }
    };
    app.on_frame_and(place, move || {
        app.end.track();
        cursor_g.get().is_some() && edge.get().is_some()
    });
    // What changes at moments, not with every frame: each lane's state, and
    // how many of the words are out.
    let now = app
        .frame_memo(move |t| data.with(|d| d.as_ref().map(|l| lanes_at(l, t)).unwrap_or_default()));
    let all_words = Memo::new(move |_| {
        let (end, lang) = (end(), app.lang.get());
        data.with(|d| d.as_ref().map(|l| words(l, end, lang)).unwrap_or_default())
    });
    let out = app.frame_memo(move |t| all_words.with(|w| w.partition_point(|w| w.from <= t)));
    let clip = if pane == Pane::A {
        "commit-edge-a"
    } else {
        "commit-edge-b"
    };
    let seek = move |ev: web_sys::MouseEvent| {
        use wasm_bindgen::JsCast;
        let Some(svg) = ev
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        else {
            return;
        };
        let r = svg.get_bounding_client_rect();
        let fx = (ev.client_x() as f64 - r.left()) / r.width().max(1.0) * 1000.0;
        if (X0..=X1).contains(&fx) {
            app.playing.set(false);
            app.set_t(((fx - X0) / (X1 - X0) * app.end.get_untracked() as f64) as u64);
        }
    };
    view! {
        <svg
            class="lanes commit-lanes"
            viewBox=move || format!("0 0 1000 {}", fixed(height(), 0))
            data-testid=if pane == Pane::A { "commit-lanes" } else { "commit-lanes-b" }
            role="img"
            aria-label=move || app.words().view_commit
            on:click=seek
        >
            <defs>
                <pattern id="hatch-amber" width="7" height="7" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                    <rect width=7 height=7 fill="#f7d58b" />
                    <line x1=0 y1=0 x2=0 y2=7 stroke=palette::ORANGE stroke-width=3 />
                </pattern>
                <pattern id="hatch-down" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)">
                    <line x1=0 y1=0 x2=0 y2=6 stroke="#777" stroke-width=2 />
                </pattern>
                // Everything left of the cursor (the rectangle ends at x = 0,
                // moved to the cursor).
                <clipPath id=clip>
                    <rect node_ref=edge x=-2000 y=0 width=2000 height=4000 />
                </clipPath>
            </defs>
            {move || {
                let lang = app.lang.get();
                data.with(|d| d.as_ref().map(|l| draw(l, end(), lang, clip, now)))
            }}
            <g class="words">
                {move || all_words.with(|w| w[..out.get().min(w.len())].iter().map(|w| view! {
                    <text class=w.class.clone() x=coord(w.x) y=coord(w.y)>{w.text.clone()}</text>
                }).collect_view())}
            </g>
            <g node_ref=cursor_g>
                <line class="cursor" x1=0 x2=0 y1=coord(TOP - 6.0) y2=move || coord(height()) />
            </g>
        </svg>
    }
}

/// The whole run's lanes (cut at the cursor by the clip `clip`), and each
/// lane's state at the cursor (`now`).
fn draw(
    l: &CommitLanes,
    end: u64,
    lang: crate::i18n::Lang,
    clip: &'static str,
    now: ReadSignal<Vec<LaneNow>>,
) -> impl IntoView {
    let w = lang.words();
    let speak = lang.speak();
    let bottom = TOP + (l.rms.len() + l.others.len()) as f64 * LANE_H;
    let step = [
        100_000u64, 200_000, 500_000, 1_000_000, 2_000_000, 5_000_000,
    ]
    .into_iter()
    .find(|s| end / s <= 10)
    .unwrap_or(10_000_000);
    let ticks: Vec<u64> = (0..=end / step).map(|k| k * step).collect();
    let down = |list: &[Span<()>], y: f64| {
        list.iter()
            .map(|s| {
                let (a, z) = (x(s.from.0, end), x(s.to.0, end));
                view! { <rect class="down-span" x=coord(a) y=coord(y + 3.0) width=coord((z - a).max(1.5)) height=coord(LANE_H - 10.0) /> }
            })
            .collect_view()
    };
    let lane = move |i: usize| move || now.with(|n| n.get(i).copied());
    let cut = format!("url(#{clip})");
    view! {
        <g class="axis">
            {ticks.into_iter().map(|k| view! {
                <line class="tick" x1=coord(x(k, end)) x2=coord(x(k, end)) y1=coord(TOP - 4.0) y2=coord(bottom) />
                <text class="tick-label" x=coord(x(k, end)) y=coord(TOP - 10.0)>{if k == 0 { "0".to_string() } else { speak.duration(k) }}</text>
            }).collect_view()}
            <text class="tick-label uncertain-head" x=930 y=coord(TOP - 10.0)>{w.uncertain_for}</text>
        </g>
        {l.rms.iter().enumerate().map(|(i, rm)| {
            let y = TOP + i as f64 * LANE_H;
            let roles: Vec<&str> = [(rm.tm, "TM"), (rm.acceptor, "A"), (rm.coordinator, "C")].into_iter().filter(|r| r.0).map(|r| r.1).collect();
            let now = lane(i);
            let uncertain = move || now().map_or(0, |n| n.uncertain_us);
            view! {
                <g
                    class="rm-lane"
                    data-testid=format!("rm-lane-{}", rm.name)
                    data-phase=move || phase_name(now().map_or(RmPhase::Working, |n| n.phase))
                    data-down=move || now().is_some_and(|n| n.down).to_string()
                    data-uncertain-us=uncertain
                >
                    <text class="row-name" x=8 y=coord(y + 22.0)>{rm.name.clone()}</text>
                    <text class="role-marks" x=8 y=coord(y + 35.0)>{roles.join(" ")}</text>
                    <g clip-path=cut.clone()>
                        {rm.phases.iter().map(|p| {
                            let (a, z) = (x(p.from.0, end), x(p.to.0, end));
                            view! { <rect class=format!("phase {}", phase_name(p.what)) x=coord(a) y=coord(y + 6.0) width=coord((z - a).max(1.0)) height=coord(LANE_H - 16.0) /> }
                        }).collect_view()}
                        {down(&rm.down, y)}
                    </g>
                    <text
                        class="uncertain-time"
                        class:blocked=move || now().is_some_and(|n| n.phase == RmPhase::Uncertain && n.uncertain_us > 500_000)
                        x=930
                        y=coord(y + 23.0)
                    >
                        {move || match uncertain() { 0 => "—".into(), u => speak.duration(u) }}
                    </text>
                </g>
            }
        }).collect_view()}
        {l.others.iter().enumerate().map(|(k, (_, name, spans))| {
            let y = TOP + (l.rms.len() + k) as f64 * LANE_H;
            view! {
                <g class="other-lane">
                    <text class="row-name" x=8 y=coord(y + 22.0)>{name.clone()}</text>
                    <g clip-path=cut.clone()>
                        <line class="other-line" x1=coord(X0) x2=coord(X1) y1=coord(y + 19.0) y2=coord(y + 19.0) />
                        {down(spans, y)}
                    </g>
                </g>
            }
        }).collect_view()}
    }
}
