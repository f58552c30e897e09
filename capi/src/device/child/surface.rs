//! `IDirect3DSurface9`: render targets, depth-stencil surfaces, offscreen plain surfaces, the
//! back buffer, and the levels of textures (whose reference counts are their texture's, as on
//! Windows: `AddRef` on a level adds to the texture).

use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use d3d9_backend::device::{LockFlags, SurfaceId};

use super::lock::opt_rect;
use super::methods::{child_methods, resource_methods};
use super::{com_query_interface, Child};
use crate::com::{entry, entry_value, write_out, Class, Com, Kind, Outer, Private};
use crate::device::Device9;
use crate::guid::{Guid, IID_IDIRECT3DRESOURCE9, IID_IDIRECT3DSURFACE9};
use crate::hresult::{invalid_call, CallResult, Refusal, HRESULT};
use crate::types::*;
use crate::vtbl::IDirect3DSurface9Vtbl;

/// What a surface belongs to (`GetContainer`).
pub enum Container {
    /// Made by the application: the device.
    Device,
    /// The implicit swap chain's back buffer.
    SwapChain,
    /// A level of a texture, which owns the surface and counts its references.
    Texture(Outer),
}

/// The `IDirect3DSurface9` object.
pub struct Surface9 {
    pub child: Child,
    pub id: SurfaceId,
    pub container: Container,
    priority: AtomicU32,
    /// A device context is out (`GetDC` until `ReleaseDC`).
    dc: AtomicBool,
}

impl Class for Surface9 {
    const KIND: Kind = Kind::Surface;
    fn interfaces(&self) -> &'static [Guid] {
        &[IID_IDIRECT3DSURFACE9, IID_IDIRECT3DRESOURCE9]
    }

    fn public_changed(&self, alive: bool) {
        if !matches!(self.container, Container::Texture(_)) {
            self.child.public_changed(alive);
        }
    }

    /// A binding of a texture's level (`SetRenderTarget`, `SetDepthStencilSurface`) holds
    /// the texture, which owns and frees the level: the texture lives while its level is
    /// bound, as on Windows, even after the application's last `Release`.
    fn private_changed(&self, taken: bool) {
        if let Some(texture) = self.texture() {
            if taken {
                texture.add_private();
            } else {
                // SAFETY: the private reference taken with this level's; may free the
                // texture and with it this level (not touched after).
                unsafe { texture.release_private() };
            }
        }
    }

    fn destroy(&mut self) {
        if !matches!(self.container, Container::Texture(_)) {
            let id = self.id;
            let _ = self
                .child
                .shared
                .with(|inner| inner.device.release_surface(id).map_err(Refusal::from));
        }
    }
}

impl super::DeviceChild for Surface9 {
    fn child(&self) -> &Child {
        &self.child
    }
}

impl super::Resource for Surface9 {
    fn priority(&self) -> &AtomicU32 {
        &self.priority
    }
    fn resource_type(&self) -> u32 {
        1
    }
}

fn vtbl() -> *const c_void {
    &VTBL as *const _ as *const c_void
}

impl Surface9 {
    /// A surface the application made (`CreateRenderTarget`, ...), with one reference.
    pub fn created(device: &Com<Device9>, id: SurfaceId) -> *mut Com<Surface9> {
        Com::new(
            vtbl(),
            Surface9 {
                child: Child::new(device),
                id,
                container: Container::Device,
                priority: AtomicU32::new(0),
                dc: AtomicBool::new(false),
            },
            true,
        )
    }

    /// A surface the device makes for itself (back buffer, automatic depth-stencil surface),
    /// held by the device's private reference.
    pub fn implicit(device: &Com<Device9>, id: SurfaceId) -> Private<Surface9> {
        let back_buffer = device
            .data
            .shared
            .lock()
            .device
            .back_buffers()
            .contains(&id);
        let ptr = Com::new(
            vtbl(),
            Surface9 {
                child: Child::new(device),
                id,
                container: if back_buffer {
                    Container::SwapChain
                } else {
                    Container::Device
                },
                priority: AtomicU32::new(0),
                dc: AtomicBool::new(false),
            },
            false,
        );
        // SAFETY: made with a private reference, which this takes over.
        unsafe { Private::adopt(ptr) }
    }

    /// A level of `texture` (owned by it), a child of `device`.
    pub fn level(device: &Com<Device9>, texture: Outer, id: SurfaceId) -> *mut Com<Surface9> {
        Com::new(
            vtbl(),
            Surface9 {
                child: Child::new(device),
                id,
                container: Container::Texture(texture),
                priority: AtomicU32::new(0),
                dc: AtomicBool::new(false),
            },
            false,
        )
    }

    fn texture(&self) -> Option<Outer> {
        match self.container {
            Container::Texture(t) => Some(t),
            _ => None,
        }
    }
}

type This = *mut Com<Surface9>;

unsafe extern "C" fn query_interface(
    this: This,
    riid: *const Guid,
    out: *mut *mut c_void,
) -> HRESULT {
    // SAFETY: C calls through our vtable; `this` is checked live.
    match unsafe { crate::com::this(this) } {
        Ok(object) => match object.data.texture() {
            // A level answers for itself, counting on its texture.
            Some(texture) => {
                // SAFETY: per the caller.
                let hr = unsafe { object.query_interface(riid, out) };
                if hr == 0 {
                    // `query_interface` added a reference to the level's own count: move it.
                    texture.add_ref();
                    // SAFETY: the reference just added.
                    unsafe { Com::release(object) };
                }
                hr
            }
            None => unsafe { object.query_interface(riid, out) },
        },
        Err(r) => r.hr,
    }
}

unsafe extern "C" fn add_ref(this: This) -> u32 {
    entry_value("IDirect3DSurface9::AddRef", 0, || {
        // SAFETY: checked live.
        let object = unsafe { crate::com::this(this)? };
        Ok(match object.data.texture() {
            Some(texture) => texture.add_ref(),
            None => object.add_ref(),
        })
    })
}

unsafe extern "C" fn release(this: This) -> u32 {
    entry_value("IDirect3DSurface9::Release", 0, || {
        // SAFETY: checked live; the caller gives up a reference.
        let object = unsafe { crate::com::this(this)? };
        Ok(match object.data.texture() {
            // SAFETY: the reference is the texture's.
            Some(texture) => unsafe { texture.release() },
            None => unsafe { Com::release(object) },
        })
    })
}

child_methods!(Surface9, "IDirect3DSurface9");
resource_methods!(Surface9, "IDirect3DSurface9");

unsafe extern "C" fn get_container(
    this: This,
    riid: *const Guid,
    out: *mut *mut c_void,
) -> HRESULT {
    entry("IDirect3DSurface9::GetContainer", || {
        // SAFETY: checked live; pointers per the caller.
        let object = unsafe { crate::com::this(this)? };
        unsafe { write_out(out, std::ptr::null_mut())? };
        let container = match &object.data.container {
            Container::Texture(t) => t.as_ptr(),
            Container::Device => object.data.child.device().as_ptr(),
            Container::SwapChain => {
                let inner = object.data.child.shared.lock();
                inner
                    .swap_chain
                    .as_ref()
                    .map(|s| s.get().as_ptr())
                    .ok_or_else(|| invalid_call("no swap chain"))?
            }
        };
        // SAFETY: a live object of ours; `riid` and `out` per the caller.
        let hr = unsafe { com_query_interface(container, riid, out) };
        if hr == 0 {
            Ok(())
        } else {
            Err(crate::hresult::fail(
                hr,
                "the container has no such interface",
            ))
        }
    })
}

/// The `D3DSURFACE_DESC` of a surface.
pub fn describe(inner: &crate::device::DeviceInner, id: SurfaceId) -> CallResult<D3DSURFACE_DESC> {
    let info = inner
        .device
        .surface_info(id)
        .ok_or_else(|| invalid_call("the surface was released"))?;
    Ok(D3DSURFACE_DESC {
        Format: info.format.to_d3d(),
        Type: 1,
        Usage: info.usage.0,
        Pool: info.pool.to_d3d(),
        MultiSampleType: info.multisample.kind,
        MultiSampleQuality: info.multisample.quality,
        Width: info.width,
        Height: info.height,
    })
}

unsafe extern "C" fn get_desc(this: This, desc: *mut D3DSURFACE_DESC) -> HRESULT {
    entry("IDirect3DSurface9::GetDesc", || {
        // SAFETY: checked live.
        let object = unsafe { crate::com::this(this)? };
        let id = object.data.id;
        let value = object.data.child.shared.with(|inner| describe(inner, id))?;
        // SAFETY: per the caller.
        unsafe { write_out(desc, value) }
    })
}

unsafe extern "C" fn lock_rect(
    this: This,
    locked: *mut D3DLOCKED_RECT,
    area: *const RECT,
    flags: u32,
) -> HRESULT {
    entry("IDirect3DSurface9::LockRect", || {
        // SAFETY: checked live; pointers per the caller.
        let object = unsafe { crate::com::this(this)? };
        if locked.is_null() {
            return Err(invalid_call("a NULL D3DLOCKED_RECT"));
        }
        if object.data.dc.load(Ordering::Acquire) {
            return Err(invalid_call("LockRect while a device context is out"));
        }
        let area = unsafe { opt_rect(area)? };
        let id = object.data.id;
        let result = object.data.child.shared.with(|inner| {
            inner
                .device
                .lock_surface(id, area, LockFlags(flags))
                .map_err(Refusal::from)
        });
        let value = match result {
            Ok(l) => D3DLOCKED_RECT {
                Pitch: l.row_pitch as i32,
                pBits: l.bits as *mut c_void,
            },
            Err(e) => {
                // A failed lock leaves the out structure cleared, as Windows.
                unsafe {
                    locked.write_unaligned(D3DLOCKED_RECT {
                        Pitch: 0,
                        pBits: std::ptr::null_mut(),
                    })
                };
                return Err(e);
            }
        };
        // SAFETY: non-null, per the caller writable.
        unsafe { write_out(locked, value) }
    })
}

unsafe extern "C" fn unlock_rect(this: This) -> HRESULT {
    entry("IDirect3DSurface9::UnlockRect", || {
        // SAFETY: checked live.
        let object = unsafe { crate::com::this(this)? };
        if object.data.dc.load(Ordering::Acquire) {
            return Err(invalid_call("UnlockRect while a device context is out"));
        }
        let id = object.data.id;
        object
            .data
            .child
            .shared
            .with(|inner| inner.device.unlock_surface(id).map_err(Refusal::from))
    })
}

/// The formats Windows hands out device contexts for (Wine's device.c `test_getdc`).
fn dc_format(format: d3d9_backend::device::Format) -> bool {
    use d3d9_backend::device::Format as F;
    matches!(
        format,
        F::A8R8G8B8 | F::X8R8G8B8 | F::R5G6B5 | F::X1R5G5B5 | F::A1R5G5B5 | F::R8G8B8
    )
}

/// `GetDC`: the surface held locked, whole, as for GDI drawing (which records the whole
/// surface dirty: Wine's add_dirty_rect_test) until `ReleaseDC`. There is no GDI on this
/// platform: the handle is opaque (the surface's own pointer), for `ReleaseDC` to take back.
unsafe extern "C" fn get_dc(this: This, hdc: *mut *mut c_void) -> HRESULT {
    entry("IDirect3DSurface9::GetDC", || {
        // SAFETY: checked live.
        let object = unsafe { crate::com::this(this)? };
        if hdc.is_null() {
            return Err(invalid_call("a NULL HDC pointer"));
        }
        let id = object.data.id;
        let format = object
            .data
            .child
            .shared
            .with(|inner| Ok(inner.device.surface_desc(id).map(|(_, _, f)| f)))?;
        if !format.is_some_and(dc_format) {
            return Err(invalid_call(
                "GetDC of a surface whose format has no device context",
            ));
        }
        if object.data.dc.load(Ordering::Acquire) {
            return Err(invalid_call("GetDC while a device context is out"));
        }
        object.data.child.shared.with(|inner| {
            inner
                .device
                .lock_surface(id, None, LockFlags(0))
                .map(|_| ())
                .map_err(Refusal::from)
        })?;
        object.data.dc.store(true, Ordering::Release);
        // SAFETY: non-null, per the caller writable.
        unsafe { write_out(hdc, this as *mut c_void) }
    })
}

/// `ReleaseDC(hdc)`: the handle `GetDC` gave; the lock ends.
unsafe extern "C" fn release_dc(this: This, hdc: *mut c_void) -> HRESULT {
    entry("IDirect3DSurface9::ReleaseDC", || {
        // SAFETY: checked live.
        let object = unsafe { crate::com::this(this)? };
        if hdc != this as *mut c_void || !object.data.dc.load(Ordering::Acquire) {
            return Err(invalid_call(
                "a device context this surface did not hand out",
            ));
        }
        let id = object.data.id;
        object
            .data
            .child
            .shared
            .with(|inner| inner.device.unlock_surface(id).map_err(Refusal::from))?;
        object.data.dc.store(false, Ordering::Release);
        Ok(())
    })
}

static VTBL: IDirect3DSurface9Vtbl<Com<Surface9>> = IDirect3DSurface9Vtbl {
    QueryInterface: query_interface,
    AddRef: add_ref,
    Release: release,
    GetDevice: get_device,
    SetPrivateData: set_private_data,
    GetPrivateData: get_private_data,
    FreePrivateData: free_private_data,
    SetPriority: set_priority,
    GetPriority: get_priority,
    PreLoad: pre_load,
    GetType: get_type,
    GetContainer: get_container,
    GetDesc: get_desc,
    LockRect: lock_rect,
    UnlockRect: unlock_rect,
    GetDC: get_dc,
    ReleaseDC: release_dc,
};

impl Com<Surface9> {
    /// `AddRef` as the application's call would do it (a texture level's goes to its
    /// texture).
    pub fn add_ref_public(&self) -> u32 {
        match self.data.texture() {
            Some(texture) => texture.add_ref(),
            None => self.add_ref(),
        }
    }
}
