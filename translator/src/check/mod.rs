//! The Direct3D 9 shader validation rules: what `CreateVertexShader` / `CreatePixelShader`
//! accept and refuse, for a device described by [`DeviceCaps`].
//!
//! [`check`] runs every rule family over a decoded [`Program`] and returns a [`CheckedProgram`]
//! (the only way to get one, so later stages can require a checked shader) or a [`CheckError`]:
//! [`CheckError::Invalid`] when a D3D9 runtime refuses the shader, [`CheckError::Unsupported`]
//! when the shader is legal D3D9 that this project does not handle yet.
//!
//! Sources of the rules, in order of authority: the DirectX 9 SDK pages digested in
//! `d3d9-vertex-model.md` (registers, `dcl_usage`), the SDK's per-version register,
//! instruction and flow-control-limit pages, Wine's d3d8/d3d9 tests (which pass on Windows:
//! `invalid_shaders.json`), and where the SDK is silent, what Wine's port of the native
//! assembler (`d3dcompiler_43/asmparser.c`) enforces. Each module states its sources and every
//! choice made where they are silent.
//!
//! Rule families, one module each:
//! - [`version`]: the profile against the API and the device, which instructions and
//!   modifiers a version has, predication and co-issue;
//! - [`registers`]: register files, index ranges, read/write access, relative addressing;
//! - [`ports`]: the number of distinct registers of one file an instruction may read;
//! - [`declarations`]: `dcl` placement, declared inputs/outputs/samplers, semantics and masks;
//! - [`flow`]: block balance, subroutines and labels, `aL` scope, nesting limits;
//! - [`texture_ops`]: the ps_1_x texture-addressing order, `t#` and `texm3x*` chain rules;
//! - [`slots`]: instruction slot limits per version, counted as the SDK counts.

mod declarations;
mod error;
mod flow;
mod ports;
mod registers;
mod slots;
mod texture_ops;
mod version;

#[cfg(test)]
mod tests;

pub use error::{CheckError, FileSize, InvalidShader, RegName, Site, UnsupportedShader};

pub use crate::bytecode::VertexProcessing;

use crate::bytecode::{decode, decode_bytes, CountCap, Opcode, Program, Stage, Version};

/// Which runtime's creation rules apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Api {
    /// `IDirect3DDevice9::Create*Shader`: vs_1_1–vs_3_0, ps_1_1–ps_3_0; vertex inputs must be
    /// declared with `dcl`.
    #[default]
    D3D9,
    /// `IDirect3DDevice8::Create*Shader` / `ValidateVertexShader`: vs_1_0–vs_1_1 and
    /// ps_1_0–ps_1_4 only; vertex inputs are bound by the separate declaration, so a vertex
    /// shader need not `dcl` its inputs.
    D3D8,
}

/// The device capabilities that decide whether a shader is accepted (`D3DCAPS9` fields).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DeviceCaps {
    /// The runtime whose rules apply.
    pub api: Api,
    /// Hardware, software or mixed vertex processing.
    pub vertex_processing: VertexProcessing,
    /// `VertexShaderVersion` as (major, minor).
    pub max_vs_version: (u8, u8),
    /// `PixelShaderVersion` as (major, minor).
    pub max_ps_version: (u8, u8),
    /// `VS20Caps.NumTemps` (12..=32): the r# count of vs_2_x.
    pub vs_num_temps: u32,
    /// `PS20Caps.NumTemps` (12..=32): the r# count of ps_2_x.
    pub ps_num_temps: u32,
    /// `VS20Caps.StaticFlowControlDepth` (1..=4): loop/rep and call nesting in vs_2_x.
    pub vs_static_flow_control_depth: u32,
    /// `VS20Caps.DynamicFlowControlDepth` (0..=24): dynamic `if`/`break` nesting in vs_2_x.
    pub vs_dynamic_flow_control_depth: u32,
    /// `PS20Caps.StaticFlowControlDepth` (0..=4) for ps_2_x.
    pub ps_static_flow_control_depth: u32,
    /// `PS20Caps.DynamicFlowControlDepth` (0..=24) for ps_2_x.
    pub ps_dynamic_flow_control_depth: u32,
    /// `MaxVertexShaderConst`: float constants under hardware vertex processing.
    pub max_vertex_shader_const: u32,
    /// `PS20Caps.NumInstructionSlots` (96..=512): the slot limit of ps_2_x.
    pub ps_num_instruction_slots: u32,
    /// `MaxVertexShader30InstructionSlots` (512..=32768): the slot limit of vs_3_0.
    pub max_vertex_shader_30_instruction_slots: u32,
    /// `MaxPixelShader30InstructionSlots` (512..=32768): the slot limit of ps_3_0.
    pub max_pixel_shader_30_instruction_slots: u32,
    /// Whether instruction slot limits are enforced (D3D9's runtime does; `true` by
    /// default). Wine's d3d9 and DXVK do not count slots, and bytecode from compilers other
    /// than fxc (vkd3d-compiler) may exceed ps_2_0's 64 arithmetic slots where fxc's output
    /// fits: a compatibility layer may turn the count off. Nothing else depends on it: the
    /// translated code has no slot limit.
    pub instruction_slot_limits: bool,
}

impl Default for DeviceCaps {
    /// A D3D9 hardware-vertex-processing device with VS/PS 3.0 and 256 vertex constants, like a
    /// typical shader model 3 card (its 2_x caps at their maxima).
    fn default() -> Self {
        DeviceCaps {
            api: Api::D3D9,
            vertex_processing: VertexProcessing::Hardware,
            max_vs_version: (3, 0),
            max_ps_version: (3, 0),
            vs_num_temps: 32,
            ps_num_temps: 32,
            vs_static_flow_control_depth: 4,
            vs_dynamic_flow_control_depth: 24,
            ps_static_flow_control_depth: 4,
            ps_dynamic_flow_control_depth: 24,
            max_vertex_shader_const: CountCap::MaxVertexShaderConst.typical(),
            ps_num_instruction_slots: 512,
            max_vertex_shader_30_instruction_slots: 32768,
            max_pixel_shader_30_instruction_slots: 32768,
            instruction_slot_limits: true,
        }
    }
}

impl DeviceCaps {
    /// The value this device reports for a capability that sets a register count.
    pub fn count_cap(&self, cap: CountCap) -> u32 {
        match cap {
            CountCap::MaxVertexShaderConst => self.max_vertex_shader_const,
            CountCap::Vs20NumTemps => self.vs_num_temps,
            CountCap::Ps20NumTemps => self.ps_num_temps,
        }
    }

    /// The default device with software vertex processing.
    pub fn software() -> Self {
        DeviceCaps {
            vertex_processing: VertexProcessing::Software,
            ..DeviceCaps::default()
        }
    }

    /// A Direct3D 8 device: VS 1.1, PS 1.4, 256 vertex constants, hardware vertex processing.
    pub fn d3d8() -> Self {
        DeviceCaps {
            api: Api::D3D8,
            max_vs_version: (1, 1),
            max_ps_version: (1, 4),
            ..DeviceCaps::default()
        }
    }
}

/// A program that passed [`check`] for a stage and device. Later stages take this type, so an
/// unchecked program cannot reach them.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedProgram {
    program: Program,
    caps: DeviceCaps,
}

impl CheckedProgram {
    /// The checked program.
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// The device it was checked for.
    pub fn caps(&self) -> &DeviceCaps {
        &self.caps
    }

    /// The program, giving up the proof that it was checked.
    pub fn into_program(self) -> Program {
        self.program
    }
}

impl std::ops::Deref for CheckedProgram {
    type Target = Program;
    fn deref(&self) -> &Program {
        &self.program
    }
}

/// Check `program` as D3D9 would when it is given to the creation call of `stage`
/// (`CreateVertexShader` for [`Stage::Vertex`]) on a device with `caps`.
pub fn check(
    program: &Program,
    stage: Stage,
    caps: &DeviceCaps,
) -> Result<CheckedProgram, CheckError> {
    let ctx = Ctx::new(program, caps);
    version::check_profile(&ctx, stage)?;
    for (index, inst) in program.instructions.iter().enumerate() {
        let site = Site::of(index, inst);
        version::check_instruction(&ctx, inst, site)?;
        registers::check_instruction(&ctx, inst, site)?;
        ports::check_instruction(&ctx, inst, site)?;
    }
    declarations::check(&ctx)?;
    flow::check(&ctx)?;
    texture_ops::check(&ctx)?;
    slots::check(&ctx)?;
    Ok(CheckedProgram {
        program: program.clone(),
        caps: *caps,
    })
}

/// Check a token stream; a stream that does not decode (DXBC, a bad version token, a
/// truncated instruction) is [`InvalidShader::Decode`]: D3D9 refuses it.
pub fn check_tokens(
    tokens: &[u32],
    stage: Stage,
    caps: &DeviceCaps,
) -> Result<CheckedProgram, CheckError> {
    let program = decode(tokens).map_err(|e| CheckError::Invalid(InvalidShader::Decode(e)))?;
    check(&program, stage, caps)
}

/// Check little-endian shader bytes (as `fxc /Fo` writes them); decode errors are
/// [`InvalidShader::Decode`].
pub fn check_bytes(
    bytes: &[u8],
    stage: Stage,
    caps: &DeviceCaps,
) -> Result<CheckedProgram, CheckError> {
    let program = decode_bytes(bytes).map_err(|e| CheckError::Invalid(InvalidShader::Decode(e)))?;
    check(&program, stage, caps)
}

/// What every rule needs: the program, its version and the device.
pub(crate) struct Ctx<'a> {
    pub program: &'a Program,
    pub version: Version,
    pub caps: &'a DeviceCaps,
}

impl<'a> Ctx<'a> {
    fn new(program: &'a Program, caps: &'a DeviceCaps) -> Self {
        Ctx {
            program,
            version: program.version,
            caps,
        }
    }

    /// Whether this shader is validated against software-vertex-processing limits: a vertex
    /// shader on a software or mixed device, or a `_sw` profile.
    pub fn software(&self) -> bool {
        crate::bytecode::software_limits(self.version, self.caps.vertex_processing)
    }

    pub fn is_vs(&self) -> bool {
        self.version.stage == Stage::Vertex
    }

    /// (major, minor) with `_sw` profiles compared as their major's `_0`-and-up.
    pub fn at_least(&self, major: u8, minor: u8) -> bool {
        self.version.at_least(major, minor)
    }

    /// The 2_x-or-later level: 2_x, 2_sw and 3_x.
    pub fn is_2x_or_later(&self) -> bool {
        self.at_least(2, 1)
    }
}

/// Whether `op` executes (everything except `dcl`, `def`, `defi`, `defb`, and the ps_1_4
/// `phase` marker).
pub(crate) fn is_executable(op: Opcode) -> bool {
    !op.is_declaration() && op != Opcode::Phase
}
