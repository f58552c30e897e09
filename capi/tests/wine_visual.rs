//! Wine's `visual.c` (135 test functions of rendering results) against libd3d9: see
//! `wine/mod.rs` for the rule, the expectations file and the environment variables. The
//! functions run one per process; the few checks `START_TEST(visual)` makes itself, before
//! calling them (adapter identifier strings), are not run.
//!
//! ```sh
//! cargo test -p d3d9-capi --test wine_visual -- --nocapture
//! D3D9_WINE_ONLY=test_sanity,clear_test cargo test -p d3d9-capi --test wine_visual -- --nocapture
//! D3D9_WINE_BLESS=1 cargo test -p d3d9-capi --test wine_visual
//! ```
#![cfg(unix)]

mod support;
mod wine;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use wine::expectations::{blessed, diff, findings, parse_expectations};
use wine::runner::{manifest_dir, report, run_suite, FunctionRun, Outcome, Site};

/// GPU test: fails without an adapter, skips with `D3D9_ALLOW_NO_GPU=1`.
#[test]
fn gpu_wine_visual_matches_expectations() {
    wine::check_suite(&wine::Suite {
        label: "wine visual",
        file: "visual.c",
        start_test: "visual",
        functions: 135,
        expectations: "tests/wine_visual_expectations.txt",
    });
}

/// The runner on a fake test (`tests/wine/runner_selftest.c`): every outcome told apart,
/// checks counted per site, Windows formats printed right, expectations diffed and blessed.
#[test]
fn runner_tells_outcomes_apart() {
    let source = manifest_dir().join("tests/wine/runner_selftest.c");
    let sources = [
        source.clone(),
        manifest_dir().join("tests/wine/win32_shim.c"),
    ];
    let build = Path::new(env!("CARGO_TARGET_TMPDIR")).join("wine_runner_selftest");
    let runs = run_suite(
        &sources,
        "runner_selftest",
        9,
        None,
        None,
        Duration::from_secs(3),
        &build,
    );
    print!("{}", report("selftest", &runs, Duration::ZERO));
    let by_name: BTreeMap<&str, &FunctionRun> = runs.iter().map(|r| (r.name.as_str(), r)).collect();
    let counts = |name: &str| {
        let r = by_name[name];
        (r.passed, r.failed, r.skipped, r.outcome.clone())
    };
    assert_eq!(counts("test_pass"), (2, 0, 0, Outcome::Finished));
    assert_eq!(counts("test_fail"), (1, 3, 0, Outcome::Finished));
    assert_eq!(counts("test_skip"), (0, 0, 2, Outcome::Finished));
    assert_eq!(counts("test_crash"), (1, 0, 0, Outcome::Crashed(11)));
    assert_eq!(counts("test_abort"), (0, 0, 0, Outcome::Crashed(6)));
    assert_eq!(
        counts("test_hang"),
        (0, 0, 0, Outcome::TimedOut(Duration::from_secs(3)))
    );
    assert_eq!(counts("test_exit"), (0, 0, 0, Outcome::Exited(Some(3))));

    let text = std::fs::read_to_string(&source).expect("selftest source");
    let line_of =
        |needle: &str| text.lines().position(|l| l.contains(needle)).expect(needle) as u32 + 1;
    let messages = |name: &str| -> Vec<String> {
        by_name[name]
            .sites
            .values()
            .map(|s| s.first_message.clone())
            .collect()
    };
    assert_eq!(
        messages("test_format"),
        ["hr 0x8876086c big 4000000000 negative -5 wide 10000000000 %"]
    );
    assert_eq!(
        messages("test_context"),
        ["outer 1: inner: in both", "in none"]
    );
    let loop_site = Site {
        file: "runner_selftest.c".into(),
        line: line_of("ok(i == 1"),
        kind: "fail",
    };
    assert_eq!(by_name["test_fail"].sites[&loop_site].count, 2);
    assert_eq!(by_name["test_fail"].sites[&loop_site].first_message, "i 0");

    let found = findings(&runs);
    let keys: Vec<&str> = found.iter().map(|f| f.key.as_str()).collect();
    let loop_key = format!("test_fail runner_selftest.c:{} fail 2", loop_site.line);
    for key in [
        loop_key.as_str(),
        "test_crash crash",
        "test_abort crash",
        "test_hang timeout",
        "test_exit exit",
    ] {
        assert!(keys.contains(&key), "{key} not in {keys:?}");
    }

    // A listed site whose count changed, a listed function that now finishes, a [gl]-only line.
    let listed = format!(
        "# comment\ntest_fail runner_selftest.c:{} fail 5 # known\ntest_pass crash # fixed\ntest_skip exit [gl] # gl only\n",
        loop_site.line
    );
    let (applies, other) = parse_expectations("listed", &listed, Some("vulkan"));
    assert_eq!((applies.len(), other.len()), (2, 1));
    let (add, remove) = diff(&found, &applies);
    assert!(add.contains(&format!("{loop_key} # known")), "{add:?}");
    assert!(
        add.contains(
            &"test_exit exit # not yet triaged: exited with code 3 before finishing".to_string()
        ),
        "{add:?}"
    );
    assert_eq!(remove.len(), 2, "{remove:?}");
    let order: Vec<String> = runs.iter().map(|r| r.name.clone()).collect();
    let rewritten = blessed("runner_selftest.c", &found, &applies, &other, &order);
    let (applies, other) = parse_expectations("rewritten", &rewritten, Some("vulkan"));
    assert_eq!(diff(&found, &applies), (vec![], vec![]));
    assert_eq!(other.len(), 1);
    assert!(
        rewritten.contains(&format!("{loop_key} # known\n")),
        "{rewritten}"
    );
}
