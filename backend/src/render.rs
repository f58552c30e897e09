//! One offscreen draw, read back to the CPU.

use std::borrow::Cow;

use d3d9_translator::decl::StreamLayout;
use wgpu::util::DeviceExt;

use crate::{Gpu, GpuError, SamplerBinding, TextureBinding};

/// Shader code for one stage: a naga module (what the translator produces)
/// or WGSL text.
#[derive(Clone, Copy, Debug)]
pub enum Shader<'a> {
    /// WGSL source text.
    Wgsl(&'a str),
    /// A naga module; wgpu validates it like WGSL.
    Naga(&'a naga::Module),
}

/// A shader and the entry point to run (`None`: the module's only entry
/// point of that stage).
#[derive(Clone, Copy, Debug)]
pub struct ShaderStage<'a> {
    pub shader: Shader<'a>,
    pub entry_point: Option<&'a str>,
}

impl<'a> ShaderStage<'a> {
    /// The only entry point of the stage in WGSL `source`.
    pub fn wgsl(source: &'a str) -> Self {
        Self {
            shader: Shader::Wgsl(source),
            entry_point: None,
        }
    }

    /// The only entry point of the stage in `module`.
    pub fn naga(module: &'a naga::Module) -> Self {
        Self {
            shader: Shader::Naga(module),
            entry_point: None,
        }
    }

    /// The same shader, running entry point `name`.
    pub fn entry(self, name: &'a str) -> Self {
        Self {
            entry_point: Some(name),
            ..self
        }
    }
}

/// One vertex stream: its bytes and how the vertex stage reads them.
/// Buffer slot `i` of the draw is `vertex_buffers[i]`.
#[derive(Clone, Debug)]
pub struct VertexBuffer<'a> {
    pub layout: wgpu::VertexBufferLayout<'a>,
    pub data: &'a [u8],
}

impl<'a> VertexBuffer<'a> {
    /// Stream `layout.stream` of a declaration bound to a shader, reading `data` (what
    /// `SetStreamSource` gave for that stream).
    pub fn stream(layout: &'a StreamLayout, data: &'a [u8]) -> Self {
        let (array_stride, step_mode, attributes) = layout.as_layout();
        Self {
            layout: wgpu::VertexBufferLayout {
                array_stride,
                step_mode,
                attributes,
            },
            data,
        }
    }
}

/// A buffer at `@group(group) @binding(binding)`: a uniform buffer visible to both stages,
/// or, with `storage`, a read-only storage buffer visible to the vertex stage (software vertex
/// processing's 8192 `c#`, past WebGPU's 64 KiB uniform limit). `data` is padded with zeros
/// to a multiple of 16 bytes. Build it with [`Uniform::new`] or [`Uniform::storage`].
#[derive(Clone, Copy, Debug)]
pub struct Uniform<'a> {
    pub group: u32,
    pub binding: u32,
    pub data: &'a [u8],
    /// `var<storage, read>` rather than `var<uniform>`.
    pub storage: bool,
}

impl<'a> Uniform<'a> {
    /// A uniform buffer (`var<uniform>`) holding `data`.
    pub fn new(group: u32, binding: u32, data: &'a [u8]) -> Self {
        Self {
            group,
            binding,
            data,
            storage: false,
        }
    }

    /// A read-only storage buffer (`var<storage, read>`) holding `data`.
    pub fn storage(group: u32, binding: u32, data: &'a [u8]) -> Self {
        Self {
            storage: true,
            ..Self::new(group, binding, data)
        }
    }
}

/// An index buffer; the draw then covers all of its indices.
#[derive(Clone, Copy, Debug)]
pub enum Indices<'a> {
    U16(&'a [u16]),
    U32(&'a [u32]),
}

impl Indices<'_> {
    /// The wgpu index format of these indices.
    pub fn format(&self) -> wgpu::IndexFormat {
        match self {
            Indices::U16(_) => wgpu::IndexFormat::Uint16,
            Indices::U32(_) => wgpu::IndexFormat::Uint32,
        }
    }
}

/// The colour target: format, size and the colour it is cleared to first.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    pub format: wgpu::TextureFormat,
    pub width: u32,
    pub height: u32,
    pub clear: wgpu::Color,
}

impl Target {
    /// An `Rgba8Unorm` target cleared to transparent black (Wine-style
    /// colour tests use 640x480).
    pub fn rgba8(width: u32, height: u32) -> Self {
        Self {
            format: wgpu::TextureFormat::Rgba8Unorm,
            width,
            height,
            clear: wgpu::Color::TRANSPARENT,
        }
    }

    /// An `Rgba32Float` target cleared to zero, for exact numeric tests.
    pub fn rgba32f(width: u32, height: u32) -> Self {
        Self {
            format: wgpu::TextureFormat::Rgba32Float,
            ..Self::rgba8(width, height)
        }
    }

    /// The same target, cleared to `clear`.
    pub fn cleared_to(self, clear: wgpu::Color) -> Self {
        Self { clear, ..self }
    }
}

/// Everything one draw needs. Build it with [`Draw::new`] and override
/// fields with struct update syntax.
#[derive(Clone, Debug)]
pub struct Draw<'a> {
    pub vertex: ShaderStage<'a>,
    pub fragment: ShaderStage<'a>,
    pub vertex_buffers: &'a [VertexBuffer<'a>],
    pub uniforms: &'a [Uniform<'a>],
    /// Textures, visible to both stages (none by default).
    pub textures: &'a [TextureBinding<'a>],
    /// Samplers, visible to both stages (none by default).
    pub samplers: &'a [SamplerBinding],
    pub topology: wgpu::PrimitiveTopology,
    /// With `Some`, the draw is indexed and `vertex_count` is ignored.
    pub indices: Option<Indices<'a>>,
    pub vertex_count: u32,
    pub instance_count: u32,
    pub target: Target,
    /// `D3DRS_CULLMODE` of this draw in a [`Frame`](crate::Frame); `None`: the frame's.
    pub cull: Option<crate::CullMode>,
}

impl<'a> Draw<'a> {
    /// A non-indexed triangle list of `vertex_count` vertices, one instance,
    /// no vertex buffers, no uniforms, no textures or samplers.
    pub fn new(
        vertex: ShaderStage<'a>,
        fragment: ShaderStage<'a>,
        vertex_count: u32,
        target: Target,
    ) -> Self {
        Self {
            vertex,
            fragment,
            vertex_buffers: &[],
            uniforms: &[],
            textures: &[],
            samplers: &[],
            topology: wgpu::PrimitiveTopology::TriangleList,
            indices: None,
            vertex_count,
            instance_count: 1,
            target,
            cull: None,
        }
    }
}

/// A read-back render target: rows top to bottom, tightly packed.
#[derive(Clone, Debug, PartialEq)]
pub struct Image {
    pub format: wgpu::TextureFormat,
    pub width: u32,
    pub height: u32,
    /// `width * height` texels of `format`'s size, no row padding.
    pub data: Vec<u8>,
}

impl Image {
    /// Bytes of one texel.
    fn texel_size(&self) -> usize {
        self.format.block_copy_size(None).unwrap_or(0) as usize
    }

    /// The raw bytes of texel (x, y); `None` outside the image.
    pub fn texel(&self, x: u32, y: u32) -> Option<&[u8]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let size = self.texel_size();
        let start = (y as usize * self.width as usize + x as usize) * size;
        self.data.get(start..start + size)
    }

    /// Texel (x, y) of an `Rgba8Unorm` image as `[r, g, b, a]`; `None`
    /// outside the image or for another format.
    pub fn rgba8(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        if self.format != wgpu::TextureFormat::Rgba8Unorm {
            return None;
        }
        self.texel(x, y)?.try_into().ok()
    }

    /// Texel (x, y) of an `Rgba32Float` image; `None` outside the image or
    /// for another format.
    pub fn rgba32f(&self, x: u32, y: u32) -> Option<[f32; 4]> {
        if self.format != wgpu::TextureFormat::Rgba32Float {
            return None;
        }
        let bytes: &[u8; 16] = self.texel(x, y)?.try_into().ok()?;
        Some(bytemuck::cast(*bytes))
    }
}

impl Gpu {
    /// Creates a shader module, with wgpu's validation errors as [`GpuError::Wgpu`].
    pub fn shader_module(&self, shader: Shader<'_>) -> Result<wgpu::ShaderModule, GpuError> {
        self.capture("shader module", || Ok(self.create_module(shader)))
    }

    /// `shader` as a naga module (parsing WGSL), for the harness's rewrites.
    pub(crate) fn naga_module<'s>(
        shader: Shader<'s>,
        stage: &'static str,
    ) -> Result<Cow<'s, naga::Module>, GpuError> {
        match shader {
            Shader::Naga(module) => Ok(Cow::Borrowed(module)),
            Shader::Wgsl(text) => naga::front::wgsl::parse_str(text)
                .map(Cow::Owned)
                .map_err(|e| GpuError::Wgsl {
                    stage,
                    message: e.emit_to_string(text),
                }),
        }
    }

    pub(crate) fn create_module(&self, shader: Shader<'_>) -> wgpu::ShaderModule {
        let source = match shader {
            Shader::Wgsl(text) => wgpu::ShaderSource::Wgsl(Cow::Borrowed(text)),
            Shader::Naga(module) => wgpu::ShaderSource::Naga(Cow::Owned(module.clone())),
        };
        self.device
            .create_shader_module(wgpu::ShaderModuleDescriptor {
                label: None,
                source,
            })
    }

    /// Clears `draw.target`, makes the one draw, and reads the target back.
    /// Cull mode none, no depth buffer, no blending: a one-draw [`Frame`](crate::Frame).
    pub fn render(&self, draw: &Draw<'_>) -> Result<Image, GpuError> {
        self.render_frame(&crate::Frame {
            target: draw.target,
            draws: std::slice::from_ref(draw),
            cull: crate::CullMode::None,
        })
    }

    /// A buffer holding `data`, zero-padded to a multiple of 16 bytes.
    pub(crate) fn init_buffer(&self, data: &[u8], usage: wgpu::BufferUsages) -> wgpu::Buffer {
        let mut contents = data.to_vec();
        contents.resize(data.len().div_ceil(16).max(1) * 16, 0);
        self.device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: None,
                contents: &contents,
                usage,
            })
    }

    /// A 2D render target that can be copied out.
    pub(crate) fn target_texture(
        &self,
        format: wgpu::TextureFormat,
        width: u32,
        height: u32,
    ) -> Result<wgpu::Texture, GpuError> {
        let limit = self.device.limits().max_texture_dimension_2d;
        if width == 0 || height == 0 || width > limit || height > limit {
            return Err(GpuError::TargetSize {
                width,
                height,
                limit,
            });
        }
        if format.block_copy_size(None).is_none() || format.block_dimensions() != (1, 1) {
            return Err(GpuError::TargetFormat(format));
        }
        if !self
            .format_usages(format)
            .contains(crate::caps::TARGET_USAGES)
        {
            return Err(self.unsupported(crate::Capability::RenderTarget { format }));
        }
        self.capture("render target", || {
            Ok(self.device.create_texture(&wgpu::TextureDescriptor {
                label: Some("harness target"),
                size: wgpu::Extent3d {
                    width,
                    height,
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
                view_formats: &[],
            }))
        })
    }

    /// Copies `texture` into a mappable buffer (rows padded to
    /// `COPY_BYTES_PER_ROW_ALIGNMENT`) and returns the unpadded texels.
    pub(crate) fn read_texture(
        &self,
        texture: &wgpu::Texture,
        format: wgpu::TextureFormat,
        width: u32,
        height: u32,
    ) -> Result<Image, GpuError> {
        let texel = format
            .block_copy_size(None)
            .ok_or(GpuError::TargetFormat(format))?;
        let row = width * texel;
        let padded_row =
            row.div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let buffer = self.capture("readback copy", || {
            let buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("harness readback"),
                size: u64::from(padded_row) * u64::from(height),
                usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
                mapped_at_creation: false,
            });
            let mut encoder = self.device.create_command_encoder(&Default::default());
            encoder.copy_texture_to_buffer(
                texture.as_image_copy(),
                wgpu::TexelCopyBufferInfo {
                    buffer: &buffer,
                    layout: wgpu::TexelCopyBufferLayout {
                        offset: 0,
                        bytes_per_row: Some(padded_row),
                        rows_per_image: Some(height),
                    },
                },
                wgpu::Extent3d {
                    width,
                    height,
                    depth_or_array_layers: 1,
                },
            );
            self.queue.submit([encoder.finish()]);
            Ok(buffer)
        })?;
        let (sender, receiver) = std::sync::mpsc::channel();
        buffer
            .slice(..)
            .map_async(wgpu::MapMode::Read, move |result| {
                // The receiver outlives the poll below; a send error cannot happen.
                let _ = sender.send(result);
            });
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| GpuError::Readback(e.to_string()))?;
        receiver
            .recv()
            .map_err(|e| GpuError::Readback(e.to_string()))?
            .map_err(|e| GpuError::Readback(e.to_string()))?;
        let mapped = buffer
            .get_mapped_range(..)
            .map_err(|e| GpuError::Readback(e.to_string()))?;
        let mut data = Vec::with_capacity(row as usize * height as usize);
        for chunk in mapped.chunks(padded_row as usize) {
            data.extend_from_slice(chunk.get(..row as usize).unwrap_or(chunk));
        }
        drop(mapped);
        buffer.unmap();
        Ok(Image {
            format,
            width,
            height,
            data,
        })
    }
}

/// Starts a render pass clearing each `(view, colour)` attachment.
pub(crate) fn begin_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    targets: &[(&wgpu::TextureView, wgpu::Color)],
) -> wgpu::RenderPass<'e> {
    let attachments: Vec<_> = targets
        .iter()
        .map(|&(view, clear)| {
            Some(wgpu::RenderPassColorAttachment {
                view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(clear),
                    store: wgpu::StoreOp::Store,
                },
            })
        })
        .collect();
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("harness pass"),
        color_attachments: &attachments,
        depth_stencil_attachment: None,
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    })
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
    ) -> Result<Self, GpuError> {
        let groups = uniforms
            .iter()
            .map(|u| u.group)
            .chain(textures.iter().map(|t| t.group))
            .chain(samplers.iter().map(|s| s.group))
            .map(|g| g.saturating_add(1))
            .max()
            .unwrap_or(0);
        let limits = gpu.device.limits();
        gpu.require(crate::caps::check_buffers(
            uniforms,
            &limits,
            gpu.downlevel(),
        ))?;
        gpu.require(crate::caps::check_bindings(
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
            .map(|t| gpu.bind_texture(t))
            .collect::<Result<Vec<_>, _>>()?;
        gpu.require(crate::caps::check_filtering(textures, samplers, |format| {
            matches!(
                format.sample_type(None, Some(gpu.device.features())),
                Some(wgpu::TextureSampleType::Float { filterable: true })
            )
        }))?;
        let bound_samplers = samplers
            .iter()
            .map(|s| gpu.bind_sampler(s))
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
                .device
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
            groups.push(gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: None,
                layout: &layout,
                entries: &entries,
            }));
            layouts.push(layout);
        }
        let layout_refs: Vec<_> = layouts.iter().map(Some).collect();
        let pipeline_layout = gpu
            .device
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
