//! Declarations: where `dcl` may stand, what must be declared, and the output-semantic rules
//! of vs_3_0.
//!
//! Sources: `d3d9-vertex-model.md` §2 (`dcl_usage` for outputs: dcl before code, disjoint
//! masks, no semantic twice, position once with the full mask, psize full mask and alone),
//! the SDK's "Requires DCL" register column (v# in every D3D9 vertex shader; v#/t#/s# in
//! ps_2_x; v#/s#/vPos/vFace in ps_3_0; o#/s# in vs_3_0), and Wine's `test_position_index`
//! (`dcl_position0 v0` refused in ps_3_0, `dcl_position1` accepted).
//!
//! Choices where the SDK is silent:
//! - Declarations are matched per register, not per component: reading `v0.w` after
//!   `dcl_texcoord v0.xy` is accepted (the missing components read their defaults), and so is
//!   writing outside the declared mask of an `o#` (the write is dropped by linkage). The SDK
//!   states no per-component rule, and Microsoft's own compiler emits such shaders (`texld r0,
//!   v0, s0` after `dcl_texcoord v0.xy` reads all four components): vkd3d-shader's IR
//!   normalises "SM1-3 write masks that exceed the signature element masks" (vkd3d commit
//!   321fda9c, `ir.c`) instead of refusing them.
//! - A relatively addressed `v[aL + n]` / `o[aL + n]` needs no declaration of its own: its
//!   target is only known at run time and reads/writes undeclared registers as defaults.
//! - Under Direct3D 8, vertex inputs are bound by the separate declaration, so undeclared `v#`
//!   is accepted (Wine's d3d8 `vs_code` has no `dcl`).
//! - The "semantic declared twice" rule applies to semantic declarations of `v#` (vertex
//!   inputs, ps_3_0 inputs) and `o#`; ps_2_x `dcl t0`/`dcl v0` carry no semantic.

use super::error::RegName;
use super::{is_executable, Api, Ctx, InvalidShader, Site};
use crate::bytecode::{
    Declaration, Instruction, Opcode, Register, RegisterFile, Stage, TextureType, Usage, WriteMask,
};
use crate::check::CheckError;

struct Decl {
    site: Site,
    reg: Register,
    mask: WriteMask,
    usage: Option<(Usage, u8)>,
}

/// Every declaration rule over the whole program.
pub(super) fn check(ctx: &Ctx<'_>) -> Result<(), CheckError> {
    let insts = &ctx.program.instructions;
    let v = ctx.version;
    let first_exec = insts.iter().position(|i| is_executable(i.opcode));
    let mut decls: Vec<Decl> = Vec::new();
    let mut samplers: Vec<u32> = Vec::new();
    for (index, inst) in insts.iter().enumerate() {
        if inst.opcode != Opcode::Dcl {
            continue;
        }
        let site = Site::of(index, inst);
        if let Some(first) = first_exec.filter(|&f| f < index) {
            return Err(InvalidShader::DeclarationAfterCode { site, first }.into());
        }
        let Some(dst) = inst.dst else { continue };
        match inst.decl {
            Some(Declaration::Sampler(ty)) => {
                if dst.reg.file != RegisterFile::Sampler || ty == TextureType::Unknown {
                    return Err(bad(
                        site,
                        format!("dcl_{} {}", ty.name(), RegName(dst.reg)),
                        ctx,
                    ));
                }
                if samplers.contains(&dst.reg.index) {
                    return Err(bad(
                        site,
                        format!("{} a second time", RegName(dst.reg)),
                        ctx,
                    ));
                }
                samplers.push(dst.reg.index);
            }
            Some(Declaration::Semantic { usage, index: uidx }) => {
                if dst.reg.file == RegisterFile::Sampler {
                    return Err(bad(
                        site,
                        format!("a semantic on {}", RegName(dst.reg)),
                        ctx,
                    ));
                }
                let semantic = match (v.stage, dst.reg.file) {
                    (Stage::Vertex, _) => true,
                    (Stage::Pixel, RegisterFile::Input) => v.major >= 3,
                    _ => false,
                };
                if v.stage == Stage::Pixel
                    && v.major >= 3
                    && dst.reg.file == RegisterFile::Input
                    && usage == Usage::Position
                    && uidx == 0
                {
                    return Err(InvalidShader::PixelPosition0 { site }.into());
                }
                decls.push(Decl {
                    site,
                    reg: dst.reg,
                    mask: dst.mask,
                    usage: semantic.then_some((usage, uidx)),
                });
            }
            None => {}
        }
    }
    // The vs_3_0 output rules first: a psize sharing its register would otherwise only be
    // reported as an overlapping mask.
    if v.stage == Stage::Vertex && v.major >= 3 {
        check_vs3_outputs(&decls)?;
    }
    check_masks_and_semantics(&decls)?;
    check_uses(ctx, &decls, &samplers)
}

fn bad(site: Site, what: String, ctx: &Ctx<'_>) -> CheckError {
    InvalidShader::BadDeclaration {
        site,
        what,
        version: ctx.version,
    }
    .into()
}

/// One register may be declared several times only with disjoint masks; one semantic only
/// once per direction (inputs, outputs).
fn check_masks_and_semantics(decls: &[Decl]) -> Result<(), CheckError> {
    for (i, d) in decls.iter().enumerate() {
        for e in &decls[..i] {
            if e.reg.file == d.reg.file && e.reg.index == d.reg.index && e.mask.overlaps(d.mask) {
                return Err(InvalidShader::OverlappingDeclaration {
                    site: d.site,
                    reg: RegName(d.reg),
                    mask: d.mask,
                }
                .into());
            }
            let same_direction =
                (e.reg.file == RegisterFile::Output) == (d.reg.file == RegisterFile::Output);
            if let (Some(a), Some(b)) = (e.usage, d.usage) {
                if same_direction && a == b {
                    return Err(InvalidShader::SemanticDeclaredTwice {
                        site: d.site,
                        usage: b.0,
                        index: b.1,
                    }
                    .into());
                }
            }
        }
    }
    Ok(())
}

/// vs_3_0 outputs: exactly one position (POSITION0 or POSITIONT0) with the full mask; psize
/// with the full mask and alone in its register.
fn check_vs3_outputs(decls: &[Decl]) -> Result<(), CheckError> {
    let outputs = || decls.iter().filter(|d| d.reg.file == RegisterFile::Output);
    let mut position = None;
    for d in outputs() {
        let Some((usage, index)) = d.usage else {
            continue;
        };
        let is_position = matches!(usage, Usage::Position | Usage::PositionT) && index == 0;
        if is_position {
            if position.is_some() {
                return Err(InvalidShader::PositionDeclaredTwice { site: d.site }.into());
            }
            position = Some(d.site);
        }
        if (is_position || usage == Usage::PSize) && d.mask != WriteMask::ALL {
            return Err(InvalidShader::PartialMask {
                site: d.site,
                usage,
                reg: RegName(d.reg),
                mask: d.mask,
            }
            .into());
        }
        if usage == Usage::PSize {
            if let Some(other) = outputs().find(|e| e.reg.index == d.reg.index && e.site != d.site)
            {
                return Err(InvalidShader::PsizeShared {
                    site: other.site.max_by_index(d.site),
                    reg: RegName(d.reg),
                }
                .into());
            }
        }
    }
    if position.is_none() {
        return Err(InvalidShader::MissingPosition.into());
    }
    Ok(())
}

impl Site {
    fn max_by_index(self, other: Site) -> Site {
        if other.index > self.index {
            other
        } else {
            self
        }
    }
}

/// Whether `reg`, used by an instruction, needs a declaration in this shader.
fn needs_declaration(ctx: &Ctx<'_>, reg: &Register) -> bool {
    use RegisterFile::*;
    if reg.relative.is_some() {
        return false;
    }
    let v = ctx.version;
    match v.stage {
        Stage::Vertex => match reg.file {
            Input => ctx.caps.api == Api::D3D9,
            Output | Sampler => v.major >= 3,
            _ => false,
        },
        Stage::Pixel => match reg.file {
            Input | Sampler => v.major >= 2,
            Texture => v.major == 2,
            MiscType => v.major >= 3,
            _ => false,
        },
    }
}

/// Every register that needs a declaration is declared.
fn check_uses(ctx: &Ctx<'_>, decls: &[Decl], samplers: &[u32]) -> Result<(), CheckError> {
    let declared = |reg: &Register| -> bool {
        if reg.file == RegisterFile::Sampler {
            return samplers.contains(&reg.index);
        }
        decls
            .iter()
            .any(|d| d.reg.file == reg.file && d.reg.index == reg.index)
    };
    for (index, inst) in ctx.program.instructions.iter().enumerate() {
        if inst.opcode.is_declaration() {
            continue;
        }
        for reg in used_registers(inst) {
            if needs_declaration(ctx, &reg) && !declared(&reg) {
                return Err(InvalidShader::Undeclared {
                    site: Site::of(index, inst),
                    reg: RegName(reg),
                }
                .into());
            }
        }
    }
    Ok(())
}

fn used_registers(inst: &Instruction) -> impl Iterator<Item = Register> + '_ {
    inst.dst
        .iter()
        .map(|d| d.reg)
        .chain(inst.src.iter().map(|s| s.reg))
}
