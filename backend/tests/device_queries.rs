//! D3D9 queries through the device: occlusion queries count the samples of the draws between
//! `issue_begin` and `issue_end` that pass the depth and stencil tests (exactly on Vulkan; on
//! wgpu's GL backend each draw counts 1 if any sample passed), results come without waiting
//! and only once the GPU has them, and the timestamp kinds exist exactly where the adapter
//! has `TIMESTAMP_QUERY`. Windows' rules from Wine's `test_occlusion_query` and
//! `test_timestamp_query`: never issued, END without BEGIN, BEGIN twice.

#![allow(clippy::panic)] // a failing test says why

#[allow(dead_code)]
mod device_common;
use d3d9_backend::device::query::{QueryData, QueryId, QueryKind, TIMESTAMP_FREQUENCY};
use d3d9_backend::device::CullMode;
use d3d9_backend::device::{
    ClearFlags, CompareFunction, Device, DeviceError, DeviceParams, Format, PrimitiveType,
    RenderState,
};
use device_common::{default_adapter, floats, ok};

const D3DFVF_XYZRHW: u32 = 0x004;
const D3DFVF_DIFFUSE: u32 = 0x040;

/// A 64 x 64 device with a depth buffer, culling off, target and depth cleared (depth 1).
fn device() -> Device {
    let mut dev = Device::new(DeviceParams {
        back_buffer: (64, 64, Format::X8R8G8B8),
        auto_depth_stencil: Some(Format::D24S8),
        ..DeviceParams::default()
    })
    .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    ok(dev.set_fvf(D3DFVF_XYZRHW | D3DFVF_DIFFUSE));
    ok(dev.clear(&[], ClearFlags::ALL, 0, 1.0, 0));
    dev
}

/// A pre-transformed quad covering pixels (x0, y0) to (x1, y1) at depth z.
fn quad(x0: f32, y0: f32, x1: f32, y1: f32, z: f32) -> Vec<u8> {
    [(x0, y0), (x1, y0), (x0, y1), (x1, y1)]
        .iter()
        .flat_map(|&(x, y)| {
            let mut v = floats(&[x, y, z, 1.0]);
            v.extend(0xffff_ffffu32.to_le_bytes());
            v
        })
        .collect()
}

fn draw(dev: &mut Device, q: &[u8]) {
    ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, q, 20));
}

/// What a query over draws of `samples` each reads: their sum where the backend counts
/// samples, else the number of draws with any sample.
fn expected(dev: &Device, samples: &[u64]) -> u64 {
    match dev.occlusion_counts_samples() {
        true => samples.iter().sum(),
        false => samples.iter().filter(|&&s| s > 0).count() as u64,
    }
}

/// The result, asked with `D3DGETDATA_FLUSH` until the GPU gives it (as Wine's
/// `wait_query` does), failing after a few seconds.
fn result(dev: &mut Device, id: QueryId) -> u64 {
    let start = std::time::Instant::now();
    loop {
        match ok(dev.query_data(id, true)) {
            QueryData::Ready(v) => return v,
            QueryData::Pending if start.elapsed().as_secs() < 10 => {
                std::thread::sleep(std::time::Duration::from_millis(1))
            }
            other => panic!("no result: {other:?}"),
        }
    }
}

/// Prints which counting this adapter does (shown with --nocapture or a failure).
fn describe(dev: &Device) {
    eprintln!(
        "{}; occlusion counts samples: {}; timestamps: {}",
        dev.gpu().describe(),
        dev.occlusion_counts_samples(),
        dev.query_supported(QueryKind::Timestamp)
    );
}

#[test]
fn gpu_a_fully_visible_quad_counts_its_pixels() {
    let mut dev = device();
    describe(&dev);
    let q = ok(dev.create_query(QueryKind::Occlusion));
    ok(dev.issue_begin(q));
    draw(&mut dev, &quad(0.0, 0.0, 64.0, 64.0, 0.5));
    ok(dev.issue_end(q));
    assert_eq!(result(&mut dev, q), expected(&dev, &[64 * 64]));
    if dev.gpu().adapter_info().backend == wgpu::Backend::Vulkan {
        assert_eq!(result(&mut dev, q), 4096);
    }
    // Asked again: the same answer.
    assert_eq!(
        ok(dev.query_data(q, false)),
        QueryData::Ready(expected(&dev, &[4096]))
    );
}

#[test]
fn gpu_a_quad_behind_the_depth_buffer_counts_nothing() {
    let mut dev = device();
    // Something near first (depth 0.25 everywhere), outside the query.
    draw(&mut dev, &quad(0.0, 0.0, 64.0, 64.0, 0.25));
    let q = ok(dev.create_query(QueryKind::Occlusion));
    ok(dev.issue_begin(q));
    draw(&mut dev, &quad(0.0, 0.0, 64.0, 64.0, 0.75));
    ok(dev.issue_end(q));
    assert_eq!(result(&mut dev, q), 0);
    // Half in front: only the front half counts.
    ok(dev.issue_begin(q));
    draw(&mut dev, &quad(0.0, 0.0, 32.0, 64.0, 0.1));
    draw(&mut dev, &quad(32.0, 0.0, 64.0, 64.0, 0.9));
    ok(dev.issue_end(q));
    assert_eq!(result(&mut dev, q), expected(&dev, &[32 * 64, 0]));
    // The stencil test counts as well: a stencil that never passes hides everything.
    ok(dev.set_render_state(RenderState::ZFunc(CompareFunction::Always)));
    ok(dev.set_render_state(RenderState::StencilEnable(true)));
    ok(dev.set_render_state(RenderState::StencilFunc(CompareFunction::Never)));
    ok(dev.issue_begin(q));
    draw(&mut dev, &quad(0.0, 0.0, 64.0, 64.0, 0.5));
    ok(dev.issue_end(q));
    assert_eq!(result(&mut dev, q), 0);
}

#[test]
fn gpu_a_query_over_several_draws_sums_them_and_clears_count_nothing() {
    let mut dev = device();
    let vb = ok(dev.create_vertex_buffer_with(&quad(0.0, 0.0, 16.0, 16.0, 0.5)));
    let q = ok(dev.create_query(QueryKind::Occlusion));
    ok(dev.issue_begin(q));
    draw(&mut dev, &quad(0.0, 0.0, 64.0, 64.0, 0.5)); // 4096
    ok(dev.clear(&[], ClearFlags::ALL, 0, 1.0, 0));
    draw(&mut dev, &quad(0.0, 0.0, 32.0, 64.0, 0.5)); // 2048
                                                      // The same buffer draw twice: the second is the device's memo of the first.
    ok(dev.set_stream_source(0, Some(vb), 0, 20));
    ok(dev.set_render_state(RenderState::ZEnable(false)));
    ok(dev.draw_primitive(PrimitiveType::TriangleStrip, 0, 2)); // 256
    let memo = dev.memo_hits();
    ok(dev.draw_primitive(PrimitiveType::TriangleStrip, 0, 2)); // 256
    assert_eq!(dev.memo_hits(), memo + 1, "the repeat was not a memo hit");
    ok(dev.issue_end(q));
    assert_eq!(result(&mut dev, q), expected(&dev, &[4096, 2048, 256, 256]));
    // A clear alone counts nothing.
    ok(dev.issue_begin(q));
    ok(dev.clear(&[], ClearFlags::ALL, 0, 1.0, 0));
    ok(dev.issue_end(q));
    assert_eq!(result(&mut dev, q), 0);
}

#[test]
fn gpu_more_draws_than_a_batch_of_slots_and_overlapping_queries() {
    let mut dev = device();
    let outer = ok(dev.create_query(QueryKind::Occlusion));
    let inner = ok(dev.create_query(QueryKind::Occlusion));
    ok(dev.set_render_state(RenderState::ZEnable(false)));
    ok(dev.issue_begin(outer));
    let mut all = Vec::new();
    let mut inside = Vec::new();
    for i in 0..600u32 {
        if i == 100 {
            ok(dev.issue_begin(inner));
        }
        // 1 x 1 to 3 x 3 pixels, a period that is not a divisor of a batch's 256 slots
        // (so a batch answering for another gives other counts).
        let side = 1 + i % 3;
        let (x, y) = ((i % 8) as f32 * 8.0, (i / 8 % 8) as f32 * 8.0);
        draw(&mut dev, &quad(x, y, x + side as f32, y + side as f32, 0.5));
        all.push(u64::from(side * side));
        if (100..400).contains(&i) {
            inside.push(u64::from(side * side));
        }
        if i == 399 {
            ok(dev.issue_end(inner));
        }
    }
    ok(dev.issue_end(outer));
    assert_eq!(result(&mut dev, inner), expected(&dev, &inside));
    assert_eq!(result(&mut dev, outer), expected(&dev, &all));
}

#[test]
fn gpu_results_come_without_waiting_and_with_flush() {
    let mut dev = device();
    let q = ok(dev.create_query(QueryKind::Occlusion));
    assert_eq!(ok(dev.query_data(q, false)), QueryData::NotIssued);
    assert_eq!(ok(dev.query_data(q, true)), QueryData::NotIssued);
    ok(dev.issue_begin(q));
    // Open: not yet, flush or not.
    assert_eq!(ok(dev.query_data(q, true)), QueryData::Pending);
    draw(&mut dev, &quad(0.0, 0.0, 64.0, 64.0, 0.5));
    ok(dev.issue_end(q));
    // Nothing was submitted: the answer is "not yet", at once.
    let start = std::time::Instant::now();
    for _ in 0..10 {
        assert_eq!(ok(dev.query_data(q, false)), QueryData::Pending);
    }
    assert!(start.elapsed().as_millis() < 1000, "GetData waited");
    // With flush: submitted, and the value once the GPU has it.
    assert_eq!(result(&mut dev, q), expected(&dev, &[4096]));
    // `wait_query` waits for it.
    ok(dev.issue_begin(q));
    draw(&mut dev, &quad(0.0, 0.0, 8.0, 8.0, 0.5));
    ok(dev.issue_end(q));
    assert_eq!(
        ok(dev.wait_query(q)),
        QueryData::Ready(expected(&dev, &[64]))
    );
}

#[test]
fn gpu_windows_rules_for_begin_and_end() {
    let mut dev = device();
    let q = ok(dev.create_query(QueryKind::Occlusion));
    // END without BEGIN: nothing counted (Wine's test_occlusion_query: 0 samples).
    ok(dev.issue_end(q));
    assert_eq!(result(&mut dev, q), 0);
    // BEGIN twice starts again: only the draws after the second count.
    ok(dev.issue_begin(q));
    draw(&mut dev, &quad(0.0, 0.0, 64.0, 64.0, 0.5));
    ok(dev.issue_begin(q));
    draw(&mut dev, &quad(0.0, 0.0, 16.0, 16.0, 0.4));
    ok(dev.issue_end(q));
    assert_eq!(result(&mut dev, q), expected(&dev, &[256]));
    // END twice: the second ends a span of nothing.
    ok(dev.issue_end(q));
    assert_eq!(result(&mut dev, q), 0);
    // A released query is no longer one of the device's; an open one stops counting.
    ok(dev.issue_begin(q));
    ok(dev.release_query(q));
    draw(&mut dev, &quad(0.0, 0.0, 64.0, 64.0, 0.5));
    assert!(matches!(
        dev.query_data(q, true),
        Err(DeviceError::InvalidCall { .. })
    ));
    assert!(dev.issue_begin(q).is_err());
}

#[test]
fn gpu_timestamp_queries_exist_exactly_where_the_adapter_has_them() {
    let mut dev = device();
    let has = dev
        .gpu()
        .device()
        .features()
        .contains(wgpu::Features::TIMESTAMP_QUERY);
    eprintln!("{}: TIMESTAMP_QUERY {has}", dev.gpu().describe());
    for kind in [
        QueryKind::Timestamp,
        QueryKind::TimestampDisjoint,
        QueryKind::TimestampFreq,
    ] {
        assert_eq!(dev.query_supported(kind), has, "{kind:?}");
        if !has {
            assert!(matches!(
                dev.create_query(kind),
                Err(DeviceError::Unsupported { .. })
            ));
        }
    }
    assert!(dev.query_supported(QueryKind::Occlusion));
    assert!(dev.query_supported(QueryKind::Event));
    if !has {
        return;
    }
    let freq = ok(dev.create_query(QueryKind::TimestampFreq));
    let disjoint = ok(dev.create_query(QueryKind::TimestampDisjoint));
    let (t0, t1) = (
        ok(dev.create_query(QueryKind::Timestamp)),
        ok(dev.create_query(QueryKind::Timestamp)),
    );
    assert_eq!(ok(dev.query_data(t0, true)), QueryData::NotIssued);
    // BEGIN on a timestamp is accepted and does nothing (Windows).
    ok(dev.issue_begin(t0));
    assert_eq!(ok(dev.query_data(t0, true)), QueryData::NotIssued);
    ok(dev.issue_begin(disjoint));
    assert_eq!(ok(dev.query_data(disjoint, true)), QueryData::Pending);
    ok(dev.issue_end(t0));
    for i in 0..20 {
        draw(
            &mut dev,
            &quad(0.0, 0.0, 64.0, 64.0, 0.5 - i as f32 / 100.0),
        );
    }
    ok(dev.issue_end(t1));
    ok(dev.issue_end(disjoint));
    ok(dev.issue_end(freq));
    let (a, b) = (result(&mut dev, t0), result(&mut dev, t1));
    eprintln!("timestamps {a} .. {b} ns ({} ns apart)", b.wrapping_sub(a));
    assert!(a > 0 && b >= a, "timestamps {a} then {b}");
    assert_eq!(result(&mut dev, freq), TIMESTAMP_FREQUENCY);
    assert_eq!(result(&mut dev, disjoint), 0);
}

/// A timestamp written while an occlusion query counts is read back on its own: the
/// occlusion query's count is its draws' samples, not the timestamp's ticks.
#[test]
fn gpu_a_timestamp_inside_an_occlusion_query_leaves_its_count_alone() {
    let mut dev = device();
    if !dev.query_supported(QueryKind::Timestamp) {
        return;
    }
    ok(dev.set_render_state(RenderState::ZEnable(false)));
    let occlusion = ok(dev.create_query(QueryKind::Occlusion));
    let stamp = ok(dev.create_query(QueryKind::Timestamp));
    ok(dev.issue_begin(occlusion));
    draw(&mut dev, &quad(0.0, 0.0, 8.0, 4.0, 0.5));
    ok(dev.issue_end(stamp));
    draw(&mut dev, &quad(0.0, 0.0, 2.0, 2.0, 0.5));
    ok(dev.issue_end(occlusion));
    assert_eq!(result(&mut dev, occlusion), expected(&dev, &[32, 4]));
    assert!(result(&mut dev, stamp) > 0);
}

#[test]
fn gpu_query_kinds_are_d3d9s_numbers_and_sizes() {
    for (number, kind, size) in [
        (8, QueryKind::Event, 4),
        (9, QueryKind::Occlusion, 4),
        (10, QueryKind::Timestamp, 8),
        (11, QueryKind::TimestampDisjoint, 4),
        (12, QueryKind::TimestampFreq, 8),
    ] {
        assert_eq!(QueryKind::from_d3d(number), Some(kind));
        assert_eq!(kind.to_d3d(), number);
        assert_eq!(kind.data_size(), size);
    }
    for number in [0, 4, 5, 6, 7, 13, 19, 22] {
        assert_eq!(QueryKind::from_d3d(number), None);
    }
}

/// A wgpu device opened without `TIMESTAMP_QUERY` (the adapter may have it): the timestamp
/// kinds are not offered and `create_query` says why; occlusion queries still count.
#[test]
fn gpu_without_timestamp_query_the_timestamp_kinds_are_unsupported() {
    let adapter = default_adapter();
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        required_limits: adapter.limits(),
        ..Default::default()
    }))
    .unwrap_or_else(|e| panic!("{e}"));
    let mut dev = ok(Device::from_wgpu(
        adapter,
        device,
        queue,
        DeviceParams {
            back_buffer: (64, 64, Format::X8R8G8B8),
            ..DeviceParams::default()
        },
    ));
    for kind in [
        QueryKind::Timestamp,
        QueryKind::TimestampDisjoint,
        QueryKind::TimestampFreq,
    ] {
        assert!(!dev.query_supported(kind), "{kind:?}");
        assert!(matches!(
            dev.create_query(kind),
            Err(DeviceError::Unsupported { .. })
        ));
    }
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    ok(dev.set_fvf(D3DFVF_XYZRHW | D3DFVF_DIFFUSE));
    let q = ok(dev.create_query(QueryKind::Occlusion));
    ok(dev.issue_begin(q));
    draw(&mut dev, &quad(0.0, 0.0, 64.0, 32.0, 0.5));
    ok(dev.issue_end(q));
    assert_eq!(result(&mut dev, q), expected(&dev, &[2048]));
}

/// An EVENT's END submits what was recorded; the event is reached (TRUE) once the GPU has
/// done that work, found by `GetData` with or without `D3DGETDATA_FLUSH` and by waiting, and
/// stays reached; issued again, it is reached again.
#[test]
fn gpu_an_event_is_reached_once_the_gpu_has_done_the_work_before_it() {
    let mut dev = device();
    let event = ok(dev.create_query(QueryKind::Event));
    assert_eq!(ok(dev.query_data(event, false)), QueryData::NotIssued);
    for i in 0..50 {
        draw(&mut dev, &quad(0.0, 0.0, 64.0, 64.0, i as f32 / 100.0));
    }
    ok(dev.issue_end(event));
    let start = std::time::Instant::now();
    loop {
        match ok(dev.query_data(event, false)) {
            QueryData::Ready(v) => {
                assert_eq!(v, 1);
                break;
            }
            QueryData::Pending if start.elapsed().as_secs() < 10 => {
                std::thread::sleep(std::time::Duration::from_millis(1))
            }
            other => panic!("the event was not reached: {other:?}"),
        }
    }
    assert_eq!(ok(dev.query_data(event, true)), QueryData::Ready(1));
    draw(&mut dev, &quad(0.0, 0.0, 64.0, 64.0, 0.9));
    ok(dev.issue_end(event));
    assert_eq!(ok(dev.wait_query(event)), QueryData::Ready(1));
    assert_eq!(result(&mut dev, event), 1);
}

/// Releasing one of two open occlusion queries leaves the other counting; a released query
/// has no kind and takes no more calls.
#[test]
fn gpu_releasing_a_query_leaves_the_others_counting() {
    let mut dev = device();
    let kept = ok(dev.create_query(QueryKind::Occlusion));
    let released = ok(dev.create_query(QueryKind::Occlusion));
    assert_eq!(dev.query_kind(kept), Some(QueryKind::Occlusion));
    ok(dev.issue_begin(kept));
    ok(dev.issue_begin(released));
    draw(&mut dev, &quad(0.0, 0.0, 8.0, 8.0, 0.5));
    ok(dev.release_query(released));
    assert_eq!(dev.query_kind(released), None);
    assert!(dev.issue_end(released).is_err_and(|e| e.is_invalid_call()));
    draw(&mut dev, &quad(0.0, 0.0, 4.0, 4.0, 0.5));
    ok(dev.issue_end(kept));
    assert_eq!(result(&mut dev, kept), expected(&dev, &[64, 16]));
}

/// A query over draws in several passes (the render target changes between them) sums
/// every pass's samples.
#[test]
fn gpu_a_query_sums_the_passes_it_spans() {
    let mut dev = device();
    let back = dev.back_buffer();
    let other = ok(dev.create_render_target(64, 64, Format::X8R8G8B8));
    let q = ok(dev.create_query(QueryKind::Occlusion));
    ok(dev.issue_begin(q));
    let mut samples = Vec::new();
    for (i, side) in [8u32, 4, 2, 6].into_iter().enumerate() {
        let target = if i % 2 == 0 { back } else { other };
        ok(dev.set_render_target(0, Some(target)));
        draw(&mut dev, &quad(0.0, 0.0, side as f32, side as f32, 0.5));
        samples.push(u64::from(side * side));
    }
    ok(dev.issue_end(q));
    assert_eq!(result(&mut dev, q), expected(&dev, &samples));
}
