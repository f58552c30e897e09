//! The methods many interfaces share, written once as macros that each object module
//! instantiates: `IUnknown`'s (`unknown_methods!`), a device child's `GetDevice` and private
//! data (`child_methods!`), and `IDirect3DResource9`'s priority, `PreLoad` and `GetType`
//! (`resource_methods!`).

/// `QueryInterface`, `AddRef` and `Release` of `Com<$ty>`.
macro_rules! unknown_methods {
    ($ty:ty, $name:literal) => {
        unsafe extern "C" fn query_interface(
            this: *mut $crate::com::Com<$ty>,
            riid: *const $crate::guid::Guid,
            out: *mut *mut std::ffi::c_void,
        ) -> $crate::hresult::HRESULT {
            // SAFETY: C calls through our vtable; `this` is checked live.
            match unsafe { $crate::com::this(this) } {
                Ok(object) => unsafe { object.query_interface(riid, out) },
                Err(r) => r.hr,
            }
        }

        unsafe extern "C" fn add_ref(this: *mut $crate::com::Com<$ty>) -> u32 {
            $crate::com::entry_value(concat!($name, "::AddRef"), 0, || {
                // SAFETY: checked live.
                Ok(unsafe { $crate::com::this(this)? }.add_ref())
            })
        }

        unsafe extern "C" fn release(this: *mut $crate::com::Com<$ty>) -> u32 {
            $crate::com::entry_value(concat!($name, "::Release"), 0, || {
                // SAFETY: checked live; the caller gives up a reference.
                let object = unsafe { $crate::com::this(this)? };
                Ok(unsafe { $crate::com::Com::release(object) })
            })
        }
    };
}

/// `GetDevice`, `SetPrivateData`, `GetPrivateData`, `FreePrivateData` of a device child
/// (`$ty: DeviceChild`).
macro_rules! child_methods {
    ($ty:ty, $name:literal) => {
        unsafe extern "C" fn get_device(
            this: *mut $crate::com::Com<$ty>,
            out: *mut *mut std::ffi::c_void,
        ) -> $crate::hresult::HRESULT {
            $crate::com::entry(concat!($name, "::GetDevice"), || {
                // SAFETY: checked live; `out` per the caller.
                let object = unsafe { $crate::com::this(this)? };
                unsafe { $crate::device::child::DeviceChild::child(&object.data).get_device(out) }
            })
        }

        #[allow(dead_code)]
        unsafe extern "C" fn set_private_data(
            this: *mut $crate::com::Com<$ty>,
            guid: *const $crate::guid::Guid,
            data: *const std::ffi::c_void,
            size: u32,
            flags: u32,
        ) -> $crate::hresult::HRESULT {
            $crate::com::entry(concat!($name, "::SetPrivateData"), || {
                // SAFETY: checked live; pointers per the caller.
                let object = unsafe { $crate::com::this(this)? };
                unsafe {
                    $crate::device::child::DeviceChild::child(&object.data)
                        .set_private_data(guid, data, size, flags)
                }
            })
        }

        #[allow(dead_code)]
        unsafe extern "C" fn get_private_data(
            this: *mut $crate::com::Com<$ty>,
            guid: *const $crate::guid::Guid,
            data: *mut std::ffi::c_void,
            size: *mut u32,
        ) -> $crate::hresult::HRESULT {
            $crate::com::entry(concat!($name, "::GetPrivateData"), || {
                // SAFETY: checked live; pointers per the caller.
                let object = unsafe { $crate::com::this(this)? };
                unsafe {
                    $crate::device::child::DeviceChild::child(&object.data)
                        .get_private_data(guid, data, size)
                }
            })
        }

        #[allow(dead_code)]
        unsafe extern "C" fn free_private_data(
            this: *mut $crate::com::Com<$ty>,
            guid: *const $crate::guid::Guid,
        ) -> $crate::hresult::HRESULT {
            $crate::com::entry(concat!($name, "::FreePrivateData"), || {
                // SAFETY: checked live; `guid` per the caller.
                let object = unsafe { $crate::com::this(this)? };
                unsafe {
                    $crate::device::child::DeviceChild::child(&object.data).free_private_data(guid)
                }
            })
        }
    };
}

/// `SetPriority`, `GetPriority`, `PreLoad` and `GetType` of an `IDirect3DResource9`
/// (`$ty: Resource`).
macro_rules! resource_methods {
    ($ty:ty, $name:literal) => {
        unsafe extern "C" fn set_priority(this: *mut $crate::com::Com<$ty>, priority: u32) -> u32 {
            $crate::com::entry_value(concat!($name, "::SetPriority"), 0, || {
                // SAFETY: checked live.
                let object = unsafe { $crate::com::this(this)? };
                Ok($crate::device::child::Resource::priority(&object.data)
                    .swap(priority, std::sync::atomic::Ordering::AcqRel))
            })
        }

        unsafe extern "C" fn get_priority(this: *mut $crate::com::Com<$ty>) -> u32 {
            $crate::com::entry_value(concat!($name, "::GetPriority"), 0, || {
                // SAFETY: checked live.
                let object = unsafe { $crate::com::this(this)? };
                Ok($crate::device::child::Resource::priority(&object.data)
                    .load(std::sync::atomic::Ordering::Acquire))
            })
        }

        unsafe extern "C" fn pre_load(this: *mut $crate::com::Com<$ty>) {
            $crate::com::entry_value(concat!($name, "::PreLoad"), (), || {
                // SAFETY: checked live.
                unsafe { $crate::com::this(this)? };
                Ok(())
            })
        }

        unsafe extern "C" fn get_type(this: *mut $crate::com::Com<$ty>) -> u32 {
            $crate::com::entry_value(concat!($name, "::GetType"), 0, || {
                // SAFETY: checked live.
                let object = unsafe { $crate::com::this(this)? };
                Ok($crate::device::child::Resource::resource_type(&object.data))
            })
        }
    };
}

pub(crate) use child_methods;
pub(crate) use resource_methods;
pub(crate) use unknown_methods;
