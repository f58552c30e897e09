//! Filling GPU memory from the CPU.

use super::{Gpu, TexelCopy};

impl Gpu {
    /// A buffer holding `data`, zero-padded to a multiple of 16 bytes (at least 16).
    pub fn init_buffer(&self, data: &[u8], usage: wgpu::BufferUsages) -> wgpu::Buffer {
        use wgpu::util::DeviceExt;
        let mut contents = data.to_vec();
        contents.resize(data.len().div_ceil(16).max(1) * 16, 0);
        self.device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: None,
                contents: &contents,
                usage,
            })
    }
}

/// Writes `data`, `copy.rows` rows of `copy.row_bytes` each per image, tightly packed, into
/// `copy`'s region of `texture` (queued: it lands before the next submission).
pub fn write_texels(queue: &wgpu::Queue, texture: &wgpu::Texture, copy: TexelCopy, data: &[u8]) {
    queue.write_texture(
        copy.texture(texture),
        data,
        wgpu::TexelCopyBufferLayout {
            offset: 0,
            bytes_per_row: Some(copy.row_bytes),
            rows_per_image: Some(copy.rows),
        },
        copy.extent,
    );
}
