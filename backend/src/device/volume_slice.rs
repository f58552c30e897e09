//! A 2D texture set on a sampler the pixel shader declares `dcl_volume`.
//!
//! D3D9 leaves a texture of another type than the sampler's declaration undefined; Windows
//! drivers and Wine read the 2D texels as if the texture were a volume of one slice
//! (Wine's `test_mismatched_sample_types` expects the 2D texture's colour from `texld` of a
//! `dcl_volume` sampler). WebGPU binds only the declared view dimension, so the device binds
//! a one-slice volume copy of the 2D texture instead: made at bind time on the pending command
//! encoder (so it sees every draw recorded before it), kept per texture, and copied again when
//! the texture's contents changed (`update_texture` bumps its version; a render-target
//! texture's contents change with every draw into it, so it is copied at every bind).
//! The other mismatches (a volume or cube on a `dcl_2d` sampler, ...) stay refused: no copy
//! gives what drivers sample there.

use super::error::{invalid, DeviceError};
use super::objects::TextureId;
use super::Device;
use crate::device::TextureKind;

/// The one-slice volume standing in for a 2D texture.
pub(crate) struct VolumeSlice {
    /// The 2D texture's version it was copied at.
    version: u64,
    texture: wgpu::Texture,
    view: wgpu::TextureView,
}

impl Device {
    /// The view a `dcl_volume` sampler reads for 2D texture `id`: its one-slice volume copy,
    /// brought up to date on the pending encoder.
    pub(crate) fn volume_slice_view(
        &mut self,
        call: &'static str,
        id: TextureId,
    ) -> Result<wgpu::TextureView, DeviceError> {
        self.upload_texture(id);
        let source = self
            .textures
            .get(&id)
            .ok_or_else(|| invalid(call, format!("{id:?} is not a texture of this device")))?;
        if source.kind != TextureKind::TwoD {
            return Err(invalid(
                call,
                "internal: a volume slice of a non-2D texture",
            ));
        }
        let current = self
            .volume_slices
            .get(&id)
            .is_some_and(|s| s.version == source.version && !source.render_target());
        let source_gpu = source
            .gpu
            .as_ref()
            .ok_or_else(|| invalid(call, "a texture with no GPU side"))?;
        if !current {
            let texture = match self.volume_slices.remove(&id) {
                Some(slice) => slice.texture,
                None => self.gpu.device.create_texture(&wgpu::TextureDescriptor {
                    label: Some("2D texture as a one-slice volume"),
                    size: wgpu::Extent3d {
                        width: source.width,
                        height: source.height,
                        depth_or_array_layers: 1,
                    },
                    mip_level_count: source.levels,
                    sample_count: 1,
                    dimension: wgpu::TextureDimension::D3,
                    // Float32 bits are sampled as floats (`float_bits`).
                    format: super::float_bits::sampled_format(source.wgpu_format),
                    usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
                    view_formats: &[],
                }),
            };
            // Through a buffer: texture-to-texture copies need equal dimensions.
            let levels: Vec<wgpu::Extent3d> = (0..source.levels)
                .map(|level| source.level_extent(level))
                .collect();
            let encoder =
                super::draw::pending_encoder(&mut self.open, &mut self.encoder, &self.gpu.device);
            copy_levels_through_buffer(
                &self.gpu.device,
                encoder,
                &source_gpu.texture,
                &texture,
                &levels,
            );
            let view = texture.create_view(&wgpu::TextureViewDescriptor {
                dimension: Some(wgpu::TextureViewDimension::D3),
                ..Default::default()
            });
            self.volume_slices.insert(
                id,
                VolumeSlice {
                    version: source.version,
                    texture,
                    view,
                },
            );
        }
        self.volume_slices
            .get(&id)
            .map(|s| s.view.clone())
            .ok_or_else(|| invalid(call, "internal: no volume slice"))
    }
}

/// Records copies of every level of `source` into `target` (levels of the sizes `levels`
/// gives: width, height and layers, each layer copied on its own) through a buffer:
/// texture-to-texture copies need equal formats and dimensions, copies through a buffer only
/// equal texel sizes (a 2D texture into a one-slice volume, float32 bits into floats).
pub(crate) fn copy_levels_through_buffer(
    device: &wgpu::Device,
    encoder: &mut wgpu::CommandEncoder,
    source: &wgpu::Texture,
    target: &wgpu::Texture,
    levels: &[wgpu::Extent3d],
) {
    let texel = source.format().block_copy_size(None).unwrap_or(4);
    let align = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    let row = |e: &wgpu::Extent3d| (e.width * texel).div_ceil(align) * align;
    let size = levels
        .iter()
        .map(|e| u64::from(row(e)) * u64::from(e.height))
        .max()
        .unwrap_or(0);
    if size == 0 {
        return;
    }
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("copy through a buffer"),
        size,
        usage: wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    for (level, extent) in (0u32..).zip(levels) {
        let layout = wgpu::TexelCopyBufferLayout {
            offset: 0,
            bytes_per_row: Some(row(extent)),
            rows_per_image: Some(extent.height),
        };
        let one_layer = wgpu::Extent3d {
            depth_or_array_layers: 1,
            ..*extent
        };
        for layer in 0..extent.depth_or_array_layers {
            let at = |texture| wgpu::TexelCopyTextureInfo {
                texture,
                mip_level: level,
                origin: wgpu::Origin3d {
                    x: 0,
                    y: 0,
                    z: layer,
                },
                aspect: wgpu::TextureAspect::All,
            };
            encoder.copy_texture_to_buffer(
                at(source),
                wgpu::TexelCopyBufferInfo {
                    buffer: &buffer,
                    layout,
                },
                one_layer,
            );
            encoder.copy_buffer_to_texture(
                wgpu::TexelCopyBufferInfo {
                    buffer: &buffer,
                    layout,
                },
                at(target),
                one_layer,
            );
        }
    }
}
