//! Presenting into a window: a swap chain whose frames `Present` also shows on a
//! `wgpu::Surface` (made by [`Gpu::create_surface`](crate::Gpu::create_surface) from a
//! raw-window-handle window: winit's, or the C ABI's native window description).
//!
//! - `Present` does what it does headless (the back buffer becomes the front buffer, flipping
//!   with several), then draws the front buffer over the window's surface texture in one
//!   pass, stretched to the window's client area as D3D9 stretches a windowed back buffer
//!   (point sampling: each window pixel takes the back-buffer texel it falls in, so a window
//!   of the back buffer's size shows its texels exactly). The pass also converts: the
//!   surface keeps one format of its own (the back buffer's where the surface has it,
//!   else its first non-sRGB format, else an sRGB one viewed without sRGB), so
//!   X8R8G8B8, A8R8G8B8, A2R10G10B10 and R5G6B5 back buffers all show, alpha ignored.
//! - `D3DPRESENT_INTERVAL_ONE` (and `_DEFAULT`) present with `PresentMode::Fifo` (vsync:
//!   acquiring the next surface texture waits for the display) and at most one frame per
//!   refresh where the window system has no vertical blank (`vsync`); `_IMMEDIATE` with
//!   `Immediate`, else `Mailbox`, else `Fifo` where the surface has neither.
//! - A resized window (told by [`Device::window_resized`], or a surface wgpu reports
//!   outdated) or a lost surface makes `Present` answer `D3DERR_DEVICELOST` and draw
//!   nothing; [`Device::test_cooperative_level`] then answers `D3DERR_DEVICENOTRESET`, and
//!   `Reset` configures the surface again at the window's size (with its new back buffers,
//!   stretched over it). A window of no area (minimised) shows nothing and loses nothing.
//!
//! Headless stays the default: a swap chain with no window presents only to its front buffer.

use super::error::{invalid, DeviceError};
use super::objects::{SurfaceId, SwapChainId};
use super::state::Rect;
use super::vsync::{FramePacer, DISPLAY_REFRESH_HZ};
use super::Device;
use crate::gpu::{pass, Gpu};

/// `D3DPRESENT_PARAMETERS::PresentationInterval`, as far as a wgpu surface can honour it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PresentInterval {
    /// `D3DPRESENT_INTERVAL_DEFAULT` / `_ONE`: one frame per vertical blank (`Fifo`).
    #[default]
    One,
    /// `D3DPRESENT_INTERVAL_IMMEDIATE`: no wait (`Immediate`, else `Mailbox`, else `Fifo`).
    Immediate,
}

impl PresentInterval {
    /// The present mode for this interval among the surface's `modes`.
    pub fn present_mode(self, modes: &[wgpu::PresentMode]) -> wgpu::PresentMode {
        let wanted: &[wgpu::PresentMode] = match self {
            PresentInterval::One => &[wgpu::PresentMode::Fifo],
            PresentInterval::Immediate => {
                &[wgpu::PresentMode::Immediate, wgpu::PresentMode::Mailbox]
            }
        };
        wanted
            .iter()
            .copied()
            .find(|m| modes.contains(m))
            .unwrap_or(wgpu::PresentMode::Fifo)
    }
}

/// The window a swap chain presents to.
#[derive(Debug)]
pub(crate) struct WindowTarget {
    surface: wgpu::Surface<'static>,
    interval: PresentInterval,
    /// `D3DPRESENT_INTERVAL_ONE`'s refresh clock.
    pacer: FramePacer,
    /// The window's client area as last told.
    window_size: (u32, u32),
    /// The surface's format, and the format its textures are drawn through.
    format: wgpu::TextureFormat,
    view_format: wgpu::TextureFormat,
    /// The configuration in use; `None` while the window has no area.
    config: Option<wgpu::SurfaceConfiguration>,
    /// Why the window needs a `Reset`, from the `Present` that found it.
    lost: Option<String>,
    pipeline: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
    /// What the window shows, at its configured size: `Present` draws into it (all of it, or
    /// a destination rectangle, the rest kept as the last frame left it), then shows it.
    image: Option<wgpu::TextureView>,
    /// The rectangles of the draw into `image` (source texels, destination pixels).
    rects_uniform: wgpu::Buffer,
    /// The same for showing `image` whole over the surface texture.
    whole_uniform: wgpu::Buffer,
}

/// `x, y, width, height` of a source and a destination rectangle, as the present pass reads them.
fn rects_data(source: (u32, u32, u32, u32), dest: (u32, u32, u32, u32)) -> [f32; 8] {
    let (s, d) = (source, dest);
    [s.0, s.1, s.2, s.3, d.0, d.1, d.2, d.3].map(|v| v as f32)
}

const PRESENT_WGSL: &str = r#"
struct Rects {
    // x, y, width, height: the source rectangle in texels, the destination one in pixels.
    source: vec4<f32>,
    dest: vec4<f32>,
}

@group(0) @binding(0) var frame: texture_2d<f32>;
@group(0) @binding(1) var<uniform> rects: Rects;

@vertex
fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    let corner = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4<f32>(corner * 2.0 - 1.0, 0.0, 1.0);
}

@fragment
fn fs(@builtin(position) p: vec4<f32>) -> @location(0) vec4<f32> {
    // The source texel this pixel of the destination rectangle falls in (point sampling).
    let at = rects.source.xy + (p.xy - rects.dest.xy) * rects.source.zw / rects.dest.zw;
    let first = vec2<i32>(rects.source.xy);
    let last = vec2<i32>(rects.source.xy + rects.source.zw) - 1;
    let texel = clamp(vec2<i32>(floor(at)), first, last);
    return vec4<f32>(textureLoad(frame, texel, 0).rgb, 1.0);
}
"#;

impl WindowTarget {
    fn new(
        gpu: &Gpu,
        surface: wgpu::Surface<'static>,
        window_size: (u32, u32),
        interval: PresentInterval,
        back_buffer: wgpu::TextureFormat,
    ) -> Result<WindowTarget, DeviceError> {
        let call = "CreateDevice";
        let caps = surface.get_capabilities(gpu.adapter());
        let format = choose_format(&caps.formats, back_buffer)
            .ok_or_else(|| invalid(call, "the window's surface has no format on this adapter"))?;
        let view_format = format.remove_srgb_suffix();
        let device = gpu.device();
        let (pipeline, layout) = gpu
            .capture("building the present pass", || {
                Ok(build_pipeline(gpu, view_format))
            })
            .map_err(Device::gpu_error(call))?;
        let uniform = |label| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: 32,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        };
        let mut target = WindowTarget {
            surface,
            interval,
            pacer: FramePacer::new(DISPLAY_REFRESH_HZ),
            window_size,
            format,
            view_format,
            config: None,
            lost: None,
            pipeline,
            layout,
            image: None,
            rects_uniform: uniform("Present: rectangles"),
            whole_uniform: uniform("Present: the window whole"),
        };
        target.configure(gpu, call)?;
        Ok(target)
    }

    /// Configures the surface at the window's size (nothing while it has no area).
    fn configure(&mut self, gpu: &Gpu, call: &'static str) -> Result<(), DeviceError> {
        let (width, height) = self.window_size;
        self.lost = None;
        if width == 0 || height == 0 {
            self.config = None;
            self.image = None;
            return Ok(());
        }
        let caps = self.surface.get_capabilities(gpu.adapter());
        let alpha_mode = if caps.alpha_modes.contains(&wgpu::CompositeAlphaMode::Opaque) {
            wgpu::CompositeAlphaMode::Opaque
        } else {
            wgpu::CompositeAlphaMode::Auto
        };
        let mut config = self
            .surface
            .get_default_config(gpu.adapter(), width, height)
            .ok_or_else(|| invalid(call, "the window's surface cannot be configured"))?;
        config.usage = wgpu::TextureUsages::RENDER_ATTACHMENT;
        config.format = self.format;
        config.present_mode = self.interval.present_mode(&caps.present_modes);
        config.alpha_mode = alpha_mode;
        config.view_formats = match self.view_format == self.format {
            true => Vec::new(),
            false => vec![self.view_format],
        };
        let surface = &self.surface;
        gpu.capture("configuring the window's surface", || {
            surface.configure(gpu.device(), &config);
            Ok(())
        })
        .map_err(Device::gpu_error(call))?;
        let whole = rects_data((0, 0, width, height), (0, 0, width, height));
        gpu.queue()
            .write_buffer(&self.whole_uniform, 0, bytemuck::cast_slice(&whole));
        // (A new texture reads as zero: black until the first frame.)
        let image = gpu.device().create_texture(&wgpu::TextureDescriptor {
            label: Some("Present: the window's image"),
            size: wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: self.view_format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        });
        self.image = Some(image.create_view(&Default::default()));
        self.config = Some(config);
        Ok(())
    }

    /// `D3DERR_DEVICELOST` from `Present` when the window was resized or lost.
    fn check_lost(&mut self) -> Result<(), DeviceError> {
        if self.lost.is_none() {
            if let Some(config) = &self.config {
                if (config.width, config.height) != self.window_size {
                    self.lost = Some(format!(
                        "the window was resized from {}x{} to {}x{}",
                        config.width, config.height, self.window_size.0, self.window_size.1
                    ));
                }
            } else if self.window_size.0 > 0 && self.window_size.1 > 0 {
                self.lost = Some("the window got an area again".to_owned());
            }
        }
        match &self.lost {
            Some(reason) => Err(lost(reason)),
            None => Ok(()),
        }
    }

    /// Draws `frame` (a `frame_size` image: the front buffer, or with rectangles the back
    /// buffer) into the window's image and presents that: rectangle `source` of the frame
    /// (`None`: all of it) stretched over rectangle `dest` of the client area (`None`: all of
    /// it), each clipped to its surface first; the rest of the window keeps what it showed.
    fn show(
        &mut self,
        gpu: &Gpu,
        frame: &wgpu::TextureView,
        frame_size: (u32, u32),
        source: Option<Rect>,
        dest: Option<Rect>,
    ) -> Result<(), DeviceError> {
        let call = "Present";
        let (Some(config), Some(image)) = (&self.config, &self.image) else {
            return Ok(());
        };
        let (width, height) = (config.width, config.height);
        let whole = |(w, h): (u32, u32)| Rect {
            left: 0,
            top: 0,
            right: i32::try_from(w).unwrap_or(i32::MAX),
            bottom: i32::try_from(h).unwrap_or(i32::MAX),
        };
        let src = source
            .unwrap_or(whole(frame_size))
            .clip(frame_size.0, frame_size.1);
        let dst = dest.unwrap_or(whole((width, height))).clip(width, height);
        let rects = src.zip(dst);
        if let Some((src, dst)) = rects {
            let data = rects_data(src, dst);
            gpu.queue()
                .write_buffer(&self.rects_uniform, 0, bytemuck::cast_slice(&data));
        }
        if self.interval == PresentInterval::One && config.present_mode == wgpu::PresentMode::Fifo {
            self.pacer.wait();
        }
        let texture = match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t)
            | wgpu::CurrentSurfaceTexture::Suboptimal(t) => t,
            // Nothing to show now; D3D9's windowed Present succeeds.
            wgpu::CurrentSurfaceTexture::Timeout | wgpu::CurrentSurfaceTexture::Occluded => {
                return Ok(())
            }
            wgpu::CurrentSurfaceTexture::Outdated => {
                return Err(self.lose("the window's surface is out of date (resized)"))
            }
            wgpu::CurrentSurfaceTexture::Lost => {
                return Err(self.lose("the window's surface was lost"))
            }
            wgpu::CurrentSurfaceTexture::Validation => {
                return Err(invalid(call, "wgpu refused the window's surface texture"))
            }
        };
        let device = gpu.device();
        let target = texture.texture.create_view(&wgpu::TextureViewDescriptor {
            format: Some(self.view_format),
            ..Default::default()
        });
        gpu.capture("presenting to the window", || {
            let bind_group = |view: &wgpu::TextureView, uniform: &wgpu::Buffer| {
                device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("Present"),
                    layout: &self.layout,
                    entries: &[
                        wgpu::BindGroupEntry {
                            binding: 0,
                            resource: wgpu::BindingResource::TextureView(view),
                        },
                        wgpu::BindGroupEntry {
                            binding: 1,
                            resource: uniform.as_entire_binding(),
                        },
                    ],
                })
            };
            let mut encoder = device.create_command_encoder(&Default::default());
            let mut draw = |view: &wgpu::TextureView,
                            load: wgpu::LoadOp<wgpu::Color>,
                            bind_group: &wgpu::BindGroup,
                            scissor: (u32, u32, u32, u32)| {
                let attachment = [Some(pass::color_attachment(view, load))];
                let mut pass = pass::begin(&mut encoder, "Present", &attachment, None);
                pass.set_pipeline(&self.pipeline);
                pass.set_bind_group(0, bind_group, &[]);
                pass.set_scissor_rect(scissor.0, scissor.1, scissor.2, scissor.3);
                pass.draw(0..3, 0..1);
            };
            if let Some((_, dst)) = rects {
                let frame_group = bind_group(frame, &self.rects_uniform);
                draw(image, wgpu::LoadOp::Load, &frame_group, dst);
            }
            let image_group = bind_group(image, &self.whole_uniform);
            let clear = wgpu::LoadOp::Clear(wgpu::Color::BLACK);
            draw(&target, clear, &image_group, (0, 0, width, height));
            gpu.queue().submit([encoder.finish()]);
            Ok(())
        })
        .map_err(Device::gpu_error(call))?;
        gpu.queue().present(texture);
        Ok(())
    }

    fn lose(&mut self, reason: &str) -> DeviceError {
        self.lost = Some(reason.to_owned());
        lost(reason)
    }
}

fn lost(reason: &str) -> DeviceError {
    DeviceError::DeviceLost {
        call: "Present",
        reason: reason.to_owned(),
    }
}

/// The surface format: the back buffer's where the surface has it, else the first
/// non-sRGB one, else the first.
fn choose_format(
    formats: &[wgpu::TextureFormat],
    back_buffer: wgpu::TextureFormat,
) -> Option<wgpu::TextureFormat> {
    let back_buffer = back_buffer.remove_srgb_suffix();
    formats
        .iter()
        .find(|f| **f == back_buffer)
        .or_else(|| formats.iter().find(|f| !f.is_srgb()))
        .or(formats.first())
        .copied()
}

fn build_pipeline(
    gpu: &Gpu,
    format: wgpu::TextureFormat,
) -> (wgpu::RenderPipeline, wgpu::BindGroupLayout) {
    let device = &gpu.device;
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("Present"),
        source: wgpu::ShaderSource::Wgsl(PRESENT_WGSL.into()),
    });
    let entry = |binding, ty| wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty,
        count: None,
    };
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("Present"),
        entries: &[
            entry(
                0,
                wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: false },
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
            ),
            entry(
                1,
                wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
            ),
        ],
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("Present"),
        bind_group_layouts: &[Some(&layout)],
        immediate_size: 0,
    });
    let pipeline = super::pass::FullScreen {
        label: "Present",
        layout: &pipeline_layout,
        module: &module,
        fragment: "fs",
        constants: &[],
        targets: &[Some(wgpu::ColorTargetState {
            format,
            blend: None,
            write_mask: wgpu::ColorWrites::ALL,
        })],
        depth_stencil: None,
        samples: 1,
    }
    .build(gpu);
    (pipeline, layout)
}

impl Device {
    /// Makes a swap chain (`None`: the implicit one) present into a window: `surface` made by
    /// [`Gpu::create_surface`] on this device's GPU, the window's client area `size`, the
    /// chain's `PresentationInterval`. See the module documentation.
    pub fn set_window(
        &mut self,
        chain: Option<SwapChainId>,
        surface: wgpu::Surface<'static>,
        size: (u32, u32),
        interval: PresentInterval,
    ) -> Result<(), DeviceError> {
        let back = self.swap_chain_back_buffer(chain)?;
        let format = self
            .surfaces
            .get(&back)
            .and_then(|s| s.gpu.as_ref())
            .map(|g| g.wgpu_format)
            .ok_or_else(|| invalid("CreateDevice", "the back buffer is not on the GPU"))?;
        let target = WindowTarget::new(&self.gpu, surface, size, interval, format)?;
        *self.window_slot(chain)?.1 = Some(target);
        Ok(())
    }

    /// Tells the device a swap chain's window has a new client area: the next `Present`
    /// answers `D3DERR_DEVICELOST` unless the size is the one configured.
    pub fn window_resized(
        &mut self,
        chain: Option<SwapChainId>,
        size: (u32, u32),
    ) -> Result<(), DeviceError> {
        if let Some(window) = self.window_slot(chain)?.1 {
            window.window_size = size;
        }
        Ok(())
    }

    /// `PresentationInterval` of a windowed swap chain (configures its surface again).
    pub fn set_present_interval(
        &mut self,
        chain: Option<SwapChainId>,
        interval: PresentInterval,
    ) -> Result<(), DeviceError> {
        let (gpu, window) = self.window_slot(chain)?;
        if let Some(window) = window {
            window.interval = interval;
            if window.lost.is_none() {
                window.configure(gpu, "Reset")?;
            }
        }
        Ok(())
    }

    /// The refresh rate of the display a windowed swap chain shows on, where the window's
    /// owner knows it (winit's monitor): `D3DPRESENT_INTERVAL_ONE` shows at most one frame
    /// per refresh of it. Unset: [`DISPLAY_REFRESH_HZ`], the display mode the device reports.
    pub fn set_refresh_rate(
        &mut self,
        chain: Option<SwapChainId>,
        refresh_hz: u32,
    ) -> Result<(), DeviceError> {
        if let Some(window) = self.window_slot(chain)?.1 {
            window.pacer = FramePacer::new(refresh_hz);
        }
        Ok(())
    }

    /// The present mode a windowed swap chain's surface is configured with; `None` headless
    /// or while the window has no area.
    pub fn present_mode(&self, chain: Option<SwapChainId>) -> Option<wgpu::PresentMode> {
        let window = match chain {
            None => self.implicit.window.as_ref(),
            Some(id) => self.additional.get(&id).and_then(|c| c.window.as_ref()),
        };
        window
            .and_then(|w| w.config.as_ref())
            .map(|c| c.present_mode)
    }

    /// `TestCooperativeLevel`: `D3DERR_DEVICENOTRESET` while a window `Present` found
    /// resized or lost waits for a `Reset`.
    pub fn test_cooperative_level(&self) -> Result<(), DeviceError> {
        let windows = self
            .additional
            .values()
            .chain(std::iter::once(&self.implicit))
            .filter_map(|c| c.window.as_ref());
        for window in windows {
            if let Some(reason) = &window.lost {
                return Err(DeviceError::DeviceNotReset {
                    call: "TestCooperativeLevel",
                    reason: reason.clone(),
                });
            }
        }
        Ok(())
    }

    /// `Present`'s refusal while a chain's window waits for a `Reset`.
    pub(crate) fn window_check(&mut self, chain: Option<SwapChainId>) -> Result<(), DeviceError> {
        match self.window_slot(chain)?.1 {
            Some(window) => window.check_lost(),
            None => Ok(()),
        }
    }

    /// Shows `front` in a chain's window, if it has one.
    pub(crate) fn window_show(
        &mut self,
        chain: Option<SwapChainId>,
        front: SurfaceId,
    ) -> Result<(), DeviceError> {
        self.window_show_rects(chain, front, None, None)
    }

    /// Shows rectangle `source` of `frame` (single-sampled) over rectangle `dest` of a
    /// chain's window, if it has one (`None`: the whole frame, the whole client area).
    pub(crate) fn window_show_rects(
        &mut self,
        chain: Option<SwapChainId>,
        frame: SurfaceId,
        source: Option<Rect>,
        dest: Option<Rect>,
    ) -> Result<(), DeviceError> {
        let (view, size) = self
            .surfaces
            .get(&frame)
            .and_then(|s| Some((s.gpu.as_ref()?.view.clone(), (s.width, s.height))))
            .ok_or_else(|| invalid("Present", "the frame to show is not on the GPU"))?;
        let (gpu, window) = self.window_slot(chain)?;
        match window {
            Some(window) => window.show(gpu, &view, size, source, dest),
            None => Ok(()),
        }
    }

    /// Whether a chain presents into a window.
    pub(crate) fn has_window(&self, chain: Option<SwapChainId>) -> bool {
        match chain {
            None => self.implicit.window.is_some(),
            Some(id) => self.additional.get(&id).is_some_and(|c| c.window.is_some()),
        }
    }

    /// After `Reset`: the implicit chain's window configured again at its size.
    pub(crate) fn window_after_reset(&mut self) -> Result<(), DeviceError> {
        match self.implicit.window.as_mut() {
            Some(window) => window.configure(&self.gpu, "Reset"),
            None => Ok(()),
        }
    }

    fn swap_chain_back_buffer(&self, chain: Option<SwapChainId>) -> Result<SurfaceId, DeviceError> {
        let buffers = match chain {
            None => Some(self.back_buffers()),
            Some(id) => self.swap_chain_back_buffers(id),
        };
        buffers
            .and_then(|b| b.first().copied())
            .ok_or_else(|| invalid("CreateAdditionalSwapChain", "no such swap chain"))
    }
}

#[cfg(test)]
#[allow(clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn present_shader_parses() {
        let module = naga::front::wgsl::parse_str(PRESENT_WGSL)
            .unwrap_or_else(|e| panic!("{}", e.emit_to_string(PRESENT_WGSL)));
        naga::valid::Validator::new(Default::default(), naga::valid::Capabilities::all())
            .validate(&module)
            .unwrap_or_else(|e| panic!("{e:?}"));
    }

    #[test]
    fn intervals_choose_what_the_surface_has() {
        use wgpu::PresentMode::*;
        assert_eq!(PresentInterval::One.present_mode(&[Immediate, Fifo]), Fifo);
        assert_eq!(
            PresentInterval::Immediate.present_mode(&[Fifo, Mailbox]),
            Mailbox
        );
        assert_eq!(
            PresentInterval::Immediate.present_mode(&[Mailbox, Immediate]),
            Immediate
        );
        assert_eq!(PresentInterval::Immediate.present_mode(&[Fifo]), Fifo);
    }

    #[test]
    fn formats_prefer_the_back_buffers_then_non_srgb() {
        use wgpu::TextureFormat::*;
        assert_eq!(
            choose_format(&[Bgra8UnormSrgb, Bgra8Unorm], Bgra8Unorm),
            Some(Bgra8Unorm)
        );
        assert_eq!(
            choose_format(&[Bgra8UnormSrgb, Rgba8Unorm], Rgb10a2Unorm),
            Some(Rgba8Unorm)
        );
        assert_eq!(
            choose_format(&[Bgra8UnormSrgb], Rgb10a2Unorm),
            Some(Bgra8UnormSrgb)
        );
        assert_eq!(choose_format(&[], Bgra8Unorm), None);
    }
}
