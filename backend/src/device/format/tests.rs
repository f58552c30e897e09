//! The format table and the texel conversions against hand-worked texels: every field of a
//! texel holds a different value, so a channel read from the wrong bits, with the wrong
//! width or sign, or filled with the wrong constant shows.

use super::texel::{decode, encode, from_gpu, to_gpu, SurfaceData};
use super::*;

/// A texel of a format, what a shader samples from it and what `encode` writes back for that
/// colour (`None`: the texel itself; X bits come back set, other formats exactly).
type Worked = (Format, Vec<u8>, [f32; 4], Option<Vec<u8>>);

fn texels() -> Vec<Worked> {
    let u8s = |c: u32| c as f32 / 255.0;
    let le = |v: u32, n: usize| v.to_le_bytes()[..n].to_vec();
    let h = |x: f32| half::f16::from_f32(x).to_bits();
    let w10 = 2 << 30 | 7 << 20 | 924 << 10 | 100;
    vec![
        (
            F::R8G8B8,
            vec![0x11, 0x22, 0x33],
            [u8s(0x33), u8s(0x22), u8s(0x11), 1.0],
            None,
        ),
        (
            F::A8R8G8B8,
            vec![0x11, 0x22, 0x33, 0x44],
            [u8s(0x33), u8s(0x22), u8s(0x11), u8s(0x44)],
            None,
        ),
        (
            F::X8R8G8B8,
            vec![0x11, 0x22, 0x33, 0x44],
            [u8s(0x33), u8s(0x22), u8s(0x11), 1.0],
            Some(vec![0x11, 0x22, 0x33, 0xff]),
        ),
        (
            F::A8B8G8R8,
            vec![0x11, 0x22, 0x33, 0x44],
            [u8s(0x11), u8s(0x22), u8s(0x33), u8s(0x44)],
            None,
        ),
        (
            F::X8B8G8R8,
            vec![0x11, 0x22, 0x33, 0x44],
            [u8s(0x11), u8s(0x22), u8s(0x33), 1.0],
            Some(vec![0x11, 0x22, 0x33, 0xff]),
        ),
        // r 3, g 17, b 9.
        (
            F::R5G6B5,
            le(3 << 11 | 17 << 5 | 9, 2),
            [3.0 / 31.0, 17.0 / 63.0, 9.0 / 31.0, 1.0],
            None,
        ),
        (
            F::X1R5G5B5,
            le(3 << 10 | 17 << 5 | 9, 2),
            [3.0 / 31.0, 17.0 / 31.0, 9.0 / 31.0, 1.0],
            Some(le(1 << 15 | 3 << 10 | 17 << 5 | 9, 2)),
        ),
        (
            F::A1R5G5B5,
            le(3 << 10 | 17 << 5 | 9, 2),
            [3.0 / 31.0, 17.0 / 31.0, 9.0 / 31.0, 0.0],
            None,
        ),
        (
            F::A4R4G4B4,
            vec![0xc9, 0x53],
            [3.0 / 15.0, 12.0 / 15.0, 9.0 / 15.0, 5.0 / 15.0],
            None,
        ),
        (
            F::X4R4G4B4,
            vec![0xc9, 0x53],
            [3.0 / 15.0, 12.0 / 15.0, 9.0 / 15.0, 1.0],
            Some(vec![0xc9, 0xf3]),
        ),
        // r 5, g 2, b 1.
        (
            F::R3G3B2,
            vec![0xa9],
            [5.0 / 7.0, 2.0 / 7.0, 1.0 / 3.0, 1.0],
            None,
        ),
        (
            F::A8R3G3B2,
            vec![0xa9, 0x66],
            [5.0 / 7.0, 2.0 / 7.0, 1.0 / 3.0, u8s(0x66)],
            None,
        ),
        (F::A8, vec![0x66], [0.0, 0.0, 0.0, u8s(0x66)], None),
        (
            F::L8,
            vec![0x66],
            [u8s(0x66), u8s(0x66), u8s(0x66), 1.0],
            None,
        ),
        (
            F::A8L8,
            vec![0x66, 0x99],
            [u8s(0x66), u8s(0x66), u8s(0x66), u8s(0x99)],
            None,
        ),
        (
            F::A4L4,
            vec![0x9a],
            [10.0 / 15.0, 10.0 / 15.0, 10.0 / 15.0, 9.0 / 15.0],
            None,
        ),
        (
            F::L16,
            vec![0x34, 0x12],
            [
                0x1234 as f32 / 65535.0,
                0x1234 as f32 / 65535.0,
                0x1234 as f32 / 65535.0,
                1.0,
            ],
            None,
        ),
        // Signed fields: positive over 2^(n-1) - 1, negative over 2^(n-1).
        (
            F::V8U8,
            vec![0x10, 0xf0],
            [16.0 / 127.0, -16.0 / 128.0, 1.0, 1.0],
            None,
        ),
        // u 3, v -5, l 40.
        (
            F::L6V5U5,
            le(40 << 10 | 27 << 5 | 3, 2),
            [3.0 / 15.0, -5.0 / 16.0, 40.0 / 63.0, 1.0],
            None,
        ),
        (
            F::X8L8V8U8,
            vec![0x10, 0xf0, 0x80, 0x77],
            [16.0 / 127.0, -16.0 / 128.0, u8s(0x80), 1.0],
            Some(vec![0x10, 0xf0, 0x80, 0]),
        ),
        (
            F::Q8W8V8U8,
            vec![0x10, 0xf0, 0x20, 0x81],
            [16.0 / 127.0, -16.0 / 128.0, 32.0 / 127.0, -127.0 / 128.0],
            None,
        ),
        (
            F::V16U16,
            vec![0, 0x10, 0, 0xf0],
            [4096.0 / 32767.0, -4096.0 / 32768.0, 1.0, 1.0],
            None,
        ),
        // u 100, v -100, w 7, a 2.
        (
            F::A2W10V10U10,
            le(w10, 4),
            [100.0 / 511.0, -100.0 / 512.0, 7.0 / 511.0, 2.0 / 3.0],
            None,
        ),
        (
            F::A2R10G10B10,
            le(2 << 30 | 100 << 20 | 924 << 10 | 7, 4),
            [100.0 / 1023.0, 924.0 / 1023.0, 7.0 / 1023.0, 2.0 / 3.0],
            None,
        ),
        (
            F::A2B10G10R10,
            le(w10, 4),
            [100.0 / 1023.0, 924.0 / 1023.0, 7.0 / 1023.0, 2.0 / 3.0],
            None,
        ),
        (
            F::G16R16,
            vec![0x34, 0x12, 0xcd, 0xab],
            [0x1234 as f32 / 65535.0, 0xabcd as f32 / 65535.0, 1.0, 1.0],
            None,
        ),
        (
            F::A16B16G16R16,
            [0x1111u16, 0x2222, 0x3333, 0x4444]
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect(),
            [0x1111, 0x2222, 0x3333, 0x4444].map(|v: u32| v as f32 / 65535.0),
            None,
        ),
        (
            F::Q16W16V16U16,
            [0x1000u16, 0xf000, 0x2000, 0x8001]
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect(),
            [
                4096.0 / 32767.0,
                -4096.0 / 32768.0,
                8192.0 / 32767.0,
                -32767.0 / 32768.0,
            ],
            None,
        ),
        (
            F::R16F,
            h(0.5).to_le_bytes().to_vec(),
            [0.5, 1.0, 1.0, 1.0],
            None,
        ),
        (
            F::G16R16F,
            [h(0.5), h(-2.0)]
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect(),
            [0.5, -2.0, 1.0, 1.0],
            None,
        ),
        (
            F::A16B16G16R16F,
            [h(0.5), h(-2.0), h(0.25), h(4.0)]
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect(),
            [0.5, -2.0, 0.25, 4.0],
            None,
        ),
        (
            F::R32F,
            0.75f32.to_le_bytes().to_vec(),
            [0.75, 1.0, 1.0, 1.0],
            None,
        ),
        (
            F::G32R32F,
            [0.75f32, -3.0]
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect(),
            [0.75, -3.0, 1.0, 1.0],
            None,
        ),
        (
            F::A32B32G32R32F,
            [0.75f32, -3.0, 8.0, 0.125]
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect(),
            [0.75, -3.0, 8.0, 0.125],
            None,
        ),
        (
            F::D16,
            vec![0, 0x40],
            [0x4000 as f32 / 65535.0, 0.0, 0.0, 1.0],
            None,
        ),
        (
            F::D16Lockable,
            vec![0, 0x40],
            [0x4000 as f32 / 65535.0, 0.0, 0.0, 1.0],
            None,
        ),
        (
            F::Df16,
            vec![0, 0x40],
            [0x4000 as f32 / 65535.0, 0.0, 0.0, 1.0],
            None,
        ),
        (
            F::D24X8,
            0.25f32.to_le_bytes().to_vec(),
            [0.25, 0.0, 0.0, 1.0],
            None,
        ),
        (
            F::D32,
            0.25f32.to_le_bytes().to_vec(),
            [0.25, 0.0, 0.0, 1.0],
            None,
        ),
        (
            F::Df24,
            0.25f32.to_le_bytes().to_vec(),
            [0.25, 0.0, 0.0, 1.0],
            None,
        ),
        (
            F::D24S8,
            0.25f32.to_le_bytes().to_vec(),
            [0.25, 0.0, 0.0, 1.0],
            None,
        ),
        (
            F::D32FLockable,
            0.25f32.to_le_bytes().to_vec(),
            [0.25, 0.0, 0.0, 1.0],
            None,
        ),
        (
            F::Intz,
            0.25f32.to_le_bytes().to_vec(),
            [0.25, 0.0, 0.0, 1.0],
            None,
        ),
        // A lone YUV texel reads as the grey of its luma: (128 - 16) * 1.164383 / 255.
        (
            F::Yuy2,
            vec![128, 32],
            [0.511_415, 0.511_415, 0.511_415, 1.0],
            Some(vec![128, 128]),
        ),
        (
            F::Uyvy,
            vec![32, 128],
            [0.511_415, 0.511_415, 0.511_415, 1.0],
            Some(vec![128, 128]),
        ),
    ]
}

fn close(a: [f32; 4], b: [f32; 4], tolerance: f32) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tolerance)
}

#[test]
fn every_texel_format_has_a_worked_texel() {
    let worked: Vec<Format> = texels().iter().map(|t| t.0).collect();
    for (format, _) in Format::all() {
        if !format.is_compressed() && format != F::Null {
            assert!(worked.contains(&format), "{format:?} has no worked texel");
        }
    }
    for format in worked {
        let number = Format::all().find(|f| f.0 == format).map(|f| f.1);
        assert_eq!(
            number.and_then(Format::from_d3d),
            Some(format),
            "{format:?}"
        );
    }
}

#[test]
fn texels_decode_each_channel_from_its_own_bits() {
    for (format, texel, sampled, _) in texels() {
        assert_eq!(texel.len(), format.texel_size() as usize, "{format:?}");
        let got = decode(format, &texel);
        assert!(
            close(got, sampled, 1e-6),
            "{format:?}: {got:?}, not {sampled:?}"
        );
    }
    assert_eq!(decode(F::Null, &[]), [0.0; 4]);
    assert_eq!(
        decode(F::Dxt1, &[0xff; 8]),
        [0.0; 4],
        "blocks are decoded whole"
    );
}

#[test]
fn encoding_the_sampled_colour_gives_the_texel_back() {
    for (format, texel, sampled, encoded) in texels() {
        let expected = encoded.unwrap_or(texel);
        assert_eq!(encode(format, sampled), expected, "{format:?}");
    }
    assert_eq!(encode(F::Null, [1.0; 4]), Vec::<u8>::new());
    assert_eq!(encode(F::Dxt5, [1.0; 4]), Vec::<u8>::new());
    // Out-of-range colours clamp: unsigned fields to 0..1, signed ones to -1..1.
    assert_eq!(
        encode(F::A8R8G8B8, [2.0, -1.0, 0.5, 1.5]),
        [0x80, 0, 0xff, 0xff]
    );
    assert_eq!(encode(F::V8U8, [-3.0, 3.0, 0.0, 0.0]), [0x80, 0x7f]);
}

/// What a shader samples from one GPU texel of the wider formats texels are converted into.
fn sample_gpu(format: W, t: &[u8]) -> Option<[f32; 4]> {
    let at = |i: usize, n: usize| {
        let mut b = [0u8; 4];
        b[..n].copy_from_slice(&t[i * n..i * n + n]);
        u32::from_le_bytes(b)
    };
    Some(match format {
        W::Rgba8Unorm => [0, 1, 2, 3].map(|i| at(i, 1) as f32 / 255.0),
        W::Bgra8Unorm => [2, 1, 0, 3].map(|i| at(i, 1) as f32 / 255.0),
        W::Rgba8Snorm => [0, 1, 2, 3].map(|i| f32::from(at(i, 1) as u8 as i8) / 127.0),
        W::Rgba16Unorm => [0, 1, 2, 3].map(|i| at(i, 2) as f32 / 65535.0),
        W::Rgba16Snorm => [0, 1, 2, 3].map(|i| f32::from(at(i, 2) as u16 as i16) / 32767.0),
        W::Rgba16Float => [0, 1, 2, 3].map(|i| half::f16::from_bits(at(i, 2) as u16).to_f32()),
        W::Rgba32Float => [0, 1, 2, 3].map(|i| f32::from_bits(at(i, 4))),
        W::Rgb10a2Unorm => {
            let v = at(0, 4);
            let field = |shift: u32, max: u32| (v >> shift & max) as f32 / max as f32;
            [
                field(0, 1023),
                field(10, 1023),
                field(20, 1023),
                field(30, 3),
            ]
        }
        _ => return None,
    })
}

#[test]
fn gpu_texels_sample_as_d3d9_does_and_read_back_unchanged() {
    for (format, texel, sampled, encoded) in texels() {
        for render_target in [false, true] {
            let wgpu = format.wgpu(render_target, false);
            let gpu = to_gpu(format, wgpu, &texel, 1, 1);
            if !format.is_depth() && !format.is_yuv() {
                assert_eq!(
                    gpu.len(),
                    gpu_row_pitch(wgpu, 1) as usize,
                    "{format:?} as {wgpu:?}"
                );
            }
            if let Some(got) = sample_gpu(wgpu, &gpu) {
                // Within half a step of the GPU format; a GPU's signed bytes read negative
                // values over 127, not D3D9's 128, up to a step apart.
                let step = match wgpu {
                    W::Rgba8Unorm | W::Bgra8Unorm => 0.5 / 255.0,
                    W::Rgba8Snorm => 1.0 / 127.0,
                    W::Rgb10a2Unorm => 0.5 / 1023.0,
                    W::Rgba16Float => 1e-3,
                    _ => 1e-4,
                };
                assert!(
                    close(got, sampled, step + 1e-6),
                    "{format:?} as {wgpu:?}: {got:?}"
                );
            }
            // YUV surfaces keep their bytes (StretchRect converts them).
            let back = if format.is_yuv() {
                texel.clone()
            } else {
                encoded.clone().unwrap_or(texel.clone())
            };
            assert_eq!(from_gpu(format, wgpu, &gpu), back, "{format:?} as {wgpu:?}");
        }
    }
}

#[test]
fn float_targets_held_as_bits_copy_both_ways() {
    let texel: Vec<u8> = [0.75f32, -3.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    assert_eq!(to_gpu(F::G32R32F, W::Rg32Uint, &texel, 1, 1), texel);
    assert_eq!(from_gpu(F::G32R32F, W::Rg32Uint, &texel), texel);
    assert_eq!(to_gpu(F::R32F, W::R32Uint, &texel[..4], 1, 1), &texel[..4]);
}

#[test]
fn compressed_texels_held_uncompressed_are_decoded_per_slice() {
    // Two 4 x 4 DXT1 slices of a volume: white, then black (every index 0).
    let white = [0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0];
    let black = [0u8; 8];
    let gpu = to_gpu(F::Dxt1, W::Rgba8Unorm, &[white, black].concat(), 4, 4);
    assert_eq!(gpu.len(), 2 * 16 * 4);
    assert_eq!(&gpu[..4], &[255, 255, 255, 255]);
    assert_eq!(&gpu[64..68], &[0, 0, 0, 255]);
    // Held compressed, the blocks go up as they are.
    assert_eq!(to_gpu(F::Dxt1, W::Bc1RgbaUnorm, &white, 4, 4), white);
}

#[test]
fn surface_texels_as_d3dcolors() {
    let surface = |format, data: Vec<u8>| SurfaceData {
        format,
        width: 1,
        height: 1,
        data,
    };
    let bytes = vec![0x11, 0x22, 0x33, 0x44];
    assert_eq!(
        surface(F::A8R8G8B8, bytes.clone()).color(0, 0),
        Some(0x4433_2211)
    );
    assert_eq!(
        surface(F::X8R8G8B8, bytes.clone()).color(0, 0),
        Some(0x4433_2211),
        "X as stored"
    );
    assert_eq!(
        surface(F::A8B8G8R8, bytes.clone()).color(0, 0),
        Some(0x4411_2233)
    );
    assert_eq!(
        surface(F::X8B8G8R8, bytes.clone()).color(0, 0),
        Some(0x4411_2233)
    );
    assert_eq!(
        surface(F::A4R4G4B4, vec![0xc9, 0x53]).color(0, 0),
        Some(0x5533_cc99)
    );
    assert_eq!(surface(F::L8, vec![0x66]).color(0, 0), Some(0xff66_6666));
    assert_eq!(surface(F::D16, vec![0, 0x40]).color(0, 0), None);
    assert_eq!(surface(F::R16F, vec![0, 0x38]).color(0, 0), None);
    let wide = SurfaceData {
        format: F::L8,
        width: 2,
        height: 2,
        data: vec![1, 2, 3, 4],
    };
    assert_eq!(wide.texel(1, 1), Some(&[4u8][..]));
    assert_eq!(wide.texel(0, 2), None);
    assert_eq!(wide.texel(2, 0), None);
    assert_eq!(
        wide.rgba_f32(1, 0),
        Some([2.0 / 255.0, 2.0 / 255.0, 2.0 / 255.0, 1.0])
    );
    let blocks = SurfaceData {
        format: F::Dxt1,
        width: 4,
        height: 4,
        data: vec![0; 8],
    };
    assert_eq!(blocks.texel(0, 0), None);
}

#[test]
fn alpha_is_where_a_zero_texel_reads_transparent() {
    // Without an alpha channel D3D9 reads alpha as 1; with one, an all-zero texel reads 0.
    for (format, texel, _, _) in texels() {
        if format.is_depth() || format.is_yuv() {
            assert!(!format.has_alpha(), "{format:?}");
            continue;
        }
        let zero = decode(format, &vec![0; texel.len()]);
        assert_eq!(format.has_alpha(), zero[3] == 0.0, "{format:?}");
    }
    assert!(!F::Dxt1.has_alpha());
    for f in [F::Dxt2, F::Dxt3, F::Dxt4, F::Dxt5] {
        assert!(f.has_alpha(), "{f:?}");
    }
}

#[test]
fn kinds_of_format() {
    assert!(F::R16F.is_float() && F::A32B32G32R32F.is_float());
    assert!(!F::A16B16G16R16.is_float() && !F::L6V5U5.is_float() && !F::D32FLockable.is_float());
    assert!(F::Yuy2.is_yuv() && F::Uyvy.is_yuv() && !F::R5G6B5.is_yuv());
    assert!(F::Df24.is_depth() && F::Intz.is_depth() && !F::R32F.is_depth());
    assert!(F::D24S8.has_stencil() && F::Intz.has_stencil() && !F::D24X8.has_stencil());
    assert!(F::Ati2.is_compressed() && !F::Yuy2.is_compressed());
    assert!(F::X8R8G8B8.srgb_capable() && F::Dxt5.srgb_capable());
    assert!(!F::R5G6B5.srgb_capable() && !F::A16B16G16R16F.srgb_capable());
}

#[test]
fn depth_textures_read_as_shadow_maps_or_raw_depth() {
    use d3d9_translator::lift::{DepthChannels, SamplerRead};
    let raw = |channels| {
        Some(SamplerRead::Depth {
            channels,
            linear: false,
        })
    };
    assert_eq!(F::D24S8.depth_read(), Some(SamplerRead::Shadow));
    assert_eq!(F::D16.depth_read(), Some(SamplerRead::Shadow));
    assert_eq!(F::Intz.depth_read(), raw(DepthChannels::All));
    assert_eq!(F::Df16.depth_read(), raw(DepthChannels::Red));
    assert_eq!(F::Df24.depth_read(), raw(DepthChannels::Red));
    assert_eq!(F::D32FLockable.depth_read(), None);
    assert_eq!(F::R32F.depth_read(), None);
}

#[test]
fn fetch4_gathers_one_channel_formats() {
    use d3d9_translator::lift::interface::Fetch4;
    let gather = |channel, lanes| Some(Fetch4 { channel, lanes });
    assert_eq!(F::L8.fetch4(), gather(0, Fetch4::AMD));
    assert_eq!(F::Df24.fetch4(), gather(0, Fetch4::AMD));
    assert_eq!(F::A8.fetch4(), gather(3, Fetch4::AMD));
    assert_eq!(F::Ati1.fetch4(), gather(0, Fetch4::TEXEL));
    assert_eq!(F::A8R8G8B8.fetch4(), None);
    assert_eq!(F::D24S8.fetch4(), None);
}

#[test]
fn gpu_formats_for_sampling_drawing_and_depth() {
    assert_eq!(F::A8R8G8B8.wgpu(false, false), W::Bgra8Unorm);
    assert_eq!(F::X8R8G8B8.wgpu(true, false), W::Rgba8Unorm);
    assert_eq!(F::R16F.wgpu(false, false), W::Rgba16Float);
    assert_eq!(F::R16F.wgpu(true, false), W::R16Float);
    // Sampled, the float formats hold D3D9's missing channels (read as 1) in four.
    assert_eq!(F::G16R16F.wgpu(false, false), W::Rgba16Float);
    assert_eq!(F::R32F.wgpu(false, false), W::Rgba32Float);
    assert_eq!(F::G32R32F.wgpu(false, false), W::Rgba32Float);
    assert_eq!(F::G16R16F.wgpu(true, false), W::Rg16Float);
    assert_eq!(F::R32F.wgpu(true, false), W::R32Float);
    assert_eq!(F::G32R32F.wgpu(true, false), W::Rg32Float);
    assert_eq!(F::A32B32G32R32F.wgpu(true, false), W::Rgba32Float);
    assert_eq!(F::D24S8.wgpu(false, false), W::Depth24PlusStencil8);
    assert_eq!(F::Intz.wgpu(false, true), W::Depth32FloatStencil8);
    assert_eq!(F::D24X8.wgpu(false, true), W::Depth32Float);
    assert_eq!(F::Dxt1.texture_wgpu(false, false, true), W::Bc1RgbaUnorm);
    assert_eq!(F::Dxt1.texture_wgpu(false, false, false), W::Rgba8Unorm);
    assert_eq!(F::L8.texture_wgpu(false, false, false), W::Rgba8Unorm);
    assert_eq!(F::R32F.texture_wgpu(true, false, false), W::R32Float);
    // 16-bit normalised GPU formats need their feature; compressed ones are decoded without.
    assert_eq!(
        F::L16.required_features(),
        wgpu::Features::TEXTURE_FORMAT_16BIT_NORM
    );
    assert_eq!(F::A8R8G8B8.required_features(), wgpu::Features::empty());
    assert_eq!(F::Dxt5.required_features(), wgpu::Features::empty());
}

#[test]
fn channels_held_are_those_both_the_texels_and_d3d9_have() {
    assert_eq!(F::R16F.channels(W::R16Float), 1);
    assert_eq!(F::R32F.channels(W::R32Uint), 1);
    assert_eq!(F::R32F.channels(W::Rgba32Float), 1);
    assert_eq!(F::G16R16.channels(W::Rgba16Unorm), 2);
    assert_eq!(F::G32R32F.channels(W::Rg32Uint), 2);
    assert_eq!(F::A16B16G16R16F.channels(W::Rg16Float), 2);
    assert_eq!(F::A32B32G32R32F.channels(W::R32Float), 1);
    assert_eq!(F::A8R8G8B8.channels(W::Rgba8Unorm), 4);
}

#[test]
fn texel_layouts_and_pitches() {
    assert_eq!(F::R5G6B5.offset_of(2, 3, 5), 3 * 10 + 2 * 2);
    assert_eq!(F::A32B32G32R32F.offset_of(1, 1, 2), 48);
    assert_eq!(F::Dxt1.offset_of(3, 3, 16), 0, "the first block");
    assert_eq!(F::L8.rows(5), 5);
    assert_eq!(F::Dxt1.rows(5), 2);
    assert_eq!(F::Dxt1.rows(1), 1);
    assert_eq!(F::Dxt1.row_pitch(1), 8);
    assert_eq!(F::L8.image_size(3, 2), 6);
    assert_eq!(F::A8R8G8B8.lock_pitch(3), 12);
    assert_eq!(gpu_row_pitch(W::Rgba16Float, 3), 24);
    assert_eq!(gpu_rows(W::Rgba8Unorm, 3), 3);
    assert_eq!(gpu_rows(W::Bc1RgbaUnorm, 5), 2);
}

#[test]
fn colour_fills_write_the_colour_in_each_layout() {
    assert_eq!(F::D24S8.texel_of_color(0xffff_ffff), None);
    assert_eq!(
        F::A8R8G8B8.texel_of_color(0x8040_2010),
        Some(vec![0x10, 0x20, 0x40, 0x80])
    );
    assert_eq!(
        F::A8B8G8R8.texel_of_color(0x8040_2010),
        Some(vec![0x40, 0x20, 0x10, 0x80])
    );
    assert_eq!(
        F::R5G6B5.texel_of_color(0xffff_0000),
        Some(vec![0x00, 0xf8])
    );
    assert_eq!(F::A8.texel_of_color(0x80ff_ffff), Some(vec![0x80]));
    // YUV formats take the colour as AYUV: Y in red, U in green, V in blue.
    assert_eq!(
        F::Yuy2.texel_of_color(0x0051_5a5f),
        Some(vec![0x51, 0x5a, 0x51, 0x5f])
    );
    assert_eq!(
        F::Uyvy.texel_of_color(0x0051_5a5f),
        Some(vec![0x5a, 0x51, 0x5f, 0x51])
    );
    let block = F::Dxt1.texel_of_color(0xffff_0000).unwrap_or_default();
    assert_eq!(block, [0x00, 0xf8, 0x00, 0xf8, 0, 0, 0, 0]);
}

#[test]
fn conversions_go_through_what_each_texel_reads() {
    let argb = [0x10, 0x20, 0x40, 0x80, 0xff, 0xff, 0xff, 0xff];
    assert_eq!(F::A8R8G8B8.convert(F::A8R8G8B8, &argb), Some(argb.to_vec()));
    assert_eq!(
        F::A8R8G8B8.convert(F::A8B8G8R8, &argb),
        Some(vec![0x40, 0x20, 0x10, 0x80, 0xff, 0xff, 0xff, 0xff])
    );
    // L8 reads (l, l, l, 1): as X8R8G8B8 a grey with its X set.
    assert_eq!(
        F::L8.convert(F::X8R8G8B8, &[0x66]),
        Some(vec![0x66, 0x66, 0x66, 0xff])
    );
    assert_eq!(F::A8R8G8B8.convert(F::D16, &argb), None);
    assert_eq!(F::D16.convert(F::L16, &[0, 0]), None);
    assert_eq!(F::Dxt1.convert(F::A8R8G8B8, &[0; 8]), None);
    assert_eq!(F::A8R8G8B8.convert(F::Yuy2, &argb), None);
}

#[test]
fn every_format_has_one_entry_and_a_number() {
    let mut numbers: Vec<u32> = TABLE.iter().map(|e| e.1).collect();
    numbers.sort();
    numbers.dedup();
    assert_eq!(numbers.len(), TABLE.len());
    for (format, number) in Format::all() {
        assert_eq!(Format::from_d3d(number), Some(format));
        assert_eq!(format.to_d3d(), number);
    }
    assert_eq!(Format::from_d3d(0x3259_5559), Some(F::Yuy2));
    assert_eq!(
        Format::from_d3d(fourcc(b"NV12")),
        None,
        "planar YUV is not offered"
    );
    assert_eq!(Format::from_d3d(fourcc(b"DXT1")), Some(F::Dxt1));
}

#[test]
fn block_layouts_pitch_by_four_by_four_blocks() {
    assert_eq!(F::Dxt1.row_pitch(16), 32);
    assert_eq!(F::Dxt5.row_pitch(16), 64);
    assert_eq!(F::Dxt1.image_size(16, 8), 64);
    assert_eq!(F::Dxt1.image_size(2, 2), 8, "one block");
    assert_eq!(F::Dxt3.offset_of(8, 4, 16), 64 + 32);
    assert_eq!(F::R5G6B5.row_pitch(3), 6);
    assert_eq!(F::R5G6B5.lock_pitch(3), 8);
    assert_eq!(F::L8.lock_pitch(2), 4);
    assert_eq!(F::L8.lock_pitch(8), 8);
    assert_eq!(F::Dxt1.lock_pitch(4), 8);
    assert_eq!(gpu_row_pitch(W::Bc1RgbaUnorm, 16), 32);
    assert_eq!(gpu_rows(W::Bc1RgbaUnorm, 6), 2);
}
