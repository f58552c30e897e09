//! Draws: `DrawPrimitive`, `DrawIndexedPrimitive` and their `UP` forms. Each draw checks the
//! state as D3D9's runtime does (`D3DERR_INVALIDCALL` for what it refuses), finds its shader
//! pair and pipeline in the bounded caches, places its constants in the constants ring where
//! they changed (`ring`: bound with dynamic offsets, written once per submit), builds or
//! reuses its texture bind groups, and records one render pass on the pending command
//! encoder; [`Device::flush`] or a read-back submits it.
//!
//! A draw reads as D3D9's pipeline, one step per module: the shader stages and their pair
//! (`stages`), the targets of the pass (`targets`), vertex input (`vertex_input`), primitive
//! assembly (`primitives`), the sampled textures and bind groups (`bindings`) with the
//! constants ring (`ring`), the pipeline (`pipeline`), and the pass on the encoder (`encode`).

mod bindings;
mod encode;
mod fixups;
mod loops;
mod memo;
mod pipeline;
mod primitives;
mod ring;
mod stages;
mod targets;
mod vertex_input;

use std::sync::Arc;

use d3d9_translator::decl::StreamSource;

use super::error::{invalid, unsupported, DeviceError};
use super::objects::TextureId;
use super::pairing::ShaderPair;
use super::points::PointQuads;
use super::range::DrawRange;
use super::{Device, PrimitiveType, Stream};
use crate::device::{MipFilter, TextureAddress, TextureFilter};
use crate::gpu::Indices;
pub(crate) use encode::{pending_encoder, OpenPass};
pub(crate) use memo::DrawMemo;
pub(crate) use pipeline::{build_pipeline, PipelineBuilder};
pub(crate) use ring::{constants_window, ConstantRing};
use ring::{Offsets, ShapeId};

/// What makes a pipeline: the pair, the vertex buffer layouts, the primitive, blend, write
/// masks and depth-stencil state, target formats, and per sampled texture whether its
/// format filters.
/// `P` names the pair: its id (`u64`) in the device's cache; nothing (`()`) where the state
/// cache records the key beside the pair's own record (`prebuild`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub(crate) struct PipelineKey<P = u64> {
    pub(crate) pair: P,
    pub(crate) streams: Vec<(u16, u64, wgpu::VertexStepMode)>,
    primitive: wgpu::PrimitiveState,
    targets: Vec<Option<wgpu::ColorTargetState>>,
    depth_stencil: Option<wgpu::DepthStencilState>,
    filterable: Vec<bool>,
    /// Samples and `D3DRS_MULTISAMPLEMASK` (`multisample`).
    multisample: wgpu::MultisampleState,
    /// The `i#` values the pipeline's loops are specialised on; empty for the generic
    /// pipeline (`loops`).
    loops: Vec<i32>,
}

#[cfg(test)]
impl PipelineKey<()> {
    /// A key of one stream, a triangle list, one target, no depth.
    pub(crate) fn example() -> PipelineKey<()> {
        PipelineKey {
            pair: (),
            streams: vec![(0, 12, wgpu::VertexStepMode::Vertex)],
            primitive: wgpu::PrimitiveState::default(),
            targets: vec![Some(wgpu::TextureFormat::Bgra8Unorm.into())],
            depth_stencil: None,
            filterable: Vec::new(),
            multisample: wgpu::MultisampleState::default(),
            loops: Vec::new(),
        }
    }
}

impl<P> PipelineKey<P> {
    /// The same key for the pair `pair`.
    pub(crate) fn for_pair<Q>(&self, pair: Q) -> PipelineKey<Q> {
        PipelineKey {
            pair,
            streams: self.streams.clone(),
            primitive: self.primitive,
            targets: self.targets.clone(),
            depth_stencil: self.depth_stencil.clone(),
            filterable: self.filterable.clone(),
            multisample: self.multisample,
            loops: self.loops.clone(),
        }
    }
}

/// A built pipeline and its bind group layouts.
pub(crate) struct PipelineEntry {
    pipeline: wgpu::RenderPipeline,
    layouts: Vec<wgpu::BindGroupLayout>,
    /// Bind groups of the groups the pipeline does not use.
    empty_groups: Vec<Option<wgpu::BindGroup>>,
    /// The groups of the vertex and pixel constants, where the stages have some.
    vs_constants: Option<ConstantsGroup>,
    ps_constants: Option<ConstantsGroup>,
    /// Whether a target's blending reads the blend constant (`D3DBLEND_BLENDFACTOR`).
    uses_blend_constant: bool,
}

/// A pipeline's group of one stage's constants.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ConstantsGroup {
    group: u32,
    /// The ring's layout the group has (bound from the constants ring with dynamic offsets);
    /// `None` where the pipeline layout had no dynamic-offset bindings left for it: a bind
    /// group of its own buffers per version (`constants_group`).
    shape: Option<ShapeId>,
}

/// What a bind group holds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum BindGroupKey {
    /// The vertex constants of a pair at a version (of the `c#`/`i#`/`b#`, or for the
    /// fixed-function stage of the transforms), for a viewport size (the half-pixel fix-up).
    VertexConstants {
        pair: u64,
        /// The state's and the textures' versions where the constants come from states
        /// (else 0), and the vertex constants' version.
        version: [u64; 3],
        viewport: (u32, u32),
        /// The position fix-up: half-pixel offset and depth bias (bits).
        fixup: [u32; 4],
        /// The point render states, with point expansion (bits).
        points: Option<[u32; 12]>,
        /// The clip-space user clip planes, where the vertex stage clips (bits).
        clip: Option<[u32; 24]>,
    },
    /// The pixel constants of a pair at a version, with the fog and alpha-test states.
    PixelConstants {
        pair: u64,
        /// As the vertex constants': the state's and textures' versions where states feed
        /// the constants, and the pixel constants' version.
        version: [u64; 3],
        fog: super::fixed_function::FogKey,
        alpha_ref: u32,
    },
    /// The textures and samplers of one group of a pair.
    Textures {
        pair: u64,
        group: u32,
        /// Per texture: the texture, whether its sRGB view is read, the sampler.
        bound: Vec<(Option<TextureId>, bool, SamplerKey)>,
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
    /// A shadow map's comparison sampler (`LESSEQUAL`).
    compare: bool,
}

/// One draw, resolved: what [`Device::encode`] records as its render pass.
#[derive(Clone)]
pub(crate) struct PassRecipe {
    /// Names this recipe among the device's (`Device::next_id`): an open pass that last
    /// recorded it has every state but the groups set as it needs (see `encode`).
    serial: u64,
    label: &'static str,
    color_views: Vec<Option<wgpu::TextureView>>,
    depth: Option<(wgpu::TextureView, wgpu::TextureFormat)>,
    pipeline: Arc<PipelineEntry>,
    groups: Vec<Option<wgpu::BindGroup>>,
    /// Per group, its dynamic offsets into the constants ring (none for other groups).
    offsets: [Offsets; 4],
    /// The constants ring's generation the offsets are of (see `ring`).
    generation: u64,
    vertex_buffers: Vec<(wgpu::Buffer, u64)>,
    /// The targets' size.
    size: (u32, u32),
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
    /// The groups (bit n: group n) whose bind group or offsets the memo changed since this
    /// recipe was last recorded (`encode` compares only those where the pass recorded it
    /// last).
    changed: u8,
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

/// One draw as the application called it, with points expanded: what [`Device::record`]
/// turns into a pass.
struct DrawCall<'a> {
    call: &'static str,
    primitive: PrimitiveType,
    /// The vertices or indices read (for expanded points, the points as instances).
    range: DrawRange,
    user: Option<UserData>,
    user_indices: Option<Vec<u32>>,
    /// Points drawn as quads (see `points`).
    points: Option<&'a PointQuads>,
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
        if user.is_none() && self.repeat(call, primitive, range) {
            return Ok(());
        }
        let streams = self.stream_sources(user.as_ref());
        let paired = self.shader_pair(call, primitive, &range, &streams)?;
        // Points drawn as quads: instances, de-indexed if need be (see `points`).
        let (range, quads) = match paired.expands_points {
            true => {
                let user_bytes = user
                    .as_ref()
                    .and_then(|u| u.bytes.as_deref().map(|b| (b, u.stride)));
                let (range, quads) = self.point_quads(
                    call,
                    range,
                    &paired.declaration,
                    user_bytes,
                    user_indices.as_deref(),
                )?;
                (range, Some(quads))
            }
            false => (range, None),
        };
        let draw = DrawCall {
            call,
            primitive,
            range,
            user,
            user_indices,
            points: quads.as_ref(),
        };
        self.record(&draw, &paired.pair, &streams)
    }

    /// Records `draw` with `pair`: D3D9's pipeline, step by step, as one pass.
    fn record(
        &mut self,
        draw: &DrawCall<'_>,
        pair: &Arc<ShaderPair>,
        streams: &[StreamSource],
    ) -> Result<(), DeviceError> {
        let call = draw.call;
        if let Some(why) = self
            .state
            .raw
            .refusal(|slot| pair.textures.iter().any(|t| t.slot == slot))
        {
            return Err(unsupported(call, why.to_string()));
        }
        let render = self.state.render;
        let targets = self.pass_targets(call, pair, &render)?;
        self.check_multisample_mask(call, targets.multisample.0, targets.multisample.1)?;
        if targets.color_views.iter().all(Option::is_none) && targets.depth.is_none() {
            // NULL render targets and no depth-stencil surface: nothing is stored.
            return Ok(());
        }
        let input = self.vertex_input(draw, pair, streams)?;
        let indices = self.pass_indices(draw, pair)?;
        let primitive = self.primitive_state(call, &render, &indices, draw.points.is_some())?;
        let textures = self.sampled_textures(call, pair)?;
        let entry = self.pipeline(
            pair,
            &input.binding,
            primitive,
            &targets.targets,
            targets.depth.as_ref().map(|(_, f)| *f),
            &textures.filterable,
            self.multisample_state(targets.multisample.0, targets.multisample.1),
        )?;
        let depth_bias = self.depth_bias_offset(draw.primitive, targets.depth.is_some());
        let bound = self.bind_groups(call, pair, &entry, &textures, depth_bias)?;
        let (width, height) = targets.size;
        let Some(area) = self.pass_area(&render, targets.size) else {
            // An empty scissor rectangle: nothing is drawn.
            return Ok(());
        };
        // Whether recording this draw again is all a repeat of it needs (see `DrawMemo`).
        let memoisable = draw.user.is_none()
            && draw.points.is_none()
            && !matches!(indices.source, Some(IndexSource::Generated(_)))
            && !textures.copied;
        let blend = render.blend_factor;
        let ch = |shift: u32| f64::from((blend >> shift) & 0xff) / 255.0;
        let uses_blend_constant = entry.uses_blend_constant;
        let recipe = PassRecipe {
            serial: self.next_id(),
            label: call,
            color_views: targets.color_views,
            depth: targets.depth,
            pipeline: entry,
            groups: bound.groups,
            offsets: bound.offsets,
            generation: self.constant_ring.generation(),
            vertex_buffers: input.buffers,
            size: targets.size,
            // The viewport and scissor rectangle are kept only where they are not the whole
            // target's (depth 0..1), which `encode` sets where none is (a pass drawn through
            // stand-ins too: the targets' size, not the stand-ins'). With the half-pixel
            // offset in the viewport, it always differs.
            viewport: (area.viewport != [0.0, 0.0, width as f32, height as f32, 0.0, 1.0])
                .then_some(area.viewport),
            scissor: (area.scissor != (0, 0, width, height)).then_some(area.scissor),
            standins: targets.standins,
            blend_constant: uses_blend_constant.then_some(wgpu::Color {
                r: ch(16),
                g: ch(8),
                b: ch(0),
                a: ch(24),
            }),
            stencil_reference: render.stencil_ref & 0xff,
            index: indices.source,
            index_range: indices.range,
            base_vertex: indices.base_vertex,
            instances: input.instances,
            changed: 0,
        };
        self.encode(&recipe);
        if !memoisable {
            self.memo = None;
            return Ok(());
        }
        let memo = DrawMemo {
            call,
            primitive: draw.primitive,
            range: draw.range,
            versions: self.versions(),
            textures: self.state.textures,
            textures_version: self.state.textures_version,
            recipe,
            pair: pair.clone(),
            constants: bound.constants,
        };
        self.memo = Some(match self.memo_spare.take() {
            Some(mut spare) => {
                *spare = memo;
                spare
            }
            None => Box::new(memo),
        });
        Ok(())
    }
}
