//! `IDirect3DQuery9`: event, occlusion and (where the adapter has timestamps) timestamp,
//! timestamp-disjoint and timestamp-frequency queries, answered by the backend device
//! (`d3d9_backend::device::query`). Every other type answers `D3DERR_NOTAVAILABLE` from
//! `CreateQuery`, with or without an out pointer, so an application can ask which it may use.
//!
//! Windows' rules, from Wine's `test_query_support`, `test_occlusion_query` and
//! `test_timestamp_query`: any `Issue(D3DISSUE_BEGIN)` / `Issue(D3DISSUE_END)` order is
//! `D3D_OK`; `GetData` before any `Issue` is `S_OK` with the caller's bytes set to 0xdd;
//! `GetData` writes at most the size given (a WORD of a DWORD result, the low DWORD of a
//! UINT64), nothing with size 0; `S_FALSE` while the result is not there.

use std::ffi::c_void;

use d3d9_backend::device::query::{QueryData, QueryId, QueryKind};

use super::methods::{child_methods, unknown_methods};
use super::Child;
use crate::com::{entry, entry_value, Class, Com, Kind};
use crate::device::Device9;
use crate::guid::{Guid, IID_IDIRECT3DQUERY9};
use crate::hresult::{
    fail, invalid_call, unsupported, CallResult, Refusal, D3DERR_NOTAVAILABLE, HRESULT, S_FALSE,
    S_OK,
};
use crate::vtbl::IDirect3DQuery9Vtbl;

/// `D3DISSUE_END`, `D3DISSUE_BEGIN`.
const ISSUE_END: u32 = 1;
const ISSUE_BEGIN: u32 = 2;
/// `D3DGETDATA_FLUSH`.
const GETDATA_FLUSH: u32 = 1;
/// `D3DQUERYTYPE_VCACHE` ..= `D3DQUERYTYPE_MEMORYPRESSURE`: the types D3D9 defines.
const D3D9_TYPES: std::ops::RangeInclusive<u32> = 4..=19;

/// The `IDirect3DQuery9` object.
pub struct Query9 {
    pub child: Child,
    kind: QueryKind,
    id: QueryId,
}

impl Class for Query9 {
    const KIND: Kind = Kind::Query;
    fn interfaces(&self) -> &'static [Guid] {
        &[IID_IDIRECT3DQUERY9]
    }
    fn public_changed(&self, alive: bool) {
        self.child.public_changed(alive);
    }
    fn destroy(&mut self) {
        let id = self.id;
        let _ = self
            .child
            .shared
            .with(|inner| inner.device.release_query(id).map_err(Refusal::from));
    }
}

impl super::DeviceChild for Query9 {
    fn child(&self) -> &Child {
        &self.child
    }
}

impl Query9 {
    /// `CreateQuery(kind, out)`: `D3DERR_NOTAVAILABLE` for a type this device does not
    /// answer (any number, as Windows: `test_query_support` asks 0 to 39); with `probe` (a
    /// NULL `out`) only whether it would.
    pub fn create(
        device: &Com<Device9>,
        kind: u32,
        probe: bool,
    ) -> CallResult<Option<*mut c_void>> {
        let not_available = |why: &str| match D3D9_TYPES.contains(&kind) {
            // A D3D9 type this device does not do (logged once).
            true => unsupported(D3DERR_NOTAVAILABLE, format!("D3DQUERYTYPE {kind}{why}")),
            false => fail(D3DERR_NOTAVAILABLE, format!("D3DQUERYTYPE {kind}")),
        };
        let query_kind = QueryKind::from_d3d(kind).ok_or_else(|| not_available(""))?;
        let id = device.data.shared.with(|inner| {
            if !inner.device.query_supported(query_kind) {
                return Err(not_available(" (the adapter has no timestamp queries)"));
            }
            match probe {
                true => Ok(None),
                false => Ok(Some(
                    inner
                        .device
                        .create_query(query_kind)
                        .map_err(Refusal::from)?,
                )),
            }
        })?;
        let Some(id) = id else {
            return Ok(None);
        };
        let query = Com::new(
            &VTBL as *const _ as *const c_void,
            Query9 {
                child: Child::new(device),
                kind: query_kind,
                id,
            },
            true,
        );
        Ok(Some(query as *mut c_void))
    }
}

/// The bytes `GetData` writes for a result (at most the caller's size of them): a DWORD or
/// BOOL result as 4 bytes, a UINT64 as 8. An occlusion count past a DWORD saturates, unless
/// the caller gives 8 bytes or more, which get the whole 64-bit count (Windows' drivers do
/// one or the other: `test_occlusion_query`'s large viewport).
fn result_bytes(kind: QueryKind, value: u64, size: u32) -> Vec<u8> {
    let bytes = match (kind, kind.data_size(), size) {
        (QueryKind::Occlusion, _, 8..) | (_, 8, _) => value.to_le_bytes().to_vec(),
        _ => (value.min(u64::from(u32::MAX)) as u32)
            .to_le_bytes()
            .to_vec(),
    };
    bytes[..bytes.len().min(size as usize)].to_vec()
}

type This = *mut Com<Query9>;

unknown_methods!(Query9, "IDirect3DQuery9");
child_methods!(Query9, "IDirect3DQuery9");

unsafe extern "C" fn get_type(this: This) -> u32 {
    entry_value("IDirect3DQuery9::GetType", 0, || {
        // SAFETY: checked live.
        Ok(unsafe { crate::com::this(this)? }.data.kind.to_d3d())
    })
}

unsafe extern "C" fn get_data_size(this: This) -> u32 {
    entry_value("IDirect3DQuery9::GetDataSize", 0, || {
        // SAFETY: checked live.
        Ok(unsafe { crate::com::this(this)? }.data.kind.data_size())
    })
}

unsafe extern "C" fn issue(this: This, flags: u32) -> HRESULT {
    entry("IDirect3DQuery9::Issue", || {
        // SAFETY: checked live.
        let object = unsafe { crate::com::this(this)? };
        let id = object.data.id;
        object.data.child.shared.with(|inner| {
            match flags {
                ISSUE_END => inner.device.issue_end(id),
                ISSUE_BEGIN => inner.device.issue_begin(id),
                other => return Err(invalid_call(format!("issue flags {other:#x}"))),
            }
            .map_err(Refusal::from)
        })
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
        if data.is_null() && size != 0 {
            // Windows crashes here (test_occlusion_query); DXVK refuses it.
            return Err(invalid_call(format!("a NULL buffer of {size} bytes")));
        }
        let id = object.data.id;
        let flush = flags & GETDATA_FLUSH != 0;
        let answer = object
            .data
            .child
            .shared
            .with(|inner| inner.device.query_data(id, flush).map_err(Refusal::from))?;
        let bytes = match answer {
            QueryData::NotIssued => vec![0xdd; size as usize],
            QueryData::Pending => {
                result = S_FALSE;
                return Ok(());
            }
            QueryData::Ready(value) => result_bytes(object.data.kind, value, size),
        };
        if !bytes.is_empty() {
            // SAFETY: non-null (checked above with size > 0), writable for `size` bytes per
            // the caller, and `bytes` is no longer than `size`.
            unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), data as *mut u8, bytes.len()) };
        }
        Ok(())
    });
    if hr == S_OK {
        result
    } else {
        hr
    }
}

static VTBL: IDirect3DQuery9Vtbl<Com<Query9>> = IDirect3DQuery9Vtbl {
    QueryInterface: query_interface,
    AddRef: add_ref,
    Release: release,
    GetDevice: get_device,
    GetType: get_type,
    GetDataSize: get_data_size,
    Issue: issue,
    GetData: get_data,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn get_data_writes_at_most_the_size_given() {
        let occlusion = |value, size| result_bytes(QueryKind::Occlusion, value, size);
        assert_eq!(occlusion(4096, 4), 4096u32.to_le_bytes());
        assert_eq!(occlusion(4096, 2), [0x00, 0x10]);
        assert_eq!(occlusion(4096, 0), [0u8; 0]);
        assert_eq!(occlusion(4096, 16), 4096u64.to_le_bytes());
        // Past a DWORD: saturated in 4 bytes, whole in 8.
        assert_eq!(occlusion(1 << 33, 4), u32::MAX.to_le_bytes());
        assert_eq!(occlusion(1 << 33, 8), (1u64 << 33).to_le_bytes());
        let freq = result_bytes(QueryKind::TimestampFreq, 1_000_000_000, 4);
        assert_eq!(freq, 1_000_000_000u32.to_le_bytes());
        assert_eq!(result_bytes(QueryKind::Event, 1, 16), 1u32.to_le_bytes());
    }
}
