//! The lifter's verbs for values: literals and constants, lanes (`splat`, `comp`, `lane`,
//! `pick`, `compose`), operators, math functions and selects. Known (constant) values are
//! folded where the lifter tracks them.

use naga::{Expression, Handle, Literal};

use super::builder::{swizzle_component, vector_size, Lifter, Value};

impl Lifter<'_> {
    pub fn lit_f32(&mut self, v: f32) -> Handle<Expression> {
        if v.is_finite() {
            let h = self.emit(Expression::Literal(Literal::F32(v)));
            self.f.known.insert(h, vec![v]);
            h
        } else {
            // naga rejects non-finite literals: spell them as a bitcast.
            let bits = self.emit(Expression::Literal(Literal::U32(v.to_bits())));
            self.emit(Expression::As {
                expr: bits,
                kind: naga::ScalarKind::Float,
                convert: None,
            })
        }
    }

    pub fn lit_i32(&mut self, v: i32) -> Handle<Expression> {
        self.emit(Expression::Literal(Literal::I32(v)))
    }

    pub fn lit_u32(&mut self, v: u32) -> Handle<Expression> {
        self.emit(Expression::Literal(Literal::U32(v)))
    }

    pub fn lit_bool(&mut self, v: bool) -> Handle<Expression> {
        self.emit(Expression::Literal(Literal::Bool(v)))
    }

    /// A float value whose components are known (a def'd constant, a literal), as narrow as
    /// `v` (1–4 components).
    pub fn const_f32s(&mut self, v: &[f32]) -> Value {
        let n = v.len().clamp(1, 4) as u8;
        let first = v.first().copied().unwrap_or(0.0);
        if v.iter().all(|x| x.to_bits() == first.to_bits()) {
            let s = self.lit_f32(first);
            return self.splat(s, n);
        }
        let components = v.iter().map(|&x| self.lit_f32(x)).collect();
        let ty = self.value_type(0, n);
        let h = self.emit(Expression::Compose { ty, components });
        self.f.known.insert(h, v.to_vec());
        Value { h, n }
    }

    /// `v` as a float value of width `n` (a splat for vectors).
    pub fn float_n(&mut self, v: f32, n: u8) -> Value {
        let s = self.lit_f32(v);
        self.splat(s, n)
    }

    /// A bool value of width `n` from constants.
    pub fn const_bools(&mut self, v: &[bool]) -> Value {
        let n = v.len().clamp(1, 4) as u8;
        if n == 1 {
            let h = self.lit_bool(v.first().copied().unwrap_or(false));
            return Value { h, n };
        }
        let components = v.iter().map(|&x| self.lit_bool(x)).collect();
        let ty = self.value_type(2, n);
        let h = self.emit(Expression::Compose { ty, components });
        Value { h, n }
    }

    /// A scalar replicated to width `n` (the scalar itself for `n` = 1).
    pub fn splat(&mut self, s: Handle<Expression>, n: u8) -> Value {
        if n <= 1 {
            return Value { h: s, n: 1 };
        }
        let known = self.f.known.get(&s).and_then(|k| k.first().copied());
        let h = self.emit(Expression::Splat {
            size: vector_size(n),
            value: s,
        });
        if let Some(x) = known {
            self.f.known.insert(h, vec![x; usize::from(n)]);
        }
        self.finite_if(Value { h, n }, &[Value { h: s, n: 1 }])
    }

    /// `v[i]` of a vector value.
    pub fn comp(&mut self, v: Handle<Expression>, i: u32) -> Handle<Expression> {
        let known = self
            .f
            .known
            .get(&v)
            .and_then(|k| k.get(i as usize).copied());
        let h = self.emit(Expression::AccessIndex { base: v, index: i });
        if let Some(x) = known {
            self.f.known.insert(h, vec![x]);
        }
        self.finite_if(Value { h, n: 1 }, &[Value { h: v, n: 4 }]).h
    }

    /// Component `i` of a value (the value itself when it is a scalar).
    pub fn lane(&mut self, v: Value, i: u8) -> Handle<Expression> {
        if v.n <= 1 {
            v.h
        } else {
            self.comp(v.h, u32::from(i))
        }
    }

    /// The components `pattern` of a value of width `v.n`, as a value of width
    /// `pattern.len()`; no expression for the identity.
    pub fn pick(&mut self, v: Value, pattern: &[u8]) -> Value {
        let n = pattern.len() as u8;
        if v.n <= 1 {
            return self.splat(v.h, n);
        }
        if n == v.n
            && pattern
                .iter()
                .enumerate()
                .all(|(i, &c)| usize::from(c) == i)
        {
            return v;
        }
        if n == 1 {
            // `comp` carries finiteness over.
            let h = self.comp(v.h, u32::from(pattern.first().copied().unwrap_or(0)));
            return Value { h, n: 1 };
        }
        let mut pat = [naga::SwizzleComponent::X; 4];
        for (slot, &c) in pat.iter_mut().zip(pattern) {
            *slot = swizzle_component(c);
        }
        let known = self.f.known.get(&v.h).cloned();
        let h = self.emit(Expression::Swizzle {
            size: vector_size(n),
            vector: v.h,
            pattern: pat,
        });
        if let Some(k) = known {
            let picked: Option<Vec<f32>> = pattern
                .iter()
                .map(|&c| k.get(usize::from(c)).copied())
                .collect();
            if let Some(p) = picked {
                self.f.known.insert(h, p);
            }
        }
        self.finite_if(Value { h, n }, &[v])
    }

    /// A float value composed of scalars.
    pub fn compose(&mut self, parts: &[Handle<Expression>]) -> Value {
        match parts {
            [] => self.float_n(0.0, 1),
            [one] => Value { h: *one, n: 1 },
            _ => {
                let n = parts.len().min(4) as u8;
                let ty = self.value_type(0, n);
                let h = self.emit(Expression::Compose {
                    ty,
                    components: parts.to_vec(),
                });
                Value { h, n }
            }
        }
    }

    pub fn compose4(&mut self, c: [Handle<Expression>; 4]) -> Handle<Expression> {
        self.emit(Expression::Compose {
            ty: self.ty.vec4f,
            components: c.to_vec(),
        })
    }

    pub fn bin(
        &mut self,
        op: naga::BinaryOperator,
        left: Handle<Expression>,
        right: Handle<Expression>,
    ) -> Handle<Expression> {
        self.emit(Expression::Binary { op, left, right })
    }

    /// A binary operation on two values of the same width.
    pub fn bin_v(&mut self, op: naga::BinaryOperator, a: Value, b: Value) -> Value {
        Value {
            h: self.bin(op, a.h, b.h),
            n: a.n.max(b.n),
        }
    }

    pub fn neg(&mut self, v: Value) -> Value {
        let h = self.emit(Expression::Unary {
            op: naga::UnaryOperator::Negate,
            expr: v.h,
        });
        Value { h, n: v.n }
    }

    pub fn math1(
        &mut self,
        fun: naga::MathFunction,
        arg: Handle<Expression>,
    ) -> Handle<Expression> {
        self.emit(Expression::Math {
            fun,
            arg,
            arg1: None,
            arg2: None,
            arg3: None,
        })
    }

    /// A one-argument math function of a value (same width).
    pub fn math1_v(&mut self, fun: naga::MathFunction, v: Value) -> Value {
        Value {
            h: self.math1(fun, v.h),
            n: v.n,
        }
    }

    pub fn math2(
        &mut self,
        fun: naga::MathFunction,
        arg: Handle<Expression>,
        arg1: Handle<Expression>,
    ) -> Handle<Expression> {
        self.emit(Expression::Math {
            fun,
            arg,
            arg1: Some(arg1),
            arg2: None,
            arg3: None,
        })
    }

    pub fn math3(
        &mut self,
        fun: naga::MathFunction,
        arg: Handle<Expression>,
        arg1: Handle<Expression>,
        arg2: Handle<Expression>,
    ) -> Handle<Expression> {
        self.emit(Expression::Math {
            fun,
            arg,
            arg1: Some(arg1),
            arg2: Some(arg2),
            arg3: None,
        })
    }

    /// `select(reject, accept, condition)`.
    pub fn select(
        &mut self,
        condition: Handle<Expression>,
        accept: Handle<Expression>,
        reject: Handle<Expression>,
    ) -> Handle<Expression> {
        self.emit(Expression::Select {
            condition,
            accept,
            reject,
        })
    }

    /// `condition ? accept : reject` per component (all three of one width).
    pub fn select_v(&mut self, condition: Value, accept: Value, reject: Value) -> Value {
        Value {
            h: self.select(condition.h, accept.h, reject.h),
            n: accept.n.max(reject.n),
        }
    }
}
