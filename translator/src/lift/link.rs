//! Linking a vertex shader's outputs to a pixel shader's inputs by semantic (usage, index).
//!
//! [`link_stages`] decides, per draw, which semantics travel between the stages, at which
//! `@location`, in which components and with which interpolation, from what each stage's
//! program states (`link_interface`; [`link`] takes two lifted interfaces instead). Both
//! stages are then translated with its maps ([`Link::vertex`] for
//! `VertexShaderOptions::output_locations`, [`Link::pixel`] for
//! `PixelShaderOptions::input_locations`; `translate_pair` does it all), so they agree
//! exactly as WebGPU requires; [`check_stage_agreement`] verifies that of two translated
//! modules.
//!
//! The convention both stages follow ([`location_shapes`]): the variable at a location is
//! `vecN<f32>` (`f32` for N = 1), N = the largest `component + components` of the varyings
//! sharing it; semantic component `c` travels in the location's component `component + c`
//! (the vertex shader's written components compacted, as DXVK does); components of the
//! location no varying fills are 0; all varyings at one location share its interpolation.

use std::collections::BTreeMap;

use super::interface::{ShaderInterface, Varying, VaryingInterpolation, MAX_INTER_STAGE_VARIABLES};
pub use super::link_interface::{
    is_varying, LinkInput, LinkOutput, PixelLinkInterface, VertexLinkInterface,
};
pub use super::wrap::{wrap_twins, TextureWrap, WrapTwin};
use super::wrap::{wrapped_count, NoTwinLocation};
use crate::bytecode::Usage;
use crate::signature::Semantic;

/// The draw-time state that decides a link besides the two shaders.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct LinkOptions {
    /// `D3DRS_SHADEMODE = D3DSHADE_FLAT`: COLOR0 and COLOR1 are flat (the first vertex's).
    pub flat_shading: bool,
    /// The draw is a point list: one inter-stage variable fewer (WebGPU deducts one for
    /// point-list pipelines; the backend's point-sprite expansion uses it for the sprite
    /// coordinate).
    pub point_list: bool,
    /// Fixed-function vertex fog follows the pixel shader (ps_1_x/ps_2_x with
    /// `D3DRS_FOGENABLE` and vertex fog): FOG travels for the fog stage even though the
    /// pixel shader does not read it.
    pub vertex_fog: bool,
    /// `D3DRS_WRAP0`–`WRAP15`: the wrapped texture coordinates travel with a twin each
    /// (see `wrap`).
    pub texture_wrap: TextureWrap,
}

/// Where each linked semantic travels. Part of the pipeline cache key: the vertex shader is
/// specialised by [`Link::vertex`], the pixel shader by [`Link::pixel`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Link {
    /// The vertex shader's outputs (`VertexShaderOptions::output_locations`): what the pixel
    /// stage reads, nothing else.
    pub vertex: Vec<Varying>,
    /// The pixel shader's inputs (`PixelShaderOptions::input_locations`). A pixel input
    /// missing here is not written by the vertex shader and reads its default.
    pub pixel: Vec<Varying>,
    /// The locations carrying wrapped texture coordinates and their twins
    /// (`VertexShaderOptions::wrap_twins`, `PixelShaderOptions::wrap_twins`).
    pub wrapped: Vec<WrapTwin>,
}

/// Why two stages cannot be linked, or why a varying map is inconsistent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    /// Even packed several to a location, the semantics do not fit.
    #[error("{semantics} semantics need {locations} inter-stage variables even packed; {limit} are available")]
    TooManyVaryings {
        semantics: usize,
        locations: usize,
        limit: usize,
    },
    /// A varying's components do not lie within a `vec4`.
    #[error("{semantic} at location {location}: components {component}..+{components} do not fit a vec4")]
    ComponentRange {
        semantic: Semantic,
        location: u32,
        component: u8,
        components: u8,
    },
    /// A location past WebGPU's inter-stage limit.
    #[error("{semantic} at location {location}: WebGPU has locations 0..{limit}")]
    LocationRange {
        semantic: Semantic,
        location: u32,
        limit: usize,
    },
    /// Two varyings share components of one location.
    #[error("{second} overlaps {first} at location {location}")]
    Overlap {
        location: u32,
        first: Semantic,
        second: Semantic,
    },
    /// Varyings of different interpolation at one location.
    #[error("location {location} mixes {first:?} and {second:?} interpolation")]
    MixedInterpolation {
        location: u32,
        first: VaryingInterpolation,
        second: VaryingInterpolation,
    },
    /// A semantic listed twice.
    #[error("{semantic} is given twice")]
    DuplicateSemantic { semantic: Semantic },
    /// The twin of a wrapped location (`D3DRS_WRAPn`) has no location left.
    #[error(transparent)]
    WrapTwin(#[from] NoTwinLocation),
}

/// The inter-stage variable at one location: `vecN<f32>` (`f32` for 1) and its
/// interpolation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LocationShape {
    pub components: u8,
    pub interpolation: VaryingInterpolation,
}

/// The variable at each location of a varying map, by the module's convention, after
/// checking the map: components within a `vec4`, locations below WebGPU's 16, no overlap,
/// one interpolation per location, each semantic once. Both stages build their locations
/// from this.
pub fn location_shapes(varyings: &[Varying]) -> Result<BTreeMap<u32, LocationShape>, LinkError> {
    let mut shapes: BTreeMap<u32, LocationShape> = BTreeMap::new();
    for (i, v) in varyings.iter().enumerate() {
        if v.components == 0 || v.end() > 4 {
            return Err(LinkError::ComponentRange {
                semantic: v.semantic,
                location: v.location,
                component: v.component,
                components: v.components,
            });
        }
        if v.location as usize >= MAX_INTER_STAGE_VARIABLES {
            return Err(LinkError::LocationRange {
                semantic: v.semantic,
                location: v.location,
                limit: MAX_INTER_STAGE_VARIABLES,
            });
        }
        for w in &varyings[..i] {
            if w.semantic == v.semantic {
                return Err(LinkError::DuplicateSemantic {
                    semantic: v.semantic,
                });
            }
            if w.location == v.location && w.component < v.end() && v.component < w.end() {
                return Err(LinkError::Overlap {
                    location: v.location,
                    first: w.semantic,
                    second: v.semantic,
                });
            }
        }
        let shape = shapes.entry(v.location).or_insert(LocationShape {
            components: 0,
            interpolation: v.interpolation,
        });
        if shape.interpolation != v.interpolation {
            return Err(LinkError::MixedInterpolation {
                location: v.location,
                first: shape.interpolation,
                second: v.interpolation,
            });
        }
        shape.components = shape.components.max(v.end());
    }
    Ok(shapes)
}

/// Where the fixed-function vertex fog stage takes its factor from, given the width of FOG
/// and of COLOR1 where each is available (written by the vertex shader, or present in a
/// varying map): FOG's first component; with no FOG, COLOR1's alpha when all four components
/// of COLOR1 are there (Windows takes the fog factor from the specular alpha when a vertex
/// shader writes no `oFog`: vkd3d's `fog.shader_test`); otherwise none, and the factor is
/// FOG's default (see [`link`]). Returns the semantic and the component within it.
///
/// The one statement of the rule: [`link`] asks it of the vertex shader's outputs, the pixel
/// shader's fog stage of the varying map it is given.
pub fn fog_factor_source(fog: Option<u8>, specular: Option<u8>) -> Option<(Semantic, u8)> {
    match (fog, specular) {
        (Some(_), _) => Some((Semantic::new(Usage::Fog, 0), 0)),
        (None, Some(4)) => Some((Semantic::new(Usage::Color, 1), 3)),
        _ => None,
    }
}

/// [`fog_factor_source`] of the vertex stage `vs`: from the outputs it writes.
pub fn vertex_fog_factor_source(vs: &VertexLinkInterface) -> Option<(Semantic, u8)> {
    let written = |s: Semantic| vs.written(s).map(|o| o.components);
    fog_factor_source(
        written(Semantic::new(Usage::Fog, 0)),
        written(Semantic::new(Usage::Color, 1)),
    )
}

/// Inter-stage variables the pixel stage of this link may use: WebGPU's 16, one fewer for a
/// point list (WebGPU deducts one for point-list pipelines) and one fewer when the pixel
/// shader reads `vFace` (`@builtin(front_facing)` counts against the fragment inputs).
pub fn varying_limit(ps: &PixelLinkInterface, options: &LinkOptions) -> usize {
    MAX_INTER_STAGE_VARIABLES - usize::from(options.point_list) - usize::from(ps.reads_face)
}

/// Link the outputs of lifted vertex shader `vs` to the inputs of lifted pixel shader `ps`:
/// [`link_stages`] of their interfaces.
pub fn link(
    vs: &ShaderInterface,
    ps: &ShaderInterface,
    options: &LinkOptions,
) -> Result<Link, LinkError> {
    link_stages(&vs.into(), &ps.into(), options)
}

/// Link the outputs of vertex stage `vs` to the inputs of pixel stage `ps`, as the checked
/// programs state them ([`VertexLinkInterface::of`], [`PixelLinkInterface::of`]) or lifted
/// interfaces give them.
///
/// - A pixel input gets the location of the vertex output with the same (usage, index); a
///   vertex output nobody reads is dropped; a pixel input the vertex shader does not write is
///   absent (the pixel shader reads its default, `Semantic::unwritten_value`). Pre-3.0 pixel
///   inputs are COLOR# (`v#`) and TEXCOORD# (`t#`), as their interface states.
/// - The components that travel are what the vertex shader writes
///   ([`LinkOutput::components`]), not the pixel shader's `dcl` mask.
/// - Centroid where the pixel shader declares `_centroid`; flat for COLOR0/COLOR1 under
///   [`LinkOptions::flat_shading`]; perspective otherwise.
/// - FOG travels when the pixel shader reads it (ps_3_0 `dcl_fog`) or, with
///   [`LinkOptions::vertex_fog`], for the fixed-function fog stage; there, a vertex shader
///   that writes no `oFog` but all of `oD1` has COLOR1 travel instead, the fog stage reading
///   its alpha (Windows takes the fog factor from the specular alpha then: vkd3d's
///   `fog.shader_test`; without `oD1` it is 0, fully fogged, Wine's `fog_with_shader_test`).
/// - Up to [`varying_limit`] semantics get a location each, in pixel-input order; more are
///   packed several to a location (first fit, widest first, same interpolation only).
///   Each texture coordinate [`LinkOptions::texture_wrap`] wraps keeps a location free for
///   its location's twin ([`wrap_twins`], after the others).
pub fn link_stages(
    vs: &VertexLinkInterface,
    ps: &PixelLinkInterface,
    options: &LinkOptions,
) -> Result<Link, LinkError> {
    // The semantics the pixel stage reads, once each, with centroid if any read asks for it.
    let mut wanted: Vec<(Semantic, bool)> = Vec::new();
    for input in ps.inputs.iter().filter(|i| is_varying(i.semantic)) {
        match wanted.iter_mut().find(|(s, _)| *s == input.semantic) {
            Some((_, centroid)) => *centroid |= input.centroid,
            None => wanted.push((input.semantic, input.centroid)),
        }
    }
    if let Some((fog_source, _)) = vertex_fog_factor_source(vs).filter(|_| options.vertex_fog) {
        if !wanted.iter().any(|(s, _)| *s == fog_source) {
            wanted.push((fog_source, false));
        }
    }
    let mut items = Vec::new();
    for (semantic, centroid) in wanted {
        let Some(out) = vs.written(semantic) else {
            continue;
        };
        let flat = options.flat_shading && semantic.usage == Usage::Color && semantic.index < 2;
        let interpolation = if flat {
            VaryingInterpolation::Flat
        } else if centroid {
            VaryingInterpolation::Centroid
        } else {
            VaryingInterpolation::Perspective
        };
        items.push(Varying {
            semantic,
            location: 0,
            component: 0,
            components: out.components.clamp(1, 4),
            interpolation,
        });
    }
    // Wrapped texture coordinates leave a location each for their twins.
    let limit = varying_limit(ps, options);
    let own = limit.saturating_sub(wrapped_count(&items, options.texture_wrap));
    if items.len() <= own {
        for (location, v) in (0u32..).zip(items.iter_mut()) {
            v.location = location;
        }
    } else {
        pack(&mut items, own)?;
    }
    let wrapped = wrap_twins(&items, options.texture_wrap, limit)?;
    Ok(Link {
        vertex: items.clone(),
        pixel: items,
        wrapped,
    })
}

/// Pack `items` into at most `limit` locations: widest first, each into the first location
/// of its interpolation with room left (at the next free component), else a new location.
pub(super) fn pack(items: &mut [Varying], limit: usize) -> Result<(), LinkError> {
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(items[i].components));
    // (interpolation, components used) per location.
    let mut locations: Vec<(VaryingInterpolation, u8)> = Vec::new();
    for i in order {
        let v = &mut items[i];
        let slot = locations
            .iter()
            .position(|&(interp, used)| interp == v.interpolation && used + v.components <= 4);
        let slot = match slot {
            Some(s) => s,
            None => {
                locations.push((v.interpolation, 0));
                locations.len() - 1
            }
        };
        let (_, used) = &mut locations[slot];
        v.location = slot as u32;
        v.component = *used;
        *used += v.components;
    }
    if locations.len() > limit {
        return Err(LinkError::TooManyVaryings {
            semantics: items.len(),
            locations: locations.len(),
            limit,
        });
    }
    Ok(())
}

/// Where a vertex and a pixel entry point disagree about an inter-stage variable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StageMismatch {
    /// A module without an entry point of the stage.
    #[error("no {0:?} entry point")]
    NoEntryPoint(naga::ShaderStage),
    /// The pixel stage reads a location the vertex stage does not write.
    #[error("location {location}: the pixel stage reads it, the vertex stage does not write it")]
    Missing { location: u32 },
    /// Different types or interpolation at one location.
    #[error(
        "location {location}: the vertex stage writes {vertex}, the pixel stage reads {pixel}"
    )]
    Differs {
        location: u32,
        vertex: String,
        pixel: String,
    },
}

/// The type, interpolation and sampling of each `@location` of one side of an entry point
/// (the vertex stage's result, the pixel stage's arguments), structs looked into.
fn stage_locations(
    module: &naga::Module,
    stage: naga::ShaderStage,
) -> Result<BTreeMap<u32, String>, StageMismatch> {
    let entry = module
        .entry_points
        .iter()
        .find(|e| e.stage == stage)
        .ok_or(StageMismatch::NoEntryPoint(stage))?;
    let mut bound: Vec<(Option<&naga::Binding>, naga::Handle<naga::Type>)> = match stage {
        naga::ShaderStage::Vertex => entry
            .function
            .result
            .iter()
            .map(|r| (r.binding.as_ref(), r.ty))
            .collect(),
        _ => entry
            .function
            .arguments
            .iter()
            .map(|a| (a.binding.as_ref(), a.ty))
            .collect(),
    };
    let mut locations = BTreeMap::new();
    while let Some((binding, ty)) = bound.pop() {
        let inner = &module.types[ty].inner;
        match (binding, inner) {
            (
                Some(naga::Binding::Location {
                    location,
                    interpolation,
                    sampling,
                    ..
                }),
                _,
            ) => {
                locations.insert(
                    *location,
                    format!("{inner:?} {interpolation:?} {sampling:?}"),
                );
            }
            (None, naga::TypeInner::Struct { members, .. }) => {
                bound.extend(members.iter().map(|m| (m.binding.as_ref(), m.ty)));
            }
            _ => {}
        }
    }
    Ok(locations)
}

/// Check that every `@location` the pixel entry point of `pixel` reads is written by the
/// vertex entry point of `vertex` with the same type, interpolation and sampling, as WebGPU
/// requires of a pipeline (the backend can call it before building one).
pub fn check_stage_agreement(
    vertex: &naga::Module,
    pixel: &naga::Module,
) -> Result<(), StageMismatch> {
    let written = stage_locations(vertex, naga::ShaderStage::Vertex)?;
    let read = stage_locations(pixel, naga::ShaderStage::Fragment)?;
    for (location, p) in read {
        let v = written
            .get(&location)
            .ok_or(StageMismatch::Missing { location })?;
        if *v != p {
            return Err(StageMismatch::Differs {
                location,
                vertex: v.clone(),
                pixel: p,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bytecode::{Register, RegisterFile, WriteMask};
    use crate::lift::interface::{PixelInput, VertexOutput};
    use VaryingInterpolation::{Centroid, Flat, Perspective};

    fn sem(usage: Usage, index: u8) -> Semantic {
        Semantic::new(usage, index)
    }

    /// A vertex shader interface writing `outputs` (semantic, components).
    fn vs(outputs: &[(Semantic, u8)]) -> ShaderInterface {
        ShaderInterface {
            outputs: outputs
                .iter()
                .zip(0u32..)
                .map(|(&(semantic, components), location)| VertexOutput {
                    semantic,
                    register: None,
                    mask: WriteMask((1 << components) - 1),
                    location: Some(location),
                    component: 0,
                    components,
                    interpolation: Perspective,
                    written: true,
                })
                .collect(),
            ..ShaderInterface::default()
        }
    }

    /// A pixel shader interface reading `inputs` (semantic, mask, centroid).
    fn ps(inputs: &[(Semantic, u8, bool)]) -> ShaderInterface {
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

    fn at(link: &Link, semantic: Semantic) -> Option<(u32, u8, u8, VaryingInterpolation)> {
        link.vertex
            .iter()
            .find(|v| v.semantic == semantic)
            .map(|v| (v.location, v.component, v.components, v.interpolation))
    }

    #[test]
    fn pixel_inputs_get_the_vertex_output_of_their_semantic() {
        let (t0, t1, c0) = (
            sem(Usage::TexCoord, 0),
            sem(Usage::TexCoord, 1),
            sem(Usage::Color, 0),
        );
        let v = vs(&[(t0, 4), (c0, 4), (t1, 2)]);
        let p = ps(&[(c0, 0xF, false), (t1, 0x3, false)]);
        let link = link(&v, &p, &LinkOptions::default()).expect("links");
        // In pixel-input order; TEXCOORD0, which nobody reads, is dropped.
        assert_eq!(at(&link, c0), Some((0, 0, 4, Perspective)));
        assert_eq!(at(&link, t1), Some((1, 0, 2, Perspective)));
        assert_eq!(at(&link, t0), None);
        assert_eq!(link.vertex, link.pixel);
    }

    #[test]
    fn a_pixel_input_nobody_writes_is_absent() {
        let (t0, t5) = (sem(Usage::TexCoord, 0), sem(Usage::TexCoord, 5));
        let link = link(
            &vs(&[(t0, 4)]),
            &ps(&[(t5, 0xF, false), (t0, 0xF, false)]),
            &LinkOptions::default(),
        )
        .expect("links");
        assert_eq!(at(&link, t5), None);
        assert_eq!(at(&link, t0), Some((0, 0, 4, Perspective)));
        assert_eq!(link.pixel.len(), 1);
    }

    #[test]
    fn the_limit_deducts_point_lists_and_vface_and_centroid_wins_over_reads() {
        let none = PixelLinkInterface::default();
        let face = PixelLinkInterface {
            reads_face: true,
            ..PixelLinkInterface::default()
        };
        let points = LinkOptions {
            point_list: true,
            ..LinkOptions::default()
        };
        assert_eq!(varying_limit(&none, &LinkOptions::default()), 16);
        assert_eq!(varying_limit(&face, &LinkOptions::default()), 15);
        assert_eq!(varying_limit(&face, &points), 14);
        // TEXCOORD0 read plainly, then with `_centroid`: it travels centroid.
        let t0 = sem(Usage::TexCoord, 0);
        let both = link(
            &vs(&[(t0, 4)]),
            &ps(&[(t0, 0x3, false), (t0, 0xC, true)]),
            &LinkOptions::default(),
        )
        .expect("links");
        assert_eq!(at(&both, t0).map(|a| a.3), Some(Centroid));
    }

    #[test]
    fn what_travels_is_what_the_vertex_shader_writes() {
        // A pixel shader declaring v8.xy for a vertex shader writing .xyz receives three.
        let t8 = sem(Usage::TexCoord, 8);
        let link = link(
            &vs(&[(t8, 3)]),
            &ps(&[(t8, 0x3, false)]),
            &LinkOptions::default(),
        )
        .expect("links");
        assert_eq!(at(&link, t8), Some((0, 0, 3, Perspective)));
    }

    #[test]
    fn centroid_from_the_pixel_shader_and_flat_colours_under_flat_shading() {
        let (c0, c1, c2, t0) = (
            sem(Usage::Color, 0),
            sem(Usage::Color, 1),
            sem(Usage::Color, 2),
            sem(Usage::TexCoord, 0),
        );
        let v = vs(&[(c0, 4), (c1, 4), (c2, 4), (t0, 2)]);
        let p = ps(&[
            (c0, 0xF, true),
            (c1, 0xF, false),
            (c2, 0xF, false),
            (t0, 0x3, true),
        ]);
        let smooth = link(&v, &p, &LinkOptions::default()).expect("links");
        assert_eq!(at(&smooth, c0).map(|a| a.3), Some(Centroid));
        assert_eq!(at(&smooth, c1).map(|a| a.3), Some(Perspective));
        assert_eq!(at(&smooth, t0).map(|a| a.3), Some(Centroid));
        let flat = LinkOptions {
            flat_shading: true,
            ..LinkOptions::default()
        };
        let flat = link(&v, &p, &flat).expect("links");
        // D3DSHADE_FLAT flattens COLOR0/COLOR1 only (flat has no centroid).
        assert_eq!(at(&flat, c0).map(|a| a.3), Some(Flat));
        assert_eq!(at(&flat, c1).map(|a| a.3), Some(Flat));
        assert_eq!(at(&flat, c2).map(|a| a.3), Some(Perspective));
        assert_eq!(at(&flat, t0).map(|a| a.3), Some(Centroid));
    }

    #[test]
    fn position_and_point_size_never_travel_fog_when_read_or_for_the_fog_stage() {
        let (pos, psize, fog, t0) = (
            sem(Usage::Position, 0),
            sem(Usage::PSize, 0),
            sem(Usage::Fog, 0),
            sem(Usage::TexCoord, 0),
        );
        let v = vs(&[(pos, 4), (psize, 1), (fog, 1), (t0, 4)]);
        let p = ps(&[(pos, 0xF, false), (psize, 0x1, false), (t0, 0xF, false)]);
        let plain = link(&v, &p, &LinkOptions::default()).expect("links");
        assert_eq!(plain.vertex.len(), 1);
        let fog_stage = LinkOptions {
            vertex_fog: true,
            ..LinkOptions::default()
        };
        let fogged = link(&v, &p, &fog_stage).expect("links");
        assert_eq!(at(&fogged, fog), Some((1, 0, 1, Perspective)));
        // A ps_3_0 `dcl_fog` reads it without the fog stage.
        let reads = link(&v, &ps(&[(fog, 0x1, false)]), &LinkOptions::default()).expect("links");
        assert_eq!(at(&reads, fog), Some((0, 0, 1, Perspective)));
        // Vertex fog from a shader that never writes oFog: absent, the fog stage reads FOG's
        // default 0 (fully fogged).
        let none = link(&vs(&[(t0, 4)]), &p, &fog_stage).expect("links");
        assert_eq!(at(&none, fog), None);
        // ... unless it writes all of oD1: COLOR1 travels for the fog stage (its alpha is the
        // factor, as on Windows), FOG does not; a partial oD1 or a written oFog changes that.
        let c1 = sem(Usage::Color, 1);
        let specular = link(&vs(&[(t0, 4), (c1, 4)]), &p, &fog_stage).expect("links");
        assert_eq!(at(&specular, fog), None);
        assert_eq!(at(&specular, c1), Some((1, 0, 4, Perspective)));
        let partial = link(&vs(&[(t0, 4), (c1, 3)]), &p, &fog_stage).expect("links");
        assert_eq!((at(&partial, fog), at(&partial, c1)), (None, None));
        let both = link(&vs(&[(t0, 4), (c1, 4), (fog, 1)]), &p, &fog_stage).expect("links");
        assert_eq!(at(&both, c1), None);
        assert_eq!(at(&both, fog), Some((1, 0, 1, Perspective)));
        let no_fog_stage = link(&vs(&[(t0, 4), (c1, 4)]), &p, &LinkOptions::default());
        assert_eq!(at(&no_fog_stage.expect("links"), c1), None);
    }

    /// 20 semantics of 1–2 components (and two colours) into 16 locations, then 15 for a
    /// point list, then 14 with `vFace`: packed, each location of one interpolation.
    #[test]
    fn more_than_sixteen_semantics_are_packed() {
        let mut outputs = Vec::new();
        let mut inputs = Vec::new();
        for k in 0..20u8 {
            let s = sem(Usage::TexCoord, k);
            outputs.push((s, 1 + k % 2));
            inputs.push((s, 0x3, k % 5 == 0));
        }
        for k in 0..2u8 {
            outputs.push((sem(Usage::Color, k), 4));
            inputs.push((sem(Usage::Color, k), 0xF, false));
        }
        let v = vs(&outputs);
        let mut p = ps(&inputs);
        for options in [
            LinkOptions::default(),
            LinkOptions {
                point_list: true,
                flat_shading: true,
                ..LinkOptions::default()
            },
        ] {
            for face in [false, true] {
                p.reads_face = face;
                let link = link(&v, &p, &options).expect("packs");
                assert_eq!(link.vertex.len(), 22);
                let shapes = location_shapes(&link.vertex).expect("a consistent map");
                assert!(
                    shapes.len() <= varying_limit(&(&p).into(), &options),
                    "{shapes:?}"
                );
                for &(s, n) in &outputs {
                    assert_eq!(at(&link, s).map(|a| a.2), Some(n), "{s}");
                }
                if options.flat_shading {
                    assert_eq!(at(&link, sem(Usage::Color, 0)).map(|a| a.3), Some(Flat));
                }
            }
        }
    }

    #[test]
    fn an_error_only_when_even_packed_they_do_not_fit() {
        // 17 four-component semantics cannot share locations.
        let outputs: Vec<_> = (0..17u8).map(|k| (sem(Usage::TexCoord, k), 4)).collect();
        let inputs: Vec<_> = outputs.iter().map(|&(s, _)| (s, 0xF, false)).collect();
        let err =
            link(&vs(&outputs), &ps(&inputs), &LinkOptions::default()).expect_err("does not fit");
        assert_eq!(
            err,
            LinkError::TooManyVaryings {
                semantics: 17,
                locations: 17,
                limit: 16
            }
        );
        // 16 fit, but not in a point list.
        let sixteen = &outputs[..16];
        let inputs = &inputs[..16];
        assert!(link(&vs(sixteen), &ps(inputs), &LinkOptions::default()).is_ok());
        let points = LinkOptions {
            point_list: true,
            ..LinkOptions::default()
        };
        assert!(matches!(
            link(&vs(sixteen), &ps(inputs), &points),
            Err(LinkError::TooManyVaryings { limit: 15, .. })
        ));
    }

    #[test]
    fn inconsistent_maps_are_refused() {
        let v = |k: u8, location, component, components, interpolation| Varying {
            semantic: sem(Usage::TexCoord, k),
            location,
            component,
            components,
            interpolation,
        };
        let shapes = location_shapes(&[
            v(0, 0, 0, 2, Perspective),
            v(1, 0, 2, 1, Perspective),
            v(2, 3, 0, 1, Flat),
        ])
        .expect("consistent");
        assert_eq!(shapes.get(&0).map(|s| s.components), Some(3));
        assert_eq!(shapes.get(&3).map(|s| s.interpolation), Some(Flat));
        let err = |map: &[Varying]| location_shapes(map).expect_err("inconsistent");
        assert!(matches!(
            err(&[v(0, 0, 0, 2, Perspective), v(1, 0, 1, 2, Perspective)]),
            LinkError::Overlap { location: 0, .. }
        ));
        assert!(matches!(
            err(&[v(0, 0, 0, 2, Perspective), v(1, 0, 2, 2, Centroid)]),
            LinkError::MixedInterpolation { location: 0, .. }
        ));
        assert!(matches!(
            err(&[v(0, 0, 3, 2, Perspective)]),
            LinkError::ComponentRange { .. }
        ));
        assert!(matches!(
            err(&[v(0, 0, 0, 0, Perspective)]),
            LinkError::ComponentRange { .. }
        ));
        assert!(matches!(
            err(&[v(0, 16, 0, 1, Perspective)]),
            LinkError::LocationRange { location: 16, .. }
        ));
        assert!(matches!(
            err(&[v(0, 0, 0, 1, Perspective), v(0, 1, 0, 1, Perspective)]),
            LinkError::DuplicateSemantic { .. }
        ));
    }
}
