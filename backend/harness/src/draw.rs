//! What the harness draws: shader stages, vertex streams, uniforms, the target, and the
//! image read back.

use d3d9_backend::device::CullMode;
use d3d9_backend::gpu::Indices;
use d3d9_translator::decl::StreamLayout;

use crate::texture::{SamplerBinding, TextureBinding};

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
    /// Pipeline-overridable constants (name, value) the pipeline is built with; none by
    /// default.
    pub constants: &'a [(&'a str, f64)],
}

impl<'a> ShaderStage<'a> {
    /// The only entry point of the stage in WGSL `source`.
    pub fn wgsl(source: &'a str) -> Self {
        Self {
            shader: Shader::Wgsl(source),
            entry_point: None,
            constants: &[],
        }
    }

    /// The only entry point of the stage in `module`.
    pub fn naga(module: &'a naga::Module) -> Self {
        Self {
            shader: Shader::Naga(module),
            entry_point: None,
            constants: &[],
        }
    }

    /// The same shader, running entry point `name`.
    pub fn entry(self, name: &'a str) -> Self {
        Self {
            entry_point: Some(name),
            ..self
        }
    }

    /// The same shader, its pipeline built with the pipeline-overridable `constants`.
    pub fn constants(self, constants: &'a [(&'a str, f64)]) -> Self {
        Self { constants, ..self }
    }

    /// The stage's `PipelineCompilationOptions`: its constants for WGSL text (a naga
    /// module's are resolved in the module, see `render::create_module`).
    pub(crate) fn compilation_options(&self) -> wgpu::PipelineCompilationOptions<'a> {
        wgpu::PipelineCompilationOptions {
            constants: match self.shader {
                Shader::Wgsl(_) => self.constants,
                Shader::Naga(_) => &[],
            },
            ..Default::default()
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
    pub cull: Option<CullMode>,
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
