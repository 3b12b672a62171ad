//! Share links: a whole scenario packed into a URL fragment.
//!
//! A link is `…#s=s1.<payload>.<check>` where
//!
//! - `s1` is the link format version (a later format gets `s2`, and this
//!   version says so instead of guessing);
//! - `<payload>` is base64url (no padding) of the raw-deflated compact JSON of
//!   the [`Scenario`] — the same JSON a scenario file holds, so a link and a
//!   file can never disagree about what a field means;
//! - `<check>` is 6 base64url characters (36 bits) of the FNV-1a hash of the
//!   payload text.
//!
//! The checksum sits at the *end* on purpose: a link cut short by a chat
//! program or a line break loses its end first, so "cut" is told apart from
//! "changed" (a mistyped or edited character) and both from "made by another
//! version" — three different things to tell a user. The fragment never
//! reaches a server, so nothing about a scenario leaves the browser.

use crate::scenario::{Scenario, ScenarioError};
use thiserror::Error;

/// The version prefix this code writes and reads.
pub const VERSION: &str = "s1";
/// Characters of checksum after the last dot.
const CHECK_LEN: usize = 6;
/// Longer input than this is not a link of ours (browsers cut URLs near 64 KB anyway).
pub const MAX_LINK: usize = 64 * 1024;
/// A scenario never unpacks to more than this; anything bigger is a zip bomb.
const MAX_JSON: usize = 256 * 1024;

#[derive(Debug, Error, Clone, PartialEq)]
pub enum ShareError {
    #[error("the link holds no scenario (nothing after \"#s=\")")]
    Empty,
    #[error("this is not a Paxos Island scenario link (it should look like \"#s=s1.…\")")]
    NotALink,
    #[error("the link is too long ({0} characters); a scenario link is at most {MAX_LINK}")]
    TooLong(usize),
    #[error("this link was made by another version of Paxos Island (format \"{0}\"); this version reads \"{VERSION}\" links")]
    UnknownVersion(String),
    #[error("the link is cut short: copy the whole link, up to its very last character")]
    Cut,
    #[error("the link holds {0:?}, a character no Paxos Island link contains (was it mistyped, or escaped by the program that passed it on?)")]
    BadChar(char),
    #[error("the link has been changed or mistyped: its checksum does not match its contents")]
    Changed,
    #[error("the link is damaged and does not unpack ({0})")]
    Damaged(String),
    #[error("the link unpacks, but not to a scenario this version understands: {0}")]
    NotAScenario(String),
    #[error("the link's scenario cannot run: {}", super::import::one_line(&.0.to_string()))]
    Invalid(ScenarioError),
}

/// The fragment for `scenario`: `s1.<payload>.<check>` (without `#s=`).
pub fn encode(scenario: &Scenario) -> String {
    pack(&serde_json::to_vec(scenario).expect("a scenario always serializes"))
}

/// Pack any bytes as a link (what [`encode`] does with a scenario's JSON).
/// Public so tests and tools can make links that are well-formed but hold
/// something other than a valid scenario.
pub fn pack(bytes: &[u8]) -> String {
    seal(&base64url(&miniz_oxide::deflate::compress_to_vec(bytes, 9)))
}

/// `s1.<payload>.<check>` for a payload as it stands (even one that is not
/// valid base64url or deflate: for tests of the decoder).
pub fn seal(payload: &str) -> String {
    format!("{VERSION}.{payload}.{}", checksum(payload))
}

/// The part of a pasted text that is the link: a whole URL, `#s=…`, `s=…` or
/// the bare `s1.…` all work; other `&`-separated fragment fields are ignored.
pub fn fragment_of(text: &str) -> &str {
    let text = text.trim();
    let frag = match text.find('#') {
        Some(i) => &text[i + 1..],
        None => text,
    };
    frag.split('&')
        .map(str::trim)
        .find_map(|p| p.strip_prefix("s="))
        .unwrap_or(frag.split('&').next().unwrap_or("").trim())
}

/// Does `text` look like a share link (rather than a name or a file path)?
pub fn looks_like_link(text: &str) -> bool {
    let t = text.trim();
    if t.contains("#s=") || t.starts_with("s=") {
        return true;
    }
    let Some((v, rest)) = t.split_once('.') else {
        return false;
    };
    is_version(v) && !rest.is_empty() && !t.ends_with(".json")
}

fn is_version(v: &str) -> bool {
    v.len() >= 2 && v.starts_with('s') && v[1..].bytes().all(|b| b.is_ascii_digit())
}

/// Unpack a link (or a fragment, see [`fragment_of`]) into a valid scenario.
pub fn decode(text: &str) -> Result<Scenario, ShareError> {
    if text.len() > MAX_LINK {
        return Err(ShareError::TooLong(text.len()));
    }
    let frag = fragment_of(text);
    if frag.is_empty() {
        return Err(ShareError::Empty);
    }
    let Some((version, rest)) = frag.split_once('.') else {
        // "s1" alone, or a prefix of it, is a link cut right after its start.
        return Err(if is_version(frag) || frag == "s" {
            ShareError::Cut
        } else {
            ShareError::NotALink
        });
    };
    if !is_version(version) {
        return Err(ShareError::NotALink);
    }
    if version != VERSION {
        return Err(ShareError::UnknownVersion(
            version.chars().take(12).collect(),
        ));
    }
    // A character outside base64url is damage, not a cut (which only ever
    // loses the end).
    if let Some(c) = rest
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
    {
        return Err(ShareError::BadChar(c));
    }
    let Some((payload, check)) = rest.rsplit_once('.') else {
        return Err(ShareError::Cut);
    };
    if check.len() < CHECK_LEN {
        return Err(ShareError::Cut);
    }
    if check != checksum(payload) {
        return Err(ShareError::Changed);
    }
    let packed = unbase64url(payload)
        .ok_or_else(|| ShareError::Damaged("a character outside base64url".into()))?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_JSON)
        .map_err(|e| ShareError::Damaged(format!("deflate: {:?}", e.status)))?;
    let scenario = Scenario::read(&json)
        .map_err(|e| ShareError::NotAScenario(super::import::one_line(&e.to_string())))?;
    scenario.validate().map_err(ShareError::Invalid)?;
    Ok(scenario)
}

/// 36 bits of FNV-1a of the payload, as 6 base64url characters.
fn checksum(payload: &str) -> String {
    let h = super::fnv1a(payload.as_bytes());
    (0..CHECK_LEN)
        .map(|i| ALPHABET[((h >> (58 - 6 * i)) & 63) as usize] as char)
        .collect()
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// base64url without padding (RFC 4648 §5): safe in a URL fragment as is.
fn base64url(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for i in 0..=chunk.len() {
            out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

fn unbase64url(text: &str) -> Option<Vec<u8>> {
    let val = |c: u8| ALPHABET.iter().position(|&a| a == c).map(|p| p as u32);
    let bytes = text.as_bytes();
    if bytes.len() % 4 == 1 {
        return None; // no encoder ever leaves a single character over
    }
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= val(c)? << (18 - 6 * i);
        }
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64url_round_trips_every_length() {
        for len in 0..40usize {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 37 + 11) as u8).collect();
            let text = base64url(&bytes);
            assert!(text.bytes().all(|c| ALPHABET.contains(&c)));
            assert_eq!(unbase64url(&text), Some(bytes));
        }
        assert_eq!(base64url(b"Man"), "TWFu");
        assert_eq!(base64url(b"Ma"), "TWE");
        assert_eq!(unbase64url("TW=="), None);
    }

    #[test]
    fn finds_the_fragment_in_what_users_paste() {
        assert_eq!(fragment_of("https://x.org/app/#s=s1.abc.def"), "s1.abc.def");
        assert_eq!(fragment_of("#t=5&s=s1.abc.def"), "s1.abc.def");
        assert_eq!(fragment_of("  s1.abc.def\n"), "s1.abc.def");
        assert!(looks_like_link("s1.abc.def"));
        assert!(looks_like_link("https://x.org/#s=s1.a.b"));
        assert!(!looks_like_link("calm"));
        assert!(!looks_like_link("scenario.json"));
        assert!(!looks_like_link("s1.json"));
    }
}
