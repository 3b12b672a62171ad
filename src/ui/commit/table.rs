//! What each protocol costs: calm runs of the same N and F, measured —
//! messages between nodes, message delays, stable-storage writes — beside
//! Gray and Lamport's formulas; the run on screen is marked, and its own
//! figures so far are counted below.

use super::super::use_app;
use crate::protocol::commit::Algorithm;
use crate::scenario::commit_spec::{Placement, Shape};
use crate::scenario::commit_table::{expected_delays, measure, table, Row};
use crate::sim::SimTime;
use leptos::prelude::*;

fn same_row(a: Shape, b: Shape) -> bool {
    a.algorithm == b.algorithm
        && a.placement == b.placement
        && (a.algorithm == Algorithm::TwoPhaseCommit || (a.faster == b.faster && a.f == b.f))
}

/// The table of `rows` (N RMs, F), marking the row of `current`.
#[component]
fn Table(rms: usize, f: usize, rows: Vec<Row>, current: Option<Shape>) -> impl IntoView {
    let app = use_app();
    move || {
        let lang = app.lang.get();
        let w = lang.words();
        let body = rows
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let s = r.shape;
                let name = lang.tell().commit_protocol(s.algorithm, s.faster, s.f);
                let placement = if s.placement == Placement::Separate { w.placement_separate } else { w.placement_colocated };
                let m = r.measured;
                let p = r.paper.clone();
                let formula = |x: Option<(&'static str, usize)>| x.map(|(f, v)| format!("{f} = {v}")).unwrap_or_else(|| "—".into());
                let delays_paper = p.as_ref().map(|p| {
                    let here = expected_delays(s, p);
                    if here == p.delays {
                        p.delays.to_string()
                    } else {
                        format!("{} − 1 = {here}", p.delays)
                    }
                });
                let current = current.is_some_and(|c| same_row(s, c));
                view! {
                    <tr class:current=current data-testid=format!("costs-row-{i}") data-messages=m.messages data-match=r.matches().to_string()>
                        <th scope="row">{name}</th>
                        <td>{placement}</td>
                        <td class="num measured">{m.messages}</td>
                        <td class="formula">{formula(p.as_ref().map(|p| p.messages))}</td>
                        <td class="num measured">{m.delays.map_or("—".into(), |d| d.to_string())}</td>
                        <td class="formula">{delays_paper.unwrap_or_else(|| "—".into())}</td>
                        <td class="num measured">{m.writes}</td>
                        <td class="formula">{formula(p.as_ref().map(|p| p.writes))}</td>
                        <td class="verdict">{if r.matches() { "✓" } else { "✕" }}</td>
                    </tr>
                }
            })
            .collect_view();
        view! {
            <p class="small">{format!("N = {rms}, F = {f}")}</p>
            <table class="costs-table" data-testid="costs-table">
                <thead>
                    <tr>
                        <th scope="col">{w.col_protocol}</th>
                        <th scope="col">{w.col_placement}</th>
                        <th scope="col" colspan="2">{w.col_messages}</th>
                        <th scope="col" colspan="2">{w.col_delays}</th>
                        <th scope="col" colspan="2">{w.col_writes}</th>
                        <th scope="col"></th>
                    </tr>
                    <tr class="sub">
                        <th></th>
                        <th></th>
                        <th>{w.measured}</th>
                        <th>{w.paper}</th>
                        <th>{w.measured}</th>
                        <th>{w.paper}</th>
                        <th>{w.measured}</th>
                        <th>{w.paper}</th>
                        <th></th>
                    </tr>
                </thead>
                <tbody>{body}</tbody>
            </table>
            <p class="small hint">{w.costs_note_delays}</p>
            <p class="small hint">{w.costs_note_writes}</p>
        }
    }
}

/// The table beside the run on screen, and that run's own figures so far.
#[component]
pub fn Costs() -> impl IntoView {
    let app = use_app();
    // The calm runs, once per scenario (a few milliseconds).
    let rows = Memo::new(move |_| {
        app.rev.get();
        let shape = app.model.with_value(|m| Shape::of(m.scenario()))?;
        let f = if shape.algorithm == Algorithm::PaxosCommit {
            shape.f
        } else {
            1
        };
        Some((shape, f, table(shape.rms, f)))
    });
    // Kept by the frame (`App::frame_memo`): it changes at events only.
    let so_far = app.frame_memo(move |t| {
        app.rev.get();
        app.model.with_value(|m| {
            let n = Shape::of(m.scenario())?.rms;
            let c = measure(&m.run.trace[..m.run.events_until(SimTime(t))], n);
            Some((c.messages, c.writes))
        })
    });
    view! {
        <section class="costs" data-testid="costs">
            <h3>{move || app.words().costs_title}</h3>
            <p class="this-run" data-testid="costs-this-run">
                {move || so_far.get().map(|(messages, writes)| {
                    let w = app.words();
                    // "4 messages", "メッセージ 4 通": the number's place is the language's.
                    w.run_tally.replace("{m}", &messages.to_string()).replace("{w}", &writes.to_string())
                })}
            </p>
            {move || rows.get().map(|(shape, f, list)| view! { <Table rms=shape.rms f=f rows=list current=Some(shape) /> })}
        </section>
    }
}

/// The table for N RMs and F alone (a lesson's figure).
#[component]
pub fn PaperTable(rms: usize, f: usize) -> impl IntoView {
    let app = use_app();
    let rows = table(rms, f);
    view! {
        <section class="costs" data-testid="costs">
            <h3>{move || app.words().costs_title}</h3>
            <Table rms=rms f=f rows=rows current=None />
        </section>
    }
}
