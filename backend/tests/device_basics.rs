//! The D3D9-style device end to end: objects, state, draws and read-back on the default
//! adapter (lavapipe in CI). GPU tests fail without an adapter.

#![allow(clippy::panic)] // a failing test says why

#[allow(dead_code)]
mod device_common;
use d3d9_backend::device::CullMode;
use d3d9_backend::device::{
    ClearFlags, CompareFunction, Device, Format, PrimitiveType, RenderState, Viewport,
};
use device_common::{default_adapter, device, floats, ok, set_bump_textures, tokens};

/// Pixel (x, y) of render target 0 as 0xAARRGGBB.
fn px(dev: &mut Device, x: u32, y: u32) -> u32 {
    dev.pixel(x, y).unwrap_or_else(|e| panic!("{e}"))
}

const D3DFVF_XYZ: u32 = 0x002;
const D3DFVF_XYZRHW: u32 = 0x004;
const D3DFVF_DIFFUSE: u32 = 0x040;

/// `D3DPRIMITIVETYPE`'s vertex counts: n points, 2n line-list vertices, n + 1 line-strip
/// vertices, 3n triangle-list vertices, n + 2 strip and fan vertices.
#[test]
fn primitive_counts_take_d3d9s_vertex_counts() {
    use PrimitiveType::*;
    for (kind, expected) in [
        (PointList, 5),
        (LineList, 10),
        (LineStrip, 6),
        (TriangleList, 15),
        (TriangleStrip, 7),
        (TriangleFan, 7),
    ] {
        assert_eq!(kind.vertex_count(5), expected, "{kind:?}");
    }
}

/// The README's tour: a triangle from an FVF and a vs_2_0 shader, read back.
#[test]
fn gpu_triangle_from_an_fvf_and_a_vs_2_0_shader() {
    let mut dev = device();
    let vs = dev
        .create_vertex_shader(&tokens(
            "vs_2_0\ndcl_position v0\nmov oPos, v0\nmov oD0, c0\n",
        ))
        .unwrap_or_else(|e| panic!("{e}"));
    dev.set_fvf(D3DFVF_XYZ).unwrap_or_else(|e| panic!("{e}"));
    dev.set_vertex_shader(Some(vs))
        .unwrap_or_else(|e| panic!("{e}"));
    dev.set_vertex_shader_constant_f(0, &[[1.0, 0.5, 0.0, 1.0]])
        .unwrap_or_else(|e| panic!("{e}"));
    dev.set_render_state(RenderState::CullMode(CullMode::None))
        .unwrap_or_else(|e| panic!("{e}"));
    dev.clear(&[], ClearFlags::TARGET, 0xff00_00ff, 1.0, 0)
        .unwrap_or_else(|e| panic!("{e}"));
    let triangle = floats(&[-1.0, -1.0, 0.5, -1.0, 1.0, 0.5, 1.0, -1.0, 0.5]);
    dev.draw_primitive_up(PrimitiveType::TriangleList, 1, &triangle, 12)
        .unwrap_or_else(|e| panic!("{e}"));
    // Inside the triangle (lower left half) the constant colour; outside the clear colour.
    assert_eq!(px(&mut dev, 10, 470) & 0xffffff, 0xff_80_00);
    assert_eq!(px(&mut dev, 630, 10) & 0xffffff, 0x00_00_ff);
}

/// Pre-transformed vertices: pixel (10, 20) to (99, 199) covered, with the diffuse colour.
#[test]
fn gpu_pretransformed_quad_covers_d3d9s_pixels() {
    let mut dev = device();
    dev.set_fvf(D3DFVF_XYZRHW | D3DFVF_DIFFUSE)
        .unwrap_or_else(|e| panic!("{e}"));
    let vertex = |x: f32, y: f32| {
        let mut v = floats(&[x, y, 0.5, 1.0]);
        v.extend(0xff20_40c0u32.to_le_bytes());
        v
    };
    let quad: Vec<u8> = [(10.0, 20.0), (100.0, 20.0), (10.0, 200.0), (100.0, 200.0)]
        .iter()
        .flat_map(|&(x, y)| vertex(x, y))
        .collect();
    dev.set_render_state(RenderState::CullMode(CullMode::None))
        .unwrap_or_else(|e| panic!("{e}"));
    dev.clear(&[], ClearFlags::TARGET, 0, 1.0, 0)
        .unwrap_or_else(|e| panic!("{e}"));
    dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &quad, 20)
        .unwrap_or_else(|e| panic!("{e}"));
    for (x, y, c) in [
        (10, 20, 0x0020_40c0),
        (99, 199, 0x0020_40c0),
        (9, 20, 0),
        (10, 19, 0),
        (100, 100, 0),
        (50, 200, 0),
    ] {
        assert_eq!(px(&mut dev, x, y) & 0xffffff, c, "({x}, {y})");
    }
}

/// A viewport smaller than the target: a clear covers only the viewport.
#[test]
fn gpu_clear_honours_the_viewport() {
    let mut dev = device();
    dev.clear(&[], ClearFlags::TARGET, 0xff10_2030, 1.0, 0)
        .unwrap_or_else(|e| panic!("{e}"));
    dev.set_viewport(Viewport {
        x: 100,
        y: 50,
        width: 20,
        height: 10,
        min_z: 0.0,
        max_z: 1.0,
    })
    .unwrap_or_else(|e| panic!("{e}"));
    dev.clear(&[], ClearFlags::TARGET, 0xffff_ffff, 1.0, 0)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(px(&mut dev, 100, 50), 0xffff_ffff);
    assert_eq!(px(&mut dev, 119, 59), 0xffff_ffff);
    assert_eq!(px(&mut dev, 120, 59), 0xff10_2030);
    assert_eq!(px(&mut dev, 99, 50), 0xff10_2030);
}

/// Float render targets read back as D3D9 lays them out, bit-exact: cleared, then drawn by a
/// pixel shader writing a constant. On adapters that cannot render float32 (GL/GLES) the
/// device holds A32B32G32R32F as the floats' bits; the result is the same.
#[test]
fn gpu_float_render_targets_read_back_exactly() {
    let mut dev = device();
    let vs = dev
        .create_vertex_shader(&tokens(
            "vs_3_0\ndcl_position v0\ndcl_position o0\nmov o0, v0\n",
        ))
        .unwrap_or_else(|e| panic!("{e}"));
    let ps = dev
        .create_pixel_shader(&tokens("ps_3_0\nmov oC0, c0\n"))
        .unwrap_or_else(|e| panic!("{e}"));
    let value = [0.1f32, -2.5, 1.0e30, 3.0e-39];
    for format in [Format::A32B32G32R32F, Format::A16B16G16R16F] {
        let rt = dev
            .create_render_target(4, 4, format)
            .unwrap_or_else(|e| panic!("{e}"));
        dev.set_render_target(0, Some(rt))
            .unwrap_or_else(|e| panic!("{e}"));
        dev.clear(&[], ClearFlags::TARGET, 0x80ff_0000, 1.0, 0)
            .unwrap_or_else(|e| panic!("{e}"));
        let data = dev
            .get_render_target_data(rt)
            .unwrap_or_else(|e| panic!("{e}"));
        let [r, g, b, a] = data.rgba_f32(3, 3).unwrap_or_else(|| panic!("no texel"));
        assert_eq!((r, g, b), (1.0, 0.0, 0.0), "{format:?}");
        let tolerance = if format == Format::A16B16G16R16F {
            1e-3
        } else {
            1e-6
        };
        assert!((a - 128.0 / 255.0).abs() < tolerance, "{format:?}: {a}");
        if format != Format::A32B32G32R32F {
            continue;
        }
        dev.set_vertex_shader(Some(vs))
            .unwrap_or_else(|e| panic!("{e}"));
        dev.set_pixel_shader(Some(ps))
            .unwrap_or_else(|e| panic!("{e}"));
        dev.set_pixel_shader_constant_f(0, &[value])
            .unwrap_or_else(|e| panic!("{e}"));
        dev.set_fvf(D3DFVF_XYZ).unwrap_or_else(|e| panic!("{e}"));
        let tri = floats(&[-1.0, -1.0, 0.5, -1.0, 3.0, 0.5, 3.0, -1.0, 0.5]);
        dev.set_render_state(RenderState::CullMode(CullMode::None))
            .unwrap_or_else(|e| panic!("{e}"));
        dev.draw_primitive_up(PrimitiveType::TriangleList, 1, &tri, 12)
            .unwrap_or_else(|e| panic!("{e}"));
        let data = dev
            .get_render_target_data(rt)
            .unwrap_or_else(|e| panic!("{e}"));
        let got = data.rgba_f32(1, 2).unwrap_or_else(|| panic!("no texel"));
        let bits = |v: [f32; 4]| v.map(f32::to_bits);
        // The denormal may be flushed by the GPU (D3D9 flushes too); the rest is exact.
        assert_eq!(bits(got)[..3], bits(value)[..3]);
        assert!(got[3] == value[3] || got[3] == 0.0, "{}", got[3]);
        dev.set_vertex_shader(None)
            .unwrap_or_else(|e| panic!("{e}"));
        dev.set_pixel_shader(None).unwrap_or_else(|e| panic!("{e}"));
    }
}

/// A 2D texture on a `dcl_volume` sampler reads as a volume of one slice (what Windows
/// drivers and Wine's test_mismatched_sample_types give); the slice follows `LockRect`
/// updates of the texture. A volume on a `dcl_2d` sampler is still refused.
#[test]
fn gpu_2d_texture_on_a_volume_sampler_is_one_slice() {
    let mut dev = device();
    let ps_volume = dev
        .create_pixel_shader(&tokens(
            "ps_2_0\ndcl t0.xyz\ndcl_volume s0\ntexld r0, t0, s0\nmov oC0, r0\n",
        ))
        .unwrap_or_else(|e| panic!("{e}"));
    let texture = dev
        .create_texture(2, 2, 1, Format::A8R8G8B8)
        .unwrap_or_else(|e| panic!("{e}"));
    let fill = |v: u32| -> Vec<u8> { std::iter::repeat_n(v.to_le_bytes(), 4).flatten().collect() };
    dev.update_texture(texture, 0, &fill(0x7070_7070))
        .unwrap_or_else(|e| panic!("{e}"));
    // D3DFVF_XYZ | D3DFVF_TEX1 | D3DFVF_TEXCOORDSIZE3(0)
    dev.set_fvf(D3DFVF_XYZ | 0x100 | (1 << 16))
        .unwrap_or_else(|e| panic!("{e}"));
    dev.set_pixel_shader(Some(ps_volume))
        .unwrap_or_else(|e| panic!("{e}"));
    dev.set_texture(0, Some(texture))
        .unwrap_or_else(|e| panic!("{e}"));
    dev.set_render_state(RenderState::CullMode(CullMode::None))
        .unwrap_or_else(|e| panic!("{e}"));
    let quad = floats(&[
        -1.0, -1.0, 0.5, 0.0, 1.0, 0.5, //
        -1.0, 1.0, 0.5, 0.0, 0.0, 0.5, //
        1.0, -1.0, 0.5, 1.0, 1.0, 0.5, //
        1.0, 1.0, 0.5, 1.0, 0.0, 0.5,
    ]);
    dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &quad, 24)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(px(&mut dev, 320, 240) & 0xffffff, 0x70_70_70);
    dev.update_texture(texture, 0, &fill(0x3030_3030))
        .unwrap_or_else(|e| panic!("{e}"));
    dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &quad, 24)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(px(&mut dev, 320, 240) & 0xffffff, 0x30_30_30);
    // From a vertex buffer (a draw the device may repeat from its memo): the slice is
    // copied again at every draw, so it follows the update.
    let vb = dev
        .create_vertex_buffer_with(&quad)
        .unwrap_or_else(|e| panic!("{e}"));
    dev.set_stream_source(0, Some(vb), 0, 24)
        .unwrap_or_else(|e| panic!("{e}"));
    for v in [0x5050_5050u32, 0x2020_2020] {
        dev.update_texture(texture, 0, &fill(v))
            .unwrap_or_else(|e| panic!("{e}"));
        dev.draw_primitive(PrimitiveType::TriangleStrip, 0, 2)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(px(&mut dev, 320, 240) & 0xffffff, v & 0xffffff);
    }
    // A volume on a dcl_2d sampler reads the volume at depth 0.5, as Windows (both slices
    // 0x50 here; `device_textures.rs` checks the depth).
    let ps_2d = dev
        .create_pixel_shader(&tokens(
            "ps_2_0\ndcl t0.xy\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n",
        ))
        .unwrap_or_else(|e| panic!("{e}"));
    let volume = dev
        .create_volume_texture(2, 2, 2, 1, Format::A8R8G8B8)
        .unwrap_or_else(|e| panic!("{e}"));
    let slices: Vec<u8> = std::iter::repeat_n(0xff50_5050u32.to_le_bytes(), 8)
        .flatten()
        .collect();
    dev.update_texture(volume, 0, &slices)
        .unwrap_or_else(|e| panic!("{e}"));
    dev.set_pixel_shader(Some(ps_2d))
        .unwrap_or_else(|e| panic!("{e}"));
    dev.set_texture(0, Some(volume))
        .unwrap_or_else(|e| panic!("{e}"));
    dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &quad, 24)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(px(&mut dev, 320, 240) & 0xffffff, 0x50_50_50);
}

/// A sampler with no texture set reads (0, 0, 0, 1) whatever type it is declared (Windows
/// drivers and Wine; `device_reset.rs` checks `dcl_2d`). A 2D texture on a `dcl_cube`
/// sampler is refused: only `dcl_volume` reads a 2D texture (as one slice).
#[test]
fn gpu_unbound_cube_and_volume_samplers_read_black_and_opaque() {
    let mut dev = device();
    // D3DFVF_XYZ | D3DFVF_TEX1 | D3DFVF_TEXCOORDSIZE3(0)
    ok(dev.set_fvf(D3DFVF_XYZ | 0x100 | (1 << 16)));
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    let quad = floats(&[
        -1.0, -1.0, 0.5, 0.3, 0.2, 0.5, //
        -1.0, 1.0, 0.5, 0.3, 0.2, 0.5, //
        1.0, -1.0, 0.5, 0.3, 0.2, 0.5, //
        1.0, 1.0, 0.5, 0.3, 0.2, 0.5,
    ]);
    for declared in ["dcl_cube", "dcl_volume"] {
        // oC0 = texel.wzyx: (1, 0, 0, 0) is red.
        let ps = ok(dev.create_pixel_shader(&tokens(&format!(
            "ps_2_0\ndcl t0.xyz\n{declared} s0\ntexld r0, t0, s0\nmov oC0, r0.wzyx\n"
        ))));
        ok(dev.set_pixel_shader(Some(ps)));
        ok(dev.clear(&[], ClearFlags::TARGET, 0xff20_4060, 1.0, 0));
        ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &quad, 24));
        assert_eq!(px(&mut dev, 320, 240) & 0xff_ffff, 0xff_0000, "{declared}");
    }
    let ps_cube = ok(dev.create_pixel_shader(&tokens(
        "ps_2_0\ndcl t0.xyz\ndcl_cube s0\ntexld r0, t0, s0\nmov oC0, r0\n",
    )));
    ok(dev.set_pixel_shader(Some(ps_cube)));
    let texture = ok(dev.create_texture(2, 2, 1, Format::A8R8G8B8));
    ok(dev.set_texture(0, Some(texture)));
    let refused = dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &quad, 24);
    assert!(
        matches!(
            refused,
            Err(d3d9_backend::device::DeviceError::Unsupported { .. })
        ),
        "{refused:?}"
    );
}

/// `SetStreamSourceFreq` as Wine's stream_test checks it: a plain 0, INSTANCEDATA on stream 0
/// and both flags at once are `D3DERR_INVALIDCALL`; a count of 0 with either flag is accepted.
#[test]
fn gpu_stream_source_freq_validity_is_d3d9s() {
    const INDEXED: u32 = 0x4000_0000;
    const INSTANCE: u32 = 0x8000_0000;
    let mut dev = device();
    for (stream, value, ok) in [
        (1, 1, true),
        (0, INSTANCE | 1, false),
        (1, 0, false),
        (1, 2, true),
        (1, INDEXED, true),
        (1, INSTANCE, true),
        (1, INSTANCE | INDEXED, false),
        (0, INDEXED | 4, true),
    ] {
        let r = dev.set_stream_source_freq(stream, value);
        assert_eq!(r.is_ok(), ok, "stream {stream}, {value:#x}: {r:?}");
        if let Err(e) = r {
            assert!(e.is_invalid_call(), "{e}");
        }
    }
}

/// The alpha test compares with `D3DRS_ALPHAREF`'s low 8 bits: 0xff70 acts as 0x70 (Wine's
/// alphatest_test), so an alpha of 0x80 passes GREATER; the state reads back as set.
#[test]
fn gpu_alpha_reference_is_masked_to_8_bits() {
    let mut dev = device();
    dev.set_fvf(D3DFVF_XYZ | D3DFVF_DIFFUSE)
        .unwrap_or_else(|e| panic!("{e}"));
    for state in [
        RenderState::Lighting(false),
        RenderState::AlphaTestEnable(true),
        RenderState::AlphaFunc(CompareFunction::Greater),
        RenderState::AlphaRef(0xff70),
    ] {
        dev.set_render_state(state)
            .unwrap_or_else(|e| panic!("{e}"));
    }
    assert_eq!(dev.render_states().alpha_ref, 0xff70);
    let vertex = |x: f32, y: f32| {
        let mut v = floats(&[x, y, 0.1]);
        v.extend(0x8000_ff00u32.to_le_bytes());
        v
    };
    let quad: Vec<u8> = [(-1.0, -1.0), (-1.0, 1.0), (1.0, -1.0), (1.0, 1.0)]
        .iter()
        .flat_map(|&(x, y)| vertex(x, y))
        .collect();
    for pixel_shader in [false, true] {
        if pixel_shader {
            let ps = dev
                .create_pixel_shader(&tokens("ps_1_1\nmov r0, v0\n"))
                .unwrap_or_else(|e| panic!("{e}"));
            dev.set_pixel_shader(Some(ps))
                .unwrap_or_else(|e| panic!("{e}"));
        }
        dev.clear(&[], ClearFlags::TARGET, 0x00ff_0000, 0.0, 0)
            .unwrap_or_else(|e| panic!("{e}"));
        dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &quad, 16)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            px(&mut dev, 320, 240) & 0xffffff,
            0x00_ff_00,
            "pixel shader: {pixel_shader}"
        );
    }
}

/// The alpha test on a float render target compares the alpha as the target stores it,
/// unclamped and unquantised (`alpha FUNC ref / 255`): an alpha of 1.5 passes GREATER and
/// NOTEQUAL 255 and fails EQUAL 255, as vkd3d's alpha-test probes (checked on Windows)
/// expect; on an A8R8G8B8 target the same alpha is 255 and passes EQUAL.
#[test]
fn gpu_alpha_test_on_float_targets_compares_the_unclamped_alpha() {
    let mut dev = device();
    let vs = ok(dev.create_vertex_shader(&tokens(
        "vs_3_0\ndcl_position v0\ndcl_position o0\nmov o0, v0\n",
    )));
    let ps =
        ok(dev.create_pixel_shader(&tokens("ps_2_0\ndef c0, 0.0, 1.0, 0.0, 1.5\nmov oC0, c0\n")));
    ok(dev.set_vertex_shader(Some(vs)));
    ok(dev.set_pixel_shader(Some(ps)));
    ok(dev.set_fvf(D3DFVF_XYZ));
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    ok(dev.set_render_state(RenderState::AlphaTestEnable(true)));
    ok(dev.set_render_state(RenderState::AlphaRef(255)));
    let tri = floats(&[-1.0, -1.0, 0.5, -1.0, 3.0, 0.5, 3.0, -1.0, 0.5]);
    for (format, func, drawn) in [
        (Format::A32B32G32R32F, CompareFunction::Greater, true),
        (Format::A32B32G32R32F, CompareFunction::NotEqual, true),
        (Format::A32B32G32R32F, CompareFunction::Equal, false),
        (Format::A32B32G32R32F, CompareFunction::LessEqual, false),
        (Format::A16B16G16R16F, CompareFunction::Greater, true),
        (Format::A8R8G8B8, CompareFunction::Equal, true),
        (Format::A8R8G8B8, CompareFunction::Greater, false),
    ] {
        let rt = ok(dev.create_render_target(4, 4, format));
        ok(dev.set_render_target(0, Some(rt)));
        ok(dev.set_render_state(RenderState::AlphaFunc(func)));
        ok(dev.clear(&[], ClearFlags::TARGET, 0xffff_0000, 1.0, 0));
        ok(dev.draw_primitive_up(PrimitiveType::TriangleList, 1, &tri, 12));
        let data = ok(dev.get_render_target_data(rt));
        let got = data.rgba_f32(1, 2).unwrap_or_else(|| panic!("no texel"));
        let want = if drawn {
            let a = if format.is_float() { 1.5 } else { 1.0 };
            [0.0, 1.0, 0.0, a]
        } else {
            [1.0, 0.0, 0.0, 1.0]
        };
        assert_eq!(got, want, "{format:?} {func:?}");
    }
}

/// D3DFVF_XYZ | D3DFVF_DIFFUSE vertices of a triangle over the top-left half in `colour`.
fn top_left_triangle(colour: u32) -> Vec<u8> {
    let mut bytes = Vec::new();
    for (x, y) in [(-1.0f32, -1.0f32), (-1.0, 1.0), (1.0, 1.0)] {
        bytes.extend(floats(&[x, y, 0.1]));
        bytes.extend(colour.to_le_bytes());
    }
    bytes
}

/// A draw submitted while its vertex buffer is still locked reads what the lock has written
/// so far (Wine's test_draw_mapped_buffer on Windows: a DEFAULT DYNAMIC buffer locked,
/// written, drawn from and read back before the Unlock), and what the lock writes after the
/// read-back reaches the GPU at the Unlock.
#[test]
fn gpu_draws_read_what_a_held_lock_has_written() {
    use d3d9_backend::device::{LockFlags, Pool, Usage};
    let mut dev = device();
    let vb = ok(dev.create_vertex_buffer_in(48, Usage::DYNAMIC, Pool::Default));
    ok(dev.set_fvf(D3DFVF_XYZ | 0x040));
    ok(dev.set_render_state(RenderState::Lighting(false)));
    ok(dev.set_stream_source(0, Some(vb), 0, 16));
    let write = |dev: &mut Device, colour: u32, flags: LockFlags| {
        let locked = ok(dev.lock_vertex_buffer(vb, 0, 48, flags));
        let bytes = top_left_triangle(colour);
        // SAFETY: the lock holds 48 bytes until the unlock.
        #[allow(unsafe_code)]
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), locked.bits, bytes.len())
        };
    };
    write(&mut dev, 0xffff_0000, LockFlags(0));
    ok(dev.clear(&[], ClearFlags::TARGET, 0xff00_00ff, 1.0, 0));
    ok(dev.draw_primitive(PrimitiveType::TriangleList, 0, 1));
    assert_eq!(
        px(&mut dev, 160, 120) & 0xff_ffff,
        0xff_0000,
        "drawn while locked"
    );
    assert_eq!(px(&mut dev, 480, 360) & 0xff_ffff, 0x00_00ff);
    // Written after the read-back, still under the same lock: the Unlock uploads it.
    write(&mut dev, 0xff00_ff00, LockFlags(0));
    ok(dev.unlock_vertex_buffer(vb));
    ok(dev.unlock_vertex_buffer(vb));
    ok(dev.draw_primitive(PrimitiveType::TriangleList, 0, 1));
    assert_eq!(
        px(&mut dev, 160, 120) & 0xff_ffff,
        0x00_ff00,
        "after the Unlock"
    );
}

/// A lock without NOOVERWRITE waits for the draws recorded before it (D3D9's default
/// locks are synchronised): what it writes is not what those draws read, even when nothing
/// was read back in between.
#[test]
fn gpu_a_plain_lock_leaves_earlier_draws_alone() {
    use d3d9_backend::device::LockFlags;
    let mut dev = device();
    let vb = ok(dev.create_vertex_buffer_with(&top_left_triangle(0xffff_0000)));
    ok(dev.set_fvf(D3DFVF_XYZ | D3DFVF_DIFFUSE));
    ok(dev.set_render_state(RenderState::Lighting(false)));
    ok(dev.set_stream_source(0, Some(vb), 0, 16));
    ok(dev.clear(&[], ClearFlags::TARGET, 0xff00_00ff, 1.0, 0));
    ok(dev.draw_primitive(PrimitiveType::TriangleList, 0, 1));
    let locked = ok(dev.lock_vertex_buffer(vb, 0, 0, LockFlags(0)));
    let green = top_left_triangle(0xff00_ff00);
    // SAFETY: the lock holds the buffer's 48 bytes until the unlock.
    #[allow(unsafe_code)]
    unsafe {
        std::ptr::copy_nonoverlapping(green.as_ptr(), locked.bits, green.len())
    };
    ok(dev.unlock_vertex_buffer(vb));
    assert_eq!(px(&mut dev, 160, 120) & 0xff_ffff, 0xff_0000);
    ok(dev.draw_primitive(PrimitiveType::TriangleList, 0, 1));
    assert_eq!(px(&mut dev, 160, 120) & 0xff_ffff, 0x00_ff00);
}

/// A lock's bytes reach the GPU whatever their offset and length: one byte of each of three
/// points' D3DCOLOR (the green byte, at 1, 17 and 33, inside 4-byte words) locked and
/// written with NOOVERWRITE (which uploads just the locked range), the bytes around it kept.
#[test]
fn gpu_locked_bytes_at_any_offset_reach_the_gpu() {
    use d3d9_backend::device::LockFlags;
    use d3d9_translator::bytecode::Usage;
    use d3d9_translator::decl::{DeclType, VertexElement};
    let mut dev = device();
    let elements = [
        VertexElement::new(0, 0, DeclType::D3DColor, Usage::Color, 0),
        VertexElement::new(0, 4, DeclType::Float3, Usage::Position, 0),
    ];
    let decl = ok(dev.create_vertex_declaration(&elements));
    let vs = ok(dev.create_vertex_shader(&tokens(
        "vs_2_0\ndcl_position v0\ndcl_color v1\nmov oPos, v0\nmov oD0, v1\n",
    )));
    ok(dev.set_vertex_shader(Some(vs)));
    ok(dev.set_vertex_declaration(Some(decl)));
    // Points at the centres of pixels (100, 100), (200, 100), (300, 100); blue.
    let pixels = [100u32, 200, 300];
    let mut bytes = Vec::new();
    for x in pixels {
        bytes.extend(0xff00_00ffu32.to_le_bytes());
        bytes.extend(floats(&[
            (x as f32 + 0.5) / 320.0 - 1.0,
            1.0 - 100.5 / 240.0,
            0.5,
        ]));
    }
    let vb = ok(dev.create_vertex_buffer_with(&bytes));
    ok(dev.set_stream_source(0, Some(vb), 0, 16));
    for v in 0..3 {
        let locked = ok(dev.lock_vertex_buffer(vb, 16 * v + 1, 1, LockFlags::NO_OVERWRITE));
        // SAFETY: the lock holds one byte until the unlock.
        #[allow(unsafe_code)]
        unsafe {
            locked.bits.write(0xff)
        };
        ok(dev.unlock_vertex_buffer(vb));
    }
    ok(dev.clear(&[], ClearFlags::TARGET, 0, 1.0, 0));
    ok(dev.draw_primitive(PrimitiveType::PointList, 0, 3));
    for x in pixels {
        assert_eq!(
            px(&mut dev, x, 100) & 0xff_ffff,
            0x00_ffff,
            "point at x {x}"
        );
    }
}

/// D3D9 has no primitive restart: a 16-bit index 0xffff in a strip draws vertex 65535
/// (Wine's test_max_index16), wherever in the strip it lies (here the third of four, read
/// from the fifth index of the buffer on); the same strip in wireframe.
#[test]
fn gpu_index_0xffff_in_a_strip_is_a_vertex() {
    let mut dev = device();
    let vertex = |x: f32, y: f32| {
        let mut v = floats(&[x, y, 0.5, 1.0]);
        v.extend(0xff00_ff00u32.to_le_bytes());
        v
    };
    let mut vertices = vec![0u8; 20 * 65536];
    for (i, (x, y)) in [(0, (0.0, 0.0)), (1, (640.0, 0.0)), (2, (640.0, 480.0))]
        .into_iter()
        .chain([(0xffff, (0.0, 480.0))])
    {
        vertices[i * 20..i * 20 + 20].copy_from_slice(&vertex(x, y));
    }
    let vb = ok(dev.create_vertex_buffer_with(&vertices));
    // From the fifth index on (the first four are never read).
    let ib = ok(dev.create_index_buffer_u16(&[9, 9, 9, 9, 0, 1, 0xffff, 2]));
    ok(dev.set_fvf(D3DFVF_XYZRHW | D3DFVF_DIFFUSE));
    ok(dev.set_stream_source(0, Some(vb), 0, 20));
    ok(dev.set_indices(Some(ib)));
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    ok(dev.clear(&[], ClearFlags::TARGET, 0, 1.0, 0));
    ok(dev.draw_indexed_primitive(PrimitiveType::TriangleStrip, 0, 0, 65536, 4, 2));
    assert_eq!(px(&mut dev, 320, 240) & 0xff_ffff, 0x00_ff00);
    assert_eq!(px(&mut dev, 20, 460) & 0xff_ffff, 0x00_ff00);
    // D3DFILL_WIREFRAME draws the triangles' edges only where the adapter draws lines, and
    // is refused as unsupported elsewhere.
    let wireframe = dev
        .gpu()
        .device()
        .features()
        .contains(wgpu::Features::POLYGON_MODE_LINE);
    eprintln!("POLYGON_MODE_LINE: {wireframe}");
    ok(dev.set_render_state(RenderState::FillMode(
        d3d9_backend::device::FillMode::Wireframe,
    )));
    ok(dev.clear(&[], ClearFlags::TARGET, 0, 1.0, 0));
    let drawn = dev.draw_indexed_primitive(PrimitiveType::TriangleStrip, 0, 0, 65536, 4, 2);
    if !wireframe {
        assert!(
            matches!(
                drawn,
                Err(d3d9_backend::device::DeviceError::Unsupported { .. })
            ),
            "{drawn:?}"
        );
    } else {
        ok(drawn);
        assert_eq!(
            px(&mut dev, 320, 240) & 0xff_ffff,
            0x00_ff00,
            "the diagonal"
        );
        assert_eq!(px(&mut dev, 160, 60) & 0xff_ffff, 0, "inside a triangle");
    }
}

/// A device on a wgpu device of `adapter` opened with `limits` and no optional features (as
/// a compatibility layer may open one).
fn device_opened_with(
    adapter: &wgpu::Adapter,
    limits: wgpu::Limits,
    params: d3d9_backend::DeviceParams,
) -> Device {
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        required_limits: limits,
        ..Default::default()
    }))
    .unwrap_or_else(|e| panic!("{e}"));
    ok(Device::from_wgpu(adapter.clone(), device, queue, params))
}

/// A buffer past the wgpu device's `max_buffer_size` is `Unsupported`, one of that size is
/// made (vertex and index buffers alike).
#[test]
fn gpu_buffers_up_to_the_adapters_size_limit_are_made() {
    let adapter = default_adapter();
    let limit: u32 = 16 << 20;
    let limits = wgpu::Limits {
        max_buffer_size: limit.into(),
        ..adapter.limits()
    };
    let mut dev = device_opened_with(&adapter, limits, d3d9_backend::DeviceParams::default());
    ok(dev.create_vertex_buffer(limit));
    let past = dev.create_vertex_buffer(limit + 4);
    assert!(
        matches!(past, Err(d3d9_backend::DeviceError::Unsupported { .. })),
        "{past:?}"
    );
    ok(dev.create_index_buffer(limit, d3d9_backend::device::IndexFormat::Index16));
}

/// A wgpu device opened without the optional features (a compatibility layer may open one
/// so): the draws that need one are `Unsupported`, naming the D3D9 state (wireframe and
/// point fill, user clip planes), and the device still draws without them.
#[test]
fn gpu_a_device_without_optional_features_refuses_what_needs_them() {
    use d3d9_backend::device::FillMode;
    let adapter = default_adapter();
    let limits = adapter.limits();
    let mut dev = device_opened_with(&adapter, limits, d3d9_backend::DeviceParams::default());
    let vs = ok(dev.create_vertex_shader(&tokens(
        "vs_2_0\ndcl_position v0\nmov oPos, v0\nmov oD0, c0\n",
    )));
    ok(dev.set_vertex_shader(Some(vs)));
    ok(dev.set_vertex_shader_constant_f(0, &[[0.0, 1.0, 0.0, 1.0]]));
    ok(dev.set_fvf(D3DFVF_XYZ));
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    let triangle = floats(&[-1.0, -1.0, 0.5, -1.0, 1.0, 0.5, 1.0, -1.0, 0.5]);
    let refusals = [
        (
            RenderState::FillMode(FillMode::Wireframe),
            "D3DFILL_WIREFRAME",
        ),
        (RenderState::FillMode(FillMode::Point), "D3DFILL_POINT"),
        (RenderState::ClipPlaneEnable(1), "D3DRS_CLIPPLANEENABLE"),
    ];
    for (state, name) in refusals {
        ok(dev.set_render_state(state));
        match dev.draw_primitive_up(PrimitiveType::TriangleList, 1, &triangle, 12) {
            Err(d3d9_backend::DeviceError::Unsupported { what, .. }) => {
                assert!(what.contains(name), "{what}")
            }
            other => panic!("{name}: {other:?}"),
        }
        ok(dev.set_render_state(RenderState::FillMode(FillMode::Solid)));
        ok(dev.set_render_state(RenderState::ClipPlaneEnable(0)));
    }
    ok(dev.clear(&[], ClearFlags::TARGET, 0, 1.0, 0));
    ok(dev.draw_primitive_up(PrimitiveType::TriangleList, 1, &triangle, 12));
    assert_eq!(px(&mut dev, 10, 470) & 0xff_ffff, 0x00_ff00);
}

/// A wgpu device with fewer dynamic-offset uniform bindings per pipeline layout than the
/// draw's constant buffers, and no dynamic storage binding (a compatibility layer may open
/// one so): the stages whose constants do not fit are bound by bind groups of their own,
/// never past the limit, and each of several draws between two read-backs reads its own
/// constants.
#[test]
fn gpu_constants_past_the_dynamic_offset_limit_are_bound_by_groups_of_their_own() {
    let adapter = default_adapter();
    // Software vertex processing reads its 8192 `c#` from a storage buffer, which takes a
    // dynamic storage binding where one is left.
    let software = d3d9_translator::decl::VertexProcessing::Software;
    let hardware = d3d9_translator::decl::VertexProcessing::Hardware;
    for (dynamic, processing) in (0..4).map(|d| (d, hardware)).chain([(1, software)]) {
        let limits = wgpu::Limits {
            max_dynamic_uniform_buffers_per_pipeline_layout: dynamic,
            max_dynamic_storage_buffers_per_pipeline_layout: 0,
            ..adapter.limits()
        };
        let params = d3d9_backend::DeviceParams {
            processing,
            ..d3d9_backend::DeviceParams::default()
        };
        let mut dev = device_opened_with(&adapter, limits, params);
        let vs = ok(dev.create_vertex_shader(&tokens(
            "vs_2_0\ndcl_position v0\nadd r0, v0, c1\nmov oPos, r0\nmov oD0, c0\n",
        )));
        let ps =
            ok(dev.create_pixel_shader(&tokens("ps_2_0\ndcl v0\nmul r0, v0, c2\nmov oC0, r0\n")));
        ok(dev.set_fvf(D3DFVF_XYZ));
        ok(dev.set_vertex_shader(Some(vs)));
        ok(dev.set_pixel_shader(Some(ps)));
        ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
        ok(dev.clear(&[], ClearFlags::TARGET, 0xff00_0000, 1.0, 0));
        // A quad over the left half, moved by c1.x: two draws, other colours and places.
        let quad = floats(&[
            -1.0, -1.0, 0.5, -1.0, 1.0, 0.5, 0.0, -1.0, 0.5, 0.0, 1.0, 0.5,
        ]);
        for (x, colour, scale) in [
            (0.0f32, [1.0f32, 0.5, 0.0, 1.0], 1.0f32),
            (1.0, [0.0, 1.0, 1.0, 1.0], 0.5),
        ] {
            ok(dev.set_vertex_shader_constant_f(0, &[colour, [x, 0.0, 0.0, 0.0]]));
            ok(dev.set_pixel_shader_constant_f(2, &[[scale; 4]]));
            ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &quad, 12));
        }
        let left = px(&mut dev, 160, 240) & 0xff_ffff;
        let right = px(&mut dev, 480, 240) & 0xff_ffff;
        let near = |got: u32, want: u32| {
            (0..3).all(|i| ((got >> (8 * i)) & 0xff).abs_diff((want >> (8 * i)) & 0xff) <= 1)
        };
        assert!(
            near(left, 0xff_8000),
            "{dynamic} dynamic bindings, {processing:?}: left {left:06x}"
        );
        assert!(
            near(right, 0x00_8080),
            "{dynamic} dynamic bindings, {processing:?}: right {right:06x}"
        );
    }
}

/// Draws between two read-backs each land in the targets set for them: render target A,
/// then B, then A again; the same target with another depth-stencil surface; and a
/// depth-stencil surface larger than the target (drawn through stand-ins), where the
/// viewport is still the target's.
#[test]
fn gpu_draws_land_in_their_own_targets_between_read_backs() {
    let mut dev = device();
    ok(dev.set_fvf(D3DFVF_XYZRHW | D3DFVF_DIFFUSE));
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    ok(dev.set_render_state(RenderState::Lighting(false)));
    // A pre-transformed quad over (x0, 0)-(x1, 64) at depth z.
    let quad = |x0: f32, x1: f32, z: f32, colour: u32| -> Vec<u8> {
        [(x0, 0.0), (x1, 0.0), (x0, 64.0), (x1, 64.0)]
            .iter()
            .flat_map(|&(x, y)| {
                let mut v = floats(&[x, y, z, 1.0]);
                v.extend_from_slice(&colour.to_le_bytes());
                v
            })
            .collect()
    };
    let draw = |dev: &mut Device, q: &[u8]| {
        ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, q, 20));
    };
    let a = ok(dev.create_render_target(64, 64, Format::A8R8G8B8));
    let b = ok(dev.create_render_target(64, 64, Format::A8R8G8B8));
    for target in [a, b] {
        ok(dev.set_render_target(0, Some(target)));
        ok(dev.clear(&[], ClearFlags::TARGET, 0xff00_0000, 1.0, 0));
    }
    ok(dev.set_render_state(RenderState::ZEnable(false)));
    ok(dev.set_render_target(0, Some(a)));
    draw(&mut dev, &quad(0.0, 32.0, 0.5, 0xffff_0000));
    ok(dev.set_render_target(0, Some(b)));
    draw(&mut dev, &quad(0.0, 64.0, 0.5, 0xff00_ff00));
    ok(dev.set_render_target(0, Some(a)));
    draw(&mut dev, &quad(32.0, 64.0, 0.5, 0xff00_00ff));
    let colour = |dev: &mut Device, s, x| ok(dev.get_render_target_data(s)).color(x, 32);
    assert_eq!(colour(&mut dev, a, 10), Some(0xffff_0000), "A, left");
    assert_eq!(colour(&mut dev, a, 50), Some(0xff00_00ff), "A, right");
    assert_eq!(colour(&mut dev, b, 10), Some(0xff00_ff00), "B");
    // Depth: surface `near` cleared to 0 hides everything (LESS), `far` to 1 nothing.
    const DEPTH: ClearFlags = ClearFlags {
        target: false,
        zbuffer: true,
        stencil: false,
    };
    let near = ok(dev.create_depth_stencil_surface(64, 64, Format::D24S8));
    let far = ok(dev.create_depth_stencil_surface(64, 64, Format::D24S8));
    ok(dev.set_render_state(RenderState::ZEnable(true)));
    ok(dev.set_render_state(RenderState::ZFunc(CompareFunction::Less)));
    for (surface, depth) in [(near, 0.0), (far, 1.0)] {
        ok(dev.set_depth_stencil_surface(Some(surface)));
        ok(dev.clear(&[], DEPTH, 0, depth, 0));
    }
    ok(dev.set_render_target(0, Some(b)));
    ok(dev.set_depth_stencil_surface(Some(near)));
    draw(&mut dev, &quad(0.0, 64.0, 0.5, 0xffff_ffff));
    ok(dev.set_depth_stencil_surface(Some(far)));
    draw(&mut dev, &quad(0.0, 32.0, 0.5, 0xffff_00ff));
    assert_eq!(
        colour(&mut dev, b, 10),
        Some(0xffff_00ff),
        "B, through `far`"
    );
    assert_eq!(
        colour(&mut dev, b, 50),
        Some(0xff00_ff00),
        "B, hidden by `near`"
    );
    // A 128 x 128 depth-stencil surface under the 64 x 64 target: a quad over the whole
    // viewport (clip space) covers the target, not a quarter of it.
    let large = ok(dev.create_depth_stencil_surface(128, 128, Format::D24S8));
    ok(dev.set_depth_stencil_surface(Some(large)));
    ok(dev.clear(&[], DEPTH, 0, 1.0, 0));
    ok(dev.set_fvf(D3DFVF_XYZ | D3DFVF_DIFFUSE));
    let clip_quad: Vec<u8> = [(-1.0f32, -1.0f32), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)]
        .iter()
        .flat_map(|&(x, y)| {
            let mut v = floats(&[x, y, 0.5]);
            v.extend_from_slice(&0xff00_ffffu32.to_le_bytes());
            v
        })
        .collect();
    ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &clip_quad, 16));
    assert_eq!(
        colour(&mut dev, b, 50),
        Some(0xff00_ffff),
        "stand-in, right"
    );
    let data = ok(dev.get_render_target_data(b));
    assert_eq!(
        data.color(50, 60),
        Some(0xff00_ffff),
        "stand-in, bottom right"
    );
}

/// A vertex sampler takes no sampler state done in the shader (vertex shaders take none): a
/// LOD bias or MIRRORONCE on it refuses the draw, never draws it wrong; without them the
/// draw reads the texture.
#[test]
fn gpu_vertex_samplers_refuse_the_fixups_they_cannot_take() {
    use d3d9_backend::device::{MipFilter, SamplerState, TextureAddress, D3DVERTEXTEXTURESAMPLER0};
    let mut dev = device();
    let vs = ok(dev.create_vertex_shader(&tokens(
        "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_color o1\ndcl_2d s0\n\
         def c0, 0.5, 0.5, 0, 0\nmov o0, v0\nmov r1, c0\ntexldl r0, r1, s0\nmov o1, r0\n",
    )));
    let ps = ok(dev.create_pixel_shader(&tokens("ps_3_0\ndcl_color v0\nmov oC0, v0\n")));
    ok(dev.set_vertex_shader(Some(vs)));
    ok(dev.set_pixel_shader(Some(ps)));
    ok(dev.set_fvf(D3DFVF_XYZ));
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    let texture = ok(dev.create_texture(2, 2, 1, Format::A8R8G8B8));
    ok(dev.update_texture(texture, 0, &[0x40; 16]));
    ok(dev.set_texture(D3DVERTEXTEXTURESAMPLER0, Some(texture)));
    let quad = floats(&[
        -1.0, -1.0, 0.5, -1.0, 1.0, 0.5, 1.0, -1.0, 0.5, 1.0, 1.0, 0.5,
    ]);
    let draw = |dev: &mut Device| dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &quad, 12);
    let sampler = D3DVERTEXTEXTURESAMPLER0;
    ok(dev.set_sampler_state(sampler, SamplerState::MipFilter(MipFilter::Point)));
    ok(dev.set_sampler_state(sampler, SamplerState::MipMapLodBias(1.0)));
    let refused = draw(&mut dev);
    assert!(
        matches!(&refused, Err(d3d9_backend::device::DeviceError::Unsupported { what, .. }) if what.contains("MIPMAPLODBIAS")),
        "{refused:?}"
    );
    ok(dev.set_sampler_state(sampler, SamplerState::MipMapLodBias(0.0)));
    ok(dev.set_sampler_state(sampler, SamplerState::AddressV(TextureAddress::MirrorOnce)));
    let refused = draw(&mut dev);
    assert!(
        matches!(&refused, Err(d3d9_backend::device::DeviceError::Unsupported { what, .. }) if what.contains("MIRRORONCE")),
        "{refused:?}"
    );
    ok(dev.set_sampler_state(sampler, SamplerState::AddressV(TextureAddress::Clamp)));
    ok(draw(&mut dev));
    assert_eq!(px(&mut dev, 320, 240) & 0xff_ffff, 0x40_4040);
}

/// ps_1_1's `texbem` through the device: stage 0's bump texel (du ≈ 0.504) displaces t1's
/// coordinate by `D3DTSS_BUMPENVMAT`, and a matrix changed between two draws of one shader
/// (no read-back between them) is the one each draw reads: identity moves u = 0.125 (red)
/// to 0.63 (blue), zero leaves it red.
#[test]
fn gpu_texbem_reads_the_bump_matrix_set_for_each_draw() {
    const D3DFVF_TEX2: u32 = 0x200;
    const BUMPENVMAT00: u32 = 7;
    let mut dev = device();
    set_bump_textures(&mut dev);
    let ps = ok(dev.create_pixel_shader(&tokens("ps_1_1\ntex t0\ntexbem t1, t0\nmov r0, t1\n")));
    ok(dev.set_pixel_shader(Some(ps)));
    ok(dev.set_fvf(D3DFVF_XYZ | D3DFVF_TEX2));
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    let half = |x0: f32| -> Vec<u8> {
        [(x0, -1.0f32), (x0, 1.0), (x0 + 1.0, -1.0), (x0 + 1.0, 1.0)]
            .iter()
            .flat_map(|&(x, y)| floats(&[x, y, 0.5, 0.5, 0.5, 0.125, 0.5]))
            .collect()
    };
    let matrix = |dev: &mut Device, m00: f32| {
        for stage in 0..2 {
            ok(dev.set_texture_stage_state_raw(stage, BUMPENVMAT00, m00.to_bits()));
            ok(dev.set_texture_stage_state_raw(stage, BUMPENVMAT00 + 3, 1.0f32.to_bits()));
        }
    };
    matrix(&mut dev, 1.0);
    ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &half(-1.0), 28));
    matrix(&mut dev, 0.0);
    ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &half(0.0), 28));
    assert_eq!(px(&mut dev, 160, 240) & 0xff_ffff, 0x00_00ff, "identity");
    assert_eq!(px(&mut dev, 480, 240) & 0xff_ffff, 0xff_0000, "zero");
}

/// A pixel shader reading the second texture coordinate set of the fixed-function vertex
/// stage gets it (the stage writes the sets the shader reads).
#[test]
fn gpu_fixed_function_vertices_give_a_pixel_shader_its_second_texcoord_set() {
    let mut dev = device();
    let ps = ok(dev.create_pixel_shader(&tokens("ps_2_0\ndcl t1.xy\nmov r0, t1\nmov oC0, r0\n")));
    ok(dev.set_pixel_shader(Some(ps)));
    // D3DFVF_XYZ | D3DFVF_TEX2: set 0 (0, 0), set 1 (1, 0.5).
    ok(dev.set_fvf(D3DFVF_XYZ | 0x200));
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    let mut v = Vec::new();
    for (x, y) in [(-1.0f32, -1.0f32), (-1.0, 3.0), (3.0, -1.0)] {
        v.extend(floats(&[x, y, 0.5, 0.0, 0.0, 1.0, 0.5]));
    }
    ok(dev.draw_primitive_up(PrimitiveType::TriangleList, 1, &v, 28));
    let centre = px(&mut dev, 320, 240) & 0xff_ffff;
    let (r, g) = (centre >> 16, (centre >> 8) & 0xff);
    assert!(r == 0xff && g.abs_diff(0x80) <= 1, "{centre:06x}");
}
