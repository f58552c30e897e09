//! ps_1_1–ps_1_4: the value range, and the texture instructions of the era.
//!
//! Rules (SDK instruction pages; see `docs/decisions.md` for the choices):
//! - Registers: `r0` is the colour output; in ps_1_1–1_3 `t#` is both the interpolated
//!   texture coordinate and the register a texture instruction writes, and the sampler of
//!   `tN` is stage N; in ps_1_4 `t#` holds coordinates only and `texld rN` samples stage N.
//!   ps_1_x has no `dcl s#`: the texture type of a stage comes from
//!   [`super::PixelShaderOptions::texture_types`] (2D by default).
//! - Range: every `r#`/`t#` write is clamped to ±`MaxPixelShaderValue`
//!   ([`super::Ps1Range`]); `c#` reads are clamped to [-1, 1]; `v0`/`v1` arrive clamped to
//!   [0, 1] (`pixel_entry`).
//! - Bump mapping (`texbem`, `texbeml`, `bem`) reads stage m's `D3DTSS_BUMPENVMAT00..11`,
//!   `BUMPENVLSCALE`/`LOFFSET` from the uniform at [`super::interface::BUMP_ENV_BINDING`].
//! - ps_1_1–1_3 `tex`/`texbem` honour the stage's `D3DTTFF_PROJECTED` (divided by w)
//!   ([`super::PixelShaderOptions::ps1_texture_transform_flags`], [`projection_divisor`]).
//! - `_dz` / `_dw` (ps_1_4 `texld`/`texcrd` sources) divide `.xy` by `.z` / `.xyz` by `.w`:
//!   `(x/z, y/z, 1, 1)` and `(x/w, y/w, z/w, 1)`.

use super::builder::{Lanes, Lifter, Value};
use super::error::LiftError;
use super::interface::{BUMP_ENV_BINDING, BUMP_ENV_STAGES, PS_CONSTANTS_GROUP};
use super::options::Ps1Range;
use super::state::RegKey;
use crate::bytecode::{Instruction, Opcode, RegisterFile, SrcModifier, TextureType};
use naga::{BinaryOperator as Bo, Expression, Handle, ImageDimension, MathFunction as Mf};

/// `MaxPixelShaderValue` of the ps_1_1–1_3 hardware of the time.
pub(super) const PS1_1_MAX_VALUE: f32 = 1.0;
/// `MaxPixelShaderValue` of typical ps_1_4 hardware.
pub(super) const PS1_4_MAX_VALUE: f32 = 8.0;

/// The register range (±this) of ps_1_`minor` under `range`; `None`: no clamp (`Unclamped`,
/// or a `Max` that is not finite).
pub(super) fn range_limit(range: Ps1Range, minor: u8) -> Option<f32> {
    match range {
        Ps1Range::Hardware if minor >= 4 => Some(PS1_4_MAX_VALUE),
        Ps1Range::Hardware => Some(PS1_1_MAX_VALUE),
        Ps1Range::Max(v) if v.is_finite() => Some(v.abs()),
        Ps1Range::Max(_) | Ps1Range::Unclamped => None,
    }
}

/// `D3DTTFF_PROJECTED`.
pub const TTFF_PROJECTED: u32 = 256;

/// The component a ps_1_1–1_3 projected coordinate is divided by, from the stage's
/// `D3DTSS_TEXTURETRANSFORMFLAGS`: `.w` whenever `D3DTTFF_PROJECTED` is set, whatever the
/// count (Windows, in Wine's test_texture_transform_flags: the fixed-function vertex stage
/// puts the divisor of COUNT2/COUNT3 in w, and a vertex shader's oT.w is used as it is);
/// cube maps are never projected; `None`: not projected.
pub(super) fn projection_divisor(flags: u32, texture: TextureType) -> Option<u8> {
    (flags & TTFF_PROJECTED != 0 && texture != TextureType::Cube).then_some(3)
}

/// The factor of a result shift: `_x2`, `_x4`, `_x8` (1–3) and `_d2`, `_d4`, `_d8` (-1 to
/// -3); `None` for the encodings D3D9 leaves undefined.
pub(super) fn shift_factor(shift: i8) -> Option<f32> {
    match shift {
        0..=3 => Some(f32::from(1u8 << shift)),
        -3..=-1 => Some(1.0 / f32::from(1u8 << shift.unsigned_abs())),
        _ => None,
    }
}

impl Lifter<'_> {
    /// Whether the program is a ps_1_x pixel shader.
    pub(super) fn is_ps1(&self) -> bool {
        let v = self.program.version;
        v.stage == crate::bytecode::Stage::Pixel && v.major == 1
    }

    /// The ps_1_x register range (±this), `None` when unclamped.
    pub(super) fn ps1_limit(&self) -> Option<f32> {
        let range = self.pixel_options().map(|o| o.ps1_range)?;
        range_limit(range, self.program.version.minor)
    }

    /// A ps_1_x register result kept within ±`MaxPixelShaderValue`.
    pub(super) fn ps1_clamp(&mut self, v: Value) -> Value {
        match self.ps1_limit() {
            Some(m) => self.clamp_range(v, m),
            None => v,
        }
    }

    /// A ps_1_x `c#` read, clamped to [-1, 1] (the SDK's constant range; DXVK clamps the
    /// same way, whatever `MaxPixelShaderValue` is).
    pub(super) fn ps1_constant(&mut self, v: Value) -> Value {
        self.clamp_range(v, 1.0)
    }

    fn clamp_range(&mut self, v: Value, m: f32) -> Value {
        let lo = self.float_n(-m, v.n);
        let hi = self.float_n(m, v.n);
        let h = self.math3(Mf::Clamp, v.h, lo.h, hi.h);
        self.finite_if(Value { h, n: v.n }, &[v])
    }

    /// The ps_1_x instructions (`tex` and the texture-addressing family, `texcrd`, ps_1_4
    /// `texld`, `texdepth`, `bem`, `phase`).
    pub(super) fn ps1_instruction(&mut self, inst: &Instruction) -> Result<(), LiftError> {
        use Opcode as O;
        let minor4 = self.program.version.minor >= 4;
        match inst.opcode {
            // `phase` only separates ps_1_4's two phases: registers keep their values.
            O::Phase => Ok(()),
            O::Tex if minor4 => {
                let dst = self.dst(inst)?;
                let coord = self.projected_src(inst, 0)?;
                let texel = self.ps1_sample(dst.reg.index, Value { h: coord, n: 4 })?;
                self.write_texel(inst, texel)
            }
            O::Tex => {
                let dst = self.dst(inst)?;
                let coord = self.ps1_projected_coord(dst.reg.index)?;
                let texel = self.ps1_sample(dst.reg.index, Value { h: coord, n: 4 })?;
                self.write_texel(inst, texel)
            }
            O::TexCoord if minor4 => {
                // texcrd: the coordinate itself, after `_dz`/`_dw`.
                let coord = self.projected_src(inst, 0)?;
                self.write_texel(inst, coord)
            }
            O::TexCoord => {
                // texcoord: (u, v, w, 1) as a colour, clamped to [0, 1].
                let dst = self.dst(inst)?;
                let coord = self.ps1_coord(dst.reg.index)?;
                let xyz = self.pick(Value { h: coord, n: 4 }, &[0, 1, 2]);
                let sat = self.math1_v(Mf::Saturate, xyz);
                let parts = [
                    self.comp(sat.h, 0),
                    self.comp(sat.h, 1),
                    self.comp(sat.h, 2),
                    self.lit_f32(1.0),
                ];
                let v = self.compose4(parts);
                self.write_texel(inst, v)
            }
            O::TexBem | O::TexBemL => self.texbem(inst),
            O::TexReg2Ar | O::TexReg2Gb | O::TexReg2Rgb => {
                let dst = self.dst(inst)?;
                let s = self.src(inst, 0, Lanes::ALL)?;
                let pattern: &[u8] = match inst.opcode {
                    O::TexReg2Ar => &[3, 0],
                    O::TexReg2Gb => &[1, 2],
                    _ => &[0, 1, 2],
                };
                let coord = self.pick(s, pattern);
                let texel = self.ps1_sample(dst.reg.index, coord)?;
                self.write_texel(inst, texel)
            }
            O::TexM3x2Pad | O::TexM3x3Pad => {
                let dst = self.dst(inst)?;
                let d = self.texm_row(inst)?;
                self.ps1.pads.push((dst.reg.index, d));
                Ok(())
            }
            O::TexM3x2Tex | O::TexM3x2Depth => {
                let dst = self.dst(inst)?;
                let v = self.texm_row(inst)?;
                let pads = std::mem::take(&mut self.ps1.pads);
                let [(_, u)] = pads[..] else {
                    return Err(self.internal("texm3x2 without one texm3x2pad"));
                };
                if inst.opcode == O::TexM3x2Depth {
                    // z = u, w = v: depth = z / w (1 when w = 0).
                    return self.write_depth_ratio(u, v);
                }
                let coord = self.compose(&[u, v]);
                let texel = self.ps1_sample(dst.reg.index, coord)?;
                self.write_texel(inst, texel)
            }
            O::TexM3x3Tex | O::TexM3x3Spec | O::TexM3x3VSpec | O::TexM3x3 => self.texm3x3(inst),
            O::TexDp3 | O::TexDp3Tex => {
                let dst = self.dst(inst)?;
                let d = self.texm_row(inst)?;
                if inst.opcode == O::TexDp3 {
                    let v = self.splat(d, 4).h;
                    return self.write_texel(inst, v);
                }
                let zero = self.lit_f32(0.0);
                let coord = self.compose(&[d, zero]);
                let texel = self.ps1_sample(dst.reg.index, coord)?;
                self.write_texel(inst, texel)
            }
            O::TexDepth => {
                // depth = r5.r / r5.g (1 when r5.g = 0).
                let dst = self.dst(inst)?;
                let reg = crate::bytecode::SrcParam::new(dst.reg);
                let v = self.read(&reg, Lanes::of(&[0, 1]))?;
                let x = self.lane(v, 0);
                let y = self.lane(v, 1);
                self.write_depth_ratio(x, y)
            }
            O::Bem => self.bem(inst),
            other => Err(self.internal(format!("{other} is not a ps_1_x instruction"))),
        }
    }

    /// The interpolated coordinate of `t#n` (ps_1_x).
    fn ps1_coord(&mut self, n: u32) -> Result<Handle<Expression>, LiftError> {
        self.ps1
            .coords
            .get(&n)
            .copied()
            .ok_or_else(|| self.internal(format!("t{n} is not an input")))
    }

    /// The texture type stage `stage` samples (ps_1_x: from the options; 2D by default).
    fn ps1_texture_type(&self, stage: u32) -> TextureType {
        match self
            .pixel_options()
            .and_then(|o| o.texture_types.get(stage as usize).copied())
        {
            Some(TextureType::Cube) => TextureType::Cube,
            Some(TextureType::Volume) => TextureType::Volume,
            _ => TextureType::TwoD,
        }
    }

    /// The coordinate of `t#n` for `tex`/`texbem` in ps_1_1–1_3, divided as the stage's
    /// `D3DTTFF_PROJECTED` asks ([`projection_divisor`]).
    fn ps1_projected_coord(&mut self, n: u32) -> Result<Handle<Expression>, LiftError> {
        let coord = self.ps1_coord(n)?;
        let flags = self
            .pixel_options()
            .and_then(|o| o.ps1_texture_transform_flags.get(n as usize).copied())
            .unwrap_or(0);
        let Some(by) = projection_divisor(flags, self.ps1_texture_type(n)) else {
            return Ok(coord);
        };
        // A divisor of 0 samples at 0 (Windows, in Wine's test_texture_transform_flags).
        let d = self.comp(coord, u32::from(by));
        let zero = self.lit_f32(0.0);
        let at_zero = self.bin(Bo::Equal, d, zero);
        let mut parts = [d; 4];
        for (c, slot) in parts.iter_mut().enumerate() {
            let x = self.comp(coord, c as u32);
            let q = self.bin(Bo::Divide, x, d);
            *slot = self.select(at_zero, zero, q);
        }
        Ok(self.compose4(parts))
    }

    /// Source `i` as a `vec4` after a `_dz`/`_dw` modifier (ps_1_4 `texld`, `texcrd`).
    fn projected_src(
        &mut self,
        inst: &Instruction,
        i: usize,
    ) -> Result<Handle<Expression>, LiftError> {
        let mut s = self.src_param(inst, i)?;
        let m = s.modifier;
        if matches!(m, SrcModifier::Dz | SrcModifier::Dw) {
            s.modifier = SrcModifier::None;
        }
        let v = self.read(&s, Lanes::ALL)?.h;
        let by = match m {
            SrcModifier::Dz => 2,
            SrcModifier::Dw => 3,
            _ => return Ok(v),
        };
        let d = self.comp(v, by);
        let one = self.lit_f32(1.0);
        let mut parts = [one; 4];
        for (c, slot) in parts.iter_mut().enumerate().take(by as usize) {
            let x = self.comp(v, c as u32);
            *slot = self.bin(Bo::Divide, x, d);
        }
        Ok(self.compose4(parts))
    }

    /// Sample stage `stage` (ps_1_x: sampler n = stage n) at `coord` (2 or more components;
    /// missing ones read 0): the first 2 components for a 2D texture, 3 for cube and volume.
    fn ps1_sample(&mut self, stage: u32, coord: Value) -> Result<Handle<Expression>, LiftError> {
        let tt = self.ps1_texture_type(stage);
        let (dim, n) = match tt {
            TextureType::Cube => (ImageDimension::Cube, 3u8),
            TextureType::Volume => (ImageDimension::D3, 3),
            TextureType::TwoD | TextureType::Unknown => (ImageDimension::D2, 2),
        };
        self.resources.samplers.insert(stage, tt);
        let read = self.sampler_read(stage, dim);
        if read.is_depth() {
            return Ok(self.depth_sample(stage, read, coord, super::depth::DepthLevel::Implicit));
        }
        let mut parts = Vec::with_capacity(3);
        for c in 0..n {
            parts.push(if c < coord.n {
                self.lane(coord, c)
            } else {
                self.lit_f32(0.0)
            });
        }
        let coordinate = self.compose(&parts).h;
        Ok(self.sample_color(stage, dim, coordinate, n, naga::SampleLevel::Auto))
    }

    /// Write a `vec4` result to the destination's written components.
    fn write_texel(&mut self, inst: &Instruction, v: Handle<Expression>) -> Result<(), LiftError> {
        let dst = self.dst(inst)?;
        let lanes = Lanes::of_mask(dst.mask);
        if lanes.is_empty() {
            return Ok(());
        }
        let r = self.pick(Value { h: v, n: 4 }, lanes.as_slice());
        self.write(&dst, r, inst.predicate.as_ref())
    }

    /// One row of a `texm3x#`/`texdp3`: the coordinate of the destination `t#` dotted with
    /// the source register's `.rgb`.
    fn texm_row(&mut self, inst: &Instruction) -> Result<Handle<Expression>, LiftError> {
        let dst = self.dst(inst)?;
        let coord = self.ps1_coord(dst.reg.index)?;
        let a = self.pick(Value { h: coord, n: 4 }, &[0, 1, 2]);
        let b = self.src(inst, 0, Lanes::of(&[0, 1, 2]))?;
        Ok(self.dot_d3d9(a, b))
    }

    /// `texm3x3tex`, `texm3x3spec`, `texm3x3vspec`, `texm3x3`: the third row, then a sample
    /// at (u, v, w), at its reflection about the eye vector, or (u, v, w, 1) itself.
    fn texm3x3(&mut self, inst: &Instruction) -> Result<(), LiftError> {
        let dst = self.dst(inst)?;
        let w = self.texm_row(inst)?;
        let pads = std::mem::take(&mut self.ps1.pads);
        let [(r0, u), (r1, v)] = pads[..] else {
            return Err(self.internal("texm3x3 without two texm3x3pad"));
        };
        let normal = self.compose(&[u, v, w]);
        let coord = match inst.opcode {
            Opcode::TexM3x3 => {
                let one = self.lit_f32(1.0);
                let value = self.compose4([u, v, w, one]);
                return self.write_texel(inst, value);
            }
            Opcode::TexM3x3Tex => normal,
            _ => {
                let eye = if inst.opcode == Opcode::TexM3x3Spec {
                    self.src(inst, 1, Lanes::of(&[0, 1, 2]))?
                } else {
                    // vspec: the eye vector is the .w of the three rows' coordinates.
                    let mut e = Vec::with_capacity(3);
                    for r in [r0, r1, dst.reg.index] {
                        let c = self.ps1_coord(r)?;
                        e.push(self.comp(c, 3));
                    }
                    self.compose(&e)
                };
                // R = 2 (N·E) / (N·N) N - E
                let ne = self.dot_d3d9(normal, eye);
                let nn = self.dot_d3d9(normal, normal);
                let two = self.lit_f32(2.0);
                let k = self.bin(Bo::Multiply, two, ne);
                let k = self.bin(Bo::Divide, k, nn);
                let k = self.splat(k, 3);
                let scaled = self.bin_v(Bo::Multiply, k, normal);
                self.bin_v(Bo::Subtract, scaled, eye)
            }
        };
        let texel = self.ps1_sample(dst.reg.index, coord)?;
        self.write_texel(inst, texel)
    }

    /// Stage m's bump-environment matrix `(M00, M01, M10, M11)` and `(LSCALE, LOFFSET, 0,
    /// 0)`.
    fn bump_env(
        &mut self,
        stage: u32,
    ) -> Result<(Handle<Expression>, Handle<Expression>), LiftError> {
        if stage >= BUMP_ENV_STAGES {
            return Err(self.internal(format!("bump environment of stage {stage}")));
        }
        let ty = self.vec4_array(2 * BUMP_ENV_STAGES);
        let g = self.resource_global(
            RegKey::BumpEnv,
            "bump_env",
            ty,
            naga::AddressSpace::Uniform,
            PS_CONSTANTS_GROUP,
            BUMP_ENV_BINDING,
        );
        let base = self.global(g);
        let m = self.emit(Expression::AccessIndex {
            base,
            index: 2 * stage,
        });
        let l = self.emit(Expression::AccessIndex {
            base,
            index: 2 * stage + 1,
        });
        Ok((self.load(m), self.load(l)))
    }

    /// `(a + M00 * r + M10 * g, b + M01 * r + M11 * g)`: the bump-mapped pair of `texbem` and
    /// `bem` for stage `stage`'s matrix.
    fn bump(
        &mut self,
        stage: u32,
        base: [Handle<Expression>; 2],
        rg: [Handle<Expression>; 2],
    ) -> Result<(Handle<Expression>, Handle<Expression>), LiftError> {
        let (m, _) = self.bump_env(stage)?;
        let mut out = [base[0], base[1]];
        for (k, slot) in out.iter_mut().enumerate() {
            // u: M00 * r + M10 * g; v: M01 * r + M11 * g.
            let m_r = self.comp(m, k as u32);
            let m_g = self.comp(m, 2 + k as u32);
            let a = self.bin(Bo::Multiply, m_r, rg[0]);
            let b = self.bin(Bo::Multiply, m_g, rg[1]);
            let s = self.bin(Bo::Add, a, b);
            *slot = self.bin(Bo::Add, *slot, s);
        }
        Ok((out[0], out[1]))
    }

    /// `texbem tm, tn` / `texbeml`: sample stage m at its coordinate displaced by the bump
    /// matrix times `tn.rg`; `texbeml` scales `.rgb` by `tn.b * LSCALE + LOFFSET`.
    fn texbem(&mut self, inst: &Instruction) -> Result<(), LiftError> {
        let dst = self.dst(inst)?;
        let m = dst.reg.index;
        let s = self.src(inst, 0, Lanes::of(&[0, 1, 2]))?;
        // A projected stage divides its coordinate, not the displacement (Wine's
        // `shader_glsl_texbem`).
        let coord = self.ps1_projected_coord(m)?;
        let base = [self.comp(coord, 0), self.comp(coord, 1)];
        let rg = [self.lane(s, 0), self.lane(s, 1)];
        let (u, v) = self.bump(m, base, rg)?;
        let z = self.comp(coord, 2);
        let c = self.compose(&[u, v, z]);
        let texel = self.ps1_sample(m, c)?;
        if inst.opcode != Opcode::TexBemL {
            return self.write_texel(inst, texel);
        }
        let (_, lum) = self.bump_env(m)?;
        let scale = self.comp(lum, 0);
        let offset = self.comp(lum, 1);
        let b = self.lane(s, 2);
        let l = self.bin(Bo::Multiply, b, scale);
        let l = self.bin(Bo::Add, l, offset);
        let mut parts = [l; 4];
        for (c, slot) in parts.iter_mut().enumerate() {
            let t = self.comp(texel, c as u32);
            *slot = if c < 3 {
                self.bin(Bo::Multiply, t, l)
            } else {
                t
            };
        }
        let v = self.compose4(parts);
        self.write_texel(inst, v)
    }

    /// ps_1_4 `bem dst.rg, src0, src1`: `dst.r = src0.r + M00 * src1.r + M10 * src1.g`,
    /// `dst.g = src0.g + M01 * src1.r + M11 * src1.g`, with stage dst's matrix.
    fn bem(&mut self, inst: &Instruction) -> Result<(), LiftError> {
        let dst = self.dst(inst)?;
        let a = self.src(inst, 0, Lanes::of(&[0, 1]))?;
        let b = self.src(inst, 1, Lanes::of(&[0, 1]))?;
        let base = [self.lane(a, 0), self.lane(a, 1)];
        let rg = [self.lane(b, 0), self.lane(b, 1)];
        let (r, g) = self.bump(dst.reg.index, base, rg)?;
        let lanes = Lanes::of_mask(dst.mask);
        let mut parts = Vec::new();
        for &c in lanes.as_slice() {
            parts.push(match c {
                0 => r,
                1 => g,
                _ => return Err(self.internal("bem writes only .rg")),
            });
        }
        if parts.is_empty() {
            return Ok(());
        }
        let v = self.compose(&parts);
        self.write(&dst, v, inst.predicate.as_ref())
    }

    /// Write `z / w` (1 when w = 0), within [0, 1], as the pixel's depth (`texm3x2depth`,
    /// `texdepth`).
    fn write_depth_ratio(
        &mut self,
        z: Handle<Expression>,
        w: Handle<Expression>,
    ) -> Result<(), LiftError> {
        let zero = self.lit_f32(0.0);
        let one = self.lit_f32(1.0);
        let ratio = self.bin(Bo::Divide, z, w);
        let ratio = self.math1(Mf::Saturate, ratio);
        let is_zero = self.bin(Bo::Equal, w, zero);
        let depth = self.select(is_zero, one, ratio);
        let p = self.pixel_register_pointer(RegisterFile::DepthOut, 0);
        let x = self.emit(Expression::AccessIndex { base: p, index: 0 });
        self.store(x, depth);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hardware_range_is_one_before_ps_1_4_and_eight_from_it() {
        assert_eq!(range_limit(Ps1Range::Hardware, 1), Some(1.0));
        assert_eq!(range_limit(Ps1Range::Hardware, 3), Some(1.0));
        assert_eq!(range_limit(Ps1Range::Hardware, 4), Some(8.0));
        assert_eq!(range_limit(Ps1Range::Max(-2.0), 1), Some(2.0));
        assert_eq!(range_limit(Ps1Range::Max(f32::INFINITY), 4), None);
        assert_eq!(range_limit(Ps1Range::Max(f32::NAN), 4), None);
        assert_eq!(range_limit(Ps1Range::Unclamped, 1), None);
    }

    #[test]
    fn projection_divides_by_w_except_on_cube_maps() {
        let p = TTFF_PROJECTED;
        let two_d = TextureType::TwoD;
        assert_eq!(projection_divisor(0, two_d), None);
        assert_eq!(projection_divisor(3, two_d), None);
        assert_eq!(projection_divisor(p, two_d), Some(3));
        assert_eq!(projection_divisor(p | 1, two_d), Some(3));
        assert_eq!(projection_divisor(p | 2, two_d), Some(3));
        assert_eq!(projection_divisor(p | 3, TextureType::Volume), Some(3));
        assert_eq!(projection_divisor(u32::MAX, two_d), Some(3));
        assert_eq!(projection_divisor(p | 4, TextureType::Cube), None);
    }

    #[test]
    fn shifts_multiply_by_powers_of_two() {
        let got: Vec<_> = (-4i8..=4).map(shift_factor).collect();
        assert_eq!(
            got,
            vec![
                None,
                Some(0.125),
                Some(0.25),
                Some(0.5),
                Some(1.0),
                Some(2.0),
                Some(4.0),
                Some(8.0),
                None
            ]
        );
    }
}
