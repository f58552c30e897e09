//! Wine's Direct3D 9 conformance tests (`dlls/d3d9/tests/*.c`, read unmodified from
//! `../shared/corpus/wine-tests/d3d9/`) compiled against libd3d9 with our own `wine/test.h`
//! and Win32 stand-ins (`win32_shim.c`), each test function in its own process.
//!
//! Rule: a run and the test's expectations file agree exactly. The file lists every check
//! site that fails or skips (`FUNCTION FILE:LINE fail|skip COUNT`) and every function that
//! does not finish (`FUNCTION crash|timeout|exit`), each with its reason after `#`; a
//! non-passing check missing from the file fails the test, and so does a listed one that now
//! passes. An optional `[TAG]` before the `#` limits a line to runs on that wgpu backend
//! (`[vulkan]`, `[gl]`: the adapter's, as `WGPU_BACKEND` and the default choose it).
//!
//! Environment: `D3D9_WINE_BLESS=1` rewrites the file from the run (keeping reasons; new
//! lines say `not yet triaged`); `D3D9_WINE_ONLY=f1,f2` runs only those functions, prints
//! their failures and compares them with their own lines of the file (blessing nothing);
//! `D3D9_WINE_TIMEOUT` (seconds per function, default
//! 120); `D3D9_WINE_JOBS` (processes at once, default: the available cores). `WGPU_*`,
//! `D3D9_ALLOW_NO_GPU` and the rest reach the test processes untouched. A GPU test: without
//! an adapter it fails, or skips with `D3D9_ALLOW_NO_GPU=1`.

pub mod expectations;
pub mod runner;

use std::path::Path;
use std::time::{Duration, Instant};

use expectations::{blessed, diff, findings, parse_expectations};
use runner::{
    env_number, failure_messages, libd3d9_dir, manifest_dir, report, run_suite, wine_test_source,
};

/// One Wine test file and what the harness knows of it.
pub struct Suite<'a> {
    /// Prefix of every line printed, e.g. `wine visual`.
    pub label: &'a str,
    /// The file in the corpus folder, e.g. `visual.c`.
    pub file: &'a str,
    /// Its `START_TEST(name)`.
    pub start_test: &'a str,
    /// How many functions its `START_TEST` body calls.
    pub functions: usize,
    /// The expectations file, relative to the package.
    pub expectations: &'a str,
}

/// The wgpu backend of the adapter the test processes will get (`vulkan`, `gl`, ...), from
/// the same environment; `None` (skip) without an adapter when `D3D9_ALLOW_NO_GPU=1`.
fn gpu_backend() -> Option<String> {
    let gpu = d3d9_backend::Gpu::for_tests()
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"))?;
    Some(format!("{:?}", gpu.adapter_info().backend).to_ascii_lowercase())
}

/// Builds and runs `suite` against libd3d9, prints per-function results and totals, and
/// compares with (or, with `D3D9_WINE_BLESS=1`, rewrites) its expectations file.
pub fn check_suite(suite: &Suite<'_>) {
    let only: Option<Vec<String>> = std::env::var("D3D9_WINE_ONLY").ok().map(|v| {
        v.split(',')
            .map(|f| f.trim().to_string())
            .filter(|f| !f.is_empty())
            .collect()
    });
    let Some(backend) = gpu_backend() else {
        return;
    };
    let timeout = Duration::from_secs(env_number("D3D9_WINE_TIMEOUT", 120));
    let build = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("wine_{}", suite.start_test));
    let sources = [
        wine_test_source(suite.file),
        manifest_dir().join("tests/wine/win32_shim.c"),
    ];
    let start = Instant::now();
    let lib = libd3d9_dir();
    let runs = run_suite(
        &sources,
        suite.start_test,
        suite.functions,
        Some(&lib),
        only.as_deref(),
        timeout,
        &build,
    );
    let label = suite.label;
    print!("{}", report(label, &runs, start.elapsed()));
    if only.is_some() {
        print!("{}", failure_messages(label, &runs));
    }
    println!(
        "{label}: each function's output: {}",
        build.join("logs").display()
    );

    let path = manifest_dir().join(suite.expectations);
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let (mut applies, other) = parse_expectations(suite.expectations, &text, Some(&backend));
    let found = findings(&runs);
    if only.is_some() {
        // The lines of the functions run: `FUNCTION ...`.
        let ran: Vec<&str> = runs.iter().map(|r| r.name.as_str()).collect();
        applies.retain(|e| e.key.split(' ').next().is_some_and(|f| ran.contains(&f)));
    } else if std::env::var("D3D9_WINE_BLESS").is_ok_and(|v| v == "1") {
        let order: Vec<String> = runs.iter().map(|r| r.name.clone()).collect();
        let text = blessed(suite.file, &found, &applies, &other, &order);
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        println!("{label}: wrote {}", path.display());
        return;
    }
    let (add, remove) = diff(&found, &applies);
    assert!(
        add.is_empty() && remove.is_empty(),
        "{label}: the run and {} disagree (D3D9_WINE_BLESS=1 rewrites it)\nlines to add:\n{}\nlines to remove:\n{}",
        suite.expectations,
        add.join("\n"),
        remove.join("\n")
    );
}
