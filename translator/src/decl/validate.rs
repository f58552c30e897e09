//! The checks `CreateVertexDeclaration` performs on a `D3DVERTEXELEMENT9` array.

use super::element::{DeclMethod, DeclType, RawElement, VertexElement, MAX_ELEMENTS, MAX_STREAMS};
use super::DeclError;
use crate::bytecode::Usage;

/// Type and check raw elements as `CreateVertexDeclaration` does.
///
/// Per element, in order: a known `D3DDECLTYPE` other than UNUSED, a known method, a known
/// usage, stream < 16, offset a multiple of 4; SAMPLE usage only with LOOKUP /
/// LOOKUPPRESAMPLED and those methods only with SAMPLE. Across elements: no (usage, index)
/// twice, no two elements of one stream covering the same byte. Errors name the element
/// index. Any non-DEFAULT method (the tessellator's) is then `Unsupported`.
pub fn validate(raw: &[RawElement]) -> Result<Vec<VertexElement>, DeclError> {
    if raw.len() > MAX_ELEMENTS {
        return Err(DeclError::TooManyElements { count: raw.len() });
    }
    let mut out: Vec<VertexElement> = Vec::with_capacity(raw.len());
    for (element, r) in raw.iter().enumerate() {
        let ty = match DeclType::from_raw(r.ty) {
            Some(DeclType::Unused) => return Err(DeclError::UnusedType { element }),
            Some(t) => t,
            None => return Err(DeclError::UnknownType { element, raw: r.ty }),
        };
        let method = DeclMethod::from_raw(r.method).ok_or(DeclError::UnknownMethod {
            element,
            raw: r.method,
        })?;
        let usage = Usage::from_raw(u32::from(r.usage)).ok_or(DeclError::UnknownUsage {
            element,
            raw: r.usage,
        })?;
        if r.stream >= MAX_STREAMS {
            return Err(DeclError::StreamOutOfRange {
                element,
                stream: r.stream,
            });
        }
        if !r.offset.is_multiple_of(4) {
            return Err(DeclError::MisalignedOffset {
                element,
                offset: r.offset,
            });
        }
        if usage == Usage::Sample && !method.is_lookup() {
            return Err(DeclError::SampleNeedsLookup { element, method });
        }
        if method.is_lookup() && usage != Usage::Sample {
            return Err(DeclError::LookupNeedsSample {
                element,
                method,
                usage,
            });
        }
        let e = VertexElement {
            stream: r.stream,
            offset: r.offset,
            ty,
            method,
            usage,
            usage_index: r.usage_index,
        };
        for (other, o) in out.iter().enumerate() {
            if o.semantic() == e.semantic() {
                return Err(DeclError::DuplicateSemantic {
                    element,
                    first: other,
                    semantic: e.semantic(),
                });
            }
            let disjoint = e.end() <= u32::from(o.offset) || o.end() <= u32::from(e.offset);
            if o.stream == e.stream && !disjoint {
                return Err(DeclError::Overlap {
                    element,
                    other,
                    stream: e.stream,
                });
            }
        }
        out.push(e);
    }
    if let Some((element, e)) = out
        .iter()
        .enumerate()
        .find(|(_, e)| e.method != DeclMethod::Default)
    {
        return Err(DeclError::Tessellation {
            element,
            method: e.method,
        });
    }
    Ok(out)
}
