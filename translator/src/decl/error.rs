//! The errors of vertex-declaration creation (raw elements, FVF codes, DX8 tokens).

use super::element::{DeclMethod, MAX_ELEMENTS};
use crate::bytecode::Usage;
use crate::signature::Semantic;

/// Why `CreateVertexDeclaration` (or `SetFVF`, or a DX8 `CreateVertexShader` declaration)
/// fails. Every variant but [`DeclError::Tessellation`] and [`DeclError::Dx8Unsupported`] is
/// `Invalid` (a D3D9 runtime refuses it); those two are legal D3D9 this project does not do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeclError {
    #[error("element {element}: the data ends {bytes} bytes into the element (8 needed)")]
    Truncated { element: usize, bytes: usize },
    #[error("no D3DDECL_END after {elements} elements")]
    MissingEnd { elements: usize },
    #[error("{count} elements before D3DDECL_END; D3D9 allows {MAX_ELEMENTS} (MAXD3DDECLLENGTH)")]
    TooManyElements { count: usize },
    #[error("element {element}: unknown D3DDECLTYPE {raw}")]
    UnknownType { element: usize, raw: u8 },
    #[error("element {element}: D3DDECLTYPE_UNUSED outside D3DDECL_END")]
    UnusedType { element: usize },
    #[error("element {element}: unknown D3DDECLMETHOD {raw}")]
    UnknownMethod { element: usize, raw: u8 },
    #[error("element {element}: unknown D3DDECLUSAGE {raw}")]
    UnknownUsage { element: usize, raw: u8 },
    #[error("element {element}: stream {stream} out of range (0–15)")]
    StreamOutOfRange { element: usize, stream: u16 },
    #[error("element {element}: offset {offset} is not a multiple of 4")]
    MisalignedOffset { element: usize, offset: u16 },
    #[error("element {element}: {semantic} already declared by element {first}")]
    DuplicateSemantic {
        element: usize,
        first: usize,
        semantic: Semantic,
    },
    #[error("element {element}: overlaps element {other} in stream {stream}")]
    Overlap {
        element: usize,
        other: usize,
        stream: u16,
    },
    #[error(
        "element {element}: SAMPLE usage needs method LOOKUP or LOOKUPPRESAMPLED, not {method}"
    )]
    SampleNeedsLookup { element: usize, method: DeclMethod },
    #[error("element {element}: method {method} needs usage SAMPLE, not {usage}")]
    LookupNeedsSample {
        element: usize,
        method: DeclMethod,
        usage: Usage,
    },
    #[error(
        "element {element}: unsupported: tessellator method {method} (only DEFAULT is fetched)"
    )]
    Tessellation { element: usize, method: DeclMethod },
    #[error("FVF {fvf:#x}: {reason}")]
    InvalidFvf { fvf: u32, reason: &'static str },
    #[error("DX8 declaration token {token} ({value:#010x}): {reason}")]
    Dx8Invalid {
        token: usize,
        value: u32,
        reason: &'static str,
    },
    #[error("DX8 declaration token {token} ({value:#010x}): unsupported: {reason}")]
    Dx8Unsupported {
        token: usize,
        value: u32,
        reason: &'static str,
    },
}

impl DeclError {
    /// Legal D3D9 that this project does not handle (as opposed to input D3D9 rejects).
    pub fn is_unsupported(&self) -> bool {
        matches!(
            self,
            DeclError::Tessellation { .. } | DeclError::Dx8Unsupported { .. }
        )
    }
}
