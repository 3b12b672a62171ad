//! The SQL panel: the statement behind the store's and `orders`' latest step
//! at the cursor — `PREPARE`, the simulated clock, `EXECUTE` with its
//! parameters — what it returned, and for a refused write which clause
//! refused it. Each block copies as a psql script.

use super::super::use_app;
use super::lanes::Pane;
use crate::i18n::Refused;
use crate::protocol::lease::sql::{SCHEMA, SIM_CLOCK};
use crate::viz::sql::{last_at, SqlStep, Table};
use leptos::prelude::*;

fn copy(text: String, done: RwSignal<bool>) {
    let Some(clip) = web_sys::window().map(|w| w.navigator().clipboard()) else {
        return;
    };
    let _ = clip.write_text(&text);
    done.set(true);
}

#[component]
pub fn SqlPanel(pane: Pane) -> impl IntoView {
    let app = use_app();
    // The last statement by the cursor, for each table: it changes at a few
    // events of a run, so the frame keeps it (`App::frame_memo`) and the
    // blocks are redrawn only then.
    let pick = move |table: Table, t: u64| {
        app.rev.track();
        let get = |m: &super::super::model::Model| {
            last_at(m.sql(), table, t)
                .cloned()
                .map(|s| (s, m.run.names.to_vec()))
        };
        match pane {
            Pane::A => app.model.with_value(get),
            Pane::B => app.model_b.with_value(|b| b.as_ref().and_then(get)),
        }
    };
    let suffix = if pane == Pane::B { "-b" } else { "" };
    let setup_copied = RwSignal::new(false);
    // The tables, the rows this scenario starts from, the simulated clock.
    let setup = move || {
        app.rev.get();
        let seed = app.model.with_value(|m| {
            m.scenario()
                .lease
                .as_ref()
                .map(|l| crate::protocol::lease::sql::seed(l.keys, l.initial_epoch))
        });
        format!("{SCHEMA}\n{}\n{SIM_CLOCK}", seed.unwrap_or_default())
    };
    let on_etcd = move || {
        app.rev.get();
        app.model.with_value(|m| {
            m.recorded_on
                .as_deref()
                .is_some_and(|o| o.starts_with("etcd"))
        })
    };
    view! {
        <section class="panel sql-panel" data-testid=format!("sql-panel{suffix}")>
            <h4>{move || app.words().sql_title}</h4>
            <Show when=on_etcd>
                <p class="hint" data-testid="sql-etcd">{move || app.words().sql_etcd}</p>
            </Show>
            <Show when=move || !on_etcd()>
            <p class="hint">{move || app.words().sql_intro}</p>
            <div class="sql-blocks">
                <Block table=Table::WorkerLeases step=app.frame_memo(move |t| pick(Table::WorkerLeases, t)).into() id=format!("sql-leases{suffix}") />
                <Block table=Table::Orders step=app.frame_memo(move |t| pick(Table::Orders, t)).into() id=format!("sql-orders{suffix}") />
            </div>
            <details class="sql-setup">
                <summary>{move || app.words().sql_setup}</summary>
                <pre class="sql" data-testid=format!("sql-setup{suffix}")>{setup}</pre>
                <button class="btn" on:click=move |_| copy(format!("{}\n", setup()), setup_copied)>
                    {move || if setup_copied.get() { app.words().copied } else { app.words().copy }}
                </button>
            </details>
            </Show>
        </section>
    }
}

#[component]
fn Block(table: Table, step: Signal<Option<(SqlStep, Vec<String>)>>, id: String) -> impl IntoView {
    let app = use_app();
    let copied = RwSignal::new(false);
    // A new step on screen: the button offers to copy again.
    Effect::new(move |_| {
        step.with(|s| s.as_ref().map(|(s, _)| s.seq));
        copied.set(false);
    });
    let heading = move || {
        let w = app.words();
        match table {
            Table::WorkerLeases => w.sql_leases,
            Table::Orders => w.sql_orders,
        }
    };
    view! {
        <div class="sql-block" data-testid=id>
            <h5>{heading}</h5>
            {move || match step.get() {
                None => view! { <p class="muted">{app.words().sql_none}</p> }.into_any(),
                Some((s, names)) => {
                    let w = app.words();
                    let sp = app.lang.get().tell();
                    let why = s.refusal.map(|reason| {
                        sp.refusal(&names, &Refused { writer: s.who, epoch: s.epoch, reason, row: s.row, lease: s.lease, now_us: s.now_us })
                    });
                    let script = s.script();
                    let refused = s.refusal.is_some();
                    view! {
                        <p class="sql-when">
                            {format!("{} · {} = {}", sp.time_label(s.t.0), w.sql_clock, sp.duration(s.now_us))}
                        </p>
                        <pre class="sql" data-testid="sql-statement" tabindex="0">{s.statement.prepare()}</pre>
                        <pre class="sql exec" data-testid="sql-execute">{s.execute()}</pre>
                        <p class="sql-result-label">{w.sql_result}</p>
                        <pre class="sql-result" class:refused=refused data-testid="sql-result">{s.result()}</pre>
                        {why.map(|y| view! { <p class="sql-why" data-testid="sql-why" data-reason=s.refusal.map(|r| r.as_str())>{y}</p> })}
                        <button class="btn" data-testid="sql-copy" on:click=move |_| copy(script.clone(), copied)>
                            {move || if copied.get() { app.words().copied } else { app.words().copy }}
                        </button>
                    }
                        .into_any()
                }
            }}
        </div>
    }
}
