//! One lesson step: its words beside its stage — a live scenario opened at a
//! moment (watch, free play, or a question to answer before the run shows
//! the answer), a figure, the ballot explorer or the latency table.

use super::super::parts::{Part, PartView, Piece};
use super::super::{figures::FigureView, latency::LatencyTable, use_app};
use crate::scenario::builtin;
use crate::scenario::lessons::{Stage, LESSONS};
use leptos::prelude::*;

fn paragraphs(text: &'static str) -> impl IntoView {
    text.split("\n\n")
        .filter(|p| !p.trim().is_empty())
        .map(|p| view! { <p>{p.trim()}</p> })
        .collect_view()
}

/// The step last opened, while the run on screen is still the one it opened
/// (the same `rev`): a step drawn again without being left (its texts came
/// in another language, the lessons' tab chosen again) goes on where it was
/// — the run at its moment, a question's answer given — rather than opening
/// afresh.
#[derive(Clone, Copy, PartialEq)]
struct Opened {
    step: (usize, usize),
    rev: u64,
    /// The question's option chosen, and whether it was given.
    chosen: Option<u8>,
    locked: bool,
}

thread_local! {
    static OPENED: std::cell::Cell<Option<Opened>> = const { std::cell::Cell::new(None) };
}

/// The step's record if the run on screen is still the one it opened.
fn still_open(app: super::super::App, at: (usize, usize)) -> Option<Opened> {
    OPENED
        .get()
        .filter(|o| o.step == at && o.rev == app.rev.get_untracked())
}

#[component]
pub fn StepView(lesson: usize, step: usize) -> impl IntoView {
    let app = use_app();
    let stage = LESSONS[lesson].steps[step];
    let text = move || {
        app.lang
            .get()
            .lessons()
            .get(lesson)
            .and_then(|l| l.steps.get(step))
    };
    // Open the step's scenario at its moment (unless it is open: `Opened`).
    let open = still_open(app, (lesson, step)).is_none();
    if open {
        app.hold.set(None);
    }
    if let Some(name) = stage.scenario().filter(|_| open) {
        if let Some(mut s) = builtin::get(name) {
            if let Stage::Watch { mutation, .. } = stage {
                s.mutation = mutation;
            }
            app.playing.set(false);
            app.compare.set(
                matches!(stage, Stage::Compare { .. }).then_some(crate::scenario::Flip::Protocol),
            );
            if app.load(s, false).is_ok() {
                app.speed_log.set(
                    app.model
                        .with_value(|m| super::super::story_speed(m.kind(), m.end())),
                );
                let at = match stage {
                    Stage::Watch { at_us, .. }
                    | Stage::Try { at_us, .. }
                    | Stage::Compare { at_us, .. }
                    | Stage::Predict { at_us, .. } => at_us,
                    _ => 0,
                };
                app.set_t(at);
                if let Stage::Predict { at_us, .. } = stage {
                    app.hold.set(Some(at_us));
                }
                // A link to a later moment of this step (a QR code from the
                // teacher's screen), never past an open question.
                if let Some(t) = app.link_t.try_update_value(|v| v.take()).flatten() {
                    let cap = app
                        .hold
                        .get_untracked()
                        .unwrap_or(u64::MAX)
                        .min(app.end.get_untracked());
                    app.set_t(t.min(cap));
                }
            }
        }
    }
    if open {
        OPENED.set(Some(Opened {
            step: (lesson, step),
            rev: app.rev.get_untracked(),
            chosen: None,
            locked: false,
        }));
    }
    let is_paxos = move || {
        app.rev.get();
        app.model.with_value(|m| m.is_paxos())
    };
    let is_commit = move || {
        app.rev.get();
        app.model
            .with_value(|m| m.kind() == crate::protocol::Kind::Commit)
    };
    let is_multi = move || {
        app.rev.get();
        app.model
            .with_value(|m| m.kind() == crate::protocol::Kind::Multipaxos)
    };
    let try_stage = matches!(stage, Stage::Try { .. });
    let stage_view = match stage {
        Stage::Read { figure: Some(f) } => {
            let labels = app.lang.get_untracked().lessons().get(lesson).and_then(|l| l.steps.get(step)).map(|s| s.labels).unwrap_or_default();
            view! { <div class="step-stage">{move || {
                let labels = app.lang.get().lessons().get(lesson).and_then(|l| l.steps.get(step)).map(|s| s.labels).unwrap_or(labels);
                view! { <FigureView figure=f labels=labels /> }
            }}</div> }
            .into_any()
        }
        Stage::Read { figure: None } => ().into_any(),
        Stage::Ballots => view! { <div class="step-stage"><PartView part=Part::Ballots piece=Piece::Stage { controls: false } /></div> }.into_any(),
        Stage::Latency => view! { <div class="step-stage">{move || {
            let labels = app.lang.get().lessons().get(lesson).and_then(|l| l.steps.get(step)).map(|s| s.labels).unwrap_or_default();
            view! { <LatencyTable labels=labels /> }
        }}</div> }
        .into_any(),
        _ => view! {
            <div class="step-stage live">
                {move || if is_commit() {
                    view! { <PartView part=Part::Commit piece=Piece::Stage { controls: try_stage } /> }.into_any()
                } else if is_multi() {
                    view! { <PartView part=Part::Multi piece=Piece::Stage { controls: try_stage } /> }.into_any()
                } else if is_paxos() {
                    view! { <super::super::parliament::Parliament /> }.into_any()
                } else {
                    // The lanes, and beneath them the SQL of the store's and
                    // orders' steps — and, with an LLM in the run, the red flags.
                    view! { <PartView part=Part::Lease piece=Piece::Stage { controls: try_stage } /> }.into_any()
                }}
                {matches!(stage, Stage::Try { .. }).then(|| view! {
                    <div class="try-tools">
                        {move || if is_commit() || is_multi() {
                            ().into_any()
                        } else if is_paxos() {
                            view! { <super::super::inspector::Inspector /> }.into_any()
                        } else {
                            view! { <PartView part=Part::Lease piece=Piece::Tools /> }.into_any()
                        }}
                    </div>
                })}
            </div>
        }
        .into_any(),
    };
    view! {
        <div class="step" class:has-stage=!matches!(stage, Stage::Read { figure: None }) data-testid="step">
            <article class="step-text">
                <h3 data-testid="step-title" tabindex="-1">{move || text().map(|t| t.title).unwrap_or_default()}</h3>
                <div class="step-body">{move || text().map(|t| paragraphs(t.body))}</div>
                {move || {
                    let t = text()?;
                    (!t.watch.is_empty()).then(|| view! {
                        <aside class="watch" data-testid="watch">
                            <strong>{app.words().watch_label}</strong>
                            <p>{t.watch}</p>
                            {matches!(stage, Stage::Try { .. }).then(|| view! { <p class="small">{app.words().try_label}</p> })}
                        </aside>
                    })
                }}
                {if let Stage::Predict { reveal_us, answer, .. } = stage {
                    view! { <Predict lesson=lesson step=step reveal_us=reveal_us answer=answer /> }.into_any()
                } else {
                    ().into_any()
                }}
            </article>
            {stage_view}
        </div>
    }
}

/// How long (real µs) the run may take to reach a question's reveal once
/// the answer is in.
const REVEAL_REAL_US: f64 = 10e6;

#[component]
fn Predict(lesson: usize, step: usize, reveal_us: u64, answer: u8) -> impl IntoView {
    let app = use_app();
    // Drawn again without being left: the answer given stays.
    let kept = still_open(app, (lesson, step));
    let chosen = RwSignal::new(kept.and_then(|o| o.chosen));
    let locked = RwSignal::new(kept.is_some_and(|o| o.locked));
    Effect::new(move |_| {
        let (c, l) = (chosen.get(), locked.get());
        if let Some(o) = still_open(app, (lesson, step)) {
            OPENED.set(Some(Opened {
                chosen: c,
                locked: l,
                ..o
            }));
        }
    });
    let text = move || {
        app.lang
            .get()
            .lessons()
            .get(lesson)
            .and_then(|l| l.steps.get(step))
    };
    // A run that ends before `reveal_us` reveals at its end (the lesson
    // test keeps every reveal inside its run; this keeps the page safe).
    let revealed = move || locked.get() && app.t.get() >= reveal_us.min(app.end.get());
    // The answer, once the run has shown it, scrolled into sight: it comes
    // below the question, past the bottom of a short window's text (and a
    // step drawn again in another language starts at the top).
    let explain: NodeRef<leptos::html::Div> = NodeRef::new();
    Effect::new(move |_| {
        if let Some(el) = explain.get() {
            super::super::browser::into_sight(el.into());
        }
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if chosen.get_untracked().is_none() || locked.get_untracked() {
            return;
        }
        locked.set(true);
        // The answer is in: let the run go on and show what happens.
        app.hold.set(None);
        let (t, end) = (app.t.get_untracked(), app.end.get_untracked());
        if end > t {
            // The reveal plays in at most about ten seconds: a duel that
            // lasts six simulated seconds would take a minute at a tenth.
            let need = ((reveal_us.min(end) - t) as f64 / REVEAL_REAL_US).log10();
            app.speed_log.update(|s| *s = s.max(need));
            app.playing.set(true);
        }
    };
    view! {
        <form class="predict" data-testid="predict" on:submit=submit>
            <p class="question" data-testid="question">{move || text().map(|t| t.question)}</p>
            {move || {
                let options = text().map(|t| t.options).unwrap_or_default();
                options
                    .iter()
                    .enumerate()
                    .map(|(i, o)| {
                        let i = i as u8;
                        view! {
                            <label class="option" class:right=move || revealed() && i == answer class:wrong=move || revealed() && chosen.get() == Some(i) && i != answer>
                                <input type="radio" name="predict" data-testid=format!("option-{i}") prop:disabled=move || locked.get()
                                    prop:checked=move || chosen.get() == Some(i) on:change=move |_| chosen.set(Some(i)) />
                                <span>{*o}</span>
                            </label>
                        }
                    })
                    .collect_view()
            }}
            <button class="btn primary" type="submit" data-testid="answer" prop:disabled=move || chosen.get().is_none() || locked.get()>
                {move || app.words().reveal}
            </button>
            <Show when=revealed>
                <div class="explain" data-testid="explanation" node_ref=explain>
                    <strong>{move || if chosen.get() == Some(answer) { app.words().answer_right } else { app.words().answer_wrong }}</strong>
                    {move || text().map(|t| paragraphs(t.explain))}
                </div>
            </Show>
            <Show when=move || locked.get() && !revealed()>
                <p class="small hint" data-testid="reveal-wait">{move || app.words().reveal_wait}</p>
            </Show>
        </form>
    }
}
