//! The C samples (`samples/c/`, built with the C ABI's compile line against libd3d9.so and
//! run as their own processes) give the same pictures as the Rust scenes of the same name.
//! Tolerance: none; the same device code draws the same calls (at most 1 in a channel is
//! allowed for the readback's rounding, in no pixel here on lavapipe and llvmpipe).
//! Needs libd3d9.so (`cargo test` builds it in the workspace; `cargo build --release -p
//! d3d9-capi` for `cargo test -p d3d9-samples` alone), a C compiler and mingw-w64-common.

use d3d9_backend::Gpu;
use d3d9_samples::c_samples::{build, find_libd3d9, read_ppm, run_sample, C_SAMPLES};

#[test]
fn gpu_c_samples_match_the_rust_scenes() {
    let Some(gpu) = Gpu::for_tests().expect("GPU") else {
        return;
    };
    let lib = find_libd3d9().unwrap_or_else(|e| panic!("{e}"));
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("c_samples-{}", std::process::id()));
    let exe = build(&lib, &dir).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(C_SAMPLES.len(), 3);
    for sample in C_SAMPLES {
        let ppm = dir.join(format!("{}.ppm", sample.name));
        run_sample(&exe, &lib, sample.name, &ppm).unwrap_or_else(|e| panic!("{e}"));
        let c = read_ppm(&ppm).unwrap_or_else(|e| panic!("{e}"));
        let scene = d3d9_samples::SCENES
            .iter()
            .find(|s| s.name == sample.name)
            .expect("a Rust scene of the C sample's name");
        let rust = d3d9_samples::render_scene(&gpu, scene).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (c.width, c.height),
            (rust.width, rust.height),
            "{}",
            sample.name
        );
        let off = (0..c.height)
            .flat_map(|y| (0..c.width).map(move |x| (x, y)))
            .filter(|&(x, y)| {
                let (a, b) = (c.color(x, y).unwrap_or(0), rust.color(x, y).unwrap_or(0));
                (0..3).any(|i| ((a >> (8 * i)) & 0xff).abs_diff((b >> (8 * i)) & 0xff) > 1)
            })
            .count();
        assert_eq!(off, 0, "{}: {off} pixels differ", sample.name);
        // Not an empty picture: the clear colour and the drawing both show.
        let distinct: std::collections::BTreeSet<u32> = (0..c.width)
            .map(|x| c.color(x, c.height / 2).unwrap_or(0))
            .collect();
        assert!(distinct.len() > 4, "{}", sample.name);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
