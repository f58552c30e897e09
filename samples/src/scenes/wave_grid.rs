//! A flat grid deformed by two sine waves (`sincos` after range reduction
//! with `frc`), coloured by height and shaded by the wave's normal, with
//! packed vs_3_0 outputs, through `shaders/wave_grid.asm`. The declaration
//! has one FLOAT2 POSITION element (x, z); triangles are sent far rows
//! first so nearer waves cover farther ones without a depth buffer.

use d3d9_translator::bytecode::Usage;
use d3d9_translator::decl::{DeclType, VertexElement};

use super::{direction, projection, rgba, Scene, SceneKind};
use crate::draw::{Constants, Declaration, SceneDraw};
use crate::math::{front_facing, Mat4, Vec3};

pub(super) const SCENE: Scene = Scene {
    name: "wave_grid",
    description: "grid deformed by sincos waves, packed vs_3_0 outputs (FLOAT2 position)",
    calls: super::DRAW_CALLS,
    shaders: &[SHADER],
    kind: SceneKind::Draw(setup),
};

const SHADER: &str = include_str!("../../../shaders/wave_grid.asm");

/// Quads along x and along z.
const CELLS_X: u16 = 96;
const CELLS_Z: u16 = 64;
/// The grid spans x in [-4, 4], z in [-3, 3].
const HALF_X: f32 = 4.0;
const HALF_Z: f32 = 3.0;
/// Wave numbers, phases and amplitudes along x and z.
const K: [f32; 2] = [1.7, 2.3];
const PHASE: [f32; 2] = [0.3, 1.1];
const AMPLITUDE: [f32; 2] = [0.3, 0.2];

fn view() -> Mat4 {
    Mat4::look_at_lh([0.0, 3.2, -6.5], [0.0, -0.3, 0.3], [0.0, 1.0, 0.0])
}

/// Grid vertices (x, z), and triangles from the far row (z = HALF_Z) to the
/// near one, each facing up.
fn grid() -> (Vec<[f32; 2]>, Vec<u16>) {
    let n = CELLS_X + 1;
    let mut vertices = Vec::new();
    for row in 0..=CELLS_Z {
        for col in 0..=CELLS_X {
            vertices.push([
                -HALF_X + 2.0 * HALF_X * f32::from(col) / f32::from(CELLS_X),
                -HALF_Z + 2.0 * HALF_Z * f32::from(row) / f32::from(CELLS_Z),
            ]);
        }
    }
    let positions: Vec<Vec3> = vertices.iter().map(|&[x, z]| [x, 0.0, z]).collect();
    let mut indices = Vec::new();
    for row in (0..CELLS_Z).rev() {
        for col in 0..CELLS_X {
            let i = row * n + col;
            for tri in [[i, i + 1, i + n + 1], [i, i + n + 1, i + n]] {
                indices.extend(front_facing(&positions, tri, [0.0, 1.0, 0.0]));
            }
        }
    }
    (vertices, indices)
}

/// Animated, the waves travel (their phases advance by `2t`).
fn setup(t: f32) -> SceneDraw {
    let (vertices, indices) = grid();
    let tau = std::f32::consts::TAU;
    let mut c = Constants::default();
    c.set_f(0, &view().then(&projection()).columns())
        .set_f(4, &[[K[0], K[1], PHASE[0] + 2.0 * t, PHASE[1] + 2.0 * t]])
        .set_f(5, &[[AMPLITUDE[0], AMPLITUDE[1], 0.0, 1.0]])
        .set_f(6, &[[1.0 / tau, 0.5, tau, -std::f32::consts::PI]])
        .set_f(7, &[direction([-0.5, 0.8, -0.4])])
        .set_f(8, &[rgba(0.02, 0.12, 0.45, 1.0)])
        .set_f(9, &[rgba(0.75, 0.95, 1.0, 1.0)])
        .set_f(10, &[[0.8, 0.2, 0.0, 0.0]])
        .set_f(11, &[[0.5 / (AMPLITUDE[0] + AMPLITUDE[1]), 0.5, 0.0, 0.0]]);
    let declaration = Declaration::Elements(vec![VertexElement::new(
        0,
        0,
        DeclType::Float2,
        Usage::Position,
        0,
    )]);
    SceneDraw::indexed_triangles(SHADER, declaration, &vertices, indices, c, 0xFF08_0810)
}
