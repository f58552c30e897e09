//! Skinning on the fixed-function pipeline: a bar of untransformed vertices bent at its
//! middle by indexed vertex blending (`D3DRS_INDEXEDVERTEXBLENDENABLE`, `D3DRS_VERTEXBLEND`
//! = `D3DVBF_1WEIGHTS`, FVF `XYZB2 | LASTBETA_UBYTE4 | DIFFUSE`: one weight, then the two
//! bones' matrix indices), its two bones in `D3DTS_WORLDMATRIX(0)` and `(1)`, coloured by a
//! ps_2_0 pixel shader that tints the fixed-function stage's diffuse colour. The left half
//! follows bone 0 (still), the right half bone 1 (turned about z at the joint), the joint
//! blends both.

use d3d9_backend::device::{ClearFlags, Device, PixelShaderId, PrimitiveType, VertexBufferId};
use d3d9_translator::decl::fvf::{D3DFVF_DIFFUSE, D3DFVF_LASTBETA_UBYTE4, D3DFVF_XYZB2};

use super::{render_states, Scene, SceneKind};
use crate::d3d::{D3DCULL_NONE, D3DRS_CULLMODE, D3DRS_LIGHTING, D3DTS_PROJECTION, D3DTS_VIEW};
use crate::error::DrawError;
use crate::math::Mat4;
use crate::objects::Objects;
use crate::program::Program;

pub(super) const SCENE: Scene = Scene {
    name: "vertex_blend",
    description: "bar bent by fixed-function indexed vertex blending (two bones, UBYTE4 \
                  indices), tinted by a ps_2_0 pixel shader",
    calls:
        "CreateVertexBuffer(96 * 24 bytes, D3DFVF_XYZB2 | D3DFVF_LASTBETA_UBYTE4 | D3DFVF_DIFFUSE)
CreatePixelShader(tint_ps)
SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE), SetRenderState(D3DRS_LIGHTING, FALSE)
SetRenderState(D3DRS_INDEXEDVERTEXBLENDENABLE, TRUE)
SetRenderState(D3DRS_VERTEXBLEND, D3DVBF_1WEIGHTS)
SetTransform(D3DTS_WORLDMATRIX(0), identity)
SetTransform(D3DTS_WORLDMATRIX(1), RotationZ(bend(t)))
SetTransform(D3DTS_VIEW, LookAtLH((0, 0, -4), (0, 0, 0), (0, 1, 0)))
SetTransform(D3DTS_PROJECTION, PerspectiveFovLH(pi / 4, 4 / 3, 0.5, 50))
SetPixelShader(tint_ps), SetPixelShaderConstantF(0, TINT)
Clear(D3DCLEAR_TARGET, D3DCOLOR_XRGB(16, 16, 32))
SetStreamSource(0, vb, 0, 24), SetFVF(..)
DrawPrimitive(D3DPT_TRIANGLELIST, 0, 32)",
    shaders: &[PS],
    kind: SceneKind::Program(create),
};

const PS: &str = include_str!("../../../shaders/tint_ps.asm");

/// `D3DRS_VERTEXBLEND`, `D3DRS_INDEXEDVERTEXBLENDENABLE`, `D3DVBF_1WEIGHTS`.
const D3DRS_VERTEXBLEND: u32 = 151;
const D3DRS_INDEXEDVERTEXBLENDENABLE: u32 = 167;
const D3DVBF_1WEIGHTS: u32 = 1;
/// `D3DTS_WORLDMATRIX(n)`.
const fn world_matrix(n: u32) -> u32 {
    256 + n
}

/// D3DFVF_XYZB2 | D3DFVF_LASTBETA_UBYTE4 | D3DFVF_DIFFUSE.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Vertex {
    position: [f32; 3],
    /// The weight of the bone `indices[0]` names; `indices[1]` gets the rest.
    weight: f32,
    /// UBYTE4 matrix indices.
    indices: [u8; 4],
    diffuse: u32,
}

/// The bar runs along x from -LENGTH to LENGTH, HALF_WIDTH either side of y = 0.
pub const LENGTH: f32 = 1.6;
pub const HALF_WIDTH: f32 = 0.2;
const SEGMENTS: usize = 16;
/// The joint blends the bones over x in [-BLEND, BLEND].
pub const BLEND: f32 = 0.4;
/// The colours of the bar's halves (left: bone 0, right: bone 1).
pub const LEFT: u32 = 0xFFFF_FF00;
pub const RIGHT: u32 = 0xFF00_FFFF;
/// The pixel shader's c0.
pub const TINT: [f32; 4] = [1.0, 0.5, 1.0, 1.0];
/// The clear colour.
pub const CLEAR: u32 = 0xFF10_1020;

/// Bone 0's weight at `x`: 1 on the left, 0 on the right, linear across the joint.
pub fn weight(x: f32) -> f32 {
    (0.5 - x / (2.0 * BLEND)).clamp(0.0, 1.0)
}

/// Bone 1's turn about z at `t` seconds: 1.2 rad at the gallery's frame.
pub fn bend(t: f32) -> f32 {
    0.6 + 0.6 * t.cos()
}

/// The camera: from (0, 0, -4) towards the origin.
pub fn view() -> Mat4 {
    Mat4::look_at_lh([0.0, 0.0, -4.0], [0.0; 3], [0.0, 1.0, 0.0])
}

struct VertexBlend {
    objects: Objects,
    buffer: VertexBufferId,
    ps: PixelShaderId,
}

fn create(device: &mut Device) -> Result<Box<dyn Program>, DrawError> {
    let vertex = |x: f32, y: f32| Vertex {
        position: [x, y, 0.0],
        weight: weight(x),
        indices: [0, 1, 0, 0],
        diffuse: if x < 0.0 { LEFT } else { RIGHT },
    };
    let step = 2.0 * LENGTH / SEGMENTS as f32;
    let vertices: Vec<Vertex> = (0..SEGMENTS)
        .flat_map(|i| {
            let (x0, x1) = (-LENGTH + step * i as f32, -LENGTH + step * (i + 1) as f32);
            let (h, v) = (HALF_WIDTH, vertex);
            [
                v(x0, -h),
                v(x0, h),
                v(x1, h),
                v(x0, -h),
                v(x1, h),
                v(x1, -h),
            ]
        })
        .collect();
    let mut objects = Objects::default();
    let buffer = objects.vertex_buffer(device, &vertices)?;
    let ps = objects.pixel_shader(device, PS)?;
    Ok(Box::new(VertexBlend {
        objects,
        buffer,
        ps,
    }))
}

impl Program for VertexBlend {
    fn frame(&mut self, device: &mut Device, t: f32) -> Result<(), DrawError> {
        render_states(
            device,
            &[
                (D3DRS_CULLMODE, D3DCULL_NONE),
                (D3DRS_LIGHTING, 0),
                (D3DRS_INDEXEDVERTEXBLENDENABLE, 1),
                (D3DRS_VERTEXBLEND, D3DVBF_1WEIGHTS),
            ],
        )?;
        device.clear(&[], ClearFlags::TARGET, CLEAR, 1.0, 0)?;
        device.set_transform_raw(world_matrix(0), Mat4::IDENTITY.rows)?;
        device.set_transform_raw(world_matrix(1), Mat4::rotation_z(bend(t)).rows)?;
        device.set_transform_raw(D3DTS_VIEW, view().rows)?;
        device.set_transform_raw(D3DTS_PROJECTION, super::projection().rows)?;
        device.set_pixel_shader(Some(self.ps))?;
        device.set_pixel_shader_constant_f(0, &[TINT])?;
        let stride = std::mem::size_of::<Vertex>() as u32;
        device.set_stream_source(0, Some(self.buffer), 0, stride)?;
        device.set_fvf(D3DFVF_XYZB2 | D3DFVF_LASTBETA_UBYTE4 | D3DFVF_DIFFUSE)?;
        let triangles = (SEGMENTS * 2) as u32;
        device.draw_primitive(PrimitiveType::TriangleList, 0, triangles)?;
        Ok(())
    }

    fn release(&mut self, device: &mut Device) -> Result<(), DrawError> {
        render_states(
            device,
            &[(D3DRS_INDEXEDVERTEXBLENDENABLE, 0), (D3DRS_VERTEXBLEND, 0)],
        )?;
        self.objects.release(device)
    }
}
