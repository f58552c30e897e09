//! Vertex declarations and FVF codes; shaders and their constants.

use std::ffi::c_void;

use d3d9_translator::decl::RawElement;

use super::child::child_at;
use super::{with, with_device, DeviceInner, This};
use crate::com::{write_out, Private};
use crate::device::child::shader::{
    bytecode_length, PixelShader9, VertexDeclaration9, VertexShader9,
};
use crate::device::child::state::Change;
use crate::hresult::{invalid_call, CallResult, Refusal, HRESULT};
use crate::types::*;
use d3d9_backend::device::{Device, DeviceError};

/// The longest shader bytecode read (in tokens) before its end token must have appeared.
const MAX_SHADER_TOKENS: usize = 1 << 20;

/// Reads a `D3DVERTEXELEMENT9` array up to and including `D3DDECL_END`.
///
/// # Safety
/// `elements` is readable up to its end element.
unsafe fn read_declaration(
    elements: *const D3DVERTEXELEMENT9,
) -> CallResult<Vec<D3DVERTEXELEMENT9>> {
    if elements.is_null() {
        return Err(invalid_call("NULL elements"));
    }
    let mut list = Vec::new();
    // MAXD3DDECLLENGTH elements and the end.
    for i in 0..=64 {
        // SAFETY: readable up to the end element, per the caller.
        let e = unsafe { elements.add(i).read_unaligned() };
        list.push(e);
        if e.Stream == 0xff {
            return Ok(list);
        }
    }
    Err(invalid_call("no D3DDECL_END after 64 elements"))
}

fn raw(e: &D3DVERTEXELEMENT9) -> RawElement {
    RawElement {
        stream: e.Stream,
        offset: e.Offset,
        ty: e.Type,
        method: e.Method,
        usage: e.Usage,
        usage_index: e.UsageIndex,
    }
}

fn element(e: &RawElement) -> D3DVERTEXELEMENT9 {
    D3DVERTEXELEMENT9 {
        Stream: e.stream,
        Offset: e.offset,
        Type: e.ty,
        Method: e.method,
        Usage: e.usage,
        UsageIndex: e.usage_index,
    }
}

pub(super) unsafe extern "C" fn create_vertex_declaration(
    this: This,
    elements: *const D3DVERTEXELEMENT9,
    out: *mut *mut c_void,
) -> HRESULT {
    with_device(this, "CreateVertexDeclaration", |device| {
        // SAFETY: per the caller.
        unsafe { write_out(out, std::ptr::null_mut())? };
        let list = unsafe { read_declaration(elements)? };
        let raws: Vec<RawElement> = list[..list.len() - 1].iter().map(raw).collect();
        let id = device.data.shared.with(|inner| {
            inner
                .device
                .create_vertex_declaration_raw(&raws)
                .map_err(Refusal::from)
        })?;
        let declaration = VertexDeclaration9::make(device, id, list, None);
        // SAFETY: checked writable.
        unsafe { write_out(out, declaration as *mut c_void) }
    })
}

pub(super) unsafe extern "C" fn set_vertex_declaration(
    this: This,
    declaration: *mut c_void,
) -> HRESULT {
    crate::com::entry("SetVertexDeclaration", || {
        // SAFETY: C calls through our vtable; checked live.
        let device = unsafe { crate::com::this(this)? };
        let shared = &device.data.shared;
        let declaration = child_at::<VertexDeclaration9>(shared, declaration)?;
        // D3D9 accepts NULL (Wine's tests, which pass on Windows, expect S_OK).
        shared.with(|inner| {
            inner.set(Change::VertexDeclaration(
                declaration.map(Private::new),
                declaration.map_or(0, |d| {
                    d.data.fvf.unwrap_or_else(|| fvf_of(&d.data.elements))
                }),
            ))
        })
    })
}

/// The FVF `GetFVF` reports after `SetVertexDeclaration` of an application's declaration:
/// Windows maps a lone `POSITION` (`FLOAT3`) to `D3DFVF_XYZ` and a lone `POSITIONT`
/// (`FLOAT4`) to `D3DFVF_XYZRHW`, every other declaration to 0 (Wine's
/// `test_fvf_decl_conversion`, which passes on Windows).
fn fvf_of(elements: &[D3DVERTEXELEMENT9]) -> u32 {
    match elements {
        [e, end]
            if end.Stream == 0xff
                && (e.Stream, e.Offset, e.Method, e.UsageIndex) == (0, 0, 0, 0) =>
        {
            match (e.Type, e.Usage) {
                (2, 0) => 0x002, // FLOAT3 POSITION: D3DFVF_XYZ
                (3, 9) => 0x004, // FLOAT4 POSITIONT: D3DFVF_XYZRHW
                _ => 0,
            }
        }
        _ => 0,
    }
}

pub(super) unsafe extern "C" fn get_vertex_declaration(
    this: This,
    out: *mut *mut c_void,
) -> HRESULT {
    with(this, "GetVertexDeclaration", |inner| {
        // SAFETY: per the caller.
        unsafe { write_out(out, std::ptr::null_mut())? };
        if let Some(declaration) = &inner.bound.declaration {
            declaration.get().add_ref();
            // SAFETY: checked writable.
            unsafe { write_out(out, declaration.get().as_ptr())? };
        }
        Ok(())
    })
}

pub(super) unsafe extern "C" fn set_fvf(this: This, fvf: u32) -> HRESULT {
    with_device(this, "SetFVF", |device| {
        if fvf == 0 {
            // Windows takes an FVF of 0 and changes nothing.
            return Ok(());
        }
        let shared = &device.data.shared;
        let (id, known) = shared.with(|inner| {
            let id = inner
                .device
                .create_vertex_declaration_fvf(fvf)
                .map_err(Refusal::from)?;
            Ok((id, inner.fvf_declarations.get(&fvf).map(Private::share)))
        })?;
        let declaration = match known {
            Some(d) => d,
            None => {
                let elements = shared.with(|inner| {
                    Ok(inner
                        .device
                        .declaration_elements(id)
                        .map(|list| {
                            list.iter()
                                .map(|e| element(&e.to_raw()))
                                .collect::<Vec<_>>()
                        })
                        .unwrap_or_default())
                })?;
                let mut list = elements;
                list.push(element(&RawElement::END));
                let ptr = VertexDeclaration9::make(device, id, list, Some(fvf));
                // SAFETY: made with a private reference, which this takes over.
                let owned = unsafe { Private::adopt(ptr) };
                let bound = owned.share();
                shared.with(|inner| {
                    inner.fvf_declarations.insert(fvf, owned);
                    Ok(())
                })?;
                bound
            }
        };
        shared.with(|inner| inner.set(Change::VertexDeclaration(Some(declaration), fvf)))
    })
}

pub(super) unsafe extern "C" fn get_fvf(this: This, fvf: *mut u32) -> HRESULT {
    with(this, "GetFVF", |inner| {
        // SAFETY: per the caller.
        unsafe { write_out(fvf, inner.bound.fvf) }
    })
}

pub(super) unsafe extern "C" fn create_vertex_shader(
    this: This,
    tokens: *const u32,
    out: *mut *mut c_void,
) -> HRESULT {
    with_device(this, "CreateVertexShader", |device| {
        // SAFETY: per the caller.
        let code = unsafe { shader_code(tokens, out)? };
        let id = device.data.shared.with(|inner| {
            inner
                .device
                .create_vertex_shader(&code)
                .map_err(Refusal::from)
        })?;
        let shader = VertexShader9::created(device, id, code);
        // SAFETY: checked writable.
        unsafe { write_out(out, shader as *mut c_void) }
    })
}

pub(super) unsafe extern "C" fn set_vertex_shader(this: This, shader: *mut c_void) -> HRESULT {
    crate::com::entry("SetVertexShader", || {
        // SAFETY: C calls through our vtable; checked live.
        let device = unsafe { crate::com::this(this)? };
        let shared = &device.data.shared;
        let shader = child_at::<VertexShader9>(shared, shader)?;
        shared.with(|inner| inner.set(Change::VertexShader(shader.map(Private::new))))
    })
}

pub(super) unsafe extern "C" fn get_vertex_shader(this: This, out: *mut *mut c_void) -> HRESULT {
    with(this, "GetVertexShader", |inner| {
        // SAFETY: per the caller.
        unsafe { write_bound(out, inner.bound.vertex_shader.as_ref()) }
    })
}

pub(super) unsafe extern "C" fn create_pixel_shader(
    this: This,
    tokens: *const u32,
    out: *mut *mut c_void,
) -> HRESULT {
    with_device(this, "CreatePixelShader", |device| {
        // SAFETY: per the caller.
        let code = unsafe { shader_code(tokens, out)? };
        let id = device.data.shared.with(|inner| {
            inner
                .device
                .create_pixel_shader(&code)
                .map_err(Refusal::from)
        })?;
        let shader = PixelShader9::created(device, id, code);
        // SAFETY: checked writable.
        unsafe { write_out(out, shader as *mut c_void) }
    })
}

pub(super) unsafe extern "C" fn set_pixel_shader(this: This, shader: *mut c_void) -> HRESULT {
    crate::com::entry("SetPixelShader", || {
        // SAFETY: C calls through our vtable; checked live.
        let device = unsafe { crate::com::this(this)? };
        let shared = &device.data.shared;
        let shader = child_at::<PixelShader9>(shared, shader)?;
        shared.with(|inner| inner.set(Change::PixelShader(shader.map(Private::new))))
    })
}

pub(super) unsafe extern "C" fn get_pixel_shader(this: This, out: *mut *mut c_void) -> HRESULT {
    with(this, "GetPixelShader", |inner| {
        // SAFETY: per the caller.
        unsafe { write_bound(out, inner.bound.pixel_shader.as_ref()) }
    })
}

/// `Create*Shader`'s bytecode: the tokens up to and with the end token, after clearing the
/// out pointer (left NULL when the call fails).
///
/// # Safety
/// `out` is NULL or writable; `tokens` is NULL or readable up to its end token.
unsafe fn shader_code(tokens: *const u32, out: *mut *mut c_void) -> CallResult<Vec<u32>> {
    // SAFETY: per the caller.
    unsafe { write_out(out, std::ptr::null_mut())? };
    let len = unsafe { bytecode_length(tokens, MAX_SHADER_TOKENS) }
        .ok_or_else(|| invalid_call("bytecode without an end token"))?;
    // SAFETY: `len` tokens up to the end token.
    Ok(unsafe { std::slice::from_raw_parts(tokens, len) }.to_vec())
}

/// `Get*Shader`: the bound shader with a reference added for the caller, or NULL.
///
/// # Safety
/// `out` is NULL or writable.
unsafe fn write_bound<T: crate::com::Class>(
    out: *mut *mut c_void,
    bound: Option<&Private<T>>,
) -> CallResult<()> {
    // SAFETY: per the caller.
    unsafe { write_out(out, std::ptr::null_mut())? };
    if let Some(shader) = bound {
        shader.get().add_ref();
        // SAFETY: checked writable.
        unsafe { write_out(out, shader.get().as_ptr())? };
    }
    Ok(())
}

/// Registers `start .. start + count` within `limit`.
fn range(start: u32, count: u32, limit: usize) -> CallResult<std::ops::Range<usize>> {
    let (start, count) = (start as usize, count as usize);
    match start.checked_add(count) {
        Some(end) if end <= limit => Ok(start..end),
        _ => Err(invalid_call(format!(
            "registers {start}..{start}+{count} past {limit}"
        ))),
    }
}

/// Sets `count` registers from `start`: with one call of the device (`bulk`), or, while a
/// state block records, one change each (the block records each register).
///
/// # Safety
/// `data` is readable for `count * per` values.
#[allow(clippy::too_many_arguments)]
unsafe fn set_constants<V: Copy>(
    inner: &mut DeviceInner,
    start: u32,
    data: *const V,
    count: u32,
    per: usize,
    limit: usize,
    change: impl Fn(u32, &[V]) -> Change,
    bulk: impl FnOnce(&mut Device, usize, &[V]) -> Result<(), DeviceError>,
) -> CallResult {
    let registers = range(start, count, limit)?;
    if count == 0 {
        return Ok(());
    }
    if data.is_null() {
        return Err(invalid_call("NULL constant data"));
    }
    // SAFETY: per the caller.
    let values = unsafe { std::slice::from_raw_parts(data, count as usize * per) };
    if inner.recording.is_none() {
        // The same as a change per register, in one call (a world matrix per draw).
        return bulk(&mut inner.device, registers.start, values).map_err(Refusal::from);
    }
    for (register, value) in registers.zip(values.chunks(per)) {
        inner.set(change(register as u32, value))?;
    }
    Ok(())
}

/// Reads `count` registers from `start` into `out`.
///
/// # Safety
/// `out` is writable for `count * per` values.
unsafe fn get_constants<V: Copy, S: Copy>(
    source: &[S],
    start: u32,
    count: u32,
    out: *mut V,
    per: usize,
    convert: impl Fn(&S) -> Vec<V>,
) -> CallResult {
    let registers = range(start, count, source.len())?;
    if out.is_null() {
        return Err(invalid_call("a NULL out pointer"));
    }
    let values: Vec<V> = source[registers].iter().flat_map(convert).collect();
    // SAFETY: writable for `count * per` values, per the caller.
    unsafe { std::ptr::copy_nonoverlapping(values.as_ptr(), out, count as usize * per) };
    Ok(())
}

/// Registers of four components from their values (`v` holds whole registers: borrowed as
/// they are, no copy on every `Set*ShaderConstant*`).
fn vec4s<T: bytemuck::Pod + Default>(v: &[T]) -> std::borrow::Cow<'_, [[T; 4]]> {
    match bytemuck::try_cast_slice(v) {
        Ok(registers) => std::borrow::Cow::Borrowed(registers),
        Err(_) => std::borrow::Cow::Owned(v.chunks(4).map(vec4).collect()),
    }
}

/// Boolean registers from `BOOL`s (any non-zero value is TRUE).
fn bools(v: &[i32]) -> Vec<bool> {
    v.iter().map(|&b| b != 0).collect()
}

fn vec4<T: Copy + Default>(v: &[T]) -> [T; 4] {
    let mut out = [T::default(); 4];
    for (o, x) in out.iter_mut().zip(v) {
        *o = *x;
    }
    out
}

macro_rules! constants {
    ($set:ident, $get:ident, $call_set:literal, $call_get:literal, $ty:ty, $per:expr,
     $limits:expr, $source:expr, $change:expr, $convert:expr, $bulk:expr) => {
        pub(super) unsafe extern "C" fn $set(
            this: This,
            start: u32,
            data: *const $ty,
            count: u32,
        ) -> HRESULT {
            with(this, $call_set, |inner| {
                let limit = $limits(&*inner);
                // SAFETY: per the caller.
                unsafe { set_constants(inner, start, data, count, $per, limit, $change, $bulk) }
            })
        }

        pub(super) unsafe extern "C" fn $get(
            this: This,
            start: u32,
            out: *mut $ty,
            count: u32,
        ) -> HRESULT {
            with(this, $call_get, |inner| {
                // SAFETY: per the caller.
                unsafe { get_constants($source(&*inner), start, count, out, $per, $convert) }
            })
        }
    };
}

fn vs_floats(i: &DeviceInner) -> &[[f32; 4]] {
    &i.device.vertex_shader_constants().floats
}
fn vs_ints(i: &DeviceInner) -> &[[i32; 4]] {
    &i.device.vertex_shader_constants().ints
}
fn vs_bools(i: &DeviceInner) -> &[bool] {
    &i.device.vertex_shader_constants().bools
}
/// `SetPixelShaderConstantF` takes 224 registers (ps_3_0's).
fn ps_floats(i: &DeviceInner) -> &[[f32; 4]] {
    let floats = &i.device.pixel_shader_constants().floats;
    &floats[..224.min(floats.len())]
}
fn ps_ints(i: &DeviceInner) -> &[[i32; 4]] {
    &i.device.pixel_shader_constants().ints
}
fn ps_bools(i: &DeviceInner) -> &[bool] {
    &i.device.pixel_shader_constants().bools
}

constants!(
    set_vertex_shader_constant_f,
    get_vertex_shader_constant_f,
    "SetVertexShaderConstantF",
    "GetVertexShaderConstantF",
    f32,
    4,
    |i: &DeviceInner| vs_floats(i).len(),
    vs_floats,
    |r, v: &[f32]| Change::VertexConstantF(r, vec4(v)),
    |v: &[f32; 4]| v.to_vec(),
    |d: &mut Device, r, v: &[f32]| d.set_vertex_shader_constant_f(r, &vec4s(v))
);
constants!(
    set_vertex_shader_constant_i,
    get_vertex_shader_constant_i,
    "SetVertexShaderConstantI",
    "GetVertexShaderConstantI",
    i32,
    4,
    |i: &DeviceInner| vs_ints(i).len(),
    vs_ints,
    |r, v: &[i32]| Change::VertexConstantI(r, vec4(v)),
    |v: &[i32; 4]| v.to_vec(),
    |d: &mut Device, r, v: &[i32]| d.set_vertex_shader_constant_i(r, &vec4s(v))
);
constants!(
    set_vertex_shader_constant_b,
    get_vertex_shader_constant_b,
    "SetVertexShaderConstantB",
    "GetVertexShaderConstantB",
    i32,
    1,
    |i: &DeviceInner| vs_bools(i).len(),
    vs_bools,
    |r, v: &[i32]| Change::VertexConstantB(r, v.first().is_some_and(|&b| b != 0)),
    |v: &bool| vec![i32::from(*v)],
    |d: &mut Device, r, v: &[i32]| d.set_vertex_shader_constant_b(r, &bools(v))
);
constants!(
    set_pixel_shader_constant_f,
    get_pixel_shader_constant_f,
    "SetPixelShaderConstantF",
    "GetPixelShaderConstantF",
    f32,
    4,
    |i: &DeviceInner| ps_floats(i).len(),
    ps_floats,
    |r, v: &[f32]| Change::PixelConstantF(r, vec4(v)),
    |v: &[f32; 4]| v.to_vec(),
    |d: &mut Device, r, v: &[f32]| d.set_pixel_shader_constant_f(r, &vec4s(v))
);
constants!(
    set_pixel_shader_constant_i,
    get_pixel_shader_constant_i,
    "SetPixelShaderConstantI",
    "GetPixelShaderConstantI",
    i32,
    4,
    |i: &DeviceInner| ps_ints(i).len(),
    ps_ints,
    |r, v: &[i32]| Change::PixelConstantI(r, vec4(v)),
    |v: &[i32; 4]| v.to_vec(),
    |d: &mut Device, r, v: &[i32]| d.set_pixel_shader_constant_i(r, &vec4s(v))
);
constants!(
    set_pixel_shader_constant_b,
    get_pixel_shader_constant_b,
    "SetPixelShaderConstantB",
    "GetPixelShaderConstantB",
    i32,
    1,
    |i: &DeviceInner| ps_bools(i).len(),
    ps_bools,
    |r, v: &[i32]| Change::PixelConstantB(r, v.first().is_some_and(|&b| b != 0)),
    |v: &bool| vec![i32::from(*v)],
    |d: &mut Device, r, v: &[i32]| d.set_pixel_shader_constant_b(r, &bools(v))
);
