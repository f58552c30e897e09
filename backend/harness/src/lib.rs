//! The headless GPU harness the translator's GPU tests draw with: one offscreen draw, a
//! frame of draws, a vertex stage's exact outputs. Dev-only: nothing in the product depends
//! on it. It is built on `d3d9_backend::gpu` (the context, capability checks, render targets
//! and pass attachments, upload and read-back the device uses too) and takes the device's
//! D3D9 vocabulary (cull mode, sampler states, texture kinds, constant buffers) from
//! `d3d9_backend::device`.
//!
//! - [`Harness::render`]: one offscreen draw of a [`Draw`] into a [`Target`], read back as
//!   an [`Image`].
//! - [`Harness::vertex_outputs`]: runs a vertex stage over a few vertices and returns the
//!   exact `f32` values of its inter-stage outputs ([`VertexProbe`], [`OutputValues`]).
//! - [`Harness::render_frame`]: several draws into one cleared target, with D3D9's cull
//!   mode ([`Frame`]).
//! - [`TextureBinding`] / [`SamplerBinding`]: textures and D3D9 sampler states bound to a
//!   [`Draw`] or [`VertexProbe`].
//! - [`fixed_function_pixel_wgsl`]: the default D3D9 fixed-function pixel stage (diffuse
//!   colour, clamped) for draws without a pixel shader.
//!
//! Errors are [`HarnessError`]s: the GPU layer's, and what only the harness checks.
//!
//! An `Rgba32Float` target on a device whose exact readback is the `Rgba32Uint` path comes
//! back bit for bit the same (`d3d9_backend::ExactReadback`).

mod caps;
mod draw;
mod error;
mod fixed_function;
mod frame;
mod probe;
mod render;
mod texture;

use d3d9_backend::device::ConstantBuffer;
use d3d9_backend::gpu::Gpu;

pub use d3d9_backend::gpu::Indices;
pub use draw::{Draw, Image, Shader, ShaderStage, Target, Uniform, VertexBuffer};
pub use error::HarnessError;
pub use fixed_function::fixed_function_pixel_wgsl;
pub use frame::Frame;
pub use probe::{OutputValues, VertexProbe};
pub use texture::{SamplerBinding, TextureBinding};

/// The harness's draws, on a [`Gpu`].
pub trait Harness {
    /// Creates a shader module, with wgpu's validation errors as
    /// [`GpuError::Wgpu`](d3d9_backend::gpu::GpuError::Wgpu).
    fn shader_module(&self, shader: Shader<'_>) -> Result<wgpu::ShaderModule, HarnessError>;

    /// Clears `draw.target`, makes the one draw, and reads the target back. Cull mode none,
    /// no depth buffer, no blending: a one-draw [`Frame`].
    fn render(&self, draw: &Draw<'_>) -> Result<Image, HarnessError>;

    /// Clears `frame.target`, makes every draw in order in one render pass (no depth
    /// buffer, no blending: a later draw overwrites what it covers), and reads the target
    /// back. An `Rgba32Float` target on a device whose exact readback is
    /// `ExactReadback::UintTarget` is drawn into `Rgba32Uint` by fragment stages that write
    /// the bits of their floats; the image is the same, bit for bit.
    fn render_frame(&self, frame: &Frame<'_>) -> Result<Image, HarnessError>;

    /// [`Harness::render_frame`] with D3D9's multiple render targets: `frame.target` is
    /// render target 0 and `more[i]` render target `i + 1`, each cleared to its own colour,
    /// all of the size of `frame.target`. A target the draw's fragment stage has no
    /// `@location` for is left as it is. The images come back in target order. The
    /// bit-pattern path of `Rgba32Float` is taken only for a target alone.
    fn render_frame_targets(
        &self,
        frame: &Frame<'_>,
        more: &[Target],
    ) -> Result<Vec<Image>, HarnessError>;

    /// Runs the vertex stage of `probe` and returns, for each instance and vertex (index
    /// `instance * vertex_count + vertex`), the values of all its `@location` outputs. The
    /// position is not read back; it must lie inside the clip volume, else
    /// [`HarnessError::Clipped`].
    fn vertex_outputs(&self, probe: &VertexProbe<'_>) -> Result<Vec<OutputValues>, HarnessError>;
}

impl Harness for Gpu {
    fn shader_module(&self, shader: Shader<'_>) -> Result<wgpu::ShaderModule, HarnessError> {
        render::shader_module(self, shader)
    }

    fn render(&self, draw: &Draw<'_>) -> Result<Image, HarnessError> {
        frame::render(self, draw)
    }

    fn render_frame(&self, frame: &Frame<'_>) -> Result<Image, HarnessError> {
        frame::render_frame(self, frame)
    }

    fn render_frame_targets(
        &self,
        frame: &Frame<'_>,
        more: &[Target],
    ) -> Result<Vec<Image>, HarnessError> {
        frame::render_frame_targets(self, frame, more)
    }

    fn vertex_outputs(&self, probe: &VertexProbe<'_>) -> Result<Vec<OutputValues>, HarnessError> {
        probe::vertex_outputs(self, probe)
    }
}

/// A device constant buffer as the harness's [`Uniform`] (a read-only storage buffer when
/// `storage`).
impl<'a> From<&'a ConstantBuffer> for Uniform<'a> {
    fn from(buffer: &'a ConstantBuffer) -> Self {
        Uniform {
            group: buffer.group,
            binding: buffer.binding,
            data: &buffer.data,
            storage: buffer.storage,
        }
    }
}
