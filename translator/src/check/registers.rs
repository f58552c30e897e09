//! Register files, index ranges, read/write access and relative addressing per version and
//! vertex-processing mode.
//!
//! Which files exist, their sizes and which may be relatively addressed come from the one table
//! in [`crate::bytecode::file_rule`] (its module states the sources and the choices made where
//! the SDK is silent); this module applies it with the device's caps and adds the rules that
//! depend on the instruction: which files an instruction may write, declare or define.
//! A relatively addressed `c#` is not range-checked beyond its base (its index is only a base,
//! as Wine's `check_reg_type` notes); the translator clamps it at run time.

use super::error::{FileSize, RegName};
use super::{Ctx, InvalidShader, Site};
use crate::bytecode::{
    file_rule, CountCap, FileRule, Instruction, Opcode, Register, RegisterCount, RegisterFile,
    Stage,
};
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

/// The rule of `file` in this shader (`None` when the file does not exist in this version),
/// the number of its registers on this device, and what set that number.
pub(super) fn file_limit(ctx: &Ctx<'_>, file: RegisterFile) -> Option<(FileRule, u32, FileSize)> {
    let rule = file_rule(ctx.version, file, ctx.caps.vertex_processing)?;
    let limit = rule.count.on_device(|cap| ctx.caps.count_cap(cap));
    let set_by = match rule.count {
        RegisterCount::Cap(cap @ (CountCap::Vs20NumTemps | CountCap::Ps20NumTemps)) => {
            FileSize::Cap(cap)
        }
        _ if ctx.is_vs()
            && matches!(
                file,
                RegisterFile::Const
                    | RegisterFile::Const2
                    | RegisterFile::Const3
                    | RegisterFile::Const4
                    | RegisterFile::ConstInt
                    | RegisterFile::ConstBool
            ) =>
        {
            FileSize::VertexProcessing {
                software: ctx.software(),
            }
        }
        _ => FileSize::Version,
    };
    Some((rule, limit, set_by))
}

/// Whether `file` may be accessed as `access` by `op` in this shader.
fn access_allowed(ctx: &Ctx<'_>, file: RegisterFile, access: Access, op: Opcode) -> bool {
    use RegisterFile::*;
    let v = ctx.version;
    match access {
        Access::Define => match op {
            // `def c3056` in a software shader defines a `CONST2` register.
            Opcode::Def => file.const_bank().is_some(),
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
        Access::Read => file.is_readable(),
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
    for (i, src) in inst.src.iter().enumerate() {
        check_register(ctx, &src.reg, Access::Read, inst.opcode, site)?;
        if let Some(expected) = special_source(inst.opcode, i, src.reg.file) {
            return Err(operand(site, "source", expected, src.reg));
        }
    }
    for src in inst.predicate.iter() {
        check_register(ctx, &src.reg, Access::Read, inst.opcode, site)?;
    }
    // The sampler operand of `texld*` (ps_2_0+: `texld dst, coord, s#`), `texldd` and
    // `texldl` is an `s#` (the SDK's source tables); the ps_1_x `tex` forms have none.
    if matches!(inst.opcode, Opcode::Tex | Opcode::TexLdd | Opcode::TexLdl) {
        if let Some(s) = inst
            .src
            .get(1)
            .filter(|s| s.reg.file != RegisterFile::Sampler)
        {
            return Err(operand(site, "source 1", "a sampler s#", s.reg));
        }
    }
    Ok(())
}

/// Labels, samplers, `b#`, `i#` and `p0` are operands of particular instructions only (the
/// SDK's per-instruction source tables: `call l#`, `callnz l#, b#/p0`, `if b#/p0`,
/// `breakp p0`, `loop aL, i#`, `rep i#`, `texld*/texldl …, s#`); read anywhere else (as an
/// arithmetic source, say) the shader is refused. `None` when `file` may stand at source `i`
/// of `op`; otherwise what a source of that file is not.
fn special_source(op: Opcode, i: usize, file: RegisterFile) -> Option<&'static str> {
    use Opcode as O;
    use RegisterFile::*;
    let allowed = match file {
        Label => matches!((op, i), (O::Call | O::CallNz | O::Label, 0)),
        ConstBool => matches!((op, i), (O::If, 0) | (O::CallNz, 1)),
        Predicate => matches!((op, i), (O::If | O::Breakp, 0) | (O::CallNz, 1)),
        ConstInt => matches!((op, i), (O::Loop, 1) | (O::Rep, 0)),
        Sampler => matches!((op, i), (O::Tex | O::TexLdd | O::TexLdl, 1)),
        _ => return None,
    };
    (!allowed).then_some("a register this instruction can read (l#, b#, i#, p0 and s# are the operands of call, if, loop/rep and texture instructions only)")
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
    let Some((rule, limit, set_by)) = file_limit(ctx, reg.file) else {
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
        // The file must allow this address register, and the address register must exist
        // (a0 in vertex shaders, aL from 2.0; one of each).
        let addr_ok = file_limit(ctx, rel.file)
            .is_some_and(|(_, count, _)| matches!(rel.file, Addr | Loop) && rel.index < count);
        if !rule.relative_by(rel.file) || !addr_ok {
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
            set_by,
        }
        .into());
    }
    Ok(())
}
