//! The three texture resource types of D3D9 and the wgpu textures they become.

/// The texture resource type, as declared by `dcl_2d` / `dcl_cube` /
/// `dcl_volume`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextureKind {
    /// `IDirect3DTexture9`: a `texture_2d<f32>`.
    TwoD,
    /// `IDirect3DCubeTexture9`: six square faces in D3D9 order
    /// (`D3DCUBEMAP_FACE_POSITIVE_X`, `_NEGATIVE_X`, `_POSITIVE_Y`,
    /// `_NEGATIVE_Y`, `_POSITIVE_Z`, `_NEGATIVE_Z`), which is also wgpu's
    /// layer order; a `texture_cube<f32>`.
    Cube,
    /// `IDirect3DVolumeTexture9`: a `texture_3d<f32>`.
    Volume,
}

impl TextureKind {
    /// Width, height and layers (faces or slices) of mip level `level` of a texture of this
    /// kind whose level 0 is `width` x `height` (x `depth` slices for a volume).
    pub fn level_extent(self, [width, height, depth]: [u32; 3], level: u32) -> wgpu::Extent3d {
        let shrink = |n: u32| (n >> level).max(1);
        wgpu::Extent3d {
            width: shrink(width),
            height: shrink(height),
            depth_or_array_layers: match self {
                TextureKind::TwoD => 1,
                TextureKind::Cube => 6,
                TextureKind::Volume => shrink(depth),
            },
        }
    }

    /// The wgpu texture dimension and view dimension of this kind.
    pub fn dimensions(self) -> (wgpu::TextureDimension, wgpu::TextureViewDimension) {
        match self {
            TextureKind::TwoD => (wgpu::TextureDimension::D2, wgpu::TextureViewDimension::D2),
            TextureKind::Cube => (wgpu::TextureDimension::D2, wgpu::TextureViewDimension::Cube),
            TextureKind::Volume => (wgpu::TextureDimension::D3, wgpu::TextureViewDimension::D3),
        }
    }
}
