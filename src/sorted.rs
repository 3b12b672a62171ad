//! Sorted vectors: a small ordered map, and one sort for the first load.
//!
//! **`VecMap`**, an ordered map kept as a sorted vector.
//! The simulator's and the chamber's maps are small (a quorum's promises,
//! a ballot's votes, a few configured links, the messages a scripted
//! network holds, the messages in flight while a run's flights are drawn): a sorted vector is as fast as a B-tree there, iterates
//! in the same (key) order — so nothing that reaches a trace changes — and
//! its code is a binary search and a `Vec`. Each `BTreeMap<K, V>` brought
//! its own copy of the B-tree's node code for every `K, V` (issue 15: the
//! first load's B-trees were ~7 KB gzip). `Hash` and `Debug` are those of a
//! `BTreeMap` with the same entries: the length, then each key and value.
//!
//! **`sort_by_key`**, a stable sort by a pair of numbers. Every `sort_by_key`
//! of the standard library is a copy of its sort for the element type (about
//! 3 KB of code each); the page's first load sorted three types. Here the
//! keys are sorted (one copy, whatever the element) and the elements follow.

use std::fmt;

#[derive(Clone, PartialEq, Eq, Hash)]
pub struct VecMap<K, V>(Vec<(K, V)>);

impl<K, V> Default for VecMap<K, V> {
    fn default() -> Self {
        VecMap(Vec::new())
    }
}

impl<K: Ord, V> VecMap<K, V> {
    pub const fn new() -> Self {
        VecMap(Vec::new())
    }

    fn find(&self, k: &K) -> Result<usize, usize> {
        self.0.binary_search_by(|(x, _)| x.cmp(k))
    }

    /// Sets `k` to `v`; the value it had, if any.
    pub fn insert(&mut self, k: K, v: V) -> Option<V> {
        match self.find(&k) {
            Ok(i) => Some(std::mem::replace(&mut self.0[i].1, v)),
            Err(i) => {
                self.0.insert(i, (k, v));
                None
            }
        }
    }

    pub fn get(&self, k: &K) -> Option<&V> {
        self.find(k).ok().map(|i| &self.0[i].1)
    }

    pub fn get_mut(&mut self, k: &K) -> Option<&mut V> {
        self.find(k).ok().map(|i| &mut self.0[i].1)
    }

    /// The value at `k`, inserting `v` first if there is none.
    pub fn or_insert(&mut self, k: K, v: V) -> &mut V {
        let i = match self.find(&k) {
            Ok(i) => i,
            Err(i) => {
                self.0.insert(i, (k, v));
                i
            }
        };
        &mut self.0[i].1
    }

    /// The value at `k`, inserting `V::default()` first if there is none.
    pub fn or_default(&mut self, k: K) -> &mut V
    where
        V: Default,
    {
        let i = match self.find(&k) {
            Ok(i) => i,
            Err(i) => {
                self.0.insert(i, (k, V::default()));
                i
            }
        };
        &mut self.0[i].1
    }

    pub fn remove(&mut self, k: &K) -> Option<V> {
        self.find(k).ok().map(|i| self.0.remove(i).1)
    }

    pub fn contains_key(&self, k: &K) -> bool {
        self.find(k).is_ok()
    }

    /// The entries with keys from `k` on, in order (`BTreeMap::range(k..)`).
    pub fn range_from(&self, k: &K) -> impl DoubleEndedIterator<Item = (&K, &V)> {
        let i = self.find(k).unwrap_or_else(|i| i);
        self.0[i..].iter().map(|(k, v)| (k, v))
    }
}

impl<K: Ord, V> std::ops::Index<&K> for VecMap<K, V> {
    type Output = V;
    /// The value at `k`; panics if there is none, as `BTreeMap`'s does.
    fn index(&self, k: &K) -> &V {
        self.get(k).expect("no entry for the key")
    }
}

impl<K, V> VecMap<K, V> {
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn clear(&mut self) {
        self.0.clear()
    }

    /// The entries in key order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&K, &V)> + ExactSizeIterator {
        self.0.iter().map(|(k, v)| (k, v))
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator {
        self.0.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator {
        self.0.iter().map(|(_, v)| v)
    }

    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut V> + ExactSizeIterator {
        self.0.iter_mut().map(|(_, v)| v)
    }

    /// Keeps the entries `f` says yes to, in order.
    pub fn retain(&mut self, mut f: impl FnMut(&K, &mut V) -> bool) {
        self.0.retain_mut(|(k, v)| f(k, v))
    }
}

impl<K, V> IntoIterator for VecMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;
    /// The entries in key order.
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for VecMap<K, V> {
    /// As `BTreeMap`'s: sorted by key, the last of equal keys kept.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(it: I) -> Self {
        let mut m = VecMap::new();
        for (k, v) in it {
            m.insert(k, v);
        }
        m
    }
}

/// An ordered set kept as a sorted vector: `VecMap`'s reasons, for sets.
/// `Hash` and `Debug` are those of a `BTreeSet` with the same elements.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct VecSet<K>(Vec<K>);

impl<K> Default for VecSet<K> {
    fn default() -> Self {
        VecSet(Vec::new())
    }
}

impl<K: Ord> VecSet<K> {
    pub const fn new() -> Self {
        VecSet(Vec::new())
    }

    /// Adds `k`; false if it was there.
    pub fn insert(&mut self, k: K) -> bool {
        match self.0.binary_search(&k) {
            Ok(_) => false,
            Err(i) => {
                self.0.insert(i, k);
                true
            }
        }
    }

    pub fn contains(&self, k: &K) -> bool {
        self.0.binary_search(k).is_ok()
    }

    pub fn is_subset(&self, other: &Self) -> bool {
        self.0.iter().all(|k| other.contains(k))
    }

    pub fn is_disjoint(&self, other: &Self) -> bool {
        !self.0.iter().any(|k| other.contains(k))
    }

    /// The elements also in `other`, in order.
    pub fn intersection<'a>(&'a self, other: &'a Self) -> impl Iterator<Item = &'a K> {
        self.0.iter().filter(|k| other.contains(k))
    }

    /// The elements not in `other`, in order.
    pub fn difference<'a>(&'a self, other: &'a Self) -> impl Iterator<Item = &'a K> {
        self.0.iter().filter(|k| !other.contains(k))
    }

    /// Takes `k` out; false if it was not there.
    pub fn remove(&mut self, k: &K) -> bool {
        match self.0.binary_search(k) {
            Ok(i) => {
                self.0.remove(i);
                true
            }
            Err(_) => false,
        }
    }
}

impl<K> VecSet<K> {
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn clear(&mut self) {
        self.0.clear()
    }

    /// The elements in order.
    pub fn iter(&self) -> std::slice::Iter<'_, K> {
        self.0.iter()
    }
}

impl<K: Ord> FromIterator<K> for VecSet<K> {
    fn from_iter<I: IntoIterator<Item = K>>(it: I) -> Self {
        let mut v: Vec<K> = it.into_iter().collect();
        // Equal elements are dropped, so which comes first does not matter.
        v.sort_unstable();
        v.dedup();
        VecSet(v)
    }
}

impl<K> IntoIterator for VecSet<K> {
    type Item = K;
    type IntoIter = std::vec::IntoIter<K>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

/// Written as a list, in order; read from any list (sorted, repeats
/// dropped) — as serde writes and reads a `BTreeSet`.
impl<K: serde::Serialize> serde::Serialize for VecSet<K> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter())
    }
}

impl<'de, K: serde::Deserialize<'de> + Ord> serde::Deserialize<'de> for VecSet<K> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::<K>::deserialize(d).map(|v| v.into_iter().collect())
    }
}

impl<'a, K> IntoIterator for &'a VecSet<K> {
    type Item = &'a K;
    type IntoIter = std::slice::Iter<'a, K>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<K: fmt::Debug> fmt::Debug for VecSet<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for VecMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// Sorts `v` by `key`, keeping equal keys in their order (a stable sort),
/// through one sort of `(key, index)` for every element type. A vector
/// already in order (the usual case: sends come in time order, messengers
/// in id order) is checked and left as it is.
pub fn sort_by_key<T>(v: &mut Vec<T>, key: impl Fn(&T) -> (u64, u64)) {
    if v.windows(2).all(|w| key(&w[0]) <= key(&w[1])) {
        return;
    }
    let mut keys: Vec<(u64, u64, usize)> = v
        .iter()
        .enumerate()
        .map(|(i, x)| {
            let (a, b) = key(x);
            (a, b, i)
        })
        .collect();
    // The index makes every key distinct: unstable is stable here.
    keys.sort_unstable();
    let mut old: Vec<Option<T>> = std::mem::take(v).into_iter().map(Some).collect();
    v.extend(keys.iter().filter_map(|&(_, _, i)| old[i].take()));
}

#[cfg(test)]
mod tests {
    use super::{VecMap, VecSet};
    use crate::sim::rng::splitmix64;
    use std::collections::{BTreeMap, BTreeSet};
    use std::hash::{DefaultHasher, Hash, Hasher};

    fn hash(x: &impl Hash) -> u64 {
        let mut h = DefaultHasher::new();
        x.hash(&mut h);
        h.finish()
    }

    /// The same operations on a `BTreeMap` and a `VecMap`, from a seeded
    /// stream: the same answers, entries, order, `Debug` and hash.
    #[test]
    fn behaves_as_a_btreemap() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || splitmix64(&mut state);
        let (mut b, mut v) = (BTreeMap::new(), VecMap::new());
        for step in 0..20_000 {
            let k = (next() % 64) as u8;
            let val = next() % 1000;
            match next() % 7 {
                0 | 1 => assert_eq!(b.insert(k, val), v.insert(k, val)),
                2 => assert_eq!(b.remove(&k), v.remove(&k)),
                5 => {
                    *b.entry(k).or_default() += 3;
                    *v.or_default(k) += 3;
                    assert_eq!(b.contains_key(&k), v.contains_key(&k));
                }
                6 => {
                    let cut = val % 8;
                    b.retain(|k, x| (*k as u64 + *x) % 8 != cut);
                    v.retain(|k, x| (*k as u64 + *x) % 8 != cut);
                    b.values_mut().for_each(|x| *x += 1);
                    v.values_mut().for_each(|x| *x += 1);
                }
                3 => {
                    *b.entry(k).or_insert(val) += 1;
                    *v.or_insert(k, val) += 1;
                }
                _ => {
                    assert_eq!(b.get(&k), v.get(&k));
                    if let (Some(p), Some(q)) = (b.get_mut(&k), v.get_mut(&k)) {
                        *p += 7;
                        *q += 7;
                    }
                }
            }
            if step % 3_000 == 0 {
                b.clear();
                v.clear();
            }
            assert_eq!(b.len(), v.len());
            assert!(b.iter().eq(v.iter()), "entries in key order");
        }
        assert!(!v.is_empty());
        assert!(b.keys().eq(v.keys()) && b.values().eq(v.values()));
        assert_eq!(format!("{b:?}"), format!("{v:?}"));
        assert_eq!(hash(&b), hash(&v));
        let pairs = [(3u8, 1u64), (1, 2), (3, 4), (2, 0)];
        let (b, v): (BTreeMap<_, _>, VecMap<_, _>) =
            (pairs.into_iter().collect(), pairs.into_iter().collect());
        assert!(b.iter().eq(v.iter()), "collected as a BTreeMap collects");
    }

    /// The same for `VecSet` against `BTreeSet`.
    #[test]
    fn behaves_as_a_btreeset() {
        let mut state = 0x1234_5678_9abc_def0u64;
        let mut next = move || splitmix64(&mut state);
        let (mut b, mut v) = (BTreeSet::new(), VecSet::new());
        for step in 0..20_000 {
            let k = (next() % 64) as u8;
            match next() % 3 {
                0 | 1 => assert_eq!(b.insert(k), v.insert(k)),
                _ => assert_eq!(b.remove(&k), v.remove(&k)),
            }
            assert_eq!(b.contains(&k), v.contains(&k));
            if step % 3_000 == 0 {
                b.clear();
                v.clear();
            }
            assert_eq!(b.len(), v.len());
            assert!(b.iter().eq(v.iter()), "elements in order");
        }
        assert!(!v.is_empty());
        assert_eq!(format!("{b:?}"), format!("{v:?}"));
        assert_eq!(hash(&b), hash(&v));
        let (b2, v2): (BTreeSet<u8>, VecSet<u8>) = (
            [1, 9, 20].into_iter().collect(),
            [1, 9, 20].into_iter().collect(),
        );
        assert_eq!(b.is_subset(&b2), v.is_subset(&v2));
        assert_eq!(b.is_disjoint(&b2), v.is_disjoint(&v2));
        assert!(b.intersection(&b2).eq(v.intersection(&v2)));
        assert!(b.difference(&b2).eq(v.difference(&v2)));
        let json = serde_json::to_string(&v).unwrap();
        assert_eq!(json, serde_json::to_string(&b).unwrap());
        let back: VecSet<u8> = serde_json::from_str("[7,2,7,1]").unwrap();
        let want: BTreeSet<u8> = serde_json::from_str("[7,2,7,1]").unwrap();
        assert!(back.iter().eq(want.iter()));
        let items = [5u8, 1, 5, 3];
        let (b, v): (BTreeSet<_>, VecSet<_>) =
            (items.into_iter().collect(), items.into_iter().collect());
        assert!(b.iter().eq(&v), "collected as a BTreeSet collects");
    }

    /// The same order as the standard library's stable `sort_by_key`, on
    /// random vectors with many equal keys, sorted and reversed ones.
    #[test]
    fn sorts_as_the_standard_stable_sort() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || splitmix64(&mut state);
        for n in [0usize, 1, 2, 3, 7, 20, 33, 100, 1000] {
            for shape in 0..4 {
                let mut v: Vec<(u64, u64, u64)> =
                    (0..n).map(|i| (next() % 5, next() % 3, i as u64)).collect();
                match shape {
                    1 => v.sort(),
                    2 => v.sort_by(|a, b| b.cmp(a)),
                    _ => {}
                }
                let mut want = v.clone();
                want.sort_by_key(|e| (e.0, e.1));
                super::sort_by_key(&mut v, |e| (e.0, e.1));
                assert_eq!(v, want, "n {n}, shape {shape}");
            }
        }
    }
}
