//! The model checker's search as the checker's Web Worker runs it
//! (`checker-worker.js`): the worker loads the app's own module, which does
//! not mount the page there (`ui::start`), and fetches this part — the
//! search and its request and replies (`check::explore::job`) — through the
//! split point `search` (`parts::load_search`).
//!
//! Why not a module of its own, as before: the search's protocols, their
//! simulator and the JSON reader and writer are the app's code already
//! (the first load and the parts), so a second module carried a second copy
//! of them (68 KB gzip). Now the worker fetches the app's module (from the
//! browser's cache, as a rule) and only the search's own code beside it.
//!
//! The search is handed out as a boxed closure: its code is then reached
//! only through the split point, so none of it lands in the first load.

use crate::check::explore::job;

/// Searches on for a budget of states; answers a reply as JSON
/// (`job::Reply`).
pub type Search = Box<dyn FnMut(usize) -> String>;

/// Starts a search of a request (JSON); a bad request is answered by the
/// first step, with the reason.
pub type Open = fn(&str) -> Search;

pub fn open(request: &str) -> Search {
    match job::start(request) {
        Ok(mut job) => Box::new(move |budget| job.step(budget).to_json()),
        Err(refused) => {
            let refused = refused.to_json();
            Box::new(move |_| refused.clone())
        }
    }
}
