//! Vertex texture fetch on the CPU: the textures and sampler states of the four vertex
//! sampler stages (`D3DVERTEXTEXTURESAMPLER0..3`, `s0..s3` of vs_3_0) and `texldl`'s
//! sampling, computed as the GPU path computes it. The backend maps D3D9's sampler states
//! onto a wgpu sampler (`d3d9_backend::device::sampler_descriptor`): `MAXMIPLEVEL` becomes the lowest
//! LOD clamp, `MIPFILTER = NONE` clamps the LOD to exactly `MAXMIPLEVEL`, `NONE` and `POINT`
//! are nearest mip selection. The sampling below is Vulkan's texel filtering for that sampler
//! (spec, "Texel Filtering"), step by step:
//!
//! 1. **LOD**: λ = `coord.w` clamped to [`MAXMIPLEVEL`, 32] (to exactly `MAXMIPLEVEL` under
//!    `MIPFILTER = NONE`). A NaN LOD reads as the lowest clamp (implementation-defined on a
//!    GPU).
//! 2. **Filter**: magnification (`MAGFILTER`) where λ ≤ 0, else minification (`MINFILTER`).
//! 3. **Level**: d = clamp(λ, 0, levels − 1). `NONE`/`POINT`: level ⌈d + ½⌉ − 1 (Vulkan's
//!    preferred rounding: halves go to the more detailed level); `LINEAR`: levels ⌊d⌋ and
//!    ⌊d⌋ + 1 blended by d − ⌊d⌋.
//! 4. **Texels**: u = s·width (v, w alike). Point: texel ⌊u⌋; linear: texels ⌊u − ½⌋ and
//!    ⌊u − ½⌋ + 1 weighted by the fraction of u − ½, on every axis (bilinear, trilinear for
//!    volumes). Weights are exact here; GPUs quantise them (8 bits of subtexel precision is
//!    the D3D9-era norm), so linear results agree within a stated tolerance only.
//! 5. **Addressing** of each integer texel coordinate i on an axis of n texels: `WRAP`
//!    i mod n, `MIRROR` every other repetition flipped, `CLAMP` clamp(i, 0, n − 1).
//! 6. **Cube maps**: the direction's largest component picks the face and the face
//!    coordinates by D3D9's cube map table (the same as Vulkan's); ties go to x, then y. Face
//!    coordinates are clamped to the edge; a linear filter reaches across an edge to the
//!    adjacent face (Vulkan's seamless cube filtering), and a texel beyond a corner is the
//!    average of the three texels meeting there.
//!
//! D3D9's rules for stages without a usable texture: a stage with no texture reads
//! (0, 0, 0, 1) (Wine's `unbound_sampler_test`, DXVK); a texture of another type than the
//! shader's `dcl_2d`/`dcl_cube`/`dcl_volume` reads (0, 0, 0, 0) (native D3D9, DXVK #4513).

use crate::bytecode::TextureType;

/// The four vertex sampler stages of vs_3_0.
pub const VERTEX_SAMPLERS: usize = 4;

/// What an unbound sampler stage reads: opaque black.
pub const UNBOUND_TEXEL: [f32; 4] = [0.0, 0.0, 0.0, 1.0];
/// What a texture of the wrong type reads: transparent black.
pub const MISMATCHED_TEXEL: [f32; 4] = [0.0; 4];

/// The resource type of a texture (`IDirect3DTexture9`, `IDirect3DCubeTexture9`,
/// `IDirect3DVolumeTexture9`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextureKind {
    TwoD,
    /// Six square faces per level in `D3DCUBEMAP_FACES` order (+X, −X, +Y, −Y, +Z, −Z).
    Cube,
    Volume,
}

impl TextureKind {
    /// The texture type a shader's `dcl_*` sampler declaration needs for this texture.
    pub fn texture_type(self) -> TextureType {
        match self {
            TextureKind::TwoD => TextureType::TwoD,
            TextureKind::Cube => TextureType::Cube,
            TextureKind::Volume => TextureType::Volume,
        }
    }
}

/// Why a [`Texture`] could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TextureError {
    #[error("a texture of {width}x{height}x{depth} texels: every size must be at least 1")]
    Empty { width: u32, height: u32, depth: u32 },
    #[error("a {kind:?} texture of depth {depth}: only volumes have a depth other than 1")]
    Depth { kind: TextureKind, depth: u32 },
    #[error("a cube texture of {width}x{height} texels: cube faces are square")]
    NotSquare { width: u32, height: u32 },
    #[error("{levels} mip levels: a texture has from 1 to {most} (its full chain)")]
    Levels { levels: usize, most: usize },
    #[error("mip level {level} holds {got} texels; its extent needs {expected}")]
    LevelSize {
        level: usize,
        expected: usize,
        got: usize,
    },
}

/// A texture on the CPU: every mip level as RGBA `f32` texels (a format's channels as the
/// shader reads them: unorm bytes divided by 255, missing channels filled as D3D9 fills them).
#[derive(Debug, Clone, PartialEq)]
pub struct Texture {
    kind: TextureKind,
    size: [u32; 3],
    levels: Vec<Vec<[f32; 4]>>,
}

impl Texture {
    /// A texture of `kind` whose level 0 is `size` = [width, height, depth] (depth 1 unless a
    /// volume). `levels[m]` holds level m: `max(width >> m, 1)` × `max(height >> m, 1)` texels
    /// row by row from the top, then the six faces of a cube or `max(depth >> m, 1)` slices
    /// of a volume one after another.
    pub fn new(
        kind: TextureKind,
        size: [u32; 3],
        levels: Vec<Vec<[f32; 4]>>,
    ) -> Result<Self, TextureError> {
        let [width, height, depth] = size;
        if width == 0 || height == 0 || depth == 0 {
            return Err(TextureError::Empty {
                width,
                height,
                depth,
            });
        }
        if kind != TextureKind::Volume && depth != 1 {
            return Err(TextureError::Depth { kind, depth });
        }
        if kind == TextureKind::Cube && width != height {
            return Err(TextureError::NotSquare { width, height });
        }
        let most = 32 - width.max(height).max(depth).leading_zeros() as usize;
        if levels.is_empty() || levels.len() > most {
            return Err(TextureError::Levels {
                levels: levels.len(),
                most,
            });
        }
        let texture = Texture { kind, size, levels };
        for (level, data) in texture.levels.iter().enumerate() {
            let [w, h, layers] = texture.extent(level);
            let expected = w as usize * h as usize * layers as usize;
            if data.len() != expected {
                return Err(TextureError::LevelSize {
                    level,
                    expected,
                    got: data.len(),
                });
            }
        }
        Ok(texture)
    }

    pub fn kind(&self) -> TextureKind {
        self.kind
    }

    /// [width, height, depth] of level 0.
    pub fn size(&self) -> [u32; 3] {
        self.size
    }

    pub fn level_count(&self) -> usize {
        self.levels.len()
    }

    /// The texels of mip `level` (layout as [`Texture::new`] takes them).
    pub fn level(&self, level: usize) -> Option<&[[f32; 4]]> {
        self.levels.get(level).map(Vec::as_slice)
    }

    /// Width, height and layers (6 faces of a cube, the slices of a volume) of `level`.
    pub fn extent(&self, level: usize) -> [u32; 3] {
        let shrink = |n: u32| n.checked_shr(level as u32).unwrap_or(0).max(1);
        let [w, h, d] = self.size;
        let layers = match self.kind {
            TextureKind::TwoD => 1,
            TextureKind::Cube => 6,
            TextureKind::Volume => shrink(d),
        };
        [shrink(w), shrink(h), layers]
    }

    /// Texel (x, y) of `layer` (face or slice) of `level`; coordinates already addressed.
    fn texel(&self, level: usize, x: u32, y: u32, layer: u32) -> [f32; 4] {
        let [w, h, _] = self.extent(level);
        let k = (layer as usize * h as usize + y as usize) * w as usize + x as usize;
        self.levels
            .get(level)
            .and_then(|l| l.get(k))
            .copied()
            .unwrap_or(MISMATCHED_TEXEL)
    }
}

/// `D3DSAMP_MAGFILTER` / `D3DSAMP_MINFILTER` (`POINT` is the default).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Filter {
    /// `D3DTEXF_POINT`: the nearest texel.
    #[default]
    Point,
    /// `D3DTEXF_LINEAR`: bilinear (trilinear in a volume) between texels.
    Linear,
}

/// `D3DSAMP_MIPFILTER` (`NONE` is the default).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum MipFilter {
    /// `D3DTEXF_NONE`: level `MAXMIPLEVEL` whatever LOD `texldl` asks for.
    #[default]
    None,
    /// `D3DTEXF_POINT`: the level nearest the LOD.
    Point,
    /// `D3DTEXF_LINEAR`: the two levels around the LOD blended.
    Linear,
}

/// `D3DSAMP_ADDRESSU/V/W` (`WRAP` is the default). `BORDER` and `MIRRORONCE` are not
/// offered, as the GPU path does not offer them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Address {
    /// `D3DTADDRESS_WRAP`: the texture repeats.
    #[default]
    Wrap,
    /// `D3DTADDRESS_MIRROR`: every other repetition flipped.
    Mirror,
    /// `D3DTADDRESS_CLAMP`: the edge texels continue.
    Clamp,
}

/// The sampler states of one stage. `Default` is D3D9's: `WRAP` in u, v and w, `POINT`
/// min and mag filters, mip filter `NONE`, `MAXMIPLEVEL` 0.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SamplerStates {
    /// `D3DSAMP_ADDRESSU`, `_ADDRESSV`, `_ADDRESSW`.
    pub address: [Address; 3],
    pub mag_filter: Filter,
    pub min_filter: Filter,
    pub mip_filter: MipFilter,
    /// `D3DSAMP_MAXMIPLEVEL`: the most detailed level ever read.
    pub max_mip_level: u32,
}

/// A texture bound to a vertex sampler stage with its sampler states.
#[derive(Debug, Clone, Copy)]
pub struct BoundTexture<'a> {
    pub texture: &'a Texture,
    pub states: SamplerStates,
}

/// The four vertex sampler stages (`SetTexture(D3DVERTEXTEXTURESAMPLER0 + n, …)` and
/// `SetSamplerState` of the same stage); `None` is a stage without a texture.
#[derive(Debug, Clone, Copy, Default)]
pub struct VertexTextures<'a> {
    pub stages: [Option<BoundTexture<'a>>; VERTEX_SAMPLERS],
}

impl<'a> VertexTextures<'a> {
    /// No texture on any stage (every `texldl` reads [`UNBOUND_TEXEL`]).
    pub fn none() -> Self {
        Self::default()
    }

    /// `texture` with `states` on stage `stage` (0..4); other stages unchanged. A stage past
    /// the four is ignored, as the runtime refuses it.
    pub fn with(mut self, stage: usize, texture: &'a Texture, states: SamplerStates) -> Self {
        if let Some(slot) = self.stages.get_mut(stage) {
            *slot = Some(BoundTexture { texture, states });
        }
        self
    }

    /// What `texldl` from `s#stage`, declared as `declared`, returns for `coord` (xyz:
    /// coordinates or cube direction, w: LOD).
    pub fn fetch(&self, stage: u32, declared: TextureType, coord: [f32; 4]) -> [f32; 4] {
        match self.stages.get(stage as usize).copied().flatten() {
            None => UNBOUND_TEXEL,
            Some(b) if b.texture.kind.texture_type() != declared => MISMATCHED_TEXEL,
            Some(b) => sample(b.texture, &b.states, coord),
        }
    }
}

/// `texldl`'s sample of `texture` with `states` at `coord` (xyz: coordinates or cube
/// direction, w: LOD), by the steps of the module documentation.
pub fn sample(texture: &Texture, states: &SamplerStates, coord: [f32; 4]) -> [f32; 4] {
    let base = states.max_mip_level as f32;
    let top = match states.mip_filter {
        MipFilter::None => base,
        MipFilter::Point | MipFilter::Linear => base.max(32.0),
    };
    let lod = coord[3];
    let lambda = if lod.is_nan() {
        base
    } else {
        lod.clamp(base, top)
    };
    let filter = if lambda > 0.0 {
        states.min_filter
    } else {
        states.mag_filter
    };
    let last = texture.level_count().saturating_sub(1);
    let d = lambda.clamp(0.0, last as f32);
    let xyz = [coord[0], coord[1], coord[2]];
    match states.mip_filter {
        MipFilter::None | MipFilter::Point => {
            let level = ((d + 0.5).ceil() - 1.0).max(0.0) as usize;
            sample_level(texture, states, level.min(last), filter, xyz)
        }
        MipFilter::Linear => {
            let hi = d.floor();
            let delta = d - hi;
            let hi = (hi as usize).min(last);
            let a = sample_level(texture, states, hi, filter, xyz);
            if delta == 0.0 {
                return a;
            }
            let b = sample_level(texture, states, (hi + 1).min(last), filter, xyz);
            lerp(a, b, delta)
        }
    }
}

fn lerp(a: [f32; 4], b: [f32; 4], t: f32) -> [f32; 4] {
    [0, 1, 2, 3].map(|c| a[c] * (1.0 - t) + b[c] * t)
}

/// One level of `texture` sampled with `filter`.
fn sample_level(
    texture: &Texture,
    states: &SamplerStates,
    level: usize,
    filter: Filter,
    xyz: [f32; 3],
) -> [f32; 4] {
    let [w, h, layers] = texture.extent(level);
    match texture.kind {
        TextureKind::TwoD | TextureKind::Volume => {
            let depth = if texture.kind == TextureKind::Volume {
                layers
            } else {
                1
            };
            let sizes = [w, h, depth];
            let axes = if texture.kind == TextureKind::Volume {
                3
            } else {
                2
            };
            // Per axis: the texels and weights the filter reads.
            let taps: Vec<[(u32, f32); 2]> = (0..axes)
                .map(|k| taps(xyz[k], sizes[k], states.address[k], filter))
                .collect();
            let mut sum = [0.0f32; 4];
            let corners = 1usize << axes;
            for corner in 0..corners {
                let pick = |k: usize| taps.get(k).map_or((0, 1.0), |t| t[(corner >> k) & 1]);
                let (x, wx) = pick(0);
                let (y, wy) = pick(1);
                let (z, wz) = if axes == 3 { pick(2) } else { (0, 1.0) };
                let weight = wx * wy * wz;
                if weight == 0.0 {
                    continue;
                }
                let t = texture.texel(level, x, y, z);
                for c in 0..4 {
                    sum[c] += weight * t[c];
                }
            }
            sum
        }
        TextureKind::Cube => {
            let (face, s, t) = cube_face(xyz);
            cube_sample(texture, level, face, s * w as f32, t * h as f32, filter)
        }
    }
}

/// The texels (already addressed) and weights on one axis of `n` texels for coordinate `s`.
/// Point filtering gives one texel of weight 1 (the second has weight 0).
fn taps(s: f32, n: u32, address: Address, filter: Filter) -> [(u32, f32); 2] {
    let u = s * n as f32;
    match filter {
        Filter::Point => {
            let i = address_texel(floor_index(u), n, address);
            [(i, 1.0), (i, 0.0)]
        }
        Filter::Linear => {
            let u = u - 0.5;
            let i0 = floor_index(u);
            let alpha = u - u.floor();
            let alpha = if alpha.is_finite() { alpha } else { 0.0 };
            [
                (address_texel(i0, n, address), 1.0 - alpha),
                (address_texel(i0.saturating_add(1), n, address), alpha),
            ]
        }
    }
}

/// ⌊u⌋ as an integer texel coordinate (saturating; NaN gives 0).
fn floor_index(u: f32) -> i64 {
    u.floor() as i64
}

/// Vulkan's wrapping of integer texel coordinate `i` on an axis of `n` texels.
fn address_texel(i: i64, n: u32, address: Address) -> u32 {
    let n = i64::from(n.max(1));
    let addressed = match address {
        Address::Wrap => i.rem_euclid(n),
        Address::Mirror => {
            let t = i.rem_euclid(2 * n);
            if t >= n {
                2 * n - 1 - t
            } else {
                t
            }
        }
        Address::Clamp => i.clamp(0, n - 1),
    };
    addressed as u32
}

/// The cube face of direction (x, y, z) and its face coordinates (s, t) in 0..1: D3D9's cube
/// map table (the same as Vulkan's), faces in `D3DCUBEMAP_FACES` order. A zero direction has
/// no face (a GPU answers its own way); here it is face +X with NaN coordinates, which read
/// texel (0, 0).
pub fn cube_face([x, y, z]: [f32; 3]) -> (u32, f32, f32) {
    let (face, sc, tc, ma) = if x.abs() >= y.abs() && x.abs() >= z.abs() {
        if x < 0.0 {
            (1, z, -y, x)
        } else {
            (0, -z, -y, x)
        }
    } else if y.abs() >= z.abs() {
        if y < 0.0 {
            (3, x, -z, y)
        } else {
            (2, x, z, y)
        }
    } else if z < 0.0 {
        (5, -x, -y, z)
    } else {
        (4, x, -y, z)
    };
    let ma = ma.abs();
    (face, 0.5 * (sc / ma + 1.0), 0.5 * (tc / ma + 1.0))
}

/// The direction (not normalised) through face coordinates (sc, tc) in −1..1 of `face`: the
/// inverse of [`cube_face`] with a major axis of length 1.
fn cube_direction(face: u32, sc: f32, tc: f32) -> [f32; 3] {
    match face {
        0 => [1.0, -tc, -sc],
        1 => [-1.0, -tc, sc],
        2 => [sc, 1.0, tc],
        3 => [sc, -1.0, -tc],
        4 => [sc, -tc, 1.0],
        _ => [-sc, -tc, -1.0],
    }
}

/// Texel (i, j) of `face` on a level of `n`×`n` faces, where i or j may lie one texel past
/// an edge: such a texel is the adjacent face's texel at that place (seamless filtering);
/// past a corner, the average of the three texels meeting there.
fn cube_texel(texture: &Texture, level: usize, face: u32, i: i64, j: i64, n: u32) -> [f32; 4] {
    let n_i = i64::from(n);
    let inside = |k: i64| (0..n_i).contains(&k);
    match (inside(i), inside(j)) {
        (true, true) => texture.texel(level, i as u32, j as u32, face),
        (false, false) => {
            let ci = i.clamp(0, n_i - 1);
            let cj = j.clamp(0, n_i - 1);
            let three = [
                texture.texel(level, ci as u32, cj as u32, face),
                cube_texel(texture, level, face, i, cj, n),
                cube_texel(texture, level, face, ci, j, n),
            ];
            [0, 1, 2, 3].map(|c| (three[0][c] + three[1][c] + three[2][c]) / 3.0)
        }
        _ => {
            // The centre of the texel on this face's plane, extended past its edge, seen
            // as a direction: the face it falls on and its texel there.
            let centre = |k: i64| 2.0 * (k as f32 + 0.5) / n as f32 - 1.0;
            let (other, s, t) = cube_face(cube_direction(face, centre(i), centre(j)));
            let clamp = |c: f32| address_texel(floor_index(c * n as f32), n, Address::Clamp);
            texture.texel(level, clamp(s), clamp(t), other)
        }
    }
}

/// One level of a cube texture sampled at texel coordinates (u, v) of `face`.
fn cube_sample(
    texture: &Texture,
    level: usize,
    face: u32,
    u: f32,
    v: f32,
    filter: Filter,
) -> [f32; 4] {
    let [n, _, _] = texture.extent(level);
    let last = i64::from(n) - 1;
    match filter {
        Filter::Point => texture.texel(
            level,
            floor_index(u).clamp(0, last) as u32,
            floor_index(v).clamp(0, last) as u32,
            face,
        ),
        Filter::Linear => {
            // Coordinates clamped to the face first, so at most one texel lies past an edge.
            let (u, v) = (u.clamp(0.0, n as f32), v.clamp(0.0, n as f32));
            let (u, v) = (u - 0.5, v - 0.5);
            let (i0, j0) = (floor_index(u), floor_index(v));
            let frac = |x: f32| {
                let f = x - x.floor();
                if f.is_finite() {
                    f
                } else {
                    0.0
                }
            };
            let (a, b) = (frac(u), frac(v));
            let mut sum = [0.0f32; 4];
            for (di, dj, weight) in [
                (0, 0, (1.0 - a) * (1.0 - b)),
                (1, 0, a * (1.0 - b)),
                (0, 1, (1.0 - a) * b),
                (1, 1, a * b),
            ] {
                if weight == 0.0 {
                    continue;
                }
                let t = cube_texel(texture, level, face, i0 + di, j0 + dj, n);
                for c in 0..4 {
                    sum[c] += weight * t[c];
                }
            }
            sum
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A texture whose texel (x, y, layer) of level m is `f(m, x, y, layer)`.
    fn texture(
        kind: TextureKind,
        size: [u32; 3],
        levels: usize,
        f: impl Fn(u32, u32, u32, u32) -> [f32; 4],
    ) -> Texture {
        let probe = Texture {
            kind,
            size,
            levels: vec![Vec::new(); levels],
        };
        let data = (0..levels)
            .map(|m| {
                let [w, h, layers] = probe.extent(m);
                let mut level = Vec::new();
                for layer in 0..layers {
                    for y in 0..h {
                        for x in 0..w {
                            level.push(f(m as u32, x, y, layer));
                        }
                    }
                }
                level
            })
            .collect();
        Texture::new(kind, size, data).expect("a valid texture")
    }

    /// 4x4, 3 levels: texel (x, y) of level m is (x, y, m, 1 + x + 4y + 16m).
    fn grid() -> Texture {
        texture(TextureKind::TwoD, [4, 4, 1], 3, |m, x, y, _| {
            [
                x as f32,
                y as f32,
                m as f32,
                (1 + x + 4 * y + 16 * m) as f32,
            ]
        })
    }

    fn states(address: Address, filter: Filter, mip: MipFilter) -> SamplerStates {
        SamplerStates {
            address: [address; 3],
            mag_filter: filter,
            min_filter: filter,
            mip_filter: mip,
            max_mip_level: 0,
        }
    }

    #[test]
    fn textures_are_checked() {
        let t = |kind, size, levels| Texture::new(kind, size, levels);
        assert_eq!(
            t(TextureKind::TwoD, [2, 2, 1], vec![vec![[0.0; 4]; 3]]),
            Err(TextureError::LevelSize {
                level: 0,
                expected: 4,
                got: 3
            })
        );
        assert_eq!(
            t(TextureKind::Cube, [2, 1, 1], vec![vec![[0.0; 4]; 12]]),
            Err(TextureError::NotSquare {
                width: 2,
                height: 1
            })
        );
        assert_eq!(
            t(TextureKind::TwoD, [2, 2, 2], vec![vec![[0.0; 4]; 8]]),
            Err(TextureError::Depth {
                kind: TextureKind::TwoD,
                depth: 2
            })
        );
        // A 2x2 texture has 2 levels at most; a cube level holds 6 faces.
        assert_eq!(
            t(
                TextureKind::TwoD,
                [2, 2, 1],
                vec![vec![[0.0; 4]; 4], vec![[0.0; 4]], vec![[0.0; 4]]]
            ),
            Err(TextureError::Levels { levels: 3, most: 2 })
        );
        assert!(t(
            TextureKind::Cube,
            [2, 2, 1],
            vec![vec![[0.0; 4]; 24], vec![[0.0; 4]; 6]]
        )
        .is_ok());
        assert!(matches!(
            t(TextureKind::Volume, [0, 1, 1], vec![]),
            Err(TextureError::Empty { .. })
        ));
    }

    #[test]
    fn point_sampling_and_addressing() {
        let g = grid();
        let wrap = states(Address::Wrap, Filter::Point, MipFilter::None);
        // Texel centres; 1.625 wraps to 0.625 (texel 2), -0.125 to 0.875 (texel 3).
        assert_eq!(
            sample(&g, &wrap, [0.625, 0.375, 0.0, 0.0]),
            [2.0, 1.0, 0.0, 7.0]
        );
        assert_eq!(
            sample(&g, &wrap, [1.625, -0.125, 0.0, 0.0]),
            [2.0, 3.0, 0.0, 15.0]
        );
        // Mirror: u = 4.5 is texel 4, the first of the flipped copy: texel 3; -0.5 → 0;
        // 2.125 (u = 8.5) starts the next unflipped copy: texel 0; 1.625 (v = 6.5): texel 1.
        let mirror = states(Address::Mirror, Filter::Point, MipFilter::None);
        assert_eq!(
            sample(&g, &mirror, [1.125, -0.125, 0.0, 0.0])[..2],
            [3.0, 0.0]
        );
        assert_eq!(
            sample(&g, &mirror, [2.125, 1.625, 0.0, 0.0])[..2],
            [0.0, 1.0]
        );
        let clamp = states(Address::Clamp, Filter::Point, MipFilter::None);
        assert_eq!(sample(&g, &clamp, [-3.0, 5.0, 0.0, 0.0])[..2], [0.0, 3.0]);
        // Mixed per axis.
        let mixed = SamplerStates {
            address: [Address::Clamp, Address::Wrap, Address::Wrap],
            ..wrap
        };
        assert_eq!(
            sample(&g, &mixed, [1.625, 1.625, 0.0, 0.0])[..2],
            [3.0, 2.0]
        );
    }

    #[test]
    fn mip_level_selection() {
        let g = grid();
        let point = states(Address::Wrap, Filter::Point, MipFilter::Point);
        let level = |s: &SamplerStates, lod: f32| sample(&g, s, [0.9, 0.9, 0.0, lod])[2];
        // Nearest level, halves to the more detailed one; clamped to the chain.
        assert_eq!(level(&point, 0.5), 0.0);
        assert_eq!(level(&point, 0.6), 1.0);
        assert_eq!(level(&point, 1.5), 1.0);
        assert_eq!(level(&point, 7.0), 2.0);
        assert_eq!(level(&point, -2.0), 0.0);
        assert_eq!(level(&point, f32::NAN), 0.0);
        // MIPFILTER = NONE ignores the LOD; MAXMIPLEVEL is the most detailed level.
        let none = states(Address::Wrap, Filter::Point, MipFilter::None);
        assert_eq!(level(&none, 2.0), 0.0);
        let none1 = SamplerStates {
            max_mip_level: 1,
            ..none
        };
        assert_eq!(level(&none1, 0.0), 1.0);
        assert_eq!(level(&none1, 2.0), 1.0);
        let point1 = SamplerStates {
            max_mip_level: 1,
            ..point
        };
        assert_eq!(level(&point1, 0.0), 1.0);
        assert_eq!(level(&point1, 2.0), 2.0);
        let none9 = SamplerStates {
            max_mip_level: 9,
            ..none
        };
        assert_eq!(level(&none9, 0.0), 2.0);
        // Linear mip filter: level 0 texel (3, 3) w = 16 and level 1 texel (1, 1) w = 22
        // blended 3:1 at LOD 0.25.
        let linear = states(Address::Wrap, Filter::Point, MipFilter::Linear);
        assert_eq!(
            sample(&g, &linear, [0.9, 0.9, 0.0, 0.25])[3],
            16.0 * 0.75 + 22.0 * 0.25
        );
        assert_eq!(
            sample(&g, &linear, [0.9, 0.9, 0.0, 5.0])[3],
            1.0 + 2.0 * 16.0
        );
    }

    #[test]
    fn linear_filtering_and_mag_min_choice() {
        // 2x2: red = x + 2y.
        let t = texture(TextureKind::TwoD, [2, 2, 1], 1, |_, x, y, _| {
            [(x + 2 * y) as f32, 0.0, 0.0, 1.0]
        });
        let clamp = states(Address::Clamp, Filter::Linear, MipFilter::None);
        assert_eq!(
            sample(&t, &clamp, [0.5, 0.5, 0.0, 0.0]),
            [1.5, 0.0, 0.0, 1.0]
        );
        // u - ½ = 0.25: a quarter of texel 1.
        assert_eq!(sample(&t, &clamp, [0.375, 0.25, 0.0, 0.0])[0], 0.25);
        // At s = 0 the left tap is texel -1: wrapped to texel 1, clamped to texel 0.
        assert_eq!(sample(&t, &clamp, [0.0, 0.25, 0.0, 0.0])[0], 0.0);
        let wrap = states(Address::Wrap, Filter::Linear, MipFilter::None);
        assert_eq!(sample(&t, &wrap, [0.0, 0.25, 0.0, 0.0])[0], 0.5);
        // λ ≤ 0 magnifies (MAGFILTER), λ > 0 minifies (MINFILTER).
        let mag_linear = SamplerStates {
            min_filter: Filter::Point,
            mip_filter: MipFilter::Point,
            ..clamp
        };
        assert_eq!(sample(&t, &mag_linear, [0.5, 0.5, 0.0, 0.0])[0], 1.5);
        assert_eq!(sample(&t, &mag_linear, [0.5, 0.5, 0.0, 0.25])[0], 3.0);
    }

    #[test]
    fn volume_trilinear() {
        // 2x2x2: red = x + 2y + 4z.
        let t = texture(TextureKind::Volume, [2, 2, 2], 1, |_, x, y, z| {
            [(x + 2 * y + 4 * z) as f32, 0.0, 0.0, 0.0]
        });
        let point = states(Address::Wrap, Filter::Point, MipFilter::None);
        assert_eq!(sample(&t, &point, [0.75, 0.25, 0.75, 0.0])[0], 5.0);
        assert_eq!(sample(&t, &point, [0.75, 0.25, 1.25, 0.0])[0], 1.0);
        let clamp = states(Address::Clamp, Filter::Linear, MipFilter::None);
        assert_eq!(sample(&t, &clamp, [0.5, 0.5, 0.5, 0.0])[0], 3.5);
        assert_eq!(sample(&t, &clamp, [0.25, 0.25, 0.5, 0.0])[0], 2.0);
    }

    #[test]
    fn cube_faces_and_seams() {
        // 2x2 faces: red = 10 face + x + 2y.
        let t = texture(TextureKind::Cube, [2, 2, 1], 1, |_, x, y, face| {
            [(10 * face + x + 2 * y) as f32, 0.0, 0.0, 0.0]
        });
        let point = states(Address::Wrap, Filter::Point, MipFilter::None);
        let red = |s: &SamplerStates, d: [f32; 3]| sample(&t, s, [d[0], d[1], d[2], 0.0])[0];
        // D3D9's table: +X (s, t) = (-z, -y), −X (z, -y), +Y (x, z), −Y (x, -z), +Z (x, -y),
        // −Z (-x, -y), each over the major axis.
        assert_eq!(red(&point, [2.0, 1.0, 1.0]), 0.0);
        assert_eq!(red(&point, [-2.0, -1.0, 1.0]), 10.0 + 1.0 + 2.0);
        assert_eq!(red(&point, [1.0, 2.0, -1.0]), 21.0);
        assert_eq!(red(&point, [1.0, -2.0, -1.0]), 30.0 + 1.0 + 2.0);
        assert_eq!(red(&point, [-1.0, 1.0, 2.0]), 40.0);
        assert_eq!(red(&point, [-1.0, 1.0, -2.0]), 51.0);
        assert_eq!(cube_face([0.5, -1.0, 0.5]), (3, 0.75, 0.25));
        // Linear at the top edge of +X, halfway across: the two top texels of +X and the two
        // texels of +Y's right column that border it, a quarter each.
        let linear = states(Address::Wrap, Filter::Linear, MipFilter::None);
        let want = (0.0 + 1.0 + (20.0 + 1.0 + 2.0) + (20.0 + 1.0)) / 4.0;
        assert_eq!(red(&linear, [1.0, 1.0, 0.0]), want);
        // The centre of a face reads its four texels alike.
        assert_eq!(red(&linear, [0.0, 0.0, 3.0]), 40.0 + 1.5);
        // Past the corner of +Z at s = t = 0: this face's corner, −X's and +Y's.
        let corner = red(&linear, [-1.0, 1.0, 1.0]);
        assert!(corner.is_finite());
    }

    #[test]
    fn unbound_and_mismatched_stages() {
        let g = grid();
        let textures = VertexTextures::none().with(1, &g, SamplerStates::default());
        let at = [0.375, 0.125, 0.0, 0.0];
        assert_eq!(textures.fetch(0, TextureType::TwoD, at), UNBOUND_TEXEL);
        assert_eq!(
            textures.fetch(1, TextureType::TwoD, at),
            [1.0, 0.0, 0.0, 2.0]
        );
        assert_eq!(textures.fetch(1, TextureType::Cube, at), MISMATCHED_TEXEL);
        assert_eq!(textures.fetch(7, TextureType::TwoD, at), UNBOUND_TEXEL);
    }
}
