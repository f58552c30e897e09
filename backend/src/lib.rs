//! Direct3D 9 on wgpu.
//!
//! This crate never reads D3D9 bytecode: it takes `naga::Module`s produced by
//! `d3d9-translator` and draws them.
//!
//! - [`device`]: the D3D9-style [`Device`] (`d3d9-capi` builds the C ABI on it), with its
//!   own D3D9 vocabulary (render, sampler and texture-stage states, formats, constants).
//! - [`gpu`]: the one GPU layer under it. [`Gpu`] is the instance, adapter and device,
//!   chosen from the environment (`WGPU_BACKEND`, `WGPU_ADAPTER_NAME`, `WGPU_POWER_PREF`);
//!   no adapter is an error, unless the caller opts out with [`Gpu::for_tests`] and
//!   `D3D9_ALLOW_NO_GPU=1` ([`ALLOW_NO_GPU_ENV`]). What the adapter lacks is
//!   [`GpuError::Unsupported`] naming the [`Capability`]; exact floats come back through an
//!   `Rgba32Float` target, or as bit patterns through `Rgba32Uint` ([`ExactReadback`]).
//!
//! The headless test harness the translator's GPU tests draw with (`Draw`, `Frame`,
//! `VertexProbe`, ...) is not part of this crate: it is the dev-only `d3d9-harness` crate
//! (`backend/harness/`), built on [`gpu`] beside the device.

pub mod device;
pub mod gpu;

pub use device::{Device, DeviceError, DeviceParams};
pub use gpu::{Capability, DiskCacheSetting, ExactReadback, Gpu, GpuError, ALLOW_NO_GPU_ENV};
/// The wgpu this crate draws with (surfaces, present modes and raw-window-handle, `wgpu::rwh`).
pub use wgpu;
