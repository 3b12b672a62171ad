//! The inspector: the selected legislator's ledger and the fault controls.
//! Every injected fault is recorded into the scenario at the present moment
//! and the run continues from there — so the branch replays.

use super::{use_app, App};
use crate::protocol::paxos::PaxosCommand;
use crate::protocol::Value;
use crate::scenario::Step;
use crate::sim::fault::Fault;
use crate::viz::parliament::SeatStatus;
use leptos::prelude::*;

fn node_name(app: App, i: u8) -> String {
    app.model
        .with_value(|m| m.run.names.get(i as usize).cloned().unwrap_or_default())
}

/// Parse "2.5" seconds into µs, refusing nonsense.
pub fn parse_seconds(text: &str) -> Result<u64, ()> {
    let v = crate::float::parse(&crate::float::typed(text).replace(',', ".")).ok_or(())?;
    if !v.is_finite() || v <= 0.0 || v > 3_600.0 {
        return Err(());
    }
    Ok((v * 1e6).round() as u64)
}

/// After a crash or a restart the button pressed is disabled (or another
/// takes its place) and the keyboard's focus fell to the page: it goes to
/// the button that undoes it — once the page has drawn the change (the
/// pressed button is still enabled and focused when the click returns).
pub fn keep_focus(other: &'static str) {
    fn again(other: &'static str, tries: u8) {
        super::browser::soon(move || {
            let on = |sel: &str| {
                web_sys::window()
                    .and_then(|w| w.document())
                    .and_then(|d| Some((d.active_element()?, d.query_selector(sel).ok()??)))
                    .is_some_and(|(a, b)| a.is_same_node(Some(&b)))
            };
            if on(other) {
                return;
            }
            if super::browser::focus_lost() {
                super::browser::focus(other);
            }
            if tries > 0 && !on(other) {
                again(other, tries - 1);
            }
        });
    }
    again(other, 3);
}

#[component]
pub fn Inspector() -> impl IntoView {
    let app = use_app();
    view! {
        <section class="panel inspector" aria-labelledby="inspector-title" data-testid="inspector">
            <h2 id="inspector-title">{move || app.words().inspector_title}</h2>
            {move || match app.selected.get() {
                None => view! { <p class="hint">{app.words().inspector_hint}</p> }.into_any(),
                Some(i) => view! { <Selected i=i /> }.into_any(),
            }}
            <NetworkFaults />
            <super::faultlist::FaultList />
        </section>
    }
}

#[component]
fn Selected(i: u8) -> impl IntoView {
    let app = use_app();
    let name = node_name(app, i);
    let status_memo = Memo::new(move |_| {
        app.snap
            .with(|s| s.seats.get(i as usize).map(|s| s.status.clone()))
    });
    let status = move || status_memo.get().unwrap_or(SeatStatus::Present);
    let pause_text = RwSignal::new("5".to_string());
    let value_text = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let clock = move || {
        app.t.track();
        app.rev.track();
        app.model
            .with_value(|m| m.cursor.local_time(crate::sim::NodeId(i)).0)
    };
    let away = move || matches!(status(), SeatStatus::Away);
    let n1 = name.clone();
    let n2 = name.clone();
    let n3 = name.clone();
    let n4 = name.clone();
    let n5 = name.clone();
    view! {
        <div class="selected" data-testid="selected" data-name=name.clone()>
            <div class="selected-head">
                <h3>{name.clone()}</h3>
                <button class="btn small" data-testid="deselect" on:click=move |_| app.selected.set(None)>
                    "✕ " {move || app.words().close}
                </button>
            </div>
            <p class="status" data-testid="selected-status">
                {move || match status() {
                    SeatStatus::Present => app.words().present_in_chamber.to_string(),
                    SeatStatus::Away => app.words().away.to_string(),
                    SeatStatus::Asleep { until_us } => format!("{} ({})", app.words().asleep, app.lang.get().tell().duration(until_us.saturating_sub(app.t.get()))),
                }}
            </p>
            <p class="small">{move || format!("{}: {}", app.words().local_clock, app.lang.get().tell().duration(clock()))}</p>
            <div class="actions">
                <button
                    class="btn danger"
                    data-testid="crash"
                    prop:disabled=move || matches!(status(), SeatStatus::Away)
                    on:click=move |_| {
                        app.inject(Fault::Crash { node: n1.clone() });
                        keep_focus("[data-testid=restart]");
                    }
                >
                    {move || app.words().crash}
                </button>
                <button
                    class="btn"
                    data-testid="restart"
                    prop:disabled=move || !matches!(status(), SeatStatus::Away)
                    on:click=move |_| {
                        app.inject(Fault::Restart { node: n2.clone() });
                        keep_focus("[data-testid=crash]");
                    }
                >
                    {move || app.words().restart}
                </button>
            </div>
            // An away legislator hears nothing: what it would be told is off
            // (recorded, it did nothing on screen).
            {move || away().then(|| view! { <p class="small hint" data-testid="away-hint">{app.words().away_hint}</p> })}
            <form
                class="inline-form"
                on:submit=move |ev| {
                    ev.prevent_default();
                    if away() {
                        return;
                    }
                    match parse_seconds(&pause_text.get_untracked()) {
                        Ok(us) => {
                            error.set(None);
                            app.inject(Fault::Pause { node: n3.clone(), for_us: us });
                        }
                        Err(()) => error.set(Some(app.lang.get_untracked().tell().bad_duration(&pause_text.get_untracked()))),
                    }
                }
            >
                <label>
                    {move || app.words().pause_for} " "
                    <input
                        data-testid="pause-seconds"
                        inputmode="decimal"
                        size="5"
                        prop:value=move || pause_text.get()
                        on:input=move |ev| pause_text.set(event_target_value(&ev))
                    />
                    " " {move || app.words().seconds}
                </label>
                <button class="btn" type="submit" data-testid="pause" prop:disabled=away>{move || app.words().apply}</button>
            </form>
            <button
                class="btn"
                data-testid="stall-preset"
                prop:disabled=away
                on:click=move |_| app.inject(Fault::Pause { node: n4.clone(), for_us: 20_000_000 })
            >
                {move || app.words().llm_stall_preset}
            </button>
            <form
                class="inline-form"
                on:submit=move |ev| {
                    ev.prevent_default();
                    if away() {
                        return;
                    }
                    let typed = value_text.get_untracked();
                    match Value::new(&typed) {
                        Ok(v) => {
                            error.set(None);
                            app.inject(PaxosCommand::Propose { node: n5.clone(), value: v.to_string() });
                        }
                        Err(e) => error.set(Some(app.lang.get_untracked().tell().bad_decree(&e))),
                    }
                }
            >
                <label>
                    {move || app.words().decree} " "
                    <input
                        data-testid="propose-value"
                        size="8"
                        prop:value=move || value_text.get()
                        on:input=move |ev| value_text.set(event_target_value(&ev))
                    />
                </label>
                <button class="btn" type="submit" data-testid="propose" prop:disabled=away>{move || app.words().propose}</button>
            </form>
            <p class="field-error" role="alert" data-testid="fault-error">{move || error.get()}</p>
        </div>
    }
}

#[component]
fn NetworkFaults() -> impl IntoView {
    let app = use_app();
    let names = move || {
        app.rev.get();
        app.model.with_value(|m| m.run.names.to_vec())
    };
    // Group per node: 0 = not in the partition, 1 = A, 2 = B.
    let groups = RwSignal::new(Vec::<u8>::new());
    let oneway = RwSignal::new(false);
    let loss = RwSignal::new(String::new());
    let dup = RwSignal::new(String::new());
    let lat = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let set_group = move |i: usize, g: u8| {
        groups.update(|v| {
            if v.len() <= i {
                v.resize(i + 1, 0);
            }
            v[i] = g;
        })
    };
    view! {
        <details class="network" data-testid="network-faults">
            <summary>{move || app.words().faults}</summary>
            <fieldset>
                <legend>{move || app.words().partition}</legend>
                <p class="hint small">{move || app.words().partition_hint}</p>
                {move || {
                    names()
                        .into_iter()
                        .enumerate()
                        .map(|(i, n)| {
                            let g = move || groups.with(|v| v.get(i).copied().unwrap_or(0));
                            view! {
                                <div class="group-row">
                                    <span class="who">{n.clone()}</span>
                                    <label>
                                        <input type="radio" name=format!("g{i}") prop:checked=move || g() == 1 on:change=move |_| set_group(i, 1) />
                                        {move || app.words().group_a}
                                    </label>
                                    <label>
                                        <input type="radio" name=format!("g{i}") prop:checked=move || g() == 2 on:change=move |_| set_group(i, 2) />
                                        {move || app.words().group_b}
                                    </label>
                                    <label>
                                        <input type="radio" name=format!("g{i}") prop:checked=move || g() == 0 on:change=move |_| set_group(i, 0) />
                                        "—"
                                    </label>
                                </div>
                            }
                        })
                        .collect_view()
                }}
                <label>
                    <input type="checkbox" prop:checked=move || oneway.get() on:change=move |_| oneway.update(|o| *o = !*o) />
                    {move || app.words().one_way}
                </label>
                <div class="actions">
                    <button
                        class="btn"
                        data-testid="partition"
                        on:click=move |_| {
                            let ns = names();
                            let pick = |g: u8| -> Vec<String> {
                                groups.with_untracked(|v| {
                                    ns.iter().enumerate().filter(|(i, _)| v.get(*i) == Some(&g)).map(|(_, n)| n.clone()).collect()
                                })
                            };
                            let (a, b) = (pick(1), pick(2));
                            if a.is_empty() || b.is_empty() {
                                error.set(Some(app.lang.get_untracked().tell().partition_error()));
                                return;
                            }
                            error.set(None);
                            app.inject(Fault::Partition { groups: vec![a, b], oneway: oneway.get_untracked() });
                        }
                    >
                        {move || app.words().partition}
                    </button>
                    <button class="btn" data-testid="heal" on:click=move |_| { error.set(None); app.inject(Fault::Heal) }>
                        {move || app.words().heal}
                    </button>
                </div>
            </fieldset>
            <form
                class="inline-form net-form"
                on:submit=move |ev| {
                    ev.prevent_default();
                    let sp = app.lang.get_untracked().tell();
                    let pct = |t: String| -> Result<Option<f64>, String> {
                        let x = crate::float::typed(&t);
                        let x = x.trim_end_matches('%').trim();
                        if x.is_empty() {
                            return Ok(None);
                        }
                        match crate::float::parse(&x.replace(',', ".")) {
                            Some(p) if (0.0..=100.0).contains(&p) => Ok(Some(p / 100.0)),
                            _ => Err(sp.bad_percent(&t)),
                        }
                    };
                    let latency = |t: String| -> Result<Option<crate::sim::dist::Latency>, String> {
                        let x = crate::float::typed(&t);
                        let x = x.as_str();
                        if x.is_empty() {
                            return Ok(None);
                        }
                        let ms = |v: &str| crate::float::parse(&v.trim().replace(',', ".")).filter(|v| v.is_finite() && *v >= 0.0 && *v <= 600_000.0);
                        match x.split_once(['-', '–']) {
                            Some((a, b)) => match (ms(a), ms(b)) {
                                (Some(a), Some(b)) if a <= b => Ok(Some(crate::sim::dist::Latency::Uniform { min_us: (a * 1e3) as u64, max_us: (b * 1e3) as u64 })),
                                _ => Err(sp.bad_latency(&t)),
                            },
                            None => ms(x).map(|v| Some(crate::sim::dist::Latency::Constant { us: (v * 1e3) as u64 })).ok_or_else(|| sp.bad_latency(&t)),
                        }
                    };
                    let result = (|| -> Result<Vec<Fault<String>>, String> {
                        let mut faults = Vec::new();
                        if let Some(p) = pct(loss.get_untracked())? {
                            faults.push(Fault::SetLoss { p });
                        }
                        if let Some(p) = pct(dup.get_untracked())? {
                            faults.push(Fault::SetDuplicate { p });
                        }
                        if let Some(l) = latency(lat.get_untracked())? {
                            faults.push(Fault::SetLatency { latency: l });
                        }
                        Ok(faults)
                    })();
                    match result {
                        Ok(f) if f.is_empty() => {}
                        Ok(f) => {
                            error.set(None);
                            app.inject_all(f.into_iter().map(Step::from).collect());
                        }
                        Err(e) => error.set(Some(e)),
                    }
                }
            >
                <label>
                    {move || app.words().loss} " "
                    <input data-testid="loss" size="4" prop:value=move || loss.get() on:input=move |ev| loss.set(event_target_value(&ev)) />
                    " %"
                </label>
                <label>
                    {move || app.words().duplicate} " "
                    <input data-testid="duplicate" size="4" prop:value=move || dup.get() on:input=move |ev| dup.set(event_target_value(&ev)) />
                    " %"
                </label>
                <label>
                    {move || app.words().latency_ms} " "
                    <input data-testid="latency" size="8" placeholder="60–140" prop:value=move || lat.get() on:input=move |ev| lat.set(event_target_value(&ev)) />
                </label>
                <button class="btn" type="submit" data-testid="loss-apply">{move || app.words().apply}</button>
            </form>
            <p class="field-error" role="alert" data-testid="network-error">{move || error.get()}</p>
        </details>
    }
}
