//! `IDirect3DVolume9`: a level of a volume texture, owned by it and counted on it.

use std::ffi::c_void;

use d3d9_backend::device::TextureId;

use super::lock::{box_region, lock_level, unlock_level, write_locked_box};
use super::methods::child_methods;
use super::Shared;
use super::{com_query_interface, Child};
use crate::com::{entry, entry_value, write_out, Class, Com, Kind, Outer};
use crate::device::Device9;
use crate::guid::{Guid, IID_IDIRECT3DVOLUME9};
use crate::hresult::{invalid_call, CallResult, HRESULT};
use crate::types::*;
use crate::vtbl::IDirect3DVolume9Vtbl;

/// The `IDirect3DVolume9` object: level `level` of `texture`.
pub struct Volume9 {
    pub child: Child,
    texture: Outer,
    id: TextureId,
    level: u32,
}

impl Class for Volume9 {
    const KIND: Kind = Kind::Volume;
    fn interfaces(&self) -> &'static [Guid] {
        &[IID_IDIRECT3DVOLUME9]
    }
}

impl super::DeviceChild for Volume9 {
    fn child(&self) -> &Child {
        &self.child
    }
}

impl Volume9 {
    /// Level `level` of volume texture `id`, the object `texture` (which owns it), a child
    /// of `device`.
    pub fn level(
        device: &Com<Device9>,
        texture: Outer,
        id: TextureId,
        level: u32,
    ) -> *mut Com<Volume9> {
        Com::new(
            &VTBL as *const _ as *const c_void,
            Volume9 {
                child: Child::new(device),
                texture,
                id,
                level,
            },
            false,
        )
    }

    /// The `D3DVOLUME_DESC` of `level` of volume texture `id`.
    pub fn describe(shared: &Shared, id: TextureId, level: u32) -> CallResult<D3DVOLUME_DESC> {
        let info = shared
            .with(|inner| Ok(inner.device.texture_info(id)))?
            .ok_or_else(|| invalid_call("the texture was released"))?;
        if level >= info.levels {
            return Err(invalid_call(format!("level {level} of {}", info.levels)));
        }
        let shrink = |n: u32| (n >> level).max(1);
        Ok(D3DVOLUME_DESC {
            Format: info.format.to_d3d(),
            Type: 2,
            Usage: info.usage.0,
            Pool: info.pool.to_d3d(),
            Width: shrink(info.width),
            Height: shrink(info.height),
            Depth: shrink(info.depth),
        })
    }
}

type This = *mut Com<Volume9>;

unsafe extern "C" fn query_interface(
    this: This,
    riid: *const Guid,
    out: *mut *mut c_void,
) -> HRESULT {
    // SAFETY: C calls through our vtable; `this` is checked live.
    match unsafe { crate::com::this(this) } {
        Ok(object) => {
            // SAFETY: per the caller.
            let hr = unsafe { object.query_interface(riid, out) };
            if hr == 0 {
                // The reference belongs on the texture.
                object.data.texture.add_ref();
                // SAFETY: the reference just added.
                unsafe { Com::release(object) };
            }
            hr
        }
        Err(r) => r.hr,
    }
}

unsafe extern "C" fn add_ref(this: This) -> u32 {
    entry_value("IDirect3DVolume9::AddRef", 0, || {
        // SAFETY: checked live.
        Ok(unsafe { crate::com::this(this)? }.data.texture.add_ref())
    })
}

unsafe extern "C" fn release(this: This) -> u32 {
    entry_value("IDirect3DVolume9::Release", 0, || {
        // SAFETY: checked live; the reference is the texture's.
        let object = unsafe { crate::com::this(this)? };
        Ok(unsafe { object.data.texture.release() })
    })
}

child_methods!(Volume9, "IDirect3DVolume9");

unsafe extern "C" fn get_container(
    this: This,
    riid: *const Guid,
    out: *mut *mut c_void,
) -> HRESULT {
    entry("IDirect3DVolume9::GetContainer", || {
        // SAFETY: checked live; pointers per the caller.
        let object = unsafe { crate::com::this(this)? };
        unsafe { write_out(out, std::ptr::null_mut())? };
        let hr = unsafe { com_query_interface(object.data.texture.as_ptr(), riid, out) };
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

unsafe extern "C" fn get_desc(this: This, desc: *mut D3DVOLUME_DESC) -> HRESULT {
    entry("IDirect3DVolume9::GetDesc", || {
        // SAFETY: checked live; `desc` per the caller.
        let object = unsafe { crate::com::this(this)? };
        let data = &object.data;
        let value = Volume9::describe(&data.child.shared, data.id, data.level)?;
        unsafe { write_out(desc, value) }
    })
}

unsafe extern "C" fn lock_box(
    this: This,
    locked: *mut D3DLOCKED_BOX,
    region: *const D3DBOX,
    flags: u32,
) -> HRESULT {
    entry("IDirect3DVolume9::LockBox", || {
        // SAFETY: checked live; pointers per the caller.
        let object = unsafe { crate::com::this(this)? };
        let region = unsafe { box_region(region)? };
        let data = &object.data;
        let result = lock_level(&data.child.shared, data.id, (0, data.level), region, flags);
        unsafe { write_locked_box(locked, result) }
    })
}

unsafe extern "C" fn unlock_box(this: This) -> HRESULT {
    entry("IDirect3DVolume9::UnlockBox", || {
        // SAFETY: checked live.
        let object = unsafe { crate::com::this(this)? };
        let data = &object.data;
        unlock_level(&data.child.shared, data.id, (0, data.level))
    })
}

static VTBL: IDirect3DVolume9Vtbl<Com<Volume9>> = IDirect3DVolume9Vtbl {
    QueryInterface: query_interface,
    AddRef: add_ref,
    Release: release,
    GetDevice: get_device,
    SetPrivateData: set_private_data,
    GetPrivateData: get_private_data,
    FreePrivateData: free_private_data,
    GetContainer: get_container,
    GetDesc: get_desc,
    LockBox: lock_box,
    UnlockBox: unlock_box,
};
