//! Executing a checked vertex shader on the CPU, instruction by instruction, with the
//! lifter's semantics (see `lift::arith`, `lift::operands`, `lift::writes`, `lift::flow`):
//! every instruction computes all four components of its sources and stores the written
//! ones; denormal operands and results are flushed to zero (`rules::flush_denormal`);
//! relative reads past a register file read 0; loops run `min(i#.x, 255)` times with
//! aL restored when a loop ends; `ret` from inside a loop of a subroutine leaves aL as the
//! inner loop left it. `texldl` samples the textures of the vertex sampler stages
//! ([`super::texture`]) and returns the texel through the sampler's swizzle, as
//! `lift::texture` does.

use super::texture::VertexTextures;
use super::{Constants, InterpError, OutputValue, OutputVertex, INSTRUCTION_BUDGET};
use crate::bytecode::{
    file_rule, float_constants, Comparison, Control, Declaration, DstParam, Instruction, Literal,
    Opcode, Program, Register, RegisterFile, SrcModifier, SrcParam, Stage, TextureType,
    VERTEX_INPUTS,
};
use crate::check::CheckedProgram;
use crate::lift::FloatMode;
use crate::rules;
use crate::signature::{fixed_vs_output, Signature};
use std::collections::HashMap;

/// A vertex shader prepared for running: its flow-control structure, labels and defined
/// constants resolved once.
#[derive(Debug, Clone)]
pub struct Interpreter<'a> {
    program: &'a Program,
    mode: FloatMode,
    signature: Signature,
    /// For if/ifc: its else or endif; else: its endif; loop/rep: its end; end: its start.
    partner: Vec<usize>,
    /// Label number → index of its first instruction.
    labels: HashMap<u32, usize>,
    def_floats: HashMap<u32, [f32; 4]>,
    def_ints: HashMap<u32, [i32; 4]>,
    def_bools: HashMap<u32, bool>,
    /// `dcl_2d` / `dcl_cube` / `dcl_volume s#`: sampler number → declared texture type.
    samplers: HashMap<u32, TextureType>,
    float_registers: u32,
    int_registers: u32,
    bool_registers: u32,
    temp_registers: u32,
    output_registers: u32,
}

/// The constant registers prepared for running ([`Interpreter::constant_file`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ConstantFile {
    c: Vec<[f32; 4]>,
    i: Vec<[i32; 4]>,
    b: Vec<bool>,
}

/// An open loop or rep.
#[derive(Debug, Clone, Copy)]
struct LoopFrame {
    start: usize,
    end: usize,
    count: i32,
    bound: i32,
    /// `loop`: (aL value, step, the enclosing aL to restore).
    al: Option<(i32, i32, i32)>,
    /// The call depth it belongs to.
    depth: usize,
}

/// One executed instruction as an observer of [`Interpreter::run_observed`] sees it: what it
/// read and what it wrote, so that a caller can follow values through a run (the
/// differential test derives each output's error bound from its own operands this way).
#[derive(Debug, Clone, Copy)]
pub struct Step<'s> {
    /// The instruction's index in the program.
    pub index: usize,
    pub instruction: &'s Instruction,
    /// The float operands read, in the order read: the parameter and its four components
    /// after swizzle and modifier (denormals flushed). A matrix instruction's rows are reads
    /// of their own registers (`c#`, `c# + 1`, …).
    pub reads: &'s [Read],
    /// An instruction with a destination: what it computed and stored.
    pub write: Option<Written>,
    /// `if`, `ifc`, `callnz`, `break`, `breakc`, `breakp`: whether it was taken.
    pub taken: Option<bool>,
    /// The loop counter `aL` after the instruction (what `o[aL + n]` and `v[aL + n]` used).
    pub loop_counter: i32,
}

/// One operand read: the parameter and its four components after swizzle and modifier.
pub type Read = (SrcParam, [f32; 4]);

/// What an instruction with a destination computed and stored ([`Step::write`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Written {
    /// The four components the instruction computed, before `_sat` and the denormal flush.
    pub computed: [f32; 4],
    /// The four components as stored (denormals flushed, `_sat` applied; `a0` as its
    /// integers, `p0` as 1 or 0).
    pub stored: [f32; 4],
    /// Which components were written (write mask and predicate).
    pub mask: [bool; 4],
}

/// The registers of one run.
struct Machine<'p> {
    r: Vec<[f32; 4]>,
    v: [[f32; 4]; VERTEX_INPUTS as usize + 1],
    o: Vec<[f32; 4]>,
    rast: [[f32; 4]; 3],
    attr: [[f32; 4]; 2],
    texcrd: [[f32; 4]; 8],
    a0: [i32; 4],
    al: i32,
    p0: [bool; 4],
    c: &'p [[f32; 4]],
    i: &'p [[i32; 4]],
    b: &'p [bool],
    textures: &'p VertexTextures<'p>,
    steps: u64,
    /// The reads of the current instruction, when an observer follows the run.
    reads: Option<std::cell::RefCell<Vec<Read>>>,
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

    fn run_inner(
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
    fn outputs(&self, m: &Machine<'_>) -> OutputVertex {
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

    fn execute(
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

    fn partner(&self, pc: usize) -> Result<usize, InterpError> {
        match self.partner.get(pc) {
            Some(&p) if p != usize::MAX => Ok(p),
            _ => Err(internal(format!("instruction {pc} has no matching end"))),
        }
    }

    /// The head of the innermost loop: run the body again (publishing aL), or leave.
    fn loop_head(
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
    fn leave_loop(m: &mut Machine<'_>, loops: &mut Vec<LoopFrame>) -> Result<usize, InterpError> {
        let Some(frame) = loops.pop() else {
            return Err(internal("break outside a loop"));
        };
        if let Some((_, _, outer)) = frame.al {
            m.al = outer;
        }
        Ok(frame.end + 1)
    }

    fn unsupported(&self, index: usize, inst: &Instruction, what: &'static str) -> InterpError {
        InterpError::Unsupported {
            index,
            opcode: inst.opcode,
            offset: inst.offset,
            what,
        }
    }

    fn src_param(&self, inst: &Instruction, i: usize) -> Result<SrcParam, InterpError> {
        inst.src
            .get(i)
            .copied()
            .ok_or_else(|| internal(format!("{} without source {i}", inst.opcode)))
    }

    /// `if b#`, `if p0.c`, `callnz`, `breakp` conditions (with `!`).
    fn condition(&self, m: &Machine<'_>, s: &SrcParam) -> Result<bool, InterpError> {
        let value = match s.reg.file {
            RegisterFile::ConstBool => self.read_bool(m, s.reg.index),
            RegisterFile::Predicate => m.p0[usize::from(s.swizzle.get(0))],
            other => return Err(internal(format!("a condition cannot be a {other}"))),
        };
        Ok(value != (s.modifier == SrcModifier::Not))
    }

    /// `ifc`/`breakc`: the first selected components compared.
    fn compare_scalars(&self, m: &Machine<'_>, inst: &Instruction) -> Result<bool, InterpError> {
        let Control::Comparison(cmp) = inst.control else {
            return Err(internal("missing comparison"));
        };
        let a = self.read(m, &self.src_param(inst, 0)?)?;
        let b = self.read(m, &self.src_param(inst, 1)?)?;
        Ok(compare(cmp, a[0], b[0]))
    }

    fn read_bool(&self, m: &Machine<'_>, n: u32) -> bool {
        if let Some(&v) = self.def_bools.get(&n) {
            return v;
        }
        n < self.bool_registers && m.b.get(n as usize).copied().unwrap_or(false)
    }

    fn read_int(&self, m: &Machine<'_>, reg: &Register) -> [i32; 4] {
        if let Some(&v) = self.def_ints.get(&reg.index) {
            return v;
        }
        let n = reg.index.min(self.int_registers.saturating_sub(1));
        m.i.get(n as usize).copied().unwrap_or([0; 4])
    }

    /// The index of a register in an array of `limit + 1` elements: direct indices past the
    /// end and relative addresses outside `0..=limit` hit element `limit`.
    fn index(&self, m: &Machine<'_>, reg: &Register, base: u32, limit: u32) -> usize {
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
    fn register(&self, m: &Machine<'_>, reg: &Register) -> Result<[f32; 4], InterpError> {
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
    fn read(&self, m: &Machine<'_>, s: &SrcParam) -> Result<[f32; 4], InterpError> {
        let value = self.read_value(m, s)?;
        if let Some(reads) = &m.reads {
            reads.borrow_mut().push((*s, value));
        }
        Ok(value)
    }

    fn read_value(&self, m: &Machine<'_>, s: &SrcParam) -> Result<[f32; 4], InterpError> {
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
    fn src(&self, m: &Machine<'_>, inst: &Instruction, i: usize) -> Result<[f32; 4], InterpError> {
        self.read(m, &self.src_param(inst, i)?)
    }

    /// A scalar source: component w of the swizzled value.
    fn scalar(&self, m: &Machine<'_>, inst: &Instruction, i: usize) -> Result<f32, InterpError> {
        Ok(self.src(m, inst, i)?[3])
    }

    /// Execute an instruction with a destination; returns what it stored and where
    /// ([`Step::write`]).
    fn arithmetic(
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
            O::M4x4 | O::M4x3 | O::M3x4 | O::M3x3 | O::M3x2 => {
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
                out
            }
            O::TexLdl => {
                // `texldl dst, coord, s#`: xyz the coordinates, w the LOD; the sampler's
                // swizzle picks the texel component of each destination component.
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
                [0, 1, 2, 3].map(|c| texel[usize::from(s.swizzle.get(c))])
            }
            O::Setp => {
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
                return Ok(Some(Written {
                    computed: p,
                    stored: p,
                    mask: written,
                }));
            }
            _ => return Err(self.unsupported(pc, inst, "not a vertex-shader instruction")),
        };
        self.write(m, inst, &dst, value).map(Some)
    }

    /// Which components the instruction's predicate allows (all without one).
    fn predicate(&self, m: &Machine<'_>, inst: &Instruction) -> Result<[bool; 4], InterpError> {
        let Some(p) = inst.predicate else {
            return Ok([true; 4]);
        };
        if p.reg.file != RegisterFile::Predicate {
            return Err(internal("a predicate that is not p0"));
        }
        let not = p.modifier == SrcModifier::Not;
        Ok([0, 1, 2, 3].map(|c| m.p0[usize::from(p.swizzle.get(c))] != not))
    }

    /// Store `value`'s written components: `_sat`, then the predicate, then the mask.
    fn write(
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

/// The value a fixed pre-3.0 output register holds before the shader writes it.
fn fixed_default(reg: Register) -> [f32; 4] {
    fixed_vs_output(reg).map_or([0.0; 4], |s| s.unwritten_value())
}

/// A D3D9 comparison: ordered, except `ne` (NaN gives true), as the lifter emits it.
fn compare(cmp: Comparison, a: f32, b: f32) -> bool {
    match cmp {
        Comparison::Gt => a > b,
        Comparison::Eq => a == b,
        Comparison::Ne => a != b,
        Comparison::Ge => a >= b,
        Comparison::Lt => a < b,
        Comparison::Le => a <= b,
    }
}

fn internal(what: impl Into<String>) -> InterpError {
    InterpError::Internal(what.into())
}
