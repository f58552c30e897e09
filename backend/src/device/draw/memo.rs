//! The draw memo: the last draw, resolved, answered again while nothing it read has changed,
//! and its two tiers for what games change between draws without changing anything else:
//! the float constants (a world matrix per object) and the textures (to textures of the same
//! kind and format).

use std::sync::Arc;

use super::super::objects::{TextureId, TextureObject};
use super::super::pairing::ShaderPair;
use super::super::range::DrawRange;
use super::super::{Device, PrimitiveType, SAMPLER_STAGES};
use super::bindings::ConstantKeys;
use super::ring::Stage;
use super::{ConstantsGroup, PassRecipe};

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
    /// Per sampled texture of the pair, whether its format filters (in the pipeline's key).
    pub(super) filterable: Vec<bool>,
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
        self.call == call
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
        let Ok(textures) = self.sampled_textures(call, &pair) else {
            return false;
        };
        if textures.copied || textures.filterable != memo.filterable {
            return false;
        }
        let recipe = &mut memo.recipe;
        let entry = recipe.pipeline.clone();
        if self
            .texture_groups(call, &pair, &entry, &textures, &mut recipe.groups)
            .is_err()
        {
            return false;
        }
        memo.textures = self.state.textures;
        memo.textures_version = self.state.textures_version;
        // Preparing the textures (an upload of what a lock wrote) may have bumped the
        // texture table's version, as the full path's preparation does before it is taken.
        memo.versions = self.versions();
        true
    }

    /// A memoised recipe's constants placed in the ring's current generation (they were
    /// written for an earlier submit); false where the ring no longer has them.
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
            &mut recipe.groups,
            &mut recipe.offsets,
        )
        .is_ok()
    }
}
