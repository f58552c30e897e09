//! Decoding throughput over the whole corpus (asm_pairs, complete visual.c shaders, other
//! shaders), against a baseline that only reads every little-endian token, so the cost of
//! decoding over touching the bytes is visible as a ratio.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use d3d9_translator::bytecode::decode_bytes;
use serde_json::Value;
use std::hint::black_box;

#[path = "../tests/common/mod.rs"]
mod common;
use common::corpus;

fn bytes(v: &Value) -> Vec<u8> {
    v.as_array()
        .expect("tokens array")
        .iter()
        .flat_map(|t| (t.as_u64().expect("u32") as u32).to_le_bytes())
        .collect()
}

/// Every shader of the corpus as `fxc /Fo`-style bytes.
fn shaders() -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = corpus("asm_pairs.json")
        .as_array()
        .expect("pairs")
        .iter()
        .map(|p| bytes(&p["tokens"]))
        .collect();
    let complete = |s: &&Value| s.get("complete").and_then(Value::as_bool) != Some(false);
    let visual = corpus("d3d9_visual.json");
    for key in ["shaders", "composed_shaders"] {
        let list = visual[key].as_array().expect("shader list");
        out.extend(list.iter().filter(complete).map(|s| bytes(&s["tokens"])));
    }
    let other = corpus("other_shaders.json");
    for f in other["files"].as_object().expect("files").values() {
        let list = f["shaders"].as_array().expect("shaders");
        out.extend(list.iter().filter(complete).map(|s| bytes(&s["tokens"])));
    }
    out
}

fn decode_corpus(c: &mut Criterion) {
    let shaders = shaders();
    let total: usize = shaders.iter().map(Vec::len).sum();
    assert!(shaders.iter().all(|s| decode_bytes(s).is_ok()));
    eprintln!("corpus: {} shaders, {} bytes", shaders.len(), total);
    let mut group = c.benchmark_group("corpus");
    group.throughput(Throughput::Bytes(total as u64));
    group.bench_function("decode", |b| {
        b.iter(|| {
            for s in &shaders {
                let _ = black_box(decode_bytes(black_box(s)));
            }
        })
    });
    group.bench_function("baseline_read_tokens", |b| {
        b.iter(|| {
            let mut sum = 0u32;
            for s in &shaders {
                for t in black_box(s).chunks_exact(4) {
                    sum = sum.wrapping_add(u32::from_le_bytes([t[0], t[1], t[2], t[3]]));
                }
            }
            black_box(sum)
        })
    });
    group.finish();
}

criterion_group!(benches, decode_corpus);
criterion_main!(benches);
