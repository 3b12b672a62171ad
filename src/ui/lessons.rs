//! The lesson player: lessons are data (`scenario::lessons` + the words in
//! `i18n::{en,ja}::lessons`); each step opens a live scenario at a moment, a
//! figure, the ballot explorer or the latency table. Predict-then-watch
//! questions hold the run until answered. Progress is saved in the browser;
//! a step can be opened from a link (`#lesson=phases&step=3`), and presenter
//! keys (PageUp/PageDown, arrows) move between steps.

pub mod step;

use super::{browser, use_app, App};
use crate::i18n::BadRun;
use crate::scenario::lessons::LESSONS;
use leptos::prelude::*;

const PROGRESS: &str = "paxos-island:v1:progress";

/// Steps done, as "lesson-id:step" entries.
fn load_progress() -> Vec<String> {
    browser::local_get(PROGRESS)
        .map(|t| {
            t.split(',')
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// A step's entry in the progress list.
fn step_key(lesson: usize, step: usize) -> String {
    format!("{}:{step}", LESSONS[lesson].id)
}

fn mark_done(lesson: usize, step: usize) {
    let key = step_key(lesson, step);
    let mut p = load_progress();
    if !p.contains(&key) {
        p.push(key);
        let _ = browser::local_set(PROGRESS, &p.join(","));
    }
}

fn done_in(lesson: usize, progress: &[String]) -> usize {
    let prefix = format!("{}:", LESSONS[lesson].id);
    progress.iter().filter(|p| p.starts_with(&prefix)).count()
}

/// Open lesson `lesson` at `step` (clamped).
pub fn open(app: App, lesson: usize, step: usize) {
    let Some(def) = LESSONS.get(lesson) else {
        return;
    };
    // Lessons open their own scenarios: keep the work from before them.
    if app.before_lessons.with_value(|b| b.is_none()) && !app.model.with_value(|m| m.recorded_only)
    {
        app.before_lessons
            .set_value(Some((app.scenario(), app.t.get_untracked())));
    }
    app.view.set(super::View::Lessons);
    app.lesson.set(Some(lesson));
    app.step.set(step.min(def.steps.len().saturating_sub(1)));
}

/// Leaving the lessons: close the lesson and bring back the work from before.
pub fn leave(app: App) {
    if app.lesson.get_untracked().is_some() {
        browser::replace_hash("");
    }
    app.lesson.set(None);
    app.hold.set(None);
    if let Some((s, t)) = app.before_lessons.try_update_value(|b| b.take()).flatten() {
        if app.load(s, false).is_ok() {
            app.set_t(t);
        }
    }
}

/// Move `by` steps within the open lesson (presenter keys).
pub fn go(app: App, by: i32) {
    let Some(l) = app.lesson.get_untracked() else {
        return;
    };
    let n = LESSONS[l].steps.len() as i32;
    let next = (app.step.get_untracked() as i32 + by).clamp(0, n - 1);
    app.step.set(next as usize);
}

/// A lesson link read (`read_link`): the lesson, the step to show (counting
/// from 0), and what the link asked for that is not there, if anything.
pub struct LessonLink {
    pub lesson: usize,
    pub step: usize,
    pub off: Option<BadRun>,
}

/// `#lesson=ID&step=N` (steps count from 1 in links, as people say them).
/// `None`: not a lesson link; `Err`: no lesson has that id. A step the lesson
/// does not have opens the nearest one (the first for what is not a number)
/// and says so, rather than leaving the reader on whatever was open.
pub fn read_link(fragment: &str) -> Option<Result<LessonLink, BadRun>> {
    let field = |name| super::files::link_field(fragment, name);
    let id = field("lesson")?;
    let Some(lesson) = LESSONS.iter().position(|l| l.id == id) else {
        return Some(Err(BadRun::Lesson(super::files::decoded(id))));
    };
    let of = LESSONS[lesson].steps.len();
    let (step, off) = match field("step").map(|n| (n, n.parse::<usize>())) {
        None => (0, None),
        Some((_, Ok(n))) if (1..=of).contains(&n) => (n - 1, None),
        Some((asked, n)) => {
            // Past the end (a number too big to hold too): the last step.
            let past = match n {
                Ok(n) => n > of,
                Err(_) => !asked.is_empty() && asked.bytes().all(|b| b.is_ascii_digit()),
            };
            let step = if past { of - 1 } else { 0 };
            let off = BadRun::Step {
                asked: super::files::decoded(asked),
                of,
                shown: step + 1,
            };
            (step, Some(off))
        }
    };
    Some(Ok(LessonLink { lesson, step, off }))
}

/// Open a lesson link read by `read_link`, saying what it asked for that is
/// not there.
pub fn open_link(app: App, link: LessonLink) {
    open(app, link.lesson, link.step);
    if let Some(off) = link.off {
        app.toast.set(Some((
            app.lang.get_untracked().speak().bad_run_link(&off),
            false,
        )));
    }
}

/// The lessons as a part of the page (`super::parts`).
pub fn draw(_: super::parts::Piece) -> AnyView {
    view! { <Lessons /> }.into_any()
}

#[component]
pub fn Lessons() -> impl IntoView {
    let app = use_app();
    view! {
        <div class="lessons" data-testid="lessons">
            {move || match app.lesson.get() {
                None => view! { <LessonList /> }.into_any(),
                Some(i) => view! { <Player lesson=i /> }.into_any(),
            }}
        </div>
    }
}

#[component]
fn LessonList() -> impl IntoView {
    let app = use_app();
    let progress = load_progress();
    view! {
        <h2>{move || app.words().lessons_title}</h2>
        <ol class="lesson-list">
            {move || {
                let texts = app.lang.get().lessons();
                LESSONS
                    .iter()
                    .enumerate()
                    .map(|(i, def)| {
                        let t = texts.get(i);
                        let done = done_in(i, &progress);
                        // Begun and not finished: go on at the furthest step
                        // opened (a step counts as done once opened).
                        let next = (0..def.steps.len())
                            .rev()
                            .find(|s| progress.contains(&step_key(i, *s)))
                            .filter(|_| done < def.steps.len());
                        view! {
                            <li class="lesson-card" data-testid=format!("lesson-{}", def.id)>
                                <h3>{t.map(|t| t.title).unwrap_or(def.id)}</h3>
                                <p>{t.map(|t| t.summary).unwrap_or_default()}</p>
                                <p class="small hint">{format!("{done} / {} {}", def.steps.len(), app.words().done)}</p>
                                <button class="btn primary" data-testid=format!("start-{}", def.id) on:click=move |_| open(app, i, next.unwrap_or(0))>
                                    {match next {
                                        // "Continue (Step 3)", "続きから（ステップ 3）".
                                        Some(s) => app.words().continue_lesson.replace("{}", &(s + 1).to_string()),
                                        None => app.words().start_lesson.to_string(),
                                    }}
                                </button>
                            </li>
                        }
                    })
                    .collect_view()
            }}
        </ol>
    }
}

#[component]
fn Player(lesson: usize) -> impl IntoView {
    let app = use_app();
    let def = &LESSONS[lesson];
    let n = def.steps.len();
    // Record the visit, and keep the link in the address bar current.
    Effect::new(move |_| {
        let s = app.step.get();
        mark_done(lesson, s);
        browser::replace_hash(&format!("lesson={}&step={}", def.id, s + 1));
        // Each step opens at its top (the page's scroll used to carry over
        // and hide the step's title, or Back and Next).
        // and, when the focus fell to the page (the Start button that had it
        // is gone), at its title: one Tab from there reaches the step's
        // controls, a question's options first.
        browser::soon(|| {
            browser::scroll_to_top();
            if browser::focus_lost() {
                browser::focus("[data-testid=step-title]");
            }
        });
    });
    let text = move || app.lang.get().lessons().get(lesson);
    view! {
        <div class="player" data-testid="player">
            <nav class="player-nav">
                <button class="btn" data-testid="lessons-home" on:click=move |_| {
                    app.lesson.set(None);
                    app.hold.set(None);
                    browser::replace_hash("");
                }>"☰ " {move || app.words().lessons_title}</button>
                <h2 class="lesson-title">{move || text().map(|t| t.title).unwrap_or(def.id)}</h2>
                <span class="step-count" data-testid="step-count">
                    {move || format!("{} {} / {n}", app.words().step_of, app.step.get() + 1)}
                </span>
                <button class="btn" data-testid="step-link" on:click=move |_| {
                    let link = web_sys::window()
                        .and_then(|w| w.location().href().ok())
                        .unwrap_or_default();
                    app.share.set(Some(link));
                }>{move || app.words().link_to_step}</button>
                <button class="btn" data-testid="step-prev" prop:disabled=move || app.step.get() == 0 on:click=move |_| go(app, -1)>
                    "◀ " {move || app.words().back}
                </button>
                <button class="btn primary" data-testid="step-next" prop:disabled=move || { app.step.get() + 1 >= n } on:click=move |_| go(app, 1)>
                    {move || app.words().next} " ▶"
                </button>
            </nav>
            {move || {
                let s = app.step.get();
                view! { <step::StepView lesson=lesson step=s /> }
            }}
        </div>
    }
}
