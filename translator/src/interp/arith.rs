//! The arithmetic of the instructions with a destination, with D3D9's float rules
//! (`rules`), as `lift::arith` lowers them.

use super::exec::Interpreter;
use super::machine::{Machine, Written};
use super::operands::compare;
use super::{internal, InterpError};
use crate::bytecode::{Control, DstParam, Instruction, Opcode, Register, RegisterFile, SrcParam};
use crate::rules;

impl Interpreter<'_> {
    /// Execute an instruction with a destination; returns what it stored and where
    /// ([`Step::write`](super::Step::write)).
    pub(super) fn arithmetic(
        &self,
        m: &mut Machine<'_>,
        pc: usize,
        inst: &Instruction,
    ) -> Result<Option<Written>, InterpError> {
        use Opcode as O;
        let mode = self.mode;
        let dst = inst
            .dst
            .ok_or_else(|| internal(format!("{} without a destination", inst.opcode)))?;
        let binary = |f: &dyn Fn(f32, f32) -> f32| -> Result<[f32; 4], InterpError> {
            let (a, b) = (self.src(m, inst, 0)?, self.src(m, inst, 1)?);
            Ok([0, 1, 2, 3].map(|c| f(a[c], b[c])))
        };
        let unary = |f: &dyn Fn(f32) -> f32| -> Result<[f32; 4], InterpError> {
            Ok(self.src(m, inst, 0)?.map(f))
        };
        let splat = |x: f32| [x; 4];
        let value = match inst.opcode {
            O::Mov | O::Mova => self.src(m, inst, 0)?,
            O::Add => binary(&|a, b| a + b)?,
            O::Sub => binary(&|a, b| a - b)?,
            O::Mul => binary(&|a, b| rules::mul(mode, a, b))?,
            O::Mad => {
                let (a, b, c) = (
                    self.src(m, inst, 0)?,
                    self.src(m, inst, 1)?,
                    self.src(m, inst, 2)?,
                );
                [0, 1, 2, 3].map(|k| rules::mul(mode, a[k], b[k]) + c[k])
            }
            O::Lrp => {
                let (a, b, c) = (
                    self.src(m, inst, 0)?,
                    self.src(m, inst, 1)?,
                    self.src(m, inst, 2)?,
                );
                [0, 1, 2, 3].map(|k| rules::mul(mode, a[k], b[k] - c[k]) + c[k])
            }
            O::Min => binary(&|a, b| if a < b { a } else { b })?,
            O::Max => binary(&|a, b| if a >= b { a } else { b })?,
            O::Slt => binary(&|a, b| if a < b { 1.0 } else { 0.0 })?,
            O::Sge => binary(&|a, b| if a >= b { 1.0 } else { 0.0 })?,
            O::Frc => unary(&|a| a - a.floor())?,
            O::Abs => unary(&f32::abs)?,
            O::Sgn => unary(&|a| {
                if a < 0.0 {
                    -1.0
                } else if a == 0.0 {
                    0.0
                } else {
                    1.0
                }
            })?,
            O::Rcp => splat(rules::rcp(mode, self.scalar(m, inst, 0)?)),
            O::Rsq => splat(rules::rsq(mode, self.scalar(m, inst, 0)?)),
            O::Log | O::Logp => splat(rules::log(mode, self.scalar(m, inst, 0)?)),
            O::Exp => splat(rules::exp(self.scalar(m, inst, 0)?)),
            O::Expp if self.program.version.major >= 2 => {
                splat(rules::exp(self.scalar(m, inst, 0)?))
            }
            O::Expp => {
                // vs_1_1: (2^floor(x), x - floor(x), 2^x, 1).
                let x = self.scalar(m, inst, 0)?;
                let f = x.floor();
                [rules::exp(f), x - f, rules::exp(x), 1.0]
            }
            O::Pow => {
                let (a, b) = (self.scalar(m, inst, 0)?, self.scalar(m, inst, 1)?);
                splat(rules::pow(mode, a, b))
            }
            O::Dp3 | O::Dp4 => {
                let n = if inst.opcode == O::Dp3 { 3 } else { 4 };
                let (a, b) = (self.src(m, inst, 0)?, self.src(m, inst, 1)?);
                splat(rules::dot(mode, &a[..n], &b[..n]))
            }
            O::Lit => {
                let s = self.src(m, inst, 0)?;
                let (x, y, w) = (s[0], s[1], s[3]);
                let power = w.clamp(-rules::LIT_POWER_LIMIT, rules::LIT_POWER_LIMIT);
                let z = if x > 0.0 && y > 0.0 {
                    rules::pow(mode, y, power)
                } else {
                    0.0
                };
                [1.0, if x > 0.0 { x } else { 0.0 }, z, 1.0]
            }
            O::Dst => {
                let (a, b) = (self.src(m, inst, 0)?, self.src(m, inst, 1)?);
                [1.0, rules::mul(mode, a[1], b[1]), a[2], b[3]]
            }
            O::Crs => {
                let (a, b) = (self.src(m, inst, 0)?, self.src(m, inst, 1)?);
                let mul = |x, y| rules::mul(mode, x, y);
                [
                    mul(a[1], b[2]) - mul(a[2], b[1]),
                    mul(a[2], b[0]) - mul(a[0], b[2]),
                    mul(a[0], b[1]) - mul(a[1], b[0]),
                    0.0,
                ]
            }
            O::SinCos => {
                let x = self.scalar(m, inst, 0)?;
                [x.cos(), x.sin(), 0.0, 0.0]
            }
            O::Nrm => {
                let v = self.src(m, inst, 0)?;
                let q = rules::rsq(mode, rules::dot(mode, &v[..3], &v[..3]));
                v.map(|x| rules::mul(mode, x, q))
            }
            O::M4x4 | O::M4x3 | O::M3x4 | O::M3x3 | O::M3x2 => self.matrix(m, inst)?,
            O::TexLdl => self.texldl(m, inst)?,
            O::Setp => return self.setp(m, inst, &dst).map(Some),
            _ => return Err(self.unsupported(pc, inst, "not a vertex-shader instruction")),
        };
        self.write(m, inst, &dst, value).map(Some)
    }

    /// `m4x4`, `m4x3`, `m3x4`, `m3x3`, `m3x2`: one dot product per row register.
    fn matrix(&self, m: &Machine<'_>, inst: &Instruction) -> Result<[f32; 4], InterpError> {
        use Opcode as O;
        let mode = self.mode;
        let (n, rows) = match inst.opcode {
            O::M4x4 => (4, 4u32),
            O::M4x3 => (4, 3),
            O::M3x4 => (3, 4),
            O::M3x3 => (3, 3),
            _ => (3, 2),
        };
        let a = self.src(m, inst, 0)?;
        let mat = self.src_param(inst, 1)?;
        let mut out = [0.0; 4];
        for (k, slot) in out.iter_mut().enumerate().take(rows as usize) {
            let row = SrcParam {
                reg: Register {
                    index: mat.reg.index + k as u32,
                    ..mat.reg
                },
                ..mat
            };
            let r = self.read(m, &row)?;
            *slot = rules::dot(mode, &a[..n], &r[..n]);
        }
        Ok(out)
    }

    /// `texldl dst, coord, s#`: xyz the coordinates, w the LOD; the sampler's swizzle picks
    /// the texel component of each destination component.
    fn texldl(&self, m: &Machine<'_>, inst: &Instruction) -> Result<[f32; 4], InterpError> {
        let coord = self.src(m, inst, 0)?;
        let s = self.src_param(inst, 1)?;
        if s.reg.file != RegisterFile::Sampler {
            return Err(internal("the second source of texldl is not s#"));
        }
        let declared = *self
            .samplers
            .get(&s.reg.index)
            .ok_or_else(|| internal(format!("s{} is not declared", s.reg.index)))?;
        let texel = m.textures.fetch(s.reg.index, declared, coord);
        Ok([0, 1, 2, 3].map(|c| texel[usize::from(s.swizzle.get(c))]))
    }

    /// `setp`: the comparison per component into p0, where the mask and predicate allow.
    fn setp(
        &self,
        m: &mut Machine<'_>,
        inst: &Instruction,
        dst: &DstParam,
    ) -> Result<Written, InterpError> {
        let Control::Comparison(cmp) = inst.control else {
            return Err(internal("setp without a comparison"));
        };
        let (a, b) = (self.src(m, inst, 0)?, self.src(m, inst, 1)?);
        let p = [0, 1, 2, 3].map(|c| compare(cmp, a[c], b[c]));
        let allowed = self.predicate(m, inst)?;
        let written = [0, 1, 2, 3].map(|c| dst.mask.contains(c) && allowed[c]);
        for c in 0..4 {
            if written[c] {
                m.p0[c] = p[c];
            }
        }
        let p = p.map(|x| if x { 1.0 } else { 0.0 });
        Ok(Written {
            computed: p,
            stored: p,
            mask: written,
        })
    }
}
