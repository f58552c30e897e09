//! `Harness::render_frame`: several draws into one cleared target, in order, with D3D9's cull
//! modes. These tests need an adapter (lavapipe is enough) and fail without one.

#![allow(clippy::panic)] // a failing GPU test says why

use d3d9_backend::device::CullMode;
use d3d9_backend::Gpu;
use d3d9_harness::{Draw, Frame, Harness, Image, ShaderStage, Target};

/// A full-screen triangle pair and a small triangle, both wound as D3D9 front faces
/// (clockwise on screen), plus the same small triangle wound counter-clockwise.
const WGSL: &str = "
@vertex fn full(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    // Triangle strip (-1,-1) (-1,1) (1,-1) (1,1): Wine's quad, clockwise on screen.
    var p = array<vec2<f32>, 4>(vec2(-1.0, -1.0), vec2(-1.0, 1.0), vec2(1.0, -1.0), vec2(1.0, 1.0));
    return vec4<f32>(p[i], 0.5, 1.0);
}
@vertex fn cw(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    // Left half, top to bottom-right to bottom-left: clockwise on screen.
    var p = array<vec2<f32>, 3>(vec2(-1.0, 1.0), vec2(0.0, -1.0), vec2(-1.0, -1.0));
    return vec4<f32>(p[i], 0.5, 1.0);
}
@vertex fn ccw(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    // The same triangle, counter-clockwise on screen.
    var p = array<vec2<f32>, 3>(vec2(-1.0, 1.0), vec2(-1.0, -1.0), vec2(0.0, -1.0));
    return vec4<f32>(p[i], 0.5, 1.0);
}
@fragment fn red() -> @location(0) vec4<f32> { return vec4<f32>(1.0, 0.0, 0.0, 1.0); }
@fragment fn green() -> @location(0) vec4<f32> { return vec4<f32>(0.0, 1.0, 0.0, 1.0); }
";

fn gpu() -> Gpu {
    Gpu::new().unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"))
}

fn target() -> Target {
    Target::rgba8(64, 64).cleared_to(wgpu::Color::BLUE)
}

fn draw<'a>(vertex: &'a str, fragment: &'a str, count: u32, strip: bool) -> Draw<'a> {
    let shader = ShaderStage::wgsl(WGSL);
    Draw {
        topology: if strip {
            wgpu::PrimitiveTopology::TriangleStrip
        } else {
            wgpu::PrimitiveTopology::TriangleList
        },
        ..Draw::new(
            shader.entry(vertex),
            shader.entry(fragment),
            count,
            target(),
        )
    }
}

fn render(draws: &[Draw<'_>], cull: CullMode) -> Image {
    gpu()
        .render_frame(&Frame {
            target: target(),
            draws,
            cull,
        })
        .unwrap_or_else(|e| panic!("{e}"))
}

const RED: [u8; 4] = [255, 0, 0, 255];
const GREEN: [u8; 4] = [0, 255, 0, 255];
const BLUE: [u8; 4] = [0, 0, 255, 255];

#[test]
fn gpu_later_draws_cover_earlier_ones() {
    let image = render(
        &[draw("full", "red", 4, true), draw("cw", "green", 3, false)],
        CullMode::Ccw,
    );
    assert_eq!(image.rgba8(4, 60), Some(GREEN), "inside the small triangle");
    assert_eq!(image.rgba8(60, 4), Some(RED), "outside it");
}

#[test]
fn gpu_default_cull_mode_keeps_clockwise_triangles_only() {
    let image = render(&[draw("cw", "green", 3, false)], CullMode::Ccw);
    assert_eq!(image.rgba8(4, 60), Some(GREEN));
    let image = render(&[draw("ccw", "green", 3, false)], CullMode::Ccw);
    assert_eq!(image.rgba8(4, 60), Some(BLUE), "D3DCULL_CCW discards it");
}

#[test]
fn gpu_cull_cw_and_none() {
    let image = render(&[draw("cw", "green", 3, false)], CullMode::Cw);
    assert_eq!(image.rgba8(4, 60), Some(BLUE), "D3DCULL_CW discards it");
    let image = render(&[draw("ccw", "green", 3, false)], CullMode::Cw);
    assert_eq!(image.rgba8(4, 60), Some(GREEN));
    let image = render(&[draw("ccw", "green", 3, false)], CullMode::None);
    assert_eq!(image.rgba8(4, 60), Some(GREEN));
}

#[test]
fn gpu_empty_frame_is_the_clear_colour() {
    let image = render(&[], CullMode::Ccw);
    assert_eq!(image.rgba8(0, 0), Some(BLUE));
    assert_eq!(image.rgba8(63, 63), Some(BLUE));
}
