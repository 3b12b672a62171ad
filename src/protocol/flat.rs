//! Enums of enums written flat.
//!
//! A scenario's script is one list in which `{"crash": {...}}` (a simulator
//! fault) sits beside `{"propose": {...}}` (a Paxos command) and
//! `{"llm_stall": {...}}` (a lease-lab command). In memory these are three
//! different enums, each owned by its layer; on disk they share one
//! externally tagged namespace. Reading one means: read the tag, find the
//! enum that owns it, and let that enum read its fields from the value
//! (`Fault::from_json`, `Command::from_json`, by hand over `json::Fields`).
//! What is left here is the rule that such an object has one key.

use serde_json::{Map, Value};

/// An object's first key and its value, and the key after it, if any (it is
/// refused by [`end`] once the first has been read, as serde's derive did).
pub fn first(
    map: Map<String, Value>,
    what: &str,
) -> Result<(String, Value, Option<String>), String> {
    let mut keys = map.into_iter();
    let (tag, content) = keys
        .next()
        .ok_or_else(|| format!("a {what} needs a kind"))?;
    Ok((tag, content, keys.next().map(|(k, _)| k)))
}

/// After the one tag and its value, the object must end.
pub fn end(second: Option<String>, what: &str) -> Result<(), String> {
    match second {
        None => Ok(()),
        Some(k) => Err(format!("a {what} has one kind; found a second key {k:?}")),
    }
}
