//! Linking never produces a map the stages cannot honour, and bad maps never panic:
//! - random vertex outputs and pixel inputs (semantics, widths, centroid, flat shading, point
//!   lists, `vFace`) link to a consistent map within the limit, or to `TooManyVaryings` only
//!   when even packing cannot fit them; every linked semantic is one the vertex shader writes,
//!   with its width, and the pixel shader reads (or the fog stage: FOG, or COLOR1 for its
//!   alpha when no oFog is written);
//! - random varying maps given to the vertex translator either translate to a valid module
//!   whose locations are the map's (`location_shapes`) or are refused with a typed
//!   `LiftError::Varyings`.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use d3d9_translator::asm::assemble;
use d3d9_translator::bytecode::{Register, RegisterFile, Stage, Usage, WriteMask};
use d3d9_translator::check::{check, DeviceCaps};
use d3d9_translator::lift::interface::{
    PixelInput, Varying, VaryingInterpolation, VertexOutput, MAX_INTER_STAGE_VARIABLES,
};
use d3d9_translator::lift::link::{location_shapes, varying_limit, vertex_fog_factor_source};
use d3d9_translator::lift::{
    link, translate_vertex_shader, validate, LiftError, LinkError, LinkOptions, ShaderInterface,
    TextureWrap, VertexShaderOptions,
};
use d3d9_translator::signature::Semantic;
use proptest::prelude::*;

const USAGES: [Usage; 6] = [
    Usage::TexCoord,
    Usage::Color,
    Usage::Normal,
    Usage::Fog,
    Usage::PSize,
    Usage::Position,
];

fn semantic(usage: usize, index: u8) -> Semantic {
    Semantic::new(USAGES[usage % USAGES.len()], index % 16)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]
    #[test]
    fn links_are_consistent_and_within_the_limit(
        outputs in prop::collection::vec((0usize..6, 0u8..16, 1u8..=4), 0..40),
        inputs in prop::collection::vec((0usize..6, 0u8..16, 1u8..16, any::<bool>()), 0..40),
        flat_shading in any::<bool>(),
        point_list in any::<bool>(),
        vertex_fog in any::<bool>(),
        reads_face in any::<bool>(),
        wrap in prop::collection::vec(0u8..=255, 16),
    ) {
        let mut vs = ShaderInterface::default();
        for (u, i, n) in outputs {
            let s = semantic(u, i);
            if vs.output(s).is_some() { continue; }
            vs.outputs.push(VertexOutput {
                semantic: s,
                register: None,
                mask: WriteMask((1 << n) - 1),
                location: None,
                component: 0,
                components: n,
                interpolation: VaryingInterpolation::Perspective,
                written: true,
            });
        }
        let mut ps = ShaderInterface { reads_face, ..ShaderInterface::default() };
        for (k, (u, i, mask, centroid)) in inputs.into_iter().enumerate() {
            ps.pixel_inputs.push(PixelInput {
                register: Register::new(RegisterFile::Input, k as u32),
                semantic: semantic(u, i),
                mask: WriteMask(mask),
                centroid,
                varying: None,
            });
        }
        let mut texture_wrap = TextureWrap::default();
        texture_wrap.0.copy_from_slice(&wrap);
        let options = LinkOptions { flat_shading, point_list, vertex_fog, texture_wrap };
        match link(&vs, &ps, &options) {
            Ok(l) => {
                prop_assert_eq!(&l.vertex, &l.pixel);
                let shapes = location_shapes(&l.vertex);
                prop_assert!(shapes.is_ok(), "{:?}", shapes);
                let shapes = shapes.unwrap();
                let limit = varying_limit(&(&ps).into(), &options);
                prop_assert!(shapes.len() + l.wrapped.len() <= limit);
                // One twin per location with a wrapped texture coordinate, at a free location.
                for v in l.vertex.iter().filter(|v| v.semantic.usage == Usage::TexCoord) {
                    let bits = texture_wrap.of(v.semantic.index) & ((1 << v.components) - 1);
                    let twin = l.wrapped.iter().find(|t| t.location == v.location);
                    prop_assert_eq!(bits != 0, twin.is_some_and(|t| t.components & (bits << v.component) != 0));
                }
                for (k, t) in l.wrapped.iter().enumerate() {
                    prop_assert!(shapes.contains_key(&t.location) && !shapes.contains_key(&t.twin));
                    prop_assert!((t.twin as usize) < limit);
                    prop_assert!(l.wrapped[..k].iter().all(|u| u.twin != t.twin && u.location != t.location));
                }
                for v in &l.vertex {
                    let out = vs.output(v.semantic);
                    prop_assert!(out.is_some(), "{} not written", v.semantic);
                    prop_assert_eq!(out.map(|o| o.components), Some(v.components));
                    let read = ps.pixel_inputs.iter().any(|p| p.semantic == v.semantic);
                    // The fog stage's factor: FOG, or COLOR1's alpha when the vertex shader
                    // writes all of oD1 and no oFog.
                    let fog = vertex_fog
                        && vertex_fog_factor_source(&(&vs).into()).is_some_and(|(s, _)| s == v.semantic);
                    prop_assert!(read || fog, "{} not read", v.semantic);
                    prop_assert!(!matches!(v.semantic.usage, Usage::PSize));
                }
            }
            Err(LinkError::TooManyVaryings { semantics, locations, limit }) => {
                prop_assert!(locations > limit && semantics > limit);
            }
            Err(e) => prop_assert!(false, "unexpected {e}"),
        }
    }

    #[test]
    fn arbitrary_maps_translate_or_are_refused(
        map in prop::collection::vec(
            (0usize..4, 0u8..4, 0u32..18, 0u8..5, 0u8..5, 0u8..3),
            0..12,
        ),
    ) {
        let text = "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_texcoord0 o1.xy\n\
                    dcl_texcoord1 o1.zw\ndcl_color0 o2\ndcl_fog o3.x\n\
                    mov o0, v0\nmov o1, v0\nmov o2, v0\nmov o3.x, v0.y\n";
        let program = assemble(text).expect("assembles");
        let checked = check(&program, Stage::Vertex, &DeviceCaps::default()).expect("checks");
        let map: Vec<Varying> = map
            .into_iter()
            .map(|(u, i, location, component, components, interp)| Varying {
                semantic: semantic(u, i),
                location,
                component,
                components,
                interpolation: [
                    VaryingInterpolation::Perspective,
                    VaryingInterpolation::Centroid,
                    VaryingInterpolation::Flat,
                ][usize::from(interp)],
            })
            .collect();
        let options = VertexShaderOptions {
            output_locations: Some(map.clone()),
            ..VertexShaderOptions::default()
        };
        match translate_vertex_shader(&checked, &options) {
            Ok(t) => {
                prop_assert!(validate(&t.module).is_ok());
                let shapes = location_shapes(&map);
                prop_assert!(shapes.is_ok());
                let shapes = shapes.unwrap();
                prop_assert!(shapes.len() <= MAX_INTER_STAGE_VARIABLES);
                for v in &map {
                    let out = t.interface.output(v.semantic).and_then(|o| o.varying());
                    prop_assert_eq!(out, Some(*v));
                }
            }
            Err(LiftError::Varyings(e)) => {
                prop_assert_eq!(location_shapes(&map).err(), Some(e));
            }
            Err(e) => prop_assert!(false, "unexpected {e}"),
        }
    }
}
