//! The draw memo: the last draw, resolved, answered again while nothing it read has changed,
//! and its two tiers for what games change between draws without changing anything else:
//! the float constants (a world matrix per object) and the textures (to textures of the same
//! kind and format).

use std::sync::Arc;

use super::super::error::DeviceError;
use super::super::objects::{TextureId, TextureObject};
use super::super::pairing::ShaderPair;
use super::super::range::DrawRange;
use super::super::{Device, PrimitiveType, SAMPLER_STAGES};
use super::bindings::{
    pixel_constant_buffers, set_group, set_offsets, vertex_constant_buffers, ConstantKeys,
};
use super::ring::{Offsets, Stage};
use super::{BindGroupKey, ConstantsGroup, PassRecipe, PipelineEntry};
use crate::device::Extent;

/// The last draw, kept while nothing it read has changed: the same call with the same
/// primitive type and range, at the same versions of the state and the object tables
/// (`versioned`), records the same pass, so it skips pairing, the caches and validation.
/// The float constants and the textures set do not bump the state's version: where only the
/// constants changed, they are placed anew (`constants_changed`); where textures changed to
/// textures that sample alike (`TextureShape`), only the texture groups are made anew.
/// Only draws that record nothing draw-specific besides the pass are kept: not `UP` draws,
/// expanded points, generated indices (fans, GL flat shading) or one-slice volume copies.
pub(crate) struct DrawMemo {
    pub(super) call: &'static str,
    pub(super) primitive: PrimitiveType,
    pub(super) range: DrawRange,
    pub(super) versions: [u64; 8],
    /// The textures set on every sampler slot, at `textures_version`.
    pub(super) textures: [Option<TextureId>; SAMPLER_STAGES],
    pub(super) textures_version: u64,
    pub(super) recipe: PassRecipe,
    pub(super) pair: Arc<ShaderPair>,
    pub(super) constants: ConstantKeys,
}

impl DrawMemo {
    fn matches(
        &self,
        call: &'static str,
        primitive: PrimitiveType,
        range: DrawRange,
        versions: [u64; 8],
    ) -> bool {
        // The calls are literals: the same one is the same pointer (compared first, as a
        // string compare is a call).
        (std::ptr::eq(self.call, call) || self.call == call)
            && self.primitive == primitive
            && self.range == range
            && self.versions == versions
    }
}

/// What a draw's pair, pipeline and sampler keys read of a texture besides which texture it
/// is: two textures of one shape on a slot give the same pair, pipeline and samplers.
#[derive(Clone, Copy, PartialEq, Eq)]
struct TextureShape {
    kind: super::super::TextureKind,
    format: super::super::Format,
    wgpu_format: wgpu::TextureFormat,
    levels: u32,
    lod: u32,
    usage: super::super::Usage,
    gpu: bool,
}

impl TextureShape {
    fn of(texture: &TextureObject) -> TextureShape {
        TextureShape {
            kind: texture.kind,
            format: texture.format,
            wgpu_format: texture.wgpu_format,
            levels: texture.levels,
            lod: texture.lod,
            usage: texture.usage,
            gpu: texture.gpu.is_some(),
        }
    }
}

impl Device {
    /// The memo's draw recorded again where it answers this one (see [`DrawMemo`]); false
    /// where the draw takes the full path.
    pub(super) fn repeat(
        &mut self,
        call: &'static str,
        primitive: PrimitiveType,
        range: DrawRange,
    ) -> bool {
        let Some(mut memo) = self.memo.take() else {
            return false;
        };
        if !(memo.matches(call, primitive, range, self.versions())
            && self.memo_textures(call, &mut memo)
            && self.constants_again(&mut memo.recipe)
            && self.memo_constants(&mut memo))
        {
            self.memo_spare = Some(memo);
            return false;
        }
        // A hit in both caches, answered without a lookup. The entries' recency needs no
        // update: the memo's draw was the last to use any entry.
        self.pairs.count_hit();
        self.pipelines.count_hit();
        self.memo_hits += 1;
        self.encode(&memo.recipe);
        memo.recipe.changed = 0;
        self.memo = Some(memo);
        true
    }

    /// The memo's texture groups made anew where `SetTexture` changed textures since, each
    /// changed slot's texture of the shape the memo's had (else false: the pair or the
    /// pipeline may differ). The sampled textures are prepared and checked as the full path
    /// does (`sampled_textures`).
    fn memo_textures(&mut self, call: &'static str, memo: &mut DrawMemo) -> bool {
        if memo.textures_version == self.state.textures_version {
            return true;
        }
        let shape = |id: Option<TextureId>| {
            id.and_then(|id| self.textures.get(&id))
                .map(TextureShape::of)
        };
        let alike = (0..SAMPLER_STAGES).all(|slot| {
            let (old, new) = (memo.textures[slot], self.state.textures[slot]);
            old == new || shape(old) == shape(new)
        });
        if !alike {
            return false;
        }
        let pair = memo.pair.clone();
        // Textures of the memo's shapes are read as its textures were: without a copy (the
        // memo's draw made none: `record`) and filtering alike (the shape holds the format),
        // so its pipeline stands.
        let Ok(textures) = self.sampled_textures(call, &pair) else {
            return false;
        };
        let recipe = &mut memo.recipe;
        let entry = recipe.pipeline.clone();
        if self
            .texture_groups(call, &pair, &entry, &textures, &mut recipe.groups)
            .is_err()
        {
            return false;
        }
        recipe.changed |= (1 << 1) | (1 << 3);
        memo.textures = self.state.textures;
        memo.textures_version = self.state.textures_version;
        // Preparing the textures (an upload of what a lock wrote) may have bumped the
        // texture table's version, as the full path's preparation does before it is taken.
        memo.versions = self.versions();
        true
    }

    /// A memoised recipe's constants placed in the ring's current generation (they were
    /// written for an earlier submit); false where the ring no longer has them. No group is
    /// marked `changed`: a submit ends the open pass, so the repeat begins a pass, which sets
    /// every group.
    fn constants_again(&mut self, recipe: &mut PassRecipe) -> bool {
        let generation = self.constant_ring.generation();
        if recipe.generation == generation {
            return true;
        }
        let stages = [
            (Stage::Vertex, recipe.pipeline.vs_constants),
            (Stage::Pixel, recipe.pipeline.ps_constants),
        ];
        for (stage, constants) in stages {
            let Some(ConstantsGroup {
                group,
                shape: Some(shape),
            }) = constants
            else {
                continue;
            };
            let Some((bind_group, offsets)) =
                self.constant_ring.again(&self.gpu.device, stage, shape)
            else {
                return false;
            };
            recipe.groups[group as usize] = Some(bind_group);
            recipe.offsets[group as usize] = offsets;
        }
        recipe.generation = generation;
        true
    }

    /// A memoised draw's float constants placed anew where they changed; false where that
    /// failed (the full path then says why).
    fn memo_constants(&mut self, memo: &mut DrawMemo) -> bool {
        let recipe = &mut memo.recipe;
        self.constants_changed(
            &memo.pair,
            &recipe.pipeline,
            &mut memo.constants,
            (&mut recipe.groups, &mut recipe.offsets),
            &mut recipe.changed,
        )
        .is_ok()
    }

    /// A memoised draw's constants placed anew where a stage's constants changed since it
    /// was recorded (nothing else did: the state's version is the same): the stage's key at
    /// the new version, its group and offsets in `groups` and `offsets`, its bit set in
    /// `changed`.
    pub(super) fn constants_changed(
        &mut self,
        pair: &ShaderPair,
        entry: &PipelineEntry,
        constants: &mut ConstantKeys,
        (groups, offsets): (&mut Vec<Option<wgpu::BindGroup>>, &mut [Offsets; 4]),
        changed: &mut u8,
    ) -> Result<(), DeviceError> {
        let versions = self.constants_versions();
        let stages = [
            (Stage::Vertex, entry.vs_constants),
            (Stage::Pixel, entry.ps_constants),
        ];
        for (stage, group) in stages {
            let i = stage as usize;
            if constants.versions[i] == versions[i] {
                continue;
            }
            let (Some(group), Some(key)) = (group, constants.keys[i].as_mut()) else {
                continue;
            };
            if matches!(key, BindGroupKey::Textures { .. }) {
                continue;
            }
            *changed |= 1 << group.group;
            // The key at the constants' new version.
            let version = versions[i];
            let retarget = |key: &mut BindGroupKey| match key {
                BindGroupKey::VertexConstants { version: v, .. }
                | BindGroupKey::PixelConstants { version: v, .. } => v[2] = version,
                BindGroupKey::Textures { .. } => {}
            };
            // Where the ring's last placement of the stage is this draw's, only the `c#`
            // buffer is made anew (the state's version is the memo's: only the float
            // constants changed).
            let floats = match (stage, group.shape) {
                (Stage::Vertex, Some(_)) if !pair.fixed_function_vertex => pair
                    .vertex_interface
                    .float_constants
                    .map(|f| (f.binding, &pair.vertex_interface)),
                (Stage::Pixel, Some(_)) if !pair.fixed_function_pixel => pair
                    .pixel_interface
                    .as_ref()
                    .and_then(|i| i.float_constants.map(|f| (f.binding, i))),
                _ => None,
            };
            if let (Some((binding, interface)), Some(shape)) = (floats, group.shape) {
                let state = &self.state;
                let write = |data: &mut Vec<u8>| match stage {
                    Stage::Vertex => {
                        state
                            .vs_constants
                            .float_bytes_into(interface, Extent::Read, data)
                    }
                    Stage::Pixel => {
                        state
                            .ps_constants
                            .float_bytes_into(interface, Extent::Read, data)
                    }
                };
                let placed = self.constant_ring.place_changed(
                    &self.gpu.device,
                    stage,
                    (key, &retarget),
                    (shape, binding),
                    write,
                );
                if let Some((bound, at)) = placed {
                    if let Some(bound) = bound {
                        set_group(groups, group.group, bound);
                    }
                    set_offsets(offsets, group.group, at);
                    continue;
                }
            }
            retarget(key);
            let fixup = constants.fixup;
            let (bound, at) = match stage {
                Stage::Vertex => self.constants(stage, entry, key, group, |state, extent| {
                    vertex_constant_buffers(state, pair, fixup, extent)
                })?,
                Stage::Pixel => self.constants(stage, entry, key, group, |state, extent| {
                    Ok(pixel_constant_buffers(state, pair, extent))
                })?,
            };
            set_group(groups, group.group, bound);
            set_offsets(offsets, group.group, at);
        }
        constants.versions = versions;
        Ok(())
    }
}
