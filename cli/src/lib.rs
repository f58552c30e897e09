//! The library part of `d3d9-translate`: translating D3D9 shaders into every naga back end,
//! one at a time ([`translate`]) or a whole set in parallel with per-shader results
//! ([`batch::translate_batch`], for a compatibility layer warming its shader cache). It lives
//! here, not in d3d9-translator, because it needs rayon and naga's extra back ends, which the
//! translator library does not take.

pub mod batch;
pub mod constants;
pub mod translate;
pub mod wgsl;

use d3d9_translator::check::{DeviceCaps, VertexProcessing};

/// The device a shader is created on: the default SM3 hardware device, the software one
/// (`--swvp`), or a Direct3D 8 one (`--d3d8`).
pub fn device_caps(swvp: bool, d3d8: bool) -> DeviceCaps {
    if d3d8 {
        return DeviceCaps::d3d8();
    }
    DeviceCaps {
        vertex_processing: if swvp {
            VertexProcessing::Software
        } else {
            VertexProcessing::Hardware
        },
        ..DeviceCaps::default()
    }
}
