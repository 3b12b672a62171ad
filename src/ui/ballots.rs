//! The editable ballot explorer: Lamport's Figure 1 as a table the learner
//! edits, with B1, B2 and B3 (and Theorem 1) checked by the core on every
//! keystroke. Ballot 29's voters are a reconstruction and say so.

use super::{browser, use_app};
use crate::i18n::BallotFinding as F;
use crate::scenario::ballots::link::{self, LinkRow};
use crate::scenario::ballots::{
    check_with, figure1, figure1_priests, BallotRow, InputError, Remark, B3,
};
use crate::sorted::VecSet;
use leptos::prelude::*;
use std::cell::RefCell;

thread_local! {
    /// The Ballots tab's table as the learner left it: it outlives the tab
    /// (another tab and back, a lesson and back), not the page. A lesson's
    /// stage starts from Figure 1.
    static KEPT: RefCell<Option<Vec<Edit>>> = const { RefCell::new(None) };
    /// The last table link read (`#ballots=…`): a link stays in the address
    /// bar, and coming back to the tab must not read it over the edits again.
    static READ: RefCell<String> = const { RefCell::new(String::new()) };
    /// Rings when the kept table changes, for what shows its link (the
    /// presenter's QR code).
    static CHANGED: ArcTrigger = ArcTrigger::new();
}

/// Track the kept table: a reactive reader of `link()` runs again when the
/// table changes.
pub fn track() {
    CHANGED.with(|c| c.track());
}

/// The link of the Ballots tab's table as it is now.
pub fn link() -> String {
    let rows = KEPT
        .with_borrow(|k| k.clone())
        .unwrap_or_else(|| edits_of(figure1()));
    let roster = figure1_priests();
    let set = |s: &VecSet<String>| {
        roster
            .iter()
            .enumerate()
            .filter(|(_, p)| s.contains(&p.0))
            .fold(0u32, |m, (i, _)| m | 1 << i)
    };
    let rows: Vec<LinkRow> = rows
        .iter()
        .map(|e| LinkRow {
            number: e.number.clone(),
            decree: e.decree.clone(),
            quorum: set(&e.quorum),
            voters: set(&e.voters),
        })
        .collect();
    format!(
        "{}#{}{}",
        super::files::page_base(),
        super::files::BALLOTS_LINK,
        link::encode(&rows)
    )
}

/// The table of the link in the address bar, if there is one not read yet:
/// `Err` says why it cannot be read (the table on screen stays).
fn from_address() -> Option<Result<Vec<Edit>, link::LinkError>> {
    let hash = browser::hash();
    let text = hash.strip_prefix(super::files::BALLOTS_LINK)?;
    if READ.with_borrow(|r| *r == hash) {
        return None;
    }
    READ.set(hash.clone());
    let roster = figure1_priests();
    // Figure 1's ballot 29 keeps its note that its voters are a
    // reconstruction, while they are still those voters.
    let reconstructed: Vec<Edit> = edits_of(figure1())
        .into_iter()
        .filter(|e| e.reconstructed)
        .collect();
    let set = |m: u32| -> VecSet<String> {
        roster
            .iter()
            .enumerate()
            .filter(|(k, _)| m & (1 << k) != 0)
            .map(|(_, p)| p.0.clone())
            .collect()
    };
    Some(link::decode(text, roster.len()).map(|rows| {
        rows.into_iter()
            .enumerate()
            .map(|(i, r)| {
                let mut e = Edit {
                    key: i as u32,
                    number: r.number,
                    decree: r.decree,
                    quorum: set(r.quorum),
                    voters: set(r.voters),
                    reconstructed: false,
                };
                e.reconstructed = reconstructed
                    .iter()
                    .any(|x| (&x.number, &x.voters) == (&e.number, &e.voters));
                e
            })
            .collect()
    }))
}

/// A row as typed (the number may not be a number yet).
#[derive(Clone, Debug, PartialEq)]
struct Edit {
    key: u32,
    number: String,
    decree: String,
    quorum: VecSet<String>,
    voters: VecSet<String>,
    reconstructed: bool,
}

fn edits_of(rows: Vec<BallotRow>) -> Vec<Edit> {
    rows.into_iter()
        .enumerate()
        .map(|(i, r)| Edit {
            key: i as u32,
            number: r.number.to_string(),
            decree: r.decree.0,
            quorum: r.quorum.into_iter().map(|p| p.0).collect(),
            voters: r.voters.into_iter().map(|p| p.0).collect(),
            reconstructed: r.reconstructed,
        })
        .collect()
}

/// Per-row findings, then the table-wide ones.
fn findings(edits: &[Edit]) -> (Vec<Vec<F>>, Vec<F>) {
    let mut per_row = vec![Vec::new(); edits.len()];
    let mut global = Vec::new();
    // Rows whose number is not a number are left out of the check.
    let mut index = Vec::new();
    let mut rows = Vec::new();
    for (i, e) in edits.iter().enumerate() {
        match e.number.trim().parse::<i64>() {
            Ok(n) => {
                index.push(i);
                let q: Vec<&str> = e.quorum.iter().map(String::as_str).collect();
                let v: Vec<&str> = e.voters.iter().map(String::as_str).collect();
                rows.push(BallotRow::new(n, &e.decree, &q, &v));
            }
            Err(_) => per_row[i].push(F::BadNumber {
                typed: e.number.clone(),
            }),
        }
    }
    let report = check_with(&figure1_priests(), &rows);
    let num = |r: usize| rows[r].number;
    for err in &report.errors {
        match err {
            InputError::EmptyQuorum { row } => per_row[index[*row]].push(F::EmptyQuorum {
                number: num(*row).to_string(),
            }),
            InputError::EmptyDecree { row } => per_row[index[*row]].push(F::EmptyDecree {
                number: num(*row).to_string(),
            }),
            InputError::UnknownPriest { .. } => {}
        }
    }
    for r in &report.remarks {
        let Remark::VoterOutsideQuorum { row, priest } = r;
        per_row[index[*row]].push(F::VoterOutsideQuorum {
            number: num(*row),
            priest: priest.0.clone(),
        });
    }
    for rr in &report.rows {
        let i = index[rr.row];
        per_row[i].insert(
            0,
            match &rr.b3 {
                B3::Free => F::Free,
                B3::Forced { by, satisfied } => F::Forced {
                    by: by.number,
                    decree: by.decree.0.clone(),
                    voters: by
                        .voters
                        .iter()
                        .map(|p| p.0.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                    satisfied: *satisfied,
                    ambiguous: by.ambiguous,
                },
            },
        );
        if rr.successful {
            per_row[i].push(F::Successful);
        }
    }
    if report.b1.is_empty() {
        global.push(F::B1Holds);
    }
    for d in &report.b1 {
        global.push(F::B1Duplicate {
            number: d.number,
            count: d.rows.len(),
        });
    }
    if report.b2.is_empty() {
        global.push(F::B2Holds);
    }
    for p in &report.b2 {
        global.push(F::B2Disjoint {
            a: num(p.first),
            b: num(p.second),
        });
    }
    // B3 named in the list too (each row says its own case).
    let broken: Vec<String> = report
        .rows
        .iter()
        .filter(|r| {
            matches!(
                r.b3,
                B3::Forced {
                    satisfied: false,
                    ..
                }
            )
        })
        .map(|r| num(r.row).to_string())
        .collect();
    if broken.is_empty() {
        let forced = report
            .rows
            .iter()
            .filter(|r| matches!(r.b3, B3::Forced { .. }))
            .count();
        global.push(F::B3Holds {
            forced,
            free: report.rows.len() - forced,
        });
    } else {
        global.push(F::B3Broken {
            numbers: broken.join(", "),
        });
    }
    let c = &report.consistency;
    for (a, b) in &c.disagreements {
        global.push(F::Disagree {
            a: num(*a),
            b: num(*b),
        });
    }
    match &c.pin {
        Some(p) if c.disagreements.is_empty() => global.push(F::Pinned {
            first: p.number,
            decree: p.decree.0.clone(),
        }),
        None => global.push(F::NoSuccess),
        _ => {}
    }
    (per_row, global)
}

/// The ballot explorer as a part of the page (`super::parts`): the tab's
/// own table (`Main`), or Figure 1 afresh on a lesson's stage.
pub fn draw(piece: super::parts::Piece) -> AnyView {
    let keep = piece == super::parts::Piece::Main;
    view! { <BallotExplorer keep /> }.into_any()
}

/// `keep`: the Ballots tab's table (kept while the page is open, opened
/// from a link); else Figure 1, as a lesson shows it.
#[component]
pub fn BallotExplorer(keep: bool) -> impl IntoView {
    let app = use_app();
    let kept = keep.then(|| KEPT.with_borrow(|k| k.clone())).flatten();
    let rows = RwSignal::new(kept.unwrap_or_else(|| edits_of(figure1())));
    // Bumped when the table is replaced, so that every row is drawn afresh.
    let generation = RwSignal::new(0u32);
    let next_key = StoredValue::new(
        rows.with_untracked(|r| r.iter().map(|e| e.key + 1).max().unwrap_or(0).max(100)),
    );
    if keep {
        // A table's link: read when the tab opens, and when one is pasted
        // into the address bar while it is open.
        let read = move || match from_address() {
            Some(Ok(table)) => {
                next_key.set_value(table.len() as u32 + 100);
                rows.set(table);
                generation.update(|g| *g += 1);
            }
            Some(Err(e)) => app.toast.set(Some((
                app.lang.get_untracked().tell().ballots_link_error(&e),
                true,
            ))),
            None => {}
        };
        read();
        let listener = window_event_listener(leptos::ev::hashchange, move |_| read());
        on_cleanup(move || listener.remove());
        Effect::new(move |_| {
            rows.with(|r| KEPT.set(Some(r.clone())));
            CHANGED.with(|c| c.notify());
        });
    }
    let priests: Vec<String> = figure1_priests().into_iter().map(|p| p.0).collect();
    let found = Memo::new(move |_| rows.with(|r| findings(r)));
    let set = move |key: u32, f: Box<dyn FnOnce(&mut Edit)>| {
        rows.update(|rs| {
            if let Some(r) = rs.iter_mut().find(|r| r.key == key) {
                f(r);
            }
        })
    };
    let toggle = move |key: u32, voters: bool, p: String| {
        set(
            key,
            Box::new(move |r| {
                let s = if voters { &mut r.voters } else { &mut r.quorum };
                if !s.remove(&p) {
                    s.insert(p);
                }
            }),
        )
    };
    let priests_hdr = priests.clone();
    view! {
        <section class="ballots" data-testid="ballots">
            <h2>{move || app.words().ballots_title}</h2>
            <p class="hint">{move || app.words().ballots_intro}</p>
            <table class="ballot-table">
                <thead>
                    <tr>
                        <th>{move || app.words().ballot_number}</th>
                        <th>{move || app.words().decree}</th>
                        <th>{move || app.words().quorum}</th>
                        <th>{move || app.words().voters}</th>
                        <th>{move || app.words().b3_column}</th>
                        <th></th>
                    </tr>
                </thead>
                <tbody>
                    <For each=move || { let g = generation.get(); rows.get().into_iter().enumerate().map(|(i, r)| (g, i, r)).collect::<Vec<_>>() } key=|(g, i, r)| (*g, *i, r.key) let:item>
                        {
                            let (_, i, r) = item;
                            let key = r.key;
                            let chips = |voters: bool| {
                                priests_hdr
                                    .iter()
                                    .map(|p| {
                                        let p = p.clone();
                                        let p2 = p.clone();
                                        let on = move || rows.with(|rs| rs.iter().find(|r| r.key == key).is_some_and(|r| if voters { r.voters.contains(&p2) } else { r.quorum.contains(&p2) }));
                                        view! {
                                            <button
                                                class="chip"
                                                class:voter=voters
                                                aria-pressed=move || on().to_string()
                                                data-testid=format!("{}-{i}-{}", if voters { "v" } else { "q" }, p)
                                                on:click={
                                                    let p = p.clone();
                                                    move |_| toggle(key, voters, p.clone())
                                                }
                                            >
                                                {p.clone()}
                                            </button>
                                        }
                                    })
                                    .collect_view()
                            };
                            let ok = move || found.with(|(per, _)| per.get(i).is_none_or(|f| !f.iter().any(|x| matches!(x, F::Forced { satisfied: false, .. } | F::BadNumber { .. } | F::EmptyQuorum { .. } | F::EmptyDecree { .. }))));
                            view! {
                                <tr data-testid=format!("ballot-row-{i}") class:bad=move || !ok() class:success=move || found.with(|(per, _)| per.get(i).is_some_and(|f| f.contains(&F::Successful)))>
                                    <td>
                                        <input class="num" size="4" data-testid=format!("number-{i}") prop:value=r.number.clone()
                                            aria-label=move || format!("{} {}", app.words().ballot_number, i + 1)
                                            on:input=move |ev| { let v = event_target_value(&ev); set(key, Box::new(move |r| r.number = v)); } />
                                    </td>
                                    <td>
                                        <input class="dec" size="4" data-testid=format!("decree-{i}") prop:value=r.decree.clone()
                                            aria-label=move || format!("{} {}", app.words().decree, i + 1)
                                            on:input=move |ev| { let v = event_target_value(&ev); set(key, Box::new(move |r| r.decree = v)); } />
                                    </td>
                                    <td class="chips">{chips(false)}</td>
                                    <td class="chips">{chips(true)}</td>
                                    <td class="finding" data-testid=format!("b3-{i}")>
                                        {move || {
                                            let sp = app.lang.get().tell();
                                            let mut lines: Vec<String> = found.with(|(per, _)| per.get(i).map(|f| f.iter().map(|x| sp.ballot_finding(x)).collect()).unwrap_or_default());
                                            if r.reconstructed {
                                                lines.push(sp.ballot_finding(&F::Reconstructed));
                                            }
                                            lines.into_iter().map(|l| view! { <div>{l}</div> }).collect_view()
                                        }}
                                    </td>
                                    <td>
                                        <button class="btn icon" aria-label=move || app.words().delete_row on:click=move |_| rows.update(|rs| rs.retain(|r| r.key != key))>"×"</button>
                                    </td>
                                </tr>
                            }
                        }
                    </For>
                </tbody>
            </table>
            <div class="actions">
                <button class="btn" data-testid="add-ballot" on:click=move |_| {
                    let key = next_key.get_value();
                    next_key.set_value(key + 1);
                    rows.update(|rs| {
                        let n = rs.iter().filter_map(|r| r.number.trim().parse::<i64>().ok()).max().unwrap_or(0) + 1;
                        rs.push(Edit { key, number: n.to_string(), decree: "α".into(), quorum: VecSet::new(), voters: VecSet::new(), reconstructed: false });
                    });
                }>{move || app.words().add_ballot}</button>
                <button class="btn" data-testid="figure1" on:click=move |_| {
                    rows.set(edits_of(figure1()));
                    generation.update(|g| *g += 1);
                }>{move || app.words().figure1_reset}</button>
            </div>
            <h3>{move || app.words().conditions}</h3>
            <ul class="conditions" data-testid="conditions">
                {move || {
                    let sp = app.lang.get().tell();
                    found.with(|(_, g)| {
                        g.iter()
                            .map(|f| {
                                let bad = matches!(f, F::B1Duplicate { .. } | F::B2Disjoint { .. } | F::B3Broken { .. } | F::Disagree { .. });
                                view! { <li class:bad=bad>{sp.ballot_finding(f)}</li> }
                            })
                            .collect_view()
                    })
                }}
            </ul>
        </section>
    }
}
