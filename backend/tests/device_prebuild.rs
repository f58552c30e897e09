//! Pipelines built ahead of their draws from the state cache (`device::prebuild`), each
//! device in a cache folder of its own.
//!
//! A device that draws records each pipeline it builds for a pair of shaders; the next
//! device in the same folder builds those pipelines on its workers as soon as the
//! declaration and both shaders of a recorded pair exist, and its draws take them (same
//! pictures, no pipeline built at the draw). A released shader's prebuilt pairs are dropped;
//! a device with `prebuild` off records but builds nothing ahead; a damaged state cache is
//! not trusted and is written whole again.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

#[allow(dead_code)]
mod device_common;

use std::path::Path;
use std::time::{Duration, Instant};

use d3d9_backend::device::{
    Blend, ClearFlags, CullMode, PixelShaderId, PrimitiveType, RenderState, VertexShaderId,
};
use d3d9_backend::gpu::disk_cache::is_whole_entry;
use d3d9_backend::{Device, DeviceParams, DiskCacheSetting};
use d3d9_translator::bytecode::Usage;
use d3d9_translator::decl::{DeclType, VertexElement};
use device_common::{band_positions, device_with, floats, ok, tokens, TempFolder};

/// Bands drawn, each by a pair of its own; each band is drawn twice, blended and not, so
/// each pair has two pipelines.
const BANDS: usize = 4;

/// A fresh folder for one test, removed when dropped.
fn temp_folder(test: &str) -> TempFolder {
    TempFolder::new("device-prebuild", test)
}

fn device_in(root: &Path, prebuild: bool) -> Device {
    device_with(DeviceParams {
        disk_cache: DiskCacheSetting::Folder(root.to_path_buf()),
        prebuild,
        ..DeviceParams::default()
    })
}

/// A level's objects: the declaration, vertex buffer and each band's shaders, created as a
/// game creates them at its load (the shaders last).
struct Level {
    shaders: Vec<(VertexShaderId, PixelShaderId)>,
}

fn create_level(dev: &mut Device) -> Level {
    let elements = [VertexElement::new(
        0,
        0,
        DeclType::Float3,
        Usage::Position,
        0,
    )];
    let decl = ok(dev.create_vertex_declaration(&elements));
    let vertices = band_positions(BANDS);
    let vb = ok(dev.create_vertex_buffer_with(&floats(&vertices)));
    ok(dev.set_vertex_declaration(Some(decl)));
    ok(dev.set_stream_source(0, Some(vb), 0, 12));
    let shaders = (0..BANDS)
        .map(|b| {
            let vs = format!(
                "vs_2_0\ndef c0, {:?}, 0.25, 0.5, 0.5\ndcl_position v0\nmov oPos, v0\nmov oD0, c0\n",
                (b + 1) as f32 / BANDS as f32
            );
            let ps = format!(
                "ps_2_0\ndef c0, 0.0, {:?}, 0.0, 0.0\ndcl v0\nadd r0, v0, c0\nmov oC0, r0\n",
                b as f32 / 8.0
            );
            let vs = ok(dev.create_vertex_shader(&tokens(&vs)));
            let ps = ok(dev.create_pixel_shader(&tokens(&ps)));
            (vs, ps)
        })
        .collect();
    Level { shaders }
}

/// Draws every band unblended, then blended over itself; returns the back buffer's bytes.
fn draw_level(dev: &mut Device, level: &Level) -> Vec<u8> {
    draw_bands(dev, level);
    read_back(dev)
}

/// The back buffer's bytes (a flush: the draws so far are submitted).
fn read_back(dev: &mut Device) -> Vec<u8> {
    let back = dev.back_buffer();
    ok(dev.get_render_target_data(back)).data
}

/// [`draw_level`]'s draws, not read back.
fn draw_bands(dev: &mut Device, level: &Level) {
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    ok(dev.clear(&[], ClearFlags::TARGET, 0xff10_2030, 1.0, 0));
    for blend in [false, true] {
        ok(dev.set_render_state(RenderState::AlphaBlendEnable(blend)));
        ok(dev.set_render_state(RenderState::SrcBlend(Blend::One)));
        ok(dev.set_render_state(RenderState::DestBlend(Blend::One)));
        for (b, (vs, ps)) in level.shaders.iter().enumerate() {
            ok(dev.set_vertex_shader(Some(*vs)));
            ok(dev.set_pixel_shader(Some(*ps)));
            ok(dev.draw_primitive(PrimitiveType::TriangleList, (b * 6) as u32, 2));
        }
    }
}

/// The picture of a device with nothing recorded, which records the level; its records are
/// saved when it is dropped.
fn record_level(root: &Path) -> Vec<u8> {
    let mut dev = device_in(root, true);
    assert_eq!(dev.prebuild_stats().recorded, 0);
    let level = create_level(&mut dev);
    assert_eq!(
        dev.prebuild_stats().pairs_scheduled,
        0,
        "nothing recorded yet"
    );
    let picture = draw_level(&mut dev, &level);
    let (pairs, pipelines) = dev.cache_stats();
    assert_eq!(
        (pairs.misses, pipelines.misses),
        (BANDS as u64, 2 * BANDS as u64)
    );
    let path = dev
        .state_cache_path()
        .expect("a state cache with the disk cache on");
    drop(dev);
    assert!(
        is_whole_entry(&path),
        "the records saved when the device was dropped"
    );
    picture
}

#[test]
fn gpu_recorded_pipelines_are_built_ahead_and_drawn() {
    let folder = temp_folder("ahead");
    let picture = record_level(&folder.0);
    // Each band's colour: red (b + 1)/4 doubled by the blended pass, over the clear colour.
    assert_ne!(picture[..4], picture[picture.len() - 4..], "bands differ");

    let mut dev = device_in(&folder.0, true);
    let stats = dev.prebuild_stats();
    assert_eq!(stats.recorded, 2 * BANDS, "every pipeline recorded once");
    let level = create_level(&mut dev);
    let stats = dev.prebuild_stats();
    assert_eq!(
        (stats.pairs_scheduled, stats.pipelines_scheduled),
        (BANDS as u64, 2 * BANDS as u64),
        "each pair scheduled when its pixel shader was created"
    );
    dev.finish_prebuilds();
    assert_eq!(dev.prebuilt_pipelines_waiting(), 2 * BANDS);
    assert_eq!(draw_level(&mut dev, &level), picture, "the same picture");
    let stats = dev.prebuild_stats();
    assert_eq!(
        (stats.pairs_used, stats.pipelines_used),
        (BANDS as u64, 2 * BANDS as u64),
        "every draw took what the workers built"
    );
    assert_eq!(dev.prebuilt_pipelines_waiting(), 0);

    // Drawn again: from the device's caches, as any pair.
    assert_eq!(draw_level(&mut dev, &level), picture);
    assert_eq!(dev.prebuild_stats().pipelines_used, 2 * BANDS as u64);
}

#[test]
fn gpu_a_draw_before_the_workers_finish_draws_the_same() {
    let folder = temp_folder("early");
    let picture = record_level(&folder.0);
    // No waiting: each draw takes its pipeline, waits for the one being built, or builds
    // a queued one itself; the picture is the same whichever.
    let mut dev = device_in(&folder.0, true);
    let level = create_level(&mut dev);
    assert_eq!(draw_level(&mut dev, &level), picture);
    dev.finish_prebuilds();
    let (pairs, _) = dev.cache_stats();
    assert_eq!(pairs.len, BANDS, "no pair twice");
}

#[test]
fn gpu_a_released_shader_drops_its_prebuilt_pairs() {
    let folder = temp_folder("released");
    let picture = record_level(&folder.0);
    let mut dev = device_in(&folder.0, true);
    let level = create_level(&mut dev);
    dev.finish_prebuilds();
    assert_eq!(dev.prebuilt_pipelines_waiting(), 2 * BANDS);
    let (vs, _) = level.shaders[0];
    ok(dev.release_vertex_shader(vs));
    assert_eq!(
        dev.prebuilt_pipelines_waiting(),
        2 * (BANDS - 1),
        "band 0's pipelines dropped with its vertex shader"
    );
    // The same shader created again is a new object: drawn, it is paired anew.
    let mut level = level;
    let text = format!(
        "vs_2_0\ndef c0, {:?}, 0.25, 0.5, 0.5\ndcl_position v0\nmov oPos, v0\nmov oD0, c0\n",
        1.0 / BANDS as f32
    );
    level.shaders[0].0 = ok(dev.create_vertex_shader(&tokens(&text)));
    dev.finish_prebuilds();
    assert_eq!(draw_level(&mut dev, &level), picture);
}

#[test]
fn gpu_a_shader_released_and_created_again_is_prebuilt_again() {
    let folder = temp_folder("again");
    let picture = record_level(&folder.0);
    let mut dev = device_in(&folder.0, true);
    let mut level = create_level(&mut dev);
    dev.finish_prebuilds();
    ok(dev.release_vertex_shader(level.shaders[0].0));
    // Band 0's pixel shader created again while its vertex shader is gone: the plan waits.
    let ps = "ps_2_0\ndef c0, 0.0, 0.0, 0.0, 0.0\ndcl v0\nadd r0, v0, c0\nmov oC0, r0\n";
    level.shaders[0].1 = ok(dev.create_pixel_shader(&tokens(ps)));
    assert_eq!(dev.prebuild_stats().pairs_scheduled, BANDS as u64);
    let vs = format!(
        "vs_2_0\ndef c0, {:?}, 0.25, 0.5, 0.5\ndcl_position v0\nmov oPos, v0\nmov oD0, c0\n",
        1.0 / BANDS as f32
    );
    level.shaders[0].0 = ok(dev.create_vertex_shader(&tokens(&vs)));
    assert_eq!(
        dev.prebuild_stats().pairs_scheduled,
        BANDS as u64 + 1,
        "band 0's pair scheduled again, naming the new objects"
    );
    dev.finish_prebuilds();
    assert_eq!(draw_level(&mut dev, &level), picture);
    assert_eq!(
        dev.prebuild_stats().pipelines_used,
        2 * BANDS as u64,
        "band 0's pipelines from the workers too"
    );
}

/// Waits (at most ten seconds) for the state cache file to be written whole.
fn saved(path: &Path) -> Vec<u8> {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !is_whole_entry(path) {
        assert!(Instant::now() < deadline, "no records saved");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::fs::read(path).unwrap()
}

#[test]
fn gpu_records_are_saved_while_the_device_lives_at_most_every_two_seconds() {
    let folder = temp_folder("periodic");
    let mut dev = device_in(&folder.0, true);
    let path = dev.state_cache_path().unwrap();
    let level = create_level(&mut dev);
    // The first submit more than two seconds after the device was made saves what its draws
    // recorded, on a worker.
    std::thread::sleep(Duration::from_millis(2100));
    draw_bands(&mut dev, &level);
    let submitted = Instant::now();
    read_back(&mut dev);
    let bytes = saved(&path);
    // A pipeline recorded less than two seconds after that save waits for the next (where
    // this machine was quick enough to tell).
    ok(dev.set_render_state(RenderState::DestBlend(Blend::Zero)));
    ok(dev.draw_primitive(PrimitiveType::TriangleList, 0, 2));
    read_back(&mut dev);
    if submitted.elapsed() < Duration::from_millis(1800) {
        std::thread::sleep(Duration::from_millis(200));
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "not saved again yet");
    }
    assert_eq!(
        device_in(&folder.0, false).prebuild_stats().recorded,
        2 * BANDS,
        "the first pipelines saved while the device lives"
    );
    drop(dev);
    assert_eq!(
        device_in(&folder.0, false).prebuild_stats().recorded,
        2 * BANDS + 1,
        "the rest saved when the device was dropped"
    );
}

#[test]
fn gpu_prebuild_off_builds_nothing_ahead() {
    let folder = temp_folder("off");
    let picture = record_level(&folder.0);
    let mut dev = device_in(&folder.0, false);
    assert_eq!(dev.prebuild_stats().recorded, 2 * BANDS);
    let level = create_level(&mut dev);
    assert_eq!(dev.prebuild_stats().pairs_scheduled, 0);
    assert_eq!(draw_level(&mut dev, &level), picture);
    let (_, pipelines) = dev.cache_stats();
    assert_eq!(
        pipelines.misses,
        2 * BANDS as u64,
        "every pipeline built at its draw"
    );
}

#[test]
fn gpu_a_damaged_state_cache_is_ignored_and_rewritten() {
    let folder = temp_folder("damaged");
    let picture = record_level(&folder.0);
    let path = device_in(&folder.0, true).state_cache_path().unwrap();
    for damage in [
        (|b: &mut Vec<u8>| {
            let mid = b.len() / 2;
            b[mid] ^= 0x5a;
        }) as fn(&mut Vec<u8>),
        |b| b.truncate(b.len() / 2),
    ] {
        let mut bytes = std::fs::read(&path).unwrap();
        damage(&mut bytes);
        std::fs::write(&path, &bytes).unwrap();
        let mut dev = device_in(&folder.0, true);
        assert_eq!(dev.prebuild_stats().recorded, 0, "nothing trusted");
        let level = create_level(&mut dev);
        assert_eq!(dev.prebuild_stats().pairs_scheduled, 0);
        assert_eq!(draw_level(&mut dev, &level), picture);
        drop(dev);
        assert!(is_whole_entry(&path), "written whole again");
        assert_eq!(
            device_in(&folder.0, true).prebuild_stats().recorded,
            2 * BANDS
        );
    }
}

#[test]
fn gpu_the_cache_off_records_nothing() {
    let mut dev = device_with(DeviceParams {
        disk_cache: DiskCacheSetting::Off,
        ..DeviceParams::default()
    });
    assert!(dev.state_cache_path().is_none());
    let level = create_level(&mut dev);
    draw_level(&mut dev, &level);
    assert_eq!(dev.prebuild_stats(), Default::default());
}
