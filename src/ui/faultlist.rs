//! The faults a scenario holds — scripted, injected, or brought by a link —
//! each with its moment, in words, and a way to take it out again. Taking
//! one out re-runs the scenario; the time on screen stays.

use super::use_app;
use crate::scenario::Step;
use crate::sim::NodeId;
use crate::viz::narrate::Say;
use leptos::prelude::*;

#[component]
pub fn FaultList() -> impl IntoView {
    let app = use_app();
    let rows = move || {
        app.rev.get();
        let lang = app.lang.get();
        app.model.with_value(|m| {
            let s = m.scenario();
            s.faults
                .iter()
                .map(|f| {
                    let text = f
                        .fault
                        .try_map(|n| s.resolve(n, "faults").or(Err(())))
                        .map(|step: Step<NodeId>| {
                            let say = match step {
                                Step::Fault(fault) => Say::Fault {
                                    fault,
                                    chamber: m.kind() == crate::protocol::Kind::Paxos,
                                },
                                Step::Command(command) => Say::Command { command },
                            };
                            lang.tell().say(&m.run.names, &say)
                        })
                        .unwrap_or_else(|_| f.fault.kind().to_string());
                    (f.at_us, text)
                })
                .collect::<Vec<_>>()
        })
    };
    let remove = move |i: usize| {
        let mut s = app.scenario();
        if i < s.faults.len() {
            s.faults.remove(i);
            if let Err(e) = app.load(s, true) {
                app.toast.set(Some((e, true)));
            }
        }
    };
    view! {
        <details class="fault-list" data-testid="fault-list">
            <summary>{move || format!("{} ({})", app.words().faults_in_scenario, rows().len())}</summary>
            <ol>
                {move || {
                    let list = rows();
                    if list.is_empty() {
                        return view! { <li class="hint">{app.words().no_faults}</li> }.into_any();
                    }
                    list.into_iter()
                        .enumerate()
                        .map(|(i, (at, text))| {
                            view! {
                                <li data-testid=format!("fault-{i}")>
                                    <button class="jump" on:click=move |_| {
                                        app.playing.set(false);
                                        app.set_t(at);
                                    }>{app.lang.get_untracked().tell().duration(at)}</button>
                                    " " <span>{text}</span> " "
                                    <button class="btn icon small" data-testid=format!("remove-fault-{i}") aria-label=app.words().remove_fault
                                        on:click=move |_| remove(i)>"×"</button>
                                </li>
                            }
                        })
                        .collect_view()
                        .into_any()
                }}
            </ol>
        </details>
    }
}
