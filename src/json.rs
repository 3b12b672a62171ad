//! The page's one JSON reader: text → `serde_json::Value` → a type read
//! from the value by hand ([`FromValue`]).
//!
//! Why not `serde_json::from_slice`: its reader is a streaming deserializer,
//! so every type's derived `Deserialize` is compiled together with the parser
//! (whitespace, numbers, escapes and error positions inlined into each
//! visitor), and exact floats need its `float_roundtrip` feature with its
//! tables. Reading into a value first keeps the parser in one place, small;
//! the types are read from a tree (by hand, see `value`); and a float is read exactly by
//! `float::decimal`. Everything the page reads (scenarios and share links,
//! trace files, the model checker's replies) comes through here, so
//! `serde_json`'s own reader is not in the page at all.
//!
//! The grammar is RFC 8259's, with serde_json's limits (nesting under 128
//! deep) and messages in its style ("… at line 3 column 7"). Two choices of
//! our own: a key that appears twice in one object is refused (which one
//! would count is not obvious to a person editing a file), and a UTF-8 byte
//! order mark before the text is skipped (editors on Windows write one).

#[cfg(test)]
pub mod oracle;
mod tagged;
mod value;
#[cfg(test)]
pub use tagged::by_hand;
pub use tagged::{shown, tagged, Fields};
pub use value::{invalid, named, object, FromValue};

use serde_json::{Map, Number, Value};
use std::fmt;

/// Arrays and objects nest fewer than this many deep (serde_json's limit).
const MAX_DEPTH: u32 = 128;

/// What is wrong with a text, and where (line and column from 1; 0 when the
/// text parsed but does not fit the type, which has no single place).
#[derive(Clone, Debug, PartialEq)]
pub struct Error {
    pub message: String,
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.line == 0 {
            f.write_str(&self.message)
        } else {
            write!(
                f,
                "{} at line {} column {}",
                self.message, self.line, self.column
            )
        }
    }
}

/// A value of type `T` from JSON text.
pub fn read<T: FromValue>(bytes: &[u8]) -> Result<T, Error> {
    from_value(parse(bytes)?)
}

/// A value of type `T` from a parsed value.
pub fn from_value<T: FromValue>(value: Value) -> Result<T, Error> {
    T::from_value(value).map_err(|message| Error {
        message,
        line: 0,
        column: 0,
    })
}

/// Parse JSON text.
pub fn parse(bytes: &[u8]) -> Result<Value, Error> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut p = Parser { b: bytes, i: 0 };
    if let Err(e) = std::str::from_utf8(bytes) {
        p.i = e.valid_up_to();
        return Err(p.error("invalid UTF-8"));
    }
    let value = p.value(0)?;
    p.space();
    if p.i < p.b.len() {
        return Err(p.error("trailing characters"));
    }
    Ok(value)
}

struct Parser<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Parser<'a> {
    fn error(&self, message: &str) -> Error {
        let before = &self.b[..self.i.min(self.b.len())];
        let line = 1 + before.iter().filter(|&&c| c == b'\n').count();
        let start = before
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |n| n + 1);
        // Columns count characters, not bytes (a Japanese name is one each).
        let column = 1 + before[start..]
            .iter()
            .filter(|&&c| c & 0xC0 != 0x80)
            .count();
        Error {
            message: message.to_string(),
            line,
            column,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    /// `c` after optional whitespace, or an error saying it was expected.
    fn expect(&mut self, c: u8, what: &str) -> Result<(), Error> {
        self.space();
        if self.peek() == Some(c) {
            self.i += 1;
            Ok(())
        } else {
            Err(self.at_end_or(what))
        }
    }

    fn at_end_or(&self, what: &str) -> Error {
        if self.i >= self.b.len() {
            self.error("EOF while parsing a value")
        } else {
            self.error(what)
        }
    }

    fn value(&mut self, depth: u32) -> Result<Value, Error> {
        self.space();
        match self.peek() {
            Some(b'{') => self.object(depth + 1),
            Some(b'[') => self.array(depth + 1),
            Some(b'"') => Ok(Value::String(self.string()?)),
            Some(b't') => self.word("true", Value::Bool(true)),
            Some(b'f') => self.word("false", Value::Bool(false)),
            Some(b'n') => self.word("null", Value::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(self.at_end_or("expected value")),
        }
    }

    fn word(&mut self, word: &str, value: Value) -> Result<Value, Error> {
        if self.b[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Ok(value)
        } else {
            Err(self.error("expected value"))
        }
    }

    fn array(&mut self, depth: u32) -> Result<Value, Error> {
        if depth >= MAX_DEPTH {
            return Err(self.error("recursion limit exceeded"));
        }
        self.i += 1;
        let mut items = Vec::new();
        self.space();
        if self.peek() == Some(b']') {
            self.i += 1;
            return Ok(Value::Array(items));
        }
        loop {
            items.push(self.value(depth)?);
            self.space();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    return Ok(Value::Array(items));
                }
                _ => return Err(self.at_end_or("expected `,` or `]`")),
            }
        }
    }

    fn object(&mut self, depth: u32) -> Result<Value, Error> {
        if depth >= MAX_DEPTH {
            return Err(self.error("recursion limit exceeded"));
        }
        self.i += 1;
        let mut map = Map::new();
        self.space();
        if self.peek() == Some(b'}') {
            self.i += 1;
            return Ok(Value::Object(map));
        }
        loop {
            self.space();
            if self.peek() != Some(b'"') {
                return Err(self.at_end_or("key must be a string"));
            }
            let at = self.i;
            let key = self.string()?;
            self.expect(b':', "expected `:`")?;
            let value = self.value(depth)?;
            if map.contains_key(&key) {
                self.i = at;
                return Err(self.error(&format!("the key {key:?} appears twice")));
            }
            map.insert(key, value);
            self.space();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    return Ok(Value::Object(map));
                }
                _ => return Err(self.at_end_or("expected `,` or `}`")),
            }
        }
    }

    /// A string, the opening quote at `self.i`.
    fn string(&mut self) -> Result<String, Error> {
        self.i += 1;
        let mut out = String::new();
        loop {
            let start = self.i;
            while let Some(c) = self.peek() {
                if c == b'"' || c == b'\\' || c < 0x20 {
                    break;
                }
                self.i += 1;
            }
            // The input is UTF-8 and the run stops only at ASCII bytes.
            out.push_str(std::str::from_utf8(&self.b[start..self.i]).unwrap_or_default());
            match self.peek() {
                None => return Err(self.error("EOF while parsing a string")),
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.i += 1;
                    out.push(self.escape()?);
                }
                Some(_) => {
                    return Err(self
                        .error("control character (\\u0000-\\u001F) found while parsing a string"))
                }
            }
        }
    }

    /// The character an escape stands for, after its backslash.
    fn escape(&mut self) -> Result<char, Error> {
        let c = self
            .peek()
            .ok_or_else(|| self.error("EOF while parsing a string"))?;
        self.i += 1;
        Ok(match c {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let first = self.hex4()?;
                if (0xDC00..0xE000).contains(&first) {
                    return Err(self.error("lone trailing surrogate in hex escape"));
                }
                let code = if (0xD800..0xDC00).contains(&first) {
                    if !self.b[self.i..].starts_with(b"\\u") {
                        return Err(self.error("lone leading surrogate in hex escape"));
                    }
                    self.i += 2;
                    let second = self.hex4()?;
                    if !(0xDC00..0xE000).contains(&second) {
                        return Err(self.error("lone leading surrogate in hex escape"));
                    }
                    0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                } else {
                    first
                };
                // Every code left (below 0xD800, 0xE000–0xFFFF, or a pair's
                // 0x10000–0x10FFFF) is a character.
                char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER)
            }
            _ => {
                self.i -= 1;
                return Err(self.error("invalid escape"));
            }
        })
    }

    fn hex4(&mut self) -> Result<u32, Error> {
        let mut code = 0;
        for _ in 0..4 {
            let digit = self
                .peek()
                .and_then(|c| char::from(c).to_digit(16))
                .ok_or_else(|| self.at_end_or("invalid escape"))?;
            code = code * 16 + digit;
            self.i += 1;
        }
        Ok(code)
    }

    /// A number: an integer that fits `u64` or `i64` as one, anything else
    /// (a fraction, an exponent, a larger integer) as the nearest double.
    fn number(&mut self) -> Result<Value, Error> {
        let start = self.i;
        let negative = self.peek() == Some(b'-');
        if negative {
            self.i += 1;
        }
        let whole = self.digits();
        if whole.is_empty() || (whole.len() > 1 && whole[0] == b'0') {
            return Err(self.at_end_or("invalid number"));
        }
        let mut digits = whole.to_vec();
        let mut scale: i64 = 0;
        let mut integer = true;
        if self.peek() == Some(b'.') {
            self.i += 1;
            let fraction = self.digits();
            if fraction.is_empty() {
                return Err(self.at_end_or("invalid number"));
            }
            digits.extend_from_slice(fraction);
            scale -= fraction.len() as i64;
            integer = false;
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.i += 1;
            let minus = self.peek() == Some(b'-');
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            let exponent = self.digits();
            if exponent.is_empty() {
                return Err(self.at_end_or("invalid number"));
            }
            // Past 10^±100000 every value is 0 or out of range anyway.
            let e = exponent
                .iter()
                .fold(0i64, |e, &c| (e * 10 + i64::from(c - b'0')).min(100_000));
            scale += if minus { -e } else { e };
            integer = false;
        }
        if integer {
            let magnitude = whole.iter().try_fold(0u64, |n, &c| {
                n.checked_mul(10)?.checked_add(u64::from(c - b'0'))
            });
            match (negative, magnitude) {
                (false, Some(n)) => return Ok(Value::Number(n.into())),
                (true, Some(n)) if n <= 1 << 63 => {
                    return Ok(Value::Number((n.wrapping_neg() as i64).into()))
                }
                _ => {}
            }
        }
        let Some(x) = crate::float::decimal(negative, &digits, scale) else {
            self.i = start;
            return Err(self.error("number out of range"));
        };
        Ok(Value::Number(
            Number::from_f64(x).unwrap_or_else(|| 0.into()),
        ))
    }

    fn digits(&mut self) -> &'a [u8] {
        let (b, start) = (self.b, self.i);
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.i += 1;
        }
        &b[start..self.i]
    }
}

#[cfg(test)]
mod tests;
