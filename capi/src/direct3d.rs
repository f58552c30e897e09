//! `IDirect3D9`'s methods: the adapter (`adapter`), its formats and caps, and
//! `CreateDevice`.

use std::ffi::c_void;

use d3d9_backend::device::{Format, FOURCC_ATOC};
use d3d9_backend::Gpu;

use crate::adapter::{back_buffer_format, Direct3D9, DISPLAY_FORMAT, DISPLAY_MODE};
use crate::caps::device_caps;
use crate::com::{entry, entry_value, write_out, Com};
use crate::guid::Guid;
use crate::hresult::{
    fail, invalid_call, CallResult, D3DERR_INVALIDCALL, D3DERR_NOTAVAILABLE, HRESULT,
};
use crate::types::*;
use crate::vtbl::IDirect3D9Vtbl;

/// `Direct3DCreate9(D3D_SDK_VERSION)`: a new `IDirect3D9` with one reference (NULL for an
/// SDK version other than 32, as Windows).
pub fn create(sdk_version: u32) -> *mut c_void {
    if sdk_version != 32 && sdk_version != (32 | 0x8000_0000) {
        log::info!("Direct3DCreate9: SDK version {sdk_version} (32 expected)");
        return std::ptr::null_mut();
    }
    Com::new(
        &VTBL as *const _ as *const c_void,
        Direct3D9::default(),
        true,
    ) as *mut c_void
}

type This = *mut Com<Direct3D9>;

fn check_adapter(adapter: u32) -> CallResult {
    if adapter == 0 {
        Ok(())
    } else {
        Err(invalid_call(format!("adapter {adapter} (there is 1)")))
    }
}

/// `D3DDEVTYPE_HAL` (1), `_REF` (2), `_SW` (3), `_NULLREF` (4): only HAL is offered.
fn check_device_kind(device_type: u32) -> CallResult {
    match device_type {
        1 => Ok(()),
        2..=4 => Err(fail(
            D3DERR_NOTAVAILABLE,
            format!("D3DDEVTYPE {device_type} (only HAL)"),
        )),
        _ => Err(invalid_call(format!("D3DDEVTYPE {device_type}"))),
    }
}

unsafe extern "C" fn query_interface(
    this: This,
    riid: *const Guid,
    out: *mut *mut c_void,
) -> HRESULT {
    // SAFETY: C calls through our vtable; `this` is checked live.
    match unsafe { crate::com::this(this) } {
        Ok(object) => unsafe { object.query_interface(riid, out) },
        Err(_) => D3DERR_INVALIDCALL,
    }
}

unsafe extern "C" fn add_ref(this: This) -> u32 {
    entry_value("IDirect3D9::AddRef", 0, || {
        // SAFETY: checked live.
        Ok(unsafe { crate::com::this(this)? }.add_ref())
    })
}

unsafe extern "C" fn release(this: This) -> u32 {
    entry_value("IDirect3D9::Release", 0, || {
        // SAFETY: checked live; the caller gives up a reference.
        let object = unsafe { crate::com::this(this)? };
        Ok(unsafe { Com::release(object) })
    })
}

unsafe extern "C" fn register_software_device(this: This, _init: *mut c_void) -> HRESULT {
    entry("IDirect3D9::RegisterSoftwareDevice", || {
        // SAFETY: checked live.
        unsafe { crate::com::this(this)? };
        Ok(())
    })
}

unsafe extern "C" fn get_adapter_count(this: This) -> u32 {
    // SAFETY: checked live.
    entry_value("IDirect3D9::GetAdapterCount", 0, || unsafe {
        crate::com::this(this).map(|_| 1)
    })
}

unsafe extern "C" fn get_adapter_identifier(
    this: This,
    adapter: u32,
    _flags: u32,
    identifier: *mut D3DADAPTER_IDENTIFIER9,
) -> HRESULT {
    entry("IDirect3D9::GetAdapterIdentifier", || {
        // SAFETY: checked live.
        let d3d = unsafe { crate::com::this(this)? };
        check_adapter(adapter)?;
        let info = d3d.data.gpu()?.adapter_info().clone();
        let mut id = D3DADAPTER_IDENTIFIER9 {
            Driver: [0; 512],
            Description: [0; 512],
            DeviceName: [0; 32],
            DriverVersion: 0,
            VendorId: info.vendor,
            DeviceId: info.device,
            SubSysId: 0,
            Revision: 0,
            DeviceIdentifier: Guid {
                data1: info.vendor,
                data2: info.device as u16,
                data3: (info.device >> 16) as u16,
                data4: *b"d3d9wgpu",
            },
            WHQLLevel: 0,
        };
        let driver = format!("d3d9-wgpu ({:?}: {})", info.backend, info.driver);
        let description = format!("{} (d3d9-wgpu on {:?})", info.name, info.backend);
        copy_c_string(&mut id.Driver, &driver);
        copy_c_string(&mut id.Description, &description);
        copy_c_string(&mut id.DeviceName, "\\\\.\\DISPLAY1");
        // SAFETY: per the caller.
        unsafe { write_out(identifier, id) }
    })
}

/// Copies `text` into a C string buffer, truncated and NUL-terminated.
fn copy_c_string(buffer: &mut [u8], text: &str) {
    let n = text.len().min(buffer.len().saturating_sub(1));
    buffer[..n].copy_from_slice(&text.as_bytes()[..n]);
    buffer[n] = 0;
}

unsafe extern "C" fn get_adapter_mode_count(this: This, adapter: u32, format: u32) -> u32 {
    entry_value("IDirect3D9::GetAdapterModeCount", 0, || {
        // SAFETY: checked live.
        unsafe { crate::com::this(this)? };
        check_adapter(adapter)?;
        Ok(u32::from(format == DISPLAY_FORMAT))
    })
}

unsafe extern "C" fn enum_adapter_modes(
    this: This,
    adapter: u32,
    format: u32,
    mode: u32,
    out: *mut D3DDISPLAYMODE,
) -> HRESULT {
    entry("IDirect3D9::EnumAdapterModes", || {
        // SAFETY: checked live.
        unsafe { crate::com::this(this)? };
        check_adapter(adapter)?;
        if format != DISPLAY_FORMAT {
            return Err(fail(
                D3DERR_NOTAVAILABLE,
                format!("display format {format}"),
            ));
        }
        if mode != 0 {
            return Err(invalid_call(format!("mode {mode} (there is 1)")));
        }
        // SAFETY: per the caller.
        unsafe { write_out(out, DISPLAY_MODE) }
    })
}

unsafe extern "C" fn get_adapter_display_mode(
    this: This,
    adapter: u32,
    out: *mut D3DDISPLAYMODE,
) -> HRESULT {
    entry("IDirect3D9::GetAdapterDisplayMode", || {
        // SAFETY: checked live.
        unsafe { crate::com::this(this)? };
        check_adapter(adapter)?;
        // SAFETY: per the caller.
        unsafe { write_out(out, DISPLAY_MODE) }
    })
}

unsafe extern "C" fn check_device_type(
    this: This,
    adapter: u32,
    device_type: u32,
    display: u32,
    back_buffer: u32,
    windowed: i32,
) -> HRESULT {
    entry("IDirect3D9::CheckDeviceType", || {
        // SAFETY: checked live.
        unsafe { crate::com::this(this)? };
        check_adapter(adapter)?;
        check_device_kind(device_type)?;
        if display != DISPLAY_FORMAT {
            return Err(fail(
                D3DERR_NOTAVAILABLE,
                format!("display format {display}"),
            ));
        }
        // D3DFMT_UNKNOWN back buffers take the display format (windowed).
        if back_buffer != 0 && !back_buffer_format(back_buffer, windowed != 0) {
            return Err(fail(
                D3DERR_NOTAVAILABLE,
                format!("back-buffer format {back_buffer}"),
            ));
        }
        Ok(())
    })
}

/// `D3DUSAGE_*` bits of `CheckDeviceFormat` that the device honours. (DMAP 0x4000 and
/// QUERY_LEGACYBUMPMAP 0x8000 are not done: a query with any other bit answers
/// NOTAVAILABLE.)
const USAGE_RENDERTARGET: u32 = 0x1;
const USAGE_AUTOGENMIPMAP: u32 = 0x400;
/// `D3DOK_NOAUTOGEN`: a success code, the format is fine but its levels are not generated.
const D3DOK_NOAUTOGEN: HRESULT = 0x0876_086f;
const USAGE_DEPTHSTENCIL: u32 = 0x2;
const USAGE_DYNAMIC: u32 = 0x200;
const QUERY_FILTER: u32 = 0x20000;
const QUERY_POSTPIXELSHADER_BLENDING: u32 = 0x80000;
const QUERY_VERTEXTEXTURE: u32 = 0x100000;
const QUERY_WRAPANDMIP: u32 = 0x200000;
const QUERY_SRGBREAD: u32 = 0x10000;
const QUERY_SRGBWRITE: u32 = 0x40000;

/// `D3DRESOURCETYPE`.
const RTYPE_SURFACE: u32 = 1;
const RTYPE_VOLUME: u32 = 2;
const RTYPE_TEXTURE: u32 = 3;
const RTYPE_VOLUMETEXTURE: u32 = 4;
const RTYPE_CUBETEXTURE: u32 = 5;
const RTYPE_VERTEXBUFFER: u32 = 6;
const RTYPE_INDEXBUFFER: u32 = 7;

/// Whether the device does what `CheckDeviceFormat(usage, rtype, format)` asks.
pub fn format_supported(gpu: &Gpu, usage: u32, rtype: u32, format: u32) -> bool {
    // NVIDIA's alpha-to-coverage hack is asked for as a surface format (DXVK answers D3D_OK
    // as NVIDIA and Intel drivers do); AMD's `A2M1` is never advertised here (games pick it
    // by the vendor id), so it falls through to the unknown formats below.
    if format == FOURCC_ATOC {
        return rtype == RTYPE_SURFACE && usage & USAGE_DEPTHSTENCIL == 0;
    }
    let Some(f) = Format::from_d3d(format) else {
        return false;
    };
    let support = f.support(gpu);
    let texture = matches!(
        rtype,
        RTYPE_TEXTURE | RTYPE_CUBETEXTURE | RTYPE_VOLUMETEXTURE
    );
    let known = USAGE_RENDERTARGET
        | USAGE_DEPTHSTENCIL
        | USAGE_DYNAMIC
        | QUERY_FILTER
        | QUERY_POSTPIXELSHADER_BLENDING
        | QUERY_VERTEXTEXTURE
        | QUERY_WRAPANDMIP
        | QUERY_SRGBREAD
        | QUERY_SRGBWRITE;
    if usage & !known != 0 {
        // AUTOGENMIPMAP, DMAP, legacy bump maps: not done.
        return false;
    }
    let wants = |bit: u32| usage & bit != 0;
    // sRGB reads and writes of the formats that have them (`Format::srgb_capable`, where
    // the adapter has sRGB views).
    if (wants(QUERY_SRGBREAD) && !support.srgb_read)
        || (wants(QUERY_SRGBWRITE) && !support.srgb_write)
    {
        return false;
    }
    match rtype {
        // Depth textures (shadow maps, INTZ, DF16, DF24): 2D, drawn into as depth-stencil
        // surfaces and sampled, filtered too (a shadow map's comparisons, raw depth in the
        // shader).
        RTYPE_TEXTURE if wants(USAGE_DEPTHSTENCIL) => {
            support.depth_texture
                && !wants(USAGE_RENDERTARGET | USAGE_DYNAMIC | QUERY_POSTPIXELSHADER_BLENDING)
        }
        RTYPE_SURFACE => {
            if wants(USAGE_DEPTHSTENCIL) {
                support.depth_stencil && !wants(USAGE_RENDERTARGET)
            } else if wants(USAGE_RENDERTARGET) {
                support.render_target
            } else {
                support.surface
            }
        }
        _ if texture => {
            (support.texture
                || (wants(USAGE_RENDERTARGET) && support.render_target && f.is_float()))
                && (rtype != RTYPE_VOLUMETEXTURE || support.volume)
                && (!wants(USAGE_RENDERTARGET)
                    || (support.render_target && rtype != RTYPE_VOLUMETEXTURE))
                && (!wants(USAGE_RENDERTARGET)
                    || rtype != RTYPE_CUBETEXTURE
                    || support.cube_render_target)
                && !wants(USAGE_DEPTHSTENCIL)
                && (!wants(QUERY_FILTER) || support.filter)
                && (!wants(QUERY_POSTPIXELSHADER_BLENDING) || support.blend)
        }
        RTYPE_VOLUME => support.volume,
        RTYPE_VERTEXBUFFER | RTYPE_INDEXBUFFER => false,
        _ => false,
    }
}

unsafe extern "C" fn check_device_format(
    this: This,
    adapter: u32,
    device_type: u32,
    adapter_format: u32,
    usage: u32,
    rtype: u32,
    format: u32,
) -> HRESULT {
    entry("IDirect3D9::CheckDeviceFormat", || {
        // SAFETY: checked live.
        let d3d = unsafe { crate::com::this(this)? };
        check_adapter(adapter)?;
        check_device_kind(device_type)?;
        if adapter_format != DISPLAY_FORMAT {
            return Err(fail(
                D3DERR_NOTAVAILABLE,
                format!("adapter format {adapter_format}"),
            ));
        }
        let gpu = d3d.data.gpu()?;
        if format_supported(gpu, usage & !USAGE_AUTOGENMIPMAP, rtype, format) {
            let autogen = usage & USAGE_AUTOGENMIPMAP != 0;
            let generated = Format::from_d3d(format).is_some_and(|f| f.support(gpu).render_target);
            match rtype {
                _ if !autogen => Ok(()),
                RTYPE_TEXTURE | RTYPE_CUBETEXTURE if generated => Ok(()),
                RTYPE_TEXTURE | RTYPE_CUBETEXTURE => Err(fail(
                    D3DOK_NOAUTOGEN,
                    format!("format {format}: its levels are not generated"),
                )),
                _ => Err(fail(
                    D3DERR_NOTAVAILABLE,
                    format!("D3DUSAGE_AUTOGENMIPMAP on resource type {rtype}"),
                )),
            }
        } else {
            Err(fail(
                D3DERR_NOTAVAILABLE,
                format!("format {format} with usage {usage:#x} as resource type {rtype}"),
            ))
        }
    })
}

unsafe extern "C" fn check_device_multi_sample_type(
    this: This,
    adapter: u32,
    device_type: u32,
    format: u32,
    _windowed: i32,
    samples: u32,
    quality: *mut u32,
) -> HRESULT {
    entry("IDirect3D9::CheckDeviceMultiSampleType", || {
        // SAFETY: checked live.
        let d3d = unsafe { crate::com::this(this)? };
        check_adapter(adapter)?;
        check_device_kind(device_type)?;
        if samples > 16 {
            return Err(invalid_call(format!("D3DMULTISAMPLE_TYPE {samples}")));
        }
        let gpu = d3d.data.gpu()?;
        let known = Format::from_d3d(format).filter(|f| {
            let s = f.support(gpu);
            s.render_target || s.depth_stencil
        });
        let Some(known) = known else {
            return Err(fail(D3DERR_NOTAVAILABLE, format!("format {format}")));
        };
        // The sample counts the adapter has for the format (`Format::multisample_quality_levels`).
        let Some(levels) = known.multisample_quality_levels(gpu, samples) else {
            return Err(fail(
                D3DERR_NOTAVAILABLE,
                format!("{samples} samples of {known:?} on this adapter"),
            ));
        };
        if !quality.is_null() {
            // SAFETY: non-null, per the caller writable.
            unsafe { quality.write_unaligned(levels) };
        }
        Ok(())
    })
}

unsafe extern "C" fn check_depth_stencil_match(
    this: This,
    adapter: u32,
    device_type: u32,
    adapter_format: u32,
    target: u32,
    depth: u32,
) -> HRESULT {
    entry("IDirect3D9::CheckDepthStencilMatch", || {
        // SAFETY: checked live.
        let d3d = unsafe { crate::com::this(this)? };
        check_adapter(adapter)?;
        check_device_kind(device_type)?;
        if adapter_format != DISPLAY_FORMAT {
            return Err(fail(D3DERR_NOTAVAILABLE, "adapter format"));
        }
        let gpu = d3d.data.gpu()?;
        let target_ok = Format::from_d3d(target).is_some_and(|f| f.support(gpu).render_target);
        let depth_ok = Format::from_d3d(depth).is_some_and(|f| f.support(gpu).depth_stencil);
        if target_ok && depth_ok {
            Ok(())
        } else {
            Err(fail(
                D3DERR_NOTAVAILABLE,
                format!("render target {target} with depth-stencil {depth}"),
            ))
        }
    })
}

unsafe extern "C" fn check_device_format_conversion(
    this: This,
    adapter: u32,
    device_type: u32,
    source: u32,
    target: u32,
) -> HRESULT {
    entry("IDirect3D9::CheckDeviceFormatConversion", || {
        // SAFETY: checked live.
        let d3d = unsafe { crate::com::this(this)? };
        check_adapter(adapter)?;
        check_device_kind(device_type)?;
        let gpu = d3d.data.gpu()?;
        // StretchRect converts between render-target colour formats by drawing; a format
        // converts to itself whatever it is, and one float format not to another (Wine's
        // test_format_conversion, checked on Windows). Alpha-only targets convert to nothing;
        // YUV surfaces convert to RGB ones.
        let colour = |f: u32| {
            Format::from_d3d(f).filter(|f| {
                !f.is_depth()
                    && !matches!(*f, Format::A8 | Format::Null)
                    && f.support(gpu).render_target
            })
        };
        let yuv = Format::from_d3d(source).is_some_and(|f| f.is_yuv() && f.support(gpu).surface);
        let convertible = match (colour(source), colour(target)) {
            _ if source == target => true,
            (Some(s), Some(t)) => !(s.is_float() && t.is_float()),
            (None, Some(t)) => yuv && !t.is_float(),
            _ => false,
        };
        if convertible {
            Ok(())
        } else {
            Err(fail(
                D3DERR_NOTAVAILABLE,
                format!("conversion from {source} to {target}"),
            ))
        }
    })
}

unsafe extern "C" fn get_device_caps(
    this: This,
    adapter: u32,
    device_type: u32,
    caps: *mut D3DCAPS9,
) -> HRESULT {
    entry("IDirect3D9::GetDeviceCaps", || {
        // SAFETY: checked live.
        let d3d = unsafe { crate::com::this(this)? };
        check_adapter(adapter)?;
        check_device_kind(device_type)?;
        let value = device_caps(d3d.data.gpu()?, &Default::default());
        // SAFETY: per the caller.
        unsafe { write_out(caps, value) }
    })
}

unsafe extern "C" fn get_adapter_monitor(this: This, adapter: u32) -> *mut c_void {
    entry_value(
        "IDirect3D9::GetAdapterMonitor",
        std::ptr::null_mut(),
        || {
            // SAFETY: checked live.
            unsafe { crate::com::this(this)? };
            check_adapter(adapter)?;
            // A headless monitor: a non-null handle that names it.
            Ok(std::ptr::dangling_mut::<c_void>())
        },
    )
}

unsafe extern "C" fn create_device(
    this: This,
    adapter: u32,
    device_type: u32,
    focus: *mut c_void,
    flags: u32,
    params: *mut D3DPRESENT_PARAMETERS,
    out: *mut *mut c_void,
) -> HRESULT {
    entry("IDirect3D9::CreateDevice", || {
        // SAFETY: checked live.
        let d3d = unsafe { crate::com::this(this)? };
        // SAFETY: per the caller.
        unsafe { write_out(out, std::ptr::null_mut())? };
        check_adapter(adapter)?;
        check_device_kind(device_type)?;
        // SAFETY: per the caller (read and written back: the back-buffer size D3D9 chose).
        let mut present = unsafe { crate::com::read_in(params)? };
        let device = crate::device::create(d3d, focus, flags, &mut present)?;
        // SAFETY: non-null, checked by read_in; writable per the caller.
        unsafe {
            params.write_unaligned(present);
            out.write_unaligned(device);
        }
        Ok(())
    })
}

static VTBL: IDirect3D9Vtbl<Com<Direct3D9>> = IDirect3D9Vtbl {
    QueryInterface: query_interface,
    AddRef: add_ref,
    Release: release,
    RegisterSoftwareDevice: register_software_device,
    GetAdapterCount: get_adapter_count,
    GetAdapterIdentifier: get_adapter_identifier,
    GetAdapterModeCount: get_adapter_mode_count,
    EnumAdapterModes: enum_adapter_modes,
    GetAdapterDisplayMode: get_adapter_display_mode,
    CheckDeviceType: check_device_type,
    CheckDeviceFormat: check_device_format,
    CheckDeviceMultiSampleType: check_device_multi_sample_type,
    CheckDepthStencilMatch: check_depth_stencil_match,
    CheckDeviceFormatConversion: check_device_format_conversion,
    GetDeviceCaps: get_device_caps,
    GetAdapterMonitor: get_adapter_monitor,
    CreateDevice: create_device,
};
