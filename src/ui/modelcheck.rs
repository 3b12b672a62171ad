//! "Check every schedule": the model checker in the page.
//!
//! The student picks a small configuration; the search (`check::explore`)
//! runs in a Web Worker, in the checker's own WebAssembly module (built for
//! speed, fetched when the first search starts: `src/checker.rs`,
//! `checker-worker.js`), so the page keeps painting, and shows its progress.
//! It ends with "no violation in S states" or with the shortest
//! counterexample, which opens in the time machine at the step where the rule
//! broke (the work on screen is kept, one click away). The page and the
//! worker speak `check::explore::job`.

use super::{use_app, App};
use crate::check::explore::job::{Posted, Reply, Request};
use crate::check::explore::paxos::PaxosModel;
use crate::check::explore::sizes;
use crate::check::Invariant;
use crate::protocol::paxos::PaxosMutation;
use crate::protocol::Mutation;
use crate::scenario::Scenario;
use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// The worker's script, beside `index.html`.
const WORKER_URL: &str = "./checker-worker.js";

/// What the panel shows.
#[derive(Clone, Debug, PartialEq)]
enum Phase {
    Idle,
    Running {
        states: usize,
        depth: u32,
        waiting: usize,
        rate: f64,
        left_s: Option<f64>,
        fraction: Option<f64>,
    },
    Clean {
        states: usize,
        secs: f64,
        truncated: bool,
    },
    Found {
        invariant: Invariant,
        steps: usize,
        detail: String,
        states: usize,
        also: Vec<(Invariant, usize)>,
    },
    Cancelled {
        states: usize,
    },
    Failed {
        why: String,
    },
}

/// A search under way: its worker (terminated when this is dropped: on
/// Cancel, on a new search, once the verdict is in) and its handlers.
struct Search {
    worker: web_sys::Worker,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::ErrorEvent)>,
    states: usize,
}

impl Drop for Search {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

/// The panel: a closed `<details>` in the first load; its body is a part of
/// the page (`super::parts`), fetched when the panel is first opened and kept
/// from then on (a search under way survives closing the panel).
#[component]
pub fn ModelCheck() -> impl IntoView {
    let app = use_app();
    let opened = RwSignal::new(false);
    view! {
        <details
            class="panel modelcheck"
            data-testid="modelcheck"
            on:toggle=move |ev| {
                let open = event_target::<web_sys::Element>(&ev).has_attribute("open");
                if open && !opened.get_untracked() {
                    opened.set(true);
                }
            }
        >
            <summary>{move || app.words().mc_title}</summary>
            {move || opened.get().then(|| view! {
                <super::parts::PartView part=super::parts::Part::Checker piece=super::parts::Piece::Main />
            })}
        </details>
    }
}

/// The checker part's drawing function (`super::parts`).
pub fn draw(_: super::parts::Piece) -> AnyView {
    view! { <Body /> }.into_any()
}

#[component]
fn Body() -> impl IntoView {
    let app = use_app();
    let acceptors = RwSignal::new(3u32);
    let proposers = RwSignal::new(2u32);
    let ballots = RwSignal::new(3u32);
    let crashes = RwSignal::new(0u32);
    // What a field holds that is not a number in its range, as typed (said
    // under the form): while one does, there is nothing to check.
    let bad: [RwSignal<Option<String>>; 4] = std::array::from_fn(|_| RwSignal::new(None));
    let any_bad = move || bad.iter().any(|b| b.with(Option::is_some));
    let fields: [(fn(&crate::i18n::Words) -> &'static str, u32, u32); 4] = [
        (|w| w.mc_acceptors, 1, 5),
        (|w| w.mc_proposers, 1, 3),
        (|w| w.mc_ballots, 1, 4),
        (|w| w.mc_crashes, 0, 2),
    ];
    let mutation = RwSignal::new(None::<PaxosMutation>);
    // "Forget on restart" breaks nothing unless someone restarts: with no
    // crash allowed the search said "no violation" of a broken protocol.
    let needs_crash = move || mutation.get().is_some_and(PaxosMutation::needs_a_restart);
    let pick = move |m: PaxosMutation| {
        mutation.set(Some(m));
        if m.needs_a_restart() && crashes.get_untracked() == 0 {
            crashes.set(1);
        }
    };
    let phase = RwSignal::new(Phase::Idle);
    let error = RwSignal::new(None::<String>);
    let search: StoredValue<Option<Search>, LocalStorage> = StoredValue::new_local(None);
    // The last verdict's broken rule and counterexample (a scenario, as JSON).
    let found: StoredValue<Option<(Invariant, String)>> = StoredValue::new(None);
    // Bumped by Cancel and by a new search, so that a stale reply is ignored.
    let generation = StoredValue::new(0u64);
    // Offer the mutation the scenario on screen carries.
    Effect::new(move |_| {
        app.rev.get();
        if let Some(Mutation::Paxos(m)) = app.model.with_value(|m| m.scenario().mutation) {
            pick(m);
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
        if any_bad() {
            return;
        }
        let m = model();
        if let Err(e) = m.validate() {
            error.set(Some(e));
            return;
        }
        error.set(None);
        let id = generation.get_value() + 1;
        generation.set_value(id);
        search.set_value(None);
        found.set_value(None);
        match spawn(m, phase, search, found, generation, id) {
            Ok(s) => {
                search.set_value(Some(s));
                phase.set(Phase::Running {
                    states: 0,
                    depth: 0,
                    waiting: 0,
                    rate: 0.0,
                    left_s: None,
                    fraction: None,
                });
            }
            Err(why) => phase.set(Phase::Failed { why }),
        }
    };
    let cancel = move || {
        generation.update_value(|g| *g += 1);
        let states = search.with_value(|s| s.as_ref().map_or(0, |s| s.states));
        search.set_value(None);
        phase.set(Phase::Cancelled { states });
    };
    // A verdict is about the configuration it searched: another one chosen,
    // it goes, and a search under way stops (it says where it was).
    Effect::new(move |prev: Option<PaxosModel>| {
        let m = model();
        if prev.is_some_and(|p| p != m) {
            match phase.get_untracked() {
                Phase::Running { .. } => cancel(),
                Phase::Idle => {}
                _ => {
                    phase.set(Phase::Idle);
                    found.set_value(None);
                }
            }
        }
        m
    });
    let open = move || open_counterexample(app, found);
    // The panel opened at the foot of the side column: its buttons brought
    // into sight (they were under the transport bar of a short window).
    let actions: NodeRef<leptos::html::Div> = NodeRef::new();
    Effect::new(move |_| {
        if let Some(el) = actions.get() {
            super::browser::into_sight(el.into());
        }
    });
    let running = move || matches!(phase.get(), Phase::Running { .. });

    view! {
        <>
            <p class="hint">{move || app.words().mc_intro}</p>
            <div class="mc-form">
                <NumberField field=fields[0] value=acceptors bad=bad[0] testid="mc-acceptors" />
                <NumberField field=fields[1] value=proposers bad=bad[1] testid="mc-proposers" />
                <NumberField field=fields[2] value=ballots bad=bad[2] testid="mc-ballots" />
                <NumberField field=fields[3] value=crashes bad=bad[3] testid="mc-crashes" />
                <label class="field">
                    <span class="field-label">{move || app.words().mutation}</span>
                    <select
                        data-testid="mc-mutation"
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            match PaxosMutation::ALL.into_iter().find(|m| m.as_str() == v) {
                                Some(m) => pick(m),
                                None => mutation.set(None),
                            }
                        }
                    >
                        <option value="" selected=move || mutation.get().is_none()>{move || app.words().mutation_none}</option>
                        {move || {
                            let speak = app.lang.get().tell();
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
            <Show when=needs_crash>
                <p class="hint" data-testid="mc-needs-crash">{move || app.words().mc_needs_crash}</p>
            </Show>
            <p class="hint" data-testid="mc-size">{move || app.lang.get().tell().mc_size(sizes::known(&model()))}</p>
            {move || error.get().map(|e| view! { <p class="error" role="alert" data-testid="mc-error">{e}</p> })}
            {move || {
                let (w, speak) = (app.words(), app.lang.get().tell());
                bad.iter()
                    .zip(fields)
                    .filter_map(|(b, (label, min, max))| {
                        let e = speak.mc_bad_number(label(w), &b.get()?, min, max);
                        Some(view! { <p class="error" role="alert" data-testid="mc-field-error">{e}</p> })
                    })
                    .collect_view()
            }}
            <div class="mc-actions" node_ref=actions>
                <button class="primary" data-testid="mc-start" disabled=move || running() || any_bad() on:click=move |_| start()>
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
                Phase::Failed { .. } => "failed",
            }>
                {move || {
                    let speak = app.lang.get().tell();
                    match phase.get() {
                        Phase::Idle => ().into_any(),
                        Phase::Running { states, depth, waiting, rate, left_s, fraction } => view! {
                            <progress data-testid="mc-progress" max="1" value=fraction.map(|f| crate::float::fixed(f, 4).to_string()) />
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
                        Phase::Failed { why } => view! {
                            <p class="error" role="alert" data-testid="mc-failed">{speak.mc_failed(&why)}</p>
                        }.into_any(),
                    }
                }}
            </div>
        </>
    }
}

/// A small whole-number field with bounds (its label, least and most).
/// Nonsense is refused as it is typed: `bad` holds it (said under the form,
/// with the search's button off) and `value` keeps the last good number.
#[component]
fn NumberField(
    field: (fn(&crate::i18n::Words) -> &'static str, u32, u32),
    value: RwSignal<u32>,
    bad: RwSignal<Option<String>>,
    testid: &'static str,
) -> impl IntoView {
    let app = use_app();
    let (label, min, max) = field;
    let read = move |ev: leptos::ev::Event| {
        let typed = event_target_value(&ev);
        match crate::float::typed(&typed)
            .parse::<u32>()
            .ok()
            .filter(|n| (min..=max).contains(n))
        {
            Some(n) => {
                bad.set(None);
                value.set(n);
            }
            None => bad.set(Some(typed)),
        }
    };
    view! {
        <label class="field small">
            <span class="field-label">{move || label(app.words())}</span>
            <input
                type="number"
                inputmode="numeric"
                min=min
                max=max
                data-testid=testid
                class:invalid=move || bad.with(Option::is_some)
                aria-invalid=move || bad.with(Option::is_some).then_some("true")
                prop:value=move || value.get().to_string()
                on:input=read
                on:change=read
            />
        </label>
    }
}

/// Start the worker on the model; its replies drive `phase`.
fn spawn(
    model: PaxosModel,
    phase: RwSignal<Phase>,
    search: StoredValue<Option<Search>, LocalStorage>,
    found: StoredValue<Option<(Invariant, String)>>,
    generation: StoredValue<u64>,
    id: u64,
) -> Result<Search, String> {
    let opts = web_sys::WorkerOptions::new();
    opts.set_type(web_sys::WorkerType::Module);
    let worker =
        web_sys::Worker::new_with_options(WORKER_URL, &opts).map_err(|e| format!("{e:?}"))?;
    let total = sizes::known(&model);
    // Free the worker (and its states) once the search is over — after the
    // handler that says so returns, since dropping the search drops it.
    let free = move || {
        super::browser::soon(move || {
            if generation.get_value() == id {
                search.set_value(None);
            }
        })
    };
    let on_message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
            if generation.get_value() != id {
                return; // cancelled, or replaced by a new search
            }
            let text = ev.data().as_string().unwrap_or_default();
            let (secs, reply) = match Posted::from_json(&text) {
                Ok(p) => (p.secs, p.reply),
                Err(why) => (0.0, Reply::Failed { message: why }),
            };
            let next = match reply {
                Reply::Progress {
                    states,
                    depth,
                    frontier,
                } => {
                    search.update_value(|s| {
                        if let Some(s) = s {
                            s.states = states;
                        }
                    });
                    let rate = states as f64 / secs.max(1e-3);
                    let fraction = total.map(|t| (states as f64 / t as f64).min(1.0));
                    let left_s = total.map(|t| (t.saturating_sub(states)) as f64 / rate.max(1.0));
                    phase.set(Phase::Running {
                        states,
                        depth,
                        waiting: frontier,
                        rate,
                        left_s,
                        fraction,
                    });
                    return;
                }
                Reply::Clean { states, truncated } => Phase::Clean {
                    states,
                    secs,
                    truncated,
                },
                Reply::Found {
                    invariant,
                    steps,
                    detail,
                    states,
                    also,
                    counterexample,
                } => {
                    found.set_value(Some((invariant, counterexample)));
                    Phase::Found {
                        invariant,
                        steps,
                        detail,
                        states,
                        also,
                    }
                }
                Reply::Failed { message } => Phase::Failed { why: message },
            };
            phase.set(next);
            free();
        });
    let on_error =
        Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(move |ev: web_sys::ErrorEvent| {
            if generation.get_value() != id {
                return;
            }
            let why = match ev.message() {
                m if m.is_empty() => format!("{WORKER_URL} could not be loaded"),
                m => m,
            };
            phase.set(Phase::Failed { why });
            free();
        });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    let request = serde_json::to_string(&Request::of(&model)).expect("a request always serializes");
    worker
        .post_message(&request.into())
        .map_err(|e| format!("{e:?}"))?;
    Ok(Search {
        worker,
        _on_message: on_message,
        _on_error: on_error,
        states: 0,
    })
}

/// Load the shortest counterexample into the time machine, paused at the
/// moment the rule broke; the work on screen can be brought back.
fn open_counterexample(app: App, found: StoredValue<Option<(Invariant, String)>>) {
    let Some((invariant, text)) = found.get_value() else {
        return;
    };
    let mut scenario = match Scenario::from_json(&text) {
        Ok(s) => s,
        Err(e) => return app.toast.set(Some((e, true))),
    };
    let speak = app.lang.get_untracked().tell();
    scenario.name = speak.mc_scenario_name(speak.invariant(invariant));
    match super::model::Model::new(&scenario) {
        Ok(model) => {
            let at = model.broken.first().map(|b| b.1);
            app.replace(
                super::View::Parliament,
                model,
                Some(app.words().mc_opened.to_string()),
            );
            // One scripted step per millisecond: watch one per second.
            app.speed_log.set(-3.0);
            if let Some(t) = at {
                app.set_t(t);
            }
        }
        Err(e) => app.toast.set(Some((e, true))),
    }
}
