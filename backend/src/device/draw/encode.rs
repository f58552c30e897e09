//! The draw's render pass on the pending command encoder: a recipe recorded as one pass
//! (through stand-ins where the depth-stencil surface is larger), counting its samples in an
//! occlusion slot while a D3D9 occlusion query is open (`query`), and the versions a memo of
//! it is kept at.

use super::super::Device;
use super::{IndexSource, PassRecipe};

impl Device {
    /// The versions of everything a draw reads (see `versioned`).
    pub(super) fn versions(&self) -> [u64; 8] {
        [
            self.state.version(),
            self.declarations.version(),
            self.vertex_shaders.version(),
            self.pixel_shaders.version(),
            self.vertex_buffers.version(),
            self.index_buffers.version(),
            self.textures.version(),
            self.surfaces.version(),
        ]
    }

    /// Records one draw's render pass on the pending encoder.
    pub(super) fn encode(&mut self, recipe: &PassRecipe) {
        let encoder = self
            .encoder
            .get_or_insert_with(|| self.gpu.device.create_command_encoder(&Default::default()));
        for standin in &recipe.standins {
            standin.copy_in(encoder);
        }
        self.encode_pass(recipe);
        if let Some(encoder) = self.encoder.as_mut() {
            for standin in &recipe.standins {
                standin.copy_out(encoder);
            }
        }
    }

    fn encode_pass(&mut self, recipe: &PassRecipe) {
        // Taken at record time, not kept in the recipe: a memo's repeat counts too.
        let occlusion = self.occlusion_slot();
        let attachments = super::super::pass::color_attachments(&recipe.color_views, &[]);
        let depth_attachment = recipe.depth.as_ref().map(|d| {
            super::super::pass::depth_attachment(d, wgpu::LoadOp::Load, wgpu::LoadOp::Load)
        });
        let encoder = self
            .encoder
            .get_or_insert_with(|| self.gpu.device.create_command_encoder(&Default::default()));
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some(recipe.label),
            color_attachments: &attachments,
            depth_stencil_attachment: depth_attachment,
            timestamp_writes: None,
            occlusion_query_set: occlusion.as_ref().map(|(set, _)| set),
            multiview_mask: None,
        });
        if let Some((_, slot)) = occlusion {
            pass.begin_occlusion_query(slot);
        }
        pass.set_pipeline(&recipe.pipeline.pipeline);
        for (index, group) in (0u32..).zip(&recipe.groups) {
            if let Some(group) = group {
                let offsets = recipe.offsets.get(index as usize).copied();
                pass.set_bind_group(index, group, offsets.unwrap_or_default().as_slice());
            }
        }
        for (slot, (buffer, offset)) in (0u32..).zip(&recipe.vertex_buffers) {
            pass.set_vertex_buffer(slot, buffer.slice(*offset..));
        }
        if let Some([x, y, w, h, min_z, max_z]) = recipe.viewport {
            pass.set_viewport(x, y, w, h, min_z, max_z);
        }
        if let Some((x, y, w, h)) = recipe.scissor {
            pass.set_scissor_rect(x, y, w, h);
        }
        if let Some(colour) = recipe.blend_constant {
            pass.set_blend_constant(colour);
        }
        if recipe.stencil_reference != 0 {
            pass.set_stencil_reference(recipe.stencil_reference);
        }
        let instances = recipe.instances.clone();
        let range = recipe.index_range.clone();
        match &recipe.index {
            None => {
                let first = u32::try_from(recipe.base_vertex).unwrap_or(0);
                pass.draw(first..first.saturating_add(range.end), instances);
            }
            Some(IndexSource::Bound(buffer, format)) => {
                pass.set_index_buffer(buffer.slice(..), *format);
                pass.draw_indexed(range, recipe.base_vertex, instances);
            }
            Some(IndexSource::Generated(buffer)) => {
                pass.set_index_buffer(buffer.slice(..), wgpu::IndexFormat::Uint32);
                pass.draw_indexed(range, recipe.base_vertex, instances);
            }
        }
        if occlusion.is_some() {
            pass.end_occlusion_query();
        }
    }
}
