//! Fixed-function fog after a pixel shader of any version (`PixelShaderOptions::fog`; after
//! ps_3_0 too, as Windows draws: vkd3d's `fog.shader_test`, see `docs/decisions.md`).
//!
//! `oC0.rgb = lerp(fog_colour.rgb, oC0.rgb, f)`, alpha unchanged, for the fog factor `f`
//! clamped to [0, 1]:
//! - vertex fog: `f` is the interpolated FOG varying (the vertex shader's `oFog`); where the
//!   vertex shader never writes it, the alpha of its `oD1` when it writes all of `oD1`
//!   (COLOR1 travelling whole without FOG, as Windows does: vkd3d's `fog.shader_test`), else FOG's
//!   default 0, fully fogged (Wine's `fog_with_shader_test`);
//! - table fog: `f` from the pixel's depth `d` (`@builtin(position).z`), or its clip-space w
//!   (`1 / @builtin(position).w`) with `FogOptions::from_w`: LINEAR `(end - d) / (end -
//!   start)`, EXP `e^-(d·density)`, EXP2 `e^-(d·density)²`.
//!
//! The render states come from the uniform [`FOG_BINDING`] in [`PS_CONSTANTS_GROUP`]:
//! `array<vec4<f32>, 2>` = [`FogConstants::data`].

use super::builder::Lifter;
use super::error::LiftError;
use super::interface::{UniformBinding, Varying, FOG_BINDING, PS_CONSTANTS_GROUP};
use super::link::fog_factor_source;
use super::state::RegKey;
use super::{FogMode, FogSource};
use crate::bytecode::Usage;
use crate::signature::Semantic;
use naga::{AddressSpace, BinaryOperator as Bo, Expression, Handle, MathFunction as Mf};

/// The fog render states as the pixel stage reads them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FogConstants {
    /// `D3DRS_FOGCOLOR` as (r, g, b, a) in [0, 1].
    pub color: [f32; 4],
    /// `D3DRS_FOGSTART`.
    pub start: f32,
    /// `D3DRS_FOGEND`.
    pub end: f32,
    /// `D3DRS_FOGDENSITY`.
    pub density: f32,
}

impl FogConstants {
    /// The uniform's contents: the colour, then (start, end, density, 0).
    pub fn data(&self) -> [[f32; 4]; 2] {
        [self.color, [self.start, self.end, self.density, 0.0]]
    }
}

/// The fog stage of one pixel entry point, decided when it opens.
#[derive(Debug, Clone, Copy)]
pub(super) struct FogPlan {
    source: FogSource,
    /// The fog coordinate: the FOG varying (vertex fog) or the depth (table fog).
    coordinate: Handle<Expression>,
}

impl Lifter<'_> {
    /// The fog options that apply: `fog` set, in every pixel shader version.
    pub(super) fn fog_source(&self) -> Option<FogSource> {
        Some(self.pixel_options()?.fog?.source)
    }

    /// The varying the vertex fog stage reads and the component of its location's variable
    /// that holds the factor, by `link::fog_factor_source` over the varying map: FOG, or
    /// COLOR1's alpha where COLOR1 travels whole and FOG does not.
    pub(super) fn fog_varying(&self) -> Option<(Varying, u8)> {
        let FogSource::Vertex = self.fog_source()? else {
            return None;
        };
        let options = self.pixel_options()?;
        let map = options.input_locations.as_ref()?;
        let find = |s: Semantic| map.iter().find(|v| v.semantic == s).copied();
        let width = |s: Semantic| find(s).map(|v| v.components);
        let (semantic, component) = fog_factor_source(
            width(Semantic::new(Usage::Fog, 0)),
            width(Semantic::new(Usage::Color, 1)),
        )?;
        let varying = find(semantic)?;
        Some((varying, varying.component + component))
    }

    /// Plan the fog stage: `varying` is the FOG varying's location argument and its width,
    /// `frag_coord` the position builtin (needed by table fog).
    pub(super) fn plan_fog(
        &mut self,
        varying: Option<(Handle<Expression>, u8)>,
        frag_coord: Option<Handle<Expression>>,
    ) -> Result<Option<FogPlan>, LiftError> {
        let Some(source) = self.fog_source() else {
            return Ok(None);
        };
        let coordinate = match source {
            FogSource::Vertex => match (varying, self.fog_varying()) {
                (Some((h, 1)), _) => h,
                (Some((h, _)), Some((_, component))) => self.comp(h, u32::from(component)),
                _ => self.lit_f32(Semantic::new(Usage::Fog, 0).unwritten_value()[0]),
            },
            FogSource::Table(_) => {
                let fc = frag_coord.ok_or_else(|| self.internal("table fog without depth"))?;
                if self
                    .pixel_options()
                    .and_then(|o| o.fog)
                    .is_some_and(|f| f.from_w)
                {
                    // `@builtin(position).w` is 1/w.
                    let inverse_w = self.comp(fc, 3);
                    let one = self.lit_f32(1.0);
                    self.bin(Bo::Divide, one, inverse_w)
                } else {
                    self.comp(fc, 2)
                }
            }
        };
        Ok(Some(FogPlan { source, coordinate }))
    }

    /// Fog `color` (the `vec4` of oC0) by `plan`; returns the fogged colour and the uniform.
    pub(super) fn apply_fog(
        &mut self,
        color: Handle<Expression>,
        plan: FogPlan,
    ) -> (Handle<Expression>, UniformBinding) {
        let ty = self.vec4_array(2);
        let g = self.resource_global(
            RegKey::Fog,
            "fog",
            ty,
            AddressSpace::Uniform,
            PS_CONSTANTS_GROUP,
            FOG_BINDING,
        );
        let base = self.global(g);
        let p = self.emit(Expression::AccessIndex { base, index: 0 });
        let fog_color = self.load(p);
        let p = self.emit(Expression::AccessIndex { base, index: 1 });
        let params = self.load(p);
        let d = plan.coordinate;
        let f = match plan.source {
            FogSource::Vertex => d,
            FogSource::Table(FogMode::Linear) => {
                let start = self.comp(params, 0);
                let end = self.comp(params, 1);
                let num = self.bin(Bo::Subtract, end, d);
                let den = self.bin(Bo::Subtract, end, start);
                self.bin(Bo::Divide, num, den)
            }
            FogSource::Table(mode) => {
                let density = self.comp(params, 2);
                let x = self.bin(Bo::Multiply, d, density);
                let x = match mode {
                    FogMode::Exp2 => self.bin(Bo::Multiply, x, x),
                    _ => x,
                };
                let neg = self.emit(Expression::Unary {
                    op: naga::UnaryOperator::Negate,
                    expr: x,
                });
                self.math1(Mf::Exp, neg)
            }
        };
        let f = self.math1(Mf::Saturate, f);
        // lerp(fog, colour, f) on rgb; alpha kept.
        let mut rgb = [f; 3];
        for (c, slot) in (0u32..).zip(rgb.iter_mut()) {
            let fc = self.comp(fog_color, c);
            let cc = self.comp(color, c);
            *slot = self.math3(Mf::Mix, fc, cc, f);
        }
        let alpha = self.comp(color, 3);
        let [r, g, b] = rgb;
        let fogged = self.compose4([r, g, b, alpha]);
        (
            fogged,
            UniformBinding {
                group: PS_CONSTANTS_GROUP,
                binding: FOG_BINDING,
            },
        )
    }
}
