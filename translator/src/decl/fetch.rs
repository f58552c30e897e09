//! Input fetches: how a vertex shader reads each input register at draw time.
//!
//! This is the contract between the declaration side (which knows the element types) and the
//! lifter (which emits the shader): a vertex shader module is specialised by the fetches of the
//! declaration it is drawn with.

use wgpu_types::VertexFormat;

/// The shader location of vertex input register `v#register`: the register index itself.
///
/// The one rule both sides use: the declaration side puts the attribute of `v#n` at
/// `@location(n)`, and the lifter declares `v#n` as `@location(n)`. Registers are < 16, the
/// number of vertex attributes WebGPU guarantees.
pub fn shader_input_location(register: u32) -> u32 {
    register
}

/// How the vertex shader reads input register `v#register`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct InputFetch {
    /// The `v#` register index.
    pub register: u32,
    pub source: FetchSource,
}

/// Where an input's value comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FetchSource {
    /// No element of the declaration supplies this input: it reads (0, 0, 0, 0)
    /// (hardware vertex processing; software vertex processing rejects the draw instead).
    Missing,
    /// A vertex attribute at shader location `location`, fetched with `format` and converted in
    /// the shader by `conversion`. Components the element lacks read (0, 0, 0, 1).
    Attribute {
        location: u32,
        format: VertexFormat,
        conversion: FetchConversion,
    },
}

/// The shader-side conversion after the fixed-function fetch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FetchConversion {
    /// The format yields floats (FLOATn, D3DCOLOR via `Unorm8x4Bgra`, UBYTE4N, USHORTnN,
    /// FLOAT16_n): the input is declared `vec4<f32>` and read as is.
    Float,
    /// SHORT2N / SHORT4N (`Snorm16x2` / `Snorm16x4`): declared `vec4<f32>` and clamped to −1 in
    /// the shader, so that −32768 reads −1 as D3D9 defines. WebGPU's snorm fetch clamps too, but
    /// not every driver does (lavapipe's per-instance fetch returns −32768/32767).
    SignedNormalized,
    /// UBYTE4 (`Uint8x4`): declared `vec4<u32>`, each component converted to float unscaled.
    UnsignedToFloat,
    /// SHORT2 / SHORT4 (`Sint16x2` / `Sint16x4`): declared `vec4<i32>` (missing components
    /// read (0, 0, 0, 1)), each component converted to float unscaled: (a, b, 0, 1) / (a, b, c, d).
    SignedToFloat,
    /// UDEC3 (`Uint32`): unsigned 10-10-10 in bits 0–9, 10–19, 20–29 → (x, y, z, 1), unscaled.
    UDec3,
    /// DEC3N (`Uint32`): signed 10-10-10 → (x/511, y/511, z/511, 1), clamped to −1.
    Dec3N,
}

impl FetchConversion {
    /// The WGSL scalar kind of the declared `vec4` input for this conversion.
    pub fn input_scalar(self) -> naga::Scalar {
        match self {
            FetchConversion::Float | FetchConversion::SignedNormalized => naga::Scalar::F32,
            FetchConversion::UnsignedToFloat | FetchConversion::UDec3 | FetchConversion::Dec3N => {
                naga::Scalar::U32
            }
            FetchConversion::SignedToFloat => naga::Scalar::I32,
        }
    }
}
