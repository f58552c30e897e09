use super::*;
use crate::bytecode::{
    Comment, Comparison, Control, Declaration, DstParam, Instruction, Literal, Opcode, Program,
    Register, RegisterFile as F, RelativeAddress, ResultModifier, SrcModifier, SrcParam, Stage,
    Swizzle, TextureType, TokenOffset, Usage, Version, WriteMask,
};

const VS11: Version = Version::new(Stage::Vertex, 1, 1);
const VS20: Version = Version::new(Stage::Vertex, 2, 0);
const VS2X: Version = Version::new(Stage::Vertex, 2, 1);
const VS30: Version = Version::new(Stage::Vertex, 3, 0);
const PS11: Version = Version::new(Stage::Pixel, 1, 1);
const PS14: Version = Version::new(Stage::Pixel, 1, 4);
const PS20: Version = Version::new(Stage::Pixel, 2, 0);
const PS30: Version = Version::new(Stage::Pixel, 3, 0);

fn reg(file: F, index: u32) -> Register {
    Register::new(file, index)
}
fn src(file: F, index: u32) -> SrcParam {
    SrcParam::new(reg(file, index))
}
fn dst(file: F, index: u32) -> DstParam {
    DstParam::new(reg(file, index))
}
fn swz(s: &str) -> Swizzle {
    let c: Vec<u8> = s
        .bytes()
        .map(|b| match b {
            b'x' => 0,
            b'y' => 1,
            b'z' => 2,
            _ => 3,
        })
        .collect();
    Swizzle::new([c[0], c[1], c[2], c[3]])
}
fn inst(opcode: Opcode, d: Option<DstParam>, s: &[SrcParam]) -> Instruction {
    let mut i = Instruction::new(opcode);
    i.dst = d;
    i.src = s.to_vec();
    i
}
fn text(version: Version, i: &Instruction) -> String {
    instruction_text(i, version)
}

#[test]
fn header_then_indented_instructions() {
    let mut p = Program::new(VS2X);
    p.instructions.push(inst(
        Opcode::Mov,
        Some(dst(F::Temp, 0)),
        &[src(F::Const, 1)],
    ));
    p.instructions.push(inst(Opcode::Nop, None, &[]));
    assert_eq!(disassemble(&p), "vs_2_x\n    mov r0, c1\n    nop\n");
}

#[test]
fn every_profile_header() {
    let cases = [
        (Version::new(Stage::Vertex, 1, 1), "vs_1_1"),
        (Version::new(Stage::Vertex, 2, 0xFF), "vs_2_sw"),
        (Version::new(Stage::Vertex, 3, 0xFF), "vs_3_sw"),
        (Version::new(Stage::Pixel, 1, 0), "ps_1_0"),
        (Version::new(Stage::Pixel, 2, 1), "ps_2_x"),
        (Version::new(Stage::Pixel, 3, 0), "ps_3_0"),
    ];
    for (v, name) in cases {
        assert_eq!(disassemble(&Program::new(v)), format!("{name}\n"));
    }
}

#[test]
fn comment_blocks_print_where_they_sit() {
    let mut p = Program::new(VS20);
    p.comments.push(Comment {
        offset: TokenOffset(1),
        position: 0,
        data: vec![u32::from_le_bytes(*b"CTAB"), 0, 0],
    });
    p.instructions.push(inst(Opcode::Ret, None, &[]));
    p.comments.push(Comment {
        offset: TokenOffset(6),
        position: 1,
        data: vec![0x0102_0304],
    });
    p.comments.push(Comment {
        offset: TokenOffset(8),
        position: 1,
        data: vec![],
    });
    assert_eq!(
        disassemble(&p),
        "vs_2_0\n    // comment block at token 1: 3 tokens (CTAB)\n    ret\n    \
         // comment block at token 6: 1 tokens\n    // comment block at token 8: 0 tokens\n"
    );
}

#[test]
fn write_mask_is_omitted_when_full() {
    let mut d = dst(F::Temp, 0);
    assert_eq!(dst_text(&d, VS20), "r0");
    d.mask = WriteMask(0b0101);
    assert_eq!(dst_text(&d, VS20), "r0.xz");
    d.mask = WriteMask(0b1000);
    assert_eq!(dst_text(&d, VS20), "r0.w");
    d.mask = WriteMask(0);
    assert_eq!(dst_text(&d, VS20), "r0.0");
}

#[test]
fn swizzles_print_in_shortest_replicating_form() {
    assert_eq!(swizzle_suffix(Swizzle::IDENTITY), "");
    assert_eq!(swizzle_suffix(swz("xxxx")), ".x");
    assert_eq!(swizzle_suffix(swz("wwww")), ".w");
    assert_eq!(swizzle_suffix(swz("wzyx")), ".wzyx");
    assert_eq!(swizzle_suffix(swz("xyyy")), ".xy");
    assert_eq!(swizzle_suffix(swz("xyww")), ".xyw");
    assert_eq!(swizzle_suffix(swz("xyzz")), ".xyz");
    assert_eq!(swizzle_suffix(swz("yzwx")), ".yzwx");
    assert_eq!(swizzle_suffix(swz("xxxy")), ".xxxy");
}

#[test]
fn source_modifiers() {
    use SrcModifier::*;
    let cases = [
        (None, "r1.x"),
        (Neg, "-r1.x"),
        (Bias, "r1_bias.x"),
        (BiasNeg, "-r1_bias.x"),
        (Sign, "r1_bx2.x"),
        (SignNeg, "-r1_bx2.x"),
        (Comp, "1 - r1.x"),
        (X2, "r1_x2.x"),
        (X2Neg, "-r1_x2.x"),
        (Dz, "r1_dz.x"),
        (Dw, "r1_dw.x"),
        (Abs, "r1_abs.x"),
        (AbsNeg, "-r1_abs.x"),
        (Not, "!r1.x"),
    ];
    for (m, want) in cases {
        let s = SrcParam {
            reg: reg(F::Temp, 1),
            swizzle: Swizzle::replicate(0),
            modifier: m,
        };
        assert_eq!(src_text(&s, PS20), want);
    }
}

#[test]
fn result_shift_then_sat_pp_centroid() {
    let mut d = dst(F::Temp, 0);
    let cases = [
        (1, 0, "_x2"),
        (2, 0, "_x4"),
        (3, 0, "_x8"),
        (-1, 0, "_d2"),
        (-2, 0, "_d4"),
        (-3, 0, "_d8"),
        (4, 0, "_shift4"),
        (-8, 0, "_shift-8"),
        (0, 1, "_sat"),
        (0, 2, "_pp"),
        (0, 4, "_centroid"),
        (2, 7, "_x4_sat_pp_centroid"),
        (0, 8, "_rm8"),
    ];
    for (shift, m, want) in cases {
        d.shift = shift;
        d.modifier = ResultModifier(m);
        assert_eq!(result_suffixes(&d), want);
    }
    d.shift = 2;
    d.modifier = ResultModifier(ResultModifier::SATURATE);
    d.mask = WriteMask(0b1000);
    let mut s = src(F::Temp, 1);
    s.modifier = SrcModifier::SignNeg;
    s.swizzle = Swizzle::replicate(3);
    let i = inst(Opcode::Mov, Some(d), &[s]);
    assert_eq!(
        text(Version::new(Stage::Pixel, 1, 3), &i),
        "mov_x4_sat r0.w, -r1_bx2.w"
    );
}

#[test]
fn coissue_prefix() {
    let mut d = dst(F::Temp, 0);
    d.mask = WriteMask(0b1000);
    let mut i = inst(Opcode::Mov, Some(d), &[src(F::Texture, 0)]);
    i.coissue = true;
    assert_eq!(text(PS11, &i), "+mov r0.w, t0");
}

#[test]
fn predicates() {
    let mut i = inst(
        Opcode::Add,
        Some(dst(F::Temp, 2)),
        &[src(F::Temp, 2), src(F::Temp, 3)],
    );
    let mut p = src(F::Predicate, 0);
    p.modifier = SrcModifier::Not;
    i.predicate = Some(p);
    assert_eq!(text(VS2X, &i), "(!p0) add r2, r2, r3");
    p.modifier = SrcModifier::None;
    p.swizzle = Swizzle::replicate(0);
    i.predicate = Some(p);
    assert_eq!(text(VS2X, &i), "(p0.x) add r2, r2, r3");
}

#[test]
fn comparison_mnemonics() {
    let mut i = inst(Opcode::Ifc, None, &[src(F::Temp, 0), src(F::Temp, 1)]);
    i.control = Control::Comparison(Comparison::Ge);
    assert_eq!(text(VS2X, &i), "if_ge r0, r1");
    i.opcode = Opcode::Breakc;
    i.control = Control::Comparison(Comparison::Ne);
    assert_eq!(text(VS2X, &i), "break_ne r0, r1");
    let mut s = inst(
        Opcode::Setp,
        Some(dst(F::Predicate, 0)),
        &[src(F::Temp, 0), src(F::Temp, 1)],
    );
    s.control = Control::Comparison(Comparison::Gt);
    assert_eq!(text(PS30, &s), "setp_gt p0, r0, r1");
    for (c, name) in [
        (Comparison::Eq, "if_eq"),
        (Comparison::Lt, "if_lt"),
        (Comparison::Le, "if_le"),
        (Comparison::Gt, "if_gt"),
    ] {
        i.opcode = Opcode::Ifc;
        i.control = Control::Comparison(c);
        assert!(text(PS30, &i).starts_with(&format!("{name} ")));
    }
}

#[test]
fn texture_load_mnemonics_by_version() {
    let tex = inst(Opcode::Tex, Some(dst(F::Texture, 0)), &[]);
    assert_eq!(text(PS11, &tex), "tex t0");
    let ld14 = inst(Opcode::Tex, Some(dst(F::Temp, 5)), &[src(F::Temp, 0)]);
    assert_eq!(text(PS14, &ld14), "texld r5, r0");
    let mut ld = inst(
        Opcode::Tex,
        Some(dst(F::Temp, 0)),
        &[src(F::Texture, 1), src(F::Sampler, 2)],
    );
    assert_eq!(text(PS20, &ld), "texld r0, t1, s2");
    ld.control = Control::TexProject;
    assert_eq!(text(PS20, &ld), "texldp r0, t1, s2");
    ld.control = Control::TexBias;
    assert_eq!(text(PS30, &ld), "texldb r0, t1, s2");
    let ldl = inst(
        Opcode::TexLdl,
        Some(dst(F::Temp, 0)),
        &[src(F::Input, 0), src(F::Sampler, 0)],
    );
    assert_eq!(text(VS30, &ldl), "texldl r0, v0, s0");
    let tc = inst(Opcode::TexCoord, Some(dst(F::Texture, 0)), &[]);
    assert_eq!(text(PS11, &tc), "texcoord t0");
    let crd = inst(
        Opcode::TexCoord,
        Some(dst(F::Temp, 4)),
        &[src(F::Texture, 3)],
    );
    assert_eq!(text(PS14, &crd), "texcrd r4, t3");
    assert_eq!(text(PS14, &inst(Opcode::Phase, None, &[])), "phase");
}

#[test]
fn register_names() {
    let cases = [
        (VS11, F::RastOut, 0, "oPos"),
        (VS11, F::RastOut, 1, "oFog"),
        (VS11, F::RastOut, 2, "oPts"),
        (VS11, F::AttrOut, 1, "oD1"),
        (VS11, F::TexCrdOut, 5, "oT5"),
        (VS11, F::Addr, 0, "a0"),
        (VS30, F::Output, 11, "o11"),
        (VS30, F::Loop, 0, "aL"),
        (VS30, F::ConstInt, 2, "i2"),
        (VS30, F::ConstBool, 15, "b15"),
        (VS30, F::Label, 2047, "l2047"),
        (VS30, F::Sampler, 3, "s3"),
        (VS30, F::Predicate, 0, "p0"),
        (PS30, F::MiscType, 0, "vPos"),
        (PS30, F::MiscType, 1, "vFace"),
        (PS30, F::ColorOut, 3, "oC3"),
        (PS30, F::DepthOut, 0, "oDepth"),
        (PS20, F::Texture, 7, "t7"),
        (PS20, F::Input, 1, "v1"),
        (PS20, F::Const, 31, "c31"),
        (VS30, F::Const2, 1, "c2049"),
    ];
    for (v, file, index, want) in cases {
        assert_eq!(register_text(&reg(file, index), v), want);
    }
}

#[test]
fn relative_addressing() {
    let rel = |file, swizzle| {
        Some(RelativeAddress {
            file,
            index: 0,
            swizzle,
        })
    };
    let mut c = reg(F::Const, 4);
    c.relative = rel(F::Addr, Swizzle(0));
    assert_eq!(register_text(&c, VS11), "c[a0.x + 4]");
    c.relative = rel(F::Addr, Swizzle::replicate(1));
    // vs_1_1 has no address token: always a0.x.
    assert_eq!(register_text(&c, VS11), "c[a0.x + 4]");
    assert_eq!(register_text(&c, VS20), "c[a0.y + 4]");
    c.index = 0;
    assert_eq!(register_text(&c, VS20), "c[a0.y]");
    c.relative = rel(F::Addr, swz("xyww"));
    assert_eq!(register_text(&c, VS20), "c[a0.xyww]");
    c.relative = rel(F::Addr, Swizzle::IDENTITY);
    assert_eq!(register_text(&c, VS20), "c[a0.xyzw]");
    c.relative = rel(F::Loop, Swizzle::IDENTITY);
    c.index = 2;
    assert_eq!(register_text(&c, VS30), "c[aL + 2]");
    let mut o = reg(F::Output, 1);
    o.relative = rel(F::Loop, Swizzle::IDENTITY);
    assert_eq!(register_text(&o, VS30), "o[aL + 1]");
    let mut v = reg(F::Input, 0);
    v.relative = rel(F::Loop, Swizzle::replicate(0));
    assert_eq!(register_text(&v, PS30), "v[aL.x]");
    let s = SrcParam {
        reg: {
            let mut r = reg(F::Const, 5);
            r.relative = rel(F::Addr, Swizzle::replicate(3));
            r
        },
        swizzle: Swizzle::replicate(0),
        modifier: SrcModifier::Neg,
    };
    assert_eq!(src_text(&s, VS20), "-c[a0.w + 5].x");
}

#[test]
fn dcl_semantics() {
    let dcl = |usage, index, d: DstParam| {
        let mut i = inst(Opcode::Dcl, Some(d), &[]);
        i.decl = Some(Declaration::Semantic { usage, index });
        i
    };
    assert_eq!(
        text(VS20, &dcl(Usage::Position, 0, dst(F::Input, 0))),
        "dcl_position v0"
    );
    assert_eq!(
        text(VS20, &dcl(Usage::Normal, 12, dst(F::Input, 15))),
        "dcl_normal12 v15"
    );
    let mut o3 = dst(F::Output, 3);
    o3.mask = WriteMask(0b0110);
    assert_eq!(
        text(VS30, &dcl(Usage::TexCoord, 3, o3)),
        "dcl_texcoord3 o3.yz"
    );
    // ps_2_x: plain dcl for t# and v#.
    let mut t0 = dst(F::Texture, 0);
    t0.mask = WriteMask(0b0011);
    assert_eq!(text(PS20, &dcl(Usage::Position, 0, t0)), "dcl t0.xy");
    assert_eq!(
        text(PS20, &dcl(Usage::Position, 0, dst(F::Input, 0))),
        "dcl v0"
    );
    // ps_3_0: v# has a real semantic; vPos/vFace are plain.
    assert_eq!(
        text(PS30, &dcl(Usage::Position, 0, dst(F::Input, 0))),
        "dcl_position v0"
    );
    let mut vpos = dst(F::MiscType, 0);
    vpos.mask = WriteMask(0b0011);
    assert_eq!(text(PS30, &dcl(Usage::Position, 0, vpos)), "dcl vPos.xy");
    let mut c = dst(F::Input, 0);
    c.modifier = ResultModifier(ResultModifier::CENTROID);
    assert_eq!(
        text(PS30, &dcl(Usage::TexCoord, 1, c)),
        "dcl_texcoord1_centroid v0"
    );
    let mut pp = dst(F::Texture, 0);
    pp.modifier = ResultModifier(ResultModifier::PARTIAL_PRECISION);
    assert_eq!(text(PS20, &dcl(Usage::Position, 0, pp)), "dcl_pp t0");
}

#[test]
fn dcl_samplers() {
    let cases = [
        (TextureType::TwoD, "dcl_2d s0"),
        (TextureType::Cube, "dcl_cube s0"),
        (TextureType::Volume, "dcl_volume s0"),
        (TextureType::Unknown, "dcl s0"),
    ];
    for (ty, want) in cases {
        let mut i = inst(Opcode::Dcl, Some(dst(F::Sampler, 0)), &[]);
        i.decl = Some(Declaration::Sampler(ty));
        assert_eq!(text(PS20, &i), want);
    }
    let mut d = dst(F::Sampler, 1);
    d.modifier = ResultModifier(ResultModifier::PARTIAL_PRECISION);
    let mut i = inst(Opcode::Dcl, Some(d), &[]);
    i.decl = Some(Declaration::Sampler(TextureType::TwoD));
    assert_eq!(text(PS30, &i), "dcl_2d_pp s1");
}

#[test]
fn def_floats_round_trip_or_print_raw_bits() {
    let mut i = inst(Opcode::Def, Some(dst(F::Const, 12)), &[]);
    i.literal = Some(Literal::Float([
        0.0f32.to_bits(),
        (-1.0f32).to_bits(),
        (-0.5f32).to_bits(),
        1024.0f32.to_bits(),
    ]));
    assert_eq!(text(VS11, &i), "def c12, 0.0, -1.0, -0.5, 1024.0");
    i.literal = Some(Literal::Float([
        (-0.0f32).to_bits(),
        1e20f32.to_bits(),
        std::f32::consts::PI.to_bits(),
        f32::MIN_POSITIVE.to_bits(),
    ]));
    assert_eq!(
        text(VS11, &i),
        "def c12, -0.0, 1e20, 3.1415927, 1.1754944e-38"
    );
    i.literal = Some(Literal::Float([
        0x7fc0_0000,
        0xff80_0000,
        0x7f80_0000,
        0x7f80_0001,
    ]));
    assert_eq!(
        text(VS11, &i),
        "def c12, 0x7fc00000, 0xff800000, 0x7f800000, 0x7f800001"
    );
    // Every finite value that prints as a float reads back to the same bits.
    for bits in [1u32, 0x0080_0000, 0x3eaa_aaab, 0x7f7f_ffff, 0x8000_0001] {
        let t = float_text(bits);
        assert_eq!(t.parse::<f32>().map(f32::to_bits), Ok(bits), "{t}");
    }
}

#[test]
fn defi_and_defb() {
    let mut i = inst(Opcode::Defi, Some(dst(F::ConstInt, 0)), &[]);
    i.literal = Some(Literal::Int([-1, 1, 10, 0]));
    assert_eq!(text(VS20, &i), "defi i0, -1, 1, 10, 0");
    let mut b = inst(Opcode::Defb, Some(dst(F::ConstBool, 1)), &[]);
    b.literal = Some(Literal::Bool(1));
    assert_eq!(text(VS20, &b), "defb b1, true");
    b.literal = Some(Literal::Bool(0));
    assert_eq!(text(VS20, &b), "defb b1, false");
    b.literal = Some(Literal::Bool(2));
    assert_eq!(text(VS20, &b), "defb b1, 0x2");
}

#[test]
fn flow_control_operands() {
    let lp = inst(Opcode::Loop, None, &[src(F::Loop, 0), src(F::ConstInt, 0)]);
    assert_eq!(text(VS20, &lp), "loop aL, i0");
    let mut nb = src(F::ConstBool, 0);
    nb.modifier = SrcModifier::Not;
    let cnz = inst(Opcode::CallNz, None, &[src(F::Label, 0), nb]);
    assert_eq!(text(VS20, &cnz), "callnz l0, !b0");
    let mut pz = src(F::Predicate, 0);
    pz.swizzle = Swizzle::replicate(3);
    assert_eq!(
        text(VS2X, &inst(Opcode::Breakp, None, &[pz])),
        "breakp p0.w"
    );
    assert_eq!(
        text(VS20, &inst(Opcode::Rep, None, &[src(F::ConstInt, 1)])),
        "rep i1"
    );
}
