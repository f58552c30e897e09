//! The ps_1_x texture-addressing rules.
//!
//! Sources: the SDK's "ps_1_1 - ps_1_3" / "ps_1_4" instruction pages and the per-instruction
//! pages (`texm3x2pad`, `texm3x3pad`, `texdepth`, `phase`):
//! - ps_1_1–ps_1_3: texture-addressing instructions come before the arithmetic ones, and a
//!   `t#` register is the destination of at most one texture instruction;
//! - `texm3x2pad tN` is followed by `texm3x2tex`/`texm3x2depth` writing `tN+1`; two
//!   `texm3x3pad tN`, `tN+1` are followed by `texm3x3tex`/`texm3x3spec`/`texm3x3vspec`/
//!   `texm3x3` writing `tN+2` ("must be used together", "consecutive registers");
//! - ps_1_4: `phase` at most once; in each phase the texture instructions (`texld`, `texcrd`,
//!   `texkill`, `texdepth`) come before the arithmetic ones; `texdepth` only in phase 2.
//!
//! `def` and `nop` are neither texture nor arithmetic here.

use super::slots::is_texture_op;
use super::{Ctx, InvalidShader, Site};
use crate::bytecode::{Instruction, Opcode, RegisterFile, Stage};
use crate::check::CheckError;

fn rule(site: Site, what: &str) -> CheckError {
    InvalidShader::TextureRule {
        site,
        what: what.to_string(),
    }
    .into()
}

/// The operands of a ps_1_x texture instruction (the SDK's per-instruction register tables):
/// - ps_1_1–ps_1_3: the destination is a `t#` (it names the stage sampled and the coordinate
///   set read); the `t#` source of `texbem`, `texbeml`, `texreg2*`, `texm3x*` and `texdp3*`
///   is a lower-numbered `t#` (an earlier stage's result), and `texm3x3spec`'s eye vector a
///   `c#`;
/// - ps_1_4: `texld` and `texcrd` write an `r#`; `texcrd` reads a `t#`, `texld` a `t#` (or,
///   in phase 2, an `r#`); `texdepth` writes `r5`.
fn operand_files(inst: &Instruction, site: Site, minor: u8) -> Result<(), CheckError> {
    use Opcode::*;
    use RegisterFile::{Const, Temp, Texture};
    let Some(dst) = inst.dst.as_ref().map(|d| d.reg) else {
        return Ok(());
    };
    let src_file = |i: usize| inst.src.get(i).map(|s| (s.reg.file, s.reg.index));
    if minor == 4 {
        let ok = match inst.opcode {
            Tex => dst.file == Temp && matches!(src_file(0), Some((Texture | Temp, _))),
            TexCoord => dst.file == Temp && matches!(src_file(0), Some((Texture, _))),
            TexDepth => dst.file == Temp && dst.index == 5,
            _ => true,
        };
        return match ok {
            true => Ok(()),
            false => Err(rule(
                site,
                "ps_1_4 texld/texcrd write an r# (texcrd from a t#, texld from a t# or r#) and texdepth writes r5",
            )),
        };
    }
    if dst.file != Texture {
        return Err(rule(
            site,
            "ps_1_1–ps_1_3 texture instructions write a t# register",
        ));
    }
    let reads_earlier_stage = matches!(
        inst.opcode,
        TexBem
            | TexBemL
            | TexReg2Ar
            | TexReg2Gb
            | TexReg2Rgb
            | TexM3x2Pad
            | TexM3x2Tex
            | TexM3x2Depth
            | TexM3x3Pad
            | TexM3x3Tex
            | TexM3x3Spec
            | TexM3x3VSpec
            | TexM3x3
            | TexDp3
            | TexDp3Tex
    );
    if reads_earlier_stage && !matches!(src_file(0), Some((Texture, i)) if i < dst.index) {
        return Err(rule(
            site,
            "the source of this texture instruction is a t# numbered below its destination",
        ));
    }
    if inst.opcode == TexM3x3Spec && !matches!(src_file(1), Some((Const, _))) {
        return Err(rule(site, "texm3x3spec reads its eye vector from a c#"));
    }
    Ok(())
}

/// Check the ps_1_x texture-addressing rules (nothing for other versions).
pub(super) fn check(ctx: &Ctx<'_>) -> Result<(), CheckError> {
    let v = ctx.version;
    if v.stage != Stage::Pixel || v.major != 1 {
        return Ok(());
    }
    let insts = &ctx.program.instructions;
    let mut seen_arith = false;
    let mut seen_phase = false;
    let mut written = [false; 8];
    // (expected opcode set name, register it must write) of a pending texm3x2/texm3x3 chain.
    let mut pending: Option<(&'static [Opcode], u32, &'static str)> = None;
    const M3X2_END: &[Opcode] = &[Opcode::TexM3x2Tex, Opcode::TexM3x2Depth];
    const M3X3_PAD: &[Opcode] = &[Opcode::TexM3x3Pad];
    const M3X3_END: &[Opcode] = &[
        Opcode::TexM3x3Tex,
        Opcode::TexM3x3Spec,
        Opcode::TexM3x3VSpec,
        Opcode::TexM3x3,
    ];
    for (i, inst) in insts.iter().enumerate() {
        let site = Site::of(i, inst);
        let op = inst.opcode;
        if op == Opcode::Phase {
            if seen_phase {
                return Err(rule(site, "a second phase"));
            }
            seen_phase = true;
            seen_arith = false;
            continue;
        }
        if !super::is_executable(op) || op == Opcode::Nop {
            continue;
        }
        let dst_index = inst.dst.as_ref().map(|d| d.reg.index);
        let in_chain = pending.is_some();
        if let Some((ops, reg, what)) = pending.take() {
            if !ops.contains(&op) || dst_index != Some(reg) {
                return Err(rule(site, what));
            }
            if ops == M3X3_PAD {
                pending = Some((M3X3_END, reg + 1, "texm3x3pad, texm3x3pad must be followed by texm3x3tex/texm3x3spec/texm3x3vspec/texm3x3 on the next register"));
            }
        }
        // The other half of the chain rule: the end of a matrix chain needs its pads.
        if !in_chain && (M3X2_END.contains(&op) || M3X3_END.contains(&op)) {
            return Err(rule(
                site,
                if M3X2_END.contains(&op) {
                    "texm3x2tex/texm3x2depth must follow a texm3x2pad on the previous register"
                } else {
                    "texm3x3tex/texm3x3spec/texm3x3vspec/texm3x3 must follow two texm3x3pad"
                },
            ));
        }
        if !is_texture_op(op) {
            seen_arith = true;
            continue;
        }
        if seen_arith {
            return Err(rule(
                site,
                "a texture instruction after an arithmetic instruction",
            ));
        }
        operand_files(inst, site, v.minor)?;
        if v.minor == 4 {
            if op == Opcode::TexDepth && !seen_phase {
                return Err(rule(site, "texdepth outside phase 2"));
            }
            continue;
        }
        if let Some(r) = dst_index {
            if let Some(w) = written.get_mut(r as usize) {
                if *w && op != Opcode::TexKill {
                    return Err(rule(
                        site,
                        "a second texture instruction writing the same t#",
                    ));
                }
                *w |= op != Opcode::TexKill;
            }
            match op {
                Opcode::TexM3x2Pad => pending = Some((
                    M3X2_END,
                    r + 1,
                    "texm3x2pad must be followed by texm3x2tex/texm3x2depth on the next register",
                )),
                Opcode::TexM3x3Pad if !in_chain => {
                    pending = Some((
                        M3X3_PAD,
                        r + 1,
                        "texm3x3pad must be followed by a second texm3x3pad on the next register",
                    ))
                }
                _ => {}
            }
        }
    }
    if let (Some((_, _, what)), Some(last)) = (pending, insts.len().checked_sub(1)) {
        return Err(rule(Site::of(last, &insts[last]), what));
    }
    Ok(())
}
