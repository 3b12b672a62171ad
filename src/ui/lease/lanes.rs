//! The lease lanes: per worker, the lease as it believes (top band) and as
//! the store says (bottom band) — the gap between them, hatched red, is the
//! danger; then the store, `orders` and the LLM on the same time axis.

use super::super::use_app;
use crate::float::{coord, fixed};
use crate::viz::lease::{Lanes, WorkerLane};
use crate::viz::palette;
use leptos::prelude::*;

const X0: f64 = 130.0;
const X1: f64 = 985.0;
const WORKER_H: f64 = 58.0;
const ROW_H: f64 = 44.0;
const TOP: f64 = 26.0;
/// One replica's line under the store's row, when the store is a group.
const REPLICA_H: f64 = 15.0;

/// The store's row: its grants, and a line per replica of a replicated store.
fn store_h(l: &Lanes) -> f64 {
    ROW_H + l.stores.len() as f64 * REPLICA_H
}

fn x(t: u64, end: u64) -> f64 {
    X0 + (t as f64 / end.max(1) as f64) * (X1 - X0)
}

/// Which model a lanes view draws.
#[derive(Copy, Clone, PartialEq, Eq)]
pub enum Pane {
    A,
    B,
}

#[component]
pub fn LaneView(pane: Pane) -> impl IntoView {
    let app = use_app();
    let data = move || {
        app.rev.get();
        let pick = |m: &super::super::model::Model| (m.lanes().cloned(), m.run.names.to_vec());
        match pane {
            Pane::A => app.model.with_value(|m| Some(pick(m))),
            Pane::B => app.model_b.with_value(|b| b.as_ref().map(pick)),
        }
    };
    let end = move || app.end.get();
    let height = move || {
        data()
            .and_then(|(l, _)| l)
            .map(|l| TOP + l.workers.len() as f64 * WORKER_H + 2.0 * ROW_H + store_h(&l) + 8.0)
            .unwrap_or(100.0)
    };
    // The cursor moves with every frame: the frame moves it (`App::on_frame`).
    let cursor_g: NodeRef<leptos::svg::G> = NodeRef::new();
    let place = move |t: u64| {
        if let Some(g) = cursor_g.get_untracked() {
            super::super::perf::translate_x(&g, x(t, app.end.get_untracked()));
        }
    };
    app.on_frame_and(place, move || {
        app.end.track();
        cursor_g.get().is_some()
    });
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
        if fx >= X0 && fx <= X1 {
            app.playing.set(false);
            app.set_t(((fx - X0) / (X1 - X0) * app.end.get_untracked() as f64) as u64);
        }
    };
    view! {
        <svg
            class="lanes"
            viewBox=move || format!("0 0 1000 {}", fixed(height(), 0))
            data-testid=if pane == Pane::A { "lanes" } else { "lanes-b" }
            role="img"
            aria-label=move || app.words().view_lease
            on:click=seek
        >
            <defs>
                <pattern id="hatch-red" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                    <rect width=6 height=6 fill="#fbe0d2" />
                    <line x1=0 y1=0 x2=0 y2=6 stroke=palette::VERMILLION stroke-width=3 />
                </pattern>
                <pattern id="hatch-grey" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)">
                    <line x1=0 y1=0 x2=0 y2=8 stroke="#9a9a9a" stroke-width=2 />
                </pattern>
            </defs>
            {move || {
                let (lanes, names) = data()?;
                let lanes = lanes?;
                let lang = app.lang.get();
                Some(draw(&lanes, &names, end(), lang))
            }}
            // The cursor, and what lies past it under a fog unless the whole
            // run is asked for (and always while a question waits): made once,
            // moved as one group by the frame.
            <g node_ref=cursor_g>
                {move || app.fogged().then(|| view! {
                    <rect class="fog" data-testid="fog" x=0 y=coord(TOP - 4.0) width=1000 height=coord(height()) />
                })}
                <line class="cursor" x1=0 x2=0 y1=coord(TOP - 6.0) y2=move || coord(height()) />
            </g>
        </svg>
    }
}

fn draw(l: &Lanes, names: &[String], end: u64, lang: crate::i18n::Lang) -> impl IntoView {
    let w = lang.words();
    let speak = lang.tell();
    let bottom = TOP + l.workers.len() as f64 * WORKER_H + 2.0 * ROW_H + store_h(l);
    let ticks: Vec<u64> = {
        let step = [1u64, 2, 5, 10, 20, 30, 60]
            .into_iter()
            .map(|s| s * 1_000_000)
            .find(|s| end / s <= 12)
            .unwrap_or(120_000_000);
        (0..=end / step).map(|k| k * step).collect()
    };
    let name = |n: crate::sim::NodeId| names.get(n.index()).cloned().unwrap_or_default();
    // Rows under the workers: the store (taller for a group), orders, the LLM.
    let row_y = |k: usize| {
        TOP + l.workers.len() as f64 * WORKER_H
            + k as f64 * ROW_H
            + if k > 0 { store_h(l) - ROW_H } else { 0.0 }
    };
    view! {
        <g class="axis">
            {ticks
                .into_iter()
                .map(|t| {
                    view! {
                        <line class="tick" x1=coord(x(t, end)) x2=coord(x(t, end)) y1=coord(TOP - 4.0) y2=coord(bottom) />
                        <text class="tick-label" x=coord(x(t, end)) y=coord(TOP - 10.0)>{if t == 0 { "0".to_string() } else { speak.duration(t) }}</text>
                    }
                })
                .collect_view()}
        </g>
        <g class="split">
            {l.split
                .iter()
                .map(|s| {
                    view! {
                        <rect class="split-window" x=coord(x(s.from.0, end)) y=coord(TOP - 4.0) width=coord((x(s.to.0, end) - x(s.from.0, end)).max(2.0)) height=coord(bottom - TOP + 4.0) />
                        <text class="split-label" x=coord(x(s.from.0, end) + 3.0) y=coord(bottom - 4.0)>{w.split_brain}</text>
                    }
                })
                .collect_view()}
        </g>
        {l.workers.iter().enumerate().map(|(i, wl)| worker(wl, TOP + i as f64 * WORKER_H, end, w)).collect_view()}
        <g class="requests">
            {l.requests
                .iter()
                .filter_map(|r| {
                    let lane = l.workers.iter().position(|w| w.node == r.worker)?;
                    let y1 = TOP + lane as f64 * WORKER_H + 24.0;
                    let y2 = row_y(0) + 20.0;
                    let y2 = if r.delivered { y2 } else { (y1 + y2) / 2.0 };
                    Some(view! { <line class="request" class:lost=!r.delivered x1=coord(x(r.sent.0, end)) y1=coord(y1) x2=coord(x(r.ended.0, end)) y2=coord(y2) /> })
                })
                .collect_view()}
        </g>
        <g class="row store" transform=format!("translate(0,{})", fixed(row_y(0), 1))>
            <text class="row-name" x=8 y=26>{w.lane_store}</text>
            {l.grants
                .iter()
                .map(|g| {
                    let xx = x(g.t.0, end);
                    view! {
                        <line class="grant" class:takeover=g.takeover x1=coord(xx) x2=coord(xx) y1=6 y2=36 />
                        <text class="grant-label" x=coord(xx + 3.0) y=16>{format!("{} e{}", name(g.holder), g.epoch)}</text>
                    }
                })
                .collect_view()}
            {l.expiries
                .iter()
                .map(|(t, _, e)| view! { <text class="expiry" x=coord(x(t.0, end)) y=34>{format!("✕{e}")}</text> })
                .collect_view()}
            {l.stores
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let y = ROW_H + i as f64 * REPLICA_H;
                    let span = |list: &[crate::viz::lease::Span], class: &'static str| {
                        list.iter()
                            .map(|m| {
                                let (a, z) = (x(m.from.0, end), x(m.to.0, end));
                                view! { <rect class=class x=coord(a) y=coord(y + 2.0) width=coord((z - a).max(1.5)) height=coord(REPLICA_H - 5.0) /> }
                            })
                            .collect_view()
                    };
                    view! {
                        <g class="replica" data-testid=format!("replica-{}", s.name) data-masters=s.master.len() data-down=s.down.len()>
                            <title>{w.store_replica_title}</title>
                            <text class="replica-name" x=40 y=coord(y + REPLICA_H - 4.0)>{s.name.clone()}</text>
                            <line class="replica-axis" x1=coord(X0) x2=coord(X1) y1=coord(y + REPLICA_H / 2.0) y2=coord(y + REPLICA_H / 2.0) />
                            {span(&s.master, "master-lease")}
                            {span(&s.down, "down")}
                            {s.elected
                                .iter()
                                .map(|t| view! { <text class="elected" x=coord(x(t.0, end)) y=coord(y + REPLICA_H - 4.0)>"♛"</text> })
                                .collect_view()}
                        </g>
                    }
                })
                .collect_view()}
        </g>
        <g class="row orders" transform=format!("translate(0,{})", fixed(row_y(1), 1))>
            <text class="row-name" x=8 y=26>{w.lane_orders}</text>
            // The plain accepted writes first, the refused and damaged ones
            // over them: a refusal's label lies on the dots of the writes
            // after it, and must be read over them.
            {l.writes
                .iter()
                .filter(|wr| wr.plain())
                .chain(l.writes.iter().filter(|wr| !wr.plain()))
                .map(|wr| {
                    let xx = x(wr.t.0, end);
                    let y = 12.0 + (wr.key % 3) as f64 * 10.0;
                    let reason = wr.reason;
                    let w = lang.words();
                    let short = match reason {
                        Some(crate::protocol::storage::Refusal::RowFenced) => w.refused_row,
                        Some(crate::protocol::storage::Refusal::LeaseHeldByAnother) => w.refused_other,
                        Some(crate::protocol::storage::Refusal::LeaseExpired) => w.refused_expired,
                        None => "",
                    };
                    if !wr.accepted {
                        view! {
                            <g class="write rejected" data-testid="write-rejected" data-epoch=wr.epoch data-reason=reason.map(|r| r.as_str())>
                                <title>{lang.tell().say(names, &crate::viz::narrate::Say::Lease {
                                    node: wr.writer,
                                    note: crate::protocol::lease::LeaseNote::WriteRejected {
                                        writer: wr.writer,
                                        epoch: wr.epoch,
                                        key: wr.key,
                                        row: wr.row,
                                        reason: reason.unwrap_or(crate::protocol::storage::Refusal::RowFenced),
                                        lease: wr.lease,
                                        db_now_us: wr.now_us,
                                    },
                                })}</title>
                                <rect class="reject-box" x=coord(xx - 8.0) y=2 width=16 height=30 rx=3 />
                                <text class="reject-mark" x=coord(xx) y=24>"✕"</text>
                                <text class="reject-label" x=coord(xx + 11.0) y=12>{format!("e{} {}", wr.epoch, short)}</text>
                            </g>
                        }
                            .into_any()
                    } else if wr.overwrote {
                        view! {
                            <g class="write damaged" data-testid="write-damaged" data-epoch=wr.epoch>
                                <circle cx=coord(xx) cy=coord(y) r=6 />
                                <text class="damage-label" x=coord(xx + 8.0) y=coord(y + 4.0)>{format!("! {} > {}", wr.row, wr.epoch)}</text>
                            </g>
                        }
                            .into_any()
                    } else if wr.dead {
                        view! {
                            <g class="write damaged dead" data-testid="write-dead" data-epoch=wr.epoch>
                                <title>{format!("{}: e{}", w.dead_writes, wr.epoch)}</title>
                                <circle cx=coord(xx) cy=coord(y) r=6 />
                                <text class="damage-label" x=coord(xx + 8.0) y=coord(y + 4.0)>{format!("! e{} {}", wr.epoch, w.not_live)}</text>
                            </g>
                        }
                            .into_any()
                    } else {
                        view! { <circle class="write accepted" data-epoch=wr.epoch cx=coord(xx) cy=coord(y) r=coord(3.5) /> }.into_any()
                    }
                })
                .collect_view()}
        </g>
        <g class="row llm" transform=format!("translate(0,{})", fixed(row_y(2), 1))>
            <text class="row-name" x=8 y=26>{w.lane_llm}</text>
            {l.calls
                .iter()
                .map(|c| {
                    let (a, b) = (x(c.from.0, end), x(c.to.map_or(end, |t| t.0), end));
                    let long = c.to.map_or(end, |t| t.0).saturating_sub(c.from.0);
                    let y = 10.0 + (c.worker.index() % 3) as f64 * 9.0;
                    view! {
                        <line class="call" class:explain=c.purpose == crate::protocol::llm::Purpose::Explain x1=coord(a) x2=coord(b.max(a + 2.0)) y1=coord(y) y2=coord(y) />
                        {(long > 1_000_000).then(|| view! { <text class="call-label" x=coord(a) y=coord(y - 2.0)>{format!("{} {}", name(c.worker), speak.duration(long))}</text> })}
                    }
                })
                .collect_view()}
        </g>
    }
}

fn worker(wl: &WorkerLane, y0: f64, end: u64, w: &'static crate::i18n::Words) -> impl IntoView {
    let bands = |list: &[crate::viz::lease::Band], y: f64, h: f64, class: &'static str| {
        list.iter()
            .map(|b| {
                let (a, z) = (x(b.from.0, end), x(b.to.0, end));
                view! {
                    <rect class=class x=coord(a) y=coord(y) width=coord((z - a).max(1.5)) height=coord(h) />
                    {(z - a > 22.0).then(|| view! { <text class=format!("{class}-label") x=coord(a + 3.0) y=coord(y + h - 3.0)>{b.epoch}</text> })}
                }
            })
            .collect_view()
    };
    let spans = |list: &[crate::viz::lease::Span],
                 y: f64,
                 h: f64,
                 class: &'static str,
                 label: &'static str| {
        list.iter()
            .map(|s| {
                let (a, z) = (x(s.from.0, end), x(s.to.0, end));
                view! {
                    <rect class=class x=coord(a) y=coord(y) width=coord((z - a).max(1.5)) height=coord(h) />
                    {(z - a > 40.0 && !label.is_empty()).then(|| view! { <text class=format!("{class}-label") x=coord(a + 3.0) y=coord(y + 11.0)>{label}</text> })}
                }
            })
            .collect_view()
    };
    view! {
        <g class="worker-lane" data-testid=format!("lane-{}", wl.name) transform=format!("translate(0,{})", fixed(y0, 1))>
            <text class="row-name" x=8 y=22>{wl.name.clone()}</text>
            <text class="band-name" x=40 y=18>{w.believes}</text>
            <text class="band-name" x=40 y=38>{w.store_says}</text>
            {bands(&wl.believed, 6.0, 16.0, "belief")}
            {spans(&wl.danger, 6.0, 16.0, "danger", "")}
            {bands(&wl.truth, 27.0, 14.0, "truth")}
            {spans(&wl.waiting, 44.0, 8.0, "waiting", w.waiting_llm)}
            {spans(&wl.frozen, 2.0, 50.0, "frozen", w.frozen)}
            {spans(&wl.down, 2.0, 50.0, "down", "")}
        </g>
    }
}
