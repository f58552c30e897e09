//! Vertex declarations: `D3DVERTEXELEMENT9`, FVF codes and DX8 declarations, matched to a
//! vertex shader's inputs at draw time.

pub mod fetch;

pub use fetch::{FetchConversion, FetchSource, InputFetch};
