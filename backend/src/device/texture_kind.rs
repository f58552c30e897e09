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

#[cfg(test)]
mod tests {
    use super::TextureKind;

    /// Each level halves every dimension, down to 1; a cube keeps its 6 faces as layers, a
    /// volume shrinks its depth too.
    #[test]
    fn levels_halve_down_to_1() {
        let extent = |kind: TextureKind, level| {
            let e = kind.level_extent([16, 4, 8], level);
            [e.width, e.height, e.depth_or_array_layers]
        };
        assert_eq!(extent(TextureKind::TwoD, 0), [16, 4, 1]);
        assert_eq!(extent(TextureKind::TwoD, 3), [2, 1, 1]);
        assert_eq!(extent(TextureKind::Cube, 1), [8, 2, 6]);
        assert_eq!(extent(TextureKind::Volume, 0), [16, 4, 8]);
        assert_eq!(extent(TextureKind::Volume, 2), [4, 1, 2]);
        assert_eq!(extent(TextureKind::Volume, 5), [1, 1, 1]);
    }

    #[test]
    fn each_kind_has_its_texture_and_view_dimensions() {
        use wgpu::{TextureDimension as T, TextureViewDimension as V};
        assert_eq!(TextureKind::TwoD.dimensions(), (T::D2, V::D2));
        assert_eq!(TextureKind::Cube.dimensions(), (T::D2, V::Cube));
        assert_eq!(TextureKind::Volume.dimensions(), (T::D3, V::D3));
    }
}
