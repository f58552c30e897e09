//! A `D3DVERTEXELEMENT9` array as bytes: read up to `D3DDECL_END`, written with it.

use super::element::{RawElement, ELEMENT_SIZE, MAX_ELEMENTS};
use super::error::DeclError;

/// Read a `D3DVERTEXELEMENT9` array from raw bytes, up to and excluding `D3DDECL_END`.
///
/// Bytes after the terminator are ignored, as D3D9 never reads them. Fails when the bytes end
/// inside an element or before any terminator, or when more than [`MAX_ELEMENTS`] precede it.
pub fn read_elements(bytes: &[u8]) -> Result<Vec<RawElement>, DeclError> {
    let mut out = Vec::new();
    let mut chunks = bytes.chunks(ELEMENT_SIZE);
    loop {
        let element = out.len();
        let Some(chunk) = chunks.next() else {
            return Err(DeclError::MissingEnd { elements: element });
        };
        let Ok(record) = <[u8; ELEMENT_SIZE]>::try_from(chunk) else {
            return Err(DeclError::Truncated {
                element,
                bytes: chunk.len(),
            });
        };
        let raw = RawElement::from_bytes(record);
        if raw.is_end() {
            return Ok(out);
        }
        if element >= MAX_ELEMENTS {
            return Err(DeclError::TooManyElements { count: element + 1 });
        }
        out.push(raw);
    }
}

/// The raw bytes of `elements` followed by `D3DDECL_END`.
pub fn write_elements(elements: &[RawElement]) -> Vec<u8> {
    let mut out = Vec::with_capacity((elements.len() + 1) * ELEMENT_SIZE);
    for e in elements.iter().chain(std::iter::once(&RawElement::END)) {
        out.extend_from_slice(&e.to_bytes());
    }
    out
}
