//! Executing a checked vertex shader on the CPU, instruction by instruction, with the
//! lifter's semantics (see `lift::arith`, `lift::operands`, `lift::writes`, `lift::flow`):
//! every instruction computes all four components of its sources and stores the written
//! ones; denormal operands and results are flushed to zero (`rules::flush_denormal`);
//! relative reads past a register file read 0; loops run `min(i#.x, 255)` times with
//! aL restored when a loop ends; `ret` from inside a loop of a subroutine leaves aL as the
//! inner loop left it. `texldl` samples the textures of the vertex sampler stages
//! ([`super::texture`]) and returns the texel through the sampler's swizzle, as
//! `lift::texture` does.
//!
//! The run's state is in `machine`, operand reads in `operands`, arithmetic in `arith`,
//! destination writes in `writes`; here the preparation, the runs and flow control.

use super::machine::{fixed_default, ConstantFile, LoopFrame, Machine, Step};
use super::texture::VertexTextures;
use super::{internal, Constants, InterpError, OutputValue, OutputVertex, INSTRUCTION_BUDGET};
use crate::bytecode::{
    file_rule, float_constants, Declaration, Instruction, Literal, Opcode, Program, Register,
    RegisterFile, Stage, TextureType, VERTEX_INPUTS,
};
use crate::check::CheckedProgram;
use crate::rules;
use crate::rules::FloatMode;
use crate::signature::Signature;
use std::collections::HashMap;

/// A vertex shader prepared for running: its flow-control structure, labels and defined
/// constants resolved once.
#[derive(Debug, Clone)]
pub struct Interpreter<'a> {
    pub(super) program: &'a Program,
    pub(super) mode: FloatMode,
    pub(super) signature: Signature,
    /// For if/ifc: its else or endif; else: its endif; loop/rep: its end; end: its start.
    pub(super) partner: Vec<usize>,
    /// Label number → index of its first instruction.
    pub(super) labels: HashMap<u32, usize>,
    pub(super) def_floats: HashMap<u32, [f32; 4]>,
    pub(super) def_ints: HashMap<u32, [i32; 4]>,
    pub(super) def_bools: HashMap<u32, bool>,
    /// `dcl_2d` / `dcl_cube` / `dcl_volume s#`: sampler number → declared texture type.
    pub(super) samplers: HashMap<u32, TextureType>,
    pub(super) float_registers: u32,
    pub(super) int_registers: u32,
    pub(super) bool_registers: u32,
    pub(super) temp_registers: u32,
    pub(super) output_registers: u32,
}

impl<'a> Interpreter<'a> {
    /// Prepare `checked` (a vertex shader) for running in `mode`.
    pub fn new(checked: &'a CheckedProgram, mode: FloatMode) -> Result<Self, InterpError> {
        let program = checked.program();
        let version = program.version;
        if version.stage != Stage::Vertex {
            return Err(InterpError::NotVertexShader { version });
        }
        let caps = checked.caps();
        let vp = caps.vertex_processing;
        let count = |file| {
            file_rule(version, file, vp).map_or(0, |r| r.count.on_device(|c| caps.count_cap(c)))
        };
        let mut partner = vec![usize::MAX; program.instructions.len()];
        let mut open: Vec<usize> = Vec::new();
        let mut labels = HashMap::new();
        let (mut def_floats, mut def_ints, mut def_bools) =
            (HashMap::new(), HashMap::new(), HashMap::new());
        let mut samplers = HashMap::new();
        for (k, inst) in program.instructions.iter().enumerate() {
            use Opcode as O;
            match inst.opcode {
                O::If | O::Ifc | O::Loop | O::Rep => open.push(k),
                O::Else => {
                    let Some(top) = open.last_mut() else {
                        return Err(internal("else without if"));
                    };
                    partner[*top] = k;
                    *top = k;
                }
                O::EndIf | O::EndLoop | O::EndRep => {
                    let Some(start) = open.pop() else {
                        return Err(internal("end without a start"));
                    };
                    partner[start] = k;
                    partner[k] = start;
                }
                O::Label => {
                    if let Some(s) = inst.src.first() {
                        labels.insert(s.reg.index, k + 1);
                    }
                }
                O::Def | O::Defi | O::Defb => {
                    let Some(dst) = inst.dst else {
                        return Err(internal("def without a register"));
                    };
                    match (dst.reg.float_constant_index(), inst.literal) {
                        (Some(flat), Some(Literal::Float(v))) => {
                            def_floats.insert(flat, v.map(f32::from_bits));
                        }
                        (None, Some(Literal::Int(v))) => {
                            def_ints.insert(dst.reg.index, v);
                        }
                        (None, Some(Literal::Bool(v))) => {
                            def_bools.insert(dst.reg.index, v != 0);
                        }
                        _ => return Err(internal("def of the wrong register or value")),
                    }
                }
                O::Dcl => {
                    if let (Some(dst), Some(Declaration::Sampler(tt))) = (inst.dst, inst.decl) {
                        if dst.reg.file == RegisterFile::Sampler {
                            samplers.insert(dst.reg.index, tt);
                        }
                    }
                }
                _ => {}
            }
        }
        if !open.is_empty() {
            return Err(internal("flow control left open"));
        }
        Ok(Interpreter {
            program,
            mode,
            signature: Signature::of(program),
            partner,
            labels,
            def_floats,
            def_ints,
            def_bools,
            samplers,
            float_registers: float_constants(version, vp).on_device(|c| caps.count_cap(c)),
            int_registers: count(RegisterFile::ConstInt),
            bool_registers: count(RegisterFile::ConstBool),
            temp_registers: count(RegisterFile::Temp),
            output_registers: count(RegisterFile::Output),
        })
    }

    /// Run one vertex whose input registers hold `inputs` (`inputs[n]` is `v#n`; missing ones
    /// read 0) with the application's `constants` and no texture on any vertex sampler stage
    /// (`texldl` reads (0, 0, 0, 1), as D3D9 does from a stage without a texture).
    pub fn run(
        &self,
        inputs: &[[f32; 4]],
        constants: &Constants,
    ) -> Result<OutputVertex, InterpError> {
        self.run_with(inputs, &self.constant_file(constants))
    }

    /// [`Interpreter::run`] with `textures` on the vertex sampler stages, for `texldl`.
    pub fn run_textured(
        &self,
        inputs: &[[f32; 4]],
        constants: &Constants,
        textures: &VertexTextures<'_>,
    ) -> Result<OutputVertex, InterpError> {
        self.run_with_textures(inputs, &self.constant_file(constants), textures)
    }

    /// The float constant registers as the shader reads them: the application's values with
    /// the `def`s written over them and the zero register past the end (built once per draw
    /// by [`super::process_vertices`]).
    pub fn constant_file(&self, constants: &Constants) -> ConstantFile {
        let mut c = vec![[0.0f32; 4]; self.float_registers as usize + 1];
        for (slot, v) in c.iter_mut().zip(&constants.floats) {
            *slot = *v;
        }
        for (&n, v) in &self.def_floats {
            if let Some(slot) = c.get_mut(n as usize) {
                *slot = *v;
            }
        }
        // The spare element is the zero register out-of-range reads hit.
        if let Some(last) = c.last_mut() {
            *last = [0.0; 4];
        }
        ConstantFile {
            c,
            i: constants.ints.clone(),
            b: constants.bools.clone(),
        }
    }

    /// [`Interpreter::run`] with constants prepared by [`Interpreter::constant_file`].
    pub fn run_with(
        &self,
        inputs: &[[f32; 4]],
        constants: &ConstantFile,
    ) -> Result<OutputVertex, InterpError> {
        self.run_with_textures(inputs, constants, &VertexTextures::none())
    }

    /// [`Interpreter::run_textured`] with constants prepared by
    /// [`Interpreter::constant_file`].
    pub fn run_with_textures(
        &self,
        inputs: &[[f32; 4]],
        constants: &ConstantFile,
        textures: &VertexTextures<'_>,
    ) -> Result<OutputVertex, InterpError> {
        self.run_inner(inputs, constants, textures, None)
    }

    /// [`Interpreter::run_textured`], calling `observer` after every executed instruction
    /// with what it read and wrote ([`Step`]).
    pub fn run_observed(
        &self,
        inputs: &[[f32; 4]],
        constants: &Constants,
        textures: &VertexTextures<'_>,
        observer: &mut dyn FnMut(&Step<'_>),
    ) -> Result<OutputVertex, InterpError> {
        self.run_inner(
            inputs,
            &self.constant_file(constants),
            textures,
            Some(observer),
        )
    }

    pub(super) fn run_inner(
        &self,
        inputs: &[[f32; 4]],
        constants: &ConstantFile,
        textures: &VertexTextures<'_>,
        observer: Option<&mut dyn FnMut(&Step<'_>)>,
    ) -> Result<OutputVertex, InterpError> {
        let mut v = [[0.0f32; 4]; VERTEX_INPUTS as usize + 1];
        for (slot, x) in v.iter_mut().zip(inputs).take(VERTEX_INPUTS as usize) {
            *slot = *x;
        }
        let mut m = Machine {
            r: vec![[0.0; 4]; self.temp_registers.max(1) as usize],
            v,
            // vs_3_0 `o#` registers start at 0, as the lifter's (Windows and wined3d).
            o: vec![[0.0; 4]; self.output_registers as usize + 1],
            rast: [0, 1, 2].map(|n| fixed_default(Register::new(RegisterFile::RastOut, n))),
            attr: [0, 1].map(|n| fixed_default(Register::new(RegisterFile::AttrOut, n))),
            texcrd: [0, 1, 2, 3, 4, 5, 6, 7]
                .map(|n| fixed_default(Register::new(RegisterFile::TexCrdOut, n))),
            a0: [0; 4],
            al: 0,
            p0: [false; 4],
            c: &constants.c,
            i: &constants.i,
            b: &constants.b,
            textures,
            steps: 0,
            reads: observer.as_ref().map(|_| Default::default()),
        };
        self.execute(&mut m, observer)?;
        Ok(self.outputs(&m))
    }

    /// The output registers by semantic, as the lifter's entry point reads them.
    pub(super) fn outputs(&self, m: &Machine<'_>) -> OutputVertex {
        let vs3 = self.program.version.major >= 3;
        let outputs = self
            .signature
            .outputs
            .iter()
            .filter_map(|out| {
                let reg = out.register;
                let value = match reg.file {
                    RegisterFile::Output if vs3 => *m.o.get(reg.index as usize)?,
                    RegisterFile::RastOut => *m.rast.get(reg.index as usize)?,
                    RegisterFile::AttrOut => m.attr.get(reg.index as usize)?.map(rules::saturate),
                    RegisterFile::TexCrdOut => *m.texcrd.get(reg.index as usize)?,
                    _ => return None,
                };
                Some(OutputValue {
                    semantic: out.semantic,
                    register: reg,
                    mask: out.mask,
                    value,
                })
            })
            .collect();
        OutputVertex { outputs }
    }

    pub(super) fn execute(
        &self,
        m: &mut Machine<'_>,
        mut observer: Option<&mut dyn FnMut(&Step<'_>)>,
    ) -> Result<(), InterpError> {
        use Opcode as O;
        let instructions = &self.program.instructions;
        let mut pc = 0usize;
        let mut calls: Vec<usize> = Vec::new();
        let mut loops: Vec<LoopFrame> = Vec::new();
        while let Some(inst) = instructions.get(pc) {
            m.steps += 1;
            if m.steps > INSTRUCTION_BUDGET {
                return Err(InterpError::Budget {
                    limit: INSTRUCTION_BUDGET,
                });
            }
            let at = |what| self.unsupported(pc, inst, what);
            if inst.opcode.is_flow_control() && inst.predicate.is_some() {
                return Err(at("predicated flow-control instruction"));
            }
            if let Some(reads) = &m.reads {
                reads.borrow_mut().clear();
            }
            let here = pc;
            let (mut taken, mut write) = (None, None);
            let next = pc + 1;
            pc = match inst.opcode {
                O::Nop | O::Dcl | O::Def | O::Defi | O::Defb => next,
                // The end of main (its subroutines follow), or a subroutine's end.
                O::Label | O::Ret => match calls.pop() {
                    None => break,
                    Some(back) => {
                        // Loops left open by `ret` keep aL as they left it.
                        let depth = calls.len() + 1;
                        while loops.last().is_some_and(|l| l.depth == depth) {
                            loops.pop();
                        }
                        back
                    }
                },
                O::Call | O::CallNz => {
                    let label = self.src_param(inst, 0)?.reg.index;
                    let call = if inst.opcode == O::CallNz {
                        self.condition(m, &self.src_param(inst, 1)?)?
                    } else {
                        true
                    };
                    taken = Some(call);
                    if call {
                        if calls.len() >= 64 {
                            return Err(internal("call nesting deeper than 64"));
                        }
                        calls.push(next);
                        *self
                            .labels
                            .get(&label)
                            .ok_or_else(|| internal(format!("call to undefined l{label}")))?
                    } else {
                        next
                    }
                }
                O::If | O::Ifc => {
                    let accept = if inst.opcode == O::If {
                        self.condition(m, &self.src_param(inst, 0)?)?
                    } else {
                        self.compare_scalars(m, inst)?
                    };
                    taken = Some(accept);
                    if accept {
                        next
                    } else {
                        self.partner(pc)? + 1
                    }
                }
                // Reached from the accept block: skip the reject block.
                O::Else => self.partner(pc)? + 1,
                O::EndIf => next,
                O::Loop | O::Rep => {
                    let int_src =
                        self.src_param(inst, if inst.opcode == O::Loop { 1 } else { 0 })?;
                    let iv = self.read_int(m, &int_src.reg);
                    let al = (inst.opcode == O::Loop).then_some((iv[1], iv[2], m.al));
                    loops.push(LoopFrame {
                        start: pc,
                        end: self.partner(pc)?,
                        count: 0,
                        bound: rules::loop_iterations(iv[0], self.program.version.is_software()),
                        al,
                        depth: calls.len(),
                    });
                    self.loop_head(m, &mut loops)?
                }
                O::EndLoop | O::EndRep => {
                    let Some(frame) = loops.last_mut() else {
                        return Err(internal("end of a loop that is not open"));
                    };
                    frame.count += 1;
                    if let Some((value, step, _)) = &mut frame.al {
                        *value = value.wrapping_add(*step);
                    }
                    self.loop_head(m, &mut loops)?
                }
                O::Break | O::Breakc | O::Breakp => {
                    let leave = match inst.opcode {
                        O::Break => true,
                        O::Breakc => self.compare_scalars(m, inst)?,
                        _ => self.condition(m, &self.src_param(inst, 0)?)?,
                    };
                    taken = Some(leave);
                    if leave {
                        Self::leave_loop(m, &mut loops)?
                    } else {
                        next
                    }
                }
                _ => {
                    write = self.arithmetic(m, pc, inst)?;
                    next
                }
            };
            if let (Some(observe), Some(reads)) = (observer.as_mut(), &m.reads) {
                let reads = reads.borrow();
                observe(&Step {
                    index: here,
                    instruction: inst,
                    reads: &reads,
                    write,
                    taken,
                    loop_counter: m.al,
                });
            }
        }
        Ok(())
    }

    pub(super) fn partner(&self, pc: usize) -> Result<usize, InterpError> {
        match self.partner.get(pc) {
            Some(&p) if p != usize::MAX => Ok(p),
            _ => Err(internal(format!("instruction {pc} has no matching end"))),
        }
    }

    /// The head of the innermost loop: run the body again (publishing aL), or leave.
    pub(super) fn loop_head(
        &self,
        m: &mut Machine<'_>,
        loops: &mut Vec<LoopFrame>,
    ) -> Result<usize, InterpError> {
        let Some(frame) = loops.last() else {
            return Err(internal("no open loop"));
        };
        if frame.count >= frame.bound {
            return Self::leave_loop(m, loops);
        }
        if let Some((value, _, _)) = frame.al {
            m.al = value;
        }
        Ok(frame.start + 1)
    }

    /// Leave the innermost loop, restoring the enclosing aL.
    pub(super) fn leave_loop(
        m: &mut Machine<'_>,
        loops: &mut Vec<LoopFrame>,
    ) -> Result<usize, InterpError> {
        let Some(frame) = loops.pop() else {
            return Err(internal("break outside a loop"));
        };
        if let Some((_, _, outer)) = frame.al {
            m.al = outer;
        }
        Ok(frame.end + 1)
    }

    pub(super) fn unsupported(
        &self,
        index: usize,
        inst: &Instruction,
        what: &'static str,
    ) -> InterpError {
        InterpError::Unsupported {
            index,
            opcode: inst.opcode,
            offset: inst.offset,
            what,
        }
    }
}
