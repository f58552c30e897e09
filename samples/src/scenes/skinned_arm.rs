//! A tube bent at its middle by two-bone matrix-palette skinning through
//! `samples/shaders/skinned_arm_vs.asm` (vs_2_0: `mova`, `m4x3` from `c[a0.x + 20]`, the
//! skinning of `shaders/skinned_arm.asm`), with a declaration of FLOAT3 POSITION and
//! NORMAL, FLOAT1 BLENDWEIGHT and UBYTE4 BLENDINDICES, and lit per pixel by
//! `samples/shaders/skinned_arm_ps.asm` (ps_2_0, Blinn-Phong: diffuse N.L and specular
//! (N.H)^power from the skinned normal and eye vector the vertex shader puts in `oT0` and
//! `oT1`). The left half follows bone 0, the right half (blend indices (1, 0)) follows
//! bone 1, the joint blends both.

use d3d9_translator::bytecode::Usage;
use d3d9_translator::decl::{DeclType, VertexElement};

use super::{direction, projection, rgba, Scene, SceneKind};
use crate::draw::{Constants, Declaration, SceneDraw};
use crate::math::{front_facing, Mat4, Vec3};

pub(super) const SCENE: Scene = Scene {
    name: "skinned_arm",
    description: "tube bent by two-bone palette skinning, c[a0.x + n], UBYTE4 indices, \
                  lit per pixel with a specular highlight (vs_2_0 + ps_2_0)",
    calls: "CreateVertexShader(skinned_arm_vs), CreatePixelShader(skinned_arm_ps)
CreateVertexDeclaration(FLOAT3 POSITION, FLOAT3 NORMAL, FLOAT1 BLENDWEIGHT, UBYTE4 BLENDINDICES)
CreateVertexBuffer (46 rings of 20 vertices), CreateIndexBuffer (45 x 20 x 6 indices)
SetVertexDeclaration, SetVertexShader, SetPixelShader, SetStreamSource(0, vb, 0, 32), SetIndices
SetVertexShaderConstantF(0, view * projection, 4), (4, eye position, 1), (20, bone palette, 6)
SetPixelShaderConstantF(0, towards the light, 1), (1, diffuse, 1), (2, ambient, 1), (3, specular, 1), (4, power, 1)
SetRenderState(D3DRS_CULLMODE, D3DCULL_CCW)
Clear(D3DCLEAR_TARGET, D3DCOLOR_XRGB(24, 24, 24))
DrawIndexedPrimitive(D3DPT_TRIANGLELIST, 0, 0, 920, 0, 1800)
GetRenderTargetData(back buffer)",
    shaders: &[VS, PS],
    kind: SceneKind::Draw(setup),
};

const VS: &str = include_str!("../../shaders/skinned_arm_vs.asm");
const PS: &str = include_str!("../../shaders/skinned_arm_ps.asm");

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Vertex {
    position: Vec3,
    normal: Vec3,
    /// Weight of the bone named by `indices[0]`; `indices[1]` gets the rest.
    weight: f32,
    /// D3DDECLTYPE_UBYTE4 blend indices.
    indices: [u8; 4],
}

/// The tube runs along x from -LENGTH to LENGTH.
const LENGTH: f32 = 2.2;
const RADIUS: f32 = 0.35;
const RINGS: u16 = 45;
const SIDES: u16 = 20;
/// The joint blends the two bones over x in [-BLEND, BLEND].
const BLEND: f32 = 0.45;
/// Bone 0 tilts the left half down by 15°; bone 1 bends the right half up by 40°.
const BONE_ANGLES: [f32; 2] = [-15.0, 40.0];

/// The camera: from EYE towards (0, 0.6, 0).
const EYE: Vec3 = [0.0, 0.6, -6.0];

fn view() -> Mat4 {
    Mat4::look_at_lh(EYE, [0.0, 0.6, 0.0], [0.0, 1.0, 0.0])
}

fn tube() -> (Vec<Vertex>, Vec<u16>) {
    let mut vertices = Vec::new();
    for ring in 0..=RINGS {
        let x = -LENGTH + 2.0 * LENGTH * f32::from(ring) / f32::from(RINGS);
        let w = ((BLEND - x) / (2.0 * BLEND)).clamp(0.0, 1.0);
        // Bone 1 only: name it first, with weight 1.
        let (weight, indices) = if w == 0.0 {
            (1.0, [1, 0, 0, 0])
        } else {
            (w, [0, 1, 0, 0])
        };
        for side in 0..SIDES {
            let angle = std::f32::consts::TAU * f32::from(side) / f32::from(SIDES);
            let (s, c) = angle.sin_cos();
            vertices.push(Vertex {
                position: [x, RADIUS * c, RADIUS * s],
                normal: [0.0, c, s],
                weight,
                indices,
            });
        }
    }
    let positions: Vec<Vec3> = vertices.iter().map(|v| v.position).collect();
    let mut indices = Vec::new();
    for ring in 0..RINGS {
        for side in 0..SIDES {
            let next = (side + 1) % SIDES;
            let a = ring * SIDES + side;
            let b = ring * SIDES + next;
            let (c, d) = (a + SIDES, b + SIDES);
            let outward = vertices[usize::from(a)].normal;
            for tri in [[a, b, d], [a, d, c]] {
                indices.extend(front_facing(&positions, tri, outward));
            }
        }
    }
    (vertices, indices)
}

/// The skinning palette: bone `i` as three registers (a transposed 4x3). Animated, the
/// bend swings between half and one and a half times its angles (`sin t`).
fn palette(t: f32) -> Vec<[f32; 4]> {
    let swing = 1.0 + 0.5 * t.sin();
    BONE_ANGLES
        .iter()
        .flat_map(|a| {
            let columns = Mat4::rotation_z((a * swing).to_radians()).columns();
            [columns[0], columns[1], columns[2]]
        })
        .collect()
}

fn setup(t: f32) -> SceneDraw {
    let (vertices, indices) = tube();
    let mut c = Constants::default();
    c.set_f(0, &view().then(&projection()).columns())
        .set_f(4, &[[EYE[0], EYE[1], EYE[2], 1.0]])
        .set_f(20, &palette(t));
    // The pixel shader's: towards the light, diffuse, ambient, specular, power 32.
    let mut p = Constants::default();
    p.set_f(0, &[direction([-0.3, 0.6, -0.8])])
        .set_f(1, &[rgba(0.35, 0.8, 0.4, 1.0)])
        .set_f(2, &[rgba(0.1, 0.1, 0.12, 0.0)])
        .set_f(3, &[rgba(0.8, 0.8, 0.8, 0.0)])
        .set_f(4, &[[32.0, 0.0, 0.0, 0.0]]);
    let declaration = Declaration::Elements(vec![
        VertexElement::new(0, 0, DeclType::Float3, Usage::Position, 0),
        VertexElement::new(0, 12, DeclType::Float3, Usage::Normal, 0),
        VertexElement::new(0, 24, DeclType::Float1, Usage::BlendWeight, 0),
        VertexElement::new(0, 28, DeclType::UByte4, Usage::BlendIndices, 0),
    ]);
    SceneDraw::indexed_triangles(VS, declaration, &vertices, indices, c, 0xFF18_1818)
        .with_pixel_shader(PS, p)
}
