//! What the File menu writes — a trace, a scenario, the view as SVG or PNG,
//! ShiViz, Mermaid, a share link — as a part of the page (`super::parts`):
//! the writers, the share link's deflate and the standalone SVG's copy of the
//! app's styles are fetched the first time something is exported, not in the
//! first load.

use super::{browser, files, App, View};
use crate::trace;
use leptos::prelude::*;

/// One thing to export.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Export {
    Trace,
    Scenario,
    Shiviz,
    /// A window of the run, in µs.
    Mermaid {
        from: u64,
        to: u64,
    },
    ViewSvg,
    ViewPng,
    /// The share link of the scenario on screen, shown in the share dialog.
    Link,
}

/// Writes `what` of the work on screen and hands it to the browser as a
/// download (a share link goes to the share dialog instead).
pub fn write(app: App, what: Export) {
    let stem = if app.view.get_untracked() == View::Ballots {
        "ballots".to_string()
    } else {
        files::stem(app)
    };
    let file = |ext: &str| format!("{stem}.{ext}");
    let (name, text, mime) = match what {
        Export::Trace => (
            file("trace.json"),
            app.model
                .with_value(|m| trace::json::export(m.scenario(), &m.run.names, &m.run.trace)),
            "application/json",
        ),
        Export::Scenario => (
            file("scenario.json"),
            app.model
                .with_value(|m| trace::json::export_scenario(m.scenario())),
            "application/json",
        ),
        Export::Shiviz => (
            file("shiviz.log"),
            app.model
                .with_value(|m| trace::shiviz::export(&m.run.names, &m.run.trace)),
            "text/plain",
        ),
        Export::Mermaid { from, to } => (
            file("mmd"),
            app.model
                .with_value(|m| trace::mermaid::export(&m.run.names, &m.run.trace, from, to)),
            "text/plain",
        ),
        // In a lesson, the step's own link (as its "Link to this step").
        Export::Link if app.lesson.get_untracked().is_some() => {
            return app.share.set(Some(files::moment_link(app)));
        }
        // On Ballots, the table on screen (not the run of the other tabs).
        Export::Link if app.view.get_untracked() == View::Ballots => {
            return app.share.set(Some(super::ballots::link()));
        }
        // The link shows the moment on screen (the run can still be played
        // from the start); at 0 it says nothing of time.
        Export::Link => {
            let t = app.t.get_untracked();
            let link = files::share_link(app);
            let link = if t > 0 { format!("{link}&t={t}") } else { link };
            return app.share.set(Some(link));
        }
        Export::ViewSvg | Export::ViewPng => {
            let Some(svg) = view_svg(app) else { return };
            if what == Export::ViewPng {
                if let Err(e) = browser::download_png(&file("png"), &svg) {
                    app.toast.set(Some((e, true)));
                }
                return;
            }
            (file("svg"), svg, "image/svg+xml")
        }
    };
    if let Err(e) = browser::download(&name, &text, mime) {
        app.toast.set(Some((e, true)));
    }
}

/// Every rule the views are drawn with: the first load's and the parts',
/// and the page's type and ink (in the page they are `body`'s; here the
/// picture's own root is the SVG).
const STYLES: &str = concat!(
    include_str!("../../style/app.css"),
    include_str!("../../style/parts.css"),
    ":root{font-family:var(--font);color:var(--ink)}"
);

/// The SVG of the view on screen, standalone (with the app's styles inside).
/// A view that is one drawing (the parliament, the lease lab's lanes, the
/// commit's lanes) is that drawing; a view made of HTML (the replicated log
/// with its lanes, the ballots table) is drawn inside a `foreignObject`, as
/// the page shows it.
fn view_svg(app: App) -> Option<String> {
    let doc = web_sys::window()?.document()?;
    let sel = match app.view.get_untracked() {
        View::Parliament => "[data-testid=parliament]",
        View::Lease => "[data-testid=lanes]",
        View::Multi => return page_svg(&doc.query_selector("[data-testid=multi-view]").ok()??),
        View::Ballots => return page_svg(&doc.query_selector("[data-testid=ballots]").ok()??),
        _ => "[data-testid=stage] svg",
    };
    let el = doc.query_selector(sel).ok()??;
    let inner = el.inner_html();
    let vb = el
        .get_attribute("viewBox")
        .unwrap_or_else(|| "0 0 1000 600".into());
    let dims: Vec<f64> = vb
        .split_whitespace()
        .filter_map(crate::float::parse)
        .collect();
    let (w, h) = (
        crate::float::coord(dims.get(2).copied().unwrap_or(1000.0)),
        crate::float::coord(dims.get(3).copied().unwrap_or(600.0)),
    );
    let class = el.get_attribute("class").unwrap_or_default();
    Some(format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"{class}\" viewBox=\"{vb}\" width=\"{w}\" height=\"{h}\"><style>{STYLES}</style><rect width=\"100%\" height=\"100%\" fill=\"#fbfaf6\"/>{inner}</svg>"
    ))
}

/// A part of the page as it is drawn, inside an SVG's `foreignObject`: the
/// fields show what is typed in them (a copy, with their values written as
/// attributes, is what is serialized).
fn page_svg(el: &web_sys::Element) -> Option<String> {
    use wasm_bindgen::JsCast;
    let (w, h) = (el.scroll_width().max(1), el.scroll_height().max(1));
    let copy: web_sys::Element = el.clone_node_with_deep(true).ok()?.dyn_into().ok()?;
    let (live, copied) = (
        el.query_selector_all("input").ok()?,
        copy.query_selector_all("input").ok()?,
    );
    for i in 0..live.length().min(copied.length()) {
        let (Some(a), Some(b)) = (live.item(i), copied.item(i)) else {
            continue;
        };
        let (Ok(a), Ok(b)) = (
            a.dyn_into::<web_sys::HtmlInputElement>(),
            b.dyn_into::<web_sys::Element>(),
        ) else {
            continue;
        };
        let _ = b.set_attribute("value", &a.value());
        if a.checked() {
            let _ = b.set_attribute("checked", "");
        }
    }
    // A picture for a slide: the view's buttons that act on the run stay out.
    if let Ok(skip) = copy.query_selector_all("[data-no-export]") {
        for i in 0..skip.length() {
            if let Some(n) = skip
                .item(i)
                .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
            {
                n.remove();
            }
        }
    }
    let _ = copy.set_attribute("style", &format!("width:{w}px"));
    let html = web_sys::XmlSerializer::new()
        .ok()?
        .serialize_to_string(&copy)
        .ok()?;
    Some(format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\"><style>{STYLES}</style><rect width=\"100%\" height=\"100%\" fill=\"#fbfaf6\"/><foreignObject width=\"100%\" height=\"100%\">{html}</foreignObject></svg>"
    ))
}
