//! Render targets: 2D textures of one level that passes draw into (a D3D9 surface).

/// A render target (or a surface that may be one) to create: `samples` per texel.
#[derive(Clone, Copy, Debug)]
pub struct Target<'a> {
    pub label: &'a str,
    pub format: wgpu::TextureFormat,
    pub width: u32,
    pub height: u32,
    pub samples: u32,
    pub usage: wgpu::TextureUsages,
    /// The formats views of it may take (an sRGB view of a linear target).
    pub view_formats: &'a [wgpu::TextureFormat],
}

impl Target<'_> {
    /// A single-sampled target of `format` with `usage`.
    pub fn new(
        label: &str,
        format: wgpu::TextureFormat,
        (width, height): (u32, u32),
        usage: wgpu::TextureUsages,
    ) -> Target<'_> {
        Target {
            label,
            format,
            width,
            height,
            samples: 1,
            usage,
            view_formats: &[],
        }
    }

    /// Creates the texture (the caller checked the format, size and sample count).
    pub fn create(&self, device: &wgpu::Device) -> wgpu::Texture {
        device.create_texture(&wgpu::TextureDescriptor {
            label: Some(self.label),
            size: wgpu::Extent3d {
                width: self.width,
                height: self.height,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: self.samples,
            dimension: wgpu::TextureDimension::D2,
            format: self.format,
            usage: self.usage,
            view_formats: self.view_formats,
        })
    }
}
