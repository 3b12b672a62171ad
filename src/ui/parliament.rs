//! The parliament: legislators on a semicircle with their ledgers, and the
//! messengers walking between them. Everything drawn comes from the snapshot.

use super::use_app;
use crate::float::{coord, fixed};
use crate::protocol::paxos::{Choice, PaxosMsg};
use crate::protocol::Msg;
use crate::viz::palette;
use crate::viz::parliament::{Layout, Messenger, SeatStatus, SEAT_R};
use leptos::prelude::*;

fn names() -> Vec<String> {
    use_app().model.with_value(|m| m.run.names.to_vec())
}

/// "1a (3,Α)", "1b (3,Α) β", "2a α", "2b α", "3 α".
pub fn messenger_label(names: &[String], m: &Msg) -> String {
    let b = |b: crate::protocol::paxos::Ballot| {
        format!(
            "({},{})",
            b.round,
            names.get(b.node.index()).map(String::as_str).unwrap_or("?")
        )
    };
    match m {
        Msg::Paxos(p) => match *p {
            PaxosMsg::Prepare { ballot } => format!("1a {}", b(ballot)),
            PaxosMsg::Promise { ballot, last_vote } => match last_vote {
                Some(v) => format!("1b {} {}:{}", b(ballot), b(v.ballot), v.value),
                None => format!("1b {}", b(ballot)),
            },
            PaxosMsg::Accept { ballot, value } => format!("2a {} {value}", b(ballot)),
            PaxosMsg::Accepted { ballot, value } => format!("2b {} {value}", b(ballot)),
            PaxosMsg::Decided { value, .. } => format!("3 {value}"),
        },
        // The chamber draws Paxos runs only (the other protocols have views
        // of their own, in their parts): their labels stay with them.
        other => other.type_name().to_string(),
    }
}

fn find(ms: &[Messenger], id: u64) -> Option<&Messenger> {
    ms.binary_search_by_key(&id, |m| m.id).ok().map(|i| &ms[i])
}

#[component]
pub fn Parliament() -> impl IntoView {
    let app = use_app();
    let layout = move || {
        app.rev.get();
        app.model.with_value(|m| m.layout.clone())
    };
    // A memo: the seats are counted again at every event, but the list of
    // legislators is drawn again only when their number (or the run) changes.
    let n = Memo::new(move |_| app.snap.with(|s| s.seats.len()));
    // On a phone, in presenter mode for the back row and with large type,
    // the chamber shows its seats larger and the ledgers are listed under it
    // in the page's (large) type: drawn on their cards they would be a few
    // pixels high.
    let narrow = super::browser::narrow();
    let compact = move || narrow || app.presenter.get() || app.large.get();
    view! {
        <svg
            class="parliament"
            class:narrow=compact
            viewBox=move || if compact() { layout().seats_view_box() } else { layout().view_box() }
            // A group, not an image: the seats inside are buttons.
            role="group"
            aria-label=move || app.words().view_parliament
            data-testid="parliament"
        >
            <defs>
                <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                    <path d={"M 0 0 L 10 5 L 0 10 z"} fill="currentColor" />
                </marker>
            </defs>
            <path class="floor" d=move || layout().floor_path() fill="none" />
            <Quorum />
            <ForcedLine />
            // Beneath the legislators: a messenger just sent sits under its
            // sender's seat instead of covering the sender's name.
            <Messengers />
            // Drawn again for a new run (or a new number of seats), as a keyed
            // list re-keyed by the run did: without `<For>`, whose keyed diff
            // (~4 KB gzip) the first load then does without.
            {move || {
                let l = layout();
                (0..n.get()).map(|i| view! { <Legislator i=i layout=l.clone() /> }).collect_view()
            }}
            <Banner />
        </svg>
        <Show when=compact><LedgerList /></Show>
    }
}

#[component]
fn Banner() -> impl IntoView {
    let app = use_app();
    let mid = move || app.model.with_value(|m| coord(m.layout.width / 2.0));
    let chosen = Memo::new(move |_| app.snap.with(|s| (s.chosen, s.also)));
    let at_start = app.frame_memo(|t| t == 0);
    view! {
        <g class="banner" data-testid="banner">
            {move || {
                let w = app.words();
                match chosen.get() {
                    // A question is open: "Decree passed" would answer it.
                    (Some(_), _) if app.hold.get().is_some() => ().into_any(),
                    // Two decrees: the banner must not say one passed.
                    (Some((v, _)), Some((v2, _))) => {
                        view! {
                            <text x=mid() y=40 class="banner-text broken" data-testid="decided" data-value=v.to_string()>
                                {format!("{}: {v}, {v2}", w.two_decrees_banner)}
                            </text>
                        }
                            .into_any()
                    }
                    (Some((v, _)), None) => {
                        view! {
                            <text x=mid() y=40 class="banner-text passed" data-testid="decided" data-value=v.to_string()>
                                {format!("{}: {}", w.decided_banner, v)}
                            </text>
                        }
                            .into_any()
                    }
                    (None, _) if at_start.get() && app.model.with_value(|m| m.is_paxos()) => {
                        view! {
                            <text x=mid() y=40 class="banner-text hint">
                                {if super::browser::narrow() { w.tap_play } else { w.press_space }}
                            </text>
                        }
                            .into_any()
                    }
                    (None, _) => view! { <text x=mid() y=40 class="banner-text muted">{w.no_decision}</text> }.into_any(),
                }
            }}
        </g>
    }
}

/// A ledger's three lines as words: the promise and the last vote (notes at
/// the back), and the decree in ink.
fn ledger_lines(
    app: super::App,
    names: &[String],
    s: &crate::viz::parliament::Seat,
) -> (String, String, String) {
    let speak = app.lang.get().speak();
    let wd = app.words();
    let promised = s
        .max_bal
        .map(|b| speak.ballot(names, b))
        .unwrap_or_else(|| wd.nothing_yet.into());
    let vote = s
        .last_vote
        .map(|v| format!("{} {}", speak.ballot(names, v.ballot), v.value))
        .unwrap_or_else(|| wd.not_voted.into());
    let learned = s
        .learned
        .map(|v| v.to_string())
        .unwrap_or_else(|| wd.nothing_yet.into());
    (promised, vote, learned)
}

/// On a phone, the ledgers as a list under the seats, in the page's type
/// size; a row selects its legislator like a tap on the seat.
#[component]
fn LedgerList() -> impl IntoView {
    let app = use_app();
    let rows = Memo::new(move |_| {
        // A new run may bring new names with the same seats.
        app.rev.track();
        let names = names();
        app.snap.with(|s| {
            s.seats
                .iter()
                .enumerate()
                .map(|(i, seat)| {
                    (
                        i,
                        names.get(i).cloned().unwrap_or_default(),
                        ledger_lines(app, &names, seat),
                        seat.status.clone(),
                    )
                })
                .collect::<Vec<_>>()
        })
    });
    // The selected legislator's Crash or Restart, right under the chamber
    // (the inspector is far down a phone's page).
    let actions = move || {
        let i = app.selected.get()?;
        let (_, name, _, status) = rows.with(|r| r.get(i as usize).cloned())?;
        let w = app.words();
        let node = name.clone();
        Some(view! {
            <div class="row-actions" data-testid="row-actions">
                <strong class="seat-name">{name}</strong>
                {if matches!(status, SeatStatus::Away) {
                    view! { <button class="btn" data-testid="row-restart" on:click=move |_| app.inject(crate::sim::fault::Fault::Restart { node: node.clone() })>{w.restart}</button> }.into_any()
                } else {
                    view! { <button class="btn danger" data-testid="row-crash" on:click=move |_| app.inject(crate::sim::fault::Fault::Crash { node: node.clone() })>{w.crash}</button> }.into_any()
                }}
                <button class="btn" on:click=move |_| app.selected.set(None)>{w.close}</button>
            </div>
        })
    };
    view! {
        {actions}
        <ul class="ledger-list" data-testid="ledger-list">
            {move || {
                let w = app.words();
                rows.get()
                    .into_iter()
                    .map(|(i, name, (promised, vote, learned), status)| {
                        let status = match status {
                            SeatStatus::Present => "",
                            SeatStatus::Away => w.away,
                            SeatStatus::Asleep { .. } => w.asleep,
                        };
                        view! {
                            <li>
                                <button class="ledger-row" data-testid=format!("ledger-row-{i}") class:selected=move || app.selected.get() == Some(i as u8)
                                    on:click=move |_| app.selected.set(Some(i as u8))>
                                    <strong class="seat-name">{name}</strong>
                                    <span class="small">{format!("{} {} · {} {}", w.promised, promised, w.last_vote, vote)}</span>
                                    <span class="ink">{format!("{} {}", w.learned, learned)}</span>
                                    <span class="small hint">{status}</span>
                                </button>
                            </li>
                        }
                    })
                    .collect_view()
            }}
        </ul>
    }
}

/// What a seat shows, as words: worked out once per change of the seat (or
/// of the language) by [`Legislator`]'s one effect.
#[derive(Clone, PartialEq, Default)]
struct SeatWords {
    status: SeatStatus,
    roles: (bool, bool, bool),
    /// The ledger's three lines, each with its heading.
    lines: [String; 3],
    pencil: Option<String>,
    /// The seat button's label: name, roles, state and the ledger.
    label: String,
}

fn seat_words(
    app: super::App,
    names: &[String],
    i: usize,
    s: &crate::viz::parliament::Seat,
) -> SeatWords {
    let wd = app.words();
    let name = names.get(i).map(String::as_str).unwrap_or_default();
    let (promised, vote, decree) = ledger_lines(app, names, s);
    let roles = (s.proposer, s.acceptor, s.learner);
    let r: Vec<&str> = [
        (roles.0, wd.proposer),
        (roles.1, wd.acceptor),
        (roles.2, wd.learner),
    ]
    .into_iter()
    .filter_map(|(on, w)| on.then_some(w))
    .collect();
    let st = match s.status {
        SeatStatus::Present => wd.present_in_chamber,
        SeatStatus::Away => wd.away,
        SeatStatus::Asleep { .. } => wd.asleep,
    };
    // The ledger is drawn for the eye and hidden from a screen reader: its
    // lines are said here, after the seat's name (the only text of the
    // button it can see).
    let label = format!(
        "{name}: {} — {st}. {} {promised}; {} {vote}; {} {decree}",
        r.join(", "),
        wd.promised,
        wd.last_vote,
        wd.learned
    );
    SeatWords {
        status: s.status.clone(),
        roles,
        lines: [
            format!("{} {promised}", wd.promised),
            format!("{} {vote}", wd.last_vote),
            format!("{} {decree}", wd.learned),
        ],
        pencil: s
            .pencil
            .as_ref()
            .map(|p| app.lang.get_untracked().speak().pencil(names, p)),
        label,
    }
}

#[component]
fn Legislator(i: usize, layout: Layout) -> impl IntoView {
    let app = use_app();
    let names = names();
    let name = names.get(i).cloned().unwrap_or_default();
    let seat_pt = layout.seats[i];
    let card = layout.ledgers[i];
    let (w, h) = (layout.ledger_w, layout.ledger_h);
    // One effect per seat turns the snapshot into words, and only when this
    // seat (or the language) changed; each piece the page shows is a signal
    // set only when it changed. A chain of memos per seat (the seat, its
    // state, its ink, each line, its pencil, its roles) was checked for every
    // seat at every event, and cost more than the words themselves.
    let names2 = names.clone();
    let words_of = move |seat: Option<&crate::viz::parliament::Seat>| {
        seat.map(|s| seat_words(app, &names2, i, s))
            .unwrap_or_default()
    };
    let seat0 = app.snap.with_untracked(|s| s.seats.get(i).cloned());
    let first = words_of(seat0.as_ref());
    let status = RwSignal::new(first.status);
    let roles = RwSignal::new(first.roles);
    let lines = first.lines.map(RwSignal::new);
    let pencil = RwSignal::new(first.pencil);
    let label = RwSignal::new(first.label);
    let drawn = StoredValue::new((seat0, app.lang.get_untracked()));
    Effect::new(move |_| {
        let lang = app.lang.get();
        let changed = app.snap.with(|s| {
            let seat = s.seats.get(i);
            drawn.with_value(|(d, l)| d.as_ref() != seat || *l != lang)
        });
        if !changed {
            return;
        }
        let seat = app.snap.with_untracked(|s| s.seats.get(i).cloned());
        let words = words_of(seat.as_ref());
        drawn.set_value((seat, lang));
        super::publish(status, words.status);
        super::publish(roles, words.roles);
        for (sig, line) in lines.iter().zip(words.lines) {
            super::publish(*sig, line);
        }
        super::publish(pencil, words.pencil);
        super::publish(label, words.label);
    });
    let away = move || matches!(status.get(), SeatStatus::Away);
    let asleep = move || matches!(status.get(), SeatStatus::Asleep { .. });
    let selected = move || app.selected.get() == Some(i as u8);
    // Clicking a selected seat keeps it selected: a second click used to hide
    // the Crash and Restart buttons under the user's finger. Escape (or the
    // inspector's close button) deselects.
    let select = move || app.selected.set(Some(i as u8));
    view! {
        <g
            class="legislator"
            class:away=away
            class:asleep=asleep
            class:selected=selected
            data-testid=format!("seat-{i}")
            data-name=name.clone()
            data-status=move || match status.get() {
                SeatStatus::Present => "present",
                SeatStatus::Away => "away",
                SeatStatus::Asleep { .. } => "asleep",
            }
            on:click=move |_| select()
        >
            // Ledger card, as Lamport keeps it: the notes at the back (promise,
            // last vote — stable, but crossed out and rewritten), the decree in
            // ink (never changed), and the pencil slip (volatile) below.
            <g class="ledger" aria-hidden="true" transform=format!("translate({},{})", coord(card.x - w / 2.0), coord(card.y - h / 2.0))>
                <rect class="ledger-card" width=coord(w) height=coord(h) rx=6 />
                <text class="back-note small" x=8 y=18>
                    <title>{move || app.words().back_notes}</title>
                    {move || lines[0].get()}
                </text>
                <text class="back-note small" x=8 y=36 data-testid=format!("vote-{i}")>
                    <title>{move || app.words().back_notes}</title>
                    {move || lines[1].get()}
                </text>
                <line class="ledger-rule" x1=6 y1=41 x2=coord(w - 6.0) y2=41 />
                <text class="ink decree" x=8 y=57 data-testid=format!("learned-{i}")>
                    <title>{move || app.words().ink}</title>
                    {move || lines[2].get()}
                </text>
                // One slip, shown, hidden and re-written in place.
                <g class="pencil" visibility=move || if pencil.with(Option::is_none) { "hidden" } else { "visible" }>
                    <rect x=4 y=62 width=coord(w - 8.0) height=18 rx=3 />
                    <text class="small" x=8 y=75>{move || pencil.get().unwrap_or_default()}</text>
                </g>
            </g>
            <line class="tether" x1=coord(seat_pt.x) y1=coord(seat_pt.y) x2=coord(card.x) y2=coord(card.y) />
            // The button is the seat alone: its visible text is the name, and
            // its label starts with it and says the roles, the state and the
            // ledger (drawn beside it, hidden from a screen reader). The whole
            // group, ledger card included, still takes a click.
            <g
                class="seat-button"
                tabindex="0"
                role="button"
                aria-label=label
                aria-pressed=move || selected().to_string()
                on:keydown=move |e: web_sys::KeyboardEvent| {
                    if e.key() == "Enter" {
                        e.prevent_default();
                        select();
                    }
                }
            >
                <circle class="seat" cx=coord(seat_pt.x) cy=coord(seat_pt.y) r=coord(SEAT_R) />
                <text class="seat-name" x=coord(seat_pt.x) y=coord(seat_pt.y + 11.0)>{name.clone()}</text>
                <RoleMarks x=seat_pt.x y=seat_pt.y roles=roles.into() />
            </g>
            {move || match status.get() {
                SeatStatus::Away => {
                    view! {
                        <g class="door" aria-hidden="true">
                            <rect x=coord(seat_pt.x + 18.0) y=coord(seat_pt.y - 44.0) width=18 height=28 rx=2 />
                            <circle cx=coord(seat_pt.x + 32.0) cy=coord(seat_pt.y - 30.0) r=2 />
                        </g>
                    }
                        .into_any()
                }
                SeatStatus::Asleep { until_us } => {
                    // The countdown is the only thing here that moves with
                    // the cursor: a frame memo, so the seat stays still.
                    let left = app.frame_memo(move |t| until_us.saturating_sub(t));
                    // Beside the seat, on the side away from its ledger card
                    // (above it, the card of a seat at the top).
                    let (x, anchor) = if card.x > seat_pt.x + 1.0 {
                        (seat_pt.x - SEAT_R - 6.0, "end")
                    } else {
                        (seat_pt.x + SEAT_R + 6.0, "start")
                    };
                    view! {
                        <g class="zzz" aria-hidden="true" text-anchor=anchor>
                            <text x=coord(x) y=coord(seat_pt.y - 6.0)>"z z z"</text>
                            <text class="small countdown" x=coord(x) y=coord(seat_pt.y + 12.0)>
                                {move || app.lang.get().speak().duration(left.get())}
                            </text>
                        </g>
                    }
                        .into_any()
                }
                SeatStatus::Present => ().into_any(),
            }}
        </g>
    }
}

/// Quill (proposer), ballot box (acceptor), book (learner), drawn small
/// under the seat so the roles can be told apart without colour.
#[component]
fn RoleMarks(x: f64, y: f64, roles: Signal<(bool, bool, bool)>) -> impl IntoView {
    let app = use_app();
    view! {
        <g class="roles" transform=format!("translate({},{})", coord(x - 27.0), coord(y + 36.0))>
            {move || {
                let (p, a, l) = roles.get();
                let w = app.words();
                let mut out = Vec::new();
                let mut dx = 0;
                if p {
                    out.push(view! {
                        <g class="role-quill" transform=format!("translate({dx},0)")>
                            <title>{w.proposer}</title>
                            <path d={"M2 14 L14 2 L16 4 L4 16 Z M2 14 L1 17 L4 16"} />
                        </g>
                    }.into_any());
                    dx += 19;
                }
                if a {
                    out.push(view! {
                        <g class="role-box" transform=format!("translate({dx},0)")>
                            <title>{w.acceptor}</title>
                            <rect x=1 y=5 width=15 height=11 rx=1 />
                            <line x1=5 y1=8 x2=12 y2=8 />
                        </g>
                    }.into_any());
                    dx += 19;
                }
                if l {
                    out.push(view! {
                        <g class="role-book" transform=format!("translate({dx},0)")>
                            <title>{w.learner}</title>
                            <path d={"M1 4 L8 6 L15 4 L15 15 L8 17 L1 15 Z M8 6 L8 17"} />
                        </g>
                    }.into_any());
                }
                out
            }}
        </g>
    }
}

/// The messengers, drawn imperatively: hundreds of them move every frame,
/// and one call from the frame that sets their positions directly is far
/// cheaper than hundreds of reactive closures each subscribed to the snapshot.
#[component]
fn Messengers() -> impl IntoView {
    let app = use_app();
    let layer: NodeRef<leptos::svg::G> = NodeRef::new();
    // The ids of the messengers on screen, in order (their elements live on
    // the JavaScript side, by id).
    let drawn = StoredValue::new_local(Vec::<u64>::new());
    let names = StoredValue::new(Vec::<String>::new());
    // The run they belong to (`rev`): ids start again in every run.
    let drawn_rev = StoredValue::new(None::<u64>);
    // They move with every frame: the frame draws them (`App::on_frame`).
    let draw = move |t: u64| {
        let Some(g) = layer.get_untracked() else {
            return;
        };
        let rev = app.rev.get_untracked();
        if drawn_rev.get_value() != Some(rev) {
            // A new run: start from an empty layer.
            let gone: Vec<f64> = drawn.with_value(|d| d.iter().map(|&id| id as f64).collect());
            sync(&g, &gone, "", &[], &[], &[], &[]);
            drawn.update_value(|d| d.clear());
            names.set_value(app.model.with_value(|m| m.run.names.to_vec()));
            drawn_rev.set_value(Some(rev));
        }
        let ms = app.model.with_value(|m| m.messengers(t));
        drawn.update_value(|d| names.with_value(|n| update(&g, d, &ms, n)));
    };
    // The first ones, and a new run's when no new time follows it.
    app.on_frame_and(draw, move || {
        app.rev.track();
        layer.get().is_some()
    });
    view! { <g class="messengers" data-testid="messengers" node_ref=layer></g> }
}

// A frame's messengers cost one call: the ids gone, the markup of the new
// ones (parsed once, in order), and every messenger's id, position and fade
// go over as numbers; the elements are found by id on the JavaScript side.
// (A call per element, or an array of elements built each frame, cost more
// than moving them.)
//
// Each messenger keeps its element and its `translate` as an `SVGTransform`:
// moving it is `setTranslate(x, y)`, with no string to build or parse — a
// `setAttribute('transform', …)` per messenger per frame was a quarter of a
// busy frame's script.
#[wasm_bindgen::prelude::wasm_bindgen(inline_js = "const layers = new WeakMap();
export function sync(layer, gone, markup, fresh, ids, xy, fade) {
  let els = layers.get(layer);
  if (!els) { els = new Map(); layers.set(layer, els); }
  if (gone.length && gone.length === els.size) {
    // All of them (a seek far away): one call empties the layer.
    layer.replaceChildren();
    els.clear();
  } else {
    for (const id of gone) { const m = els.get(id); if (m) { m.el.remove(); els.delete(id); } }
  }
  if (fresh.length) {
    const before = layer.childElementCount;
    layer.insertAdjacentHTML('beforeend', markup);
    const kids = layer.children;
    for (let i = 0; i < fresh.length; i++) {
      const el = kids[before + i];
      el.setAttribute('transform', 'translate(0,0)');
      els.set(fresh[i], { el, tr: el.transform.baseVal.getItem(0), fade: -1 });
    }
  }
  for (let i = 0; i < ids.length; i++) {
    const m = els.get(ids[i]);
    if (!m) continue;
    m.tr.setTranslate(xy[2 * i], xy[2 * i + 1]);
    const f = fade[i];
    if (f >= 0 && Math.abs(f - m.fade) >= 0.01) {
      m.el.setAttribute('opacity', f.toFixed(2));
      if (m.fade < 0) m.el.classList.add('lost');
      m.fade = f;
    }
  }
}")]
extern "C" {
    fn sync(
        layer: &web_sys::SvgElement,
        gone: &[f64],
        markup: &str,
        fresh: &[f64],
        ids: &[f64],
        xy: &[f64],
        fade: &[f64],
    );
}

fn update(layer: &web_sys::SvgElement, drawn: &mut Vec<u64>, ms: &[Messenger], names: &[String]) {
    let mut gone = Vec::new();
    drawn.retain(|&id| {
        let keep = find(ms, id).is_some();
        if !keep {
            gone.push(id as f64);
        }
        keep
    });
    let fresh: Vec<&Messenger> = ms
        .iter()
        .filter(|m| drawn.binary_search(&m.id).is_err())
        .collect();
    let markup: String = fresh.iter().map(|m| markup(m, names)).collect();
    let fresh: Vec<f64> = fresh.iter().map(|m| m.id as f64).collect();
    // On screen now: every messenger of this instant, kept or fresh, in
    // the order of `ms` (by id).
    drawn.clear();
    drawn.extend(ms.iter().map(|m| m.id));
    let ids: Vec<f64> = ms.iter().map(|m| m.id as f64).collect();
    let xy: Vec<f64> = ms.iter().flat_map(|m| [m.at.x, m.at.y]).collect();
    // A lost messenger fades as it falls (-1: not falling).
    let fade: Vec<f64> = ms
        .iter()
        .map(|m| m.falling.map_or(-1.0, |k| 1.0 - k))
        .collect();
    sync(layer, &gone, &markup, &fresh, &ids, &xy, &fade);
}

/// One messenger as SVG markup (parsed inside the `<g>` layer, so in the SVG
/// namespace).
fn markup(m: &Messenger, names: &[String]) -> String {
    let label = messenger_label(names, &m.msg);
    let colour = palette::message_colour(&m.msg);
    let width = 14.0 + 7.2 * label.chars().count() as f64;
    let kind = m.msg.type_name();
    let ink = if colour == palette::BLACK || colour == palette::BLUE {
        "#fff"
    } else {
        "#000"
    };
    let mut s = format!(
        "<g class=\"messenger {kind}\" data-testid=\"messenger\" data-kind=\"{kind}\" data-to=\"{}\">\
         <g class=\"m-body\"><rect x=\"{}\" y=\"-12\" width=\"{}\" height=\"24\" rx=\"5\" fill=\"{colour}\"/>\
         <text class=\"messenger-label\" x=\"0\" y=\"5\" fill=\"{ink}\">{}</text>",
        m.to.index(),
        fixed(-width / 2.0, 1),
        fixed(width, 1),
        crate::trace::svg::escape(&label)
    );
    if m.duplicate {
        s += &format!(
            "<text class=\"dup\" x=\"{}\" y=\"-8\">×2</text>",
            fixed(width / 2.0 + 3.0, 1)
        );
    }
    if m.blocked {
        s += "<text class=\"blocked\" x=\"0\" y=\"-16\">✕</text>";
    }
    s + "</g></g>"
}

#[component]
fn Quorum() -> impl IntoView {
    let app = use_app();
    let quorum = Memo::new(move |_| app.snap.with(|s| s.quorum.clone()));
    // The hull is one element, moved and re-coloured as the quorum changes —
    // while proposers duel it changes several times a second, and building
    // a new element each time cost more than the rest of the frame.
    let hull = Memo::new(move |_| {
        app.rev.get();
        quorum.with(|q| {
            let q = q.as_ref()?;
            let points = app.model.with_value(|m| {
                q.members
                    .iter()
                    .filter_map(|n| m.layout.seats.get(n.index()))
                    .map(|p| format!("{},{}", fixed(p.x, 1), fixed(p.y, 1)))
                    .collect::<Vec<_>>()
                    .join(" ")
            });
            Some((points, format!("hull phase-{}", q.phase), q.members.len()))
        })
    });
    // The legislators a quorum shares with the last one: rings, re-drawn
    // only when that set changes.
    let shared = Memo::new(move |_| {
        app.rev.get();
        quorum.with(|q| {
            q.as_ref()
                .map(|q| {
                    app.model.with_value(|m| {
                        q.shared
                            .iter()
                            .filter_map(|n| m.layout.seats.get(n.index()))
                            .map(|p| (p.x, p.y))
                            .collect::<Vec<_>>()
                    })
                })
                .unwrap_or_default()
        })
    });
    view! {
        <g class="quorum" data-testid="quorum">
            <polyline
                class=move || hull.with(|h| h.as_ref().map(|h| h.1.clone())).unwrap_or_else(|| "hull".into())
                points=move || hull.with(|h| h.as_ref().map(|h| h.0.clone())).unwrap_or_default()
                data-members=move || hull.with(|h| h.as_ref().map(|h| h.2))
                visibility=move || if hull.with(Option::is_none) { "hidden" } else { "visible" }
            />
            {move || {
                shared
                    .get()
                    .into_iter()
                    .map(|(x, y)| view! { <circle class="shared-ring" cx=coord(x) cy=coord(y) r=42 /> })
                    .collect_view()
            }}
        </g>
    }
}

#[component]
fn ForcedLine() -> impl IntoView {
    let app = use_app();
    // Where the line goes and what it says, a memo: the marks change with
    // every vote, the forced choice on the floor far less often.
    let line = Memo::new(move |_| {
        app.rev.get();
        app.snap.with(|s| {
            let pick = s.pick.as_ref()?;
            // Only while that ballot is the one on the floor.
            if s.quorum.as_ref().map(|q| q.ballot) != Some(pick.ballot) {
                return None;
            }
            let (Choice::Forced { voter, .. } | Choice::NotHighest { voter, .. }) = pick.choice
            else {
                return None;
            };
            app.model.with_value(|m| {
                let (a, b) = (
                    m.layout.seats.get(voter.index())?,
                    m.layout.seats.get(pick.proposer.index())?,
                );
                Some((a.x, a.y, b.x, b.y, format!("B3 → {}", pick.value)))
            })
        })
    });
    view! {
        <g class="forced" data-testid="forced">
            {move || {
                line.get().map(|(x1, y1, x2, y2, label)| view! {
                    <line class="forced-line" x1=coord(x1) y1=coord(y1) x2=coord(x2) y2=coord(y2) />
                    <text class="forced-label" x=coord((x1 + x2) / 2.0) y=coord((y1 + y2) / 2.0 - 6.0)>{label}</text>
                })
            }}
        </g>
    }
}
