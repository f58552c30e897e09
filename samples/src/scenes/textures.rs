//! The D3D9 SDK's Tutorial 5 (Textures): the cylinder (`D3DFVF_XYZ | D3DFVF_DIFFUSE |
//! D3DFVF_TEX1`) with a checker texture made in code (`CreateTexture`, `LockRect`), texture
//! stage 0 `MODULATE(TEXTURE, DIFFUSE)` on white vertices, linear filtering, lighting off.
//! `samples/c/textures.c` is the same program in C.

use d3d9_backend::device::{ClearFlags, Device, Format, PrimitiveType, TextureId, VertexBufferId};
use d3d9_translator::decl::fvf::{D3DFVF_DIFFUSE, D3DFVF_XYZ};

use super::cylinder::{strip, TRIANGLES};
use super::matrices::{projection, view};
use super::{render_states, set_transforms, Scene, SceneKind};
use crate::d3d::*;
use crate::error::DrawError;
use crate::math::{Mat4, Vec3};
use crate::objects::Objects;
use crate::program::Program;

pub(super) const SCENE: Scene = Scene {
    name: "textures",
    description: "SDK Tutorial 5: cylinder with a checker texture made in code, texture stage MODULATE",
    calls: "CreateTexture(64, 64, 1, 0, D3DFMT_X8R8G8B8, D3DPOOL_MANAGED), LockRect, checker texels, UnlockRect
CreateVertexBuffer(98 * 24 bytes, D3DFVF_XYZ | D3DFVF_DIFFUSE | D3DFVF_TEX1), Lock, memcpy, Unlock
Clear(D3DCLEAR_TARGET, D3DCOLOR_XRGB(0, 0, 255))
SetRenderState(D3DRS_LIGHTING, FALSE)
SetTransform(D3DTS_WORLD, RotationX(t)), SetTransform(D3DTS_VIEW / D3DTS_PROJECTION)
SetTexture(0, checker)
SetTextureStageState(0, D3DTSS_COLOROP, D3DTOP_MODULATE)
SetTextureStageState(0, D3DTSS_COLORARG1, D3DTA_TEXTURE), (0, D3DTSS_COLORARG2, D3DTA_DIFFUSE)
SetSamplerState(0, D3DSAMP_MINFILTER / D3DSAMP_MAGFILTER, D3DTEXF_LINEAR)
SetStreamSource(0, vb, 0, 24), SetFVF(D3DFVF_XYZ | D3DFVF_DIFFUSE | D3DFVF_TEX1)
DrawPrimitive(D3DPT_TRIANGLESTRIP, 0, 96)",
    shaders: &[],
    kind: SceneKind::Program(create),
};

/// D3DFVF_XYZ | D3DFVF_DIFFUSE | D3DFVF_TEX1.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Vertex {
    position: Vec3,
    diffuse: u32,
    uv: [f32; 2],
}

/// The texture's edge in texels.
pub const SIZE: u32 = 64;
/// The checker's two colours (X8R8G8B8).
pub const CHECKER: [u32; 2] = [0xFFE0_8020, 0xFF20_40A0];

/// The checker texel at (x, y): 8x8 cells, offset by 4 so that the texture's centre is the
/// middle of a cell.
pub fn checker(x: u32, y: u32) -> u32 {
    CHECKER[(((x + 4) / 8 + (y + 4) / 8) % 2) as usize]
}

struct Textures {
    objects: Objects,
    buffer: VertexBufferId,
    texture: TextureId,
}

fn create(device: &mut Device) -> Result<Box<dyn Program>, DrawError> {
    let texels: Vec<u8> = (0..SIZE)
        .flat_map(|y| (0..SIZE).flat_map(move |x| checker(x, y).to_le_bytes()))
        .collect();
    let vertices: Vec<Vertex> = strip()
        .into_iter()
        .map(|v| Vertex {
            position: v.position,
            diffuse: 0xFFFF_FFFF,
            uv: v.uv,
        })
        .collect();
    let mut objects = Objects::default();
    let texture = objects.texture(device, (SIZE, SIZE), Format::X8R8G8B8, &[texels])?;
    let buffer = objects.vertex_buffer(device, &vertices)?;
    Ok(Box::new(Textures {
        objects,
        buffer,
        texture,
    }))
}

impl Program for Textures {
    fn frame(&mut self, device: &mut Device, t: f32) -> Result<(), DrawError> {
        device.clear(&[], ClearFlags::TARGET, 0xFF00_00FF, 1.0, 0)?;
        render_states(device, &[(D3DRS_LIGHTING, 0)])?;
        set_transforms(device, &Mat4::rotation_x(t), &view(), &projection())?;
        device.set_texture(0, Some(self.texture))?;
        for (state, value) in [
            (D3DTSS_COLOROP, D3DTOP_MODULATE),
            (D3DTSS_COLORARG1, D3DTA_TEXTURE),
            (D3DTSS_COLORARG2, D3DTA_DIFFUSE),
        ] {
            device.set_texture_stage_state_raw(0, state, value)?;
        }
        device.set_sampler_state_raw(0, D3DSAMP_MINFILTER, D3DTEXF_LINEAR)?;
        device.set_sampler_state_raw(0, D3DSAMP_MAGFILTER, D3DTEXF_LINEAR)?;
        let stride = std::mem::size_of::<Vertex>() as u32;
        device.set_stream_source(0, Some(self.buffer), 0, stride)?;
        device.set_fvf(D3DFVF_XYZ | D3DFVF_DIFFUSE | D3DFVF_TEX1)?;
        device.draw_primitive(PrimitiveType::TriangleStrip, 0, TRIANGLES)?;
        Ok(())
    }

    fn release(&mut self, device: &mut Device) -> Result<(), DrawError> {
        self.objects.release(device)
    }
}
