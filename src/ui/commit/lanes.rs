//! A lane per RM, drawn up to the cursor: working (grey), **uncertain** —
//! prepared, locks held, the outcome unknown (amber, hatched) — committed
//! (green) or aborted (vermillion); hatched where its node is down; the
//! coordinators' decisions (◆) and takeovers (▲). At the right, how long each
//! RM has been uncertain so far.

use super::super::lease::lanes::Pane;
use super::super::use_app;
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
            viewBox=move || format!("0 0 1000 {:.0}", height())
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
            </defs>
            {move || {
                let t = app.t.get();
                let lang = app.lang.get();
                data.with(|d| d.as_ref().map(|l| draw(l, t, end(), lang)))
            }}
            <line class="cursor" x1=move || x(app.t.get(), end()) x2=move || x(app.t.get(), end()) y1=TOP - 6.0 y2=height />
        </svg>
    }
}

fn draw(l: &CommitLanes, t: u64, end: u64, lang: crate::i18n::Lang) -> impl IntoView {
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
    let clip = |s: &Span<()>| (s.from.0 <= t).then(|| (x(s.from.0, end), x(s.to.0.min(t), end)));
    let down = |list: &[Span<()>], y: f64| {
        list.iter()
            .filter_map(clip)
            .map(|(a, z)| {
                view! {
                    <rect class="down-span" x=a y=y + 3.0 width=(z - a).max(1.5) height=LANE_H - 10.0 />
                    {(z - a > 44.0).then(|| view! { <text class="down-label" x=a + 4.0 y=y + LANE_H - 10.0>{w.node_down}</text> })}
                }
            })
            .collect_view()
    };
    let row_of = |node: crate::sim::NodeId| -> usize {
        l.rms
            .iter()
            .position(|r| r.node == node)
            .unwrap_or_else(|| l.rms.len() + l.others.iter().position(|o| o.0 == node).unwrap_or(0))
    };
    view! {
        <g class="axis">
            {ticks.into_iter().map(|k| view! {
                <line class="tick" x1=x(k, end) x2=x(k, end) y1=TOP - 4.0 y2=bottom />
                <text class="tick-label" x=x(k, end) y=TOP - 10.0>{if k == 0 { "0".to_string() } else { speak.duration(k) }}</text>
            }).collect_view()}
            <text class="tick-label uncertain-head" x=930 y=TOP - 10.0>{w.uncertain_for}</text>
        </g>
        {l.rms.iter().enumerate().map(|(i, rm)| {
            let y = TOP + i as f64 * LANE_H;
            let now = phase_at(&rm.phases, t).unwrap_or(RmPhase::Working);
            let is_down = at(&rm.down, t).is_some();
            let uncertain: u64 = rm.phases.iter().filter(|p| p.what == RmPhase::Uncertain && p.from.0 <= t).map(|p| p.to.0.min(t) - p.from.0).sum();
            let blocked = now == RmPhase::Uncertain && uncertain > 500_000;
            let roles: Vec<&str> = [(rm.tm, "TM"), (rm.acceptor, "A"), (rm.coordinator, "C")].into_iter().filter(|r| r.0).map(|r| r.1).collect();
            view! {
                <g class="rm-lane" data-testid=format!("rm-lane-{}", rm.name) data-phase=phase_name(now) data-down=is_down.to_string() data-uncertain-us=uncertain>
                    <text class="row-name" x=8 y=y + 22.0>{rm.name.clone()}</text>
                    <text class="role-marks" x=8 y=y + 35.0>{roles.join(" ")}</text>
                    {rm.phases.iter().filter(|p| p.from.0 <= t).map(|p| {
                        let (a, z) = (x(p.from.0, end), x(p.to.0.min(t), end));
                        let label = match p.what {
                            RmPhase::Uncertain => w.rm_uncertain,
                            RmPhase::Committed => w.rm_committed,
                            RmPhase::Aborted => w.rm_aborted,
                            RmPhase::Working => w.rm_working,
                        };
                        view! {
                            <rect class=format!("phase {}", phase_name(p.what)) x=a y=y + 6.0 width=(z - a).max(1.0) height=LANE_H - 16.0 />
                            {(z - a > 8.0 * label.chars().count() as f64).then(|| view! { <text class=format!("phase-label {}", phase_name(p.what)) x=a + 4.0 y=y + 23.0>{label}</text> })}
                        }
                    }).collect_view()}
                    {down(&rm.down, y)}
                    <text class="uncertain-time" class:blocked=blocked x=930 y=y + 23.0>{if uncertain == 0 { "—".into() } else { speak.duration(uncertain) }}</text>
                </g>
            }
        }).collect_view()}
        {l.others.iter().enumerate().map(|(k, (_, name, spans))| {
            let y = TOP + (l.rms.len() + k) as f64 * LANE_H;
            view! {
                <g class="other-lane">
                    <text class="row-name" x=8 y=y + 22.0>{name.clone()}</text>
                    <line class="other-line" x1=X0 x2=x(t, end) y1=y + 19.0 y2=y + 19.0 />
                    {down(spans, y)}
                </g>
            }
        }).collect_view()}
        {l.marks.iter().filter(|m| m.0 .0 <= t).map(|(at, m)| {
            let (node, text, class) = match m {
                Mark::Decided { node, outcome } => (*node, format!("◆ {}", outcome.as_str()), "mark decided"),
                Mark::Takeover { node, round } => (*node, format!("▲ {round}"), "mark takeover"),
            };
            let y = TOP + row_of(node) as f64 * LANE_H;
            view! { <text class=class x=x(at.0, end) y=y + 5.0>{text}</text> }
        }).collect_view()}
    }
}
