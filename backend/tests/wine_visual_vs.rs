//! Wine's vertex-shader visual tests (`dlls/d3d9/tests/visual.c`, from `d3d9_visual.json`)
//! replayed call by call on `d3d9_backend::device::Device`, which pairs each draw's
//! declaration with its shaders, translates and links them, and draws (the default
//! fixed-function pixel stage or the test's pixel shader); every colour is compared with
//! Wine's tolerance.
//!
//! One test per Wine function, each asserting how many pixel checks it made, plus
//! `wine_visual_vs_summary`, which prints `wine visual VS tests: N of 9 functions with pixel
//! checks pass (M of K checks)` and asserts those figures. `sincos_test` has no pixel check
//! upstream: it is a translation test (both shaders translate, both draws are made) and is
//! not counted as a passing visual test. These tests need a GPU adapter (lavapipe is enough)
//! and fail without one.

#[path = "../../translator/tests/common/mod.rs"]
mod common;
#[allow(dead_code)]
mod wine_visual;

use d3d9_translator::lift::FloatMode;
use wine_visual::functions::{run, run_in, FUNCTIONS};

/// The pixel checks each function makes (Wine's, one per `color_match`/`check_rt_color` the
/// replay reaches): test_mova 2 × 6 inputs, fp_special_test one per instruction,
/// test_default_attribute_components one whole-target check per shader, test_position_index
/// 3 shader pairs × 4 points.
const CHECKS: [(&str, usize); 10] = [
    ("test_mova", 12),
    ("sincos_test", 0),
    ("loop_index_test", 1),
    ("sgn_test", 1),
    ("test_constant_clamp_vs", 4),
    ("test_compare_instructions", 4),
    ("fp_special_test", 11),
    ("test_default_attribute_components", 6),
    ("test_vshader_float16", 8),
    ("test_position_index", 12),
];

fn expected_checks(function: &str) -> usize {
    CHECKS
        .iter()
        .find(|(f, _)| *f == function)
        .map_or(usize::MAX, |(_, n)| *n)
}

/// The function passes, having made exactly its number of pixel checks, with the vertex
/// shaders translated in both D3D9 float modes (`Legacy`, `LegacyStrict`). `Ieee` is not
/// replayed: Wine's expectations are D3D9 hardware's (rcp(0) = FLT_MAX, 0 · inf = 0), which
/// plain IEEE arithmetic does not give by design.
fn assert_passes(function: &str) {
    for mode in [FloatMode::Legacy, FloatMode::LegacyStrict] {
        let report = run_in(function, mode);
        assert!(report.passed(), "{mode:?}: {}", report.describe());
        assert_eq!(
            report.checks.len(),
            expected_checks(function),
            "{mode:?}: {}",
            report.describe()
        );
    }
}

#[test]
fn test_mova() {
    assert_passes("test_mova");
}

/// A translation test: visual.c draws the sine and cosine points and checks nothing.
#[test]
fn sincos_test() {
    assert_passes("sincos_test");
}

#[test]
fn loop_index_test() {
    assert_passes("loop_index_test");
}

#[test]
fn sgn_test() {
    assert_passes("sgn_test");
}

#[test]
fn test_constant_clamp_vs() {
    assert_passes("test_constant_clamp_vs");
}

#[test]
fn test_compare_instructions() {
    assert_passes("test_compare_instructions");
}

/// The vertex results are mapped to colours by a 22-instruction ps_2_0 shader (max, min, cmp,
/// abs, mad), translated and linked like any pixel shader.
#[test]
fn fp_special_test() {
    assert_passes("fp_special_test");
}

#[test]
fn test_default_attribute_components() {
    assert_passes("test_default_attribute_components");
}

#[test]
fn test_vshader_float16() {
    assert_passes("test_vshader_float16");
}

#[test]
fn test_position_index() {
    assert_passes("test_position_index");
}

/// Runs all ten, prints the count, and asserts it: every function makes its number of checks;
/// all 9 functions with pixel checks pass, all 59 of their checks; and every function
/// outside `NOT_YET_PASSING` passes (and none inside it, so the list stays true).
#[test]
fn wine_visual_vs_summary() {
    let reports: Vec<_> = FUNCTIONS.iter().map(|f| run(f)).collect();
    for r in &reports {
        println!("{}", r.describe());
    }
    let counts: Vec<(&str, usize)> = reports
        .iter()
        .map(|r| (r.function.as_str(), r.checks.len()))
        .collect();
    assert_eq!(counts, CHECKS);
    // Functions with no pixel check (sincos_test) are translation tests, not visual ones.
    let visual: Vec<_> = reports.iter().filter(|r| !r.checks.is_empty()).collect();
    let passing = visual.iter().filter(|r| r.passed()).count();
    let checks: usize = visual.iter().map(|r| r.checks.len()).sum();
    let passed_checks: usize = visual.iter().map(|r| r.passed_checks()).sum();
    println!(
        "wine visual VS tests: {passing} of {} functions with pixel checks pass ({passed_checks} of {checks} checks)",
        visual.len()
    );
    let unexpected: Vec<String> = reports
        .iter()
        .filter(|r| r.passed() == NOT_YET_PASSING.iter().any(|(f, _)| *f == r.function))
        .map(|r| r.describe())
        .collect();
    assert!(unexpected.is_empty(), "{}", unexpected.join("\n"));
    assert_eq!((passing, visual.len()), (9, 9));
    assert_eq!((passed_checks, checks), (59, 59));
}

/// Functions that do not pass yet, with the reason (none).
const NOT_YET_PASSING: &[(&str, &str)] = &[];
