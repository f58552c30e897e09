//! Instruction slot limits per version.
//!
//! Sources: the SDK's "Instructions - vs_1_1 / vs_2_0 / vs_2_x / vs_3_0 / ps_2_0 / ps_2_x /
//! ps_3_0" tables (their "Instruction slots" column), "Vertex Shader Differences" (maximum
//! slots: vs_1_1 128, vs_2_0 256, vs_2_x 256, vs_3_0 512 up to
//! `D3DCAPS9.MaxVertexShader30InstructionSlots`), "Pixel Shader Differences" (ps_1_1–ps_1_3:
//! 4 texture + 8 arithmetic; ps_1_4: 6 texture + 8 arithmetic per phase; ps_2_0: 32 texture +
//! 64 arithmetic; ps_2_x: `PS20Caps.NumInstructionSlots` (96–512); ps_3_0: 512 up to
//! `MaxPixelShader30InstructionSlots`).
//!
//! Counting, as the SDK counts: `dcl`, `def*`, `label` and `phase` take no slot; macro
//! instructions take the slots the tables give (`m4x4` 4, `m3x3` 3, `sincos` 8, `nrm` 3,
//! `if` 3, `loop` 3, `endloop` 2, ...); in vs_1_1 the macros `exp`/`log` take 10 and `frc` 3.
//! Choices where the SDK tables are not at hand or silent, all on the lenient side (a
//! shader is never refused for a count we are unsure of): an instruction not listed takes 1
//! slot (`texldl`, `texldd`, `dsx`, `dsy`, the ps_1_x `cmp`/`dp4`/`bem`); a ps_1_x co-issued
//! pair (`+`) takes one arithmetic slot; the `_sw` profiles have no limit (SDK "Software
//! Shaders"). The limit is on the slots a shader holds, not on those it executes.

use super::{Ctx, InvalidShader, Site};
use crate::bytecode::{Instruction, Opcode, Stage};
use crate::check::CheckError;

/// The slots one instruction takes in the shader's version (the SDK tables).
fn slots(ctx: &Ctx<'_>, inst: &Instruction) -> u32 {
    use Opcode::*;
    let op = inst.opcode;
    if !super::is_executable(op) || op == Label {
        return 0;
    }
    let v = ctx.version;
    match op {
        M4x4 | M3x4 => 4,
        M4x3 | M3x3 => 3,
        M3x2 => 2,
        Exp | Log if ctx.is_vs() && v.major == 1 => 10,
        Frc if ctx.is_vs() && v.major == 1 => 3,
        // 2.0 and later (both stages).
        Lit if v.major >= 2 => 3,
        SinCos => 8,
        Nrm | Pow | Sgn => 3,
        Crs | Lrp | Dp2Add if v.major >= 2 => 2,
        Call | EndLoop | EndRep => 2,
        CallNz | If | Ifc | Loop | Rep | Breakc | Breakp => 3,
        _ => 1,
    }
}

/// Whether `op` is a texture instruction (counted against the texture limit of ps_1_x and
/// ps_2_0): the ps_1_x texture-addressing instructions, `texkill`, and `texld*`.
pub(super) fn is_texture_op(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        TexCoord
            | TexKill
            | Tex
            | TexBem
            | TexBemL
            | TexReg2Ar
            | TexReg2Gb
            | TexM3x2Pad
            | TexM3x2Tex
            | TexM3x3Pad
            | TexM3x3Tex
            | TexM3x3Spec
            | TexM3x3VSpec
            | TexReg2Rgb
            | TexDp3Tex
            | TexM3x2Depth
            | TexDp3
            | TexM3x3
            | TexDepth
            | TexLdd
            | TexLdl
    )
}

/// A limit: (what is counted, the limit, counted slots, the instruction that went over).
struct Counter {
    what: &'static str,
    limit: u32,
    used: u32,
    over: Option<(Site, u32)>,
}

impl Counter {
    fn new(what: &'static str, limit: u32) -> Self {
        Counter {
            what,
            limit,
            used: 0,
            over: None,
        }
    }

    fn add(&mut self, n: u32, site: Site) {
        self.used += n;
        if self.used > self.limit && self.over.is_none() {
            self.over = Some((site, self.used));
        }
    }

    fn result(&self, ctx: &Ctx<'_>) -> Result<(), CheckError> {
        match self.over {
            None => Ok(()),
            Some((site, _)) => Err(InvalidShader::TooManySlots {
                site,
                what: self.what,
                used: self.used,
                limit: self.limit,
                version: ctx.version,
            }
            .into()),
        }
    }
}

/// Check the slot limits of the shader's version.
pub(super) fn check(ctx: &Ctx<'_>) -> Result<(), CheckError> {
    let v = ctx.version;
    if v.is_software() || !ctx.caps.instruction_slot_limits {
        return Ok(());
    }
    let insts = &ctx.program.instructions;
    let site = |i: usize| Site::of(i, &insts[i]);
    match (v.stage, v.major) {
        (Stage::Pixel, 1) => {
            // ps_1_4 counts per phase; the others have one "phase".
            let (tex_limit, arith_limit) = if v.minor >= 4 { (6, 8) } else { (4, 8) };
            let mut tex = Counter::new("texture instruction slots", tex_limit);
            let mut arith = Counter::new("arithmetic instruction slots", arith_limit);
            for (i, inst) in insts.iter().enumerate() {
                if inst.opcode == Opcode::Phase {
                    tex.result(ctx)?;
                    arith.result(ctx)?;
                    tex = Counter::new("texture instruction slots (phase 2)", tex_limit);
                    arith = Counter::new("arithmetic instruction slots (phase 2)", arith_limit);
                    continue;
                }
                if !super::is_executable(inst.opcode) || inst.coissue {
                    continue;
                }
                if is_texture_op(inst.opcode) {
                    tex.add(1, site(i));
                } else {
                    arith.add(slots(ctx, inst), site(i));
                }
            }
            tex.result(ctx)?;
            arith.result(ctx)
        }
        (Stage::Pixel, 2) if v.minor == 0 => {
            let mut tex = Counter::new("texture instruction slots", 32);
            let mut arith = Counter::new("arithmetic instruction slots", 64);
            for (i, inst) in insts.iter().enumerate() {
                let n = slots(ctx, inst);
                if is_texture_op(inst.opcode) {
                    tex.add(n, site(i));
                } else {
                    arith.add(n, site(i));
                }
            }
            tex.result(ctx)?;
            arith.result(ctx)
        }
        (stage, major) => {
            let limit = match (stage, major) {
                (Stage::Vertex, 1) => 128,
                (Stage::Vertex, 2) => 256,
                (Stage::Vertex, _) => ctx.caps.max_vertex_shader_30_instruction_slots,
                (Stage::Pixel, 2) => ctx.caps.ps_num_instruction_slots,
                (Stage::Pixel, _) => ctx.caps.max_pixel_shader_30_instruction_slots,
            };
            let mut all = Counter::new("instruction slots", limit);
            for (i, inst) in insts.iter().enumerate() {
                all.add(slots(ctx, inst), site(i));
            }
            all.result(ctx)
        }
    }
}
