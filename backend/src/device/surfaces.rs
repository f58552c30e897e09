//! Surfaces: render targets, depth-stencil surfaces and offscreen plain surfaces, their locks
//! and release. (Surfaces of texture levels are made in `textures`; copies between surfaces
//! are in `copies`.)

use super::error::{invalid, unsupported, DeviceError};
use super::format::Format;
use super::objects::{
    ActiveLock, GpuImage, LockFlags, Locked, MultiSample, Pool, SurfaceId, SurfaceObject, TexelBox,
    Usage,
};
use super::state::Rect;
use super::Device;
use crate::gpu::Target;

/// What `GetDesc` reports of a surface.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SurfaceInfo {
    pub format: Format,
    pub width: u32,
    pub height: u32,
    pub pool: Pool,
    pub usage: Usage,
    /// The texture, face and level the surface belongs to, for texture levels.
    pub container: Option<(super::objects::TextureId, u32, u32)>,
    /// `MultiSampleType` and `MultiSampleQuality`.
    pub multisample: MultiSample,
}

impl Device {
    /// `CreateRenderTarget(width, height, format, D3DMULTISAMPLE_NONE, 0, FALSE, ..)`.
    pub fn create_render_target(
        &mut self,
        width: u32,
        height: u32,
        format: Format,
    ) -> Result<SurfaceId, DeviceError> {
        self.create_render_target_with(width, height, format, false)
    }

    /// `CreateRenderTarget(width, height, format, D3DMULTISAMPLE_NONE, 0, lockable, ..)`.
    pub fn create_render_target_with(
        &mut self,
        width: u32,
        height: u32,
        format: Format,
        lockable: bool,
    ) -> Result<SurfaceId, DeviceError> {
        self.create_render_target_multisampled(width, height, format, MultiSample::NONE, lockable)
    }

    /// `CreateRenderTarget(width, height, format, multisample, quality, lockable, ..)`: a
    /// multisampled target has the samples that serve its type (`multisample`);
    /// `D3DERR_NOTAVAILABLE` where the adapter has no such multisampling for the format
    /// (`DeviceError::NotAvailable`), `D3DERR_INVALIDCALL` for a quality past its levels.
    /// Multisampled targets are made lockable or not as asked, but never locked.
    pub fn create_render_target_multisampled(
        &mut self,
        width: u32,
        height: u32,
        format: Format,
        multisample: MultiSample,
        lockable: bool,
    ) -> Result<SurfaceId, DeviceError> {
        let call = "CreateRenderTarget";
        if format.is_depth() {
            return Err(invalid(call, format!("{format:?} is a depth format")));
        }
        if format == Format::Null {
            // The NULL format stores nothing: a target of that size without texels (draws
            // into it write depth and stencil only; DXVK and wined3d offer it too).
            let size = (width, height);
            let place = (Pool::Default, Usage::RENDER_TARGET);
            return self.add_cpu_surface(call, size, format, place, None, multisample);
        }
        let usage = Usage::RENDER_TARGET;
        self.add_gpu_surface(call, (width, height), format, usage, lockable, multisample)
    }

    /// `CreateDepthStencilSurface(width, height, format, D3DMULTISAMPLE_NONE, ..)`.
    /// `D3DFMT_D32F_LOCKABLE` and `D3DFMT_D16_LOCKABLE` surfaces can be locked.
    pub fn create_depth_stencil_surface(
        &mut self,
        width: u32,
        height: u32,
        format: Format,
    ) -> Result<SurfaceId, DeviceError> {
        self.create_depth_stencil_surface_multisampled(width, height, format, MultiSample::NONE)
    }

    /// `CreateDepthStencilSurface(width, height, format, multisample, quality, ..)`, as
    /// [`Device::create_render_target_multisampled`] for its multisampling.
    pub fn create_depth_stencil_surface_multisampled(
        &mut self,
        width: u32,
        height: u32,
        format: Format,
        multisample: MultiSample,
    ) -> Result<SurfaceId, DeviceError> {
        let call = "CreateDepthStencilSurface";
        if !format.is_depth() {
            return Err(invalid(call, format!("{format:?} is not a depth format")));
        }
        let lockable = matches!(format, Format::D32FLockable | Format::D16Lockable);
        let usage = Usage::DEPTH_STENCIL;
        self.add_gpu_surface(call, (width, height), format, usage, lockable, multisample)
    }

    /// `CreateOffscreenPlainSurface(width, height, format, pool)`: a lockable surface that
    /// is not a render target. DEFAULT surfaces live on the GPU (`StretchRect`, `ColorFill`
    /// and `UpdateSurface` reach them); SYSTEMMEM and SCRATCH surfaces in system memory
    /// (`GetRenderTargetData` and `UpdateSurface` read and write them); MANAGED is refused.
    pub fn create_offscreen_plain_surface(
        &mut self,
        width: u32,
        height: u32,
        format: Format,
        pool: Pool,
    ) -> Result<SurfaceId, DeviceError> {
        let call = "CreateOffscreenPlainSurface";
        if format.is_depth() || format == Format::Null {
            return Err(invalid(call, format!("{format:?} is a depth format")));
        }
        match pool {
            Pool::Managed => Err(invalid(call, "D3DPOOL_MANAGED")),
            Pool::Default => {
                let size = (width, height);
                self.add_gpu_surface(call, size, format, Usage(0), true, MultiSample::NONE)
            }
            Pool::SystemMem | Pool::Scratch => {
                let memory = Some(vec![0; format.image_size(width, height)]);
                let size = (width, height);
                let place = (pool, Usage(0));
                self.add_cpu_surface(call, size, format, place, memory, MultiSample::NONE)
            }
        }
    }

    /// A surface with no GPU image: lockable system memory (`memory`), or a `NULL`-format
    /// render target that stores nothing (`None`).
    fn add_cpu_surface(
        &mut self,
        call: &'static str,
        (width, height): (u32, u32),
        format: Format,
        (pool, usage): (Pool, Usage),
        memory: Option<Vec<u8>>,
        multisample: MultiSample,
    ) -> Result<SurfaceId, DeviceError> {
        self.check_surface_size(call, width, height)?;
        let id = SurfaceId(self.next_id());
        let surface = SurfaceObject {
            format,
            width,
            height,
            pool,
            usage,
            lockable: memory.is_some(),
            gpu: None,
            memory,
            container: None,
            lock: None,
            multisample,
        };
        self.surfaces.insert(id, surface);
        Ok(id)
    }

    fn check_surface_size(
        &self,
        call: &'static str,
        width: u32,
        height: u32,
    ) -> Result<(), DeviceError> {
        let limit = self.gpu.device.limits().max_texture_dimension_2d;
        if width == 0 || height == 0 || width > limit || height > limit {
            return Err(invalid(
                call,
                format!("a {width}x{height} surface (the adapter allows 1..={limit})"),
            ));
        }
        Ok(())
    }

    fn add_gpu_surface(
        &mut self,
        call: &'static str,
        (width, height): (u32, u32),
        format: Format,
        usage: Usage,
        lockable: bool,
        multisample: MultiSample,
    ) -> Result<SurfaceId, DeviceError> {
        self.check_surface_size(call, width, height)?;
        let samples = format.sample_count(&self.gpu, multisample).ok_or_else(|| {
            // (D3DERR_INVALIDCALL, as DXVK answers a type it cannot make.)
            invalid(
                call,
                format!("{format:?} surfaces with {multisample:?} on this adapter"),
            )
        })?;
        let blocks = width.is_multiple_of(4)
            && height.is_multiple_of(4)
            && self
                .gpu
                .features()
                .contains(wgpu::Features::TEXTURE_COMPRESSION_BC);
        // Multisampled images are drawn into, resolved and (depth) read by passes, not copied.
        let gpu_usage = match samples {
            1 => {
                wgpu::TextureUsages::RENDER_ATTACHMENT
                    | wgpu::TextureUsages::COPY_SRC
                    | wgpu::TextureUsages::COPY_DST
                    | wgpu::TextureUsages::TEXTURE_BINDING
            }
            _ => wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
        };
        // Float32 surfaces where the adapter cannot render floats (GL/GLES): the bits in a
        // u32 format of the same size (`float_bits`); offscreen plain ones too, so that
        // copies between them and render targets stay copies.
        let wgpu_format = self.drawn_format(
            format.texture_wgpu(true, self.depth32_stencil8(), blocks),
            gpu_usage,
        );
        // Depth formats are copy destinations (StretchRect between depth-stencil surfaces)
        // where the adapter allows it.
        let gpu_usage = if format.is_depth()
            && !self
                .gpu
                .format_usages(wgpu_format)
                .contains(wgpu::TextureUsages::COPY_DST)
        {
            gpu_usage - wgpu::TextureUsages::COPY_DST
        } else {
            gpu_usage
        };
        // An offscreen plain surface is drawn into only where the format allows it (a
        // StretchRect into it copies); render targets and depth-stencil surfaces must be.
        let drawn = usage.contains(Usage::RENDER_TARGET) || usage.contains(Usage::DEPTH_STENCIL);
        let allowed = self.gpu.format_usages(wgpu_format);
        let gpu_usage = if !drawn && !allowed.contains(gpu_usage) {
            gpu_usage - wgpu::TextureUsages::RENDER_ATTACHMENT
        } else {
            gpu_usage
        };
        if !self.gpu.features().contains(format.required_features()) || !allowed.contains(gpu_usage)
        {
            return Err(unsupported(
                call,
                format!("{format:?} ({wgpu_format:?}) surfaces with {gpu_usage:?} on this adapter"),
            ));
        }
        // wgpu's GL backend resolves only multisampled images it holds as renderbuffers, which
        // it does for those that are render attachments and nothing else (with
        // TEXTURE_BINDING or COPY_SRC the resolve reads back black): there they are.
        let gpu_usage = if samples > 1 && self.gpu.adapter_info().backend == wgpu::Backend::Gl {
            gpu_usage & wgpu::TextureUsages::RENDER_ATTACHMENT
        } else {
            gpu_usage
        };
        let view_formats = super::srgb::view_formats(&self.gpu, format, wgpu_format);
        let texture = Target {
            samples,
            view_formats: &view_formats,
            ..Target::new(call, wgpu_format, (width, height), gpu_usage)
        }
        .create(&self.gpu.device);
        let view = texture.create_view(&Default::default());
        let srgb_view = super::srgb::srgb_view(&texture, &view_formats, &Default::default());
        let id = SurfaceId(self.next_id());
        self.surfaces.insert(
            id,
            SurfaceObject {
                format,
                width,
                height,
                pool: Pool::Default,
                usage,
                lockable,
                gpu: Some(GpuImage {
                    texture,
                    view,
                    srgb_view,
                    wgpu_format,
                    level: 0,
                    layer: 0,
                }),
                memory: None,
                container: None,
                lock: None,
                multisample,
            },
        );
        Ok(id)
    }

    pub(crate) fn depth32_stencil8(&self) -> bool {
        self.gpu
            .features()
            .contains(wgpu::Features::DEPTH32FLOAT_STENCIL8)
    }

    /// The size and format of a surface.
    pub fn surface_desc(&self, id: SurfaceId) -> Option<(u32, u32, Format)> {
        self.surfaces
            .get(&id)
            .map(|s| (s.width, s.height, s.format))
    }

    /// What `GetDesc` reports of a surface.
    pub fn surface_info(&self, id: SurfaceId) -> Option<SurfaceInfo> {
        self.surfaces.get(&id).map(|s| SurfaceInfo {
            format: s.format,
            width: s.width,
            height: s.height,
            pool: s.pool,
            usage: s.usage,
            container: s.container,
            multisample: s.multisample,
        })
    }

    /// `IDirect3DSurface9::LockRect(rect, flags)`: `rect` (the whole surface when `None`) in
    /// D3D9's memory. A texture level locks its texture's subresource; a GPU surface is read
    /// back (unless the lock discards) and written back at unlock (unless read-only).
    /// Surfaces that are not lockable, and a second lock, are `D3DERR_INVALIDCALL`.
    pub fn lock_surface(
        &mut self,
        id: SurfaceId,
        rect: Option<Rect>,
        flags: LockFlags,
    ) -> Result<Locked, DeviceError> {
        let call = "IDirect3DSurface9::LockRect";
        let surface = self
            .surfaces
            .get(&id)
            .ok_or_else(|| invalid(call, format!("{id:?} is not a surface of this device")))?;
        let (width, height, format) = (surface.width, surface.height, surface.format);
        if let Some((texture, face, level)) = surface.container {
            // The texture checks the rectangle (Windows checks none of a 2D texture's).
            return self.lock_texture(texture, face, level, rect.map(TexelBox::of_rect), flags);
        }
        let region = match rect {
            None => TexelBox::whole(width, height, 1),
            Some(r) => {
                if r.left < 0 || r.top < 0 {
                    return Err(invalid(call, format!("{r:?}")));
                }
                TexelBox::of_rect(r)
            }
        };
        if !region.fits(width, height, 1) {
            return Err(invalid(
                call,
                format!("{region:?} of a {width}x{height} surface"),
            ));
        }
        if !surface.lockable {
            return Err(invalid(call, "the surface is not lockable"));
        }
        if surface.multisample != MultiSample::NONE {
            // Windows maps no multisampled surface (DXVK and wined3d refuse it too).
            return Err(invalid(call, "the surface is multisampled"));
        }
        if surface.lock.is_some() {
            return Err(invalid(call, "the surface is already locked"));
        }
        let staging = match (&surface.memory, flags.contains(LockFlags::DISCARD)) {
            (Some(_), _) => None,
            (None, true) => Some(vec![0; format.image_size(width, height)]),
            (None, false) => Some(self.read_surface(call, id)?),
        };
        let surface = self
            .surfaces
            .get_mut(&id)
            .ok_or_else(|| invalid(call, "internal: the surface went away"))?;
        surface.lock = Some(ActiveLock {
            flags,
            region: None,
            staging,
        });
        let offset = format.offset_of(region.left, region.top, width);
        let memory = match surface.lock.as_mut().and_then(|l| l.staging.as_mut()) {
            Some(staging) => staging,
            None => surface
                .memory
                .as_mut()
                .ok_or_else(|| invalid(call, "internal: a surface without memory"))?,
        };
        Ok(Locked {
            bits: memory.as_mut_ptr().wrapping_add(offset),
            row_pitch: format.row_pitch(width),
            slice_pitch: format.image_size(width, height) as u32,
        })
    }

    /// `IDirect3DSurface9::UnlockRect`; unlocking a surface that is not locked is
    /// `D3DERR_INVALIDCALL`.
    pub fn unlock_surface(&mut self, id: SurfaceId) -> Result<(), DeviceError> {
        let call = "IDirect3DSurface9::UnlockRect";
        let surface = self
            .surfaces
            .get_mut(&id)
            .ok_or_else(|| invalid(call, format!("{id:?} is not a surface of this device")))?;
        if let Some((texture, face, level)) = surface.container {
            return self.unlock_texture(texture, face, level);
        }
        let lock = surface
            .lock
            .take()
            .ok_or_else(|| invalid(call, "the surface is not locked"))?;
        match lock.staging {
            Some(staging) if !lock.flags.contains(LockFlags::READ_ONLY) => {
                self.write_surface(call, id, None, &staging)
            }
            _ => Ok(()),
        }
    }

    /// Whether a surface is locked (itself or, for a texture level, its subresource).
    pub fn surface_locked(&self, id: SurfaceId) -> bool {
        let Some(surface) = self.surfaces.get(&id) else {
            return false;
        };
        match surface.container {
            Some((texture, face, level)) => self.textures.get(&texture).is_some_and(|t| {
                t.subresource("", face, level)
                    .is_ok_and(|sub| t.locks[sub].is_some())
            }),
            None => surface.lock.is_some(),
        }
    }

    /// A surface's texels in D3D9's layout, wherever they live (GPU surfaces are read back:
    /// the draws recorded so far are submitted and waited for).
    pub(crate) fn read_surface(
        &mut self,
        call: &'static str,
        id: SurfaceId,
    ) -> Result<Vec<u8>, DeviceError> {
        let surface = self
            .surfaces
            .get(&id)
            .ok_or_else(|| invalid(call, format!("{id:?} is not a surface of this device")))?;
        if let Some(memory) = &surface.memory {
            return Ok(memory.clone());
        }
        if let Some((texture, face, level)) = surface.container {
            let t = self
                .textures
                .get(&texture)
                .ok_or_else(|| invalid(call, "the surface's texture was released"))?;
            let sub = t.subresource(call, face, level)?;
            if let Some(memory) = t.memory.get(sub) {
                return Ok(memory.to_vec());
            }
        }
        Ok(self.get_render_target_data(id)?.data)
    }

    /// Writes D3D9-layout texels into `rect` of a surface (the whole surface when `None`;
    /// `data` then holds the rect's rows tightly packed), wherever the surface lives. GPU
    /// writes are ordered after the draws recorded so far.
    pub(crate) fn write_surface(
        &mut self,
        call: &'static str,
        id: SurfaceId,
        rect: Option<TexelBox>,
        data: &[u8],
    ) -> Result<(), DeviceError> {
        let surface = self
            .surfaces
            .get(&id)
            .ok_or_else(|| invalid(call, format!("{id:?} is not a surface of this device")))?;
        let (width, height, format) = (surface.width, surface.height, surface.format);
        let region = rect.unwrap_or(TexelBox::whole(width, height, 1));
        // Rows of texels (of 4 x 4 blocks for compressed formats, whose rects are whole
        // blocks).
        let row = format.row_pitch(region.right - region.left) as usize;
        let rows = format.rows(region.bottom - region.top) as usize;
        if data.len() < row * rows {
            return Err(invalid(call, "internal: short texel data"));
        }
        // System-memory copies (own memory, or a texture level's).
        let pitch = format.row_pitch(width) as usize;
        let start = format.offset_of(region.left, region.top, width);
        let copy_rows = |memory: &mut [u8]| {
            for (y, src) in data.chunks(row).take(rows).enumerate() {
                let at = start + y * pitch;
                if let Some(dst) = memory.get_mut(at..at + row) {
                    dst.copy_from_slice(src);
                }
            }
        };
        let container = surface.container;
        if let Some(surface) = self.surfaces.get_mut(&id) {
            if let Some(memory) = surface.memory.as_mut() {
                copy_rows(memory);
                return Ok(());
            }
        }
        if let Some((texture, face, level)) = container {
            if let Some(t) = self.textures.get_mut(&texture) {
                let sub = t.subresource(call, face, level)?;
                if let Some(memory) = t.memory.get_mut(sub) {
                    copy_rows(memory);
                }
                t.version += 1;
            }
        }
        self.flush()?;
        let surface = self
            .surfaces
            .get(&id)
            .ok_or_else(|| invalid(call, "internal: the surface went away"))?;
        let Some(gpu) = &surface.gpu else {
            return Ok(());
        };
        if format.is_depth() {
            return Err(unsupported(call, "writing depth texels from the CPU"));
        }
        let (bw, bh) = gpu.wgpu_format.block_dimensions();
        let (w, h) = (region.right - region.left, region.bottom - region.top);
        let converted = format.to_wgpu_bytes(gpu.wgpu_format, &data[..row * rows], w, h);
        let copy = crate::gpu::TexelCopy {
            level: gpu.level,
            origin: wgpu::Origin3d {
                x: region.left,
                y: region.top,
                z: gpu.layer,
            },
            aspect: wgpu::TextureAspect::All,
            extent: wgpu::Extent3d {
                width: w.next_multiple_of(bw),
                height: h.next_multiple_of(bh),
                depth_or_array_layers: 1,
            },
            row_bytes: super::format::gpu_row_pitch(gpu.wgpu_format, w),
            rows: super::format::gpu_rows(gpu.wgpu_format, h),
        };
        crate::gpu::write_texels(&self.gpu.queue, &gpu.texture, copy, &converted);
        Ok(())
    }

    /// `Release` of a surface the application created (not a texture level, which goes with
    /// its texture). A render target or depth-stencil surface still set is unset.
    pub fn release_surface(&mut self, id: SurfaceId) -> Result<(), DeviceError> {
        let call = "Release";
        let surface = self
            .surfaces
            .get(&id)
            .ok_or_else(|| invalid(call, format!("{id:?} is not a surface of this device")))?;
        if surface.container.is_some() {
            return Err(invalid(call, "a texture's surface goes with its texture"));
        }
        self.surfaces.remove(&id);
        self.unbind_surface(id);
        Ok(())
    }

    /// Unsets a surface wherever the state names it.
    pub(crate) fn unbind_surface(&mut self, id: SurfaceId) {
        for slot in self.state.render_targets.iter_mut() {
            if *slot == Some(id) {
                *slot = None;
            }
        }
        if self.state.depth_stencil == Some(id) {
            self.state.depth_stencil = None;
        }
    }
}
