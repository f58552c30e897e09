//! The GPU layer's one error type.

/// Everything that can go wrong while opening the GPU, drawing or reading back.
///
/// `Debug` prints the same message as `Display`, so a test returning
/// `Result<(), GpuError>` fails with the readable reason.
#[derive(thiserror::Error)]
pub enum GpuError {
    /// `request_adapter` found nothing usable.
    #[error(
        "no GPU adapter found: searched the wgpu backends {backends:?} (WGPU_BACKEND), \
         the adapter named by WGPU_ADAPTER_NAME if set, then the default adapter request: {source}. \
         On Linux without a GPU install Mesa's software Vulkan (`apt-get install mesa-vulkan-drivers`, \
         adapter \"llvmpipe\"/lavapipe). To let GPU tests skip instead of fail, set D3D9_ALLOW_NO_GPU=1"
    )]
    NoAdapter {
        backends: wgpu::Backends,
        source: wgpu::RequestAdapterError,
    },
    /// The adapter was found but refused to open a device.
    #[error("adapter {adapter:?} refused to create a device: {source}")]
    NoDevice {
        adapter: String,
        source: wgpu::RequestDeviceError,
    },
    /// A window's surface could not be made on this adapter (`Gpu::create_surface`).
    #[error("adapter {adapter:?} cannot present to the window: {reason}")]
    Surface { adapter: String, reason: String },
    /// A WGSL source did not parse (only checked where the harness inspects it).
    #[error("{stage} WGSL does not parse:\n{message}")]
    Wgsl {
        stage: &'static str,
        message: String,
    },
    /// wgpu reported a validation or internal error (bad shader, pipeline mismatch, ...).
    #[error("wgpu rejected the {during}: {message}")]
    Wgpu {
        during: &'static str,
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
    /// The named (or sole) fragment entry point is not in the module.
    #[error("no fragment entry point {name:?} in the module")]
    NoFragmentEntryPoint { name: Option<String> },
    /// The adapter lacks a capability the work needs (a downlevel backend such as GL/GLES,
    /// or a limit below what the work asks); nothing was drawn.
    #[error("unsupported on adapter {adapter:?} ({backend}): it lacks {capability}")]
    Unsupported {
        adapter: String,
        backend: wgpu::Backend,
        capability: super::Capability,
    },
    /// Mapping the readback buffer or waiting for the device failed.
    #[error("reading back the render target failed: {0}")]
    Readback(String),
}

impl std::fmt::Debug for GpuError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}
