//! Flat and smooth colours through a link, on the GPU, against Wine's `test_shademode`
//! (`dlls/d3d9/tests/visual.c`, Windows results; shaders, vertices and expectations read from
//! `../shared/corpus/d3d9_visual.json`): with `PairOptions::flat_shading` (`D3DSHADE_FLAT`)
//! COLOR0 is flat in both stages and takes the first vertex of each triangle of a strip or a
//! list; with GOURAUD it is interpolated. Pixels (100, 100) and (500, 350) of 640x480, ±1.
//!
//! Substitution: Wine's ps_1_1 `mov r0, v0` and the fixed-function pixel stage (which outputs
//! the diffuse colour) are replayed with Wine's ps_2_0 `mov oC0, v0` of the same test, which
//! outputs the same colour, so every row tests the link (ps_1_x's own behaviour:
//! `ps1_behaviour.rs`); rows without a vertex shader are not replayed. The
//! counts are asserted.
//!
//! GPU tests fail, not skip, when no adapter exists (unless `D3D9_ALLOW_NO_GPU=1`).

#[path = "../../translator/tests/common/mod.rs"]
mod common;
#[allow(dead_code)]
mod wine_visual;

use std::error::Error;

use d3d9_backend::device::VertexConstants;
use d3d9_backend::Gpu;
use d3d9_harness::{Draw, Harness, ShaderStage, Target, VertexBuffer};
use d3d9_translator::bytecode::{decode, Stage};
use d3d9_translator::check::{check, CheckedProgram, DeviceCaps};
use d3d9_translator::lift::{
    translate_pair, PairOptions, PairPixelStage, PairVertexStage, PixelShaderOptions,
    VertexShaderOptions,
};
use wine_visual::corpus::color_match;
use wine_visual::corpus::{tokenize, CToken, Corpus};

type TestResult = Result<(), Box<dyn Error>>;

const FUNCTION: &str = "test_shademode";
const WIDTH: u32 = 640;
const HEIGHT: u32 = 480;

/// One row of Wine's `tests`: shader names, primitive, shade mode, expected colours.
struct Row {
    vs: String,
    ps: String,
    strip: bool,
    flat: bool,
    colors: [u32; 2],
}

fn rows(corpus: &Corpus) -> Result<Vec<Row>, String> {
    let t = corpus.initialiser(FUNCTION, "tests")?;
    let mut rows = Vec::new();
    for w in t.windows(6) {
        let (Some(vs), Some(ps), Some(prim), Some(shade)) =
            (w[0].ident(), w[1].ident(), w[2].ident(), w[3].ident())
        else {
            continue;
        };
        let (Some(prim), Some(shade)) =
            (prim.strip_prefix("D3DPT_"), shade.strip_prefix("D3DSHADE_"))
        else {
            continue;
        };
        let (Some(c0), Some(c1)) = (w[4].u32(), w[5].u32()) else {
            continue;
        };
        rows.push(Row {
            vs: vs.to_string(),
            ps: ps.to_string(),
            strip: prim == "TRIANGLESTRIP",
            flat: shade == "FLAT",
            colors: [c0, c1],
        });
    }
    Ok(rows)
}

/// The vertices of `name` (`quad_strip` or `quad_list`): position and D3DCOLOR diffuse,
/// as `(x, y, z, 1)` and `(r, g, b, a)`.
fn vertices(corpus: &Corpus, name: &str) -> Result<Vec<[f32; 8]>, String> {
    let text = corpus.data_array(FUNCTION, name)?;
    let body = text
        .split_once(&format!("{name}[] ="))
        .map(|(_, b)| b)
        .ok_or(format!("no {name} initialiser"))?;
    let body = body.split(';').next().unwrap_or(body);
    let body = body.split("[] =").next().unwrap_or(body);
    let tokens = tokenize(body)?;
    let mut out = Vec::new();
    for v in tokens.chunks_exact(4) {
        let f = |t: &CToken| t.f32().ok_or(format!("{t:?} is not a float"));
        let c = v[3].u32().ok_or("not a colour")?;
        let byte = |shift: u32| ((c >> shift) & 0xff) as f32 / 255.0;
        out.push([
            f(&v[0])?,
            f(&v[1])?,
            f(&v[2])?,
            1.0,
            byte(16),
            byte(8),
            byte(0),
            byte(24),
        ]);
    }
    Ok(out)
}

fn checked(corpus: &Corpus, name: &str, stage: Stage) -> Result<CheckedProgram, Box<dyn Error>> {
    let tokens = corpus.shader(FUNCTION, name)?;
    let program = decode(&tokens).map_err(|e| format!("{name}: {e}"))?;
    Ok(check(&program, stage, &DeviceCaps::default()).map_err(|e| format!("{name}: {e}"))?)
}

#[test]
fn gpu_shademode_through_a_link() -> TestResult {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    let corpus = Corpus::load()?;
    let rows = rows(&corpus)?;
    assert_eq!(rows.len(), 16, "rows of tests[]");
    let strip = vertices(&corpus, "quad_strip")?;
    let list = vertices(&corpus, "quad_list")?;
    assert_eq!((strip.len(), list.len()), (4, 6));
    let (mut replayed, mut substituted, mut failures) = (0, 0, Vec::new());
    for row in rows.iter().filter(|r| r.vs != "novs") {
        let vs_name = format!("{}_code", row.vs.replace('_', ""));
        let ps_name = match row.ps.as_str() {
            "ps_3" => "ps3_code",
            _ => "ps2_code",
        };
        let vs = checked(&corpus, &vs_name, Stage::Vertex)?;
        let ps = checked(&corpus, ps_name, Stage::Pixel)?;
        let pair = translate_pair(
            PairVertexStage::Shader(&vs),
            PairPixelStage::Shader {
                program: &ps,
                options: PixelShaderOptions::default(),
            },
            PairOptions {
                vertex: VertexShaderOptions {
                    position_fixup: true,
                    ..VertexShaderOptions::default()
                },
                flat_shading: row.flat,
                ..PairOptions::default()
            },
        )?;
        let vs_linked = pair.vertex;
        let ps_linked = pair.pixel.ok_or("the pair has no pixel shader")?;
        let constants =
            VertexConstants::default().buffers(&vs_linked.interface, (WIDTH, HEIGHT))?;
        let uniforms: Vec<_> = constants.iter().map(d3d9_harness::Uniform::from).collect();
        let location = |n: u32| {
            vs_linked
                .interface
                .input(n)
                .and_then(|i| i.location)
                .ok_or(format!("v{n} is not fetched"))
        };
        let attributes = [
            wgpu::VertexAttribute {
                format: wgpu::VertexFormat::Float32x4,
                offset: 0,
                shader_location: location(0)?,
            },
            wgpu::VertexAttribute {
                format: wgpu::VertexFormat::Float32x4,
                offset: 16,
                shader_location: location(1)?,
            },
        ];
        let data = if row.strip { &strip } else { &list };
        let buffers = [VertexBuffer {
            layout: wgpu::VertexBufferLayout {
                array_stride: 32,
                step_mode: wgpu::VertexStepMode::Vertex,
                attributes: &attributes,
            },
            data: bytemuck::cast_slice(data),
        }];
        let image = gpu.render(&Draw {
            vertex_buffers: &buffers,
            uniforms: &uniforms,
            topology: if row.strip {
                wgpu::PrimitiveTopology::TriangleStrip
            } else {
                wgpu::PrimitiveTopology::TriangleList
            },
            ..Draw::new(
                ShaderStage::naga(&vs_linked.module),
                ShaderStage::naga(&ps_linked.module),
                data.len() as u32,
                Target::rgba8(WIDTH, HEIGHT).cleared_to(wgpu::Color::WHITE),
            )
        })?;
        for ((x, y), want) in [(100, 100), (500, 350)].into_iter().zip(row.colors) {
            let [r, g, b, _] = image.rgba8(x, y).ok_or("pixel outside the target")?;
            let got = u32::from_be_bytes([0, r, g, b]);
            if !color_match(got, want, 1) {
                failures.push(format!(
                    "{} + {} ({}, {}) at ({x}, {y}): got {got:08x}, want {want:08x}",
                    row.vs,
                    row.ps,
                    if row.strip { "strip" } else { "list" },
                    if row.flat { "flat" } else { "smooth" },
                ));
            }
        }
        replayed += 1;
        if row.ps != "ps_2" && row.ps != "ps_3" {
            substituted += 1;
        }
    }
    println!(
        "test_shademode: {replayed} of {} rows replayed ({substituted} with ps_2_0 for ps_1_1 or \
         the fixed-function pixel stage)",
        rows.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!((replayed, substituted), (9, 5));
    Ok(())
}
