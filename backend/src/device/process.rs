//! `ProcessVertices`: the current vertex shader run on the CPU by the translator's reference
//! interpreter (`d3d9_translator::interp`), its outputs written into a vertex buffer in the
//! layout of a destination declaration.
//!
//! Which path runs what, on a software-vertex-processing device:
//! - draws always take the GPU path: the shader translated with software limits (8192 `c#` in a
//!   storage buffer, CONST2–CONST4 included, 2048 `i#`/`b#`);
//! - `process_vertices` always takes the interpreter (D3D9's software pipeline), whose
//!   semantics are the translator's (`rules`), checked against the GPU by the differential
//!   tests.
//!
//! D3D9 allows `ProcessVertices` with a vertex shader only under software vertex processing;
//! on a hardware device it is `D3DERR_INVALIDCALL`, as on Windows. Without a vertex shader,
//! on any device, the interpreter runs the fixed-function vertex stage's program (the
//! translator's `fixed_function::VertexDescription`, the one the draws translate) with its
//! constants.

use std::sync::Arc;

use d3d9_translator::bytecode::{Usage, VertexProcessing};
use d3d9_translator::decl::{DeclType, VertexDeclaration, VertexElement};
use d3d9_translator::interp::{process_vertices, Constants, OutputVertex, Stream};
use d3d9_translator::signature::Semantic;

use super::error::{invalid, unsupported, DeviceError};
use super::objects::{DeclarationId, ShaderObject, VertexBufferId};
use super::state::Viewport;
use super::Device;

/// The vertex stage `ProcessVertices` runs: its shader, the declaration it reads, and the
/// fixed-function stage's float constants (`None`: the vertex shader's constants).
struct ProcessedStage {
    shader: ShaderObject,
    decl: Arc<VertexDeclaration>,
    floats: Option<Vec<[f32; 4]>>,
}

impl Device {
    /// `ProcessVertices(src_start, dest_index, count, dest, dest_decl, 0)`: vertices
    /// `src_start .. src_start + count` of the streams set, through the current declaration and
    /// vertex shader, with the current vertex shader constants, written from vertex
    /// `dest_index` of `dest` in the layout `dest_decl` describes (stream 0's elements; the
    /// stride is the declaration's stream 0 size).
    ///
    /// The position lands in screen space as D3D9 writes it (x, y on the viewport, z mapped
    /// into MinZ..MaxZ, 1/w), into a POSITIONT or POSITION element; every other element takes
    /// the shader output with its (usage, index), or zero if the shader has none. Element
    /// types: FLOAT1–4 and D3DCOLOR (clamped to 0..1); others are unsupported.
    pub fn process_vertices(
        &mut self,
        src_start: u32,
        dest_index: u32,
        count: u32,
        dest: VertexBufferId,
        dest_decl: DeclarationId,
    ) -> Result<(), DeviceError> {
        let call = "ProcessVertices";
        // Without a vertex shader a hardware device processes too (Wine's test_sysmem_draw,
        // checked on Windows).
        if self.params.processing == VertexProcessing::Hardware
            && self.state.vertex_shader.is_some()
        {
            return Err(invalid(
                call,
                "a vertex shader is processed only under software vertex processing",
            ));
        }
        let decl_id = self
            .state
            .declaration
            .ok_or_else(|| invalid(call, "no vertex declaration or FVF is set"))?;
        let decl = self
            .declarations
            .get(&decl_id)
            .cloned()
            .ok_or_else(|| invalid(call, "the vertex declaration was released"))?;
        let out_decl = self.declarations.get(&dest_decl).cloned().ok_or_else(|| {
            invalid(
                call,
                format!("{dest_decl:?} is not a declaration of this device"),
            )
        })?;
        let ProcessedStage {
            shader,
            decl,
            floats: fixed_function,
        } = self.processed_stage(call, decl, &out_decl)?;
        self.check_no_vertex_textures(call, &shader)?;
        let streams = self.interpreter_streams(call, &decl)?;
        let c = &self.state.vs_constants;
        let constants = Constants {
            floats: fixed_function.unwrap_or_else(|| c.floats.clone()),
            ints: c.ints.clone(),
            bools: c.bools.clone(),
        };
        let vertices = process_vertices(
            &shader,
            &decl,
            &streams,
            &constants,
            src_start,
            count,
            self.params.float_mode,
        )
        .map_err(|e| {
            if e.to_string().contains("unsupported") {
                unsupported(call, e.to_string())
            } else {
                invalid(call, e.to_string())
            }
        })?;
        let (bytes, stride) = encode_vertices(call, &vertices, &out_decl, self.state.viewport)?;
        let offset = u64::from(dest_index) * u64::from(stride);
        let offset =
            u32::try_from(offset).map_err(|_| invalid(call, "destination offset past 4 GiB"))?;
        self.update_vertex_buffer(dest, offset, &bytes)
    }

    /// The vertex stage processed: the vertex shader and the bound declaration, or without a
    /// vertex shader the generated fixed-function vertex stage, the declaration it reads and
    /// its constants (`fixed_function::keys`).
    fn processed_stage(
        &self,
        call: &'static str,
        decl: Arc<VertexDeclaration>,
        out_decl: &VertexDeclaration,
    ) -> Result<ProcessedStage, DeviceError> {
        Ok(match self.state.vertex_shader {
            Some(id) => ProcessedStage {
                shader: self
                    .vertex_shaders
                    .get(&id)
                    .cloned()
                    .ok_or_else(|| invalid(call, "the vertex shader was released"))?,
                decl,
                floats: None,
            },
            None => {
                let p = self.fixed_function_processing(&decl, out_decl)?;
                ProcessedStage {
                    shader: p.program,
                    decl: Arc::new(p.declaration),
                    floats: Some(p.floats),
                }
            }
        })
    }

    /// The interpreter samples textures from system memory; the device keeps none for its
    /// textures (they live on the GPU), so a shader sampling a bound vertex texture is
    /// refused rather than reading the unbound (0, 0, 0, 1).
    fn check_no_vertex_textures(
        &self,
        call: &'static str,
        shader: &ShaderObject,
    ) -> Result<(), DeviceError> {
        let samples = shader
            .program()
            .instructions
            .iter()
            .any(|i| i.opcode == d3d9_translator::bytecode::Opcode::TexLdl);
        if samples
            && self.state.textures[super::VERTEX_SAMPLER_BASE..]
                .iter()
                .any(Option::is_some)
        {
            return Err(unsupported(
                call,
                "texldl of a bound vertex texture (the interpreter reads textures from system memory, which this device does not keep)",
            ));
        }
        Ok(())
    }

    /// The streams as the interpreter reads them, from the buffers' system-memory copies.
    fn interpreter_streams(
        &self,
        call: &'static str,
        decl: &VertexDeclaration,
    ) -> Result<Vec<Stream<'_>>, DeviceError> {
        let used = decl.streams();
        let max_stream = used.iter().copied().max().map_or(0, |s| s as usize + 1);
        let mut streams = Vec::with_capacity(max_stream);
        for n in 0..max_stream {
            let s = &self.state.streams[n];
            let data: &[u8] = match s.buffer {
                Some(id) => {
                    &self
                        .vertex_buffers
                        .get(&id)
                        .ok_or_else(|| {
                            invalid(call, format!("stream {n}'s vertex buffer was released"))
                        })?
                        .shadow
                }
                None if used.contains(&(n as u16)) => {
                    return Err(invalid(
                        call,
                        format!("the declaration reads stream {n}, which has no vertex buffer set"),
                    ))
                }
                None => &[],
            };
            streams.push(Stream {
                data,
                offset: s.offset,
                stride: s.stride,
            });
        }
        Ok(streams)
    }
}

/// The processed vertices in the destination layout (stream 0 of `out_decl`), and its
/// stride.
fn encode_vertices(
    call: &'static str,
    vertices: &[OutputVertex],
    out_decl: &VertexDeclaration,
    viewport: Viewport,
) -> Result<(Vec<u8>, u32), DeviceError> {
    let stride = out_decl.stream_size(0);
    let elements: Vec<_> = out_decl
        .elements()
        .iter()
        .filter(|e| e.stream == 0)
        .copied()
        .collect();
    if elements.is_empty() {
        return Err(invalid(
            call,
            "the destination declaration has no stream 0 elements",
        ));
    }
    let mut bytes = vec![0u8; stride as usize * vertices.len()];
    for (k, vertex) in vertices.iter().enumerate() {
        for e in &elements {
            let value = element_value(vertex, e, viewport);
            let at = k * stride as usize + e.offset as usize;
            let encoded = encode_element(call, e.ty, value)?;
            let slot = bytes.get_mut(at..at + encoded.len()).ok_or_else(|| {
                invalid(call, "a destination element past the declaration's stride")
            })?;
            slot.copy_from_slice(&encoded);
        }
    }
    Ok((bytes, stride))
}

/// The value an element takes: the position in screen space as D3D9 writes it (x, y on the
/// viewport, z mapped into MinZ..MaxZ, 1/w), the shader output of the element's semantic
/// otherwise (zero where the shader has none).
fn element_value(vertex: &OutputVertex, e: &VertexElement, v: Viewport) -> [f32; 4] {
    match e.usage {
        Usage::PositionT | Usage::Position if e.usage_index == 0 => {
            let [x, y, z, w] = vertex
                .get(Semantic::new(Usage::Position, 0))
                .unwrap_or([0.0; 4]);
            let rhw = 1.0 / w;
            [
                v.x as f32 + (x * rhw + 1.0) * v.width as f32 / 2.0,
                v.y as f32 + (1.0 - y * rhw) * v.height as f32 / 2.0,
                v.min_z + z * rhw * (v.max_z - v.min_z),
                rhw,
            ]
        }
        usage => vertex
            .get(Semantic::new(usage, e.usage_index))
            .unwrap_or([0.0; 4]),
    }
}

/// An element's bytes: FLOAT1–4, or D3DCOLOR clamped to 0..1.
fn encode_element(
    call: &'static str,
    ty: DeclType,
    value: [f32; 4],
) -> Result<Vec<u8>, DeviceError> {
    Ok(match ty {
        DeclType::Float1 => value[..1].iter().flat_map(|f| f.to_le_bytes()).collect(),
        DeclType::Float2 => value[..2].iter().flat_map(|f| f.to_le_bytes()).collect(),
        DeclType::Float3 => value[..3].iter().flat_map(|f| f.to_le_bytes()).collect(),
        DeclType::Float4 => value.iter().flat_map(|f| f.to_le_bytes()).collect(),
        DeclType::D3DColor => {
            let unorm = |f: f32| (f.clamp(0.0, 1.0) * 255.0).round() as u8;
            // B, G, R, A in memory.
            vec![
                unorm(value[2]),
                unorm(value[1]),
                unorm(value[0]),
                unorm(value[3]),
            ]
        }
        other => {
            return Err(unsupported(
                call,
                format!("destination element type {other:?} (FLOAT1–4 and D3DCOLOR are written)"),
            ))
        }
    })
}
