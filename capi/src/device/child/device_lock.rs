//! The lock around a device's state: every call of the device and its children takes it
//! (`D3DCREATE_MULTITHREADED` is always honoured).
//!
//! A game calls its device from one thread, thousands of times a frame: the lock is taken
//! with one compare-exchange and given back with a plain store. `std::sync::Mutex` gives
//! it back with a second atomic exchange (it must see whether a thread waits), and in the
//! `frame` bench that cost the C ABI's two calls per draw more than their instructions
//! suggest (`docs/benchmarks.md`, "The constants window"). A thread that finds it taken
//! spins briefly, then yields, then sleeps in short steps until it is free, as Windows'
//! critical section spins before it waits: the holder may be waiting for the GPU.

use std::cell::UnsafeCell;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Tries that only spin before a waiting thread yields.
const SPINS: u32 = 64;
/// Tries that yield before a waiting thread sleeps between tries.
const YIELDS: u32 = 256;
/// A waiting thread's sleep between tries after that.
const NAP: Duration = Duration::from_micros(50);

/// `value` behind a lock (see the module documentation). A panic while it is held gives the
/// lock back (the guard's drop); the state is left as the panicking call left it, as every
/// call checks what it reads.
pub struct DeviceLock<T> {
    taken: AtomicBool,
    value: UnsafeCell<T>,
}

// SAFETY: the value is reached only through a `Guard`, and one guard at most exists at a
// time (`lock` takes `taken` from false to true with acquire ordering; the guard's drop
// stores false with release ordering), so the value moves between threads as with a mutex.
unsafe impl<T: Send> Sync for DeviceLock<T> {}

/// The locked value; the lock is given back when it is dropped.
pub struct Guard<'a, T> {
    lock: &'a DeviceLock<T>,
}

impl<T> DeviceLock<T> {
    pub fn new(value: T) -> DeviceLock<T> {
        DeviceLock {
            taken: AtomicBool::new(false),
            value: UnsafeCell::new(value),
        }
    }

    /// Waits until the lock is free and takes it.
    pub fn lock(&self) -> Guard<'_, T> {
        let mut tries = 0u32;
        while self
            .taken
            .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            tries = tries.saturating_add(1);
            if tries < SPINS {
                std::hint::spin_loop();
            } else if tries < SPINS + YIELDS {
                std::thread::yield_now();
            } else {
                std::thread::sleep(NAP);
            }
        }
        Guard { lock: self }
    }
}

impl<T> Deref for Guard<'_, T> {
    type Target = T;

    fn deref(&self) -> &T {
        // SAFETY: this guard holds the lock (see `Sync` above): no other reference exists.
        unsafe { &*self.lock.value.get() }
    }
}

impl<T> DerefMut for Guard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: as in `deref`; `&mut self` makes this the guard's only reference.
        unsafe { &mut *self.lock.value.get() }
    }
}

impl<T> Drop for Guard<'_, T> {
    fn drop(&mut self) {
        self.lock.taken.store(false, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// Four threads adding to a count held by the lock, with a read and a write apart, lose
    /// no addition: one thread at a time holds the value.
    #[test]
    fn one_thread_at_a_time_holds_the_value() {
        let lock = Arc::new(DeviceLock::new(0u64));
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let lock = lock.clone();
                std::thread::spawn(move || {
                    for _ in 0..20_000 {
                        let mut guard = lock.lock();
                        let seen = *guard;
                        std::hint::black_box(&seen);
                        *guard = seen + 1;
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap_or_else(|_| panic!("a thread panicked"));
        }
        assert_eq!(*lock.lock(), 80_000);
    }

    /// A panic while the lock is held gives it back.
    #[test]
    fn a_panic_gives_the_lock_back() {
        let lock = Arc::new(DeviceLock::new(1u32));
        let held = lock.clone();
        let result = std::thread::spawn(move || {
            let _guard = held.lock();
            panic!("inside the lock");
        })
        .join();
        assert!(result.is_err());
        *lock.lock() += 1;
        assert_eq!(*lock.lock(), 2);
    }
}
