//! Traces in and out: export (trace, scenario, views as SVG/PNG, ShiViz,
//! Mermaid), import by file picker or drag-and-drop with verified replay,
//! share links, and the autosave that brings the work back after a reload.
//!
//! Bad input never touches the current work: every failure is a message
//! saying what is wrong, and a successful import keeps the previous work
//! one click away.

use super::exports::Export;
use super::{browser, model::Model, use_app, App, View};
use crate::scenario::{builtin, Scenario};
use crate::trace::{decode, import, share};
use leptos::prelude::*;

const AUTOSAVE: &str = "paxos-island:v1:work";

/// What reads saved work, share links and files: a part of the page of its
/// own (`parts::readers`), fetched at start-up when there is saved work or a
/// share link to read, else when a file or a link first comes.
#[derive(Clone, Copy)]
pub struct Readers {
    pub saved: fn(&str) -> Option<Scenario>,
    /// A share link's scenario, or what is wrong with the link in the
    /// language given (the messages come with the readers).
    pub share: fn(&str, crate::i18n::Lang) -> Result<Scenario, String>,
    pub import: fn(App, &str),
    /// Say why a file cannot be opened before it is read (too big, not
    /// readable): the words are the readers' (`Lang::tell`, whose table
    /// the first load must not hold).
    pub refuse: fn(App, import::ImportError),
    /// Is the saved work this scenario? (The comparison of two scenarios
    /// comes with the readers: only saved work, which they read, is compared.)
    pub same: fn(&Scenario, &Scenario) -> bool,
}

pub const READERS: Readers = Readers {
    saved: |text| import::scenario_from_text(text).ok(),
    share: |link, lang| share::decode(link).map_err(|e| lang.tell().share_error(&e)),
    import: import_text,
    refuse: |app, e| {
        let message = app.lang.get_untracked().tell().import_error(&e);
        app.toast.set(Some((message, true)));
    },
    same: |a, b| a == b,
};

/// Must the readers come before the page is drawn (saved work, or a share
/// link in the address)?
pub fn readers_needed_at_start() -> bool {
    let hash = browser::hash();
    browser::local_get(AUTOSAVE).is_some()
        || share::looks_like_link(&hash)
        // A built-in run of another protocol than Paxos: the readers' part
        // brings its builders too.
        || run_link_waits(&hash)
}

/// What to open at start-up: a share link in the URL, else the autosaved
/// work, else the calm run. Returns the scenario, a message for the user,
/// and the autosaved scenario when a link took its place. (`start` has
/// fetched the readers if there is anything for them to read.)
pub fn initial(lang: crate::i18n::Lang) -> (Scenario, Option<(String, bool)>, Option<Scenario>) {
    let readers = super::parts::readers();
    let saved = browser::local_get(AUTOSAVE).and_then(|t| readers.and_then(|r| (r.saved)(&t)));
    let calm = || builtin::get("calm").expect("built in");
    // Saved work a link replaces is kept aside, unless it is the link's run.
    let differs = |old: &Scenario, s: &Scenario| !readers.is_some_and(|r| (r.same)(old, s));
    let hash = browser::hash();
    if let Some(run) = run_link(&hash) {
        return match run {
            Ok(s) => {
                let kept = saved.filter(|old| differs(old, &s));
                (s, bad_time(&hash, lang), kept)
            }
            Err(bad) => (
                saved.unwrap_or_else(calm),
                Some((lang.speak().bad_run_link(&bad), true)),
                None,
            ),
        };
    }
    if share::looks_like_link(&hash) {
        let read = readers.map_or_else(
            || Err(lang.words().readers_unavailable.to_string()),
            |r| (r.share)(&hash, lang),
        );
        return match read {
            Ok(s) => {
                let kept = saved.filter(|old| differs(old, &s));
                (s, bad_time(&hash, lang), kept)
            }
            Err(message) => (saved.unwrap_or_else(calm), Some((message, true)), None),
        };
    }
    // Anything else after `#` (but a lesson link) is said, not ignored.
    let odd = match super::lessons::read_link(&hash) {
        Some(Ok(_)) => bad_time(&hash, lang),
        Some(Err(bad)) => Some((lang.speak().bad_run_link(&bad), true)),
        None if is_ballots_link(&hash) => None,
        None => (!hash.trim().is_empty()).then(|| (lang.speak().unknown_link(&hash), true)),
    };
    match saved {
        Some(s) => (s, odd, None),
        None => (calm(), odd, None),
    }
}

/// How a link's fragment to a ballot table starts (the Ballots tab reads
/// it, `ui::ballots`).
pub const BALLOTS_LINK: &str = "ballots=";

/// A link's fragment to a ballot table?
pub fn is_ballots_link(fragment: &str) -> bool {
    fragment.starts_with(BALLOTS_LINK)
}

/// A link's `t=` that is not a time in µs, said (the link opens at 0).
pub fn bad_time(fragment: &str, lang: crate::i18n::Lang) -> Option<(String, bool)> {
    link_field(fragment, "t")
        .filter(|v| v.parse::<u64>().is_err())
        .map(|v| {
            (
                lang.speak()
                    .bad_run_link(&crate::i18n::BadRun::Time(decoded(v))),
                true,
            )
        })
}

/// `t=<µs>` in a link's fragment: the moment the link shows.
pub fn link_time(fragment: &str) -> Option<u64> {
    link_field(fragment, "t").and_then(|v| v.parse().ok())
}

/// `run=<built-in>&seed=<n>[&m=<mutation>]`: a built-in run as it comes, the
/// short form of a share link (a QR code of it stays coarse enough for a
/// phone at the back of a room). `None`: not this kind of link; `Err`: a
/// name, seed or mutation that does not exist.
pub fn run_link(fragment: &str) -> Option<Result<Scenario, crate::i18n::BadRun>> {
    use crate::i18n::BadRun;
    let name = link_field(fragment, "run")?;
    let seed = link_field(fragment, "seed");
    let mutation = link_field(fragment, "m");
    Some((|| {
        let mut s = builtin::get(name).ok_or_else(|| BadRun::Name(decoded(name)))?;
        if let Some(seed) = seed {
            s.seed = seed.parse().map_err(|_| BadRun::Seed(decoded(seed)))?;
        }
        if let Some(m) = mutation {
            let found = crate::check::Mutation::parse(m);
            s.mutation = Some(found.ok_or_else(|| BadRun::Mutation(decoded(m)))?);
        }
        Ok(s)
    })())
}

/// A link's value as the user would read it (`%20` as a space).
pub fn decoded(v: &str) -> String {
    js_sys::decode_uri_component(v)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| v.to_string())
}

/// The first value of `key` in a link's fragment (`#k=v&k2=v2`).
pub fn link_field<'a>(fragment: &'a str, key: &str) -> Option<&'a str> {
    fragment
        .trim_start_matches('#')
        .split('&')
        .filter_map(|p| p.split_once('='))
        .find_map(|(k, v)| (k == key).then_some(v))
}

/// Is `fragment` a short link (`run=`), whether or not its run can be built?
pub fn is_run_link(fragment: &str) -> bool {
    link_field(fragment, "run").is_some()
}

/// Is `fragment` a built-in run of a protocol whose part (builders and
/// built-ins) is not here yet? (Known from the names alone.)
pub fn run_link_waits(fragment: &str) -> bool {
    link_field(fragment, "run")
        .and_then(builtin::kind_of)
        .is_some_and(|kind| !crate::scenario::buildable_now(kind))
}

/// The link to the exact moment on screen: the lesson step, or the run (in
/// its short form when it is a built-in one, else as a share link), and the
/// time.
pub fn moment_link(app: App) -> String {
    let base = page_base();
    let t = app.t.get_untracked();
    if let Some(l) = app.lesson.get_untracked() {
        let id = crate::scenario::lessons::LESSONS[l].id;
        return format!(
            "{base}#lesson={id}&step={}&t={t}",
            app.step.get_untracked() + 1
        );
    }
    let short = app.model.with_value(|m| {
        let s = m.scenario();
        m.as_built_in().then(|| {
            let m = s
                .mutation
                .map(|m| format!("&m={}", m.as_str()))
                .unwrap_or_default();
            format!("{base}#run={}&seed={}{m}&t={t}", s.name, s.seed)
        })
    });
    short.unwrap_or_else(|| format!("{}&t={t}", share_link(app)))
}

/// Autosave the work whenever it changes (and once when drawn). Drawn by
/// the part that comes after the first paint (`ui::later`), so the
/// scenario's serializer is not in the first load: the work on screen at
/// start-up is the saved work or a link's, so nothing is lost meanwhile.
#[component]
pub fn Autosave() -> impl IntoView {
    let app = use_app();
    Effect::new(move |_| {
        app.rev.get();
        autosave(app);
    });
}

/// Save the work on screen (unless it is recorded events only).
fn autosave(app: App) {
    // A lesson's scenario is not the user's work (that is kept aside meanwhile).
    if app.before_lessons.with_value(|b| b.is_some()) {
        return;
    }
    let json = app
        .model
        .with_value(|m| (!m.recorded_only).then(|| m.scenario().to_json_compact()));
    if let Some(j) = json {
        let _ = browser::local_set(AUTOSAVE, &j);
    }
}

/// The exported files' name: the scenario and its seed.
pub fn stem(app: App) -> String {
    app.model.with_value(|m| {
        let s = m.scenario();
        let clean: String = s
            .name
            .chars()
            .map(|c| {
                if c.is_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        format!("{clean}-seed{}", s.seed)
    })
}

/// Fold the file menu away (after one of its actions).
fn close_menu() {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("[data-testid=file-menu]").ok().flatten())
    {
        let _ = el.remove_attribute("open");
    }
}

/// Export `what`: the writers are a part of the page, fetched the first time.
fn export(app: App, what: Export) {
    close_menu();
    super::parts::export(app, what);
}

/// Open a file's text: a trace (verified, or shown as recorded) or a
/// scenario — once the readers are here.
pub fn import(app: App, text: String) {
    super::parts::with_readers(app, move |r| (r.import)(app, &text));
}

fn import_text(app: App, text: &str) {
    let speak = app.lang.get_untracked().tell();
    let parsed = match import::parse(text) {
        Ok(p) => p,
        // A bare scenario (not in an envelope) is welcome too.
        Err(e) => match import::scenario_from_text(text) {
            Ok(s) => return open_scenario(app, s, app.words().scenario_loaded.to_string()),
            Err(_) => {
                app.toast.set(Some((speak.import_error(&e), true)));
                return;
            }
        },
    };
    if parsed.events.is_empty() {
        if let Some(s) = parsed.scenario {
            return open_scenario(app, s, app.words().scenario_loaded.to_string());
        }
    }
    let n = parsed.events.len();
    if let Some(on) = &parsed.recorded_on {
        // A live run on a real server: nothing to replay, show what it recorded.
        return open_recorded_on(
            app,
            parsed.scenario.clone(),
            &parsed.events,
            speak.import_status(3, n, on),
            on.clone(),
        );
    }
    if let Some(s) = &parsed.scenario {
        match import::verify(s, &parsed.events) {
            import::Verdict::Identical { hash } => {
                return open_scenario(app, s.clone(), speak.import_status(0, n, &hash));
            }
            import::Verdict::Differs { at, .. } => {
                return open_recorded(
                    app,
                    Some(s.clone()),
                    &parsed.events,
                    speak.import_status(1, at, ""),
                );
            }
        }
    }
    let why = parsed.scenario_problem.unwrap_or_default();
    open_recorded(app, None, &parsed.events, speak.import_status(2, 0, &why));
}

fn open_scenario(app: App, s: Scenario, status: String) {
    match Model::new(&s) {
        Ok(m) => {
            app.replace(View::of(m.kind()), m, Some(status));
            app.story_pace();
        }
        Err(e) => app.toast.set(Some((e, true))),
    }
}

fn open_recorded(app: App, s: Option<Scenario>, events: &[serde_json::Value], status: String) {
    open_recorded_on(app, s, events, status, String::new())
}

fn open_recorded_on(
    app: App,
    s: Option<Scenario>,
    events: &[serde_json::Value],
    status: String,
    on: String,
) {
    let mut names = decode::Names(s.as_ref().map(|s| s.node_names()).unwrap_or_default());
    let trace = decode::events(&mut names, events);
    match Model::recorded(s, names.0, trace) {
        Ok(mut m) => {
            m.recorded_on = (!on.is_empty()).then_some(on);
            app.replace(View::of(m.kind()), m, Some(status));
        }
        Err(e) => app.toast.set(Some((e, true))),
    }
}

/// Open a share link in the running page (pasted into the address bar), at
/// the link's moment `t` if it has one — once the readers are here.
pub fn open_link(app: App, fragment: String, t: Option<u64>) {
    super::parts::with_readers(app, move |r| {
        match (r.share)(&fragment, app.lang.get_untracked()) {
            Ok(s) => {
                open_scenario(app, s, app.words().scenario_loaded.to_string());
                if let Some(t) = t {
                    app.set_t(t.min(app.end.get_untracked()));
                }
            }
            Err(message) => app.toast.set(Some((message, true))),
        }
    });
}

/// Read a user's file, refusing an oversized one before reading it.
pub fn import_file(app: App, file: web_sys::File) {
    let size = file.size() as usize;
    if size > import::MAX_BYTES {
        return refuse(app, import::ImportError::TooBig(size));
    }
    leptos::task::spawn_local(async move {
        match wasm_bindgen_futures::JsFuture::from(file.text())
            .await
            .ok()
            .and_then(|v| v.as_string())
        {
            Some(text) => import(app, text),
            None => refuse(app, import::ImportError::Empty),
        }
    });
}

/// Say why a file cannot be opened, in the readers' words (`Readers::refuse`).
fn refuse(app: App, e: import::ImportError) {
    super::parts::with_readers(app, move |r| (r.refuse)(app, e));
}

/// The page's address without its fragment: what every link starts with.
pub fn page_base() -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .map(|h| h.split('#').next().unwrap_or_default().to_string())
        .unwrap_or_default()
}

/// The share link of the scenario on screen.
pub fn share_link(app: App) -> String {
    let code = app.model.with_value(|m| share::encode(m.scenario()));
    let base = page_base();
    format!("{base}#s={code}")
}

#[component]
pub fn FileMenu() -> impl IntoView {
    let app = use_app();
    let from = RwSignal::new(String::from("0"));
    let to = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let picker: NodeRef<leptos::html::Input> = NodeRef::new();
    let w = move || app.words();
    let export_mermaid = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let sp = app.lang.get_untracked().speak();
        let end = app.end.get_untracked();
        let parse = |t: &str, default: u64| -> Result<u64, String> {
            if t.trim().is_empty() {
                return Ok(default);
            }
            crate::sim::time::seconds_as_us(t).ok_or_else(|| sp.bad_duration(t))
        };
        match (
            parse(&from.get_untracked(), 0),
            parse(&to.get_untracked(), end),
        ) {
            (Ok(a), Ok(b)) if a < b => {
                error.set(None);
                export(app, Export::Mermaid { from: a, to: b });
            }
            (Err(e), _) | (_, Err(e)) => error.set(Some(e)),
            // Both times, the end not after the start (it said "“1” is not
            // a duration" of a window from 3 to 1).
            _ => error.set(Some(w().window_backwards.to_string())),
        }
    };
    view! {
        // On Ballots there is no run: only the table's view and its link.
        <details class="menu" class:table=move || app.view.get() == View::Ballots data-testid="file-menu" on:keydown=|e: web_sys::KeyboardEvent| if e.key() == "Escape" { close_menu() }>
            <summary class="btn">{move || w().file_menu}</summary>
            // A disclosure of buttons and a small form, not an ARIA menu: a
            // menu may hold only menu items, and arrow keys would be owed.
            <div class="menu-items">
                <button class="item" data-testid="import" on:click=move |_| {
                    close_menu();
                    if let Some(p) = picker.get() {
                        p.click();
                    }
                }>{move || w().import_file}</button>
                <input
                    node_ref=picker
                    type="file"
                    accept=".json,application/json"
                    class="sr-only"
                    tabindex="-1"
                    aria-label=move || w().import_file
                    data-testid="import-input"
                    on:change=move |ev| {
                        use wasm_bindgen::JsCast;
                        let input: web_sys::HtmlInputElement = ev.target().expect("an input").unchecked_into();
                        if let Some(f) = input.files().and_then(|l| l.get(0)) {
                            import_file(app, f);
                        }
                        input.set_value("");
                    }
                />
                <button class="item run" data-testid="export-trace" on:click=move |_| export(app, Export::Trace)>{move || w().export_trace}</button>
                <button class="item run" data-testid="export-scenario" on:click=move |_| export(app, Export::Scenario)>{move || w().export_scenario}</button>
                <button class="item" data-testid="share" on:click=move |_| export(app, Export::Link)>{move || w().copy_link}</button>
                <hr />
                <button class="item" data-testid="export-view-svg" on:click=move |_| export(app, Export::ViewSvg)>{move || w().export_view_svg}</button>
                <button class="item" data-testid="export-view-png" on:click=move |_| export(app, Export::ViewPng)>{move || w().export_view_png}</button>
                <button class="item run" data-testid="export-shiviz" on:click=move |_| export(app, Export::Shiviz)>{move || w().export_shiviz}</button>
                <form class="item-form run" on:submit=export_mermaid>
                    <span>{move || w().export_mermaid}</span>
                    <label>{move || w().window_from} " "
                        <input size="5" data-testid="mermaid-from" prop:value=move || from.get() on:input=move |ev| from.set(event_target_value(&ev)) />
                    </label>
                    <label>{move || w().window_to} " "
                        <input size="5" data-testid="mermaid-to" prop:value=move || to.get() on:input=move |ev| to.set(event_target_value(&ev)) />
                    </label>
                    <button class="btn" type="submit" data-testid="export-mermaid">"↓"</button>
                    <span class="field-error" role="alert">{move || error.get()}</span>
                </form>
            </div>
        </details>
    }
}

/// The share dialog: the link, a copy button, and what the link promises.
#[component]
pub fn ShareDialog() -> impl IntoView {
    let app = use_app();
    let note = RwSignal::new(None::<String>);
    let copy = move |_| {
        let Some(link) = app.share.get_untracked() else {
            return;
        };
        let Some(clip) = web_sys::window().map(|w| w.navigator().clipboard()) else {
            return;
        };
        leptos::task::spawn_local(async move {
            let done = wasm_bindgen_futures::JsFuture::from(clip.write_text(&link))
                .await
                .is_ok();
            note.set(Some(
                if done {
                    app.words().copied
                } else {
                    app.words().copy_failed
                }
                .to_string(),
            ));
        });
    };
    // A modal dialog takes the focus when it opens (on the link, selected,
    // ready to copy), so that Escape and Tab act inside it.
    let field = NodeRef::<leptos::html::Input>::new();
    Effect::new(move |_| {
        if app.share.get().is_some() {
            if let Some(i) = field.get() {
                let _ = i.focus();
            }
        }
    });
    move || {
        app.share.get().map(|link| {
            // A lesson's step (its "Link to this step"), a ballot table, or a scenario.
            let w = app.words();
            let (title, hint) = if link.contains("#lesson=") {
                (w.link_to_step, w.share_step_hint)
            } else if link.split_once('#').is_some_and(|(_, f)| is_ballots_link(f)) {
                (w.share_ballots_title, w.share_ballots_hint)
            } else {
                (w.share_title, w.share_hint)
            };
            view! {
                <div class="dialog-backdrop" on:click=move |_| app.share.set(None)>
                    <div class="dialog share" role="dialog" aria-modal="true" aria-labelledby="share-title" data-testid="share-dialog" on:click=|e| e.stop_propagation()
                        on:keydown=move |e: web_sys::KeyboardEvent| if e.key() == "Escape" { app.share.set(None) }>
                        <h2 id="share-title">{title}</h2>
                        <p class="hint">{hint}</p>
                        <input node_ref=field class="link" readonly data-testid="share-link" aria-labelledby="share-title" prop:value=link.clone() on:focus=move |ev| {
                            use wasm_bindgen::JsCast;
                            let i: web_sys::HtmlInputElement = ev.target().expect("an input").unchecked_into();
                            i.select();
                        } />
                        <div class="actions">
                            <button class="btn primary" data-testid="copy-link" on:click=copy>{app.words().copy}</button>
                            <button class="btn" on:click=move |_| app.share.set(None)>{app.words().close}</button>
                            <span role="status">{move || note.get()}</span>
                        </div>
                    </div>
                </div>
            }
        })
    }
}

/// What is on screen, when it is not simply a built-in run; and the way back.
#[component]
pub fn StatusBar() -> impl IntoView {
    let app = use_app();
    let has_previous = move || {
        app.rev.get();
        app.previous.with_value(|p| p.is_some())
    };
    view! {
        <Show when=move || app.status.get().is_some() || has_previous()>
            <div class="status-bar" role="status" data-testid="import-status">
                <span>{move || app.status.get()}</span>
                <Show when=has_previous>
                    <button class="btn" data-testid="restore-previous" on:click=move |_| app.restore_previous()>
                        {move || {
                            app.rev.get();
                            let undo = app.previous.with_value(|p| p.as_ref().is_some_and(|p| p.undo));
                            let w = app.words();
                            if undo { w.reopen } else { w.restore_previous }
                        }}
                    </button>
                </Show>
                <button class="btn icon" aria-label=move || app.words().close on:click=move |_| {
                    app.status.set(None);
                    app.previous.set_value(None);
                    app.rev.update(|r| *r += 1);
                }>"×"</button>
            </div>
        </Show>
    }
}
