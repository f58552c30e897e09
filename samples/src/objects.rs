//! The objects a scene program creates, kept so that it can release them all (before a
//! `Reset`, as D3D9 requires of `D3DPOOL_DEFAULT` resources, or when it ends).

use d3d9_backend::device::{
    DeclarationId, Device, Format, IndexBufferId, PixelShaderId, TextureId, VertexBufferId,
    VertexShaderId,
};
use d3d9_translator::asm::assemble_tokens;
use d3d9_translator::decl::VertexElement;

use crate::error::DrawError;

/// Every object a program made, by kind.
#[derive(Debug, Default)]
pub struct Objects {
    vertex_buffers: Vec<VertexBufferId>,
    index_buffers: Vec<IndexBufferId>,
    textures: Vec<TextureId>,
    vertex_shaders: Vec<VertexShaderId>,
    pixel_shaders: Vec<PixelShaderId>,
    declarations: Vec<DeclarationId>,
}

impl Objects {
    /// `CreateVertexBuffer` + `Lock` + copy of `vertices` + `Unlock`.
    pub fn vertex_buffer<V: bytemuck::Pod>(
        &mut self,
        device: &mut Device,
        vertices: &[V],
    ) -> Result<VertexBufferId, DrawError> {
        let id = device.create_vertex_buffer_with(bytemuck::cast_slice(vertices))?;
        self.vertex_buffers.push(id);
        Ok(id)
    }

    /// `CreateIndexBuffer(D3DFMT_INDEX16)` + `Lock` + copy + `Unlock`.
    pub fn index_buffer(
        &mut self,
        device: &mut Device,
        indices: &[u16],
    ) -> Result<IndexBufferId, DrawError> {
        let id = device.create_index_buffer_u16(indices)?;
        self.index_buffers.push(id);
        Ok(id)
    }

    /// `CreateVertexShader` of assembly text (assembled as `fxc` / `D3DXAssembleShader` would).
    pub fn vertex_shader(
        &mut self,
        device: &mut Device,
        asm: &str,
    ) -> Result<VertexShaderId, DrawError> {
        let id = device.create_vertex_shader(&assemble_tokens(asm)?)?;
        self.vertex_shaders.push(id);
        Ok(id)
    }

    /// `CreatePixelShader` of assembly text.
    pub fn pixel_shader(
        &mut self,
        device: &mut Device,
        asm: &str,
    ) -> Result<PixelShaderId, DrawError> {
        let id = device.create_pixel_shader(&assemble_tokens(asm)?)?;
        self.pixel_shaders.push(id);
        Ok(id)
    }

    /// `CreateVertexDeclaration`.
    pub fn declaration(
        &mut self,
        device: &mut Device,
        elements: &[VertexElement],
    ) -> Result<DeclarationId, DrawError> {
        let id = device.create_vertex_declaration(elements)?;
        self.declarations.push(id);
        Ok(id)
    }

    /// `CreateTexture(width, height, levels.len(), 0, format, D3DPOOL_MANAGED)`, each level
    /// filled through `LockRect` with its bytes (rows of texels, or of 4x4 blocks for DXT).
    pub fn texture(
        &mut self,
        device: &mut Device,
        (width, height): (u32, u32),
        format: Format,
        levels: &[Vec<u8>],
    ) -> Result<TextureId, DrawError> {
        let count = u32::try_from(levels.len()).unwrap_or(u32::MAX);
        let id = device.create_texture(width, height, count, format)?;
        self.textures.push(id);
        for (level, data) in (0..).zip(levels) {
            device.update_texture(id, level, data)?;
        }
        Ok(id)
    }

    /// `CreateTexture(width, height, 1, D3DUSAGE_RENDERTARGET, format, D3DPOOL_DEFAULT)`.
    pub fn render_target_texture(
        &mut self,
        device: &mut Device,
        (width, height): (u32, u32),
        format: Format,
    ) -> Result<TextureId, DrawError> {
        let id = device.create_render_target_texture(width, height, format)?;
        self.textures.push(id);
        Ok(id)
    }

    /// Unbinds what a program binds (shaders, stream 0, indices, textures 0–3, render
    /// target 0 back to the back buffer), then releases every object.
    pub fn release(&mut self, device: &mut Device) -> Result<(), DrawError> {
        device.set_vertex_shader(None)?;
        device.set_pixel_shader(None)?;
        device.set_stream_source(0, None, 0, 0)?;
        device.set_indices(None)?;
        for sampler in 0..4 {
            device.set_texture(sampler, None)?;
        }
        device.set_render_target(0, Some(device.back_buffer()))?;
        for id in self.vertex_buffers.drain(..) {
            device.release_vertex_buffer(id)?;
        }
        for id in self.index_buffers.drain(..) {
            device.release_index_buffer(id)?;
        }
        for id in self.textures.drain(..) {
            device.release_texture(id)?;
        }
        for id in self.vertex_shaders.drain(..) {
            device.release_vertex_shader(id)?;
        }
        for id in self.pixel_shaders.drain(..) {
            device.release_pixel_shader(id)?;
        }
        for id in self.declarations.drain(..) {
            device.release_vertex_declaration(id)?;
        }
        Ok(())
    }
}
