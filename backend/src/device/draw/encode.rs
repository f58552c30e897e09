//! Draws on the pending command encoder: a run of draws into the same targets records into
//! one render pass, each draw setting only the pass state that differs from the draw before
//! (a pass begun per draw costs wgpu most of a draw's time at submit); a draw through
//! stand-ins (a larger depth-stencil surface) has a pass of its own. A draw counts its
//! samples in an occlusion slot while a D3D9 occlusion query is open (`query`). Anything
//! else recorded on the encoder ends the open pass first ([`Device::encoder`]). Also the
//! versions a memo of a draw is kept at.

use super::super::Device;
use super::ring::Offsets;
use super::{IndexSource, PassRecipe};
use crate::gpu::pass;
use d3d9_translator::lift::interface::VS_CONSTANTS_GROUP;

/// The render pass a run of draws records into, and the state its draws have set in it.
pub(crate) struct OpenPass {
    pass: wgpu::RenderPass<'static>,
    color_views: Vec<Option<wgpu::TextureView>>,
    depth: Option<wgpu::TextureView>,
    occlusion: Option<wgpu::QuerySet>,
    pipeline: Option<wgpu::RenderPipeline>,
    groups: [Option<(wgpu::BindGroup, Offsets)>; 4],
    vertex_buffers: Vec<Option<(wgpu::Buffer, u64)>>,
    index: Option<(wgpu::Buffer, wgpu::IndexFormat)>,
    /// `None` until a draw sets it: wgpu's GL backend begins a pass with the viewport
    /// and scissor rectangle the last pass left, not the whole target.
    viewport: Option<[f32; 6]>,
    scissor: Option<(u32, u32, u32, u32)>,
    /// `None` until a draw sets it (wgpu refuses a draw whose blending reads an unset one).
    blend_constant: Option<wgpu::Color>,
    stencil_reference: u32,
    /// The recipe the pass recorded last (`PassRecipe::serial`).
    last: Option<u64>,
}

/// A pass's viewport where none is set: the whole target, depth 0..1.
fn whole_viewport(width: u32, height: u32) -> [f32; 6] {
    [0.0, 0.0, width as f32, height as f32, 0.0, 1.0]
}

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

    /// Records one draw on the pending encoder: into the open render pass where it has the
    /// same targets and occlusion query set, else into a new pass left open for the next.
    pub(super) fn encode(&mut self, recipe: &PassRecipe) {
        // The recipe the open pass recorded last, again (a memoised draw): only its groups
        // may differ. Not while an occlusion query counts (each draw has its slot).
        if !self.occlusion_counting() {
            if let Some(open) = self.open.as_mut().filter(|o| o.last == Some(recipe.serial)) {
                set_groups(open, recipe, recipe.changed);
                draw(open, recipe);
                return;
            }
        }
        // Stand-ins are copied in before their pass and out after it: a pass of its own.
        let standins = !recipe.standins.is_empty();
        if standins {
            let encoder = self.encoder();
            for standin in &recipe.standins {
                standin.copy_in(encoder);
            }
        }
        // Taken at record time, not kept in the recipe: a memo's repeat counts too.
        let occlusion = self.occlusion_slot();
        let set = occlusion.as_ref().map(|(set, _)| set);
        let continues = !standins
            && self.open.as_ref().is_some_and(|open| {
                open.color_views == recipe.color_views
                    && open.depth.as_ref() == recipe.depth.as_ref().map(|(view, _)| view)
                    && open.occlusion.as_ref() == set
            });
        if !continues {
            self.open_pass(recipe, set.cloned());
        }
        if let (Some(open), Some((_, slot))) = (self.open.as_mut(), &occlusion) {
            open.pass.begin_occlusion_query(*slot);
        }
        self.encode_draw(recipe);
        if let (Some(open), Some(_)) = (self.open.as_mut(), &occlusion) {
            open.pass.end_occlusion_query();
        }
        if standins {
            let encoder = self.encoder();
            for standin in &recipe.standins {
                standin.copy_out(encoder);
            }
        }
    }

    /// Ends the open pass and begins one into `recipe`'s targets (loading them).
    fn open_pass(&mut self, recipe: &PassRecipe, occlusion: Option<wgpu::QuerySet>) {
        let attachments = pass::color_attachments(&recipe.color_views, &[]);
        let depth_attachment = recipe
            .depth
            .as_ref()
            .map(|d| pass::depth_attachment(d, wgpu::LoadOp::Load, wgpu::LoadOp::Load));
        let pass = self
            .encoder()
            .begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some(recipe.label),
                color_attachments: &attachments,
                depth_stencil_attachment: depth_attachment,
                timestamp_writes: None,
                occlusion_query_set: occlusion.as_ref(),
                multiview_mask: None,
            })
            .forget_lifetime();
        self.open = Some(OpenPass {
            pass,
            color_views: recipe.color_views.clone(),
            depth: recipe.depth.as_ref().map(|(view, _)| view.clone()),
            occlusion,
            pipeline: None,
            groups: Default::default(),
            vertex_buffers: Vec::new(),
            index: None,
            viewport: None,
            scissor: None,
            blend_constant: None,
            stencil_reference: 0,
            last: None,
        });
    }

    /// Records `recipe`'s draw into the open pass, setting only the state that differs from
    /// what the pass's earlier draws set.
    fn encode_draw(&mut self, recipe: &PassRecipe) {
        let Some(open) = self.open.as_mut() else {
            return;
        };
        let pass = &mut open.pass;
        let pipeline = &recipe.pipeline.pipeline;
        if open.pipeline.as_ref() != Some(pipeline) {
            pass.set_pipeline(pipeline);
            open.pipeline = Some(pipeline.clone());
            // Set again after a pipeline change: wgpu's GL backend places a group's
            // textures by the pipeline layout of the `set_bind_group` call, and keeps a
            // compatible group where it was.
            open.groups = Default::default();
            open.vertex_buffers.clear();
        }
        set_groups(open, recipe, u8::MAX);
        let pass = &mut open.pass;
        for (slot, (buffer, offset)) in (0u32..).zip(&recipe.vertex_buffers) {
            let at = slot as usize;
            if open.vertex_buffers.len() <= at {
                open.vertex_buffers.resize(at + 1, None);
            }
            if open.vertex_buffers[at].as_ref().map(|(b, o)| (b, *o)) != Some((buffer, *offset)) {
                pass.set_vertex_buffer(slot, buffer.slice(*offset..));
                open.vertex_buffers[at] = Some((buffer.clone(), *offset));
            }
        }
        let (width, height) = recipe.size;
        let viewport = recipe.viewport.unwrap_or(whole_viewport(width, height));
        if open.viewport != Some(viewport) {
            let [x, y, w, h, min_z, max_z] = viewport;
            pass.set_viewport(x, y, w, h, min_z, max_z);
            open.viewport = Some(viewport);
        }
        let scissor = recipe.scissor.unwrap_or((0, 0, width, height));
        if open.scissor != Some(scissor) {
            pass.set_scissor_rect(scissor.0, scissor.1, scissor.2, scissor.3);
            open.scissor = Some(scissor);
        }
        if let Some(colour) = recipe.blend_constant {
            if open.blend_constant != Some(colour) {
                pass.set_blend_constant(colour);
                open.blend_constant = Some(colour);
            }
        }
        if open.stencil_reference != recipe.stencil_reference {
            pass.set_stencil_reference(recipe.stencil_reference);
            open.stencil_reference = recipe.stencil_reference;
        }
        if let Some((buffer, format)) = match &recipe.index {
            None => None,
            Some(IndexSource::Bound(buffer, format)) => Some((buffer, *format)),
            Some(IndexSource::Generated(buffer)) => Some((buffer, wgpu::IndexFormat::Uint32)),
        } {
            if open.index.as_ref().map(|(b, f)| (b, *f)) != Some((buffer, format)) {
                pass.set_index_buffer(buffer.slice(..), format);
                open.index = Some((buffer.clone(), format));
            }
        }
        open.last = Some(recipe.serial);
        draw(open, recipe);
    }

    /// The pending command encoder, with the open render pass ended: whatever is recorded
    /// next comes after the draws recorded so far.
    pub(crate) fn encoder(&mut self) -> &mut wgpu::CommandEncoder {
        pending_encoder(&mut self.open, &mut self.encoder, &self.gpu.device)
    }
}

/// [`Device::encoder`] from the device's fields, for callers that hold other fields.
pub(crate) fn pending_encoder<'e>(
    open: &mut Option<OpenPass>,
    encoder: &'e mut Option<wgpu::CommandEncoder>,
    device: &wgpu::Device,
) -> &'e mut wgpu::CommandEncoder {
    *open = None;
    encoder.get_or_insert_with(|| device.create_command_encoder(&Default::default()))
}

/// Sets `recipe`'s groups among `which` (bit n: group n) that differ from those the pass
/// has bound.
fn set_groups(open: &mut OpenPass, recipe: &PassRecipe, which: u8) {
    for (index, group) in (0u32..).zip(&recipe.groups) {
        if which & (1 << index) == 0 {
            continue;
        }
        let Some(group) = group else { continue };
        let offsets = recipe
            .offsets
            .get(index as usize)
            .copied()
            .unwrap_or_default();
        let Some(bound) = open.groups.get_mut(index as usize) else {
            continue;
        };
        let same = bound
            .as_ref()
            .is_some_and(|(g, o)| g == group && o.binds_as(&offsets));
        if !same {
            open.pass.set_bind_group(index, group, offsets.as_slice());
            *bound = Some((group.clone(), offsets));
        }
    }
}

/// Records `recipe`'s draw call (its index buffer set). A vertex stage reading `c#` from a
/// window draws its instances from the window's register holding `c#0` (`ring`).
fn draw(open: &mut OpenPass, recipe: &PassRecipe) {
    let first = recipe.offsets[VS_CONSTANTS_GROUP as usize].first_instance;
    let instances = recipe.instances.start + first..recipe.instances.end + first;
    let range = recipe.index_range.clone();
    match recipe.index {
        None => {
            let first = u32::try_from(recipe.base_vertex).unwrap_or(0);
            open.pass
                .draw(first..first.saturating_add(range.end), instances);
        }
        Some(_) => open.pass.draw_indexed(range, recipe.base_vertex, instances),
    }
}
