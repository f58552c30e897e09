//! Draws: `DrawPrimitive`, `DrawIndexedPrimitive` and their `UP` forms. Each draw checks the
//! state as D3D9's runtime does (`D3DERR_INVALIDCALL` for what it refuses), finds its shader
//! pair and pipeline in the bounded caches, builds or reuses its bind groups (constants are
//! uploaded only when they changed), and records one render pass on the pending command
//! encoder; [`Device::flush`] or a read-back submits it.

use std::sync::Arc;

use d3d9_translator::bytecode::TextureType;
use d3d9_translator::decl::{StreamFrequency, StreamSource};
use d3d9_translator::lift::interface::alpha_ref_data;
use d3d9_translator::lift::interface::{BUMP_ENV_STAGES, HW_FLOAT_CONSTANTS};
use d3d9_translator::lift::{CompareFunction, FogConstants};

use super::clip::{clip_plane_buffer, clip_planes_key};
use super::error::{invalid, unsupported, DeviceError};
use super::fixed_function::FogState;
use super::objects::{BufferObject, IndexFormat, TextureId};
use super::pairing::{build_pair, PairInputs, PairKey, PixelStage, ShaderPair, VertexStage};
use super::points::{point_constant_buffer, point_constants_key, PointQuads};
use super::range::{read_indices, user_index_range, DrawRange};
use super::state::{FillMode, ShadeMode};
use super::{Device, DeviceState, PrimitiveType, Stream, MAX_STREAMS};
use crate::{
    ConstantBuffer, CullMode, Indices, MipFilter, TextureAddress, TextureFilter, TextureKind,
};

/// What makes a pipeline: the pair, the vertex buffer layouts, the primitive, blend, write
/// masks and depth-stencil state, target formats, and per sampled texture whether its
/// format filters.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PipelineKey {
    pair: u64,
    streams: Vec<(u16, u64, wgpu::VertexStepMode)>,
    primitive: wgpu::PrimitiveState,
    targets: Vec<Option<wgpu::ColorTargetState>>,
    depth_stencil: Option<wgpu::DepthStencilState>,
    filterable: Vec<bool>,
}

/// A built pipeline and its bind group layouts.
pub(crate) struct PipelineEntry {
    pipeline: wgpu::RenderPipeline,
    layouts: Vec<wgpu::BindGroupLayout>,
    /// Bind groups of the groups the pipeline does not use.
    empty_groups: Vec<Option<wgpu::BindGroup>>,
    /// The groups of the vertex and pixel constants, where the stages have some.
    vs_constants: Option<u32>,
    ps_constants: Option<u32>,
    /// Whether a target's blending reads the blend constant (`D3DBLEND_BLENDFACTOR`).
    uses_blend_constant: bool,
}

/// What a bind group holds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum BindGroupKey {
    /// The vertex constants of a pair at a version (of the `c#`/`i#`/`b#`, or for the
    /// fixed-function stage of the transforms), for a viewport size (the half-pixel fix-up).
    VertexConstants {
        pair: u64,
        version: u64,
        viewport: (u32, u32),
        /// The point render states, with point expansion (bits).
        points: Option<[u32; 12]>,
        /// The clip-space user clip planes, where the vertex stage clips (bits).
        clip: Option<[u32; 24]>,
    },
    /// The pixel constants of a pair at a version, with the fog and alpha-test states.
    PixelConstants {
        pair: u64,
        version: u64,
        fog: super::fixed_function::FogKey,
        alpha_ref: u32,
    },
    /// The textures and samplers of one group of a pair.
    Textures {
        pair: u64,
        group: u32,
        bound: Vec<(Option<TextureId>, SamplerKey)>,
    },
}

/// A wgpu sampler's description, from D3D9 sampler states.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct SamplerKey {
    address: [TextureAddress; 3],
    border: Option<wgpu::SamplerBorderColor>,
    mag: TextureFilter,
    min: TextureFilter,
    mip: MipFilter,
    max_mip_level: u32,
    filtering: bool,
    max_anisotropy: u32,
}

/// One draw, resolved: what [`Device::encode`] records as its render pass.
#[derive(Clone)]
pub(crate) struct PassRecipe {
    label: &'static str,
    color_views: Vec<Option<wgpu::TextureView>>,
    depth: Option<(wgpu::TextureView, wgpu::TextureFormat)>,
    pipeline: Arc<PipelineEntry>,
    groups: Vec<Option<wgpu::BindGroup>>,
    vertex_buffers: Vec<(wgpu::Buffer, u64)>,
    /// x, y, width, height, MinZ, MaxZ; `None` for the whole target with depth 0..1.
    viewport: Option<[f32; 6]>,
    /// Targets drawn through stand-ins of a larger depth-stencil surface's size.
    standins: Vec<super::standin::StandIn>,
    /// `None` for the whole target.
    scissor: Option<(u32, u32, u32, u32)>,
    /// `D3DRS_BLENDFACTOR`, where the pipeline's blending reads it.
    blend_constant: Option<wgpu::Color>,
    stencil_reference: u32,
    index: Option<IndexSource>,
    index_range: std::ops::Range<u32>,
    base_vertex: i32,
    instances: std::ops::Range<u32>,
}

/// The last draw, kept while nothing it read has changed: the same call with the same
/// primitive type and range, at the same versions of the state and the object tables
/// (`versioned`), records the same pass, so it skips pairing, the caches and validation.
/// Only draws that record nothing draw-specific besides the pass are kept: not `UP` draws,
/// expanded points, generated indices (fans, GL flat shading) or one-slice volume copies.
pub(crate) struct DrawMemo {
    call: &'static str,
    primitive: PrimitiveType,
    range: DrawRange,
    versions: [u64; 8],
    recipe: PassRecipe,
}

impl DrawMemo {
    fn matches(
        &self,
        call: &'static str,
        primitive: PrimitiveType,
        range: DrawRange,
        versions: [u64; 8],
    ) -> bool {
        self.call == call
            && self.primitive == primitive
            && self.range == range
            && self.versions == versions
    }
}

/// The draw's source of vertices for stream 0 of an `UP` draw.
struct UserData {
    buffer: wgpu::Buffer,
    size: u64,
    stride: u32,
    /// The vertices, kept for indexed point lists (de-indexed on the CPU, see `points`).
    bytes: Option<Vec<u8>>,
}

/// Indices a draw is issued with.
#[derive(Clone)]
enum IndexSource {
    /// The bound index buffer.
    Bound(wgpu::Buffer, wgpu::IndexFormat),
    /// Generated (fans, GL flat-shading reorders, UP draws): 32-bit, base vertex applied by
    /// the draw.
    Generated(wgpu::Buffer),
}

impl Device {
    /// `DrawPrimitive(primitive, start_vertex, primitive_count)`.
    pub fn draw_primitive(
        &mut self,
        primitive: PrimitiveType,
        start_vertex: u32,
        primitive_count: u32,
    ) -> Result<(), DeviceError> {
        self.draw(
            "DrawPrimitive",
            primitive,
            DrawRange::Vertices {
                start: start_vertex,
                count: primitive_count,
            },
            None,
            None,
        )
    }

    /// `DrawIndexedPrimitive(primitive, base_vertex_index, min_vertex_index, num_vertices,
    /// start_index, primitive_count)`: indices `start_index ..` of the bound index buffer,
    /// each plus `base_vertex_index`; the vertices `base + min .. base + min + num` must lie
    /// within every stream's buffer (an index outside that range reads what wgpu's robust
    /// buffer access gives, never memory outside the buffer).
    pub fn draw_indexed_primitive(
        &mut self,
        primitive: PrimitiveType,
        base_vertex_index: i32,
        min_vertex_index: u32,
        num_vertices: u32,
        start_index: u32,
        primitive_count: u32,
    ) -> Result<(), DeviceError> {
        self.draw(
            "DrawIndexedPrimitive",
            primitive,
            DrawRange::Indexed {
                base_vertex: base_vertex_index,
                min_index: min_vertex_index,
                num_vertices,
                start_index,
                count: primitive_count,
            },
            None,
            None,
        )
    }

    /// `DrawPrimitiveUP(primitive, primitive_count, data, stride)`: the vertices come from
    /// `data` as stream 0. As in D3D9, stream 0 is unset afterwards.
    pub fn draw_primitive_up(
        &mut self,
        primitive: PrimitiveType,
        primitive_count: u32,
        data: &[u8],
        stride: u32,
    ) -> Result<(), DeviceError> {
        let call = "DrawPrimitiveUP";
        let user = self.user_data(call, data, stride)?;
        let result = self.draw(
            call,
            primitive,
            DrawRange::Vertices {
                start: 0,
                count: primitive_count,
            },
            Some(user),
            None,
        );
        self.state.streams[0] = Stream::default();
        result
    }

    /// `DrawIndexedPrimitiveUP(primitive, min_index, num_vertices, primitive_count, indices,
    /// vertices, stride)`. As in D3D9, stream 0 and the index buffer are unset afterwards.
    #[allow(clippy::too_many_arguments)]
    pub fn draw_indexed_primitive_up(
        &mut self,
        primitive: PrimitiveType,
        min_vertex_index: u32,
        num_vertices: u32,
        primitive_count: u32,
        indices: Indices<'_>,
        vertices: &[u8],
        stride: u32,
    ) -> Result<(), DeviceError> {
        let call = "DrawIndexedPrimitiveUP";
        let mut user = self.user_data(call, vertices, stride)?;
        if primitive == PrimitiveType::PointList {
            user.bytes = Some(vertices.to_vec());
        }
        let indices: Vec<u32> = match indices {
            Indices::U16(i) => i.iter().map(|&v| u32::from(v)).collect(),
            Indices::U32(i) => i.to_vec(),
        };
        let result = self.draw(
            call,
            primitive,
            DrawRange::Indexed {
                base_vertex: 0,
                min_index: min_vertex_index,
                num_vertices,
                start_index: 0,
                count: primitive_count,
            },
            Some(user),
            Some(indices),
        );
        self.state.streams[0] = Stream::default();
        self.state.indices = None;
        result
    }

    fn user_data(
        &self,
        call: &'static str,
        data: &[u8],
        stride: u32,
    ) -> Result<UserData, DeviceError> {
        if stride == 0 {
            return Err(invalid(call, "a vertex stride of 0"));
        }
        if data.is_empty() {
            return Err(invalid(call, "no vertex data"));
        }
        Ok(UserData {
            buffer: self.gpu.init_buffer(data, wgpu::BufferUsages::VERTEX),
            size: data.len() as u64,
            stride,
            bytes: None,
        })
    }

    /// The stream sources as the declaration binding reads them.
    fn stream_sources(&self, user: Option<&UserData>) -> Vec<StreamSource> {
        (0..MAX_STREAMS)
            .map(|n| match (n, user) {
                (0, Some(u)) => StreamSource {
                    stride: u.stride,
                    frequency: StreamFrequency::Vertex,
                },
                // A stream with no vertex buffer (any but stream 0 in a UP draw) reads zeros:
                // one zero vertex for every vertex (stride 0, see `record`).
                (_, Some(_)) => StreamSource {
                    stride: 0,
                    frequency: StreamFrequency::Vertex,
                },
                _ => {
                    let s = &self.state.streams[n];
                    StreamSource {
                        stride: if s.buffer.is_some() { s.stride } else { 0 },
                        frequency: s.frequency,
                    }
                }
            })
            .collect()
    }

    fn draw(
        &mut self,
        call: &'static str,
        primitive: PrimitiveType,
        range: DrawRange,
        user: Option<UserData>,
        user_indices: Option<Vec<u32>>,
    ) -> Result<(), DeviceError> {
        let count = match range {
            DrawRange::Vertices { count, .. } | DrawRange::Indexed { count, .. } => count,
        };
        if count == 0 {
            return Ok(());
        }
        if let Some(memo) = self.memo.take() {
            if user.is_none() && memo.matches(call, primitive, range, self.versions()) {
                // A hit in both caches, answered without a lookup. The entries' recency
                // needs no update: the memo's draw was the last to use any entry.
                self.pairs.count_hit();
                self.pipelines.count_hit();
                self.memo_hits += 1;
                self.encode(&memo.recipe);
                self.memo = Some(memo);
                return Ok(());
            }
        }
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
        if render.fill == FillMode::Point {
            return Err(unsupported(
                call,
                "D3DFILL_POINT (wgpu has no point fill mode)",
            ));
        }
        let point_list = primitive == PrimitiveType::PointList;
        let fog = FogState::of(&render, self.state.transforms.w_fog());
        // The vertex stage: the shader, unless the declaration is pre-transformed (D3D9 then
        // skips it, as Wine's `use_vs` does) or there is none.
        let pretransformed = declaration.is_pretransformed();
        let vertex_shader = match (self.state.vertex_shader, pretransformed) {
            (Some(id), false) => Some(
                self.vertex_shaders
                    .get(&id)
                    .cloned()
                    .ok_or_else(|| invalid(call, "the vertex shader was released"))?,
            ),
            _ => None,
        };
        let vertex_stage = match (self.state.vertex_shader, pretransformed) {
            (Some(id), false) => VertexStage::Shader(id),
            _ => VertexStage::FixedFunction(self.fixed_function_vertex_key(&declaration, &fog)?),
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
        let pixel_stage = match (self.state.pixel_shader, &pixel_shader) {
            (Some(id), Some(ps)) => PixelStage::Shader {
                id,
                fog: render
                    .fog_enable
                    .then_some((render.fog_table_mode, fog.from_w)),
                ps1_texture_types: if ps.program().version.major < 2 {
                    (0..6).map(|slot| self.texture_type_at(slot)).collect()
                } else {
                    Vec::new()
                },
                ps1_texture_transform_flags: if ps.program().version.major < 2 {
                    (0..4u32)
                        .map(|stage| self.texture_stage_state_raw(stage, 24).unwrap_or(0))
                        .collect()
                } else {
                    Vec::new()
                },
            },
            _ => PixelStage::FixedFunction(self.fixed_function_pixel_key(&fog)?),
        };
        // Both stages read D3DRS_ALPHAREF from a uniform.
        let alpha_test = render.alpha_test.then_some((render.alpha_func, None));
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
        let key = PairKey {
            bitcast,
            declaration: declaration_id,
            vertex: vertex_stage,
            pixel: pixel_stage,
            flat: render.shade == ShadeMode::Flat,
            point_list,
            points: self.point_expansion(
                call,
                primitive,
                vertex_shader.as_deref(),
                &declaration,
                &range,
            )?,
            alpha_test: alpha_test.filter(|(f, _)| *f != CompareFunction::Always),
            alpha_test_float_target: alpha_test.is_some()
                && self.state.pixel_shader.is_some()
                && self.state.render_targets[0]
                    .and_then(|id| self.surfaces.get(&id))
                    .is_some_and(|s| s.format.is_float()),
            clip_planes: self.clips_user_planes(call, pretransformed)?,
            processing: self.binding_processing(),
        };
        let streams = self.stream_sources(user.as_ref());
        let pair_id = self.next_pair_id();
        let device = self.gpu.device.clone();
        let params = &self.params;
        let position_fixup = !self.half_pixel_in_viewport;
        let pair = self.pairs.get_or_try_insert(&key, || {
            build_pair(
                &device,
                pair_id,
                &key,
                PairInputs {
                    params,
                    declaration: declaration.clone(),
                    vertex_shader: vertex_shader.clone(),
                    pixel_shader: pixel_shader.clone(),
                    streams: streams.clone(),
                    position_fixup,
                },
            )
            .map(Arc::new)
        })?;
        // Points drawn as quads: instances, de-indexed if need be (see `points`).
        let (range, quads) = match key.points {
            Some(_) => {
                let user_bytes = user
                    .as_ref()
                    .and_then(|u| u.bytes.as_deref().map(|b| (b, u.stride)));
                let (range, quads) = self.point_quads(
                    call,
                    range,
                    &declaration,
                    user_bytes,
                    user_indices.as_deref(),
                )?;
                (range, Some(quads))
            }
            None => (range, None),
        };
        self.record(
            call,
            primitive,
            range,
            &pair,
            &streams,
            user,
            user_indices,
            quads.as_ref(),
        )
    }

    /// Pair ids share the handle counter, so they never repeat.
    fn next_pair_id(&mut self) -> u64 {
        self.next_id()
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

    #[allow(clippy::too_many_arguments)]
    fn record(
        &mut self,
        call: &'static str,
        primitive: PrimitiveType,
        range: DrawRange,
        pair: &Arc<ShaderPair>,
        streams: &[StreamSource],
        user: Option<UserData>,
        user_indices: Option<Vec<u32>>,
        points: Option<&PointQuads>,
    ) -> Result<(), DeviceError> {
        if let Some(why) = self
            .state
            .raw
            .refusal(|slot| pair.textures.iter().any(|t| t.slot == slot))
        {
            return Err(unsupported(call, why.to_string()));
        }
        let render = self.state.render;
        for target in self.state.render_targets.into_iter().flatten() {
            self.upload_container(target);
        }
        // Render targets and their formats.
        let mut color_views = Vec::new();
        let mut targets = Vec::new();
        let mut size = None;
        for (index, rt) in self.state.render_targets.iter().enumerate() {
            let Some(id) = rt else {
                color_views.push(None);
                targets.push(None);
                continue;
            };
            // One surface cannot be two attachments of a pass (D3D9 leaves it undefined).
            if self.state.render_targets[..index].contains(rt) {
                return Err(invalid(
                    call,
                    format!("render target {index} is also an earlier render target"),
                ));
            }
            let surface = self
                .surfaces
                .get(id)
                .ok_or_else(|| invalid(call, format!("render target {index} was released")))?;
            match size {
                None => size = Some((surface.width, surface.height)),
                Some(s) if s != (surface.width, surface.height) => {
                    return Err(invalid(
                        call,
                        format!("render target {index} is not the size of render target 0"),
                    ))
                }
                Some(_) => {}
            }
            let surface = surface
                .gpu
                .as_ref()
                .ok_or_else(|| invalid(call, format!("render target {index} is not on the GPU")))?;
            let writes = pair.color_outputs.contains(&(index as u32));
            color_views.push(Some(surface.view.clone()));
            targets.push(Some(wgpu::ColorTargetState {
                format: surface.wgpu_format,
                blend: render
                    .blend()
                    .filter(|_| blendable(surface.wgpu_format, self.gpu.device.features())),
                write_mask: if writes {
                    render.write_mask(index)
                } else {
                    wgpu::ColorWrites::empty()
                },
            }));
        }
        while targets.last().is_some_and(Option::is_none) {
            targets.pop();
            color_views.pop();
        }
        let (width, height) = size.ok_or_else(|| invalid(call, "no render target"))?;
        let mut standins = Vec::new();
        let depth = match self.state.depth_stencil {
            Some(id) => {
                let s = self
                    .surfaces
                    .get(&id)
                    .ok_or_else(|| invalid(call, "the depth-stencil surface was released"))?;
                let smaller = s.width < width || s.height < height;
                if smaller && (render.z_enable || render.stencil_enable) {
                    return Err(invalid(
                        call,
                        "the depth-stencil surface is smaller than the render target",
                    ));
                }
                let larger = (s.width, s.height) != (width, height);
                let ds_size = (s.width, s.height);
                let s = s
                    .gpu
                    .as_ref()
                    .ok_or_else(|| invalid(call, "the depth-stencil surface is not on the GPU"))?;
                let depth = (s.view.clone(), s.wgpu_format);
                if smaller {
                    // Windows draws with a smaller depth-stencil surface while the depth
                    // and stencil tests are off (Wine's ds_size_test): without it.
                    None
                } else if larger {
                    // D3D9 uses the part of a larger depth-stencil surface under the
                    // targets; WebGPU's attachments must match: the pass draws into stand-ins
                    // of the depth-stencil surface's size (`standin`).
                    standins = self.standins(call, ds_size, (width, height), &mut color_views)?;
                    Some(depth)
                } else {
                    Some(depth)
                }
            }
            None => None,
        };
        // The vertex buffers: the binding's layouts, the stream buffers and the ranges.
        // The binding depends on the pair and the stream strides and frequencies only: cached.
        let processing = self.binding_processing();
        let binding =
            self.bindings
                .get_or_try_insert(&(pair.id, processing, streams.to_vec()), || {
                    d3d9_translator::decl::bind_program(
                        &pair.declaration,
                        pair.vertex_program.program(),
                        streams,
                        processing,
                    )
                    .map(Arc::new)
                    .map_err(|source| DeviceError::Bind { call, source })
                })?;
        let binding = if points.is_some() {
            // Every corner of a point's quad reads the point's vertex.
            let mut b = (*binding).clone();
            for s in &mut b.streams {
                s.step_mode = wgpu::VertexStepMode::Instance;
            }
            Arc::new(b)
        } else {
            binding
        };
        let layouts: Vec<(u16, u64, wgpu::VertexStepMode)> = binding
            .streams
            .iter()
            .map(|s| (s.stream, s.array_stride, s.step_mode))
            .collect();
        let instances = self.instance_count(&range);
        let (first_vertex, vertex_count) = match range {
            DrawRange::Vertices { start, count } => {
                let n = primitive.vertex_count(count);
                (i64::from(start), n)
            }
            DrawRange::Indexed {
                base_vertex,
                min_index,
                num_vertices,
                ..
            } => (
                i64::from(base_vertex) + i64::from(min_index),
                u64::from(num_vertices),
            ),
        };
        let mut vertex_buffers = Vec::new();
        for stream in &binding.streams {
            let n = stream.stream as usize;
            // A declaration element on a stream with no vertex buffer (a UP draw's streams
            // past 0 too) reads zeros, as on Windows (Wine's test_default_diffuse and
            // test_color_vertex): a zero vertex read with stride 0.
            let unbound = match &user {
                Some(_) => n != 0,
                None => self.state.streams[n].buffer.is_none(),
            };
            if unbound {
                let element_end = stream
                    .attributes
                    .iter()
                    .map(|a| a.offset + a.format.size())
                    .max()
                    .unwrap_or(0)
                    .max(4);
                let zeros = vec![0u8; element_end as usize];
                let buffer = self.gpu.init_buffer(&zeros, wgpu::BufferUsages::VERTEX);
                vertex_buffers.push((buffer, 0));
                continue;
            }
            let (buffer, offset, size) = match (&user, n) {
                (Some(u), _) => (u.buffer.clone(), 0u64, u.size),
                (None, _) => {
                    let s = &self.state.streams[n];
                    let id = s.buffer.ok_or_else(|| {
                        invalid(
                            call,
                            format!(
                                "the declaration reads stream {n}, which has no vertex buffer set"
                            ),
                        )
                    })?;
                    let b = self.vertex_buffers.get(&id).ok_or_else(|| {
                        invalid(call, format!("stream {n}'s vertex buffer was released"))
                    })?;
                    (b.buffer.clone(), u64::from(s.offset), b.size())
                }
            };
            let (buffer, offset, size) = match points.and_then(|p| p.stream(n)) {
                Some((b, size)) => (b, 0, size),
                None => (buffer, offset, size),
            };
            if stream.array_stride == 0 && user.is_none() {
                return Err(invalid(call, format!("stream {n} has a stride of 0")));
            }
            // The bytes the draw reads: the last vertex (or instance) plus its elements.
            let element_end = stream
                .attributes
                .iter()
                .map(|a| a.offset + a.format.size())
                .max()
                .unwrap_or(0);
            let (first, count) = match stream.step_mode {
                wgpu::VertexStepMode::Vertex => (first_vertex, vertex_count),
                wgpu::VertexStepMode::Instance if points.is_some() => (first_vertex, vertex_count),
                wgpu::VertexStepMode::Instance => (0, u64::from(instances)),
            };
            if first < 0 {
                return Err(invalid(call, format!("a negative first vertex ({first})")));
            }
            let needed = u64::try_from(first)
                .ok()
                .and_then(|f| f.checked_add(count.saturating_sub(1)))
                .and_then(|last| last.checked_mul(stream.array_stride))
                .and_then(|b| b.checked_add(element_end))
                .and_then(|b| b.checked_add(offset));
            match needed {
                Some(n) if n <= size && count > 0 => {}
                _ => {
                    return Err(invalid(
                        call,
                        format!(
                            "vertices {first}..{first}+{count} of stream {n} (stride {}, offset {offset}) lie past the end of its {size}-byte buffer",
                            stream.array_stride
                        ),
                    ))
                }
            }
            // Expanded points draw instances 0.. from the first point's vertex.
            let offset = match points {
                Some(_) => offset + first.unsigned_abs() * stream.array_stride,
                None => offset,
            };
            vertex_buffers.push((buffer, offset));
        }
        // Indices: the bound buffer, or generated ones (UP, fans, GL flat shading).
        let gl_flat =
            pair.flat && self.gpu.adapter_info().backend == wgpu::Backend::Gl && points.is_none();
        let mut topology = topology(primitive);
        let (index_source, index_range, base_vertex) = match range {
            DrawRange::Vertices { start, count } => {
                let n = primitive.vertex_count(count);
                let generated = if primitive == PrimitiveType::TriangleFan || gl_flat {
                    let list: Vec<u32> = (0..n).map(|i| i as u32).collect();
                    Some(list)
                } else {
                    None
                };
                match generated {
                    None => (None, 0..n as u32, i32::try_from(start).unwrap_or(i32::MAX)),
                    Some(list) => {
                        let (t, list) = self.arrange(primitive, &list, gl_flat);
                        topology = t;
                        let len = list.len() as u32;
                        let buffer = self
                            .gpu
                            .init_buffer(bytemuck::cast_slice(&list), wgpu::BufferUsages::INDEX);
                        (
                            Some(IndexSource::Generated(buffer)),
                            0..len,
                            i32::try_from(start).unwrap_or(i32::MAX),
                        )
                    }
                }
            }
            DrawRange::Indexed {
                base_vertex,
                start_index,
                count,
                ..
            } => {
                let n = primitive.vertex_count(count);
                let source: Option<Vec<u32>> = match &user_indices {
                    Some(list) => Some(user_index_range(call, list, start_index, n)?),
                    None => None,
                };
                let bound = match &source {
                    Some(_) => None,
                    None => Some(self.bound_indices(call, start_index, n)?),
                };
                let needs_cpu =
                    primitive == PrimitiveType::TriangleFan || gl_flat || source.is_some();
                if needs_cpu {
                    let list = match (source, bound) {
                        (Some(list), _) => list,
                        (None, Some((b, format))) => {
                            read_indices(&b.shadow, format, start_index, n)
                        }
                        (None, None) => Vec::new(),
                    };
                    let (t, list) = self.arrange(primitive, &list, gl_flat);
                    topology = t;
                    let len = list.len() as u32;
                    let buffer = self
                        .gpu
                        .init_buffer(bytemuck::cast_slice(&list), wgpu::BufferUsages::INDEX);
                    (Some(IndexSource::Generated(buffer)), 0..len, base_vertex)
                } else {
                    let (b, format) =
                        bound.ok_or_else(|| invalid(call, "no index buffer is set"))?;
                    (
                        Some(IndexSource::Bound(b.buffer.clone(), format.wgpu())),
                        start_index..start_index + n as u32,
                        base_vertex,
                    )
                }
            }
        };
        // Expanded points: a 4-vertex strip per instance, never culled.
        let (index_source, index_range, base_vertex) = match points {
            Some(_) => {
                topology = wgpu::PrimitiveTopology::TriangleStrip;
                (None, 0..4, 0)
            }
            None => (index_source, index_range, base_vertex),
        };
        let strip_format = match &index_source {
            Some(IndexSource::Bound(_, f)) if topology.is_strip() => Some(*f),
            Some(IndexSource::Generated(_)) if topology.is_strip() => {
                Some(wgpu::IndexFormat::Uint32)
            }
            _ => None,
        };
        let polygon_mode = match render.fill {
            FillMode::Wireframe => {
                self.require_feature(call, wgpu::Features::POLYGON_MODE_LINE, "D3DFILL_WIREFRAME")?;
                wgpu::PolygonMode::Line
            }
            _ => wgpu::PolygonMode::Fill,
        };
        // D3D9's front face is clockwise; culling keeps the other winding.
        let cull_mode = match render.cull {
            CullMode::None => None,
            CullMode::Cw => Some(wgpu::Face::Front),
            CullMode::Ccw => Some(wgpu::Face::Back),
        };
        let mut primitive_state = wgpu::PrimitiveState {
            topology,
            strip_index_format: strip_format,
            front_face: wgpu::FrontFace::Cw,
            cull_mode: cull_mode.filter(|_| {
                !matches!(
                    topology,
                    wgpu::PrimitiveTopology::PointList
                        | wgpu::PrimitiveTopology::LineList
                        | wgpu::PrimitiveTopology::LineStrip
                )
            }),
            polygon_mode,
            // Without a depth test Windows does not clip pre-transformed vertices at the near
            // and far planes (Wine's zenable_test draws their z from -0.5 to 1.5 and sees all
            // of it; other vertices are clipped).
            unclipped_depth: self
                .state
                .declaration
                .and_then(|id| self.declarations.get(&id))
                .is_some_and(|d| d.is_pretransformed())
                && (self.state.depth_stencil.is_none() || !render.z_enable)
                && self
                    .gpu
                    .device
                    .features()
                    .contains(wgpu::Features::DEPTH_CLIP_CONTROL),
            ..Default::default()
        };
        if points.is_some() {
            // D3D9 never culls points.
            primitive_state.cull_mode = None;
        }
        // Textures: what is bound on each slot the pair samples.
        let mut bound_textures = Vec::new();
        // Whether recording this draw again is all a repeat of it needs (see `DrawMemo`).
        let mut memoisable = user.is_none()
            && points.is_none()
            && !matches!(index_source, Some(IndexSource::Generated(_)));
        for t in &pair.textures {
            let id = self.state.textures[t.slot];
            // What locks wrote to system memory reaches the GPU before sampling (a SYSTEMMEM
            // texture gets a GPU copy).
            if let Some(id) = id {
                self.prepare_sampled(id)?;
            }
            // A texture with no GPU side (SCRATCH) samples as none.
            let object = id
                .and_then(|id| self.textures.get(&id))
                .filter(|o| o.gpu.is_some());
            if let Some(object) = object {
                let expected = match t.texture_type {
                    TextureType::Cube => TextureKind::Cube,
                    TextureType::Volume => TextureKind::Volume,
                    _ => TextureKind::TwoD,
                };
                // A 2D texture on a `dcl_volume` sampler reads as a one-slice volume
                // (`volume_slice`); other mismatches are refused.
                let slice = object.kind == TextureKind::TwoD && expected == TextureKind::Volume;
                // The slice is copied again at every bind that needs it: never memoised.
                memoisable &= !slice;
                if object.kind != expected && !slice {
                    return Err(unsupported(
                        call,
                        format!(
                            "sampler {} is declared {:?} and a {:?} texture is set (D3D9 leaves the result undefined; WebGPU binds only the declared type)",
                            t.slot, expected, object.kind
                        ),
                    ));
                }
                if object.format.channels(object.wgpu_format) < 4 {
                    return Err(unsupported(
                        call,
                        format!(
                            "sampling a {:?} texture (D3D9 reads the missing channels as 1, wgpu as 0)",
                            object.format
                        ),
                    ));
                }
            }
            bound_textures.push((
                id.filter(|_| object.is_some()),
                object.map(|o| o.wgpu_format),
            ));
        }
        let features = self.gpu.device.features();
        let filterable: Vec<bool> = bound_textures
            .iter()
            .map(|(_, format)| match format {
                Some(f) => matches!(
                    f.sample_type(None, Some(features)),
                    Some(wgpu::TextureSampleType::Float { filterable: true })
                ),
                None => true,
            })
            .collect();
        let pipeline_key = PipelineKey {
            pair: pair.id,
            streams: layouts.clone(),
            primitive: primitive_state,
            targets: targets.clone(),
            depth_stencil: render
                .depth_stencil(depth.as_ref().map(|(_, f)| *f))
                .map(|mut d| {
                    // Depth bias applies to triangles only (as Vulkan and wined3d; wgpu
                    // refuses it on points and lines).
                    if !matches!(
                        topology,
                        wgpu::PrimitiveTopology::TriangleList
                            | wgpu::PrimitiveTopology::TriangleStrip
                    ) {
                        d.bias = wgpu::DepthBiasState::default();
                    }
                    d
                }),
            filterable: filterable.clone(),
        };
        let gpu = &self.gpu;
        let state = &self.state;
        // Constants are computed only where a pipeline or a bind group is made.
        let entry = self.pipelines.get_or_try_insert(&pipeline_key, || {
            let vs_shapes = vertex_constant_buffers(state, pair)?;
            let ps_shapes = pixel_constant_buffers(state, pair);
            build_pipeline(
                gpu,
                pair,
                &pipeline_key,
                &binding.streams,
                &vs_shapes,
                &ps_shapes,
            )
            .map(Arc::new)
        })?;
        // Bind groups: constants (rebuilt only when they changed) and textures.
        let viewport = self.state.viewport;
        let mut groups: Vec<Option<wgpu::BindGroup>> = entry.empty_groups.clone();
        if let Some(group_index) = entry.vs_constants {
            let key = BindGroupKey::VertexConstants {
                pair: pair.id,
                // The fixed-function constants come from many states (transforms, lights,
                // material, render and stage states): any state change makes new ones.
                version: if pair.fixed_function_vertex {
                    self.state.version()
                } else {
                    self.state.vs_constants_version
                },
                viewport: (viewport.width, viewport.height),
                points: point_constants_key(&self.state, &pair.vertex_interface),
                clip: clip_planes_key(&self.state, pair)?,
            };
            let group = self.constants_group(&entry, &key, group_index, |state| {
                vertex_constant_buffers(state, pair)
            })?;
            set_group(&mut groups, group_index, group);
        }
        if let Some(group_index) = entry.ps_constants {
            let fog = FogState::of(&render, self.state.transforms.w_fog());
            let key = BindGroupKey::PixelConstants {
                pair: pair.id,
                // The fixed-function uniform and ps_1_x's bump-environment matrices come from
                // render and texture-stage states: any state change makes new ones.
                version: if pair.fixed_function_pixel
                    || pair
                        .pixel_interface
                        .as_ref()
                        .is_some_and(|i| i.bump_env.is_some())
                {
                    self.state.version()
                } else {
                    self.state.ps_constants_version
                },
                fog: fog.key(),
                alpha_ref: render.alpha_reference(),
            };
            let group = self.constants_group(&entry, &key, group_index, |state| {
                Ok(pixel_constant_buffers(state, pair))
            })?;
            set_group(&mut groups, group_index, group);
        }
        for group in [1u32, 3] {
            let members: Vec<usize> = (0..pair.textures.len())
                .filter(|&i| pair.textures[i].group == group)
                .collect();
            if members.is_empty() {
                continue;
            }
            let mut bound = Vec::new();
            for &i in &members {
                let slot = pair.textures[i].slot;
                let texture = bound_textures[i].0;
                let lod = texture
                    .and_then(|id| self.textures.get(&id))
                    .map_or(0, |t| t.lod);
                let sampler = self.sampler_key(call, slot, filterable[i], lod)?;
                bound.push((texture, sampler));
            }
            let key = BindGroupKey::Textures {
                pair: pair.id,
                group,
                bound: bound.clone(),
            };
            let layout = entry
                .layouts
                .get(group as usize)
                .ok_or_else(|| invalid(call, "internal: no texture layout"))?
                .clone();
            let textures_group = self.texture_group(call, &key, &layout, pair, &members, &bound)?;
            set_group(&mut groups, group, textures_group);
        }
        // Record the pass.
        // D3D9 draws nothing outside the viewport, which may reach past the target (Wine's
        // test_viewport, checked on Windows, sets 2000 x 1600 on a 640 x 480 target): the
        // scissor rectangle is the viewport's part of the target (and of the scissor test's).
        let limit = self.gpu.device.limits().max_texture_dimension_2d;
        let (vx, vy) = (viewport.x.min(limit), viewport.y.min(limit));
        let (vw, vh) = (
            viewport.width.clamp(1, limit),
            viewport.height.clamp(1, limit),
        );
        let mut area = super::state::Rect {
            left: vx as i32,
            top: vy as i32,
            right: (vx + vw) as i32,
            bottom: (vy + vh) as i32,
        };
        if render.scissor_test {
            area = area.intersect(&self.state.scissor);
        }
        let Some((sx, sy, sw, sh)) = area.clip(width, height) else {
            // An empty scissor rectangle: nothing is drawn.
            return Ok(());
        };
        // D3D9's half-pixel offset, where the viewport carries it (`half_pixel_in_viewport`;
        // elsewhere the vertex shader's position fix-up does).
        let half = if self.half_pixel_in_viewport {
            0.5
        } else {
            0.0
        };
        let viewport_rect = [
            vx as f32 + half,
            vy as f32 + half,
            vw as f32,
            vh as f32,
            // D3D9 takes depth ranges past 0..1 (Wine's depth_clamp_test, which passes on
            // Windows, sets MaxZ 7.5); WebGPU's viewport stays within 0..1. A MaxZ not above
            // MinZ maps z = 1 to MinZ + 0.001 on Windows (Wine's test_viewport expects 0.001
            // for 0..0 and 0.501 for 0.5..0).
            viewport.min_z.clamp(0.0, 1.0),
            viewport.max_z.max(viewport.min_z + 0.001).clamp(0.0, 1.0),
        ];
        let blend = render.blend_factor;
        let ch = |shift: u32| f64::from((blend >> shift) & 0xff) / 255.0;
        let uses_blend_constant = entry.uses_blend_constant;
        let recipe = PassRecipe {
            label: call,
            color_views,
            depth,
            pipeline: entry,
            groups,
            vertex_buffers,
            // A pass starts with the whole target as its viewport (depth 0..1) and scissor
            // rectangle, a zero blend constant and stencil reference; each is set only where
            // it differs, as every command costs validation.
            // With the half-pixel offset in the viewport, it always differs.
            viewport: (!standins.is_empty()
                || viewport_rect != [0.0, 0.0, width as f32, height as f32, 0.0, 1.0])
            .then_some(viewport_rect),
            scissor: (!standins.is_empty() || (sx, sy, sw, sh) != (0, 0, width, height))
                .then_some((sx, sy, sw, sh)),
            standins,
            blend_constant: uses_blend_constant.then_some(wgpu::Color {
                r: ch(16),
                g: ch(8),
                b: ch(0),
                a: ch(24),
            }),
            stencil_reference: render.stencil_ref & 0xff,
            index: index_source,
            index_range,
            base_vertex,
            instances: match points {
                Some(p) => 0..p.count,
                None => 0..instances,
            },
        };
        self.encode(&recipe);
        self.memo = memoisable.then(|| DrawMemo {
            call,
            primitive,
            range,
            versions: self.versions(),
            recipe,
        });
        Ok(())
    }

    /// The bound index buffer and its format, refusing a range of `count` indices from
    /// `start_index` that leaves it.
    pub(super) fn bound_indices(
        &self,
        call: &'static str,
        start_index: u32,
        count: u64,
    ) -> Result<(&BufferObject, IndexFormat), DeviceError> {
        let id = self
            .state
            .indices
            .ok_or_else(|| invalid(call, "no index buffer is set"))?;
        let b = self
            .index_buffers
            .get(&id)
            .ok_or_else(|| invalid(call, "the index buffer was released"))?;
        let format = b.index_format.unwrap_or(IndexFormat::Index16);
        let available = b.size() / format.size();
        if u64::from(start_index) + count > available {
            return Err(invalid(
                call,
                format!("indices {start_index}..{start_index}+{count} past the end of an index buffer of {available}"),
            ));
        }
        Ok((b, format))
    }

    /// The versions of everything a draw reads (see `versioned`).
    fn versions(&self) -> [u64; 8] {
        [
            self.state.version(),
            self.declarations.version(),
            self.vertex_shaders.version(),
            self.pixel_shaders.version(),
            self.vertex_buffers.version(),
            self.index_buffers.version(),
            self.textures.version(),
            self.surfaces.version(),
        ]
    }

    /// Records one draw's render pass on the pending encoder.
    fn encode(&mut self, recipe: &PassRecipe) {
        let encoder = self
            .encoder
            .get_or_insert_with(|| self.gpu.device.create_command_encoder(&Default::default()));
        for standin in &recipe.standins {
            standin.copy_in(encoder);
        }
        self.encode_pass(recipe);
        if let Some(encoder) = self.encoder.as_mut() {
            for standin in &recipe.standins {
                standin.copy_out(encoder);
            }
        }
    }

    fn encode_pass(&mut self, recipe: &PassRecipe) {
        let attachments = super::pass::color_attachments(&recipe.color_views, &[]);
        let depth_attachment = recipe
            .depth
            .as_ref()
            .map(|d| super::pass::depth_attachment(d, wgpu::LoadOp::Load, wgpu::LoadOp::Load));
        let encoder = self
            .encoder
            .get_or_insert_with(|| self.gpu.device.create_command_encoder(&Default::default()));
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some(recipe.label),
            color_attachments: &attachments,
            depth_stencil_attachment: depth_attachment,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        pass.set_pipeline(&recipe.pipeline.pipeline);
        for (index, group) in (0u32..).zip(&recipe.groups) {
            if let Some(group) = group {
                pass.set_bind_group(index, group, &[]);
            }
        }
        for (slot, (buffer, offset)) in (0u32..).zip(&recipe.vertex_buffers) {
            pass.set_vertex_buffer(slot, buffer.slice(*offset..));
        }
        if let Some([x, y, w, h, min_z, max_z]) = recipe.viewport {
            pass.set_viewport(x, y, w, h, min_z, max_z);
        }
        if let Some((x, y, w, h)) = recipe.scissor {
            pass.set_scissor_rect(x, y, w, h);
        }
        if let Some(colour) = recipe.blend_constant {
            pass.set_blend_constant(colour);
        }
        if recipe.stencil_reference != 0 {
            pass.set_stencil_reference(recipe.stencil_reference);
        }
        let instances = recipe.instances.clone();
        let range = recipe.index_range.clone();
        match &recipe.index {
            None => {
                let first = u32::try_from(recipe.base_vertex).unwrap_or(0);
                pass.draw(first..first.saturating_add(range.end), instances);
            }
            Some(IndexSource::Bound(buffer, format)) => {
                pass.set_index_buffer(buffer.slice(..), *format);
                pass.draw_indexed(range, recipe.base_vertex, instances);
            }
            Some(IndexSource::Generated(buffer)) => {
                pass.set_index_buffer(buffer.slice(..), wgpu::IndexFormat::Uint32);
                pass.draw_indexed(range, recipe.base_vertex, instances);
            }
        }
    }

    /// Instances of an indexed draw with `D3DSTREAMSOURCE_INDEXEDDATA | n` on stream 0; 1
    /// otherwise (D3D9 instances only indexed draws).
    fn instance_count(&self, range: &DrawRange) -> u32 {
        match (range, self.state.streams[0].frequency) {
            (DrawRange::Indexed { .. }, StreamFrequency::IndexedData(n)) => n.max(1),
            _ => 1,
        }
    }

    /// The primitive as wgpu draws it, for the list of vertex or index numbers `list`: fans
    /// become triangle lists, and on GL with flat shading every primitive is rotated so that
    /// its first vertex (D3D9's provoking vertex) comes last (GL's).
    fn arrange(
        &self,
        primitive: PrimitiveType,
        list: &[u32],
        gl_flat: bool,
    ) -> (wgpu::PrimitiveTopology, Vec<u32>) {
        let (topology, list) = if primitive == PrimitiveType::TriangleFan {
            let mut out = Vec::with_capacity(list.len().saturating_sub(2) * 3);
            if let Some((&first, rest)) = list.split_first() {
                for pair in rest.windows(2) {
                    out.extend([first, pair[0], pair[1]]);
                }
            }
            (wgpu::PrimitiveTopology::TriangleList, out)
        } else {
            (topology(primitive), list.to_vec())
        };
        if gl_flat {
            let count = list.len() as u32;
            if let Some((t, order)) =
                crate::provoking::last_vertex_order(topology, Some(&Indices::U32(&list)), count)
            {
                return (t, order);
            }
        }
        (topology, list)
    }

    /// The bind group of the constants `buffers` gives, under `key`, made on a miss.
    fn constants_group(
        &mut self,
        entry: &PipelineEntry,
        key: &BindGroupKey,
        group: u32,
        buffers: impl FnOnce(&DeviceState) -> Result<Vec<ConstantBuffer>, DeviceError>,
    ) -> Result<wgpu::BindGroup, DeviceError> {
        let layout = entry
            .layouts
            .get(group as usize)
            .ok_or_else(|| invalid("draw", "internal: no constants layout"))?;
        let gpu = &self.gpu;
        let state = &self.state;
        self.bind_groups.get_or_try_insert(key, || {
            let buffers = buffers(state)?;
            let created: Vec<(u32, wgpu::Buffer)> = buffers
                .iter()
                .map(|b| {
                    let usage = match b.storage {
                        true => wgpu::BufferUsages::STORAGE,
                        false => wgpu::BufferUsages::UNIFORM,
                    };
                    (b.binding, gpu.init_buffer(&b.data, usage))
                })
                .collect();
            let entries: Vec<wgpu::BindGroupEntry<'_>> = created
                .iter()
                .map(|(binding, buffer)| wgpu::BindGroupEntry {
                    binding: *binding,
                    resource: buffer.as_entire_binding(),
                })
                .collect();
            gpu.capture("constants bind group", || {
                Ok(gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("constants"),
                    layout,
                    entries: &entries,
                }))
            })
            .map_err(Device::gpu_error("draw"))
        })
    }

    /// The sampler of slot `slot`'s states.
    /// `lod`: the bound texture's `SetLOD`.
    fn sampler_key(
        &self,
        call: &'static str,
        slot: usize,
        filterable: bool,
        lod: u32,
    ) -> Result<SamplerKey, DeviceError> {
        let s = self.state.samplers[slot];
        if s.mip_lod_bias != 0.0 {
            return Err(unsupported(
                call,
                format!(
                    "D3DSAMP_MIPMAPLODBIAS {} on sampler {slot} (wgpu samplers have no LOD bias)",
                    s.mip_lod_bias
                ),
            ));
        }
        let border = if s.address.contains(&TextureAddress::Border) {
            let colour = match s.border_color {
                0x0000_0000 => wgpu::SamplerBorderColor::TransparentBlack,
                0xff00_0000 => wgpu::SamplerBorderColor::OpaqueBlack,
                0xffff_ffff => wgpu::SamplerBorderColor::OpaqueWhite,
                other => {
                    return Err(unsupported(
                        call,
                        format!("D3DSAMP_BORDERCOLOR {other:#010x} (wgpu has transparent black, opaque black and opaque white)"),
                    ))
                }
            };
            self.require_feature(
                call,
                wgpu::Features::ADDRESS_MODE_CLAMP_TO_BORDER,
                "D3DTADDRESS_BORDER",
            )?;
            Some(colour)
        } else {
            None
        };
        let filtering =
            s.mag_filter.blends() || s.min_filter.blends() || s.mip_filter == MipFilter::Linear;
        if filtering && !filterable {
            return Err(unsupported(call, format!("linear filtering on sampler {slot} of a texture format this adapter cannot filter")));
        }
        Ok(SamplerKey {
            address: s.address,
            border,
            mag: s.mag_filter,
            min: s.min_filter,
            mip: s.mip_filter,
            // The most detailed level sampled (Wine's maxmip_test, checked on Windows): the
            // texture's LOD, and with mipmapping on also no finer than D3DSAMP_MAXMIPLEVEL
            // (MAXMIPLEVEL is ignored under MIPFILTER NONE).
            max_mip_level: match s.mip_filter {
                MipFilter::None => lod,
                MipFilter::Point | MipFilter::Linear => s.max_mip_level.max(lod),
            },
            filtering: filterable,
            max_anisotropy: s.max_anisotropy,
        })
    }

    fn sampler(&mut self, key: SamplerKey) -> wgpu::Sampler {
        let device = &self.gpu.device;
        self.samplers
            .entry(key)
            .or_insert_with(|| {
                device.create_sampler(&crate::texture::sampler_descriptor(
                    key.address,
                    [key.mag, key.min],
                    key.mip,
                    key.max_mip_level,
                    key.border,
                    key.max_anisotropy,
                ))
            })
            .clone()
    }

    #[allow(clippy::too_many_arguments)]
    fn texture_group(
        &mut self,
        call: &'static str,
        key: &BindGroupKey,
        layout: &wgpu::BindGroupLayout,
        pair: &ShaderPair,
        members: &[usize],
        bound: &[(Option<TextureId>, SamplerKey)],
    ) -> Result<wgpu::BindGroup, DeviceError> {
        let mut views = Vec::new();
        let mut samplers = Vec::new();
        for (&i, (id, sampler)) in members.iter().zip(bound) {
            let t = &pair.textures[i];
            let view = match id.and_then(|id| {
                self.textures
                    .get(&id)
                    .and_then(|o| Some((id, o, o.gpu.as_ref()?)))
            }) {
                Some((id, object, _))
                    if object.kind == TextureKind::TwoD
                        && t.texture_type == TextureType::Volume =>
                {
                    self.volume_slice_view(call, id)?
                }
                Some((_, _, gpu)) => gpu.view.clone(),
                None => self.unbound_texture(t.texture_type),
            };
            views.push((t.texture_binding, view));
            samplers.push((t.sampler_binding, self.sampler(*sampler)));
        }
        let gpu = &self.gpu;
        self.bind_groups.get_or_try_insert(key, || {
            let mut entries = Vec::new();
            for (binding, view) in &views {
                entries.push(wgpu::BindGroupEntry {
                    binding: *binding,
                    resource: wgpu::BindingResource::TextureView(view),
                });
            }
            for (binding, sampler) in &samplers {
                entries.push(wgpu::BindGroupEntry {
                    binding: *binding,
                    resource: wgpu::BindingResource::Sampler(sampler),
                });
            }
            gpu.capture("textures bind group", || {
                Ok(gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("textures"),
                    layout,
                    entries: &entries,
                }))
            })
            .map_err(Device::gpu_error(call))
        })
    }

    /// What a sampler with no texture set reads: a 1x1 texture of (0, 0, 0, 1), as Windows
    /// drivers and Wine give for an unbound sampler.
    fn unbound_texture(&mut self, texture_type: TextureType) -> wgpu::TextureView {
        let (dimension, view_dimension, layers) = match texture_type {
            TextureType::Cube => (
                wgpu::TextureDimension::D2,
                wgpu::TextureViewDimension::Cube,
                6,
            ),
            TextureType::Volume => (
                wgpu::TextureDimension::D3,
                wgpu::TextureViewDimension::D3,
                1,
            ),
            _ => (
                wgpu::TextureDimension::D2,
                wgpu::TextureViewDimension::D2,
                1,
            ),
        };
        let texture = self.gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("unbound sampler"),
            size: wgpu::Extent3d {
                width: 1,
                height: 1,
                depth_or_array_layers: layers,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension,
            format: wgpu::TextureFormat::Rgba8Unorm,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        let texel: Vec<u8> = [0u8, 0, 0, 0xff].repeat(layers as usize);
        self.gpu.queue.write_texture(
            texture.as_image_copy(),
            &texel,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(4),
                rows_per_image: Some(1),
            },
            wgpu::Extent3d {
                width: 1,
                height: 1,
                depth_or_array_layers: layers,
            },
        );
        texture.create_view(&wgpu::TextureViewDescriptor {
            dimension: Some(view_dimension),
            ..Default::default()
        })
    }
}

/// The vertex stage's constant buffers now (the device's `c#`/`i#`/`b#` with the shader's
/// `def`s, and the half-pixel fix-up of the viewport). The fixed-function stage's `c0`–`c7`
/// are the transforms (`transform`'s layout) instead of the application's constants.
fn vertex_constant_buffers(
    state: &DeviceState,
    pair: &ShaderPair,
) -> Result<Vec<ConstantBuffer>, DeviceError> {
    let viewport = (state.viewport.width, state.viewport.height);
    let fixed_function;
    let constants = if pair.fixed_function_vertex {
        // The generated stage's constants: hardware vertex processing's 256 registers, or
        // software's 8192 (indexed vertex blending, or a software device).
        let software = pair
            .vertex_interface
            .float_constants
            .is_some_and(|f| f.registers > HW_FLOAT_CONSTANTS);
        let processing = match software {
            true => d3d9_translator::decl::VertexProcessing::Software,
            false => d3d9_translator::decl::VertexProcessing::Hardware,
        };
        let mut c = crate::VertexConstants::new(processing);
        c.set_f(0, &super::fixed_function::vertex_constants(state, software));
        fixed_function = c;
        &fixed_function
    } else {
        &state.vs_constants
    };
    let mut buffers = constants
        .buffers(&pair.vertex_interface, viewport)
        .map_err(|e| unsupported("draw", format!("vertex shader constants: {e}")))?;
    buffers.extend(point_constant_buffer(state, &pair.vertex_interface));
    buffers.extend(clip_plane_buffer(state, pair)?);
    Ok(buffers)
}

/// The pixel stage's constant buffers now: `c#`/`i#`/`b#` with the shader's `def`s, fog
/// states, bump-environment and alpha reference uniforms, as the interface names them.
fn pixel_constant_buffers(state: &DeviceState, pair: &ShaderPair) -> Vec<ConstantBuffer> {
    if pair.fixed_function_pixel {
        let data = super::fixed_function::pixel_uniform(state);
        return vec![ConstantBuffer {
            group: super::fixed_function::PIXEL_UNIFORM_GROUP,
            binding: super::fixed_function::PIXEL_UNIFORM_BINDING,
            storage: false,
            data: bytemuck::cast_slice(&data).to_vec(),
        }];
    }
    let Some(interface) = &pair.pixel_interface else {
        return Vec::new();
    };
    let render = &state.render;
    let mut out = state.ps_constants.buffers(interface);
    if let Some(b) = interface.fog {
        let c = |shift: u32| ((render.fog_color >> shift) & 0xff) as f32 / 255.0;
        let data = FogConstants {
            color: [c(16), c(8), c(0), c(24)],
            start: render.fog_start,
            end: render.fog_end,
            density: render.fog_density,
        }
        .data();
        out.push(ConstantBuffer {
            group: b.group,
            binding: b.binding,
            storage: false,
            data: bytemuck::cast_slice(&data).to_vec(),
        });
    }
    if let Some(b) = interface.bump_env {
        // D3DTSS_BUMPENVMAT*, LSCALE, LOFFSET of every stage.
        let mut data = super::fixed_function::bump_env_data(state);
        data.resize(2 * BUMP_ENV_STAGES as usize, [0.0; 4]);
        out.push(ConstantBuffer {
            group: b.group,
            binding: b.binding,
            storage: false,
            data: bytemuck::cast_slice(&data).to_vec(),
        });
    }
    if let Some(b) = interface.alpha_ref {
        let data = alpha_ref_data(render.alpha_reference());
        out.push(ConstantBuffer {
            group: b.group,
            binding: b.binding,
            storage: false,
            data: bytemuck::cast_slice(&data).to_vec(),
        });
    }
    out
}

fn set_group(groups: &mut Vec<Option<wgpu::BindGroup>>, group: u32, bind_group: wgpu::BindGroup) {
    let index = group as usize;
    if groups.len() <= index {
        groups.resize(index + 1, None);
    }
    groups[index] = Some(bind_group);
}

/// Whether wgpu blends into the format (float32 formats only with `FLOAT32_BLENDABLE`).
/// Whether blending applies to a target of `format`: not to float32 bits held in u32 formats
/// (GL), and to float32 formats where the adapter has `FLOAT32_BLENDABLE`.
fn blendable(format: wgpu::TextureFormat, features: wgpu::Features) -> bool {
    match format {
        wgpu::TextureFormat::R32Float
        | wgpu::TextureFormat::Rg32Float
        | wgpu::TextureFormat::Rgba32Float => features.contains(wgpu::Features::FLOAT32_BLENDABLE),
        wgpu::TextureFormat::R32Uint
        | wgpu::TextureFormat::Rg32Uint
        | wgpu::TextureFormat::Rgba32Uint => false,
        _ => true,
    }
}

/// The wgpu topology of a D3D9 primitive type (fans are converted before).
fn topology(primitive: PrimitiveType) -> wgpu::PrimitiveTopology {
    use wgpu::PrimitiveTopology as T;
    match primitive {
        PrimitiveType::PointList => T::PointList,
        PrimitiveType::LineList => T::LineList,
        PrimitiveType::LineStrip => T::LineStrip,
        PrimitiveType::TriangleList | PrimitiveType::TriangleFan => T::TriangleList,
        PrimitiveType::TriangleStrip => T::TriangleStrip,
    }
}

/// The bind group layout entries of constant buffers.
fn buffer_entries(buffers: &[ConstantBuffer]) -> Vec<wgpu::BindGroupLayoutEntry> {
    buffers
        .iter()
        .map(|b| wgpu::BindGroupLayoutEntry {
            binding: b.binding,
            visibility: match b.storage {
                true => wgpu::ShaderStages::VERTEX,
                false => wgpu::ShaderStages::VERTEX_FRAGMENT,
            },
            ty: wgpu::BindingType::Buffer {
                ty: match b.storage {
                    true => wgpu::BufferBindingType::Storage { read_only: true },
                    false => wgpu::BufferBindingType::Uniform,
                },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        })
        .collect()
}

fn build_pipeline(
    gpu: &crate::Gpu,
    pair: &ShaderPair,
    key: &PipelineKey,
    streams: &[d3d9_translator::decl::StreamLayout],
    vs_buffers: &[ConstantBuffer],
    ps_buffers: &[ConstantBuffer],
) -> Result<PipelineEntry, DeviceError> {
    let device = &gpu.device;
    // Layout entries per group: 0 vertex constants, 1 vertex textures, 2 pixel constants,
    // 3 pixel textures.
    let mut groups: Vec<Vec<wgpu::BindGroupLayoutEntry>> = vec![Vec::new(); 4];
    for b in buffer_entries(vs_buffers).into_iter().zip(vs_buffers) {
        if let Some(g) = groups.get_mut(b.1.group as usize) {
            g.push(b.0);
        }
    }
    for b in buffer_entries(ps_buffers).into_iter().zip(ps_buffers) {
        if let Some(g) = groups.get_mut(b.1.group as usize) {
            g.push(b.0);
        }
    }
    for (t, &filterable) in pair.textures.iter().zip(&key.filterable) {
        let view_dimension = match t.texture_type {
            TextureType::Cube => wgpu::TextureViewDimension::Cube,
            TextureType::Volume => wgpu::TextureViewDimension::D3,
            _ => wgpu::TextureViewDimension::D2,
        };
        let Some(g) = groups.get_mut(t.group as usize) else {
            return Err(invalid(
                "draw",
                format!("internal: texture group {}", t.group),
            ));
        };
        g.push(wgpu::BindGroupLayoutEntry {
            binding: t.texture_binding,
            visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
            ty: wgpu::BindingType::Texture {
                sample_type: wgpu::TextureSampleType::Float { filterable },
                view_dimension,
                multisampled: false,
            },
            count: None,
        });
        g.push(wgpu::BindGroupLayoutEntry {
            binding: t.sampler_binding,
            visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
            ty: wgpu::BindingType::Sampler(if filterable {
                wgpu::SamplerBindingType::Filtering
            } else {
                wgpu::SamplerBindingType::NonFiltering
            }),
            count: None,
        });
    }
    while groups.last().is_some_and(Vec::is_empty) {
        groups.pop();
    }
    let layouts: Vec<wgpu::BindGroupLayout> = groups
        .iter()
        .map(|entries| {
            device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: None,
                entries,
            })
        })
        .collect();
    let empty_groups = groups
        .iter()
        .zip(&layouts)
        .map(|(entries, layout)| {
            entries.is_empty().then(|| {
                device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("empty"),
                    layout,
                    entries: &[],
                })
            })
        })
        .collect();
    let layout_refs: Vec<Option<&wgpu::BindGroupLayout>> = layouts.iter().map(Some).collect();
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: None,
        bind_group_layouts: &layout_refs,
        immediate_size: 0,
    });
    let buffers: Vec<Option<wgpu::VertexBufferLayout<'_>>> = streams
        .iter()
        .map(|s| {
            Some(wgpu::VertexBufferLayout {
                array_stride: s.array_stride,
                step_mode: s.step_mode,
                attributes: &s.attributes,
            })
        })
        .collect();
    let pipeline = gpu
        .capture("pipeline", || {
            Ok(
                device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                    label: Some("draw"),
                    layout: Some(&pipeline_layout),
                    vertex: wgpu::VertexState {
                        module: &pair.vertex_module,
                        entry_point: Some(d3d9_translator::lift::ENTRY_POINT),
                        compilation_options: Default::default(),
                        buffers: &buffers,
                    },
                    primitive: key.primitive,
                    depth_stencil: key.depth_stencil.clone(),
                    multisample: Default::default(),
                    fragment: Some(wgpu::FragmentState {
                        module: &pair.fragment_module,
                        entry_point: None,
                        compilation_options: Default::default(),
                        targets: &key.targets,
                    }),
                    multiview_mask: None,
                    cache: None,
                }),
            )
        })
        .map_err(Device::gpu_error("draw"))?;
    Ok(PipelineEntry {
        pipeline,
        layouts,
        empty_groups,
        vs_constants: vs_buffers.first().map(|b| b.group),
        ps_constants: ps_buffers.first().map(|b| b.group),
        uses_blend_constant: key.targets.iter().flatten().any(|t| {
            t.blend
                .is_some_and(|b| b.color.uses_constant() || b.alpha.uses_constant())
        }),
    })
}
