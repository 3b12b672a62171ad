//! The animation loop: while playing, advance virtual time by the real time
//! elapsed × speed, and publish the snapshot. Paused, it does nothing; the
//! same `set_t` path serves stepping and scrubbing.

use super::App;
use leptos::prelude::*;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

type Frame = Rc<RefCell<Option<Closure<dyn FnMut(f64)>>>>;

fn request(frame: &Frame) {
    if let Some(cb) = frame.borrow().as_ref() {
        super::perf::next_frame(cb.as_ref().unchecked_ref());
    }
}

/// Start the loop for the app's lifetime (the root never unmounts).
pub fn drive(app: App) {
    let frame: Frame = Rc::new(RefCell::new(None));
    let last: Rc<Cell<Option<f64>>> = Rc::default();
    let again = frame.clone();
    *frame.borrow_mut() = Some(Closure::new(move |now: f64| {
        if app.playing.get_untracked() {
            // Clamp: a hidden tab must not jump the run forward in one frame.
            let dt = last
                .get()
                .map_or(0.0, |p| crate::float::clamp(now - p, 0.0, 100.0));
            last.set(Some(now));
            let advance = (dt * 1_000.0 * app.speed()).round() as u64;
            let (t, end) = (app.t.get_untracked(), app.end.get_untracked());
            let next = t.saturating_add(advance).min(end);
            if next != t {
                app.set_t(next);
            }
            if next >= end {
                app.playing.set(false);
            }
        } else {
            last.set(None);
        }
        request(&again);
    }));
    request(&frame);
}
