//! The GPU work under every harness draw: shader modules, targets, read-back, the pass and
//! the bind groups.

use std::borrow::Cow;

use d3d9_backend::gpu::caps::TARGET_USAGES;
use d3d9_backend::gpu::{pass, Capability, Gpu, TexelCopy};

use crate::caps::{check_buffers, check_filtering};
use crate::draw::{Image, Shader, Uniform};
use crate::error::HarnessError;
use crate::texture::{bind_sampler, bind_texture, SamplerBinding, TextureBinding};

/// Creates a shader module, with wgpu's validation errors as
/// [`GpuError::Wgpu`](d3d9_backend::gpu::GpuError::Wgpu).
pub(crate) fn shader_module(
    gpu: &Gpu,
    shader: Shader<'_>,
) -> Result<wgpu::ShaderModule, HarnessError> {
    gpu.capture("shader module", || Ok(create_module(gpu, shader, &[])))
}

/// `shader` as a naga module (parsing WGSL), for the harness's rewrites.
pub(crate) fn naga_module<'s>(
    shader: Shader<'s>,
    stage: &'static str,
) -> Result<Cow<'s, naga::Module>, HarnessError> {
    match shader {
        Shader::Naga(module) => Ok(Cow::Borrowed(module)),
        Shader::Wgsl(text) => naga::front::wgsl::parse_str(text)
            .map(Cow::Owned)
            .map_err(|e| HarnessError::Wgsl {
                stage,
                message: e.emit_to_string(text),
            }),
    }
}

/// The wgpu module of `shader`; a naga module's pipeline-overridable constants (a
/// translation's loop `i#`) resolved to `constants` or their defaults
/// (`lift::resolve_overrides`; WGSL text takes them as the pipeline's `constants`).
pub(crate) fn create_module(
    gpu: &Gpu,
    shader: Shader<'_>,
    constants: &[(&str, f64)],
) -> wgpu::ShaderModule {
    let source = match shader {
        Shader::Wgsl(text) => wgpu::ShaderSource::Wgsl(Cow::Borrowed(text)),
        Shader::Naga(module) => {
            let mut module = module.clone();
            d3d9_translator::lift::resolve_overrides(&mut module, constants);
            wgpu::ShaderSource::Naga(Cow::Owned(module))
        }
    };
    gpu.device()
        .create_shader_module(wgpu::ShaderModuleDescriptor {
            label: None,
            source,
        })
}

/// A 2D render target that can be copied out.
pub(crate) fn target_texture(
    gpu: &Gpu,
    format: wgpu::TextureFormat,
    width: u32,
    height: u32,
) -> Result<wgpu::Texture, HarnessError> {
    let limit = gpu.device().limits().max_texture_dimension_2d;
    if width == 0 || height == 0 || width > limit || height > limit {
        return Err(HarnessError::TargetSize {
            width,
            height,
            limit,
        });
    }
    if format.block_copy_size(None).is_none() || format.block_dimensions() != (1, 1) {
        return Err(HarnessError::TargetFormat(format));
    }
    if !gpu.format_usages(format).contains(TARGET_USAGES) {
        return Err(gpu.unsupported(Capability::RenderTarget { format }).into());
    }
    let target =
        d3d9_backend::gpu::Target::new("harness target", format, (width, height), TARGET_USAGES);
    gpu.capture("render target", || Ok(target.create(gpu.device())))
}

/// Copies `texture` into a mappable buffer (rows padded to
/// `COPY_BYTES_PER_ROW_ALIGNMENT`) and returns the unpadded texels.
pub(crate) fn read_texture(
    gpu: &Gpu,
    texture: &wgpu::Texture,
    format: wgpu::TextureFormat,
    width: u32,
    height: u32,
) -> Result<Image, HarnessError> {
    let texel = format
        .block_copy_size(None)
        .ok_or(HarnessError::TargetFormat(format))?;
    let copy = TexelCopy {
        level: 0,
        origin: wgpu::Origin3d::ZERO,
        aspect: wgpu::TextureAspect::All,
        extent: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        row_bytes: width * texel,
        rows: height,
    };
    let data = gpu.read_texels(texture, copy)?;
    Ok(Image {
        format,
        width,
        height,
        data,
    })
}

/// Starts a render pass clearing each `(view, colour)` attachment.
pub(crate) fn begin_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    targets: &[(&wgpu::TextureView, wgpu::Color)],
) -> wgpu::RenderPass<'e> {
    let attachments: Vec<_> = targets
        .iter()
        .map(|&(view, clear)| Some(pass::color_attachment(view, wgpu::LoadOp::Clear(clear))))
        .collect();
    pass::begin(encoder, "harness pass", &attachments, None)
}

/// Uniform and read-only storage buffers, textures and samplers grouped into explicit bind
/// group layouts (groups with none get an empty layout), visible to vertex and fragment
/// stages (storage buffers to the vertex stage only).
pub(crate) struct Bindings {
    pub(crate) pipeline_layout: wgpu::PipelineLayout,
    groups: Vec<wgpu::BindGroup>,
}

impl Bindings {
    pub(crate) fn new(
        gpu: &Gpu,
        uniforms: &[Uniform<'_>],
        textures: &[TextureBinding<'_>],
        samplers: &[SamplerBinding],
    ) -> Result<Self, HarnessError> {
        let groups = uniforms
            .iter()
            .map(|u| u.group)
            .chain(textures.iter().map(|t| t.group))
            .chain(samplers.iter().map(|s| s.group))
            .map(|g| g.saturating_add(1))
            .max()
            .unwrap_or(0);
        let limits = gpu.device().limits();
        gpu.require(check_buffers(uniforms, &limits, gpu.downlevel()))?;
        gpu.require(d3d9_backend::gpu::caps::check_bindings(
            groups,
            textures.len(),
            samplers.len(),
            &limits,
        ))?;
        // (group, layout entry, resource) for every binding.
        let buffers: Vec<_> = uniforms
            .iter()
            .map(|u| {
                let usage = match u.storage {
                    true => wgpu::BufferUsages::STORAGE,
                    false => wgpu::BufferUsages::UNIFORM,
                };
                gpu.init_buffer(u.data, usage)
            })
            .collect();
        let bound_textures = textures
            .iter()
            .map(|t| bind_texture(gpu, t))
            .collect::<Result<Vec<_>, _>>()?;
        gpu.require(check_filtering(textures, samplers, |format| {
            matches!(
                format.sample_type(None, Some(gpu.device().features())),
                Some(wgpu::TextureSampleType::Float { filterable: true })
            )
        }))?;
        let bound_samplers = samplers
            .iter()
            .map(|s| bind_sampler(gpu, s))
            .collect::<Result<Vec<_>, _>>()?;
        let mut all: Vec<(u32, wgpu::BindGroupLayoutEntry, wgpu::BindingResource<'_>)> = Vec::new();
        for (u, buffer) in uniforms.iter().zip(&buffers) {
            let (visibility, ty) = match u.storage {
                true => (
                    wgpu::ShaderStages::VERTEX,
                    wgpu::BufferBindingType::Storage { read_only: true },
                ),
                false => (
                    wgpu::ShaderStages::VERTEX_FRAGMENT,
                    wgpu::BufferBindingType::Uniform,
                ),
            };
            let entry = wgpu::BindGroupLayoutEntry {
                binding: u.binding,
                visibility,
                ty: wgpu::BindingType::Buffer {
                    ty,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            };
            all.push((u.group, entry, buffer.as_entire_binding()));
        }
        for (t, bound) in textures.iter().zip(&bound_textures) {
            let resource = wgpu::BindingResource::TextureView(&bound.view);
            all.push((t.group, bound.layout, resource));
        }
        for (s, bound) in samplers.iter().zip(&bound_samplers) {
            let resource = wgpu::BindingResource::Sampler(&bound.sampler);
            all.push((s.group, bound.layout, resource));
        }
        let group_count = all.iter().map(|(g, ..)| g + 1).max().unwrap_or(0);
        let mut layouts = Vec::new();
        let mut groups = Vec::new();
        for group in 0..group_count {
            let members: Vec<_> = all.iter().filter(|(g, ..)| *g == group).collect();
            let layout_entries: Vec<_> = members.iter().map(|(_, entry, _)| *entry).collect();
            let layout = gpu
                .device()
                .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                    label: None,
                    entries: &layout_entries,
                });
            let entries: Vec<_> = members
                .iter()
                .map(|(_, entry, resource)| wgpu::BindGroupEntry {
                    binding: entry.binding,
                    resource: resource.clone(),
                })
                .collect();
            groups.push(gpu.device().create_bind_group(&wgpu::BindGroupDescriptor {
                label: None,
                layout: &layout,
                entries: &entries,
            }));
            layouts.push(layout);
        }
        let layout_refs: Vec<_> = layouts.iter().map(Some).collect();
        let pipeline_layout =
            gpu.device()
                .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                    label: None,
                    bind_group_layouts: &layout_refs,
                    immediate_size: 0,
                });
        Ok(Self {
            pipeline_layout,
            groups,
        })
    }

    pub(crate) fn set(&self, pass: &mut wgpu::RenderPass<'_>) {
        for (index, group) in (0u32..).zip(&self.groups) {
            pass.set_bind_group(index, group, &[]);
        }
    }
}
