//! The device a shader is checked against.

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
