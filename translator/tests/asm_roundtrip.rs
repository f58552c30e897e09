//! Disassembler and assembler agree: for every `asm_pairs.json` entry and every complete shader
//! of `d3d9_visual.json` and `other_shaders.json`, `assemble(disassemble(decode(tokens)))`
//! encodes to the same tokens. The assembler ignores comments, so comment blocks are compared
//! separately: each one is listed in the text, and the rest of the stream matches exactly.

#![allow(clippy::panic)] // corpus tests name the failing entry

mod common;
use common::{corpus, tokens, ASM_PAIRS, COMPLETE_SHADERS};

use d3d9_translator::asm::{assemble, disassemble, AsmErrorKind};
use d3d9_translator::bytecode::{decode, encode};
use serde_json::Value;

/// A corpus shader: name, tokens, and whether its source says the native assembler rejects it
/// (Wine's `test_unsupported_shaders` hand-edits bytecode to out-of-range registers because
/// "this shader source generates syntax errors with the native shader assembler").
struct Shader {
    name: String,
    tokens: Vec<u32>,
    native_assembler_rejects: bool,
}

/// Every shader of the corpus that the round trip covers.
fn shaders() -> Vec<Shader> {
    let mut out = Vec::new();
    for (i, p) in corpus("asm_pairs.json")
        .as_array()
        .expect("pairs")
        .iter()
        .enumerate()
    {
        out.push(Shader {
            name: format!("asm_pairs[{i}]"),
            tokens: tokens(&p["tokens"]),
            native_assembler_rejects: false,
        });
    }
    let visual = corpus("d3d9_visual.json");
    for key in ["shaders", "composed_shaders"] {
        for s in visual[key].as_array().expect("shader list") {
            if s.get("complete").and_then(Value::as_bool) == Some(false) {
                continue;
            }
            out.push(shader(format!("visual {}", s["name"]), s));
        }
    }
    let other = corpus("other_shaders.json");
    for (file, f) in other["files"].as_object().expect("files") {
        for s in f["shaders"].as_array().expect("shaders") {
            if s.get("complete").and_then(Value::as_bool) == Some(false) {
                continue;
            }
            out.push(shader(format!("{file} {}", s["name"]), s));
        }
    }
    out
}

fn shader(name: String, s: &Value) -> Shader {
    let source = s["source_text_in_if0"].as_str().unwrap_or("");
    Shader {
        name,
        tokens: tokens(&s["tokens"]),
        native_assembler_rejects: source
            .contains("generates syntax errors with the native shader assembler"),
    }
}

#[test]
fn disassembled_corpus_reassembles_to_the_same_tokens() {
    let shaders = shaders();
    assert_eq!(shaders.len(), ASM_PAIRS + COMPLETE_SHADERS);
    let mut failures = Vec::new();
    let mut comment_blocks = 0;
    let mut rejected = Vec::new();
    for Shader {
        name,
        tokens: toks,
        native_assembler_rejects,
    } in &shaders
    {
        let program = decode(toks).unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = disassemble(&program);
        // Comments: each block is named in the text, at its token offset.
        for c in &program.comments {
            comment_blocks += 1;
            let line = format!(
                "// comment block at token {}: {} tokens",
                c.offset,
                c.data.len()
            );
            if !text.contains(&line) {
                failures.push(format!(
                    "{name}: comment block missing from the text: {line}"
                ));
            }
        }
        let mut without_comments = program.clone();
        without_comments.comments.clear();
        match assemble(&text) {
            // Like the native assembler, ours refuses registers the version does not have.
            Err(e) if *native_assembler_rejects => match e.kind {
                AsmErrorKind::RegisterNotInVersion { .. }
                | AsmErrorKind::OpcodeNotInVersion { .. } => rejected.push(name.clone()),
                _ => failures.push(format!("{name}: rejected for another reason: {e}")),
            },
            Ok(_) if *native_assembler_rejects => failures.push(format!(
                "{name}: the native assembler rejects it, we accept it"
            )),
            Ok(p) if encode(&p) == encode(&without_comments) => {}
            Ok(p) => failures.push(format!(
                "{name}: tokens differ\n{text}\n  got  {:08x?}\n  want {:08x?}",
                encode(&p),
                encode(&without_comments)
            )),
            Err(e) => failures.push(format!("{name}: {e}\n{text}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        shaders.len(),
        failures.join("\n")
    );
    // device.c and d3d9ex.c each have ps_1_8, ps_2_32, ps_3_224, vs_3_b16, vs_3_i16 and
    // ps_2_0_boolint (defb/defi/rep/if, which ps_2_0 does not have).
    assert_eq!(rejected.len(), 12, "{rejected:?}");
    // One shader of the corpus carries a comment block.
    assert_eq!(comment_blocks, 1);
}
