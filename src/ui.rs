//! The browser app: Leptos components only. This is the one place with
//! signals; everything it shows is computed by the core.
//!
//! The simulator lives outside the reactive graph in [`model::Model`] (a
//! `StoredValue`). Each animation frame the driver moves the cursor to the
//! new virtual time and publishes one [`model::Snap`] when an event passed;
//! components read narrow parts of it. What moves with every frame and
//! nothing else (messengers, cursors, the scrubber) is written by the frame
//! itself, through [`App::on_frame`].

pub mod ballots;
pub mod browser;
pub mod commit;
pub mod exports;
pub mod faultlist;
pub mod figures;
pub mod files;
pub mod inspector;
pub mod keys;
pub mod latency;
pub mod later;
pub mod lease;
pub mod lessons;
pub mod model;
pub mod modelcheck;
pub mod multipaxos;
pub mod narration;
pub mod parliament;
pub mod parts;
pub mod perf;
pub mod qr;
pub mod raf;
pub mod spacetime;
pub mod topbar;
pub mod transport;

use crate::i18n::{Lang, Words};
use crate::scenario::{builtin, Flip, Scenario};

use crate::scenario::{Scheduled, Step};
use leptos::prelude::*;
use model::{Model, Snap};
use parts::{Later, Part, PartView, Piece};

/// Which main view is on stage.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum View {
    Parliament,
    Lease,
    Commit,
    Multi,
    Ballots,
    Lessons,
}

impl View {
    /// The part of the page (its own chunk) the view draws, if any.
    pub fn part(self) -> Option<Part> {
        match self {
            View::Parliament => None,
            View::Lease => Some(Part::Lease),
            View::Commit => Some(Part::Commit),
            View::Multi => Some(Part::Multi),
            View::Ballots => Some(Part::Ballots),
            View::Lessons => Some(Part::Lessons),
        }
    }

    /// The view that shows runs of `kind`.
    pub fn of(kind: crate::protocol::Kind) -> View {
        match kind {
            crate::protocol::Kind::Paxos => View::Parliament,
            crate::protocol::Kind::Lease => View::Lease,
            crate::protocol::Kind::Commit => View::Commit,
            crate::protocol::Kind::Multipaxos => View::Multi,
        }
    }
}

/// The work an import or a link replaced (`App::previous`): the run, the
/// moment and the view it was in; `undo`: it is what had been opened, put
/// aside by a restore.
pub struct Previous {
    model: Model,
    t: u64,
    view: View,
    pub undo: bool,
}

/// Everything the components share. `Copy`: signals are handles.
#[derive(Copy, Clone)]
pub struct App {
    pub model: StoredValue<Model>,
    /// Bumped whenever a new run replaces the model.
    pub rev: RwSignal<u64>,
    /// The cursor: true time in µs.
    pub t: RwSignal<u64>,
    pub end: RwSignal<u64>,
    pub snap: RwSignal<Snap>,
    /// What moves with every frame and with nothing else (the messengers, the
    /// space-time diagram's cursor, the scrubber's thumb, the clock's
    /// `data-us`), written by the frame itself: see [`App::on_frame`].
    pub per_frame: StoredValue<FrameHooks, LocalStorage>,
    /// Which snapshot was published last: the run (`rev`) and how many of
    /// its event times (and its twin's) lay at or before the cursor. See
    /// `set_t`.
    snapped: StoredValue<Option<(u64, usize, Option<usize>)>>,
    pub playing: RwSignal<bool>,
    /// log10 of simulated seconds per real second.
    pub speed_log: RwSignal<f64>,
    pub lang: RwSignal<Lang>,
    pub view: RwSignal<View>,
    pub selected: RwSignal<Option<u8>>,
    pub large: RwSignal<bool>,
    pub presenter: RwSignal<bool>,
    pub help_open: RwSignal<bool>,
    /// A short message for the user (errors, confirmations).
    pub toast: RwSignal<Option<(String, bool)>>,
    pub scenario_name: RwSignal<String>,
    /// Draw the diagrams' future too (the space-time diagram and the lease
    /// lanes past the cursor). Off by default: a time machine that shows what
    /// comes next spoils the demo. Never while a question holds the run.
    pub whole_run: RwSignal<bool>,
    /// Presenter mode's QR code of the moment on screen, when shown.
    pub qr_open: RwSignal<bool>,
    /// The moment (`t=` in the link the page opened with) a lesson step
    /// moves to once it has opened at its own moment.
    pub link_t: StoredValue<Option<u64>>,
    /// Side by side (the lease lab, commit): the same seed and faults with
    /// one setting flipped in the second pane; none for one run.
    pub compare: RwSignal<Option<Flip>>,
    /// What an import or a link replaced, ready to be restored; after a
    /// restore, what had been opened, so that the restore can be undone.
    pub previous: StoredValue<Option<Previous>>,
    /// A note about what is on screen (a verified replay, recorded events only …).
    pub status: RwSignal<Option<String>>,
    /// The share dialog's link, when open.
    pub share: RwSignal<Option<String>>,
    /// Lessons: which lesson (index) is open, and which step.
    pub lesson: RwSignal<Option<usize>>,
    pub step: RwSignal<usize>,
    /// The run may not go past this instant (a question is waiting).
    pub hold: RwSignal<Option<u64>>,
    /// The work on screen before a lesson replaced it, and its moment.
    pub before_lessons: StoredValue<Option<(Scenario, u64)>>,
    /// The second pane of the side-by-side mode.
    pub model_b: StoredValue<Option<Model>>,
    pub snap_b: RwSignal<Option<Snap>>,
    /// The parts of the page fetched when first shown (`parts`).
    pub parts: RwSignal<parts::Parts>,
    /// The page has painted once: what the first frame does not need
    /// (`Later`) is drawn from then on.
    pub painted: RwSignal<bool>,
}

/// The speed a built-in scenario opens at, as log10 of simulated seconds per
/// real second. Paxos and Multi-Paxos at a tenth, so each messenger can be
/// followed across the chamber; a commit at a third (its blocking lasts
/// seconds). A lease story is tens of simulated seconds of stalls and expiries
/// whose messages matter less: it plays whole in about 20 s (the old default,
/// a tenth, made the 30 s LLM scenario last five minutes).
pub fn story_speed(kind: crate::protocol::Kind, end_us: u64) -> f64 {
    use crate::protocol::Kind;
    match kind {
        Kind::Paxos | Kind::Multipaxos => -1.0,
        Kind::Commit => -0.5,
        Kind::Lease => crate::float::clamp(
            libm::log(end_us.max(1) as f64 / 20e6) / std::f64::consts::LN_10,
            -0.5,
            0.5,
        ),
    }
}

/// 10^x, through the `libm` functions the simulator links anyway
/// (`f64::powf` and `log10` brought the platform library's own).
pub(crate) fn pow10(x: f64) -> f64 {
    libm::exp(x * std::f64::consts::LN_10)
}

const WHOLE_RUN_KEY: &str = "paxos-island.whole-run";

/// A hook `set_t` calls with each new time.
type FrameHook = std::rc::Rc<dyn Fn(u64)>;

/// The hooks `set_t` calls with each new time, by registration number.
#[derive(Default)]
pub struct FrameHooks {
    next: u64,
    hooks: Vec<(u64, FrameHook)>,
}

impl App {
    /// Call `hook` with the cursor's time every time it moves (every frame
    /// while a run plays), for as long as the calling component lives.
    ///
    /// For what moves with every frame and nothing else. Through the reactive
    /// graph each such thing was a signal set, an effect woken and a task
    /// polled per frame — most of a quiet frame's script, where the writes
    /// themselves are a few numbers. A hook writes them directly, untracked
    /// (whoever moved the time does not subscribe to what it reads). A hook
    /// that writes into an element also needs its first state drawn:
    /// `on_frame_and`.
    pub fn on_frame(&self, hook: impl Fn(u64) + 'static) {
        self.add_frame_hook(std::rc::Rc::new(hook), false);
    }

    /// `on_frame`, called before every other hook of the frame.
    ///
    /// For the scrubber: writing an input's value brings the page's style up
    /// to date there and then. Before the other hooks nothing else in the page
    /// has changed since the last frame was drawn, so that is the input alone;
    /// after them it was every messenger moved and every cursor placed — their
    /// style worked out once mid-script and once more when the frame is drawn.
    fn on_frame_first(&self, hook: impl Fn(u64) + 'static) {
        self.add_frame_hook(std::rc::Rc::new(hook), true);
    }

    fn add_frame_hook(&self, hook: FrameHook, first: bool) {
        let mut id = 0;
        self.per_frame.update_value(|f| {
            id = f.next;
            f.next += 1;
            if first {
                f.hooks.insert(0, (id, hook));
            } else {
                f.hooks.push((id, hook));
            }
        });
        let per_frame = self.per_frame;
        on_cleanup(move || {
            per_frame.try_update_value(|f| f.hooks.retain(|h| h.0 != id));
        });
    }

    /// `on_frame`, and also whenever what `ready` reads changes while it says
    /// yes: the first state once the hook's element is in the page (`ready`
    /// reads its `NodeRef`), and what changes without a new time (a new run,
    /// a new drawing).
    pub fn on_frame_and(
        &self,
        hook: impl Fn(u64) + Copy + 'static,
        ready: impl Fn() -> bool + 'static,
    ) {
        self.on_frame(hook);
        self.first_state(hook, ready);
    }

    /// `on_frame_first`, and the first state as `on_frame_and` draws it.
    pub fn on_frame_first_and(
        &self,
        hook: impl Fn(u64) + Copy + 'static,
        ready: impl Fn() -> bool + 'static,
    ) {
        self.on_frame_first(hook);
        self.first_state(hook, ready);
    }

    fn first_state(&self, hook: impl Fn(u64) + Copy + 'static, ready: impl Fn() -> bool + 'static) {
        let app = *self;
        Effect::new(move |_| {
            if ready() {
                hook(app.t.get_untracked());
            }
        });
    }

    /// A value of the cursor's time (and of other signals `f` reads), held in
    /// a signal that changes only when the value does — a memo computed by the
    /// frame (`on_frame`) rather than woken by it. The cursor's own signal
    /// then has no one to notify while a run plays: with a memo, every frame
    /// marked it and its effects and polled them only to find it unchanged.
    /// An effect recomputes it when the other signals change.
    pub fn frame_memo<T: PartialEq + Send + Sync + 'static>(
        &self,
        f: impl Fn(u64) -> T + Copy + 'static,
    ) -> ReadSignal<T> {
        let app = *self;
        let value = RwSignal::new(untrack(|| f(app.t.get_untracked())));
        let put = move |v: T| {
            if value.with_untracked(|old| *old != v) {
                value.set(v);
            }
        };
        self.on_frame(move |t| put(f(t)));
        Effect::new(move |_| put(f(app.t.get_untracked())));
        value.read_only()
    }

    /// Whether the diagrams stop drawing at the cursor (`fog_from`), without
    /// reading the cursor.
    pub fn fogged(&self) -> bool {
        !self.whole_run.get() || self.hold.get().is_some()
    }

    /// Where the diagrams stop drawing (a fog covers what lies past it):
    /// the cursor, unless the whole run is asked for and no question waits.
    pub fn fog_from(&self) -> Option<u64> {
        self.fogged().then(|| self.t.get())
    }

    pub fn set_whole_run(&self, on: bool) {
        self.whole_run.set(on);
        let _ = browser::local_set(WHOLE_RUN_KEY, if on { "1" } else { "0" });
    }

    pub fn words(&self) -> &'static Words {
        self.lang.get().words()
    }

    pub fn speed(&self) -> f64 {
        pow10(self.speed_log.get_untracked())
    }

    /// Replace the run with a new scenario. On error, the current run stays
    /// and the reason is shown.
    pub fn load(&self, scenario: Scenario, keep_time: bool) -> Result<(), String> {
        let model = Model::new(&scenario)?;
        // The other pane of a comparison: the same scenario with one setting
        // flipped (`Scenario::flipped`, which comes with the other protocols'
        // builders: only their runs have a second pane).
        let twin = self
            .compare
            .get_untracked()
            .and_then(|f| scenario.flipped(f));
        let b = match twin {
            Some(s) => Some(Model::new(&s)?),
            None => None,
        };
        self.install(model, b, keep_time);
        Ok(())
    }

    /// Put a model (and its comparison twin) on screen.
    pub fn install(&self, model: Model, b: Option<Model>, keep_time: bool) {
        let end = model.end().max(b.as_ref().map_or(0, |m| m.end()));
        let name = model.scenario().name.clone();
        self.model_b.set_value(b);
        let t = if keep_time {
            self.t.get_untracked().min(end)
        } else {
            0
        };
        self.model.set_value(model);
        self.scenario_name.set(name);
        self.end.set(end);
        self.rev.update(|r| *r += 1);
        self.set_t(t);
    }

    /// Replace the whole work with `model` (an import, a link), shown in
    /// `view`, keeping the current work so that it can be restored: nothing
    /// is discarded silently.
    pub fn replace(&self, view: View, model: Model, status: Option<String>) {
        self.playing.set(false);
        self.compare.set(None);
        let (t, was) = (self.t.get_untracked(), self.view.get_untracked());
        self.view.set(view);
        let old = self.model.try_update_value(|m| std::mem::replace(m, model));
        self.previous.set_value(old.map(|model| Previous {
            model,
            t,
            view: was,
            undo: false,
        }));
        self.install_current();
        self.status.set(status);
    }

    /// Bring back the work that the last import or link replaced, in the
    /// view (a lesson's too) and at the moment it was left — or, after that,
    /// undo it: what had been opened comes back, and the work is kept again.
    pub fn restore_previous(&self) {
        if let Some(prev) = self.previous.try_update_value(|p| p.take()).flatten() {
            let (t, was) = (self.t.get_untracked(), self.view.get_untracked());
            self.playing.set(false);
            self.view.set(prev.view);
            let replaced = self
                .model
                .try_update_value(|m| std::mem::replace(m, prev.model));
            let undo = prev.undo;
            self.previous.set_value(replaced.map(|model| Previous {
                model,
                t,
                view: was,
                undo: !undo,
            }));
            self.install_current();
            self.set_t(prev.t);
            let w = self.words();
            self.status.set(Some(
                if undo { w.previous_kept } else { w.restored }.to_string(),
            ));
            // The link that had replaced it leaves the address too: a reload
            // would open it again over the work just restored.
            browser::replace_hash("");
        }
    }

    fn install_current(&self) {
        self.model_b.set_value(None);
        let (end, name) = self
            .model
            .with_value(|m| (m.end(), m.scenario().name.clone()));
        self.scenario_name.set(name);
        self.end.set(end);
        self.rev.update(|r| *r += 1);
        self.set_t(0);
    }

    pub fn load_builtin(&self, name: &str) {
        // Another protocol's built-in comes with its part: fetch it first.
        if builtin::kind_of(name).is_some_and(|k| !crate::scenario::buildable_now(k)) {
            let (app, name) = (*self, name.to_string());
            return leptos::task::spawn_local(async move {
                if parts::load_builders().await {
                    app.load_builtin(&name);
                } else {
                    app.toast
                        .set(Some((app.words().readers_unavailable.to_string(), true)));
                }
            });
        }
        if let Some(mut s) = builtin::get(name) {
            // "Break the algorithm" is the algorithm's, not the scenario's:
            // another scenario of the same protocol keeps it.
            let broken = self.model.with_value(|m| m.scenario().mutation);
            if let Some(b) = broken.filter(|b| b.protocol() == s.protocol) {
                s.mutation = Some(b);
            }
            if self.load(s, false).is_ok() {
                self.story_pace();
            }
            self.playing.set(false);
        }
    }

    /// Play at the pace the scenario on screen is told at (its kind, its length).
    pub fn story_pace(&self) {
        self.speed_log
            .set(self.model.with_value(|m| story_speed(m.kind(), m.end())));
    }

    /// Switch the comparison on or off (rebuilding the second pane).
    pub fn set_compare(&self, how: Option<Flip>) {
        self.compare.set(how);
        let s = self.scenario();
        if let Err(e) = self.load(s, true) {
            self.toast.set(Some((e, true)));
        }
    }

    /// Move the cursor and publish the new snapshot.
    pub fn set_t(&self, t: u64) {
        let app = *self;
        perf::measure(move || app.set_t_now(t));
    }

    fn set_t_now(&self, t: u64) {
        // A predict-then-watch question holds the run until it is answered.
        let cap = self.hold.get_untracked().unwrap_or(u64::MAX);
        let t = t.min(self.end.get_untracked()).min(cap);
        if t >= cap {
            self.playing.set(false);
        }
        // Between two events nothing but the messengers and the cursor moves:
        // a snapshot (the seats, ledgers, quorum, banner, narration) is made
        // of what the events up to the cursor did, so while no event time
        // is passed (most frames of a playing run) it is the one on screen
        // and is not made again; when one is, it is published only if it
        // changed, so the views that read it are not asked every event.
        let passed = self.model.with_value(|m| m.times_passed(t));
        let passed_b = self
            .model_b
            .with_value(|b| b.as_ref().map(|m| m.times_passed(t)));
        let key = Some((self.rev.get_untracked(), passed, passed_b));
        let fresh = self.snapped.get_value() != key;
        self.snapped.set_value(key);
        let snap = self.model.try_update_value(|m| {
            m.seek(t);
            fresh.then(|| m.snap(t))
        });
        let snap_b = self.model_b.try_update_value(|b| {
            b.as_mut().and_then(|m| {
                m.seek(t);
                fresh.then(|| m.snap(t))
            })
        });
        self.t.set(t);
        if fresh {
            if let Some(Some(s)) = snap {
                publish(self.snap, s);
            }
            publish(self.snap_b, snap_b.flatten());
        }
        // What moves with every frame: written directly (`on_frame`).
        untrack(|| {
            self.per_frame.with_value(|f| {
                for (_, hook) in &f.hooks {
                    hook(t);
                }
            })
        });
    }

    pub fn scenario(&self) -> Scenario {
        self.model.with_value(|m| m.scenario().clone())
    }

    /// Record a fault (or a protocol command) at the present moment and
    /// re-run: the branch is part of the scenario, so it replays.
    pub fn inject(&self, fault: impl Into<Step<String>>) {
        self.inject_all(vec![fault.into()]);
    }

    /// Several faults at the same moment (one re-run).
    pub fn inject_all(&self, faults: Vec<Step<String>>) {
        if self.model.with_value(|m| m.recorded_only) {
            // Recorded events cannot be re-simulated with a change.
            self.toast
                .set(Some((self.words().recorded_no_faults.to_string(), true)));
            return;
        }
        let mut s = self.scenario();
        let at = self.t.get_untracked() + 1;
        if at > s.stop_at_us {
            // The simulator stops there: the fault would never happen.
            self.toast
                .set(Some((self.words().fault_after_end.to_string(), true)));
            return;
        }
        s.faults.extend(
            faults
                .into_iter()
                .map(|fault| Scheduled { at_us: at, fault }),
        );
        crate::sorted::sort_by_key(&mut s.faults, |f| (f.at_us, 0));
        match self.load(s, true) {
            Ok(()) => {
                // Stand just after the fault so that its effect shows at once.
                self.set_t(at);
                self.toast
                    .set(Some((self.words().fault_recorded.to_string(), false)));
            }
            Err(e) => self.toast.set(Some((e, true))),
        }
    }
}

const LANG_KEY: &str = "paxos-island:v1:lang";

/// A lab's caption: its built-in scenario's story, and a word after it when
/// the run on screen is no longer that run (a fault injected, a setting
/// edited, another file under the same name).
pub fn caption(app: App) -> String {
    app.rev.get();
    let tell = app.lang.get().tell();
    let story = tell.scenario_caption(&app.scenario_name.get());
    if story.is_empty() || app.model.with_value(|m| m.recorded_only || m.as_built_in()) {
        story.to_string()
    } else {
        format!("{story} {}", tell.caption_changed())
    }
}

pub fn use_app() -> App {
    // Not `expect_context`: its message prints the type's name through
    // `Debug`, whose escaping tables would stay in the first load for it.
    use_context::<App>().expect("the page's state is provided at its root")
}

/// Entry point from `main`: show panics on the page, then mount.
pub fn start() {
    install_panic_hook();
    if !files::readers_needed_at_start() {
        return mount();
    }
    // Saved work or a share link: their reader is a part of its own (in the
    // split build), fetched first — the loader has already asked for it.
    wasm_bindgen_futures::spawn_local(async {
        match parts::load_readers().await {
            Some(_) => mount(),
            None => show_failure("The reader of your saved work or of the link could not be fetched. / 保存した作業やリンクを読むための部分を取得できませんでした。"),
        }
    });
}

/// Takes the loading line away and draws the page.
fn mount() {
    if let Some(l) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("loading"))
    {
        l.remove();
    }
    leptos::mount::mount_to_body(Root);
}

/// The language the page opens in: the one chosen last time, else the
/// browser's.
fn initial_lang() -> Lang {
    browser::local_get(LANG_KEY)
        .and_then(|c| Lang::from_code(&c))
        .unwrap_or_else(browser_lang)
}

/// The page's failure box (index.html), with `message`: raw DOM calls only.
fn show_failure(message: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if let Some(m) = doc.get_element_by_id("panic-msg") {
        m.set_text_content(Some(message));
    }
    if let Some(b) = doc.get_element_by_id("panic") {
        let _ = b.remove_attribute("hidden");
    }
}

/// Mount the app into a given element (browser tests).
pub fn mount_into(
    parent: web_sys::HtmlElement,
) -> leptos::mount::UnmountHandle<impl leptos::tachys::view::Mountable> {
    leptos::mount::mount_to(parent, Root)
}

fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        // After a panic the wasm instance is unusable: raw DOM calls only.
        show_failure(&info.to_string());
    }));
}

fn browser_lang() -> Lang {
    web_sys::window()
        .and_then(|w| w.navigator().language())
        .and_then(|l| Lang::from_code(&l))
        .unwrap_or(Lang::En)
}

/// Set `signal` to `value`, waking its readers only if it changed.
pub(crate) fn publish<T: PartialEq + Send + Sync + 'static>(signal: RwSignal<T>, value: T) {
    signal.maybe_update(|old| {
        let changed = *old != value;
        if changed {
            *old = value;
        }
        changed
    });
}

#[component]
fn Root() -> impl IntoView {
    let lang = initial_lang();
    let (first, message, kept) = files::initial(lang);
    let model = Model::new(&first)
        .or_else(|_| Model::new(&builtin::get("calm").expect("built in")))
        .expect("the calm scenario runs");
    let end = model.end();
    // A link or the saved work opens at its story's pace, as the menu does.
    let pace = story_speed(model.kind(), end);
    let snap0 = model.snap(0);
    let app = App {
        model: StoredValue::new(model),
        rev: RwSignal::new(0),
        t: RwSignal::new(0),
        end: RwSignal::new(end),
        snap: RwSignal::new(snap0),
        per_frame: StoredValue::new_local(FrameHooks::default()),
        snapped: StoredValue::new(None),
        playing: RwSignal::new(false),
        speed_log: RwSignal::new(pace),
        lang: RwSignal::new(lang),
        // A ballot table's link opens the Ballots tab, which reads it.
        view: RwSignal::new(if files::is_ballots_link(&browser::hash()) {
            View::Ballots
        } else {
            View::of(first.protocol)
        }),
        selected: RwSignal::new(None),
        large: RwSignal::new(false),
        presenter: RwSignal::new(false),
        help_open: RwSignal::new(false),
        toast: RwSignal::new(None),
        scenario_name: RwSignal::new(first.name.clone()),
        whole_run: RwSignal::new(browser::local_get(WHOLE_RUN_KEY).as_deref() == Some("1")),
        qr_open: RwSignal::new(false),
        link_t: StoredValue::new(None),
        compare: RwSignal::new(None),
        previous: StoredValue::new(None),
        status: RwSignal::new(None),
        share: RwSignal::new(None),
        lesson: RwSignal::new(None),
        step: RwSignal::new(0),
        hold: RwSignal::new(None),
        before_lessons: StoredValue::new(None),
        model_b: StoredValue::new(None),
        snap_b: RwSignal::new(None),
        parts: RwSignal::new(Default::default()),
        painted: RwSignal::new(false),
    };
    provide_context(app);
    // A timeout set from the next animation frame runs after that frame's
    // paint: the chamber, the banner and the controls paint first, the rest
    // (`Later`) a frame after.
    request_animation_frame(move || {
        set_timeout(move || app.painted.set(true), std::time::Duration::ZERO)
    });
    raf::drive(app);
    keys::install(app);
    // A refused link's moment is not shown either: the work stays as it was.
    let refused = message.is_some();
    if let Some(m) = message {
        app.toast.set(Some(m));
    }
    if let Some(old) = kept.and_then(|s| Model::new(&s).ok()) {
        // A link replaced the autosaved work: keep it one click away.
        app.previous.set_value(Some(Previous {
            view: View::of(old.kind()),
            model: old,
            t: 0,
            undo: false,
        }));
        app.status.set(Some(app.words().previous_kept.to_string()));
    }
    // `?crashtest`: a self-test of the crash screen (used by the end-to-end tests).
    if web_sys::window()
        .and_then(|w| w.location().search().ok())
        .is_some_and(|q| q.contains("crashtest"))
    {
        set_timeout(
            || panic!("crash-screen self-test"),
            std::time::Duration::from_millis(50),
        );
    }
    // A link's moment (`t=`): a lesson step takes it once open; a run at once.
    let link_t = files::link_time(&browser::hash());
    if let Some(Ok(link)) = lessons::read_link(&browser::hash()) {
        app.link_t.set_value(link_t);
        lessons::open_link(app, link);
    } else if let Some(t) = link_t.filter(|_| !refused) {
        app.set_t(t.min(app.end.get_untracked()));
    }
    // A link pasted into the address bar of the open page.
    let hc = window_event_listener(leptos::ev::hashchange, move |_| {
        let hash = browser::hash();
        let link_t = files::link_time(&hash);
        if let Some(m) = files::bad_time(&hash, app.lang.get_untracked()) {
            app.toast.set(Some(m));
        }
        if let Some(lesson) = lessons::read_link(&hash) {
            match lesson {
                Ok(link) => {
                    app.link_t.set_value(link_t);
                    lessons::open_link(app, link);
                }
                Err(bad) => app.toast.set(Some((
                    app.lang.get_untracked().speak().bad_run_link(&bad),
                    true,
                ))),
            }
        } else if files::is_run_link(&hash) {
            // Another protocol's run waits for its part (its builders and
            // built-ins): read the link once they are here.
            let now = !files::run_link_waits(&hash);
            let link = hash.clone();
            let open = move || {
                let speak = app.lang.get_untracked().speak();
                match files::run_link(&link) {
                    Some(Ok(s)) => Model::new(&s).map_err(|_| speak.unknown_link(&link)),
                    Some(Err(bad)) => Err(speak.bad_run_link(&bad)),
                    None => Err(speak.unknown_link(&link)),
                }
            };
            let open = move || match open() {
                Ok(m) => {
                    // The run's own view, as a share link or a file opens it;
                    // the work it replaced is one click away, and says so.
                    app.replace(
                        View::of(m.kind()),
                        m,
                        Some(app.words().previous_kept.to_string()),
                    );
                    app.story_pace();
                    app.set_t(link_t.unwrap_or(0).min(app.end.get_untracked()));
                }
                Err(message) => app.toast.set(Some((message, true))),
            };
            // Another protocol's run needs its builders, a part of their own.
            if now {
                open();
            } else {
                leptos::task::spawn_local(async move {
                    if parts::load_builders().await {
                        open();
                    } else {
                        app.toast
                            .set(Some((app.words().readers_unavailable.to_string(), true)));
                    }
                });
            }
        } else if crate::trace::share::looks_like_link(&hash) {
            files::open_link(app, hash, link_t);
        } else if files::is_ballots_link(&hash) {
            // The tab reads it (when open, on this same event).
            app.view.set(View::Ballots);
        } else if !hash.trim().is_empty() {
            app.toast.set(Some((
                app.lang.get_untracked().speak().unknown_link(&hash),
                true,
            )));
        }
    });
    on_cleanup(move || hc.remove());
    // Leaving full screen (Escape, F11) leaves the presentation too.
    let fs = window_event_listener_untyped("fullscreenchange", move |_| {
        let full = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.fullscreen_element())
            .is_some();
        if !full && app.presenter.get_untracked() {
            app.presenter.set(false);
        }
    });
    on_cleanup(move || fs.remove());
    // Keep the language when switched. (The work is autosaved by the part
    // that comes after the first paint: `files::Autosave`.)
    Effect::new(move |_| {
        let _ = browser::local_set(LANG_KEY, app.lang.get().code());
    });
    let dragging = RwSignal::new(false);
    // The time machine and the narration only where a run is on stage.
    let live = Memo::new(move |_| match app.view.get() {
        View::Parliament | View::Lease | View::Commit | View::Multi => true,
        View::Ballots => false,
        View::Lessons => app.lesson.get().is_some_and(|l| {
            crate::scenario::lessons::LESSONS[l]
                .steps
                .get(app.step.get())
                .and_then(|s| s.scenario())
                .is_some()
        }),
    });
    Effect::new(move |_| {
        let lang = app.lang.get();
        if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
            if let Some(html) = doc.document_element() {
                let _ = html.set_attribute("lang", lang.code());
            }
            doc.set_title(&format!(
                "{} — {}",
                lang.words().app_title,
                lang.words().tagline
            ));
        }
    });

    view! {
        <div
            class="app"
            class:large=move || app.large.get() || app.presenter.get()
            class:presenter=move || app.presenter.get()
            class:dragging=move || dragging.get()
            class:no-side=move || !live.get()
            data-testid="app"
            // Whether what comes after the first paint is here (`Part::Later`).
            data-later=move || match app.parts.with(|p| p[Part::Later as usize]) {
                parts::Status::Ready(_) => "ready",
                parts::Status::Failed => "failed",
                _ => "loading",
            }
            on:dragover=move |ev: web_sys::DragEvent| {
                ev.prevent_default();
                dragging.set(true);
            }
            on:dragleave=move |_| dragging.set(false)
            on:drop=move |ev: web_sys::DragEvent| {
                ev.prevent_default();
                dragging.set(false);
                if let Some(f) = ev.data_transfer().and_then(|d| d.files()).and_then(|l| l.get(0)) {
                    files::import_file(app, f);
                }
            }
        >
            <div class="drop-hint" aria-hidden="true">{move || app.words().drop_hint}</div>
            <topbar::TopBar />
            <main class="stage-and-side">
                // Each pane scrolls on its own: focusable, so that a keyboard
                // (↑ ↓, PageUp PageDown) reaches what is below its fold.
                <section class="stage" data-testid="stage" aria-live="off" tabindex="0">
                    <Later piece=Piece::Status />
                    // The parliament is in the first load; every other view is its part.
                    {move || match app.view.get().part() {
                        None => view! {
                            <parliament::Parliament />
                            <Later piece=Piece::Diagram />
                        }.into_any(),
                        Some(part) => view! { <PartView part=part piece=Piece::Main /> }.into_any(),
                    }}
                </section>
                <aside class="side" class:hidden=move || !live.get() tabindex="0">
                  <Later piece=Piece::Column />
                </aside>
            </main>
            <Show when=move || live.get()>
                <transport::Transport />
            </Show>
            <Later piece=Piece::Dialogs />
            <Toast />
        </div>
    }
}

#[component]
fn Toast() -> impl IntoView {
    let app = use_app();
    // A toast closes by itself: news after 6 s, a problem after 15 s (time
    // to read it); a newer toast restarts the count.
    let shown = StoredValue::new(0u64);
    Effect::new(move |_| {
        let Some((_, bad)) = app.toast.get() else {
            return;
        };
        let id = shown.get_value() + 1;
        shown.set_value(id);
        let ms = if bad { 15_000 } else { 6_000 };
        set_timeout(
            move || {
                if shown.get_value() == id {
                    app.toast.set(None);
                }
            },
            std::time::Duration::from_millis(ms),
        );
    });
    move || {
        app.toast.get().map(|(msg, bad)| {
            view! {
                <div class="toast" class:bad=bad role="status" data-testid="toast">
                    <span>{msg}</span>
                    <button class="toast-close" aria-label=move || app.words().close on:click=move |_| app.toast.set(None)>
                        "×"
                    </button>
                </div>
            }
        })
    }
}
