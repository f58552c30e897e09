//! What the integration tests share: reading the shared corpus (`../shared/corpus`, beside the
//! checkout; never copied into the repo).
#![allow(dead_code)]

use serde_json::Value;

/// The parsed JSON of `../shared/corpus/<name>`.
pub fn corpus(name: &str) -> Value {
    let path = format!("{}/../../shared/corpus/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
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
