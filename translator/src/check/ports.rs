//! Read ports: how many distinct registers of one file a single instruction may read.
//!
//! Source: the "# read ports" column of each profile's "Registers" page in the SDK. Vertex
//! shaders have one `c#` read port in every version: the register tables of vs_1_1, vs_2_0,
//! vs_2_x and vs_3_0 all give `c#` one port (pixel shaders have two), and so does
//! `d3d9-vertex-model.md` §1, so `mad r0, v0, c0, c0` is valid and `mad r0, c0, c0, c1` is
//! not in any vertex shader. Reading the same register twice, with any swizzle or modifier,
//! uses one port. The count covers source operands only (not the relative-address register,
//! not the predicate), and `sincos`'s two fixed constant operands (before 3.0) are not
//! counted.
//!
//! Limits enforced (files not listed are limited only by operand counts):
//!
//! | version        | c# | v# | r# | t# |
//! |----------------|----|----|----|----|
//! | vs_1_1–vs_3_0  | 1  | 1  | 3  |    |
//! | ps_1_1–ps_1_3  | 2  | 2  | 2  | 3  |
//! | ps_1_4         | 2  | 2  | 3  | 1  |
//! | ps_2_0, ps_2_x | 2  | 1  | 3  | 1  |
//! | ps_3_0         | 2  | 1  | 3  |    |
//!
//! The software profiles (`vs_2_sw`, `vs_3_sw`, `ps_2_sw`, `ps_3_sw`) have no read-port
//! limit (the SDK's "Software Shaders" page).
//!
//! The Wine d3d9 test shaders (which Windows accepts) and the vkd3d-compiled shaders of the
//! corpus are the regression set: none of their vertex shaders reads two distinct `c#`.

use super::{Ctx, InvalidShader, Site};
use crate::bytecode::{Instruction, Opcode, RegisterFile, Stage};
use crate::check::CheckError;

/// The read-port limit of `file` in this shader's version (none in the `_sw` profiles).
fn port_limit(ctx: &Ctx<'_>, file: RegisterFile) -> Option<usize> {
    use RegisterFile::*;
    let v = ctx.version;
    if v.is_software() {
        return None;
    }
    match v.stage {
        Stage::Vertex => match file {
            Const => Some(1),
            Input => Some(1),
            Temp => Some(3),
            _ => None,
        },
        Stage::Pixel => match (v.major, v.minor, file) {
            (_, _, Const) => Some(2),
            (1, 4, Temp) => Some(3),
            (1, _, Temp) => Some(2),
            (1, 4, Texture) => Some(1),
            (1, _, Texture) => Some(3),
            (1, _, Input) => Some(2),
            (_, _, Temp) => Some(3),
            (_, _, Input | Texture) => Some(1),
            _ => None,
        },
    }
}

/// Count the distinct registers of each file `inst` reads against the version's ports.
pub(super) fn check_instruction(
    ctx: &Ctx<'_>,
    inst: &Instruction,
    site: Site,
) -> Result<(), CheckError> {
    let mut seen: Vec<(RegisterFile, u32, bool)> = Vec::with_capacity(4);
    // sm2 `sincos dst, src, c#, c#`: the last two operands are the fixed
    // D3DSINCOSCONST1/2 constants the instruction requires; they are not counted against the
    // ports (Wine's `sin_shader_code`/`cos_shader_code` read two c# in vs_2_0).
    let counted = if inst.opcode == Opcode::SinCos && inst.src.len() == 3 {
        &inst.src[..1]
    } else {
        &inst.src[..]
    };
    for src in counted {
        // c2048.. in software shaders use the CONST2..4 types but are the same file.
        let (file, index) = match src.reg.float_constant_index() {
            Some(flat) => (RegisterFile::Const, flat),
            None => (src.reg.file, src.reg.index),
        };
        let key = (file, index, src.reg.relative.is_some());
        if !seen.contains(&key) {
            seen.push(key);
        }
    }
    for &(file, _, _) in &seen {
        let Some(limit) = port_limit(ctx, file) else {
            continue;
        };
        let count = seen.iter().filter(|k| k.0 == file).count();
        if count > limit {
            return Err(InvalidShader::ReadPorts {
                site,
                file,
                count,
                limit,
                version: ctx.version,
            }
            .into());
        }
    }
    Ok(())
}
