//! Render states, textures and draw forms through the device, each checked against the D3D9
//! rule on read-back pixels: depth test and write, stencil, blending, colour write masks,
//! scissor, multiple render targets, textures with mip levels and sampler states, render
//! target textures, fans, lines, indexed draws with a base vertex and 32-bit indices.

#![allow(clippy::panic)] // a failing test says why

#[allow(dead_code)]
mod device_common;
use d3d9_backend::device::{
    Blend, ClearFlags, CompareFunction, Device, DeviceParams, Format, IndexFormat, PrimitiveType,
    Rect, RenderState, SamplerState, StencilOp,
};
use d3d9_backend::device::{CullMode, MipFilter, TextureAddress, TextureFilter};
use device_common::{floats, ok, tokens};

fn px(dev: &mut Device, x: u32, y: u32) -> u32 {
    ok(dev.pixel(x, y)) & 0xffffff
}

const D3DFVF_XYZ: u32 = 0x002;
const D3DFVF_XYZRHW: u32 = 0x004;
const D3DFVF_DIFFUSE: u32 = 0x040;
const D3DFVF_TEX1: u32 = 0x100;

/// A device with culling off and the back buffer cleared to black.
fn device(params: DeviceParams) -> Device {
    let mut dev = Device::new(params).unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    ok(dev.clear(&[], ClearFlags::TARGET, 0, 1.0, 0));
    dev
}

/// A pre-transformed quad from (x0, y0) to (x1, y1) at depth z in colour `argb`, as a
/// triangle strip of XYZRHW | DIFFUSE vertices.
fn quad(x0: f32, y0: f32, x1: f32, y1: f32, z: f32, argb: u32) -> Vec<u8> {
    [(x0, y0), (x1, y0), (x0, y1), (x1, y1)]
        .iter()
        .flat_map(|&(x, y)| {
            let mut v = floats(&[x, y, z, 1.0]);
            v.extend(argb.to_le_bytes());
            v
        })
        .collect()
}

fn draw_quad(dev: &mut Device, q: &[u8]) {
    ok(dev.set_fvf(D3DFVF_XYZRHW | D3DFVF_DIFFUSE));
    ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, q, 20));
}

#[test]
fn gpu_depth_test_and_write() {
    let mut dev = device(DeviceParams {
        auto_depth_stencil: Some(Format::D24S8),
        ..DeviceParams::default()
    });
    ok(dev.clear(&[], ClearFlags::ALL, 0, 1.0, 0));
    // Near red first, then far green: LESSEQUAL keeps red.
    draw_quad(&mut dev, &quad(0.0, 0.0, 100.0, 100.0, 0.25, 0xffff0000));
    draw_quad(&mut dev, &quad(50.0, 0.0, 150.0, 100.0, 0.75, 0xff00ff00));
    assert_eq!(px(&mut dev, 25, 50), 0xff0000);
    assert_eq!(px(&mut dev, 75, 50), 0xff0000);
    assert_eq!(px(&mut dev, 125, 50), 0x00ff00);
    // Z off: the later draw wins; ZWRITE off leaves the depth as it was.
    ok(dev.set_render_state(RenderState::ZEnable(false)));
    draw_quad(&mut dev, &quad(50.0, 0.0, 150.0, 100.0, 0.75, 0xff0000ff));
    assert_eq!(px(&mut dev, 75, 50), 0x0000ff);
    ok(dev.set_render_state(RenderState::ZEnable(true)));
    ok(dev.set_render_state(RenderState::ZWriteEnable(false)));
    ok(dev.set_render_state(RenderState::ZFunc(CompareFunction::Greater)));
    draw_quad(&mut dev, &quad(0.0, 0.0, 150.0, 100.0, 0.5, 0xffffffff));
    // Greater than 0.25 (red's depth) passes, greater than 0.75 (green's depth, kept under
    // the blue drawn with Z off) fails.
    assert_eq!(px(&mut dev, 25, 50), 0xffffff);
    assert_eq!(px(&mut dev, 125, 50), 0x0000ff);
    // The depth read back: 0.25 where red was drawn, 1.0 where nothing was, and the white
    // draw wrote none.
    let ds = dev
        .depth_stencil_surface()
        .unwrap_or_else(|| panic!("an automatic depth-stencil surface"));
    // Copied out, or drawn out through a pass where depth cannot be copied (GL).
    let depth = ok(dev.get_render_target_data(ds));
    assert_eq!(depth.rgba_f32(25, 50).map(|d| d[0]), Some(0.25));
    assert_eq!(depth.rgba_f32(125, 50).map(|d| d[0]), Some(0.75));
    assert_eq!(depth.rgba_f32(300, 300).map(|d| d[0]), Some(1.0));
}

#[test]
fn gpu_stencil_replace_then_test() {
    let mut dev = device(DeviceParams {
        auto_depth_stencil: Some(Format::D24S8),
        ..DeviceParams::default()
    });
    ok(dev.clear(&[], ClearFlags::ALL, 0, 1.0, 0));
    for s in [
        RenderState::StencilEnable(true),
        RenderState::StencilFunc(CompareFunction::Always),
        RenderState::StencilPass(StencilOp::Replace),
        RenderState::StencilRef(3),
        RenderState::ZEnable(false),
    ] {
        ok(dev.set_render_state(s));
    }
    draw_quad(&mut dev, &quad(0.0, 0.0, 50.0, 50.0, 0.5, 0xff000080));
    ok(dev.set_render_state(RenderState::StencilFunc(CompareFunction::Equal)));
    ok(dev.set_render_state(RenderState::StencilPass(StencilOp::Keep)));
    draw_quad(&mut dev, &quad(0.0, 0.0, 100.0, 100.0, 0.5, 0xffffff00));
    assert_eq!(px(&mut dev, 25, 25), 0xffff00, "stencil 3 passes EQUAL 3");
    assert_eq!(px(&mut dev, 75, 75), 0, "stencil 0 fails EQUAL 3");
}

#[test]
fn gpu_alpha_blending_and_write_masks() {
    let mut dev = device(DeviceParams::default());
    ok(dev.clear(&[], ClearFlags::TARGET, 0xff0000ff, 1.0, 0));
    for s in [
        RenderState::AlphaBlendEnable(true),
        RenderState::SrcBlend(Blend::SrcAlpha),
        RenderState::DestBlend(Blend::InvSrcAlpha),
    ] {
        ok(dev.set_render_state(s));
    }
    // Half-transparent red over blue.
    draw_quad(&mut dev, &quad(0.0, 0.0, 100.0, 100.0, 0.5, 0x80ff0000));
    let c = px(&mut dev, 50, 50);
    let (r, b) = ((c >> 16) & 0xff, c & 0xff);
    assert!(r.abs_diff(0x80) <= 1 && b.abs_diff(0x7f) <= 1, "{c:06x}");
    // Blending off, only green written.
    ok(dev.set_render_state(RenderState::AlphaBlendEnable(false)));
    ok(dev.set_render_state(RenderState::ColorWriteEnable(0, 0x2)));
    draw_quad(&mut dev, &quad(200.0, 0.0, 300.0, 100.0, 0.5, 0xffffffff));
    assert_eq!(px(&mut dev, 250, 50), 0x00_ffff);
}

#[test]
fn gpu_scissor_limits_draws_and_clears() {
    let mut dev = device(DeviceParams::default());
    ok(dev.set_scissor_rect(Rect {
        left: 10,
        top: 10,
        right: 20,
        bottom: 20,
    }));
    ok(dev.set_render_state(RenderState::ScissorTestEnable(true)));
    draw_quad(&mut dev, &quad(0.0, 0.0, 100.0, 100.0, 0.5, 0xffffffff));
    assert_eq!(px(&mut dev, 10, 10), 0xffffff);
    assert_eq!(px(&mut dev, 19, 19), 0xffffff);
    assert_eq!(px(&mut dev, 20, 19), 0);
    assert_eq!(px(&mut dev, 9, 10), 0);
    ok(dev.clear(&[], ClearFlags::TARGET, 0xff00ff00, 1.0, 0));
    assert_eq!(px(&mut dev, 15, 15), 0x00ff00);
    assert_eq!(px(&mut dev, 50, 50), 0);
    // Clear rectangles intersect the scissor.
    ok(dev.set_render_state(RenderState::ScissorTestEnable(false)));
    ok(dev.clear(
        &[Rect {
            left: 30,
            top: 30,
            right: 40,
            bottom: 35,
        }],
        ClearFlags::TARGET,
        0xff0000ff,
        1.0,
        0,
    ));
    assert_eq!(px(&mut dev, 30, 30), 0x0000ff);
    assert_eq!(px(&mut dev, 39, 34), 0x0000ff);
    assert_eq!(px(&mut dev, 40, 34), 0);
}

#[test]
fn gpu_multiple_render_targets_and_render_target_textures() {
    let mut dev = device(DeviceParams::default());
    let ps = ok(dev.create_pixel_shader(&tokens(
        "ps_3_0\ndef c0, 1.0, 0.0, 0.0, 1.0\ndef c1, 0.0, 0.0, 1.0, 1.0\nmov oC0, c0\nmov oC1, c1\n",
    )));
    let vs = ok(dev.create_vertex_shader(&tokens(
        "vs_3_0\ndcl_position v0\ndcl_position o0\nmov o0, v0\n",
    )));
    let tex = ok(dev.create_render_target_texture(64, 64, Format::A8R8G8B8));
    let second = ok(dev.get_surface_level(tex, 0));
    let first = ok(dev.create_render_target(64, 64, Format::A8R8G8B8));
    ok(dev.set_render_target(0, Some(first)));
    ok(dev.set_render_target(1, Some(second)));
    ok(dev.clear(&[], ClearFlags::TARGET, 0, 1.0, 0));
    ok(dev.set_vertex_shader(Some(vs)));
    ok(dev.set_pixel_shader(Some(ps)));
    ok(dev.set_fvf(D3DFVF_XYZ));
    let tri = floats(&[-1.0, -1.0, 0.5, -1.0, 3.0, 0.5, 3.0, -1.0, 0.5]);
    ok(dev.draw_primitive_up(PrimitiveType::TriangleList, 1, &tri, 12));
    let a = ok(dev.get_render_target_data(first));
    let b = ok(dev.get_render_target_data(second));
    assert_eq!(a.color(5, 5), Some(0xffff_0000));
    assert_eq!(b.color(5, 5), Some(0xff00_00ff));
    // The texture rendered into, sampled on the back buffer by the fixed-function stage.
    let back = dev.back_buffer();
    ok(dev.set_render_target(1, None));
    ok(dev.set_render_target(0, Some(back)));
    ok(dev.set_vertex_shader(None));
    ok(dev.set_pixel_shader(None));
    ok(dev.set_texture(0, Some(tex)));
    ok(dev.set_fvf(D3DFVF_XYZRHW | D3DFVF_DIFFUSE | D3DFVF_TEX1));
    let vertex = |x: f32, y: f32, u: f32, v: f32| {
        let mut out = floats(&[x, y, 0.5, 1.0]);
        out.extend(0xffff_ffffu32.to_le_bytes());
        out.extend(floats(&[u, v]));
        out
    };
    let q: Vec<u8> = [
        vertex(0.0, 0.0, 0.0, 0.0),
        vertex(64.0, 0.0, 1.0, 0.0),
        vertex(0.0, 64.0, 0.0, 1.0),
        vertex(64.0, 64.0, 1.0, 1.0),
    ]
    .concat();
    ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &q, 28));
    assert_eq!(px(&mut dev, 10, 10), 0x0000ff);
}

#[test]
fn gpu_textures_with_mip_levels_and_sampler_states() {
    let mut dev = device(DeviceParams::default());
    // 2x2 level 0 red/green/blue/white, 1x1 level 1 yellow.
    let tex = ok(dev.create_texture(2, 2, 0, Format::A8R8G8B8));
    let texel = |argb: u32| argb.to_le_bytes();
    let level0: Vec<u8> = [0xffff0000u32, 0xff00ff00, 0xff0000ff, 0xffffffff]
        .iter()
        .flat_map(|&c| texel(c))
        .collect();
    ok(dev.update_texture(tex, 0, &level0));
    ok(dev.update_texture(tex, 1, &texel(0xffffff00)));
    ok(dev.set_texture(0, Some(tex)));
    ok(dev.set_fvf(D3DFVF_XYZRHW | D3DFVF_DIFFUSE | D3DFVF_TEX1));
    let vertex = |x: f32, y: f32, u: f32, v: f32| {
        let mut out = floats(&[x, y, 0.5, 1.0]);
        out.extend(0xffff_ffffu32.to_le_bytes());
        out.extend(floats(&[u, v]));
        out
    };
    // A 100x100 quad mapping u, v over 0..2 (wrap) with point filtering.
    let q: Vec<u8> = [
        vertex(0.0, 0.0, 0.0, 0.0),
        vertex(100.0, 0.0, 2.0, 0.0),
        vertex(0.0, 100.0, 0.0, 2.0),
        vertex(100.0, 100.0, 2.0, 2.0),
    ]
    .concat();
    ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &q, 28));
    assert_eq!(px(&mut dev, 10, 10), 0xff0000);
    assert_eq!(px(&mut dev, 35, 10), 0x00ff00);
    assert_eq!(px(&mut dev, 60, 10), 0xff0000, "wrap");
    assert_eq!(px(&mut dev, 10, 35), 0x0000ff);
    // Clamp: past 1 reads the edge.
    ok(dev.set_sampler_state(0, SamplerState::AddressU(TextureAddress::Clamp)));
    ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &q, 28));
    assert_eq!(px(&mut dev, 60, 10), 0x00ff00, "clamp");
    assert_eq!(px(&mut dev, 95, 10), 0x00ff00, "clamp");
    // D3DSAMP_MAXMIPLEVEL is ignored with mip filter NONE (Wine's maxmip_test, checked on
    // Windows): level 0; with mip filter POINT, MAXMIPLEVEL 1 reads level 1.
    ok(dev.set_sampler_state(0, SamplerState::MaxMipLevel(1)));
    ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &q, 28));
    assert_eq!(
        px(&mut dev, 10, 10),
        0xff0000,
        "MAXMIPLEVEL ignored without mip filter"
    );
    ok(dev.set_sampler_state(0, SamplerState::MipFilter(MipFilter::Point)));
    ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &q, 28));
    assert_eq!(px(&mut dev, 10, 10), 0xffff00, "level 1");
    // Linear filtering half way between red and green.
    ok(dev.set_sampler_state(0, SamplerState::MipFilter(MipFilter::None)));
    ok(dev.set_sampler_state(0, SamplerState::MaxMipLevel(0)));
    ok(dev.set_sampler_state(0, SamplerState::MagFilter(TextureFilter::Linear)));
    ok(dev.set_sampler_state(0, SamplerState::AddressU(TextureAddress::Clamp)));
    ok(dev.set_sampler_state(0, SamplerState::AddressV(TextureAddress::Clamp)));
    ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &q, 28));
    let c = px(&mut dev, 25, 12);
    assert!(
        ((c >> 16) & 0xff).abs_diff(0x80) <= 3 && ((c >> 8) & 0xff).abs_diff(0x80) <= 3,
        "{c:06x}"
    );
}

#[test]
fn gpu_fans_lines_and_indexed_draws() {
    let mut dev = device(DeviceParams::default());
    let vs = ok(dev.create_vertex_shader(&tokens(
        "vs_2_0\ndcl_position v0\nmov oPos, v0\nmov oD0, c0\n",
    )));
    ok(dev.set_vertex_shader(Some(vs)));
    ok(dev.set_vertex_shader_constant_f(0, &[[1.0, 1.0, 0.0, 1.0]]));
    ok(dev.set_fvf(D3DFVF_XYZ));
    // A fan: centre and four corners of the left half of the screen.
    let fan = floats(&[
        -0.5, 0.0, 0.5, -1.0, -1.0, 0.5, -1.0, 1.0, 0.5, 0.0, 1.0, 0.5, 0.0, -1.0, 0.5,
    ]);
    ok(dev.draw_primitive_up(PrimitiveType::TriangleFan, 3, &fan, 12));
    assert_eq!(px(&mut dev, 10, 240), 0xffff00);
    assert_eq!(px(&mut dev, 160, 10), 0xffff00);
    assert_eq!(px(&mut dev, 400, 240), 0);
    // An indexed fan with a base vertex, 32-bit indices, from buffers.
    ok(dev.clear(&[], ClearFlags::TARGET, 0, 1.0, 0));
    let mut data = floats(&[9.0, 9.0, 9.0]);
    data.extend(floats(&[
        0.5, 0.0, 0.5, 0.0, -1.0, 0.5, 0.0, 1.0, 0.5, 1.0, 1.0, 0.5, 1.0, -1.0, 0.5,
    ]));
    let vb = ok(dev.create_vertex_buffer_with(&data));
    let ib = ok(dev.create_index_buffer(5 * 4, IndexFormat::Index32));
    ok(dev.update_index_buffer(ib, 0, bytemuck::cast_slice(&[0u32, 1, 2, 3, 4])));
    ok(dev.set_stream_source(0, Some(vb), 0, 12));
    ok(dev.set_indices(Some(ib)));
    ok(dev.draw_indexed_primitive(PrimitiveType::TriangleFan, 1, 0, 5, 0, 3));
    assert_eq!(px(&mut dev, 630, 240), 0xffff00);
    assert_eq!(px(&mut dev, 10, 240), 0);
    // A line list across row 100.
    ok(dev.clear(&[], ClearFlags::TARGET, 0, 1.0, 0));
    let y = 1.0 - (100.0 / 240.0);
    let line = floats(&[-1.0, y, 0.5, 1.0, y, 0.5]);
    ok(dev.draw_primitive_up(PrimitiveType::LineList, 1, &line, 12));
    assert_eq!(px(&mut dev, 320, 100), 0xffff00);
    assert_eq!(px(&mut dev, 320, 110), 0);
}

#[test]
fn gpu_depth_bias_and_wireframe() {
    let mut dev = device(DeviceParams {
        auto_depth_stencil: Some(Format::D24S8),
        ..DeviceParams::default()
    });
    ok(dev.clear(&[], ClearFlags::ALL, 0, 1.0, 0));
    draw_quad(&mut dev, &quad(0.0, 0.0, 100.0, 100.0, 0.5, 0xffff0000));
    // The same depth fails LESS; with D3DRS_DEPTHBIAS -0.1 it passes.
    ok(dev.set_render_state(RenderState::ZFunc(CompareFunction::Less)));
    draw_quad(&mut dev, &quad(0.0, 0.0, 100.0, 100.0, 0.5, 0xff00ff00));
    assert_eq!(px(&mut dev, 50, 50), 0xff0000);
    ok(dev.set_render_state(RenderState::DepthBias(-0.1)));
    draw_quad(&mut dev, &quad(0.0, 0.0, 100.0, 100.0, 0.5, 0xff00ff00));
    assert_eq!(px(&mut dev, 50, 50), 0x00ff00);
    // The biased depth is z + bias (D3DRS_DEPTHBIAS is a fraction of the depth range): a
    // quad at 0.5 lands at 0.4 with -0.1 and at 0.75 with 0.25, so it passes LESS against a
    // depth buffer holding a little more and fails against one holding a little less. A bias
    // scaled wrongly (in depth-buffer units, halved, or ignored) fails one of these.
    for (bias, biased) in [(-0.1f32, 0.4f32), (0.25, 0.75)] {
        ok(dev.set_render_state(RenderState::DepthBias(bias)));
        for (stored, drawn) in [(biased + 0.002, true), (biased - 0.002, false)] {
            ok(dev.clear(&[], ClearFlags::ALL, 0, stored, 0));
            draw_quad(&mut dev, &quad(0.0, 0.0, 100.0, 100.0, 0.5, 0xff00ff00));
            let want = if drawn { 0x00ff00 } else { 0 };
            assert_eq!(
                px(&mut dev, 50, 50),
                want,
                "bias {bias}: depth {biased} against {stored}"
            );
        }
    }
    // With the viewport's depth range 0.5..1 a quad at z 0.5 lands at 0.75, and the bias
    // still moves the depth by itself: 0.65 with -0.1. Where MaxZ is not above MinZ (0.5..0.5)
    // z maps to MinZ + 0.001·z (Windows in Wine's test_viewport), 0.5005, and -0.0004 moves
    // it to 0.5001.
    ok(dev.set_render_state(RenderState::Lighting(false)));
    ok(dev.set_fvf(D3DFVF_XYZ | D3DFVF_DIFFUSE));
    let clip_quad: Vec<u8> = [(-1.0f32, -1.0f32), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)]
        .iter()
        .flat_map(|&(x, y)| {
            let mut v = floats(&[x, y, 0.5]);
            v.extend(0xff00_ff00u32.to_le_bytes());
            v
        })
        .collect();
    for (min_z, max_z, bias, biased, step) in [
        (0.5f32, 1.0f32, -0.1f32, 0.65f32, 0.002f32),
        (0.5, 0.5, -0.0004, 0.5001, 0.00005),
    ] {
        let viewport = d3d9_backend::device::Viewport {
            x: 0,
            y: 0,
            width: 640,
            height: 480,
            min_z,
            max_z,
        };
        ok(dev.set_viewport(viewport));
        ok(dev.set_render_state(RenderState::DepthBias(bias)));
        for (stored, drawn) in [(biased + step, true), (biased - step, false)] {
            ok(dev.clear(&[], ClearFlags::ALL, 0, stored, 0));
            ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &clip_quad, 16));
            let want = if drawn { 0x00ff00 } else { 0 };
            assert_eq!(
                px(&mut dev, 50, 50),
                want,
                "viewport {min_z}..{max_z}, bias {bias}: depth {biased} against {stored}"
            );
        }
    }
    ok(dev.set_viewport(d3d9_backend::device::Viewport {
        x: 0,
        y: 0,
        width: 640,
        height: 480,
        min_z: 0.0,
        max_z: 1.0,
    }));
    // Wireframe where the adapter has line polygons: the edges only.
    ok(dev.set_render_state(RenderState::DepthBias(0.0)));
    ok(dev.set_render_state(RenderState::ZEnable(false)));
    ok(dev.set_render_state(RenderState::FillMode(
        d3d9_backend::device::FillMode::Wireframe,
    )));
    let lines = dev
        .gpu()
        .device()
        .features()
        .contains(wgpu::Features::POLYGON_MODE_LINE);
    ok(dev.set_fvf(D3DFVF_XYZRHW | D3DFVF_DIFFUSE));
    let result = dev.draw_primitive_up(
        PrimitiveType::TriangleStrip,
        2,
        &quad(200.0, 200.0, 300.0, 300.0, 0.5, 0xff0000ff),
        20,
    );
    match result {
        Ok(()) => {
            assert!(lines);
            assert_eq!(
                px(&mut dev, 230, 230),
                0,
                "inside (off the diagonal) stays clear"
            );
            assert_eq!(px(&mut dev, 250, 200), 0x0000ff, "top edge drawn");
        }
        Err(e) => assert!(!lines && e.to_string().contains("POLYGON_MODE_LINE"), "{e}"),
    }
}

/// Raw render states: a value this device cannot honour (D3DBLEND_SRCCOLOR2, dual-source
/// blending) is `Unsupported` when set, kept for `GetRenderState`, and refuses the draws
/// made while it is set, naming it; set back, draws go on. A number D3D9 lacks is
/// D3DERR_INVALIDCALL both ways.
#[test]
fn gpu_an_unsupported_raw_state_refuses_draws_until_set_back() {
    const SRCBLEND: u32 = 19;
    let mut dev = device(DeviceParams::default());
    ok(dev.set_fvf(D3DFVF_XYZRHW | D3DFVF_DIFFUSE));
    let q = quad(0.0, 0.0, 8.0, 8.0, 0.5, 0xff00_ff00);
    let set = dev.set_render_state_raw(SRCBLEND, 16);
    assert!(
        matches!(set, Err(d3d9_backend::DeviceError::Unsupported { .. })),
        "{set:?}"
    );
    assert_eq!(ok(dev.render_state_raw(SRCBLEND)), 16);
    match dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &q, 20) {
        Err(e) => assert!(e.to_string().contains("D3DRS_SRCBLEND = 0x10"), "{e}"),
        Ok(()) => panic!("drawn with D3DBLEND_SRCCOLOR2"),
    }
    ok(dev.set_render_state_raw(SRCBLEND, 2)); // D3DBLEND_ONE
    ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &q, 20));
    assert_eq!(px(&mut dev, 4, 4), 0x00ff00);
    for number in [0, 164, 210, 1000] {
        assert!(
            dev.set_render_state_raw(number, 0)
                .is_err_and(|e| e.is_invalid_call()),
            "{number}"
        );
        assert!(
            dev.render_state_raw(number)
                .is_err_and(|e| e.is_invalid_call()),
            "{number}"
        );
    }
}

/// Raw states read back as set: `POINTSCALE_A` alone (taken with B and C as one typed
/// state), a texture stage's and a sampler's values; stage 8 and sampler 300 do not exist.
#[test]
fn gpu_raw_states_read_back_as_set() {
    let mut dev = device(DeviceParams::default());
    ok(dev.set_render_state_raw(158, 0.5f32.to_bits()));
    assert_eq!(ok(dev.render_state_raw(158)), 0.5f32.to_bits());
    assert_eq!(ok(dev.render_state_raw(159)), 0);
    ok(dev.set_texture_stage_state_raw(3, 1, 4)); // COLOROP MODULATE
    assert_eq!(ok(dev.texture_stage_state_raw(3, 1)), 4);
    assert_eq!(
        ok(dev.texture_stage_state_raw(4, 1)),
        1,
        "DISABLE by default"
    );
    ok(dev.set_sampler_state_raw(2, 5, 1)); // MAGFILTER POINT
    assert_eq!(ok(dev.sampler_state_raw(2, 5)), 1);
    assert!(dev
        .set_texture_stage_state_raw(8, 1, 4)
        .is_err_and(|e| e.is_invalid_call()));
    assert!(dev
        .texture_stage_state_raw(8, 1)
        .is_err_and(|e| e.is_invalid_call()));
    assert!(dev
        .set_sampler_state_raw(300, 5, 1)
        .is_err_and(|e| e.is_invalid_call()));
}

/// `D3DRS_SHADEMODE` with a vertex shader writing `oD0` and with the fixed-function vertex
/// stage: GOURAUD interpolates the vertices' colours, FLAT gives the whole triangle the
/// first vertex's.
#[test]
fn gpu_shade_mode_of_a_vertex_shaders_colour() {
    use d3d9_backend::device::ShadeMode;
    let mut dev = device(DeviceParams::default());
    let vs = ok(dev.create_vertex_shader(&tokens(
        "vs_2_0\ndcl_position v0\ndcl_color v1\nmov oPos, v0\nmov oD0, v1\n",
    )));
    ok(dev.set_vertex_shader(Some(vs)));
    ok(dev.set_fvf(D3DFVF_XYZ | D3DFVF_DIFFUSE));
    let mut triangle = Vec::new();
    for (x, y, colour) in [
        (-1.0f32, -1.0f32, 0xffff_0000u32),
        (-1.0, 3.0, 0xff00_ff00),
        (3.0, -1.0, 0xff00_00ff),
    ] {
        triangle.extend(floats(&[x, y, 0.5]));
        triangle.extend(colour.to_le_bytes());
    }
    // Through the shader, then through the fixed-function vertex stage (unlit).
    ok(dev.set_render_state(RenderState::Lighting(false)));
    let modes = [(ShadeMode::Gouraud, false), (ShadeMode::Flat, true)];
    for ((mode, flat), shader) in modes.into_iter().cycle().zip([true, true, false, false]) {
        ok(dev.set_vertex_shader(shader.then_some(vs)));
        ok(dev.set_render_state(RenderState::ShadeMode(mode)));
        ok(dev.draw_primitive_up(PrimitiveType::TriangleList, 1, &triangle, 16));
        let centre = px(&mut dev, 320, 240);
        if flat {
            assert_eq!(centre, 0xff_0000, "{mode:?}, shader {shader}");
        } else {
            // A quarter of the way to the green and the blue vertex: mostly red, some of each.
            let [b, g, r] = [centre & 0xff, (centre >> 8) & 0xff, centre >> 16];
            let mixed = r > 0x40 && g > 0x20 && b > 0x20;
            assert!(mixed, "{mode:?}, shader {shader}: {centre:06x}");
        }
    }
}

/// The setters refuse what D3D9 refuses, each condition alone (a viewport of no width or no
/// height, a MinZ or MaxZ not finite, a scissor rectangle turned inside out on either axis;
/// an empty one is set), and the getters read back what was set.
#[test]
fn gpu_setters_refuse_each_bad_value_and_getters_read_back() {
    use d3d9_backend::device::Viewport;
    use d3d9_translator::decl::VertexProcessing;
    let mut dev = device(DeviceParams {
        processing: VertexProcessing::Mixed,
        ..DeviceParams::default()
    });
    let viewport = Viewport {
        x: 0,
        y: 0,
        width: 64,
        height: 32,
        min_z: 0.0,
        max_z: 1.0,
    };
    for bad in [
        Viewport {
            width: 0,
            ..viewport
        },
        Viewport {
            height: 0,
            ..viewport
        },
        Viewport {
            min_z: f32::NAN,
            ..viewport
        },
        Viewport {
            max_z: f32::INFINITY,
            ..viewport
        },
    ] {
        let refused = dev.set_viewport(bad);
        assert!(refused.is_err_and(|e| e.is_invalid_call()), "{bad:?}");
    }
    ok(dev.set_viewport(viewport));
    assert_eq!(dev.viewport(), viewport);

    let rect = |left, top, right, bottom| Rect {
        left,
        top,
        right,
        bottom,
    };
    for bad in [rect(9, 0, 8, 4), rect(0, 5, 8, 4)] {
        let refused = dev.set_scissor_rect(bad);
        assert!(refused.is_err_and(|e| e.is_invalid_call()), "{bad:?}");
    }
    ok(dev.set_scissor_rect(rect(8, 4, 8, 4)));
    assert_eq!(
        dev.scissor_rect(),
        rect(8, 4, 8, 4),
        "an empty rectangle is set"
    );

    assert!(
        !dev.software_vertex_processing(),
        "a mixed device starts in hardware"
    );
    ok(dev.set_software_vertex_processing(true));
    assert!(dev.software_vertex_processing());
    ok(dev.set_software_vertex_processing(false));
    assert!(!dev.software_vertex_processing());

    assert_eq!(dev.stream_source_freq(1), Some(1), "1 by default");
    ok(dev.set_stream_source_freq(1, 0x8000_0000 | 3));
    assert_eq!(dev.stream_source_freq(1), Some(0x8000_0003));
    assert_eq!(dev.stream_source_freq(16), None);

    ok(dev.set_vertex_shader_constant_f(5, &[[1.0, 2.0, 3.0, 4.0]]));
    ok(dev.set_vertex_shader_constant_i(2, &[[5, 6, 7, 8]]));
    ok(dev.set_vertex_shader_constant_b(3, &[true]));
    let vs = dev.vertex_shader_constants();
    assert_eq!(
        (vs.floats[5], vs.ints[2], vs.bools[3]),
        ([1.0, 2.0, 3.0, 4.0], [5, 6, 7, 8], true)
    );
    ok(dev.set_pixel_shader_constant_f(6, &[[4.0, 3.0, 2.0, 1.0]]));
    ok(dev.set_pixel_shader_constant_i(1, &[[8, 7, 6, 5]]));
    ok(dev.set_pixel_shader_constant_b(4, &[true]));
    let ps = dev.pixel_shader_constants();
    assert_eq!(
        (ps.floats[6], ps.ints[1], ps.bools[4]),
        ([4.0, 3.0, 2.0, 1.0], [8, 7, 6, 5], true)
    );
}
