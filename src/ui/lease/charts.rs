//! The lease lab's charts (SVG strings, `viz::charts`): LLM latency against TTL/2 and
//! TTL, a Monte Carlo sweep against TTL (computed in slices across animation
//! frames, with progress), and lease validity over time. Each downloads as SVG.

use super::super::{browser, use_app, App};
use crate::float::{coord, fixed};
use crate::protocol::lease::Design;
use crate::protocol::llm::LlmPreset;
use crate::scenario::lease_mc::{Grid, Sweep};
use crate::scenario::Role;
use crate::sim::rng::{Rng, Stream};
use crate::sim::{NodeId, SimTime};
use crate::viz::charts::{self, Labels};
use leptos::prelude::*;

#[derive(Copy, Clone, PartialEq, Eq)]
enum Tab {
    Latency,
    Sweep,
    Validity,
}

const SIZE: (u32, u32) = (640, 300);
const TTLS: [u64; 10] = [
    500_000, 1_000_000, 1_500_000, 2_000_000, 3_000_000, 4_000_000, 6_000_000, 8_000_000,
    12_000_000, 16_000_000,
];

fn latency_chart(app: App) -> Result<String, String> {
    let w = app.words();
    let (spec, seed) = app
        .model
        .with_value(|m| (m.scenario().lease.clone(), m.scenario().seed));
    let spec = spec.ok_or("no lease scenario")?;
    let dist = match spec.llm {
        LlmPreset::Timeout => crate::sim::dist::Latency::Constant {
            us: spec.llm_timeout_us,
        },
        ref p => p.latency(),
    };
    let mut rng = Rng::new(seed, Stream::Llm);
    let samples: Vec<u64> = (0..3_000).map(|_| dist.sample(&mut rng).0).collect();
    let l = Labels {
        title: w.chart_latency.into(),
        x: w.seconds_log.into(),
        y: w.count.into(),
        names: vec![w.calls.into(), "TTL/2".into(), "TTL".into()],
    };
    charts::latency(&samples, spec.ttl_us, &l, SIZE)
}

fn validity_chart(app: App) -> Result<String, String> {
    let w = app.words();
    app.model.with_value(|m| {
        let run = &m.run;
        let workers = run.scenario.nodes_with(Role::Worker);
        let stores = run.scenario.nodes_with(Role::LeaseStore);
        stores.first().ok_or("no store")?;
        let mut series: Vec<(String, Vec<(f64, f64)>)> = workers
            .iter()
            .map(|n| (run.names[n.index()].clone(), Vec::new()))
            .collect();
        let mut truth = Vec::new();
        let steps = 160;
        let mut sim = run.state_at(SimTime::ZERO);
        for k in 0..=steps {
            let t = SimTime(run.end.0 * k / steps);
            run.seek(&mut sim, t);
            let ts = t.0 as f64 / 1e6;
            for (i, &n) in workers.iter().enumerate() {
                let left = sim
                    .node(n)
                    .as_lease()
                    .and_then(|l| l.as_worker())
                    .filter(|w| w.holding)
                    .map(|w| w.deadline.0.saturating_sub(sim.local_time(n).0) as f64 / 1e6)
                    .unwrap_or(0.0);
                series[i].1.push((ts, left));
            }
            // The single store's row, or a replicated store's as the
            // replica furthest along its log holds it, on that replica's clock.
            let store_left = stores
                .iter()
                .filter_map(|&s| {
                    let (applied, row) = match sim.node(s).as_lease() {
                        Some(crate::protocol::lease::LeaseNode::Store(st)) => {
                            (Default::default(), st.row?)
                        }
                        _ => crate::protocol::lease_group::row_of(sim.node(s))?,
                    };
                    Some((applied, row, s))
                })
                .max_by_key(|(applied, _, _)| *applied)
                .map(|(_, r, s)| r.expires_at.0.saturating_sub(sim.local_time(s).0) as f64 / 1e6)
                .unwrap_or(0.0);
            truth.push((ts, store_left));
        }
        series.push((format!("{} ({})", w.lane_store, w.store_says), truth));
        let l = Labels {
            title: w.chart_validity.into(),
            x: w.time_axis.into(),
            y: w.remaining_s.into(),
            names: Vec::new(),
        };
        let _ = NodeId(0);
        charts::validity(&series, &l, SIZE)
    })
}

#[component]
pub fn Charts() -> impl IntoView {
    let app = use_app();
    let tab = RwSignal::new(Tab::Latency);
    let sweep = StoredValue::new(None::<Sweep>);
    let progress = RwSignal::new(None::<f64>);
    let sweep_svgs = RwSignal::new(None::<(String, String)>);
    // A new run invalidates a finished sweep.
    Effect::new(move |_| {
        app.rev.get();
        sweep.set_value(None);
        progress.set(None);
        sweep_svgs.set(None);
    });
    let chart = Memo::new(move |_| {
        app.rev.get();
        app.lang.get();
        match tab.get() {
            Tab::Latency => latency_chart(app),
            Tab::Validity => validity_chart(app),
            Tab::Sweep => Ok(String::new()),
        }
    });
    let render_sweep = move || {
        let w = app.words();
        let cells = sweep
            .with_value(|s| s.as_ref().map(|s| s.cells()))
            .unwrap_or_default();
        let names = vec![w.fencing_on.to_string(), w.fencing_off.to_string()];
        let a = charts::sweep(
            &cells,
            |c| c.split_brain_us / 1e6,
            &Labels {
                title: w.split_per_run.into(),
                x: w.ttl_axis.into(),
                y: w.split_time.into(),
                names: names.clone(),
            },
            SIZE,
        );
        let b = charts::sweep(
            &cells,
            |c| c.lost_updates,
            &Labels {
                title: w.stale_per_run.into(),
                x: w.ttl_axis.into(),
                y: w.damaged_rows.into(),
                names,
            },
            SIZE,
        );
        if let (Ok(a), Ok(b)) = (a, b) {
            sweep_svgs.set(Some((a, b)));
        }
    };
    // The figures behind the chart, for anyone who wants to read them off the page.
    let sweep_data = move || {
        sweep.with_value(|s| {
            let cells = s.as_ref().map(|s| s.cells()).unwrap_or_default();
            let rows: Vec<String> = cells
                .iter()
                .map(|c| {
                    format!(
                        "{{\"ttl_us\":{},\"fencing\":{},\"runs\":{},\"split_brain_us\":{},\"stale_attempted\":{},\"stale_accepted\":{},\"lost_updates\":{}}}",
                        c.ttl_us, c.fencing, c.runs, fixed(c.split_brain_us, 0), fixed(c.stale_attempted, 3), fixed(c.stale_accepted, 3), fixed(c.lost_updates, 3)
                    )
                })
                .collect();
            format!("[{}]", rows.join(","))
        })
    };
    let start_sweep = move || {
        let base = app.scenario();
        let Some(spec) = base.lease.clone() else {
            return;
        };
        let mut base = base;
        base.faults.clear();
        let stall = if spec.design == Design::NoLlm {
            LlmPreset::TypicalLlm.latency()
        } else {
            spec.llm.latency()
        };
        sweep.set_value(Some(Sweep::new(Grid::over_ttl(
            &base,
            stall,
            TTLS.to_vec(),
            10,
        ))));
        progress.set(Some(0.0));
        sweep_svgs.set(None);
        // Work in slices of ~10 ms per frame so the page stays responsive.
        fn frame(
            app: App,
            sweep: StoredValue<Option<Sweep>>,
            progress: RwSignal<Option<f64>>,
            done: impl Fn() + Clone + 'static,
        ) {
            let perf = web_sys::window().and_then(|w| w.performance());
            let t0 = perf.as_ref().map(|p| p.now()).unwrap_or(0.0);
            let mut finished = false;
            loop {
                let f = sweep
                    .try_update_value(|s| s.as_mut().map(|s| (s.advance(2), s.progress())))
                    .flatten();
                let Some((end, p)) = f else { return };
                progress.set(Some(p));
                if end {
                    finished = true;
                    break;
                }
                if perf.as_ref().map(|p| p.now() - t0).unwrap_or(100.0) > 10.0 {
                    break;
                }
            }
            if finished {
                done();
            } else {
                let d = done.clone();
                request_animation_frame(move || frame(app, sweep, progress, d));
            }
        }
        frame(app, sweep, progress, render_sweep);
    };
    let download = move |name: &str, svg: String| {
        if let Err(e) = browser::download(name, &svg, "image/svg+xml") {
            app.toast.set(Some((e, true)));
        }
    };
    let tab_button = move |t: Tab,
                           label: fn(&crate::i18n::Words) -> &'static str,
                           id: &'static str| {
        view! {
            <button class="tab" role="tab" data-testid=id class:active=move || tab.get() == t aria-selected=move || (tab.get() == t).to_string() on:click=move |_| tab.set(t)>
                {move || label(app.words())}
            </button>
        }
    };
    view! {
        <section class="panel charts" data-testid="charts">
            <h3>{move || app.words().charts_title}</h3>
            <div class="tabs" role="tablist">
                {tab_button(Tab::Latency, |w| w.chart_latency, "chart-tab-latency")}
                {tab_button(Tab::Sweep, |w| w.chart_sweep, "chart-tab-sweep")}
                {tab_button(Tab::Validity, |w| w.chart_validity, "chart-tab-validity")}
            </div>
            {move || match tab.get() {
                Tab::Sweep => view! {
                    <div class="sweep">
                        <button class="btn primary" data-testid="run-sweep" prop:disabled=move || { progress.get().is_some_and(|p| p < 1.0) } on:click=move |_| start_sweep()>
                            {move || app.words().run_sweep}
                        </button>
                        {move || progress.get().map(|p| view! {
                            <progress data-testid="sweep-progress" max="1" value=coord(p)>{format!("{} %", fixed(p * 100.0, 0))}</progress>
                        })}
                        {move || sweep_svgs.get().map(|(a, b)| view! {
                            <div class="chart" data-testid="sweep-chart" data-cells=sweep_data() inner_html=a.clone()></div>
                            <button class="btn" on:click=move |_| download("split-brain-vs-ttl.svg", a.clone())>{app.words().download_svg}</button>
                            <div class="chart" data-testid="sweep-chart-stale" inner_html=b.clone()></div>
                            <button class="btn" on:click=move |_| download("stale-writes-vs-ttl.svg", b.clone())>{app.words().download_svg}</button>
                        })}
                    </div>
                }.into_any(),
                _ => match chart.get() {
                    Ok(svg) => {
                        let s2 = svg.clone();
                        view! {
                            <div class="chart" data-testid="chart" inner_html=svg></div>
                            <button class="btn" data-testid="download-chart" on:click=move |_| download("chart.svg", s2.clone())>{app.words().download_svg}</button>
                        }.into_any()
                    }
                    Err(e) => view! { <p class="field-error">{e}</p> }.into_any(),
                },
            }}
        </section>
    }
}
