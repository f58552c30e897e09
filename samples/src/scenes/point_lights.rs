//! A floor lit per vertex by four coloured point lights, summed in a
//! `loop aL, i0` with `c[aL + n]` reads, through `shaders/point_lights.asm`
//! (vs_2_0), FVF `D3DFVF_XYZ | D3DFVF_NORMAL`, indexed.

use d3d9_translator::decl::fvf::{D3DFVF_NORMAL, D3DFVF_XYZ};

use super::{projection, rgba, Scene, SceneKind};
use crate::draw::{Constants, Declaration, SceneDraw};
use crate::math::{front_facing, Mat4, Vec3};

pub(super) const SCENE: Scene = Scene {
    name: "point_lights",
    description: "floor lit by four coloured point lights summed in loop aL, i0 (vs_2_0)",
    calls: super::DRAW_CALLS,
    shaders: &[SHADER],
    kind: SceneKind::Draw(setup),
};

const SHADER: &str = include_str!("../../../shaders/point_lights.asm");

/// D3DFVF_XYZ | D3DFVF_NORMAL.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Vertex {
    position: Vec3,
    normal: Vec3,
}

/// Quads along each side of the floor.
const CELLS: u16 = 48;
/// The floor spans [-HALF, HALF] in x and z, at y = 0.
const HALF: f32 = 4.0;

/// (position, colour) of each light: red near left, green near right,
/// blue far left, yellow far right, 0.6 above the floor.
const LIGHTS: [(Vec3, [f32; 4]); 4] = [
    ([-1.8, 0.6, -1.0], [1.6, 0.15, 0.1, 1.0]),
    ([1.8, 0.6, -1.0], [0.15, 1.5, 0.2, 1.0]),
    ([-1.8, 0.6, 2.2], [0.2, 0.35, 1.8, 1.0]),
    ([1.8, 0.6, 2.2], [1.5, 1.3, 0.2, 1.0]),
];

/// The camera: above and behind the near edge, looking down at the floor.
fn view() -> Mat4 {
    Mat4::look_at_lh([0.0, 4.5, -6.0], [0.0, 0.0, 0.6], [0.0, 1.0, 0.0])
}

/// A (CELLS + 1)² grid of vertices on y = 0 facing up.
fn floor() -> (Vec<Vertex>, Vec<u16>) {
    let n = CELLS + 1;
    let mut vertices = Vec::new();
    for row in 0..n {
        for col in 0..n {
            let x = -HALF + 2.0 * HALF * f32::from(col) / f32::from(CELLS);
            let z = -HALF + 2.0 * HALF * f32::from(row) / f32::from(CELLS);
            vertices.push(Vertex {
                position: [x, 0.0, z],
                normal: [0.0, 1.0, 0.0],
            });
        }
    }
    let positions: Vec<Vec3> = vertices.iter().map(|v| v.position).collect();
    let mut indices = Vec::new();
    for row in 0..CELLS {
        for col in 0..CELLS {
            let i = row * n + col;
            for tri in [[i, i + 1, i + n + 1], [i, i + n + 1, i + n]] {
                indices.extend(front_facing(&positions, tri, [0.0, 1.0, 0.0]));
            }
        }
    }
    (vertices, indices)
}

/// Animated, the floor turns under the lights (`t / 2` radians about y).
fn setup(t: f32) -> SceneDraw {
    let (vertices, indices) = floor();
    let world = Mat4::rotation_y(t * 0.5);
    let wvp = world.then(&view()).then(&projection());
    let mut c = Constants::default();
    c.set_f(0, &wvp.columns())
        .set_f(4, &world.columns()[..3])
        .set_f(9, &[rgba(0.9, 0.9, 0.9, 1.0)])
        .set_f(10, &[rgba(0.06, 0.06, 0.08, 1.0)])
        .set_f(11, &[[0.0, 1.2, 1.0, 0.0]]);
    for (i, (position, colour)) in LIGHTS.iter().enumerate() {
        c.set_f(12 + i, &[[position[0], position[1], position[2], 1.0]]);
        c.set_f(20 + i, &[*colour]);
    }
    // i0: loop count, first aL, aL step.
    c.set_i(0, &[[LIGHTS.len() as i32, 0, 1, 0]]);
    SceneDraw::indexed_triangles(
        SHADER,
        Declaration::Fvf(D3DFVF_XYZ | D3DFVF_NORMAL),
        &vertices,
        indices,
        c,
        0xFF10_1018,
    )
}
