//! Depth textures a pixel shader samples. D3D9 decides by the format of the texture bound at
//! draw time, so the caller says per sampler how it reads ([`SamplerRead`],
//! `PixelShaderOptions::sampler_reads`) a depth texture on a 2D sampler:
//! - **Shadow maps** (`D3DFMT_D16`, `D24X8`, `D24S8`, `D32` textures, as NVIDIA's and AMD's
//!   drivers sample them): the texel is the comparison `z <= depth` of the coordinate's z
//!   (`z / w` after `texldp` or a projected ps_1_x coordinate) with the stored depth, 1 or 0
//!   in every channel, through a comparison sampler (`LESSEQUAL`; under linear filtering the
//!   four nearest comparisons are filtered: percentage-closer filtering). Wine's
//!   `shadow_test` pins the texels and the projection.
//! - **Raw depth** (`INTZ`, `DF16`, `DF24`): the stored depth, in every channel for INTZ and
//!   as (d, 0, 0, 1) for DF16/DF24 (Wine's `intz_test` and `test_fetch4`). The depth aspect is
//!   bound as an unfilterable `texture_2d<f32>` (WebGPU allows it; naga's GLSL output writes
//!   every `texture_depth_2d` as a shadow sampler), its red channel the depth. WebGPU filters
//!   no depth texture with a non-comparison sampler: under linear filtering the four texels of
//!   the bilinear footprint are gathered and weighted in the shader.
//!
//! The level of detail is implicit for `texld`/`texldp`/`texldb` (the bias is not applied:
//! WGSL has no biased depth sample) and level 0 for `texldl`/`texldd` (no explicit level or
//! gradient exists for a comparison, and D3D9's depth textures have one level in practice).

use super::builder::{Lifter, Value};
use super::interface::{DepthChannels, Fetch4, SamplerRead};
use naga::{
    BinaryOperator as Bo, Expression, Handle, ImageDimension, ImageQuery, MathFunction as Mf,
    SampleLevel, SwizzleComponent,
};

/// The level a depth texture is sampled at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum DepthLevel {
    /// Implicit derivatives (`texld`, `texldp`, `texldb`, every ps_1_x read).
    Implicit,
    /// Level 0 (`texldl`, `texldd`).
    Zero,
}

impl Lifter<'_> {
    /// How sampler `s#n` reads its texture: the stage options' word (a depth read only on a
    /// 2D pixel sampler; a vertex sampler reads colour or narrow textures), a colour texture
    /// otherwise.
    pub(super) fn sampler_read(&self, n: u32, dim: ImageDimension) -> SamplerRead {
        let read = self.options_sampler_read(n);
        let depth_allowed = dim == ImageDimension::D2 && self.pixel_options().is_some();
        match read.is_depth() && !depth_allowed {
            true => SamplerRead::Color,
            false => read,
        }
    }

    /// `texel` as D3D9 reads the texture `read` names: a narrow texture's missing red, green
    /// and blue channels set to 1 ([`SamplerRead::texel_channels`]); others as they are.
    pub(super) fn fill_channels(
        &mut self,
        texel: Handle<Expression>,
        read: SamplerRead,
    ) -> Handle<Expression> {
        let kept = read.texel_channels();
        if kept == [true; 4] {
            return texel;
        }
        let one = self.lit_f32(1.0);
        let mut parts = [one; 4];
        for (c, part) in parts.iter_mut().enumerate() {
            if kept[c] {
                *part = self.comp(texel, c as u32);
            }
        }
        self.compose4(parts)
    }

    /// The texel of depth texture `s#n` read as `read` (not `Color`) at `coord` (x, y and,
    /// for a shadow map, z the reference: 0 where `coord` has no third component).
    pub(super) fn depth_sample(
        &mut self,
        n: u32,
        read: SamplerRead,
        coord: Value,
        level: DepthLevel,
    ) -> Handle<Expression> {
        let (image, sampler) = self.texture_globals(n, ImageDimension::D2);
        let fetch4 = self.sampler_fixup(n, ImageDimension::D2).fetch4;
        let x = self.lane(coord, 0);
        let y = if coord.n > 1 {
            self.lane(coord, 1)
        } else {
            self.lit_f32(0.0)
        };
        let coordinate = self.compose(&[x, y]).h;
        let level = match level {
            DepthLevel::Implicit => SampleLevel::Auto,
            DepthLevel::Zero => SampleLevel::Zero,
        };
        let sample = |gather, depth_ref, level| Expression::ImageSample {
            image,
            sampler,
            gather,
            coordinate,
            array_index: None,
            offset: None,
            level,
            depth_ref,
            clamp_to_edge: false,
        };
        match read {
            SamplerRead::Shadow => {
                let reference = if coord.n > 2 {
                    self.lane(coord, 2)
                } else {
                    self.lit_f32(0.0)
                };
                let lit = self.emit(sample(None, Some(reference), level));
                self.splat(lit, 4).h
            }
            SamplerRead::Depth { channels, linear } => {
                if let Some(fetch4) = fetch4 {
                    // The depth is the texture's only channel.
                    let depth = Fetch4 {
                        channel: 0,
                        ..fetch4
                    };
                    return self.fetch4(image, sampler, coordinate, depth);
                }
                let d = if linear {
                    self.bilinear_depth(
                        coordinate,
                        sample(Some(SwizzleComponent::X), None, SampleLevel::Zero),
                        image,
                    )
                } else {
                    let texel = self.emit(sample(None, None, level));
                    self.comp(texel, 0)
                };
                match channels {
                    DepthChannels::All => self.splat(d, 4).h,
                    DepthChannels::Red => {
                        let zero = self.lit_f32(0.0);
                        let one = self.lit_f32(1.0);
                        self.compose4([d, zero, zero, one])
                    }
                }
            }
            SamplerRead::Color | SamplerRead::Narrow { .. } => self.lit_f32(0.0),
        }
    }

    /// AMD's Fetch4 (`SamplerFixup::fetch4`) at the 2D `coordinate`: of the 2x2 texels whose
    /// top-left one holds it (u0 v0, the coordinate's texel; Wine's test_fetch4: AMD's drivers
    /// since R500 read with that half texel offset), the lanes `fetch4` names, from a gather
    /// of its channel half a texel on.
    pub(super) fn fetch4(
        &mut self,
        image: Handle<Expression>,
        sampler: Handle<Expression>,
        coordinate: Handle<Expression>,
        fetch4: Fetch4,
    ) -> Handle<Expression> {
        let channel = fetch4.channel;
        let size = self.emit(Expression::ImageQuery {
            image,
            query: ImageQuery::Size { level: None },
        });
        let size = self.cast(size, naga::ScalarKind::Float, Some(4));
        let half = self.float_n(0.5, 2).h;
        let offset = self.bin(Bo::Divide, half, size);
        let coordinate = self.bin(Bo::Add, coordinate, offset);
        let gather = [
            SwizzleComponent::X,
            SwizzleComponent::Y,
            SwizzleComponent::Z,
            SwizzleComponent::W,
        ][usize::from(channel & 3)];
        let g = self.emit(Expression::ImageSample {
            image,
            sampler,
            gather: Some(gather),
            coordinate,
            array_index: None,
            offset: None,
            level: SampleLevel::Zero,
            depth_ref: None,
            clamp_to_edge: false,
        });
        self.pick(Value { h: g, n: 4 }, &fetch4.lanes.map(|l| l & 3))
            .h
    }

    /// The bilinear filter of a depth texture's level 0 at `coordinate` from the four texels
    /// `gather` (a `textureGather`) returns: x (u0, v1), y (u1, v1), z (u1, v0), w (u0, v0),
    /// weighted by the fractions of `coordinate * size - 0.5`.
    fn bilinear_depth(
        &mut self,
        coordinate: Handle<Expression>,
        gather: Expression,
        image: Handle<Expression>,
    ) -> Handle<Expression> {
        let g = self.emit(gather);
        let size = self.emit(Expression::ImageQuery {
            image,
            query: ImageQuery::Size { level: None },
        });
        let size = self.cast(size, naga::ScalarKind::Float, Some(4));
        let scaled = self.bin(Bo::Multiply, coordinate, size);
        let half = self.float_n(0.5, 2).h;
        let texel = self.bin(Bo::Subtract, scaled, half);
        let weights = self.math1(Mf::Fract, texel);
        let wx = self.comp(weights, 0);
        let wy = self.comp(weights, 1);
        let [g0, g1, g2, g3] = [0, 1, 2, 3].map(|i| self.comp(g, i));
        let top = self.math3(Mf::Mix, g3, g2, wx);
        let bottom = self.math3(Mf::Mix, g0, g1, wx);
        self.math3(Mf::Mix, top, bottom, wy)
    }
}
