//! The lease lab: watch an LLM stall expire a lease and a fencing token stop
//! a stale writer — in lanes, in counters, side by side, with the red flags
//! and the charts.

pub mod charts;
pub mod controls;
pub mod flags;
pub mod lanes;
pub mod sql;

use super::use_app;
use crate::check::lease_monitor::LeaseTally;
use crate::protocol::lease::Design;
use crate::scenario::Flip;
use crate::sim::SimTime;
use lanes::{LaneView, Pane};
use leptos::prelude::*;

/// What distinguishes a pane, in words.
fn pane_title(app: super::App, pane: Pane) -> String {
    let w = app.words();
    let spec = match pane {
        Pane::A => app.model.with_value(|m| m.scenario().lease.clone()),
        Pane::B => app
            .model_b
            .with_value(|b| b.as_ref().and_then(|m| m.scenario().lease.clone())),
    };
    let Some(spec) = spec else {
        return String::new();
    };
    let design = match spec.design {
        Design::InLoop => w.design_in_loop,
        Design::Beside => w.design_beside,
        Design::NoLlm => w.design_none,
    };
    let on_etcd = match pane {
        Pane::A => app.model.with_value(|m| {
            m.recorded_on
                .as_deref()
                .is_some_and(|o| o.starts_with("etcd"))
        }),
        Pane::B => false,
    };
    let fencing = match spec.fencing {
        // etcd's guard is the lease key's revision, not a row's fence.
        crate::protocol::storage::Fencing::Article if on_etcd => w.fence_etcd,
        crate::protocol::storage::Fencing::Article => w.fence_article,
        crate::protocol::storage::Fencing::Token => w.fence_token,
        crate::protocol::storage::Fencing::Off => w.fence_off,
    };
    format!("{design} · {fencing}")
}

/// The lease lab as a part of the page (`super::parts`): the tab, the side
/// column's injections, and a lesson's lanes with the SQL beneath them (and,
/// with an LLM in the run, the red flags) and its try-it controls.
pub fn draw(piece: super::parts::Piece) -> AnyView {
    use super::parts::Piece;
    match piece {
        Piece::Main => view! { <LeaseLab /> }.into_any(),
        Piece::Side => view! { <controls::Inject /> }.into_any(),
        Piece::Tools => view! { <controls::Controls /> }.into_any(),
        Piece::Stage { .. } => {
            let app = use_app();
            let has_llm = move || {
                app.rev.get();
                app.model
                    .with_value(|m| m.flags().is_some_and(|f| f.has_llm))
            };
            view! {
                <LaneView pane=Pane::A />
                <sql::SqlPanel pane=Pane::A />
                {move || has_llm().then(|| view! { <flags::RedFlags /> })}
            }
            .into_any()
        }
        // The pieces of the part that comes after the first paint.
        Piece::Column | Piece::Diagram | Piece::Dialogs | Piece::Hash | Piece::Status => {
            ().into_any()
        }
    }
}

#[component]
pub fn LeaseLab() -> impl IntoView {
    let app = use_app();
    let caption = move || super::caption(app);
    let two = move || app.compare.get().is_some();
    view! {
        <div class="lease-lab" data-testid="lease-lab">
            <p class="caption" data-testid="caption">{caption}</p>
            <CompareBar />
            <div class="panes" class:two=two>
                <section class="pane" data-testid="pane-a">
                    <h3 class="pane-title">{move || { app.rev.get(); pane_title(app, Pane::A) }}</h3>
                    <LaneView pane=Pane::A />
                    <Counters pane=Pane::A />
                    <sql::SqlPanel pane=Pane::A />
                </section>
                <Show when=two>
                    <section class="pane" data-testid="pane-b">
                        <h3 class="pane-title">{move || { app.rev.get(); pane_title(app, Pane::B) }}</h3>
                        <LaneView pane=Pane::B />
                        <Counters pane=Pane::B />
                        <sql::SqlPanel pane=Pane::B />
                    </section>
                </Show>
            </div>
            <div class="lab-bottom">
                <controls::Controls no_inject=true />
                <flags::RedFlags />
                <charts::Charts />
            </div>
        </div>
    }
}

#[component]
fn CompareBar() -> impl IntoView {
    let app = use_app();
    let option = move |how: Option<Flip>,
                       label: fn(&crate::i18n::Words) -> &'static str,
                       id: &'static str| {
        view! {
            <label class="choice">
                <input
                    type="radio"
                    name="compare"
                    data-testid=id
                    prop:checked=move || app.compare.get() == how
                    on:change=move |_| app.set_compare(how)
                />
                {move || label(app.words())}
            </label>
        }
    };
    view! {
        <fieldset class="compare-bar">
            <legend>{move || app.words().compare}</legend>
            {option(None, |w| w.compare_off, "compare-off")}
            {option(Some(Flip::Fencing), |w| w.compare_fencing, "compare-fencing")}
            {option(Some(Flip::Design), |w| w.compare_design, "compare-design")}
        </fieldset>
    }
}

#[component]
fn Counters(pane: Pane) -> impl IntoView {
    let app = use_app();
    // A frame memo: the snapshot holds the figures as of the last event;
    // the split-brain time and the time held grow with the cursor between
    // events, so the frame works them out, and the memo changes only when a
    // figure does. Each figure is its own text, so a change rewrites that
    // one (the block rebuilt whole at every frame was most of a playing
    // lease run's script).
    let stats = app.frame_memo(move |t| {
        let at = |l: &Option<LeaseTally>| l.as_ref().map(|l| l.at(SimTime(t)));
        match pane {
            Pane::A => app.snap.with(|s| at(&s.lease)),
            Pane::B => app.snap_b.with(|s| s.as_ref().and_then(|s| at(&s.lease))),
        }
        .unwrap_or_default()
    });
    let id = move |k: &str| format!("{k}{}", if pane == Pane::B { "-b" } else { "" });
    let n = move |f: fn(&crate::check::lease_monitor::LeaseStats) -> u64| move || stats.with(f);
    let w = move || app.words();
    let duration = move |us: u64| app.lang.get().tell().duration(us);
    view! {
        <dl class="counters">
            <div class="counter">
                <dt>{move || w().stale_attempted}</dt>
                <dd data-testid=id("stale-attempted")>{n(|s| s.stale_attempted.into())}</dd>
            </div>
            <div class="counter good">
                <dt>{move || w().stale_rejected}</dt>
                <dd data-testid=id("stale-rejected")>{n(|s| s.stale_rejected.into())}</dd>
            </div>
            <div class="counter">
                <dt>{move || w().stale_accepted}</dt>
                <dd data-testid=id("stale-accepted")>{n(|s| s.stale_accepted.into())}</dd>
            </div>
            <div class="counter" class:bad=move || stats.with(|s| s.lost_updates > 0)>
                <dt>{move || w().damaged_rows}</dt>
                <dd data-testid=id("damaged")>{n(|s| s.lost_updates.into())}</dd>
            </div>
            <div class="counter" class:bad=move || stats.with(|s| s.dead_lease_writes > 0)>
                <dt>{move || w().dead_writes}</dt>
                <dd data-testid=id("dead-writes")>{n(|s| s.dead_lease_writes.into())}</dd>
            </div>
            <div class="counter good">
                <dt>{move || w().refused_by}</dt>
                <dd data-testid=id("refused-by")>
                    {move || {
                        let w = w();
                        stats.with(|st| format!("{} {} · {} {} · {} {}", w.refused_row, st.refused_row_fenced, w.refused_other, st.refused_held_by_another, w.refused_expired, st.refused_expired))
                    }}
                </dd>
            </div>
            <div class="counter" class:bad=move || stats.with(|s| s.split_brain_us > 0)>
                <dt>{move || w().split_time}</dt>
                <dd data-testid=id("split-time") data-us=n(|s| s.split_brain_us)>{move || duration(stats.with(|s| s.split_brain_us))}</dd>
            </div>
            <div class="counter">
                <dt>{move || w().failover}</dt>
                <dd>{move || stats.with(|s| s.mean_failover_us()).map(duration).unwrap_or_else(|| "—".into())}</dd>
            </div>
        </dl>
    }
}
