//! The transport: play/pause, step, jump, speed (logarithmic, ×0.01 to
//! ×1000), the time, and the scrubber with markers for faults, decisions and
//! violations. Jumping anywhere restores a checkpoint and replays forward.

use super::keys::{step, toggle_play};
use super::model::Milestone;
use super::parts::{Later, Piece};
use super::use_app;
use crate::float::fixed;
use leptos::prelude::*;

/// The slowest speed: a thousandth of real time (a model checker's
/// counterexample moves one scripted step per simulated millisecond).
/// (The slider's `min` says it too.)
pub const MIN_SPEED_LOG: f64 = -3.0;

fn speed_label(log: f64) -> String {
    // The decimals follow the exponent (exact), not the power (10^-1
    // comes out a hair below 0.1).
    let places = if log < -2.0 {
        3
    } else if log < -1.0 {
        2
    } else if log < 1.0 {
        1
    } else {
        0
    };
    format!("×{}", fixed(super::pow10(log), places))
}

/// The clock's words, for the eye and for a screen reader: exact when paused,
/// stepped or sought, and while a run plays at most twenty times a second —
/// its last digits change faster than anyone reads them, and each change is
/// a string made in the module and decoded by the page, twice a frame.
///
/// The time it shows is kept by the frame (`App::on_frame`): the cursor's
/// signal wakes nothing while a run plays.
fn clock_words(app: super::App) -> Memo<String> {
    let last = StoredValue::new(f64::NEG_INFINITY);
    let shown = RwSignal::new(app.t.get_untracked());
    let show = move |t: u64, now: f64| {
        last.set_value(now);
        if shown.get_untracked() != t {
            shown.set(t);
        }
    };
    app.on_frame(move |t| {
        let now = super::perf::now();
        let p = shown.get_untracked();
        if !(app.playing.get_untracked() && t >= p && now - last.get_value() < 50.0) {
            show(t, now);
        }
    });
    // Paused (or playing again): the exact time at once.
    Effect::new(move |_| {
        app.playing.track();
        show(app.t.get_untracked(), super::perf::now());
    });
    Memo::new(move |_| app.lang.get().speak().time_label(shown.get()))
}

#[component]
pub fn Transport() -> impl IntoView {
    let app = use_app();
    let w = move || app.words();
    let clock = clock_words(app);
    // The clock's exact time (`data-us`) and the scrubber's thumb move with
    // every frame: written by the frame (`App::on_frame`), as numbers.
    let clock_el: NodeRef<leptos::html::Output> = NodeRef::new();
    let scrub_el: NodeRef<leptos::html::Input> = NodeRef::new();
    //
    // While a run plays they move once the cursor has gone a 500th of the run
    // further (about a pixel of the scrubber's track): the first write of an
    // input's value in a frame updates its style there and then (~75 µs on
    // this machine), which was a fifth of a playing frame's script. Paused,
    // stepped, scrubbed or at the end, they show the exact time.
    let written = StoredValue::new(u64::MAX);
    let at = move |t: u64| {
        let end = app.end.get_untracked();
        if app.playing.get_untracked() && t < end && t.abs_diff(written.get_value()) < end / 500 {
            return;
        }
        if let (Some(c), Some(s)) = (clock_el.get_untracked(), scrub_el.get_untracked()) {
            written.set_value(t);
            super::perf::cursor_at(&c, &s, t as f64, end as f64);
        }
    };
    // Their first state, a new run's, and the exact time when a run stops.
    // The frame's first write (`App::on_frame_first`).
    app.on_frame_first_and(at, move || {
        app.end.track();
        app.playing.track();
        written.set_value(u64::MAX);
        clock_el.get().is_some() && scrub_el.get().is_some()
    });
    let button = move |label: fn(&crate::i18n::Words) -> &'static str,
                       icon: &'static str,
                       id: &'static str,
                       f: fn(super::App)| {
        view! {
            <button class="btn transport-btn" aria-label=move || label(app.words()) title=move || label(app.words()) data-testid=id on:click=move |_| f(app)>
                {icon}
            </button>
        }
    };
    // At the end of the run, play starts it again, and says so.
    let at_end = app.frame_memo(move |t| t >= app.end.get());
    let play = move || match (app.playing.get(), at_end.get()) {
        (true, _) => ("❚❚", w().pause),
        (false, true) => ("↺", w().replay),
        (false, false) => ("▶", w().play),
    };
    let play_label = move || play().1;
    view! {
        <footer class="transport" data-testid="transport">
            <div class="controls">
                {button(|w| w.to_start, "|◀◀", "to-start", |a| { a.playing.set(false); a.set_t(0); })}
                {button(|w| w.step_back, "◀|", "step-back", |a| step(a, false, false))}
                <button
                    class="btn transport-btn play"
                    data-testid="play"
                    aria-label=play_label
                    title=play_label
                    on:click=move |_| toggle_play(app)
                >
                    {move || play().0}
                </button>
                {button(|w| w.step_forward, "▶|", "step-forward", |a| step(a, true, false))}
                {button(|w| w.to_end, "▶▶|", "to-end", |a| { a.playing.set(false); a.set_t(a.end.get_untracked()); })}
                <label class="speed">
                    <span>{move || w().speed}</span>
                    <input
                        type="range"
                        min="-3"
                        max="3"
                        step="0.05"
                        data-testid="speed"
                        aria-valuetext=move || speed_label(app.speed_log.get())
                        prop:value=move || fixed(app.speed_log.get(), 2).to_string()
                        on:input=move |ev| {
                            // The browser's number: no float parser in the first load.
                            let v = event_target::<web_sys::HtmlInputElement>(&ev).value_as_number();
                            if v.is_finite() {
                                app.speed_log.set(crate::float::clamp(v, MIN_SPEED_LOG, 3.0));
                            }
                        }
                    />
                    <output data-testid="speed-label">{move || speed_label(app.speed_log.get())}</output>
                </label>
                <label class="whole-run small" title=move || w().whole_run_hint>
                    <input type="checkbox" data-testid="whole-run" prop:checked=move || app.whole_run.get()
                        on:change=move |ev| app.set_whole_run(event_target_checked(&ev)) />
                    " " {move || w().whole_run}
                </label>
                <span class="hash small" data-testid="trace-hash" title=move || app.words().trace_hash>
                    // After the first paint, from its part: hashing encodes the whole trace.
                    <Later piece=Piece::Hash />
                </span>
                <output class="clock" data-testid="time" node_ref=clock_el>
                    {move || clock.get()}
                    " / "
                    {move || app.lang.get().speak().duration(app.end.get())}
                </output>
            </div>
            <Scrubber clock=clock scrub_el=scrub_el />
        </footer>
    }
}

#[component]
fn Scrubber(clock: Memo<String>, scrub_el: NodeRef<leptos::html::Input>) -> impl IntoView {
    let app = use_app();
    let markers = move || {
        app.rev.get();
        let end = app.end.get().max(1) as f64;
        // While a prediction question holds the run, what lies past it stays
        // hidden: a decision or violation mark would give the answer away.
        let cap = app.hold.get().unwrap_or(u64::MAX);
        app.model.with_value(|m| {
            m.milestones
                .iter()
                .filter(|(t, _)| *t <= cap)
                .map(|(t, k)| (*t as f64 / end * 1000.0, *k))
                .collect::<Vec<_>>()
        })
    };
    view! {
        <div class="scrubber">
            <svg class="markers" viewBox="0 0 1000 14" preserveAspectRatio="none" aria-hidden="true">
                {move || {
                    markers()
                        .into_iter()
                        .map(|(x, k)| {
                            let f = |x: f64| fixed(x, 1);
                            let (class, shape) = match k {
                                Milestone::Fault => ("fault", format!("M{} 1 L{} 13 L{} 13 Z", f(x), f(x - 5.0), f(x + 5.0))),
                                Milestone::Decision => ("decision", format!("M{} 1 L{} 7 L{} 13 L{} 7 Z", f(x), f(x + 5.0), f(x), f(x - 5.0))),
                                Milestone::Violation => ("violation", format!("M{} 2 L{} 12 M{} 2 L{} 12", f(x - 5.0), f(x + 5.0), f(x + 5.0), f(x - 5.0))),
                                Milestone::Lease => ("lease", format!("M{} 3 L{} 11", f(x), f(x))),
                            };
                            view! { <path class=format!("marker {class}") d=shape /> }
                        })
                        .collect_view()
                }}
            </svg>
            <input
                type="range"
                class="scrub"
                min="0"
                data-testid="scrubber"
                aria-label=move || app.words().scrubber
                aria-valuetext=move || clock.get()
                prop:max=move || app.end.get().to_string()
                step="1"
                node_ref=scrub_el
                on:input=move |ev| {
                    if let Ok(v) = event_target_value(&ev).parse::<u64>() {
                        app.playing.set(false);
                        app.set_t(v);
                    }
                }
            />
        </div>
    }
}
