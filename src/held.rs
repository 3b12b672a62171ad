//! A value kept behind a type-erased box, so that dropping it runs code
//! reached through the box's table rather than named where it is dropped.
//!
//! Why: a struct or enum that holds every protocol's state (the monitors of
//! a run, say) is dropped on the parliament's path too, and a plain field's
//! drop names the field type's drop code — so the lease lab's, Multi-Paxos'
//! and commit's monitors came into the first load (issue 15). A `Held<T>`
//! is made only where a `T` is (in the part that builds such a run), and
//! its drop goes through the table made there. Reading it is a type check
//! and a pointer; it reads and writes as a `T` (`Deref`).

use std::any::Any;
use std::fmt;
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};

pub struct Held<T: Any + Send + Sync>(Box<dyn Any + Send + Sync>, PhantomData<T>);

impl<T: Any + Send + Sync> Held<T> {
    pub fn new(value: T) -> Self {
        Held(Box::new(value), PhantomData)
    }
}

impl<T: Any + Send + Sync> Deref for Held<T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.0.downcast_ref().expect("a Held<T> holds a T")
    }
}

impl<T: Any + Send + Sync> DerefMut for Held<T> {
    fn deref_mut(&mut self) -> &mut T {
        self.0.downcast_mut().expect("a Held<T> holds a T")
    }
}

impl<T: Any + Send + Sync + Clone> Clone for Held<T> {
    fn clone(&self) -> Self {
        Held::new((**self).clone())
    }
}

impl<T: Any + Send + Sync + PartialEq> PartialEq for Held<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Any + Send + Sync + fmt::Debug> fmt::Debug for Held<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (**self).fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::Held;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    #[derive(Clone, Debug)]
    struct Counted {
        drops: Arc<AtomicUsize>,
        n: u32,
    }
    impl PartialEq for Counted {
        fn eq(&self, other: &Self) -> bool {
            self.n == other.n
        }
    }
    impl Drop for Counted {
        fn drop(&mut self) {
            self.drops.fetch_add(1, Ordering::SeqCst);
        }
    }

    /// It reads, writes, copies, compares and prints as the value it holds,
    /// and dropping it drops that value once.
    #[test]
    fn holds_its_value_as_its_own() {
        let drops = Arc::new(AtomicUsize::new(0));
        let mut h = Held::new(Counted {
            drops: drops.clone(),
            n: 1,
        });
        h.n += 1;
        assert_eq!(h.n, 2);
        let c = h.clone();
        assert_eq!(c, h);
        assert_eq!(format!("{c:?}"), format!("{:?}", *h));
        drop(c);
        assert_eq!(drops.load(Ordering::SeqCst), 1);
        drop(h);
        assert_eq!(drops.load(Ordering::SeqCst), 2);
    }
}
