//! sRGB reads and writes: `D3DSAMP_SRGBTEXTURE` and `D3DRS_SRGBWRITEENABLE`.
//!
//! The formats D3D9 reads and writes as sRGB (`Format::srgb_capable`: the 8-bit RGB(A)
//! formats and DXT1–5) are created with their GPU format's sRGB twin among the texture's
//! view formats, and keep a second view in it:
//! - a sampler whose `D3DSAMP_SRGBTEXTURE` has bit 0 set reads through the sRGB view, so the
//!   GPU decodes each texel to linear before filtering (AMD's reading of the value, which
//!   Wine's `srgbtexture_test` accepts for every value it sets; DXVK does the same);
//! - with `D3DRS_SRGBWRITEENABLE` (any non-zero value) draws and clears into every render
//!   target attach the sRGB view, so the GPU encodes after blending, which happens in linear
//!   (Wine's `clear_test` and `srgbwrite_format_test`; DXVK picks the sRGB view of every
//!   target, clears included).
//!
//! Other formats read and write plainly with either state set, as Windows ignores them there
//! (`srgbwrite_format_test`: R5G6B5 and the float formats keep their plain writes).
//! wgpu's GL backend cannot view a texture in another format (no
//! `DownlevelFlags::VIEW_FORMATS`): there `CheckDeviceFormat` answers no to
//! `QUERY_SRGBREAD`/`SRGBWRITE`, and a draw or clear asking sRGB of a capable format is
//! `Unsupported`, naming the flag, rather than a picture in the wrong space.

use super::error::{unsupported, DeviceError};
use super::format::{srgb_twin, srgb_views, Format};
use super::objects::{GpuImage, GpuTexture, SurfaceObject, TextureObject};
use super::Device;

/// `D3DRS_SRGBWRITEENABLE`.
const SRGBWRITEENABLE: u32 = 194;
/// `D3DSAMP_SRGBTEXTURE`.
const SRGBTEXTURE: u32 = 11;

/// The view formats of a texture of `format` held as `wgpu_format`: its sRGB twin where D3D9
/// reads or writes the format as sRGB and the adapter allows views in another format.
pub(crate) fn view_formats(
    gpu: &crate::gpu::Gpu,
    format: Format,
    wgpu_format: wgpu::TextureFormat,
) -> Vec<wgpu::TextureFormat> {
    match srgb_twin(wgpu_format) {
        Some(twin) if format.srgb_capable() && srgb_views(gpu) => vec![twin],
        _ => Vec::new(),
    }
}

/// `desc`'s view of `texture` in the sRGB twin `view_formats` names, if any.
pub(crate) fn srgb_view(
    texture: &wgpu::Texture,
    view_formats: &[wgpu::TextureFormat],
    desc: &wgpu::TextureViewDescriptor<'_>,
) -> Option<wgpu::TextureView> {
    let twin = *view_formats.first()?;
    Some(texture.create_view(&wgpu::TextureViewDescriptor {
        label: Some("sRGB"),
        format: Some(twin),
        ..desc.clone()
    }))
}

impl Device {
    /// Whether sampler `slot` reads sRGB (bit 0 of `D3DSAMP_SRGBTEXTURE`).
    pub(crate) fn srgb_read(&self, slot: usize) -> bool {
        self.state
            .raw
            .samplers
            .get(slot)
            .is_some_and(|s| s.get(SRGBTEXTURE) & 1 != 0)
    }

    /// Whether draws and clears into render targets write sRGB.
    pub(crate) fn srgb_write(&self) -> bool {
        self.state.raw.render.get(SRGBWRITEENABLE) != 0
    }

    /// The view sampler `slot` reads of `texture`: the sRGB one where the sampler reads sRGB
    /// and the format has it.
    pub(crate) fn sampled_view(
        &self,
        call: &'static str,
        slot: usize,
        texture: &TextureObject,
        gpu: &GpuTexture,
    ) -> Result<wgpu::TextureView, DeviceError> {
        if !self.srgb_read(slot) || !texture.format.srgb_capable() {
            return Ok(gpu.view.clone());
        }
        gpu.srgb_view.clone().ok_or_else(|| {
            no_views(
                call,
                format!("D3DSAMP_SRGBTEXTURE on sampler {slot}"),
                texture.format,
            )
        })
    }

    /// The view and format a render target is attached with: the sRGB ones with
    /// `D3DRS_SRGBWRITEENABLE` where the format has them.
    pub(crate) fn target_view(
        &self,
        call: &'static str,
        surface: &SurfaceObject,
        gpu: &GpuImage,
    ) -> Result<(wgpu::TextureView, wgpu::TextureFormat), DeviceError> {
        if !self.srgb_write() || !surface.format.srgb_capable() {
            return Ok((gpu.view.clone(), gpu.wgpu_format));
        }
        match (&gpu.srgb_view, srgb_twin(gpu.wgpu_format)) {
            (Some(view), Some(twin)) => Ok((view.clone(), twin)),
            _ => Err(no_views(
                call,
                "D3DRS_SRGBWRITEENABLE".to_string(),
                surface.format,
            )),
        }
    }
}

fn no_views(call: &'static str, what: String, format: Format) -> DeviceError {
    unsupported(
        call,
        format!(
            "{what} with a {format:?} texture (sRGB views need DownlevelFlags::VIEW_FORMATS, which this adapter lacks)"
        ),
    )
}
