//! Point lists with a size: WebGPU rasterises points one pixel wide, so a point list whose
//! points are not plain one-pixel points is drawn as quads. Each point is one instance of a
//! 4-vertex triangle strip: the declaration's streams step per instance (every corner reads
//! the point's attributes) and the vertex stage, translated with
//! `VertexShaderOptions::point_expansion`, moves each corner out of the point's centre by
//! the point size (see `d3d9_translator::lift` `points` for the size, clamping, scaling and
//! sprite-coordinate rules, and `docs/decisions.md`, "Points").
//!
//! When a point list is expanded: the vertex stage writes a point size (a vertex shader's
//! `oPts`/`psize` output, or a PSIZE element for the fixed-function stage), or
//! `D3DRS_POINTSPRITEENABLE`, or `D3DRS_POINTSCALEENABLE` for fixed-function vertices that
//! are not pre-transformed, or the clamped `D3DRS_POINTSIZE` is not 1. Otherwise the points
//! stay a native point list.
//!
//! Indexed point lists are de-indexed on the CPU from the buffers' shadow copies into
//! temporary per-instance buffers (one per stream the declaration reads). Instanced draws
//! of expanded points (`D3DSTREAMSOURCE_INDEXEDDATA` with more than one instance, or any
//! stream with `D3DSTREAMSOURCE_INSTANCEDATA`) are refused as unsupported: the instance step
//! is taken by the points.

use d3d9_translator::bytecode::Usage;
use d3d9_translator::check::CheckedProgram;
use d3d9_translator::decl::{StreamFrequency, VertexDeclaration};
use d3d9_translator::lift::{PointConstants, PointExpansion, ShaderInterface};
use d3d9_translator::signature::Signature;

use super::error::{invalid, unsupported, DeviceError};
use super::range::{read_indices, user_index_range, DrawRange};
use super::{Device, DeviceState, PrimitiveType, MAX_STREAMS};
use crate::device::ConstantBuffer;

/// How a draw's expanded points are fed: `count` instances of the 4-vertex strip, from
/// vertex `first` of each stream, or from de-indexed copies of the streams.
pub(crate) struct PointQuads {
    /// Points (instances).
    pub(crate) count: u32,
    /// Per stream number: the de-indexed vertices (buffer, size in bytes) that replace the
    /// stream for this draw; empty for a draw that is not indexed.
    pub(crate) deindexed: Vec<Option<(wgpu::Buffer, u64)>>,
}

impl PointQuads {
    /// The de-indexed copy of stream `n`, if the draw made one.
    pub(crate) fn stream(&self, n: usize) -> Option<(wgpu::Buffer, u64)> {
        self.deindexed.get(n).and_then(Clone::clone)
    }
}

/// `D3DRS_POINTSIZE` clamped as D3D9 clamps it: `min(max(size, MIN), MAX)` (the maximum
/// wins when the minimum exceeds it, as in Wine).
pub(crate) fn clamped_size(size: f32, min: f32, max: f32) -> f32 {
    size.max(min).min(max)
}

impl Device {
    /// Whether and how the draw's points are expanded to quads (`None`: not a point list, or
    /// native one-pixel points). `vertex_shader` is the application's vertex shader when the
    /// vertex stage runs one (not for pre-transformed declarations, where D3D9 skips it).
    pub(super) fn point_expansion(
        &self,
        call: &'static str,
        primitive: PrimitiveType,
        vertex_shader: Option<&CheckedProgram>,
        declaration: &VertexDeclaration,
        range: &DrawRange,
    ) -> Result<Option<PointExpansion>, DeviceError> {
        if primitive != PrimitiveType::PointList {
            return Ok(None);
        }
        let render = &self.state.render;
        let writes_size = match vertex_shader {
            Some(vs) => Signature::of(vs.program())
                .outputs
                .iter()
                .any(|o| o.semantic.usage == Usage::PSize),
            None => declaration
                .elements()
                .iter()
                .any(|e| e.usage == Usage::PSize),
        };
        // D3D9 scales the size of fixed-function, untransformed vertices only.
        let scale =
            render.point_scale && vertex_shader.is_none() && !declaration.is_pretransformed();
        let sprite = render.point_sprite;
        let size = clamped_size(
            render.point_size,
            render.point_size_min,
            render.point_size_max,
        );
        if !writes_size && !scale && !sprite && size == 1.0 {
            return Ok(None);
        }
        let instanced = (matches!(range, DrawRange::Indexed { .. })
            && matches!(self.state.streams[0].frequency, StreamFrequency::IndexedData(n) if n > 1))
            || self
                .state
                .streams
                .iter()
                .any(|s| matches!(s.frequency, StreamFrequency::InstanceData(_)));
        if instanced {
            return Err(unsupported(
                call,
                "instanced point lists with a point size or point sprites (each expanded point \
                 is an instance already)",
            ));
        }
        Ok(Some(PointExpansion { sprite, scale }))
    }

    /// The instances of an expanded point draw, and the draw range `record` then draws:
    /// an indexed draw is de-indexed into temporary per-stream buffers (read from the
    /// vertex buffers' shadow copies, or from the `UP` draw's `user` data for stream 0) and
    /// becomes vertices `0..count` of those.
    pub(super) fn point_quads(
        &self,
        call: &'static str,
        range: DrawRange,
        declaration: &VertexDeclaration,
        user: Option<(&[u8], u32)>,
        user_indices: Option<&[u32]>,
    ) -> Result<(DrawRange, PointQuads), DeviceError> {
        let DrawRange::Indexed {
            base_vertex,
            start_index,
            count,
            ..
        } = range
        else {
            let DrawRange::Vertices { count, .. } = range else {
                return Err(invalid(call, "internal: a draw range"));
            };
            return Ok((
                range,
                PointQuads {
                    count,
                    deindexed: Vec::new(),
                },
            ));
        };
        // The indices.
        let indices: Vec<u32> = match user_indices {
            Some(list) => user_index_range(call, list, start_index, u64::from(count))?,
            None => {
                let (b, format) = self.bound_indices(call, start_index, u64::from(count))?;
                read_indices(&b.shadow, format, start_index, u64::from(count))
            }
        };
        // Each stream the declaration reads, copied in index order.
        let mut deindexed: Vec<Option<(wgpu::Buffer, u64)>> = vec![None; MAX_STREAMS];
        let mut streams: Vec<u16> = declaration.elements().iter().map(|e| e.stream).collect();
        streams.sort_unstable();
        streams.dedup();
        for n in streams {
            let n = usize::from(n);
            // A stream without data is left to `record`, which refuses it if the vertex
            // stage reads it.
            let (bytes, offset, stride): (&[u8], u64, u64) = match (user, n) {
                (Some((data, stride)), 0) => (data, 0, u64::from(stride)),
                (Some(_), _) => continue,
                (None, _) => {
                    let Some(s) = self.state.streams.get(n) else {
                        continue;
                    };
                    let Some(b) = s.buffer.and_then(|id| self.vertex_buffers.get(&id)) else {
                        continue;
                    };
                    (&b.shadow, u64::from(s.offset), u64::from(s.stride))
                }
            };
            if stride == 0 {
                return Err(invalid(call, format!("stream {n} has a stride of 0")));
            }
            let mut out = Vec::with_capacity(indices.len() * stride as usize);
            for &index in &indices {
                let vertex = i64::from(base_vertex) + i64::from(index);
                let start = u64::try_from(vertex)
                    .ok()
                    .and_then(|v| v.checked_mul(stride))
                    .and_then(|v| v.checked_add(offset));
                let range = start.and_then(|s| {
                    let s = usize::try_from(s).ok()?;
                    Some(s..s.checked_add(stride as usize)?)
                });
                match range.and_then(|r| bytes.get(r)) {
                    Some(v) => out.extend_from_slice(v),
                    None => {
                        return Err(invalid(
                            call,
                            format!(
                                "index {index} (base vertex {base_vertex}) reads past the end of stream {n}'s {}-byte buffer",
                                bytes.len()
                            ),
                        ))
                    }
                }
            }
            let size = out.len() as u64;
            // wgpu buffers are at least 4 bytes and a multiple of 4.
            out.resize(out.len().next_multiple_of(4).max(4), 0);
            let buffer = self.gpu.init_buffer(&out, wgpu::BufferUsages::VERTEX);
            if let Some(slot) = deindexed.get_mut(n) {
                *slot = Some((buffer, size));
            }
        }
        Ok((
            DrawRange::Vertices { start: 0, count },
            PointQuads { count, deindexed },
        ))
    }
}

/// The point render states' uniform of a vertex stage with `interface` (when it expands
/// points).
pub(super) fn point_constant_buffer(
    state: &DeviceState,
    interface: &ShaderInterface,
) -> Option<ConstantBuffer> {
    let b = interface.points?;
    let data = point_constants(state).data();
    Some(ConstantBuffer {
        group: b.group,
        binding: b.binding,
        storage: false,
        data: bytemuck::cast_slice(&data).to_vec(),
    })
}

/// The point render states, as the bind-group key compares them (bits).
pub(super) fn point_constants_key(
    state: &DeviceState,
    interface: &ShaderInterface,
) -> Option<[u32; 12]> {
    interface.points?;
    let data = point_constants(state).data();
    let mut key = [0u32; 12];
    for (k, v) in key.iter_mut().zip(data.iter().flatten()) {
        *k = v.to_bits();
    }
    Some(key)
}

fn point_constants(state: &DeviceState) -> PointConstants {
    let render = &state.render;
    let v = state.viewport;
    PointConstants {
        size: render.point_size,
        min: render.point_size_min,
        max: render.point_size_max,
        scale: render.point_scale_abc,
        viewport: [v.width.max(1) as f32, v.height.max(1) as f32],
    }
}

#[cfg(test)]
mod tests {
    use super::clamped_size;

    /// Wine's `test_pointsize`: POINTSIZE 15 with MAX 1 draws size 1; POINTSIZE 1 with MIN
    /// 15 draws size 15; and with MIN above MAX the maximum wins.
    #[test]
    fn sizes_clamp_as_d3d9_clamps_them() {
        assert_eq!(clamped_size(15.0, 1.0, 1.0), 1.0);
        assert_eq!(clamped_size(1.0, 15.0, 64.0), 15.0);
        assert_eq!(clamped_size(32.0, 63.0, 64.0), 63.0);
        assert_eq!(clamped_size(10.0, 20.0, 8.0), 8.0);
        assert_eq!(clamped_size(0.0, 0.0, 64.0), 0.0);
    }
}
