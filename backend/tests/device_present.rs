//! The implicit swap chain, headless: `Present` with one back buffer copies it to the front
//! buffer; with several it flips as Windows does (Wine's test_flip). GPU tests fail without
//! an adapter.

#![allow(clippy::panic)] // a failing test says why

#[allow(dead_code)]
mod device_common;
use d3d9_backend::device::{Device, Format, SurfaceId};
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
