//! Translation time per corpus shader, next to MojoShader's bytes → GLSL on the same shaders.
//!
//! The corpus is every complete shader of `../shared/corpus` (`d3d9_visual.json` and
//! `other_shaders.json`, the 236 that `../shared/bench/dump_corpus.py` writes). Only vertex
//! shaders are timed on our side: pixel-shader translation does not exist yet. Per vertex
//! shader that translates, this prints the median and p99 over shaders of
//! - bytes → validated module (decode + check + lift, which validates: [`translate`]),
//! - bytes → WGSL ([`translate`] + emission),
//! - each stage alone (decode, check, lift, naga validation, WGSL emission).
//!
//! Each time is measured as `mojo_bench` does: ten warm-up calls, then the best of three
//! batches of repeated calls (mean per call in the batch). With `MOJO_BENCH=/path/to/mojo_bench`
//! (build it as `../shared/bench/README.md` says) the same shaders are written to a corpus file
//! in `dump_corpus.py`'s format, MojoShader's GLSL profile times them in a child process, and
//! the two sides alternate `BENCH_ROUNDS` times (default 2; each shader keeps its best time per
//! side and stage), then the per-shader ratios ours / MojoShader print (median over the shaders both
//! translate), for the validated module (target ≤ 1.0×) and WGSL text (target ≤ 1.5×).
//!
//! Environment: `MOJO_PROFILE` (MojoShader's `glsl` (default) or `spirv`; the targets are set
//! against GLSL), `BENCH_BATCH_MS` (batch length, default 5 ms), `BENCH_ROUNDS`,
//! `BENCH_FLOAT_MODE` (`legacy` (default), `legacy-strict`, `ieee`), `BENCH_PROFILE=N` (no
//! timing: translate the corpus to WGSL N times, for callgrind or perf). Figures and how to
//! rerun: `docs/benchmarks.md`.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use d3d9_translator::bytecode::{decode_bytes, Stage};
use d3d9_translator::check::{check, check_bytes, CheckedProgram, DeviceCaps, VertexProcessing};
use d3d9_translator::lift::{
    translate_vertex_shader, validate, FloatMode, TranslatedShader, VertexShaderOptions,
};
use std::hint::black_box;
use std::process::Command;
use std::time::{Duration, Instant};

#[path = "../tests/common/mod.rs"]
mod common;

/// What a translation needs besides the bytes: the device it is created on and the options.
#[derive(Clone, Debug)]
struct Target {
    caps: DeviceCaps,
    options: VertexShaderOptions,
}

/// Checked program → validated module (lift + naga validation): the one call of the lifter, to
/// edit when its signature changes.
fn lift(
    checked: &CheckedProgram,
    options: &VertexShaderOptions,
) -> Result<TranslatedShader, String> {
    translate_vertex_shader(checked, options).map_err(|e| e.to_string())
}

/// Bytes → validated module, the whole path a `CreateVertexShader` takes: decode + check + lift.
fn translate(bytes: &[u8], target: &Target) -> Result<TranslatedShader, String> {
    let checked = check_bytes(bytes, Stage::Vertex, &target.caps).map_err(|e| e.to_string())?;
    lift(&checked, &target.options)
}

/// Bytes → WGSL text.
fn to_wgsl(bytes: &[u8], target: &Target) -> Result<String, String> {
    translate(bytes, target)?.wgsl().map_err(|e| e.to_string())
}

/// One corpus shader, in corpus-file order.
struct Shader {
    name: String,
    tokens: Vec<u32>,
    bytes: Vec<u8>,
    stage: Stage,
}

fn corpus() -> Vec<Shader> {
    let shaders: Vec<Shader> = common::complete_shaders()
        .into_iter()
        .map(|(name, tokens)| Shader {
            bytes: tokens.iter().flat_map(|t| t.to_le_bytes()).collect(),
            stage: if tokens.first().is_some_and(|v| v >> 16 == 0xFFFE) {
                Stage::Vertex
            } else {
                Stage::Pixel
            },
            name,
            tokens,
        })
        .collect();
    assert!(!shaders.is_empty(), "empty corpus");
    shaders
}

/// The device a corpus shader is created on: the first of a D3D9 hardware-vertex-processing
/// SM3 device, a mixed-vertex-processing one (the software-vertex-processing shaders), a D3D8
/// device (d3d8's shaders) that accepts it; software vertex processing lifts 8192 `c#`.
fn target_for(bytes: &[u8], float_mode: FloatMode) -> Option<Target> {
    let devices = [
        DeviceCaps::default(),
        DeviceCaps {
            vertex_processing: VertexProcessing::Mixed,
            ..DeviceCaps::default()
        },
        DeviceCaps::d3d8(),
    ];
    devices.into_iter().find_map(|caps| {
        check_bytes(bytes, Stage::Vertex, &caps).ok()?;
        Some(Target {
            caps,
            options: VertexShaderOptions {
                float_mode,
                ..VertexShaderOptions::default()
            },
        })
    })
}

fn env_number(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v}: not a number")),
        Err(_) => default,
    }
}

fn float_mode() -> FloatMode {
    match std::env::var("BENCH_FLOAT_MODE").as_deref() {
        Err(_) | Ok("legacy") => FloatMode::Legacy,
        Ok("legacy-strict") => FloatMode::LegacyStrict,
        Ok("ieee") => FloatMode::Ieee,
        Ok(other) => panic!("BENCH_FLOAT_MODE={other}: legacy, legacy-strict or ieee"),
    }
}

/// mojo_bench's method: ten warm-up calls, then the best of three batches of at least
/// `batch` each, as the mean time per call in the batch.
fn best_of_batches(batch: Duration, mut f: impl FnMut()) -> Duration {
    for _ in 0..10 {
        f();
    }
    (0..3)
        .map(|_| {
            let start = Instant::now();
            let mut calls = 0u32;
            loop {
                f();
                calls += 1;
                let elapsed = start.elapsed();
                if elapsed >= batch {
                    break elapsed / calls;
                }
            }
        })
        .min()
        .expect("three batches")
}

/// `q`-quantile of `v` (nearest rank on the sorted values).
fn quantile<T: Copy + PartialOrd>(v: &[T], q: f64) -> T {
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.partial_cmp(b).expect("comparable"));
    s[((s.len() - 1) as f64 * q).round() as usize]
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn print_times(what: &str, v: &[Duration]) {
    println!(
        "  {what:<28} median {:>7.2} µs   p99 {:>8.2} µs   sum {:>9.1} µs",
        us(quantile(v, 0.5)),
        us(quantile(v, 0.99)),
        v.iter().map(|d| us(*d)).sum::<f64>()
    );
}

/// Per shader: (bytes → validated module, bytes → WGSL) on our side.
fn time_end_to_end(
    jobs: &[(usize, Target)],
    all: &[Shader],
    batch: Duration,
) -> Vec<[Duration; 2]> {
    jobs.iter()
        .map(|(i, target)| {
            let bytes = &all[*i].bytes;
            let module = best_of_batches(batch, || {
                black_box(translate(black_box(bytes), target).ok());
            });
            let wgsl = best_of_batches(batch, || {
                black_box(to_wgsl(black_box(bytes), target).ok());
            });
            [module, wgsl]
        })
        .collect()
}

/// Per shader: decode, check, lift (lift+validate − validate), validate, emit.
fn time_stages(jobs: &[(usize, Target)], all: &[Shader], batch: Duration) -> Vec<[Duration; 5]> {
    jobs.iter()
        .map(|(i, target)| {
            let bytes = &all[*i].bytes;
            let program = decode_bytes(bytes).expect("decodes");
            let checked = check(&program, Stage::Vertex, &target.caps).expect("checks");
            let shader = translate(bytes, target).expect("translates");
            let decode = best_of_batches(batch, || {
                black_box(decode_bytes(black_box(bytes)).ok());
            });
            let check_time = best_of_batches(batch, || {
                black_box(check(black_box(&program), Stage::Vertex, &target.caps).ok());
            });
            let lift_validate = best_of_batches(batch, || {
                black_box(lift(black_box(&checked), &target.options).ok());
            });
            let validate_time = best_of_batches(batch, || {
                black_box(validate(black_box(&shader.module)).ok());
            });
            let emit = best_of_batches(batch, || {
                black_box(shader.wgsl().ok());
            });
            [
                decode,
                check_time,
                lift_validate.saturating_sub(validate_time),
                validate_time,
                emit,
            ]
        })
        .collect()
}

/// The corpus in `dump_corpus.py`'s format: u32 count, then per shader u32 stage (0 vertex,
/// 1 pixel), u32 token count, the tokens; all little-endian.
fn corpus_file(all: &[Shader]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend((all.len() as u32).to_le_bytes());
    for s in all {
        out.extend(u32::from(s.stage == Stage::Pixel).to_le_bytes());
        out.extend((s.tokens.len() as u32).to_le_bytes());
        out.extend(s.tokens.iter().flat_map(|t| t.to_le_bytes()));
    }
    out
}

/// MojoShader's time per corpus shader with `profile` (`glsl` or `spirv`; `None`: it refused
/// the shader).
fn run_mojo(
    mojo_bench: &str,
    profile: &str,
    corpus_path: &std::path::Path,
    n: usize,
) -> Vec<Option<Duration>> {
    let out = Command::new(mojo_bench)
        .arg(corpus_path)
        .arg(profile)
        .output()
        .unwrap_or_else(|e| panic!("running {mojo_bench}: {e}"));
    assert!(out.status.success(), "{mojo_bench} failed: {out:?}");
    let mut times = vec![None; n];
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        // index stage profile ok nanoseconds
        let f: Vec<&str> = line.split_whitespace().collect();
        let [index, _stage, _profile, ok, ns] = f[..] else {
            panic!("unexpected mojo_bench line {line:?}");
        };
        let index: usize = index.parse().expect("index");
        if ok == "1" {
            let ns: f64 = ns.parse().expect("nanoseconds");
            times[index] = Some(Duration::from_secs_f64(ns * 1e-9));
        }
    }
    times
}

fn min_update<const N: usize>(best: &mut Vec<[Duration; N]>, new: Vec<[Duration; N]>) {
    if best.is_empty() {
        *best = new;
        return;
    }
    for (b, n) in best.iter_mut().zip(new) {
        for (x, y) in b.iter_mut().zip(n) {
            *x = (*x).min(y);
        }
    }
}

fn main() {
    // `cargo bench` passes `--bench`; other arguments (a filter) are ignored.
    let all = corpus();
    let mode = float_mode();
    let vertex: Vec<usize> = (0..all.len())
        .filter(|&i| all[i].stage == Stage::Vertex)
        .collect();
    let mut refused = Vec::new();
    let jobs: Vec<(usize, Target)> = vertex
        .iter()
        .filter_map(|&i| {
            let Some(target) = target_for(&all[i].bytes, mode) else {
                refused.push(format!("{}: no device accepts it", all[i].name));
                return None;
            };
            match translate(&all[i].bytes, &target) {
                Ok(_) => Some((i, target)),
                Err(e) => {
                    refused.push(format!("{}: {e}", all[i].name));
                    None
                }
            }
        })
        .collect();
    assert!(!jobs.is_empty(), "no corpus vertex shader translated");

    if let Ok(n) = std::env::var("BENCH_PROFILE") {
        let n: usize = n.parse().expect("BENCH_PROFILE=N");
        for _ in 0..n {
            for (i, target) in &jobs {
                black_box(to_wgsl(black_box(&all[*i].bytes), target).ok());
            }
        }
        println!("translated {} shaders {n} times", jobs.len());
        return;
    }

    let batch = Duration::from_millis(env_number("BENCH_BATCH_MS", 5));
    let rounds = env_number("BENCH_ROUNDS", 2).max(1);
    let pixel = all.len() - vertex.len();
    println!(
        "corpus: {} complete shaders ({} vertex, {pixel} pixel); {} vertex shaders translate \
         ({mode:?}), {} do not; pixel shaders are not timed (no pixel translation yet)",
        all.len(),
        vertex.len(),
        jobs.len(),
        refused.len()
    );
    for r in &refused {
        println!("  not translated: {r}");
    }

    let mojo = std::env::var("MOJO_BENCH").ok();
    let profile = std::env::var("MOJO_PROFILE").unwrap_or_else(|_| "glsl".to_string());
    let corpus_path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("corpus.bin");
    if mojo.is_some() {
        std::fs::write(&corpus_path, corpus_file(&all)).expect("writing the corpus file");
    }
    let mut ours: Vec<[Duration; 2]> = Vec::new();
    let mut stages: Vec<[Duration; 5]> = Vec::new();
    let mut theirs: Vec<Option<Duration>> = vec![None; all.len()];
    for _ in 0..rounds {
        min_update(&mut ours, time_end_to_end(&jobs, &all, batch));
        min_update(&mut stages, time_stages(&jobs, &all, batch));
        if let Some(m) = &mojo {
            for (best, t) in theirs
                .iter_mut()
                .zip(run_mojo(m, &profile, &corpus_path, all.len()))
            {
                *best = match (*best, t) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
            }
        }
    }

    println!(
        "per vertex shader ({} shaders; best of 3 batches of ≥ {batch:?}, best of {rounds} rounds):",
        jobs.len()
    );
    let col = |k: usize| ours.iter().map(|t| t[k]).collect::<Vec<_>>();
    print_times("bytes → validated module", &col(0));
    print_times("bytes → WGSL", &col(1));
    let stage_names = [
        "decode",
        "check",
        "lift",
        "naga validation",
        "WGSL emission",
    ];
    for (k, name) in stage_names.iter().enumerate() {
        print_times(name, &stages.iter().map(|t| t[k]).collect::<Vec<_>>());
    }

    if mojo.is_none() {
        println!("(set MOJO_BENCH=/path/to/mojo_bench to time MojoShader beside these)");
        return;
    }
    let mojo_vertex: Vec<Duration> = vertex.iter().filter_map(|&i| theirs[i]).collect();
    let mojo_pixel: Vec<Duration> = (0..all.len())
        .filter(|&i| all[i].stage == Stage::Pixel)
        .filter_map(|i| theirs[i])
        .collect();
    println!(
        "MojoShader bytes → {profile} ({} of {} vertex shaders, {} of {pixel} pixel shaders parse):",
        mojo_vertex.len(),
        vertex.len(),
        mojo_pixel.len()
    );
    print_times("vertex", &mojo_vertex);
    if !mojo_pixel.is_empty() {
        print_times("pixel (not translated by us)", &mojo_pixel);
    }
    let pairs: Vec<(usize, [Duration; 2], Duration)> = jobs
        .iter()
        .zip(&ours)
        .filter_map(|((i, _), t)| theirs[*i].map(|m| (*i, *t, m)))
        .collect();
    if pairs.is_empty() {
        println!("no shader both sides translate");
        return;
    }
    let ratio = |k: usize| -> Vec<f64> {
        pairs
            .iter()
            .map(|(_, t, m)| t[k].as_secs_f64() / m.as_secs_f64())
            .collect()
    };
    println!(
        "ours / MojoShader {profile}, per shader on the {} vertex shaders both translate:",
        pairs.len()
    );
    for (k, (what, target)) in [("validated module", 1.0), ("WGSL text", 1.5)]
        .iter()
        .enumerate()
    {
        let r = ratio(k);
        let target = match profile.as_str() {
            "glsl" => format!("   (target ≤ {target:.1}×)"),
            _ => String::new(),
        };
        println!(
            "  {what:<28} median ratio {:>5.2}×   p99 {:>5.2}×{target}",
            quantile(&r, 0.5),
            quantile(&r, 0.99),
        );
    }
    let mut worst: Vec<(f64, usize)> = ratio(1)
        .into_iter()
        .zip(pairs.iter().map(|p| p.0))
        .collect();
    worst.sort_by(|a, b| b.0.partial_cmp(&a.0).expect("comparable"));
    println!("  slowest against MojoShader (WGSL):");
    for (r, i) in worst.iter().take(5) {
        println!("    {r:>5.2}×  #{i} {}", all[*i].name);
    }
}
