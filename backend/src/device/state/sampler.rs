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

#[cfg(test)]
mod tests {
    use super::*;
    use wgpu::{AddressMode as A, FilterMode as F, MipmapFilterMode as M};

    use TextureAddress::*;

    /// Each address mode maps to wgpu's (MIRRORONCE clamps: the shader has taken |u|).
    #[test]
    fn address_modes_map_one_for_one() {
        let point = [TextureFilter::Point; 2];
        let d = sampler_descriptor([Wrap, Mirror, Clamp], point, MipFilter::None, 0, None, 1);
        assert_eq!(
            [d.address_mode_u, d.address_mode_v, d.address_mode_w],
            [A::Repeat, A::MirrorRepeat, A::ClampToEdge]
        );
        let border = Some(wgpu::SamplerBorderColor::OpaqueWhite);
        let d = sampler_descriptor(
            [Border, MirrorOnce, Wrap],
            point,
            MipFilter::None,
            0,
            border,
            1,
        );
        assert_eq!(
            [d.address_mode_u, d.address_mode_v, d.address_mode_w],
            [A::ClampToBorder, A::ClampToEdge, A::Repeat]
        );
        assert_eq!(d.border_color, border);
        assert_eq!(d.label, Some("sampler stage"));
    }

    /// MAG and MIN filter apart; MIPFILTER NONE stays on the MAXMIPLEVEL level, POINT and
    /// LINEAR start there and go down the chain.
    #[test]
    fn filters_and_the_mip_chain() {
        use TextureFilter::{Linear, Point};
        let wrap = [Wrap; 3];
        let d = sampler_descriptor(wrap, [Linear, Point], MipFilter::None, 2, None, 1);
        assert_eq!((d.mag_filter, d.min_filter), (F::Linear, F::Nearest));
        assert_eq!(
            (d.mipmap_filter, d.lod_min_clamp, d.lod_max_clamp),
            (M::Nearest, 2.0, 2.0)
        );
        let d = sampler_descriptor(wrap, [Point, Linear], MipFilter::Point, 1, None, 1);
        assert_eq!((d.mag_filter, d.min_filter), (F::Nearest, F::Linear));
        assert_eq!(
            (d.mipmap_filter, d.lod_min_clamp, d.lod_max_clamp),
            (M::Nearest, 1.0, 32.0)
        );
        let d = sampler_descriptor(wrap, [Point; 2], MipFilter::Linear, 0, None, 1);
        assert_eq!(
            (d.mipmap_filter, d.lod_min_clamp, d.lod_max_clamp),
            (M::Linear, 0.0, 32.0)
        );
    }

    /// ANISOTROPIC filters linearly, anisotropically (clamped to 1–16) only where the other
    /// filter and the mip filter are linear too.
    #[test]
    fn anisotropy_needs_every_filter_linear() {
        use TextureFilter::{Anisotropic, Linear, Point};
        let clamp = |filters, mip, max| {
            let d = sampler_descriptor([Wrap; 3], filters, mip, 0, None, max);
            assert_eq!(
                d.mag_filter,
                if filters[0] == Point {
                    F::Nearest
                } else {
                    F::Linear
                }
            );
            d.anisotropy_clamp
        };
        assert_eq!(clamp([Anisotropic, Linear], MipFilter::Linear, 8), 8);
        assert_eq!(clamp([Linear, Anisotropic], MipFilter::Linear, 4), 4);
        assert_eq!(clamp([Anisotropic, Anisotropic], MipFilter::Linear, 64), 16);
        assert_eq!(clamp([Anisotropic, Anisotropic], MipFilter::Linear, 0), 1);
        assert_eq!(clamp([Linear, Linear], MipFilter::Linear, 8), 1);
        assert_eq!(clamp([Anisotropic, Point], MipFilter::Linear, 8), 1);
        assert_eq!(clamp([Point, Anisotropic], MipFilter::Linear, 8), 1);
        assert_eq!(clamp([Anisotropic, Linear], MipFilter::Point, 8), 1);
        assert!(TextureFilter::Anisotropic.blends() && !TextureFilter::Point.blends());
    }
}
