//! The browser app: Leptos components only. This is the one place with
//! signals; everything it shows is computed by the core.
//!
//! The simulator lives outside the reactive graph in [`model::Model`] (a
//! `StoredValue`). Each animation frame the driver moves the cursor to the
//! new virtual time and publishes one [`model::Snap`]; components read narrow
//! parts of it.

pub mod browser;
pub mod inspector;
pub mod keys;
pub mod lease;
pub mod model;
pub mod narration;
pub mod parliament;
pub mod raf;
pub mod spacetime;
pub mod topbar;
pub mod transport;

use crate::i18n::{Lang, Words};
use crate::scenario::{builtin, Scenario};
use crate::sim::fault::{Fault, Scheduled};
use leptos::prelude::*;
use model::{Model, Snap};

/// Which main view is on stage.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum View {
    Parliament,
    Lease,
    Ballots,
    Lessons,
}

/// The lease lab's side-by-side mode: the same seed and faults, one setting flipped.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Compare {
    Off,
    Fencing,
    Design,
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
    pub reduced_motion: bool,
    pub compare: RwSignal<Compare>,
    /// The second pane of the side-by-side mode.
    pub model_b: StoredValue<Option<Model>>,
    pub snap_b: RwSignal<Option<Snap>>,
}

impl App {
    pub fn words(&self) -> &'static Words {
        self.lang.get().words()
    }

    pub fn speed(&self) -> f64 {
        10f64.powf(self.speed_log.get_untracked())
    }

    /// Replace the run with a new scenario. On error, the current run stays
    /// and the reason is shown.
    pub fn load(&self, scenario: Scenario, keep_time: bool) -> Result<(), String> {
        let model = Model::new(&scenario)?;
        let b = match Self::twin(&scenario, self.compare.get_untracked()) {
            Some(s) => Some(Model::new(&s)?),
            None => None,
        };
        let end = model.end().max(b.as_ref().map_or(0, |m| m.end()));
        self.model_b.set_value(b);
        let t = if keep_time { self.t.get_untracked().min(end) } else { 0 };
        self.model.set_value(model);
        self.scenario_name.set(scenario.name.clone());
        self.end.set(end);
        self.rev.update(|r| *r += 1);
        self.set_t(t);
        Ok(())
    }

    pub fn load_builtin(&self, name: &str) {
        if let Some(s) = builtin::get(name) {
            let _ = self.load(s, false);
            self.playing.set(false);
        }
    }

    /// The other pane of a comparison: the same scenario with one setting flipped.
    pub fn twin(s: &Scenario, how: Compare) -> Option<Scenario> {
        use crate::protocol::lease::Design;
        let mut b = s.clone();
        let l = b.lease.as_mut()?;
        match how {
            Compare::Off => return None,
            Compare::Fencing => l.fencing = !l.fencing,
            Compare::Design => {
                l.design = if l.design == Design::InLoop { Design::Beside } else { Design::InLoop };
                if !b.nodes.iter().any(|n| n.roles.contains(&crate::scenario::Role::Llm)) {
                    b.nodes = crate::scenario::lease_spec::lab_nodes(b.nodes_with(crate::scenario::Role::Worker).len());
                }
            }
        }
        Some(b)
    }

    /// Switch the comparison on or off (rebuilding the second pane).
    pub fn set_compare(&self, how: Compare) {
        self.compare.set(how);
        let s = self.scenario();
        if let Err(e) = self.load(s, true) {
            self.toast.set(Some((e, true)));
        }
    }

    /// Move the cursor and publish the new snapshot.
    pub fn set_t(&self, t: u64) {
        let t = t.min(self.end.get_untracked());
        let snap = self.model.try_update_value(|m| {
            m.seek(t);
            m.snap(t)
        });
        let snap_b = self.model_b.try_update_value(|b| {
            b.as_mut().map(|m| {
                m.seek(t);
                m.snap(t)
            })
        });
        self.t.set(t);
        if let Some(s) = snap {
            self.snap.set(s);
        }
        self.snap_b.set(snap_b.flatten());
    }

    pub fn scenario(&self) -> Scenario {
        self.model.with_value(|m| m.scenario().clone())
    }

    /// Record a fault at the present moment and re-run: the branch is part of
    /// the scenario, so it replays.
    pub fn inject(&self, fault: Fault<String>) {
        let mut s = self.scenario();
        let at = self.t.get_untracked() + 1;
        s.faults.push(Scheduled { at_us: at, fault });
        s.faults.sort_by_key(|f| f.at_us);
        match self.load(s, true) {
            Ok(()) => {
                // Stand just after the fault so that its effect shows at once.
                self.set_t(at);
                self.toast.set(Some((self.words().fault_recorded.to_string(), false)));
            }
            Err(e) => self.toast.set(Some((e, true))),
        }
    }
}

pub fn use_app() -> App {
    expect_context::<App>()
}

/// Entry point from `main`: show panics on the page, then mount.
pub fn start() {
    install_panic_hook();
    leptos::mount::mount_to_body(Root);
}

/// Mount the app into a given element (browser tests).
pub fn mount_into(parent: web_sys::HtmlElement) -> leptos::mount::UnmountHandle<impl leptos::tachys::view::Mountable> {
    leptos::mount::mount_to(parent, Root)
}

fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        // After a panic the wasm instance is unusable: use raw DOM calls only.
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
        if let Some(el) = doc.get_element_by_id("panic") {
            let _ = el.set_attribute("style", "display:block");
            let msg = doc.get_element_by_id("panic-msg");
            if let Some(m) = msg {
                m.set_text_content(Some(&info.to_string()));
            }
        }
    }));
}

fn prefers_reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media("(prefers-reduced-motion: reduce)").ok().flatten())
        .is_some_and(|m| m.matches())
}

fn browser_lang() -> Lang {
    web_sys::window()
        .and_then(|w| w.navigator().language())
        .and_then(|l| Lang::from_code(&l))
        .unwrap_or(Lang::En)
}

#[component]
fn Root() -> impl IntoView {
    let first = builtin::get("calm").expect("built in");
    let model = Model::new(&first).expect("the calm scenario runs");
    let end = model.end();
    let snap0 = model.snap(0);
    let app = App {
        model: StoredValue::new(model),
        rev: RwSignal::new(0),
        t: RwSignal::new(0),
        end: RwSignal::new(end),
        snap: RwSignal::new(snap0),
        playing: RwSignal::new(false),
        speed_log: RwSignal::new(-1.0),
        lang: RwSignal::new(browser_lang()),
        view: RwSignal::new(View::Parliament),
        selected: RwSignal::new(None),
        large: RwSignal::new(false),
        presenter: RwSignal::new(false),
        help_open: RwSignal::new(false),
        toast: RwSignal::new(None),
        scenario_name: RwSignal::new(first.name.clone()),
        reduced_motion: prefers_reduced_motion(),
        compare: RwSignal::new(Compare::Off),
        model_b: StoredValue::new(None),
        snap_b: RwSignal::new(None),
    };
    provide_context(app);
    raf::drive(app);
    keys::install(app);
    Effect::new(move |_| {
        let lang = app.lang.get();
        if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
            if let Some(html) = doc.document_element() {
                let _ = html.set_attribute("lang", lang.code());
            }
            doc.set_title(&format!("{} — {}", lang.words().app_title, lang.words().tagline));
        }
    });

    view! {
        <div
            class="app"
            class:large=move || app.large.get() || app.presenter.get()
            class:presenter=move || app.presenter.get()
            data-testid="app"
        >
            <topbar::TopBar />
            <main class="stage-and-side">
                <section class="stage" data-testid="stage" aria-live="off">
                    {move || match app.view.get() {
                        View::Parliament => view! {
                            <parliament::Parliament />
                            <spacetime::SpaceTime />
                        }.into_any(),
                        View::Lease => view! { <lease::LeaseLab /> }.into_any(),
                        _ => view! { <p class="todo">"…"</p> }.into_any(),
                    }}
                </section>
                <aside class="side">
                    <narration::Narration />
                    <narration::Invariants />
                    <Show when=move || app.view.get() == View::Parliament>
                        <inspector::Inspector />
                    </Show>
                </aside>
            </main>
            <transport::Transport />
            <keys::Help />
            <Toast />
        </div>
    }
}

#[component]
fn Toast() -> impl IntoView {
    let app = use_app();
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
