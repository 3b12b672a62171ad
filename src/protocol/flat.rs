//! Serde plumbing for enums of enums written flat.
//!
//! A scenario's script is one list in which `{"crash": {...}}` (a simulator
//! fault) sits beside `{"propose": {...}}` (a Paxos command) and
//! `{"llm_stall": {...}}` (a lease-lab command). In memory these are three
//! different enums, each owned by its layer; on disk they share one
//! externally tagged namespace. Reading one means: read the tag, find the
//! enum that owns it, and let that enum read its fields from the value
//! (`Fault::from_json`, `Command::from_json`, by hand over `json::Fields`).
//! What is left here is the rule that such an object has one key.

use serde::de::{self, MapAccess};

/// After the one tag and its value, the map must end.
pub fn end<'de, A: MapAccess<'de>>(map: &mut A, what: &str) -> Result<(), A::Error> {
    match map.next_key::<String>()? {
        None => Ok(()),
        Some(k) => Err(de::Error::custom(format!(
            "a {what} has one kind; found a second key {k:?}"
        ))),
    }
}
