//! The scenes of the gallery. The first five are one vertex-shader draw each (a shader from
//! `shaders/`, its vertex data and declaration, the constants an application computes on
//! the CPU); `skinned_arm`'s draw also has a pixel shader, per-pixel Blinn-Phong lighting
//! of its skinned tube (`samples/shaders/`). The others are programs in the shape of the D3D9 SDK's tutorials and samples:
//! the fixed-function pipeline (`vertices`, `matrices`, `lights`, `textures`, `meshes`) and
//! vertex and pixel shaders in D3D9 assembly (`normal_map`, `post_process`,
//! `point_sprites`), and skinning by fixed-function indexed vertex blending with a pixel
//! shader (`vertex_blend`).

use d3d9_backend::device::{Device, Matrix};

use crate::d3d;
use crate::draw::{Prepared, SceneDraw};
use crate::error::DrawError;
use crate::program::Program;

mod cylinder;
mod lights;
mod lit_cube;
mod matrices;
mod meshes;
mod normal_map;
mod point_lights;
mod point_sprites;
mod post_process;
mod skinned_arm;
mod textures;
mod triangle;
mod vertex_blend;
mod vertices;
mod wave_grid;

/// One named scene.
pub struct Scene {
    /// File stem of the PNG (`<name>.png`).
    pub name: &'static str,
    /// One line saying what the scene shows.
    pub description: &'static str,
    /// The D3D9 calls it makes, in order, one a line (the gallery's page shows them).
    pub calls: &'static str,
    /// The assembly text of every shader it creates.
    pub shaders: &'static [&'static str],
    /// How it draws.
    pub kind: SceneKind,
}

/// How a scene draws.
pub enum SceneKind {
    /// One vertex-shader draw, built at `t` seconds into the animation (`--window`):
    /// declaration, vertices, indices, constants. At 0 it is the gallery's picture.
    Draw(fn(f32) -> SceneDraw),
    /// A program: creates its objects on the device, then draws frames.
    Program(fn(&mut Device) -> Result<Box<dyn Program>, DrawError>),
}

/// Every scene, in gallery order.
pub static SCENES: &[Scene] = &[
    triangle::SCENE,
    lit_cube::SCENE,
    point_lights::SCENE,
    wave_grid::SCENE,
    skinned_arm::SCENE,
    vertices::SCENE,
    matrices::SCENE,
    lights::SCENE,
    textures::SCENE,
    meshes::SCENE,
    normal_map::SCENE,
    post_process::SCENE,
    point_sprites::SCENE,
    vertex_blend::SCENE,
];

/// The calls of a one-draw vertex-shader scene without a pixel shader.
const DRAW_CALLS: &str = "CreateVertexShader(assembled tokens)
SetFVF or CreateVertexDeclaration + SetVertexDeclaration
CreateVertexBuffer / CreateIndexBuffer, Lock, Unlock
SetStreamSource(0), SetIndices, SetVertexShader
SetPixelShader(NULL): the fixed-function pixel stage shows COLOR0
SetVertexShaderConstantF / SetVertexShaderConstantI
SetRenderState(D3DRS_CULLMODE)
Clear(D3DCLEAR_TARGET)
DrawIndexedPrimitive or DrawPrimitive(D3DPT_TRIANGLELIST)
GetRenderTargetData(back buffer)";

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

/// `SetTransform(D3DTS_WORLD / VIEW / PROJECTION, ..)`.
fn set_transforms(
    device: &mut Device,
    world: &crate::math::Mat4,
    view: &crate::math::Mat4,
    projection: &crate::math::Mat4,
) -> Result<(), DrawError> {
    let rows = |m: &crate::math::Mat4| -> Matrix { m.rows };
    device.set_transform_raw(d3d::D3DTS_WORLD, rows(world))?;
    device.set_transform_raw(d3d::D3DTS_VIEW, rows(view))?;
    device.set_transform_raw(d3d::D3DTS_PROJECTION, rows(projection))?;
    Ok(())
}

/// `SetRenderState` of several states, in order.
fn render_states(device: &mut Device, states: &[(u32, u32)]) -> Result<(), DrawError> {
    for &(state, value) in states {
        device.set_render_state_raw(state, value)?;
    }
    Ok(())
}

impl Scene {
    /// Creates the scene's objects on `device`.
    pub fn create(&self, device: &mut Device) -> Result<Box<dyn Program>, DrawError> {
        match self.kind {
            SceneKind::Draw(setup) => Ok(Box::new(DrawProgram {
                prepared: Prepared::new(device, &setup(0.0))?,
                setup,
            })),
            SceneKind::Program(create) => create(device),
        }
    }
}

/// A one-draw vertex-shader scene ([`SceneKind::Draw`]) as a program.
struct DrawProgram {
    setup: fn(f32) -> SceneDraw,
    prepared: Prepared,
}

impl Program for DrawProgram {
    fn frame(&mut self, device: &mut Device, t: f32) -> Result<(), DrawError> {
        self.prepared.draw(device, &(self.setup)(t))
    }

    fn release(&mut self, device: &mut Device) -> Result<(), DrawError> {
        self.prepared.release(device)
    }
}
