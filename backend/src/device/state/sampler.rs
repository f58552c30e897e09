//! D3D9's sampler states that become a wgpu sampler (filters, address modes, the mip
//! range), and that sampler.

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
    /// by default).
    Border,
    /// `D3DTADDRESS_MIRRORONCE`: the coordinate's absolute value, clamped to the edge texels.
    /// WebGPU has no such mode: the device's shaders take |u| and the sampler clamps.
    MirrorOnce,
}

/// The wgpu sampler for D3D9's sampler states: address modes (u, v, w), [mag, min] filters,
/// mip filter, `D3DSAMP_MAXMIPLEVEL`, the border colour and `D3DSAMP_MAXANISOTROPY`.
/// `MIPFILTER = NONE` becomes an LOD clamped to exactly `MAXMIPLEVEL`; otherwise LODs below
/// `MAXMIPLEVEL` are raised to it. Anisotropy applies where the min or mag filter is
/// ANISOTROPIC and the other filters linear (wgpu's rule; plain linear otherwise).
pub fn sampler_descriptor(
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
