//! The vertex input of a draw: the stream sources the declaration binding reads, the binding
//! (cached per pair and streams), and the vertex buffers with the bytes the draw reads of each
//! checked against its size.

use std::sync::Arc;

use d3d9_translator::decl::{StreamFrequency, StreamSource, VertexBinding};

use super::super::error::{invalid, DeviceError};
use super::super::pairing::ShaderPair;
use super::super::range::DrawRange;
use super::super::{Device, MAX_STREAMS};
use super::{DrawCall, UserData};

/// The vertex buffers of a draw and how its pipeline reads them.
pub(super) struct VertexInput {
    /// The declaration bound to the streams: the pipeline's vertex buffer layouts.
    pub(super) binding: Arc<VertexBinding>,
    /// Per layout of `binding`: the buffer and the offset the draw reads from.
    pub(super) buffers: Vec<(wgpu::Buffer, u64)>,
    pub(super) instances: std::ops::Range<u32>,
}

impl Device {
    /// The stream sources as the declaration binding reads them.
    pub(super) fn stream_sources(&self, user: Option<&UserData>) -> Vec<StreamSource> {
        (0..MAX_STREAMS)
            .map(|n| match (n, user) {
                (0, Some(u)) => StreamSource {
                    stride: u.stride,
                    frequency: StreamFrequency::Vertex,
                },
                // A stream with no vertex buffer (any but stream 0 in a UP draw) reads zeros:
                // one zero vertex for every vertex (stride 0, see `record`).
                (_, Some(_)) => StreamSource {
                    stride: 0,
                    frequency: StreamFrequency::Vertex,
                },
                _ => {
                    let s = &self.state.streams[n];
                    StreamSource {
                        stride: if s.buffer.is_some() { s.stride } else { 0 },
                        frequency: s.frequency,
                    }
                }
            })
            .collect()
    }

    /// The declaration binding, the vertex buffers and the instances of `draw`.
    pub(super) fn vertex_input(
        &mut self,
        draw: &DrawCall<'_>,
        pair: &ShaderPair,
        streams: &[StreamSource],
    ) -> Result<VertexInput, DeviceError> {
        let binding = self.declaration_binding(draw, pair, streams)?;
        let instances = self.instance_count(&draw.range);
        let buffers = self.vertex_buffers(draw, &binding, instances)?;
        Ok(VertexInput {
            binding,
            buffers,
            instances: match draw.points {
                Some(p) => 0..p.count,
                None => 0..instances,
            },
        })
    }

    /// The binding of the pair's declaration to `streams`.
    fn declaration_binding(
        &mut self,
        draw: &DrawCall<'_>,
        pair: &ShaderPair,
        streams: &[StreamSource],
    ) -> Result<Arc<VertexBinding>, DeviceError> {
        let call = draw.call;
        // The binding depends on the pair and the stream strides and frequencies only: cached.
        let processing = self.binding_processing();
        let binding =
            self.bindings
                .get_or_try_insert(&(pair.id, processing, streams.to_vec()), || {
                    d3d9_translator::decl::bind_program(
                        &pair.declaration,
                        pair.vertex_program.program(),
                        streams,
                        processing,
                    )
                    .map(Arc::new)
                    .map_err(|source| DeviceError::Bind { call, source })
                })?;
        let binding = if draw.points.is_some() {
            // Every corner of a point's quad reads the point's vertex.
            let mut b = (*binding).clone();
            for s in &mut b.streams {
                s.step_mode = wgpu::VertexStepMode::Instance;
            }
            Arc::new(b)
        } else {
            binding
        };
        Ok(binding)
    }

    /// The buffer and offset of each stream `binding` reads, refusing a draw that reads past
    /// the end of one.
    fn vertex_buffers(
        &mut self,
        draw: &DrawCall<'_>,
        binding: &VertexBinding,
        instances: u32,
    ) -> Result<Vec<(wgpu::Buffer, u64)>, DeviceError> {
        let (call, points, user) = (draw.call, draw.points, draw.user.as_ref());
        let (first_vertex, vertex_count) = match draw.range {
            DrawRange::Vertices { start, count } => {
                let n = draw.primitive.vertex_count(count);
                (i64::from(start), n)
            }
            DrawRange::Indexed {
                base_vertex,
                min_index,
                num_vertices,
                ..
            } => (
                i64::from(base_vertex) + i64::from(min_index),
                u64::from(num_vertices),
            ),
        };
        let mut vertex_buffers = Vec::new();
        for stream in &binding.streams {
            let n = stream.stream as usize;
            // A declaration element on a stream with no vertex buffer (a UP draw's streams
            // past 0 too) reads zeros, as on Windows (Wine's test_default_diffuse and
            // test_color_vertex): a zero vertex read with stride 0.
            let unbound = match user {
                Some(_) => n != 0,
                None => self.state.streams[n].buffer.is_none(),
            };
            if unbound {
                let element_end = stream
                    .attributes
                    .iter()
                    .map(|a| a.offset + a.format.size())
                    .max()
                    .unwrap_or(0)
                    .max(4);
                let zeros = vec![0u8; element_end as usize];
                let buffer = self.gpu.init_buffer(&zeros, wgpu::BufferUsages::VERTEX);
                vertex_buffers.push((buffer, 0));
                continue;
            }
            let (buffer, offset, size) = match (user, n) {
                (Some(u), _) => (u.buffer.clone(), 0u64, u.size),
                (None, _) => {
                    let s = &self.state.streams[n];
                    let id = s.buffer.ok_or_else(|| {
                        invalid(
                            call,
                            format!(
                                "the declaration reads stream {n}, which has no vertex buffer set"
                            ),
                        )
                    })?;
                    let b = self.vertex_buffers.get(&id).ok_or_else(|| {
                        invalid(call, format!("stream {n}'s vertex buffer was released"))
                    })?;
                    (b.buffer.clone(), u64::from(s.offset), b.size())
                }
            };
            let (buffer, offset, size) = match points.and_then(|p| p.stream(n)) {
                Some((b, size)) => (b, 0, size),
                None => (buffer, offset, size),
            };
            if stream.array_stride == 0 && user.is_none() {
                return Err(invalid(call, format!("stream {n} has a stride of 0")));
            }
            // The bytes the draw reads: the last vertex (or instance) plus its elements.
            let element_end = stream
                .attributes
                .iter()
                .map(|a| a.offset + a.format.size())
                .max()
                .unwrap_or(0);
            // An indexed draw's NumVertices is a hint the indices need not keep to: Windows
            // draws (Wine's test_sysmem_draw passes 5 with 4 vertices left), and the GPU
            // fetches only what the indices name, bounds-checked; the range is cut to what the
            // buffer holds (points, de-indexed on the CPU, check each index instead).
            let indexed = matches!(draw.range, DrawRange::Indexed { .. })
                && user.is_none()
                && points.is_none();
            let (first, count) = match stream.step_mode {
                wgpu::VertexStepMode::Vertex if indexed && stream.array_stride > 0 => {
                    let fit = size
                        .checked_sub(offset.saturating_add(element_end))
                        .map_or(0, |room| room / stream.array_stride + 1);
                    let skip = u64::try_from(first_vertex).unwrap_or(0);
                    (
                        first_vertex,
                        vertex_count.min(fit.saturating_sub(skip)).max(1),
                    )
                }
                wgpu::VertexStepMode::Vertex => (first_vertex, vertex_count),
                wgpu::VertexStepMode::Instance if points.is_some() => (first_vertex, vertex_count),
                wgpu::VertexStepMode::Instance => (0, u64::from(instances)),
            };
            if first < 0 {
                return Err(invalid(call, format!("a negative first vertex ({first})")));
            }
            let needed = u64::try_from(first)
                .ok()
                .and_then(|f| f.checked_add(count.saturating_sub(1)))
                .and_then(|last| last.checked_mul(stream.array_stride))
                .and_then(|b| b.checked_add(element_end))
                .and_then(|b| b.checked_add(offset));
            match needed {
                Some(n) if n <= size && count > 0 => {}
                _ => {
                    return Err(invalid(
                        call,
                        format!(
                            "vertices {first}..{first}+{count} of stream {n} (stride {}, offset {offset}) lie past the end of its {size}-byte buffer",
                            stream.array_stride
                        ),
                    ))
                }
            }
            // Expanded points draw instances 0.. from the first point's vertex.
            let offset = match points {
                Some(_) => offset + first.unsigned_abs() * stream.array_stride,
                None => offset,
            };
            vertex_buffers.push((buffer, offset));
        }
        Ok(vertex_buffers)
    }

    /// Instances of an indexed draw with `D3DSTREAMSOURCE_INDEXEDDATA | n` on stream 0; 1
    /// otherwise (D3D9 instances only indexed draws).
    pub(super) fn instance_count(&self, range: &DrawRange) -> u32 {
        match (range, self.state.streams[0].frequency) {
            (DrawRange::Indexed { .. }, StreamFrequency::IndexedData(n)) => n.max(1),
            _ => 1,
        }
    }
}
