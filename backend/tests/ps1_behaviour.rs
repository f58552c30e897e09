//! GPU tests of ps_1_1–ps_1_4 translation: source modifiers, result shifts, the value range,
//! co-issue, `cnd`, `dp3`, and representative texture-addressing instructions (`texbem`,
//! `texbeml`, `texm3x2tex`, `texreg2ar`), each drawn on lavapipe into an `Rgba32Float`
//! target and compared with values computed on the CPU from the SDK's definitions.
//!
//! The pixel shader is assembled, checked and lifted; a small WGSL vertex stage covers the
//! target with a triangle whose every vertex carries the same input values, at the locations
//! the pixel shader's interface names, so each input arrives exactly. Constants, the
//! bump-environment uniform and the textures are bound where the interface says, through
//! the backend's `Draw` API. Textures are point-sampled with coordinates inside texels.
//! `r0` is written unsaturated (`PixelShaderOptions::ps1_unsaturated_output`) so the register
//! values, not D3D9's [0, 1] colour output, are compared; `gpu_ps1_colour_output_is_saturated`
//! checks the output rule itself.
//!
//! GPU tests fail, not skip, when no adapter exists (unless `D3D9_ALLOW_NO_GPU=1`).

#[path = "../../translator/tests/common/mod.rs"]
mod common;

use std::error::Error;

use d3d9_backend::Gpu;
use d3d9_harness::{Draw, Harness, SamplerBinding, ShaderStage, Target, TextureBinding, Uniform};
use d3d9_translator::asm::assemble;
use d3d9_translator::bytecode::{decode, Program, RegisterFile, Stage, TextureType};
use d3d9_translator::check::{check, DeviceCaps};
use d3d9_translator::lift::interface::{sampler_binding, texture_binding};
use d3d9_translator::lift::{translate_pixel_shader, PixelShaderOptions, Ps1Range};

type TestResult = Result<(), Box<dyn Error>>;
type V4 = [f32; 4];
/// A modifier as written and its SDK definition.
type ModifierCase = (&'static str, fn(f32) -> f32);

/// A 2D `Rgba32Float` texture bound to a stage.
struct Tex {
    stage: u32,
    width: u32,
    height: u32,
    /// A 1x1 cube map (six texels, faces +X, -X, +Y, -Y, +Z, -Z) instead of a 2D texture.
    cube: bool,
    texels: Vec<V4>,
}

impl Tex {
    /// The texel a point sample at (u, v) with WRAP addressing reads.
    fn at(&self, u: f32, v: f32) -> V4 {
        let wrap = |c: f32, n: u32| ((c - c.floor()) * n as f32).floor() as usize % n as usize;
        let x = wrap(u, self.width);
        let y = wrap(v, self.height);
        self.texels[y * self.width as usize + x]
    }
}

/// A 4x4 texture whose texel (x, y) is (x / 4, y / 4, 0.5, 1), bound to `stage`.
fn grid(stage: u32) -> Tex {
    let mut texels = Vec::new();
    for y in 0..4 {
        for x in 0..4 {
            texels.push([x as f32 / 4.0, y as f32 / 4.0, 0.5, 1.0]);
        }
    }
    Tex {
        stage,
        width: 4,
        height: 4,
        cube: false,
        texels,
    }
}

/// A 1x1 texture of one texel.
fn solid(stage: u32, texel: V4) -> Tex {
    Tex {
        stage,
        width: 1,
        height: 1,
        cube: false,
        texels: vec![texel],
    }
}

/// A 1x1 cube map whose face k (+X, -X, +Y, -Y, +Z, -Z) is (k / 8, 0.25, 0.5, 1).
fn faces(stage: u32) -> Tex {
    Tex {
        stage,
        width: 1,
        height: 1,
        cube: true,
        texels: (0..6).map(|k| [k as f32 / 8.0, 0.25, 0.5, 1.0]).collect(),
    }
}

/// The face a cube-map direction selects: its largest-magnitude component and sign.
fn face_of(d: [f32; 3]) -> usize {
    let a = d.map(f32::abs);
    let axis = if a[0] >= a[1] && a[0] >= a[2] {
        0
    } else if a[1] >= a[2] {
        1
    } else {
        2
    };
    2 * axis + usize::from(d[axis] < 0.0)
}

/// What one draw of a ps_1_x shader is fed.
#[derive(Default)]
struct Inputs {
    /// `v#` / `t#` values, by register.
    registers: Vec<(RegisterFile, u32, V4)>,
    /// `c0`, `c1`, … (as the application sets them: the shader clamps them).
    constants: Vec<V4>,
    /// Per stage: (M00, M01, M10, M11), (LSCALE, LOFFSET).
    bump_env: Vec<(u32, V4, [f32; 2])>,
    textures: Vec<Tex>,
    range: Ps1Range,
    /// `D3DTSS_TEXTURETRANSFORMFLAGS` per stage.
    transform_flags: Vec<u32>,
    /// Write `r0` saturated, as D3D9 does (the other tests observe the register itself).
    saturated_output: bool,
}

impl Inputs {
    /// `texture_types`: cube for the stages bound to a cube map, else 2D.
    fn texture_types(&self) -> Vec<TextureType> {
        (0..8)
            .map(|stage| {
                if self.textures.iter().any(|t| t.stage == stage && t.cube) {
                    TextureType::Cube
                } else {
                    TextureType::TwoD
                }
            })
            .collect()
    }
}

/// Translate `text`, draw it over a 4x4 `Rgba32Float` target, and return pixel (1, 1).
fn run(text: &str, inputs: &Inputs) -> Result<Option<V4>, Box<dyn Error>> {
    run_program(&assemble(text)?, inputs)
}

/// [`run`] for a decoded program.
fn run_program(program: &Program, inputs: &Inputs) -> Result<Option<V4>, Box<dyn Error>> {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(None);
    };
    let checked = check(program, Stage::Pixel, &DeviceCaps::default())?;
    let options = PixelShaderOptions {
        ps1_range: inputs.range,
        texture_types: inputs.texture_types(),
        ps1_texture_transform_flags: inputs.transform_flags.clone(),
        // The register range is what these tests observe, through an Rgba32Float target.
        ps1_unsaturated_output: !inputs.saturated_output,
        ..Default::default()
    };
    let t = translate_pixel_shader(&checked, &options)?;

    // The vertex stage: every input the pixel shader reads, at its location.
    let mut members = String::new();
    let mut values = String::new();
    for input in &t.interface.pixel_inputs {
        let Some(varying) = input.varying else {
            continue;
        };
        let v = inputs
            .registers
            .iter()
            .find(|(f, n, _)| *f == input.register.file && *n == input.register.index)
            .map_or([0.0; 4], |r| r.2);
        members.push_str(&format!(
            ", @location({}) v{}: vec4<f32>",
            varying.location, varying.location
        ));
        values.push_str(&format!(
            ", vec4<f32>({:?}, {:?}, {:?}, {:?})",
            v[0], v[1], v[2], v[3]
        ));
    }
    let vs = format!(
        "struct VsOut {{ @builtin(position) position: vec4<f32>{members} }}\n\
         @vertex fn main(@builtin(vertex_index) i: u32) -> VsOut {{\n\
             let xy = vec2<f32>(f32(i & 1u) * 4.0 - 1.0, f32(i >> 1u) * 4.0 - 1.0);\n\
             return VsOut(vec4<f32>(xy, 0.0, 1.0){values});\n\
         }}\n"
    );

    let mut uniform_data: Vec<(u32, u32, Vec<f32>)> = Vec::new();
    if let Some(c) = t.interface.float_constants {
        let mut data = vec![0.0f32; 4 * (c.registers as usize + 1)];
        for (i, v) in inputs.constants.iter().enumerate() {
            if let Some(slot) = data.get_mut(4 * i..4 * i + 4) {
                slot.copy_from_slice(v);
            }
        }
        uniform_data.push((c.group, c.binding, data));
    }
    if let Some(b) = t.interface.bump_env {
        let mut data = vec![0.0f32; 4 * 16];
        for &(stage, m, [scale, offset]) in &inputs.bump_env {
            let i = 8 * stage as usize;
            data[i..i + 4].copy_from_slice(&m);
            data[i + 4] = scale;
            data[i + 5] = offset;
        }
        uniform_data.push((b.group, b.binding, data));
    }
    let uniforms: Vec<Uniform<'_>> = uniform_data
        .iter()
        .map(|(g, b, d)| Uniform::new(*g, *b, bytemuck::cast_slice(d)))
        .collect();

    let bytes: Vec<Vec<u8>> = inputs
        .textures
        .iter()
        .map(|t| bytemuck::cast_slice(&t.texels).to_vec())
        .collect();
    let levels: Vec<[&[u8]; 1]> = bytes.iter().map(|b| [b.as_slice()]).collect();
    let mut textures = Vec::new();
    let mut samplers = Vec::new();
    for s in &t.interface.samplers {
        let Some(k) = inputs.textures.iter().position(|x| x.stage == s.register) else {
            return Err(format!("no texture for stage {}", s.register).into());
        };
        let tex = &inputs.textures[k];
        assert_eq!(s.texture_binding, texture_binding(s.register));
        assert_eq!(s.sampler_binding, sampler_binding(s.register));
        textures.push(if tex.cube {
            TextureBinding::cube(
                s.group,
                s.texture_binding,
                wgpu::TextureFormat::Rgba32Float,
                tex.width,
                &levels[k],
            )
        } else {
            TextureBinding::two_d(
                s.group,
                s.texture_binding,
                wgpu::TextureFormat::Rgba32Float,
                tex.width,
                tex.height,
                &levels[k],
            )
        });
        samplers.push(SamplerBinding::new(s.group, s.sampler_binding));
    }

    let image = gpu.render(&Draw {
        uniforms: &uniforms,
        textures: &textures,
        samplers: &samplers,
        ..Draw::new(
            ShaderStage::wgsl(&vs),
            ShaderStage::naga(&t.module),
            3,
            Target::rgba32f(4, 4),
        )
    })?;
    Ok(image.rgba32f(1, 1))
}

/// Assert a drawn value equals `expected` within float rounding of the GPU's arithmetic.
fn assert_close(got: Option<V4>, expected: V4, what: &str) {
    let Some(got) = got else {
        return; // no adapter, allowed by D3D9_ALLOW_NO_GPU
    };
    for c in 0..4 {
        assert!(
            (got[c] - expected[c]).abs() <= 1e-5,
            "{what}: got {got:?}, expected {expected:?}"
        );
    }
}

fn map(v: V4, f: impl Fn(f32) -> f32) -> V4 {
    [f(v[0]), f(v[1]), f(v[2]), f(v[3])]
}

/// The ps_1_4 texture coordinate the modifier and shift tests start from: outside [0, 1]
/// and inside the ps_1_4 range ±8.
const T0: V4 = [2.5, -3.0, 0.75, -0.25];

fn t0_inputs() -> Inputs {
    Inputs {
        registers: vec![(RegisterFile::Texture, 0, T0)],
        ..Default::default()
    }
}

#[test]
fn gpu_ps1_source_modifiers() -> TestResult {
    // SDK: _bias x - 0.5; _bx2 2x - 1; 1-x; _x2 2x; negation after the modifier. Results
    // within ±8 (ps_1_4's range).
    let clamp8 = |x: f32| x.clamp(-8.0, 8.0);
    let cases: [ModifierCase; 8] = [
        ("r1", |x| x),
        ("-r1", |x| -x),
        ("r1_bias", |x| x - 0.5),
        ("-r1_bias", |x| -(x - 0.5)),
        ("r1_bx2", |x| 2.0 * x - 1.0),
        ("-r1_bx2", |x| -(2.0 * x - 1.0)),
        ("1-r1", |x| 1.0 - x),
        ("r1_x2", |x| 2.0 * x),
    ];
    for (src, f) in cases {
        let text = format!("ps_1_4\ntexcrd r1, t0\nmov r0, {src}\n");
        let got = run(&text, &t0_inputs())?;
        assert_close(got, map(T0, |x| clamp8(f(x))), &text);
    }
    // -r1_x2 (ps_1_4).
    let got = run("ps_1_4\ntexcrd r1, t0\nmov r0, -r1_x2\n", &t0_inputs())?;
    assert_close(got, map(T0, |x| clamp8(-2.0 * x)), "-r1_x2");
    Ok(())
}

#[test]
fn gpu_ps1_result_shifts_apply_before_saturation() -> TestResult {
    let clamp8 = |x: f32| x.clamp(-8.0, 8.0);
    for (suffix, k) in [
        ("_x2", 2.0),
        ("_x4", 4.0),
        ("_x8", 8.0),
        ("_d2", 0.5),
        ("_d4", 0.25),
        ("_d8", 0.125),
    ] {
        let text = format!("ps_1_4\ntexcrd r1, t0\nmov{suffix} r0, r1\n");
        let got = run(&text, &t0_inputs())?;
        assert_close(got, map(T0, |x| clamp8(x * k)), &text);
        let text = format!("ps_1_4\ntexcrd r1, t0\nmov{suffix}_sat r0, r1\n");
        let got = run(&text, &t0_inputs())?;
        assert_close(got, map(T0, |x| (x * k).clamp(0.0, 1.0)), &text);
    }
    Ok(())
}

/// D3D9's ps_1_x colour output is [0, 1] whatever the register range: `r0` of (1.75, -0.75,
/// 0.25, 1.5) (ps_1_4, range ±8) reaches a float target as (1, 0, 0.25, 1).
#[test]
fn gpu_ps1_colour_output_is_saturated() -> TestResult {
    let inputs = Inputs {
        registers: vec![(RegisterFile::Texture, 0, [1.75, -0.75, 0.25, 1.5])],
        saturated_output: true,
        ..Default::default()
    };
    let got = run("ps_1_4\ntexcrd r0, t0\n", &inputs)?;
    assert_close(got, [1.0, 0.0, 0.25, 1.0], "saturated output");
    let got = run(
        "ps_1_4\ntexcrd r0, t0\n",
        &Inputs {
            saturated_output: false,
            ..inputs
        },
    )?;
    assert_close(got, [1.75, -0.75, 0.25, 1.5], "the register itself");
    Ok(())
}

#[test]
fn gpu_ps1_range_clamp_follows_the_option() -> TestResult {
    // add r0, c0, c0 with c0 within [-1, 1]: ±1 on ps_1_1 hardware, ±1.25 with Max(1.25),
    // nothing when unclamped.
    let c0 = [0.75, -0.75, 0.25, 1.0];
    let text = "ps_1_1\nadd r0, c0, c0\n";
    for (range, m) in [
        (Ps1Range::Hardware, 1.0f32),
        (Ps1Range::Max(1.25), 1.25),
        (Ps1Range::Unclamped, f32::MAX),
    ] {
        let inputs = Inputs {
            constants: vec![c0],
            range,
            ..Default::default()
        };
        let got = run(text, &inputs)?;
        assert_close(
            got,
            map(c0, |x| (2.0 * x).clamp(-m, m)),
            &format!("{range:?}"),
        );
    }
    // ps_1_4 hardware: ±8.
    let big = [20.0, -20.0, 3.0, 0.5];
    let inputs = Inputs {
        registers: vec![(RegisterFile::Texture, 0, big)],
        ..Default::default()
    };
    let got = run("ps_1_4\ntexcrd r0, t0\n", &inputs)?;
    assert_close(got, [8.0, -8.0, 3.0, 0.5], "ps_1_4 range");
    // Constants read within [-1, 1] whatever the range; colours arrive within [0, 1].
    let inputs = Inputs {
        constants: vec![[3.0, -3.0, 0.5, -0.5]],
        range: Ps1Range::Unclamped,
        ..Default::default()
    };
    let got = run("ps_1_1\nmov r0, c0\n", &inputs)?;
    assert_close(got, [1.0, -1.0, 0.5, -0.5], "constant clamp");
    let inputs = Inputs {
        registers: vec![(RegisterFile::Input, 0, [1.5, -0.5, 0.25, 2.0])],
        range: Ps1Range::Unclamped,
        ..Default::default()
    };
    let got = run("ps_1_1\nmov r0, v0\n", &inputs)?;
    assert_close(got, [1.0, 0.0, 0.25, 1.0], "colour clamp");
    Ok(())
}

#[test]
fn gpu_ps1_coissued_pair_reads_before_either_writes() -> TestResult {
    // The alpha instruction reads r0.b as it was before the colour instruction wrote it.
    let c0 = [0.5, 0.25, 0.125, 0.0];
    let inputs = Inputs {
        registers: vec![(RegisterFile::Texture, 0, T0)],
        constants: vec![c0],
        ..Default::default()
    };
    let got = run(
        "ps_1_4\ntexcrd r0, t0\nadd r0.rgb, r0, c0\n+mov r0.a, r0.b\n",
        &inputs,
    )?;
    assert_close(
        got,
        [T0[0] + c0[0], T0[1] + c0[1], T0[2] + c0[2], T0[2]],
        "co-issue",
    );
    Ok(())
}

#[test]
fn gpu_ps1_cnd_dp3_and_lrp() -> TestResult {
    let c = vec![
        [0.0, 0.0, 0.0, 0.75],
        [0.25, 0.5, 0.75, 1.0],
        [-0.25, -0.5, -0.75, -1.0],
    ];
    // ps_1_1: one condition, r0.a > 0.5.
    for (alpha, pick) in [(0.75, 1usize), (0.5, 2)] {
        let inputs = Inputs {
            registers: vec![(RegisterFile::Input, 0, [0.0, 0.0, 0.0, alpha])],
            constants: c.clone(),
            ..Default::default()
        };
        let got = run("ps_1_1\nmov r0, v0\ncnd r0, r0.a, c1, c2\n", &inputs)?;
        assert_close(got, c[pick], &format!("cnd r0.a = {alpha}"));
        // Co-issued on the colour half, a ps_1_1 cnd writes src1 whatever the condition;
        // on the alpha half alone it selects as usual (Wine's shader_glsl_cnd, cnd_test).
        let got = run(
            "ps_1_1\nmov r0, v0\nmov r0.a, c0.a\n+cnd r0.rgb, r0.a, c1, c2\n",
            &inputs,
        )?;
        assert_close(got, [0.25, 0.5, 0.75, 0.75], "co-issued cnd r0.rgb");
        let got = run(
            "ps_1_1\nmov r0, v0\nmov r0.rgb, c0\n+cnd r0.a, r0.a, c1.a, c2.a\n",
            &inputs,
        )?;
        assert_close(got, [0.0, 0.0, 0.0, c[pick][3]], "co-issued cnd r0.a");
    }
    // ps_1_4: per component.
    let inputs = Inputs {
        registers: vec![(RegisterFile::Texture, 0, [0.75, 0.5, 0.25, 1.0])],
        constants: c.clone(),
        ..Default::default()
    };
    let got = run("ps_1_4\ntexcrd r1, t0\ncnd r0, r1, c1, c2\n", &inputs)?;
    assert_close(got, [0.25, -0.5, -0.75, 1.0], "ps_1_4 cnd");
    // dp3 replicates into alpha too; lrp is src0 * (src1 - src2) + src2.
    let got = run("ps_1_1\ndp3 r0, c1, c2\n", &inputs)?;
    let d = -(0.25f32 * 0.25 + 0.5 * 0.5 + 0.75 * 0.75);
    assert_close(got, [d.max(-1.0); 4], "dp3");
    let got = run("ps_1_1\nmov r1, c0\nlrp r0, r1.a, c1, c2\n", &inputs)?;
    let l = |a: f32, b: f32| 0.75 * (a - b) + b;
    assert_close(
        got,
        [l(0.25, -0.25), l(0.5, -0.5), l(0.75, -0.75), l(1.0, -1.0)],
        "lrp",
    );
    Ok(())
}

#[test]
fn gpu_ps1_texbem_and_texbeml() -> TestResult {
    // t0 = the bump texel (r, g, b) = (0.25, -0.25, 0.5); stage 1's matrix (M00, M01, M10,
    // M11) = (2, 1, 1, -1): u' = 0.125 + 2 r + 1 g = 0.375, v' = 0.125 + 1 r - 1 g = 0.625.
    let bump = [0.25, -0.25, 0.5, 1.0];
    let m = [2.0, 1.0, 1.0, -1.0];
    let coord1 = [0.125, 0.125, 0.0, 1.0];
    let map_tex = grid(1);
    let u = coord1[0] + m[0] * bump[0] + m[2] * bump[1];
    let v = coord1[1] + m[1] * bump[0] + m[3] * bump[1];
    let texel = map_tex.at(u, v);
    let make = || Inputs {
        registers: vec![
            (RegisterFile::Texture, 0, [0.5, 0.5, 0.0, 1.0]),
            (RegisterFile::Texture, 1, coord1),
        ],
        bump_env: vec![(1, m, [0.5, 0.25])],
        textures: vec![solid(0, bump), grid(1)],
        ..Default::default()
    };
    let got = run("ps_1_1\ntex t0\ntexbem t1, t0\nmov r0, t1\n", &make())?;
    assert_close(got, texel, "texbem");
    // texbeml: .rgb scaled by b * LSCALE + LOFFSET = 0.5 * 0.5 + 0.25.
    let l = bump[2] * 0.5 + 0.25;
    let got = run("ps_1_1\ntex t0\ntexbeml t1, t0\nmov r0, t1\n", &make())?;
    assert_close(
        got,
        [texel[0] * l, texel[1] * l, texel[2] * l, texel[3]],
        "texbeml",
    );
    Ok(())
}

#[test]
fn gpu_ps1_texm3x2tex_and_texreg2ar() -> TestResult {
    // u = t1.xyz · t0.rgb, v = t2.xyz · t0.rgb, then stage 2 at (u, v).
    let n = [0.5, 0.25, 0.125, 1.0];
    let t1 = [0.25, 0.5, 1.0, 0.0];
    let t2 = [1.0, 0.5, 0.5, 0.0];
    let dot = |a: V4, b: V4| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let inputs = Inputs {
        registers: vec![
            (RegisterFile::Texture, 0, [0.5, 0.5, 0.0, 1.0]),
            (RegisterFile::Texture, 1, t1),
            (RegisterFile::Texture, 2, t2),
        ],
        textures: vec![solid(0, n), grid(2)],
        ..Default::default()
    };
    let got = run(
        "ps_1_1\ntex t0\ntexm3x2pad t1, t0\ntexm3x2tex t2, t0\nmov r0, t2\n",
        &inputs,
    )?;
    assert_close(got, grid(2).at(dot(t1, n), dot(t2, n)), "texm3x2tex");

    // texreg2ar: stage 1 at (t0.a, t0.r).
    let s = [0.625, 0.5, 0.5, 0.375];
    let inputs = Inputs {
        registers: vec![
            (RegisterFile::Texture, 0, [0.5, 0.5, 0.0, 1.0]),
            (RegisterFile::Texture, 1, [0.0; 4]),
        ],
        textures: vec![solid(0, s), grid(1)],
        ..Default::default()
    };
    let got = run("ps_1_1\ntex t0\ntexreg2ar t1, t0\nmov r0, t1\n", &inputs)?;
    assert_close(got, grid(1).at(s[3], s[0]), "texreg2ar");
    Ok(())
}

#[test]
fn gpu_ps1_texm3x3tex_spec_and_vspec_on_a_cube_map() -> TestResult {
    let dot = |a: V4, b: V4| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    // texm3x3tex: stage 3 at (t1·n, t2·n, t3·n), here pointing down -Y.
    let n = [0.5, 0.25, 0.125, 1.0];
    let rows = [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, -4.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
    ];
    let make = |rows: [V4; 3], n: V4, constants: Vec<V4>| Inputs {
        registers: vec![
            (RegisterFile::Texture, 0, [0.5, 0.5, 0.0, 1.0]),
            (RegisterFile::Texture, 1, rows[0]),
            (RegisterFile::Texture, 2, rows[1]),
            (RegisterFile::Texture, 3, rows[2]),
        ],
        constants,
        textures: vec![solid(0, n), faces(3)],
        ..Default::default()
    };
    let normal = [dot(rows[0], n), dot(rows[1], n), dot(rows[2], n)];
    let got = run(
        "ps_1_1\ntex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3tex t3, t0\nmov r0, t3\n",
        &make(rows, n, Vec::new()),
    )?;
    assert_close(got, faces(3).texels[face_of(normal)], "texm3x3tex");

    // spec / vspec: the eye vector reflected about N: R = 2 (N·E) / (N·N) N - E.
    let reflect = |nv: [f32; 3], e: [f32; 3]| {
        let ne = nv[0] * e[0] + nv[1] * e[1] + nv[2] * e[2];
        let nn = nv[0] * nv[0] + nv[1] * nv[1] + nv[2] * nv[2];
        [0, 1, 2].map(|i| 2.0 * ne / nn * nv[i] - e[i])
    };
    let n = [0.0, 0.0, 1.0, 1.0];
    // The rows' .w carry vspec's eye vector (0.75, 0, 0.5).
    let rows = [
        [1.0, 0.0, 0.0, 0.75],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.5],
    ];
    let normal = [dot(rows[0], n), dot(rows[1], n), dot(rows[2], n)];
    let eye_c = [0.0, 0.75, 0.5, 0.0];
    let r = reflect(normal, [eye_c[0], eye_c[1], eye_c[2]]);
    let got = run(
        "ps_1_1\ntex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3spec t3, t0, c0\nmov r0, t3\n",
        &make(rows, n, vec![eye_c]),
    )?;
    assert_eq!(face_of(r), 3, "the spec case points down -Y");
    assert_close(got, faces(3).texels[face_of(r)], "texm3x3spec");
    let r = reflect(normal, [rows[0][3], rows[1][3], rows[2][3]]);
    let got = run(
        "ps_1_1\ntex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3vspec t3, t0\nmov r0, t3\n",
        &make(rows, n, Vec::new()),
    )?;
    assert_eq!(face_of(r), 1, "the vspec case points down -X");
    assert_close(got, faces(3).texels[face_of(r)], "texm3x3vspec");
    Ok(())
}

#[test]
fn gpu_ps1_4_texld_texcrd_projections_and_bem() -> TestResult {
    let t0 = [0.75, 1.25, 2.0, 4.0];
    let inputs = || Inputs {
        registers: vec![(RegisterFile::Texture, 0, t0)],
        textures: vec![grid(0)],
        ..Default::default()
    };
    // _dz: (x/z, y/z); _dw: (x/w, y/w); no modifier: (x, y).
    let got = run("ps_1_4\ntexld r0, t0_dz\n", &inputs())?;
    assert_close(got, grid(0).at(t0[0] / t0[2], t0[1] / t0[2]), "texld _dz");
    let got = run("ps_1_4\ntexld r0, t0_dw\n", &inputs())?;
    assert_close(got, grid(0).at(t0[0] / t0[3], t0[1] / t0[3]), "texld _dw");
    let got = run("ps_1_4\ntexld r0, t0\n", &inputs())?;
    assert_close(got, grid(0).at(t0[0], t0[1]), "texld");
    // texcrd r0.rgb, t0_dw.xyw: (x/w, y/w, w/w); .a keeps r0's initial 0.
    let got = run("ps_1_4\ntexcrd r0.rgb, t0_dw.xyw\n", &inputs())?;
    assert_close(got, [t0[0] / t0[3], t0[1] / t0[3], 1.0, 0.0], "texcrd _dw");

    // bem r2.rg, r1, r0 with stage 2's matrix, then phase 2 samples stage 2 there: the
    // same displacement as texbem's test, (0.125, 0.125) + M (0.25, -0.25).
    let bump = [0.25, -0.25, 0.5, 1.0];
    let m = [2.0, 1.0, 1.0, -1.0];
    let t1 = [0.125, 0.125, 0.0, 0.0];
    let inputs = Inputs {
        registers: vec![
            (RegisterFile::Texture, 0, [0.5, 0.5, 0.0, 1.0]),
            (RegisterFile::Texture, 1, t1),
        ],
        bump_env: vec![(2, m, [0.0, 0.0])],
        textures: vec![solid(0, bump), grid(2)],
        ..Default::default()
    };
    let u = t1[0] + m[0] * bump[0] + m[2] * bump[1];
    let v = t1[1] + m[1] * bump[0] + m[3] * bump[1];
    let got = run(
        "ps_1_4\ntexld r0, t0\ntexcrd r1.rgb, t1\nbem r2.rg, r1, r0\nphase\ntexld r2, r2\nmov r0, r2\n",
        &inputs,
    )?;
    assert_close(got, grid(2).at(u, v), "bem");
    Ok(())
}

#[test]
fn gpu_ps1_projected_tex_follows_the_texture_transform_flags() -> TestResult {
    // D3DTTFF_PROJECTED (256) divides by .w whatever the count (Windows, in Wine's
    // test_texture_transform_flags), a w of 0 sampling at 0; without PROJECTED the
    // coordinate is used as it is.
    let t0 = [0.75, 1.25, 2.0, 4.0];
    let w0 = [0.75, 1.25, 2.0, 0.0];
    for (t0, flags, expected) in [
        (t0, 0u32, (t0[0], t0[1])),
        (t0, 256 | 3, (t0[0] / t0[3], t0[1] / t0[3])),
        (t0, 256 | 1, (t0[0] / t0[3], t0[1] / t0[3])),
        (t0, 256, (t0[0] / t0[3], t0[1] / t0[3])),
        (w0, 256 | 2, (0.0, 0.0)),
    ] {
        let inputs = Inputs {
            registers: vec![(RegisterFile::Texture, 0, t0)],
            textures: vec![grid(0)],
            transform_flags: vec![flags],
            ..Default::default()
        };
        let got = run("ps_1_1\ntex t0\nmov r0, t0\n", &inputs)?;
        assert_close(
            got,
            grid(0).at(expected.0, expected.1),
            &format!("flags {flags}"),
        );
    }
    Ok(())
}

/// A pixel shader of Wine's visual tests, from the corpus.
fn wine_shader(function: &str, name: &str) -> Result<Program, Box<dyn Error>> {
    let corpus = common::corpus("d3d9_visual.json");
    let shaders = corpus["shaders"].as_array().ok_or("no shaders")?;
    let shader = shaders
        .iter()
        .find(|s| s["function"] == function && s["name"] == name)
        .ok_or_else(|| format!("{function} {name} not in the corpus"))?;
    Ok(decode(&common::tokens(&shader["tokens"]))?)
}

#[test]
fn gpu_wine_constant_clamp_ps_test() -> TestResult {
    // Wine's constant_clamp_ps_test: `mov r1, c1; add r0, r1, c2` with c1 = (1.25, -0.5,
    // -1.5, 1), c2 = (-0.5, 1.25, 2, 1) (ps_1_4 defines c2 itself): constants clamp to
    // [-1, 1], so every ps_1_x quad is 0x00808000 (Windows' result).
    let c1 = [1.25, -0.50, -1.50, 1.0];
    let c2 = [-0.50, 1.25, 2.00, 1.0];
    for name in ["shader_code_11", "shader_code_12", "shader_code_14"] {
        let program = wine_shader("constant_clamp_ps_test", name)?;
        let inputs = Inputs {
            constants: vec![[0.0; 4], c1, c2],
            ..Default::default()
        };
        let got = run_program(&program, &inputs)?.map(|v| v.map(|x| x.clamp(0.0, 1.0)));
        assert_close(got, [0.5, 0.5, 0.0, 1.0], name);
    }
    Ok(())
}
