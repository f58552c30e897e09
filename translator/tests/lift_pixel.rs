//! Pixel-shader translation (ps_2_0, ps_2_x, ps_3_0): the interface it reports, the rules of
//! its entry point, and typed refusals. Every module is re-parsed from its WGSL and validated.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use d3d9_translator::asm::assemble;
use d3d9_translator::bytecode::{Stage, Usage};
use d3d9_translator::check::{check, CheckedProgram, DeviceCaps};
use d3d9_translator::lift::interface::{
    Varying, VaryingInterpolation, PS_CONSTANTS_GROUP, PS_TEXTURES_GROUP,
};
use d3d9_translator::lift::{
    translate_pixel_shader, translate_vertex_shader, LiftError, PixelShaderOptions,
    TranslatedShader, VertexShaderOptions,
};
use d3d9_translator::signature::Semantic;

fn checked(text: &str) -> CheckedProgram {
    let program = assemble(text).unwrap_or_else(|e| panic!("{e}"));
    check(&program, Stage::Pixel, &DeviceCaps::default()).unwrap_or_else(|e| panic!("check: {e}"))
}

fn reparse(wgsl: &str) -> naga::Module {
    let module =
        naga::front::wgsl::parse_str(wgsl).unwrap_or_else(|e| panic!("{}", e.emit_to_string(wgsl)));
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::default(),
    )
    .validate(&module)
    .unwrap_or_else(|e| panic!("{}", e.emit_to_string(wgsl)));
    module
}

fn translate_with(text: &str, options: &PixelShaderOptions) -> (TranslatedShader, String) {
    let t = translate_pixel_shader(&checked(text), options).unwrap_or_else(|e| panic!("{e}"));
    let wgsl = t.wgsl().expect("wgsl");
    reparse(&wgsl);
    (t, wgsl)
}

fn translate(text: &str) -> (TranslatedShader, String) {
    translate_with(text, &PixelShaderOptions::default())
}

#[test]
fn ps_2_0_reads_colour_and_texcoord_inputs_and_writes_oc0() {
    let (t, wgsl) = translate(
        "ps_2_0\n dcl t0.xy\n dcl v0\n dcl_2d s0\n texld r0, t0, s0\n mul r0, r0, v0\n mov oC0, r0\n",
    );
    let i = &t.interface;
    assert_eq!(i.color_outputs, vec![0]);
    assert!(!i.writes_depth && !i.reads_position && !i.reads_face);
    assert_eq!(i.samplers.len(), 1);
    assert_eq!(i.samplers[0].group, PS_TEXTURES_GROUP);
    assert_eq!(
        (i.samplers[0].texture_binding, i.samplers[0].sampler_binding),
        (0, 1)
    );
    // Inputs in register order: v0 (COLOR0), then t0 (TEXCOORD0); locations in signature order.
    let sems: Vec<Semantic> = i.pixel_inputs.iter().map(|p| p.semantic).collect();
    assert_eq!(
        sems,
        vec![
            Semantic::new(Usage::Color, 0),
            Semantic::new(Usage::TexCoord, 0)
        ]
    );
    let locations: Vec<u32> = i
        .pixel_inputs
        .iter()
        .map(|p| p.varying.expect("located").location)
        .collect();
    assert_eq!(locations, vec![1, 0]);
    assert!(
        wgsl.contains("textureSample(s0_texture, s0_sampler"),
        "{wgsl}"
    );
    assert!(wgsl.contains("@fragment"), "{wgsl}");
}

#[test]
fn constants_live_in_the_pixel_group() {
    let (t, wgsl) = translate("ps_2_0\n mov oC0, c3\n");
    let c = t.interface.float_constants.expect("c#");
    assert_eq!(
        (c.group, c.binding, c.registers, c.storage),
        (PS_CONSTANTS_GROUP, 0, 32, false)
    );
    assert!(wgsl.contains("array<vec4<f32>, 33>"), "{wgsl}");
    let (t, _) = translate("ps_3_0\n mov oC0, c200\n");
    assert_eq!(t.interface.float_constants.expect("c#").registers, 224);
}

#[test]
fn the_wrong_stage_is_a_typed_error() {
    let ps = checked("ps_2_0\n mov oC0, c0\n");
    let e = translate_vertex_shader(&ps, &VertexShaderOptions::default()).expect_err("pixel");
    assert!(
        matches!(
            e,
            LiftError::WrongStage {
                expected: Stage::Vertex,
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(e.to_string(), "ps_2_0 is not a vertex shader");
    let vs = assemble("vs_2_0\n dcl_position v0\n mov oPos, v0\n").expect("asm");
    let vs = check(&vs, Stage::Vertex, &DeviceCaps::default()).expect("check");
    let e = translate_pixel_shader(&vs, &PixelShaderOptions::default()).expect_err("vertex");
    assert!(
        matches!(
            e,
            LiftError::WrongStage {
                expected: Stage::Pixel,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn ps_1_x_translates_with_r0_as_the_colour() {
    for text in [
        "ps_1_1\n mov r0, v0\n",
        "ps_1_4\n texld r0, t0\n mov r0, r0\n",
    ] {
        let t = translate_pixel_shader(&checked(text), &PixelShaderOptions::default())
            .expect("ps_1_x translates");
        assert_eq!(t.interface.color_outputs, vec![0]);
    }
}

#[test]
fn linked_inputs_read_their_components_and_defaults() {
    // TEXCOORD0 arrives as 2 components at location 3 component 1 (packed behind FOG at
    // component 0); v0.xyz asks for three, so .z reads TEXCOORD's default 0. COLOR1 is not
    // supplied: it reads (0, 0, 0, 1).
    let map = vec![
        Varying {
            component: 1,
            ..Varying::new(Semantic::new(Usage::TexCoord, 0), 3, 2)
        },
        Varying::new(Semantic::new(Usage::Fog, 0), 3, 1),
    ];
    let options = PixelShaderOptions {
        input_locations: Some(map),
        ..PixelShaderOptions::default()
    };
    let (t, wgsl) = translate_with(
        "ps_3_0\n dcl_texcoord0 v0.xyz\n dcl_color1 v1\n mov r0, v1\n add oC0, v0, r0\n",
        &options,
    );
    let i = &t.interface;
    assert_eq!(i.pixel_inputs.len(), 2);
    assert_eq!(i.pixel_inputs[1].varying, None);
    assert!(
        wgsl.contains("@location(3) location3_: vec3<f32>"),
        "{wgsl}"
    );
    assert!(
        wgsl.contains("location3_.y, location3_.z, 0f, 0f"),
        "{wgsl}"
    );
    assert!(wgsl.contains("vec4<f32>(0f, 0f, 0f, 1f)"), "{wgsl}");
    assert_eq!(wgsl.matches("@location(").count(), 2, "{wgsl}");
    let _ = VaryingInterpolation::Flat;
}

#[test]
fn derivatives_in_varying_flow_control_turn_the_uniformity_diagnostic_off() {
    use d3d9_translator::lift::NONUNIFORM_DERIVATIVES_DIRECTIVE as D;
    let cases = [
        // Sampling under a branch on a per-pixel value.
        ("ps_2_x\n dcl t0\n dcl_2d s0\n if_gt t0.x, c0.x\n texld r0, t0, s0\n endif\n mov oC0, r0\n", true),
        // dsx after a predicated branch.
        ("ps_3_0\n dcl_texcoord0 v0\n setp_gt p0, v0, c0\n if p0.x\n dsx r0, v0\n endif\n mov oC0, r0\n", true),
        // breakc in a loop: iterations differ per pixel.
        ("ps_3_0\n defi i0, 4, 0, 1, 0\n dcl_texcoord0 v0\n dcl_2d s0\n loop aL, i0\n break_gt v0.x, c0.x\n texld r0, v0, s0\n endloop\n mov oC0, r0\n", true),
        // Branches on b# and loops on i# are uniform.
        ("ps_3_0\n defi i0, 4, 0, 1, 0\n dcl_texcoord0 v0\n dcl_2d s0\n if b0\n loop aL, i0\n texld r0, v0, s0\n endloop\n endif\n mov oC0, r0\n", false),
        // texkill (WGSL's demoting discard) leaves later sampling uniform.
        ("ps_2_0\n dcl t0\n dcl_2d s0\n texkill t0\n texld r0, t0, s0\n mov oC0, r0\n", false),
        // Varying branches without derivatives need nothing.
        ("ps_2_x\n dcl t0\n if_gt t0.x, c0.x\n mov r0, c1\n endif\n mov oC0, r0\n", false),
    ];
    for (text, off) in cases {
        let (_, wgsl) = translate(text);
        assert_eq!(wgsl.starts_with(D), off, "{text}\n{wgsl}");
        assert_eq!(wgsl.matches(D).count(), usize::from(off), "{wgsl}");
    }
}

#[test]
fn texkill_tests_all_four_components_from_ps_2_0() {
    let (_, wgsl) = translate("ps_2_0\n dcl t0\n texkill t0\n mov oC0, t0\n");
    assert!(
        wgsl.contains("if any((location0_ < vec4(0f))) {\n        discard;"),
        "{wgsl}"
    );
}

#[test]
fn vpos_is_the_pixel_centre_minus_a_half_and_vface_is_plus_or_minus_one() {
    let (t, wgsl) = translate(
        "ps_3_0\n dcl vPos.xy\n dcl vFace\n mov r0.xy, vPos\n mov r0.zw, vFace\n mov oC0, r0\n",
    );
    assert!(t.interface.reads_position && t.interface.reads_face);
    assert!(
        wgsl.contains("@builtin(position) frag_coord: vec4<f32>"),
        "{wgsl}"
    );
    assert!(
        wgsl.contains("(frag_coord.x - 0.5f), (frag_coord.y - 0.5f), frag_coord.z, frag_coord.w"),
        "{wgsl}"
    );
    assert!(
        wgsl.contains("@builtin(front_facing) front_facing: bool"),
        "{wgsl}"
    );
    assert!(wgsl.contains("select(-1f, 1f, front_facing)"), "{wgsl}");
}

#[test]
fn colour_outputs_oc0_always_and_depth_when_written() {
    // Only oC2 and oDepth written: oC0 still travels (0), oC2 at location 2.
    let (t, wgsl) = translate("ps_3_0\n dcl_texcoord0 v0\n mov oC2, v0\n mov oDepth, v0.z\n");
    assert_eq!(t.interface.color_outputs, vec![0, 2]);
    assert!(t.interface.writes_depth);
    assert!(wgsl.contains("@location(0) oC0_: vec4<f32>"), "{wgsl}");
    assert!(wgsl.contains("@location(2) oC2_: vec4<f32>"), "{wgsl}");
    assert!(wgsl.contains("@builtin(frag_depth) oDepth: f32"), "{wgsl}");
    let (t, _) = translate("ps_2_0\n mov oC0, c0\n");
    assert!(!t.interface.writes_depth);
}

#[test]
fn centroid_and_linked_interpolation() {
    let (t, wgsl) = translate(
        "ps_3_0\n dcl_texcoord0_centroid v0\n dcl_color0 v1\n add oC0, v0, c0\n mov oC1, v1\n",
    );
    assert!(t.interface.pixel_inputs[0].centroid);
    assert_eq!(
        t.interface.pixel_inputs[0].varying.map(|v| v.interpolation),
        Some(VaryingInterpolation::Centroid)
    );
    assert!(
        wgsl.contains("@location(0) @interpolate(perspective, centroid)"),
        "{wgsl}"
    );
    // The link decides: COLOR0 flat, TEXCOORD0 as the link says.
    let map = vec![
        Varying {
            interpolation: VaryingInterpolation::Flat,
            ..Varying::new(Semantic::new(Usage::Color, 0), 5, 4)
        },
        Varying {
            interpolation: VaryingInterpolation::Centroid,
            ..Varying::new(Semantic::new(Usage::TexCoord, 0), 2, 4)
        },
    ];
    let options = PixelShaderOptions {
        input_locations: Some(map),
        ..Default::default()
    };
    let (_, wgsl) = translate_with(
        "ps_3_0\n dcl_texcoord0_centroid v0\n dcl_color0 v1\n add oC0, v0, c0\n mov oC1, v1\n",
        &options,
    );
    assert!(
        wgsl.contains("@location(5) @interpolate(flat) location5_: vec4<f32>"),
        "{wgsl}"
    );
    assert!(
        wgsl.contains("@location(2) @interpolate(perspective, centroid) location2_"),
        "{wgsl}"
    );
}

#[test]
fn bad_link_maps_are_option_errors() {
    for (component, components) in [(3u8, 2u8), (0, 0), (0, 5)] {
        let options = PixelShaderOptions {
            input_locations: Some(vec![Varying {
                component,
                ..Varying::new(Semantic::new(Usage::TexCoord, 0), 0, components)
            }]),
            ..Default::default()
        };
        let e = translate_pixel_shader(
            &checked("ps_3_0\n dcl_texcoord0 v0\n mov oC0, v0\n"),
            &options,
        )
        .expect_err("bad map");
        assert!(matches!(e, LiftError::Options(_)), "{e}");
    }
    // Two interpolations at one location.
    let options = PixelShaderOptions {
        input_locations: Some(vec![
            Varying::new(Semantic::new(Usage::TexCoord, 0), 0, 2),
            Varying {
                component: 2,
                interpolation: VaryingInterpolation::Flat,
                ..Varying::new(Semantic::new(Usage::TexCoord, 1), 0, 2)
            },
        ]),
        ..Default::default()
    };
    let e = translate_pixel_shader(
        &checked("ps_3_0\n dcl_texcoord0 v0\n mov oC0, v0\n"),
        &options,
    )
    .expect_err("mixed interpolation");
    assert!(matches!(e, LiftError::Options(_)), "{e}");
    // 20 semantics (two per register), each at its own location: more than WebGPU's 16.
    let mut text = String::from("ps_3_0\n");
    let mut map = Vec::new();
    for n in 0..10u8 {
        text.push_str(&format!(" dcl_texcoord{n} v{n}.x\n dcl_color{n} v{n}.y\n"));
        map.push(Varying::new(
            Semantic::new(Usage::TexCoord, n),
            u32::from(n),
            1,
        ));
        map.push(Varying::new(
            Semantic::new(Usage::Color, n),
            10 + u32::from(n),
            1,
        ));
    }
    text.push_str(" mov oC0, v9\n");
    let options = PixelShaderOptions {
        input_locations: Some(map),
        ..Default::default()
    };
    let e = translate_pixel_shader(&checked(&text), &options).expect_err("20 locations");
    assert!(
        matches!(
            e,
            LiftError::TooManyOutputs {
                count: 20,
                limit: 16
            }
        ),
        "{e}"
    );
}

#[test]
fn constant_operations_that_overflow_still_give_valid_wgsl() {
    use d3d9_translator::lift::FloatMode;
    // WGSL refuses literal-only expressions whose value is not finite (1f / 0f, exp2(200f),
    // log2(0f), 3e38f * 10f); D3D9 computes them. Every float mode, both stages.
    let bodies = [
        "rcp r0, c0.x",
        "rsq r0, c0.x",
        "log r0, c0.x",
        "exp r0, c1.x",
        "mul r0, c2, c2",
        "add r0, c2, c2",
        "dp3 r0, c2, c2",
        "mad r0, c2, c2, -c2",
        "pow r0, c0.x, c0.y",
        // A negated or swizzled `def` (folded to a literal before the instruction).
        "rcp r0, -c0.x",
        "mul r0, c2.xxyy, c2.yyxx",
    ];
    // A zero chosen by a comparison of constants: `cmp` in pixel shaders, `slt`/`sge` in
    // vertex shaders.
    let pixel_only = ["cmp r1, c0.y, c2, c0\n rcp r0, r1.x"];
    let vertex_only = [
        "slt r1, c0, c0\n rcp r0, r1.x",
        "sge r1, c0.y, c0.x\n rcp r0, r1.x",
        "slt r1, c0.x, c0.y\n rsq r0, r1.x",
    ];
    let defs = "def c0, 0, -1, 0, 0\n def c1, 200, 0, 0, 0\n def c2, 3e38, 3e38, 3e38, 1\n";
    for mode in [FloatMode::Legacy, FloatMode::LegacyStrict, FloatMode::Ieee] {
        for body in bodies.iter().chain(&pixel_only) {
            let options = PixelShaderOptions {
                float_mode: mode,
                ..Default::default()
            };
            translate_with(&format!("ps_2_0\n {defs} {body}\n mov oC0, r0\n"), &options);
        }
        for body in bodies.iter().chain(&vertex_only) {
            let vs = assemble(&format!(
                "vs_2_0\n {defs} dcl_position v0\n {body}\n mov oPos, v0\n mov oD0, r0\n"
            ))
            .expect("asm");
            let vs = check(&vs, Stage::Vertex, &DeviceCaps::default()).expect("check");
            let options = VertexShaderOptions {
                float_mode: mode,
                ..Default::default()
            };
            let t = translate_vertex_shader(&vs, &options).expect("translates");
            reparse(&t.wgsl().expect("wgsl"));
        }
    }
}

/// Every ps_1_x instruction group translates into a module that re-parses and validates.
#[test]
fn every_ps_1_x_instruction_translates() {
    for text in [
        "ps_1_1\ntex t0\ntexbem t1, t0\ntexbeml t2, t0\nmov r0, t1\n",
        "ps_1_1\ntex t0\ntexreg2ar t1, t0\ntexreg2gb t2, t0\nmul r0, t1, t2\n",
        "ps_1_2\ntex t0\ntexreg2rgb t1, t0\nmov r0, t1\n",
        "ps_1_1\ntex t0\ntexm3x2pad t1, t0\ntexm3x2tex t2, t0\nmov r0, t2\n",
        "ps_1_3\ntex t0\ntexm3x2pad t1, t0\ntexm3x2depth t2, t0\nmov r0, t0\n",
        "ps_1_1\ntex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3tex t3, t0\nmov r0, t3\n",
        "ps_1_1\ntex t0\ntexm3x3pad t1, t0_bx2\ntexm3x3pad t2, t0_bx2\ntexm3x3vspec t3, t0_bx2\nmov r0, t3\n",
        "ps_1_2\ntex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3 t3, t0\nmov r0, t3\n",
        "ps_1_2\ntex t0\ntexdp3 t1, t0\ntexdp3tex t2, t0\nadd r0, t1, t2\n",
        "ps_1_1\ntexcoord t0\ntexkill t1\nmov r0, t0\n",
        "ps_1_4\ntexcrd r0.rgb, t0_dz.xyz\ntexld r1, t1_dw.xyw\nphase\ntexdepth r5\nmov r0.a, r1.a\n",
        "ps_1_4\ntexld r0, t0\nbem r1.rg, c0, r0\nphase\ntexld r1, r1\nmov r0, r1\n",
        "ps_1_3\ntex t0\nmad_x4 r0.rgb, t0_bx2, v0_bias, -c0\n+sub_d2_sat r0.a, 1-t0, v1\n",
    ] {
        let (t, _) = translate_with(text, &PixelShaderOptions::default());
        assert_eq!(t.interface.color_outputs, vec![0], "{text}");
    }
}

#[test]
fn ps_1_x_interface_names_the_bump_uniform_samplers_and_depth() {
    use d3d9_translator::bytecode::TextureType;
    use d3d9_translator::lift::interface::BUMP_ENV_BINDING;
    let options = PixelShaderOptions {
        texture_types: vec![TextureType::TwoD, TextureType::Cube],
        ..Default::default()
    };
    let (t, wgsl) = translate_with("ps_1_1\ntex t0\ntexbem t1, t0\nmov r0, t1\n", &options);
    let bump = t.interface.bump_env.expect("texbem reads the bump uniform");
    assert_eq!(
        (bump.group, bump.binding),
        (PS_CONSTANTS_GROUP, BUMP_ENV_BINDING)
    );
    let types: Vec<_> = t
        .interface
        .samplers
        .iter()
        .map(|s| (s.register, s.texture_type, s.group))
        .collect();
    assert_eq!(
        types,
        vec![
            (0, TextureType::TwoD, PS_TEXTURES_GROUP),
            (1, TextureType::Cube, PS_TEXTURES_GROUP)
        ]
    );
    assert!(wgsl.contains("texture_cube<f32>"), "{wgsl}");
    assert!(!t.interface.writes_depth);
    // texdepth and texm3x2depth write depth; no bump uniform without bump instructions.
    for text in [
        "ps_1_4\ntexcrd r5.rgb, t0\nphase\ntexdepth r5\nmov r0, r5\n",
        "ps_1_3\ntex t0\ntexm3x2pad t1, t0\ntexm3x2depth t2, t0\nmov r0, t0\n",
    ] {
        let (t, wgsl) = translate_with(text, &PixelShaderOptions::default());
        assert!(t.interface.writes_depth, "{text}");
        assert!(wgsl.contains("@builtin(frag_depth)"), "{wgsl}");
        assert_eq!(t.interface.bump_env, None);
    }
}

/// Fixed-function fog follows ps_1_x shaders as it follows ps_2_x ones (the fog stage takes
/// `r0`, the ps_1_x colour): vertex fog reads the FOG varying, table fog the depth, and the
/// interface names the fog uniform.
#[test]
fn ps_1_x_fixed_function_fog_translates() {
    use d3d9_translator::lift::{FogMode, FogOptions, FogSource};
    for source in [FogSource::Vertex, FogSource::Table(FogMode::Linear)] {
        let options = PixelShaderOptions {
            fog: Some(FogOptions {
                source,
                from_w: false,
            }),
            ..Default::default()
        };
        let (t, wgsl) = translate_with("ps_1_1\nmov r0, v0\n", &options);
        assert!(t.interface.fog.is_some(), "{source:?}\n{wgsl}");
    }
}

#[test]
fn the_ps_1_x_clamps_stay_out_of_vs_1_1() {
    // vs_1_1 shares major version 1 with ps_1_x: its constants and results are not clamped.
    let program = assemble(
        "vs_1_1\ndcl_position v0\ndef c1, 3, -3, 2, 1\nmov r1, c0\nadd r0, r1, c1\nmov oPos, r0\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let checked = check(&program, Stage::Vertex, &DeviceCaps::default())
        .unwrap_or_else(|e| panic!("check: {e}"));
    let t = translate_vertex_shader(&checked, &VertexShaderOptions::default()).expect("vs_1_1");
    let wgsl = t.wgsl().expect("wgsl");
    assert!(!wgsl.contains("clamp("), "{wgsl}");
    assert!(wgsl.contains("3f"), "{wgsl}");
}

/// ps_1_1–1_3 co-issued `cnd`: on the colour half it writes src1 whatever the condition, so
/// src2 (`c7`) is never read; on the alpha half alone it selects by `r0.a > 0.5` as usual
/// (Wine's `shader_glsl_cnd` tests the `.a` mask; its `cnd_test` third pass).
#[test]
fn ps_1_x_coissued_cnd_ignores_the_condition_only_on_the_colour_half() {
    for version in ["ps_1_1", "ps_1_2", "ps_1_3"] {
        let (_, alpha) = translate(&format!(
            "{version}\nmov r0, v0\nmov r0.rgb, c0\n+cnd r0.a, r0.a, c1, c7\n"
        ));
        assert!(
            alpha.contains("c[7]"),
            "{version} alpha half reads src2:\n{alpha}"
        );
        assert!(
            alpha.contains("> 0.5f"),
            "{version} alpha half tests:\n{alpha}"
        );
        let (_, colour) = translate(&format!(
            "{version}\nmov r0, v0\nmov r0.a, c0\n+cnd r0.rgb, r0.a, c1, c7\n"
        ));
        assert!(
            !colour.contains("c[7]"),
            "{version} colour half is src1:\n{colour}"
        );
        assert!(
            !colour.contains("> 0.5f"),
            "{version} colour half:\n{colour}"
        );
    }
}

/// The alpha test, for every pixel shader version: the reference uniform is in the interface
/// exactly when the function compares (not `Never`, not `Always`, not off); `Never` discards
/// without reading it; `Always` and off add no code.
#[test]
fn alpha_test_names_its_reference_uniform_only_when_it_compares() {
    use d3d9_translator::lift::interface::ALPHA_TEST_BINDING;
    use d3d9_translator::lift::CompareFunction;
    let shaders = [
        "ps_1_1\nmov r0, v0\n",
        "ps_1_4\nmov r0, v0\n",
        "ps_2_0\ndcl v0\nmov oC0, v0\n",
        "ps_2_x\ndcl v0\nmov oC0, v0\n",
        "ps_3_0\ndcl_color0 v0\nmov oC0, v0\n",
    ];
    let functions = std::iter::once(None).chain((1..=8).map(CompareFunction::from_d3d));
    let mut checked = 0;
    for text in shaders {
        for func in functions.clone() {
            let options = PixelShaderOptions {
                alpha_test: func,
                ..PixelShaderOptions::default()
            };
            let (t, wgsl) = translate_with(text, &options);
            let compares = !matches!(
                func,
                None | Some(CompareFunction::Never | CompareFunction::Always)
            );
            let expected = compares.then_some(d3d9_translator::lift::interface::UniformBinding {
                group: PS_CONSTANTS_GROUP,
                binding: ALPHA_TEST_BINDING,
            });
            assert_eq!(t.interface.alpha_ref, expected, "{func:?}\n{text}\n{wgsl}");
            let discards = !matches!(func, None | Some(CompareFunction::Always));
            assert_eq!(wgsl.contains("discard"), discards, "{func:?}\n{wgsl}");
            assert_eq!(
                wgsl.contains(&format!("@binding({ALPHA_TEST_BINDING})")),
                compares,
                "{func:?}\n{wgsl}"
            );
            if compares {
                // The quantised alpha: round(saturate(a) * 255).
                assert!(wgsl.contains("round("), "{wgsl}");
                assert!(wgsl.contains("saturate("), "{wgsl}");
                assert!(wgsl.contains("255f"), "{wgsl}");
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 5 * 9);
}

/// The alpha reference shares the pixel constants group with `c#`, `i#`, `b#` and the fog
/// uniform without sharing a binding, and the test follows fog.
#[test]
fn alpha_test_binding_is_distinct_from_the_other_pixel_uniforms() {
    use d3d9_translator::lift::{CompareFunction, FogMode, FogOptions, FogSource};
    let options = PixelShaderOptions {
        fog: Some(FogOptions {
            from_w: false,
            source: FogSource::Table(FogMode::Linear),
        }),
        alpha_test: Some(CompareFunction::GreaterEqual),
        ..PixelShaderOptions::default()
    };
    let (t, wgsl) = translate_with(
        "ps_2_x\ndefi i0, 2, 0, 0, 0\ndcl v0\nmov r0, v0\nrep i0\nadd r0, r0, c0\nendrep\n\
         if b0\nmov r0, c1\nendif\nmov oC0, r0\n",
        &options,
    );
    let i = &t.interface;
    let bindings = [
        i.float_constants.map(|b| (b.group, b.binding)),
        i.bool_constants.map(|b| (b.group, b.binding)),
        i.fog.map(|b| (b.group, b.binding)),
        i.alpha_ref.map(|b| (b.group, b.binding)),
    ];
    let bindings: Vec<(u32, u32)> = bindings.into_iter().map(|b| b.expect("used")).collect();
    let mut distinct = bindings.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), bindings.len(), "{bindings:?}");
    assert!(bindings.iter().all(|&(g, _)| g == PS_CONSTANTS_GROUP));
    // The discard comes after the fog's mix.
    let mix = wgsl.find("mix(").expect("fog");
    let discard = wgsl.find("discard").expect("alpha test");
    assert!(mix < discard, "{wgsl}");
}
/// ps_1_4's `_x2` source modifier doubles the value; `-…_x2` doubles it, then negates.
#[test]
fn ps_1_4_x2_doubles_and_its_negation_negates_the_double() {
    // The line that writes r0 (the value, then ps_1_4's clamp to ±8).
    let r0 = |text: &str| {
        let (_, wgsl) = translate(text);
        let line = wgsl
            .lines()
            .find(|l| l.contains("r0_ = "))
            .map(str::to_string);
        line.unwrap_or_else(|| panic!("no write of r0: {wgsl}"))
    };
    let plain = r0("ps_1_4\nmov r0, v0_x2\n");
    let negated = r0("ps_1_4\nmov r0, -v0_x2\n");
    assert!(plain.contains(" + ") && !plain.contains("-("), "{plain}");
    assert!(
        negated.contains("clamp(-((") && negated.contains(" + "),
        "{negated}"
    );
}
