//! The event queue: everything scheduled to happen, earliest first.
//!
//! Ties at equal times are broken by a class (the simulator puts faults
//! first) and then by the order in which things were scheduled — never by
//! anything a hash map or an allocator decides, so a run replays exactly.
//!
//! The binary heap holds only small keys (time, tie-break, slot); the actions,
//! which carry whole messages, wait in a slab beside it. A heap operation moves
//! entries up and down a few levels on every step, and moving 24-byte keys
//! instead of 80-byte actions is most of what the queue costs.

use super::time::SimTime;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Where the class goes in a key's tie-break; sequence numbers stay below it.
const CLASS_SHIFT: u32 = 62;

#[derive(Clone, Copy, Debug)]
struct Key {
    at: SimTime,
    /// The class in the top two bits, then the sequence number of the push,
    /// so that one comparison orders by (class, sequence). Unique per entry.
    order: u64,
    /// Index of the action in the slab.
    slot: u32,
}

impl Key {
    /// (time, order) as one number, so that comparing two keys is one
    /// 128-bit comparison.
    #[inline(always)]
    fn rank(&self) -> u128 {
        (self.at.0 as u128) << 64 | self.order as u128
    }
}

impl PartialEq for Key {
    fn eq(&self, o: &Self) -> bool {
        self.rank() == o.rank()
    }
}
impl Eq for Key {}
impl PartialOrd for Key {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
    // `BinaryHeap` only asks `<=`; spelled out so it stays one comparison.
    #[inline(always)]
    fn le(&self, o: &Self) -> bool {
        o.rank() <= self.rank()
    }
}
impl Ord for Key {
    /// Reversed, because `BinaryHeap` pops the greatest.
    #[inline(always)]
    fn cmp(&self, o: &Self) -> Ordering {
        o.rank().cmp(&self.rank())
    }
}

/// A priority queue of actions ordered by (time, class, insertion order).
#[derive(Clone, Debug)]
pub struct EventQueue<A> {
    heap: BinaryHeap<Key>,
    /// Actions by slot; `None` for a free slot.
    slab: Vec<Option<A>>,
    /// Free slots, reused last-freed first.
    free: Vec<u32>,
    next_seq: u64,
}

impl<A> Default for EventQueue<A> {
    fn default() -> Self {
        EventQueue {
            heap: BinaryHeap::new(),
            slab: Vec::new(),
            free: Vec::new(),
            next_seq: 0,
        }
    }
}

impl<A> EventQueue<A> {
    pub fn with_capacity(n: usize) -> Self {
        EventQueue {
            heap: BinaryHeap::with_capacity(n),
            slab: Vec::with_capacity(n),
            free: Vec::with_capacity(n),
            next_seq: 0,
        }
    }

    // `push`, `pop` and `peek_time` are marked for inlining into the
    // simulator: out of line, the 64-byte action that `pop` returns goes
    // through memory and is read back in pieces that straddle the stores that
    // wrote it, which stalls the processor (seen with perf; the benchmark
    // gained about 5 %).

    /// Schedule `action` at `at`. Among entries at the same time, a lower
    /// `class` (0–3) comes first, then whichever was pushed first.
    #[inline]
    pub fn push(&mut self, at: SimTime, class: u8, action: A) {
        debug_assert!(class < 4);
        let seq = self.next_seq;
        self.next_seq += 1;
        debug_assert!(seq < 1 << CLASS_SHIFT);
        let slot = match self.free.pop() {
            Some(slot) => {
                self.slab[slot as usize] = Some(action);
                slot
            }
            None => {
                self.slab.push(Some(action));
                (self.slab.len() - 1) as u32
            }
        };
        self.heap.push(Key {
            at,
            order: (class as u64) << CLASS_SHIFT | seq,
            slot,
        });
    }

    /// Take the earliest entry.
    #[inline]
    pub fn pop(&mut self) -> Option<(SimTime, A)> {
        let key = self.heap.pop()?;
        let action = self.slab[key.slot as usize]
            .take()
            .expect("a queued key has its action");
        self.free.push(key.slot);
        Some((key.at, action))
    }

    /// The time of the earliest entry.
    #[inline]
    pub fn peek_time(&self) -> Option<SimTime> {
        self.heap.peek().map(|k| k.at)
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_by_time_then_class_then_insertion() {
        let mut q = EventQueue::default();
        q.push(SimTime(5), 2, "c");
        q.push(SimTime(5), 0, "a");
        q.push(SimTime(3), 2, "first");
        q.push(SimTime(5), 2, "d");
        q.push(SimTime(5), 1, "b");
        q.push(SimTime(9), 0, "last");
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(
            order,
            vec![
                (SimTime(3), "first"),
                (SimTime(5), "a"),
                (SimTime(5), "b"),
                (SimTime(5), "c"),
                (SimTime(5), "d"),
                (SimTime(9), "last")
            ]
        );
        assert!(q.is_empty());
    }

    /// Random pushes and pops against a sorted list of (time, class, sequence).
    #[test]
    fn agrees_with_a_sorted_list() {
        use crate::sim::rng::{Rng, Stream};
        let mut r = Rng::new(11, Stream::Schedule);
        let mut q = EventQueue::default();
        let mut reference: Vec<(u64, u8, u64)> = Vec::new();
        let mut seq = 0u64;
        let mut now = 0u64;
        for _ in 0..20_000 {
            if r.below(3) > 0 || reference.is_empty() {
                let at = now + r.below(50);
                let class = r.below(3) as u8;
                q.push(SimTime(at), class, seq);
                reference.push((at, class, seq));
                seq += 1;
            } else {
                reference.sort_unstable();
                let (at, _, want) = reference.remove(0);
                assert_eq!(q.peek_time(), Some(SimTime(at)));
                assert_eq!(q.pop(), Some((SimTime(at), want)));
                now = at;
            }
            assert_eq!(q.len(), reference.len());
        }
    }

    #[test]
    fn slots_are_reused_and_clones_are_independent() {
        let mut q = EventQueue::default();
        for i in 0..4u64 {
            q.push(SimTime(i), 2, i);
        }
        assert_eq!(q.pop(), Some((SimTime(0), 0)));
        q.push(SimTime(10), 2, 10);
        assert_eq!(q.slab.len(), 4, "the freed slot is reused");
        let mut c = q.clone();
        assert_eq!(c.pop(), Some((SimTime(1), 1)));
        assert_eq!(q.len(), 4);
        assert_eq!(q.peek_time(), Some(SimTime(1)));
        let rest: Vec<_> = std::iter::from_fn(|| q.pop()).map(|(_, a)| a).collect();
        assert_eq!(rest, vec![1, 2, 3, 10]);
    }
}
