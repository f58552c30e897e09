//! The D3D9 SDK's Tutorial 6 (Meshes), with the mesh made in code: a house of three subsets
//! of one vertex and one index buffer (`D3DFVF_XYZ | D3DFVF_NORMAL | D3DFVF_TEX1`), each
//! with its own material and texture, as `ID3DXMesh::DrawSubset` draws them: green ground
//! (no texture), brick walls (a DXT1 texture compressed in code), a tiled roof (DXT5). One
//! directional light and `D3DRS_AMBIENT`.

use d3d9_backend::device::{
    ClearFlags, Device, Format, IndexBufferId, Light, LightType, Material, PrimitiveType,
    TextureId, VertexBufferId,
};
use d3d9_translator::decl::fvf::{D3DFVF_NORMAL, D3DFVF_XYZ};

use super::{render_states, set_transforms, Scene, SceneKind};
use crate::d3d::*;
use crate::dxt::{compress_dxt1, compress_dxt5};
use crate::error::DrawError;
use crate::math::{cross, front_facing, normalize, sub, Mat4, Vec3};
use crate::objects::Objects;
use crate::program::Program;

pub(super) const SCENE: Scene = Scene {
    name: "meshes",
    description: "SDK Tutorial 6: a mesh of three subsets, each its material, DXT1 and DXT5 textures compressed in code",
    calls: "CreateTexture(64, 64, 1, 0, D3DFMT_DXT1, D3DPOOL_MANAGED), LockRect, BC1 blocks, UnlockRect
CreateTexture(64, 64, 1, 0, D3DFMT_DXT5, D3DPOOL_MANAGED), LockRect, BC3 blocks, UnlockRect
CreateVertexBuffer(D3DFVF_XYZ | D3DFVF_NORMAL | D3DFVF_TEX1) / CreateIndexBuffer(D3DFMT_INDEX16)
Clear(D3DCLEAR_TARGET, D3DCOLOR_XRGB(90, 140, 210))
SetTransform(D3DTS_WORLD, RotationY(t)), SetTransform(D3DTS_VIEW / D3DTS_PROJECTION)
SetLight(0, D3DLIGHT_DIRECTIONAL, direction (-0.5, -1, 0.7)), LightEnable(0, TRUE)
SetRenderState(D3DRS_LIGHTING, TRUE), SetRenderState(D3DRS_AMBIENT, 0x00404040)
SetSamplerState(0, D3DSAMP_MINFILTER / D3DSAMP_MAGFILTER, D3DTEXF_LINEAR)
SetStreamSource(0, vb, 0, 32), SetIndices(ib), SetFVF(D3DFVF_XYZ | D3DFVF_NORMAL | D3DFVF_TEX1)
SetTextureStageState(0, D3DTSS_COLORARG1, D3DTA_TEXTURE), (0, D3DTSS_COLORARG2, D3DTA_DIFFUSE)
per subset: SetMaterial(subset's), SetTexture(0, subset's or NULL),
            SetTextureStageState(0, D3DTSS_COLOROP, MODULATE, or SELECTARG2 untextured),
            DrawIndexedPrimitive(D3DPT_TRIANGLELIST, 0, first vertex, vertices, first index, triangles)",
    shaders: &[],
    kind: SceneKind::Program(create),
};

/// D3DFVF_XYZ | D3DFVF_NORMAL | D3DFVF_TEX1.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Vertex {
    position: Vec3,
    normal: Vec3,
    uv: [f32; 2],
}

/// `D3DRS_AMBIENT`.
pub const AMBIENT: u32 = 0x0040_4040;
/// The light's direction (where its light travels).
pub const LIGHT_DIRECTION: Vec3 = [-0.5, -1.0, 0.7];
/// The subsets' materials (diffuse = ambient): ground, walls, roof.
pub const MATERIALS: [[f32; 4]; 3] = [
    [0.3, 0.6, 0.25, 1.0],
    [1.0, 1.0, 1.0, 1.0],
    [1.0, 0.7, 0.6, 1.0],
];
/// The walls' texture: brick colours (per brick, in turn) and the mortar.
pub const BRICKS: [u32; 4] = [0xFF9A_3A2A, 0xFFB0_4A30, 0xFF8A_3020, 0xFFA8_4838];
pub const MORTAR: u32 = 0xFFB0_B0A8;
/// The walls span x and z in [-1, 1], y in [0, HEIGHT]; u runs 0..2 across a wall, v 0..1.5
/// down it (the brick texture repeats).
pub const HEIGHT: f32 = 1.5;

/// The camera: above and in front, to the left.
pub fn view() -> Mat4 {
    Mat4::look_at_lh([-2.5, 3.2, -5.5], [0.0, 1.0, 0.0], [0.0, 1.0, 0.0])
}

/// The brick texel at (x, y) of the 64x64 wall texture: rows of bricks 12 texels high with
/// 4 of mortar, bricks 28 wide with 4 of mortar, every other row offset by half a brick.
/// Every edge is on a multiple of 4, so every DXT1 block is one colour.
pub fn brick(x: u32, y: u32) -> u32 {
    let row = y / 16;
    let shifted = x + (row % 2) * 16;
    if y % 16 >= 12 || shifted % 32 >= 28 {
        MORTAR
    } else {
        BRICKS[((row * 2 + (shifted / 32) % 2) % 4) as usize]
    }
}

/// The roof texel: bands of tiles 8 texels high, two reds in turn, opaque.
pub fn tile(_x: u32, y: u32) -> u32 {
    match (y / 4) % 2 {
        0 => 0xFFC8_5038,
        _ => 0xFF90_3020,
    }
}

/// Index ranges of the subsets: (first index, triangles).
struct Subset {
    first: u32,
    triangles: u32,
}

/// A flat polygon (3 or 4 corners) with its texture coordinates and one normal, its
/// triangles front-facing from the side its normal points to.
fn face(vertices: &mut Vec<Vertex>, indices: &mut Vec<u16>, corners: &[(Vec3, [f32; 2])]) {
    let normal = normalize(cross(
        sub(corners[1].0, corners[0].0),
        sub(corners[2].0, corners[0].0),
    ));
    let base = vertices.len() as u16;
    vertices.extend(corners.iter().map(|&(position, uv)| Vertex {
        position,
        normal,
        uv,
    }));
    let positions: Vec<Vec3> = vertices.iter().map(|v| v.position).collect();
    for k in 1..corners.len() as u16 - 1 {
        indices.extend(front_facing(
            &positions,
            [base, base + k, base + k + 1],
            normal,
        ));
    }
}

/// Ends a subset at the indices made so far.
fn close(subsets: &mut Vec<Subset>, indices: &[u16]) {
    let first = subsets.last().map_or(0, |s| s.first + 3 * s.triangles);
    subsets.push(Subset {
        first,
        triangles: (indices.len() as u32 - first) / 3,
    });
}

/// The mesh: its vertices, indices and the three subsets' ranges.
fn house() -> (Vec<Vertex>, Vec<u16>, Vec<Subset>) {
    let mut vertices: Vec<Vertex> = Vec::new();
    let mut indices: Vec<u16> = Vec::new();
    let mut subsets = Vec::new();
    // Ground, clockwise seen from above.
    face(
        &mut vertices,
        &mut indices,
        &[
            ([-3.0, 0.0, -3.0], [0.0, 0.0]),
            ([-3.0, 0.0, 3.0], [0.0, 1.0]),
            ([3.0, 0.0, 3.0], [1.0, 1.0]),
            ([3.0, 0.0, -3.0], [1.0, 0.0]),
        ],
    );
    close(&mut subsets, &indices);
    // Walls: each clockwise seen from outside, u from left to right, v down.
    let corners: [Vec3; 4] = [
        [-1.0, 0.0, -1.0],
        [1.0, 0.0, -1.0],
        [1.0, 0.0, 1.0],
        [-1.0, 0.0, 1.0],
    ];
    for k in 0..4 {
        let (a, b) = (corners[k], corners[(k + 1) % 4]);
        face(
            &mut vertices,
            &mut indices,
            &[
                ([a[0], HEIGHT, a[2]], [0.0, 0.0]),
                ([b[0], HEIGHT, b[2]], [2.0, 0.0]),
                (b, [2.0, HEIGHT]),
                (a, [0.0, HEIGHT]),
            ],
        );
    }
    close(&mut subsets, &indices);
    // Roof: a pyramid over eaves at +-1.2.
    let apex = [0.0, 2.5, 0.0];
    for k in 0..4 {
        let (a, b) = (corners[k], corners[(k + 1) % 4]);
        let eave = |c: Vec3| [c[0] * 1.2, HEIGHT, c[2] * 1.2];
        face(
            &mut vertices,
            &mut indices,
            &[
                (apex, [0.5, 0.0]),
                (eave(b), [1.0, 1.0]),
                (eave(a), [0.0, 1.0]),
            ],
        );
    }
    close(&mut subsets, &indices);
    (vertices, indices, subsets)
}

struct Meshes {
    objects: Objects,
    vertices: VertexBufferId,
    vertex_count: u32,
    indices: IndexBufferId,
    subsets: Vec<Subset>,
    textures: [Option<TextureId>; 3],
}

fn create(device: &mut Device) -> Result<Box<dyn Program>, DrawError> {
    let texels = |f: fn(u32, u32) -> u32| -> Vec<u32> {
        (0..64)
            .flat_map(|y| (0..64).map(move |x| f(x, y)))
            .collect()
    };
    let mut objects = Objects::default();
    let walls = compress_dxt1(&texels(brick), 64, 64);
    let walls = objects.texture(device, (64, 64), Format::Dxt1, &[walls])?;
    let roof = compress_dxt5(&texels(tile), 64, 64);
    let roof = objects.texture(device, (64, 64), Format::Dxt5, &[roof])?;
    let (vertex_data, index_data, subsets) = house();
    let vertices = objects.vertex_buffer(device, &vertex_data)?;
    let indices = objects.index_buffer(device, &index_data)?;
    Ok(Box::new(Meshes {
        objects,
        vertices,
        vertex_count: vertex_data.len() as u32,
        indices,
        subsets,
        textures: [None, Some(walls), Some(roof)],
    }))
}

impl Program for Meshes {
    fn frame(&mut self, device: &mut Device, t: f32) -> Result<(), DrawError> {
        device.clear(&[], ClearFlags::TARGET, 0xFF5A_8CD2, 1.0, 0)?;
        set_transforms(device, &Mat4::rotation_y(t), &view(), &super::projection())?;
        device.set_light(
            0,
            &Light {
                light_type: LightType::Directional,
                diffuse: [1.0, 1.0, 1.0, 1.0],
                direction: normalize(LIGHT_DIRECTION),
                range: 1000.0,
                ..Light::default()
            },
        )?;
        device.light_enable(0, true)?;
        render_states(device, &[(D3DRS_LIGHTING, 1), (D3DRS_AMBIENT, AMBIENT)])?;
        device.set_sampler_state_raw(0, D3DSAMP_MINFILTER, D3DTEXF_LINEAR)?;
        device.set_sampler_state_raw(0, D3DSAMP_MAGFILTER, D3DTEXF_LINEAR)?;
        let stride = std::mem::size_of::<Vertex>() as u32;
        device.set_stream_source(0, Some(self.vertices), 0, stride)?;
        device.set_indices(Some(self.indices))?;
        device.set_fvf(D3DFVF_XYZ | D3DFVF_NORMAL | D3DFVF_TEX1)?;
        device.set_texture_stage_state_raw(0, D3DTSS_COLORARG1, D3DTA_TEXTURE)?;
        device.set_texture_stage_state_raw(0, D3DTSS_COLORARG2, D3DTA_DIFFUSE)?;
        for ((subset, material), texture) in self.subsets.iter().zip(MATERIALS).zip(self.textures) {
            device.set_material(&Material {
                diffuse: material,
                ambient: material,
                ..Material::default()
            })?;
            device.set_texture(0, texture)?;
            let op = match texture {
                Some(_) => D3DTOP_MODULATE,
                None => D3DTOP_SELECTARG2,
            };
            device.set_texture_stage_state_raw(0, D3DTSS_COLOROP, op)?;
            device.draw_indexed_primitive(
                PrimitiveType::TriangleList,
                0,
                0,
                self.vertex_count,
                subset.first,
                subset.triangles,
            )?;
        }
        Ok(())
    }

    fn release(&mut self, device: &mut Device) -> Result<(), DrawError> {
        self.objects.release(device)
    }
}
