//! Bounded caches with least-recently-used eviction and hit/miss/eviction counters, for the
//! draw-time pairing of declarations and shaders and for pipelines.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// The multiply-rotate hash of rustc's `FxHasher`: the keys are the device's own (handles,
/// state, formats), hashed on every draw, where SipHash's resistance to chosen keys buys
/// nothing and costs a noticeable share of a cache hit.
#[derive(Default)]
pub(crate) struct FxHasher {
    hash: u64,
}

impl FxHasher {
    const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(Self::SEED);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    fn write_u16(&mut self, i: u16) {
        self.add(u64::from(i));
    }

    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn finish(&self) -> u64 {
        self.hash
    }
}

/// A hash map with [`FxHasher`]: the device's object tables and samplers, looked up on
/// every draw by the device's own ids and keys.
pub(crate) type FxHashMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// What a cache has done since the device was created.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Lookups that found their entry.
    pub hits: u64,
    /// Lookups that built a new entry.
    pub misses: u64,
    /// Entries dropped to stay within the capacity.
    pub evictions: u64,
    /// Entries held now (never more than the capacity).
    pub len: usize,
    /// The most entries the cache holds.
    pub capacity: usize,
}

/// A map of at most `capacity` entries; inserting into a full map drops the entry used
/// least recently.
pub(crate) struct Lru<K, V> {
    entries: HashMap<K, (V, u64), BuildHasherDefault<FxHasher>>,
    capacity: usize,
    clock: u64,
    stats: CacheStats,
}

impl<K: Hash + Eq + Clone, V: Clone> Lru<K, V> {
    pub(crate) fn new(capacity: usize) -> Self {
        let capacity = capacity.max(1);
        Lru {
            entries: HashMap::with_capacity_and_hasher(
                capacity.min(4096),
                BuildHasherDefault::default(),
            ),
            capacity,
            clock: 0,
            stats: CacheStats {
                capacity,
                ..CacheStats::default()
            },
        }
    }

    /// The entry for `key` if the cache holds it (a hit); `None` counts nothing, so a miss
    /// is counted by the [`Lru::get_or_try_insert`] that follows it.
    pub(crate) fn get(&mut self, key: &K) -> Option<V> {
        self.clock += 1;
        let (value, used) = self.entries.get_mut(key)?;
        *used = self.clock;
        self.stats.hits += 1;
        Some(value.clone())
    }

    /// Counts a hit that was answered without a lookup (the device's draw memo repeating
    /// the last entry used, whose recency therefore needs no update).
    pub(crate) fn count_hit(&mut self) {
        self.clock += 1;
        self.stats.hits += 1;
    }

    /// The entry for `key`, built by `build` on a miss (a failed build stores nothing).
    pub(crate) fn get_or_try_insert<E>(
        &mut self,
        key: &K,
        build: impl FnOnce() -> Result<V, E>,
    ) -> Result<V, E> {
        if let Some(value) = self.get(key) {
            return Ok(value);
        }
        self.stats.misses += 1;
        let value = build()?;
        if self.entries.len() >= self.capacity {
            let oldest = self
                .entries
                .iter()
                .min_by_key(|(_, (_, used))| *used)
                .map(|(k, _)| k.clone());
            if let Some(oldest) = oldest {
                self.entries.remove(&oldest);
                self.stats.evictions += 1;
            }
        }
        self.entries
            .insert(key.clone(), (value.clone(), self.clock));
        Ok(value)
    }

    /// Whether the cache holds `key` (counting nothing, using nothing).
    pub(crate) fn contains(&self, key: &K) -> bool {
        self.entries.contains_key(key)
    }

    /// Drops every entry whose key `stale` names (a released object's).
    pub(crate) fn remove_where(&mut self, stale: impl Fn(&K) -> bool) {
        self.entries.retain(|k, _| !stale(k));
    }

    pub(crate) fn stats(&self) -> CacheStats {
        CacheStats {
            len: self.entries.len(),
            ..self.stats
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evicts_the_least_recently_used() {
        let mut lru: Lru<u32, u32> = Lru::new(2);
        let ok = |v: u32| move || Ok::<u32, ()>(v);
        assert_eq!(lru.get_or_try_insert(&1, ok(10)), Ok(10));
        assert_eq!(lru.get_or_try_insert(&2, ok(20)), Ok(20));
        // 1 is used again, so 2 is the oldest when 3 arrives.
        assert_eq!(lru.get_or_try_insert(&1, ok(99)), Ok(10));
        assert_eq!(lru.get_or_try_insert(&3, ok(30)), Ok(30));
        assert_eq!(lru.get_or_try_insert(&1, ok(99)), Ok(10));
        assert_eq!(lru.get_or_try_insert(&2, ok(21)), Ok(21));
        let s = lru.stats();
        assert_eq!((s.hits, s.misses, s.evictions, s.len), (2, 4, 2, 2));
    }

    /// Each write mixes its word in as rustc's FxHasher does, hash = (hash rotated left by 5
    /// xor word) times SEED: integers as one word, bytes as little-endian words of 8 and a
    /// zero-padded rest.
    #[test]
    fn the_hash_is_fxhash() {
        let hash = |write: &dyn Fn(&mut FxHasher)| {
            let mut h = FxHasher::default();
            write(&mut h);
            h.finish()
        };
        let seed = FxHasher::SEED;
        assert_eq!(hash(&|h| h.write_u8(1)), seed);
        assert_eq!(hash(&|h| h.write_u16(1)), seed);
        assert_eq!(hash(&|h| h.write_u32(1)), seed);
        assert_eq!(hash(&|h| h.write_u64(1)), seed);
        assert_eq!(hash(&|h| h.write_usize(1)), seed);
        let two = (seed.rotate_left(5) ^ 2).wrapping_mul(seed);
        assert_eq!(hash(&|h| h.write(&[1, 0, 0, 0, 0, 0, 0, 0, 2])), two);
        assert_eq!(hash(&|h| h.write(&[])), 0);
    }

    #[test]
    fn failed_builds_store_nothing() {
        let mut lru: Lru<u32, u32> = Lru::new(2);
        assert_eq!(
            lru.get_or_try_insert(&1, || Err::<u32, &str>("no")),
            Err("no")
        );
        assert_eq!(lru.stats().len, 0);
        lru.get_or_try_insert(&1, || Ok::<u32, ()>(1)).ok();
        lru.remove_where(|k| *k == 1);
        assert_eq!(lru.stats().len, 0);
    }
}
