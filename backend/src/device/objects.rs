//! The device's objects: vertex declarations, shaders, vertex and index buffers, textures
//! and surfaces, named by handles. A handle is never reused, so the caches key on it; a
//! released or foreign handle is `D3DERR_INVALIDCALL`.

use std::sync::Arc;

use d3d9_translator::check::CheckedProgram;

use super::format::Format;
use crate::TextureKind;

macro_rules! handle {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub(crate) u64);
    };
}

handle!(
    /// `IDirect3DVertexDeclaration9`.
    DeclarationId
);
handle!(
    /// `IDirect3DVertexShader9`.
    VertexShaderId
);
handle!(
    /// `IDirect3DPixelShader9`.
    PixelShaderId
);
handle!(
    /// `IDirect3DVertexBuffer9`.
    VertexBufferId
);
handle!(
    /// `IDirect3DIndexBuffer9`.
    IndexBufferId
);
handle!(
    /// `IDirect3DTexture9`, `IDirect3DCubeTexture9` or `IDirect3DVolumeTexture9`.
    TextureId
);
handle!(
    /// `IDirect3DSurface9`: a render target, a depth-stencil surface, or a level of a
    /// render-target texture.
    SurfaceId
);

/// `D3DFMT_INDEX16` / `D3DFMT_INDEX32`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IndexFormat {
    Index16,
    Index32,
}

impl IndexFormat {
    pub(crate) fn wgpu(self) -> wgpu::IndexFormat {
        match self {
            IndexFormat::Index16 => wgpu::IndexFormat::Uint16,
            IndexFormat::Index32 => wgpu::IndexFormat::Uint32,
        }
    }

    pub(crate) fn size(self) -> u64 {
        match self {
            IndexFormat::Index16 => 2,
            IndexFormat::Index32 => 4,
        }
    }
}

/// A vertex or index buffer: the GPU buffer and the system-memory copy D3D9's managed pool
/// keeps (read by fan conversion, flat-shading reorders and `process_vertices`).
pub(crate) struct BufferObject {
    pub(crate) buffer: wgpu::Buffer,
    pub(crate) shadow: Vec<u8>,
    /// `Some` for index buffers.
    pub(crate) index_format: Option<IndexFormat>,
}

impl BufferObject {
    pub(crate) fn size(&self) -> u64 {
        self.shadow.len() as u64
    }
}

/// A shader created on the device: checked once, at creation.
pub(crate) type ShaderObject = Arc<CheckedProgram>;

/// A texture: its wgpu texture, and per level the texels D3D9's managed pool keeps in system
/// memory (render-target textures keep none: their contents live on the GPU).
pub(crate) struct TextureObject {
    pub(crate) kind: TextureKind,
    pub(crate) format: Format,
    pub(crate) wgpu_format: wgpu::TextureFormat,
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) depth: u32,
    pub(crate) levels: u32,
    pub(crate) texture: wgpu::Texture,
    pub(crate) view: wgpu::TextureView,
    pub(crate) render_target: bool,
    /// Bumped by every update, for the bind-group cache.
    pub(crate) version: u64,
}

impl TextureObject {
    /// Width, height and layers (faces or slices) of mip level `level`.
    pub(crate) fn level_extent(&self, level: u32) -> wgpu::Extent3d {
        self.kind
            .level_extent([self.width, self.height, self.depth], level)
    }
}

/// A surface: one 2D image of a texture (its own, for render targets and depth-stencil
/// surfaces) that can be drawn into and read back.
pub(crate) struct SurfaceObject {
    pub(crate) texture: wgpu::Texture,
    pub(crate) view: wgpu::TextureView,
    pub(crate) format: Format,
    pub(crate) wgpu_format: wgpu::TextureFormat,
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) level: u32,
}

impl SurfaceObject {
    /// Whether a float32 format is held as the bit patterns of its floats in a `u32` format,
    /// on adapters that cannot render to float32 (GL/GLES); draws into it bitcast their
    /// colour output, clears write the bits of the colour.
    pub(crate) fn holds_bits(&self) -> bool {
        matches!(
            self.wgpu_format,
            wgpu::TextureFormat::R32Uint
                | wgpu::TextureFormat::Rg32Uint
                | wgpu::TextureFormat::Rgba32Uint
        )
    }
}
