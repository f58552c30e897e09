//! Every D3D9 float rule in one place, decided once by [`FloatMode`].
//!
//! `Legacy` (what D3D9 hardware does):
//! - `0 * x = 0` for any x, inf and NaN included, in mul, mad, dp2/3/4, m#x#, lit, dst, pow;
//! - `rcp(0) = rsq(0) = +FLT_MAX`, `log(0) = -FLT_MAX`;
//! - `pow(a, b) = |a|^b`, computed as `exp2(b * log2|a|)` with the legacy multiply.
//!
//! In both modes rsq, log and pow take |x| (|a| for pow): that is the SDK's definition of
//! those instructions, not a float rule, so `rsq(-4) = 0.5` and `pow(-2, 2) = 4` everywhere.
//!
//! `Ieee` is plain arithmetic otherwise. The zero test of the legacy multiply is emitted only where it
//! can matter: not when an operand is a known finite non-zero value (a literal or `def`),
//! folded to a constant mask when an operand is a known finite value, and a single test
//! when both operands are the same expression. A cheaper mode that clamps the sources of
//! inf/NaN (rcp, rsq, log, exp, pow, nrm) to ±FLT_MAX and multiplies plainly slots in here.

use super::builder::Lifter;
use super::FloatMode;
use naga::{BinaryOperator as Bo, Expression, Handle, MathFunction as Mf};

impl Lifter<'_> {
    fn legacy(&self) -> bool {
        matches!(
            self.options.float_mode,
            FloatMode::Legacy | FloatMode::LegacyStrict
        )
    }

    /// A float literal of the same width as `like` (scalar or `vec4`).
    fn same_width(&mut self, like: Handle<Expression>, v: f32) -> Handle<Expression> {
        let s = self.lit_f32(v);
        if self.is_vec4(like) {
            self.splat(s)
        } else {
            s
        }
    }

    /// Whether an expression is a vector.
    fn is_vec4(&mut self, h: Handle<Expression>) -> bool {
        if let Some(k) = self.known(h) {
            return k.len() == 4;
        }
        let ctx = naga::proc::ResolveContext::with_locals(
            &self.module,
            &self.f.function.local_variables,
            &self.f.function.arguments,
        );
        match self.f.typifier.grow(h, &self.f.function.expressions, &ctx) {
            Ok(()) => matches!(
                self.f.typifier.get(h, &self.module.types),
                naga::TypeInner::Vector { .. }
            ),
            Err(_) => false,
        }
    }

    /// `a * b`, with `0 * x = 0` in Legacy mode (same width operands).
    pub(super) fn mul_d3d9(
        &mut self,
        a: Handle<Expression>,
        b: Handle<Expression>,
    ) -> Handle<Expression> {
        let ka = self.known(a).map(<[f32]>::to_vec);
        let kb = self.known(b).map(<[f32]>::to_vec);
        if !self.legacy() {
            return self.bin(Bo::Multiply, a, b);
        }
        if let (Some(x), Some(y)) = (&ka, &kb) {
            if x.len() == y.len() {
                let v: Vec<f32> = x
                    .iter()
                    .zip(y)
                    .map(|(&p, &q)| if p == 0.0 || q == 0.0 { 0.0 } else { p * q })
                    .collect();
                return match *v.as_slice() {
                    [s] => self.lit_f32(s),
                    [p, q, r, w] => self.const_vec4([p, q, r, w]),
                    _ => self.bin(Bo::Multiply, a, b),
                };
            }
        }
        let product = self.bin(Bo::Multiply, a, b);
        // One operand known and finite: only its zero components can meet an inf/NaN.
        for k in [&ka, &kb].into_iter().flatten() {
            if k.iter().all(|x| x.is_finite()) {
                if k.iter().all(|&x| x != 0.0) {
                    return product;
                }
                let zero = self.same_width(product, 0.0);
                let cond = match k.as_slice() {
                    &[_] => return zero,
                    v => {
                        let mask = [0, 1, 2, 3].map(|i| v.get(i).is_some_and(|&x| x == 0.0));
                        self.const_bvec4(mask)
                    }
                };
                return self.select(cond, zero, product);
            }
        }
        let zero = self.same_width(product, 0.0);
        let a_zero = self.bin(Bo::Equal, a, zero);
        let cond = if a == b {
            a_zero
        } else {
            let b_zero = self.bin(Bo::Equal, b, zero);
            if self.is_vec4(product) {
                self.bin(Bo::InclusiveOr, a_zero, b_zero)
            } else {
                self.bin(Bo::LogicalOr, a_zero, b_zero)
            }
        };
        self.select(cond, zero, product)
    }

    /// `dp3`/`dp4` (`n` = 3 or 4) of two `vec4`s as a scalar, summed left to right.
    pub(super) fn dot_d3d9(
        &mut self,
        a: Handle<Expression>,
        b: Handle<Expression>,
        n: u8,
    ) -> Handle<Expression> {
        if !self.legacy() {
            return if n == 4 {
                self.emit(Expression::Math {
                    fun: Mf::Dot,
                    arg: a,
                    arg1: Some(b),
                    arg2: None,
                    arg3: None,
                })
            } else {
                let a3 = self.truncate(a, n);
                let b3 = self.truncate(b, n);
                self.math2(Mf::Dot, a3, b3)
            };
        }
        let m = self.mul_d3d9(a, b);
        let mut sum = self.comp(m, 0);
        for i in 1..u32::from(n) {
            let c = self.comp(m, i);
            sum = self.bin(Bo::Add, sum, c);
        }
        sum
    }

    /// `rcp`: 1/x; Legacy gives +FLT_MAX for ±0.
    pub(super) fn rcp_d3d9(&mut self, x: Handle<Expression>) -> Handle<Expression> {
        let one = self.same_width(x, 1.0);
        let r = self.bin(Bo::Divide, one, x);
        if !self.legacy() {
            return r;
        }
        self.zero_gives(x, r, f32::MAX)
    }

    /// `rsq`: 1/sqrt(|x|); Legacy gives +FLT_MAX for ±0, Ieee +inf.
    pub(super) fn rsq_d3d9(&mut self, x: Handle<Expression>) -> Handle<Expression> {
        let a = self.math1(Mf::Abs, x);
        let r = self.math1(Mf::InverseSqrt, a);
        if !self.legacy() {
            return r;
        }
        self.zero_gives(x, r, f32::MAX)
    }

    /// `log`: log2(|x|); Legacy gives -FLT_MAX for ±0, Ieee -inf.
    pub(super) fn log_d3d9(&mut self, x: Handle<Expression>) -> Handle<Expression> {
        let a = self.math1(Mf::Abs, x);
        let r = self.math1(Mf::Log2, a);
        if !self.legacy() {
            return r;
        }
        self.zero_gives(x, r, -f32::MAX)
    }

    /// `exp`: 2^x (the same in both modes).
    pub(super) fn exp_d3d9(&mut self, x: Handle<Expression>) -> Handle<Expression> {
        self.math1(Mf::Exp2, x)
    }

    /// `pow`: Legacy `|a|^b` as `exp2(b * log2|a|)` with the legacy multiply (so `pow(x, 0) = 1`
    /// for every x, and `pow(0, b) = 0` for b > 0); Ieee `pow(|a|, b)`.
    pub(super) fn pow_d3d9(
        &mut self,
        a: Handle<Expression>,
        b: Handle<Expression>,
    ) -> Handle<Expression> {
        let abs = self.math1(Mf::Abs, a);
        if !self.legacy() {
            return self.math2(Mf::Pow, abs, b);
        }
        let l = self.math1(Mf::Log2, abs);
        let m = self.mul_d3d9(b, l);
        self.math1(Mf::Exp2, m)
    }

    /// `select(r, value, x == 0)` for a scalar or `vec4` x.
    fn zero_gives(
        &mut self,
        x: Handle<Expression>,
        r: Handle<Expression>,
        value: f32,
    ) -> Handle<Expression> {
        if let Some(k) = self.known(x) {
            if k.iter().all(|&v| v != 0.0) {
                return r;
            }
        }
        let zero = self.same_width(x, 0.0);
        let v = self.same_width(x, value);
        let cond = self.bin(Bo::Equal, x, zero);
        self.select(cond, v, r)
    }
}
