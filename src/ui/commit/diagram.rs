//! The messages of one pane as a space-time diagram, drawn up to the cursor
//! (a question waiting to be answered must not show the answer ahead). The
//! geometry and SVG are the export's (`viz::spacetime`, `trace::svg`); side
//! by side, 2PC and F = 0 Paxos Commit show the same arrows.

use super::super::lease::lanes::Pane;
use super::super::use_app;
use crate::sim::SimTime;
use crate::trace::svg;
use crate::viz::spacetime::{layout_trace, Options};
use leptos::prelude::*;

const WIDTH: f64 = 1000.0;

#[component]
/// `id`: the test id of pane A's diagram (other views reuse this one).
/// `window_us`: in a run longer than twice this, draw only this much time,
/// ending at the cursor (a long run squeezed into one width is unreadable,
/// and laying out all of it on every redraw is slow).
pub fn PaneDiagram(
    pane: Pane,
    #[prop(optional)] id: Option<&'static str>,
    #[prop(optional)] window_us: Option<u64>,
) -> impl IntoView {
    let app = use_app();
    let span = move |end: u64| window_us.filter(|w| end > 2 * w).unwrap_or(end);
    // The cursor in steps of 1/500 of the run: the diagram is 1000 units
    // wide, so an arrow moves at most two units between redraws, and a
    // playing run redraws it far less often than every frame.
    // Kept by the frame (`App::frame_memo`): the cursor's signal wakes
    // nothing between two steps.
    let cursor = app.frame_memo(move |t| {
        let end = app.end.get().max(1);
        let step = (span(end) / 500).max(1);
        if t >= end {
            end
        } else {
            t - t % step
        }
    });
    let drawing = Memo::new(move |_| {
        app.rev.get();
        let t = cursor.get();
        let end = app.end.get().max(1);
        let lang = app.lang.get();
        let draw = |m: &super::super::model::Model| {
            let upto = m.run.events_until(SimTime(t));
            let height = 34.0 + 24.0 * m.run.names.len() as f64;
            let (from_t, to_t) = if span(end) < end {
                let w = span(end);
                let from = t.saturating_sub(w);
                (from, from + w)
            } else {
                (0, end)
            };
            let first = m.run.trace.partition_point(|e| e.t.0 < from_t).min(upto);
            let mut opts = Options::new(from_t, to_t, WIDTH, height);
            opts.max_arrows = 200;
            let mut d = layout_trace(
                &m.run.names,
                &m.run.trace[first..upto],
                SimTime(t.min(m.end())),
                &opts,
            );
            super::super::spacetime::in_language(
                &mut d,
                lang,
                &m.run.names,
                &m.run.trace[first..upto],
            );
            svg::render_live(
                &d,
                lang.words().spacetime_title,
                super::super::spacetime::diagram_words(lang.words()),
            )
        };
        match pane {
            Pane::A => app.model.with_value(|m| draw(m)),
            Pane::B => app
                .model_b
                .with_value(|b| b.as_ref().map(draw).unwrap_or_default()),
        }
    });
    view! {
        <div
            class="commit-diagram"
            data-testid=match pane {
                Pane::A => id.unwrap_or("commit-diagram"),
                Pane::B => "commit-diagram-b",
            }
            inner_html=move || drawing.get()
        ></div>
    }
}
