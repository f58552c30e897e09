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
