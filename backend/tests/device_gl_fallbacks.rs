//! The ways round what wgpu's GL backend lacks (`DeviceParams::fallbacks`), on every backend:
//! each test runs a device that takes them only where its adapter needs them (GL: always) and
//! one that takes them everywhere (`Fallbacks` forced), and checks both against the values
//! D3D9 gives, so on Vulkan the fallback paths are compared with the direct ones.
//! - Depth read back through a pass (`depth_pass`): `LockRect` of `D16_LOCKABLE` and
//!   `D32F_LOCKABLE` after clears and draws, and `StretchRect` between depth-stencil
//!   surfaces (depth and stencil).
//! - Float32 render targets held as bits (`float_bits`): `A32B32G32R32F` and `R32F`
//!   render-target textures cleared, `ColorFill`ed, drawn into, `StretchRect`ed from and into
//!   `A8R8G8B8`, read back and sampled.
//!
//! GPU tests fail without an adapter.

#![allow(clippy::panic)] // a failing test says why

#[allow(dead_code)]
mod device_common;
use d3d9_backend::device::{
    ClearFlags, Device, Fallbacks, Filter, Format, LockFlags, Pool, PrimitiveType, Rect, SurfaceId,
    TextureDesc, TextureId, TextureKind, Usage,
};
use d3d9_backend::{DeviceError, DeviceParams};
use device_common::{floats, ok};

/// The devices each test runs on: the adapter's own paths, and every fallback forced.
fn devices() -> Vec<(&'static str, Device)> {
    let make = |fallbacks| {
        Device::new(DeviceParams {
            fallbacks,
            ..Default::default()
        })
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"))
    };
    vec![
        ("the adapter's paths", make(Fallbacks::default())),
        (
            "every fallback forced",
            make(Fallbacks {
                depth_through_pass: true,
                float32_as_bits: true,
            }),
        ),
    ]
}

/// `D3DRS_*` numbers and values used here.
const ZENABLE: u32 = 7;
const ZWRITEENABLE: u32 = 14;
const ZFUNC: u32 = 23;
const CULLMODE: u32 = 22;
const LIGHTING: u32 = 137;
const STENCILENABLE: u32 = 52;
const STENCILFUNC: u32 = 56;
const STENCILREF: u32 = 57;
const CMP_EQUAL: u32 = 3;
const CMP_ALWAYS: u32 = 8;
const MAGFILTER: u32 = 5;
const MINFILTER: u32 = 6;
const POINT: u32 = 1;
const LINEAR: u32 = 2;
const FVF_XYZ_DIFFUSE: u32 = 0x002 | 0x040;
const FVF_XYZ_TEX1: u32 = 0x002 | 0x100;

const fn clear(target: bool, zbuffer: bool, stencil: bool) -> ClearFlags {
    ClearFlags {
        target,
        zbuffer,
        stencil,
    }
}

fn rect(left: i32, top: i32, right: i32, bottom: i32) -> Rect {
    Rect {
        left,
        top,
        right,
        bottom,
    }
}

/// A quad from x0 to x1 across the whole height at depth z, of colour `colour`.
fn quad(x0: f32, x1: f32, z: f32, colour: u32) -> Vec<u8> {
    let mut v = Vec::new();
    for (x, y) in [(x0, 1.0), (x1, 1.0), (x0, -1.0), (x1, -1.0)] {
        v.extend(floats(&[x, y, z]));
        v.extend(colour.to_le_bytes());
    }
    v
}

/// Draws untransformed quads of colour and depth with z test ALWAYS and z writes on.
fn draw_quads(dev: &mut Device, quads: &[(f32, f32, f32, u32)]) {
    for (state, value) in [
        (ZENABLE, 1),
        (ZWRITEENABLE, 1),
        (ZFUNC, CMP_ALWAYS),
        (CULLMODE, 1),
        (LIGHTING, 0),
    ] {
        ok(dev.set_render_state_raw(state, value));
    }
    ok(dev.set_pixel_shader(None));
    ok(dev.set_fvf(FVF_XYZ_DIFFUSE));
    for &(x0, x1, z, colour) in quads {
        let q = quad(x0, x1, z, colour);
        ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &q, 16));
    }
}

/// `LockRect(READONLY)` of a whole surface: its bytes, rows tightly packed.
fn lock_bytes(dev: &mut Device, id: SurfaceId) -> Vec<u8> {
    let (width, height, format) = dev.surface_desc(id).unwrap_or_else(|| panic!("{id:?}"));
    let locked = ok(dev.lock_surface(id, None, LockFlags::READ_ONLY));
    let row = format.row_pitch(width) as usize;
    let mut bytes = Vec::new();
    for y in 0..height as usize {
        // SAFETY: the lock's memory holds `height` rows of `row_pitch` bytes until unlocked.
        #[allow(unsafe_code)]
        let line = unsafe {
            std::slice::from_raw_parts(locked.bits.add(y * locked.row_pitch as usize), row)
        };
        bytes.extend_from_slice(line);
    }
    ok(dev.unlock_surface(id));
    bytes
}

fn u16s(bytes: &[u8]) -> Vec<u16> {
    bytes
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect()
}

fn f32s(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

/// Test 1 of Wine's `test_clear_different_size_surfaces` and more: a lockable depth surface
/// cleared (whole and in part) and drawn into reads back the depths, D16 exactly (the unorm
/// value of the z), D32F as the float itself.
#[test]
fn gpu_lockable_depth_surfaces_read_back_cleared_and_drawn_depths() {
    for (name, mut dev) in devices() {
        let rt = ok(dev.create_render_target(8, 4, Format::A8R8G8B8));
        ok(dev.set_render_target(0, Some(rt)));
        for format in [Format::D16Lockable, Format::D32FLockable] {
            let ds = ok(dev.create_depth_stencil_surface(8, 4, format));
            ok(dev.set_depth_stencil_surface(Some(ds)));
            // 0.2 is 13107 / 65535: D16 holds exactly 13107.
            ok(dev.clear(&[], clear(false, true, false), 0, 0.2, 0));
            ok(dev.clear(&[rect(0, 0, 2, 4)], clear(false, true, false), 0, 1.0, 0));
            let depths = lock_bytes(&mut dev, ds);
            let expect = |x: usize| if x < 2 { 1.0f32 } else { 0.2 };
            match format {
                Format::D16Lockable => {
                    let d = u16s(&depths);
                    for (i, &v) in d.iter().enumerate() {
                        let want = if i % 8 < 2 { 0xffff } else { 13107 };
                        assert_eq!(v, want, "{name}: {format:?} texel {i}: {d:?}");
                    }
                }
                _ => {
                    let d = f32s(&depths);
                    for (i, &v) in d.iter().enumerate() {
                        assert_eq!(v, expect(i % 8), "{name}: {format:?} texel {i}: {d:?}");
                    }
                }
            }
            // Drawn: 0.25 on the left half, 0.75 on the right.
            draw_quads(&mut dev, &[(-1.0, 0.0, 0.25, !0), (0.0, 1.0, 0.75, !0)]);
            let depths = lock_bytes(&mut dev, ds);
            match format {
                Format::D16Lockable => {
                    let d = u16s(&depths);
                    for (i, &v) in d.iter().enumerate() {
                        let want: u16 = if i % 8 < 4 { 16384 } else { 49151 };
                        assert!(v.abs_diff(want) <= 1, "{name}: {format:?} texel {i}: {d:?}");
                    }
                }
                _ => {
                    let d = f32s(&depths);
                    for (i, &v) in d.iter().enumerate() {
                        let want = if i % 8 < 4 { 0.25f32 } else { 0.75 };
                        assert!(
                            (v - want).abs() <= 1e-6,
                            "{name}: {format:?} texel {i}: {d:?}"
                        );
                    }
                }
            }
            ok(dev.set_depth_stencil_surface(None));
        }
    }
}

/// `GetRenderTargetData` of a D24S8 surface (its depth as floats) reads the same through
/// the pass as through a copy, and both are the cleared values.
#[test]
fn gpu_d24s8_depth_reads_back_on_both_paths() {
    let mut results = Vec::new();
    for (name, mut dev) in devices() {
        let rt = ok(dev.create_render_target(4, 4, Format::A8R8G8B8));
        ok(dev.set_render_target(0, Some(rt)));
        let ds = ok(dev.create_depth_stencil_surface(4, 4, Format::D24S8));
        ok(dev.set_depth_stencil_surface(Some(ds)));
        ok(dev.clear(&[], clear(false, true, true), 0, 0.5, 0x5a));
        ok(dev.clear(&[rect(0, 0, 4, 2)], clear(false, true, false), 0, 0.125, 0));
        let data = ok(dev.get_render_target_data(ds));
        let d = f32s(&data.data);
        assert_eq!(d.len(), 16, "{name}");
        for (i, &v) in d.iter().enumerate() {
            let want = if i < 8 { 0.125 } else { 0.5 };
            assert_eq!(v, want, "{name}: texel {i}: {d:?}");
        }
        results.push(d);
        // Level 1 of a D24S8 or D32 texture reads its own depth, not level 0's.
        for format in [Format::D24S8, Format::D32] {
            let texture = ok(dev.create_texture_with(&TextureDesc {
                kind: TextureKind::TwoD,
                width: 8,
                height: 8,
                depth: 1,
                levels: 2,
                format,
                usage: Usage::DEPTH_STENCIL,
                pool: Pool::Default,
            }));
            let levels = [0, 1].map(|l| ok(dev.texture_surface(texture, 0, l)));
            for (surface, depth) in levels.iter().zip([0.75, 0.25]) {
                let size = if depth > 0.5 { 8 } else { 4 };
                let rt = ok(dev.create_render_target(size, size, Format::A8R8G8B8));
                ok(dev.set_render_target(0, Some(rt)));
                ok(dev.set_depth_stencil_surface(Some(*surface)));
                ok(dev.clear(&[], clear(false, true, false), 0, depth, 0));
            }
            ok(dev.set_depth_stencil_surface(None));
            let level1 = f32s(&ok(dev.get_render_target_data(levels[1])).data);
            assert_eq!(level1, vec![0.25; 16], "{name}: {format:?}");
        }
    }
    assert_eq!(results[0], results[1]);
}

/// Draws a full-target quad where the stencil equals `reference` and returns which of row
/// 0's pixels it drew (white over black).
fn stencil_row(dev: &mut Device, reference: u32) -> Vec<bool> {
    ok(dev.clear(&[], clear(true, false, false), 0xff00_0000, 0.0, 0));
    for (state, value) in [
        (STENCILENABLE, 1),
        (STENCILFUNC, CMP_EQUAL),
        (STENCILREF, reference),
    ] {
        ok(dev.set_render_state_raw(state, value));
    }
    draw_quads(dev, &[(-1.0, 1.0, 0.5, 0xffff_ffff)]);
    ok(dev.set_render_state_raw(STENCILENABLE, 0));
    (0..8)
        .map(|x| ok(dev.pixel(x, 0)) & 0x00ff_ffff == 0x00ff_ffff)
        .collect()
}

/// `StretchRect` of a whole D24S8 surface copies its depth and its stencil, and of a
/// D32F_LOCKABLE surface its depth (Wine's `depth_blit_test`, which checks depth only).
#[test]
fn gpu_stretch_rect_copies_depth_and_stencil() {
    for (name, mut dev) in devices() {
        let rt = ok(dev.create_render_target(8, 1, Format::A8R8G8B8));
        ok(dev.set_render_target(0, Some(rt)));
        let src = ok(dev.create_depth_stencil_surface(8, 1, Format::D24S8));
        let dst = ok(dev.create_depth_stencil_surface(8, 1, Format::D24S8));
        ok(dev.set_depth_stencil_surface(Some(dst)));
        ok(dev.clear(&[], clear(false, true, true), 0, 1.0, 0x33));
        // The source: depth 0.25 | 0.75, stencil 0x5a on pixels 0-1, 0xa5 on 2-5, 0xff on 6-7.
        ok(dev.set_depth_stencil_surface(Some(src)));
        ok(dev.clear(&[], clear(false, true, true), 0, 0.75, 0xff));
        ok(dev.clear(&[rect(0, 0, 4, 1)], clear(false, true, false), 0, 0.25, 0));
        ok(dev.clear(&[rect(0, 0, 2, 1)], clear(false, false, true), 0, 0.0, 0x5a));
        ok(dev.clear(&[rect(2, 0, 6, 1)], clear(false, false, true), 0, 0.0, 0xa5));
        ok(dev.stretch_rect(src, None, dst, None, Filter::Point));
        let d = f32s(&ok(dev.get_render_target_data(dst)).data);
        assert_eq!(
            d,
            [0.25, 0.25, 0.25, 0.25, 0.75, 0.75, 0.75, 0.75],
            "{name}"
        );
        ok(dev.set_depth_stencil_surface(Some(dst)));
        ok(dev.set_render_state_raw(ZENABLE, 0));
        let row = |bits: &[u8]| bits.iter().map(|&b| b == 1).collect::<Vec<_>>();
        assert_eq!(
            stencil_row(&mut dev, 0x5a),
            row(&[1, 1, 0, 0, 0, 0, 0, 0]),
            "{name}"
        );
        assert_eq!(
            stencil_row(&mut dev, 0xa5),
            row(&[0, 0, 1, 1, 1, 1, 0, 0]),
            "{name}"
        );
        assert_eq!(
            stencil_row(&mut dev, 0xff),
            row(&[0, 0, 0, 0, 0, 0, 1, 1]),
            "{name}"
        );
        assert_eq!(
            stencil_row(&mut dev, 0x33),
            row(&[0; 8]),
            "{name}: nothing kept"
        );

        let src = ok(dev.create_depth_stencil_surface(8, 1, Format::D32FLockable));
        let dst = ok(dev.create_depth_stencil_surface(8, 1, Format::D32FLockable));
        ok(dev.set_depth_stencil_surface(Some(src)));
        ok(dev.clear(&[], clear(false, true, false), 0, 0.3, 0));
        ok(dev.clear(&[rect(5, 0, 8, 1)], clear(false, true, false), 0, 0.9, 0));
        ok(dev.stretch_rect(src, None, dst, None, Filter::Point));
        let d = f32s(&lock_bytes(&mut dev, dst));
        assert_eq!(d, [0.3, 0.3, 0.3, 0.3, 0.3, 0.9, 0.9, 0.9], "{name}");
    }
}

/// A 4 x 4 render-target texture of `format` and its surface.
fn rt_texture(dev: &mut Device, format: Format) -> (TextureId, SurfaceId) {
    let texture = ok(dev.create_render_target_texture(4, 4, format));
    (texture, ok(dev.get_surface_level(texture, 0)))
}

/// `GetRenderTargetData` into a SYSTEMMEM surface, then its lock: what Wine's
/// `get_rt_readback` reads.
fn readback(dev: &mut Device, surface: SurfaceId) -> Vec<u8> {
    let (width, height, format) = dev.surface_desc(surface).unwrap_or_else(|| panic!());
    let memory = ok(dev.create_offscreen_plain_surface(width, height, format, Pool::SystemMem));
    ok(dev.get_render_target_data_into(surface, memory));
    lock_bytes(dev, memory)
}

fn unit(c: u32) -> f32 {
    c as f32 / 255.0
}

fn close(a: &[f32], b: &[f32], tolerance: f32) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tolerance)
}

/// Wine's `test_blit_format_conversion` and more: A32B32G32R32F render-target textures
/// cleared, `ColorFill`ed, drawn into and `StretchRect`ed from A8R8G8B8 hold the floats D3D9
/// gives, and `StretchRect` back to A8R8G8B8 gives the colour again; R32F reads (r, 1, 1, 1)
/// when converted.
#[test]
fn gpu_float32_render_target_textures_hold_cleared_filled_drawn_and_stretched_floats() {
    let colour = [unit(0x34), unit(0x56), unit(0x78), unit(0x12)];
    for (name, mut dev) in devices() {
        let (_, float) = rt_texture(&mut dev, Format::A32B32G32R32F);
        let texel = |data: &[u8], i: usize| f32s(&data[i * 16..i * 16 + 16]);
        // Clear through SetRenderTarget.
        ok(dev.set_render_target(0, Some(float)));
        ok(dev.clear(&[], clear(true, false, false), 0x1234_5678, 0.0, 0));
        ok(dev.clear(
            &[rect(2, 2, 4, 4)],
            clear(true, false, false),
            0xff80_0000,
            0.0,
            0,
        ));
        let data = readback(&mut dev, float);
        assert!(
            close(&texel(&data, 0), &colour, 1e-6),
            "{name}: {:?}",
            texel(&data, 0)
        );
        let red = [unit(0x80), 0.0, 0.0, 1.0];
        assert!(
            close(&texel(&data, 15), &red, 1e-6),
            "{name}: {:?}",
            texel(&data, 15)
        );
        // Drawn into: the diffuse colour.
        draw_quads(&mut dev, &[(-1.0, 1.0, 0.5, 0xff40_c020)]);
        let data = readback(&mut dev, float);
        let drawn = [unit(0x40), unit(0xc0), unit(0x20), 1.0];
        assert!(
            close(&texel(&data, 5), &drawn, 1e-6),
            "{name}: {:?}",
            texel(&data, 5)
        );
        // ColorFill of a rect.
        ok(dev.color_fill(float, Some(rect(0, 0, 2, 2)), 0x1234_5678));
        let data = readback(&mut dev, float);
        assert!(
            close(&texel(&data, 0), &colour, 1e-6),
            "{name}: {:?}",
            texel(&data, 0)
        );
        assert!(
            close(&texel(&data, 15), &drawn, 1e-6),
            "{name}: {:?}",
            texel(&data, 15)
        );
        // StretchRect from A8R8G8B8 (LINEAR, as Wine's test) converts to floats.
        let (_, argb) = rt_texture(&mut dev, Format::A8R8G8B8);
        ok(dev.color_fill(argb, None, 0x1234_5678));
        let (_, float2) = rt_texture(&mut dev, Format::A32B32G32R32F);
        ok(dev.stretch_rect(argb, None, float2, None, Filter::Linear));
        let data = readback(&mut dev, float2);
        for i in 0..16 {
            assert!(
                close(&texel(&data, i), &colour, 1e-6),
                "{name}: {i}: {:?}",
                texel(&data, i)
            );
        }
        // Same format, same size: a copy of the bits.
        ok(dev.stretch_rect(float, None, float2, None, Filter::Point));
        assert_eq!(
            readback(&mut dev, float2),
            readback(&mut dev, float),
            "{name}"
        );
        // Back to A8R8G8B8.
        let (_, argb2) = rt_texture(&mut dev, Format::A8R8G8B8);
        ok(dev.stretch_rect(float, None, argb2, None, Filter::Linear));
        let data = readback(&mut dev, argb2);
        assert_eq!(&data[0..4], &0x1234_5678u32.to_le_bytes(), "{name}");
        assert_eq!(&data[60..64], &0xff40_c020u32.to_le_bytes(), "{name}");
        // R32F holds red only and converts as D3D9 samples it, (r, 1, 1, 1).
        let (_, r32) = rt_texture(&mut dev, Format::R32F);
        ok(dev.color_fill(r32, None, 0x1234_5678));
        assert_eq!(f32s(&readback(&mut dev, r32))[0], unit(0x34), "{name}");
        ok(dev.stretch_rect(r32, None, argb2, None, Filter::Point));
        let data = readback(&mut dev, argb2);
        assert_eq!(&data[0..4], &0xff34_ffffu32.to_le_bytes(), "{name}");
    }
}

/// A stretched `StretchRect` out of float32 bits filters as the float format does on the
/// adapter: the forced-bits device matches the adapter's own (hardware filtering where
/// float32 filters, point sampling on GL).
#[test]
fn gpu_stretching_float32_bits_filters_as_the_float_format() {
    let mut results = Vec::new();
    for (name, mut dev) in devices() {
        let (_, float) = rt_texture(&mut dev, Format::A32B32G32R32F);
        ok(dev.color_fill(float, None, 0xff00_0000));
        ok(dev.color_fill(float, Some(rect(0, 0, 2, 4)), 0xffff_ffff));
        let big = ok(dev.create_render_target_texture(16, 4, Format::A32B32G32R32F));
        let big = ok(dev.get_surface_level(big, 0));
        ok(dev.stretch_rect(float, None, big, None, Filter::Linear));
        let data = f32s(&readback(&mut dev, big));
        // Row 0, red of each pixel: white, a ramp where filtered, black.
        let row: Vec<f32> = (0..16).map(|x| data[x * 4]).collect();
        assert_eq!(row[0], 1.0, "{name}: {row:?}");
        assert_eq!(row[15], 0.0, "{name}: {row:?}");
        results.push((name, row));
    }
    let (a, b) = (&results[0].1, &results[1].1);
    assert!(close(a, b, 1.0 / 128.0), "{results:?}");
}

/// Sampling a float32 render-target texture: A32B32G32R32F reads its floats (held as bits,
/// through a float copy made at bind time, again after each draw into it), point-sampled
/// everywhere and linearly filtered only where float32 filters; R32F is `Unsupported` on
/// every path (D3D9 reads its missing channels as 1, the GPU as 0).
#[test]
fn gpu_sampling_float32_render_target_textures() {
    for (name, mut dev) in devices() {
        let filters = dev
            .gpu()
            .device()
            .features()
            .contains(wgpu::Features::FLOAT32_FILTERABLE);
        let back = ok(dev.create_render_target(4, 4, Format::A8R8G8B8));
        let (texture, float) = rt_texture(&mut dev, Format::A32B32G32R32F);
        ok(dev.set_render_target(0, Some(float)));
        ok(dev.clear(&[], clear(true, false, false), 0x1234_5678, 0.0, 0));
        let sample = |dev: &mut Device, texture: TextureId| -> Result<u32, DeviceError> {
            draw_sampling(dev, back, texture, FVF_XYZ_TEX1, |u, v| vec![u, v])
        };
        for (state, value) in [(ZENABLE, 0), (LIGHTING, 0), (CULLMODE, 1)] {
            ok(dev.set_render_state_raw(state, value));
        }
        ok(dev.set_sampler_state_raw(0, MAGFILTER, POINT));
        ok(dev.set_sampler_state_raw(0, MINFILTER, POINT));
        assert_eq!(ok(sample(&mut dev, texture)), 0x1234_5678, "{name}");
        // Drawn into again: the copy follows.
        ok(dev.set_render_target(0, Some(float)));
        ok(dev.clear(&[], clear(true, false, false), 0xff20_4060, 0.0, 0));
        assert_eq!(ok(sample(&mut dev, texture)), 0xff20_4060, "{name}");
        ok(dev.set_sampler_state_raw(0, MAGFILTER, LINEAR));
        match sample(&mut dev, texture) {
            Ok(colour) if filters => assert_eq!(colour, 0xff20_4060, "{name}"),
            Err(DeviceError::Unsupported { what, .. }) if !filters => {
                assert!(what.contains("linear filtering"), "{name}: {what}")
            }
            other => panic!("{name}: filters {filters}: {other:?}"),
        }
        ok(dev.set_sampler_state_raw(0, MAGFILTER, POINT));
        let (r32, r32_surface) = rt_texture(&mut dev, Format::R32F);
        ok(dev.color_fill(r32_surface, None, 0xff80_0000));
        // One channel held (its bits on GL): D3D9 reads green and blue as 1.
        assert_eq!(ok(sample(&mut dev, r32)), 0xff80_ffff, "{name}");
    }
}

/// `Format::support` (`CheckDeviceFormat`) says what the device does with float32 formats:
/// render targets on every backend (as bits where the float format does not render), which
/// blend only where the float format renders and blends; lockable depth formats are
/// depth-stencil surfaces everywhere (their locks read through the pass on GL).
#[test]
fn gpu_format_support_follows_the_fallbacks() {
    let (_, dev) = devices().remove(0);
    let gpu = dev.gpu();
    let renders = gpu
        .format_usages(wgpu::TextureFormat::Rgba32Float)
        .contains(wgpu::TextureUsages::RENDER_ATTACHMENT);
    for format in [Format::R32F, Format::G32R32F, Format::A32B32G32R32F] {
        let support = format.support(gpu);
        assert!(support.render_target, "{format:?}: {support:?}");
        assert!(support.texture, "{format:?}: {support:?}");
        if !renders {
            assert!(
                !support.blend,
                "{format:?} held as bits blends: {support:?}"
            );
        }
    }
    for format in [Format::D16Lockable, Format::D32FLockable, Format::D24S8] {
        assert!(format.support(gpu).depth_stencil, "{format:?}");
    }
}

/// Draws stage 0 selecting `texture` over render target `back` (cleared to 0) and returns the
/// pixel at (1, 1): a quad of `fvf` (XYZ and one set of texture coordinates) whose corners'
/// coordinates are `coordinate(u, v)` for the corners' (u, v), (0, 0) to (1, 1).
fn draw_sampling(
    dev: &mut Device,
    back: SurfaceId,
    texture: TextureId,
    fvf: u32,
    coordinate: impl Fn(f32, f32) -> Vec<f32>,
) -> Result<u32, DeviceError> {
    ok(dev.set_render_target(0, Some(back)));
    ok(dev.clear(&[], clear(true, false, false), 0, 0.0, 0));
    // Stage 0 selects the texture.
    for (ty, value) in [(1, 2), (2, 2), (4, 2), (5, 2)] {
        ok(dev.set_texture_stage_state_raw(0, ty, value));
    }
    ok(dev.set_texture(0, Some(texture)));
    ok(dev.set_fvf(fvf));
    let mut v = Vec::new();
    let mut stride = 0;
    for (x, y, u, t) in [
        (-1.0, 1.0, 0.0, 0.0),
        (1.0, 1.0, 1.0, 0.0),
        (-1.0, -1.0, 0.0, 1.0),
        (1.0, -1.0, 1.0, 1.0),
    ] {
        let vertex = [vec![x, y, 0.5], coordinate(u, t)].concat();
        stride = 4 * vertex.len() as u32;
        v.extend(floats(&vertex));
    }
    dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &v, stride)?;
    ok(dev.set_texture(0, None));
    dev.pixel(1, 1)
}

/// The float copy a shader samples follows its texture: an AUTOGENMIPMAP A32B32G32R32F
/// texture (drawn into by the mipmap generation, so held as bits where forced) updated
/// between two draws reads its new floats in the second; a cube render-target texture's
/// copy samples as a cube (its +x face).
#[test]
fn gpu_float_copies_follow_updates_and_keep_the_cube() {
    for (name, mut dev) in devices() {
        let back = ok(dev.create_render_target(4, 4, Format::A8R8G8B8));
        for (state, value) in [(ZENABLE, 0), (LIGHTING, 0), (CULLMODE, 1)] {
            ok(dev.set_render_state_raw(state, value));
        }
        let texture = ok(dev.create_texture_with(&TextureDesc {
            kind: TextureKind::TwoD,
            width: 4,
            height: 4,
            depth: 1,
            levels: 0,
            format: Format::A32B32G32R32F,
            usage: Usage::AUTOGEN_MIPMAP,
            pool: Pool::Managed,
        }));
        for (texel, want) in [
            ([1.0f32, 0.0, 0.0, 1.0], 0xffff_0000u32),
            ([0.0, 0.0, 1.0, 1.0], 0xff00_00ff),
        ] {
            ok(dev.update_texture(texture, 0, &floats(&texel.repeat(16))));
            let got = ok(draw_sampling(
                &mut dev,
                back,
                texture,
                FVF_XYZ_TEX1,
                |u, v| vec![u, v],
            ));
            assert_eq!(got, want, "{name}");
        }
        let cube = match dev.create_texture_with(&TextureDesc {
            kind: TextureKind::Cube,
            width: 4,
            height: 4,
            depth: 1,
            levels: 1,
            format: Format::A32B32G32R32F,
            usage: Usage::RENDER_TARGET,
            pool: Pool::Default,
        }) {
            Ok(cube) => cube,
            // wgpu's GL backend cannot draw into a cube face: refused, saying so.
            Err(DeviceError::Unsupported { what, .. }) if what.contains("GL backend") => continue,
            Err(e) => panic!("{name}: {e}"),
        };
        for face in 0..6 {
            let surface = ok(dev.texture_surface(cube, face, 0));
            let colour = if face == 0 { 0xff20_4060 } else { 0xffff_ffff };
            ok(dev.set_render_target(0, Some(surface)));
            ok(dev.clear(&[], clear(true, false, false), colour, 0.0, 0));
        }
        // D3DFVF_TEXCOORDSIZE3(0): the direction (1, 0, 0).
        let got = ok(draw_sampling(
            &mut dev,
            back,
            cube,
            FVF_XYZ_TEX1 | 0x1_0000,
            |_, _| vec![1.0, 0.0, 0.0],
        ));
        assert_eq!(got, 0xff20_4060, "{name}");
    }
}
