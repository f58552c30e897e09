//! The classic first D3D9 sample: one triangle with a D3DCOLOR per vertex
//! (red top, green bottom left, blue bottom right) on a dark blue clear,
//! 640x480.

use d3d9_backend::{Draw, Gpu, GpuError, Image, ShaderStage, Target, VertexBuffer};

use super::Scene;

pub(super) const SCENE: Scene = Scene {
    name: "triangle",
    description: "one triangle, D3DCOLOR per vertex (XYZ | DIFFUSE)",
    render,
};

const SHADER: &str = include_str!("triangle.wgsl");

/// D3DFVF_XYZ | D3DFVF_DIFFUSE.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Vertex {
    position: [f32; 3],
    /// D3DCOLOR, 0xAARRGGBB.
    diffuse: u32,
}

const ATTRIBUTES: [wgpu::VertexAttribute; 2] = [
    wgpu::VertexAttribute {
        format: wgpu::VertexFormat::Float32x3,
        offset: 0,
        shader_location: 0,
    },
    wgpu::VertexAttribute {
        format: wgpu::VertexFormat::Unorm8x4Bgra,
        offset: 12,
        shader_location: 1,
    },
];

const VERTICES: [Vertex; 3] = [
    Vertex {
        position: [0.0, 0.8, 0.5],
        diffuse: 0xFFFF_0000,
    },
    Vertex {
        position: [-0.8, -0.8, 0.5],
        diffuse: 0xFF00_FF00,
    },
    Vertex {
        position: [0.8, -0.8, 0.5],
        diffuse: 0xFF00_00FF,
    },
];

/// The D3D9 SDK tutorials clear to D3DCOLOR_XRGB(0, 0, 64).
const CLEAR: wgpu::Color = wgpu::Color {
    r: 0.0,
    g: 0.0,
    b: 64.0 / 255.0,
    a: 1.0,
};

fn render(gpu: &Gpu) -> Result<Image, GpuError> {
    let buffers = [VertexBuffer {
        layout: wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<Vertex>() as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &ATTRIBUTES,
        },
        data: bytemuck::cast_slice(&VERTICES),
    }];
    let stage = ShaderStage::wgsl(SHADER);
    gpu.render(&Draw {
        vertex_buffers: &buffers,
        ..Draw::new(
            stage.entry("vs"),
            stage.entry("fs"),
            3,
            Target::rgba8(640, 480).cleared_to(CLEAR),
        )
    })
}
