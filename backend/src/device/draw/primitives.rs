//! Primitive assembly of a draw: the indices it is issued with (the bound index buffer, or
//! generated ones for `UP` draws, fans and GL flat shading), the wgpu topology, and the
//! primitive state (fill mode, culling, depth clipping).

use super::super::error::{invalid, DeviceError};
use super::super::objects::{BufferObject, IndexFormat};
use super::super::pairing::ShaderPair;
use super::super::range::{read_indices, user_index_range, DrawRange};
use super::super::state::{FillMode, RenderStates};
use super::super::{Device, PrimitiveType};
use super::{DrawCall, IndexSource};
use crate::device::CullMode;
use crate::gpu::Indices;

/// The indices a draw's pass is issued with.
pub(super) struct PassIndices {
    /// `None`: the vertices in order.
    pub(super) source: Option<IndexSource>,
    pub(super) range: std::ops::Range<u32>,
    pub(super) base_vertex: i32,
    pub(super) topology: wgpu::PrimitiveTopology,
}

impl Device {
    /// Indices: the bound buffer, or generated ones (UP, fans, GL flat shading).
    pub(super) fn pass_indices(
        &self,
        draw: &DrawCall<'_>,
        pair: &ShaderPair,
    ) -> Result<PassIndices, DeviceError> {
        let (call, primitive, points) = (draw.call, draw.primitive, draw.points);
        let gl_flat =
            pair.flat && self.gpu.adapter_info().backend == wgpu::Backend::Gl && points.is_none();
        let mut topology = topology(primitive);
        let (index_source, index_range, base_vertex) = match draw.range {
            DrawRange::Vertices { start, count } => {
                let n = primitive.vertex_count(count);
                let generated = if primitive == PrimitiveType::TriangleFan || gl_flat {
                    let list: Vec<u32> = (0..n).map(|i| i as u32).collect();
                    Some(list)
                } else {
                    None
                };
                match generated {
                    None => (None, 0..n as u32, i32::try_from(start).unwrap_or(i32::MAX)),
                    Some(list) => {
                        let (t, source, range) = self.generated_indices(primitive, &list, gl_flat);
                        topology = t;
                        (
                            Some(source),
                            range,
                            i32::try_from(start).unwrap_or(i32::MAX),
                        )
                    }
                }
            }
            DrawRange::Indexed {
                base_vertex,
                start_index,
                count,
                ..
            } => {
                let n = primitive.vertex_count(count);
                let source: Option<Vec<u32>> = match &draw.user_indices {
                    Some(list) => Some(user_index_range(call, list, start_index, n)?),
                    None => None,
                };
                let bound = match &source {
                    Some(_) => None,
                    None => Some(self.bound_indices(call, start_index, n)?),
                };
                // WebGPU restarts 16-bit strips at index 0xffff; D3D9 has no restart and
                // draws vertex 0xffff (Wine's test_max_index16): such strips go through
                // 32-bit indices.
                let strip = matches!(
                    primitive,
                    PrimitiveType::TriangleStrip | PrimitiveType::LineStrip
                );
                let restarts = strip
                    && bound.as_ref().is_some_and(|(b, format)| {
                        *format == IndexFormat::Index16 && {
                            let at = start_index as usize * 2;
                            b.shadow
                                .get(at..at.saturating_add(n as usize * 2))
                                .is_some_and(|bytes| {
                                    bytes.chunks_exact(2).any(|i| i == [0xff, 0xff])
                                })
                        }
                    });
                let needs_cpu = primitive == PrimitiveType::TriangleFan
                    || gl_flat
                    || source.is_some()
                    || restarts;
                if needs_cpu {
                    let list = match (source, bound) {
                        (Some(list), _) => list,
                        (None, Some((b, format))) => {
                            read_indices(&b.shadow, format, start_index, n)
                        }
                        (None, None) => Vec::new(),
                    };
                    let (t, source, range) = self.generated_indices(primitive, &list, gl_flat);
                    topology = t;
                    (Some(source), range, base_vertex)
                } else {
                    let (b, format) =
                        bound.ok_or_else(|| invalid(call, "no index buffer is set"))?;
                    (
                        Some(IndexSource::Bound(b.buffer.clone(), format.wgpu())),
                        start_index..start_index + n as u32,
                        base_vertex,
                    )
                }
            }
        };
        // Expanded points: a 4-vertex strip per instance, never culled.
        let (index_source, index_range, base_vertex) = match points {
            Some(_) => {
                topology = wgpu::PrimitiveTopology::TriangleStrip;
                (None, 0..4, 0)
            }
            None => (index_source, index_range, base_vertex),
        };
        Ok(PassIndices {
            source: index_source,
            range: index_range,
            base_vertex,
            topology,
        })
    }

    /// The primitive state of a pass issued with `indices`; `points`: expanded points.
    pub(super) fn primitive_state(
        &self,
        call: &'static str,
        render: &RenderStates,
        indices: &PassIndices,
        points: bool,
    ) -> Result<wgpu::PrimitiveState, DeviceError> {
        let topology = indices.topology;
        let strip_format = match &indices.source {
            Some(IndexSource::Bound(_, f)) if topology.is_strip() => Some(*f),
            Some(IndexSource::Generated(_)) if topology.is_strip() => {
                Some(wgpu::IndexFormat::Uint32)
            }
            _ => None,
        };
        // The fill mode applies to triangles, not to points drawn as quads (`points`).
        let polygon_mode = match render.fill {
            _ if points => wgpu::PolygonMode::Fill,
            FillMode::Wireframe => {
                self.require_feature(call, wgpu::Features::POLYGON_MODE_LINE, "D3DFILL_WIREFRAME")?;
                wgpu::PolygonMode::Line
            }
            FillMode::Point => {
                self.require_feature(call, wgpu::Features::POLYGON_MODE_POINT, "D3DFILL_POINT")?;
                wgpu::PolygonMode::Point
            }
            FillMode::Solid => wgpu::PolygonMode::Fill,
        };
        // D3D9's front face is clockwise; culling keeps the other winding.
        let cull_mode = match render.cull {
            CullMode::None => None,
            CullMode::Cw => Some(wgpu::Face::Front),
            CullMode::Ccw => Some(wgpu::Face::Back),
        };
        let mut primitive_state = wgpu::PrimitiveState {
            topology,
            strip_index_format: strip_format,
            front_face: wgpu::FrontFace::Cw,
            cull_mode: cull_mode.filter(|_| {
                !matches!(
                    topology,
                    wgpu::PrimitiveTopology::PointList
                        | wgpu::PrimitiveTopology::LineList
                        | wgpu::PrimitiveTopology::LineStrip
                )
            }),
            polygon_mode,
            // Without a depth test Windows does not clip pre-transformed vertices at the near
            // and far planes (Wine's zenable_test draws their z from -0.5 to 1.5 and sees all
            // of it; other vertices are clipped). D3D9 biases depth after clipping and clamps
            // the result: with a depth bias (added by the vertex stage, `depth_bias_offset`)
            // nothing is clipped at those planes and depth is clamped (Wine's test_fog).
            unclipped_depth: (self
                .state
                .declaration
                .and_then(|id| self.declarations.get(&id))
                .is_some_and(|d| d.is_pretransformed())
                && (self.state.depth_stencil.is_none() || !render.z_enable)
                || render.depth_bias != 0.0 && self.state.depth_stencil.is_some())
                && self
                    .gpu
                    .features()
                    .contains(wgpu::Features::DEPTH_CLIP_CONTROL),
            ..Default::default()
        };
        if points {
            // D3D9 never culls points.
            primitive_state.cull_mode = None;
        }
        Ok(primitive_state)
    }

    /// The bound index buffer and its format, refusing a range of `count` indices from
    /// `start_index` that leaves it.
    pub(in crate::device) fn bound_indices(
        &self,
        call: &'static str,
        start_index: u32,
        count: u64,
    ) -> Result<(&BufferObject, IndexFormat), DeviceError> {
        let id = self
            .state
            .indices
            .ok_or_else(|| invalid(call, "no index buffer is set"))?;
        let b = self
            .index_buffers
            .get(&id)
            .ok_or_else(|| invalid(call, "the index buffer was released"))?;
        let format = b.index_format.unwrap_or(IndexFormat::Index16);
        let available = b.size() / format.size();
        if u64::from(start_index) + count > available {
            return Err(invalid(
                call,
                format!("indices {start_index}..{start_index}+{count} past the end of an index buffer of {available}"),
            ));
        }
        Ok((b, format))
    }

    /// `list` (vertex or index numbers) arranged as wgpu draws `primitive` (`arrange`), in a
    /// 32-bit index buffer: the topology, the index source and its range.
    fn generated_indices(
        &self,
        primitive: PrimitiveType,
        list: &[u32],
        gl_flat: bool,
    ) -> (wgpu::PrimitiveTopology, IndexSource, std::ops::Range<u32>) {
        let (topology, list) = self.arrange(primitive, list, gl_flat);
        let buffer = self
            .gpu
            .init_buffer(bytemuck::cast_slice(&list), wgpu::BufferUsages::INDEX);
        (
            topology,
            IndexSource::Generated(buffer),
            0..list.len() as u32,
        )
    }

    /// The primitive as wgpu draws it, for the list of vertex or index numbers `list`: fans
    /// become triangle lists, and on GL with flat shading every primitive is rotated so that
    /// its first vertex (D3D9's provoking vertex) comes last (GL's).
    fn arrange(
        &self,
        primitive: PrimitiveType,
        list: &[u32],
        gl_flat: bool,
    ) -> (wgpu::PrimitiveTopology, Vec<u32>) {
        let (topology, list) = if primitive == PrimitiveType::TriangleFan {
            let mut out = Vec::with_capacity(list.len().saturating_sub(2) * 3);
            if let Some((&first, rest)) = list.split_first() {
                for pair in rest.windows(2) {
                    out.extend([first, pair[0], pair[1]]);
                }
            }
            (wgpu::PrimitiveTopology::TriangleList, out)
        } else {
            (topology(primitive), list.to_vec())
        };
        if gl_flat {
            let count = list.len() as u32;
            if let Some((t, order)) = crate::gpu::provoking::last_vertex_order(
                topology,
                Some(&Indices::U32(&list)),
                count,
            ) {
                return (t, order);
            }
        }
        (topology, list)
    }
}

/// The wgpu topology of a D3D9 primitive type (fans are converted before).
fn topology(primitive: PrimitiveType) -> wgpu::PrimitiveTopology {
    use wgpu::PrimitiveTopology as T;
    match primitive {
        PrimitiveType::PointList => T::PointList,
        PrimitiveType::LineList => T::LineList,
        PrimitiveType::LineStrip => T::LineStrip,
        PrimitiveType::TriangleList | PrimitiveType::TriangleFan => T::TriangleList,
        PrimitiveType::TriangleStrip => T::TriangleStrip,
    }
}
