//! The vertices or indices a draw reads: its range, and the indices read on the CPU (fans,
//! GL flat-shading reorders, expanded points, `UP` draws), shared by `draw` and `points`.

use super::error::{invalid, DeviceError};
use super::objects::IndexFormat;

/// The vertices or indices a draw reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DrawRange {
    /// `DrawPrimitive(type, start_vertex, count)`.
    Vertices { start: u32, count: u32 },
    /// `DrawIndexedPrimitive(type, base_vertex, min_index, num_vertices, start_index, count)`.
    Indexed {
        base_vertex: i32,
        min_index: u32,
        num_vertices: u32,
        start_index: u32,
        count: u32,
    },
}

/// `count` indices from `start` of an index buffer's bytes (checked against its size by the
/// caller; indices past the end read 0).
pub(super) fn read_indices(bytes: &[u8], format: IndexFormat, start: u32, count: u64) -> Vec<u32> {
    let size = format.size() as usize;
    (0..count as usize)
        .map(|i| {
            let at = (start as usize + i) * size;
            match format {
                IndexFormat::Index16 => bytes
                    .get(at..at + 2)
                    .map_or(0, |b| u32::from(u16::from_le_bytes([b[0], b[1]]))),
                IndexFormat::Index32 => bytes
                    .get(at..at + 4)
                    .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            }
        })
        .collect()
}

/// `count` indices of an `UP` draw's `list` from `start_index`, refusing a range past its end.
pub(super) fn user_index_range(
    call: &'static str,
    list: &[u32],
    start_index: u32,
    count: u64,
) -> Result<Vec<u32>, DeviceError> {
    let end = u64::from(start_index) + count;
    if end > list.len() as u64 {
        return Err(invalid(
            call,
            format!("{count} indices from {start_index}; {} given", list.len()),
        ));
    }
    Ok(list[start_index as usize..end as usize].to_vec())
}
