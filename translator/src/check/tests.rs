//! One minimal accepted and one minimal refused shader per rule, written as assembly.

#![allow(clippy::panic, clippy::unwrap_used)]

use super::*;
use crate::asm::assemble;
use crate::bytecode::{Register, RegisterFile};

fn program(text: &str) -> Program {
    assemble(text).unwrap_or_else(|e| panic!("{text}\n{e}"))
}

fn run(text: &str, caps: &DeviceCaps) -> Result<CheckedProgram, CheckError> {
    let p = program(text);
    let stage = p.stage();
    check(&p, stage, caps)
}

#[track_caller]
fn accepts(text: &str) {
    accepts_on(text, &DeviceCaps::default());
}

#[track_caller]
fn accepts_on(text: &str, caps: &DeviceCaps) {
    if let Err(e) = run(text, caps) {
        panic!("refused:\n{text}\n{e}");
    }
}

/// The shader is refused as Invalid and the message contains `needle`.
#[track_caller]
fn refuses(text: &str, needle: &str) {
    refuses_on(text, &DeviceCaps::default(), needle);
}

#[track_caller]
fn refuses_on(text: &str, caps: &DeviceCaps, needle: &str) {
    match run(text, caps) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e @ CheckError::Invalid(_)) => {
            let msg = e.to_string();
            assert!(msg.contains(needle), "{msg}\n  does not contain {needle:?}");
        }
        Err(e) => panic!("not Invalid: {e}"),
    }
}

/// Assemble a valid `text`, apply `patch` (the assembler itself refuses most invalid
/// shaders, so the broken detail is written into the program), and expect a refusal.
#[track_caller]
fn refuses_patched(text: &str, patch: impl FnOnce(&mut Program), needle: &str) {
    let mut p = program(text);
    patch(&mut p);
    match check(&p, p.stage(), &DeviceCaps::default()) {
        Ok(_) => panic!("accepted after patch:\n{text}"),
        Err(e @ CheckError::Invalid(_)) => {
            let msg = e.to_string();
            assert!(msg.contains(needle), "{msg}\n  does not contain {needle:?}");
        }
        Err(e) => panic!("not Invalid: {e}"),
    }
}

/// Renumber every `file` register `from` to `to`.
fn renumber(file: RegisterFile, from: u32, to: u32) -> impl FnOnce(&mut Program) {
    move |p| {
        for inst in &mut p.instructions {
            let regs = inst
                .dst
                .iter_mut()
                .map(|d| &mut d.reg)
                .chain(inst.src.iter_mut().map(|s| &mut s.reg));
            for r in regs {
                if r.file == file && r.index == from {
                    r.index = to;
                }
            }
        }
    }
}

/// Change the version token (the assembler checks text against its own header).
fn version(stage: Stage, major: u8, minor: u8) -> impl FnOnce(&mut Program) {
    move |p| p.version = Version::new(stage, major, minor)
}

const VS3: &str = "vs_3_0\ndcl_position v0\ndcl_position o0\n";

// --- registers and limits -------------------------------------------------------------

#[test]
fn input_registers_16() {
    accepts("vs_2_0\ndcl_texcoord v15\nmov oPos, v15\n");
    refuses_patched(
        "vs_2_0\ndcl_texcoord v15\nmov oPos, v15\n",
        renumber(RegisterFile::Input, 15, 16),
        "register v16 is out of range",
    );
}

#[test]
fn temporaries_12_in_vs_2_0_32_in_vs_3_0_caps_in_vs_2_x() {
    accepts("vs_2_0\ndcl_position v0\nmov r11, v0\nmov oPos, r11\n");
    refuses_patched(
        "vs_2_0\ndcl_position v0\nmov r11, v0\nmov oPos, r11\n",
        renumber(RegisterFile::Temp, 11, 12),
        "r12 is out of range",
    );
    accepts(&format!("{VS3}mov r31, v0\nmov o0, r31\n"));
    refuses_patched(
        &format!("{VS3}mov r31, v0\nmov o0, r31\n"),
        renumber(RegisterFile::Temp, 31, 32),
        "r32 is out of range",
    );
    let x = "vs_2_x\ndcl_position v0\nmov r20, v0\nmov oPos, r20\n";
    accepts(x);
    let small = DeviceCaps {
        vs_num_temps: 16,
        ..DeviceCaps::default()
    };
    refuses_on(x, &small, "VS20Caps.NumTemps");
}

/// ps_2_x has `PS20Caps.NumTemps` temporaries (12 to 32): a register past the device's count
/// is refused, and the message names the cap it comes from.
#[test]
fn ps_2_x_temporaries_come_from_ps20caps_numtemps() {
    let x = "ps_2_x\ndef c0, 0.0, 0.0, 0.0, 1.0\nmov r20, c0\nmov oC0, r20\n";
    accepts(x);
    let small = DeviceCaps {
        ps_num_temps: 16,
        ..DeviceCaps::default()
    };
    refuses_on(x, &small, "r20 is out of range");
    refuses_on(x, &small, "(PS20Caps.NumTemps)");
}

#[test]
fn float_constants_256_hardware_8192_software() {
    let c255 = "vs_1_1\ndcl_position v0\nadd oPos, v0, c255\n";
    let c256 = "vs_1_1\ndcl_position v0\nadd oPos, v0, c256\n";
    accepts(c255);
    refuses(c256, "c256 is out of range");
    accepts_on(c256, &DeviceCaps::software());
    let mixed = DeviceCaps {
        vertex_processing: VertexProcessing::Mixed,
        ..DeviceCaps::default()
    };
    accepts_on(c256, &mixed);
    let small = DeviceCaps {
        max_vertex_shader_const: 96,
        ..DeviceCaps::default()
    };
    refuses_on(c255, &small, "c255 is out of range");
}

#[test]
fn integer_and_bool_constants_16_hardware_2048_software() {
    let i15 = format!(
        "{VS3}defi i15, 1, 0, 0, 0\nmov r0, v0\nrep i15\nadd r0, r0, v0\nendrep\nmov o0, r0\n"
    );
    accepts(&i15);
    // The assembler writes what it reads: edit the index to 16 in the program.
    let mut p = program(&i15);
    for inst in &mut p.instructions {
        if let Some(d) = inst
            .dst
            .as_mut()
            .filter(|d| d.reg.file == RegisterFile::ConstInt)
        {
            d.reg.index = 16;
        }
        for s in inst
            .src
            .iter_mut()
            .filter(|s| s.reg.file == RegisterFile::ConstInt)
        {
            s.reg.index = 16;
        }
    }
    let err = check(&p, Stage::Vertex, &DeviceCaps::default()).unwrap_err();
    assert!(err.to_string().contains("i16 is out of range"), "{err}");
    assert!(check(&p, Stage::Vertex, &DeviceCaps::software()).is_ok());
    accepts(&format!(
        "{VS3}mov r0, v0\nif b15\nadd r0, r0, v0\nendif\nmov o0, r0\n"
    ));
    refuses_patched(
        &format!("{VS3}mov r0, v0\nif b15\nadd r0, r0, v0\nendif\nmov o0, r0\n"),
        renumber(RegisterFile::ConstBool, 15, 16),
        "b16 is out of range",
    );
}

#[test]
fn vs_3_0_outputs_12_and_samplers_4() {
    accepts(&format!("{VS3}dcl_texcoord o11\nmov o0, v0\nmov o11, v0\n"));
    refuses_patched(
        &format!("{VS3}dcl_texcoord o11\nmov o0, v0\nmov o11, v0\n"),
        renumber(RegisterFile::Output, 11, 12),
        "o12 is out of range",
    );
    accepts(&format!("{VS3}dcl_2d s3\ntexldl r0, v0, s3\nmov o0, r0\n"));
    refuses_patched(
        &format!("{VS3}dcl_2d s3\ntexldl r0, v0, s3\nmov o0, r0\n"),
        renumber(RegisterFile::Sampler, 3, 4),
        "s4 is out of range",
    );
}

#[test]
fn pixel_constants_8_32_224() {
    accepts("ps_1_1\nmov r0, c7\n");
    refuses_patched(
        "ps_1_1\nmov r0, c7\n",
        renumber(RegisterFile::Const, 7, 8),
        "c8 is out of range",
    );
    accepts("ps_2_0\nmov oC0, c31\n");
    refuses_patched(
        "ps_2_0\nmov oC0, c31\n",
        renumber(RegisterFile::Const, 31, 32),
        "c32 is out of range",
    );
    accepts("ps_3_0\nmov oC0, c223\n");
    refuses_patched(
        "ps_3_0\nmov oC0, c223\n",
        renumber(RegisterFile::Const, 223, 224),
        "c224 is out of range",
    );
}

#[test]
fn pixel_texture_samplers_and_inputs() {
    accepts("ps_1_1\ntex t3\nmov r0, t3\n");
    refuses_patched(
        "ps_1_1\ntex t3\nmov r0, t3\n",
        renumber(RegisterFile::Texture, 3, 4),
        "t4 is out of range",
    );
    accepts("ps_2_0\ndcl v1\nmov oC0, v1\n");
    refuses_patched(
        "ps_2_0\ndcl v1\nmov oC0, v1\n",
        renumber(RegisterFile::Input, 1, 2),
        "v2 is out of range",
    );
    accepts("ps_3_0\ndcl_texcoord9 v9\nmov oC0, v9\n");
    refuses_patched(
        "ps_3_0\ndcl_texcoord9 v9\nmov oC0, v9\n",
        renumber(RegisterFile::Input, 9, 10),
        "v10 is out of range",
    );
}

#[test]
fn texture_samples_name_a_sampler() {
    let text = "ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n";
    accepts(text);
    let to_constant = |p: &mut Program| {
        for inst in &mut p.instructions {
            if inst.opcode == crate::bytecode::Opcode::Tex {
                if let Some(s) = inst.src.get_mut(1) {
                    s.reg = crate::bytecode::Register::new(RegisterFile::Const, 0);
                }
            }
        }
    };
    refuses_patched(
        text,
        to_constant,
        "operand source 1 must be a sampler s#, not c0",
    );
    let text =
        "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_2d s0\ntexldl r0, v0, s0\nmov o0, r0\n";
    accepts(text);
    let to_temp = |p: &mut Program| {
        for inst in &mut p.instructions {
            if inst.opcode == crate::bytecode::Opcode::TexLdl {
                if let Some(s) = inst.src.get_mut(1) {
                    s.reg = crate::bytecode::Register::new(RegisterFile::Temp, 1);
                }
            }
        }
    };
    refuses_patched(
        text,
        to_temp,
        "operand source 1 must be a sampler s#, not r1",
    );
}

#[test]
fn outputs_are_write_only() {
    accepts("vs_1_1\ndcl_position v0\nmov oPos, v0\n");
    refuses_patched(
        "vs_1_1\ndcl_position v0\nmov oPos, v0\nmov r0, c0\nmov oD0, r0\n",
        |p| p.instructions[2].src[0].reg = Register::new(RegisterFile::RastOut, 0),
        "register oPos (rasterizer output (oPos/oFog/oPts)) cannot be read",
    );
    refuses_patched(
        "vs_1_1\ndcl_position v0\nmov r0, c0\nmov oPos, v0\n",
        |p| {
            p.instructions[1]
                .dst
                .as_mut()
                .map_or((), |d| d.reg = Register::new(RegisterFile::Input, 0))
        },
        "register v0 (input (v#)) cannot be written",
    );
}

#[test]
fn relative_addressing_of_inputs_and_outputs_only_by_al_in_vs_3_0() {
    let ok = format!("{VS3}dcl_texcoord v1\ndcl_texcoord o1\nmov o0, v0\nloop aL, i0\nmov o[aL + 1], v[aL + 1]\nendloop\n");
    accepts(&ok);
    refuses_patched(
        "vs_2_0\ndcl_position v0\ndcl_texcoord v1\nloop aL, i0\nmov oPos, v1\nendloop\n",
        |p| {
            p.instructions[3].src[0].reg.relative = Some(crate::bytecode::RelativeAddress {
                file: RegisterFile::Loop,
                index: 0,
                swizzle: crate::bytecode::Swizzle::IDENTITY,
            })
        },
        "v[aL + 1] cannot be addressed relatively in vs_2_0",
    );
    accepts("vs_2_0\ndcl_position v0\nmova a0.x, c0.x\nmov oPos, c[a0.x + 1]\n");
}

/// The `_x` profiles need a device reporting version 2.0 (their extra features come from
/// the 2.0 extended caps), not "2.1": a 2.0 device takes vs_2_x and ps_2_x, a 1.x one does not.
#[test]
fn extended_profiles_need_version_2_0_caps() {
    let vs = "vs_2_x\ndcl_position v0\nmov oPos, v0\n";
    let ps = "ps_2_x\ndef c0, 0.0, 0.0, 0.0, 1.0\nmov oC0, c0\n";
    let two = DeviceCaps {
        max_vs_version: (2, 0),
        max_ps_version: (2, 0),
        ..DeviceCaps::default()
    };
    accepts_on(vs, &two);
    accepts_on(ps, &two);
    let one = DeviceCaps {
        max_vs_version: (1, 1),
        max_ps_version: (1, 4),
        ..DeviceCaps::default()
    };
    refuses_on(vs, &one, "VertexShaderVersion");
    refuses_on(ps, &one, "PixelShaderVersion");
}

/// Result shifts (`_x2`, `_d2` …) exist in ps_1_x only, within the encoded ±3: a shift on a
/// vs_1_1 or ps_2_0 instruction is refused, as is a ps_1_x shift of 4.
#[test]
fn result_shifts_only_in_ps_1_x() {
    accepts("ps_1_1\nmov_x2 r0, v0\n");
    let shift = |by: i8| {
        move |p: &mut Program| {
            if let Some(d) = p.instructions[1].dst.as_mut() {
                d.shift = by;
            }
        }
    };
    refuses_patched(
        "vs_1_1\ndcl_position v0\nmov r0, v0\nmov oPos, r0\n",
        shift(1),
        "result shift 1",
    );
    refuses_patched(
        "ps_2_0\ndef c0, 0.0, 0.0, 0.0, 1.0\nmov r0, c0\nmov oC0, r0\n",
        shift(1),
        "result shift 1",
    );
    refuses_patched(
        "ps_1_1\nmov r0, v0\nmov r1, r0\n",
        shift(4),
        "result shift 4",
    );
}

/// The `_x2` source modifier is ps_1_4's alone: refused on a ps_1_3, ps_2_0 or vs_1_1
/// source (SDK "Source Register Modifiers"; Wine's `check_legacy_srcmod`).
#[test]
fn the_x2_source_modifier_is_ps_1_4_only() {
    use crate::bytecode::SrcModifier;
    let x2 = |p: &mut Program| {
        if let Some(src) = p
            .instructions
            .iter_mut()
            .rev()
            .find_map(|i| i.src.first_mut())
        {
            src.modifier = SrcModifier::X2;
        }
    };
    let ps14 = program("ps_1_4\nmov r0, v0\n");
    let mut patched = ps14.clone();
    x2(&mut patched);
    assert!(check(&patched, patched.stage(), &DeviceCaps::default()).is_ok());
    const WHAT: &str = "the _x2 source modifier (ps_1_4 only)";
    refuses_patched("ps_1_3\nmov r0, v0\n", x2, WHAT);
    refuses_patched("ps_2_0\ndcl v0\nmov oC0, v0\n", x2, WHAT);
    refuses_patched("vs_1_1\ndcl_position v0\nmov oPos, v0\n", x2, WHAT);
}

/// `_dz`/`_dw` divide ps_1_4 texture coordinates: only on the source of ps_1_4 `texld` and
/// `texcrd`, never on arithmetic, in other pixel versions or in vertex shaders.
#[test]
fn dz_and_dw_only_on_ps_1_4_texld_and_texcrd() {
    use crate::bytecode::SrcModifier;
    let dz = |index: usize| {
        move |p: &mut Program| {
            if let Some(src) = p.instructions[index].src.first_mut() {
                src.modifier = SrcModifier::Dz;
            }
        }
    };
    let mut ok = program("ps_1_4\ntexld r0, t0\ntexcrd r1.rgb, t1\nmov r0, r0\n");
    dz(0)(&mut ok);
    dz(1)(&mut ok);
    assert!(check(&ok, ok.stage(), &DeviceCaps::default()).is_ok());
    const WHAT: &str = "_dz/_dw (ps_1_4 texld/texcrd only)";
    refuses_patched("ps_1_4\ntexld r0, t0\nmov r0, r0\n", dz(1), WHAT);
    refuses_patched(
        "ps_1_3\ntex t0\ntexreg2ar t1, t0\nmov r0, t1\n",
        dz(1),
        WHAT,
    );
    refuses_patched(
        "ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n",
        dz(2),
        WHAT,
    );
    refuses_patched("vs_1_1\ndcl_position v0\nmov oPos, v0\n", dz(1), WHAT);
}

/// `_sat` is never allowed on `frc`, `sincos` or texture instructions from ps_2_0 on, ps_3_0
/// included (SDK "Modifiers for ps_2_0 and Above").
#[test]
fn ps_3_0_refuses_sat_on_frc_and_texld() {
    refuses(
        "ps_3_0\ndef c0, 0.5, 0.5, 0.5, 1.0\nfrc_sat r0, c0\nmov oC0, r0\n",
        "_sat on frc",
    );
    refuses(
        "ps_3_0\ndcl_texcoord0 v0\ndcl_2d s0\ntexld_sat r0, v0, s0\nmov oC0, r0\n",
        "_sat on tex is not allowed in ps_3_0",
    );
}

/// vs_2_0 allows 16 static flow-control instructions; `if b#` counts as one.
#[test]
fn vs_2_0_counts_static_ifs_up_to_16() {
    let ifs = |n: usize| {
        format!(
            "vs_2_0\ndcl_position v0\nmov r0, v0\n{}mov oPos, r0\n",
            "if b0\nadd r0, r0, c0\nendif\n".repeat(n)
        )
    };
    accepts(&ifs(16));
    refuses(&ifs(17), "static flow instruction count");
}

/// `else` of a static `if` and every `loop`/`rep` count against vs_2_0's 16 static flow
/// instructions too.
#[test]
fn vs_2_0_counts_else_and_loops_as_static_flow() {
    let body = |block: &str, n: usize| {
        format!(
            "vs_2_0\ndcl_position v0\nmov r0, v0\n{}mov oPos, r0\n",
            block.repeat(n)
        )
    };
    let if_else = "if b0\nadd r0, r0, c0\nelse\nadd r0, r0, c1\nendif\n";
    accepts(&body(if_else, 8));
    refuses(
        &format!("{}\n", body(if_else, 8)).replace("mov oPos", "if b1\nendif\nmov oPos"),
        "static flow instruction count",
    );
    let rep = "rep i0\nadd r0, r0, c0\nendrep\n";
    accepts(&body(rep, 16));
    refuses(&body(rep, 17), "static flow instruction count");
}

/// `loop` takes `aL, i#` and `rep` takes `i#`; anything else is refused naming what it takes.
#[test]
fn loop_and_rep_operands() {
    let text = "vs_2_0\ndcl_position v0\nmov r0, v0\nloop aL, i0\nadd r0, r0, c0\nendloop\nrep i1\nadd r0, r0, c1\nendrep\nmov oPos, r0\n";
    accepts(text);
    let to_const = |index: usize, operand: usize| {
        move |p: &mut Program| {
            if let Some(s) = p.instructions[index].src.get_mut(operand) {
                s.reg.file = RegisterFile::Const;
            }
        }
    };
    refuses_patched(text, to_const(2, 1), "must be aL, i#");
    refuses_patched(text, to_const(5, 0), "must be i#");
}

/// `setp` writes the predicate register only (SDK `setp_comp`: "dst: p0").
#[test]
fn setp_writes_p0_only() {
    accepts("vs_2_x\ndcl_position v0\nsetp_gt p0, v0, c0\nmov oPos, v0\n");
    refuses_patched(
        "vs_2_x\ndcl_position v0\nsetp_gt p0, v0, c0\nmov oPos, v0\n",
        |p| {
            if let Some(d) = p.instructions[1].dst.as_mut() {
                d.reg.file = RegisterFile::Temp;
            }
        },
        "p0",
    );
}

/// `aL` exists inside a `loop` only: an output written through `o[aL + 1]` outside one is
/// refused as a read of aL outside its block (the destination's relative address counts).
#[test]
fn al_relative_destinations_need_a_loop() {
    accepts(&format!(
        "{VS3}dcl_texcoord o1\nmov o0, v0\nloop aL, i0\nmov o[aL + 1], v0\nendloop\n"
    ));
    refuses(
        &format!("{VS3}dcl_texcoord o1\nmov o0, v0\nmov o[aL + 1], v0\n"),
        "aL",
    );
    // Read directly as a first source, too: only `loop aL, i#` names it outside one.
    accepts(&format!(
        "{VS3}mov o0, v0\nloop aL, i0\nmov r0, aL\nendloop\n"
    ));
    refuses(&format!("{VS3}mov r0, aL\nmov o0, v0\n"), "aL");
}

/// Co-issue (`+`) exists in ps_1_x only: the co-issue bit on a vs_1_1 or ps_2_0
/// instruction is refused, and in ps_1_x on the first instruction (Wine's assembler rules).
#[test]
fn co_issue_only_in_ps_1_x_and_never_first() {
    let coissue_second = |p: &mut Program| p.instructions[2].coissue = true;
    accepts("ps_1_1\ndef c0, 0.0, 0.0, 0.0, 1.0\nmov r0.rgb, c0\n+mov r0.a, c0\n");
    refuses_patched(
        "vs_1_1\ndcl_position v0\nmov r0, v0\nmov oPos, r0\n",
        coissue_second,
        "co-issue (+)",
    );
    refuses_patched(
        "ps_2_0\ndef c0, 0.0, 0.0, 0.0, 1.0\nmov r0, c0\nmov oC0, r0\n",
        coissue_second,
        "co-issue (+)",
    );
    refuses_patched(
        "ps_1_1\nmov r0, v0\n",
        |p| p.instructions[0].coissue = true,
        "co-issue on the first instruction",
    );
}

/// A vertex shader has one address register, `a0`, and one loop counter, `aL`: `c[a1.x]`
/// or `c[aL1]` (written into the relative-address token) name registers that do not exist.
#[test]
fn relative_addressing_needs_an_address_register_that_exists() {
    let text = "vs_2_0\ndcl_position v0\nmova a0.x, c0.x\nmov oPos, c[a0.x + 1]\n";
    for file in [RegisterFile::Addr, RegisterFile::Loop] {
        refuses_patched(
            text,
            |p| {
                if let Some(rel) = p.instructions[2].src[0].reg.relative.as_mut() {
                    rel.file = file;
                    rel.index = 1;
                }
            },
            "cannot be addressed relatively",
        );
    }
}

// --- read ports ---------------------------------------------------------------------------

#[test]
fn one_constant_read_port_in_every_vertex_shader_version() {
    accepts(&format!("{VS3}mad r0, c0, c0, c0.x\nmov o0, r0\n"));
    refuses(
        &format!("{VS3}mad r0, c0, c0, c1\nmov o0, r0\n"),
        "instruction 2 (mad) at token 7 reads 2 distinct float constant (c#) registers; vs_3_0 allows 1",
    );
    refuses(
        "vs_2_0\ndcl_position v0\nadd r0, c0, c1\nmov oPos, r0\n",
        "reads 2 distinct float constant (c#) registers; vs_2_0 allows 1",
    );
    refuses(
        "vs_2_x\ndcl_position v0\nadd r0, c0, c1\nmov oPos, r0\n",
        "vs_2_x allows 1",
    );
    // Pixel shaders have two c# ports.
    accepts("ps_2_0\nadd r0, c0, c1\nmov oC0, r0\n");
    refuses(
        "ps_2_0\nmad r0, c0, c1, c2\nmov oC0, r0\n",
        "ps_2_0 allows 2",
    );
    // sincos's fixed constant operands are not counted.
    accepts("vs_2_0\ndcl_position v0\nsincos r0.xy, v0.x, c0, c1\nmov oPos, r0\n");
}

#[test]
fn read_port_limits_of_r_v_and_t_per_version() {
    // Vertex shaders: one v#, three r# (every instruction has at most three sources, so
    // three distinct r# are always allowed); reading one register of each file at once
    // uses one port of each file.
    accepts("vs_2_0\ndcl_position v0\nmad r0, v0, c0, r1\nmov oPos, r0\n");
    accepts("vs_2_0\ndcl_position v0\nmad r0, r1, r2, r3\nmov oPos, v0\n");
    refuses(
        "vs_2_0\ndcl_position v0\ndcl_normal v1\nadd r0, v0, v1\nmov oPos, r0\n",
        "reads 2 distinct input (v#) registers; vs_2_0 allows 1",
    );
    // ps_1_1–ps_1_3: two r#, two v#, three t# (these shaders have only r0–r1 and v0–v1,
    // so the r# and v# limits cannot be exceeded).
    for ps in ["ps_1_1", "ps_1_2", "ps_1_3"] {
        accepts(&format!("{ps}\nadd r0, r0, r1\n"));
        accepts(&format!("{ps}\nadd r0, v0, v1\n"));
        accepts(&format!(
            "{ps}\ntex t0\ntex t1\ntex t2\nmad r0, t0, t1, t2\n"
        ));
    }
    // ps_1_4: three r#, one t#.
    accepts("ps_1_4\nmad r0, r0, r1, r2\n");
    refuses(
        "ps_1_4\nadd r0, t0, t1\n",
        "reads 2 distinct texture (t#) registers; ps_1_4 allows 1",
    );
    // ps_2_0 and ps_2_x: one v#, one t#.
    for ps in ["ps_2_0", "ps_2_x"] {
        accepts(&format!(
            "{ps}\ndcl t0\ndcl v0\nmad r0, t0, v0, r1\nmov oC0, r0\n"
        ));
        accepts(&format!("{ps}\nmad r0, r1, r2, r3\nmov oC0, r0\n"));
        refuses(
            &format!("{ps}\ndcl t0\ndcl t1\nadd r0, t0, t1\nmov oC0, r0\n"),
            &format!("reads 2 distinct texture (t#) registers; {ps} allows 1"),
        );
        refuses(
            &format!("{ps}\ndcl v0\ndcl v1\nadd r0, v0, v1\nmov oC0, r0\n"),
            &format!("reads 2 distinct input (v#) registers; {ps} allows 1"),
        );
    }
    // ps_3_0: one v#.
    refuses(
        "ps_3_0\ndcl_texcoord0 v0\ndcl_texcoord1 v1\nadd r0, v0, v1\nmov oC0, r0\n",
        "reads 2 distinct input (v#) registers; ps_3_0 allows 1",
    );
}

#[test]
fn label_registers_are_read_only_by_call_and_callnz() {
    // D3D9: l# is an operand of `call`, `callnz` and `label` only.
    refuses_patched(
        "vs_2_0\ndcl_position v0\nadd r0, v0, c0\nmov oPos, r0\ncall l0\nret\nlabel l0\nret\n",
        |p| p.instructions[1].src[0].reg = Register::new(RegisterFile::Label, 0),
        "l0",
    );
}

// --- destination masks (sincos, crs, m#x#) ---------------------------------------------------

#[test]
fn sincos_writes_x_y_or_xy() {
    for mask in ["x", "y", "xy"] {
        accepts(&format!("{VS3}sincos r0.{mask}, v0.x\nmov o0, r0\n"));
        accepts(&format!(
            "vs_2_0\ndcl_position v0\nsincos r0.{mask}, v0.x, c0, c1\nmov oPos, r0\n"
        ));
    }
    for mask in ["xyz", "xyzw", "z", "xw"] {
        refuses(
            &format!("{VS3}sincos r0.{mask}, v0.x\nmov o0, r0\n"),
            &format!("sincos cannot write .{mask}; the SDK allows .x, .y, .xy"),
        );
    }
    refuses(
        "ps_2_0\ndef c0, 1, 1, 1, 1\ndef c1, 1, 1, 1, 1\nsincos r0, c0.x, c0, c1\nmov oC0, r0\n",
        "sincos cannot write .xyzw",
    );
}

#[test]
fn crs_writes_a_subset_of_xyz() {
    for mask in ["x", "y", "z", "xy", "xz", "yz", "xyz"] {
        accepts(&format!(
            "{VS3}mov r1, v0\ncrs r0.{mask}, v0, r1\nmov o0, r0\n"
        ));
    }
    for mask in ["xyzw", "w", "xw"] {
        refuses(
            &format!("{VS3}mov r1, v0\ncrs r0.{mask}, v0, r1\nmov o0, r0\n"),
            &format!("crs cannot write .{mask}"),
        );
    }
}

#[test]
fn matrix_macros_write_their_rows() {
    let vs = "vs_1_1\ndcl_position v0\n";
    accepts(&format!("{vs}m3x2 r0.xy, v0, c0\nmov oPos, r0\n"));
    accepts(&format!("{vs}m3x3 r0.xyz, v0, c0\nmov oPos, r0\n"));
    accepts(&format!("{vs}m4x3 r0.xyz, v0, c0\nmov oPos, r0\n"));
    accepts(&format!("{vs}m3x4 r0, v0, c0\nmov oPos, r0\n"));
    accepts(&format!("{vs}m4x4 oPos, v0, c0\n"));
    accepts(&format!("{vs}m4x4 r0.xyz, v0, c0\nmov oPos, r0\n"));
    refuses(
        &format!("{vs}m3x2 r0, v0, c0\nmov oPos, r0\n"),
        "m3x2 cannot write .xyzw; the SDK allows .xy",
    );
    refuses(
        &format!("{vs}m3x3 r0.xy, v0, c0\nmov oPos, r0\n"),
        "m3x3 cannot write .xy; the SDK allows .xyz",
    );
    refuses(
        &format!("{vs}m4x3 r0, v0, c0\nmov oPos, r0\n"),
        "m4x3 cannot write .xyzw",
    );
    refuses(
        &format!("{vs}m3x4 r0.xy, v0, c0\nmov oPos, r0\n"),
        "m3x4 cannot write .xy; the SDK allows .xyzw, .xyz",
    );
}

// --- software constant banks (CONST2..CONST4) -------------------------------------------------

#[test]
fn constants_past_2047_are_the_const2_to_const4_files_under_software_processing() {
    let text = "vs_3_sw\ndcl_position v0\ndcl_position o0\ndef c3056, 1, 2, 3, 4\n\
                add r0, v0, c8191\nmad o0, r0, c3056, v0\n";
    let p = program(text);
    let def = &p.instructions[2];
    assert_eq!(
        def.dst.map(|d| d.reg),
        Some(Register::new(RegisterFile::Const2, 1008))
    );
    assert_eq!(
        p.instructions[3].src[1].reg,
        Register::new(RegisterFile::Const4, 2047)
    );
    accepts_on(text, &DeviceCaps::software());
    // vs_3_0 on a software device may name them too; on a hardware device they do not exist.
    let p3 = {
        let mut p = p.clone();
        p.version = crate::bytecode::Version::new(Stage::Vertex, 3, 0);
        p
    };
    assert!(check(&p3, Stage::Vertex, &DeviceCaps::software()).is_ok());
    let err = check(&p3, Stage::Vertex, &DeviceCaps::default()).expect_err("hardware");
    assert!(
        err.to_string()
            .contains("c3056 (float constant bank (c#)) cannot be defined in vs_3_0"),
        "{err}"
    );
    // Two distinct c# through different banks still take two ports (vs_3_0 on a software
    // device; the `_sw` profiles have no read-port limit, and the assembler writes c2048 in
    // the `_sw` profiles only).
    let mut two = program("vs_3_sw\ndcl_position v0\ndcl_position o0\nadd o0, c0, c2048\n");
    accepts_on(
        "vs_3_sw\ndcl_position v0\ndcl_position o0\nadd o0, c0, c2048\n",
        &DeviceCaps::software(),
    );
    two.version = crate::bytecode::Version::new(Stage::Vertex, 3, 0);
    let err = check(&two, Stage::Vertex, &DeviceCaps::software()).expect_err("two ports");
    assert!(
        err.to_string()
            .contains("reads 2 distinct float constant (c#) registers"),
        "{err}"
    );
}

#[test]
fn one_constant_and_one_input_in_vs_1_1() {
    accepts("vs_1_1\ndcl_position v0\nmad oPos, v0, c0, c0.x\n");
    refuses(
        "vs_1_1\ndcl_position v0\nmad oPos, v0, c0, c1\n",
        "reads 2 distinct float constant",
    );
    refuses(
        "vs_1_1\ndcl_position v0\ndcl_normal v1\nadd oPos, v0, v1\n",
        "reads 2 distinct input (v#)",
    );
}

// --- declarations -----------------------------------------------------------------------

#[test]
fn dcl_before_the_first_executable_instruction() {
    accepts("vs_2_0\ndcl_position v0\ndef c0, 1, 1, 1, 1\nmov oPos, v0\n");
    refuses(
        "vs_2_0\ndcl_position v0\nmov oPos, v0\ndcl_normal v1\nmov oD0, v1\n",
        "dcl after the first executable instruction",
    );
}

#[test]
fn inputs_must_be_declared() {
    accepts("vs_1_1\ndcl_position v0\nmov oPos, v0\n");
    refuses("vs_1_1\nmov oPos, v0\n", "v0 is used but not declared");
    accepts_on("vs_1_1\nmov oPos, v0\n", &DeviceCaps::d3d8());
    refuses("ps_2_0\nmov oC0, t0\n", "t0 is used but not declared");
    refuses(
        "ps_2_0\ndcl t0\ntexld r0, t0, s0\nmov oC0, r0\n",
        "s0 is used but not declared",
    );
}

#[test]
fn vs_3_0_position_declared_once_with_full_mask() {
    accepts(&format!("{VS3}mov o0, v0\n"));
    refuses(
        "vs_3_0\ndcl_position v0\ndcl_texcoord o0\nmov o0, v0\n",
        "must declare a position",
    );
    refuses(
        "vs_3_0\ndcl_position v0\ndcl_position o0.xyz\nmov o0, v0\n",
        "full mask",
    );
    refuses(
        &format!("{VS3}dcl_positiont o1\nmov o0, v0\nmov o1, v0\n"),
        "a second position output",
    );
    accepts(&format!("{VS3}dcl_position1 o1\nmov o0, v0\nmov o1, v0\n"));
}

#[test]
fn psize_full_mask_and_alone() {
    accepts(&format!("{VS3}dcl_psize o1\nmov o0, v0\nmov o1, c0.x\n"));
    refuses(
        &format!("{VS3}dcl_psize o1.x\nmov o0, v0\nmov o1.x, c0.x\n"),
        "full mask",
    );
    refuses(
        &format!("{VS3}dcl_psize o1\ndcl_fog o1.y\nmov o0, v0\nmov o1, c0.x\n"),
        "holds psize",
    );
}

#[test]
fn one_register_several_disjoint_masks() {
    accepts(&format!(
        "{VS3}dcl_color4 o3.x\ndcl_texcoord3 o3.yz\ndcl_fog o3.w\nmov o0, v0\nmov o3, v0\n"
    ));
    refuses(
        &format!("{VS3}dcl_color4 o3.xy\ndcl_texcoord3 o3.yz\nmov o0, v0\nmov o3, v0\n"),
        "overlapping mask",
    );
}

#[test]
fn no_semantic_declared_twice() {
    refuses(
        &format!("{VS3}dcl_texcoord2 o1\ndcl_texcoord2 o2\nmov o0, v0\nmov o1, v0\nmov o2, v0\n"),
        "semantic texcoord2 is declared twice",
    );
}

#[test]
fn ps_3_0_cannot_declare_position0() {
    accepts("ps_3_0\ndcl_position1 v0\nmov oC0, v0\n");
    refuses(
        "ps_3_0\ndcl_position0 v0\nmov oC0, v0\n",
        "cannot declare input dcl_position0",
    );
}

/// `dcl_2d`/`dcl_cube`/`dcl_volume` declare an `s#` only, and a sampler declaration names a
/// texture type: `D3DSTT_UNKNOWN` is never a sampler's type.
#[test]
fn sampler_declarations_need_an_s_register_and_a_texture_type() {
    use crate::bytecode::{Declaration, TextureType};
    let text = "ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n";
    accepts(text);
    refuses_patched(
        text,
        |p| {
            if let Some(d) = p.instructions[1].dst.as_mut() {
                d.reg = Register::new(RegisterFile::Texture, 1);
            }
        },
        "dcl_2d t1",
    );
    refuses_patched(
        text,
        |p| p.instructions[1].decl = Some(Declaration::Sampler(TextureType::Unknown)),
        "dcl_unknown s0",
    );
}

/// ps_3_0 input declarations carry semantics, so one semantic on two `v#` is refused; the
/// ps_2_x `dcl v#` carries none, so two of them are two colour inputs.
#[test]
fn ps_3_0_inputs_declare_each_semantic_once() {
    accepts(
        "ps_3_0\ndcl_texcoord0 v0\ndcl_texcoord1 v1\nmov r0, v0\nadd r0, r0, v1\nmov oC0, r0\n",
    );
    refuses(
        "ps_3_0\ndcl_texcoord0 v0\ndcl_texcoord0 v1\nmov r0, v0\nadd r0, r0, v1\nmov oC0, r0\n",
        "semantic texcoord0 is declared twice",
    );
    accepts("ps_2_0\ndcl v0\ndcl v1\nmov r0, v0\nadd r0, r0, v1\nmov oC0, r0\n");
}

/// A register shared with psize is reported at the later of the two declarations (the one
/// that makes it shared), whichever of them comes first.
#[test]
fn psize_sharing_is_reported_at_the_later_declaration() {
    for decls in [
        "dcl_psize o1\ndcl_fog o1.y\n",
        "dcl_fog o1.y\ndcl_psize o1\n",
    ] {
        let text = format!("{VS3}{decls}mov o0, v0\nmov o1, c0.x\n");
        let msg = run(&text, &DeviceCaps::default()).unwrap_err().to_string();
        assert!(
            msg.contains("holds psize") && msg.contains("instruction 3 (dcl)"),
            "{text}\n{msg}"
        );
    }
}

/// vs_3_0 declares its outputs and samplers (the SDK's "Requires DCL" column for `o#` and
/// `s#`).
#[test]
fn vs_3_0_outputs_and_samplers_must_be_declared() {
    refuses(
        &format!("{VS3}mov o0, v0\nmov o1, v0\n"),
        "o1 is used but not declared",
    );
    refuses(
        &format!("{VS3}texldl r0, v0, s0\nmov o0, r0\n"),
        "s0 is used but not declared",
    );
    accepts(&format!("{VS3}dcl_2d s0\ntexldl r0, v0, s0\nmov o0, r0\n"));
}

/// ps_3_0 declares `vPos` and `vFace` (the misc-type registers) before reading them.
#[test]
fn ps_3_0_vpos_and_vface_must_be_declared() {
    refuses("ps_3_0\nmov oC0, vPos\n", "vPos is used but not declared");
    accepts("ps_3_0\ndcl vPos.xy\nmov oC0, vPos\n");
    refuses("ps_3_0\nmov oC0, vFace\n", "vFace is used but not declared");
    accepts("ps_3_0\ndcl vFace\nmov oC0, vFace\n");
}

/// A declaration covers its own register only: `dcl t0` does not declare `t1`, nor
/// `dcl_position v0` any other `v#`.
#[test]
fn a_declaration_covers_only_its_register() {
    refuses(
        "ps_2_0\ndcl t0\nmov r0, t0\nadd r0, r0, t1\nmov oC0, r0\n",
        "t1 is used but not declared",
    );
    refuses(
        "vs_2_0\ndcl_position v0\nmov r0, v0\nadd oPos, r0, v1\n",
        "v1 is used but not declared",
    );
}

// --- instructions, modifiers, versions ----------------------------------------------------

#[test]
fn flow_control_needs_2_0() {
    accepts("vs_2_0\ndcl_position v0\nmov r0, v0\nrep i0\nadd r0, r0, v0\nendrep\nmov oPos, r0\n");
    refuses_patched(
        "vs_2_0\ndcl_position v0\nmov r0, v0\nrep i0\nadd r0, r0, v0\nendrep\nmov oPos, r0\n",
        version(Stage::Vertex, 1, 1),
        "rep does not exist in vs_1_1",
    );
    refuses_patched(
        "ps_2_x\ndefb b0, true\nif b0\nmov oC0, c0\nendif\n",
        version(Stage::Pixel, 2, 0),
        "defb does not exist in ps_2_0",
    );
}

#[test]
fn mova_only_from_2_0() {
    accepts("vs_2_0\ndcl_position v0\nmova a0.x, c0.x\nmov oPos, c[a0.x]\n");
    refuses_patched(
        "vs_2_0\ndcl_position v0\nmova a0.x, c0.x\nmov oPos, c[a0.x]\n",
        version(Stage::Vertex, 1, 1),
        "mova does not exist in vs_1_1",
    );
    accepts("vs_1_1\ndcl_position v0\nmov a0.x, c0.x\nmov oPos, c[a0.x]\n");
    refuses_patched(
        "vs_2_0\ndcl_position v0\nmova a0.x, c0.x\nmov oPos, c[a0.x]\n",
        |p| p.instructions[1].opcode = crate::bytecode::Opcode::Mov,
        "register a0 (address (a0)) cannot be written in vs_2_0",
    );
}

#[test]
fn texldl_only_in_3_0() {
    accepts(&format!("{VS3}dcl_2d s0\ntexldl r0, v0, s0\nmov o0, r0\n"));
    accepts("ps_3_0\ndcl_texcoord v0\ndcl_2d s0\ntexldl r0, v0, s0\nmov oC0, r0\n");
    refuses_patched(
        "ps_3_0\ndcl_texcoord v0\ndcl_2d s0\ntexldl r0, v0, s0\nmov oC0, r0\n",
        version(Stage::Pixel, 2, 1),
        "texldl does not exist in ps_2_x",
    );
}

#[test]
fn predication_only_in_2_x_and_3_0() {
    accepts("vs_2_x\ndcl_position v0\nsetp_gt p0, v0, c0\n(p0) mov r0, v0\nmov oPos, v0\n");
    let mut p =
        program("vs_2_x\ndcl_position v0\nsetp_gt p0, v0, c0\n(p0) mov r0, v0\nmov oPos, v0\n");
    p.version = Version::new(Stage::Vertex, 2, 0);
    p.instructions.remove(1);
    let err = check(&p, Stage::Vertex, &DeviceCaps::default()).unwrap_err();
    assert!(
        err.to_string()
            .contains("predication is not allowed in vs_2_0"),
        "{err}"
    );
}

#[test]
fn source_modifiers_per_version() {
    accepts("ps_3_0\ndcl_texcoord v0\nmov oC0, v0_abs\n");
    refuses_patched(
        "ps_2_0\ndcl t0\nmov oC0, t0\n",
        |p| p.instructions[1].src[0].modifier = crate::bytecode::SrcModifier::Abs,
        "the _abs source modifier is not allowed in ps_2_0",
    );
    accepts("ps_1_1\nmov r0, c0_bx2\n");
    refuses_patched(
        "ps_2_0\nmov oC0, c0\n",
        |p| p.instructions[0].src[0].modifier = crate::bytecode::SrcModifier::Sign,
        "ps_1_x source modifier",
    );
}

#[test]
fn saturate_in_vs_3_0_and_every_pixel_shader() {
    use crate::bytecode::ResultModifier;
    let sat = |i: usize| {
        move |p: &mut Program| {
            p.instructions[i].dst.as_mut().unwrap().modifier =
                ResultModifier(ResultModifier::SATURATE)
        }
    };
    // vs: only vs_3_0 (SDK "Instruction Modifiers (vs)").
    accepts(&format!("{VS3}mov_sat r0, v0\nmov o0, r0\n"));
    refuses_patched(
        "vs_2_0\ndcl_position v0\nmov r0, v0\nmov oPos, r0\n",
        sat(1),
        "the _sat result modifier (vs_3_0 only) is not allowed in vs_2_0",
    );
    refuses_patched(
        "vs_1_1\ndcl_position v0\nmov r0, v0\nmov oPos, r0\n",
        sat(1),
        "the _sat result modifier (vs_3_0 only) is not allowed in vs_1_1",
    );
    refuses_patched(
        &format!("{VS3}frc r0, v0\nmov o0, r0\n"),
        sat(2),
        "_sat on frc",
    );
    // ps_1_x: allowed.
    accepts("ps_1_1\nmov_sat r0, c0\n");
    // ps_2_0+: not on tex*, not on oC# before ps_3_0.
    accepts("ps_2_0\nmov_sat r0, c0\nmov oC0, r0\n");
    accepts("ps_3_0\nmov_sat oC0, c0\n");
    refuses_patched(
        "ps_2_0\nmov oC0, c0\n",
        sat(0),
        "_sat on a write to oC#/oDepth",
    );
    refuses_patched(
        "ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n",
        sat(2),
        "_sat on tex is not allowed",
    );
}

#[test]
fn pp_and_centroid_in_pixel_shaders_2_0_and_later() {
    use crate::bytecode::ResultModifier;
    let with = |i: usize, m: u8| {
        move |p: &mut Program| p.instructions[i].dst.as_mut().unwrap().modifier = ResultModifier(m)
    };
    accepts("ps_2_0\ndcl_centroid t0\ndcl_2d s0\ntexld_pp r0, t0, s0\nmov_pp oC0, r0\n");
    refuses_patched(
        "ps_1_4\nmov r0, c0\n",
        with(0, ResultModifier::PARTIAL_PRECISION),
        "_pp / _centroid is not allowed in ps_1_4",
    );
    refuses_patched(
        &format!("{VS3}mov r0, v0\nmov o0, r0\n"),
        with(2, ResultModifier::PARTIAL_PRECISION),
        "_pp / _centroid is not allowed in vs_3_0",
    );
    // _centroid: dcl, texld*, dsx, dsy only (SDK "Instruction Modifiers (Pixel Shader)").
    refuses_patched(
        "ps_2_0\nmov r0, c0\nmov oC0, r0\n",
        with(0, ResultModifier::CENTROID),
        "_centroid on mov",
    );
}

#[test]
fn components_outside_the_declared_mask_are_accepted() {
    // Declarations are per register (see `declarations`): D3D9 has no per-component rule.
    accepts("ps_3_0\ndcl_texcoord0 v0.xy\nmov oC0, v0.z\n");
    accepts("ps_3_0\ndcl_texcoord0 v0.xy\ndcl_2d s0\ntexld r0, v0, s0\nmov oC0, r0\n");
}

// --- ps_1_x texture addressing ---------------------------------------------------------

#[test]
fn ps_1_x_texture_instructions_before_arithmetic() {
    accepts("ps_1_1\ntex t0\nmov r0, t0\n");
    refuses(
        "ps_1_1\nmov r0, v0\ntex t0\n",
        "a texture instruction after an arithmetic instruction",
    );
    accepts("ps_1_4\ntexld r0, t0\nmov r0, r0\nphase\ntexld r1, r0\nmov r0, r1\n");
    refuses(
        "ps_1_4\nmov r0, c0\ntexld r1, t0\n",
        "a texture instruction after an arithmetic instruction",
    );
}

#[test]
fn ps_1_x_one_texture_instruction_per_t_register() {
    accepts("ps_1_1\ntex t0\ntexkill t0\nmov r0, t0\n");
    refuses(
        "ps_1_1\ntex t0\ntex t1\ntexbem t1, t0\nmov r0, t1\n",
        "a second texture instruction writing the same t#",
    );
}

/// Found by `lift_robustness`'s pixel-shader property: `texbem r0, v0` passed the checker
/// and the lifter met a texture stage with no coordinate.
#[test]
fn ps_1_x_texture_instruction_operands() {
    const WRITE_T: &str = "ps_1_1–ps_1_3 texture instructions write a t# register";
    const LOWER_T: &str = "a t# numbered below its destination";
    accepts("ps_1_1\ntex t0\ntexbem t1, t0\nmov r0, t1\n");
    refuses("ps_1_1\ntexbem r0, v0\nmov r0, r0\n", WRITE_T);
    refuses("ps_1_1\ntex r0\nmov r0, r0\n", WRITE_T);
    refuses("ps_1_3\ntexcoord r1\nmov r0, r1\n", WRITE_T);
    refuses("ps_1_1\ntexkill r0\nmov r0, v0\n", WRITE_T);
    refuses("ps_1_1\ntex t0\ntexbem t1, v0\nmov r0, t1\n", LOWER_T);
    refuses("ps_1_1\ntex t1\ntexbem t1, t1\nmov r0, t1\n", LOWER_T);
    refuses("ps_1_1\ntex t1\ntexreg2ar t0, t1\nmov r0, t0\n", LOWER_T);
    refuses("ps_1_2\ntex t0\ntexdp3 t1, r0\nmov r0, t1\n", LOWER_T);
    refuses(
        "ps_1_1\ntex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3spec t3, t0, v0\nmov r0, t3\n",
        "texm3x3spec reads its eye vector from a c#",
    );
    accepts(
        "ps_1_1\ntex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3spec t3, t0, c0\nmov r0, t3\n",
    );
    const PS14: &str = "ps_1_4 texld/texcrd write an r#";
    accepts("ps_1_4\ntexcrd r0.rgb, t0\ntexld r1, t1\nphase\ntexld r2, r1\nmov r0, r2\n");
    refuses("ps_1_4\ntexld r0, v0\nmov r0, r0\n", PS14);
    refuses("ps_1_4\ntexcrd r0.rgb, r1\nmov r0, r0\n", PS14);
    refuses(
        "ps_1_4\ntexld t0, t0\nmov r0, r0\n",
        "cannot be written in ps_1_4",
    );
    accepts("ps_1_4\ntexld r0, t0\nphase\ntexdepth r5\nmov r0, r0\n");
    refuses(
        "ps_1_4\ntexld r0, t0\nphase\ntexdepth r4\nmov r0, r0\n",
        PS14,
    );
}

#[test]
fn ps_1_x_texm3x2_and_texm3x3_chains() {
    accepts("ps_1_1\ntex t0\ntexm3x2pad t1, t0\ntexm3x2tex t2, t0\nmov r0, t2\n");
    refuses(
        "ps_1_1\ntex t0\ntexm3x2pad t1, t0\nmov r0, t0\n",
        "texm3x2pad must be followed by texm3x2tex",
    );
    refuses(
        "ps_1_1\ntex t0\ntexm3x2pad t1, t0\ntexm3x2tex t3, t0\nmov r0, t3\n",
        "on the next register",
    );
    // The end of a chain without its pads (found by the pixel-shader robustness test: the
    // lifter met a texm3x2tex with no pad).
    refuses(
        "ps_1_1\ntex t0\ntexm3x2tex t1, t0\nmov r0, t1\n",
        "texm3x2tex/texm3x2depth must follow a texm3x2pad",
    );
    refuses(
        "ps_1_1\ntex t0\ntexm3x3pad t1, t0\nmov r1, t0\ntexm3x3tex t3, t0\nmov r0, t3\n",
        "texm3x3pad must be followed by a second texm3x3pad",
    );
    refuses(
        "ps_1_1\ntex t0\ntexm3x3tex t3, t0\nmov r0, t3\n",
        "texm3x3tex/texm3x3spec/texm3x3vspec/texm3x3 must follow two texm3x3pad",
    );
    accepts(
        "ps_1_1\ntex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3tex t3, t0\nmov r0, t3\n",
    );
    refuses(
        "ps_1_1\ntex t0\ntexm3x3pad t1, t0\ntexm3x3tex t2, t0\nmov r0, t2\n",
        "texm3x3pad must be followed by a second texm3x3pad",
    );
    refuses(
        "ps_1_1\ntex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\nmov r0, t0\n",
        "texm3x3pad, texm3x3pad must be followed by texm3x3tex",
    );
}

#[test]
fn ps_1_4_one_phase_and_texdepth_in_phase_2() {
    accepts("ps_1_4\ntexld r0, t0\nphase\ntexdepth r5\nmov r0, r0\n");
    refuses(
        "ps_1_4\ntexdepth r5\nmov r0, c0\n",
        "texdepth outside phase 2",
    );
    refuses_patched(
        "ps_1_4\ntexld r0, t0\nphase\nmov r0, r0\n",
        |p| {
            let ph = p.instructions[1].clone();
            p.instructions.insert(1, ph);
        },
        "a second phase",
    );
}

// --- instruction slots ----------------------------------------------------------------

/// `n` copies of `line`.
fn lines(line: &str, n: usize) -> String {
    line.repeat(n)
}

#[test]
fn vs_1_1_has_128_slots_and_macros_count_several() {
    let head = "vs_1_1\ndcl_position v0\n";
    accepts(&format!("{head}{}", lines("mov oPos, v0\n", 128)));
    refuses(
        &format!("{head}{}", lines("mov oPos, v0\n", 129)),
        "129 instruction slots; vs_1_1 allows 128",
    );
    // m4x4 takes 4 slots: 32 of them fill vs_1_1, one more mov is over.
    accepts(&format!("{head}{}", lines("m4x4 oPos, v0, c0\n", 32)));
    refuses(
        &format!("{head}{}mov oD0, v0\n", lines("m4x4 oPos, v0, c0\n", 32)),
        "129 instruction slots",
    );
    // def and dcl take none.
    accepts(&format!(
        "{head}def c0, 1, 1, 1, 1\n{}",
        lines("mov oPos, v0\n", 128)
    ));
}

#[test]
fn vs_2_0_has_256_slots_vs_3_0_the_caps() {
    let head = "vs_2_0\ndcl_position v0\n";
    accepts(&format!("{head}{}", lines("mov oPos, v0\n", 256)));
    refuses(
        &format!("{head}{}", lines("mov oPos, v0\n", 257)),
        "257 instruction slots; vs_2_0 allows 256",
    );
    // sincos takes 8 slots in vs_2_0.
    refuses(
        &format!("{head}{}", lines("sincos r0.xy, v0.x, c0, c1\n", 33)),
        "264 instruction slots",
    );
    let body = format!("{VS3}{}", lines("mov o0, v0\n", 513));
    accepts(&body);
    let caps = DeviceCaps {
        max_vertex_shader_30_instruction_slots: 512,
        ..DeviceCaps::default()
    };
    refuses_on(&body, &caps, "513 instruction slots; vs_3_0 allows 512");
}

#[test]
fn ps_1_x_has_8_arithmetic_and_4_or_6_texture_slots() {
    accepts(&format!("ps_1_1\n{}", lines("mov r0, v0\n", 8)));
    refuses(
        &format!("ps_1_1\n{}", lines("mov r0, v0\n", 9)),
        "9 arithmetic instruction slots; ps_1_1 allows 8",
    );
    // A co-issued pair takes one slot.
    accepts(&format!(
        "ps_1_1\n{}",
        lines("mov r0.rgb, v0\n+mov r0.a, v0\n", 8)
    ));
    // ps_1_4: 8 arithmetic per phase.
    let phase = lines("mov r0, c0\n", 8);
    accepts(&format!("ps_1_4\n{phase}phase\n{phase}"));
    refuses(
        &format!("ps_1_4\n{phase}phase\n{phase}mov r0, c0\n"),
        "9 arithmetic instruction slots (phase 2); ps_1_4 allows 8",
    );
    accepts("ps_1_4\ntexld r0, t0\ntexld r1, t1\ntexld r2, t2\ntexld r3, t3\ntexld r4, t4\ntexld r5, t5\nmov r0, r0\n");
    refuses_patched(
        "ps_1_4\ntexld r0, t0\ntexld r1, t1\ntexld r2, t2\ntexld r3, t3\ntexld r4, t4\ntexld r5, t5\nmov r0, r0\n",
        |p| {
            let t = p.instructions[0].clone();
            p.instructions.insert(0, t);
        },
        "7 texture instruction slots; ps_1_4 allows 6",
    );
}

#[test]
fn ps_2_0_has_64_arithmetic_and_32_texture_slots() {
    accepts(&format!(
        "ps_2_0\n{}mov oC0, r0\n",
        lines("mov r0, c0\n", 63)
    ));
    refuses(
        &format!("ps_2_0\n{}mov oC0, r0\n", lines("mov r0, c0\n", 64)),
        "65 arithmetic instruction slots; ps_2_0 allows 64",
    );
    let tex = "dcl t0\ndcl_2d s0\n";
    accepts(&format!(
        "ps_2_0\n{tex}{}mov oC0, r0\n",
        lines("texld r0, t0, s0\n", 32)
    ));
    refuses(
        &format!(
            "ps_2_0\n{tex}{}mov oC0, r0\n",
            lines("texld r0, t0, s0\n", 33)
        ),
        "33 texture instruction slots; ps_2_0 allows 32",
    );
    // A device that does not count slots (as Wine's d3d9) takes both.
    let uncounted = DeviceCaps {
        instruction_slot_limits: false,
        ..DeviceCaps::default()
    };
    for body in [
        format!("ps_2_0\n{}mov oC0, r0\n", lines("mov r0, c0\n", 64)),
        format!(
            "ps_2_0\n{tex}{}mov oC0, r0\n",
            lines("texld r0, t0, s0\n", 33)
        ),
    ] {
        accepts_on(&body, &uncounted);
    }
    // ps_2_x: PS20Caps.NumInstructionSlots for all instructions together.
    let body = format!("ps_2_x\n{}mov oC0, r0\n", lines("mov r0, c0\n", 95));
    let caps = DeviceCaps {
        ps_num_instruction_slots: 96,
        ..DeviceCaps::default()
    };
    accepts_on(&body, &caps);
    refuses_on(
        &format!("{body}mov oC0, r0\n"),
        &caps,
        "97 instruction slots; ps_2_x allows 96",
    );
}

// --- flow control -------------------------------------------------------------------------

#[test]
fn blocks_are_balanced() {
    let body = "mov r0, v0\n";
    accepts(&format!(
        "{VS3}if b0\n{body}else\n{body}endif\nmov o0, r0\n"
    ));
    refuses(&format!("{VS3}if b0\n{body}mov o0, r0\n"), "is not closed");
    refuses(
        &format!("{VS3}{body}endif\nmov o0, r0\n"),
        "endif without a matching if",
    );
    refuses(
        &format!("{VS3}if b0\nelse\nelse\nendif\nmov o0, v0\n"),
        "else without a matching if",
    );
    refuses(
        &format!("{VS3}loop aL, i0\n{body}endrep\nmov o0, r0\n"),
        "endrep without a matching rep",
    );
    accepts(&format!(
        "{VS3}mov o0, v0\ncall l0\nret\nlabel l0\nmov r0, v0\nret\n"
    ));
    refuses(
        &format!("{VS3}mov o0, v0\ncall l1\nret\nlabel l0\nret\n"),
        "undefined label l1",
    );
    refuses(&format!("{VS3}mov o0, v0\nret\nmov r0, v0\n"), "after ret");
}

#[test]
fn al_only_inside_loop() {
    accepts(&format!(
        "{VS3}mov r0, v0\nloop aL, i0\nadd r0, r0, c[aL]\nendloop\nmov o0, r0\n"
    ));
    refuses(
        &format!("{VS3}mov r0, c[aL]\nmov o0, r0\n"),
        "aL is outside any loop",
    );
    refuses(
        &format!("{VS3}mov r0, v0\nrep i0\nadd r0, r0, c[aL]\nendrep\nmov o0, r0\n"),
        "aL is outside any loop",
    );
}

#[test]
fn break_only_inside_loop_or_rep() {
    accepts("vs_2_x\ndcl_position v0\nrep i0\nbreak\nendrep\nmov oPos, v0\n");
    refuses(
        "vs_2_x\ndcl_position v0\nbreak\nmov oPos, v0\n",
        "break is outside any loop or rep",
    );
}

#[test]
fn loop_nesting_1_in_vs_2_0_4_in_vs_3_0() {
    let nested = |n: usize, header: &str, end: &str| {
        let mut s = String::from(header);
        s += &"rep i0\n".repeat(n);
        s += "add r0, r0, c0\n";
        s += &"endrep\n".repeat(n);
        s + end
    };
    let vs2 = "vs_2_0\ndcl_position v0\nmov r0, v0\n";
    accepts(&nested(1, vs2, "mov oPos, r0\n"));
    refuses(
        &nested(2, vs2, "mov oPos, r0\n"),
        "loop/rep nesting depth 2 exceeds 1",
    );
    let vs3 = &format!("{VS3}mov r0, v0\n");
    accepts(&nested(4, vs3, "mov o0, r0\n"));
    refuses(
        &nested(5, vs3, "mov o0, r0\n"),
        "loop/rep nesting depth 5 exceeds 4",
    );
    // vs_2_x: the device's VS20Caps.StaticFlowControlDepth (here 2), not vs_3_0's 4.
    let vs2x = "vs_2_x\ndcl_position v0\nmov r0, v0\n";
    let two = DeviceCaps {
        vs_static_flow_control_depth: 2,
        ..DeviceCaps::default()
    };
    accepts_on(&nested(2, vs2x, "mov oPos, r0\n"), &two);
    refuses_on(
        &nested(3, vs2x, "mov oPos, r0\n"),
        &two,
        "loop/rep nesting depth 3 exceeds 2",
    );
}

#[test]
fn recursion_is_refused() {
    refuses(
        &format!("{VS3}mov o0, v0\ncall l0\nret\nlabel l0\ncall l0\nret\n"),
        "calls itself",
    );
}

/// Subroutine calls nest 1 deep in vs_2_0 and 4 deep in vs_3_0 (the SDK's "call nesting
/// depth"): main calling `l0` is depth 1, `l0` calling `l1` depth 2, and so on.
#[test]
fn call_nesting_1_in_vs_2_0_4_in_vs_3_0() {
    let chain = |n: u32, header: &str, out: &str| {
        let mut s = format!("{header}mov {out}, v0\ncall l0\nret\n");
        for i in 0..n {
            s += &format!("label l{i}\n");
            if i + 1 < n {
                s += &format!("call l{}\n", i + 1);
            }
            s += "ret\n";
        }
        s
    };
    let vs2 = "vs_2_0\ndcl_position v0\n";
    accepts(&chain(1, vs2, "oPos"));
    refuses(&chain(2, vs2, "oPos"), "call nesting depth 2 exceeds 1");
    accepts(&chain(4, VS3, "o0"));
    refuses(&chain(5, VS3, "o0"), "call nesting depth 5 exceeds 4");
}

/// A function's call depth is that of its deepest call, wherever that call stands among its
/// calls, and of equally deep chains the first is the one reported.
#[test]
fn call_depth_is_the_deepest_chain() {
    let vs2 = "vs_2_0\ndcl_position v0\nmov oPos, v0\n";
    let leaf = "label l2\nret\n";
    let deep = "label l0\ncall l1\nret\nlabel l1\nret\n";
    // Deep chain first, shallow call after it, and the other way round.
    refuses(
        &format!("{vs2}call l0\ncall l2\nret\n{deep}{leaf}"),
        "call nesting depth 2 exceeds 1",
    );
    refuses(
        &format!("{vs2}call l2\ncall l0\nret\n{deep}{leaf}"),
        "call nesting depth 2 exceeds 1",
    );
    // Two chains of depth 2: the error stands at the first one's inner call (instruction 6,
    // `call l1` in l0), not the second's (instruction 11, `call l1` in l3).
    let two = format!("{vs2}call l0\ncall l3\nret\n{deep}label l3\ncall l1\nret\n");
    refuses(&two, "instruction 6 (call)");
}

/// `breakp` takes the predicate register (a temporary passes the register rules and is
/// refused by the flow rule).
#[test]
fn breakp_takes_p0() {
    let text = "vs_2_x\ndcl_position v0\nmov r0, v0\nrep i0\nbreakp p0.x\nendrep\nmov oPos, r0\n";
    accepts(text);
    refuses_patched(
        text,
        |p| {
            if let Some(s) = p.instructions[3].src.get_mut(0) {
                s.reg.file = RegisterFile::Temp;
            }
        },
        "must be p0",
    );
}

/// `call` and `callnz` count against vs_2_0's 16 static flow-control instructions.
#[test]
fn vs_2_0_counts_calls_as_static_flow() {
    let calls = |call: &str, n: usize| {
        format!(
            "vs_2_0\ndcl_position v0\nmov oPos, v0\n{}ret\nlabel l0\nret\n",
            call.repeat(n)
        )
    };
    accepts(&calls("call l0\n", 16));
    refuses(&calls("call l0\n", 17), "static flow instruction count");
    accepts(&calls("callnz l0, b0\n", 16));
    refuses(
        &calls("callnz l0, b0\n", 17),
        "static flow instruction count",
    );
}

/// `if p0` and `callnz …, p0` need the predicate register, which vs_2_0 lacks: the
/// register rules refuse it there (the assembler does too, so the version is patched in).
#[test]
fn predicated_conditions_need_a_2_x_profile() {
    let to_2_0 = |p: &mut Program| p.version.minor = 0;
    let if_p0 =
        "vs_2_x\ndcl_position v0\nmov r0, v0\nif p0.x\nadd r0, r0, c0\nendif\nmov oPos, r0\n";
    accepts(if_p0);
    refuses_patched(if_p0, to_2_0, "cannot be read in vs_2_0");
    let callnz_p0 = "vs_2_x\ndcl_position v0\nmov oPos, v0\ncallnz l0, p0.x\nret\nlabel l0\nret\n";
    accepts(callnz_p0);
    refuses_patched(callnz_p0, to_2_0, "cannot be read in vs_2_0");
}

// --- stage, profile, API ------------------------------------------------------------------

#[test]
fn wrong_stage_and_profiles_above_caps() {
    let ps = program("ps_2_0\nmov oC0, c0\n");
    assert!(check(&ps, Stage::Pixel, &DeviceCaps::default()).is_ok());
    let err = check(&ps, Stage::Vertex, &DeviceCaps::default()).unwrap_err();
    assert!(
        err.is_invalid() && err.to_string().contains("given to the vertex"),
        "{err}"
    );
    let vs2_device = DeviceCaps {
        max_vs_version: (2, 0),
        ..DeviceCaps::default()
    };
    refuses_on(
        &format!("{VS3}mov o0, v0\n"),
        &vs2_device,
        "above the device's VertexShaderVersion 2.0",
    );
    refuses_on(
        "ps_2_0\nmov oC0, c0\n",
        &DeviceCaps::d3d8(),
        "not a Direct3D 8 shader profile",
    );
}

/// `DeviceCaps::d3d8` is a Direct3D 8 device as `D3DCAPS8` describes it: VertexShaderVersion
/// 1.1 and PixelShaderVersion 1.4 (the highest versions Direct3D 8 has), hardware vertex
/// processing; its shaders are checked by Direct3D 8's rules (vertex inputs need no `dcl`).
#[test]
fn d3d8_device_reports_vs_1_1_and_ps_1_4() {
    let caps = DeviceCaps::d3d8();
    assert_eq!(caps.api, Api::D3D8);
    assert_eq!(caps.max_vs_version, (1, 1));
    assert_eq!(caps.max_ps_version, (1, 4));
    assert_eq!(caps.vertex_processing, VertexProcessing::Hardware);
    accepts_on(
        "vs_1_1
mov oPos, v0
",
        &caps,
    );
    accepts_on(
        "ps_1_4
texld r0, t0
mov r0, r0
",
        &caps,
    );
}

/// The checked program carries the device it was checked for: the lifter and the
/// interpreter size the constant files from it (8192 `c#` under software processing).
#[test]
fn a_checked_program_keeps_the_device_it_was_checked_for() {
    let text = "vs_1_1\ndcl_position v0\nmov oPos, v0\n";
    for caps in [DeviceCaps::software(), DeviceCaps::d3d8()] {
        let checked = check(&program(text), Stage::Vertex, &caps).unwrap();
        assert_eq!(checked.caps(), &caps);
        assert_eq!(checked.program(), &program(text));
    }
}

/// A vertex shader's constant counts depend on the vertex-processing mode (256 `c#` and 16
/// `b#` under hardware, 8192 and 2048 under software); the out-of-range error says which
/// mode set the count. Pixel-shader counts depend on no mode.
#[test]
fn constant_range_errors_name_the_vertex_processing_mode() {
    refuses(
        "vs_1_1\ndcl_position v0\nadd oPos, v0, c256\n",
        "registers under hardware vertex processing",
    );
    let text = format!("{VS3}mov r0, v0\nif b15\nadd r0, r0, v0\nendif\nmov o0, r0\n");
    let mut p = program(&text);
    renumber(RegisterFile::ConstBool, 15, 2048)(&mut p);
    let err = check(&p, Stage::Vertex, &DeviceCaps::software()).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("b2048 is out of range")
            && msg.contains("registers under software vertex processing"),
        "{msg}"
    );
    let mut p = program("ps_2_0\nmov r0, c31\nmov oC0, r0\n");
    renumber(RegisterFile::Const, 31, 32)(&mut p);
    let err = check(&p, Stage::Pixel, &DeviceCaps::software()).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("c32 is out of range") && !msg.contains("vertex processing"),
        "{msg}"
    );
}

#[test]
fn non_d3d9_bytes_are_invalid() {
    let err = check_bytes(
        &[0x44, 0x58, 0x42, 0x43],
        Stage::Pixel,
        &DeviceCaps::default(),
    )
    .unwrap_err();
    assert!(
        matches!(err, CheckError::Invalid(InvalidShader::Decode(_))),
        "{err}"
    );
}

#[test]
fn software_pixel_profiles_are_unsupported_not_invalid() {
    let mut p = program("ps_3_0\nmov oC0, c0\n");
    p.version = Version::new(Stage::Pixel, 3, 0xFF);
    let err = check(&p, Stage::Pixel, &DeviceCaps::software()).unwrap_err();
    assert!(matches!(err, CheckError::Unsupported(_)), "{err}");
    assert!(!err.is_invalid(), "{err}");
}

#[test]
fn errors_name_the_register() {
    let r = RegName(Register::new(RegisterFile::RastOut, 0));
    assert_eq!(r.to_string(), "oPos");
}

#[test]
fn labels_samplers_and_flow_constants_are_no_arithmetic_sources() {
    let base = "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_2d s0\ndefi i0, 1, 0, 0, 0\n\
                defb b0, true\nmov r0, v0\nmov r1, v0\nmad o0, r0, c0, r1\nret\nlabel l2\nret\n";
    accepts(base);
    // The mad's second source becomes l2, s0, i0, b0 or p0 (a fuzzer found l2 reaching the
    // translator): each is refused as an operand of the wrong file.
    for (file, index) in [
        (RegisterFile::Label, 2),
        (RegisterFile::Sampler, 0),
        (RegisterFile::ConstInt, 0),
        (RegisterFile::ConstBool, 0),
        (RegisterFile::Predicate, 0),
    ] {
        refuses_patched(
            base,
            move |p| {
                let mad = p
                    .instructions
                    .iter_mut()
                    .find(|i| i.opcode == Opcode::Mad)
                    .expect("mad");
                mad.src[1].reg = Register::new(file, index);
            },
            "l#, b#, i#, p0 and s# are the operands of",
        );
    }
}

/// `t#` is a pixel-shader file: a vertex shader's raw type 3 decodes as `a0`, and a program
/// built with `t#` in a vertex shader is refused.
#[test]
fn texture_registers_are_pixel_shader_only() {
    let text = "vs_2_0\ndcl_position v0\nmov r0, v0\nmov oPos, r0\n";
    refuses_patched(
        text,
        |p| {
            if let Some(s) = p.instructions[1].src.get_mut(0) {
                s.reg.file = RegisterFile::Texture;
            }
        },
        "t0 (texture (t#)) cannot be read in vs_2_0",
    );
}

// The SDK's "Software Shaders" page: what the `_sw` profiles relax (all other validations
// remain those of vs_2_x / vs_3_0 / ps_2_x / ps_3_0).

/// No read-port limit in the `_sw` profiles: the held-out vs_3_sw shader whose `if` compares
/// two `v#` registers, and three distinct `c#` in one vs_2_sw instruction.
#[test]
fn software_profiles_have_no_read_port_limit() {
    let sw = DeviceCaps::software();
    let if_two_inputs = "dcl_position v0\ndcl_texcoord v1\ndcl_position o0\nmov o0, v0\n\
                         if_lt v0.x, v1.x\nmov o0, v1\nendif\n";
    accepts_on(&format!("vs_3_sw\n{if_two_inputs}"), &sw);
    refuses_on(
        &format!("vs_3_0\n{if_two_inputs}"),
        &sw,
        "reads 2 distinct input (v#) registers; vs_3_0 allows 1",
    );
    let three_constants = "dcl_position v0\nmad oPos, c0, c1, c2\n";
    accepts_on(&format!("vs_2_sw\n{three_constants}"), &sw);
    refuses_on(
        &format!("vs_2_x\n{three_constants}"),
        &sw,
        "reads 3 distinct float constant (c#) registers",
    );
}

/// 16 `o#` in vs_3_sw, 12 in vs_3_0.
#[test]
fn vs_3_sw_has_16_output_registers() {
    let sw = DeviceCaps::software();
    accepts_on(
        "vs_3_sw\ndcl_position o0\ndcl_texcoord14 o15\nmov o0, c0\nmov o15, c1\n",
        &sw,
    );
    let err = assemble("vs_3_0\ndcl_position o0\ndcl_texcoord14 o15\nmov o0, c0\nmov o15, c1\n")
        .expect_err("o15 in vs_3_0");
    assert!(
        err.to_string()
            .contains("register o15 does not exist in vs_3_0"),
        "{err}"
    );
    // The checker refuses it too (a program built with o15 in vs_3_0).
    let mut p = program("vs_3_sw\ndcl_position o0\ndcl_texcoord14 o15\nmov o0, c0\nmov o15, c1\n");
    p.version = crate::bytecode::Version::new(Stage::Vertex, 3, 0);
    let err = check(&p, Stage::Vertex, &sw).expect_err("vs_3_0 has 12 o#");
    assert!(err.to_string().contains("o15 is out of range"), "{err}");
}

/// 8192 float, 2048 integer and 2048 boolean constants in the `_sw` profiles.
#[test]
fn software_profiles_take_8192_float_2048_int_and_2048_bool_constants() {
    let sw = DeviceCaps::software();
    for version in ["vs_2_sw", "vs_3_sw"] {
        let (dcl, out) = if version == "vs_3_sw" {
            ("dcl_position o0\n", "mov o0, r0\n")
        } else {
            ("", "mov oPos, r0\n")
        };
        accepts_on(
            &format!(
                "{version}\ndcl_position v0\n{dcl}defi i2047, 1, 0, 0, 0\ndefb b2047, true\n\
                 mov r0, c8191\nif b2047\nrep i2047\nadd r0, r0, c8191\nendrep\nendif\n{out}"
            ),
            &sw,
        );
        // One past: the assembler refuses to write them (it reads the same register table).
        for (past, words) in [
            ("mov r0, c8192", "register index 8192 is out of range"),
            ("rep i2048\nendrep", "register index 2048 is out of range"),
            ("if b2048\nendif", "register index 2048 is out of range"),
        ] {
            let text = format!("{version}\n{past}\n");
            let err = assemble(&text).expect_err(past);
            assert!(err.to_string().contains(words), "{err}");
        }
    }
    // Hardware profiles: 16 i# and b#.
    let err = assemble("vs_2_x\nrep i16\nendrep\n").expect_err("i16 in vs_2_x");
    assert!(
        err.to_string().contains("register i16 does not exist"),
        "{err}"
    );
}

/// No instruction-slot limit in the `_sw` profiles: 600 slots in vs_2_sw and vs_3_sw
/// (vs_2_x allows 256, vs_3_0 512 by default).
#[test]
fn software_profiles_have_no_instruction_limit() {
    let sw = DeviceCaps::software();
    let body = "add r0, r0, c0\n".repeat(600);
    accepts_on(
        &format!("vs_2_sw\ndcl_position v0\n{body}mov oPos, r0\n"),
        &sw,
    );
    accepts_on(
        &format!("vs_3_sw\ndcl_position v0\ndcl_position o0\n{body}mov o0, r0\n"),
        &sw,
    );
    refuses_on(
        &format!("vs_2_x\ndcl_position v0\n{body}mov oPos, r0\n"),
        &sw,
        "instruction slots",
    );
}

/// vs_2_sw: unlimited flow-control instructions (vs_2_0 allows 16 static ones) and up to
/// 2048 labels.
#[test]
fn vs_2_sw_has_unlimited_flow_control_and_2048_labels() {
    let sw = DeviceCaps::software();
    let blocks = "if b0\nadd r0, r0, c0\nendif\n".repeat(40);
    accepts_on(
        &format!("vs_2_sw\ndcl_position v0\n{blocks}mov oPos, r0\n"),
        &sw,
    );
    refuses_on(
        &format!("vs_2_0\ndcl_position v0\n{blocks}mov oPos, r0\n"),
        &sw,
        "static flow",
    );
    accepts_on(
        "vs_2_sw\ndcl_position v0\ncall l2047\nmov oPos, v0\nret\nlabel l2047\nret\n",
        &sw,
    );
}
