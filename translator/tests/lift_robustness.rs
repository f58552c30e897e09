//! Bad input never panics: mutated corpus vertex and pixel shaders either fail to decode or check, or
//! translate to WGSL that naga's own WGSL front end parses and validates, or return a typed
//! error. (Re-running the validator the translator already ran could not fail; re-reading the
//! text can.)

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use d3d9_translator::bytecode::{decode, Stage};
use d3d9_translator::check::{check, DeviceCaps};
use d3d9_translator::lift::{
    translate_pixel_shader, translate_vertex_shader, validate, FloatMode, LiftError,
    PixelShaderOptions, TranslatedShader, VertexShaderOptions,
};
use proptest::prelude::*;

mod common;
use common::{visual_pixel_shaders as pixel_shaders, visual_vertex_shaders as vertex_shaders};

/// Apply token edits (never to the version token).
fn mutate(t: &mut [u32], edits: Vec<(prop::sample::Index, u32, u8)>) {
    for (at, value, how) in edits {
        let i = at.index(t.len().max(1));
        if i == 0 || i >= t.len() {
            continue;
        }
        match how {
            0 => t[i] = value,
            1 => t[i] ^= 1 << (value % 32),
            2 => t[i] = (t[i] & 0xFFFF_0000) | (value & 0xFF),
            _ => t[i] = (t[i] & !0x000F_0000) | ((value & 0xF) << 16),
        }
    }
}

/// A translation result of a checked program: WGSL that re-parses and validates, or
/// `Unsupported`.
fn assert_sound(
    program: &str,
    result: Result<TranslatedShader, LiftError>,
) -> Result<(), TestCaseError> {
    match result {
        Ok(shader) => {
            let wgsl = shader.wgsl();
            prop_assert!(wgsl.is_ok(), "{:?}", wgsl.err());
            let text = wgsl.unwrap_or_default();
            let reparsed = naga::front::wgsl::parse_str(&text);
            prop_assert!(reparsed.is_ok(), "{text}\n{:?}", reparsed.err());
            let module = reparsed.unwrap();
            prop_assert!(validate(&module).is_ok(), "{text}");
        }
        // A checked program may only be refused as unsupported.
        Err(e) => prop_assert!(e.is_unsupported(), "{e}\n{program}"),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]
    #[test]
    fn mutated_vertex_shaders_never_panic(
        pick in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u32>(), 0u8..4), 1..6),
        mode in 0u8..3,
        software in any::<bool>(),
    ) {
        let shaders = vertex_shaders();
        let mut t = pick.get(&shaders).clone();
        mutate(&mut t, edits);
        let caps = if software { DeviceCaps::software() } else { DeviceCaps::default() };
        let checked = decode(&t).ok().and_then(|p| check(&p, Stage::Vertex, &caps).ok());
        if let Some(checked) = checked {
            let options = VertexShaderOptions {
                float_mode: [FloatMode::Legacy, FloatMode::LegacyStrict, FloatMode::Ieee]
                    [usize::from(mode)],
                ..Default::default()
            };
            let text = d3d9_translator::asm::disassemble(checked.program());
            assert_sound(&text, translate_vertex_shader(&checked, &options))?;
        }
    }

    #[test]
    fn mutated_pixel_shaders_never_panic(
        pick in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u32>(), 0u8..4), 1..6),
        mode in 0u8..3,
    ) {
        let shaders = pixel_shaders();
        let mut t = pick.get(&shaders).clone();
        mutate(&mut t, edits);
        let checked = decode(&t)
            .ok()
            .and_then(|p| check(&p, Stage::Pixel, &DeviceCaps::default()).ok());
        if let Some(checked) = checked {
            let options = PixelShaderOptions {
                float_mode: [FloatMode::Legacy, FloatMode::LegacyStrict, FloatMode::Ieee]
                    [usize::from(mode)],
                ..Default::default()
            };
            let text = d3d9_translator::asm::disassemble(checked.program());
            assert_sound(&text, translate_pixel_shader(&checked, &options))?;
        }
    }
}
