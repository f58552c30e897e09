//! The headless GPU context: instance, adapter, device and queue.

use std::sync::Arc;

use super::caps::{choose_readback, Capability, ExactReadback, TARGET_USAGES};
use super::disk_cache::{DiskCache, DiskCacheSetting};
use super::pipeline_cache::PersistentPipelineCache;
use super::GpuError;

/// Environment variable: when set to `1`, [`Gpu::for_tests`] returns `None`
/// instead of an error where no adapter exists, so GPU tests skip.
pub const ALLOW_NO_GPU_ENV: &str = "D3D9_ALLOW_NO_GPU";

/// A headless wgpu device, chosen from the environment.
///
/// Each `Gpu` owns its own instance and device, so tests may open one each
/// and run in parallel.
#[derive(Debug)]
pub struct Gpu {
    // Kept alive for the device's lifetime, and the one window surfaces are made on (`None`
    // for a device the caller owns).
    instance: Option<wgpu::Instance>,
    adapter: wgpu::Adapter,
    info: wgpu::AdapterInfo,
    downlevel: wgpu::DownlevelCapabilities,
    /// The device's features, asked once (draws read them).
    features: wgpu::Features,
    readback: Result<ExactReadback, Capability>,
    /// The cache on disk ([`Gpu::open_disk_cache`]); `None` until opened, or off.
    disk: Option<Arc<DiskCache>>,
    /// wgpu's pipeline cache, saved in `disk`, where the device has `PIPELINE_CACHE`.
    pipelines: Option<PersistentPipelineCache>,
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
        pollster::block_on(Self::open(
            wgpu::InstanceDescriptor::new_without_display_handle_from_env(),
        ))
    }

    /// [`Gpu::new`] on an instance that knows the platform's display connection (an X11
    /// `Display`, a Wayland `wl_display`; winit's `OwnedDisplayHandle`), so that windows on
    /// it can be presented to ([`Gpu::create_surface`]): wgpu's GL backend needs the display
    /// before any surface is made; Vulkan ignores it.
    pub fn with_display(
        display: Box<dyn wgpu::wgt::WgpuHasDisplayHandle>,
    ) -> Result<Self, GpuError> {
        pollster::block_on(Self::open(
            wgpu::InstanceDescriptor::new_with_display_handle_from_env(display),
        ))
    }

    /// [`Gpu::new`] for tests: `Ok(None)` (with a note on stderr) when no
    /// adapter exists and `D3D9_ALLOW_NO_GPU=1`; every other failure is an error.
    pub fn for_tests() -> Result<Option<Self>, GpuError> {
        match Self::new() {
            Ok(gpu) => {
                // Captured by the test harness; shown with a failure or --nocapture.
                eprintln!("{}", gpu.describe());
                Ok(Some(gpu))
            }
            Err(err @ GpuError::NoAdapter { .. }) if no_gpu_allowed() => {
                eprintln!("skipping GPU test ({ALLOW_NO_GPU_ENV}=1): {err}");
                Ok(None)
            }
            Err(err) => Err(err),
        }
    }

    async fn open(desc: wgpu::InstanceDescriptor) -> Result<Self, GpuError> {
        let backends = desc.backends;
        let instance = wgpu::Instance::new(desc);
        let adapter = wgpu::util::initialize_adapter_from_env_or_default(&instance, None)
            .await
            .map_err(|source| GpuError::NoAdapter { backends, source })?;
        let info = adapter.get_info();
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("d3d9-backend"),
                required_limits: adapter.limits(),
                // Linear filtering of `D3DFMT_A32B32G32R32F` textures, and D24S8 depth that
                // can be read back (`Depth32FloatStencil8`), D3DFILL_WIREFRAME and _POINT
                // (`POLYGON_MODE_LINE`, `_POINT`), and user clip planes
                // (`CLIP_DISTANCES`), and no depth clipping without a depth test
                // (`DEPTH_CLIP_CONTROL`), D3D9's block-compressed and 16-bit formats
                // (`TEXTURE_COMPRESSION_BC*`, `TEXTURE_FORMAT_16BIT_NORM`), blending into
                // float32 targets (`FLOAT32_BLENDABLE`), D3D9's timestamp queries
                // (`TIMESTAMP_QUERY`), pipeline caches kept on disk (`PIPELINE_CACHE`:
                // `gpu::pipeline_cache`), and the adapter's own format features
                // (`TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES`: the sample counts it really has,
                // where WebGPU guarantees only 1 and 4), where the adapter has them. Not block-compressed
                // volumes on GL: wgpu reports them there, but Mesa's GL refuses S3TC 3D
                // textures (`glTexStorage3D`: GL_INVALID_ENUM), so volumes are decoded.
                required_features: adapter.features()
                    & !gl_refuses(&info)
                    & (wgpu::Features::FLOAT32_FILTERABLE
                        | wgpu::Features::DEPTH32FLOAT_STENCIL8
                        | wgpu::Features::POLYGON_MODE_LINE
                        | wgpu::Features::POLYGON_MODE_POINT
                        | wgpu::Features::ADDRESS_MODE_CLAMP_TO_BORDER
                        | wgpu::Features::CLIP_DISTANCES
                        | wgpu::Features::DEPTH_CLIP_CONTROL
                        | wgpu::Features::TEXTURE_COMPRESSION_BC
                        | wgpu::Features::TEXTURE_COMPRESSION_BC_SLICED_3D
                        | wgpu::Features::TEXTURE_FORMAT_16BIT_NORM
                        | wgpu::Features::FLOAT32_BLENDABLE
                        | wgpu::Features::TIMESTAMP_QUERY
                        | wgpu::Features::PIPELINE_CACHE
                        | wgpu::Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES),
                ..Default::default()
            })
            .await
            .map_err(|source| GpuError::NoDevice {
                adapter: info.name.clone(),
                source,
            })?;
        let mut gpu = Self::from_parts(adapter, device, queue);
        gpu.instance = Some(instance);
        Ok(gpu)
    }

    /// A `Gpu` on a wgpu device and queue the caller already has, opened from `adapter`.
    pub(crate) fn from_parts(
        adapter: wgpu::Adapter,
        device: wgpu::Device,
        queue: wgpu::Queue,
    ) -> Self {
        let info = adapter.get_info();
        let downlevel = adapter.get_downlevel_capabilities();
        super::gl_context::enable_seamless_cube_maps(&device);
        let mut gpu = Self {
            instance: None,
            adapter,
            info,
            downlevel,
            features: device.features(),
            readback: Err(Capability::ExactReadback),
            disk: None,
            pipelines: None,
            device,
            queue,
        };
        gpu.readback = choose_readback(
            gpu.format_usages(wgpu::TextureFormat::Rgba32Float),
            gpu.format_usages(wgpu::TextureFormat::Rgba32Uint),
        );
        gpu
    }

    /// One line naming the adapter, its backend and device type, its driver, and the
    /// exact-float readback path this device uses (what tests print).
    pub fn describe(&self) -> String {
        let info = &self.info;
        let readback = match &self.readback {
            Ok(path) => format!("{path:?} ({:?})", path.format()),
            Err(missing) => format!("none: the adapter lacks {missing}"),
        };
        format!(
            "adapter {:?}, backend {}, {:?}, driver {:?} {:?}; exact float readback: {readback}",
            info.name, info.backend, info.device_type, info.driver, info.driver_info
        )
    }

    /// How this device reads exact floats back: an `Rgba32Float` target where the adapter
    /// renders to one, else the bit patterns through an `Rgba32Uint` target;
    /// [`GpuError::Unsupported`] where neither can be rendered to.
    pub fn exact_readback(&self) -> Result<ExactReadback, GpuError> {
        self.readback.clone().map_err(|c| self.unsupported(c))
    }

    /// Makes the probe and `Rgba32Float` targets use `path` (to test one path on an adapter
    /// that has both); [`GpuError::Unsupported`] where the adapter cannot render to its format.
    pub fn set_exact_readback(&mut self, path: ExactReadback) -> Result<(), GpuError> {
        if !self.format_usages(path.format()).contains(TARGET_USAGES) {
            let format = path.format();
            return Err(self.unsupported(Capability::RenderTarget { format }));
        }
        self.readback = Ok(path);
        Ok(())
    }

    /// The features the device was opened with.
    pub fn features(&self) -> wgpu::Features {
        self.features
    }

    /// The adapter's downlevel capabilities (GL/GLES and other downlevel backends lack
    /// some of WebGPU's guarantees).
    pub fn downlevel(&self) -> &wgpu::DownlevelCapabilities {
        &self.downlevel
    }

    /// The texture usages this device allows for `format`: the adapter's own format
    /// features on a downlevel adapter, WebGPU's guaranteed ones otherwise (what wgpu
    /// validates textures against).
    pub fn format_usages(&self, format: wgpu::TextureFormat) -> wgpu::TextureUsages {
        self.format_features(format).allowed_usages
    }

    /// The sample counts this device allows for a texture of `format` drawn into (1 always;
    /// 2, 4, 8, 16 as the format's features say, the way wgpu validates them).
    pub fn sample_counts(&self, format: wgpu::TextureFormat) -> Vec<u32> {
        let features = self.format_features(format);
        if !features
            .allowed_usages
            .contains(wgpu::TextureUsages::RENDER_ATTACHMENT)
        {
            return vec![1];
        }
        [1, 2, 4, 8, 16]
            .into_iter()
            .filter(|&n| features.flags.sample_count_supported(n))
            .collect()
    }

    /// Whether copies and draws can write or read one face of a cube texture: not on wgpu's
    /// GL backend, whose wgpu-hal attaches a six-layer texture with the `GL_TEXTURE_CUBE_MAP`
    /// target (`GL_INVALID_OPERATION in glFramebufferTexture2D`), so nothing reaches the face.
    /// Sampling cubes and uploads into their faces work everywhere.
    pub fn draws_into_cube_faces(&self) -> bool {
        self.adapter_info().backend != wgpu::Backend::Gl
    }

    /// Whether a multisampled texture of `format` can be resolved (`MULTISAMPLE_RESOLVE`).
    pub fn resolves(&self, format: wgpu::TextureFormat) -> bool {
        self.format_features(format)
            .flags
            .contains(wgpu::TextureFormatFeatureFlags::MULTISAMPLE_RESOLVE)
    }

    /// The format features this device uses: on a downlevel adapter its own; elsewhere
    /// WebGPU's guaranteed usages (what the device offered before it asked for
    /// `TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES`, so that no format's answers change with
    /// it) and, with that feature, the adapter's own flags (its sample counts and resolves,
    /// which wgpu then validates against).
    fn format_features(&self, format: wgpu::TextureFormat) -> wgpu::TextureFormatFeatures {
        let features = self.features;
        if !features.contains(format.required_features()) {
            return wgpu::TextureFormatFeatures {
                allowed_usages: wgpu::TextureUsages::empty(),
                flags: wgpu::TextureFormatFeatureFlags::empty(),
            };
        }
        let downlevel = !self
            .downlevel
            .flags
            .contains(wgpu::DownlevelFlags::WEBGPU_TEXTURE_FORMAT_SUPPORT);
        if downlevel {
            return self.adapter.get_texture_format_features(format);
        }
        let guaranteed = format.guaranteed_format_features(features);
        if !features.contains(wgpu::Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES) {
            return guaranteed;
        }
        let adapter = self.adapter.get_texture_format_features(format);
        wgpu::TextureFormatFeatures {
            allowed_usages: guaranteed.allowed_usages & adapter.allowed_usages,
            flags: adapter.flags,
        }
    }

    /// [`GpuError::Unsupported`] for this adapter.
    pub fn unsupported(&self, capability: Capability) -> GpuError {
        GpuError::Unsupported {
            adapter: self.info.name.clone(),
            backend: self.info.backend,
            capability,
        }
    }

    /// A capability check's result, as a [`GpuError`].
    pub fn require(&self, check: Result<(), Capability>) -> Result<(), GpuError> {
        check.map_err(|c| self.unsupported(c))
    }

    /// The adapter in use: name ("llvmpipe (LLVM 15...)" for lavapipe),
    /// backend, device type, driver.
    pub fn adapter_info(&self) -> &wgpu::AdapterInfo {
        &self.info
    }

    /// A surface on a window of this GPU's instance, for `Device::set_window`; winit's
    /// `Arc<Window>` is such a target, and so is anything with raw-window-handle's display
    /// and window handles (the C ABI's native windows). [`GpuError::Surface`] where the window cannot be
    /// presented to from this adapter, or the GPU was opened by the caller (no instance).
    pub fn create_surface(
        &self,
        target: impl Into<wgpu::SurfaceTarget<'static>>,
    ) -> Result<wgpu::Surface<'static>, GpuError> {
        let instance = self.instance_for_surfaces()?;
        let surface = instance
            .create_surface(target)
            .map_err(|e| self.surface_error(e.to_string()))?;
        self.compatible(surface)
    }

    fn instance_for_surfaces(&self) -> Result<&wgpu::Instance, GpuError> {
        self.instance.as_ref().ok_or_else(|| {
            self.surface_error("a GPU opened by the caller has no wgpu instance to make it on")
        })
    }

    fn compatible(
        &self,
        surface: wgpu::Surface<'static>,
    ) -> Result<wgpu::Surface<'static>, GpuError> {
        if surface.get_capabilities(&self.adapter).formats.is_empty() {
            return Err(self.surface_error("this adapter cannot present to the window"));
        }
        Ok(surface)
    }

    fn surface_error(&self, reason: impl Into<String>) -> GpuError {
        GpuError::Surface {
            adapter: self.info.name.clone(),
            reason: reason.into(),
        }
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

    /// Opens the cache on disk `setting` names, limited to `limit` bytes, in this adapter's
    /// folder (`DiskCache::for_adapter`), and makes the pipeline cache from the data it holds
    /// where the device has `PIPELINE_CACHE` (the previous one, if any, is saved first).
    /// [`DiskCacheSetting::Off`] (or `D3D9_CACHE_DIR=off`) closes it. Nothing is read or
    /// written until then: a `Gpu` alone keeps nothing on disk.
    pub fn open_disk_cache(&mut self, setting: &DiskCacheSetting, limit: u64) {
        self.pipelines = None;
        self.disk = setting
            .root()
            .map(|root| Arc::new(DiskCache::for_adapter(&root, &self.info).with_limit(limit)));
        self.pipelines = self
            .disk
            .as_ref()
            .and_then(|disk| PersistentPipelineCache::open(&self.device, &self.info, disk.clone()));
    }

    /// The cache on disk, when open.
    pub fn disk_cache(&self) -> Option<&DiskCache> {
        self.disk.as_deref()
    }

    /// The cache on disk, when open, for a thread that outlives the call.
    pub(crate) fn shared_disk_cache(&self) -> Option<Arc<DiskCache>> {
        self.disk.clone()
    }

    /// wgpu's pipeline cache (`cache:` of pipeline descriptors), where the disk cache is open
    /// and the device has `PIPELINE_CACHE`.
    pub fn pipeline_cache(&self) -> Option<&wgpu::PipelineCache> {
        self.pipelines.as_ref().map(PersistentPipelineCache::cache)
    }

    /// The file the pipeline cache's data is saved in, where there is a pipeline cache.
    pub fn pipeline_cache_path(&self) -> Option<std::path::PathBuf> {
        self.pipelines.as_ref().map(PersistentPipelineCache::path)
    }

    /// Counts a pipeline about to be built with [`Gpu::pipeline_cache`]: the data of the
    /// builds before it is saved as the 8th, 32nd, 128th, ... starts (and when the `Gpu` is
    /// dropped, if any was built since the last save).
    pub fn note_pipeline_built(&self) {
        if let Some(p) = &self.pipelines {
            p.note_built();
        }
    }

    /// [`Gpu::pipeline_cache`] for one pipeline about to be built, counted as
    /// [`Gpu::note_pipeline_built`] counts it (what the device's pipeline descriptors take).
    pub fn pipeline_cache_for_build(&self) -> Option<&wgpu::PipelineCache> {
        self.note_pipeline_built();
        self.pipeline_cache()
    }

    /// Saves the pipeline cache's data now (a caller's checkpoint: after loading a level).
    pub fn save_pipeline_cache(&self) {
        if let Some(p) = &self.pipelines {
            p.save();
        }
    }

    /// Runs `work` with wgpu validation and internal errors captured, so a
    /// bad shader or pipeline becomes [`GpuError::Wgpu`] instead of a panic
    /// in wgpu's default error handler.
    pub fn capture<T, E: From<GpuError>>(
        &self,
        during: &'static str,
        work: impl FnOnce() -> Result<T, E>,
    ) -> Result<T, E> {
        capture(&self.device, during, work)
    }
}

/// [`Gpu::capture`] on `device`, from any thread (wgpu's error scopes are the calling
/// thread's).
pub(crate) fn capture<T, E: From<GpuError>>(
    device: &wgpu::Device,
    during: &'static str,
    work: impl FnOnce() -> Result<T, E>,
) -> Result<T, E> {
    let validation = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let internal = device.push_error_scope(wgpu::ErrorFilter::Internal);
    let result = work();
    let internal_err = pollster::block_on(internal.pop());
    let validation_err = pollster::block_on(validation.pop());
    if let Some(err) = validation_err.or(internal_err) {
        return Err(GpuError::Wgpu {
            during,
            message: err.to_string(),
        }
        .into());
    }
    result
}

/// Features wgpu reports on the adapter `info` describes that its driver does not honour:
/// block-compressed volumes on GL (Mesa takes S3TC only for 2D and array textures).
fn gl_refuses(info: &wgpu::AdapterInfo) -> wgpu::Features {
    match info.backend {
        wgpu::Backend::Gl => wgpu::Features::TEXTURE_COMPRESSION_BC_SLICED_3D,
        _ => wgpu::Features::empty(),
    }
}

fn no_gpu_allowed() -> bool {
    std::env::var(ALLOW_NO_GPU_ENV).is_ok_and(|v| v == "1")
}
