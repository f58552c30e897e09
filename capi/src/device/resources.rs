//! `Create*` of textures, buffers and surfaces; the copies (`UpdateSurface`,
//! `UpdateTexture`, `GetRenderTargetData`, `GetFrontBufferData`, `StretchRect`,
//! `ColorFill`); render targets and the depth-stencil surface.

use std::ffi::c_void;
use std::sync::Arc;

use d3d9_backend::device::TextureKind;
use d3d9_backend::device::{Filter, Format, IndexFormat, MultiSample, Pool, TextureDesc, Usage};

use super::child::child_at;
use super::{with, with_device, Device9, This};
use crate::com::{read_in, write_out, Com, Private};
use crate::device::child::buffer::{IndexBuffer9, VertexBuffer9};
use crate::device::child::lock::opt_rect;
use crate::device::child::surface::Surface9;
use crate::device::child::texture::Texture9;
use crate::device::child::Shared;
use crate::hresult::{fail, invalid_call, CallResult, Refusal, D3DERR_NOTAVAILABLE, HRESULT};
use crate::types::*;

/// A `D3DFORMAT` the device has; `D3DERR_NOTAVAILABLE` (as `CheckDeviceFormat` answers)
/// otherwise.
fn format(value: u32) -> CallResult<Format> {
    Format::from_d3d(value).ok_or_else(|| fail(D3DERR_NOTAVAILABLE, format!("D3DFORMAT {value}")))
}

fn pool(value: u32) -> CallResult<Pool> {
    Pool::from_d3d(value).ok_or_else(|| invalid_call(format!("D3DPOOL {value}")))
}

/// `pSharedHandle` must be NULL: shared resources are D3D9Ex's.
fn no_shared_handle(shared: *mut *mut c_void) -> CallResult {
    if shared.is_null() {
        Ok(())
    } else {
        Err(crate::hresult::unsupported(
            crate::hresult::D3DERR_INVALIDCALL,
            "shared resource handles",
        ))
    }
}

/// D3D9's size rules for a texture or surface of `size` texels (width, height, depth):
/// within the caps (`MaxTextureWidth` / `MaxTextureHeight`, `MaxVolumeExtent`) except in
/// `D3DPOOL_SCRATCH`, which they do not bind; and a resource whose memory would pass 4 GiB
/// (D3D9 sizes are `UINT`s) is `E_OUTOFMEMORY`, the allocation failure Windows reports,
/// never an allocation attempt.
fn check_size(
    inner: &super::DeviceInner,
    kind: TextureKind,
    size: [u32; 3],
    format: Format,
    pool: Pool,
) -> CallResult {
    let limits = inner.device.gpu().device().limits();
    let (max, max_depth) = match kind {
        TextureKind::Volume => (
            limits.max_texture_dimension_3d,
            limits.max_texture_dimension_3d,
        ),
        _ => (limits.max_texture_dimension_2d, 1),
    };
    let [width, height, depth] = size;
    if pool != Pool::Scratch && (width > max || height > max || depth > max_depth) {
        return Err(invalid_call(format!(
            "a {width}x{height}x{depth} resource past the caps' {max}"
        )));
    }
    // An upper bound of the bytes of every level and face.
    let texel = u64::from(format.row_pitch(4).div_ceil(4));
    let faces = if kind == TextureKind::Cube { 6 } else { 1 };
    let bytes = [width, height, depth, faces, 2]
        .into_iter()
        .fold(texel, |n, f| n.saturating_mul(u64::from(f)));
    if bytes > u64::from(u32::MAX) {
        return Err(fail(
            crate::hresult::E_OUTOFMEMORY,
            format!("a {width}x{height}x{depth} {format:?} resource ({bytes} bytes)"),
        ));
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn create_texture_kind(
    device: &Com<Device9>,
    kind: TextureKind,
    size: [u32; 3],
    levels: u32,
    usage: u32,
    format_value: u32,
    pool_value: u32,
    out: *mut *mut c_void,
    shared: *mut *mut c_void,
) -> CallResult {
    // SAFETY: per the caller.
    unsafe { write_out(out, std::ptr::null_mut())? };
    no_shared_handle(shared)?;
    let desc = TextureDesc {
        kind,
        width: size[0],
        height: size[1],
        depth: size[2],
        levels,
        format: format(format_value)?,
        usage: Usage(usage),
        pool: pool(pool_value)?,
    };
    let (id, levels) = device.data.shared.with(|inner| {
        check_size(inner, kind, size, desc.format, desc.pool)?;
        let id = inner
            .device
            .create_texture_with(&desc)
            .map_err(Refusal::from)?;
        let levels = inner.device.texture_info(id).map_or(1, |i| i.levels);
        Ok((id, levels))
    })?;
    let texture = Texture9::created(device, id, kind, levels);
    // SAFETY: checked writable.
    unsafe { write_out(out, texture as *mut c_void) }
}

pub(super) unsafe extern "C" fn create_texture(
    this: This,
    width: u32,
    height: u32,
    levels: u32,
    usage: u32,
    format: u32,
    pool: u32,
    out: *mut *mut c_void,
    shared: *mut *mut c_void,
) -> HRESULT {
    with_device(this, "CreateTexture", |device| {
        create_texture_kind(
            device,
            TextureKind::TwoD,
            [width, height, 1],
            levels,
            usage,
            format,
            pool,
            out,
            shared,
        )
    })
}

pub(super) unsafe extern "C" fn create_volume_texture(
    this: This,
    width: u32,
    height: u32,
    depth: u32,
    levels: u32,
    usage: u32,
    format: u32,
    pool: u32,
    out: *mut *mut c_void,
    shared: *mut *mut c_void,
) -> HRESULT {
    with_device(this, "CreateVolumeTexture", |device| {
        create_texture_kind(
            device,
            TextureKind::Volume,
            [width, height, depth],
            levels,
            usage,
            format,
            pool,
            out,
            shared,
        )
    })
}

pub(super) unsafe extern "C" fn create_cube_texture(
    this: This,
    edge: u32,
    levels: u32,
    usage: u32,
    format: u32,
    pool: u32,
    out: *mut *mut c_void,
    shared: *mut *mut c_void,
) -> HRESULT {
    with_device(this, "CreateCubeTexture", |device| {
        create_texture_kind(
            device,
            TextureKind::Cube,
            [edge, edge, 1],
            levels,
            usage,
            format,
            pool,
            out,
            shared,
        )
    })
}

pub(super) unsafe extern "C" fn create_vertex_buffer(
    this: This,
    length: u32,
    usage: u32,
    fvf: u32,
    pool_value: u32,
    out: *mut *mut c_void,
    shared: *mut *mut c_void,
) -> HRESULT {
    with_device(this, "CreateVertexBuffer", |device| {
        // SAFETY: per the caller.
        unsafe { write_out(out, std::ptr::null_mut())? };
        no_shared_handle(shared)?;
        let pool = pool(pool_value)?;
        let id = device.data.shared.with(|inner| {
            inner
                .device
                .create_vertex_buffer_in(length, Usage(usage), pool)
                .map_err(Refusal::from)
        })?;
        let buffer = VertexBuffer9::created(device, id, fvf);
        // SAFETY: checked writable.
        unsafe { write_out(out, buffer as *mut c_void) }
    })
}

pub(super) unsafe extern "C" fn create_index_buffer(
    this: This,
    length: u32,
    usage: u32,
    format: u32,
    pool_value: u32,
    out: *mut *mut c_void,
    shared: *mut *mut c_void,
) -> HRESULT {
    with_device(this, "CreateIndexBuffer", |device| {
        // SAFETY: per the caller.
        unsafe { write_out(out, std::ptr::null_mut())? };
        no_shared_handle(shared)?;
        let index_format = match format {
            101 => IndexFormat::Index16,
            102 => IndexFormat::Index32,
            other => return Err(invalid_call(format!("index format {other}"))),
        };
        let pool = pool(pool_value)?;
        let id = device.data.shared.with(|inner| {
            inner
                .device
                .create_index_buffer_in(length, index_format, Usage(usage), pool)
                .map_err(Refusal::from)
        })?;
        let buffer = IndexBuffer9::created(device, id);
        // SAFETY: checked writable.
        unsafe { write_out(out, buffer as *mut c_void) }
    })
}

/// A surface's `D3DMULTISAMPLE_TYPE` and quality (the device checks them against the
/// adapter: `Device::create_render_target_multisampled`).
fn multisample(samples: u32, quality: u32) -> CallResult<MultiSample> {
    if samples > 16 {
        return Err(invalid_call(format!("D3DMULTISAMPLE_TYPE {samples}")));
    }
    Ok(MultiSample {
        kind: samples,
        quality,
    })
}

pub(super) unsafe extern "C" fn create_render_target(
    this: This,
    width: u32,
    height: u32,
    format_value: u32,
    samples: u32,
    quality: u32,
    lockable: i32,
    out: *mut *mut c_void,
    shared: *mut *mut c_void,
) -> HRESULT {
    with_device(this, "CreateRenderTarget", |device| {
        // SAFETY: per the caller.
        unsafe { write_out(out, std::ptr::null_mut())? };
        no_shared_handle(shared)?;
        let ms = multisample(samples, quality)?;
        let format = format(format_value)?;
        let id = device.data.shared.with(|inner| {
            check_size(
                inner,
                TextureKind::TwoD,
                [width, height, 1],
                format,
                Pool::Default,
            )?;
            inner
                .device
                .create_render_target_multisampled(width, height, format, ms, lockable != 0)
                .map_err(Refusal::from)
        })?;
        let surface = Surface9::created(device, id);
        // SAFETY: checked writable.
        unsafe { write_out(out, surface as *mut c_void) }
    })
}

pub(super) unsafe extern "C" fn create_depth_stencil_surface(
    this: This,
    width: u32,
    height: u32,
    format_value: u32,
    samples: u32,
    quality: u32,
    _discard: i32,
    out: *mut *mut c_void,
    shared: *mut *mut c_void,
) -> HRESULT {
    with_device(this, "CreateDepthStencilSurface", |device| {
        // SAFETY: per the caller.
        unsafe { write_out(out, std::ptr::null_mut())? };
        no_shared_handle(shared)?;
        let ms = multisample(samples, quality)?;
        let format = format(format_value)?;
        let id = device.data.shared.with(|inner| {
            check_size(
                inner,
                TextureKind::TwoD,
                [width, height, 1],
                format,
                Pool::Default,
            )?;
            inner
                .device
                .create_depth_stencil_surface_multisampled(width, height, format, ms)
                .map_err(Refusal::from)
        })?;
        let surface = Surface9::created(device, id);
        // SAFETY: checked writable.
        unsafe { write_out(out, surface as *mut c_void) }
    })
}

pub(super) unsafe extern "C" fn create_offscreen_plain_surface(
    this: This,
    width: u32,
    height: u32,
    format_value: u32,
    pool_value: u32,
    out: *mut *mut c_void,
    shared: *mut *mut c_void,
) -> HRESULT {
    with_device(this, "CreateOffscreenPlainSurface", |device| {
        // SAFETY: per the caller.
        unsafe { write_out(out, std::ptr::null_mut())? };
        no_shared_handle(shared)?;
        let format = format(format_value)?;
        let pool = pool(pool_value)?;
        let id = device.data.shared.with(|inner| {
            check_size(inner, TextureKind::TwoD, [width, height, 1], format, pool)?;
            inner
                .device
                .create_offscreen_plain_surface(width, height, format, pool)
                .map_err(Refusal::from)
        })?;
        let surface = Surface9::created(device, id);
        // SAFETY: checked writable.
        unsafe { write_out(out, surface as *mut c_void) }
    })
}

/// The surface at `ptr` (a live surface of this device), required.
fn surface<'a>(shared: &Arc<Shared>, ptr: *mut c_void) -> CallResult<&'a Com<Surface9>> {
    child_at::<Surface9>(shared, ptr)?.ok_or_else(|| invalid_call("a NULL surface"))
}

fn device_shared(this: This) -> CallResult<&'static Com<Device9>> {
    // SAFETY: C calls through our vtable; checked live.
    unsafe { crate::com::this(this) }
}

pub(super) unsafe extern "C" fn update_surface(
    this: This,
    src: *mut c_void,
    src_rect: *const RECT,
    dst: *mut c_void,
    dst_point: *const POINT,
) -> HRESULT {
    crate::com::entry("UpdateSurface", || {
        let device = device_shared(this)?;
        let shared = &device.data.shared;
        let (src, dst) = (surface(shared, src)?.data.id, surface(shared, dst)?.data.id);
        // SAFETY: per the caller.
        let rect = unsafe { opt_rect(src_rect)? };
        let point = if dst_point.is_null() {
            None
        } else {
            // SAFETY: non-null, per the caller readable.
            let p = unsafe { read_in(dst_point)? };
            Some((p.x, p.y))
        };
        shared.with(|inner| {
            inner
                .device
                .update_surface(src, rect, dst, point)
                .map_err(Refusal::from)
        })
    })
}

pub(super) unsafe extern "C" fn update_texture(
    this: This,
    src: *mut c_void,
    dst: *mut c_void,
) -> HRESULT {
    crate::com::entry("UpdateTexture", || {
        let device = device_shared(this)?;
        let shared = &device.data.shared;
        let texture = |p| {
            child_at::<Texture9>(shared, p)?
                .map(|t| t.data.id)
                .ok_or_else(|| invalid_call("a NULL texture"))
        };
        let (src, dst) = (texture(src)?, texture(dst)?);
        shared.with(|inner| {
            inner
                .device
                .update_texture_from(src, dst)
                .map_err(Refusal::from)
        })
    })
}

pub(super) unsafe extern "C" fn get_render_target_data(
    this: This,
    target: *mut c_void,
    dst: *mut c_void,
) -> HRESULT {
    crate::com::entry("GetRenderTargetData", || {
        let device = device_shared(this)?;
        let shared = &device.data.shared;
        let (src, dst) = (
            surface(shared, target)?.data.id,
            surface(shared, dst)?.data.id,
        );
        shared.with(|inner| {
            super::reset::refuse_while_lost(inner)?;
            inner
                .device
                .get_render_target_data_into(src, dst)
                .map_err(Refusal::from)
        })
    })
}

/// `GetFrontBufferData` into a SYSTEMMEM surface of the back buffer's size and format.
pub fn front_buffer_data(shared: &Arc<Shared>, dst: *mut c_void) -> CallResult {
    let dst = surface(shared, dst)?.data.id;
    shared.with(|inner| {
        super::reset::refuse_while_lost(inner)?;
        let data = inner.device.front_buffer_data().map_err(Refusal::from)?;
        let info = inner
            .device
            .surface_info(dst)
            .ok_or_else(|| invalid_call("the surface was released"))?;
        if info.pool != Pool::SystemMem
            || (info.width, info.height, info.format) != (data.width, data.height, data.format)
        {
            return Err(invalid_call(
                "the destination is not a SYSTEMMEM surface of the front buffer's size and format",
            ));
        }
        let locked = inner
            .device
            .lock_surface(dst, None, d3d9_backend::device::LockFlags(0))
            .map_err(Refusal::from)?;
        // SAFETY: the lock covers the whole surface, `data.data.len()` bytes in D3D9's layout.
        unsafe {
            std::ptr::copy_nonoverlapping(data.data.as_ptr(), locked.bits, data.data.len());
        }
        inner.device.unlock_surface(dst).map_err(Refusal::from)
    })
}

pub(super) unsafe extern "C" fn get_front_buffer_data(
    this: This,
    swap_chain: u32,
    dst: *mut c_void,
) -> HRESULT {
    crate::com::entry("GetFrontBufferData", || {
        let device = device_shared(this)?;
        if swap_chain != 0 {
            return Err(invalid_call(format!("swap chain {swap_chain}")));
        }
        front_buffer_data(&device.data.shared, dst)
    })
}

pub(super) unsafe extern "C" fn stretch_rect(
    this: This,
    src: *mut c_void,
    src_rect: *const RECT,
    dst: *mut c_void,
    dst_rect: *const RECT,
    filter: u32,
) -> HRESULT {
    crate::com::entry("StretchRect", || {
        let device = device_shared(this)?;
        let shared = &device.data.shared;
        let (src, dst) = (surface(shared, src)?.data.id, surface(shared, dst)?.data.id);
        // SAFETY: per the caller.
        let (src_rect, dst_rect) = unsafe { (opt_rect(src_rect)?, opt_rect(dst_rect)?) };
        let filter = Filter::from_d3d(filter)
            .ok_or_else(|| invalid_call(format!("D3DTEXTUREFILTERTYPE {filter}")))?;
        shared.with(|inner| {
            inner
                .device
                .stretch_rect(src, src_rect, dst, dst_rect, filter)
                .map_err(Refusal::from)
        })
    })
}

pub(super) unsafe extern "C" fn color_fill(
    this: This,
    target: *mut c_void,
    rect: *const RECT,
    colour: u32,
) -> HRESULT {
    crate::com::entry("ColorFill", || {
        let device = device_shared(this)?;
        let shared = &device.data.shared;
        let id = surface(shared, target)?.data.id;
        // SAFETY: per the caller.
        let rect = unsafe { opt_rect(rect)? };
        shared.with(|inner| {
            inner
                .device
                .color_fill(id, rect, colour)
                .map_err(Refusal::from)
        })
    })
}

/// A surface bound as a render target or depth-stencil surface must have been made for it
/// (`usage`): D3D9 refuses others (wined3d's bind-flag checks, after Wine's tests).
fn requires_usage(
    inner: &super::DeviceInner,
    surface: &Com<Surface9>,
    usage: u32,
    name: &str,
) -> CallResult {
    let desc = crate::device::child::surface::describe(inner, surface.data.id)?;
    if desc.Usage & usage == 0 {
        return Err(invalid_call(format!("a surface without {name}")));
    }
    Ok(())
}

pub(super) unsafe extern "C" fn set_render_target(
    this: This,
    index: u32,
    target: *mut c_void,
) -> HRESULT {
    crate::com::entry("SetRenderTarget", || {
        let device = device_shared(this)?;
        let shared = &device.data.shared;
        let target = child_at::<Surface9>(shared, target)?;
        shared.with(|inner| {
            let slot = index as usize;
            if slot >= inner.bound.render_targets.len() {
                return Err(invalid_call(format!("render target {index}")));
            }
            if let Some(t) = target {
                requires_usage(inner, t, 1, "D3DUSAGE_RENDERTARGET")?;
            }
            inner
                .device
                .set_render_target(slot, target.map(|s| s.data.id))
                .map_err(Refusal::from)?;
            let new = target.map(Private::new);
            let old = std::mem::replace(&mut inner.bound.render_targets[slot], new);
            inner.deferred.push_opt(old);
            Ok(())
        })
    })
}

pub(super) unsafe extern "C" fn get_render_target(
    this: This,
    index: u32,
    out: *mut *mut c_void,
) -> HRESULT {
    with(this, "GetRenderTarget", |inner| {
        // SAFETY: per the caller.
        unsafe { write_out(out, std::ptr::null_mut())? };
        let surface = inner
            .bound
            .render_targets
            .get(index as usize)
            .ok_or_else(|| invalid_call(format!("render target {index}")))?
            .as_ref()
            .ok_or_else(|| {
                fail(
                    crate::hresult::D3DERR_NOTFOUND,
                    "no render target set there",
                )
            })?;
        surface.get().add_ref_public();
        // SAFETY: checked writable.
        unsafe { write_out(out, surface.get().as_ptr()) }
    })
}

pub(super) unsafe extern "C" fn set_depth_stencil_surface(
    this: This,
    target: *mut c_void,
) -> HRESULT {
    crate::com::entry("SetDepthStencilSurface", || {
        let device = device_shared(this)?;
        let shared = &device.data.shared;
        let target = child_at::<Surface9>(shared, target)?;
        shared.with(|inner| {
            if let Some(t) = target {
                requires_usage(inner, t, 2, "D3DUSAGE_DEPTHSTENCIL")?;
            }
            inner
                .device
                .set_depth_stencil_surface(target.map(|s| s.data.id))
                .map_err(Refusal::from)?;
            let old = std::mem::replace(&mut inner.bound.depth_stencil, target.map(Private::new));
            inner.deferred.push_opt(old);
            Ok(())
        })
    })
}

pub(super) unsafe extern "C" fn get_depth_stencil_surface(
    this: This,
    out: *mut *mut c_void,
) -> HRESULT {
    with(this, "GetDepthStencilSurface", |inner| {
        // SAFETY: per the caller.
        unsafe { write_out(out, std::ptr::null_mut())? };
        let surface = inner
            .bound
            .depth_stencil
            .as_ref()
            .ok_or_else(|| fail(crate::hresult::D3DERR_NOTFOUND, "no depth-stencil surface"))?;
        surface.get().add_ref_public();
        // SAFETY: checked writable.
        unsafe { write_out(out, surface.get().as_ptr()) }
    })
}
