//! Types read from a JSON value by hand: [`FromValue`].
//!
//! Why not serde's derived `Deserialize`: over a `serde_json::Value` it
//! compiles a visitor per struct and a field visitor per field name, the
//! value's generic deserializer for each type it meets (`deserialize_seq`
//! alone was 18 KB of the page's code, `Option`'s 16 KB) and serde's error
//! formatting — ~30 KB gzip for the scenario's dozen structs. Read by hand,
//! a struct is its fields read by name ([`super::Fields`]), a list its items,
//! a name one of a table. Writing stays serde's derive.
//!
//! The rules are serde's for these types as they were derived: a field
//! with a default may be left out, an `Option` may be left out or `null`,
//! and any other key is refused (`deny_unknown_fields`). The messages say
//! where: "`nodes`: item 2: `roles`: item 1: unknown variant `acceptr`, …".

use super::{shown, Fields};
use serde_json::Value;

/// A type read from a JSON value, with a message that says what is wrong.
pub trait FromValue: Sized {
    fn from_value(value: Value) -> Result<Self, String>;
}

/// `invalid type: string "x", expected u64`.
pub fn invalid(value: &Value, want: &str) -> String {
    format!("invalid type: {}, expected {want}", shown(value))
}

/// A message from inside the field `name`: "invalid type for `seed`: …"
/// for a value of the wrong type (or "invalid value for …" out of range),
/// "`nodes`: …" for anything deeper.
pub fn within(name: &str, message: String) -> String {
    for kind in ["invalid type", "invalid value"] {
        if let Some(rest) = message
            .strip_prefix(kind)
            .and_then(|m| m.strip_prefix(": "))
        {
            return format!("{kind} for `{name}`: {rest}");
        }
    }
    format!("`{name}`: {message}")
}

/// A value that `get` takes, else "expected `want`".
fn number<T>(value: Value, want: &str, get: impl FnOnce(&Value) -> Option<T>) -> Result<T, String> {
    get(&value).ok_or_else(|| invalid(&value, want))
}

/// A whole number that `get` takes: one out of its range is an "invalid
/// value" (`-1` for a u64, `70000` for a u16), as serde says.
fn whole<T>(value: Value, want: &str, get: impl FnOnce(&Value) -> Option<T>) -> Result<T, String> {
    get(&value).ok_or_else(|| match &value {
        Value::Number(n) if !n.is_f64() => {
            format!("invalid value: {}, expected {want}", shown(&value))
        }
        _ => invalid(&value, want),
    })
}

impl FromValue for u64 {
    fn from_value(value: Value) -> Result<u64, String> {
        whole(value, "u64", Value::as_u64)
    }
}

impl FromValue for u32 {
    fn from_value(value: Value) -> Result<u32, String> {
        whole(value, "u32", |v| u32::try_from(v.as_u64()?).ok())
    }
}

impl FromValue for u16 {
    fn from_value(value: Value) -> Result<u16, String> {
        whole(value, "u16", |v| u16::try_from(v.as_u64()?).ok())
    }
}

impl FromValue for u8 {
    fn from_value(value: Value) -> Result<u8, String> {
        whole(value, "u8", |v| u8::try_from(v.as_u64()?).ok())
    }
}

impl FromValue for usize {
    fn from_value(value: Value) -> Result<usize, String> {
        whole(value, "usize", |v| usize::try_from(v.as_u64()?).ok())
    }
}

impl FromValue for i64 {
    fn from_value(value: Value) -> Result<i64, String> {
        whole(value, "i64", Value::as_i64)
    }
}

impl FromValue for f64 {
    fn from_value(value: Value) -> Result<f64, String> {
        number(value, "f64", Value::as_f64)
    }
}

impl FromValue for bool {
    fn from_value(value: Value) -> Result<bool, String> {
        number(value, "a boolean", Value::as_bool)
    }
}

impl FromValue for String {
    fn from_value(value: Value) -> Result<String, String> {
        match value {
            Value::String(s) => Ok(s),
            v => Err(invalid(&v, "a string")),
        }
    }
}

impl FromValue for Value {
    fn from_value(value: Value) -> Result<Value, String> {
        Ok(value)
    }
}

/// `null` is none.
impl<T: FromValue> FromValue for Option<T> {
    fn from_value(value: Value) -> Result<Option<T>, String> {
        match value {
            Value::Null => Ok(None),
            v => T::from_value(v).map(Some),
        }
    }
}

/// A list; a bad item is named by its place, from 1.
impl<T: FromValue> FromValue for Vec<T> {
    fn from_value(value: Value) -> Result<Vec<T>, String> {
        let Value::Array(items) = value else {
            return Err(invalid(&value, "a list"));
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.into_iter().enumerate() {
            out.push(T::from_value(item).map_err(|e| format!("item {}: {e}", i + 1))?);
        }
        Ok(out)
    }
}

/// A pair, written as a list of two: `["agreement", 3]`.
impl<A: FromValue, B: FromValue> FromValue for (A, B) {
    fn from_value(value: Value) -> Result<(A, B), String> {
        match value {
            Value::Array(items) => match <[Value; 2]>::try_from(items) {
                Ok([a, b]) => Ok((
                    A::from_value(a).map_err(|e| format!("item 1: {e}"))?,
                    B::from_value(b).map_err(|e| format!("item 2: {e}"))?,
                )),
                Err(items) => Err(format!("invalid length {}, expected a pair", items.len())),
            },
            v => Err(invalid(&v, "a pair")),
        }
    }
}

/// A unit variant written by its name (`"lease_store"`): one of `all`,
/// each named by `name`.
pub fn named<T: Copy>(
    value: Value,
    all: &[T],
    name: impl Fn(T) -> &'static str,
) -> Result<T, String> {
    let Value::String(s) = value else {
        return Err(invalid(&value, "a name"));
    };
    match all.iter().find(|&&t| name(t) == s) {
        Some(&t) => Ok(t),
        None => {
            let names: Vec<&str> = all.iter().map(|&t| name(t)).collect();
            Err(format!(
                "unknown variant `{s}`, expected {}",
                super::tagged::one_of(&names)
            ))
        }
    }
}

/// An object's fields, to be read by name and then `end`ed.
pub fn object(value: Value) -> Result<Fields, String> {
    match value {
        Value::Object(map) => Ok(Fields::of(map)),
        v => Err(invalid(&v, "an object")),
    }
}
