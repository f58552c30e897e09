//! A rotated cube lit per vertex by one directional light through
//! `shaders/lit_cube.asm` (vs_1_1: `m4x4` transform, `dp3`/`max` diffuse),
//! FVF `D3DFVF_XYZ | D3DFVF_NORMAL`, indexed, D3D9's default culling.

use d3d9_translator::decl::fvf::{D3DFVF_NORMAL, D3DFVF_XYZ};

use super::{direction, projection, rgba, Scene, SceneKind};
use crate::draw::{Constants, Declaration, SceneDraw};
use crate::math::{cross, front_facing, scale, Mat4, Vec3};

pub(super) const SCENE: Scene = Scene {
    name: "lit_cube",
    description:
        "rotated cube, directional per-vertex diffuse light (vs_1_1, FVF XYZ | NORMAL, indexed)",
    calls: super::DRAW_CALLS,
    shaders: &[SHADER],
    kind: SceneKind::Draw(setup),
};

const SHADER: &str = include_str!("../../../shaders/lit_cube.asm");

/// D3DFVF_XYZ | D3DFVF_NORMAL.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Vertex {
    position: Vec3,
    normal: Vec3,
}

/// The cube's world matrix: tipped 30° towards the camera about x (the top
/// shows), then turned 30° about y (the +x side shows on the right).
/// Animated, it turns about y by `t` radians more.
fn world(t: f32) -> Mat4 {
    Mat4::rotation_x(-30f32.to_radians()).then(&Mat4::rotation_y(30f32.to_radians() + t))
}

/// The camera: from (0, 0, -5) towards the origin.
fn view() -> Mat4 {
    Mat4::look_at_lh([0.0, 0.0, -5.0], [0.0; 3], [0.0, 1.0, 0.0])
}

/// Direction towards the light (world space): up, left and towards the
/// camera. N.L is about 0.87 on the top face, 0.5 on the front face and 0
/// on the right face.
const TO_LIGHT: Vec3 = [-0.5, 0.6, -0.9];

/// A unit cube of half-size 1: four vertices per face with the face's normal
/// (24 vertices, 36 indices), triangles front-facing from outside.
fn cube() -> (Vec<Vertex>, Vec<u16>) {
    let normals: [Vec3; 6] = [
        [1.0, 0.0, 0.0],
        [-1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, -1.0, 0.0],
        [0.0, 0.0, 1.0],
        [0.0, 0.0, -1.0],
    ];
    let mut vertices = Vec::new();
    let mut indices = Vec::new();
    for n in normals {
        // Two axes across the face.
        let u: Vec3 = [n[1].abs(), n[2].abs(), n[0].abs()];
        let v = cross(n, u);
        let base = vertices.len() as u16;
        for (a, b) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
            let p = [
                n[0] + u[0] * a + v[0] * b,
                n[1] + u[1] * a + v[1] * b,
                n[2] + u[2] * a + v[2] * b,
            ];
            vertices.push(Vertex {
                position: p,
                normal: n,
            });
        }
        let positions: Vec<Vec3> = vertices.iter().map(|v| v.position).collect();
        for tri in [[0, 1, 2], [0, 2, 3]] {
            let tri = tri.map(|i| base + i);
            indices.extend(front_facing(&positions, tri, scale(n, 1.0)));
        }
    }
    (vertices, indices)
}

fn setup(t: f32) -> SceneDraw {
    let (vertices, indices) = cube();
    let world = world(t);
    let wvp = world.then(&view()).then(&projection());
    let mut c = Constants::default();
    c.set_f(0, &wvp.columns())
        .set_f(4, &world.columns()[..3])
        .set_f(8, &[direction(TO_LIGHT)])
        .set_f(9, &[rgba(1.0, 0.55, 0.15, 1.0)])
        .set_f(10, &[rgba(0.08, 0.08, 0.12, 0.0)])
        .set_f(11, &[[0.0; 4]]);
    SceneDraw::indexed_triangles(
        SHADER,
        Declaration::Fvf(D3DFVF_XYZ | D3DFVF_NORMAL),
        &vertices,
        indices,
        c,
        0xFF20_2030,
    )
}
