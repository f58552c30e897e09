//! One entry point for a draw's pair of stages: the vertex stage (an application's vertex
//! shader, or D3D9's fixed-function vertex pipeline from its [`VertexDescription`], built into
//! a program in memory and checked here; either bound to the draw's declaration through its
//! options' fetches) and the pixel stage (a pixel shader, or a stage the caller generates
//! with an explicit varying map), linked and each lifted once.
//!
//! The link is decided from the two checked programs ([`VertexLinkInterface::of`],
//! [`PixelLinkInterface::of`]) before anything is lifted; both stages are then lifted with
//! the link's maps, so they agree as WebGPU requires.

use super::link::{
    link_stages, varying_limit, wrap_twins, Link, LinkError, LinkOptions, TextureWrap,
};
use super::link_interface::{PixelLinkInterface, VertexLinkInterface};
use super::{
    translate_pixel_shader, translate_vertex_shader, FogSource, LiftError, PixelShaderOptions,
    TranslatedShader, Varying, VertexShaderOptions,
};
use crate::bytecode::Stage;
use crate::check::{CheckedProgram, DeviceCaps};
use crate::fixed_function::{FixedFunctionError, VertexDescription};

/// The vertex stage of a draw's pair.
#[derive(Debug, Clone, Copy)]
pub enum PairVertexStage<'a> {
    /// An application's checked vertex shader.
    Shader(&'a CheckedProgram),
    /// D3D9's fixed-function vertex pipeline: the description's program
    /// ([`VertexDescription::program`], checked against `caps`), returned in
    /// [`TranslatedPair::fixed_function`]. Its inputs are [`VertexDescription::inputs`].
    FixedFunction {
        description: &'a VertexDescription,
        caps: &'a DeviceCaps,
    },
}

/// The pixel stage of a draw's pair.
#[derive(Debug, Clone)]
pub enum PairPixelStage<'a> {
    /// A checked pixel shader and its options (`input_locations` must be `None`: the pair
    /// links them). With vertex fog among the options (`fog` with [`FogSource::Vertex`]),
    /// the fog factor travels for the fog stage.
    Shader {
        program: &'a CheckedProgram,
        options: PixelShaderOptions,
    },
    /// A pixel stage the caller builds itself (the device's fixed-function stage): it reads
    /// the vertex stage's outputs where these varyings place them.
    Varyings(Vec<Varying>),
}

/// Options of [`translate_pair`]: the vertex stage's, and the draw state that decides the
/// link.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PairOptions {
    /// The vertex stage's options: `input_fetches` from the declaration bound to the draw;
    /// `output_locations` must be `None` (the pair links them).
    pub vertex: VertexShaderOptions,
    /// `D3DSHADE_FLAT` ([`LinkOptions::flat_shading`]).
    pub flat_shading: bool,
    /// The draw is a point list ([`LinkOptions::point_list`]).
    pub point_list: bool,
    /// Point sprites: the vertex stage writes the sprite coordinate to every texture
    /// coordinate, so each one the pixel shader reads travels with four components
    /// ([`VertexLinkInterface::with_sprite_texture_coordinates`]).
    pub sprite_texture_coordinates: bool,
    /// `D3DRS_WRAP0`–`WRAP15` ([`LinkOptions::texture_wrap`]; for
    /// [`PairPixelStage::Varyings`], the twins follow the caller's map: [`Link::wrapped`]).
    pub texture_wrap: TextureWrap,
}

/// A draw's two stages, linked and lifted.
#[derive(Debug, Clone)]
pub struct TranslatedPair {
    pub vertex: TranslatedShader,
    /// The pixel shader; `None` for [`PairPixelStage::Varyings`].
    pub pixel: Option<TranslatedShader>,
    /// Where each semantic travels (for [`PairPixelStage::Varyings`], the caller's map on
    /// both sides).
    pub link: Link,
    /// The program generated for [`PairVertexStage::FixedFunction`] (the caller binds the
    /// declaration to it and the reference interpreter can run it); `None` for a shader.
    pub fixed_function: Option<CheckedProgram>,
}

/// Why a pair did not translate: which stage, or the link.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PairError {
    #[error("vertex stage: {0}")]
    Vertex(LiftError),
    #[error("pixel stage: {0}")]
    Pixel(LiftError),
    #[error("link: {0}")]
    Link(#[from] LinkError),
    /// The fixed-function description has no program.
    #[error("{0}")]
    FixedFunction(#[from] FixedFunctionError),
}

/// Link and lift a draw's pair: the link from the two programs, then each stage lifted once
/// with its map.
pub fn translate_pair(
    vertex: PairVertexStage<'_>,
    pixel: PairPixelStage<'_>,
    options: PairOptions,
) -> Result<TranslatedPair, PairError> {
    let mut fixed_function = None;
    let vertex: &CheckedProgram = match vertex {
        PairVertexStage::Shader(program) => program,
        PairVertexStage::FixedFunction { description, caps } => {
            fixed_function.insert(description.program(caps)?.program)
        }
    };
    let wrong_stage = |checked: &CheckedProgram, expected| LiftError::WrongStage {
        expected,
        version: checked.program().version,
    };
    if vertex.program().stage() != Stage::Vertex {
        return Err(PairError::Vertex(wrong_stage(vertex, Stage::Vertex)));
    }
    if options.vertex.output_locations.is_some() {
        return Err(PairError::Vertex(LiftError::Options(
            "a pair's output locations come from its link".into(),
        )));
    }
    let (link, pixel) = match pixel {
        PairPixelStage::Shader {
            program,
            options: ps_options,
        } => {
            if program.program().stage() != Stage::Pixel {
                return Err(PairError::Pixel(wrong_stage(program, Stage::Pixel)));
            }
            if ps_options.input_locations.is_some() {
                return Err(PairError::Pixel(LiftError::Options(
                    "a pair's input locations come from its link".into(),
                )));
            }
            let mut vs = VertexLinkInterface::of(vertex.program());
            let ps = PixelLinkInterface::of(program.program());
            if options.sprite_texture_coordinates {
                vs.with_sprite_texture_coordinates(&ps);
            }
            let link_options = LinkOptions {
                flat_shading: options.flat_shading,
                point_list: options.point_list,
                vertex_fog: ps_options
                    .fog
                    .is_some_and(|f| f.source == FogSource::Vertex),
                texture_wrap: options.texture_wrap,
            };
            let link = link_stages(&vs, &ps, &link_options)?;
            (link, Some((program, ps_options)))
        }
        PairPixelStage::Varyings(map) => {
            // A generated stage reads no `vFace`.
            let link_options = LinkOptions {
                point_list: options.point_list,
                ..LinkOptions::default()
            };
            let limit = varying_limit(&PixelLinkInterface::default(), &link_options);
            let wrapped = wrap_twins(&map, options.texture_wrap, limit).map_err(LinkError::from)?;
            let link = Link {
                vertex: map.clone(),
                pixel: map,
                wrapped,
            };
            (link, None)
        }
    };
    let vertex = translate_vertex_shader(
        vertex,
        &VertexShaderOptions {
            output_locations: Some(link.vertex.clone()),
            wrap_twins: link.wrapped.clone(),
            ..options.vertex
        },
    )
    .map_err(PairError::Vertex)?;
    let pixel = match pixel {
        Some((program, ps_options)) => Some(
            translate_pixel_shader(
                program,
                &PixelShaderOptions {
                    input_locations: Some(link.pixel.clone()),
                    wrap_twins: link.wrapped.clone(),
                    ..ps_options
                },
            )
            .map_err(PairError::Pixel)?,
        ),
        None => None,
    };
    Ok(TranslatedPair {
        vertex,
        pixel,
        link,
        fixed_function,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asm::assemble;
    use crate::bytecode::Usage;
    use crate::check::{check, DeviceCaps};
    use crate::lift::link::check_stage_agreement;
    use crate::lift::{FogOptions, VaryingInterpolation};
    use crate::signature::Semantic;

    fn checked(text: &str) -> CheckedProgram {
        let program = assemble(text).expect("assembles");
        check(&program, program.stage(), &DeviceCaps::default()).expect("checks")
    }

    fn shader(program: &CheckedProgram) -> PairPixelStage<'_> {
        PairPixelStage::Shader {
            program,
            options: PixelShaderOptions::default(),
        }
    }

    /// (semantic, location, components, interpolation) of each varying of the link.
    fn travels(pair: &TranslatedPair) -> Vec<(Semantic, u32, u8, VaryingInterpolation)> {
        pair.link
            .vertex
            .iter()
            .map(|v| (v.semantic, v.location, v.components, v.interpolation))
            .collect()
    }

    const VS3: &str = "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_texcoord0 o1.xy\n\
                       dcl_texcoord1 o2\nmov o0, v0\nmov o1.xy, v0\nmov o2, v0\n";

    #[test]
    fn the_link_comes_from_the_programs_and_both_stages_agree() {
        let vs = checked(VS3);
        let ps = checked(
            "ps_3_0\ndcl_texcoord1_centroid v0\ndcl_texcoord5 v1\nmov r0, v0\nadd oC0, r0, v1\n",
        );
        let pair = translate_pair(
            PairVertexStage::Shader(&vs),
            shader(&ps),
            PairOptions::default(),
        )
        .expect("pairs");
        // TEXCOORD0 is not read, TEXCOORD5 not written: only TEXCOORD1 travels, centroid.
        let t1 = Semantic::new(Usage::TexCoord, 1);
        assert_eq!(
            travels(&pair),
            vec![(t1, 0, 4, VaryingInterpolation::Centroid)]
        );
        let pixel = pair.pixel.expect("a pixel stage");
        check_stage_agreement(&pair.vertex.module, &pixel.module).expect("agree");
        let located = |i: &crate::lift::ShaderInterface| {
            i.outputs.iter().filter(|o| o.location.is_some()).count()
        };
        assert_eq!(located(&pair.vertex.interface), 1);
    }

    #[test]
    fn sprites_make_every_texture_coordinate_read_travel_whole() {
        let vs = checked(VS3);
        let ps =
            checked("ps_3_0\ndcl_texcoord0 v0\ndcl_texcoord3 v1\nmov r0, v0\nadd oC0, r0, v1\n");
        let (t0, t3) = (
            Semantic::new(Usage::TexCoord, 0),
            Semantic::new(Usage::TexCoord, 3),
        );
        let perspective = VaryingInterpolation::Perspective;
        let plain = translate_pair(
            PairVertexStage::Shader(&vs),
            shader(&ps),
            PairOptions::default(),
        )
        .expect("pairs");
        assert_eq!(travels(&plain), vec![(t0, 0, 2, perspective)]);
        let options = PairOptions {
            vertex: VertexShaderOptions {
                point_expansion: Some(crate::lift::PointExpansion {
                    sprite: true,
                    scale: false,
                }),
                ..VertexShaderOptions::default()
            },
            point_list: true,
            sprite_texture_coordinates: true,
            ..PairOptions::default()
        };
        let sprites =
            translate_pair(PairVertexStage::Shader(&vs), shader(&ps), options).expect("pairs");
        assert_eq!(
            travels(&sprites),
            vec![(t0, 0, 4, perspective), (t3, 1, 4, perspective)]
        );
        let pixel = sprites.pixel.expect("a pixel stage");
        check_stage_agreement(&sprites.vertex.module, &pixel.module).expect("agree");
    }

    #[test]
    fn vertex_fog_in_the_pixel_options_makes_the_fog_factor_travel() {
        let vs = checked("vs_2_0\ndcl_position v0\nmov oPos, v0\nmov oFog, v0.x\nmov oT0, v0\n");
        let ps = checked("ps_2_0\ndcl t0\nmov oC0, t0\n");
        let fog = FogOptions {
            source: FogSource::Vertex,
            from_w: false,
        };
        let fogged = PairPixelStage::Shader {
            program: &ps,
            options: PixelShaderOptions {
                fog: Some(fog),
                ..PixelShaderOptions::default()
            },
        };
        let pair = translate_pair(PairVertexStage::Shader(&vs), fogged, PairOptions::default())
            .expect("pairs");
        let semantics: Vec<Semantic> = travels(&pair).iter().map(|t| t.0).collect();
        let (t0, fog) = (
            Semantic::new(Usage::TexCoord, 0),
            Semantic::new(Usage::Fog, 0),
        );
        assert_eq!(semantics, vec![t0, fog]);
        let plain = translate_pair(
            PairVertexStage::Shader(&vs),
            shader(&ps),
            PairOptions::default(),
        )
        .expect("pairs");
        assert_eq!(plain.link.vertex.len(), 1);
    }

    #[test]
    fn wrapped_texture_coordinates_travel_with_a_twin_both_stages_agree_on() {
        let vs = checked(VS3);
        let ps = checked(
            "ps_3_0\ndcl_texcoord0 v0.xy\ndcl_texcoord1 v1\nmov r0, v0.xyxy\nadd oC0, r0, v1\n",
        );
        let mut texture_wrap = TextureWrap::default();
        texture_wrap.0[1] = 0b0010; // TEXCOORD1's v
        let options = PairOptions {
            texture_wrap,
            ..PairOptions::default()
        };
        let pair = translate_pair(PairVertexStage::Shader(&vs), shader(&ps), options.clone())
            .expect("pairs");
        let twin = crate::lift::WrapTwin {
            location: 1,
            twin: 2,
            components: 0b0010,
        };
        assert_eq!(pair.link.wrapped, vec![twin]);
        let pixel = pair.pixel.expect("a pixel stage");
        check_stage_agreement(&pair.vertex.module, &pixel.module).expect("agree");
        let wgsl = |t: &TranslatedShader| t.wgsl().expect("WGSL");
        assert!(wgsl(&pair.vertex).contains("fract("));
        let pixel_wgsl = wgsl(&pixel);
        assert!(pixel_wgsl.contains("fwidth("));
        // Only v (component 1 of TEXCOORD1's location) takes the twin.
        assert!(
            pixel_wgsl.contains("vec4<bool>(false, true, false, false)"),
            "{pixel_wgsl}"
        );
        // The fixed-function pixel stage's map: the twin after its highest location.
        let t1 = Semantic::new(Usage::TexCoord, 1);
        let map = vec![Varying::new(t1, 5, 4)];
        let generated = translate_pair(
            PairVertexStage::Shader(&vs),
            PairPixelStage::Varyings(map),
            options.clone(),
        )
        .expect("pairs");
        assert_eq!(
            generated.link.wrapped,
            vec![crate::lift::WrapTwin {
                location: 5,
                twin: 6,
                components: 0b0010
            }]
        );
        // The twin of location 14 is 15: within WebGPU's 16, not within a point list's 15.
        let last = |point_list| {
            translate_pair(
                PairVertexStage::Shader(&vs),
                PairPixelStage::Varyings(vec![Varying::new(t1, 14, 4)]),
                PairOptions {
                    point_list,
                    ..options.clone()
                },
            )
        };
        assert_eq!(last(false).expect("pairs").link.wrapped[0].twin, 15);
        assert!(last(true).is_err());
        // Without wrapping nothing changes.
        let plain = translate_pair(
            PairVertexStage::Shader(&vs),
            shader(&ps),
            PairOptions::default(),
        )
        .expect("pairs");
        assert!(plain.link.wrapped.is_empty());
        let plain_pixel = plain.pixel.expect("a pixel stage");
        assert!(!wgsl(&plain_pixel).contains("fwidth("));
    }

    #[test]
    fn twins_must_be_free_locations_below_the_limit() {
        use crate::lift::WrapTwin;
        let t1 = Semantic::new(Usage::TexCoord, 1);
        let map = vec![
            Varying::new(t1, 0, 4),
            Varying::new(Semantic::new(Usage::TexCoord, 0), 1, 2),
        ];
        let twin = |location, twin| WrapTwin {
            location,
            twin,
            components: 1,
        };
        let vs = checked(VS3);
        let ps = checked(
            "ps_3_0\ndcl_texcoord1 v0\ndcl_texcoord0 v1.xy\nmov r0, v1.xyxy\nadd oC0, v0, r0\n",
        );
        let vertex = |twins: Vec<WrapTwin>| {
            translate_vertex_shader(
                &vs,
                &VertexShaderOptions {
                    output_locations: Some(map.clone()),
                    wrap_twins: twins,
                    ..VertexShaderOptions::default()
                },
            )
        };
        let pixel = |twins: Vec<WrapTwin>| {
            translate_pixel_shader(
                &ps,
                &PixelShaderOptions {
                    input_locations: Some(map.clone()),
                    wrap_twins: twins,
                    ..PixelShaderOptions::default()
                },
            )
        };
        // The last location and a free one are taken; a used one, one past WebGPU's 16 and
        // (in the vertex stage) a location that carries nothing are refused.
        for ok in [twin(0, 15), twin(0, 2)] {
            assert!(
                vertex(vec![ok]).is_ok() && pixel(vec![ok]).is_ok(),
                "{ok:?}"
            );
        }
        for bad in [twin(0, 1), twin(0, 16)] {
            assert!(
                matches!(vertex(vec![bad]), Err(LiftError::Options(_))),
                "{bad:?}"
            );
            assert!(
                matches!(pixel(vec![bad]), Err(LiftError::Options(_))),
                "{bad:?}"
            );
        }
        assert!(matches!(
            vertex(vec![twin(7, 2)]),
            Err(LiftError::Options(_))
        ));
        // Two twins at one location.
        let both = vec![twin(0, 2), twin(1, 2)];
        assert!(matches!(vertex(both.clone()), Err(LiftError::Options(_))));
        assert!(matches!(pixel(both), Err(LiftError::Options(_))));
    }

    #[test]
    fn a_generated_pixel_stage_reads_where_its_map_says() {
        let vs = checked(VS3);
        let t1 = Semantic::new(Usage::TexCoord, 1);
        let map = vec![Varying::new(t1, 5, 4)];
        let pair = translate_pair(
            PairVertexStage::Shader(&vs),
            PairPixelStage::Varyings(map.clone()),
            PairOptions::default(),
        )
        .expect("pairs");
        assert!(pair.pixel.is_none());
        assert_eq!(pair.link.vertex, map);
        let output = pair.vertex.interface.output(t1).expect("TEXCOORD1");
        assert_eq!(output.location, Some(5));
    }

    #[test]
    fn wrong_stages_and_preset_maps_are_refused() {
        let vs = checked(VS3);
        let ps = checked("ps_3_0\ndcl_texcoord0 v0\nmov oC0, v0\n");
        let err = translate_pair(
            PairVertexStage::Shader(&ps),
            shader(&vs),
            PairOptions::default(),
        )
        .expect_err("stages");
        assert!(
            matches!(err, PairError::Vertex(LiftError::WrongStage { .. })),
            "{err}"
        );
        let err = translate_pair(
            PairVertexStage::Shader(&vs),
            shader(&vs),
            PairOptions::default(),
        )
        .expect_err("stages");
        assert!(
            matches!(err, PairError::Pixel(LiftError::WrongStage { .. })),
            "{err}"
        );
        let preset = PairOptions {
            vertex: VertexShaderOptions {
                output_locations: Some(Vec::new()),
                ..VertexShaderOptions::default()
            },
            ..PairOptions::default()
        };
        let err = translate_pair(PairVertexStage::Shader(&vs), shader(&ps), preset)
            .expect_err("a preset map");
        assert!(
            matches!(err, PairError::Vertex(LiftError::Options(_))),
            "{err}"
        );
    }
}
