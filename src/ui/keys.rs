//! Keyboard: Space plays and pauses, ←/→ step, Shift+←/→ jump between
//! milestones, +/− change speed, Home/End, P presents, ? opens help.
//! Keys typed into a form field are left alone.

use super::transport::MIN_SPEED_LOG;
use super::{use_app, App};
use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Whether `el` is the run's scrubber.
fn scrubber(el: &web_sys::Element) -> bool {
    el.class_list().contains("scrub")
}

/// Should the focused element keep this key for itself? Text fields keep
/// every key; buttons, checkboxes and radios keep Space, Enter and arrows
/// (they have native meanings there), but for Space after a click; the
/// speed's slider keeps all but Space and Enter, the scrubber none;
/// elsewhere the shortcuts apply.
fn native_owns(e: &web_sys::KeyboardEvent) -> bool {
    let Some(el) = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return false;
    };
    if el.has_attribute("contenteditable") {
        return true;
    }
    let kind = el
        .get_attribute("type")
        .unwrap_or_default()
        .to_ascii_lowercase();
    let key = e.key();
    let press = matches!(key.as_str(), " " | "Enter");
    let arrow = key.starts_with("Arrow");
    match el.tag_name().as_str() {
        "TEXTAREA" | "SELECT" => true,
        // The scrubber takes the page's keys: its own arrows moved the run by
        // a microsecond of a run of seconds, and Space after a drag did
        // nothing. The speed's slider keeps its arrows and lets Space play.
        "INPUT" if kind == "range" => !scrubber(&el) && !press,
        "INPUT" if kind == "radio" => press || arrow,
        "INPUT" if matches!(kind.as_str(), "checkbox" | "button" | "submit") => {
            press && !clicked_then_space(&key)
        }
        "INPUT" => true,
        "BUTTON" | "A" | "SUMMARY" => press && !clicked_then_space(&key),
        _ => false,
    }
}

thread_local! {
    /// Did the focus come with the pointer (a click), not with Tab?
    static CLICKED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Space on a button the pointer last clicked plays or pauses, as the page
/// says it does: the button kept the focus of the click, and Space pressed
/// it again (a second stall injected, the tab chosen again) while the run
/// stood still. A button reached with Tab keeps Space, as buttons do.
/// (`:focus-visible` cannot tell: a key pressed makes the focus visible
/// before the key's own event.)
fn clicked_then_space(key: &str) -> bool {
    key == " " && CLICKED.get()
}

pub fn step(app: App, forward: bool, milestone: bool) {
    app.playing.set(false);
    let t = app.t.get_untracked();
    let next = app.model.with_value(|m| match (forward, milestone) {
        (true, false) => m.next_time(t),
        (false, false) => m.prev_time(t),
        (true, true) => m.next_milestone(t),
        (false, true) => m.prev_milestone(t),
    });
    match next {
        Some(n) => app.set_t(n),
        None if !forward => app.set_t(0),
        None => app.set_t(app.end.get_untracked()),
    }
}

pub fn toggle_play(app: App) {
    if !app.playing.get_untracked() && app.t.get_untracked() >= app.end.get_untracked() {
        app.set_t(0);
    }
    app.playing.update(|p| *p = !*p);
}

/// Presentation: full screen, large type, chrome hidden.
pub fn toggle_presenter(app: App) {
    let on = !app.presenter.get_untracked();
    app.presenter.set(on);
    if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
        if on {
            if let Some(el) = doc.document_element() {
                full_screen(el);
            }
        } else if doc.fullscreen_element().is_some() {
            doc.exit_fullscreen();
        }
    }
}

/// Ask for full screen. The browser may refuse (the page is not in front,
/// a policy, a frame): its promise's refusal is taken here — an unanswered
/// one would reach the page's crash screen — and presenter mode goes on in
/// the window.
fn full_screen(el: web_sys::Element) {
    let ask = js_sys::Reflect::get(&el, &"requestFullscreen".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| f.call0(&el).ok())
        .and_then(|p| p.dyn_into::<js_sys::Promise>().ok());
    if let Some(p) = ask {
        leptos::task::spawn_local(async move {
            let _ = wasm_bindgen_futures::JsFuture::from(p).await;
        });
    }
}

/// Show or hide presenter mode's QR code; shown, the run pauses so the code
/// holds still while the room scans it.
pub fn toggle_qr(app: App) {
    let open = !app.qr_open.get_untracked();
    if open {
        app.playing.set(false);
    }
    app.qr_open.set(open);
}

pub fn nudge_speed(app: App, up: bool) {
    app.speed_log.update(|s| {
        *s = crate::float::clamp(*s + if up { 0.25 } else { -0.25 }, MIN_SPEED_LOG, 3.0)
    });
}

pub fn install(app: App) {
    let p = window_event_listener(ev::pointerdown, |_| CLICKED.set(true));
    on_cleanup(move || p.remove());
    let h = window_event_listener(ev::keydown, move |e: web_sys::KeyboardEvent| {
        if e.key() == "Tab" {
            CLICKED.set(false);
        }
        if native_owns(&e) || e.ctrl_key() || e.meta_key() || e.alt_key() {
            return;
        }
        // The share dialog is modal too: Space behind it played the run.
        if app.share.get_untracked().is_some() {
            if e.key() == "Escape" {
                app.share.set(None);
                e.prevent_default();
            }
            return;
        }
        // The help is modal: it keeps the focus (Tab stays on its Close
        // button) and the page behind it takes no keys until it closes.
        if app.help_open.get_untracked() {
            match e.key().as_str() {
                "Escape" | "?" => app.help_open.set(false),
                "Tab" => focus_help_close(),
                _ => return,
            }
            e.prevent_default();
            return;
        }
        // In an open lesson, the presenter's clicker keys move between steps:
        // PageDown/PageUp, and ← → (clickers send either). Shift + ← → still
        // jump between the run's milestones and `,` `.` step it, as the help
        // says; ↑ ↓ scroll the step's text. (On the scrubber the arrows move
        // the run, as they do beside it.)
        let on_scrubber = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|el| scrubber(&el));
        if app.view.get_untracked() == super::View::Lessons && app.lesson.get_untracked().is_some()
        {
            // The clicker's keys move steps wherever the focus is (on the
            // scrubber PageDown moved the run, backwards).
            let by = match e.key().as_str() {
                "PageDown" => Some(1),
                "PageUp" => Some(-1),
                "ArrowRight" if !e.shift_key() && !on_scrubber => Some(1),
                "ArrowLeft" if !e.shift_key() && !on_scrubber => Some(-1),
                _ => None,
            };
            if let Some(by) = by {
                e.prevent_default();
                super::lessons::go(app, by);
                return;
            }
        }
        let handled = match e.key().as_str() {
            "." => {
                step(app, true, false);
                true
            }
            "," => {
                step(app, false, false);
                true
            }
            " " | "k" => {
                toggle_play(app);
                true
            }
            "ArrowRight" => {
                step(app, true, e.shift_key());
                true
            }
            "ArrowLeft" => {
                step(app, false, e.shift_key());
                true
            }
            "+" | "=" => {
                nudge_speed(app, true);
                true
            }
            "-" | "_" => {
                nudge_speed(app, false);
                true
            }
            "Home" => {
                app.playing.set(false);
                app.set_t(0);
                true
            }
            "End" => {
                app.playing.set(false);
                app.set_t(app.end.get_untracked());
                true
            }
            "?" => {
                app.help_open.update(|h| *h = !*h);
                true
            }
            // Escape closes one thing, the innermost: the help, else the
            // selected seat, else presenter mode (a teacher closing the help
            // must not lose the projector layout).
            "Escape" => {
                if app.help_open.get_untracked() {
                    app.help_open.set(false);
                } else if app.share.get_untracked().is_some() {
                    app.share.set(None);
                } else if app.qr_open.get_untracked() {
                    app.qr_open.set(false);
                } else if app.selected.get_untracked().is_some() {
                    app.selected.set(None);
                } else {
                    app.presenter.set(false);
                }
                true
            }
            "p" | "P" => {
                toggle_presenter(app);
                true
            }
            "q" | "Q" if app.presenter.get_untracked() => {
                toggle_qr(app);
                true
            }
            _ => false,
        };
        if handled {
            e.prevent_default();
        }
    });
    on_cleanup(move || h.remove());
}

/// Put the focus on the help's Close button (its only control).
fn focus_help_close() {
    crate::ui::browser::focus("[data-testid=help-close]");
}

#[component]
pub fn Help() -> impl IntoView {
    let app = use_app();
    let rows = move || {
        let w = app.words();
        vec![
            (w.key_space, format!("{} / {}", w.play, w.pause)),
            (
                w.key_arrows,
                format!("{} / {}", w.step_back, w.step_forward),
            ),
            (
                w.key_shift_arrows,
                format!("{} / {}", w.jump_back, w.jump_forward),
            ),
            (w.key_plus_minus, format!("{} / {}", w.faster, w.slower)),
            (w.key_home_end, format!("{} / {}", w.to_start, w.to_end)),
            (w.key_present, w.present.to_string()),
            // Q answers only in presenter mode (where the QR button is).
            (w.key_qr, format!("{} ({})", w.qr_title, w.qr_key_when)),
            (
                w.key_page,
                format!("{} / {} ({})", w.back, w.next, w.view_lessons),
            ),
            (w.key_help, w.help.to_string()),
        ]
    };
    // Opened, the help takes the focus (after it is drawn).
    Effect::new(move |_| {
        if app.help_open.get() {
            super::browser::soon(focus_help_close);
        }
    });
    view! {
        <Show when=move || app.help_open.get()>
            <div class="dialog-backdrop" on:click=move |_| app.help_open.set(false)>
                <div
                    class="dialog"
                    role="dialog"
                    aria-modal="true"
                    aria-labelledby="help-title"
                    data-testid="help"
                    on:click=|e| e.stop_propagation()
                >
                    <h2 id="help-title">{move || app.words().help}</h2>
                    <table class="keys">
                        <tbody>
                            {move || {
                                rows()
                                    .into_iter()
                                    .map(|(k, what)| view! { <tr><th><kbd>{k}</kbd></th><td>{what}</td></tr> })
                                    .collect_view()
                            }}
                        </tbody>
                    </table>
                    <button class="btn" data-testid="help-close" on:click=move |_| app.help_open.set(false)>
                        {move || app.words().close}
                    </button>
                </div>
            </div>
        </Show>
    }
}
