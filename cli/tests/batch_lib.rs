//! The library face of `batch`: `translate_batch` as a compatibility layer would call it to
//! warm a shader cache, and its throughput (shaders per second on one and on all cores).

#[path = "../../translator/tests/common/mod.rs"]
mod common;
use common::{complete_shaders, corpus, tokens};

use d3d9_translate::batch::{translate_batch, BatchResult, Outcome};
use d3d9_translate::translate::{translate_bytes, BackendOptions, Lang};
use d3d9_translator::check::DeviceCaps;
use d3d9_translator::lift::VertexShaderOptions;
use serde_json::Value;
use std::time::Instant;

fn blobs() -> Vec<(String, Vec<u8>)> {
    let mut all: Vec<(String, Vec<u32>)> = complete_shaders();
    let data = corpus("vkd3d/vkd3d_sm23.json");
    for f in data["files"].as_array().expect("files") {
        for s in f["shaders"].as_array().expect("shaders") {
            if s["compile_ok"] == Value::Bool(true) {
                all.push((
                    format!("vkd3d {} {}", f["name"], s["id"]),
                    tokens(&s["tokens"]),
                ));
            }
        }
    }
    all.into_iter()
        .map(|(n, t)| (n, t.iter().flat_map(|x| x.to_le_bytes()).collect()))
        .collect()
}

fn run(inputs: &[(String, Vec<u8>)], threads: usize) -> Vec<BatchResult> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("pool");
    pool.install(|| {
        translate_batch(
            inputs,
            Lang::Wgsl,
            &VertexShaderOptions::default(),
            &BackendOptions::default(),
            &|| {},
        )
    })
}

/// One result per input, in order; duplicates point at their first copy; every translated
/// output is the WGSL that translating the blob alone gives, named constants in front.
#[test]
fn translate_batch_gives_per_shader_results() {
    let mut inputs = blobs();
    let first = inputs[0].clone();
    inputs.push(("again".into(), first.1.clone()));
    let results = run(&inputs, 2);
    assert_eq!(results.len(), inputs.len());
    let mut translated = 0;
    for ((name, bytes), r) in inputs.iter().zip(&results) {
        assert_eq!(&r.report.path, name);
        let alone = translate_bytes(
            bytes,
            &DeviceCaps::default(),
            &VertexShaderOptions::default(),
        );
        match (&r.output, alone) {
            (Some(out), Ok(t)) => {
                assert_eq!(r.report.outcome, Outcome::Translated);
                // The WGSL, behind the names of the shader's constant table if it has one.
                let table = d3d9_translator::bytecode::decode_bytes(bytes)
                    .ok()
                    .and_then(|p| d3d9_translator::ctab::ConstantTable::of(&p))
                    .and_then(Result::ok);
                let wgsl = t.wgsl().expect("wgsl").into_bytes();
                let expected = d3d9_translate::constants::annotate(
                    wgsl,
                    table.as_ref(),
                    &t.interface,
                    Lang::Wgsl.takes_comments(),
                );
                assert_eq!(out, &expected, "{name}");
                translated += 1;
            }
            (None, Err(e)) => assert_eq!(r.report.reason.as_deref(), Some(&*e.to_string())),
            (out, alone) => panic!(
                "{name}: batch {:?} vs alone {:?}",
                out.is_some(),
                alone.is_ok()
            ),
        }
    }
    // The 1,807 blobs and the duplicate: 1,756 translate (cli_batch.rs's pinned count) and the
    // duplicate of the first.
    assert_eq!(inputs.len(), 1808);
    assert_eq!(translated, 1757);
    let last = results.last().expect("results");
    assert_eq!(last.report.duplicate_of.as_deref(), Some(first.0.as_str()));
}

/// Shaders per second of `translate_batch` (WGSL) over the whole corpus, on one thread and on
/// all cores. Run with `cargo test --release -p d3d9-translate --test batch_lib -- --ignored
/// --nocapture`.
#[test]
#[ignore = "timing: run on demand"]
fn batch_throughput() {
    let all = blobs();
    // The vertex shaders on their own too.
    let vertex: Vec<_> = all
        .iter()
        .filter(|(_, b)| b.get(2..4) == Some(&[0xFE, 0xFF][..]))
        .cloned()
        .collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    for (inputs, threads) in [(&all, 1), (&all, cores), (&vertex, 1), (&vertex, cores)] {
        let start = Instant::now();
        let results = run(inputs, threads);
        let secs = start.elapsed().as_secs_f64();
        let distinct = results
            .iter()
            .filter(|r| r.report.duplicate_of.is_none())
            .count();
        eprintln!(
            "batch (wgsl) on {threads} thread(s): {} files ({distinct} distinct) in {secs:.3} s = {:.0} shaders/s",
            inputs.len(),
            inputs.len() as f64 / secs
        );
    }
}
