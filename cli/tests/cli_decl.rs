//! `d3d9-translate decl` end to end.

#[path = "../../translator/tests/common/mod.rs"]
mod common;
use common::{corpus, tokens};

use d3d9_translator::bytecode::Usage;
use d3d9_translator::decl::dx8::{d3dvsd_reg, d3dvsd_stream, D3DVSD_END};
use d3d9_translator::decl::{DeclType, VertexDeclaration, VertexElement};
use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_d3d9-translate");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cli_decl_{}_{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("runs")
}

fn json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

fn visual_shader(function: &str, name: &str) -> Vec<u8> {
    let v = corpus("d3d9_visual.json");
    let s = v["shaders"]
        .as_array()
        .expect("shaders")
        .iter()
        .find(|s| s["function"] == function && s["name"] == name)
        .expect("shader");
    tokens(&s["tokens"])
        .iter()
        .flat_map(|t| t.to_le_bytes())
        .collect()
}

#[test]
fn fvf_elements_and_forms() {
    let v = json(&run(&["decl", "--fvf", "0x152", "--json"]));
    let semantics: Vec<&str> = v["elements"]
        .as_array()
        .expect("elements")
        .iter()
        .map(|e| e["semantic"].as_str().expect("str"))
        .collect();
    assert_eq!(semantics, ["POSITION0", "NORMAL0", "COLOR0", "TEXCOORD0"]);
    assert_eq!(v["fvf"], "0x152");
    assert_eq!(v["streams"][0]["vertex_size"], 36);
    assert_eq!(v["dx8"].as_array().map(Vec::len), Some(6));
    // XYZW has no FVF back (POSITION must be FLOAT3) but has a DX8 form.
    let v = json(&run(&["decl", "--fvf", "0x4002", "--json"]));
    assert!(v["fvf_error"]
        .as_str()
        .is_some_and(|s| s.contains("not in the FVF table")));
    // An invalid FVF fails with a message.
    let out = run(&["decl", "--fvf", "0x1", "--json"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("reserved bit"));
}

#[test]
fn elements_file_bound_to_a_shader() {
    let dir = scratch("bind");
    let decl = VertexDeclaration::from_elements(&[
        VertexElement::new(0, 0, DeclType::Float3, Usage::Position, 0),
        VertexElement::new(0, 12, DeclType::UByte4, Usage::Color, 0),
    ])
    .expect("valid");
    let elements = dir.join("decl.bin");
    std::fs::write(&elements, decl.to_bytes()).expect("write");
    let shader = dir.join("vs.bin");
    std::fs::write(
        &shader,
        visual_shader("test_vshader_input", "color_color_shader_code_2"),
    )
    .expect("write");
    let (e, s) = (
        elements.to_str().expect("utf8"),
        shader.to_str().expect("utf8"),
    );
    let v = json(&run(&[
        "decl",
        "--elements",
        e,
        "--shader",
        s,
        "--stride",
        "20",
        "--json",
    ]));
    assert_eq!(v["layouts"][0]["array_stride"], 20);
    assert_eq!(v["layouts"][0]["step_mode"], "Vertex");
    assert_eq!(v["layouts"][0]["attributes"][1]["format"], "Uint8x4");
    assert_eq!(v["inputs"][1]["fetch"]["conversion"], "UnsignedToFloat");
    assert_eq!(v["inputs"][1]["fetch"]["location"], 1);
    // The elements overrun a 12-byte stride.
    let out = run(&[
        "decl",
        "--elements",
        e,
        "--shader",
        s,
        "--stride",
        "12",
        "--json",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("stride 12"));
    // Truncated element bytes.
    std::fs::write(&elements, &decl.to_bytes()[..10]).expect("write");
    let out = run(&["decl", "--elements", e]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("element 1"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn dx8_tokens_file() {
    let dir = scratch("dx8");
    let tokens = [
        d3dvsd_stream(0),
        d3dvsd_reg(0, 2),
        d3dvsd_reg(3, 2),
        d3dvsd_reg(7, 1),
        D3DVSD_END,
    ];
    let path = dir.join("decl8.bin");
    std::fs::write(
        &path,
        tokens
            .iter()
            .flat_map(|t| t.to_le_bytes())
            .collect::<Vec<u8>>(),
    )
    .expect("write");
    let v = json(&run(&[
        "decl",
        "--dx8",
        path.to_str().expect("utf8"),
        "--json",
    ]));
    assert_eq!(v["fvf"], "0x112");
    assert_eq!(v["elements"][2]["semantic"], "TEXCOORD0");
    assert_eq!(v["dx8_constants"].as_array().map(Vec::len), Some(0));
    std::fs::remove_dir_all(&dir).ok();
}
