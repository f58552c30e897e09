//! A render-to-texture pass and a post-process: the first pass draws a triangle of
//! pre-transformed vertices into a render-target texture (`D3DUSAGE_RENDERTARGET`,
//! `GetSurfaceLevel`, `SetRenderTarget`); the second draws two full-screen half quads into
//! the back buffer through `shaders/post_process_vs.asm`: the left half shows the texture as
//! it is (fixed-function stage 0 `SELECTARG1(TEXTURE)`), the right half through the sepia
//! pixel shader `shaders/sepia_ps.asm`.

use d3d9_backend::device::{
    ClearFlags, DeclarationId, Device, Format, PixelShaderId, PrimitiveType, TextureId,
    VertexShaderId,
};
use d3d9_translator::bytecode::Usage;
use d3d9_translator::decl::fvf::{D3DFVF_DIFFUSE, D3DFVF_XYZRHW};
use d3d9_translator::decl::{DeclType, VertexElement};

use super::{Scene, SceneKind};
use crate::d3d::*;
use crate::draw::{HEIGHT, WIDTH};
use crate::error::DrawError;
use crate::objects::Objects;
use crate::program::Program;

const VS: &str = include_str!("../../../shaders/post_process_vs.asm");
const PS: &str = include_str!("../../../shaders/sepia_ps.asm");

pub(super) const SCENE: Scene = Scene {
    name: "post_process",
    description:
        "render to texture, then a full-screen pass: left as drawn, right sepia (vs_2_0 + ps_2_0)",
    calls: "CreateTexture(640, 480, 1, D3DUSAGE_RENDERTARGET, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT)
GetSurfaceLevel(0), CreateVertexShader(post_process_vs), CreatePixelShader(sepia_ps)
CreateVertexDeclaration(FLOAT3 POSITION, FLOAT2 TEXCOORD0)
pass 1: SetRenderTarget(0, texture level 0), Clear(D3DCOLOR_XRGB(48, 128, 192))
        SetFVF(D3DFVF_XYZRHW | D3DFVF_DIFFUSE), DrawPrimitiveUP(D3DPT_TRIANGLELIST, 1)
pass 2: SetRenderTarget(0, back buffer), SetTexture(0, texture)
        SetVertexDeclaration, SetVertexShader(post_process_vs)
        SetSamplerState(0, D3DSAMP_MINFILTER / MAGFILTER, D3DTEXF_POINT)
        left:  SetPixelShader(NULL), SetTextureStageState(0, COLOROP SELECTARG1, COLORARG1 TEXTURE)
               DrawPrimitiveUP(D3DPT_TRIANGLELIST, 2)
        right: SetPixelShader(sepia_ps), DrawPrimitiveUP(D3DPT_TRIANGLELIST, 2)",
    shaders: &[VS, PS],
    kind: SceneKind::Program(create),
};

/// The first pass's clear colour and triangle (pre-transformed, as `vertices`).
pub const CLEAR: u32 = 0xFF30_80C0;
pub const TRIANGLE: [([f32; 2], u32); 3] = [
    ([320.0, 60.0], 0xFFFF_4000),
    ([560.0, 420.0], 0xFFFF_FF00),
    ([80.0, 420.0], 0xFF20_C040),
];

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct RhwVertex {
    position: [f32; 4],
    diffuse: u32,
}

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct QuadVertex {
    position: [f32; 3],
    uv: [f32; 2],
}

struct PostProcess {
    objects: Objects,
    target: TextureId,
    declaration: DeclarationId,
    vs: VertexShaderId,
    ps: PixelShaderId,
}

fn create(device: &mut Device) -> Result<Box<dyn Program>, DrawError> {
    let mut objects = Objects::default();
    let target = objects.render_target_texture(device, (WIDTH, HEIGHT), Format::A8R8G8B8)?;
    let declaration = objects.declaration(
        device,
        &[
            VertexElement::new(0, 0, DeclType::Float3, Usage::Position, 0),
            VertexElement::new(0, 12, DeclType::Float2, Usage::TexCoord, 0),
        ],
    )?;
    let vs = objects.vertex_shader(device, VS)?;
    let ps = objects.pixel_shader(device, PS)?;
    Ok(Box::new(PostProcess {
        objects,
        target,
        declaration,
        vs,
        ps,
    }))
}

/// Two triangles covering clip-space x in [x0, x1], all of y; texture coordinates moved by
/// half a texel, as D3D9 applications map texels to pixels.
fn half_quad(x0: f32, x1: f32) -> [QuadVertex; 6] {
    let (du, dv) = (0.5 / WIDTH as f32, 0.5 / HEIGHT as f32);
    let v = |x: f32, y: f32| QuadVertex {
        position: [x, y, 0.5],
        uv: [(x + 1.0) / 2.0 + du, (1.0 - y) / 2.0 + dv],
    };
    [
        v(x0, 1.0),
        v(x1, 1.0),
        v(x1, -1.0),
        v(x0, 1.0),
        v(x1, -1.0),
        v(x0, -1.0),
    ]
}

impl Program for PostProcess {
    fn frame(&mut self, device: &mut Device, t: f32) -> Result<(), DrawError> {
        // Pass 1: the scene into the texture (turning about its centroid when animated).
        let surface = device.get_surface_level(self.target, 0)?;
        let back_buffer = device.back_buffer();
        device.set_render_target(0, Some(surface))?;
        device.clear(&[], ClearFlags::TARGET, CLEAR, 1.0, 0)?;
        let (s, c) = t.sin_cos();
        let triangle = TRIANGLE.map(|([x, y], diffuse)| {
            let (dx, dy) = (x - 320.0, y - 300.0);
            RhwVertex {
                position: [320.0 + c * dx - s * dy, 300.0 + s * dx + c * dy, 0.5, 1.0],
                diffuse,
            }
        });
        device.set_fvf(D3DFVF_XYZRHW | D3DFVF_DIFFUSE)?;
        let stride = std::mem::size_of::<RhwVertex>() as u32;
        device.draw_primitive_up(
            PrimitiveType::TriangleList,
            1,
            bytemuck::cast_slice(&triangle),
            stride,
        )?;
        // Pass 2: the texture onto the back buffer, left as it is, right in sepia.
        device.set_render_target(0, Some(back_buffer))?;
        device.set_texture(0, Some(self.target))?;
        device.set_vertex_declaration(Some(self.declaration))?;
        device.set_vertex_shader(Some(self.vs))?;
        device.set_sampler_state_raw(0, D3DSAMP_MINFILTER, D3DTEXF_POINT)?;
        device.set_sampler_state_raw(0, D3DSAMP_MAGFILTER, D3DTEXF_POINT)?;
        device.set_texture_stage_state_raw(0, D3DTSS_COLOROP, D3DTOP_SELECTARG1)?;
        device.set_texture_stage_state_raw(0, D3DTSS_COLORARG1, D3DTA_TEXTURE)?;
        let stride = std::mem::size_of::<QuadVertex>() as u32;
        for (x0, x1, ps) in [(-1.0, 0.0, None), (0.0, 1.0, Some(self.ps))] {
            device.set_pixel_shader(ps)?;
            let quad = half_quad(x0, x1);
            device.draw_primitive_up(
                PrimitiveType::TriangleList,
                2,
                bytemuck::cast_slice(&quad),
                stride,
            )?;
        }
        device.set_texture(0, None)?;
        Ok(())
    }

    fn release(&mut self, device: &mut Device) -> Result<(), DrawError> {
        self.objects.release(device)
    }
}
