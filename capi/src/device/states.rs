//! State setters and getters: render, sampler and texture-stage states, textures,
//! transforms, viewport and scissor, material and lights, clip planes, state blocks.
//! Setters go through [`Change`] (recorded while a state block is recorded).

use std::ffi::c_void;

use d3d9_backend::device::{Light, LightType, Material, Viewport};

use super::child::child_at;
use super::{with, with_device, with_value, DeviceInner, This};
use crate::com::{read_in, write_out, Private};
use crate::device::child::lock::rect;
use crate::device::child::state::{sampler_slot, Block, BlockType, Change};
use crate::device::child::stateblock::StateBlock9;
use crate::device::child::texture::Texture9;
use crate::hresult::{invalid_call, CallResult, Refusal, HRESULT};
use crate::types::*;

/// A getter's value from the device, written through `out`.
fn get<V>(out: *mut V, value: CallResult<V>) -> CallResult {
    let value = value?;
    // SAFETY: `out` as the C caller passed it: null (refused) or writable.
    unsafe { write_out(out, value) }
}

pub(super) unsafe extern "C" fn set_transform(
    this: This,
    state: u32,
    matrix: *const D3DMATRIX,
) -> HRESULT {
    with(this, "SetTransform", |inner| {
        // SAFETY: per the caller.
        let m = unsafe { read_in(matrix)? };
        inner
            .device
            .get_transform_raw(state)
            .map_err(Refusal::from)?;
        inner.set(Change::Transform(state, m))
    })
}

pub(super) unsafe extern "C" fn get_transform(
    this: This,
    state: u32,
    matrix: *mut D3DMATRIX,
) -> HRESULT {
    with(this, "GetTransform", |inner| {
        get(
            matrix,
            inner.device.get_transform_raw(state).map_err(Refusal::from),
        )
    })
}

pub(super) unsafe extern "C" fn multiply_transform(
    this: This,
    state: u32,
    matrix: *const D3DMATRIX,
) -> HRESULT {
    with(this, "MultiplyTransform", |inner| {
        // SAFETY: per the caller.
        let m = unsafe { read_in(matrix)? };
        let current = inner
            .device
            .get_transform_raw(state)
            .map_err(Refusal::from)?;
        let mut product = [[0.0f32; 4]; 4];
        for (i, row) in product.iter_mut().enumerate() {
            for (j, value) in row.iter_mut().enumerate() {
                *value = (0..4).map(|k| current[i][k] * m[k][j]).sum();
            }
        }
        inner.set(Change::Transform(state, product))
    })
}

pub(super) unsafe extern "C" fn set_viewport(this: This, viewport: *const D3DVIEWPORT9) -> HRESULT {
    with(this, "SetViewport", |inner| {
        // SAFETY: per the caller.
        let v = unsafe { read_in(viewport)? };
        inner.set(Change::Viewport(Viewport {
            x: v.X,
            y: v.Y,
            width: v.Width,
            height: v.Height,
            min_z: v.MinZ,
            max_z: v.MaxZ,
        }))
    })
}

pub(super) unsafe extern "C" fn get_viewport(this: This, viewport: *mut D3DVIEWPORT9) -> HRESULT {
    with(this, "GetViewport", |inner| {
        let v = inner.device.viewport();
        get(
            viewport,
            Ok(D3DVIEWPORT9 {
                X: v.x,
                Y: v.y,
                Width: v.width,
                Height: v.height,
                MinZ: v.min_z,
                MaxZ: v.max_z,
            }),
        )
    })
}

fn colour(c: D3DCOLORVALUE) -> [f32; 4] {
    [c.r, c.g, c.b, c.a]
}

fn colour_value([r, g, b, a]: [f32; 4]) -> D3DCOLORVALUE {
    D3DCOLORVALUE { r, g, b, a }
}

fn vector(v: D3DVECTOR) -> [f32; 3] {
    [v.x, v.y, v.z]
}

fn d3d_vector([x, y, z]: [f32; 3]) -> D3DVECTOR {
    D3DVECTOR { x, y, z }
}

/// A `D3DMATERIAL9` as the device takes it, and back.
fn material(m: &D3DMATERIAL9) -> Material {
    Material {
        diffuse: colour(m.Diffuse),
        ambient: colour(m.Ambient),
        specular: colour(m.Specular),
        emissive: colour(m.Emissive),
        power: m.Power,
    }
}

fn d3d_material(m: &Material) -> D3DMATERIAL9 {
    D3DMATERIAL9 {
        Diffuse: colour_value(m.diffuse),
        Ambient: colour_value(m.ambient),
        Specular: colour_value(m.specular),
        Emissive: colour_value(m.emissive),
        Power: m.power,
    }
}

/// A `D3DLIGHT9` as the device takes it; a type other than POINT, SPOT and DIRECTIONAL is
/// `D3DERR_INVALIDCALL`.
fn light(l: &D3DLIGHT9) -> CallResult<Light> {
    Ok(Light {
        light_type: LightType::from_d3d(l.Type)
            .ok_or_else(|| invalid_call(format!("D3DLIGHTTYPE {}", l.Type)))?,
        diffuse: colour(l.Diffuse),
        specular: colour(l.Specular),
        ambient: colour(l.Ambient),
        position: vector(l.Position),
        direction: vector(l.Direction),
        range: l.Range,
        falloff: l.Falloff,
        attenuation0: l.Attenuation0,
        attenuation1: l.Attenuation1,
        attenuation2: l.Attenuation2,
        theta: l.Theta,
        phi: l.Phi,
    })
}

fn d3d_light(l: &Light) -> D3DLIGHT9 {
    D3DLIGHT9 {
        Type: l.light_type.to_d3d(),
        Diffuse: colour_value(l.diffuse),
        Specular: colour_value(l.specular),
        Ambient: colour_value(l.ambient),
        Position: d3d_vector(l.position),
        Direction: d3d_vector(l.direction),
        Range: l.range,
        Falloff: l.falloff,
        Attenuation0: l.attenuation0,
        Attenuation1: l.attenuation1,
        Attenuation2: l.attenuation2,
        Theta: l.theta,
        Phi: l.phi,
    }
}

pub(super) unsafe extern "C" fn set_material(this: This, m: *const D3DMATERIAL9) -> HRESULT {
    with(this, "SetMaterial", |inner| {
        // SAFETY: per the caller.
        let m = unsafe { read_in(m)? };
        inner.set(Change::Material(material(&m)))
    })
}

pub(super) unsafe extern "C" fn get_material(this: This, m: *mut D3DMATERIAL9) -> HRESULT {
    with(this, "GetMaterial", |inner| {
        get(m, Ok(d3d_material(&inner.device.material())))
    })
}

pub(super) unsafe extern "C" fn set_light(this: This, index: u32, l: *const D3DLIGHT9) -> HRESULT {
    with(this, "SetLight", |inner| {
        // SAFETY: per the caller.
        let l = unsafe { read_in(l)? };
        inner.set(Change::Light(index, light(&l)?))
    })
}

pub(super) unsafe extern "C" fn get_light(this: This, index: u32, l: *mut D3DLIGHT9) -> HRESULT {
    with(this, "GetLight", |inner| {
        let value = inner.device.light(index).map(|l| d3d_light(&l));
        get(l, value.map_err(Refusal::from))
    })
}

pub(super) unsafe extern "C" fn light_enable(this: This, index: u32, enable: i32) -> HRESULT {
    with(this, "LightEnable", |inner| {
        if inner.device.light(index).is_err() && inner.recording.is_none() {
            // Enabling a light never set sets D3D9's default light there first.
            inner.set(Change::Light(index, Light::default()))?;
        }
        inner.set(Change::LightEnable(index, enable != 0))
    })
}

pub(super) unsafe extern "C" fn get_light_enable(
    this: This,
    index: u32,
    enable: *mut i32,
) -> HRESULT {
    with(this, "GetLightEnable", |inner| {
        // D3D9 reports an enabled light as 128 (its TRUE), a disabled one as 0.
        let value = inner
            .device
            .light_enabled(index)
            .map(|on| if on { 128 } else { 0 });
        get(enable, value.map_err(Refusal::from))
    })
}

pub(super) unsafe extern "C" fn set_clip_plane(
    this: This,
    index: u32,
    plane: *const f32,
) -> HRESULT {
    with(this, "SetClipPlane", |inner| {
        // SAFETY: per the caller: four floats.
        let p = unsafe { read_in(plane as *const [f32; 4])? };
        inner.set(Change::ClipPlane(clip_plane_slot(index), p))
    })
}

/// `MaxUserClipPlanes` (6, `caps.rs`): D3D9 takes any plane index, every one at or past the
/// last slot naming the last (Wine's `test_clip_planes_limits`, which passes on Windows).
fn clip_plane_slot(index: u32) -> u32 {
    index.min(5)
}

pub(super) unsafe extern "C" fn get_clip_plane(this: This, index: u32, plane: *mut f32) -> HRESULT {
    with(this, "GetClipPlane", |inner| {
        get(
            plane as *mut [f32; 4],
            inner
                .device
                .get_clip_plane(clip_plane_slot(index))
                .map_err(Refusal::from),
        )
    })
}

pub(super) unsafe extern "C" fn set_render_state(this: This, state: u32, value: u32) -> HRESULT {
    with(this, "SetRenderState", |inner| {
        inner
            .device
            .render_state_raw(state)
            .map_err(Refusal::from)?;
        inner.set(Change::RenderState(state, value))
    })
}

pub(super) unsafe extern "C" fn get_render_state(
    this: This,
    state: u32,
    value: *mut u32,
) -> HRESULT {
    with(this, "GetRenderState", |inner| {
        get(
            value,
            inner.device.render_state_raw(state).map_err(Refusal::from),
        )
    })
}

pub(super) unsafe extern "C" fn create_state_block(
    this: This,
    kind: u32,
    out: *mut *mut c_void,
) -> HRESULT {
    with_device(this, "CreateStateBlock", |device| {
        // SAFETY: per the caller.
        unsafe { write_out(out, std::ptr::null_mut())? };
        let kind = BlockType::from_d3d(kind)
            .ok_or_else(|| invalid_call(format!("D3DSTATEBLOCKTYPE {kind}")))?;
        let block = device.data.shared.with(|inner| {
            if inner.recording.is_some() {
                return Err(invalid_call(
                    "CreateStateBlock while a state block is recorded",
                ));
            }
            Ok(StateBlock9::capture_kind(inner, kind))
        })?;
        let block = StateBlock9::created(device, block);
        // SAFETY: checked writable.
        unsafe { write_out(out, block as *mut c_void) }
    })
}

pub(super) unsafe extern "C" fn begin_state_block(this: This) -> HRESULT {
    with(this, "BeginStateBlock", |inner| {
        if inner.recording.is_some() {
            return Err(invalid_call("a state block is already recorded"));
        }
        inner.recording = Some(Block::default());
        Ok(())
    })
}

pub(super) unsafe extern "C" fn end_state_block(this: This, out: *mut *mut c_void) -> HRESULT {
    with_device(this, "EndStateBlock", |device| {
        // A refused call leaves `*out` untouched (Wine's stateblock.c, passing on Windows).
        let block = device.data.shared.with(|inner| {
            let block = inner
                .recording
                .take()
                .ok_or_else(|| invalid_call("no state block is recorded"))?;
            if out.is_null() {
                let mut block = block;
                block.clear(&mut inner.deferred);
                return Err(invalid_call("a NULL out pointer"));
            }
            Ok(block)
        })?;
        let block = StateBlock9::created(device, block);
        // SAFETY: checked non-null.
        unsafe { write_out(out, block as *mut c_void) }
    })
}

pub(super) unsafe extern "C" fn set_clip_status(
    this: This,
    status: *const D3DCLIPSTATUS9,
) -> HRESULT {
    with(this, "SetClipStatus", |inner| {
        // SAFETY: per the caller.
        inner.clip_status = unsafe { read_in(status)? };
        Ok(())
    })
}

pub(super) unsafe extern "C" fn get_clip_status(
    this: This,
    status: *mut D3DCLIPSTATUS9,
) -> HRESULT {
    with(this, "GetClipStatus", |inner| {
        get(status, Ok(inner.clip_status))
    })
}

pub(super) unsafe extern "C" fn get_texture(
    this: This,
    stage: u32,
    out: *mut *mut c_void,
) -> HRESULT {
    with(this, "GetTexture", |inner| {
        // SAFETY: per the caller.
        unsafe { write_out(out, std::ptr::null_mut())? };
        let slot = sampler_slot(stage).ok_or_else(|| invalid_call(format!("sampler {stage}")))?;
        if let Some(texture) = &inner.bound.textures[slot] {
            texture.get().add_ref();
            // SAFETY: checked writable.
            unsafe { write_out(out, texture.get().as_ptr())? };
        }
        Ok(())
    })
}

pub(super) unsafe extern "C" fn set_texture(
    this: This,
    stage: u32,
    texture: *mut c_void,
) -> HRESULT {
    crate::com::entry("SetTexture", || {
        // SAFETY: C calls through our vtable; checked live.
        let device = unsafe { crate::com::this(this)? };
        let shared = &device.data.shared;
        let texture = child_at::<Texture9>(shared, texture)?;
        shared.with(|inner| inner.set(Change::Texture(stage, texture.map(Private::new))))
    })
}

pub(super) unsafe extern "C" fn get_texture_stage_state(
    this: This,
    stage: u32,
    kind: u32,
    value: *mut u32,
) -> HRESULT {
    with(this, "GetTextureStageState", |inner| {
        get(
            value,
            inner
                .device
                .texture_stage_state_raw(stage, kind)
                .map_err(Refusal::from),
        )
    })
}

pub(super) unsafe extern "C" fn set_texture_stage_state(
    this: This,
    stage: u32,
    kind: u32,
    value: u32,
) -> HRESULT {
    with(this, "SetTextureStageState", |inner| {
        inner
            .device
            .texture_stage_state_raw(stage, kind)
            .map_err(Refusal::from)?;
        inner.set(Change::TextureStageState(stage, kind, value))
    })
}

pub(super) unsafe extern "C" fn get_sampler_state(
    this: This,
    sampler: u32,
    kind: u32,
    value: *mut u32,
) -> HRESULT {
    with(this, "GetSamplerState", |inner| {
        get(
            value,
            inner
                .device
                .sampler_state_raw(sampler, kind)
                .map_err(Refusal::from),
        )
    })
}

pub(super) unsafe extern "C" fn set_sampler_state(
    this: This,
    sampler: u32,
    kind: u32,
    value: u32,
) -> HRESULT {
    with(this, "SetSamplerState", |inner| {
        inner
            .device
            .sampler_state_raw(sampler, kind)
            .map_err(Refusal::from)?;
        inner.set(Change::SamplerState(sampler, kind, value))
    })
}

/// `SetPaletteEntries(n, entries)`: the 256 entries of palette `n` (0 to 0xffff, the SDK's
/// 65536 palettes) kept as given, as wined3d kept them. Palettised formats (P8, A8P8) are
/// not offered, so no texture reads a palette.
pub(super) unsafe extern "C" fn set_palette_entries(
    this: This,
    palette: u32,
    entries: *const PALETTEENTRY,
) -> HRESULT {
    with(this, "SetPaletteEntries", |inner| {
        if entries.is_null() || palette > 0xffff {
            return Err(invalid_call(format!("palette {palette} from {entries:p}")));
        }
        // SAFETY: non-null; a palette is 256 entries, per the caller readable.
        let given = unsafe { entries.cast::<[PALETTEENTRY; 256]>().read_unaligned() };
        inner.palettes.insert(palette, given);
        Ok(())
    })
}

/// `GetPaletteEntries(n, entries)`: palette `n` as last set; `D3DERR_INVALIDCALL` for one
/// never set (wined3d: "native seems to silently abort").
pub(super) unsafe extern "C" fn get_palette_entries(
    this: This,
    palette: u32,
    entries: *mut PALETTEENTRY,
) -> HRESULT {
    with(this, "GetPaletteEntries", |inner| {
        let stored = inner
            .palettes
            .get(&palette)
            .ok_or_else(|| invalid_call(format!("palette {palette} was never set")))?;
        // SAFETY: a palette is 256 entries, per the caller writable (NULL refused).
        unsafe { write_out(entries.cast::<[PALETTEENTRY; 256]>(), *stored) }
    })
}

pub(super) unsafe extern "C" fn set_current_texture_palette(this: This, palette: u32) -> HRESULT {
    with(this, "SetCurrentTexturePalette", |inner| {
        inner.texture_palette = palette;
        Ok(())
    })
}

pub(super) unsafe extern "C" fn get_current_texture_palette(
    this: This,
    palette: *mut u32,
) -> HRESULT {
    with(this, "GetCurrentTexturePalette", |inner| {
        get(palette, Ok(inner.texture_palette))
    })
}

pub(super) unsafe extern "C" fn set_scissor_rect(this: This, r: *const RECT) -> HRESULT {
    with(this, "SetScissorRect", |inner| {
        // SAFETY: per the caller.
        let r = unsafe { read_in(r)? };
        inner.set(Change::ScissorRect(rect(r)))
    })
}

pub(super) unsafe extern "C" fn get_scissor_rect(this: This, out: *mut RECT) -> HRESULT {
    with(this, "GetScissorRect", |inner| {
        let r = inner.device.scissor_rect();
        get(
            out,
            Ok(RECT {
                left: r.left,
                top: r.top,
                right: r.right,
                bottom: r.bottom,
            }),
        )
    })
}

pub(super) unsafe extern "C" fn set_software_vertex_processing(
    this: This,
    software: i32,
) -> HRESULT {
    with(this, "SetSoftwareVertexProcessing", |inner| {
        set_software(inner, software != 0)
    })
}

/// `SetSoftwareVertexProcessing` on a mixed device switches modes (streams, declaration and
/// shaders stay); a hardware or software device keeps its mode and succeeds, as Windows.
fn set_software(inner: &mut DeviceInner, software: bool) -> CallResult {
    let mixed = inner.creation.BehaviorFlags & 0x80 != 0;
    if mixed {
        inner
            .device
            .set_software_vertex_processing(software)
            .map_err(Refusal::from)?;
        inner.software = software;
    }
    Ok(())
}

pub(super) unsafe extern "C" fn get_software_vertex_processing(this: This) -> i32 {
    with_value(this, "GetSoftwareVertexProcessing", 0, |inner| {
        Ok(i32::from(inner.software))
    })
}

pub(super) unsafe extern "C" fn set_npatch_mode(this: This, segments: f32) -> HRESULT {
    with(this, "SetNPatchMode", |inner| {
        if segments != 0.0 {
            log::info!("SetNPatchMode({segments}): N-patches are not tessellated");
        }
        inner.set(Change::NPatchMode(segments))
    })
}

pub(super) unsafe extern "C" fn get_npatch_mode(this: This) -> f32 {
    with_value(this, "GetNPatchMode", 0.0, |inner| Ok(inner.npatch))
}
