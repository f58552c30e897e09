//! The draw's render pipeline: its key (pair, vertex layouts, primitive, targets,
//! depth-stencil state, filterable textures, loop values), the bounded cache, and the
//! pipeline and bind group layouts built on a miss.

use std::sync::Arc;

use d3d9_translator::bytecode::TextureType;
use d3d9_translator::decl::{StreamLayout, VertexBinding};
use d3d9_translator::lift::SamplerRead;

use super::super::error::{invalid, DeviceError};
use super::super::pairing::ShaderPair;
use super::super::{Device, DeviceState};
use super::bindings::{pixel_constant_buffers, vertex_constant_buffers};
use super::loops::{loop_values, stage_modules};
use super::ring::{
    buffer_layout_entry, intern, layout, ConstantRing, RingEntry, SharedShapes, MAX_ENTRIES,
};
use super::{ConstantsGroup, PipelineEntry, PipelineKey};
use crate::device::{ConstantBuffer, Extent};
use crate::gpu::capture;

impl Device {
    /// The pipeline of `pair` reading the streams of `binding` with `primitive` into
    /// `targets` and a depth-stencil surface of `depth`, with per sampled texture whether its
    /// format filters, drawing `multisample`'s samples; built on a miss.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn pipeline(
        &mut self,
        pair: &ShaderPair,
        binding: &VertexBinding,
        primitive: wgpu::PrimitiveState,
        targets: &[Option<wgpu::ColorTargetState>],
        depth: Option<wgpu::TextureFormat>,
        filterable: &[bool],
        multisample: wgpu::MultisampleState,
    ) -> Result<Arc<PipelineEntry>, DeviceError> {
        let render = self.state.render;
        let topology = primitive.topology;
        let pipeline_key = PipelineKey {
            pair: pair.id,
            streams: binding
                .streams
                .iter()
                .map(|s| (s.stream, s.array_stride, s.step_mode))
                .collect(),
            primitive,
            targets: targets.to_vec(),
            depth_stencil: render.depth_stencil(depth).map(|mut d| {
                // Depth bias applies to triangles only (as Vulkan and wined3d; wgpu
                // refuses it on points and lines).
                if !matches!(
                    topology,
                    wgpu::PrimitiveTopology::TriangleList | wgpu::PrimitiveTopology::TriangleStrip
                ) {
                    d.bias = wgpu::DepthBiasState::default();
                }
                d
            }),
            filterable: filterable.to_vec(),
            multisample,
            loops: loop_values(
                pair,
                [&self.state.vs_constants.ints, &self.state.ps_constants.ints],
            ),
        };
        let state = &self.state;
        let gpu = &self.gpu;
        let ring = &self.constant_ring;
        let prebuilt = &mut self.prebuild;
        // Constants are computed only where a pipeline or a bind group is made.
        self.pipelines.get_or_try_insert(&pipeline_key, || {
            gpu.note_pipeline_built();
            if let Some(entry) = prebuilt.take_pipeline(&pipeline_key) {
                return Ok(entry);
            }
            let builder = PipelineBuilder::of(gpu, ring);
            let entry = build_pipeline(&builder, state, pair, &pipeline_key, &binding.streams)
                .map(Arc::new)?;
            prebuilt.record(pair, &pipeline_key);
            Ok(entry)
        })
    }
}

/// What building a pipeline needs besides the device's state: the wgpu device, the pipeline
/// cache, the constants ring's interned layouts and its dynamic-offset limits. Cloned for
/// the threads that build pipelines ahead of their draws (`prebuild`).
#[derive(Clone)]
pub(crate) struct PipelineBuilder {
    pub(crate) device: wgpu::Device,
    cache: Option<wgpu::PipelineCache>,
    shapes: SharedShapes,
    dynamic_uniform: u32,
    dynamic_storage: u32,
}

impl PipelineBuilder {
    pub(crate) fn of(gpu: &crate::gpu::Gpu, ring: &ConstantRing) -> PipelineBuilder {
        PipelineBuilder {
            device: gpu.device.clone(),
            cache: gpu.pipeline_cache().cloned(),
            shapes: ring.shared.clone(),
            dynamic_uniform: ring.dynamic_uniform,
            dynamic_storage: ring.dynamic_storage,
        }
    }
}

/// Whether wgpu blends into the format (float32 formats only with `FLOAT32_BLENDABLE`).
/// Whether blending applies to a target of `format`: not to float32 bits held in u32 formats
/// (GL), and to float32 formats where the adapter has `FLOAT32_BLENDABLE`.
pub(super) fn blendable(format: wgpu::TextureFormat, features: wgpu::Features) -> bool {
    match format {
        wgpu::TextureFormat::R32Float
        | wgpu::TextureFormat::Rg32Float
        | wgpu::TextureFormat::Rgba32Float => features.contains(wgpu::Features::FLOAT32_BLENDABLE),
        f => !super::super::float_bits::holds_bits(f),
    }
}

/// The bind group layout entries of constant buffers.
fn buffer_entries(buffers: &[ConstantBuffer]) -> Vec<wgpu::BindGroupLayoutEntry> {
    buffers
        .iter()
        .map(|b| buffer_layout_entry(b.binding, b.storage, None))
        .collect()
}

/// The constants groups of a pipeline with `stages`' buffers (vertex, pixel): each bound
/// from the constants ring with dynamic offsets (an interned layout) while the adapter's
/// dynamic-offset bindings per pipeline layout last, otherwise by a bind group per version.
/// `windowed`: per stage, the binding of a `c#` read from a window (`FloatConstants::window`).
fn constants_groups(
    builder: &PipelineBuilder,
    stages: [&[ConstantBuffer]; 2],
    windowed: [Option<u32>; 2],
) -> [Option<ConstantsGroup>; 2] {
    let (mut uniform_left, mut storage_left) = (builder.dynamic_uniform, builder.dynamic_storage);
    let mut windowed = windowed.into_iter();
    stages.map(|buffers| {
        let windowed = windowed.next().flatten();
        let group = buffers.first()?.group;
        let storage = buffers.iter().filter(|b| b.storage).count() as u32;
        let uniform = buffers.len() as u32 - storage;
        let fits = buffers.len() <= MAX_ENTRIES
            && buffers
                .iter()
                .all(|b| b.group == group && !b.data.is_empty())
            && uniform <= uniform_left
            && storage <= storage_left;
        let shape = fits.then(|| {
            uniform_left -= uniform;
            storage_left -= storage;
            let entries = buffers
                .iter()
                .map(|b| RingEntry {
                    binding: b.binding,
                    storage: b.storage,
                    size: b.data.len() as u64,
                    windowed: Some(b.binding) == windowed,
                })
                .collect();
            intern(&builder.shapes, &builder.device, entries)
        });
        Some(ConstantsGroup { group, shape })
    })
}

pub(crate) fn build_pipeline<P>(
    builder: &PipelineBuilder,
    state: &DeviceState,
    pair: &ShaderPair,
    key: &PipelineKey<P>,
    streams: &[StreamLayout],
) -> Result<PipelineEntry, DeviceError> {
    let device = &builder.device;
    // The constant buffers' shapes (their values do not matter here).
    let vs = vertex_constant_buffers(state, pair, [0.0; 4], Extent::Full)?;
    let ps = pixel_constant_buffers(state, pair, Extent::Full);
    let stages: [&[ConstantBuffer]; 2] = [&vs, &ps];
    // Layout entries per group: 0 vertex constants, 1 vertex textures, 2 pixel constants,
    // 3 pixel textures.
    let mut groups: Vec<Vec<wgpu::BindGroupLayoutEntry>> = vec![Vec::new(); 4];
    for buffers in stages {
        for b in buffer_entries(buffers).into_iter().zip(buffers) {
            if let Some(g) = groups.get_mut(b.1.group as usize) {
                g.push(b.0);
            }
        }
    }
    // Only the vertex stage reads `c#` from a window (its first instance says where).
    let window = pair
        .vertex_interface
        .float_constants
        .filter(|f| f.window.is_some())
        .map(|f| f.binding);
    let [vs_constants, ps_constants] = constants_groups(builder, stages, [window, None]);
    texture_entries(pair, &key.filterable, &mut groups)?;
    while groups.last().is_some_and(Vec::is_empty) {
        groups.pop();
    }
    // A constants group bound from the ring has the ring's interned layout.
    let ring_layout = |index: usize| {
        [vs_constants, ps_constants]
            .into_iter()
            .flatten()
            .find(|c| c.group as usize == index)
            .and_then(|c| c.shape)
            .and_then(|shape| layout(&builder.shapes, shape))
    };
    let layouts: Vec<wgpu::BindGroupLayout> = groups
        .iter()
        .enumerate()
        .map(|(index, entries)| {
            ring_layout(index).unwrap_or_else(|| {
                device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                    label: None,
                    entries,
                })
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
    let pipeline = capture(device, "pipeline", || {
        let [vertex_module, fragment_module] = stage_modules(device, pair, &key.loops);
        Ok(
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some("draw"),
                layout: Some(&pipeline_layout),
                vertex: wgpu::VertexState {
                    module: &vertex_module,
                    entry_point: Some(d3d9_translator::lift::ENTRY_POINT),
                    compilation_options: Default::default(),
                    buffers: &buffers,
                },
                primitive: key.primitive,
                depth_stencil: key.depth_stencil.clone(),
                multisample: key.multisample,
                fragment: Some(wgpu::FragmentState {
                    module: &fragment_module,
                    entry_point: None,
                    compilation_options: Default::default(),
                    targets: &key.targets,
                }),
                multiview_mask: None,
                cache: builder.cache.as_ref(),
            }),
        )
    })
    .map_err(Device::gpu_error("draw"))?;
    Ok(PipelineEntry {
        pipeline,
        layouts,
        empty_groups,
        vs_constants,
        ps_constants,
        uses_blend_constant: key.targets.iter().flatten().any(|t| {
            t.blend
                .is_some_and(|b| b.color.uses_constant() || b.alpha.uses_constant())
        }),
    })
}

/// The layout entries of the textures and samplers `pair` reads, pushed on their groups: a
/// colour texture filterable or not as its format is, a shadow map's depth aspect with a
/// comparison sampler, raw depth as an unfilterable float texture (the shader filters it).
fn texture_entries(
    pair: &ShaderPair,
    filterable: &[bool],
    groups: &mut [Vec<wgpu::BindGroupLayoutEntry>],
) -> Result<(), DeviceError> {
    for (t, &filterable) in pair.textures.iter().zip(filterable) {
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
        // A depth texture's depth aspect: through a comparison sampler for a shadow map, as
        // an unfilterable float texture for raw depth (the shader filters it).
        let (sample_type, sampler) = match t.read {
            SamplerRead::Color | SamplerRead::Narrow { .. } if filterable => (
                wgpu::TextureSampleType::Float { filterable },
                wgpu::SamplerBindingType::Filtering,
            ),
            SamplerRead::Color | SamplerRead::Narrow { .. } => (
                wgpu::TextureSampleType::Float { filterable },
                wgpu::SamplerBindingType::NonFiltering,
            ),
            SamplerRead::Shadow => (
                wgpu::TextureSampleType::Depth,
                wgpu::SamplerBindingType::Comparison,
            ),
            SamplerRead::Depth { .. } => (
                wgpu::TextureSampleType::Float { filterable: false },
                wgpu::SamplerBindingType::NonFiltering,
            ),
        };
        g.push(wgpu::BindGroupLayoutEntry {
            binding: t.texture_binding,
            visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
            ty: wgpu::BindingType::Texture {
                sample_type,
                view_dimension,
                multisampled: false,
            },
            count: None,
        });
        g.push(wgpu::BindGroupLayoutEntry {
            binding: t.sampler_binding,
            visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
            ty: wgpu::BindingType::Sampler(sampler),
            count: None,
        });
    }
    Ok(())
}
