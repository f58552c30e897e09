//! The shader stages a draw runs and their pair: the vertex stage (the shader, or the
//! fixed-function stage where there is none or the declaration is pre-transformed), the pixel
//! stage, the states baked into the code (alpha test, flat shading, point expansion, user clip
//! planes, float32 targets held as bits), and the pair from the bounded cache.

use std::sync::Arc;

use d3d9_translator::bytecode::{Stage, TextureType, VertexProcessing};
use d3d9_translator::check::{check, DeviceCaps};
use d3d9_translator::decl::{StreamFrequency, StreamSource, VertexDeclaration};
use d3d9_translator::lift::CompareFunction;

use super::super::error::{invalid, unsupported, DeviceError};
use super::super::fixed_function::FogState;
use super::super::objects::ShaderObject;
use super::super::pairing::{build_pair, PairInputs, PairKey, PixelStage, ShaderPair, VertexStage};
use super::super::prebuild::TakenPair;
use super::super::range::DrawRange;
use super::super::state::{FillMode, ShadeMode};
use super::super::{Device, PrimitiveType};
use crate::device::TextureKind;

/// The draw's shader pair, with the declaration it was paired for.
pub(super) struct DrawPair {
    pub(super) declaration: Arc<VertexDeclaration>,
    pub(super) pair: Arc<ShaderPair>,
    /// Point lists drawn as quads (see `points`).
    pub(super) expands_points: bool,
}

/// The vertex and pixel stages of a draw, and the shaders they run.
struct ShaderStages {
    /// The vertex stage skips the shader (a pre-transformed declaration).
    pretransformed: bool,
    vertex_shader: Option<ShaderObject>,
    vertex: VertexStage,
    pixel_shader: Option<ShaderObject>,
    pixel: PixelStage,
}

impl Device {
    /// The shader pair of a draw of `primitive` over `range` reading `streams`, from the cache
    /// or built.
    pub(super) fn shader_pair(
        &mut self,
        call: &'static str,
        primitive: PrimitiveType,
        range: &DrawRange,
        streams: &[StreamSource],
    ) -> Result<DrawPair, DeviceError> {
        let declaration_id = self
            .state
            .declaration
            .ok_or_else(|| invalid(call, "no vertex declaration or FVF is set"))?;
        let declaration = self
            .declarations
            .get(&declaration_id)
            .cloned()
            .ok_or_else(|| invalid(call, "the vertex declaration was released"))?;
        let render = self.state.render;
        let point_list = primitive == PrimitiveType::PointList;
        let stages = self.shader_stages(call, &declaration)?;
        // D3DFILL_POINT draws the vertices of triangles as one-pixel points (`POLYGON_MODE_POINT`,
        // see `primitives`); points D3D9 would draw larger are refused.
        if render.fill == FillMode::Point && !point_list {
            let sized = self
                .point_expansion(
                    call,
                    PrimitiveType::PointList,
                    stages.vertex_shader.as_deref(),
                    &declaration,
                    range,
                )
                .map_or(true, |p| p.is_some());
            if sized {
                return Err(unsupported(
                    call,
                    "D3DFILL_POINT with a point size other than 1, point scaling or point sprites (a filled primitive's points are drawn one pixel wide)",
                ));
            }
        }
        // Both stages read D3DRS_ALPHAREF from a uniform.
        let alpha_test = self
            .alpha_test_enabled()
            .then_some((render.alpha_func, None));
        let vertex_sampler_reads = match stages.vertex {
            VertexStage::Shader(_) => self.vertex_sampler_reads(),
            VertexStage::FixedFunction(_) => Vec::new(),
        };
        let key = PairKey {
            bitcast: self.bitcast_target(call)?,
            declaration: declaration_id,
            vertex: stages.vertex,
            pixel: stages.pixel,
            flat: render.shade == ShadeMode::Flat,
            point_list,
            points: self.point_expansion(
                call,
                primitive,
                stages.vertex_shader.as_deref(),
                &declaration,
                range,
            )?,
            alpha_test: alpha_test.filter(|(f, _)| *f != CompareFunction::Always),
            alpha_test_float_target: alpha_test.is_some()
                && self.state.pixel_shader.is_some()
                && self.state.render_targets[0]
                    .and_then(|id| self.surfaces.get(&id))
                    .is_some_and(|s| s.format.is_float()),
            clip_planes: self.clips_user_planes(call, stages.pretransformed)?,
            processing: self.binding_processing(),
            vertex_sampler_reads,
            texture_wrap: render.texture_wrap,
            // Instances, or data read at the instance index (which the first instance
            // would move): `c#` is a binding of its own then.
            instanced: self.instance_count(range) > 1
                || streams
                    .iter()
                    .any(|s| s.frequency != StreamFrequency::Vertex),
        };
        let pair_id = self.next_pair_id();
        let device = self.gpu.device.clone();
        let params = &self.params;
        // Every vertex stage has the position fix-up: the half-pixel offset where the viewport
        // cannot carry it (GL), and the depth bias (`depth_bias_offset`).
        let position_fixup = true;
        let (vertex_shader, pixel_shader) = (stages.vertex_shader, stages.pixel_shader);
        let mut needs_software = false;
        let prebuilt = &mut self.prebuild;
        let pair = self.pairs.get_or_try_insert(&key, || {
            // Only software vertex processing runs a shader past the hardware limits (a
            // mixed device accepts it at creation): checked at each miss, as a refused draw
            // caches no pair.
            if let Some(vs) = vertex_shader.as_deref().filter(|_| {
                params.processing == VertexProcessing::Mixed
                    && key.processing == VertexProcessing::Hardware
            }) {
                let hardware = DeviceCaps {
                    vertex_processing: VertexProcessing::Hardware,
                    ..params.caps
                };
                if check(vs.program(), Stage::Vertex, &hardware).is_err() {
                    needs_software = true;
                    return Err(invalid(
                        call,
                        "the vertex shader needs software vertex processing (its registers pass the hardware limits); Windows refuses this draw and draws the next hardware ones without it",
                    ));
                }
            }
            let follow = match prebuilt.take_pair(&key) {
                TakenPair::Built(pair) => return Ok(pair),
                TakenPair::Back(pipelines) => pipelines,
                TakenPair::Missing => Vec::new(),
            };
            let mut pair = build_pair(
                &device,
                pair_id,
                &key,
                PairInputs {
                    params,
                    declaration: declaration.clone(),
                    vertex_shader: vertex_shader.clone(),
                    pixel_shader: pixel_shader.clone(),
                    streams: streams.to_vec(),
                    position_fixup,
                },
            )?;
            pair.record = prebuilt.pair_record(&key, streams);
            let pair = Arc::new(pair);
            if !follow.is_empty() {
                prebuilt.build_pipelines(&pair, follow);
            }
            Ok(pair)
        });
        // Windows then draws as if no vertex shader were set while processing stays in
        // hardware, and runs the shader under software processing (Wine's
        // test_mvp_software_vertex_shaders: the next hardware draw gives the vertex colour,
        // the software one the shader's).
        if needs_software {
            self.state.hardware_refused = self.state.vertex_shader;
        }
        let pair = pair?;
        Ok(DrawPair {
            declaration,
            pair,
            expands_points: key.points.is_some(),
        })
    }

    /// The vertex and pixel stages the state selects for a draw with `declaration`.
    fn shader_stages(
        &self,
        call: &'static str,
        declaration: &VertexDeclaration,
    ) -> Result<ShaderStages, DeviceError> {
        let render = self.state.render;
        let fog = FogState::of(&render, self.state.transforms.w_fog());
        // The vertex stage: the shader, unless the declaration is pre-transformed (D3D9 then
        // skips it, as Wine's `use_vs` does) or there is none.
        let pretransformed = declaration.is_pretransformed();
        let shader = self.state.vertex_shader.filter(|&id| {
            self.state.software_processing || self.state.hardware_refused != Some(id)
        });
        let vertex_shader = match (shader, pretransformed) {
            (Some(id), false) => Some(
                self.vertex_shaders
                    .get(&id)
                    .cloned()
                    .ok_or_else(|| invalid(call, "the vertex shader was released"))?,
            ),
            _ => None,
        };
        let vertex = match (shader, pretransformed) {
            (Some(id), false) => VertexStage::Shader(id),
            _ => VertexStage::FixedFunction(self.fixed_function_vertex_state(declaration, &fog)?),
        };
        let pixel_shader = match self.state.pixel_shader {
            Some(id) => Some(
                self.pixel_shaders
                    .get(&id)
                    .cloned()
                    .ok_or_else(|| invalid(call, "the pixel shader was released"))?,
            ),
            None => None,
        };
        let pixel = match (self.state.pixel_shader, &pixel_shader) {
            (Some(id), Some(ps)) => PixelStage::Shader {
                id,
                fog: render
                    .fog_enable
                    .then_some((render.fog_table_mode, fog.from_w)),
                texture_types: self.bound_texture_types(ps.program().version.major),
                ps1_texture_transform_flags: if ps.program().version.major < 2 {
                    (0..4u32)
                        .map(|stage| self.texture_stage_state_raw(stage, 24).unwrap_or(0))
                        .collect()
                } else {
                    Vec::new()
                },
                sampler_reads: self.sampler_reads(),
                sampler_fixups: self.sampler_fixups(),
            },
            _ => PixelStage::FixedFunction(self.fixed_function_pixel_key(&fog)?),
        };
        Ok(ShaderStages {
            pretransformed,
            vertex_shader,
            vertex,
            pixel_shader,
            pixel,
        })
    }

    /// Whether the fragment stage writes the bits of a float32 target held in a u32 format.
    fn bitcast_target(&self, call: &'static str) -> Result<bool, DeviceError> {
        // A float32 target held as bits: the fragment stage writes the bits (render target 0
        // only, as `bitcast` rewrites location 0).
        let mut bitcast = false;
        for (index, id) in self.state.render_targets.iter().enumerate() {
            if id
                .and_then(|id| self.surfaces.get(&id))
                .is_some_and(|s| s.holds_bits())
            {
                if index != 0 {
                    return Err(unsupported(
                        call,
                        "a float32 render target other than 0 on an adapter that cannot render float32",
                    ));
                }
                bitcast = true;
            }
        }
        Ok(bitcast)
    }

    /// Pair ids share the handle counter, so they never repeat.
    fn next_pair_id(&mut self) -> u64 {
        self.next_id()
    }

    /// The types of the textures bound to a pixel shader's samplers
    /// (`PixelShaderOptions::texture_types`): ps_1_x's six stages take theirs from them; from
    /// ps_2_0 on only a volume matters (read as one on a `dcl_2d` sampler), the list ending at
    /// the last.
    fn bound_texture_types(&self, major: u8) -> Vec<TextureType> {
        if major < 2 {
            return (0..6).map(|slot| self.texture_type_at(slot)).collect();
        }
        let volume = |slot: &usize| self.texture_type_at(*slot) == TextureType::Volume;
        let Some(last) = (0..super::super::VERTEX_SAMPLER_BASE).rev().find(volume) else {
            return Vec::new();
        };
        (0..=last)
            .map(|slot| match volume(&slot) {
                true => TextureType::Volume,
                false => TextureType::TwoD,
            })
            .collect()
    }

    /// The texture type of the texture on sampler slot `slot` (2D when none).
    fn texture_type_at(&self, slot: usize) -> TextureType {
        match self.state.textures[slot].and_then(|id| self.textures.get(&id)) {
            Some(t) => match t.kind {
                TextureKind::TwoD => TextureType::TwoD,
                TextureKind::Cube => TextureType::Cube,
                TextureKind::Volume => TextureType::Volume,
            },
            None => TextureType::TwoD,
        }
    }
}
