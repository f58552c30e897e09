//! `IDirect3DTexture9`, `IDirect3DCubeTexture9` and `IDirect3DVolumeTexture9`: one object
//! type with three vtables. A texture owns the surfaces (or volumes) of its levels, made on
//! first request and counted on the texture.

use std::ffi::c_void;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

use d3d9_backend::device::TextureKind;
use d3d9_backend::device::{Filter, TexelBox, TextureId};

use super::lock::{
    box_region, lock_level, opt_rect, rect_box, unlock_level, write_locked_box, write_locked_rect,
};
use super::methods::{child_methods, resource_methods, unknown_methods};
use super::surface::Surface9;
use super::volume::Volume9;
use super::Child;
use crate::com::{entry, entry_value, write_out, Class, Com, Kind, Outer};
use crate::device::Device9;
use crate::guid::*;
use crate::hresult::{invalid_call, CallResult, Refusal, HRESULT};
use crate::types::*;
use crate::vtbl::{IDirect3DCubeTexture9Vtbl, IDirect3DTexture9Vtbl, IDirect3DVolumeTexture9Vtbl};

/// The texture object.
pub struct Texture9 {
    pub child: Child,
    pub id: TextureId,
    pub kind: TextureKind,
    pub levels: u32,
    priority: AtomicU32,
    /// `SetAutoGenFilterType`.
    autogen_filter: AtomicU32,
    /// The surfaces (2D, cube: `face * levels + level`) or volumes of the levels, once made.
    surfaces: Mutex<Vec<Option<*mut Com<Surface9>>>>,
    volumes: Mutex<Vec<Option<*mut Com<Volume9>>>>,
}

// SAFETY: the level objects are owned by the texture and only reached through it.
unsafe impl Send for Texture9 {}
unsafe impl Sync for Texture9 {}

impl Class for Texture9 {
    const KIND: Kind = Kind::Texture;
    fn interfaces(&self) -> &'static [Guid] {
        match self.kind {
            TextureKind::TwoD => &[
                IID_IDIRECT3DTEXTURE9,
                IID_IDIRECT3DBASETEXTURE9,
                IID_IDIRECT3DRESOURCE9,
            ],
            TextureKind::Cube => &[
                IID_IDIRECT3DCUBETEXTURE9,
                IID_IDIRECT3DBASETEXTURE9,
                IID_IDIRECT3DRESOURCE9,
            ],
            TextureKind::Volume => &[
                IID_IDIRECT3DVOLUMETEXTURE9,
                IID_IDIRECT3DBASETEXTURE9,
                IID_IDIRECT3DRESOURCE9,
            ],
        }
    }

    fn public_changed(&self, alive: bool) {
        self.child.public_changed(alive);
    }

    fn destroy(&mut self) {
        for surface in self
            .surfaces
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .drain(..)
            .flatten()
        {
            // SAFETY: owned by this texture, counted on it: nothing else holds them.
            unsafe { Com::free_owned(surface) };
        }
        for volume in self
            .volumes
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .drain(..)
            .flatten()
        {
            // SAFETY: as above.
            unsafe { Com::free_owned(volume) };
        }
        let id = self.id;
        let _ = self
            .child
            .shared
            .with(|inner| inner.device.release_texture(id).map_err(Refusal::from));
    }
}

impl super::DeviceChild for Texture9 {
    fn child(&self) -> &Child {
        &self.child
    }
}

impl super::Resource for Texture9 {
    fn priority(&self) -> &AtomicU32 {
        &self.priority
    }
    fn resource_type(&self) -> u32 {
        match self.kind {
            TextureKind::TwoD => 3,
            TextureKind::Volume => 4,
            TextureKind::Cube => 5,
        }
    }
}

impl Texture9 {
    /// A texture the application made, with one reference.
    pub fn created(
        device: &Com<Device9>,
        id: TextureId,
        kind: TextureKind,
        levels: u32,
    ) -> *mut Com<Texture9> {
        let vtbl = match kind {
            TextureKind::TwoD => &VTBL_2D as *const _ as *const c_void,
            TextureKind::Cube => &VTBL_CUBE as *const _ as *const c_void,
            TextureKind::Volume => &VTBL_VOLUME as *const _ as *const c_void,
        };
        let subresources = match kind {
            TextureKind::Cube => 6 * levels,
            _ => levels,
        } as usize;
        Com::new(
            vtbl,
            Texture9 {
                child: Child::new(device),
                id,
                kind,
                levels,
                priority: AtomicU32::new(0),
                autogen_filter: AtomicU32::new(2),
                surfaces: Mutex::new(vec![None; subresources]),
                volumes: Mutex::new(vec![None; levels as usize]),
            },
            true,
        )
    }

    /// The surface of (face, level), made on first request; the same object every time.
    pub fn surface(this: &Com<Texture9>, face: u32, level: u32) -> CallResult<&Com<Surface9>> {
        let t = &this.data;
        if level >= t.levels || (t.kind == TextureKind::Cube && face >= 6) {
            return Err(invalid_call(format!("face {face} level {level}")));
        }
        let index = (face * t.levels + level) as usize;
        let mut surfaces = t.surfaces.lock().unwrap_or_else(|e| e.into_inner());
        let slot = surfaces
            .get_mut(index)
            .ok_or_else(|| invalid_call("no such level"))?;
        let ptr = match slot {
            Some(p) => *p,
            None => {
                let id = this.data.child.shared.with(|inner| {
                    inner
                        .device
                        .texture_surface(t.id, face, level)
                        .map_err(Refusal::from)
                })?;
                let p = Surface9::level(this.data.child.device(), Outer::new(this), id);
                *slot = Some(p);
                p
            }
        };
        // SAFETY: owned by the texture, alive while it is.
        Ok(unsafe { &*ptr })
    }

    /// The volume of `level` of a volume texture, made on first request.
    pub fn volume(this: &Com<Texture9>, level: u32) -> CallResult<&Com<Volume9>> {
        let t = &this.data;
        if t.kind != TextureKind::Volume || level >= t.levels {
            return Err(invalid_call(format!("volume level {level}")));
        }
        let mut volumes = t.volumes.lock().unwrap_or_else(|e| e.into_inner());
        let slot = volumes
            .get_mut(level as usize)
            .ok_or_else(|| invalid_call("no such level"))?;
        let ptr = *slot
            .get_or_insert_with(|| Volume9::level(t.child.device(), Outer::new(this), t.id, level));
        // SAFETY: owned by the texture, alive while it is.
        Ok(unsafe { &*ptr })
    }

    /// `AddDirtyRect` / `AddDirtyBox`: `region` of level 0 (all of it when `None`).
    pub fn add_dirty(this: &Com<Texture9>, region: Option<TexelBox>) -> CallResult {
        let id = this.data.id;
        this.data.child.shared.with(|inner| {
            inner
                .device
                .add_dirty_region(id, region)
                .map_err(Refusal::from)
        })
    }

    /// The `D3DSURFACE_DESC` of one level.
    fn level_desc(this: &Com<Texture9>, level: u32) -> CallResult<D3DSURFACE_DESC> {
        let id = this.data.id;
        let info = this
            .data
            .child
            .shared
            .with(|inner| Ok(inner.device.texture_info(id)))?
            .ok_or_else(|| invalid_call("the texture was released"))?;
        if level >= info.levels {
            return Err(invalid_call(format!("level {level} of {}", info.levels)));
        }
        Ok(D3DSURFACE_DESC {
            Format: info.format.to_d3d(),
            Type: 1,
            Usage: info.usage.0,
            Pool: info.pool.to_d3d(),
            MultiSampleType: 0,
            MultiSampleQuality: 0,
            Width: (info.width >> level).max(1),
            Height: (info.height >> level).max(1),
        })
    }
}

type This = *mut Com<Texture9>;

unknown_methods!(Texture9, "IDirect3DBaseTexture9");
child_methods!(Texture9, "IDirect3DBaseTexture9");
resource_methods!(Texture9, "IDirect3DBaseTexture9");

unsafe extern "C" fn set_lod(this: This, lod: u32) -> u32 {
    entry_value("IDirect3DBaseTexture9::SetLOD", 0, || {
        // SAFETY: checked live.
        let object = unsafe { crate::com::this(this)? };
        let id = object.data.id;
        object
            .data
            .child
            .shared
            .with(|inner| inner.device.set_texture_lod(id, lod).map_err(Refusal::from))
    })
}

unsafe extern "C" fn get_lod(this: This) -> u32 {
    entry_value("IDirect3DBaseTexture9::GetLOD", 0, || {
        // SAFETY: checked live.
        let object = unsafe { crate::com::this(this)? };
        let id = object.data.id;
        object
            .data
            .child
            .shared
            .with(|inner| Ok(inner.device.texture_info(id).map_or(0, |i| i.lod)))
    })
}

unsafe extern "C" fn get_level_count(this: This) -> u32 {
    entry_value("IDirect3DBaseTexture9::GetLevelCount", 0, || {
        // SAFETY: checked live.
        Ok(unsafe { crate::com::this(this)? }.data.levels)
    })
}

unsafe extern "C" fn set_autogen_filter_type(this: This, filter: u32) -> HRESULT {
    entry("IDirect3DBaseTexture9::SetAutoGenFilterType", || {
        // SAFETY: checked live.
        let object = unsafe { crate::com::this(this)? };
        if filter == 0 || filter > 7 {
            return Err(invalid_call(format!("filter {filter}")));
        }
        // POINT or LINEAR; the anisotropic, pyramidal and gaussian filters act as LINEAR.
        let generated = if filter == 1 {
            Filter::Point
        } else {
            Filter::Linear
        };
        let id = object.data.id;
        object.data.child.shared.with(|inner| {
            inner
                .device
                .set_autogen_filter(id, generated)
                .map_err(Refusal::from)
        })?;
        object.data.autogen_filter.store(filter, Ordering::Release);
        Ok(())
    })
}

unsafe extern "C" fn get_autogen_filter_type(this: This) -> u32 {
    entry_value("IDirect3DBaseTexture9::GetAutoGenFilterType", 0, || {
        // SAFETY: checked live.
        Ok(unsafe { crate::com::this(this)? }
            .data
            .autogen_filter
            .load(Ordering::Acquire))
    })
}

unsafe extern "C" fn generate_mip_sub_levels(this: This) {
    entry_value("IDirect3DBaseTexture9::GenerateMipSubLevels", (), || {
        // SAFETY: checked live.
        let object = unsafe { crate::com::this(this)? };
        let id = object.data.id;
        object.data.child.shared.with(|inner| {
            inner
                .device
                .generate_mip_sub_levels(id)
                .map_err(Refusal::from)
        })
    })
}

unsafe extern "C" fn get_level_desc(this: This, level: u32, desc: *mut D3DSURFACE_DESC) -> HRESULT {
    entry("IDirect3DTexture9::GetLevelDesc", || {
        // SAFETY: checked live; `desc` per the caller.
        let object = unsafe { crate::com::this(this)? };
        let value = Texture9::level_desc(object, level)?;
        unsafe { write_out(desc, value) }
    })
}

unsafe extern "C" fn get_surface_level(this: This, level: u32, out: *mut *mut c_void) -> HRESULT {
    entry("IDirect3DTexture9::GetSurfaceLevel", || {
        // SAFETY: checked live; `out` per the caller.
        let object = unsafe { crate::com::this(this)? };
        unsafe { write_out(out, std::ptr::null_mut())? };
        let surface = Texture9::surface(object, 0, level)?;
        object.add_ref();
        unsafe { write_out(out, surface.as_ptr()) }
    })
}

unsafe extern "C" fn lock_rect(
    this: This,
    level: u32,
    locked: *mut D3DLOCKED_RECT,
    rect: *const RECT,
    flags: u32,
) -> HRESULT {
    entry("IDirect3DTexture9::LockRect", || {
        // SAFETY: checked live; pointers per the caller.
        let object = unsafe { crate::com::this(this)? };
        let region = unsafe { rect_box(rect)? };
        let result = lock_level(
            &object.data.child.shared,
            object.data.id,
            (0, level),
            region,
            flags,
        );
        unsafe { write_locked_rect(locked, result) }
    })
}

unsafe extern "C" fn unlock_rect(this: This, level: u32) -> HRESULT {
    entry("IDirect3DTexture9::UnlockRect", || {
        // SAFETY: checked live.
        let object = unsafe { crate::com::this(this)? };
        unlock_level(&object.data.child.shared, object.data.id, (0, level))
    })
}

unsafe extern "C" fn add_dirty_rect(this: This, rect: *const RECT) -> HRESULT {
    entry("IDirect3DTexture9::AddDirtyRect", || {
        // SAFETY: checked live; `rect` per the caller.
        let object = unsafe { crate::com::this(this)? };
        let region = unsafe { dirty_rect(rect)? };
        Texture9::add_dirty(object, region)
    })
}

/// An `AddDirtyRect` rectangle as a texel box: negative corners are refused.
///
/// # Safety
/// `rect` is null or readable.
unsafe fn dirty_rect(rect: *const RECT) -> CallResult<Option<TexelBox>> {
    // SAFETY: per the caller.
    let r = unsafe { opt_rect(rect)? };
    if r.is_some_and(|r| r.left < 0 || r.top < 0 || r.right < 0 || r.bottom < 0) {
        return Err(invalid_call(format!("dirty rect {r:?}")));
    }
    // SAFETY: as above.
    unsafe { rect_box(rect) }
}

unsafe extern "C" fn get_cube_map_surface(
    this: This,
    face: u32,
    level: u32,
    out: *mut *mut c_void,
) -> HRESULT {
    entry("IDirect3DCubeTexture9::GetCubeMapSurface", || {
        // SAFETY: checked live; `out` per the caller.
        let object = unsafe { crate::com::this(this)? };
        unsafe { write_out(out, std::ptr::null_mut())? };
        let surface = Texture9::surface(object, face, level)?;
        object.add_ref();
        unsafe { write_out(out, surface.as_ptr()) }
    })
}

unsafe extern "C" fn cube_lock_rect(
    this: This,
    face: u32,
    level: u32,
    locked: *mut D3DLOCKED_RECT,
    rect: *const RECT,
    flags: u32,
) -> HRESULT {
    entry("IDirect3DCubeTexture9::LockRect", || {
        // SAFETY: checked live; pointers per the caller.
        let object = unsafe { crate::com::this(this)? };
        let region = unsafe { rect_box(rect)? };
        let result = lock_level(
            &object.data.child.shared,
            object.data.id,
            (face, level),
            region,
            flags,
        );
        unsafe { write_locked_rect(locked, result) }
    })
}

unsafe extern "C" fn cube_unlock_rect(this: This, face: u32, level: u32) -> HRESULT {
    entry("IDirect3DCubeTexture9::UnlockRect", || {
        // SAFETY: checked live.
        let object = unsafe { crate::com::this(this)? };
        unlock_level(&object.data.child.shared, object.data.id, (face, level))
    })
}

unsafe extern "C" fn cube_add_dirty_rect(this: This, face: u32, rect: *const RECT) -> HRESULT {
    entry("IDirect3DCubeTexture9::AddDirtyRect", || {
        // SAFETY: checked live; `rect` per the caller.
        let object = unsafe { crate::com::this(this)? };
        if face >= 6 {
            return Err(invalid_call(format!("face {face}")));
        }
        // One dirty region serves all six faces (a face's rectangle dirties it on each).
        let region = unsafe { dirty_rect(rect)? };
        Texture9::add_dirty(object, region)
    })
}

unsafe extern "C" fn volume_get_level_desc(
    this: This,
    level: u32,
    desc: *mut D3DVOLUME_DESC,
) -> HRESULT {
    entry("IDirect3DVolumeTexture9::GetLevelDesc", || {
        // SAFETY: checked live; `desc` per the caller.
        let object = unsafe { crate::com::this(this)? };
        let value = Volume9::describe(&object.data.child.shared, object.data.id, level)?;
        unsafe { write_out(desc, value) }
    })
}

unsafe extern "C" fn get_volume_level(this: This, level: u32, out: *mut *mut c_void) -> HRESULT {
    entry("IDirect3DVolumeTexture9::GetVolumeLevel", || {
        // SAFETY: checked live; `out` per the caller.
        let object = unsafe { crate::com::this(this)? };
        unsafe { write_out(out, std::ptr::null_mut())? };
        let volume = Texture9::volume(object, level)?;
        object.add_ref();
        unsafe { write_out(out, volume.as_ptr()) }
    })
}

unsafe extern "C" fn lock_box(
    this: This,
    level: u32,
    locked: *mut D3DLOCKED_BOX,
    region: *const D3DBOX,
    flags: u32,
) -> HRESULT {
    entry("IDirect3DVolumeTexture9::LockBox", || {
        // SAFETY: checked live; pointers per the caller.
        let object = unsafe { crate::com::this(this)? };
        let region = unsafe { box_region(region)? };
        let result = lock_level(
            &object.data.child.shared,
            object.data.id,
            (0, level),
            region,
            flags,
        );
        unsafe { write_locked_box(locked, result) }
    })
}

unsafe extern "C" fn unlock_box(this: This, level: u32) -> HRESULT {
    entry("IDirect3DVolumeTexture9::UnlockBox", || {
        // SAFETY: checked live.
        let object = unsafe { crate::com::this(this)? };
        unlock_level(&object.data.child.shared, object.data.id, (0, level))
    })
}

unsafe extern "C" fn add_dirty_box(this: This, region: *const D3DBOX) -> HRESULT {
    entry("IDirect3DVolumeTexture9::AddDirtyBox", || {
        // SAFETY: checked live; `region` per the caller.
        let object = unsafe { crate::com::this(this)? };
        let region = unsafe { box_region(region)? };
        Texture9::add_dirty(object, region)
    })
}

static VTBL_2D: IDirect3DTexture9Vtbl<Com<Texture9>> = IDirect3DTexture9Vtbl {
    QueryInterface: query_interface,
    AddRef: add_ref,
    Release: release,
    GetDevice: get_device,
    SetPrivateData: set_private_data,
    GetPrivateData: get_private_data,
    FreePrivateData: free_private_data,
    SetPriority: set_priority,
    GetPriority: get_priority,
    PreLoad: pre_load,
    GetType: get_type,
    SetLOD: set_lod,
    GetLOD: get_lod,
    GetLevelCount: get_level_count,
    SetAutoGenFilterType: set_autogen_filter_type,
    GetAutoGenFilterType: get_autogen_filter_type,
    GenerateMipSubLevels: generate_mip_sub_levels,
    GetLevelDesc: get_level_desc,
    GetSurfaceLevel: get_surface_level,
    LockRect: lock_rect,
    UnlockRect: unlock_rect,
    AddDirtyRect: add_dirty_rect,
};

static VTBL_CUBE: IDirect3DCubeTexture9Vtbl<Com<Texture9>> = IDirect3DCubeTexture9Vtbl {
    QueryInterface: query_interface,
    AddRef: add_ref,
    Release: release,
    GetDevice: get_device,
    SetPrivateData: set_private_data,
    GetPrivateData: get_private_data,
    FreePrivateData: free_private_data,
    SetPriority: set_priority,
    GetPriority: get_priority,
    PreLoad: pre_load,
    GetType: get_type,
    SetLOD: set_lod,
    GetLOD: get_lod,
    GetLevelCount: get_level_count,
    SetAutoGenFilterType: set_autogen_filter_type,
    GetAutoGenFilterType: get_autogen_filter_type,
    GenerateMipSubLevels: generate_mip_sub_levels,
    GetLevelDesc: get_level_desc,
    GetCubeMapSurface: get_cube_map_surface,
    LockRect: cube_lock_rect,
    UnlockRect: cube_unlock_rect,
    AddDirtyRect: cube_add_dirty_rect,
};

static VTBL_VOLUME: IDirect3DVolumeTexture9Vtbl<Com<Texture9>> = IDirect3DVolumeTexture9Vtbl {
    QueryInterface: query_interface,
    AddRef: add_ref,
    Release: release,
    GetDevice: get_device,
    SetPrivateData: set_private_data,
    GetPrivateData: get_private_data,
    FreePrivateData: free_private_data,
    SetPriority: set_priority,
    GetPriority: get_priority,
    PreLoad: pre_load,
    GetType: get_type,
    SetLOD: set_lod,
    GetLOD: get_lod,
    GetLevelCount: get_level_count,
    SetAutoGenFilterType: set_autogen_filter_type,
    GetAutoGenFilterType: get_autogen_filter_type,
    GenerateMipSubLevels: generate_mip_sub_levels,
    GetLevelDesc: volume_get_level_desc,
    GetVolumeLevel: get_volume_level,
    LockBox: lock_box,
    UnlockBox: unlock_box,
    AddDirtyBox: add_dirty_box,
};
