//! `d3d9-translate wgsl` end to end: float modes, software vertex processing, a bound
//! declaration, and the errors.

use d3d9_translator::asm::assemble_tokens;
use d3d9_translator::bytecode::Usage;
use d3d9_translator::decl::{DeclType, VertexDeclaration, VertexElement};
use std::path::PathBuf;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_d3d9-translate");

const SHADER: &str = "vs_2_0
dcl_position v0
dcl_texcoord0 v1
m4x4 oPos, v0, c0
rcp r0.w, v1.w
mul oT0, v1, r0.w
";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cli_wgsl_{}_{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn shader_file(dir: &std::path::Path) -> String {
    let bytes: Vec<u8> = assemble_tokens(SHADER)
        .expect("assembles")
        .iter()
        .flat_map(|t| t.to_le_bytes())
        .collect();
    let path = dir.join("vs.bin");
    std::fs::write(&path, bytes).expect("write");
    path.to_str().expect("utf8").to_owned()
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("runs")
}

/// The printed WGSL, which naga's WGSL front end must parse and validate.
fn wgsl(out: &Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "stderr: {stderr}");
    let text = String::from_utf8(out.stdout.clone()).expect("utf8");
    let module = naga::front::wgsl::parse_str(&text).expect("WGSL parses");
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::default(),
    )
    .validate(&module)
    .expect("WGSL validates");
    text
}

#[test]
fn float_modes_differ_in_the_legacy_rules() {
    let dir = scratch("modes");
    let file = shader_file(&dir);
    let legacy = wgsl(&run(&["wgsl", &file]));
    let strict = wgsl(&run(&["wgsl", &file, "--float-mode", "legacy-strict"]));
    let ieee = wgsl(&run(&["wgsl", &file, "--float-mode", "ieee"]));
    // rcp(0) = FLT_MAX in both legacy modes; only the strict one tests every multiply.
    let flt_max = "340282350000000000000000000000000000000f";
    assert!(
        legacy.contains(flt_max),
        "legacy rcp rule missing:\n{legacy}"
    );
    assert_eq!(legacy.matches("select(").count(), 1, "{legacy}");
    assert!(strict.contains(flt_max), "{strict}");
    assert!(
        strict.matches("select(").count() > 1,
        "legacy-strict 0·x rule missing:\n{strict}"
    );
    assert!(!ieee.contains("select("), "ieee has a zero test:\n{ieee}");
    assert!(legacy.contains("array<vec4<f32>, 257>"));
}

#[test]
fn swvp_puts_8192_constants_in_a_storage_buffer() {
    let dir = scratch("swvp");
    let file = shader_file(&dir);
    let text = wgsl(&run(&["wgsl", &file, "--swvp"]));
    assert!(
        text.contains("var<storage> c: array<vec4<f32>, 8193>"),
        "{text}"
    );
}

#[test]
fn decl_specialises_the_input_fetch() {
    let dir = scratch("decl");
    let file = shader_file(&dir);
    let decl = VertexDeclaration::from_elements(&[
        VertexElement::new(0, 0, DeclType::Float3, Usage::Position, 0),
        VertexElement::new(0, 12, DeclType::UByte4, Usage::TexCoord, 0),
    ])
    .expect("valid");
    let elements = dir.join("decl.bin");
    std::fs::write(&elements, decl.to_bytes()).expect("write");
    let plain = wgsl(&run(&["wgsl", &file]));
    let bound = wgsl(&run(&[
        "wgsl",
        &file,
        "--decl",
        elements.to_str().expect("utf8"),
    ]));
    // UBYTE4 has no float wgpu format: it is fetched as integers and converted.
    assert!(!plain.contains("vec4<u32>"), "{plain}");
    assert!(bound.contains("@location(1) v1_: vec4<u32>"), "{bound}");
}

#[test]
fn errors_exit_non_zero_with_a_message() {
    let dir = scratch("errors");
    let file = shader_file(&dir);
    // No element for TEXCOORD0 under software vertex processing: the draw is refused.
    let decl = VertexDeclaration::from_elements(&[VertexElement::new(
        0,
        0,
        DeclType::Float3,
        Usage::Position,
        0,
    )])
    .expect("valid");
    let elements = dir.join("decl.bin");
    std::fs::write(&elements, decl.to_bytes()).expect("write");
    let elements = elements.to_str().expect("utf8");
    let garbage = dir.join("garbage.bin");
    std::fs::write(&garbage, [1u8, 2, 3]).expect("write");
    for (args, says) in [
        (
            vec!["wgsl", garbage.to_str().expect("utf8")],
            "not a whole number",
        ),
        (
            vec!["wgsl", &file, "--decl", elements, "--swvp"],
            "has no element",
        ),
        (
            vec!["wgsl", &file, "--ps", &file],
            "--ps links a vertex shader to a pixel shader; got a vertex shader and a vertex shader",
        ),
        (vec!["wgsl", "/nonexistent/vs.bin"], "nonexistent"),
    ] {
        let out = run(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

/// Exit status 1 (a reported failure, not a panic's 101), nothing on stdout, and stderr
/// containing every one of `says`.
#[track_caller]
fn refused(out: &Output, says: &[&str]) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr: {stderr}");
    assert!(out.stdout.is_empty(), "stdout: {:?}", out.stdout);
    for s in says {
        assert!(stderr.contains(s), "{s:?} not in: {stderr}");
    }
}

#[test]
fn positiont_declaration_runs_no_vertex_shader() {
    // D3D9 skips vertex processing for pre-transformed vertices (POSITIONT / FVF XYZRHW), so
    // there is no vertex shader to specialise for the declaration: refused with that reason.
    let dir = scratch("positiont");
    let file = shader_file(&dir);
    let decl = VertexDeclaration::from_elements(&[
        VertexElement::new(0, 0, DeclType::Float4, Usage::PositionT, 0),
        VertexElement::new(0, 16, DeclType::Float4, Usage::TexCoord, 0),
    ])
    .expect("valid");
    let elements = dir.join("decl.bin");
    std::fs::write(&elements, decl.to_bytes()).expect("write");
    let elements = elements.to_str().expect("utf8");
    refused(
        &run(&["wgsl", &file, "--decl", elements]),
        &[elements, "POSITIONT", "runs no vertex shader"],
    );
    // The same elements with POSITION are translated (the refusal is POSITIONT's).
    let decl = VertexDeclaration::from_elements(&[
        VertexElement::new(0, 0, DeclType::Float4, Usage::Position, 0),
        VertexElement::new(0, 16, DeclType::Float4, Usage::TexCoord, 0),
    ])
    .expect("valid");
    std::fs::write(elements, decl.to_bytes()).expect("write");
    wgsl(&run(&["wgsl", &file, "--decl", elements]));
    std::fs::remove_dir_all(&dir).ok();
}

/// A pixel shader prints as one fragment entry point; `--decl` does not apply to it.
#[test]
fn pixel_shader_translates() {
    let dir = scratch("ps");
    let bytes: Vec<u8> = assemble_tokens("ps_2_0\ndcl t0\nmov oC0, t0\n")
        .expect("assembles")
        .iter()
        .flat_map(|t| t.to_le_bytes())
        .collect();
    let ps = dir.join("ps.bin");
    std::fs::write(&ps, bytes).expect("write");
    let ps = ps.to_str().expect("utf8");
    let text = wgsl(&run(&["wgsl", ps]));
    assert!(text.contains("@fragment"), "{text}");
    assert!(!text.contains("@vertex"), "{text}");
    refused(
        &run(&["wgsl", ps, "--decl", ps]),
        &[
            ps,
            "is a pixel shader: --decl and --ps apply to a vertex shader",
        ],
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `wgsl VS --ps PS`: one module with both entry points, linked by semantic (TEXCOORD0 and
/// COLOR0 at the same locations on both sides, the vertex shader's two written components
/// travelling), which naga's WGSL front end parses and validates; the other languages write
/// both entry points, GLSL refuses.
#[test]
fn vertex_and_pixel_shader_link_into_one_module() {
    let dir = scratch("linked");
    let write = |name: &str, text: &str| {
        let bytes: Vec<u8> = assemble_tokens(text)
            .expect("assembles")
            .iter()
            .flat_map(|t| t.to_le_bytes())
            .collect();
        let path = dir.join(name);
        std::fs::write(&path, bytes).expect("write");
        path.to_str().expect("utf8").to_string()
    };
    let vs = write(
        "vs.bin",
        "vs_3_0\ndcl_position v0\ndcl_texcoord0 v1\ndcl_position o0\ndcl_color0 o1\n\
         dcl_texcoord0 o2.xy\nmov o0, v0\nmov o1, c0\nmov o2.xy, v1\n",
    );
    let ps = write(
        "ps.bin",
        "ps_3_0\ndcl_texcoord0 v0.xy\ndcl_color0 v1\ndcl_2d s0\ntexld r0, v0, s0\n\
         mul oC0, r0, v1\n",
    );
    let text = wgsl(&run(&["wgsl", &vs, "--ps", &ps]));
    assert!(text.contains("fn vs_main("), "{text}");
    assert!(text.contains("fn ps_main("), "{text}");
    let module = naga::front::wgsl::parse_str(&text).expect("parses");
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::default(),
    )
    .validate(&module)
    .expect("validates");
    // The same location and width on both sides.
    let locations = |stage: naga::ShaderStage| -> Vec<(u32, String)> {
        let e = module
            .entry_points
            .iter()
            .find(|e| e.stage == stage)
            .expect("entry point");
        let mut out = Vec::new();
        let mut push = |binding: &Option<naga::Binding>, ty: naga::Handle<naga::Type>| {
            if let Some(naga::Binding::Location { location, .. }) = binding {
                out.push((*location, format!("{:?}", module.types[ty].inner)));
            }
        };
        match stage {
            naga::ShaderStage::Vertex => {
                let r = e.function.result.as_ref().expect("result");
                if let naga::TypeInner::Struct { members, .. } = &module.types[r.ty].inner {
                    for m in members {
                        push(&m.binding, m.ty);
                    }
                }
            }
            _ => {
                for a in &e.function.arguments {
                    push(&a.binding, a.ty);
                }
            }
        }
        out.sort();
        out
    };
    let vertex_side = locations(naga::ShaderStage::Vertex);
    assert_eq!(vertex_side, locations(naga::ShaderStage::Fragment));
    assert_eq!(vertex_side.len(), 2, "{vertex_side:?}");
    for lang in ["spirv", "msl", "hlsl"] {
        let o = run(&["translate", &vs, "--ps", &ps, "--lang", lang]);
        assert!(
            o.status.success(),
            "{lang}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        if lang != "spirv" {
            let out = String::from_utf8_lossy(&o.stdout);
            assert!(out.contains("vs_main") && out.contains("ps_main"), "{lang}");
        }
    }
    refused(
        &run(&["translate", &vs, "--ps", &ps, "--lang", "glsl"]),
        &["a GLSL shader holds one stage"],
    );
    // The wrong order is refused with both names.
    refused(
        &run(&["wgsl", &ps, "--ps", &vs]),
        &["--decl and --ps apply to a vertex shader"],
    );
    std::fs::remove_dir_all(&dir).ok();
}
