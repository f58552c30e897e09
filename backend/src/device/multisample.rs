//! Multisampling: which `D3DMULTISAMPLE_TYPE`s a format has on this adapter and how many
//! samples back each, the sample mask a draw uses, and resolving a multisampled colour
//! surface into a single-sampled image (what `StretchRect`, `Present` and the device's own
//! read-backs see of it).
//!
//! A D3D9 type asks for at least that many samples: it is served by the adapter's smallest
//! sample count at or above it (`D3DMULTISAMPLE_2_SAMPLES` by 4 samples on lavapipe and
//! llvmpipe, which have only 1 and 4), as GL allocates at least the samples asked
//! (`glRenderbufferStorageMultisample`) and as wined3d's GL path offered every power of two up
//! to `GL_MAX_SAMPLES`. `D3DRS_MULTISAMPLEMASK` bit `i` then covers the real samples
//! `i * n / k .. (i + 1) * n / k`, so a mask keeps the fraction of coverage D3D9 gives it.
//! `D3DMULTISAMPLE_NONMASKABLE` has one quality level per sample count above 1 (as wined3d),
//! its mask ignored. See `docs/decisions.md` ("Multisampling").

use super::error::{invalid, unsupported, DeviceError};
use super::format::Format;
use super::objects::{GpuImage, MultiSample, SurfaceId, SwapChainId, TexelBox};
use super::state::{FOURCC_A2M1, FOURCC_ATOC};
use super::Device;
use crate::gpu::{pass, Target};

/// `D3DMULTISAMPLE_NONMASKABLE`.
pub const NONMASKABLE: u32 = 1;

/// `D3DRS_MULTISAMPLEMASK`.
const MULTISAMPLEMASK: u32 = 162;
/// `D3DRS_ALPHATESTENABLE`, `D3DRS_POINTSIZE` and `D3DRS_ADAPTIVETESS_Y`: the render states
/// the vendors' alpha-to-coverage hacks are set through.
const ALPHATESTENABLE: u32 = 15;
const POINTSIZE: u32 = 154;
const ADAPTIVETESS_Y: u32 = 181;

/// The sample counts above 1 the device draws with whatever the format: those its usual
/// colour and depth formats all have (what DXVK takes, colour and depth sample counts
/// together), so that a colour and a depth-stencil surface of one D3D9 type get one count.
fn device_counts(gpu: &crate::gpu::Gpu) -> Vec<u32> {
    use wgpu::TextureFormat as W;
    let formats = [
        W::Bgra8Unorm,
        W::Rgba8Unorm,
        W::Depth32Float,
        W::Depth24PlusStencil8,
    ];
    let mut counts: Vec<u32> = gpu.sample_counts(W::Bgra8Unorm);
    for f in formats {
        let theirs = gpu.sample_counts(f);
        counts.retain(|n| theirs.contains(n));
    }
    counts.retain(|&n| n > 1);
    counts
}

impl Format {
    /// The wgpu format a surface of this format is drawn in.
    fn drawn_wgpu(self, gpu: &crate::gpu::Gpu) -> wgpu::TextureFormat {
        let features = gpu.features();
        let target = self.wgpu(
            true,
            features.contains(wgpu::Features::DEPTH32FLOAT_STENCIL8),
        );
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
        super::float_bits::held_format(gpu, target, usage, false)
    }

    /// The sample counts a surface of this format can have on `gpu` (above 1): the device's
    /// that the format has, and for colour formats can resolve (no multisampled float32 held
    /// as bits, compressed, YUV or lockable depth formats).
    fn multisample_counts(self, gpu: &crate::gpu::Gpu) -> Vec<u32> {
        let support = self.support(gpu);
        let lockable_depth = matches!(self, Format::D16Lockable | Format::D32FLockable);
        if self == Format::Null {
            return device_counts(gpu);
        }
        if !(support.render_target || support.depth_stencil)
            || lockable_depth
            || self.is_compressed()
            || self.is_yuv()
        {
            return Vec::new();
        }
        let wgpu_format = self.drawn_wgpu(gpu);
        if !self.is_depth() && !gpu.resolves(wgpu_format) {
            return Vec::new();
        }
        let theirs = gpu.sample_counts(wgpu_format);
        let mut counts = device_counts(gpu);
        counts.retain(|n| theirs.contains(n));
        counts
    }

    /// `CheckDeviceMultiSampleType(format, kind)`: the quality levels of `kind` for surfaces
    /// of this format (1 for 2 to 16 samples, one per sample count for `NONMASKABLE`), or
    /// `None` where the adapter has no such multisampling (`D3DERR_NOTAVAILABLE`).
    /// `D3DMULTISAMPLE_NONE` has one level for every format a surface can have.
    pub fn multisample_quality_levels(self, gpu: &crate::gpu::Gpu, kind: u32) -> Option<u32> {
        let counts = self.multisample_counts(gpu);
        match kind {
            0 => Some(1),
            NONMASKABLE => (!counts.is_empty()).then_some(counts.len() as u32),
            2..=16 => counts.iter().any(|&n| n >= kind).then_some(1),
            _ => None,
        }
    }

    /// The samples a surface of this format with `multisample` has (1 without); `None`
    /// where the adapter has no such multisampling or the quality is past its levels.
    pub(crate) fn sample_count(
        self,
        gpu: &crate::gpu::Gpu,
        multisample: MultiSample,
    ) -> Option<u32> {
        let counts = self.multisample_counts(gpu);
        match multisample.kind {
            0 => Some(1),
            NONMASKABLE => counts.get(multisample.quality as usize).copied(),
            k @ 2..=16 if multisample.quality == 0 => counts.into_iter().find(|&n| n >= k),
            _ => None,
        }
    }
}

/// The real samples `D3DRS_MULTISAMPLEMASK` `mask` enables on a target of `kind` backed by
/// `samples` samples: D3D9 sample `i` is samples `i * samples / kind` up to
/// `(i + 1) * samples / kind`. `NONMASKABLE` and single-sampled targets ignore the mask.
pub(crate) fn real_mask(mask: u32, kind: u32, samples: u32) -> u64 {
    if samples <= 1 || kind < 2 {
        return !0;
    }
    let mut real = 0u64;
    for i in 0..kind.min(32) {
        if mask & (1 << i) != 0 {
            for s in i * samples / kind..(i + 1) * samples / kind {
                real |= 1 << s;
            }
        }
    }
    // The samples past the target's stay on (wgpu compares the whole mask).
    real | (!0u64 << samples)
}

impl Device {
    /// wgpu's GL backend does not apply a pipeline's sample mask: there a draw into a
    /// multisampled target whose `D3DRS_MULTISAMPLEMASK` leaves samples out is `Unsupported`
    /// rather than drawn into every sample.
    pub(crate) fn check_multisample_mask(
        &self,
        call: &'static str,
        kind: u32,
        samples: u32,
    ) -> Result<(), DeviceError> {
        let mask = self.state.raw.render.get(MULTISAMPLEMASK);
        let all = !0u64;
        if samples > 1
            && self.gpu.adapter_info().backend == wgpu::Backend::Gl
            && real_mask(mask, kind, samples) != all
        {
            return Err(super::error::unsupported(
                call,
                format!("D3DRS_MULTISAMPLEMASK {mask:#x} on wgpu's GL backend (no sample mask)"),
            ));
        }
        Ok(())
    }

    /// The multisample state of a draw into targets of `kind` and `samples`
    /// (`D3DRS_MULTISAMPLEMASK`, and alpha to coverage where a vendor hack asks for it:
    /// `alpha_to_coverage`).
    pub(crate) fn multisample_state(&self, kind: u32, samples: u32) -> wgpu::MultisampleState {
        let mask = self.state.raw.render.get(MULTISAMPLEMASK);
        wgpu::MultisampleState {
            count: samples,
            mask: real_mask(mask, kind, samples),
            alpha_to_coverage_enabled: samples > 1 && self.alpha_to_coverage(),
        }
    }

    /// Whether draws turn their alpha into sample coverage, as DXVK decides it
    /// (`UpdateAlphaToCoverangeAndAlphaTest`): NVIDIA's hack (`D3DRS_ADAPTIVETESS_Y` =
    /// `ATOC` with `D3DRS_ALPHATESTENABLE` on) or AMD's (`D3DRS_POINTSIZE` = `A2M1`) is set,
    /// and render target 0 is multisampled (alpha to coverage needs samples). Both hacks are
    /// honoured whatever the adapter's vendor. See `docs/decisions.md` ("Alpha to coverage").
    pub(crate) fn alpha_to_coverage(&self) -> bool {
        let raw = &self.state.raw.render;
        let nvidia = raw.get(ADAPTIVETESS_Y) == FOURCC_ATOC && raw.get(ALPHATESTENABLE) != 0;
        let amd = raw.get(POINTSIZE) == FOURCC_A2M1;
        (nvidia || amd)
            && self.state.render_targets[0].is_some_and(|id| self.surface_samples(id) > 1)
    }

    /// Whether draws run the alpha test: `D3DRS_ALPHATESTENABLE`, except while alpha to
    /// coverage is on, which replaces it (DXVK turns the alpha test off then).
    pub(crate) fn alpha_test_enabled(&self) -> bool {
        self.state.render.alpha_test && !self.alpha_to_coverage()
    }

    /// The samples of a surface's GPU image (1 for system-memory surfaces).
    pub(crate) fn surface_samples(&self, id: SurfaceId) -> u32 {
        self.surfaces
            .get(&id)
            .and_then(|s| s.gpu.as_ref())
            .map_or(1, |g| g.texture.sample_count())
    }

    /// A multisampled colour surface resolved into a new single-sampled image of its format
    /// (recorded on the pending encoder); `None` for a single-sampled surface, which is
    /// read as it is. Depth-stencil surfaces are not resolved here (`depth_pass` reads
    /// their first sample).
    pub(crate) fn resolved_image(
        &mut self,
        call: &'static str,
        id: SurfaceId,
    ) -> Result<Option<GpuImage>, DeviceError> {
        let surface = self
            .surfaces
            .get(&id)
            .ok_or_else(|| invalid(call, format!("{id:?} is not a surface of this device")))?;
        let Some(image) = surface.gpu.clone() else {
            return Ok(None);
        };
        if image.texture.sample_count() == 1 {
            return Ok(None);
        }
        if surface.format.is_depth() {
            return Err(unsupported(
                call,
                "resolving a multisampled depth-stencil surface",
            ));
        }
        let (width, height) = (surface.width, surface.height);
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT
            | wgpu::TextureUsages::TEXTURE_BINDING
            | wgpu::TextureUsages::COPY_SRC;
        let texture = Target::new("resolved", image.wgpu_format, (width, height), usage)
            .create(&self.gpu.device);
        let view = texture.create_view(&Default::default());
        self.resolve_into(&image.view, &view);
        Ok(Some(GpuImage {
            texture,
            view,
            srgb_view: None,
            wgpu_format: image.wgpu_format,
            level: 0,
            layer: 0,
        }))
    }

    /// `Present` of a single back buffer: its texels into the front buffer (`back`
    /// resolved where it is multisampled).
    pub(crate) fn copy_to_front(
        &mut self,
        call: &'static str,
        back: SurfaceId,
        front: SurfaceId,
    ) -> Result<(), DeviceError> {
        if self.surface_samples(back) > 1 {
            return self.resolve_surface(call, back, front);
        }
        let (width, height, _) = self
            .surface_desc(back)
            .ok_or_else(|| invalid(call, "the back buffer was released"))?;
        let whole = TexelBox::whole(width, height, 1);
        self.copy_image(call, back, front, whole, whole)
    }

    /// Shows a flipped front buffer in the chain's window; a multisampled one (the back
    /// buffers' images flip through it) is shown resolved.
    pub(crate) fn show_front(
        &mut self,
        chain: Option<SwapChainId>,
        front: SurfaceId,
    ) -> Result<(), DeviceError> {
        let windowed = match chain {
            None => self.implicit.window.is_some(),
            Some(id) => self.additional.get(&id).is_some_and(|c| c.window.is_some()),
        };
        if !windowed || self.surface_samples(front) == 1 {
            return self.window_show(chain, front);
        }
        let call = "Present";
        let (width, height, format) = self
            .surface_desc(front)
            .ok_or_else(|| invalid(call, "the front buffer was released"))?;
        let shown = self.create_render_target(width, height, format)?;
        let result = self
            .resolve_surface(call, front, shown)
            .and_then(|()| self.flush())
            .and_then(|()| self.window_show(chain, shown));
        self.release_surface(shown)?;
        result
    }

    /// Records the resolve of multisampled `source` into single-sampled `target` (a view of
    /// the same size and format): an empty pass that keeps the samples and resolves them.
    pub(crate) fn resolve_into(&mut self, source: &wgpu::TextureView, target: &wgpu::TextureView) {
        let encoder = self.encoder();
        let attachment = wgpu::RenderPassColorAttachment {
            resolve_target: Some(target),
            ..pass::color_attachment(source, wgpu::LoadOp::Load)
        };
        drop(pass::begin(
            encoder,
            "multisample resolve",
            &[Some(attachment)],
            None,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::real_mask;

    #[test]
    fn a_mask_keeps_its_fraction_of_the_real_samples() {
        // D3D9's 2 samples on 4: bit 0 is samples 0 and 1, bit 1 samples 2 and 3.
        assert_eq!(real_mask(0x5, 2, 4) & 0xf, 0x3);
        assert_eq!(real_mask(0x2, 2, 4) & 0xf, 0xc);
        assert_eq!(real_mask(0x0, 2, 4) & 0xf, 0x0);
        assert_eq!(real_mask(0xffff_ffff, 4, 4) & 0xf, 0xf);
        assert_eq!(real_mask(0x5, 4, 4) & 0xf, 0x5);
        assert_eq!(real_mask(0x0, super::NONMASKABLE, 4), !0);
        assert_eq!(real_mask(0x0, 0, 1), !0);
    }
}
