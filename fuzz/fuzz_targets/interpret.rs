//! Fuzz the reference interpreter: any decodable vertex shader that `check` accepts (on a
//! hardware and on a software-vertex-processing device) runs to completion in every float
//! mode, or stops with a typed `Unsupported` or `Budget` error. Never a panic, never a hang.
#![no_main]

use d3d9_translator::bytecode::{decode_bytes, Stage};
use d3d9_translator::check::{check, DeviceCaps};
use d3d9_translator::interp::{Constants, InterpError, Interpreter};
use d3d9_translator::lift::FloatMode;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(program) = decode_bytes(data) else { return };
    if program.version.stage != Stage::Vertex {
        return;
    }
    let constants = Constants {
        floats: vec![[1.5, -0.0, f32::INFINITY, f32::NAN]; 64],
        ints: vec![[255, 0, 1, 0]; 16],
        bools: vec![true; 16],
    };
    let inputs = [[0.5, -1.0, 2.0, 1.0]; 16];
    for caps in [DeviceCaps::default(), DeviceCaps::software()] {
        let Ok(checked) = check(&program, Stage::Vertex, &caps) else { continue };
        for mode in [FloatMode::Legacy, FloatMode::LegacyStrict, FloatMode::Ieee] {
            match Interpreter::new(&checked, mode).and_then(|i| i.run(&inputs, &constants)) {
                Ok(_) | Err(InterpError::Unsupported { .. }) | Err(InterpError::Budget { .. }) => {}
                Err(e) => panic!("checked program failed in the interpreter: {e}"),
            }
        }
    }
});
