//! Vertex-shader behaviours beyond single instructions, on the GPU (lavapipe is enough)
//! through [`Harness::vertex_outputs`], each against a CPU reference written from the SDK's
//! definitions: `_sat` on vs_3_0 arithmetic and the `_abs` source modifier; nested `loop`s
//! (the outer `aL` comes back after the inner loop) and `aL`-relative `v#`/`o#` (reads past
//! the register file give 0, writes past it are dropped); `if p0.x` / `if !p0.y` and
//! predicated writes per component; and the outputs as the pixel stage receives them (the
//! defaults of outputs never written, `oFog`, `oPts`, `oD1`, pre-3.0 colour clamping).
//!
//! Tolerance: every expectation here is exact (`f32` equality, `+0 == -0`). The inputs are
//! small integers, halves and quarters, so every sum and product is exact in `f32` and no
//! rounding rule is involved.
//!
//! GPU tests fail, not skip, when no adapter exists (unless `D3D9_ALLOW_NO_GPU=1`).

use std::error::Error;

use d3d9_backend::device::VertexConstants;
use d3d9_backend::Gpu;
use d3d9_harness::{Harness, OutputValues, ShaderStage, VertexBuffer, VertexProbe};
use d3d9_translator::asm::assemble;
use d3d9_translator::bytecode::{Stage, Usage};
use d3d9_translator::check::{check, DeviceCaps};
use d3d9_translator::lift::{
    translate_vertex_shader, TranslatedShader, Varying, VertexShaderOptions,
};
use d3d9_translator::signature::Semantic;

type TestResult = Result<(), Box<dyn Error>>;
/// One vertex's inputs: `v0..v15`.
type Regs = [[f32; 4]; 16];

/// Assemble, check against the default (hardware, vs_3_0) device and lift.
fn translate(
    text: &str,
    options: &VertexShaderOptions,
) -> Result<TranslatedShader, Box<dyn Error>> {
    let program = assemble(text).map_err(|e| format!("{e}\n{text}"))?;
    let checked = check(&program, Stage::Vertex, &DeviceCaps::default())
        .map_err(|e| format!("{e}\n{text}"))?;
    Ok(translate_vertex_shader(&checked, options)?)
}

/// Run `shader` once per vertex of `vertices` (`v#n` read from `vertices[k][n]`).
fn run(
    gpu: &Gpu,
    shader: &TranslatedShader,
    constants: &VertexConstants,
    vertices: &[Regs],
) -> Result<Vec<OutputValues>, Box<dyn Error>> {
    let iface = &shader.interface;
    let buffers = constants.buffers(iface, (1, 1))?;
    let uniforms: Vec<_> = buffers.iter().map(d3d9_harness::Uniform::from).collect();
    let attributes: Vec<wgpu::VertexAttribute> = iface
        .inputs
        .iter()
        .filter_map(|i| {
            Some(wgpu::VertexAttribute {
                format: wgpu::VertexFormat::Float32x4,
                offset: 16 * u64::from(i.register),
                shader_location: i.location?,
            })
        })
        .collect();
    let one = [[[0.0; 4]; 16]];
    let vertices = if vertices.is_empty() {
        &one[..]
    } else {
        vertices
    };
    let vertex_buffers = [VertexBuffer {
        layout: wgpu::VertexBufferLayout {
            array_stride: 16 * 16,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &attributes,
        },
        data: bytemuck::cast_slice(vertices),
    }];
    let vertex_buffers: &[VertexBuffer<'_>] = if attributes.is_empty() {
        &[]
    } else {
        &vertex_buffers
    };
    Ok(gpu.vertex_outputs(&VertexProbe {
        vertex_buffers,
        uniforms: &uniforms,
        ..VertexProbe::new(ShaderStage::naga(&shader.module), vertices.len() as u32)
    })?)
}

/// The value of the output with `semantic` at `vertex`.
fn output(
    shader: &TranslatedShader,
    outputs: &[OutputValues],
    vertex: usize,
    semantic: Semantic,
) -> Result<Vec<f32>, Box<dyn Error>> {
    let location = shader
        .interface
        .output(semantic)
        .and_then(|o| o.location)
        .ok_or(format!("no {semantic} output"))?;
    Ok(outputs
        .get(vertex)
        .and_then(|o| o.get(&location))
        .ok_or(format!("vertex {vertex}: nothing at location {location}"))?
        .clone())
}

fn texcoord(k: u8) -> Semantic {
    Semantic::new(Usage::TexCoord, k)
}

/// Collects mismatches so one run reports every wrong value; `f32` equality is exact.
#[derive(Default)]
struct Report(Vec<String>);

impl Report {
    fn check(&mut self, what: &str, got: &[f32], want: &[f32]) {
        if got != want {
            self.0.push(format!("{what}: got {got:?}, want {want:?}"));
        }
    }

    fn finish(self) {
        assert!(
            self.0.is_empty(),
            "{} mismatches:\n{}",
            self.0.len(),
            self.0.join("\n")
        );
    }
}

fn regs(values: &[(usize, [f32; 4])]) -> Regs {
    let mut r = [[0.0; 4]; 16];
    for &(n, v) in values {
        r[n] = v;
    }
    r
}

fn map2(a: [f32; 4], b: [f32; 4], f: impl Fn(f32, f32) -> f32) -> [f32; 4] {
    std::array::from_fn(|k| f(a[k], b[k]))
}

/// `_sat` (SDK: clamp the result to [0, 1]).
fn sat(x: [f32; 4]) -> [f32; 4] {
    x.map(|v| v.clamp(0.0, 1.0))
}

/// vs_3_0 allows `_sat` on arithmetic results, and `_abs` (|x|, then negation for `-x_abs`)
/// on sources, c# included.
#[test]
fn gpu_sat_results_and_abs_sources_in_vs_3_0() -> TestResult {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    let text = "vs_3_0
dcl_position o0
dcl_texcoord0 o1
dcl_texcoord1 o2
dcl_texcoord2 o3
dcl_texcoord3 o4
dcl_texcoord0 v0
dcl_texcoord1 v1
def c95, 0.0, 0.0, 0.5, 1.0
mov o0, c95
mov r1, v1
add_sat o1, v0, c0
mad_sat r2, r1, c1, v0
mov o2, r2
add o3, v0_abs, -r1_abs
mul_sat o4, c2_abs, r1
";
    let shader = translate(text, &VertexShaderOptions::default())?;
    let c = [
        [0.25, -0.5, 0.75, 2.0],
        [2.0, -1.0, 0.5, 4.0],
        [-0.5, 0.25, -2.0, 1.0],
    ];
    let mut constants = VertexConstants::default();
    constants.set_f(0, &c);
    let vertices = [
        regs(&[(0, [0.5, 0.25, -2.0, -0.75]), (1, [-0.25, 0.5, 1.5, -0.5])]),
        regs(&[(0, [-1.5, 3.0, 0.125, 0.0]), (1, [1.0, -3.0, 0.0, 0.25])]),
    ];
    let outputs = run(&gpu, &shader, &constants, &vertices)?;
    let mut report = Report::default();
    for (k, v) in vertices.iter().enumerate() {
        let (v0, v1) = (v[0], v[1]);
        let abs = |x: [f32; 4]| x.map(f32::abs);
        let want = [
            sat(map2(v0, c[0], |a, b| a + b)),
            sat(std::array::from_fn(|i| v1[i] * c[1][i] + v0[i])),
            map2(abs(v0), abs(v1), |a, b| a - b),
            sat(map2(abs(c[2]), v1, |a, b| a * b)),
        ];
        for (t, want) in (0u8..).zip(want) {
            let got = output(&shader, &outputs, k, texcoord(t))?;
            report.check(&format!("vertex {k} texcoord{t}"), &got, &want);
        }
    }
    report.finish();
    Ok(())
}

/// Nested `loop aL`: the inner loop has its own aL, and the outer aL is back after `endloop`
/// (SDK: each loop pushes aL). Outer i0 = (3, 1, 2): aL = 1, 3, 5; inner i1 = (2, 10, 1):
/// aL = 10, 11.
#[test]
fn gpu_nested_loops_restore_the_outer_al() -> TestResult {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    let text = "vs_3_0
dcl_position o0
dcl_texcoord0 o1
dcl_texcoord1 o2
dcl_texcoord2 o3
def c95, 0.0, 0.0, 0.5, 1.0
def c93, 0.0, 0.0, 0.0, 0.0
defi i0, 3, 1, 2, 0
defi i1, 2, 10, 1, 0
mov o0, c95
mov r0, c93
mov r1, c93
mov r2, c93
loop aL, i0
add r0, r0, c0[aL]
loop aL, i1
add r1, r1, c0[aL]
endloop
add r2, r2, c20[aL]
endloop
mov o1, r0
mov o2, r1
mov o3, r2
";
    let shader = translate(text, &VertexShaderOptions::default())?;
    let value = |n: i32| {
        let x = n as f32;
        [x, 2.0 * x, -x, 0.5 + x]
    };
    let values: Vec<[f32; 4]> = (0..40).map(value).collect();
    let mut constants = VertexConstants::default();
    constants.set_f(0, &values);
    let outputs = run(&gpu, &shader, &constants, &[])?;
    // The reference: the loops as the SDK states them, aL pushed and popped.
    let (mut r0, mut r1, mut r2) = ([0.0f32; 4], [0.0f32; 4], [0.0f32; 4]);
    for outer in (0..3).map(|i| 1 + 2 * i) {
        r0 = map2(r0, value(outer), |a, b| a + b);
        for inner in (0..2).map(|i| 10 + i) {
            r1 = map2(r1, value(inner), |a, b| a + b);
        }
        r2 = map2(r2, value(20 + outer), |a, b| a + b);
    }
    let mut report = Report::default();
    for (t, want) in (0u8..).zip([r0, r1, r2]) {
        let got = output(&shader, &outputs, 0, texcoord(t))?;
        report.check(&format!("texcoord{t}"), &got, &want);
    }
    // Were aL not restored, the outer adds after the inner loop would read c31 (aL = 11).
    assert_ne!(r2, map2(value(31), value(31), |a, b| a + 2.0 * b));
    report.finish();
    Ok(())
}

/// `v0[aL]` and `o1[aL]` in vs_3_0: a loop counting aL = 3, 2, 1, 0 sums v3..v0 and writes
/// each partial sum to `o#[aL + 1]`.
#[test]
fn gpu_al_relative_inputs_and_outputs() -> TestResult {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    let text = "vs_3_0
dcl_position o0
dcl_texcoord0 o1
dcl_texcoord1 o2
dcl_texcoord2 o3
dcl_texcoord3 o4
dcl_texcoord0 v0
dcl_texcoord1 v1
dcl_texcoord2 v2
dcl_texcoord3 v3
def c95, 0.0, 0.0, 0.5, 1.0
def c93, 0.0, 0.0, 0.0, 0.0
defi i0, 4, 3, -1, 0
mov o0, c95
mov r0, c93
loop aL, i0
add r0, r0, v0[aL]
mov o1[aL], r0
endloop
";
    let shader = translate(text, &VertexShaderOptions::default())?;
    let v = [
        [1.0, 2.0, 3.0, 4.0],
        [10.0, 20.0, 30.0, 40.0],
        [100.0, 200.0, 300.0, 400.0],
        [0.5, 0.25, -1.0, -2.0],
    ];
    let vertex = regs(&[(0, v[0]), (1, v[1]), (2, v[2]), (3, v[3])]);
    let outputs = run(&gpu, &shader, &VertexConstants::default(), &[vertex])?;
    let mut report = Report::default();
    let mut sum = [0.0f32; 4];
    for al in (0..4).rev() {
        sum = map2(sum, v[al], |a, b| a + b);
        let got = output(&shader, &outputs, 0, texcoord(al as u8))?;
        report.check(&format!("o{} (aL = {al})", al + 1), &got, &sum);
    }
    report.finish();
    Ok(())
}

/// Past the end of the register files (v0..v15, o0..o11 in vs_3_0): `v15[aL]` with aL = 0..3
/// reads v15 and then zeros, and `o10[aL]` writes o10, o11 and drops the rest, leaving the
/// other outputs as written.
#[test]
fn gpu_al_relative_access_past_the_end() -> TestResult {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    let text = "vs_3_0
dcl_position o0
dcl_texcoord0 o1
dcl_texcoord1 o10
dcl_texcoord2 o11
dcl_texcoord3 o2
dcl_texcoord0 v14
dcl_texcoord1 v15
def c95, 0.0, 0.0, 0.5, 1.0
def c93, 0.0, 0.0, 0.0, 0.0
def c94, 1.0, 2.0, 3.0, 4.0
defi i0, 4, 0, 1, 0
mov o0, c95
mov o1, c94
mov r0, c93
mov r1, v14
loop aL, i0
add r0, r0, v15[aL]
mov o10[aL], r0
endloop
add o2, r0, r1
";
    let shader = translate(text, &VertexShaderOptions::default())?;
    let (v14, v15) = ([7.0, 8.0, 9.0, 10.0], [0.5, -1.5, 2.0, 16.0]);
    let vertex = regs(&[(14, v14), (15, v15)]);
    let outputs = run(&gpu, &shader, &VertexConstants::default(), &[vertex])?;
    let mut report = Report::default();
    // aL = 0 reads v15; aL = 1, 2, 3 read v16, v17, v18: past the end, zero.
    let sum = v15;
    report.check(
        "o10 (aL = 0)",
        &output(&shader, &outputs, 0, texcoord(1))?,
        &sum,
    );
    report.check(
        "o11 (aL = 1)",
        &output(&shader, &outputs, 0, texcoord(2))?,
        &sum,
    );
    // o12 and o13 do not exist: those writes are dropped, o1 keeps its value.
    report.check(
        "o1",
        &output(&shader, &outputs, 0, texcoord(0))?,
        &[1.0, 2.0, 3.0, 4.0],
    );
    report.check(
        "o2 = sum + v14",
        &output(&shader, &outputs, 0, texcoord(3))?,
        &map2(sum, v14, |a, b| a + b),
    );
    report.finish();
    Ok(())
}

/// `setp_gt p0, v0, c0` per component, then `if p0.x`, `if !p0.y`, a whole-register
/// predicate `(p0)`, a swizzled one on a partial mask `(p0.wzyx) add r3.xy` (component x
/// uses p0.w, y uses p0.z; z and w are not written), and `(!p0.y) mov r4.xz`.
#[test]
fn gpu_predicates_per_component() -> TestResult {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    let text = "vs_3_0
dcl_position o0
dcl_texcoord0 o1
dcl_texcoord1 o2
dcl_texcoord2 o3
dcl_texcoord3 o4
dcl_texcoord4 o5
dcl_texcoord0 v0
dcl_texcoord1 v1
def c95, 0.0, 0.0, 0.5, 1.0
def c93, 0.0, 0.0, 0.0, 0.0
def c94, 100.0, 200.0, 300.0, 400.0
mov o0, c95
setp_gt p0, v0, c0
if p0.x
mov r0, c1
else
mov r0, c2
endif
if !p0.y
mov r1, c1
else
mov r1, c2
endif
mov r2, c93
(p0) mov r2, v1
mov r3, c94
(p0.wzyx) add r3.xy, r3, v1
mov r4, c94
(!p0.y) mov r4.xz, v1
mov o1, r0
mov o2, r1
mov o3, r2
mov o4, r3
mov o5, r4
";
    let shader = translate(text, &VertexShaderOptions::default())?;
    let c = [
        [0.0, 0.0, 0.0, 0.0],
        [1.0, 1.0, 1.0, 1.0],
        [2.0, 2.0, 2.0, 2.0],
    ];
    let mut constants = VertexConstants::default();
    constants.set_f(0, &c);
    let v1 = [0.5, 1.5, 2.5, 3.5];
    let patterns = [
        [1.0, -1.0, 1.0, -1.0],
        [-1.0, 1.0, -1.0, 1.0],
        [1.0, 1.0, -1.0, -1.0],
        [-1.0, -1.0, 1.0, 1.0],
        [0.0, 2.0, 0.0, 2.0],
    ];
    let vertices: Vec<Regs> = patterns.iter().map(|&p| regs(&[(0, p), (1, v1)])).collect();
    let outputs = run(&gpu, &shader, &constants, &vertices)?;
    let mut report = Report::default();
    for (k, v0) in patterns.iter().enumerate() {
        // setp_gt (SDK): p0.i = v0.i > c0.i.
        let p: [bool; 4] = std::array::from_fn(|i| v0[i] > c[0][i]);
        let r0 = if p[0] { c[1] } else { c[2] };
        let r1 = if !p[1] { c[1] } else { c[2] };
        let r2: [f32; 4] = std::array::from_fn(|i| if p[i] { v1[i] } else { 0.0 });
        let base = [100.0, 200.0, 300.0, 400.0];
        let swizzle = [3, 2, 1, 0];
        let r3: [f32; 4] = std::array::from_fn(|i| {
            if i < 2 && p[swizzle[i]] {
                base[i] + v1[i]
            } else {
                base[i]
            }
        });
        let r4: [f32; 4] = std::array::from_fn(|i| {
            if (i == 0 || i == 2) && !p[1] {
                v1[i]
            } else {
                base[i]
            }
        });
        for (t, want) in (0u8..).zip([r0, r1, r2, r3, r4]) {
            let got = output(&shader, &outputs, k, texcoord(t))?;
            report.check(&format!("vertex {k} (v0 = {v0:?}) o{}", t + 1), &got, &want);
        }
    }
    report.finish();
    Ok(())
}

/// With an output map (as linking with a pixel shader gives), outputs the shader never
/// writes carry their defaults: COLOR0 = (1, 1, 1, 1), COLOR1 = (0, 0, 0, 1), TEXCOORD = 0,
/// and FOG = 0 (fully fogged, as Windows, Wine and DXVK give: `Semantic::unwritten_value`). The written
/// TEXCOORD0 arrives as written, at the location the map gives.
#[test]
fn gpu_unwritten_outputs_read_their_defaults() -> TestResult {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    let text = "vs_2_0
dcl_texcoord0 v0
def c95, 0.0, 0.0, 0.5, 1.0
mov oPos, c95
mov oT0, v0
";
    let map = |usage, index, location, components| {
        Varying::new(Semantic::new(usage, index), location, components)
    };
    let options = VertexShaderOptions {
        output_locations: Some(vec![
            map(Usage::Color, 0, 3, 4),
            map(Usage::Color, 1, 0, 4),
            map(Usage::Fog, 0, 5, 1),
            map(Usage::TexCoord, 0, 1, 4),
            map(Usage::TexCoord, 5, 2, 4),
        ]),
        ..Default::default()
    };
    let shader = translate(text, &options)?;
    let v0 = [0.25, -3.0, 1.5, 8.0];
    let outputs = run(
        &gpu,
        &shader,
        &VertexConstants::default(),
        &[regs(&[(0, v0)])],
    )?;
    let at = |location: u32| outputs[0].get(&location).cloned().unwrap_or_default();
    let mut report = Report::default();
    report.check("COLOR0 @3", &at(3), &[1.0, 1.0, 1.0, 1.0]);
    report.check("COLOR1 @0", &at(0), &[0.0, 0.0, 0.0, 1.0]);
    report.check("FOG @5", &at(5), &[0.0]);
    report.check("TEXCOORD0 @1", &at(1), &v0);
    report.check("TEXCOORD5 @2", &at(2), &[0.0; 4]);
    assert_eq!(outputs[0].len(), 5, "{:?}", outputs[0]);
    report.finish();
    Ok(())
}

/// What the pixel stage receives from a vs_2_0 shader: `oD0`/`oD1` clamped to [0, 1] (the
/// pre-3.0 colour rule), `oFog` and `oPts` as written (x component); and from vs_3_0, colours
/// unclamped.
#[test]
fn gpu_fog_point_size_and_colours_as_the_pixel_stage_sees_them() -> TestResult {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    let text = "vs_2_0
dcl_texcoord0 v0
dcl_texcoord1 v1
def c95, 0.0, 0.0, 0.5, 1.0
mov oPos, c95
mov r1, v1
mov oD0, v0
add oD1, r1, c0
mov oFog, r1.y
mov oPts, r1.z
";
    let shader = translate(text, &VertexShaderOptions::default())?;
    let c0 = [0.5, 0.5, -0.25, 0.75];
    let mut constants = VertexConstants::default();
    constants.set_f(0, &[c0]);
    let vertices = [
        regs(&[(0, [-0.5, 0.25, 1.5, 2.0]), (1, [0.25, 0.375, 4.0, 0.0])]),
        regs(&[(0, [1.0, 0.0, 0.75, -8.0]), (1, [-1.0, 0.5, 32.0, 0.5])]),
    ];
    let outputs = run(&gpu, &shader, &constants, &vertices)?;
    let mut report = Report::default();
    for (k, v) in vertices.iter().enumerate() {
        let (v0, v1) = (v[0], v[1]);
        let color = |u| Semantic::new(Usage::Color, u);
        report.check(
            &format!("vertex {k} oD0"),
            &output(&shader, &outputs, k, color(0))?,
            &sat(v0),
        );
        report.check(
            &format!("vertex {k} oD1"),
            &output(&shader, &outputs, k, color(1))?,
            &sat(map2(v1, c0, |a, b| a + b)),
        );
        report.check(
            &format!("vertex {k} oFog"),
            &output(&shader, &outputs, k, Semantic::new(Usage::Fog, 0))?,
            &[v1[1]],
        );
        report.check(
            &format!("vertex {k} oPts"),
            &output(&shader, &outputs, k, Semantic::new(Usage::PSize, 0))?,
            &[v1[2]],
        );
    }
    assert!(shader.interface.writes_point_size);

    let text3 = "vs_3_0
dcl_position o0
dcl_color0 o1
dcl_color1 o2
dcl_texcoord0 v0
def c95, 0.0, 0.0, 0.5, 1.0
mov o0, c95
mov o1, v0
mov o2, -v0
";
    let shader3 = translate(text3, &VertexShaderOptions::default())?;
    let v0 = [-0.5, 0.25, 1.5, 2.0];
    let outputs3 = run(
        &gpu,
        &shader3,
        &VertexConstants::default(),
        &[regs(&[(0, v0)])],
    )?;
    report.check(
        "vs_3_0 COLOR0 unclamped",
        &output(&shader3, &outputs3, 0, Semantic::new(Usage::Color, 0))?,
        &v0,
    );
    report.check(
        "vs_3_0 COLOR1 unclamped",
        &output(&shader3, &outputs3, 0, Semantic::new(Usage::Color, 1))?,
        &v0.map(|x| -x),
    );
    report.finish();
    Ok(())
}
