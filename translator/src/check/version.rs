//! Profiles, instructions and modifiers per version.
//!
//! Which instructions exist in each profile is the opcode table's ([`Opcode::exists_in`]).
//! Sources of the rest: the SDK's "Source Register Modifiers" and "Instruction
//! Modifiers" pages, and Wine's d3d8/d3d9 `test_unsupported_shaders` (profiles above the
//! device caps, vs_2_0/ps_2_0 under D3D8, `rep`/`if`/`defb`/`defi` in ps_2_0). Where the SDK
//! leaves a modifier unstated, Wine's port of the native assembler decides
//! (`check_legacy_srcmod`, `check_abs_srcmod`, `check_shift_dstmod`, `check_ps_dstmod`).
//! Result modifiers: `_sat` per the SDK's "Instruction Modifiers (vs)" (vs_3_0 only) and
//! "Modifiers for ps_2_0 and Above" (not on frc/sincos/tex*, not on oC#/oDepth before
//! ps_3_0); `_centroid` only on `dcl`, `texld*`, `dsx`, `dsy` (SDK "Instruction Modifiers
//! (Pixel Shader)").

use super::{Api, Ctx, InvalidShader, Site, UnsupportedShader};
use crate::bytecode::{
    Instruction, Opcode, RegisterFile, ResultModifier, SrcModifier, Stage, WriteMask,
};
use crate::check::CheckError;

/// The profile against the creation call, the API and the device caps.
pub(super) fn check_profile(ctx: &Ctx<'_>, stage: Stage) -> Result<(), CheckError> {
    let v = ctx.version;
    if v.stage != stage {
        let (shader, api) = match v.stage {
            Stage::Vertex => ("vertex", "pixel"),
            Stage::Pixel => ("pixel", "vertex"),
        };
        return Err(InvalidShader::WrongStage {
            version: v,
            shader,
            api,
        }
        .into());
    }
    // D3D9 profiles start at vs_1_1 / ps_1_1 (vs_1_0 and ps_1_0 are Direct3D 8 versions);
    // Direct3D 8 knows only vs_1_0–vs_1_1 and ps_1_0–ps_1_4 (Wine d3d8 device.c expects
    // vs_2_0 and ps_2_0 to fail there).
    let in_api = match ctx.caps.api {
        Api::D3D9 => v.at_least(1, 1),
        Api::D3D8 => v.major == 1,
    };
    if !in_api {
        let api = match ctx.caps.api {
            Api::D3D9 => "Direct3D 9",
            Api::D3D8 => "Direct3D 8",
        };
        return Err(InvalidShader::ProfileNotInApi { version: v, api }.into());
    }
    let (caps_field, max) = match stage {
        Stage::Vertex => ("VertexShaderVersion", ctx.caps.max_vs_version),
        Stage::Pixel => ("PixelShaderVersion", ctx.caps.max_ps_version),
    };
    // `_x` profiles need the device's 2.0 caps plus the extended caps: accepted when the
    // device reports 2.0 or more (NumTemps etc. decide the rest). `_sw` profiles are
    // software-only: vs_2_sw/vs_3_sw need software vertex processing; ps_*_sw exist only on
    // the reference rasterizer.
    let needed = match v.minor {
        0xFF => (v.major, 0),
        1 if v.major == 2 => (2, 0),
        m => (v.major, m),
    };
    if needed > max {
        return Err(InvalidShader::VersionAboveCaps {
            version: v,
            caps_field,
            major: max.0,
            minor: max.1,
        }
        .into());
    }
    if v.is_software() {
        if stage == Stage::Pixel {
            return Err(UnsupportedShader::SoftwarePixelProfile { version: v }.into());
        }
        if !ctx.caps.vertex_processing.software_limits() {
            return Err(InvalidShader::SoftwareProfileOnHardware { version: v }.into());
        }
    }
    Ok(())
}

/// The opcode, predication, co-issue and modifiers of one instruction against its version.
pub(super) fn check_instruction(
    ctx: &Ctx<'_>,
    inst: &Instruction,
    site: Site,
) -> Result<(), CheckError> {
    let v = ctx.version;
    // Which instructions exist in which version: the one table in `bytecode`.
    if !inst.opcode.exists_in(v) {
        return Err(InvalidShader::OpcodeNotInVersion {
            site,
            opcode: inst.opcode,
            version: v,
        }
        .into());
    }
    let not_in = |what: String| -> CheckError {
        InvalidShader::NotInVersion {
            site,
            what,
            version: v,
        }
        .into()
    };
    // Predication: vs_2_x, vs_3_0, ps_2_x, ps_3_0 (SDK "Predicate register"; Wine's
    // `asmparser_predicate_unsupported` for 1.x and ps_2_0).
    if let Some(p) = &inst.predicate {
        if !ctx.is_2x_or_later() {
            return Err(not_in("predication".into()));
        }
        if p.reg.file != RegisterFile::Predicate {
            return Err(InvalidShader::OperandFile {
                site,
                operand: "predicate",
                expected: "p0",
                reg: super::error::RegName(p.reg),
            }
            .into());
        }
    }
    // Co-issue (`+`) exists only in ps_1_x (Wine: "Coissue is only supported in pixel shaders
    // versions <= 1.4"), and never on the first instruction.
    if inst.coissue && (ctx.is_vs() || v.major >= 2) {
        return Err(not_in("co-issue (+)".into()));
    }
    if inst.coissue && site.index == 0 {
        return Err(not_in("co-issue on the first instruction".into()));
    }
    if let (Some(dst), Some(masks)) = (&inst.dst, inst.opcode.dst_masks()) {
        if !masks.contains(&WriteMask(dst.mask.0 & 0xF)) {
            let allowed: Vec<String> = masks.iter().map(|m| format!(".{m}")).collect();
            return Err(InvalidShader::DestinationMask {
                site,
                opcode: inst.opcode,
                mask: dst.mask,
                allowed: allowed.join(", "),
            }
            .into());
        }
    }
    if let Some(dst) = &inst.dst {
        let m = dst.modifier;
        if m.0
            & !(ResultModifier::SATURATE
                | ResultModifier::PARTIAL_PRECISION
                | ResultModifier::CENTROID)
            != 0
        {
            return Err(not_in(format!("result modifier bits {:#x}", m.0)));
        }
        // _pp and _centroid: pixel shaders 2.0 and later (Wine `check_ps_dstmod`; SDK
        // "Modifiers for ps_2_0 and Above": "not supported on any vertex shader instructions").
        if (m.partial_precision() || m.centroid()) && (ctx.is_vs() || v.major < 2) {
            return Err(not_in("_pp / _centroid".into()));
        }
        // _centroid: only on `dcl` (an input declaration), the texld* instructions, dsx and
        // dsy (SDK "Instruction Modifiers (Pixel Shader)", DirectX 9.0: "supported on
        // dcl_usage ... and on texture lookup instructions ... also on the texld*
        // instructions, dsx and dsy").
        if m.centroid()
            && !matches!(
                inst.opcode,
                Opcode::Dcl
                    | Opcode::Tex
                    | Opcode::TexLdd
                    | Opcode::TexLdl
                    | Opcode::Dsx
                    | Opcode::Dsy
            )
        {
            return Err(not_in(format!("_centroid on {}", inst.opcode)));
        }
        if m.saturate() {
            check_saturate(ctx, inst.opcode, dst.reg.file).map_err(not_in)?;
        }
        // Result shift (_x2, _d2, ...): ps_1_x only (Wine `check_shift_dstmod`); the SDK
        // allows shifts up to x8/d8 in ps_1_4 and x4/d2 in ps_1_1–1_3, D3D9 accepts the
        // encoded range ±3 in every 1.x version.
        if dst.shift != 0 {
            if ctx.is_vs() || v.major >= 2 {
                return Err(not_in(format!("result shift {}", dst.shift)));
            }
            if !(-3..=3).contains(&dst.shift) {
                return Err(not_in(format!("result shift {}", dst.shift)));
            }
        }
    }
    for src in inst.src.iter().chain(inst.predicate.iter()) {
        check_src_modifier(ctx, inst.opcode, src.modifier, src.reg.file)
            .map_err(|what| not_in(what.to_string()))?;
    }
    Ok(())
}

/// Where the `_sat` result modifier is allowed.
///
/// - Vertex shaders: vs_3_0 (and vs_3_sw) only, never on `frc`, `sincos` or `texldl` (SDK
///   "Instruction Modifiers (vs)": the `_sat` row of its version table is marked for 3_0 and
///   3_sw only; HLSL's `saturate` compiles to `max`/`min` in vs_1_1/vs_2_0).
/// - ps_1_x: every instruction (SDK "Instruction Modifiers (ps_1_x)").
/// - ps_2_0 and later: never on `frc`, `sincos` or any `tex*` instruction; in ps_2_0/ps_2_x
///   not on an instruction writing `oC#` or `oDepth` ("This restriction does not apply to
///   ps_3_0") (SDK "Modifiers for ps_2_0 and Above").
fn check_saturate(ctx: &Ctx<'_>, op: Opcode, dst: RegisterFile) -> Result<(), String> {
    use Opcode::*;
    let v = ctx.version;
    if ctx.is_vs() {
        if v.major < 3 {
            return Err("the _sat result modifier (vs_3_0 only)".into());
        }
        if matches!(op, Frc | SinCos | TexLdl) {
            return Err(format!("_sat on {op}"));
        }
        return Ok(());
    }
    if v.major < 2 {
        return Ok(());
    }
    if matches!(op, Frc | SinCos | Tex | TexLdd | TexLdl | TexKill) {
        return Err(format!("_sat on {op}"));
    }
    if v.major == 2 && matches!(dst, RegisterFile::ColorOut | RegisterFile::DepthOut) {
        return Err("_sat on a write to oC#/oDepth (ps_3_0 and later only)".into());
    }
    Ok(())
}

/// Source modifiers per version (SDK "Source Register Modifiers"; Wine asmparser.c).
fn check_src_modifier(
    ctx: &Ctx<'_>,
    op: Opcode,
    m: SrcModifier,
    file: RegisterFile,
) -> Result<(), &'static str> {
    use SrcModifier::*;
    let v = ctx.version;
    match m {
        None | Neg => Ok(()),
        // `!` negates a boolean: only on b# (if/callnz) and p0 (predicates, if, callnz,
        // breakp), never on numbers.
        Not => {
            if matches!(file, RegisterFile::ConstBool | RegisterFile::Predicate) {
                Ok(())
            } else {
                Err("the ! modifier on a non-boolean register")
            }
        }
        // _abs: vs_3_0 and ps_3_0 only (Wine `check_abs_srcmod` in every other version).
        Abs | AbsNeg => {
            if v.major >= 3 {
                Ok(())
            } else {
                Err("the _abs source modifier")
            }
        }
        // The ps_1_x modifiers (bias, bx2, 1-x, x2, dz, dw) do not exist in vertex shaders or
        // in ps_2_0 and later (Wine `check_legacy_srcmod`).
        Bias | BiasNeg | Sign | SignNeg | Comp => {
            if !ctx.is_vs() && v.major == 1 {
                Ok(())
            } else {
                Err("a ps_1_x source modifier (_bias, _bx2, 1-)")
            }
        }
        X2 | X2Neg => {
            if !ctx.is_vs() && v.major == 1 && v.minor == 4 {
                Ok(())
            } else {
                Err("the _x2 source modifier (ps_1_4 only)")
            }
        }
        Dz | Dw => {
            if !ctx.is_vs()
                && v.major == 1
                && v.minor == 4
                && matches!(op, Opcode::Tex | Opcode::TexCoord)
            {
                Ok(())
            } else {
                Err("_dz/_dw (ps_1_4 texld/texcrd only)")
            }
        }
    }
}
