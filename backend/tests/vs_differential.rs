//! The reference interpreter and the GPU agree (issue: software vertex processing).
//!
//! - `generated_programs_agree`: a fixed-seed batch of random valid vs_2_0 / vs_2_x / vs_3_0
//!   programs (`differential::generate`: arithmetic, source modifiers, swizzles, write masks,
//!   `_sat`, predication, relative `c#`, if/loop/rep/break, call/label) over random inputs
//!   and constants (±0, ±inf, NaN, denormals, huge values), in all three float modes. The
//!   count is `D3D9_DIFF_PROGRAMS` (default 2,000; the seed `D3D9_DIFF_SEED`, default 1);
//!   `D3D9_DIFF_REPORT=FILE` writes every disagreement in full.
//! - `wine_vertex_shaders_agree`: every vertex shader of Wine's visual tests that checks, on
//!   random moderate inputs and constants; a shader that samples a vertex texture (`texldl`)
//!   gets a random texture of its declared type on each declared sampler, with D3D9's
//!   default sampler states.
//!
//! These tests need a GPU adapter (lavapipe is enough) and fail without one.

#[path = "../../translator/tests/common/mod.rs"]
mod common;
mod differential;

use d3d9_backend::Gpu;
use d3d9_translator::asm::assemble;
use d3d9_translator::bytecode::{decode, Declaration, RegisterFile, Stage, TextureType};
use d3d9_translator::check::{check, DeviceCaps};
use d3d9_translator::interp::{SamplerStates, Texture, TextureKind, VertexTextures};
use d3d9_translator::lift::FloatMode;
use differential::generate::{self, Profile, Rng};
use differential::{data, disagreements, listing, run_both, run_both_textured};

fn gpu() -> Option<Gpu> {
    Gpu::for_tests().expect("a GPU adapter (lavapipe is enough)")
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn generated_programs_agree() {
    let Some(gpu) = gpu() else { return };
    let count = env_number("D3D9_DIFF_PROGRAMS", 2000);
    let seed = env_number("D3D9_DIFF_SEED", 1);
    let mut rng = Rng::new(seed);
    let profiles = [Profile::Vs20, Profile::Vs2x, Profile::Vs30];
    let modes = [FloatMode::Legacy, FloatMode::LegacyStrict, FloatMode::Ieee];
    let start = std::time::Instant::now();
    let (mut ran, mut invalid, mut failures) = (0u64, Vec::new(), Vec::new());
    for n in 0..count {
        let profile = profiles[(n % 3) as usize];
        let mode = modes[((n / 3) % 3) as usize];
        let program = generate::program(&mut rng, profile);
        let special = rng.chance(50);
        let d = data(&mut rng, &program, special);
        let caps = DeviceCaps::default();
        let checked = match assemble(&program.text)
            .map_err(|e| e.to_string())
            .and_then(|p| check(&p, Stage::Vertex, &caps).map_err(|e| e.to_string()))
        {
            Ok(c) => c,
            Err(e) => {
                invalid.push(format!("program {n}: {e}\n{}", program.text));
                continue;
            }
        };
        match run_both(&gpu, &checked, &d, mode) {
            Ok(outputs) => {
                let bad = disagreements(&outputs, Some(&program.classes), d.scale());
                if !bad.is_empty() {
                    failures.push(format!(
                        "program {n} ({}, {mode:?}, seed {seed}):\n{}\n{}\ninputs {:?}\nconstants c0-c31 {:?}",
                        profile.name(),
                        bad.join("\n"),
                        program.text,
                        d.inputs,
                        &d.constants.floats[..32]
                    ));
                }
                ran += 1;
            }
            Err(e) => failures.push(format!("program {n}: {e}\n{}", program.text)),
        }
    }
    eprintln!(
        "differential: {ran} of {count} generated programs ran on the interpreter and the GPU in {:.1} s; {} disagreed; {} did not check",
        start.elapsed().as_secs_f64(),
        failures.len(),
        invalid.len()
    );
    if let Ok(path) = std::env::var("D3D9_DIFF_REPORT") {
        // Every disagreement in full, for triage.
        std::fs::write(&path, failures.join("\n\n")).expect("report written");
    }
    if !invalid.is_empty() {
        // The reasons, counted, then the first program.
        let mut reasons = std::collections::BTreeMap::new();
        for i in &invalid {
            let first = i.lines().next().unwrap_or("");
            let reason = match first.find(" at token ") {
                Some(at) => first[at..].split_once(": ").map_or(first, |(_, r)| r),
                None => first,
            }
            .to_string();
            *reasons.entry(reason).or_insert(0) += 1;
        }
        panic!(
            "{} generated programs do not check: {reasons:#?}\nfirst:\n{}",
            invalid.len(),
            invalid[0]
        );
    }
    if !failures.is_empty() {
        let heads: Vec<String> = failures
            .iter()
            .map(|f| f.lines().take(2).collect::<Vec<_>>().join(" | "))
            .collect();
        panic!(
            "{} programs disagree:\n{}\nfirst:\n{}",
            failures.len(),
            heads.join("\n"),
            failures[0]
        );
    }
    assert_eq!(ran, count);
}

#[test]
fn wine_vertex_shaders_agree() {
    let Some(gpu) = gpu() else { return };
    let mut rng = Rng::new(7);
    let (mut ran, mut skipped, mut failures) = (0, Vec::new(), Vec::new());
    let mut textured = 0;
    let shaders = common::visual_vertex_shaders();
    for tokens in &shaders {
        let Ok(program) = decode(tokens) else {
            continue;
        };
        let caps = DeviceCaps::default();
        let Ok(checked) = check(&program, Stage::Vertex, &caps) else {
            continue;
        };
        // A texture of its declared type on every sampler the shader declares (texldl).
        let declared: Vec<(u32, TextureType)> = program
            .instructions
            .iter()
            .filter_map(|i| match (i.dst, i.decl) {
                (Some(d), Some(Declaration::Sampler(tt)))
                    if d.reg.file == RegisterFile::Sampler =>
                {
                    Some((d.reg.index, tt))
                }
                _ => None,
            })
            .collect();
        let owned: Vec<(u32, Texture)> = declared
            .iter()
            .map(|&(n, tt)| (n, random_texture(&mut rng, tt)))
            .collect();
        let mut textures = VertexTextures::none();
        for (n, t) in &owned {
            textures = textures.with(*n as usize, t, SamplerStates::default());
        }
        textured += usize::from(!owned.is_empty());
        // Moderate data: Wine's shaders compare and loop on their inputs; inputs inside the
        // clip volume (x, y in [-0.5, 0.5], z in [0, 0.5], w = 1) since many copy one to oPos.
        let placeholder = generate::program(&mut rng, Profile::Vs30);
        let mut d = data(&mut rng, &placeholder, false);
        for vertex in &mut d.inputs {
            for input in vertex.iter_mut() {
                *input = [
                    rng.below(64) as f32 / 64.0 - 0.5,
                    rng.below(64) as f32 / 64.0 - 0.5,
                    rng.below(32) as f32 / 64.0,
                    1.0,
                ];
            }
        }
        match run_both_textured(&gpu, &checked, &d, FloatMode::Legacy, &textures) {
            Ok(outputs) => {
                let bad = disagreements(&outputs, None, d.scale());
                if !bad.is_empty() {
                    failures.push(format!("{}\n{}", bad.join("\n"), listing(&program)));
                }
                ran += 1;
            }
            Err(e) => skipped.push(e.to_string()),
        }
    }
    eprintln!(
        "wine vertex shaders: {ran} agree-checked ({textured} with vertex textures), {} not run ({:?})",
        skipped.len(),
        skipped
    );
    assert!(
        failures.is_empty(),
        "{} Wine shaders disagree; first:\n{}",
        failures.len(),
        failures[0]
    );
    assert!(ran >= 30, "only {ran} Wine vertex shaders ran");
    // Wine's test_vertex_texture samples a vertex texture.
    assert!(textured >= 1, "no Wine shader with texldl ran");
    // Only shaders the probe cannot read (a position outside the clip volume) are not
    // compared.
    for s in &skipped {
        assert!(s.contains("clip"), "{s}");
    }
}

/// A 4x4 (4x4x4 for a volume) texture of `tt`'s kind with 3 mip levels of random texels in
/// [0, 1] (multiples of 1/256).
fn random_texture(rng: &mut Rng, tt: TextureType) -> Texture {
    let (kind, size) = match tt {
        TextureType::Cube => (TextureKind::Cube, [4, 4, 1]),
        TextureType::Volume => (TextureKind::Volume, [4, 4, 4]),
        _ => (TextureKind::TwoD, [4, 4, 1]),
    };
    let levels = (0..3u32)
        .map(|m| {
            let n = 4usize >> m;
            let layers = match kind {
                TextureKind::TwoD => 1,
                TextureKind::Cube => 6,
                TextureKind::Volume => n,
            };
            (0..n * n * layers)
                .map(|_| [0; 4].map(|_| rng.below(257) as f32 / 256.0))
                .collect()
        })
        .collect();
    Texture::new(kind, size, levels).expect("a valid texture")
}

/// 64 float constants, zero but for the position the generated programs read from `c60`.
fn position_constants() -> Vec<[f32; 4]> {
    let mut floats = vec![[0.0f32; 4]; 64];
    floats[generate::POSITION_CONSTANT] = [0.0, 0.0, 0.5, 1.0];
    floats
}

/// A fixed regression case: `program` checked, with its inputs and float constants (`i#`
/// and `b#` zero).
fn fixed_case(
    program: &str,
    inputs: Vec<[[f32; 4]; generate::INPUTS]>,
    floats: Vec<[f32; 4]>,
) -> (differential::Data, d3d9_translator::check::CheckedProgram) {
    let d = differential::Data {
        inputs,
        constants: d3d9_translator::interp::Constants {
            floats,
            ints: vec![[0; 4]; 16],
            bools: vec![false; 16],
        },
    };
    let checked = check(
        &assemble(program).expect("assembles"),
        Stage::Vertex,
        &DeviceCaps::default(),
    )
    .expect("checks");
    (d, checked)
}

/// Run `program` (its position from `c60`, every other constant 0) on the interpreter and
/// the GPU in every float mode over `inputs`, assert that they agree exactly, and return each
/// mode's outputs.
fn agree_exactly_in_every_mode(
    gpu: &Gpu,
    program: &str,
    inputs: Vec<[[f32; 4]; generate::INPUTS]>,
) -> Vec<(FloatMode, differential::Outputs)> {
    let (d, checked) = fixed_case(program, inputs, position_constants());
    let exact = [[generate::Class::Exact; 4]; generate::OUTPUTS];
    [FloatMode::Legacy, FloatMode::LegacyStrict, FloatMode::Ieee]
        .into_iter()
        .map(|mode| {
            let outputs = run_both(gpu, &checked, &d, mode).expect("runs on both");
            let bad = disagreements(&outputs, Some(&exact), d.scale());
            assert!(bad.is_empty(), "{mode:?}:\n{}", bad.join("\n"));
            (mode, outputs)
        })
        .collect()
}

/// Disagreements the generated programs found, kept as fixed programs with their inputs, run
/// in every float mode and compared exactly:
/// - `_sat` of NaN is 0 (D3D9); WGSL's `saturate(NaN)` is implementation-defined and lavapipe
///   gave 1 for `abs_sat` of NaN (program 908 of seed 1), so the lifter tests for NaN.
/// - Denormal operands are flushed to zero by the GPU (program 98 of seed 1: `slt` of a
///   denormal); the interpreter flushes them too.
/// - `pow(0, b)` for b < 0 in `Ieee` (program 258): both executions now evaluate
///   `exp2(b * log2|a|)`.
#[test]
fn regressions_agree() {
    let Some(gpu) = gpu() else { return };
    let program = "vs_3_0
        dcl_texcoord0 v0
        dcl_texcoord1 v1
        dcl_position o0
        dcl_texcoord0 o1
        dcl_texcoord1 o2
        dcl_texcoord2 o3
        dcl_texcoord3 o4
        mov o0, c60
        abs_sat o1, v0
        mov_sat o2, v0.yxwz
        slt o3, c0, v1
        sge o4.xy, v1.xy, c0.xy
        rsq o4.z, v1.x
        pow o4.w, c0.x, -v1.w
    ";
    let nan = f32::NAN;
    let neg_nan = f32::from_bits(0xFFC0_0000);
    let inputs = vec![
        [
            [nan, neg_nan, 2.0, -1.0],
            [1e-40, -1e-40, 0.0, 1.0],
            [0.0; 4],
            [0.0; 4],
        ],
        [
            [0.5, nan, -0.0, 0.25],
            [-3e-39, 2e-39, 1.0, 2.0],
            [0.0; 4],
            [0.0; 4],
        ],
        [
            [neg_nan, 1e-40, 1.5, nan],
            [0.0, 1e-38, -1.0, 0.5],
            [0.0; 4],
            [0.0; 4],
        ],
        [
            [-2.0, 0.75, nan, 1.0],
            [1e-45, -1e-45, 3e-39, 4.0],
            [0.0; 4],
            [0.0; 4],
        ],
    ];
    for (mode, outputs) in agree_exactly_in_every_mode(&gpu, program, inputs) {
        // The interpreter's values are D3D9's: sat(NaN) = 0, a denormal compares as 0.
        let first = &outputs[0];
        assert_eq!(first[0].0, vec![0.0, 0.0, 1.0, 1.0], "{mode:?}");
        assert_eq!(first[2].0, vec![0.0, 0.0, 0.0, 1.0], "{mode:?}");
    }
}

/// The seven disagreements of the 100,000-program run (seed 5), reduced: naga's SPIR-V marks
/// no arithmetic `NoContraction` (WGSL cannot ask for it) and no float controls, so Vulkan
/// lets a driver reassociate adds and subtracts and assume no inf/NaN, and lavapipe's LLVM
/// does: `(a + b) - a` gives b (programs 51604, 55518, 56675, 72310; the interpreter rounds
/// a + b first, as D3D9 evaluates instructions one by one), `lrp` with src0 = 1, `(b - c) +
/// c`, gives b (97002), and `x - x` gives 0 for x = inf (47580, 60151; D3D9 gives NaN).
/// The interpreter keeps D3D9's instruction-by-instruction values; the GPU may give either
/// (both are checked here, so a driver that starts honouring the order still passes, and a
/// lifter that stopped emitting the instructions as written would show up in the
/// interpreter's exact values). The generated programs' comparison cannot tell these from
/// errors, so the run's report lists them and `docs/testing.md` explains each.
#[test]
fn regression_drivers_may_reassociate_and_assume_finite_values() {
    let Some(gpu) = gpu() else { return };
    let program = "vs_3_0
        dcl_texcoord0 v0
        dcl_texcoord1 v1
        dcl_position o0
        dcl_texcoord0 o1
        mov o0, c60
        mov r1, v1
        add r0.x, v0.x, v0.y
        sub o1.x, r0.x, v0.x
        lrp o1.y, r1.x, v0.z, v0.w
        sub o1.z, r1.y, r1.y
        mov o1.w, r1.z
    ";
    let big = 1e30f32;
    let row = |a: f32, b: f32| {
        [
            [a, b, 0.75, a],
            [1.0, f32::INFINITY, 0.0, 0.0],
            [0.0; 4],
            [0.0; 4],
        ]
    };
    let inputs = vec![
        row(-big, 0.161_856_65),
        row(-16.5, 0.956_247_9),
        row(0.640_124_9, 2.0),
        row(-42.0, 1.492_705_3),
    ];
    let (d, checked) = fixed_case(program, inputs.clone(), position_constants());
    for mode in [FloatMode::Legacy, FloatMode::LegacyStrict, FloatMode::Ieee] {
        let outputs = run_both(&gpu, &checked, &d, mode).expect("runs on both");
        for (vertex, input) in inputs.iter().enumerate() {
            let (a, b) = (input[0][0], input[0][1]);
            let (c, t) = (input[0][3], input[0][2]);
            // D3D9, one instruction at a time.
            let stepwise = [(a + b) - a, 1.0 * (t - c) + c, f32::NAN];
            let reassociated = [b, t, 0.0];
            let (cpu, gpu_values) = (&outputs[vertex][0].0, &outputs[vertex][0].1);
            for k in 0..3 {
                let same = |x: f32, y: f32| x == y || (x.is_nan() && y.is_nan());
                assert!(
                    same(cpu[k], stepwise[k]),
                    "{mode:?} vertex {vertex} .{k}: interpreter {}",
                    cpu[k]
                );
                assert!(
                    same(gpu_values[k], stepwise[k]) || same(gpu_values[k], reassociated[k]),
                    "{mode:?} vertex {vertex} .{k}: GPU {} is neither {} nor {}",
                    gpu_values[k],
                    stepwise[k],
                    reassociated[k]
                );
            }
            eprintln!("{mode:?} vertex {vertex}: cpu {cpu:?} gpu {gpu_values:?}");
        }
    }
}

/// Program 7757 of seed 2 (`vs_3_0`, `Ieee`, found with a generator variant): `pow_sat` of
/// -0 to the power -86.26 was 1 on the interpreter (`saturate(+inf)`) and 0 on lavapipe,
/// whose `log2(0)` is not -inf (Vulkan leaves it undefined). `pow` now takes `log2|0|` as
/// -FLT_MAX in every mode (`rules::pow`), so both executions give +inf before the `_sat`;
/// a flushed denormal base counts as zero on both.
#[test]
fn regression_pow_of_zero_is_defined_in_every_mode() {
    let Some(gpu) = gpu() else { return };
    let program = "vs_3_0
        dcl_texcoord0 v0
        dcl_texcoord1 v1
        dcl_position o0
        dcl_texcoord0 o1
        dcl_texcoord1 o2
        mov o0, c60
        mov r0, v1
        pow_sat o1.x, v0.x, r0.x
        pow o1.y, v0.x, r0.y
        pow o1.z, v0.x, r0.z
        pow_sat o1.w, v0.y, r0.x
        pow o2.x, v0.z, r0.x
        pow o2.y, v0.w, r0.w
    ";
    let inputs = vec![
        [
            [-0.0, 1e-40, 0.0, 2.0],
            [-86.26, 0.0, 0.5, -1.0],
            [0.0; 4],
            [0.0; 4],
        ],
        [
            [0.0, -3e-39, -0.0, 4.0],
            [-1.0, 0.0, 3.0, 0.5],
            [0.0; 4],
            [0.0; 4],
        ],
        [
            [-0.0, 0.0, 0.0, 8.0],
            [-2.0, -0.0, 1.0, -1.0],
            [0.0; 4],
            [0.0; 4],
        ],
        [
            [0.0, 1e-45, 0.0, 16.0],
            [-3.0, 0.0, 2.0, 0.25],
            [0.0; 4],
            [0.0; 4],
        ],
    ];
    for (mode, outputs) in agree_exactly_in_every_mode(&gpu, program, inputs) {
        for (vertex, expected) in [
            [1.0, 1.0, 0.0, 1.0, f32::INFINITY, 0.5],
            [1.0, 1.0, 0.0, 1.0, f32::INFINITY, 2.0],
            [1.0, 1.0, 0.0, 1.0, f32::INFINITY, 0.125],
            [1.0, 1.0, 0.0, 1.0, f32::INFINITY, 2.0],
        ]
        .iter()
        .enumerate()
        {
            let [(cpu1, gpu1), (cpu2, gpu2), ..] = &outputs[vertex];
            let cpu: Vec<f32> = cpu1.iter().chain(&cpu2[..2]).copied().collect();
            let gpu: Vec<f32> = gpu1.iter().chain(&gpu2[..2]).copied().collect();
            assert_eq!(&cpu, expected, "{mode:?} vertex {vertex}: interpreter");
            assert_eq!(&gpu, expected, "{mode:?} vertex {vertex}: GPU");
        }
    }
}

/// Program 8887 of seed 2 (10,000 programs; `vs_2_x`, `LegacyStrict`) disagreed: texcoord2.y
/// was 0.27769396 on the interpreter and 0.36999667 on lavapipe. Its sincos argument was
/// reduced with `frc` from `expp r0.z, -v1.z` with v1.z = -15.75: 2^15.75 rounds to
/// 55108.98828125 on the CPU, lavapipe's `exp2` gave one ulp (1/256) less — both within the
/// rules (Vulkan: 3 ulp; D3D9's `expp` promises only 10 bits) — and `frc` keeps that absolute
/// error, 1/256 of a turn, which `sincos` and a multiply by c16.x = -3.77 made 0.09. Not an
/// executor bug but an inexact value reaching `frc`, which the generator allows only for
/// exact values (its sincos block did not follow that rule; it does now). Reduced here: each
/// side is consistent with its own `expp` value, the `expp` values agree within 3 ulp, and
/// the outputs within the error `frc` propagates (|c16.x| · 2π · 3 ulp of 2^15.75).
#[test]
fn regression_frc_keeps_the_absolute_error_of_an_inexact_value() {
    let Some(gpu) = gpu() else { return };
    let program = "vs_2_x
        dcl_texcoord1 v1
        mov oPos, c60
        expp r0.z, -v1.z
        mov oT0, r0.z
        mov r8.x, r0.z
        frc r8.x, r8.x
        mad r8.x, r8.x, c48.x, c48.y
        sincos r3.y, r8.x, c49, c50
        mul oT2, r3.y, c16.x
    ";
    let mut floats = position_constants();
    floats[16] = [-3.774827, 0.0, 0.0, 0.0];
    floats[48] = [std::f32::consts::TAU, -std::f32::consts::PI, 0.0, 0.0];
    floats[49] = [
        -1.552_099_7e-4,
        -2.170_69e-5,
        2.604_166_8e-3,
        2.604_166_8e-4,
    ];
    floats[50] = [-2.083_333_4e-2, -1.250_000_1e-1, 1.0, 0.5];
    let exponents = [15.75f32, 12.3, 3.5, 10.0];
    let inputs = exponents
        .iter()
        .map(|&e| [[0.0; 4], [0.0, 0.0, -e, 0.0], [0.0; 4], [0.0; 4]])
        .collect();
    let (d, checked) = fixed_case(program, inputs, floats.clone());
    // What the program computes from an expp value, by the SDK's definitions in f32.
    let from_expp = |x: f32| {
        let f = x - x.floor();
        let theta = f * floats[48][0] + floats[48][1];
        theta.sin() * floats[16][0]
    };
    for mode in [FloatMode::Legacy, FloatMode::LegacyStrict, FloatMode::Ieee] {
        let outputs = differential::run_both(&gpu, &checked, &d, mode).expect("runs on both");
        for (v, row) in outputs.iter().enumerate() {
            let want = f64::from(exponents[v]).exp2();
            let ulp = |x: f32| f64::from(f32::from_bits(x.to_bits() + 1) - x);
            let (cpu_e, gpu_e) = (row[0].0[0], row[0].1[0]);
            let (cpu_o, gpu_o) = (row[2].0[0], row[2].1[0]);
            // The expp values: the interpreter's correctly rounded (within an ulp), the
            // GPU's within Vulkan's 3 ulp.
            assert!(
                (f64::from(cpu_e) - want).abs() <= ulp(cpu_e),
                "{mode:?} {v}: {cpu_e}"
            );
            assert!(
                (f64::from(gpu_e) - want).abs() <= 3.0 * ulp(cpu_e),
                "{mode:?} {v}: {gpu_e} vs {want}"
            );
            // Each side follows from its own expp value (sincos within 2^-11 on the GPU).
            assert!((cpu_o - from_expp(cpu_e)).abs() <= 1e-5, "{mode:?} {v}");
            assert!((gpu_o - from_expp(gpu_e)).abs() <= 2e-3, "{mode:?} {v}");
            // The outputs agree within the error frc propagates from 3 ulp of expp.
            let bound =
                f64::from(floats[16][0].abs()) * std::f64::consts::TAU * 3.0 * ulp(cpu_e) + 2e-3;
            assert!(
                f64::from((cpu_o - gpu_o).abs()) <= bound,
                "{mode:?} vertex {v}: cpu {cpu_o} gpu {gpu_o} (bound {bound})"
            );
        }
        // Vertex 0 is the case found: 2^15.75 in f32.
        assert_eq!(f64::from(outputs[0][0].0[0]), 55_108.988_281_25, "{mode:?}");
    }
}
