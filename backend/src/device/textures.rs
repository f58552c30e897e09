//! Textures: 2D, cube and volume textures in D3D9's four pools, their locks, and the surfaces
//! of their levels.
//!
//! A texture in DEFAULT or MANAGED has a wgpu texture; MANAGED, SYSTEMMEM, SCRATCH and dynamic
//! DEFAULT textures also keep each subresource's texels as D3D9's memory lays them out (what
//! `LockRect` / `LockBox` shows), and an unlock uploads the subresource.

use super::error::{invalid, unsupported, DeviceError};
use super::format::Format;
use super::objects::{
    ActiveLock, DirtyRegion, GpuImage, GpuTexture, LockFlags, Locked, Pool, SurfaceId,
    SurfaceObject, TexelBox, TextureDesc, TextureId, TextureMemory, TextureObject, Usage,
};
use super::upload::write_subresource;
use super::Device;
use crate::device::TextureKind;

/// The usages of every GPU texture. COPY_SRC: copies out (StretchRect, GetRenderTargetData,
/// a 2D texture on a `dcl_volume` sampler is copied into a one-slice volume, float32 bits
/// into floats).
const GPU_TEXTURE_USAGE: wgpu::TextureUsages = wgpu::TextureUsages::TEXTURE_BINDING
    .union(wgpu::TextureUsages::COPY_DST)
    .union(wgpu::TextureUsages::COPY_SRC);
/// What textures drawn into (render-target and AUTOGENMIPMAP ones) add.
const DRAWN_USAGE: wgpu::TextureUsages = wgpu::TextureUsages::RENDER_ATTACHMENT;

/// What `GetLevelDesc` and friends report of a texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureInfo {
    pub kind: TextureKind,
    pub format: Format,
    pub usage: Usage,
    pub pool: Pool,
    pub width: u32,
    pub height: u32,
    pub depth: u32,
    pub levels: u32,
    pub lod: u32,
}

impl Device {
    /// `CreateTexture(width, height, levels, 0, format, D3DPOOL_MANAGED)`; `levels` 0 makes
    /// the full mip chain. Texels start at zero; fill them with [`Device::update_texture`].
    pub fn create_texture(
        &mut self,
        width: u32,
        height: u32,
        levels: u32,
        format: Format,
    ) -> Result<TextureId, DeviceError> {
        self.create_texture_with(&TextureDesc {
            kind: TextureKind::TwoD,
            width,
            height,
            depth: 1,
            levels,
            format,
            usage: Usage::default(),
            pool: Pool::Managed,
        })
    }

    /// `CreateCubeTexture(edge, levels, 0, format, D3DPOOL_MANAGED)`.
    pub fn create_cube_texture(
        &mut self,
        edge: u32,
        levels: u32,
        format: Format,
    ) -> Result<TextureId, DeviceError> {
        self.create_texture_with(&TextureDesc {
            kind: TextureKind::Cube,
            width: edge,
            height: edge,
            depth: 1,
            levels,
            format,
            usage: Usage::default(),
            pool: Pool::Managed,
        })
    }

    /// `CreateVolumeTexture(width, height, depth, levels, 0, format, D3DPOOL_MANAGED)`.
    pub fn create_volume_texture(
        &mut self,
        width: u32,
        height: u32,
        depth: u32,
        levels: u32,
        format: Format,
    ) -> Result<TextureId, DeviceError> {
        self.create_texture_with(&TextureDesc {
            kind: TextureKind::Volume,
            width,
            height,
            depth,
            levels,
            format,
            usage: Usage::default(),
            pool: Pool::Managed,
        })
    }

    /// `CreateTexture(width, height, 1, D3DUSAGE_RENDERTARGET, format, D3DPOOL_DEFAULT)`:
    /// a texture whose level 0 is a render target ([`Device::get_surface_level`]).
    pub fn create_render_target_texture(
        &mut self,
        width: u32,
        height: u32,
        format: Format,
    ) -> Result<TextureId, DeviceError> {
        self.create_texture_with(&TextureDesc {
            kind: TextureKind::TwoD,
            width,
            height,
            depth: 1,
            levels: 1,
            format,
            usage: Usage::RENDER_TARGET,
            pool: Pool::Default,
        })
    }

    /// `CreateTexture` / `CreateCubeTexture` / `CreateVolumeTexture` with D3D9's rules:
    /// render-target textures live in DEFAULT, dynamic textures not in MANAGED, volumes are not
    /// render targets; every level of a render-target texture can be drawn into.
    pub fn create_texture_with(&mut self, desc: &TextureDesc) -> Result<TextureId, DeviceError> {
        let call = match desc.kind {
            TextureKind::TwoD => "CreateTexture",
            TextureKind::Cube => "CreateCubeTexture",
            TextureKind::Volume => "CreateVolumeTexture",
        };
        let TextureDesc {
            kind,
            width,
            height,
            depth,
            format,
            usage,
            pool,
            ..
        } = *desc;
        check_texture_desc(call, desc)?;
        if format.is_depth() || usage.contains(Usage::DEPTH_STENCIL) {
            return self.create_depth_texture(call, desc);
        }
        let render_target = usage.contains(Usage::RENDER_TARGET);
        if render_target
            && kind == TextureKind::Cube
            && !format.support(&self.gpu).cube_render_target
        {
            return Err(unsupported(
                call,
                "a cube render-target texture on wgpu's GL backend (it cannot draw into or copy a cube face)",
            ));
        }
        let asks_autogen = usage.contains(Usage::AUTOGEN_MIPMAP);
        let autogen =
            asks_autogen && super::autogen::check_desc(call, desc, format.support(&self.gpu))?;
        let levels = texture_levels(call, desc, asks_autogen, autogen)?;
        // AUTOGENMIPMAP levels are drawn from level 0 (`autogen`).
        let drawn = render_target || autogen;
        let wgpu_format = self.texture_format(call, desc, drawn)?;
        let gpu = if pool.on_gpu() {
            Some(self.create_gpu_texture(
                call,
                kind,
                [width, height, depth],
                levels,
                format,
                wgpu_format,
                drawn,
            )?)
        } else {
            None
        };
        let faces = if kind == TextureKind::Cube { 6 } else { 1 };
        let subresources = (faces * levels) as usize;
        let mut object = TextureObject {
            kind,
            format,
            wgpu_format,
            width,
            height,
            depth,
            levels,
            pool,
            usage,
            gpu,
            memory: Default::default(),
            locks: (0..subresources).map(|_| None).collect(),
            surfaces: vec![None; subresources],
            lod: 0,
            // D3D9's MANAGED and SYSTEMMEM textures start wholly dirty.
            dirty: if matches!(pool, Pool::Managed | Pool::SystemMem) {
                DirtyRegion::Whole
            } else {
                DirtyRegion::Clean
            },
            stale: false,
            version: 0,
            autogen: autogen.then(super::objects::AutoGen::default),
        };
        if object.lockable() {
            object.memory = TextureMemory::new((0..subresources).map(|i| {
                let (w, h, d) = object.subresource_size(i as u32 % levels);
                format.image_size(w, h) * d as usize
            }));
        }
        // D3D9's textures start as whatever memory held; zero is the honest choice.
        // (MANAGED textures upload their zeroed memory before first use.)
        if object.gpu.is_some() && !render_target && pool != Pool::Managed {
            for sub in 0..subresources as u32 {
                let (w, h, d) = object.subresource_size(sub % levels);
                let zeros = vec![0; format.image_size(w, h) * d as usize];
                write_subresource(&self.gpu.queue, &object, sub, &zeros);
            }
        }
        let id = TextureId(self.next_id());
        self.textures.insert(id, object);
        Ok(id)
    }

    /// The GPU format of a colour texture: one the adapter can hold, the same as render
    /// targets' in DEFAULT (`drawn`: levels drawn into), float32 bits where drawn float32
    /// cannot be rendered.
    fn texture_format(
        &self,
        call: &'static str,
        desc: &TextureDesc,
        drawn: bool,
    ) -> Result<wgpu::TextureFormat, DeviceError> {
        let TextureDesc {
            kind,
            width,
            height,
            format,
            pool,
            ..
        } = *desc;
        let features = self.gpu.features();
        if !features.contains(format.required_features()) {
            return Err(unsupported(
                call,
                format!(
                    "{format:?} textures (the adapter lacks {:?})",
                    format.required_features()
                ),
            ));
        }
        // DEFAULT textures take part in GPU copies with render targets: the same formats
        // (float formats keep their expanded sampled layout unless drawn into).
        // Block-compressed volumes are decoded where the adapter cannot hold them.
        let bc = if kind == TextureKind::Volume {
            wgpu::Features::TEXTURE_COMPRESSION_BC
                | wgpu::Features::TEXTURE_COMPRESSION_BC_SLICED_3D
        } else {
            wgpu::Features::TEXTURE_COMPRESSION_BC
        };
        let wgpu_format = format.texture_wgpu(
            drawn || (pool == Pool::Default && !format.is_float()),
            self.depth32_stencil8(),
            width.is_multiple_of(4) && height.is_multiple_of(4) && features.contains(bc),
        );
        // Float32 levels that are drawn into, where the adapter cannot render floats: their
        // bits in a u32 format (`float_bits`; shaders sample a float copy).
        Ok(match drawn {
            true => self.drawn_format(wgpu_format, GPU_TEXTURE_USAGE | DRAWN_USAGE),
            false => wgpu_format,
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn create_gpu_texture(
        &self,
        call: &'static str,
        kind: TextureKind,
        [width, height, depth]: [u32; 3],
        levels: u32,
        format: Format,
        wgpu_format: wgpu::TextureFormat,
        render_target: bool,
    ) -> Result<GpuTexture, DeviceError> {
        let mut usage = GPU_TEXTURE_USAGE;
        if render_target {
            usage |= DRAWN_USAGE;
        }
        if !self.gpu.format_usages(wgpu_format).contains(usage) {
            return Err(unsupported(
                call,
                format!("{format:?} ({wgpu_format:?}) with {usage:?} on this adapter"),
            ));
        }
        self.gpu
            .require(crate::gpu::caps::check_texture_size(
                kind.dimensions().1,
                [width, height, depth],
                &self.gpu.device.limits(),
            ))
            .map_err(Device::gpu_error(call))?;
        let (dimension, view_dimension) = kind.dimensions();
        let view_formats = super::srgb::view_formats(&self.gpu, format, wgpu_format);
        let texture = self.gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some(call),
            size: wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: match kind {
                    TextureKind::TwoD => 1,
                    TextureKind::Cube => 6,
                    TextureKind::Volume => depth,
                },
            },
            mip_level_count: levels,
            sample_count: 1,
            dimension,
            format: wgpu_format,
            usage,
            view_formats: &view_formats,
        });
        let desc = wgpu::TextureViewDescriptor {
            dimension: Some(view_dimension),
            ..Default::default()
        };
        let view = texture.create_view(&desc);
        let srgb_view = super::srgb::srgb_view(&texture, &view_formats, &desc);
        Ok(GpuTexture {
            texture,
            view,
            srgb_view,
        })
    }

    /// A GPU texture for SYSTEMMEM texture `id` (drawn with: Windows reads its memory).
    pub(crate) fn create_gpu_texture_for(&self, id: TextureId) -> Result<GpuTexture, DeviceError> {
        let call = "SetTexture";
        let t = self
            .textures
            .get(&id)
            .ok_or_else(|| invalid(call, format!("{id:?} is not a texture of this device")))?;
        self.create_gpu_texture(
            call,
            t.kind,
            [t.width, t.height, t.depth],
            t.levels,
            t.format,
            t.wgpu_format,
            false,
        )
    }

    fn texture_mut(
        &mut self,
        call: &'static str,
        id: TextureId,
    ) -> Result<&mut TextureObject, DeviceError> {
        self.textures
            .get_mut(&id)
            .ok_or_else(|| invalid(call, format!("{id:?} is not a texture of this device")))
    }

    /// `LockRect` / `LockBox` of a whole mip level + copy + unlock: `data` holds the level's
    /// texels in D3D9's memory layout (rows top to bottom, tightly packed; a cube texture's six
    /// faces in `D3DCUBEMAP_FACES` order; a volume's slices in order).
    pub fn update_texture(
        &mut self,
        id: TextureId,
        level: u32,
        data: &[u8],
    ) -> Result<(), DeviceError> {
        let call = "LockRect";
        let texture = self
            .textures
            .get(&id)
            .ok_or_else(|| invalid(call, format!("{id:?} is not a texture of this device")))?;
        if level >= texture.levels {
            return Err(invalid(
                call,
                format!("level {level} of a texture with {} levels", texture.levels),
            ));
        }
        if texture.format.is_depth() {
            return Err(invalid(
                call,
                "a depth texture's texels are not written by the CPU",
            ));
        }
        let (w, h, d) = texture.subresource_size(level);
        let image = texture.format.image_size(w, h) * d as usize;
        let faces = texture.faces() as usize;
        if data.len() != image * faces {
            return Err(invalid(
                call,
                format!(
                    "level {level} holds {} bytes, {} given",
                    image * faces,
                    data.len()
                ),
            ));
        }
        self.flush()?;
        let queue = self.gpu.queue.clone();
        let texture = self.texture_mut(call, id)?;
        for (face, bytes) in (0u32..).zip(data.chunks(image.max(1))) {
            let sub = face * texture.levels + level;
            if let Some(memory) = texture.memory.get_mut(sub as usize) {
                memory.copy_from_slice(bytes);
            }
            // Textures with system memory record the write as a lock does (MANAGED ones
            // upload before they are next drawn with).
            if texture.memory.is_empty() || texture.pool == Pool::Default {
                write_subresource(&queue, texture, sub, bytes);
            }
        }
        if !texture.memory.is_empty() && texture.pool != Pool::Default {
            texture.record_write(level, None, false);
        }
        texture.version += 1;
        Ok(())
    }

    /// `LockRect(level)` of a 2D texture, `LockRect(face, level)` of a cube texture or
    /// `LockBox(level)` of a volume texture: `region` (the whole level when `None`) in
    /// D3D9's memory. A subresource cannot be locked twice; DEFAULT textures lock only when
    /// dynamic.
    pub fn lock_texture(
        &mut self,
        id: TextureId,
        face: u32,
        level: u32,
        region: Option<TexelBox>,
        flags: LockFlags,
    ) -> Result<Locked, DeviceError> {
        let call = "LockRect";
        // As buffer locks: what the lock writes reaches the GPU at the unlock, after the draws
        // recorded before the lock (submitted here) and before those recorded during it.
        if !flags.contains(LockFlags::READ_ONLY) && !flags.contains(LockFlags::NO_OVERWRITE) {
            self.flush()?;
        }
        let texture = self.texture_mut(call, id)?;
        texture.check_shown(call, level)?;
        let sub = texture.subresource(call, face, level)?;
        if !texture.lockable() {
            return Err(invalid(
                call,
                format!(
                    "a {:?} texture in {:?} that is not dynamic",
                    texture.format, texture.pool
                ),
            ));
        }
        if texture.locks[sub].is_some() {
            return Err(invalid(
                call,
                format!("face {face} level {level} is already locked"),
            ));
        }
        let (w, h, d) = texture.subresource_size(level);
        // Windows locks any rectangle of a 2D texture's level (Wine's add_dirty_rect_test):
        // one outside the level locks (and dirties) the whole level.
        let region = match region {
            Some(b) if !b.fits(w, h, d) && texture.kind == TextureKind::TwoD => None,
            Some(b) if !b.fits(w, h, d) => {
                return Err(invalid(call, format!("{b:?} of a {w}x{h}x{d} level")));
            }
            region => region,
        };
        let dirty = region;
        let region = region.unwrap_or(TexelBox::whole(w, h, d));
        let format = texture.format;
        let (tight, row_pitch) = (format.row_pitch(w), format.lock_pitch(w));
        let slice_pitch = row_pitch * format.rows(h);
        let offset = (format.offset_of(region.left, region.top, w) / tight as usize)
            * row_pitch as usize
            + format.offset_of(region.left, 0, w)
            + region.front as usize * slice_pitch as usize;
        // Rows padded to the lock's pitch are a copy, written back at the unlock.
        let mut staging = (row_pitch != tight)
            .then(|| texture.memory.padded(sub, tight, row_pitch))
            .flatten();
        let memory = texture
            .memory
            .get_mut(sub)
            .ok_or_else(|| invalid(call, "internal: a lockable texture without memory"))?;
        let lock_memory = staging.as_deref_mut().unwrap_or(memory);
        let bits = lock_memory
            .as_mut_ptr()
            .wrapping_add(offset.min(lock_memory.len()));
        texture.locks[sub] = Some(ActiveLock {
            flags,
            region: dirty,
            staging,
        });
        Ok(Locked {
            bits,
            row_pitch,
            slice_pitch,
        })
    }

    /// `UnlockRect` / `UnlockBox`: what the lock wrote reaches the GPU (unless it was
    /// read-only). Unlocking what is not locked is `D3DERR_INVALIDCALL`.
    pub fn unlock_texture(
        &mut self,
        id: TextureId,
        face: u32,
        level: u32,
    ) -> Result<(), DeviceError> {
        let call = "UnlockRect";
        let texture = self.texture_mut(call, id)?;
        let sub = texture.subresource(call, face, level)?;
        let lock = texture.locks[sub]
            .take()
            .ok_or_else(|| invalid(call, format!("face {face} level {level} is not locked")))?;
        // Uploaded when next used: programs write other levels through one lock (Windows'
        // levels share one allocation), and a texture's levels are often locked in turn.
        if let (Some(staging), false) = (&lock.staging, lock.flags.contains(LockFlags::READ_ONLY)) {
            let (w, _, _) = texture.subresource_size(level);
            let (tight, pitch) = (texture.format.row_pitch(w), texture.format.lock_pitch(w));
            texture.memory.unpad(sub, staging, tight, pitch);
        }
        if lock.flags.contains(LockFlags::READ_ONLY) {
            // A read-only lock records no dirty region; a SYSTEMMEM texture drawn with
            // still reads what it wrote.
            texture.stale |= texture.pool == Pool::SystemMem;
        } else {
            let no_dirty = lock.flags.contains(LockFlags::NO_DIRTY_UPDATE);
            texture.record_write(level, lock.region, no_dirty);
        }
        Ok(())
    }

    /// `GetSurfaceLevel(level)` of a 2D texture.
    pub fn get_surface_level(
        &mut self,
        id: TextureId,
        level: u32,
    ) -> Result<SurfaceId, DeviceError> {
        self.texture_surface(id, 0, level)
    }

    /// `GetSurfaceLevel(level)` / `GetCubeMapSurface(face, level)`: the surface of one
    /// subresource, the same one every time it is asked for (it lives as long as the
    /// texture). Locking it locks the texture's subresource; drawing into it draws into the
    /// texture.
    pub fn texture_surface(
        &mut self,
        id: TextureId,
        face: u32,
        level: u32,
    ) -> Result<SurfaceId, DeviceError> {
        let call = "GetSurfaceLevel";
        self.texture_mut(call, id)?.check_shown(call, level)?;
        self.level_surface(id, face, level)
    }

    /// The surface of subresource (face, level), made once (AUTOGENMIPMAP levels too).
    pub(crate) fn level_surface(
        &mut self,
        id: TextureId,
        face: u32,
        level: u32,
    ) -> Result<SurfaceId, DeviceError> {
        let call = "GetSurfaceLevel";
        let texture = self
            .textures
            .get(&id)
            .ok_or_else(|| invalid(call, format!("{id:?} is not a texture of this device")))?;
        if texture.kind == TextureKind::Volume {
            return Err(invalid(call, "a volume texture has volumes, not surfaces"));
        }
        let sub = texture.subresource(call, face, level)?;
        if let Some(surface) = texture.surfaces[sub] {
            return Ok(surface);
        }
        let extent = texture.level_extent(level);
        let desc = wgpu::TextureViewDescriptor {
            dimension: Some(wgpu::TextureViewDimension::D2),
            base_mip_level: level,
            mip_level_count: Some(1),
            base_array_layer: face,
            array_layer_count: Some(1),
            ..Default::default()
        };
        let view_formats =
            super::srgb::view_formats(&self.gpu, texture.format, texture.wgpu_format);
        let gpu = texture.gpu.as_ref().map(|g| GpuImage {
            texture: g.texture.clone(),
            view: g.texture.create_view(&desc),
            srgb_view: g
                .srgb_view
                .as_ref()
                .and_then(|_| super::srgb::srgb_view(&g.texture, &view_formats, &desc)),
            wgpu_format: texture.wgpu_format,
            level,
            layer: face,
        });
        let surface = SurfaceObject {
            format: texture.format,
            width: extent.width,
            height: extent.height,
            pool: texture.pool,
            usage: texture.usage,
            lockable: texture.lockable(),
            gpu,
            memory: None,
            container: Some((id, face, level)),
            lock: None,
            multisample: super::objects::MultiSample::NONE,
        };
        let sid = SurfaceId(self.next_id());
        self.surfaces.insert(sid, surface);
        if let Some(texture) = self.textures.get_mut(&id) {
            texture.surfaces[sub] = Some(sid);
        }
        Ok(sid)
    }

    /// The description of a texture (`GetLevelDesc` derives each level's from it).
    pub fn texture_info(&self, id: TextureId) -> Option<TextureInfo> {
        self.textures.get(&id).map(|t| TextureInfo {
            kind: t.kind,
            format: t.format,
            usage: t.usage,
            pool: t.pool,
            width: t.width,
            height: t.height,
            depth: t.depth,
            // An AUTOGENMIPMAP texture shows one level.
            levels: if t.autogen.is_some() { 1 } else { t.levels },
            lod: t.lod,
        })
    }

    /// `SetLOD(lod)` of a managed texture: the most detailed level sampled, clamped to the
    /// last level; returns the previous one. Other pools keep 0 (D3D9 ignores it there).
    pub fn set_texture_lod(&mut self, id: TextureId, lod: u32) -> Result<u32, DeviceError> {
        let texture = self.texture_mut("SetLOD", id)?;
        let old = texture.lod;
        if texture.pool == Pool::Managed {
            texture.lod = lod.min(texture.levels - 1);
            texture.version += 1;
        }
        Ok(old)
    }

    /// `Release` of a texture, with the surfaces of its levels.
    pub fn release_texture(&mut self, id: TextureId) -> Result<(), DeviceError> {
        let texture = self
            .textures
            .remove(&id)
            .ok_or_else(|| invalid("Release", format!("{id:?} is not a texture of this device")))?;
        for surface in texture.surfaces.into_iter().flatten() {
            self.surfaces.remove(&surface);
            self.unbind_surface(surface);
        }
        for slot in self.state.textures.iter_mut() {
            if *slot == Some(id) {
                *slot = None;
            }
        }
        self.volume_slices.remove(&id);
        self.float_copies.remove(&id);
        Ok(())
    }
}

impl TextureObject {
    /// An AUTOGENMIPMAP texture shows only level 0 to the application.
    pub(crate) fn check_shown(&self, call: &'static str, level: u32) -> Result<(), DeviceError> {
        if self.autogen.is_some() && level > 0 {
            return Err(invalid(
                call,
                format!("level {level} of an AUTOGENMIPMAP texture (it shows one)"),
            ));
        }
        Ok(())
    }

    /// The index of subresource (face, level), checked.
    pub(crate) fn subresource(
        &self,
        call: &'static str,
        face: u32,
        level: u32,
    ) -> Result<usize, DeviceError> {
        if face >= self.faces() || level >= self.levels {
            return Err(invalid(
                call,
                format!(
                    "face {face} level {level} of a texture with {} faces and {} levels",
                    self.faces(),
                    self.levels
                ),
            ));
        }
        Ok((face * self.levels + level) as usize)
    }
}

/// D3D9's rules on a texture's description, before its kind is looked at: a size, render
/// targets and depth textures in DEFAULT, no dynamic MANAGED textures, no volume render
/// targets, no NULL or YUV textures.
fn check_texture_desc(call: &'static str, desc: &TextureDesc) -> Result<(), DeviceError> {
    let TextureDesc {
        kind,
        width,
        height,
        depth,
        format,
        usage,
        pool,
        ..
    } = *desc;
    if width == 0 || height == 0 || depth == 0 {
        return Err(invalid(call, format!("a {width}x{height}x{depth} texture")));
    }
    let render_target = usage.contains(Usage::RENDER_TARGET);
    if (render_target || usage.contains(Usage::DEPTH_STENCIL)) && pool != Pool::Default {
        return Err(invalid(
            call,
            format!("D3DUSAGE_RENDERTARGET or _DEPTHSTENCIL in {pool:?}"),
        ));
    }
    if pool == Pool::Managed && usage.contains(Usage::DYNAMIC) {
        return Err(invalid(call, "D3DUSAGE_DYNAMIC in D3DPOOL_MANAGED"));
    }
    if render_target && kind == TextureKind::Volume {
        return Err(invalid(call, "a volume render target"));
    }
    if format == Format::Null {
        return Err(invalid(
            call,
            "NULL textures (the format is for render targets)",
        ));
    }
    if format.is_yuv() {
        return Err(invalid(
            call,
            format!("{format:?} textures (YUV formats are offscreen plain surfaces)"),
        ));
    }
    Ok(())
}

/// The levels a texture has: 0 makes the full chain; an AUTOGENMIPMAP texture shows one
/// level and keeps the whole chain (one level where the format cannot have its levels
/// generated: `autogen` false).
fn texture_levels(
    call: &'static str,
    desc: &TextureDesc,
    asks_autogen: bool,
    autogen: bool,
) -> Result<u32, DeviceError> {
    let TextureDesc {
        kind,
        width,
        height,
        depth,
        ..
    } = *desc;
    let largest = width.max(height).max(if kind == TextureKind::Volume {
        depth
    } else {
        1
    });
    let full_chain = 32 - largest.leading_zeros();
    Ok(match desc.levels {
        0 | 1 if asks_autogen && !autogen => 1,
        0 => full_chain,
        1 if autogen => full_chain,
        n if n > full_chain => {
            return Err(invalid(
                call,
                format!("{n} levels; a {width}x{height} texture has at most {full_chain}"),
            ))
        }
        n => n,
    })
}
