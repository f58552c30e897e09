//! Bounded caches with least-recently-used eviction and hit/miss/eviction counters, for the
//! draw-time pairing of declarations and shaders and for pipelines.

use std::collections::HashMap;
use std::hash::Hash;

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
    entries: HashMap<K, (V, u64)>,
    capacity: usize,
    clock: u64,
    stats: CacheStats,
}

impl<K: Hash + Eq + Clone, V: Clone> Lru<K, V> {
    pub(crate) fn new(capacity: usize) -> Self {
        let capacity = capacity.max(1);
        Lru {
            entries: HashMap::with_capacity(capacity.min(4096)),
            capacity,
            clock: 0,
            stats: CacheStats {
                capacity,
                ..CacheStats::default()
            },
        }
    }

    /// The entry for `key`, built by `build` on a miss (a failed build stores nothing).
    pub(crate) fn get_or_try_insert<E>(
        &mut self,
        key: &K,
        build: impl FnOnce() -> Result<V, E>,
    ) -> Result<V, E> {
        self.clock += 1;
        if let Some((value, used)) = self.entries.get_mut(key) {
            *used = self.clock;
            self.stats.hits += 1;
            return Ok(value.clone());
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
