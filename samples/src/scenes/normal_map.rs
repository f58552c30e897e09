//! Per-pixel lighting with a normal map (vs_2_0 + ps_2_0 from `shaders/normal_map_*.asm`):
//! a quad whose normals come from a texture made in code (a 4x4 grid of hemispherical
//! bumps on a flat plate), lit by a point light per pixel (`nrm`, `dp3_sat`).

use d3d9_backend::device::{
    ClearFlags, DeclarationId, Device, Format, IndexBufferId, PixelShaderId, PrimitiveType,
    TextureId, VertexBufferId, VertexShaderId,
};
use d3d9_translator::bytecode::Usage;
use d3d9_translator::decl::{DeclType, VertexElement};

use super::{projection, Scene, SceneKind};
use crate::error::DrawError;
use crate::math::{Mat4, Vec3};
use crate::objects::Objects;
use crate::program::Program;

const VS: &str = include_str!("../../../shaders/normal_map_vs.asm");
const PS: &str = include_str!("../../../shaders/normal_map_ps.asm");

pub(super) const SCENE: Scene = Scene {
    name: "normal_map",
    description: "per-pixel point light from a normal map made in code (vs_2_0 + ps_2_0)",
    calls: "CreateTexture(128, 128, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED), LockRect, normals, UnlockRect
CreateVertexDeclaration(FLOAT3 POSITION, FLOAT2 TEXCOORD0)
CreateVertexShader(normal_map_vs), CreatePixelShader(normal_map_ps)
CreateVertexBuffer (4 corners), CreateIndexBuffer (6 indices)
Clear(D3DCLEAR_TARGET, D3DCOLOR_XRGB(16, 16, 24))
SetVertexDeclaration, SetVertexShader, SetPixelShader, SetTexture(0, normal map)
SetVertexShaderConstantF(0, world * view * projection, 4), (4, light in object space, 1)
SetPixelShaderConstantF(0, albedo, 1), (1, ambient, 1)
SetStreamSource(0, vb, 0, 20), SetIndices(ib)
DrawIndexedPrimitive(D3DPT_TRIANGLELIST, 0, 0, 4, 0, 2)",
    shaders: &[VS, PS],
    kind: SceneKind::Program(create),
};

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Vertex {
    position: Vec3,
    uv: [f32; 2],
}

/// The quad spans x and y in [-HALF, HALF] at z = 0, facing the camera on -z.
pub const HALF: f32 = 1.5;
/// The normal map's edge in texels; bumps of radius BUMP at the centres of 32x32 cells.
pub const SIZE: u32 = 128;
pub const BUMP: f32 = 12.0;
/// `SetPixelShaderConstantF` c0 (albedo) and c1 (ambient).
pub const ALBEDO: [f32; 4] = [0.9, 0.75, 0.55, 1.0];
pub const AMBIENT: [f32; 4] = [0.08, 0.08, 0.1, 0.0];

/// The camera: from (0, 0, -4) towards the quad.
pub fn view() -> Mat4 {
    Mat4::look_at_lh([0.0, 0.0, -4.0], [0.0; 3], [0.0, 1.0, 0.0])
}

/// The world matrix at `t` (identity at the gallery's frame).
pub fn world(t: f32) -> Mat4 {
    Mat4::rotation_y(0.5 * t.sin())
}

/// The point light's position in world space at `t`: up, left and in front at 0.
pub fn light(t: f32) -> Vec3 {
    [-t.cos(), 1.2 * (0.7 * t).cos(), -2.0]
}

/// The object-space normal at texel (x, y): a hemisphere inside a bump, (0, 0, -1) on the
/// plate. Texture v runs down while object y runs up.
pub fn normal(x: u32, y: u32) -> Vec3 {
    let centre = |c: u32| (c / 32 * 32 + 16) as f32;
    let dx = (x as f32 + 0.5 - centre(x)) / BUMP;
    let dy = (y as f32 + 0.5 - centre(y)) / BUMP;
    let r2 = dx * dx + dy * dy;
    if r2 >= 1.0 {
        [0.0, 0.0, -1.0]
    } else {
        [dx, -dy, -(1.0 - r2).sqrt()]
    }
}

/// A normal as an A8R8G8B8 texel: (n + 1) / 2 per channel.
pub fn encode(n: Vec3) -> u32 {
    let byte = |v: f32| ((v + 1.0) * 0.5 * 255.0).round() as u32;
    0xFF00_0000 | byte(n[0]) << 16 | byte(n[1]) << 8 | byte(n[2])
}

struct NormalMap {
    objects: Objects,
    declaration: DeclarationId,
    vs: VertexShaderId,
    ps: PixelShaderId,
    texture: TextureId,
    vertices: VertexBufferId,
    indices: IndexBufferId,
}

fn create(device: &mut Device) -> Result<Box<dyn Program>, DrawError> {
    let texels: Vec<u8> = (0..SIZE)
        .flat_map(|y| (0..SIZE).flat_map(move |x| encode(normal(x, y)).to_le_bytes()))
        .collect();
    let corner = |x: f32, y: f32| Vertex {
        position: [x * HALF, y * HALF, 0.0],
        uv: [(x + 1.0) / 2.0, (1.0 - y) / 2.0],
    };
    let quad = [
        corner(-1.0, 1.0),
        corner(1.0, 1.0),
        corner(1.0, -1.0),
        corner(-1.0, -1.0),
    ];
    let mut objects = Objects::default();
    let texture = objects.texture(device, (SIZE, SIZE), Format::A8R8G8B8, &[texels])?;
    let declaration = objects.declaration(
        device,
        &[
            VertexElement::new(0, 0, DeclType::Float3, Usage::Position, 0),
            VertexElement::new(0, 12, DeclType::Float2, Usage::TexCoord, 0),
        ],
    )?;
    let vs = objects.vertex_shader(device, VS)?;
    let ps = objects.pixel_shader(device, PS)?;
    let vertices = objects.vertex_buffer(device, &quad)?;
    let indices = objects.index_buffer(device, &[0, 1, 2, 0, 2, 3])?;
    Ok(Box::new(NormalMap {
        objects,
        declaration,
        vs,
        ps,
        texture,
        vertices,
        indices,
    }))
}

impl Program for NormalMap {
    fn frame(&mut self, device: &mut Device, t: f32) -> Result<(), DrawError> {
        device.clear(&[], ClearFlags::TARGET, 0xFF10_1018, 1.0, 0)?;
        device.set_vertex_declaration(Some(self.declaration))?;
        device.set_vertex_shader(Some(self.vs))?;
        device.set_pixel_shader(Some(self.ps))?;
        device.set_texture(0, Some(self.texture))?;
        let world = world(t);
        let wvp = world.then(&view()).then(&projection());
        // The light in object space: the inverse of the world's rotation is its transpose.
        let inverse = Mat4::rotation_y(-0.5 * t.sin());
        let l = inverse.transform_point(light(t));
        device.set_vertex_shader_constant_f(0, &wvp.columns())?;
        device.set_vertex_shader_constant_f(4, &[[l[0], l[1], l[2], 1.0]])?;
        device.set_pixel_shader_constant_f(0, &[ALBEDO, AMBIENT])?;
        let stride = std::mem::size_of::<Vertex>() as u32;
        device.set_stream_source(0, Some(self.vertices), 0, stride)?;
        device.set_indices(Some(self.indices))?;
        device.draw_indexed_primitive(PrimitiveType::TriangleList, 0, 0, 4, 0, 2)?;
        Ok(())
    }

    fn release(&mut self, device: &mut Device) -> Result<(), DrawError> {
        self.objects.release(device)
    }
}
