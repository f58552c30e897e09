//! Every D3D9 float rule, emitted as naga IR and decided once by [`super::FloatMode`]; the rules
//! themselves (values at zero, the multiply rule) are stated in `crate::rules`, which the
//! reference interpreter shares.
//!
//! In every mode rsq, log and pow take |x| (|a| for pow): that is the SDK's definition of those
//! instructions, not a float rule, so `rsq(-4) = 0.5` and `pow(-2, 2) = 4` everywhere.
//!
//! `LegacyStrict` (what D3D9 hardware does, exactly):
//! - `0 * x = 0` for any x, inf and NaN included, in mul, mad, dp3/dp4, m#x#, lit, dst, nrm,
//!   pow: `select(a * b, 0, a == 0 || b == 0)`. The zero test is emitted only where it can
//!   matter: not when an operand is a known finite non-zero value (a literal or `def`), folded
//!   to a constant mask when an operand is a known finite value, one test when both operands
//!   are the same expression;
//! - `rcp(0) = rsq(0) = +FLT_MAX`, `log(0) = -FLT_MAX`;
//! - `pow(a, b) = |a|^b` as `exp2(b * log2|a|)` with the legacy multiply.
//!
//! `Legacy` (the default) removes the sources of inf and NaN instead of testing every
//! multiply, as DXVK's default float emulation does: rcp, rsq and log give ±FLT_MAX for 0 as
//! above, `pow` keeps its (scalar) zero test, and multiplies and dot products are plain IEEE
//! (naga's `Dot`). So `0 * rcp(0)`
//! is 0 as on D3D9 hardware; it differs from `LegacyStrict` only where a multiply meets an
//! inf or NaN that no D3D9 instruction produced: an application constant or vertex input that
//! holds inf/NaN, or an add/multiply that overflows (`docs/decisions.md`).
//!
//! `Ieee` is plain arithmetic otherwise.

use super::builder::{Lifter, Value};
use naga::{BinaryOperator as Bo, Handle, MathFunction as Mf};

impl Lifter<'_> {
    /// Whether rcp/rsq/log/pow follow D3D9 (Legacy or LegacyStrict).
    fn legacy_results(&self) -> bool {
        crate::rules::legacy_results(self.float_mode)
    }

    /// Whether every multiply tests for zero (LegacyStrict).
    fn strict_multiplies(&self) -> bool {
        crate::rules::strict_multiplies(self.float_mode)
    }

    /// `a * b` (same widths), with `0 * x = 0` in LegacyStrict.
    pub(super) fn mul_d3d9(&mut self, a: Value, b: Value) -> Value {
        if !self.strict_multiplies() {
            return self.bin_v(Bo::Multiply, a, b);
        }
        self.mul_zero_rule(a, b)
    }

    /// `a * b` with `0 * x = 0` for every x.
    fn mul_zero_rule(&mut self, a: Value, b: Value) -> Value {
        let ka = self.known(a.h).map(<[f32]>::to_vec);
        let kb = self.known(b.h).map(<[f32]>::to_vec);
        if let (Some(x), Some(y)) = (&ka, &kb) {
            if x.len() == y.len() {
                let v: Vec<f32> = x
                    .iter()
                    .zip(y)
                    .map(|(&p, &q)| if p == 0.0 || q == 0.0 { 0.0 } else { p * q })
                    .collect();
                return self.const_f32s(&v);
            }
        }
        let product = self.bin_v(Bo::Multiply, a, b);
        // One operand known and finite: only its zero components can meet an inf/NaN.
        for k in [&ka, &kb].into_iter().flatten() {
            if k.iter().all(|x| x.is_finite()) {
                if k.iter().all(|&x| x != 0.0) {
                    return product;
                }
                let zero = self.float_n(0.0, product.n);
                if product.n == 1 || k.iter().all(|&x| x == 0.0) {
                    return zero;
                }
                let mask: Vec<bool> = (0..usize::from(product.n))
                    .map(|i| k.get(i).is_some_and(|&x| x == 0.0))
                    .collect();
                let cond = self.const_bools(&mask);
                return self.select_v(cond, zero, product);
            }
        }
        // Provably finite operands (`finite`): both finite, plain IEEE is exact; one finite,
        // only its zeros can meet an inf/NaN.
        let (fa, fb) = (self.is_finite(a), self.is_finite(b));
        if fa && fb {
            return product;
        }
        let zero = self.float_n(0.0, product.n);
        if fa || fb {
            let finite = if fa { a } else { b };
            let cond = self.bin_v(Bo::Equal, finite, zero);
            return self.select_v(cond, zero, product);
        }
        let a_zero = self.bin_v(Bo::Equal, a, zero);
        let cond = if a.h == b.h {
            a_zero
        } else {
            let b_zero = self.bin_v(Bo::Equal, b, zero);
            let or = if product.n > 1 {
                Bo::InclusiveOr
            } else {
                Bo::LogicalOr
            };
            self.bin_v(or, a_zero, b_zero)
        };
        self.select_v(cond, zero, product)
    }

    /// `dp3`/`dp4` of two values of width 3 or 4, as a scalar: naga's `Dot`, or in
    /// LegacyStrict the legacy products summed left to right.
    pub(super) fn dot_d3d9(&mut self, a: Value, b: Value) -> Handle<naga::Expression> {
        if !self.strict_multiplies() {
            return self.math2(Mf::Dot, a.h, b.h);
        }
        let m = self.mul_d3d9(a, b);
        let mut sum = self.lane(m, 0);
        for i in 1..m.n {
            let c = self.lane(m, i);
            sum = self.bin(Bo::Add, sum, c);
        }
        sum
    }

    /// `crs` of two `vec3` values: naga's `Cross`, or in LegacyStrict
    /// `a.yzx * b.zxy - a.zxy * b.yzx` with the legacy multiply (crs is a mul/mad macro on
    /// D3D9 hardware).
    pub(super) fn cross_d3d9(&mut self, a: Value, b: Value) -> Value {
        if !self.strict_multiplies() {
            return Value {
                h: self.math2(Mf::Cross, a.h, b.h),
                n: 3,
            };
        }
        let (yzx, zxy) = ([1u8, 2, 0], [2u8, 0, 1]);
        let a1 = self.pick(a, &yzx);
        let b1 = self.pick(b, &zxy);
        let a2 = self.pick(a, &zxy);
        let b2 = self.pick(b, &yzx);
        let p = self.mul_d3d9(a1, b1);
        let q = self.mul_d3d9(a2, b2);
        self.bin_v(Bo::Subtract, p, q)
    }

    /// `rcp`: 1/x; Legacy modes give +FLT_MAX for ±0.
    pub(super) fn rcp_d3d9(&mut self, x: Handle<naga::Expression>) -> Handle<naga::Expression> {
        let one = self.lit_f32(1.0);
        let r = self.bin(Bo::Divide, one, x);
        if !self.legacy_results() {
            return r;
        }
        self.zero_gives(x, r, crate::rules::RCP_OF_ZERO)
    }

    /// `rsq`: 1/sqrt(|x|); Legacy modes give +FLT_MAX for ±0, Ieee +inf.
    pub(super) fn rsq_d3d9(&mut self, x: Handle<naga::Expression>) -> Handle<naga::Expression> {
        let a = self.math1(Mf::Abs, x);
        let r = self.math1(Mf::InverseSqrt, a);
        if !self.legacy_results() {
            return r;
        }
        self.zero_gives(x, r, crate::rules::RCP_OF_ZERO)
    }

    /// `log`: log2(|x|); Legacy modes give -FLT_MAX for ±0, Ieee -inf.
    pub(super) fn log_d3d9(&mut self, x: Handle<naga::Expression>) -> Handle<naga::Expression> {
        let a = self.math1(Mf::Abs, x);
        let r = self.math1(Mf::Log2, a);
        if !self.legacy_results() {
            return r;
        }
        self.zero_gives(x, r, crate::rules::LOG_OF_ZERO)
    }

    /// `exp`: 2^x (the same in every mode).
    pub(super) fn exp_d3d9(&mut self, x: Handle<naga::Expression>) -> Handle<naga::Expression> {
        self.math1(Mf::Exp2, x)
    }

    /// `pow` of two scalars, `|a|^b` as `exp2(b * log2|a|)` in every mode (`rules::pow`, so the
    /// interpreter meets the same special values), with `log2|0|` taken as -FLT_MAX in every
    /// mode (Vulkan leaves `log2(0)` undefined); the legacy modes apply the zero rule to the
    /// multiply (so `pow(x, 0) = 1` for every x, and `pow(0, b) = 0` for b > 0).
    /// `lit` passes `base_may_be_zero = false`: it uses the power only where its base is > 0.
    pub(super) fn pow_d3d9(
        &mut self,
        a: Handle<naga::Expression>,
        b: Handle<naga::Expression>,
        base_may_be_zero: bool,
    ) -> Handle<naga::Expression> {
        let abs = self.math1(Mf::Abs, a);
        let log = self.math1(Mf::Log2, abs);
        let l = match base_may_be_zero {
            true => self.zero_gives(a, log, crate::rules::LOG_OF_ZERO),
            false => log,
        };
        let m = if self.legacy_results() {
            // The zero rule costs one scalar select here, so both legacy modes keep it.
            self.mul_zero_rule(Value { h: b, n: 1 }, Value { h: l, n: 1 })
        } else {
            self.bin_v(Bo::Multiply, Value { h: b, n: 1 }, Value { h: l, n: 1 })
        };
        self.math1(Mf::Exp2, m.h)
    }

    /// `select(r, value, x == 0)` for a scalar x.
    fn zero_gives(
        &mut self,
        x: Handle<naga::Expression>,
        r: Handle<naga::Expression>,
        value: f32,
    ) -> Handle<naga::Expression> {
        if let Some(k) = self.known(x) {
            if k.iter().all(|&v| v != 0.0) {
                return r;
            }
        }
        let zero = self.lit_f32(0.0);
        let v = self.lit_f32(value);
        let cond = self.bin(Bo::Equal, x, zero);
        self.select(cond, v, r)
    }
}
