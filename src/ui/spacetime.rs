//! The space-time diagram under the chamber: one lane per node, arrows for
//! messengers, ✕ for losses, shaded faults — the same geometry and drawing
//! as the SVG export, with the time cursor on top. Click to seek.

use super::{browser, use_app};
use crate::trace::svg;
use crate::viz::spacetime::{layout_indexed, live_window, Options};
use leptos::prelude::*;

const WIDTH: f64 = 1200.0;
/// Show at most this much time at once (µs); longer runs scroll with the cursor.
const WINDOW_US: u64 = 3_000_000;
const LIVE_ARROWS: usize = 150;

/// The diagram's own words in the page's language.
pub fn diagram_words(w: &'static crate::i18n::Words) -> svg::DiagramWords<'static> {
    svg::DiagramWords {
        crashed: w.st_crashed,
        paused: w.mp_paused,
        duplicate: w.st_duplicate,
        in_flight: w.st_in_flight,
        lost: w.st_lost,
        partitioned: w.st_partitioned,
        receiver_down: w.st_receiver_down,
    }
}

/// The diagram's marks and cuts in the page's language (`trace` is the
/// slice the diagram was laid out from).
pub fn in_language(
    d: &mut crate::viz::spacetime::Diagram,
    lang: crate::i18n::Lang,
    names: &[String],
    trace: &[crate::trace::TraceEvent],
) {
    use crate::trace::EventKind;
    let speak = lang.tell();
    for mk in &mut d.markers {
        let Some(e) = trace.get(mk.event) else {
            continue;
        };
        match &e.kind {
            EventKind::Note(note) => {
                if let Some(l) = speak.mark(names, note) {
                    mk.label = l;
                }
            }
            // The narration's sentence for it.
            EventKind::Violation { invariant, detail } => {
                mk.label = speak.say(
                    names,
                    &crate::viz::narrate::Say::Violation {
                        node: e.node,
                        invariant: *invariant,
                        detail: detail.clone(),
                    },
                );
            }
            _ => {}
        }
    }
    for c in &mut d.net_spans {
        if let Some(EventKind::Fault {
            fault: crate::sim::fault::Fault::Partition { groups, oneway },
        }) = trace.get(c.event).map(|e| &e.kind)
        {
            c.label = crate::i18n::cut_label(lang.words(), names, groups, *oneway);
        }
    }
}

#[component]
pub fn SpaceTime() -> impl IntoView {
    let app = use_app();
    let win = app.frame_memo(move |t| live_window(t, app.end.get(), WINDOW_US));
    let drawing = Memo::new(move |_| {
        app.rev.get();
        let (from, to) = win.get();
        let title = app.words().spacetime_title;
        app.model.with_value(|m| {
            let height = 34.0 + 26.0 * m.run.names.len() as f64;
            let mut opts = Options::new(from, to, WIDTH, height);
            // The live diagram draws fewer arrows than an export: it is redrawn
            // as the window moves, and beyond a few hundred it is unreadable.
            opts.max_arrows = LIVE_ARROWS;
            let mut d = layout_indexed(&m.run.names, &m.run.trace, &m.flights, m.run.end, &opts);
            in_language(&mut d, app.lang.get(), &m.run.names, &m.run.trace);
            (
                svg::render_live(&d, title, diagram_words(app.words())),
                d.plot.x,
                d.plot.w,
                d.height,
                d.omitted_arrows,
            )
        })
    });
    let fogged = Memo::new(move |_| app.fogged());
    // The cursor line and the fog move with every frame: the frame writes
    // them (`App::on_frame`), from the drawing's place only (never a copy of
    // its SVG); a new drawing or window places them too.
    let cursor_g: NodeRef<leptos::svg::G> = NodeRef::new();
    let place = move |t: u64| {
        let Some(g) = cursor_g.get_untracked() else {
            return;
        };
        let (from, to) = live_window(t, app.end.get_untracked(), WINDOW_US);
        let (px, pw) = drawing.with_untracked(|d| (d.1, d.2));
        let x = px + t.saturating_sub(from) as f64 / (to - from).max(1) as f64 * pw;
        super::perf::translate_x(&g, x);
    };
    app.on_frame_and(place, move || {
        drawing.track();
        cursor_g.get().is_some()
    });
    let seek = move |ev: web_sys::MouseEvent| {
        use wasm_bindgen::JsCast;
        let Some(el) = ev
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        else {
            return;
        };
        let r = el.get_bounding_client_rect();
        let fx = (ev.client_x() as f64 - r.left()) / r.width().max(1.0) * WIDTH;
        let (from, to) = win.get_untracked();
        let (_, px, pw, _, _) = drawing.get_untracked();
        if fx >= px && fx <= px + pw {
            app.playing.set(false);
            app.set_t(from + ((fx - px) / pw * (to - from) as f64) as u64);
        }
    };
    let export = move |_| {
        let (svg, ..) = drawing.get_untracked();
        let name = format!("{}-spacetime.svg", app.scenario_name.get_untracked());
        if let Err(e) = browser::download(&name, &svg, "image/svg+xml") {
            app.toast.set(Some((e, true)));
        }
    };
    view! {
        <section class="spacetime" aria-label=move || app.words().spacetime_title data-testid="spacetime">
            <div class="spacetime-head">
                <h2>{move || app.words().spacetime_title}</h2>
                {move || {
                    let omitted = drawing.with(|d| d.4);
                    (omitted > 0).then(|| view! {
                        <span class="small hint" data-testid="spacetime-thinned" title=move || format!("{omitted} {}", app.words().st_thinned)>{format!("+{omitted} …")}</span>
                    })
                }}
                <button class="btn small" data-testid="export-spacetime" data-no-export="" on:click=export>{move || app.words().download_svg}</button>
            </div>
            <div class="spacetime-frame" on:click=seek>
                <div class="spacetime-svg" inner_html=move || drawing.with(|d| d.0.clone())></div>
                <svg class="spacetime-cursor" viewBox=move || format!("0 0 1200 {}", crate::float::fixed(drawing.with(|d| d.3), 0)) preserveAspectRatio="none" aria-hidden="true">
                    // The fog is made once and moved with the cursor: only
                    // whether there is one re-renders it.
                    // Both move as one group: a single attribute a frame.
                    <g node_ref=cursor_g>
                        {move || fogged.get().then(|| view! {
                            <rect class="fog" data-testid="fog" x=0 y=16 width=crate::float::coord(WIDTH) height=move || crate::float::coord(drawing.with(|d| d.3)) />
                        })}
                        <line x1=0 x2=0 y1=0 y2=move || crate::float::coord(drawing.with(|d| d.3)) />
                    </g>
                </svg>
            </div>
        </section>
    }
}
