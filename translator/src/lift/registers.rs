//! D3D9 registers as naga globals: r#, a0, aL and p0 as zero-initialised private variables
//! created on first use, v# and o# as private arrays with a spare element, c#/i#/b# as
//! uniform bindings with `def`s folded into literals. Reading applies relative addressing,
//! swizzles and source modifiers; writing applies `_sat`, the write mask and the predicate.
//!
//! Registers are module-level `var<private>` rather than function locals because subroutines
//! (`label`/`call`) become naga functions that share the register file with `main`.

use super::builder::Lifter;
use super::error::LiftError;
use super::interface::{
    BOOL_CONSTANTS_BINDING, FLOAT_CONSTANTS_BINDING, INT_CONSTANTS_BINDING, VS_CONSTANTS_GROUP,
};
use crate::bytecode::{
    DstParam, Register, RegisterFile, RelativeAddress, SrcModifier, SrcParam, WriteMask,
};
use crate::signature::Semantic;
use naga::{
    AddressSpace, ArraySize, BinaryOperator as Bo, Expression, GlobalVariable, Handle,
    MathFunction as Mf, ResourceBinding, ScalarKind, Span, TypeInner,
};
use std::num::NonZeroU32;

/// Input registers v#.
pub(super) const INPUT_REGISTERS: u32 = 16;
/// Output registers o# in vs_3_0.
pub(super) const OUTPUT_REGISTERS: u32 = 12;
/// Temporary registers r# (vs_3_0 has 32; fewer before, which the checker enforces).
pub(super) const TEMP_REGISTERS: u32 = 32;

/// Which global a register lives in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum RegKey {
    Temp(u32),
    Addr,
    Loop,
    Pred,
    /// The `v` array (16 inputs + a zero element for out-of-range relative reads).
    Inputs,
    /// The `o` array of vs_3_0 (12 outputs + an element that swallows out-of-range writes).
    Outputs,
    /// oPos/oFog/oPts, oD#, oT# before vs_3_0.
    Fixed(RegisterFile, u32),
    FloatConsts,
    IntConsts,
    BoolConsts,
    PositionFixup,
    Texture(u32),
    Sampler(u32),
}

/// The default value of an output semantic that is never written: COLOR0 = (1,1,1,1), other
/// COLOR = (0,0,0,1), FOG = 1, everything else 0.
pub(super) fn output_default(semantic: Semantic) -> [f32; 4] {
    use crate::bytecode::Usage;
    match semantic.usage {
        Usage::Color if semantic.index == 0 => [1.0; 4],
        Usage::Color => [0.0, 0.0, 0.0, 1.0],
        Usage::Fog => [1.0, 0.0, 0.0, 0.0],
        _ => [0.0; 4],
    }
}

impl Lifter<'_> {
    /// A private global initialised by `init` (a constant expression built by the caller).
    fn private_global(
        &mut self,
        key: RegKey,
        name: &str,
        ty: Handle<naga::Type>,
        init: Option<Handle<Expression>>,
    ) -> Handle<GlobalVariable> {
        if let Some(&g) = self.globals.get(&key) {
            return g;
        }
        let init = init.unwrap_or_else(|| {
            self.module
                .global_expressions
                .append(Expression::ZeroValue(ty), Span::UNDEFINED)
        });
        let g = self.module.global_variables.append(
            GlobalVariable {
                name: Some(name.to_string()),
                space: AddressSpace::Private,
                binding: None,
                ty,
                init: Some(init),
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            Span::UNDEFINED,
        );
        self.globals.insert(key, g);
        g
    }

    /// A resource global (`uniform`, `storage`, `handle`).
    pub(super) fn resource_global(
        &mut self,
        key: RegKey,
        name: &str,
        ty: Handle<naga::Type>,
        space: AddressSpace,
        group: u32,
        binding: u32,
    ) -> Handle<GlobalVariable> {
        if let Some(&g) = self.globals.get(&key) {
            return g;
        }
        let g = self.module.global_variables.append(
            GlobalVariable {
                name: Some(name.to_string()),
                space,
                binding: Some(ResourceBinding { group, binding }),
                ty,
                init: None,
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            Span::UNDEFINED,
        );
        self.globals.insert(key, g);
        g
    }

    /// A `vec4<f32>` array type of `n` elements.
    pub(super) fn vec4_array(&mut self, n: u32) -> Handle<naga::Type> {
        let base = self.ty.vec4f;
        self.array_of(base, n)
    }

    fn array_of(&mut self, base: Handle<naga::Type>, n: u32) -> Handle<naga::Type> {
        let size = NonZeroU32::new(n).map_or(ArraySize::Dynamic, ArraySize::Constant);
        self.type_of(TypeInner::Array {
            base,
            size,
            stride: 16,
        })
    }

    /// A constant `vec4<f32>` in the global expression arena.
    pub(super) fn global_vec4(&mut self, v: [f32; 4]) -> Handle<Expression> {
        let ge = &mut self.module.global_expressions;
        let components = v
            .iter()
            .map(|&x| ge.append(Expression::Literal(naga::Literal::F32(x)), Span::UNDEFINED))
            .collect();
        ge.append(
            Expression::Compose {
                ty: self.ty.vec4f,
                components,
            },
            Span::UNDEFINED,
        )
    }

    /// The `v` array global.
    pub(super) fn inputs_global(&mut self) -> Handle<GlobalVariable> {
        let ty = self.vec4_array(INPUT_REGISTERS + 1);
        self.private_global(RegKey::Inputs, "v", ty, None)
    }

    /// The `o` array global of vs_3_0, initialised to the defaults of the declared semantics.
    pub(super) fn outputs_global(&mut self) -> Handle<GlobalVariable> {
        if let Some(&g) = self.globals.get(&RegKey::Outputs) {
            return g;
        }
        let mut init = [[0.0f32; 4]; OUTPUT_REGISTERS as usize + 1];
        let sig = crate::signature::Signature::of(self.program);
        for out in sig
            .outputs
            .iter()
            .filter(|o| o.register.file == RegisterFile::Output)
        {
            let default = output_default(out.semantic);
            let Some(reg) = init.get_mut(out.register.index as usize) else {
                continue;
            };
            let mut j = 0;
            for (c, slot) in reg.iter_mut().enumerate() {
                if out.mask.contains(c) {
                    *slot = default[j.min(3)];
                    j += 1;
                }
            }
        }
        let components = init.iter().map(|&v| self.global_vec4(v)).collect();
        let ty = self.vec4_array(OUTPUT_REGISTERS + 1);
        let init = self
            .module
            .global_expressions
            .append(Expression::Compose { ty, components }, Span::UNDEFINED);
        self.private_global(RegKey::Outputs, "o", ty, Some(init))
    }

    /// The global of a fixed pre-3.0 output, initialised to its semantic's default.
    pub(super) fn fixed_output_global(
        &mut self,
        reg: Register,
    ) -> Result<Handle<GlobalVariable>, LiftError> {
        let key = RegKey::Fixed(reg.file, reg.index);
        if let Some(&g) = self.globals.get(&key) {
            return Ok(g);
        }
        let semantic = crate::signature::fixed_vs_output(reg).ok_or_else(|| {
            self.invalid(format!(
                "no output register {}{}",
                reg.file.prefix(),
                reg.index
            ))
        })?;
        let name = match (reg.file, reg.index) {
            (RegisterFile::RastOut, 0) => "oPos".to_string(),
            (RegisterFile::RastOut, 1) => "oFog".to_string(),
            (RegisterFile::RastOut, _) => "oPts".to_string(),
            (f, i) => format!("{}{}", f.prefix(), i),
        };
        let init = self.global_vec4(output_default(semantic));
        let ty = self.ty.vec4f;
        Ok(self.private_global(key, &name, ty, Some(init)))
    }

    /// The float constant buffer.
    pub(super) fn float_consts_global(&mut self) -> Handle<GlobalVariable> {
        let n = self.float_registers;
        let ty = self.vec4_array(n + 1);
        let space = if self.options.software_vertex_processing {
            AddressSpace::Storage {
                access: naga::StorageAccess::LOAD,
            }
        } else {
            AddressSpace::Uniform
        };
        self.resource_global(
            RegKey::FloatConsts,
            "c",
            ty,
            space,
            VS_CONSTANTS_GROUP,
            FLOAT_CONSTANTS_BINDING,
        )
    }

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
                let g = self.scalar_global(RegKey::Addr)?;
                let p = self.global(g);
                let v = self.load(p);
                self.emit(Expression::AccessIndex {
                    base: v,
                    index: u32::from(rel.component()),
                })
            }
            RegisterFile::Loop => {
                let g = self.scalar_global(RegKey::Loop)?;
                let p = self.global(g);
                self.load(p)
            }
            other => return Err(self.invalid(format!("relative address in {other}"))),
        };
        let base = i32::try_from(base).map_err(|_| self.invalid("register index out of range"))?;
        let k = self.lit_i32(base);
        let sum = self.bin(Bo::Add, addr, k);
        let unsigned = self.cast(sum, ScalarKind::Uint, None);
        let lim = self.lit_u32(limit);
        Ok(self.math2(Mf::Min, unsigned, lim))
    }

    /// a0 (`vec4<i32>`), aL (`i32`) or p0 (`vec4<bool>`).
    pub(super) fn scalar_global(
        &mut self,
        key: RegKey,
    ) -> Result<Handle<GlobalVariable>, LiftError> {
        let (name, ty) = match key {
            RegKey::Addr => ("a0", self.ty.vec4i),
            RegKey::Loop => ("aL", self.ty.i32),
            RegKey::Pred => ("p0", self.ty.vec4b),
            RegKey::Temp(n) => {
                let ty = self.ty.vec4f;
                return Ok(self.private_global(key, &format!("r{n}"), ty, None));
            }
            _ => return Err(self.invalid("not a register global")),
        };
        Ok(self.private_global(key, name, ty, None))
    }

    /// The pointer to a float register (r#, v#, c#, outputs), with its relative addressing.
    fn float_pointer(
        &mut self,
        reg: &Register,
        write: bool,
    ) -> Result<Handle<Expression>, LiftError> {
        let vs3 = self.program.version.major >= 3;
        match reg.file {
            RegisterFile::Temp if !write || reg.relative.is_none() => {
                if reg.index >= TEMP_REGISTERS {
                    return Err(self.invalid(format!("r{} does not exist", reg.index)));
                }
                let g = self.scalar_global(RegKey::Temp(reg.index))?;
                Ok(self.global(g))
            }
            RegisterFile::Input if !write => {
                if reg.index >= INPUT_REGISTERS {
                    return Err(self.invalid(format!("v{} does not exist", reg.index)));
                }
                let g = self.inputs_global();
                let base = self.global(g);
                self.indexed(base, reg, INPUT_REGISTERS)
            }
            RegisterFile::Const if !write => {
                if reg.index >= self.float_registers {
                    return Err(self.invalid(format!(
                        "c{} is past the {} float constants",
                        reg.index, self.float_registers
                    )));
                }
                let g = self.float_consts_global();
                let base = self.global(g);
                let n = self.float_registers;
                self.indexed(base, reg, n)
            }
            RegisterFile::Output if write && vs3 => {
                if reg.index >= OUTPUT_REGISTERS {
                    return Err(self.invalid(format!("o{} does not exist", reg.index)));
                }
                let g = self.outputs_global();
                let base = self.global(g);
                self.indexed(base, reg, OUTPUT_REGISTERS)
            }
            RegisterFile::RastOut | RegisterFile::AttrOut | RegisterFile::TexCrdOut
                if write && !vs3 && reg.relative.is_none() =>
            {
                let g = self.fixed_output_global(*reg)?;
                Ok(self.global(g))
            }
            other => Err(self.invalid(format!(
                "{} {}{} cannot be {}",
                other,
                other.prefix(),
                reg.index,
                if write { "written" } else { "read as a float" }
            ))),
        }
    }

    /// `base[index]` with constant or relative index into an array of `limit + 1` elements.
    fn indexed(
        &mut self,
        base: Handle<Expression>,
        reg: &Register,
        limit: u32,
    ) -> Result<Handle<Expression>, LiftError> {
        match reg.relative {
            None => Ok(self.emit(Expression::AccessIndex {
                base,
                index: reg.index,
            })),
            Some(rel) => {
                if rel.file == RegisterFile::Loop
                    && self.program.version.major < 3
                    && reg.file != RegisterFile::Const
                {
                    return Err(self.invalid("aL indexes v# and o# only in vs_3_0"));
                }
                let index = self.relative_index(&rel, reg.index, limit)?;
                Ok(self.emit(Expression::Access { base, index }))
            }
        }
    }

    /// Read a source operand as `vec4<f32>`: register, relative address, swizzle, modifier.
    pub(super) fn read(&mut self, src: &SrcParam) -> Result<Handle<Expression>, LiftError> {
        // A direct read of a def'd constant is a literal.
        if src.reg.file == RegisterFile::Const && src.reg.relative.is_none() {
            if let Some(bits) = self.defs.floats.get(&src.reg.index).copied() {
                let v = bits.map(f32::from_bits);
                let sw = src.swizzle.components().map(|c| v[c as usize]);
                if let Some(folded) = fold_modifier(sw, src.modifier) {
                    return Ok(self.const_vec4(folded));
                }
                let h = self.const_vec4(sw);
                return self.modify(h, src.modifier);
            }
        }
        if src.reg.file == RegisterFile::Const {
            if let Some(rel) = src.reg.relative {
                let _ = rel;
                self.relative_reads.push((src.reg.index, 1));
            }
        }
        let raw = match src.reg.file {
            RegisterFile::Addr => {
                let g = self.scalar_global(RegKey::Addr)?;
                let p = self.global(g);
                let v = self.load(p);
                self.cast(v, ScalarKind::Float, Some(4))
            }
            RegisterFile::Loop => {
                let g = self.scalar_global(RegKey::Loop)?;
                let p = self.global(g);
                let v = self.load(p);
                let f = self.cast(v, ScalarKind::Float, Some(4));
                self.splat(f)
            }
            _ => {
                let p = self.float_pointer(&src.reg, false)?;
                self.load(p)
            }
        };
        let sw = self.swizzle4(raw, src.swizzle.components());
        self.modify(sw, src.modifier)
    }

    /// Apply a source modifier to a `vec4<f32>`.
    fn modify(
        &mut self,
        v: Handle<Expression>,
        m: SrcModifier,
    ) -> Result<Handle<Expression>, LiftError> {
        use naga::UnaryOperator as Uo;
        Ok(match m {
            SrcModifier::None => v,
            SrcModifier::Neg => self.emit(Expression::Unary {
                op: Uo::Negate,
                expr: v,
            }),
            SrcModifier::Abs => self.math1(Mf::Abs, v),
            SrcModifier::AbsNeg => {
                let a = self.math1(Mf::Abs, v);
                self.emit(Expression::Unary {
                    op: Uo::Negate,
                    expr: a,
                })
            }
            SrcModifier::Bias | SrcModifier::BiasNeg => {
                let h = self.lit_f32(0.5);
                let h = self.splat(h);
                let b = self.bin(Bo::Subtract, v, h);
                if m == SrcModifier::BiasNeg {
                    self.emit(Expression::Unary {
                        op: Uo::Negate,
                        expr: b,
                    })
                } else {
                    b
                }
            }
            SrcModifier::Sign | SrcModifier::SignNeg => {
                let two = self.lit_f32(2.0);
                let two = self.splat(two);
                let one = self.lit_f32(1.0);
                let one = self.splat(one);
                let d = self.bin(Bo::Multiply, v, two);
                let s = self.bin(Bo::Subtract, d, one);
                if m == SrcModifier::SignNeg {
                    self.emit(Expression::Unary {
                        op: Uo::Negate,
                        expr: s,
                    })
                } else {
                    s
                }
            }
            SrcModifier::Comp => {
                let one = self.lit_f32(1.0);
                let one = self.splat(one);
                self.bin(Bo::Subtract, one, v)
            }
            SrcModifier::X2 | SrcModifier::X2Neg => {
                let d = self.bin(Bo::Add, v, v);
                if m == SrcModifier::X2Neg {
                    self.emit(Expression::Unary {
                        op: Uo::Negate,
                        expr: d,
                    })
                } else {
                    d
                }
            }
            SrcModifier::Dz | SrcModifier::Dw | SrcModifier::Not => {
                return Err(self.invalid(format!("source modifier {m:?} on a float operand")))
            }
        })
    }

    /// Read `i#n` as `vec4<i32>` (a literal when `defi`'d).
    pub(super) fn read_int(&mut self, reg: &Register) -> Result<Handle<Expression>, LiftError> {
        if reg.file != RegisterFile::ConstInt || reg.index >= self.int_registers {
            return Err(self.invalid(format!(
                "expected an integer constant i#, found {}{}",
                reg.file.prefix(),
                reg.index
            )));
        }
        if let Some(v) = self.defs.ints.get(&reg.index).copied() {
            let components = v.iter().map(|&x| self.lit_i32(x)).collect();
            return Ok(self.emit(Expression::Compose {
                ty: self.ty.vec4i,
                components,
            }));
        }
        let vec4i = self.ty.vec4i;
        let ty = self.array_of(vec4i, self.int_registers);
        let g = self.resource_global(
            RegKey::IntConsts,
            "i",
            ty,
            AddressSpace::Uniform,
            VS_CONSTANTS_GROUP,
            INT_CONSTANTS_BINDING,
        );
        let base = self.global(g);
        let p = self.emit(Expression::AccessIndex {
            base,
            index: reg.index,
        });
        Ok(self.load(p))
    }

    /// Read `b#n` as `bool` (a literal when `defb`'d), honouring a `!` modifier.
    pub(super) fn read_bool(&mut self, src: &SrcParam) -> Result<Handle<Expression>, LiftError> {
        let reg = src.reg;
        if reg.file != RegisterFile::ConstBool || reg.index >= self.bool_registers {
            return Err(self.invalid(format!(
                "expected a boolean constant b#, found {}{}",
                reg.file.prefix(),
                reg.index
            )));
        }
        let value = if let Some(v) = self.defs.bools.get(&reg.index).copied() {
            self.lit_bool(v)
        } else {
            // Hardware: one u32 mask. Software (2048 b#): `array<vec4<u32>, 16>`, word n / 32.
            let software = self.bool_registers > 32;
            let ty = if software {
                let vec4u = self.type_of(TypeInner::Vector {
                    size: naga::VectorSize::Quad,
                    scalar: naga::Scalar::U32,
                });
                self.array_of(vec4u, self.bool_registers / 128)
            } else {
                self.ty.u32
            };
            let g = self.resource_global(
                RegKey::BoolConsts,
                "b",
                ty,
                AddressSpace::Uniform,
                VS_CONSTANTS_GROUP,
                BOOL_CONSTANTS_BINDING,
            );
            let mut p = self.global(g);
            if software {
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
            SrcModifier::None => value,
            SrcModifier::Not => self.emit(Expression::Unary {
                op: naga::UnaryOperator::LogicalNot,
                expr: value,
            }),
            m => return Err(self.invalid(format!("source modifier {m:?} on a boolean"))),
        })
    }

    /// Read p0 as `vec4<bool>` after its swizzle and `!`.
    pub(super) fn read_predicate(
        &mut self,
        src: &SrcParam,
    ) -> Result<Handle<Expression>, LiftError> {
        if src.reg.file != RegisterFile::Predicate || src.reg.index != 0 {
            return Err(self.invalid(format!(
                "expected p0, found {}{}",
                src.reg.file.prefix(),
                src.reg.index
            )));
        }
        let g = self.scalar_global(RegKey::Pred)?;
        let p = self.global(g);
        let v = self.load(p);
        let pattern = src.swizzle.components();
        let v = if pattern == [0, 1, 2, 3] {
            v
        } else {
            let comp = |c: u8| match c & 3 {
                0 => naga::SwizzleComponent::X,
                1 => naga::SwizzleComponent::Y,
                2 => naga::SwizzleComponent::Z,
                _ => naga::SwizzleComponent::W,
            };
            self.emit(Expression::Swizzle {
                size: naga::VectorSize::Quad,
                vector: v,
                pattern: pattern.map(comp),
            })
        };
        Ok(match src.modifier {
            SrcModifier::None => v,
            SrcModifier::Not => self.emit(Expression::Unary {
                op: naga::UnaryOperator::LogicalNot,
                expr: v,
            }),
            m => return Err(self.invalid(format!("source modifier {m:?} on p0"))),
        })
    }

    /// Write a `vec4<f32>` result: `_sat`, then the write mask and the predicate. Writes to a0
    /// convert to integers (vs_1_1 `mov a0` floors; vs_2_0+ rounds to nearest).
    pub(super) fn write(
        &mut self,
        dst: &DstParam,
        value: Handle<Expression>,
        pred: Option<&SrcParam>,
    ) -> Result<(), LiftError> {
        if dst.shift != 0 {
            return Err(self.invalid("result shift modifiers exist only in pixel shaders"));
        }
        let mut value = value;
        if dst.modifier.saturate() {
            value = self.math1(Mf::Saturate, value);
        }
        match dst.reg.file {
            RegisterFile::Addr => {
                if dst.reg.index != 0 || dst.reg.relative.is_some() {
                    return Err(self.invalid("a0 is the only address register"));
                }
                let rounded = if self.program.version.major < 2 {
                    self.math1(Mf::Floor, value)
                } else {
                    let half = self.lit_f32(0.5);
                    let half = self.splat(half);
                    let s = self.bin(Bo::Add, value, half);
                    self.math1(Mf::Floor, s)
                };
                // Keep the conversion defined for huge values: a0 only indexes clamped arrays.
                let lo = self.lit_f32(-65536.0);
                let lo = self.splat(lo);
                let hi = self.lit_f32(65536.0);
                let hi = self.splat(hi);
                let clamped = self.math3(Mf::Clamp, rounded, lo, hi);
                let int = self.cast(clamped, ScalarKind::Sint, Some(4));
                let g = self.scalar_global(RegKey::Addr)?;
                let p = self.global(g);
                self.store_masked(p, int, dst.mask, pred)
            }
            RegisterFile::Predicate => Err(self.invalid("p0 is written only by setp")),
            _ => {
                if dst.reg.relative.is_some() && dst.reg.file != RegisterFile::Output {
                    return Err(self.invalid("relative addressing of a destination other than o#"));
                }
                let p = self.float_pointer(&dst.reg, true)?;
                self.store_masked(p, value, dst.mask, pred)
            }
        }
    }

    /// Write a `vec4<bool>` to p0 (setp).
    pub(super) fn write_predicate(
        &mut self,
        dst: &DstParam,
        value: Handle<Expression>,
        pred: Option<&SrcParam>,
    ) -> Result<(), LiftError> {
        if dst.reg.file != RegisterFile::Predicate || dst.reg.index != 0 {
            return Err(self.invalid("setp writes p0 only"));
        }
        let g = self.scalar_global(RegKey::Pred)?;
        let p = self.global(g);
        self.store_masked(p, value, dst.mask, pred)
    }

    /// Store `value` into the components of `pointer` selected by `mask` and the predicate.
    fn store_masked(
        &mut self,
        pointer: Handle<Expression>,
        value: Handle<Expression>,
        mask: WriteMask,
        pred: Option<&SrcParam>,
    ) -> Result<(), LiftError> {
        let full = mask.0 & 0xF == 0xF;
        if mask.0 & 0xF == 0 {
            return Ok(());
        }
        if full && pred.is_none() {
            self.store(pointer, value);
            return Ok(());
        }
        let mut cond = None;
        if !full {
            cond = Some(self.const_bvec4([0, 1, 2, 3].map(|c| mask.contains(c))));
        }
        if let Some(p) = pred {
            let pv = self.read_predicate(p)?;
            cond = Some(match cond {
                None => pv,
                Some(m) => self.bin(Bo::And, m, pv),
            });
        }
        let old = self.load(pointer);
        let new = match cond {
            Some(c) => self.select(c, value, old),
            None => value,
        };
        self.store(pointer, new);
        Ok(())
    }
}

/// Fold a source modifier over known values; `None` when it has no constant meaning here.
fn fold_modifier(v: [f32; 4], m: SrcModifier) -> Option<[f32; 4]> {
    Some(match m {
        SrcModifier::None => v,
        SrcModifier::Neg => v.map(|x| -x),
        SrcModifier::Abs => v.map(f32::abs),
        SrcModifier::AbsNeg => v.map(|x| -x.abs()),
        _ => return None,
    })
}
