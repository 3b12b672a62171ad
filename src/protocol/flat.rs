//! Serde plumbing for enums of enums written flat.
//!
//! A scenario's script is one list in which `{"crash": {...}}` (a simulator
//! fault) sits beside `{"propose": {...}}` (a Paxos command) and
//! `{"llm_stall": {...}}` (a lease-lab command). In memory these are three
//! different enums, each owned by its layer; on disk they share one
//! externally tagged namespace. Reading one means: read the tag, find the
//! enum that owns it, and let that enum's derived `Deserialize` read the
//! value as if it had seen the tag itself. [`from_tag`] does the last part.

use serde::de::{
    self, DeserializeSeed, EnumAccess, IntoDeserializer, MapAccess, VariantAccess, Visitor,
};
use serde::Deserialize;

/// Deserialize the externally tagged enum `T` from a map whose key (`tag`)
/// has already been read; the value is read from `map`.
pub fn from_tag<'de, T: Deserialize<'de>, A: MapAccess<'de>>(
    tag: String,
    map: &mut A,
) -> Result<T, A::Error> {
    T::deserialize(Tagged { tag, map })
}

struct Tagged<'m, A> {
    tag: String,
    map: &'m mut A,
}

impl<'de, A: MapAccess<'de>> de::Deserializer<'de> for Tagged<'_, A> {
    type Error = A::Error;
    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, A::Error> {
        v.visit_enum(self)
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, A::Error> {
        v.visit_enum(self)
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}

impl<'de, 'm, A: MapAccess<'de>> EnumAccess<'de> for Tagged<'m, A> {
    type Error = A::Error;
    type Variant = Content<'m, A>;
    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, Content<'m, A>), A::Error> {
        let tag: de::value::StringDeserializer<A::Error> = self.tag.into_deserializer();
        Ok((seed.deserialize(tag)?, Content(self.map)))
    }
}

/// The variant's content is the map's value.
struct Content<'m, A>(&'m mut A);

impl<'de, A: MapAccess<'de>> VariantAccess<'de> for Content<'_, A> {
    type Error = A::Error;
    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.next_value::<()>()
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.0.next_value_seed(seed)
    }
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, v: V) -> Result<V::Value, A::Error> {
        self.0.next_value_seed(Shaped::Tuple(len, v))
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, A::Error> {
        self.0.next_value_seed(Shaped::Struct(fields, v))
    }
}

enum Shaped<V> {
    Tuple(usize, V),
    Struct(&'static [&'static str], V),
}

impl<'de, V: Visitor<'de>> DeserializeSeed<'de> for Shaped<V> {
    type Value = V::Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        match self {
            Shaped::Tuple(len, v) => d.deserialize_tuple(len, v),
            Shaped::Struct(fields, v) => d.deserialize_struct("", fields, v),
        }
    }
}

/// After the one tag and its value, the map must end.
pub fn end<'de, A: MapAccess<'de>>(map: &mut A, what: &str) -> Result<(), A::Error> {
    match map.next_key::<String>()? {
        None => Ok(()),
        Some(k) => Err(de::Error::custom(format!(
            "a {what} has one kind; found a second key {k:?}"
        ))),
    }
}
