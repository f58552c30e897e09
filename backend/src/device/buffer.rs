//! Vertex and index buffers: creation, locks and release. A buffer keeps the bytes D3D9's
//! memory holds (what a lock shows, and what fan conversion, flat-shading reorders and
//! `process_vertices` read) beside its GPU copy; an unlock uploads what the locks wrote.

use super::error::{invalid, unsupported, DeviceError};
use super::objects::{
    BufferObject, IndexBufferId, IndexFormat, LockFlags, Locked, Pool, Usage, VertexBufferId,
};
use super::Device;

/// Which kind of buffer a call names.
#[derive(Clone, Copy)]
enum BufferKind {
    Vertex(VertexBufferId),
    Index(IndexBufferId),
}

impl Device {
    /// `CreateVertexBuffer` of `size` bytes (zero-filled), managed.
    pub fn create_vertex_buffer(&mut self, size: u32) -> Result<VertexBufferId, DeviceError> {
        self.create_vertex_buffer_in(size, Usage::default(), Pool::Managed)
    }

    /// `CreateVertexBuffer(size, usage, fvf, pool)`: the FVF code only describes the
    /// contents, D3D9 draws with the declaration set at draw time.
    pub fn create_vertex_buffer_in(
        &mut self,
        size: u32,
        usage: Usage,
        pool: Pool,
    ) -> Result<VertexBufferId, DeviceError> {
        let buffer = self.create_buffer("CreateVertexBuffer", size, None, usage, pool)?;
        let id = VertexBufferId(self.next_id());
        self.vertex_buffers.insert(id, buffer);
        Ok(id)
    }

    /// `CreateIndexBuffer` of `size` bytes of 16- or 32-bit indices (zero-filled), managed.
    pub fn create_index_buffer(
        &mut self,
        size: u32,
        format: IndexFormat,
    ) -> Result<IndexBufferId, DeviceError> {
        self.create_index_buffer_in(size, format, Usage::default(), Pool::Managed)
    }

    /// `CreateIndexBuffer(size, usage, format, pool)`.
    pub fn create_index_buffer_in(
        &mut self,
        size: u32,
        format: IndexFormat,
        usage: Usage,
        pool: Pool,
    ) -> Result<IndexBufferId, DeviceError> {
        let buffer = self.create_buffer("CreateIndexBuffer", size, Some(format), usage, pool)?;
        let id = IndexBufferId(self.next_id());
        self.index_buffers.insert(id, buffer);
        Ok(id)
    }

    fn create_buffer(
        &self,
        call: &'static str,
        size: u32,
        index_format: Option<IndexFormat>,
        usage: Usage,
        pool: Pool,
    ) -> Result<BufferObject, DeviceError> {
        if size == 0 {
            return Err(invalid(call, "a buffer of 0 bytes"));
        }
        if pool == Pool::Managed && usage.contains(Usage::DYNAMIC) {
            return Err(invalid(call, "D3DUSAGE_DYNAMIC in D3DPOOL_MANAGED"));
        }
        let limit = self.gpu.device.limits().max_buffer_size;
        if u64::from(size) > limit {
            return Err(unsupported(
                call,
                format!("a {size}-byte buffer: the adapter allows {limit}"),
            ));
        }
        // Every pool gets a GPU copy: D3D9 draws from system-memory buffers too.
        let gpu_usage = match index_format {
            Some(_) => wgpu::BufferUsages::INDEX,
            None => wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::STORAGE,
        } | wgpu::BufferUsages::COPY_DST;
        let buffer = self.gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(call),
            size: u64::from(size).div_ceil(4) * 4,
            usage: gpu_usage,
            mapped_at_creation: false,
        });
        Ok(BufferObject {
            buffer,
            shadow: vec![0; size as usize],
            index_format,
            pool,
            usage,
            locks: 0,
            dirty: None,
        })
    }

    fn buffer_mut(
        &mut self,
        call: &'static str,
        kind: BufferKind,
    ) -> Result<&mut BufferObject, DeviceError> {
        match kind {
            BufferKind::Vertex(id) => self.vertex_buffers.get_mut(&id).ok_or_else(|| {
                invalid(
                    call,
                    format!("{id:?} is not a vertex buffer of this device"),
                )
            }),
            BufferKind::Index(id) => self.index_buffers.get_mut(&id).ok_or_else(|| {
                invalid(
                    call,
                    format!("{id:?} is not an index buffer of this device"),
                )
            }),
        }
    }

    /// `Lock(offset, data.len())` + copy + `Unlock` of a vertex buffer.
    pub fn update_vertex_buffer(
        &mut self,
        id: VertexBufferId,
        offset: u32,
        data: &[u8],
    ) -> Result<(), DeviceError> {
        self.update_buffer(
            "IDirect3DVertexBuffer9::Lock",
            BufferKind::Vertex(id),
            offset,
            data,
        )
    }

    /// `Lock(offset, data.len())` + copy + `Unlock` of an index buffer.
    pub fn update_index_buffer(
        &mut self,
        id: IndexBufferId,
        offset: u32,
        data: &[u8],
    ) -> Result<(), DeviceError> {
        self.update_buffer(
            "IDirect3DIndexBuffer9::Lock",
            BufferKind::Index(id),
            offset,
            data,
        )
    }

    fn update_buffer(
        &mut self,
        call: &'static str,
        kind: BufferKind,
        offset: u32,
        data: &[u8],
    ) -> Result<(), DeviceError> {
        self.flush()?;
        let queue = self.gpu.queue.clone();
        let buffer = self.buffer_mut(call, kind)?;
        let start = offset as usize;
        let end = start
            .checked_add(data.len())
            .filter(|&end| end <= buffer.shadow.len())
            .ok_or_else(|| {
                invalid(
                    call,
                    format!(
                        "{} bytes at offset {offset} of a {}-byte buffer",
                        data.len(),
                        buffer.shadow.len()
                    ),
                )
            })?;
        buffer.shadow[start..end].copy_from_slice(data);
        upload(&queue, buffer, start, end);
        Ok(())
    }

    /// A vertex buffer with `data` in it (`CreateVertexBuffer` + `Lock` + copy + `Unlock`).
    pub fn create_vertex_buffer_with(
        &mut self,
        data: &[u8],
    ) -> Result<VertexBufferId, DeviceError> {
        let size = u32::try_from(data.len())
            .map_err(|_| invalid("CreateVertexBuffer", "more than 4 GiB"))?;
        let id = self.create_vertex_buffer(size)?;
        self.update_vertex_buffer(id, 0, data)?;
        Ok(id)
    }

    /// An index buffer with 16-bit `indices` in it.
    pub fn create_index_buffer_u16(
        &mut self,
        indices: &[u16],
    ) -> Result<IndexBufferId, DeviceError> {
        self.create_index_buffer_with(bytemuck::cast_slice(indices), IndexFormat::Index16)
    }

    /// An index buffer with 32-bit `indices` in it.
    pub fn create_index_buffer_u32(
        &mut self,
        indices: &[u32],
    ) -> Result<IndexBufferId, DeviceError> {
        self.create_index_buffer_with(bytemuck::cast_slice(indices), IndexFormat::Index32)
    }

    fn create_index_buffer_with(
        &mut self,
        bytes: &[u8],
        format: IndexFormat,
    ) -> Result<IndexBufferId, DeviceError> {
        let size = u32::try_from(bytes.len())
            .map_err(|_| invalid("CreateIndexBuffer", "more than 4 GiB"))?;
        let id = self.create_index_buffer(size, format)?;
        self.update_index_buffer(id, 0, bytes)?;
        Ok(id)
    }

    /// `IDirect3DVertexBuffer9::Lock(offset, size, flags)`: the buffer's bytes from
    /// `offset`; a size of 0 locks to the end. Locks nest; the bytes they write reach the GPU
    /// at the last `Unlock`. A lock never waits for draws: the device orders uploads after
    /// the draws recorded before them.
    pub fn lock_vertex_buffer(
        &mut self,
        id: VertexBufferId,
        offset: u32,
        size: u32,
        flags: LockFlags,
    ) -> Result<Locked, DeviceError> {
        self.lock_buffer(
            "IDirect3DVertexBuffer9::Lock",
            BufferKind::Vertex(id),
            offset,
            size,
            flags,
        )
    }

    /// `IDirect3DIndexBuffer9::Lock(offset, size, flags)`, as [`Device::lock_vertex_buffer`].
    pub fn lock_index_buffer(
        &mut self,
        id: IndexBufferId,
        offset: u32,
        size: u32,
        flags: LockFlags,
    ) -> Result<Locked, DeviceError> {
        self.lock_buffer(
            "IDirect3DIndexBuffer9::Lock",
            BufferKind::Index(id),
            offset,
            size,
            flags,
        )
    }

    /// `IDirect3DVertexBuffer9::Unlock`. Unlocking a buffer that is not locked succeeds, as
    /// on Windows.
    pub fn unlock_vertex_buffer(&mut self, id: VertexBufferId) -> Result<(), DeviceError> {
        self.unlock_buffer("IDirect3DVertexBuffer9::Unlock", BufferKind::Vertex(id))
    }

    /// `IDirect3DIndexBuffer9::Unlock`.
    pub fn unlock_index_buffer(&mut self, id: IndexBufferId) -> Result<(), DeviceError> {
        self.unlock_buffer("IDirect3DIndexBuffer9::Unlock", BufferKind::Index(id))
    }

    fn lock_buffer(
        &mut self,
        call: &'static str,
        kind: BufferKind,
        offset: u32,
        size: u32,
        flags: LockFlags,
    ) -> Result<Locked, DeviceError> {
        // The bytes a lock writes reach the GPU at its unlock, before every draw recorded
        // after the lock began (Wine's test_dynamic_map_synchronization draws from a buffer
        // while it is locked) and after the draws recorded before it, which are submitted
        // here. NOOVERWRITE promises not to touch what those draws read: they stay pending
        // and may see the new bytes, unsynchronised, as on Windows (test_map_synchronisation).
        if !flags.contains(LockFlags::READ_ONLY) && !flags.contains(LockFlags::NO_OVERWRITE) {
            self.flush()?;
        }
        let buffer = self.buffer_mut(call, kind)?;
        let len = buffer.shadow.len();
        let start = offset as usize;
        if start > len {
            return Err(invalid(
                call,
                format!("offset {offset} of a {len}-byte buffer"),
            ));
        }
        // D3D9 clamps a lock that runs past the end (Wine's tests lock 0x7fffffff bytes).
        let end = match size {
            0 => len,
            n => start.saturating_add(n as usize).min(len),
        };
        buffer.locks += 1;
        if !flags.contains(LockFlags::READ_ONLY) {
            // The lock's pointer reaches the whole buffer, and Windows keeps what is written
            // past the locked range (Wine's test_max_index16 writes vertex 0xffff through a
            // 64-byte lock): a plain lock marks the whole buffer. DISCARD and NOOVERWRITE
            // locks, made by streaming code that writes what it locked, mark their range.
            let streaming =
                flags.contains(LockFlags::DISCARD) || flags.contains(LockFlags::NO_OVERWRITE);
            let (start, end) = if streaming { (start, end) } else { (0, len) };
            buffer.dirty = Some(match buffer.dirty {
                Some((a, b)) => (a.min(start), b.max(end)),
                None => (start, end),
            });
        }
        let bits = buffer.shadow.as_mut_ptr().wrapping_add(start);
        Ok(Locked {
            bits,
            row_pitch: (end - start) as u32,
            slice_pitch: (end - start) as u32,
        })
    }

    fn unlock_buffer(&mut self, call: &'static str, kind: BufferKind) -> Result<(), DeviceError> {
        let pending = {
            let buffer = self.buffer_mut(call, kind)?;
            if buffer.locks == 0 {
                return Ok(());
            }
            buffer.locks -= 1;
            buffer.locks == 0 && buffer.dirty.is_some()
        };
        if pending {
            let queue = self.gpu.queue.clone();
            let buffer = self.buffer_mut(call, kind)?;
            if let Some((start, end)) = buffer.dirty.take() {
                upload(&queue, buffer, start, end);
            }
        }
        Ok(())
    }

    /// `Release` of a vertex buffer; a stream that still names it is unset.
    pub fn release_vertex_buffer(&mut self, id: VertexBufferId) -> Result<(), DeviceError> {
        self.vertex_buffers.remove(&id).ok_or_else(|| {
            invalid(
                "Release",
                format!("{id:?} is not a vertex buffer of this device"),
            )
        })?;
        for stream in self.state.streams.iter_mut() {
            if stream.buffer == Some(id) {
                stream.buffer = None;
            }
        }
        Ok(())
    }

    /// `Release` of an index buffer; unset if it is the bound one.
    pub fn release_index_buffer(&mut self, id: IndexBufferId) -> Result<(), DeviceError> {
        self.index_buffers.remove(&id).ok_or_else(|| {
            invalid(
                "Release",
                format!("{id:?} is not an index buffer of this device"),
            )
        })?;
        if self.state.indices == Some(id) {
            self.state.indices = None;
        }
        Ok(())
    }

    /// The size, usage and pool of a vertex buffer.
    pub fn vertex_buffer_desc(&self, id: VertexBufferId) -> Option<(u32, Usage, Pool)> {
        self.vertex_buffers
            .get(&id)
            .map(|b| (b.shadow.len() as u32, b.usage, b.pool))
    }

    /// The size, format, usage and pool of an index buffer.
    pub fn index_buffer_desc(&self, id: IndexBufferId) -> Option<(u32, IndexFormat, Usage, Pool)> {
        self.index_buffers.get(&id).map(|b| {
            (
                b.shadow.len() as u32,
                b.index_format.unwrap_or(IndexFormat::Index16),
                b.usage,
                b.pool,
            )
        })
    }
}

impl Device {
    /// Before a submission: the bytes written so far through locks still held reach the GPU,
    /// so draws submitted while a buffer is locked read them, as Windows' locks that point at
    /// the buffer's own memory give (Wine's test_draw_mapped_buffer draws from a locked
    /// DYNAMIC buffer and reads the pixels back before the Unlock). The range stays marked:
    /// the Unlock uploads what the lock writes after this.
    pub(super) fn upload_held_locks(&self) {
        let buffers = self
            .vertex_buffers
            .values()
            .chain(self.index_buffers.values());
        for buffer in buffers.filter(|b| b.locks > 0) {
            if let Some((start, end)) = buffer.dirty {
                upload(&self.gpu.queue, buffer, start, end);
            }
        }
    }
}

/// Uploads `start..end` of the buffer's bytes, rounded out to wgpu's 4-byte copy alignment
/// (the bytes around the range come from the buffer's own copy, never zeros).
fn upload(queue: &wgpu::Queue, buffer: &BufferObject, start: usize, end: usize) {
    let aligned_start = start / 4 * 4;
    let aligned_end = end.div_ceil(4) * 4;
    let mut chunk: Vec<u8> = buffer
        .shadow
        .get(aligned_start..end.min(buffer.shadow.len()))
        .unwrap_or_default()
        .to_vec();
    for i in chunk.len()..aligned_end - aligned_start {
        chunk.push(buffer.shadow.get(aligned_start + i).copied().unwrap_or(0));
    }
    if !chunk.is_empty() {
        queue.write_buffer(&buffer.buffer, aligned_start as u64, &chunk);
    }
}
