//! Creating the device (`IDirect3D9::CreateDevice`) with its implicit swap chain, back buffer
//! and automatic depth-stencil surface; additional swap chains; presenting; the cursor;
//! queries; the device-wide methods. (`Reset` is in `reset`.)

use std::collections::HashMap;
use std::ffi::c_void;

use d3d9_backend::device::{Device, DeviceParams, Format, MultiSample, PresentParams};
use d3d9_translator::decl::VertexProcessing;

use super::child::child_at;
use super::{with, with_device, with_value, Cursor, Device9, DeviceInner, This, VTBL};
use crate::adapter::Direct3D9;
use crate::com::{write_out, Com, Deferred, Private};
use crate::device::child::query::Query9;
use crate::device::child::state::Bound;
use crate::device::child::surface::Container;
use crate::device::child::surface::Surface9;
use crate::device::child::swapchain::{implicit_surface, present_chain, Chain, SwapChain9};
use crate::device::child::Shared;
use crate::hresult::{
    fail, invalid_call, CallResult, Refusal, D3DERR_DEVICENOTRESET, D3DERR_NOTAVAILABLE, HRESULT,
};
use crate::native_window;
use crate::types::*;

/// `D3DCREATE_SOFTWARE_VERTEXPROCESSING`, `_HARDWARE_`, `_MIXED_`.
const SOFTWARE: u32 = 0x20;
const HARDWARE: u32 = 0x40;
const MIXED: u32 = 0x80;

/// What D3D9 refuses in present parameters before it looks at anything else (DXVK's
/// `ValidatePresentationParameters`): a swap effect out of range, more than 3 back buffers.
/// `Reset` refused for these keeps the device as it was.
pub(super) fn check_present_parameters(p: &D3DPRESENT_PARAMETERS) -> CallResult {
    if p.SwapEffect == 0 || p.SwapEffect > 5 {
        return Err(invalid_call(format!("D3DSWAPEFFECT {}", { p.SwapEffect })));
    }
    if p.BackBufferCount > 3 {
        return Err(invalid_call(format!("{} back buffers (D3D9 allows 3)", {
            p.BackBufferCount
        })));
    }
    Ok(())
}

/// `D3DSWAPEFFECT_DISCARD`.
const SWAPEFFECT_DISCARD: u32 = 1;

/// The present parameters D3D9 fills in for a windowed, headless swap chain: a size of 0
/// is 640 x 480 (the window is not real), `D3DFMT_UNKNOWN` is the display format, a count of
/// 0 is 1.
fn complete_present_parameters(p: &mut D3DPRESENT_PARAMETERS) -> CallResult<(u32, u32, Format)> {
    check_present_parameters(p)?;
    if p.Windowed == 0 && (p.BackBufferWidth == 0 || p.BackBufferHeight == 0) {
        return Err(invalid_call("a full-screen back buffer of size 0"));
    }
    if p.BackBufferWidth == 0 {
        p.BackBufferWidth = 640;
    }
    if p.BackBufferHeight == 0 {
        p.BackBufferHeight = 480;
    }
    if p.BackBufferFormat == 0 {
        p.BackBufferFormat = 22;
    }
    if p.BackBufferCount == 0 {
        p.BackBufferCount = 1;
    }
    let format = Format::from_d3d(p.BackBufferFormat)
        .filter(|_| crate::adapter::back_buffer_format(p.BackBufferFormat, p.Windowed != 0))
        .ok_or_else(|| {
            fail(
                D3DERR_NOTAVAILABLE,
                format!("back-buffer format {}", { p.BackBufferFormat }),
            )
        })?;
    if p.MultiSampleType != 0 && (p.SwapEffect != SWAPEFFECT_DISCARD || p.Flags & 1 != 0) {
        // D3D9 multisamples only discarded, unlocked back buffers (D3DERR_INVALIDCALL, as
        // the SDK documents for D3DPRESENT_PARAMETERS and DXVK answers).
        return Err(invalid_call(
            "a multisampled back buffer that is not D3DSWAPEFFECT_DISCARD or is lockable",
        ));
    }
    Ok((p.BackBufferWidth, p.BackBufferHeight, format))
}

/// The swap chain `p` describes, `p` completed as D3D9 completes it (see
/// [`complete_present_parameters`]); the automatic depth-stencil format must be a depth
/// format when `EnableAutoDepthStencil` is set.
pub(super) fn present_params(p: &mut D3DPRESENT_PARAMETERS) -> CallResult<PresentParams> {
    let back_buffer = complete_present_parameters(p)?;
    let auto_depth_stencil = if p.EnableAutoDepthStencil != 0 {
        Some(
            Format::from_d3d(p.AutoDepthStencilFormat)
                .filter(|f| f.is_depth())
                .ok_or_else(|| {
                    invalid_call(format!("AutoDepthStencilFormat {}", {
                        p.AutoDepthStencilFormat
                    }))
                })?,
        )
    } else {
        None
    };
    Ok(PresentParams {
        back_buffer,
        back_buffer_count: p.BackBufferCount,
        // D3DPRESENTFLAG_LOCKABLE_BACKBUFFER.
        lockable_back_buffer: p.Flags & 1 != 0,
        auto_depth_stencil,
        multisample: MultiSample {
            kind: p.MultiSampleType,
            quality: p.MultiSampleQuality,
        },
    })
}

/// The present parameters a swap chain reports (`GetPresentParameters`): `p` with the
/// device's window where it names none (Wine's test_swapchain and test_reset).
pub(super) fn reported(mut p: D3DPRESENT_PARAMETERS, focus: *mut c_void) -> D3DPRESENT_PARAMETERS {
    if p.hDeviceWindow.is_null() {
        p.hDeviceWindow = focus;
    }
    p
}

/// `IDirect3D9::CreateDevice`: a device with one reference, its `D3DPRESENT_PARAMETERS`
/// completed as D3D9 completes them.
pub fn create(
    d3d: &Com<Direct3D9>,
    focus: *mut c_void,
    flags: u32,
    present: &mut D3DPRESENT_PARAMETERS,
) -> CallResult<*mut c_void> {
    let processing = match flags & (SOFTWARE | HARDWARE | MIXED) {
        SOFTWARE => VertexProcessing::Software,
        HARDWARE => VertexProcessing::Hardware,
        MIXED => VertexProcessing::Mixed,
        other => return Err(invalid_call(format!("vertex processing flags {other:#x}"))),
    };
    // A windowed device needs no window (Wine's test_desktop_window creates one with NULL
    // focus and device windows and expects success, as on Windows); a full-screen one does.
    if focus.is_null() && present.hDeviceWindow.is_null() && present.Windowed == 0 {
        return Err(invalid_call("a full-screen device without a window"));
    }
    // A window registered through d3d9_native.h: presented into; any other is headless.
    let window = native_window::complete_for_window(present, focus);
    let chain = present_params(present)?;
    // The adapter must exist before a device is made on it.
    d3d.data.gpu()?;
    let params = DeviceParams {
        processing,
        back_buffer: chain.back_buffer,
        back_buffer_count: chain.back_buffer_count,
        lockable_back_buffer: chain.lockable_back_buffer,
        auto_depth_stencil: chain.auto_depth_stencil,
        multisample: chain.multisample,
        ..DeviceParams::default()
    };
    let device = match &window {
        None => Device::new(params).map_err(Refusal::from)?,
        Some(window) => {
            let interval = native_window::interval(present.PresentationInterval)?;
            native_window::windowed_device(params, window, interval)?
        }
    };
    let back_buffer_ids = device.back_buffers().to_vec();
    let depth_id = device.depth_stencil_surface();
    let inner = DeviceInner {
        device,
        bound: Bound::default(),
        deferred: Deferred::default(),
        creation: D3DDEVICE_CREATION_PARAMETERS {
            AdapterOrdinal: 0,
            DeviceType: 1,
            hFocusWindow: focus,
            BehaviorFlags: flags,
        },
        implicit: Chain {
            back_buffers: Vec::new(),
            present: reported(*present, focus),
        },
        additional: HashMap::new(),
        swap_chain: None,
        auto_depth_stencil: None,
        fvf_declarations: HashMap::new(),
        in_scene: false,
        recording: None,
        clip_status: D3DCLIPSTATUS9::default(),
        npatch: 0.0,
        software: processing == VertexProcessing::Software,
        texture_palette: 0,
        gamma: identity_gamma(),
        front_buffer: None,
        lost: false,
        palettes: HashMap::new(),
        cursor: Cursor::default(),
    };
    d3d.add_ref();
    let device = Com::new(
        &VTBL as *const _ as *const c_void,
        Device9 {
            d3d: d3d as *const Com<Direct3D9> as *mut Com<Direct3D9>,
            shared: Shared::new(inner),
        },
        true,
    );
    // SAFETY: just made, one public reference held here until returned.
    let device_ref = unsafe { &*device };
    let back_buffers: Vec<_> = back_buffer_ids
        .into_iter()
        .map(|id| Surface9::implicit(device_ref, id))
        .collect();
    let back_buffer = back_buffers[0].share();
    let swap_chain = SwapChain9::implicit(device_ref);
    let depth = depth_id.map(|id| Surface9::implicit(device_ref, id));
    {
        let mut inner = device_ref.data.shared.lock();
        inner.implicit.back_buffers = back_buffers;
        inner.bound.render_targets[0] = Some(back_buffer);
        inner.bound.depth_stencil = depth.as_ref().map(Private::share);
        inner.auto_depth_stencil = depth;
        inner.swap_chain = Some(swap_chain);
    }
    Ok(device as *mut c_void)
}

/// A linear gamma ramp (the default).
fn identity_gamma() -> D3DGAMMARAMP {
    let ramp: [u16; 256] = std::array::from_fn(|i| (i as u16) * 257);
    D3DGAMMARAMP {
        red: ramp,
        green: ramp,
        blue: ramp,
    }
}

/// `TestCooperativeLevel`: `D3DERR_DEVICENOTRESET` after a failed `Reset` until one
/// succeeds (Wine's test_reset on Windows); a headless device never loses its focus.
pub(super) unsafe extern "C" fn test_cooperative_level(this: This) -> HRESULT {
    with(this, "TestCooperativeLevel", |inner| {
        if inner.lost {
            return Err(fail(
                D3DERR_DEVICENOTRESET,
                "a Reset failed; the device needs one",
            ));
        }
        Ok(())
    })
}

pub(super) unsafe extern "C" fn get_available_texture_mem(this: This) -> u32 {
    // What the adapter offers is not known through wgpu: a fixed 512 MiB, rounded to MiB as
    // D3D9 reports it.
    with_value(this, "GetAvailableTextureMem", 0, |_| Ok(512 << 20))
}

pub(super) unsafe extern "C" fn evict_managed_resources(this: This) -> HRESULT {
    with(this, "EvictManagedResources", |inner| {
        inner.device.evict_managed_resources();
        Ok(())
    })
}

pub(super) unsafe extern "C" fn get_direct3d(this: This, out: *mut *mut c_void) -> HRESULT {
    with_device(this, "GetDirect3D", |device| {
        // SAFETY: the device holds a reference on its IDirect3D9.
        let d3d = unsafe { &*device.data.d3d };
        // SAFETY: per the caller.
        unsafe { write_out(out, std::ptr::null_mut())? };
        d3d.add_ref();
        // SAFETY: checked writable above.
        unsafe { write_out(out, d3d.as_ptr()) }
    })
}

pub(super) unsafe extern "C" fn get_device_caps(this: This, caps: *mut D3DCAPS9) -> HRESULT {
    with(this, "GetDeviceCaps", |inner| {
        let value = crate::caps::device_caps(inner.device.gpu(), &inner.device.params().caps);
        // SAFETY: per the caller.
        unsafe { write_out(caps, value) }
    })
}

pub(super) unsafe extern "C" fn get_display_mode(
    this: This,
    swap_chain: u32,
    mode: *mut D3DDISPLAYMODE,
) -> HRESULT {
    with(this, "GetDisplayMode", |_| {
        if swap_chain != 0 {
            return Err(invalid_call(format!("swap chain {swap_chain}")));
        }
        // SAFETY: per the caller.
        unsafe { write_out(mode, crate::adapter::DISPLAY_MODE) }
    })
}

pub(super) unsafe extern "C" fn get_creation_parameters(
    this: This,
    params: *mut D3DDEVICE_CREATION_PARAMETERS,
) -> HRESULT {
    with(this, "GetCreationParameters", |inner| {
        // SAFETY: per the caller.
        unsafe { write_out(params, inner.creation) }
    })
}

/// `SetCursorProperties`: an A8R8G8B8 surface whose sides are powers of two no larger than
/// the display mode (Wine's test_cursor on Windows; DXVK checks the same), the hot spot
/// inside it. A headless device draws no cursor, but `ShowCursor` then shows one.
pub(super) unsafe extern "C" fn set_cursor_properties(
    this: This,
    x: u32,
    y: u32,
    bitmap: *mut c_void,
) -> HRESULT {
    with_device(this, "SetCursorProperties", |device| {
        let shared = &device.data.shared;
        let surface = child_at::<Surface9>(shared, bitmap)?
            .ok_or_else(|| invalid_call("a NULL cursor surface"))?
            .data
            .id;
        shared.with(|inner| {
            let (width, height, format) = inner
                .device
                .surface_desc(surface)
                .ok_or_else(|| invalid_call("the cursor surface was released"))?;
            let mode = crate::adapter::DISPLAY_MODE;
            if format != Format::A8R8G8B8
                || !width.is_power_of_two()
                || !height.is_power_of_two()
                || width > mode.Width
                || height > mode.Height
                || x >= width
                || y >= height
            {
                return Err(invalid_call(format!(
                    "a {width} x {height} {format:?} cursor with its hot spot at ({x}, {y})"
                )));
            }
            inner.cursor.set = true;
            Ok(())
        })
    })
}

pub(super) unsafe extern "C" fn set_cursor_position(this: This, _x: i32, _y: i32, _flags: u32) {
    with(this, "SetCursorPosition", |_| Ok(()));
}

/// `ShowCursor(show)`: the previous visibility. The cursor starts hidden and stays hidden
/// until `SetCursorProperties` set one (Wine's test_cursor on Windows; wined3d and DXVK
/// keep the same flag).
pub(super) unsafe extern "C" fn show_cursor(this: This, show: i32) -> i32 {
    with_value(this, "ShowCursor", 0, |inner| {
        let before = inner.cursor.visible;
        if inner.cursor.set {
            inner.cursor.visible = show != 0;
        }
        Ok(i32::from(before))
    })
}

/// `CreateAdditionalSwapChain`: a swap chain with back buffers of its own and no
/// depth-stencil surface, presenting into its `hDeviceWindow` (else the focus window) where
/// that is a registered native window (one no other chain of the device presents into),
/// headless otherwise; `params` is completed as for
/// `CreateDevice` and written back. Refused for a full-screen chain, and on a full-screen
/// device (Wine's test_swapchain on Windows).
pub(super) unsafe extern "C" fn create_additional_swap_chain(
    this: This,
    params: *mut D3DPRESENT_PARAMETERS,
    out: *mut *mut c_void,
) -> HRESULT {
    with_device(this, "CreateAdditionalSwapChain", |device| {
        // SAFETY: per the caller.
        unsafe { write_out(out, std::ptr::null_mut())? };
        // SAFETY: per the caller.
        let mut present = unsafe { crate::com::read_in(params)? };
        let id = device.data.shared.with(|inner| {
            if present.Windowed == 0 {
                return Err(invalid_call("a full-screen additional swap chain"));
            }
            if inner.implicit.present.Windowed == 0 {
                return Err(invalid_call(
                    "an additional swap chain on a full-screen device",
                ));
            }
            // A registered window presents into; any other is headless.
            let focus = inner.creation.hFocusWindow;
            let window = native_window::complete_for_window(&mut present, focus);
            let interval = match &window {
                Some(_) => Some(native_window::interval(present.PresentationInterval)?),
                None => None,
            };
            let mut chain = present_params(&mut present)?;
            chain.auto_depth_stencil = None;
            let hwnd = reported(present, focus).hDeviceWindow;
            if window.is_some() && inner.presents_into(hwnd) {
                // One wgpu surface per window: a second chain cannot present into it.
                return Err(fail(
                    D3DERR_NOTAVAILABLE,
                    "a second swap chain presenting into a window another one presents into \
                     (not done: one surface per window)",
                ));
            }
            let id = inner
                .device
                .create_swap_chain(chain)
                .map_err(Refusal::from)?;
            if let (Some(window), Some(interval)) = (&window, interval) {
                let attached = native_window::attach(&mut inner.device, id, window, interval);
                if let Err(refusal) = attached {
                    let _ = inner.device.release_swap_chain(id);
                    return Err(refusal);
                }
            }
            let back_buffers = inner
                .device
                .swap_chain_back_buffers(id)
                .unwrap_or_default()
                .iter()
                .map(|&surface| implicit_surface(device, surface, Container::SwapChain))
                .collect();
            let reported = reported(present, inner.creation.hFocusWindow);
            inner.additional.insert(
                id,
                Chain {
                    back_buffers,
                    present: reported,
                },
            );
            Ok(id)
        })?;
        let chain = SwapChain9::additional(device, id);
        // SAFETY: `params` was readable and is the caller's to fill; `out` checked writable.
        unsafe {
            params.write_unaligned(present);
            write_out(out, chain as *mut c_void)
        }
    })
}

pub(super) unsafe extern "C" fn get_swap_chain(
    this: This,
    index: u32,
    out: *mut *mut c_void,
) -> HRESULT {
    with(this, "GetSwapChain", |inner| {
        // SAFETY: per the caller.
        unsafe { write_out(out, std::ptr::null_mut())? };
        let swap_chain = inner
            .swap_chain
            .as_ref()
            .filter(|_| index == 0)
            .ok_or_else(|| invalid_call(format!("swap chain {index}")))?;
        swap_chain.get().add_ref();
        // SAFETY: checked writable.
        unsafe { write_out(out, swap_chain.get().as_ptr()) }
    })
}

/// `GetNumberOfSwapChains`: the implicit chain only, as `GetSwapChain` (Wine's
/// test_swapchain: `GetSwapChain(1)` fails with additional chains made; DXVK counts 1).
pub(super) unsafe extern "C" fn get_number_of_swap_chains(this: This) -> u32 {
    with_value(this, "GetNumberOfSwapChains", 0, |_| Ok(1))
}

/// `Present(source, dest, override, dirty)`: see [`present_chain`].
pub(super) unsafe extern "C" fn present(
    this: This,
    src: *const RECT,
    dst: *const RECT,
    _window: *mut c_void,
    _dirty: *const c_void,
) -> HRESULT {
    // SAFETY: per the caller, each rectangle is NULL or readable.
    let rects = unsafe {
        crate::device::child::lock::opt_rect(src)
            .and_then(|s| Ok((s, crate::device::child::lock::opt_rect(dst)?)))
    };
    with(this, "Present", |inner| present_chain(inner, None, rects?))
}

pub(super) unsafe extern "C" fn get_back_buffer(
    this: This,
    swap_chain: u32,
    index: u32,
    kind: u32,
    out: *mut *mut c_void,
) -> HRESULT {
    with(this, "GetBackBuffer", |inner| {
        // SAFETY: per the caller.
        unsafe { write_out(out, std::ptr::null_mut())? };
        if swap_chain != 0 {
            return Err(invalid_call(format!("swap chain {swap_chain}")));
        }
        let surface = inner.implicit.back_buffer(index, kind)?;
        surface.add_ref();
        // SAFETY: checked writable.
        unsafe { write_out(out, surface.as_ptr()) }
    })
}

pub(super) unsafe extern "C" fn get_raster_status(
    this: This,
    swap_chain: u32,
    status: *mut D3DRASTER_STATUS,
) -> HRESULT {
    with(this, "GetRasterStatus", |inner| {
        if swap_chain != 0 {
            return Err(invalid_call(format!("swap chain {swap_chain}")));
        }
        let value = SwapChain9::raster_status(inner, None)?;
        // SAFETY: per the caller.
        unsafe { write_out(status, value) }
    })
}

pub(super) unsafe extern "C" fn set_dialog_box_mode(this: This, _enable: i32) -> HRESULT {
    with(this, "SetDialogBoxMode", |_| Ok(()))
}

pub(super) unsafe extern "C" fn set_gamma_ramp(
    this: This,
    swap_chain: u32,
    _flags: u32,
    ramp: *const D3DGAMMARAMP,
) {
    with(this, "SetGammaRamp", |inner| {
        if swap_chain == 0 && !ramp.is_null() {
            // SAFETY: non-null, per the caller readable.
            inner.gamma = unsafe { ramp.read_unaligned() };
        }
        Ok(())
    });
}

pub(super) unsafe extern "C" fn get_gamma_ramp(
    this: This,
    swap_chain: u32,
    ramp: *mut D3DGAMMARAMP,
) {
    with(this, "GetGammaRamp", |inner| {
        if swap_chain == 0 && !ramp.is_null() {
            // SAFETY: non-null, per the caller writable.
            unsafe { ramp.write_unaligned(inner.gamma) };
        }
        Ok(())
    });
}

pub(super) unsafe extern "C" fn create_query(
    this: This,
    kind: u32,
    out: *mut *mut c_void,
) -> HRESULT {
    with_device(this, "CreateQuery", |device| {
        let query = Query9::create(device, kind, out.is_null())?;
        if let Some(query) = query {
            // SAFETY: non-null (a query is made only then), per the caller writable.
            unsafe { write_out(out, query)? };
        }
        Ok(())
    })
}

impl DeviceInner {
    /// Whether a chain of the device presents into registered window `hwnd`.
    fn presents_into(&self, hwnd: *mut c_void) -> bool {
        native_window::lookup(hwnd).is_some()
            && std::iter::once(&self.implicit)
                .chain(self.additional.values())
                .any(|c| c.present.hDeviceWindow == hwnd)
    }
}

impl Device9 {
    /// The implicit swap chain's back buffer (for the device's own use).
    pub fn back_buffer(inner: &DeviceInner) -> Option<&Com<Surface9>> {
        inner.implicit.back_buffer(0, 0).ok()
    }
}
