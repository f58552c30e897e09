//! The state of a run: the registers of one vertex ([`Machine`]), the constant registers
//! prepared for running ([`ConstantFile`]), the open loops, and what an observer of the run
//! sees of each instruction ([`Step`]). Plain state: the interpreter (`exec`) and its
//! operand reads (`operands`), arithmetic (`arith`) and writes (`writes`) use it.

use super::texture::VertexTextures;
use crate::bytecode::{Instruction, Register, SrcParam, VERTEX_INPUTS};
use crate::signature::fixed_vs_output;

/// The constant registers prepared for running
/// ([`Interpreter::constant_file`](super::Interpreter::constant_file)).
#[derive(Debug, Clone, PartialEq)]
pub struct ConstantFile {
    pub(super) c: Vec<[f32; 4]>,
    pub(super) i: Vec<[i32; 4]>,
    pub(super) b: Vec<bool>,
}

/// An open loop or rep.
#[derive(Debug, Clone, Copy)]
pub(super) struct LoopFrame {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) count: i32,
    pub(super) bound: i32,
    /// `loop`: (aL value, step, the enclosing aL to restore).
    pub(super) al: Option<(i32, i32, i32)>,
    /// The call depth it belongs to.
    pub(super) depth: usize,
}

/// One executed instruction as an observer of
/// [`Interpreter::run_observed`](super::Interpreter::run_observed) sees it: what it read and
/// what it wrote, so that a caller can follow values through a run (the differential test
/// derives each output's error bound from its own operands this way).
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
pub(super) struct Machine<'p> {
    pub(super) r: Vec<[f32; 4]>,
    pub(super) v: [[f32; 4]; VERTEX_INPUTS as usize + 1],
    pub(super) o: Vec<[f32; 4]>,
    pub(super) rast: [[f32; 4]; 3],
    pub(super) attr: [[f32; 4]; 2],
    pub(super) texcrd: [[f32; 4]; 8],
    pub(super) a0: [i32; 4],
    pub(super) al: i32,
    pub(super) p0: [bool; 4],
    pub(super) c: &'p [[f32; 4]],
    pub(super) i: &'p [[i32; 4]],
    pub(super) b: &'p [bool],
    pub(super) textures: &'p VertexTextures<'p>,
    pub(super) steps: u64,
    /// The reads of the current instruction, when an observer follows the run.
    pub(super) reads: Option<std::cell::RefCell<Vec<Read>>>,
}

/// The value a fixed pre-3.0 output register holds before the shader writes it.
pub(super) fn fixed_default(reg: Register) -> [f32; 4] {
    fixed_vs_output(reg).map_or([0.0; 4], |s| s.unwritten_value())
}
