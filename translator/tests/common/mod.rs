//! What the integration tests share: reading the shared corpus (`../shared/corpus`, beside the
//! checkout; never copied into the repo).
#![allow(dead_code)]

use serde_json::Value;
use std::path::{Path, PathBuf};

/// Where `../shared/corpus/<name>` is: beside the checkout (the workspace root is the parent
/// of every crate's manifest directory).
pub fn corpus_path(name: &str) -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let beside = manifest.parent().and_then(Path::parent).unwrap_or(manifest);
    beside.join("shared").join("corpus").join(name)
}

/// The text of `../shared/corpus/<name>`, or the one line that says where it was looked for.
pub fn read_corpus(name: &str) -> Result<String, String> {
    let path = corpus_path(name);
    std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "shared corpus file {} not readable ({e}): the tests read ../shared/corpus beside the checkout (see README)",
            path.display()
        )
    })
}

/// The parsed JSON of `../shared/corpus/<name>`; a missing corpus fails the test with one line
/// naming the path.
pub fn corpus(name: &str) -> Value {
    let text = read_corpus(name).unwrap_or_else(|line| panic!("{line}"));
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{}: not JSON: {e}", corpus_path(name).display()))
}

/// A corpus `tokens` array as u32 tokens.
pub fn tokens(v: &Value) -> Vec<u32> {
    v.as_array()
        .expect("tokens array")
        .iter()
        .map(|t| u32::try_from(t.as_u64().expect("token is an integer")).expect("token fits u32"))
        .collect()
}

/// How many shaders [`complete_shaders`] gives: 196 of the 199 of `d3d9_visual.json` (174
/// arrays and 25 composed; three are marked incomplete) and the 40 of `other_shaders.json`.
/// Corpus tests assert it, so a silently skipped entry fails them.
pub const COMPLETE_SHADERS: usize = 196 + 40;

/// The number of `asm_pairs.json` entries.
pub const ASM_PAIRS: usize = 184;

/// Every complete shader of `d3d9_visual.json` (arrays and composed) and `other_shaders.json`.
pub fn complete_shaders() -> Vec<(String, Vec<u32>)> {
    let mut out = Vec::new();
    let visual = corpus("d3d9_visual.json");
    for key in ["shaders", "composed_shaders"] {
        for s in visual[key].as_array().expect("shader list") {
            if s.get("complete").and_then(Value::as_bool) == Some(false) {
                continue;
            }
            out.push((format!("visual {}", s["name"]), tokens(&s["tokens"])));
        }
    }
    let other = corpus("other_shaders.json");
    for (file, f) in other["files"].as_object().expect("files") {
        for s in f["shaders"].as_array().expect("shaders") {
            if s.get("complete").and_then(Value::as_bool) == Some(false) {
                continue;
            }
            out.push((format!("{file} {}", s["name"]), tokens(&s["tokens"])));
        }
    }
    out
}

/// Every vertex shader of `d3d9_visual.json` (arrays and composed), incomplete ones included.
pub fn visual_vertex_shaders() -> Vec<Vec<u32>> {
    let visual = corpus("d3d9_visual.json");
    ["shaders", "composed_shaders"]
        .iter()
        .flat_map(|key| visual[*key].as_array().expect("shader list").clone())
        .map(|s| tokens(&s["tokens"]))
        .filter(|t| t.first().is_some_and(|v| v >> 16 == 0xFFFE))
        .collect()
}

/// The token arrays of every pixel shader of `d3d9_visual.json` (arrays and composed).
pub fn visual_pixel_shaders() -> Vec<Vec<u32>> {
    let visual = corpus("d3d9_visual.json");
    ["shaders", "composed_shaders"]
        .iter()
        .flat_map(|key| visual[*key].as_array().expect("shader list").clone())
        .map(|s| tokens(&s["tokens"]))
        .filter(|t| t.first().is_some_and(|v| v >> 16 == 0xFFFF))
        .collect()
}

/// The pixel shader `text` assembled, checked with the default caps and translated with
/// `options`; its WGSL re-parsed and validated (panics name what failed).
pub fn validated_pixel_shader(
    text: &str,
    options: &d3d9_translator::lift::PixelShaderOptions,
) -> (String, d3d9_translator::lift::TranslatedShader) {
    use d3d9_translator::check::{check, DeviceCaps};
    let program = d3d9_translator::asm::assemble(text).unwrap_or_else(|e| panic!("{e}"));
    let checked = check(
        &program,
        d3d9_translator::bytecode::Stage::Pixel,
        &DeviceCaps::default(),
    )
    .unwrap_or_else(|e| panic!("check: {e}"));
    let t = d3d9_translator::lift::translate_pixel_shader(&checked, options)
        .unwrap_or_else(|e| panic!("{e}"));
    let wgsl = t.wgsl().unwrap_or_else(|e| panic!("wgsl: {e}"));
    let module = naga::front::wgsl::parse_str(&wgsl)
        .unwrap_or_else(|e| panic!("{}", e.emit_to_string(&wgsl)));
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::default(),
    )
    .validate(&module)
    .unwrap_or_else(|e| panic!("{}", e.emit_to_string(&wgsl)));
    (wgsl, t)
}
