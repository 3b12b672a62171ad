//! The page's model checker as its own WebAssembly module, run in a Web
//! Worker (`assets/checker-worker.js` drives it).
//!
//! Why apart from the app: in a worker the search never holds the page's
//! main thread (the parliament keeps moving while it runs), and it needs
//! none of the UI, so it is built without Leptos and fetched only when a
//! student starts a search — it adds nothing to the first load. It was first
//! built for speed (opt-level 3); measured in Chromium, opt-level "z" (the
//! profile `wasm-checker`) searches as fast, in 30 KB gzip less.
//!
//! What it says is `check::explore::job`: a request in, JSON replies out.

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("paxos-checker is the page's model-checker worker (WebAssembly only); natively, run `paxos-island model-check`");
    std::process::exit(2);
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(target_arch = "wasm32")]
mod worker {
    use paxos_island::check::explore::job::{self, Job};
    use wasm_bindgen::prelude::*;

    /// One search, held by the worker between slices.
    #[wasm_bindgen]
    pub struct Checker {
        job: Option<Job>,
        refused: Option<String>,
    }

    #[wasm_bindgen]
    impl Checker {
        /// Start a search of the request (JSON); a bad request is answered
        /// by the first `step`, with the reason.
        #[wasm_bindgen(constructor)]
        pub fn new(request: &str) -> Checker {
            match job::start(request) {
                Ok(job) => Checker {
                    job: Some(job),
                    refused: None,
                },
                Err(reply) => Checker {
                    job: None,
                    refused: Some(reply.to_json()),
                },
            }
        }

        /// Search on for `budget` states. Returns a reply as JSON (see
        /// `job::Reply`).
        pub fn step(&mut self, budget: usize) -> String {
            match (&mut self.job, &self.refused) {
                (Some(job), _) => job.step(budget).to_json(),
                (None, Some(refused)) => refused.clone(),
                (None, None) => unreachable!("a checker has a job or a refusal"),
            }
        }
    }
}
