//! `IDirect3DSwapChain9`: the implicit swap chain of a headless device (`GetSwapChain(0)`)
//! and additional ones (`CreateAdditionalSwapChain`), each with back buffers of its own;
//! `Present` makes the back buffer the chain's front buffer, which `GetFrontBufferData`
//! reads.
//!
//! What a chain holds (its back buffers and present parameters) lives with the device's
//! state, behind its lock ([`Chain`] in `DeviceInner`), so `Reset` can replace the implicit
//! chain's back buffers while the application keeps the same `IDirect3DSwapChain9`, as
//! Windows does.

use std::ffi::c_void;

use d3d9_backend::device::{DeviceError, Rect, SwapChainId};

use super::lock::opt_rect;
use super::methods::unknown_methods;
use super::surface::{Container, Surface9};
use super::Child;
use crate::com::{entry, write_out, Class, Com, Kind, Private};
use crate::device::{Device9, DeviceInner};
use crate::guid::{Guid, IID_IDIRECT3DSWAPCHAIN9};
use crate::hresult::{fail, invalid_call, CallResult, Refusal, D3DERR_DEVICELOST, HRESULT};
use crate::native_window;
use crate::types::*;
use crate::vtbl::IDirect3DSwapChain9Vtbl;

/// The `IDirect3DSwapChain9` object.
pub struct SwapChain9 {
    pub child: Child,
    /// Which chain: the implicit one (`None`) or an additional one.
    pub chain: Option<SwapChainId>,
}

/// A swap chain's back buffers (each held by a private reference) and its present
/// parameters as `GetPresentParameters` reports them.
pub struct Chain {
    pub back_buffers: Vec<Private<Surface9>>,
    pub present: D3DPRESENT_PARAMETERS,
}

impl Chain {
    /// Back buffer `index`. The `D3DBACKBUFFER_TYPE` is ignored, as Windows ignores it
    /// (Wine's d3d9, after its tests).
    pub fn back_buffer(&self, index: u32, _kind: u32) -> CallResult<&Com<Surface9>> {
        self.back_buffers
            .get(index as usize)
            .map(Private::get)
            .ok_or_else(|| {
                invalid_call(format!(
                    "back buffer {index} of {}",
                    self.back_buffers.len()
                ))
            })
    }

    /// Gives up the back buffers (after the device is unlocked).
    pub fn release(self, deferred: &mut crate::com::Deferred) {
        for back_buffer in self.back_buffers {
            deferred.push(back_buffer);
        }
    }
}

impl Class for SwapChain9 {
    const KIND: Kind = Kind::SwapChain;
    fn interfaces(&self) -> &'static [Guid] {
        &[IID_IDIRECT3DSWAPCHAIN9]
    }
    fn public_changed(&self, alive: bool) {
        self.child.public_changed(alive);
    }
    /// An additional chain goes with its surfaces; the implicit chain's are the device's.
    fn destroy(&mut self) {
        if let Some(id) = self.chain {
            let _ = self.child.shared.with(|inner| {
                if let Some(chain) = inner.additional.remove(&id) {
                    chain.release(&mut inner.deferred);
                }
                inner.device.release_swap_chain(id).map_err(Refusal::from)
            });
        }
    }
}

impl super::DeviceChild for SwapChain9 {
    fn child(&self) -> &Child {
        &self.child
    }
}

impl SwapChain9 {
    /// The implicit swap chain, held by the device's private reference.
    pub fn implicit(device: &Com<Device9>) -> Private<SwapChain9> {
        let ptr = Com::new(
            &VTBL as *const _ as *const c_void,
            SwapChain9 {
                child: Child::new(device),
                chain: None,
            },
            false,
        );
        // SAFETY: made with a private reference, which this takes over.
        unsafe { Private::adopt(ptr) }
    }

    /// An additional swap chain, with the application's one reference.
    pub fn additional(device: &Com<Device9>, id: SwapChainId) -> *mut Com<SwapChain9> {
        Com::new(
            &VTBL as *const _ as *const c_void,
            SwapChain9 {
                child: Child::new(device),
                chain: Some(id),
            },
            true,
        )
    }

    /// `GetRasterStatus` of a chain: the raster of the display mode the device reports
    /// (see the backend's `Device::raster_status`).
    pub fn raster_status(
        inner: &DeviceInner,
        chain: Option<SwapChainId>,
    ) -> CallResult<D3DRASTER_STATUS> {
        let mode = crate::adapter::DISPLAY_MODE;
        let status = inner
            .device
            .raster_status(chain, mode.Height, mode.RefreshRate)
            .map_err(Refusal::from)?;
        Ok(D3DRASTER_STATUS {
            InVBlank: i32::from(status.in_vblank),
            ScanLine: status.scan_line,
        })
    }
}

/// A surface the device makes for itself (a swap chain's back buffer, the automatic
/// depth-stencil surface), held by the returned private reference and counted apart from
/// its container (Wine's test_refcount: it starts at 0 and holds a device reference while
/// counted). Unlike `Surface9::implicit`, made while the device is locked.
pub fn implicit_surface(
    device: &Com<Device9>,
    id: d3d9_backend::device::SurfaceId,
    container: Container,
) -> Private<Surface9> {
    let ptr = Surface9::created(device, id);
    // SAFETY: just made and not yet handed out: nothing else reads it.
    unsafe { (*ptr).data.container = container };
    // SAFETY: live, just made.
    let private = Private::new(unsafe { &*ptr });
    // The creation's public reference (and with it its device reference) goes: the private
    // one keeps the surface.
    // SAFETY: the reference `created` gave.
    unsafe { Com::release(ptr) };
    private
}

impl DeviceInner {
    /// The chain of a swap chain object.
    pub fn chain(&self, id: Option<SwapChainId>) -> CallResult<&Chain> {
        match id {
            None => Ok(&self.implicit),
            Some(id) => self
                .additional
                .get(&id)
                .ok_or_else(|| invalid_call("the swap chain was released")),
        }
    }
}

type This = *mut Com<SwapChain9>;

unknown_methods!(SwapChain9, "IDirect3DSwapChain9");

/// Runs a swap chain method with the device locked.
fn with_chain<R>(
    this: This,
    f: impl FnOnce(&mut DeviceInner, Option<SwapChainId>) -> CallResult<R>,
) -> CallResult<R> {
    // SAFETY: C calls through our vtable; `this` is checked live.
    let object = unsafe { crate::com::this(this)? };
    let chain = object.data.chain;
    object.data.child.shared.with(|inner| f(inner, chain))
}

unsafe extern "C" fn present(
    this: This,
    src: *const RECT,
    dst: *const RECT,
    _window: *mut c_void,
    _dirty: *const c_void,
    _flags: u32,
) -> HRESULT {
    entry("IDirect3DSwapChain9::Present", || {
        // SAFETY: per the caller, each rectangle is NULL or readable.
        let rects = unsafe { (opt_rect(src)?, opt_rect(dst)?) };
        with_chain(this, |inner, chain| present_chain(inner, chain, rects))
    })
}

unsafe extern "C" fn get_front_buffer_data(this: This, dst: *mut c_void) -> HRESULT {
    entry("IDirect3DSwapChain9::GetFrontBufferData", || {
        // SAFETY: checked live.
        let object = unsafe { crate::com::this(this)? };
        let shared = &object.data.child.shared;
        let dst = super::child_at::<Surface9>(shared, dst)?
            .ok_or_else(|| invalid_call("a NULL destination surface"))?
            .data
            .id;
        with_chain(this, |inner, chain| {
            if inner.lost {
                return Err(fail(D3DERR_DEVICELOST, "the device is lost until a Reset"));
            }
            inner
                .device
                .copy_front_buffer_data(chain, dst)
                .map_err(Refusal::from)
        })
    })
}

unsafe extern "C" fn get_back_buffer(
    this: This,
    index: u32,
    kind: u32,
    out: *mut *mut c_void,
) -> HRESULT {
    entry("IDirect3DSwapChain9::GetBackBuffer", || {
        if out.is_null() {
            return Err(invalid_call("a NULL out pointer"));
        }
        // A refused call leaves `*out` untouched (Wine's test_swapchain, passing on Windows).
        let surface = with_chain(this, |inner, chain| {
            let surface = inner.chain(chain)?.back_buffer(index, kind)?;
            surface.add_ref();
            Ok(surface.as_ptr())
        })?;
        // SAFETY: checked non-null; writable per the caller.
        unsafe { write_out(out, surface) }
    })
}

unsafe extern "C" fn get_raster_status(this: This, status: *mut D3DRASTER_STATUS) -> HRESULT {
    entry("IDirect3DSwapChain9::GetRasterStatus", || {
        let value = with_chain(this, |inner, chain| SwapChain9::raster_status(inner, chain))?;
        // SAFETY: `status` per the caller.
        unsafe { write_out(status, value) }
    })
}

unsafe extern "C" fn get_display_mode(this: This, mode: *mut D3DDISPLAYMODE) -> HRESULT {
    entry("IDirect3DSwapChain9::GetDisplayMode", || {
        // SAFETY: checked live; `mode` per the caller.
        unsafe { crate::com::this(this)? };
        unsafe { write_out(mode, crate::adapter::DISPLAY_MODE) }
    })
}

unsafe extern "C" fn get_device(this: This, out: *mut *mut c_void) -> HRESULT {
    entry("IDirect3DSwapChain9::GetDevice", || {
        // SAFETY: checked live; `out` per the caller.
        let object = unsafe { crate::com::this(this)? };
        unsafe { object.data.child.get_device(out) }
    })
}

unsafe extern "C" fn get_present_parameters(
    this: This,
    params: *mut D3DPRESENT_PARAMETERS,
) -> HRESULT {
    entry("IDirect3DSwapChain9::GetPresentParameters", || {
        let present = with_chain(this, |inner, chain| Ok(inner.chain(chain)?.present))?;
        // SAFETY: `params` per the caller.
        unsafe { write_out(params, present) }
    })
}

static VTBL: IDirect3DSwapChain9Vtbl<Com<SwapChain9>> = IDirect3DSwapChain9Vtbl {
    QueryInterface: query_interface,
    AddRef: add_ref,
    Release: release,
    Present: present,
    GetFrontBufferData: get_front_buffer_data,
    GetBackBuffer: get_back_buffer,
    GetRasterStatus: get_raster_status,
    GetDisplayMode: get_display_mode,
    GetDevice: get_device,
    GetPresentParameters: get_present_parameters,
};

/// `Present` of a swap chain (`None`: the implicit one): the back buffer becomes the front
/// buffer (and shows in the chain's window, if it has one). `D3DERR_DEVICELOST` while a
/// failed `Reset` left the device lost, or the window was resized.
///
/// The source and destination rectangles are honoured by a windowed chain whatever its swap
/// effect and ignored by a full-screen one, as Windows does (DXVK's tests on Windows); the
/// dirty region is an optimisation hint the SDK lets an implementation ignore (the whole
/// source rectangle is presented).
pub fn present_chain(
    inner: &mut DeviceInner,
    chain: Option<d3d9_backend::device::SwapChainId>,
    (source, dest): (Option<Rect>, Option<Rect>),
) -> CallResult {
    if inner.lost {
        return Err(fail(D3DERR_DEVICELOST, "the device is lost until a Reset"));
    }
    let present = inner.chain(chain)?.present;
    // A real window's client area as the program last reported it: a resize loses the
    // device (D3DERR_DEVICELOST, then D3DERR_DEVICENOTRESET until a Reset).
    if let Some(window) = native_window::lookup(present.hDeviceWindow) {
        if window.size.0 > 0 && window.size.1 > 0 {
            inner
                .device
                .window_resized(chain, window.size)
                .map_err(Refusal::from)?;
        }
    }
    let (source, dest) = match present.Windowed {
        0 => (None, None),
        _ => (source, dest),
    };
    let presented = inner.device.present_rects(chain, source, dest);
    if let Err(DeviceError::DeviceLost { .. }) = &presented {
        inner.lost = true;
    }
    presented.map_err(Refusal::from)
}
