//! Flow control: `if`/`ifc`/`else`/`endif`, `loop`/`rep` with bounded counters, `break`,
//! `breakc`, `breakp`, `call`/`callnz`/`ret`.
//!
//! Choices:
//! - Subroutines (`label l#` … `ret`) become naga functions without arguments; the register
//!   file is module-level private variables, so callers and callees share it. D3D9 forbids
//!   recursion; a recursive call graph is `Invalid`.
//! - `ret` is `return` wherever it stands: `main` is a naga function called by the entry point,
//!   which builds the outputs afterwards, so `ret` inside `main` ends the shader correctly.
//! - `loop aL, i#` runs `min(i#.x, 255)` times with aL from `i#.y` stepping by `i#.z` (0 and
//!   negative steps allowed); each loop keeps its own counter and aL in locals and restores
//!   the enclosing aL when it ends, so aL always belongs to the innermost loop (also inside
//!   subroutines called from the loop). `rep i#` runs `min(i#.x, 255)` times. A `ret` from
//!   inside a loop of a subroutine leaves the caller's aL at the inner loop's value.
//! - A loop's `i#` (unless `defi`'d) may be fixed when the pipeline is built
//!   (`loop_constants`).

use super::builder::Lanes;
use super::builder::{FrameKind, Lifter, LoopCounter, LoopFrame};
use super::error::LiftError;
use super::state::RegKey;
use crate::bytecode::{Control, Instruction, Opcode, RegisterFile, SrcParam};
use naga::{BinaryOperator as Bo, Block, Expression, Handle, MathFunction as Mf, Statement};

/// The most iterations any generated loop runs.
pub(super) const MAX_LOOP_ITERATIONS: i32 = crate::rules::MAX_LOOP_ITERATIONS;

impl Lifter<'_> {
    pub(super) fn flow(&mut self, inst: &Instruction) -> Result<(), LiftError> {
        use Opcode as O;
        match inst.opcode {
            O::If => {
                let s = self.src_param(inst, 0)?;
                let condition = self.condition(&s)?;
                self.open(FrameKind::If {
                    condition,
                    accept: None,
                });
                Ok(())
            }
            O::Ifc => {
                let condition = self.compare_scalars(inst)?;
                self.open(FrameKind::If {
                    condition,
                    accept: None,
                });
                Ok(())
            }
            O::Else => {
                let top = self.f.frames.last_mut();
                match top {
                    Some(frame) => match &mut frame.kind {
                        FrameKind::If { accept, .. } if accept.is_none() => {
                            let block = std::mem::take(&mut frame.block);
                            *accept = Some(block);
                            Ok(())
                        }
                        _ => Err(self.internal("else without an open if")),
                    },
                    None => Err(self.internal("else without an open if")),
                }
            }
            O::EndIf => {
                let frame = match self.f.frames.last() {
                    Some(f) if matches!(f.kind, FrameKind::If { .. }) => self.close(),
                    _ => None,
                };
                let Some(frame) = frame else {
                    return Err(self.internal("endif without an open if"));
                };
                if let FrameKind::If { condition, accept } = frame.kind {
                    let (accept, reject) = match accept {
                        None => (frame.block, Block::new()),
                        Some(a) => (a, frame.block),
                    };
                    self.push(Statement::If {
                        condition,
                        accept,
                        reject,
                    });
                }
                Ok(())
            }
            O::Loop | O::Rep => self.open_loop(inst),
            O::EndLoop | O::EndRep => self.close_loop(inst),
            O::Break => {
                self.push(Statement::Break);
                Ok(())
            }
            O::Breakc => {
                let c = self.compare_scalars(inst)?;
                self.break_if(c);
                Ok(())
            }
            O::Breakp => {
                let s = self.src_param(inst, 0)?;
                let c = self.condition(&s)?;
                self.break_if(c);
                Ok(())
            }
            O::Call => {
                let function = self.label(&self.src_param(inst, 0)?)?;
                self.push(Statement::Call {
                    function,
                    arguments: Vec::new(),
                    result: None,
                });
                Ok(())
            }
            O::CallNz => {
                let function = self.label(&self.src_param(inst, 0)?)?;
                let s = self.src_param(inst, 1)?;
                let condition = self.condition(&s)?;
                let mut accept = Block::new();
                accept.push(
                    Statement::Call {
                        function,
                        arguments: Vec::new(),
                        result: None,
                    },
                    self.span,
                );
                self.push(Statement::If {
                    condition,
                    accept,
                    reject: Block::new(),
                });
                // The condition loaded p0, and the subroutine may have written it (and any
                // other register): what was remembered before the call is stale after it.
                self.forget_at_join();
                Ok(())
            }
            O::Ret => {
                self.push(Statement::Return { value: None });
                Ok(())
            }
            O::Label => Err(self.internal("label inside a subroutine body")),
            other => Err(self.internal(format!("{other} is not flow control"))),
        }
    }

    /// The condition of `if b#`, `if p0.c`, `callnz l#, b#`, `breakp p0.c` (with `!`).
    fn condition(&mut self, s: &SrcParam) -> Result<Handle<Expression>, LiftError> {
        match s.reg.file {
            RegisterFile::ConstBool => self.read_bool(s),
            RegisterFile::Predicate => Ok(self.read_predicate(s, Lanes::of(&[0]))?.h),
            other => Err(self.internal(format!("a condition cannot be a {other}"))),
        }
    }

    /// `ifc`/`breakc`: compare the first selected components of the two sources.
    fn compare_scalars(&mut self, inst: &Instruction) -> Result<Handle<Expression>, LiftError> {
        let Control::Comparison(cmp) = inst.control else {
            return Err(self.internal("missing comparison"));
        };
        let a = self.src(inst, 0, Lanes::of(&[0]))?;
        let b = self.src(inst, 1, Lanes::of(&[0]))?;
        Ok(self.compare(cmp, a, b).h)
    }

    fn break_if(&mut self, condition: Handle<Expression>) {
        let mut accept = Block::new();
        accept.push(Statement::Break, self.span);
        self.push(Statement::If {
            condition,
            accept,
            reject: Block::new(),
        });
    }

    fn label(&self, s: &SrcParam) -> Result<Handle<naga::Function>, LiftError> {
        self.labels
            .get(&s.reg.index)
            .copied()
            .ok_or_else(|| self.internal(format!("call to undefined label l{}", s.reg.index)))
    }

    fn open_loop(&mut self, inst: &Instruction) -> Result<(), LiftError> {
        let is_loop = inst.opcode == Opcode::Loop;
        let int_src = if is_loop {
            self.src_param(inst, 1)?
        } else {
            self.src_param(inst, 0)?
        };
        let control = self.loop_control(&int_src.reg, if is_loop { 3 } else { 1 })?;
        let count = control[0];
        let max = self.lit_i32(MAX_LOOP_ITERATIONS);
        let bound = self.math2(Mf::Min, count, max);
        let k = self.f.loops_made;
        self.f.loops_made += 1;
        let i32_ty = self.ty.i32;
        let counter = self.local(format!("loop{k}_count"), i32_ty);
        let zero = self.lit_i32(0);
        self.store(counter, zero);
        let al = if is_loop {
            let (start, step) = (control[1], control[2]);
            let value = self.local(format!("loop{k}_aL"), i32_ty);
            self.store(value, start);
            let saved = self.local(format!("loop{k}_outer_aL"), i32_ty);
            let gp = self.register_pointer(RegKey::Loop);
            let outer = self.load(gp);
            self.store(saved, outer);
            Some(LoopCounter { value, step, saved })
        } else {
            None
        };
        let value_ptr = al.as_ref().map(|a| a.value);
        self.open(FrameKind::Loop(LoopFrame {
            opcode: inst.opcode,
            counter,
            al,
        }));
        // Loop head: stop after `bound` iterations, then publish this loop's aL.
        let c = self.load(counter);
        let done = self.bin(Bo::GreaterEqual, c, bound);
        self.break_if(done);
        if let Some(v) = value_ptr {
            let gp = self.register_pointer(RegKey::Loop);
            let cur = self.load(v);
            self.store(gp, cur);
        }
        Ok(())
    }

    fn close_loop(&mut self, inst: &Instruction) -> Result<(), LiftError> {
        let want = if inst.opcode == Opcode::EndLoop {
            Opcode::Loop
        } else {
            Opcode::Rep
        };
        let open = matches!(self.f.frames.last(), Some(f) if matches!(&f.kind, FrameKind::Loop(l) if l.opcode == want));
        if !open {
            return Err(self.internal(format!("{} without an open {}", inst.opcode, want)));
        }
        let Some(frame) = self.close() else {
            return Err(self.internal("unbalanced loop"));
        };
        let FrameKind::Loop(lf) = frame.kind else {
            return Err(self.internal("unbalanced loop"));
        };
        let counter = lf.counter;
        let al = lf.al;
        let continuing = self.aside(|s| {
            let c = s.load(counter);
            let one = s.lit_i32(1);
            let next = s.bin(Bo::Add, c, one);
            s.store(counter, next);
            if let Some(a) = &al {
                let v = s.load(a.value);
                let next = s.bin(Bo::Add, v, a.step);
                s.store(a.value, next);
            }
            Ok(())
        })?;
        self.push(Statement::Loop {
            body: frame.block,
            continuing,
            break_if: None,
        });
        if let Some(a) = al {
            let gp = self.register_pointer(RegKey::Loop);
            let outer = self.load(a.saved);
            self.store(gp, outer);
        }
        Ok(())
    }
}
