//! The shared corpus decodes, and encoding the decoded program gives back the same tokens.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

mod common;
use common::{complete_shaders, corpus, tokens, ASM_PAIRS, COMPLETE_SHADERS};

use d3d9_translator::bytecode::{decode, encode};

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
    assert_eq!(ok, ASM_PAIRS);
}

#[test]
fn complete_corpus_shaders_decode_and_reencode() {
    let shaders = complete_shaders();
    assert_eq!(shaders.len(), COMPLETE_SHADERS);
    let mut failures = Vec::new();
    let mut ok = 0;
    for (name, toks) in &shaders {
        match decode(toks) {
            Ok(prog) => {
                if &encode(&prog) != toks {
                    failures.push(format!("{name}: re-encoding differs"));
                } else {
                    ok += 1;
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
    assert_eq!(ok, COMPLETE_SHADERS);
}

/// A newcomer without `../shared/corpus` gets one line naming the path the tests looked for.
#[test]
fn a_missing_corpus_file_is_one_line_naming_its_path() {
    let err = common::read_corpus("no-such-file.json").expect_err("no such corpus file");
    assert!(!err.contains('\n'), "{err}");
    let path = common::corpus_path("no-such-file.json");
    assert!(path.ends_with("shared/corpus/no-such-file.json"));
    assert!(err.contains(&*path.to_string_lossy()), "{err}");
}
