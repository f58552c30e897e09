//! vkd3d's SM2/SM3 shader tests replayed through the device (see `vkd3d/mod.rs`): every
//! usable probe of both passes either passes or is listed in `vkd3d_expectations.txt` with
//! how it fails (the kind of failure and a part of its message) and why. The test fails on a
//! probe that fails (or is unsupported) without being listed, on a listed probe that passes,
//! so the list only shrinks, and on a listed probe that fails in another way than listed.
//! `D3D9_VKD3D_OUTCOMES=FILE` writes every failing probe's kind and message (`KEY\tKIND\t
//! MESSAGE` lines) to fill the file. GPU test: fails without an adapter (skips with
//! `D3D9_ALLOW_NO_GPU=1`, as every `gpu_*` test).

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
    let dump = std::env::var("D3D9_VKD3D_OUTCOMES").ok();
    let listed = match expectations(include_str!("vkd3d_expectations.txt"), &backend) {
        Ok(listed) => listed,
        // While the file is being filled from a dump, its lines may not parse yet.
        Err(e) if dump.is_some() => {
            eprintln!("vkd3d_expectations.txt: {e}");
            Default::default()
        }
        Err(e) => panic!("vkd3d_expectations.txt: {e}"),
    };
    let mut unexpected = Vec::new();
    let mut fixed = Vec::new();
    let mut changed = Vec::new();
    let mut outcomes = Vec::new();
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
            if let Some((kind, why)) = r.outcome.failure() {
                outcomes.push(format!("{key}\t{}\t{why}", kind.name()));
            }
            match (&r.outcome, listed.get(&key)) {
                (Outcome::Pass, Some(e)) => fixed.push(format!("{key} (listed: {})", e.reason)),
                (Outcome::Fail(why), None) => unexpected.push(format!("{key} FAIL {why}")),
                (Outcome::Unsupported(why), None) => {
                    unexpected.push(format!("{key} UNSUPPORTED {why}"))
                }
                (outcome, Some(e)) => {
                    if let Err(how) = e.matches(outcome) {
                        changed.push(format!("{key}: {how}"));
                    }
                }
                (Outcome::Pass, None) => {}
            }
        }
    }
    if let Some(path) = dump {
        std::fs::write(&path, outcomes.join("\n") + "\n").unwrap_or_else(|e| panic!("{path}: {e}"));
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
        changed.is_empty(),
        "{} listed probes fail in another way than listed (update the kind and fragment in \
         vkd3d_expectations.txt):\n{}",
        changed.len(),
        changed.join("\n")
    );
    assert!(
        stale.is_empty(),
        "listed probes that are not usable probes: {stale:?}"
    );
}

/// The expectations' format states the outcome: a line without a kind and a fragment, or with
/// an unknown kind, is refused, and a listed failure matches only its own kind and message.
#[test]
fn expectation_lines_state_the_kind_and_a_part_of_the_message() {
    use vkd3d::FailureKind;
    let listed = expectations(
        "sm2 a.shader_test:3 pixel `got (1e0` why\nsm3 b.shader_test:4 [gl] unsupported `float32` why",
        "gl",
    )
    .expect("parses");
    let a = &listed["sm2 a.shader_test:3"];
    assert_eq!(
        (a.kind, a.fragment.as_str(), a.reason.as_str()),
        (FailureKind::Pixel, "got (1e0", "why")
    );
    assert!(a
        .matches(&Outcome::Fail(
            "(0, 0) got (1e0, 0e0) expected (2e0, 0e0) within 0 ulps".into()
        ))
        .is_ok());
    assert!(a
        .matches(&Outcome::Fail(
            "(0, 0) got (3e0, 0e0) expected (2e0, 0e0) within 0 ulps".into()
        ))
        .is_err());
    assert!(a.matches(&Outcome::Unsupported("got (1e0".into())).is_err());
    assert!(a.matches(&Outcome::Pass).is_err());
    assert_eq!(listed["sm3 b.shader_test:4"].kind, FailureKind::Unsupported);
    for bad in [
        "sm2 a.shader_test:3 why",
        "sm2 a.shader_test:3 pixel why",
        "sm2 a.shader_test:3 crash `x` why",
        "sm2 a.shader_test:3 pixel `` why",
    ] {
        assert!(expectations(bad, "vulkan").is_err(), "{bad}");
    }
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
