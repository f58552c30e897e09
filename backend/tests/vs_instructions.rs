//! Per-instruction GPU tests of the vertex-shader lifter: each vs_1_1 … vs_3_0 instruction is
//! assembled into a tiny shader, lifted under `Legacy`, `LegacyStrict` and `Ieee`, run
//! on the GPU (lavapipe is enough) through [`Harness::vertex_outputs`], and compared with a CPU
//! reference written from the SDK's definitions (module [`reference`]).
//!
//! Inputs travel as vertex attributes (`v0`, `v1`, `v2`, one vertex per case, so the lifter
//! cannot fold them) or as float/int/bool constants; results come back from `texcoord0..2`.
//! The position is a fixed point inside the clip volume (`def c95, 0, 0, 0.5, 1`).
//!
//! Tolerances (stated per test, see [`Tol`]):
//! - `Exact`: equal as `f32` values; `+0 == -0` (the probe's rasteriser need not keep the sign
//!   of zero) and any NaN matches any NaN. Used for mov, add, sub, min, max, slt, sge, frc,
//!   abs, sgn, dst, lit.xyw, address registers, flow control and every special-value result
//!   (±inf, ±FLT_MAX, 0, NaN).
//! - `Rel(r)`: `|got - want| <= r * |want|`, for results that round (mul, mad, dp, m#x#, crs,
//!   lrp, nrm: 2^-21, about 4 ulp, with inputs chosen so that products are exact and fused
//!   or reordered operations give the same value; rcp and rsq: 2^-21, the SDK's stated
//!   precision of 1/2^22 absolute on [1, 2); exp and log: 2^-18, the SDK asks 21 bits and
//!   Vulkan's exp2 bound is 3 + 2|x| ulp; pow and lit.z: 2^-16, exp2(b·log2 a) amplifies
//!   the log's rounding by |b·log2 a|; partial-precision expp/logp: 2^-10, the SDK's 10 bits).
//! - `Abs(a)`: `|got - want| <= a`, for sincos (1e-5 on [-π, π], the range the SDK allows;
//!   1e-3 on |x| <= 100, outside D3D9's contract, to show it is still a true sine/cosine).
//!
//! GPU tests fail, not skip, when no adapter exists (unless `D3D9_ALLOW_NO_GPU=1`).

use std::error::Error;

use d3d9_backend::device::VertexConstants;
use d3d9_backend::Gpu;
use d3d9_harness::{Harness, ShaderStage, VertexBuffer, VertexProbe};
use d3d9_translator::asm::assemble;
use d3d9_translator::bytecode::Stage;
use d3d9_translator::bytecode::{Literal, Opcode, RegisterFile, Usage};
use d3d9_translator::check::{check, DeviceCaps};
use d3d9_translator::lift::{translate_vertex_shader, FloatMode, VertexShaderOptions};
use d3d9_translator::signature::Semantic;

type TestResult = Result<(), Box<dyn Error>>;
/// One vertex's inputs: `v0`, `v1`, `v2`.
type In = [[f32; 4]; 3];
/// One vertex's results: `texcoord0`, `texcoord1`, `texcoord2`.
type Out = [[f32; 4]; 3];

const INF: f32 = f32::INFINITY;
const NAN: f32 = f32::NAN;
const MAX: f32 = f32::MAX;
const MODES: [FloatMode; 3] = [FloatMode::Legacy, FloatMode::LegacyStrict, FloatMode::Ieee];
/// An expected value meaning "any result": used for the NaN that plain IEEE arithmetic would
/// give in `FloatMode::Ieee` and in `Legacy`'s plain multiplies (0 * inf, pow(0, 0) in Ieee,
/// ...). Vulkan only preserves inf and NaN
/// under `SignedZeroInfNanPreserve`, which neither naga nor the lifter asks for, so a driver
/// may fold `x * 0` to 0 (lavapipe does for a literal 0) and its exp2/log2 of inf/NaN
/// arguments are undefined. `LegacyStrict` expectations never use it.
const ANY: f32 = f32::from_bits(0x7fc0_dead);

/// The Ieee and Legacy expectation: NaN means undefined on a Vulkan driver (see [`ANY`]).
fn relax(mode: FloatMode, want: [f32; 4]) -> [f32; 4] {
    if mode != FloatMode::LegacyStrict {
        want.map(|x| if x.is_nan() { ANY } else { x })
    } else {
        want
    }
}

/// CPU references, written from the SDK's instruction pages (the "operations performed"
/// fragments of `learn.microsoft.com/.../direct3dhlsl/<op>---vs`) and the D3D9 float rules:
/// `LegacyStrict` applies every rule; `Legacy` keeps the rcp/rsq/log/pow rules and multiplies
/// plainly (the documented difference, `docs/decisions.md`); `Ieee` is the same formulas in
/// plain IEEE arithmetic.
mod reference {
    use super::FloatMode;

    /// rcp/rsq/log give ±FLT_MAX for 0 and pow keeps `0 * x = 0` (Legacy and LegacyStrict).
    pub fn legacy(mode: FloatMode) -> bool {
        mode != FloatMode::Ieee
    }

    /// `0 * x = 0` in every multiply (LegacyStrict).
    pub fn strict(mode: FloatMode) -> bool {
        mode == FloatMode::LegacyStrict
    }

    /// `a * b`; LegacyStrict: `0 * x = 0` for every x (inf and NaN included).
    pub fn mul(mode: FloatMode, a: f32, b: f32) -> f32 {
        if strict(mode) && (a == 0.0 || b == 0.0) {
            0.0
        } else {
            a * b
        }
    }

    /// The multiply inside pow: `0 * x = 0` in both legacy modes.
    fn pow_mul(mode: FloatMode, a: f32, b: f32) -> f32 {
        if legacy(mode) && (a == 0.0 || b == 0.0) {
            0.0
        } else {
            a * b
        }
    }

    /// dp3 / dp4: sum of the first `n` legacy products.
    pub fn dot(mode: FloatMode, a: [f32; 4], b: [f32; 4], n: usize) -> f32 {
        (0..n).map(|i| mul(mode, a[i], b[i])).sum()
    }

    /// rcp: `1 / x`; Legacy: `rcp(±0) = +FLT_MAX` (the SDK's +infinity, as D3D9 hardware
    /// gives it: Wine `fp_special_test` "rcp1", r500/r600 columns).
    pub fn rcp(mode: FloatMode, x: f32) -> f32 {
        if legacy(mode) && x == 0.0 {
            f32::MAX
        } else {
            1.0 / x
        }
    }

    /// rsq: `1 / sqrt(|x|)` (the SDK takes ABSF(src)); Legacy: `rsq(±0) = +FLT_MAX`.
    pub fn rsq(mode: FloatMode, x: f32) -> f32 {
        let v = x.abs();
        if legacy(mode) && v == 0.0 {
            f32::MAX
        } else {
            1.0 / v.sqrt()
        }
    }

    /// log / logp: `log2(|x|)`; Legacy: `log(±0) = -FLT_MAX` (the SDK's own fragment).
    pub fn log(mode: FloatMode, x: f32) -> f32 {
        let v = x.abs();
        if legacy(mode) && v == 0.0 {
            -f32::MAX
        } else {
            v.log2()
        }
    }

    /// exp: `2^x`, full precision.
    pub fn exp(x: f32) -> f32 {
        x.exp2()
    }

    /// pow: `|a|^b`, as `exp2(b * log2|a|)` with the legacy multiply (so `pow(x, 0) = 1` and
    /// `pow(0, b > 0) = 0` in Legacy, and NaN for `pow(0, 0)` / `pow(inf, 0)` in Ieee).
    pub fn pow(mode: FloatMode, a: f32, b: f32) -> f32 {
        exp(pow_mul(mode, b, a.abs().log2()))
    }

    /// lit (SDK): x = w = 1; y = src.x if src.x > 0; z = pow(src.y, clamp(src.w, ±127.9961))
    /// if src.x > 0 and src.y > 0; else 0.
    pub fn lit(mode: FloatMode, s: [f32; 4]) -> [f32; 4] {
        let power = s[3].clamp(-127.9961, 127.9961);
        let y = if s[0] > 0.0 { s[0] } else { 0.0 };
        let z = if s[0] > 0.0 && s[1] > 0.0 {
            pow(mode, s[1], power)
        } else {
            0.0
        };
        [1.0, y, z, 1.0]
    }

    /// dst (SDK): (1, src0.y * src1.y, src0.z, src1.w).
    pub fn dst(mode: FloatMode, a: [f32; 4], b: [f32; 4]) -> [f32; 4] {
        [1.0, mul(mode, a[1], b[1]), a[2], b[3]]
    }

    /// frc: `x - floor(x)`.
    pub fn frc(x: f32) -> f32 {
        x - x.floor()
    }

    /// sgn (SDK): -1 if x < 0, 0 if x == 0, else 1 (so NaN gives 1).
    pub fn sgn(x: f32) -> f32 {
        if x < 0.0 {
            -1.0
        } else if x == 0.0 {
            0.0
        } else {
            1.0
        }
    }

    /// min (SDK): `src0 < src1 ? src0 : src1`.
    pub fn min(a: f32, b: f32) -> f32 {
        if a < b {
            a
        } else {
            b
        }
    }

    /// max (SDK): `src0 >= src1 ? src0 : src1`.
    pub fn max(a: f32, b: f32) -> f32 {
        if a >= b {
            a
        } else {
            b
        }
    }

    /// expp on vs_1_1 (SDK): (2^floor(x), x - floor(x), 2^x at reduced precision, 1).
    pub fn expp_11(x: f32) -> [f32; 4] {
        let f = x.floor();
        [f.exp2(), x - f, x.exp2(), 1.0]
    }

    /// nrm: `src * rsq(dp3(src, src))` with the D3D9 rules; Legacy: a zero vector gives
    /// 0 * FLT_MAX = 0 (real hardware: Wine `fp_special_test` "nrm", r500/r600/nv50 columns
    /// read 0, and Wine notes "pow and nrm never generate INF or NAN on real hardware").
    pub fn nrm(mode: FloatMode, s: [f32; 4]) -> [f32; 4] {
        let q = rsq(mode, dot(mode, s, s, 3));
        s.map(|v| mul(mode, v, q))
    }

    /// vs_2_0+ mova: round to nearest (SDK `RoundToNearest`), halves to even, as Windows
    /// does (vkd3d's `non-const-indexing.shader_test`, checked on Windows: `mova` of 0.5 reads
    /// register 0 and of 1.5 register 2; DXVK's dxbc-spirv `handleMov` rounds to nearest
    /// even). Written out from the definition, independently of `rules::address_value` and
    /// the lifter's WGSL `round`.
    pub fn mova(x: f32) -> i32 {
        let below = x.floor();
        let fraction = x - below;
        let up = fraction > 0.5 || (fraction == 0.5 && (below as i64).rem_euclid(2) == 1);
        (if up { below + 1.0 } else { below }) as i32
    }

    /// vs_1_1 `mov a0.x` floors (Wine `test_mova`, verified on Windows, contradicting the
    /// SDK page's "rounding to nearest").
    pub fn mov_a0_11(x: f32) -> i32 {
        x.floor() as i32
    }
}

/// How close a GPU value must be to the reference.
#[derive(Clone, Copy, Debug)]
enum Tol {
    Exact,
    Rel(f64),
    Abs(f64),
    /// Within the absolute or the relative bound.
    AbsOrRel(f64, f64),
}

const REL_ARITH: Tol = Tol::Rel(1.0 / (1u32 << 21) as f64);
const REL_RCP: Tol = Tol::Rel(1.0 / (1u32 << 21) as f64);
const REL_EXP_LOG: Tol = Tol::Rel(1.0 / (1u32 << 18) as f64);
const REL_POW: Tol = Tol::Rel(1.0 / (1u32 << 16) as f64);
const REL_PARTIAL: Tol = Tol::Rel(1.0 / (1u32 << 10) as f64);

fn close(got: f32, want: f32, tol: Tol) -> bool {
    if want.to_bits() == ANY.to_bits() {
        return true;
    }
    if want.is_nan() || got.is_nan() {
        return want.is_nan() && got.is_nan();
    }
    if got == want {
        return true;
    }
    if !got.is_finite() || !want.is_finite() {
        return false;
    }
    let d = (f64::from(got) - f64::from(want)).abs();
    match tol {
        Tol::Exact => false,
        Tol::Rel(r) => d <= r * f64::from(want).abs(),
        Tol::Abs(a) => d <= a,
        Tol::AbsOrRel(a, r) => d <= a || d <= r * f64::from(want).abs(),
    }
}

/// Collects mismatches so one run reports every wrong case.
#[derive(Default)]
struct Report(Vec<String>);

impl Report {
    fn check(&mut self, what: &str, got: &[f32], want: &[f32], tol: Tol) {
        let ok = got.len() == want.len() && got.iter().zip(want).all(|(&g, &w)| close(g, w, tol));
        if !ok {
            self.0
                .push(format!("{what}: got {got:?}, want {want:?} ({tol:?})"));
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

/// Constants fed to the shader.
struct Env {
    floats: Vec<[f32; 4]>,
    ints: [[i32; 4]; 16],
    bools: u32,
    /// `def c#` values patched in as raw bits after assembly (inf/NaN, which the assembler's
    /// number syntax cannot spell).
    def_bits: Vec<(u32, [f32; 4])>,
}

impl Default for Env {
    fn default() -> Self {
        Env {
            floats: vec![[0.0; 4]; 256],
            ints: [[0; 4]; 16],
            bools: 0,
            def_bits: Vec::new(),
        }
    }
}

impl Env {
    /// The device's constants: `c#` from `floats`, `i#` from `ints`, `b#n` from bit n of
    /// `bools`.
    fn constants(&self) -> VertexConstants {
        let bools: Vec<bool> = (0..32).map(|n| self.bools >> n & 1 != 0).collect();
        let mut constants = VertexConstants::default();
        constants
            .set_f(0, &self.floats)
            .set_i(0, &self.ints)
            .set_b(0, &bools);
        constants
    }
}

fn gpu() -> Result<Option<Gpu>, Box<dyn Error>> {
    Ok(Gpu::for_tests()?)
}

/// Assemble, lift with `mode`, run one vertex per entry of `inputs`, return texcoord0..2.
fn run(
    gpu: &Gpu,
    text: &str,
    mode: FloatMode,
    env: &Env,
    inputs: &[In],
) -> Result<Vec<Out>, Box<dyn Error>> {
    let mut program = assemble(text).map_err(|e| format!("{e}\n{text}"))?;
    for &(n, v) in &env.def_bits {
        let def = program
            .instructions
            .iter_mut()
            .find(|i| {
                i.opcode == Opcode::Def
                    && i.dst
                        .is_some_and(|d| d.reg.file == RegisterFile::Const && d.reg.index == n)
            })
            .ok_or_else(|| format!("no def c{n} to patch"))?;
        def.literal = Some(Literal::Float(v.map(f32::to_bits)));
    }
    let checked = check(&program, Stage::Vertex, &DeviceCaps::default())
        .map_err(|e| format!("{e}\n{text}"))?;
    let shader = translate_vertex_shader(
        &checked,
        &VertexShaderOptions {
            float_mode: mode,
            ..Default::default()
        },
    )?;
    let iface = &shader.interface;

    // No position fix-up is asked for, so the target size is not used.
    let constants = env.constants().buffers(iface, (1, 1))?;
    let uniforms: Vec<_> = constants.iter().map(d3d9_harness::Uniform::from).collect();

    let attributes: Vec<wgpu::VertexAttribute> = iface
        .inputs
        .iter()
        .filter_map(|i| {
            let location = i.location?;
            (i.register < 3).then_some(wgpu::VertexAttribute {
                format: wgpu::VertexFormat::Float32x4,
                offset: 16 * u64::from(i.register),
                shader_location: location,
            })
        })
        .collect();
    let zero: [In; 1] = [[[0.0; 4]; 3]];
    let inputs = if inputs.is_empty() { &zero[..] } else { inputs };
    let buffers = [VertexBuffer {
        layout: wgpu::VertexBufferLayout {
            array_stride: 48,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &attributes,
        },
        data: bytemuck::cast_slice(inputs),
    }];
    let vertex_buffers: &[VertexBuffer<'_>] = if attributes.is_empty() { &[] } else { &buffers };
    let outputs = gpu.vertex_outputs(&VertexProbe {
        vertex_buffers,
        uniforms: &uniforms,
        ..VertexProbe::new(ShaderStage::naga(&shader.module), inputs.len() as u32)
    })?;
    let locations: Vec<Option<u32>> = (0..3)
        .map(|k| {
            iface
                .output(Semantic::new(Usage::TexCoord, k))
                .and_then(|o| o.location)
        })
        .collect();
    Ok(outputs
        .iter()
        .map(|o| {
            let mut out = [[NAN; 4]; 3];
            for (slot, location) in out.iter_mut().zip(&locations) {
                if let Some(v) = location.and_then(|l| o.get(&l)) {
                    for (d, s) in slot.iter_mut().zip(v) {
                        *d = *s;
                    }
                }
            }
            out
        })
        .collect())
}

/// vs_3_0 header: o1..o3 = texcoord0..2, v0..v2 = texcoord0..2 inputs, fixed position; v1
/// and v2 are copied to r10 and r11, since one instruction reads one `v#` register.
const VS3: &str = "vs_3_0
dcl_position o0
dcl_texcoord0 o1
dcl_texcoord1 o2
dcl_texcoord2 o3
dcl_texcoord0 v0
dcl_texcoord1 v1
dcl_texcoord2 v2
def c95, 0.0, 0.0, 0.5, 1.0
def c94, 7.0, 7.0, 7.0, 7.0
mov o0, c95
mov r10, v1
mov r11, v2
";

/// A header before vs_3_0: v0..v2 = texcoord0..2 inputs, fixed position, results in oT0..oT2;
/// v1 and v2 copied to r10 and r11.
macro_rules! pre_3_0_header {
    ($version:literal) => {
        concat!(
            $version,
            "
dcl_texcoord0 v0
dcl_texcoord1 v1
dcl_texcoord2 v2
def c95, 0.0, 0.0, 0.5, 1.0
def c94, 7.0, 7.0, 7.0, 7.0
mov oPos, c95
mov r10, v1
mov r11, v2
"
        )
    };
}

/// vs_2_0 header: results in oT0..oT2.
const VS2: &str = pre_3_0_header!("vs_2_0");

/// vs_1_1 header: results in oT0..oT2.
const VS1: &str = pre_3_0_header!("vs_1_1");

fn shader(header: &str, body: &str) -> String {
    format!("{header}{body}\n")
}

/// Inputs where only v0 (and v1) matter.
fn v(a: [f32; 4], b: [f32; 4]) -> In {
    [a, b, [0.0; 4]]
}

fn v3(a: [f32; 4], b: [f32; 4], c: [f32; 4]) -> In {
    [a, b, c]
}

fn splat(x: f32) -> [f32; 4] {
    [x; 4]
}

/// Run a component-wise instruction under both modes and compare texcoord0; NaN is
/// checked in both modes.
fn componentwise(
    header: &str,
    body: &str,
    inputs: &[In],
    tol: Tol,
    reference: impl Fn(FloatMode, &In) -> [f32; 4],
) -> TestResult {
    componentwise_in(header, body, inputs, tol, false, reference)
}

/// [`componentwise`] for instructions under the D3D9 float rules: an Ieee NaN is [`ANY`].
fn float_rules(
    header: &str,
    body: &str,
    inputs: &[In],
    tol: Tol,
    reference: impl Fn(FloatMode, &In) -> [f32; 4],
) -> TestResult {
    componentwise_in(header, body, inputs, tol, true, reference)
}

fn componentwise_in(
    header: &str,
    body: &str,
    inputs: &[In],
    tol: Tol,
    relaxed: bool,
    reference: impl Fn(FloatMode, &In) -> [f32; 4],
) -> TestResult {
    let Some(gpu) = gpu()? else { return Ok(()) };
    let mut report = Report::default();
    for mode in MODES {
        let out = run(&gpu, &shader(header, body), mode, &Env::default(), inputs)?;
        for (input, got) in inputs.iter().zip(&out) {
            let mut want = reference(mode, input);
            if relaxed {
                want = relax(mode, want);
            }
            report.check(&format!("{body:?} {mode:?} {input:?}"), &got[0], &want, tol);
        }
    }
    report.finish();
    Ok(())
}

fn map2(a: [f32; 4], b: [f32; 4], f: impl Fn(f32, f32) -> f32) -> [f32; 4] {
    [f(a[0], b[0]), f(a[1], b[1]), f(a[2], b[2]), f(a[3], b[3])]
}

/// Pairs of special and ordinary values for binary instructions.
fn special_pairs() -> Vec<In> {
    vec![
        v([2.0, -1.5, 0.25, 1e30], [3.0, 0.25, -8.0, 1e30]),
        v([0.0, -0.0, 0.0, INF], [INF, INF, -INF, 0.0]),
        v([0.0, NAN, -0.0, 0.0], [NAN, 0.0, NAN, -MAX]),
        v([INF, NAN, -INF, 1.0], [2.0, 1.0, -0.5, NAN]),
        v([MAX, -MAX, 1e-15, 3.0], [2.0, 0.5, 1e-10, -0.0]),
    ]
}

// ---------------------------------------------------------------------------------------------
// Moves and plain arithmetic (exact)

#[test]
fn gpu_mov_add_sub_are_exact() -> TestResult {
    let inputs = special_pairs();
    componentwise(VS3, "mov o1, v0", &inputs, Tol::Exact, |_, i| i[0])?;
    componentwise(VS3, "mov o1, -v0.wzyx", &inputs, Tol::Exact, |_, i| {
        [-i[0][3], -i[0][2], -i[0][1], -i[0][0]]
    })?;
    componentwise(VS3, "add o1, v0, r10", &inputs, Tol::Exact, |_, i| {
        map2(i[0], i[1], |a, b| a + b)
    })?;
    componentwise(VS2, "sub oT0, v0, r10", &inputs, Tol::Exact, |_, i| {
        map2(i[0], i[1], |a, b| a - b)
    })?;
    componentwise(VS1, "add oT0, v0, -r10", &inputs, Tol::Exact, |_, i| {
        map2(i[0], i[1], |a, b| a - b)
    })
}

#[test]
fn gpu_min_max_follow_the_sdk_comparisons() -> TestResult {
    let inputs = vec![
        v([1.0, -2.0, NAN, 1.0], [2.0, -3.0, 1.0, NAN]),
        v([INF, -INF, 0.0, -0.0], [MAX, -MAX, -0.0, 0.0]),
    ];
    componentwise(VS3, "min o1, v0, r10", &inputs, Tol::Exact, |_, i| {
        map2(i[0], i[1], reference::min)
    })?;
    componentwise(VS2, "max oT0, v0, r10", &inputs, Tol::Exact, |_, i| {
        map2(i[0], i[1], reference::max)
    })
}

#[test]
fn gpu_slt_sge_give_one_or_zero() -> TestResult {
    let inputs = vec![
        v([1.0, 2.0, 3.0, -0.0], [2.0, 2.0, 2.0, 0.0]),
        v([NAN, 1.0, -INF, INF], [1.0, NAN, -MAX, MAX]),
    ];
    let b = |x: bool| if x { 1.0 } else { 0.0 };
    componentwise(VS3, "slt o1, v0, r10", &inputs, Tol::Exact, |_, i| {
        map2(i[0], i[1], |x, y| b(x < y))
    })?;
    componentwise(VS1, "sge oT0, v0, r10", &inputs, Tol::Exact, |_, i| {
        map2(i[0], i[1], |x, y| b(x >= y))
    })
}

#[test]
fn gpu_frc_abs_sgn() -> TestResult {
    let inputs = vec![
        v([1.25, -1.25, 0.0, -0.0], [0.0; 4]),
        v([1e20, -1e-9, 7.0, -7.5], [0.0; 4]),
        v([INF, -INF, NAN, 0.999_999_9], [0.0; 4]),
    ];
    componentwise(VS3, "frc o1, v0", &inputs, Tol::Exact, |_, i| {
        i[0].map(reference::frc)
    })?;
    componentwise(VS1, "frc oT0, v0", &inputs, Tol::Exact, |_, i| {
        i[0].map(reference::frc)
    })?;
    componentwise(VS3, "abs o1, v0", &inputs, Tol::Exact, |_, i| {
        i[0].map(f32::abs)
    })?;
    componentwise(
        VS3,
        "sgn r0, v0\nmov o1, r0",
        &inputs,
        Tol::Exact,
        |_, i| i[0].map(reference::sgn),
    )?;
    componentwise(VS2, "sgn oT0, v0, r1, r2", &inputs, Tol::Exact, |_, i| {
        i[0].map(reference::sgn)
    })
}

// ---------------------------------------------------------------------------------------------
// Multiplies: 0 * inf and 0 * NaN under Legacy and Ieee

#[test]
fn gpu_mul_mad_zero_times_inf_and_nan() -> TestResult {
    let inputs: Vec<In> = special_pairs()
        .into_iter()
        .map(|[a, b, _]| [a, b, [1.0, -2.0, 0.5, 3.0]])
        .collect();
    float_rules(VS3, "mul o1, v0, r10", &inputs, REL_ARITH, |m, i| {
        map2(i[0], i[1], |a, b| reference::mul(m, a, b))
    })?;
    float_rules(VS1, "mul oT0, v0, r10", &inputs, REL_ARITH, |m, i| {
        map2(i[0], i[1], |a, b| reference::mul(m, a, b))
    })?;
    // Same operand twice: a single zero test.
    float_rules(VS3, "mul o1, v0, v0", &inputs, REL_ARITH, |m, i| {
        map2(i[0], i[0], |a, b| reference::mul(m, a, b))
    })?;
    float_rules(VS3, "mad o1, v0, r10, r11", &inputs, REL_ARITH, |m, i| {
        let p = map2(i[0], i[1], |a, b| reference::mul(m, a, b));
        map2(p, i[2], |a, b| a + b)
    })?;
    float_rules(VS2, "mad oT0, v0, r10, r11", &inputs, REL_ARITH, |m, i| {
        let p = map2(i[0], i[1], |a, b| reference::mul(m, a, b));
        map2(p, i[2], |a, b| a + b)
    })
}

#[test]
fn gpu_mul_with_constant_buffer_and_def_specials() -> TestResult {
    let Some(gpu) = gpu()? else { return Ok(()) };
    let mut report = Report::default();
    // c0, c1 through the constant buffer (run-time values); c10, c11 `def`s carrying inf/NaN
    // as raw bits (a known operand lets the lifter narrow the zero test). One instruction
    // reads one c#, so the second operand goes through a temporary.
    let mut env = Env::default();
    env.floats[0] = [0.0, INF, NAN, -0.0];
    env.floats[1] = [INF, 0.0, 0.0, NAN];
    env.def_bits = vec![(10, [0.0, INF, NAN, 2.0]), (11, [NAN, 0.0, 0.0, INF])];
    let body = "def c10, 0, 0, 0, 0
def c11, 0, 0, 0, 0
mov r1, c1
mul o1, c0, r1
mov r2, c11
mul o2, c10, r2
mul o3, v0, c10";
    let inputs = [v([INF, 0.0, 0.0, 0.0], [0.0; 4])];
    for mode in MODES {
        let out = run(&gpu, &shader(VS3, body), mode, &env, &inputs)?;
        let m = |a: [f32; 4], b: [f32; 4]| map2(a, b, |x, y| reference::mul(mode, x, y));
        let m = |a, b| relax(mode, m(a, b));
        report.check(
            &format!("{mode:?} c0*c1"),
            &out[0][0],
            &m(env.floats[0], env.floats[1]),
            REL_ARITH,
        );
        let (c10, c11) = (env.def_bits[0].1, env.def_bits[1].1);
        report.check(
            &format!("{mode:?} def*def"),
            &out[0][1],
            &m(c10, c11),
            REL_ARITH,
        );
        report.check(
            &format!("{mode:?} v0*def"),
            &out[0][2],
            &m(inputs[0][0], c10),
            REL_ARITH,
        );
    }
    report.finish();
    Ok(())
}

/// LegacyStrict drops the zero test where an operand is provably finite (`slt` gives 0 or 1):
/// the result must still be D3D9's, with inf/NaN constants on the other side.
#[test]
fn gpu_strict_zero_rule_with_provably_finite_operands() -> TestResult {
    let Some(gpu) = gpu()? else { return Ok(()) };
    let mut report = Report::default();
    let mut env = Env::default();
    env.floats[0] = [INF, INF, NAN, 2.0];
    let body = "slt r0, v0, r10\nmul o1, r0, c0\nmul o2, r0, r0\nmad o3, r0, c0, r0";
    let inputs = [v([1.0, 2.0, 3.0, 4.0], [0.0, 5.0, 3.0, 1.0])];
    for mode in MODES {
        let out = run(&gpu, &shader(VS3, body), mode, &env, &inputs)?;
        let r0 = map2(
            inputs[0][0],
            inputs[0][1],
            |a, b| if a < b { 1.0 } else { 0.0 },
        );
        let m = |a: [f32; 4], b: [f32; 4]| map2(a, b, |x, y| reference::mul(mode, x, y));
        report.check(
            &format!("{mode:?} slt*c0"),
            &out[0][0],
            &relax(mode, m(r0, env.floats[0])),
            Tol::Exact,
        );
        report.check(
            &format!("{mode:?} slt*slt"),
            &out[0][1],
            &m(r0, r0),
            Tol::Exact,
        );
        let mad = map2(m(r0, env.floats[0]), r0, |p, c| p + c);
        report.check(
            &format!("{mode:?} slt*c0+slt"),
            &out[0][2],
            &relax(mode, mad),
            Tol::Exact,
        );
    }
    report.finish();
    Ok(())
}

#[test]
fn gpu_dp3_dp4_zero_times_inf() -> TestResult {
    let inputs = vec![
        v([1.0, 2.0, 3.0, 4.0], [0.5, -1.0, 2.0, 0.25]),
        v([0.0, 1.0, 2.0, 3.0], [INF, 1.0, 1.0, 1.0]),
        v([1.0, 0.0, 2.0, 0.0], [1.0, NAN, 1.0, INF]),
        v([1.0, 2.0, 3.0, INF], [1.0, 1.0, 1.0, 0.0]),
        v([INF, 1.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0]),
    ];
    float_rules(VS3, "dp3 o1, v0, r10", &inputs, REL_ARITH, |m, i| {
        splat(reference::dot(m, i[0], i[1], 3))
    })?;
    float_rules(VS3, "dp4 o1, v0, r10", &inputs, REL_ARITH, |m, i| {
        splat(reference::dot(m, i[0], i[1], 4))
    })?;
    float_rules(VS1, "dp4 oT0, v0, r10", &inputs, REL_ARITH, |m, i| {
        splat(reference::dot(m, i[0], i[1], 4))
    })
}

#[test]
fn gpu_matrix_instructions() -> TestResult {
    let Some(gpu) = gpu()? else { return Ok(()) };
    let mut report = Report::default();
    let mut env = Env::default();
    // Rows c0..c3; row 0 meets a zero component with inf, row 1 with NaN.
    env.floats[0] = [INF, 1.0, 2.0, 0.5];
    env.floats[1] = [1.0, NAN, -1.0, 2.0];
    env.floats[2] = [0.25, 0.5, 0.75, 1.0];
    env.floats[3] = [-1.0, 4.0, 0.0, 8.0];
    let inputs = [
        v([0.0, 0.0, 3.0, 1.0], [0.0; 4]),
        v([1.0, 2.0, 4.0, -1.0], [0.0; 4]),
        v([0.0, 1.0, 0.0, 0.0], [0.0; 4]),
    ];
    let cases: [(&str, usize, usize); 5] = [
        ("m4x4 o1, v0, c0", 4, 4),
        ("mov o1, c94\nm4x3 o1.xyz, v0, c0", 4, 3),
        ("m3x4 o1, v0, c0", 3, 4),
        ("mov o1, c94\nm3x3 o1.xyz, v0, c0", 3, 3),
        ("mov o1, c94\nm3x2 o1.xy, v0, c0", 3, 2),
    ];
    for (body, n, rows) in cases {
        for mode in MODES {
            let out = run(&gpu, &shader(VS3, body), mode, &env, &inputs)?;
            for (input, got) in inputs.iter().zip(&out) {
                let mut want = [7.0; 4];
                for (k, w) in want.iter_mut().enumerate().take(rows) {
                    *w = reference::dot(mode, input[0], env.floats[k], n);
                }
                report.check(
                    &format!("{body:?} {mode:?} {input:?}"),
                    &got[0],
                    &relax(mode, want),
                    REL_ARITH,
                );
            }
        }
    }
    // vs_1_1 m4x4 as well.
    for mode in MODES {
        let out = run(&gpu, &shader(VS1, "m4x4 oT0, v0, c0"), mode, &env, &inputs)?;
        for (input, got) in inputs.iter().zip(&out) {
            let want: [f32; 4] =
                std::array::from_fn(|k| reference::dot(mode, input[0], env.floats[k], 4));
            report.check(
                &format!("vs_1_1 m4x4 {mode:?} {input:?}"),
                &got[0],
                &relax(mode, want),
                REL_ARITH,
            );
        }
    }
    report.finish();
    Ok(())
}

#[test]
fn gpu_lrp_and_crs() -> TestResult {
    let inputs = vec![
        v3(
            [0.5, 0.0, 1.0, 0.25],
            [2.0, 3.0, -4.0, 8.0],
            [1.0, 1.0, 1.0, 0.0],
        ),
        v3(
            [2.0, -1.0, 0.75, 1.0],
            [1.0, 2.0, 3.0, 4.0],
            [-1.0, 0.5, 2.0, 4.0],
        ),
    ];
    componentwise(VS3, "lrp o1, v0, r10, r11", &inputs, REL_ARITH, |_, i| {
        std::array::from_fn(|k| i[0][k] * (i[1][k] - i[2][k]) + i[2][k])
    })?;
    // crs writes .xyz only; .w keeps what was there.
    let body = "mov r0, c94\ncrs r0.xyz, v0, r10\nmov o1, r0";
    componentwise(VS3, body, &inputs, REL_ARITH, |_, i| {
        let (a, b) = (i[0], i[1]);
        [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
            7.0,
        ]
    })?;
    // Both are mul/mad macros on D3D9 hardware: LegacyStrict's 0·x rule reaches them.
    let specials = vec![
        v3([0.0; 4], [INF, 1.0, NAN, 3.0], [1.0, 2.0, 3.0, 4.0]),
        v3([0.0, INF, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0; 4]),
    ];
    float_rules(VS3, "lrp o1, v0, r10, r11", &specials, REL_ARITH, |m, i| {
        std::array::from_fn(|k| reference::mul(m, i[0][k], i[1][k] - i[2][k]) + i[2][k])
    })?;
    float_rules(VS3, body, &specials, REL_ARITH, |m, i| {
        let (a, b) = (i[0], i[1]);
        let mul = |x, y| reference::mul(m, x, y);
        [
            mul(a[1], b[2]) - mul(a[2], b[1]),
            mul(a[2], b[0]) - mul(a[0], b[2]),
            mul(a[0], b[1]) - mul(a[1], b[0]),
            7.0,
        ]
    })
}

// ---------------------------------------------------------------------------------------------
// Scalar functions: rcp, rsq, exp, expp, log, logp, pow

fn scalars(values: &[f32]) -> Vec<In> {
    values
        .iter()
        .map(|&x| v([x, 0.0, 0.0, x], [0.0; 4]))
        .collect()
}

#[test]
fn gpu_rcp_rsq_of_zero_and_negative() -> TestResult {
    let inputs = scalars(&[
        1.0, 2.0, 3.0, -4.0, 0.0, -0.0, 1.5, 1e-30, 1e30, INF, -INF, NAN,
    ]);
    float_rules(VS3, "rcp o1, v0.x", &inputs, REL_RCP, |m, i| {
        splat(reference::rcp(m, i[0][0]))
    })?;
    float_rules(VS1, "rcp oT0, v0.w", &inputs, REL_RCP, |m, i| {
        splat(reference::rcp(m, i[0][3]))
    })?;
    float_rules(VS3, "rsq o1, v0.x", &inputs, REL_RCP, |m, i| {
        splat(reference::rsq(m, i[0][0]))
    })?;
    float_rules(VS2, "rsq oT0, v0.x", &inputs, REL_RCP, |m, i| {
        splat(reference::rsq(m, i[0][0]))
    })
}

#[test]
fn gpu_exp_log_logp() -> TestResult {
    let inputs = scalars(&[
        0.0, 1.0, 3.0, -1.5, 10.0, -10.0, 0.3, 200.0, -200.0, INF, -INF, NAN,
    ]);
    componentwise(VS3, "exp o1, v0.x", &inputs, REL_EXP_LOG, |_, i| {
        splat(reference::exp(i[0][0]))
    })?;
    let logs = scalars(&[
        1.0, 8.0, -8.0, 0.5, 3.0, 1e-30, 1e30, 0.0, -0.0, INF, -INF, NAN,
    ]);
    let log_tol = Tol::Abs(1.0 / f64::from(1u32 << 21));
    let check_log = |header: &str, body: &str, tol: Tol| {
        float_rules(header, body, &logs, tol, |m, i| {
            splat(reference::log(m, i[0][0]))
        })
    };
    // Near 1, log2 is judged by absolute error (2^-21, the SDK's full precision); elsewhere
    // by relative error; special values exactly.
    check_log(VS3, "log o1, v0.x", either(log_tol, REL_EXP_LOG))?;
    check_log(VS2, "log oT0, v0.x", either(log_tol, REL_EXP_LOG))?;
    check_log(VS1, "log oT0, v0.x", either(log_tol, REL_EXP_LOG))?;
    // logp: the SDK's partial-precision log2(|x|), replicated (10 bits).
    check_log(
        VS3,
        "logp o1, v0.x",
        either(Tol::Abs(1.0 / 1024.0), REL_PARTIAL),
    )?;
    check_log(
        VS1,
        "logp oT0, v0.x",
        either(Tol::Abs(1.0 / 1024.0), REL_PARTIAL),
    )
}

/// The looser of an absolute and a relative bound.
fn either(a: Tol, r: Tol) -> Tol {
    match (a, r) {
        (Tol::Abs(a), Tol::Rel(r)) => Tol::AbsOrRel(a, r),
        (t, _) => t,
    }
}

#[test]
fn gpu_expp_partial_precision() -> TestResult {
    let inputs = scalars(&[0.0, 1.0, 2.5, -1.25, 7.75, -3.5, 0.5]);
    // vs_1_1: (2^floor(x), x - floor(x), 2^x at reduced precision, 1).
    let Some(gpu) = gpu()? else { return Ok(()) };
    let mut report = Report::default();
    for mode in MODES {
        let out = run(
            &gpu,
            &shader(VS1, "expp oT0, v0.x"),
            mode,
            &Env::default(),
            &inputs,
        )?;
        for (input, got) in inputs.iter().zip(&out) {
            let want = reference::expp_11(input[0][0]);
            let what = format!("vs_1_1 expp {mode:?} {input:?}");
            report.check(
                &what,
                &[got[0][0], got[0][1], got[0][3]],
                &[want[0], want[1], want[3]],
                Tol::Exact,
            );
            report.check(&what, &got[0][2..3], &want[2..3], REL_PARTIAL);
        }
        // vs_2_0+: 2^x replicated (partial precision allowed: 10 bits).
        let out = run(
            &gpu,
            &shader(VS3, "expp o1, v0.x"),
            mode,
            &Env::default(),
            &inputs,
        )?;
        for (input, got) in inputs.iter().zip(&out) {
            let want = splat(reference::exp(input[0][0]));
            report.check(
                &format!("vs_3_0 expp {mode:?} {input:?}"),
                &got[0],
                &want,
                REL_PARTIAL,
            );
        }
    }
    report.finish();
    Ok(())
}

#[test]
fn gpu_pow_uses_absolute_base() -> TestResult {
    let inputs = vec![
        v([2.0, 0.0, 0.0, 0.0], [3.0, 0.0, 0.0, 0.0]),
        v([-2.0, 0.0, 0.0, 0.0], [2.0, 0.0, 0.0, 0.0]),
        v([-2.0, 0.0, 0.0, 0.0], [3.0, 0.0, 0.0, 0.0]),
        v([0.5, 0.0, 0.0, 0.0], [-4.0, 0.0, 0.0, 0.0]),
        v([10.0, 0.0, 0.0, 0.0], [0.5, 0.0, 0.0, 0.0]),
        v([0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]),
        v([0.0, 0.0, 0.0, 0.0], [2.0, 0.0, 0.0, 0.0]),
        v([INF, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]),
        v([NAN, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]),
        v([3.0, 0.0, 0.0, 0.0], [NAN, 0.0, 0.0, 0.0]),
    ];
    float_rules(VS3, "pow o1, v0.x, r10.x", &inputs, REL_POW, |m, i| {
        splat(reference::pow(m, i[0][0], i[1][0]))
    })?;
    float_rules(VS2, "pow oT0, v0.x, r10.x", &inputs, REL_POW, |m, i| {
        splat(reference::pow(m, i[0][0], i[1][0]))
    })
}

// ---------------------------------------------------------------------------------------------
// lit, dst, nrm, sincos

#[test]
fn gpu_lit_with_negative_and_large_powers() -> TestResult {
    let inputs: Vec<In> = [
        [1.0, 0.5, 0.0, 2.0],
        [-1.0, 0.5, 0.0, 2.0],
        [1.0, -0.5, 0.0, 2.0],
        [0.5, 0.5, 0.0, -2.0],
        [2.0, 0.0, 0.0, 3.0],
        [1.0, 2.0, 0.0, 200.0],
        [1.0, 0.5, 0.0, -200.0],
        [1.0, 1.5, 0.0, 127.9961],
        [1.0, 0.25, 0.0, 0.0],
        [1.0, INF, 0.0, 0.0],
        [NAN, 0.5, 0.0, 1.0],
        [1.0, 0.5, 0.0, NAN],
    ]
    .into_iter()
    .map(|s| v(s, [0.0; 4]))
    .collect();
    let tol_of = |k: usize| if k == 2 { REL_POW } else { Tol::Exact };
    for (header, body) in [(VS3, "lit o1, v0"), (VS1, "lit oT0, v0")] {
        let Some(gpu) = gpu()? else { return Ok(()) };
        let mut report = Report::default();
        for mode in MODES {
            let out = run(&gpu, &shader(header, body), mode, &Env::default(), &inputs)?;
            for (input, got) in inputs.iter().zip(&out) {
                let mut want = relax(mode, reference::lit(mode, input[0]));
                if input[0][3].is_nan() {
                    // The SDK's clamp leaves a NaN power NaN; WGSL's clamp of NaN is
                    // unspecified (lavapipe returns a bound), so z is not checked.
                    want[2] = ANY;
                }
                for k in 0..4 {
                    report.check(
                        &format!("{body} {mode:?} {input:?} [{k}]"),
                        &got[0][k..=k],
                        &want[k..=k],
                        tol_of(k),
                    );
                }
            }
        }
        report.finish();
    }
    Ok(())
}

#[test]
fn gpu_dst_zero_times_inf() -> TestResult {
    let inputs = vec![
        v([9.0, 2.0, 3.0, 9.0], [9.0, 4.0, 9.0, 5.0]),
        v([9.0, 0.0, 3.0, 9.0], [9.0, INF, 9.0, 5.0]),
        v([9.0, NAN, -1.0, 9.0], [9.0, 0.0, 9.0, NAN]),
    ];
    float_rules(VS3, "dst o1, v0, r10", &inputs, REL_ARITH, |m, i| {
        reference::dst(m, i[0], i[1])
    })?;
    float_rules(VS1, "dst oT0, v0, r10", &inputs, REL_ARITH, |m, i| {
        reference::dst(m, i[0], i[1])
    })
}

#[test]
fn gpu_nrm_including_the_zero_vector() -> TestResult {
    let inputs = vec![
        v([3.0, 4.0, 0.0, 9.0], [0.0; 4]),
        v([1.0, -2.0, 2.0, 0.0], [0.0; 4]),
        v([0.0, 0.0, 0.0, 5.0], [0.0; 4]),
        v([-0.0, 0.0, -0.0, 0.0], [0.0; 4]),
        v([1e-10, 0.0, 0.0, 0.0], [0.0; 4]),
    ];
    // nrm writes .xyz; w keeps c94.w = 7.
    let body = "mov r0, c94\nnrm r0.xyz, v0\nmov o1, r0";
    float_rules(VS3, body, &inputs, REL_ARITH, |m, i| {
        let n = reference::nrm(m, i[0]);
        [n[0], n[1], n[2], 7.0]
    })?;
    let body = "mov r0, c94\nnrm r0.xyz, v0\nmov oT0, r0";
    float_rules(VS2, body, &inputs, REL_ARITH, |m, i| {
        let n = reference::nrm(m, i[0]);
        [n[0], n[1], n[2], 7.0]
    })
}

#[test]
fn gpu_sincos_both_forms() -> TestResult {
    let Some(gpu) = gpu()? else { return Ok(()) };
    let mut report = Report::default();
    let pi = std::f32::consts::PI;
    let narrow: Vec<f32> = (0..=64).map(|k| -pi + 2.0 * pi * k as f32 / 64.0).collect();
    let wide: Vec<f32> = (0..=50).map(|k| -100.0 + 4.0 * k as f32 + 0.123).collect();
    for (values, tol) in [(&narrow, Tol::Abs(1e-5)), (&wide, Tol::Abs(1e-3))] {
        let inputs = scalars(values);
        // vs_3_0: sincos dst, src (.x = cos, .y = sin, .zw untouched); vs_2_0: two extra
        // constant sources (D3DSINCOSCONST1/2) that the result does not depend on.
        let forms = [
            (VS3, "mov r0, c94\nsincos r0.xy, v0.x\nmov o1, r0"),
            (
                VS2,
                "def c90, -1.5500992e-006, -2.1701389e-005, 0.0026041667, 0.00026041668
def c91, -0.020833334, -0.125, 1, 0.5
mov r0, c94
sincos r0.xy, v0.x, c90, c91
mov oT0, r0",
            ),
        ];
        for (header, body) in forms {
            for mode in MODES {
                let out = run(&gpu, &shader(header, body), mode, &Env::default(), &inputs)?;
                for (input, got) in inputs.iter().zip(&out) {
                    let x = f64::from(input[0][0]);
                    let want = [x.cos() as f32, x.sin() as f32];
                    report.check(
                        &format!("sincos {header:.6} {mode:?} x = {x}"),
                        &got[0][..2],
                        &want,
                        tol,
                    );
                    report.check(
                        &format!("sincos .zw {mode:?}"),
                        &got[0][2..],
                        &[7.0, 7.0],
                        Tol::Exact,
                    );
                }
            }
        }
        // Single-component writes: .x only (cos) and .y only (sin).
        let body = "mov r0, c94\nsincos r0.x, v0.x\nsincos r0.y, v0.x\nmov o1, r0";
        let out = run(
            &gpu,
            &shader(VS3, body),
            FloatMode::Legacy,
            &Env::default(),
            &inputs,
        )?;
        for (input, got) in inputs.iter().zip(&out) {
            let x = f64::from(input[0][0]);
            report.check(
                &format!("sincos split x = {x}"),
                &got[0][..2],
                &[x.cos() as f32, x.sin() as f32],
                tol,
            );
        }
    }
    report.finish();
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Address registers and relative constants

/// c0..c255 = (k, k + 0.25, -k, 1): a read tells which register it hit; the zero register
/// (out of range) reads (0, 0, 0, 0).
fn indexed_env() -> Env {
    let mut env = Env::default();
    for (k, c) in env.floats.iter_mut().enumerate() {
        let k = k as f32;
        *c = [k, k + 0.25, -k, 1.0];
    }
    env
}

fn register_value(index: i64) -> [f32; 4] {
    if (0..256).contains(&index) {
        let k = index as f32;
        [k, k + 0.25, -k, 1.0]
    } else {
        [0.0; 4]
    }
}

#[test]
fn gpu_mova_rounds_to_nearest() -> TestResult {
    let Some(gpu) = gpu()? else { return Ok(()) };
    let mut report = Report::default();
    let env = indexed_env();
    // Wine test_mova's values (Windows-verified), then the halves.
    let xs = [
        -2.4, -1.6, -0.4, 0.4, 1.6, 2.4, -2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.0, -0.0,
    ];
    let inputs: Vec<In> = xs
        .iter()
        .map(|&x| v([x, x + 3.0, 0.0, 0.0], [0.0; 4]))
        .collect();
    // vs_2_0 and vs_3_0: mova rounds; a0.y indexes independently.
    for header in [VS2, VS3] {
        let out_reg = if header == VS2 { "oT" } else { "o" };
        let first = if header == VS2 { 0 } else { 1 };
        let body = format!(
            "mova a0.xy, v0\nmov {out_reg}{first}, c10[a0.x]\nmov {out_reg}{}, c20[a0.y]",
            first + 1
        );
        let out = run(
            &gpu,
            &shader(header, &body),
            FloatMode::Legacy,
            &env,
            &inputs,
        )?;
        for (input, got) in inputs.iter().zip(&out) {
            let (x, y) = (input[0][0], input[0][1]);
            let wx = register_value(10 + i64::from(reference::mova(x)));
            let wy = register_value(20 + i64::from(reference::mova(y)));
            report.check(
                &format!("{:.6} mova a0.x = {x}", header),
                &got[0],
                &wx,
                Tol::Exact,
            );
            report.check(
                &format!("{:.6} mova a0.y = {y}", header),
                &got[1],
                &wy,
                Tol::Exact,
            );
        }
    }
    // vs_1_1: mov a0.x floors.
    let out = run(
        &gpu,
        &shader(VS1, "mov a0.x, v0.x\nmov oT0, c10[a0.x]"),
        FloatMode::Legacy,
        &env,
        &inputs,
    )?;
    for (input, got) in inputs.iter().zip(&out) {
        let x = input[0][0];
        let want = register_value(10 + i64::from(reference::mov_a0_11(x)));
        report.check(
            &format!("vs_1_1 mov a0.x = {x}"),
            &got[0],
            &want,
            Tol::Exact,
        );
    }
    report.finish();
    Ok(())
}

/// Windows' answers for `mova` of halves: vkd3d's `tests/hlsl/non-const-indexing.shader_test`
/// (vkd3d 1.17, lines 364-411; vkd3d's tests pass against Windows' d3d9), whose vertex shader
/// `tex = f[i.x + i.y]` (float `f[3]` at c0..c2, `i` at c3) vkd3d-compiler writes as below
/// (the corpus' vs_2_0 and vs_3_0 bytecode, disassembled). Expected: i = (0, 0) f[0],
/// (1, 0) and (0, 1) f[1], (1, 1) f[2], (0.5, 0) f[0] (line 403), (0, 1.4) f[1], (1.5, 0)
/// f[2] (line 411): halves go to the even neighbour.
#[test]
fn gpu_mova_rounds_halves_to_even_as_windows() -> TestResult {
    let Some(gpu) = gpu()? else { return Ok(()) };
    let mut report = Report::default();
    let f = [
        [1.0, 2.0, 3.0, 4.0],
        [5.0, 6.0, 7.0, 8.0],
        [9.0, 10.0, 11.0, 12.0],
    ];
    let cases: [([f32; 2], usize); 7] = [
        ([0.0, 0.0], 0),
        ([1.0, 0.0], 1),
        ([0.0, 1.0], 1),
        ([1.0, 1.0], 2),
        ([0.5, 0.0], 0),
        ([0.0, 1.4], 1),
        ([1.5, 0.0], 2),
    ];
    let body = "mov r1.xy, c3.xyx\nmov r1.yz, c3.xxyx\nmov r1.y, r1.xzx\nadd r1.x, r1.x, r1.y\n\
                mova a0.x, r1.x\nmov r1, c[a0.x]";
    for (header, out) in [(VS2, "oT0"), (VS3, "o1")] {
        for (i, want) in cases {
            let mut env = Env::default();
            env.floats[..3].copy_from_slice(&f);
            env.floats[3] = [i[0], i[1], 0.0, 0.0];
            let text = shader(header, &format!("{body}\nmov {out}, r1"));
            let got = run(&gpu, &text, FloatMode::Legacy, &env, &[])?;
            report.check(
                &format!("{} i = {i:?}", &header[..6]),
                &got[0][0],
                &f[want],
                Tol::Exact,
            );
        }
    }
    report.finish();
    Ok(())
}

#[test]
fn gpu_relative_constants_out_of_range_read_zero() -> TestResult {
    let Some(gpu) = gpu()? else { return Ok(()) };
    let mut report = Report::default();
    let env = indexed_env();
    let offsets = [
        0.0, 5.0, -1.0, -10.0, -300.0, 245.0, 246.0, 300.0, 1e9, -1e9, 255.0,
    ];
    let inputs: Vec<In> = offsets.iter().map(|&x| v(splat(x), [0.0; 4])).collect();
    for (header, body, base) in [
        (VS3, "mova a0.x, v0.x\nmov o1, c10[a0.x]", 10),
        (VS2, "mova a0.x, v0.x\nmov oT0, c0[a0.x]", 0),
        (VS1, "mov a0.x, v0.x\nmov oT0, c10[a0.x]", 10),
    ] {
        let out = run(
            &gpu,
            &shader(header, body),
            FloatMode::Legacy,
            &env,
            &inputs,
        )?;
        for (input, got) in inputs.iter().zip(&out) {
            let x = input[0][0];
            let want = register_value(base + x as i64);
            report.check(&format!("{body:?} a0.x = {x}"), &got[0], &want, Tol::Exact);
        }
    }
    // m4x4 with a relative matrix base: rows c[a0.x + 10 .. + 13], the last ones past 255.
    let body = "mova a0.x, v0.x\nm4x4 o1, v1, c10[a0.x]";
    let inputs: Vec<In> = [0.0, 244.0, 246.0, -12.0]
        .iter()
        .map(|&x| v(splat(x), [1.0, 1.0, 1.0, 1.0]))
        .collect();
    for mode in MODES {
        let out = run(&gpu, &shader(VS3, body), mode, &env, &inputs)?;
        for (input, got) in inputs.iter().zip(&out) {
            let a = input[0][0] as i64;
            let want: [f32; 4] = std::array::from_fn(|k| {
                reference::dot(mode, input[1], register_value(10 + a + k as i64), 4)
            });
            report.check(
                &format!("m4x4 c10[a0.x = {a}] {mode:?}"),
                &got[0],
                &want,
                Tol::Exact,
            );
        }
    }
    report.finish();
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Flow control

/// A D3D9 comparison (`setp_<cmp>`, `if_<cmp>`, `break_<cmp>`) on the CPU.
type Comparison = fn(f32, f32) -> bool;

/// The six comparisons as the SDK writes them (`src0 > src1` …), with IEEE semantics: the
/// five ordered ones are false when a NaN is involved, and `ne` is the negation of `eq`, so
/// NaN gives true (C's `!=`, and DXVK's `OpFUnordNotEqual`).
const COMPARISONS: [(&str, Comparison); 6] = [
    ("gt", |a, b| a > b),
    ("lt", |a, b| a < b),
    ("ge", |a, b| a >= b),
    ("le", |a, b| a <= b),
    ("eq", |a, b| a == b),
    ("ne", |a, b| a != b),
];

/// Run a flow-control body over one vertex with `env`, returning texcoord0.
fn flow(
    gpu: &Gpu,
    header: &str,
    body: &str,
    env: &Env,
    input: In,
) -> Result<[f32; 4], Box<dyn Error>> {
    let out = run(gpu, &shader(header, body), FloatMode::Legacy, env, &[input])?;
    Ok(out[0][0])
}

#[test]
fn gpu_setp_and_predication() -> TestResult {
    let Some(gpu) = gpu()? else { return Ok(()) };
    let mut report = Report::default();
    let input = v([1.0, 5.0, -2.0, NAN], [2.0, 5.0, -3.0, 0.0]);
    let header = VS3;
    // setp_<cmp> p0, v0, v1 per component, then (p0) / (!p0) predicated movs.
    let cmps = COMPARISONS;
    for (name, f) in cmps {
        let body = format!(
            "def c90, 1, 1, 1, 1\ndef c91, -1, -1, -1, -1\nmov r0, c94\nsetp_{name} p0, v0, r10\n(p0) mov r0, c90\n(!p0) add r0, r0, c91\nmov o1, r0"
        );
        let got = flow(&gpu, header, &body, &Env::default(), input)?;
        let want = map2(input[0], input[1], |a, b| if f(a, b) { 1.0 } else { 6.0 });
        report.check(&format!("setp_{name}"), &got, &want, Tol::Exact);
    }
    // Replicated predicate component: (p0.y) applies p0.y to every component.
    let body =
        "def c90, 1, 1, 1, 1\nmov r0, c94\nsetp_gt p0, v0, r10\n(p0.z) mov r0, c90\nmov o1, r0";
    let got = flow(&gpu, header, body, &Env::default(), input)?;
    report.check("(p0.z) mov", &got, &splat(1.0), Tol::Exact);
    // vs_2_x has predication too.
    let vs2x = VS2.replace("vs_2_0", "vs_2_x");
    let body =
        "def c90, 1, 1, 1, 1\nmov r0, c94\nsetp_lt p0, v0, r10\n(!p0) mov r0, c90\nmov oT0, r0";
    let got = flow(&gpu, &vs2x, body, &Env::default(), input)?;
    report.check("vs_2_x (!p0) mov", &got, &[7.0, 1.0, 1.0, 1.0], Tol::Exact);
    report.finish();
    Ok(())
}

#[test]
fn gpu_if_ifc_else() -> TestResult {
    let Some(gpu) = gpu()? else { return Ok(()) };
    let mut report = Report::default();
    let body_if =
        "def c90, 1, 1, 1, 1\ndef c91, 2, 2, 2, 2\nif b3\nmov o1, c90\nelse\nmov o1, c91\nendif";
    for bools in [0u32, 1 << 3, !(1 << 3)] {
        let env = Env {
            bools,
            ..Env::default()
        };
        let got = flow(&gpu, VS3, body_if, &env, v([0.0; 4], [0.0; 4]))?;
        let want = if bools & (1 << 3) != 0 { 1.0 } else { 2.0 };
        report.check(
            &format!("if b3 (bools {bools:#x})"),
            &got,
            &splat(want),
            Tol::Exact,
        );
    }
    // defb compiled in.
    let body = "defb b1, true\ndef c90, 1, 1, 1, 1\nmov oT0, c94\nif b1\nmov oT0, c90\nendif";
    let got = flow(&gpu, VS2, body, &Env::default(), v([0.0; 4], [0.0; 4]))?;
    report.check("defb b1 true", &got, &splat(1.0), Tol::Exact);
    // ifc with every comparison, nested.
    let cmps = COMPARISONS;
    let vs2x = VS2.replace("vs_2_0", "vs_2_x");
    for (a, b) in [(1.0, 2.0), (2.0, 2.0), (3.0, 2.0), (NAN, 1.0)] {
        for (name, f) in cmps {
            let body = format!(
                "def c90, 1, 1, 1, 1\ndef c91, 2, 2, 2, 2\nmov r0, c94\nif_{name} v0.x, r10.x\nmov r0, c90\nif_gt v0.x, v0.x\nmov r0, c94\nendif\nelse\nmov r0, c91\nendif\nmov oT0, r0"
            );
            let got = flow(&gpu, &vs2x, &body, &Env::default(), v(splat(a), splat(b)))?;
            let want = if f(a, b) { 1.0 } else { 2.0 };
            report.check(
                &format!("if_{name} {a} {b}"),
                &got,
                &splat(want),
                Tol::Exact,
            );
        }
    }
    report.finish();
    Ok(())
}

#[test]
fn gpu_loop_rep_al_and_breaks() -> TestResult {
    let Some(gpu) = gpu()? else { return Ok(()) };
    let mut report = Report::default();
    // loop aL, i0: i0 = (count, start, step); sum c[aL] over the iterations into r0.
    let env_for = |count: i32, start: i32, step: i32| {
        let mut env = indexed_env();
        env.ints[0] = [count, start, step, 0];
        env.ints[1] = [count, 0, 0, 0];
        env
    };
    let sum_al = |count: i32, start: i32, step: i32, limit: Option<i32>| {
        let mut acc = [0.0f32; 4];
        let mut al = start;
        for _ in 0..count.clamp(0, 255) {
            if limit.is_some_and(|l| al >= l) {
                break;
            }
            let c = register_value(i64::from(al) + 2);
            acc = map2(acc, c, |a, b| a + b);
            al += step;
        }
        acc
    };
    let body =
        "def c90, 0, 0, 0, 0\nmov r0, c90\nloop aL, i0\nadd r0, r0, c2[aL]\nendloop\nmov o1, r0";
    for (count, start, step) in [(4, 0, 1), (3, 10, 2), (5, 7, -1), (0, 0, 1), (2, 250, 3)] {
        let got = flow(
            &gpu,
            VS3,
            body,
            &env_for(count, start, step),
            v([0.0; 4], [0.0; 4]),
        )?;
        report.check(
            &format!("loop aL count {count} start {start} step {step}"),
            &got,
            &sum_al(count, start, step, None),
            Tol::Exact,
        );
    }
    // vs_2_0 loop and rep.
    let body2 =
        "def c90, 0, 0, 0, 0\nmov r0, c90\nloop aL, i0\nadd r0, r0, c2[aL]\nendloop\nmov oT0, r0";
    let got = flow(&gpu, VS2, body2, &env_for(3, 1, 1), v([0.0; 4], [0.0; 4]))?;
    report.check("vs_2_0 loop", &got, &sum_al(3, 1, 1, None), Tol::Exact);
    let rep = "def c90, 0, 0, 0, 0\ndef c91, 1, 2, 0.5, 0\nmov r0, c90\nrep i1\nadd r0, r0, c91\nendrep\nmov oT0, r0";
    for count in [0, 1, 6, 300] {
        let got = flow(&gpu, VS2, rep, &env_for(count, 0, 0), v([0.0; 4], [0.0; 4]))?;
        let n = count.clamp(0, 255) as f32;
        report.check(
            &format!("rep {count}"),
            &got,
            &[n, 2.0 * n, 0.5 * n, 0.0],
            Tol::Exact,
        );
    }
    // breakc (break_ge aL-driven value), break inside if, breakp.
    let vs2x = VS2.replace("vs_2_0", "vs_2_x");
    let breakc = "def c90, 0, 0, 0, 0\ndef c91, 1, 1, 1, 1\nmov r0, c90\nmov r1, c90\nrep i1\nbreak_ge r1.x, v0.x\nadd r0, r0, c91\nadd r1, r1, c91\nendrep\nmov oT0, r0";
    for limit in [0.0, 2.0, 5.0, 100.0] {
        let got = flow(
            &gpu,
            &vs2x,
            breakc,
            &env_for(10, 0, 0),
            v(splat(limit), [0.0; 4]),
        )?;
        let n = limit.min(10.0);
        report.check(&format!("break_ge at {limit}"), &got, &splat(n), Tol::Exact);
    }
    let brk = "def c90, 0, 0, 0, 0\ndef c91, 1, 1, 1, 1\nmov r0, c90\nrep i1\nif_ge r0.x, v0.x\nbreak\nendif\nadd r0, r0, c91\nendrep\nmov oT0, r0";
    let got = flow(
        &gpu,
        &vs2x,
        brk,
        &env_for(10, 0, 0),
        v(splat(3.0), [0.0; 4]),
    )?;
    report.check("break in if", &got, &splat(3.0), Tol::Exact);
    let brkp = "def c90, 0, 0, 0, 0\ndef c91, 1, 1, 1, 1\nmov r0, c90\nrep i1\nsetp_ge p0, r0, v0\nbreakp p0.y\nadd r0, r0, c91\nendrep\nmov oT0, r0";
    let got = flow(
        &gpu,
        &vs2x,
        brkp,
        &env_for(10, 0, 0),
        v([100.0, 4.0, 100.0, 100.0], [0.0; 4]),
    )?;
    report.check("breakp p0.y", &got, &splat(4.0), Tol::Exact);
    // vs_3_0 loop with break_gt on aL itself via a relative output of the constant.
    let limit = "def c90, 0, 0, 0, 0\nmov r0, c90\nloop aL, i0\nmov r1, c2[aL]\nbreak_gt r1.x, v0.x\nadd r0, r0, c2[aL]\nendloop\nmov o1, r0";
    let got = flow(
        &gpu,
        VS3,
        limit,
        &env_for(10, 0, 1),
        v(splat(4.5), [0.0; 4]),
    )?;
    // c[aL + 2].x = aL + 2; breaks once aL + 2 > 4.5, i.e. at aL = 3.
    report.check(
        "loop break_gt",
        &got,
        &sum_al(10, 0, 1, Some(3)),
        Tol::Exact,
    );
    report.finish();
    Ok(())
}

#[test]
fn gpu_call_callnz_ret() -> TestResult {
    let Some(gpu) = gpu()? else { return Ok(()) };
    let mut report = Report::default();
    // call l1 twice (r0 += 1 each), callnz l2 on b2, callnz l3 on p0.x and on !p0.y. (Code
    // after a subroutine's `ret` before the next label is refused by D3D9's checker.)
    let body = "def c90, 0, 0, 0, 0
def c91, 1, 1, 1, 1
def c92, 10, 10, 10, 10
mov r0, c90
call l1
call l1
callnz l2, b2
setp_gt p0, v0, r10
callnz l3, p0.x
callnz l3, !p0.y
mov o1, r0
ret
label l1
add r0, r0, c91
ret
label l2
add r0, r0, c92
ret
label l3
add r0, r0, c92
add r0, r0, c92
ret
";
    // v0 = (x, 0, 0, 0), v1 = (1, y, 0, 0): p0.x = x > 1, p0.y = 0 > y.
    for (bools, x, y) in [
        (0u32, 1.0, 1.0),
        (1 << 2, 1.0, 1.0),
        (1 << 2, 2.0, -1.0),
        (0, 2.0, 1.0),
    ] {
        let env = Env {
            bools,
            ..Env::default()
        };
        let got = flow(
            &gpu,
            VS3,
            body,
            &env,
            v([x, 0.0, 0.0, 0.0], [1.0, y, 0.0, 0.0]),
        )?;
        let mut want: f32 = 2.0;
        if bools & (1 << 2) != 0 {
            want += 10.0;
        }
        if x > 1.0 {
            want += 20.0;
        }
        if y >= 0.0 {
            want += 20.0;
        }
        report.check(
            &format!("call/callnz b2 {bools:#x} x {x} y {y}"),
            &got,
            &splat(want),
            Tol::Exact,
        );
    }
    report.finish();
    Ok(())
}
