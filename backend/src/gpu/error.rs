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
    /// wgpu reported a validation or internal error (bad shader, pipeline mismatch, ...).
    #[error("wgpu rejected the {during}: {message}")]
    Wgpu {
        during: &'static str,
        message: String,
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
