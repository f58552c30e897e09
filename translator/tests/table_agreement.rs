//! The opcode table in `bytecode` and every stage that reads it agree: for each opcode in each
//! profile, the assembler accepts the instruction exactly where [`Opcode::exists_in`] says it
//! exists, the decoder reads back what the encoder wrote, the checker refuses it as "does not
//! exist" exactly where the table says so, and the lifter never fails with an internal error
//! on it.

use d3d9_translator::asm::{assemble, disasm::instruction_text, AsmErrorKind};
use d3d9_translator::bytecode::{
    decode, encode, Comparison, Control, Declaration, DstParam, Form, Instruction, Literal, Opcode,
    Program, Register, RegisterFile, SrcParam, Stage, TextureType, Usage, Version, WriteMask,
    OPCODES,
};
use d3d9_translator::check::{check, CheckError, DeviceCaps, InvalidShader, VertexProcessing};
use d3d9_translator::lift::{translate_vertex_shader, LiftError, VertexShaderOptions};

/// Every D3D9 profile (the `ps_*_sw` reference-rasterizer profiles are left out: the checker
/// does not take them).
fn versions() -> Vec<Version> {
    let vs = |major, minor| Version::new(Stage::Vertex, major, minor);
    let ps = |major, minor| Version::new(Stage::Pixel, major, minor);
    vec![
        vs(1, 1),
        vs(2, 0),
        vs(2, 1),
        vs(2, 0xFF),
        vs(3, 0),
        vs(3, 0xFF),
        ps(1, 1),
        ps(1, 2),
        ps(1, 3),
        ps(1, 4),
        ps(2, 0),
        ps(2, 1),
        ps(3, 0),
    ]
}

/// The form the decoder uses for `op` in `v`: its own, else one of its stage, else any.
fn shape(op: Opcode, v: Version) -> Form {
    let forms = op.info().forms;
    op.form(v)
        .or_else(|| forms.iter().find(|f| f.stages.contains(v.stage)))
        .or(forms.first())
        .copied()
        .expect("every opcode has a form")
}

/// One instruction of `op` with the operand counts of its form in `v` and plausible
/// registers, so that the rules about the opcode itself are what is tested.
fn instruction(op: Opcode, v: Version) -> Instruction {
    let form = shape(op, v);
    let vs = v.stage == Stage::Vertex;
    let mut inst = Instruction::new(op);
    let temp = |i| Register::new(RegisterFile::Temp, i);
    if form.dst {
        let reg = match op {
            Opcode::Dcl if vs => Register::new(RegisterFile::Input, 0),
            Opcode::Dcl => Register::new(RegisterFile::Sampler, 0),
            Opcode::Def => Register::new(RegisterFile::Const, 0),
            Opcode::Defi => Register::new(RegisterFile::ConstInt, 0),
            Opcode::Defb => Register::new(RegisterFile::ConstBool, 0),
            // Register type 3 is a0 only in vertex shaders (t# in pixel shaders).
            Opcode::Mova if vs => Register::new(RegisterFile::Addr, 0),
            Opcode::Setp => Register::new(RegisterFile::Predicate, 0),
            _ if !vs && v.major == 1 && op != Opcode::Cnd && op.value() >= 64 => {
                Register::new(RegisterFile::Texture, 1)
            }
            _ => temp(0),
        };
        let mut dst = DstParam::new(reg);
        if let Some(masks) = op.dst_masks() {
            dst.mask = masks[0];
        }
        if op == Opcode::Mova {
            dst.mask = WriteMask(1);
        }
        inst.dst = Some(dst);
    }
    // One source register repeated: ps_1_1 has only r0 and r1, and one register read
    // several times takes one read port.
    for _ in 0..form.srcs {
        inst.src.push(SrcParam::new(temp(1)));
    }
    match op {
        Opcode::Dcl if vs => {
            inst.decl = Some(Declaration::Semantic {
                usage: Usage::TexCoord,
                index: 0,
            })
        }
        Opcode::Dcl => inst.decl = Some(Declaration::Sampler(TextureType::TwoD)),
        Opcode::Def => inst.literal = Some(Literal::Float([0x3F80_0000; 4])),
        Opcode::Defi => inst.literal = Some(Literal::Int([1, 0, 1, 0])),
        Opcode::Defb => inst.literal = Some(Literal::Bool(1)),
        Opcode::Ifc | Opcode::Breakc | Opcode::Setp => {
            inst.control = Control::Comparison(Comparison::Gt)
        }
        _ => {}
    }
    inst
}

fn caps(v: Version) -> DeviceCaps {
    DeviceCaps {
        vertex_processing: if v.is_software() {
            VertexProcessing::Software
        } else {
            VertexProcessing::Hardware
        },
        ..DeviceCaps::default()
    }
}

#[test]
fn every_stage_agrees_with_the_opcode_table() {
    let mut failures = Vec::new();
    let mut refused = Vec::new();
    let (mut pairs, mut existing, mut assembled, mut lifted) = (0, 0, 0, 0);
    for info in OPCODES {
        let op = info.opcode;
        for v in versions() {
            pairs += 1;
            let exists = op.exists_in(v);
            existing += usize::from(exists);
            let inst = instruction(op, v);
            let what = format!("{op} in {v}");

            // Assembler: refuses the mnemonic as "not in this version" exactly where the
            // table says the opcode does not exist.
            let text = format!("{v}\n{}\n", instruction_text(&inst, v));
            match assemble(&text) {
                Ok(_) if exists => assembled += 1,
                Ok(_) => failures.push(format!("{what}: assembled, but the table has no form")),
                Err(e) => {
                    let not_here = matches!(e.kind, AsmErrorKind::OpcodeNotInVersion { .. });
                    if not_here == exists {
                        failures.push(format!("{what}: assembler says {e:?} ({text:?})"));
                    } else if exists {
                        refused.push(format!("{what}: {e} ({text:?})"));
                    }
                }
            }

            // Decoder: reads back exactly what the encoder wrote, in every version (a form
            // outside its version decodes too, so that the checker can name the problem).
            let mut program = Program::new(v);
            program.instructions.push(inst.clone());
            let tokens = encode(&program);
            let decoded = match decode(&tokens) {
                Ok(p) => p,
                Err(e) => {
                    failures.push(format!("{what}: does not decode: {e}"));
                    continue;
                }
            };
            let same = decoded.instructions.len() == 1
                && decoded.instructions[0].opcode == op
                && decoded.instructions[0].dst == inst.dst
                && decoded.instructions[0].src == inst.src;
            if !same {
                failures.push(format!("{what}: decodes as {:?}", decoded.instructions));
            }
            if encode(&decoded) != tokens {
                failures.push(format!("{what}: tokens do not round-trip"));
            }

            // Checker: "does not exist" exactly where the table says so.
            let result = check(&decoded, v.stage, &caps(v));
            let not_in_version = matches!(
                &result,
                Err(CheckError::Invalid(
                    InvalidShader::OpcodeNotInVersion { .. }
                ))
            );
            if not_in_version == exists {
                failures.push(format!("{what}: checker says {result:?}"));
            }

            // Lifter: a checked vertex shader translates (or is Unsupported), never an
            // internal error, whatever the opcode.
            if let (Stage::Vertex, Ok(checked)) = (v.stage, &result) {
                match translate_vertex_shader(checked, &VertexShaderOptions::default()) {
                    Err(e @ LiftError::Internal(_)) => {
                        failures.push(format!("{what}: lifter: {e}"))
                    }
                    Ok(_) => lifted += 1,
                    Err(_) => {}
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("{pairs} (opcode, version) pairs, {existing} existing, {assembled} assembled, {lifted} lifted alone");
    assert_eq!(pairs, OPCODES.len() * versions().len());
    // The table's size: a change here is a change of which instructions exist where.
    assert_eq!(existing, 532);
    // The single-instruction vertex shaders the checker accepts, every one translated (a
    // checked program the lifter refused, even as Unsupported, would lower this count).
    assert_eq!(lifted, 147);
    assert_eq!(assembled, existing, "{}", refused.join("\n"));
}

/// The register-file table and the assembler and checker agree: register 0 of each file is
/// "not in this version" for the assembler, and refused by the checker, exactly where
/// `file_rule` has no entry (hardware vertex processing; the `_sw` profiles on a software
/// device).
#[test]
fn assembler_and_checker_agree_with_the_register_file_table() {
    use d3d9_translator::bytecode::file_rule;
    use RegisterFile::*;
    let files = [
        Temp, Input, Const, Addr, Texture, RastOut, AttrOut, TexCrdOut, Output, ConstInt, ColorOut,
        DepthOut, Sampler, Const2, Const3, Const4, ConstBool, Loop, MiscType, Label, Predicate,
    ];
    let mut failures = Vec::new();
    let mut existing = 0;
    for v in versions() {
        for file in files {
            // Register type 3 is a0 in vertex shaders, t# in pixel shaders; type 6 is o# from
            // vs_3_0, oT# before.
            let stage_file = RegisterFile::from_raw(file.raw(), v) == Some(file);
            if !stage_file {
                continue;
            }
            let processing = caps(v).vertex_processing;
            let exists = file_rule(v, file, processing).is_some();
            existing += usize::from(exists);
            let reg = Register::new(file, 0);
            let text = if file.is_readable() {
                format!("{v}\nmov r0, {reg}\n")
            } else {
                format!("{v}\nmov {reg}, r0\n")
            };
            let not_here = match assemble(&text) {
                Ok(_) => false,
                Err(e) => matches!(e.kind, AsmErrorKind::RegisterNotInVersion { .. }),
            };
            if not_here == exists {
                failures.push(format!("{file:?} in {v}: assembler ({text:?})"));
            }
            // The checker, on the decoded instruction.
            let mut program = Program::new(v);
            let mut inst = Instruction::new(Opcode::Mov);
            if file.is_readable() {
                inst.dst = Some(DstParam::new(Register::new(Temp, 0)));
                inst.src.push(SrcParam::new(reg));
            } else {
                inst.dst = Some(DstParam::new(reg));
                inst.src.push(SrcParam::new(Register::new(Temp, 0)));
            }
            program.instructions.push(inst);
            let refused = matches!(
                check(&program, v.stage, &caps(v)),
                Err(CheckError::Invalid(InvalidShader::RegisterAccess { .. }))
            );
            // A file that exists may still be refused for this access (e.g. writing s0 or
            // reading i0 with mov): only the absent ones must be.
            if !exists && !refused {
                failures.push(format!(
                    "{file:?} in {v}: checker accepts a file the table lacks"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("{existing} (file, version) pairs exist");
    assert_eq!(existing, 116);
}
