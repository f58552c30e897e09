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

#[cfg(test)]
mod tests {
    #![allow(clippy::panic)]

    use super::*;
    use crate::asm::assemble;
    use crate::check::DeviceCaps;

    /// The slots `slots` gives each instruction of `text`, in order.
    fn counts(text: &str) -> Vec<(Opcode, u32)> {
        let p = assemble(text).unwrap_or_else(|e| panic!("{text}\n{e}"));
        let caps = DeviceCaps::default();
        let ctx = Ctx::new(&p, &caps);
        p.instructions
            .iter()
            .map(|i| (i.opcode, slots(&ctx, i)))
            .collect()
    }

    #[track_caller]
    fn expect(text: &str, want: &[(Opcode, u32)]) {
        assert_eq!(counts(text), want, "{text}");
    }

    /// vs_1_1 (SDK "Instructions - vs_1_1"): the matrix macros take a slot per row, `exp` and
    /// `log` 10, `frc` 3, `lit` 1; `dcl` and `def` none.
    #[test]
    fn vs_1_1_slot_table() {
        use Opcode::*;
        expect(
            "vs_1_1\ndcl_position v0\ndef c9, 1, 1, 1, 1\nm4x4 r0, v0, c0\nm3x4 r0, v0, c0\n\
             m4x3 r0.xyz, v0, c0\nm3x3 r0.xyz, v0, c0\nm3x2 r0.xy, v0, c0\nexp r0, v0.x\n\
             log r0, v0.x\nfrc r0, v0\nlit r0, v0\nexpp r0, v0.x\nmov oPos, v0\n",
            &[
                (Dcl, 0),
                (Def, 0),
                (M4x4, 4),
                (M3x4, 4),
                (M4x3, 3),
                (M3x3, 3),
                (M3x2, 2),
                (Exp, 10),
                (Log, 10),
                (Frc, 3),
                (Lit, 1),
                (Expp, 1),
                (Mov, 1),
            ],
        );
    }

    /// vs_2_0 / vs_2_x (SDK "Instructions - vs_2_0 / vs_2_x"): `exp`, `log` and `frc` are
    /// single instructions; `lit` 3, `sincos` 8, `nrm`/`pow`/`sgn` 3, `crs`/`lrp` 2; flow
    /// control: `call`, `endloop`, `endrep` 2, `callnz`, `if`, `ifc`, `loop`, `rep`, `breakc`,
    /// `breakp` 3; `label` none, `else`/`endif`/`ret`/`break` 1.
    #[test]
    fn vs_2_x_slot_table() {
        use Opcode::*;
        expect(
            "vs_2_0\ndcl_position v0\nexp r0, v0.x\nlog r0, v0.x\nfrc r0, v0\nlit r0, v0\n\
             sincos r0.xy, v0.x, c0, c1\nnrm r0, v0\npow r0, v0.x, v0.y\nsgn r0, v0, r1, r2\n\
             crs r0.xyz, v0, r1\nlrp r0, v0, r1, r2\nmov oPos, v0\n",
            &[
                (Dcl, 0),
                (Exp, 1),
                (Log, 1),
                (Frc, 1),
                (Lit, 3),
                (SinCos, 8),
                (Nrm, 3),
                (Pow, 3),
                (Sgn, 3),
                (Crs, 2),
                (Lrp, 2),
                (Mov, 1),
            ],
        );
        expect(
            "vs_2_x\ndcl_position v0\ndefi i0, 1, 0, 0, 0\ndefb b0, true\nloop aL, i0\n\
             break_gt v0.x, v0.y\nendloop\nrep i0\nbreakp p0.x\nendrep\nif b0\nelse\nendif\n\
             if_lt v0.x, v0.y\nendif\ncall l0\ncallnz l0, b0\nmov oPos, v0\nret\nlabel l0\n\
             ret\n",
            &[
                (Dcl, 0),
                (Defi, 0),
                (Defb, 0),
                (Loop, 3),
                (Breakc, 3),
                (EndLoop, 2),
                (Rep, 3),
                (Breakp, 3),
                (EndRep, 2),
                (If, 3),
                (Else, 1),
                (EndIf, 1),
                (Ifc, 3),
                (EndIf, 1),
                (Call, 2),
                (CallNz, 3),
                (Mov, 1),
                (Ret, 1),
                (Label, 0),
                (Ret, 1),
            ],
        );
    }

    /// Pixel shaders: ps_2_0's `exp`, `log`, `frc` take one slot (the vs_1_1 macro counts
    /// are vertex-only), `dp2add`/`lrp` 2; ps_1_x's `lrp` and `phase` are one and none.
    #[test]
    fn pixel_slot_table() {
        use Opcode::*;
        expect(
            "ps_2_0\ndcl t0\nexp r0, t0.x\nlog r0, t0.x\nfrc r0, t0\ndp2add r0, t0, t0, t0.x\n\
             lrp r0, t0, t0, t0\nmov oC0, r0\n",
            &[
                (Dcl, 0),
                (Exp, 1),
                (Log, 1),
                (Frc, 1),
                (Dp2Add, 2),
                (Lrp, 2),
                (Mov, 1),
            ],
        );
        expect(
            "ps_1_4\ntexld r0, t0\nphase\nlrp r0, r0, r0, r0\n",
            &[(Tex, 1), (Phase, 0), (Lrp, 1)],
        );
    }
}
