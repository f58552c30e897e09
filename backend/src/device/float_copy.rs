//! The float copy a float32 texture held as bits is sampled through (see `float_bits`): the
//! same bytes copied through a buffer into the float format, on the pending encoder at bind
//! time, again at every bind of a render-target texture and of any other whose version moved.

use std::collections::HashMap;

use super::error::{invalid, DeviceError};
use super::float_bits::float_of_bits;
use super::objects::TextureId;
use super::Device;

/// The float copy a float32 texture held as bits is sampled through.
pub(crate) struct FloatCopy {
    /// The texture's version it was copied at.
    version: u64,
    view: wgpu::TextureView,
}

/// Float copies by texture.
pub(crate) type FloatCopies = HashMap<TextureId, FloatCopy>;

impl Device {
    /// The view shaders sample float32 texture `id`, held as bits, through: its float copy,
    /// brought up to date on the pending encoder.
    pub(crate) fn float_copy_view(
        &mut self,
        call: &'static str,
        id: TextureId,
    ) -> Result<wgpu::TextureView, DeviceError> {
        let source = self
            .textures
            .get(&id)
            .ok_or_else(|| invalid(call, format!("{id:?} is not a texture of this device")))?;
        let format = float_of_bits(source.wgpu_format)
            .ok_or_else(|| invalid(call, "internal: a float copy of a texture not held as bits"))?;
        let current = self
            .float_copies
            .get(&id)
            .is_some_and(|c| c.version == source.version && !source.render_target());
        if current {
            return self
                .float_copies
                .get(&id)
                .map(|c| c.view.clone())
                .ok_or_else(|| invalid(call, "internal: no float copy"));
        }
        let source_gpu = source
            .gpu
            .as_ref()
            .ok_or_else(|| invalid(call, "a texture with no GPU side"))?;
        let extent = source.level_extent(0);
        let (dimension, view_dimension) = source.kind.dimensions();
        // The copy's texture is kept with its view (a view keeps its texture alive).
        let view = match self.float_copies.remove(&id) {
            Some(copy) => copy.view,
            None => {
                let texture = self.gpu.device.create_texture(&wgpu::TextureDescriptor {
                    label: Some("float32 bits as floats"),
                    size: extent,
                    mip_level_count: source.levels,
                    sample_count: 1,
                    dimension,
                    format,
                    usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
                    view_formats: &[],
                });
                texture.create_view(&wgpu::TextureViewDescriptor {
                    dimension: Some(view_dimension),
                    ..Default::default()
                })
            }
        };
        let levels: Vec<wgpu::Extent3d> = (0..source.levels)
            .map(|level| source.level_extent(level))
            .collect();
        let encoder =
            super::draw::pending_encoder(&mut self.open, &mut self.encoder, &self.gpu.device);
        super::volume_slice::copy_levels_through_buffer(
            &self.gpu.device,
            encoder,
            &source_gpu.texture,
            view.texture(),
            &levels,
        );
        self.float_copies.insert(
            id,
            FloatCopy {
                version: source.version,
                view: view.clone(),
            },
        );
        Ok(view)
    }
}
