//! Rasterizer rules D3D9 has and WebGPU does not: depth bias as a fraction of the depth range
//! on every depth format (applied after clipping), destination alpha of targets without
//! alpha, and 16-bit index strips without primitive restart. GPU tests fail without an
//! adapter.

#![allow(clippy::panic)] // a failing test says why

#[allow(dead_code)]
mod device_common;
use d3d9_backend::device::CullMode;
use d3d9_backend::device::{ClearFlags, Device, Format, PrimitiveType, RenderState};
use d3d9_backend::DeviceParams;
use device_common::{floats, ok};

const TARGET_AND_DEPTH: ClearFlags = ClearFlags {
    target: true,
    zbuffer: true,
    stencil: false,
};
const D3DFVF_XYZ: u32 = 0x002;
const D3DFVF_DIFFUSE: u32 = 0x040;

fn device(format: Format, depth: Option<Format>) -> Device {
    let mut dev = Device::new(DeviceParams {
        back_buffer: (64, 64, format),
        auto_depth_stencil: depth,
        ..DeviceParams::default()
    })
    .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    ok(dev.set_render_state(RenderState::Lighting(false)));
    dev
}

/// A quad over the whole target at depth `z`, of colour `colour`.
fn quad(z: f32, colour: u32) -> Vec<u8> {
    let c = f32::from_bits(colour);
    floats(&[
        -1.0, -1.0, z, c, //
        -1.0, 1.0, z, c, //
        1.0, -1.0, z, c, //
        1.0, 1.0, z, c,
    ])
}

fn draw(dev: &mut Device, z: f32, colour: u32) {
    ok(dev.set_fvf(D3DFVF_XYZ | D3DFVF_DIFFUSE));
    ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &quad(z, colour), 16));
}

#[test]
fn gpu_depth_bias_is_a_fraction_of_the_depth_range_on_every_format() {
    for depth in [Format::D16, Format::D24S8, Format::D24X8] {
        let mut dev = device(Format::X8R8G8B8, Some(depth));
        ok(dev.set_render_state(RenderState::ZWriteEnable(false)));
        for (bias, drawn) in [(0.2f32, false), (-0.2, true), (0.05, true)] {
            ok(dev.clear(&[], TARGET_AND_DEPTH, 0, 0.6, 0));
            ok(dev.set_render_state_raw(195, bias.to_bits()));
            draw(&mut dev, 0.5, 0xff00_ff00);
            let got = ok(dev.pixel(32, 32)) & 0xff_ffff;
            assert_eq!(got, if drawn { 0xff00 } else { 0 }, "{depth:?} bias {bias}");
        }
        // Biased past the far plane: clamped, not clipped (D3D9 biases after clipping).
        ok(dev.clear(&[], TARGET_AND_DEPTH, 0, 1.0, 0));
        ok(dev.set_render_state_raw(195, 0.2f32.to_bits()));
        draw(&mut dev, 0.9, 0xff00_00ff);
        assert_eq!(ok(dev.pixel(32, 32)) & 0xff_ffff, 0xff, "{depth:?} far");
    }
}

#[test]
fn gpu_destination_alpha_of_a_target_without_alpha_is_one() {
    let mut dev = device(Format::X8R8G8B8, None);
    // The stored alpha is 0; D3D9 reads 1: DESTALPHA keeps the source, INVDESTALPHA drops
    // the destination.
    ok(dev.clear(&[], ClearFlags::TARGET, 0x00ff_0000, 1.0, 0));
    ok(dev.set_render_state_raw(27, 1)); // ALPHABLENDENABLE
    ok(dev.set_render_state_raw(19, 7)); // SRCBLEND = DESTALPHA
    ok(dev.set_render_state_raw(20, 8)); // DESTBLEND = INVDESTALPHA
    draw(&mut dev, 0.5, 0x0000_ff00);
    assert_eq!(ok(dev.pixel(32, 32)) & 0xff_ffff, 0x00ff00);
    // A target with alpha reads what it holds.
    let mut dev = device(Format::A8R8G8B8, None);
    ok(dev.clear(&[], ClearFlags::TARGET, 0x00ff_0000, 1.0, 0));
    ok(dev.set_render_state_raw(27, 1));
    ok(dev.set_render_state_raw(19, 7));
    ok(dev.set_render_state_raw(20, 8));
    draw(&mut dev, 0.5, 0x0000_ff00);
    assert_eq!(ok(dev.pixel(32, 32)) & 0xff_ffff, 0xff0000);
}

#[test]
fn gpu_index_0xffff_of_a_16_bit_strip_is_a_vertex() {
    let mut dev = device(Format::X8R8G8B8, None);
    // Vertex 0xffff is the strip's last corner: WebGPU would restart the strip there.
    let mut vertices = vec![0u8; 0x1_0000 * 16];
    let corners = quad(0.5, 0xff00_ff00);
    for (slot, corner) in [0usize, 1, 2, 0xffff].into_iter().zip(corners.chunks(16)) {
        vertices[slot * 16..slot * 16 + 16].copy_from_slice(corner);
    }
    let vb = ok(dev.create_vertex_buffer_with(&vertices));
    let ib = ok(dev.create_index_buffer_u16(&[0, 1, 2, 0xffff]));
    ok(dev.set_fvf(D3DFVF_XYZ | D3DFVF_DIFFUSE));
    ok(dev.set_stream_source(0, Some(vb), 0, 16));
    ok(dev.set_indices(Some(ib)));
    ok(dev.clear(&[], ClearFlags::TARGET, 0, 1.0, 0));
    ok(dev.draw_indexed_primitive(PrimitiveType::TriangleStrip, 0, 0, 0x1_0000, 0, 2));
    // The second triangle covers the top-right corner.
    assert_eq!(ok(dev.pixel(60, 4)) & 0xff_ffff, 0x00ff00);
    assert_eq!(ok(dev.pixel(4, 60)) & 0xff_ffff, 0x00ff00);
}
