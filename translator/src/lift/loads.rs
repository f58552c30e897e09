//! Register loads remembered within straight-line code, so a register read twice (or read
//! after it was written) costs one naga expression instead of a `Load` each time: fewer
//! expressions to validate and print, fewer `let`s in the WGSL.
//!
//! A remembered value is reused only where naga allows it and D3D9 means it:
//! - a value emitted in a block is forgotten when that block closes (naga's scoping), and at
//!   every flow-control instruction everything of the current block and every mutable
//!   register (r#, a0, aL, p0) is forgotten, since paths join there and loops repeat;
//! - a write of the whole register remembers the written value; a write of one component
//!   forgets it.
//!   `v#` and `c#` are never written by a shader, so they stay valid until their block closes.

use super::builder::Lifter;
use super::function::Loaded;
use naga::{Expression, Handle};

impl Lifter<'_> {
    /// The value of `key`: remembered, or loaded through `pointer` and remembered.
    pub(super) fn load_register(
        &mut self,
        key: Loaded,
        pointer: Handle<Expression>,
    ) -> Handle<Expression> {
        if let Some(&(h, _)) = self.f.loads.get(&key) {
            return h;
        }
        let h = self.load(pointer);
        let depth = self.f.frames.len();
        self.f.loads.insert(key, (h, depth));
        h
    }

    /// `key` now holds `value` (a whole-register write).
    pub(super) fn remember_register(&mut self, key: Loaded, value: Handle<Expression>) {
        let depth = self.f.frames.len();
        self.f.loads.insert(key, (value, depth));
    }

    /// `key` changed in a way not remembered (a partial write).
    pub(super) fn forget_register(&mut self, key: Loaded) {
        self.f.loads.remove(&key);
    }

    /// A flow-control instruction: forget mutable registers and what the current block
    /// emitted.
    pub(super) fn forget_at_join(&mut self) {
        let depth = self.f.frames.len();
        self.f
            .loads
            .retain(|k, &mut (_, d)| !k.mutable() && d < depth);
    }

    /// A block closed: forget what it emitted.
    pub(super) fn forget_closed_blocks(&mut self) {
        let depth = self.f.frames.len();
        self.f.loads.retain(|_, &mut (_, d)| d <= depth);
    }
}
