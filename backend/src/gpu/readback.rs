//! Reading a texture back to the CPU: one copy into a mappable buffer, rows unpadded. The
//! device's `GetRenderTargetData`, its pixel reads and the test harness's images all read
//! through [`Gpu::read_texels`].

use super::{Gpu, GpuError, TexelCopy};

impl Gpu {
    /// The bytes of `copy` of `texture`: `copy.rows` rows of `copy.row_bytes` each, tightly
    /// packed (the copy's rows are padded to `COPY_BYTES_PER_ROW_ALIGNMENT` on the GPU and
    /// unpadded here). Waits for the GPU: what it should see must have been submitted.
    pub fn read_texels(
        &self,
        texture: &wgpu::Texture,
        copy: TexelCopy,
    ) -> Result<Vec<u8>, GpuError> {
        let TexelCopy {
            row_bytes, rows, ..
        } = copy;
        let padded = row_bytes.div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT)
            * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let buffer = self.capture::<_, GpuError>("readback copy", || {
            let buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("readback"),
                size: u64::from(padded) * u64::from(rows),
                usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
                mapped_at_creation: false,
            });
            let mut encoder = self.device.create_command_encoder(&Default::default());
            encoder.copy_texture_to_buffer(
                copy.texture(texture),
                wgpu::TexelCopyBufferInfo {
                    buffer: &buffer,
                    layout: wgpu::TexelCopyBufferLayout {
                        offset: 0,
                        bytes_per_row: Some(padded),
                        rows_per_image: Some(rows),
                    },
                },
                copy.extent,
            );
            self.queue.submit([encoder.finish()]);
            Ok(buffer)
        })?;
        let (sender, receiver) = std::sync::mpsc::channel();
        buffer
            .slice(..)
            .map_async(wgpu::MapMode::Read, move |result| {
                // The receiver outlives the poll below; a send error cannot happen.
                let _ = sender.send(result);
            });
        let readback = |e: String| GpuError::Readback(e);
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| readback(e.to_string()))?;
        receiver
            .recv()
            .map_err(|e| readback(e.to_string()))?
            .map_err(|e| readback(e.to_string()))?;
        let mapped = buffer
            .get_mapped_range(..)
            .map_err(|e| readback(e.to_string()))?;
        let mut bytes = Vec::with_capacity(row_bytes as usize * rows as usize);
        for chunk in mapped.chunks(padded as usize) {
            bytes.extend_from_slice(chunk.get(..row_bytes as usize).unwrap_or(chunk));
        }
        drop(mapped);
        buffer.unmap();
        Ok(bytes)
    }
}

/// A float clear colour as the bit patterns of its `f32` values, for an `Rgba32Uint`
/// target standing in for `Rgba32Float` (wgpu converts the clear value of an integer
/// target with `as u32`, which every `u32` survives through `f64`).
pub fn bits_of(colour: wgpu::Color) -> wgpu::Color {
    let bits = |c: f64| f64::from((c as f32).to_bits());
    wgpu::Color {
        r: bits(colour.r),
        g: bits(colour.g),
        b: bits(colour.b),
        a: bits(colour.a),
    }
}
