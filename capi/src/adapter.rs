//! The adapter `IDirect3D9` reports (one: wgpu's default, chosen by `WGPU_BACKEND` /
//! `WGPU_ADAPTER_NAME` as everywhere in this project): its display mode and the back-buffer
//! formats it shows; what the device keeps of the `IDirect3D9` that made it.

use std::sync::OnceLock;

use d3d9_backend::Gpu;

use crate::com::{Class, Kind};
use crate::guid::{Guid, IID_IDIRECT3D9};
use crate::hresult::{fail, CallResult, D3DERR_NOTAVAILABLE};
use crate::types::*;

/// `D3DFMT_X8R8G8B8`, the one display mode format (the desktop's).
pub const DISPLAY_FORMAT: u32 = 22;
/// The display mode reported: the size of the desktop a headless program sees.
pub const DISPLAY_MODE: D3DDISPLAYMODE = D3DDISPLAYMODE {
    Width: 1024,
    Height: 768,
    RefreshRate: d3d9_backend::device::DISPLAY_REFRESH_HZ,
    Format: DISPLAY_FORMAT,
};

/// The `IDirect3D9` object: the adapter it reports, opened on first use.
#[derive(Default)]
pub struct Direct3D9 {
    adapter: OnceLock<Result<Gpu, String>>,
}

impl Class for Direct3D9 {
    const KIND: Kind = Kind::Direct3D;
    fn interfaces(&self) -> &'static [Guid] {
        &[IID_IDIRECT3D9]
    }
}

impl Direct3D9 {
    /// The adapter's GPU, opened once (no adapter: `D3DERR_NOTAVAILABLE`).
    pub fn gpu(&self) -> CallResult<&Gpu> {
        self.adapter
            .get_or_init(|| Gpu::new().map_err(|e| e.to_string()))
            .as_ref()
            .map_err(|e| fail(D3DERR_NOTAVAILABLE, format!("no adapter: {e}")))
    }
}

/// Back-buffer formats a swap chain can have: full-screen, the display format's
/// (X8R8G8B8, or A8R8G8B8: alpha may differ); windowed also R5G6B5 and A2R10G10B10, which
/// the present pass converts to the window's format ("for windowed applications, the back
/// buffer format does not need to match the display mode format if the hardware supports
/// color conversion", CheckDeviceType in the SDK).
pub fn back_buffer_format(format: u32, windowed: bool) -> bool {
    match format {
        21 | 22 => true,
        // D3DFMT_R5G6B5, D3DFMT_A2R10G10B10.
        23 | 35 => windowed,
        _ => false,
    }
}
