//! The commit view: two-phase commit and Paxos Commit, live. One lane per
//! RM — working, uncertain with its locks held, committed or aborted — the
//! messages in a space-time diagram, the other protocol side by side with
//! the same faults, and what each costs, measured from runs beside the
//! paper's formulas.

pub mod diagram;
pub mod lanes;
pub mod table;

use super::lease::lanes::Pane;
use super::use_app;
use crate::protocol::commit::Algorithm;
use crate::scenario::commit_spec::{Placement, Shape};
use crate::scenario::Flip;
use crate::scenario::Role;
use crate::sim::fault::Fault;
use leptos::prelude::*;

/// The pane's protocol in words: "Paxos Commit, F = 1 · TM: with RM1".
pub fn pane_title(lang: crate::i18n::Lang, shape: Option<Shape>) -> String {
    let Some(s) = shape else { return String::new() };
    let w = lang.words();
    let algorithm = lang.tell().commit_protocol(s.algorithm, s.faster, s.f);
    let placement = match s.placement {
        Placement::Separate => w.placement_separate,
        Placement::Colocated => w.placement_colocated,
    };
    format!("{algorithm} · {}: {placement}", w.col_placement)
}

fn shape_of(app: super::App, pane: Pane) -> Option<Shape> {
    match pane {
        Pane::A => app.model.with_value(|m| Shape::of(m.scenario())),
        Pane::B => app
            .model_b
            .with_value(|b| b.as_ref().and_then(|m| Shape::of(m.scenario()))),
    }
}

/// The view as a part of the page (`super::parts`): its tab, or a lesson's
/// stage (with the controls only in a try-it step).
pub fn draw(piece: super::parts::Piece) -> AnyView {
    use super::parts::Piece;
    match piece {
        Piece::Stage { controls } => view! { <CommitView controls=controls /> }.into_any(),
        _ => view! { <CommitView /> }.into_any(),
    }
}

/// `controls`: the side-by-side switch, the Faster variant and the TM's
/// crash (a lesson's watch and predict steps leave them out).
#[component]
pub fn CommitView(#[prop(default = true)] controls: bool) -> impl IntoView {
    let app = use_app();
    let caption = move || super::caption(app);
    let two = move || app.compare.get() == Some(Flip::Protocol);
    let pane = move |p: Pane, id: &'static str| {
        view! {
            <section class="pane" data-testid=id>
                <h3 class="pane-title" data-testid=format!("{id}-title")>{move || { app.rev.get(); pane_title(app.lang.get(), shape_of(app, p)) }}</h3>
                <lanes::RmLanes pane=p />
                <diagram::PaneDiagram pane=p />
            </section>
        }
    };
    view! {
        <div class="commit-view" data-testid="commit-view">
            // In a lesson's watch and predict steps the caption would give the
            // answer away (it says how the story ends); the step's text leads.
            {controls.then(|| view! {
                <p class="caption" data-testid="caption">{caption}</p>
                <Controls />
            })}
            <div class="panes" class:two=two>
                {pane(Pane::A, "commit-pane-a")}
                <Show when=two>{pane(Pane::B, "commit-pane-b")}</Show>
            </div>
            <table::Costs />
        </div>
    }
}

/// Side by side, the Faster variant, and the TM's node crashing now.
#[component]
fn Controls() -> impl IntoView {
    let app = use_app();
    let shape = move || {
        app.rev.get();
        shape_of(app, Pane::A)
    };
    let paxos = move || shape().is_some_and(|s| s.algorithm == Algorithm::PaxosCommit);
    let tm = move || {
        app.rev.get();
        app.model.with_value(|m| {
            m.scenario()
                .nodes_with(Role::Tm)
                .first()
                .map(|&n| m.run.names[n.index()].clone())
        })
    };
    let set_faster = move |on: bool| {
        let mut s = app.scenario();
        if let Some(c) = s.commit.as_mut() {
            c.faster = on;
        }
        if let Err(e) = app.load(s, true) {
            app.toast.set(Some((e, true)));
        }
    };
    let fault = move |crash: bool| {
        if let Some(node) = tm() {
            app.inject(if crash {
                Fault::Crash { node }
            } else {
                Fault::Restart { node }
            });
        }
    };
    view! {
        <div class="commit-controls">
            <label class="choice">
                <input
                    type="checkbox"
                    data-testid="commit-compare"
                    prop:checked=move || app.compare.get() == Some(Flip::Protocol)
                    on:change=move |ev| app.set_compare(event_target_checked(&ev).then_some(Flip::Protocol))
                />
                {move || app.words().commit_compare}
            </label>
            <label class="choice" class:hidden=move || !paxos()>
                <input
                    type="checkbox"
                    data-testid="commit-faster"
                    prop:checked=move || shape().is_some_and(|s| s.faster)
                    on:change=move |ev| set_faster(event_target_checked(&ev))
                />
                {move || app.words().faster_option}
            </label>
            <button class="btn danger" data-testid="crash-tm" on:click=move |_| fault(true)>
                {move || app.words().crash_tm}
            </button>
            <button class="btn" data-testid="restart-tm" on:click=move |_| fault(false)>
                {move || app.words().restart_tm}
            </button>
            // What was injected, each with a way to take it out again.
            <super::faultlist::FaultList />
        </div>
    }
}
