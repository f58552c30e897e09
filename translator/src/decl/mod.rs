//! Vertex declarations: `D3DVERTEXELEMENT9`, FVF codes and DX8 declarations, matched to a
//! vertex shader's inputs at draw time.
//!
//! - [`element`]: the element model and the raw 8-byte reader.
//! - [`validate`]: the checks of `CreateVertexDeclaration`.
//! - [`fvf`]: FVF codes ↔ elements. [`dx8`]: DX8 declaration tokens ↔ elements.
//! - [`binding`]: declaration + shader inputs + streams → wgpu layouts and input fetches.
//! - [`fetch`]: the contract with the lifter (how each `v#` is read).

pub mod binding;
mod bytes;
pub mod dx8;
pub mod element;
mod error;
pub mod fetch;
pub mod fvf;
pub mod validate;

/// The device's vertex processing mode (the one type, from `bytecode`): under software (or
/// mixed) vertex processing a shader input without a declaration element fails the draw.
pub use crate::bytecode::VertexProcessing;
pub use binding::{
    bind, bind_program, shader_inputs, BindError, BoundInput, ShaderInput, StreamFrequency,
    StreamLayout, StreamSource, VertexBinding,
};
pub use bytes::{read_elements, write_elements};
pub use dx8::{Dx8Constants, Dx8Declaration, Dx8Reason};
pub use element::{DeclMethod, DeclType, RawElement, TypeInfo, VertexElement, DECL_TYPES};
pub use error::DeclError;
pub use fetch::{shader_input_location, FetchConversion, FetchSource, InputFetch};
pub use fvf::FvfReason;

use crate::bytecode::Usage;

/// A created vertex declaration: elements that passed `CreateVertexDeclaration`'s checks.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VertexDeclaration {
    elements: Vec<VertexElement>,
}

impl VertexDeclaration {
    /// `CreateVertexDeclaration` from raw `D3DVERTEXELEMENT9` bytes ending in `D3DDECL_END`.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, DeclError> {
        Self::from_raw(&read_elements(bytes)?)
    }

    /// `CreateVertexDeclaration` from raw elements (without the terminator).
    pub fn from_raw(raw: &[RawElement]) -> Result<Self, DeclError> {
        Ok(VertexDeclaration {
            elements: validate::validate(raw)?,
        })
    }

    /// `CreateVertexDeclaration` from typed elements (they are checked all the same).
    pub fn from_elements(elements: &[VertexElement]) -> Result<Self, DeclError> {
        let raw: Vec<RawElement> = elements.iter().map(|e| e.to_raw()).collect();
        Self::from_raw(&raw)
    }

    /// The declaration `SetFVF(fvf)` installs.
    pub fn from_fvf(fvf: u32) -> Result<Self, DeclError> {
        Ok(VertexDeclaration {
            elements: fvf::fvf_to_elements(fvf)?,
        })
    }

    /// The declaration of DX8 declaration tokens, and the constants they load.
    pub fn from_dx8(tokens: &[u32]) -> Result<(Self, Vec<Dx8Constants>), DeclError> {
        let d = dx8::dx8_to_elements(tokens)?;
        Ok((
            VertexDeclaration {
                elements: d.elements,
            },
            d.constants,
        ))
    }

    /// The elements, in declaration order.
    pub fn elements(&self) -> &[VertexElement] {
        &self.elements
    }

    /// The raw bytes of the declaration, `D3DDECL_END` included.
    pub fn to_bytes(&self) -> Vec<u8> {
        let raw: Vec<RawElement> = self.elements.iter().map(|e| e.to_raw()).collect();
        write_elements(&raw)
    }

    /// The equivalent FVF code, or why there is none.
    pub fn fvf(&self) -> Result<u32, FvfReason> {
        fvf::elements_to_fvf(&self.elements)
    }

    /// The equivalent DX8 declaration tokens, or why there are none.
    pub fn dx8_tokens(&self) -> Result<Vec<u32>, Dx8Reason> {
        dx8::elements_to_dx8(&self.elements)
    }

    /// A POSITIONT element: vertices are already transformed and the vertex shader is not run.
    pub fn is_pretransformed(&self) -> bool {
        self.elements.iter().any(|e| e.usage == Usage::PositionT)
    }

    /// The streams the declaration reads, ascending.
    pub fn streams(&self) -> Vec<u16> {
        let mut s: Vec<u16> = self.elements.iter().map(|e| e.stream).collect();
        s.sort_unstable();
        s.dedup();
        s
    }

    /// The packed vertex size of `stream`: the end of its last element (0 if unused).
    pub fn stream_size(&self, stream: u16) -> u32 {
        self.elements
            .iter()
            .filter(|e| e.stream == stream)
            .map(VertexElement::end)
            .max()
            .unwrap_or(0)
    }
}

/// The device's current vertex input: `SetVertexDeclaration` and `SetFVF` both replace it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct VertexInputState {
    declaration: Option<VertexDeclaration>,
    fvf: u32,
}

impl VertexInputState {
    /// `SetFVF`: the FVF's declaration replaces the current one; `GetFVF` returns `fvf`.
    pub fn set_fvf(&mut self, fvf: u32) -> Result<(), DeclError> {
        self.declaration = Some(VertexDeclaration::from_fvf(fvf)?);
        self.fvf = fvf;
        Ok(())
    }

    /// `SetVertexDeclaration`: `GetFVF` then reports the declaration's FVF, or 0 without one.
    pub fn set_declaration(&mut self, decl: VertexDeclaration) {
        self.fvf = decl.fvf().unwrap_or(0);
        self.declaration = Some(decl);
    }

    /// `GetFVF`.
    pub fn fvf(&self) -> u32 {
        self.fvf
    }

    /// `GetVertexDeclaration`.
    pub fn declaration(&self) -> Option<&VertexDeclaration> {
        self.declaration.as_ref()
    }
}
