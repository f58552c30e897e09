//! `IDirect3DSwapChain9`: the implicit swap chain of a headless device (its back buffer is
//! the device's; `Present` makes it the front buffer).

use std::ffi::c_void;

use crate::child::Child;
use crate::com::{entry, write_out, Class, Com, Kind, Private};
use crate::device::Device9;
use crate::guid::{Guid, IID_IDIRECT3DSWAPCHAIN9};
use crate::hresult::{invalid_call, CallResult, Refusal, HRESULT};
use crate::methods::unknown_methods;
use crate::surface::Surface9;
use crate::types::*;
use crate::vtbl::IDirect3DSwapChain9Vtbl;

/// The `IDirect3DSwapChain9` object.
pub struct SwapChain9 {
    pub child: Child,
    back_buffers: Vec<Private<Surface9>>,
    present: D3DPRESENT_PARAMETERS,
}

impl Class for SwapChain9 {
    const KIND: Kind = Kind::SwapChain;
    fn interfaces(&self) -> &'static [Guid] {
        &[IID_IDIRECT3DSWAPCHAIN9]
    }
    fn public_changed(&self, alive: bool) {
        self.child.public_changed(alive);
    }
    fn destroy(&mut self) {
        for back_buffer in std::mem::take(&mut self.back_buffers) {
            back_buffer.into_release()();
        }
    }
}

impl crate::DeviceChild for SwapChain9 {
    fn child(&self) -> &Child {
        &self.child
    }
}

impl SwapChain9 {
    /// The implicit swap chain, held by the device's private reference.
    pub fn implicit(
        device: &Com<Device9>,
        back_buffers: Vec<Private<Surface9>>,
        present: D3DPRESENT_PARAMETERS,
    ) -> Private<SwapChain9> {
        let ptr = Com::new(
            &VTBL as *const IDirect3DSwapChain9Vtbl as *const c_void,
            SwapChain9 {
                child: Child::new(device),
                back_buffers,
                present,
            },
            false,
        );
        // SAFETY: made with a private reference, which this takes over.
        unsafe { Private::adopt(ptr) }
    }

    /// Back buffer `index`. The `D3DBACKBUFFER_TYPE` is ignored, as Windows ignores it
    /// (Wine's d3d9, after its tests).
    pub fn back_buffer(&self, index: u32, _kind: u32) -> CallResult<&Com<Surface9>> {
        if index >= self.present.BackBufferCount.max(1) {
            return Err(invalid_call(format!("back buffer {index} of {}", {
                self.present.BackBufferCount
            })));
        }
        self.back_buffers
            .get(index as usize)
            .map(Private::get)
            .ok_or_else(|| invalid_call("the swap chain was released"))
    }

    /// A headless display is never in its vertical blank.
    pub fn raster_status() -> D3DRASTER_STATUS {
        D3DRASTER_STATUS {
            InVBlank: 0,
            ScanLine: 0,
        }
    }
}

type This = *mut Com<SwapChain9>;

unknown_methods!(SwapChain9, "IDirect3DSwapChain9");

unsafe extern "C" fn present(
    this: This,
    _src: *const RECT,
    _dst: *const RECT,
    _window: *mut c_void,
    _dirty: *const c_void,
    _flags: u32,
) -> HRESULT {
    entry("IDirect3DSwapChain9::Present", || {
        // SAFETY: checked live.
        let object = unsafe { crate::com::this(this)? };
        object.data.child.shared.with(crate::device::present_inner)
    })
}

unsafe extern "C" fn get_front_buffer_data(this: This, dst: *mut c_void) -> HRESULT {
    entry("IDirect3DSwapChain9::GetFrontBufferData", || {
        // SAFETY: checked live.
        let object = unsafe { crate::com::this(this)? };
        crate::device::front_buffer_data(&object.data.child.shared, dst)
    })
}

unsafe extern "C" fn get_back_buffer(
    this: This,
    index: u32,
    kind: u32,
    out: *mut *mut c_void,
) -> HRESULT {
    entry("IDirect3DSwapChain9::GetBackBuffer", || {
        // SAFETY: checked live; `out` per the caller.
        let object = unsafe { crate::com::this(this)? };
        if out.is_null() {
            return Err(invalid_call("a NULL out pointer"));
        }
        // A refused call leaves `*out` untouched (Wine's test_swapchain, passing on Windows).
        let surface = object.data.back_buffer(index, kind)?;
        surface.add_ref();
        unsafe { write_out(out, surface.as_ptr()) }
    })
}

unsafe extern "C" fn get_raster_status(this: This, status: *mut D3DRASTER_STATUS) -> HRESULT {
    entry("IDirect3DSwapChain9::GetRasterStatus", || {
        // SAFETY: checked live; `status` per the caller.
        unsafe { crate::com::this(this)? };
        unsafe { write_out(status, SwapChain9::raster_status()) }
    })
}

unsafe extern "C" fn get_display_mode(this: This, mode: *mut D3DDISPLAYMODE) -> HRESULT {
    entry("IDirect3DSwapChain9::GetDisplayMode", || {
        // SAFETY: checked live; `mode` per the caller.
        unsafe { crate::com::this(this)? };
        unsafe { write_out(mode, crate::direct3d::DISPLAY_MODE) }
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
        // SAFETY: checked live; `params` per the caller.
        let object = unsafe { crate::com::this(this)? };
        let _: Option<Refusal> = None;
        unsafe { write_out(params, object.data.present) }
    })
}

static VTBL: IDirect3DSwapChain9Vtbl = IDirect3DSwapChain9Vtbl {
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
