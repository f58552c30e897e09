//! The cylinder of the SDK's Tutorials 4 and 5: a triangle strip round the y axis, radius 1,
//! from y = -1 to 1, one top and one bottom vertex per step (top first: clockwise from
//! outside, D3D9's front face).

use crate::math::Vec3;

/// Steps round the cylinder (the first and last coincide). 48 intervals put step 24 at
/// angle pi: the line facing a camera on -z.
pub const STEPS: u32 = 49;

/// Triangles of the strip.
pub const TRIANGLES: u32 = 2 * STEPS - 2;

/// One strip vertex: position, outward normal, texture coordinates (u round, v down).
pub struct StripVertex {
    pub position: Vec3,
    pub normal: Vec3,
    pub uv: [f32; 2],
}

/// The strip's vertices: for step i at angle 2 pi i / 48, (sin, 1, cos) then (sin, -1, cos).
pub fn strip() -> Vec<StripVertex> {
    let intervals = (STEPS - 1) as f32;
    (0..STEPS)
        .flat_map(|i| {
            let u = i as f32 / intervals;
            let (s, c) = (std::f32::consts::TAU * u).sin_cos();
            [(1.0, 0.0), (-1.0, 1.0)].map(|(y, v)| StripVertex {
                position: [s, y, c],
                normal: [s, 0.0, c],
                uv: [u, v],
            })
        })
        .collect()
}
