//! DirectX 8 vertex declarations (`D3DVSD_*` tokens, passed to DX8 `CreateVertexShader`)
//! ↔ DirectX 9 elements.
//!
//! A DX8 declaration binds vertex data to input registers `v0`–`v16`; the register table
//! [`crate::signature::DX8_REGISTERS`] (`D3DVSDE_POSITION` = 0 … `D3DVSDE_NORMAL2` = 16) gives
//! the (usage, index) of each. Within a stream, `D3DVSD_REG` elements follow one another with
//! no gaps except those made by `D3DVSD_SKIP` (DWORDs) and `D3DVSD_SKIPBYTES` (bytes).

use super::element::{DeclMethod, DeclType, RawElement, VertexElement};
use super::validate::validate;
use super::DeclError;
use crate::signature::{dx8_register_of, dx8_register_semantic, Semantic};

pub const D3DVSD_TOKEN_NOP: u32 = 0;
pub const D3DVSD_TOKEN_STREAM: u32 = 1;
pub const D3DVSD_TOKEN_STREAMDATA: u32 = 2;
pub const D3DVSD_TOKEN_TESSELLATOR: u32 = 3;
pub const D3DVSD_TOKEN_CONSTMEM: u32 = 4;
pub const D3DVSD_TOKEN_EXT: u32 = 5;
pub const D3DVSD_TOKEN_END: u32 = 7;
/// `D3DVSD_END()`.
pub const D3DVSD_END: u32 = 0xFFFF_FFFF;
/// `D3DVSD_NOP()`.
pub const D3DVSD_NOP: u32 = 0;
const STREAM_TESS: u32 = 1 << 28;
const DATA_SKIP: u32 = 0x1000_0000;
const DATA_SKIPBYTES: u32 = 0x0800_0000;

/// `D3DVSD_STREAM(stream)`.
pub const fn d3dvsd_stream(stream: u32) -> u32 {
    (D3DVSD_TOKEN_STREAM << 29) | stream
}
/// `D3DVSD_REG(register, type)`.
pub const fn d3dvsd_reg(register: u32, ty: u32) -> u32 {
    (D3DVSD_TOKEN_STREAMDATA << 29) | (ty << 16) | register
}
/// `D3DVSD_SKIP(dwords)` (0–15).
pub const fn d3dvsd_skip(dwords: u32) -> u32 {
    (D3DVSD_TOKEN_STREAMDATA << 29) | DATA_SKIP | (dwords << 16)
}
/// `D3DVSD_SKIPBYTES(bytes)` (0–15).
pub const fn d3dvsd_skipbytes(bytes: u32) -> u32 {
    (D3DVSD_TOKEN_STREAMDATA << 29) | DATA_SKIP | DATA_SKIPBYTES | (bytes << 16)
}
/// `D3DVSD_CONST(address, count)`, followed by `4 * count` DWORDs of data.
pub const fn d3dvsd_const(address: u32, count: u32) -> u32 {
    (D3DVSD_TOKEN_CONSTMEM << 29) | (count << 25) | address
}

/// Constants a DX8 declaration loads with `D3DVSD_CONST`: `values[i]` goes to `c[address + i]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dx8Constants {
    pub address: u32,
    pub values: Vec<[u32; 4]>,
}

/// A DX8 declaration read as DX9 elements plus the constants it loads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dx8Declaration {
    pub elements: Vec<VertexElement>,
    pub constants: Vec<Dx8Constants>,
}

/// Read DX8 declaration tokens up to `D3DVSD_END`, as the D3D8 runtime converts them.
///
/// STREAM starts a stream at offset 0 (data before any STREAM token is on stream 0, as in
/// Wine's d3d8); REG adds an element of the register's (usage, index) with a type up to
/// SHORT4; SKIP/SKIPBYTES advance the offset; CONST records constant data; NOP is ignored.
/// Tessellator tokens (`D3DVSD_STREAM_TESS`, `D3DVSD_TESSNORMAL`, `D3DVSD_TESSUV`) and
/// extension tokens are `Unsupported`. The elements then pass the DX9 creation checks.
pub fn dx8_to_elements(tokens: &[u32]) -> Result<Dx8Declaration, DeclError> {
    let mut raw: Vec<RawElement> = Vec::new();
    let mut constants = Vec::new();
    let mut stream = 0u32;
    let mut offset = 0u32;
    let mut i = 0usize;
    let bad = |token: usize, value: u32, reason: &'static str| DeclError::Dx8Invalid {
        token,
        value,
        reason,
    };
    loop {
        let Some(&t) = tokens.get(i) else {
            return Err(bad(i, 0, "no D3DVSD_END"));
        };
        if t == D3DVSD_END {
            break;
        }
        match t >> 29 {
            D3DVSD_TOKEN_NOP => {}
            D3DVSD_TOKEN_STREAM if t & STREAM_TESS != 0 => {
                return Err(DeclError::Dx8Unsupported {
                    token: i,
                    value: t,
                    reason: "D3DVSD_STREAM_TESS (tessellator stream)",
                });
            }
            D3DVSD_TOKEN_STREAM => {
                stream = t & 0x0FFF_FFFF;
                if stream >= 16 {
                    return Err(bad(i, t, "stream number ≥ 16"));
                }
                offset = 0;
            }
            D3DVSD_TOKEN_STREAMDATA if t & DATA_SKIP != 0 => {
                let count = (t >> 16) & 0xF;
                offset += if t & DATA_SKIPBYTES != 0 {
                    count
                } else {
                    4 * count
                };
            }
            D3DVSD_TOKEN_STREAMDATA => {
                let register = t & 0x1F;
                let ty = (t >> 16) & 0xF;
                if ty > DeclType::Short4 as u32 {
                    return Err(bad(i, t, "data type beyond D3DVSDT_SHORT4"));
                }
                let semantic = dx8_register_semantic(register).ok_or(bad(
                    i,
                    t,
                    "vertex register beyond D3DVSDE_NORMAL2 (16)",
                ))?;
                let off = u16::try_from(offset).map_err(|_| bad(i, t, "offset beyond 65535"))?;
                raw.push(RawElement {
                    stream: stream as u16,
                    offset: off,
                    ty: ty as u8,
                    method: DeclMethod::Default as u8,
                    usage: semantic.usage.raw() as u8,
                    usage_index: semantic.index,
                });
                offset += DeclType::from_raw(ty as u8).map_or(0, DeclType::size);
            }
            D3DVSD_TOKEN_TESSELLATOR => {
                return Err(DeclError::Dx8Unsupported {
                    token: i,
                    value: t,
                    reason: "tessellator token (D3DVSD_TESSNORMAL / D3DVSD_TESSUV)",
                });
            }
            D3DVSD_TOKEN_CONSTMEM => {
                let count = ((t >> 25) & 0xF) as usize;
                let address = t & 0x7F;
                let data = tokens.get(i + 1..i + 1 + 4 * count).ok_or(bad(
                    i,
                    t,
                    "D3DVSD_CONST data runs past the end",
                ))?;
                let values = data
                    .chunks_exact(4)
                    .map(|c| [c[0], c[1], c[2], c[3]])
                    .collect();
                constants.push(Dx8Constants { address, values });
                i += 4 * count;
            }
            D3DVSD_TOKEN_EXT => {
                return Err(DeclError::Dx8Unsupported {
                    token: i,
                    value: t,
                    reason: "extension token (D3DVSD_TOKEN_EXT)",
                });
            }
            _ => return Err(bad(i, t, "unknown token type")),
        }
        i += 1;
    }
    let elements = validate(&raw)?;
    Ok(Dx8Declaration {
        elements,
        constants,
    })
}

/// Why a declaration has no DX8 form.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Dx8Reason {
    #[error("element {element} uses method {method}; DX8 declarations have DEFAULT only")]
    Method { element: usize, method: DeclMethod },
    #[error("element {element} has type {ty}; DX8 declarations stop at SHORT4")]
    Type { element: usize, ty: DeclType },
    #[error("element {element} ({semantic}) has no DX8 register (D3DVSDE_*)")]
    NoRegister { element: usize, semantic: Semantic },
    #[error("element {element} shares or overlaps bytes with element {other} in stream {stream}")]
    Overlap {
        element: usize,
        other: usize,
        stream: u16,
    },
}

/// The DX8 tokens of a declaration: one `D3DVSD_STREAM` per stream (streams in order of first
/// use), then its elements by offset as `D3DVSD_REG`, gaps as `D3DVSD_SKIP`, and `D3DVSD_END`.
pub fn elements_to_dx8(elements: &[VertexElement]) -> Result<Vec<u32>, Dx8Reason> {
    let mut registers = Vec::with_capacity(elements.len());
    for (element, e) in elements.iter().enumerate() {
        if e.method != DeclMethod::Default {
            return Err(Dx8Reason::Method {
                element,
                method: e.method,
            });
        }
        if e.ty > DeclType::Short4 {
            return Err(Dx8Reason::Type { element, ty: e.ty });
        }
        let register = dx8_register_of(e.semantic()).ok_or(Dx8Reason::NoRegister {
            element,
            semantic: e.semantic(),
        })?;
        registers.push(register);
    }
    let mut streams: Vec<u16> = Vec::new();
    for e in elements {
        if !streams.contains(&e.stream) {
            streams.push(e.stream);
        }
    }
    let mut tokens = Vec::new();
    for stream in streams {
        tokens.push(d3dvsd_stream(u32::from(stream)));
        let mut order: Vec<usize> = (0..elements.len())
            .filter(|&i| elements[i].stream == stream)
            .collect();
        order.sort_by_key(|&i| elements[i].offset);
        let mut cursor = 0u32;
        let mut previous: Option<usize> = None;
        for i in order {
            let e = &elements[i];
            let offset = u32::from(e.offset);
            if offset < cursor {
                let other = previous.unwrap_or(i);
                return Err(Dx8Reason::Overlap {
                    element: i.max(other),
                    other: i.min(other),
                    stream,
                });
            }
            let mut gap = (offset - cursor) / 4;
            while gap > 0 {
                let n = gap.min(15);
                tokens.push(d3dvsd_skip(n));
                gap -= n;
            }
            tokens.push(d3dvsd_reg(registers[i], u32::from(e.ty.raw())));
            cursor = e.end();
            previous = Some(i);
        }
    }
    tokens.push(D3DVSD_END);
    Ok(tokens)
}
