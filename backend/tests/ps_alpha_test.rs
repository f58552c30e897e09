//! The alpha test (`D3DRS_ALPHATESTENABLE`, `D3DRS_ALPHAFUNC`, `D3DRS_ALPHAREF`) compiled
//! into translated pixel shaders, on the GPU, against a CPU reference of the D3D9 rule: the
//! pixel survives when `a8 FUNC ref`, `a8 = round(saturate(oC0.a) * 255)` being the alpha an
//! 8-bit target stores and `ref` the render state clamped to 0..=255.
//!
//! For ps_1_1 (`r0`), ps_2_0 and ps_3_0 shaders that output the interpolated vertex colour,
//! one frame per version holds a row of quads for each (function, reference) pair, the test
//! off included, with alphas straddling the reference by one step and by 0.3 of a step, at
//! 0 and 1, and outside [0, 1]. A surviving pixel is green with the quantised alpha; a
//! discarded one keeps the magenta clear colour. The counts are asserted.
//!
//! GPU tests fail, not skip, when no adapter exists (unless `D3D9_ALLOW_NO_GPU=1`).

use std::error::Error;

use d3d9_backend::device::CullMode;
use d3d9_backend::Gpu;
use d3d9_harness::{Draw, Frame, Harness, ShaderStage, Target, Uniform, VertexBuffer};
use d3d9_translator::asm::assemble;
use d3d9_translator::bytecode::Stage;
use d3d9_translator::check::{check, DeviceCaps};
use d3d9_translator::lift::interface::{alpha_ref_data, ALPHA_TEST_BINDING, PS_CONSTANTS_GROUP};
use d3d9_translator::lift::{
    translate_pixel_shader, CompareFunction, PixelShaderOptions, TranslatedShader,
};

type TestResult = Result<(), Box<dyn Error>>;

/// Pixels per quad, each way.
const CELL: u32 = 4;
/// `D3DRS_ALPHAREF` values: the middle, both ends, and one past the end (clamped to 255).
const REFERENCES: [u32; 4] = [0x80, 0, 0xff, 0x100];
/// Columns per row (see [`alphas`]).
const COLUMNS: usize = 11;

/// Position and colour in; the colour out at location 0, where an unlinked pixel shader's
/// one colour input arrives.
const VS: &str = "
struct Out {
    @builtin(position) position: vec4<f32>,
    @location(0) color: vec4<f32>,
}
@vertex
fn main(@location(0) position: vec4<f32>, @location(1) color: vec4<f32>) -> Out {
    return Out(position, color);
}
";

/// The same shader in each version: oC0 (r0 in ps_1_1) = the interpolated colour.
const SHADERS: [&str; 3] = [
    "ps_1_1\nmov r0, v0\n",
    "ps_2_0\ndcl v0\nmov oC0, v0\n",
    "ps_3_0\ndcl_color0 v0\nmov oC0, v0\n",
];

/// The alphas of one row: around the (clamped) reference `r` by one step and by 0.3 of a
/// step (never a rounding tie), near and at both ends, and outside [0, 1].
fn alphas(r: u32) -> [f32; COLUMNS] {
    let r = r.min(255) as f32;
    [
        -0.5,
        0.0,
        0.3 / 255.0,
        (r - 1.0) / 255.0,
        (r - 0.3) / 255.0,
        r / 255.0,
        (r + 0.3) / 255.0,
        (r + 1.0) / 255.0,
        254.7 / 255.0,
        1.0,
        1.5,
    ]
}

/// What an 8-bit target stores for `alpha`.
fn quantised(alpha: f32) -> u8 {
    (f64::from(alpha).clamp(0.0, 1.0) * 255.0).round() as u8
}

/// The D3D9 rule: whether a pixel of `alpha` survives `D3DCMPFUNC` `func` (`None`: the test
/// is off) against `D3DRS_ALPHAREF` = `alpha_ref`.
fn survives(func: Option<u32>, alpha: f32, alpha_ref: u32) -> bool {
    let a = u32::from(quantised(alpha));
    let r = alpha_ref.min(255);
    match func {
        None => true,
        Some(1) => false,  // NEVER
        Some(2) => a < r,  // LESS
        Some(3) => a == r, // EQUAL
        Some(4) => a <= r, // LESSEQUAL
        Some(5) => a > r,  // GREATER
        Some(6) => a != r, // NOTEQUAL
        Some(7) => a >= r, // GREATEREQUAL
        Some(_) => true,   // ALWAYS
    }
}

fn pixel_shader(text: &str, func: Option<u32>) -> Result<TranslatedShader, Box<dyn Error>> {
    let program = assemble(text)?;
    let checked = check(&program, Stage::Pixel, &DeviceCaps::default())?;
    let alpha_test = match func {
        Some(f) => Some(CompareFunction::from_d3d(f).ok_or(format!("D3DCMPFUNC {f}"))?),
        None => None,
    };
    let options = PixelShaderOptions {
        alpha_test,
        ..PixelShaderOptions::default()
    };
    Ok(translate_pixel_shader(&checked, &options)?)
}

/// The six vertices `[x, y, z, w, r, g, b, a]` of each quad of row `row` of `rows`.
fn row_vertices(row: usize, rows: usize, alphas: &[f32]) -> Vec<[f32; 8]> {
    let y0 = 1.0 - 2.0 * (row + 1) as f32 / rows as f32;
    let y1 = 1.0 - 2.0 * row as f32 / rows as f32;
    let mut vertices = Vec::new();
    for (j, &a) in alphas.iter().enumerate() {
        let x0 = -1.0 + 2.0 * j as f32 / alphas.len() as f32;
        let x1 = -1.0 + 2.0 * (j + 1) as f32 / alphas.len() as f32;
        for (x, y) in [(x0, y0), (x0, y1), (x1, y0), (x1, y0), (x0, y1), (x1, y1)] {
            vertices.push([x, y, 0.5, 1.0, 0.0, 1.0, 0.0, a]);
        }
    }
    vertices
}

#[test]
fn gpu_alpha_test_keeps_the_pixels_d3d9_keeps() -> TestResult {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    // Off, then D3DCMP_NEVER (1) … D3DCMP_ALWAYS (8).
    let functions: Vec<Option<u32>> = std::iter::once(None).chain((1..=8).map(Some)).collect();
    // (index into `functions`, D3DRS_ALPHAREF) of each row.
    let rows: Vec<(usize, u32)> = (0..functions.len())
        .flat_map(|k| REFERENCES.iter().map(move |&r| (k, r)))
        .collect();
    let target =
        Target::rgba8(COLUMNS as u32 * CELL, rows.len() as u32 * CELL).cleared_to(wgpu::Color {
            r: 1.0,
            g: 0.0,
            b: 1.0,
            a: 1.0,
        });
    let attributes = [
        wgpu::VertexAttribute {
            format: wgpu::VertexFormat::Float32x4,
            offset: 0,
            shader_location: 0,
        },
        wgpu::VertexAttribute {
            format: wgpu::VertexFormat::Float32x4,
            offset: 16,
            shader_location: 1,
        },
    ];
    let (mut checked, mut kept, mut discarded, mut failures) = (0, 0, 0, Vec::new());
    for text in SHADERS {
        let shaders: Vec<TranslatedShader> = functions
            .iter()
            .map(|&f| pixel_shader(text, f))
            .collect::<Result<_, _>>()?;
        for (shader, &f) in shaders.iter().zip(&functions) {
            let i = &shader.interface;
            assert_eq!(i.pixel_inputs.len(), 1, "{text}");
            assert_eq!(i.pixel_inputs[0].varying.map(|v| v.location), Some(0));
            let compares = !matches!(f, None | Some(1) | Some(8));
            let binding = i.alpha_ref.map(|b| (b.group, b.binding));
            let expected = compares.then_some((PS_CONSTANTS_GROUP, ALPHA_TEST_BINDING));
            assert_eq!(binding, expected, "{text} func {f:?}");
        }
        let vertices: Vec<Vec<[f32; 8]>> = rows
            .iter()
            .enumerate()
            .map(|(n, &(_, r))| row_vertices(n, rows.len(), &alphas(r)))
            .collect();
        let references: Vec<[f32; 4]> = rows.iter().map(|&(_, r)| alpha_ref_data(r)).collect();
        let buffers: Vec<[VertexBuffer<'_>; 1]> = vertices
            .iter()
            .map(|v| {
                [VertexBuffer {
                    layout: wgpu::VertexBufferLayout {
                        array_stride: 32,
                        step_mode: wgpu::VertexStepMode::Vertex,
                        attributes: &attributes,
                    },
                    data: bytemuck::cast_slice(v),
                }]
            })
            .collect();
        let uniforms: Vec<Vec<Uniform<'_>>> = rows
            .iter()
            .zip(&references)
            .map(|(&(k, _), data)| {
                shaders[k]
                    .interface
                    .alpha_ref
                    .map(|b| Uniform::new(b.group, b.binding, bytemuck::cast_slice(data)))
                    .into_iter()
                    .collect()
            })
            .collect();
        let draws: Vec<Draw<'_>> = rows
            .iter()
            .enumerate()
            .map(|(n, &(k, _))| Draw {
                vertex_buffers: &buffers[n],
                uniforms: &uniforms[n],
                ..Draw::new(
                    ShaderStage::wgsl(VS),
                    ShaderStage::naga(&shaders[k].module),
                    vertices[n].len() as u32,
                    target,
                )
            })
            .collect();
        let image = gpu.render_frame(&Frame {
            target,
            draws: &draws,
            cull: CullMode::None,
        })?;
        for (n, &(k, r)) in rows.iter().enumerate() {
            let f = functions[k];
            for (j, &a) in alphas(r).iter().enumerate() {
                let (x, y) = (j as u32 * CELL + CELL / 2, n as u32 * CELL + CELL / 2);
                let got = image.rgba8(x, y).ok_or("pixel outside the target")?;
                let survive = survives(f, a, r);
                let want = if survive {
                    [0, 255, 0, quantised(a)]
                } else {
                    [255, 0, 255, 255]
                };
                if got != want {
                    failures.push(format!(
                        "{} func {f:?} ref {r:#x} alpha {a} (a8 {}): got {got:?}, want {want:?}",
                        text.lines().next().unwrap_or_default(),
                        quantised(a)
                    ));
                }
                checked += 1;
                if survive {
                    kept += 1;
                } else {
                    discarded += 1;
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(checked, SHADERS.len() * 9 * REFERENCES.len() * COLUMNS);
    // Both outcomes are exercised.
    assert!(
        kept > 0 && discarded > 0,
        "kept {kept}, discarded {discarded}"
    );
    Ok(())
}

/// The CPU reference itself: the boundary cases the D3D9 rule decides.
#[test]
fn the_reference_rule_quantises_and_clamps() {
    // Exactly ref/255 is equal; 0.3 of a step away rounds back to it; a whole step is not.
    assert!(survives(Some(3), 128.0 / 255.0, 0x80));
    assert!(survives(Some(3), 128.3 / 255.0, 0x80));
    assert!(!survives(Some(3), 129.0 / 255.0, 0x80));
    // Alphas outside [0, 1] count as 0 and 255.
    assert!(!survives(Some(2), -0.5, 0));
    assert!(!survives(Some(5), 1.5, 0xff));
    assert!(survives(Some(3), 1.5, 0xff));
    // A reference past 255 is 255.
    assert!(survives(Some(3), 1.0, 0x100));
    assert!(!survives(Some(1), 0.5, 0x80));
    assert!(survives(Some(8), 0.5, 0x80));
    assert!(survives(None, 0.5, 0x80));
}
