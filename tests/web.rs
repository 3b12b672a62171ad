//! Browser unit tests (wasm-bindgen-test in headless Chromium): the core
//! runs bit-identically in wasm, and the app mounts and responds.
#![cfg(target_arch = "wasm32")]

use paxos_island::scenario::builtin;
use paxos_island::scenario::run::Run;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// The golden hashes of tests/determinism.rs, computed in the browser.
#[wasm_bindgen_test]
fn builtin_scenarios_hash_the_same_in_wasm_as_natively() {
    let golden = include_str!("determinism.rs");
    for name in builtin::names() {
        let run = Run::record(&builtin::get(name).unwrap()).unwrap();
        let needle = format!("(\"{name}\", \"{}\")", run.hash());
        assert!(
            golden.contains(&needle),
            "{name}: wasm hash {} is not the native golden hash",
            run.hash()
        );
    }
}

#[wasm_bindgen_test]
fn random_schedules_are_safe_in_wasm_too() {
    use paxos_island::check::search::{self, FaultSet};
    let rep = search::check(
        |s| search::random_paxos(s, FaultSet::ALL, None),
        1,
        300,
        false,
    );
    assert_eq!(rep.violating, 0);
    let rep = search::check(
        |s| {
            search::random_paxos(
                s,
                FaultSet::ALL,
                Some(paxos_island::check::Mutation::Paxos(
                    paxos_island::protocol::paxos::PaxosMutation::SkipB3,
                )),
            )
        },
        1,
        3000,
        true,
    );
    assert!(rep.first.is_some());
}

#[wasm_bindgen_test]
async fn the_app_mounts_and_steps() {
    use wasm_bindgen::JsCast;
    let doc = web_sys::window().unwrap().document().unwrap();
    let host: web_sys::HtmlElement = doc.create_element("div").unwrap().unchecked_into();
    doc.body().unwrap().append_child(&host).unwrap();
    let _handle = paxos_island::ui::mount_into(host.clone());
    leptos::task::tick().await;
    let seats = host
        .query_selector_all("[data-testid^=seat-]")
        .unwrap()
        .length();
    assert_eq!(seats, 5);
    let time = || {
        host.query_selector("[data-testid=time]")
            .unwrap()
            .unwrap()
            .get_attribute("data-us")
            .unwrap()
    };
    assert_eq!(time(), "0");
    let step: web_sys::HtmlElement = host
        .query_selector("[data-testid=step-forward]")
        .unwrap()
        .unwrap()
        .unchecked_into();
    step.click();
    leptos::task::tick().await;
    assert_ne!(time(), "0");
}
