//! The program-wide state the lifter owns besides the function under construction
//! (`function`): the register file (register counts, `def`s, relative addressing), the I/O map
//! (signature, the inputs read directly), the resource map (the naga global of each register
//! and binding, the sampler declarations) and ps_1_x's pending state. Plain state, decided
//! from the program and the device before lifting or filled as the lifter goes; the verbs
//! that use it are in `builder` and the lowering modules.

use super::function::Value;
use crate::bytecode::{
    file_rule, float_constants, software_limits, DstParam, Program, RegisterFile, SrcParam,
    TextureType,
};
use crate::check::DeviceCaps;
use crate::decl::{FetchSource, InputFetch};
use crate::signature::Signature;
use naga::{Expression, GlobalVariable, Handle};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Which global a register lives in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum RegKey {
    Temp(u32),
    Addr,
    Loop,
    Pred,
    /// The `v` array (16 inputs + a zero element for out-of-range relative reads), when the
    /// shader indexes `v#` relatively.
    Inputs,
    /// `v#n` on its own, when nothing indexes `v#` relatively.
    Input(u32),
    /// The `o` array of vs_3_0 (12 outputs + an element that swallows out-of-range writes),
    /// when the shader indexes `o#` relatively.
    Outputs,
    /// vs_3_0 `o#n` on its own, when nothing indexes `o#` relatively.
    Output(u32),
    /// oPos/oFog/oPts, oD#, oT# before vs_3_0.
    Fixed(RegisterFile, u32),
    /// Pixel-shader registers outside the shared files: `t#` (texture coordinates), `vPos` /
    /// `vFace` (`MiscType`), `oC#` and `oDepth`, each a zero-initialised `vec4<f32>`.
    Pixel(RegisterFile, u32),
    FloatConsts,
    /// Where `c#0` is in the window of `c#` registers (`constants_window`): the entry
    /// point's `instance_index`.
    ConstantsBase,
    IntConsts,
    BoolConsts,
    PositionFixup,
    /// The ps_1_x bump-environment uniform.
    BumpEnv,
    /// The fog render states of the pixel stage's fixed-function fog.
    Fog,
    /// The alpha test's reference.
    AlphaRef,
    /// The point expansion's render states.
    Points,
    /// The user clip planes' uniform.
    ClipPlanes,
    Texture(u32),
    Sampler(u32),
}

/// Constants the shader defines itself.
#[derive(Default)]
pub(super) struct Defs {
    pub floats: BTreeMap<u32, [u32; 4]>,
    pub ints: BTreeMap<u32, [i32; 4]>,
    pub bools: BTreeMap<u32, bool>,
}

/// The register file of the program as the device runs it.
pub(super) struct Registers {
    /// Software vertex processing: 8192 `c#`, 2048 `i#`/`b#`, constants in storage.
    pub software: bool,
    /// Float constant registers addressable (256, or 8192 in software vertex processing).
    pub float_registers: u32,
    /// `i#` registers: 16, or 2048 in software vertex processing.
    pub int_registers: u32,
    /// `b#` registers: 16, or 2048 in software vertex processing.
    pub bool_registers: u32,
    /// vs_3_0 `o#` registers (12).
    pub output_registers: u32,
    /// Input registers `v#` (16 in vertex shaders, 10 in ps_3_0, 2 before).
    pub input_registers: u32,
    /// The constants the shader defines itself (collected before lifting).
    pub defs: Defs,
    /// Whether any `v#` read is relative (then `v#` is an array, else one variable each).
    pub relative_inputs: bool,
    /// Whether any vs_3_0 `o#` write is relative (then `o#` is an array).
    pub relative_outputs: bool,
    /// `(base, count)` of relative float-constant reads.
    pub relative_reads: Vec<(u32, u32)>,
    /// The module's `c#` accesses: every direct index is below this, and whether any index
    /// is a run-time one (`ShaderInterface::float_constants_read`).
    pub float_read_end: u32,
    pub float_read_relative: bool,
    /// `v#` registers fetched from integer or normalised declaration types (finite values).
    pub finite_inputs: BTreeSet<u32>,
}

impl Registers {
    /// The register file of `program` on a device of `caps`: counts from the register-file
    /// table (`bytecode::file_rule`), with the vertex fetches `fetches` where the declaration
    /// is known.
    pub fn new(program: &Program, caps: &DeviceCaps, fetches: Option<&[InputFetch]>) -> Self {
        let vp = caps.vertex_processing;
        let version = program.version;
        let count = |file| {
            file_rule(version, file, vp).map_or(0, |r| r.count.on_device(|c| caps.count_cap(c)))
        };
        Registers {
            software: software_limits(version, vp),
            float_registers: float_constants(version, vp).on_device(|c| caps.count_cap(c)),
            int_registers: count(RegisterFile::ConstInt),
            bool_registers: count(RegisterFile::ConstBool),
            output_registers: count(RegisterFile::Output),
            input_registers: count(RegisterFile::Input),
            defs: Defs::default(),
            relative_inputs: program.instructions.iter().any(|i| {
                i.src
                    .iter()
                    .any(|s| s.reg.file == RegisterFile::Input && s.reg.relative.is_some())
            }),
            relative_outputs: program.instructions.iter().any(|i| {
                i.dst
                    .is_some_and(|d| d.reg.file == RegisterFile::Output && d.reg.relative.is_some())
            }),
            relative_reads: Vec::new(),
            float_read_end: 0,
            float_read_relative: false,
            finite_inputs: fetches
                .into_iter()
                .flatten()
                .filter(|f| match f.source {
                    FetchSource::Attribute { format, .. } => !float_format(format),
                    // A missing element reads the zero-initialised register.
                    FetchSource::Missing => true,
                })
                .map(|f| f.register)
                .collect(),
        }
    }
}

/// Whether a vertex format delivers floats that may be inf or NaN (every other format is an
/// integer or a normalised integer, always finite).
fn float_format(format: wgpu_types::VertexFormat) -> bool {
    use wgpu_types::VertexFormat as F;
    matches!(
        format,
        F::Float16
            | F::Float16x2
            | F::Float16x4
            | F::Float32
            | F::Float32x2
            | F::Float32x3
            | F::Float32x4
            | F::Float64
            | F::Float64x2
            | F::Float64x3
            | F::Float64x4
    )
}

/// Where the shader's inputs and outputs are.
pub(super) struct IoMap {
    /// The shader's semantics, computed once.
    pub signature: Signature,
    /// The converted value of each input register (`v#`, and ps_2_x `t#`) when `main` is
    /// lifted into the entry point (read directly instead of through a register).
    pub input_values: HashMap<(RegisterFile, u32), Handle<Expression>>,
}

/// The module's global variables and the samplers the shader declares.
#[derive(Default)]
pub(super) struct ResourceMap {
    /// The naga global of each register, constant file and binding, made on first use.
    pub globals: HashMap<RegKey, Handle<GlobalVariable>>,
    /// `dcl_2d s#` and friends (ps_1_x: from the options, by stage).
    pub samplers: BTreeMap<u32, TextureType>,
    /// The pipeline-overridable constants of each `i#` a loop reads (flag, x, y, z; see
    /// `loop_constants`).
    pub loop_overrides: BTreeMap<u32, [Handle<naga::Override>; 4]>,
}

/// ps_1_x state carried between instructions.
#[derive(Default)]
pub(super) struct Ps1State {
    /// Writes held back while a co-issued pair is lifted: both instructions read their
    /// sources before either writes.
    pub deferred: Option<Vec<(DstParam, Value, Option<SrcParam>)>>,
    /// The interpolated texture coordinate of each `t#` (ps_1_x `main` is always lifted into
    /// the entry point, with no flow control, so these values reach every instruction).
    pub coords: HashMap<u32, Handle<Expression>>,
    /// ps_1_1–1_3: the dot products of the pending `texm3x2pad`/`texm3x3pad` rows, with the
    /// `t#` each was computed for.
    pub pads: Vec<(u32, Handle<Expression>)>,
}
