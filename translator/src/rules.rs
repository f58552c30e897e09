//! The D3D9 instruction rules that both executions of a shader share: the lifter emits them as
//! naga IR (`lift::numerics`, `lift::writes`, `lift::flow`), the reference interpreter
//! (`interp`) computes them on the CPU. Each value or rule is written here once; a fix lands
//! in both.
//!
//! `FloatMode` decides which rules apply (see `lift::numerics` for the full statement):
//! `LegacyStrict` multiplies with `0 * x = 0` for every x; `Legacy` and `LegacyStrict` give
//! rcp/rsq/log their D3D9 values at 0; `Ieee` is plain IEEE arithmetic. rsq, log and pow take
//! |x| in every mode (the SDK's definition of those instructions).

/// How D3D9 float arithmetic is emulated (re-exported as `lift::FloatMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FloatMode {
    /// D3D9 hardware rules, in the cheap form that gives the same results for the values D3D9
    /// content meets (see `docs/decisions.md` for where it differs from `LegacyStrict`).
    #[default]
    Legacy,
    /// D3D9 hardware rules, exactly: `0 * x = 0` for every x (inf and NaN included) in
    /// multiplies, dot products, matrix ops, lit, dst and pow; `rcp(0) = rsq(0) = FLT_MAX`;
    /// `log(0) = -FLT_MAX`.
    LegacyStrict,
    /// Plain IEEE arithmetic (faster, for well-behaved content). rsq, log and pow still take
    /// |x| in both modes: that is the SDK's definition of those instructions.
    Ieee,
}

/// `rcp(±0)` and `rsq(±0)` on D3D9 hardware: +FLT_MAX, not +inf.
pub const RCP_OF_ZERO: f32 = f32::MAX;
/// `log(±0)` on D3D9 hardware: -FLT_MAX, not -inf.
pub const LOG_OF_ZERO: f32 = -f32::MAX;
/// `lit` clamps its power (`src.w`) to ±127.9961 (SDK).
pub const LIT_POWER_LIMIT: f32 = 127.9961;
/// The most iterations a `loop` or `rep` runs (`i#.x` is clamped to it).
pub const MAX_LOOP_ITERATIONS: i32 = 255;
/// The most iterations of a `loop` or `rep` in the software profiles (`vs_2_sw`, `vs_3_sw`,
/// `ps_2_sw`, `ps_3_sw`): "Iteration count can be up to MAX_INT/64" (the SDK's "Software
/// Shaders" page), whose start and step are 32-bit signed integers.
pub const MAX_SOFTWARE_LOOP_ITERATIONS: i32 = i32::MAX / 64;
/// The range a0 is clamped to before conversion to an integer (it only indexes clamped
/// arrays, so any value past every register file is the same).
pub const ADDRESS_RANGE: f32 = 65536.0;

/// Whether rcp/rsq/log/pow follow D3D9 (the two legacy modes).
pub fn legacy_results(mode: FloatMode) -> bool {
    mode != FloatMode::Ieee
}

/// Whether every multiply gives 0 when an operand is 0 (inf and NaN included).
pub fn strict_multiplies(mode: FloatMode) -> bool {
    mode == FloatMode::LegacyStrict
}

/// `a * b` as D3D9 multiplies (mul, mad, dp#, m#x#, lrp, lit, dst, nrm, pow, crs).
pub fn mul(mode: FloatMode, a: f32, b: f32) -> f32 {
    if strict_multiplies(mode) && (a == 0.0 || b == 0.0) {
        0.0
    } else {
        a * b
    }
}

/// `dp3`/`dp4`: the products summed left to right.
pub fn dot(mode: FloatMode, a: &[f32], b: &[f32]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(&x, &y)| mul(mode, x, y))
        .fold(None, |acc: Option<f32>, p| Some(acc.map_or(p, |s| s + p)))
        .unwrap_or(0.0)
}

/// `rcp`: 1/x; the legacy modes give [`RCP_OF_ZERO`] for ±0.
pub fn rcp(mode: FloatMode, x: f32) -> f32 {
    if legacy_results(mode) && x == 0.0 {
        RCP_OF_ZERO
    } else {
        1.0 / x
    }
}

/// `rsq`: 1/sqrt(|x|); the legacy modes give [`RCP_OF_ZERO`] for ±0.
pub fn rsq(mode: FloatMode, x: f32) -> f32 {
    if legacy_results(mode) && x == 0.0 {
        RCP_OF_ZERO
    } else {
        1.0 / x.abs().sqrt()
    }
}

/// `log`/`logp`: log2(|x|); the legacy modes give [`LOG_OF_ZERO`] for ±0.
pub fn log(mode: FloatMode, x: f32) -> f32 {
    if legacy_results(mode) && x == 0.0 {
        LOG_OF_ZERO
    } else {
        x.abs().log2()
    }
}

/// `exp`/`expp`: 2^x.
pub fn exp(x: f32) -> f32 {
    x.exp2()
}

/// `pow`: |a|^b as `exp2(b * log2|a|)` (how GPUs evaluate pow, so that both executions
/// meet the same special values), with `log2|0|` taken as [`LOG_OF_ZERO`] in every mode:
/// Vulkan leaves `log2(0)` undefined (lavapipe's is not -inf), so Ieee would otherwise differ
/// per driver. `pow(0, b)` is then 0 for b > 0, +inf for b < 0 and 1 for b = 0, as IEEE's
/// `pow` gives (for |b| above 2^-121; smaller exponents give values in between). The legacy modes apply the zero rule to the
/// multiply (so `pow(x, 0) = 1` for every x and `pow(0, b) = 0` for b > 0).
pub fn pow(mode: FloatMode, a: f32, b: f32) -> f32 {
    let l = if a == 0.0 {
        LOG_OF_ZERO
    } else {
        a.abs().log2()
    };
    let m = if legacy_results(mode) && (b == 0.0 || l == 0.0) {
        0.0
    } else {
        b * l
    };
    m.exp2()
}

/// The value an address register (a0) takes from a float: vs_1_1 `mov a0` floors, `mova`
/// (vs_2_0 and later) rounds to nearest with halves to even; then clamped to
/// ±[`ADDRESS_RANGE`]. Windows: vkd3d's `non-const-indexing.shader_test` (checked on Windows)
/// indexes `c[a0.x]` after `mova a0.x` of 0.5 and 1.5 and expects registers 0 and 2; DXVK's
/// dxbc-spirv (`sm3_converter.cpp`, `handleMov`) rounds to nearest even from vs_2_0 on and
/// floors vs_1_1's `mov a0`; Wine's `test_mova` (Windows) shows vs_1_1's floor.
pub fn address_value(x: f32, vs_1_1: bool) -> i32 {
    let rounded = if vs_1_1 {
        x.floor()
    } else {
        x.round_ties_even()
    };
    // NaN: the clamp leaves NaN, and WGSL's float-to-int conversion of NaN is 0 on the
    // drivers we run (Rust's `as` gives 0 too).
    rounded.clamp(-ADDRESS_RANGE, ADDRESS_RANGE) as i32
}

/// A denormal flushed to zero (sign kept), as D3D9 hardware and the GPUs we run on (llvmpipe,
/// through Vulkan and GL) treat denormal operands and results of arithmetic. The lifter
/// leaves this to the GPU; the interpreter applies it to every operand it reads and every
/// result it computes.
pub fn flush_denormal(x: f32) -> f32 {
    if x != 0.0 && x.abs() < f32::MIN_POSITIVE {
        0.0f32.copysign(x)
    } else {
        x
    }
}

/// `_sat`: clamp to [0, 1]; NaN becomes 0 (D3D9, and WGSL `saturate` on our drivers).
pub fn saturate(x: f32) -> f32 {
    if x.is_nan() {
        0.0
    } else {
        x.clamp(0.0, 1.0)
    }
}

/// The iterations of `loop`/`rep` for an `i#.x` count: `min(count, 255)`, or
/// `min(count, MAX_INT/64)` in a software profile (none for a negative count).
pub fn loop_iterations(count: i32, software_profile: bool) -> i32 {
    let limit = if software_profile {
        MAX_SOFTWARE_LOOP_ITERATIONS
    } else {
        MAX_LOOP_ITERATIONS
    };
    count.min(limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legacy_pow_applies_the_zero_rule_to_either_factor() {
        for mode in [FloatMode::Legacy, FloatMode::LegacyStrict] {
            // b = 0 against an infinite log (0 · inf): 1, not NaN.
            assert_eq!(pow(mode, f32::INFINITY, 0.0), 1.0);
            // log2|±1| = 0 against an infinite exponent: 1.
            assert_eq!(pow(mode, 1.0, f32::INFINITY), 1.0);
            assert_eq!(pow(mode, -1.0, f32::NEG_INFINITY), 1.0);
        }
        assert!(pow(FloatMode::Ieee, f32::INFINITY, 0.0).is_nan());
        assert!(pow(FloatMode::Ieee, 1.0, f32::INFINITY).is_nan());
    }

    #[test]
    fn only_denormals_are_flushed() {
        let denormal = f32::MIN_POSITIVE / 2.0;
        assert_eq!(flush_denormal(denormal).to_bits(), 0.0f32.to_bits());
        assert_eq!(flush_denormal(-denormal).to_bits(), (-0.0f32).to_bits());
        // The smallest normal stays.
        assert_eq!(flush_denormal(f32::MIN_POSITIVE), f32::MIN_POSITIVE);
        assert_eq!(flush_denormal(-f32::MIN_POSITIVE), -f32::MIN_POSITIVE);
    }

    #[test]
    fn special_values() {
        for mode in [FloatMode::Legacy, FloatMode::LegacyStrict] {
            assert_eq!(rcp(mode, 0.0), f32::MAX);
            assert_eq!(rcp(mode, -0.0), f32::MAX);
            assert_eq!(rsq(mode, -0.0), f32::MAX);
            assert_eq!(log(mode, 0.0), -f32::MAX);
            assert_eq!(pow(mode, 0.0, 0.0), 1.0);
            assert_eq!(pow(mode, 0.0, 2.0), 0.0);
            assert_eq!(pow(mode, -2.0, 2.0), 4.0);
        }
        assert_eq!(rcp(FloatMode::Ieee, 0.0), f32::INFINITY);
        assert_eq!(log(FloatMode::Ieee, 0.0), f32::NEG_INFINITY);
        assert_eq!(rsq(FloatMode::Ieee, -4.0), 0.5);
        // pow(±0, b) in every mode, Ieee included: log2|0| is taken as -FLT_MAX.
        for mode in [FloatMode::Legacy, FloatMode::LegacyStrict, FloatMode::Ieee] {
            assert_eq!(pow(mode, -0.0, -86.26), f32::INFINITY, "{mode:?}");
            assert_eq!(pow(mode, 0.0, 0.5), 0.0, "{mode:?}");
            assert_eq!(pow(mode, -0.0, 0.0), 1.0, "{mode:?}");
        }
        assert_eq!(mul(FloatMode::LegacyStrict, 0.0, f32::INFINITY), 0.0);
        assert_eq!(mul(FloatMode::LegacyStrict, f32::NAN, 0.0), 0.0);
        assert!(mul(FloatMode::Legacy, 0.0, f32::INFINITY).is_nan());
        assert_eq!(
            dot(FloatMode::LegacyStrict, &[0.0, 1.0], &[f32::NAN, 2.0]),
            2.0
        );
    }

    #[test]
    fn address_rounding() {
        assert_eq!(address_value(2.49, false), 2);
        assert_eq!(address_value(2.51, false), 3);
        assert_eq!(address_value(-2.5, false), -2);
        assert_eq!(address_value(-1.5, false), -2);
        assert_eq!(address_value(-0.5, false), 0);
        assert_eq!(address_value(1.9, true), 1);
        assert_eq!(address_value(-1.1, true), -2);
        assert_eq!(address_value(1e30, false), 65536);
        assert_eq!(address_value(f32::NAN, false), 0);
        assert_eq!(loop_iterations(1000, false), 255);
        assert_eq!(loop_iterations(-3, false), -3);
        assert_eq!(loop_iterations(1000, true), 1000);
        assert_eq!(loop_iterations(i32::MAX, true), 33_554_431);
        assert_eq!(saturate(f32::NAN), 0.0);
        assert_eq!(saturate(-0.5), 0.0);
        assert_eq!(saturate(7.0), 1.0);
        assert_eq!(flush_denormal(1e-40), 0.0);
        assert!(flush_denormal(-1e-40).is_sign_negative());
        assert_eq!(flush_denormal(1e-30), 1e-30);
    }

    /// Windows' answers: vkd3d's `tests/hlsl/non-const-indexing.shader_test` (vkd3d 1.17, the
    /// `f[i.x + i.y]` vertex shader of lines 364-411, compiled to `add r1.x, ...; mova a0.x,
    /// r1.x; mov r1, c[a0.x]`; vkd3d's tests pass on Windows' d3d9): i = (0.5, 0) reads f[0]
    /// (line 403), (1.5, 0) reads f[2] (line 411), (0, 1.4) reads f[1] (line 407), (1, 1)
    /// f[2] (line 399). Only halves to even fit 0.5 -> 0 and 1.5 -> 2 together (away from
    /// zero gives 1 and 2, floor and truncation 0 and 1). Wine's `test_mova` (visual.c,
    /// checked on Windows): vs_2_0 `mova` of ±0.4, ±1.6, ±2.4 gives 0, ±2, ±2; vs_1_1
    /// `mov a0.x` of the same values floors (-3, -2, -1, 0, 1, 2).
    #[test]
    fn address_rounding_matches_windows() {
        assert_eq!(address_value(0.5 + 0.0, false), 0);
        assert_eq!(address_value(1.5 + 0.0, false), 2);
        assert_eq!(address_value(0.0 + 1.4, false), 1);
        assert_eq!(address_value(1.0 + 1.0, false), 2);
        for (x, want) in [
            (-2.4, -2),
            (-1.6, -2),
            (-0.4, 0),
            (0.4, 0),
            (1.6, 2),
            (2.4, 2),
        ] {
            assert_eq!(address_value(x, false), want, "mova {x}");
        }
        for (x, want) in [
            (-2.4, -3),
            (-1.6, -2),
            (-0.4, -1),
            (0.4, 0),
            (1.6, 1),
            (2.4, 2),
        ] {
            assert_eq!(address_value(x, true), want, "vs_1_1 mov a0.x, {x}");
        }
    }
}
