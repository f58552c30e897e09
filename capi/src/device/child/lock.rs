//! Locks: the `RECT`s and `D3DBOX`es of `LockRect`, `LockBox` and the device's other calls
//! as the device's regions, a texture level's lock, and the `D3DLOCKED_RECT` /
//! `D3DLOCKED_BOX` a lock writes back (cleared when it fails).

use std::ffi::c_void;

use d3d9_backend::device::{LockFlags, Locked, Rect, TexelBox, TextureId};

use super::Shared;
use crate::com::read_in;
use crate::hresult::{invalid_call, CallResult, Refusal};
use crate::types::*;

/// Locks (face, level) of texture `id`: `region` in D3D9's memory.
pub fn lock_level(
    shared: &Shared,
    id: TextureId,
    (face, level): (u32, u32),
    region: Option<TexelBox>,
    flags: u32,
) -> CallResult<Locked> {
    shared.with(|inner| {
        inner
            .device
            .lock_texture(id, face, level, region, LockFlags(flags))
            .map_err(Refusal::from)
    })
}

/// Unlocks (face, level) of texture `id`.
pub fn unlock_level(shared: &Shared, id: TextureId, (face, level): (u32, u32)) -> CallResult {
    shared.with(|inner| {
        inner
            .device
            .unlock_texture(id, face, level)
            .map_err(Refusal::from)
    })
}

/// A `RECT` as the device's.
pub fn rect(r: RECT) -> Rect {
    Rect {
        left: r.left,
        top: r.top,
        right: r.right,
        bottom: r.bottom,
    }
}

/// An optional `RECT` pointer.
///
/// # Safety
/// `r` is null or readable.
pub unsafe fn opt_rect(r: *const RECT) -> CallResult<Option<Rect>> {
    if r.is_null() {
        Ok(None)
    } else {
        // SAFETY: non-null, per the caller readable.
        Ok(Some(rect(unsafe { read_in(r)? })))
    }
}

/// A `RECT` as a texel box of one slice (`None` for a NULL rect).
///
/// # Safety
/// `r` is null or readable.
pub unsafe fn rect_box(r: *const RECT) -> CallResult<Option<TexelBox>> {
    // SAFETY: per the caller.
    Ok(unsafe { opt_rect(r)? }.map(TexelBox::of_rect))
}

/// A `D3DBOX` pointer as a texel box (`None` for NULL).
///
/// # Safety
/// `b` is null or readable.
pub unsafe fn box_region(b: *const D3DBOX) -> CallResult<Option<TexelBox>> {
    if b.is_null() {
        return Ok(None);
    }
    // SAFETY: non-null, per the caller readable.
    let b = unsafe { read_in(b)? };
    Ok(Some(TexelBox {
        left: b.Left,
        top: b.Top,
        right: b.Right,
        bottom: b.Bottom,
        front: b.Front,
        back: b.Back,
    }))
}

/// Writes a lock's result into a `D3DLOCKED_RECT` (cleared on failure).
///
/// # Safety
/// `out` is null or writable.
pub unsafe fn write_locked_rect(
    out: *mut D3DLOCKED_RECT,
    result: CallResult<Locked>,
) -> CallResult {
    if out.is_null() {
        return Err(invalid_call("a NULL D3DLOCKED_RECT"));
    }
    let value = match &result {
        Ok(l) => D3DLOCKED_RECT {
            Pitch: l.row_pitch as i32,
            pBits: l.bits as *mut c_void,
        },
        Err(_) => D3DLOCKED_RECT {
            Pitch: 0,
            pBits: std::ptr::null_mut(),
        },
    };
    // SAFETY: non-null, per the caller writable.
    unsafe { out.write_unaligned(value) };
    result.map(|_| ())
}

/// Writes a lock's result into a `D3DLOCKED_BOX` (cleared on failure).
///
/// # Safety
/// `out` is null or writable.
pub unsafe fn write_locked_box(out: *mut D3DLOCKED_BOX, result: CallResult<Locked>) -> CallResult {
    if out.is_null() {
        return Err(invalid_call("a NULL D3DLOCKED_BOX"));
    }
    let value = match &result {
        Ok(l) => D3DLOCKED_BOX {
            RowPitch: l.row_pitch as i32,
            SlicePitch: l.slice_pitch as i32,
            pBits: l.bits as *mut c_void,
        },
        Err(_) => D3DLOCKED_BOX {
            RowPitch: 0,
            SlicePitch: 0,
            pBits: std::ptr::null_mut(),
        },
    };
    // SAFETY: non-null, per the caller writable.
    unsafe { out.write_unaligned(value) };
    result.map(|_| ())
}
