//! Presenter mode's QR code: the exact moment on screen (the lesson step, or
//! the run with its seed and faults, and the time; on Ballots the table) as a link that students
//! scan to open the same moment on their phones. No server: it is a share
//! link, in its shortest form (`files::moment_link`).

use super::{files, use_app};
use leptos::prelude::*;
use qrcode::{Color, EcLevel, QrCode};

/// The quiet zone around the code, in modules (the standard asks for four).
const QUIET: usize = 4;

/// `text` as a QR code in SVG: one path of dark modules on white. Level L
/// keeps the modules as large as the link allows (a projector is clean).
pub fn svg(text: &str) -> Option<String> {
    let code = QrCode::with_error_correction_level(text.as_bytes(), EcLevel::L).ok()?;
    let n = code.width();
    let mut d = String::with_capacity(n * n * 4);
    for (i, c) in code.to_colors().iter().enumerate() {
        if *c == Color::Dark {
            use std::fmt::Write;
            let _ = write!(d, "M{} {}h1v1h-1z", i % n + QUIET, i / n + QUIET);
        }
    }
    let size = n + 2 * QUIET;
    Some(format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {size} {size}\" shape-rendering=\"crispEdges\">\
         <rect width=\"{size}\" height=\"{size}\" fill=\"#fff\"/><path d=\"{d}\" fill=\"#000\"/></svg>"
    ))
}

/// The QR panel, over the stage while open. Opening it pauses the run, so
/// the code stays still while the room scans it.
#[component]
pub fn QrPanel() -> impl IntoView {
    let app = use_app();
    view! {
        <Show when=move || app.qr_open.get()>
            <super::parts::PartView part=super::parts::Part::Qr piece=super::parts::Piece::Side />
        </Show>
    }
}

/// The QR panel as a part of the page (`super::parts`), fetched when first
/// opened (the QR encoder is not in the first load).
pub fn draw(_: super::parts::Piece) -> AnyView {
    view! { <Panel /> }.into_any()
}

#[component]
fn Panel() -> impl IntoView {
    let app = use_app();
    let link = Memo::new(move |_| {
        app.rev.get();
        app.t.get();
        app.step.get();
        // On Ballots, the table on screen (as File > Share gives it).
        if app.lesson.get().is_none() && app.view.get() == super::View::Ballots {
            super::ballots::track();
            return super::ballots::link();
        }
        files::moment_link(app)
    });
    view! {
        <aside class="qr-panel" data-testid="qr-panel" aria-label=move || app.words().qr_title>
            <h2>{move || app.words().qr_title}</h2>
            <div class="qr-code" data-testid="qr-code" inner_html=move || svg(&link.get()).unwrap_or_default()></div>
            <p class="qr-link" data-testid="qr-link">{move || link.get()}</p>
            <button class="btn" data-testid="qr-close" on:click=move |_| app.qr_open.set(false)>{move || app.words().close}</button>
        </aside>
    }
}
