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
    translate_pixel_shader, translate_vertex_shader, Feature, LiftError, PixelShaderOptions,
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
fn ps_1_x_is_unsupported_until_its_lowering_lands() {
    for text in [
        "ps_1_1\n mov r0, v0\n",
        "ps_1_4\n texld r0, t0\n mov r0, r0\n",
    ] {
        let e = translate_pixel_shader(&checked(text), &PixelShaderOptions::default())
            .expect_err("ps_1_x");
        assert!(
            matches!(
                e,
                LiftError::Unsupported {
                    feature: Feature::PixelShader1,
                    ..
                }
            ),
            "{e}"
        );
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
