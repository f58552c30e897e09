//! The scenes of the gallery: each is a D3D9 vertex shader from `shaders/`
//! (assembly text, assembled at run time), its vertex data and declaration,
//! and the constants an application would compute on the CPU.

use crate::draw::SceneDraw;

mod lit_cube;
mod point_lights;
mod skinned_arm;
mod triangle;
mod wave_grid;

/// One named scene: the D3D9 draw that renders it.
pub struct Scene {
    /// File stem of the PNG (`<name>.png`) and of its shader (`shaders/<name>.asm`).
    pub name: &'static str,
    /// One line saying what the scene shows.
    pub description: &'static str,
    /// Builds the draw: declaration, vertices, indices, constants.
    pub setup: fn() -> SceneDraw,
}

/// Every scene, in gallery order.
pub static SCENES: &[Scene] = &[
    triangle::SCENE,
    lit_cube::SCENE,
    point_lights::SCENE,
    wave_grid::SCENE,
    skinned_arm::SCENE,
];

/// The projection every scene uses: 45° vertical field of view, 640x480.
fn projection() -> crate::math::Mat4 {
    crate::math::Mat4::perspective_fov_lh(
        std::f32::consts::FRAC_PI_4,
        crate::draw::WIDTH as f32 / crate::draw::HEIGHT as f32,
        0.5,
        50.0,
    )
}

/// A colour as a constant register.
fn rgba(r: f32, g: f32, b: f32, a: f32) -> [f32; 4] {
    [r, g, b, a]
}

/// A direction as a constant register (`.w` = 0), normalised.
fn direction(v: crate::math::Vec3) -> [f32; 4] {
    let n = crate::math::normalize(v);
    [n[0], n[1], n[2], 0.0]
}
