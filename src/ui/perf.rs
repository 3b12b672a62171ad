//! A measuring probe for the benchmarks (off unless the page sets
//! `window.__paxosPerf = []`). It times one frame's work — moving the cursor
//! and the reactive updates it triggers — from its start until a short chain
//! of microtasks has run, i.e. after Leptos's scheduled effects of that
//! frame, and pushes the milliseconds onto `window.__paxosPerf`.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

fn probe() -> Option<js_sys::Array> {
    let w = web_sys::window()?;
    js_sys::Reflect::get(&w, &JsValue::from_str("__paxosPerf"))
        .ok()?
        .dyn_into::<js_sys::Array>()
        .ok()
}

pub fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

/// Run `f`, and if the probe is on, record how long it and its effects took.
pub fn measure(f: impl FnOnce()) {
    let Some(out) = probe() else {
        f();
        return;
    };
    let t0 = now();
    f();
    chain(out, t0, 6);
}

fn chain(out: js_sys::Array, t0: f64, depth: u32) {
    let promise = js_sys::Promise::resolve(&JsValue::UNDEFINED);
    let cb = Closure::once(move |_: JsValue| {
        if depth == 0 {
            out.push(&JsValue::from_f64(now() - t0));
        } else {
            chain(out, t0, depth - 1);
        }
    });
    let _ = promise.then(&cb);
    cb.forget();
}
