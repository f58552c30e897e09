//! One texel of each format: its D3D9 bits as the (r, g, b, a) a shader samples (`decode`,
//! with the channels D3D9 fills in: L8 reads (l, l, l, 1), V8U8 (u, v, 1, 1), ...) and back
//! (`encode`); and whole images between D3D9's memory and the GPU texels of the wgpu format
//! that holds them (`to_gpu`, `from_gpu`): byte copies where the layouts agree, through
//! (r, g, b, a) otherwise.

use wgpu::TextureFormat as W;

use super::Format as F;
use super::{Format, Layout};

/// `bits` wide unsigned field at `shift` as 0..1.
fn unorm(v: u32, shift: u32, bits: u32) -> f32 {
    let max = (1u32 << bits) - 1;
    ((v >> shift) & max) as f32 / max as f32
}

/// `bits` wide two's-complement field at `shift` as -1..1, as D3D9's signed formats read it:
/// positive values over 2^(bits-1) - 1, negative ones over 2^(bits-1), so the most negative
/// is -1 and the next one is not (Wine's test_signed_formats: L6V5U5's -15 reads -15/16).
fn snorm(v: u32, shift: u32, bits: u32) -> f32 {
    let mask = (1u32 << bits) - 1;
    let raw = (v >> shift) & mask;
    let signed = if raw & (1 << (bits - 1)) != 0 {
        raw as i32 - (1 << bits)
    } else {
        raw as i32
    };
    let half = (1u32 << (bits - 1)) as f32;
    if signed < 0 {
        signed as f32 / half
    } else {
        signed as f32 / (half - 1.0)
    }
}

/// 0..1 as a `bits` wide unsigned field at `shift`.
fn to_unorm(x: f32, shift: u32, bits: u32) -> u32 {
    let max = (1u32 << bits) - 1;
    ((x.clamp(0.0, 1.0) * max as f32).round() as u32 & max) << shift
}

/// -1..1 as a `bits` wide two's-complement field at `shift` (`snorm`'s inverse).
fn to_snorm(x: f32, shift: u32, bits: u32) -> u32 {
    let half = (1u32 << (bits - 1)) as f32;
    let x = x.clamp(-1.0, 1.0);
    let v = if x < 0.0 { x * half } else { x * (half - 1.0) }.round() as i32;
    (v as u32 & ((1u32 << bits) - 1)) << shift
}

fn half(bits: u16) -> f32 {
    half::f16::from_bits(bits).to_f32()
}

fn le(bytes: &[u8]) -> u32 {
    let mut b = [0u8; 4];
    for (o, i) in b.iter_mut().zip(bytes) {
        *o = *i;
    }
    u32::from_le_bytes(b)
}

/// The (r, g, b, a) a shader samples from one texel of `format` (`bytes`: its D3D9 bytes).
/// Depth formats give the depth in r; compressed formats are not decoded here.
pub(crate) fn decode(format: Format, bytes: &[u8]) -> [f32; 4] {
    let v = le(bytes);
    let f16 = |i: usize| half(u16::from_le_bytes([bytes[i * 2], bytes[i * 2 + 1]]));
    let f32_at = |i: usize| f32::from_le_bytes(le(&bytes[i * 4..i * 4 + 4]).to_le_bytes());
    match format {
        F::R8G8B8 => [unorm(v, 16, 8), unorm(v, 8, 8), unorm(v, 0, 8), 1.0],
        F::A8R8G8B8 => [
            unorm(v, 16, 8),
            unorm(v, 8, 8),
            unorm(v, 0, 8),
            unorm(v, 24, 8),
        ],
        F::X8R8G8B8 => [unorm(v, 16, 8), unorm(v, 8, 8), unorm(v, 0, 8), 1.0],
        F::A8B8G8R8 => [
            unorm(v, 0, 8),
            unorm(v, 8, 8),
            unorm(v, 16, 8),
            unorm(v, 24, 8),
        ],
        F::X8B8G8R8 => [unorm(v, 0, 8), unorm(v, 8, 8), unorm(v, 16, 8), 1.0],
        F::R5G6B5 => [unorm(v, 11, 5), unorm(v, 5, 6), unorm(v, 0, 5), 1.0],
        F::X1R5G5B5 => [unorm(v, 10, 5), unorm(v, 5, 5), unorm(v, 0, 5), 1.0],
        F::A1R5G5B5 => [
            unorm(v, 10, 5),
            unorm(v, 5, 5),
            unorm(v, 0, 5),
            unorm(v, 15, 1),
        ],
        F::A4R4G4B4 => [
            unorm(v, 8, 4),
            unorm(v, 4, 4),
            unorm(v, 0, 4),
            unorm(v, 12, 4),
        ],
        F::X4R4G4B4 => [unorm(v, 8, 4), unorm(v, 4, 4), unorm(v, 0, 4), 1.0],
        F::R3G3B2 => [unorm(v, 5, 3), unorm(v, 2, 3), unorm(v, 0, 2), 1.0],
        F::A8R3G3B2 => [
            unorm(v, 5, 3),
            unorm(v, 2, 3),
            unorm(v, 0, 2),
            unorm(v, 8, 8),
        ],
        F::A8 => [0.0, 0.0, 0.0, unorm(v, 0, 8)],
        F::L8 => {
            let l = unorm(v, 0, 8);
            [l, l, l, 1.0]
        }
        F::A8L8 => {
            let l = unorm(v, 0, 8);
            [l, l, l, unorm(v, 8, 8)]
        }
        F::A4L4 => {
            let l = unorm(v, 0, 4);
            [l, l, l, unorm(v, 4, 4)]
        }
        F::L16 => {
            let l = unorm(v, 0, 16);
            [l, l, l, 1.0]
        }
        F::V8U8 => [snorm(v, 0, 8), snorm(v, 8, 8), 1.0, 1.0],
        F::L6V5U5 => [snorm(v, 0, 5), snorm(v, 5, 5), unorm(v, 10, 6), 1.0],
        F::X8L8V8U8 => [snorm(v, 0, 8), snorm(v, 8, 8), unorm(v, 16, 8), 1.0],
        F::Q8W8V8U8 => [
            snorm(v, 0, 8),
            snorm(v, 8, 8),
            snorm(v, 16, 8),
            snorm(v, 24, 8),
        ],
        F::V16U16 => [snorm(v, 0, 16), snorm(v, 16, 16), 1.0, 1.0],
        F::A2W10V10U10 => [
            snorm(v, 0, 10),
            snorm(v, 10, 10),
            snorm(v, 20, 10),
            unorm(v, 30, 2),
        ],
        F::A2R10G10B10 => [
            unorm(v, 20, 10),
            unorm(v, 10, 10),
            unorm(v, 0, 10),
            unorm(v, 30, 2),
        ],
        F::A2B10G10R10 => [
            unorm(v, 0, 10),
            unorm(v, 10, 10),
            unorm(v, 20, 10),
            unorm(v, 30, 2),
        ],
        F::G16R16 => [unorm(v, 0, 16), unorm(v, 16, 16), 1.0, 1.0],
        F::A16B16G16R16 => {
            let w = le(&bytes[4..8]);
            [
                unorm(v, 0, 16),
                unorm(v, 16, 16),
                unorm(w, 0, 16),
                unorm(w, 16, 16),
            ]
        }
        F::Q16W16V16U16 => {
            let w = le(&bytes[4..8]);
            [
                snorm(v, 0, 16),
                snorm(v, 16, 16),
                snorm(w, 0, 16),
                snorm(w, 16, 16),
            ]
        }
        F::R16F => [f16(0), 1.0, 1.0, 1.0],
        F::G16R16F => [f16(0), f16(1), 1.0, 1.0],
        F::A16B16G16R16F => [f16(0), f16(1), f16(2), f16(3)],
        F::R32F => [f32_at(0), 1.0, 1.0, 1.0],
        F::G32R32F => [f32_at(0), f32_at(1), 1.0, 1.0],
        F::A32B32G32R32F => [f32_at(0), f32_at(1), f32_at(2), f32_at(3)],
        F::D16 | F::D16Lockable | F::Df16 => [unorm(v, 0, 16), 0.0, 0.0, 1.0],
        F::D24X8 | F::D24S8 | F::D32FLockable | F::D32 | F::Intz | F::Df24 => {
            [f32::from_bits(v), 0.0, 0.0, 1.0]
        }
        F::Null => [0.0; 4],
        // A lone YUV texel holds its luma and half its chroma: read as grey.
        F::Yuy2 => grey_of_luma(bytes[0]),
        F::Uyvy => grey_of_luma(bytes[1]),
        F::Dxt1 | F::Dxt2 | F::Dxt3 | F::Dxt4 | F::Dxt5 | F::Ati1 | F::Ati2 => [0.0; 4],
    }
}

/// One texel of `format` in D3D9's memory holding (r, g, b, a) (for a luminance format,
/// l is r; signed formats take u, v, w, q from r, g, b, a).
pub(crate) fn encode(format: Format, [r, g, b, a]: [f32; 4]) -> Vec<u8> {
    let bytes = |v: u32, n: usize| v.to_le_bytes()[..n].to_vec();
    let h = |x: f32| half::f16::from_f32(x).to_bits().to_le_bytes();
    match format {
        F::A8R8G8B8 | F::X8R8G8B8 => bytes(
            to_unorm(b, 0, 8) | to_unorm(g, 8, 8) | to_unorm(r, 16, 8) | to_unorm(a, 24, 8),
            4,
        ),
        F::R8G8B8 => bytes(
            to_unorm(b, 0, 8) | to_unorm(g, 8, 8) | to_unorm(r, 16, 8),
            3,
        ),
        F::A8B8G8R8 | F::X8B8G8R8 => bytes(
            to_unorm(r, 0, 8) | to_unorm(g, 8, 8) | to_unorm(b, 16, 8) | to_unorm(a, 24, 8),
            4,
        ),
        F::R5G6B5 => bytes(
            to_unorm(r, 11, 5) | to_unorm(g, 5, 6) | to_unorm(b, 0, 5),
            2,
        ),
        F::X1R5G5B5 | F::A1R5G5B5 => bytes(
            to_unorm(r, 10, 5) | to_unorm(g, 5, 5) | to_unorm(b, 0, 5) | to_unorm(a, 15, 1),
            2,
        ),
        F::A4R4G4B4 | F::X4R4G4B4 => bytes(
            to_unorm(r, 8, 4) | to_unorm(g, 4, 4) | to_unorm(b, 0, 4) | to_unorm(a, 12, 4),
            2,
        ),
        F::R3G3B2 => bytes(to_unorm(r, 5, 3) | to_unorm(g, 2, 3) | to_unorm(b, 0, 2), 1),
        F::A8R3G3B2 => bytes(
            to_unorm(r, 5, 3) | to_unorm(g, 2, 3) | to_unorm(b, 0, 2) | to_unorm(a, 8, 8),
            2,
        ),
        F::A8 => bytes(to_unorm(a, 0, 8), 1),
        F::L8 => bytes(to_unorm(r, 0, 8), 1),
        F::A8L8 => bytes(to_unorm(r, 0, 8) | to_unorm(a, 8, 8), 2),
        F::A4L4 => bytes(to_unorm(r, 0, 4) | to_unorm(a, 4, 4), 1),
        F::L16 => bytes(to_unorm(r, 0, 16), 2),
        F::V8U8 => bytes(to_snorm(r, 0, 8) | to_snorm(g, 8, 8), 2),
        F::L6V5U5 => bytes(
            to_snorm(r, 0, 5) | to_snorm(g, 5, 5) | to_unorm(b, 10, 6),
            2,
        ),
        F::X8L8V8U8 => bytes(
            to_snorm(r, 0, 8) | to_snorm(g, 8, 8) | to_unorm(b, 16, 8),
            4,
        ),
        F::Q8W8V8U8 => bytes(
            to_snorm(r, 0, 8) | to_snorm(g, 8, 8) | to_snorm(b, 16, 8) | to_snorm(a, 24, 8),
            4,
        ),
        F::V16U16 => bytes(to_snorm(r, 0, 16) | to_snorm(g, 16, 16), 4),
        F::A2W10V10U10 => bytes(
            to_snorm(r, 0, 10) | to_snorm(g, 10, 10) | to_snorm(b, 20, 10) | to_unorm(a, 30, 2),
            4,
        ),
        F::A2R10G10B10 => bytes(
            to_unorm(b, 0, 10) | to_unorm(g, 10, 10) | to_unorm(r, 20, 10) | to_unorm(a, 30, 2),
            4,
        ),
        F::A2B10G10R10 => bytes(
            to_unorm(r, 0, 10) | to_unorm(g, 10, 10) | to_unorm(b, 20, 10) | to_unorm(a, 30, 2),
            4,
        ),
        F::G16R16 => bytes(to_unorm(r, 0, 16) | to_unorm(g, 16, 16), 4),
        F::A16B16G16R16 => {
            let mut out = bytes(to_unorm(r, 0, 16) | to_unorm(g, 16, 16), 4);
            out.extend(bytes(to_unorm(b, 0, 16) | to_unorm(a, 16, 16), 4));
            out
        }
        F::Q16W16V16U16 => {
            let mut out = bytes(to_snorm(r, 0, 16) | to_snorm(g, 16, 16), 4);
            out.extend(bytes(to_snorm(b, 0, 16) | to_snorm(a, 16, 16), 4));
            out
        }
        F::R16F => h(r).to_vec(),
        F::G16R16F => [h(r), h(g)].concat(),
        F::A16B16G16R16F => [h(r), h(g), h(b), h(a)].concat(),
        F::R32F => r.to_le_bytes().to_vec(),
        F::G32R32F => [r.to_le_bytes(), g.to_le_bytes()].concat(),
        F::A32B32G32R32F => [r, g, b, a].iter().flat_map(|x| x.to_le_bytes()).collect(),
        F::D16 | F::D16Lockable | F::Df16 => bytes(to_unorm(r, 0, 16), 2),
        F::D24X8 | F::D24S8 | F::D32FLockable | F::D32 | F::Intz | F::Df24 => {
            r.to_le_bytes().to_vec()
        }
        F::Null => Vec::new(),
        F::Yuy2 => vec![luma([r, g, b]), 128],
        F::Uyvy => vec![128, luma([r, g, b])],
        F::Dxt1 | F::Dxt2 | F::Dxt3 | F::Dxt4 | F::Dxt5 | F::Ati1 | F::Ati2 => Vec::new(),
    }
}

/// BT.601's YUV (Y in 16..=235, U and V centred on 128) to RGB: per output channel, the
/// weights of Y - 16, U - 128 and V - 128 over 255. What Windows drivers give for YUY2 and UYVY
/// surfaces (Wine's yuv_layout_test and yuv_color_test, checked on Windows); the StretchRect
/// shader reads the same numbers.
pub(crate) const YUV_TO_RGB: [[f32; 3]; 3] = [
    [1.164_383, 0.0, 1.596_027],
    [1.164_383, -0.391_762, -0.812_968],
    [1.164_383, 2.017_232, 0.0],
];

/// A YUV texel of luma `y` and no chroma (U = V = 128) as (r, g, b, 1): only
/// [`YUV_TO_RGB`]'s Y weights count.
fn grey_of_luma(y: u8) -> [f32; 4] {
    let y = f32::from(y) - 16.0;
    let channel = |w: [f32; 3]| (w[0] * y / 255.0).clamp(0.0, 1.0);
    [
        channel(YUV_TO_RGB[0]),
        channel(YUV_TO_RGB[1]),
        channel(YUV_TO_RGB[2]),
        1.0,
    ]
}

/// BT.601's Y of an RGB colour.
fn luma([r, g, b]: [f32; 3]) -> u8 {
    (16.0 + 65.481 * r + 128.553 * g + 24.966 * b)
        .round()
        .clamp(0.0, 255.0) as u8
}

/// Bytes per texel of the wider wgpu formats texels are converted into.
fn gpu_texel(wgpu: W) -> usize {
    wgpu.block_copy_size(None).unwrap_or(4) as usize
}

/// (r, g, b, a) as one texel of `wgpu` (a format of `TABLE` that texels are converted into).
fn write_gpu(wgpu: W, c: [f32; 4], out: &mut Vec<u8>) {
    match wgpu {
        W::Rgba8Unorm => out.extend(c.map(|x| (x.clamp(0.0, 1.0) * 255.0).round() as u8)),
        W::Rgba8Snorm => out.extend(c.map(|x| (x.clamp(-1.0, 1.0) * 127.0).round() as i8 as u8)),
        W::Rgba16Unorm => {
            for x in c {
                out.extend(((x.clamp(0.0, 1.0) * 65535.0).round() as u16).to_le_bytes());
            }
        }
        W::Rgba16Snorm => {
            for x in c {
                out.extend(((x.clamp(-1.0, 1.0) * 32767.0).round() as i16).to_le_bytes());
            }
        }
        W::Rgba16Float => {
            for x in c {
                out.extend(half::f16::from_f32(x).to_bits().to_le_bytes());
            }
        }
        W::Rgba32Float => {
            for x in c {
                out.extend(x.to_le_bytes());
            }
        }
        W::Rgb10a2Unorm => out.extend(
            (to_unorm(c[0], 0, 10)
                | to_unorm(c[1], 10, 10)
                | to_unorm(c[2], 20, 10)
                | to_unorm(c[3], 30, 2))
            .to_le_bytes(),
        ),
        W::Bgra8Unorm => {
            out.extend([c[2], c[1], c[0], c[3]].map(|x| (x.clamp(0.0, 1.0) * 255.0).round() as u8))
        }
        _ => out.extend(std::iter::repeat_n(0, gpu_texel(wgpu))),
    }
}

/// One texel of `wgpu` as (r, g, b, a).
fn read_gpu(wgpu: W, t: &[u8]) -> [f32; 4] {
    let u16_at = |i: usize| u16::from_le_bytes([t[i * 2], t[i * 2 + 1]]);
    match wgpu {
        W::Rgba8Unorm => [0, 1, 2, 3].map(|i| f32::from(t[i]) / 255.0),
        W::Bgra8Unorm => [2, 1, 0, 3].map(|i| f32::from(t[i]) / 255.0),
        W::Rgba8Snorm => [0, 1, 2, 3].map(|i| (f32::from(t[i] as i8) / 127.0).max(-1.0)),
        W::Rgba16Unorm => [0, 1, 2, 3].map(|i| f32::from(u16_at(i)) / 65535.0),
        W::Rgba16Snorm => [0, 1, 2, 3].map(|i| (f32::from(u16_at(i) as i16) / 32767.0).max(-1.0)),
        W::Rgba16Float => [0, 1, 2, 3].map(|i| half(u16_at(i))),
        W::R16Float => [half(u16_at(0)), 1.0, 1.0, 1.0],
        W::Rg16Float => [half(u16_at(0)), half(u16_at(1)), 1.0, 1.0],
        W::Rgba32Float | W::R32Float | W::Rg32Float => {
            let n = gpu_texel(wgpu) / 4;
            let mut c = [0.0, 1.0, 1.0, 1.0];
            for (i, x) in c.iter_mut().enumerate().take(n) {
                *x = f32::from_le_bytes([t[i * 4], t[i * 4 + 1], t[i * 4 + 2], t[i * 4 + 3]]);
            }
            if n == 2 {
                c[2] = 1.0;
            }
            c
        }
        W::Rgb10a2Unorm => {
            let v = le(t);
            [
                unorm(v, 0, 10),
                unorm(v, 10, 10),
                unorm(v, 20, 10),
                unorm(v, 30, 2),
            ]
        }
        _ => [0.0; 4],
    }
}

/// Whether D3D9's bytes of `format` are the GPU texels of `wgpu` as they are (up to forcing
/// an X channel to 1 and swapping R and B, done by `copy_layout`).
fn copy_layout(format: Format, wgpu: W) -> Option<(bool, bool)> {
    // (swap R and B, force byte 3 to 0xff)
    match (format, wgpu) {
        (F::A8R8G8B8, W::Bgra8Unorm) | (F::A8B8G8R8, W::Rgba8Unorm) => Some((false, false)),
        (F::X8R8G8B8, W::Bgra8Unorm) | (F::X8B8G8R8, W::Rgba8Unorm) => Some((false, true)),
        (F::A8R8G8B8, W::Rgba8Unorm) => Some((true, false)),
        (F::X8R8G8B8, W::Rgba8Unorm) => Some((true, true)),
        (F::Yuy2 | F::Uyvy, W::Rg8Unorm)
        | (F::A2B10G10R10, W::Rgb10a2Unorm)
        | (F::A16B16G16R16, W::Rgba16Unorm)
        | (F::Q16W16V16U16, W::Rgba16Snorm)
        | (F::Q8W8V8U8, W::Rgba8Snorm)
        | (F::A16B16G16R16F, W::Rgba16Float)
        | (F::A32B32G32R32F, W::Rgba32Float)
        | (F::R16F, W::R16Float)
        | (F::G16R16F, W::Rg16Float)
        | (F::R32F, W::R32Float)
        | (F::G32R32F, W::Rg32Float) => Some((false, false)),
        // Float32 targets held as their bits where the adapter cannot render floats (GL).
        (F::R32F, W::R32Uint) | (F::G32R32F, W::Rg32Uint) | (F::A32B32G32R32F, W::Rgba32Uint) => {
            Some((false, false))
        }
        _ if format.is_depth() || format.is_compressed() => Some((false, false)),
        _ => None,
    }
}

/// D3D9's bytes of `format` → GPU texels of `wgpu`: images `width` x `height` one after the
/// other (the slices of a volume level).
pub(super) fn to_gpu(format: Format, wgpu: W, data: &[u8], width: u32, height: u32) -> Vec<u8> {
    if format.is_compressed() && !wgpu.is_compressed() {
        let image = format.image_size(width, height).max(1);
        return data
            .chunks(image)
            .flat_map(|slice| super::bc::decode_image(format, slice, width, height))
            .collect();
    }
    if let Some((swap, opaque)) = copy_layout(format, wgpu) {
        let mut out = data.to_vec();
        if swap || opaque {
            for texel in out.chunks_exact_mut(4) {
                if swap {
                    texel.swap(0, 2);
                }
                if opaque {
                    texel[3] = 0xff;
                }
            }
        }
        return out;
    }
    let size = match format.layout() {
        Layout::Texel(n) => n as usize,
        Layout::Block(_) => return data.to_vec(),
    };
    let mut out = Vec::with_capacity(data.len() / size.max(1) * gpu_texel(wgpu));
    for texel in data.chunks_exact(size) {
        write_gpu(wgpu, decode(format, texel), &mut out);
    }
    out
}

/// GPU texels of `wgpu` → D3D9's bytes of `format`.
pub(super) fn from_gpu(format: Format, wgpu: W, data: &[u8]) -> Vec<u8> {
    if let Some((swap, _)) = copy_layout(format, wgpu) {
        let mut out = data.to_vec();
        if swap {
            for texel in out.chunks_exact_mut(4) {
                texel.swap(0, 2);
            }
        }
        return out;
    }
    let size = gpu_texel(wgpu);
    let mut out = Vec::new();
    for texel in data.chunks_exact(size) {
        out.extend(encode(format, read_gpu(wgpu, texel)));
    }
    out
}

/// A surface's texels as D3D9's `LockRect` shows them: `width` x `height` texels of
/// `format`, rows top to bottom, tightly packed.
#[derive(Clone, Debug, PartialEq)]
pub struct SurfaceData {
    pub format: Format,
    pub width: u32,
    pub height: u32,
    pub data: Vec<u8>,
}

impl SurfaceData {
    /// The texel at (x, y), its bytes (uncompressed formats).
    pub fn texel(&self, x: u32, y: u32) -> Option<&[u8]> {
        if x >= self.width || y >= self.height || self.format.is_compressed() {
            return None;
        }
        let size = self.format.texel_size() as usize;
        let start = self.format.offset_of(x, y, self.width);
        self.data.get(start..start + size)
    }

    /// The texel at (x, y) as a `D3DCOLOR` (0xAARRGGBB): the 8-bit RGB formats as stored (X
    /// channels included), the other colour formats through what a shader samples; `None`
    /// outside the surface or for depth and float formats.
    pub fn color(&self, x: u32, y: u32) -> Option<u32> {
        let t = self.texel(x, y)?;
        match self.format {
            F::A8R8G8B8 | F::X8R8G8B8 => Some(le(t)),
            F::A8B8G8R8 | F::X8B8G8R8 => {
                let v = le(t);
                Some(v & 0xff00_ff00 | (v & 0xff) << 16 | (v >> 16) & 0xff)
            }
            f if f.is_depth() || f.is_float() => None,
            f => {
                let [r, g, b, a] = decode(f, t).map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u32);
                Some(a << 24 | r << 16 | g << 8 | b)
            }
        }
    }

    /// The texel at (x, y) as floats (r, g, b, a) as a shader samples it (missing channels
    /// as D3D9 reads them); depth formats give the depth in r.
    pub fn rgba_f32(&self, x: u32, y: u32) -> Option<[f32; 4]> {
        Some(decode(self.format, self.texel(x, y)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a8r8g8b8_render_targets_swizzle_both_ways() {
        let d3d = [1u8, 2, 3, 4];
        let f = F::A8R8G8B8.wgpu(true, false);
        let gpu = F::A8R8G8B8.to_wgpu_bytes(f, &d3d, 1, 1);
        assert_eq!(gpu, [3, 2, 1, 4]);
        assert_eq!(F::A8R8G8B8.wgpu_bytes_to_d3d(f, &gpu), d3d);
        let sampled = F::A8R8G8B8.wgpu(false, false);
        assert_eq!(F::A8R8G8B8.to_wgpu_bytes(sampled, &d3d, 1, 1), d3d);
        assert_eq!(
            F::X8R8G8B8.to_wgpu_bytes(sampled, &d3d, 1, 1),
            [1, 2, 3, 0xff]
        );
    }

    #[test]
    fn packed_formats_expand_and_pack_back_exactly() {
        for (format, texel) in [
            (F::R5G6B5, vec![0x1f, 0xf8]),
            (F::A1R5G5B5, vec![0x34, 0x92]),
            (F::A4R4G4B4, vec![0x12, 0xf3]),
            (F::R3G3B2, vec![0xa5]),
            (F::A8L8, vec![0x40, 0xc0]),
            (F::A4L4, vec![0x7a]),
            (F::L16, vec![0x34, 0x12]),
            (F::V8U8, vec![0x81, 0x7f]),
            (F::L6V5U5, vec![0x35, 0xa9]),
            (F::Q8W8V8U8, vec![1, 0x80, 0x7f, 0xfe]),
            (F::A2R10G10B10, vec![0x01, 0x02, 0x30, 0xc4]),
            (F::G16R16, vec![0x01, 0x80, 0xff, 0x7f]),
            (F::V16U16, vec![0x00, 0x80, 0xff, 0x7f]),
        ] {
            let gpu_format = format.wgpu(false, false);
            let gpu = format.to_wgpu_bytes(gpu_format, &texel, 1, 1);
            let back = format.wgpu_bytes_to_d3d(gpu_format, &gpu);
            // The most negative signed value reads -1, as does the one above it.
            if !matches!(format, F::V8U8 | F::V16U16 | F::Q8W8V8U8) {
                assert_eq!(back, texel, "{format:?}");
            }
        }
    }

    #[test]
    fn missing_channels_read_as_d3d9_fills_them() {
        assert_eq!(
            decode(F::L8, &[0x80]),
            [128.0 / 255.0, 128.0 / 255.0, 128.0 / 255.0, 1.0]
        );
        assert_eq!(decode(F::A8, &[0xff]), [0.0, 0.0, 0.0, 1.0]);
        // -127 reads -127/128: negative values over 128 (see `snorm`).
        assert_eq!(decode(F::V8U8, &[0x7f, 0x81]), [1.0, -0.9921875, 1.0, 1.0]);
        assert_eq!(decode(F::V8U8, &[0x80, 0]), [-1.0, 0.0, 1.0, 1.0]);
        assert_eq!(
            decode(F::G16R16F, &[0, 0x3c, 0, 0xc0]),
            [1.0, -2.0, 1.0, 1.0]
        );
        assert_eq!(decode(F::R32F, &0.5f32.to_le_bytes()), [0.5, 1.0, 1.0, 1.0]);
        assert_eq!(decode(F::R5G6B5, &[0xff, 0xff]), [1.0, 1.0, 1.0, 1.0]);
    }

    #[test]
    fn surface_colours_and_floats() {
        let s = SurfaceData {
            format: F::A8R8G8B8,
            width: 1,
            height: 1,
            data: vec![0x10, 0x20, 0x30, 0x40],
        };
        assert_eq!(s.color(0, 0), Some(0x4030_2010));
        assert_eq!(s.color(1, 0), None);
        let rgb565 = SurfaceData {
            format: F::R5G6B5,
            width: 1,
            height: 1,
            data: vec![0x00, 0xf8],
        };
        assert_eq!(rgb565.color(0, 0), Some(0xffff_0000));
        let r32 = SurfaceData {
            format: F::R32F,
            width: 1,
            height: 1,
            data: 0.5f32.to_le_bytes().to_vec(),
        };
        assert_eq!(r32.rgba_f32(0, 0), Some([0.5, 1.0, 1.0, 1.0]));
        assert_eq!(half(0x3c00), 1.0);
        assert_eq!(half(0x0001), 2f32.powi(-24));
    }

    /// The GPU texel layouts conversions go through, each way: BGRA's byte order, the
    /// half-float formats' missing channels read as 1.
    #[test]
    fn gpu_texels_are_written_and_read_in_their_layout() {
        let mut out = Vec::new();
        write_gpu(W::Bgra8Unorm, [1.0, 0.5, 0.0, 0.25], &mut out);
        assert_eq!(out, [0, 128, 255, 64]);
        assert_eq!(
            read_gpu(W::Bgra8Unorm, &[0, 51, 255, 102]),
            [1.0, 0.2, 0.0, 0.4]
        );
        assert_eq!(read_gpu(W::R16Float, &[0x00, 0xc0]), [-2.0, 1.0, 1.0, 1.0]);
        assert_eq!(
            read_gpu(W::Rg16Float, &[0x00, 0x3c, 0x00, 0x38]),
            [1.0, 0.5, 1.0, 1.0]
        );
        let snorm: Vec<u8> = [32767i16, -32767, 0, -32768]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        assert_eq!(read_gpu(W::Rgba16Snorm, &snorm), [1.0, -1.0, 0.0, -1.0]);
        let floats = |v: &[f32]| -> Vec<u8> { v.iter().flat_map(|f| f.to_le_bytes()).collect() };
        assert_eq!(read_gpu(W::R32Float, &floats(&[0.5])), [0.5, 1.0, 1.0, 1.0]);
        assert_eq!(
            read_gpu(W::Rg32Float, &floats(&[0.5, -2.0])),
            [0.5, -2.0, 1.0, 1.0]
        );
        assert_eq!(
            read_gpu(W::Rgba32Float, &floats(&[1.0, 2.0, 3.0, 4.0])),
            [1.0, 2.0, 3.0, 4.0]
        );
    }
}
