//! Sampler states WebGPU's samplers cannot hold, done in the shader, checked on read-back
//! pixels through the fixed-function stage, ps_1_x, ps_2_0 and ps_3_0: `D3DSAMP_MIPMAPLODBIAS`
//! (implicit, `texldb`, `texldl` and `texldd` levels), `D3DTADDRESS_MIRRORONCE`, any
//! `D3DSAMP_BORDERCOLOR` (point and linear filtering at the edge), AMD's Fetch4, `D3DFILL_POINT`,
//! and
//! `D3DRS_WRAP0`–`WRAP15` (cylindrical texture wrapping, done with a twin interpolant).

#![allow(clippy::panic)] // a failing test says why

#[allow(dead_code)]
mod device_common;
use d3d9_backend::device::{
    ClearFlags, Device, DeviceParams, FillMode, Format, PrimitiveType, RenderState, SamplerState,
};
use d3d9_backend::device::{CullMode, MipFilter, TextureAddress, TextureFilter};
use device_common::{floats, ok, tokens};

const D3DFVF_XYZ: u32 = 0x002;
const D3DFVF_XYZRHW: u32 = 0x004;
const D3DFVF_DIFFUSE: u32 = 0x040;
const D3DFVF_TEX1: u32 = 0x100;
const D3DFVF_TEXCOORDSIZE3_0: u32 = 1 << 16;

fn px(dev: &mut Device, x: u32, y: u32) -> u32 {
    ok(dev.pixel(x, y)) & 0xffffff
}

fn device() -> Device {
    let mut dev = Device::new(DeviceParams::default())
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    ok(dev.set_render_state(RenderState::Lighting(false)));
    ok(dev.clear(&[], ClearFlags::TARGET, 0, 1.0, 0));
    dev
}

/// A pre-transformed quad over pixels (x0, y0)–(x1, y1), white, with texture coordinates
/// (u0, v0)–(u1, v1): XYZRHW | DIFFUSE | TEX1 as a triangle strip.
fn textured_quad([x0, y0, x1, y1]: [f32; 4], [u0, v0, u1, v1]: [f32; 4]) -> Vec<u8> {
    [
        (x0, y0, u0, v0),
        (x1, y0, u1, v0),
        (x0, y1, u0, v1),
        (x1, y1, u1, v1),
    ]
    .iter()
    .flat_map(|&(x, y, u, v)| {
        let mut out = floats(&[x, y, 0.5, 1.0]);
        out.extend(0xffff_ffffu32.to_le_bytes());
        out.extend(floats(&[u, v]));
        out
    })
    .collect()
}

fn draw(dev: &mut Device, quad: &[u8]) {
    ok(dev.set_fvf(D3DFVF_XYZRHW | D3DFVF_DIFFUSE | D3DFVF_TEX1));
    ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, quad, 28));
}

/// A texture of `width` x `height` texels `colour(x, y)` (A8R8G8B8), one level.
fn texture(
    dev: &mut Device,
    width: u32,
    height: u32,
    colour: impl Fn(u32, u32) -> u32,
) -> d3d9_backend::device::TextureId {
    let tex = ok(dev.create_texture(width, height, 1, Format::A8R8G8B8));
    let texels: Vec<u8> = (0..height)
        .flat_map(|y| (0..width).map(move |x| (x, y)))
        .flat_map(|(x, y)| colour(x, y).to_le_bytes())
        .collect();
    ok(dev.update_texture(tex, 0, &texels));
    tex
}

/// Each pixel stage that samples stage / sampler 0 at t0: the fixed-function stage, ps_1_1,
/// ps_1_4 and ps_2_0.
fn pixel_stages(
    dev: &mut Device,
) -> Vec<(&'static str, Option<d3d9_backend::device::PixelShaderId>)> {
    let mut stages = vec![("fixed function", None)];
    for (name, text) in [
        ("ps_1_1", "ps_1_1\ntex t0\nmov r0, t0\n"),
        ("ps_1_4", "ps_1_4\ntexld r0, t0\n"),
        (
            "ps_2_0",
            "ps_2_0\ndcl t0.xy\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n",
        ),
    ] {
        stages.push((name, Some(ok(dev.create_pixel_shader(&tokens(text))))));
    }
    stages
}

/// Channels of `a` and `b` within `tolerance`.
fn near(a: u32, b: u32, tolerance: u32) -> bool {
    (0..3).all(|i| ((a >> (8 * i)) & 0xff).abs_diff((b >> (8 * i)) & 0xff) <= tolerance)
}

/// `D3DSAMP_MIPMAPLODBIAS` moves the level: a 64x64 texture drawn 1:1 (level 0) reads level
/// 1 with bias 1 and level 2 with bias 2, in every pixel stage; ignored under `MIPFILTER`
/// NONE (one level is read, as DXVK); `texldb`'s bias and `texldl`'s level have it added
/// (as Vulkan's and GL's sampler bias add to them: DXVK and wined3d), and `texldd`'s
/// gradients read as the same level plus the bias.
#[test]
fn gpu_lod_bias_moves_the_level_in_every_sample() {
    let mut dev = device();
    // Levels 0–3: red, green, blue, yellow.
    let colours = [0xffff_0000u32, 0xff00_ff00, 0xff00_00ff, 0xffff_ff00];
    let tex = ok(dev.create_texture(64, 64, 4, Format::A8R8G8B8));
    for (level, colour) in colours.iter().enumerate() {
        let size = 64usize >> level;
        ok(dev.update_texture(tex, level as u32, &colour.to_le_bytes().repeat(size * size)));
    }
    ok(dev.set_texture(0, Some(tex)));
    let quad = textured_quad([0.0, 0.0, 64.0, 64.0], [0.0, 0.0, 1.0, 1.0]);
    let rgb = |level: usize| colours[level] & 0xffffff;
    for (name, ps) in pixel_stages(&mut dev) {
        ok(dev.set_pixel_shader(ps));
        ok(dev.set_sampler_state(0, SamplerState::MipFilter(MipFilter::None)));
        ok(dev.set_sampler_state(0, SamplerState::MipMapLodBias(2.0)));
        draw(&mut dev, &quad);
        assert_eq!(
            px(&mut dev, 32, 32),
            rgb(0),
            "{name}: no bias without mipmapping"
        );
        ok(dev.set_sampler_state(0, SamplerState::MipFilter(MipFilter::Point)));
        for bias in [0usize, 1, 2] {
            ok(dev.set_sampler_state(0, SamplerState::MipMapLodBias(bias as f32)));
            draw(&mut dev, &quad);
            assert_eq!(px(&mut dev, 32, 32), rgb(bias), "{name}: bias {bias}");
        }
        // A quad drawn at half size reads level 1; bias -1 brings level 0 back.
        ok(dev.set_sampler_state(0, SamplerState::MipMapLodBias(-1.0)));
        draw(
            &mut dev,
            &textured_quad([100.0, 0.0, 132.0, 32.0], [0.0, 0.0, 1.0, 1.0]),
        );
        assert_eq!(px(&mut dev, 116, 16), rgb(0), "{name}: bias -1");
    }
    // ps_2_0 texldb (bias 1 in w) and ps_3_0 texldl (level 1 in w) and texldd (gradients of
    // level 0), each plus the sampler's bias 1.
    ok(dev.set_sampler_state(0, SamplerState::MipMapLodBias(1.0)));
    let texldb = ok(dev.create_pixel_shader(&tokens(
        "ps_2_0\ndef c0, 0, 0, 0, 1\ndcl t0.xy\ndcl_2d s0\nmov r1.xy, t0\nmov r1.zw, c0\ntexldb r0, r1, s0\nmov oC0, r0\n",
    )));
    ok(dev.set_pixel_shader(Some(texldb)));
    draw(&mut dev, &quad);
    assert_eq!(px(&mut dev, 32, 32), rgb(2), "texldb: 1 + bias 1");
    let vs = ok(dev.create_vertex_shader(&tokens(
        "vs_3_0\ndcl_position v0\ndcl_texcoord v1\ndcl_position o0\ndcl_texcoord o1\nmov o0, v0\nmov o1, v1\n",
    )));
    ok(dev.set_vertex_shader(Some(vs)));
    ok(dev.set_fvf(D3DFVF_XYZ | D3DFVF_TEX1));
    // 64x64 pixels of the 640x480 back buffer from its top-left corner.
    let (x1, y1) = (-1.0 + 128.0 / 640.0, 1.0 - 128.0 / 480.0);
    let clip: Vec<u8> = [
        (-1.0, 1.0, 0.0, 0.0),
        (x1, 1.0, 1.0, 0.0),
        (-1.0, y1, 0.0, 1.0),
        (x1, y1, 1.0, 1.0),
    ]
    .iter()
    .flat_map(|&(x, y, u, v)| floats(&[x, y, 0.5, u, v]))
    .collect();
    for (name, text, level) in [
        ("texldl", "ps_3_0\ndef c0, 0, 0, 0, 1\ndcl_texcoord v0.xy\ndcl_2d s0\nmov r1.xy, v0\nmov r1.zw, c0\ntexldl r0, r1, s0\nmov oC0, r0\n", 2),
        ("texldd", "ps_3_0\ndef c0, 0.015625, 0, 0, 0\ndef c1, 0, 0.015625, 0, 0\ndcl_texcoord v0.xy\ndcl_2d s0\ntexldd r0, v0, s0, c0, c1\nmov oC0, r0\n", 1),
    ] {
        let ps = ok(dev.create_pixel_shader(&tokens(text)));
        ok(dev.set_pixel_shader(Some(ps)));
        ok(dev.clear(&[], ClearFlags::TARGET, 0, 1.0, 0));
        ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &clip, 20));
        assert_eq!(px(&mut dev, 32, 32), rgb(level), "{name} with bias 1");
    }
}

/// `D3DTADDRESS_MIRRORONCE`: u in [-1, 0) reads the texture mirrored, past ±1 the edge texel
/// (a 4x1 texture red, green, blue, white over u = -2..2), in every pixel stage.
#[test]
fn gpu_mirror_once_mirrors_once_then_clamps() {
    let mut dev = device();
    let row = [0xffff_0000u32, 0xff00_ff00, 0xff00_00ff, 0xffff_ffff];
    let tex = texture(&mut dev, 4, 1, |x, _| row[x as usize]);
    ok(dev.set_texture(0, Some(tex)));
    ok(dev.set_sampler_state(0, SamplerState::AddressU(TextureAddress::MirrorOnce)));
    ok(dev.set_sampler_state(0, SamplerState::AddressV(TextureAddress::MirrorOnce)));
    // 40 pixels per unit of u: pixel x reads u = -2 + x / 40 (D3D9's pixel centres are at
    // whole coordinates); the pixels checked read the middle of a texel.
    let quad = textured_quad([0.0, 0.0, 160.0, 8.0], [-2.0, 0.5, 2.0, 0.5]);
    for (name, ps) in pixel_stages(&mut dev) {
        ok(dev.set_pixel_shader(ps));
        ok(dev.clear(&[], ClearFlags::TARGET, 0, 1.0, 0));
        draw(&mut dev, &quad);
        for (x, want) in [
            (20, 3),
            (45, 3),
            (55, 2),
            (65, 1),
            (75, 0),
            (85, 0),
            (95, 1),
            (105, 2),
            (115, 3),
            (140, 3),
        ] {
            assert_eq!(
                px(&mut dev, x, 4),
                row[want] & 0xffffff,
                "{name}: pixel {x}"
            );
        }
    }
}

/// Any `D3DSAMP_BORDERCOLOR` (green here, which WebGPU's border modes cannot express; opaque
/// black, which they can where the adapter has `ADDRESS_MODE_CLAMP_TO_BORDER`): point
/// sampling reads it outside [0, 1); linear filtering blends it over the half texel at the
/// edge as bilinear filtering with a border does; a border on one axis leaves the other's
/// mode (wrap) alone; a cube map ignores the address mode (Windows in Wine's test_cube_wrap).
#[test]
fn gpu_border_colours_of_any_value() {
    let mut dev = device();
    // 2x2 red.
    let tex = texture(&mut dev, 2, 2, |_, _| 0xffff_0000);
    ok(dev.set_texture(0, Some(tex)));
    ok(dev.set_sampler_state(0, SamplerState::AddressU(TextureAddress::Border)));
    ok(dev.set_sampler_state(0, SamplerState::AddressV(TextureAddress::Wrap)));
    // 32 pixels per unit: pixel x reads u = -1 + x / 32; v runs past 1 (wrapped).
    let quad = textured_quad([0.0, 0.0, 96.0, 8.0], [-1.0, 0.5, 2.0, 3.5]);
    for (name, ps) in pixel_stages(&mut dev) {
        ok(dev.set_pixel_shader(ps));
        for border in [0xff00_ff00u32, 0xff00_0000, 0x8000_00ff] {
            ok(dev.set_sampler_state(0, SamplerState::BorderColor(border)));
            ok(dev.set_sampler_state(0, SamplerState::MagFilter(TextureFilter::Point)));
            ok(dev.set_sampler_state(0, SamplerState::MinFilter(TextureFilter::Point)));
            draw(&mut dev, &quad);
            for (x, inside) in [
                (5, false),
                (30, false),
                (34, true),
                (62, true),
                (66, false),
                (90, false),
            ] {
                let want = if inside { 0xff0000 } else { border & 0xffffff };
                assert_eq!(
                    px(&mut dev, x, 4),
                    want,
                    "{name}, border {border:08x}, point: pixel {x}"
                );
            }
            // Linear: at pixel 33 (u = 1/32, t = u * 2 = 1/16) the border weighs 0.5 - 1/16,
            // and as much at pixel 63 (u = 31/32).
            ok(dev.set_sampler_state(0, SamplerState::MagFilter(TextureFilter::Linear)));
            ok(dev.set_sampler_state(0, SamplerState::MinFilter(TextureFilter::Linear)));
            draw(&mut dev, &quad);
            let mix = |w: f32| {
                let channel = |shift: u32| {
                    let b = ((border >> shift) & 0xff) as f32;
                    let t = ((0xffff_0000u32 >> shift) & 0xff) as f32;
                    ((b * w + t * (1.0 - w)).round() as u32) << shift
                };
                channel(16) | channel(8) | channel(0)
            };
            for (x, weight) in [(20, 1.0), (33, 0.4375), (40, 0.0), (63, 0.4375), (80, 1.0)] {
                let got = px(&mut dev, x, 4);
                assert!(
                    near(got, mix(weight), 2),
                    "{name}, border {border:08x}, linear: pixel {x} is {got:06x}, want {:06x}",
                    mix(weight)
                );
            }
        }
    }
    // A cube map reads its face whatever the address mode and border colour.
    let cube = ok(dev.create_texture_with(&d3d9_backend::device::TextureDesc {
        kind: d3d9_backend::device::TextureKind::Cube,
        width: 2,
        height: 2,
        depth: 1,
        levels: 1,
        format: Format::A8R8G8B8,
        usage: Default::default(),
        pool: Default::default(),
    }));
    ok(dev.update_texture(cube, 0, &0xff00_00ffu32.to_le_bytes().repeat(4 * 6)));
    ok(dev.set_texture(0, Some(cube)));
    ok(dev.set_pixel_shader(None));
    ok(dev.set_sampler_state(0, SamplerState::BorderColor(0xff00_ff00)));
    for mode in [TextureAddress::Border, TextureAddress::MirrorOnce] {
        ok(dev.set_sampler_state(0, SamplerState::AddressU(mode)));
        ok(dev.set_sampler_state(0, SamplerState::AddressV(mode)));
        ok(dev.set_fvf(D3DFVF_XYZRHW | D3DFVF_DIFFUSE | D3DFVF_TEX1 | D3DFVF_TEXCOORDSIZE3_0));
        let q: Vec<u8> = [(0.0, 0.0), (16.0, 0.0), (0.0, 16.0), (16.0, 16.0)]
            .iter()
            .flat_map(|&(x, y)| {
                let mut out = floats(&[x, y, 0.5, 1.0]);
                out.extend(0xffff_ffffu32.to_le_bytes());
                out.extend(floats(&[1.0, 1.0, 1.0]));
                out
            })
            .collect();
        ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &q, 32));
        assert_eq!(px(&mut dev, 8, 8), 0x0000ff, "cube map with {mode:?}");
    }
}

/// `D3DFILL_POINT` draws a triangle's vertices as one-pixel points where the adapter has
/// `POLYGON_MODE_POINT`, and is refused naming it elsewhere; a point size other than 1 is
/// refused (the points of filled primitives are not expanded).
#[test]
fn gpu_point_fill_draws_the_vertices() {
    let mut dev = device();
    ok(dev.set_render_state(RenderState::FillMode(FillMode::Point)));
    let has = dev
        .gpu()
        .device()
        .features()
        .contains(wgpu::Features::POLYGON_MODE_POINT);
    ok(dev.set_fvf(D3DFVF_XYZRHW | D3DFVF_DIFFUSE));
    let triangle: Vec<u8> = [(200.0f32, 200.0f32), (300.0, 200.0), (200.0, 300.0)]
        .iter()
        .flat_map(|&(x, y)| {
            let mut out = floats(&[x, y, 0.5, 1.0]);
            out.extend(0xff00_00ffu32.to_le_bytes());
            out
        })
        .collect();
    match dev.draw_primitive_up(PrimitiveType::TriangleList, 1, &triangle, 20) {
        Ok(()) => {
            assert!(has);
            for (x, y) in [(200, 200), (300, 200), (200, 300)] {
                let lit = (x - 1..=x + 1)
                    .flat_map(|x| (y - 1..=y + 1).map(move |y| (x, y)))
                    .filter(|&(x, y)| px(&mut dev, x, y) == 0x0000ff)
                    .count();
                assert!(
                    (1..=2).contains(&lit),
                    "vertex ({x}, {y}): {lit} pixels lit"
                );
            }
            assert_eq!(px(&mut dev, 230, 230), 0, "the inside stays clear");
            assert_eq!(px(&mut dev, 250, 200), 0, "the edges stay clear");
        }
        Err(e) => assert!(!has && e.to_string().contains("POLYGON_MODE_POINT"), "{e}"),
    }
    ok(dev.set_render_state(RenderState::PointSize(4.0)));
    let e = dev
        .draw_primitive_up(PrimitiveType::TriangleList, 1, &triangle, 20)
        .expect_err("a point size with D3DFILL_POINT");
    assert!(e.to_string().contains("D3DFILL_POINT"), "{e}");
}

/// Ten texels along u, each its own colour.
const WRAP_ROW: [u32; 10] = [
    0xff00_0000,
    0xffff_0000,
    0xff00_ff00,
    0xff00_00ff,
    0xffff_ff00,
    0xff00_ffff,
    0xffff_00ff,
    0xff80_8080,
    0xff80_0000,
    0xff00_8000,
];

/// The texel of `WRAP_ROW` a coordinate `u` reads (point filtering, WRAP addressing), where
/// `u` lies well inside a texel (`None` near an edge between two).
fn wrap_texel(u: f32) -> Option<u32> {
    let t = (u - u.floor()) * 10.0;
    let inside = (0.2..0.8).contains(&(t - t.floor()));
    inside.then(|| WRAP_ROW[t.floor() as usize % 10] & 0xffffff)
}

/// `WRAP_ROW` as a 10 x 1 texture on sampler 0, point-sampled.
fn wrap_row_texture(dev: &mut Device) {
    let tex = texture(dev, 10, 1, |x, _| WRAP_ROW[x as usize]);
    ok(dev.set_texture(0, Some(tex)));
    ok(dev.set_sampler_state(0, SamplerState::MagFilter(TextureFilter::Point)));
    ok(dev.set_sampler_state(0, SamplerState::MinFilter(TextureFilter::Point)));
}

/// Checks row 4 of pixels 0..width against the texels read at `u(x)`.
fn assert_row(dev: &mut Device, width: u32, what: &str, u: impl Fn(f32) -> f32) {
    assert_line(dev, width, what, |x| (x, 4), u);
}

/// Checks pixels `at(0..length)` against the texels read at `t(i)`.
fn assert_line(
    dev: &mut Device,
    length: u32,
    what: &str,
    at: impl Fn(u32) -> (u32, u32),
    t: impl Fn(f32) -> f32,
) {
    let mut checked = 0;
    for i in 0..length {
        if let Some(want) = wrap_texel(t(i as f32)) {
            let (x, y) = at(i);
            assert_eq!(px(dev, x, y), want, "{what}: pixel ({x}, {y})");
            checked += 1;
        }
    }
    assert!(checked > length / 3, "{what}: {checked} pixels checked");
}

/// `D3DRS_WRAP0` = `D3DWRAPCOORD_0`: u goes the shortest way round, from 0.8 to 0.2 through
/// 1.0 (the SDK's "Texture Wrapping"), not back through 0.5, in every pixel stage that reads
/// set 0; `D3DWRAPCOORD_1` (v) or `WRAP1` leave u as it is. `D3DWRAPCOORD_1` does the same
/// for v.
#[test]
fn gpu_wrap_takes_the_shortest_way_round() {
    let mut dev = device();
    wrap_row_texture(&mut dev);
    // Pixel x reads u = 0.8 - 0.006 x, or 0.8 + 0.004 x the short way.
    let quad = textured_quad([0.0, 0.0, 100.0, 8.0], [0.8, 0.5, 0.2, 0.5]);
    let plain = |x: f32| 0.8 - 0.6 * x / 100.0;
    let wrapped = |x: f32| 0.8 + 0.4 * x / 100.0;
    for (name, ps) in pixel_stages(&mut dev) {
        ok(dev.set_pixel_shader(ps));
        for (wrap0, wrap1, short) in [(1, 0, true), (0, 0, false), (2, 0, false), (0, 1, false)] {
            ok(dev.set_render_state_raw(128, wrap0));
            ok(dev.set_render_state_raw(129, wrap1));
            ok(dev.clear(&[], ClearFlags::TARGET, 0, 1.0, 0));
            draw(&mut dev, &quad);
            let what = format!("{name}, WRAP0 {wrap0}, WRAP1 {wrap1}");
            match short {
                true => assert_row(&mut dev, 100, &what, wrapped),
                false => assert_row(&mut dev, 100, &what, plain),
            }
        }
    }
    // v the same way down a column: D3DWRAPCOORD_1 wraps it, D3DWRAPCOORD_0 does not.
    let column = texture(&mut dev, 1, 10, |_, y| WRAP_ROW[y as usize]);
    ok(dev.set_texture(0, Some(column)));
    let quad = textured_quad([0.0, 0.0, 8.0, 100.0], [0.5, 0.8, 0.5, 0.2]);
    for (name, ps) in pixel_stages(&mut dev) {
        ok(dev.set_pixel_shader(ps));
        for (wrap0, short) in [(2, true), (1, false)] {
            ok(dev.set_render_state_raw(128, wrap0));
            ok(dev.set_render_state_raw(129, 0));
            ok(dev.clear(&[], ClearFlags::TARGET, 0, 1.0, 0));
            draw(&mut dev, &quad);
            let what = format!("{name}, v, WRAP0 {wrap0}");
            let v = if short { wrapped } else { plain };
            assert_line(&mut dev, 100, &what, |y| (4, y), v);
        }
    }
}

/// vs_3_0 to ps_3_0: `D3DRS_WRAP11` (`WRAP8`–`15` are render states 198–205) wraps
/// `TEXCOORD11`; TEXCOORD2, written beside it in the same `o#` register, does not wrap.
#[test]
fn gpu_wrap_applies_to_the_texture_coordinate_set_of_its_number() {
    let mut dev = device();
    wrap_row_texture(&mut dev);
    let vs = ok(dev.create_vertex_shader(&tokens(
        "vs_3_0\ndcl_position v0\ndcl_texcoord0 v1\ndcl_position o0\ndcl_texcoord11 o1.x\n\
         dcl_texcoord2 o1.y\nmov o0, v0\nmov o1.x, v1.x\nmov o1.y, v1.x\n",
    )));
    // TEXCOORD11 or TEXCOORD2 as the u read, v = 0.5.
    let ps = |dev: &mut Device, set: u32| {
        ok(dev.create_pixel_shader(&tokens(&format!(
            "ps_3_0\ndef c0, 0, 0.5, 0, 0\ndcl_texcoord11 v0.x\ndcl_texcoord2 v1.x\n\
             dcl_2d s0\nmov r0, c0\nmov r0.x, v{set}.x\ntexld r0, r0, s0\nmov oC0, r0\n"
        ))))
    };
    let (ps11, ps2) = (ps(&mut dev, 0), ps(&mut dev, 1));
    ok(dev.set_vertex_shader(Some(vs)));
    // A quad over the whole 640-pixel target, u from 0.8 on the left to 0.2 on the right.
    let quad: Vec<u8> = [
        (-1.0, 1.0, 0.8),
        (1.0, 1.0, 0.2),
        (-1.0, -1.0, 0.8),
        (1.0, -1.0, 0.2),
    ]
    .iter()
    .flat_map(|&(x, y, u)| floats(&[x, y, 0.5, u, 0.0]))
    .collect();
    let plain = |x: f32| 0.8 - 0.6 * x / 640.0;
    let wrapped = |x: f32| 0.8 + 0.4 * x / 640.0;
    ok(dev.set_render_state_raw(201, 1)); // D3DRS_WRAP11 = D3DWRAPCOORD_0
    for (name, ps, u) in [("TEXCOORD11", ps11, true), ("TEXCOORD2", ps2, false)] {
        ok(dev.set_pixel_shader(Some(ps)));
        ok(dev.set_fvf(D3DFVF_XYZ | D3DFVF_TEX1));
        ok(dev.clear(&[], ClearFlags::TARGET, 0, 1.0, 0));
        ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &quad, 20));
        match u {
            true => assert_row(&mut dev, 640, name, wrapped),
            false => assert_row(&mut dev, 640, name, plain),
        }
    }
    assert_eq!(ok(dev.render_state_raw(201)), 1);
}

/// AMD's Fetch4 (`D3DSAMP_MIPMAPLODBIAS` = `MAKEFOURCC('G','E','T','4')`) on one-channel
/// textures: every pixel stage's sample returns the 2x2 texels from the coordinate's texel
/// (u0, v0) on, as (r, g, b, a) = ((u1, v0), (u0, v1), (u1, v1), (u0, v0)), clamped at the
/// edge (Wine's test_fetch4 on AMD, its texels); not on A8R8G8B8; `GET1` turns it off.
#[test]
fn gpu_fetch4_gathers_the_texels_from_the_coordinates_on() {
    const MIPMAPLODBIAS: u32 = 8;
    let (get4, get1) = (u32::from_le_bytes(*b"GET4"), u32::from_le_bytes(*b"GET1"));
    let mut dev = device();
    // test_fetch4's 4x4 texels, row by row.
    let rows: [[u8; 4]; 4] = [
        [0x13, 0x12, 0x11, 0x10],
        [0x02, 0xf2, 0xf1, 0x01],
        [0x04, 0xf4, 0xf3, 0x03],
        [0x23, 0x22, 0x21, 0x20],
    ];
    let texel = |x: usize, y: usize| u32::from(rows[y.min(3)][x.min(3)]);
    let l8 = ok(dev.create_texture(4, 4, 1, Format::L8));
    ok(dev.update_texture(l8, 0, rows.as_flattened()));
    let argb = ok(dev.create_texture(4, 4, 1, Format::A8R8G8B8));
    let grey: Vec<u8> = rows
        .as_flattened()
        .iter()
        .flat_map(|&l| [l, l, l, 0xff])
        .collect();
    ok(dev.update_texture(argb, 0, &grey));
    for state in [
        SamplerState::AddressU(TextureAddress::Clamp),
        SamplerState::AddressV(TextureAddress::Clamp),
    ] {
        ok(dev.set_sampler_state(0, state));
    }
    ok(dev.set_sampler_state(0, SamplerState::MagFilter(TextureFilter::Point)));
    ok(dev.set_sampler_state(0, SamplerState::MinFilter(TextureFilter::Point)));
    // 16 pixels a texel; pixel (4 + 16i, 4 + 16j) reads a quarter into texel (i, j).
    let quad = textured_quad([0.0, 0.0, 64.0, 64.0], [0.0, 0.0, 1.0, 1.0]);
    let mut stages = pixel_stages(&mut dev);
    // The gathered alpha lane, moved to r, g and b.
    let alpha = "ps_2_0\ndcl t0.xy\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0.w\n";
    let alpha = ok(dev.create_pixel_shader(&tokens(alpha)));
    stages.push(("ps_2_0 alpha", Some(alpha)));
    for (name, ps) in stages {
        ok(dev.set_pixel_shader(ps));
        for (texture, bias) in [(l8, get4), (l8, get1), (argb, get4)] {
            ok(dev.set_texture(0, Some(texture)));
            ok(dev.set_sampler_state_raw(0, MIPMAPLODBIAS, bias));
            ok(dev.clear(&[], ClearFlags::TARGET, 0, 1.0, 0));
            draw(&mut dev, &quad);
            let fetch4 = texture == l8 && bias == get4;
            for (i, j) in [(0, 0), (1, 0), (3, 0), (0, 1), (2, 2), (3, 3)] {
                let (x, y) = (4 + 16 * i, 4 + 16 * j);
                let (r, g, b, a) = match fetch4 {
                    true => (
                        texel(i + 1, j),
                        texel(i, j + 1),
                        texel(i + 1, j + 1),
                        texel(i, j),
                    ),
                    false => (texel(i, j), texel(i, j), texel(i, j), texel(i, j)),
                };
                let want = match (name, fetch4) {
                    ("ps_2_0 alpha", true) => a * 0x01_0101,
                    ("ps_2_0 alpha", false) => 0xff_ffff,
                    _ => r << 16 | g << 8 | b,
                };
                let got = px(&mut dev, x as u32, y as u32);
                assert_eq!(
                    got, want,
                    "{name}, Fetch4 {fetch4}, texel ({i}, {j}): {got:#08x}, expected {want:#08x}"
                );
            }
        }
    }
}
