//! `d3d9-translate check` end to end: silent exit 0 when D3D9 accepts the shader, the error
//! on stderr and exit 1 when it refuses it.

use d3d9_translator::asm::assemble_tokens;
use std::path::PathBuf;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_d3d9-translate");

/// A shader file in a per-test scratch directory, removed when dropped.
struct ShaderFile(PathBuf);

impl Drop for ShaderFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn file(test: &str, tokens: &[u32]) -> ShaderFile {
    let path = std::env::temp_dir().join(format!(
        "d3d9-translate-check-{}-{test}.bin",
        std::process::id()
    ));
    let bytes: Vec<u8> = tokens.iter().flat_map(|t| t.to_le_bytes()).collect();
    std::fs::write(&path, bytes).expect("write shader");
    ShaderFile(path)
}

fn asm(text: &str) -> Vec<u32> {
    assemble_tokens(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn check(f: &ShaderFile, extra: &[&str]) -> Output {
    Command::new(BIN)
        .arg("check")
        .arg(&f.0)
        .args(extra)
        .output()
        .expect("run d3d9-translate")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn valid_shader_prints_nothing_and_exits_0() {
    let f = file(
        "valid",
        &asm("vs_3_0\ndcl_position v0\ndcl_position o0\nmad o0, v0, c0, c0\n"),
    );
    let o = check(&f, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(o.stdout.is_empty() && o.stderr.is_empty());
}

#[test]
fn read_port_violation_is_reported_with_instruction_and_exit_1() {
    let f = file(
        "ports",
        &asm("vs_3_0\ndcl_position v0\ndcl_position o0\nmad r0, c1, c2, c3\nmov o0, r0\n"),
    );
    let o = check(&f, &[]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("invalid: instruction 2 (mad) at token 7 reads 3 distinct float constant (c#) registers; vs_3_0 allows 1"),
        "{err}"
    );
    assert!(o.stdout.is_empty());
}

#[test]
fn swvp_accepts_constants_past_256() {
    let f = file(
        "swvp",
        &asm("vs_1_1\ndcl_position v0\nmov oPos, v0\nmov oD0, c300\n"),
    );
    let hw = check(&f, &[]);
    assert_eq!(hw.status.code(), Some(1));
    assert!(
        stderr(&hw).contains("register c300 is out of range"),
        "{}",
        stderr(&hw)
    );
    let sw = check(&f, &["--swvp"]);
    assert_eq!(sw.status.code(), Some(0), "{}", stderr(&sw));
    assert!(sw.stderr.is_empty());
}

/// `c2048`–`c8191` are the CONST2–CONST4 register files: `asm` writes them, `info` lists them
/// by their flat index, `check --swvp` accepts them and a hardware device does not.
#[test]
fn constants_past_2047_through_asm_info_and_check() {
    let dir = std::env::temp_dir().join(format!("d3d9-translate-banks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let text = dir.join("banks.asm");
    let blob = dir.join("banks.vso");
    std::fs::write(
        &text,
        "vs_3_sw\ndcl_position v0\ndcl_position o0\ndef c3056, 1, 2, 3, 4\n\
         mul r0, v0, c3056\nadd o0, r0, c8191\n",
    )
    .expect("write asm");
    let run = |args: &[&std::ffi::OsStr]| Command::new(BIN).args(args).output().expect("run");
    let o = run(&[
        "asm".as_ref(),
        text.as_os_str(),
        "-o".as_ref(),
        blob.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&["info".as_ref(), blob.as_os_str(), "--json".as_ref()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let info: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(info["constants"][0]["register"], "c3056");
    let c = info["registers"]
        .as_array()
        .and_then(|files| files.iter().find(|f| f["file"] == "c"))
        .expect("c# use");
    assert_eq!(c["read"], serde_json::json!([3056, 8191]));
    let o = run(&["check".as_ref(), blob.as_os_str(), "--swvp".as_ref()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&["check".as_ref(), blob.as_os_str()]);
    assert_eq!(o.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn wrong_creation_call_and_dxbc_are_refused() {
    let ps = file("ps", &asm("ps_2_0\ndcl t0\nmov oC0, t0\n"));
    assert_eq!(check(&ps, &[]).status.code(), Some(0));
    let o = check(&ps, &["--as", "vertex"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("pixel shader, given to the vertex"),
        "{}",
        stderr(&o)
    );

    let dxbc = file("dxbc", &[0x4342_5844, 0, 0, 0, 1]);
    let o = check(&dxbc, &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("DXBC"), "{}", stderr(&o));
}

#[test]
fn missing_file_exits_1() {
    let o = Command::new(BIN)
        .args(["check", "/nonexistent/shader.bin"])
        .output()
        .expect("run");
    assert_eq!(o.status.code(), Some(1));
    assert!(!o.stderr.is_empty());
}
