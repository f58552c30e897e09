//! CreateVertexDeclaration's checks, DX8 declarations, draw-time errors, and bad input.

use d3d9_translator::bytecode::Usage;
use d3d9_translator::decl::dx8::*;
use d3d9_translator::decl::element::DECL_END;
use d3d9_translator::decl::{
    bind, BindError, DeclError, DeclMethod, DeclType, Dx8Reason, FetchConversion, FetchSource,
    RawElement, ShaderInput, StreamFrequency, StreamSource, VertexDeclaration, VertexElement,
    VertexProcessing, DECL_TYPES,
};
use d3d9_translator::decl::{read_elements, write_elements};
use d3d9_translator::signature::Semantic;
use proptest::prelude::*;
use wgpu_types::{VertexAttribute, VertexFormat, VertexStepMode};

fn raw(stream: u16, offset: u16, ty: u8, method: u8, usage: u8, usage_index: u8) -> RawElement {
    RawElement {
        stream,
        offset,
        ty,
        method,
        usage,
        usage_index,
    }
}

fn create(elements: &[RawElement]) -> Result<VertexDeclaration, DeclError> {
    VertexDeclaration::from_bytes(&write_elements(elements))
}

const POS: RawElement = RawElement {
    stream: 0,
    offset: 0,
    ty: 2,
    method: 0,
    usage: 0,
    usage_index: 0,
};

#[test]
fn creation_checks_name_the_element() {
    use DeclError::*;
    assert_eq!(
        create(&[POS, raw(0, 12, 18, 0, 10, 0)]),
        Err(UnknownType {
            element: 1,
            raw: 18
        })
    );
    assert_eq!(
        create(&[POS, raw(0, 12, 17, 0, 10, 0)]),
        Err(UnusedType { element: 1 })
    );
    assert_eq!(
        create(&[POS, raw(0, 12, 4, 7, 10, 0)]),
        Err(UnknownMethod { element: 1, raw: 7 })
    );
    assert_eq!(
        create(&[POS, raw(0, 12, 4, 0, 14, 0)]),
        Err(UnknownUsage {
            element: 1,
            raw: 14
        })
    );
    assert_eq!(
        create(&[POS, raw(16, 0, 4, 0, 10, 0)]),
        Err(StreamOutOfRange {
            element: 1,
            stream: 16
        })
    );
    assert_eq!(
        create(&[POS, raw(0, 14, 4, 0, 10, 0)]),
        Err(MisalignedOffset {
            element: 1,
            offset: 14
        })
    );
    assert!(matches!(
        create(&[POS, raw(1, 0, 2, 0, 0, 0)]),
        Err(DuplicateSemantic {
            element: 1,
            first: 0,
            ..
        })
    ));
    assert_eq!(
        create(&[POS, raw(0, 8, 4, 0, 10, 0)]),
        Err(Overlap {
            element: 1,
            other: 0,
            stream: 0
        })
    );
    assert_eq!(
        create(&[POS, raw(0, 12, 0, 0, 13, 0)]),
        Err(SampleNeedsLookup {
            element: 1,
            method: DeclMethod::Default
        })
    );
    assert!(matches!(
        create(&[POS, raw(0, 12, 0, 5, 5, 0)]),
        Err(LookupNeedsSample { element: 1, .. })
    ));
    let tess = create(&[POS, raw(0, 12, 2, 1, 3, 0)]);
    assert_eq!(
        tess,
        Err(Tessellation {
            element: 1,
            method: DeclMethod::PartialU
        })
    );
    assert!(tess.err().is_some_and(|e| e.is_unsupported()));
    let lookup = create(&[POS, raw(0, 12, 0, 5, 13, 0)]);
    assert_eq!(
        lookup,
        Err(Tessellation {
            element: 1,
            method: DeclMethod::Lookup
        })
    );
    // Same offset on another stream is fine; so is an empty declaration.
    assert!(create(&[POS, raw(1, 0, 4, 0, 10, 0)]).is_ok());
    assert_eq!(create(&[]).map(|d| d.elements().len()), Ok(0));
}

#[test]
fn reading_raw_bytes() {
    let bytes = write_elements(&[POS]);
    assert_eq!(bytes.len(), 16);
    assert_eq!(&bytes[8..], &DECL_END);
    assert_eq!(
        read_elements(&bytes[..12]),
        Err(DeclError::Truncated {
            element: 1,
            bytes: 4
        })
    );
    assert_eq!(
        read_elements(&bytes[..8]),
        Err(DeclError::MissingEnd { elements: 1 })
    );
    assert_eq!(
        read_elements(&[]),
        Err(DeclError::MissingEnd { elements: 0 })
    );
    let long: Vec<RawElement> = (0..65).map(|i| raw(0, 4 * i, 0, 0, 5, i as u8)).collect();
    assert_eq!(
        read_elements(&write_elements(&long)),
        Err(DeclError::TooManyElements { count: 65 })
    );
    // Trailing bytes after D3DDECL_END are never read.
    let mut trailing = bytes.clone();
    trailing.extend_from_slice(&[1, 2, 3]);
    assert_eq!(read_elements(&trailing), Ok(vec![POS]));
}

#[test]
fn one_table_gives_format_and_conversion() {
    use FetchConversion as C;
    use VertexFormat as F;
    let want = [
        (F::Float32, C::Float),
        (F::Float32x2, C::Float),
        (F::Float32x3, C::Float),
        (F::Float32x4, C::Float),
        (F::Unorm8x4Bgra, C::Float),
        (F::Uint8x4, C::UnsignedToFloat),
        (F::Sint16x2, C::SignedToFloat),
        (F::Sint16x4, C::SignedToFloat),
        (F::Unorm8x4, C::Float),
        (F::Snorm16x2, C::SignedNormalized),
        (F::Snorm16x4, C::SignedNormalized),
        (F::Unorm16x2, C::Float),
        (F::Unorm16x4, C::Float),
        (F::Uint32, C::UDec3),
        (F::Uint32, C::Dec3N),
        (F::Float16x2, C::Float),
        (F::Float16x4, C::Float),
    ];
    for (i, (row, (format, conversion))) in DECL_TYPES.iter().zip(want).enumerate() {
        assert_eq!(row.ty.raw() as usize, i);
        assert_eq!(
            (row.format, row.conversion),
            (format, conversion),
            "{}",
            row.name
        );
        assert_eq!(u64::from(row.size), row.format.size(), "{}", row.name);
        assert_eq!(DeclType::from_name(row.name), Some(row.ty));
    }
}

#[test]
fn every_type_binds_through_the_table() {
    for (i, row) in DECL_TYPES.iter().enumerate() {
        let decl = VertexDeclaration::from_elements(&[VertexElement::new(
            0,
            0,
            row.ty,
            Usage::TexCoord,
            0,
        )])
        .expect("valid");
        let inputs = [ShaderInput {
            register: 3,
            semantic: Semantic::new(Usage::TexCoord, 0),
        }];
        let streams = [StreamSource {
            stride: 16,
            frequency: StreamFrequency::Vertex,
        }];
        let b = bind(&decl, &inputs, &streams, VertexProcessing::Hardware).expect("binds");
        assert_eq!(
            b.fetches()[0].source,
            FetchSource::Attribute {
                location: 3,
                format: row.format,
                conversion: row.conversion
            },
            "type {i}"
        );
        assert_eq!(b.streams[0].attributes[0].shader_location, 3);
    }
}

#[test]
fn dx8_declarations() {
    let tokens = [
        d3dvsd_stream(0),
        d3dvsd_reg(0, 2), // v0 POSITION FLOAT3 @0
        d3dvsd_skip(1),   // 4 bytes
        d3dvsd_reg(5, 4), // v5 COLOR0 D3DCOLOR @16
        d3dvsd_stream(1),
        d3dvsd_reg(7, 1), // v7 TEXCOORD0 FLOAT2 @0
        d3dvsd_skipbytes(8),
        d3dvsd_reg(16, 2), // v16 NORMAL1 @16
        D3DVSD_NOP,
        d3dvsd_const(4, 1),
        1,
        2,
        3,
        4,
        D3DVSD_END,
    ];
    let (decl, constants) = VertexDeclaration::from_dx8(&tokens).expect("valid");
    assert_eq!(
        decl.elements(),
        &[
            VertexElement::new(0, 0, DeclType::Float3, Usage::Position, 0),
            VertexElement::new(0, 16, DeclType::D3DColor, Usage::Color, 0),
            VertexElement::new(1, 0, DeclType::Float2, Usage::TexCoord, 0),
            VertexElement::new(1, 16, DeclType::Float3, Usage::Normal, 1),
        ]
    );
    assert_eq!(
        constants,
        vec![Dx8Constants {
            address: 4,
            values: vec![[1, 2, 3, 4]]
        }]
    );
    // Back to DX8: SKIPBYTES(8) becomes SKIP(2), NOP and CONST are not elements.
    let back = decl.dx8_tokens().expect("convertible");
    assert_eq!(
        back,
        vec![
            d3dvsd_stream(0),
            d3dvsd_reg(0, 2),
            d3dvsd_skip(1),
            d3dvsd_reg(5, 4),
            d3dvsd_stream(1),
            d3dvsd_reg(7, 1),
            d3dvsd_skip(2),
            d3dvsd_reg(16, 2),
            D3DVSD_END
        ]
    );
    assert_eq!(VertexDeclaration::from_dx8(&back).map(|d| d.0), Ok(decl));
}

#[test]
fn dx8_errors() {
    let invalid = |t: &[u32]| {
        matches!(
            VertexDeclaration::from_dx8(t),
            Err(DeclError::Dx8Invalid { .. })
        )
    };
    let unsupported = |t: &[u32]| {
        VertexDeclaration::from_dx8(t)
            .err()
            .is_some_and(|e| e.is_unsupported())
    };
    assert!(invalid(&[d3dvsd_stream(0), d3dvsd_reg(0, 2)]));
    assert!(invalid(&[d3dvsd_stream(16), D3DVSD_END]));
    assert!(invalid(&[d3dvsd_reg(17, 2), D3DVSD_END]));
    assert!(invalid(&[d3dvsd_reg(0, 8), D3DVSD_END]));
    assert!(invalid(&[d3dvsd_const(0, 2), 1, 2, 3, 4, D3DVSD_END]));
    assert!(invalid(&[6 << 29, D3DVSD_END]));
    assert!(unsupported(&[d3dvsd_stream(0) | (1 << 28), D3DVSD_END]));
    assert!(unsupported(&[3 << 29, D3DVSD_END]));
    assert!(unsupported(&[5 << 29, D3DVSD_END]));
    // SKIPBYTES(2) misaligns the next element; a register twice is a duplicate semantic.
    assert_eq!(
        VertexDeclaration::from_dx8(&[d3dvsd_skipbytes(2), d3dvsd_reg(0, 2), D3DVSD_END]),
        Err(DeclError::MisalignedOffset {
            element: 0,
            offset: 2
        })
    );
    assert!(matches!(
        VertexDeclaration::from_dx8(&[d3dvsd_reg(0, 2), d3dvsd_reg(0, 2), D3DVSD_END]),
        Err(DeclError::DuplicateSemantic { element: 1, .. })
    ));
}

#[test]
fn dx9_declarations_without_a_dx8_form() {
    let d = |e: &[VertexElement]| {
        VertexDeclaration::from_elements(e)
            .expect("valid")
            .dx8_tokens()
    };
    let pos = VertexElement::new(0, 0, DeclType::Float3, Usage::Position, 0);
    assert_eq!(
        d(&[
            pos,
            VertexElement::new(0, 12, DeclType::UByte4N, Usage::Color, 0)
        ]),
        Err(Dx8Reason::Type {
            element: 1,
            ty: DeclType::UByte4N
        })
    );
    assert!(matches!(
        d(&[
            pos,
            VertexElement::new(0, 12, DeclType::Float3, Usage::Tangent, 0)
        ]),
        Err(Dx8Reason::NoRegister { element: 1, .. })
    ));
    assert!(matches!(
        d(&[
            pos,
            VertexElement::new(0, 12, DeclType::Float2, Usage::TexCoord, 8)
        ]),
        Err(Dx8Reason::NoRegister { element: 1, .. })
    ));
    // Streams interleaved in the declaration still get one STREAM token each.
    let tokens = d(&[
        pos,
        VertexElement::new(1, 0, DeclType::Float2, Usage::TexCoord, 0),
        VertexElement::new(0, 12, DeclType::D3DColor, Usage::Color, 0),
    ])
    .expect("convertible");
    assert_eq!(
        tokens,
        vec![
            d3dvsd_stream(0),
            d3dvsd_reg(0, 2),
            d3dvsd_reg(5, 4),
            d3dvsd_stream(1),
            d3dvsd_reg(7, 1),
            D3DVSD_END
        ]
    );
}

#[test]
fn draw_time_errors() {
    let decl = VertexDeclaration::from_elements(&[
        VertexElement::new(0, 0, DeclType::Float3, Usage::Position, 0),
        VertexElement::new(1, 0, DeclType::Float4, Usage::Color, 0),
    ])
    .expect("valid");
    let inputs = [
        ShaderInput {
            register: 0,
            semantic: Semantic::new(Usage::Position, 0),
        },
        ShaderInput {
            register: 1,
            semantic: Semantic::new(Usage::Color, 0),
        },
    ];
    let s = |stride, raw| StreamSource {
        stride,
        frequency: StreamFrequency::from_raw(raw),
    };
    let hw = VertexProcessing::Hardware;
    assert!(bind(&decl, &inputs, &[s(12, 0), s(16, 1)], hw).is_ok());
    assert_eq!(
        bind(&decl, &inputs, &[s(8, 0), s(16, 1)], hw),
        Err(BindError::StrideTooSmall {
            stream: 0,
            stride: 8,
            element: 0,
            end: 12
        })
    );
    // Stride 0: every vertex reads the same data, so each stream's layout has array stride 0
    // (WebGPU then fetches the same bytes for every vertex) and keeps its attributes.
    let zero = bind(&decl, &inputs, &[s(0, 0), s(0, 1)], hw).expect("stride 0 binds");
    let layouts: Vec<_> = zero
        .streams
        .iter()
        .map(|l| (l.stream, l.as_layout()))
        .collect();
    let attribute = |format, offset, shader_location| VertexAttribute {
        format,
        offset,
        shader_location,
    };
    assert_eq!(
        layouts,
        vec![
            (
                0,
                (
                    0,
                    VertexStepMode::Vertex,
                    &[attribute(VertexFormat::Float32x3, 0, 0)][..]
                )
            ),
            (
                1,
                (
                    0,
                    VertexStepMode::Vertex,
                    &[attribute(VertexFormat::Float32x4, 0, 1)][..]
                )
            ),
        ]
    );
    assert_eq!(
        bind(&decl, &inputs, &[s(12, 0)], hw),
        Err(BindError::StreamNotSet {
            stream: 1,
            element: 1
        })
    );
    let e = bind(&decl, &inputs, &[s(14, 0), s(16, 1)], hw);
    assert_eq!(
        e,
        Err(BindError::StrideUnaligned {
            stream: 0,
            stride: 14
        })
    );
    assert!(e.err().is_some_and(|e| e.is_unsupported()));
    assert_eq!(
        bind(&decl, &inputs, &[s(4096, 0), s(16, 1)], hw),
        Err(BindError::StrideTooLarge {
            stream: 0,
            stride: 4096
        })
    );
    assert_eq!(
        bind(&decl, &inputs, &[s(12, 0), s(16, 0x8000_0002)], hw),
        Err(BindError::InstanceDivisor {
            stream: 1,
            divisor: 2
        })
    );
    let far = VertexDeclaration::from_elements(&[VertexElement::new(
        0,
        65532,
        DeclType::Float1,
        Usage::Position,
        0,
    )])
    .expect("valid");
    assert_eq!(
        bind(&far, &inputs[..1], &[s(0, 0)], hw),
        Err(BindError::OffsetTooLarge {
            stream: 0,
            element: 0,
            end: 65536
        })
    );
    assert_eq!(
        bind(&far, &inputs[..1], &[s(16, 0)], hw),
        Err(BindError::StrideTooSmall {
            stream: 0,
            stride: 16,
            element: 0,
            end: 65536
        })
    );
    let dup = [
        inputs[0],
        ShaderInput {
            register: 0,
            semantic: Semantic::new(Usage::Color, 0),
        },
    ];
    assert!(matches!(
        bind(&decl, &dup, &[s(12, 0), s(16, 1)], hw),
        Err(BindError::DuplicateRegister { register: 0, .. })
    ));
}

/// One element: arbitrary bytes (1 in 4) or fields in their valid ranges (DEFAULT method)
/// with small offsets, so that many arrays pass CreateVertexDeclaration's checks.
fn element_bytes() -> impl Strategy<Value = [u8; 8]> {
    let near_valid = (0u16..8, 0u16..12, 0u8..17, 0u8..14, 0u8..8)
        .prop_map(|(s, o, t, u, i)| raw(s, o * 4, t, 0, u, i).to_bytes());
    prop_oneof![3 => near_valid, 1 => any::<[u8; 8]>()]
}

/// Up to 8 elements, `D3DDECL_END`, then up to 16 trailing bytes.
fn declaration_bytes() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::collection::vec(element_bytes(), 0..8),
        prop::collection::vec(any::<u8>(), 0..16),
    )
        .prop_map(|(elements, trailing)| {
            let mut bytes: Vec<u8> = elements.concat();
            bytes.extend_from_slice(&DECL_END);
            bytes.extend_from_slice(&trailing);
            bytes
        })
}

/// The round-trip property above is not vacuous: a good share of its inputs make a
/// declaration (and of those, some with several elements).
#[test]
fn random_declarations_are_often_created() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = declaration_bytes();
    let (mut created, mut several) = (0, 0);
    for _ in 0..1000 {
        let bytes = strategy.new_tree(&mut runner).expect("value").current();
        if let Ok(d) = VertexDeclaration::from_bytes(&bytes) {
            created += 1;
            several += usize::from(d.elements().len() >= 2);
        }
    }
    assert!(created >= 200, "only {created} of 1000 created");
    assert!(several >= 50, "only {several} of 1000 with 2+ elements");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    /// Arbitrary bytes never panic: they make a declaration or a typed error, and a created
    /// declaration survives a byte round trip, an FVF/DX8 attempt and binding.
    #[test]
    fn garbage_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200), stride in any::<u32>(), registers in prop::collection::vec((0u32..20, 0u32..14, any::<u8>()), 0..6)) {
        if let Ok(d) = VertexDeclaration::from_bytes(&bytes) {
            prop_assert_eq!(VertexDeclaration::from_bytes(&d.to_bytes()), Ok(d.clone()));
            let _ = d.fvf();
            let _ = d.dx8_tokens();
            let inputs: Vec<ShaderInput> = registers.iter().filter_map(|&(r, u, i)| Some(ShaderInput { register: r, semantic: Semantic::new(Usage::from_raw(u)?, i) })).collect();
            let streams = vec![StreamSource { stride, frequency: StreamFrequency::from_raw(stride) }; 3];
            let _ = bind(&d, &inputs, &streams, VertexProcessing::Software);
        }
    }

    /// Element arrays of random bytes and of near-valid fields, ended by `D3DDECL_END` (and
    /// followed by garbage that must not be read): every created declaration has one element
    /// per element before the end, each as written, and survives a byte round trip. Random
    /// bytes alone almost never end a declaration (stream 0xFF is 1 in 65,536), so the end is
    /// appended here; `random_declarations_are_often_created` shows this branch runs.
    #[test]
    fn random_declarations_round_trip(bytes in declaration_bytes()) {
        if let Ok(d) = VertexDeclaration::from_bytes(&bytes) {
            let raw = read_elements(&bytes).expect("a created declaration reads");
            prop_assert_eq!(d.elements().len(), raw.len());
            for (e, r) in d.elements().iter().zip(&raw) {
                prop_assert_eq!(e.to_raw(), *r);
            }
            prop_assert_eq!(VertexDeclaration::from_bytes(&d.to_bytes()), Ok(d.clone()));
            prop_assert_eq!(read_elements(&d.to_bytes()), Ok(raw));
        }
    }

    /// Plausible elements (small fields) reach every check without panicking.
    #[test]
    fn plausible_elements_never_panic(elements in prop::collection::vec((0u16..18, 0u16..64, 0u8..19, 0u8..8, 0u8..15, 0u8..3), 0..10)) {
        let raw: Vec<RawElement> = elements.iter().map(|&(s, o, t, m, u, i)| raw(s, o, t, m, u, i)).collect();
        if let Ok(d) = create(&raw) {
            prop_assert_eq!(d.elements().len(), raw.len());
            if let Ok(tokens) = d.dx8_tokens() {
                prop_assert_eq!(VertexDeclaration::from_dx8(&tokens).map(|x| x.0.elements().len()), Ok(raw.len()));
            }
        }
    }

    /// Arbitrary DX8 token streams never panic.
    #[test]
    fn garbage_dx8_never_panics(tokens in prop::collection::vec(any::<u32>(), 0..40)) {
        let _ = VertexDeclaration::from_dx8(&tokens);
    }
}

#[test]
fn sixty_four_elements_is_the_limit() {
    // MAXD3DDECLLENGTH is 64: `CreateVertexDeclaration` takes 64 elements and refuses 65
    // (checked on the elements themselves, not only by the byte reader).
    let elements: Vec<RawElement> = (0..65).map(|i| raw(0, 4 * i, 0, 0, 5, i as u8)).collect();
    assert_eq!(
        VertexDeclaration::from_raw(&elements[..64]).map(|d| d.elements().len()),
        Ok(64)
    );
    assert_eq!(
        VertexDeclaration::from_raw(&elements),
        Err(DeclError::TooManyElements { count: 65 })
    );
}

#[test]
fn invalid_declarations_are_not_unsupported() {
    // D3DDECLTYPE_UNUSED inside the declaration is refused by D3D9 itself (`Invalid`), not a
    // legal declaration this project leaves out.
    let unused = create(&[POS, raw(0, 12, 17, 0, 10, 0)]);
    assert!(unused.err().is_some_and(|e| !e.is_unsupported()));
}

#[test]
fn streams_are_listed_once_ascending() {
    // Elements on streams 0, 3, 1 and 3 again: the declaration reads streams 0, 1 and 3.
    let decl = create(&[
        POS,
        raw(3, 0, 4, 0, 10, 0),
        raw(1, 0, 1, 0, 5, 0),
        raw(3, 4, 1, 0, 5, 1),
    ])
    .expect("valid declaration");
    assert_eq!(decl.streams(), vec![0, 1, 3]);
    assert_eq!(decl.stream_size(3), 12);
}

/// `SetStreamSourceFreq` values: the SDK's flags `D3DSTREAMSOURCE_INDEXEDDATA` (1 << 30) and
/// `D3DSTREAMSOURCE_INSTANCEDATA` (1 << 31) over the count in the low 30 bits.
#[test]
fn stream_frequencies_split_flags_and_count() {
    assert_eq!(
        StreamFrequency::from_raw(0x4000_0003),
        StreamFrequency::IndexedData(3)
    );
    assert_eq!(
        StreamFrequency::from_raw(0x8000_0001),
        StreamFrequency::InstanceData(1)
    );
    assert_eq!(
        StreamFrequency::from_raw(0x8000_0000 | 0x3FFF_FFFF),
        StreamFrequency::InstanceData(0x3FFF_FFFF)
    );
    assert_eq!(StreamFrequency::from_raw(0), StreamFrequency::Vertex);
    assert_eq!(StreamFrequency::from_raw(1), StreamFrequency::Vertex);
    assert_eq!(StreamFrequency::from_raw(5), StreamFrequency::Divider(5));
}

/// WebGPU's largest array stride, 2048 bytes, is itself allowed: a stride of 2048 binds, and
/// with stride 0 an element may end at byte 2048 but not past it. Draws D3D9 refuses are
/// invalid, not unsupported.
#[test]
fn stride_limits_are_inclusive_and_invalid_binds_are_not_unsupported() {
    let decl = |offset: u16| {
        VertexDeclaration::from_elements(&[VertexElement::new(
            0,
            offset,
            DeclType::Float1,
            Usage::Position,
            0,
        )])
        .expect("valid")
    };
    let inputs = [ShaderInput {
        register: 0,
        semantic: Semantic::new(Usage::Position, 0),
    }];
    let s = |stride| StreamSource {
        stride,
        frequency: StreamFrequency::Vertex,
    };
    let hw = VertexProcessing::Hardware;
    let b = bind(&decl(0), &inputs, &[s(2048)], hw).expect("stride 2048 binds");
    assert_eq!(b.streams[0].array_stride, 2048);
    assert_eq!(
        bind(&decl(0), &inputs, &[s(2052)], hw),
        Err(BindError::StrideTooLarge {
            stream: 0,
            stride: 2052
        })
    );
    assert!(bind(&decl(2044), &inputs, &[s(0)], hw).is_ok());
    let past = bind(&decl(2048), &inputs, &[s(0)], hw);
    assert_eq!(
        past,
        Err(BindError::OffsetTooLarge {
            stream: 0,
            element: 0,
            end: 2052
        })
    );
    let unset = bind(&decl(0), &inputs, &[], hw).expect_err("no stream 0");
    assert_eq!(
        unset,
        BindError::StreamNotSet {
            stream: 0,
            element: 0
        }
    );
    assert!(!unset.is_unsupported());
}

/// `D3DDECLTYPE` and `D3DDECLMETHOD` names as the SDK's d3d9types.h spells them (without the
/// prefix), in value order; each parses back, with or without the prefix and in any case.
#[test]
fn type_and_method_names_are_the_sdks() {
    const TYPES: [&str; 17] = [
        "FLOAT1",
        "FLOAT2",
        "FLOAT3",
        "FLOAT4",
        "D3DCOLOR",
        "UBYTE4",
        "SHORT2",
        "SHORT4",
        "UBYTE4N",
        "SHORT2N",
        "SHORT4N",
        "USHORT2N",
        "USHORT4N",
        "UDEC3",
        "DEC3N",
        "FLOAT16_2",
        "FLOAT16_4",
    ];
    for (raw, name) in TYPES.iter().enumerate() {
        let ty = DeclType::from_raw(raw as u8).expect("a type");
        assert_eq!(ty.name(), *name);
        assert_eq!(ty.to_string(), *name);
        assert_eq!(DeclType::from_name(name), Some(ty));
        assert_eq!(
            DeclType::from_name(&format!("d3ddecltype_{}", name.to_lowercase())),
            Some(ty)
        );
    }
    assert_eq!(DeclType::Unused.name(), "UNUSED");
    assert_eq!(
        DeclType::from_name("D3DDECLTYPE_UNUSED"),
        Some(DeclType::Unused)
    );
    assert_eq!(DeclType::from_name("FLOAT5"), None);
    const METHODS: [&str; 7] = [
        "DEFAULT",
        "PARTIALU",
        "PARTIALV",
        "CROSSUV",
        "UV",
        "LOOKUP",
        "LOOKUPPRESAMPLED",
    ];
    for (raw, name) in METHODS.iter().enumerate() {
        let method = DeclMethod::from_raw(raw as u8).expect("a method");
        assert_eq!(method.name(), *name);
        assert_eq!(method.to_string(), *name);
        assert_eq!(DeclMethod::from_name(name), Some(method));
        assert_eq!(
            DeclMethod::from_name(&format!("D3DDECLMETHOD_{}", name.to_lowercase())),
            Some(method)
        );
    }
    assert_eq!(DeclMethod::from_name("LOOKUPX"), None);
}

/// An element displays as `stream S @OFFSET TYPE USAGEINDEX`, and its method when it is not
/// DEFAULT (the CLI's `decl` command and error messages print it).
#[test]
fn elements_display_stream_offset_type_semantic_and_method() {
    let e = VertexElement::new(1, 12, DeclType::D3DColor, Usage::Color, 0);
    assert_eq!(e.to_string(), "stream 1 @12 D3DCOLOR COLOR0");
    let lookup = VertexElement {
        method: DeclMethod::Lookup,
        ..VertexElement::new(0, 0, DeclType::Float1, Usage::Sample, 0)
    };
    assert_eq!(lookup.to_string(), "stream 0 @0 FLOAT1 SAMPLE0 (LOOKUP)");
}

/// `D3DVSD_CONST(address, count)` is followed by `4 * count` DWORDs, loaded into
/// `c[address]`…`c[address + count - 1]`; a count whose data runs past the tokens is refused.
#[test]
fn dx8_constants_take_four_dwords_per_register() {
    let tokens = [
        d3dvsd_stream(0),
        d3dvsd_reg(0, 2),
        d3dvsd_const(4, 2),
        1,
        2,
        3,
        4,
        5,
        6,
        7,
        8,
        d3dvsd_const(9, 0),
        D3DVSD_END,
    ];
    let (_, constants) = VertexDeclaration::from_dx8(&tokens).expect("valid");
    assert_eq!(
        constants,
        vec![
            Dx8Constants {
                address: 4,
                values: vec![[1, 2, 3, 4], [5, 6, 7, 8]]
            },
            Dx8Constants {
                address: 9,
                values: vec![]
            }
        ]
    );
    let short = [
        d3dvsd_stream(0),
        d3dvsd_reg(0, 2),
        d3dvsd_const(4, 2),
        1,
        2,
        3,
        4,
        D3DVSD_END,
    ];
    assert!(VertexDeclaration::from_dx8(&short).is_err());
}

/// DX8 declarations have the types FLOAT1 … SHORT4 (`D3DVSDT_SHORT4` = 7, the last); from
/// UBYTE4N on an element has no DX8 form.
#[test]
fn dx8_types_end_at_short4() {
    let with = |ty| {
        elements_to_dx8(&[
            VertexElement::new(0, 0, DeclType::Float3, Usage::Position, 0),
            VertexElement::new(0, 12, ty, Usage::TexCoord, 0),
        ])
    };
    assert_eq!(
        with(DeclType::Short4),
        Ok(vec![
            d3dvsd_stream(0),
            d3dvsd_reg(0, 2),
            d3dvsd_reg(7, 7),
            D3DVSD_END
        ])
    );
    assert_eq!(
        with(DeclType::UByte4N),
        Err(Dx8Reason::Type {
            element: 1,
            ty: DeclType::UByte4N
        })
    );
}
