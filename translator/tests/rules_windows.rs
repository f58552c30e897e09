//! The rules of `rules.rs` against answers that come from Windows, not from our own code: the
//! interpreter and the lifter both read `rules.rs`, so a wrong rule there passes every test
//! that compares the two. Each test cites where its expected values come from:
//!
//! - Wine's `fp_special_test` (visual.c, checked on Windows' d3d9 per vendor): rcp, rsq, log
//!   and pow of 0, nrm of a zero vector, `lit` of zeros, and the ±inf and NaN constants, run
//!   through the interpreter as Wine composes them (`d3d9_visual.json`'s `fp_special:*`).
//! - vkd3d 1.17's HLSL shader tests (`vkd3d/vkd3d_sm23.json`; the expected values are the test
//!   authors', checked on Windows): pow, log2, exp2, rcp, dot and saturate of ordinary values.
//! - The SDK's stated results: `lit`'s power clamp (`MAXPOWER = 127.9961f` in the `lit - vs`
//!   pseudo-code) and the `loop`/`rep` iteration count (`i#.x`, at most 255).
//!
//! `mova`'s rounding is pinned against Windows in `rules.rs` itself
//! (`address_rounding_matches_windows`: vkd3d's non-const-indexing and Wine's test_mova).
//! `docs/testing.md` records which deliberately broken rules these tests catch.

#![allow(clippy::panic)] // a failing test says why

mod common;

use d3d9_translator::asm::assemble_tokens;
use d3d9_translator::bytecode::{decode, Stage, Usage};
use d3d9_translator::check::{check, DeviceCaps};
use d3d9_translator::interp::{Constants, Interpreter};
use d3d9_translator::lift::FloatMode;
use d3d9_translator::rules;
use d3d9_translator::signature::Semantic;

/// The distance in units in the last place between two floats (vkd3d's probe comparison:
/// negative floats mapped below the positive ones, so -0 and +0 are equal).
fn ulps(a: f32, b: f32) -> u32 {
    let key = |x: f32| {
        let bits = x.to_bits() as i32;
        if bits < 0 {
            i32::MIN.wrapping_sub(bits)
        } else {
            bits
        }
    };
    key(a).abs_diff(key(b))
}

fn assert_ulps(got: f32, want: f32, max: u32, what: &str) {
    assert!(
        ulps(got, want) <= max,
        "{what}: got {got:e}, Windows {want:e} (within {max} ULPs)"
    );
}

/// Run a vertex shader's tokens once through the interpreter with `inputs` as v0, v1, ...
fn run(
    tokens: &[u32],
    caps: &DeviceCaps,
    mode: FloatMode,
    inputs: &[[f32; 4]],
    constants: &Constants,
) -> d3d9_translator::interp::OutputVertex {
    let program = decode(tokens).unwrap_or_else(|e| panic!("{e}"));
    let checked = check(&program, Stage::Vertex, caps).unwrap_or_else(|e| panic!("{e}"));
    let interpreter = Interpreter::new(&checked, mode).unwrap_or_else(|e| panic!("{e}"));
    interpreter
        .run(inputs, constants)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// An 8-bit UNORM channel as the render target stores a saturated value.
fn unorm(x: f32) -> u32 {
    (rules::saturate(x) * 255.0).round() as u32
}

/// Wine's `fp_special_test` (visual.c:16285): a vs_2_0 body computes `r0.x` from
/// `v1.x = 0` (rcp, rsq, log, pow, nrm of 0, lit of zeros) or reads a `def`'d NaN, -inf or
/// +inf; the footer writes `oT0.x = r0.x` and `oT0.y = 1` exactly when `r0.x` is 0 or ±inf;
/// the ps_2_0 then draws `t0.y` in red and `t0.x` in blue (green is the pixel shader's own
/// classification, not compared here). Windows' colours differ per vendor: rcp(0) is finite
/// on AMD (r500, r600: red 0, blue 0xff) and +inf on NVIDIA (nv40: red 0xff). The D3D9 rules
/// of `FloatMode::Legacy` (`RCP_OF_ZERO`, `LOG_OF_ZERO`, pow's zero rule) are AMD's: the
/// r500 column, every row but the NaN constant, whose blue (a NaN stored to UNORM) has no
/// rule of ours; its red is 0 on every vendor.
#[test]
fn zero_operands_give_windows_fp_special_colours() {
    let visual = common::corpus("d3d9_visual.json");
    let composed = visual["composed_shaders"].as_array().expect("composed");
    let mut checked = Vec::new();
    for s in composed {
        let name = s["name"].as_str().expect("name");
        let Some(row) = name.strip_prefix("fp_special:") else {
            continue;
        };
        let expected = &s["expected"]["any_of_pm1"];
        let colour = |vendor: &str| {
            let text = expected[vendor].as_str().expect("colour");
            u32::from_str_radix(text.trim_start_matches("0x"), 16).expect("hex colour")
        };
        let out = run(
            &common::tokens(&s["tokens"]),
            &DeviceCaps::default(),
            FloatMode::Legacy,
            &[[0.0, 0.0, 0.5, 1.0], [0.0; 4]],
            &Constants::default(),
        );
        let t0 = out
            .get(Semantic::new(Usage::TexCoord, 0))
            .unwrap_or_else(|| panic!("{name}: no oT0"));
        let (red, blue) = (unorm(t0[1]), unorm(t0[0]));
        let r500 = colour("r500");
        if row == "def1" {
            // NaN: every vendor's red is 0 (NaN is neither 0 nor inf).
            for vendor in ["r500", "r600", "nv40", "nv50"] {
                assert_eq!(red, colour(vendor) >> 16 & 0xff, "{name} ({vendor}): red");
            }
        } else {
            assert_eq!(
                (red, blue),
                (r500 >> 16 & 0xff, r500 & 0xff),
                "{name}: oT0 = {t0:?}; Windows (r500) {r500:#010x}"
            );
        }
        checked.push(row.to_string());
    }
    assert_eq!(
        checked,
        ["log", "pow", "nrm", "rcp1", "rcp2", "rsq1", "rsq2", "lit", "def1", "def2", "def3"]
    );
    // Plain IEEE arithmetic is NVIDIA's nv40 answer instead: rcp(0) = +inf (red and blue).
    let rcp = composed
        .iter()
        .find(|s| s["name"] == "fp_special:rcp1")
        .expect("rcp1");
    let out = run(
        &common::tokens(&rcp["tokens"]),
        &DeviceCaps::default(),
        FloatMode::Ieee,
        &[[0.0, 0.0, 0.5, 1.0], [0.0; 4]],
        &Constants::default(),
    );
    let t0 = out.get(Semantic::new(Usage::TexCoord, 0)).expect("oT0");
    assert_eq!((unorm(t0[1]), unorm(t0[0])), (0xff, 0xff), "Ieee rcp(0)");
}

/// vkd3d's probes of ordinary values, within the probe's own ULPs.
/// `pow.shader_test` (lines 1-13): pow(0.8, 3), pow(0.4, 2.5), pow(0.8, 2.0), pow(0.5, 2.0)
/// within 4; (lines 16-27): pow((1, 2, 4, 5), (6, 5, 4, 3)) = (1, 32, 256, 125) within 2.
#[test]
fn pow_matches_vkd3d_windows_probes() {
    for mode in [FloatMode::Legacy, FloatMode::LegacyStrict, FloatMode::Ieee] {
        for (a, b, want, max) in [
            (0.8f32, 3.0f32, 0.512f32, 4),
            (0.4, 2.5, 0.101_192_884, 4),
            (0.8, 2.0, 0.64, 4),
            (0.5, 2.0, 0.25, 4),
            (1.0, 6.0, 1.0, 2),
            (2.0, 5.0, 32.0, 2),
            (4.0, 4.0, 256.0, 2),
            (5.0, 3.0, 125.0, 2),
        ] {
            assert_ulps(
                rules::pow(mode, a, b),
                want,
                max,
                &format!("pow({a}, {b}) {mode:?}"),
            );
        }
    }
}

/// `log.shader_test` (lines 1-11): log2(2, 4, 5, 0.4) = (1, 2, 2.32192802, -1.32192802)
/// within 1 ULP; `exp.shader_test` (lines 1-11): exp2(-1, 0, 1, 2) = (0.5, 1, 2, 4) within 2.
#[test]
fn log_and_exp_match_vkd3d_windows_probes() {
    for mode in [FloatMode::Legacy, FloatMode::LegacyStrict, FloatMode::Ieee] {
        for (x, want) in [
            (2.0f32, 1.0f32),
            (4.0, 2.0),
            (5.0, 2.321_928),
            (0.4, -1.321_928),
        ] {
            assert_ulps(rules::log(mode, x), want, 1, &format!("log2({x}) {mode:?}"));
        }
    }
    for (x, want) in [(-1.0f32, 0.5f32), (0.0, 1.0), (1.0, 2.0), (2.0, 4.0)] {
        assert_ulps(rules::exp(x), want, 2, &format!("exp2({x})"));
    }
}

/// `rcp.shader_test` (lines 1-26): rcp of ordinary values within 8 ULPs. Its degenerate row
/// (rcp(±0) = ±inf) is NVIDIA's answer; ours is AMD's (see
/// `zero_operands_give_windows_fp_special_colours`), listed in `vkd3d_expectations.txt`.
#[test]
fn rcp_matches_vkd3d_windows_probes() {
    for mode in [FloatMode::Legacy, FloatMode::LegacyStrict, FloatMode::Ieee] {
        for (x, want) in [
            (1.0f32, 1.0f32),
            (2.0, 0.5),
            (3.0, 0.333_333_3),
            (4.0, 0.25),
            (-1.0, -1.0),
            (-2.0, -0.5),
            (-3.0, -0.333_333_3),
            (-4.0, -0.25),
            (12.34, 0.081_037_275),
            (56.78, 0.017_611_835),
            (-90.12, -0.011_096_316),
            (-34.56, -0.028_935_184),
            (0.25, 4.0),
            (0.125, 8.0),
            (0.0625, 16.0),
            (0.333_333_3, 3.0),
        ] {
            assert_ulps(rules::rcp(mode, x), want, 8, &format!("rcp({x}) {mode:?}"));
        }
    }
}

/// `dot.shader_test` (lines 1-13): dot((2, 3, 4, 5), (10, 11, 12, 13)) = 166 exactly; (lines
/// 73-83, static constants) dot((2, 3, 4, 5), (6, 7, 8, 9)) = 110. `saturate.shader_test`
/// (lines 1-11): saturate of 0.7, -0.1, 0.7 + 0.5 and -1.2 is (0.7, 0, 1, 0).
#[test]
fn dot_and_saturate_match_vkd3d_windows_probes() {
    for mode in [FloatMode::Legacy, FloatMode::LegacyStrict, FloatMode::Ieee] {
        let a = [2.0, 3.0, 4.0, 5.0];
        assert_eq!(rules::dot(mode, &a, &[10.0, 11.0, 12.0, 13.0]), 166.0);
        assert_eq!(rules::dot(mode, &a, &[6.0, 7.0, 8.0, 9.0]), 110.0);
    }
    let got = [0.7f32, -0.1, 0.7 + 0.5, -1.2].map(rules::saturate);
    assert_eq!(got, [0.7, 0.0, 1.0, 0.0]);
}

/// The SDK's `lit - vs` pseudo-code clamps the specular power to
/// `MAXPOWER = 127.9961f` ("fits into 8.8 fixed point format") before `pow(src.y, power)`:
/// `lit` of (1, 1.5, 0, 200) gives z = 1.5^127.9961 (about 3.5e22), not 1.5^200 (1.6e35);
/// of (1, 1.5, 0, -200), 1.5^-127.9961.
#[test]
fn lit_clamps_its_power_as_the_sdk_states() {
    const MAXPOWER: f64 = 127.9961;
    let tokens =
        assemble_tokens("vs_2_0\ndcl_position v0\nlit r0, c0\nmov oT0, r0\nmov oPos, v0\n")
            .unwrap_or_else(|e| panic!("{e}"));
    for (power, exponent) in [(200.0f32, MAXPOWER), (-200.0, -MAXPOWER), (100.0, 100.0)] {
        let constants = Constants {
            floats: vec![[1.0, 1.5, 0.0, power]],
            ..Constants::default()
        };
        let out = run(
            &tokens,
            &DeviceCaps::default(),
            FloatMode::Legacy,
            &[[0.0; 4]],
            &constants,
        );
        let lit = out.get(Semantic::new(Usage::TexCoord, 0)).expect("oT0");
        let want = 1.5f64.powf(exponent);
        let error = (f64::from(lit[2]) - want).abs() / want;
        assert!(
            error < 1e-5,
            "lit power {power}: z = {:e}, the SDK's 1.5^{exponent} = {want:e}",
            lit[2]
        );
        assert_eq!(
            [lit[0], lit[1], lit[3]],
            [1.0, 1.0, 1.0],
            "lit power {power}"
        );
    }
}

/// The SDK's `rep - vs` and `loop - vs` pages: the iteration count `i#.x` is at most 255
/// (in every hardware profile); a count of 1000 set with `SetVertexShaderConstantI` runs 255
/// times. The software profiles' larger bound is `vs_software_vp.rs`'s and the checker's.
#[test]
fn loop_counts_are_clamped_to_255_as_the_sdk_states() {
    for body in [
        "rep i0\nadd r0, r0, c0\nendrep\n",
        "loop aL, i0\nadd r0, r0, c0\nendloop\n",
    ] {
        let text =
            format!("vs_2_0\ndcl_position v0\nmov r0, c1\n{body}mov oT0, r0\nmov oPos, v0\n");
        let tokens = assemble_tokens(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        for (count, runs) in [(1000, 255.0f32), (255, 255.0), (254, 254.0), (3, 3.0)] {
            let constants = Constants {
                floats: vec![[1.0; 4], [0.0; 4]],
                ints: vec![[count, 0, 1, 0]],
                ..Constants::default()
            };
            let out = run(
                &tokens,
                &DeviceCaps::default(),
                FloatMode::Legacy,
                &[[0.0; 4]],
                &constants,
            );
            let t0 = out.get(Semantic::new(Usage::TexCoord, 0)).expect("oT0");
            assert_eq!(t0[0], runs, "{body}: count {count}");
        }
    }
}
