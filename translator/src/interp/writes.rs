//! Destination writes: `_sat`, the denormal flush, the predicate and the write mask, into
//! the register the destination names, as `lift::writes` stores them.

use super::exec::Interpreter;
use super::machine::{Machine, Written};
use super::{internal, InterpError};
use crate::bytecode::{DstParam, Instruction, RegisterFile};
use crate::rules;

impl Interpreter<'_> {
    /// Store `value`'s written components: `_sat`, then the predicate, then the mask.
    pub(super) fn write(
        &self,
        m: &mut Machine<'_>,
        inst: &Instruction,
        dst: &DstParam,
        value: [f32; 4],
    ) -> Result<Written, InterpError> {
        let computed = value;
        let value = value.map(rules::flush_denormal);
        let value = if dst.modifier.saturate() {
            value.map(rules::saturate)
        } else {
            value
        };
        let allowed = self.predicate(m, inst)?;
        let mask = [0, 1, 2, 3].map(|c| dst.mask.contains(c) && allowed[c]);
        let written = |c: usize| mask[c];
        let vs_1_1 = self.program.version.major < 2;
        if dst.reg.file == RegisterFile::Addr {
            let a = value.map(|x| rules::address_value(x, vs_1_1));
            for (c, slot) in m.a0.iter_mut().enumerate() {
                if written(c) {
                    *slot = a[c];
                }
            }
            return Ok(Written {
                computed,
                stored: a.map(|x| x as f32),
                mask,
            });
        }
        let target: &mut [f32; 4] = match dst.reg.file {
            RegisterFile::Temp => {
                m.r.get_mut(dst.reg.index as usize)
                    .ok_or_else(|| internal("temporary past the register file"))?
            }
            RegisterFile::Output => {
                let k = self.index(m, &dst.reg, dst.reg.index, self.output_registers);
                m.o.get_mut(k)
                    .ok_or_else(|| internal("output past the register file"))?
            }
            RegisterFile::RastOut => m
                .rast
                .get_mut(dst.reg.index as usize)
                .ok_or_else(|| internal("no such rasteriser output"))?,
            RegisterFile::AttrOut => m
                .attr
                .get_mut(dst.reg.index as usize)
                .ok_or_else(|| internal("no such colour output"))?,
            RegisterFile::TexCrdOut => m
                .texcrd
                .get_mut(dst.reg.index as usize)
                .ok_or_else(|| internal("no such texture coordinate output"))?,
            other => return Err(internal(format!("{other} cannot be written"))),
        };
        for (c, slot) in target.iter_mut().enumerate() {
            if written(c) {
                *slot = value[c];
            }
        }
        Ok(Written {
            computed,
            stored: value,
            mask,
        })
    }
}
