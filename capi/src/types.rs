//! The D3D9 structures C passes by pointer, laid out as `d3d9types.h` / `d3d9caps.h` lay
//! them out on x86-64 Linux: `DWORD`, `UINT`, `LONG` and enums are 32-bit and fields are
//! naturally aligned (the headers pack to 4 bytes on i386 only). A test compares every size
//! and offset with what the header gives a C compiler.
#![allow(non_snake_case, non_camel_case_types)]

use std::ffi::c_void;

use crate::guid::Guid;

/// `RECT`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RECT {
    pub left: i32,
    pub top: i32,
    pub right: i32,
    pub bottom: i32,
}

/// `POINT`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct POINT {
    pub x: i32,
    pub y: i32,
}

/// `D3DRECT`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct D3DRECT {
    pub x1: i32,
    pub y1: i32,
    pub x2: i32,
    pub y2: i32,
}

/// `D3DPRESENT_PARAMETERS`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct D3DPRESENT_PARAMETERS {
    pub BackBufferWidth: u32,
    pub BackBufferHeight: u32,
    pub BackBufferFormat: u32,
    pub BackBufferCount: u32,
    pub MultiSampleType: u32,
    pub MultiSampleQuality: u32,
    pub SwapEffect: u32,
    pub hDeviceWindow: *mut c_void,
    pub Windowed: i32,
    pub EnableAutoDepthStencil: i32,
    pub AutoDepthStencilFormat: u32,
    pub Flags: u32,
    pub FullScreen_RefreshRateInHz: u32,
    pub PresentationInterval: u32,
}

/// `D3DSURFACE_DESC`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct D3DSURFACE_DESC {
    pub Format: u32,
    pub Type: u32,
    pub Usage: u32,
    pub Pool: u32,
    pub MultiSampleType: u32,
    pub MultiSampleQuality: u32,
    pub Width: u32,
    pub Height: u32,
}

/// `D3DVOLUME_DESC`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct D3DVOLUME_DESC {
    pub Format: u32,
    pub Type: u32,
    pub Usage: u32,
    pub Pool: u32,
    pub Width: u32,
    pub Height: u32,
    pub Depth: u32,
}

/// `D3DLOCKED_RECT`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct D3DLOCKED_RECT {
    pub Pitch: i32,
    pub pBits: *mut c_void,
}

/// `D3DLOCKED_BOX`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct D3DLOCKED_BOX {
    pub RowPitch: i32,
    pub SlicePitch: i32,
    pub pBits: *mut c_void,
}

/// `D3DBOX`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct D3DBOX {
    pub Left: u32,
    pub Top: u32,
    pub Right: u32,
    pub Bottom: u32,
    pub Front: u32,
    pub Back: u32,
}

/// `D3DVIEWPORT9`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct D3DVIEWPORT9 {
    pub X: u32,
    pub Y: u32,
    pub Width: u32,
    pub Height: u32,
    pub MinZ: f32,
    pub MaxZ: f32,
}

/// `D3DCOLORVALUE`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct D3DCOLORVALUE {
    pub r: f32,
    pub g: f32,
    pub b: f32,
    pub a: f32,
}

/// `D3DVECTOR`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct D3DVECTOR {
    pub x: f32,
    pub y: f32,
    pub z: f32,
}

/// `D3DMATERIAL9`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct D3DMATERIAL9 {
    pub Diffuse: D3DCOLORVALUE,
    pub Ambient: D3DCOLORVALUE,
    pub Specular: D3DCOLORVALUE,
    pub Emissive: D3DCOLORVALUE,
    pub Power: f32,
}

/// `D3DLIGHT9`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct D3DLIGHT9 {
    pub Type: u32,
    pub Diffuse: D3DCOLORVALUE,
    pub Specular: D3DCOLORVALUE,
    pub Ambient: D3DCOLORVALUE,
    pub Position: D3DVECTOR,
    pub Direction: D3DVECTOR,
    pub Range: f32,
    pub Falloff: f32,
    pub Attenuation0: f32,
    pub Attenuation1: f32,
    pub Attenuation2: f32,
    pub Theta: f32,
    pub Phi: f32,
}

/// `D3DMATRIX`: `m[row][column]`.
pub type D3DMATRIX = [[f32; 4]; 4];

/// `D3DADAPTER_IDENTIFIER9`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct D3DADAPTER_IDENTIFIER9 {
    pub Driver: [u8; 512],
    pub Description: [u8; 512],
    pub DeviceName: [u8; 32],
    pub DriverVersion: i64,
    pub VendorId: u32,
    pub DeviceId: u32,
    pub SubSysId: u32,
    pub Revision: u32,
    pub DeviceIdentifier: Guid,
    pub WHQLLevel: u32,
}

/// `D3DDISPLAYMODE`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct D3DDISPLAYMODE {
    pub Width: u32,
    pub Height: u32,
    pub RefreshRate: u32,
    pub Format: u32,
}

/// `D3DVERTEXELEMENT9`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct D3DVERTEXELEMENT9 {
    pub Stream: u16,
    pub Offset: u16,
    pub Type: u8,
    pub Method: u8,
    pub Usage: u8,
    pub UsageIndex: u8,
}

/// `D3DVERTEXBUFFER_DESC`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct D3DVERTEXBUFFER_DESC {
    pub Format: u32,
    pub Type: u32,
    pub Usage: u32,
    pub Pool: u32,
    pub Size: u32,
    pub FVF: u32,
}

/// `D3DINDEXBUFFER_DESC`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct D3DINDEXBUFFER_DESC {
    pub Format: u32,
    pub Type: u32,
    pub Usage: u32,
    pub Pool: u32,
    pub Size: u32,
}

/// `D3DCLIPSTATUS9`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct D3DCLIPSTATUS9 {
    pub ClipUnion: u32,
    pub ClipIntersection: u32,
}

/// `D3DRASTER_STATUS`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct D3DRASTER_STATUS {
    pub InVBlank: i32,
    pub ScanLine: u32,
}

/// `D3DDEVICE_CREATION_PARAMETERS`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct D3DDEVICE_CREATION_PARAMETERS {
    pub AdapterOrdinal: u32,
    pub DeviceType: u32,
    pub hFocusWindow: *mut c_void,
    pub BehaviorFlags: u32,
}

/// `D3DGAMMARAMP`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct D3DGAMMARAMP {
    pub red: [u16; 256],
    pub green: [u16; 256],
    pub blue: [u16; 256],
}

/// `PALETTEENTRY`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PALETTEENTRY {
    pub peRed: u8,
    pub peGreen: u8,
    pub peBlue: u8,
    pub peFlags: u8,
}

/// `D3DVSHADERCAPS2_0`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct D3DVSHADERCAPS2_0 {
    pub Caps: u32,
    pub DynamicFlowControlDepth: i32,
    pub NumTemps: i32,
    pub StaticFlowControlDepth: i32,
}

/// `D3DPSHADERCAPS2_0`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct D3DPSHADERCAPS2_0 {
    pub Caps: u32,
    pub DynamicFlowControlDepth: i32,
    pub NumTemps: i32,
    pub StaticFlowControlDepth: i32,
    pub NumInstructionSlots: i32,
}

/// `D3DCAPS9`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct D3DCAPS9 {
    pub DeviceType: u32,
    pub AdapterOrdinal: u32,
    pub Caps: u32,
    pub Caps2: u32,
    pub Caps3: u32,
    pub PresentationIntervals: u32,
    pub CursorCaps: u32,
    pub DevCaps: u32,
    pub PrimitiveMiscCaps: u32,
    pub RasterCaps: u32,
    pub ZCmpCaps: u32,
    pub SrcBlendCaps: u32,
    pub DestBlendCaps: u32,
    pub AlphaCmpCaps: u32,
    pub ShadeCaps: u32,
    pub TextureCaps: u32,
    pub TextureFilterCaps: u32,
    pub CubeTextureFilterCaps: u32,
    pub VolumeTextureFilterCaps: u32,
    pub TextureAddressCaps: u32,
    pub VolumeTextureAddressCaps: u32,
    pub LineCaps: u32,
    pub MaxTextureWidth: u32,
    pub MaxTextureHeight: u32,
    pub MaxVolumeExtent: u32,
    pub MaxTextureRepeat: u32,
    pub MaxTextureAspectRatio: u32,
    pub MaxAnisotropy: u32,
    pub MaxVertexW: f32,
    pub GuardBandLeft: f32,
    pub GuardBandTop: f32,
    pub GuardBandRight: f32,
    pub GuardBandBottom: f32,
    pub ExtentsAdjust: f32,
    pub StencilCaps: u32,
    pub FVFCaps: u32,
    pub TextureOpCaps: u32,
    pub MaxTextureBlendStages: u32,
    pub MaxSimultaneousTextures: u32,
    pub VertexProcessingCaps: u32,
    pub MaxActiveLights: u32,
    pub MaxUserClipPlanes: u32,
    pub MaxVertexBlendMatrices: u32,
    pub MaxVertexBlendMatrixIndex: u32,
    pub MaxPointSize: f32,
    pub MaxPrimitiveCount: u32,
    pub MaxVertexIndex: u32,
    pub MaxStreams: u32,
    pub MaxStreamStride: u32,
    pub VertexShaderVersion: u32,
    pub MaxVertexShaderConst: u32,
    pub PixelShaderVersion: u32,
    pub PixelShader1xMaxValue: f32,
    pub DevCaps2: u32,
    pub MaxNpatchTessellationLevel: f32,
    pub Reserved5: u32,
    pub MasterAdapterOrdinal: u32,
    pub AdapterOrdinalInGroup: u32,
    pub NumberOfAdaptersInGroup: u32,
    pub DeclTypes: u32,
    pub NumSimultaneousRTs: u32,
    pub StretchRectFilterCaps: u32,
    pub VS20Caps: D3DVSHADERCAPS2_0,
    pub PS20Caps: D3DPSHADERCAPS2_0,
    pub VertexTextureFilterCaps: u32,
    pub MaxVShaderInstructionsExecuted: u32,
    pub MaxPShaderInstructionsExecuted: u32,
    pub MaxVertexShader30InstructionSlots: u32,
    pub MaxPixelShader30InstructionSlots: u32,
}
