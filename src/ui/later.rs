//! The part of the page that comes after the first paint (`Part::Later`).
//!
//! The first frame holds what a viewer reads first and what makes the page
//! interactive: the top bar, the chamber with its banner and the transport.
//! Everything here is fetched in the background once that frame has painted
//! (`parts::Later`): the side column (narration, invariants, inspector, the
//! checker's panel), the space-time diagram under the parliament, the closed
//! dialogs (help, QR code, sharing), the autosave (with the scenario's
//! serializer) and the run's trace hash — whose encoder (the canonical JSON
//! of every event) is then only in this chunk.

use super::parts::{PartView, Piece};
use super::{
    files, inspector, keys, modelcheck, narration, parts::Part, qr, spacetime, use_app, View,
};
use leptos::prelude::*;

/// What to draw for a piece of this part.
pub fn draw(piece: Piece) -> AnyView {
    match piece {
        Piece::Column => column().into_any(),
        Piece::Diagram => view! { <spacetime::SpaceTime /> }.into_any(),
        Piece::Dialogs => view! {
            <files::Autosave />
            <keys::Help />
            <qr::QrPanel />
            <files::ShareDialog />
        }
        .into_any(),
        Piece::Hash => hash().into_any(),
        Piece::Status => view! { <files::StatusBar /> }.into_any(),
        Piece::Main | Piece::Side | Piece::Stage { .. } | Piece::Tools => ().into_any(),
    }
}

fn column() -> impl IntoView {
    let app = use_app();
    view! {
        <narration::Narration />
        <narration::Invariants />
        <Show when=move || app.view.get() == View::Parliament>
            <inspector::Inspector />
        </Show>
        <Show when=move || app.view.get() == View::Lease>
            <section class="panel" data-testid="side-inject"><PartView part=Part::Lease piece=Piece::Side /></section>
        </Show>
        <Show when=move || {
            app.rev.get();
            app.view.get() == View::Parliament && app.model.with_value(|m| m.is_paxos())
        }>
            <modelcheck::ModelCheck />
        </Show>
    }
}

/// The run's trace hash (it encodes the whole trace, so it is computed when
/// first shown and kept with the run: `Model::hash`).
fn hash() -> impl IntoView {
    let app = use_app();
    move || {
        app.rev.get();
        app.model
            .with_value(|m| m.hash().unwrap_or_default().to_string())
    }
}
