//! A Direct3D 9-style device on wgpu, headless unless a swap chain is given a window: the one entry point users call.
//!
//! D3D9 creates the vertex declaration and the shaders separately and pairs them only at
//! draw time. So does [`Device`]: `create_*` makes objects (shaders are checked against the
//! device's caps once, at creation, and kept as `CheckedProgram`s), `set_*` changes state,
//! and each draw looks up the combined object for (declaration, vertex shader, pixel shader,
//! and the state that changes shader code) in a bounded cache, translating and linking the
//! shaders on a miss, then the wgpu pipeline for that plus the render state in a second
//! bounded cache. [`Device::cache_stats`] reports hits, misses and evictions.
//!
//! What follows D3D9 (and where this device stops) is documented on each call;
//! `docs/decisions.md` ("The device") gathers the choices.

mod autogen;
mod blit;
mod buffer;
mod cache;
mod clip;
mod constants;
mod copies;
mod d3dcolor;
mod depth_pass;
mod depth_textures;
mod draw;
mod error;
mod fixed_function;
mod float_bits;
mod float_copy;
mod format;
mod multisample;
mod objects;
mod pairing;
mod pass;
mod points;
mod prebuild;
mod present;
mod process;
pub mod query;
mod range;
mod raw_state;
mod readback;
mod reset;
mod setters;
mod shaders;
mod srgb;
mod standin;
mod state;
mod surfaces;
mod texture_kind;
mod textures;
mod transform;
mod upload;
mod versioned;
mod volume_slice;
mod vsync;
mod window;

use std::collections::HashMap;
use std::sync::Arc;

use d3d9_translator::bytecode::{decode, Stage};
use d3d9_translator::check::{check, DeviceCaps};
use d3d9_translator::decl::{StreamFrequency, VertexDeclaration, VertexElement, VertexProcessing};
use d3d9_translator::lift::interface::{
    BOOL_CONSTANTS, HW_FLOAT_CONSTANTS, INT_CONSTANTS, PS3_FLOAT_CONSTANTS, SW_BOOL_CONSTANTS,
    SW_FLOAT_CONSTANTS, SW_INT_CONSTANTS,
};
use d3d9_translator::lift::{FloatMode, Ps1Range};

/// The index data of `DrawIndexedPrimitiveUP`.
pub use crate::gpu::Indices;
pub use cache::CacheStats;
pub use clip::Plane;
pub(crate) use constants::Extent;
pub use constants::{ConstantBuffer, PixelConstants, ProcessingMismatch, VertexConstants};
pub use d3d9_translator::lift::CompareFunction;
pub use error::DeviceError;
pub use fixed_function::{
    Light, LightType, Material, StageArg, StageOp, TextureStage, FIXED_FUNCTION_ENTRY_POINT,
    MAX_ACTIVE_LIGHTS,
};
pub use format::{Format, FormatSupport, SurfaceData};
pub use multisample::NONMASKABLE;
pub use objects::{
    DeclarationId, Filter, IndexBufferId, IndexFormat, LockFlags, Locked, MultiSample,
    PixelShaderId, Pool, SurfaceId, SwapChainId, TexelBox, TextureDesc, TextureId, Usage,
    VertexBufferId, VertexShaderId,
};
pub use prebuild::PrebuildStats;
pub use present::{PresentParams, RasterStatus};
pub use raw_state::{
    StateInfo, RENDER_STATES, SAMPLER_STATES, TEXTURE_STAGES, TEXTURE_STAGE_STATES,
};
pub use state::{
    sampler_descriptor, Blend, BlendOp, CullMode, FillMode, FogMode, MipFilter, Rect, RenderState,
    RenderStates, SamplerState, SamplerStates, ShadeMode, StencilOp, TextureAddress, TextureFilter,
    Viewport,
};
pub use state::{FOURCC_A2M0, FOURCC_A2M1, FOURCC_ATOC};
pub use surfaces::SurfaceInfo;
pub use texture_kind::TextureKind;
pub use textures::TextureInfo;
pub use transform::{Matrix, TransformState, IDENTITY};
pub use vsync::DISPLAY_REFRESH_HZ;
pub use window::PresentInterval;

use cache::{FxHashMap, Lru};
use error::{invalid, unsupported};
use objects::{BufferObject, SurfaceObject, TextureObject};
use pairing::{PairKey, ShaderPair};
use versioned::Versioned;

use crate::gpu::{DiskCacheSetting, Gpu, GpuError};

/// Sampler stages: 0–15 for the pixel stage, then `D3DVERTEXTEXTURESAMPLER0..3`
/// (`D3DDMAPSAMPLER + 1 ..= + 4` = 257–260 in D3D9, 16–19 here).
pub const SAMPLER_STAGES: usize = 20;
/// The first vertex texture sampler stage (`D3DVERTEXTEXTURESAMPLER0`).
pub const VERTEX_SAMPLER_BASE: usize = 16;
/// D3D9's `D3DVERTEXTEXTURESAMPLER0`, as an application passes it to `SetTexture`.
pub const D3DVERTEXTEXTURESAMPLER0: u32 = 257;
/// Streams of a D3D9 device (`MaxStreams`).
pub const MAX_STREAMS: usize = 16;
/// Simultaneous render targets (`NumSimultaneousRTs`).
pub const MAX_RENDER_TARGETS: usize = 4;

/// How the device is created: what `CreateDevice`'s behaviour flags and the caps say, once
/// for everything the device does.
#[derive(Clone, Debug)]
pub struct DeviceParams {
    /// `D3DCREATE_HARDWARE_VERTEXPROCESSING`, `_SOFTWARE_` or `_MIXED_`: the constant ranges
    /// of `SetVertexShaderConstant*` and the shader limits `check` applies.
    pub processing: VertexProcessing,
    /// The caps shaders are checked against (`vertex_processing` is taken from `processing`).
    pub caps: DeviceCaps,
    /// The float rules of translated shaders.
    pub float_mode: FloatMode,
    /// ps_1_x's value range (`MaxPixelShaderValue`): unclamped by default, as Wine's d3d9 and
    /// current Windows drivers report FLT_MAX.
    pub ps1_range: Ps1Range,
    /// The implicit swap chain's back buffer: width, height and format (640 x 480
    /// X8R8G8B8 by default), render target 0 when the device is created.
    pub back_buffer: (u32, u32, Format),
    /// `BackBufferCount`: 1 to 3 back buffers (`Present` flips between several).
    pub back_buffer_count: u32,
    /// `D3DPRESENTFLAG_LOCKABLE_BACKBUFFER`: the back buffers can be locked.
    pub lockable_back_buffer: bool,
    /// `EnableAutoDepthStencil` with this format: a depth-stencil surface of the back
    /// buffer's size, set when the device is created (`None` by default).
    pub auto_depth_stencil: Option<Format>,
    /// `MultiSampleType` and `MultiSampleQuality` of the implicit swap chain's back buffers
    /// and automatic depth-stencil surface (none by default).
    pub multisample: MultiSample,
    /// Entries of the (declaration, shaders, code state) pairing cache.
    pub shader_cache_capacity: usize,
    /// Entries of the pipeline cache.
    pub pipeline_cache_capacity: usize,
    /// The ways round what GL lacks, taken where the adapter needs them; set here to take
    /// them on any adapter (tests compare them with the direct paths).
    pub fallbacks: Fallbacks,
    /// Where the device keeps wgpu's pipeline cache between runs (`gpu::disk_cache`): by
    /// default `D3D9_CACHE_DIR` (a folder, or `off`), else `d3d9-wgpu` in the platform's
    /// cache folder. A cache that cannot be read or written only misses.
    pub disk_cache: DiskCacheSetting,
    /// The size limit of the cache on disk, per adapter (256 MiB by default).
    pub disk_cache_limit: u64,
    /// Build the pipelines the cache on disk recorded in earlier runs as soon as the
    /// objects they name are created, on worker threads (`prebuild`; on by default; nothing
    /// is recorded or built ahead with the cache on disk off).
    pub prebuild: bool,
}

/// Ways round what wgpu's GL backend lacks (`docs/backends.md`), each taken where the adapter
/// lacks what it replaces and, when set here, everywhere.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fallbacks {
    /// Read depth back through a render pass (`depth_pass`) rather than a depth-to-buffer
    /// copy (needs `DownlevelFlags::DEPTH_TEXTURE_AND_BUFFER_COPIES`), and copy depth-stencil
    /// surfaces through passes rather than texture copies.
    pub depth_through_pass: bool,
    /// Hold float32 render targets (surfaces and textures) as their bits in a `u32` format
    /// (`float_bits`) rather than in the float format (needs it renderable).
    pub float32_as_bits: bool,
}

impl Default for DeviceParams {
    fn default() -> Self {
        DeviceParams {
            processing: VertexProcessing::Hardware,
            caps: DeviceCaps::default(),
            float_mode: FloatMode::Legacy,
            ps1_range: Ps1Range::Unclamped,
            back_buffer: (640, 480, Format::X8R8G8B8),
            back_buffer_count: 1,
            lockable_back_buffer: false,
            auto_depth_stencil: None,
            multisample: MultiSample::NONE,
            shader_cache_capacity: 1024,
            pipeline_cache_capacity: 1024,
            fallbacks: Fallbacks::default(),
            disk_cache: DiskCacheSetting::Default,
            disk_cache_limit: crate::gpu::disk_cache::DEFAULT_LIMIT,
            prebuild: true,
        }
    }
}

/// `D3DCLEAR_TARGET`, `_ZBUFFER`, `_STENCIL`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClearFlags {
    pub target: bool,
    pub zbuffer: bool,
    pub stencil: bool,
}

impl ClearFlags {
    /// `D3DCLEAR_TARGET` alone.
    pub const TARGET: ClearFlags = ClearFlags {
        target: true,
        zbuffer: false,
        stencil: false,
    };
    /// `D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER | D3DCLEAR_STENCIL`.
    pub const ALL: ClearFlags = ClearFlags {
        target: true,
        zbuffer: true,
        stencil: true,
    };
}

/// `D3DPRIMITIVETYPE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PrimitiveType {
    PointList,
    LineList,
    LineStrip,
    TriangleList,
    TriangleStrip,
    /// Converted to a triangle list (wgpu has no fans).
    TriangleFan,
}

impl PrimitiveType {
    /// Vertices (or indices) that `count` primitives take.
    pub fn vertex_count(self, count: u32) -> u64 {
        let n = u64::from(count);
        match self {
            PrimitiveType::PointList => n,
            PrimitiveType::LineList => n * 2,
            PrimitiveType::LineStrip => n + 1,
            PrimitiveType::TriangleList => n * 3,
            PrimitiveType::TriangleStrip | PrimitiveType::TriangleFan => n + 2,
        }
    }
}

/// `SetStreamSource` + `SetStreamSourceFreq` of one stream.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Stream {
    pub(crate) buffer: Option<VertexBufferId>,
    pub(crate) offset: u32,
    pub(crate) stride: u32,
    pub(crate) frequency: StreamFrequency,
    /// The `SetStreamSourceFreq` value as given (0 before any: D3D9's default 1).
    pub(crate) raw_frequency: u32,
}

/// Everything `Set*` changes.
pub(crate) struct DeviceState {
    pub(crate) declaration: Option<DeclarationId>,
    pub(crate) vertex_shader: Option<VertexShaderId>,
    /// The software-only vertex shader whose draw under hardware processing was refused;
    /// later hardware draws skip it (`draw::stages`).
    pub(crate) hardware_refused: Option<VertexShaderId>,
    pub(crate) pixel_shader: Option<PixelShaderId>,
    pub(crate) streams: [Stream; MAX_STREAMS],
    pub(crate) indices: Option<IndexBufferId>,
    pub(crate) vs_constants: VertexConstants,
    pub(crate) ps_constants: PixelConstants,
    /// Bumped by every constant change, for the bind-group cache.
    pub(crate) vs_constants_version: u64,
    pub(crate) ps_constants_version: u64,
    pub(crate) textures: [Option<TextureId>; SAMPLER_STAGES],
    /// Bumped by `SetTexture`, which leaves the state's version as it is (the draw memo
    /// answers a change of textures to textures of the same kind and format: `draw::memo`).
    pub(crate) textures_version: u64,
    pub(crate) samplers: [SamplerStates; SAMPLER_STAGES],
    /// `SetLight`, `LightEnable` and `SetMaterial` (the fixed-function vertex stage's).
    pub(crate) lights: fixed_function::Lights,
    /// Every render, sampler and texture-stage state as D3D9 numbers it (`Get*State`); the
    /// typed states above are derived from them.
    pub(crate) raw: raw_state::DeviceRawStates,
    /// `SetTransform`'s matrices (the fixed-function vertex stage's constants).
    pub(crate) transforms: transform::Transforms,
    /// `SetClipPlane`'s planes (enabled by `D3DRS_CLIPPLANEENABLE`).
    pub(crate) clip_planes: [clip::Plane; 6],
    pub(crate) render: RenderStates,
    pub(crate) viewport: Viewport,
    pub(crate) scissor: Rect,
    pub(crate) render_targets: [Option<SurfaceId>; MAX_RENDER_TARGETS],
    pub(crate) depth_stencil: Option<SurfaceId>,
    /// `SetSoftwareVertexProcessing` of a mixed device (software devices: always).
    pub(crate) software_processing: bool,
}

/// A headless D3D9-style device. See the module documentation.
pub struct Device {
    pub(crate) gpu: Gpu,
    pub(crate) params: DeviceParams,
    next_id: u64,
    pub(crate) declarations: Versioned<FxHashMap<DeclarationId, Arc<VertexDeclaration>>>,
    fvf_declarations: HashMap<u32, DeclarationId>,
    pub(crate) vertex_shaders: Versioned<FxHashMap<VertexShaderId, objects::ShaderObject>>,
    pub(crate) pixel_shaders: Versioned<FxHashMap<PixelShaderId, objects::ShaderObject>>,
    pub(crate) vertex_buffers: Versioned<FxHashMap<VertexBufferId, BufferObject>>,
    pub(crate) index_buffers: Versioned<FxHashMap<IndexBufferId, BufferObject>>,
    pub(crate) textures: Versioned<FxHashMap<TextureId, TextureObject>>,
    pub(crate) surfaces: Versioned<FxHashMap<SurfaceId, SurfaceObject>>,
    pub(crate) state: Versioned<DeviceState>,
    pub(crate) pairs: Lru<PairKey, Arc<ShaderPair>>,
    pub(crate) pipelines: Lru<draw::PipelineKey, Arc<draw::PipelineEntry>>,
    pub(crate) bind_groups: Lru<draw::BindGroupKey, wgpu::BindGroup>,
    /// The draws' constants since the last submit, bound with dynamic offsets (`draw::ring`).
    pub(crate) constant_ring: draw::ConstantRing,
    /// Declaration bindings by (pair, stream strides and frequencies).
    pub(crate) bindings: Lru<
        (
            u64,
            VertexProcessing,
            Vec<d3d9_translator::decl::StreamSource>,
        ),
        Arc<d3d9_translator::decl::VertexBinding>,
    >,
    pub(crate) samplers: FxHashMap<draw::SamplerKey, wgpu::Sampler>,
    pub(crate) clear_pipelines: readback::ClearPipelines,
    pub(crate) blit_pipelines: blit::BlitPipelines,
    pub(crate) standin_textures: standin::StandIns,
    /// One-slice volume copies of 2D textures set on `dcl_volume` samplers.
    pub(crate) volume_slices: HashMap<TextureId, volume_slice::VolumeSlice>,
    /// Float copies of float32 textures held as bits, for sampling (`float_copy`).
    pub(crate) float_copies: float_copy::FloatCopies,
    /// The pipelines of the depth passes (`depth_pass`).
    pub(crate) depth_pipelines: depth_pass::DepthPipelines,
    /// The render pass the last draws recorded into, while it stays open (`draw::encode`);
    /// before `encoder`, which it records into.
    pub(crate) open: Option<draw::OpenPass>,
    /// Draws recorded since the last submit.
    pub(crate) encoder: Option<wgpu::CommandEncoder>,
    /// The last draw, resolved, while nothing it read has changed (see `versioned`).
    /// Boxed: a draw takes it out and puts it back, which moves only the pointer.
    pub(crate) memo: Option<Box<draw::DrawMemo>>,
    /// A memo that no longer answered, kept for its allocation: the next memo is written
    /// into it (a memo is large, and made anew at every change of pair or state).
    pub(crate) memo_spare: Option<Box<draw::DrawMemo>>,
    /// Draws answered from `memo` (see [`Device::memo_hits`]).
    pub(crate) memo_hits: u64,
    /// `CreateQuery`'s queries and their GPU query sets (`query`).
    pub(crate) queries: query::Queries,
    /// The state cache and the pipelines built ahead of their draws (`prebuild`).
    pub(crate) prebuild: prebuild::Prebuilds,
    /// The implicit swap chain (`present`; made again by `reset`).
    pub(crate) implicit: present::SwapChain,
    /// `CreateAdditionalSwapChain`'s chains.
    pub(crate) additional: HashMap<SwapChainId, present::SwapChain>,
    /// The first wgpu error no scope captured, reported by the next [`Device::flush`].
    uncaptured: Arc<std::sync::Mutex<Option<String>>>,
    /// Where D3D9's half-pixel offset goes: into the viewport (moved by +0.5, +0.5) where
    /// viewports may be fractional, into the vertex stage's position fix-up on GL, which
    /// truncates viewports to whole pixels (`docs/backends.md`). The viewport keeps
    /// primitives that span it inside the clip volume, which lavapipe interpolates exactly
    /// (the shader's fix-up pushed a full-viewport quad half a pixel past the clip volume,
    /// and the clipped primitives' depth came out up to 2e-5 low).
    pub(crate) half_pixel_in_viewport: bool,
}

impl Device {
    /// A device on the default adapter (`WGPU_BACKEND`, `WGPU_ADAPTER_NAME` as for
    /// [`Gpu::new`]; lavapipe where there is no GPU). No adapter is an error.
    pub fn new(params: DeviceParams) -> Result<Device, DeviceError> {
        let gpu = Gpu::new().map_err(|source| DeviceError::Gpu {
            call: "CreateDevice",
            source,
        })?;
        Device::on_gpu(gpu, params)
    }

    /// A device on `gpu` (one opened with [`Gpu::with_display`] can present into windows:
    /// [`Device::set_window`]).
    pub fn with_gpu(gpu: Gpu, params: DeviceParams) -> Result<Device, DeviceError> {
        Device::on_gpu(gpu, params)
    }

    /// A device on a wgpu device and queue the caller already has (a compatibility layer
    /// owns its own); `adapter` is the one they came from, for its formats and limits.
    pub fn from_wgpu(
        adapter: wgpu::Adapter,
        device: wgpu::Device,
        queue: wgpu::Queue,
        params: DeviceParams,
    ) -> Result<Device, DeviceError> {
        Device::on_gpu(Gpu::from_parts(adapter, device, queue), params)
    }

    fn on_gpu(mut gpu: Gpu, mut params: DeviceParams) -> Result<Device, DeviceError> {
        gpu.open_disk_cache(&params.disk_cache, params.disk_cache_limit);
        // A wgpu error outside a captured scope (which the device's own checks should have
        // prevented) is kept and returned by the next submit, never a panic.
        let uncaptured = Arc::new(std::sync::Mutex::new(None));
        let slot = uncaptured.clone();
        gpu.device
            .on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
                let mut slot = slot.lock().unwrap_or_else(|p| p.into_inner());
                slot.get_or_insert_with(|| e.to_string());
            }));
        params.caps.vertex_processing = params.processing;
        let pairs = Lru::new(params.shader_cache_capacity);
        let pipelines = Lru::new(params.pipeline_cache_capacity);
        let half_pixel_in_viewport = gpu.adapter_info().backend != wgpu::Backend::Gl;
        let constant_ring = draw::ConstantRing::new(&gpu.device);
        let prebuild = prebuild::Prebuilds::open(gpu.shared_disk_cache(), params.prebuild);
        let mut device = Device {
            gpu,
            half_pixel_in_viewport,
            memo_hits: 0,
            next_id: 1,
            declarations: Versioned::new(FxHashMap::default()),
            fvf_declarations: HashMap::new(),
            vertex_shaders: Versioned::new(FxHashMap::default()),
            pixel_shaders: Versioned::new(FxHashMap::default()),
            vertex_buffers: Versioned::new(FxHashMap::default()),
            index_buffers: Versioned::new(FxHashMap::default()),
            textures: Versioned::new(FxHashMap::default()),
            surfaces: Versioned::new(FxHashMap::default()),
            state: Versioned::new(DeviceState::defaults(&params, &Default::default())),
            pairs,
            pipelines,
            bind_groups: Lru::new(256),
            constant_ring,
            bindings: Lru::new(256),
            samplers: FxHashMap::default(),
            clear_pipelines: HashMap::new(),
            blit_pipelines: HashMap::new(),
            standin_textures: HashMap::new(),
            volume_slices: HashMap::new(),
            float_copies: HashMap::new(),
            depth_pipelines: HashMap::new(),
            open: None,
            encoder: None,
            memo: None,
            memo_spare: None,
            queries: Default::default(),
            prebuild,
            implicit: present::SwapChain::default(),
            additional: HashMap::new(),
            uncaptured,
            params,
        };
        let present = device.params.present();
        device.implicit = device.make_swap_chain("CreateDevice", &present, true)?;
        *device.state = DeviceState::defaults(&device.params, &device.implicit);
        Ok(device)
    }

    /// The GPU the device draws on (its adapter, wgpu device and queue).
    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// The creation parameters.
    pub fn params(&self) -> &DeviceParams {
        &self.params
    }

    /// The pairing cache's and the pipeline cache's counters.
    pub fn cache_stats(&self) -> (CacheStats, CacheStats) {
        (self.pairs.stats(), self.pipelines.stats())
    }

    /// How many draws repeated the previous draw with nothing it reads changed, and so were
    /// recorded again from the device's memo of it without any lookup (each is also counted
    /// as a hit in both of [`Device::cache_stats`]). A diagnostic, as the cache statistics.
    pub fn memo_hits(&self) -> u64 {
        self.memo_hits
    }

    pub(crate) fn next_id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    pub(crate) fn gpu_error(call: &'static str) -> impl Fn(GpuError) -> DeviceError {
        move |source| DeviceError::Gpu { call, source }
    }

    /// `Unsupported` from `call` unless the wgpu device has `feature` (what D3D9 asks, `what`).
    pub(crate) fn require_feature(
        &self,
        call: &'static str,
        feature: wgpu::Features,
        what: &str,
    ) -> Result<(), DeviceError> {
        if self.gpu.features().contains(feature) {
            Ok(())
        } else {
            Err(unsupported(
                call,
                format!("{what} (no {feature:?} on this adapter)"),
            ))
        }
    }

    /// Submits the draws recorded so far to the GPU. A wgpu validation error in what was
    /// recorded (which the device's own checks should have prevented) is returned here, as
    /// `DeviceError::Gpu`, never a panic.
    pub fn flush(&mut self) -> Result<(), DeviceError> {
        let uncaptured = self
            .uncaptured
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        if let Some(message) = uncaptured {
            self.open = None;
            self.encoder = None;
            self.constant_ring.discard();
            return Err(DeviceError::Gpu {
                call: "flush",
                source: GpuError::Wgpu {
                    during: "recording",
                    message,
                },
            });
        }
        self.open = None;
        self.prebuild.save_soon();
        let Some(encoder) = self.encoder.take() else {
            return Ok(());
        };
        self.upload_held_locks();
        let gpu = &self.gpu;
        let ring = &mut self.constant_ring;
        gpu.capture("submitting the recorded draws", || {
            // The draws' constants, written before the commands that read them.
            ring.upload(&gpu.queue);
            gpu.queue.submit([encoder.finish()]);
            Ok(())
        })
        .map_err(Device::gpu_error("flush"))
    }
}

/// `start .. start + count` within `limit` registers.
fn range_check(
    call: &'static str,
    start: usize,
    count: usize,
    limit: usize,
) -> Result<(), DeviceError> {
    match start.checked_add(count) {
        Some(end) if end <= limit => Ok(()),
        _ => Err(invalid(
            call,
            format!("registers {start}..{start}+{count} past the device's {limit}"),
        )),
    }
}
