//! Textures and samplers bound to a draw or a vertex probe, for vertex
//! texture fetch (`texldl`).
//!
//! D3D9 binds a texture and its sampler states to one sampler stage; wgpu
//! binds a texture view and a sampler separately. The translator puts
//! vertex sampler `s#n` at `@group(1)`, texture `@binding(2n)`, sampler
//! `@binding(2n+1)`; a [`TextureBinding`] and a [`SamplerBinding`] fill
//! those slots.

use crate::{Gpu, GpuError};

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

impl TextureKind {
    /// Width, height and layers (faces or slices) of mip level `level` of a texture of this
    /// kind whose level 0 is `width` x `height` (x `depth` slices for a volume).
    pub(crate) fn level_extent(
        self,
        [width, height, depth]: [u32; 3],
        level: u32,
    ) -> wgpu::Extent3d {
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
    pub(crate) fn dimensions(self) -> (wgpu::TextureDimension, wgpu::TextureViewDimension) {
        match self {
            TextureKind::TwoD => (wgpu::TextureDimension::D2, wgpu::TextureViewDimension::D2),
            TextureKind::Cube => (wgpu::TextureDimension::D2, wgpu::TextureViewDimension::Cube),
            TextureKind::Volume => (wgpu::TextureDimension::D3, wgpu::TextureViewDimension::D3),
        }
    }
}

/// D3D9 `D3DSAMP_MAGFILTER` / `D3DSAMP_MINFILTER` (`POINT` is the default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TextureFilter {
    /// `D3DTEXF_POINT`: the nearest texel.
    #[default]
    Point,
    /// `D3DTEXF_LINEAR`: bilinear (trilinear for volumes) between texels.
    Linear,
    /// `D3DTEXF_ANISOTROPIC`: linear, with up to `D3DSAMP_MAXANISOTROPY` samples along the
    /// footprint where the mip filter is linear too (wgpu's condition for anisotropy).
    Anisotropic,
}

impl TextureFilter {
    /// Whether the filter blends texels (needs a filterable format).
    pub fn blends(self) -> bool {
        self != TextureFilter::Point
    }
}

/// D3D9 `D3DSAMP_MIPFILTER` (`NONE` is the default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MipFilter {
    /// `D3DTEXF_NONE`: mipmapping off; every fetch reads level
    /// `D3DSAMP_MAXMIPLEVEL`, whatever LOD `texldl` asks for.
    #[default]
    None,
    /// `D3DTEXF_POINT`: the level nearest the LOD.
    Point,
    /// `D3DTEXF_LINEAR`: a blend of the two levels around the LOD.
    Linear,
}

/// D3D9 `D3DSAMP_ADDRESSU/V/W` (`WRAP` is the default). `MIRRORONCE` has
/// no wgpu counterpart, so it is not offered; `BORDER` has wgpu's three border colours
/// (the device refuses others) and needs `ADDRESS_MODE_CLAMP_TO_BORDER`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TextureAddress {
    /// `D3DTADDRESS_WRAP`: the fractional part of the coordinate (1.25 → 0.25).
    #[default]
    Wrap,
    /// `D3DTADDRESS_MIRROR`: every other repetition flipped.
    Mirror,
    /// `D3DTADDRESS_CLAMP`: clamped to the edge texels.
    Clamp,
    /// `D3DTADDRESS_BORDER`: outside [0, 1] reads `D3DSAMP_BORDERCOLOR` (transparent black
    /// by default, the only border colour a [`SamplerBinding`] has).
    Border,
    /// `D3DTADDRESS_MIRRORONCE`: the coordinate's absolute value, clamped to the edge texels.
    /// WebGPU has no such mode: the device's shaders take |u| and the sampler clamps; a
    /// [`SamplerBinding`] refuses it (`Capability::MirrorOnce`).
    MirrorOnce,
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

/// The wgpu sampler for D3D9's sampler states: address modes (u, v, w), [mag, min] filters,
/// mip filter, `D3DSAMP_MAXMIPLEVEL`, the border colour and `D3DSAMP_MAXANISOTROPY`.
/// `MIPFILTER = NONE` becomes an LOD clamped to exactly `MAXMIPLEVEL`; otherwise LODs below
/// `MAXMIPLEVEL` are raised to it. Anisotropy applies where the min or mag filter is
/// ANISOTROPIC and the other filters linear (wgpu's rule; plain linear otherwise).
pub(crate) fn sampler_descriptor(
    address: [TextureAddress; 3],
    [mag, min]: [TextureFilter; 2],
    mip: MipFilter,
    max_mip_level: u32,
    border: Option<wgpu::SamplerBorderColor>,
    max_anisotropy: u32,
) -> wgpu::SamplerDescriptor<'static> {
    let address_mode = |a: TextureAddress| match a {
        TextureAddress::Wrap => wgpu::AddressMode::Repeat,
        TextureAddress::Mirror => wgpu::AddressMode::MirrorRepeat,
        TextureAddress::Clamp => wgpu::AddressMode::ClampToEdge,
        TextureAddress::Border => wgpu::AddressMode::ClampToBorder,
        // The shader has taken |u| (`SamplerFixup`).
        TextureAddress::MirrorOnce => wgpu::AddressMode::ClampToEdge,
    };
    let filter = |f: TextureFilter| match f {
        TextureFilter::Point => wgpu::FilterMode::Nearest,
        TextureFilter::Linear | TextureFilter::Anisotropic => wgpu::FilterMode::Linear,
    };
    // wgpu filters anisotropically only with every filter linear.
    let anisotropic = (mag == TextureFilter::Anisotropic || min == TextureFilter::Anisotropic)
        && mag.blends()
        && min.blends()
        && mip == MipFilter::Linear;
    let anisotropy_clamp = if anisotropic {
        max_anisotropy.clamp(1, 16) as u16
    } else {
        1
    };
    let [u, v, w] = address;
    let base = max_mip_level as f32;
    wgpu::SamplerDescriptor {
        label: Some("sampler stage"),
        address_mode_u: address_mode(u),
        address_mode_v: address_mode(v),
        address_mode_w: address_mode(w),
        mag_filter: filter(mag),
        min_filter: filter(min),
        mipmap_filter: match mip {
            MipFilter::Linear => wgpu::MipmapFilterMode::Linear,
            MipFilter::None | MipFilter::Point => wgpu::MipmapFilterMode::Nearest,
        },
        lod_min_clamp: base,
        lod_max_clamp: match mip {
            MipFilter::None => base,
            MipFilter::Point | MipFilter::Linear => 32.0,
        },
        border_color: border,
        anisotropy_clamp,
        ..Default::default()
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

impl Gpu {
    /// Creates and fills `texture`. Its layout entry is a filterable float
    /// texture only where the format is filterable on this device.
    pub(crate) fn bind_texture(
        &self,
        texture: &TextureBinding<'_>,
    ) -> Result<BoundTexture, GpuError> {
        let format = texture.format;
        let texel = format
            .block_copy_size(None)
            .filter(|_| format.block_dimensions() == (1, 1))
            .ok_or(GpuError::TextureFormat {
                binding: texture.binding,
                format,
            })?;
        let filterable = match format.sample_type(None, Some(self.device.features())) {
            Some(wgpu::TextureSampleType::Float { filterable }) => filterable,
            _ => {
                return Err(GpuError::TextureFormat {
                    binding: texture.binding,
                    format,
                })
            }
        };
        if !self
            .format_usages(format)
            .contains(crate::caps::TEXTURE_USAGES)
        {
            return Err(self.unsupported(crate::Capability::SampledTexture { format }));
        }
        self.require(crate::caps::check_texture_size(
            texture.kind,
            [texture.width, texture.height, texture.depth],
            &self.device.limits(),
        ))?;
        let level_count = u32::try_from(texture.levels.len()).unwrap_or(u32::MAX);
        let size_error = |level: u32, expected: u64, got: usize| GpuError::TextureData {
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
        self.capture("texture", || {
            let created = self.device.create_texture(&wgpu::TextureDescriptor {
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
                self.queue.write_texture(
                    wgpu::TexelCopyTextureInfo {
                        texture: &created,
                        mip_level: level,
                        origin: wgpu::Origin3d::ZERO,
                        aspect: wgpu::TextureAspect::All,
                    },
                    data,
                    wgpu::TexelCopyBufferLayout {
                        offset: 0,
                        bytes_per_row: Some(extent.width * texel),
                        rows_per_image: Some(extent.height),
                    },
                    extent,
                );
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
    pub(crate) fn bind_sampler(&self, sampler: &SamplerBinding) -> Result<BoundSampler, GpuError> {
        if sampler.address.contains(&TextureAddress::MirrorOnce) {
            return Err(self.unsupported(crate::Capability::MirrorOnce {
                binding: sampler.binding,
            }));
        }
        self.capture("sampler", || {
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
                sampler: self.device.create_sampler(&sampler.descriptor()),
            })
        })
    }
}
