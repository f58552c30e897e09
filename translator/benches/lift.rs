//! Criterion timings of each translation stage over all corpus vertex shaders together: bytes →
//! program (decode), program → validated module (lift + validate), validation alone, module →
//! WGSL (emit); criterion keeps baselines, so `--save-baseline` / `--baseline` compare runs.
//! Per-shader medians and p99s, and MojoShader beside them, are the `translate` bench's.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use criterion::{criterion_group, criterion_main, Criterion};
use d3d9_translator::bytecode::{decode, Stage};
use d3d9_translator::check::{check, CheckedProgram, DeviceCaps};
use d3d9_translator::lift::{translate_vertex_shader, validate, VertexShaderOptions};

#[path = "../tests/common/mod.rs"]
mod common;

/// The corpus vertex shaders that translate (the benchmark times the successful path).
fn shaders() -> Vec<Vec<u32>> {
    let shaders: Vec<Vec<u32>> = common::visual_vertex_shaders()
        .into_iter()
        .filter(|t| {
            checked(t)
                .and_then(|p| translate_vertex_shader(&p, &VertexShaderOptions::default()).ok())
                .is_some()
        })
        .collect();
    assert!(!shaders.is_empty(), "no corpus vertex shader translated");
    shaders
}

/// Decode and check as a software-vertex-processing device (the most permissive) would.
fn checked(t: &[u32]) -> Option<CheckedProgram> {
    decode(t)
        .ok()
        .and_then(|p| check(&p, Stage::Vertex, &DeviceCaps::software()).ok())
}

fn bench(c: &mut Criterion) {
    let all = shaders();
    let opts = VertexShaderOptions::default();
    let programs: Vec<_> = all.iter().filter_map(|t| checked(t)).collect();
    let translated: Vec<_> = programs
        .iter()
        .filter_map(|p| translate_vertex_shader(p, &opts).ok())
        .collect();
    let mut g = c.benchmark_group("corpus");
    g.bench_function("decode", |b| {
        b.iter(|| all.iter().filter(|t| decode(t).is_ok()).count())
    });
    g.bench_function("lift+validate", |b| {
        b.iter(|| {
            programs
                .iter()
                .filter(|p| translate_vertex_shader(p, &opts).is_ok())
                .count()
        })
    });
    g.bench_function("validate", |b| {
        b.iter(|| {
            translated
                .iter()
                .filter(|s| validate(&s.module).is_ok())
                .count()
        })
    });
    g.bench_function("emit", |b| {
        b.iter(|| translated.iter().filter(|s| s.wgsl().is_ok()).count())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
