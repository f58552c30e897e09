//! The D3D9 SDK's Tutorial 4 (Lights): a cylinder (`D3DFVF_XYZ | D3DFVF_NORMAL`, a triangle
//! strip) lit by the fixed-function pipeline: one directional light (`SetLight`,
//! `LightEnable`), a yellow material (`SetMaterial`), `D3DRS_AMBIENT` 0x00202020.
//! `samples/c/lights.c` is the same program in C.

use d3d9_backend::device::{
    ClearFlags, Device, Light, LightType, Material, PrimitiveType, VertexBufferId,
};
use d3d9_translator::decl::fvf::{D3DFVF_NORMAL, D3DFVF_XYZ};

use super::cylinder::{strip, TRIANGLES};
use super::matrices::{projection, view};
use super::{render_states, set_transforms, Scene, SceneKind};
use crate::d3d::{D3DRS_AMBIENT, D3DRS_LIGHTING};
use crate::error::DrawError;
use crate::math::{normalize, Mat4, Vec3};
use crate::objects::Objects;
use crate::program::Program;

pub(super) const SCENE: Scene = Scene {
    name: "lights",
    description:
        "SDK Tutorial 4: cylinder lit by a directional light and a material, fixed function",
    calls: "CreateVertexBuffer(98 * 24 bytes, D3DFVF_XYZ | D3DFVF_NORMAL), Lock, memcpy, Unlock
Clear(D3DCLEAR_TARGET, D3DCOLOR_XRGB(0, 0, 255))
SetTransform(D3DTS_WORLD, RotationX(t)), SetTransform(D3DTS_VIEW / D3DTS_PROJECTION)
SetMaterial(diffuse = ambient = (1, 0.75, 0, 1))
SetLight(0, D3DLIGHT_DIRECTIONAL, diffuse (1, 1, 1), direction RotationY(t) * (0.5, -0.3, 1))
LightEnable(0, TRUE)
SetRenderState(D3DRS_LIGHTING, TRUE), SetRenderState(D3DRS_AMBIENT, 0x00202020)
SetStreamSource(0, vb, 0, 24), SetFVF(D3DFVF_XYZ | D3DFVF_NORMAL)
DrawPrimitive(D3DPT_TRIANGLESTRIP, 0, 96)",
    shaders: &[],
    kind: SceneKind::Program(create),
};

/// D3DFVF_XYZ | D3DFVF_NORMAL.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Vertex {
    position: Vec3,
    normal: Vec3,
}

/// The material's diffuse and ambient colour.
pub const MATERIAL: [f32; 4] = [1.0, 0.75, 0.0, 1.0];
/// `D3DRS_AMBIENT`.
pub const AMBIENT: u32 = 0x0020_2020;
/// The light's direction (where its light travels) at the gallery's frame.
pub const LIGHT_DIRECTION: Vec3 = [0.5, -0.3, 1.0];

struct Lights {
    objects: Objects,
    buffer: VertexBufferId,
}

fn create(device: &mut Device) -> Result<Box<dyn Program>, DrawError> {
    let vertices: Vec<Vertex> = strip()
        .into_iter()
        .map(|v| Vertex {
            position: v.position,
            normal: v.normal,
        })
        .collect();
    let mut objects = Objects::default();
    let buffer = objects.vertex_buffer(device, &vertices)?;
    Ok(Box::new(Lights { objects, buffer }))
}

impl Program for Lights {
    fn frame(&mut self, device: &mut Device, t: f32) -> Result<(), DrawError> {
        device.clear(&[], ClearFlags::TARGET, 0xFF00_00FF, 1.0, 0)?;
        set_transforms(device, &Mat4::rotation_x(t), &view(), &projection())?;
        device.set_material(&Material {
            diffuse: MATERIAL,
            ambient: MATERIAL,
            ..Material::default()
        })?;
        let turned = Mat4::rotation_y(t).transform_point(LIGHT_DIRECTION);
        device.set_light(
            0,
            &Light {
                light_type: LightType::Directional,
                diffuse: [1.0, 1.0, 1.0, 1.0],
                direction: normalize([turned[0], turned[1], turned[2]]),
                range: 1000.0,
                ..Light::default()
            },
        )?;
        device.light_enable(0, true)?;
        render_states(device, &[(D3DRS_LIGHTING, 1), (D3DRS_AMBIENT, AMBIENT)])?;
        let stride = std::mem::size_of::<Vertex>() as u32;
        device.set_stream_source(0, Some(self.buffer), 0, stride)?;
        device.set_fvf(D3DFVF_XYZ | D3DFVF_NORMAL)?;
        device.draw_primitive(PrimitiveType::TriangleStrip, 0, TRIANGLES)?;
        Ok(())
    }

    fn release(&mut self, device: &mut Device) -> Result<(), DrawError> {
        self.objects.release(device)
    }
}
