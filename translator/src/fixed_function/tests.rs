//! The generated program for a few descriptions checks, lifts as a pair and round-trips
//! through the bytecode; the interpreter's result for a lit, fogged vertex is the SDK's
//! lighting and fog equations computed here.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use super::registers as reg;
use super::*;
use crate::bytecode::{decode, encode};
use crate::decl::{DeclMethod, DeclType};
use crate::interp::{process_vertices, Constants, Stream};
use crate::lift::{translate_pair, PairOptions, PairPixelStage, PairVertexStage, Varying};
use crate::rules::FloatMode;

fn element(offset: u16, ty: DeclType, usage: Usage, index: u8) -> VertexElement {
    VertexElement {
        stream: 0,
        offset,
        ty,
        method: DeclMethod::Default,
        usage,
        usage_index: index,
    }
}

fn declaration(elements: &[VertexElement]) -> VertexDeclaration {
    VertexDeclaration::from_elements(elements).expect("a declaration")
}

fn unlit() -> VertexState {
    VertexState {
        viewport: None,
        lighting: None,
        blend: VertexBlend::None,
        normalize: false,
        texcoords: std::array::from_fn(|n| (n as u32, 0)),
        fog: None,
    }
}

fn lighting(lights: Vec<LightType>, local_viewer: bool) -> Lighting {
    Lighting {
        lights,
        local_viewer,
        specular: true,
        sources: [MaterialSource::Material; 4],
    }
}

/// Descriptions covering each part of the generator.
fn descriptions() -> Vec<VertexDescription> {
    use DeclType::*;
    let full = declaration(&[
        element(0, Float3, Usage::Position, 0),
        element(12, Float3, Usage::Normal, 0),
        element(24, D3DColor, Usage::Color, 0),
        element(28, Float2, Usage::TexCoord, 0),
        element(36, Float4, Usage::BlendWeight, 0),
        element(52, UByte4, Usage::BlendIndices, 0),
        element(56, Float3, Usage::Position, 1),
        element(68, Float3, Usage::Normal, 1),
    ]);
    let screen = declaration(&[
        element(0, Float4, Usage::PositionT, 0),
        element(16, D3DColor, Usage::Color, 1),
        element(20, Float2, Usage::TexCoord, 0),
    ]);
    let outputs = |texcoords| VertexOutputs {
        texcoords,
        ..VertexOutputs::default()
    };
    let fog = |mode, range| Some(VertexFog { mode, range });
    let lights = vec![LightType::Directional, LightType::Point, LightType::Spot];
    let states = [
        (&full, unlit(), outputs(1)),
        (
            &full,
            VertexState {
                lighting: Some(lighting(lights.clone(), true)),
                normalize: true,
                fog: fog(Some(FogMode::Exp2), true),
                ..unlit()
            },
            outputs(0b11),
        ),
        (
            &full,
            VertexState {
                blend: VertexBlend::Weights {
                    weights: 3,
                    indexed: true,
                },
                lighting: Some(lighting(lights, false)),
                ..unlit()
            },
            outputs(1),
        ),
        (
            &full,
            VertexState {
                blend: VertexBlend::Tween,
                texcoords: [(4 << 16, 256 | 3); 8],
                fog: fog(Some(FogMode::Linear), false),
                ..unlit()
            },
            VertexOutputs {
                texcoords: 0x0f,
                eye: true,
                passthrough: vec![(Usage::BlendWeight, 0)],
            },
        ),
        (
            &screen,
            VertexState {
                viewport: Some([0, 0, 640, 480]),
                fog: fog(None, false),
                ..unlit()
            },
            outputs(1),
        ),
    ];
    states
        .into_iter()
        .map(|(decl, state, outputs)| {
            VertexDescription::new(decl, state, outputs).expect("a description")
        })
        .collect()
}

#[test]
fn generated_programs_check_round_trip_and_lift_as_pairs() {
    for description in descriptions() {
        let built = description.build().expect("builds");
        let decoded = decode(&encode(&built)).expect("decodes");
        assert_eq!(decoded, built, "{:?}", description.state);
        let caps = DeviceCaps::default();
        let generated = description.program(&caps).expect("checks");
        assert_eq!(
            generated.program.caps().vertex_processing,
            match description.software_constants() {
                true => crate::bytecode::VertexProcessing::Software,
                false => caps.vertex_processing,
            }
        );
        let map = vec![
            Varying::new(Semantic::new(Usage::Color, 0), 0, 4),
            Varying::new(Semantic::new(Usage::Color, 1), 1, 4),
        ];
        let stage = PairVertexStage::FixedFunction {
            description: &description,
            caps: &caps,
        };
        let pair = translate_pair(stage, PairPixelStage::Varyings(map), PairOptions::default())
            .unwrap_or_else(|e| panic!("{e}: {:?}", description.state));
        assert_eq!(pair.fixed_function.as_ref(), Some(&generated.program));
        let writes_fog = crate::signature::Signature::of(generated.program.program())
            .output(Semantic::new(Usage::Fog, 0))
            .is_some();
        assert_eq!(description.writes_fog(), writes_fog);
    }
}

#[test]
fn a_pixel_shader_links_with_the_generated_stage() {
    let ps = crate::asm::assemble(
        "ps_3_0\ndcl_texcoord0 v0\ndcl_blendweight0 v1\ndcl_color0 v2\n\
         mov r0, v0\nadd r0, r0, v1\nmul oC0, r0, v2\n",
    )
    .expect("assembles");
    let ps = check(&ps, Stage::Pixel, &DeviceCaps::default()).expect("checks");
    let description = descriptions().swap_remove(3);
    let caps = DeviceCaps::default();
    let pair = translate_pair(
        PairVertexStage::FixedFunction {
            description: &description,
            caps: &caps,
        },
        PairPixelStage::Shader {
            program: &ps,
            options: Default::default(),
        },
        PairOptions::default(),
    )
    .expect("pairs");
    crate::lift::link::check_stage_agreement(
        &pair.vertex.module,
        &pair.pixel.expect("a pixel stage").module,
    )
    .expect("the stages agree");
}

#[test]
fn unknown_generation_modes_and_missing_positions_are_refused() {
    let decl = declaration(&[element(0, DeclType::Float3, Usage::Normal, 0)]);
    let d = VertexDescription::new(&decl, unlit(), VertexOutputs::default()).expect("ok");
    assert!(matches!(d.build(), Err(FixedFunctionError::Unsupported(_))));
    let decl = declaration(&[element(0, DeclType::Float3, Usage::Position, 0)]);
    let state = VertexState {
        texcoords: [(9 << 16, 0); 8],
        ..unlit()
    };
    let outputs = VertexOutputs {
        texcoords: 1,
        ..VertexOutputs::default()
    };
    let d = VertexDescription::new(&decl, state, outputs).expect("ok");
    assert!(matches!(d.build(), Err(FixedFunctionError::Unsupported(_))));
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn normalize(v: [f32; 3]) -> [f32; 3] {
    let l = dot(v, v).sqrt();
    v.map(|x| x / l)
}

#[test]
fn a_lit_fogged_vertex_in_the_interpreter_is_the_sdk_equation() {
    use DeclType::Float3;
    let decl = declaration(&[
        element(0, Float3, Usage::Position, 0),
        element(12, Float3, Usage::Normal, 0),
    ]);
    let state = VertexState {
        lighting: Some(lighting(
            vec![LightType::Directional, LightType::Point],
            false,
        )),
        fog: Some(VertexFog {
            mode: Some(FogMode::Linear),
            range: false,
        }),
        ..unlit()
    };
    let description = VertexDescription::new(&decl, state, VertexOutputs::default()).expect("ok");
    let generated = description.program(&DeviceCaps::default()).expect("checks");
    // World, view and projection are the identity: eye space is object space.
    let mut floats = vec![[0.0f32; 4]; reg::HARDWARE_REGISTERS];
    for m in [
        reg::WORLD_VIEW,
        reg::WORLD_VIEW_PROJECTION,
        reg::NORMAL_MATRIX,
    ] {
        for k in 0..4 {
            floats[m + k] = std::array::from_fn(|row| f32::from(u8::from(row == k)));
        }
    }
    let ambient = [0.1, 0.2, 0.1, 1.0];
    let (m_diffuse, m_ambient) = ([0.8, 0.6, 0.4, 0.5], [0.5, 0.5, 1.0, 1.0]);
    let (m_specular, m_emissive, power) = ([1.0, 0.9, 0.8, 1.0], [0.05, 0.0, 0.1, 0.0], 8.0);
    floats[reg::AMBIENT] = ambient;
    floats[reg::MATERIAL_DIFFUSE] = m_diffuse;
    floats[reg::MATERIAL_AMBIENT] = m_ambient;
    floats[reg::MATERIAL_SPECULAR] = m_specular;
    floats[reg::MATERIAL_EMISSIVE] = m_emissive;
    floats[reg::MATERIAL_POWER] = [power, 0.0, 0.0, 0.0];
    let (fog_start, fog_end) = (1.0, 9.0);
    floats[reg::FOG] = [fog_start, fog_end, 1.0 / (fog_end - fog_start), 0.0];
    // Light 0: directional; light 1: point with attenuation (colours, position, direction,
    // (range, att0, att1, att2), spot terms).
    let direction = normalize([0.3, -0.4, 1.0]);
    let lights: [[[f32; 4]; 7]; 2] = [
        [
            [0.7, 0.7, 0.6, 1.0],
            [0.5, 0.5, 0.5, 1.0],
            [0.1, 0.0, 0.2, 0.0],
            [0.0, 0.0, 0.0, 1.0],
            [direction[0], direction[1], direction[2], 0.0],
            [0.0; 4],
            [1.0, 0.0, 0.0, 1.0],
        ],
        [
            [0.2, 0.4, 0.9, 1.0],
            [0.9, 0.3, 0.3, 0.5],
            [0.0, 0.3, 0.0, 0.0],
            [1.0, 2.0, 1.0, 1.0],
            [0.0; 4],
            [100.0, 0.5, 0.25, 0.05],
            [1.0, 0.0, 0.0, 1.0],
        ],
    ];
    for (i, registers) in lights.iter().enumerate() {
        floats[reg::light(i)..reg::light(i) + reg::LIGHT_REGISTERS].copy_from_slice(registers);
    }
    let position = [0.25f32, -0.5, 4.0];
    let normal = normalize([0.2, 0.3, -1.0]);
    let bytes: Vec<u8> = position
        .iter()
        .chain(&normal)
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let streams = [Stream {
        data: &bytes,
        offset: 0,
        stride: 24,
    }];
    let constants = Constants {
        floats,
        ..Constants::default()
    };
    let out = process_vertices(
        &generated.program,
        &generated.declaration,
        &streams,
        &constants,
        0,
        1,
        FloatMode::Legacy,
    )
    .expect("runs");
    let vertex = &out[0];
    // The SDK's equations ("Mathematics of Lighting", "Camera-Relative Specular").
    let mut ambient_sum = [ambient[0], ambient[1], ambient[2]];
    let (mut diffuse_sum, mut specular_sum) = ([0.0f32; 3], [0.0f32; 4]);
    for (i, l) in lights.iter().enumerate() {
        let (to_light, att) = if i == 0 {
            ([-direction[0], -direction[1], -direction[2]], 1.0)
        } else {
            let v: [f32; 3] = std::array::from_fn(|k| l[3][k] - position[k]);
            let d = dot(v, v).sqrt();
            let [range, a0, a1, a2] = l[5];
            let att = if d <= range {
                1.0 / (a0 + a1 * d + a2 * d * d)
            } else {
                0.0
            };
            (normalize(v), att)
        };
        let n_dot_l = dot(normal, to_light).max(0.0);
        let half = normalize([to_light[0], to_light[1], to_light[2] - 1.0]);
        let n_dot_h = dot(normal, half).max(0.0);
        for k in 0..3 {
            ambient_sum[k] += l[2][k] * att;
            diffuse_sum[k] += l[0][k] * att * n_dot_l;
        }
        if n_dot_l > 0.0 && n_dot_h > 0.0 {
            for (k, sum) in specular_sum.iter_mut().enumerate() {
                *sum += l[1][k] * att * n_dot_h.powf(power);
            }
        }
    }
    let colour0: [f32; 4] = std::array::from_fn(|k| match k {
        3 => m_diffuse[3],
        k => m_emissive[k] + m_ambient[k] * ambient_sum[k] + m_diffuse[k] * diffuse_sum[k],
    })
    .map(|x| x.clamp(0.0, 1.0));
    let colour1: [f32; 4] =
        std::array::from_fn(|k| (m_specular[k] * specular_sum[k]).clamp(0.0, 1.0));
    let fog = (fog_end - position[2].abs()) / (fog_end - fog_start);
    let close = |got: Option<[f32; 4]>, want: [f32; 4], what: &str| {
        let got = got.unwrap_or_else(|| panic!("no {what}"));
        for k in 0..4 {
            assert!(
                (got[k] - want[k]).abs() < 1e-4,
                "{what}: {got:?} != {want:?}"
            );
        }
    };
    close(
        vertex.get(Semantic::new(Usage::Color, 0)),
        colour0,
        "COLOR0",
    );
    close(
        vertex.get(Semantic::new(Usage::Color, 1)),
        colour1,
        "COLOR1",
    );
    close(
        vertex.get(Semantic::new(Usage::Position, 0)),
        [position[0], position[1], position[2], 1.0],
        "POSITION",
    );
    let got_fog = vertex.get(Semantic::new(Usage::Fog, 0)).expect("FOG")[0];
    assert!((got_fog - fog).abs() < 1e-5, "FOG {got_fog} != {fog}");
    assert!(
        colour1[0] > 0.0 && colour0[2] < 1.0,
        "a case that shows the terms"
    );
}
