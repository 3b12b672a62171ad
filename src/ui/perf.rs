//! A measuring probe for the benchmarks (off unless the page sets
//! `window.__paxosPerf = []`). It times one frame's work — moving the cursor
//! and the reactive updates it triggers — from its start until a short chain
//! of microtasks has run, i.e. after Leptos's scheduled effects of that
//! frame, and pushes the milliseconds onto `window.__paxosPerf`.

use wasm_bindgen::prelude::*;

// Asked every frame, so kept in JavaScript: through `web_sys` each question
// was a `window()` lookup and a property name made into a string — a third
// of a quiet frame's own work, whether the probe was on or not.
#[wasm_bindgen(
    inline_js = "export function start() { return Array.isArray(globalThis.__paxosPerf) ? performance.now() : -1; }
export function end(t0) {
  if (t0 < 0) return;
  const out = globalThis.__paxosPerf;
  let p = Promise.resolve();
  for (let i = 0; i < 6; i++) p = p.then(() => {});
  p.then(() => { if (Array.isArray(out)) out.push(performance.now() - t0); });
}
export function now() { return performance.now(); }
export function next_frame(cb) { requestAnimationFrame(cb); }
export function cursor_at(clock, scrub, t, end) {
  if (scrub.max !== String(end)) scrub.max = end;
  if (scrub.valueAsNumber !== t) scrub.value = t;
  clock.dataset.us = t;
}
const moved = new WeakMap();
export function translate_x(el, x) {
  let tr = moved.get(el);
  if (!tr) { el.setAttribute('transform', 'translate(0 0)'); tr = el.transform.baseVal.getItem(0); moved.set(el, tr); }
  tr.setTranslate(x, 0);
}"
)]
extern "C" {
    /// The probe's start: the page's clock if it is on, else -1.
    fn start() -> f64;
    /// Records the time since `t0` once seven microtasks have run.
    fn end(t0: f64);
    /// The page's clock (ms), `performance.now()`.
    pub fn now() -> f64;
    /// `requestAnimationFrame(cb)`.
    pub fn next_frame(cb: &js_sys::Function);
    /// `transform="translate(x 0)"`, through the element's own
    /// `SVGTransform` (kept by element): no string made or parsed per frame.
    pub fn translate_x(el: &web_sys::Element, x: f64);
    /// The cursor's time on the clock (`data-us`) and the scrubber (its
    /// thumb, and its end first so the value is not clamped to a shorter
    /// run's); numbers, so no string crosses from the module.
    pub fn cursor_at(
        clock: &web_sys::HtmlElement,
        scrub: &web_sys::HtmlInputElement,
        t: f64,
        end: f64,
    );
}

/// Run `f`, and if the probe is on, record how long it and its effects took
/// (until a chain of seven microtasks has run: Leptos runs the frame's
/// effects in microtasks).
pub fn measure(f: impl FnOnce()) {
    let t0 = start();
    f();
    end(t0);
}
