//! The top bar: scenario and mutation pickers, the seed, the views, the
//! language, large type and presentation.

use super::{use_app, View};
use crate::check::Mutation;
use crate::i18n::Lang;
use crate::protocol::Kind;
use crate::scenario::builtin::PAXOS_NAMES;
use crate::scenario::commit_spec::BUILTIN_NAMES as COMMIT_NAMES;
use crate::scenario::lease_spec::BUILTIN_NAMES as LEASE_NAMES;
use leptos::prelude::*;

#[component]
pub fn TopBar() -> impl IntoView {
    let app = use_app();
    let w = move || app.words();
    let tab = move |v: View, label: fn(&crate::i18n::Words) -> &'static str, id: &'static str| {
        view! {
            <button
                class="tab"
                role="tab"
                aria-selected=move || (app.view.get() == v).to_string()
                class:active=move || app.view.get() == v
                data-testid=id
                // The pointer on a tab, or the focus: its part starts coming.
                on:pointerenter=move |_| if let Some(p) = v.part() { super::parts::fetch(app, p) }
                on:focus=move |_| if let Some(p) = v.part() { super::parts::fetch(app, p) }
                on:click=move |_| {
                    // Another tab opens at its top (the stage kept the last
                    // one's scroll).
                    if app.view.get_untracked() != v {
                        super::browser::scroll_to_top();
                    }
                    app.view.set(v);
                    if v != View::Lessons {
                        // Back from the lessons: the work from before them returns.
                        super::lessons::leave(app);
                    }
                    super::parts::open_first_run(app, v);
                }
            >
                {move || label(app.words())}
            </button>
        }
    };
    view! {
        <header class="topbar">
            <h1 class="brand">
                <img class="brand-mark" src="./assets/favicon.svg" alt="" width="28" height="28" />
                {move || w().app_title}
            </h1>
            // A lesson chooses its runs; their titles in a picker would give
            // a question's answer away ("Dueling proposers (livelock)"). The
            // ballot explorer has no run: pickers there would change one
            // that is not on screen.
            <Show when=move || !matches!(app.view.get(), View::Lessons | View::Ballots)>
                <ScenarioPicker />
                <MutationPicker />
                <SeedField />
            </Show>
            <nav class="tabs" role="tablist" aria-label=move || w().views>
                {tab(View::Parliament, |w| w.view_parliament, "tab-parliament")}
                {tab(View::Multi, |w| w.view_multi, "tab-multi")}
                {tab(View::Lease, |w| w.view_lease, "tab-lease")}
                {tab(View::Commit, |w| w.view_commit, "tab-commit")}
                {tab(View::Ballots, |w| w.view_ballots, "tab-ballots")}
                {tab(View::Lessons, |w| w.view_lessons, "tab-lessons")}
            </nav>
            <div class="tools">
                <super::files::FileMenu />
                <button
                    class="btn"
                    data-testid="lang"
                    lang=move || app.lang.get().other().code()
                    on:click=move |_| app.lang.update(|l| *l = l.other())
                >
                    {move || w().language}
                </button>
                <button
                    class="btn"
                    aria-pressed=move || app.large.get().to_string()
                    data-testid="large"
                    on:click=move |_| app.large.update(|l| *l = !*l)
                >
                    {move || w().large_type}
                </button>
                <Show when=move || app.presenter.get()>
                    <button class="btn" data-testid="qr-button" aria-pressed=move || app.qr_open.get().to_string() on:click=move |_| super::keys::toggle_qr(app)>
                        {move || w().qr_button}
                    </button>
                </Show>
                <button class="btn" data-testid="present" on:click=move |_| super::keys::toggle_presenter(app)>
                    {move || if app.presenter.get() { w().exit_present } else { w().present }}
                </button>
                <button class="btn icon" aria-label=move || w().help data-testid="help-button" on:click=move |_| app.help_open.set(true)>
                    "?"
                </button>
            </div>
        </header>
    }
}

#[component]
fn ScenarioPicker() -> impl IntoView {
    let app = use_app();
    // The list of the protocol on screen (a lesson may show either).
    let names = move || {
        app.rev.get();
        match app.model.with_value(|m| m.kind()) {
            Kind::Paxos => PAXOS_NAMES.to_vec(),
            Kind::Lease => LEASE_NAMES.to_vec(),
            Kind::Commit => COMMIT_NAMES.to_vec(),
            Kind::Multipaxos => crate::scenario::multipaxos_spec::BUILTIN_NAMES.to_vec(),
        }
    };
    view! {
        <label class="field">
            <span class="field-label">{move || app.words().scenario}</span>
            <select
                data-testid="scenario"
                prop:value=move || app.scenario_name.get()
                on:change=move |ev| {
                    let name = event_target_value(&ev);
                    app.load_builtin(&name);
                }
            >
                {move || {
                    // A scenario from a file or a link keeps its own name.
                    let current = app.scenario_name.get();
                    let title = app.lang.get().speak().scenario_title(&current);
                    // Its value is its name, so that the select's value finds it.
                    (!names().contains(&current.as_str())).then(|| view! { <option value=current.clone() selected disabled>{title}</option> })
                }}
                {move || {
                    let lang: Lang = app.lang.get();
                    names()
                        .into_iter()
                        .map(|n| {
                            view! {
                                <option value=n selected=move || app.scenario_name.get() == n>
                                    {lang.speak().scenario_title(n)}
                                </option>
                            }
                        })
                        .collect_view()
                }}
            </select>
        </label>
    }
}

#[component]
fn MutationPicker() -> impl IntoView {
    let app = use_app();
    let current = move || {
        app.rev.get();
        app.model.with_value(|m| m.scenario().mutation)
    };
    let options = move || {
        app.rev.get();
        Mutation::of(app.model.with_value(|m| m.scenario().protocol))
    };
    view! {
        <label class="field">
            <span class="field-label">{move || app.words().mutation}</span>
            <select
                data-testid="mutation"
                on:change=move |ev| {
                    let v = event_target_value(&ev);
                    let mut s = app.scenario();
                    s.mutation = Mutation::parse(&v);
                    if let Err(e) = app.load(s, false) {
                        app.toast.set(Some((e, true)));
                    }
                }
            >
                <option value="" selected=move || current().is_none()>
                    {move || app.words().mutation_none}
                </option>
                {move || {
                    let speak = app.lang.get().speak();
                    options()
                        .into_iter()
                        .map(|m| {
                            view! {
                                <option value=m.as_str() selected=move || current() == Some(m)>
                                    {speak.mutation_title(m)}
                                </option>
                            }
                        })
                        .collect_view()
                }}
            </select>
        </label>
    }
}

#[component]
fn SeedField() -> impl IntoView {
    let app = use_app();
    let text = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    // Show the current run's seed whenever the run changes.
    Effect::new(move |_| {
        app.rev.get();
        text.set(app.model.with_value(|m| m.scenario().seed.to_string()));
        error.set(None);
    });
    let apply = move || {
        let typed = text.get_untracked();
        match crate::float::typed(&typed).parse::<u64>() {
            Ok(seed) => {
                let mut s = app.scenario();
                s.seed = seed;
                match app.load(s, false) {
                    Ok(()) => error.set(None),
                    Err(e) => error.set(Some(e)),
                }
            }
            Err(_) => error.set(Some(app.lang.get_untracked().speak().seed_error(&typed))),
        }
    };
    view! {
        <form
            class="field seed"
            on:submit=move |ev| {
                ev.prevent_default();
                apply();
            }
        >
            <label class="field-label" for="seed-input">{move || app.words().seed}</label>
            <input
                id="seed-input"
                data-testid="seed"
                inputmode="numeric"
                autocomplete="off"
                size="12"
                prop:value=move || text.get()
                aria-invalid=move || error.get().is_some().to_string()
                aria-describedby="seed-error"
                on:input=move |ev| text.set(event_target_value(&ev))
            />
            <button class="btn" type="submit" data-testid="seed-apply" aria-label=move || app.words().seed_apply>
                "↻"
            </button>
            <span id="seed-error" class="field-error" role="alert" data-testid="seed-error">
                {move || error.get()}
            </span>
        </form>
    }
}
