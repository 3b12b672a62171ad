//! "Check every schedule": the model checker in the page.
//!
//! The student picks a small configuration; the search (`check::explore`)
//! runs in slices of about 12 ms between frames, so the page never freezes,
//! and shows its progress. It ends with "no violation in S states" or with the
//! shortest counterexample, which opens in the time machine at the step where
//! the rule broke (the work on screen is kept, one click away).

use super::{use_app, App};
use crate::check::explore::paxos::{PaxosExplorer, PaxosModel};
use crate::check::explore::{sizes, Stop};
use crate::check::Invariant;
use crate::protocol::paxos::PaxosMutation;
use crate::protocol::Mutation;
use leptos::prelude::*;

/// The most states the page explores (about 60 bytes each).
const PAGE_MAX_STATES: usize = 6_000_000;
/// Work per slice, in milliseconds of the main thread: a frame waits at most
/// about this long (the goal is never 50 ms), and the browser paints between
/// slices, which follow each other as messages (no timer delay).
const SLICE_MS: f64 = 12.0;

/// What the panel shows.
#[derive(Clone, Debug, PartialEq)]
enum Phase {
    Idle,
    Running { states: usize, depth: u32, waiting: usize, rate: f64, left_s: Option<f64>, fraction: Option<f64> },
    Clean { states: usize, secs: f64, truncated: bool },
    Found { invariant: Invariant, steps: usize, detail: String, states: usize, also: Vec<(Invariant, usize)> },
    Cancelled { states: usize },
}

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// The page's checker: the search and when it started.
struct Search {
    model: PaxosModel,
    x: PaxosExplorer,
    started: f64,
    budget: usize,
}

#[component]
pub fn ModelCheck() -> impl IntoView {
    let app = use_app();
    let acceptors = RwSignal::new(3u32);
    let proposers = RwSignal::new(2u32);
    let ballots = RwSignal::new(3u32);
    let crashes = RwSignal::new(0u32);
    let mutation = RwSignal::new(None::<PaxosMutation>);
    let phase = RwSignal::new(Phase::Idle);
    let error = RwSignal::new(None::<String>);
    let search: StoredValue<Option<Search>, LocalStorage> = StoredValue::new_local(None);
    // Bumped by Cancel and by a new search, so that a stale slice stops.
    let generation = StoredValue::new(0u64);
    // Offer the mutation the scenario on screen carries.
    Effect::new(move |_| {
        app.rev.get();
        if let Some(Mutation::Paxos(m)) = app.model.with_value(|m| m.scenario().mutation) {
            mutation.set(Some(m));
        }
    });
    let model = move || PaxosModel {
        acceptors: acceptors.get() as usize,
        proposers: proposers.get() as usize,
        ballots: ballots.get(),
        crashes: crashes.get() as u8,
        mutation: mutation.get(),
    };
    let start = move || {
        let m = model();
        if let Err(e) = m.validate() {
            error.set(Some(e));
            return;
        }
        error.set(None);
        let id = generation.get_value() + 1;
        generation.set_value(id);
        let mut x = m.explorer(Stop::When(Invariant::Agreement));
        x.set_max_states(PAGE_MAX_STATES);
        search.set_value(Some(Search { model: m, x, started: now_ms(), budget: 500 }));
        phase.set(Phase::Running { states: 0, depth: 0, waiting: 0, rate: 0.0, left_s: None, fraction: None });
        super::browser::soon(move || slice(phase, search, generation, id));
    };
    let cancel = move || {
        generation.update_value(|g| *g += 1);
        let states = search.with_value(|s| s.as_ref().map_or(0, |s| s.x.progress().states));
        search.set_value(None);
        phase.set(Phase::Cancelled { states });
    };
    let open = move || open_counterexample(app, search);
    let running = move || matches!(phase.get(), Phase::Running { .. });

    view! {
        <details class="panel modelcheck" data-testid="modelcheck">
            <summary>{move || app.words().mc_title}</summary>
            <p class="hint">{move || app.words().mc_intro}</p>
            <div class="mc-form">
                <NumberField label=move || app.words().mc_acceptors value=acceptors max=5 min=1 testid="mc-acceptors" />
                <NumberField label=move || app.words().mc_proposers value=proposers max=3 min=1 testid="mc-proposers" />
                <NumberField label=move || app.words().mc_ballots value=ballots max=4 min=1 testid="mc-ballots" />
                <NumberField label=move || app.words().mc_crashes value=crashes max=2 min=0 testid="mc-crashes" />
                <label class="field">
                    <span class="field-label">{move || app.words().mutation}</span>
                    <select
                        data-testid="mc-mutation"
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            mutation.set(PaxosMutation::ALL.into_iter().find(|m| m.as_str() == v));
                        }
                    >
                        <option value="" selected=move || mutation.get().is_none()>{move || app.words().mutation_none}</option>
                        {move || {
                            let speak = app.lang.get().speak();
                            PaxosMutation::ALL
                                .into_iter()
                                .map(|m| {
                                    view! {
                                        <option value=m.as_str() selected=move || mutation.get() == Some(m)>
                                            {speak.mutation_title(Mutation::Paxos(m))}
                                        </option>
                                    }
                                })
                                .collect_view()
                        }}
                    </select>
                </label>
            </div>
            <p class="hint" data-testid="mc-size">{move || app.lang.get().speak().mc_size(sizes::known(&model()))}</p>
            {move || error.get().map(|e| view! { <p class="error" role="alert" data-testid="mc-error">{e}</p> })}
            <div class="mc-actions">
                <button class="primary" data-testid="mc-start" disabled=running on:click=move |_| start()>
                    {move || app.words().mc_start}
                </button>
                <button data-testid="mc-cancel" disabled=move || !running() on:click=move |_| cancel()>
                    {move || app.words().mc_cancel}
                </button>
            </div>
            <div class="mc-status" role="status" aria-live="polite" data-testid="mc-status" data-phase=move || match phase.get() {
                Phase::Idle => "idle",
                Phase::Running { .. } => "running",
                Phase::Clean { .. } => "clean",
                Phase::Found { .. } => "found",
                Phase::Cancelled { .. } => "cancelled",
            }>
                {move || {
                    let speak = app.lang.get().speak();
                    match phase.get() {
                        Phase::Idle => ().into_any(),
                        Phase::Running { states, depth, waiting, rate, left_s, fraction } => view! {
                            <progress data-testid="mc-progress" max="1" value=fraction.map(|f| f.to_string()) />
                            <p data-testid="mc-running">{speak.mc_running(states, depth, waiting, rate, left_s)}</p>
                        }.into_any(),
                        Phase::Clean { states, secs, truncated } => view! {
                            <p class="ok" data-testid="mc-clean">{speak.mc_clean(states, secs, truncated)}</p>
                        }.into_any(),
                        Phase::Found { invariant, steps, detail, states, also } => view! {
                            <p class="bad" data-testid="mc-found">{speak.mc_found(speak.invariant(invariant), steps, states)}</p>
                            <p class="detail">{detail}</p>
                            {also.into_iter().map(|(inv, n)| view! { <p class="detail">{speak.mc_also(speak.invariant(inv), n)}</p> }).collect_view()}
                            <button class="primary" data-testid="mc-open" on:click=move |_| open()>{app.words().mc_open}</button>
                        }.into_any(),
                        Phase::Cancelled { states } => view! {
                            <p data-testid="mc-cancelled">{speak.mc_cancelled(states)}</p>
                        }.into_any(),
                    }
                }}
            </div>
        </details>
    }
}

/// A small whole-number field with bounds (nonsense is refused inline).
#[component]
fn NumberField(
    label: impl Fn() -> &'static str + Send + Sync + 'static,
    value: RwSignal<u32>,
    min: u32,
    max: u32,
    testid: &'static str,
) -> impl IntoView {
    let app = use_app();
    let bad = RwSignal::new(false);
    view! {
        <label class="field small">
            <span class="field-label">{label}</span>
            <input
                type="number"
                inputmode="numeric"
                min=min
                max=max
                data-testid=testid
                class:invalid=move || bad.get()
                prop:value=move || value.get().to_string()
                on:change=move |ev| {
                    let typed = event_target_value(&ev);
                    match typed.trim().parse::<u32>().ok().filter(|n| (min..=max).contains(n)) {
                        Some(n) => {
                            bad.set(false);
                            value.set(n);
                        }
                        None => {
                            bad.set(true);
                            app.toast.set(Some((app.lang.get_untracked().speak().mc_bad_number(&typed, min, max), true)));
                        }
                    }
                }
            />
        </label>
    }
}

/// One slice of the search, then the next after the browser has painted.
fn slice(
    phase: RwSignal<Phase>,
    search: StoredValue<Option<Search>, LocalStorage>,
    generation: StoredValue<u64>,
    id: u64,
) {
    if generation.get_value() != id {
        return; // cancelled, or replaced by a new search
    }
    let outcome = search.try_update_value(|s| {
        let s = s.as_mut()?;
        let t0 = now_ms();
        let done = s.x.run(s.budget);
        // Aim each slice at SLICE_MS: the budget follows the last slice's speed.
        let took = (now_ms() - t0).max(0.1);
        s.budget = ((s.budget as f64 * SLICE_MS / took) as usize).clamp(200, 200_000);
        let p = s.x.progress().clone();
        let secs = (now_ms() - s.started) / 1_000.0;
        let rate = p.states as f64 / secs.max(1e-3);
        let total = sizes::known(&s.model);
        let fraction = total.map(|t| (p.states as f64 / t as f64).min(1.0));
        let left_s = total.map(|t| (t.saturating_sub(p.states)) as f64 / rate.max(1.0));
        Some((done, p, secs, rate, fraction, left_s))
    });
    let Some(Some((done, p, secs, rate, fraction, left_s))) = outcome else { return };
    if !done {
        phase.set(Phase::Running { states: p.states, depth: p.depth, waiting: p.frontier, rate, left_s, fraction });
        super::browser::soon(move || slice(phase, search, generation, id));
        return;
    }
    let found = search.with_value(|s| {
        let s = s.as_ref()?;
        let vs = s.x.violations();
        let v = vs.iter().find(|v| v.invariant == Invariant::Agreement).or(vs.first())?;
        let also = vs.iter().filter(|o| o.invariant != v.invariant).map(|o| (o.invariant, o.path.len())).collect();
        Some(Phase::Found { invariant: v.invariant, steps: v.path.len(), detail: v.detail.clone(), states: p.states, also })
    });
    phase.set(found.unwrap_or(Phase::Clean { states: p.states, secs, truncated: p.truncated }));
}

/// Load the shortest counterexample into the time machine, paused at the
/// moment the rule broke; the work on screen can be brought back.
fn open_counterexample(app: App, search: StoredValue<Option<Search>, LocalStorage>) {
    let scenario = search.try_update_value(|s| {
        let s = s.as_mut()?;
        let vs = s.x.violations().to_vec();
        let v = vs.iter().find(|v| v.invariant == Invariant::Agreement).or(vs.first())?.clone();
        let name = app.lang.get_untracked().speak().mc_scenario_name(app.lang.get_untracked().speak().invariant(v.invariant));
        Some(s.model.counterexample(&mut s.x, &v.path, &name))
    });
    let Some(Some(scenario)) = scenario else { return };
    match super::model::Model::new(&scenario) {
        Ok(model) => {
            let at = model.broken.first().map(|b| b.1);
            app.view.set(super::View::Parliament);
            app.replace(model, Some(app.words().mc_opened.to_string()));
            // One scripted step per millisecond: watch one per second.
            app.speed_log.set(-3.0);
            if let Some(t) = at {
                app.set_t(t);
            }
        }
        Err(e) => app.toast.set(Some((e, true))),
    }
}
