//! D3D9's raw numbers as typed states: `SetRenderState(state, value)` and
//! `SetSamplerState(sampler, type, value)` values (`D3DRENDERSTATETYPE`,
//! `D3DSAMPLERSTATETYPE`, and the enumerations their values are), refused as D3D9 refuses them
//! or as this device cannot honour them.

use super::fourcc::{FOURCC_A2M0, FOURCC_A2M1};
use d3d9_translator::lift::CompareFunction;

use super::{
    Blend, BlendOp, CullMode, FillMode, FogMode, MipFilter, RenderState, SamplerState, ShadeMode,
    StencilOp, TextureAddress, TextureFilter,
};

/// Why a raw `SetRenderState` / `SetSamplerState` value cannot be taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RawStateError {
    /// Not a D3D9 state, or not a value of its type (`D3DERR_INVALIDCALL`).
    Invalid(String),
    /// A D3D9 state whose non-default value this device cannot honour.
    Unsupported(String),
}

fn cmp(value: u32) -> Result<CompareFunction, RawStateError> {
    CompareFunction::from_d3d(value)
        .ok_or_else(|| RawStateError::Invalid(format!("D3DCMPFUNC {value}")))
}

fn blend(value: u32) -> Result<Blend, RawStateError> {
    Ok(match value {
        1 => Blend::Zero,
        2 => Blend::One,
        3 => Blend::SrcColor,
        4 => Blend::InvSrcColor,
        5 => Blend::SrcAlpha,
        6 => Blend::InvSrcAlpha,
        7 => Blend::DestAlpha,
        8 => Blend::InvDestAlpha,
        9 => Blend::DestColor,
        10 => Blend::InvDestColor,
        11 => Blend::SrcAlphaSat,
        12 => Blend::BothSrcAlpha,
        13 => Blend::BothInvSrcAlpha,
        14 => Blend::BlendFactor,
        15 => Blend::InvBlendFactor,
        16 | 17 => {
            return Err(RawStateError::Unsupported(
                "D3DBLEND_SRCCOLOR2 / INVSRCCOLOR2 (dual-source blending)".into(),
            ))
        }
        v => return Err(RawStateError::Invalid(format!("D3DBLEND {v}"))),
    })
}

fn blend_op(value: u32) -> Result<BlendOp, RawStateError> {
    Ok(match value {
        1 => BlendOp::Add,
        2 => BlendOp::Subtract,
        3 => BlendOp::RevSubtract,
        4 => BlendOp::Min,
        5 => BlendOp::Max,
        v => return Err(RawStateError::Invalid(format!("D3DBLENDOP {v}"))),
    })
}

fn stencil_op(value: u32) -> Result<StencilOp, RawStateError> {
    Ok(match value {
        1 => StencilOp::Keep,
        2 => StencilOp::Zero,
        3 => StencilOp::Replace,
        4 => StencilOp::IncrSat,
        5 => StencilOp::DecrSat,
        6 => StencilOp::Invert,
        7 => StencilOp::Incr,
        8 => StencilOp::Decr,
        v => return Err(RawStateError::Invalid(format!("D3DSTENCILOP {v}"))),
    })
}

fn fog_mode(value: u32) -> Result<FogMode, RawStateError> {
    Ok(match value {
        0 => FogMode::None,
        1 => FogMode::Exp,
        2 => FogMode::Exp2,
        3 => FogMode::Linear,
        v => return Err(RawStateError::Invalid(format!("D3DFOGMODE {v}"))),
    })
}

impl RenderState {
    /// `SetRenderState(state, value)` with D3D9's numbers (`D3DRENDERSTATETYPE`; floats as
    /// their bit patterns). `Ok(None)`: no typed state (dithering, clipping to the guard
    /// band, tessellation, ... have no effect at any value; the fixed-function states
    /// the generated stages read raw).
    pub(crate) fn from_d3d(state: u32, value: u32) -> Result<Option<RenderState>, RawStateError> {
        use RenderState as R;
        let f = f32::from_bits(value);
        let b = value != 0;
        Ok(Some(match state {
            7 => match value {
                0 | 1 => R::ZEnable(b),
                // W-buffering has no wgpu counterpart: a z-buffer instead (DXVK does the
                // same; D3DPRASTERCAPS_WBUFFER is not claimed).
                2 => {
                    static ONCE: std::sync::Once = std::sync::Once::new();
                    ONCE.call_once(|| log::warn!("D3DZB_USEW: z-buffering instead of w"));
                    R::ZEnable(true)
                }
                v => return Err(RawStateError::Invalid(format!("D3DZBUFFERTYPE {v}"))),
            },
            8 => R::FillMode(match value {
                1 => FillMode::Point,
                2 => FillMode::Wireframe,
                3 => FillMode::Solid,
                v => return Err(RawStateError::Invalid(format!("D3DFILLMODE {v}"))),
            }),
            9 => R::ShadeMode(match value {
                1 => ShadeMode::Flat,
                // D3DSHADE_PHONG is not implemented by any D3D9 driver: Gouraud.
                2 | 3 => ShadeMode::Gouraud,
                v => return Err(RawStateError::Invalid(format!("D3DSHADEMODE {v}"))),
            }),
            14 => R::ZWriteEnable(b),
            15 => R::AlphaTestEnable(b),
            19 => R::SrcBlend(blend(value)?),
            20 => R::DestBlend(blend(value)?),
            22 => R::CullMode(match value {
                1 => CullMode::None,
                2 => CullMode::Cw,
                3 => CullMode::Ccw,
                v => return Err(RawStateError::Invalid(format!("D3DCULL {v}"))),
            }),
            23 => R::ZFunc(cmp(value)?),
            24 => R::AlphaRef(value),
            25 => R::AlphaFunc(cmp(value)?),
            27 => R::AlphaBlendEnable(b),
            28 => R::FogEnable(b),
            34 => R::FogColor(value),
            35 => R::FogTableMode(fog_mode(value)?),
            36 => R::FogStart(f),
            37 => R::FogEnd(f),
            38 => R::FogDensity(f),
            52 => R::StencilEnable(b),
            53 => R::StencilFail(stencil_op(value)?),
            54 => R::StencilZFail(stencil_op(value)?),
            55 => R::StencilPass(stencil_op(value)?),
            56 => R::StencilFunc(cmp(value)?),
            57 => R::StencilRef(value),
            58 => R::StencilMask(value),
            59 => R::StencilWriteMask(value),
            60 => R::TextureFactor(value),
            // D3DRS_WRAP0–7, then WRAP8–15 (the D3DWRAPCOORD_0..3 bits; others ignored).
            128..=135 => R::Wrap((state - 128) as usize, (value & 0xf) as u8),
            198..=205 => R::Wrap((state - 198 + 8) as usize, (value & 0xf) as u8),
            137 => R::Lighting(b),
            140 => R::FogVertexMode(fog_mode(value)?),
            152 => R::ClipPlaneEnable(value),
            // AMD's alpha-to-coverage hack (`A2M1` on, `A2M0` off) sets the FOURCCs as the
            // point size: the size drawn keeps its value (`Device::alpha_to_coverage` reads
            // the raw state).
            154 if value == FOURCC_A2M1 || value == FOURCC_A2M0 => return Ok(None),
            154 => R::PointSize(f),
            155 => R::PointSizeMin(f),
            156 => R::PointSpriteEnable(b),
            157 => R::PointScaleEnable(b),
            158..=160 => {
                return Err(RawStateError::Unsupported(
                    "D3DRS_POINTSCALE_A/B/C one at a time (use RenderState::PointScale)".into(),
                ))
            }
            166 => R::PointSizeMax(f),
            168 => R::ColorWriteEnable(0, value),
            171 => R::BlendOp(blend_op(value)?),
            174 => R::ScissorTestEnable(b),
            175 => R::SlopeScaleDepthBias(f),
            185 => R::TwoSidedStencilMode(b),
            186 => R::CcwStencilFail(stencil_op(value)?),
            187 => R::CcwStencilZFail(stencil_op(value)?),
            188 => R::CcwStencilPass(stencil_op(value)?),
            189 => R::CcwStencilFunc(cmp(value)?),
            190 => R::ColorWriteEnable(1, value),
            191 => R::ColorWriteEnable(2, value),
            192 => R::ColorWriteEnable(3, value),
            193 => R::BlendFactor(value),
            // SRGBWRITEENABLE: read raw when a draw or clear picks its target views (`srgb`).
            194 => return Ok(None),
            195 => R::DepthBias(f),
            206 => R::SeparateAlphaBlendEnable(b),
            207 => R::SrcBlendAlpha(blend(value)?),
            208 => R::DestBlendAlpha(blend(value)?),
            209 => R::BlendOpAlpha(blend_op(value)?),
            // No typed state: the fixed-function stages read these raw (SPECULARENABLE,
            // RANGEFOGENABLE, AMBIENT, COLORVERTEX, LOCALVIEWER, NORMALIZENORMALS, the
            // material sources, VERTEXBLEND, INDEXEDVERTEXBLENDENABLE, TWEENFACTOR).
            29 | 48 | 139 | 141..=143 | 145..=148 | 151 | 167 | 170 => return Ok(None),
            // No effect here: LASTPIXEL, DITHERENABLE, CLIPPING, MULTISAMPLE*,
            // PATCHEDGESTYLE, DEBUGMONITORTOKEN, POSITION/NORMALDEGREE,
            // ANTIALIASEDLINEENABLE, tessellation (ADAPTIVETESS_Y's `ATOC` hack is read raw:
            // `Device::alpha_to_coverage`).
            16 | 26 | 136 | 161..=163 | 165 | 172 | 173 | 176 | 178..=184 => return Ok(None),
            s => return Err(RawStateError::Invalid(format!("D3DRENDERSTATETYPE {s}"))),
        }))
    }
}

impl SamplerState {
    /// `SetSamplerState(sampler, type, value)` with D3D9's numbers (`D3DSAMPLERSTATETYPE`).
    /// `Ok(None)`: no effect here (`D3DSAMP_ELEMENTINDEX`, `DMAPOFFSET`, `MAXANISOTROPY`
    /// with a filter other than ANISOTROPIC).
    pub(crate) fn from_d3d(ty: u32, value: u32) -> Result<Option<SamplerState>, RawStateError> {
        let address = |v: u32| match v {
            1 => Ok(TextureAddress::Wrap),
            2 => Ok(TextureAddress::Mirror),
            3 => Ok(TextureAddress::Clamp),
            4 => Ok(TextureAddress::Border),
            5 => Ok(TextureAddress::MirrorOnce),
            v => Err(RawStateError::Invalid(format!("D3DTEXTUREADDRESS {v}"))),
        };
        let filter = |v: u32| match v {
            // D3DTEXF_NONE as a min/mag filter behaves as POINT on Windows drivers.
            0 | 1 => Ok(TextureFilter::Point),
            2 => Ok(TextureFilter::Linear),
            3 => Ok(TextureFilter::Anisotropic),
            // PYRAMIDALQUAD and GAUSSIANQUAD act as linear (as wined3d and DXVK).
            6 | 7 => Ok(TextureFilter::Linear),
            v => Err(RawStateError::Invalid(format!("D3DTEXTUREFILTERTYPE {v}"))),
        };
        Ok(Some(match ty {
            1 => SamplerState::AddressU(address(value)?),
            2 => SamplerState::AddressV(address(value)?),
            3 => SamplerState::AddressW(address(value)?),
            4 => SamplerState::BorderColor(value),
            5 => SamplerState::MagFilter(filter(value)?),
            6 => SamplerState::MinFilter(filter(value)?),
            7 => SamplerState::MipFilter(match value {
                0 => MipFilter::None,
                1 => MipFilter::Point,
                // ANISOTROPIC, PYRAMIDALQUAD and GAUSSIANQUAD as mip filters act as linear.
                2 | 3 | 6 | 7 => MipFilter::Linear,
                v => return Err(RawStateError::Invalid(format!("D3DSAMP_MIPFILTER {v}"))),
            }),
            // Also AMD's Fetch4 switch, kept as its bits (`MAKEFOURCC('G','E','T','4')` on,
            // `GET1` off; neither is a bias: `draw/fixups`).
            8 => SamplerState::MipMapLodBias(f32::from_bits(value)),
            9 => SamplerState::MaxMipLevel(value),
            10 => SamplerState::MaxAnisotropy(value),
            // SRGBTEXTURE: read raw when a draw binds the sampler's texture view (`srgb`).
            11..=13 => return Ok(None),
            t => return Err(RawStateError::Invalid(format!("D3DSAMPLERSTATETYPE {t}"))),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn d3d9_numbers_map_to_typed_states() {
        assert_eq!(
            RenderState::from_d3d(22, 1),
            Ok(Some(RenderState::CullMode(CullMode::None)))
        );
        assert_eq!(
            RenderState::from_d3d(36, 0.5f32.to_bits()),
            Ok(Some(RenderState::FogStart(0.5)))
        );
        assert_eq!(
            RenderState::from_d3d(207, 6),
            Ok(Some(RenderState::SrcBlendAlpha(Blend::InvSrcAlpha)))
        );
        assert_eq!(
            RenderState::from_d3d(25, 7),
            Ok(Some(RenderState::AlphaFunc(CompareFunction::GreaterEqual)))
        );
        assert_eq!(RenderState::from_d3d(26, 1), Ok(None));
        assert_eq!(
            RenderState::from_d3d(152, 0x25),
            Ok(Some(RenderState::ClipPlaneEnable(0x25)))
        );
        assert_eq!(RenderState::from_d3d(151, 0), Ok(None));
        assert_eq!(RenderState::from_d3d(151, 1), Ok(None));
        assert_eq!(RenderState::from_d3d(194, 1), Ok(None));
        assert_eq!(SamplerState::from_d3d(11, 0x7e41_882a), Ok(None));
        // AMD's Fetch4 switches are kept as their bits (`draw/fixups` reads them).
        for code in [*b"GET1", *b"GET4"] {
            let bits = u32::from_le_bytes(code);
            assert!(matches!(
                SamplerState::from_d3d(8, bits),
                Ok(Some(SamplerState::MipMapLodBias(b))) if b.to_bits() == bits
            ));
        }
        assert_eq!(
            RenderState::from_d3d(135, 0x1f),
            Ok(Some(RenderState::Wrap(7, 0xf)))
        );
        assert_eq!(
            RenderState::from_d3d(198, 2),
            Ok(Some(RenderState::Wrap(8, 2)))
        );
        assert!(matches!(
            RenderState::from_d3d(22, 4),
            Err(RawStateError::Invalid(_))
        ));
        assert!(matches!(
            RenderState::from_d3d(1, 0),
            Err(RawStateError::Invalid(_))
        ));
        assert_eq!(
            SamplerState::from_d3d(1, 3),
            Ok(Some(SamplerState::AddressU(TextureAddress::Clamp)))
        );
        assert_eq!(
            SamplerState::from_d3d(1, 5),
            Ok(Some(SamplerState::AddressU(TextureAddress::MirrorOnce)))
        );
        assert_eq!(
            SamplerState::from_d3d(5, 0),
            Ok(Some(SamplerState::MagFilter(TextureFilter::Point)))
        );
    }

    /// The SDK's d3d9types.h (Debian's mingw-w64 headers, which the C ABI compiles against).
    const SDK_TYPES: &str = "/usr/share/mingw-w64/include/d3d9types.h";

    /// The SDK's `PREFIX_NAME = number` enumerators, names without the prefix, in order.
    fn sdk_enum(prefix: &str) -> Vec<(String, u32)> {
        let header = std::fs::read_to_string(SDK_TYPES)
            .unwrap_or_else(|e| panic!("{SDK_TYPES} (mingw-w64-common): {e}"));
        let found: Vec<(String, u32)> = header
            .lines()
            .filter_map(|line| {
                let (name, value) = line.trim().trim_end_matches(',').split_once('=')?;
                let name = name.trim().strip_prefix(prefix)?;
                let value = value.trim().parse().ok()?;
                Some((name.to_string(), value))
            })
            .filter(|(name, _)| name != "FORCE_DWORD")
            .collect();
        assert!(!found.is_empty(), "no {prefix} enumerators in {SDK_TYPES}");
        found
    }

    /// A name as its enumerator and our variant compare: no underscores, lower case.
    fn squash(name: &str) -> String {
        name.replace('_', "").to_lowercase()
    }

    /// The variant of a typed value (`SrcBlend(Zero)` → `SrcBlend`) and what it holds.
    fn variant(value: &impl std::fmt::Debug) -> (String, String) {
        let debug = format!("{value:?}");
        let (name, inner) = debug.split_once('(').unwrap_or((&debug, ")"));
        (name.to_string(), inner.trim_end_matches(')').to_string())
    }

    #[test]
    fn every_sdk_render_state_is_typed_by_its_name_or_read_raw() {
        let states = sdk_enum("D3DRS_");
        let (mut raw, mut unsupported) = (Vec::new(), Vec::new());
        for (name, number) in &states {
            match RenderState::from_d3d(*number, 1) {
                Ok(Some(state)) => {
                    let index = match state {
                        RenderState::Wrap(i, _) => i.to_string(),
                        RenderState::ColorWriteEnable(i, _) if i > 0 => i.to_string(),
                        _ => String::new(),
                    };
                    let typed = squash(&variant(&state).0) + &index;
                    assert_eq!(typed, squash(name), "D3DRS_{name} ({number})");
                }
                Ok(None) => raw.push(name.as_str()),
                Err(RawStateError::Unsupported(_)) => unsupported.push(name.as_str()),
                Err(e) => panic!("D3DRS_{name} ({number}) refused: {e:?}"),
            }
        }
        assert_eq!(
            unsupported,
            ["POINTSCALE_A", "POINTSCALE_B", "POINTSCALE_C"]
        );
        // The device's raw-state table (`GetRenderState`'s states and defaults) names the
        // same states with the same numbers.
        let table: Vec<(String, u32)> = crate::device::raw_state::RENDER_STATES
            .iter()
            .map(|s| (s.name.trim_start_matches("D3DRS_").to_string(), s.number))
            .collect();
        assert_eq!(
            table, states,
            "raw_state::RENDER_STATES against d3d9types.h"
        );
        // Read raw by the fixed-function stages, the draw's target views and the hacks, or
        // without effect here.
        assert_eq!(raw, RAW_STATES);
        for number in 0..=260 {
            if !states.iter().any(|s| s.1 == number) {
                let refused = RenderState::from_d3d(number, 1);
                assert!(
                    matches!(refused, Err(RawStateError::Invalid(_))),
                    "{number}: {refused:?}"
                );
            }
        }
    }

    /// The states with no typed value: read raw (the fixed-function lighting, material and
    /// blending states, sRGB writes) or without effect here (tessellation, dithering,
    /// multisampling's mask, ...).
    const RAW_STATES: [&str; 31] = [
        "LASTPIXEL",
        "DITHERENABLE",
        "SPECULARENABLE",
        "RANGEFOGENABLE",
        "CLIPPING",
        "AMBIENT",
        "COLORVERTEX",
        "LOCALVIEWER",
        "NORMALIZENORMALS",
        "DIFFUSEMATERIALSOURCE",
        "SPECULARMATERIALSOURCE",
        "AMBIENTMATERIALSOURCE",
        "EMISSIVEMATERIALSOURCE",
        "VERTEXBLEND",
        "MULTISAMPLEANTIALIAS",
        "MULTISAMPLEMASK",
        "PATCHEDGESTYLE",
        "DEBUGMONITORTOKEN",
        "INDEXEDVERTEXBLENDENABLE",
        "TWEENFACTOR",
        "POSITIONDEGREE",
        "NORMALDEGREE",
        "ANTIALIASEDLINEENABLE",
        "MINTESSELLATIONLEVEL",
        "MAXTESSELLATIONLEVEL",
        "ADAPTIVETESS_X",
        "ADAPTIVETESS_Y",
        "ADAPTIVETESS_Z",
        "ADAPTIVETESS_W",
        "ENABLEADAPTIVETESSELLATION",
        "SRGBWRITEENABLE",
    ];

    /// The values of a render state's enumeration (`SDK prefix`, the state's number), each
    /// typed by its own name, and the number after the last refused.
    #[test]
    fn render_state_values_are_the_sdks() {
        for (prefix, state) in [
            ("D3DBLEND_", 19),
            ("D3DBLENDOP_", 171),
            ("D3DCMP_", 23),
            ("D3DSTENCILOP_", 53),
            ("D3DFOG_", 35),
            ("D3DCULL_", 22),
            ("D3DFILL_", 8),
            ("D3DSHADE_", 9),
        ] {
            let values = sdk_enum(prefix);
            for (name, number) in &values {
                let typed = RenderState::from_d3d(state, *number);
                match (prefix, name.as_str()) {
                    ("D3DBLEND_", "SRCCOLOR2" | "INVSRCCOLOR2") => {
                        assert!(
                            matches!(typed, Err(RawStateError::Unsupported(_))),
                            "{name}"
                        );
                    }
                    // No D3D9 driver shades Phong: Gouraud.
                    ("D3DSHADE_", "PHONG") => {
                        assert_eq!(typed, Ok(Some(RenderState::ShadeMode(ShadeMode::Gouraud))));
                    }
                    _ => {
                        let Ok(Some(typed)) = typed else {
                            panic!("{prefix}{name} ({number}): {typed:?}")
                        };
                        assert_eq!(squash(&variant(&typed).1), squash(name), "{prefix}{name}");
                    }
                }
            }
            let past = values.iter().map(|v| v.1).max().unwrap_or(0) + 1;
            let refused = RenderState::from_d3d(state, past);
            assert!(
                matches!(refused, Err(RawStateError::Invalid(_))),
                "{prefix} {past}"
            );
        }
        // D3DZB_FALSE, TRUE, and USEW as a z-buffer.
        let z = |v| RenderState::from_d3d(7, v);
        assert_eq!(z(0), Ok(Some(RenderState::ZEnable(false))));
        assert_eq!(z(1), Ok(Some(RenderState::ZEnable(true))));
        assert_eq!(z(2), Ok(Some(RenderState::ZEnable(true))));
        assert!(matches!(z(3), Err(RawStateError::Invalid(_))));
        assert_eq!(
            RenderState::from_d3d(14, 0),
            Ok(Some(RenderState::ZWriteEnable(false)))
        );
        assert_eq!(
            RenderState::from_d3d(24, 0x80),
            Ok(Some(RenderState::AlphaRef(0x80)))
        );
        // AMD's alpha-to-coverage switches leave the point size alone.
        assert_eq!(RenderState::from_d3d(154, FOURCC_A2M1), Ok(None));
        assert_eq!(RenderState::from_d3d(154, FOURCC_A2M0), Ok(None));
    }

    #[test]
    fn every_sdk_sampler_state_and_value_is_typed_by_its_name() {
        for (name, number) in sdk_enum("D3DSAMP_") {
            match SamplerState::from_d3d(number, 1) {
                Ok(Some(state)) => assert_eq!(squash(&variant(&state).0), squash(&name)),
                Ok(None) => assert!(
                    ["SRGBTEXTURE", "ELEMENTINDEX", "DMAPOFFSET"].contains(&name.as_str()),
                    "D3DSAMP_{name}"
                ),
                Err(e) => panic!("D3DSAMP_{name}: {e:?}"),
            }
        }
        assert!(matches!(
            SamplerState::from_d3d(14, 1),
            Err(RawStateError::Invalid(_))
        ));
        assert!(matches!(
            SamplerState::from_d3d(0, 1),
            Err(RawStateError::Invalid(_))
        ));
        for (name, number) in sdk_enum("D3DTADDRESS_") {
            for ty in 1..=3 {
                let Ok(Some(state)) = SamplerState::from_d3d(ty, number) else {
                    panic!("D3DTADDRESS_{name}")
                };
                assert_eq!(squash(&variant(&state).1), squash(&name));
            }
        }
        assert!(matches!(
            SamplerState::from_d3d(3, 6),
            Err(RawStateError::Invalid(_))
        ));
        // Filters: NONE as a min/mag filter is point; the quad filters are linear.
        let filters = sdk_enum("D3DTEXF_");
        let (min, mip) = (
            |v| SamplerState::from_d3d(6, v),
            |v| SamplerState::from_d3d(7, v),
        );
        for (name, number) in &filters {
            let (as_min, as_mip) = match name.as_str() {
                "NONE" => (Some(TextureFilter::Point), Some(MipFilter::None)),
                "POINT" => (Some(TextureFilter::Point), Some(MipFilter::Point)),
                "LINEAR" => (Some(TextureFilter::Linear), Some(MipFilter::Linear)),
                "ANISOTROPIC" => (Some(TextureFilter::Anisotropic), Some(MipFilter::Linear)),
                "PYRAMIDALQUAD" | "GAUSSIANQUAD" => {
                    (Some(TextureFilter::Linear), Some(MipFilter::Linear))
                }
                _ => (None, None),
            };
            assert_eq!(
                min(*number).ok().flatten(),
                as_min.map(SamplerState::MinFilter),
                "{name}"
            );
            assert_eq!(
                mip(*number).ok().flatten(),
                as_mip.map(SamplerState::MipFilter),
                "{name}"
            );
            let mag = SamplerState::from_d3d(5, *number).ok().flatten();
            assert_eq!(mag, as_min.map(SamplerState::MagFilter), "{name}");
        }
        assert_eq!(
            SamplerState::from_d3d(4, 0x8040_2010),
            Ok(Some(SamplerState::BorderColor(0x8040_2010)))
        );
        assert_eq!(
            SamplerState::from_d3d(9, 3),
            Ok(Some(SamplerState::MaxMipLevel(3)))
        );
        assert_eq!(
            SamplerState::from_d3d(10, 8),
            Ok(Some(SamplerState::MaxAnisotropy(8)))
        );
    }
}
