//! The reference interpreter never panics and always ends: every corpus vertex shader, and
//! mutations of Wine's, that pass `check` run to completion on random inputs and constants
//! (inf, NaN and huge loop counts included) or stop with a typed error (`Unsupported` for
//! predicated flow control, `Budget` past the instruction budget); `texldl` runs with no
//! texture bound.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use d3d9_translator::bytecode::{decode, Stage};
use d3d9_translator::check::{check, CheckedProgram, DeviceCaps};
use d3d9_translator::interp::{Constants, InterpError, Interpreter};
use d3d9_translator::lift::FloatMode;
use proptest::prelude::*;

mod common;
use common::{complete_shaders, visual_vertex_shaders};

fn run_all(checked: &CheckedProgram, value: f32, count: i32) -> Result<(), String> {
    let constants = Constants {
        floats: vec![[value, -value, 0.5, f32::NAN]; 300],
        ints: vec![[count, -3, 7, 0]; 16],
        bools: vec![true; 16],
    };
    let inputs = [[value, 1.0, -0.0, f32::INFINITY]; 16];
    for mode in [FloatMode::Legacy, FloatMode::LegacyStrict, FloatMode::Ieee] {
        let outcome = Interpreter::new(checked, mode).and_then(|i| i.run(&inputs, &constants));
        match outcome {
            Ok(_) | Err(InterpError::Unsupported { .. }) | Err(InterpError::Budget { .. }) => {}
            Err(e) => return Err(e.to_string()),
        }
    }
    Ok(())
}

#[test]
fn every_corpus_vertex_shader_runs() {
    let mut ran = 0;
    for (name, tokens) in complete_shaders() {
        let Ok(program) = decode(&tokens) else {
            continue;
        };
        if program.stage() != Stage::Vertex {
            continue;
        }
        for caps in [DeviceCaps::default(), DeviceCaps::software()] {
            if let Ok(checked) = check(&program, Stage::Vertex, &caps) {
                run_all(&checked, 3.5, 300)
                    .map_err(|e| format!("{name}: {e}"))
                    .unwrap();
                ran += 1;
            }
        }
    }
    eprintln!("interpreter: {ran} checked corpus vertex shaders ran");
    assert!(ran > 100, "{ran}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]
    #[test]
    fn mutated_vertex_shaders_never_panic(
        pick in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u32>(), 0u8..4), 1..6),
        value in any::<f32>(),
        count in any::<i32>(),
        software in any::<bool>(),
    ) {
        let shaders = visual_vertex_shaders();
        let mut t = pick.get(&shaders).clone();
        for (at, v, how) in edits {
            let i = at.index(t.len().max(1));
            if i == 0 || i >= t.len() { continue; }
            match how {
                0 => t[i] = v,
                1 => t[i] ^= 1 << (v % 32),
                2 => t[i] = (t[i] & 0xFFFF_0000) | (v & 0xFF),
                _ => t[i] = (t[i] & !0x000F_0000) | ((v & 0xF) << 16),
            }
        }
        let caps = if software { DeviceCaps::software() } else { DeviceCaps::default() };
        if let Some(checked) = decode(&t).ok().and_then(|p| check(&p, Stage::Vertex, &caps).ok()) {
            prop_assert!(run_all(&checked, value, count).is_ok());
        }
    }
}
