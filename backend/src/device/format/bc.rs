//! Decoding D3D9's block-compressed formats (DXT1–DXT5 = BC1–BC3, ATI1 = BC4, ATI2 = BC5) to
//! RGBA8, for textures WebGPU cannot hold compressed: levels that are not whole 4 x 4 blocks
//! (D3D9 allows a 2 x 2 DXT texture, WebGPU needs whole blocks) and adapters without
//! `TEXTURE_COMPRESSION_BC`. The decoded texels are what the GPU would sample from the blocks.
//! Also the one block of a single colour (`ColorFill` of a compressed surface).

use super::Format;

/// A 5:6:5 colour as RGB8.
fn rgb565(c: u16) -> [u32; 3] {
    let r = u32::from(c >> 11) & 31;
    let g = u32::from(c >> 5) & 63;
    let b = u32::from(c) & 31;
    [
        (r * 255 + 15) / 31,
        (g * 255 + 31) / 63,
        (b * 255 + 15) / 31,
    ]
}

/// The 16 texels (RGBA8) of a BC1 colour block; `always_four`: BC2/BC3's colour blocks,
/// which never use the three-colour-and-transparent mode.
fn colour_block(block: &[u8], always_four: bool) -> [[u8; 4]; 16] {
    let c0 = u16::from_le_bytes([block[0], block[1]]);
    let c1 = u16::from_le_bytes([block[2], block[3]]);
    let (a, b) = (rgb565(c0), rgb565(c1));
    let mix =
        |wa: u32, wb: u32, d: u32| -> [u32; 3] { [0, 1, 2].map(|i| (a[i] * wa + b[i] * wb) / d) };
    let four = always_four || c0 > c1;
    let palette: [[u32; 4]; 4] = if four {
        let (c2, c3) = (mix(2, 1, 3), mix(1, 2, 3));
        [
            [a[0], a[1], a[2], 255],
            [b[0], b[1], b[2], 255],
            [c2[0], c2[1], c2[2], 255],
            [c3[0], c3[1], c3[2], 255],
        ]
    } else {
        let c2 = mix(1, 1, 2);
        [
            [a[0], a[1], a[2], 255],
            [b[0], b[1], b[2], 255],
            [c2[0], c2[1], c2[2], 255],
            [0, 0, 0, 0],
        ]
    };
    let indices = u32::from_le_bytes([block[4], block[5], block[6], block[7]]);
    std::array::from_fn(|i| palette[((indices >> (2 * i)) & 3) as usize].map(|v| v as u8))
}

/// The 16 values of a BC4 block (BC3's alpha, BC4's red, each of BC5's channels).
fn single_block(block: &[u8]) -> [u8; 16] {
    let (a0, a1) = (u32::from(block[0]), u32::from(block[1]));
    let palette: [u32; 8] = if a0 > a1 {
        std::array::from_fn(|i| match i {
            0 => a0,
            1 => a1,
            _ => (a0 * (8 - i as u32) + a1 * (i as u32 - 1)) / 7,
        })
    } else {
        std::array::from_fn(|i| match i {
            0 => a0,
            1 => a1,
            6 => 0,
            7 => 255,
            _ => (a0 * (6 - i as u32) + a1 * (i as u32 - 1)) / 5,
        })
    };
    let mut bits = 0u64;
    for (i, b) in block[2..8].iter().enumerate() {
        bits |= u64::from(*b) << (8 * i);
    }
    std::array::from_fn(|i| palette[((bits >> (3 * i)) & 7) as usize] as u8)
}

/// The 16 texels (RGBA8, row by row) of one block of `format`.
fn block_texels(format: Format, block: &[u8]) -> [[u8; 4]; 16] {
    match format {
        Format::Dxt1 => colour_block(block, false),
        Format::Dxt2 | Format::Dxt3 => {
            let mut t = colour_block(&block[8..16], true);
            for (i, texel) in t.iter_mut().enumerate() {
                let nibble = (block[i / 2] >> (4 * (i % 2))) & 15;
                texel[3] = nibble * 17;
            }
            t
        }
        Format::Dxt4 | Format::Dxt5 => {
            let mut t = colour_block(&block[8..16], true);
            let alpha = single_block(&block[0..8]);
            for (texel, a) in t.iter_mut().zip(alpha) {
                texel[3] = a;
            }
            t
        }
        Format::Ati1 => single_block(&block[0..8]).map(|r| [r, 0, 0, 255]),
        // D3D9 reads ATI2 as (y, x, 1, 1) (Wine's test_3dc_formats, checked on Windows).
        Format::Ati2 => {
            let (x, y) = (single_block(&block[0..8]), single_block(&block[8..16]));
            std::array::from_fn(|i| [y[i], x[i], 255, 255])
        }
        _ => [[0; 4]; 16],
    }
}

/// A `width` x `height` image of `format`'s blocks (D3D9's layout) as RGBA8 texels.
pub(super) fn decode_image(format: Format, data: &[u8], width: u32, height: u32) -> Vec<u8> {
    let block_bytes = format.texel_size() as usize;
    let blocks_wide = width.div_ceil(4).max(1) as usize;
    let (width, height) = (width as usize, height as usize);
    let mut out = vec![0u8; width * height * 4];
    for (b, block) in data.chunks_exact(block_bytes).enumerate() {
        let (bx, by) = (b % blocks_wide * 4, b / blocks_wide * 4);
        if by >= height {
            break;
        }
        for (i, texel) in block_texels(format, block).iter().enumerate() {
            let (x, y) = (bx + i % 4, by + i / 4);
            if x < width && y < height {
                let at = (y * width + x) * 4;
                out[at..at + 4].copy_from_slice(texel);
            }
        }
    }
    out
}

/// A block every texel of which is the colour (RGBA8): both end points the colour, every
/// index 0 (`ColorFill`).
pub(super) fn solid_block(format: Format, [r, g, b, a]: [u8; 4]) -> Vec<u8> {
    let c = (u16::from(r) >> 3) << 11 | (u16::from(g) >> 2) << 5 | u16::from(b) >> 3;
    let colour = [c.to_le_bytes(), c.to_le_bytes(), [0, 0], [0, 0]].concat();
    let single = |v: u8| vec![v, v, 0, 0, 0, 0, 0, 0];
    match format {
        Format::Dxt1 => colour,
        Format::Dxt2 | Format::Dxt3 => {
            let nibble = a >> 4;
            [vec![nibble << 4 | nibble; 8], colour].concat()
        }
        Format::Dxt4 | Format::Dxt5 => [single(a), colour].concat(),
        Format::Ati1 => single(r),
        Format::Ati2 => [single(r), single(g)].concat(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dxt1_blocks_decode_both_modes() {
        // c0 = white > c1 = black: four colours; index 0 everywhere but texel 1 (index 1).
        let block = [0xff, 0xff, 0x00, 0x00, 0b0000_0100, 0, 0, 0];
        let t = decode_image(Format::Dxt1, &block, 4, 4);
        assert_eq!(&t[0..4], &[255, 255, 255, 255]);
        assert_eq!(&t[4..8], &[0, 0, 0, 255]);
        // c0 = black < c1 = white: index 3 is transparent black.
        let block = [0x00, 0x00, 0xff, 0xff, 0b11, 0, 0, 0];
        let t = decode_image(Format::Dxt1, &block, 2, 2);
        assert_eq!(t.len(), 16, "a 2x2 level keeps its own size");
        assert_eq!(&t[0..4], &[0, 0, 0, 0]);
    }

    #[test]
    fn alpha_blocks_interpolate() {
        // a0 = 255 > a1 = 0: index 2 is (6 * 255 + 1 * 0) / 7.
        let mut block = [0u8; 16];
        block[0] = 255;
        block[2] = 2;
        block[8..10].copy_from_slice(&0xffffu16.to_le_bytes());
        let t = decode_image(Format::Dxt5, &block, 4, 4);
        assert_eq!(t[3], (6 * 255 / 7) as u8);
        assert_eq!(&t[0..3], &[255, 255, 255]);
        let ati1 = decode_image(Format::Ati1, &block[0..8], 4, 4);
        assert_eq!(&ati1[0..4], &[(6 * 255 / 7) as u8, 0, 0, 255]);
    }

    /// Red (31, 0, 0) and blue (0, 0, 31) as 5:6:5 end points.
    const RED: [u8; 2] = [0x00, 0xf8];
    const BLUE: [u8; 2] = [0x1f, 0x00];

    /// A 4 x 4 image's 16 texels.
    fn texels(format: Format, block: &[u8]) -> Vec<[u8; 4]> {
        decode_image(format, block, 4, 4)
            .chunks(4)
            .map(|t| [t[0], t[1], t[2], t[3]])
            .collect()
    }

    #[test]
    fn five_six_five_expands_to_full_bytes() {
        assert_eq!(rgb565(0xffff), [255, 255, 255]);
        // r 16, g 32, b 8: (16 * 255 + 15) / 31, (32 * 255 + 31) / 63, (8 * 255 + 15) / 31.
        assert_eq!(rgb565(16 << 11 | 32 << 5 | 8), [132, 130, 66]);
    }

    #[test]
    fn colour_blocks_pick_their_palette_by_end_point_order() {
        // Indices 0, 1, 2, 3 in each row.
        let indices = [0xe4; 4];
        // c0 > c1: four colours, two thirds of the way between them.
        let four = texels(Format::Dxt1, &[&RED[..], &BLUE, &indices].concat());
        assert_eq!(
            four[..4],
            [
                [255, 0, 0, 255],
                [0, 0, 255, 255],
                [170, 0, 85, 255],
                [85, 0, 170, 255]
            ]
        );
        assert_eq!(four[12..], four[..4], "every row");
        // c0 <= c1: three colours (the mean) and transparent black.
        let three = texels(Format::Dxt1, &[&BLUE[..], &RED, &indices].concat());
        assert_eq!(
            three[..4],
            [
                [0, 0, 255, 255],
                [255, 0, 0, 255],
                [127, 0, 127, 255],
                [0, 0, 0, 0]
            ]
        );
        // Equal end points are the three-colour mode: index 3 is transparent.
        let equal = texels(Format::Dxt1, &[&RED[..], &RED, &[0xff; 4]].concat());
        assert_eq!(equal[0], [0, 0, 0, 0]);
        // DXT3's colours are always four, whatever the end points' order; its alpha is 4 bits
        // a texel, low nibble first.
        let dxt3 = texels(
            Format::Dxt3,
            &[
                &[0x10, 0x32, 0, 0, 0, 0, 0, 0xf0][..],
                &BLUE,
                &RED,
                &indices,
            ]
            .concat(),
        );
        assert_eq!(
            dxt3[3],
            [170, 0, 85, 3 * 17],
            "a third blue, two thirds red"
        );
        assert_eq!(
            dxt3[..3].iter().map(|t| t[3]).collect::<Vec<_>>(),
            [0, 17, 34]
        );
        assert_eq!(dxt3[15][3], 255);
        assert_eq!(dxt3[14][3], 0);
    }

    /// An alpha block: end points `a0`, `a1`, texel i taking index i for i < 8.
    fn alpha_block(a0: u8, a1: u8) -> [u8; 8] {
        let bits = (0..8u64).fold(0, |bits, i| bits | i << (3 * i));
        let b = bits.to_le_bytes();
        [a0, a1, b[0], b[1], b[2], b[3], b[4], b[5]]
    }

    #[test]
    fn alpha_blocks_have_eight_or_six_steps() {
        let red = [&RED[..], &RED, &[0; 4]].concat();
        // a0 > a1: six steps between them.
        let eight = texels(Format::Dxt5, &[&alpha_block(0x80, 0x20)[..], &red].concat());
        let alpha: Vec<u8> = eight[..8].iter().map(|t| t[3]).collect();
        let step = |k: u32| ((0x80 * (7 - k) + 0x20 * k) / 7) as u8;
        assert_eq!(
            alpha,
            [
                0x80,
                0x20,
                step(1),
                step(2),
                step(3),
                step(4),
                step(5),
                step(6)
            ]
        );
        assert_eq!(eight[0][..3], [255, 0, 0]);
        // a0 <= a1: four steps between them, then 0 and 255.
        let six = texels(Format::Dxt4, &[&alpha_block(0x20, 0x80)[..], &red].concat());
        let alpha: Vec<u8> = six[..8].iter().map(|t| t[3]).collect();
        let step = |k: u32| ((0x20 * (5 - k) + 0x80 * k) / 5) as u8;
        assert_eq!(
            alpha,
            [0x20, 0x80, step(1), step(2), step(3), step(4), 0, 255]
        );
        // Equal end points are the six-step mode: index 7 is 255.
        let equal = texels(Format::Dxt5, &[&alpha_block(0x40, 0x40)[..], &red].concat());
        assert_eq!((equal[6][3], equal[7][3]), (0, 255));
        // ATI1 is one such block of red; ATI2 two, read as (second, first, 1, 1).
        let ati1 = texels(Format::Ati1, &alpha_block(0x80, 0x20));
        assert_eq!(ati1[2], [step_of(0x80, 0x20), 0, 0, 255]);
        let ati2 = texels(
            Format::Ati2,
            &[alpha_block(0x80, 0x20), alpha_block(0x10, 0x10)].concat(),
        );
        assert_eq!(ati2[0], [0x10, 0x80, 255, 255]);
        assert_eq!(ati2[1], [0x10, 0x20, 255, 255]);
    }

    fn step_of(a0: u32, a1: u32) -> u8 {
        ((a0 * 6 + a1) / 7) as u8
    }

    #[test]
    fn images_place_blocks_row_by_row_and_crop_them() {
        // An 8 x 6 DXT1 image: 2 x 2 blocks, the second row of blocks cropped to 2 rows.
        let solid = |c: [u8; 2]| [&c[..], &c, &[0; 4]].concat();
        let data = [solid(RED), solid(BLUE), solid(BLUE), solid(RED)].concat();
        let image = decode_image(Format::Dxt1, &data, 8, 6);
        assert_eq!(image.len(), 8 * 6 * 4);
        let at = |x: usize, y: usize| &image[(y * 8 + x) * 4..(y * 8 + x) * 4 + 4];
        assert_eq!(at(3, 3), [255, 0, 0, 255]);
        assert_eq!(at(4, 0), [0, 0, 255, 255]);
        assert_eq!(at(0, 4), [0, 0, 255, 255]);
        assert_eq!(at(7, 5), [255, 0, 0, 255]);
        // Blocks past the image's last row are ignored.
        let short = decode_image(Format::Dxt1, &data, 4, 4);
        assert_eq!(short.len(), 64);
        assert!(short.chunks(4).all(|t| t == [255, 0, 0, 255]));
    }

    #[test]
    fn solid_blocks_decode_to_the_colour() {
        let colour = [0xff, 0x80, 0x40, 0x99];
        // 5:6:5 of (255, 128, 64) expanded back: (255, 130, 66).
        let rgb = [255, 130, 66];
        for (format, expected) in [
            (Format::Dxt1, [rgb[0], rgb[1], rgb[2], 255]),
            (Format::Dxt3, [rgb[0], rgb[1], rgb[2], 0x99]),
            (Format::Dxt5, [rgb[0], rgb[1], rgb[2], 0x99]),
            (Format::Ati1, [0xff, 0, 0, 255]),
            (Format::Ati2, [0x80, 0xff, 255, 255]),
        ] {
            let block = solid_block(format, colour);
            assert_eq!(block.len(), format.texel_size() as usize, "{format:?}");
            assert!(
                texels(format, &block).iter().all(|t| *t == expected),
                "{format:?}"
            );
        }
        assert!(solid_block(Format::A8R8G8B8, colour).is_empty());
    }
}
