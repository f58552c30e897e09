//! Flexible vertex format codes (`D3DFVF_*`) ↔ vertex declarations, by the SDK's table.
//!
//! FVF → declaration is total for valid codes; declaration → FVF holds only under the
//! runtime's rules (FVF order, POSITION present as FLOAT3 or POSITIONT as FLOAT4, POSITION and
//! NORMAL with usage index 0, DEFAULT method, stream 0, no gaps, only elements of the table)
//! and otherwise names the first element that breaks one ([`FvfReason`]).

use super::element::{DeclMethod, DeclType, VertexElement};
use super::DeclError;
use crate::bytecode::Usage;
use crate::signature::Semantic;

pub const D3DFVF_RESERVED0: u32 = 0x001;
pub const D3DFVF_POSITION_MASK: u32 = 0x400E;
pub const D3DFVF_XYZ: u32 = 0x002;
pub const D3DFVF_XYZRHW: u32 = 0x004;
pub const D3DFVF_XYZB1: u32 = 0x006;
pub const D3DFVF_XYZB2: u32 = 0x008;
pub const D3DFVF_XYZB3: u32 = 0x00A;
pub const D3DFVF_XYZB4: u32 = 0x00C;
pub const D3DFVF_XYZB5: u32 = 0x00E;
pub const D3DFVF_XYZW: u32 = 0x4002;
pub const D3DFVF_NORMAL: u32 = 0x010;
pub const D3DFVF_PSIZE: u32 = 0x020;
pub const D3DFVF_DIFFUSE: u32 = 0x040;
pub const D3DFVF_SPECULAR: u32 = 0x080;
pub const D3DFVF_TEXCOUNT_MASK: u32 = 0xF00;
pub const D3DFVF_TEXCOUNT_SHIFT: u32 = 8;
pub const D3DFVF_LASTBETA_UBYTE4: u32 = 0x1000;
/// The reserved bit of `D3DFVF_RESERVED2` (0x6000) that `D3DFVF_XYZW` does not use.
pub const D3DFVF_RESERVED2_FREE: u32 = 0x2000;
pub const D3DFVF_LASTBETA_D3DCOLOR: u32 = 0x8000;

/// `D3DFVF_TEXn`: n texture coordinate sets (0–8).
pub const fn d3dfvf_tex(n: u32) -> u32 {
    n << D3DFVF_TEXCOUNT_SHIFT
}

/// `D3DFVF_TEXCOORDSIZEk(set)` for k = 1..=4 (k = 2 is the zero code).
pub const fn d3dfvf_texcoordsize(components: u32, set: u32) -> u32 {
    let code = match components {
        1 => 3,
        3 => 1,
        4 => 2,
        _ => 0,
    };
    code << (set * 2 + 16)
}

/// The fixed-layout FVF bits after position and blending, in FVF order.
const FIXED: [(u32, DeclType, Usage, u8); 4] = [
    (D3DFVF_NORMAL, DeclType::Float3, Usage::Normal, 0),
    (D3DFVF_PSIZE, DeclType::Float1, Usage::PSize, 0),
    (D3DFVF_DIFFUSE, DeclType::D3DColor, Usage::Color, 0),
    (D3DFVF_SPECULAR, DeclType::D3DColor, Usage::Color, 1),
];

/// `D3DFVF_TEXCOORDSIZE` code (2 bits per set) → element type.
const TEXCOORD_TYPES: [DeclType; 4] = [
    DeclType::Float2,
    DeclType::Float3,
    DeclType::Float4,
    DeclType::Float1,
];

/// FLOATn for n = 1..=4.
const FLOATS: [DeclType; 4] = [
    DeclType::Float1,
    DeclType::Float2,
    DeclType::Float3,
    DeclType::Float4,
];

fn invalid(fvf: u32, reason: &'static str) -> DeclError {
    DeclError::InvalidFvf { fvf, reason }
}

/// Check an FVF code: no reserved bit, a position value of the table, at most 8 texture sets.
pub fn check_fvf(fvf: u32) -> Result<(), DeclError> {
    if fvf & D3DFVF_RESERVED0 != 0 {
        return Err(invalid(fvf, "reserved bit 0x1 set"));
    }
    if fvf & D3DFVF_RESERVED2_FREE != 0 {
        return Err(invalid(fvf, "reserved bit 0x2000 set"));
    }
    let pos = fvf & D3DFVF_POSITION_MASK;
    if pos & 0x4000 != 0 && pos != D3DFVF_XYZW {
        return Err(invalid(fvf, "bit 0x4000 set without D3DFVF_XYZW"));
    }
    if (fvf & D3DFVF_TEXCOUNT_MASK) >> D3DFVF_TEXCOUNT_SHIFT > 8 {
        return Err(invalid(fvf, "more than 8 texture coordinate sets"));
    }
    Ok(())
}

/// The number of blending betas of the position code (XYZB1–XYZB5), 0 otherwise.
fn betas(fvf: u32) -> u32 {
    match fvf & D3DFVF_POSITION_MASK {
        p @ D3DFVF_XYZB1..=D3DFVF_XYZB5 => (p - D3DFVF_XYZRHW) / 2,
        _ => 0,
    }
}

/// The FVF as the runtime reads it: texture-size bits of absent sets cleared, LASTBETA flags
/// cleared without XYZBn, and LASTBETA_D3DCOLOR cleared when LASTBETA_UBYTE4 is also set (UBYTE4
/// takes precedence). Two codes with the same canonical form give the same declaration.
pub fn canonical_fvf(fvf: u32) -> Result<u32, DeclError> {
    check_fvf(fvf)?;
    let count = (fvf & D3DFVF_TEXCOUNT_MASK) >> D3DFVF_TEXCOUNT_SHIFT;
    let size_mask = if count == 0 {
        0
    } else {
        (u32::MAX >> (32 - 2 * count)) << 16
    };
    let mut out = fvf & (0xFFFF | size_mask);
    if betas(fvf) == 0 {
        out &= !(D3DFVF_LASTBETA_UBYTE4 | D3DFVF_LASTBETA_D3DCOLOR);
    } else if out & D3DFVF_LASTBETA_UBYTE4 != 0 {
        out &= !D3DFVF_LASTBETA_D3DCOLOR;
    }
    Ok(out)
}

/// The declaration an FVF stands for (`SetFVF`), all on stream 0, offsets packed in FVF order.
///
/// Position: XYZ → POSITION FLOAT3; XYZRHW → POSITIONT FLOAT4; XYZW → POSITION FLOAT4;
/// XYZBn → POSITION FLOAT3 and n betas. The last beta is BLENDINDICES (UBYTE4 with
/// LASTBETA_UBYTE4, D3DCOLOR with LASTBETA_D3DCOLOR, FLOAT1 for XYZB5 without either) and the
/// others BLENDWEIGHT FLOATn. One quirk of the native runtime (Wine's `test_fvf_decl_conversion`,
/// passing on Windows): XYZB2 | LASTBETA_D3DCOLOR gives BLENDWEIGHT D3DCOLOR and BLENDINDICES
/// UBYTE4. Then NORMAL FLOAT3, PSIZE FLOAT1, DIFFUSE = COLOR0 D3DCOLOR, SPECULAR = COLOR1
/// D3DCOLOR, and TEXCOORDi FLOATk for the `D3DFVF_TEXCOORDSIZEk(i)` of each of TEXn sets.
pub fn fvf_to_elements(fvf: u32) -> Result<Vec<VertexElement>, DeclError> {
    let fvf = canonical_fvf(fvf)?;
    let mut out = Vec::new();
    let mut offset = 0u16;
    let mut push = |ty: DeclType, usage: Usage, index: u8| {
        out.push(VertexElement::new(0, offset, ty, usage, index));
        offset += ty.size() as u16;
    };
    match fvf & D3DFVF_POSITION_MASK {
        0 => {}
        D3DFVF_XYZRHW => push(DeclType::Float4, Usage::PositionT, 0),
        D3DFVF_XYZW => push(DeclType::Float4, Usage::Position, 0),
        _ => push(DeclType::Float3, Usage::Position, 0),
    }
    let n = betas(fvf);
    if n == 2 && fvf & D3DFVF_LASTBETA_D3DCOLOR != 0 {
        push(DeclType::D3DColor, Usage::BlendWeight, 0);
        push(DeclType::UByte4, Usage::BlendIndices, 0);
    } else if n != 0 {
        let last = if fvf & D3DFVF_LASTBETA_UBYTE4 != 0 {
            Some(DeclType::UByte4)
        } else if fvf & D3DFVF_LASTBETA_D3DCOLOR != 0 {
            Some(DeclType::D3DColor)
        } else if n == 5 {
            Some(DeclType::Float1)
        } else {
            None
        };
        let weights = n - u32::from(last.is_some());
        if weights > 0 {
            push(FLOATS[weights as usize - 1], Usage::BlendWeight, 0);
        }
        if let Some(ty) = last {
            push(ty, Usage::BlendIndices, 0);
        }
    }
    for (bit, ty, usage, index) in FIXED {
        if fvf & bit != 0 {
            push(ty, usage, index);
        }
    }
    let count = (fvf & D3DFVF_TEXCOUNT_MASK) >> D3DFVF_TEXCOUNT_SHIFT;
    for set in 0..count {
        let code = (fvf >> (16 + 2 * set)) & 3;
        push(TEXCOORD_TYPES[code as usize], Usage::TexCoord, set as u8);
    }
    Ok(out)
}

/// The vertex size in bytes of an FVF (`D3DXGetFVFVertexSize`).
pub fn fvf_vertex_size(fvf: u32) -> Result<u32, DeclError> {
    Ok(fvf_to_elements(fvf)?.iter().map(|e| e.ty.size()).sum())
}

/// Why a declaration has no FVF equivalent (the first rule broken, with its element).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FvfReason {
    #[error("element {element} is on stream {stream}; an FVF describes stream 0 only")]
    NotStreamZero { element: usize, stream: u16 },
    #[error("element {element} uses method {method}; an FVF has DEFAULT only")]
    Method { element: usize, method: DeclMethod },
    #[error(
        "element {element} at offset {offset}: FVF elements are packed, expected offset {expected}"
    )]
    Offset {
        element: usize,
        offset: u16,
        expected: u32,
    },
    #[error("element {element} ({semantic} {ty}) is not in the FVF table")]
    NotInTable {
        element: usize,
        semantic: Semantic,
        ty: DeclType,
    },
    #[error("element {element} ({semantic}): POSITION and NORMAL must use usage index 0")]
    UsageIndex { element: usize, semantic: Semantic },
    #[error("element {element} ({semantic}) is out of FVF order")]
    Order { element: usize, semantic: Semantic },
    #[error(
        "element {element} ({semantic}): texture coordinates must be TEXCOORD0, 1, 2, ... in order"
    )]
    TexCoordIndex { element: usize, semantic: Semantic },
    #[error("element {element} ({semantic}): blending needs POSITION FLOAT3 first")]
    BlendWithoutPosition { element: usize, semantic: Semantic },
    #[error("element {element}: BLENDINDICES {ty} after BLENDWEIGHT of {weights} floats has no XYZBn code")]
    BlendIndices {
        element: usize,
        ty: DeclType,
        weights: u32,
    },
    #[error("no POSITION (FLOAT3) or POSITIONT (FLOAT4) element")]
    NoPosition,
}

/// FVF order slots: position, blend weight, blend indices, normal, psize, color0, color1,
/// texcoord0..7.
fn slot(e: &VertexElement, element: usize) -> Result<u32, FvfReason> {
    let semantic = e.semantic();
    let not_in_table = FvfReason::NotInTable {
        element,
        semantic,
        ty: e.ty,
    };
    let zero_index = |slot: u32| {
        if e.usage_index == 0 {
            Ok(slot)
        } else {
            Err(FvfReason::UsageIndex { element, semantic })
        }
    };
    match (e.usage, e.ty) {
        (Usage::Position, DeclType::Float3) | (Usage::PositionT, DeclType::Float4) => zero_index(0),
        (Usage::Normal, DeclType::Float3) => zero_index(3),
        (Usage::BlendWeight, _) | (Usage::BlendIndices, _) | (Usage::PSize, _)
            if e.usage_index != 0 =>
        {
            Err(not_in_table)
        }
        (
            Usage::BlendWeight,
            DeclType::Float1
            | DeclType::Float2
            | DeclType::Float3
            | DeclType::Float4
            | DeclType::D3DColor,
        ) => Ok(1),
        (Usage::BlendIndices, DeclType::UByte4 | DeclType::D3DColor | DeclType::Float1) => Ok(2),
        (Usage::PSize, DeclType::Float1) => Ok(4),
        (Usage::Color, DeclType::D3DColor) if e.usage_index < 2 => Ok(5 + u32::from(e.usage_index)),
        (
            Usage::TexCoord,
            DeclType::Float1 | DeclType::Float2 | DeclType::Float3 | DeclType::Float4,
        ) if e.usage_index < 8 => Ok(7 + u32::from(e.usage_index)),
        _ => Err(not_in_table),
    }
}

/// The FVF code of a declaration (what `GetFVF` reports after `SetVertexDeclaration`), or the
/// first reason there is none.
pub fn elements_to_fvf(elements: &[VertexElement]) -> Result<u32, FvfReason> {
    let mut fvf = 0u32;
    let mut next_offset = 0u32;
    let mut last_slot: Option<u32> = None;
    let mut position: Option<Usage> = None;
    let mut weights: Option<DeclType> = None;
    let mut textures = 0u32;
    for (element, e) in elements.iter().enumerate() {
        let semantic = e.semantic();
        if e.stream != 0 {
            return Err(FvfReason::NotStreamZero {
                element,
                stream: e.stream,
            });
        }
        if e.method != DeclMethod::Default {
            return Err(FvfReason::Method {
                element,
                method: e.method,
            });
        }
        if u32::from(e.offset) != next_offset {
            return Err(FvfReason::Offset {
                element,
                offset: e.offset,
                expected: next_offset,
            });
        }
        next_offset += e.ty.size();
        let s = slot(e, element)?;
        if last_slot.is_some_and(|l| s <= l) {
            return Err(FvfReason::Order { element, semantic });
        }
        last_slot = Some(s);
        match s {
            0 => {
                position = Some(e.usage);
                fvf |= if e.usage == Usage::PositionT {
                    D3DFVF_XYZRHW
                } else {
                    D3DFVF_XYZ
                };
            }
            1 | 2 if position != Some(Usage::Position) => {
                return Err(FvfReason::BlendWithoutPosition { element, semantic });
            }
            1 => weights = Some(e.ty),
            2 => {
                let n = match weights {
                    None => 0,
                    Some(DeclType::D3DColor) => 4, // only valid with UBYTE4 indices, below
                    Some(t) => t.size() / 4,
                };
                let (betas, flag) = match (weights, e.ty) {
                    (Some(DeclType::D3DColor), DeclType::UByte4) => (2, D3DFVF_LASTBETA_D3DCOLOR),
                    (Some(DeclType::D3DColor), _) => {
                        return Err(FvfReason::BlendIndices {
                            element,
                            ty: e.ty,
                            weights: n,
                        })
                    }
                    (_, DeclType::UByte4) => (n + 1, D3DFVF_LASTBETA_UBYTE4),
                    (_, DeclType::D3DColor) => (n + 1, D3DFVF_LASTBETA_D3DCOLOR),
                    (_, _) if n == 4 => (5, 0),
                    _ => {
                        return Err(FvfReason::BlendIndices {
                            element,
                            ty: e.ty,
                            weights: n,
                        })
                    }
                };
                weights = None;
                fvf = (fvf & !D3DFVF_POSITION_MASK) | (D3DFVF_XYZRHW + 2 * betas) | flag;
            }
            3..=6 => fvf |= FIXED[(s - 3) as usize].0,
            _ => {
                let set = s - 7;
                if set != textures {
                    return Err(FvfReason::TexCoordIndex { element, semantic });
                }
                textures += 1;
                let code = TEXCOORD_TYPES.iter().position(|t| *t == e.ty).unwrap_or(0) as u32;
                fvf |= code << (16 + 2 * set);
            }
        }
    }
    // Weights with no indices after them.
    match weights {
        Some(DeclType::D3DColor) => {
            let element = elements
                .iter()
                .position(|e| e.usage == Usage::BlendWeight)
                .unwrap_or(0);
            return Err(FvfReason::NotInTable {
                element,
                semantic: Semantic::new(Usage::BlendWeight, 0),
                ty: DeclType::D3DColor,
            });
        }
        Some(t) => fvf = (fvf & !D3DFVF_POSITION_MASK) | (D3DFVF_XYZRHW + 2 * (t.size() / 4)),
        None => {}
    }
    if position.is_none() {
        return Err(FvfReason::NoPosition);
    }
    Ok(fvf | d3dfvf_tex(textures))
}
