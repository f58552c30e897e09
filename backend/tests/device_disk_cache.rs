//! The cache on disk through the device (`gpu::disk_cache`, `gpu::pipeline_cache`), each
//! device in a folder of its own (`DeviceParams::disk_cache`), never the user's cache folder.
//!
//! Where the adapter has `PIPELINE_CACHE` (wgpu 30: Vulkan, so lavapipe): a device that drew
//! saves wgpu's pipeline cache data when dropped; a damaged file (bytes flipped, truncated) is
//! not trusted: the next device deletes it, draws the same picture, and writes it whole again.
//! The data is also saved while drawing (as the 8th pipeline build starts). Where the
//! adapter lacks it (GL): nothing is written at all.
//!
//! `gpu_pipeline_cache_figures` (ignored: a measurement) times first draws of distinct shader
//! pairs with no cache, an empty folder and a warm one (`docs/benchmarks.md`).

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

#[allow(dead_code)]
mod device_common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use d3d9_backend::device::{ClearFlags, CullMode, PrimitiveType, RenderState};
use d3d9_backend::gpu::disk_cache::is_whole_entry;
use d3d9_backend::{Device, DeviceParams, DiskCacheSetting};
use d3d9_translator::bytecode::Usage;
use d3d9_translator::decl::{DeclType, VertexElement};
use device_common::{band_positions, floats, ok, tokens, TempFolder};

/// A fresh folder for one test, removed when dropped.
fn temp_folder(test: &str) -> TempFolder {
    TempFolder::new("device-disk-cache", test)
}

fn device_with(disk_cache: DiskCacheSetting) -> Device {
    device_common::device_with(DeviceParams {
        disk_cache,
        ..DeviceParams::default()
    })
}

/// Every file under `folder`, recursively.
fn files_under(folder: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(listing) = std::fs::read_dir(folder) else {
        return out;
    };
    for entry in listing.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// The files under `folder` other than state caches (a device's records of the pipelines
/// it built, written with or without `PIPELINE_CACHE`).
fn written_besides_state_cache(folder: &Path) -> Vec<PathBuf> {
    let state_cache = device_with(DiskCacheSetting::Folder(folder.to_path_buf()))
        .state_cache_path()
        .and_then(|p| p.file_name().map(|n| n.to_owned()));
    files_under(folder)
        .into_iter()
        .filter(|p| p.file_name().map(|n| n.to_owned()) != state_cache)
        .collect()
}

/// Draws `bands` horizontal bands, each with a vertex shader of its own (its own colour) and
/// one pixel shader, so each band builds a pipeline; returns the back buffer's bytes.
fn draw_bands(dev: &mut Device, bands: usize, seed: usize) -> Vec<u8> {
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    let elements = [VertexElement::new(
        0,
        0,
        DeclType::Float3,
        Usage::Position,
        0,
    )];
    let decl = ok(dev.create_vertex_declaration(&elements));
    let ps = ok(dev.create_pixel_shader(&tokens("ps_2_0\ndcl v0\nmov oC0, v0\n")));
    let vertices = band_positions(bands);
    let vb = ok(dev.create_vertex_buffer_with(&floats(&vertices)));
    ok(dev.set_vertex_declaration(Some(decl)));
    ok(dev.set_stream_source(0, Some(vb), 0, 12));
    ok(dev.set_pixel_shader(Some(ps)));
    ok(dev.clear(&[], ClearFlags::TARGET, 0xff00_0000, 1.0, 0));
    for b in 0..bands {
        let n = seed * bands + b;
        let red = (n % 256) as f32 / 255.0;
        let green = (n / 256 % 256) as f32 / 255.0;
        let text = format!(
            "vs_2_0\ndef c0, {red:?}, {green:?}, 0.5, 1.0\ndcl_position v0\nmov oPos, v0\nmov oD0, c0\n"
        );
        let vs = ok(dev.create_vertex_shader(&tokens(&text)));
        ok(dev.set_vertex_shader(Some(vs)));
        ok(dev.draw_primitive(PrimitiveType::TriangleList, (b * 6) as u32, 2));
    }
    let back = dev.back_buffer();
    ok(dev.get_render_target_data(back)).data
}

/// Draws the bands on a new device in `root` and drops it; returns the picture and whether
/// the device had a pipeline cache, with the path of its file.
fn draw_and_drop(root: &Path) -> (Vec<u8>, Option<PathBuf>) {
    let mut dev = device_with(DiskCacheSetting::Folder(root.to_path_buf()));
    eprintln!("{}", dev.gpu().describe());
    let path = dev.gpu().pipeline_cache_path();
    let has_feature = dev
        .gpu()
        .features()
        .contains(d3d9_backend::wgpu::Features::PIPELINE_CACHE);
    assert_eq!(
        path.is_some(),
        has_feature,
        "a pipeline cache exactly where the device has PIPELINE_CACHE"
    );
    let picture = draw_bands(&mut dev, 8, 0);
    drop(dev);
    (picture, path)
}

/// Damages the saved file with `damage`; the next device ignores it (deletes it when
/// opened), draws the same picture, and writes the file whole again when dropped.
fn damaged_file_is_ignored_and_rewritten(
    root: &Path,
    path: &Path,
    picture: &[u8],
    damage: impl FnOnce(&mut Vec<u8>),
) {
    let mut bytes = std::fs::read(path).unwrap();
    damage(&mut bytes);
    std::fs::write(path, &bytes).unwrap();
    assert!(!is_whole_entry(path), "the damage is seen");
    let mut dev = device_with(DiskCacheSetting::Folder(root.to_path_buf()));
    assert!(!path.exists(), "the damaged file was not used, and deleted");
    assert_eq!(draw_bands(&mut dev, 8, 0), picture, "the same picture");
    drop(dev);
    assert!(is_whole_entry(path), "written whole again");
}

#[test]
fn gpu_pipeline_cache_is_saved_and_a_damaged_file_ignored_and_rewritten() {
    let folder = temp_folder("pipeline");
    let (picture, path) = draw_and_drop(&folder.0);
    // Eight bands of their own colours.
    let band = 640 * 4 * (480 / 8);
    assert_ne!(picture[..4], picture[picture.len() - 4..]);
    assert_eq!(picture.len(), band * 8);
    let Some(path) = path else {
        // GL: wgpu has no pipeline cache data there, so the device writes only its state
        // cache (the pipelines it built, `prebuild`).
        let written = written_besides_state_cache(&folder.0);
        assert!(
            written.is_empty(),
            "only the state cache written on GL: {written:?}"
        );
        eprintln!("no PIPELINE_CACHE on this adapter: only the state cache written, as expected");
        return;
    };
    assert!(is_whole_entry(&path), "saved when the device was dropped");
    let len = std::fs::metadata(&path).unwrap().len();
    eprintln!("pipeline cache data: {len} bytes in {}", path.display());

    // Flipped bytes in the middle (the driver's data), then in the header.
    damaged_file_is_ignored_and_rewritten(&folder.0, &path, &picture, |b| {
        let mid = b.len() / 2;
        for byte in &mut b[mid..mid + 16] {
            *byte ^= 0x5a;
        }
    });
    damaged_file_is_ignored_and_rewritten(&folder.0, &path, &picture, |b| b[2] ^= 1);
    // Truncated to half, and by its last byte.
    damaged_file_is_ignored_and_rewritten(&folder.0, &path, &picture, |b| b.truncate(b.len() / 2));
    damaged_file_is_ignored_and_rewritten(&folder.0, &path, &picture, |b| {
        b.pop();
    });
    // A warm start from the good file draws the same picture.
    let (warm, _) = draw_and_drop(&folder.0);
    assert_eq!(warm, picture);
    let temps: Vec<_> = files_under(&folder.0)
        .into_iter()
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .collect();
    assert!(temps.is_empty(), "no temporary file left: {temps:?}");
}

#[test]
fn gpu_pipeline_cache_is_saved_while_drawing() {
    let folder = temp_folder("while-drawing");
    let mut dev = device_with(DiskCacheSetting::Folder(folder.0.clone()));
    let path = dev.gpu().pipeline_cache_path();
    // Nine new pipelines: the 8th build saves the seven before it.
    draw_bands(&mut dev, 9, 0);
    match &path {
        Some(path) => assert!(is_whole_entry(path), "saved before the device is dropped"),
        None => assert!(
            written_besides_state_cache(&folder.0).is_empty(),
            "nothing but the state cache written without PIPELINE_CACHE"
        ),
    }
    drop(dev);
    if let Some(path) = path {
        assert!(is_whole_entry(&path));
    }
}

#[test]
fn gpu_a_device_with_the_cache_off_keeps_nothing() {
    let dev = device_with(DiskCacheSetting::Off);
    assert!(dev.gpu().disk_cache().is_none());
    assert!(dev.gpu().pipeline_cache().is_none());
    assert!(dev.gpu().pipeline_cache_path().is_none());
}

/// Times of one device in `setting`: its creation (which reads the cache), drawing `bands`
/// bands of new shader pairs, and its drop (which saves the cache).
fn time_first_draws(setting: DiskCacheSetting, bands: usize) -> [Duration; 3] {
    let start = Instant::now();
    let mut dev = device_with(setting);
    let created = start.elapsed();
    let start = Instant::now();
    draw_bands(&mut dev, bands, 1);
    let drawn = start.elapsed();
    let start = Instant::now();
    drop(dev);
    [created, drawn, start.elapsed()]
}

/// Cold and warm first draws (`BANDS`, default 64 distinct pairs), alternating `ROUNDS`
/// (default 3) times; prints the best of each.
#[test]
#[ignore = "a measurement: run with --ignored --nocapture"]
fn gpu_pipeline_cache_figures() {
    let env = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let bands = env("BANDS", 64);
    let rounds = env("ROUNDS", 3);
    let warm = temp_folder("figures-warm");
    // Fill the warm folder once.
    time_first_draws(DiskCacheSetting::Folder(warm.0.clone()), bands);
    let mut best = [[Duration::MAX; 3]; 3];
    for round in 0..rounds {
        let empty = temp_folder(&format!("figures-cold-{round}"));
        let settings = [
            DiskCacheSetting::Off,
            DiskCacheSetting::Folder(empty.0.clone()),
            DiskCacheSetting::Folder(warm.0.clone()),
        ];
        // Each round in another order, so no setting always runs first.
        for k in 0..3 {
            let which = (k + round) % 3;
            let times = time_first_draws(settings[which].clone(), bands);
            for (b, t) in best[which].iter_mut().zip(times) {
                *b = (*b).min(t);
            }
        }
    }
    let dev = device_with(DiskCacheSetting::Off);
    println!("{}", dev.gpu().describe());
    drop(dev);
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!("{bands} new pairs drawn per device, best of {rounds} rounds (ms):");
    println!("setting       create  draws (per pipeline)  drop");
    for (name, [created, drawn, dropped]) in ["off", "empty folder", "warm folder"].iter().zip(best)
    {
        println!(
            "{name:<13} {:6.2}  {:7.1} ({:.3})      {:6.2}",
            ms(created),
            ms(drawn),
            ms(drawn) / bands as f64,
            ms(dropped)
        );
    }
    let saved: u64 = files_under(&warm.0)
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum();
    println!("warm folder: {saved} bytes");
}
