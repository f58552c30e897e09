//! Per-opcode lowering of the arithmetic instructions, following the SDK pseudo-code.

use super::builder::Lifter;
use super::error::LiftError;
use crate::bytecode::{Comparison, Control, DstParam, Instruction, Opcode, Register, SrcParam};
use naga::{BinaryOperator as Bo, Expression, Handle, MathFunction as Mf};

impl Lifter<'_> {
    /// Lower one instruction (arithmetic here; flow control and texldl elsewhere).
    pub(super) fn instruction(&mut self, inst: &Instruction) -> Result<(), LiftError> {
        use Opcode as O;
        if inst.coissue {
            return Err(self.invalid("co-issue exists only in ps_1_x"));
        }
        if inst.opcode.is_flow_control() {
            if inst.predicate.is_some() {
                return Err(self.unsupported("predicated flow-control instruction"));
            }
            return self.flow(inst);
        }
        match inst.opcode {
            O::Nop | O::Dcl | O::Def | O::Defi | O::Defb => Ok(()),
            O::TexLdl => self.texldl(inst),
            O::Mov | O::Mova => {
                let a = self.src(inst, 0)?;
                self.result(inst, a)
            }
            O::Add | O::Sub => {
                let (a, b) = (self.src(inst, 0)?, self.src(inst, 1)?);
                let op = if inst.opcode == O::Add {
                    Bo::Add
                } else {
                    Bo::Subtract
                };
                let r = self.bin(op, a, b);
                self.result(inst, r)
            }
            O::Mul => {
                let (a, b) = (self.src(inst, 0)?, self.src(inst, 1)?);
                let r = self.mul_d3d9(a, b);
                self.result(inst, r)
            }
            O::Mad => {
                let (a, b, c) = (self.src(inst, 0)?, self.src(inst, 1)?, self.src(inst, 2)?);
                let m = self.mul_d3d9(a, b);
                let r = self.bin(Bo::Add, m, c);
                self.result(inst, r)
            }
            O::Lrp => {
                // dest = src0 * (src1 - src2) + src2
                let (a, b, c) = (self.src(inst, 0)?, self.src(inst, 1)?, self.src(inst, 2)?);
                let d = self.bin(Bo::Subtract, b, c);
                let m = self.bin(Bo::Multiply, a, d);
                let r = self.bin(Bo::Add, m, c);
                self.result(inst, r)
            }
            O::Dp3 | O::Dp4 => {
                let (a, b) = (self.src(inst, 0)?, self.src(inst, 1)?);
                let n = if inst.opcode == O::Dp3 { 3 } else { 4 };
                let d = self.dot_d3d9(a, b, n);
                let r = self.splat(d);
                self.result(inst, r)
            }
            O::Min | O::Max => {
                // min: src0 < src1 ? src0 : src1; max: src0 >= src1 ? src0 : src1.
                let (a, b) = (self.src(inst, 0)?, self.src(inst, 1)?);
                let op = if inst.opcode == O::Min {
                    Bo::Less
                } else {
                    Bo::GreaterEqual
                };
                let c = self.bin(op, a, b);
                let r = self.select(c, a, b);
                self.result(inst, r)
            }
            O::Slt | O::Sge => {
                let (a, b) = (self.src(inst, 0)?, self.src(inst, 1)?);
                let op = if inst.opcode == O::Slt {
                    Bo::Less
                } else {
                    Bo::GreaterEqual
                };
                let c = self.bin(op, a, b);
                let one = self.const_vec4([1.0; 4]);
                let zero = self.const_vec4([0.0; 4]);
                let r = self.select(c, one, zero);
                self.result(inst, r)
            }
            O::Rcp | O::Rsq | O::Exp | O::Log | O::Logp => {
                let x = self.scalar_src(inst, 0)?;
                let s = match inst.opcode {
                    O::Rcp => self.rcp_d3d9(x),
                    O::Rsq => self.rsq_d3d9(x),
                    O::Exp => self.exp_d3d9(x),
                    // logp is log at full precision (as Wine and DXVK do).
                    _ => self.log_d3d9(x),
                };
                let r = self.splat(s);
                self.result(inst, r)
            }
            O::Expp => {
                let x = self.scalar_src(inst, 0)?;
                let r = if self.program.version.major < 2 {
                    // vs_1_1: (2^floor(x), x - floor(x), 2^x, 1)
                    let fl = self.math1(Mf::Floor, x);
                    let a = self.exp_d3d9(fl);
                    let b = self.bin(Bo::Subtract, x, fl);
                    let c = self.exp_d3d9(x);
                    let one = self.lit_f32(1.0);
                    self.compose4([a, b, c, one])
                } else {
                    let e = self.exp_d3d9(x);
                    self.splat(e)
                };
                self.result(inst, r)
            }
            O::Frc => {
                let a = self.src(inst, 0)?;
                let f = self.math1(Mf::Floor, a);
                let r = self.bin(Bo::Subtract, a, f);
                self.result(inst, r)
            }
            O::Abs => {
                let a = self.src(inst, 0)?;
                let r = self.math1(Mf::Abs, a);
                self.result(inst, r)
            }
            O::Sgn => {
                // SDK: -1 if x < 0, else 0 if x == 0, else 1 (so NaN gives 1; WGSL's
                // sign(NaN) is unspecified and lavapipe returns 0).
                let a = self.src(inst, 0)?;
                let zero = self.const_vec4([0.0; 4]);
                let one = self.const_vec4([1.0; 4]);
                let minus_one = self.const_vec4([-1.0; 4]);
                let is_zero = self.bin(Bo::Equal, a, zero);
                let non_negative = self.select(is_zero, zero, one);
                let negative = self.bin(Bo::Less, a, zero);
                let r = self.select(negative, minus_one, non_negative);
                self.result(inst, r)
            }
            O::Pow => {
                let a = self.scalar_src(inst, 0)?;
                let b = self.scalar_src(inst, 1)?;
                let p = self.pow_d3d9(a, b);
                let r = self.splat(p);
                self.result(inst, r)
            }
            O::Lit => self.lit(inst),
            O::Dst => {
                // dest = (1, src0.y * src1.y, src0.z, src1.w)
                let (a, b) = (self.src(inst, 0)?, self.src(inst, 1)?);
                let one = self.lit_f32(1.0);
                let ay = self.comp(a, 1);
                let by = self.comp(b, 1);
                let y = self.mul_d3d9(ay, by);
                let z = self.comp(a, 2);
                let w = self.comp(b, 3);
                let r = self.compose4([one, y, z, w]);
                self.result(inst, r)
            }
            O::Crs => {
                let (a, b) = (self.src(inst, 0)?, self.src(inst, 1)?);
                let a3 = self.truncate(a, 3);
                let b3 = self.truncate(b, 3);
                let c = self.math2(Mf::Cross, a3, b3);
                let x = self.comp(c, 0);
                let y = self.comp(c, 1);
                let z = self.comp(c, 2);
                let w = self.lit_f32(0.0);
                let r = self.compose4([x, y, z, w]);
                self.result(inst, r)
            }
            O::Nrm => {
                // dest = src * rsq(dp3(src, src))
                let a = self.src(inst, 0)?;
                let d = self.dot_d3d9(a, a, 3);
                let q = self.rsq_d3d9(d);
                let q = self.splat(q);
                let r = self.mul_d3d9(a, q);
                self.result(inst, r)
            }
            O::SinCos => {
                // dest.x = cos(src), dest.y = sin(src); z and w untouched.
                let x = self.scalar_src(inst, 0)?;
                let c = self.math1(Mf::Cos, x);
                let s = self.math1(Mf::Sin, x);
                let zero = self.lit_f32(0.0);
                let r = self.compose4([c, s, zero, zero]);
                self.result(inst, r)
            }
            O::M4x4 | O::M4x3 | O::M3x4 | O::M3x3 | O::M3x2 => self.matrix(inst),
            O::Setp => {
                let (a, b) = (self.src(inst, 0)?, self.src(inst, 1)?);
                let Control::Comparison(cmp) = inst.control else {
                    return Err(self.invalid("setp without a comparison"));
                };
                let c = self.compare(cmp, a, b);
                let dst = self.dst(inst)?;
                self.write_predicate(&dst, c, inst.predicate.as_ref())
            }
            other => Err(self.invalid(format!("{other} is not a vertex shader instruction"))),
        }
    }

    /// The destination parameter.
    pub(super) fn dst(&self, inst: &Instruction) -> Result<DstParam, LiftError> {
        inst.dst.ok_or_else(|| self.invalid("missing destination"))
    }

    /// Source `i`, read as `vec4<f32>`.
    pub(super) fn src(
        &mut self,
        inst: &Instruction,
        i: usize,
    ) -> Result<Handle<Expression>, LiftError> {
        let s = *inst
            .src
            .get(i)
            .ok_or_else(|| self.invalid(format!("missing source {i}")))?;
        self.read(&s)
    }

    /// The source parameter `i`.
    pub(super) fn src_param(&self, inst: &Instruction, i: usize) -> Result<SrcParam, LiftError> {
        inst.src
            .get(i)
            .copied()
            .ok_or_else(|| self.invalid(format!("missing source {i}")))
    }

    /// A scalar source: the replicated component (`.w` of the swizzled value, which is also
    /// what vs_1_1 uses when no swizzle is given).
    pub(super) fn scalar_src(
        &mut self,
        inst: &Instruction,
        i: usize,
    ) -> Result<Handle<Expression>, LiftError> {
        let v = self.src(inst, i)?;
        Ok(self.comp(v, 3))
    }

    /// Write `value` to the destination with the instruction's predicate.
    fn result(&mut self, inst: &Instruction, value: Handle<Expression>) -> Result<(), LiftError> {
        let dst = self.dst(inst)?;
        self.write(&dst, value, inst.predicate.as_ref())
    }

    /// A component-wise comparison (`vec4<bool>` for vectors, `bool` for scalars).
    pub(super) fn compare(
        &mut self,
        cmp: Comparison,
        a: Handle<Expression>,
        b: Handle<Expression>,
    ) -> Handle<Expression> {
        let op = match cmp {
            Comparison::Gt => Bo::Greater,
            Comparison::Eq => Bo::Equal,
            Comparison::Ge => Bo::GreaterEqual,
            Comparison::Lt => Bo::Less,
            Comparison::Ne => Bo::NotEqual,
            Comparison::Le => Bo::LessEqual,
        };
        self.bin(op, a, b)
    }

    /// `lit`, as the SDK states it:
    /// x = 1, w = 1; y = src.x if src.x > 0 else 0;
    /// z = pow(src.y, clamp(src.w, ±127.9961)) if src.x > 0 and src.y > 0 else 0.
    fn lit(&mut self, inst: &Instruction) -> Result<(), LiftError> {
        let a = self.src(inst, 0)?;
        let x = self.comp(a, 0);
        let y = self.comp(a, 1);
        let w = self.comp(a, 3);
        let zero = self.lit_f32(0.0);
        let one = self.lit_f32(1.0);
        let x_pos = self.bin(Bo::Greater, x, zero);
        let y_pos = self.bin(Bo::Greater, y, zero);
        let ry = self.select(x_pos, x, zero);
        let lo = self.lit_f32(-127.9961);
        let hi = self.lit_f32(127.9961);
        let power = self.math3(Mf::Clamp, w, lo, hi);
        let p = self.pow_d3d9(y, power);
        let both = self.bin(Bo::LogicalAnd, x_pos, y_pos);
        let rz = self.select(both, p, zero);
        let r = self.compose4([one, ry, rz, one]);
        self.result(inst, r)
    }

    /// m4x4, m4x3, m3x4, m3x3, m3x2: row k is register `src1 + k`, dotted with src0.
    fn matrix(&mut self, inst: &Instruction) -> Result<(), LiftError> {
        let (n, rows) = match inst.opcode {
            Opcode::M4x4 => (4, 4),
            Opcode::M4x3 => (4, 3),
            Opcode::M3x4 => (3, 4),
            Opcode::M3x3 => (3, 3),
            _ => (3, 2),
        };
        let a = self.src(inst, 0)?;
        let m = self.src_param(inst, 1)?;
        let mut dst = self.dst(inst)?;
        dst.mask = crate::bytecode::WriteMask(dst.mask.0 & ((1u8 << rows) - 1));
        if m.reg.file == crate::bytecode::RegisterFile::Const && m.reg.relative.is_some() {
            self.relative_reads.push((m.reg.index, rows));
        }
        let mut out = Vec::with_capacity(4);
        for k in 0..4u32 {
            if k >= rows || !dst.mask.contains(k as usize) {
                out.push(self.lit_f32(0.0));
                continue;
            }
            let row = SrcParam {
                reg: Register {
                    index: m.reg.index + k,
                    ..m.reg
                },
                ..m
            };
            let r = self.read(&row)?;
            out.push(self.dot_d3d9(a, r, n));
        }
        let r = self.compose4([out[0], out[1], out[2], out[3]]);
        self.write(&dst, r, inst.predicate.as_ref())
    }
}
