//! Vertex elements decoded on the CPU, as the input assembler delivers them to `v#`: every
//! `D3DDECLTYPE` with the components it does not supply read from (0, 0, 0, 1). The values
//! are those the GPU fetch plus `FetchConversion` give (`decl::element::DECL_TYPES`): the
//! differential tests hold the two to each other.

use crate::decl::DeclType;

/// The `vec4` an element of type `ty` delivers from its bytes (`ty.size()` of them);
/// `None` for `UNUSED` or too few bytes.
pub fn decode(ty: DeclType, bytes: &[u8]) -> Option<[f32; 4]> {
    let mut v = [0.0, 0.0, 0.0, 1.0];
    let word = |i: usize| -> Option<[u8; 4]> { bytes.get(4 * i..4 * i + 4)?.try_into().ok() };
    let half = |i: usize| -> Option<[u8; 2]> { bytes.get(2 * i..2 * i + 2)?.try_into().ok() };
    let byte = |i: usize| bytes.get(i).copied();
    match ty {
        DeclType::Float1 | DeclType::Float2 | DeclType::Float3 | DeclType::Float4 => {
            let n = match ty {
                DeclType::Float1 => 1,
                DeclType::Float2 => 2,
                DeclType::Float3 => 3,
                _ => 4,
            };
            for (i, slot) in v.iter_mut().enumerate().take(n) {
                *slot = f32::from_le_bytes(word(i)?);
            }
        }
        DeclType::D3DColor => {
            // Bytes B, G, R, A (a little-endian 0xAARRGGBB).
            let c = [byte(2)?, byte(1)?, byte(0)?, byte(3)?];
            for (slot, b) in v.iter_mut().zip(c) {
                *slot = f32::from(b) / 255.0;
            }
        }
        DeclType::UByte4 | DeclType::UByte4N => {
            for (i, slot) in v.iter_mut().enumerate() {
                let b = f32::from(byte(i)?);
                *slot = if ty == DeclType::UByte4N {
                    b / 255.0
                } else {
                    b
                };
            }
        }
        DeclType::Short2 | DeclType::Short4 | DeclType::Short2N | DeclType::Short4N => {
            let n = if matches!(ty, DeclType::Short2 | DeclType::Short2N) {
                2
            } else {
                4
            };
            let normalized = matches!(ty, DeclType::Short2N | DeclType::Short4N);
            for (i, slot) in v.iter_mut().enumerate().take(n) {
                let s = f32::from(i16::from_le_bytes(half(i)?));
                *slot = if normalized {
                    (s / 32767.0).max(-1.0)
                } else {
                    s
                };
            }
        }
        DeclType::UShort2N | DeclType::UShort4N => {
            let n = if ty == DeclType::UShort2N { 2 } else { 4 };
            for (i, slot) in v.iter_mut().enumerate().take(n) {
                *slot = f32::from(u16::from_le_bytes(half(i)?)) / 65535.0;
            }
        }
        DeclType::UDec3 | DeclType::Dec3N => {
            let x = u32::from_le_bytes(word(0)?);
            for (k, slot) in v.iter_mut().enumerate().take(3) {
                let field = (x >> (10 * k)) & 0x3FF;
                *slot = if ty == DeclType::UDec3 {
                    field as f32
                } else {
                    // Sign-extend the 10-bit field.
                    let signed = ((field << 22) as i32) >> 22;
                    (signed as f32 / 511.0).max(-1.0)
                };
            }
        }
        DeclType::Float16x2 | DeclType::Float16x4 => {
            let n = if ty == DeclType::Float16x2 { 2 } else { 4 };
            for (i, slot) in v.iter_mut().enumerate().take(n) {
                *slot = half::f16::from_le_bytes(half(i)?).to_f32();
            }
        }
        DeclType::Unused => return None,
    }
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_decodes_as_the_sdk_defines_it() {
        let f = |x: f32| x.to_le_bytes();
        let bytes: Vec<u8> = [f(1.5), f(-2.0), f(3.0), f(4.0)].concat();
        assert_eq!(decode(DeclType::Float1, &bytes), Some([1.5, 0.0, 0.0, 1.0]));
        assert_eq!(
            decode(DeclType::Float3, &bytes),
            Some([1.5, -2.0, 3.0, 1.0])
        );
        assert_eq!(
            decode(DeclType::Float4, &bytes),
            Some([1.5, -2.0, 3.0, 4.0])
        );
        // 0x80FF0033 as D3DCOLOR: A=0x80 R=0xFF G=0x00 B=0x33.
        let c = 0x80FF_0033u32.to_le_bytes();
        assert_eq!(
            decode(DeclType::D3DColor, &c),
            Some([1.0, 0.0, 51.0 / 255.0, 128.0 / 255.0])
        );
        assert_eq!(
            decode(DeclType::UByte4, &[1, 2, 3, 255]),
            Some([1.0, 2.0, 3.0, 255.0])
        );
        assert_eq!(
            decode(DeclType::UByte4N, &[0, 255, 0, 255]),
            Some([0.0, 1.0, 0.0, 1.0])
        );
        let s: Vec<u8> = [-32768i16, 32767, -2, 7]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        assert_eq!(
            decode(DeclType::Short2, &s),
            Some([-32768.0, 32767.0, 0.0, 1.0])
        );
        assert_eq!(
            decode(DeclType::Short4, &s),
            Some([-32768.0, 32767.0, -2.0, 7.0])
        );
        assert_eq!(decode(DeclType::Short2N, &s), Some([-1.0, 1.0, 0.0, 1.0]));
        let u: Vec<u8> = [65535u16, 0].iter().flat_map(|x| x.to_le_bytes()).collect();
        assert_eq!(decode(DeclType::UShort2N, &u), Some([1.0, 0.0, 0.0, 1.0]));
        // UDEC3 / DEC3N: x = 1, y = 0x3FF (1023 / -1), z = 0x200 (512 / -512 → -1).
        let d = (1u32 | (0x3FF << 10) | (0x200 << 20)).to_le_bytes();
        assert_eq!(decode(DeclType::UDec3, &d), Some([1.0, 1023.0, 512.0, 1.0]));
        assert_eq!(
            decode(DeclType::Dec3N, &d),
            Some([1.0 / 511.0, -1.0 / 511.0, -1.0, 1.0])
        );
        let h: Vec<u8> = [0x3C00u16, 0xC000, 0x7C00, 0x0001]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        assert_eq!(decode(DeclType::Float16x2, &h), Some([1.0, -2.0, 0.0, 1.0]));
        let v = decode(DeclType::Float16x4, &h).expect("decodes");
        assert_eq!(&v[..3], &[1.0, -2.0, f32::INFINITY]);
        assert_eq!(v[3], 2f32.powi(-24));
        assert_eq!(decode(DeclType::Float4, &bytes[..8]), None);
        assert_eq!(decode(DeclType::Unused, &bytes), None);
    }
}
