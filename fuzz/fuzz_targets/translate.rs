//! Fuzz vertex-shader translation: any decodable vertex shader either translates to a module
//! that naga validates again here and emits as WGSL, or returns a typed error. Never a panic,
//! never an invalid module.
#![no_main]

use d3d9_translator::bytecode::{decode_bytes, Stage};
use d3d9_translator::lift::{translate_vertex_shader, validate, FloatMode, VertexShaderOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(program) = decode_bytes(data) else { return };
    if program.version.stage != Stage::Vertex {
        return;
    }
    for (float_mode, software_vertex_processing) in
        [(FloatMode::Legacy, false), (FloatMode::Ieee, true)]
    {
        let options =
            VertexShaderOptions { float_mode, software_vertex_processing, ..Default::default() };
        if let Ok(shader) = translate_vertex_shader(&program, &options) {
            assert!(validate(&shader.module).is_ok(), "translated module fails validation");
            assert!(shader.wgsl().is_ok(), "validated module fails WGSL emission");
        }
    }
});
