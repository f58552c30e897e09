//! Vertex texture fetch (`texldl` from `s0..s3` of vs_3_0) in the reference interpreter
//! against D3D9's sampling rules computed here, not with the interpreter's code: the SDK's
//! texel addressing (`u·width`, point: texel ⌊u⌋, linear: texels ⌊u − ½⌋ and ⌊u − ½⌋ + 1
//! weighted by the fraction), `WRAP`/`MIRROR`/`CLAMP` written from their definitions
//! (repetitions of the texture, every other one flipped, the edge texel continued), mip
//! selection from `texldl`'s LOD with `MAXMIPLEVEL` and `MIPFILTER`, magnification at
//! LOD ≤ 0, and the cube map face table of the SDK ("Cubic Environment Mapping") with
//! seamless filtering across the faces' edges.
//!
//! Texel values are a non-linear hash of (level, x, y, layer), so a wrong texel or a wrong
//! weight shows in the sum; expected values agree within 1e-5 (sums of products rounded in
//! another order).

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use d3d9_translator::asm::assemble;
use d3d9_translator::bytecode::{Stage, TextureType, Usage};
use d3d9_translator::check::{check, DeviceCaps};
use d3d9_translator::interp::texture::{cube_face, sample, MISMATCHED_TEXEL, UNBOUND_TEXEL};
use d3d9_translator::interp::{
    Address, Constants, Filter, Interpreter, MipFilter, SamplerStates, Texture, TextureError,
    TextureKind, VertexTextures,
};
use d3d9_translator::lift::FloatMode;
use d3d9_translator::signature::Semantic;

/// Texel (x, y) of layer (cube face or volume slice) of level m: four unrelated values.
fn texel(m: u32, x: u32, y: u32, layer: u32) -> [f32; 4] {
    let h = (x * 7 + y * 13 + layer * 29 + m * 31 + x * y * 3) % 23;
    [
        h as f32 / 22.0,
        (x + 1) as f32 * 0.5 + (y * y) as f32,
        (layer * 10 + m * 100 + y) as f32,
        1.0 + ((x * 5 + layer * 3 + m) % 7) as f32 * 0.125,
    ]
}

/// max(n >> level, 1), as D3D9 sizes each mip level.
fn shrink(n: u32, level: u32) -> u32 {
    let mut n = n;
    for _ in 0..level {
        n /= 2;
    }
    n.max(1)
}

/// [width, height, layers] of `level`.
fn extent(kind: TextureKind, size: [u32; 3], level: u32) -> [u32; 3] {
    let layers = match kind {
        TextureKind::TwoD => 1,
        TextureKind::Cube => 6,
        TextureKind::Volume => shrink(size[2], level),
    };
    [shrink(size[0], level), shrink(size[1], level), layers]
}

/// A texture of `levels` levels whose texels are [`texel`], laid out as `Texture::new` says
/// (rows from the top, then faces or slices).
fn make(kind: TextureKind, size: [u32; 3], levels: u32) -> Texture {
    let data = (0..levels)
        .map(|m| {
            let [w, h, layers] = extent(kind, size, m);
            let mut level = Vec::new();
            for layer in 0..layers {
                for y in 0..h {
                    for x in 0..w {
                        level.push(texel(m, x, y, layer));
                    }
                }
            }
            level
        })
        .collect();
    Texture::new(kind, size, data).expect("a valid texture")
}

/// Texel `i` of an axis of `n` texels under `mode`, from the definitions: `WRAP` repeats the
/// texture, `MIRROR` repeats it with every other copy (the odd ones, counting the copy at
/// 0..n as copy 0) flipped, `CLAMP` continues the edge texels.
fn address(i: i64, n: u32, mode: Address) -> u32 {
    let n = i64::from(n);
    let copy = if i >= 0 { i / n } else { -((-i - 1) / n) - 1 };
    let within = i - copy * n;
    let t = match mode {
        Address::Wrap => within,
        Address::Mirror if copy % 2 == 0 => within,
        Address::Mirror => n - 1 - within,
        Address::Clamp => i.max(0).min(n - 1),
    };
    u32::try_from(t).expect("an addressed texel")
}

/// The texels and weights a filter reads on one axis of `n` texels at coordinate `s`
/// (texel coordinate u = s·n in single precision, as the shader's floats).
fn axis(s: f32, n: u32, mode: Address, filter: Filter) -> Vec<(u32, f32)> {
    let u = s * n as f32;
    match filter {
        Filter::Point => vec![(address(u.floor() as i64, n, mode), 1.0)],
        Filter::Linear => {
            let u = u - 0.5;
            let i = u.floor();
            let a = u - i;
            vec![
                (address(i as i64, n, mode), 1.0 - a),
                (address(i as i64 + 1, n, mode), a),
            ]
        }
    }
}

/// One level of a 2D or volume texture, by the sum over the filter's texels.
fn expected_flat(
    kind: TextureKind,
    size: [u32; 3],
    level: u32,
    states: &SamplerStates,
    filter: Filter,
    s: [f32; 3],
) -> [f32; 4] {
    let [w, h, d] = extent(kind, size, level);
    let xs = axis(s[0], w, states.address[0], filter);
    let ys = axis(s[1], h, states.address[1], filter);
    let zs = if kind == TextureKind::Volume {
        axis(s[2], d, states.address[2], filter)
    } else {
        vec![(0, 1.0)]
    };
    let mut sum = [0.0f32; 4];
    for &(z, wz) in &zs {
        for &(y, wy) in &ys {
            for &(x, wx) in &xs {
                let t = texel(level, x, y, z);
                for c in 0..4 {
                    sum[c] += wx * wy * wz * t[c];
                }
            }
        }
    }
    sum
}

/// The SDK's cube map table: the face of the direction's largest component (ties to x, then
/// y) and (sc, tc, ma); face coordinates s = (sc/|ma| + 1)/2, t = (tc/|ma| + 1)/2.
fn face_of(d: [f32; 3]) -> (u32, f32, f32) {
    let [x, y, z] = d;
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    let (face, sc, tc, ma) = if ax >= ay && ax >= az {
        if x >= 0.0 {
            (0, -z, -y, ax)
        } else {
            (1, z, -y, ax)
        }
    } else if ay >= az {
        if y >= 0.0 {
            (2, x, z, ay)
        } else {
            (3, x, -z, ay)
        }
    } else if z >= 0.0 {
        (4, x, -y, az)
    } else {
        (5, -x, -y, az)
    };
    (face, (sc / ma + 1.0) / 2.0, (tc / ma + 1.0) / 2.0)
}

/// The point on the unit cube of `face` at face coordinates (sc, tc) in −1..1 (beyond for
/// the texels past an edge): the table above solved for the direction with |ma| = 1.
fn point_on(face: u32, sc: f32, tc: f32) -> [f32; 3] {
    match face {
        0 => [1.0, -tc, -sc],
        1 => [-1.0, -tc, sc],
        2 => [sc, 1.0, tc],
        3 => [sc, -1.0, -tc],
        4 => [sc, -tc, 1.0],
        5 => [-sc, -tc, -1.0],
        _ => panic!("face {face}"),
    }
}

/// Texel (i, j) of `face` of an n×n level, i or j possibly one past an edge: past one edge,
/// the texel of the face that the texel centre's direction falls on; past a corner, the mean
/// of the three texels meeting there.
fn cube_tap(level: u32, face: u32, i: i64, j: i64, n: u32) -> [f32; 4] {
    let last = i64::from(n) - 1;
    let inside = |k: i64| (0..=last).contains(&k);
    if inside(i) && inside(j) {
        return texel(level, i as u32, j as u32, face);
    }
    if !inside(i) && !inside(j) {
        let (ci, cj) = (i.clamp(0, last), j.clamp(0, last));
        let three = [
            texel(level, ci as u32, cj as u32, face),
            cube_tap(level, face, i, cj, n),
            cube_tap(level, face, ci, j, n),
        ];
        return [0, 1, 2, 3].map(|c| (three[0][c] + three[1][c] + three[2][c]) / 3.0);
    }
    let centre = |k: i64| (k as f32 + 0.5) / n as f32 * 2.0 - 1.0;
    let (other, s, t) = face_of(point_on(face, centre(i), centre(j)));
    let index = |c: f32| ((c * n as f32).floor() as i64).clamp(0, last) as u32;
    texel(level, index(s), index(t), other)
}

/// One level of a cube texture at direction `d`.
fn expected_cube(size: u32, level: u32, filter: Filter, d: [f32; 3]) -> [f32; 4] {
    let n = shrink(size, level);
    let (face, s, t) = face_of(d);
    let last = i64::from(n) - 1;
    let (u, v) = (s * n as f32, t * n as f32);
    match filter {
        Filter::Point => texel(
            level,
            (u.floor() as i64).clamp(0, last) as u32,
            (v.floor() as i64).clamp(0, last) as u32,
            face,
        ),
        Filter::Linear => {
            let u = u.clamp(0.0, n as f32) - 0.5;
            let v = v.clamp(0.0, n as f32) - 0.5;
            let (i, j) = (u.floor(), v.floor());
            let (a, b) = (u - i, v - j);
            let (i, j) = (i as i64, j as i64);
            let mut sum = [0.0f32; 4];
            for (di, dj, w) in [
                (0, 0, (1.0 - a) * (1.0 - b)),
                (1, 0, a * (1.0 - b)),
                (0, 1, (1.0 - a) * b),
                (1, 1, a * b),
            ] {
                let t = cube_tap(level, face, i + di, j + dj, n);
                for c in 0..4 {
                    sum[c] += w * t[c];
                }
            }
            sum
        }
    }
}

/// `texldl` at `coord` (w: LOD): the level(s) and the filter from the LOD, then the level
/// sample. `MAXMIPLEVEL` is the most detailed level read; `MIPFILTER = NONE` reads it
/// whatever the LOD; `POINT` the nearest level (a tie to the more detailed one), `LINEAR`
/// the two around the LOD blended; the filter is `MAGFILTER` at LOD ≤ 0, else `MINFILTER`.
fn expected(
    kind: TextureKind,
    size: [u32; 3],
    levels: u32,
    states: &SamplerStates,
    coord: [f32; 4],
) -> [f32; 4] {
    let most_detailed = states.max_mip_level as f32;
    let lod = match states.mip_filter {
        _ if coord[3].is_nan() => most_detailed,
        MipFilter::None => most_detailed,
        MipFilter::Point | MipFilter::Linear => coord[3].max(most_detailed),
    };
    let filter = if lod <= 0.0 {
        states.mag_filter
    } else {
        states.min_filter
    };
    let last = (levels - 1) as f32;
    let d = lod.max(0.0).min(last);
    let at = |level: u32| {
        let s = [coord[0], coord[1], coord[2]];
        match kind {
            TextureKind::Cube => expected_cube(size[0], level, filter, s),
            _ => expected_flat(kind, size, level, states, filter, s),
        }
    };
    let below = d.floor();
    let fraction = d - below;
    match states.mip_filter {
        MipFilter::None | MipFilter::Point => {
            let nearest = if fraction <= 0.5 { below } else { below + 1.0 };
            at(nearest.min(last) as u32)
        }
        MipFilter::Linear => {
            let a = at(below as u32);
            let b = at((below + 1.0).min(last) as u32);
            [0, 1, 2, 3].map(|c| a[c] * (1.0 - fraction) + b[c] * fraction)
        }
    }
}

fn assert_close(got: [f32; 4], want: [f32; 4], what: &dyn Fn() -> String) {
    for (g, w) in got.iter().zip(want) {
        assert!(
            (g - w).abs() <= 1e-5 * w.abs().max(1.0),
            "{}: got {got:?}, expected {want:?}",
            what()
        );
    }
}

const ADDRESSES: [Address; 3] = [Address::Wrap, Address::Mirror, Address::Clamp];
const FILTERS: [Filter; 2] = [Filter::Point, Filter::Linear];
const MIPS: [MipFilter; 3] = [MipFilter::None, MipFilter::Point, MipFilter::Linear];

/// Sampler states to sweep: every address mode (and mixes per axis), every filter pair,
/// every mip filter, `MAXMIPLEVEL` 0, 1 and past the chain.
fn all_states() -> Vec<SamplerStates> {
    let mut out = Vec::new();
    let addresses = ADDRESSES.iter().map(|&a| [a; 3]).chain([
        [Address::Clamp, Address::Mirror, Address::Wrap],
        [Address::Mirror, Address::Wrap, Address::Clamp],
        [Address::Wrap, Address::Clamp, Address::Mirror],
    ]);
    for address in addresses {
        for mag_filter in FILTERS {
            for min_filter in FILTERS {
                for mip_filter in MIPS {
                    for max_mip_level in [0, 1, 7] {
                        out.push(SamplerStates {
                            address,
                            mag_filter,
                            min_filter,
                            mip_filter,
                            max_mip_level,
                        });
                    }
                }
            }
        }
    }
    out
}

const LODS: [f32; 11] = [
    -1.0,
    0.0,
    0.25,
    0.5,
    0.75,
    1.0,
    1.3,
    1.5,
    1.9,
    40.0,
    f32::NAN,
];

/// Texture coordinates: texel centres and edges, between them, outside 0..1 on both sides
/// (several repetitions, for the mirror's odd and even copies).
const COORDS: [f32; 12] = [
    0.0, 0.1, 0.3, 0.5, 0.62, 0.9, 1.0, 1.2, -0.15, -0.7, -1.35, 2.45,
];

fn sweep(kind: TextureKind, size: [u32; 3], levels: u32) {
    let texture = make(kind, size, levels);
    let states = all_states();
    let mut count = 0;
    for (k, st) in states.iter().enumerate() {
        for (n, &lod) in LODS.iter().enumerate() {
            // A varied subset of coordinates per state and LOD keeps the sweep short.
            for step in 0..6 {
                let pick = |axis: usize| COORDS[(k * 5 + n * 3 + step * (axis * 2 + 1)) % 12];
                let coord = [pick(0), pick(1), pick(2), lod];
                let got = sample(&texture, st, coord);
                let want = expected(kind, size, levels, st, coord);
                assert_close(got, want, &|| {
                    format!("{kind:?} {size:?} {st:?} at {coord:?}")
                });
                count += 1;
            }
        }
    }
    assert!(count > 1000);
}

#[test]
fn two_d_textures_sample_by_the_definitions() {
    // Non-square and not a power of two: level 1 is 2x1, level 2 1x1.
    sweep(TextureKind::TwoD, [5, 3, 1], 3);
    sweep(TextureKind::TwoD, [2, 4, 1], 3);
}

#[test]
fn volume_textures_sample_by_the_definitions() {
    sweep(TextureKind::Volume, [3, 2, 4], 3);
    sweep(TextureKind::Volume, [2, 2, 2], 2);
}

/// Directions onto every face, near its edges and corners (the linear filter's taps past
/// them read the adjacent faces), and on the ties between faces.
fn directions() -> Vec<[f32; 3]> {
    let mut out = Vec::new();
    let near = [-0.95f32, -0.6, -0.1, 0.3, 0.8, 0.99];
    for face in 0..6 {
        for &a in &near {
            for &b in &near {
                out.push(point_on(face, a, b));
            }
        }
    }
    out.extend([
        [1.0, 1.0, 0.0],
        [-1.0, 1.0, 1.0],
        [0.0, -2.0, 2.0],
        [0.5, 0.5, -0.5],
        [3.0, -0.5, 0.25],
    ]);
    out
}

#[test]
fn cube_textures_sample_by_the_definitions() {
    let texture = make(TextureKind::Cube, [4, 4, 1], 3);
    for filter in FILTERS {
        for mip_filter in MIPS {
            for (max_mip_level, lod) in [(0, 0.0), (1, 0.0), (0, 1.6), (0, 0.4), (0, 9.0)] {
                let states = SamplerStates {
                    mag_filter: filter,
                    min_filter: filter,
                    mip_filter,
                    max_mip_level,
                    ..SamplerStates::default()
                };
                for d in directions() {
                    let coord = [d[0], d[1], d[2], lod];
                    let got = sample(&texture, &states, coord);
                    let want = expected(TextureKind::Cube, [4, 4, 1], 3, &states, coord);
                    assert_close(got, want, &|| format!("{states:?} at {coord:?}"));
                }
            }
        }
    }
}

/// The face table by hand on a 2x2 cube, one direction per face and quadrant: texel
/// (⌊2s⌋, ⌊2t⌋).
#[test]
fn cube_faces_follow_the_sdk_table() {
    // (direction, face, s, t): +X s = -z/x, t = -y/x; −X s = z/|x|, t = -y/|x|; +Y s = x/y,
    // t = z/y; −Y s = x/|y|, t = -z/|y|; +Z s = x/z, t = -y/z; −Z s = -x/|z|, t = -y/|z|,
    // each mapped from -1..1 to 0..1.
    let cases: [([f32; 3], u32, f32, f32); 8] = [
        ([4.0, 1.0, -2.0], 0, 0.75, 0.375),
        ([-4.0, 1.0, -2.0], 1, 0.25, 0.375),
        ([1.0, 4.0, -2.0], 2, 0.625, 0.25),
        ([1.0, -4.0, -2.0], 3, 0.625, 0.75),
        ([1.0, -2.0, 4.0], 4, 0.625, 0.75),
        ([1.0, -2.0, -4.0], 5, 0.375, 0.75),
        // Ties: x before y and z, y before z.
        ([2.0, -2.0, 2.0], 0, 0.0, 1.0),
        ([0.0, -2.0, 2.0], 3, 0.5, 0.0),
    ];
    for (d, face, s, t) in cases {
        assert_eq!(cube_face(d), (face, s, t), "{d:?}");
    }
    let texture = make(TextureKind::Cube, [2, 2, 1], 1);
    let point = SamplerStates::default();
    for (d, face, s, t) in cases {
        let want = texel(
            0,
            ((2.0 * s) as u32).min(1),
            ((2.0 * t) as u32).min(1),
            face,
        );
        assert_eq!(
            sample(&texture, &point, [d[0], d[1], d[2], 0.0]),
            want,
            "{d:?}"
        );
    }
    // A zero direction has no face: documented as face +X's texel (0, 0).
    assert_eq!(sample(&texture, &point, [0.0; 4]), texel(0, 0, 0, 0));
}

/// A texel of a cube level and its weight: (face, x, y, weight).
type Tap = (u32, u32, u32, f32);

/// Seams by hand on a 2x2 cube (linear): an eighth of a face from an edge, the filter's
/// row or column past the edge is the adjacent face's texels along that edge. Each case sits
/// at 3/8 along the edge, so the taps weigh (3/4 or 1/4 along) × (3/4 inside, 1/4 past).
#[test]
fn linear_cube_filtering_crosses_each_edge() {
    let texture = make(TextureKind::Cube, [2, 2, 1], 1);
    let linear = SamplerStates {
        mag_filter: Filter::Linear,
        min_filter: Filter::Linear,
        ..SamplerStates::default()
    };
    let (big, mid, small) = (0.5625, 0.1875, 0.0625);
    // (direction, [(face, x, y, weight)]); faces +X 0, −X 1, +Y 2, −Y 3, +Z 4, −Z 5.
    let cases: [([f32; 3], [Tap; 4]); 7] = [
        // +X at (s, t) = (3/8, 1/8): its top edge (y = +1) is +Y's right column (x = +1);
        // +X's left texel (z > 0) meets +Y's bottom row (t = z).
        (
            [1.0, 0.75, 0.25],
            [
                (0, 0, 0, big),
                (0, 1, 0, mid),
                (2, 1, 1, mid),
                (2, 1, 0, small),
            ],
        ),
        // −X at (3/8, 7/8): its bottom edge (y = −1) is −Y's left column (x = −1).
        (
            [-1.0, -0.75, -0.25],
            [
                (1, 0, 1, big),
                (1, 1, 1, mid),
                (3, 0, 1, mid),
                (3, 0, 0, small),
            ],
        ),
        // +Y at (3/8, 7/8): its edge at z = +1 is +Z's top row (y = +1).
        (
            [-0.25, 1.0, 0.75],
            [
                (2, 0, 1, big),
                (2, 1, 1, mid),
                (4, 0, 0, mid),
                (4, 1, 0, small),
            ],
        ),
        // −Y at (1/8, 3/8): its left edge (x = −1) is −X's bottom row (y = −1).
        (
            [-0.75, -1.0, 0.25],
            [
                (3, 0, 0, big),
                (3, 0, 1, mid),
                (1, 1, 1, mid),
                (1, 0, 1, small),
            ],
        ),
        // +Z at (7/8, 3/8): its right edge (x = +1) is +X's left column (z = +1).
        (
            [0.75, 0.25, 1.0],
            [
                (4, 1, 0, big),
                (4, 1, 1, mid),
                (0, 0, 0, mid),
                (0, 0, 1, small),
            ],
        ),
        // −Z at (3/8, 1/8): its top edge (y = +1) is +Y's top row (z = −1).
        (
            [0.25, 0.75, -1.0],
            [
                (5, 0, 0, big),
                (5, 1, 0, mid),
                (2, 1, 0, mid),
                (2, 0, 0, small),
            ],
        ),
        // −Z at (1/8, 3/8): its left edge (x = +1) is +X's right column (z = −1).
        (
            [0.75, 0.25, -1.0],
            [
                (5, 0, 0, big),
                (5, 0, 1, mid),
                (0, 1, 0, mid),
                (0, 1, 1, small),
            ],
        ),
    ];
    for (d, taps) in cases {
        let mut want = [0.0f32; 4];
        for (face, x, y, weight) in taps {
            let v = texel(0, x, y, face);
            for c in 0..4 {
                want[c] += weight * v[c];
            }
        }
        let got = sample(&texture, &linear, [d[0], d[1], d[2], 0.0]);
        assert_close(got, want, &|| format!("edge at {d:?}"));
    }
    // At the corner of −X where +Y and +Z meet (direction (−1, 1, 1), a tie that goes to x:
    // (s, t) = (1, 0)): a quarter each of −X's corner texel (1, 0), the texels across its two
    // edges, +Z (0, 0) and +Y (0, 1), and the texel past the corner, the mean of those three.
    let three = [texel(0, 1, 0, 1), texel(0, 0, 0, 4), texel(0, 0, 1, 2)];
    let want = [0, 1, 2, 3].map(|c| {
        let sum = three[0][c] + three[1][c] + three[2][c];
        (sum + sum / 3.0) / 4.0
    });
    let got = sample(&texture, &linear, [-1.0, 1.0, 1.0, 0.0]);
    assert_close(got, want, &|| "corner".to_string());
}

/// Addressing and bilinear weights by hand on a 4x2 texture.
#[test]
fn addressing_and_bilinear_weights_by_hand() {
    let texture = make(TextureKind::TwoD, [4, 2, 1], 1);
    let at = |states: &SamplerStates, u: f32, v: f32| sample(&texture, states, [u, v, 0.0, 0.0]);
    let point = |a: Address| SamplerStates {
        address: [a; 3],
        ..SamplerStates::default()
    };
    // u = 4·s: s = 1.3 is texel 5; wrap: 5 mod 4 = 1; mirror: copy 1 (flipped) texel 3 − 1 =
    // 2; clamp: 3. s = -0.3: texel -2; wrap 2, mirror copy -1 (flipped) 4 − 1 − 2 = 1,
    // clamp 0. v = 2·t: t = 2.7 is texel 5: wrap 1, mirror copy 2 (unflipped) 1, clamp 1.
    assert_eq!(at(&point(Address::Wrap), 1.3, 2.7), texel(0, 1, 1, 0));
    assert_eq!(at(&point(Address::Mirror), 1.3, 2.7), texel(0, 2, 1, 0));
    assert_eq!(at(&point(Address::Clamp), 1.3, 2.7), texel(0, 3, 1, 0));
    assert_eq!(at(&point(Address::Wrap), -0.3, -0.2), texel(0, 2, 1, 0));
    assert_eq!(at(&point(Address::Mirror), -0.3, -0.2), texel(0, 1, 0, 0));
    assert_eq!(at(&point(Address::Clamp), -0.3, -0.2), texel(0, 0, 0, 0));
    // Bilinear at (s, t) = (0.3, 0.4): u − ½ = 0.7 → texels 0, 1 weighted 0.3, 0.7;
    // v − ½ = 0.3 → rows 0, 1 weighted 0.7, 0.3.
    let linear = SamplerStates {
        address: [Address::Clamp; 3],
        mag_filter: Filter::Linear,
        ..SamplerStates::default()
    };
    let mut want = [0.0f32; 4];
    for (x, y, w) in [
        (0, 0, 0.3 * 0.7),
        (1, 0, 0.7 * 0.7),
        (0, 1, 0.3 * 0.3),
        (1, 1, 0.7 * 0.3),
    ] {
        let t = texel(0, x, y, 0);
        for c in 0..4 {
            want[c] += w as f32 * t[c];
        }
    }
    assert_close(at(&linear, 0.3, 0.4), want, &|| "bilinear".to_string());
}

/// A 2D texture ignores the third coordinate, exactly: its result does not change with
/// `coord.z` in any bit.
#[test]
fn two_d_sampling_ignores_the_third_coordinate() {
    let texture = make(TextureKind::TwoD, [5, 3, 1], 3);
    for st in all_states() {
        for &u in &COORDS {
            for &v in &[0.13f32, 0.37, 0.71] {
                let lod = 0.6;
                let base = sample(&texture, &st, [u, v, 0.0, lod]);
                for z in [0.3f32, 0.77, -1.9, 0.1] {
                    assert_eq!(sample(&texture, &st, [u, v, z, lod]), base, "{st:?} z {z}");
                }
            }
        }
    }
}

#[test]
fn texture_accessors_and_levels() {
    let t = make(TextureKind::Volume, [6, 3, 4], 3);
    assert_eq!(t.kind(), TextureKind::Volume);
    assert_eq!(t.size(), [6, 3, 4]);
    assert_eq!(t.level_count(), 3);
    assert_eq!(t.extent(0), [6, 3, 4]);
    assert_eq!(t.extent(1), [3, 1, 2]);
    assert_eq!(t.extent(2), [1, 1, 1]);
    assert_eq!(t.extent(40), [1, 1, 1]);
    let level1 = t.level(1).expect("level 1");
    assert_eq!(level1.len(), 3 * 2);
    // Slice 1, row 0, texel 2.
    assert_eq!(level1[3 + 2], texel(1, 2, 0, 1));
    assert!(t.level(3).is_none());
    let cube = make(TextureKind::Cube, [4, 4, 1], 2);
    assert_eq!(cube.kind(), TextureKind::Cube);
    assert_eq!(cube.extent(1), [2, 2, 6]);
    assert_eq!(cube.level(1).map(<[_]>::len), Some(24));
    let flat = make(TextureKind::TwoD, [1, 8, 1], 4);
    assert_eq!(flat.kind(), TextureKind::TwoD);
    assert_eq!(flat.extent(3), [1, 1, 1]);
    assert_eq!(flat.level(0).map(<[_]>::len), Some(8));
    assert!(matches!(
        Texture::new(TextureKind::TwoD, [1, 8, 1], vec![vec![[0.0; 4]; 8]; 5]),
        Err(TextureError::Levels { levels: 5, most: 4 })
    ));
}

/// The stages through `VertexTextures`: each declared type against each texture kind, an
/// empty stage, a stage past the four.
#[test]
fn stages_read_their_texture_only_when_the_types_match() {
    let kinds = [
        (TextureKind::TwoD, [2, 2, 1], TextureType::TwoD),
        (TextureKind::Cube, [2, 2, 1], TextureType::Cube),
        (TextureKind::Volume, [2, 2, 2], TextureType::Volume),
    ];
    let textures: Vec<Texture> = kinds.iter().map(|&(k, s, _)| make(k, s, 1)).collect();
    let coord = [0.7, 0.2, 0.6, 0.0];
    for (stage, texture) in textures.iter().enumerate() {
        let bound = VertexTextures::none().with(stage + 1, texture, SamplerStates::default());
        for &(_, _, declared) in &kinds {
            let got = bound.fetch(stage as u32 + 1, declared, coord);
            if declared == kinds[stage].2 {
                let want = sample(texture, &SamplerStates::default(), coord);
                assert_eq!(got, want);
                assert_ne!(got, MISMATCHED_TEXEL);
                assert_ne!(got, UNBOUND_TEXEL);
            } else {
                assert_eq!(
                    got, MISMATCHED_TEXEL,
                    "{:?} as {declared:?}",
                    kinds[stage].0
                );
            }
            assert_eq!(bound.fetch(0, declared, coord), UNBOUND_TEXEL);
        }
    }
    let ignored = VertexTextures::none().with(4, &textures[0], SamplerStates::default());
    for stage in 0..5 {
        assert_eq!(
            ignored.fetch(stage, TextureType::TwoD, coord),
            UNBOUND_TEXEL
        );
    }
}

/// `texldl` in a vs_3_0 program samples through the interpreter as `sample` defines,
/// with the LOD from the coordinate's w.
#[test]
fn texldl_reads_the_lod_from_w() {
    let text = "vs_3_0
        dcl_position o0
        dcl_texcoord0 o1
        dcl_texcoord1 o2
        dcl_2d s1
        dcl_volume s2
        mov o0, c0
        texldl o1, c0, s1
        texldl o2, c1, s2
    ";
    let program = assemble(text).expect("assembles");
    let checked = check(&program, Stage::Vertex, &DeviceCaps::default()).expect("checks");
    let flat = make(TextureKind::TwoD, [4, 4, 1], 3);
    let volume = make(TextureKind::Volume, [2, 2, 4], 3);
    let linear = SamplerStates {
        mag_filter: Filter::Linear,
        min_filter: Filter::Linear,
        mip_filter: MipFilter::Linear,
        address: [Address::Mirror; 3],
        max_mip_level: 0,
    };
    let textures = VertexTextures::none()
        .with(1, &flat, linear)
        .with(2, &volume, linear);
    let c0 = [0.3, 0.8, 0.0, 0.6];
    let c1 = [1.2, 0.45, -0.35, 1.25];
    let constants = Constants {
        floats: vec![c0, c1],
        ..Constants::default()
    };
    let out = Interpreter::new(&checked, FloatMode::Ieee)
        .expect("prepares")
        .run_textured(&[], &constants, &textures)
        .expect("runs");
    let tc = |n| out.get(Semantic::new(Usage::TexCoord, n)).expect("output");
    let want0 = expected(TextureKind::TwoD, [4, 4, 1], 3, &linear, c0);
    let want1 = expected(TextureKind::Volume, [2, 2, 4], 3, &linear, c1);
    assert_close(tc(0), want0, &|| "2d".to_string());
    assert_close(tc(1), want1, &|| "volume".to_string());
}
