//! `info` prints the `CTAB` constant table of corpus shaders, and a malformed table is
//! reported, not a crash.

#[path = "../../translator/tests/common/mod.rs"]
mod common;
use common::{corpus, tokens};

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_d3d9-translate");

/// Tokens of the vkd3d corpus shader of `file` whose section starts at `line`, for `profile`.
fn vkd3d(file: &str, line: u64, profile: &str) -> Vec<u32> {
    let data = corpus("vkd3d/vkd3d_sm23.json");
    let f = data["files"]
        .as_array()
        .expect("files")
        .iter()
        .find(|f| f["name"] == file)
        .expect("file in corpus");
    let s = f["shaders"]
        .as_array()
        .expect("shaders")
        .iter()
        .find(|s| s["section_line"] == line && s["profile"] == profile)
        .expect("shader in corpus");
    tokens(&s["tokens"])
}

fn write_temp(test: &str, tokens: &[u32]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("d3d9-cli-ctab-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("shader.pso");
    let bytes: Vec<u8> = tokens.iter().flat_map(|t| t.to_le_bytes()).collect();
    std::fs::write(&path, bytes).expect("write");
    path
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("binary runs")
}

/// The struct section of sm1-const-allocation.shader_test (fxc listing in the source:
/// zzz c0 4, hhh c4 2, aaa c6 1).
#[test]
fn info_json_lists_the_constant_table() {
    let path = write_temp(
        "json",
        &vkd3d("sm1-const-allocation.shader_test", 160, "ps_2_0"),
    );
    let o = run(&["info", "--json", path.to_str().expect("path")]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).expect("json");
    let table = &v["constant_table"];
    assert_eq!(table["creator"], "vkd3d-shader 1.17");
    assert_eq!(table["target"], Value::Null);
    let mut rows: Vec<(String, String, String)> = table["constants"]
        .as_array()
        .expect("constants")
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap_or("").to_string(),
                c["registers"].as_str().unwrap_or("").to_string(),
                c["class"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    rows.sort();
    let expect = |n: &str, r: &str| (n.to_string(), r.to_string(), "struct".to_string());
    assert_eq!(
        rows,
        vec![
            expect("aaa", "c6"),
            expect("hhh", "c4-c5"),
            expect("zzz", "c0-c3")
        ]
    );
    let _ = std::fs::remove_dir_all(path.parent().expect("dir"));
}

/// Text form: one line per constant with registers, type and name, and defaults.
#[test]
fn info_text_shows_names_and_defaults() {
    let path = write_temp("text", &vkd3d("abs.shader_test", 1, "ps_2_0"));
    let o = run(&["info", path.to_str().expect("path")]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("constant table (vkd3d-shader 1.17):\n  c0       float2               u\n"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(path.parent().expect("dir"));
}

/// A table whose constant-info offset points past its end: `info` still summarises the
/// shader and names the fault.
#[test]
fn info_reports_a_malformed_table() {
    let mut t = vkd3d("abs.shader_test", 1, "ps_2_0");
    // tokens: version, comment header, CTAB, size, creator, version, count, info offset...
    assert_eq!(t[2], u32::from_le_bytes(*b"CTAB"));
    t[7] = 0x7000;
    let path = write_temp("bad", &t);
    for json in [false, true] {
        let mut args = vec!["info", path.to_str().expect("path")];
        if json {
            args.push("--json");
        }
        let o = run(&args);
        assert!(o.status.success());
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            out.contains("CTAB: constant info at byte 28672 (+20) runs past the table's"),
            "{out}"
        );
    }
    let _ = std::fs::remove_dir_all(path.parent().expect("dir"));
}

/// Translated text names the constants fxc recorded: a comment block in front of the WGSL
/// and GLSL output maps each `CTAB` constant to the module's register array element; the
/// binary SPIR-V output carries no comment. (cast-to-int.shader_test's vertex shader: `f`
/// at c0; the output re-reads in `every_corpus_shader_in_every_language_rereads_and_validates`.)
#[test]
fn translated_text_names_the_constants() {
    let path = write_temp("names", &vkd3d("cast-to-int.shader_test", 17, "vs_2_0"));
    let p = path.to_str().expect("path");
    for lang in ["wgsl", "glsl", "hlsl", "msl"] {
        let o = run(&["translate", "--lang", lang, p]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = String::from_utf8(o.stdout).expect("utf-8");
        let mut lines = text.lines();
        assert_eq!(
            lines.next(),
            Some("// Constant table (CTAB, no target, \"vkd3d-shader 1.17\"):"),
            "{lang}"
        );
        assert_eq!(
            lines.next(),
            Some("//   c0  f  float4  -> c[0] (group 0, binding 0)"),
            "{lang}"
        );
        // One constant, one line; then the back end's own text.
        assert!(!lines.next().unwrap_or("").starts_with("//   "), "{lang}");
    }
    let o = run(&["translate", "--lang", "spirv", p]);
    assert!(o.status.success());
    assert_eq!(o.stdout.get(..4), Some(&0x0723_0203u32.to_le_bytes()[..]));
    // A shader without a table gets no header.
    let tokens = d3d9_translator::asm::assemble_tokens("vs_2_0\ndcl_position v0\nmov oPos, v0\n")
        .expect("assembles");
    let plain = write_temp("plain", &tokens);
    let o = run(&["translate", plain.to_str().expect("path")]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!String::from_utf8_lossy(&o.stdout).contains("//"));
}
