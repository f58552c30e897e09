//! Linking on the vertex side: a vertex shader translated with a link's map has, at each
//! location, exactly the variable the link's convention gives (`location_shapes`: type and
//! interpolation), validates, and agrees with a pixel stage written from the same map
//! (`check_stage_agreement`). Pixel interfaces are built by hand here (the pixel translator
//! fills them the same way).

use std::collections::BTreeMap;

use d3d9_translator::asm::assemble;
use d3d9_translator::bytecode::{Register, RegisterFile, Stage, Usage, WriteMask};
use d3d9_translator::check::{check, DeviceCaps};
use d3d9_translator::lift::interface::{PixelInput, Varying, VaryingInterpolation};
use d3d9_translator::lift::link::{
    check_stage_agreement, location_shapes, varying_limit, StageMismatch,
};
use d3d9_translator::lift::{
    link, translate_vertex_shader, Link, LinkOptions, ShaderInterface, TranslatedShader,
    VertexShaderOptions,
};
use d3d9_translator::signature::Semantic;

fn translate(text: &str, map: Option<&[Varying]>) -> TranslatedShader {
    let program = assemble(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let checked = check(&program, Stage::Vertex, &DeviceCaps::default())
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    let options = VertexShaderOptions {
        output_locations: map.map(<[Varying]>::to_vec),
        ..VertexShaderOptions::default()
    };
    translate_vertex_shader(&checked, &options).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// A pixel interface reading `inputs` (semantic, mask, centroid) from `v#` in order.
fn pixel(inputs: &[(Semantic, u8, bool)]) -> ShaderInterface {
    ShaderInterface {
        pixel_inputs: inputs
            .iter()
            .zip(0u32..)
            .map(|(&(semantic, mask, centroid), n)| PixelInput {
                register: Register::new(RegisterFile::Input, n),
                semantic,
                mask: WriteMask(mask),
                centroid,
                varying: None,
            })
            .collect(),
        ..ShaderInterface::default()
    }
}

/// The vertex entry point's `@location` members: location → (type, binding).
fn vertex_locations(module: &naga::Module) -> BTreeMap<u32, (naga::TypeInner, naga::Binding)> {
    let entry = module.entry_points.first().expect("an entry point");
    let ty = entry.function.result.as_ref().expect("a result").ty;
    let naga::TypeInner::Struct { members, .. } = &module.types[ty].inner else {
        panic!("the result is a struct");
    };
    members
        .iter()
        .filter_map(|m| match &m.binding {
            Some(b @ naga::Binding::Location { location, .. }) => {
                Some((*location, (module.types[m.ty].inner.clone(), b.clone())))
            }
            _ => None,
        })
        .collect()
}

/// The type of an `n`-component inter-stage float.
fn float_type(n: u8) -> naga::TypeInner {
    let scalar = naga::Scalar::F32;
    match n {
        1 => naga::TypeInner::Scalar(scalar),
        2 => naga::TypeInner::Vector {
            size: naga::VectorSize::Bi,
            scalar,
        },
        3 => naga::TypeInner::Vector {
            size: naga::VectorSize::Tri,
            scalar,
        },
        _ => naga::TypeInner::Vector {
            size: naga::VectorSize::Quad,
            scalar,
        },
    }
}

/// The vertex module has exactly the locations of the link's map, each of the convention's
/// type and interpolation.
fn assert_vertex_follows(module: &naga::Module, link: &Link) {
    let shapes = location_shapes(&link.vertex).expect("a consistent map");
    let got = vertex_locations(module);
    assert_eq!(
        got.keys().collect::<Vec<_>>(),
        shapes.keys().collect::<Vec<_>>()
    );
    for (location, shape) in &shapes {
        let (ty, binding) = &got[location];
        assert_eq!(ty, &float_type(shape.components), "location {location}");
        assert_eq!(
            binding,
            &shape.interpolation.binding(*location),
            "location {location}"
        );
    }
}

/// A fragment stage written by hand from a pixel map: one argument per location of the
/// convention's type and interpolation, summing every component it receives.
fn fragment_wgsl(map: &[Varying]) -> String {
    let shapes = location_shapes(map).expect("a consistent map");
    let mut args = Vec::new();
    let mut sum = vec!["0.0".to_string()];
    for (location, shape) in &shapes {
        let ty = match shape.components {
            1 => "f32".to_string(),
            n => format!("vec{n}<f32>"),
        };
        let interp = match shape.interpolation {
            VaryingInterpolation::Perspective => "perspective, center",
            VaryingInterpolation::Centroid => "perspective, centroid",
            VaryingInterpolation::Flat => "flat",
        };
        args.push(format!(
            "@location({location}) @interpolate({interp}) l{location}: {ty}"
        ));
        sum.push(match shape.components {
            1 => format!("l{location}"),
            _ => format!("dot(l{location}, l{location})"),
        });
    }
    format!(
        "@fragment fn fs({}) -> @location(0) vec4<f32> {{ return vec4<f32>({}); }}",
        args.join(", "),
        sum.join(" + ")
    )
}

fn wgsl_module(source: &str) -> naga::Module {
    naga::front::wgsl::parse_str(source).unwrap_or_else(|e| panic!("{e}\n{source}"))
}

fn texcoord(k: u8) -> Semantic {
    Semantic::new(Usage::TexCoord, k)
}

/// The `k`th of twenty semantics: TEXCOORD0–15, then COLOR0–3 (usage indices stop at 15).
fn semantic(k: u8) -> Semantic {
    match k {
        0..16 => texcoord(k),
        _ => Semantic::new(Usage::Color, k - 16),
    }
}

/// Its `dcl` name.
fn dcl_name(k: u8) -> String {
    let s = semantic(k);
    format!("{}{}", s.usage.name(), s.index)
}

/// vs_3_0 writing 20 semantics, two per register (`.xy` and `.zw`).
fn twenty_texcoords() -> String {
    let mut text = String::from("vs_3_0\ndcl_position v0\ndcl_position o0\n");
    for r in 0..10u8 {
        text += &format!(
            "dcl_{} o{}.xy\ndcl_{} o{}.zw\n",
            dcl_name(2 * r),
            r + 1,
            dcl_name(2 * r + 1),
            r + 1
        );
    }
    for r in 0..10u8 {
        let base = f32::from(4 * r);
        text += &format!(
            "def c{r}, {}, {}, {}, {}\n",
            base + 1.0,
            base + 2.0,
            base + 3.0,
            base + 4.0
        );
    }
    text += "mov o0, v0\n";
    for r in 0..10u8 {
        text += &format!("mov o{}, c{r}\n", r + 1);
    }
    text
}

#[test]
fn twenty_semantics_travel_packed_where_the_link_puts_them() {
    let unlinked = translate(&twenty_texcoords(), None);
    // The pixel stage reads all twenty (some `_centroid`, some through narrower masks).
    let inputs: Vec<_> = (0..20u8)
        .map(|k| (semantic(k), if k % 3 == 0 { 0x1 } else { 0x3 }, k % 7 == 0))
        .collect();
    let ps = pixel(&inputs);
    for options in [
        LinkOptions::default(),
        LinkOptions {
            point_list: true,
            ..LinkOptions::default()
        },
    ] {
        let link = link(&unlinked.interface, &ps, &options).expect("links");
        assert_eq!(link.vertex.len(), 20);
        // Two components each: what the vertex shader writes, not the pixel masks.
        assert!(link.vertex.iter().all(|v| v.components == 2));
        let shapes = location_shapes(&link.vertex).expect("consistent");
        assert!(shapes.len() <= varying_limit(&(&ps).into(), &options));
        let vs = translate(&twenty_texcoords(), Some(&link.vertex));
        assert_vertex_follows(&vs.module, &link);
        // The interface says where each semantic went.
        for v in &link.vertex {
            let out = vs.interface.output(v.semantic).expect("an output");
            assert_eq!(
                (
                    out.location,
                    out.component,
                    out.components,
                    out.interpolation
                ),
                (Some(v.location), v.component, v.components, v.interpolation)
            );
        }
        let fs = wgsl_module(&fragment_wgsl(&link.pixel));
        check_stage_agreement(&vs.module, &fs).expect("the stages agree");
    }
    // Unlinked, the twenty outputs are packed the same way, in declaration order.
    let shapes = location_shapes(
        &unlinked
            .interface
            .outputs
            .iter()
            .filter_map(|o| o.varying())
            .collect::<Vec<_>>(),
    )
    .expect("consistent");
    assert_eq!(shapes.len(), 10);
}

#[test]
fn pre_3_0_colours_flat_coordinates_whole_and_fog_for_the_fog_stage() {
    let text = "vs_1_1
dcl_position v0
dcl_color0 v1
mov oPos, v0
mov oD0, v1
mov oD1.x, v1
mov oT0.xy, v1
mov oT3, v1
mov oFog, v1.y
";
    let unlinked = translate(text, None);
    let color = |k| Semantic::new(Usage::Color, k);
    // ps_1_1 reading v0, v1 and t0 (t3 is never read), with D3DSHADE_FLAT and vertex fog.
    let ps = pixel(&[
        (color(0), 0xF, false),
        (color(1), 0xF, false),
        (texcoord(0), 0xF, false),
        (texcoord(5), 0xF, false),
    ]);
    let options = LinkOptions {
        flat_shading: true,
        vertex_fog: true,
        ..LinkOptions::default()
    };
    let link = link(&unlinked.interface, &ps, &options).expect("links");
    let got: Vec<_> = link
        .vertex
        .iter()
        .map(|v| (v.semantic, v.location, v.components, v.interpolation))
        .collect();
    use VaryingInterpolation::{Flat, Perspective};
    let fog = Semantic::new(Usage::Fog, 0);
    assert_eq!(
        got,
        vec![
            (color(0), 0, 4, Flat),
            (color(1), 1, 4, Flat),
            // oT0.xy travels whole: pre-3.0 texture coordinates are four components.
            (texcoord(0), 2, 4, Perspective),
            (fog, 3, 1, Perspective),
        ]
    );
    let vs = translate(text, Some(&link.vertex));
    assert_vertex_follows(&vs.module, &link);
    let fs = wgsl_module(&fragment_wgsl(&link.pixel));
    check_stage_agreement(&vs.module, &fs).expect("the stages agree");
}

#[test]
fn disagreeing_stages_are_named() {
    let text = "vs_2_0\ndcl_position v0\nmov oPos, v0\nmov oT0, v0\nmov oT1.xy, v0\n";
    let vs = translate(text, None);
    let flat = wgsl_module(
        "@fragment fn fs(@location(0) @interpolate(flat) t: vec4<f32>) -> @location(0) vec4<f32> { return t; }",
    );
    assert!(matches!(
        check_stage_agreement(&vs.module, &flat),
        Err(StageMismatch::Differs { location: 0, .. })
    ));
    let narrow = wgsl_module(
        "@fragment fn fs(@location(1) t: vec2<f32>) -> @location(0) vec4<f32> { return t.xyxy; }",
    );
    assert!(matches!(
        check_stage_agreement(&vs.module, &narrow),
        Err(StageMismatch::Differs { location: 1, .. })
    ));
    let missing = wgsl_module(
        "@fragment fn fs(@location(7) t: vec4<f32>) -> @location(0) vec4<f32> { return t; }",
    );
    assert_eq!(
        check_stage_agreement(&vs.module, &missing),
        Err(StageMismatch::Missing { location: 7 })
    );
    let whole = wgsl_module(
        "@fragment fn fs(@location(0) t: vec4<f32>, @location(1) u: vec4<f32>) -> @location(0) vec4<f32> { return t + u; }",
    );
    check_stage_agreement(&vs.module, &whole).expect("the stages agree");
}

/// vs_3_0 partly written outputs: the declared components the shader never writes are 0
/// (Windows' `test_uninitialized_varyings`: `.x` of COLOR1 written, alpha read 0); the map
/// names a semantic the shader does not write at all: it carries its default.
#[test]
fn vs_3_0_unwritten_components_are_zero_and_unwritten_semantics_their_default() {
    let text = "vs_3_0
dcl_position v0
dcl_position o0
dcl_color1 o1
mov o0, v0
mov o1.x, v0.x
";
    let map = vec![
        Varying::new(Semantic::new(Usage::Color, 1), 0, 4),
        Varying::new(Semantic::new(Usage::Color, 0), 1, 4),
    ];
    let vs = translate(text, Some(&map));
    let wgsl = vs.wgsl().expect("wgsl");
    assert!(
        wgsl.contains("var<private> o1_: vec4<f32> = vec4<f32>();"),
        "{wgsl}"
    );
    assert!(wgsl.contains("VertexOutput(_e5, _e6, vec4(1f))"), "{wgsl}");
    let out = vs
        .interface
        .output(Semantic::new(Usage::Color, 0))
        .expect("listed");
    assert!(!out.written);
}
