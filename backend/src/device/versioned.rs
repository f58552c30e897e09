//! A value that counts its mutable borrows, so a draw can tell that nothing it read changed.
//!
//! The device keeps its state and its object tables in [`Versioned`] cells: every `Set*`,
//! `Create*`, `Release`, lock or update reaches them through `DerefMut`, which bumps the
//! version, while a draw only reads them. The draw memo (`draw.rs`, [`DrawMemo`]) compares
//! the versions it was made at with the current ones: equal versions mean the same state and
//! objects, so the last draw's resolved pipeline, bind groups and buffers can be recorded
//! again without the lookups. A bump without a real change only costs one full draw.
//!
//! [`DrawMemo`]: super::draw::DrawMemo

use std::ops::{Deref, DerefMut};

/// `T` with a counter of its mutable borrows.
#[derive(Debug, Default)]
pub(crate) struct Versioned<T> {
    value: T,
    version: u64,
}

impl<T> Versioned<T> {
    pub(crate) fn new(value: T) -> Self {
        Versioned { value, version: 0 }
    }

    /// How many times the value was borrowed mutably.
    pub(crate) fn version(&self) -> u64 {
        self.version
    }

    /// The value, changed without a new version: only for parts that carry a version of
    /// their own which every reader keys on (the shader float constants and
    /// `vs_constants_version` / `ps_constants_version`), so that the draw memo can tell a
    /// draw that only needs its constants placed again from one that needs the full path.
    pub(crate) fn untracked_mut(&mut self) -> &mut T {
        &mut self.value
    }
}

impl<T> Deref for Versioned<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T> DerefMut for Versioned<T> {
    fn deref_mut(&mut self) -> &mut T {
        self.version = self.version.wrapping_add(1);
        &mut self.value
    }
}

#[cfg(test)]
mod tests {
    use super::Versioned;

    #[test]
    fn reads_keep_the_version_and_writes_bump_it() {
        let mut v = Versioned::new(vec![1, 2]);
        assert_eq!(v.len(), 2);
        assert_eq!(v[0], 1);
        assert_eq!(v.version(), 0);
        v.push(3);
        assert_eq!(v.version(), 1);
        v[0] = 5;
        assert_eq!(v.version(), 2);
        assert_eq!(*v, vec![5, 2, 3]);
        assert_eq!(v.version(), 2);
        v.untracked_mut()[1] = 7;
        assert_eq!(*v, vec![5, 7, 3]);
        assert_eq!(v.version(), 2);
    }
}
