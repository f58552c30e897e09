//! `d3d9-translate decl` end to end.

#[path = "../../translator/tests/common/mod.rs"]
mod common;
use common::{corpus, tokens};

use d3d9_translator::asm::assemble_tokens;
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

/// A vs_2_0 shader reading POSITION0 from `v0` and COLOR0 from `v1`, as a file in `dir`.
fn position_color_shader(dir: &std::path::Path) -> String {
    let bytes: Vec<u8> =
        assemble_tokens("vs_2_0\ndcl_position v0\ndcl_color v1\nmov oPos, v0\nmov oD0, v1\n")
            .expect("assembles")
            .iter()
            .flat_map(|t| t.to_le_bytes())
            .collect();
    let path = dir.join("vs.bin");
    std::fs::write(&path, bytes).expect("write");
    path.to_str().expect("utf8").to_owned()
}

fn elements_file(dir: &std::path::Path, elements: &[VertexElement]) -> String {
    let decl = VertexDeclaration::from_elements(elements).expect("valid");
    let path = dir.join("decl.bin");
    std::fs::write(&path, decl.to_bytes()).expect("write");
    path.to_str().expect("utf8").to_owned()
}

#[test]
fn instance_streams_step_per_instance() {
    let dir = scratch("instance");
    let shader = position_color_shader(&dir);
    // Positions per vertex in stream 0, one colour per instance in stream 1.
    let e = elements_file(
        &dir,
        &[
            VertexElement::new(0, 0, DeclType::Float3, Usage::Position, 0),
            VertexElement::new(1, 0, DeclType::D3DColor, Usage::Color, 0),
        ],
    );
    let args = ["decl", "--elements", &e, "--shader", &shader, "--json"];
    let step_modes = |v: &Value| -> Vec<(u64, String)> {
        v["layouts"]
            .as_array()
            .expect("layouts")
            .iter()
            .map(|l| {
                (
                    l["stream"].as_u64().expect("stream"),
                    l["step_mode"].as_str().expect("step_mode").to_owned(),
                )
            })
            .collect()
    };
    let plain = json(&run(&args));
    assert_eq!(
        step_modes(&plain),
        [(0, "Vertex".to_owned()), (1, "Vertex".to_owned())]
    );
    let instanced = json(&run(&[&args[..], &["--instance", "1"]].concat()));
    assert_eq!(
        step_modes(&instanced),
        [(0, "Vertex".to_owned()), (1, "Instance".to_owned())]
    );
    // The stride of an instance stream is still its vertex size (4 bytes of D3DCOLOR).
    assert_eq!(instanced["layouts"][1]["array_stride"], 4);
    // Repeated: every named stream steps per instance.
    let both = json(&run(
        &[&args[..], &["--instance", "0", "--instance", "1"]].concat()
    ));
    assert_eq!(
        step_modes(&both),
        [(0, "Instance".to_owned()), (1, "Instance".to_owned())]
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn software_processing_refuses_an_input_without_element() {
    let dir = scratch("software");
    let shader = position_color_shader(&dir);
    // No COLOR0 element for v1.
    let e = elements_file(
        &dir,
        &[VertexElement::new(
            0,
            0,
            DeclType::Float3,
            Usage::Position,
            0,
        )],
    );
    let args = ["decl", "--elements", &e, "--shader", &shader, "--json"];
    // Hardware vertex processing: v1 reads (0, 0, 0, 0).
    let hardware = json(&run(&args));
    assert_eq!(hardware["inputs"][1]["semantic"], "COLOR0");
    assert_eq!(hardware["inputs"][1]["fetch"], "missing (reads 0, 0, 0, 0)");
    assert_eq!(hardware["inputs"][1]["element"], Value::Null);
    // Software vertex processing: the draw fails, naming the register and the semantic.
    let out = run(&[&args[..], &["--software"]].concat());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr: {stderr}");
    assert!(out.stdout.is_empty());
    assert!(
        stderr.contains(
            "input v1 (COLOR0) has no element in the declaration (software vertex processing)"
        ),
        "{stderr}"
    );
    assert!(stderr.contains(&shader), "{stderr}");
    // With every input declared, software processing binds as hardware does.
    let e = elements_file(
        &dir,
        &[
            VertexElement::new(0, 0, DeclType::Float3, Usage::Position, 0),
            VertexElement::new(0, 12, DeclType::D3DColor, Usage::Color, 0),
        ],
    );
    let args = ["decl", "--elements", &e, "--shader", &shader, "--json"];
    let hardware = json(&run(&args));
    let software = json(&run(&[&args[..], &["--software"]].concat()));
    assert_eq!(software["inputs"], hardware["inputs"]);
    assert_eq!(software["inputs"][1]["fetch"]["location"], 1);
    std::fs::remove_dir_all(&dir).ok();
}
