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

#[cfg(test)]
mod tests {
    use super::*;

    /// Indices are little-endian, 2 or 4 bytes each, counted from `start`; past the end, 0.
    #[test]
    fn indices_are_read_from_their_start_and_past_the_end_read_0() {
        let bytes = [1u8, 0, 2, 1, 0xff, 0xff, 4];
        assert_eq!(
            read_indices(&bytes, IndexFormat::Index16, 0, 3),
            [1, 0x0102, 0xffff]
        );
        assert_eq!(
            read_indices(&bytes, IndexFormat::Index16, 1, 4),
            [0x0102, 0xffff, 0, 0]
        );
        assert_eq!(
            read_indices(&bytes, IndexFormat::Index32, 0, 2),
            [0x0102_0001, 0]
        );
        assert!(read_indices(&bytes, IndexFormat::Index32, 0, 0).is_empty());
    }

    /// An `UP` draw's indices are `count` from `start_index` of those given, all of them
    /// there (D3DERR_INVALIDCALL otherwise).
    #[test]
    fn user_indices_must_all_be_given() {
        let list = [5, 6, 7, 8];
        assert_eq!(user_index_range("Draw", &list, 1, 3).unwrap(), [6, 7, 8]);
        assert_eq!(user_index_range("Draw", &list, 4, 0).unwrap(), [0u32; 0]);
        let e = user_index_range("Draw", &list, 2, 3).unwrap_err();
        assert!(e.is_invalid_call(), "{e}");
        assert!(e.to_string().contains("3 indices from 2; 4 given"), "{e}");
    }
}
