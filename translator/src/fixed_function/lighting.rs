//! D3D9's lighting equation, generated for the active lights' types; every light's and the
//! material's numbers are constants ([`reg::light`], [`reg::MATERIAL_DIFFUSE`]...).

use super::emit::{c, r, Operand, W, X, XYZ, Y, Z};
use super::registers as reg;
use super::vertex::{numbers, Generator};
use super::{LightType, Lighting, MaterialSource};
use crate::bytecode::{Opcode, Usage};

impl Generator<'_> {
    /// The material term `source` of material register `material`.
    fn source(&self, source: MaterialSource, material: usize) -> Operand {
        let vertex = |index: u8, temp: u32| self.find(Usage::Color, index).map(|_| r(temp));
        match source {
            MaterialSource::Color1 => vertex(0, 20),
            MaterialSource::Color2 => vertex(1, 21),
            MaterialSource::Material => None,
        }
        .unwrap_or_else(|| c(material))
    }

    /// D3D9's lighting equation with the active lights (terms per light in
    /// [`Generator::light`]):
    /// - COLOR0.rgb = Emissive + Ambient × (`D3DRS_AMBIENT` + Σ ambient_i·att_i)
    ///   + Diffuse × Σ diffuse_i·att_i·max(N·L_i, 0), COLOR0.a = Diffuse.a;
    /// - COLOR1 = Specular × Σ specular_i·att_i·(N·H_i)^Power where N·L_i > 0 and N·H_i > 0,
    ///   with `D3DRS_SPECULARENABLE`;
    ///
    /// both clamped to [0, 1]; Diffuse, Ambient, Specular and Emissive are the material's
    /// colours or the vertex's (`D3DRS_*MATERIALSOURCE` with `D3DRS_COLORVERTEX`).
    pub(super) fn lighting(&mut self, key: &Lighting) {
        let has_normal = self.find(Usage::Normal, 0).is_some();
        let zero = numbers().at(X);
        self.e.mov(r(10).all(), c(reg::AMBIENT));
        self.e.mov(r(11).all(), zero);
        self.e.mov(r(12).all(), zero);
        if key.local_viewer && key.specular {
            // The normalized eye position (the view vector is its negation).
            self.e.normalize(r(19), r(2), r(19));
        }
        for (i, ty) in key.lights.iter().enumerate() {
            self.light(i, *ty, has_normal, key);
        }
        let [diffuse, ambient, specular, emissive] = key.sources;
        let d = self.source(diffuse, reg::MATERIAL_DIFFUSE);
        let a = self.source(ambient, reg::MATERIAL_AMBIENT);
        let s = self.source(specular, reg::MATERIAL_SPECULAR);
        let e = self.source(emissive, reg::MATERIAL_EMISSIVE);
        self.e.mov(r(13).all(), e);
        self.e.mov(r(14).all(), a);
        self.e.mad(r(13).mask(XYZ), r(14), r(10), r(13));
        self.e.mov(r(14).all(), d);
        self.e.mad(r(13).mask(XYZ), r(14), r(11), r(13));
        self.e.mov(r(13).lane(W), r(14).at(W));
        self.e.sat(Opcode::Mov, r(28).all(), &[r(13)]);
        if key.specular {
            self.e.mov(r(14).all(), s);
            self.e.sat(Opcode::Mul, r(29).all(), &[r(14), r(12)]);
        }
    }

    /// One light's terms, constants at [`reg::light`]`(i)`:
    /// - point and spot: L = normalize(position − e), d = |position − e|, att = 1/(att0 +
    ///   att1·d + att2·d²) within `range` (0 beyond); a spot light multiplies att by 1 where
    ///   ρ = −L·direction > cos(θ/2), 0 where ρ ≤ cos(φ/2), ((ρ − cos(φ/2)) / (cos(θ/2) −
    ///   cos(φ/2)))^falloff between;
    /// - directional: L = −direction, att = 1;
    /// - H = normalize(L − normalize(e)) with `D3DRS_LOCALVIEWER`, else normalize(L − (0, 0,
    ///   1)).
    ///
    /// Without a normal only the ambient term applies. L is `r13`, att `r15.w`.
    fn light(&mut self, i: usize, ty: LightType, has_normal: bool, key: &Lighting) {
        let l = reg::light(i);
        let [diffuse, specular, ambient, position, direction, attenuation, spot] =
            std::array::from_fn(|k| c(l + k));
        let (zero, one) = (numbers().at(X), numbers().at(Y));
        let e = &mut self.e;
        match ty {
            LightType::Directional => {
                e.mov(r(13).mask(XYZ), direction.neg());
                e.mov(r(15).lane(W), one);
            }
            LightType::Point | LightType::Spot => {
                e.add(r(13).all(), position, r(2).neg());
                e.dp3(r(14).lane(X), r(13), r(13));
                e.rsq(r(14).lane(Y), r(14).at(X));
                e.mul(r(14).lane(Z), r(14).at(X), r(14).at(Y));
                e.mul(r(13).mask(XYZ), r(13), r(14).at(Y));
                e.mov(r(15).lane(X), one);
                e.mov(r(15).lane(Y), r(14).at(Z));
                e.mov(r(15).lane(Z), r(14).at(X));
                e.dp3(r(15).lane(W), r(15), attenuation.swz([Y, Z, W, W]));
                e.rcp(r(15).lane(W), r(15).at(W));
                e.op(
                    Opcode::Sge,
                    r(16).lane(X),
                    &[attenuation.at(X), r(14).at(Z)],
                );
                e.mul(r(15).lane(W), r(15).at(W), r(16).at(X));
                if ty == LightType::Spot {
                    e.dp3(r(16).lane(Y), r(13).neg(), direction);
                    e.add(r(16).lane(Z), r(16).at(Y), spot.at(Y).neg());
                    e.sat(Opcode::Mul, r(16).lane(Z), &[r(16).at(Z), spot.at(W)]);
                    e.op(Opcode::Pow, r(16).lane(W), &[r(16).at(Z), spot.at(Z)]);
                    e.slt(r(16).lane(X), spot.at(Y), r(16).at(Y));
                    e.mul(r(16).lane(W), r(16).at(W), r(16).at(X));
                    e.mul(r(15).lane(W), r(15).at(W), r(16).at(W));
                }
            }
        }
        e.mad(r(10).mask(XYZ), ambient, r(15).at(W), r(10));
        if !has_normal {
            return;
        }
        e.sat(Opcode::Dp3, r(16).lane(X), &[r(3), r(13)]);
        e.mul(r(16).lane(Y), r(16).at(X), r(15).at(W));
        e.mad(r(11).mask(XYZ), diffuse, r(16).at(Y), r(11));
        if !key.specular {
            return;
        }
        let viewer = match key.local_viewer {
            true => r(19),
            false => numbers().swz([X, X, Y, Y]),
        };
        e.add(r(17).mask(XYZ), r(13), viewer.neg());
        e.normalize(r(17), r(17), r(18));
        e.sat(Opcode::Dp3, r(18).lane(Y), &[r(3), r(17)]);
        let power = c(reg::MATERIAL_POWER).at(X);
        e.op(Opcode::Pow, r(18).lane(Z), &[r(18).at(Y), power]);
        e.slt(r(18).lane(W), zero, r(16).at(X));
        e.mul(r(18).lane(Z), r(18).at(Z), r(18).at(W));
        e.slt(r(18).lane(W), zero, r(18).at(Y));
        e.mul(r(18).lane(Z), r(18).at(Z), r(18).at(W));
        e.mul(r(18).lane(Z), r(18).at(Z), r(15).at(W));
        e.mad(r(12).all(), specular, r(18).at(Z), r(12));
    }
}
