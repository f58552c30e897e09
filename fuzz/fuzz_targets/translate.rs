//! Fuzz vertex-shader translation: any decodable vertex shader that `check` accepts (on a
//! hardware and on a software-vertex-processing device) either translates, in every float
//! mode, to a module that naga validates again here and emits as WGSL, or returns a typed
//! `Unsupported` error. Never a panic, never an invalid module.
#![no_main]

use d3d9_translator::bytecode::{decode_bytes, Stage};
use d3d9_translator::check::{check, DeviceCaps};
use d3d9_translator::lift::{translate_vertex_shader, validate, FloatMode, VertexShaderOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(program) = decode_bytes(data) else { return };
    if program.version.stage != Stage::Vertex {
        return;
    }
    for caps in [DeviceCaps::default(), DeviceCaps::software()] {
        let Ok(checked) = check(&program, Stage::Vertex, &caps) else { continue };
        for float_mode in [FloatMode::Legacy, FloatMode::LegacyStrict, FloatMode::Ieee] {
            let options = VertexShaderOptions { float_mode, ..Default::default() };
            match translate_vertex_shader(&checked, &options) {
                Ok(shader) => {
                    assert!(validate(&shader.module).is_ok(), "translated module fails validation");
                    assert!(shader.wgsl().is_ok(), "validated module fails WGSL emission");
                }
                Err(e) => assert!(e.is_unsupported(), "checked program refused: {e}"),
            }
        }
    }
});
