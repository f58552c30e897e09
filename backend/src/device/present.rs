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
use super::multisample::MultiSample;
use super::objects::{Pool, SurfaceId};
use super::{Device, DeviceParams, SurfaceData};

/// An additional swap chain (`CreateAdditionalSwapChain`); the implicit one has no id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SwapChainId(pub u64);

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

    fn present_chain(&mut self, id: Option<SwapChainId>) -> Result<(), DeviceError> {
        let call = "Present";
        // A resized or lost window: D3DERR_DEVICELOST, nothing presented.
        self.window_check(id)?;
        let chain = self.swap_chain(call, id)?;
        let (back_buffers, old_front) = (chain.back_buffers.clone(), chain.front_buffer);
        let back = back_buffers[0];
        let (width, height, format) = self
            .surface_desc(back)
            .ok_or_else(|| invalid(call, "the back buffer was released"))?;
        let front =
            match old_front.filter(|f| self.surface_desc(*f) == Some((width, height, format))) {
                Some(front) => front,
                None => {
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
                    let front =
                        self.create_render_target_multisampled(width, height, format, ms, false)?;
                    match id {
                        None => self.implicit.front_buffer = Some(front),
                        Some(id) => {
                            if let Some(chain) = self.additional.get_mut(&id) {
                                chain.front_buffer = Some(front);
                            }
                        }
                    }
                    front
                }
            };
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
        let mut images = Vec::with_capacity(ring.len());
        for id in &ring {
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
        // A memoised draw names the images it drew into.
        self.memo = None;
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
