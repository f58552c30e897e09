//! `D3DVERTEXELEMENT9`: the model of one vertex element, its types and methods, and the
//! reader for the raw 8-byte records an application passes to `CreateVertexDeclaration`.

use super::fetch::FetchConversion;
use crate::bytecode::Usage;
use crate::signature::Semantic;
use std::fmt;
use wgpu_types::VertexFormat;

/// Size in bytes of one raw `D3DVERTEXELEMENT9`.
pub const ELEMENT_SIZE: usize = 8;
/// `MAXD3DDECLLENGTH`: the most elements a declaration may hold, `D3DDECL_END` not counted.
pub const MAX_ELEMENTS: usize = 64;
/// D3D9 has at most 16 vertex streams (`D3DCAPS9.MaxStreams` ≤ 16): stream numbers 0–15.
pub const MAX_STREAMS: u16 = 16;
/// The stream number of `D3DDECL_END`.
pub const END_STREAM: u16 = 0xFF;
/// The raw bytes of `D3DDECL_END()`: `{0xFF, 0, D3DDECLTYPE_UNUSED, 0, 0, 0}`.
pub const DECL_END: [u8; ELEMENT_SIZE] = [0xFF, 0, 0, 0, 17, 0, 0, 0];

/// `D3DDECLTYPE`: the data type of a vertex element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DeclType {
    Float1 = 0,
    Float2 = 1,
    Float3 = 2,
    Float4 = 3,
    D3DColor = 4,
    UByte4 = 5,
    Short2 = 6,
    Short4 = 7,
    UByte4N = 8,
    Short2N = 9,
    Short4N = 10,
    UShort2N = 11,
    UShort4N = 12,
    UDec3 = 13,
    Dec3N = 14,
    Float16x2 = 15,
    Float16x4 = 16,
    /// `D3DDECLTYPE_UNUSED`: only in `D3DDECL_END`.
    Unused = 17,
}

/// What D3D9 reads for one `D3DDECLTYPE`, and how we fetch it with wgpu.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TypeInfo {
    pub ty: DeclType,
    /// The SDK name without prefix (`FLOAT3`, `D3DCOLOR`).
    pub name: &'static str,
    /// Bytes the element occupies in the vertex.
    pub size: u32,
    /// Components the element supplies; the rest read (0, 0, 0, 1).
    pub components: u8,
    /// The wgpu vertex format the attribute is fetched with.
    pub format: VertexFormat,
    /// The conversion the shader applies after the fetch.
    pub conversion: FetchConversion,
}

const fn info(
    ty: DeclType,
    name: &'static str,
    size: u32,
    components: u8,
    format: VertexFormat,
    conversion: FetchConversion,
) -> TypeInfo {
    TypeInfo {
        ty,
        name,
        size,
        components,
        format,
        conversion,
    }
}

use FetchConversion as C;
use VertexFormat as F;

/// The one table of vertex element types: size, components, wgpu format and shader-side
/// conversion, indexed by `D3DDECLTYPE` value (UNUSED excluded).
///
/// D3D9 reads UBYTE4 as (v0, v1, v2, v3), SHORT2/4 as (a, b, 0, 1)/(a, b, c, d) unscaled,
/// UDEC3 as (x, y, z, 1) unsigned 10-10-10 and DEC3N as (x/511, y/511, z/511, 1); wgpu has no
/// float format for these, so they are fetched as integers and converted in the shader.
pub const DECL_TYPES: [TypeInfo; 17] = [
    info(DeclType::Float1, "FLOAT1", 4, 1, F::Float32, C::Float),
    info(DeclType::Float2, "FLOAT2", 8, 2, F::Float32x2, C::Float),
    info(DeclType::Float3, "FLOAT3", 12, 3, F::Float32x3, C::Float),
    info(DeclType::Float4, "FLOAT4", 16, 4, F::Float32x4, C::Float),
    info(
        DeclType::D3DColor,
        "D3DCOLOR",
        4,
        4,
        F::Unorm8x4Bgra,
        C::Float,
    ),
    info(
        DeclType::UByte4,
        "UBYTE4",
        4,
        4,
        F::Uint8x4,
        C::UnsignedToFloat,
    ),
    info(
        DeclType::Short2,
        "SHORT2",
        4,
        2,
        F::Sint16x2,
        C::SignedToFloat,
    ),
    info(
        DeclType::Short4,
        "SHORT4",
        8,
        4,
        F::Sint16x4,
        C::SignedToFloat,
    ),
    info(DeclType::UByte4N, "UBYTE4N", 4, 4, F::Unorm8x4, C::Float),
    info(
        DeclType::Short2N,
        "SHORT2N",
        4,
        2,
        F::Snorm16x2,
        C::SignedNormalized,
    ),
    info(
        DeclType::Short4N,
        "SHORT4N",
        8,
        4,
        F::Snorm16x4,
        C::SignedNormalized,
    ),
    info(DeclType::UShort2N, "USHORT2N", 4, 2, F::Unorm16x2, C::Float),
    info(DeclType::UShort4N, "USHORT4N", 8, 4, F::Unorm16x4, C::Float),
    info(DeclType::UDec3, "UDEC3", 4, 3, F::Uint32, C::UDec3),
    info(DeclType::Dec3N, "DEC3N", 4, 3, F::Uint32, C::Dec3N),
    info(
        DeclType::Float16x2,
        "FLOAT16_2",
        4,
        2,
        F::Float16x2,
        C::Float,
    ),
    info(
        DeclType::Float16x4,
        "FLOAT16_4",
        8,
        4,
        F::Float16x4,
        C::Float,
    ),
];

impl DeclType {
    /// All types that may appear in an element, in `D3DDECLTYPE` order (UNUSED excluded).
    pub const ALL: [DeclType; 17] = [
        DeclType::Float1,
        DeclType::Float2,
        DeclType::Float3,
        DeclType::Float4,
        DeclType::D3DColor,
        DeclType::UByte4,
        DeclType::Short2,
        DeclType::Short4,
        DeclType::UByte4N,
        DeclType::Short2N,
        DeclType::Short4N,
        DeclType::UShort2N,
        DeclType::UShort4N,
        DeclType::UDec3,
        DeclType::Dec3N,
        DeclType::Float16x2,
        DeclType::Float16x4,
    ];

    /// The type with this `D3DDECLTYPE` value (UNUSED included), if it is one.
    pub fn from_raw(raw: u8) -> Option<DeclType> {
        match raw {
            17 => Some(DeclType::Unused),
            _ => Self::ALL.get(usize::from(raw)).copied(),
        }
    }

    /// The `D3DDECLTYPE` value.
    pub fn raw(self) -> u8 {
        self as u8
    }

    /// The table row for this type; `None` for UNUSED.
    pub fn info(self) -> Option<&'static TypeInfo> {
        DECL_TYPES.get(self as usize)
    }

    /// Bytes the element occupies (0 for UNUSED).
    pub fn size(self) -> u32 {
        self.info().map_or(0, |i| i.size)
    }

    /// The SDK name without the `D3DDECLTYPE_` prefix.
    pub fn name(self) -> &'static str {
        self.info().map_or("UNUSED", |i| i.name)
    }

    /// Parse [`DeclType::name`] (case-insensitive, with or without the `D3DDECLTYPE_` prefix).
    pub fn from_name(name: &str) -> Option<DeclType> {
        let upper = name.to_ascii_uppercase();
        let bare = upper.strip_prefix("D3DDECLTYPE_").unwrap_or(&upper);
        if bare == "UNUSED" {
            return Some(DeclType::Unused);
        }
        DECL_TYPES.iter().find(|i| i.name == bare).map(|i| i.ty)
    }
}

impl fmt::Display for DeclType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `D3DDECLMETHOD`: how the tessellator processes an element. Only DEFAULT is plain fetching.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DeclMethod {
    Default = 0,
    PartialU = 1,
    PartialV = 2,
    CrossUV = 3,
    UV = 4,
    Lookup = 5,
    LookupPresampled = 6,
}

impl DeclMethod {
    /// All methods in `D3DDECLMETHOD` order.
    pub const ALL: [DeclMethod; 7] = [
        DeclMethod::Default,
        DeclMethod::PartialU,
        DeclMethod::PartialV,
        DeclMethod::CrossUV,
        DeclMethod::UV,
        DeclMethod::Lookup,
        DeclMethod::LookupPresampled,
    ];

    /// The method with this `D3DDECLMETHOD` value, if it is one.
    pub fn from_raw(raw: u8) -> Option<DeclMethod> {
        Self::ALL.get(usize::from(raw)).copied()
    }

    /// The SDK name without the `D3DDECLMETHOD_` prefix.
    pub fn name(self) -> &'static str {
        match self {
            DeclMethod::Default => "DEFAULT",
            DeclMethod::PartialU => "PARTIALU",
            DeclMethod::PartialV => "PARTIALV",
            DeclMethod::CrossUV => "CROSSUV",
            DeclMethod::UV => "UV",
            DeclMethod::Lookup => "LOOKUP",
            DeclMethod::LookupPresampled => "LOOKUPPRESAMPLED",
        }
    }

    /// Parse [`DeclMethod::name`] (case-insensitive, with or without the prefix).
    pub fn from_name(name: &str) -> Option<DeclMethod> {
        let upper = name.to_ascii_uppercase();
        let bare = upper.strip_prefix("D3DDECLMETHOD_").unwrap_or(&upper);
        Self::ALL.iter().copied().find(|m| m.name() == bare)
    }

    /// LOOKUP and LOOKUPPRESAMPLED: the displacement-map methods that go with SAMPLE usage.
    pub fn is_lookup(self) -> bool {
        matches!(self, DeclMethod::Lookup | DeclMethod::LookupPresampled)
    }
}

impl fmt::Display for DeclMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One `D3DVERTEXELEMENT9` exactly as stored, before any field is interpreted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RawElement {
    pub stream: u16,
    pub offset: u16,
    pub ty: u8,
    pub method: u8,
    pub usage: u8,
    pub usage_index: u8,
}

impl RawElement {
    /// `D3DDECL_END()`.
    pub const END: RawElement = RawElement {
        stream: END_STREAM,
        offset: 0,
        ty: DeclType::Unused as u8,
        method: 0,
        usage: 0,
        usage_index: 0,
    };

    /// Read one element from 8 little-endian bytes.
    pub fn from_bytes(b: [u8; ELEMENT_SIZE]) -> RawElement {
        RawElement {
            stream: u16::from_le_bytes([b[0], b[1]]),
            offset: u16::from_le_bytes([b[2], b[3]]),
            ty: b[4],
            method: b[5],
            usage: b[6],
            usage_index: b[7],
        }
    }

    /// The 8 little-endian bytes of this element.
    pub fn to_bytes(self) -> [u8; ELEMENT_SIZE] {
        let s = self.stream.to_le_bytes();
        let o = self.offset.to_le_bytes();
        [
            s[0],
            s[1],
            o[0],
            o[1],
            self.ty,
            self.method,
            self.usage,
            self.usage_index,
        ]
    }

    /// Whether this is the terminator. D3D9 ends the array at the first element with stream
    /// 0xFF (`D3DDECL_END`); its other fields are not looked at.
    pub fn is_end(&self) -> bool {
        self.stream == END_STREAM
    }
}

/// A typed vertex element: every field is a legal D3D9 value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct VertexElement {
    pub stream: u16,
    pub offset: u16,
    pub ty: DeclType,
    pub method: DeclMethod,
    pub usage: Usage,
    pub usage_index: u8,
}

impl VertexElement {
    /// A DEFAULT-method element.
    pub const fn new(
        stream: u16,
        offset: u16,
        ty: DeclType,
        usage: Usage,
        usage_index: u8,
    ) -> Self {
        VertexElement {
            stream,
            offset,
            ty,
            method: DeclMethod::Default,
            usage,
            usage_index,
        }
    }

    /// The (usage, usage index) pair shader inputs are matched by.
    pub fn semantic(&self) -> Semantic {
        Semantic::new(self.usage, self.usage_index)
    }

    /// The first byte after the element.
    pub fn end(&self) -> u32 {
        u32::from(self.offset) + self.ty.size()
    }

    /// The raw record of this element.
    pub fn to_raw(self) -> RawElement {
        RawElement {
            stream: self.stream,
            offset: self.offset,
            ty: self.ty.raw(),
            method: self.method as u8,
            usage: self.usage.raw() as u8,
            usage_index: self.usage_index,
        }
    }
}

impl fmt::Display for VertexElement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "stream {} @{} {} {}{}",
            self.stream,
            self.offset,
            self.ty,
            self.usage.name().to_uppercase(),
            self.usage_index
        )?;
        if self.method != DeclMethod::Default {
            write!(f, " ({})", self.method)?;
        }
        Ok(())
    }
}
