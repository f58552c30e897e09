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

#[cfg(test)]
mod tests {
    use super::{fold_binary, fold_math, fold_select, zip};
    use crate::lift::function::ConstValue::{Bool, Float};
    use naga::{BinaryOperator as Bo, MathFunction as Mf};

    /// Componentwise on equal lengths; a scalar on either side is broadcast to the other's
    /// length; any other pair of lengths has no constant value.
    #[test]
    fn zip_pairs_equal_lengths_and_broadcasts_a_scalar() {
        let sub = |x: f32, y: f32| x - y;
        assert_eq!(zip(&[5.0, 7.0], &[1.0, 2.0], sub), Some(vec![4.0, 5.0]));
        assert_eq!(
            zip(&[10.0], &[1.0, 2.0, 3.0], sub),
            Some(vec![9.0, 8.0, 7.0])
        );
        assert_eq!(
            zip(&[1.0, 2.0, 3.0], &[10.0], sub),
            Some(vec![-9.0, -8.0, -7.0])
        );
        assert_eq!(zip(&[3.0], &[1.0], sub), Some(vec![2.0]));
        assert_eq!(zip(&[1.0, 2.0], &[1.0, 2.0, 3.0], sub), None);
    }

    /// Each operator of two float vectors, as IEEE arithmetic and comparison give it.
    #[test]
    fn fold_binary_computes_each_float_operator() {
        let (a, b) = (Float(vec![6.0, 1.0, -2.0]), Float(vec![3.0, 1.0, 4.0]));
        let f = |op| fold_binary(op, &a, &b);
        assert_eq!(f(Bo::Add), Some(Float(vec![9.0, 2.0, 2.0])));
        assert_eq!(f(Bo::Subtract), Some(Float(vec![3.0, 0.0, -6.0])));
        assert_eq!(f(Bo::Multiply), Some(Float(vec![18.0, 1.0, -8.0])));
        assert_eq!(f(Bo::Divide), Some(Float(vec![2.0, 1.0, -0.5])));
        assert_eq!(f(Bo::Equal), Some(Bool(vec![false, true, false])));
        assert_eq!(f(Bo::NotEqual), Some(Bool(vec![true, false, true])));
        assert_eq!(f(Bo::Less), Some(Bool(vec![false, false, true])));
        assert_eq!(f(Bo::LessEqual), Some(Bool(vec![false, true, true])));
        assert_eq!(f(Bo::Greater), Some(Bool(vec![true, false, false])));
        assert_eq!(f(Bo::GreaterEqual), Some(Bool(vec![true, true, false])));
        // Overflow is IEEE's: the caller decides what a non-finite value becomes.
        let big = Float(vec![3e38]);
        assert_eq!(
            fold_binary(Bo::Add, &big, &big),
            Some(Float(vec![f32::INFINITY]))
        );
        assert_eq!(f(Bo::Modulo), None);
    }

    /// Logic of two bool vectors; mixed or unknown operands have no value.
    #[test]
    fn fold_binary_computes_bool_logic_and_refuses_mixed_operands() {
        let (a, b) = (
            Bool(vec![true, true, false]),
            Bool(vec![true, false, false]),
        );
        for op in [Bo::LogicalAnd, Bo::And] {
            assert_eq!(
                fold_binary(op, &a, &b),
                Some(Bool(vec![true, false, false]))
            );
        }
        for op in [Bo::LogicalOr, Bo::InclusiveOr] {
            assert_eq!(fold_binary(op, &a, &b), Some(Bool(vec![true, true, false])));
        }
        assert_eq!(fold_binary(Bo::Equal, &a, &b), None);
        assert_eq!(fold_binary(Bo::Add, &a, &Float(vec![1.0; 3])), None);
    }

    /// `select` takes `accept` where the condition holds; a scalar broadcasts.
    #[test]
    fn fold_select_picks_per_component_and_broadcasts() {
        let pick = fold_select(&[true, false, true], &[1.0, 2.0, 3.0], &[-1.0, -2.0, -3.0]);
        assert_eq!(pick, Some(Float(vec![1.0, -2.0, 3.0])));
        assert_eq!(
            fold_select(&[false], &[1.0, 2.0], &[9.0]),
            Some(Float(vec![9.0, 9.0]))
        );
        assert_eq!(fold_select(&[], &[1.0], &[2.0]), None);
    }

    /// The math functions the lifter emits, from their definitions.
    #[test]
    fn fold_math_computes_each_function() {
        let m1 = |fun, x: &[f32]| fold_math(fun, x, None, None);
        let v = |x: &[f32]| Some(Float(x.to_vec()));
        assert_eq!(m1(Mf::Abs, &[-2.0, 3.0]), v(&[2.0, 3.0]));
        assert_eq!(m1(Mf::Floor, &[-1.5, 2.5]), v(&[-2.0, 2.0]));
        assert_eq!(m1(Mf::Fract, &[-1.25, 2.5]), v(&[0.75, 0.5]));
        assert_eq!(m1(Mf::Saturate, &[-1.0, 0.5, 2.0]), v(&[0.0, 0.5, 1.0]));
        assert_eq!(m1(Mf::Sign, &[-3.0, 0.0, 5.0]), v(&[-1.0, 0.0, 1.0]));
        assert_eq!(m1(Mf::Exp2, &[3.0, 200.0]), v(&[8.0, f32::INFINITY]));
        assert_eq!(m1(Mf::Log2, &[8.0, 0.0]), v(&[3.0, f32::NEG_INFINITY]));
        assert_eq!(m1(Mf::InverseSqrt, &[4.0, 0.0]), v(&[0.5, f32::INFINITY]));
        assert_eq!(m1(Mf::Sin, &[0.0]), v(&[0.0]));
        assert_eq!(m1(Mf::Cos, &[0.0]), v(&[1.0]));
        let (a, b) = ([1.0, 5.0, -2.0], [3.0, 2.0, 2.0]);
        let m2 = |fun| fold_math(fun, &a, Some(&b), None);
        assert_eq!(m2(Mf::Min), v(&[1.0, 2.0, -2.0]));
        assert_eq!(m2(Mf::Max), v(&[3.0, 5.0, 2.0]));
        assert_eq!(m2(Mf::Pow), v(&[1.0, 25.0, 4.0]));
        assert_eq!(m2(Mf::Dot), v(&[9.0]));
        assert_eq!(m2(Mf::Cross), v(&[14.0, -8.0, -13.0]));
        assert_eq!(fold_math(Mf::Dot, &a, Some(&[1.0]), None), None);
        assert_eq!(fold_math(Mf::Cross, &[1.0], Some(&[1.0]), None), None);
        let clamped = fold_math(Mf::Clamp, &a, Some(&[0.0]), Some(&[2.0]));
        assert_eq!(clamped, v(&[1.0, 2.0, 0.0]));
        assert_eq!(m1(Mf::Clamp, &a), None);
        assert_eq!(m1(Mf::Tan, &a), None);
    }
}
