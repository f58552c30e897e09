//! Fuzz shader translation: any decodable vertex shader that `check` accepts (on a hardware
//! and on a software-vertex-processing device), and any decodable pixel shader that `check`
//! accepts, either translates, in every float mode, to a module that naga validates again
//! here and emits as WGSL (pixel shaders with the alpha test off or one of its functions),
//! or returns a typed `Unsupported` error. Never a panic, never an invalid module.
#![no_main]

use d3d9_translator::bytecode::{decode_bytes, Stage};
use d3d9_translator::check::{check, DeviceCaps};
use d3d9_translator::lift::{
    translate_pixel_shader, translate_vertex_shader, validate, CompareFunction, FloatMode,
    LiftError, PixelShaderOptions, PointExpansion, TranslatedShader, VertexShaderOptions,
};
use libfuzzer_sys::fuzz_target;

fn accept(result: Result<TranslatedShader, LiftError>) {
    match result {
        Ok(shader) => {
            assert!(validate(&shader.module).is_ok(), "translated module fails validation");
            assert!(shader.wgsl().is_ok(), "validated module fails WGSL emission");
        }
        Err(e) => assert!(e.is_unsupported(), "checked program refused: {e}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(program) = decode_bytes(data) else { return };
    let stage = program.version.stage;
    let devices = match stage {
        Stage::Vertex => vec![DeviceCaps::default(), DeviceCaps::software()],
        Stage::Pixel => vec![DeviceCaps::default()],
    };
    for caps in devices {
        let Ok(checked) = check(&program, stage, &caps) else { continue };
        let modes = [FloatMode::Legacy, FloatMode::LegacyStrict, FloatMode::Ieee];
        for (k, float_mode) in modes.into_iter().enumerate() {
            accept(match stage {
                Stage::Vertex => {
                    // Point expansion off, or on with sprites and scaling varied by input;
                    // user clip planes on or off.
                    let n = data.len() + k;
                    let point_expansion = (n % 5 != 0)
                        .then_some(PointExpansion { sprite: n % 2 == 0, scale: n % 3 == 0 });
                    let options = VertexShaderOptions {
                        float_mode,
                        point_expansion,
                        clip_planes: n % 7 < 3,
                        ..Default::default()
                    };
                    translate_vertex_shader(&checked, &options)
                }
                Stage::Pixel => {
                    // The alpha test off or one of the eight D3DCMPFUNCs, varied by input.
                    let alpha_test = CompareFunction::from_d3d(((data.len() + k) % 9) as u32);
                    let options =
                        PixelShaderOptions { float_mode, alpha_test, ..Default::default() };
                    translate_pixel_shader(&checked, &options)
                }
            });
        }
    }
});
