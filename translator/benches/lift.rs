//! Per-shader translation time over the corpus vertex shaders: bytes → program (decode) →
//! validated module (lift + validate) → WGSL (emit). Prints the median and p99 per stage over
//! shaders (validation alone is timed on the finished module; lift = translate − validate),
//! then lets criterion time each stage over the whole corpus.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use criterion::{criterion_group, criterion_main, Criterion};
use d3d9_translator::bytecode::{decode, Stage};
use d3d9_translator::check::{check, CheckedProgram, DeviceCaps};
use d3d9_translator::lift::{translate_vertex_shader, validate, VertexShaderOptions};
use std::hint::black_box;
use std::time::{Duration, Instant};

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

fn median_of(mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..21)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn report(name: &str, mut v: Vec<Duration>) {
    v.sort();
    if v.is_empty() {
        return;
    }
    let p = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    println!(
        "{name:>9}: median {:>10.1?}  p99 {:>10.1?}",
        p(0.5),
        p(0.99)
    );
}

fn bench(c: &mut Criterion) {
    let all = shaders();
    let opts = VertexShaderOptions::default();
    let (mut dec, mut tr, mut val, mut lift, mut emit) = (vec![], vec![], vec![], vec![], vec![]);
    for t in &all {
        let Some(p) = checked(t) else { continue };
        let Ok(s) = translate_vertex_shader(&p, &opts) else {
            continue;
        };
        dec.push(median_of(|| {
            black_box(decode(black_box(t)).ok());
        }));
        let translate = median_of(|| {
            black_box(translate_vertex_shader(black_box(&p), &opts).ok());
        });
        let validate_only = median_of(|| {
            black_box(validate(black_box(&s.module)).ok());
        });
        tr.push(translate);
        val.push(validate_only);
        lift.push(translate.saturating_sub(validate_only));
        emit.push(median_of(|| {
            black_box(s.wgsl().ok());
        }));
    }
    println!("{} vertex shaders, per-shader times:", all.len());
    report("decode", dec);
    report("lift", lift);
    report("validate", val);
    report("translate", tr);
    report("emit", emit);

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
