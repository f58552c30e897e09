//! WGSL snapshots of representative vertex shaders: each version, relative addressing,
//! loops (nested, with aL), rep, call/label/ret, predication, aL-indexed o#, packed outputs,
//! texldl; and of pixel shaders: the texld family, texkill, dsx/dsy, dp2add, predication,
//! loops with aL, vPos/vFace, MRT, oDepth, centroid, linked inputs, flow-controlled sampling,
//! the alpha test.
//! Each snapshot is also re-parsed and validated by naga's WGSL front end.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

mod common;
use common::{corpus, tokens};

use d3d9_translator::bytecode::{
    decode, Comparison, Control, Declaration, DstParam, Instruction, Literal, Opcode, Program,
    Register, RegisterFile as F, RelativeAddress, SrcModifier, SrcParam, Stage, Swizzle,
    TextureType, Usage, Version, WriteMask,
};
use d3d9_translator::check::{check, CheckedProgram, DeviceCaps};
use d3d9_translator::lift::interface::Varying;
use d3d9_translator::lift::{
    translate_pixel_shader, translate_vertex_shader, CompareFunction, Feature, FloatMode, FogMode,
    FogOptions, FogSource, LiftError, PixelShaderOptions, PointExpansion, VertexShaderOptions,
};

/// Check a program as a D3D9 device would (software vertex processing when `software`);
/// panics with the checker's reason, so every snapshot is of a shader D3D9 accepts.
fn checked_on(program: &Program, software: bool) -> CheckedProgram {
    let caps = if software {
        DeviceCaps::software()
    } else {
        DeviceCaps::default()
    };
    check(program, Stage::Vertex, &caps).unwrap_or_else(|e| panic!("check: {e}"))
}

fn checked(program: &Program) -> CheckedProgram {
    checked_on(program, false)
}

fn wgsl_of(program: &CheckedProgram, options: &VertexShaderOptions) -> String {
    let t = translate_vertex_shader(program, options).expect("translates");
    let wgsl = t.wgsl().expect("wgsl");
    let module = naga::front::wgsl::parse_str(&wgsl)
        .unwrap_or_else(|e| panic!("{}", e.emit_to_string(&wgsl)));
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        // Clip distances appear only with `VertexShaderOptions::clip_planes`.
        naga::valid::Capabilities::default() | naga::valid::Capabilities::CLIP_DISTANCES,
    )
    .validate(&module)
    .unwrap_or_else(|e| panic!("{}", e.emit_to_string(&wgsl)));
    wgsl
}

fn visual(name: &str, version: u32) -> Program {
    let v = corpus("d3d9_visual.json");
    for key in ["shaders", "composed_shaders"] {
        for s in v[key].as_array().expect("list") {
            let t = tokens(&s["tokens"]);
            if s["name"].as_str() == Some(name) && t.first() == Some(&version) {
                return decode(&t).expect("decodes");
            }
        }
    }
    panic!("no visual shader {name}");
}

fn pair(index: usize) -> Program {
    let v = corpus("asm_pairs.json");
    decode(&tokens(&v[index]["tokens"])).expect("decodes")
}

fn asm(text: &str) -> Program {
    d3d9_translator::asm::assemble(text).unwrap_or_else(|e| panic!("{e}"))
}

// --- a tiny program builder for shapes the corpus lacks ---

fn reg(file: F, index: u32) -> Register {
    Register::new(file, index)
}
fn d(file: F, index: u32, mask: u8) -> DstParam {
    DstParam {
        mask: WriteMask(mask),
        ..DstParam::new(reg(file, index))
    }
}
fn s(file: F, index: u32) -> SrcParam {
    SrcParam::new(reg(file, index))
}
fn sw(file: F, index: u32, c: [u8; 4]) -> SrcParam {
    SrcParam {
        swizzle: Swizzle::new(c),
        ..s(file, index)
    }
}
fn rel(mut p: SrcParam, file: F, component: u8) -> SrcParam {
    p.reg.relative = Some(RelativeAddress {
        file,
        index: 0,
        swizzle: Swizzle::replicate(component),
    });
    p
}
fn op(opcode: Opcode, dst: Option<DstParam>, src: Vec<SrcParam>) -> Instruction {
    Instruction {
        dst,
        src,
        ..Instruction::new(opcode)
    }
}
fn dcl(file: F, index: u32, usage: Usage, n: u8, mask: u8) -> Instruction {
    Instruction {
        dst: Some(d(file, index, mask)),
        decl: Some(Declaration::Semantic { usage, index: n }),
        ..Instruction::new(Opcode::Dcl)
    }
}
fn defi(n: u32, v: [i32; 4]) -> Instruction {
    Instruction {
        dst: Some(d(F::ConstInt, n, 0xF)),
        literal: Some(Literal::Int(v)),
        ..Instruction::new(Opcode::Defi)
    }
}
fn def(n: u32, v: [f32; 4]) -> Instruction {
    Instruction {
        dst: Some(d(F::Const, n, 0xF)),
        literal: Some(Literal::Float(v.map(f32::to_bits))),
        ..Instruction::new(Opcode::Def)
    }
}
fn program(major: u8, minor: u8, instructions: Vec<Instruction>) -> Program {
    Program {
        instructions,
        ..Program::new(Version::new(Stage::Vertex, major, minor))
    }
}

/// vs_3_0: nested loops, inner aL indexing c#, outer aL indexing o#.
fn nested_loops() -> Program {
    program(
        3,
        0,
        vec![
            dcl(F::Input, 0, Usage::Position, 0, 0xF),
            dcl(F::Output, 0, Usage::Position, 0, 0xF),
            dcl(F::Output, 1, Usage::TexCoord, 0, 0xF),
            dcl(F::Output, 2, Usage::TexCoord, 1, 0xF),
            defi(0, [2, 1, 1, 0]),
            defi(1, [3, 0, 2, 0]),
            op(
                Opcode::Mov,
                Some(d(F::Output, 0, 0xF)),
                vec![s(F::Input, 0)],
            ),
            op(Opcode::Loop, None, vec![s(F::Loop, 0), s(F::ConstInt, 0)]),
            op(Opcode::Loop, None, vec![s(F::Loop, 0), s(F::ConstInt, 1)]),
            op(
                Opcode::Add,
                Some(d(F::Temp, 0, 0xF)),
                vec![s(F::Temp, 0), rel(s(F::Const, 4), F::Loop, 0)],
            ),
            op(Opcode::EndLoop, None, vec![]),
            {
                let mut o = op(Opcode::Mov, Some(d(F::Output, 0, 0xF)), vec![s(F::Temp, 0)]);
                if let Some(dst) = &mut o.dst {
                    dst.reg.relative = Some(RelativeAddress {
                        file: F::Loop,
                        index: 0,
                        swizzle: Swizzle::replicate(0),
                    });
                }
                o
            },
            op(Opcode::EndLoop, None, vec![]),
        ],
    )
}

/// vs_2_x: setp then predicated and negated-predicated writes, breakp inside rep.
fn predication() -> Program {
    let mut add = op(
        Opcode::Add,
        Some(d(F::Temp, 0, 0x3)),
        vec![s(F::Input, 0), s(F::Const, 0)],
    );
    add.predicate = Some(sw(F::Predicate, 0, [0, 0, 0, 0]));
    let mut mul = op(
        Opcode::Mul,
        Some(d(F::Temp, 0, 0xF)),
        vec![s(F::Temp, 0), s(F::Const, 1)],
    );
    mul.predicate = Some(SrcParam {
        modifier: SrcModifier::Not,
        ..s(F::Predicate, 0)
    });
    let mut setp = op(
        Opcode::Setp,
        Some(d(F::Predicate, 0, 0xF)),
        vec![s(F::Input, 0), s(F::Const, 2)],
    );
    setp.control = Control::Comparison(Comparison::Gt);
    program(
        2,
        1,
        vec![
            dcl(F::Input, 0, Usage::Position, 0, 0xF),
            setp,
            add,
            mul,
            op(Opcode::Rep, None, vec![s(F::ConstInt, 0)]),
            op(
                Opcode::Add,
                Some(d(F::Temp, 0, 0xF)),
                vec![s(F::Temp, 0), s(F::Const, 3)],
            ),
            op(
                Opcode::Breakp,
                None,
                vec![sw(F::Predicate, 0, [3, 3, 3, 3])],
            ),
            op(Opcode::EndRep, None, vec![]),
            op(
                Opcode::Mov,
                Some(d(F::RastOut, 0, 0xF)),
                vec![s(F::Temp, 0)],
            ),
        ],
    )
}

/// vs_3_0: color4 / texcoord3 / fog packed into o3, psize on its own register.
fn packed_outputs() -> Program {
    program(
        3,
        0,
        vec![
            dcl(F::Input, 0, Usage::Position, 0, 0xF),
            dcl(F::Output, 0, Usage::Position, 0, 0xF),
            dcl(F::Output, 3, Usage::Color, 4, 0x1),
            dcl(F::Output, 3, Usage::TexCoord, 3, 0x6),
            dcl(F::Output, 3, Usage::Fog, 0, 0x8),
            dcl(F::Output, 4, Usage::PSize, 0, 0xF),
            op(
                Opcode::Mov,
                Some(d(F::Output, 0, 0xF)),
                vec![s(F::Input, 0)],
            ),
            op(
                Opcode::Mov,
                Some(d(F::Output, 3, 0x7)),
                vec![s(F::Input, 0)],
            ),
            op(
                Opcode::Mov,
                Some(d(F::Output, 4, 0x1)),
                vec![s(F::Const, 0)],
            ),
        ],
    )
}

/// vs_3_0: texldl from a 2D and a cube texture.
fn texldl() -> Program {
    let sampler = |n: u32, tt: TextureType| Instruction {
        dst: Some(d(F::Sampler, n, 0xF)),
        decl: Some(Declaration::Sampler(tt)),
        ..Instruction::new(Opcode::Dcl)
    };
    program(
        3,
        0,
        vec![
            dcl(F::Input, 0, Usage::Position, 0, 0xF),
            dcl(F::Input, 1, Usage::TexCoord, 0, 0xF),
            dcl(F::Output, 0, Usage::Position, 0, 0xF),
            dcl(F::Output, 1, Usage::Color, 0, 0xF),
            sampler(0, TextureType::TwoD),
            sampler(2, TextureType::Cube),
            op(
                Opcode::TexLdl,
                Some(d(F::Temp, 0, 0xF)),
                vec![s(F::Input, 1), s(F::Sampler, 0)],
            ),
            op(
                Opcode::TexLdl,
                Some(d(F::Temp, 1, 0xF)),
                vec![s(F::Input, 1), sw(F::Sampler, 2, [2, 1, 0, 3])],
            ),
            op(
                Opcode::Add,
                Some(d(F::Output, 1, 0xF)),
                vec![s(F::Temp, 0), s(F::Temp, 1)],
            ),
            op(
                Opcode::Add,
                Some(d(F::Output, 0, 0xF)),
                vec![s(F::Input, 0), s(F::Temp, 0)],
            ),
        ],
    )
}

/// vs_2_0: call, callnz, a subroutine calling another, and ret inside an if of main.
fn subroutines() -> Program {
    program(
        2,
        1,
        vec![
            dcl(F::Input, 0, Usage::Position, 0, 0xF),
            def(5, [2.0, 0.5, 0.0, 1.0]),
            op(
                Opcode::Mov,
                Some(d(F::RastOut, 0, 0xF)),
                vec![s(F::Input, 0)],
            ),
            op(Opcode::Call, None, vec![s(F::Label, 1)]),
            op(
                Opcode::CallNz,
                None,
                vec![s(F::Label, 2), s(F::ConstBool, 1)],
            ),
            op(Opcode::Ret, None, vec![]),
            op(Opcode::Label, None, vec![s(F::Label, 1)]),
            op(
                Opcode::Mul,
                Some(d(F::AttrOut, 0, 0xF)),
                vec![s(F::Input, 0), s(F::Const, 5)],
            ),
            op(Opcode::Call, None, vec![s(F::Label, 2)]),
            op(Opcode::Ret, None, vec![]),
            op(Opcode::Label, None, vec![s(F::Label, 2)]),
            op(
                Opcode::Mov,
                Some(d(F::TexCrdOut, 0, 0x3)),
                vec![s(F::Const, 0)],
            ),
            op(Opcode::Ret, None, vec![]),
        ],
    )
}

/// vs_1_1 arithmetic: every legacy-rule instruction.
fn vs11_arith() -> Program {
    let v = |n| s(F::Input, n);
    let c = |n| s(F::Const, n);
    let r = |n, m| Some(d(F::Temp, n, m));
    program(
        1,
        1,
        vec![
            dcl(F::Input, 0, Usage::Position, 0, 0xF),
            dcl(F::Input, 3, Usage::Normal, 0, 0xF),
            op(Opcode::M4x4, Some(d(F::RastOut, 0, 0xF)), vec![v(0), c(0)]),
            op(Opcode::M3x3, r(0, 0x7), vec![v(3), c(4)]),
            op(Opcode::Dp3, r(1, 0x1), vec![s(F::Temp, 0), s(F::Temp, 0)]),
            op(Opcode::Rsq, r(1, 0x1), vec![sw(F::Temp, 1, [0, 0, 0, 0])]),
            op(
                Opcode::Mul,
                r(0, 0x7),
                vec![s(F::Temp, 0), sw(F::Temp, 1, [0, 0, 0, 0])],
            ),
            op(Opcode::Dp3, r(2, 0x1), vec![s(F::Temp, 0), c(8)]),
            op(Opcode::Dp3, r(2, 0x2), vec![s(F::Temp, 0), c(9)]),
            op(Opcode::Mov, r(2, 0x8), vec![c(10)]),
            op(Opcode::Lit, r(3, 0xF), vec![s(F::Temp, 2)]),
            op(
                Opcode::Mad,
                Some(d(F::AttrOut, 0, 0xF)),
                vec![sw(F::Temp, 3, [1, 1, 1, 1]), c(11), s(F::Temp, 2)],
            ),
            op(Opcode::Dst, r(4, 0xF), vec![s(F::Temp, 2), s(F::Temp, 3)]),
            op(Opcode::Expp, r(5, 0xF), vec![sw(F::Temp, 4, [1, 1, 1, 1])]),
            op(Opcode::Logp, r(6, 0xF), vec![sw(F::Temp, 4, [2, 2, 2, 2])]),
            op(Opcode::Rcp, r(7, 0x1), vec![sw(F::Temp, 6, [3, 3, 3, 3])]),
            op(Opcode::Frc, r(7, 0x2), vec![s(F::Temp, 5)]),
            op(Opcode::Min, r(8, 0xF), vec![s(F::Temp, 7), c(13)]),
            op(Opcode::Max, r(8, 0xF), vec![s(F::Temp, 8), c(14)]),
            op(
                Opcode::Mov,
                Some(d(F::Addr, 0, 0x1)),
                vec![sw(F::Temp, 8, [0, 0, 0, 0])],
            ),
            op(
                Opcode::Mov,
                Some(d(F::TexCrdOut, 0, 0xF)),
                vec![rel(c(20), F::Addr, 0)],
            ),
            op(
                Opcode::Exp,
                Some(d(F::RastOut, 1, 0x1)),
                vec![sw(F::Temp, 8, [1, 1, 1, 1])],
            ),
        ],
    )
}

macro_rules! snap {
    ($name:ident, $program:expr) => {
        snap!($name, $program, VertexShaderOptions::default());
    };
    ($name:ident, $program:expr, $options:expr) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(wgsl_of(&checked(&$program), &$options));
        }
    };
    (software $name:ident, $program:expr, $options:expr) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(wgsl_of(&checked_on(&$program, true), &$options));
        }
    };
}

fn in_mode(float_mode: FloatMode) -> VertexShaderOptions {
    VertexShaderOptions {
        float_mode,
        ..Default::default()
    }
}

fn ieee() -> VertexShaderOptions {
    in_mode(FloatMode::Ieee)
}

snap!(vs_1_1_passthrough, visual("vs1_code", 0xFFFE0101));
snap!(vs_1_1_relative_constant, visual("mov_test", 0xFFFE0101));
snap!(vs_1_1_fog, visual("vs_fog_code", 0xFFFE0101));
snap!(vs_1_1_psize, visual("vshader_psize_code", 0xFFFE0101));
snap!(vs_1_1_sge_vector, visual("shader_sge_vec_code", 0xFFFE0101));
snap!(vs_1_1_arithmetic_legacy, vs11_arith());
snap!(vs_1_1_arithmetic_ieee, vs11_arith(), ieee());
snap!(
    vs_1_1_rcp,
    asm("vs_1_1\ndcl_position v0\ndcl_texcoord v1\nrcp r0.w, v1.x\nmul oPos, v0, r0.w\n")
);
snap!(vs_2_0_mova, visual("mova_test", 0xFFFE0200));
snap!(vs_2_0_loop_index, visual("shader_code", 0xFFFE0200));
snap!(vs_2_0_sincos, visual("sin_shader_code", 0xFFFE0200));
snap!(vs_2_0_fp_special_log, visual("fp_special:log", 0xFFFE0200));
snap!(vs_2_0_fp_special_pow, visual("fp_special:pow", 0xFFFE0200));
snap!(vs_2_0_fp_special_nrm, visual("fp_special:nrm", 0xFFFE0200));
snap!(vs_2_0_fp_special_def, visual("fp_special:def1", 0xFFFE0200));
snap!(vs_2_0_rep, pair(100));
snap!(vs_2_0_loop_al_constant, pair(111));
snap!(vs_2_0_call_label_ret, pair(112));
snap!(vs_2_0_callnz_not_bool, pair(114));
snap!(vs_2_x_subroutines_and_ret_in_main, subroutines());
snap!(
    vs_2_0_crs_sgn_pow,
    asm(
        "vs_2_0\ndcl_position v0\ndcl_normal v1\ndcl_tangent v2\nmov r4, v1\n\
         crs r0.xyz, r4, v2\nsgn r1, v2, r2, r3\npow r2.x, r4.x, v2.y\nmov oPos, v0\n\
         mov oT0.xyz, r0\nmov oT1, r1\nmov oT2, r2.x\n"
    )
);
snap!(vs_2_x_predication, predication());
snap!(vs_2_x_ifc, pair(119));
snap!(vs_2_x_breakc, pair(120));
snap!(vs_2_x_callnz_predicate, pair(123));
snap!(vs_3_0_passthrough, visual("vs3_code", 0xFFFE0300));
snap!(vs_3_0_nested_loops_al_outputs, nested_loops());
snap!(vs_3_0_packed_outputs, packed_outputs());
snap!(vs_3_0_texldl, texldl());
snap!(
    vs_3_0_relative_input,
    asm(
        "vs_3_0\ndcl_position v0\ndcl_texcoord0 v1\ndcl_texcoord1 v2\ndcl_texcoord2 v3\n\
         dcl_position o0\ndcl_texcoord o1\ndefi i0, 3, 0, 1, 0\nmov o0, v0\nmov r0, c0\n\
         loop aL, i0\nadd r0, r0, v1[aL]\nendloop\nmov o1, r0\n"
    )
);
snap!(
    vs_3_0_sincos_mask_sat_abs,
    asm(
        "vs_3_0\ndcl_position v0\ndcl_texcoord v1\ndcl_position o0\ndcl_texcoord o1\n\
         dcl_texcoord1 o2\nmov o0, v0\nsincos r0.xy, v1.x\nmov o1, r0\n\
         mad_sat o2, -v1_abs, c0, r0\n"
    )
);
snap!(
    software vs_3_0_software_vertex_processing,
    visual("vs3_code", 0xFFFE0300),
    VertexShaderOptions {
        position_fixup: true,
        ..Default::default()
    }
);

snap!(
    vs_1_1_psize_point_sprite,
    visual("vshader_psize_code", 0xFFFE0101),
    VertexShaderOptions {
        position_fixup: true,
        point_expansion: Some(PointExpansion {
            sprite: true,
            scale: false,
        }),
        ..Default::default()
    }
);
snap!(
    vs_3_0_point_scale_without_psize,
    visual("vshader3_code", 0xFFFE0300),
    VertexShaderOptions {
        point_expansion: Some(PointExpansion {
            sprite: false,
            scale: true,
        }),
        ..Default::default()
    }
);

snap!(
    vs_2_0_user_clip_planes,
    visual("vshader_psize_code", 0xFFFE0101),
    VertexShaderOptions {
        clip_planes: true,
        position_fixup: true,
        ..Default::default()
    }
);

/// User clip planes: six distances from the planes' uniform, of the position before the
/// half-pixel fix-up; without the option there is no clip-distance output and no uniform.
#[test]
fn clip_planes_interface_and_distances() {
    use d3d9_translator::lift::interface::{CLIP_PLANES_BINDING, VS_CONSTANTS_GROUP};
    let vs = checked(&visual("vshader_psize_code", 0xFFFE0101));
    let plain = translate_vertex_shader(&vs, &VertexShaderOptions::default()).expect("plain");
    assert_eq!(plain.interface.clip_planes, None);
    assert!(!plain.wgsl().expect("wgsl").contains("clip_distances"));
    let clipped = translate_vertex_shader(
        &vs,
        &VertexShaderOptions {
            clip_planes: true,
            position_fixup: true,
            ..Default::default()
        },
    )
    .expect("with clip planes");
    let binding = clipped.interface.clip_planes.expect("the planes' uniform");
    assert_eq!(
        (binding.group, binding.binding),
        (VS_CONSTANTS_GROUP, CLIP_PLANES_BINDING)
    );
    let wgsl = clipped.wgsl().expect("wgsl");
    assert!(wgsl.contains("enable clip_distances;"), "{wgsl}");
    assert!(wgsl.contains("@builtin(clip_distances)"), "{wgsl}");
    assert!(wgsl.contains("array<f32, 6>"), "{wgsl}");
    // The distances take the position before the fix-up moves its x and y: the expression
    // whose z and w the returned position keeps.
    let ret = wgsl.find("return VertexOutput(").expect("the return");
    let w_end = wgsl[ret..]
        .find(".w), array<f32, 6>(")
        .expect("position then distances")
        + ret;
    let unfixed = &wgsl[wgsl[..w_end].rfind(' ').expect("a name") + 1..w_end];
    assert_eq!(
        wgsl.matches(&format!(", {unfixed})")).count(),
        6,
        "six dot products of {unfixed}: {wgsl}"
    );
    // The WGSL reads back and validates with the clip-distance capability.
    let module = naga::front::wgsl::parse_str(&wgsl).expect("reparsed");
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::default() | naga::valid::Capabilities::CLIP_DISTANCES,
    )
    .validate(&module)
    .expect("valid");
}

/// Point expansion: the entry point takes the corner from `@builtin(vertex_index)`, reads
/// the point render states from their uniform, and (sprites) writes the sprite coordinate to
/// every texture coordinate output; without it, none of that is there.
#[test]
fn point_expansion_interface_and_sprite_coordinates() {
    use d3d9_translator::lift::interface::{POINT_BINDING, VS_CONSTANTS_GROUP};
    let vs = checked(&visual("vshader_psize_code", 0xFFFE0101));
    let plain = translate_vertex_shader(&vs, &VertexShaderOptions::default()).expect("plain");
    assert_eq!(plain.interface.points, None);
    assert!(plain.interface.writes_point_size);
    assert!(!plain.wgsl().expect("wgsl").contains("vertex_index"));
    for sprite in [false, true] {
        let t = translate_vertex_shader(
            &vs,
            &VertexShaderOptions {
                point_expansion: Some(PointExpansion {
                    sprite,
                    scale: false,
                }),
                ..Default::default()
            },
        )
        .expect("translates");
        let points = t.interface.points.expect("points uniform");
        assert_eq!(
            (points.group, points.binding),
            (VS_CONSTANTS_GROUP, POINT_BINDING)
        );
        let wgsl = t.wgsl().expect("wgsl");
        assert!(wgsl.contains("@builtin(vertex_index)"), "{wgsl}");
        // The inputs keep their locations: expansion adds no vertex input.
        assert_eq!(t.interface.inputs, plain.interface.inputs);
        // Sprites change the texture coordinate outputs' values only.
        assert_eq!(t.interface.outputs, plain.interface.outputs);
        let module = naga::front::wgsl::parse_str(&wgsl).expect("parses");
        naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::default(),
        )
        .validate(&module)
        .expect("validates");
    }
}

// --- behaviour of single lowerings, checked on the module and interface ---

use d3d9_translator::signature::Semantic;

fn translate(p: &Program) -> Result<d3d9_translator::lift::TranslatedShader, LiftError> {
    translate_vertex_shader(&checked(p), &VertexShaderOptions::default())
}

#[test]
fn def_constants_are_literals_and_reported() {
    let t = translate(&subroutines()).expect("translates");
    assert_eq!(t.interface.defined_floats, vec![(5, [2.0, 0.5, 0.0, 1.0])]);
    let wgsl = t.wgsl().expect("wgsl");
    assert!(wgsl.contains("vec4<f32>(2f, 0.5f, 0f, 1f)"), "{wgsl}");
    // The def'd register is never read from the buffer by a direct read.
    assert!(!wgsl.contains("c[5]"), "{wgsl}");
}

/// The interface says which `c#` registers the module reads: `Some(n)` covers every direct
/// read (the device copies only those), `None` where a read has a run-time index.
#[test]
fn constants_read_are_reported() {
    let lift = |text: &str| {
        let program = d3d9_translator::asm::assemble(text).expect("assembles");
        translate(&program).expect("translates").interface
    };
    // m4x4 reads c4..c7, the `mov` c9; c12 is def'd (a literal, never read from the buffer).
    let direct = lift(
        "vs_2_0\ndcl_position v0\ndef c12, 1, 2, 3, 4\nm4x4 oPos, v0, c4\n\
         mul r0, c9, v0\nadd oD0, r0, c12\n",
    );
    assert_eq!(direct.float_constants_read, Some(10));
    // No `c#` read at all.
    assert_eq!(
        lift("vs_2_0\ndcl_position v0\nmov oPos, v0\n").float_constants_read,
        Some(0)
    );
    // A relative read may read any register.
    let relative =
        lift("vs_2_0\ndcl_position v0\nmova a0.x, v0.x\nmov oPos, c[a0.x + 3]\nmov oD0, c1\n");
    assert_eq!(relative.float_constants_read, None);
    assert_eq!(relative.relative_constant_reads, vec![(3, 1)]);
}

#[test]
fn relative_reads_are_reported_and_clamped() {
    let t = translate(&nested_loops()).expect("translates");
    assert_eq!(t.interface.relative_constant_reads, vec![(4, 1)]);
    let fc = t.interface.float_constants.expect("float constants bound");
    assert_eq!(
        (fc.group, fc.binding, fc.registers, fc.storage),
        (0, 0, 256, false)
    );
    let wgsl = t.wgsl().expect("wgsl");
    assert!(wgsl.contains("256u)]"), "{wgsl}");
    assert!(wgsl.contains("12u)]"), "{wgsl}");
}

#[test]
fn packed_outputs_are_separate_variables_of_their_width() {
    let t = translate(&packed_outputs()).expect("translates");
    let o = |u, n| {
        t.interface
            .output(Semantic::new(u, n))
            .copied()
            .expect("output")
    };
    assert_eq!(o(Usage::Color, 4).components, 1);
    assert_eq!(o(Usage::TexCoord, 3).components, 2);
    assert_eq!(o(Usage::Fog, 0).components, 1);
    assert_eq!(o(Usage::Position, 0).location, None);
    assert_eq!(
        [
            o(Usage::Color, 4),
            o(Usage::TexCoord, 3),
            o(Usage::Fog, 0),
            o(Usage::PSize, 0)
        ]
        .map(|x| x.location),
        [Some(0), Some(1), Some(2), Some(3)]
    );
    assert!(t.interface.writes_point_size);
}

#[test]
fn texldl_binds_texture_and_sampler() {
    let t = translate(&texldl()).expect("translates");
    let s: Vec<_> = t
        .interface
        .samplers
        .iter()
        .map(|s| {
            (
                s.register,
                s.texture_type,
                s.group,
                s.texture_binding,
                s.sampler_binding,
            )
        })
        .collect();
    assert_eq!(
        s,
        vec![
            (0, TextureType::TwoD, 1, 0, 1),
            (2, TextureType::Cube, 1, 4, 5)
        ]
    );
}

/// 22 one-component outputs do not get a location each (WebGPU has 16): without a link they
/// are packed several to a location, as a link packs them.
#[test]
fn more_than_sixteen_outputs_are_packed() {
    let mut ins = vec![dcl(F::Output, 0, Usage::Position, 0, 0xF)];
    for n in 1..12u32 {
        for c in 0..2u8 {
            ins.push(dcl(
                F::Output,
                n,
                Usage::TexCoord,
                (2 * n as u8) + c,
                1 << c,
            ));
        }
    }
    let p = program(3, 0, ins);
    let t = translate(&p).expect("packs");
    let varyings: Vec<_> = t
        .interface
        .outputs
        .iter()
        .filter_map(|o| o.varying())
        .collect();
    assert_eq!(varyings.len(), 22);
    let shapes = d3d9_translator::lift::link::location_shapes(&varyings).expect("consistent");
    assert_eq!(shapes.len(), 6);
}

#[test]
fn recursion_unclosed_blocks_and_stray_break_never_reach_the_lifter() {
    let recursive = program(
        2,
        0,
        vec![
            op(Opcode::Call, None, vec![s(F::Label, 0)]),
            op(Opcode::Ret, None, vec![]),
            op(Opcode::Label, None, vec![s(F::Label, 0)]),
            op(Opcode::Call, None, vec![s(F::Label, 0)]),
            op(Opcode::Ret, None, vec![]),
        ],
    );
    let unclosed = program(2, 0, vec![op(Opcode::If, None, vec![s(F::ConstBool, 0)])]);
    let stray = program(2, 1, vec![op(Opcode::Break, None, vec![])]);
    for p in [recursive, unclosed, stray] {
        let e = check(&p, Stage::Vertex, &DeviceCaps::software()).expect_err("refused");
        assert!(e.is_invalid(), "{e}");
    }
}

#[test]
fn legacy_multiply_tests_zero_only_where_it_matters() {
    // mul by a def'd all-non-zero constant: plain multiply.
    let p = program(
        2,
        0,
        vec![
            dcl(F::Input, 0, Usage::Position, 0, 0xF),
            def(0, [2.0, 3.0, 4.0, 5.0]),
            op(
                Opcode::Mul,
                Some(d(F::RastOut, 0, 0xF)),
                vec![s(F::Input, 0), s(F::Const, 0)],
            ),
        ],
    );
    let strict = in_mode(FloatMode::LegacyStrict);
    let wgsl = translate_vertex_shader(&checked(&p), &strict)
        .expect("ok")
        .wgsl()
        .expect("wgsl");
    assert!(!wgsl.contains("select"), "{wgsl}");
    // mul of two run-time values: the zero test.
    let p = program(
        2,
        0,
        vec![
            dcl(F::Input, 0, Usage::Position, 0, 0xF),
            op(
                Opcode::Mul,
                Some(d(F::RastOut, 0, 0xF)),
                vec![s(F::Input, 0), s(F::Const, 0)],
            ),
        ],
    );
    let strict = in_mode(FloatMode::LegacyStrict);
    let wgsl = translate_vertex_shader(&checked(&p), &strict)
        .expect("ok")
        .wgsl()
        .expect("wgsl");
    assert!(wgsl.contains("select("), "{wgsl}");
    // Legacy removes the sources of inf/NaN instead: a plain multiply.
    let legacy = translate(&p).expect("ok").wgsl().expect("wgsl");
    assert!(!legacy.contains("select"), "{legacy}");
    let ieee = translate_vertex_shader(&checked(&p), &ieee())
        .expect("ok")
        .wgsl()
        .expect("wgsl");
    assert!(!ieee.contains("select"), "{ieee}");
}

#[test]
fn input_fetch_conversions_declare_integer_inputs() {
    use d3d9_translator::decl::{FetchConversion, FetchSource, InputFetch};
    let p = visual("vs3_code", 0xFFFE0300);
    let regs: Vec<u32> = translate(&p)
        .expect("ok")
        .interface
        .inputs
        .iter()
        .map(|i| i.register)
        .collect();
    let fetches = regs
        .iter()
        .enumerate()
        .map(|(k, &r)| InputFetch {
            register: r,
            source: if k == 0 {
                FetchSource::Attribute {
                    location: 7,
                    format: wgpu_types::VertexFormat::Sint16x4,
                    conversion: FetchConversion::SignedToFloat,
                }
            } else {
                FetchSource::Missing
            },
        })
        .collect();
    let options = VertexShaderOptions {
        input_fetches: Some(fetches),
        ..Default::default()
    };
    let t = translate_vertex_shader(&checked(&p), &options).expect("ok");
    assert_eq!(t.interface.inputs[0].location, Some(7));
    assert!(t.interface.inputs[1..].iter().all(|i| i.location.is_none()));
    let wgsl = t.wgsl().expect("wgsl");
    assert!(wgsl.contains("@location(7) v0_: vec4<i32>"), "{wgsl}");
}

#[test]
fn software_vertex_processing_has_2048_integer_and_boolean_constants() {
    let text = "vs_3_sw\ndcl_position v0\ndcl_position o0\ndefi i20, 2, 0, 0, 0\n\
                rep i20\nadd r0, r0, c0\nendrep\nif b1000\nmov r0, c1\nendif\nmov o0, r0\n";
    let program = d3d9_translator::asm::assemble(text).expect("assembles");
    let hardware = check(&program, Stage::Vertex, &DeviceCaps::default());
    assert!(
        hardware.is_err_and(|e| e.is_invalid()),
        "i20/b1000 need software VP"
    );
    let wgsl = wgsl_of(&checked_on(&program, true), &VertexShaderOptions::default());
    assert!(
        wgsl.contains("var<uniform> b: array<vec4<u32>, 16>"),
        "{wgsl}"
    );
    // b1000 is bit 1000 % 32 = 8 of word 31 = element 7, component w.
    assert!(wgsl.contains("b[7].w"), "{wgsl}");
}

#[test]
fn constants_past_2047_are_the_const2_to_const4_banks() {
    // vs_3_sw: `def c3056` (CONST2 bank) folds into a literal; c5000 and c[a0.x + 2000] read
    // the one 8192-register buffer at their flat index (a relative read can reach past c2047).
    let text = "vs_3_sw\ndcl_position v0\ndcl_position o0\ndcl_texcoord o1\n\
                dcl_texcoord1 o2\ndef c3056, 1.5, 2.5, 3.5, 4.5\nmova a0.x, v0.x\n\
                mov o0, c3056\nmov o1, c5000\nmov o2, c[a0.x + 2000]\n";
    let program = d3d9_translator::asm::assemble(text).expect("assembles");
    let t = translate_vertex_shader(&checked_on(&program, true), &VertexShaderOptions::default())
        .expect("translates");
    assert_eq!(
        t.interface.defined_floats,
        vec![(3056, [1.5, 2.5, 3.5, 4.5])]
    );
    assert_eq!(t.interface.relative_constant_reads, vec![(2000, 1)]);
    let wgsl = t.wgsl().expect("wgsl");
    assert!(wgsl.contains("vec4<f32>(1.5f, 2.5f, 3.5f, 4.5f)"), "{wgsl}");
    assert!(wgsl.contains("c[5000]"), "{wgsl}");
    assert!(wgsl.contains("2000i"), "{wgsl}");
    assert!(wgsl.contains("8192u)]"), "{wgsl}");
}

/// A vs_2_0 reading `c#` directly, relatively and from a subroutine.
const WINDOWED: &str = "vs_2_0\ndcl_position v0\nmova a0.x, v0.x\nmov oPos, c[a0.x + 3]\n\
                        mov oD0, c1\ncall l0\nret\nlabel l0\nmov oT0, c7\nret\n";

fn windowed(window: u32) -> VertexShaderOptions {
    VertexShaderOptions {
        float_constants_window: Some(window),
        ..Default::default()
    }
}

snap!(vs_2_0_constants_window, asm(WINDOWED), windowed(4096));

/// `float_constants_window`: `c#` is a window of a larger binding and `c#n` its element
/// `instance_index + n` (a relative index clamped to the zero register first), in
/// subroutines too; not with point expansion, in software processing, or where the window
/// cannot hold the registers and the zero register.
#[test]
fn constants_window_reads_c_at_the_instance_index() {
    let program = checked(&asm(WINDOWED));
    let t = translate_vertex_shader(&program, &windowed(4096)).expect("translates");
    let fc = t.interface.float_constants.expect("c# bound");
    assert_eq!(
        (fc.registers, fc.window, fc.storage),
        (256, Some(4096), false)
    );
    let wgsl = wgsl_of(&program, &windowed(4096));
    // Three reads, each at the base: c[a0.x + 3] (clamped to 256 first), c1 and c7.
    for needle in [
        "var<uniform> c: array<vec4<f32>, 4096>;",
        "@builtin(instance_index) first_instance: u32",
        "c_base = first_instance;",
        "256u)",
    ] {
        assert!(wgsl.contains(needle), "{needle}: {wgsl}");
    }
    assert_eq!(wgsl.matches("c[(").count(), 3, "{wgsl}");
    assert!(!wgsl.contains("c[1]") && !wgsl.contains("c[7]"), "{wgsl}");
    // Without the window, as before.
    let plain =
        translate_vertex_shader(&program, &VertexShaderOptions::default()).expect("translates");
    assert_eq!(plain.interface.float_constants.and_then(|f| f.window), None);
    let plain = plain.wgsl().expect("wgsl");
    assert!(plain.contains("array<vec4<f32>, 257>") && !plain.contains("instance_index"));
    // Where the window does not apply.
    let points = VertexShaderOptions {
        point_expansion: Some(PointExpansion {
            sprite: false,
            scale: false,
        }),
        ..windowed(4096)
    };
    let software = checked_on(&asm(WINDOWED), true);
    for (program, options) in [
        (&program, points),
        (&program, windowed(256)),
        (&software, windowed(4096)),
    ] {
        let t = translate_vertex_shader(program, &options).expect("translates");
        let fc = t.interface.float_constants.expect("c# bound");
        assert_eq!(fc.window, None, "{options:?}");
        assert!(!t.wgsl().expect("wgsl").contains("c_base"), "{options:?}");
    }
}

#[test]
fn legacy_strict_skips_the_zero_test_for_provably_finite_operands() {
    let strict = in_mode(FloatMode::LegacyStrict);
    let wgsl = |body: &str| {
        let text = format!("vs_2_0\ndcl_position v0\n{body}");
        let p = d3d9_translator::asm::assemble(&text).unwrap_or_else(|e| panic!("{e}"));
        translate_vertex_shader(&checked(&p), &strict)
            .expect("translates")
            .wgsl()
            .expect("wgsl")
    };
    // sge gives 0 or 1: r0 * r0 is plain IEEE (sge's own select is the only one).
    let both = wgsl("sge r0, v0, c0\nmul r1, r0, r0\nmov oPos, r1\n");
    assert_eq!(both.matches("select(").count(), 1, "{both}");
    // One finite operand: one zero test on it, no `a == 0 || b == 0`.
    let one = wgsl("sge r0, v0, c0\nmul oPos, r0, c1\n");
    assert_eq!(one.matches("select(").count(), 2, "{one}");
    assert!(!one.contains(" | "), "{one}");
    // Flow control joins paths: after an `if`, r0 is no longer known to be finite.
    let joined = wgsl("sge r0, v0, c0\nif b0\nmov r0, c2\nendif\nmul r1, r0, r0\nmov oPos, r1\n");
    assert_eq!(joined.matches("select(").count(), 2, "{joined}");
    // An operand of unknown range: the full test.
    let unknown = wgsl("mul oPos, v0, c1\n");
    assert!(unknown.contains(" | "), "{unknown}");
    // A temporary written in parts is known per component: finite where every component
    // read was written with a finite value, in straight-line code.
    // `r0 · r0.yxwz` after `body`: zero tests only where a component may not be finite.
    let product_after = |body: &str| wgsl(&format!("{body}mul r1, r0, r0.yxwz\nmov oPos, r1\n"));
    let parts = "sge r0.xy, v0, c0\nsge r0.zw, v0, c1\n";
    let (mul, add) = (
        product_after(parts),
        wgsl(&format!("{parts}add r1, r0, r0.yxwz\nmov oPos, r1\n")),
    );
    assert_eq!(
        mul.matches("select(").count(),
        add.matches("select(").count(),
        "{mul}"
    );
    let mul = product_after("sge r0.xy, v0, c0\nmov r0.zw, c1\n");
    assert!(mul.contains(" | "), "{mul}");
    let mul = product_after("mov r0, c1\nsge r0.xy, v0, c0\nmov r0.w, c1\n");
    assert!(mul.contains(" | "), "{mul}");
    let xy = wgsl("sge r0.xy, v0, c0\nmov r0.zw, c1\nmul r1, r0.xyxy, r0.yxyx\nmov oPos, r1\n");
    assert!(!xy.contains(" | "), "{xy}");
    let zw = wgsl("sge r0.xy, v0, c0\nmov r0.zw, c1\nmul r1, r0.xyzw, r0.xyxy\nmov oPos, r1\n");
    assert!(
        zw.matches("select(").count() > xy.matches("select(").count(),
        "{zw}"
    );
    // A component overwritten with an unknown value is no longer finite; a swizzle that
    // repeats components reads each of them.
    let mul = product_after("sge r0, v0, c0\nmov r0.x, c1\n");
    assert!(mul.contains(" | "), "{mul}");
    let repeated = wgsl("sge r0.xy, v0, c0\nmov r0.zw, c1\nmul r1, r0.zzww, v0\nmov oPos, r1\n");
    assert!(repeated.contains(" | "), "{repeated}");
    // A loop body runs again after its last instruction: r0 there may be c2, not sge's.
    let looped =
        wgsl("sge r0, v0, c0\nrep i0\nmul r1, r0, r0.yxwz\nmov r0, c2\nendrep\nmov oPos, r1\n");
    assert!(looped.contains(" | "), "{looped}");
}

// --- pixel shaders ---

/// The pixel shader `name` of Wine's visual.c function `function`.
fn visual_ps(function: &str, name: &str) -> Program {
    let v = corpus("d3d9_visual.json");
    for key in ["shaders", "composed_shaders"] {
        for s in v[key].as_array().expect("list") {
            let t = tokens(&s["tokens"]);
            if s["name"].as_str() == Some(name)
                && s["function"].as_str() == Some(function)
                && t.first().is_some_and(|v| v >> 16 == 0xFFFF)
            {
                return decode(&t).expect("decodes");
            }
        }
    }
    panic!("no visual pixel shader {function}/{name}");
}

fn ps_wgsl_of(program: &Program, options: &PixelShaderOptions) -> String {
    let checked = check(program, Stage::Pixel, &DeviceCaps::default())
        .unwrap_or_else(|e| panic!("check: {e}"));
    let t = translate_pixel_shader(&checked, options).expect("translates");
    let wgsl = t.wgsl().expect("wgsl");
    let module = naga::front::wgsl::parse_str(&wgsl)
        .unwrap_or_else(|e| panic!("{}", e.emit_to_string(&wgsl)));
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        // Clip distances appear only with `VertexShaderOptions::clip_planes`.
        naga::valid::Capabilities::default() | naga::valid::Capabilities::CLIP_DISTANCES,
    )
    .validate(&module)
    .unwrap_or_else(|e| panic!("{}", e.emit_to_string(&wgsl)));
    wgsl
}

macro_rules! psnap {
    ($name:ident, $program:expr) => {
        psnap!($name, $program, PixelShaderOptions::default());
    };
    ($name:ident, $program:expr, $options:expr) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(ps_wgsl_of(&$program, &$options));
        }
    };
}

psnap!(ps_2_0_texkill, visual_ps("texkill_test", "shader_code_20"));
psnap!(
    ps_2_0_dp2add_sat,
    visual_ps("dp2add_ps_test", "shader_code_dp2add_sat")
);
psnap!(ps_2_0_fp_special, visual_ps("fp_special_test", "ps_code"));
psnap!(
    ps_2_0_texld_cube,
    visual_ps("unbound_sampler_test", "ps_code_cube")
);
psnap!(
    ps_3_0_nested_loops,
    visual_ps("nested_loop_test", "shader_code")
);
psnap!(
    ps_3_0_vface,
    visual_ps("vface_register_test", "shader_code")
);
psnap!(
    ps_3_0_vpos,
    visual_ps("test_fragment_coords", "shader_code")
);
psnap!(
    ps_3_0_mrt,
    visual_ps("multiple_rendertargets_test", "pshader_code2")
);
psnap!(ps_3_0_dsy, visual_ps("test_dsy", "ps_code"));
psnap!(
    ps_3_0_texld_family,
    asm(
        "ps_3_0\ndcl_texcoord0 v0\ndcl_texcoord1 v1\ndcl_2d s0\ndcl_cube s1\ndcl_volume s2\n\
         texld r0, v0, s0\ntexldp r1, v0, s0\ntexldb r2, v0, s1\ntexldl r3, v0, s2\n\
         mov r5, v1\ntexldd r4, v0, s1, r5, r5.yzxw\nadd r0, r0, r1\nadd r0, r0, r2\nadd r0, r0, r3\n\
         add r0, r0, r4\nmov oC0, r0\n"
    )
);
psnap!(
    ps_2_x_predicated_texkill_and_sampler_swizzle,
    asm(
        "ps_2_x\ndef c0, 0.5, 0.5, 0.5, 0.5\ndcl t0\ndcl_2d s0\nsetp_gt p0, t0, c0\n\
         (p0) texkill t0\ntexld r0, t0, s0.wzyx\n(!p0.y) mov r0.xy, c0\nmov oC0, r0\n"
    )
);
psnap!(
    ps_2_x_flow_controlled_sampling,
    asm(
        "ps_2_x\ndef c0, 0.5, 0, 0, 0\ndcl t0.xy\ndcl_2d s0\nif_gt t0.x, c0.x\n\
         texld r0, t0, s0\nelse\nmov r0, c0\nendif\nmov oC0, r0\n"
    )
);
psnap!(
    ps_3_0_centroid_odepth_cmp_nrm,
    asm(
        "ps_3_0\ndcl_texcoord0_centroid v0.xy\ndcl_color0 v1\nnrm r0.xyz, v1\n\
         cmp r0.w, v0.x, c0.x, c0.y\nmov oC0, r0\nmov oDepth, v0.y\n"
    )
);
psnap!(
    ps_3_0_subroutine_with_texkill,
    asm(
        "ps_3_0\ndcl_texcoord0 v0\ndcl_2d s0\ncall l0\nmov oC0, r0\nret\nlabel l0\n\
         texkill v0\ntexld r0, v0, s0\nret\n"
    )
);
psnap!(
    ps_3_0_linked_packed_inputs,
    asm("ps_3_0\ndcl_texcoord0 v0.xy\ndcl_texcoord1 v0.zw\ndcl_fog v1.x\nmov r1, v1.x\nadd r0, v0, r1\nmov oC0, r0\n"),
    PixelShaderOptions {
        input_locations: Some(vec![
            Varying::new(Semantic::new(Usage::TexCoord, 0), 0, 2),
            Varying {
                component: 2,
                ..Varying::new(Semantic::new(Usage::TexCoord, 1), 0, 1)
            },
            Varying {
                component: 3,
                ..Varying::new(Semantic::new(Usage::Fog, 0), 0, 1)
            },
        ]),
        ..Default::default()
    }
);

// The alpha test after a ps_2_0 shader: oC0's alpha quantised to 8 bits against the
// reference uniform, the pixel discarded unless a8 >= ref.
psnap!(
    ps_2_0_alpha_test_greater_equal,
    asm("ps_2_0\ndcl t0.xy\ndcl v0\ndcl_2d s0\ntexld r0, t0, s0\nmul r0, r0, v0\nmov oC0, r0\n"),
    PixelShaderOptions {
        alpha_test: Some(CompareFunction::GreaterEqual),
        ..Default::default()
    }
);

// ps_1_x: Wine's visual-test shaders and hand-written ones covering the modifiers, shifts,
// co-issue and the texture-addressing family.
psnap!(ps_1_1_texbem, visual_ps("texbem_test", "pixel_shader_code"));
psnap!(
    ps_1_3_double_texbem,
    visual_ps("texbem_test", "double_texbem_code")
);
psnap!(ps_1_4_texdepth, visual_ps("texdepth_test", "shader_code"));
psnap!(
    ps_1_1_constant_clamp,
    visual_ps("constant_clamp_ps_test", "shader_code_11")
);
psnap!(
    ps_1_4_constant_clamp,
    visual_ps("constant_clamp_ps_test", "shader_code_14")
);
psnap!(
    ps_1_1_cnd_coissue,
    visual_ps("cnd_test", "shader_code_11_coissue")
);
psnap!(
    ps_1_4_cnd_coissue,
    visual_ps("cnd_test", "shader_code_14_coissue")
);
psnap!(ps_1_4_shadow, visual_ps("shadow_test", "ps14_code"));
psnap!(
    ps_1_2_modifiers_and_shifts,
    asm(
        "ps_1_2\ndef c0, 0.25, 0.5, 0.75, 1.0\ntex t0\ntexcoord t1\n\
         add_x2 r0, t0_bias, -v0_bx2\nmad_d2 r1, 1-t1, c0, v1\n\
         sub_x4_sat r1.rgb, r1, t0_bx2\n+lrp r1.a, v0.a, r0.a, c0_bias.a\n\
         dp3_x2 r0.rgb, r1_bx2, t0_bx2\n+cnd r0.a, r1.a, v0.a, c0.a\n"
    )
);
psnap!(
    ps_1_3_texm3x3spec,
    asm(
        "ps_1_3\ntex t0\ntexm3x3pad t1, t0_bx2\ntexm3x3pad t2, t0_bx2\n\
         texm3x3spec t3, t0_bx2, c0\nmul r0, t3, v0\n"
    )
);
psnap!(
    ps_1_1_texm3x2tex_texreg2ar,
    asm(
        "ps_1_1\ntex t0\ntexm3x2pad t1, t0_bx2\ntexm3x2tex t2, t0_bx2\ntexreg2ar t3, t2\n\
         mul r0, t2, t3\n"
    ),
    PixelShaderOptions {
        texture_types: vec![
            TextureType::TwoD,
            TextureType::TwoD,
            TextureType::TwoD,
            TextureType::Volume
        ],
        ..Default::default()
    }
);
psnap!(
    ps_1_4_phase_bem_texcrd,
    asm(
        "ps_1_4\ntexld r0, t0_dz\ntexcrd r1.rgb, t1_dw.xyw\nbem r2.rg, r1, r0\n\
         phase\ntexld r2, r2\ncmp_x2 r0, r1_bias, r2, -c0\n"
    )
);

// --- instruction shapes whose every variant a snapshot pins ---

// Every matrix instruction with the components it writes: m4x4 and m3x4 four dot products of
// four and three lanes, m4x3 and m3x3 three, m3x2 two.
snap!(
    vs_1_1_matrices,
    asm(
        "vs_1_1\ndcl_position v0\nm4x4 r0, v0, c0\nm4x3 r1.xyz, v0, c4\nm3x4 r2, v0, c8\n\
         m3x3 r3.xyz, v0, c12\nm3x2 r4.xy, v0, c16\nadd r0, r0, r1\nadd r0, r0, r2\n\
         add r0, r0, r3\nadd oPos, r0, r4\n"
    )
);
// `lit` writing one component at a time: x and w are 1, y and z computed.
snap!(
    vs_2_0_lit_each_component,
    asm(
        "vs_2_0\ndcl_position v0\nlit r0.x, v0\nlit r0.y, v0\nlit r0.z, v0\nlit r0.w, v0\n\
         mov oPos, r0\n"
    )
);
// vs_1_1's `expp` is (2^floor(x), frac(x), 2^x, 1); from vs_2_0 on it is 2^x alone.
snap!(
    vs_1_1_expp,
    asm("vs_1_1\ndcl_position v0\nexpp r0, v0.x\nmov oPos, r0\n")
);
snap!(
    vs_2_0_expp,
    asm("vs_2_0\ndcl_position v0\nexpp r0.x, v0.x\nmov oPos, r0.x\n")
);

/// A predicated flow-control instruction is legal D3D9 the translator does not handle: the
/// error names the instruction, its opcode and its token offset.
#[test]
fn predicated_flow_control_is_unsupported_at_its_instruction() {
    let p = asm(
        "vs_3_0\ndcl_position v0\ndcl_position o0\nsetp_gt p0, v0, c0\nrep i0\n(p0) break\n\
         endrep\nmov o0, v0\n",
    );
    let e = translate_vertex_shader(&checked(&p), &VertexShaderOptions::default())
        .expect_err("predicated break");
    let LiftError::Unsupported {
        index,
        opcode,
        offset,
        feature,
    } = e
    else {
        panic!("{e}");
    };
    // dcl, dcl, setp, rep, then the break.
    assert_eq!((index, opcode), (4, Opcode::Break), "{e}");
    assert_eq!(offset, p.instructions[4].offset, "{e}");
    assert_eq!(feature, Feature::PredicatedFlowControl);
    assert!(e.is_unsupported());
    // A program of the other stage is a caller's mistake, not a missing feature.
    let ps = check(
        &asm("ps_2_0\nmov oC0, c0\n"),
        Stage::Pixel,
        &DeviceCaps::default(),
    )
    .expect("check");
    let e = translate_vertex_shader(&ps, &VertexShaderOptions::default()).expect_err("ps");
    assert!(matches!(e, LiftError::WrongStage { .. }), "{e}");
    assert!(!e.is_unsupported());
}

/// An instruction whose write mask names no component (legal in the token stream, and not
/// refused by `check` outside the instructions with fixed masks) writes nothing: the shader
/// translates to what it does without it.
#[test]
fn an_empty_write_mask_writes_nothing() {
    let with = |extra: Vec<Instruction>| {
        let mut v = vec![
            dcl(F::Input, 0, Usage::Position, 0, 0xF),
            dcl(F::Output, 0, Usage::Position, 0, 0xF),
        ];
        v.extend(extra);
        v.push(op(
            Opcode::Mov,
            Some(d(F::Output, 0, 0xF)),
            vec![s(F::Temp, 0)],
        ));
        wgsl_of(&checked(&program(3, 0, v)), &VertexShaderOptions::default())
    };
    let setup = || op(Opcode::Mov, Some(d(F::Temp, 0, 0xF)), vec![s(F::Input, 0)]);
    let plain = with(vec![setup()]);
    for (name, empty) in [
        (
            "mov",
            op(Opcode::Mov, Some(d(F::Temp, 0, 0)), vec![s(F::Const, 0)]),
        ),
        (
            "add",
            op(
                Opcode::Add,
                Some(d(F::Temp, 0, 0)),
                vec![s(F::Input, 0), s(F::Const, 1)],
            ),
        ),
    ] {
        assert_eq!(with(vec![setup(), empty]), plain, "{name}");
    }
    // `setp` reads its sources, but no predicate register is written (or declared).
    let mut setp = op(
        Opcode::Setp,
        Some(d(F::Predicate, 0, 0)),
        vec![s(F::Input, 0), s(F::Const, 0)],
    );
    setp.control = Control::Comparison(Comparison::Gt);
    let wgsl = with(vec![setup(), setp]);
    assert!(!wgsl.contains("p0"), "{wgsl}");
}

/// `LegacyStrict`'s zero test of `mul` is dropped for an operand known to be finite, and a
/// source modifier keeps that knowledge only where it cannot overflow: negation, `_abs`,
/// `_bias` (x − ½) and `1 − x` keep a finite value finite; `_x2` and `_bx2` (2x − 1) may not.
#[test]
fn legacy_strict_knows_which_source_modifiers_keep_a_value_finite() {
    let vs = |body: &str| {
        let text = format!("vs_3_0\ndcl_position v0\ndcl_position o0\nsge r0, v0, c0\n{body}");
        let options = in_mode(FloatMode::LegacyStrict);
        wgsl_of(&checked(&asm(&text)), &options)
    };
    for src in ["-r0", "r0_abs", "-r0_abs", "r0"] {
        let wgsl = vs(&format!("mul o0, {src}, c1\n"));
        assert!(!wgsl.contains(" | "), "{src}: {wgsl}");
    }
    let ps = |src: &str| {
        let options = PixelShaderOptions {
            float_mode: FloatMode::LegacyStrict,
            ..Default::default()
        };
        let text = format!("ps_1_4\nmov_sat r2, v0\nmul r0, {src}, v1\n");
        ps_wgsl_of(&asm(&text), &options)
    };
    for src in ["r2", "-r2", "r2_bias", "1-r2", "-r2_bias"] {
        let wgsl = ps(src);
        assert!(!wgsl.contains(" | "), "{src}: {wgsl}");
    }
    for src in ["r2_x2", "r2_bx2", "-r2_x2", "-r2_bx2"] {
        let wgsl = ps(src);
        assert!(wgsl.contains(" | "), "{src}: {wgsl}");
    }
    // A result shift: halving keeps a finite value finite, doubling may overflow.
    for (shift, finite) in [("d2", true), ("d8", true), ("x2", false), ("x8", false)] {
        let options = PixelShaderOptions {
            float_mode: FloatMode::LegacyStrict,
            ..Default::default()
        };
        let text = format!("ps_1_4\nmov_sat r2, v0\nmov_{shift} r3, r2\nmul r0, r3, v1\n");
        let wgsl = ps_wgsl_of(&asm(&text), &options);
        assert_eq!(!wgsl.contains(" | "), finite, "{shift}: {wgsl}");
    }
}

// Fixed-function fog after a ps_2_0 shader, each source: the FOG varying packed at .w of a
// location; COLOR1's alpha where COLOR1 travels whole without FOG; table fog LINEAR from w,
// EXP and EXP2 from the depth.
fn fogged(source: FogSource, from_w: bool, inputs: Vec<Varying>) -> PixelShaderOptions {
    PixelShaderOptions {
        fog: Some(FogOptions { source, from_w }),
        input_locations: Some(inputs),
        ..Default::default()
    }
}
const FOGGED_PS: &str = "ps_2_0\ndcl t0.xyz\nmov r0, t0\nmov oC0, r0\n";
fn texcoord_xyz() -> Varying {
    Varying::new(Semantic::new(Usage::TexCoord, 0), 0, 3)
}
psnap!(
    ps_2_0_fog_vertex_packed_at_w,
    asm(FOGGED_PS),
    fogged(
        FogSource::Vertex,
        false,
        vec![
            texcoord_xyz(),
            Varying {
                component: 3,
                ..Varying::new(Semantic::new(Usage::Fog, 0), 0, 1)
            },
        ]
    )
);
psnap!(
    ps_2_0_fog_vertex_from_color1_alpha,
    asm(FOGGED_PS),
    fogged(
        FogSource::Vertex,
        false,
        vec![
            texcoord_xyz(),
            Varying::new(Semantic::new(Usage::Color, 1), 1, 4)
        ]
    )
);
psnap!(
    ps_2_0_fog_table_linear_from_w,
    asm(FOGGED_PS),
    fogged(
        FogSource::Table(FogMode::Linear),
        true,
        vec![texcoord_xyz()]
    )
);
psnap!(
    ps_2_0_fog_table_exp,
    asm(FOGGED_PS),
    fogged(FogSource::Table(FogMode::Exp), false, vec![texcoord_xyz()])
);
psnap!(
    ps_2_0_fog_table_exp2,
    asm(FOGGED_PS),
    fogged(FogSource::Table(FogMode::Exp2), false, vec![texcoord_xyz()])
);

/// The fog uniform holds the colour, then (start, end, density, 0).
#[test]
fn fog_constants_are_the_colour_then_start_end_density() {
    let fog = d3d9_translator::lift::FogConstants {
        color: [0.25, 0.5, 0.75, 1.0],
        start: 2.0,
        end: 10.0,
        density: 0.125,
    };
    assert_eq!(
        fog.data(),
        [[0.25, 0.5, 0.75, 1.0], [2.0, 10.0, 0.125, 0.0]]
    );
}

/// Every fetch conversion of a vertex input: SHORTnN clamped to −1, UBYTE4 and SHORTn
/// converted unscaled, UDEC3 and DEC3N unpacked from 10-bit fields (DEC3N sign-extended and
/// divided by 511, clamped to −1), each input named by its declared semantic.
fn converted_inputs() -> VertexShaderOptions {
    use d3d9_translator::decl::{FetchConversion as C, FetchSource, InputFetch};
    use wgpu_types::VertexFormat as V;
    let fetch = |register: u32, format, conversion| InputFetch {
        register,
        source: FetchSource::Attribute {
            location: register,
            format,
            conversion,
        },
    };
    VertexShaderOptions {
        input_fetches: Some(vec![
            fetch(0, V::Float32x4, C::Float),
            fetch(1, V::Snorm16x2, C::SignedNormalized),
            fetch(2, V::Uint8x4, C::UnsignedToFloat),
            fetch(3, V::Sint16x4, C::SignedToFloat),
            fetch(4, V::Uint32, C::UDec3),
            fetch(5, V::Uint32, C::Dec3N),
        ]),
        ..Default::default()
    }
}
const CONVERTED_VS: &str = "vs_2_0\ndcl_position v0\ndcl_normal v1\ndcl_blendindices v2\n\
    dcl_texcoord0 v3\ndcl_texcoord1 v4\ndcl_texcoord2 v5\nmov r0, v0\nadd r0, r0, v1\n\
    add r0, r0, v2\nadd r0, r0, v3\nadd r0, r0, v4\nadd oPos, r0, v5\n";
snap!(
    vs_2_0_input_conversions,
    asm(CONVERTED_VS),
    converted_inputs()
);

#[test]
fn vertex_inputs_name_their_declared_semantics() {
    let t = translate_vertex_shader(&checked(&asm(CONVERTED_VS)), &converted_inputs())
        .expect("translates");
    let got: Vec<_> = t
        .interface
        .inputs
        .iter()
        .map(|i| (i.register, i.semantic, i.location))
        .collect();
    let s = |u, n| Some(Semantic::new(u, n));
    assert_eq!(
        got,
        vec![
            (0, s(Usage::Position, 0), Some(0)),
            (1, s(Usage::Normal, 0), Some(1)),
            (2, s(Usage::BlendIndices, 0), Some(2)),
            (3, s(Usage::TexCoord, 0), Some(3)),
            (4, s(Usage::TexCoord, 1), Some(4)),
            (5, s(Usage::TexCoord, 2), Some(5)),
        ]
    );
    let v3 = t.interface.input(3).expect("v3");
    assert_eq!((v3.register, v3.semantic), (3, s(Usage::TexCoord, 0)));
    assert!(t.interface.input(6).is_none());
}

// LegacyStrict's `0 · x = 0` with known operands: both known fold per component (a zero on
// either side gives 0, even against the inf of 1e38 · 1e38); one known and finite tests only its zero
// components (a mask of them; a scalar or an all-zero constant is 0 outright).
snap!(
    vs_2_0_legacy_strict_known_products,
    asm(
        "vs_2_0\ndef c0, 0, 2, 3, 1e38\ndef c1, 5, 0, 4, 1e38\ndef c2, 0, 1, 0, 2\n\
         def c3, 0, 0, 0, 0\ndcl_position v0\nmov r5, c1\nmul r0, c0, r5\nmul r1, v0, c2\n\
         mul r2, v0.x, c0.x\nmul r3, v0, c3\nmul r4, v0, c1.xxxx\nmul r6, c1, c1\n\
         mul r7, r6, c3\nadd r0, r0, r1\nadd r0, r0, r2\nadd r0, r0, r3\nadd r0, r0, r7\n\
         add oPos, r0, r4\n"
    ),
    in_mode(FloatMode::LegacyStrict)
);

// The legacy results of rcp, rsq and log at 0 for known operands: a known zero gives the
// D3D9 value (FLT_MAX, −FLT_MAX), a known non-zero operand needs no test.
snap!(
    vs_2_0_legacy_known_zero_operands,
    asm(
        "vs_2_0\ndef c0, 0, 4, 0, 0\ndcl_position v0\nrcp r0.x, c0.x\nrcp r0.y, c0.y\n\
         rsq r0.z, c0.x\nrsq r0.w, c0.y\nlog r1.x, c0.x\nlog r1.y, c0.y\nadd r0, r0, r1\n\
         add oPos, r0, v0\n"
    ),
    in_mode(FloatMode::Legacy)
);

// texreg2gb samples at (g, b) of its source, texreg2rgb at (r, g, b) (a volume here).
psnap!(
    ps_1_2_texreg2gb_texreg2rgb,
    asm("ps_1_2\ntex t0\ntexreg2gb t1, t0\ntexreg2rgb t2, t0\nadd r0, t1, t2\n"),
    PixelShaderOptions {
        texture_types: vec![TextureType::TwoD, TextureType::TwoD, TextureType::Volume],
        ..Default::default()
    }
);

// A volume bound to a `dcl_2d` sampler of ps_2_0 is read at depth 0.5 (Windows).
psnap!(
    ps_2_0_volume_on_a_2d_sampler,
    asm("ps_2_0\ndcl t0.xy\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n"),
    PixelShaderOptions {
        texture_types: vec![TextureType::Volume],
        ..Default::default()
    }
);

// A border colour (A8R8G8B8 0x80402010) mixed in on both axes of a linear 2D sampler.
psnap!(
    ps_2_0_border_colour,
    asm("ps_2_0\ndcl t0.xy\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n"),
    PixelShaderOptions {
        sampler_fixups: vec![d3d9_translator::lift::interface::SamplerFixup {
            address: [
                d3d9_translator::lift::interface::AxisFixup::Border,
                d3d9_translator::lift::interface::AxisFixup::Border,
                d3d9_translator::lift::interface::AxisFixup::None,
            ],
            border_color: 0x8040_2010,
            linear: true,
            ..Default::default()
        }],
        ..Default::default()
    }
);

// The main program's closing `ret` before the subroutines ends the body: the outputs are
// still written after it.
snap!(
    vs_2_0_main_ends_with_ret,
    asm("vs_2_0\ndcl_position v0\ncall l0\nmov oPos, r0\nret\nlabel l0\nmov r0, v0\nret\n")
);

/// `LegacyStrict` skips the zero test for inputs fetched from integer or normalised formats
/// (always finite), not for float formats (FLOAT16 and FLOAT32 may hold inf or NaN).
#[test]
fn legacy_strict_trusts_integer_and_normalised_inputs_only() {
    use d3d9_translator::decl::{FetchConversion as C, FetchSource, InputFetch};
    use wgpu_types::VertexFormat as V;
    for (format, conversion, finite) in [
        (V::Float32x4, C::Float, false),
        (V::Float16x4, C::Float, false),
        (V::Float32, C::Float, false),
        (V::Unorm8x4, C::Float, true),
        (V::Uint8x4, C::UnsignedToFloat, true),
        (V::Snorm16x4, C::SignedNormalized, true),
        (V::Sint16x2, C::SignedToFloat, true),
    ] {
        let options = VertexShaderOptions {
            float_mode: FloatMode::LegacyStrict,
            input_fetches: Some(vec![InputFetch {
                register: 0,
                source: FetchSource::Attribute {
                    location: 0,
                    format,
                    conversion,
                },
            }]),
            ..Default::default()
        };
        let wgsl = wgsl_of(
            &checked(&asm("vs_2_0\ndcl_position v0\nmul oPos, v0, c0\n")),
            &options,
        );
        assert_eq!(!wgsl.contains(" | "), finite, "{format:?}\n{wgsl}");
    }
}

/// A matrix read through `a0` reads as many registers as the matrix has rows (m4x4 and
/// m3x4 four, m4x3 and m3x3 three, m3x2 two): the interface lists each range.
#[test]
fn relative_matrix_reads_name_every_row() {
    let p = asm(
        "vs_2_0\ndcl_position v0\nmova a0.x, v0.x\nm4x4 r0, v0, c[a0.x + 10]\n\
         m4x3 r1.xyz, v0, c[a0.x + 20]\nm3x4 r2, v0, c[a0.x + 30]\n\
         m3x3 r3.xyz, v0, c[a0.x + 40]\nm3x2 r4.xy, v0, c[a0.x + 50]\nadd r0, r0, r1\n\
         add r0, r0, r2\nadd r0, r0, r3\nadd oPos, r0, r4\n",
    );
    let t =
        translate_vertex_shader(&checked(&p), &VertexShaderOptions::default()).expect("translates");
    // Each row's own read is listed too, as one register.
    let matrices: Vec<_> = t
        .interface
        .relative_constant_reads
        .iter()
        .copied()
        .filter(|&(_, count)| count > 1)
        .collect();
    assert_eq!(matrices, vec![(10, 4), (20, 3), (30, 4), (40, 3), (50, 2)]);
}

// A program without subroutines may end with `ret` too: the body stops before it, and the
// outputs are written after the body.
snap!(
    vs_2_0_inline_main_ends_with_ret,
    asm("vs_2_0\ndcl_position v0\nmov oPos, v0\nret\n")
);

// texm3x3 writes the product (u, v, w, 1) itself; texm3x3tex samples at it (a cube here).
psnap!(
    ps_1_2_texm3x3,
    asm("ps_1_2\ntex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3 t3, t0\nmov r0, t3\n")
);
psnap!(
    ps_1_1_texm3x3tex,
    asm("ps_1_1\ntex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3tex t3, t0\nmov r0, t3\n"),
    PixelShaderOptions {
        texture_types: vec![
            TextureType::TwoD,
            TextureType::TwoD,
            TextureType::TwoD,
            TextureType::Cube
        ],
        ..Default::default()
    }
);
