//! Register loads remembered within straight-line code, so a register read twice (or read
//! after it was written) costs one naga expression instead of a `Load` each time: fewer
//! expressions to validate and print, fewer `let`s in the WGSL.
//!
//! A remembered value is reused only where naga allows it and D3D9 means it:
//! - a value emitted in a block is forgotten when that block closes (naga's scoping), and at
//!   every flow-control instruction everything is forgotten, since paths join there and
//!   loops repeat;
//! - a write of the whole register remembers the written value; a write of one component
//!   forgets it.

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

    /// A flow-control instruction: paths join or a block opens, so forget everything.
    /// (Every value remembered was loaded in the current block, since a block opens only at
    /// a flow-control instruction, after this, or inside one instruction; forgetting is
    /// always safe.)
    pub(super) fn forget_at_join(&mut self) {
        self.f.loads.clear();
    }

    /// A block closed: forget what it emitted.
    pub(super) fn forget_closed_blocks(&mut self) {
        let depth = self.f.frames.len();
        self.f.loads.retain(|_, &mut (_, d)| d <= depth);
    }
}
