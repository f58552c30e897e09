//! One test per construct of the canonical text (the text `asm::disasm` prints) and of Wine's syntax.

#![allow(clippy::panic)] // test helpers report the failing text

use super::*;

fn program(text: &str) -> Program {
    assemble(text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

/// The only (or last) instruction of `text`.
fn inst(text: &str) -> Instruction {
    program(text)
        .instructions
        .pop()
        .unwrap_or_else(|| panic!("{text:?}: no instruction"))
}

fn tokens(text: &str) -> Vec<u32> {
    assemble_tokens(text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

fn error(text: &str) -> AsmError {
    match assemble(text) {
        Ok(p) => panic!("{text:?} was accepted: {p:?}"),
        Err(e) => e,
    }
}

fn src(i: &Instruction, n: usize) -> SrcParam {
    i.src[n]
}

#[test]
fn every_version_header() {
    for (text, token) in [
        ("vs_1_0", 0xFFFE_0100),
        ("vs_1_1", 0xFFFE_0101),
        ("vs.1.1", 0xFFFE_0101),
        ("vs_2_0", 0xFFFE_0200),
        ("vs_2_x", 0xFFFE_0201),
        ("vs_2_sw", 0xFFFE_02FF),
        ("vs_3_0", 0xFFFE_0300),
        ("vs_3_sw", 0xFFFE_03FF),
        ("ps_1_0", 0xFFFF_0100),
        ("ps_1_1", 0xFFFF_0101),
        ("ps_1_2", 0xFFFF_0102),
        ("ps_1_3", 0xFFFF_0103),
        ("ps_1_4", 0xFFFF_0104),
        ("ps_2_0", 0xFFFF_0200),
        ("ps.2.x", 0xFFFF_0201),
        ("ps_2_sw", 0xFFFF_02FF),
        ("ps_3_0", 0xFFFF_0300),
        ("PS_3_SW", 0xFFFF_03FF),
    ] {
        assert_eq!(tokens(text), vec![token, 0xFFFF], "{text}");
    }
    for bad in [
        "vs_1_2",
        "ps_1_5",
        "vs_3_x",
        "vs_4_0",
        "gs_2_0",
        "vs2_0",
        "vs_1_01",
        "ps_2_00",
        "mov r0, r1",
    ] {
        let e = error(bad);
        assert_eq!((e.line, e.column), (1, 1), "{bad}");
        assert!(
            matches!(e.kind, AsmErrorKind::UnknownVersion(_)),
            "{bad}: {e}"
        );
    }
    assert_eq!(error("").kind, AsmErrorKind::MissingVersion);
    assert_eq!(
        error("\n// only a comment\n").kind,
        AsmErrorKind::MissingVersion
    );
}

/// Each instruction's token offset is the one the decoder reports for the assembled tokens:
/// `dcl` and literal tokens, relative-address tokens (vs_2_0 on, not vs_1_1) and the
/// predicate operand all count.
#[test]
fn instruction_offsets_match_the_decoder() {
    for text in [
        "vs_1_1\ndcl_position v0\ndef c1, 1, 2, 3, 4\nmov r0, c[a0.x + 2]\nmov oPos, r0\n",
        "vs_2_x\ndcl_position v0\ndefb b0, true\ndefi i0, 1, 0, 0, 0\nsetp_gt p0, v0, c0\n\
         (p0) add r0, v0, c[a0.y + 1]\n(!p0.x) mov r1, r0\nmov oPos, r1\n",
        "ps_3_0\ndcl_texcoord0 v0\ndcl_2d s0\ntexld r0, v0, s0\nmov oC0, r0\n",
    ] {
        let assembled = program(text);
        let decoded = crate::bytecode::decode(&tokens(text)).unwrap_or_else(|e| panic!("{e}"));
        let offsets = |p: &Program| p.instructions.iter().map(|i| i.offset).collect::<Vec<_>>();
        assert_eq!(offsets(&assembled), offsets(&decoded), "{text}");
    }
}

#[test]
fn canonical_instruction_layout() {
    let p = program("vs_2_0\n    dcl_position v0\n    mov oPos, v0\n\n    mov oD0, c0\n");
    assert_eq!(p.instructions.len(), 3);
    assert_eq!(
        p.instructions
            .iter()
            .map(|i| i.offset.0)
            .collect::<Vec<_>>(),
        vec![1, 4, 7]
    );
}

#[test]
fn predicate_forms() {
    let i = inst("vs_2_x\n    (p0.x) add r0, r1, r2");
    let p = i.predicate.expect("predicated");
    assert_eq!(p.reg, Register::new(RegisterFile::Predicate, 0));
    assert_eq!(p.swizzle, Swizzle::replicate(0));
    assert_eq!(p.modifier, SrcModifier::None);
    let i = inst("ps_3_0\n    (!p0) mov r0, r1");
    let p = i.predicate.expect("predicated");
    assert_eq!(
        (p.swizzle, p.modifier),
        (Swizzle::IDENTITY, SrcModifier::Not)
    );
    assert_eq!(
        tokens("vs_2_x\n(!p0.yzwx) mov r0, r1")[1],
        0x1300_0001,
        "length 3 and bit 28"
    );
    assert!(error("vs_2_0\n(p0) mov r0, r1")
        .to_string()
        .contains("vs_2_0"));
    assert!(error("vs_3_0\n(r0) mov r0, r1")
        .to_string()
        .contains("predicate"));
}

#[test]
fn coissue() {
    let p = program("ps_1_4\n    add r0.rgb, r1, r2\n    +add r0.a, r1, r2");
    assert!(!p.instructions[0].coissue);
    assert!(p.instructions[1].coissue);
    assert_eq!(encode(&p)[5], 0x4000_0002);
    let e = error("ps_1_1\n+mov r0, v0");
    assert_eq!((e.line, e.column), (2, 1));
}

#[test]
fn relative_addressing_forms() {
    let rel = |text: &str| {
        let i = inst(text);
        i.src[0].reg
    };
    let a0 = |sw: Swizzle| {
        Some(RelativeAddress {
            file: RegisterFile::Addr,
            index: 0,
            swizzle: sw,
        })
    };
    // Canonical text.
    let r = rel("vs_2_0\nmov r0, c[a0.x + 4]");
    assert_eq!(
        (r.file, r.index, r.relative),
        (RegisterFile::Const, 4, a0(Swizzle::replicate(0)))
    );
    let r = rel("vs_2_0\nmov r0, c[a0.x]");
    assert_eq!((r.index, r.relative), (0, a0(Swizzle::replicate(0))));
    let r = rel("vs_2_0\nmov r0, c[a0.xyww + 4]");
    assert_eq!(r.relative, a0(Swizzle::new([0, 1, 3, 3])));
    let r = rel("vs_3_0\nmov r0, c[aL + 2]");
    assert_eq!(
        r.relative.map(|a| (a.file, a.swizzle)),
        Some((RegisterFile::Loop, Swizzle::IDENTITY))
    );
    let r = rel("vs_3_0\nmov r0, v[aL]");
    assert_eq!((r.file, r.index), (RegisterFile::Input, 0));
    let d = inst("vs_3_0\nmov o[aL + 1], r0").dst.expect("dst");
    assert_eq!((d.reg.file, d.reg.index), (RegisterFile::Output, 1));
    assert!(d.reg.relative.is_some());
    // Wine's forms: index outside or inside, sums on either side.
    assert_eq!(rel("vs_1_1\nmov r0, c1[a0.x + 2]").index, 3);
    assert_eq!(rel("vs_1_1\nmov r0, c[ 2 + a0.x + 12 ]").index, 14);
    assert_eq!(
        rel("vs_1_1\nmov r0, c[ 2 + 10 + 12 ]"),
        Register::new(RegisterFile::Const, 24)
    );
    assert_eq!(rel("vs_3_0\nmov r0, v0[aL + 1 + 3]").index, 4);
    assert_eq!(rel("vs_3_0\nmov r0, c[aL + 5 - 2]").index, 3);
    // vs_1_1 has no address token: the decoder's model is a0 with selector x.
    assert_eq!(rel("vs_1_1\nmov r0, c[a0.x]").relative, a0(Swizzle(0)));
    // Relative source with a modifier and swizzle after the bracket.
    let s = src(&inst("vs_3_0\nmov r0, -c[a0.w + 5]_abs.x"), 0);
    assert_eq!(
        (s.modifier, s.swizzle, s.reg.index),
        (SrcModifier::AbsNeg, Swizzle::replicate(0), 5)
    );
}

/// `a` without its index is no register (`c[a.x]`), and a word after `]` that is not a
/// `_modifier` is left for the operand list to refuse.
#[test]
fn relative_address_register_names() {
    let e = error("vs_2_0\nmov r0, c[a.x]");
    assert_eq!(e.kind, AsmErrorKind::UnknownRegister("a".into()), "{e}");
    let e = error("vs_2_0\nmov r0, c[a0.x]abs");
    assert_eq!(e.column, 16, "{e}");
    assert!(e.to_string().contains("found 'abs'"), "{e}");
}

#[test]
fn relative_addressing_errors() {
    for (text, col) in [
        ("vs_1_1\nmov r0, c[a0.y]", 11),
        ("vs_3_0\nmov r0, c[aL.x]", 11),
        ("vs_3_0\nmov r0, c[a0.x - 1]", 16),
        ("vs_3_0\nmov r0, c[1 - a0.x]", 15),
        ("vs_3_0\nmov r0, c[a0.x + a0.y]", 18),
        ("vs_3_0\nmov r0, c[a0.x + 1.5]", 18),
        ("vs_3_0\nmov r0, r0[a0.x]", 9),
        ("vs_3_0\nmov r0, c[-5]", 9),
        ("vs_3_0\nmov r0, c[r0]", 11),
        ("vs_3_0\nmov r0, c[a0.x", 15),
    ] {
        let e = error(text);
        assert_eq!((e.line, e.column), (2, col), "{text}: {e}");
    }
}

#[test]
fn result_shifts_and_modifiers() {
    let d = |text: &str| inst(text).dst.expect("dst");
    for (suffix, shift) in [
        ("x2", 1),
        ("x4", 2),
        ("x8", 3),
        ("d2", -1),
        ("d4", -2),
        ("d8", -3),
        ("shift4", 4),
        ("shift-4", -4),
        ("shift-8", -8),
    ] {
        assert_eq!(
            d(&format!("ps_1_3\nmov_{suffix} r0, r1")).shift,
            shift,
            "{suffix}"
        );
    }
    let dst = d("ps_1_3\nmov_x2_sat r0, r1");
    assert_eq!(
        (dst.shift, dst.modifier),
        (1, ResultModifier(ResultModifier::SATURATE))
    );
    let dst = d("ps_3_0\ntexld_sat_pp_centroid r0, v0, s0");
    assert_eq!(dst.modifier, ResultModifier(7));
    assert_eq!(d("vs_3_0\nmova_sat a0.x, r1").modifier, ResultModifier(1));
    assert_eq!(
        error("ps_1_3\nmov_x2_d2 r0, r1").kind,
        AsmErrorKind::TwoShifts
    );
    let e = error("vs_3_0\nadd_sat_pp r0, r0, r1");
    assert_eq!((e.line, e.column), (2, 8), "{e}");
    assert!(matches!(
        error("ps_1_3\nmov_shift9 r0, r1").kind,
        AsmErrorKind::UnknownModifier(_)
    ));
    assert!(matches!(
        error("ps_1_3\nmov_foo r0, r1").kind,
        AsmErrorKind::UnknownModifier(_)
    ));
    assert!(matches!(
        error("vs_2_0\nrep_sat i0").kind,
        AsmErrorKind::ModifierNotAllowed { .. }
    ));
}

#[test]
fn source_modifiers() {
    let m = |text: &str| src(&inst(text), 0).modifier;
    use SrcModifier::*;
    assert_eq!(m("ps_1_3\nmov r0, -r1"), Neg);
    assert_eq!(m("ps_1_3\nmov r0, r1_bias"), Bias);
    assert_eq!(m("ps_1_3\nmov r0, -r1_bias"), BiasNeg);
    assert_eq!(m("ps_1_3\nmov r0, r1_bx2"), Sign);
    assert_eq!(m("ps_1_3\nmov r0, -r1_bx2"), SignNeg);
    assert_eq!(m("ps_1_3\nmov r0, 1 - r1"), Comp);
    assert_eq!(m("ps_1_3\nmov r0, r1_x2"), X2);
    assert_eq!(m("ps_1_3\nmov r0, -r1_x2"), X2Neg);
    assert_eq!(m("ps_1_4\ntexld r0, r1_dz"), Dz);
    assert_eq!(m("ps_1_4\ntexld r0, t1_dw"), Dw);
    assert_eq!(m("ps_1_4\ntexld r0, r1_db"), Dz);
    assert_eq!(m("ps_1_4\ntexld r0, t1_da.xyz"), Dw);
    assert_eq!(m("ps_3_0\nmov r0, r1_abs"), Abs);
    assert_eq!(m("ps_3_0\nmov r0, -r1_abs"), AbsNeg);
    assert_eq!(m("vs_2_0\nif !b0"), Not);
    assert_eq!(m("ps_2_x\nif !p0.x"), Not);
    // Both orders of modifier and swizzle.
    let a = src(&inst("ps_1_3\nmov r0, -r1_bx2.x"), 0);
    let b = src(&inst("ps_1_3\nmov r0, -r1.x_bx2"), 0);
    assert_eq!(a, b);
    assert_eq!(a.swizzle, Swizzle::replicate(0));
    // Not allowed.
    for text in [
        "ps_1_3\nmov r0, r1_abs",
        "ps_1_3\nmov r0, r1_dz",
        "ps_2_0\nmov r0, r1_bx2",
        "vs_2_0\nmov r0, r1_abs",
        "ps_3_0\nmov r0, !r1",
        "ps_3_0\nmov r0, 1 - r1_abs",
        "ps_1_4\ntexld r0, -r1_dw",
        "ps_3_0\nmov r0, r1_abs_abs",
    ] {
        let e = error(text);
        assert_eq!(e.line, 2, "{text}: {e}");
    }
}

#[test]
fn swizzles_and_masks() {
    let sw = |text: &str| src(&inst(text), 0).swizzle;
    assert_eq!(sw("vs_2_0\nmov r0, r1.x"), Swizzle::replicate(0));
    assert_eq!(sw("vs_2_0\nmov r0, r1.xy"), Swizzle::new([0, 1, 1, 1]));
    assert_eq!(sw("vs_2_0\nmov r0, r1.xyz"), Swizzle::new([0, 1, 2, 2]));
    assert_eq!(sw("vs_2_0\nmov r0, r1.wzyx"), Swizzle::new([3, 2, 1, 0]));
    assert_eq!(sw("vs_2_0\nmov r0, r1.rgba"), Swizzle::IDENTITY);
    assert_eq!(sw("vs_2_0\nmov r0, r1.xygb"), Swizzle::new([0, 1, 1, 2]));
    let mask = |text: &str| inst(text).dst.expect("dst").mask;
    assert_eq!(mask("vs_2_0\nmov r0.xw, r1"), WriteMask(0b1001));
    assert_eq!(mask("vs_2_0\nmov r0.rgb, r1"), WriteMask(0b0111));
    assert_eq!(mask("vs_2_0\nmov r0, r1"), WriteMask::ALL);
    for text in [
        "vs_2_0\nmov r0.yx, r1",
        "vs_2_0\nmov r0.xx, r1",
        "vs_2_0\nmov r0.xyzwx, r1",
        "vs_2_0\nmov r0.q, r1",
    ] {
        assert!(
            matches!(error(text).kind, AsmErrorKind::BadWriteMask(_)),
            "{text}"
        );
    }
}

#[test]
fn def_values() {
    let lit = |text: &str| inst(text).literal.expect("literal");
    assert_eq!(
        lit("vs_2_0\ndef c0, 1, 0.5, -0, 1e+10"),
        Literal::Float([
            1f32.to_bits(),
            0.5f32.to_bits(),
            (-0f32).to_bits(),
            1e10f32.to_bits()
        ])
    );
    // Rust's shortest round-trip text of every float gives the same bits back.
    for v in [
        1.0f32,
        0.1,
        -3.4028235e38,
        f32::MIN_POSITIVE,
        1e-45,
        123456.79,
        1.0 / 3.0,
    ] {
        let text = format!("vs_2_0\ndef c0, {v:?}, 0, 0, 0");
        assert_eq!(lit(&text), Literal::Float([v.to_bits(), 0, 0, 0]), "{text}");
    }
    // Raw IEEE bits (the disassembler's form for NaN and infinities).
    assert_eq!(
        lit("vs_2_0\ndef c0, 0x7fc00000, 0xff800000, 1.0f, 0."),
        Literal::Float([0x7FC0_0000, 0xFF80_0000, 0x3F80_0000, 0])
    );
    assert_eq!(
        lit("vs_2_0\ndefi i0, 3, 0, -1, - 2"),
        Literal::Int([3, 0, -1, -2])
    );
    assert_eq!(
        lit("vs_2_0\ndefi i0, -2147483648, 2147483647, 0xffffffff, 0"),
        Literal::Int([i32::MIN, i32::MAX, -1, 0])
    );
    assert_eq!(lit("vs_2_0\ndefb b0, true"), Literal::Bool(1));
    assert_eq!(lit("vs_2_0\ndefb b0, FALSE"), Literal::Bool(0));
    assert_eq!(lit("vs_2_0\ndefb b0, 0x2"), Literal::Bool(2));
    // A ',' at the end of a line continues the instruction.
    assert_eq!(
        lit("ps_1_1\ndef c0, 0.5, 0.5,\n0.5, 0.5"),
        Literal::Float([0x3F00_0000; 4])
    );
    for text in [
        "vs_2_0\ndef c0, 1, 2, 3",
        "vs_2_0\ndef c0, 1, 2, 3, 4, 5",
        "vs_2_0\ndef c0, 1, 2, 3, x",
        "vs_2_0\ndef c0, -0x1, 2, 3, 4",
        "vs_2_0\ndef r0, 1, 2, 3, 4",
        "vs_2_0\ndefi i0, 1.5, 2, 3, 4",
        "vs_2_0\ndefi i0, 2147483648, 2, 3, 4",
        "vs_2_0\ndefb b0, maybe",
        "vs_1_1\ndefi i0, 1, 2, 3, 4",
        "ps_1_1\ndef c8, 1, 2, 3, 4",
        "vs_2_0\ndef_sat c0, 1, 2, 3, 4",
    ] {
        assert_eq!(error(text).line, 2, "{text}");
    }
}

/// ps_1_x has no declarations: `dcl` of `v#` or `t#` is refused there (and accepted from
/// ps_2_0 on); `s#`, and so its `dcl`, exists only from ps_2_0 and vs_3_0 on; `o#` is
/// declared in vs_3_0 only.
#[test]
fn declarations_per_version() {
    for text in [
        "ps_1_1\ndcl v0",
        "ps_1_4\ndcl t0",
        "ps_1_3\ndcl_texcoord0 t0",
    ] {
        let e = error(text);
        assert_eq!(e.line, 2, "{text}");
        assert!(
            e.to_string().contains("dcl does not exist in ps_1_"),
            "{text}: {e}"
        );
    }
    program("ps_2_0\ndcl v0\ndcl t0\ndcl_2d s0");
    program("vs_3_0\ndcl_position o0");
    // A vertex shader's declarations name a usage, and the error says which kind lacks one.
    let e = error("vs_3_0\ndcl o0");
    assert!(
        e.to_string()
            .contains("vertex shader output declaration needs a usage"),
        "{e}"
    );
    let e = error("vs_2_0\ndcl v0");
    assert!(
        e.to_string()
            .contains("vertex shader input declaration needs a usage"),
        "{e}"
    );
    let e = error("vs_2_0\ndcl_position o0");
    assert!(e.to_string().contains("do not exist in vs_2_0"), "{e}");
    program("vs_3_0\ndcl_2d s0");
    for text in ["vs_1_1\ndcl_2d s0", "vs_2_0\ndcl_2d s0"] {
        let e = error(text);
        assert!(
            e.to_string().contains("register s0 does not exist"),
            "{text}: {e}"
        );
    }
}

/// Declarations and definitions are never co-issued (`+`) or predicated (`(p0)`).
#[test]
fn declarations_are_not_coissued_or_predicated() {
    for text in [
        "vs_2_x\n(p0) def c0, 1, 2, 3, 4",
        "vs_2_x\n(p0) dcl_position v0",
        "ps_1_1\nmov r0, v0\n+def c0, 1, 2, 3, 4",
    ] {
        let e = error(text);
        assert!(
            e.to_string().contains("cannot be co-issued or predicated"),
            "{text}: {e}"
        );
    }
}

/// `dcl_1d` is legal D3D9 (`D3DSTT_1D` is reserved) that this assembler does not take: an
/// Unsupported error, not a syntax error.
#[test]
fn one_dimensional_samplers_are_unsupported() {
    let e = error("ps_2_0\ndcl_1d s0");
    assert!(matches!(e.kind, AsmErrorKind::Unsupported(_)), "{e}");
}

#[test]
fn dcl_forms() {
    let decl = |text: &str| {
        let i = inst(text);
        (i.decl.expect("decl"), i.dst.expect("dst"))
    };
    let (d, dst) = decl("vs_1_1\ndcl_position v0");
    assert_eq!(
        d,
        Declaration::Semantic {
            usage: Usage::Position,
            index: 0
        }
    );
    assert_eq!(dst.reg, Register::new(RegisterFile::Input, 0));
    let (d, dst) = decl("vs_3_0\ndcl_texcoord3 o3.yz");
    assert_eq!(
        d,
        Declaration::Semantic {
            usage: Usage::TexCoord,
            index: 3
        }
    );
    assert_eq!(
        (dst.reg.file, dst.mask),
        (RegisterFile::Output, WriteMask(0b0110))
    );
    let (d, dst) = decl("ps_2_0\ndcl t0.xy");
    assert_eq!(
        d,
        Declaration::Semantic {
            usage: Usage::Position,
            index: 0
        }
    );
    assert_eq!(
        (dst.reg.file, dst.mask),
        (RegisterFile::Texture, WriteMask(0b0011))
    );
    let (_, dst) = decl("ps_2_0\ndcl_pp t0");
    assert_eq!(
        dst.modifier,
        ResultModifier(ResultModifier::PARTIAL_PRECISION)
    );
    let (d, dst) = decl("ps_3_0\ndcl_texcoord0_centroid v0.xy");
    assert_eq!(
        d,
        Declaration::Semantic {
            usage: Usage::TexCoord,
            index: 0
        }
    );
    assert_eq!(dst.modifier, ResultModifier(ResultModifier::CENTROID));
    let (d, _) = decl("ps_3_0\ndcl vPos.xy");
    assert_eq!(
        d,
        Declaration::Semantic {
            usage: Usage::Position,
            index: 0
        }
    );
    for (text, ty) in [
        ("ps_2_0\ndcl_2d s0", TextureType::TwoD),
        ("ps_2_0\ndcl_cube s1", TextureType::Cube),
        ("vs_3_0\ndcl_volume s2", TextureType::Volume),
        ("ps_2_0\ndcl s3", TextureType::Unknown),
        ("ps_3_0\ndcl_unknown s3", TextureType::Unknown),
    ] {
        assert_eq!(decl(text).0, Declaration::Sampler(ty), "{text}");
    }
    assert_eq!(
        tokens("ps_2_0\ndcl_cube s1")[1..4],
        [0x0200_001F, 0x9800_0000, 0xA00F_0801]
    );
    assert_eq!(tokens("vs_3_0\ndcl_blendindices15 v1")[2], 0x800F_0002);
    for text in [
        "vs_3_0\ndcl v0",
        "vs_3_0\ndcl s0",
        "vs_2_0\ndcl_2d s0",
        "ps_1_4\ndcl t0",
        "ps_2_0\ndcl_2d t0",
        "ps_2_0\ndcl_texcoord s0",
        "vs_3_0\ndcl_texcoord16 v0",
        "vs_3_0\ndcl_position r0",
        "vs_2_0\ndcl_position o0",
        "ps_3_0\ndcl_2d s0.xy",
        "ps_3_0\ndcl_1d s0",
    ] {
        assert_eq!(error(text).line, 2, "{text}");
    }
}

#[test]
fn texture_instructions_per_version() {
    let i = inst("ps_1_3\ntex t0");
    assert_eq!((i.opcode, i.src.len()), (Opcode::Tex, 0));
    let i = inst("ps_1_4\ntexld r0, t0");
    assert_eq!((i.opcode, i.src.len()), (Opcode::Tex, 1));
    let i = inst("ps_2_0\ntexld r0, t0, s0");
    assert_eq!(
        (i.opcode, i.control, i.src.len()),
        (Opcode::Tex, Control::None, 2)
    );
    assert_eq!(
        inst("ps_2_0\ntexldp r0, t0, s0").control,
        Control::TexProject
    );
    assert_eq!(inst("ps_2_0\ntexldb r0, t0, s0").control, Control::TexBias);
    assert_eq!(tokens("ps_2_0\ntexldp r0, t0, s0")[1], 0x0301_0042);
    assert_eq!(tokens("ps_2_0\ntexldb r0, t0, s0")[1], 0x0302_0042);
    assert_eq!(inst("vs_3_0\ntexldl r0, v0, s0").opcode, Opcode::TexLdl);
    assert_eq!(
        inst("ps_2_x\ntexldd r0, t0, s0, r1, r2").opcode,
        Opcode::TexLdd
    );
    let i = inst("ps_1_3\ntexcoord t0");
    assert_eq!((i.opcode, i.src.len()), (Opcode::TexCoord, 0));
    let i = inst("ps_1_4\ntexcrd r0.xyz, t0");
    assert_eq!((i.opcode, i.src.len()), (Opcode::TexCoord, 1));
    // Each name exists in its versions only: tex/texcoord in ps_1_0-1_3, texcrd in ps_1_4,
    // texld from ps_1_4 on, texldp/texldb from ps_2_0 on.
    for text in [
        "ps_1_4\ntex t0",
        "ps_2_0\ntex t0",
        "ps_1_3\ntexld r0, t0",
        "ps_1_4\ntexldp r0, t0",
        "ps_1_4\ntexldb r0, t0",
        "ps_2_0\ntexcrd r0, t0",
        "ps_1_3\ntexcrd r0, t0",
        "vs_3_0\ntexcrd r0, v0",
        "ps_1_4\ntexcoord t0",
        "vs_2_0\ntexld r0, v0, s0",
    ] {
        let e = error(text);
        assert_eq!(e.line, 2, "{text}");
        assert!(
            matches!(e.kind, AsmErrorKind::OpcodeNotInVersion { .. }),
            "{text}: {e}"
        );
    }
    assert_eq!(error("ps_2_0\ntexld r0, t0").line, 2);
}

#[test]
fn comparisons_and_flow_control() {
    for (name, c) in [
        ("gt", Comparison::Gt),
        ("eq", Comparison::Eq),
        ("ge", Comparison::Ge),
        ("lt", Comparison::Lt),
        ("ne", Comparison::Ne),
        ("le", Comparison::Le),
    ] {
        let i = inst(&format!("vs_2_x\nif_{name} r0.x, r1.y"));
        assert_eq!((i.opcode, i.control), (Opcode::Ifc, Control::Comparison(c)));
        let i = inst(&format!("ps_2_x\nbreak_{name} r0.x, c0.y"));
        assert_eq!(
            (i.opcode, i.control),
            (Opcode::Breakc, Control::Comparison(c))
        );
        let i = inst(&format!("vs_3_0\nsetp_{name} p0.xy, r0, r1"));
        assert_eq!(
            (i.opcode, i.control),
            (Opcode::Setp, Control::Comparison(c))
        );
    }
    assert_eq!(tokens("vs_2_x\nif_lt r0, r1")[1], 0x0204_0029);
    let p = program(
        "vs_3_0\nloop aL, i0\nrep i1\nbreak\nbreakp !p0.x\nendrep\nendloop\ncall l1\ncallnz l2, b3\n\
         callnz l2, !p0.w\nif b0\nelse\nendif\nret\nlabel l1\nret",
    );
    let ops: Vec<Opcode> = p.instructions.iter().map(|i| i.opcode).collect();
    use Opcode::*;
    assert_eq!(
        ops,
        vec![
            Loop, Rep, Break, Breakp, EndRep, EndLoop, Call, CallNz, CallNz, If, Else, EndIf, Ret,
            Label, Ret
        ]
    );
    assert_eq!(
        p.instructions[0].src[0].reg,
        Register::new(RegisterFile::Loop, 0)
    );
    assert!(error("vs_2_0\nif_gt r0, r1")
        .to_string()
        .contains("if does not exist in vs_2_0"));
    assert!(error("vs_2_x\nsetp p0, r0, r1")
        .to_string()
        .contains("comparison"));
    assert_eq!(error("vs_2_0\nloop aL.x, i0").line, 2);
    assert_eq!(error("ps_2_x\nloop aL, i0").line, 2);
    assert_eq!(error("ps_2_0\nrep i0").line, 2);
}

#[test]
fn sincos_and_sgn_operand_counts() {
    assert_eq!(inst("vs_2_0\nsincos r0.xy, r1.x, c0, c1").src.len(), 3);
    assert_eq!(inst("ps_2_0\nsincos r0.xy, r1.x, c0, c1").src.len(), 3);
    assert_eq!(inst("vs_3_0\nsincos r0.xy, r1.x").src.len(), 1);
    assert_eq!(inst("vs_2_0\nsgn r0, r1, r2, r3").src.len(), 3);
    let e = error("vs_2_0\nsincos r0.xy, r1.x");
    assert!(
        matches!(
            e.kind,
            AsmErrorKind::SourceCount {
                expected: 3,
                found: 1,
                ..
            }
        ),
        "{e}"
    );
    let e = error("vs_3_0\nsincos r0.xy, r1.x, c0, c1");
    assert!(
        matches!(
            e.kind,
            AsmErrorKind::SourceCount {
                expected: 1,
                found: 3,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn constants_past_2047_are_written_as_const2_to_const4() {
    let text = "vs_3_sw\ndef c3056, 1, 2, 3, 4\nmov r0, c2048\nmov r1, c4096\nmov r2, c8191\n";
    let p = program(text);
    use RegisterFile::*;
    assert_eq!(
        p.instructions[0].dst.map(|d| d.reg),
        Some(Register::new(Const2, 1008))
    );
    assert_eq!(src(&p.instructions[1], 0).reg, Register::new(Const2, 0));
    assert_eq!(src(&p.instructions[2], 0).reg, Register::new(Const3, 0));
    assert_eq!(src(&p.instructions[3], 0).reg, Register::new(Const4, 2047));
    // Register type 11 (D3DSPR_CONST2) in bits 28-30 and 11-12 of the parameter token.
    let toks = tokens(text);
    assert_eq!(
        toks[2],
        0x8000_0000 | (3 << 28) | (1 << 11) | 0xF << 16 | 1008
    );
    // Token round trip and the text form.
    assert_eq!(crate::bytecode::decode(&toks).as_ref(), Ok(&p));
    let listing = crate::asm::disassemble(&p);
    for name in ["def c3056", "c2048", "c4096", "c8191"] {
        assert!(listing.contains(name), "{listing}");
    }
    assert_eq!(program(&listing), p);
    // Hardware profiles have no constant banks; c8192 does not exist anywhere.
    let e = error("vs_3_0\nmov r0, c3056");
    assert!(
        matches!(e.kind, AsmErrorKind::RegisterNotInVersion { ref register, .. } if register == "c3056"),
        "{e}"
    );
    let e = error("vs_3_sw\nmov r0, c8192");
    assert!(
        matches!(e.kind, AsmErrorKind::IndexOutOfRange { index: 8192 }),
        "{e}"
    );
    let e = error("vs_3_sw\nmov r0, c[a0.x + 2048]");
    assert!(
        matches!(e.kind, AsmErrorKind::RelativeNotAllowed { .. }),
        "{e}"
    );
}

#[test]
fn registers_of_every_file() {
    let reg = |text: &str| inst(text).dst.expect("dst").reg;
    let s = |text: &str| src(&inst(text), 0).reg;
    use RegisterFile::*;
    assert_eq!(reg("vs_1_1\nmov oPos, r0"), Register::new(RastOut, 0));
    assert_eq!(reg("vs_1_1\nmov oFog, r0.x"), Register::new(RastOut, 1));
    assert_eq!(reg("vs_1_1\nmov oPts, r0.x"), Register::new(RastOut, 2));
    assert_eq!(reg("vs_1_1\nmov oD1, r0"), Register::new(AttrOut, 1));
    assert_eq!(reg("vs_1_1\nmov oT7, r0"), Register::new(TexCrdOut, 7));
    assert_eq!(reg("vs_1_1\nmov a0.x, r0"), Register::new(Addr, 0));
    assert_eq!(reg("vs_3_0\nmov o11, r0"), Register::new(Output, 11));
    assert_eq!(reg("ps_2_0\nmov oC3, r0"), Register::new(ColorOut, 3));
    assert_eq!(reg("ps_2_0\nmov oDepth, r0.x"), Register::new(DepthOut, 0));
    assert_eq!(reg("ps_1_4\nmov t5, r0"), Register::new(Texture, 5));
    assert_eq!(s("ps_3_0\nmov r0, vPos"), Register::new(MiscType, 0));
    assert_eq!(s("ps_3_0\nmov r0, vFace"), Register::new(MiscType, 1));
    assert_eq!(s("vs_2_0\nrep i15"), Register::new(ConstInt, 15));
    assert_eq!(s("vs_2_0\nif b15"), Register::new(ConstBool, 15));
    assert_eq!(s("vs_2_0\ncall l2047"), Register::new(Label, 2047));
    assert_eq!(s("vs_3_0\ntexldl r0, v0, s3").file, Input);
    assert_eq!(s("vs_1_1\nmov r0, c255"), Register::new(Const, 255));
    // Case does not matter.
    assert_eq!(reg("VS_1_1\nMOV OPOS, R0"), Register::new(RastOut, 0));
    for (text, col) in [
        ("vs_1_1\nmov r0, s0", 9),
        ("vs_1_1\nmov r12, r0", 5),
        ("vs_3_0\nmov oT0, r0", 5),
        ("vs_2_0\nmov o0, r0", 5),
        ("ps_2_0\nmov r0, t8", 9),
        ("ps_3_0\nmov r0, c224", 9),
        ("ps_3_0\nmov r0, oC0", 9),
        ("ps_3_0\nmov c0, r0", 5),
        ("ps_3_0\nmov vPos, r0", 5),
        ("vs_3_0\nmov r0, q0", 9),
        ("vs_3_0\nmov r0, r99999999999999999999", 9),
    ] {
        let e = error(text);
        assert_eq!((e.line, e.column), (2, col), "{text}: {e}");
    }
    assert_eq!(
        error("vs_1_1\nmov r0, s0").to_string(),
        "line 2, column 9: register s0 does not exist in vs_1_1"
    );
}

#[test]
fn operand_syntax_errors_are_located() {
    for (text, line, col) in [
        ("vs_1_1\nmov r0", 2, 1),
        ("vs_1_1\nmov r0,", 2, 8),
        ("vs_1_1\nmov r0, r1 r2", 2, 12),
        ("vs_1_1\nfoo r0, r1", 2, 1),
        ("vs_1_1\n\n  mov r0, r1.", 3, 13),
        ("vs_1_1\nmov r0, r1 ; fine\nmov r0, r1, r2", 3, 1),
        ("vs_1_1\nmov r0, r1 $", 2, 12),
        ("vs_1_1\nmov r0_sat, r1", 2, 5),
        ("vs_1_1 mov r0, r1\nmov r0, 2 - r1", 2, 9),
    ] {
        let e = error(text);
        assert_eq!((e.line, e.column), (line, col), "{text:?}: {e}");
    }
}

#[test]
fn macros_expand_inside_operands() {
    let text = "#define REG 1 + 2 +\\\n3 + 4\n#define DST r0\nvs.1.1\nmov DST, c0[ REG ]\n";
    assert_eq!(
        tokens(text),
        vec![0xFFFE_0101, 1, 0x800F_0000, 0xA0E4_000A, 0xFFFF]
    );
    // An error inside an expansion points at the macro's use.
    let e = error("#define BAD s0\nvs_1_1\nmov r0, BAD\n");
    assert_eq!((e.line, e.column), (3, 9));
}

#[test]
fn version_line_may_carry_an_instruction() {
    assert_eq!(program("vs_1_1 mov r0, v0").instructions.len(), 1);
}
