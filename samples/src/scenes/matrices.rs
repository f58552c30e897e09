//! The D3D9 SDK's Tutorial 3 (Matrices): a triangle of untransformed vertices (`D3DFVF_XYZ |
//! D3DFVF_DIFFUSE`) turned about y by the world matrix, seen through a view and a projection
//! matrix (`SetTransform`), lighting and culling off, fixed function.

use d3d9_backend::device::{ClearFlags, Device, PrimitiveType, VertexBufferId};
use d3d9_translator::decl::fvf::{D3DFVF_DIFFUSE, D3DFVF_XYZ};

use super::{render_states, set_transforms, Scene, SceneKind};
use crate::d3d::{D3DCULL_NONE, D3DRS_CULLMODE, D3DRS_LIGHTING};
use crate::error::DrawError;
use crate::math::Mat4;
use crate::objects::Objects;
use crate::program::Program;

pub(super) const SCENE: Scene = Scene {
    name: "matrices",
    description:
        "SDK Tutorial 3: triangle turned by world/view/projection matrices, fixed function",
    calls: "CreateVertexBuffer(3 * 16 bytes, D3DFVF_XYZ | D3DFVF_DIFFUSE), Lock, memcpy, Unlock
SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE)
SetRenderState(D3DRS_LIGHTING, FALSE)
Clear(D3DCLEAR_TARGET, D3DCOLOR_XRGB(0, 0, 0))
SetTransform(D3DTS_WORLD, RotationY(0.6 + t))
SetTransform(D3DTS_VIEW, LookAtLH((0, 3, -5), (0, 0, 0), (0, 1, 0)))
SetTransform(D3DTS_PROJECTION, PerspectiveFovLH(pi / 4, 4 / 3, 1, 100))
SetStreamSource(0, vb, 0, 16), SetFVF(D3DFVF_XYZ | D3DFVF_DIFFUSE)
DrawPrimitive(D3DPT_TRIANGLELIST, 0, 1)",
    shaders: &[],
    kind: SceneKind::Program(create),
};

/// D3DFVF_XYZ | D3DFVF_DIFFUSE.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Vertex {
    position: [f32; 3],
    diffuse: u32,
}

/// The SDK's triangle: red, blue and white corners.
pub const VERTICES: [([f32; 3], u32); 3] = [
    ([-1.0, -1.0, 0.0], 0xFFFF_0000),
    ([1.0, -1.0, 0.0], 0xFF00_00FF),
    ([0.0, 1.0, 0.0], 0xFFFF_FFFF),
];

/// The world matrix at `t`: turned 0.6 rad about y at the gallery's frame.
pub fn world(t: f32) -> Mat4 {
    Mat4::rotation_y(0.6 + t)
}

/// The SDK's camera: from (0, 3, -5) towards the origin.
pub fn view() -> Mat4 {
    Mat4::look_at_lh([0.0, 3.0, -5.0], [0.0; 3], [0.0, 1.0, 0.0])
}

/// The SDK's projection: 45°, 640x480, near 1, far 100.
pub fn projection() -> Mat4 {
    Mat4::perspective_fov_lh(std::f32::consts::FRAC_PI_4, 4.0 / 3.0, 1.0, 100.0)
}

struct Matrices {
    objects: Objects,
    buffer: VertexBufferId,
}

fn create(device: &mut Device) -> Result<Box<dyn Program>, DrawError> {
    let vertices = VERTICES.map(|(position, diffuse)| Vertex { position, diffuse });
    let mut objects = Objects::default();
    let buffer = objects.vertex_buffer(device, &vertices)?;
    Ok(Box::new(Matrices { objects, buffer }))
}

impl Program for Matrices {
    fn frame(&mut self, device: &mut Device, t: f32) -> Result<(), DrawError> {
        render_states(
            device,
            &[(D3DRS_CULLMODE, D3DCULL_NONE), (D3DRS_LIGHTING, 0)],
        )?;
        device.clear(&[], ClearFlags::TARGET, 0xFF00_0000, 1.0, 0)?;
        set_transforms(device, &world(t), &view(), &projection())?;
        let stride = std::mem::size_of::<Vertex>() as u32;
        device.set_stream_source(0, Some(self.buffer), 0, stride)?;
        device.set_fvf(D3DFVF_XYZ | D3DFVF_DIFFUSE)?;
        device.draw_primitive(PrimitiveType::TriangleList, 0, 1)?;
        Ok(())
    }

    fn release(&mut self, device: &mut Device) -> Result<(), DrawError> {
        self.objects.release(device)
    }
}
