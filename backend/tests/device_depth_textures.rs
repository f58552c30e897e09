//! Depth textures and the NULL render target, as Windows drivers draw them (Wine's
//! `intz_test`, `shadow_test`, `test_null_format`): a depth texture's level is a
//! depth-stencil surface drawn into, then sampled raw (INTZ, DF16; with AMD's Fetch4, DF24
//! and INTZ gathered) or as a shadow map
//! (D24S8: the comparison of the coordinate's z with the stored depth, filtered under linear
//! filtering), by ps_2_0, ps_1_1 and the fixed-function stage; a NULL target draws depth only.
//! GPU tests fail without an adapter.

#![allow(clippy::panic)] // a failing test says why

#[allow(dead_code)]
mod device_common;
use d3d9_backend::device::TextureKind;
use d3d9_backend::device::{
    ClearFlags, Device, Format, PixelShaderId, Pool, PrimitiveType, SurfaceId, TextureDesc,
    TextureId, Usage,
};
use d3d9_backend::DeviceError;
use device_common::{device, floats, ok, tokens};

const SIZE: u32 = 64;
const Z_ONLY: ClearFlags = ClearFlags {
    target: false,
    zbuffer: true,
    stencil: false,
};

/// `D3DRS_*`, `D3DSAMP_*` and `D3DTSS_*` numbers and values used here.
const ZENABLE: u32 = 7;
const ZWRITEENABLE: u32 = 14;
const ZFUNC: u32 = 23;
const CULLMODE: u32 = 22;
const LIGHTING: u32 = 137;
const CMP_LESS: u32 = 2;
const CMP_ALWAYS: u32 = 8;
const MAGFILTER: u32 = 5;
const MINFILTER: u32 = 6;
const ADDRESSU: u32 = 1;
const LINEAR: u32 = 2;
const CLAMP: u32 = 3;
const FVF_XYZ_DIFFUSE: u32 = 0x002 | 0x040;
/// D3DFVF_XYZ | D3DFVF_TEX1 | D3DFVF_TEXCOORDSIZE4(0).
const FVF_XYZ_TEX4: u32 = 0x002 | 0x100 | 0x2_0000;

fn depth_texture(dev: &mut Device, format: Format) -> Result<TextureId, DeviceError> {
    dev.create_texture_with(&depth_desc(format))
}

/// A one-level `SIZE` x `SIZE` depth texture of `format`.
fn depth_desc(format: Format) -> TextureDesc {
    TextureDesc {
        kind: TextureKind::TwoD,
        width: SIZE,
        height: SIZE,
        depth: 1,
        levels: 1,
        format,
        usage: Usage::DEPTH_STENCIL,
        pool: Pool::Default,
    }
}

/// Draws into depth-stencil surface `ds` (z test ALWAYS, writes on) quads of z `z0` on the
/// left half and `z1` on the right, or with `ramp` one quad whose z goes from 0 at the left
/// edge to 1 at the right; the colour goes to a 64 x 64 target.
fn draw_depth(dev: &mut Device, ds: SurfaceId, ramp: bool, (z0, z1): (f32, f32)) {
    let rt = ok(dev.create_render_target(SIZE, SIZE, Format::A8R8G8B8));
    ok(dev.set_render_target(0, Some(rt)));
    ok(dev.set_depth_stencil_surface(Some(ds)));
    for (state, value) in [
        (ZENABLE, 1),
        (ZWRITEENABLE, 1),
        (ZFUNC, CMP_ALWAYS),
        (CULLMODE, 1),
        (LIGHTING, 0),
    ] {
        ok(dev.set_render_state_raw(state, value));
    }
    ok(dev.clear(&[], Z_ONLY, 0, 0.0, 0));
    ok(dev.set_pixel_shader(None));
    ok(dev.set_fvf(FVF_XYZ_DIFFUSE));
    let quad = |x0: f32, x1: f32, za: f32, zb: f32| -> Vec<u8> {
        let mut v = Vec::new();
        for (x, y, z) in [(x0, 1.0, za), (x1, 1.0, zb), (x0, -1.0, za), (x1, -1.0, zb)] {
            v.extend(floats(&[x, y, z]));
            v.extend(0xff00_ff00u32.to_le_bytes());
        }
        v
    };
    let quads = match ramp {
        true => vec![quad(-1.0, 1.0, 0.0, 1.0)],
        false => vec![quad(-1.0, 0.0, z0, z0), quad(0.0, 1.0, z1, z1)],
    };
    for q in quads {
        ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &q, 16));
    }
    ok(dev.set_depth_stencil_surface(None));
}

/// Samples texture `id` on stage 0 over a 64 x 64 target with `ps` (`None`: the
/// fixed-function stage selecting the texture), at coordinates (u + `shift` texels, v, `r`,
/// 1); returns row 32 of the target.
fn sample_row(
    dev: &mut Device,
    id: TextureId,
    ps: Option<&str>,
    shift: f32,
    r: f32,
) -> Result<Vec<u32>, DeviceError> {
    let ps = ps.map(|text| ok(dev.create_pixel_shader(&tokens(text))));
    sample_row_with(dev, id, ps, shift, r)
}

/// [`sample_row`] with pixel shader `ps`, already made.
fn sample_row_with(
    dev: &mut Device,
    id: TextureId,
    ps: Option<PixelShaderId>,
    shift: f32,
    r: f32,
) -> Result<Vec<u32>, DeviceError> {
    let rt = ok(dev.create_render_target(SIZE, SIZE, Format::A8R8G8B8));
    ok(dev.set_render_target(0, Some(rt)));
    ok(dev.set_pixel_shader(ps));
    // Stage 0 selects the texture, stage 1 is off (the fixed-function stage).
    for (ty, value) in [(1, 2), (2, 2), (4, 2), (5, 2)] {
        ok(dev.set_texture_stage_state_raw(0, ty, value));
    }
    ok(dev.set_texture_stage_state_raw(1, 1, 1));
    ok(dev.set_texture(0, Some(id)));
    ok(dev.set_fvf(FVF_XYZ_TEX4));
    let s = shift / SIZE as f32;
    let quad = floats(&[
        -1.0,
        1.0,
        0.5,
        s,
        0.0,
        r,
        1.0, //
        1.0,
        1.0,
        0.5,
        1.0 + s,
        0.0,
        r,
        1.0, //
        -1.0,
        -1.0,
        0.5,
        s,
        1.0,
        r,
        1.0, //
        1.0,
        -1.0,
        0.5,
        1.0 + s,
        1.0,
        r,
        1.0,
    ]);
    dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &quad, 28)?;
    let data = ok(dev.get_render_target_data(rt));
    Ok((0..SIZE).map(|x| data.color(x, 32).unwrap_or(0)).collect())
}

fn channel(colour: u32, shift: u32) -> i32 {
    ((colour >> shift) & 0xff) as i32
}

fn close(a: u32, b: u32, tolerance: i32) -> bool {
    [0, 8, 16, 24]
        .iter()
        .all(|&s| (channel(a, s) - channel(b, s)).abs() <= tolerance)
}

const PS2: &str = "ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n";

#[test]
fn gpu_intz_and_df16_textures_are_drawn_into_then_read_raw() {
    let mut dev = device();
    for (format, expected) in [
        // INTZ: the depth in every channel (Wine's intz_test).
        (Format::Intz, (|d: u32| d * 0x0101_0101) as fn(u32) -> u32),
        // DF16: (d, 0, 0, 1) (test_fetch4 without Fetch4).
        (Format::Df16, |d: u32| 0xff00_0000 | d << 16),
    ] {
        let texture = ok(depth_texture(&mut dev, format));
        let ds = ok(dev.get_surface_level(texture, 0));
        draw_depth(&mut dev, ds, true, (0.0, 0.0));
        // Half a texel over: pixel x samples texel x's centre.
        let row = ok(sample_row(&mut dev, texture, Some(PS2), 0.5, 0.0));
        for x in [1, 16, 31, 48, 62] {
            // The ramp's depth at pixel x's centre (D3D9's pixel centres are integers:
            // pixel 0 is at the ramp's left edge).
            let d = (x as f32 / SIZE as f32 * 255.0).round() as u32;
            assert!(
                close(row[x], expected(d), 1),
                "{format:?} at x = {x}: {:#010x}, expected {:#010x}",
                row[x],
                expected(d)
            );
        }
    }
}

#[test]
fn gpu_d24s8_textures_are_shadow_maps_lit_shadowed_and_filtered() {
    let mut dev = device();
    let texture = ok(depth_texture(&mut dev, Format::D24S8));
    let ds = ok(dev.get_surface_level(texture, 0));
    // Depth 0.2 on the left half, 0.8 on the right; the reference is 0.5: shadowed (0) on
    // the left, lit (1) on the right, in every channel.
    draw_depth(&mut dev, ds, false, (0.2, 0.8));
    let programs = [
        ("ps_2_0", Some(PS2)),
        ("ps_1_1", Some("ps_1_1\ntex t0\nmov r0, t0\n")),
        ("ps_1_4", Some("ps_1_4\ntexld r0, t0\n")),
        ("fixed function", None),
    ];
    for (name, ps) in programs {
        ok(dev.set_sampler_state_raw(0, ADDRESSU, CLAMP));
        ok(dev.set_sampler_state_raw(0, MAGFILTER, 1));
        ok(dev.set_sampler_state_raw(0, MINFILTER, 1));
        // D3D9's pixel x has its centre at u = x / 64 (integer pixel centres): shifted by
        // 0.75 texels, it samples texel x + 0.25.
        let row = ok(sample_row(&mut dev, texture, ps, 0.75, 0.5));
        for (x, expected) in [
            (4, 0),
            (30, 0),
            (31, 0),
            (32, 0xffff_ffff),
            (60, 0xffff_ffff),
        ] {
            assert!(
                close(row[x], expected, 1),
                "{name}, point: x = {x}: {:#010x}",
                row[x]
            );
        }
        // Linear filtering: percentage-closer filtering of the four nearest comparisons;
        // pixel 31 takes 3/4 of texel 31 (shadowed) and 1/4 of texel 32 (lit). A texel a
        // pixel is magnified (LOD 0), so a linear MAGFILTER alone filters too.
        for min in [LINEAR, 1] {
            ok(dev.set_sampler_state_raw(0, MAGFILTER, LINEAR));
            ok(dev.set_sampler_state_raw(0, MINFILTER, min));
            let row = ok(sample_row(&mut dev, texture, ps, 0.75, 0.5));
            for (x, expected) in [(4, 0), (30, 0), (31, 0x4040_4040), (32, 0xffff_ffff)] {
                assert!(
                    close(row[x], expected, 2),
                    "{name}, linear (MINFILTER {min}): x = {x}: {:#010x}",
                    row[x]
                );
            }
        }
    }
    // A reference below both depths lights everything.
    let row = ok(sample_row(&mut dev, texture, Some(PS2), 0.75, 0.1));
    assert!(
        row[4..60].iter().all(|&c| close(c, 0xffff_ffff, 2)),
        "{row:x?}"
    );
    // One shader drawn with a narrow render-target texture (R16F, whose missing channels
    // the shader fills) and then with the shadow map compares in the second draw: the pair
    // is keyed by what its samplers read.
    let ps = ok(dev.create_pixel_shader(&tokens(PS2)));
    let colour = ok(dev.create_texture_with(&TextureDesc {
        format: Format::R16F,
        usage: Usage::RENDER_TARGET,
        ..depth_desc(Format::D24S8)
    }));
    ok(dev.set_sampler_state_raw(0, MAGFILTER, 1));
    ok(dev.set_sampler_state_raw(0, MINFILTER, 1));
    ok(sample_row_with(&mut dev, colour, Some(ps), 0.75, 0.5));
    let row = ok(sample_row_with(&mut dev, texture, Some(ps), 0.75, 0.5));
    assert_eq!((row[4], row[60]), (0, 0xffff_ffff), "{row:x?}");
}

#[test]
fn gpu_raw_depth_filters_linearly_in_the_shader() {
    let mut dev = device();
    let texture = ok(depth_texture(&mut dev, Format::Intz));
    let ds = ok(dev.get_surface_level(texture, 0));
    draw_depth(&mut dev, ds, false, (0.0, 1.0));
    ok(dev.set_sampler_state_raw(0, ADDRESSU, CLAMP));
    ok(dev.set_sampler_state_raw(0, MAGFILTER, LINEAR));
    // A texel a pixel is magnified (LOD 0): a linear MAGFILTER filters whatever MINFILTER.
    for (ps, min) in [(Some(PS2), LINEAR), (None, LINEAR), (Some(PS2), 1)] {
        ok(dev.set_sampler_state_raw(0, MINFILTER, min));
        let row = ok(sample_row(&mut dev, texture, ps, 0.75, 0.0));
        for (x, expected) in [(30, 0), (31, 0x4040_4040), (32, 0xffff_ffff)] {
            assert!(
                close(row[x], expected, 2),
                "{ps:?}, MINFILTER {min}: x = {x}: {:#010x}",
                row[x]
            );
        }
    }
}

#[test]
fn gpu_null_render_targets_draw_depth_only() {
    let mut dev = device();
    let null = ok(dev.create_render_target(SIZE, SIZE, Format::Null));
    let ds = ok(dev.create_depth_stencil_surface(SIZE, SIZE, Format::D24S8));
    ok(dev.set_depth_stencil_surface(Some(ds)));
    ok(dev.set_render_target(0, Some(null)));
    ok(dev.clear(&[], Z_ONLY, 0, 1.0, 0));
    // Depth 0.3 on the left half; the right half keeps the cleared 1.0.
    for (state, value) in [
        (ZENABLE, 1),
        (ZWRITEENABLE, 1),
        (ZFUNC, CMP_LESS),
        (CULLMODE, 1),
        (LIGHTING, 0),
    ] {
        ok(dev.set_render_state_raw(state, value));
    }
    ok(dev.set_fvf(FVF_XYZ_DIFFUSE));
    let quad = |x0: f32, x1: f32, z: f32, colour: u32| -> Vec<u8> {
        let mut v = Vec::new();
        for (x, y) in [(x0, 1.0), (x1, 1.0), (x0, -1.0), (x1, -1.0)] {
            v.extend(floats(&[x, y, z]));
            v.extend(colour.to_le_bytes());
        }
        v
    };
    ok(dev.draw_primitive_up(
        PrimitiveType::TriangleStrip,
        2,
        &quad(-1.0, 0.0, 0.3, 0xffff_0000),
        16,
    ));
    // A real target: a green quad at depth 0.5 passes only where the NULL pass wrote none.
    let rt = ok(dev.create_render_target(SIZE, SIZE, Format::X8R8G8B8));
    ok(dev.set_render_target(0, Some(rt)));
    ok(dev.clear(&[], ClearFlags::TARGET, 0x0000_00ff, 0.0, 0));
    ok(dev.draw_primitive_up(
        PrimitiveType::TriangleStrip,
        2,
        &quad(-1.0, 1.0, 0.5, 0xff00_ff00),
        16,
    ));
    let left = ok(dev.pixel(16, 32)) & 0xff_ffff;
    let right = ok(dev.pixel(48, 32)) & 0xff_ffff;
    assert_eq!((left, right), (0x0000_00ff, 0x0000_ff00));
    // A NULL target smaller than the depth-stencil surface: the draw reaches the viewport
    // past it (Wine's test_null_format), here the first 48 columns.
    let small_null = ok(dev.create_render_target(SIZE / 2, SIZE / 2, Format::Null));
    ok(dev.set_render_target(0, Some(small_null)));
    ok(dev.set_viewport(d3d9_backend::device::Viewport {
        x: 0,
        y: 0,
        width: SIZE,
        height: SIZE,
        min_z: 0.0,
        max_z: 1.0,
    }));
    ok(dev.clear(&[], Z_ONLY, 0, 1.0, 0));
    ok(dev.draw_primitive_up(
        PrimitiveType::TriangleStrip,
        2,
        &quad(-1.0, 0.5, 0.3, 0xffff_0000),
        16,
    ));
    ok(dev.set_render_target(0, Some(rt)));
    ok(dev.clear(&[], ClearFlags::TARGET, 0x0000_00ff, 0.0, 0));
    ok(dev.draw_primitive_up(
        PrimitiveType::TriangleStrip,
        2,
        &quad(-1.0, 1.0, 0.5, 0xff00_ff00),
        16,
    ));
    let (inside, outside) = (ok(dev.pixel(40, 32)), ok(dev.pixel(56, 32)));
    assert_eq!(
        (inside & 0xff_ffff, outside & 0xff_ffff),
        (0x0000_00ff, 0x0000_ff00)
    );
    // A depth-stencil surface smaller than the NULL target is drawn with.
    let small_ds = ok(dev.create_depth_stencil_surface(SIZE / 2, SIZE / 2, Format::D24S8));
    ok(dev.set_render_target(0, Some(null)));
    ok(dev.set_depth_stencil_surface(Some(small_ds)));
    ok(dev.draw_primitive_up(
        PrimitiveType::TriangleStrip,
        2,
        &quad(-1.0, 1.0, 0.5, 0xff00_ff00),
        16,
    ));
    // A NULL target without a depth-stencil surface draws nothing, and fails nothing.
    ok(dev.set_render_target(0, Some(null)));
    ok(dev.set_depth_stencil_surface(None));
    ok(dev.draw_primitive_up(
        PrimitiveType::TriangleStrip,
        2,
        &quad(-1.0, 1.0, 0.5, 0xff00_ff00),
        16,
    ));
    assert!(
        dev.create_texture(8, 8, 1, Format::Null).is_err(),
        "NULL is a render-target format"
    );
}

/// AMD's Fetch4 (`D3DSAMP_MIPMAPLODBIAS` = `GET4`) on DF24 and INTZ: texld returns the 2x2
/// depths from the coordinate's texel on, as (u1 v0, u0 v1, u1 v1, u0 v0) in (r, g, b, a)
/// (Wine's test_fetch4 on AMD); `GET1` turns it off again. The depth is a ramp along x, so
/// a read at texel x's centre gives a = g = d(x) and r = b = d(x + 1).
#[test]
fn gpu_fetch4_gathers_raw_depth() {
    const MIPMAPLODBIAS: u32 = 8;
    let (get4, get1) = (u32::from_le_bytes(*b"GET4"), u32::from_le_bytes(*b"GET1"));
    let mut dev = device();
    let depth = |x: usize| (x.min(SIZE as usize - 1) as f32 / SIZE as f32 * 255.0).round() as u32;
    for format in [Format::Df24, Format::Intz] {
        let texture = ok(depth_texture(&mut dev, format));
        let ds = ok(dev.get_surface_level(texture, 0));
        draw_depth(&mut dev, ds, true, (0.0, 0.0));
        ok(dev.set_sampler_state_raw(0, MIPMAPLODBIAS, get4));
        for (name, ps) in [("ps_2_0", Some(PS2)), ("fixed function", None)] {
            let row = ok(sample_row(&mut dev, texture, ps, 0.5, 0.0));
            for x in [1, 16, 31, 48, 62] {
                let (d0, d1) = (depth(x), depth(x + 1));
                let want = d0 << 24 | d1 << 16 | d0 << 8 | d1;
                assert!(
                    close(row[x], want, 1),
                    "{format:?}, {name}, x = {x}: {:#010x}, expected {want:#010x}",
                    row[x]
                );
            }
        }
        ok(dev.set_sampler_state_raw(0, MIPMAPLODBIAS, get1));
        let row = ok(sample_row(&mut dev, texture, Some(PS2), 0.5, 0.0));
        let d = depth(16);
        let want = match format {
            Format::Intz => d * 0x0101_0101,
            _ => 0xff00_0000 | d << 16,
        };
        assert!(
            close(row[16], want, 1),
            "{format:?} with GET1: {:#010x}",
            row[16]
        );
    }
}

#[test]
fn gpu_depth_textures_follow_windows_rules() {
    let mut dev = device();
    let support = |dev: &Device, f: Format| f.support(dev.gpu()).depth_texture;
    for format in [
        Format::D16,
        Format::D24X8,
        Format::D24S8,
        Format::D32,
        Format::Intz,
        Format::Df16,
        Format::Df24,
    ] {
        // DF16 and DF24 are offered with Fetch4, as AMD's drivers offer them.
        assert!(support(&dev, format), "{format:?}");
        let texture = ok(depth_texture(&mut dev, format));
        let level = ok(dev.get_surface_level(texture, 0));
        ok(dev.set_depth_stencil_surface(Some(level)));
        ok(dev.set_depth_stencil_surface(None));
    }
    // Lockable and colour formats are not depth textures; cube depth textures are not made.
    assert!(!support(&dev, Format::D16Lockable));
    assert!(!support(&dev, Format::A8R8G8B8));
    assert!(matches!(
        depth_texture(&mut dev, Format::D16Lockable),
        Err(DeviceError::Unsupported { .. })
    ));
    assert!(matches!(
        depth_texture(&mut dev, Format::A8R8G8B8),
        Err(DeviceError::InvalidCall { .. })
    ));
    let d24s8 = TextureDesc {
        kind: TextureKind::TwoD,
        width: 8,
        height: 8,
        depth: 1,
        levels: 1,
        format: Format::D24S8,
        usage: Usage::DEPTH_STENCIL,
        pool: Pool::Default,
    };
    let cube = dev.create_texture_with(&TextureDesc {
        kind: TextureKind::Cube,
        ..d24s8
    });
    assert!(
        matches!(cube, Err(DeviceError::Unsupported { .. })),
        "{cube:?}"
    );
    // D3DUSAGE_DEPTHSTENCIL with RENDERTARGET, DYNAMIC or AUTOGENMIPMAP is refused.
    for other in [Usage::RENDER_TARGET, Usage::DYNAMIC, Usage::AUTOGEN_MIPMAP] {
        let usage = Usage::DEPTH_STENCIL | other;
        let made = dev.create_texture_with(&TextureDesc { usage, ..d24s8 });
        assert!(
            matches!(made, Err(DeviceError::InvalidCall { .. })),
            "{other:?}: {made:?}"
        );
    }
    // Levels 0 is the whole chain of an 8 x 8 texture (4), as is 4; 5 is one too many.
    let chain = ok(dev.create_texture_with(&TextureDesc { levels: 0, ..d24s8 }));
    assert_eq!(dev.texture_info(chain).map(|i| i.levels), Some(4));
    ok(dev.create_texture_with(&TextureDesc { levels: 4, ..d24s8 }));
    let five = dev.create_texture_with(&TextureDesc { levels: 5, ..d24s8 });
    assert!(
        matches!(five, Err(DeviceError::InvalidCall { .. })),
        "{five:?}"
    );
    // Sampling the depth texture the pass draws into is refused, never drawn wrong.
    let texture = ok(depth_texture(&mut dev, Format::D24S8));
    let level = ok(dev.get_surface_level(texture, 0));
    ok(dev.set_depth_stencil_surface(Some(level)));
    let refused = sample_row(&mut dev, texture, Some(PS2), 0.0, 0.5);
    let Err(DeviceError::Unsupported { what, .. }) = refused else {
        panic!("{refused:?}");
    };
    assert!(what.contains("depth-stencil surface drawn into"), "{what}");
}

/// The sampler states a depth texture's reads cannot take are refused, never drawn wrong: a
/// LOD bias where the texture has more than one level, and an address mode done in the
/// shader (MIRRORONCE); a one-level texture reads the same at any bias and draws.
#[test]
fn gpu_depth_reads_refuse_the_fixups_they_cannot_take() {
    use d3d9_backend::device::{MipFilter, SamplerState, TextureAddress};
    let mut dev = device();
    let one = ok(depth_texture(&mut dev, Format::D24S8));
    let two = ok(dev.create_texture_with(&TextureDesc {
        kind: TextureKind::TwoD,
        width: SIZE,
        height: SIZE,
        depth: 1,
        levels: 2,
        format: Format::D24S8,
        usage: Usage::DEPTH_STENCIL,
        pool: Pool::Default,
    }));
    let refused = |result: Result<Vec<u32>, DeviceError>, what: &str| match result {
        Err(DeviceError::Unsupported { what: why, .. }) => {
            assert!(why.contains(what), "{why}");
        }
        other => panic!("{what}: {other:?}"),
    };
    ok(dev.set_sampler_state(0, SamplerState::MipFilter(MipFilter::Point)));
    ok(dev.set_sampler_state(0, SamplerState::MipMapLodBias(1.0)));
    ok(sample_row(&mut dev, one, Some(PS2), 0.0, 0.5));
    refused(
        sample_row(&mut dev, two, Some(PS2), 0.0, 0.5),
        "D3DSAMP_MIPMAPLODBIAS",
    );
    ok(dev.set_sampler_state(0, SamplerState::MipMapLodBias(0.0)));
    ok(sample_row(&mut dev, two, Some(PS2), 0.0, 0.5));
    ok(dev.set_sampler_state(0, SamplerState::AddressU(TextureAddress::MirrorOnce)));
    refused(
        sample_row(&mut dev, one, Some(PS2), 0.0, 0.5),
        "D3DTADDRESS_MIRRORONCE",
    );
}
