//! What a pixel shader reads from varyings the vertex shader did not write, through a link,
//! on the GPU, against Wine's `test_uninitialized_varyings` (`dlls/d3d9/tests/visual.c`,
//! Windows results; shaders and the expectation table read from
//! `../shared/corpus/d3d9_visual.json`): a semantic the vertex shader never outputs is
//! absent from the link and reads `Semantic::unwritten_value` in the pixel shader; a pre-3.0
//! `oD#`/`oT#` written in `.x` only keeps its defaults elsewhere; a vs_3_0 output declared
//! and written in `.x` only is 0 elsewhere (`0x007f0000` exactly for COLOR1, alpha 0).
//!
//! Replayed: the table's rows with both a vertex and a pixel shader of a version the
//! translator handles (ps_2_0, ps_3_0); the ps_1_1 rows and the rows without a shader are
//! counted as not replayed. A row passes as Wine's primary check does: the expected colour
//! ±1 per channel, or, where the row allows it, the same with alpha 0; the `broken()`
//! alternatives (Windows driver quirks) are not accepted.
//!
//! GPU tests fail, not skip, when no adapter exists (unless `D3D9_ALLOW_NO_GPU=1`).

#[path = "../../translator/tests/common/mod.rs"]
mod common;
#[allow(dead_code)]
mod wine_visual;

use std::error::Error;

use d3d9_backend::Gpu;
use d3d9_harness::{Draw, Harness, ShaderStage, Target, VertexBuffer};
use d3d9_translator::bytecode::{decode, Stage};
use d3d9_translator::check::{check, CheckedProgram, DeviceCaps};
use d3d9_translator::lift::{
    translate_pair, PairOptions, PairPixelStage, PairVertexStage, PixelShaderOptions,
};
use wine_visual::corpus::color_match;
use wine_visual::corpus::Corpus;

type TestResult = Result<(), Box<dyn Error>>;

const FUNCTION: &str = "test_uninitialized_varyings";

/// One row of Wine's `tests` table.
#[derive(Debug)]
struct Row {
    vs: Option<String>,
    ps_version: String,
    ps: Option<String>,
    expected: u32,
    allow_zero_alpha: bool,
}

/// The fields of a C initialiser row `{a, f(b, c), d}`: split at top-level commas.
fn fields(row: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut depth, mut field) = (0, String::new());
    for c in row.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(field.trim().to_string());
                field.clear();
                continue;
            }
            _ => {}
        }
        field.push(c);
    }
    if !field.trim().is_empty() {
        out.push(field.trim().to_string());
    }
    out
}

/// The rows of `tests`, comments (and the rows disabled in them) removed.
fn rows(corpus: &Corpus) -> Result<Vec<Row>, String> {
    let text = corpus.data_array(FUNCTION, "tests")?;
    let mut plain = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("/*") {
        plain.push_str(&rest[..start]);
        rest = rest[start..]
            .find("*/")
            .map_or("", |end| &rest[start + end + 2..]);
    }
    plain.push_str(rest);
    let body = plain
        .split_once("tests[] =")
        .map(|(_, b)| b)
        .ok_or("no tests[] initialiser")?;
    let shader = |s: &str| (s != "NULL").then(|| s.to_string());
    let mut rows = Vec::new();
    for line in body.lines().map(str::trim).filter(|l| l.starts_with('{')) {
        let inner = line.trim_start_matches('{').trim_end_matches(',');
        let inner = inner.strip_suffix('}').unwrap_or(inner);
        let f = fields(inner);
        if f.len() < 5 {
            continue;
        }
        let expected = u32::from_str_radix(f[4].trim_start_matches("0x"), 16)
            .map_err(|e| format!("{}: {e}", f[4]))?;
        rows.push(Row {
            vs: shader(&f[1]),
            ps_version: f[2].clone(),
            ps: shader(&f[3]),
            expected,
            allow_zero_alpha: f.get(5).is_some_and(|s| s == "TRUE"),
        });
    }
    Ok(rows)
}

fn checked(corpus: &Corpus, name: &str, stage: Stage) -> Result<CheckedProgram, Box<dyn Error>> {
    let tokens = corpus.shader(FUNCTION, name)?;
    let program = decode(&tokens).map_err(|e| format!("{name}: {e}"))?;
    Ok(check(&program, stage, &DeviceCaps::default()).map_err(|e| format!("{name}: {e}"))?)
}

#[test]
fn gpu_uninitialized_varyings_through_a_link() -> TestResult {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    let corpus = Corpus::load()?;
    let rows = rows(&corpus)?;
    assert_eq!(rows.len(), 20, "rows of tests[]: {rows:?}");
    // A full-target quad at z = 0.1, as Wine's.
    let quad: Vec<[f32; 4]> = [
        (-1.0, -1.0),
        (-1.0, 1.0),
        (1.0, -1.0),
        (1.0, -1.0),
        (-1.0, 1.0),
        (1.0, 1.0),
    ]
    .iter()
    .map(|&(x, y)| [x, y, 0.1, 1.0])
    .collect();
    let (mut replayed, mut failures) = (0, Vec::new());
    for row in &rows {
        let (Some(vs_name), Some(ps_name)) = (&row.vs, &row.ps) else {
            continue;
        };
        if row.ps_version.contains("(1,") {
            continue;
        }
        let vs = checked(&corpus, vs_name, Stage::Vertex)?;
        let ps = checked(&corpus, ps_name, Stage::Pixel)?;
        let pair = translate_pair(
            PairVertexStage::Shader(&vs),
            PairPixelStage::Shader {
                program: &ps,
                options: PixelShaderOptions::default(),
            },
            PairOptions::default(),
        )?;
        let vs_linked = pair.vertex;
        let ps_linked = pair.pixel.ok_or("the pair has no pixel shader")?;
        let location = vs_linked
            .interface
            .input(0)
            .and_then(|i| i.location)
            .ok_or("v0 is not fetched")?;
        let attributes = [wgpu::VertexAttribute {
            format: wgpu::VertexFormat::Float32x4,
            offset: 0,
            shader_location: location,
        }];
        let buffers = [VertexBuffer {
            layout: wgpu::VertexBufferLayout {
                array_stride: 16,
                step_mode: wgpu::VertexStepMode::Vertex,
                attributes: &attributes,
            },
            data: bytemuck::cast_slice(&quad),
        }];
        let image = gpu.render(&Draw {
            vertex_buffers: &buffers,
            ..Draw::new(
                ShaderStage::naga(&vs_linked.module),
                ShaderStage::naga(&ps_linked.module),
                quad.len() as u32,
                Target::rgba8(4, 4).cleared_to(wgpu::Color {
                    r: 0.0,
                    g: 1.0,
                    b: 0.0,
                    a: 1.0,
                }),
            )
        })?;
        let [r, g, b, a] = image.rgba8(2, 2).ok_or("pixel outside the target")?;
        let got = u32::from_be_bytes([a, r, g, b]);
        let want = row.expected;
        let pass = color_match(got, want, 1)
            || (row.allow_zero_alpha && color_match(got, want & 0x00ff_ffff, 1));
        if !pass {
            failures.push(format!(
                "{vs_name} + {ps_name}: got {got:08x}, want {want:08x}"
            ));
        }
        replayed += 1;
    }
    println!(
        "test_uninitialized_varyings: {replayed} of {} rows replayed (the others use ps_1_1 or \
         no shader)",
        rows.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(replayed, 10);
    Ok(())
}
