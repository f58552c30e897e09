//! Texels from system memory to the GPU, and D3D9's dirty regions.
//!
//! D3D9 records, per MANAGED or SYSTEMMEM texture, the region of level 0 written since the
//! texture last reached the GPU (its *dirty region*): locks without `D3DLOCK_NO_DIRTY_UPDATE`
//! or `D3DLOCK_READONLY` and `AddDirtyRect` / `AddDirtyBox` add to it, and "for sublevels, the
//! corresponding (scaled) rectangle is also dirty". A MANAGED texture uploads its dirty region
//! before it is next drawn with; `UpdateTexture` copies only its SYSTEMMEM source's dirty
//! region (and none when it is clean). Both leave it clean. Textures start wholly dirty.
//! Dynamic DEFAULT textures upload every lock (Windows ignores `D3DLOCK_NO_DIRTY_UPDATE` on
//! them), and a SYSTEMMEM texture drawn with is read as its memory stands (Wine's
//! `add_dirty_rect_test`, checked on Windows).

use super::format::{gpu_row_pitch, gpu_rows, Format};
use super::objects::{DirtyRegion, Pool, TexelBox, TextureId, TextureObject, Usage};
use super::Device;
use crate::device::TextureKind;
use crate::gpu::{write_texels, TexelCopy};

impl TextureObject {
    /// A box of level `level` as a box of level 0 (the whole level reaches level 0's edges).
    pub(crate) fn box_at_level_zero(&self, level: u32, b: TexelBox) -> TexelBox {
        let (w, h, d) = self.subresource_size(level);
        let (w0, h0, d0) = self.subresource_size(0);
        let up = |lo: u32, hi: u32, size: u32, size0: u32| {
            let hi = if hi >= size {
                size0
            } else {
                (hi << level).min(size0)
            };
            ((lo << level).min(hi.saturating_sub(1)), hi)
        };
        b.map_axes(|axis, lo, hi| up(lo, hi, [w, h, d][axis], [w0, h0, d0][axis]))
    }

    /// What an unlock of `region` of `level` (not read-only) leaves to upload, by pool and
    /// `D3DLOCK_NO_DIRTY_UPDATE`.
    pub(crate) fn record_write(&mut self, level: u32, region: Option<TexelBox>, no_dirty: bool) {
        let dynamic = self.pool == Pool::Default && self.usage.contains(Usage::DYNAMIC);
        if self.pool == Pool::SystemMem {
            self.stale = true;
        }
        if no_dirty && !dynamic {
            return;
        }
        let region = region.map(|b| self.box_at_level_zero(level, b));
        let whole = TexelBox::whole(self.width, self.height, self.depth);
        self.dirty.add(region.filter(|&b| b != whole));
    }
}

impl Device {
    /// `AddDirtyRect` / `AddDirtyBox`: `region` of level 0 (the whole texture when `None`)
    /// is uploaded (MANAGED) or copied by the next `UpdateTexture` (SYSTEMMEM). The region
    /// must lie inside level 0; DEFAULT textures accept it and ignore it.
    pub fn add_dirty_region(
        &mut self,
        id: TextureId,
        region: Option<TexelBox>,
    ) -> Result<(), super::DeviceError> {
        let call = "AddDirtyRect";
        let texture = self.textures.get_mut(&id).ok_or_else(|| {
            super::error::invalid(call, format!("{id:?} is not a texture of this device"))
        })?;
        let (w, h, d) = texture.subresource_size(0);
        if let Some(b) = region.filter(|b| !b.fits(w, h, d)) {
            return Err(super::error::invalid(
                call,
                format!("{b:?} of a {w}x{h}x{d} texture"),
            ));
        }
        if matches!(texture.pool, Pool::Managed | Pool::SystemMem) {
            texture.dirty.add(region);
        }
        Ok(())
    }

    /// `EvictManagedResources`: every MANAGED texture is uploaded again from its system
    /// memory before it is next drawn with.
    pub fn evict_managed_resources(&mut self) {
        for texture in self.textures.values_mut() {
            if texture.pool == Pool::Managed {
                texture.dirty = DirtyRegion::Whole;
            }
        }
    }

    /// Before texture `id` is sampled: a SYSTEMMEM texture gets (on first use) and refreshes
    /// a GPU copy of its memory; others upload their dirty region.
    pub(crate) fn prepare_sampled(&mut self, id: TextureId) -> Result<(), super::DeviceError> {
        let Some(texture) = self.textures.get(&id) else {
            return Ok(());
        };
        if texture.pool == Pool::SystemMem && texture.gpu.is_none() {
            let gpu = self.create_gpu_texture_for(id)?;
            if let Some(texture) = self.textures.get_mut(&id) {
                texture.gpu = Some(gpu);
                texture.stale = true;
            }
        }
        self.upload_texture(id);
        self.refresh_levels(id)
    }

    /// Uploads what of a texture's system memory the GPU does not have yet.
    pub(crate) fn upload_texture(&mut self, id: TextureId) {
        let queue = self.gpu.queue.clone();
        let Some(texture) = self.textures.get_mut(&id) else {
            return;
        };
        if texture.gpu.is_none() {
            return;
        }
        if texture.pool == Pool::SystemMem {
            if std::mem::take(&mut texture.stale) {
                texture.version += 1;
                for sub in 0..texture.faces() * texture.levels {
                    if let Some(memory) = texture.memory.get(sub as usize) {
                        write_subresource(&queue, texture, sub, memory);
                    }
                }
            }
            return;
        }
        if texture.dirty.is_clean() {
            return;
        }
        let dirty = std::mem::take(&mut texture.dirty);
        texture.version += 1;
        for sub in 0..texture.faces() * texture.levels {
            let level = sub % texture.levels;
            // An AUTOGENMIPMAP texture's other levels are made from level 0 on the GPU.
            if level > 0 && texture.autogen.is_some() {
                continue;
            }
            let Some(memory) = texture.memory.get(sub as usize) else {
                continue;
            };
            match dirty.at_level(level, texture.subresource_size(level)) {
                None => write_subresource(&queue, texture, sub, memory),
                Some(boxes) => {
                    for b in boxes {
                        write_box(&queue, texture, sub, memory, b);
                    }
                }
            }
        }
    }
}

/// Writes one whole subresource (`face * levels + level`), D3D9 bytes, to the GPU texture.
pub(crate) fn write_subresource(
    queue: &wgpu::Queue,
    texture: &TextureObject,
    sub: u32,
    data: &[u8],
) {
    let (width, height, depth) = texture.subresource_size(sub % texture.levels);
    write_box(
        queue,
        texture,
        sub,
        data,
        TexelBox::whole(width, height, depth),
    );
}

/// Writes box `b` of subresource `sub` from `data` (the whole subresource in D3D9's
/// layout) to the GPU texture. Block-compressed formats and volumes write whole
/// subresources.
pub(crate) fn write_box(
    queue: &wgpu::Queue,
    texture: &TextureObject,
    sub: u32,
    data: &[u8],
    b: TexelBox,
) {
    let Some(gpu) = &texture.gpu else {
        return;
    };
    let level = sub % texture.levels;
    let face = sub / texture.levels;
    let (width, height, depth) = texture.subresource_size(level);
    let whole = TexelBox::whole(width, height, depth);
    let b = if texture.format.is_compressed() || texture.kind == TextureKind::Volume {
        whole
    } else {
        b
    };
    let (w, h) = (b.right - b.left, b.bottom - b.top);
    let cropped;
    let bytes = if b == whole {
        data
    } else {
        cropped = crop_rows(texture.format, data, width, b);
        &cropped
    };
    let converted = texture
        .format
        .to_wgpu_bytes(texture.wgpu_format, bytes, w, h);
    let (block_width, block_height) = texture.wgpu_format.block_dimensions();
    let copy = TexelCopy {
        level,
        origin: wgpu::Origin3d {
            x: b.left,
            y: b.top,
            z: face,
        },
        aspect: wgpu::TextureAspect::All,
        // Block-compressed levels smaller than a block copy their whole (physical) block.
        extent: wgpu::Extent3d {
            width: w.next_multiple_of(block_width),
            height: h.next_multiple_of(block_height),
            depth_or_array_layers: if b == whole { depth } else { 1 },
        },
        row_bytes: gpu_row_pitch(texture.wgpu_format, w),
        rows: gpu_rows(texture.wgpu_format, h),
    };
    write_texels(queue, &gpu.texture, copy, &converted);
}

/// The rows of box `b` (one slice) of an image `width` texels wide, tightly packed (rows
/// of 4 x 4 blocks for compressed formats, whose boxes are whole blocks).
pub(crate) fn crop_rows(format: Format, data: &[u8], width: u32, b: TexelBox) -> Vec<u8> {
    let pitch = format.row_pitch(width) as usize;
    let row = format.row_pitch(b.right - b.left) as usize;
    let first = format.offset_of(b.left, b.top, width);
    let rows = format.rows(b.bottom - b.top) as usize;
    let mut out = Vec::with_capacity(row * rows);
    for y in 0..rows {
        let at = first + y * pitch;
        out.extend_from_slice(data.get(at..at + row).unwrap_or(&[]));
    }
    out
}
