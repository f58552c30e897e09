//! vkd3d's SM2/SM3 shader tests replayed through the device (see `vkd3d/mod.rs`): every
//! usable probe of both passes either passes or is listed in `vkd3d_expectations.txt` with
//! its reason. The test fails on a probe that fails (or is unsupported) without being listed,
//! and on a listed probe that passes, so the list only shrinks. GPU test: fails without an
//! adapter (skips with `D3D9_ALLOW_NO_GPU=1`, as every `gpu_*` test).

#![allow(clippy::panic)]

#[path = "vkd3d/mod.rs"]
mod vkd3d;

use vkd3d::{counts, expectations, Outcome};

/// Usable probes per pass (the corpus README's counts).
const USABLE: [(&str, usize); 2] = [("sm2", 886), ("sm3", 991)];

#[test]
fn gpu_vkd3d_sm2_sm3_probes_pass_or_are_listed() {
    let gpu = d3d9_backend::Gpu::for_tests().unwrap_or_else(|e| panic!("{e}"));
    if gpu.is_none() {
        return;
    }
    let corpus = vkd3d::load_corpus().unwrap_or_else(|e| panic!("{e}"));
    let backend =
        vkd3d::backend_name().unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let listed = expectations(include_str!("vkd3d_expectations.txt"), &backend)
        .unwrap_or_else(|e| panic!("vkd3d_expectations.txt: {e}"));
    let mut unexpected = Vec::new();
    let mut fixed = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for (pass, usable) in USABLE {
        let start = std::time::Instant::now();
        let results = vkd3d::run_pass(&corpus, pass, None).unwrap_or_else(|e| panic!("{e}"));
        let c = counts(&results);
        eprintln!(
            "vkd3d {pass} on {backend}: {} passed / {} failed as listed / {} unsupported / {} usable ({:.1} s)",
            c.passed,
            c.failed,
            c.unsupported,
            c.usable,
            start.elapsed().as_secs_f64()
        );
        assert_eq!(c.usable, usable, "usable probes of {pass}");
        for r in &results {
            let key = r.key();
            seen.insert(key.clone());
            match (&r.outcome, listed.get(&key)) {
                (Outcome::Pass, Some(e)) => fixed.push(format!("{key} (listed: {})", e.reason)),
                (Outcome::Fail(why), None) => unexpected.push(format!("{key} FAIL {why}")),
                (Outcome::Unsupported(why), None) => {
                    unexpected.push(format!("{key} UNSUPPORTED {why}"))
                }
                _ => {}
            }
        }
    }
    let stale: Vec<&String> = listed.keys().filter(|k| !seen.contains(*k)).collect();
    assert!(
        unexpected.is_empty(),
        "{} probes fail without being listed in vkd3d_expectations.txt:\n{}",
        unexpected.len(),
        unexpected.join("\n")
    );
    assert!(
        fixed.is_empty(),
        "{} listed probes now pass (remove them from vkd3d_expectations.txt):\n{}",
        fixed.len(),
        fixed.join("\n")
    );
    assert!(
        stale.is_empty(),
        "listed probes that are not usable probes: {stale:?}"
    );
}

/// The runner's ULP rule: -0 == +0; a negative and a positive non-zero value are never close
/// (the mapped negative wraps as an unsigned int, as in vkd3d's `compare_uint`).
#[test]
fn vkd3d_compare_float_follows_the_runner() {
    use vkd3d::compare_float;
    assert!(compare_float(0x8000_0000, 0, 0));
    assert!(compare_float(1.0f32.to_bits(), 1.0f32.to_bits(), 0));
    assert!(!compare_float(1.0f32.to_bits() + 1, 1.0f32.to_bits(), 0));
    assert!(compare_float(1.0f32.to_bits() + 1, 1.0f32.to_bits(), 1));
    assert!(!compare_float(0x8000_0001, 0x0000_0001, 1 << 20));
    assert!(compare_float(0x8000_0002, 0x8000_0001, 1));
    assert!(!compare_float(
        f32::INFINITY.to_bits(),
        f32::MAX.to_bits(),
        0
    ));
}
