//! The D3D9 SDK's Tutorial 2 (Vertices): three pre-transformed vertices (`D3DFVF_XYZRHW |
//! D3DFVF_DIFFUSE`, screen pixels) in a vertex buffer, drawn by the fixed-function pipeline.
//! `samples/c/vertices.c` is the same program in C.

use d3d9_backend::device::{ClearFlags, Device, PrimitiveType, VertexBufferId};
use d3d9_translator::decl::fvf::{D3DFVF_DIFFUSE, D3DFVF_XYZRHW};

use super::{Scene, SceneKind};
use crate::error::DrawError;
use crate::objects::Objects;
use crate::program::Program;

pub(super) const SCENE: Scene = Scene {
    name: "vertices",
    description:
        "SDK Tutorial 2: pre-transformed triangle, D3DFVF_XYZRHW | DIFFUSE, fixed function",
    calls: "CreateVertexBuffer(3 * 20 bytes, D3DFVF_XYZRHW | D3DFVF_DIFFUSE), Lock, memcpy, Unlock
Clear(D3DCLEAR_TARGET, D3DCOLOR_XRGB(0, 0, 255))
SetStreamSource(0, vb, 0, 20)
SetFVF(D3DFVF_XYZRHW | D3DFVF_DIFFUSE)
DrawPrimitive(D3DPT_TRIANGLELIST, 0, 1)",
    shaders: &[],
    kind: SceneKind::Program(create),
};

/// D3DFVF_XYZRHW | D3DFVF_DIFFUSE.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Vertex {
    /// Screen x, y (pixels), z, 1/w.
    position: [f32; 4],
    diffuse: u32,
}

/// Red top, green bottom right, cyan bottom left: clockwise on screen. The SDK's
/// (150, 50), (250, 250), (50, 250) on 300x300, scaled to 640x480.
pub const VERTICES: [([f32; 2], u32); 3] = [
    ([320.0, 60.0], 0xFFFF_0000),
    ([560.0, 420.0], 0xFF00_FF00),
    ([80.0, 420.0], 0xFF00_FFFF),
];

/// The clear colour, D3DCOLOR_XRGB(0, 0, 255).
pub const CLEAR: u32 = 0xFF00_00FF;

struct Vertices {
    objects: Objects,
    buffer: VertexBufferId,
}

fn create(device: &mut Device) -> Result<Box<dyn Program>, DrawError> {
    let vertices = VERTICES.map(|([x, y], diffuse)| Vertex {
        position: [x, y, 0.5, 1.0],
        diffuse,
    });
    let mut objects = Objects::default();
    let buffer = objects.vertex_buffer(device, &vertices)?;
    Ok(Box::new(Vertices { objects, buffer }))
}

impl Program for Vertices {
    fn frame(&mut self, device: &mut Device, _t: f32) -> Result<(), DrawError> {
        device.clear(&[], ClearFlags::TARGET, CLEAR, 1.0, 0)?;
        let stride = std::mem::size_of::<Vertex>() as u32;
        device.set_stream_source(0, Some(self.buffer), 0, stride)?;
        device.set_fvf(D3DFVF_XYZRHW | D3DFVF_DIFFUSE)?;
        device.draw_primitive(PrimitiveType::TriangleList, 0, 1)?;
        Ok(())
    }

    fn release(&mut self, device: &mut Device) -> Result<(), DrawError> {
        self.objects.release(device)
    }
}
