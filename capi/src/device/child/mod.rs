//! The device's children (every object but `IDirect3D9` and the device) and what each shares:
//! its device (one public reference on it while the application holds the child), the lock
//! around the device's state, and private data (`SetPrivateData`).
//!
//! Layers, lowest first: `methods` (the methods interfaces share), `device_lock` and
//! `lock`; `surface`, `volume`, `buffer`, `shader`, `query`; `texture` (owning its levels'
//! surfaces and volumes); `state` (every state-setting call as a value, holding bound
//! children); `stateblock`, `swapchain`.

pub mod buffer;
pub mod device_lock;
pub mod lock;
pub mod methods;
pub mod query;
pub mod shader;
pub mod state;
pub mod stateblock;
pub mod surface;
pub mod swapchain;
pub mod texture;
pub mod volume;

use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::atomic::AtomicU32;
use std::sync::{Arc, Mutex};

use crate::com::{lookup, read_in, write_out, Class, Com, Deferred};
use crate::device::{Device9, DeviceInner};
use crate::guid::Guid;
use crate::hresult::{fail, invalid_call, CallResult, D3DERR_MOREDATA, D3DERR_NOTFOUND};
use device_lock::{DeviceLock, Guard};

/// A device child (every object but `IDirect3D9` and the device).
pub trait DeviceChild {
    fn child(&self) -> &Child;
}

/// An `IDirect3DResource9`: its priority and `D3DRESOURCETYPE`.
pub trait Resource {
    fn priority(&self) -> &AtomicU32;
    fn resource_type(&self) -> u32;
}

/// The device's state behind its lock (`D3DCREATE_MULTITHREADED` is always honoured).
pub struct Shared {
    inner: DeviceLock<DeviceInner>,
}

impl Shared {
    pub fn new(inner: DeviceInner) -> Arc<Shared> {
        Arc::new(Shared {
            inner: DeviceLock::new(inner),
        })
    }

    /// Runs `f` with the device locked, then (unlocked) the releases `f` deferred.
    pub fn with<R>(&self, f: impl FnOnce(&mut DeviceInner) -> CallResult<R>) -> CallResult<R> {
        let (result, deferred) = {
            let mut inner = self.lock();
            let result = f(&mut inner);
            let deferred = (!inner.deferred.is_empty()).then(|| inner.deferred.take());
            (result, deferred)
        };
        if let Some(deferred) = deferred {
            deferred.run();
        }
        result
    }

    /// The locked state (a panic while it was held left the state usable: every call
    /// checks what it reads).
    pub fn lock(&self) -> Guard<'_, DeviceInner> {
        self.inner.lock()
    }

    /// Runs releases outside the lock.
    pub fn run(deferred: Deferred) {
        deferred.run();
    }
}

/// The child of kind `T` at `ptr`, which must be live and belong to the device whose state
/// is `shared`; `None` for NULL.
pub fn child_at<'a, T: Class + DeviceChild>(
    shared: &Arc<Shared>,
    ptr: *mut c_void,
) -> CallResult<Option<&'a Com<T>>> {
    if ptr.is_null() {
        return Ok(None);
    }
    let object = lookup::<T>(ptr)
        .ok_or_else(|| invalid_call(format!("{ptr:p} is not a live {:?}", T::KIND)))?;
    if !Arc::ptr_eq(&object.data.child().shared, shared) {
        return Err(invalid_call(format!("{ptr:p} belongs to another device")));
    }
    Ok(Some(object))
}

/// A device child: its device and the shared state.
pub struct Child {
    device: *mut Com<Device9>,
    pub shared: Arc<Shared>,
    private_data: Mutex<HashMap<Guid, Stored>>,
}

// SAFETY: the device pointer is only used for its atomic reference counts and to hand it out
// (`GetDevice`); the device outlives its children's public references.
unsafe impl Send for Child {}
unsafe impl Sync for Child {}

/// One `SetPrivateData` entry.
enum Stored {
    Bytes(Vec<u8>),
    /// `D3DSPD_IUNKNOWN`: an interface pointer, referenced while stored.
    Unknown(*mut c_void),
}

impl Child {
    pub fn new(device: &Com<Device9>) -> Child {
        Child {
            device: device as *const Com<Device9> as *mut Com<Device9>,
            shared: device.data.shared.clone(),
            private_data: Mutex::new(HashMap::new()),
        }
    }

    pub fn device(&self) -> &Com<Device9> {
        // SAFETY: a child's device lives while the child is reachable (see `public_changed`).
        unsafe { &*self.device }
    }

    /// The child's public count went from 0 to 1 (take a device reference) or to 0 (give it
    /// back), as Windows counts.
    pub fn public_changed(&self, alive: bool) {
        if alive {
            self.device().add_ref();
        } else {
            // SAFETY: the reference taken when the count left 0.
            unsafe { crate::device::release_device(self.device) };
        }
    }

    /// `GetDevice`.
    ///
    /// # Safety
    /// `out` is null or writable.
    pub unsafe fn get_device(&self, out: *mut *mut c_void) -> CallResult {
        // SAFETY: per the caller.
        unsafe { write_out(out, std::ptr::null_mut())? };
        self.device().add_ref();
        // SAFETY: checked non-null above.
        unsafe { write_out(out, self.device().as_ptr()) }
    }

    /// `SetPrivateData(guid, data, size, flags)`.
    ///
    /// # Safety
    /// `guid` readable; `data` readable for `size` bytes (or an interface pointer with
    /// `D3DSPD_IUNKNOWN`).
    pub unsafe fn set_private_data(
        &self,
        guid: *const Guid,
        data: *const c_void,
        size: u32,
        flags: u32,
    ) -> CallResult {
        // SAFETY: per the caller.
        let guid = unsafe { read_in(guid)? };
        let stored = if flags & 1 != 0 {
            if size as usize != std::mem::size_of::<*mut c_void>() || data.is_null() {
                return Err(invalid_call(
                    "D3DSPD_IUNKNOWN with a size other than a pointer's",
                ));
            }
            // SAFETY: an interface pointer: its first field is its vtable, whose second slot
            // is AddRef (every COM interface).
            unsafe { com_add_ref(data as *mut c_void) };
            Stored::Unknown(data as *mut c_void)
        } else {
            if data.is_null() && size != 0 {
                return Err(invalid_call("NULL data"));
            }
            // SAFETY: readable for `size` bytes, per the caller.
            let bytes = unsafe { std::slice::from_raw_parts(data as *const u8, size as usize) };
            Stored::Bytes(bytes.to_vec())
        };
        let old = self
            .private_data
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(guid, stored);
        release_stored(old);
        Ok(())
    }

    /// `GetPrivateData(guid, data, size)`: `D3DERR_MOREDATA` (with the size) when `data` is
    /// NULL or too small.
    ///
    /// # Safety
    /// `guid` readable; `size` readable and writable; `data` writable for `*size` bytes.
    pub unsafe fn get_private_data(
        &self,
        guid: *const Guid,
        data: *mut c_void,
        size: *mut u32,
    ) -> CallResult {
        // SAFETY: per the caller.
        let guid = unsafe { read_in(guid)? };
        // SAFETY: per the caller.
        let capacity = unsafe { read_in(size)? };
        let map = self.private_data.lock().unwrap_or_else(|e| e.into_inner());
        let stored = map
            .get(&guid)
            .ok_or_else(|| fail(D3DERR_NOTFOUND, "no private data"))?;
        let bytes: Vec<u8> = match stored {
            Stored::Bytes(b) => b.clone(),
            Stored::Unknown(p) => (*p as usize).to_ne_bytes().to_vec(),
        };
        // SAFETY: writable, per the caller.
        unsafe { size.write_unaligned(bytes.len() as u32) };
        if data.is_null() || (capacity as usize) < bytes.len() {
            return Err(fail(D3DERR_MOREDATA, "the buffer is too small"));
        }
        if let Stored::Unknown(p) = stored {
            // SAFETY: a live interface pointer referenced while stored.
            unsafe { com_add_ref(*p) };
        }
        // SAFETY: writable for `capacity` >= len bytes.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), data as *mut u8, bytes.len()) };
        Ok(())
    }

    /// `FreePrivateData(guid)`.
    ///
    /// # Safety
    /// `guid` readable.
    pub unsafe fn free_private_data(&self, guid: *const Guid) -> CallResult {
        // SAFETY: per the caller.
        let guid = unsafe { read_in(guid)? };
        let old = self
            .private_data
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&guid);
        if old.is_none() {
            return Err(fail(D3DERR_NOTFOUND, "no private data"));
        }
        release_stored(old);
        Ok(())
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        let map = std::mem::take(&mut *self.private_data.lock().unwrap_or_else(|e| e.into_inner()));
        for (_, stored) in map {
            release_stored(Some(stored));
        }
    }
}

fn release_stored(stored: Option<Stored>) {
    if let Some(Stored::Unknown(p)) = stored {
        // SAFETY: referenced while stored.
        unsafe { com_release(p) };
    }
}

/// The `IUnknown` vtable every COM interface starts with.
#[repr(C)]
struct UnknownVtbl {
    query_interface: unsafe extern "C" fn(*mut c_void, *const Guid, *mut *mut c_void) -> i32,
    add_ref: unsafe extern "C" fn(*mut c_void) -> u32,
    release: unsafe extern "C" fn(*mut c_void) -> u32,
}

/// `IUnknown::AddRef` of any interface pointer.
///
/// # Safety
/// `p` is a live COM interface pointer.
unsafe fn com_add_ref(p: *mut c_void) {
    // SAFETY: per the caller: its first field points to a vtable starting with IUnknown's.
    unsafe {
        let vtbl = *(p as *const *const UnknownVtbl);
        ((*vtbl).add_ref)(p);
    }
}

/// `IUnknown::Release` of any interface pointer.
///
/// # Safety
/// `p` is a live COM interface pointer on which the caller holds a reference.
unsafe fn com_release(p: *mut c_void) {
    // SAFETY: per the caller.
    unsafe {
        let vtbl = *(p as *const *const UnknownVtbl);
        ((*vtbl).release)(p);
    }
}

/// `QueryInterface` on any interface pointer (IUnknown's first slot), for `GetContainer`.
///
/// # Safety
/// `p` is a live COM interface pointer; `riid` and `out` as `QueryInterface` takes them.
pub unsafe fn com_query_interface(p: *mut c_void, riid: *const Guid, out: *mut *mut c_void) -> i32 {
    // SAFETY: per the caller.
    unsafe {
        let vtbl = *(p as *const *const UnknownVtbl);
        ((*vtbl).query_interface)(p, riid, out)
    }
}
