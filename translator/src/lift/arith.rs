//! Per-opcode lowering of the arithmetic instructions, following the SDK pseudo-code, at the
//! width of the destination's write mask: component-wise instructions compute only the
//! written components, scalar instructions (rcp, dp4, pow …) compute one value and replicate
//! it, and the rest (lit, dst, crs, sincos, m#x#, vs_1_1 expp) compute each written component
//! from the source components it needs.

use super::builder::{Lanes, Lifter, Value};
use super::error::{Feature, LiftError};
use crate::bytecode::{Comparison, Control, DstParam, Instruction, Opcode, SrcParam, WriteMask};
use naga::{BinaryOperator as Bo, Handle, MathFunction as Mf};

impl Lifter<'_> {
    /// Lower one instruction (arithmetic here; flow control and texldl elsewhere).
    pub(super) fn instruction(&mut self, inst: &Instruction) -> Result<(), LiftError> {
        use Opcode as O;
        if inst.opcode.is_flow_control() {
            if inst.predicate.is_some() {
                return Err(self.unsupported(Feature::PredicatedFlowControl));
            }
            // Control paths join here: what registers held is no longer known.
            self.forget_temps();
            self.forget_at_join();
            return self.flow(inst);
        }
        match inst.opcode {
            O::Nop | O::Dcl | O::Def | O::Defi | O::Defb => Ok(()),
            O::TexLdl | O::TexLdd | O::Tex => self.texture_sample(inst),
            O::TexKill => self.texkill(inst),
            // ps_1_x only.
            O::TexCoord
            | O::TexBem
            | O::TexBemL
            | O::TexReg2Ar
            | O::TexReg2Gb
            | O::TexReg2Rgb
            | O::TexM3x2Pad
            | O::TexM3x2Tex
            | O::TexM3x3Pad
            | O::TexM3x3Tex
            | O::TexM3x3Spec
            | O::TexM3x3VSpec
            | O::TexM3x3
            | O::TexDp3
            | O::TexDp3Tex
            | O::TexM3x2Depth
            | O::TexDepth
            | O::Bem
            | O::Phase => self.ps1_instruction(inst),
            O::Lit => self.lit(inst),
            O::Dst => self.dst_op(inst),
            O::Crs => self.crs(inst),
            O::SinCos => self.sincos(inst),
            O::M4x4 | O::M4x3 | O::M3x4 | O::M3x3 | O::M3x2 => self.matrix(inst),
            O::Expp if self.program.version.major < 2 => self.expp_1_1(inst),
            O::Setp => {
                let Control::Comparison(cmp) = inst.control else {
                    return Err(self.internal("setp without a comparison"));
                };
                let dst = self.dst(inst)?;
                let lanes = Lanes::of_mask(dst.mask);
                let a = self.src(inst, 0, lanes)?;
                let b = self.src(inst, 1, lanes)?;
                let c = self.compare(cmp, a, b);
                self.write_predicate(&dst, c, inst.predicate.as_ref())
            }
            // Scalar results, replicated to the written components.
            O::Rcp
            | O::Rsq
            | O::Exp
            | O::Expp
            | O::Log
            | O::Logp
            | O::Pow
            | O::Dp3
            | O::Dp4
            | O::Dp2Add => {
                let s = match inst.opcode {
                    O::Rcp => {
                        let x = self.scalar_src(inst, 0)?;
                        self.rcp_d3d9(x)
                    }
                    O::Rsq => {
                        let x = self.scalar_src(inst, 0)?;
                        self.rsq_d3d9(x)
                    }
                    // vs_2_0+ expp is exp at partial precision: full precision here.
                    O::Exp | O::Expp => {
                        let x = self.scalar_src(inst, 0)?;
                        self.exp_d3d9(x)
                    }
                    // logp is log at full precision (as Wine and DXVK do).
                    O::Log | O::Logp => {
                        let x = self.scalar_src(inst, 0)?;
                        self.log_d3d9(x)
                    }
                    O::Pow => {
                        let a = self.scalar_src(inst, 0)?;
                        let b = self.scalar_src(inst, 1)?;
                        self.pow_d3d9(a, b, true)
                    }
                    O::Dp2Add => {
                        // src0.x * src1.x + src0.y * src1.y + src2 (a replicated component).
                        let a = self.src(inst, 0, Lanes::of(&[0, 1]))?;
                        let b = self.src(inst, 1, Lanes::of(&[0, 1]))?;
                        let d = self.dot_d3d9(a, b);
                        let c = self.scalar_src(inst, 2)?;
                        self.bin(Bo::Add, d, c)
                    }
                    _ => {
                        let n: &[u8] = if inst.opcode == O::Dp3 {
                            &[0, 1, 2]
                        } else {
                            &[0, 1, 2, 3]
                        };
                        let a = self.src(inst, 0, Lanes::of(n))?;
                        let b = self.src(inst, 1, Lanes::of(n))?;
                        self.dot_d3d9(a, b)
                    }
                };
                self.replicate(inst, s)
            }
            _ => self.componentwise(inst),
        }
    }

    /// The instructions that compute each written component from the same components of
    /// their sources.
    fn componentwise(&mut self, inst: &Instruction) -> Result<(), LiftError> {
        use Opcode as O;
        let dst = self.dst(inst)?;
        let lanes = Lanes::of_mask(dst.mask);
        if lanes.is_empty() {
            return Ok(());
        }
        let r = match inst.opcode {
            O::Mov | O::Mova | O::Add | O::Sub | O::Mul | O::Mad | O::Lrp => {
                self.arithmetic(inst, lanes)?
            }
            O::Min | O::Max | O::Slt | O::Sge | O::Cmp | O::Cnd => {
                self.comparison(inst, dst.mask, lanes)?
            }
            O::Frc | O::Abs | O::Sgn | O::Nrm => self.unary(inst, lanes)?,
            O::Dsx | O::Dsy => self.derivative(inst, lanes)?,
            other => return Err(self.internal(format!("{other} is not an instruction"))),
        };
        self.write(&dst, r, inst.predicate.as_ref())
    }

    /// `mov`, `mova`, `add`, `sub`, `mul`, `mad`, `lrp`.
    fn arithmetic(&mut self, inst: &Instruction, lanes: Lanes) -> Result<Value, LiftError> {
        use Opcode as O;
        Ok(match inst.opcode {
            O::Mov | O::Mova => self.src(inst, 0, lanes)?,
            O::Add | O::Sub => {
                let (a, b) = (self.src(inst, 0, lanes)?, self.src(inst, 1, lanes)?);
                let op = if inst.opcode == O::Add {
                    Bo::Add
                } else {
                    Bo::Subtract
                };
                self.bin_v(op, a, b)
            }
            O::Mul => {
                let (a, b) = (self.src(inst, 0, lanes)?, self.src(inst, 1, lanes)?);
                self.mul_d3d9(a, b)
            }
            O::Mad => {
                let a = self.src(inst, 0, lanes)?;
                let b = self.src(inst, 1, lanes)?;
                let c = self.src(inst, 2, lanes)?;
                let m = self.mul_d3d9(a, b);
                self.bin_v(Bo::Add, m, c)
            }
            O::Lrp => {
                // dest = src0 * (src1 - src2) + src2
                let a = self.src(inst, 0, lanes)?;
                let b = self.src(inst, 1, lanes)?;
                let c = self.src(inst, 2, lanes)?;
                // A macro of mul/mad on D3D9 hardware: the legacy multiply applies.
                let d = self.bin_v(Bo::Subtract, b, c);
                let m = self.mul_d3d9(a, d);
                self.bin_v(Bo::Add, m, c)
            }
            other => return Err(self.internal(format!("{other} is not an instruction"))),
        })
    }

    /// `min`, `max`, `slt`, `sge`, `cmp`, `cnd`: a comparison selecting between sources (`mask`: the
    /// destination's, which ps_1_x's co-issued `cnd` looks at).
    fn comparison(
        &mut self,
        inst: &Instruction,
        mask: WriteMask,
        lanes: Lanes,
    ) -> Result<Value, LiftError> {
        use Opcode as O;
        let n = lanes.len();
        Ok(match inst.opcode {
            O::Min | O::Max => {
                // min: src0 < src1 ? src0 : src1; max: src0 >= src1 ? src0 : src1.
                let (a, b) = (self.src(inst, 0, lanes)?, self.src(inst, 1, lanes)?);
                let op = if inst.opcode == O::Min {
                    Bo::Less
                } else {
                    Bo::GreaterEqual
                };
                let c = self.bin_v(op, a, b);
                let r = self.select_v(c, a, b);
                self.finite_if(r, &[a, b])
            }
            O::Slt | O::Sge => {
                let (a, b) = (self.src(inst, 0, lanes)?, self.src(inst, 1, lanes)?);
                let op = if inst.opcode == O::Slt {
                    Bo::Less
                } else {
                    Bo::GreaterEqual
                };
                let c = self.bin_v(op, a, b);
                let one = self.float_n(1.0, n);
                let zero = self.float_n(0.0, n);
                let r = self.select_v(c, one, zero);
                self.mark_finite(r)
            }
            O::Cnd if self.is_ps1() && self.program.version.minor < 4 => {
                // ps_1_1–1_3: one condition, src0's first swizzled component (r0.a) > 0.5.
                // Co-issued on the colour half (any mask but `.a` alone), the instruction
                // writes src1 whatever the condition; co-issued on the alpha half it selects
                // as usual: what the hardware does (Wine's shader_glsl_cnd, its cnd_test).
                let b = self.src(inst, 1, lanes)?;
                if inst.coissue && mask != WriteMask::ALPHA {
                    b
                } else {
                    let a = self.src(inst, 0, Lanes::of(&[0]))?;
                    let c = self.src(inst, 2, lanes)?;
                    let k = self.lit_f32(0.5);
                    let t = self.bin(Bo::Greater, a.h, k);
                    let r = Value {
                        h: self.select(t, b.h, c.h),
                        n,
                    };
                    self.finite_if(r, &[b, c])
                }
            }
            O::Cmp | O::Cnd => {
                // cmp: src0 >= 0 ? src1 : src2; cnd: src0 > 0.5 ? src1 : src2.
                let a = self.src(inst, 0, lanes)?;
                let b = self.src(inst, 1, lanes)?;
                let c = self.src(inst, 2, lanes)?;
                let (op, k) = if inst.opcode == O::Cmp {
                    (Bo::GreaterEqual, 0.0)
                } else {
                    (Bo::Greater, 0.5)
                };
                let k = self.float_n(k, n);
                let t = self.bin_v(op, a, k);
                let r = self.select_v(t, b, c);
                self.finite_if(r, &[b, c])
            }
            other => return Err(self.internal(format!("{other} is not an instruction"))),
        })
    }

    /// `frc`, `abs`, `sgn`, `nrm`.
    fn unary(&mut self, inst: &Instruction, lanes: Lanes) -> Result<Value, LiftError> {
        use Opcode as O;
        let n = lanes.len();
        Ok(match inst.opcode {
            O::Frc => {
                // `fract`, one operation: as `x - floor(x)` a driver may reassociate the
                // subtraction with the instruction that reads the result (lavapipe turns
                // `frc` then `add` of a literal into `(x + c) - floor(x)`, rounding at x's
                // magnitude), where D3D9 rounds frc's exact x - floor(x) first.
                let a = self.src(inst, 0, lanes)?;
                let r = self.math1_v(Mf::Fract, a);
                self.finite_if(r, &[a])
            }
            O::Abs => {
                let a = self.src(inst, 0, lanes)?;
                let r = self.math1_v(Mf::Abs, a);
                self.finite_if(r, &[a])
            }
            O::Sgn => {
                // SDK: -1 if x < 0, else 0 if x == 0, else 1 (so NaN gives 1; WGSL's
                // sign(NaN) is unspecified and lavapipe returns 0).
                let a = self.src(inst, 0, lanes)?;
                let zero = self.float_n(0.0, n);
                let one = self.float_n(1.0, n);
                let minus_one = self.float_n(-1.0, n);
                let is_zero = self.bin_v(Bo::Equal, a, zero);
                let non_negative = self.select_v(is_zero, zero, one);
                let negative = self.bin_v(Bo::Less, a, zero);
                let r = self.select_v(negative, minus_one, non_negative);
                self.mark_finite(r)
            }
            O::Nrm => {
                // dest = src * rsq(dp3(src, src))
                let v = self.src(inst, 0, Lanes::ALL)?;
                let xyz = self.pick(v, &[0, 1, 2]);
                let d = self.dot_d3d9(xyz, xyz);
                let q = self.rsq_d3d9(d);
                let q = self.splat(q, n);
                let a = self.pick(v, lanes.as_slice());
                self.mul_d3d9(a, q)
            }
            other => return Err(self.internal(format!("{other} is not an instruction"))),
        })
    }

    /// `dsx`, `dsy`.
    fn derivative(&mut self, inst: &Instruction, lanes: Lanes) -> Result<Value, LiftError> {
        use Opcode as O;
        let n = lanes.len();
        Ok(match inst.opcode {
            O::Dsx | O::Dsy => {
                // The screen-space derivative, at the precision the device picks (WGSL
                // `dpdx`/`dpdy`, as Wine's dFdx/dFdy and DXVK's OpDPdx/OpDPdy).
                let a = self.src(inst, 0, lanes)?;
                let axis = if inst.opcode == O::Dsx {
                    naga::DerivativeAxis::X
                } else {
                    naga::DerivativeAxis::Y
                };
                let h = self.emit(naga::Expression::Derivative {
                    axis,
                    ctrl: naga::DerivativeControl::None,
                    expr: a.h,
                });
                Value { h, n }
            }
            other => return Err(self.internal(format!("{other} is not an instruction"))),
        })
    }

    /// The destination parameter.
    pub(super) fn dst(&self, inst: &Instruction) -> Result<DstParam, LiftError> {
        inst.dst.ok_or_else(|| self.internal("missing destination"))
    }

    /// The source parameter `i`.
    pub(super) fn src_param(&self, inst: &Instruction, i: usize) -> Result<SrcParam, LiftError> {
        inst.src
            .get(i)
            .copied()
            .ok_or_else(|| self.internal(format!("missing source {i}")))
    }

    /// Source `i`, read at `lanes`.
    pub(super) fn src(
        &mut self,
        inst: &Instruction,
        i: usize,
        lanes: Lanes,
    ) -> Result<Value, LiftError> {
        let s = self.src_param(inst, i)?;
        self.read(&s, lanes)
    }

    /// A scalar source: the replicated component (`.w` of the swizzled value, which is also
    /// what vs_1_1 uses when no swizzle is given).
    pub(super) fn scalar_src(
        &mut self,
        inst: &Instruction,
        i: usize,
    ) -> Result<Handle<naga::Expression>, LiftError> {
        Ok(self.src(inst, i, Lanes::of(&[3]))?.h)
    }

    /// Write a scalar result to every written component.
    fn replicate(
        &mut self,
        inst: &Instruction,
        s: Handle<naga::Expression>,
    ) -> Result<(), LiftError> {
        let dst = self.dst(inst)?;
        let v = self.splat(s, Lanes::of_mask(dst.mask).len());
        self.write(&dst, v, inst.predicate.as_ref())
    }

    /// Write one scalar per written component of `dst` (`parts[c]` for component c).
    fn write_parts(
        &mut self,
        inst: &Instruction,
        dst: &DstParam,
        parts: &[Option<Handle<naga::Expression>>; 4],
    ) -> Result<(), LiftError> {
        let lanes = Lanes::of_mask(dst.mask);
        let mut hs = Vec::with_capacity(4);
        for &c in lanes.as_slice() {
            match parts[usize::from(c)] {
                Some(h) => hs.push(h),
                None => return Err(self.internal("component computed without a value")),
            }
        }
        if hs.is_empty() {
            return Ok(());
        }
        let v = self.compose(&hs);
        self.write(dst, v, inst.predicate.as_ref())
    }

    /// A component-wise comparison (a bool value of the operands' width). `ne` is unordered
    /// (NaN gives true, as C's `!=` and DXVK), written `!(a == b)` because naga's `!=` is
    /// ordered; the other five are ordered (NaN gives false).
    pub(super) fn compare(&mut self, cmp: Comparison, a: Value, b: Value) -> Value {
        let op = match cmp {
            Comparison::Gt => Bo::Greater,
            Comparison::Eq | Comparison::Ne => Bo::Equal,
            Comparison::Ge => Bo::GreaterEqual,
            Comparison::Lt => Bo::Less,
            Comparison::Le => Bo::LessEqual,
        };
        let r = self.bin_v(op, a, b);
        if cmp != Comparison::Ne {
            return r;
        }
        let h = self.emit(naga::Expression::Unary {
            op: naga::UnaryOperator::LogicalNot,
            expr: r.h,
        });
        Value { h, n: r.n }
    }

    /// `lit`, as the SDK states it:
    /// x = 1, w = 1; y = src.x if src.x > 0 else 0;
    /// z = pow(src.y, clamp(src.w, ±127.9961)) if src.x > 0 and src.y > 0 else 0.
    fn lit(&mut self, inst: &Instruction) -> Result<(), LiftError> {
        let dst = self.dst(inst)?;
        let wants = |c: usize| dst.mask.contains(c);
        let mut parts = [None; 4];
        if wants(0) || wants(3) {
            let one = self.lit_f32(1.0);
            parts[0] = Some(one);
            parts[3] = Some(one);
        }
        if wants(1) || wants(2) {
            let need: &[u8] = if wants(2) { &[0, 1, 3] } else { &[0] };
            let v = self.src(inst, 0, Lanes::of(need))?;
            let x = self.lane(v, 0);
            let zero = self.lit_f32(0.0);
            let x_pos = self.bin(Bo::Greater, x, zero);
            if wants(1) {
                parts[1] = Some(self.select(x_pos, x, zero));
            }
            if wants(2) {
                let y = self.lane(v, 1);
                let w = self.lane(v, 2);
                let y_pos = self.bin(Bo::Greater, y, zero);
                let lo = self.lit_f32(-crate::rules::LIT_POWER_LIMIT);
                let hi = self.lit_f32(crate::rules::LIT_POWER_LIMIT);
                let power = self.math3(Mf::Clamp, w, lo, hi);
                let p = self.pow_d3d9(y, power, false);
                let both = self.bin(Bo::LogicalAnd, x_pos, y_pos);
                parts[2] = Some(self.select(both, p, zero));
            }
        }
        self.write_parts(inst, &dst, &parts)
    }

    /// `dst`: dest = (1, src0.y * src1.y, src0.z, src1.w).
    fn dst_op(&mut self, inst: &Instruction) -> Result<(), LiftError> {
        let dst = self.dst(inst)?;
        let wants = |c: usize| dst.mask.contains(c);
        let mut parts = [None; 4];
        if wants(0) {
            parts[0] = Some(self.lit_f32(1.0));
        }
        let a_need: Vec<u8> = [1u8, 2]
            .into_iter()
            .filter(|&c| wants(usize::from(c)))
            .collect();
        let b_need: Vec<u8> = [1u8, 3]
            .into_iter()
            .filter(|&c| wants(usize::from(c)))
            .collect();
        let a = if a_need.is_empty() {
            None
        } else {
            Some(self.src(inst, 0, Lanes::of(&a_need))?)
        };
        let b = if b_need.is_empty() {
            None
        } else {
            Some(self.src(inst, 1, Lanes::of(&b_need))?)
        };
        if let (Some(a), Some(b)) = (a, b) {
            if wants(1) {
                let ay = Value {
                    h: self.lane(a, 0),
                    n: 1,
                };
                let by = Value {
                    h: self.lane(b, 0),
                    n: 1,
                };
                parts[1] = Some(self.mul_d3d9(ay, by).h);
            }
        }
        if let Some(a) = a {
            if wants(2) {
                let i = a_need.iter().position(|&c| c == 2).unwrap_or(0) as u8;
                parts[2] = Some(self.lane(a, i));
            }
        }
        if let Some(b) = b {
            if wants(3) {
                let i = b_need.iter().position(|&c| c == 3).unwrap_or(0) as u8;
                parts[3] = Some(self.lane(b, i));
            }
        }
        self.write_parts(inst, &dst, &parts)
    }

    /// `crs`: the cross product of `.xyz`, written to the components the mask names (`check`
    /// allows only subsets of `.xyz`).
    fn crs(&mut self, inst: &Instruction) -> Result<(), LiftError> {
        let dst = self.dst(inst)?;
        let a = self.src(inst, 0, Lanes::of(&[0, 1, 2]))?;
        let b = self.src(inst, 1, Lanes::of(&[0, 1, 2]))?;
        let c = self.cross_d3d9(a, b);
        let v = self.pick(c, Lanes::of_mask(dst.mask).as_slice());
        self.write(&dst, v, inst.predicate.as_ref())
    }

    /// `sincos`: dest.x = cos(src), dest.y = sin(src) (`check` allows only `.x`, `.y`, `.xy`).
    fn sincos(&mut self, inst: &Instruction) -> Result<(), LiftError> {
        let dst = self.dst(inst)?;
        let x = self.scalar_src(inst, 0)?;
        let mut parts = [None; 4];
        if dst.mask.contains(0) {
            parts[0] = Some(self.math1(Mf::Cos, x));
        }
        if dst.mask.contains(1) {
            parts[1] = Some(self.math1(Mf::Sin, x));
        }
        self.write_parts(inst, &dst, &parts)
    }

    /// vs_1_1 `expp`: (2^floor(x), x - floor(x), 2^x, 1).
    fn expp_1_1(&mut self, inst: &Instruction) -> Result<(), LiftError> {
        let dst = self.dst(inst)?;
        let x = self.scalar_src(inst, 0)?;
        let fl = self.math1(Mf::Floor, x);
        let mut parts = [None; 4];
        if dst.mask.contains(0) {
            parts[0] = Some(self.exp_d3d9(fl));
        }
        if dst.mask.contains(1) {
            // `fract`, not `x - fl`, for the reason `frc` gives.
            parts[1] = Some(self.math1(Mf::Fract, x));
        }
        if dst.mask.contains(2) {
            parts[2] = Some(self.exp_d3d9(x));
        }
        if dst.mask.contains(3) {
            parts[3] = Some(self.lit_f32(1.0));
        }
        self.write_parts(inst, &dst, &parts)
    }

    /// m4x4, m4x3, m3x4, m3x3, m3x2: component k is src0 dotted with register `src1 + k`,
    /// for the components the matrix has (m#x3 writes xyz, m3x2 xy).
    fn matrix(&mut self, inst: &Instruction) -> Result<(), LiftError> {
        let (n, rows) = match inst.opcode {
            Opcode::M4x4 => (4u8, 4u8),
            Opcode::M4x3 => (4, 3),
            Opcode::M3x4 => (3, 4),
            Opcode::M3x3 => (3, 3),
            _ => (3, 2),
        };
        // `check` allows only the components the matrix has (m#x3: xyz, m3x2: xy).
        let dst = self.dst(inst)?;
        let lanes = Lanes::of_mask(dst.mask);
        if lanes.is_empty() {
            return Ok(());
        }
        let width: Vec<u8> = (0..n).collect();
        let a = self.src(inst, 0, Lanes::of(&width))?;
        let m = self.src_param(inst, 1)?;
        if let (Some(base), Some(_)) = (m.reg.float_constant_index(), m.reg.relative) {
            self.registers.relative_reads.push((base, u32::from(rows)));
        }
        let mut parts = [None; 4];
        for &k in lanes.as_slice() {
            let row = SrcParam {
                reg: crate::bytecode::Register {
                    index: m.reg.index + u32::from(k),
                    ..m.reg
                },
                ..m
            };
            let r = self.read(&row, Lanes::of(&width))?;
            parts[usize::from(k)] = Some(self.dot_d3d9(a, r));
        }
        self.write_parts(inst, &dst, &parts)
    }
}
