//! D3D9's texture wrapping (`D3DRS_WRAP0`–`WRAP15`): a wrapped coordinate of a texture
//! coordinate set is interpolated along the shortest way round a cylinder of circumference
//! 1 (from 0.8 to 0.2 through 1.0, not through 0.5), the texture's u, v, w or q treated as
//! an angle (the SDK's "Texture Wrapping").
//!
//! WebGPU interpolates linearly, so each location carrying a wrapped component gets a twin
//! location (Tarini, "Cylindrical and toroidal parameterizations without vertex seams",
//! 2012): the vertex stage writes the location's value `c` at its own location and
//! `fract(c + 0.5) - 0.5` at the twin, a copy whose seam lies at 0.5 instead of at 0 (and
//! whole numbers). A triangle spanning less than half the circle (the shortest way) crosses
//! at most one of the two seams, and the copy that crosses none changes least across the
//! pixel: the pixel stage takes, per wrapped component, the twin where its `fwidth` is
//! smaller than the original's, the original otherwise. The value is then the shortest-way
//! interpolation, up to a whole number (the SDK leaves wrapped coordinates outside 0–1
//! undefined; a `WRAP`-addressed texture reads the same texel), and its derivatives stay
//! continuous across the seam, so mip selection sees no jump there.
//!
//! This module holds the state and the link's twins; `outputs` writes the twins and
//! `pixel_entry` reads them.
//!
//! Set `n`'s bits apply to `TEXCOORDn` (`oT#`/`t#` before 3.0, `dcl_texcoordn` in 3.0), its
//! j-th travelling component taking `D3DWRAPCOORD_j`.

use super::interface::Varying;
use crate::bytecode::Usage;

/// `D3DRS_WRAP0`–`WRAP15`: for each texture coordinate set (index = the `TEXCOORD` usage
/// index), its `D3DWRAPCOORD_0`–`_3` bits (u, v, w, q wrapped). The default wraps nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TextureWrap(pub [u8; 16]);

impl TextureWrap {
    /// The `D3DWRAPCOORD_*` bits of set `index` (none past set 15; bits above 3 ignored).
    pub fn of(&self, index: u8) -> u8 {
        self.0.get(usize::from(index)).map_or(0, |bits| bits & 0xf)
    }

    /// Whether no coordinate wraps.
    pub fn is_none(&self) -> bool {
        (0..16).all(|i| self.of(i) == 0)
    }
}

/// A location carrying wrapped components, and its twin's location.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct WrapTwin {
    pub location: u32,
    /// The twin's location (`fract(c + 0.5) - 0.5` of the location's value).
    pub twin: u32,
    /// The components of the location that wrap (bit `c`: component `c`).
    pub components: u8,
}

/// The twin of a wrapped location has no location left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "texture wrapping (D3DRS_WRAPn) needs location {location} for a twin; {limit} are available"
)]
pub struct NoTwinLocation {
    pub location: u32,
    pub limit: usize,
}

/// The texture coordinate varyings of `varyings` that `wrap` wraps: one twin per location
/// they occupy, placed after the highest location of the map, below `limit`.
pub fn wrap_twins(
    varyings: &[Varying],
    wrap: TextureWrap,
    limit: usize,
) -> Result<Vec<WrapTwin>, NoTwinLocation> {
    let mut twins: Vec<WrapTwin> = Vec::new();
    if wrap.is_none() {
        return Ok(twins);
    }
    let mut next = varyings.iter().map(|v| v.location + 1).max().unwrap_or(0);
    for v in varyings
        .iter()
        .filter(|v| v.semantic.usage == Usage::TexCoord)
    {
        let travelling = (1u8 << v.components.min(4)) - 1;
        let bits = wrap.of(v.semantic.index) & travelling;
        if bits == 0 || v.component > 3 {
            continue;
        }
        let components = (bits << v.component) & 0xf;
        match twins.iter_mut().find(|t| t.location == v.location) {
            Some(t) => t.components |= components,
            None => {
                if next as usize >= limit {
                    return Err(NoTwinLocation {
                        location: next,
                        limit,
                    });
                }
                twins.push(WrapTwin {
                    location: v.location,
                    twin: next,
                    components,
                });
                next += 1;
            }
        }
    }
    Ok(twins)
}

/// The number of `varyings` whose components `wrap` wraps (the twins they need at most).
pub(super) fn wrapped_count(varyings: &[Varying], wrap: TextureWrap) -> usize {
    varyings
        .iter()
        .filter(|v| v.semantic.usage == Usage::TexCoord && wrap.of(v.semantic.index) != 0)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::signature::Semantic;

    fn tc(index: u8, location: u32, component: u8, components: u8) -> Varying {
        Varying {
            component,
            ..Varying::new(Semantic::new(Usage::TexCoord, index), location, components)
        }
    }

    #[test]
    fn each_wrapped_location_gets_one_twin_after_the_map() {
        let mut wrap = TextureWrap::default();
        wrap.0[1] = 0b0001; // TEXCOORD1: u
        wrap.0[2] = 0b1110; // TEXCOORD2: v, w, q; it travels with 2 components
        wrap.0[5] = 0b0011; // not in the map
        let colour = Varying::new(Semantic::new(Usage::Color, 0), 0, 4);
        let map = [colour, tc(0, 1, 0, 2), tc(1, 2, 0, 2), tc(2, 2, 2, 2)];
        let twins = wrap_twins(&map, wrap, 16).expect("fits");
        // TEXCOORD1's u is component 0 of location 2; TEXCOORD2's v is its component 3.
        assert_eq!(
            twins,
            vec![WrapTwin {
                location: 2,
                twin: 3,
                components: 0b1001
            }]
        );
        assert_eq!(wrapped_count(&map, wrap), 2);
        assert!(wrap_twins(&map, TextureWrap::default(), 16)
            .expect("fits")
            .is_empty());
    }

    #[test]
    fn twins_past_the_limit_are_an_error() {
        let mut wrap = TextureWrap::default();
        wrap.0[0] = 1;
        wrap.0[1] = 2;
        let map = [tc(0, 0, 0, 2), tc(1, 1, 0, 2)];
        assert_eq!(
            wrap_twins(&map, wrap, 3),
            Err(NoTwinLocation {
                location: 3,
                limit: 3
            })
        );
        assert_eq!(wrap_twins(&map, wrap, 4).expect("fits").len(), 2);
    }

    #[test]
    fn bits_above_q_and_sets_past_15_wrap_nothing() {
        let mut wrap = TextureWrap::default();
        wrap.0[3] = 0xf0;
        assert!(wrap.is_none());
        assert_eq!(wrap.of(16), 0);
        wrap.0[15] = 0xff;
        assert_eq!(wrap.of(15), 0xf);
    }
}
