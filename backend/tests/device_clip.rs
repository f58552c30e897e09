//! User clip planes (`SetClipPlane`, `D3DRS_CLIPPLANEENABLE`): with a vertex shader the
//! planes are in clip space, with the fixed-function pipeline in world space (carried into
//! clip space through View · Projection); pre-transformed vertices are not clipped;
//! changing a plane translates nothing again. GPU tests fail without an adapter.

#![allow(clippy::panic)] // a failing test says why

#[allow(dead_code)]
mod device_common;
use d3d9_backend::device::CullMode;
use d3d9_backend::device::{
    ClearFlags, Device, PrimitiveType, RenderState, TransformState, IDENTITY,
};
use d3d9_translator::asm::assemble_tokens;
use device_common::{device, floats, ok};

const D3DFVF_XYZ: u32 = 0x002;
const D3DFVF_XYZRHW: u32 = 0x004;
const D3DRS_CLIPPLANEENABLE: u32 = 152;
const BLUE: u32 = 0xff00_00ff;
const WHITE: u32 = 0xffff_ffff;

/// A quad of FVF XYZ vertices from (-1, -1) to (1, 1) at z 0.5, as a triangle strip.
fn xyz_quad(dev: &mut Device) {
    let vb = ok(dev.create_vertex_buffer_with(&floats(&[
        -1.0, -1.0, 0.5, -1.0, 1.0, 0.5, 1.0, -1.0, 0.5, 1.0, 1.0, 0.5,
    ])));
    ok(dev.set_fvf(D3DFVF_XYZ));
    ok(dev.set_stream_source(0, Some(vb), 0, 12));
}

fn draw(dev: &mut Device) {
    ok(dev.clear(&[], ClearFlags::TARGET, BLUE, 1.0, 0));
    ok(dev.draw_primitive(PrimitiveType::TriangleStrip, 0, 2));
}

fn px(dev: &mut Device, x: u32, y: u32) -> u32 {
    ok(dev.pixel(x, y))
}

fn setup() -> Device {
    let mut dev = device();
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    ok(dev.set_render_state(RenderState::Lighting(false)));
    dev
}

/// With a vertex shader the planes are in clip space: `x >= 0` keeps the right half and
/// `-y + 0.5 >= 0` drops the top quarter; a disabled plane clips nothing, and moving a plane
/// pairs nothing again.
#[test]
fn gpu_clip_planes_with_a_vertex_shader_are_in_clip_space() {
    let mut dev = setup();
    xyz_quad(&mut dev);
    let vs = ok(dev.create_vertex_shader(&ok(assemble_tokens(
        "vs_2_0\ndcl_position v0\nmov oPos, v0\nmov oD0, c0\n",
    ))));
    ok(dev.set_vertex_shader(Some(vs)));
    ok(dev.set_vertex_shader_constant_f(0, &[[1.0, 1.0, 1.0, 1.0]]));
    ok(dev.set_clip_plane(0, [1.0, 0.0, 0.0, 0.0]));
    ok(dev.set_clip_plane(1, [0.0, -1.0, 0.0, 0.5]));
    // Planes set but not enabled clip nothing.
    draw(&mut dev);
    assert_eq!(
        (px(&mut dev, 100, 240), px(&mut dev, 540, 60)),
        (WHITE, WHITE)
    );
    ok(dev.set_render_state(RenderState::ClipPlaneEnable(0b01)));
    draw(&mut dev);
    for (x, y, want) in [
        (100, 240, BLUE),
        (316, 240, BLUE),
        (324, 240, WHITE),
        (540, 60, WHITE),
    ] {
        assert_eq!(px(&mut dev, x, y), want, "plane 0: ({x}, {y})");
    }
    let misses = dev.cache_stats().0.misses;
    ok(dev.set_render_state(RenderState::ClipPlaneEnable(0b11)));
    draw(&mut dev);
    // y_clip 0.5 is row 120 (D3D9 pixel centres).
    for (x, y, want) in [
        (100, 300, BLUE),
        (540, 60, BLUE),
        (540, 116, BLUE),
        (540, 124, WHITE),
        (540, 300, WHITE),
    ] {
        assert_eq!(px(&mut dev, x, y), want, "planes 0 and 1: ({x}, {y})");
    }
    // Another plane: a uniform, not a new translation.
    ok(dev.set_clip_plane(1, [0.0, 1.0, 0.0, 0.0]));
    draw(&mut dev);
    assert_eq!(
        (px(&mut dev, 540, 60), px(&mut dev, 540, 300)),
        (WHITE, BLUE)
    );
    assert_eq!(dev.cache_stats().0.misses, misses);
    // Bits past the sixth plane are ignored (raw state).
    ok(dev.set_render_state_raw(D3DRS_CLIPPLANEENABLE, 0xffff_ffc0));
    draw(&mut dev);
    assert_eq!(
        (px(&mut dev, 100, 300), px(&mut dev, 540, 60)),
        (WHITE, WHITE)
    );
}

/// With the fixed-function pipeline the planes are in world space: with x_clip =
/// 2 · x_world + 0.5 (the projection), `x_world >= 0` is `x_clip >= 0.5`, column 480; a plane
/// applied in clip space as given would cut at column 320 instead.
#[test]
fn gpu_clip_planes_of_the_fixed_function_pipeline_are_in_world_space() {
    let mut dev = setup();
    xyz_quad(&mut dev);
    let mut projection = IDENTITY;
    projection[0][0] = 2.0;
    projection[3][0] = 0.5;
    ok(dev.set_transform(TransformState::Projection, projection));
    ok(dev.set_clip_plane(0, [1.0, 0.0, 0.0, 0.0]));
    ok(dev.set_render_state(RenderState::ClipPlaneEnable(1)));
    draw(&mut dev);
    for (x, want) in [
        (100, BLUE),
        (400, BLUE),
        (476, BLUE),
        (484, WHITE),
        (600, WHITE),
    ] {
        assert_eq!(px(&mut dev, x, 240), want, "column {x}");
    }
    // The view matrix takes part too: a view translating x by -0.25 moves the cut to
    // x_clip = 2 · (0 - 0.25) + 0.5 = 0, column 320.
    let mut view = IDENTITY;
    view[3][0] = -0.25;
    ok(dev.set_transform(TransformState::View, view));
    draw(&mut dev);
    for (x, want) in [(316, BLUE), (324, WHITE)] {
        assert_eq!(px(&mut dev, x, 240), want, "column {x} with the view");
    }
    // A singular View · Projection cannot carry a world-space plane: refused, not guessed.
    let mut flat = IDENTITY;
    flat[0][0] = 0.0;
    ok(dev.set_transform(TransformState::Projection, flat));
    match dev.draw_primitive(PrimitiveType::TriangleStrip, 0, 2) {
        Err(e) if !e.is_invalid_call() => assert!(e.to_string().contains("singular"), "{e}"),
        other => panic!("expected Unsupported, got {other:?}"),
    }
}

/// Pre-transformed (XYZRHW) vertices skip the vertex pipeline, user planes included.
#[test]
fn gpu_pretransformed_vertices_are_not_clipped_by_user_planes() {
    let mut dev = setup();
    let vb = ok(dev.create_vertex_buffer_with(&floats(&[
        0.0, 0.0, 0.5, 1.0, 0.0, 480.0, 0.5, 1.0, 640.0, 0.0, 0.5, 1.0, 640.0, 480.0, 0.5, 1.0,
    ])));
    ok(dev.set_fvf(D3DFVF_XYZRHW));
    ok(dev.set_stream_source(0, Some(vb), 0, 16));
    ok(dev.set_clip_plane(0, [-1.0, 0.0, 0.0, -5.0]));
    ok(dev.set_render_state(RenderState::ClipPlaneEnable(1)));
    draw(&mut dev);
    assert_eq!(
        (px(&mut dev, 10, 10), px(&mut dev, 630, 470)),
        (WHITE, WHITE)
    );
}

/// `GetClipPlane` returns what was set; planes 6 and up are `D3DERR_INVALIDCALL`.
#[test]
fn gpu_clip_plane_numbers() {
    let mut dev = device();
    assert_eq!(ok(dev.get_clip_plane(5)), [0.0; 4]);
    ok(dev.set_clip_plane(5, [1.0, 2.0, 3.0, 4.0]));
    assert_eq!(ok(dev.get_clip_plane(5)), [1.0, 2.0, 3.0, 4.0]);
    for index in [6, 32, u32::MAX] {
        match dev.set_clip_plane(index, [0.0; 4]) {
            Err(e) if e.is_invalid_call() => {}
            other => panic!("SetClipPlane({index}): {other:?}"),
        }
        match dev.get_clip_plane(index) {
            Err(e) if e.is_invalid_call() => {}
            other => panic!("GetClipPlane({index}): {other:?}"),
        }
    }
}
