//! The Multi-Paxos view: the parliament's ledgers become a replicated log.
//! One row per replica, one column per slot — a note at the back of the ledger for a vote, ink once
//! chosen, underlined once applied, no-ops greyed — the leader's chair and
//! its ballot, the clients and what they last heard, the master lease as a
//! lane per replica, and the messages in a space-time diagram. Everything
//! is drawn up to the cursor, from the trace (`viz::multipaxos`).

use super::spacetime::SpaceTime;
use super::use_app;
use crate::float::{coord, fixed};
use crate::protocol::multipaxos::Verdict;
use crate::protocol::multipaxos::{MpCommand, KEYS};
use crate::protocol::Command;
use crate::sim::fault::Fault;
use crate::sim::SimTime;
use crate::viz::multipaxos::{
    lease_lanes, session_lanes, snapshot, Ink, LeaseLanes, LogCursor, SessionLanes, SessionMark,
    Snapshot,
};
use leptos::prelude::*;

/// The view as a part of the page (`super::parts`): its tab, or a lesson's
/// stage (with the controls only in a try-it step).
pub fn draw(piece: super::parts::Piece) -> AnyView {
    use super::parts::Piece;
    match piece {
        Piece::Stage { controls } => view! { <MultiView controls=controls /> }.into_any(),
        _ => view! { <MultiView /> }.into_any(),
    }
}

/// `controls`: the caption, the crash and write buttons (a lesson's watch and
/// predict steps leave them out: the caption would tell what is coming).
#[component]
pub fn MultiView(#[prop(default = true)] controls: bool) -> impl IntoView {
    let app = use_app();
    let caption = move || super::caption(app);
    view! {
        <div class="multi-view" data-testid="multi-view">
            {controls.then(|| view! {
                <p class="caption" data-testid="caption">{caption}</p>
                <Controls />
            })}
            <Log />
            <SessionLane />
            <LeaseLane />
            // The parliament's space-time diagram: its window moves in halves
            // and the cursor and fog move over it, so a playing run does not
            // lay it out again every frame.
            <SpaceTime />
        </div>
    }
}

/// The picture at the cursor.
fn now(app: super::App) -> Snapshot {
    app.rev.get();
    let t = app.t.get();
    app.model.with_value(|m| {
        let upto = m.run.events_until(SimTime(t));
        snapshot(&m.run, &m.run.trace[..upto])
    })
}

#[component]
fn Log() -> impl IntoView {
    let app = use_app();
    // Redrawn when an event passes the cursor, not on every frame: between
    // two events the log does not change.
    // Kept by the frame (`App::frame_memo`): the cursor's signal wakes
    // nothing between two events.
    let upto = app.frame_memo(move |t| {
        (
            app.rev.get(),
            app.model.with_value(|m| m.run.events_until(SimTime(t))),
        )
    });
    // Kept between redraws: playing forward costs only the events that passed.
    let cursor: StoredValue<Option<(u64, LogCursor)>> = StoredValue::new(None);
    let snap = Memo::new(move |_| {
        let (rev, n) = upto.get();
        app.model.with_value(|m| {
            cursor
                .try_update_value(|c| {
                    let fresh = !matches!(c, Some((r, _)) if *r == rev);
                    if fresh {
                        *c = Some((rev, LogCursor::new(&m.run)));
                    }
                    c.as_mut()
                        .map(|(_, cur)| cur.advance(&m.run, n).clone())
                        .unwrap_or_default()
                })
                .unwrap_or_default()
        })
    });
    let host = NodeRef::<leptos::html::Div>::new();
    let drawn: StoredValue<Option<(u64, crate::i18n::Lang, Snapshot)>> = StoredValue::new(None);
    Effect::new(move |_| {
        let (rev, lang) = (app.rev.get(), app.lang.get());
        let Some(el) = host.get() else { return };
        snap.with(|s| {
            app.model.with_value(|m| {
                drawn.update_value(|d| patch_log(&el, d, rev, lang, s, &m.run.names))
            });
        });
    });
    view! {
        <section class="pane mp-log-pane">
            <h3 class="pane-title">{move || app.words().mp_log_title}</h3>
            <p class="hint">{move || app.words().mp_log_hint}</p>
            // Focusable: a keyboard can scroll a log wider than the page.
            <div class="mp-log-scroll" node_ref=host tabindex="0" role="region" aria-label=move || app.words().mp_log_title></div>
            {move || snap.with(|s| (!s.replicas.iter().any(|r| r.leads.is_some())).then(|| view! {
                <p class="mp-nobody" data-testid="mp-no-leader">{app.words().mp_no_leader}</p>
            }))}
            <ul class="mp-legend">
                <li><span class="mp-cell voted">"x=1"</span>{move || app.words().mp_legend_vote}</li>
                <li><span class="mp-cell learned">"x=1"</span>{move || app.words().mp_legend_ink}</li>
                <li><span class="mp-cell applied">"x=1"</span>{move || app.words().mp_legend_applied}</li>
                <li><span class="mp-cell applied noop">"no-op"</span>{move || app.words().mp_legend_noop}</li>
            </ul>
            <h4>{move || app.words().mp_clients}</h4>
            <ul class="mp-clients" data-testid="mp-clients">
                {move || {
                    let names = app.model.with_value(|m| m.run.names.clone());
                    snap.with(|s| s.clients.iter().map(|c| {
                    let w = app.words();
                    let speak = app.lang.get().tell();
                    let holds = (!c.holds.is_empty()).then(|| {
                        let list: Vec<String> = c.holds.iter().map(|(l, g)| format!("{} {l} ({} {g})", w.mp_lock, w.mp_generation)).collect();
                        view! { <span class="holds" data-testid=format!("mp-holds-{}", c.name)>{format!(" · {} {}", w.mp_holds, list.join(", "))}</span> }
                    });
                    view! {
                        <li data-testid=format!("mp-client-{}", c.name)>
                            <b>{c.name.clone()}</b>
                            {c.session.map(|m| view! {
                                <span class=format!("session {}", m.as_str()) data-testid=format!("mp-session-{}", c.name) data-session=m.as_str()>
                                    {format!(" · {}: {}", w.mp_session, session_word(w, m))}
                                </span>
                            })}
                            {holds}
                            {c.waiting.map(|x| view! { <span class="waiting">{format!(" · {} {}", w.mp_waits, speak.mp_cmd(&names, &x))}</span> })}
                            {c.last.map(|(x, o)| view! {
                                <span class="heard">{format!(" · {}: {} → {}", w.mp_heard, speak.mp_cmd(&names, &x), speak.mp_outcome(&o))}</span>
                            })}
                        </li>
                    }
                }).collect_view())
                }}
                {move || snap.with(|s| s.file.clone().map(|f| {
                    let w = app.words();
                    let file = match &f.file {
                        Some((v, g)) => format!("{v} ({} {g})", w.mp_generation),
                        None => w.mp_file_empty.to_string(),
                    };
                    let last = f.last.map(|(who, g, v)| {
                        let class = if v == Verdict::Accepted { "verdict ok" } else { "verdict refused" };
                        view! {
                            <span class=class data-testid="mp-file-verdict" data-verdict=v.as_str()>
                                {format!(" · {}: {who}, {} {g} — {}", w.mp_last_check, w.mp_generation, verdict_word(w, v))}
                            </span>
                        }
                    });
                    view! {
                        <li class="file-server" data-testid="mp-file-server">
                            <b>{f.name.clone()}</b>
                            {format!(" ({}) · {}: ", w.mp_file_server, w.mp_file)}
                            <span data-testid="mp-file">{file}</span>
                            {last}
                        </li>
                    }
                }))}
            </ul>
        </section>
    }
}

fn session_word(w: &crate::i18n::Words, m: SessionMark) -> &'static str {
    match m {
        SessionMark::Safe => w.mp_session_safe,
        SessionMark::Jeopardy => w.mp_session_jeopardy,
        SessionMark::Lost => w.mp_session_lost,
    }
}

fn verdict_word(w: &crate::i18n::Words, v: Verdict) -> &'static str {
    match v {
        Verdict::Accepted => w.mp_verdict_accepted,
        Verdict::Stale { .. } => w.mp_verdict_stale,
        Verdict::NotCurrent => w.mp_verdict_not_current,
    }
}

/// The log as HTML in one string: at 5 replicas and 200 slots a thousand
/// cells, and one parse of a string is far cheaper than a thousand reactive
/// nodes. Drawn whole when a run opens or the cursor moves back; as a run
/// plays, [`patch_log`] replaces only the cells and rows that changed.
fn log_html(s: &Snapshot, names: &[String], lang: crate::i18n::Lang) -> String {
    let w = lang.words();
    // Slots count from 1 (version 0 is "never written").
    let slots = s.slots.max(2);
    let mut h = String::with_capacity(64 * s.replicas.len() * slots as usize + 256);
    h.push_str("<table class=\"mp-log\" data-testid=\"mp-log\"><thead><tr><th></th>");
    h.push_str(&slot_heads(1, slots, w));
    h.push_str("</tr></thead><tbody>");
    for (i, r) in s.replicas.iter().enumerate() {
        h.push_str(&row_html(i, r, s, names, lang));
    }
    h.push_str("</tbody></table>");
    h
}

fn slot_heads(from: u32, to: u32, w: &crate::i18n::Words) -> String {
    use std::fmt::Write;
    let mut h = String::new();
    for k in from..to {
        let _ = write!(
            h,
            "<th scope=\"col\">{} {k}</th>",
            crate::trace::svg::escape(w.mp_slot)
        );
    }
    h
}

/// What a row's heading shows: when it changes the row is drawn again.
fn row_head(
    r: &crate::viz::multipaxos::ReplicaRow,
) -> (
    bool,
    Option<crate::protocol::ballot::Ballot>,
    Option<crate::protocol::ballot::Ballot>,
    bool,
    bool,
) {
    (r.down, r.leads, r.running, r.lease, r.cut_off)
}

fn row_html(
    i: usize,
    r: &crate::viz::multipaxos::ReplicaRow,
    s: &Snapshot,
    names: &[String],
    lang: crate::i18n::Lang,
) -> String {
    use std::fmt::Write;
    let esc = crate::trace::svg::escape;
    let w = lang.words();
    let state = if r.down {
        w.node_down.to_string()
    } else if let Some(b) = r.leads {
        format!("♛ {} ({},{})", w.mp_leads, b.round, r.name)
    } else if let Some(b) = r.running {
        format!("{} ({},{})", w.mp_runs, b.round, r.name)
    } else {
        w.mp_follows.to_string()
    };
    let mut class = String::new();
    if r.down {
        class.push_str("down ");
    }
    if r.leads.is_some() {
        class.push_str("leader");
    }
    let mut h = String::new();
    let _ = write!(
        h,
        "<tr class=\"{class}\" data-row=\"{i}\" data-testid=\"mp-row-{n}\" data-leads=\"{}\" data-down=\"{}\" data-lease=\"{}\" data-cut-off=\"{}\"><th scope=\"row\"><span class=\"mp-name\">{n}</span> <span class=\"mp-state\">{}</span>",
        r.leads.is_some(),
        r.down,
        r.lease,
        r.cut_off,
        esc(&state),
        n = esc(&r.name),
    );
    if r.lease {
        let _ = write!(
            h,
            "<span class=\"mp-lease\">{}</span>",
            esc(w.mp_lease_mark)
        );
    }
    if r.cut_off && !r.down {
        let _ = write!(
            h,
            "<span class=\"mp-cut\">✂ {}</span>",
            esc(w.mp_cut_off_mark)
        );
    }
    h.push_str("</th>");
    for k in 1..s.slots.max(2) {
        h.push_str(&cell_html(k, r.cells.get(&k), s, names, lang));
    }
    h.push_str("</tr>");
    h
}

fn cell_html(
    k: u32,
    c: Option<&crate::viz::multipaxos::Cell>,
    s: &Snapshot,
    names: &[String],
    lang: crate::i18n::Lang,
) -> String {
    let esc = crate::trace::svg::escape;
    let Some(c) = c else {
        return format!("<td class=\"mp-cell empty\" data-slot=\"{k}\"></td>");
    };
    let ink = match c.ink {
        Ink::Voted => "voted",
        Ink::Learned => "learned",
        Ink::Applied => "applied",
    };
    let title = c
        .ballot
        .map(|b| {
            format!(
                "2b ({},{})",
                b.round,
                s.replicas
                    .iter()
                    .find(|x| x.node == b.node)
                    .map_or("?", |x| x.name.as_str())
            )
        })
        .unwrap_or_default();
    format!(
        "<td class=\"mp-cell {ink}{}\" data-slot=\"{k}\" data-ink=\"{ink}\" title=\"{}\">{}</td>",
        if c.noop { " noop" } else { "" },
        esc(&title),
        esc(&lang.tell().mp_cmd(names, &c.cmd))
    )
}

/// The log drawn in `el`, brought to `s`: whole when nothing is drawn yet,
/// the run or the language changed, or the cursor went back (fewer slots);
/// otherwise only new slots' columns are added and the cells and rows that
/// changed are replaced — a few per frame where a redraw parsed a thousand.
fn patch_log(
    el: &web_sys::Element,
    drawn: &mut Option<(u64, crate::i18n::Lang, Snapshot)>,
    rev: u64,
    lang: crate::i18n::Lang,
    s: &Snapshot,
    names: &[String],
) {
    let same = matches!(drawn, Some((r, l, old)) if *r == rev && *l == lang && old.replicas.len() == s.replicas.len() && old.slots <= s.slots);
    let Some((_, _, old)) = drawn.as_ref().filter(|_| same) else {
        el.set_inner_html(&log_html(s, names, lang));
        *drawn = Some((rev, lang, s.clone()));
        return;
    };
    if old == s {
        return;
    }
    let (from, to) = (old.slots.max(2), s.slots.max(2));
    if to > from {
        if let Ok(Some(head)) = el.query_selector("thead tr") {
            let _ = head.insert_adjacent_html("beforeend", &slot_heads(from, to, lang.words()));
        }
    }
    for (i, r) in s.replicas.iter().enumerate() {
        let Ok(Some(tr)) = el.query_selector(&format!("tr[data-row=\"{i}\"]")) else {
            continue;
        };
        let o = &old.replicas[i];
        if row_head(o) != row_head(r) {
            tr.set_outer_html(&row_html(i, r, s, names, lang));
            continue;
        }
        if to > from {
            let empty: String = (from..to)
                .map(|k| cell_html(k, None, s, names, lang))
                .collect();
            let _ = tr.insert_adjacent_html("beforeend", &empty);
        }
        for k in 1..to {
            let (a, b) = (o.cells.get(&k), r.cells.get(&k));
            if a != b {
                if let Ok(Some(td)) = tr.query_selector(&format!("td[data-slot=\"{k}\"]")) {
                    td.set_outer_html(&cell_html(k, b, s, names, lang));
                }
            }
        }
    }
    *drawn = Some((rev, lang, s.clone()));
}

const X0: f64 = 90.0;
const X1: f64 = 980.0;
const LANE_H: f64 = 26.0;
const TOP: f64 = 22.0;
/// A session lane: room above its bar for the master's "session ended" mark.
const SESSION_H: f64 = 34.0;

fn x(t: u64, end: u64) -> f64 {
    X0 + (t.min(end) as f64 / end.max(1) as f64) * (X1 - X0)
}

/// The master lease, one lane per replica. The lanes are drawn whole once
/// per run; as the cursor moves only it, the fog over what lies past it and
/// each lane's "held now" follow — no lane is drawn again every frame.
#[component]
fn LeaseLane() -> impl IntoView {
    let app = use_app();
    let lanes = Memo::new(move |_| {
        app.rev.get();
        app.model.with_value(|m| lease_lanes(&m.run))
    });
    view! {
        <section class="pane mp-lease-pane">
            <h3 class="pane-title">{move || app.words().mp_lease_title}</h3>
            {move || lanes.with(|l| (!l.enabled).then(|| view! { <p class="hint" data-testid="mp-no-lease">{app.words().mp_lease_none}</p> }))}
            {move || lanes.with(|l| l.enabled.then(|| lease_svg(app, l.clone(), app.end.get(), app.lang.get())))}
        </section>
    }
}

/// The time axis of a lane chart.
fn axis(end: u64, height: f64, lang: crate::i18n::Lang) -> impl IntoView {
    let speak = lang.tell();
    let step = [
        100_000u64, 200_000, 500_000, 1_000_000, 2_000_000, 5_000_000,
    ]
    .into_iter()
    .find(|s| end / s <= 10)
    .unwrap_or(10_000_000);
    view! {
        <g class="axis">
            {(0..=end / step).map(|k| k * step).map(|k| view! {
                <line class="tick" x1=coord(x(k, end)) x2=coord(x(k, end)) y1=coord(TOP - 4.0) y2=coord(height - 4.0) />
                <text class="tick-label" x=coord(x(k, end)) y=coord(TOP - 8.0)>{if k == 0 { "0".to_string() } else { speak.duration(k) }}</text>
            }).collect_view()}
        </g>
    }
}

/// The cursor, and the fog over what lies past it (unless the whole run is
/// asked for, and always while a question waits): moved, never redrawn.
fn cursor_and_fog(app: super::App, end: u64, height: f64) -> impl IntoView {
    // One group, moved by the frame (`App::on_frame`): the fog runs from the
    // cursor to the lanes' right edge (the drawing's own edge cuts it).
    let g: NodeRef<leptos::svg::G> = NodeRef::new();
    let place = move |t: u64| {
        if let Some(g) = g.get_untracked() {
            super::perf::translate_x(&g, x(t, end));
        }
    };
    app.on_frame_and(place, move || g.get().is_some());
    let fogged = Memo::new(move |_| app.fogged());
    view! {
        <g node_ref=g>
            <rect class="fog" x=0 y=coord(TOP - 4.0) width=coord(X1 + 20.0) height=coord(height)
                style:display=move || if fogged.get() { "inline" } else { "none" } />
            <line class="cursor" x1=0 x2=0 y1=coord(TOP - 6.0) y2=coord(height) />
        </g>
    }
}

fn lease_svg(app: super::App, l: LeaseLanes, end: u64, lang: crate::i18n::Lang) -> impl IntoView {
    let height = TOP + l.lanes.len() as f64 * LANE_H + 4.0;
    view! {
        <svg class="lanes mp-lease-lanes" viewBox=format!("0 0 1000 {}", fixed(height, 0)) data-testid="mp-lease-lanes" role="img" aria-label=lang.words().mp_lease_title>
            {axis(end, height, lang)}
            {l.lanes.into_iter().enumerate().map(|(i, (_, name, spans))| {
                let y = TOP + i as f64 * LANE_H;
                let bars: Vec<_> = spans.iter().map(|s| {
                    let (a, z) = (x(s.from.0, end), x(s.to.0, end));
                    view! { <rect class="mp-lease-span" x=coord(a) y=coord(y + 4.0) width=coord((z - a).max(1.5)) height=coord(LANE_H - 10.0) /> }
                }).collect();
                let spans = StoredValue::new(spans);
                let held_now = app.frame_memo(move |t| {
                    spans.with_value(|sp| sp.iter().any(|s| s.from.0 <= t && t < s.to.0))
                });
                let held_now = move || held_now.get().to_string();
                view! {
                    <g class="mp-lease-lane" data-testid=format!("mp-lease-{name}") data-held=held_now>
                        <text class="row-name" x=8 y=coord(y + 17.0)>{name.clone()}</text>
                        {bars}
                    </g>
                }
            }).collect_view()}
            {cursor_and_fog(app, end, height)}
        </svg>
    }
}

/// A Chubby cell's sessions, one lane per client as the client sees its
/// session — safe, in jeopardy, lost — with its pauses, the moment a master
/// ended it, and the file server's verdict on each of its writes (✓
/// accepted, ✗ refused). Drawn whole once per run, under the fog past the
/// cursor; a verdict is shown only once its moment has come.
#[component]
fn SessionLane() -> impl IntoView {
    let app = use_app();
    let lanes = Memo::new(move |_| {
        app.rev.get();
        app.model.with_value(|m| session_lanes(&m.run))
    });
    move || {
        lanes.with(|l| {
            (!l.lanes.is_empty()).then(|| {
                view! {
                    <section class="pane mp-session-pane">
                        <h3 class="pane-title">{app.words().mp_sessions_title}</h3>
                        {session_svg(app, l.clone(), &app.model.with_value(|m| m.run.names.clone()), app.end.get(), app.lang.get())}
                        <ul class="mp-legend">
                            <li><span class="mp-swatch safe"></span>{app.words().mp_session_safe}</li>
                            <li><span class="mp-swatch jeopardy"></span>{app.words().mp_session_jeopardy}</li>
                            <li><span class="mp-swatch lost"></span>{app.words().mp_session_lost}</li>
                            <li>"✓ "{app.words().mp_verdict_accepted}</li>
                            <li>"✗ "{app.words().mp_verdict_refused}</li>
                            <li><span class="mp-swatch paused"></span>{app.words().mp_paused}</li>
                        </ul>
                    </section>
                }
            })
        })
    }
}

fn session_svg(
    app: super::App,
    l: SessionLanes,
    names: &[String],
    end: u64,
    lang: crate::i18n::Lang,
) -> impl IntoView {
    let height = TOP + l.lanes.len() as f64 * SESSION_H + 4.0;
    let w = lang.words();
    // Shown once its moment has come: the fog hides the future from the eye,
    // this hides it from a screen reader too.
    let from = move |at: u64| {
        let come = app.frame_memo(move |t| at <= t);
        move || if come.get() { "visible" } else { "hidden" }
    };
    let SessionLanes {
        lanes,
        writes,
        paused,
        ended,
    } = l;
    let order: Vec<_> = lanes.iter().map(|l| l.0).collect();
    view! {
        <svg class="lanes mp-session-lanes" viewBox=format!("0 0 1000 {}", fixed(height, 0)) data-testid="mp-session-lanes" role="img" aria-label=w.mp_sessions_title>
            {axis(end, height, lang)}
            {lanes.into_iter().enumerate().map(|(i, (node, name, spans))| {
                let y = TOP + i as f64 * SESSION_H;
                let bars: Vec<_> = spans.iter().map(|s| {
                    let (a, z) = (x(s.from.0, end), x(s.to.0, end));
                    view! { <rect class=format!("mp-session-span {}", s.mark.as_str()) x=coord(a) y=coord(y + 12.0) width=coord((z - a).max(1.5)) height=coord(SESSION_H - 16.0) /> }
                }).collect();
                let pauses: Vec<_> = paused.iter().filter(|p| p.0 == node).map(|p| {
                    let (a, z) = (x(p.1.0, end), x(p.2.0, end));
                    view! {
                        <g class="mp-paused" data-testid="mp-paused" visibility=from(p.1.0)>
                            <rect x=coord(a) y=coord(y + 12.0) width=coord((z - a).max(1.5)) height=coord(SESSION_H - 16.0) />
                            <text x=coord(a + 4.0) y=coord(y + 25.0)>{w.mp_paused}</text>
                        </g>
                    }
                }).collect();
                let ends: Vec<_> = ended.iter().filter(|e| e.0 == node).map(|e| {
                    let at = x(e.1.0, end);
                    let by = names.get(e.2.index()).cloned().unwrap_or_default();
                    view! {
                        <g class="mp-ended" data-testid="mp-session-ended" visibility=from(e.1.0)>
                            <line x1=coord(at) x2=coord(at) y1=coord(y + 1.0) y2=coord(y + SESSION_H - 2.0) />
                            <text x=coord(at + 3.0) y=coord(y + 9.0)>{format!("{} ({by})", w.mp_session_ended)}</text>
                        </g>
                    }
                }).collect();
                let marks: Vec<_> = spans.iter().map(|s| (s.from.0, s.to.0.max(s.from.0 + 1), s.mark.as_str())).collect();
                let marks = StoredValue::new(marks);
                let now = app.frame_memo(move |t| {
                    marks.with_value(|m| m.iter().find(|s| s.0 <= t && t < s.1).map_or("none", |s| s.2))
                });
                view! {
                    <g class="mp-session-lane" data-testid=format!("mp-session-lane-{name}") data-session=now>
                        <text class="row-name" x=8 y=coord(y + 25.0)>{name.clone()}</text>
                        {bars}
                        {pauses}
                        {ends}
                    </g>
                }
            }).collect_view()}
            {cursor_and_fog(app, end, height)}
            // The verdicts above the fog: a mark's text runs past its moment,
            // and each is hidden until that moment anyway.
            {writes.iter().filter_map(|m| order.iter().position(|n| *n == m.writer).map(|i| (TOP + i as f64 * SESSION_H, m))).map(|(y, m)| {
                let ok = m.verdict == Verdict::Accepted;
                view! {
                    <text class=if ok { "mp-write-mark ok" } else { "mp-write-mark refused" } x=coord(x(m.at.0, end)) y=coord(y + 25.0)
                        data-testid="mp-write-mark" data-verdict=m.verdict.as_str() visibility=from(m.at.0)>
                        {format!("{} g{}", if ok { "✓" } else { "✗" }, m.generation)}
                    </text>
                }
            }).collect_view()}
        </svg>
    }
}

/// Crash the leader, restart what is down, cut the leader off from the
/// other replicas and heal, and send a write of one's own.
#[component]
fn Controls() -> impl IntoView {
    let app = use_app();
    let key = RwSignal::new(KEYS[0].to_string());
    let value = RwSignal::new("7".to_string());
    let leader_in = |s: &Snapshot| {
        s.replicas
            .iter()
            .find(|r| r.leads.is_some())
            .map(|r| r.name.clone())
    };
    let leader = move || leader_in(&now(app));
    let crash = move |_| {
        if let Some(node) = leader() {
            app.inject(Fault::Crash { node });
        } else {
            app.toast
                .set(Some((app.words().mp_no_leader.to_string(), true)));
        }
    };
    let restart = move |_| {
        let s = now(app);
        let down: Vec<_> = s
            .replicas
            .iter()
            .filter(|r| r.down)
            .map(|r| {
                Fault::Restart {
                    node: r.name.clone(),
                }
                .into()
            })
            .collect();
        if !down.is_empty() {
            app.inject_all(down);
        }
    };
    // The leader on one side, the other replicas on the other; the clients
    // (and the file server) are in neither group, so they reach both sides —
    // as a client beside an old master does in `two-masters`.
    let cut = move |_| {
        // One snapshot (each replays the run up to the cursor).
        let s = now(app);
        let Some(leader) = leader_in(&s) else {
            return app
                .toast
                .set(Some((app.words().mp_no_leader.to_string(), true)));
        };
        let others: Vec<String> = s
            .replicas
            .iter()
            .map(|r| r.name.clone())
            .filter(|n| *n != leader)
            .collect();
        app.inject(Fault::Partition {
            groups: vec![vec![leader], others],
            oneway: false,
        });
    };
    let heal = move |_| {
        // The simulator at the cursor knows its cut links.
        if app.model.with_value(|m| m.cursor.network().any_blocked()) {
            app.inject(Fault::Heal);
        } else {
            app.toast
                .set(Some((app.words().mp_cut_nothing.to_string(), true)));
        }
    };
    let write = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let s = now(app);
        let Some(client) = s.clients.first().map(|c| c.name.clone()) else {
            return;
        };
        // The scenario checks the key and the value too; here first, to say
        // what is wrong in the page's language. The run on screen stays.
        let (k, v) = (key.get_untracked(), value.get_untracked());
        use crate::scenario::multipaxos_spec::{read_key, write_value};
        let w = app.words();
        if let Err(e) = read_key(w.mp_write_key, &k).and_then(|_| write_value(w.mp_write_value, &v))
        {
            let said = app.lang.get_untracked().tell().scenario_error(&e);
            return app.toast.set(Some((said, true)));
        }
        app.inject(Command::Multipaxos(MpCommand::Put {
            node: client,
            key: k,
            value: v,
        }));
    };
    view! {
        <div class="commit-controls mp-controls" data-no-export="">
            <button class="btn danger" data-testid="crash-leader" on:click=crash>{move || app.words().crash_leader}</button>
            <button class="btn" data-testid="restart-replicas" on:click=restart>{move || app.words().restart_replicas}</button>
            <button class="btn danger" data-testid="cut-leader" title=move || app.words().cut_leader_off_hint on:click=cut>{move || app.words().cut_leader_off}</button>
            <button class="btn" data-testid="heal-network" on:click=heal>{move || app.words().heal_network}</button>
            <form class="mp-write" on:submit=write>
                <label class="field">
                    <span class="field-label">{move || app.words().mp_write_key}</span>
                    <select data-testid="mp-key" on:change=move |ev| key.set(event_target_value(&ev))>
                        {KEYS.iter().map(|k| view! { <option value=*k>{*k}</option> }).collect_view()}
                    </select>
                </label>
                <label class="field">
                    <span class="field-label">{move || app.words().mp_write_value}</span>
                    <input data-testid="mp-value" size="6" prop:value=move || value.get() on:input=move |ev| value.set(event_target_value(&ev)) />
                </label>
                <button class="btn" type="submit" data-testid="mp-write">{move || app.words().mp_write}</button>
            </form>
            // What was injected, each with a way to take it out again.
            <super::faultlist::FaultList />
        </div>
    }
}
