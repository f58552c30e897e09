//! Textures and samplers bound to a draw or a vertex probe, for vertex
//! texture fetch (`texldl`).
//!
//! D3D9 binds a texture and its sampler states to one sampler stage; wgpu
//! binds a texture view and a sampler separately. The translator puts
//! vertex sampler `s#n` at `@group(1)`, texture `@binding(2n)`, sampler
//! `@binding(2n+1)`; a [`TextureBinding`] and a [`SamplerBinding`] fill
//! those slots.

use d3d9_backend::device::{
    sampler_descriptor, MipFilter, TextureAddress, TextureFilter, TextureKind,
};
use d3d9_backend::gpu::caps::{check_texture_size, TEXTURE_USAGES};
use d3d9_backend::gpu::{write_texels, Capability, Gpu, TexelCopy};

use crate::error::HarnessError;

/// A texture at `@group(group) @binding(binding)`, with all its mip levels.
///
/// `levels[m]` holds mip level `m`, tightly packed texels of `format`
/// (rows top to bottom, then faces or slices in order): level `m` is
/// `max(width >> m, 1)` x `max(height >> m, 1)` texels, times 6 faces for a
/// cube, times `max(depth >> m, 1)` slices for a volume. Build it with
/// [`TextureBinding::two_d`], [`TextureBinding::cube`] or
/// [`TextureBinding::volume`].
#[derive(Clone, Copy, Debug)]
pub struct TextureBinding<'a> {
    pub group: u32,
    pub binding: u32,
    pub kind: TextureKind,
    /// Any uncompressed colour format the shader can sample as float
    /// (`Rgba8Unorm` for `D3DFMT_A8B8G8R8`, `Rgba32Float` for
    /// `D3DFMT_A32B32G32R32F`, ...).
    pub format: wgpu::TextureFormat,
    pub width: u32,
    pub height: u32,
    /// Slices of a volume; 1 for 2D and cube textures.
    pub depth: u32,
    pub levels: &'a [&'a [u8]],
}

impl<'a> TextureBinding<'a> {
    /// A 2D texture of `width` x `height` texels with mip `levels`.
    pub fn two_d(
        group: u32,
        binding: u32,
        format: wgpu::TextureFormat,
        width: u32,
        height: u32,
        levels: &'a [&'a [u8]],
    ) -> Self {
        Self {
            group,
            binding,
            kind: TextureKind::TwoD,
            format,
            width,
            height,
            depth: 1,
            levels,
        }
    }

    /// A cube texture of `edge` x `edge` faces with mip `levels` (each level
    /// holds its six faces in order).
    pub fn cube(
        group: u32,
        binding: u32,
        format: wgpu::TextureFormat,
        edge: u32,
        levels: &'a [&'a [u8]],
    ) -> Self {
        Self {
            kind: TextureKind::Cube,
            ..Self::two_d(group, binding, format, edge, edge, levels)
        }
    }

    /// A volume texture of `width` x `height` x `depth` texels with mip
    /// `levels`.
    pub fn volume(
        group: u32,
        binding: u32,
        format: wgpu::TextureFormat,
        [width, height, depth]: [u32; 3],
        levels: &'a [&'a [u8]],
    ) -> Self {
        Self {
            kind: TextureKind::Volume,
            depth,
            ..Self::two_d(group, binding, format, width, height, levels)
        }
    }

    /// Width, height and layers (faces or slices) of mip level `level`.
    fn level_extent(&self, level: u32) -> wgpu::Extent3d {
        self.kind
            .level_extent([self.width, self.height, self.depth], level)
    }
}

/// The sampler states of one sampler stage, at `@group(group)
/// @binding(binding)`. [`SamplerBinding::new`] gives D3D9's defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SamplerBinding {
    pub group: u32,
    pub binding: u32,
    /// `D3DSAMP_ADDRESSU`, `_ADDRESSV`, `_ADDRESSW`.
    pub address: [TextureAddress; 3],
    /// `D3DSAMP_MAGFILTER`.
    pub mag_filter: TextureFilter,
    /// `D3DSAMP_MINFILTER`.
    pub min_filter: TextureFilter,
    /// `D3DSAMP_MIPFILTER`.
    pub mip_filter: MipFilter,
    /// `D3DSAMP_MAXMIPLEVEL`: the most detailed level ever read (default 0).
    pub max_mip_level: u32,
}

impl SamplerBinding {
    /// D3D9's default sampler states: address `WRAP` in u, v and w, min and
    /// mag filter `POINT`, mip filter `NONE`, max mip level 0.
    pub fn new(group: u32, binding: u32) -> Self {
        Self {
            group,
            binding,
            address: [TextureAddress::Wrap; 3],
            mag_filter: TextureFilter::Point,
            min_filter: TextureFilter::Point,
            mip_filter: MipFilter::None,
            max_mip_level: 0,
        }
    }

    /// Whether any filter blends texels (needs a filterable format).
    pub(crate) fn filters(&self) -> bool {
        self.mag_filter.blends() || self.min_filter.blends() || self.mip_filter == MipFilter::Linear
    }

    /// The wgpu sampler with the same effect. `MIPFILTER = NONE` becomes an
    /// LOD clamped to exactly `MAXMIPLEVEL`; otherwise LODs below
    /// `MAXMIPLEVEL` are raised to it.
    fn descriptor(&self) -> wgpu::SamplerDescriptor<'static> {
        let border = self
            .address
            .contains(&TextureAddress::Border)
            .then_some(wgpu::SamplerBorderColor::TransparentBlack);
        sampler_descriptor(
            self.address,
            [self.mag_filter, self.min_filter],
            self.mip_filter,
            self.max_mip_level,
            border,
            1,
        )
    }
}

/// A created texture's view and its bind group layout entry.
pub(crate) struct BoundTexture {
    pub(crate) layout: wgpu::BindGroupLayoutEntry,
    pub(crate) view: wgpu::TextureView,
}

/// A created sampler and its bind group layout entry.
pub(crate) struct BoundSampler {
    pub(crate) layout: wgpu::BindGroupLayoutEntry,
    pub(crate) sampler: wgpu::Sampler,
}

/// Creates and fills `texture`. Its layout entry is a filterable float
/// texture only where the format is filterable on this device.
pub(crate) fn bind_texture(
    gpu: &Gpu,
    texture: &TextureBinding<'_>,
) -> Result<BoundTexture, HarnessError> {
    let format = texture.format;
    let texel = format
        .block_copy_size(None)
        .filter(|_| format.block_dimensions() == (1, 1))
        .ok_or(HarnessError::TextureFormat {
            binding: texture.binding,
            format,
        })?;
    let filterable = match format.sample_type(None, Some(gpu.device().features())) {
        Some(wgpu::TextureSampleType::Float { filterable }) => filterable,
        _ => {
            return Err(HarnessError::TextureFormat {
                binding: texture.binding,
                format,
            })
        }
    };
    if !gpu.format_usages(format).contains(TEXTURE_USAGES) {
        return Err(gpu
            .unsupported(Capability::SampledTexture { format })
            .into());
    }
    gpu.require(check_texture_size(
        texture.kind.dimensions().1,
        [texture.width, texture.height, texture.depth],
        &gpu.device().limits(),
    ))?;
    let level_count = u32::try_from(texture.levels.len()).unwrap_or(u32::MAX);
    let size_error = |level: u32, expected: u64, got: usize| HarnessError::TextureData {
        binding: texture.binding,
        level,
        expected,
        got,
    };
    if level_count == 0 {
        return Err(size_error(0, 1, 0));
    }
    for (level, data) in (0u32..).zip(texture.levels) {
        let e = texture.level_extent(level);
        let expected = u64::from(e.width)
            * u64::from(e.height)
            * u64::from(e.depth_or_array_layers)
            * u64::from(texel);
        if data.len() as u64 != expected {
            return Err(size_error(level, expected, data.len()));
        }
    }
    let (dimension, view_dimension) = texture.kind.dimensions();
    gpu.capture("texture", || {
        let created = gpu.device().create_texture(&wgpu::TextureDescriptor {
            label: Some("harness texture"),
            size: texture.level_extent(0),
            mip_level_count: level_count,
            sample_count: 1,
            dimension,
            format,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        for (level, data) in (0u32..).zip(texture.levels) {
            let extent = texture.level_extent(level);
            let copy = TexelCopy {
                level,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
                extent,
                row_bytes: extent.width * texel,
                rows: extent.height,
            };
            write_texels(gpu.queue(), &created, copy, data);
        }
        let view = created.create_view(&wgpu::TextureViewDescriptor {
            dimension: Some(view_dimension),
            ..Default::default()
        });
        Ok(BoundTexture {
            layout: wgpu::BindGroupLayoutEntry {
                binding: texture.binding,
                visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable },
                    view_dimension,
                    multisampled: false,
                },
                count: None,
            },
            view,
        })
    })
}

/// Creates `sampler`; a filtering sampler only where it blends texels.
pub(crate) fn bind_sampler(
    gpu: &Gpu,
    sampler: &SamplerBinding,
) -> Result<BoundSampler, HarnessError> {
    if sampler.address.contains(&TextureAddress::MirrorOnce) {
        return Err(HarnessError::MirrorOnce {
            binding: sampler.binding,
        });
    }
    gpu.capture("sampler", || {
        Ok(BoundSampler {
            layout: wgpu::BindGroupLayoutEntry {
                binding: sampler.binding,
                visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
                ty: wgpu::BindingType::Sampler(if sampler.filters() {
                    wgpu::SamplerBindingType::Filtering
                } else {
                    wgpu::SamplerBindingType::NonFiltering
                }),
                count: None,
            },
            sampler: gpu.device().create_sampler(&sampler.descriptor()),
        })
    })
}
