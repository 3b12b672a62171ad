//! The lease lab's knobs. An impossible combination is refused inline with
//! the reason, and the last good run stays on screen.

use super::super::{inspector::parse_seconds, use_app, App};
use crate::protocol::lease::Design;
use crate::protocol::lease::LeaseCommand;
use crate::protocol::llm::LlmPreset;
use crate::scenario::lease_spec::{lab_nodes, MAX_WORKERS};
use crate::scenario::{Role, Scenario, ScenarioError, Step};
use crate::sim::clock::ClockSpec;
use crate::sim::fault::Fault;
use leptos::prelude::*;

/// The form's fields, as typed.
#[derive(Clone, Debug, Default, PartialEq)]
struct Form {
    ttl: String,
    renew: String,
    workers: String,
    drift: String,
    fencing: String,
    bump: bool,
    design: String,
    preset: String,
    stall: String,
}

fn preset_key(p: &LlmPreset) -> &'static str {
    match p {
        LlmPreset::FastApi | LlmPreset::Custom { .. } => "fast_api",
        LlmPreset::TypicalLlm => "typical_llm",
        LlmPreset::Stall { .. } => "stall",
        LlmPreset::Timeout => "timeout",
        LlmPreset::RateLimit { .. } => "rate_limit",
        LlmPreset::Refusal => "refusal",
        LlmPreset::MalformedJson => "malformed_json",
        LlmPreset::Outage => "outage",
        LlmPreset::Flaky => "flaky",
        LlmPreset::Throttled => "throttled",
    }
}

fn secs(us: u64) -> String {
    let s = crate::float::fixed(us as f64 / 1e6, 3).to_string();
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn form_of(s: &Scenario) -> Form {
    let l = s.lease.clone().unwrap_or_else(|| {
        crate::scenario::LeaseSpec::new(3_000_000, Design::NoLlm, LlmPreset::FastApi)
    });
    Form {
        ttl: secs(l.ttl_us),
        renew: l.renew_us.map(secs).unwrap_or_default(),
        workers: s.nodes_with(Role::Worker).len().to_string(),
        drift: s
            .clocks
            .iter()
            .find(|c| c.node == "W1")
            .map(|c| c.drift_ppm.to_string())
            .unwrap_or_else(|| "0".into()),
        fencing: l.fencing.as_str().into(),
        bump: l.bump_epoch_on_renew,
        design: match l.design {
            Design::InLoop => "in_loop",
            Design::Beside => "beside",
            Design::NoLlm => "no_llm",
        }
        .into(),
        preset: preset_key(&l.llm).into(),
        stall: match l.llm {
            LlmPreset::Stall { for_us } => secs(for_us),
            _ => "20".into(),
        },
    }
}

/// Apply the form to the scenario, or say which field is wrong and why.
fn apply(app: App, f: &Form) -> Result<Scenario, String> {
    let w = app.words();
    let sp = app.lang.get_untracked().tell();
    if app.model.with_value(|m| m.recorded_only) {
        return Err(w.recorded_no_faults.to_string());
    }
    let mut s = app.scenario();
    // A lease of a few milliseconds renews tens of thousands of times in a
    // run: the page would stand still for seconds to simulate it. Nonsense
    // and a number out of range get the same words: the TTL's own range
    // (the general "at most 3600 s" was not it).
    let ttl = parse_seconds(&f.ttl)
        .ok()
        .filter(|t| (100_000..=600_000_000).contains(t))
        .ok_or_else(|| sp.setting_error(w.ttl_s, &sp.seconds_between(&f.ttl, "0.1", "600")))?;
    let renew = if f.renew.trim().is_empty() {
        None
    } else {
        let r = parse_seconds(&f.renew)
            .map_err(|_| sp.setting_error(w.renew_s, &sp.bad_duration(&f.renew)))?;
        if r < 50_000 {
            return Err(sp.setting_error(w.renew_s, "0.05 – TTL"));
        }
        Some(r)
    };
    let workers: usize = crate::float::typed(&f.workers)
        .parse()
        .ok()
        .filter(|n| (1..=MAX_WORKERS).contains(n))
        .ok_or_else(|| sp.setting_error(w.workers, &format!("1 – {MAX_WORKERS}")))?;
    let drift: i64 = crate::float::typed(&f.drift)
        .parse()
        .ok()
        .filter(|d: &i64| d.unsigned_abs() <= crate::sim::clock::MAX_DRIFT_PPM as u64)
        .ok_or_else(|| {
            sp.setting_error(
                w.drift_ppm,
                &format!("−{0} … {0}", crate::sim::clock::MAX_DRIFT_PPM),
            )
        })?;
    let stall = parse_seconds(&f.stall)
        .map_err(|_| sp.setting_error(w.stall_s, &sp.bad_duration(&f.stall)))?;
    let spec = s
        .lease
        .as_mut()
        .ok_or_else(|| w.settings_refused.to_string())?;
    spec.ttl_us = ttl;
    spec.renew_us = renew;
    spec.margin_us = None;
    spec.fencing = crate::protocol::storage::Fencing::parse(&f.fencing).unwrap_or_default();
    spec.bump_epoch_on_renew = f.bump;
    spec.design = match f.design.as_str() {
        "in_loop" => Design::InLoop,
        "beside" => Design::Beside,
        _ => Design::NoLlm,
    };
    spec.llm = match f.preset.as_str() {
        "typical_llm" => LlmPreset::TypicalLlm,
        "stall" => LlmPreset::Stall { for_us: stall },
        "timeout" => LlmPreset::Timeout,
        "rate_limit" => LlmPreset::RateLimit {
            retry_after_us: 2_000_000,
        },
        "refusal" => LlmPreset::Refusal,
        "malformed_json" => LlmPreset::MalformedJson,
        "outage" => LlmPreset::Outage,
        "flaky" => LlmPreset::Flaky,
        "throttled" => LlmPreset::Throttled,
        _ => LlmPreset::FastApi,
    };
    let design = spec.design;
    if s.nodes_with(Role::Worker).len() != workers
        || !s.nodes.iter().any(|n| n.id == "llm")
        || (design == Design::Beside && s.nodes_with(Role::Advisor).is_empty())
    {
        s.nodes = lab_nodes(workers);
    }
    crate::scenario::lease_spec::trim_nodes(&mut s);
    s.clocks.retain(|c| c.node != "W1");
    if drift != 0 {
        s.clocks.push(ClockSpec {
            node: "W1".into(),
            drift_ppm: drift,
            offset_us: 0,
        });
    }
    s.validate().map_err(|e| {
        // A field of the form is named as the form names it (it said
        // "lease.renew_us"); the reason is said in the page's language.
        let label = match &e {
            ScenarioError::BadSetting { field, .. } => match field.as_str() {
                "lease.ttl_us" => Some(w.ttl_s),
                "lease.renew_us" => Some(w.renew_s),
                _ => None,
            },
            _ => None,
        };
        match (label, e) {
            (Some(label), ScenarioError::BadSetting { reason, .. }) => {
                sp.scenario_error(&ScenarioError::setting(label, reason))
            }
            (_, e) => sp.setting_error(w.settings_refused, &sp.scenario_error(&e)),
        }
    })?;
    Ok(s)
}

/// The lab's settings form, and (with `inject`) the stall/pause injection;
/// the lease tab keeps the injection in its side column instead, where it
/// stays in view beside the lanes.
#[component]
pub fn Controls(#[prop(optional)] no_inject: bool) -> impl IntoView {
    let app = use_app();
    let form = RwSignal::new(Form::default());
    let error = RwSignal::new(None::<String>);
    Effect::new(move |_| {
        app.rev.get();
        form.set(app.model.with_value(|m| form_of(m.scenario())));
    });
    let text = move |label: fn(&crate::i18n::Words) -> &'static str,
                     id: &'static str,
                     get: fn(&Form) -> String,
                     set: fn(&mut Form, String)| {
        // An empty renew interval is the default, a third of the TTL.
        let hint = if id == "renew" { "TTL/3" } else { "" };
        view! {
            <label class="knob">
                <span>{move || label(app.words())}</span>
                <input
                    data-testid=id
                    size="6"
                    placeholder=hint
                    inputmode="decimal"
                    prop:value=move || form.with(get)
                    on:input=move |ev| form.update(|f| set(f, event_target_value(&ev)))
                />
            </label>
        }
    };
    let select = move |label: fn(&crate::i18n::Words) -> &'static str,
                       id: &'static str,
                       options: Vec<(&'static str, fn(&crate::i18n::Words) -> &'static str)>,
                       get: fn(&Form) -> String,
                       set: fn(&mut Form, String)| {
        view! {
            <label class="knob">
                <span>{move || label(app.words())}</span>
                <select data-testid=id on:change=move |ev| form.update(|f| set(f, event_target_value(&ev)))>
                    {options
                        .into_iter()
                        .map(|(key, name)| view! { <option value=key selected=move || form.with(get) == key>{move || name(app.words())}</option> })
                        .collect_view()}
                </select>
            </label>
        }
    };
    view! {
        <section class="panel controls" data-testid="lease-controls">
            <h3>{move || app.words().lease_settings}</h3>
            <form
                class="knobs"
                on:submit=move |ev| {
                    ev.prevent_default();
                    match apply(app, &form.get_untracked()).and_then(|s| app.load(s, false)) {
                        Ok(()) => error.set(None),
                        Err(e) => error.set(Some(e)),
                    }
                }
            >
                {text(|w| w.ttl_s, "ttl", |f| f.ttl.clone(), |f, v| f.ttl = v)}
                {text(|w| w.renew_s, "renew", |f| f.renew.clone(), |f, v| f.renew = v)}
                {text(|w| w.workers, "workers", |f| f.workers.clone(), |f, v| f.workers = v)}
                {text(|w| w.drift_ppm, "drift", |f| f.drift.clone(), |f, v| f.drift = v)}
                {select(
                    |w| w.fencing,
                    "fencing",
                    vec![("article", |w| w.fence_article), ("token", |w| w.fence_token), ("off", |w| w.fence_off)],
                    |f| f.fencing.clone(),
                    |f, v| f.fencing = v,
                )}
                <label class="knob check">
                    <input type="checkbox" data-testid="bump-on-renew" prop:checked=move || form.with(|f| f.bump) on:change=move |_| form.update(|f| f.bump = !f.bump) />
                    <span>{move || app.words().bump_on_renew}</span>
                </label>
                {select(|w| w.design, "design", vec![("in_loop", |w| w.design_in_loop), ("beside", |w| w.design_beside), ("no_llm", |w| w.design_none)], |f| f.design.clone(), |f, v| f.design = v)}
                {select(
                    |w| w.llm_preset,
                    "preset",
                    vec![
                        ("fast_api", |w| w.preset_fast_api),
                        ("typical_llm", |w| w.preset_typical_llm),
                        ("stall", |w| w.preset_stall),
                        ("timeout", |w| w.preset_timeout),
                        ("rate_limit", |w| w.preset_rate_limit),
                        ("refusal", |w| w.preset_refusal),
                        ("malformed_json", |w| w.preset_malformed_json),
                        ("outage", |w| w.preset_outage),
                        ("flaky", |w| w.preset_flaky),
                        ("throttled", |w| w.preset_throttled),
                    ],
                    |f| f.preset.clone(),
                    |f, v| f.preset = v,
                )}
                {text(|w| w.stall_s, "stall", |f| f.stall.clone(), |f, v| f.stall = v)}
                <button class="btn primary" type="submit" data-testid="apply-settings">{move || app.words().apply_settings}</button>
            </form>
            <p class="field-error" role="alert" data-testid="settings-error">{move || error.get()}</p>
            {(!no_inject).then(|| view! { <Inject /> })}
            <super::super::faultlist::FaultList />
        </section>
    }
}

#[component]
pub fn Inject() -> impl IntoView {
    let app = use_app();
    let who = RwSignal::new("W1".to_string());
    let secs_text = RwSignal::new("12".to_string());
    let error = RwSignal::new(None::<String>);
    let workers = move || {
        app.rev.get();
        app.model.with_value(|m| {
            m.scenario()
                .nodes_with(Role::Worker)
                .iter()
                .map(|n| m.run.names[n.index()].clone())
                .collect::<Vec<_>>()
        })
    };
    let fire = move |llm: bool| {
        let sp = app.lang.get_untracked().tell();
        match parse_seconds(&secs_text.get_untracked()) {
            Ok(us) => {
                error.set(None);
                let node = who.get_untracked();
                app.inject(if llm {
                    Step::from(LeaseCommand::LlmStall { node, for_us: us })
                } else {
                    Fault::Pause { node, for_us: us }.into()
                });
            }
            Err(()) => error.set(Some(sp.bad_duration(&secs_text.get_untracked()))),
        }
    };
    view! {
        <div class="inject" data-testid="inject">
            <h4>{move || app.words().inject_title}</h4>
            <label class="knob">
                <span>{move || app.words().worker}</span>
                <select data-testid="inject-worker" on:change=move |ev| who.set(event_target_value(&ev))>
                    {move || workers().into_iter().map(|w| view! { <option value=w.clone() selected=move || who.get() == w>{w.clone()}</option> }).collect_view()}
                </select>
            </label>
            <label class="knob">
                <span>{move || app.words().stall_s}</span>
                <input data-testid="inject-seconds" size="5" prop:value=move || secs_text.get() on:input=move |ev| secs_text.set(event_target_value(&ev)) />
            </label>
            <button class="btn" data-testid="inject-llm-stall" on:click=move |_| fire(true)>{move || app.words().llm_stall_button}</button>
            <button class="btn" data-testid="inject-pause" on:click=move |_| fire(false)>{move || app.words().gc_pause_button}</button>
            <p class="field-error" role="alert">{move || error.get()}</p>
            <StoreFaults />
        </div>
    }
}

/// A replicated store at the cursor: its master, and its replicas that are down.
fn store_now(app: super::super::App) -> Option<(Option<String>, Vec<String>)> {
    app.rev.track();
    app.model.with_value(|m| {
        let stores = m.scenario().nodes_with(Role::LeaseStore);
        if stores.len() < 2 {
            return None;
        }
        let sim = &m.cursor;
        let up = |n: crate::sim::NodeId| sim.status(n) == crate::sim::Status::Up;
        let master = stores
            .iter()
            .find(|&&n| up(n) && matches!(sim.node(n), crate::protocol::NodeState::Multipaxos(crate::protocol::multipaxos::MpNode::Replica(r)) if r.is_leader()))
            .map(|n| m.run.names[n.index()].clone());
        let down = stores.iter().filter(|&&n| sim.status(n) == crate::sim::Status::Down).map(|n| m.run.names[n.index()].clone()).collect();
        Some((master, down))
    })
}

/// A replicated store's faults: crash its master now, bring a replica back.
#[component]
fn StoreFaults() -> impl IntoView {
    let app = use_app();
    // At the cursor, but changing only at a crash or a new master: kept by
    // the frame (`App::frame_memo`), drawn again only then.
    let now = app.frame_memo(move |_| store_now(app));
    move || {
        let (master, down) = now.get()?;
        let w = app.words();
        Some(view! {
            <div class="store-faults" data-testid="store-faults">
                {master.map(|name| {
                    let label = format!("{} ({name})", w.crash_store_master);
                    view! {
                        <button class="btn" data-testid="inject-store-crash" on:click=move |_| app.inject(Fault::Crash { node: name.clone() })>{label}</button>
                    }
                })}
                {down
                    .into_iter()
                    .map(|name| {
                        let label = format!("{} {name}", w.restart_replica);
                        view! {
                            <button class="btn" data-testid="inject-store-restart" on:click=move |_| app.inject(Fault::Restart { node: name.clone() })>{label}</button>
                        }
                    })
                    .collect_view()}
            </div>
        })
    }
}
