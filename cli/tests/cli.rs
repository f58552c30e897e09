//! `d3d9-translate` end to end: the built binary on files made from corpus tokens.

#[path = "../../translator/tests/common/mod.rs"]
mod common;
use common::{corpus, tokens};

use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_d3d9-translate");

fn bytes(tokens: &[u32]) -> Vec<u8> {
    tokens.iter().flat_map(|t| t.to_le_bytes()).collect()
}

/// Tokens of a `d3d9_visual.json` shader by test function and array name.
fn visual(function: &str, name: &str) -> Vec<u32> {
    let v = corpus("d3d9_visual.json");
    let s = v["shaders"]
        .as_array()
        .expect("shaders")
        .iter()
        .find(|s| s["function"] == function && s["name"] == name)
        .expect("shader in corpus");
    tokens(&s["tokens"])
}

/// A scratch directory for one test, removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

fn scratch(test: &str) -> Scratch {
    let dir =
        std::env::temp_dir().join(format!("d3d9-translate-cli-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    Scratch(dir)
}

fn write(dir: &std::path::Path, name: &str, data: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, data).expect("write temp file");
    path
}

fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    {
        let mut pipe = child.stdin.take().expect("stdin");
        if let Some(data) = stdin {
            pipe.write_all(data).expect("write stdin");
        }
    }
    child.wait_with_output().expect("binary finishes")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 stdout")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("utf-8 stderr")
}

#[test]
fn disasm_prints_the_shader() {
    let dir = scratch("disasm");
    let file = write(&dir, "mova.vso", &bytes(&visual("test_mova", "mova_test")));
    let o = run(&["disasm", file.to_str().expect("path")], None);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "vs_2_0\n    dcl_position v0\n    def c0, 1.0, 0.0, 0.0, 1.0\n    \
         def c1, 1.0, 1.0, 0.0, 1.0\n    def c2, 0.0, 1.0, 0.0, 1.0\n    \
         def c3, 0.0, 1.0, 1.0, 1.0\n    def c4, 0.0, 0.0, 1.0, 1.0\n    \
         def c5, 1.0, 0.0, 1.0, 1.0\n    def c6, 1.0, 1.0, 1.0, 1.0\n    \
         mova a0.x, c7.x\n    mov oD0, c[a0.x + 3]\n    mov oPos, v0\n"
    );
    assert!(o.stderr.is_empty());
}

#[test]
fn disasm_reads_stdin() {
    let ps = bytes(&visual("test_fetch4", "ps_code_texldb"));
    let o = run(&["disasm", "-"], Some(&ps));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("\n    texldb r0, r0, s0\n"));
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let dir = scratch("errors");
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "odd.bin",
            vec![0, 2, 0xFE, 0xFF, 0xFF],
            "not a whole number of 32-bit tokens",
        ),
        ("empty.bin", vec![], "empty shader"),
        ("dxbc.bin", bytes(&[0x4342_5844, 0]), "DXBC"),
        (
            "version.bin",
            bytes(&[0x1234_5678, 0xFFFF]),
            "not a D3D9 version token",
        ),
        ("noend.bin", bytes(&[0xFFFE_0101]), "without the end token"),
        (
            "opcode.bin",
            bytes(&[0xFFFE_0200, 0x0000_7777, 0xFFFF]),
            "unknown opcode",
        ),
    ];
    for (name, data, message) in cases {
        let file = write(&dir, name, &data);
        for sub in [&["disasm"][..], &["info"], &["info", "--json"]] {
            let mut args = sub.to_vec();
            args.push(file.to_str().expect("path"));
            let o = run(&args, None);
            assert_eq!(o.status.code(), Some(1), "{name} {sub:?}");
            assert!(o.stdout.is_empty(), "{name}");
            let err = stderr(&o);
            assert!(err.contains(message), "{name}: {err}");
            assert!(err.contains(name), "{name}: {err}");
            assert!(!err.contains("panicked"), "{name}: {err}");
        }
    }
    let o = run(
        &["disasm", dir.join("missing.bin").to_str().expect("path")],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("missing.bin"));
}

#[test]
fn usage_errors_exit_non_zero() {
    let o = run(&["frobnicate"], None);
    assert!(!o.status.success());
    let o = run(&["disasm"], None);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("FILE"));
}

#[test]
fn info_json_states_declarations_constants_and_register_use() {
    let dir = scratch("info-json");
    let file = write(&dir, "mova.vso", &bytes(&visual("test_mova", "mova_test")));
    let o = run(&["info", file.to_str().expect("path"), "--json"], None);
    assert!(o.status.success(), "{}", stderr(&o));
    let info: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(info["version"], "vs_2_0");
    assert_eq!(info["stage"], "vertex");
    assert_eq!(info["instructions"], 11);
    assert_eq!(info["executable_instructions"], 3);
    assert_eq!(
        info["inputs"],
        serde_json::json!([{"register": "v0", "usage": "position", "usage_index": 0,
                            "write_mask": "xyzw", "declared": true}])
    );
    let outputs: Vec<&str> = info["outputs"]
        .as_array()
        .expect("outputs")
        .iter()
        .map(|e| e["register"].as_str().expect("register"))
        .collect();
    assert_eq!(outputs, ["oD0", "oPos"]);
    let constants = info["constants"].as_array().expect("constants");
    assert_eq!(constants.len(), 7);
    assert_eq!(constants[1]["register"], "c1");
    assert_eq!(constants[1]["kind"], "float");
    assert_eq!(
        constants[1]["values"],
        serde_json::json!([1.0, 1.0, 0.0, 1.0])
    );
    assert_eq!(
        constants[1]["bits"],
        serde_json::json!([0x3f80_0000u32, 0x3f80_0000u32, 0, 0x3f80_0000u32])
    );
    let files = info["registers"].as_array().expect("registers");
    let c = files.iter().find(|f| f["file"] == "c").expect("c file");
    assert_eq!(c["read"], serde_json::json!([3, 7]));
    assert_eq!(c["relative"], true);
    let a = files.iter().find(|f| f["file"] == "a").expect("a file");
    assert_eq!(a["written"], serde_json::json!([0]));
    assert_eq!(a["read"], serde_json::json!([0]));
    assert_eq!(info["samplers"], serde_json::json!([]));
}

#[test]
fn info_json_samplers_and_integer_boolean_constants() {
    // ps_2_x from asm_pairs: defb b0, true; defb b1, false / defi; plus a ps_3_0 sampler.
    let pairs = corpus("asm_pairs.json");
    let find = |asm: &str| {
        let p = pairs
            .as_array()
            .expect("pairs")
            .iter()
            .find(|p| p["asm"].as_str().map(|a| a.replace("\r\n", "\n")) == Some(asm.into()))
            .expect("asm pair in corpus");
        bytes(&tokens(&p["tokens"]))
    };
    let dir = scratch("info-consts");
    let b = write(
        &dir,
        "b.pso",
        &find("ps_2_x\ndefb b0, true\ndefb b1, false\n"),
    );
    let o = run(&["info", "--json", b.to_str().expect("path")], None);
    assert!(o.status.success(), "{}", stderr(&o));
    let info: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(info["constants"][0]["kind"], "bool");
    assert_eq!(info["constants"][0]["values"], serde_json::json!([true]));
    assert_eq!(info["constants"][1]["values"], serde_json::json!([false]));
    let i = write(
        &dir,
        "i.pso",
        &find("ps_2_x\ndefi i0, -1, 1, 10, 0\ndefi i1, 0, 40, 30, 10\n"),
    );
    let o = run(&["info", "--json", i.to_str().expect("path")], None);
    let info: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(info["constants"][0]["register"], "i0");
    assert_eq!(
        info["constants"][0]["values"],
        serde_json::json!([-1, 1, 10, 0])
    );
    let s = write(
        &dir,
        "s.pso",
        &find("ps_2_0\ndcl_volume s0\ndcl_cube s1\ndcl_2d s2\n"),
    );
    let o = run(&["info", "--json", s.to_str().expect("path")], None);
    let info: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(
        info["samplers"],
        serde_json::json!([
            {"register": "s0", "index": 0, "texture_type": "volume"},
            {"register": "s1", "index": 1, "texture_type": "cube"},
            {"register": "s2", "index": 2, "texture_type": "2d"},
        ])
    );
}

#[test]
fn info_json_keeps_nan_and_infinity_bits() {
    // fp_special_test's shaders define c1 = (nan, -inf, inf, 0).
    let v = corpus("d3d9_visual.json");
    let s = v["composed_shaders"]
        .as_array()
        .expect("composed")
        .iter()
        .find(|s| s["name"] == "fp_special:log")
        .expect("fp_special:log");
    let dir = scratch("info-nan");
    let file = write(&dir, "log.vso", &bytes(&tokens(&s["tokens"])));
    let o = run(&["info", "--json", file.to_str().expect("path")], None);
    assert!(o.status.success(), "{}", stderr(&o));
    let info: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let c1 = &info["constants"][1];
    assert_eq!(c1["register"], "c1");
    assert_eq!(c1["values"], serde_json::json!([null, null, null, 0.0]));
    assert_eq!(
        c1["bits"],
        serde_json::json!([0x7fc0_0000u32, 0xff80_0000u32, 0x7f80_0000u32, 0])
    );
}

#[test]
fn info_text_summary() {
    let ps = bytes(&visual("test_fetch4", "ps_code_texldb"));
    let o = run(&["info", "-"], Some(&ps));
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.starts_with("ps_3_0: 6 instructions (3 executable), 0 comment blocks\n"),
        "{text}"
    );
    assert!(
        text.contains("\n  v0       texcoord0      .xyzw\n"),
        "{text}"
    );
    assert!(text.contains("\n  s0       2d\n"), "{text}");
    assert!(text.contains("\n  c0       0.0, 0.0, 5.0, 5.0\n"), "{text}");
    assert!(text.contains("\n  oC       read -"), "{text}");
}

#[test]
fn asm_writes_the_tokens_wine_expects() {
    let dir = scratch("asm");
    let pairs = corpus("asm_pairs.json");
    let mut checked = 0;
    for p in pairs.as_array().expect("pairs").iter().take(40) {
        let src = write(&dir, "in.asm", p["asm"].as_str().expect("asm").as_bytes());
        let out = dir.join("out.bin");
        let o = run(
            &[
                "asm",
                src.to_str().expect("path"),
                "-o",
                out.to_str().expect("path"),
            ],
            None,
        );
        assert!(o.status.success(), "{:?}: {}", p["asm"], stderr(&o));
        let got = std::fs::read(&out).expect("output written");
        assert_eq!(got, bytes(&tokens(&p["tokens"])), "{:?}", p["asm"]);
        checked += 1;
    }
    assert_eq!(checked, 40);
}

#[test]
fn disasm_then_asm_through_stdin_and_stdout_gives_the_same_bytes() {
    for (function, name) in [
        ("test_mova", "mova_test"),
        ("test_fetch4", "ps_code_texldb"),
        ("texbem_test", "double_texbem_code"),
        ("test_fragment_coords", "shader_frac_code"),
    ] {
        let original = bytes(&visual(function, name));
        let text = run(&["disasm", "-"], Some(&original));
        assert!(text.status.success(), "{name}: {}", stderr(&text));
        let again = run(&["asm", "-", "-o", "-"], Some(&text.stdout));
        assert!(again.status.success(), "{name}: {}", stderr(&again));
        assert_eq!(again.stdout, original, "{name}");
    }
}

#[test]
fn asm_errors_name_file_line_and_column() {
    let dir = scratch("asm-errors");
    let src = write(&dir, "bad.asm", b"vs_2_0\nmov r0, q7\n");
    let out = dir.join("never.bin");
    let o = run(
        &[
            "asm",
            src.to_str().expect("path"),
            "-o",
            out.to_str().expect("path"),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("bad.asm") && err.contains("line 2"), "{err}");
    assert!(!out.exists(), "no output on error");
    let bin = write(&dir, "binary.asm", &[0xFF, 0xFE, 0x00, 0x80]);
    let o = run(&["asm", bin.to_str().expect("path"), "-o", "-"], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("not UTF-8"), "{}", stderr(&o));
    let o = run(&["asm", src.to_str().expect("path")], None);
    assert!(!o.status.success(), "-o is required");
}
