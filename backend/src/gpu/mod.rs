//! The one GPU layer under the device: the wgpu context ([`Gpu`]), what the adapter can do
//! ([`Capability`], checked before anything is created), render targets ([`Target`]) and
//! the attachments of passes over them (`pass`), buffer upload, read-back, the cache on disk
//! (`disk_cache`: wgpu's pipeline cache data between runs), and the shader
//! rewrites that make a backend behave as D3D9 expects (exact floats through a uint target,
//! the provoking vertex on GL).
//!
//! Nothing here knows D3D9's objects: the device builds on this layer with its own
//! vocabulary, and the test harness (the dev-only `d3d9-harness` crate) builds on it beside
//! the device. This layer imports nothing from either.

pub mod bitcast;
pub mod caps;
mod context;
pub mod disk_cache;
mod error;
mod gl_context;
pub mod pass;
mod pipeline_cache;
pub mod provoking;
mod readback;
mod target;
mod texel_copy;
mod upload;

pub use caps::{Capability, ExactReadback};
pub(crate) use context::capture;
pub use context::{Gpu, ALLOW_NO_GPU_ENV};
pub use disk_cache::{DiskCache, DiskCacheSetting};
pub use error::GpuError;
pub use provoking::Indices;
pub use readback::bits_of;
pub use target::Target;
pub use texel_copy::TexelCopy;
pub use upload::write_texels;
