//! `IDirect3DQuery9`: event queries (`D3DQUERYTYPE_EVENT`: done once the GPU has finished
//! what was submitted before `Issue`). Other query types answer `D3DERR_NOTAVAILABLE` from
//! `CreateQuery`, so an application can ask which it may use.

use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::child::Child;
use crate::com::{entry, entry_value, Class, Com, Kind};
use crate::device::Device9;
use crate::guid::{Guid, IID_IDIRECT3DQUERY9};
use crate::hresult::{
    fail, invalid_call, unsupported, CallResult, Refusal, D3DERR_NOTAVAILABLE, HRESULT, S_OK,
};
use crate::methods::{child_methods, unknown_methods};
use crate::vtbl::IDirect3DQuery9Vtbl;

/// `D3DQUERYTYPE_EVENT`.
const EVENT: u32 = 8;
/// `D3DISSUE_END`, `D3DISSUE_BEGIN`.
const ISSUE_END: u32 = 1;
const ISSUE_BEGIN: u32 = 2;
/// `D3DGETDATA_FLUSH`.
const GETDATA_FLUSH: u32 = 1;

/// The `IDirect3DQuery9` object.
pub struct Query9 {
    pub child: Child,
    kind: u32,
    issued: AtomicBool,
}

impl Class for Query9 {
    const KIND: Kind = Kind::Query;
    fn interfaces(&self) -> &'static [Guid] {
        &[IID_IDIRECT3DQUERY9]
    }
    fn public_changed(&self, alive: bool) {
        self.child.public_changed(alive);
    }
}

impl crate::DeviceChild for Query9 {
    fn child(&self) -> &Child {
        &self.child
    }
}

impl Query9 {
    /// `CreateQuery(kind, out)`: `D3DERR_NOTAVAILABLE` for a type this device does not
    /// answer; with `probe` (a NULL `out`) only whether it would.
    pub fn create(
        device: &Com<Device9>,
        kind: u32,
        probe: bool,
    ) -> CallResult<Option<*mut c_void>> {
        match kind {
            EVENT => {}
            // VCACHE .. MEMORYPRESSURE: D3D9's query types this device does not answer yet.
            4..=7 | 9..=19 => {
                return Err(unsupported(
                    D3DERR_NOTAVAILABLE,
                    format!("D3DQUERYTYPE {kind}"),
                ))
            }
            _ => return Err(invalid_call(format!("D3DQUERYTYPE {kind}"))),
        }
        if probe {
            return Ok(None);
        }
        let query = Com::new(
            &VTBL as *const IDirect3DQuery9Vtbl as *const c_void,
            Query9 {
                child: Child::new(device),
                kind,
                issued: AtomicBool::new(false),
            },
            true,
        );
        Ok(Some(query as *mut c_void))
    }
}

type This = *mut Com<Query9>;

unknown_methods!(Query9, "IDirect3DQuery9");
child_methods!(Query9, "IDirect3DQuery9");

unsafe extern "C" fn get_type(this: This) -> u32 {
    entry_value("IDirect3DQuery9::GetType", 0, || {
        // SAFETY: checked live.
        Ok(unsafe { crate::com::this(this)? }.data.kind)
    })
}

unsafe extern "C" fn get_data_size(this: This) -> u32 {
    entry_value("IDirect3DQuery9::GetDataSize", 0, || {
        // SAFETY: checked live. An event's data is a BOOL.
        unsafe { crate::com::this(this)? };
        Ok(4)
    })
}

unsafe extern "C" fn issue(this: This, flags: u32) -> HRESULT {
    entry("IDirect3DQuery9::Issue", || {
        // SAFETY: checked live.
        let object = unsafe { crate::com::this(this)? };
        match flags {
            ISSUE_END => {
                object.data.issued.store(true, Ordering::Release);
                object
                    .data
                    .child
                    .shared
                    .with(|inner| inner.device.flush().map_err(Refusal::from))
            }
            ISSUE_BEGIN => Err(invalid_call("D3DISSUE_BEGIN on an event query")),
            other => Err(invalid_call(format!("issue flags {other:#x}"))),
        }
    })
}

unsafe extern "C" fn get_data(this: This, data: *mut c_void, size: u32, flags: u32) -> HRESULT {
    let mut result = S_OK;
    let hr = entry("IDirect3DQuery9::GetData", || {
        // SAFETY: checked live.
        let object = unsafe { crate::com::this(this)? };
        if flags & !GETDATA_FLUSH != 0 {
            return Err(invalid_call(format!("flags {flags:#x}")));
        }
        if !data.is_null() && size != 0 && size < 4 {
            return Err(fail(
                crate::hresult::D3DERR_INVALIDCALL,
                "a buffer smaller than a BOOL",
            ));
        }
        // Everything submitted is finished once the device has waited for the GPU: the
        // event has happened.
        object
            .data
            .child
            .shared
            .with(|inner| inner.device.flush().map_err(Refusal::from))?;
        if !data.is_null() && size >= 4 {
            // SAFETY: writable for `size` >= 4 bytes, per the caller.
            unsafe { (data as *mut i32).write_unaligned(1) };
        }
        result = S_OK;
        Ok(())
    });
    if hr == S_OK {
        result
    } else {
        hr
    }
}

static VTBL: IDirect3DQuery9Vtbl = IDirect3DQuery9Vtbl {
    QueryInterface: query_interface,
    AddRef: add_ref,
    Release: release,
    GetDevice: get_device,
    GetType: get_type,
    GetDataSize: get_data_size,
    Issue: issue,
    GetData: get_data,
};
