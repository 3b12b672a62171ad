//! The messages of one pane as a space-time diagram, drawn up to the cursor
//! (a question waiting to be answered must not show the answer ahead). The
//! geometry and SVG are the export's (`viz::spacetime`, `trace::svg`); side
//! by side, 2PC and F = 0 Paxos Commit show the same arrows.
//!
//! It is drawn in two layers (`svg::Layer`): what has settled by the cursor
//! — arrows delivered or lost, closed spans, marks — again only when an
//! event passes; and over it what moves with the cursor — the messages in
//! flight, drawn to their receiver's lane at the cursor, and the spans still
//! open — at every step of the cursor, a few elements. Drawn whole at every
//! step, a playing run cost about a third of the commit view's script.

use super::super::lease::lanes::Pane;
use super::super::model::Model;
use super::super::use_app;
use crate::sim::SimTime;
use crate::trace::svg::{self, Layer};
use crate::viz::spacetime::{layout_trace, Diagram, Options};
use leptos::prelude::*;

const WIDTH: f64 = 1000.0;

/// The run laid out up to its `upto`-th event on a time axis to `run_end`
/// (both panes share it, so side by side their arrows line up), with `end`
/// the time its open spans and messages in flight reach.
fn laid_out(m: &Model, upto: usize, end: u64, run_end: u64, lang: crate::i18n::Lang) -> Diagram {
    let height = 34.0 + 24.0 * m.run.names.len() as f64;
    let mut opts = Options::new(0, run_end, WIDTH, height);
    opts.max_arrows = 200;
    let trace = &m.run.trace[..upto.min(m.run.trace.len())];
    let mut d = layout_trace(&m.run.names, trace, SimTime(end), &opts);
    super::super::spacetime::in_language(&mut d, lang, &m.run.names, trace);
    d
}

#[component]
/// `id`: the test id of pane A's diagram (other views reuse this one).
pub fn PaneDiagram(pane: Pane, #[prop(optional)] id: Option<&'static str>) -> impl IntoView {
    let app = use_app();
    let with_model = move |f: &dyn Fn(&Model) -> String| match pane {
        Pane::A => app.model.with_value(|m| f(m)),
        Pane::B => app
            .model_b
            .with_value(|b| b.as_ref().map(f).unwrap_or_default()),
    };
    // The events up to the cursor: the settled layer changes only with them.
    let upto = app.frame_memo(move |t| match pane {
        Pane::A => app.model.with_value(|m| m.run.events_until(SimTime(t))),
        Pane::B => app
            .model_b
            .with_value(|b| b.as_ref().map_or(0, |m| m.run.events_until(SimTime(t)))),
    });
    // The cursor in steps of 1/500 of the run: the diagram is 1000 units
    // wide, so an arrow in flight moves at most two units between redraws.
    // Kept by the frame (`App::frame_memo`): the cursor's signal wakes
    // nothing between two steps.
    let cursor = app.frame_memo(move |t| {
        let end = app.end.get().max(1);
        let step = (end / 500).max(1);
        if t >= end {
            end
        } else {
            t - t % step
        }
    });
    // Whether the arrows carry their words: decided for both layers at once
    // (the same rule as the page's other diagrams: at most 60 arrows).
    let settled = Memo::new(move |_| {
        app.rev.track();
        let (upto, lang, run_end) = (upto.get(), app.lang.get(), app.end.get().max(1));
        // Laid out to the last event: spans still open there and messages
        // still in flight are the other layer's.
        with_model(&|m| {
            // (`upto` is the frame's; `min` keeps a count from another run
            // in range until it catches up.)
            let last = upto
                .min(m.run.trace.len())
                .checked_sub(1)
                .map_or(0, |i| m.run.trace[i].t.0);
            let d = laid_out(m, upto, last, run_end, lang);
            svg::render_layer(
                &d,
                lang.words().spacetime_title,
                d.arrows.len() <= 60,
                super::super::spacetime::diagram_words(lang.words()),
                Layer::Settled,
            )
        })
    });
    let moving = Memo::new(move |_| {
        app.rev.track();
        let (upto, t, lang, run_end) = (
            upto.get(),
            cursor.get(),
            app.lang.get(),
            app.end.get().max(1),
        );
        with_model(&|m| {
            let d = laid_out(m, upto, t.min(m.end()), run_end, lang);
            svg::render_layer(
                &d,
                "",
                d.arrows.len() <= 60,
                super::super::spacetime::diagram_words(lang.words()),
                Layer::Moving,
            )
        })
    });
    view! {
        <div
            class="commit-diagram"
            data-testid=match pane {
                Pane::A => id.unwrap_or("commit-diagram"),
                Pane::B => "commit-diagram-b",
            }
        >
            <div inner_html=move || settled.get()></div>
            <div class="moving" aria-hidden="true" inner_html=move || moving.get()></div>
        </div>
    }
}
