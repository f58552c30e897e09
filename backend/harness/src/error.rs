//! The harness's one error type: the GPU layer's errors and what only the harness checks.

use d3d9_backend::gpu::GpuError;

/// Everything that can go wrong in a harness draw or probe.
///
/// `Debug` prints the same message as `Display`, so a test returning
/// `Result<(), HarnessError>` fails with the readable reason.
#[derive(thiserror::Error)]
pub enum HarnessError {
    /// The GPU layer's error (no adapter, a wgpu validation error, an unsupported capability).
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// A WGSL source did not parse (only checked where the harness inspects it).
    #[error("{stage} WGSL does not parse:\n{message}")]
    Wgsl {
        stage: &'static str,
        message: String,
    },
    /// A render target of zero width or height, or larger than the device allows.
    #[error("render target {width}x{height} is outside 1..={limit} in each dimension")]
    TargetSize { width: u32, height: u32, limit: u32 },
    /// The target format has no fixed texel size (compressed, depth/stencil, ...).
    #[error("render target format {0:?} cannot be read back by the harness")]
    TargetFormat(wgpu::TextureFormat),
    /// The named (or sole) vertex entry point is not in the module.
    #[error("no vertex entry point {name:?} in the module")]
    NoVertexEntryPoint { name: Option<String> },
    /// A vertex output the probe cannot read back as floats.
    #[error("vertex output at @location({location}) is {what}; the probe reads only f32 scalars and vectors")]
    ProbeOutput { location: u32, what: String },
    /// More vertices than fit in one row of the probe's target.
    #[error("vertex probe of {count} vertices x instances exceeds {limit}")]
    ProbeCount { count: u64, limit: u32 },
    /// A probed vertex produced no fragment: its position was clipped (w <= 0, z outside 0..1, ...).
    #[error("vertex {vertex} of instance {instance} was clipped: its position lies outside the clip volume")]
    Clipped { vertex: u32, instance: u32 },
    /// A texture format the harness cannot upload or bind as a float texture
    /// (compressed, depth/stencil, integer, ...).
    #[error("texture at @binding({binding}) has format {format:?}, which the harness cannot bind as a sampled float texture")]
    TextureFormat {
        binding: u32,
        format: wgpu::TextureFormat,
    },
    /// A mip level's data is not the size its extent and format require.
    #[error(
        "texture at @binding({binding}) mip level {level} holds {got} bytes, expected {expected}"
    )]
    TextureData {
        binding: u32,
        level: u32,
        expected: u64,
        got: usize,
    },
    /// `D3DTADDRESS_MIRRORONCE` on a harness sampler: WebGPU has no such address mode (the
    /// device's shaders take the coordinate's absolute value; a harness shader does not).
    #[error("D3DTADDRESS_MIRRORONCE on sampler @binding({binding}) (no WebGPU address mode)")]
    MirrorOnce { binding: u32 },
}

impl std::fmt::Debug for HarnessError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}
