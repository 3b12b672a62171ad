//! Parts of the page fetched when first shown (code splitting).
//!
//! The first load carries what the parliament needs; the other views — the
//! lease lab, commit, Multi-Paxos, ballots, the lessons, the model checker's
//! panel, the QR code, the File menu's export formats — each live in their
//! own WebAssembly chunk. `scripts/build-web.sh` cuts the linked module at the
//! functions marked `#[wasm_split]` below (wasm-split): everything only they
//! reach goes into their chunk, and calling them fetches it first. Each
//! returns its part's drawing function, which the page then calls like any
//! other, under the right reactive owner.
//!
//! A part is fetched the first time it is shown (or when the pointer or the
//! keyboard focus reaches its tab, or the checker's panel is opened);
//! meanwhile its place says "Loading the … view…". A chunk that cannot be
//! fetched says so with a "Try again" button; the run on screen is
//! untouched, and a later try starts afresh (a failed fetch is not
//! remembered). Without the `split` feature the split functions are plain
//! async calls (`split_point!` below).

use super::files::Readers;
use super::{use_app, App};
use leptos::prelude::*;
#[cfg(feature = "split")]
use leptos::wasm_split::wasm_split;
use leptos::wasm_split::SplitLoaderError;

/// A part of the page with its own chunk.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Part {
    Lease,
    Commit,
    Multi,
    Ballots,
    Lessons,
    /// The model checker's panel (its search runs in the worker's own module).
    Checker,
    /// Presenter mode's QR code of the moment.
    Qr,
    /// What the first frame does not need (`ui::later`): the side column, the
    /// space-time diagram, the closed dialogs and the run's trace hash with
    /// its encoder — fetched in the background once the page has painted.
    Later,
}

pub const PARTS: usize = 8;

/// Where a part is drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Piece {
    /// Its tab's stage.
    Main,
    /// Its panel in the side column (the lease lab's injections).
    Side,
    /// Its stage inside a lesson step (`controls` for a try-it step).
    Stage { controls: bool },
    /// The tools beneath a lesson's try-it stage.
    Tools,
    /// The side column: narration, invariants, inspector, the checker's panel.
    Column,
    /// The space-time diagram under the parliament.
    Diagram,
    /// The closed dialogs: help, the QR code, sharing.
    Dialogs,
    /// The run's trace hash in the transport.
    Hash,
    /// The bar over the stage after an import or a link: what is on
    /// screen, and the way back to the work it replaced.
    Status,
}

/// A part's drawing function: what to draw for a piece.
pub type Draw = fn(Piece) -> AnyView;

/// How far a part has come.
#[derive(Clone, Copy, Debug, Default)]
pub enum Status {
    #[default]
    Idle,
    Loading,
    Ready(Draw),
    Failed,
}

impl PartialEq for Status {
    fn eq(&self, other: &Self) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(other)
    }
}

pub type Parts = [Status; PARTS];

// The split points. All functions that name the same chunk go into it; what
// they return is reached only from here, so it (and all that only it uses)
// is cut out of the first load. Without the `split` feature (a module that
// is not cut, as the browser unit tests') they are plain async functions.
macro_rules! split_point {
    ($chunk:ident, $name:ident -> $ty:ty = $value:expr) => {
        #[cfg(feature = "split")]
        #[wasm_split($chunk, fallible, wasm_split_path = leptos::wasm_split)]
        fn $name() -> Result<$ty, SplitLoaderError> {
            Ok($value)
        }
        #[cfg(not(feature = "split"))]
        async fn $name() -> Result<$ty, SplitLoaderError> {
            Ok($value)
        }
    };
}

// The parts that show or build runs of the protocols other than Paxos
// install those protocols' builders (`scenario::install_builders`) as they
// arrive: the builders are then in a chunk these parts share, not in the
// first load.
split_point!(lease, lease_part -> Draw = with_builders(super::lease::draw));
split_point!(commit, commit_part -> Draw = with_builders(super::commit::draw));
split_point!(multi, multi_part -> Draw = with_builders(super::multipaxos::draw));
split_point!(ballots, ballots_part -> Draw = super::ballots::draw);
split_point!(lessons, lessons_part -> Draw = with_builders(super::lessons::draw));
split_point!(checker, checker_part -> Draw = with_builders(super::modelcheck::draw));
split_point!(builders, builders_part -> crate::scenario::Build = crate::scenario::install_builders());
split_point!(qr, qr_part -> Draw = super::qr::draw);
split_point!(later, later_part -> Draw = with_checks(super::later::draw));
split_point!(exports, exports_part -> fn(App, super::exports::Export) = super::exports::write);

// Each language's lesson texts, a part of their own (two thirds of what the
// lessons' chunk held): fetched with the lessons in the page's language, the
// other language's when it is chosen. Only these name the texts
// (`i18n::Lang::install_lessons`), so each goes into its own chunk.
split_point!(lessons_en, lessons_en_part -> &'static [crate::i18n::LessonText] = crate::i18n::en::lessons::LESSONS);
split_point!(lessons_ja, lessons_ja_part -> &'static [crate::i18n::LessonText] = crate::i18n::ja::lessons::LESSONS);

/// Fetches `lang`'s lesson texts unless they are here; false if they cannot
/// be fetched.
async fn load_lesson_texts(lang: crate::i18n::Lang) -> bool {
    use crate::i18n::Lang;
    if lang.lessons_here() {
        return true;
    }
    let got = match lang {
        Lang::En => lessons_en_part().await,
        Lang::Ja => lessons_ja_part().await,
    };
    match got {
        #[cfg(feature = "split")]
        Ok(texts) => {
            lang.install_lessons(texts);
            true
        }
        #[cfg(not(feature = "split"))]
        Ok(_) => true,
        Err(_) => false,
    }
}

// The readers of saved work, share links and files (serde's deserializers,
// the trace decoder): fetched at start-up only when there is something to
// read, else when a file or a link first comes.
split_point!(readers, readers_part -> Readers = with_builders(super::files::READERS));

/// `x`, once the other protocols' builders are installed (and with them
/// the scenario checks).
fn with_builders<T>(x: T) -> T {
    crate::scenario::install_builders();
    x
}

/// `x`, once every build checks its scenario (`scenario::install_checks`):
/// the side column's inspector injects what a user typed.
fn with_checks<T>(x: T) -> T {
    crate::scenario::install_checks();
    x
}

/// Fetches the other protocols' builders unless they are here; false if
/// they cannot be fetched.
pub async fn load_builders() -> bool {
    crate::scenario::builders_installed() || builders_part().await.is_ok()
}

/// A lab opens its first run unless one of its own is on screen: at once
/// if it can be built, else once its protocol's builders are here — unless
/// the user has left the tab by then. (If they cannot be fetched, the tab's
/// part cannot either, and its place says so with a retry; the part that
/// arrives on a retry asks again, so the lab never draws another's run.)
pub fn open_first_run(app: App, view: super::View) {
    use crate::protocol::Kind;
    let (kind, name) = match view {
        super::View::Parliament => (Kind::Paxos, "calm"),
        super::View::Lease => (Kind::Lease, "kleppmann"),
        super::View::Commit => (Kind::Commit, "commit-2pc"),
        super::View::Multi => (Kind::Multipaxos, "multi-calm"),
        super::View::Ballots | super::View::Lessons => return,
    };
    let wanted =
        move || app.view.get_untracked() == view && app.model.with_value(|m| m.kind()) != kind;
    if !wanted() {
        return;
    }
    if crate::scenario::buildable_now(kind) {
        return app.load_builtin(name);
    }
    leptos::task::spawn_local(async move {
        if load_builders().await && wanted() {
            app.load_builtin(name);
        }
    });
}

#[cfg(feature = "split")]
static READERS: std::sync::OnceLock<Readers> = std::sync::OnceLock::new();

/// The readers, if they are here.
pub fn readers() -> Option<Readers> {
    #[cfg(feature = "split")]
    return READERS.get().copied();
    #[cfg(not(feature = "split"))]
    Some(super::files::READERS)
}

/// Fetches the readers unless they are here.
pub async fn load_readers() -> Option<Readers> {
    if let Some(r) = readers() {
        return Some(r);
    }
    let r = readers_part().await.ok()?;
    #[cfg(feature = "split")]
    let _ = READERS.set(r);
    Some(r)
}

/// Runs `f` with the readers, fetching them first if need be; if they cannot
/// be fetched a toast says so and the work on screen is untouched.
pub fn with_readers(app: App, f: impl FnOnce(Readers) + 'static) {
    if let Some(r) = readers() {
        return f(r);
    }
    leptos::task::spawn_local(async move {
        match load_readers().await {
            Some(r) => f(r),
            None => app
                .toast
                .set(Some((app.words().readers_unavailable.to_string(), true))),
        }
    });
}

/// Exports from the File menu: the writers are fetched the first time (a
/// failure is a toast that says so; the work is untouched).
pub fn export(app: App, what: super::exports::Export) {
    leptos::task::spawn_local(async move {
        match exports_part().await {
            Ok(write) => write(app, what),
            Err(_) => app.toast.set(Some((
                app.lang.get_untracked().speak().export_unavailable(),
                true,
            ))),
        }
    });
}

/// The part's name, as the loading line says it.
fn name(app: App, part: Part) -> &'static str {
    let w = app.words();
    match part {
        Part::Lease => w.view_lease,
        Part::Commit => w.view_commit,
        Part::Multi => w.view_multi,
        Part::Ballots => w.view_ballots,
        Part::Lessons => w.view_lessons,
        Part::Checker => w.mc_title,
        Part::Qr => w.qr_title,
        Part::Later => w.view_side,
    }
}

/// Whether the part is here whole: the lessons' with the texts of the
/// page's language.
fn here(app: App, part: Part) -> bool {
    matches!(
        app.parts.with_untracked(|p| p[part as usize]),
        Status::Ready(_)
    ) && (part != Part::Lessons || app.lang.get_untracked().lessons_here())
}

/// Starts fetching a part unless it is here or on its way. (The lessons'
/// part is on its way again, showing its loading line, while the texts of a
/// newly chosen language come.)
pub fn fetch(app: App, part: Part) {
    let i = part as usize;
    if here(app, part) || matches!(app.parts.with_untracked(|p| p[i]), Status::Loading) {
        return;
    }
    app.parts.update(|p| p[i] = Status::Loading);
    leptos::task::spawn_local(async move {
        // The parts' stylesheet comes beside the chunk, both on their way at
        // once (polled together below: an `async fn` starts nothing until it
        // is; awaited after the chunk, the sheet was asked for only once the
        // chunk had come); a part is drawn with both here.
        let styled = parts_css();
        let chunk = async move {
            match part {
                Part::Lease => lease_part().await,
                Part::Commit => commit_part().await,
                Part::Multi => multi_part().await,
                Part::Ballots => ballots_part().await,
                Part::Lessons => lessons_part().await,
                Part::Checker => checker_part().await,
                Part::Qr => qr_part().await,
                Part::Later => later_part().await,
            }
        };
        // The lessons' texts in the page's language come beside their chunk.
        let texts = async move {
            part != Part::Lessons || load_lesson_texts(app.lang.get_untracked()).await
        };
        let (got, styled, texts) = futures::future::join3(chunk, styled, texts).await;
        let got = match (got, styled, texts) {
            (Ok(draw), true, true) => Status::Ready(draw),
            _ => Status::Failed,
        };
        let ready = matches!(got, Status::Ready(_));
        app.parts.update(|p| p[i] = got);
        // The language changed while its texts came: the other's now.
        if ready && !here(app, part) {
            return fetch(app, part);
        }
        // The part of the view on screen, come on a retry: its first run,
        // if the failed fetch left another protocol's run there.
        let view = app.view.get_untracked();
        if ready && view.part() == Some(part) {
            open_first_run(app, view);
        }
    });
}

#[cfg(feature = "split")]
thread_local! {
    /// `style/parts.css`, once asked for: resolves when it has loaded.
    static PARTS_CSS: std::cell::RefCell<Option<js_sys::Promise>> = const { std::cell::RefCell::new(None) };
}

/// Waits for the parts' stylesheet (`style/parts.css`: the rules of every
/// view but the first one's), adding it to the page the first time; false
/// if it cannot be fetched (the next call asks again). Without it a part's
/// view would show unstyled for a moment; it is not in the first load's
/// stylesheet so that the first paint neither fetches nor parses it.
async fn parts_css() -> bool {
    #[cfg(feature = "split")]
    {
        use wasm_bindgen::JsCast;
        let promise = PARTS_CSS.with(|p| {
            p.borrow_mut()
                .get_or_insert_with(|| {
                    js_sys::Promise::new(&mut |resolve, reject| {
                        let added = (|| {
                            let doc = web_sys::window()?.document()?;
                            let link = doc.create_element("link").ok()?;
                            link.set_attribute("rel", "stylesheet").ok()?;
                            link.set_attribute("href", "./style/parts.css").ok()?;
                            let el = link.dyn_ref::<web_sys::HtmlElement>()?;
                            el.set_onload(Some(&resolve));
                            el.set_onerror(Some(&reject));
                            doc.query_selector("head").ok()??.append_child(&link).ok()
                        })();
                        if added.is_none() {
                            let _ = reject.call0(&wasm_bindgen::JsValue::NULL);
                        }
                    })
                })
                .clone()
        });
        if wasm_bindgen_futures::JsFuture::from(promise).await.is_err() {
            // Take the failed link away; a retry adds a new one.
            PARTS_CSS.with(|p| p.borrow_mut().take());
            if let Some(l) = web_sys::window().and_then(|w| w.document()).and_then(|d| {
                d.query_selector("link[href='./style/parts.css']")
                    .ok()
                    .flatten()
            }) {
                l.remove();
            }
            return false;
        }
    }
    true
}

/// A part's piece, drawn once its chunk is here; till then a loading line,
/// and if the fetch failed, why and a retry.
#[component]
pub fn PartView(part: Part, piece: Piece) -> impl IntoView {
    let app = use_app();
    fetch(app, part);
    if part == Part::Lessons {
        // Another language chosen: its lesson texts fetched (the loading
        // line meanwhile), once.
        Effect::new(move |_| {
            if !app.lang.get().lessons_here() {
                fetch(app, part);
            }
        });
    }
    let i = part as usize;
    let status = Memo::new(move |_| app.parts.with(|p| p[i]));
    move || {
        match status.get() {
        Status::Ready(draw) => draw(piece),
        // The side column says it once for all the pieces that come later;
        // a lab's side panel and a lesson's tools are silent, as their stage
        // says it (with the retry) right beside them.
        Status::Failed
            if (part == Part::Later && piece != Piece::Column)
                || matches!(piece, Piece::Side | Piece::Tools) =>
        {
            ().into_any()
        }
        Status::Failed => view! {
            <div class="part-failed" role="alert" data-testid="part-failed">
                <p>{move || app.lang.get().speak().part_failed(name(app, part))}</p>
                <button data-testid="part-retry" on:click=move |_| fetch(app, part)>{move || app.words().retry}</button>
            </div>
        }
        .into_any(),
        // A side panel waits silently: the stage says it already. What comes
        // after the first paint waits silently too (it is there a moment later).
        Status::Idle | Status::Loading
            if matches!(piece, Piece::Side | Piece::Tools) || part == Part::Later =>
        {
            ().into_any()
        }
        Status::Idle | Status::Loading => view! {
            <p class="part-loading" role="status" data-testid="part-loading">
                {move || app.lang.get().speak().part_loading(name(app, part))}
            </p>
        }
        .into_any(),
    }
    }
}

/// Draws a piece of the `Later` part once the page has painted (`App::painted`):
/// the side column, the space-time diagram and the closed dialogs are more
/// than half of the first page's elements and nobody reads them in the first
/// frame, so neither their building nor their code holds up the parliament.
#[component]
pub fn Later(piece: Piece) -> impl IntoView {
    let app = use_app();
    view! {
        <Show when=move || app.painted.get()>
            <PartView part=Part::Later piece=piece />
        </Show>
    }
}
