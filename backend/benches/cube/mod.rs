//! What `frame` and `stutter` share: the textured cube they draw (its colours, indices,
//! textures and world matrices), the picture hash, and their environment and statistics.

pub const TEXTURES: usize = 8;
pub const TEX_SIZE: u32 = 16;
pub const CLEAR_COLOUR: u32 = 0xff20_2040;
pub const CUBE_COLOURS: [u32; 8] = [
    0xffff_4040,
    0xff40_ff40,
    0xff40_40ff,
    0xffff_ff40,
    0xc0ff_40ff,
    0xc040_ffff,
    0xc0ff_ffff,
    0xc080_8080,
];
pub const TEXTURE_COLOURS: [u32; TEXTURES] = [
    0xffff_8080,
    0xff80_ff80,
    0xff80_80ff,
    0xffff_ff80,
    0x80ff_80ff,
    0x8080_ffff,
    0xffff_ffff,
    0x80c0_c0c0,
];
#[rustfmt::skip]
pub const CUBE_INDICES: [u16; 36] = [
    0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 4, 2, 2, 4, 6,
    1, 3, 5, 3, 7, 5, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7,
];

/// Texture `k`'s texels (A8R8G8B8, rows top to bottom): a checkerboard of its colour and grey.
pub fn texel_bytes(k: usize) -> Vec<u8> {
    (0..TEX_SIZE * TEX_SIZE)
        .flat_map(|t| {
            let (x, y) = (t % TEX_SIZE, t / TEX_SIZE);
            let c = if (x ^ y) & 1 != 0 {
                TEXTURE_COLOURS[k]
            } else {
                0xff40_4040
            };
            c.to_le_bytes()
        })
        .collect()
}

/// FNV-1a over the pixels with alpha masked off, as `frame.c` hashes them.
pub fn hash_pixels(pixels: impl Iterator<Item = u32>) -> u32 {
    pixels.fold(2_166_136_261u32, |h, p| {
        (h ^ (p & 0x00ff_ffff)).wrapping_mul(16_777_619)
    })
}

pub fn env_u32(name: &str, default: u32) -> u32 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Draw `i`'s world matrix as the registers `c0..c3`, computed as `frame.c` computes it.
pub fn world_registers(i: usize) -> [[f32; 4]; 4] {
    let (s, shear) = (0.035f32, 0.01f32);
    let i = i as u32;
    let tx = -0.96f32 + 0.04f32 * (i % 50) as f32;
    let ty = -0.95f32 + 0.05f32 * ((i / 50) % 40) as f32;
    let tz = 0.25f32 + 0.005f32 * ((i * 37) % 101) as f32;
    [
        [s, 0.0, shear, tx],
        [0.0, s, shear, ty],
        [0.0, 0.0, 0.1, tz],
        [0.0, 0.0, 0.0, 1.0],
    ]
}
