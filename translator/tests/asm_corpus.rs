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

/// Where each `asm_failures.json` entry is refused and what the message names, by entry
/// index: (line, column, text the reason contains). The line and column are those of the
/// offending token (Wine's comment says which); the text names the modifier, register,
/// swizzle or rule that is broken.
const FAILURE_SITES: [(u32, u32, &str); 48] = [
    (3, 7, "modifier _x2 is not allowed in ps_3_0"),
    (3, 1, "co-issue"),
    (4, 1, "co-issue"),
    (2, 1, "predicated instructions do not exist in vs_1_1"),
    (2, 12, "register a0 does not exist in ps_3_0"),
    (2, 9, "register s0 does not exist in vs_1_1"),
    (2, 12, "aL is a scalar register: it takes no swizzle"),
    (3, 12, "register t1 does not exist in ps_3_0"),
    (2, 7, "more than one shift modifier"),
    (2, 1, "mov takes 1 source operand(s) in vs_1_1, found 2"),
    (2, 12, "_dz is not allowed together with negation"),
    (2, 9, "(complement) is not allowed in ps_2_0"),
    (2, 9, "not '2'"),
    (2, 17, "relative address offset must be an integer"),
    (2, 9, "(complement) is not allowed in vs_3_0"),
    (2, 9, "modifier _x2 is not allowed in vs_1_1"),
    (2, 9, "modifier _abs is not allowed in vs_1_1"),
    (2, 9, "modifier _x2 is not allowed in ps_2_0"),
    (2, 12, "invalid swizzle '.abcd'"),
    (2, 12, "invalid swizzle '.xyzwx'"),
    (2, 11, "invalid swizzle '.'"),
    (2, 8, "invalid write mask '.xxyz'"),
    (2, 5, "register r5 does not exist in ps_1_3"),
    (
        2,
        15,
        "output registers cannot be declared in a pixel shader",
    ),
    (2, 4, "modifier _pp is not allowed in vs_3_0"),
    (2, 4, "modifier _x4 is not allowed in ps_3_0"),
    (2, 5, "register oC0 does not exist in ps_1_3"),
    (2, 5, "register oC4 does not exist in ps_3_0"),
    (2, 13, "register v17 does not exist in vs_3_0"),
    (2, 5, "register o13 does not exist in vs_3_0"),
    (2, 6, "index 2048 is out of range"),
    (2, 15, "register s20 does not exist in ps_3_0"),
    (2, 5, "register t5 does not exist in ps_1_3"),
    (2, 9, "r0 cannot be relatively addressed in vs_3_0"),
    (2, 9, "v0 cannot be relatively addressed in vs_2_0"),
    (2, 12, "register aL does not exist in ps_2_0"),
    (2, 12, "relative addressing needs a0 or aL, not r0"),
    (2, 12, "register a0 does not exist in ps_3_0"),
    (2, 13, "only a0.x can address registers"),
    (2, 14, "modifier _sat is not allowed on dcl"),
    (2, 14, "modifier _x2 is not allowed on dcl"),
    (2, 14, "modifier _centroid is not allowed on dcl in vs_3_0"),
    (2, 7, "modifier _pp is not allowed on dcl in vs_3_0"),
    (2, 1, "texm3x3vspec does not exist in ps_2_0"),
    (2, 13, "found '-'"),
    (2, 15, "only '+' can follow the address register"),
    (2, 10, "defi takes integers, not '1.0'"),
    (2, 6, "c0 cannot be defined by defi"),
];

/// Each entry is refused at its offending token (never the version line: all 48 have a
/// valid version), with a reason that names what is wrong.
#[test]
fn asm_failures_name_the_offending_line_and_reason() {
    let doc = corpus("asm_failures.json");
    let failures = doc["failures"].as_array().expect("failures");
    assert_eq!(failures.len(), FAILURE_SITES.len());
    let mut wrong = Vec::new();
    for (f, (i, &(line, column, reason))) in failures.iter().zip(FAILURE_SITES.iter().enumerate()) {
        assert_eq!(f["index"].as_u64(), Some(i as u64));
        let text = f["asm"].as_str().expect("asm text");
        match assemble(text) {
            Err(e) if (e.line, e.column) == (line, column) && e.to_string().contains(reason) => {}
            other => wrong.push(format!(
                "entry {i} {text:?}: want line {line}, column {column}, {reason:?}; got {other:?}"
            )),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Entry 47 (`defi c0, -1, --1, 0, 0`) is refused for `c0` before its `--1` is read; with an
/// integer register the double sign itself is refused, at the second '-'.
#[test]
fn double_minus_in_defi_is_refused() {
    assert!(assemble("vs_3_0\ndefi i0, -1, -1, 0, 0\n").is_ok());
    let e = assemble("vs_3_0\ndefi i0, -1, --1, 0, 0\n").expect_err("double sign");
    assert_eq!((e.line, e.column), (2, 15), "{e}");
    assert!(e.to_string().contains("'-'"), "{e}");
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
