//! Reading operands: source parameters with relative addressing, swizzle and modifiers,
//! conditions, comparisons and the instruction predicate, as `lift::operands` reads them.

use super::exec::Interpreter;
use super::machine::Machine;
use super::{internal, InterpError};
use crate::bytecode::{
    Comparison, Control, Instruction, Register, RegisterFile, SrcModifier, SrcParam, VERTEX_INPUTS,
};
use crate::rules;

impl Interpreter<'_> {
    pub(super) fn src_param(&self, inst: &Instruction, i: usize) -> Result<SrcParam, InterpError> {
        inst.src
            .get(i)
            .copied()
            .ok_or_else(|| internal(format!("{} without source {i}", inst.opcode)))
    }

    /// `if b#`, `if p0.c`, `callnz`, `breakp` conditions (with `!`).
    pub(super) fn condition(&self, m: &Machine<'_>, s: &SrcParam) -> Result<bool, InterpError> {
        let value = match s.reg.file {
            RegisterFile::ConstBool => self.read_bool(m, s.reg.index),
            RegisterFile::Predicate => m.p0[usize::from(s.swizzle.get(0))],
            other => return Err(internal(format!("a condition cannot be a {other}"))),
        };
        Ok(value != (s.modifier == SrcModifier::Not))
    }

    /// `ifc`/`breakc`: the first selected components compared.
    pub(super) fn compare_scalars(
        &self,
        m: &Machine<'_>,
        inst: &Instruction,
    ) -> Result<bool, InterpError> {
        let Control::Comparison(cmp) = inst.control else {
            return Err(internal("missing comparison"));
        };
        let a = self.read(m, &self.src_param(inst, 0)?)?;
        let b = self.read(m, &self.src_param(inst, 1)?)?;
        Ok(compare(cmp, a[0], b[0]))
    }

    pub(super) fn read_bool(&self, m: &Machine<'_>, n: u32) -> bool {
        if let Some(&v) = self.def_bools.get(&n) {
            return v;
        }
        n < self.bool_registers && m.b.get(n as usize).copied().unwrap_or(false)
    }

    pub(super) fn read_int(&self, m: &Machine<'_>, reg: &Register) -> [i32; 4] {
        if let Some(&v) = self.def_ints.get(&reg.index) {
            return v;
        }
        let n = reg.index.min(self.int_registers.saturating_sub(1));
        m.i.get(n as usize).copied().unwrap_or([0; 4])
    }

    /// The index of a register in an array of `limit + 1` elements: direct indices past the
    /// end and relative addresses outside `0..=limit` hit element `limit`.
    pub(super) fn index(&self, m: &Machine<'_>, reg: &Register, base: u32, limit: u32) -> usize {
        let Some(rel) = reg.relative else {
            return base.min(limit) as usize;
        };
        let addr = match rel.file {
            RegisterFile::Loop => m.al,
            _ => m.a0[usize::from(rel.component())],
        };
        let sum = i64::from(addr) + i64::from(base);
        if sum < 0 || sum > i64::from(limit) {
            limit as usize
        } else {
            sum as usize
        }
    }

    /// The four components of a float register (before swizzle and modifier).
    pub(super) fn register(
        &self,
        m: &Machine<'_>,
        reg: &Register,
    ) -> Result<[f32; 4], InterpError> {
        Ok(match reg.file {
            RegisterFile::Temp => m.r.get(reg.index as usize).copied().unwrap_or([0.0; 4]),
            RegisterFile::Input => m.v[self.index(m, reg, reg.index, VERTEX_INPUTS)],
            RegisterFile::Const
            | RegisterFile::Const2
            | RegisterFile::Const3
            | RegisterFile::Const4 => {
                let flat = reg.float_constant_index().unwrap_or(reg.index);
                let k = self.index(m, reg, flat, self.float_registers);
                m.c.get(k).copied().unwrap_or([0.0; 4])
            }
            RegisterFile::Addr => m.a0.map(|x| x as f32),
            RegisterFile::Loop => [m.al as f32; 4],
            other => return Err(internal(format!("{other} cannot be read as a float"))),
        })
    }

    /// A source operand: swizzled, then modified (and recorded for an observer).
    pub(super) fn read(&self, m: &Machine<'_>, s: &SrcParam) -> Result<[f32; 4], InterpError> {
        let value = self.read_value(m, s)?;
        if let Some(reads) = &m.reads {
            reads.borrow_mut().push((*s, value));
        }
        Ok(value)
    }

    pub(super) fn read_value(
        &self,
        m: &Machine<'_>,
        s: &SrcParam,
    ) -> Result<[f32; 4], InterpError> {
        let raw = self.register(m, &s.reg)?.map(rules::flush_denormal);
        let v = [0, 1, 2, 3].map(|c| raw[usize::from(s.swizzle.get(c))]);
        Ok(match s.modifier {
            SrcModifier::None => v,
            SrcModifier::Neg => v.map(|x| -x),
            SrcModifier::Abs => v.map(f32::abs),
            SrcModifier::AbsNeg => v.map(|x| -x.abs()),
            SrcModifier::Bias => v.map(|x| x - 0.5),
            SrcModifier::BiasNeg => v.map(|x| -(x - 0.5)),
            SrcModifier::Sign => v.map(|x| x * 2.0 - 1.0),
            SrcModifier::SignNeg => v.map(|x| -(x * 2.0 - 1.0)),
            SrcModifier::Comp => v.map(|x| 1.0 - x),
            SrcModifier::X2 => v.map(|x| x + x),
            SrcModifier::X2Neg => v.map(|x| -(x + x)),
            SrcModifier::Dz | SrcModifier::Dw | SrcModifier::Not => {
                return Err(internal(format!(
                    "source modifier {:?} on a float",
                    s.modifier
                )))
            }
        })
    }

    /// Source `i` of `inst`.
    pub(super) fn src(
        &self,
        m: &Machine<'_>,
        inst: &Instruction,
        i: usize,
    ) -> Result<[f32; 4], InterpError> {
        self.read(m, &self.src_param(inst, i)?)
    }

    /// A scalar source: component w of the swizzled value.
    pub(super) fn scalar(
        &self,
        m: &Machine<'_>,
        inst: &Instruction,
        i: usize,
    ) -> Result<f32, InterpError> {
        Ok(self.src(m, inst, i)?[3])
    }

    /// Which components the instruction's predicate allows (all without one).
    pub(super) fn predicate(
        &self,
        m: &Machine<'_>,
        inst: &Instruction,
    ) -> Result<[bool; 4], InterpError> {
        let Some(p) = inst.predicate else {
            return Ok([true; 4]);
        };
        if p.reg.file != RegisterFile::Predicate {
            return Err(internal("a predicate that is not p0"));
        }
        let not = p.modifier == SrcModifier::Not;
        Ok([0, 1, 2, 3].map(|c| m.p0[usize::from(p.swizzle.get(c))] != not))
    }
}

/// A D3D9 comparison: ordered, except `ne` (NaN gives true), as the lifter emits it.
pub(super) fn compare(cmp: Comparison, a: f32, b: f32) -> bool {
    match cmp {
        Comparison::Gt => a > b,
        Comparison::Eq => a == b,
        Comparison::Ne => a != b,
        Comparison::Ge => a >= b,
        Comparison::Lt => a < b,
        Comparison::Le => a <= b,
    }
}
