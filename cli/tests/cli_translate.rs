//! `translate --lang`: every complete corpus shader into every naga back end; each output is
//! re-read with naga's own front end where one exists here (WGSL, SPIR-V, GLSL) and validated.

#[path = "../../translator/tests/common/mod.rs"]
mod common;
use common::{complete_shaders, COMPLETE_SHADERS};
mod reread;
use reread::reread;

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_d3d9-translate");
const LANGS: [&str; 5] = ["wgsl", "spirv", "msl", "hlsl", "glsl"];

fn scratch(test: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("d3d9-cli-translate-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn write(dir: &Path, i: usize, tokens: &[u32]) -> PathBuf {
    let path = dir.join(format!("{i}.bin"));
    let bytes: Vec<u8> = tokens.iter().flat_map(|t| t.to_le_bytes()).collect();
    std::fs::write(&path, bytes).expect("write");
    path
}

#[test]
fn every_corpus_shader_in_every_language_rereads_and_validates() {
    let shaders = complete_shaders();
    assert_eq!(shaders.len(), COMPLETE_SHADERS);
    let dir = scratch("corpus");
    let mut translated = [0usize; 5];
    let mut revalidated = [0usize; 5];
    let mut pixel = 0;
    let (mut refused, mut refused_invalid) = (0, 0);
    let mut failures = Vec::new();
    for (i, (name, tokens)) in shaders.iter().enumerate() {
        let file = write(&dir, i, tokens);
        let is_pixel = tokens.first().is_some_and(|v| v >> 16 == 0xFFFF);
        for (k, lang) in LANGS.iter().enumerate() {
            let out_path = dir.join(format!("{i}.{lang}"));
            let o = Command::new(BIN)
                .args(["translate", "--lang", lang, "-o"])
                .arg(&out_path)
                .arg(&file)
                .output()
                .expect("binary runs");
            let err = String::from_utf8_lossy(&o.stderr);
            if o.status.success() {
                let out = std::fs::read(&out_path).expect("output written");
                match reread(lang, &out) {
                    Ok(validated) => {
                        translated[k] += 1;
                        revalidated[k] += usize::from(validated);
                        if k == 0 && is_pixel {
                            pixel += 1;
                        }
                    }
                    Err(e) => failures.push(format!("{name} ({lang}): {e}")),
                }
            } else {
                // A shader that is refused is refused for a stated reason.
                assert!(
                    err.contains("invalid: ")
                        || err.contains("unsupported: ")
                        || err.contains("malformed bytecode: "),
                    "{name} ({lang}): {err}"
                );
                if k == 0 {
                    refused += 1;
                    refused_invalid += usize::from(err.contains("invalid: "));
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Every language translates the same shaders.
    assert!(
        translated.iter().all(|&n| n == translated[0]),
        "{translated:?}"
    );
    assert_eq!(translated[0] + refused, COMPLETE_SHADERS);
    // Pinned: 215 of the 236 translate (117 of them pixel shaders, every version), 21 are
    // refused, all as invalid (Wine's shaders that a D3D9 runtime refuses, and the
    // fragments the corpus keeps); WGSL and SPIR-V outputs all re-read and validate, GLSL
    // all but the 34 that sample textures (naga's GLSL front end takes no combined
    // samplers); MSL and HLSL have no front end here.
    assert_eq!(translated, [215; 5]);
    assert_eq!(pixel, 117, "pixel shaders translated");
    assert_eq!((refused, refused_invalid), (21, 21));
    assert_eq!(revalidated, [215, 215, 0, 0, 181]);
    eprintln!("translated per language {translated:?} ({pixel} pixel shaders), re-validated {revalidated:?}, refused {refused}");
}

/// Back-end options: a SPIR-V version, GLSL ES, an HLSL shader model, and a refusal of an
/// unknown shader model.
#[test]
fn backend_options_reach_the_writers() {
    let (_, tokens) = complete_shaders()
        .into_iter()
        .find(|(_, t)| t.first() == Some(&0xFFFE_0200))
        .expect("a vs_2_0 shader");
    let dir = scratch("options");
    let file = write(&dir, 0, &tokens);
    let run = |args: &[&str]| {
        Command::new(BIN)
            .arg("translate")
            .args(args)
            .arg(&file)
            .output()
            .expect("runs")
    };
    let o = run(&["--lang", "spirv", "--spirv-version", "1.3"]);
    assert!(o.status.success());
    // SPIR-V header word 1 is the version: 0x00010300.
    assert_eq!(o.stdout.get(4..8), Some(&[0, 3, 1, 0][..]));
    reread("spirv", &o.stdout).expect("valid");
    let o = run(&["--lang", "glsl", "--glsl-es", "--glsl-version", "310"]);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("#version 310 es"));
    // HLSL: the vertex entry point with its position output, the constants' buffer at b0;
    // shader model 6.0 writes the same text as the default 5.0 (naga's HLSL writer only
    // changes what D3D9 programs never use: view index, per-vertex inputs, mesh shaders).
    let o = run(&["--lang", "hlsl", "--hlsl-shader-model", "6.0"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let sm6 = String::from_utf8(o.stdout).expect("utf-8");
    assert!(sm6.contains("VertexOutput_main main("), "{sm6}");
    assert!(
        sm6.contains("precise float4 position : SV_Position;"),
        "{sm6}"
    );
    assert!(
        sm6.contains("cbuffer c : register(b0) { float4 c[257]; }"),
        "{sm6}"
    );
    let o = run(&["--lang", "hlsl"]);
    assert!(o.status.success());
    assert_eq!(String::from_utf8(o.stdout).expect("utf-8"), sm6);
    let o = run(&["--lang", "hlsl", "--hlsl-shader-model", "4.0"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("shader model 4.0"));
    let _ = std::fs::remove_dir_all(&dir);
}
