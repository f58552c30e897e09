//! Runs translated Direct3D 9 vertex work on wgpu.
//!
//! This crate never reads D3D9 bytecode: it takes `naga::Module`s (or WGSL)
//! produced by `d3d9-translator` and draws them.
//!
//! [`Device`] is the D3D9-style device (`d3d9-capi` builds the C ABI on it). Beside it, the
//! headless GPU harness the translator's GPU tests run with:
//! - [`Gpu`]: instance, adapter and device, chosen from the environment
//!   (`WGPU_BACKEND`, `WGPU_ADAPTER_NAME`, `WGPU_POWER_PREF`); no adapter is
//!   an error, unless the caller opts out with [`Gpu::for_tests`] and
//!   `D3D9_ALLOW_NO_GPU=1`.
//! - [`Gpu::render`]: one offscreen draw of a [`Draw`] into a [`Target`],
//!   read back as an [`Image`].
//! - [`Gpu::vertex_outputs`]: runs a vertex stage over a few vertices and
//!   returns the exact `f32` values of its inter-stage outputs, for
//!   per-instruction numeric tests.
//! - [`Gpu::render_frame`]: several draws into one cleared target, with
//!   D3D9's cull mode ([`Frame`], [`CullMode`]).
//! - [`TextureBinding`] / [`SamplerBinding`]: textures and D3D9 sampler
//!   states bound to a [`Draw`] or [`VertexProbe`], for `texldl`.
//! - [`fixed_function_pixel_wgsl`]: the default D3D9 fixed-function pixel
//!   stage (diffuse colour, clamped) for draws without a pixel shader.
//! - [`Capability`] / [`ExactReadback`]: every object is checked against the adapter's
//!   downlevel flags, limits and format features first; what cannot run is
//!   [`GpuError::Unsupported`] naming the capability. Exact floats come back through an
//!   `Rgba32Float` target, or as bit patterns through `Rgba32Uint` where floats cannot be
//!   rendered to (GL/GLES).
//! - [`VertexConstants`] / [`PixelConstants`]: `SetVertexShaderConstantF/I/B` and
//!   `SetPixelShaderConstantF/I/B` state, turned into the constant buffers a translated
//!   shader's interface names.

mod bitcast;
mod caps;
mod constants;
pub mod device;
mod error;
mod fixed_function;
mod frame;
mod gl_context;
mod gpu;
mod probe;
mod provoking;
mod render;
mod texture;

pub use caps::{Capability, ExactReadback};
pub use constants::{ConstantBuffer, PixelConstants, ProcessingMismatch, VertexConstants};
pub use device::{Device, DeviceError, DeviceParams};
pub use error::GpuError;
pub use fixed_function::{fixed_function_pixel_wgsl, FIXED_FUNCTION_ENTRY_POINT};
pub use frame::{CullMode, Frame};
pub use gpu::{Gpu, ALLOW_NO_GPU_ENV};
pub use probe::{OutputValues, VertexProbe};
pub use render::{Draw, Image, Indices, Shader, ShaderStage, Target, Uniform, VertexBuffer};
pub use texture::{
    MipFilter, SamplerBinding, TextureAddress, TextureBinding, TextureFilter, TextureKind,
};
/// The wgpu this crate draws with (surfaces, present modes and raw-window-handle, `wgpu::rwh`).
pub use wgpu;
