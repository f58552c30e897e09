//! Real windows for the presentation tests: an Xvfb server the test starts itself (its own
//! display, chosen by Xvfb through `-displayfd`), an X11 window on it made through Xlib, its
//! handles as raw-window-handle gives them to wgpu, and the window's pixels read back from
//! the X server (`XGetImage`), which is what a screen shows.
//!
//! Xvfb must be installed (`apt-get install xvfb`; CI installs it). Where it is not, the
//! tests fail, unless `D3D9_ALLOW_NO_WINDOW=1` says this machine has no window system, when
//! they skip with a note.
#![allow(unsafe_code)] // Xlib through x11-dl, at this test boundary only.
#![allow(dead_code)]

use std::ffi::{c_void, CString};
use std::io::Read;
use std::process::{Child, Command, Stdio};
use std::ptr::NonNull;

use d3d9_backend::wgpu::rwh;
use x11_dl::xlib;

/// Environment variable: `1` lets window tests skip where Xvfb cannot be started.
pub const ALLOW_NO_WINDOW_ENV: &str = "D3D9_ALLOW_NO_WINDOW";

/// An Xvfb server, stopped when dropped.
pub struct XServer {
    child: Child,
    pub display: String,
}

impl XServer {
    /// Starts Xvfb on a free display. `None` (skip) only with `D3D9_ALLOW_NO_WINDOW=1`.
    pub fn start() -> Option<XServer> {
        match XServer::try_start() {
            Ok(server) => Some(server),
            Err(why) if std::env::var(ALLOW_NO_WINDOW_ENV).is_ok_and(|v| v == "1") => {
                eprintln!("skipping window test ({ALLOW_NO_WINDOW_ENV}=1): {why}");
                None
            }
            Err(why) => panic!(
                "cannot start Xvfb for a window test: {why} (apt-get install xvfb; \
                 {ALLOW_NO_WINDOW_ENV}=1 skips instead)"
            ),
        }
    }

    fn try_start() -> Result<XServer, String> {
        let mut child = Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                "640x480x24",
                "-nolisten",
                "tcp",
                // Without it the server resets when its last client leaves, and a window
                // opened in that moment fails to connect (tests open one after another).
                "-noreset",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("running Xvfb: {e}"))?;
        // Xvfb writes the display number, then a newline, once it accepts connections.
        let mut number = String::new();
        let mut out = child.stdout.take().ok_or("no Xvfb stdout")?;
        let mut byte = [0u8; 1];
        while out.read(&mut byte).map_err(|e| e.to_string())? == 1 && byte[0] != b'\n' {
            number.push(byte[0] as char);
        }
        if number.is_empty() {
            let _ = child.kill();
            return Err("Xvfb exited without a display".into());
        }
        Ok(XServer {
            child,
            display: format!(":{number}"),
        })
    }
}

impl Drop for XServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An Xlib connection with one mapped window.
pub struct X11Window {
    xlib: xlib::Xlib,
    display: *mut xlib::Display,
    screen: i32,
    pub window: u64,
}

impl X11Window {
    /// Opens `server`'s display and maps a `width` x `height` window on it.
    pub fn open(server: &XServer, width: u32, height: u32) -> X11Window {
        let xlib = xlib::Xlib::open().expect("libX11 (x11-dl)");
        let name = CString::new(server.display.clone()).expect("display name");
        // SAFETY: Xlib calls on a display this value owns until dropped.
        unsafe {
            let display = (xlib.XOpenDisplay)(name.as_ptr());
            assert!(!display.is_null(), "XOpenDisplay({})", server.display);
            let screen = (xlib.XDefaultScreen)(display);
            let root = (xlib.XRootWindow)(display, screen);
            let window = (xlib.XCreateSimpleWindow)(display, root, 0, 0, width, height, 0, 0, 0);
            (xlib.XMapWindow)(display, window);
            (xlib.XSync)(display, 0);
            X11Window {
                xlib,
                display,
                screen,
                window,
            }
        }
    }

    /// The display connection, for `Gpu::with_display`.
    pub fn display_handle(&self) -> Handles {
        Handles {
            display: self.raw_display(),
            window: None,
        }
    }

    /// The display and window, for `Gpu::create_surface`.
    pub fn handles(&self) -> Handles {
        Handles {
            display: self.raw_display(),
            window: Some(rwh::RawWindowHandle::Xlib(rwh::XlibWindowHandle::new(
                self.window,
            ))),
        }
    }

    fn raw_display(&self) -> rwh::RawDisplayHandle {
        rwh::RawDisplayHandle::Xlib(rwh::XlibDisplayHandle::new(
            NonNull::new(self.display.cast::<c_void>()),
            self.screen,
        ))
    }

    /// Resizes the window (as a user dragging its border would).
    pub fn resize(&self, width: u32, height: u32) {
        // SAFETY: the window and display are this value's.
        unsafe {
            (self.xlib.XResizeWindow)(self.display, self.window, width, height);
            (self.xlib.XSync)(self.display, 0);
        }
    }

    /// The window's pixels as the X server holds them, 0x00RRGGBB, row by row.
    pub fn capture(&self, width: u32, height: u32) -> Vec<u32> {
        // SAFETY: XGetImage of this window; the image is read in bounds and destroyed.
        unsafe {
            (self.xlib.XSync)(self.display, 0);
            let image = (self.xlib.XGetImage)(
                self.display,
                self.window,
                0,
                0,
                width,
                height,
                !0,
                xlib::ZPixmap,
            );
            assert!(!image.is_null(), "XGetImage");
            let mut pixels = Vec::with_capacity((width * height) as usize);
            for y in 0..height as i32 {
                for x in 0..width as i32 {
                    pixels.push(((self.xlib.XGetPixel)(image, x, y) & 0x00ff_ffff) as u32);
                }
            }
            (self.xlib.XDestroyImage)(image);
            pixels
        }
    }
}

impl Drop for X11Window {
    fn drop(&mut self) {
        // SAFETY: the display this value opened.
        unsafe {
            (self.xlib.XCloseDisplay)(self.display);
        }
    }
}

/// The pixels of a window another part of the process made (winit's), on the X display
/// `display_name` (an [`XServer`]'s), 0x00RRGGBB row by row.
pub fn capture_window(display_name: &str, window: u64, width: u32, height: u32) -> Vec<u32> {
    let xlib = xlib::Xlib::open().expect("libX11 (x11-dl)");
    let name = CString::new(display_name).expect("display name");
    // SAFETY: a connection of this function's own, closed when `capture` drops.
    let display = unsafe { (xlib.XOpenDisplay)(name.as_ptr()) };
    assert!(!display.is_null(), "XOpenDisplay({display_name})");
    let capture = X11Window {
        xlib,
        display,
        screen: 0,
        window,
    };
    capture.capture(width, height)
}

/// Raw display (and window) handles as wgpu takes them.
#[derive(Debug, Clone, Copy)]
pub struct Handles {
    display: rwh::RawDisplayHandle,
    window: Option<rwh::RawWindowHandle>,
}

// SAFETY: Xlib handles, used by wgpu while the test's window lives (the test drops the
// device, and with it the surface, before the window).
unsafe impl Send for Handles {}
unsafe impl Sync for Handles {}

impl rwh::HasDisplayHandle for Handles {
    fn display_handle(&self) -> Result<rwh::DisplayHandle<'_>, rwh::HandleError> {
        // SAFETY: see `Send`.
        Ok(unsafe { rwh::DisplayHandle::borrow_raw(self.display) })
    }
}

impl rwh::HasWindowHandle for Handles {
    fn window_handle(&self) -> Result<rwh::WindowHandle<'_>, rwh::HandleError> {
        let window = self.window.ok_or(rwh::HandleError::Unavailable)?;
        // SAFETY: see `Send`.
        Ok(unsafe { rwh::WindowHandle::borrow_raw(window) })
    }
}
