//! Bad input never panics: mutated corpus vertex shaders either fail to decode, translate to a
//! module that re-validates, or return a typed error.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use d3d9_translator::bytecode::decode;
use d3d9_translator::lift::{translate_vertex_shader, validate, FloatMode, VertexShaderOptions};
use proptest::prelude::*;

mod common;
use common::visual_vertex_shaders as vertex_shaders;

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]
    #[test]
    fn mutated_vertex_shaders_never_panic(
        pick in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u32>(), 0u8..4), 1..6),
        ieee in any::<bool>(),
    ) {
        let shaders = vertex_shaders();
        let mut t = pick.get(&shaders).clone();
        for (at, value, how) in edits {
            let i = at.index(t.len().max(1));
            if i == 0 || i >= t.len() { continue; }
            match how {
                0 => t[i] = value,
                1 => t[i] ^= 1 << (value % 32),
                2 => t[i] = (t[i] & 0xFFFF_0000) | (value & 0xFF),
                _ => t[i] = (t[i] & !0x000F_0000) | ((value & 0xF) << 16),
            }
        }
        if let Ok(program) = decode(&t) {
            let options = VertexShaderOptions {
                float_mode: if ieee { FloatMode::Ieee } else { FloatMode::Legacy },
                ..Default::default()
            };
            if let Ok(shader) = translate_vertex_shader(&program, &options) {
                prop_assert!(validate(&shader.module).is_ok());
                prop_assert!(shader.wgsl().is_ok());
            }
        }
    }
}
