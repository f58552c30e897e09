//! Fixed-function fog after a pixel shader, on the GPU, against Wine's `fog_with_shader_test`
//! (`dlls/d3d9/tests/visual.c`, Windows results; shaders and the expectation table read from
//! `../shared/corpus/d3d9_visual.json`): vertex shaders 1–3 of the test (no `oFog`; `oFog`
//! computed from z in vs_1_1 and vs_2_0), linked to the pixel shader with `vertex_fog` when
//! vertex fog applies, the fog stage's render states from the uniform
//! (`FogConstants`: colour 0xff00ff00, start 0.1, end 0.9, density 1 by default), and the 11
//! quads at `z = 0.001 + j / 10.02` compared with Wine's tolerance (13 per channel).
//!
//! What the test's device does, as D3D9 specifies: with a vertex shader bound, table fog
//! (`D3DRS_FOGTABLEMODE` != NONE) uses the pixel's depth; otherwise the shader's `oFog` is the
//! fog factor (`D3DRS_FOGVERTEXMODE` applies only to fixed-function vertex processing).
//!
//! Substitution: rows with Wine's ps_1_1 `mov r0, v0` and rows without a pixel shader (the
//! default fixed-function stage outputs the diffuse colour) run Wine's ps_2_0 `mov oC0, v0`,
//! which outputs the same colour, so every row tests the link and the fog stage, applied
//! after either the same way (ps_1_x's own behaviour: `ps1_behaviour.rs`). Rows without a vertex shader (fixed-function vertex processing) are
//! not replayed here. The counts are asserted.
//!
//! GPU tests fail, not skip, when no adapter exists (unless `D3D9_ALLOW_NO_GPU=1`).

#[path = "../../translator/tests/common/mod.rs"]
mod common;
#[allow(dead_code)]
mod wine_visual;

use std::error::Error;

use d3d9_backend::Gpu;
use d3d9_harness::{Draw, Harness, ShaderStage, Target, Uniform, VertexBuffer};
use d3d9_translator::bytecode::{decode, Stage};
use d3d9_translator::check::{check, CheckedProgram, DeviceCaps};
use d3d9_translator::lift::interface::{FOG_BINDING, PS_CONSTANTS_GROUP};
use d3d9_translator::lift::{
    translate_pair, FogConstants, FogMode, FogOptions, FogSource, PairOptions, PairPixelStage,
    PairVertexStage, PixelShaderOptions,
};
use wine_visual::corpus::color_match;
use wine_visual::corpus::{CToken, Corpus};

type TestResult = Result<(), Box<dyn Error>>;

const FUNCTION: &str = "fog_with_shader_test";
/// Quads per row (Wine's `j` loop).
const STEPS: usize = 11;
/// Pixels per quad column in the target.
const CELL: u32 = 4;

/// One row of Wine's `test_data`.
struct Row {
    vshader: u32,
    pshader: u32,
    vfog: String,
    tfog: String,
    colors: Vec<u32>,
}

/// `NONE` for `D3DFOG_NONE`, …
fn fog_mode(t: &CToken) -> Option<&str> {
    t.ident().and_then(|s| s.strip_prefix("D3DFOG_"))
}

/// The rows of `test_data`: `vshader, pshader, D3DFOG_*, D3DFOG_*, {11 colours}`.
fn rows(corpus: &Corpus) -> Result<Vec<Row>, String> {
    let tokens = corpus.initialiser(FUNCTION, "test_data")?;
    let mut rows = Vec::new();
    let mut i = 0;
    while i + 4 + STEPS <= tokens.len() {
        match (
            tokens[i].u32(),
            tokens[i + 1].u32(),
            fog_mode(&tokens[i + 2]),
            fog_mode(&tokens[i + 3]),
        ) {
            (Some(vshader), Some(pshader), Some(vfog), Some(tfog)) => {
                let colors = tokens[i + 4..i + 4 + STEPS]
                    .iter()
                    .map(|t| t.u32().ok_or(format!("{t:?} is not a colour")))
                    .collect::<Result<_, _>>()?;
                rows.push(Row {
                    vshader,
                    pshader,
                    vfog: vfog.to_string(),
                    tfog: tfog.to_string(),
                    colors,
                });
                i += 4 + STEPS;
            }
            _ => i += 1,
        }
    }
    Ok(rows)
}

fn checked(corpus: &Corpus, name: &str, stage: Stage) -> Result<CheckedProgram, Box<dyn Error>> {
    let tokens = corpus.shader(FUNCTION, name)?;
    let program = decode(&tokens).map_err(|e| format!("{name}: {e}"))?;
    Ok(check(&program, stage, &DeviceCaps::default()).map_err(|e| format!("{name}: {e}"))?)
}

/// The fog stage of a draw with a vertex shader: table fog when its mode is set, else the
/// shader's `oFog`.
fn fog_source(tfog: &str) -> Result<FogSource, String> {
    Ok(match tfog {
        "NONE" => FogSource::Vertex,
        "LINEAR" => FogSource::Table(FogMode::Linear),
        "EXP" => FogSource::Table(FogMode::Exp),
        "EXP2" => FogSource::Table(FogMode::Exp2),
        other => return Err(format!("unknown fog mode {other}")),
    })
}

/// `(x, y, z, 1)` and the diffuse colour (0xffff0000) of the six vertices of quad `j`, which
/// covers column `j` of the target.
fn quads() -> Vec<[f32; 8]> {
    let mut vertices = Vec::new();
    for j in 0..STEPS {
        let z = 0.001f32 + j as f32 / 10.02f32;
        let x0 = -1.0 + 2.0 * j as f32 / STEPS as f32;
        let x1 = -1.0 + 2.0 * (j + 1) as f32 / STEPS as f32;
        for (x, y) in [
            (x0, -1.0),
            (x0, 1.0),
            (x1, -1.0),
            (x1, -1.0),
            (x0, 1.0),
            (x1, 1.0),
        ] {
            vertices.push([x, y, z, 1.0, 1.0, 0.0, 0.0, 1.0]);
        }
    }
    vertices
}

#[test]
fn gpu_fog_with_shader_test() -> TestResult {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    let corpus = Corpus::load()?;
    let rows = rows(&corpus)?;
    assert_eq!(rows.len(), 47, "rows of test_data");
    let ps = checked(&corpus, "pixel_shader_code2", Stage::Pixel)?;
    let constants = FogConstants {
        color: [0.0, 1.0, 0.0, 1.0],
        start: 0.1,
        end: 0.9,
        density: 1.0,
    };
    let fog_data = constants.data();
    let vertices = quads();
    let width = STEPS as u32 * CELL;
    let (mut replayed, mut substituted, mut failures) = (0, 0, Vec::new());
    for row in rows.iter().filter(|r| r.vshader > 0) {
        let vs = checked(
            &corpus,
            &format!("vertex_shader_code{}", row.vshader),
            Stage::Vertex,
        )?;
        let source = fog_source(&row.tfog)?;
        let pair = translate_pair(
            PairVertexStage::Shader(&vs),
            PairPixelStage::Shader {
                program: &ps,
                options: PixelShaderOptions {
                    fog: Some(FogOptions {
                        source,
                        from_w: false,
                    }),
                    ..PixelShaderOptions::default()
                },
            },
            PairOptions::default(),
        )?;
        let vs_linked = pair.vertex;
        let ps_linked = pair.pixel.ok_or("the pair has no pixel shader")?;
        let fog = ps_linked.interface.fog.ok_or("no fog uniform")?;
        assert_eq!((fog.group, fog.binding), (PS_CONSTANTS_GROUP, FOG_BINDING));
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
        let buffers = [VertexBuffer {
            layout: wgpu::VertexBufferLayout {
                array_stride: 32,
                step_mode: wgpu::VertexStepMode::Vertex,
                attributes: &attributes,
            },
            data: bytemuck::cast_slice(&vertices),
        }];
        let uniforms = [Uniform::new(
            fog.group,
            fog.binding,
            bytemuck::cast_slice(&fog_data),
        )];
        let image = gpu.render(&Draw {
            vertex_buffers: &buffers,
            uniforms: &uniforms,
            ..Draw::new(
                ShaderStage::naga(&vs_linked.module),
                ShaderStage::naga(&ps_linked.module),
                vertices.len() as u32,
                Target::rgba8(width, CELL).cleared_to(wgpu::Color {
                    r: 1.0,
                    g: 0.0,
                    b: 1.0,
                    a: 1.0,
                }),
            )
        })?;
        for (j, &want) in row.colors.iter().enumerate() {
            let [r, g, b, _] = image
                .rgba8(j as u32 * CELL + CELL / 2, CELL / 2)
                .ok_or("pixel outside the target")?;
            let got = u32::from_be_bytes([0, r, g, b]);
            if !color_match(got, want, 13) {
                failures.push(format!(
                    "vs{} ps{} vfog {} tfog {} j {j}: got {got:08x}, want {want:08x}",
                    row.vshader, row.pshader, row.vfog, row.tfog
                ));
            }
        }
        replayed += 1;
        if row.pshader != 2 {
            substituted += 1;
        }
    }
    println!(
        "fog_with_shader_test: {replayed} rows replayed ({substituted} with ps_2_0 for ps_1_1 or \
         the fixed-function pixel stage), {} without a vertex shader not replayed",
        rows.len() - replayed
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!((replayed, substituted), (42, 34));
    Ok(())
}

/// vkd3d's `tests/hlsl/fog.shader_test` (vkd3d 1.17, read from
/// `../shared/corpus/vkd3d/vkd3d_sm23.json`), pass `sm3`: every probe of its three fog test
/// blocks, drawn with the corpus' vs_3_0 / ps_3_0 bytecode through a link and the fog stage.
/// vkd3d's tests are checked on Windows' d3d9 (its d3d9 runner, `shader_runner_d3d9.c`): the
/// ps_3_0 shader writes (0, 0, 1, 1) and reads no fog, and Windows fogs its colour, from the
/// vertex shader's `oFog` (lines 69-72), from the specular alpha of a vertex shader without
/// `oFog` (108-111), from the depth (LINEAR, EXP, EXP2 with an orthographic projection, lines
/// 76-93 and 115-118) and from w (146-149); with fog disabled the colour stays (62-65).
/// `PixelShaderOptions::fog` applies after ps_3_0 as after the earlier versions
/// (`docs/decisions.md`, "Fixed-function fog after ps_3_0"). The vertex shader's position is
/// used as it is (no half-pixel move): probes are compared within 2e-3, which a half-pixel
/// step of the interpolated depth (3e-4) fits and an unfogged colour (0.6 away) does not.
#[test]
fn gpu_fog_after_ps_3_0_as_vkd3d_on_windows() -> TestResult {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus/vkd3d/vkd3d_sm23.json");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let corpus: serde_json::Value = serde_json::from_str(&text)?;
    let file = corpus["files"]
        .as_array()
        .and_then(|files| files.iter().find(|f| f["name"] == "fog.shader_test"))
        .ok_or("fog.shader_test is not in the corpus")?;
    let shader = |id: &serde_json::Value, stage: Stage| -> Result<CheckedProgram, Box<dyn Error>> {
        let s = file["shaders"]
            .as_array()
            .and_then(|all| all.iter().find(|s| &s["id"] == id))
            .ok_or(format!("no shader {id}"))?;
        let tokens: Vec<u32> = s["tokens"]
            .as_array()
            .ok_or("no tokens")?
            .iter()
            .map(|t| {
                t.as_u64()
                    .map(|t| t as u32)
                    .ok_or("a token is not a number")
            })
            .collect::<Result<_, _>>()?;
        let program = decode(&tokens).map_err(|e| format!("shader {id}: {e}"))?;
        Ok(check(&program, stage, &DeviceCaps::default())
            .map_err(|e| format!("shader {id}: {e}"))?)
    };
    let (mut probes, mut fogged, mut failures) = (0, 0, Vec::new());
    let mut image = None;
    let blocks = file["passes"]["sm3"]["test_blocks"]
        .as_array()
        .ok_or("no sm3 blocks")?;
    for block in blocks
        .iter()
        .filter(|b| b["section_line"].as_u64() != Some(27))
    {
        for command in block["commands"].as_array().ok_or("no commands")? {
            match command["op"].as_str() {
                Some("draw") => {
                    let draw = &command["draw"];
                    let vs = shader(&draw["vs"]["shader_id"], Stage::Vertex)?;
                    let ps = shader(&draw["ps"]["shader_id"], Stage::Pixel)?;
                    assert_eq!(vs.program().version.major, 3);
                    assert_eq!(ps.program().version.major, 3);
                    let state = &draw["render_state"]["fog"];
                    // No fog state: `fog disable`.
                    let mode = state["mode"].as_str().unwrap_or("disable");
                    let fog = match mode {
                        "disable" => None,
                        "none" => Some(FogSource::Vertex),
                        "linear" => Some(FogSource::Table(FogMode::Linear)),
                        "exp" => Some(FogSource::Table(FogMode::Exp)),
                        "exp2" => Some(FogSource::Table(FogMode::Exp2)),
                        other => return Err(format!("fog mode {other}").into()),
                    };
                    let number = |v: &serde_json::Value| v.as_f64().map(|x| x as f32);
                    let colour: Vec<f32> = match state["colour"].as_array() {
                        Some(c) => c
                            .iter()
                            .map(|c| number(c).ok_or("colour"))
                            .collect::<Result<_, _>>()?,
                        None => vec![0.0; 4],
                    };
                    let constants = FogConstants {
                        color: [colour[0], colour[1], colour[2], colour[3]],
                        start: number(&state["start"]).unwrap_or(0.0),
                        end: number(&state["end"]).unwrap_or(1.0),
                        density: number(&state["density"]).unwrap_or(1.0),
                    };
                    let from_w = !state["ortho"].as_bool().unwrap_or(true);
                    let pair = translate_pair(
                        PairVertexStage::Shader(&vs),
                        PairPixelStage::Shader {
                            program: &ps,
                            options: PixelShaderOptions {
                                fog: fog.map(|source| FogOptions { source, from_w }),
                                ..PixelShaderOptions::default()
                            },
                        },
                        PairOptions::default(),
                    )?;
                    let vs_linked = pair.vertex;
                    let ps_linked = pair.pixel.ok_or("the pair has no pixel shader")?;
                    let data: Vec<u32> = draw["vertex_buffers"][0]["data"]
                        .as_array()
                        .ok_or("no vertex data")?
                        .iter()
                        .map(|t| t.as_u64().map(|t| t as u32).ok_or("vertex data"))
                        .collect::<Result<_, _>>()?;
                    let attributes = [wgpu::VertexAttribute {
                        format: wgpu::VertexFormat::Float32x4,
                        offset: 0,
                        shader_location: vs_linked
                            .interface
                            .input(0)
                            .and_then(|i| i.location)
                            .ok_or("v0 is not fetched")?,
                    }];
                    let buffers = [VertexBuffer {
                        layout: wgpu::VertexBufferLayout {
                            array_stride: 16,
                            step_mode: wgpu::VertexStepMode::Vertex,
                            attributes: &attributes,
                        },
                        data: bytemuck::cast_slice(&data),
                    }];
                    let fog_data = constants.data();
                    let uniforms: Vec<Uniform<'_>> = ps_linked
                        .interface
                        .fog
                        .map(|b| Uniform::new(b.group, b.binding, bytemuck::cast_slice(&fog_data)))
                        .into_iter()
                        .collect();
                    assert_eq!(ps_linked.interface.fog.is_some(), fog.is_some());
                    fogged += usize::from(fog.is_some());
                    let topology = match draw["topology"].as_str() {
                        Some("triangle strip") => wgpu::PrimitiveTopology::TriangleStrip,
                        Some("triangle list") => wgpu::PrimitiveTopology::TriangleList,
                        other => return Err(format!("topology {other:?}").into()),
                    };
                    image = Some(gpu.render(&Draw {
                        vertex_buffers: &buffers,
                        uniforms: &uniforms,
                        topology,
                        ..Draw::new(
                            ShaderStage::naga(&vs_linked.module),
                            ShaderStage::naga(&ps_linked.module),
                            draw["vertex_count"].as_u64().ok_or("count")? as u32,
                            Target::rgba32f(640, 480),
                        )
                    })?);
                }
                Some("probe") => {
                    let rect = &command["rect"];
                    let at = |k: usize| rect[k].as_u64().map(|v| v as u32).ok_or("rect");
                    let got = image
                        .as_ref()
                        .ok_or("a probe before a draw")?
                        .rgba32f(at(0)?, at(1)?)
                        .ok_or("pixel outside the target")?;
                    let want: Vec<f32> = command["expected"]
                        .as_array()
                        .ok_or("expected")?
                        .iter()
                        .map(|v| v.as_f64().map(|x| x as f32).ok_or("expected"))
                        .collect::<Result<_, _>>()?;
                    if got.iter().zip(&want).any(|(g, w)| (g - w).abs() > 2e-3) {
                        failures.push(format!(
                            "line {}: got {got:?}, want {want:?}",
                            command["line"]
                        ));
                    }
                    probes += 1;
                }
                _ => {}
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // 4 probes with fog disabled and the 28 the device lists in vkd3d_expectations.txt; 8
    // draws, 7 of them fogged.
    assert_eq!((probes, fogged), (32, 7));
    Ok(())
}
