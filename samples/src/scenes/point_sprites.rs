//! Point sprites: a ring of sixteen points (`D3DFVF_XYZ | D3DFVF_DIFFUSE`, one
//! `DrawPrimitive(D3DPT_POINTLIST)`) drawn as textured squares (`D3DRS_POINTSPRITEENABLE`)
//! sized by distance (`D3DRS_POINTSCALEENABLE`, `D3DRS_POINTSCALE_C` = 1), the fixed-function
//! vertex stage feeding `shaders/point_sprite_ps.asm` (sprite texture times colour), added
//! onto the target (`D3DBLEND_ONE`, `D3DBLEND_ONE`).

use d3d9_backend::device::{
    ClearFlags, Device, Format, PixelShaderId, PrimitiveType, TextureId, VertexBufferId,
};
use d3d9_translator::decl::fvf::{D3DFVF_DIFFUSE, D3DFVF_XYZ};

use super::{projection, render_states, set_transforms, Scene, SceneKind};
use crate::d3d::*;
use crate::error::DrawError;
use crate::math::{Mat4, Vec3};
use crate::objects::Objects;
use crate::program::Program;

const PS: &str = include_str!("../../../shaders/point_sprite_ps.asm");

pub(super) const SCENE: Scene = Scene {
    name: "point_sprites",
    description: "ring of point sprites scaled by distance, textured by a ps_2_0 shader, added",
    calls: "CreateTexture(64, 64, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED), LockRect, round blob, UnlockRect
CreatePixelShader(point_sprite_ps)
CreateVertexBuffer(16 * 16 bytes, D3DFVF_XYZ | D3DFVF_DIFFUSE), Lock, memcpy, Unlock
Clear(D3DCLEAR_TARGET, D3DCOLOR_XRGB(0, 0, 16))
SetTransform(D3DTS_WORLD, RotationZ(t)), SetTransform(D3DTS_VIEW / D3DTS_PROJECTION)
SetRenderState(D3DRS_LIGHTING, FALSE)
SetRenderState(D3DRS_POINTSPRITEENABLE, TRUE), (D3DRS_POINTSCALEENABLE, TRUE)
SetRenderState(D3DRS_POINTSIZE, 0.6f), (D3DRS_POINTSIZE_MIN, 0.0f)
SetRenderState(D3DRS_POINTSCALE_A, 0.0f), (D3DRS_POINTSCALE_B, 0.0f), (D3DRS_POINTSCALE_C, 1.0f)
SetRenderState(D3DRS_ALPHABLENDENABLE, TRUE), (D3DRS_SRCBLEND, D3DBLEND_ONE), (D3DRS_DESTBLEND, D3DBLEND_ONE)
SetTexture(0, blob), SetSamplerState(0, D3DSAMP_MINFILTER / MAGFILTER, D3DTEXF_LINEAR)
SetPixelShader(point_sprite_ps), SetStreamSource(0, vb, 0, 16), SetFVF(D3DFVF_XYZ | D3DFVF_DIFFUSE)
DrawPrimitive(D3DPT_POINTLIST, 0, 16)",
    shaders: &[PS],
    kind: SceneKind::Program(create),
};

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Vertex {
    position: Vec3,
    diffuse: u32,
}

/// Points on the ring, its radius, `D3DRS_POINTSIZE`, the clear colour.
pub const POINTS: usize = 16;
pub const RADIUS: f32 = 2.0;
pub const POINT_SIZE: f32 = 0.6;
pub const CLEAR: u32 = 0xFF00_0010;
/// The points' colours, round the ring twice.
pub const COLOURS: [u32; 8] = [
    0xFFFF_4040,
    0xFFFF_A030,
    0xFFF0_F040,
    0xFF50_E050,
    0xFF40_D0D0,
    0xFF40_70FF,
    0xFFA0_50FF,
    0xFFFF_50C0,
];

/// Point k of the ring (object space): at angle 2 pi k / 16 from +x, in the z = 0 plane.
pub fn point(k: usize) -> Vec3 {
    let (s, c) = (std::f32::consts::TAU * k as f32 / POINTS as f32).sin_cos();
    [RADIUS * c, RADIUS * s, 0.0]
}

/// The camera: from (0, 0, -6) towards the ring's centre.
pub fn view() -> Mat4 {
    Mat4::look_at_lh([0.0, 0.0, -6.0], [0.0; 3], [0.0, 1.0, 0.0])
}

/// The sprite texture's brightness at texel (x, y): 1 within 8 texels of the centre,
/// fading to 0 at 30.
pub fn blob(x: u32, y: u32) -> f32 {
    let r = ((x as f32 + 0.5 - 32.0).powi(2) + (y as f32 + 0.5 - 32.0).powi(2)).sqrt();
    ((30.0 - r) / 22.0).clamp(0.0, 1.0)
}

struct PointSprites {
    objects: Objects,
    texture: TextureId,
    ps: PixelShaderId,
    vertices: VertexBufferId,
}

fn create(device: &mut Device) -> Result<Box<dyn Program>, DrawError> {
    let texels: Vec<u8> = (0..64)
        .flat_map(|y| {
            (0..64).flat_map(move |x| {
                let v = (blob(x, y) * 255.0).round() as u32;
                (0xFF00_0000 | v << 16 | v << 8 | v).to_le_bytes()
            })
        })
        .collect();
    let ring: Vec<Vertex> = (0..POINTS)
        .map(|k| Vertex {
            position: point(k),
            diffuse: COLOURS[k % COLOURS.len()],
        })
        .collect();
    let mut objects = Objects::default();
    let texture = objects.texture(device, (64, 64), Format::A8R8G8B8, &[texels])?;
    let ps = objects.pixel_shader(device, PS)?;
    let vertices = objects.vertex_buffer(device, &ring)?;
    Ok(Box::new(PointSprites {
        objects,
        texture,
        ps,
        vertices,
    }))
}

impl Program for PointSprites {
    fn frame(&mut self, device: &mut Device, t: f32) -> Result<(), DrawError> {
        device.clear(&[], ClearFlags::TARGET, CLEAR, 1.0, 0)?;
        set_transforms(device, &Mat4::rotation_z(t), &view(), &projection())?;
        render_states(
            device,
            &[
                (D3DRS_LIGHTING, 0),
                (D3DRS_POINTSPRITEENABLE, 1),
                (D3DRS_POINTSCALEENABLE, 1),
                (D3DRS_POINTSIZE, POINT_SIZE.to_bits()),
                (D3DRS_POINTSIZE_MIN, 0f32.to_bits()),
                (D3DRS_POINTSCALE_A, 0f32.to_bits()),
                (D3DRS_POINTSCALE_B, 0f32.to_bits()),
                (D3DRS_POINTSCALE_C, 1f32.to_bits()),
                (D3DRS_ALPHABLENDENABLE, 1),
                (D3DRS_SRCBLEND, D3DBLEND_ONE),
                (D3DRS_DESTBLEND, D3DBLEND_ONE),
            ],
        )?;
        device.set_texture(0, Some(self.texture))?;
        device.set_sampler_state_raw(0, D3DSAMP_MINFILTER, D3DTEXF_LINEAR)?;
        device.set_sampler_state_raw(0, D3DSAMP_MAGFILTER, D3DTEXF_LINEAR)?;
        device.set_pixel_shader(Some(self.ps))?;
        let stride = std::mem::size_of::<Vertex>() as u32;
        device.set_stream_source(0, Some(self.vertices), 0, stride)?;
        device.set_fvf(D3DFVF_XYZ | D3DFVF_DIFFUSE)?;
        device.draw_primitive(PrimitiveType::PointList, 0, POINTS as u32)?;
        Ok(())
    }

    fn release(&mut self, device: &mut Device) -> Result<(), DrawError> {
        self.objects.release(device)
    }
}
