//! wgpu's [`wgpu::PipelineCache`] kept between runs in the [`DiskCache`]: made from the data a
//! previous run of the same adapter saved, passed to every render pipeline the device builds,
//! and saved back as pipelines are built and when it is dropped.
//!
//! Only adapters with [`wgpu::Features::PIPELINE_CACHE`] have one (wgpu 30: Vulkan); elsewhere
//! nothing is read or written.
//!
//! When it is saved: as the 8th, 32nd, 128th, ... (×4) pipeline build starts (the builds
//! before it), so a long run's saves cost a bounded share of its builds, and when dropped if
//! any pipeline was built since the last save. A save that fails is logged by the disk cache; a draw never waits on one
//! beyond the write itself.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use super::disk_cache::DiskCache;

/// The first build count that saves; each later one is four times the last.
const FIRST_SAVE: u32 = 8;

/// The disk cache key of an adapter's pipeline cache data (the disk cache's folder is the
/// adapter's already; wgpu's own key names the data's kind).
fn disk_key(info: &wgpu::AdapterInfo) -> Option<Vec<u8>> {
    wgpu::util::pipeline_cache_key(info).map(|key| format!("wgpu pipeline cache {key}").into())
}

/// A device's pipeline cache and where it is saved.
#[derive(Debug)]
pub(super) struct PersistentPipelineCache {
    cache: wgpu::PipelineCache,
    disk: Arc<DiskCache>,
    key: Vec<u8>,
    /// Pipelines built with the cache, and their count at the last save.
    builds: AtomicU32,
    saved_at: AtomicU32,
}

impl PersistentPipelineCache {
    /// The pipeline cache of `device`, from the data `disk` holds for the adapter `info`
    /// describes (empty where it holds none or wgpu refuses it); `None` where the device lacks
    /// `PIPELINE_CACHE` or wgpu keeps no data for the backend.
    pub(super) fn open(
        device: &wgpu::Device,
        info: &wgpu::AdapterInfo,
        disk: Arc<DiskCache>,
    ) -> Option<PersistentPipelineCache> {
        if !device.features().contains(wgpu::Features::PIPELINE_CACHE) {
            return None;
        }
        let key = disk_key(info)?;
        let data = disk.get(&key);
        log::debug!(
            "pipeline cache: {} bytes from {}",
            data.as_ref().map_or(0, Vec::len),
            disk.entry_path(&key).display()
        );
        // Captured, so that a refusal (out of memory) is no cache rather than wgpu's
        // uncaptured-error handler, which panics by default.
        let oom = device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let cache = create(device, data.as_deref());
        // Both popped, innermost first.
        let validation = pollster::block_on(validation.pop());
        let oom = pollster::block_on(oom.pop());
        if let Some(error) = validation.or(oom) {
            log::warn!("pipeline cache: not made ({error}); pipelines are built without one");
            return None;
        }
        Some(PersistentPipelineCache {
            cache,
            disk,
            key,
            builds: AtomicU32::new(0),
            saved_at: AtomicU32::new(0),
        })
    }

    pub(super) fn cache(&self) -> &wgpu::PipelineCache {
        &self.cache
    }

    /// Where the data is saved.
    pub(super) fn path(&self) -> std::path::PathBuf {
        self.disk.entry_path(&self.key)
    }

    /// Counts one pipeline build about to start; the 8th, 32nd, 128th, ... first saves the
    /// builds before it.
    pub(super) fn note_built(&self) {
        let n = self
            .builds
            .fetch_add(1, Ordering::Relaxed)
            .saturating_add(1);
        if save_due(n) {
            self.save_builds(n - 1);
        }
    }

    /// Writes the cache's data to the disk cache now (nothing where the driver gives none).
    pub(super) fn save(&self) {
        self.save_builds(self.builds.load(Ordering::Relaxed));
    }

    /// [`Self::save`] of the data of the first `done` builds.
    fn save_builds(&self, done: u32) {
        self.saved_at.store(done, Ordering::Relaxed);
        match self.cache.get_data() {
            Some(data) => {
                log::debug!("pipeline cache: saving {} bytes", data.len());
                self.disk.put(&self.key, &data);
            }
            None => log::debug!("pipeline cache: the driver gives no data to save"),
        }
    }
}

impl Drop for PersistentPipelineCache {
    fn drop(&mut self) {
        if self.builds.load(Ordering::Relaxed) != self.saved_at.load(Ordering::Relaxed) {
            self.save();
        }
    }
}

/// Whether the `n`th build saves first: the 8th, 32nd, 128th, ... (8 × 4^k).
fn save_due(n: u32) -> bool {
    n >= FIRST_SAVE && n.is_power_of_two() && n.trailing_zeros() % 2 == 1
}

/// wgpu's pipeline cache on `device`, seeded with `data`.
#[allow(unsafe_code)]
fn create(device: &wgpu::Device, data: Option<&[u8]>) -> wgpu::PipelineCache {
    // SAFETY: wgpu requires `data` to be what `PipelineCache::get_data` returned, and uses it
    // only for an adapter with the same `pipeline_cache_key`. It is: the disk cache returns a
    // value only from a whole file whose stored key is this one and whose CRC-32 matches (so
    // the bytes are those `save` wrote, from `get_data`), in a folder named by this adapter's
    // full `AdapterInfo` (driver version included) and this crate's version. wgpu checks its
    // own header again (adapter, driver validation key, length), and with `fallback` an
    // unusable seed gives an empty cache rather than an error.
    unsafe {
        device.create_pipeline_cache(&wgpu::PipelineCacheDescriptor {
            label: Some("d3d9 pipeline cache"),
            data,
            fallback: true,
        })
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn saves_are_due_at_8_32_128_and_on_by_fours() {
        let due: Vec<u32> = (0..=10_000).filter(|&n| super::save_due(n)).collect();
        assert_eq!(due, [8, 32, 128, 512, 2048, 8192]);
    }
}
