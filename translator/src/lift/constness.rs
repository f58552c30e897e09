//! Constant expressions that would overflow when a WGSL front end evaluates them.
//!
//! WGSL evaluates an expression made only of literals at shader-creation time, and refuses the
//! shader when the value is not finite (`1f / 0f`, `exp2(200f)`, `log2(0f)`, `3e38f * 10f`).
//! D3D9 has no such rule: `rcp r0, c0` with `def c0, 0, …` is legal and gives FLT_MAX (or inf
//! in `Ieee`), whatever naga's IR validator says. So the lifter follows which expressions are
//! constant as naga's WGSL front end sees them (literals, and compose/splat/swizzle/index,
//! negation, arithmetic, comparisons, select and math of constants), computes their values,
//! and emits an expression whose value is not finite as its value instead: a bit-cast literal
//! (`bitcast<f32>(…u)`), which WGSL does not evaluate early, so nothing after it is constant
//! either. The value is what IEEE arithmetic gives, which is what the GPU computes at run time.

use super::builder::Lifter;
use super::function::ConstValue;
use naga::{BinaryOperator as Bo, Expression, Handle, MathFunction as Mf, UnaryOperator};

/// `f` applied per component of two equally long vectors, or a scalar broadcast to the other.
fn zip<T: Copy, U>(a: &[T], b: &[T], f: impl Fn(T, T) -> U) -> Option<Vec<U>> {
    match (a.len(), b.len()) {
        (n, m) if n == m => Some(a.iter().zip(b).map(|(&x, &y)| f(x, y)).collect()),
        (1, _) => Some(b.iter().map(|&y| f(a[0], y)).collect()),
        (_, 1) => Some(a.iter().map(|&x| f(x, b[0])).collect()),
        _ => None,
    }
}

impl Lifter<'_> {
    fn constant_floats(&self, h: Handle<Expression>) -> Option<&[f32]> {
        match self.f.consts.get(&h)? {
            ConstValue::Float(v) => Some(v),
            ConstValue::Bool(_) => None,
        }
    }

    fn constant_bools(&self, h: Handle<Expression>) -> Option<&[bool]> {
        match self.f.consts.get(&h)? {
            ConstValue::Bool(v) => Some(v),
            ConstValue::Float(_) => None,
        }
    }

    /// The value of `expr` if every operand is constant (and the lifter knows how to compute
    /// it); `None` otherwise.
    pub(super) fn const_value(&self, expr: &Expression) -> Option<ConstValue> {
        use ConstValue::{Bool, Float};
        Some(match *expr {
            Expression::Literal(naga::Literal::F32(v)) => Float(vec![v]),
            Expression::Literal(naga::Literal::Bool(v)) => Bool(vec![v]),
            Expression::Compose { ty, ref components } => {
                return self.const_compose(ty, components)
            }
            Expression::Splat { size, value } => match self.f.consts.get(&value)? {
                Float(v) => Float(vec![*v.first()?; size as usize]),
                Bool(v) => Bool(vec![*v.first()?; size as usize]),
            },
            Expression::Swizzle {
                size,
                vector,
                pattern,
            } => {
                let pick = |i: usize| pattern.get(i).map(|c| *c as usize);
                match self.f.consts.get(&vector)? {
                    Float(v) => Float(
                        (0..size as usize)
                            .map(|i| v.get(pick(i)?).copied())
                            .collect::<Option<_>>()?,
                    ),
                    Bool(v) => Bool(
                        (0..size as usize)
                            .map(|i| v.get(pick(i)?).copied())
                            .collect::<Option<_>>()?,
                    ),
                }
            }
            Expression::AccessIndex { base, index } => match self.f.consts.get(&base)? {
                Float(v) => Float(vec![*v.get(index as usize)?]),
                Bool(v) => Bool(vec![*v.get(index as usize)?]),
            },
            Expression::Unary { op, expr } => match (op, self.f.consts.get(&expr)?) {
                (UnaryOperator::Negate, Float(v)) => Float(v.iter().map(|x| -x).collect()),
                (UnaryOperator::LogicalNot, Bool(v)) => Bool(v.iter().map(|x| !x).collect()),
                _ => return None,
            },
            Expression::Binary { op, left, right } => {
                return fold_binary(op, self.f.consts.get(&left)?, self.f.consts.get(&right)?)
            }
            Expression::Select {
                condition,
                accept,
                reject,
            } => {
                let c = self.constant_bools(condition)?;
                let (a, b) = (self.constant_floats(accept)?, self.constant_floats(reject)?);
                return fold_select(c, a, b);
            }
            Expression::Math {
                fun,
                arg,
                arg1,
                arg2,
                ..
            } => {
                let a = self.constant_floats(arg)?;
                let b = match arg1 {
                    Some(h) => Some(self.constant_floats(h)?),
                    None => None,
                };
                let c = match arg2 {
                    Some(h) => Some(self.constant_floats(h)?),
                    None => None,
                };
                return fold_math(fun, a, b, c);
            }
            _ => return None,
        })
    }

    /// A vector composed of constants (a struct of constants is not a value WGSL folds to
    /// one).
    fn const_compose(
        &self,
        ty: Handle<naga::Type>,
        components: &[Handle<Expression>],
    ) -> Option<ConstValue> {
        if !matches!(self.module.types[ty].inner, naga::TypeInner::Vector { .. }) {
            return None;
        }
        Some(match self.f.consts.get(components.first()?)? {
            ConstValue::Float(_) => {
                let mut out = Vec::new();
                for &c in components {
                    out.extend_from_slice(self.constant_floats(c)?);
                }
                ConstValue::Float(out)
            }
            ConstValue::Bool(_) => {
                let mut out = Vec::new();
                for &c in components {
                    out.extend_from_slice(self.constant_bools(c)?);
                }
                ConstValue::Bool(out)
            }
        })
    }
}

/// Arithmetic, comparison and logic of two constants.
fn fold_binary(op: Bo, left: &ConstValue, right: &ConstValue) -> Option<ConstValue> {
    use ConstValue::{Bool, Float};
    Some(match (left, right) {
        (Float(a), Float(b)) => match op {
            Bo::Add => Float(zip(a, b, |x, y| x + y)?),
            Bo::Subtract => Float(zip(a, b, |x, y| x - y)?),
            Bo::Multiply => Float(zip(a, b, |x, y| x * y)?),
            Bo::Divide => Float(zip(a, b, |x, y| x / y)?),
            Bo::Equal => Bool(zip(a, b, |x, y| x == y)?),
            Bo::NotEqual => Bool(zip(a, b, |x, y| x != y)?),
            Bo::Less => Bool(zip(a, b, |x, y| x < y)?),
            Bo::LessEqual => Bool(zip(a, b, |x, y| x <= y)?),
            Bo::Greater => Bool(zip(a, b, |x, y| x > y)?),
            Bo::GreaterEqual => Bool(zip(a, b, |x, y| x >= y)?),
            _ => return None,
        },
        (Bool(a), Bool(b)) => match op {
            Bo::LogicalAnd | Bo::And => Bool(zip(a, b, |x, y| x && y)?),
            Bo::LogicalOr | Bo::InclusiveOr => Bool(zip(a, b, |x, y| x || y)?),
            _ => return None,
        },
        _ => return None,
    })
}

/// `select(reject, accept, condition)` of constants, a scalar broadcast to the others.
fn fold_select(c: &[bool], a: &[f32], b: &[f32]) -> Option<ConstValue> {
    let n = a.len().max(b.len());
    let at = |v: &[f32], i: usize| v.get(i).or(v.first()).copied();
    Some(ConstValue::Float(
        (0..n)
            .map(|i| {
                let take = *c.get(i).or(c.first())?;
                if take {
                    at(a, i)
                } else {
                    at(b, i)
                }
            })
            .collect::<Option<_>>()?,
    ))
}

/// The math functions the lifter emits, of constants.
fn fold_math(fun: Mf, a: &[f32], b: Option<&[f32]>, c: Option<&[f32]>) -> Option<ConstValue> {
    use ConstValue::Float;
    let map1 = |f: fn(f32) -> f32| Float(a.iter().map(|&x| f(x)).collect());
    Some(match (fun, b, c) {
        (Mf::Abs, None, None) => map1(f32::abs),
        (Mf::Floor, None, None) => map1(f32::floor),
        (Mf::Fract, None, None) => map1(|x| x - x.floor()),
        (Mf::Saturate, None, None) => map1(|x| x.clamp(0.0, 1.0)),
        (Mf::Sign, None, None) => map1(|x| {
            if x > 0.0 {
                1.0
            } else if x < 0.0 {
                -1.0
            } else {
                0.0
            }
        }),
        (Mf::Exp2, None, None) => map1(f32::exp2),
        (Mf::Log2, None, None) => map1(f32::log2),
        (Mf::InverseSqrt, None, None) => map1(|x| 1.0 / x.sqrt()),
        (Mf::Sin, None, None) => map1(f32::sin),
        (Mf::Cos, None, None) => map1(f32::cos),
        (Mf::Min, Some(b), None) => Float(zip(a, b, f32::min)?),
        (Mf::Max, Some(b), None) => Float(zip(a, b, f32::max)?),
        (Mf::Pow, Some(b), None) => Float(zip(a, b, f32::powf)?),
        (Mf::Clamp, Some(lo), Some(hi)) => {
            let low = zip(a, lo, f32::max)?;
            Float(zip(&low, hi, f32::min)?)
        }
        (Mf::Dot, Some(b), None) if a.len() == b.len() => {
            Float(vec![a.iter().zip(b).map(|(x, y)| x * y).sum()])
        }
        (Mf::Cross, Some(b), None) if a.len() == 3 && b.len() == 3 => Float(vec![
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ]),
        _ => return None,
    })
}
