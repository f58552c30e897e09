//! Draw-time binding: a vertex declaration paired with a vertex shader's inputs and the
//! bound streams gives one vertex buffer layout per used stream and an input fetch per
//! shader input, as the D3D9 runtime builds its combined (declaration, shader) object.

use super::element::VertexElement;
use super::fetch::{shader_input_location, FetchSource, InputFetch};
use super::VertexDeclaration;
use crate::bytecode::{Program, RegisterFile, Stage, VertexProcessing};
use crate::signature::{Semantic, Signature};
use wgpu_types::{VertexAttribute, VertexStepMode};

/// `D3DSTREAMSOURCE_INDEXEDDATA`: the stream frequency flag of the per-vertex (indexed) stream.
pub const D3DSTREAMSOURCE_INDEXEDDATA: u32 = 1 << 30;
/// `D3DSTREAMSOURCE_INSTANCEDATA`: the stream frequency flag of a per-instance stream.
pub const D3DSTREAMSOURCE_INSTANCEDATA: u32 = 2 << 30;
/// Vertex shader input registers `v0`–`v15` (vs_1_1 to vs_3_0), one location each.
pub const MAX_INPUT_REGISTERS: u32 = crate::bytecode::VERTEX_INPUTS;
/// WebGPU's `maxVertexBufferArrayStride` (the default limit wgpu guarantees).
pub const MAX_STRIDE: u32 = 2048;

/// A stream's `SetStreamSourceFreq` setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum StreamFrequency {
    /// The default (frequency 1): data advances per vertex.
    #[default]
    Vertex,
    /// `D3DSTREAMSOURCE_INDEXEDDATA | n`: geometry stream drawn `n` times; per vertex.
    IndexedData(u32),
    /// `D3DSTREAMSOURCE_INSTANCEDATA | n`: data advances every `n` instances.
    InstanceData(u32),
    /// A plain divider `n` > 1 without flags (non-indexed frequency, software processing only).
    Divider(u32),
}

impl StreamFrequency {
    /// Read a `SetStreamSourceFreq` value.
    pub fn from_raw(raw: u32) -> StreamFrequency {
        let n = raw & 0x3FFF_FFFF;
        if raw & D3DSTREAMSOURCE_INSTANCEDATA != 0 {
            StreamFrequency::InstanceData(n)
        } else if raw & D3DSTREAMSOURCE_INDEXEDDATA != 0 {
            StreamFrequency::IndexedData(n)
        } else if n <= 1 {
            StreamFrequency::Vertex
        } else {
            StreamFrequency::Divider(n)
        }
    }
}

/// What `SetStreamSource` / `SetStreamSourceFreq` bound to one stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct StreamSource {
    /// Bytes between vertices (0: every vertex reads the same data).
    pub stride: u32,
    pub frequency: StreamFrequency,
}

/// One vertex shader input: register `v#register` with its semantic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ShaderInput {
    pub register: u32,
    pub semantic: Semantic,
}

/// The inputs of a vertex shader: its `dcl`s, or for a shader without any (DX8-style vs_1_1)
/// the registers it reads, named by the DX8 register table (`v0` POSITION0, `v3` NORMAL0, …).
pub fn shader_inputs(program: &Program) -> Result<Vec<ShaderInput>, BindError> {
    if program.version.stage != Stage::Vertex {
        return Err(BindError::NotVertexShader);
    }
    Ok(Signature::of(program)
        .inputs
        .iter()
        .filter(|e| e.register.file == RegisterFile::Input)
        .map(|e| ShaderInput {
            register: e.register.index,
            semantic: e.semantic,
        })
        .collect())
}

/// The vertex buffer layout of one stream, owned. The backend turns it into
/// `wgpu::VertexBufferLayout { array_stride, step_mode, attributes: &attributes }`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct StreamLayout {
    /// The D3D9 stream number: the vertex buffer bound at `SetStreamSource(stream, ..)`.
    pub stream: u16,
    pub array_stride: u64,
    pub step_mode: VertexStepMode,
    pub attributes: Vec<VertexAttribute>,
}

impl StreamLayout {
    /// The fields of `wgpu::VertexBufferLayout`: (array_stride, step_mode, attributes).
    pub fn as_layout(&self) -> (u64, VertexStepMode, &[VertexAttribute]) {
        (self.array_stride, self.step_mode, &self.attributes)
    }
}

/// One shader input with where its data comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BoundInput {
    pub semantic: Semantic,
    /// The declaration element feeding it, if any.
    pub element: Option<usize>,
    pub fetch: InputFetch,
}

/// The result of pairing a declaration with a vertex shader at draw time.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VertexBinding {
    /// POSITIONT in the declaration (or FVF XYZRHW): the vertex shader is not run. The inputs
    /// are then the declaration's elements in order, input `i` (register and location `i`)
    /// reading element `i`, for the backend's pass-through.
    pub pretransformed: bool,
    /// One layout per stream that feeds at least one input, by stream number.
    pub streams: Vec<StreamLayout>,
    /// One entry per shader input, in signature order.
    pub inputs: Vec<BoundInput>,
}

impl VertexBinding {
    /// The input fetches the vertex shader is specialised with.
    pub fn fetches(&self) -> Vec<InputFetch> {
        self.inputs.iter().map(|i| i.fetch).collect()
    }
}

/// Why a (declaration, shader, streams) triple cannot be drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BindError {
    #[error("not a vertex shader")]
    NotVertexShader,
    #[error("input v{register} ({semantic}) has no element in the declaration (software vertex processing)")]
    MissingInput { register: u32, semantic: Semantic },
    #[error("inputs {semantic} and {other} both use v{register}")]
    DuplicateRegister {
        register: u32,
        semantic: Semantic,
        other: Semantic,
    },
    #[error("input register v{register} beyond v15")]
    RegisterOutOfRange { register: u32 },
    #[error("element {element} has type UNUSED")]
    UnusedType { element: usize },
    #[error("stream {stream} feeds element {element} but has no stream source")]
    StreamNotSet { stream: u16, element: usize },
    #[error("stream {stream}: stride {stride} is smaller than element {element}, which ends at byte {end}")]
    StrideTooSmall {
        stream: u16,
        stride: u32,
        element: usize,
        end: u32,
    },
    #[error("unsupported: stream {stream}: stride {stride} is not a multiple of 4 (WebGPU)")]
    StrideUnaligned { stream: u16, stride: u32 },
    #[error("unsupported: stream {stream}: stride {stride} beyond {MAX_STRIDE} (WebGPU)")]
    StrideTooLarge { stream: u16, stride: u32 },
    #[error("unsupported: stream {stream}: element {element} ends at byte {end}, beyond {MAX_STRIDE} (WebGPU)")]
    OffsetTooLarge {
        stream: u16,
        element: usize,
        end: u32,
    },
    #[error(
        "unsupported: stream {stream}: instance divider {divisor} (WebGPU steps every instance)"
    )]
    InstanceDivisor { stream: u16, divisor: u32 },
    #[error(
        "unsupported: stream {stream}: frequency divider {divisor} without D3DSTREAMSOURCE flags"
    )]
    FrequencyDivider { stream: u16, divisor: u32 },
}

impl BindError {
    /// Legal D3D9 this project does not draw (as opposed to a draw D3D9 rejects).
    pub fn is_unsupported(&self) -> bool {
        matches!(
            self,
            BindError::StrideUnaligned { .. }
                | BindError::StrideTooLarge { .. }
                | BindError::OffsetTooLarge { .. }
                | BindError::InstanceDivisor { .. }
                | BindError::FrequencyDivider { .. }
        )
    }
}

/// Pair `decl` with a vertex shader program (see [`bind`]).
pub fn bind_program(
    decl: &VertexDeclaration,
    program: &Program,
    streams: &[StreamSource],
    processing: VertexProcessing,
) -> Result<VertexBinding, BindError> {
    bind(decl, &shader_inputs(program)?, streams, processing)
}

/// Pair `decl` with the shader inputs `inputs`, given the stream sources (`streams[n]` is
/// stream `n`).
///
/// Each input is matched to the element with the same (usage, usage index), never by
/// position; elements no input names are left out. A matched input reads location
/// [`shader_input_location`]`(register)` with the element type's format and conversion
/// ([`super::element::DECL_TYPES`]); an unmatched one reads (0, 0, 0, 0) under hardware vertex
/// processing and fails the draw under software (or mixed) vertex processing. With POSITIONT the shader
/// is not run (see [`VertexBinding::pretransformed`]).
pub fn bind(
    decl: &VertexDeclaration,
    inputs: &[ShaderInput],
    streams: &[StreamSource],
    processing: VertexProcessing,
) -> Result<VertexBinding, BindError> {
    let elements = decl.elements();
    let pretransformed = decl.is_pretransformed();
    let passthrough: Vec<ShaderInput>;
    let inputs = if pretransformed {
        passthrough = elements
            .iter()
            .enumerate()
            .map(|(i, e)| ShaderInput {
                register: i as u32,
                semantic: e.semantic(),
            })
            .collect();
        &passthrough[..]
    } else {
        inputs
    };
    for (n, input) in inputs.iter().enumerate() {
        if input.register >= MAX_INPUT_REGISTERS {
            return Err(BindError::RegisterOutOfRange {
                register: input.register,
            });
        }
        if let Some(other) = inputs[..n].iter().find(|o| o.register == input.register) {
            return Err(BindError::DuplicateRegister {
                register: input.register,
                semantic: input.semantic,
                other: other.semantic,
            });
        }
    }
    let mut bound = Vec::with_capacity(inputs.len());
    let mut layouts: Vec<StreamLayout> = Vec::new();
    for input in inputs {
        let found = elements
            .iter()
            .enumerate()
            .find(|(_, e)| e.semantic() == input.semantic);
        let Some((index, element)) = found else {
            // Software, and mixed devices too: a binding that succeeds draws in either mode.
            if processing.software_limits() {
                return Err(BindError::MissingInput {
                    register: input.register,
                    semantic: input.semantic,
                });
            }
            bound.push(BoundInput {
                semantic: input.semantic,
                element: None,
                fetch: InputFetch {
                    register: input.register,
                    source: FetchSource::Missing,
                },
            });
            continue;
        };
        let Some(info) = element.ty.info() else {
            return Err(BindError::UnusedType { element: index });
        };
        let location = shader_input_location(input.register);
        let layout = match layouts.iter_mut().position(|l| l.stream == element.stream) {
            Some(p) => &mut layouts[p],
            None => {
                layouts.push(stream_layout(element, index, streams)?);
                let last = layouts.len() - 1;
                &mut layouts[last]
            }
        };
        check_extent(layout, element, index)?;
        layout.attributes.push(VertexAttribute {
            format: info.format,
            offset: u64::from(element.offset),
            shader_location: location,
        });
        bound.push(BoundInput {
            semantic: input.semantic,
            element: Some(index),
            fetch: InputFetch {
                register: input.register,
                source: FetchSource::Attribute {
                    location,
                    format: info.format,
                    conversion: info.conversion,
                },
            },
        });
    }
    layouts.sort_by_key(|l| l.stream);
    Ok(VertexBinding {
        pretransformed,
        streams: layouts,
        inputs: bound,
    })
}

/// The (empty) layout of the stream `element` reads, from its stream source.
fn stream_layout(
    element: &VertexElement,
    index: usize,
    streams: &[StreamSource],
) -> Result<StreamLayout, BindError> {
    let stream = element.stream;
    let source = streams
        .get(usize::from(stream))
        .ok_or(BindError::StreamNotSet {
            stream,
            element: index,
        })?;
    let stride = source.stride;
    if !stride.is_multiple_of(4) {
        return Err(BindError::StrideUnaligned { stream, stride });
    }
    if stride > MAX_STRIDE {
        return Err(BindError::StrideTooLarge { stream, stride });
    }
    let step_mode = match source.frequency {
        StreamFrequency::Vertex | StreamFrequency::IndexedData(_) => VertexStepMode::Vertex,
        StreamFrequency::InstanceData(1) => VertexStepMode::Instance,
        StreamFrequency::InstanceData(divisor) => {
            return Err(BindError::InstanceDivisor { stream, divisor })
        }
        StreamFrequency::Divider(divisor) => {
            return Err(BindError::FrequencyDivider { stream, divisor })
        }
    };
    Ok(StreamLayout {
        stream,
        array_stride: u64::from(stride),
        step_mode,
        attributes: Vec::new(),
    })
}

/// An element must fit in the stride (or, with stride 0, in WebGPU's largest stride).
fn check_extent(
    layout: &StreamLayout,
    element: &VertexElement,
    index: usize,
) -> Result<(), BindError> {
    let end = element.end();
    let stream = layout.stream;
    if layout.array_stride == 0 {
        if end > MAX_STRIDE {
            return Err(BindError::OffsetTooLarge {
                stream,
                element: index,
                end,
            });
        }
    } else if u64::from(end) > layout.array_stride {
        return Err(BindError::StrideTooSmall {
            stream,
            stride: layout.array_stride as u32,
            element: index,
            end,
        });
    }
    Ok(())
}
