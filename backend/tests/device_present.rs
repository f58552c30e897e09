//! The implicit swap chain, headless: `Present` with one back buffer copies it to the front
//! buffer; with several it flips as Windows does (Wine's test_flip). GPU tests fail without
//! an adapter.

#![allow(clippy::panic)] // a failing test says why

#[allow(dead_code)]
mod device_common;
use d3d9_backend::device::{Device, Format, Rect, SurfaceId};
use d3d9_backend::DeviceParams;
use device_common::ok;

fn colour(dev: &mut Device, id: SurfaceId) -> u32 {
    ok(dev.get_render_target_data(id))
        .color(1, 1)
        .unwrap_or_else(|| panic!("no texel"))
}

#[test]
fn gpu_present_flips_between_three_back_buffers() {
    let mut dev = Device::new(DeviceParams {
        back_buffer: (64, 64, Format::A8R8G8B8),
        back_buffer_count: 3,
        lockable_back_buffer: true,
        ..DeviceParams::default()
    })
    .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let bb = dev.back_buffers().to_vec();
    assert_eq!(bb.len(), 3);
    assert_eq!(dev.back_buffer(), bb[0]);
    for (&id, c) in bb.iter().zip([0xffff_0000, 0xff00_ff00, 0xff00_00ff]) {
        ok(dev.color_fill(id, None, c));
    }
    ok(dev.present());
    // Back buffer n shows what n + 1 held, the last what the front held (nothing yet); the
    // front buffer what back buffer 0 held.
    assert_eq!(colour(&mut dev, bb[0]), 0xff00_ff00);
    assert_eq!(colour(&mut dev, bb[1]), 0xff00_00ff);
    assert_eq!(colour(&mut dev, bb[2]), 0);
    assert_eq!(ok(dev.front_buffer_data()).color(1, 1), Some(0xffff_0000));
    ok(dev.present());
    assert_eq!(colour(&mut dev, bb[0]), 0xff00_00ff);
    assert_eq!(colour(&mut dev, bb[2]), 0xffff_0000);
    // The surfaces stay the same objects, and render target 0 too.
    assert_eq!(dev.back_buffers(), &bb[..]);
}

#[test]
fn gpu_present_with_one_back_buffer_keeps_it() {
    let mut dev = Device::new(DeviceParams {
        back_buffer: (64, 64, Format::X8R8G8B8),
        ..DeviceParams::default()
    })
    .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let bb = dev.back_buffer();
    ok(dev.color_fill(bb, None, 0xff12_3456));
    ok(dev.present());
    assert_eq!(colour(&mut dev, bb) & 0xff_ffff, 0x12_3456);
    assert_eq!(
        ok(dev.front_buffer_data())
            .color(1, 1)
            .map(|c| c & 0xff_ffff),
        Some(0x12_3456)
    );
    assert!(Device::new(DeviceParams {
        back_buffer_count: 4,
        ..DeviceParams::default()
    })
    .is_err());
}

fn rect(left: i32, top: i32, right: i32, bottom: i32) -> Rect {
    Rect {
        left,
        top,
        right,
        bottom,
    }
}

#[test]
fn gpu_present_with_rects_stretches_into_the_front_buffer() {
    let mut dev = Device::new(DeviceParams {
        back_buffer: (64, 64, Format::X8R8G8B8),
        ..DeviceParams::default()
    })
    .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let bb = dev.back_buffer();
    ok(dev.color_fill(bb, None, 0xff00_00ff));
    ok(dev.present());
    // Source (0, 0)-(16, 8): red left half, green right half; stretched 2x over (32, 32)-(64, 48).
    ok(dev.color_fill(bb, Some(rect(0, 0, 8, 8)), 0xffff_0000));
    ok(dev.color_fill(bb, Some(rect(8, 0, 16, 8)), 0xff00_ff00));
    ok(dev.present_rects(None, Some(rect(0, 0, 16, 8)), Some(rect(32, 32, 64, 48))));
    let front = ok(dev.front_buffer_data());
    let at = |x, y| front.color(x, y).map(|c| c & 0xff_ffff);
    // Outside the destination: what the first Present showed.
    assert_eq!(at(0, 0), Some(0x00_00ff));
    assert_eq!(at(31, 40), Some(0x00_00ff));
    assert_eq!(at(40, 31), Some(0x00_00ff));
    assert_eq!(at(32, 32), Some(0xff_0000));
    assert_eq!(at(47, 47), Some(0xff_0000));
    assert_eq!(at(48, 32), Some(0x00_ff00));
    assert_eq!(at(63, 47), Some(0x00_ff00));
    assert_eq!(at(40, 48), Some(0x00_00ff));
    // Rectangles past the surfaces are clipped to them: (48, 0)-(80, 8) is (48, 0)-(64, 8).
    ok(dev.present_rects(None, Some(rect(-8, 0, 8, 8)), Some(rect(48, 0, 80, 8))));
    let front = ok(dev.front_buffer_data());
    assert_eq!(front.color(47, 0).map(|c| c & 0xff_ffff), Some(0x00_00ff));
    assert_eq!(front.color(48, 0).map(|c| c & 0xff_ffff), Some(0xff_0000));
    assert_eq!(front.color(63, 7).map(|c| c & 0xff_ffff), Some(0xff_0000));
    // An empty rectangle presents nothing, and succeeds.
    ok(dev.present_rects(None, Some(rect(8, 8, 8, 16)), None));
    assert_eq!(
        ok(dev.front_buffer_data())
            .color(48, 0)
            .map(|c| c & 0xff_ffff),
        Some(0xff_0000)
    );
}

#[test]
fn gpu_present_with_rects_rotates_several_back_buffers() {
    let mut dev = Device::new(DeviceParams {
        back_buffer: (32, 32, Format::A8R8G8B8),
        back_buffer_count: 2,
        ..DeviceParams::default()
    })
    .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let bb = dev.back_buffers().to_vec();
    ok(dev.color_fill(bb[0], None, 0xffff_0000));
    ok(dev.color_fill(bb[1], None, 0xff00_ff00));
    ok(dev.present_rects(None, None, Some(rect(0, 0, 16, 32))));
    let front = ok(dev.front_buffer_data());
    assert_eq!(front.color(0, 0), Some(0xffff_0000));
    assert_eq!(front.color(16, 0), Some(0));
    assert_eq!(colour(&mut dev, bb[0]), 0xff00_ff00);
    assert_eq!(colour(&mut dev, bb[1]), 0xffff_0000);
}
