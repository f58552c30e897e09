//! D3D9's flat shading on a backend whose provoking vertex is the last one.
//!
//! `D3DSHADE_FLAT` (and every `flat` varying) takes the value of a primitive's **first**
//! vertex, as Vulkan, Metal and DX12 do. wgpu's GL backend runs on GLES, which has no
//! `glProvokingVertex`: there flat values come from the **last** vertex. A draw whose vertex
//! stage has a flat output is therefore reissued on GL as an indexed list whose primitives are
//! rotated so that D3D9's first vertex comes last: a triangle `(a, b, c)` becomes `(b, c, a)`
//! (a cyclic rotation keeps its winding, so culling is unchanged), strip triangles are
//! listed with the strip's alternating winding first, lines are reversed.

/// Index data of a draw; the draw then covers all of its indices.
#[derive(Clone, Copy, Debug)]
pub enum Indices<'a> {
    U16(&'a [u16]),
    U32(&'a [u32]),
}

impl Indices<'_> {
    /// The wgpu index format of these indices.
    pub fn format(&self) -> wgpu::IndexFormat {
        match self {
            Indices::U16(_) => wgpu::IndexFormat::Uint16,
            Indices::U32(_) => wgpu::IndexFormat::Uint32,
        }
    }
}

/// Whether the vertex entry point `entry` of `module` (`None`: its vertex entry point) has a
/// `flat` output.
pub fn has_flat_output(module: &naga::Module, entry: Option<&str>) -> bool {
    let Some(ep) = module
        .entry_points
        .iter()
        .find(|e| e.stage == naga::ShaderStage::Vertex && entry.is_none_or(|name| e.name == name))
    else {
        return false;
    };
    let flat = |b: &Option<naga::Binding>| {
        matches!(
            b,
            Some(naga::Binding::Location {
                interpolation: Some(naga::Interpolation::Flat),
                ..
            })
        )
    };
    let Some(result) = &ep.function.result else {
        return false;
    };
    if flat(&result.binding) {
        return true;
    }
    match &module.types[result.ty].inner {
        naga::TypeInner::Struct { members, .. } => members.iter().any(|m| flat(&m.binding)),
        _ => false,
    }
}

/// The vertex order of a draw: its indices, or `0..vertex_count`; a strip restart value
/// (all ones) splits the list.
fn vertex_order(indices: Option<&Indices<'_>>, vertex_count: u32) -> Vec<Option<u32>> {
    match indices {
        None => (0..vertex_count).map(Some).collect(),
        Some(Indices::U16(i)) => i
            .iter()
            .map(|&v| (v != u16::MAX).then_some(u32::from(v)))
            .collect(),
        Some(Indices::U32(i)) => i.iter().map(|&v| (v != u32::MAX).then_some(v)).collect(),
    }
}

/// The draw as a list (`TriangleList` or `LineList`) whose primitives end with the vertex
/// D3D9 takes flat values from; `None` for topologies that need nothing (points).
pub fn last_vertex_order(
    topology: wgpu::PrimitiveTopology,
    indices: Option<&Indices<'_>>,
    vertex_count: u32,
) -> Option<(wgpu::PrimitiveTopology, Vec<u32>)> {
    use wgpu::PrimitiveTopology as T;
    let order = vertex_order(indices, vertex_count);
    let mut out = Vec::new();
    match topology {
        T::PointList => return None,
        T::TriangleList => {
            for t in order.chunks_exact(3) {
                if let [Some(a), Some(b), Some(c)] = *t {
                    out.extend([b, c, a]);
                }
            }
        }
        T::LineList => {
            for l in order.chunks_exact(2) {
                if let [Some(a), Some(b)] = *l {
                    out.extend([b, a]);
                }
            }
        }
        T::TriangleStrip | T::LineStrip => {
            for strip in order.split(Option::is_none) {
                let s: Vec<u32> = strip.iter().flatten().copied().collect();
                if topology == T::LineStrip {
                    for w in s.windows(2) {
                        out.extend([w[1], w[0]]);
                    }
                    continue;
                }
                for (i, w) in s.windows(3).enumerate() {
                    // Strip triangle i is (i, i+1, i+2), odd ones wound (i+1, i, i+2); D3D9's
                    // first vertex is i.
                    if i % 2 == 0 {
                        out.extend([w[1], w[2], w[0]]);
                    } else {
                        out.extend([w[2], w[1], w[0]]);
                    }
                }
            }
        }
    }
    let list = match topology {
        T::LineList | T::LineStrip => T::LineList,
        _ => T::TriangleList,
    };
    Some((list, out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use wgpu::PrimitiveTopology as T;

    #[test]
    fn first_vertex_moves_last_keeping_winding() {
        assert_eq!(
            last_vertex_order(T::TriangleList, None, 6),
            Some((T::TriangleList, vec![1, 2, 0, 4, 5, 3]))
        );
        assert_eq!(
            last_vertex_order(T::TriangleStrip, None, 5),
            Some((T::TriangleList, vec![1, 2, 0, 3, 2, 1, 3, 4, 2]))
        );
        let restart = [0u16, 1, 2, u16::MAX, 5, 6, 7];
        assert_eq!(
            last_vertex_order(T::TriangleStrip, Some(&Indices::U16(&restart)), 0),
            Some((T::TriangleList, vec![1, 2, 0, 6, 7, 5]))
        );
        assert_eq!(
            last_vertex_order(T::LineStrip, None, 3),
            Some((T::LineList, vec![1, 0, 2, 1]))
        );
        assert_eq!(last_vertex_order(T::PointList, None, 3), None);
    }
}
