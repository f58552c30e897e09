//! Every complete vertex and pixel shader of the shared corpus translates to a validated module
//! whose WGSL naga's own WGSL front end parses and validates again, and what linking reads of
//! it before lifting (`VertexLinkInterface::of`, `PixelLinkInterface::of`) is what its lifted
//! interface says.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

mod common;
use common::{complete_shaders, corpus, tokens};

use d3d9_translator::bytecode::{decode, Stage};
use d3d9_translator::check::{check, DeviceCaps};
use d3d9_translator::lift::link::{PixelLinkInterface, VertexLinkInterface};
use d3d9_translator::lift::{
    translate_pixel_shader, translate_vertex_shader, FloatMode, PixelShaderOptions,
    VertexShaderOptions,
};

/// Every complete vertex shader: Wine's visual.c (arrays and composed), other_shaders.json,
/// and vkd3d's compiled vertex shaders (plus its default vertex shader).
fn vertex_shaders() -> Vec<(String, Vec<u32>)> {
    let mut out = complete_shaders();
    let vkd3d = corpus("vkd3d/vkd3d_sm23.json");
    for (profile, b) in vkd3d["default_vertex_shader"]["bytecode"]
        .as_object()
        .expect("default vs")
    {
        if b["compile_ok"].as_bool() == Some(true) {
            out.push((format!("vkd3d default {profile}"), tokens(&b["tokens"])));
        }
    }
    for f in vkd3d["files"].as_array().expect("files") {
        for s in f["shaders"].as_array().expect("shaders") {
            if s["kind"].as_str() != Some("vertex") || s["compile_ok"].as_bool() != Some(true) {
                continue;
            }
            if let Some(t) = s.get("tokens").filter(|t| t.is_array()) {
                out.push((
                    format!("vkd3d {} #{} {}", f["name"], s["id"], s["profile"]),
                    tokens(t),
                ));
            }
        }
    }
    out.retain(|(_, t)| t.first().is_some_and(|v| v >> 16 == 0xFFFE));
    out
}

fn reparse(wgsl: &str) -> Result<(), String> {
    let module = naga::front::wgsl::parse_str(wgsl).map_err(|e| e.emit_to_string(wgsl))?;
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::default(),
    )
    .validate(&module)
    .map_err(|e| e.emit_to_string(wgsl))?;
    Ok(())
}

#[test]
fn every_corpus_vertex_shader_that_passes_check_translates_and_reparses() {
    let shaders = vertex_shaders();
    let mut translated = 0;
    let mut software_only = 0;
    let mut refused = Vec::new();
    let mut failures = Vec::new();
    for (name, toks) in &shaders {
        let program = match decode(toks) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{name}: decode: {e}"));
                continue;
            }
        };
        assert_eq!(program.version.stage, Stage::Vertex);
        // What a hardware device accepts must translate for hardware vertex processing; what
        // only a software-vertex-processing device accepts must translate in that mode.
        // Shaders from Wine's d3d8 tests are created through Direct3D 8 (no `dcl` needed).
        let device = if name.contains("d3d8/") {
            DeviceCaps::d3d8()
        } else {
            DeviceCaps::default()
        };
        let hardware = check(&program, Stage::Vertex, &device);
        let software = check(&program, Stage::Vertex, &DeviceCaps::software());
        let checked = match (hardware, software) {
            (Ok(c), _) => c,
            (Err(_), Ok(c)) => {
                software_only += 1;
                c
            }
            (Err(_), Err(_)) => {
                refused.push(name.clone());
                continue;
            }
        };
        for mode in [FloatMode::Legacy, FloatMode::LegacyStrict, FloatMode::Ieee] {
            let options = VertexShaderOptions {
                float_mode: mode,
                ..Default::default()
            };
            match translate_vertex_shader(&checked, &options) {
                Ok(t) if VertexLinkInterface::of(&program) != (&t.interface).into() => {
                    failures.push(format!("{name} {mode:?}: link interface differs"))
                }
                Ok(t) => match t
                    .wgsl()
                    .map_err(|e| e.to_string())
                    .and_then(|w| reparse(&w).map(|()| w))
                {
                    Ok(_) => translated += 1,
                    Err(e) => failures.push(format!("{name} {mode:?}: WGSL: {e}")),
                },
                Err(e) => failures.push(format!("{name} {mode:?}: {e}")),
            }
        }
    }
    eprintln!(
        "{translated} translations of {} vertex shaders ({software_only} only under software \
         vertex processing); refused by check on every device: {refused:?}",
        shaders.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // 174 shaders; 11 of them use c256, i16 or b16, which only software vertex processing
    // has (Wine creates them to see a hardware device refuse them).
    assert_eq!(shaders.len(), 174);
    assert!(refused.is_empty(), "refused: {refused:?}");
    assert_eq!(software_only, 11);
    assert_eq!(translated, 3 * (shaders.len() - refused.len()));
}

/// Every complete pixel shader: Wine's visual.c (arrays and composed), other_shaders.json,
/// and vkd3d's compiled pixel shaders.
fn pixel_shaders() -> Vec<(String, Vec<u32>)> {
    let mut out = complete_shaders();
    let vkd3d = corpus("vkd3d/vkd3d_sm23.json");
    for f in vkd3d["files"].as_array().expect("files") {
        for s in f["shaders"].as_array().expect("shaders") {
            if s["kind"].as_str() != Some("pixel") || s["compile_ok"].as_bool() != Some(true) {
                continue;
            }
            if let Some(t) = s.get("tokens").filter(|t| t.is_array()) {
                out.push((
                    format!("vkd3d {} #{} {}", f["name"], s["id"], s["profile"]),
                    tokens(t),
                ));
            }
        }
    }
    out.retain(|(_, t)| t.first().is_some_and(|v| v >> 16 == 0xFFFF));
    out
}

#[test]
fn every_corpus_pixel_shader_that_passes_check_translates_and_reparses() {
    let shaders = pixel_shaders();
    let (mut ps1, mut ps2, mut ps3) = (0, 0, 0);
    let mut refused = 0;
    let mut failures = Vec::new();
    for (name, toks) in &shaders {
        let program = match decode(toks) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{name}: decode: {e}"));
                continue;
            }
        };
        assert_eq!(program.version.stage, Stage::Pixel);
        let device = if name.contains("d3d8/") {
            DeviceCaps::d3d8()
        } else {
            DeviceCaps::default()
        };
        let Ok(checked) = check(&program, Stage::Pixel, &device) else {
            refused += 1;
            continue;
        };
        for mode in [FloatMode::Legacy, FloatMode::LegacyStrict, FloatMode::Ieee] {
            let options = PixelShaderOptions {
                float_mode: mode,
                ..Default::default()
            };
            match translate_pixel_shader(&checked, &options) {
                Ok(t) if PixelLinkInterface::of(&program) != (&t.interface).into() => {
                    failures.push(format!("{name} {mode:?}: link interface differs"))
                }
                Ok(t) => match t
                    .wgsl()
                    .map_err(|e| e.to_string())
                    .and_then(|w| reparse(&w).map(|()| w))
                {
                    Ok(_) if mode != FloatMode::Legacy => {}
                    Ok(_) if program.version.major == 3 => ps3 += 1,
                    Ok(_) if program.version.major == 1 => ps1 += 1,
                    Ok(_) => ps2 += 1,
                    Err(e) => failures.push(format!("{name} {mode:?}: WGSL: {e}")),
                },
                Err(e) => failures.push(format!("{name} {mode:?}: {e}")),
            }
        }
    }
    eprintln!(
        "{} pixel shaders: {ps1} ps_1_x, {ps2} ps_2_0/2_x and {ps3} ps_3_0 translate (in each \
         float mode); {refused} refused by check",
        shaders.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // 1641 pixel shaders: 43 ps_1_x, 732 ps_2_0/2_x and 825 ps_3_0 translate; 41 are refused
    // by check (vkd3d's ps_2_0 shaders past the slot limits,
    // its r12, and Wine's deliberately invalid shaders: `check_corpus` pins those).
    assert_eq!(
        (shaders.len(), ps1, ps2, ps3, refused),
        (1641, 43, 732, 825, 41)
    );
}
