//! The classic first D3D9 sample: one triangle with a D3DCOLOR per vertex
//! (red top, blue bottom right, green bottom left, clockwise as D3D9's
//! default culling wants) through `shaders/triangle.asm`, with FVF
//! `D3DFVF_XYZ | D3DFVF_DIFFUSE` and an identity transform.

use d3d9_backend::device::CullMode;
use d3d9_translator::decl::fvf::{D3DFVF_DIFFUSE, D3DFVF_XYZ};

use super::{Scene, SceneKind};
use crate::draw::{Constants, Declaration, SceneDraw};
use crate::math::Mat4;

pub(super) const SCENE: Scene = Scene {
    name: "triangle",
    description: "one triangle, D3DCOLOR per vertex (vs_1_1, FVF XYZ | DIFFUSE)",
    calls: super::DRAW_CALLS,
    shaders: &[SHADER],
    kind: SceneKind::Draw(setup),
};

const SHADER: &str = include_str!("../../../shaders/triangle.asm");

/// D3DFVF_XYZ | D3DFVF_DIFFUSE.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Vertex {
    position: [f32; 3],
    /// D3DCOLOR, 0xAARRGGBB.
    diffuse: u32,
}

const VERTICES: [Vertex; 3] = [
    Vertex {
        position: [0.0, 0.8, 0.5],
        diffuse: 0xFFFF_0000,
    },
    Vertex {
        position: [0.8, -0.8, 0.5],
        diffuse: 0xFF00_00FF,
    },
    Vertex {
        position: [-0.8, -0.8, 0.5],
        diffuse: 0xFF00_FF00,
    },
];

/// Turns about z (the SDK's Tutorial 3 spins its triangle; about z it stays front-facing).
fn setup(t: f32) -> SceneDraw {
    let mut constants = Constants::default();
    constants.set_f(0, &Mat4::rotation_z(t).columns());
    SceneDraw {
        shader: SHADER,
        declaration: Declaration::Fvf(D3DFVF_XYZ | D3DFVF_DIFFUSE),
        stream: bytemuck::cast_slice(&VERTICES).to_vec(),
        stride: std::mem::size_of::<Vertex>() as u32,
        indices: None,
        vertex_count: 3,
        constants,
        pixel_shader: None,
        cull: CullMode::Ccw,
        // The D3D9 SDK tutorials clear to D3DCOLOR_XRGB(0, 0, 64).
        clear: 0xFF00_0040,
    }
}
