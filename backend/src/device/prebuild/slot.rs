//! One result built on a worker for a draw that may come before it is done.

use std::sync::{Condvar, Mutex, MutexGuard};

enum State<T> {
    /// Waiting for a worker.
    Queued,
    /// A worker is building it.
    Running,
    /// Built (`None`: the build failed, and the draw builds it again to report why).
    Done(Option<T>),
    /// The draw took it (or, queued, took the work back to do it itself).
    Taken,
}

/// See the module documentation.
pub(super) struct Slot<T> {
    state: Mutex<State<T>>,
    done: Condvar,
}

impl<T> Slot<T> {
    pub(super) fn new() -> Slot<T> {
        Slot {
            state: Mutex::new(State::Queued),
            done: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State<T>> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The worker's start: `false` where the draw has already taken the work.
    pub(super) fn start(&self) -> bool {
        let mut state = self.lock();
        match *state {
            State::Queued => {
                *state = State::Running;
                true
            }
            _ => false,
        }
    }

    /// The worker's result.
    pub(super) fn finish(&self, value: Option<T>) {
        let mut state = self.lock();
        if matches!(*state, State::Running | State::Queued) {
            *state = State::Done(value);
        }
        self.done.notify_all();
    }

    /// The draw's take: the result, waiting while a worker builds it; `None` where no worker
    /// has started (the draw then builds it itself, and no worker will) or the build failed.
    pub(super) fn take(&self) -> Option<T> {
        let mut state = self.lock();
        loop {
            match std::mem::replace(&mut *state, State::Taken) {
                State::Running => {
                    *state = State::Running;
                    state = self.done.wait(state).unwrap_or_else(|p| p.into_inner());
                }
                State::Done(value) => return value,
                State::Queued | State::Taken => return None,
            }
        }
    }

    /// The draw's take of queued work, to do it itself: `true` where no worker had started
    /// it (none will), `false` (nothing changed) where one had.
    pub(super) fn take_back(&self) -> bool {
        let mut state = self.lock();
        match *state {
            State::Queued => {
                *state = State::Taken;
                true
            }
            _ => false,
        }
    }

    /// Waits until no worker holds it (built, failed, or taken).
    pub(super) fn settle(&self) {
        let mut state = self.lock();
        while matches!(*state, State::Queued | State::Running) {
            state = self.done.wait(state).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// Whether a worker finished it, successfully, and the draw has not taken it yet.
    pub(super) fn is_built(&self) -> bool {
        matches!(*self.lock(), State::Done(Some(_)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn a_queued_slot_is_taken_back_and_never_started() {
        let slot = Slot::<u32>::new();
        assert_eq!(slot.take(), None);
        assert!(!slot.start());
    }

    #[test]
    fn only_queued_work_is_taken_back() {
        let slot = Slot::<u32>::new();
        assert!(slot.take_back());
        assert!(!slot.start(), "no worker starts it then");
        let slot = Slot::<u32>::new();
        assert!(slot.start());
        assert!(!slot.take_back(), "a running build is not taken back");
        slot.finish(Some(3));
        assert_eq!(slot.take(), Some(3));
    }

    #[test]
    fn a_running_slot_is_waited_for() {
        let slot = Arc::new(Slot::<u32>::new());
        assert!(slot.start());
        let worker = {
            let slot = slot.clone();
            std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(50));
                slot.finish(Some(7));
            })
        };
        assert_eq!(slot.take(), Some(7));
        worker.join().ok();
        // Taken once.
        assert_eq!(slot.take(), None);
    }

    #[test]
    fn a_failed_build_gives_nothing_and_settles() {
        let slot = Slot::<u32>::new();
        assert!(slot.start());
        slot.finish(None);
        slot.settle();
        assert!(!slot.is_built());
        assert_eq!(slot.take(), None);
    }
}
