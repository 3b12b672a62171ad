//! Reading an internally tagged enum — `{"dist": "normal", "mean_us": 40000,
//! "sd_us": 5000}` — by hand from a JSON value.
//!
//! Why not serde's `#[serde(tag = "…")]` on `Deserialize`: serde reads such an
//! enum by first copying the whole object into its private `Content` tree and
//! then deserializing the variant out of that copy, which brings a second,
//! generic deserializer (`ContentDeserializer`, ~4 KB gzip of the page) for
//! three small enums (`Latency`, `LlmPreset`, the model checker's `Reply`).
//! The page already holds the object as a `serde_json::Value` (`json::read`),
//! so reading its fields by name is a few lines. Writing them stays serde's
//! derive. The simulator's faults and the protocols' commands are externally
//! tagged (`{"crash": {"node": "Α"}}`) but read the same way
//! ([`Fields::variant`]): serde's derive compiles a visitor per variant,
//! several times the code.
//!
//! The rules are serde's for these enums: the tag names the variant, each
//! field is read with its type, a field with a default may be left out, and
//! any other key is refused (`deny_unknown_fields`) — except in the model
//! checker's replies, which never refused one.

use super::value::{within, FromValue};
use serde_json::{Map, Value};

/// The body of a hand-read type's `Deserialize`, which only the tests have
/// (serde's derive of a test-only copy, the oracle, reads through it).
#[cfg(test)]
pub fn by_hand<'de, D: serde::Deserializer<'de>, T: FromValue>(d: D) -> Result<T, D::Error> {
    use serde::de::{Deserialize, Error as _};
    T::from_value(Value::deserialize(d)?).map_err(D::Error::custom)
}

/// The fields of one variant, taken out of the object as they are read (a
/// list, not the object's B-tree: removing from a B-tree brings its
/// rebalancing code, ~1 KB gzip, for objects of a few keys).
pub struct Fields {
    map: Vec<(String, Value)>,
    /// The fields this variant has, in the order read (for "expected …").
    known: Vec<&'static str>,
}

/// The variant's name (the value of `tag`, one of `kinds`) and its fields.
pub fn tagged(
    value: Value,
    tag: &'static str,
    kinds: &'static [&'static str],
) -> Result<(&'static str, Fields), String> {
    let Value::Object(map) = value else {
        return Err(format!(
            "invalid type: {}, expected an object with `{tag}`",
            shown(&value)
        ));
    };
    let mut fields = Fields::of(map);
    let kind = match fields.take(tag) {
        None => return Err(format!("missing field `{tag}`")),
        Some(Value::String(s)) => match kinds.iter().find(|k| **k == s) {
            Some(k) => *k,
            None => return Err(format!("unknown variant `{s}`, expected {}", one_of(kinds))),
        },
        Some(other) => {
            return Err(format!(
                "invalid type: {}, expected `{tag}` to be a name",
                shown(&other)
            ))
        }
    };
    fields.known.clear();
    Ok((kind, fields))
}

impl Fields {
    /// The fields of the externally tagged variant `kind` (`{"kind": {…}}`),
    /// whose content must be an object.
    pub fn variant(kind: &str, value: Value) -> Result<Fields, String> {
        match value {
            Value::Object(map) => Ok(Fields::of(map)),
            _ => Err(format!("`{kind}` needs its fields: {{\"{kind}\": {{…}}}}")),
        }
    }

    /// An object's fields.
    pub fn of(map: Map<String, Value>) -> Fields {
        Fields {
            map: map.into_iter().collect(),
            known: Vec::new(),
        }
    }

    fn take(&mut self, name: &'static str) -> Option<Value> {
        self.known.push(name);
        let at = self.map.iter().position(|(k, _)| k == name)?;
        Some(self.map.swap_remove(at).1)
    }

    fn need(&mut self, name: &'static str) -> Result<Value, String> {
        self.take(name)
            .ok_or_else(|| format!("missing field `{name}`"))
    }

    /// The field `name`, read by its type; `default` when left out, if given.
    fn typed<T: FromValue>(&mut self, name: &'static str, default: Option<T>) -> Result<T, String> {
        match (self.take(name), default) {
            (None, Some(d)) => Ok(d),
            (None, None) => Err(format!("missing field `{name}`")),
            (Some(v), _) => T::from_value(v).map_err(|e| within(name, e)),
        }
    }

    /// The field `name`, read by its type (a node's name, a list of groups,
    /// a whole number …).
    pub fn read<T: FromValue>(&mut self, name: &'static str) -> Result<T, String> {
        self.typed(name, None)
    }

    /// The field `name`, or `default` when left out (serde's `default`).
    pub fn read_or<T: FromValue>(&mut self, name: &'static str, default: T) -> Result<T, String> {
        self.typed(name, Some(default))
    }

    /// An optional field: left out or `null` is none.
    pub fn opt<T: FromValue>(&mut self, name: &'static str) -> Result<Option<T>, String> {
        self.typed(name, Some(None))
    }

    /// The field's value as it is, to be read by its own type.
    pub fn value(&mut self, name: &'static str) -> Result<Value, String> {
        self.need(name)
    }

    /// The fields as `read` reads them, by name; then any key it did not
    /// take is refused ([`Fields::end`]).
    pub fn read_all<T>(
        mut self,
        read: impl FnOnce(&mut Fields) -> Result<T, String>,
    ) -> Result<T, String> {
        let t = read(&mut self)?;
        self.end()?;
        Ok(t)
    }

    /// Every key read: anything left is refused.
    pub fn end(self) -> Result<(), String> {
        match self.map.iter().map(|(k, _)| k).min() {
            None => Ok(()),
            Some(extra) if self.known.is_empty() => {
                Err(format!("unknown field `{extra}`, there are no fields"))
            }
            Some(extra) => Err(format!(
                "unknown field `{extra}`, expected {}",
                one_of(&self.known)
            )),
        }
    }
}

/// A value as serde's messages name it: `integer `-1``, `string "x"` ….
pub fn shown(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("boolean `{b}`"),
        Value::Number(n) if n.is_f64() => format!("floating point `{n}`"),
        Value::Number(n) => format!("integer `{n}`"),
        Value::String(s) => format!("string {s:?}"),
        Value::Array(_) => "a sequence".into(),
        Value::Object(_) => "a map".into(),
    }
}

pub(super) fn one_of(names: &[&str]) -> String {
    match names {
        [one] => format!("`{one}`"),
        _ => {
            let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            format!("one of {}", quoted.join(", "))
        }
    }
}

#[cfg(test)]
mod tests;
