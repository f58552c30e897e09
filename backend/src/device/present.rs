//! Swap chains (headless; `window` shows them in a window too): the implicit one (made with the device, made again by `Reset`)
//! and additional ones (`CreateAdditionalSwapChain`); their back buffers, `Present` and the
//! front buffer that `GetFrontBufferData` reads.
//!
//! With one back buffer `Present` copies it to the front buffer and leaves it as it was.
//! With two or three, `Present` flips as Windows does (Wine's `test_flip`): the front buffer
//! takes back buffer 0's texels, back buffer n takes back buffer n + 1's, and the last back
//! buffer takes what the front buffer held; the surfaces stay the same objects (the GPU
//! images move between them, nothing is copied).

use super::error::{invalid, DeviceError};
use super::format::Format;
use super::objects::{Filter, MultiSample, Pool, SurfaceId, SwapChainId};
use super::state::Rect;
use super::{Device, DeviceParams, SurfaceData};

/// What a swap chain is made of: the part of `D3DPRESENT_PARAMETERS` a headless device uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PresentParams {
    /// The back buffers' width, height and format.
    pub back_buffer: (u32, u32, Format),
    /// `BackBufferCount`: 1 to 3 back buffers (`Present` flips between several).
    pub back_buffer_count: u32,
    /// `D3DPRESENTFLAG_LOCKABLE_BACKBUFFER`: the back buffers can be locked.
    pub lockable_back_buffer: bool,
    /// `EnableAutoDepthStencil` with this format: a depth-stencil surface of the back
    /// buffer's size. The implicit swap chain's only: D3D9 makes none for additional chains.
    pub auto_depth_stencil: Option<Format>,
    /// `MultiSampleType` and `MultiSampleQuality` of the back buffers and the automatic
    /// depth-stencil surface.
    pub multisample: MultiSample,
}

impl DeviceParams {
    /// The implicit swap chain's part of the parameters.
    pub fn present(&self) -> PresentParams {
        PresentParams {
            back_buffer: self.back_buffer,
            back_buffer_count: self.back_buffer_count,
            lockable_back_buffer: self.lockable_back_buffer,
            auto_depth_stencil: self.auto_depth_stencil,
            multisample: self.multisample,
        }
    }

    /// Takes the implicit swap chain's part from `present` (what `Reset` changes).
    pub(crate) fn set_present(&mut self, present: &PresentParams) {
        self.back_buffer = present.back_buffer;
        self.back_buffer_count = present.back_buffer_count;
        self.lockable_back_buffer = present.lockable_back_buffer;
        self.auto_depth_stencil = present.auto_depth_stencil;
        self.multisample = present.multisample;
    }
}

/// A swap chain's surfaces.
#[derive(Debug, Default)]
pub(crate) struct SwapChain {
    pub(crate) back_buffers: Vec<SurfaceId>,
    /// What the last `Present` showed (made by the first `Present`).
    pub(crate) front_buffer: Option<SurfaceId>,
    /// The automatic depth-stencil surface (the implicit chain's, with
    /// `EnableAutoDepthStencil`).
    pub(crate) depth_stencil: Option<SurfaceId>,
    /// The window `Present` shows frames in (`window`); `None`: headless.
    pub(crate) window: Option<super::window::WindowTarget>,
}

impl SwapChain {
    /// Every surface of the chain.
    pub(crate) fn surfaces(&self) -> impl Iterator<Item = SurfaceId> + '_ {
        self.back_buffers
            .iter()
            .copied()
            .chain(self.front_buffer)
            .chain(self.depth_stencil)
    }
}

impl Device {
    /// A chain's window slot (`None`: the implicit chain's), borrowed apart from the GPU
    /// context that configuring and showing the window take.
    pub(crate) fn window_slot(
        &mut self,
        chain: Option<SwapChainId>,
    ) -> Result<(&crate::gpu::Gpu, &mut Option<super::window::WindowTarget>), DeviceError> {
        let slot = match chain {
            None => &mut self.implicit.window,
            Some(id) => self
                .additional
                .get_mut(&id)
                .map(|c| &mut c.window)
                .ok_or_else(|| {
                    invalid(
                        "Present",
                        format!("{id:?} is not a swap chain of this device"),
                    )
                })?,
        };
        Ok((&self.gpu, slot))
    }

    /// A swap chain's back buffers (and, with `depth`, its automatic depth-stencil surface)
    /// made from `present`; nothing is left made when it fails.
    pub(crate) fn make_swap_chain(
        &mut self,
        call: &'static str,
        present: &PresentParams,
        depth: bool,
    ) -> Result<SwapChain, DeviceError> {
        let count = present.back_buffer_count;
        if !(1..=3).contains(&count) {
            return Err(invalid(
                call,
                format!("{count} back buffers (D3D9 allows 1 to 3)"),
            ));
        }
        let (width, height, format) = present.back_buffer;
        let mut chain = SwapChain::default();
        let made = (|| {
            for _ in 0..count {
                let lockable = present.lockable_back_buffer;
                let ms = present.multisample;
                let surface =
                    self.create_render_target_multisampled(width, height, format, ms, lockable)?;
                chain.back_buffers.push(surface);
            }
            if let Some(format) = present.auto_depth_stencil.filter(|_| depth) {
                let ms = present.multisample;
                chain.depth_stencil = Some(
                    self.create_depth_stencil_surface_multisampled(width, height, format, ms)?,
                );
            }
            Ok(())
        })();
        match made {
            Ok(()) => Ok(chain),
            Err(e) => {
                self.release_swap_chain_surfaces(&chain);
                Err(e)
            }
        }
    }

    /// Releases every surface of a chain no longer used.
    pub(crate) fn release_swap_chain_surfaces(&mut self, chain: &SwapChain) {
        for id in chain.surfaces() {
            let _ = self.release_surface(id);
        }
    }

    /// `GetBackBuffer(0, 0, ..)`: the implicit swap chain's first back buffer.
    pub fn back_buffer(&self) -> SurfaceId {
        self.implicit.back_buffers[0]
    }

    /// The implicit swap chain's back buffers (`D3DPRESENT_PARAMETERS::BackBufferCount`).
    pub fn back_buffers(&self) -> &[SurfaceId] {
        &self.implicit.back_buffers
    }

    /// The automatic depth-stencil surface (`EnableAutoDepthStencil`), whether or not it is
    /// set now.
    pub fn auto_depth_stencil(&self) -> Option<SurfaceId> {
        self.implicit.depth_stencil
    }

    /// `CreateAdditionalSwapChain`: a headless swap chain with back buffers of its own (no
    /// depth-stencil surface, whatever `auto_depth_stencil` says, as in D3D9).
    pub fn create_swap_chain(
        &mut self,
        present: PresentParams,
    ) -> Result<SwapChainId, DeviceError> {
        let chain = self.make_swap_chain("CreateAdditionalSwapChain", &present, false)?;
        let id = SwapChainId(self.next_id());
        self.additional.insert(id, chain);
        Ok(id)
    }

    /// An additional swap chain's back buffers.
    pub fn swap_chain_back_buffers(&self, id: SwapChainId) -> Option<&[SurfaceId]> {
        self.additional.get(&id).map(|c| c.back_buffers.as_slice())
    }

    /// `Release` of an additional swap chain, with its surfaces.
    pub fn release_swap_chain(&mut self, id: SwapChainId) -> Result<(), DeviceError> {
        let chain = self.additional.remove(&id).ok_or_else(|| {
            invalid(
                "Release",
                format!("{id:?} is not a swap chain of this device"),
            )
        })?;
        self.release_swap_chain_surfaces(&chain);
        Ok(())
    }

    fn swap_chain(
        &self,
        call: &'static str,
        id: Option<SwapChainId>,
    ) -> Result<&SwapChain, DeviceError> {
        match id {
            None => Ok(&self.implicit),
            Some(id) => self
                .additional
                .get(&id)
                .ok_or_else(|| invalid(call, format!("{id:?} is not a swap chain of this device"))),
        }
    }

    /// `Present` of the implicit swap chain (headless): the back buffer's texels become the
    /// front buffer (read by [`Device::front_buffer_data`]), flipping when there are several,
    /// and the draws recorded so far are submitted.
    pub fn present(&mut self) -> Result<(), DeviceError> {
        self.present_chain(None)
    }

    /// `IDirect3DSwapChain9::Present` of an additional swap chain, as [`Device::present`].
    pub fn present_swap_chain(&mut self, id: SwapChainId) -> Result<(), DeviceError> {
        self.present_chain(Some(id))
    }

    /// `Present(source, dest, ..)` of a swap chain (`None`: the implicit one) with rectangles,
    /// as a windowed D3D9 swap chain presents them whatever its swap effect: rectangle
    /// `source` of the back buffer (`None`: all of it), clipped to it, is stretched (point
    /// sampling) over rectangle `dest` (`None`: all of it), clipped to the client area, and
    /// the rest of the client area keeps what the last `Present` left there. The client area
    /// is the window's where the chain has one; the front buffer (of the back buffer's size)
    /// takes the same rectangles, as the headless window. Several back buffers then rotate
    /// among themselves (back buffer n takes n + 1's image, the last takes the first's); the
    /// front buffer keeps its image. Without rectangles, this is [`Device::present`].
    pub fn present_rects(
        &mut self,
        id: Option<SwapChainId>,
        source: Option<Rect>,
        dest: Option<Rect>,
    ) -> Result<(), DeviceError> {
        if source.is_none() && dest.is_none() {
            return self.present_chain(id);
        }
        let call = "Present";
        self.window_check(id)?;
        let back_buffers = self.swap_chain(call, id)?.back_buffers.clone();
        let back = back_buffers[0];
        let (width, height, _) = self
            .surface_desc(back)
            .ok_or_else(|| invalid(call, "the back buffer was released"))?;
        let front = self.front_buffer(call, id, &back_buffers)?;
        let clipped = |rect: Option<Rect>| {
            let whole = Rect {
                left: 0,
                top: 0,
                right: width as i32,
                bottom: height as i32,
            };
            rect.unwrap_or(whole)
                .clip(width, height)
                .map(|(x, y, w, h)| Rect {
                    left: x as i32,
                    top: y as i32,
                    right: (x + w) as i32,
                    bottom: (y + h) as i32,
                })
        };
        if let (Some(s), Some(d)) = (clipped(source), clipped(dest)) {
            self.stretch_rect(back, Some(s), front, Some(d), Filter::Point)?;
        }
        self.flush()?;
        if self.has_window(id) {
            // The window takes the back buffer's texels (resolved where it is multisampled).
            let shown = match self.surface_samples(back) {
                1 => None,
                _ => {
                    let (w, h, format) = self
                        .surface_desc(back)
                        .ok_or_else(|| invalid(call, "the back buffer was released"))?;
                    let shown = self.create_render_target(w, h, format)?;
                    self.resolve_surface(call, back, shown)?;
                    self.flush()?;
                    Some(shown)
                }
            };
            let result = self.window_show_rects(id, shown.unwrap_or(back), source, dest);
            if let Some(shown) = shown {
                self.release_surface(shown)?;
            }
            result?;
        }
        if back_buffers.len() > 1 {
            self.rotate_images(call, &back_buffers)?;
        }
        Ok(())
    }

    /// The chain's front buffer, made (or made again) with the back buffers' description.
    fn front_buffer(
        &mut self,
        call: &'static str,
        id: Option<SwapChainId>,
        back_buffers: &[SurfaceId],
    ) -> Result<SurfaceId, DeviceError> {
        let back = back_buffers[0];
        let old_front = self.swap_chain(call, id)?.front_buffer;
        let (width, height, format) = self
            .surface_desc(back)
            .ok_or_else(|| invalid(call, "the back buffer was released"))?;
        if let Some(front) =
            old_front.filter(|f| self.surface_desc(*f) == Some((width, height, format)))
        {
            return Ok(front);
        }
        if let Some(old) = old_front {
            let _ = self.release_surface(old);
        }
        // Flipped with the back buffers, it is multisampled as they are.
        let ms = match back_buffers.len() {
            1 => MultiSample::NONE,
            _ => self
                .surface_info(back)
                .map_or(MultiSample::NONE, |i| i.multisample),
        };
        let front = self.create_render_target_multisampled(width, height, format, ms, false)?;
        match id {
            None => self.implicit.front_buffer = Some(front),
            Some(id) => {
                if let Some(chain) = self.additional.get_mut(&id) {
                    chain.front_buffer = Some(front);
                }
            }
        }
        Ok(front)
    }

    /// Moves each surface's GPU image to the surface before it in `ring`, the first's to the
    /// last (a flip: nothing is copied).
    fn rotate_images(&mut self, call: &'static str, ring: &[SurfaceId]) -> Result<(), DeviceError> {
        let mut images = Vec::with_capacity(ring.len());
        for id in ring {
            let surface = self
                .surfaces
                .get_mut(id)
                .ok_or_else(|| invalid(call, "a back buffer was released"))?;
            images.push(surface.gpu.take());
        }
        images.rotate_left(1);
        for (id, image) in ring.iter().zip(images) {
            if let Some(surface) = self.surfaces.get_mut(id) {
                surface.gpu = image;
            }
        }
        // A memoised draw names the images it drew into (the spare too: it holds them).
        self.memo = None;
        self.memo_spare = None;
        Ok(())
    }

    fn present_chain(&mut self, id: Option<SwapChainId>) -> Result<(), DeviceError> {
        let call = "Present";
        // A resized or lost window: D3DERR_DEVICELOST, nothing presented.
        self.window_check(id)?;
        let back_buffers = self.swap_chain(call, id)?.back_buffers.clone();
        let back = back_buffers[0];
        let front = self.front_buffer(call, id, &back_buffers)?;
        if back_buffers.len() == 1 {
            // (A multisampled back buffer is resolved into the front buffer: `multisample`.)
            self.copy_to_front(call, back, front)?;
            self.flush()?;
            return self.window_show(id, front);
        }
        // What was recorded draws into the images where they are now.
        self.flush()?;
        let mut ring = vec![front];
        ring.extend(back_buffers);
        self.rotate_images(call, &ring)?;
        self.show_front(id, front)
    }

    /// `GetFrontBufferData` of the implicit swap chain: what the last `Present` showed (the
    /// back buffer's texels then; zero before any `Present`).
    pub fn front_buffer_data(&mut self) -> Result<SurfaceData, DeviceError> {
        self.chain_front_buffer_data(None)
    }

    /// `IDirect3DSwapChain9::GetFrontBufferData` of an additional swap chain, as
    /// [`Device::front_buffer_data`].
    pub fn swap_chain_front_buffer_data(
        &mut self,
        id: SwapChainId,
    ) -> Result<SurfaceData, DeviceError> {
        self.chain_front_buffer_data(Some(id))
    }

    fn chain_front_buffer_data(
        &mut self,
        id: Option<SwapChainId>,
    ) -> Result<SurfaceData, DeviceError> {
        let call = "GetFrontBufferData";
        let chain = self.swap_chain(call, id)?;
        let (front, back) = (chain.front_buffer, chain.back_buffers[0]);
        match front {
            Some(front) => self.get_render_target_data(front),
            None => {
                let (width, height, format) = self
                    .surface_desc(back)
                    .ok_or_else(|| invalid(call, "no back buffer"))?;
                Ok(SurfaceData {
                    format,
                    width,
                    height,
                    data: vec![0; format.image_size(width, height)],
                })
            }
        }
    }

    /// `GetFrontBufferData(dst)` of a swap chain (`None`: the implicit one): the front
    /// buffer's texels written into `dst`, a SYSTEMMEM surface of the front buffer's size
    /// and format.
    pub fn copy_front_buffer_data(
        &mut self,
        id: Option<SwapChainId>,
        dst: SurfaceId,
    ) -> Result<(), DeviceError> {
        let call = "GetFrontBufferData";
        let data = self.chain_front_buffer_data(id)?;
        let info = self
            .surface_info(dst)
            .ok_or_else(|| invalid(call, format!("{dst:?} is not a surface of this device")))?;
        if info.pool != Pool::SystemMem
            || (info.width, info.height, info.format) != (data.width, data.height, data.format)
        {
            return Err(invalid(
                call,
                "the destination is not a SYSTEMMEM surface of the front buffer's size and format",
            ));
        }
        self.write_surface(call, dst, None, &data.data)
    }
}

/// `D3DRASTER_STATUS`: where the display's raster is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RasterStatus {
    /// In the vertical blank.
    pub in_vblank: bool,
    /// The line being scanned out, 0 at the top; 0 in the vertical blank (the SDK's
    /// `D3DRASTER_STATUS`).
    pub scan_line: u32,
}

impl RasterStatus {
    /// The raster of a display of `height` visible lines refreshed `refresh_hz` times a
    /// second, `elapsed` after a refresh began: the visible lines, then a vertical blank
    /// of `height / 20` lines (1024 x 768 at 60 Hz: VESA's timing has 806 lines, 38 of them
    /// blank).
    pub fn at(elapsed: std::time::Duration, height: u32, refresh_hz: u32) -> RasterStatus {
        let height = u64::from(height.max(1));
        let lines = height + (height / 20).max(1);
        let frame_ns = 1_000_000_000 / u64::from(refresh_hz.max(1));
        let into_frame = (elapsed.as_nanos() % u128::from(frame_ns)) as u64;
        let line = into_frame * lines / frame_ns;
        match line < height {
            true => RasterStatus {
                in_vblank: false,
                scan_line: line as u32,
            },
            false => RasterStatus {
                in_vblank: true,
                scan_line: 0,
            },
        }
    }
}

impl Device {
    /// `GetRasterStatus` of a swap chain (`None`: the implicit one) on a display of
    /// `height` lines refreshed `refresh_hz` times a second. wgpu does not expose the
    /// display's raster, so the raster runs on the clock from when the process first asked,
    /// as DXVK's does (it computes it from the time): the scan line advances through
    /// the frame and the vertical blank comes once a refresh, so programs that wait for it
    /// see it come.
    pub fn raster_status(
        &self,
        id: Option<SwapChainId>,
        height: u32,
        refresh_hz: u32,
    ) -> Result<RasterStatus, DeviceError> {
        static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        self.swap_chain("GetRasterStatus", id)?;
        let start = START.get_or_init(std::time::Instant::now);
        Ok(RasterStatus::at(start.elapsed(), height, refresh_hz))
    }
}

#[cfg(test)]
mod tests {
    use super::RasterStatus;
    use std::time::Duration;

    #[test]
    fn the_raster_scans_the_lines_then_blanks() {
        let at = |us| RasterStatus::at(Duration::from_micros(us), 768, 60);
        // 806 lines in 16 666 us: about 20.7 us a line.
        assert_eq!(
            at(0),
            RasterStatus {
                in_vblank: false,
                scan_line: 0
            }
        );
        assert_eq!(at(8_000).scan_line, 386);
        assert!(!at(15_800).in_vblank);
        // Line 768 (from 15 881 us) is the blank's first.
        assert_eq!(at(15_870).scan_line, 767);
        assert!(at(15_890).in_vblank);
        assert_eq!(
            at(16_000),
            RasterStatus {
                in_vblank: true,
                scan_line: 0
            }
        );
        // The next refresh starts at the top again.
        assert_eq!(
            at(16_667 + 21),
            RasterStatus {
                in_vblank: false,
                scan_line: 1
            }
        );
    }
}
