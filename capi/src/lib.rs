//! libd3d9: `Direct3DCreate9` and the Direct3D 9 COM interfaces over
//! `d3d9_backend::device::Device`, for C and C++ programs written against `<d3d9.h>`
//! (Debian's mingw-w64 headers with this crate's `include/` for the Windows types).
//!
//! - `com`: the object model (two reference counts, live-object checks, `catch_unwind` at
//!   every entry point), `hresult`: D3D9's results and logging (`D3D9_LOG` / `RUST_LOG`).
//! - `vtbl` + `types` + `guid`: the header's vtables, structures and interface ids.
//! - `adapter`: the adapter and display mode; `direct3d`: `IDirect3D9` (formats, caps in
//!   `caps`, `CreateDevice`).
//! - `device`: `IDirect3DDevice9`, over its children (`device::child`: what every child
//!   shares, each child interface, and `state`: every state-setting call as a value).
//!
//! Layers, lowest first: the object model and header types; `adapter`; the device's
//! children; the device; `IDirect3D9`.

use std::ffi::c_void;

mod adapter;
mod caps;
pub mod com;
mod device;
mod direct3d;
pub mod guid;
pub mod hresult;
pub mod native_window;
pub mod types;
pub mod vtbl;

/// Logging from `D3D9_LOG` (else `RUST_LOG`), set up once.
fn init_logging() {
    let filter = std::env::var("D3D9_LOG")
        .or_else(|_| std::env::var("RUST_LOG"))
        .unwrap_or_else(|_| "warn".into());
    let _ = env_logger::Builder::new()
        .parse_filters(&filter)
        .format_timestamp(None)
        .try_init();
}

/// `Direct3DCreate9(D3D_SDK_VERSION)`: an `IDirect3D9` with one reference, or NULL.
#[unsafe(no_mangle)]
pub extern "C" fn Direct3DCreate9(sdk_version: u32) -> *mut c_void {
    init_logging();
    std::panic::catch_unwind(|| direct3d::create(sdk_version)).unwrap_or(std::ptr::null_mut())
}

/// `Direct3DCreate9Ex`: D3D9Ex is not implemented; `D3DERR_NOTAVAILABLE`, as Windows answers
/// where D3D9Ex does not exist.
///
/// # Safety
/// `out` is null or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn Direct3DCreate9Ex(
    _sdk_version: u32,
    out: *mut *mut c_void,
) -> hresult::HRESULT {
    init_logging();
    if !out.is_null() {
        // SAFETY: non-null, per the caller writable.
        unsafe { out.write_unaligned(std::ptr::null_mut()) };
    }
    hresult::report(
        "Direct3DCreate9Ex",
        &hresult::unsupported(hresult::D3DERR_NOTAVAILABLE, "Direct3D 9Ex"),
    )
}

/// How many COM objects of this library are alive (for tests: a program that released
/// everything leaves none).
#[unsafe(no_mangle)]
pub extern "C" fn D3D9NativeLiveObjects() -> u32 {
    com::live_objects() as u32
}
