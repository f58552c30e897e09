//! The implicit swap chain, headless: its back buffers, `Present` and the front buffer that
//! `GetFrontBufferData` reads.
//!
//! With one back buffer `Present` copies it to the front buffer and leaves it as it was.
//! With two or three, `Present` flips as Windows does (Wine's `test_flip`): the front buffer
//! takes back buffer 0's texels, back buffer n takes back buffer n + 1's, and the last back
//! buffer takes what the front buffer held; the surfaces stay the same objects (the GPU
//! images move between them, nothing is copied).

use super::error::{invalid, DeviceError};
use super::objects::{SurfaceId, TexelBox};
use super::Device;

impl Device {
    /// `GetBackBuffer(0, 0, ..)`: the implicit swap chain's first back buffer.
    pub fn back_buffer(&self) -> SurfaceId {
        self.back_buffers[0]
    }

    /// The implicit swap chain's back buffers (`D3DPRESENT_PARAMETERS::BackBufferCount`).
    pub fn back_buffers(&self) -> &[SurfaceId] {
        &self.back_buffers
    }

    /// `Present` (headless): the back buffer's texels become the front buffer (read by
    /// [`Device::front_buffer_data`]), flipping when there are several, and the draws
    /// recorded so far are submitted.
    pub fn present(&mut self) -> Result<(), DeviceError> {
        let call = "Present";
        let back = self.back_buffer();
        let (width, height, format) = self
            .surface_desc(back)
            .ok_or_else(|| invalid(call, "the back buffer was released"))?;
        let current = self
            .front_buffer
            .and_then(|id| self.surface_desc(id))
            .is_some_and(|d| d == (width, height, format));
        if !current {
            if let Some(old) = self.front_buffer.take() {
                let _ = self.release_surface(old);
            }
            self.front_buffer = Some(self.create_render_target(width, height, format)?);
        }
        let front = self
            .front_buffer
            .ok_or_else(|| invalid(call, "internal: no front buffer"))?;
        if self.back_buffers.len() == 1 {
            let whole = TexelBox::whole(width, height, 1);
            self.copy_image(call, back, front, whole, whole)?;
            return self.flush();
        }
        // What was recorded draws into the images where they are now.
        self.flush()?;
        let mut ring = vec![front];
        ring.extend(self.back_buffers.iter().copied());
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
        Ok(())
    }

    /// `GetFrontBufferData`: what the last `Present` showed (the back buffer's texels then;
    /// zero before any `Present`).
    pub fn front_buffer_data(&mut self) -> Result<super::SurfaceData, DeviceError> {
        match self.front_buffer {
            Some(front) => self.get_render_target_data(front),
            None => {
                let back = self.back_buffer();
                let (width, height, format) = self
                    .surface_desc(back)
                    .ok_or_else(|| invalid("GetFrontBufferData", "no back buffer"))?;
                Ok(super::SurfaceData {
                    format,
                    width,
                    height,
                    data: vec![0; format.image_size(width, height)],
                })
            }
        }
    }
}
