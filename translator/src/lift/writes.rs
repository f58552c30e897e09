//! Writing results, narrow: a value as wide as the write mask is saturated (`_sat`),
//! predicated per component (`(p0.x)`, `(!p0)`), and stored into exactly the written
//! components. ps_1_x results are shifted (`_x2` … `_d8`) before `_sat` and kept within the
//! ps_1_x range (`ps1`); the writes of a co-issued pair wait until both have read. a0 takes
//! integers: vs_1_1 `mov a0.x` floors, `mova` rounds halves to even (`rules::address_value`).

use super::builder::{Lanes, Lifter, Value};
use super::error::LiftError;
use super::function::Loaded;
use super::state::RegKey;
use crate::bytecode::{DstParam, RegisterFile, SrcParam};
use naga::{Expression, Handle, MathFunction as Mf, ScalarKind};

/// The integer range a0 is clamped to before conversion (it only indexes clamped arrays).
const ADDRESS_RANGE: f32 = crate::rules::ADDRESS_RANGE;

impl Lifter<'_> {
    /// Write `value` (as wide as `dst`'s write mask) to the destination: `_sat`, then the
    /// predicate, then only the written components.
    pub(super) fn write(
        &mut self,
        dst: &DstParam,
        value: Value,
        pred: Option<&SrcParam>,
    ) -> Result<(), LiftError> {
        let lanes = Lanes::of_mask(dst.mask);
        if lanes.is_empty() {
            return Ok(());
        }
        if let Some(held) = self.ps1.deferred.as_mut() {
            held.push((*dst, value, pred.copied()));
            return Ok(());
        }
        let mut value = value;
        if dst.shift != 0 {
            value = self.shift(value, dst.shift)?;
        }
        if dst.modifier.saturate() {
            value = self.saturate_d3d9(value);
        }
        if self.is_ps1() && matches!(dst.reg.file, RegisterFile::Temp | RegisterFile::Texture) {
            value = self.ps1_clamp(value);
        }
        match dst.reg.file {
            RegisterFile::Addr => {
                // `rules::address_value`: vs_1_1 floors, mova rounds halves to even (WGSL's
                // `round`).
                let rounded = if self.program.version.major < 2 {
                    self.math1_v(Mf::Floor, value)
                } else {
                    self.math1_v(Mf::Round, value)
                };
                let lo = self.float_n(-ADDRESS_RANGE, value.n);
                let hi = self.float_n(ADDRESS_RANGE, value.n);
                let clamped = self.math3(Mf::Clamp, rounded.h, lo.h, hi.h);
                let int = Value {
                    h: self.cast(clamped, ScalarKind::Sint, Some(4)),
                    n: value.n,
                };
                let p = self.register_pointer(RegKey::Addr);
                self.store_lanes(p, int, lanes, pred, 1, Some(Loaded::Addr))
            }
            _ => {
                if dst.reg.file == RegisterFile::Temp {
                    let finite = pred.is_none() && self.is_finite(value);
                    self.note_temp_write(dst.reg.index, lanes.as_slice(), finite);
                }
                let key = match dst.reg.file {
                    RegisterFile::Temp => Some(Loaded::Temp(dst.reg.index)),
                    // ps_1_x writes t# (the texture registers).
                    RegisterFile::Texture => Some(Loaded::Texture(dst.reg.index)),
                    _ => None,
                };
                let p = self.float_pointer(&dst.reg, true)?;
                self.store_lanes(p, value, lanes, pred, 0, key)
            }
        }
    }

    /// `_sat`: clamp to [0, 1], and NaN to 0 as D3D9 saturates it (`rules::saturate`); WGSL's
    /// `saturate(NaN)` is implementation-defined (lavapipe gives 1 for `saturate(abs(NaN))`),
    /// so a value not known to be finite is tested. The result is finite either way.
    pub(super) fn saturate_d3d9(&mut self, value: Value) -> Value {
        let saturated = self.math1_v(Mf::Saturate, value);
        if self.is_finite(value) {
            return self.mark_finite(saturated);
        }
        let is_number = self.bin_v(naga::BinaryOperator::Equal, value, value);
        let zero = self.float_n(0.0, value.n);
        let r = self.select_v(is_number, saturated, zero);
        self.mark_finite(r)
    }

    /// Perform the writes a co-issued pair held back, in order.
    pub(super) fn flush_deferred_writes(&mut self) -> Result<(), LiftError> {
        if let Some(held) = self.ps1.deferred.take() {
            for (dst, value, pred) in held {
                self.write(&dst, value, pred.as_ref())?;
            }
        }
        Ok(())
    }

    /// The ps_1_x result shift: `_x2`, `_x4`, `_x8` (shift 1–3) multiply by 2^shift, `_d2`,
    /// `_d4`, `_d8` (shift -1 to -3) divide; applied before `_sat`.
    fn shift(&mut self, value: Value, shift: i8) -> Result<Value, LiftError> {
        let Some(factor) = super::ps1::shift_factor(shift) else {
            return Err(self.internal(format!("result shift {shift}")));
        };
        let k = self.float_n(factor, value.n);
        let r = self.bin_v(naga::BinaryOperator::Multiply, value, k);
        // Halving keeps a finite value finite.
        Ok(if shift < 0 {
            self.finite_if(r, &[value])
        } else {
            r
        })
    }

    /// Write a bool value (as wide as the mask) to p0 (setp).
    pub(super) fn write_predicate(
        &mut self,
        dst: &DstParam,
        value: Value,
        pred: Option<&SrcParam>,
    ) -> Result<(), LiftError> {
        let lanes = Lanes::of_mask(dst.mask);
        if lanes.is_empty() {
            return Ok(());
        }
        let p = self.register_pointer(RegKey::Pred);
        self.store_lanes(p, value, lanes, pred, 2, Some(Loaded::Pred))
    }

    /// Store `value` into the components `lanes` of the `vec4` at `pointer` (of float, int or
    /// bool `kind` 0/1/2), where the predicate allows; `key` names the register for `loads`.
    fn store_lanes(
        &mut self,
        pointer: Handle<Expression>,
        value: Value,
        lanes: Lanes,
        pred: Option<&SrcParam>,
        kind: usize,
        key: Option<Loaded>,
    ) -> Result<(), LiftError> {
        let mut value = value;
        let mut old = None;
        if let Some(p) = pred {
            let allowed = self.read_predicate(p, lanes)?;
            let whole = self.load_old(pointer, key);
            old = Some(whole);
            let kept = self.pick(Value { h: whole, n: 4 }, lanes.as_slice());
            value = self.select_v(allowed, value, kept);
        }
        if lanes == Lanes::ALL {
            self.store(pointer, value.h);
            if let Some(k) = key {
                self.remember_register(k, value.h);
            }
            return Ok(());
        }
        if let [c] = lanes.as_slice() {
            let p = self.emit(Expression::AccessIndex {
                base: pointer,
                index: u32::from(*c),
            });
            self.store(p, value.h);
            if let Some(k) = key {
                self.forget_register(k);
            }
            return Ok(());
        }
        // Several components: the old vector with the written runs replaced.
        let whole = match old {
            Some(h) => h,
            None => self.load_old(pointer, key),
        };
        let written: Vec<bool> = (0..4u8).map(|c| lanes.as_slice().contains(&c)).collect();
        let mut parts = Vec::with_capacity(4);
        let mut c = 0u8;
        let mut j = 0u8;
        while c < 4 {
            let from_value = written[usize::from(c)];
            let start = c;
            while c < 4 && written[usize::from(c)] == from_value {
                c += 1;
            }
            let run = c - start;
            if from_value {
                let pattern: Vec<u8> = (j..j + run).collect();
                parts.push(self.pick(value, &pattern).h);
                j += run;
            } else {
                let pattern: Vec<u8> = (start..c).collect();
                parts.push(self.pick(Value { h: whole, n: 4 }, &pattern).h);
            }
        }
        let ty = self.value_type(kind, 4);
        let merged = self.emit(Expression::Compose {
            ty,
            components: parts,
        });
        self.store(pointer, merged);
        if let Some(k) = key {
            self.remember_register(k, merged);
        }
        Ok(())
    }

    /// The current value at `pointer`, remembered when `key` names the register.
    fn load_old(&mut self, pointer: Handle<Expression>, key: Option<Loaded>) -> Handle<Expression> {
        match key {
            Some(k) => self.load_register(k, pointer),
            None => self.load(pointer),
        }
    }
}
