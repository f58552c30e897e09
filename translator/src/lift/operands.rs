//! Reading source operands, narrow: a source is read at the lanes its instruction computes
//! (the destination's write mask), so `add r0.x, r1, c2` reads `r1.x` and `c2.x` only.
//! Relative addressing clamps into the spare element of each array; a direct read of a
//! `def`'d constant is a literal; source modifiers apply at the same width.

use super::builder::{Lanes, Lifter, Value};
use super::error::LiftError;
use super::function::Loaded;
use super::state::RegKey;
use crate::bytecode::{Register, RegisterFile, RelativeAddress, SrcModifier, SrcParam};
use naga::{BinaryOperator as Bo, Expression, Handle, MathFunction as Mf, ScalarKind};

impl Lifter<'_> {
    /// An index expression `min(u32(addr + base), limit)`: negative or too-large addresses hit
    /// element `limit`, the spare element of the array.
    fn relative_index(
        &mut self,
        rel: &RelativeAddress,
        base: u32,
        limit: u32,
    ) -> Result<Handle<Expression>, LiftError> {
        let addr = match rel.file {
            RegisterFile::Addr => {
                let p = self.register_pointer(RegKey::Addr);
                let v = self.load_register(Loaded::Addr, p);
                self.comp(v, u32::from(rel.component()))
            }
            RegisterFile::Loop => {
                let p = self.register_pointer(RegKey::Loop);
                self.load_register(Loaded::Loop, p)
            }
            other => return Err(self.internal(format!("relative address in {other}"))),
        };
        let base = i32::try_from(base).map_err(|_| self.internal("register index too large"))?;
        let sum = if base == 0 {
            addr
        } else {
            let k = self.lit_i32(base);
            self.bin(Bo::Add, addr, k)
        };
        let unsigned = self.cast(sum, ScalarKind::Uint, None);
        let lim = self.lit_u32(limit);
        Ok(self.math2(Mf::Min, unsigned, lim))
    }

    /// The pointer to a float register (r#, v#, c#, outputs), with its relative addressing.
    pub(super) fn float_pointer(
        &mut self,
        reg: &Register,
        write: bool,
    ) -> Result<Handle<Expression>, LiftError> {
        let vs3 = self.program.version.major >= 3;
        match reg.file {
            RegisterFile::Temp => Ok(self.register_pointer(RegKey::Temp(reg.index))),
            RegisterFile::Input if !write && reg.relative.is_none() => {
                Ok(self.input_pointer(reg.index))
            }
            RegisterFile::Input if !write => {
                let g = self.inputs_global();
                let base = self.global(g);
                let n = self.registers.input_registers;
                self.indexed(base, reg, n)
            }
            RegisterFile::Const
            | RegisterFile::Const2
            | RegisterFile::Const3
            | RegisterFile::Const4
                if !write =>
            {
                // c2048+ are the CONST2–CONST4 files: one buffer, by flat index.
                let flat = Register {
                    index: reg.float_constant_index().unwrap_or(reg.index),
                    ..*reg
                };
                let g = self.float_consts_global();
                let base = self.global(g);
                let n = self.registers.float_registers;
                // Every access of the `c#` buffer is made here: what it reads, for the
                // interface (`float_constants_read`).
                match flat.relative {
                    Some(_) => self.registers.float_read_relative = true,
                    None => {
                        let end = flat.index.min(n) + 1;
                        self.registers.float_read_end = self.registers.float_read_end.max(end);
                    }
                }
                if self.constants_window().is_none() {
                    return self.indexed(base, &flat, n);
                }
                // The window: c#i at `c_base + i`.
                let index = match flat.relative {
                    None => self.lit_u32(flat.index.min(n)),
                    Some(rel) => self.relative_index(&rel, flat.index, n)?,
                };
                let g = self.constants_base_global();
                let p = self.global(g);
                let at = self.load(p);
                let index = self.bin(Bo::Add, at, index);
                Ok(self.emit(Expression::Access { base, index }))
            }
            RegisterFile::Output if write && vs3 && reg.relative.is_none() => {
                Ok(self.output_pointer(reg.index))
            }
            RegisterFile::Output if write && vs3 => {
                let g = self.outputs_global();
                let base = self.global(g);
                let n = self.registers.output_registers;
                self.indexed(base, reg, n)
            }
            // Pixel shaders: ps_2_x texture coordinates, vPos/vFace, colour and depth outputs.
            RegisterFile::Texture | RegisterFile::MiscType if !write => {
                Ok(self.pixel_register_pointer(reg.file, reg.index))
            }
            // ps_1_x texture-addressing instructions write t#.
            RegisterFile::Texture if self.is_ps1() => {
                Ok(self.pixel_register_pointer(reg.file, reg.index))
            }
            RegisterFile::ColorOut | RegisterFile::DepthOut if write => {
                Ok(self.pixel_register_pointer(reg.file, reg.index))
            }
            RegisterFile::RastOut | RegisterFile::AttrOut | RegisterFile::TexCrdOut if write => {
                let g = self.fixed_output_global(*reg)?;
                Ok(self.global(g))
            }
            other => Err(self.internal(format!(
                "{other} {}{} cannot be {}",
                other.prefix(),
                reg.index,
                if write { "written" } else { "read as a float" }
            ))),
        }
    }

    /// The `vec4` value of a float register, remembered where `loads` allows.
    fn load_float_register(&mut self, reg: &Register) -> Result<Handle<Expression>, LiftError> {
        let key = match (reg.file, reg.relative) {
            (RegisterFile::Temp, _) => Some(Loaded::Temp(reg.index)),
            (RegisterFile::Input, None) => Some(Loaded::Input(reg.index)),
            (RegisterFile::Texture, None) => Some(Loaded::Texture(reg.index)),
            (RegisterFile::MiscType, None) => Some(Loaded::Misc(reg.index)),
            (_, None) => reg.float_constant_index().map(Loaded::Const),
            _ => None,
        };
        if let Some(&(h, _)) = key.and_then(|k| self.f.loads.get(&k)) {
            return Ok(h);
        }
        if reg.relative.is_none() {
            if let Some(&h) = self.io.input_values.get(&(reg.file, reg.index)) {
                return Ok(h);
            }
        }
        let p = self.float_pointer(reg, false)?;
        Ok(match key {
            Some(k) => self.load_register(k, p),
            None => self.load(p),
        })
    }

    /// `base[index]` with a constant or relative index into an array of `limit + 1` elements.
    /// A direct index past the end (a register the device mode does not have) reads the spare
    /// element too.
    fn indexed(
        &mut self,
        base: Handle<Expression>,
        reg: &Register,
        limit: u32,
    ) -> Result<Handle<Expression>, LiftError> {
        match reg.relative {
            None => Ok(self.emit(Expression::AccessIndex {
                base,
                index: reg.index.min(limit),
            })),
            Some(rel) => {
                let index = self.relative_index(&rel, reg.index, limit)?;
                Ok(self.emit(Expression::Access { base, index }))
            }
        }
    }

    /// Read a source operand at `lanes`: lane j of the result is the source's swizzled
    /// component for destination component `lanes[j]`, after the source modifier.
    pub(super) fn read(&mut self, src: &SrcParam, lanes: Lanes) -> Result<Value, LiftError> {
        let mut pattern = [0u8; 4];
        for (slot, &c) in pattern.iter_mut().zip(lanes.as_slice()) {
            *slot = src.swizzle.get(usize::from(c));
        }
        let pattern = &pattern[..usize::from(lanes.len())];
        // A direct read of a def'd constant is a literal.
        let flat = src.reg.float_constant_index();
        if let (Some(n), None) = (flat, src.reg.relative) {
            if let Some(bits) = self.registers.defs.floats.get(&n).copied() {
                let ps1 = self.is_ps1();
                let v: Vec<f32> = pattern
                    .iter()
                    .map(|&c| f32::from_bits(bits[usize::from(c)]))
                    // ps_1_x reads constants within [-1, 1] (see `ps1_constant`).
                    .map(|x| if ps1 { x.clamp(-1.0, 1.0) } else { x })
                    .collect();
                if let Some(folded) = fold_modifier(&v, src.modifier) {
                    return Ok(self.const_f32s(&folded));
                }
                let h = self.const_f32s(&v);
                return self.modify(h, src.modifier);
            }
        }
        if let (Some(n), Some(_)) = (flat, src.reg.relative) {
            self.registers.relative_reads.push((n, 1));
        }
        let raw = match src.reg.file {
            RegisterFile::Addr => {
                let p = self.register_pointer(RegKey::Addr);
                let v = self.load_register(Loaded::Addr, p);
                let picked = self.pick(Value { h: v, n: 4 }, pattern);
                let h = self.cast(picked.h, ScalarKind::Float, Some(4));
                self.mark_finite(Value { h, n: picked.n })
            }
            RegisterFile::Loop => {
                let p = self.register_pointer(RegKey::Loop);
                let v = self.load_register(Loaded::Loop, p);
                let f = self.cast(v, ScalarKind::Float, Some(4));
                let s = self.splat(f, lanes.len());
                self.mark_finite(s)
            }
            _ => {
                let v = self.load_float_register(&src.reg)?;
                let picked = self.pick(Value { h: v, n: 4 }, pattern);
                let finite = match (src.reg.file, src.reg.relative) {
                    (RegisterFile::Temp, _) => self.temp_is_finite(src.reg.index, pattern),
                    (RegisterFile::Input, None) => {
                        self.registers.finite_inputs.contains(&src.reg.index)
                    }
                    _ => false,
                };
                if finite {
                    self.mark_finite(picked);
                }
                if flat.is_some() && self.is_ps1() {
                    self.ps1_constant(picked)
                } else {
                    picked
                }
            }
        };
        self.modify(raw, src.modifier)
    }

    /// Apply a source modifier to a float value.
    fn modify(&mut self, v: Value, m: SrcModifier) -> Result<Value, LiftError> {
        let r = self.apply_modifier(v, m)?;
        // Negation, |x|, x - 0.5 and 1 - x keep a finite value finite (x2 and 2x - 1 may
        // overflow).
        if !matches!(
            m,
            SrcModifier::Sign | SrcModifier::SignNeg | SrcModifier::X2 | SrcModifier::X2Neg
        ) {
            self.finite_if(r, &[v]);
        }
        Ok(r)
    }

    fn apply_modifier(&mut self, v: Value, m: SrcModifier) -> Result<Value, LiftError> {
        Ok(match m {
            SrcModifier::None => v,
            SrcModifier::Neg => self.neg(v),
            SrcModifier::Abs => self.math1_v(Mf::Abs, v),
            SrcModifier::AbsNeg => {
                let a = self.math1_v(Mf::Abs, v);
                self.neg(a)
            }
            SrcModifier::Bias | SrcModifier::BiasNeg => {
                let h = self.float_n(0.5, v.n);
                let b = self.bin_v(Bo::Subtract, v, h);
                if m == SrcModifier::BiasNeg {
                    self.neg(b)
                } else {
                    b
                }
            }
            SrcModifier::Sign | SrcModifier::SignNeg => {
                let two = self.float_n(2.0, v.n);
                let one = self.float_n(1.0, v.n);
                let d = self.bin_v(Bo::Multiply, v, two);
                let s = self.bin_v(Bo::Subtract, d, one);
                if m == SrcModifier::SignNeg {
                    self.neg(s)
                } else {
                    s
                }
            }
            SrcModifier::Comp => {
                let one = self.float_n(1.0, v.n);
                self.bin_v(Bo::Subtract, one, v)
            }
            SrcModifier::X2 | SrcModifier::X2Neg => {
                let d = self.bin_v(Bo::Add, v, v);
                if m == SrcModifier::X2Neg {
                    self.neg(d)
                } else {
                    d
                }
            }
            SrcModifier::Dz | SrcModifier::Dw | SrcModifier::Not => {
                return Err(self.internal(format!("source modifier {m:?} on a float operand")))
            }
        })
    }

    /// Read `i#n` as `vec4<i32>` (a literal when `defi`'d).
    pub(super) fn read_int(&mut self, reg: &Register) -> Result<Handle<Expression>, LiftError> {
        if reg.file != RegisterFile::ConstInt {
            return Err(self.internal("expected an integer constant i#"));
        }
        if let Some(v) = self.registers.defs.ints.get(&reg.index).copied() {
            let components = v.iter().map(|&x| self.lit_i32(x)).collect();
            return Ok(self.emit(Expression::Compose {
                ty: self.ty.vec4i,
                components,
            }));
        }
        let g = self.int_consts_global();
        let base = self.global(g);
        let p = self.emit(Expression::AccessIndex {
            base,
            index: reg
                .index
                .min(self.registers.int_registers.saturating_sub(1)),
        });
        Ok(self.load(p))
    }

    /// Read `b#n` as `bool` (a literal when `defb`'d), honouring a `!` modifier.
    pub(super) fn read_bool(&mut self, src: &SrcParam) -> Result<Handle<Expression>, LiftError> {
        let reg = src.reg;
        if reg.file != RegisterFile::ConstBool {
            return Err(self.internal("expected a boolean constant b#"));
        }
        let value = if let Some(v) = self.registers.defs.bools.get(&reg.index).copied() {
            self.lit_bool(v)
        } else if reg.index >= self.registers.bool_registers {
            self.lit_bool(false)
        } else {
            let g = self.bool_consts_global();
            let mut p = self.global(g);
            if self.registers.software {
                // b#n is bit n % 32 of word n / 32; word w = element w / 4, component w % 4.
                let word = reg.index / 32;
                p = self.emit(Expression::AccessIndex {
                    base: p,
                    index: word / 4,
                });
                p = self.emit(Expression::AccessIndex {
                    base: p,
                    index: word % 4,
                });
            }
            let bits = self.load(p);
            let bit = self.lit_u32(1 << (reg.index % 32));
            let and = self.bin(Bo::And, bits, bit);
            let zero = self.lit_u32(0);
            self.bin(Bo::NotEqual, and, zero)
        };
        Ok(match src.modifier {
            SrcModifier::Not => self.emit(Expression::Unary {
                op: naga::UnaryOperator::LogicalNot,
                expr: value,
            }),
            _ => value,
        })
    }

    /// Read p0 at `lanes` (a bool value of that width) after its swizzle and `!`.
    pub(super) fn read_predicate(
        &mut self,
        src: &SrcParam,
        lanes: Lanes,
    ) -> Result<Value, LiftError> {
        if src.reg.file != RegisterFile::Predicate {
            return Err(self.internal("expected p0"));
        }
        let p = self.register_pointer(RegKey::Pred);
        let v = self.load_register(Loaded::Pred, p);
        let mut pattern = [0u8; 4];
        for (slot, &c) in pattern.iter_mut().zip(lanes.as_slice()) {
            *slot = src.swizzle.get(usize::from(c));
        }
        let v = self.pick(Value { h: v, n: 4 }, &pattern[..usize::from(lanes.len())]);
        Ok(match src.modifier {
            SrcModifier::Not => Value {
                h: self.emit(Expression::Unary {
                    op: naga::UnaryOperator::LogicalNot,
                    expr: v.h,
                }),
                n: v.n,
            },
            _ => v,
        })
    }
}

/// Fold a source modifier over known values; `None` when it has no constant meaning here.
fn fold_modifier(v: &[f32], m: SrcModifier) -> Option<Vec<f32>> {
    Some(match m {
        SrcModifier::None => v.to_vec(),
        SrcModifier::Neg => v.iter().map(|x| -x).collect(),
        SrcModifier::Abs => v.iter().map(|x| x.abs()).collect(),
        SrcModifier::AbsNeg => v.iter().map(|x| -x.abs()).collect(),
        _ => return None,
    })
}
