//! The generator's frame: registers, inputs and outputs, the position transforms (with vertex
//! blending and tweening), the colours, vertex fog and pass-through outputs. Lighting is in
//! `lighting`, texture coordinates in `texcoord`.
//!
//! Registers: `r0`/`r1` object position/normal, `r2` eye position, `r3` eye normal, `r5`–`r9`
//! blending scratch, `r10`–`r12` light sums, `r20`/`r21` vertex colours, `r22`–`r25` texture
//! coordinates, `r26` fog, `r28`/`r29` lit colours, `r30` = (4, 1020, −log₂ e, 255), `r31` =
//! (0, 1, ½, 2).

use super::emit::{a0, c, c_a0x, o, r, v, Emitter, Operand, W, X, XY, XYZ, Y, Z};
use super::registers as reg;
use super::{FixedFunctionError, VertexBlend, VertexDescription};
use crate::bytecode::{Opcode, Program, Usage, WriteMask};
use crate::decl::DeclType;
use crate::fog::FogMode;
use crate::signature::Semantic;

/// The literal registers' values: (0, 1, ½, 2) and (4, 1020, −log₂ e, 255).
const NUMBERS: [f32; 4] = [0.0, 1.0, 0.5, 2.0];
const SCALES: [f32; 4] = [4.0, 1020.0, -std::f32::consts::LOG2_E, 255.0];
/// vs_3_0's output registers.
const OUTPUT_REGISTERS: u32 = 12;

/// `r31`: (0, 1, ½, 2).
pub(super) fn numbers() -> Operand {
    r(31)
}

/// `r30`: (4, 1020, −log₂ e, 255).
pub(super) fn scales() -> Operand {
    r(30)
}

/// The program of `d`.
pub(super) fn build(d: &VertexDescription) -> Result<Program, FixedFunctionError> {
    let mut g = Generator {
        d,
        e: Emitter::new(),
        next_output: 1,
    };
    g.e.def(reg::LITERAL_NUMBERS, NUMBERS);
    g.e.def(reg::LITERAL_SCALES, SCALES);
    g.e.dcl(o(0).all(), Usage::Position, 0);
    for (i, element) in d.declaration.elements().iter().enumerate() {
        g.e.dcl(v(i).all(), element.usage, element.usage_index);
    }
    g.e.mov(numbers().all(), c(reg::LITERAL_NUMBERS as usize));
    g.e.mov(scales().all(), c(reg::LITERAL_SCALES as usize));
    let position = g.find(Usage::Position, 0).ok_or_else(|| {
        FixedFunctionError::Unsupported("a declaration without a position".into())
    })?;
    for (index, temp) in [(0, 20), (1, 21)] {
        if let Some(input) = g.find(Usage::Color, index) {
            g.e.mov(r(temp).all(), v(input));
        }
    }
    let state = &d.state;
    match state.viewport {
        Some(viewport) => g.pretransformed(position, viewport),
        None => {
            g.transform(position);
            if let Some(lighting) = &state.lighting {
                g.lighting(lighting);
            }
        }
    }
    g.colours();
    if d.outputs.eye && state.viewport.is_none() {
        let out = g.output(Usage::Position, 1, WriteMask::ALL)?;
        g.e.mov(out.all(), r(2));
    }
    for n in 0..8 {
        if d.outputs.texcoords & (1 << n) != 0 {
            g.texcoord(n)?;
        }
    }
    if state.fog.is_some() {
        g.fog()?;
    }
    for (usage, index, input) in d.passthrough() {
        let out = g.output(usage, index, WriteMask::ALL)?;
        g.e.mov(out.all(), v(input));
    }
    if let Some(input) = g.find(Usage::PSize, 0) {
        let out = g.output(Usage::PSize, 0, WriteMask::ALL)?;
        g.e.mov(out.all(), v(input));
    }
    Ok(g.e.finish())
}

/// The program under construction for a description.
pub(super) struct Generator<'a> {
    pub(super) d: &'a VertexDescription,
    pub(super) e: Emitter,
    next_output: u32,
}

impl Generator<'_> {
    /// The input register of the declaration's element (usage, index).
    pub(super) fn find(&self, usage: Usage, index: u8) -> Option<usize> {
        self.d.input(Semantic::new(usage, index))
    }

    /// A new output register declared with (usage, index) and `mask`.
    pub(super) fn output(
        &mut self,
        usage: Usage,
        index: u8,
        mask: WriteMask,
    ) -> Result<Operand, FixedFunctionError> {
        let n = self.next_output;
        if n >= OUTPUT_REGISTERS {
            return Err(FixedFunctionError::Unsupported(format!(
                "more than {OUTPUT_REGISTERS} outputs (at {}{index})",
                usage.name()
            )));
        }
        self.next_output += 1;
        self.e.dcl(o(n).mask(mask), usage, index);
        Ok(o(n))
    }

    /// POSITIONT (render-target pixel coordinates; the viewport only clips): w = 1/rhw (1
    /// for an rhw of 0: wined3d and DXVK; Wine's test_table_fog_zw draws it), clip = ((x −
    /// vx)·2/vw − 1, 1 − (y − vy)·2/vh, z, 1) · w, so that interpolation is
    /// perspective-correct with 1/rhw as D3D9 does it.
    fn pretransformed(&mut self, p: usize, [x, y, width, height]: [u32; 4]) {
        let (w, h) = (width.max(1) as f32, height.max(1) as f32);
        let (x0, y0) = (x as f32, y as f32);
        let viewport = [2.0 / w, -2.0 / h, -1.0 - 2.0 * x0 / w, 1.0 + 2.0 * y0 / h];
        self.e.def(reg::LITERAL_VIEWPORT, viewport);
        let (e, one, zero) = (&mut self.e, numbers().at(Y), numbers().at(X));
        e.rcp(r(0).lane(W), v(p).at(W));
        e.op(Opcode::Abs, r(5).lane(X), &[v(p).at(W)]);
        e.slt(r(5).lane(Y), zero, r(5).at(X));
        e.add(r(5).lane(Z), one, r(5).at(Y).neg());
        e.mul(r(0).lane(W), r(0).at(W), r(5).at(Y));
        e.add(r(0).lane(W), r(0).at(W), r(5).at(Z));
        let vp = c(reg::LITERAL_VIEWPORT as usize);
        e.mad(
            r(1).mask(XY),
            v(p).swz([X, Y, Y, Y]),
            vp.swz([X, Y, Y, Y]),
            vp.swz([Z, W, W, W]),
        );
        e.mov(r(1).lane(Z), v(p).at(Z));
        e.mov(r(1).lane(W), one);
        e.mul(o(0).all(), r(1), r(0).at(W));
    }

    /// Object space (w always 1) to eye (`r2`) and clip space (`o0`), normals to eye space
    /// (`r3`):
    /// - no blending: clip = v · (World · View · Projection), e = v · World · View, n = n ·
    ///   N with N the upper 3×3 of the transposed inverse of World · View;
    /// - blending with weights w0..wk−1 and wk = 1 − Σ: e = Σ wi · (v · World_i · View),
    ///   n = Σ wi · (n · (World_i · View)₃ₓ₃), clip = e · Projection;
    /// - tweening first lerps POSITION0/1 and NORMAL0/1 by `D3DRS_TWEENFACTOR`;
    /// - `D3DRS_NORMALIZENORMALS`: n / |n| (a zero normal stays zero).
    fn transform(&mut self, p: usize) {
        let normal = self.find(Usage::Normal, 0);
        let (one, zero) = (numbers().at(Y), numbers().at(X));
        // The input w is ignored: 1 (Windows, in Wine's test_ffp_w).
        self.e.mov(r(0).all(), v(p));
        self.e.mov(r(0).lane(W), one);
        match normal {
            Some(n) => self.e.mov(r(1).all(), v(n)),
            None => self.e.mov(r(1).all(), zero),
        }
        let blend = self.d.state.blend;
        if blend == VertexBlend::Tween {
            let tween = c(reg::MISC).at(X);
            if let Some(p1) = self.find(Usage::Position, 1) {
                self.e.mov(r(5).all(), v(p1));
                self.e.mov(r(5).lane(W), one);
                self.e.add(r(5).all(), r(5), r(0).neg());
                self.e.mad(r(0).all(), r(5), tween, r(0));
            }
            if let (Some(_), Some(n1)) = (normal, self.find(Usage::Normal, 1)) {
                self.e.mov(r(5).all(), v(n1));
                self.e.add(r(5).all(), r(5), r(1).neg());
                self.e.mad(r(1).all(), r(5), tween, r(1));
            }
        }
        match blend {
            VertexBlend::Weights { weights, indexed } => self.blend(weights, indexed),
            VertexBlend::None | VertexBlend::Tween => {
                for lane in X..=W {
                    let col = reg::WORLD_VIEW_PROJECTION + usize::from(lane);
                    self.e.dp4(o(0).lane(lane), r(0), c(col));
                }
                for lane in X..=W {
                    let col = reg::WORLD_VIEW + usize::from(lane);
                    self.e.dp4(r(2).lane(lane), r(0), c(col));
                }
                for lane in X..=Z {
                    let col = reg::NORMAL_MATRIX + usize::from(lane);
                    self.e.dp3(r(3).lane(lane), r(1), c(col));
                }
                self.e.mov(r(3).lane(W), zero);
            }
        }
        if self.d.state.normalize && normal.is_some() {
            self.e.normalize(r(3), r(3), r(8));
        }
    }

    /// Vertex blending (see [`Generator::transform`]); indexed matrices are read relative to
    /// `a0.x` from [`reg::INDEXED_WORLD_VIEW`], 4 registers each.
    fn blend(&mut self, weights: u8, indexed: bool) {
        let k = weights.min(3);
        let zero = numbers().at(X);
        match self.find(Usage::BlendWeight, 0) {
            Some(w) => self.e.mov(r(5).all(), v(w)),
            None => self.e.mov(r(5).all(), zero),
        }
        self.e.mov(r(6).lane(X), numbers().at(Y));
        for lane in 0..k {
            self.e.add(r(6).lane(X), r(6).at(X), r(5).at(lane).neg());
        }
        if indexed {
            match self.find(Usage::BlendIndices, 0) {
                // D3DCOLOR indices arrive as 0..1: × 255 × 4 registers per matrix.
                Some(i) => {
                    let scale = match self.d.declaration.elements().get(i).map(|e| e.ty) {
                        Some(DeclType::D3DColor | DeclType::UByte4N) => scales().at(Y),
                        _ => scales().at(X),
                    };
                    self.e.mul(r(9).all(), v(i), scale);
                }
                None => self.e.mov(r(9).all(), zero),
            }
        }
        self.e.mov(r(2).all(), zero);
        self.e.mov(r(3).all(), zero);
        for i in 0..=k {
            let weight = if i < k { r(5).at(i) } else { r(6).at(X) };
            let column = |col: u8| {
                let col = usize::from(col);
                if indexed {
                    c_a0x(reg::INDEXED_WORLD_VIEW + col)
                } else {
                    c(reg::BLEND_WORLD_VIEW[usize::from(i)] + col)
                }
            };
            if indexed {
                self.e.op(Opcode::Mova, a0().lane(X), &[r(9).at(i)]);
            }
            for col in X..=W {
                self.e.dp4(r(7).lane(col), r(0), column(col));
            }
            self.e.mad(r(2).all(), r(7), weight, r(2));
            for col in X..=Z {
                self.e.dp3(r(8).lane(col), r(1), column(col));
            }
            self.e.mad(r(3).mask(XYZ), r(8), weight, r(3));
        }
        for lane in X..=W {
            let col = reg::PROJECTION + usize::from(lane);
            self.e.dp4(o(0).lane(lane), r(2), c(col));
        }
    }

    /// COLOR0 and COLOR1: lit (`r28`, `r29`) or the vertex's (white and (0, 0, 0, 0) without
    /// one); COLOR1 is the vertex's unless lighting computes a specular colour.
    fn colours(&mut self) {
        let state = &self.d.state;
        let lit = state.lighting.as_ref().filter(|_| state.viewport.is_none());
        let has0 = self.find(Usage::Color, 0).is_some();
        let has1 = self.find(Usage::Color, 1).is_some();
        let colour0 = match (lit, has0) {
            (Some(_), _) => r(28),
            (None, true) => r(20),
            (None, false) => numbers().at(Y),
        };
        let colour1 = match (lit.is_some_and(|l| l.specular), has1) {
            (true, _) => r(29),
            (false, true) => r(21),
            (false, false) => numbers().at(X),
        };
        for (index, value) in [colour0, colour1].into_iter().enumerate() {
            let n = self.next_output;
            self.next_output += 1;
            self.e.dcl(o(n).all(), Usage::Color, index as u8);
            self.e.mov(o(n).all(), value);
        }
    }

    /// The FOG output: LINEAR (end − d)·scale (scale = 1/(end − start), 0 when start = end:
    /// fully fogged, as Windows), EXP e^(−d·density), EXP2 e^(−(d·density)²), d = |e.z|, or
    /// |e| with `D3DRS_RANGEFOGENABLE`, or the vertex's FOG element; mode NONE and POSITIONT
    /// vertices take the specular alpha (0 without a specular colour).
    fn fog(&mut self) -> Result<(), FixedFunctionError> {
        let Some(fog) = self.d.state.fog else {
            return Ok(());
        };
        let out = self.output(Usage::Fog, 0, WriteMask(1))?.lane(X);
        let f = c(reg::FOG);
        let specular_alpha = match self.find(Usage::Color, 1) {
            Some(_) => r(21).at(W),
            None => numbers().at(X),
        };
        let mode = match fog.mode {
            Some(mode) if self.d.state.viewport.is_none() => mode,
            _ => {
                self.e.mov(out, specular_alpha);
                return Ok(());
            }
        };
        let d = r(26);
        match (self.find(Usage::Fog, 0), fog.range) {
            (Some(input), _) => self.e.mov(d.lane(X), v(input).at(X)),
            (None, true) => {
                self.e.dp3(d.lane(X), r(2), r(2));
                self.e.rsq(d.lane(Y), d.at(X));
                self.e.mul(d.lane(X), d.at(X), d.at(Y));
            }
            (None, false) => self.e.op(Opcode::Abs, d.lane(X), &[r(2).at(Z)]),
        }
        match mode {
            FogMode::Linear => {
                self.e.add(d.lane(Y), f.at(Y), d.at(X).neg());
                self.e.mul(out, d.at(Y), f.at(Z));
            }
            FogMode::Exp | FogMode::Exp2 => {
                self.e.mul(d.lane(Y), d.at(X), f.at(W));
                if mode == FogMode::Exp2 {
                    self.e.mul(d.lane(Y), d.at(Y), d.at(Y));
                }
                self.e.mul(d.lane(Y), d.at(Y), scales().at(Z));
                self.e.op(Opcode::Exp, out, &[d.at(Y)]);
            }
        }
        Ok(())
    }
}
