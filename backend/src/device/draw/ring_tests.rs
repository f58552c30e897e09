//! The constants ring's placements: offsets, windows, reuse across draws and submits.

use std::cell::Cell;

use super::*;
use crate::gpu::Gpu;

fn gpu() -> Gpu {
    Gpu::new().unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"))
}

fn entry(binding: u32, size: u64, windowed: bool) -> RingEntry {
    RingEntry {
        binding,
        storage: false,
        size,
        windowed,
    }
}

fn buffer(binding: u32, data: Vec<u8>) -> ConstantBuffer {
    ConstantBuffer {
        group: 0,
        binding,
        storage: false,
        data,
    }
}

/// A ring buffer of `len` bytes, its CPU copy filled with 0xAA (bytes never written).
fn chunk(device: &wgpu::Device, len: usize) -> Chunk {
    Chunk {
        buffer: device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: len as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        }),
        bytes: vec![0xAA; len],
        used: 0,
        window: None,
        groups: Vec::new(),
    }
}

/// Ring buffers aligned to 256 bytes (WebGPU's largest offset alignment).
fn chunks() -> Chunks {
    Chunks {
        chunks: Vec::new(),
        current: 0,
        align: 256,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
    }
}

fn shape(entries: Vec<RingEntry>, device: &wgpu::Device) -> Shape {
    Shape {
        layout: device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: None,
            entries: &[],
        }),
        entries,
    }
}

/// A key of its own for each `pair`.
fn key(pair: u64) -> BindGroupKey {
    BindGroupKey::Textures {
        pair,
        group: 0,
        bound: Vec::new(),
    }
}

/// The window is 64 KiB of registers, or what the adapter binds where that is less, and
/// none where that cannot hold the 256 registers and their zero register twice.
#[test]
fn the_window_holds_the_register_file_twice_within_64_kib() {
    assert_eq!(window_registers(1 << 20), Some(4096));
    assert_eq!(window_registers(64 << 10), Some(4096));
    assert_eq!(window_registers(16 * 514), Some(514));
    assert_eq!(window_registers(16 * 514 + 15), Some(514));
    assert_eq!(window_registers(16 * 513), None);
    assert_eq!(window_registers(0), None);
}

/// Two groups bind alike when their dynamic offsets are the same, whatever their draws'
/// first instances.
#[test]
fn offsets_bind_alike_by_their_dynamic_offsets_alone() {
    let mut a = Offsets::default();
    a.offsets[..2].copy_from_slice(&[0, 256]);
    a.len = 2;
    a.first_instance = 3;
    assert_eq!(a.as_slice(), &[0, 256]);
    let other_instance = Offsets {
        first_instance: 9,
        ..a
    };
    assert!(a.binds_as(&other_instance));
    let longer = Offsets { len: 3, ..a };
    assert!(!a.binds_as(&longer));
    let mut moved = a;
    moved.offsets[1] = 512;
    assert!(!a.binds_as(&moved));
}

/// A uniform buffer both stages read, or a read-only storage buffer the vertex stage
/// reads; with a dynamic offset and a binding of that size, or bound whole.
#[test]
fn constant_buffers_are_uniform_or_read_only_storage_entries() {
    let uniform = buffer_layout_entry(3, false, Some(64));
    assert_eq!(uniform.binding, 3);
    assert_eq!(uniform.visibility, wgpu::ShaderStages::VERTEX_FRAGMENT);
    assert_eq!(
        uniform.ty,
        wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: true,
            min_binding_size: NonZeroU64::new(64),
        }
    );
    let storage = buffer_layout_entry(0, true, None);
    assert_eq!(storage.visibility, wgpu::ShaderStages::VERTEX);
    assert_eq!(
        storage.ty,
        wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only: true },
            has_dynamic_offset: false,
            min_binding_size: None,
        }
    );
}

/// Entries in any order intern as one shape, sorted by binding; other entries are another.
#[test]
fn gpu_shapes_are_interned_by_their_sorted_entries() {
    let gpu = gpu();
    let shapes = SharedShapes::default();
    let a = intern(
        &shapes,
        &gpu.device,
        vec![entry(1, 64, false), entry(0, 32, true)],
    );
    let b = intern(
        &shapes,
        &gpu.device,
        vec![entry(0, 32, true), entry(1, 64, false)],
    );
    let c = intern(&shapes, &gpu.device, vec![entry(0, 32, true)]);
    assert_eq!(a, b);
    assert_ne!(a, c);
    let table = table(&shapes);
    assert_eq!(table.shapes.len(), 2);
    assert_eq!(
        table.shapes[a.0].entries,
        [entry(0, 32, true), entry(1, 64, false)]
    );
    drop(table);
    assert!(layout(&shapes, c).is_some());
    assert!(layout(&shapes, ShapeId(2)).is_none());
}

/// A buffer shorter than its binding writes its own bytes and the next placement starts
/// after them; a missing one zeroes the binding; one at the end writes what fits. The room
/// is what lies past the next aligned offset.
#[test]
fn gpu_a_chunk_puts_buffers_at_aligned_offsets() {
    let gpu = gpu();
    let mut c = chunk(&gpu.device, 256);
    assert_eq!(c.room(16), 256);
    assert_eq!(c.put(64, &[1; 20], 16), 0);
    assert_eq!(c.bytes[..20], [1; 20]);
    assert_eq!(c.bytes[20], 0xAA);
    assert_eq!(c.used, 32);
    assert_eq!(c.room(16), 224);
    assert_eq!(c.room(64), 192);
    assert_eq!(c.put(48, &[], 32), 32);
    assert!(c.bytes[32..80].iter().all(|&b| b == 0));
    assert_eq!(c.bytes[80], 0xAA);
    assert_eq!(c.used, 96);
    // An empty binding still moves the next placement on.
    assert_eq!(c.put(0, &[], 16), 96);
    assert_eq!(c.used, 112);
    c.used = 240;
    assert_eq!(c.put(64, &[2; 64], 16), 240);
    assert_eq!(c.bytes[240..], [2; 16]);
    assert_eq!(c.used, 256);
    assert_eq!(c.room(16), 0);
    c.used = 250;
    assert_eq!(c.room(512), 0);
}

/// Windowed `c#` goes to the next register of the window being filled while it fits
/// (exactly, too), its offset the window's start and its first instance the register it
/// starts at; else a new window starts at the next aligned offset. Other entries go to
/// the next aligned offset, first instance 0.
#[test]
fn gpu_windowed_constants_fill_a_window_before_starting_the_next() {
    let gpu = gpu();
    let mut c = chunk(&gpu.device, 4096);
    let window = entry(0, 1024, true);
    assert_eq!(c.place(window, &[1; 64], 256), (0, 0));
    assert_eq!(c.window, Some(0));
    assert_eq!(c.place(window, &[2; 64], 256), (0, 4));
    assert_eq!(c.bytes[64..128], [2; 64]);
    assert_eq!(c.place(entry(1, 32, false), &[3; 32], 256), (256, 0));
    assert_eq!(c.used, 512);
    assert_eq!(c.place(window, &[4; 64], 256), (0, 32));
    assert_eq!(c.place(window, &[5; 512], 256), (768, 0));
    assert_eq!(c.window, Some(768));
    assert_eq!(c.bytes[768..1280], [5; 512]);
    // 512 more bytes end exactly at the window's end.
    assert_eq!(c.place(window, &[6; 512], 256), (768, 32));
    // A missing buffer fills the whole binding: a new window.
    assert_eq!(c.place(window, &[], 256), (1792, 0));
    assert!(c.bytes[1792..2816].iter().all(|&b| b == 0));
    assert_eq!(c.used, 2816);
}

/// An entry is placed again in the ring buffer being filled only, where it has room for
/// the whole binding (aligned).
#[test]
fn gpu_an_entry_is_placed_again_only_in_the_current_chunk_with_room() {
    let gpu = gpu();
    let mut ring = chunks();
    ring.chunks.push(chunk(&gpu.device, 4096));
    ring.chunks.push(chunk(&gpu.device, 4096));
    ring.chunks[0].used = 4096 - 512;
    let fits = entry(0, 512, false);
    assert_eq!(ring.place_entry(1, fits, &[1; 16]), None);
    assert_eq!(ring.place_entry(0, entry(0, 513, false), &[1; 16]), None);
    assert_eq!(ring.place_entry(0, fits, &[1; 16]), Some((3584, 0)));
    assert_eq!(ring.chunks[0].bytes[3584..3600], [1; 16]);
    ring.current = 1;
    assert_eq!(
        ring.place_entry(1, entry(0, 64, true), &[2; 16]),
        Some((0, 0))
    );
    assert_eq!(
        ring.place_entry(1, entry(0, 64, true), &[2; 16]),
        Some((0, 1))
    );
}

/// A group's buffers go to the current ring buffer, each entry at its own aligned offset
/// (a missing buffer reads zeros), the windowed one's first instance with them; a group
/// that does not fit moves on to a new ring buffer, of 4 MiB or the group's size.
#[test]
fn gpu_groups_are_pushed_into_the_current_chunk_or_a_new_one() {
    let gpu = gpu();
    let mut ring = chunks();
    let group = shape(vec![entry(0, 64, false), entry(1, 1024, true)], &gpu.device);
    let buffers = [buffer(1, vec![7; 32])];
    let placed = ring.push(&gpu.device, &group, &buffers);
    assert_eq!(ring.chunks.len(), 1);
    assert_eq!(ring.chunks[0].bytes.len(), CHUNK_BYTES);
    assert_eq!(
        (placed.chunk, placed.offsets.as_slice()),
        (0, &[0, 256][..])
    );
    assert_eq!(placed.offsets.first_instance, 0);
    assert!(ring.chunks[0].bytes[..64].iter().all(|&b| b == 0));
    assert_eq!(ring.chunks[0].bytes[256..288], [7; 32]);
    let placed = ring.push(&gpu.device, &group, &buffers);
    assert_eq!(ring.chunks.len(), 1);
    assert_eq!(placed.offsets.as_slice(), [512, 256]);
    assert_eq!(placed.offsets.first_instance, 32);
    assert!(ring.chunks[0].bytes[512..576].iter().all(|&b| b == 0));
    // The group needs 256 + 1024 bytes: exactly the room left stays in this ring buffer.
    ring.chunks[0].used = CHUNK_BYTES - 1280;
    assert_eq!(ring.push(&gpu.device, &group, &buffers).chunk, 0);
    ring.chunks[0].used = CHUNK_BYTES - 1024;
    let placed = ring.push(&gpu.device, &group, &buffers);
    assert_eq!((placed.chunk, ring.current, ring.chunks.len()), (1, 1, 2));
    assert_eq!(ring.chunks[1].bytes.len(), CHUNK_BYTES);
    assert_eq!(placed.offsets.as_slice(), [0, 256]);
    let big = shape(vec![entry(0, 5 << 20, false)], &gpu.device);
    let placed = ring.push(&gpu.device, &big, &[]);
    assert_eq!((placed.chunk, ring.chunks[2].bytes.len()), (2, 5 << 20));
}

/// The ring follows the adapter: offsets aligned to both of its alignments (16 at least),
/// storage buffers where it has them, its dynamic-offset limits.
#[test]
fn gpu_the_ring_takes_the_adapters_limits() {
    let gpu = gpu();
    let limits = gpu.device.limits();
    let ring = ConstantRing::new(&gpu.device);
    let align = limits
        .min_uniform_buffer_offset_alignment
        .max(limits.min_storage_buffer_offset_alignment)
        .max(16) as usize;
    assert_eq!(ring.chunks.align, align);
    let storage = limits.max_storage_buffers_per_shader_stage > 0;
    assert_eq!(
        ring.chunks.usage.contains(wgpu::BufferUsages::STORAGE),
        storage
    );
    assert!(ring
        .chunks
        .usage
        .contains(wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST));
    assert_eq!(
        ring.dynamic_uniform,
        limits.max_dynamic_uniform_buffers_per_pipeline_layout
    );
    let dynamic_storage = match storage {
        true => limits.max_dynamic_storage_buffers_per_pipeline_layout,
        false => 0,
    };
    assert_eq!(ring.dynamic_storage, dynamic_storage);
}

/// A stage's constants under the key it placed last in this submit are reused without
/// being computed; another key, or the other stage, places anew; after a submit the last
/// ones are placed again from their kept copy.
#[test]
fn gpu_a_stage_reuses_its_last_constants_within_a_submit_and_places_them_again_after() {
    let gpu = gpu();
    let device = &gpu.device;
    let mut ring = ConstantRing::new(device);
    ring.chunks.align = 256;
    let id = intern(&ring.shared, device, vec![entry(0, 64, false)]);
    let other = intern(&ring.shared, device, vec![entry(0, 32, false)]);
    let computed = Cell::new(0);
    let place = |ring: &mut ConstantRing, stage, k: u64, fill: u8| {
        let (_, offsets) = ring
            .place(device, stage, &key(k), id, || {
                computed.set(computed.get() + 1);
                Ok::<_, ()>(vec![buffer(0, vec![fill; 64])])
            })
            .unwrap();
        (offsets.as_slice()[0], computed.get())
    };
    assert_eq!(place(&mut ring, Stage::Vertex, 1, 1), (0, 1));
    assert_eq!(place(&mut ring, Stage::Vertex, 1, 9), (0, 1));
    assert_eq!(place(&mut ring, Stage::Pixel, 1, 2), (256, 2));
    assert_eq!(place(&mut ring, Stage::Vertex, 2, 3), (512, 3));
    assert_eq!(place(&mut ring, Stage::Vertex, 1, 4), (768, 4));
    assert_eq!(ring.chunks.chunks[0].bytes[768..832], [4; 64]);
    let generation = ring.generation();
    ring.discard();
    assert_eq!(ring.generation(), generation + 1);
    assert_eq!(ring.chunks.chunks[0].used, 0);
    // The pixel stage's constants first, so the vertex stage's land elsewhere than before.
    assert_eq!(place(&mut ring, Stage::Pixel, 1, 5), (0, 4));
    assert_eq!(place(&mut ring, Stage::Vertex, 1, 6), (256, 4));
    assert_eq!(ring.chunks.chunks[0].bytes[256..320], [4; 64]);
    // A memoised draw after a submit: its last constants again, for its shape only.
    assert!(ring.again(device, Stage::Vertex, other).is_none());
    ring.discard();
    let (_, offsets) = ring.again(device, Stage::Vertex, id).unwrap();
    assert_eq!(offsets.as_slice(), [0]);
    let (_, offsets) = ring.again(device, Stage::Vertex, id).unwrap();
    assert_eq!(offsets.as_slice(), [0]);
    assert_eq!(ring.chunks.chunks[0].used, 256);
    ring.upload(&gpu.queue);
    assert_eq!(ring.generation(), generation + 3);
    let c = &ring.chunks.chunks[0];
    assert_eq!((c.used, c.window, ring.chunks.current), (0, None, 0));
}

/// A memoised draw whose float constants alone changed rewrites that buffer of the kept
/// copy and retargets the keys; within the submit only that entry moves and the bound
/// group stays (a windowed one keeps its offset and moves its first instance); after a
/// submit the whole group is placed again. Another key, or a binding not kept, changes
/// nothing.
#[test]
fn gpu_changed_float_constants_move_only_their_entry() {
    let gpu = gpu();
    let device = &gpu.device;
    let mut ring = ConstantRing::new(device);
    ring.chunks.align = 256;
    let id = intern(
        &ring.shared,
        device,
        vec![entry(0, 64, false), entry(1, 1024, true)],
    );
    let buffers = vec![buffer(0, vec![1; 64]), buffer(1, vec![2; 32])];
    let (_, offsets) = ring
        .place(device, Stage::Vertex, &key(1), id, || Ok::<_, ()>(buffers))
        .unwrap();
    assert_eq!(
        (offsets.as_slice(), offsets.first_instance),
        (&[0, 256][..], 0)
    );
    let retarget: &dyn Fn(&mut BindGroupKey) = &|k| *k = key(2);
    let written = Cell::new(0);
    let write = |fill: u8| {
        let written = &written;
        move |data: &mut Vec<u8>| {
            written.set(written.get() + 1);
            data.fill(fill);
        }
    };
    // A change as (whether a new group is bound, the offsets, the first instance).
    let change = |ring: &mut ConstantRing, k: &mut BindGroupKey, binding, fill| {
        ring.place_changed(
            device,
            Stage::Vertex,
            (k, retarget),
            (id, binding),
            write(fill),
        )
        .map(|(group, o)| (group.is_some(), o.as_slice().to_vec(), o.first_instance))
    };
    let mut wrong = key(7);
    assert_eq!(change(&mut ring, &mut wrong, 1, 3), None);
    assert_eq!(wrong, key(7));
    let mut k = key(1);
    assert_eq!(change(&mut ring, &mut k, 5, 3), None);
    assert_eq!(written.get(), 0);
    assert_eq!(
        change(&mut ring, &mut k, 1, 3),
        Some((false, vec![0, 256], 2))
    );
    assert_eq!(k, key(2));
    assert_eq!(ring.chunks.chunks[0].bytes[288..320], [3; 32]);
    assert_eq!(
        change(&mut ring, &mut k, 0, 4),
        Some((false, vec![512, 256], 2))
    );
    assert_eq!(ring.chunks.chunks[0].bytes[512..576], [4; 64]);
    // The kept copy is what changed: the key reuses it as it is now.
    let (_, offsets) = ring
        .place(device, Stage::Vertex, &key(2), id, || Err(()))
        .unwrap();
    assert_eq!(offsets.as_slice(), [512, 256]);
    ring.discard();
    assert_eq!(
        change(&mut ring, &mut k, 1, 5),
        Some((true, vec![0, 256], 0))
    );
    assert_eq!(ring.chunks.chunks[0].bytes[..64], [4; 64]);
    assert_eq!(ring.chunks.chunks[0].bytes[256..288], [5; 32]);
    assert_eq!(written.get(), 3);
}
