//! Wine's visual tests of device features (`dlls/d3d9/tests/visual.c`, from
//! `d3d9_visual.json`) replayed on `d3d9_backend::device::Device`: instancing and
//! `SetStreamSourceFreq` (`stream_test`), vertex texture fetch from
//! `D3DVERTEXTEXTURESAMPLER0` (`test_vertex_texture`) and the alpha test with every compare
//! function, fixed-function and ps_1_1 (`alphatest_test`).
//!
//! One test per function, each asserting that it passes and how many checks it made, plus
//! `wine_visual_device_summary`, which prints and asserts the totals. These tests need a GPU
//! adapter (lavapipe is enough) and fail without one.

#[path = "../../translator/tests/common/mod.rs"]
mod common;
#[allow(dead_code)]
mod wine_visual;

use wine_visual::functions_device::{run, FUNCTIONS};

/// The checks each function makes: stream_test 8 `SetStreamSourceFreq` results and, per row
/// of its 16 test cases, 4 pixels after a non-indexed draw and 4 after the instanced one;
/// test_vertex_texture 1 pixel; alphatest_test per pass (fixed function, ps_1_1) and compare
/// function (8), 4 pixels and the `GetRenderState(D3DRS_ALPHAREF)` read-back.
const CHECKS: [(&str, usize); 3] = [
    ("stream_test", 8 + 16 * 8),
    ("test_vertex_texture", 1),
    ("alphatest_test", 2 * 8 * 5),
];

fn expected_checks(function: &str) -> usize {
    CHECKS
        .iter()
        .find(|(f, _)| *f == function)
        .map_or(usize::MAX, |(_, n)| *n)
}

/// The function passes, having made exactly its number of checks.
fn assert_passes(function: &str) {
    let report = run(function);
    assert!(report.passed(), "{}", report.describe());
    assert_eq!(
        report.checks.len(),
        expected_checks(function),
        "{}",
        report.describe()
    );
}

#[test]
fn stream_test() {
    assert_passes("stream_test");
}

#[test]
fn test_vertex_texture() {
    assert_passes("test_vertex_texture");
}

#[test]
fn alphatest_test() {
    assert_passes("alphatest_test");
}

/// Runs all three, prints the count, and asserts it.
#[test]
fn wine_visual_device_summary() {
    let reports: Vec<_> = FUNCTIONS.iter().map(|f| run(f)).collect();
    for r in &reports {
        println!("{}", r.describe());
    }
    let counts: Vec<(&str, usize)> = reports
        .iter()
        .map(|r| (r.function.as_str(), r.checks.len()))
        .collect();
    assert_eq!(counts, CHECKS);
    let passing = reports.iter().filter(|r| r.passed()).count();
    let checks: usize = reports.iter().map(|r| r.checks.len()).sum();
    let passed_checks: usize = reports.iter().map(|r| r.passed_checks()).sum();
    println!(
        "wine visual device tests: {passing} of {} functions pass ({passed_checks} of {checks} checks)",
        reports.len()
    );
    assert_eq!((passing, passed_checks), (reports.len(), checks));
}
