//! `D3DCAPS9`: what the device does on its adapter. Shader limits come from the
//! translator's `DeviceCaps` (what `CreateVertexShader` / `CreatePixelShader` check against);
//! texture sizes from the adapter's limits; every other bit states an implemented behaviour
//! (a capability the device refuses is not claimed).

use d3d9_backend::device::{MAX_RENDER_TARGETS, MAX_STREAMS};
use d3d9_backend::Gpu;
use d3d9_translator::check::DeviceCaps;

use crate::types::{D3DCAPS9, D3DPSHADERCAPS2_0, D3DVSHADERCAPS2_0};

const fn shader_version(pixel: bool, (major, minor): (u8, u8)) -> u32 {
    (if pixel { 0xffff_0000 } else { 0xfffe_0000 }) | (major as u32) << 8 | minor as u32
}

// D3DPTFILTERCAPS: point, linear and anisotropic minification and magnification, point and
// linear mip filters.
const FILTER_CAPS: u32 =
    0x100 | 0x200 | 0x400 | 0x1_0000 | 0x2_0000 | 0x100_0000 | 0x200_0000 | 0x400_0000;

/// The caps of a device on `gpu` checking shaders against `caps`.
pub fn device_caps(gpu: &Gpu, caps: &DeviceCaps) -> D3DCAPS9 {
    let limits = gpu.device().limits();
    D3DCAPS9 {
        DeviceType: 1,
        AdapterOrdinal: 0,
        // D3DCAPS_READ_SCANLINE: GetRasterStatus answers (see `swapchain`).
        Caps: 0x2_0000,
        // D3DCAPS2_DYNAMICTEXTURES.
        Caps2: 0x2000_0000,
        // D3DCAPS3_ALPHA_FULLSCREEN_FLIP_OR_DISCARD, COPY_TO_VIDMEM, COPY_TO_SYSTEMMEM.
        Caps3: 0x20 | 0x100 | 0x200,
        // D3DPRESENT_INTERVAL_ONE and _IMMEDIATE.
        PresentationIntervals: 0x1 | 0x8000_0000,
        CursorCaps: 0,
        // EXECUTESYSTEMMEMORY, EXECUTEVIDEOMEMORY, TLVERTEXSYSTEMMEMORY, TLVERTEXVIDEOMEMORY,
        // TEXTUREVIDEOMEMORY, DRAWPRIMTLVERTEX, CANRENDERAFTERFLIP, TEXTURENONLOCALVIDMEM,
        // DRAWPRIMITIVES2, DRAWPRIMITIVES2EX, HWTRANSFORMANDLIGHT, HWRASTERIZATION.
        DevCaps: 0x10
            | 0x20
            | 0x40
            | 0x80
            | 0x200
            | 0x400
            | 0x800
            | 0x1000
            | 0x2000
            | 0x8000
            | 0x1_0000
            | 0x8_0000,
        // MASKZ, CULLNONE, CULLCW, CULLCCW, COLORWRITEENABLE, CLIPTLVERTS, BLENDOP,
        // INDEPENDENTWRITEMASKS, SEPARATEALPHABLEND, MRTINDEPENDENTBITDEPTHS,
        // MRTPOSTPIXELSHADERBLENDING, FOGVERTEXCLAMPED, TSSARGTEMP, PERSTAGECONSTANT.
        PrimitiveMiscCaps: 0x2
            | 0x10
            | 0x20
            | 0x40
            | 0x80
            | 0x200
            | 0x400
            | 0x800
            | 0x4000
            | 0x8000
            | 0x2_0000
            | 0x4_0000
            | 0x8_0000
            | 0x10_0000,
        // DITHER, ZTEST, FOGVERTEX, FOGTABLE, FOGRANGE, WFOG, COLORPERSPECTIVE, SCISSORTEST,
        // SLOPESCALEDEPTHBIAS, DEPTHBIAS.
        RasterCaps: 0x1
            | 0x10
            | 0x80
            | 0x100
            | 0x1_0000
            | 0x10_0000
            | 0x40_0000
            | 0x100_0000
            | 0x200_0000
            | 0x400_0000,
        ZCmpCaps: 0xff,
        // Every D3DBLEND up to BLENDFACTOR.
        SrcBlendCaps: 0x3fff,
        DestBlendCaps: 0x3fff,
        AlphaCmpCaps: 0xff,
        // COLORGOURAUDRGB, SPECULARGOURAUDRGB, ALPHAGOURAUDBLEND, FOGGOURAUD.
        ShadeCaps: 0x8 | 0x200 | 0x4000 | 0x8_0000,
        // PERSPECTIVE, ALPHA, PROJECTED, CUBEMAP, VOLUMEMAP, MIPMAP, MIPVOLUMEMAP,
        // MIPCUBEMAP (non-power-of-two sizes have no restriction: no POW2 bits).
        TextureCaps: 0x1 | 0x4 | 0x400 | 0x800 | 0x2000 | 0x4000 | 0x8000 | 0x1_0000,
        TextureFilterCaps: FILTER_CAPS,
        CubeTextureFilterCaps: FILTER_CAPS,
        VolumeTextureFilterCaps: FILTER_CAPS,
        // WRAP, MIRROR, CLAMP, BORDER, INDEPENDENTUV.
        TextureAddressCaps: 0x1 | 0x2 | 0x4 | 0x8 | 0x10,
        VolumeTextureAddressCaps: 0x1 | 0x2 | 0x4 | 0x8 | 0x10,
        // TEXTURE, ZTEST, BLEND, ALPHACMP, FOG.
        LineCaps: 0x1 | 0x2 | 0x4 | 0x8 | 0x10,
        MaxTextureWidth: limits.max_texture_dimension_2d,
        MaxTextureHeight: limits.max_texture_dimension_2d,
        MaxVolumeExtent: limits.max_texture_dimension_3d,
        MaxTextureRepeat: 8192,
        MaxTextureAspectRatio: limits.max_texture_dimension_2d,
        MaxAnisotropy: 16,
        MaxVertexW: 1e10,
        GuardBandLeft: -32768.0,
        GuardBandTop: -32768.0,
        GuardBandRight: 32768.0,
        GuardBandBottom: 32768.0,
        ExtentsAdjust: 0.0,
        // Every D3DSTENCILOP, and two-sided stencil.
        StencilCaps: 0x1ff,
        // D3DFVFCAPS_PSIZE and 8 texture coordinate sets.
        FVFCaps: 0x10_0000 | 8,
        // Every D3DTEXTUREOP, DISABLE (0x1) to LERP (0x200_0000), for colour and alpha.
        TextureOpCaps: 0x3ff_ffff,
        MaxTextureBlendStages: 8,
        MaxSimultaneousTextures: 8,
        // TEXGEN, MATERIALSOURCE7, DIRECTIONALLIGHTS, POSITIONALLIGHTS, LOCALVIEWER,
        // TWEENING, TEXGEN_SPHEREMAP (no NO_TEXGEN_NONLOCALVIEWER: texture coordinate
        // generation works with any LOCALVIEWER).
        VertexProcessingCaps: 0x1 | 0x2 | 0x8 | 0x10 | 0x20 | 0x40 | 0x100,
        MaxActiveLights: d3d9_backend::device::MAX_ACTIVE_LIGHTS as u32,
        MaxUserClipPlanes: 6,
        MaxVertexBlendMatrices: 4,
        MaxVertexBlendMatrixIndex: 255,
        MaxPointSize: 256.0,
        MaxPrimitiveCount: 0xff_ffff,
        MaxVertexIndex: 0xff_ffff,
        MaxStreams: MAX_STREAMS as u32,
        MaxStreamStride: 2048,
        VertexShaderVersion: shader_version(false, caps.max_vs_version),
        MaxVertexShaderConst: caps.max_vertex_shader_const,
        PixelShaderVersion: shader_version(true, caps.max_ps_version),
        PixelShader1xMaxValue: f32::MAX,
        // STREAMOFFSET, CAN_STRETCHRECT_FROM_TEXTURES, VERTEXELEMENTSCANSHARESTREAMOFFSET.
        DevCaps2: 0x1 | 0x10 | 0x40,
        MaxNpatchTessellationLevel: 0.0,
        Reserved5: 0,
        MasterAdapterOrdinal: 0,
        AdapterOrdinalInGroup: 0,
        NumberOfAdaptersInGroup: 1,
        // Every D3DDECLTYPE past FLOAT4/D3DCOLOR: UBYTE4 .. FLOAT16_4.
        DeclTypes: 0x3ff,
        NumSimultaneousRTs: MAX_RENDER_TARGETS as u32,
        // Point and linear minification and magnification.
        StretchRectFilterCaps: 0x100 | 0x200 | 0x100_0000 | 0x200_0000,
        VS20Caps: D3DVSHADERCAPS2_0 {
            // D3DVS20CAPS_PREDICATION.
            Caps: 0x1,
            DynamicFlowControlDepth: caps.vs_dynamic_flow_control_depth as i32,
            NumTemps: caps.vs_num_temps as i32,
            StaticFlowControlDepth: caps.vs_static_flow_control_depth as i32,
        },
        PS20Caps: D3DPSHADERCAPS2_0 {
            // ARBITRARYSWIZZLE, GRADIENTINSTRUCTIONS, PREDICATION, NODEPENDENTREADLIMIT,
            // NOTEXINSTRUCTIONLIMIT.
            Caps: 0x1f,
            DynamicFlowControlDepth: caps.ps_dynamic_flow_control_depth as i32,
            NumTemps: caps.ps_num_temps as i32,
            StaticFlowControlDepth: caps.ps_static_flow_control_depth as i32,
            NumInstructionSlots: caps.ps_num_instruction_slots as i32,
        },
        VertexTextureFilterCaps: 0x100 | 0x200 | 0x100_0000 | 0x200_0000,
        MaxVShaderInstructionsExecuted: 65535,
        MaxPShaderInstructionsExecuted: 65535,
        MaxVertexShader30InstructionSlots: caps.max_vertex_shader_30_instruction_slots,
        MaxPixelShader30InstructionSlots: caps.max_pixel_shader_30_instruction_slots,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn shader_versions_encode_as_d3d9() {
        assert_eq!(super::shader_version(false, (3, 0)), 0xfffe_0300);
        assert_eq!(super::shader_version(true, (2, 0)), 0xffff_0200);
    }
}
