//! `--window [SCENE]`: one scene animated in a winit window, presented by the device as a
//! D3D9 application presents: `Present` each frame with `D3DPRESENT_INTERVAL_ONE` (vsync:
//! one frame per refresh of the window's monitor), and on `D3DERR_DEVICELOST` (the window was resized) the
//! scene's objects released, `Reset` with the window's new size, the objects made again.
//! Esc or closing the window quits.

use std::sync::Arc;
use std::time::Instant;

use d3d9_backend::device::{Device, DeviceError, Format, PresentInterval};
use d3d9_backend::{DeviceParams, Gpu};
use winit::application::ApplicationHandler;
use winit::event::{ElementState, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::keyboard::{Key, NamedKey};
use winit::window::{Window, WindowId};

use crate::error::DrawError;
use crate::program::Program;
use crate::scenes::Scene;

/// Why the windowed run stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum WindowError {
    #[error("the window system: {0}")]
    EventLoop(#[from] winit::error::EventLoopError),
    #[error("opening the window: {0}")]
    Os(#[from] winit::error::OsError),
    #[error("the GPU: {0}")]
    Gpu(#[from] d3d9_backend::GpuError),
    #[error("scene {scene:?}: {source}")]
    Draw {
        scene: &'static str,
        source: Box<DrawError>,
    },
}

/// What [`WindowOptions::after_last_frame`] is called with: the window and the device.
pub type AfterLastFrame = Box<dyn FnMut(&Window, &mut Device)>;

/// How the windowed run goes.
pub struct WindowOptions {
    /// Stop after this many presented frames (`None`: until Esc or the window closes).
    pub frames: Option<u64>,
    /// Draw every frame at time 0 (the gallery's picture) instead of animating.
    pub still: bool,
    /// Called after the last frame (with `frames`), with the window and the device.
    pub after_last_frame: Option<AfterLastFrame>,
}

/// Opens a window and animates `scene` in it. See the module documentation.
pub fn run(scene: &'static Scene, options: WindowOptions) -> Result<u64, WindowError> {
    let mut builder = EventLoop::builder();
    // Tests drive the loop from a test thread; winit allows it on X11 when asked.
    #[cfg(all(unix, not(target_os = "macos")))]
    winit::platform::x11::EventLoopBuilderExtX11::with_any_thread(&mut builder, true);
    let event_loop = builder.build()?;
    let gpu = Gpu::with_display(Box::new(event_loop.owned_display_handle()))?;
    let info = gpu.adapter_info();
    println!(
        "adapter: {} ({:?}, {:?})",
        info.name, info.backend, info.device_type
    );
    let mut app = App {
        scene,
        options,
        gpu: Some(gpu),
        running: None,
        error: None,
        start: Instant::now(),
        frames: 0,
    };
    event_loop.run_app(&mut app)?;
    match app.error {
        Some(e) => Err(e),
        None => Ok(app.frames),
    }
}

struct Running {
    window: Arc<Window>,
    device: Device,
    program: Box<dyn Program>,
}

struct App {
    scene: &'static Scene,
    options: WindowOptions,
    gpu: Option<Gpu>,
    running: Option<Running>,
    error: Option<WindowError>,
    start: Instant,
    frames: u64,
}

impl App {
    fn draw_error(&self, source: impl Into<DrawError>) -> WindowError {
        WindowError::Draw {
            scene: self.scene.name,
            source: Box::new(source.into()),
        }
    }

    fn open(&mut self, event_loop: &ActiveEventLoop) -> Result<(), WindowError> {
        let Some(gpu) = self.gpu.take() else {
            return Ok(());
        };
        let attributes = Window::default_attributes()
            .with_title(format!("d3d9-samples: {}", self.scene.name))
            .with_inner_size(winit::dpi::PhysicalSize::new(
                crate::draw::WIDTH,
                crate::draw::HEIGHT,
            ));
        let window = Arc::new(event_loop.create_window(attributes)?);
        let surface = gpu.create_surface(window.clone())?;
        let size = window.inner_size();
        let mut device = Device::with_gpu(
            gpu,
            DeviceParams {
                back_buffer: (size.width.max(1), size.height.max(1), Format::A8R8G8B8),
                ..DeviceParams::default()
            },
        )
        .map_err(|e| self.draw_error(e))?;
        device
            .set_window(
                None,
                surface,
                (size.width, size.height),
                PresentInterval::One,
            )
            .map_err(|e| self.draw_error(e))?;
        // D3DPRESENT_INTERVAL_ONE: one frame per refresh of the monitor the window is on.
        if let Some(hz) = window
            .current_monitor()
            .and_then(|m| m.refresh_rate_millihertz())
            .map(|mhz| mhz.div_ceil(1000))
        {
            device
                .set_refresh_rate(None, hz)
                .map_err(|e| self.draw_error(e))?;
        }
        let program = self
            .scene
            .create(&mut device)
            .map_err(|e| self.draw_error(e))?;
        window.request_redraw();
        self.running = Some(Running {
            window,
            device,
            program,
        });
        Ok(())
    }

    /// Draws and presents one frame; `Ok(true)` when it was presented.
    fn frame(&mut self) -> Result<bool, WindowError> {
        let t = match self.options.still {
            true => 0.0,
            false => self.start.elapsed().as_secs_f32(),
        };
        let scene = self.scene.name;
        let err = |source: DrawError| WindowError::Draw {
            scene,
            source: Box::new(source),
        };
        let Some(running) = self.running.as_mut() else {
            return Ok(false);
        };
        running.program.frame(&mut running.device, t).map_err(err)?;
        match running.device.present() {
            Ok(()) => Ok(true),
            Err(DeviceError::DeviceLost { .. }) => {
                // D3D9's lost-device dance: release DEFAULT resources, Reset, restore.
                let size = running.window.inner_size();
                if size.width == 0 || size.height == 0 {
                    return Ok(false);
                }
                running.program.release(&mut running.device).map_err(err)?;
                let present = d3d9_backend::device::PresentParams {
                    back_buffer: (size.width, size.height, Format::A8R8G8B8),
                    ..running.device.params().present()
                };
                running.device.reset(present).map_err(|e| err(e.into()))?;
                running.program = self.scene.create(&mut running.device).map_err(err)?;
                Ok(false)
            }
            Err(e) => Err(err(e.into())),
        }
    }

    fn fail(&mut self, event_loop: &ActiveEventLoop, error: WindowError) {
        self.error = Some(error);
        event_loop.exit();
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if let Err(e) = self.open(event_loop) {
            self.fail(event_loop, e);
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::KeyboardInput { event, .. }
                if event.state == ElementState::Pressed
                    && event.logical_key == Key::Named(NamedKey::Escape) =>
            {
                event_loop.exit()
            }
            WindowEvent::Resized(size) => {
                if let Some(running) = self.running.as_mut() {
                    let resized = running
                        .device
                        .window_resized(None, (size.width, size.height));
                    if let Err(e) = resized {
                        let e = self.draw_error(e);
                        self.fail(event_loop, e);
                        return;
                    }
                    running.window.request_redraw();
                }
            }
            WindowEvent::RedrawRequested => {
                match self.frame() {
                    Ok(true) => self.frames += 1,
                    Ok(false) => {}
                    Err(e) => return self.fail(event_loop, e),
                }
                let Some(running) = self.running.as_mut() else {
                    return;
                };
                if self.options.frames.is_some_and(|n| self.frames >= n) {
                    if let Some(after) = self.options.after_last_frame.as_mut() {
                        after(&running.window, &mut running.device);
                    }
                    event_loop.exit();
                    return;
                }
                running.window.request_redraw();
            }
            _ => {}
        }
    }
}
