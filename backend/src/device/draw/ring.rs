//! The constants ring: the vertex and pixel constants of every draw between two submits,
//! packed into a few large buffers and bound with dynamic offsets.
//!
//! A draw writes its stage's constant buffers (the `ConstantBuffer`s `bindings` computes)
//! into the ring's CPU copy, each at an offset aligned to the adapter's
//! `min_uniform_buffer_offset_alignment` (and the storage one), and binds the bind group of
//! the ring buffer it landed in with those offsets. [`ConstantRing::upload`] writes the
//! copies with one `write_buffer` per ring buffer just before the submit, so every draw reads
//! the constants set before it (the queue orders the write after the previous submit's
//! reads). Nothing is created per draw: one bind group per ring buffer and group layout
//! (`Shape`), made on first use and kept, as the ring buffers are, for later submits.
//! A buffer holding only the `c#` registers the shader reads takes only their bytes: the
//! next placement starts after them, inside the binding's range, which the shader never
//! reads past them (bindings of one uniform buffer may overlap), so a draw writes and
//! uploads the 64 bytes of a world matrix, not the 4 KiB of the register file.
//!
//! A vertex stage reading its `c#` from a window (`FloatConstants::window`) has its `c#`
//! placed at a 16-byte boundary inside the window the ring buffer is filling, bound at the
//! window's start; where `c#0` lies in the window is the draw's first instance
//! ([`Offsets::first_instance`]), which the shader reads as `instance_index`. Draws whose
//! constants fit the same window keep the bound group and its offsets: a world matrix per
//! draw costs no `set_bind_group`, only the draw's first instance. A window starts anew when
//! the next placement would not fit it.
//!
//! A stage whose constants key (`BindGroupKey`) is the one it wrote last in this submit
//! reuses those offsets; after a submit, the last constants are written again from their
//! kept copy (a memoised draw needs no recomputation). A memoised draw whose float
//! constants alone changed rewrites only the `c#` buffer of the kept copy, in place, and
//! places that ([`ConstantRing::place_changed`]).

use std::collections::HashMap;
use std::num::NonZeroU64;
use std::sync::{Arc, Mutex};

use super::BindGroupKey;
use crate::device::ConstantBuffer;
use d3d9_translator::lift::interface::HW_FLOAT_CONSTANTS;

/// Bytes of one ring buffer (more where one draw's constants need more).
const CHUNK_BYTES: usize = 4 << 20;

/// Registers of the window a vertex stage reads `c#` from (`FloatConstants::window`): 64 KiB
/// (WebGPU's default uniform binding size), or what the adapter binds where that is less;
/// `None` where that would not hold the register file and its zero register twice over.
pub(crate) fn constants_window(device: &wgpu::Device) -> Option<u32> {
    window_registers(device.limits().max_uniform_buffer_binding_size)
}

/// [`constants_window`] for an adapter binding at most `max_binding` bytes of a uniform
/// buffer.
fn window_registers(max_binding: u64) -> Option<u32> {
    let registers = u32::try_from(max_binding.min(64 << 10) / REGISTER as u64).ok()?;
    (registers >= 2 * (HW_FLOAT_CONSTANTS + 1)).then_some(registers)
}

/// Constant bindings one group can have (vertex: `c#`, `i#`, `b#`, position fix-up, points,
/// clip planes; pixel: `c#`, `i#`, `b#`, fog or bump environment, alpha reference).
pub(crate) const MAX_ENTRIES: usize = 6;

/// One constant binding as the ring binds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct RingEntry {
    pub(crate) binding: u32,
    /// A read-only storage buffer (software vertex processing's `c#`).
    pub(crate) storage: bool,
    /// The binding's size: the WGSL type's.
    pub(crate) size: u64,
    /// `c#` read from a window, placed inside it (see the module documentation).
    pub(crate) windowed: bool,
}

/// An interned constants group layout: its entries (by binding) and the layout, shared by
/// every pipeline whose constants group has these entries.
#[derive(Clone)]
struct Shape {
    entries: Vec<RingEntry>,
    layout: wgpu::BindGroupLayout,
}

/// The interned layouts, shared with the threads that build pipelines ahead of their draws
/// (`prebuild`); the ring keeps a copy of those it has seen, so a draw takes no lock.
#[derive(Default)]
pub(crate) struct ShapeTable {
    shapes: Vec<Shape>,
    by_entries: HashMap<Vec<RingEntry>, ShapeId>,
}

/// [`ShapeTable`] as the ring and the pipeline builders hold it.
pub(crate) type SharedShapes = Arc<Mutex<ShapeTable>>;

/// The table, whoever panicked holding it (a table is never left half-updated).
fn table(shapes: &SharedShapes) -> std::sync::MutexGuard<'_, ShapeTable> {
    shapes.lock().unwrap_or_else(|p| p.into_inner())
}

/// The interned layout of a group with `entries` (sorted by binding here).
pub(crate) fn intern(
    shapes: &SharedShapes,
    device: &wgpu::Device,
    mut entries: Vec<RingEntry>,
) -> ShapeId {
    entries.sort_by_key(|e| e.binding);
    let mut table = table(shapes);
    if let Some(&id) = table.by_entries.get(&entries) {
        return id;
    }
    let layout_entries: Vec<wgpu::BindGroupLayoutEntry> = entries
        .iter()
        .map(|e| buffer_layout_entry(e.binding, e.storage, Some(e.size)))
        .collect();
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("constants ring"),
        entries: &layout_entries,
    });
    let id = ShapeId(table.shapes.len());
    table.shapes.push(Shape {
        entries: entries.clone(),
        layout,
    });
    table.by_entries.insert(entries, id);
    id
}

/// The layout entry of a constant buffer: a uniform buffer both stages read, or a read-only
/// storage buffer (software vertex processing's `c#`, the vertex stage's only); bound with a
/// dynamic offset and a binding of `dynamic`'s size, or whole.
pub(crate) fn buffer_layout_entry(
    binding: u32,
    storage: bool,
    dynamic: Option<u64>,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: match storage {
            true => wgpu::ShaderStages::VERTEX,
            false => wgpu::ShaderStages::VERTEX_FRAGMENT,
        },
        ty: wgpu::BindingType::Buffer {
            ty: match storage {
                true => wgpu::BufferBindingType::Storage { read_only: true },
                false => wgpu::BufferBindingType::Uniform,
            },
            has_dynamic_offset: dynamic.is_some(),
            min_binding_size: dynamic.and_then(NonZeroU64::new),
        },
        count: None,
    }
}

/// The layout of an interned shape.
pub(crate) fn layout(shapes: &SharedShapes, shape: ShapeId) -> Option<wgpu::BindGroupLayout> {
    table(shapes).shapes.get(shape.0).map(|s| s.layout.clone())
}

/// Which interned layout a group binds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ShapeId(usize);

/// The shader stage whose constants are placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    Vertex = 0,
    Pixel = 1,
}

/// The dynamic offsets of one group, in binding order, and where its windowed `c#` lies in
/// the window bound (0 where it has none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Offsets {
    offsets: [u32; MAX_ENTRIES],
    len: usize,
    /// The window's register holding `c#0`: the draw's first instance.
    pub(crate) first_instance: u32,
}

impl Offsets {
    pub(crate) fn as_slice(&self) -> &[u32] {
        &self.offsets[..self.len]
    }

    /// The same dynamic offsets (the first instance aside: it is the draw's, not the
    /// group's). Fixed-size arrays compare without a call (entries past `len` are 0).
    pub(crate) fn binds_as(&self, other: &Offsets) -> bool {
        self.len == other.len && self.offsets == other.offsets
    }
}

/// Where a stage's constants were placed: the ring buffer and the offsets.
#[derive(Clone, Copy, Debug)]
struct Placed {
    chunk: usize,
    offsets: Offsets,
}

/// A stage's last constants: what a draw with the same key reuses.
struct StageUpload {
    key: BindGroupKey,
    shape: ShapeId,
    buffers: Vec<ConstantBuffer>,
    generation: u64,
    placed: Placed,
}

/// One ring buffer and its CPU copy.
struct Chunk {
    buffer: wgpu::Buffer,
    bytes: Vec<u8>,
    used: usize,
    /// Where the window windowed entries are placed in starts (see the module
    /// documentation); `None` until one is placed in this submit.
    window: Option<usize>,
    /// The bind group of each shape over this buffer, made on first use.
    groups: Vec<Option<wgpu::BindGroup>>,
}

/// The ring buffers of one submit's constants.
struct Chunks {
    chunks: Vec<Chunk>,
    /// The ring buffer being filled.
    current: usize,
    align: usize,
    usage: wgpu::BufferUsages,
}

/// See the module documentation.
pub(crate) struct ConstantRing {
    /// Every interned layout (`ShapeTable`), and the ring's copy of those it has seen.
    pub(crate) shared: SharedShapes,
    shapes: Vec<Shape>,
    chunks: Chunks,
    /// Counts submits: placements of an earlier generation are gone.
    generation: u64,
    /// Dynamic uniform and storage buffers a pipeline layout may have.
    pub(crate) dynamic_uniform: u32,
    pub(crate) dynamic_storage: u32,
    last: [Option<StageUpload>; 2],
}

impl ConstantRing {
    pub(crate) fn new(device: &wgpu::Device) -> ConstantRing {
        let limits = device.limits();
        let storage = limits.max_storage_buffers_per_shader_stage > 0;
        let mut usage = wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST;
        if storage {
            usage |= wgpu::BufferUsages::STORAGE;
        }
        ConstantRing {
            shared: SharedShapes::default(),
            shapes: Vec::new(),
            chunks: Chunks {
                chunks: Vec::new(),
                current: 0,
                align: limits
                    .min_uniform_buffer_offset_alignment
                    .max(limits.min_storage_buffer_offset_alignment)
                    .max(16) as usize,
                usage,
            },
            generation: 0,
            dynamic_uniform: limits.max_dynamic_uniform_buffers_per_pipeline_layout,
            dynamic_storage: match storage {
                true => limits.max_dynamic_storage_buffers_per_pipeline_layout,
                false => 0,
            },
            last: [None, None],
        }
    }

    /// The submit placements belong to.
    pub(crate) fn generation(&self) -> u64 {
        self.generation
    }

    /// The interned layout `shape`, copied from the shared table where the ring has not
    /// seen it yet.
    fn shape(&mut self, shape: ShapeId) -> &Shape {
        if shape.0 >= self.shapes.len() {
            let table = table(&self.shared);
            self.shapes
                .extend(table.shapes[self.shapes.len()..].iter().cloned());
        }
        &self.shapes[shape.0]
    }

    /// The bind group and offsets of `stage`'s constants under `key` for a group of `shape`:
    /// the last placement where the key is the same in this submit, else `buffers()` placed.
    pub(crate) fn place<E>(
        &mut self,
        device: &wgpu::Device,
        stage: Stage,
        key: &BindGroupKey,
        shape: ShapeId,
        buffers: impl FnOnce() -> Result<Vec<ConstantBuffer>, E>,
    ) -> Result<(wgpu::BindGroup, Offsets), E> {
        let generation = self.generation;
        let slot = stage as usize;
        let reusable = match &self.last[slot] {
            Some(last) if last.shape == shape && last.key == *key => {
                Some(last.generation == generation)
            }
            _ => None,
        };
        let placed = match reusable {
            Some(true) => self.last[slot].as_ref().map(|l| l.placed),
            Some(false) => self.replace(device, stage),
            None => None,
        };
        let placed = match placed {
            Some(placed) => placed,
            None => {
                let buffers = buffers()?;
                self.shape(shape);
                let placed = self.chunks.push(device, &self.shapes[shape.0], &buffers);
                self.last[slot] = Some(StageUpload {
                    key: key.clone(),
                    shape,
                    buffers,
                    generation,
                    placed,
                });
                placed
            }
        };
        Ok((self.group(device, placed.chunk, shape), placed.offsets))
    }

    /// `stage`'s last constants, placed under `key` for a group of `shape`, with the buffer
    /// of `binding` rewritten in place by `write`, placed anew under the key `retarget`
    /// makes of it, in the ring and in `key` (a memoised draw whose float constants alone
    /// changed: nothing is rebuilt or freed). Where this submit placed them and the ring
    /// buffer has room, only that entry moves: the others keep their offsets and bytes, and
    /// the group is the one bound (`None`). `None`, and nothing changed, where the stage's
    /// last placement is another's.
    pub(crate) fn place_changed(
        &mut self,
        device: &wgpu::Device,
        stage: Stage,
        (key, retarget): (&mut BindGroupKey, &dyn Fn(&mut BindGroupKey)),
        (shape, binding): (ShapeId, u32),
        write: impl FnOnce(&mut Vec<u8>),
    ) -> Option<(Option<wgpu::BindGroup>, Offsets)> {
        self.shape(shape);
        let generation = self.generation;
        let last = self.last[stage as usize].as_mut()?;
        if last.shape != shape || last.key != *key {
            return None;
        }
        let buffer = last.buffers.iter().position(|b| b.binding == binding)?;
        write(&mut last.buffers[buffer].data);
        retarget(&mut last.key);
        retarget(key);
        let layout = &self.shapes[shape.0];
        let entry = layout.entries.iter().position(|e| e.binding == binding);
        if let (true, Some(entry)) = (last.generation == generation, entry) {
            let data = &last.buffers[buffer].data;
            let e = layout.entries[entry];
            if let Some((at, first)) = self.chunks.place_entry(last.placed.chunk, e, data) {
                // A windowed entry in the same window keeps its offset: the group bound
                // stays as it was, and only the first instance moves.
                let offsets = &mut last.placed.offsets;
                offsets.offsets[entry] = at;
                if e.windowed {
                    offsets.first_instance = first;
                }
                return Some((None, *offsets));
            }
        }
        last.placed = self.chunks.push(device, layout, &last.buffers);
        last.generation = generation;
        let placed = last.placed;
        let group = self.chunks.group(device, placed.chunk, shape, layout);
        Some((Some(group), placed.offsets))
    }

    /// `stage`'s last constants placed again in this submit (a memoised draw after a
    /// submit), with their bind group; `None` where the stage has none of `shape`.
    pub(crate) fn again(
        &mut self,
        device: &wgpu::Device,
        stage: Stage,
        shape: ShapeId,
    ) -> Option<(wgpu::BindGroup, Offsets)> {
        if self.last[stage as usize].as_ref()?.shape != shape {
            return None;
        }
        let placed = self.replace(device, stage)?;
        Some((self.group(device, placed.chunk, shape), placed.offsets))
    }

    /// Places `stage`'s last constants in this submit, unless they are already.
    fn replace(&mut self, device: &wgpu::Device, stage: Stage) -> Option<Placed> {
        let shape = self.last[stage as usize].as_ref()?.shape;
        self.shape(shape);
        let last = self.last[stage as usize].as_mut()?;
        if last.generation != self.generation {
            last.placed = self
                .chunks
                .push(device, &self.shapes[shape.0], &last.buffers);
            last.generation = self.generation;
        }
        Some(last.placed)
    }

    /// The bind group of `shape` over ring buffer `chunk`.
    fn group(&mut self, device: &wgpu::Device, chunk: usize, shape: ShapeId) -> wgpu::BindGroup {
        self.shape(shape);
        self.chunks
            .group(device, chunk, shape, &self.shapes[shape.0])
    }

    /// Writes what this submit placed into the ring buffers (before the submit that reads
    /// it) and starts the next generation.
    pub(crate) fn upload(&mut self, queue: &wgpu::Queue) {
        for chunk in &mut self.chunks.chunks {
            if chunk.used > 0 {
                let end = chunk
                    .used
                    .next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT as usize);
                queue.write_buffer(&chunk.buffer, 0, &chunk.bytes[..end]);
            }
        }
        self.discard();
    }

    /// Forgets what this submit placed (its draws were dropped, or uploaded).
    pub(crate) fn discard(&mut self) {
        for chunk in &mut self.chunks.chunks {
            chunk.used = 0;
            chunk.window = None;
        }
        self.chunks.current = 0;
        self.generation += 1;
    }
}

impl Chunk {
    /// The bytes from the next aligned offset to the end.
    fn room(&self, align: usize) -> usize {
        self.bytes
            .len()
            .saturating_sub(self.used.next_multiple_of(align))
    }

    /// Places `data`, the buffer of `entry`, the room for the whole binding checked by the
    /// caller: its dynamic offset, and for a windowed entry where `c#0` lies in the window
    /// (in registers), else 0.
    fn place(&mut self, entry: RingEntry, data: &[u8], align: usize) -> (usize, u32) {
        let size = entry.size as usize;
        if !entry.windowed {
            return (self.put(size, data, align), 0);
        }
        // The registers written (all of the binding where the buffer is missing).
        let len = match data.is_empty() {
            true => size,
            false => data.len().min(size),
        };
        let next = self.used.next_multiple_of(REGISTER);
        let start = match self.window {
            Some(start) if next + len <= start + size => start,
            // A new window, at the next aligned offset (the caller checked the room).
            _ => self.used.next_multiple_of(align),
        };
        self.window = Some(start);
        self.used = self.used.max(start);
        let at = self.put(size, data, REGISTER);
        let first = u32::try_from((at - start) / REGISTER).unwrap_or(0);
        (start, first)
    }

    /// Writes `data`, a buffer of a binding of `size`, at the next offset aligned to `align`
    /// (the room for the binding checked by the caller) and returns that offset; the next
    /// placement starts at an offset aligned to `align` too. A missing buffer (empty) reads
    /// zeros. A shorter one (`Extent::Read`: the registers the shader reads) leaves the rest
    /// as it was: the shader never reads it, so the next placement may start there
    /// (bindings of a uniform buffer may overlap).
    fn put(&mut self, size: usize, data: &[u8], align: usize) -> usize {
        let at = self.used.next_multiple_of(align);
        let end = (at + size).min(self.bytes.len());
        let slot = &mut self.bytes[at..end];
        let written = match data.is_empty() {
            true => {
                slot.fill(0);
                size
            }
            false => {
                let n = data.len().min(slot.len());
                slot[..n].copy_from_slice(&data[..n]);
                n
            }
        };
        self.used = (at + written.max(1)).next_multiple_of(align);
        at
    }
}

/// Bytes of a `c#` register: a windowed entry's granularity.
const REGISTER: usize = 16;

impl Chunks {
    /// `data`, the buffer of `entry`, placed in ring buffer `chunk` where it is the one
    /// being filled and has room for the whole binding; its offset and first instance
    /// ([`Chunk::place`]).
    fn place_entry(&mut self, chunk: usize, entry: RingEntry, data: &[u8]) -> Option<(u32, u32)> {
        let align = self.align;
        let size = (entry.size as usize).next_multiple_of(align);
        let c = self
            .chunks
            .get_mut(chunk)
            .filter(|c| chunk == self.current && c.room(align) >= size)?;
        let (at, first) = c.place(entry, data, align);
        Some((u32::try_from(at).ok()?, first))
    }

    /// Copies `buffers` into the ring, each entry of `shape` at an aligned offset (zeros
    /// where a buffer is missing; a shorter buffer fills only its own bytes).
    fn push(&mut self, device: &wgpu::Device, shape: &Shape, buffers: &[ConstantBuffer]) -> Placed {
        let align = self.align;
        let entries = &shape.entries;
        let need: usize = entries
            .iter()
            .map(|e| (e.size as usize).next_multiple_of(align))
            .sum();
        while self
            .chunks
            .get(self.current)
            .is_some_and(|c| c.room(align) < need)
        {
            self.current += 1;
        }
        if self.current == self.chunks.len() {
            let size = need.max(CHUNK_BYTES);
            self.chunks.push(Chunk {
                buffer: device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("constants ring"),
                    size: size as u64,
                    usage: self.usage,
                    mapped_at_creation: false,
                }),
                bytes: vec![0; size],
                used: 0,
                window: None,
                groups: Vec::new(),
            });
        }
        let chunk = &mut self.chunks[self.current];
        let mut offsets = Offsets::default();
        for (i, e) in entries.iter().enumerate() {
            let data = buffers
                .iter()
                .find(|b| b.binding == e.binding)
                .map_or(&[][..], |b| &b.data[..]);
            let (at, first) = chunk.place(*e, data, align);
            offsets.offsets[i] = at as u32;
            if e.windowed {
                offsets.first_instance = first;
            }
        }
        offsets.len = entries.len();
        Placed {
            chunk: self.current,
            offsets,
        }
    }

    /// The bind group of `shape` (interned as `id`) over ring buffer `chunk`.
    fn group(
        &mut self,
        device: &wgpu::Device,
        chunk: usize,
        id: ShapeId,
        shape: &Shape,
    ) -> wgpu::BindGroup {
        let Shape { entries, layout } = shape;
        let chunk = &mut self.chunks[chunk];
        if chunk.groups.len() <= id.0 {
            chunk.groups.resize(id.0 + 1, None);
        }
        chunk.groups[id.0]
            .get_or_insert_with(|| {
                let bindings: Vec<wgpu::BindGroupEntry<'_>> = entries
                    .iter()
                    .map(|e| wgpu::BindGroupEntry {
                        binding: e.binding,
                        resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                            buffer: &chunk.buffer,
                            offset: 0,
                            size: NonZeroU64::new(e.size),
                        }),
                    })
                    .collect();
                device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("constants ring"),
                    layout,
                    entries: &bindings,
                })
            })
            .clone()
    }
}

#[cfg(test)]
#[path = "ring_tests.rs"]
mod tests;
