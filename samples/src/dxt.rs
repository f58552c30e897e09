//! DXT1 (BC1) and DXT5 (BC3) compression of A8R8G8B8 texels, done in code as a D3D9 tool
//! (D3DX, nvcompress) does before `CreateTexture(D3DFMT_DXT1 / DXT5)`: per 4x4 block, the
//! two extreme colours as R5G6B5 end points and each texel's nearest of the four colours
//! between them; DXT5 adds the two extreme alphas and each texel's nearest of eight.

/// `argb` (0xAARRGGBB) as R5G6B5.
pub fn to_565(argb: u32) -> u16 {
    let [_, r, g, b] = argb.to_be_bytes();
    (u16::from(r >> 3) << 11) | (u16::from(g >> 2) << 5) | u16::from(b >> 3)
}

/// R5G6B5 widened to 8 bits a channel (the top bits repeated), as 0xFFRRGGBB.
pub fn from_565(c: u16) -> u32 {
    let (r, g, b) = (
        u32::from(c >> 11),
        u32::from((c >> 5) & 63),
        u32::from(c & 31),
    );
    0xFF00_0000 | ((r << 3 | r >> 2) << 16) | ((g << 2 | g >> 4) << 8) | (b << 3 | b >> 2)
}

fn channels(argb: u32) -> [i32; 3] {
    let [_, r, g, b] = argb.to_be_bytes();
    [i32::from(r), i32::from(g), i32::from(b)]
}

/// The 16 texels of block (bx, by) of a `width`-wide image, row by row.
fn block(texels: &[u32], width: u32, bx: u32, by: u32) -> [u32; 16] {
    std::array::from_fn(|i| {
        let (x, y) = (bx * 4 + i as u32 % 4, by * 4 + i as u32 / 4);
        texels[(y * width + x) as usize]
    })
}

/// One BC1 colour block (4-colour mode) of 16 texels.
fn colour_block(block: &[u32; 16]) -> [u8; 8] {
    let luma = |c: u32| {
        let [r, g, b] = channels(c);
        r * 3 + g * 6 + b
    };
    let brightest = block.iter().copied().max_by_key(|&c| luma(c)).unwrap_or(0);
    let darkest = block.iter().copied().min_by_key(|&c| luma(c)).unwrap_or(0);
    let (mut c0, mut c1) = (to_565(brightest), to_565(darkest));
    if c0 < c1 {
        std::mem::swap(&mut c0, &mut c1);
    }
    let mut indices = 0u32;
    if c0 != c1 {
        let (e0, e1) = (channels(from_565(c0)), channels(from_565(c1)));
        let palette: [[i32; 3]; 4] = [
            e0,
            e1,
            std::array::from_fn(|k| (2 * e0[k] + e1[k]) / 3),
            std::array::from_fn(|k| (e0[k] + 2 * e1[k]) / 3),
        ];
        for (i, &texel) in block.iter().enumerate() {
            let c = channels(texel);
            let distance = |p: &[i32; 3]| (0..3).map(|k| (p[k] - c[k]).pow(2)).sum::<i32>();
            let best = (0..4).min_by_key(|&j| distance(&palette[j])).unwrap_or(0);
            indices |= (best as u32) << (2 * i);
        }
    }
    let mut out = [0; 8];
    out[..2].copy_from_slice(&c0.to_le_bytes());
    out[2..4].copy_from_slice(&c1.to_le_bytes());
    out[4..].copy_from_slice(&indices.to_le_bytes());
    out
}

/// One BC3 alpha block (eight-alpha mode) of 16 texels.
fn alpha_block(block: &[u32; 16]) -> [u8; 8] {
    let alphas = block.map(|c| (c >> 24) as u8);
    let a0 = alphas.iter().copied().max().unwrap_or(255);
    let a1 = alphas.iter().copied().min().unwrap_or(255);
    let mut bits = 0u64;
    if a0 != a1 {
        let (f0, f1) = (i32::from(a0), i32::from(a1));
        let mut palette = [f0, f1, 0, 0, 0, 0, 0, 0];
        for (j, value) in palette.iter_mut().enumerate().skip(2) {
            let j = j as i32;
            *value = ((8 - j) * f0 + (j - 1) * f1) / 7;
        }
        for (i, &a) in alphas.iter().enumerate() {
            let best = (0..8)
                .min_by_key(|&j| (palette[j] - i32::from(a)).abs())
                .unwrap_or(0);
            bits |= (best as u64) << (3 * i);
        }
    }
    let mut out = [0; 8];
    out[0] = a0;
    out[1] = a1;
    out[2..].copy_from_slice(&bits.to_le_bytes()[..6]);
    out
}

/// `texels` (0xAARRGGBB, `width` x `height`, both multiples of 4) as DXT1 blocks, row by row.
pub fn compress_dxt1(texels: &[u32], width: u32, height: u32) -> Vec<u8> {
    (0..height / 4)
        .flat_map(|by| (0..width / 4).map(move |bx| (bx, by)))
        .flat_map(|(bx, by)| colour_block(&block(texels, width, bx, by)))
        .collect()
}

/// `texels` as DXT5 blocks: each an alpha block, then a colour block.
pub fn compress_dxt5(texels: &[u32], width: u32, height: u32) -> Vec<u8> {
    (0..height / 4)
        .flat_map(|by| (0..width / 4).map(move |bx| (bx, by)))
        .flat_map(|(bx, by)| {
            let b = block(texels, width, bx, by);
            let mut out = alpha_block(&b).to_vec();
            out.extend(colour_block(&b));
            out
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_solid_block_keeps_its_565_colour() {
        let texels = vec![0xFF9A_3A2A; 16];
        let block = compress_dxt1(&texels, 4, 4);
        assert_eq!(block.len(), 8);
        let c0 = u16::from_le_bytes([block[0], block[1]]);
        assert_eq!(from_565(c0), 0xFF9C_3829);
        assert_eq!(&block[4..], &[0, 0, 0, 0]);
    }

    #[test]
    fn a_two_colour_block_picks_each_end_point() {
        let mut texels = vec![0xFF00_0000; 16];
        texels[5] = 0xFFFF_FFFF;
        let block = compress_dxt1(&texels, 4, 4);
        let indices = u32::from_le_bytes([block[4], block[5], block[6], block[7]]);
        assert_eq!((indices >> 10) & 3, 0, "the white texel is end point 0");
        assert_eq!(indices & 3, 1, "the black ones end point 1");
        let alpha = compress_dxt5(&texels, 4, 4);
        assert_eq!((alpha.len(), alpha[0], alpha[1]), (16, 255, 255));
    }
}
