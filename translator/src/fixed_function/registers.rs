//! The float-constant layout of the fixed-function vertex stage: what the generated program
//! reads ([`super::VertexDescription`]) and what the device fills from its state at draw time
//! (and for `ProcessVertices`), one fact for both sides. Each matrix is stored as its four
//! columns, so that `dp4 r.x, v, c[col]` is `(v · M).x` for a row vector v.

/// `World · View` (`D3DTS_WORLDMATRIX(0)`), columns.
pub const WORLD_VIEW: usize = 0;
/// `D3DTS_PROJECTION`, columns.
pub const PROJECTION: usize = 4;
/// The normal matrix (upper 3×3 of the transposed inverse of `World · View`), 3 columns.
pub const NORMAL_MATRIX: usize = 8;
/// x: `D3DRS_TWEENFACTOR`.
pub const MISC: usize = 11;
/// `D3DTS_WORLDMATRIX(i) · View` for non-indexed vertex blending, i = 0..=3.
pub const BLEND_WORLD_VIEW: [usize; 4] = [WORLD_VIEW, 12, 16, 20];
/// `D3DRS_AMBIENT` as (r, g, b, a).
pub const AMBIENT: usize = 24;
/// `D3DMATERIAL9`'s colours and (power, 0, 0, 0).
pub const MATERIAL_DIFFUSE: usize = 25;
pub const MATERIAL_AMBIENT: usize = 26;
pub const MATERIAL_SPECULAR: usize = 27;
pub const MATERIAL_EMISSIVE: usize = 28;
pub const MATERIAL_POWER: usize = 29;
/// (`FOGSTART`, `FOGEND`, 1/(end − start) or 0 when they are equal, `FOGDENSITY`).
pub const FOG: usize = 30;
/// `World · View · Projection`, columns.
pub const WORLD_VIEW_PROJECTION: usize = 32;
/// `D3DTS_TEXTURE0..7`, columns.
const TEXTURE_MATRICES: usize = 36;
/// The active lights, [`LIGHT_REGISTERS`] each (see [`light`]).
const LIGHTS: usize = TEXTURE_MATRICES + 32;
/// Registers per light.
pub const LIGHT_REGISTERS: usize = 7;
/// Indexed vertex blending: `D3DTS_WORLDMATRIX(i) · View` at 256 + 4i (software vertex
/// processing's constant range).
pub const INDEXED_WORLD_VIEW: usize = 256;
/// Float constants under hardware vertex processing.
pub const HARDWARE_REGISTERS: usize = 256;
/// Float constants under software vertex processing (indexed vertex blending's 256 matrices).
pub const SOFTWARE_REGISTERS: usize = 8192;
/// Literals the program defines itself (`def`), above everything the device fills:
/// (0, 1, ½, 2), (4, 1020, −log₂ e, 255), and POSITIONT's viewport mapping.
pub(crate) const LITERAL_NUMBERS: u32 = 240;
pub(crate) const LITERAL_SCALES: u32 = 241;
pub(crate) const LITERAL_VIEWPORT: u32 = 252;

/// Texture matrix n's first column.
pub const fn texture_matrix(n: usize) -> usize {
    TEXTURE_MATRICES + 4 * n
}

/// Light i's registers: diffuse, specular, ambient, eye-space position (w 1), eye-space
/// direction (normalized), (range, att0, att1, att2), (cos(θ/2), cos(φ/2), falloff,
/// 1/(cos(θ/2) − cos(φ/2))).
pub const fn light(i: usize) -> usize {
    LIGHTS + LIGHT_REGISTERS * i
}
