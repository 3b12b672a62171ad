//! "If 1 ns were 1 s": the latency table scaled by 10⁹, ending with an LLM
//! call — and a slider for a call of 1 to 30 seconds.

use super::use_app;
use crate::scenario::latency::{scale_seconds, TABLE};
use leptos::prelude::*;

#[component]
pub fn LatencyTable(labels: &'static [&'static str]) -> impl IntoView {
    let app = use_app();
    let secs = RwSignal::new(10u32);
    view! {
        <section class="latency" data-testid="latency">
            <h2>{move || app.words().latency_title}</h2>
            <table class="latency-table">
                <thead>
                    <tr>
                        <th>{move || app.words().operation}</th>
                        <th>{move || app.words().real_time}</th>
                        <th>{move || app.words().scaled_time}</th>
                    </tr>
                </thead>
                <tbody>
                    {move || {
                        let sp = app.lang.get().tell();
                        TABLE
                            .iter()
                            .enumerate()
                            .map(|(i, row)| {
                                view! {
                                    <tr class:llm=row.op.is_llm_call()>
                                        <td>{labels.get(i).copied().unwrap_or_default()}</td>
                                        <td class="num">{sp.real(&row.real.real_amount())}</td>
                                        <td class="num scaled" data-testid=format!("scaled-{i}")>{sp.human(&row.real.scaled())}</td>
                                    </tr>
                                }
                            })
                            .collect_view()
                    }}
                </tbody>
            </table>
            <label class="llm-slider">
                <span>{move || app.words().llm_slider} " " <strong>{move || secs.get()}</strong> " " {move || app.words().seconds}</span>
                <input type="range" min="1" max="30" step="1" data-testid="llm-seconds" prop:value=move || secs.get().to_string()
                    on:input=move |ev| {
                        // Whole seconds: the slider's step is 1.
                        if let Ok(v) = event_target_value(&ev).parse::<u32>() {
                            secs.set(v);
                        }
                    } />
                <output data-testid="llm-scaled">
                    {move || scale_seconds(f64::from(secs.get())).map(|h| app.lang.get().tell().human(&h)).unwrap_or_default()}
                </output>
            </label>
        </section>
    }
}
