//! Multisampled render targets and depth-stencil surfaces: the types an adapter has
//! (`Format::multisample_quality_levels`, D3D9 types served by the adapter's next sample count
//! at or above them), drawing and clearing into them, `D3DRS_MULTISAMPLEMASK`, resolves by
//! `StretchRect` (whole, scaled, into and between multisampled surfaces), depth copied out of a
//! multisampled depth-stencil surface, and what D3D9 refuses (`GetRenderTargetData` of a
//! multisampled target, locks). On wgpu's GL backend the sample mask and a pass reading
//! multisampled depth are refused as `Unsupported` (multisampled images are renderbuffers
//! there, with no sample mask): the tests check the refusal there. GPU tests fail without an
//! adapter.

#![allow(clippy::panic)] // a failing test says why

#[allow(dead_code)]
mod device_common;
use d3d9_backend::device::{
    ClearFlags, Device, Filter, Format, LockFlags, MultiSample, Pool, PrimitiveType, SurfaceId,
    NONMASKABLE,
};
use d3d9_backend::DeviceError;
use device_common::{device, floats, ok};

/// `D3DRS_*` numbers used here.
const LIGHTING: u32 = 137;
const CULLMODE: u32 = 22;
const ZENABLE: u32 = 7;
const ZFUNC: u32 = 23;
const MULTISAMPLEMASK: u32 = 162;
const STENCILENABLE: u32 = 52;
const STENCILFUNC: u32 = 56;
const STENCILREF: u32 = 57;
/// `D3DFVF_XYZ | D3DFVF_DIFFUSE`.
const XYZ_DIFFUSE: u32 = 0x002 | 0x040;

const TARGET: ClearFlags = ClearFlags {
    target: true,
    zbuffer: false,
    stencil: false,
};
const TARGET_Z: ClearFlags = ClearFlags {
    target: true,
    zbuffer: true,
    stencil: false,
};

/// The adapters these tests run on multisample: lavapipe and llvmpipe's GL (4 samples).
fn assert_multisamples(dev: &Device) {
    let levels = Format::A8R8G8B8.multisample_quality_levels(dev.gpu(), 2);
    assert!(levels.is_some(), "{:?}", dev.gpu().adapter_info());
}

/// wgpu's GL backend: no sample mask, no multisampled depth read by a pass.
fn gl(dev: &Device) -> bool {
    dev.gpu().adapter_info().backend == wgpu::Backend::Gl
}

/// A vertex of `D3DFVF_XYZ | D3DFVF_DIFFUSE`.
fn vertex(x: f32, y: f32, z: f32, colour: u32) -> Vec<u8> {
    let mut v = floats(&[x, y, z]);
    v.extend(colour.to_le_bytes());
    v
}

/// Draws a triangle strip of `D3DFVF_XYZ | D3DFVF_DIFFUSE` vertices.
fn draw(dev: &mut Device, vertices: &[(f32, f32, f32)], colour: u32) {
    ok(dev.set_render_state_raw(LIGHTING, 0));
    ok(dev.set_render_state_raw(CULLMODE, 1));
    ok(dev.set_fvf(XYZ_DIFFUSE));
    let data: Vec<u8> = vertices
        .iter()
        .flat_map(|&(x, y, z)| vertex(x, y, z, colour))
        .collect();
    let count = vertices.len() as u32 - 2;
    ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, count, &data, 16));
}

/// `source` resolved into a new 64 x 64 A8R8G8B8 target; its texels.
fn resolved(dev: &mut Device, source: SurfaceId) -> d3d9_backend::device::SurfaceData {
    let rt = ok(dev.create_render_target(64, 64, Format::A8R8G8B8));
    ok(dev.stretch_rect(source, None, rt, None, Filter::Point));
    ok(dev.get_render_target_data(rt))
}

fn ms_target(dev: &mut Device, kind: u32) -> SurfaceId {
    let ms = MultiSample::samples(kind);
    ok(dev.create_render_target_multisampled(64, 64, Format::A8R8G8B8, ms, false))
}

#[test]
fn gpu_multisample_types_follow_the_adapter() {
    let dev = device();
    let gpu = dev.gpu();
    assert_multisamples(&dev);
    assert_eq!(Format::A8R8G8B8.multisample_quality_levels(gpu, 0), Some(1));
    // Lockable depth formats and block-compressed formats are never multisampled (DXVK).
    assert_eq!(Format::D16Lockable.multisample_quality_levels(gpu, 2), None);
    assert_eq!(Format::Dxt1.multisample_quality_levels(gpu, 2), None);
    assert_eq!(Format::A8R8G8B8.multisample_quality_levels(gpu, 17), None);
    for format in [
        Format::A8R8G8B8,
        Format::X8R8G8B8,
        Format::D24S8,
        Format::D24X8,
    ] {
        // WebGPU guarantees 4 samples: 2, 3 and 4 are served.
        for kind in 2..=4 {
            assert_eq!(format.multisample_quality_levels(gpu, kind), Some(1));
        }
        let levels = format.multisample_quality_levels(gpu, NONMASKABLE);
        assert!(levels.is_some_and(|l| l >= 1), "{format:?}: {levels:?}");
    }
    // NONMASKABLE has a quality level per sample count above 1 that every surface format
    // of the device has (a single sample is not multisampling).
    let above_one = |f| {
        gpu.sample_counts(f)
            .into_iter()
            .filter(|&n| n > 1)
            .collect()
    };
    let mut shared: Vec<u32> = above_one(wgpu::TextureFormat::Bgra8Unorm);
    for f in [
        wgpu::TextureFormat::Rgba8Unorm,
        wgpu::TextureFormat::Depth32Float,
        wgpu::TextureFormat::Depth24PlusStencil8,
    ] {
        let theirs: Vec<u32> = above_one(f);
        shared.retain(|n| theirs.contains(n));
    }
    let levels = Format::Null.multisample_quality_levels(gpu, NONMASKABLE);
    assert_eq!(levels, Some(shared.len() as u32), "{shared:?}");
    // Surfaces take each NONMASKABLE level, and quality 0 only of the counted types.
    let mut dev = dev;
    let target = |dev: &mut Device, kind, quality| {
        let ms = MultiSample { kind, quality };
        dev.create_render_target_multisampled(8, 8, Format::A8R8G8B8, ms, false)
    };
    for quality in 0..shared.len() as u32 {
        ok(target(&mut dev, NONMASKABLE, quality));
    }
    assert!(target(&mut dev, NONMASKABLE, shared.len() as u32).is_err());
    ok(target(&mut dev, 2, 0));
    assert!(target(&mut dev, 2, 1).is_err());
}

#[test]
fn gpu_multisampled_edges_resolve_to_a_blend() {
    let mut dev = device();
    assert_multisamples(&dev);
    let rt = ms_target(&mut dev, 4);
    ok(dev.set_render_target(0, Some(rt)));
    ok(dev.clear(&[], TARGET, 0xff00_0000, 1.0, 0));
    // A triangle whose long edge crosses pixel centres diagonally.
    draw(
        &mut dev,
        &[(-1.0, -1.0, 0.5), (-1.0, 1.0, 0.5), (1.0, 1.0, 0.5)],
        0xffff_ffff,
    );
    let data = resolved(&mut dev, rt);
    let at = |x, y| data.color(x, y).unwrap_or_else(|| panic!("({x}, {y})"));
    assert_eq!(at(60, 60), 0xff00_0000, "right of the edge");
    assert_eq!(at(4, 4), 0xffff_ffff, "left of the edge");
    // Along the diagonal pixels are partly covered: their resolve lies in between.
    let partial = (0..64 * 64).filter(|&i| {
        let c = at(i % 64, i / 64) & 0xff;
        c != 0 && c != 0xff
    });
    let count = partial.count();
    assert!((32..=192).contains(&count), "{count} partly covered pixels");
}

#[test]
fn gpu_the_multisample_mask_keeps_its_fraction_of_coverage() {
    let mut dev = device();
    assert_multisamples(&dev);
    // Wine's test_sample_mask: D3D9's sample 0 of 2 (mask 0x5) blends white half over red.
    let rt = ms_target(&mut dev, 2);
    ok(dev.set_render_target(0, Some(rt)));
    ok(dev.set_render_state_raw(MULTISAMPLEMASK, 0x5));
    ok(dev.clear(&[], TARGET, 0xffff_0000, 1.0, 0));
    let quad = [
        (-1.0, -1.0, 0.1),
        (-1.0, 1.0, 0.1),
        (1.0, -1.0, 0.1),
        (1.0, 1.0, 0.1),
    ];
    if gl(&dev) {
        // Refused where the mask cannot be applied, never drawn into every sample.
        let verts: Vec<u8> = quad
            .iter()
            .flat_map(|&(x, y, z)| vertex(x, y, z, !0))
            .collect();
        ok(dev.set_fvf(XYZ_DIFFUSE));
        let drawn = dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &verts, 16);
        assert!(
            matches!(&drawn, Err(DeviceError::Unsupported { what, .. }) if what.contains("MULTISAMPLEMASK")),
            "{drawn:?}"
        );
        return;
    }
    draw(&mut dev, &quad, 0xffff_ffff);
    let colour = resolved(&mut dev, rt).color(32, 32);
    let close = |c: u32| (0x7f..=0x80).contains(&((c >> 8) & 0xff));
    assert!(colour.is_some_and(close), "{colour:x?}");
    // No samples: nothing is drawn.
    ok(dev.set_render_state_raw(MULTISAMPLEMASK, 0));
    ok(dev.clear(&[], TARGET, 0xffff_0000, 1.0, 0));
    draw(&mut dev, &quad, 0xffff_ffff);
    assert_eq!(resolved(&mut dev, rt).color(32, 32), Some(0xffff_0000));
}

#[test]
fn gpu_stretch_rect_into_and_out_of_multisampled_surfaces() {
    let mut dev = device();
    assert_multisamples(&dev);
    let (ms, ms2) = (ms_target(&mut dev, 2), ms_target(&mut dev, 2));
    let rt = ok(dev.create_render_target(64, 64, Format::A8R8G8B8));
    ok(dev.set_render_target(0, Some(rt)));
    ok(dev.clear(&[], TARGET, 0xff12_3456, 1.0, 0));
    // A single-sampled target into a multisampled one, then out of it scaled, and between
    // multisampled ones.
    ok(dev.stretch_rect(rt, None, ms, None, Filter::Point));
    ok(dev.clear(&[], TARGET, 0xffff_ffff, 1.0, 0));
    let corner = d3d9_backend::device::Rect {
        left: 0,
        top: 0,
        right: 32,
        bottom: 32,
    };
    ok(dev.stretch_rect(ms, Some(corner), ms2, None, Filter::Linear));
    ok(dev.stretch_rect(ms2, None, rt, Some(corner), Filter::Point));
    let data = ok(dev.get_render_target_data(rt));
    assert_eq!(data.color(16, 16), Some(0xff12_3456));
    assert_eq!(data.color(48, 48), Some(0xffff_ffff));
    // What D3D9 refuses: a multisampled source of GetRenderTargetData, and locks.
    let sysmem = ok(dev.create_offscreen_plain_surface(64, 64, Format::A8R8G8B8, Pool::SystemMem));
    let got = dev.get_render_target_data_into(ms, sysmem);
    assert!(
        matches!(got, Err(DeviceError::InvalidCall { .. })),
        "{got:?}"
    );
    let lockable = MultiSample::samples(2);
    let locked =
        ok(dev.create_render_target_multisampled(64, 64, Format::A8R8G8B8, lockable, true));
    let lock = dev.lock_surface(locked, None, LockFlags::default());
    assert!(
        matches!(lock, Err(DeviceError::InvalidCall { .. })),
        "{lock:?}"
    );
    let info = dev.surface_info(ms).map(|i| i.multisample);
    assert_eq!(info, Some(MultiSample::samples(2)), "GetDesc's type");
}

#[test]
fn gpu_multisampled_depth_copies_out_and_mismatched_depth_is_not_drawn_with() {
    let mut dev = device();
    assert_multisamples(&dev);
    let ms = MultiSample::samples(2);
    let rt = ms_target(&mut dev, 2);
    let ds = ok(dev.create_depth_stencil_surface_multisampled(64, 64, Format::D24S8, ms));
    ok(dev.set_render_target(0, Some(rt)));
    ok(dev.set_depth_stencil_surface(Some(ds)));
    ok(dev.set_render_state_raw(ZENABLE, 1));
    ok(dev.set_render_state_raw(ZFUNC, 4)); // LESSEQUAL
    let all = ClearFlags {
        stencil: true,
        ..TARGET_Z
    };
    ok(dev.clear(&[], all, 0xff00_0000, 1.0, 0x5a));
    // Depth 0.5 on the left half.
    let left = [
        (-1.0, -1.0, 0.5),
        (-1.0, 1.0, 0.5),
        (0.0, -1.0, 0.5),
        (0.0, 1.0, 0.5),
    ];
    draw(&mut dev, &left, 0xffff_0000);
    // Its depth is not read back as it is (a copy out of it is: below).
    let read = dev.get_render_target_data(ds);
    assert!(
        matches!(&read, Err(DeviceError::Unsupported { what, .. }) if what.contains("multisampled")),
        "{:?}",
        read.map(|d| d.format)
    );
    // Copied into a single-sampled depth-stencil surface and drawn behind with it.
    let single_rt = ok(dev.create_render_target(64, 64, Format::A8R8G8B8));
    let single_ds = ok(dev.create_depth_stencil_surface(64, 64, Format::D24S8));
    if gl(&dev) {
        // GL holds multisampled images as renderbuffers: no pass reads their depth.
        let copied = dev.stretch_rect(ds, None, single_ds, None, Filter::Point);
        assert!(
            matches!(copied, Err(DeviceError::Unsupported { .. })),
            "{copied:?}"
        );
        return;
    }
    ok(dev.stretch_rect(ds, None, single_ds, None, Filter::Point));
    ok(dev.set_render_target(0, Some(single_rt)));
    ok(dev.set_depth_stencil_surface(Some(single_ds)));
    ok(dev.clear(&[], TARGET, 0xff00_0000, 1.0, 0));
    let whole = [
        (-1.0, -1.0, 0.7),
        (-1.0, 1.0, 0.7),
        (1.0, -1.0, 0.7),
        (1.0, 1.0, 0.7),
    ];
    draw(&mut dev, &whole, 0xff00_00ff);
    let data = ok(dev.get_render_target_data(single_rt));
    assert_eq!(
        data.color(16, 32),
        Some(0xff00_0000),
        "hidden by the copied depth"
    );
    assert_eq!(
        data.color(48, 32),
        Some(0xff00_00ff),
        "in front of the cleared depth"
    );
    // The stencil came too, every bit of it: drawn where it equals 0x5a, not 0x5b.
    ok(dev.set_render_state_raw(ZENABLE, 0));
    ok(dev.set_render_state_raw(STENCILENABLE, 1));
    ok(dev.set_render_state_raw(STENCILFUNC, 3)); // EQUAL
    for (reference, colour) in [(0x5b, 0xff00_00ff), (0x5a, 0xff00_ff00)] {
        ok(dev.clear(&[], TARGET, 0xff00_00ff, 1.0, 0));
        ok(dev.set_render_state_raw(STENCILREF, reference));
        draw(&mut dev, &whole, 0xff00_ff00);
        let data = ok(dev.get_render_target_data(single_rt));
        assert_eq!(data.color(48, 32), Some(colour), "reference {reference:#x}");
    }
    ok(dev.set_render_state_raw(STENCILENABLE, 0));
    ok(dev.set_render_state_raw(ZENABLE, 1));
    // A single-sampled target with the multisampled depth-stencil surface: drawn without it.
    ok(dev.set_depth_stencil_surface(Some(ds)));
    ok(dev.clear(&[], TARGET, 0xff00_0000, 1.0, 0));
    draw(&mut dev, &whole, 0xff00_00ff);
    let data = ok(dev.get_render_target_data(single_rt));
    assert_eq!(data.color(16, 32), Some(0xff00_00ff));
}

/// `D3DRS_*` numbers of the alpha-to-coverage hacks and the alpha test.
const ALPHATESTENABLE: u32 = 15;
const ALPHAREF: u32 = 24;
const ALPHAFUNC: u32 = 25;
const POINTSIZE: u32 = 154;
const ADAPTIVETESS_Y: u32 = 181;
const ATOC: u32 = u32::from_le_bytes(*b"ATOC");
const A2M1: u32 = u32::from_le_bytes(*b"A2M1");
const A2M0: u32 = u32::from_le_bytes(*b"A2M0");

/// The mean red channel of the 32 x 32 pixels in the middle of `rt` resolved, after a quad
/// over the whole of it (cleared to transparent black) in red with alpha `alpha`.
fn red_after_quad(dev: &mut Device, rt: SurfaceId, alpha: u32) -> u32 {
    // Stage 0 passes the vertex colour and alpha through (no texture).
    for (ty, value) in [(1, 2), (2, 0), (4, 2), (5, 0)] {
        ok(dev.set_texture_stage_state_raw(0, ty, value));
    }
    ok(dev.clear(&[], TARGET, 0, 1.0, 0));
    let quad = [
        (-1.0, -1.0, 0.1),
        (-1.0, 1.0, 0.1),
        (1.0, -1.0, 0.1),
        (1.0, 1.0, 0.1),
    ];
    draw(dev, &quad, (alpha << 24) | 0x00ff_0000);
    let data = if dev.surface_info(rt).is_some_and(|i| i.multisample.kind > 1) {
        resolved(dev, rt)
    } else {
        ok(dev.get_render_target_data(rt))
    };
    let mut sum = 0;
    for y in 16..48 {
        for x in 16..48 {
            let c = data.color(x, y).unwrap_or_else(|| panic!("({x}, {y})"));
            sum += (c >> 16) & 0xff;
        }
    }
    sum / (32 * 32)
}

/// Alpha 0x80 (0.502) covers some but not all of the 4 samples. How many, and which, is the
/// implementation's: Vulkan and GL only ask that coverage grow with alpha (hardware dithers
/// the pattern across pixels), and 0.5 lies on a step of 4 samples. lavapipe and llvmpipe
/// cover sample `s` where `alpha > s / 4`: 3 of 4 for alpha 0x80 (a resolve of 0xbf), 2 for
/// 0x7f. So the mean over the block must show partial coverage, 1 to 3 samples of 4
/// (0x3f..=0xc0): full (0xff) or no coverage (0) fails.
fn half_covered(red: u32) -> bool {
    (0x3f..=0xc0).contains(&red)
}

#[test]
fn gpu_alpha_to_coverage_through_the_vendor_hacks() {
    let mut dev = device();
    assert_multisamples(&dev);
    let rt = ms_target(&mut dev, 4);
    ok(dev.set_render_target(0, Some(rt)));
    // Blending stays off: only coverage can halve the colour.
    assert_eq!(red_after_quad(&mut dev, rt, 0x80), 0xff, "no hack set");

    // NVIDIA's: ADAPTIVETESS_Y = ATOC while the alpha test is on. The alpha test itself is
    // off while alpha to coverage is on (DXVK): GREATER 0xc0 would discard alpha 0x80.
    ok(dev.set_render_state_raw(ADAPTIVETESS_Y, ATOC));
    assert_eq!(ok(dev.render_state_raw(ADAPTIVETESS_Y)), ATOC);
    assert_eq!(
        red_after_quad(&mut dev, rt, 0x80),
        0xff,
        "ATOC without the alpha test (NVIDIA's hack needs it on)"
    );
    ok(dev.set_render_state_raw(ALPHATESTENABLE, 1));
    ok(dev.set_render_state_raw(ALPHAFUNC, 5)); // GREATER
    ok(dev.set_render_state_raw(ALPHAREF, 0xc0));
    let red = red_after_quad(&mut dev, rt, 0x80);
    assert!(half_covered(red), "ATOC, alpha 0x80: red {red:#x}");
    assert_eq!(red_after_quad(&mut dev, rt, 0xff), 0xff, "ATOC, alpha 0xff");
    assert_eq!(red_after_quad(&mut dev, rt, 0), 0, "ATOC, alpha 0");
    // D3DFMT_UNKNOWN turns it off: the alpha test is back (alpha 0x80 fails GREATER 0xc0).
    ok(dev.set_render_state_raw(ADAPTIVETESS_Y, 0));
    assert_eq!(red_after_quad(&mut dev, rt, 0x80), 0, "alpha tested again");
    ok(dev.set_render_state_raw(ALPHATESTENABLE, 0));
    assert_eq!(red_after_quad(&mut dev, rt, 0x80), 0xff, "ATOC off");

    // AMD's: POINTSIZE = A2M1 (no alpha test needed), A2M0 off. The point size keeps its
    // value through both.
    ok(dev.set_render_state_raw(POINTSIZE, 4.0f32.to_bits()));
    ok(dev.set_render_state_raw(POINTSIZE, A2M1));
    assert_eq!(ok(dev.render_state_raw(POINTSIZE)), A2M1);
    assert_eq!(dev.render_states().point_size, 4.0);
    let red = red_after_quad(&mut dev, rt, 0x80);
    assert!(half_covered(red), "A2M1, alpha 0x80: red {red:#x}");
    assert_eq!(red_after_quad(&mut dev, rt, 0xff), 0xff, "A2M1, alpha 0xff");
    ok(dev.set_render_state_raw(POINTSIZE, A2M0));
    assert_eq!(dev.render_states().point_size, 4.0);
    assert_eq!(red_after_quad(&mut dev, rt, 0x80), 0xff, "A2M0");

    // A single-sampled target has no samples to cover: drawn whole.
    ok(dev.set_render_state_raw(POINTSIZE, A2M1));
    let single = ok(dev.create_render_target(64, 64, Format::A8R8G8B8));
    ok(dev.set_render_target(0, Some(single)));
    assert_eq!(
        red_after_quad(&mut dev, single, 0x80),
        0xff,
        "single-sampled"
    );
    // There NVIDIA's hack leaves the alpha test on: alpha 0x80 fails GREATER 0xc0.
    ok(dev.set_render_state_raw(POINTSIZE, A2M0));
    ok(dev.set_render_state_raw(ADAPTIVETESS_Y, ATOC));
    ok(dev.set_render_state_raw(ALPHATESTENABLE, 1));
    let red = red_after_quad(&mut dev, single, 0x80);
    assert_eq!(red, 0, "single-sampled, ATOC: alpha tested");
    ok(dev.set_render_state_raw(ALPHATESTENABLE, 0));
    ok(dev.set_render_state_raw(ADAPTIVETESS_Y, 0));
    ok(dev.set_render_state_raw(POINTSIZE, A2M1));

    // Points drawn while POINTSIZE holds A2M1 have the size set before it (4 pixels).
    ok(dev.clear(&[], TARGET, 0, 1.0, 0));
    let point = vertex(0.0, 0.0, 0.1, 0xffff_0000);
    ok(dev.draw_primitive_up(PrimitiveType::PointList, 1, &point, 16));
    let data = ok(dev.get_render_target_data(single));
    let red = |x, y| data.color(x, y).map(|c| (c >> 16) & 0xff);
    assert_eq!(
        (red(30, 30), red(33, 33)),
        (Some(0xff), Some(0xff)),
        "in the point"
    );
    assert_eq!(
        (red(28, 28), red(35, 35)),
        (Some(0), Some(0)),
        "outside the point"
    );
}
