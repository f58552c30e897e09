//! The shared corpus decodes, and encoding the decoded program gives back the same tokens.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

mod common;
use common::{corpus, tokens};

use d3d9_translator::bytecode::{decode, encode};
use serde_json::Value;

#[test]
fn asm_pairs_decode_and_reencode() {
    let pairs = corpus("asm_pairs.json");
    let pairs = pairs.as_array().expect("array");
    let mut ok = 0;
    let mut failures = Vec::new();
    for p in pairs {
        let toks = tokens(&p["tokens"]);
        match decode(&toks) {
            Ok(prog) => {
                let re = encode(&prog);
                if re == toks {
                    ok += 1;
                } else {
                    failures.push(format!(
                        "{:?}: re-encoded {:x?} != {:x?}",
                        p["asm"], re, toks
                    ));
                }
            }
            Err(e) => failures.push(format!("{:?}: {e}", p["asm"])),
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(ok, 184);
}

/// Every complete shader of `d3d9_visual.json` (arrays and composed) and `other_shaders.json`.
fn complete_shaders() -> Vec<(String, Vec<u32>)> {
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

#[test]
fn complete_corpus_shaders_decode_and_reencode() {
    let shaders = complete_shaders();
    let mut failures = Vec::new();
    for (name, toks) in &shaders {
        match decode(toks) {
            Ok(prog) => {
                if &encode(&prog) != toks {
                    failures.push(format!("{name}: re-encoding differs"));
                }
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        shaders.len(),
        failures.join("\n")
    );
    eprintln!("{} complete shaders decoded and re-encoded", shaders.len());
}
