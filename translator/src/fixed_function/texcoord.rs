//! Texture coordinate outputs: generation (`D3DTSS_TCI_*`) and texture transforms.

use super::emit::{c, r, v, W, X, XY, XYZ, Y, Z};
use super::registers as reg;
use super::vertex::{numbers, Generator};
use super::FixedFunctionError;
use crate::bytecode::{Usage, WriteMask};

/// `D3DTTFF_PROJECTED`.
const PROJECTED: u32 = 256;
/// Texture coordinate generation modes (`D3DTSS_TCI_*` >> 16).
const TCI_PASSTHRU: u32 = 0;
const TCI_CAMERASPACENORMAL: u32 = 1;
const TCI_CAMERASPACEPOSITION: u32 = 2;
const TCI_CAMERASPACEREFLECTIONVECTOR: u32 = 3;
const TCI_SPHEREMAP: u32 = 4;

impl Generator<'_> {
    /// Texture coordinate output n from stage n's `D3DTSS_TEXCOORDINDEX` (set in the low
    /// word, generation in the high word) and `D3DTSS_TEXTURETRANSFORMFLAGS`:
    /// - the attribute: PASSTHRU the vertex's set, CAMERASPACENORMAL n, CAMERASPACEPOSITION
    ///   e, CAMERASPACEREFLECTIONVECTOR r = I − 2(n·I)n with I = normalize(e), SPHEREMAP
    ///   (r.x/m + ½, r.y/m + ½, 0, 1) with m = 2·|r − (0, 0, 1)| (Windows, in Wine's
    ///   test_generated_texcoords; OpenGL's sphere map adds (0, 0, 1));
    /// - COUNT2–COUNT4: the attribute, with 1 in its first missing component and 0 after,
    ///   times `D3DTS_TEXTUREn`; components from COUNT on are 0; with PROJECTED (COUNT2,
    ///   COUNT3) w is the last counted component;
    /// - otherwise (DISABLE, COUNT1, other values): the attribute as it is, missing
    ///   components 0; with PROJECTED w is its last component (what Windows gives: Wine's
    ///   test_texture_transform_flags).
    ///
    /// POSITIONT vertices pass the set through (missing components (0, 0, 0, 1)).
    pub(super) fn texcoord(&mut self, n: u8) -> Result<(), FixedFunctionError> {
        let state = &self.d.state;
        let (tci, flags) = state.texcoords[usize::from(n)];
        let set = (tci & 0xffff) as u8;
        let generation = tci >> 16;
        let count = flags & !PROJECTED;
        let projected = flags & PROJECTED != 0;
        let pretransformed = state.viewport.is_some();
        let transform = (2..=4).contains(&count) && !pretransformed;
        let zero = numbers().at(X);
        let one_or_zero = if transform { numbers().at(Y) } else { zero };
        let t = r(22);
        let components: u8 = match generation {
            _ if pretransformed => {
                let Some(input) = self.find(Usage::TexCoord, set) else {
                    return Ok(());
                };
                let out = self.output(Usage::TexCoord, n, WriteMask::ALL)?;
                self.e.mov(out.all(), v(input));
                return Ok(());
            }
            TCI_PASSTHRU => {
                let Some(input) = self.find(Usage::TexCoord, set) else {
                    return Ok(());
                };
                let components = (self.d.declaration.elements().get(input))
                    .and_then(|e| e.ty.info())
                    .map_or(4, |i| i.components);
                self.e.mov(t.all(), v(input));
                for lane in components..4 {
                    let value = if lane == components {
                        one_or_zero
                    } else {
                        zero
                    };
                    self.e.mov(t.lane(lane), value);
                }
                components
            }
            TCI_CAMERASPACENORMAL | TCI_CAMERASPACEPOSITION => {
                let source = match generation {
                    TCI_CAMERASPACENORMAL => r(3),
                    _ => r(2),
                };
                self.e.mov(t.mask(XYZ), source);
                self.e.mov(t.lane(W), one_or_zero);
                3
            }
            TCI_CAMERASPACEREFLECTIONVECTOR | TCI_SPHEREMAP => {
                let i = r(23);
                self.e.normalize(i, r(2), i);
                self.e.dp3(i.lane(W), r(3), i);
                self.e.add(i.lane(W), i.at(W), i.at(W));
                self.e.mad(t.mask(XYZ), r(3), i.at(W).neg(), i);
                if generation == TCI_SPHEREMAP {
                    let m = r(24);
                    self.e
                        .add(m.mask(XYZ), t, numbers().swz([X, X, Y, Y]).neg());
                    self.e.dp3(m.lane(X), m, m);
                    self.e.rsq(m.lane(X), m.at(X));
                    self.e.mul(m.lane(X), m.at(X), numbers().at(Z));
                    self.e.mad(t.mask(XY), t, m.at(X), numbers().at(Z));
                    self.e.mov(t.lane(Z), zero);
                    self.e.mov(t.lane(W), numbers().at(Y));
                    4
                } else {
                    self.e.mov(t.lane(W), one_or_zero);
                    3
                }
            }
            other => {
                return Err(FixedFunctionError::Unsupported(format!(
                    "D3DTSS_TEXCOORDINDEX generation mode {other:#x}"
                )))
            }
        };
        let out = self.output(Usage::TexCoord, n, WriteMask::ALL)?;
        if transform {
            let count = count as u8;
            let matrix = reg::texture_matrix(usize::from(n));
            let m = r(25);
            for lane in X..=W {
                self.e.dp4(m.lane(lane), t, c(matrix + usize::from(lane)));
            }
            for lane in count..4 {
                self.e.mov(m.lane(lane), zero);
            }
            if projected && count < 4 {
                self.e.mov(m.lane(W), m.at(count - 1));
            }
            self.e.mov(out.all(), m);
        } else {
            if projected {
                let last = components.clamp(1, 4) - 1;
                self.e.mov(t.lane(W), t.at(last));
            }
            self.e.mov(out.all(), t);
        }
        Ok(())
    }
}
