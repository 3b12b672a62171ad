//! Native: the `paxos-island` command-line tool. Browser: mount the app.

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = paxos_island::cli::main(&args, &mut std::io::stdout(), &mut std::io::stderr());
    std::process::exit(code);
}

#[cfg(target_arch = "wasm32")]
fn main() {
    paxos_island::ui::start();
}

/// The model checker's search, for its Web Worker (`checker-worker.js`),
/// which loads this same module: the search itself is a part, fetched by
/// `fetch_search` (`ui::search`). A callback rather than an `async`
/// export: that would bring wasm-bindgen's promise adapter into the first
/// load (~1.5 KB gzip) for a worker's sake.
#[cfg(target_arch = "wasm32")]
mod checker {
    use paxos_island::ui::search::{Open, Search};
    use std::sync::OnceLock;
    use wasm_bindgen::prelude::*;

    static OPEN: OnceLock<Open> = OnceLock::new();

    /// Fetch the search's part, then call `done` with whether it came.
    #[wasm_bindgen]
    pub fn fetch_search(done: js_sys::Function) {
        wasm_bindgen_futures::spawn_local(async move {
            if let Some(open) = paxos_island::ui::parts::load_search().await {
                let _ = OPEN.set(open);
            }
            let _ = done.call1(
                &JsValue::UNDEFINED,
                &JsValue::from_bool(OPEN.get().is_some()),
            );
        });
    }

    /// One search, held by the worker between slices.
    #[wasm_bindgen]
    pub struct Checker(Search);

    #[wasm_bindgen]
    impl Checker {
        /// Start a search of the request (JSON), once `fetch_search` has
        /// said yes; a bad request is answered by the first `step`, with the
        /// reason.
        #[wasm_bindgen(constructor)]
        pub fn new(request: &str) -> Checker {
            match OPEN.get() {
                Some(open) => Checker(open(request)),
                None => wasm_bindgen::throw_str("the search's part is not here yet"),
            }
        }

        /// Search on for `budget` states. Returns a reply as JSON (see
        /// `check::explore::job::Reply`).
        pub fn step(&mut self, budget: usize) -> String {
            (self.0)(budget)
        }
    }
}
