//! Paxos Island: real Paxos, leases and fencing tokens in a deterministic
//! simulator, drawn as Lamport's parliament.
//!
//! The core (`sim`, `protocol`, `check`, `scenario`, `trace`, `viz`) is plain,
//! sans-IO Rust: no clocks, no threads, no DOM. The same code runs in the
//! command-line tool and, compiled to WebAssembly, in the page (`ui`).

pub mod check;
pub mod float;
pub mod held;
pub mod i18n;
pub mod json;
pub mod protocol;
pub mod scenario;
pub mod sim;
pub mod sorted;
pub mod trace;
pub mod viz;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;

#[cfg(all(target_arch = "wasm32", feature = "ui"))]
pub mod ui;
