//! `batch`: every shader of the shared corpus into every language, outputs re-read and
//! validated, summary counts checked against counts pinned here (not recomputed with the
//! library calls the command makes); bad input gives a clean summary and fails only with
//! `--strict`.

#[path = "../../translator/tests/common/mod.rs"]
mod common;
use common::{complete_shaders, corpus, tokens};
mod reread;
use reread::reread;

use serde_json::Value;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_d3d9-translate");

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("d3d9-cli-batch-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn bytes(tokens: &[u32]) -> Vec<u8> {
    tokens.iter().flat_map(|t| t.to_le_bytes()).collect()
}

fn run(args: &[&str], dirs: &[&Path]) -> Output {
    Command::new(BIN)
        .arg("batch")
        .args(args)
        .args(dirs)
        .output()
        .expect("binary runs")
}

/// Every shader of the corpus: the complete ones of the Wine corpora and every blob vkd3d
/// compiled, vertex and pixel, SM1-SM3.
fn all_shaders() -> Vec<(String, Vec<u32>)> {
    let mut all = complete_shaders();
    let data = corpus("vkd3d/vkd3d_sm23.json");
    for f in data["files"].as_array().expect("files") {
        for s in f["shaders"].as_array().expect("shaders") {
            if s["compile_ok"] == Value::Bool(true) {
                all.push((
                    format!("vkd3d {} {}", f["name"], s["id"]),
                    tokens(&s["tokens"]),
                ));
            }
        }
    }
    all
}

/// The shaders of [`all_shaders`]: the 236 complete Wine shaders (`COMPLETE_SHADERS`) and
/// the 1,571 blobs vkd3d-compiler wrote.
const FILES: usize = 1807;
/// Outcomes `batch` gives them: 51 invalid, the 21 Wine shaders `cli_translate.rs` counts as
/// refused and the 30 vkd3d shader entries of `vkd3d_translate_expectations.txt` (ps_2_0
/// past its arithmetic slots or registers); the rest translate. Nothing is unsupported.
const OUTCOMES: [(&str, usize); 2] = [("invalid", 51), ("translated", 1756)];

/// A vs_2_0 shader every back end translates.
fn good_vs_2_0() -> Vec<u32> {
    d3d9_translator::asm::assemble_tokens("vs_2_0\ndcl_position v0\nmov oPos, v0\n")
        .expect("assembles")
}

#[test]
fn batch_translates_the_whole_corpus_into_every_language() {
    let shaders = all_shaders();
    let input = scratch("corpus-in");
    // Two folders deep, so that the output mirrors a tree.
    for (i, (_, t)) in shaders.iter().enumerate() {
        let sub = input.join(format!("set{}", i % 7));
        std::fs::create_dir_all(&sub).expect("dir");
        std::fs::write(sub.join(format!("{i}.bin")), bytes(t)).expect("write");
    }
    assert_eq!(shaders.len(), FILES);
    let expected: BTreeMap<&str, usize> = OUTCOMES.into_iter().collect();
    let distinct = shaders
        .iter()
        .map(|(_, t)| t.clone())
        .collect::<HashSet<_>>()
        .len();
    for lang in ["wgsl", "spirv", "msl", "hlsl", "glsl"] {
        let out = scratch(&format!("corpus-out-{lang}"));
        let report = out.join("report.json");
        let o = run(
            &[
                "--lang",
                lang,
                "--out",
                out.join("tree").to_str().expect("path"),
                "--json",
                report.to_str().expect("path"),
            ],
            &[&input],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let summary = String::from_utf8_lossy(&o.stdout);
        let v: Value =
            serde_json::from_slice(&std::fs::read(&report).expect("report")).expect("json");
        let counts: BTreeMap<&str, usize> = v["counts"]
            .as_object()
            .expect("counts")
            .iter()
            .map(|(k, n)| (k.as_str(), n.as_u64().unwrap_or(0) as usize))
            .collect();
        assert_eq!(counts, expected, "{lang}\n{summary}");
        assert_eq!(v["files"], shaders.len());
        assert_eq!(v["distinct"], distinct);
        assert!(summary.contains(&format!("{:>7} translated", expected["translated"])));
        let results = v["results"].as_array().expect("results");
        let mut validated = 0;
        for r in results {
            assert!(r["version"].is_string(), "{r}");
            if r["outcome"] == "translated" {
                let path = r["output"].as_str().expect("output path");
                let ext = match lang {
                    "spirv" => "spv",
                    "msl" => "metal",
                    other => other,
                };
                let rel = r["path"].as_str().expect("path");
                assert!(path.ends_with(&format!("{rel}.{ext}")), "{path}");
                let data = std::fs::read(path).expect("output file");
                validated +=
                    usize::from(reread(lang, &data).unwrap_or_else(|e| panic!("{path}: {e}")));
            } else {
                assert!(r["reason"].is_string(), "{r}");
            }
        }
        // The CTAB side table: abs.shader_test's `uniform float2 u;` is c0.
        assert!(
            results
                .iter()
                .any(|r| r["constants"] == serde_json::json!(["c0 u float2"])),
            "no side table"
        );
        if lang == "wgsl" || lang == "spirv" {
            assert_eq!(validated, expected["translated"]);
        }
        let _ = std::fs::remove_dir_all(&out);
    }
    let _ = std::fs::remove_dir_all(&input);
}

/// Truncated shaders, DXBC containers, text and empty files, and a duplicate: a clean
/// summary, exit 0, and non-zero with `--strict`.
#[test]
fn bad_input_gives_a_clean_summary_and_fails_only_when_strict() {
    let dir = scratch("bad");
    let good = good_vs_2_0();
    std::fs::write(dir.join("good.vso"), bytes(&good)).expect("write");
    std::fs::write(dir.join("same.vso"), bytes(&good)).expect("write");
    let mut cut = bytes(&good);
    cut.truncate(cut.len() / 2 / 4 * 4);
    std::fs::write(dir.join("truncated.vso"), &cut).expect("write");
    let mut odd = bytes(&good);
    odd.truncate(odd.len() - 3);
    std::fs::write(dir.join("odd.vso"), &odd).expect("write");
    let mut dxbc = b"DXBC".to_vec();
    dxbc.extend_from_slice(&[0u8; 60]);
    std::fs::write(dir.join("container.fxo"), dxbc).expect("write");
    // 16 bytes: whole tokens, but no version token.
    std::fs::write(dir.join("notes.txt"), "// shader notes\n").expect("write");
    std::fs::write(dir.join("empty.pso"), b"").expect("write");
    let report = dir.join("../bad-report.json");
    let o = run(&["--json", report.to_str().expect("path")], &[&dir]);
    let summary = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{summary}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(summary.contains("7 files (6 distinct)"), "{summary}");
    assert!(summary.contains("      2 translated"), "{summary}");
    assert!(summary.contains("      1 invalid"), "{summary}");
    assert!(
        summary.contains("1  malformed bytecode: shader ends without the end token"),
        "{summary}"
    );
    assert!(summary.contains("      4 not a shader"), "{summary}");
    for why in [
        "empty file",
        "DXBC container",
        "is not a whole number of tokens",
        "is not a vs/ps version token",
    ] {
        assert!(summary.contains(why), "{why}: {summary}");
    }
    let v: Value = serde_json::from_slice(&std::fs::read(&report).expect("report")).expect("json");
    let same = v["results"]
        .as_array()
        .expect("results")
        .iter()
        .find(|r| r["path"] == "same.vso")
        .expect("same.vso");
    assert_eq!(same["duplicate_of"], "good.vso");
    assert_eq!(same["outcome"], "translated");
    let o = run(&["--strict", "--jobs", "1"], &[&dir]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).lines().count(),
        summary.lines().count()
    );
    let _ = std::fs::remove_file(&report);
    let _ = std::fs::remove_dir_all(&dir);
}
