//! Both stages translated with one link's maps agree location by location (type,
//! interpolation, sampling), as WebGPU requires of a pipeline: `check_stage_agreement` on the
//! two translated modules. Covers packed semantics on both sides, centroid and flat, a pixel
//! input no vertex output feeds, an unread vertex output, a pixel mask narrower than the
//! vertex write, and pre-3.0 colours and texture coordinates.

use d3d9_translator::asm::assemble;
use d3d9_translator::bytecode::{Stage, Usage};
use d3d9_translator::check::{check, DeviceCaps};
use d3d9_translator::lift::interface::VaryingInterpolation;
use d3d9_translator::lift::link::{check_stage_agreement, location_shapes};
use d3d9_translator::lift::{
    translate_pair, translate_pixel_shader, FogOptions, FogSource, Link, LinkOptions, PairOptions,
    PairPixelStage, PairVertexStage, PixelShaderOptions, TranslatedShader,
};
use d3d9_translator::signature::Semantic;

fn checked(text: &str, stage: Stage) -> d3d9_translator::check::CheckedProgram {
    let program = assemble(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    check(&program, stage, &DeviceCaps::default()).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Link `vs` and `ps` and translate both with the link's maps, as a draw does
/// (`translate_pair`; `options.vertex_fog` as vertex fog after the pixel shader), and check
/// that they agree; returns the link and the two linked shaders.
fn linked(vs: &str, ps: &str, options: &LinkOptions) -> (Link, TranslatedShader, TranslatedShader) {
    let (vs_checked, ps_checked) = (checked(vs, Stage::Vertex), checked(ps, Stage::Pixel));
    let fog = options.vertex_fog.then_some(FogOptions {
        source: FogSource::Vertex,
        from_w: false,
    });
    let pixel = PairPixelStage::Shader {
        program: &ps_checked,
        options: PixelShaderOptions {
            fog,
            ..PixelShaderOptions::default()
        },
    };
    let pair_options = PairOptions {
        flat_shading: options.flat_shading,
        point_list: options.point_list,
        ..PairOptions::default()
    };
    let pair = translate_pair(PairVertexStage::Shader(&vs_checked), pixel, pair_options)
        .unwrap_or_else(|e| panic!("{e}\n{vs}\n{ps}"));
    let (link, vs_linked) = (pair.link, pair.vertex);
    let ps_linked = pair.pixel.expect("a pixel stage");
    check_stage_agreement(&vs_linked.module, &ps_linked.module)
        .unwrap_or_else(|e| panic!("{e}\n{vs}\n{ps}\n{link:?}"));
    (link, vs_linked, ps_linked)
}

fn sem(usage: Usage, index: u8) -> Semantic {
    Semantic::new(usage, index)
}

/// The `k`th of twenty semantics: TEXCOORD0–15, then NORMAL0–3.
fn semantic(k: u8) -> Semantic {
    match k {
        0..16 => sem(Usage::TexCoord, k),
        _ => sem(Usage::Normal, k - 16),
    }
}

fn dcl(k: u8) -> String {
    let s = semantic(k);
    format!("dcl_{}{}", s.usage.name(), s.index)
}

/// vs_3_0 writing twenty semantics two to a register; ps_3_0 reading them two to a register
/// as well, but paired differently, every seventh `_centroid`.
#[test]
fn twenty_semantics_packed_on_both_sides_agree() {
    let mut vs = String::from("vs_3_0\ndcl_position v0\ndcl_position o0\n");
    for k in 0..20u8 {
        let mask = if k % 2 == 0 { "xy" } else { "zw" };
        vs += &format!("{} o{}.{mask}\n", dcl(k), k / 2 + 1);
    }
    vs += "mov o0, v0\n";
    for r in 1..=10 {
        vs += &format!("mov o{r}, v0\n");
    }
    // The pixel shader pairs k with k + 10 in v(k % 10).
    let mut ps = String::from("ps_3_0\n");
    for k in 0..20u8 {
        let mask = if k < 10 { "xy" } else { "zw" };
        let centroid = if k % 7 == 0 { "_centroid" } else { "" };
        ps += &format!("{}{centroid} v{}.{mask}\n", dcl(k), k % 10);
    }
    ps += "mov r0, v0\n";
    for r in 1..10 {
        ps += &format!("mov r1, v{r}\nadd r0, r0, r1\n");
    }
    ps += "mov oC0, r0\n";
    for options in [
        LinkOptions::default(),
        LinkOptions {
            point_list: true,
            ..LinkOptions::default()
        },
    ] {
        let (link, _, ps_linked) = linked(&vs, &ps, &options);
        assert_eq!(link.vertex.len(), 20);
        let shapes = location_shapes(&link.pixel).expect("consistent");
        assert!(shapes.len() <= 15, "{shapes:?}");
        // Each pixel input arrived where the link put it.
        for input in &ps_linked.interface.pixel_inputs {
            let v = link.pixel.iter().find(|v| v.semantic == input.semantic);
            assert_eq!(input.varying.as_ref(), v, "{}", input.semantic);
        }
        // Every semantic declared `_centroid` is centroid on both sides.
        for k in (0..20u8).filter(|k| k % 7 == 0) {
            let v = link.pixel.iter().find(|v| v.semantic == semantic(k));
            assert_eq!(
                v.map(|v| v.interpolation),
                Some(VaryingInterpolation::Centroid),
                "{}",
                semantic(k)
            );
        }
    }
}

/// A pixel input no vertex output feeds (TEXCOORD5: absent, reads its default), an unread
/// vertex output (TEXCOORD1: dropped), a pixel mask narrower than the vertex write
/// (TEXCOORD8 `.xy` of `.xyz`: three travel), flat colours under flat shading.
#[test]
fn unmatched_semantics_narrow_masks_and_flat_colours_agree() {
    let vs = "vs_3_0
dcl_position v0
dcl_color0 v1
dcl_position o0
dcl_color0 o1
dcl_color1 o2
dcl_texcoord1 o3
dcl_texcoord8 o4.xyz
mov o0, v0
mov o1, v1
mov o2, v1
mov o3, v1
mov o4.xyz, v1
";
    let ps = "ps_3_0
dcl_color0 v0
dcl_color1 v1
dcl_texcoord5 v2
dcl_texcoord8 v3.xy
mov r1, v1
add r0, v0, r1
add r0, r0, v2
add r0.xy, r0, v3
mov oC0, r0
";
    let options = LinkOptions {
        flat_shading: true,
        ..LinkOptions::default()
    };
    let (link, vs_linked, ps_linked) = linked(vs, ps, &options);
    let got: Vec<_> = link
        .pixel
        .iter()
        .map(|v| (v.semantic, v.components, v.interpolation))
        .collect();
    use VaryingInterpolation::{Flat, Perspective};
    assert_eq!(
        got,
        vec![
            (sem(Usage::Color, 0), 4, Flat),
            (sem(Usage::Color, 1), 4, Flat),
            (sem(Usage::TexCoord, 8), 3, Perspective),
        ]
    );
    let dropped = vs_linked
        .interface
        .output(sem(Usage::TexCoord, 1))
        .expect("listed");
    assert_eq!(dropped.location, None);
    let absent = ps_linked
        .interface
        .pixel_inputs
        .iter()
        .find(|p| p.semantic == sem(Usage::TexCoord, 5))
        .expect("listed");
    assert_eq!(absent.varying, None);
}

/// vs_1_1 → ps_2_0: `v0`/`v1` are COLOR0/1, `t#` TEXCOORD#; pre-3.0 coordinates travel whole
/// (`oT0.xy` written, four components), and FOG travels for the fog stage.
#[test]
fn pre_3_0_stages_agree_with_fog_for_the_fog_stage() {
    let vs = "vs_1_1
dcl_position v0
dcl_color0 v1
mov oPos, v0
mov oD0, v1
mov oD1, v1
mov oT0.xy, v1
mov oT2, v1
mov oFog, v1.x
";
    let ps = "ps_2_0
dcl v0
dcl v1
dcl t0.xy
dcl_centroid t2
mov r1, v1
add r0, v0, r1
add r0.xy, r0, t0
add r0, r0, t2
mov oC0, r0
";
    let options = LinkOptions {
        vertex_fog: true,
        ..LinkOptions::default()
    };
    let (link, _, _) = linked(vs, ps, &options);
    let got: Vec<_> = link
        .pixel
        .iter()
        .map(|v| (v.semantic, v.components, v.interpolation))
        .collect();
    use VaryingInterpolation::{Centroid, Perspective};
    assert_eq!(
        got,
        vec![
            (sem(Usage::Color, 0), 4, Perspective),
            (sem(Usage::Color, 1), 4, Perspective),
            (sem(Usage::TexCoord, 0), 4, Perspective),
            (sem(Usage::TexCoord, 2), 4, Centroid),
            (sem(Usage::Fog, 0), 1, Perspective),
        ]
    );
}

/// Fixed-function fog after ps_2_0: vertex fog reads the FOG varying the link gives (packed or
/// not) and the stages still agree; without FOG in the map the factor is FOG's default 0;
/// table fog reads the depth; the fog uniform is reported; ps_3_0 gets the same stage.
#[test]
fn fixed_function_fog_after_ps_2_0_translates_and_agrees() {
    use d3d9_translator::lift::interface::{FOG_BINDING, PS_CONSTANTS_GROUP};
    use d3d9_translator::lift::FogMode;
    let vs = "vs_1_1
dcl_position v0
dcl_color0 v1
mov oPos, v0
mov oD0, v1
mov oFog, v1.y
";
    let ps = "ps_2_0\ndcl v0\nmov oC0, v0\n";
    let with_fog = LinkOptions {
        vertex_fog: true,
        ..LinkOptions::default()
    };
    let (link, vs_linked, _) = linked(vs, ps, &with_fog);
    assert!(link.pixel.iter().any(|v| v.semantic == sem(Usage::Fog, 0)));
    let sources = [
        FogSource::Vertex,
        FogSource::Table(FogMode::Linear),
        FogSource::Table(FogMode::Exp),
        FogSource::Table(FogMode::Exp2),
    ];
    for source in sources {
        let options = PixelShaderOptions {
            input_locations: Some(link.pixel.clone()),
            fog: Some(FogOptions {
                source,
                from_w: false,
            }),
            ..PixelShaderOptions::default()
        };
        let t = translate_pixel_shader(&checked(ps, Stage::Pixel), &options)
            .unwrap_or_else(|e| panic!("{source:?}: {e}"));
        let fog = t.interface.fog.expect("the fog uniform");
        assert_eq!((fog.group, fog.binding), (PS_CONSTANTS_GROUP, FOG_BINDING));
        check_stage_agreement(&vs_linked.module, &t.module).expect("agree");
        let wgsl = t.wgsl().expect("wgsl");
        assert_eq!(
            wgsl.contains("@builtin(position)"),
            source != FogSource::Vertex,
            "{wgsl}"
        );
        assert!(wgsl.contains("mix("), "{wgsl}");
    }
    // No FOG in the map (the vertex shader never writes oFog): factor 0, fully fogged.
    let no_fog: Vec<_> = link
        .pixel
        .iter()
        .filter(|v| v.semantic != sem(Usage::Fog, 0))
        .copied()
        .collect();
    let options = PixelShaderOptions {
        input_locations: Some(no_fog),
        fog: Some(FogOptions {
            from_w: false,
            source: FogSource::Vertex,
        }),
        ..PixelShaderOptions::default()
    };
    let t = translate_pixel_shader(&checked(ps, Stage::Pixel), &options).expect("translates");
    let wgsl = t.wgsl().expect("wgsl");
    assert!(wgsl.contains("saturate(0f)"), "{wgsl}");
    // After ps_3_0 too, as Windows draws it (vkd3d's fog.shader_test; docs/decisions.md):
    // with no FOG in the map, the factor is 0, fully fogged.
    let options = PixelShaderOptions {
        fog: Some(FogOptions {
            from_w: false,
            source: FogSource::Vertex,
        }),
        ..PixelShaderOptions::default()
    };
    let t = translate_pixel_shader(
        &checked("ps_3_0\ndcl_color0 v0\nmov oC0, v0\n", Stage::Pixel),
        &options,
    )
    .expect("translates");
    let fog = t.interface.fog.expect("the fog uniform after ps_3_0");
    assert_eq!((fog.group, fog.binding), (PS_CONSTANTS_GROUP, FOG_BINDING));
    assert!(t.wgsl().expect("wgsl").contains("saturate(0f)"));
}
