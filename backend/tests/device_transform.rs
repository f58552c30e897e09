//! `SetTransform` / `GetTransform` and the fixed-function vertex stage's world, view and
//! projection matrices: D3D9's row-major matrices transforming row vectors
//! (`clip = v · World · View · Projection`), checked pixel by pixel against the same
//! transform computed on the CPU; vertex fog from the eye-space depth; the matrices as
//! constants (changing one translates nothing again); the state numbers D3D9 defines. GPU
//! tests fail without an adapter.

#![allow(clippy::panic)] // a failing test says why

#[allow(dead_code)]
mod device_common;
use d3d9_backend::device::{
    ClearFlags, Device, DeviceParams, FogMode, Format, Matrix, PrimitiveType, RenderState,
    TransformState, IDENTITY,
};
use d3d9_translator::decl::VertexProcessing;
use device_common::{device, floats, ok};

const D3DFVF_XYZ: u32 = 0x002;
const BLUE: u32 = 0xff00_00ff;
const WHITE: u32 = 0xffff_ffff;

/// `v · m` for a row vector, as D3D9 transforms.
fn transform(v: [f64; 4], m: &Matrix) -> [f64; 4] {
    let mut out = [0.0; 4];
    for (j, o) in out.iter_mut().enumerate() {
        *o = (0..4).map(|i| v[i] * f64::from(m[i][j])).sum();
    }
    out
}

/// World: scale (0.6, 0.8, 1), rotate 30° about z (D3D9's `D3DXMatrixRotationZ`: row 0 is
/// (cos, sin)), translate (0.1, −0.2, 0.5) in row 3.
fn world() -> Matrix {
    let (s, c) = 30f32.to_radians().sin_cos();
    [
        [0.6 * c, 0.6 * s, 0.0, 0.0],
        [-0.8 * s, 0.8 * c, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.1, -0.2, 0.5, 1.0],
    ]
}

/// View: the eye 2.5 units behind the origin, shifted right by 0.3.
fn view() -> Matrix {
    let mut m = IDENTITY;
    m[3] = [-0.3, 0.0, 2.5, 1.0];
    m
}

/// Projection: `D3DXMatrixPerspectiveFovLH(60°, 4/3, 1, 10)`: w = eye z.
fn projection() -> Matrix {
    let (zn, zf) = (1.0f32, 10.0f32);
    let y = 1.0 / 30f32.to_radians().tan();
    let x = y / (4.0 / 3.0);
    let q = zf / (zf - zn);
    [
        [x, 0.0, 0.0, 0.0],
        [0.0, y, 0.0, 0.0],
        [0.0, 0.0, q, 1.0],
        [0.0, 0.0, -zn * q, 0.0],
    ]
}

/// Twice the signed area of (a, b, p): which side of edge a→b the point p lies on.
fn edge(a: [f64; 2], b: [f64; 2], p: [f64; 2]) -> f64 {
    (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
}

/// A triangle with FVF XYZ at three depths, through world, view and a perspective
/// projection (w ≠ 1, different per vertex), lands on the pixels the CPU computes: D3D9
/// pixel (x, y) is covered when its centre (x, y) in screen coordinates
/// (`((ndc.x + 1)/2 · W, (1 − ndc.y)/2 · H)`) is inside. Pixels within 0.02 of an edge are
/// left out (the fill rule's and rounding's business); the others must be exact, so a
/// transposed matrix, a missing matrix or a wrong multiplication order fails.
#[test]
fn gpu_triangle_through_world_view_projection_lands_on_cpu_pixels() {
    let mut dev = device();
    ok(dev.set_render_state(RenderState::Lighting(false)));
    ok(dev.set_fvf(D3DFVF_XYZ));
    let (w, v, p) = (world(), view(), projection());
    ok(dev.set_transform(TransformState::WORLD, w));
    ok(dev.set_transform(TransformState::View, v));
    ok(dev.set_transform(TransformState::Projection, p));
    let triangle: [[f32; 3]; 3] = [[-1.0, -1.0, 0.0], [0.2, 1.1, 0.8], [1.2, -0.6, -0.7]];
    ok(dev.clear(&[], ClearFlags::TARGET, BLUE, 1.0, 0));
    let data: Vec<f32> = triangle.iter().flatten().copied().collect();
    // D3D9 culls counter-clockwise triangles by default; draw both windings.
    ok(dev.set_render_state(RenderState::CullMode(d3d9_backend::device::CullMode::None)));
    ok(dev.draw_primitive_up(PrimitiveType::TriangleList, 1, &floats(&data), 12));
    let rt = dev.back_buffer();
    let s = ok(dev.get_render_target_data(rt));
    let (width, height) = (f64::from(s.width), f64::from(s.height));
    let screen: Vec<[f64; 2]> = triangle
        .iter()
        .map(|t| {
            let m = [f64::from(t[0]), f64::from(t[1]), f64::from(t[2]), 1.0];
            let clip = transform(transform(transform(m, &w), &v), &p);
            assert!(
                clip[3] > 1.0,
                "the projection gives w = eye z ≠ 1: {clip:?}"
            );
            let (nx, ny) = (clip[0] / clip[3], clip[1] / clip[3]);
            [(nx + 1.0) / 2.0 * width, (1.0 - ny) / 2.0 * height]
        })
        .collect();
    let area = edge(screen[0], screen[1], screen[2]);
    let (mut inside, mut outside) = (0, 0);
    for y in 0..s.height {
        for x in 0..s.width {
            let centre = [f64::from(x), f64::from(y)];
            let d: Vec<f64> = (0..3)
                .map(|i| {
                    let (a, b) = (screen[i], screen[(i + 1) % 3]);
                    let length = ((b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2)).sqrt();
                    edge(a, b, centre) * area.signum() / length
                })
                .collect();
            if d.iter().any(|&e| e.abs() < 0.02) {
                continue;
            }
            let covered = d.iter().all(|&e| e > 0.0);
            let got = s.color(x, y).unwrap_or_else(|| panic!("({x}, {y})"));
            let expected = if covered { WHITE } else { BLUE };
            assert_eq!(
                got, expected,
                "pixel ({x}, {y}), screen triangle {screen:?}"
            );
            if covered {
                inside += 1;
            } else {
                outside += 1;
            }
        }
    }
    assert!(
        inside > 10_000 && outside > 10_000,
        "{inside} in, {outside} out"
    );
}

/// Fixed-function vertex fog (LINEAR, start 0, end 1) takes the eye-space depth, z after
/// world and view, not the projected one: a quad at model z 0 moved to eye z 0.5 by the
/// view, and projected to z 0.25, is fogged by half (white on black fog: 0x80).
#[test]
fn gpu_vertex_fog_uses_the_eye_space_depth() {
    let mut dev = device();
    ok(dev.set_render_state(RenderState::Lighting(false)));
    ok(dev.set_fvf(D3DFVF_XYZ));
    let mut view = IDENTITY;
    view[3] = [0.0, 0.0, 0.5, 1.0];
    let mut projection = IDENTITY;
    projection[2][2] = 0.5;
    ok(dev.set_transform(TransformState::View, view));
    ok(dev.set_transform(TransformState::Projection, projection));
    ok(dev.set_render_state(RenderState::FogEnable(true)));
    ok(dev.set_render_state(RenderState::FogColor(0xff00_0000)));
    ok(dev.set_render_state(RenderState::FogVertexMode(FogMode::Linear)));
    ok(dev.set_render_state(RenderState::FogStart(0.0)));
    ok(dev.set_render_state(RenderState::FogEnd(1.0)));
    let quad = [
        -1.0, -1.0, 0.0, -1.0, 1.0, 0.0, 1.0, -1.0, 0.0, 1.0, 1.0, 0.0f32,
    ];
    ok(dev.clear(&[], ClearFlags::TARGET, BLUE, 1.0, 0));
    ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &floats(&quad), 12));
    let rt = dev.back_buffer();
    let s = ok(dev.get_render_target_data(rt));
    let c = s.color(320, 240).unwrap_or_else(|| panic!("(320, 240)"));
    for shift in [0, 8, 16] {
        let channel = (c >> shift) & 0xff;
        assert!(
            (0x7e..=0x81).contains(&channel),
            "fog factor 0.5 of the eye depth: got {c:#010x}"
        );
    }
}

/// The matrices are the fixed-function stage's constants: a new transform draws in the new
/// place without translating the stage again (the pair cache hits), and moving back gives
/// the first picture; on hardware and on software vertex processing devices (8192 `c#` in
/// a storage buffer).
#[test]
fn gpu_changing_a_transform_translates_nothing() {
    for processing in [VertexProcessing::Hardware, VertexProcessing::Software] {
        changing_a_transform_translates_nothing(processing);
    }
}

fn changing_a_transform_translates_nothing(processing: VertexProcessing) {
    let mut dev = Device::new(DeviceParams {
        processing,
        ..DeviceParams::default()
    })
    .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let rt = ok(dev.create_render_target(64, 64, Format::A8R8G8B8));
    ok(dev.set_render_target(0, Some(rt)));
    ok(dev.set_render_state(RenderState::Lighting(false)));
    ok(dev.set_fvf(D3DFVF_XYZ));
    // A quad over the left half of the target.
    let quad = [
        -1.0, -1.0, 0.5, -1.0, 1.0, 0.5, 0.0, -1.0, 0.5, 0.0, 1.0, 0.5f32,
    ];
    let draw = |dev: &mut Device| {
        ok(dev.clear(&[], ClearFlags::TARGET, BLUE, 1.0, 0));
        ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &floats(&quad), 12));
        ok(dev.get_render_target_data(rt))
    };
    let first = draw(&mut dev);
    assert_eq!(first.color(10, 32), Some(WHITE));
    assert_eq!(first.color(50, 32), Some(BLUE));
    let misses = dev.cache_stats().0.misses;
    // The world matrix moves it to the right half.
    let mut world = IDENTITY;
    world[3] = [1.0, 0.0, 0.0, 1.0];
    ok(dev.set_transform(TransformState::WORLD, world));
    let moved = draw(&mut dev);
    assert_eq!(moved.color(10, 32), Some(BLUE));
    assert_eq!(moved.color(50, 32), Some(WHITE));
    ok(dev.set_transform(TransformState::WORLD, IDENTITY));
    let back = draw(&mut dev);
    assert_eq!(back.color(10, 32), Some(WHITE));
    assert_eq!(back.color(50, 32), Some(BLUE));
    assert_eq!(
        dev.cache_stats().0.misses,
        misses,
        "{processing:?}: a transform change translated the fixed-function stage again"
    );
}

/// `GetTransform` returns what `SetTransform` set (identity before), by typed state and
/// by D3D9's number; numbers D3D9 does not define are `D3DERR_INVALIDCALL` and change
/// nothing.
#[test]
fn gpu_get_transform_returns_what_was_set_and_bad_states_are_invalid() {
    let mut dev = device();
    let states = [
        (TransformState::View, 2u32),
        (TransformState::Projection, 3),
        (TransformState::Texture(0), 16),
        (TransformState::Texture(7), 23),
        (TransformState::WORLD, 256),
        (TransformState::World(1), 257),
        (TransformState::World(255), 511),
    ];
    for (i, &(state, number)) in states.iter().enumerate() {
        assert_eq!(ok(dev.get_transform(state)), IDENTITY, "{state:?} default");
        let mut m = IDENTITY;
        m[3] = [i as f32, 2.0, 3.0, 1.0];
        m[0][1] = 0.5;
        ok(dev.set_transform(state, m));
        assert_eq!(ok(dev.get_transform(state)), m);
        assert_eq!(ok(dev.get_transform_raw(number)), m);
        m[1][2] = -4.0;
        ok(dev.set_transform_raw(number, m));
        assert_eq!(ok(dev.get_transform(state)), m, "{number}");
        assert_eq!(TransformState::from_d3d(number), Some(state));
    }
    for number in [0u32, 1, 4, 15, 24, 100, 255, 512, u32::MAX] {
        let set = dev.set_transform_raw(number, IDENTITY);
        assert!(
            set.as_ref().is_err_and(|e| e.is_invalid_call()),
            "SetTransform({number}): {set:?}"
        );
        let get = dev.get_transform_raw(number);
        assert!(
            get.as_ref().is_err_and(|e| e.is_invalid_call()),
            "GetTransform({number}): {get:?}"
        );
    }
    let before = ok(dev.get_transform(TransformState::View));
    let e = dev.set_transform(TransformState::Texture(8), IDENTITY);
    assert!(e.is_err_and(|e| e.is_invalid_call()));
    assert_eq!(ok(dev.get_transform(TransformState::View)), before);
}

/// Bind `vs` (vs_2_0 text), a ps_2_0 writing opaque blue, FVF XYZ, no culling, and fog on
/// with a green fog colour (the scene of the fog tests here).
fn blue_under_green_fog(dev: &mut Device, vs: &str) {
    let vs = ok(dev.create_vertex_shader(&ok(d3d9_translator::asm::assemble_tokens(vs))));
    let ps = ok(
        dev.create_pixel_shader(&ok(d3d9_translator::asm::assemble_tokens(
            "ps_2_0\ndef c0, 0.0, 0.0, 1.0, 1.0\nmov oC0, c0\n",
        ))),
    );
    ok(dev.set_vertex_shader(Some(vs)));
    ok(dev.set_pixel_shader(Some(ps)));
    ok(dev.set_fvf(D3DFVF_XYZ));
    ok(dev.set_render_state(RenderState::CullMode(d3d9_backend::device::CullMode::None)));
    ok(dev.set_render_state(RenderState::FogEnable(true)));
    ok(dev.set_render_state(RenderState::FogColor(0xff00_ff00)));
}

/// Table fog takes its distance from w when `D3DTS_PROJECTION` is "W-friendly" (its last
/// column is not (0, 0, 0, 1)) and from z otherwise, whatever stage made the position: a
/// vertex shader writing w = 0.5 and z/w = 0.2 gives LINEAR fog (start 0, end 1) a factor
/// of 0.8 from z and 0.5 from w. Changing the projection's kind changes the pixel stage.
#[test]
fn gpu_table_fog_reads_w_with_a_w_friendly_projection() {
    let mut dev = device();
    blue_under_green_fog(
        &mut dev,
        "vs_2_0\ndcl_position v0\ndef c0, 0.5, 0.5, 0.5, 0.5\nmul oPos, v0, c0\n",
    );
    ok(dev.set_render_state(RenderState::FogTableMode(FogMode::Linear)));
    ok(dev.set_render_state(RenderState::FogStart(0.0)));
    ok(dev.set_render_state(RenderState::FogEnd(1.0)));
    let tri = floats(&[-1.0, -1.0, 0.2, -1.0, 3.0, 0.2, 3.0, -1.0, 0.2]);
    let mut perspective = IDENTITY;
    perspective[2][3] = 1.0;
    perspective[3][3] = 0.0;
    // green = 255 · (1 − f): 51 from z (f = 0.8), 128 from w (f = 0.5).
    for (projection, green) in [(IDENTITY, 0x33), (perspective, 0x80), (IDENTITY, 0x33)] {
        ok(dev.set_transform(TransformState::Projection, projection));
        ok(dev.clear(&[], ClearFlags::TARGET, BLUE, 1.0, 0));
        ok(dev.draw_primitive_up(PrimitiveType::TriangleList, 1, &tri, 12));
        let got = ok(dev.pixel(320, 240));
        let g = (got >> 8) & 0xff;
        assert!(
            g.abs_diff(green) <= 1 && got & 0xff >= 0x7e,
            "projection {projection:?}: {got:#010x}, want green {green:#x}"
        );
    }
}

/// The ulp distance of two floats of the same sign.
fn ulps(a: f32, b: f32) -> u32 {
    a.to_bits().abs_diff(b.to_bits())
}

/// The green channel of each probed pixel of a 640x480 A32B32G32R32F target.
fn float_greens(
    dev: &mut Device,
    target: d3d9_backend::device::SurfaceId,
    at: &[(u32, u32)],
) -> Vec<f32> {
    let data = ok(dev.get_render_target_data(target));
    at.iter()
        .map(|&(x, y)| {
            let texel = data
                .texel(x, y)
                .unwrap_or_else(|| panic!("({x}, {y}) outside"));
            f32::from_le_bytes([texel[4], texel[5], texel[6], texel[7]])
        })
        .collect()
}

/// vkd3d's `fog.shader_test`: a quad filling the viewport with z from 0.2 (left) to 0.6
/// (right) under LINEAR table fog (0.1 to 1.1) gives 1 − f = 0.2 at pixel 160 and 0.4 at 480
/// within 64 ulps. With the half-pixel offset added in the vertex shader the quad reached
/// half a pixel past the clip volume, and lavapipe's clipped primitives came out with depths
/// up to 2e-5 low (a scale of 1 − 7.3e-5 across x); the device now moves the viewport by
/// half a pixel instead where viewports may be fractional (GL keeps the shader offset, and
/// interpolates it exactly). The corners are covered: the offset loses no edge pixel.
#[test]
fn gpu_a_viewport_filling_quad_interpolates_depth_exactly() {
    let mut dev = device();
    let target = ok(dev.create_render_target(640, 480, Format::A32B32G32R32F));
    ok(dev.set_render_target(0, Some(target)));
    blue_under_green_fog(&mut dev, "vs_2_0\ndcl_position v0\nmov oPos, v0\n");
    ok(dev.set_render_state(RenderState::FogTableMode(FogMode::Linear)));
    ok(dev.set_render_state(RenderState::FogStart(0.1)));
    ok(dev.set_render_state(RenderState::FogEnd(1.1)));
    ok(dev.clear(&[], ClearFlags::TARGET, 0xffff_0000, 1.0, 0));
    let quad = floats(&[
        -1.0, -1.0, 0.2, -1.0, 1.0, 0.2, 1.0, -1.0, 0.6, 1.0, 1.0, 0.6,
    ]);
    ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &quad, 12));
    let at = [
        (160, 120),
        (480, 360),
        (0, 0),
        (639, 479),
        (0, 479),
        (639, 0),
    ];
    let greens = float_greens(&mut dev, target, &at);
    for (&(x, y), (&got, want)) in at.iter().zip(greens.iter().zip([0.2f32, 0.4])) {
        assert!(
            ulps(got, want) <= 64,
            "({x}, {y}): green {got}, want {want}"
        );
    }
    // Pixel 0 lies at z = 0.2 + 0.4 · 0 / 640 ... 639 at 0.2 + 0.4 · 639 / 640: no corner
    // keeps the clear colour's green of 0 (every one is fogged by f in (0.5, 0.9)).
    for (&(x, y), &g) in at.iter().zip(&greens).skip(2) {
        assert!(
            (0.09..0.51).contains(&g),
            "({x}, {y}) not covered: green {g}"
        );
    }
}

/// A 640 x 480 float render target set as target 0, and a strip of XYZ vertices covering
/// the screen at z = 0.5.
fn float_target_and_screen_quad(dev: &mut Device) -> (d3d9_backend::device::SurfaceId, Vec<u8>) {
    let target = ok(dev.create_render_target(640, 480, Format::A32B32G32R32F));
    ok(dev.set_render_target(0, Some(target)));
    let quad = floats(&[
        -1.0, -1.0, 0.5, -1.0, 1.0, 0.5, 1.0, -1.0, 0.5, 1.0, 1.0, 0.5,
    ]);
    (target, quad)
}

/// vkd3d's `fog.shader_test` (Windows results): a vertex shader that writes no `oFog` but
/// writes `oD1` has the fixed-function vertex fog stage take the factor from `oD1.a` (0.3:
/// green 1 − 0.3 = 0.7 over a blue pixel with green fog); without `oD1` the factor is FOG's
/// default 0, fully fogged (Wine's `fog_with_shader_test`).
#[test]
fn gpu_vertex_fog_without_ofog_reads_the_specular_alpha() {
    let mut dev = device();
    let (target, quad) = float_target_and_screen_quad(&mut dev);
    let with_specular =
        "vs_2_0\ndcl_position v0\ndef c0, 0.0, 0.0, 0.0, 0.3\nmov oPos, v0\nmov oD1, c0\n";
    let without = "vs_2_0\ndcl_position v0\nmov oPos, v0\n";
    let with_ofog = "vs_2_0\ndcl_position v0\ndef c0, 0.0, 0.0, 0.0, 0.3\ndef c1, 0.5, 0.5, 0.5, 0.5\nmov oPos, v0\nmov oD1, c0\nmov oFog, c1.x\n";
    for (text, green) in [(with_specular, 0.7f32), (without, 1.0), (with_ofog, 0.5)] {
        blue_under_green_fog(&mut dev, text);
        ok(dev.clear(&[], ClearFlags::TARGET, 0xffff_0000, 1.0, 0));
        ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &quad, 12));
        let got = float_greens(&mut dev, target, &[(320, 240)])[0];
        assert!(ulps(got, green) <= 64, "{text}: green {got}, want {green}");
    }
}

/// The fog stage's colour is read at each draw: a second draw of the same shaders and
/// vertices after `D3DRS_FOGCOLOR` changes shows the new colour (nothing else changed, so
/// the pixel constants are found again by the fog states).
#[test]
fn gpu_a_new_fog_colour_reaches_the_next_draw() {
    let mut dev = device();
    let (target, quad) = float_target_and_screen_quad(&mut dev);
    blue_under_green_fog(
        &mut dev,
        "vs_2_0\ndcl_position v0\ndef c1, 0.5, 0.5, 0.5, 0.5\nmov oPos, v0\nmov oFog, c1.x\n",
    );
    for (fog, green) in [
        (0xff00_ff00, 0.5f32),
        (0xffff_0000, 0.0),
        (0xff00_ff00, 0.5),
    ] {
        ok(dev.set_render_state(RenderState::FogColor(fog)));
        ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &quad, 12));
        let got = float_greens(&mut dev, target, &[(320, 240)])[0];
        assert!(
            ulps(got, green) <= 64,
            "fog {fog:#x}: green {got}, want {green}"
        );
    }
}
