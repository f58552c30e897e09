//! The assembler against Wine's assembler tests: every `asm_pairs.json` text assembles to
//! exactly its tokens, every `asm_failures.json` text is rejected with its line named, and no
//! input (random or a mutated corpus text) makes it panic.

#![allow(clippy::panic)] // corpus tests name the failing entry

mod common;
use common::{corpus, tokens};

use d3d9_translator::asm::{assemble, assemble_tokens};
use d3d9_translator::bytecode::decode;
use proptest::prelude::*;

fn pairs() -> Vec<(String, Vec<u32>)> {
    corpus("asm_pairs.json")
        .as_array()
        .expect("array")
        .iter()
        .map(|p| {
            (
                p["asm"].as_str().expect("asm text").to_string(),
                tokens(&p["tokens"]),
            )
        })
        .collect()
}

#[test]
fn all_asm_pairs_assemble_to_their_tokens() {
    let pairs = pairs();
    assert_eq!(pairs.len(), 184);
    let mut failures = Vec::new();
    for (text, expected) in &pairs {
        match assemble_tokens(text) {
            Ok(t) if &t == expected => {}
            Ok(t) => failures.push(format!(
                "{text:?}:\n  got      {:08x?}\n  expected {:08x?}",
                t, expected
            )),
            Err(e) => failures.push(format!("{text:?}: {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of 184 failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn asm_pairs_assemble_to_the_decoded_program() {
    // Stronger than token equality: same model, token offsets included.
    let mut failures = Vec::new();
    for (text, expected) in &pairs() {
        let want = decode(expected).expect("corpus decodes");
        match assemble(text) {
            Ok(p) if p == want => {}
            Ok(p) => failures.push(format!("{text:?}:\n  got  {p:?}\n  want {want:?}")),
            Err(e) => failures.push(format!("{text:?}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn all_asm_failures_are_rejected_with_a_line() {
    let doc = corpus("asm_failures.json");
    let failures = doc["failures"].as_array().expect("failures");
    assert_eq!(failures.len(), 48);
    let mut accepted = Vec::new();
    for f in failures {
        let text = f["asm"].as_str().expect("asm text");
        let lines = text.lines().count() as u32;
        match assemble(text) {
            Ok(p) => accepted.push(format!("{} {text:?} -> {p:?}", f["comment"])),
            Err(e) => {
                assert!(
                    e.line >= 1 && e.line <= lines.max(1) && e.column >= 1,
                    "{text:?}: error outside the text: {e}"
                );
                assert!(e
                    .to_string()
                    .starts_with(&format!("line {}, column ", e.line)));
                eprintln!("{}: {e}", f["comment"].as_str().unwrap_or(""));
            }
        }
    }
    assert!(
        accepted.is_empty(),
        "{} of 48 accepted:\n{}",
        accepted.len(),
        accepted.join("\n")
    );
}

/// The error names an instruction line, never the version line (all 48 entries have a valid
/// version), and the multi-line entries blame the line Wine's comment describes.
#[test]
fn asm_failures_name_the_offending_line() {
    let doc = corpus("asm_failures.json");
    let mut wrong = Vec::new();
    for f in doc["failures"].as_array().expect("failures") {
        let text = f["asm"].as_str().expect("asm text");
        match assemble(text) {
            Err(e) if e.line >= 2 => {}
            other => wrong.push(format!("{text:?}: {other:?}")),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // Co-issue in vs_1_1 (entry 1) is on line 3; `defi i0, -1 - 1, ...` (entry 44) on line 2.
    let e = assemble("vs.1.1\nadd r0.rgb, r0, r1\n+add r0.a, r0, r2\n").expect_err("rejected");
    assert_eq!((e.line, e.column), (3, 1));
    let e = assemble("vs_2_0\ndefi i0, -1 - 1, 1, 10, 0\ndefi i1, 0, 40, 30, 10\n")
        .expect_err("rejected");
    assert_eq!((e.line, e.column), (2, 13));
}

fn corpus_texts() -> Vec<String> {
    pairs().into_iter().map(|(t, _)| t).collect()
}

/// A mutation of a corpus text: insert, delete or replace characters.
fn mutated() -> impl Strategy<Value = String> {
    let texts = corpus_texts();
    let n = texts.len();
    (
        0..n,
        proptest::collection::vec((0usize..400, 0u8..4, "[ -~\\n]{0,6}"), 1..6),
    )
        .prop_map(move |(i, edits)| {
            let mut chars: Vec<char> = texts[i].chars().collect();
            for (at, op, text) in edits {
                let at = at % (chars.len() + 1);
                match op {
                    0 => {
                        chars.splice(at..at, text.chars());
                    }
                    1 => {
                        let end = (at + text.len().max(1)).min(chars.len());
                        chars.drain(at..end);
                    }
                    2 => {
                        let end = (at + text.chars().count()).min(chars.len());
                        chars.splice(at..end, text.chars());
                    }
                    _ => {
                        // Duplicate a slice (repeats modifiers, brackets, operands).
                        let end = (at + 8).min(chars.len());
                        let dup: Vec<char> = chars[at..end].to_vec();
                        chars.splice(at..at, dup);
                    }
                }
            }
            chars.into_iter().collect()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn mutated_corpus_texts_never_panic(text in mutated()) {
        let _ = assemble(&text);
    }

    #[test]
    fn random_text_never_panics(text in "(vs_1_1|vs_2_x|vs_3_0|ps_1_3|ps_1_4|ps_2_0|ps_3_0)?[ -~\\n\\t]{0,120}") {
        let _ = assemble(&text);
    }

    #[test]
    fn arbitrary_unicode_never_panics(text in any::<String>()) {
        let _ = assemble(&text);
    }
}
