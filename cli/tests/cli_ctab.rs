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
