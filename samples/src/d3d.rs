//! The D3D9 numbers the scenes pass to the raw state setters (`SetRenderState`,
//! `SetTextureStageState`, `SetSamplerState`, `SetTransform`), named as `d3d9types.h` names
//! them, so that a scene reads like the C program it ports.

pub const D3DRS_SRCBLEND: u32 = 19;
pub const D3DRS_DESTBLEND: u32 = 20;
pub const D3DRS_CULLMODE: u32 = 22;
pub const D3DRS_ALPHABLENDENABLE: u32 = 27;
pub const D3DRS_LIGHTING: u32 = 137;
pub const D3DRS_AMBIENT: u32 = 139;
pub const D3DRS_POINTSIZE: u32 = 154;
pub const D3DRS_POINTSIZE_MIN: u32 = 155;
pub const D3DRS_POINTSPRITEENABLE: u32 = 156;
pub const D3DRS_POINTSCALEENABLE: u32 = 157;
pub const D3DRS_POINTSCALE_A: u32 = 158;
pub const D3DRS_POINTSCALE_B: u32 = 159;
pub const D3DRS_POINTSCALE_C: u32 = 160;

pub const D3DCULL_NONE: u32 = 1;
pub const D3DBLEND_ONE: u32 = 2;

pub const D3DTSS_COLOROP: u32 = 1;
pub const D3DTSS_COLORARG1: u32 = 2;
pub const D3DTSS_COLORARG2: u32 = 3;
pub const D3DTOP_SELECTARG1: u32 = 2;
pub const D3DTOP_SELECTARG2: u32 = 3;
pub const D3DTOP_MODULATE: u32 = 4;
pub const D3DTA_DIFFUSE: u32 = 0;
pub const D3DTA_TEXTURE: u32 = 2;

pub const D3DSAMP_MAGFILTER: u32 = 5;
pub const D3DSAMP_MINFILTER: u32 = 6;
pub const D3DTEXF_POINT: u32 = 1;
pub const D3DTEXF_LINEAR: u32 = 2;

/// `D3DFVF_TEX1`: one set of texture coordinates.
pub const D3DFVF_TEX1: u32 = 0x100;

pub const D3DTS_VIEW: u32 = 2;
pub const D3DTS_PROJECTION: u32 = 3;
pub const D3DTS_WORLD: u32 = 256;
