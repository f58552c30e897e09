//! Which values are provably finite, so that `LegacyStrict`'s zero test can be dropped where it
//! cannot matter: `0 · x` differs from IEEE only when x is ±inf or NaN.
//!
//! A value is finite when it is a finite literal or `def`, a fetch of an integer or
//! normalised declaration type (UBYTE4, SHORT2N, D3DCOLOR …), `a0`/`aL` as a float, the result
//! of `slt`/`sge`/`sgn`, `min`/`max`/`frc`/`mov` of finite values, a finite value negated,
//! made absolute, biased or complemented, or a temporary written with finite values earlier
//! in the same straight-line code (forgotten at every flow-control instruction, where
//! control paths join).

use super::builder::{Lifter, Value};

impl Lifter<'_> {
    /// Whether every component of `v` is provably finite.
    pub(super) fn is_finite(&self, v: Value) -> bool {
        if let Some(k) = self.known(v.h) {
            return k.iter().all(|x| x.is_finite());
        }
        self.f.finite.values.contains(&v.h)
    }

    /// `v` is finite (the caller proves it).
    pub(super) fn mark_finite(&mut self, v: Value) -> Value {
        self.f.finite.values.insert(v.h);
        v
    }

    /// `v` is finite when every one of `from` is.
    pub(super) fn finite_if(&mut self, v: Value, from: &[Value]) -> Value {
        if from.iter().all(|&f| self.is_finite(f)) {
            self.mark_finite(v);
        }
        v
    }

    /// Components `lanes` of `r#n` now hold `value` (finite or not).
    pub(super) fn note_temp_write(&mut self, n: u32, lanes: &[u8], finite: bool) {
        let bits = lanes.iter().fold(0u8, |m, &c| m | 1 << (c & 3));
        let entry = self.f.finite.temps.entry(n).or_insert(0);
        if finite {
            *entry |= bits;
        } else {
            *entry &= !bits;
        }
    }

    /// Whether components `components` of `r#n` hold finite values.
    pub(super) fn temp_is_finite(&self, n: u32, components: &[u8]) -> bool {
        let bits = components.iter().fold(0u8, |m, &c| m | 1 << (c & 3));
        self.f
            .finite
            .temps
            .get(&n)
            .is_some_and(|&have| have & bits == bits)
    }

    /// Control paths join (a flow-control instruction): forget what registers hold.
    pub(super) fn forget_temps(&mut self) {
        self.f.finite.temps.clear();
    }
}
