//! `IDirect3DVertexBuffer9` and `IDirect3DIndexBuffer9`.

use std::ffi::c_void;
use std::sync::atomic::AtomicU32;

use d3d9_backend::device::{IndexBufferId, IndexFormat, LockFlags, VertexBufferId};

use super::methods::{child_methods, resource_methods, unknown_methods};
use super::Child;
use crate::com::{entry, write_out, Class, Com, Kind};
use crate::device::Device9;
use crate::guid::{
    Guid, IID_IDIRECT3DINDEXBUFFER9, IID_IDIRECT3DRESOURCE9, IID_IDIRECT3DVERTEXBUFFER9,
};
use crate::hresult::{invalid_call, Refusal, HRESULT};
use crate::types::*;
use crate::vtbl::{IDirect3DIndexBuffer9Vtbl, IDirect3DVertexBuffer9Vtbl};

/// The `IDirect3DVertexBuffer9` object.
pub struct VertexBuffer9 {
    pub child: Child,
    pub id: VertexBufferId,
    /// The FVF code it was created with (`GetDesc`).
    pub fvf: u32,
    priority: AtomicU32,
}

/// The `IDirect3DIndexBuffer9` object.
pub struct IndexBuffer9 {
    pub child: Child,
    pub id: IndexBufferId,
    priority: AtomicU32,
}

impl Class for VertexBuffer9 {
    const KIND: Kind = Kind::VertexBuffer;
    fn interfaces(&self) -> &'static [Guid] {
        &[IID_IDIRECT3DVERTEXBUFFER9, IID_IDIRECT3DRESOURCE9]
    }
    fn public_changed(&self, alive: bool) {
        self.child.public_changed(alive);
    }
    fn destroy(&mut self) {
        let id = self.id;
        let _ = self.child.shared.with(|inner| {
            inner
                .device
                .release_vertex_buffer(id)
                .map_err(Refusal::from)
        });
    }
}

impl Class for IndexBuffer9 {
    const KIND: Kind = Kind::IndexBuffer;
    fn interfaces(&self) -> &'static [Guid] {
        &[IID_IDIRECT3DINDEXBUFFER9, IID_IDIRECT3DRESOURCE9]
    }
    fn public_changed(&self, alive: bool) {
        self.child.public_changed(alive);
    }
    fn destroy(&mut self) {
        let id = self.id;
        let _ = self
            .child
            .shared
            .with(|inner| inner.device.release_index_buffer(id).map_err(Refusal::from));
    }
}

impl super::DeviceChild for VertexBuffer9 {
    fn child(&self) -> &Child {
        &self.child
    }
}

impl super::DeviceChild for IndexBuffer9 {
    fn child(&self) -> &Child {
        &self.child
    }
}

impl super::Resource for VertexBuffer9 {
    fn priority(&self) -> &AtomicU32 {
        &self.priority
    }
    fn resource_type(&self) -> u32 {
        6
    }
}

impl super::Resource for IndexBuffer9 {
    fn priority(&self) -> &AtomicU32 {
        &self.priority
    }
    fn resource_type(&self) -> u32 {
        7
    }
}

impl VertexBuffer9 {
    pub fn created(device: &Com<Device9>, id: VertexBufferId, fvf: u32) -> *mut Com<VertexBuffer9> {
        Com::new(
            &VERTEX_VTBL as *const _ as *const c_void,
            VertexBuffer9 {
                child: Child::new(device),
                id,
                fvf,
                priority: AtomicU32::new(0),
            },
            true,
        )
    }
}

impl IndexBuffer9 {
    pub fn created(device: &Com<Device9>, id: IndexBufferId) -> *mut Com<IndexBuffer9> {
        Com::new(
            &INDEX_VTBL as *const _ as *const c_void,
            IndexBuffer9 {
                child: Child::new(device),
                id,
                priority: AtomicU32::new(0),
            },
            true,
        )
    }
}

mod vertex {
    use super::*;

    type This = *mut Com<VertexBuffer9>;

    unknown_methods!(VertexBuffer9, "IDirect3DVertexBuffer9");
    child_methods!(VertexBuffer9, "IDirect3DVertexBuffer9");
    resource_methods!(VertexBuffer9, "IDirect3DVertexBuffer9");

    unsafe extern "C" fn lock(
        this: This,
        offset: u32,
        size: u32,
        data: *mut *mut c_void,
        flags: u32,
    ) -> HRESULT {
        entry("IDirect3DVertexBuffer9::Lock", || {
            // SAFETY: checked live; `data` per the caller.
            let object = unsafe { crate::com::this(this)? };
            if data.is_null() {
                return Err(invalid_call("a NULL data pointer"));
            }
            let id = object.data.id;
            let locked = object.data.child.shared.with(|inner| {
                inner
                    .device
                    .lock_vertex_buffer(id, offset, size, LockFlags(flags))
                    .map_err(Refusal::from)
            })?;
            unsafe { write_out(data, locked.bits as *mut c_void) }
        })
    }

    unsafe extern "C" fn unlock(this: This) -> HRESULT {
        entry("IDirect3DVertexBuffer9::Unlock", || {
            // SAFETY: checked live.
            let object = unsafe { crate::com::this(this)? };
            let id = object.data.id;
            object
                .data
                .child
                .shared
                .with(|inner| inner.device.unlock_vertex_buffer(id).map_err(Refusal::from))
        })
    }

    unsafe extern "C" fn get_desc(this: This, desc: *mut D3DVERTEXBUFFER_DESC) -> HRESULT {
        entry("IDirect3DVertexBuffer9::GetDesc", || {
            // SAFETY: checked live; `desc` per the caller.
            let object = unsafe { crate::com::this(this)? };
            let id = object.data.id;
            let (size, usage, pool) = object
                .data
                .child
                .shared
                .with(|inner| Ok(inner.device.vertex_buffer_desc(id)))?
                .ok_or_else(|| invalid_call("the buffer was released"))?;
            let value = D3DVERTEXBUFFER_DESC {
                // D3DFMT_VERTEXDATA.
                Format: 100,
                Type: 6,
                Usage: usage.0,
                Pool: pool.to_d3d(),
                Size: size,
                FVF: object.data.fvf,
            };
            unsafe { write_out(desc, value) }
        })
    }

    pub(super) static VTBL: IDirect3DVertexBuffer9Vtbl<Com<VertexBuffer9>> =
        IDirect3DVertexBuffer9Vtbl {
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
            Lock: lock,
            Unlock: unlock,
            GetDesc: get_desc,
        };
}

mod index {
    use super::*;

    type This = *mut Com<IndexBuffer9>;

    unknown_methods!(IndexBuffer9, "IDirect3DIndexBuffer9");
    child_methods!(IndexBuffer9, "IDirect3DIndexBuffer9");
    resource_methods!(IndexBuffer9, "IDirect3DIndexBuffer9");

    unsafe extern "C" fn lock(
        this: This,
        offset: u32,
        size: u32,
        data: *mut *mut c_void,
        flags: u32,
    ) -> HRESULT {
        entry("IDirect3DIndexBuffer9::Lock", || {
            // SAFETY: checked live; `data` per the caller.
            let object = unsafe { crate::com::this(this)? };
            if data.is_null() {
                return Err(invalid_call("a NULL data pointer"));
            }
            let id = object.data.id;
            let locked = object.data.child.shared.with(|inner| {
                inner
                    .device
                    .lock_index_buffer(id, offset, size, LockFlags(flags))
                    .map_err(Refusal::from)
            })?;
            unsafe { write_out(data, locked.bits as *mut c_void) }
        })
    }

    unsafe extern "C" fn unlock(this: This) -> HRESULT {
        entry("IDirect3DIndexBuffer9::Unlock", || {
            // SAFETY: checked live.
            let object = unsafe { crate::com::this(this)? };
            let id = object.data.id;
            object
                .data
                .child
                .shared
                .with(|inner| inner.device.unlock_index_buffer(id).map_err(Refusal::from))
        })
    }

    unsafe extern "C" fn get_desc(this: This, desc: *mut D3DINDEXBUFFER_DESC) -> HRESULT {
        entry("IDirect3DIndexBuffer9::GetDesc", || {
            // SAFETY: checked live; `desc` per the caller.
            let object = unsafe { crate::com::this(this)? };
            let id = object.data.id;
            let (size, format, usage, pool) = object
                .data
                .child
                .shared
                .with(|inner| Ok(inner.device.index_buffer_desc(id)))?
                .ok_or_else(|| invalid_call("the buffer was released"))?;
            let value = D3DINDEXBUFFER_DESC {
                Format: match format {
                    IndexFormat::Index16 => 101,
                    IndexFormat::Index32 => 102,
                },
                Type: 7,
                Usage: usage.0,
                Pool: pool.to_d3d(),
                Size: size,
            };
            unsafe { write_out(desc, value) }
        })
    }

    pub(super) static VTBL: IDirect3DIndexBuffer9Vtbl<Com<IndexBuffer9>> =
        IDirect3DIndexBuffer9Vtbl {
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
            Lock: lock,
            Unlock: unlock,
            GetDesc: get_desc,
        };
}

use index::VTBL as INDEX_VTBL;
use vertex::VTBL as VERTEX_VTBL;
