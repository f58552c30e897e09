//! Register files, index ranges, read/write access and relative addressing per version and
//! vertex-processing mode.
//!
//! Sources: `d3d9-vertex-model.md` §1 (vs_3_0 registers), the SDK's "Registers" page of each
//! profile, `D3DCAPS9` (`MaxVertexShaderConst`, `VS20Caps.NumTemps`, `PS20Caps.NumTemps`),
//! Wine's `test_unsupported_shaders` (c256 under hardware vertex processing, i16, b16, c8 in
//! ps_1_x, c32 in ps_2_0, c224 in ps_3_0; c256 accepted on software and mixed devices) and,
//! where those are silent, the register tables of Wine's port of the native assembler
//! (`vs_1_reg_allowed` ... `ps_3_reg_allowed`).
//!
//! Choices where the SDK is silent:
//! - Software limits (8192 `c#`, 2048 `i#`/`b#`) apply to every vertex shader version on a
//!   software or mixed device, and to `vs_2_sw`/`vs_3_sw`; `c2048..` are encoded with the
//!   `CONST2..CONST4` register types and are legal only there.
//! - Relative addressing: `c#` by `a0` (all vertex versions) or `aL` (vs_2_0+, and ps_3_0,
//!   which Wine's assembler refuses but the SDK's loop page allows); `v#` and `o#` only by `aL`
//!   and only in vs_3_0 / ps_3_0 (`v#`); nothing else is relatively addressable.
//! - A relatively addressed `c#` is not range-checked (its index is only a base, as Wine's
//!   `check_reg_type` notes); the translator clamps it at run time.

use super::error::RegName;
use super::{Ctx, InvalidShader, Site};
use crate::bytecode::{Instruction, Opcode, Register, RegisterFile, Stage};
use crate::check::CheckError;

/// How an instruction uses a register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Access {
    Read,
    Write,
    /// The destination of `dcl`.
    Declare,
    /// The destination of `def`/`defi`/`defb`.
    Define,
}

impl Access {
    fn verb(self) -> &'static str {
        match self {
            Access::Read => "read",
            Access::Write => "written",
            Access::Declare => "declared",
            Access::Define => "defined",
        }
    }
}

/// The number of registers of `file` in this shader, and the mode that number depends on;
/// `None` when the file does not exist in this version.
pub(super) fn file_limit(ctx: &Ctx<'_>, file: RegisterFile) -> Option<(u32, &'static str)> {
    use RegisterFile::*;
    let v = ctx.version;
    let sw = ctx.software();
    let mode = if sw {
        " under software vertex processing"
    } else if ctx.is_vs() {
        " under hardware vertex processing"
    } else {
        ""
    };
    let plain = |n: u32| Some((n, ""));
    match v.stage {
        Stage::Vertex => match file {
            Temp => match (v.major, v.minor) {
                (1, _) | (2, 0) => plain(12),
                (2, 1) => Some((ctx.caps.vs_num_temps.clamp(12, 32), " (VS20Caps.NumTemps)")),
                _ => plain(32),
            },
            Input => plain(16),
            Const => Some(if sw {
                (2048, mode)
            } else {
                (ctx.caps.max_vertex_shader_const.min(8192), mode)
            }),
            Const2 | Const3 | Const4 if sw => Some((2048, mode)),
            Addr => plain(1),
            RastOut if v.major < 3 => plain(3),
            AttrOut if v.major < 3 => plain(2),
            TexCrdOut if v.major < 3 => plain(8),
            Output if v.major >= 3 => plain(12),
            ConstInt | ConstBool if v.major >= 2 => {
                Some(if sw { (2048, mode) } else { (16, mode) })
            }
            Loop | Label if v.major >= 2 => Some((if file == Loop { 1 } else { 2048 }, "")),
            Predicate if ctx.is_2x_or_later() => plain(1),
            Sampler if v.major >= 3 => plain(4),
            _ => None,
        },
        Stage::Pixel => match (v.major, v.minor, file) {
            (1, _, Const) => plain(8),
            (1, 4, Temp) => plain(6),
            (1, _, Temp) => plain(2),
            (1, 4, Texture) => plain(6),
            (1, _, Texture) => plain(4),
            (1, _, Input) => plain(2),
            (2, m, Temp) => {
                if m == 0 {
                    plain(12)
                } else {
                    Some((ctx.caps.ps_num_temps.clamp(12, 32), " (PS20Caps.NumTemps)"))
                }
            }
            (2, _, Input) => plain(2),
            (2, _, Const) => plain(32),
            (2, _, Texture) => plain(8),
            (2, m, ConstInt | ConstBool) if m != 0 => plain(16),
            (2, m, Predicate) if m != 0 => plain(1),
            (2, m, Label) if m != 0 => plain(2048),
            (3, _, Input) => plain(10),
            (3, _, Temp) => plain(32),
            (3, _, Const) => plain(224),
            (3, _, ConstInt | ConstBool) => plain(16),
            (3, _, Predicate | Loop) => plain(1),
            (3, _, Label) => plain(2048),
            (3, _, MiscType) => plain(2),
            (2 | 3, _, Sampler) => plain(16),
            (2 | 3, _, ColorOut) => plain(4),
            (2 | 3, _, DepthOut) => plain(1),
            _ => None,
        },
    }
}

/// Whether `file` may be accessed as `access` by `op` in this shader.
fn access_allowed(ctx: &Ctx<'_>, file: RegisterFile, access: Access, op: Opcode) -> bool {
    use RegisterFile::*;
    let v = ctx.version;
    match access {
        Access::Define => match op {
            Opcode::Def => matches!(file, Const),
            Opcode::Defi => file == ConstInt,
            Opcode::Defb => file == ConstBool,
            _ => false,
        },
        Access::Declare => match v.stage {
            // vs < 3.0 declares inputs only; vs_3_0 inputs, outputs and samplers.
            Stage::Vertex => match file {
                Input => true,
                Output | Sampler => v.major >= 3,
                _ => false,
            },
            // ps_2_x: v#, t#, s#; ps_3_0: v#, vPos/vFace, s#.
            Stage::Pixel => match file {
                Input | Sampler => v.major >= 2,
                Texture => v.major == 2,
                MiscType => v.major >= 3,
                _ => false,
            },
        },
        Access::Read => !matches!(
            file,
            RastOut | AttrOut | TexCrdOut | Output | ColorOut | DepthOut
        ),
        Access::Write => match file {
            Temp | Predicate => true,
            // vs_1_1 writes a0 with mov; vs_2_0+ only with mova.
            Addr => {
                if v.major == 1 {
                    op == Opcode::Mov
                } else {
                    op == Opcode::Mova
                }
            }
            RastOut | AttrOut | TexCrdOut | Output | ColorOut | DepthOut => true,
            // ps_1_x texture registers are written by the texture-addressing instructions
            // (and, in ps_1_1–1_3, may serve as temporaries); from ps_1_4 on they are inputs.
            Texture => v.major == 1 && v.minor < 4,
            _ => false,
        },
    }
}

/// Range, access and relative addressing of every register `inst` names.
pub(super) fn check_instruction(
    ctx: &Ctx<'_>,
    inst: &Instruction,
    site: Site,
) -> Result<(), CheckError> {
    if let Some(dst) = &inst.dst {
        let access = match inst.opcode {
            Opcode::Dcl => Access::Declare,
            Opcode::Def | Opcode::Defi | Opcode::Defb => Access::Define,
            // `texkill` names the register it tests in its destination slot: a read.
            Opcode::TexKill => Access::Read,
            _ => Access::Write,
        };
        check_register(ctx, &dst.reg, access, inst.opcode, site)?;
        if inst.opcode == Opcode::Mova && dst.reg.file != RegisterFile::Addr {
            return Err(operand(site, "destination", "a0", dst.reg));
        }
    }
    for src in inst.src.iter().chain(inst.predicate.iter()) {
        check_register(ctx, &src.reg, Access::Read, inst.opcode, site)?;
    }
    Ok(())
}

pub(super) fn operand(
    site: Site,
    operand: &'static str,
    expected: &'static str,
    reg: Register,
) -> CheckError {
    InvalidShader::OperandFile {
        site,
        operand,
        expected,
        reg: RegName(reg),
    }
    .into()
}

fn check_register(
    ctx: &Ctx<'_>,
    reg: &Register,
    access: Access,
    op: Opcode,
    site: Site,
) -> Result<(), CheckError> {
    use RegisterFile::*;
    let v = ctx.version;
    let Some((limit, mode)) = file_limit(ctx, reg.file) else {
        return Err(InvalidShader::RegisterAccess {
            site,
            reg: RegName(*reg),
            file: reg.file,
            access: access.verb(),
            version: v,
        }
        .into());
    };
    if !access_allowed(ctx, reg.file, access, op) {
        return Err(InvalidShader::RegisterAccess {
            site,
            reg: RegName(*reg),
            file: reg.file,
            access: access.verb(),
            version: v,
        }
        .into());
    }
    if let Some(rel) = reg.relative {
        let by_loop = rel.file == Loop;
        let ok = match (v.stage, reg.file) {
            (Stage::Vertex, Const) => !by_loop || v.major >= 2,
            (Stage::Vertex, Input | Output) => v.major >= 3 && by_loop,
            (Stage::Pixel, Input) => v.major >= 3 && by_loop,
            (Stage::Pixel, Const) => v.major >= 3 && by_loop,
            _ => false,
        };
        // The address register itself must exist: a0 in vertex shaders, aL from 2.0.
        let addr_ok = match rel.file {
            Addr => v.stage == Stage::Vertex && rel.index == 0,
            Loop => v.major >= 2 && rel.index == 0,
            _ => false,
        };
        if !ok || !addr_ok {
            return Err(InvalidShader::RelativeAddressing {
                site,
                reg: RegName(*reg),
                version: v,
            }
            .into());
        }
    }
    // The index (with relative addressing: the base index) must name a register of the file.
    if reg.index >= limit {
        return Err(InvalidShader::RegisterOutOfRange {
            site,
            reg: RegName(*reg),
            file: reg.file,
            limit,
            version: v,
            mode,
        }
        .into());
    }
    Ok(())
}
