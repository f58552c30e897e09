//! FVF ↔ declaration: the SDK table, the runtime's conversion rules, and round trips.

#![allow(clippy::panic)] // the hand-written SDK tables refuse what the SDK does not list

use d3d9_translator::bytecode::Usage;
use d3d9_translator::decl::fvf::*;
use d3d9_translator::decl::{
    DeclError, DeclType, FvfReason, VertexDeclaration, VertexElement, VertexInputState,
};
use proptest::prelude::*;

fn el(offset: u16, ty: DeclType, usage: Usage, index: u8) -> VertexElement {
    VertexElement::new(0, offset, ty, usage, index)
}

fn decl(fvf: u32) -> Vec<VertexElement> {
    VertexDeclaration::from_fvf(fvf)
        .expect("valid FVF")
        .elements()
        .to_vec()
}

/// Bytes of the declaration types an FVF can produce (`d3d9types.h`: FLOATn is n floats,
/// D3DCOLOR and UBYTE4 are four bytes). Written here, not read from the crate's table.
fn sdk_type_size(ty: DeclType) -> u16 {
    match ty {
        DeclType::Float1 | DeclType::D3DColor | DeclType::UByte4 => 4,
        DeclType::Float2 => 8,
        DeclType::Float3 => 12,
        DeclType::Float4 => 16,
        other => panic!("{other:?} is not an FVF type"),
    }
}

/// `D3DXGetFVFVertexSize` from the SDK's component sizes, independent of the code under
/// test: XYZ 12, XYZRHW and XYZW 16, XYZBn 12 + 4n (the last beta is 4 bytes whatever its
/// LASTBETA type), NORMAL 12, PSIZE 4, DIFFUSE 4, SPECULAR 4, and per texture set the
/// `D3DFVF_TEXCOORDSIZEn` code (0 → 2 floats, 1 → 3, 2 → 4, 3 → 1) times 4 bytes.
fn sdk_vertex_size(fvf: u32) -> u32 {
    let position = match fvf & 0x400E {
        0x000 => 0,
        0x002 => 12,
        0x004 => 16,
        0x006 => 16,
        0x008 => 20,
        0x00A => 24,
        0x00C => 28,
        0x00E => 32,
        0x4002 => 16,
        other => panic!("position {other:#x}"),
    };
    let fixed = [(0x10, 12), (0x20, 4), (0x40, 4), (0x80, 4)]
        .iter()
        .filter(|(bit, _)| fvf & bit != 0)
        .map(|(_, size)| size)
        .sum::<u32>();
    let sets = (fvf >> 8) & 0xF;
    let tex: u32 = (0..sets)
        .map(|set| match (fvf >> (16 + 2 * set)) & 3 {
            0 => 8,
            1 => 12,
            2 => 16,
            _ => 4,
        })
        .sum();
    position + fixed + tex
}

/// What `GetFVF` reports after `SetFVF(fvf)`, by the runtime's rules written out here: the
/// position, NORMAL/PSIZE/DIFFUSE/SPECULAR and TEXn bits as given; a TEXCOORDSIZE code only
/// for the sets TEXn declares; LASTBETA_UBYTE4 only with XYZB1..XYZB5, and LASTBETA_D3DCOLOR
/// only with XYZB1..XYZB5 and without LASTBETA_UBYTE4.
fn expected_get_fvf(fvf: u32) -> u32 {
    let blending = matches!(fvf & 0x400E, 0x6 | 0x8 | 0xA | 0xC | 0xE);
    let mut out = fvf & (0x400E | 0xF0 | 0xF00);
    if blending && fvf & 0x1000 != 0 {
        out |= 0x1000;
    } else if blending && fvf & 0x8000 != 0 {
        out |= 0x8000;
    }
    for set in 0..(fvf >> 8) & 0xF {
        out |= fvf & (3 << (16 + 2 * set));
    }
    out
}

/// A few codes with sizes worked out by hand from the SDK's documentation.
#[test]
fn vertex_sizes_by_hand() {
    for (fvf, size) in [
        (D3DFVF_XYZ, 12),
        (D3DFVF_XYZ | D3DFVF_DIFFUSE, 16),
        (
            D3DFVF_XYZRHW | D3DFVF_DIFFUSE | D3DFVF_SPECULAR | d3dfvf_tex(1),
            32,
        ),
        (D3DFVF_XYZ | D3DFVF_NORMAL | d3dfvf_tex(2), 40),
        (D3DFVF_XYZB4 | D3DFVF_LASTBETA_UBYTE4 | D3DFVF_NORMAL, 40),
        (D3DFVF_XYZW | D3DFVF_PSIZE, 20),
        (D3DFVF_XYZ | d3dfvf_tex(1) | d3dfvf_texcoordsize(4, 0), 28),
        (D3DFVF_XYZ | d3dfvf_tex(8), 76),
        // Size codes of sets past TEXn are not part of the vertex.
        (D3DFVF_XYZ | d3dfvf_tex(1) | d3dfvf_texcoordsize(4, 5), 20),
        (D3DFVF_DIFFUSE, 4),
    ] {
        assert_eq!(fvf_vertex_size(fvf), Ok(size), "FVF {fvf:#x}");
        assert_eq!(sdk_vertex_size(fvf), size, "FVF {fvf:#x}");
        assert_eq!(
            VertexDeclaration::from_fvf(fvf).map(|d| d.stream_size(0)),
            Ok(size),
            "FVF {fvf:#x}"
        );
    }
}

#[test]
fn xyz_normal_diffuse_tex1() {
    let fvf = D3DFVF_XYZ | D3DFVF_NORMAL | D3DFVF_DIFFUSE | d3dfvf_tex(1);
    assert_eq!(
        decl(fvf),
        vec![
            el(0, DeclType::Float3, Usage::Position, 0),
            el(12, DeclType::Float3, Usage::Normal, 0),
            el(24, DeclType::D3DColor, Usage::Color, 0),
            el(28, DeclType::Float2, Usage::TexCoord, 0),
        ]
    );
    assert_eq!(fvf_vertex_size(fvf), Ok(36));
    assert_eq!(
        VertexDeclaration::from_fvf(fvf).map(|d| d.stream_size(0)),
        Ok(36)
    );
}

#[test]
fn xyzb4_lastbeta_ubyte4() {
    assert_eq!(
        decl(D3DFVF_XYZB4 | D3DFVF_LASTBETA_UBYTE4),
        vec![
            el(0, DeclType::Float3, Usage::Position, 0),
            el(12, DeclType::Float3, Usage::BlendWeight, 0),
            el(24, DeclType::UByte4, Usage::BlendIndices, 0),
        ]
    );
}

/// The position and blending rows of the table (as native D3D9 builds them, per Wine's
/// `test_fvf_decl_conversion`), with the vertex size.
#[test]
fn position_and_blend_rows() {
    use DeclType::*;
    use Usage::{BlendIndices as BI, BlendWeight as BW};
    type Row = (u32, Vec<(DeclType, Usage)>, u32);
    let rows: Vec<Row> = vec![
        (D3DFVF_XYZ, vec![], 12),
        (D3DFVF_XYZB1, vec![(Float1, BW)], 16),
        (
            D3DFVF_XYZB1 | D3DFVF_LASTBETA_UBYTE4,
            vec![(UByte4, BI)],
            16,
        ),
        (
            D3DFVF_XYZB1 | D3DFVF_LASTBETA_D3DCOLOR,
            vec![(D3DColor, BI)],
            16,
        ),
        (D3DFVF_XYZB2, vec![(Float2, BW)], 20),
        (
            D3DFVF_XYZB2 | D3DFVF_LASTBETA_UBYTE4,
            vec![(Float1, BW), (UByte4, BI)],
            20,
        ),
        (
            D3DFVF_XYZB2 | D3DFVF_LASTBETA_D3DCOLOR,
            vec![(D3DColor, BW), (UByte4, BI)],
            20,
        ),
        (D3DFVF_XYZB3, vec![(Float3, BW)], 24),
        (
            D3DFVF_XYZB3 | D3DFVF_LASTBETA_UBYTE4,
            vec![(Float2, BW), (UByte4, BI)],
            24,
        ),
        (
            D3DFVF_XYZB3 | D3DFVF_LASTBETA_D3DCOLOR,
            vec![(Float2, BW), (D3DColor, BI)],
            24,
        ),
        (D3DFVF_XYZB4, vec![(Float4, BW)], 28),
        (
            D3DFVF_XYZB4 | D3DFVF_LASTBETA_D3DCOLOR,
            vec![(Float3, BW), (D3DColor, BI)],
            28,
        ),
        (D3DFVF_XYZB5, vec![(Float4, BW), (Float1, BI)], 32),
        (
            D3DFVF_XYZB5 | D3DFVF_LASTBETA_UBYTE4,
            vec![(Float4, BW), (UByte4, BI)],
            32,
        ),
        (
            D3DFVF_XYZB5 | D3DFVF_LASTBETA_D3DCOLOR,
            vec![(Float4, BW), (D3DColor, BI)],
            32,
        ),
        // UBYTE4 takes precedence over D3DCOLOR.
        (
            D3DFVF_XYZB5 | D3DFVF_LASTBETA_UBYTE4 | D3DFVF_LASTBETA_D3DCOLOR,
            vec![(Float4, BW), (UByte4, BI)],
            32,
        ),
    ];
    for (fvf, blend, size) in rows {
        let got = decl(fvf);
        let mut want = vec![el(0, Float3, Usage::Position, 0)];
        let mut offset = 12;
        for (ty, usage) in blend {
            want.push(el(offset, ty, usage, 0));
            offset += sdk_type_size(ty);
        }
        assert_eq!(got, want, "FVF {fvf:#x}");
        assert_eq!(fvf_vertex_size(fvf), Ok(size), "FVF {fvf:#x}");
        assert_eq!(sdk_vertex_size(fvf), size, "FVF {fvf:#x}");
    }
    assert_eq!(
        decl(D3DFVF_XYZRHW),
        vec![el(0, Float4, Usage::PositionT, 0)]
    );
    assert_eq!(decl(D3DFVF_XYZW), vec![el(0, Float4, Usage::Position, 0)]);
    // LASTBETA flags are ignored without blending.
    assert_eq!(decl(D3DFVF_XYZ | D3DFVF_LASTBETA_UBYTE4), decl(D3DFVF_XYZ));
}

#[test]
fn fixed_rows_and_texcoord_sizes() {
    use DeclType::*;
    let fvf = D3DFVF_XYZRHW
        | D3DFVF_PSIZE
        | D3DFVF_SPECULAR
        | d3dfvf_tex(4)
        | d3dfvf_texcoordsize(1, 0)
        | d3dfvf_texcoordsize(3, 1)
        | d3dfvf_texcoordsize(2, 2)
        | d3dfvf_texcoordsize(4, 3);
    assert_eq!(
        decl(fvf),
        vec![
            el(0, Float4, Usage::PositionT, 0),
            el(16, Float1, Usage::PSize, 0),
            el(20, D3DColor, Usage::Color, 1),
            el(24, Float1, Usage::TexCoord, 0),
            el(28, Float3, Usage::TexCoord, 1),
            el(40, Float2, Usage::TexCoord, 2),
            el(48, Float4, Usage::TexCoord, 3),
        ]
    );
    // TEX8: eight FLOAT2 sets, TEXCOORD0..7.
    let d = decl(D3DFVF_XYZ | d3dfvf_tex(8));
    assert_eq!(d.len(), 9);
    assert_eq!(d[8], el(68, Float2, Usage::TexCoord, 7));
}

#[test]
fn invalid_fvfs_are_typed_errors() {
    for fvf in [
        0x1,
        0x2000 | D3DFVF_XYZ,
        0x4004,
        0x4000,
        d3dfvf_tex(9),
        0xF00,
    ] {
        assert!(
            matches!(
                VertexDeclaration::from_fvf(fvf),
                Err(DeclError::InvalidFvf { .. })
            ),
            "{fvf:#x}"
        );
    }
}

#[test]
fn declarations_without_an_fvf_give_their_reason() {
    use DeclType::*;
    let reason = |elements: &[VertexElement]| {
        VertexDeclaration::from_elements(elements)
            .expect("valid")
            .fvf()
    };
    let pos = el(0, Float3, Usage::Position, 0);
    assert_eq!(reason(&[]), Err(FvfReason::NoPosition));
    assert_eq!(
        reason(&[el(0, Float3, Usage::Normal, 0)]),
        Err(FvfReason::NoPosition)
    );
    assert!(matches!(
        reason(&[el(0, Float3, Usage::Position, 1)]),
        Err(FvfReason::UsageIndex { element: 0, .. })
    ));
    assert!(matches!(
        reason(&[pos, el(12, Float3, Usage::Normal, 1)]),
        Err(FvfReason::UsageIndex { element: 1, .. })
    ));
    // The FVF has one blend weight, one blend-indices and one point-size element (index 0)
    // and eight texture coordinate sets (TEXCOORD0–7): other indices have no FVF.
    for usage in [Usage::BlendWeight, Usage::BlendIndices, Usage::PSize] {
        assert!(
            matches!(
                reason(&[pos, el(12, Float1, usage, 1)]),
                Err(FvfReason::NotInTable { element: 1, .. })
            ),
            "{usage:?}1"
        );
    }
    let eight_sets: Vec<VertexElement> = std::iter::once(pos)
        .chain((0..8).map(|i| el(12 + 8 * u16::from(i), Float2, Usage::TexCoord, i)))
        .collect();
    assert!(reason(&eight_sets).is_ok());
    assert!(matches!(
        reason(&[pos, el(12, Float2, Usage::TexCoord, 8)]),
        Err(FvfReason::NotInTable { element: 1, .. })
    ));
    assert!(matches!(
        reason(&[el(0, Float4, Usage::Position, 0)]),
        Err(FvfReason::NotInTable { element: 0, .. })
    ));
    assert!(matches!(
        reason(&[el(0, Float3, Usage::PositionT, 0)]),
        Err(FvfReason::NotInTable { element: 0, .. })
    ));
    assert!(matches!(
        reason(&[pos, VertexElement::new(1, 0, D3DColor, Usage::Color, 0)]),
        Err(FvfReason::NotStreamZero {
            element: 1,
            stream: 1
        })
    ));
    assert!(matches!(
        reason(&[pos, el(16, D3DColor, Usage::Color, 0)]),
        Err(FvfReason::Offset {
            element: 1,
            offset: 16,
            expected: 12
        })
    ));
    assert!(matches!(
        reason(&[
            el(4, Float3, Usage::Position, 0),
            el(0, D3DColor, Usage::Color, 0)
        ]),
        Err(FvfReason::Offset { element: 0, .. })
    ));
    assert!(matches!(
        reason(&[
            pos,
            el(12, D3DColor, Usage::Color, 0),
            el(16, Float3, Usage::Normal, 0)
        ]),
        Err(FvfReason::Order { element: 2, .. })
    ));
    assert!(matches!(
        reason(&[pos, el(12, Float2, Usage::TexCoord, 1)]),
        Err(FvfReason::TexCoordIndex { element: 1, .. })
    ));
    assert!(matches!(
        reason(&[pos, el(12, Float4, Usage::Tangent, 0)]),
        Err(FvfReason::NotInTable { element: 1, .. })
    ));
    assert!(matches!(
        reason(&[pos, el(12, Short2, Usage::TexCoord, 0)]),
        Err(FvfReason::NotInTable { element: 1, .. })
    ));
    assert!(matches!(
        reason(&[pos, el(12, D3DColor, Usage::Color, 2)]),
        Err(FvfReason::NotInTable { element: 1, .. })
    ));
    assert!(matches!(
        reason(&[
            el(0, Float4, Usage::PositionT, 0),
            el(16, Float1, Usage::BlendWeight, 0)
        ]),
        Err(FvfReason::BlendWithoutPosition { element: 1, .. })
    ));
    assert!(matches!(
        reason(&[
            pos,
            el(12, Float2, Usage::BlendWeight, 0),
            el(20, Float1, Usage::BlendIndices, 0)
        ]),
        Err(FvfReason::BlendIndices { element: 2, .. })
    ));
    // D3DCOLOR weights go only with UBYTE4 indices (XYZB2 | LASTBETA_D3DCOLOR), and alone
    // they have no code (the error names the weights' element).
    assert!(reason(&[
        pos,
        el(12, D3DColor, Usage::BlendWeight, 0),
        el(16, UByte4, Usage::BlendIndices, 0)
    ])
    .is_ok());
    for indices in [D3DColor, Float1] {
        assert!(
            matches!(
                reason(&[
                    pos,
                    el(12, D3DColor, Usage::BlendWeight, 0),
                    el(16, indices, Usage::BlendIndices, 0)
                ]),
                Err(FvfReason::BlendIndices { element: 2, .. })
            ),
            "{indices:?}"
        );
    }
    assert!(matches!(
        reason(&[pos, el(12, D3DColor, Usage::BlendWeight, 0)]),
        Err(FvfReason::NotInTable { element: 1, .. })
    ));
    // Wine's d3d9 `test_fvf_decl_conversion`: these declare no position, so GetFVF gives 0.
    let mut state = VertexInputState::default();
    state
        .set_fvf(D3DFVF_SPECULAR | D3DFVF_DIFFUSE)
        .expect("valid");
    state.set_declaration(
        VertexDeclaration::from_elements(&[el(0, Float3, Usage::Normal, 0)]).expect("valid"),
    );
    assert_eq!(state.fvf(), 0);
    state.set_declaration(VertexDeclaration::from_elements(&[pos]).expect("valid"));
    assert_eq!(state.fvf(), D3DFVF_XYZ);
}

#[test]
fn set_fvf_replaces_the_declaration() {
    let mut state = VertexInputState::default();
    state.set_declaration(
        VertexDeclaration::from_elements(&[el(0, DeclType::Float4, Usage::Tangent, 0)])
            .expect("valid"),
    );
    state.set_fvf(D3DFVF_XYZ | D3DFVF_DIFFUSE).expect("valid");
    assert_eq!(state.fvf(), D3DFVF_XYZ | D3DFVF_DIFFUSE);
    assert_eq!(state.declaration().map(|d| d.elements().len()), Some(2));
    assert!(state.set_fvf(0x1).is_err());
}

/// FVF codes built from the meaningful fields, plus arbitrary words.
fn fvf_strategy() -> impl Strategy<Value = u32> {
    let position = prop::sample::select(vec![
        0u32,
        D3DFVF_XYZ,
        D3DFVF_XYZRHW,
        D3DFVF_XYZB1,
        D3DFVF_XYZB2,
        D3DFVF_XYZB3,
        D3DFVF_XYZB4,
        D3DFVF_XYZB5,
        D3DFVF_XYZW,
    ]);
    let structured = (position, 0u32..16, 0u32..=8, any::<u16>(), 0u32..4).prop_map(
        |(p, fixed, tex, sizes, lastbeta)| {
            p | (fixed << 4)
                | d3dfvf_tex(tex)
                | (u32::from(sizes) << 16)
                | ((lastbeta & 1) * D3DFVF_LASTBETA_UBYTE4)
                | ((lastbeta >> 1) * D3DFVF_LASTBETA_D3DCOLOR)
        },
    );
    prop_oneof![4 => structured, 1 => any::<u32>()]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    /// Every valid FVF with a POSITION FLOAT3 or POSITIONT converts to a declaration and back
    /// to its canonical code; the others fail with a typed error or a reason, never a panic.
    #[test]
    fn fvf_round_trips(fvf in fvf_strategy()) {
        match VertexDeclaration::from_fvf(fvf) {
            Err(e) => {
                let invalid = matches!(e, DeclError::InvalidFvf { .. });
                prop_assert!(invalid);
            }
            Ok(d) => {
                let canonical = expected_get_fvf(fvf);
                prop_assert_eq!(canonical_fvf(fvf), Ok(canonical));
                let pos = fvf & D3DFVF_POSITION_MASK;
                let back = d.fvf();
                if pos == 0 {
                    prop_assert_eq!(back, Err(FvfReason::NoPosition));
                } else if pos == D3DFVF_XYZW {
                    let not_in_table = matches!(back, Err(FvfReason::NotInTable { element: 0, .. }));
                    prop_assert!(not_in_table);
                } else {
                    prop_assert_eq!(back, Ok(canonical));
                }
                let size = sdk_vertex_size(fvf);
                prop_assert_eq!(fvf_vertex_size(fvf), Ok(size));
                prop_assert_eq!(d.stream_size(0), size);
                // Packed: each element starts where the one before ends, the last at the end.
                let ends: Vec<u16> = d.elements().iter().map(|e| e.offset + sdk_type_size(e.ty)).collect();
                let starts: Vec<u16> = d.elements().iter().map(|e| e.offset).collect();
                prop_assert_eq!(starts.first().copied().unwrap_or(0), 0);
                prop_assert_eq!(&starts[1.min(starts.len())..], &ends[..ends.len().saturating_sub(1)]);
                prop_assert_eq!(u32::from(ends.last().copied().unwrap_or(0)), size);
                // The FVF's declaration passes CreateVertexDeclaration's checks.
                prop_assert_eq!(VertexDeclaration::from_bytes(&d.to_bytes()), Ok(d));
            }
        }
    }
}
