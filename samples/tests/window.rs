//! `--window`: a scene drawn by the windowed path (winit window, the device presenting into
//! it with vsync) under an Xvfb server this test starts, captured from the X server after a
//! few frames, matches the headless gallery picture of the same frame (time 0). Tolerance:
//! at most 1 in any channel of any pixel (two GPU instances rasterise the same draw; on
//! lavapipe they agree exactly). Fails without Xvfb unless `D3D9_ALLOW_NO_WINDOW=1`, and
//! without an adapter unless `D3D9_ALLOW_NO_GPU=1`.

#![allow(clippy::panic)]

#[path = "../../backend/tests/x11_window/mod.rs"]
mod x11_window;

use std::sync::{Arc, Mutex};

use d3d9_backend::wgpu::rwh::{HasWindowHandle, RawWindowHandle};
use d3d9_backend::Gpu;
use d3d9_samples::window::{run, WindowOptions};
use d3d9_samples::{render_scene, SCENES};

#[test]
fn gpu_window_frames_match_the_headless_gallery() {
    let Some(gpu) = Gpu::for_tests().unwrap_or_else(|e| panic!("{e}")) else {
        return;
    };
    let Some(server) = x11_window::XServer::start() else {
        return;
    };
    // winit opens the display DISPLAY names; this test binary has no other test.
    std::env::set_var("DISPLAY", &server.display);
    // winit makes one event loop per process: one scene (the lit, rotated cube).
    {
        let name = "lit_cube";
        let scene = SCENES.iter().find(|s| s.name == name).expect("scene");
        let headless = render_scene(&gpu, scene).unwrap_or_else(|e| panic!("{e}"));
        let expected: Vec<u32> = headless
            .data
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]) & 0x00ff_ffff)
            .collect();
        let captured = Arc::new(Mutex::new(None));
        let into = captured.clone();
        let display = server.display.clone();
        let options = WindowOptions {
            frames: Some(3),
            still: true,
            after_last_frame: Some(Box::new(move |window, _device| {
                let size = window.inner_size();
                let id = match window.window_handle().map(|h| h.as_raw()) {
                    Ok(RawWindowHandle::Xlib(h)) => h.window,
                    Ok(RawWindowHandle::Xcb(h)) => u64::from(h.window.get()),
                    other => panic!("not an X11 window: {other:?}"),
                };
                let pixels = x11_window::capture_window(&display, id, size.width, size.height);
                *into.lock().unwrap_or_else(|e| e.into_inner()) =
                    Some((size.width, size.height, pixels));
            })),
        };
        let frames = run(scene, options).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(frames, 3, "{name}");
        let (width, height, pixels) = captured
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .unwrap_or_else(|| panic!("{name}: no capture"));
        assert_eq!((width, height), (headless.width, headless.height), "{name}");
        let off = pixels
            .iter()
            .zip(&expected)
            .filter(|(a, b)| {
                (0..3).any(|i| ((**a >> (8 * i)) & 0xff).abs_diff((**b >> (8 * i)) & 0xff) > 1)
            })
            .count();
        assert_eq!(
            off, 0,
            "{name}: {off} window pixels differ from the gallery's by more than 1"
        );
    }
}
