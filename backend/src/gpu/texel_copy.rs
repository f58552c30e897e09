//! A region of one texture subresource copied to or from tightly packed CPU bytes: what
//! [`Gpu::read_texels`](super::Gpu::read_texels) and [`write_texels`](super::write_texels)
//! take.

/// The subresource, the region's corner and size, and the CPU side's row layout.
#[derive(Clone, Copy, Debug)]
pub struct TexelCopy {
    pub level: u32,
    /// The region's corner: `z` is the array layer (cube face) or volume slice.
    pub origin: wgpu::Origin3d,
    pub aspect: wgpu::TextureAspect,
    /// The extent copied (whole blocks for a compressed format).
    pub extent: wgpu::Extent3d,
    /// Bytes of one row of texels (of blocks for a compressed format), tightly packed.
    pub row_bytes: u32,
    /// Rows (of blocks) of one image (slice).
    pub rows: u32,
}

impl TexelCopy {
    /// The texture side of the copy.
    pub(crate) fn texture<'t>(&self, texture: &'t wgpu::Texture) -> wgpu::TexelCopyTextureInfo<'t> {
        wgpu::TexelCopyTextureInfo {
            texture,
            mip_level: self.level,
            origin: self.origin,
            aspect: self.aspect,
        }
    }
}
