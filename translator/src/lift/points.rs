//! Point expansion (`VertexShaderOptions::point_expansion`): WebGPU rasterises points one
//! pixel wide, so the backend draws each point of a point list as an instance of a 4-vertex
//! triangle strip whose vertices all read the point's attributes, and the vertex entry point
//! moves each corner out of the point's centre after the shader body.
//!
//! D3D9's rules, as the SDK states them and Wine's `test_pointsize` checks them:
//! - The size is the shader's point size output (`oPts`, a vs_3_0 `psize` output) when it
//!   writes one, `D3DRS_POINTSIZE` otherwise.
//! - With point scaling ([`PointExpansion::scale`]; D3D9 scales only fixed-function vertices,
//!   a vertex shader's size is used as it is), the size becomes
//!   `Vh · size · sqrt(1 / (A + B·De + C·De²))`, `Vh` the viewport height in pixels, `De` the
//!   distance of the eye-space position from the eye (the POSITION1 output where the shader
//!   writes one, see [`PointExpansion::scale`]), `A`, `B`, `C` `D3DRS_POINTSCALE_A/B/C`.
//! - The size is then clamped to `[D3DRS_POINTSIZE_MIN, D3DRS_POINTSIZE_MAX]`, the maximum
//!   winning when the minimum exceeds it (`min(max(size, MIN), MAX)`).
//! - The point is the screen-aligned square of that side centred on the vertex's position
//!   (after the half-pixel fix-up, so D3D9's pixel centres hold): the corner
//!   `(cx, cy)` ∈ {−1, 1}² is `position.xy + (cx, cy) · size / viewport · position.w`.
//!   A size of 0 is an empty square: nothing is drawn, as on Windows hardware.
//! - With point sprites ([`PointExpansion::sprite`], `D3DRS_POINTSPRITEENABLE`), every
//!   texture coordinate output is replaced by the sprite coordinate `(s, t, 0, 0)`, (0, 0) at
//!   the top-left corner and (1, 1) at the bottom-right (what Wine writes, from
//!   `gl_PointCoord`).
//!
//! The render states come from the uniform at [`POINT_BINDING`] in
//! [`VS_CONSTANTS_GROUP`] ([`PointConstants::data`]), so only the two switches of
//! [`PointExpansion`] change the code.

use super::builder::Lifter;
use super::interface::{UniformBinding, POINT_BINDING, VS_CONSTANTS_GROUP};
use super::options::PointExpansion;
use super::state::RegKey;
use naga::{AddressSpace, BinaryOperator as Bo, BuiltIn, Expression, Handle, MathFunction as Mf};

/// The point render states the expansion reads at run time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointConstants {
    /// `D3DRS_POINTSIZE`: the size when the shader writes none.
    pub size: f32,
    /// `D3DRS_POINTSIZE_MIN`.
    pub min: f32,
    /// `D3DRS_POINTSIZE_MAX`, already limited to the device's `MaxPointSize`.
    pub max: f32,
    /// `D3DRS_POINTSCALE_A`, `_B`, `_C`.
    pub scale: [f32; 3],
    /// The viewport's width and height in pixels.
    pub viewport: [f32; 2],
}

impl PointConstants {
    /// The uniform's contents: (size, min, max, 0), (A, B, C, 0), (width, height, 0, 0).
    pub fn data(&self) -> [[f32; 4]; 3] {
        let [a, b, c] = self.scale;
        let [w, h] = self.viewport;
        [
            [self.size, self.min, self.max, 0.0],
            [a, b, c, 0.0],
            [w, h, 0.0, 0.0],
        ]
    }
}

/// What the expansion decided for the entry point's outputs.
pub(super) struct ExpandedPoint {
    /// The corner's position.
    pub position: Handle<Expression>,
    /// The sprite coordinate `(s, t, 0, 0)` with sprites on.
    pub sprite: Option<Handle<Expression>>,
    pub binding: UniformBinding,
}

impl Lifter<'_> {
    /// Expand the point at `position` (after the fix-up; `eye` is the position before it)
    /// of size `written` (the shader's point size, if it writes one) into this vertex's
    /// corner, chosen by a new `@builtin(vertex_index)` argument of the entry point.
    pub(super) fn expand_point(
        &mut self,
        options: PointExpansion,
        position: Handle<Expression>,
        eye: Handle<Expression>,
        written: Option<Handle<Expression>>,
    ) -> ExpandedPoint {
        let vertex = self.builtin_argument("corner", BuiltIn::VertexIndex);
        let ty = self.vec4_array(3);
        let g = self.resource_global(
            RegKey::Points,
            "points",
            ty,
            AddressSpace::Uniform,
            VS_CONSTANTS_GROUP,
            POINT_BINDING,
        );
        let base = self.global(g);
        let row = |this: &mut Self, i: u32| {
            let p = this.emit(Expression::AccessIndex { base, index: i });
            this.load(p)
        };
        let sizes = row(self, 0);
        let scale = row(self, 1);
        let viewport = row(self, 2);
        let mut size = match written {
            Some(s) => s,
            None => self.comp(sizes, 0),
        };
        let vw = self.comp(viewport, 0);
        let vh = self.comp(viewport, 1);
        if options.scale {
            // Vh · size · sqrt(1 / (A + B·De + C·De²)).
            let xyz = self.truncate(eye, 3);
            let de = self.math1(Mf::Length, xyz);
            let a = self.comp(scale, 0);
            let b = self.comp(scale, 1);
            let c = self.comp(scale, 2);
            let c_de = self.bin(Bo::Multiply, c, de);
            let b_c_de = self.bin(Bo::Add, b, c_de);
            let quadratic = self.bin(Bo::Multiply, b_c_de, de);
            let den = self.bin(Bo::Add, a, quadratic);
            let factor = self.math1(Mf::InverseSqrt, den);
            let scaled = self.bin(Bo::Multiply, size, factor);
            size = self.bin(Bo::Multiply, scaled, vh);
        }
        let min = self.comp(sizes, 1);
        let max = self.comp(sizes, 2);
        let at_least = self.math2(Mf::Max, size, min);
        let size = self.math2(Mf::Min, at_least, max);
        // Corners of the strip 0..3: (−1, −1), (−1, 1), (1, −1), (1, 1).
        let two = self.lit_u32(2);
        let one = self.lit_u32(1);
        let right = self.bin(Bo::GreaterEqual, vertex, two);
        let low_bit = self.bin(Bo::And, vertex, one);
        let up = self.bin(Bo::Equal, low_bit, one);
        let plus = self.lit_f32(1.0);
        let minus = self.lit_f32(-1.0);
        let cx = self.select(right, plus, minus);
        let cy = self.select(up, plus, minus);
        let w = self.comp(position, 3);
        let mut moved = Vec::with_capacity(2);
        for (lane, corner, extent) in [(0u32, cx, vw), (1, cy, vh)] {
            let c = self.comp(position, lane);
            let half = self.bin(Bo::Divide, size, extent);
            let d = self.bin(Bo::Multiply, corner, half);
            let d = self.bin(Bo::Multiply, d, w);
            moved.push(self.bin(Bo::Add, c, d));
        }
        let z = self.comp(position, 2);
        let position = self.compose4([moved[0], moved[1], z, w]);
        let sprite = options.sprite.then(|| {
            // s = (cx + 1) / 2, t = (1 − cy) / 2: (0, 0) at the top left.
            let zero = self.lit_f32(0.0);
            let s = self.select(right, plus, zero);
            let t = self.select(up, zero, plus);
            self.compose4([s, t, zero, zero])
        });
        ExpandedPoint {
            position,
            sprite,
            binding: UniformBinding {
                group: VS_CONSTANTS_GROUP,
                binding: POINT_BINDING,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The uniform's rows are the documented ones.
    #[test]
    fn point_constants_rows() {
        let c = PointConstants {
            size: 32.0,
            min: 1.0,
            max: 64.0,
            scale: [1.0, 2.0, 3.0],
            viewport: [128.0, 96.0],
        };
        assert_eq!(
            c.data(),
            [
                [32.0, 1.0, 64.0, 0.0],
                [1.0, 2.0, 3.0, 0.0],
                [128.0, 96.0, 0.0, 0.0]
            ]
        );
    }
}
