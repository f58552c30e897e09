//! `--d3d8` on `check` and `wgsl`: a Direct3D 8 vertex shader declares no inputs (the
//! declaration's register numbers bind them), so Direct3D 9 refuses it and Direct3D 8 accepts
//! and translates it.

use d3d9_translator::asm::assemble_tokens;
use std::path::PathBuf;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_d3d9-translate");

/// vs_1_1 reading v0 and v3 without `dcl`, as Direct3D 8 shaders do.
const DX8_SHADER: &str = "vs_1_1\nm4x4 oPos, v0, c0\nmov oD0, v3\n";

fn shader_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cli_d3d8_{}_{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bytes: Vec<u8> = assemble_tokens(DX8_SHADER)
        .expect("assembles")
        .iter()
        .flat_map(|t| t.to_le_bytes())
        .collect();
    let path = dir.join("vs.bin");
    std::fs::write(&path, bytes).expect("write");
    path
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("runs")
}

#[test]
fn check_refuses_undeclared_inputs_on_d3d9_and_accepts_them_on_d3d8() {
    let file = shader_file("check");
    let file = file.to_str().expect("utf8");
    let d3d9 = run(&["check", file]);
    assert!(!d3d9.status.success());
    let stderr = String::from_utf8_lossy(&d3d9.stderr);
    assert!(stderr.contains("v0"), "{stderr}");
    let d3d8 = run(&["check", "--d3d8", file]);
    assert!(
        d3d8.status.success(),
        "{}",
        String::from_utf8_lossy(&d3d8.stderr)
    );
}

#[test]
fn wgsl_translates_a_direct3d_8_shader_with_d3d8() {
    let file = shader_file("wgsl");
    let file = file.to_str().expect("utf8");
    assert!(!run(&["wgsl", file]).status.success());
    let out = run(&["wgsl", "--d3d8", file]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let text = String::from_utf8(out.stdout).expect("utf8");
    let module = naga::front::wgsl::parse_str(&text).expect("WGSL parses");
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::default(),
    )
    .validate(&module)
    .expect("WGSL validates");
    // v0 and v3 are vertex inputs at their register numbers.
    assert!(text.contains("@location(0) v0_"), "{text}");
    assert!(text.contains("@location(3) v3_"), "{text}");
    // --d3d8 and --swvp name different devices.
    assert!(!run(&["wgsl", "--d3d8", "--swvp", file]).status.success());
}

/// `info` states the device's verdict: Direct3D 9 refuses the undeclared inputs, Direct3D 8
/// (`--d3d8`) accepts them, and the inputs are named by the DX8 register table either way.
#[test]
fn info_judges_for_the_device() {
    let file = shader_file("info");
    let file = file.to_str().expect("utf8");
    let d3d9 = run(&["info", file]);
    assert!(d3d9.status.success());
    let text = String::from_utf8_lossy(&d3d9.stdout);
    assert!(text.contains("Direct3D 9: invalid"), "{text}");
    let d3d8 = run(&["info", "--d3d8", file]);
    let text = String::from_utf8_lossy(&d3d8.stdout);
    assert!(text.contains("Direct3D 8: valid"), "{text}");
    assert!(text.contains("normal0"), "{text}");
    let json = run(&["info", "--d3d8", "--json", file]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    assert_eq!(v["check"]["device"], "Direct3D 8");
    assert_eq!(v["check"]["valid"], true);
}
