//! A headless Direct3D 9-style device on wgpu: the one entry point users call.
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
mod copies;
mod draw;
mod error;
mod fixed_function;
mod format;
mod objects;
mod pairing;
mod pass;
mod points;
mod present;
mod process;
pub mod query;
mod range;
mod raw_state;
mod readback;
mod reset;
mod standin;
mod state;
mod surfaces;
mod textures;
mod transform;
mod upload;
mod versioned;
mod volume_slice;

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

pub use blit::Filter;
pub use cache::CacheStats;
pub use clip::Plane;
pub use d3d9_translator::lift::CompareFunction;
pub use error::DeviceError;
pub use fixed_function::{
    Light, LightType, Material, StageArg, StageOp, TextureStage, MAX_ACTIVE_LIGHTS,
};
pub use format::{Format, FormatSupport, SurfaceData};
pub use objects::{
    DeclarationId, IndexBufferId, IndexFormat, LockFlags, Locked, PixelShaderId, Pool, SurfaceId,
    TexelBox, TextureId, Usage, VertexBufferId, VertexShaderId,
};
pub use present::{PresentParams, SwapChainId};
pub use raw_state::{
    StateInfo, RENDER_STATES, SAMPLER_STATES, TEXTURE_STAGES, TEXTURE_STAGE_STATES,
};
pub use state::{
    Blend, BlendOp, FillMode, FogMode, Rect, RenderState, RenderStates, SamplerState,
    SamplerStates, ShadeMode, StencilOp, Viewport,
};
pub use surfaces::SurfaceInfo;
pub use textures::{TextureDesc, TextureInfo};
pub use transform::{Matrix, TransformState, IDENTITY};

use cache::Lru;
use error::{invalid, unsupported};
use objects::{BufferObject, SurfaceObject, TextureObject};
use pairing::{PairKey, ShaderPair};
use versioned::Versioned;

use crate::{Gpu, GpuError, PixelConstants, VertexConstants};

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
    /// Entries of the (declaration, shaders, code state) pairing cache.
    pub shader_cache_capacity: usize,
    /// Entries of the pipeline cache.
    pub pipeline_cache_capacity: usize,
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
            shader_cache_capacity: 1024,
            pipeline_cache_capacity: 1024,
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
    pub(crate) pixel_shader: Option<PixelShaderId>,
    pub(crate) streams: [Stream; MAX_STREAMS],
    pub(crate) indices: Option<IndexBufferId>,
    pub(crate) vs_constants: VertexConstants,
    pub(crate) ps_constants: PixelConstants,
    /// Bumped by every constant change, for the bind-group cache.
    pub(crate) vs_constants_version: u64,
    pub(crate) ps_constants_version: u64,
    pub(crate) textures: [Option<TextureId>; SAMPLER_STAGES],
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
    pub(crate) declarations: Versioned<HashMap<DeclarationId, Arc<VertexDeclaration>>>,
    fvf_declarations: HashMap<u32, DeclarationId>,
    pub(crate) vertex_shaders: Versioned<HashMap<VertexShaderId, objects::ShaderObject>>,
    pub(crate) pixel_shaders: Versioned<HashMap<PixelShaderId, objects::ShaderObject>>,
    pub(crate) vertex_buffers: Versioned<HashMap<VertexBufferId, BufferObject>>,
    pub(crate) index_buffers: Versioned<HashMap<IndexBufferId, BufferObject>>,
    pub(crate) textures: Versioned<HashMap<TextureId, TextureObject>>,
    pub(crate) surfaces: Versioned<HashMap<SurfaceId, SurfaceObject>>,
    pub(crate) state: Versioned<DeviceState>,
    pub(crate) pairs: Lru<PairKey, Arc<ShaderPair>>,
    pub(crate) pipelines: Lru<draw::PipelineKey, Arc<draw::PipelineEntry>>,
    pub(crate) bind_groups: Lru<draw::BindGroupKey, wgpu::BindGroup>,
    /// Declaration bindings by (pair, stream strides and frequencies).
    pub(crate) bindings: Lru<
        (
            u64,
            VertexProcessing,
            Vec<d3d9_translator::decl::StreamSource>,
        ),
        Arc<d3d9_translator::decl::VertexBinding>,
    >,
    pub(crate) samplers: HashMap<draw::SamplerKey, wgpu::Sampler>,
    pub(crate) clear_pipelines: readback::ClearPipelines,
    pub(crate) blit_pipelines: blit::BlitPipelines,
    pub(crate) standin_textures: standin::StandIns,
    /// One-slice volume copies of 2D textures set on `dcl_volume` samplers.
    pub(crate) volume_slices: HashMap<TextureId, volume_slice::VolumeSlice>,
    /// Draws recorded since the last submit.
    pub(crate) encoder: Option<wgpu::CommandEncoder>,
    /// The last draw, resolved, while nothing it read has changed (see `versioned`).
    pub(crate) memo: Option<draw::DrawMemo>,
    /// Draws answered from `memo` (see [`Device::memo_hits`]).
    pub(crate) memo_hits: u64,
    /// `CreateQuery`'s queries and their GPU query sets (`query`).
    pub(crate) queries: query::Queries,
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

    fn on_gpu(gpu: Gpu, mut params: DeviceParams) -> Result<Device, DeviceError> {
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
        let mut device = Device {
            gpu,
            half_pixel_in_viewport,
            memo_hits: 0,
            next_id: 1,
            declarations: Versioned::new(HashMap::new()),
            fvf_declarations: HashMap::new(),
            vertex_shaders: Versioned::new(HashMap::new()),
            pixel_shaders: Versioned::new(HashMap::new()),
            vertex_buffers: Versioned::new(HashMap::new()),
            index_buffers: Versioned::new(HashMap::new()),
            textures: Versioned::new(HashMap::new()),
            surfaces: Versioned::new(HashMap::new()),
            state: Versioned::new(DeviceState::defaults(&params, &Default::default())),
            pairs,
            pipelines,
            bind_groups: Lru::new(256),
            bindings: Lru::new(256),
            samplers: HashMap::new(),
            clear_pipelines: HashMap::new(),
            blit_pipelines: HashMap::new(),
            standin_textures: HashMap::new(),
            volume_slices: HashMap::new(),
            encoder: None,
            memo: None,
            queries: Default::default(),
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

    // ---- vertex declarations -------------------------------------------------------------

    /// `CreateVertexDeclaration` from `D3DVERTEXELEMENT9`s (without the `D3DDECL_END`).
    pub fn create_vertex_declaration(
        &mut self,
        elements: &[VertexElement],
    ) -> Result<DeclarationId, DeviceError> {
        let call = "CreateVertexDeclaration";
        let decl = VertexDeclaration::from_elements(elements)
            .map_err(|source| DeviceError::Declaration { call, source })?;
        Ok(self.add_declaration(decl))
    }

    /// `CreateVertexDeclaration` from `D3DVERTEXELEMENT9` records as an application passes
    /// them (without the `D3DDECL_END`), validated as D3D9 validates them.
    pub fn create_vertex_declaration_raw(
        &mut self,
        elements: &[d3d9_translator::decl::RawElement],
    ) -> Result<DeclarationId, DeviceError> {
        let call = "CreateVertexDeclaration";
        let decl = VertexDeclaration::from_raw(elements)
            .map_err(|source| DeviceError::Declaration { call, source })?;
        Ok(self.add_declaration(decl))
    }

    /// `CreateVertexDeclaration` from a DX8 declaration token stream (`D3DVSD_*`); its
    /// `D3DVSD_CONST` values are returned for the caller to set as vertex shader constants.
    pub fn create_vertex_declaration_dx8(
        &mut self,
        tokens: &[u32],
    ) -> Result<(DeclarationId, Vec<d3d9_translator::decl::Dx8Constants>), DeviceError> {
        let call = "CreateVertexDeclaration (DX8 tokens)";
        let (decl, constants) = VertexDeclaration::from_dx8(tokens)
            .map_err(|source| DeviceError::Declaration { call, source })?;
        Ok((self.add_declaration(decl), constants))
    }

    /// A declaration made from an FVF code (what `SetFVF` installs).
    pub fn create_vertex_declaration_fvf(
        &mut self,
        fvf: u32,
    ) -> Result<DeclarationId, DeviceError> {
        if let Some(id) = self.fvf_declarations.get(&fvf) {
            return Ok(*id);
        }
        let call = "SetFVF";
        let decl = VertexDeclaration::from_fvf(fvf)
            .map_err(|source| DeviceError::Declaration { call, source })?;
        let id = self.add_declaration(decl);
        self.fvf_declarations.insert(fvf, id);
        Ok(id)
    }

    fn add_declaration(&mut self, decl: VertexDeclaration) -> DeclarationId {
        let id = DeclarationId(self.next_id());
        self.declarations.insert(id, Arc::new(decl));
        id
    }

    /// The elements of a declaration.
    pub fn declaration_elements(&self, id: DeclarationId) -> Option<&[VertexElement]> {
        self.declarations.get(&id).map(|d| d.elements())
    }

    // ---- shaders ----------------------------------------------------------------------------

    /// `CreateVertexShader`: the bytecode decoded and checked against the device's caps.
    pub fn create_vertex_shader(&mut self, tokens: &[u32]) -> Result<VertexShaderId, DeviceError> {
        let program = self.create_shader("CreateVertexShader", tokens, Stage::Vertex)?;
        let id = VertexShaderId(self.next_id());
        self.vertex_shaders.insert(id, program);
        Ok(id)
    }

    /// `CreatePixelShader`: the bytecode decoded and checked against the device's caps.
    pub fn create_pixel_shader(&mut self, tokens: &[u32]) -> Result<PixelShaderId, DeviceError> {
        let program = self.create_shader("CreatePixelShader", tokens, Stage::Pixel)?;
        let id = PixelShaderId(self.next_id());
        self.pixel_shaders.insert(id, program);
        Ok(id)
    }

    fn create_shader(
        &self,
        call: &'static str,
        tokens: &[u32],
        stage: Stage,
    ) -> Result<objects::ShaderObject, DeviceError> {
        let program = decode(tokens).map_err(|source| DeviceError::Decode { call, source })?;
        let checked = check(&program, stage, &self.params.caps)
            .map_err(|source| DeviceError::Check { call, source })?;
        Ok(Arc::new(checked))
    }

    /// `Unsupported` from `call` unless the wgpu device has `feature` (what D3D9 asks, `what`).
    pub(crate) fn require_feature(
        &self,
        call: &'static str,
        feature: wgpu::Features,
        what: &str,
    ) -> Result<(), DeviceError> {
        if self.gpu.device.features().contains(feature) {
            Ok(())
        } else {
            Err(unsupported(
                call,
                format!("{what} (no {feature:?} on this adapter)"),
            ))
        }
    }

    // ---- state ------------------------------------------------------------------------------

    /// `SetVertexDeclaration`.
    pub fn set_vertex_declaration(&mut self, id: Option<DeclarationId>) -> Result<(), DeviceError> {
        if let Some(id) = id {
            if !self.declarations.contains_key(&id) {
                return Err(invalid(
                    "SetVertexDeclaration",
                    format!("{id:?} is not a declaration of this device"),
                ));
            }
        }
        self.state.declaration = id;
        Ok(())
    }

    /// `SetFVF`: installs the declaration the FVF code describes.
    pub fn set_fvf(&mut self, fvf: u32) -> Result<(), DeviceError> {
        let id = self.create_vertex_declaration_fvf(fvf)?;
        self.state.declaration = Some(id);
        Ok(())
    }

    /// `SetVertexShader` (`None`: the fixed-function vertex stage).
    pub fn set_vertex_shader(&mut self, id: Option<VertexShaderId>) -> Result<(), DeviceError> {
        if let Some(id) = id {
            if !self.vertex_shaders.contains_key(&id) {
                return Err(invalid(
                    "SetVertexShader",
                    format!("{id:?} is not a vertex shader of this device"),
                ));
            }
        }
        self.state.vertex_shader = id;
        Ok(())
    }

    /// `SetPixelShader` (`None`: the fixed-function pixel stage).
    pub fn set_pixel_shader(&mut self, id: Option<PixelShaderId>) -> Result<(), DeviceError> {
        if let Some(id) = id {
            if !self.pixel_shaders.contains_key(&id) {
                return Err(invalid(
                    "SetPixelShader",
                    format!("{id:?} is not a pixel shader of this device"),
                ));
            }
        }
        self.state.pixel_shader = id;
        Ok(())
    }

    /// `SetStreamSource(stream, buffer, offset, stride)`.
    pub fn set_stream_source(
        &mut self,
        stream: usize,
        buffer: Option<VertexBufferId>,
        offset: u32,
        stride: u32,
    ) -> Result<(), DeviceError> {
        let call = "SetStreamSource";
        if let Some(id) = buffer {
            if !self.vertex_buffers.contains_key(&id) {
                return Err(invalid(
                    call,
                    format!("{id:?} is not a vertex buffer of this device"),
                ));
            }
        }
        let slot = self.state.streams.get_mut(stream).ok_or_else(|| {
            invalid(
                call,
                format!("stream {stream} (a device has {MAX_STREAMS})"),
            )
        })?;
        slot.buffer = buffer;
        slot.offset = offset;
        slot.stride = stride;
        Ok(())
    }

    /// `SetStreamSourceFreq(stream, value)`: `D3DSTREAMSOURCE_INDEXEDDATA | n` on stream 0
    /// draws `n` instances of the indexed geometry, `D3DSTREAMSOURCE_INSTANCEDATA | 1` makes
    /// a stream advance once per instance. D3D9 refuses both flags at once, INSTANCEDATA on
    /// stream 0, and a plain 0; it accepts a count of 0 with either flag (Wine's stream_test:
    /// `INDEXEDDATA | 0` and `INSTANCEDATA | 0` succeed, `0` is `D3DERR_INVALIDCALL`).
    /// `INDEXEDDATA | 0` on stream 0 draws one instance (drivers differ; Wine's test leaves it
    /// open).
    pub fn set_stream_source_freq(&mut self, stream: usize, value: u32) -> Result<(), DeviceError> {
        let call = "SetStreamSourceFreq";
        const INDEXED: u32 = 0x4000_0000;
        const INSTANCE: u32 = 0x8000_0000;
        if value & INDEXED != 0 && value & INSTANCE != 0 {
            return Err(invalid(call, "both INDEXEDDATA and INSTANCEDATA"));
        }
        if stream == 0 && value & INSTANCE != 0 {
            return Err(invalid(call, "INSTANCEDATA on stream 0"));
        }
        if value == 0 {
            return Err(invalid(call, "a frequency of 0"));
        }
        let slot = self.state.streams.get_mut(stream).ok_or_else(|| {
            invalid(
                call,
                format!("stream {stream} (a device has {MAX_STREAMS})"),
            )
        })?;
        slot.frequency = StreamFrequency::from_raw(value);
        slot.raw_frequency = value;
        Ok(())
    }

    /// `SetIndices`.
    pub fn set_indices(&mut self, id: Option<IndexBufferId>) -> Result<(), DeviceError> {
        if let Some(id) = id {
            if !self.index_buffers.contains_key(&id) {
                return Err(invalid(
                    "SetIndices",
                    format!("{id:?} is not an index buffer of this device"),
                ));
            }
        }
        self.state.indices = id;
        Ok(())
    }

    /// The vertex constant register counts (c#, i#, b#) of this device.
    fn vertex_constant_limits(&self) -> (usize, usize, usize) {
        match self.params.processing {
            VertexProcessing::Hardware => (
                (self
                    .params
                    .caps
                    .max_vertex_shader_const
                    .min(HW_FLOAT_CONSTANTS)) as usize,
                INT_CONSTANTS as usize,
                BOOL_CONSTANTS as usize,
            ),
            VertexProcessing::Software | VertexProcessing::Mixed => (
                SW_FLOAT_CONSTANTS as usize,
                SW_INT_CONSTANTS as usize,
                SW_BOOL_CONSTANTS as usize,
            ),
        }
    }

    /// `SetVertexShaderConstantF(start, values, values.len())`; past the device's range
    /// (256 under hardware vertex processing, 8192 under software) is `D3DERR_INVALIDCALL`.
    pub fn set_vertex_shader_constant_f(
        &mut self,
        start: usize,
        values: &[[f32; 4]],
    ) -> Result<(), DeviceError> {
        let (limit, _, _) = self.vertex_constant_limits();
        range_check("SetVertexShaderConstantF", start, values.len(), limit)?;
        self.state.vs_constants.set_f(start, values);
        self.state.vs_constants_version += 1;
        Ok(())
    }

    /// `SetVertexShaderConstantI`.
    pub fn set_vertex_shader_constant_i(
        &mut self,
        start: usize,
        values: &[[i32; 4]],
    ) -> Result<(), DeviceError> {
        let (_, limit, _) = self.vertex_constant_limits();
        range_check("SetVertexShaderConstantI", start, values.len(), limit)?;
        self.state.vs_constants.set_i(start, values);
        self.state.vs_constants_version += 1;
        Ok(())
    }

    /// `SetVertexShaderConstantB`.
    pub fn set_vertex_shader_constant_b(
        &mut self,
        start: usize,
        values: &[bool],
    ) -> Result<(), DeviceError> {
        let (_, _, limit) = self.vertex_constant_limits();
        range_check("SetVertexShaderConstantB", start, values.len(), limit)?;
        self.state.vs_constants.set_b(start, values);
        self.state.vs_constants_version += 1;
        Ok(())
    }

    /// `SetPixelShaderConstantF` (224 registers, ps_3_0's count).
    pub fn set_pixel_shader_constant_f(
        &mut self,
        start: usize,
        values: &[[f32; 4]],
    ) -> Result<(), DeviceError> {
        let limit = PS3_FLOAT_CONSTANTS as usize;
        range_check("SetPixelShaderConstantF", start, values.len(), limit)?;
        self.state.ps_constants.set_f(start, values);
        self.state.ps_constants_version += 1;
        Ok(())
    }

    /// `SetPixelShaderConstantI` (16 registers).
    pub fn set_pixel_shader_constant_i(
        &mut self,
        start: usize,
        values: &[[i32; 4]],
    ) -> Result<(), DeviceError> {
        range_check(
            "SetPixelShaderConstantI",
            start,
            values.len(),
            INT_CONSTANTS as usize,
        )?;
        self.state.ps_constants.set_i(start, values);
        self.state.ps_constants_version += 1;
        Ok(())
    }

    /// `SetPixelShaderConstantB` (16 registers).
    pub fn set_pixel_shader_constant_b(
        &mut self,
        start: usize,
        values: &[bool],
    ) -> Result<(), DeviceError> {
        range_check(
            "SetPixelShaderConstantB",
            start,
            values.len(),
            BOOL_CONSTANTS as usize,
        )?;
        self.state.ps_constants.set_b(start, values);
        self.state.ps_constants_version += 1;
        Ok(())
    }

    /// The sampler stage slot of a D3D9 sampler number: 0–15, or
    /// `D3DVERTEXTEXTURESAMPLER0..3` (257–260).
    pub(crate) fn sampler_slot(call: &'static str, sampler: u32) -> Result<usize, DeviceError> {
        match sampler {
            0..=15 => Ok(sampler as usize),
            257..=260 => Ok(VERTEX_SAMPLER_BASE + (sampler - D3DVERTEXTEXTURESAMPLER0) as usize),
            _ => Err(invalid(call, format!("sampler {sampler}"))),
        }
    }

    /// `SetTexture(sampler, texture)`: samplers 0–15, and `D3DVERTEXTEXTURESAMPLER0..3`
    /// (257–260) for vertex texture fetch.
    pub fn set_texture(
        &mut self,
        sampler: u32,
        texture: Option<TextureId>,
    ) -> Result<(), DeviceError> {
        let call = "SetTexture";
        let slot = Device::sampler_slot(call, sampler)?;
        if let Some(id) = texture {
            if !self.textures.contains_key(&id) {
                return Err(invalid(
                    call,
                    format!("{id:?} is not a texture of this device"),
                ));
            }
        }
        self.state.textures[slot] = texture;
        Ok(())
    }

    /// `SetSamplerState(sampler, type, value)`.
    pub fn set_sampler_state(
        &mut self,
        sampler: u32,
        state: SamplerState,
    ) -> Result<(), DeviceError> {
        let slot = Device::sampler_slot("SetSamplerState", sampler)?;
        self.state.samplers[slot].set(state);
        Ok(())
    }

    /// `SetTextureStageState(stage, D3DTSS_COLOROP / COLORARG1 / COLORARG2, ..)`, typed:
    /// the colour operation and its two arguments of stage 0–7 (the raw states
    /// [`Device::set_texture_stage_state_raw`] sets, without modifiers).
    pub fn set_texture_stage(
        &mut self,
        stage: usize,
        state: TextureStage,
    ) -> Result<(), DeviceError> {
        let stage = u32::try_from(stage).unwrap_or(u32::MAX);
        for (ty, value) in [
            (raw_state::D3DTSS_COLOROP, state.op.to_d3d()),
            (2, state.arg1.to_d3d()),
            (3, state.arg2.to_d3d()),
        ] {
            self.set_texture_stage_state_raw(stage, ty, value)?;
        }
        Ok(())
    }

    /// `SetTransform(state, matrix)`: `matrix[row][column]` as `D3DMATRIX` holds it (row
    /// vectors, `v' = v · M`). The fixed-function vertex stage reads `D3DTS_WORLD`,
    /// `D3DTS_VIEW` and `D3DTS_PROJECTION`; the other matrices are stored for
    /// [`Device::get_transform`] only (see `transform`). `D3DTS_TEXTURE8` and up are
    /// `D3DERR_INVALIDCALL`.
    pub fn set_transform(
        &mut self,
        state: TransformState,
        matrix: Matrix,
    ) -> Result<(), DeviceError> {
        if self.state.transforms.set(state, matrix) {
            Ok(())
        } else {
            Err(invalid("SetTransform", format!("{state:?}")))
        }
    }

    /// `GetTransform(state)`: the matrix last set (identity by default).
    pub fn get_transform(&self, state: TransformState) -> Result<Matrix, DeviceError> {
        self.state
            .transforms
            .get(state)
            .ok_or_else(|| invalid("GetTransform", format!("{state:?}")))
    }

    /// `SetTransform` with D3D9's `D3DTRANSFORMSTATETYPE` number (2, 3, 16–23, 256–511);
    /// any other number is `D3DERR_INVALIDCALL`.
    pub fn set_transform_raw(&mut self, state: u32, matrix: Matrix) -> Result<(), DeviceError> {
        let state = TransformState::from_d3d(state)
            .ok_or_else(|| invalid("SetTransform", format!("D3DTRANSFORMSTATETYPE {state}")))?;
        self.set_transform(state, matrix)
    }

    /// `GetTransform` with D3D9's number, as [`Device::set_transform_raw`] takes it.
    pub fn get_transform_raw(&self, state: u32) -> Result<Matrix, DeviceError> {
        let state = TransformState::from_d3d(state)
            .ok_or_else(|| invalid("GetTransform", format!("D3DTRANSFORMSTATETYPE {state}")))?;
        self.get_transform(state)
    }

    /// `SetRenderState`.
    pub fn set_render_state(&mut self, state: RenderState) -> Result<(), DeviceError> {
        if let RenderState::ColorWriteEnable(target, _) = state {
            if target >= MAX_RENDER_TARGETS {
                return Err(invalid(
                    "SetRenderState",
                    format!("D3DRS_COLORWRITEENABLE of render target {target}"),
                ));
            }
        }
        self.state.render.set(state);
        Ok(())
    }

    /// The render states now.
    pub fn render_states(&self) -> &RenderStates {
        &self.state.render
    }

    /// `SetViewport`: any viewport of a non-zero size (Windows takes one past render target
    /// 0 and depth ranges past 0..1; draws clip to the target and clamp depth).
    pub fn set_viewport(&mut self, viewport: Viewport) -> Result<(), DeviceError> {
        let call = "SetViewport";
        // Windows takes a viewport reaching past render target 0 (Wine's test_viewport); the
        // draws clip to both.
        if viewport.width == 0 || viewport.height == 0 {
            return Err(invalid(call, format!("{viewport:?}")));
        }
        // D3D9 keeps a depth range past 0..1 (Wine's depth_clamp_test sets MaxZ 7.5 and
        // expects D3D_OK on Windows): draws clamp it to 0..1 where WebGPU needs.
        if !viewport.min_z.is_finite() || !viewport.max_z.is_finite() {
            return Err(invalid(
                call,
                format!("MinZ {} / MaxZ {}", viewport.min_z, viewport.max_z),
            ));
        }
        self.state.viewport = viewport;
        Ok(())
    }

    /// `SetSoftwareVertexProcessing(software)`: a mixed device switches between hardware and
    /// software vertex processing (streams, declaration and shaders stay set); under
    /// software processing every input the vertex shader declares must be in the declaration
    /// at draw time. A hardware or software device cannot switch: `D3DERR_INVALIDCALL`.
    pub fn set_software_vertex_processing(&mut self, software: bool) -> Result<(), DeviceError> {
        if self.params.processing != VertexProcessing::Mixed {
            return Err(invalid(
                "SetSoftwareVertexProcessing",
                "the device was not created with D3DCREATE_MIXED_VERTEXPROCESSING",
            ));
        }
        self.state.software_processing = software;
        Ok(())
    }

    /// Whether vertices are processed in software now.
    pub fn software_vertex_processing(&self) -> bool {
        self.state.software_processing
    }

    /// The processing a draw's declaration is paired under.
    pub(crate) fn binding_processing(&self) -> VertexProcessing {
        if self.state.software_processing {
            VertexProcessing::Software
        } else {
            VertexProcessing::Hardware
        }
    }

    /// The viewport now.
    pub fn viewport(&self) -> Viewport {
        self.state.viewport
    }

    /// `GetScissorRect`.
    pub fn scissor_rect(&self) -> Rect {
        self.state.scissor
    }

    /// `GetStreamSourceFreq(stream)` as D3D9 numbers it (1 by default).
    pub fn stream_source_freq(&self, stream: usize) -> Option<u32> {
        self.state
            .streams
            .get(stream)
            .map(|s| s.raw_frequency.max(1))
    }

    /// `GetVertexShaderConstantF/I/B`: the constants now.
    pub fn vertex_shader_constants(&self) -> &VertexConstants {
        &self.state.vs_constants
    }

    /// `GetPixelShaderConstantF/I/B`: the constants now.
    pub fn pixel_shader_constants(&self) -> &PixelConstants {
        &self.state.ps_constants
    }

    /// `SetScissorRect`.
    pub fn set_scissor_rect(&mut self, rect: Rect) -> Result<(), DeviceError> {
        if rect.left > rect.right || rect.top > rect.bottom {
            return Err(invalid("SetScissorRect", format!("{rect:?}")));
        }
        self.state.scissor = rect;
        Ok(())
    }

    /// `SetRenderTarget(index, surface)`. Render target 0 cannot be unset; setting it resets
    /// the viewport and the scissor rectangle to the whole surface, as D3D9 does. Every
    /// render target must have render target 0's size.
    pub fn set_render_target(
        &mut self,
        index: usize,
        surface: Option<SurfaceId>,
    ) -> Result<(), DeviceError> {
        let call = "SetRenderTarget";
        if index >= MAX_RENDER_TARGETS {
            return Err(invalid(
                call,
                format!("render target {index} (the device has {MAX_RENDER_TARGETS})"),
            ));
        }
        if index == 0 && surface.is_none() {
            return Err(invalid(call, "render target 0 cannot be NULL"));
        }
        if let Some(id) = surface {
            let s = self
                .surfaces
                .get(&id)
                .ok_or_else(|| invalid(call, format!("{id:?} is not a surface of this device")))?;
            if s.format.is_depth() {
                return Err(invalid(call, format!("{id:?} is a depth-stencil surface")));
            }
            if index == 0 {
                let (width, height) = (s.width, s.height);
                self.state.viewport = Viewport {
                    x: 0,
                    y: 0,
                    width,
                    height,
                    min_z: 0.0,
                    max_z: 1.0,
                };
                self.state.scissor = Rect {
                    left: 0,
                    top: 0,
                    right: width as i32,
                    bottom: height as i32,
                };
            }
        }
        self.state.render_targets[index] = surface;
        Ok(())
    }

    /// `GetDepthStencilSurface`.
    pub fn depth_stencil_surface(&self) -> Option<SurfaceId> {
        self.state.depth_stencil
    }

    /// `SetDepthStencilSurface`.
    pub fn set_depth_stencil_surface(
        &mut self,
        surface: Option<SurfaceId>,
    ) -> Result<(), DeviceError> {
        let call = "SetDepthStencilSurface";
        if let Some(id) = surface {
            let s = self
                .surfaces
                .get(&id)
                .ok_or_else(|| invalid(call, format!("{id:?} is not a surface of this device")))?;
            if !s.format.is_depth() {
                return Err(invalid(
                    call,
                    format!("{id:?} is not a depth-stencil surface"),
                ));
            }
        }
        self.state.depth_stencil = surface;
        Ok(())
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
            self.encoder = None;
            return Err(DeviceError::Gpu {
                call: "flush",
                source: GpuError::Wgpu {
                    during: "recording",
                    message,
                },
            });
        }
        let Some(encoder) = self.encoder.take() else {
            return Ok(());
        };
        let gpu = &self.gpu;
        gpu.capture("submitting the recorded draws", || {
            gpu.queue.submit([encoder.finish()]);
            Ok(())
        })
        .map_err(Device::gpu_error("flush"))
    }

    /// `Release` of a vertex shader: its cached pairings are dropped with it.
    pub fn release_vertex_shader(&mut self, id: VertexShaderId) -> Result<(), DeviceError> {
        self.vertex_shaders.remove(&id).ok_or_else(|| {
            invalid(
                "Release",
                format!("{id:?} is not a vertex shader of this device"),
            )
        })?;
        if self.state.vertex_shader == Some(id) {
            self.state.vertex_shader = None;
        }
        self.pairs.remove_where(|k| k.names_vertex_shader(id));
        Ok(())
    }

    /// `Release` of a pixel shader.
    pub fn release_pixel_shader(&mut self, id: PixelShaderId) -> Result<(), DeviceError> {
        self.pixel_shaders.remove(&id).ok_or_else(|| {
            invalid(
                "Release",
                format!("{id:?} is not a pixel shader of this device"),
            )
        })?;
        if self.state.pixel_shader == Some(id) {
            self.state.pixel_shader = None;
        }
        self.pairs.remove_where(|k| k.names_pixel_shader(id));
        Ok(())
    }

    /// `Release` of a vertex declaration.
    pub fn release_vertex_declaration(&mut self, id: DeclarationId) -> Result<(), DeviceError> {
        self.declarations.remove(&id).ok_or_else(|| {
            invalid(
                "Release",
                format!("{id:?} is not a declaration of this device"),
            )
        })?;
        self.fvf_declarations.retain(|_, d| *d != id);
        if self.state.declaration == Some(id) {
            self.state.declaration = None;
        }
        self.pairs.remove_where(|k| k.declaration == id);
        Ok(())
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
