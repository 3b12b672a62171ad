//! The article's red flags, evaluated by the core for the scenario on
//! screen, each with the figures behind it — and the lease rule in one
//! sentence.

use super::super::use_app;
use leptos::prelude::*;

#[component]
pub fn RedFlags() -> impl IntoView {
    let app = use_app();
    let flags = move || {
        app.rev.get();
        app.model.with_value(|m| m.flags().cloned())
    };
    view! {
        <section class="panel flags" data-testid="red-flags">
            <h3>{move || app.words().red_flags_title}</h3>
            <ul class="flag-list">
                {move || {
                    let f = flags()?;
                    let w = app.words();
                    let sp = app.lang.get().tell();
                    let items = [
                        ("depends", w.flag_depends, f.depends_on_llm),
                        ("p99", w.flag_p99, f.p99_over_half_ttl),
                        ("ttl", w.flag_ttl, f.ttl_stretched),
                        ("drill", w.flag_drill, f.drill_fails),
                    ];
                    Some(
                        items
                            .into_iter()
                            .enumerate()
                            .map(|(i, (id, title, raised))| {
                                view! {
                                    <li class="flag" class:raised=raised data-testid=format!("flag-{id}") data-state=if raised { "raised" } else { "quiet" }>
                                        <span class="flag-mark" aria-hidden="true">{if raised { "⚑" } else { "✓" }}</span>
                                        <strong>{title}</strong>
                                        <span class="flag-state">{if raised { w.raised } else { w.quiet }}</span>
                                        <p class="flag-detail">{sp.flag_detail(i, &f)}</p>
                                    </li>
                                }
                            })
                            .collect_view(),
                    )
                }}
            </ul>
            <h4>{move || app.words().lease_rule_title}</h4>
            <p class="rule" data-testid="lease-rule">{move || app.words().lease_rule}</p>
        </section>
    }
}
