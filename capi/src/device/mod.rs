//! `IDirect3DDevice9` over `d3d9_backend::device::Device`.
//!
//! The device's state lives behind one lock ([`Shared`]); every method locks it, so
//! `D3DCREATE_MULTITHREADED` holds whatever the flags say. Objects bound with `Set*` are held
//! by private references in [`Bound`]; state-setting calls go through
//! [`Change`](child::state::Change) so a state block can record them. The device's children
//! (the objects it makes) are in `child`, below the methods, which are split by concern:
//! `object` (creation and the implicit swap chain), `reset` (`Reset` and the lost state),
//! `resources` (`Create*`, copies, render targets), `states` (setters and getters), `draw`
//! (scenes, clears, draws), `shaders` (shaders and declarations).

pub mod child;
mod draw;
mod object;
mod reset;
mod resources;
mod shaders;
mod states;

use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::Arc;

use d3d9_backend::device::{Device, SwapChainId};

use crate::adapter::Direct3D9;
use crate::com::{entry, entry_value, Class, Com, Deferred, Kind, Private};
use crate::device::child::shader::VertexDeclaration9;
use crate::device::child::state::{Block, Bound};
use crate::device::child::surface::Surface9;
use crate::device::child::swapchain::{Chain, SwapChain9};
use crate::device::child::Shared;
use crate::guid::{Guid, IID_IDIRECT3DDEVICE9};
use crate::hresult::{CallResult, HRESULT};
use crate::types::*;

pub use object::create;

/// The `IDirect3DDevice9` object.
pub struct Device9 {
    /// The `IDirect3D9` that made it (one public reference, as Windows holds).
    d3d: *mut Com<Direct3D9>,
    pub shared: Arc<Shared>,
}

/// The device's state, behind its lock.
pub struct DeviceInner {
    pub device: Device,
    pub bound: Bound,
    /// Private references to give up once the lock is released.
    pub deferred: Deferred,
    pub creation: D3DDEVICE_CREATION_PARAMETERS,
    /// The implicit swap chain's back buffers and present parameters (`Reset` replaces them).
    pub implicit: Chain,
    /// The additional swap chains' (`CreateAdditionalSwapChain`).
    pub additional: HashMap<SwapChainId, Chain>,
    /// The implicit swap chain object (`GetSwapChain(0)`).
    pub swap_chain: Option<Private<SwapChain9>>,
    /// The automatic depth-stencil surface.
    pub auto_depth_stencil: Option<Private<Surface9>>,
    /// The declarations `SetFVF` made, by FVF code.
    pub fvf_declarations: HashMap<u32, Private<VertexDeclaration9>>,
    pub in_scene: bool,
    /// The state block being recorded (`BeginStateBlock`).
    pub recording: Option<Block>,
    pub clip_status: D3DCLIPSTATUS9,
    pub npatch: f32,
    /// `SetSoftwareVertexProcessing` on a mixed device.
    pub software: bool,
    pub texture_palette: u32,
    pub gamma: D3DGAMMARAMP,
    /// What `GetFrontBufferData` reads: the back buffer's texels at the last `Present`.
    pub front_buffer: Option<Vec<u8>>,
    /// A `Reset` failed: the device is lost until one succeeds (`reset`).
    pub lost: bool,
    /// `SetPaletteEntries`' palettes, by number.
    pub palettes: HashMap<u32, [PALETTEENTRY; 256]>,
    pub cursor: Cursor,
}

/// The cursor `SetCursorProperties` and `ShowCursor` keep (a headless device draws none).
#[derive(Clone, Copy, Debug, Default)]
pub struct Cursor {
    /// `SetCursorProperties` set one.
    pub set: bool,
    pub visible: bool,
}

// SAFETY: the C caller's threads reach the device through its COM objects; every access to
// `DeviceInner` holds `Shared`'s lock, and the COM pointers it keeps (`Private`) are counted
// atomically and freed only once no reference of either kind is left.
unsafe impl Send for DeviceInner {}

impl Class for Device9 {
    const KIND: Kind = Kind::Device;
    fn interfaces(&self) -> &'static [Guid] {
        &[IID_IDIRECT3DDEVICE9]
    }

    fn destroy(&mut self) {
        let deferred = {
            let mut inner = self.shared.lock();
            let mut deferred = inner.deferred.take();
            inner.bound.release(&mut deferred);
            deferred.push_opt(inner.swap_chain.take());
            std::mem::take(&mut inner.implicit.back_buffers)
                .into_iter()
                .for_each(|b| deferred.push(b));
            for (_, chain) in std::mem::take(&mut inner.additional) {
                chain.release(&mut deferred);
            }
            deferred.push_opt(inner.auto_depth_stencil.take());
            for (_, declaration) in std::mem::take(&mut inner.fvf_declarations) {
                deferred.push(declaration);
            }
            if let Some(mut block) = inner.recording.take() {
                block.clear(&mut deferred);
            }
            let _ = inner.device.flush();
            deferred
        };
        deferred.run();
        // SAFETY: the reference taken in `create`.
        unsafe { Com::release(self.d3d) };
    }
}

/// `Release` of a device reference held by one of its children.
///
/// # Safety
/// `device` is live and the caller gives up a public reference on it.
pub unsafe fn release_device(device: *mut Com<Device9>) {
    // SAFETY: per the caller.
    unsafe { Com::release(device) };
}

type This = *mut Com<Device9>;

/// Runs a device method: `this` checked, the state locked, refusals reported; while the
/// device is lost, what `reset::while_lost` says instead for the methods it names.
fn with(this: This, call: &str, f: impl FnOnce(&mut DeviceInner) -> CallResult) -> HRESULT {
    entry(call, || {
        // SAFETY: C calls through our vtable; `this` is checked live.
        let device = unsafe { crate::com::this(this)? };
        device.data.shared.with(|inner| {
            if inner.lost {
                if let Some(answer) = reset::while_lost(call) {
                    return answer;
                }
            }
            f(inner)
        })
    })
}

/// Runs a device method that returns a value (not an HRESULT).
fn with_value<V>(
    this: This,
    call: &str,
    fallback: V,
    f: impl FnOnce(&mut DeviceInner) -> CallResult<V>,
) -> V {
    entry_value(call, fallback, || {
        // SAFETY: checked live.
        let device = unsafe { crate::com::this(this)? };
        device.data.shared.with(f)
    })
}

/// Runs a device method that needs the device object itself (to make children).
fn with_device(this: This, call: &str, f: impl FnOnce(&Com<Device9>) -> CallResult) -> HRESULT {
    entry(call, || {
        // SAFETY: checked live.
        let device = unsafe { crate::com::this(this)? };
        f(device)
    })
}

unsafe extern "C" fn query_interface(
    this: This,
    riid: *const Guid,
    out: *mut *mut c_void,
) -> HRESULT {
    // SAFETY: C calls through our vtable; `this` is checked live.
    match unsafe { crate::com::this(this) } {
        Ok(device) => unsafe { device.query_interface(riid, out) },
        Err(r) => r.hr,
    }
}

unsafe extern "C" fn add_ref(this: This) -> u32 {
    entry_value("IDirect3DDevice9::AddRef", 0, || {
        // SAFETY: checked live.
        Ok(unsafe { crate::com::this(this)? }.add_ref())
    })
}

unsafe extern "C" fn release(this: This) -> u32 {
    entry_value("IDirect3DDevice9::Release", 0, || {
        // SAFETY: checked live; the caller gives up a reference.
        let device = unsafe { crate::com::this(this)? };
        Ok(unsafe { Com::release(device) })
    })
}

pub(crate) static VTBL: crate::vtbl::IDirect3DDevice9Vtbl<Com<Device9>> =
    crate::vtbl::IDirect3DDevice9Vtbl {
        QueryInterface: query_interface,
        AddRef: add_ref,
        Release: release,
        TestCooperativeLevel: object::test_cooperative_level,
        GetAvailableTextureMem: object::get_available_texture_mem,
        EvictManagedResources: object::evict_managed_resources,
        GetDirect3D: object::get_direct3d,
        GetDeviceCaps: object::get_device_caps,
        GetDisplayMode: object::get_display_mode,
        GetCreationParameters: object::get_creation_parameters,
        SetCursorProperties: object::set_cursor_properties,
        SetCursorPosition: object::set_cursor_position,
        ShowCursor: object::show_cursor,
        CreateAdditionalSwapChain: object::create_additional_swap_chain,
        GetSwapChain: object::get_swap_chain,
        GetNumberOfSwapChains: object::get_number_of_swap_chains,
        Reset: reset::reset,
        Present: object::present,
        GetBackBuffer: object::get_back_buffer,
        GetRasterStatus: object::get_raster_status,
        SetDialogBoxMode: object::set_dialog_box_mode,
        SetGammaRamp: object::set_gamma_ramp,
        GetGammaRamp: object::get_gamma_ramp,
        CreateTexture: resources::create_texture,
        CreateVolumeTexture: resources::create_volume_texture,
        CreateCubeTexture: resources::create_cube_texture,
        CreateVertexBuffer: resources::create_vertex_buffer,
        CreateIndexBuffer: resources::create_index_buffer,
        CreateRenderTarget: resources::create_render_target,
        CreateDepthStencilSurface: resources::create_depth_stencil_surface,
        UpdateSurface: resources::update_surface,
        UpdateTexture: resources::update_texture,
        GetRenderTargetData: resources::get_render_target_data,
        GetFrontBufferData: resources::get_front_buffer_data,
        StretchRect: resources::stretch_rect,
        ColorFill: resources::color_fill,
        CreateOffscreenPlainSurface: resources::create_offscreen_plain_surface,
        SetRenderTarget: resources::set_render_target,
        GetRenderTarget: resources::get_render_target,
        SetDepthStencilSurface: resources::set_depth_stencil_surface,
        GetDepthStencilSurface: resources::get_depth_stencil_surface,
        BeginScene: draw::begin_scene,
        EndScene: draw::end_scene,
        Clear: draw::clear,
        SetTransform: states::set_transform,
        GetTransform: states::get_transform,
        MultiplyTransform: states::multiply_transform,
        SetViewport: states::set_viewport,
        GetViewport: states::get_viewport,
        SetMaterial: states::set_material,
        GetMaterial: states::get_material,
        SetLight: states::set_light,
        GetLight: states::get_light,
        LightEnable: states::light_enable,
        GetLightEnable: states::get_light_enable,
        SetClipPlane: states::set_clip_plane,
        GetClipPlane: states::get_clip_plane,
        SetRenderState: states::set_render_state,
        GetRenderState: states::get_render_state,
        CreateStateBlock: states::create_state_block,
        BeginStateBlock: states::begin_state_block,
        EndStateBlock: states::end_state_block,
        SetClipStatus: states::set_clip_status,
        GetClipStatus: states::get_clip_status,
        GetTexture: states::get_texture,
        SetTexture: states::set_texture,
        GetTextureStageState: states::get_texture_stage_state,
        SetTextureStageState: states::set_texture_stage_state,
        GetSamplerState: states::get_sampler_state,
        SetSamplerState: states::set_sampler_state,
        ValidateDevice: draw::validate_device,
        SetPaletteEntries: states::set_palette_entries,
        GetPaletteEntries: states::get_palette_entries,
        SetCurrentTexturePalette: states::set_current_texture_palette,
        GetCurrentTexturePalette: states::get_current_texture_palette,
        SetScissorRect: states::set_scissor_rect,
        GetScissorRect: states::get_scissor_rect,
        SetSoftwareVertexProcessing: states::set_software_vertex_processing,
        GetSoftwareVertexProcessing: states::get_software_vertex_processing,
        SetNPatchMode: states::set_npatch_mode,
        GetNPatchMode: states::get_npatch_mode,
        DrawPrimitive: draw::draw_primitive,
        DrawIndexedPrimitive: draw::draw_indexed_primitive,
        DrawPrimitiveUP: draw::draw_primitive_up,
        DrawIndexedPrimitiveUP: draw::draw_indexed_primitive_up,
        ProcessVertices: draw::process_vertices,
        CreateVertexDeclaration: shaders::create_vertex_declaration,
        SetVertexDeclaration: shaders::set_vertex_declaration,
        GetVertexDeclaration: shaders::get_vertex_declaration,
        SetFVF: shaders::set_fvf,
        GetFVF: shaders::get_fvf,
        CreateVertexShader: shaders::create_vertex_shader,
        SetVertexShader: shaders::set_vertex_shader,
        GetVertexShader: shaders::get_vertex_shader,
        SetVertexShaderConstantF: shaders::set_vertex_shader_constant_f,
        GetVertexShaderConstantF: shaders::get_vertex_shader_constant_f,
        SetVertexShaderConstantI: shaders::set_vertex_shader_constant_i,
        GetVertexShaderConstantI: shaders::get_vertex_shader_constant_i,
        SetVertexShaderConstantB: shaders::set_vertex_shader_constant_b,
        GetVertexShaderConstantB: shaders::get_vertex_shader_constant_b,
        SetStreamSource: draw::set_stream_source,
        GetStreamSource: draw::get_stream_source,
        SetStreamSourceFreq: draw::set_stream_source_freq,
        GetStreamSourceFreq: draw::get_stream_source_freq,
        SetIndices: draw::set_indices,
        GetIndices: draw::get_indices,
        CreatePixelShader: shaders::create_pixel_shader,
        SetPixelShader: shaders::set_pixel_shader,
        GetPixelShader: shaders::get_pixel_shader,
        SetPixelShaderConstantF: shaders::set_pixel_shader_constant_f,
        GetPixelShaderConstantF: shaders::get_pixel_shader_constant_f,
        SetPixelShaderConstantI: shaders::set_pixel_shader_constant_i,
        GetPixelShaderConstantI: shaders::get_pixel_shader_constant_i,
        SetPixelShaderConstantB: shaders::set_pixel_shader_constant_b,
        GetPixelShaderConstantB: shaders::get_pixel_shader_constant_b,
        DrawRectPatch: draw::draw_rect_patch,
        DrawTriPatch: draw::draw_tri_patch,
        DeletePatch: draw::delete_patch,
        CreateQuery: object::create_query,
    };
