//! Linking a vertex shader's outputs to a pixel shader's inputs by semantic (usage, index).
//!
//! [`link`] decides, per draw, which semantics travel between the stages, at which
//! `@location`, in which components and with which interpolation. Both stages are then
//! translated with its maps ([`Link::vertex`] for `VertexShaderOptions::output_locations`,
//! [`Link::pixel`] for `PixelShaderOptions::input_locations`), so they agree exactly as
//! WebGPU requires; [`check_stage_agreement`] verifies that of two translated modules.
//!
//! The convention both stages follow ([`location_shapes`]): the variable at a location is
//! `vecN<f32>` (`f32` for N = 1), N = the largest `component + components` of the varyings
//! sharing it; semantic component `c` travels in the location's component `component + c`
//! (the vertex shader's written components compacted, as DXVK does); components of the
//! location no varying fills are 0; all varyings at one location share its interpolation.

use std::collections::BTreeMap;

use super::interface::{ShaderInterface, Varying, VaryingInterpolation, MAX_INTER_STAGE_VARIABLES};
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

/// Whether a vertex output semantic is an inter-stage variable: not the position (the
/// `@builtin(position)`: POSITION0, and POSITIONT0 in vs_3_0) and not PSIZE (the backend's
/// point expansion reads it; the pixel stage never does).
pub fn is_varying(semantic: Semantic) -> bool {
    let position =
        matches!(semantic.usage, Usage::Position | Usage::PositionT) && semantic.index == 0;
    !position && semantic.usage != Usage::PSize
}

/// Inter-stage variables the pixel stage of this link may use: WebGPU's 16, one fewer for a
/// point list (WebGPU deducts one for point-list pipelines) and one fewer when the pixel
/// shader reads `vFace` (`@builtin(front_facing)` counts against the fragment inputs).
pub fn varying_limit(ps: &ShaderInterface, options: &LinkOptions) -> usize {
    MAX_INTER_STAGE_VARIABLES - usize::from(options.point_list) - usize::from(ps.reads_face)
}

/// Link the outputs of vertex shader `vs` to the inputs of pixel shader `ps`.
///
/// - A pixel input gets the location of the vertex output with the same (usage, index); a
///   vertex output nobody reads is dropped; a pixel input the vertex shader does not write is
///   absent (the pixel shader reads its default, `Semantic::unwritten_value`). Pre-3.0 pixel
///   inputs are COLOR# (`v#`) and TEXCOORD# (`t#`), as their interface states.
/// - The components that travel are what the vertex shader writes
///   ([`VertexOutput::components`](super::interface::VertexOutput::components)), not the
///   pixel shader's `dcl` mask.
/// - Centroid where the pixel shader declares `_centroid`; flat for COLOR0/COLOR1 under
///   [`LinkOptions::flat_shading`]; perspective otherwise.
/// - FOG travels when the pixel shader reads it (ps_3_0 `dcl_fog`) or, with
///   [`LinkOptions::vertex_fog`], for the fixed-function fog stage.
/// - Up to [`varying_limit`] semantics get a location each, in pixel-input order; more are
///   packed several to a location (first fit, widest first, same interpolation only).
pub fn link(
    vs: &ShaderInterface,
    ps: &ShaderInterface,
    options: &LinkOptions,
) -> Result<Link, LinkError> {
    // The semantics the pixel stage reads, once each, with centroid if any read asks for it.
    let mut wanted: Vec<(Semantic, bool)> = Vec::new();
    for input in ps.pixel_inputs.iter().filter(|i| is_varying(i.semantic)) {
        match wanted.iter_mut().find(|(s, _)| *s == input.semantic) {
            Some((_, centroid)) => *centroid |= input.centroid,
            None => wanted.push((input.semantic, input.centroid)),
        }
    }
    let fog = Semantic::new(Usage::Fog, 0);
    if options.vertex_fog && !wanted.iter().any(|(s, _)| *s == fog) {
        wanted.push((fog, false));
    }
    let mut items = Vec::new();
    for (semantic, centroid) in wanted {
        let Some(out) = vs.output(semantic).filter(|o| o.written) else {
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
    let limit = varying_limit(ps, options);
    if items.len() <= limit {
        for (location, v) in (0u32..).zip(items.iter_mut()) {
            v.location = location;
        }
    } else {
        pack(&mut items, limit)?;
    }
    Ok(Link {
        vertex: items.clone(),
        pixel: items,
    })
}

/// Pack `items` into at most `limit` locations: widest first, each into the first location
/// of its interpolation with room left (at the next free component), else a new location.
fn pack(items: &mut [Varying], limit: usize) -> Result<(), LinkError> {
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
