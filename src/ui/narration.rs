//! "What just happened": the narration, newest first, each line a link to
//! its moment; and the invariant badges, which turn red — with a jump to the
//! step — when a monitor records a violation.

use super::use_app;
use crate::check::Invariant;
use crate::viz::narrate::Say;
use leptos::prelude::*;

/// How many lines the panel keeps.
const SHOWN: usize = 25;

/// A line as shown: its place in the trace, its moment, its words, whether
/// it is a milestone, whether it is bad news.
type Line = (u64, u64, String, bool, bool);

#[component]
pub fn Narration() -> impl IntoView {
    let app = use_app();
    // Its own memo, so the lines are only re-worded when new ones appear —
    // and while a run plays, at most ten times a second: a playing run may
    // bring several lines a frame, faster than anyone reads them, and each
    // re-wording and each line in and out of the list costs the frame (and
    // a screen reader's patience). Paused, stepped or sought, it is exact.
    let last = StoredValue::new(f64::NEG_INFINITY);
    let upto = Memo::new(move |prev: Option<&usize>| {
        let upto = app.snap.with(|s| s.story_upto);
        let now = super::perf::now();
        match prev {
            Some(&p) if app.playing.get() && upto >= p && now - last.get_value() < 100.0 => p,
            _ => {
                last.set_value(now);
                upto
            }
        }
    });
    // The lines' words are kept from one update to the next: a playing run
    // adds a line or two at a time, and the other two dozen need not be
    // worded again (only a new run or another language words them all).
    let worded_for = StoredValue::new((u64::MAX, app.lang.get_untracked()));
    let lines = Memo::new(move |prev: Option<&Vec<Line>>| {
        let upto = upto.get();
        let lang = app.lang.get();
        let rev = app.rev.get();
        let same = worded_for.get_value() == (rev, lang);
        worded_for.set_value((rev, lang));
        let kept = |seq: u64| {
            prev.filter(|_| same)
                .and_then(|p| p.iter().find(|l| l.0 == seq))
                .map(|l| l.2.clone())
        };
        app.model.with_value(|m| {
            let from = upto.saturating_sub(SHOWN);
            m.story[from..upto]
                .iter()
                .rev()
                .map(|l| {
                    let important = l.is_milestone();
                    let bad = matches!(l.say, Say::Violation { .. })
                        || matches!(
                            l.say,
                            Say::Lease {
                                note: crate::protocol::lease::LeaseNote::WriteRejected { .. },
                                ..
                            }
                        );
                    (
                        l.seq,
                        l.t.0,
                        kept(l.seq).unwrap_or_else(|| lang.tell().say(&m.run.names, &l.say)),
                        important,
                        bad,
                    )
                })
                .collect::<Vec<_>>()
        })
    });
    let list: NodeRef<leptos::html::Ol> = NodeRef::new();
    let drawn = StoredValue::new_local(Drawn::new());
    Effect::new(move |_| {
        let Some(ol) = list.get() else { return };
        let lang = app.lang.get_untracked();
        lines.with(|ls| drawn.update_value(|d| draw(&ol, d, ls, lang)));
    });
    view! {
        <section class="panel narration" aria-labelledby="narration-title">
            <h2 id="narration-title">{move || app.words().narration_title}</h2>
            // One listener for the whole list (a line carries its moment in
            // `data-t`): a playing run adds several lines a frame, and each
            // line's own listener and closures cost more than its text.
            <ol class="lines" data-testid="narration" aria-live="polite" node_ref=list on:click=move |ev: leptos::ev::MouseEvent| {
                use wasm_bindgen::JsCast;
                let line = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).and_then(|e| e.closest("button.line").ok().flatten());
                if let Some(t) = line.and_then(|b| b.get_attribute("data-t")).and_then(|t| t.parse::<u64>().ok()) {
                    app.playing.set(false);
                    app.set_t(t);
                }
            }>
                <Show when=move || lines.with(|l| l.is_empty())>
                    <li class="empty">{move || if super::browser::narrow() { app.words().narration_empty_touch } else { app.words().narration_empty }}</li>
                </Show>
            </ol>
        </section>
    }
}

// The lines are drawn by hand, like the messengers: while proposers duel,
// each update of the list brings a dozen new lines and drops as many, and a
// line made by the view code (its owner, its bindings) cost more than the
// rest of the frame. A line is still kept while it stays in the list, and a
// new one is inserted in its place, so a screen reader hears only the new.
#[wasm_bindgen::prelude::wasm_bindgen(
    inline_js = "export function insert_lines(list, before, markup, count) {
  const t = document.createElement('template');
  t.innerHTML = markup;
  const els = Array.prototype.slice.call(t.content.children, 0, count);
  list.insertBefore(t.content, before);
  return els;
}"
)]
extern "C" {
    fn insert_lines(
        list: &web_sys::Element,
        before: Option<&web_sys::Element>,
        markup: &str,
        count: u32,
    ) -> js_sys::Array;
}

/// A line on screen and its element.
type Drawn = Vec<(Line, web_sys::Element)>;

/// Makes the list on screen show `lines` (newest first), keeping the lines
/// that stay and inserting the new ones where they belong.
fn draw(list: &web_sys::Element, drawn: &mut Drawn, lines: &[Line], lang: crate::i18n::Lang) {
    use wasm_bindgen::JsCast;
    // Gone: remove. What stays is in the same order as `lines`.
    drawn.retain(|(k, el)| {
        let keep = lines.contains(k);
        if !keep {
            el.remove();
        }
        keep
    });
    let mut next = Drawn::with_capacity(lines.len());
    let mut old = std::mem::take(drawn).into_iter().peekable();
    let mut i = 0;
    while i < lines.len() {
        if old.peek().is_some_and(|(k, _)| *k == lines[i]) {
            next.extend(old.next());
            i += 1;
            continue;
        }
        // A run of new lines, inserted in one call before the next kept one.
        let start = i;
        while i < lines.len() && !old.peek().is_some_and(|(k, _)| *k == lines[i]) {
            i += 1;
        }
        let markup: String = lines[start..i]
            .iter()
            .map(|l| line_markup(l, lang))
            .collect();
        let made = insert_lines(
            list,
            old.peek().map(|(_, el)| el),
            &markup,
            (i - start) as u32,
        );
        for (l, el) in lines[start..i].iter().zip(made.iter()) {
            if let Ok(el) = el.dyn_into::<web_sys::Element>() {
                next.push((l.clone(), el));
            }
        }
    }
    *drawn = next;
}

/// One line as markup: a button that carries its moment (`data-t`).
fn line_markup(l: &Line, lang: crate::i18n::Lang) -> String {
    use crate::trace::svg::escape;
    let class = match (l.3, l.4) {
        (true, true) => " class=\"milestone bad\"",
        (true, false) => " class=\"milestone\"",
        (false, true) => " class=\"bad\"",
        (false, false) => "",
    };
    format!(
        "<li{class}><button class=\"line\" data-t=\"{}\"><time>{}</time><span>{}</span></button></li>",
        l.1,
        escape(&lang.tell().duration(l.1)),
        escape(&l.2)
    )
}

#[component]
pub fn Invariants() -> impl IntoView {
    let app = use_app();
    let list = move || {
        match app.model.with_value(|m| m.kind()) {
            crate::protocol::Kind::Paxos => Invariant::PAXOS.to_vec(),
            crate::protocol::Kind::Lease => Invariant::LEASE.to_vec(),
            crate::protocol::Kind::Commit => Invariant::COMMIT.to_vec(),
            crate::protocol::Kind::Multipaxos => {
                let mut l = Invariant::MULTIPAXOS.to_vec();
                // A Chubby cell's file server is fenced by sequencers.
                if app.model.with_value(|m| {
                    m.run
                        .scenario
                        .multipaxos
                        .as_ref()
                        .is_some_and(|x| x.cell.is_some())
                }) {
                    l.push(Invariant::FencingMonotonic);
                }
                l
            }
        }
    };
    let broken_list = Memo::new(move |_| app.snap.with(|s| s.broken.clone()));
    view! {
        <section class="panel invariants" aria-labelledby="inv-title">
            <h2 id="inv-title">{move || app.words().invariants_title}</h2>
            <ul class="badges" data-testid="invariants">
                {move || {
                    app.rev.get();
                    list()
                        .into_iter()
                        .map(|inv| {
                            let broken = move || broken_list.with(|b| b.iter().find(|b| b.0 == inv).map(|b| b.1));
                            view! {
                                <li
                                    class="badge"
                                    class:broken=move || broken().is_some()
                                    data-testid=format!("inv-{}", inv.as_str())
                                    data-state=move || if broken().is_some() { "broken" } else { "ok" }
                                    title=move || app.lang.get().tell().invariant_meaning(inv)
                                >
                                    <span class="mark" aria-hidden="true">{move || if broken().is_some() { "✕" } else { "✓" }}</span>
                                    <span class="name">{move || app.lang.get().tell().invariant(inv)}</span>
                                    <span class="sr-only">
                                        {move || if broken().is_some() { app.words().inv_broken } else { app.words().inv_ok }}
                                    </span>
                                    {move || {
                                        broken()
                                            .map(|t| {
                                                view! {
                                                    <button class="jump" on:click=move |_| {
                                                        app.playing.set(false);
                                                        app.set_t(t);
                                                    }>{app.words().inv_jump}</button>
                                                }
                                            })
                                    }}
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ul>
            <FutureViolation />
        </section>
    }
}

/// If the run will break an invariant later, say when (a mutation demo).
#[component]
fn FutureViolation() -> impl IntoView {
    let app = use_app();
    // Its own memo: the cursor moves every frame, the next violation rarely.
    let next = app.frame_memo(move |t| {
        app.rev.track();
        app.model
            .with_value(|m| m.broken.iter().find(|b| b.1 > t).copied())
    });
    move || {
        next.get().map(|(inv, at, _)| {
            view! {
                <p class="future" data-testid="future-violation">
                    <button class="jump" on:click=move |_| {
                        app.playing.set(false);
                        app.set_t(at);
                    }>
                        {format!("✕ {} @ {}", app.lang.get().tell().invariant(inv), app.lang.get().tell().duration(at))}
                    </button>
                </p>
            }
        })
    }
}
