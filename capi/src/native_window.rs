//! Real windows handed to libd3d9 by native Linux programs (`d3d9_native.h`): a
//! `D3D9_NATIVE_WINDOW` (an Xlib, XCB or Wayland window, described by the program or taken
//! from SDL's window properties) registered under an `HWND` that `CreateDevice`,
//! `CreateAdditionalSwapChain`'s and `Reset`'s present parameters name. A device on such a
//! window presents into it (the backend's `window` module); any other `HWND` stays headless.
//!
//! The registry keeps each description with the client area the program last reported
//! (`D3D9NativeWindowResized`); `Present` reads it, so a resize loses the device until
//! `Reset` as the backend defines.

use std::collections::HashMap;
use std::ffi::c_void;
use std::ptr::NonNull;
use std::sync::Mutex;

use d3d9_backend::wgpu::rwh;

use crate::hresult::{fail, invalid_call, CallResult, D3DERR_INVALIDCALL, D3D_OK, HRESULT};

/// `D3D9_NATIVE_WINDOW_XLIB`, `_XCB`, `_WAYLAND`.
const XLIB: u32 = 1;
const XCB: u32 = 2;
const WAYLAND: u32 = 3;

/// `D3D9_NATIVE_WINDOW` as `d3d9_native.h` declares it.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
#[allow(non_snake_case)]
pub struct D3D9_NATIVE_WINDOW {
    pub Type: u32,
    pub Display: *mut c_void,
    pub Surface: *mut c_void,
    pub Window: std::ffi::c_ulong,
    pub Screen: i32,
    pub Width: u32,
    pub Height: u32,
}

/// A registered window: its raw handles and client area.
#[derive(Clone, Copy, Debug)]
pub struct NativeWindow {
    display: rwh::RawDisplayHandle,
    window: rwh::RawWindowHandle,
    pub size: (u32, u32),
}

// SAFETY: raw handles of the program's window, which by d3d9_native.h's contract outlives
// every device and swap chain made on it; wgpu uses them from the device's thread only.
unsafe impl Send for NativeWindow {}
unsafe impl Sync for NativeWindow {}

impl rwh::HasDisplayHandle for NativeWindow {
    fn display_handle(&self) -> Result<rwh::DisplayHandle<'_>, rwh::HandleError> {
        // SAFETY: see `Send`.
        Ok(unsafe { rwh::DisplayHandle::borrow_raw(self.display) })
    }
}

impl rwh::HasWindowHandle for NativeWindow {
    fn window_handle(&self) -> Result<rwh::WindowHandle<'_>, rwh::HandleError> {
        // SAFETY: see `Send`.
        Ok(unsafe { rwh::WindowHandle::borrow_raw(self.window) })
    }
}

/// The display connection alone, for the instance the device's GPU is opened on.
#[derive(Clone, Copy, Debug)]
pub struct NativeDisplay(rwh::RawDisplayHandle);

// SAFETY: as `NativeWindow`.
unsafe impl Send for NativeDisplay {}
unsafe impl Sync for NativeDisplay {}

impl rwh::HasDisplayHandle for NativeDisplay {
    fn display_handle(&self) -> Result<rwh::DisplayHandle<'_>, rwh::HandleError> {
        // SAFETY: see `NativeWindow`'s `Send`.
        Ok(unsafe { rwh::DisplayHandle::borrow_raw(self.0) })
    }
}

impl NativeWindow {
    fn from_description(w: &D3D9_NATIVE_WINDOW) -> CallResult<NativeWindow> {
        let display = NonNull::new(w.Display);
        let (display, window) = match w.Type {
            XLIB => {
                if w.Window == 0 {
                    return Err(invalid_call("an Xlib window of 0"));
                }
                (
                    rwh::RawDisplayHandle::Xlib(rwh::XlibDisplayHandle::new(display, w.Screen)),
                    rwh::RawWindowHandle::Xlib(rwh::XlibWindowHandle::new(w.Window)),
                )
            }
            XCB => {
                let id = u32::try_from(w.Window)
                    .ok()
                    .and_then(std::num::NonZeroU32::new)
                    .ok_or_else(|| invalid_call("an XCB window of 0 or past 32 bits"))?;
                (
                    rwh::RawDisplayHandle::Xcb(rwh::XcbDisplayHandle::new(display, w.Screen)),
                    rwh::RawWindowHandle::Xcb(rwh::XcbWindowHandle::new(id)),
                )
            }
            WAYLAND => {
                let display =
                    display.ok_or_else(|| invalid_call("a Wayland window without wl_display"))?;
                let surface = NonNull::new(w.Surface)
                    .ok_or_else(|| invalid_call("a Wayland window without wl_surface"))?;
                (
                    rwh::RawDisplayHandle::Wayland(rwh::WaylandDisplayHandle::new(display)),
                    rwh::RawWindowHandle::Wayland(rwh::WaylandWindowHandle::new(surface)),
                )
            }
            other => return Err(invalid_call(format!("D3D9_NATIVE_WINDOW type {other}"))),
        };
        Ok(NativeWindow {
            display,
            window,
            size: (w.Width, w.Height),
        })
    }

    /// The display connection, for `Gpu::with_display`.
    pub fn display(&self) -> NativeDisplay {
        NativeDisplay(self.display)
    }
}

/// Registered windows by `HWND` (the address of their boxed entry, never a small made-up
/// handle).
static WINDOWS: Mutex<Option<HashMap<usize, Box<NativeWindow>>>> = Mutex::new(None);

fn with_windows<T>(f: impl FnOnce(&mut HashMap<usize, Box<NativeWindow>>) -> T) -> T {
    let mut windows = WINDOWS.lock().unwrap_or_else(|e| e.into_inner());
    f(windows.get_or_insert_with(HashMap::new))
}

/// The registered window `hwnd` names, if any.
pub fn lookup(hwnd: *mut c_void) -> Option<NativeWindow> {
    with_windows(|w| w.get(&(hwnd as usize)).map(|b| **b))
}

/// `D3D9NativeWindowCreate`: registers a window; returns its `HWND`, or NULL for a
/// description that names no window.
///
/// # Safety
/// `window` is null or points to a readable `D3D9_NATIVE_WINDOW`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn D3D9NativeWindowCreate(window: *const D3D9_NATIVE_WINDOW) -> *mut c_void {
    std::panic::catch_unwind(|| {
        if window.is_null() {
            return std::ptr::null_mut();
        }
        // SAFETY: non-null, readable per the caller.
        let description = unsafe { window.read_unaligned() };
        match NativeWindow::from_description(&description) {
            Ok(native) => {
                let entry = Box::new(native);
                let hwnd = &*entry as *const NativeWindow as *mut c_void;
                with_windows(|w| w.insert(hwnd as usize, entry));
                hwnd
            }
            Err(refusal) => {
                crate::hresult::report("D3D9NativeWindowCreate", &refusal);
                std::ptr::null_mut()
            }
        }
    })
    .unwrap_or(std::ptr::null_mut())
}

/// `D3D9NativeWindowResized`: the window's new client area.
#[unsafe(no_mangle)]
pub extern "C" fn D3D9NativeWindowResized(hwnd: *mut c_void, width: u32, height: u32) -> HRESULT {
    with_windows(|w| match w.get_mut(&(hwnd as usize)) {
        Some(entry) => {
            entry.size = (width, height);
            D3D_OK
        }
        None => D3DERR_INVALIDCALL,
    })
}

/// `D3D9NativeWindowDestroy`: forgets a window (devices made on it must be released first).
#[unsafe(no_mangle)]
pub extern "C" fn D3D9NativeWindowDestroy(hwnd: *mut c_void) -> HRESULT {
    with_windows(|w| match w.remove(&(hwnd as usize)) {
        Some(_) => D3D_OK,
        None => D3DERR_INVALIDCALL,
    })
}

/// `D3DPRESENT_PARAMETERS::PresentationInterval` of a windowed swap chain: DEFAULT and ONE,
/// IMMEDIATE (what the caps report); TWO to FOUR are refused as Windows refuses intervals
/// its caps lack.
pub fn interval(value: u32) -> CallResult<d3d9_backend::device::PresentInterval> {
    use d3d9_backend::device::PresentInterval;
    match value {
        0 | 1 => Ok(PresentInterval::One),
        0x8000_0000 => Ok(PresentInterval::Immediate),
        other => Err(fail(
            D3DERR_INVALIDCALL,
            format!("PresentationInterval {other:#x} (the caps report ONE and IMMEDIATE)"),
        )),
    }
}

/// The registered window present parameters name (`hDeviceWindow`, else the focus window),
/// with a back-buffer width or height of 0 taken from its client area, as Windows takes it
/// from the window's.
pub fn complete_for_window(
    p: &mut crate::types::D3DPRESENT_PARAMETERS,
    focus: *mut c_void,
) -> Option<NativeWindow> {
    let hwnd = if p.hDeviceWindow.is_null() {
        focus
    } else {
        p.hDeviceWindow
    };
    let window = lookup(hwnd)?;
    let (width, height) = window.size;
    if p.BackBufferWidth == 0 && width > 0 {
        p.BackBufferWidth = width;
    }
    if p.BackBufferHeight == 0 && height > 0 {
        p.BackBufferHeight = height;
    }
    Some(window)
}

/// A device on `window`'s display presenting into it: the GPU opened on the display
/// connection, the implicit swap chain given the window's surface.
pub fn windowed_device(
    params: d3d9_backend::DeviceParams,
    window: &NativeWindow,
    interval: d3d9_backend::device::PresentInterval,
) -> CallResult<d3d9_backend::Device> {
    use d3d9_backend::device::DeviceError;
    let gpu_error = |source| {
        crate::hresult::Refusal::from(DeviceError::Gpu {
            call: "CreateDevice",
            source,
        })
    };
    let gpu = d3d9_backend::Gpu::with_display(Box::new(window.display())).map_err(gpu_error)?;
    let surface = gpu.create_surface(*window).map_err(gpu_error)?;
    let (width, height, _) = params.back_buffer;
    let size = match window.size {
        (0, _) | (_, 0) => (width, height),
        size => size,
    };
    let mut device = d3d9_backend::Device::with_gpu(gpu, params)?;
    device.set_window(None, surface, size, interval)?;
    Ok(device)
}

/// Makes additional swap chain `chain` of `device` present into `window` (a surface made on
/// the device's GPU).
pub fn attach(
    device: &mut d3d9_backend::Device,
    chain: d3d9_backend::device::SwapChainId,
    window: &NativeWindow,
    interval: d3d9_backend::device::PresentInterval,
) -> CallResult<()> {
    use d3d9_backend::device::DeviceError;
    let surface = device.gpu().create_surface(*window).map_err(|source| {
        crate::hresult::Refusal::from(DeviceError::Gpu {
            call: "CreateAdditionalSwapChain",
            source,
        })
    })?;
    let back = device
        .swap_chain_back_buffers(chain)
        .and_then(|b| b.first().copied())
        .and_then(|b| device.surface_desc(b));
    let size = match (window.size, back) {
        ((0, _) | (_, 0), Some((width, height, _))) => (width, height),
        (size, _) => size,
    };
    device.set_window(Some(chain), surface, size, interval)?;
    Ok(())
}
