//! A decree (a proposed value): a short UTF-8 string stored inline, so that
//! messages stay `Copy` and cost no allocation on the hot path.

use std::fmt;

/// The most bytes a decree may have (8 Japanese characters, 24 Latin ones).
pub const MAX_VALUE_BYTES: usize = 24;

// `eq` below compares exactly the fields `Hash` hashes, so the two agree.
#[allow(clippy::derived_hash_with_manual_eq)]
#[derive(Copy, Clone, Eq, PartialOrd, Ord, Hash)]
pub struct Value {
    len: u8,
    bytes: [u8; MAX_VALUE_BYTES],
}

/// Why a string cannot be a decree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadValue {
    Empty,
    TooLong { bytes: usize },
    Control,
}

impl fmt::Display for BadValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadValue::Empty => write!(f, "a decree cannot be empty"),
            BadValue::TooLong { bytes } => write!(
                f,
                "a decree may have at most {MAX_VALUE_BYTES} bytes (about 8 Japanese or 24 Latin characters); this one has {bytes}"
            ),
            BadValue::Control => write!(f, "a decree cannot contain control characters"),
        }
    }
}

impl Value {
    pub fn new(s: &str) -> Result<Value, BadValue> {
        let s = s.trim();
        if s.is_empty() {
            return Err(BadValue::Empty);
        }
        if s.len() > MAX_VALUE_BYTES {
            return Err(BadValue::TooLong { bytes: s.len() });
        }
        if s.chars().any(char::is_control) {
            return Err(BadValue::Control);
        }
        let mut bytes = [0u8; MAX_VALUE_BYTES];
        bytes[..s.len()].copy_from_slice(s.as_bytes());
        Ok(Value {
            len: s.len() as u8,
            bytes,
        })
    }

    pub fn as_str(&self) -> &str {
        // Built only from a &str, cut at its full length: always valid UTF-8.
        std::str::from_utf8(&self.bytes[..self.len as usize]).unwrap_or("?")
    }
}

impl PartialEq for Value {
    /// Field by field, as a derived `eq` would. Written out because decrees
    /// are compared on every vote and every learn, and the derived comparison
    /// of the byte array becomes a call to `memcmp`; three words are cheaper.
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.words() == other.words()
    }
}

// `Value::words` reads the bytes as three words.
const _: () = assert!(MAX_VALUE_BYTES == 24);

impl Value {
    #[inline]
    fn words(&self) -> [u64; 3] {
        let b = &self.bytes;
        let word = |i: usize| {
            u64::from_ne_bytes([
                b[i],
                b[i + 1],
                b[i + 2],
                b[i + 3],
                b[i + 4],
                b[i + 5],
                b[i + 6],
                b[i + 7],
            ])
        };
        [word(0), word(8), word(16)]
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_refuses_bad_input() {
        assert_eq!(Value::new(" α ").unwrap().as_str(), "α");
        assert_eq!(Value::new("税を上げる").unwrap().as_str(), "税を上げる");
        assert_eq!(Value::new(""), Err(BadValue::Empty));
        assert!(matches!(
            Value::new(&"x".repeat(25)),
            Err(BadValue::TooLong { .. })
        ));
        assert_eq!(Value::new("a\u{7}"), Err(BadValue::Control));
    }

    #[test]
    fn equality_is_by_content() {
        let all = [
            "α",
            "β",
            "αβ",
            "a",
            "ab",
            "abcdefghijklmnopqrstuvwx",
            "abcdefghijklmnopqrstuvwy",
            "税を上げる",
        ];
        for a in all {
            for b in all {
                let (va, vb) = (Value::new(a).unwrap(), Value::new(b).unwrap());
                assert_eq!(va == vb, a == b, "{a} {b}");
                assert_eq!(va == vb, va.cmp(&vb).is_eq());
            }
        }
    }
}
