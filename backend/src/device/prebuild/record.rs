//! The state cache: the pipelines a device built at its draws, recorded by content (the
//! declaration's elements, the shaders' tokens, every other field of the pair and pipeline
//! keys), kept in the cache on disk so that a later run can build them as soon as it has
//! created the objects they name.
//!
//! One entry holds the whole list (`postcard`, serde's compact format; the disk cache adds
//! the checksum and the atomic write). Saving merges with what is on disk, so two processes
//! lose at most each other's newest records; a list that does not decode is treated as
//! empty and replaced. At most [`MAX_RECORDS`], the oldest dropped first.

use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};

use d3d9_translator::decl::StreamSource;

use super::super::cache::FxHasher;
use super::super::draw::PipelineKey;
use super::super::pairing::PairKey;
use crate::gpu::DiskCache;

/// The disk cache entry's key (a new format takes a new key).
const ENTRY: &[u8] = b"d3d9 state cache 3";

/// The most records kept.
pub(crate) const MAX_RECORDS: usize = 16_384;

/// What an object is, by content: two independent 64-bit hashes of its tokens or elements.
/// A collision only builds a pipeline nobody draws (the keys a worker builds name the live
/// objects themselves).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub(crate) struct Content(u64, u64);

impl Content {
    pub(crate) fn of(value: &impl Hash) -> Content {
        let mut fx = FxHasher::default();
        let mut crc = crc32fast::Hasher::new();
        value.hash(&mut fx);
        value.hash(&mut crc);
        Content(fx.finish(), crc.finish())
    }
}

/// A pair as the state cache records it: its key naming the objects by content, and the
/// stream sources it was bound to.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub(crate) struct PairRecord {
    pub(crate) key: PairKey<Content, Content, Content>,
    pub(crate) streams: Vec<StreamSource>,
}

/// One pipeline a draw built.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub(crate) struct StateRecord {
    pub(crate) pair: PairRecord,
    pub(crate) pipeline: PipelineKey<()>,
}

/// The records of this run: those loaded and those added, and how many are not on disk.
#[derive(Default)]
pub(crate) struct RecordSet {
    list: Vec<StateRecord>,
    seen: HashSet<StateRecord>,
    unsaved: usize,
}

impl RecordSet {
    /// Adds `record` unless it is known.
    pub(crate) fn add(&mut self, record: StateRecord) {
        if self.seen.insert(record.clone()) {
            self.list.push(record);
            self.unsaved += 1;
        }
    }

    pub(crate) fn unsaved(&self) -> usize {
        self.unsaved
    }
}

/// The records shared with the thread that saves them.
pub(crate) type SharedRecords = Arc<Mutex<RecordSet>>;

fn records(shared: &SharedRecords) -> std::sync::MutexGuard<'_, RecordSet> {
    shared.lock().unwrap_or_else(|p| p.into_inner())
}

/// The state cache's file in `disk`.
pub(crate) fn path(disk: &DiskCache) -> std::path::PathBuf {
    disk.entry_path(ENTRY)
}

/// The records on disk (none where there are none, or they do not decode).
pub(crate) fn load(disk: &DiskCache) -> Vec<StateRecord> {
    disk.get(ENTRY)
        .and_then(|bytes| postcard::from_bytes::<Vec<StateRecord>>(&bytes).ok())
        .unwrap_or_default()
}

/// Loads the records into `shared` (as saved ones).
pub(crate) fn load_into(disk: &DiskCache, shared: &SharedRecords) -> Vec<StateRecord> {
    let loaded = load(disk);
    let mut set = records(shared);
    for r in &loaded {
        if set.seen.insert(r.clone()) {
            set.list.push(r.clone());
        }
    }
    loaded
}

/// Writes the records to disk, merged with those another process saved meanwhile.
pub(crate) fn save(disk: &DiskCache, shared: &SharedRecords) {
    let mine = {
        let mut set = records(shared);
        if set.unsaved == 0 {
            return;
        }
        set.unsaved = 0;
        set.list.clone()
    };
    let mut merged = load(disk);
    let mut seen: HashSet<&StateRecord> = merged.iter().collect();
    let new: Vec<&StateRecord> = mine.iter().filter(|r| seen.insert(r)).collect();
    let new: Vec<StateRecord> = new.into_iter().cloned().collect();
    merged.extend(new);
    if merged.len() > MAX_RECORDS {
        merged.drain(..merged.len() - MAX_RECORDS);
    }
    if let Ok(bytes) = postcard::to_allocvec(&merged) {
        disk.put(ENTRY, &bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::disk_cache::tests::Folder;

    /// A record whose declaration content is `n`.
    fn record(n: u64) -> StateRecord {
        StateRecord {
            pair: PairRecord {
                key: PairKey::example(Content(n, n), Content(1, 2), Content(3, 4)),
                streams: vec![StreamSource {
                    stride: 12,
                    frequency: Default::default(),
                }],
            },
            pipeline: crate::device::draw::PipelineKey::example(),
        }
    }

    #[test]
    fn records_round_trip_and_merge_with_another_process() {
        let folder = Folder::new("state-cache-merge");
        let path = &folder.0;
        let disk = DiskCache::new(path);
        let ours = SharedRecords::default();
        records(&ours).add(record(1));
        records(&ours).add(record(1));
        records(&ours).add(record(2));
        assert_eq!(
            records(&ours).unsaved(),
            2,
            "a known record is not added again"
        );
        // Another process saved record 3 meanwhile.
        let theirs = SharedRecords::default();
        records(&theirs).add(record(3));
        save(&disk, &theirs);
        save(&disk, &ours);
        assert_eq!(load(&disk), vec![record(3), record(1), record(2)]);
        assert_eq!(records(&ours).unsaved(), 0);
        // Loaded records count as saved.
        let again = SharedRecords::default();
        assert_eq!(load_into(&disk, &again).len(), 3);
        assert_eq!(records(&again).unsaved(), 0);
    }

    #[test]
    fn a_list_that_does_not_decode_is_empty_and_replaced() {
        let folder = Folder::new("state-cache-garbage");
        let path = &folder.0;
        let disk = DiskCache::new(path);
        // Whole (the checksum holds) but not a list of records: another format's.
        disk.put(ENTRY, &[0xff; 40]);
        assert!(load(&disk).is_empty());
        let ours = SharedRecords::default();
        records(&ours).add(record(7));
        save(&disk, &ours);
        assert_eq!(load(&disk), vec![record(7)]);
    }

    proptest::proptest! {
        /// Bytes that pass the disk cache's checksum but are not a list of records (another
        /// version's, or written by someone else) decode to nothing, never a panic; bytes
        /// of a real list with one byte changed decode to a list or to nothing.
        #[test]
        fn any_bytes_decode_without_panicking(
            bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..512),
            flip in 0usize..4096,
        ) {
            let _ = postcard::from_bytes::<Vec<StateRecord>>(&bytes);
            let mut real = postcard::to_allocvec(&vec![record(1), record(2)]).unwrap_or_default();
            let at = flip % real.len().max(1);
            if let Some(b) = real.get_mut(at) {
                *b ^= 0x5a;
            }
            let _ = postcard::from_bytes::<Vec<StateRecord>>(&real);
        }
    }

    #[test]
    fn the_oldest_records_go_past_the_bound() {
        let folder = Folder::new("state-cache-bound");
        let path = &folder.0;
        let disk = DiskCache::new(path);
        let ours = SharedRecords::default();
        for n in 0..MAX_RECORDS as u64 + 3 {
            records(&ours).add(record(n));
        }
        save(&disk, &ours);
        let kept = load(&disk);
        assert_eq!(kept.len(), MAX_RECORDS);
        assert_eq!(kept[0], record(3), "the first three dropped");
    }
}
