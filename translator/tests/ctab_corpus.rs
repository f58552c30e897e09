//! Constant tables (`CTAB`) of the shared corpus: every one parses, and the fxc register
//! listings written into the corpus's HLSL sources agree with what the tables say.

mod common;
use common::{complete_shaders, corpus, tokens};

use d3d9_translator::bytecode::decode;
use d3d9_translator::ctab::{ConstantTable, RegisterSet};
use serde_json::Value;

/// vkd3d shaders that compiled: (file name, shader entry).
fn vkd3d_shaders(data: &Value) -> Vec<(&str, &Value)> {
    let mut out = Vec::new();
    for f in data["files"].as_array().expect("files") {
        let name = f["name"].as_str().unwrap_or("");
        for s in f["shaders"].as_array().expect("shaders") {
            if s["compile_ok"] == Value::Bool(true) {
                out.push((name, s));
            }
        }
    }
    out
}

/// Every shader of the corpus that carries a `CTAB` block parses, and the table's version
/// token is the shader's.
#[test]
fn every_corpus_constant_table_parses() {
    let data = corpus("vkd3d/vkd3d_sm23.json");
    let mut tables = 0;
    let mut constants = 0;
    let mut fxc = 0;
    let mut failures = Vec::new();
    let mut all: Vec<(String, Vec<u32>)> = vkd3d_shaders(&data)
        .into_iter()
        .map(|(f, s)| (format!("{f} #{}", s["id"]), tokens(&s["tokens"])))
        .collect();
    all.extend(complete_shaders());
    for (name, toks) in &all {
        let Ok(program) = decode(toks) else { continue };
        match ConstantTable::of(&program) {
            None => {}
            Some(Ok(table)) => {
                tables += 1;
                constants += table.constants.len();
                assert_eq!(table.version, toks[0], "{name}");
                if table.creator == "vkd3d-shader 1.17" {
                    // vkd3d writes no target string (offset 0).
                    assert_eq!(table.target, None, "{name}");
                } else {
                    // Wine's blob.c test shader, compiled by fxc: no uniforms.
                    assert_eq!(table.creator, "Microsoft (R) HLSL Shader Compiler 10.1");
                    assert_eq!(table.target.as_deref(), Some("vs_2_0"), "{name}");
                    assert!(table.constants.is_empty(), "{name}");
                    fxc += 1;
                }
            }
            Some(Err(e)) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // 1568 of vkd3d's 1571 compiled blobs carry a table, and one fxc blob of Wine's tests
    // does; counted independently of this parser by scanning for the fourcc.
    assert_eq!((tables, fxc), (1569, 1));
    assert!(constants > 900, "{constants}");
}

/// `//   Name  Reg  Size` rows of the first `// Registers:` listing in `lines`.
fn listing(lines: &[&str]) -> Option<Vec<(String, String, u16)>> {
    let start = lines.iter().position(|l| l.trim() == "// Registers:")?;
    let mut rows = Vec::new();
    for line in &lines[start + 1..] {
        let Some(body) = line.trim().strip_prefix("//") else {
            break;
        };
        let cols: Vec<&str> = body.split_whitespace().collect();
        match cols.as_slice() {
            [] => continue,
            [name, reg, size] if *name != "Name" && !name.starts_with('-') => {
                rows.push((name.to_string(), reg.to_string(), size.parse().ok()?));
            }
            _ => continue,
        }
    }
    Some(rows)
}

/// The HLSL sources of `sm1-const-allocation.shader_test` carry fxc's register listings
/// (`// Registers: // zzz c0 2`); the tables of the ps_2_0 and ps_3_0 blobs say the same.
#[test]
fn tables_match_fxc_listings_in_the_sources() {
    let data = corpus("vkd3d/vkd3d_sm23.json");
    let file = data["files"]
        .as_array()
        .expect("files")
        .iter()
        .find(|f| f["name"] == "sm1-const-allocation.shader_test")
        .expect("sm1-const-allocation.shader_test in corpus");
    let text = file["text"].as_str().expect("text");
    let lines: Vec<&str> = text.lines().collect();
    let mut checked = 0;
    for s in file["shaders"].as_array().expect("shaders") {
        let Some(line) = s["section_line"].as_u64() else {
            continue;
        };
        let from = line as usize; // the line after the 1-based header line
        let to = lines[from..]
            .iter()
            .position(|l| l.starts_with('['))
            .map_or(lines.len(), |n| from + n);
        let Some(expected) = listing(&lines[from..to]) else {
            continue;
        };
        let program = decode(&tokens(&s["tokens"])).expect("decodes");
        let table = ConstantTable::of(&program)
            .expect("has a table")
            .expect("parses");
        let mut got: Vec<(String, String, u16)> = table
            .constants
            .iter()
            .map(|c| {
                (
                    c.name.clone(),
                    format!("{}{}", c.register_set.prefix(), c.register_index),
                    c.register_count,
                )
            })
            .collect();
        let mut expected = expected;
        got.sort();
        expected.sort();
        assert_eq!(got, expected, "{} line {line}", s["profile"]);
        checked += 1;
    }
    // Sixteen sections carry a listing, each compiled for shader models 2 and 3.
    assert_eq!(checked, 32);
}

/// Named spot checks from the HLSL text of other corpus files: register reservations, default
/// values and types.
#[test]
fn tables_name_registers_as_the_sources_declare() {
    let data = corpus("vkd3d/vkd3d_sm23.json");
    let shaders = vkd3d_shaders(&data);
    let table = |file: &str, line: u64, profile: &str| {
        let (_, s) = shaders
            .iter()
            .find(|(f, s)| *f == file && s["section_line"] == line && s["profile"] == profile)
            .unwrap_or_else(|| panic!("{file} line {line} {profile}"));
        ConstantTable::of(&decode(&tokens(&s["tokens"])).expect("decodes"))
            .expect("has a table")
            .expect("parses")
    };
    // `float4 a; // will get register(c1)` / `float4 b : register(c0);`
    let t = table("register-reservations-numeric.shader_test", 46, "ps_2_0");
    assert_eq!(
        t.register_name(RegisterSet::Float4, 1).as_deref(),
        Some("a")
    );
    assert_eq!(
        t.register_name(RegisterSet::Float4, 0).as_deref(),
        Some("b")
    );
    // `float4 a[3]; // will get register(c3)` (two used) / `float4 b[2] : register(c1);`
    let t = table("register-reservations-numeric.shader_test", 63, "ps_3_0");
    let a = t.constants.iter().find(|c| c.name == "a").expect("a");
    assert_eq!(
        (a.registers().as_str(), a.ty.to_string().as_str()),
        ("c3-c4", "float4[3]")
    );
    assert_eq!(
        t.register_name(RegisterSet::Float4, 4).as_deref(),
        Some("a+1")
    );
    // `uniform float2 u;` in abs.shader_test: c0, float2.
    let t = table("abs.shader_test", 1, "ps_2_0");
    assert_eq!(t.constants.len(), 1);
    assert_eq!(t.constants[0].name, "u");
    assert_eq!(t.constants[0].registers(), "c0");
    assert_eq!(t.constants[0].ty.to_string(), "float2");
    assert_eq!(t.target, None);
    // default-values.shader_test: `float2 a = {1, 2}` in c2, defaults padded to a register.
    let f = data["files"]
        .as_array()
        .expect("files")
        .iter()
        .find(|f| f["name"] == "default-values.shader_test")
        .expect("default-values");
    let with_default = f["shaders"]
        .as_array()
        .expect("shaders")
        .iter()
        .filter_map(|s| ConstantTable::of(&decode(&tokens(&s["tokens"])).ok()?)?.ok())
        .flat_map(|t| t.constants)
        .find(|c| c.name == "a" && c.default_value.is_some())
        .expect("a default value");
    assert_eq!(with_default.registers(), "c2");
    assert_eq!(
        with_default.default_value,
        Some(vec![1.0f32.to_bits(), 2.0f32.to_bits(), 0, 0])
    );
}
