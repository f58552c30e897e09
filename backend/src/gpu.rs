//! The headless GPU context: instance, adapter, device and queue.

use crate::GpuError;

/// Environment variable: when set to `1`, [`Gpu::for_tests`] returns `None`
/// instead of an error where no adapter exists, so GPU tests skip.
pub const ALLOW_NO_GPU_ENV: &str = "D3D9_ALLOW_NO_GPU";

/// A headless wgpu device, chosen from the environment.
///
/// Each `Gpu` owns its own instance and device, so tests may open one each
/// and run in parallel.
#[derive(Debug)]
pub struct Gpu {
    // Kept alive for the device's lifetime.
    _instance: wgpu::Instance,
    adapter: wgpu::Adapter,
    info: wgpu::AdapterInfo,
    pub(crate) device: wgpu::Device,
    pub(crate) queue: wgpu::Queue,
}

impl Gpu {
    /// Opens the default adapter: backends from `WGPU_BACKEND`, the adapter
    /// whose name contains `WGPU_ADAPTER_NAME` if set, else the default
    /// request (power preference from `WGPU_POWER_PREF`). On a machine with
    /// only Mesa's software Vulkan this is lavapipe ("llvmpipe").
    ///
    /// No adapter is an error ([`GpuError::NoAdapter`]), never a silent skip.
    pub fn new() -> Result<Self, GpuError> {
        pollster::block_on(Self::open())
    }

    /// [`Gpu::new`] for tests: `Ok(None)` (with a note on stderr) when no
    /// adapter exists and `D3D9_ALLOW_NO_GPU=1`; every other failure is an error.
    pub fn for_tests() -> Result<Option<Self>, GpuError> {
        match Self::new() {
            Ok(gpu) => Ok(Some(gpu)),
            Err(err @ GpuError::NoAdapter { .. }) if no_gpu_allowed() => {
                eprintln!("skipping GPU test ({ALLOW_NO_GPU_ENV}=1): {err}");
                Ok(None)
            }
            Err(err) => Err(err),
        }
    }

    async fn open() -> Result<Self, GpuError> {
        let desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
        let backends = desc.backends;
        let instance = wgpu::Instance::new(desc);
        let adapter = wgpu::util::initialize_adapter_from_env_or_default(&instance, None)
            .await
            .map_err(|source| GpuError::NoAdapter { backends, source })?;
        let info = adapter.get_info();
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("d3d9-backend harness"),
                required_limits: adapter.limits(),
                ..Default::default()
            })
            .await
            .map_err(|source| GpuError::NoDevice {
                adapter: info.name.clone(),
                source,
            })?;
        Ok(Self {
            _instance: instance,
            adapter,
            info,
            device,
            queue,
        })
    }

    /// The adapter in use: name ("llvmpipe (LLVM 15...)" for lavapipe),
    /// backend, device type, driver.
    pub fn adapter_info(&self) -> &wgpu::AdapterInfo {
        &self.info
    }

    /// The wgpu adapter, for callers that need its limits or features.
    pub fn adapter(&self) -> &wgpu::Adapter {
        &self.adapter
    }

    /// The wgpu device, for callers that build their own objects.
    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    /// The device's queue.
    pub fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    /// Runs `work` with wgpu validation and internal errors captured, so a
    /// bad shader or pipeline becomes [`GpuError::Wgpu`] instead of a panic
    /// in wgpu's default error handler.
    pub(crate) fn capture<T>(
        &self,
        during: &'static str,
        work: impl FnOnce() -> Result<T, GpuError>,
    ) -> Result<T, GpuError> {
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let internal = self.device.push_error_scope(wgpu::ErrorFilter::Internal);
        let result = work();
        let internal_err = pollster::block_on(internal.pop());
        let validation_err = pollster::block_on(validation.pop());
        if let Some(err) = validation_err.or(internal_err) {
            return Err(GpuError::Wgpu {
                during,
                message: err.to_string(),
            });
        }
        result
    }
}

fn no_gpu_allowed() -> bool {
    std::env::var(ALLOW_NO_GPU_ENV).is_ok_and(|v| v == "1")
}
