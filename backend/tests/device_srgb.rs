//! sRGB reads (`D3DSAMP_SRGBTEXTURE`) and writes (`D3DRS_SRGBWRITEENABLE`), as Wine's
//! `srgbtexture_test`, `clear_test` and `srgbwrite_format_test` show Windows doing them: bit
//! 0 of the sampler state decodes 8-bit texels to linear (0x80 reads 0x37), writes and clears
//! encode (0.5 writes 0xbc, a clear of 0x7f 0xbb), blending happens in linear, and formats
//! without sRGB (L8 read, R5G6B5 written) ignore the states. Where the adapter cannot view a
//! texture in its sRGB twin (wgpu's GL backend: no `VIEW_FORMATS`) the draws that need one
//! are `Unsupported`, naming the flag, and `Format::support` says so. GPU tests fail without
//! an adapter.

#![allow(clippy::panic)] // a failing test says why

#[allow(dead_code)]
mod device_common;
use d3d9_backend::device::{ClearFlags, Device, Format, PrimitiveType, TextureId};
use d3d9_backend::DeviceError;
use device_common::{device, floats, ok, tokens};

/// `D3DRS_*`, `D3DSAMP_*` and `D3DTSS_*` numbers used here.
const SRGBWRITEENABLE: u32 = 194;
const SRGBTEXTURE: u32 = 11;
const CULLMODE: u32 = 22;
const LIGHTING: u32 = 137;
const TEXTUREFACTOR: u32 = 60;
const ALPHABLENDENABLE: u32 = 27;
const SRCBLEND: u32 = 19;
const DESTBLEND: u32 = 20;
const BLEND_ONE: u32 = 2;

/// sRGB's decoding and encoding (IEC 61966-2-1) of 8-bit values.
fn decode(v: u8) -> f64 {
    let c = f64::from(v) / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn encode(l: f64) -> u32 {
    let c = if l <= 0.003_130_8 {
        l * 12.92
    } else {
        1.055 * l.powf(1.0 / 2.4) - 0.055
    };
    (c.clamp(0.0, 1.0) * 255.0).round() as u32
}

fn grey(v: u32) -> u32 {
    v * 0x01_0101
}

fn close(a: u32, b: u32, tolerance: i32) -> bool {
    [0, 8, 16, 24]
        .iter()
        .all(|&s| (((a >> s) & 0xff) as i32 - ((b >> s) & 0xff) as i32).abs() <= tolerance)
}

/// Whether the adapter has sRGB views (`Format::support` tells): every backend but wgpu's
/// GL one.
fn has_srgb_views(dev: &Device) -> bool {
    let views = Format::A8R8G8B8.support(dev.gpu()).srgb_read;
    let gl = dev.gpu().adapter_info().backend == wgpu::Backend::Gl;
    assert_eq!(views, !gl, "sRGB views on {:?}", dev.gpu().adapter_info());
    views
}

/// `r` is `Unsupported`, naming `VIEW_FORMATS`.
fn refused_for_views<T: std::fmt::Debug>(r: Result<T, DeviceError>) {
    match r {
        Err(DeviceError::Unsupported { what, .. }) if what.contains("VIEW_FORMATS") => {}
        other => panic!("expected Unsupported naming VIEW_FORMATS, got {other:?}"),
    }
}

/// An 8 x 8 managed texture of `format` whose every texel has the bytes `texel`.
fn texture(dev: &mut Device, format: Format, texel: &[u8]) -> TextureId {
    let id = ok(dev.create_texture(8, 8, 1, format));
    ok(dev.update_texture(id, 0, &texel.repeat(64)));
    id
}

/// Sets a new ps_2_0 `texld` of texture `id` to draw, culling off; the quad over the target.
fn texture_draw(dev: &mut Device, id: TextureId) -> Vec<u8> {
    let ps = ok(dev.create_pixel_shader(&tokens(
        "ps_2_0\ndcl t0.xy\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n",
    )));
    ok(dev.set_pixel_shader(Some(ps)));
    ok(dev.set_texture(0, Some(id)));
    ok(dev.set_render_state_raw(CULLMODE, 1));
    // D3DFVF_XYZ | D3DFVF_TEX1
    ok(dev.set_fvf(0x002 | 0x100));
    floats(&[
        -1.0, -1.0, 0.5, 0.0, 1.0, //
        -1.0, 1.0, 0.5, 0.0, 0.0, //
        1.0, -1.0, 0.5, 1.0, 1.0, //
        1.0, 1.0, 0.5, 1.0, 0.0,
    ])
}

/// Texels of 0x80 (alpha 0x80) read through the sRGB view: the colour decoded, not the
/// alpha.
fn decoded_0x80() -> u32 {
    0x8000_0000 | grey(encode_linear(decode(0x80)))
}

/// Draws texture `id` over a 64 x 64 A8R8G8B8 target with a ps_2_0 `texld`; the centre.
fn sample(dev: &mut Device, id: TextureId) -> Result<u32, DeviceError> {
    let rt = ok(dev.create_render_target(64, 64, Format::A8R8G8B8));
    ok(dev.set_render_target(0, Some(rt)));
    let quad = texture_draw(dev, id);
    dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &quad, 20)?;
    Ok(ok(dev.pixel(32, 32)))
}

#[test]
fn gpu_srgb_textures_decode_to_linear_by_bit_0_of_the_sampler_state() {
    let mut dev = device();
    let views = has_srgb_views(&dev);
    let srgb = texture(&mut dev, Format::A8R8G8B8, &[0x80; 4]);
    // 0x80 decodes to 0x37; alpha is never decoded.
    let decoded = decoded_0x80();
    assert_eq!(decoded, 0x8037_3737);
    for (value, expected) in [
        (0, 0x8080_8080),
        (1, decoded),
        (2, 0x8080_8080),
        (3, decoded),
        (0x7e41_882a, 0x8080_8080),
        (0, 0x8080_8080),
    ] {
        ok(dev.set_sampler_state_raw(0, SRGBTEXTURE, value));
        assert_eq!(ok(dev.sampler_state_raw(0, SRGBTEXTURE)), value);
        let got = sample(&mut dev, srgb);
        if views || value & 1 == 0 {
            let got = ok(got);
            assert!(close(got, expected, 1), "{value:#x}: {got:#010x}");
        } else {
            refused_for_views(got);
        }
    }
    // A format without sRGB reads ignores the state, as Windows.
    let plain = texture(&mut dev, Format::L8, &[0x80]);
    assert!(!Format::L8.support(dev.gpu()).srgb_read);
    ok(dev.set_sampler_state_raw(0, SRGBTEXTURE, 1));
    let got = ok(sample(&mut dev, plain));
    assert!(close(got, 0xff80_8080, 1), "{got:#010x}");
}

/// A linear value as an 8-bit unorm.
fn encode_linear(l: f64) -> u32 {
    (l * 255.0).round() as u32
}

/// Draws `D3DRS_TEXTUREFACTOR` over render target 0 with the fixed-function stages.
fn draw_factor(dev: &mut Device, factor: u32) -> Result<(), DeviceError> {
    ok(dev.set_pixel_shader(None));
    // COLOROP / ALPHAOP SELECTARG1 of TFACTOR.
    for (ty, value) in [(1, 2), (2, 3), (4, 2), (5, 3)] {
        ok(dev.set_texture_stage_state_raw(0, ty, value));
    }
    for (state, value) in [(CULLMODE, 1), (LIGHTING, 0), (TEXTUREFACTOR, factor)] {
        ok(dev.set_render_state_raw(state, value));
    }
    // D3DFVF_XYZ
    ok(dev.set_fvf(0x002));
    let quad = floats(&[
        -1.0, -1.0, 0.5, -1.0, 1.0, 0.5, 1.0, -1.0, 0.5, 1.0, 1.0, 0.5,
    ]);
    dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &quad, 12)
}

#[test]
fn gpu_srgb_writes_encode_draws_and_clears_and_blend_in_linear() {
    let mut dev = device();
    let views = has_srgb_views(&dev);
    assert_eq!(Format::A8R8G8B8.support(dev.gpu()).srgb_write, views);
    let rt = ok(dev.create_render_target(64, 64, Format::A8R8G8B8));
    ok(dev.set_render_target(0, Some(rt)));
    ok(dev.set_render_state_raw(SRGBWRITEENABLE, 1));
    let drawn = draw_factor(&mut dev, 0x8080_8080);
    let cleared = dev.clear(&[], ClearFlags::TARGET, 0x7f7f_7f7f, 0.0, 0);
    if !views {
        refused_for_views(drawn);
        refused_for_views(cleared);
    } else {
        ok(drawn);
        // 0.502 (linear) writes 0xbc; alpha is never encoded.
        let got = ok(dev.pixel(32, 32));
        assert!(close(got, 0x8000_0000 | grey(0xbc), 1), "{got:#010x}");
        assert_eq!(encode(f64::from(0x80u8) / 255.0), 0xbc);
        // Clears encode too (Wine's clear_test: 0x7f clears 0xbb).
        ok(cleared);
        let got = ok(dev.pixel(32, 32));
        assert!(close(got, 0x7f00_0000 | grey(0xbb), 1), "{got:#010x}");
        // Blending in linear: 0x80 stored (0.216 linear) plus 0.502 is 0.718, written 0xdc
        // (blending the encoded values would saturate at 0xff).
        ok(dev.set_render_state_raw(SRGBWRITEENABLE, 0));
        ok(dev.clear(&[], ClearFlags::TARGET, 0x8080_8080, 0.0, 0));
        ok(dev.set_render_state_raw(SRGBWRITEENABLE, 1));
        for (state, value) in [
            (ALPHABLENDENABLE, 1),
            (SRCBLEND, BLEND_ONE),
            (DESTBLEND, BLEND_ONE),
        ] {
            ok(dev.set_render_state_raw(state, value));
        }
        ok(draw_factor(&mut dev, 0x0080_8080));
        let expected = encode(decode(0x80) + f64::from(0x80u8) / 255.0);
        assert_eq!(expected, 0xdc);
        let got = ok(dev.pixel(32, 32)) & 0xff_ffff;
        assert!(close(got, grey(expected), 1), "{got:#010x}");
        ok(dev.set_render_state_raw(ALPHABLENDENABLE, 0));
    }
    // A target format without sRGB writes ignores the state (Wine's srgbwrite_format_test:
    // R5G6B5 keeps 0x808080 within its precision).
    assert!(!Format::R5G6B5.support(dev.gpu()).srgb_write);
    let plain = ok(dev.create_render_target(64, 64, Format::R5G6B5));
    ok(dev.set_render_target(0, Some(plain)));
    ok(draw_factor(&mut dev, 0x8080_8080));
    let got = ok(dev.pixel(32, 32)) & 0xff_ffff;
    assert!(close(got, grey(0x80), 5), "{got:#010x}");
}

/// `D3DSAMP_SRGBTEXTURE` toggled between draws of one shader and one texture: each draw
/// reads the view the state names then (a texture group made for the other state is not
/// reused).
#[test]
fn gpu_srgb_reads_follow_the_state_between_draws_of_one_shader() {
    let mut dev = device();
    let views = has_srgb_views(&dev);
    let id = texture(&mut dev, Format::A8R8G8B8, &[0x80; 4]);
    let decoded = decoded_0x80();
    let quad = texture_draw(&mut dev, id);
    for (value, expected) in [
        (0, 0x8080_8080),
        (1, decoded),
        (0, 0x8080_8080),
        (1, decoded),
    ] {
        ok(dev.set_sampler_state_raw(0, SRGBTEXTURE, value));
        let drawn = dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &quad, 20);
        if views || value == 0 {
            ok(drawn);
            let got = ok(dev.pixel(320, 240));
            assert!(close(got, expected, 1), "{value}: {got:#010x}");
        } else {
            refused_for_views(drawn);
        }
    }
}
