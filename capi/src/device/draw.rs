//! Scenes, clears and draws; `ProcessVertices`; streams and indices; patches.

use std::ffi::c_void;

use d3d9_backend::device::Indices;
use d3d9_backend::device::{ClearFlags, PrimitiveType, Rect};

use super::child::child_at;
use super::{with, DeviceInner, This};
use crate::com::{write_out, Private};
use crate::device::child::buffer::{IndexBuffer9, VertexBuffer9};
use crate::device::child::shader::VertexDeclaration9;
use crate::device::child::state::Change;
use crate::hresult::{invalid_call, unsupported, CallResult, Refusal, D3DERR_INVALIDCALL, HRESULT};
use crate::types::*;

pub(super) unsafe extern "C" fn begin_scene(this: This) -> HRESULT {
    with(this, "BeginScene", |inner| {
        if inner.in_scene {
            return Err(invalid_call("BeginScene inside a scene"));
        }
        inner.in_scene = true;
        Ok(())
    })
}

pub(super) unsafe extern "C" fn end_scene(this: This) -> HRESULT {
    with(this, "EndScene", |inner| {
        if !inner.in_scene {
            return Err(invalid_call("EndScene outside a scene"));
        }
        inner.in_scene = false;
        // The scene's draws stay recorded until a Present, a lock or a read-back submits
        // them: a NOOVERWRITE lock right after EndScene reaches them unsynchronised, as on
        // Windows (Wine's test_map_synchronisation).
        Ok(())
    })
}

pub(super) unsafe extern "C" fn clear(
    this: This,
    count: u32,
    rects: *const D3DRECT,
    flags: u32,
    colour: u32,
    z: f32,
    stencil: u32,
) -> HRESULT {
    with(this, "Clear", |inner| {
        // A count of 0 with rects clears nothing (Wine's clear_test, checked on Windows); a
        // count with NULL rects clears everything, as Windows drivers do.
        if count == 0 && !rects.is_null() {
            return Ok(());
        }
        let rects: Vec<Rect> = if rects.is_null() || count == 0 {
            Vec::new()
        } else {
            // SAFETY: `count` rects, per the caller.
            let list = unsafe { std::slice::from_raw_parts(rects, count as usize) };
            let valid: Vec<Rect> = list
                .iter()
                .filter(|r| r.x1 < r.x2 && r.y1 < r.y2)
                .map(|r| Rect {
                    left: r.x1,
                    top: r.y1,
                    right: r.x2,
                    bottom: r.y2,
                })
                .collect();
            if valid.is_empty() {
                // Every rectangle was empty or inverted: nothing is cleared.
                return Ok(());
            }
            valid
        };
        let flags = ClearFlags {
            target: flags & 1 != 0,
            zbuffer: flags & 2 != 0,
            stencil: flags & 4 != 0,
        };
        inner
            .device
            .clear(&rects, flags, colour, z, stencil)
            .map_err(Refusal::from)
    })
}

pub(super) unsafe extern "C" fn validate_device(this: This, passes: *mut u32) -> HRESULT {
    with(this, "ValidateDevice", |_| {
        // SAFETY: per the caller.
        unsafe { write_out(passes, 1) }
    })
}

fn primitive(value: u32) -> CallResult<PrimitiveType> {
    Ok(match value {
        1 => PrimitiveType::PointList,
        2 => PrimitiveType::LineList,
        3 => PrimitiveType::LineStrip,
        4 => PrimitiveType::TriangleList,
        5 => PrimitiveType::TriangleStrip,
        6 => PrimitiveType::TriangleFan,
        other => return Err(invalid_call(format!("D3DPRIMITIVETYPE {other}"))),
    })
}

/// `D3DCAPS9::MaxPrimitiveCount` (`caps.rs`): the most primitives one draw takes.
const MAX_PRIMITIVE_COUNT: u32 = 0xff_ffff;

/// A draw of more primitives than the caps allow is refused (never tried: a fan of 2^32
/// triangles is tens of gigabytes of indices).
fn primitive_count(count: u32) -> CallResult {
    if count > MAX_PRIMITIVE_COUNT {
        return Err(invalid_call(format!(
            "{count} primitives (MaxPrimitiveCount {MAX_PRIMITIVE_COUNT})"
        )));
    }
    Ok(())
}

/// Draws are made inside a scene.
fn in_scene(inner: &DeviceInner) -> CallResult {
    if inner.in_scene {
        Ok(())
    } else {
        Err(invalid_call("a draw outside BeginScene / EndScene"))
    }
}

pub(super) unsafe extern "C" fn draw_primitive(
    this: This,
    kind: u32,
    start: u32,
    count: u32,
) -> HRESULT {
    with(this, "DrawPrimitive", |inner| {
        in_scene(inner)?;
        if count == 0 {
            return Ok(());
        }
        primitive_count(count)?;
        inner
            .device
            .draw_primitive(primitive(kind)?, start, count)
            .map_err(Refusal::from)
    })
}

pub(super) unsafe extern "C" fn draw_indexed_primitive(
    this: This,
    kind: u32,
    base: i32,
    min: u32,
    vertices: u32,
    start: u32,
    count: u32,
) -> HRESULT {
    with(this, "DrawIndexedPrimitive", |inner| {
        in_scene(inner)?;
        if count == 0 {
            return Ok(());
        }
        primitive_count(count)?;
        inner
            .device
            .draw_indexed_primitive(primitive(kind)?, base, min, vertices, start, count)
            .map_err(Refusal::from)
    })
}

/// Stream 0 and the indices, which D3D9 unsets after an `UP` draw.
fn unset_after_up(inner: &mut DeviceInner, indexed: bool) {
    let stream = inner.bound.streams[0].take();
    inner.bound.stream_ranges[0] = (0, 0);
    inner.deferred.push_opt(stream);
    if indexed {
        let _ = inner.device.set_indices(None);
        let indices = inner.bound.indices.take();
        inner.deferred.push_opt(indices);
    }
}

pub(super) unsafe extern "C" fn draw_primitive_up(
    this: This,
    kind: u32,
    count: u32,
    data: *const c_void,
    stride: u32,
) -> HRESULT {
    with(this, "DrawPrimitiveUP", |inner| {
        in_scene(inner)?;
        let kind = primitive(kind)?;
        if data.is_null() || stride == 0 {
            return Err(invalid_call("NULL vertex data or a zero stride"));
        }
        primitive_count(count)?;
        unset_after_up(inner, false);
        if count == 0 {
            return Ok(());
        }
        let bytes = kind.vertex_count(count) * u64::from(stride);
        let len = usize::try_from(bytes).map_err(|_| invalid_call("too many vertices"))?;
        // SAFETY: the caller's vertices, `len` bytes as D3D9 reads them.
        let vertices = unsafe { std::slice::from_raw_parts(data as *const u8, len) };
        inner
            .device
            .draw_primitive_up(kind, count, vertices, stride)
            .map_err(Refusal::from)
    })
}

#[allow(clippy::too_many_arguments)]
pub(super) unsafe extern "C" fn draw_indexed_primitive_up(
    this: This,
    kind: u32,
    min: u32,
    vertex_count: u32,
    count: u32,
    indices: *const c_void,
    format: u32,
    data: *const c_void,
    stride: u32,
) -> HRESULT {
    with(this, "DrawIndexedPrimitiveUP", |inner| {
        in_scene(inner)?;
        let kind = primitive(kind)?;
        if data.is_null() || indices.is_null() || stride == 0 {
            return Err(invalid_call("NULL data or a zero stride"));
        }
        primitive_count(count)?;
        unset_after_up(inner, true);
        if count == 0 {
            return Ok(());
        }
        let index_count = usize::try_from(kind.vertex_count(count))
            .map_err(|_| invalid_call("too many indices"))?;
        let vertex_bytes = (u64::from(min) + u64::from(vertex_count)) * u64::from(stride);
        let vertex_len =
            usize::try_from(vertex_bytes).map_err(|_| invalid_call("too many vertices"))?;
        // SAFETY: the caller's vertices and indices, as many as D3D9 reads.
        let vertices = unsafe { std::slice::from_raw_parts(data as *const u8, vertex_len) };
        let indices = match format {
            101 => Indices::U16(unsafe {
                std::slice::from_raw_parts(indices as *const u16, index_count)
            }),
            102 => Indices::U32(unsafe {
                std::slice::from_raw_parts(indices as *const u32, index_count)
            }),
            other => return Err(invalid_call(format!("index format {other}"))),
        };
        inner
            .device
            .draw_indexed_primitive_up(kind, min, vertex_count, count, indices, vertices, stride)
            .map_err(Refusal::from)
    })
}

pub(super) unsafe extern "C" fn process_vertices(
    this: This,
    src_start: u32,
    dst_index: u32,
    count: u32,
    dst: *mut c_void,
    declaration: *mut c_void,
    _flags: u32,
) -> HRESULT {
    crate::com::entry("ProcessVertices", || {
        // SAFETY: C calls through our vtable; checked live.
        let device = unsafe { crate::com::this(this)? };
        let shared = &device.data.shared;
        let buffer = child_at::<VertexBuffer9>(shared, dst)?
            .ok_or_else(|| invalid_call("a NULL destination buffer"))?;
        let (dst, fvf) = (buffer.data.id, buffer.data.fvf);
        let declaration = child_at::<VertexDeclaration9>(shared, declaration)?.map(|d| d.data.id);
        shared.with(|inner| {
            // A NULL declaration: the destination buffer's FVF describes the output (Wine's
            // test_sysmem_draw, checked on Windows).
            let declaration = match declaration {
                Some(id) => id,
                None if fvf != 0 => inner
                    .device
                    .create_vertex_declaration_fvf(fvf)
                    .map_err(Refusal::from)?,
                None => {
                    return Err(invalid_call(
                        "a NULL destination declaration and a buffer without an FVF",
                    ))
                }
            };
            inner
                .device
                .process_vertices(src_start, dst_index, count, dst, declaration)
                .map_err(Refusal::from)
        })
    })
}

pub(super) unsafe extern "C" fn set_stream_source(
    this: This,
    stream: u32,
    buffer: *mut c_void,
    offset: u32,
    stride: u32,
) -> HRESULT {
    crate::com::entry("SetStreamSource", || {
        // SAFETY: C calls through our vtable; checked live.
        let device = unsafe { crate::com::this(this)? };
        let shared = &device.data.shared;
        let buffer = child_at::<VertexBuffer9>(shared, buffer)?;
        shared.with(|inner| {
            inner.set(Change::StreamSource(
                stream,
                buffer.map(Private::new),
                offset,
                stride,
            ))
        })
    })
}

pub(super) unsafe extern "C" fn get_stream_source(
    this: This,
    stream: u32,
    out: *mut *mut c_void,
    offset: *mut u32,
    stride: *mut u32,
) -> HRESULT {
    with(this, "GetStreamSource", |inner| {
        // SAFETY: per the caller.
        unsafe { write_out(out, std::ptr::null_mut())? };
        let i = stream as usize;
        let (o, s) = *inner
            .bound
            .stream_ranges
            .get(i)
            .ok_or_else(|| invalid_call(format!("stream {stream}")))?;
        if offset.is_null() || stride.is_null() {
            return Err(invalid_call("a NULL out pointer"));
        }
        // SAFETY: checked non-null; writable per the caller.
        unsafe {
            write_out(offset, o)?;
            write_out(stride, s)?;
        }
        if let Some(buffer) = &inner.bound.streams[i] {
            buffer.get().add_ref();
            // SAFETY: checked writable.
            unsafe { write_out(out, buffer.get().as_ptr())? };
        }
        Ok(())
    })
}

pub(super) unsafe extern "C" fn set_stream_source_freq(
    this: This,
    stream: u32,
    value: u32,
) -> HRESULT {
    with(this, "SetStreamSourceFreq", |inner| {
        inner.set(Change::StreamSourceFreq(stream, value))
    })
}

pub(super) unsafe extern "C" fn get_stream_source_freq(
    this: This,
    stream: u32,
    value: *mut u32,
) -> HRESULT {
    with(this, "GetStreamSourceFreq", |inner| {
        let v = inner
            .device
            .stream_source_freq(stream as usize)
            .ok_or_else(|| invalid_call(format!("stream {stream}")))?;
        // SAFETY: per the caller.
        unsafe { write_out(value, v) }
    })
}

pub(super) unsafe extern "C" fn set_indices(this: This, buffer: *mut c_void) -> HRESULT {
    crate::com::entry("SetIndices", || {
        // SAFETY: C calls through our vtable; checked live.
        let device = unsafe { crate::com::this(this)? };
        let shared = &device.data.shared;
        let buffer = child_at::<IndexBuffer9>(shared, buffer)?;
        shared.with(|inner| inner.set(Change::Indices(buffer.map(Private::new))))
    })
}

pub(super) unsafe extern "C" fn get_indices(this: This, out: *mut *mut c_void) -> HRESULT {
    with(this, "GetIndices", |inner| {
        // SAFETY: per the caller.
        unsafe { write_out(out, std::ptr::null_mut())? };
        if let Some(buffer) = &inner.bound.indices {
            buffer.get().add_ref();
            // SAFETY: checked writable.
            unsafe { write_out(out, buffer.get().as_ptr())? };
        }
        Ok(())
    })
}

pub(super) unsafe extern "C" fn draw_rect_patch(
    this: This,
    _handle: u32,
    _segments: *const f32,
    _info: *const c_void,
) -> HRESULT {
    with(this, "DrawRectPatch", |_| {
        Err(unsupported(D3DERR_INVALIDCALL, "higher-order patches"))
    })
}

pub(super) unsafe extern "C" fn draw_tri_patch(
    this: This,
    _handle: u32,
    _segments: *const f32,
    _info: *const c_void,
) -> HRESULT {
    with(this, "DrawTriPatch", |_| {
        Err(unsupported(D3DERR_INVALIDCALL, "higher-order patches"))
    })
}

pub(super) unsafe extern "C" fn delete_patch(this: This, _handle: u32) -> HRESULT {
    with(this, "DeletePatch", |_| {
        Err(unsupported(D3DERR_INVALIDCALL, "higher-order patches"))
    })
}
