//! Pipelines built before their first draw, off the draw thread (no stutter on first use).
//!
//! Every pipeline a draw builds for a pair of shaders is recorded in the state cache
//! (`record`) by content: the declaration's elements, the shaders' tokens, every other
//! field of its pair and pipeline keys. A later run loads the records when the device is
//! created; as soon as `CreateVertexDeclaration`, `CreateVertexShader` or `CreatePixelShader`
//! completes a recorded combination, the pair is translated and linked and its recorded
//! pipelines built on a worker thread (rayon), under keys that name the live objects. A draw
//! whose pair or pipeline is still queued builds it itself (the worker then skips it); one
//! being built waits for it; one built takes it. A prebuilt pair or pipeline is exactly what
//! the draw would have built for that key: the same functions build it, from the same
//! objects. The state cache is DXVK's idea (`dxvk_state_cache.cpp`).
//!
//! Pairs with a fixed-function stage are not recorded: their keys hold the fixed-function
//! state, and the issue this answers is the combinations of shaders a game creates at load.

mod record;
mod slot;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use d3d9_translator::decl::{bind_program, StreamSource, VertexDeclaration};

use super::draw::{build_pipeline, PipelineBuilder, PipelineEntry, PipelineKey};
use super::objects::{DeclarationId, PixelShaderId, ShaderObject, VertexShaderId};
use super::pairing::{build_pair, PairInputs, PairKey, ShaderPair};
use super::{Device, DeviceError, DeviceParams, DeviceState};
use crate::gpu::{capture, DiskCache};
pub(crate) use record::{Content, PairRecord};
use record::{SharedRecords, StateRecord};
use slot::Slot;

/// How often, at most, a submit saves new records (on a worker).
const SAVE_EVERY: Duration = Duration::from_secs(2);

/// What the device's pipeline prebuilding has done since it was created.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PrebuildStats {
    /// Pipelines the state cache held when the device was created.
    pub recorded: usize,
    /// Pairs (with their pipelines) given to the workers, and their pipelines.
    pub pairs_scheduled: u64,
    pub pipelines_scheduled: u64,
    /// Draws that found their pair, or their pipeline, built by a worker.
    pub pairs_used: u64,
    pub pipelines_used: u64,
}

/// The objects a record names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    Declaration,
    VertexShader,
    PixelShader,
}

/// A recorded pair with its recorded pipelines.
struct Plan {
    pair: PairRecord,
    pipelines: Vec<PipelineKey<()>>,
    scheduled: bool,
}

/// What a worker reads besides its job: the device's parameters, a state of defaults (the
/// constant buffers' shapes, which a pipeline's layout takes, follow from the pair alone),
/// and what building a pipeline needs.
struct Context {
    params: DeviceParams,
    state: DeviceState,
    builder: PipelineBuilder,
}

/// A pair a worker builds, and a pipeline.
type PairSlot = Arc<Slot<Arc<ShaderPair>>>;
type PipelineSlot = Arc<Slot<Arc<PipelineEntry>>>;

/// One pair and its pipelines for a worker.
struct Job {
    context: Arc<Context>,
    key: PairKey,
    pair_id: u64,
    record: PairRecord,
    slot: PairSlot,
    declaration: Arc<VertexDeclaration>,
    vertex_shader: ShaderObject,
    pixel_shader: ShaderObject,
    pipelines: Pipelines,
}

/// Recorded pipelines of one pair for a worker: their keys and slots, and the stream
/// sources the pair was recorded with.
struct Pipelines {
    context: Arc<Context>,
    processing: d3d9_translator::bytecode::VertexProcessing,
    streams: Vec<StreamSource>,
    list: Vec<(PipelineKey, PipelineSlot)>,
}

/// What a draw's look-up of a pair finds among the workers' pairs.
pub(crate) enum TakenPair {
    /// Built by a worker (or waited for).
    Built(Arc<ShaderPair>),
    /// Queued: the draw builds it, and hands back the recorded pipelines that were to
    /// follow it ([`Prebuilds::build_pipelines`]).
    Back(Vec<PipelineKey>),
    /// Not a pair given to the workers, or one whose build failed.
    Missing,
}

/// See the module documentation.
pub(crate) struct Prebuilds {
    /// Where records are kept; `None`: nothing is recorded or prebuilt.
    disk: Option<Arc<DiskCache>>,
    /// Whether loaded records are built ahead (`DeviceParams::prebuild`).
    enabled: bool,
    records: SharedRecords,
    /// Held while records are written, so that the device's drop waits for a worker's save.
    saving: Arc<std::sync::Mutex<()>>,
    plans: Vec<Plan>,
    /// The plans that name an object, by the object's content.
    by_object: HashMap<(Kind, Content), Vec<usize>>,
    /// Each live object's kind and content (handles share one counter).
    contents: HashMap<u64, (Kind, Content)>,
    /// The newest live object of each content.
    live: HashMap<(Kind, Content), u64>,
    pairs: HashMap<PairKey, (PairSlot, Vec<PipelineKey>)>,
    pipelines: HashMap<PipelineKey, PipelineSlot>,
    context: Option<Arc<Context>>,
    pool: Option<rayon::ThreadPool>,
    stats: PrebuildStats,
    last_save: Instant,
}

impl Prebuilds {
    /// Loads the state cache from `disk`, if any.
    pub(crate) fn open(disk: Option<Arc<DiskCache>>, enabled: bool) -> Prebuilds {
        let records = SharedRecords::default();
        let mut plans: Vec<Plan> = Vec::new();
        let mut by_object: HashMap<(Kind, Content), Vec<usize>> = HashMap::new();
        let mut recorded = 0;
        if let Some(disk) = &disk {
            let loaded = record::load_into(disk, &records);
            recorded = loaded.len();
            let mut by_pair: HashMap<PairRecord, usize> = HashMap::new();
            for StateRecord { pair, pipeline } in loaded {
                let at = *by_pair.entry(pair.clone()).or_insert_with(|| {
                    plans.push(Plan {
                        pair: pair.clone(),
                        pipelines: Vec::new(),
                        scheduled: false,
                    });
                    plans.len() - 1
                });
                plans[at].pipelines.push(pipeline);
            }
            for (n, plan) in plans.iter().enumerate() {
                for need in plan.needs() {
                    by_object.entry(need).or_default().push(n);
                }
            }
        }
        Prebuilds {
            disk,
            enabled,
            records,
            saving: Arc::default(),
            plans,
            by_object,
            contents: HashMap::new(),
            live: HashMap::new(),
            pairs: HashMap::new(),
            pipelines: HashMap::new(),
            context: None,
            pool: None,
            stats: PrebuildStats {
                recorded,
                ..PrebuildStats::default()
            },
            last_save: Instant::now(),
        }
    }

    /// The record of a pair a draw built for `key` with `streams` (none for a fixed-function
    /// stage, or where nothing is recorded).
    pub(crate) fn pair_record(
        &self,
        key: &PairKey,
        streams: &[StreamSource],
    ) -> Option<PairRecord> {
        self.disk.as_ref()?;
        let content = |id: u64| self.contents.get(&id).map(|c| c.1);
        let key = key.renamed(|d| content(d.0), |v| content(v.0), |p| content(p.0))?;
        Some(PairRecord {
            key,
            streams: streams.to_vec(),
        })
    }

    /// Records the pipeline a draw built under `key` for `pair`.
    pub(crate) fn record(&mut self, pair: &ShaderPair, key: &PipelineKey) {
        if let (Some(_), Some(record)) = (&self.disk, &pair.record) {
            let mut set = self.records.lock().unwrap_or_else(|p| p.into_inner());
            set.add(StateRecord {
                pair: record.clone(),
                pipeline: key.for_pair(()),
            });
        }
    }

    /// The pair a worker built (or is building) for `key`, taken out.
    pub(crate) fn take_pair(&mut self, key: &PairKey) -> TakenPair {
        let Some((slot, pipelines)) = self.pairs.remove(key) else {
            return TakenPair::Missing;
        };
        if slot.take_back() {
            return TakenPair::Back(pipelines);
        }
        match slot.take() {
            Some(pair) => {
                self.stats.pairs_used += 1;
                TakenPair::Built(pair)
            }
            None => TakenPair::Missing,
        }
    }

    /// Gives a worker the recorded pipelines `keys` of a pair the draw built itself (they were
    /// keyed by the pair the worker was to build), now keyed by `pair`.
    pub(crate) fn build_pipelines(&mut self, pair: &Arc<ShaderPair>, keys: Vec<PipelineKey>) {
        let (Some(context), Some(record)) = (self.context.clone(), &pair.record) else {
            return;
        };
        let mut list = Vec::new();
        for old in keys {
            if let Some(slot) = self.pipelines.remove(&old) {
                slot.take_back();
            }
            let key = old.for_pair(pair.id);
            let slot = Arc::new(Slot::new());
            self.pipelines.insert(key.clone(), slot.clone());
            list.push((key, slot));
        }
        // Counted when their pair was scheduled.
        let work = Pipelines {
            context,
            processing: record.key.processing,
            streams: record.streams.clone(),
            list,
        };
        let pair = pair.clone();
        self.spawn(move || work.run(Some(&pair)));
    }

    /// The pipeline a worker built (or is building) for `key`, taken out.
    pub(crate) fn take_pipeline(&mut self, key: &PipelineKey) -> Option<Arc<PipelineEntry>> {
        let slot = self.pipelines.remove(key)?;
        let entry = slot.take()?;
        self.stats.pipelines_used += 1;
        Some(entry)
    }

    /// Forgets a released object: its content, and the prebuilt pairs naming it with
    /// their pipelines. The plans naming it are built again when an object of the same
    /// content is created (a level loaded again).
    pub(crate) fn forget(&mut self, id: u64, names: impl Fn(&PairKey) -> bool) {
        if let Some((kind, content)) = self.contents.remove(&id) {
            if self.live.get(&(kind, content)) == Some(&id) {
                self.live.remove(&(kind, content));
            }
            for &n in self.by_object.get(&(kind, content)).into_iter().flatten() {
                self.plans[n].scheduled = false;
            }
        }
        let stale: Vec<PairKey> = self.pairs.keys().filter(|k| names(k)).cloned().collect();
        for key in stale {
            if let Some((_, pipelines)) = self.pairs.remove(&key) {
                for p in pipelines {
                    self.pipelines.remove(&p);
                }
            }
        }
    }

    /// Saves new records on a worker, at most every [`SAVE_EVERY`] (a submit's call).
    pub(crate) fn save_soon(&mut self) {
        let Some(disk) = self.disk.clone() else {
            return;
        };
        if self.last_save.elapsed() < SAVE_EVERY || self.unsaved() == 0 {
            return;
        }
        self.last_save = Instant::now();
        let (records, saving) = (self.records.clone(), self.saving.clone());
        self.spawn(move || {
            let _writing = saving.lock().unwrap_or_else(|p| p.into_inner());
            record::save(&disk, &records);
        });
    }

    fn unsaved(&self) -> usize {
        self.records
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .unsaved()
    }

    /// Runs `work` on a worker: one thread fewer than the machine's cores (at least one,
    /// at most four), made on first use; where no thread can be made, here and now.
    fn spawn(&mut self, work: impl FnOnce() + Send + 'static) {
        if self.pool.is_none() {
            let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
            self.pool = rayon::ThreadPoolBuilder::new()
                .num_threads(cores.saturating_sub(1).clamp(1, 4))
                .thread_name(|n| format!("d3d9 prebuild {n}"))
                .build()
                .ok();
        }
        match &self.pool {
            // A panic is caught where it could leave a slot unfinished (`unwound`); one
            // anywhere else in a worker is caught here rather than aborting the process, as
            // rayon does without a handler.
            Some(pool) => pool.spawn_fifo(move || {
                unwound(work);
            }),
            None => {
                unwound(work);
            }
        }
    }
}

impl Drop for Prebuilds {
    /// Queued work is called off and running work waited for, so that no worker outlives
    /// the device; then the records are saved.
    fn drop(&mut self) {
        for (slot, _) in self.pairs.values() {
            slot.take();
        }
        for slot in self.pipelines.values() {
            slot.take();
        }
        if let Some(disk) = &self.disk {
            let _writing = self.saving.lock().unwrap_or_else(|p| p.into_inner());
            record::save(disk, &self.records);
        }
    }
}

impl Plan {
    /// The objects it names, by content.
    fn needs(&self) -> Vec<(Kind, Content)> {
        let key = &self.pair.key;
        let mut needs = vec![(Kind::Declaration, key.declaration)];
        if let super::pairing::VertexStage::Shader(v) = &key.vertex {
            needs.push((Kind::VertexShader, *v));
        }
        if let super::pairing::PixelStage::Shader { id, .. } = &key.pixel {
            needs.push((Kind::PixelShader, *id));
        }
        needs
    }
}

impl Device {
    /// What pipeline prebuilding has done.
    pub fn prebuild_stats(&self) -> PrebuildStats {
        self.prebuild.stats
    }

    /// Waits until the workers have finished every pair and pipeline given to them (a
    /// loading screen's end; the tests' and benches' checkpoint).
    pub fn finish_prebuilds(&self) {
        for (slot, _) in self.prebuild.pairs.values() {
            slot.settle();
        }
        for slot in self.prebuild.pipelines.values() {
            slot.settle();
        }
    }

    /// The file of the state cache on disk, where the cache on disk is open.
    pub fn state_cache_path(&self) -> Option<std::path::PathBuf> {
        self.prebuild.disk.as_ref().map(|d| record::path(d))
    }

    /// How many pipelines the workers have built that no draw has taken yet.
    pub fn prebuilt_pipelines_waiting(&self) -> usize {
        self.prebuild
            .pipelines
            .values()
            .filter(|s| s.is_built())
            .count()
    }

    /// Notes a created object's content, and starts the recorded pairs it completes.
    pub(crate) fn prebuild_created(
        &mut self,
        kind: Kind,
        id: u64,
        content: impl FnOnce() -> Content,
    ) {
        if self.prebuild.disk.is_none() {
            return;
        }
        let content = content();
        let p = &mut self.prebuild;
        p.contents.insert(id, (kind, content));
        p.live.insert((kind, content), id);
        if !p.enabled {
            return;
        }
        let ready: Vec<usize> = p
            .by_object
            .get(&(kind, content))
            .into_iter()
            .flatten()
            .copied()
            .filter(|&n| {
                let plan = &p.plans[n];
                !plan.scheduled && plan.needs().iter().all(|need| p.live.contains_key(need))
            })
            .collect();
        for n in ready {
            self.schedule(n);
        }
    }

    /// Gives plan `n` to a worker, under a key naming the live objects of its contents.
    fn schedule(&mut self, n: usize) {
        let p = &mut self.prebuild;
        p.plans[n].scheduled = true;
        let plan = &p.plans[n];
        let live = |kind, c: &Content| p.live.get(&(kind, *c)).copied();
        let Some(key) = plan.pair.key.renamed(
            |d| live(Kind::Declaration, d).map(DeclarationId),
            |v| live(Kind::VertexShader, v).map(VertexShaderId),
            |ps| live(Kind::PixelShader, ps).map(PixelShaderId),
        ) else {
            return;
        };
        if p.pairs.contains_key(&key) || self.pairs.contains(&key) {
            return;
        }
        let (Some(declaration), Some(vertex_shader), Some(pixel_shader)) = (
            self.declarations.get(&key.declaration).cloned(),
            match &key.vertex {
                super::pairing::VertexStage::Shader(id) => self.vertex_shaders.get(id).cloned(),
                super::pairing::VertexStage::FixedFunction(_) => None,
            },
            match &key.pixel {
                super::pairing::PixelStage::Shader { id, .. } => {
                    self.pixel_shaders.get(id).cloned()
                }
                super::pairing::PixelStage::FixedFunction(_) => None,
            },
        ) else {
            return;
        };
        let pair_id = self.next_id();
        let context = match &self.prebuild.context {
            Some(c) => c.clone(),
            None => {
                let c = Arc::new(Context {
                    params: self.params.clone(),
                    state: DeviceState::defaults(&self.params, &self.implicit),
                    builder: PipelineBuilder::of(&self.gpu, &self.constant_ring),
                });
                self.prebuild.context = Some(c.clone());
                c
            }
        };
        let p = &mut self.prebuild;
        let plan = &p.plans[n];
        let pipelines: Vec<(PipelineKey, PipelineSlot)> = plan
            .pipelines
            .iter()
            .map(|k| (k.for_pair(pair_id), Arc::new(Slot::new())))
            .collect();
        let slot = Arc::new(Slot::new());
        for (k, s) in &pipelines {
            p.pipelines.insert(k.clone(), s.clone());
        }
        p.pairs.insert(
            key.clone(),
            (
                slot.clone(),
                pipelines.iter().map(|(k, _)| k.clone()).collect(),
            ),
        );
        p.stats.pairs_scheduled += 1;
        p.stats.pipelines_scheduled += pipelines.len() as u64;
        let job = Job {
            context: context.clone(),
            pipelines: Pipelines {
                context,
                processing: key.processing,
                streams: plan.pair.streams.clone(),
                list: pipelines,
            },
            key,
            pair_id,
            record: plan.pair.clone(),
            slot,
            declaration,
            vertex_shader,
            pixel_shader,
        };
        p.spawn(move || job.run());
    }
}

impl Job {
    /// Builds the pair, then its pipelines, each unless a draw took it first.
    fn run(self) {
        let pair = self
            .slot
            .start()
            .then(|| unwound(|| self.pair()).flatten())
            .flatten();
        self.slot.finish(pair.clone());
        self.pipelines.run(pair.as_deref());
    }

    fn pair(&self) -> Option<Arc<ShaderPair>> {
        let device = &self.context.builder.device;
        // A pair that fails (or whose modules wgpu refuses) is left to the draw, which
        // reports why.
        let built = capture(device, "prebuilt pair", || {
            Ok::<_, crate::gpu::GpuError>(
                build_pair(
                    device,
                    self.pair_id,
                    &self.key,
                    PairInputs {
                        params: &self.context.params,
                        declaration: self.declaration.clone(),
                        vertex_shader: Some(self.vertex_shader.clone()),
                        pixel_shader: Some(self.pixel_shader.clone()),
                        streams: self.pipelines.streams.clone(),
                        position_fixup: true,
                    },
                )
                .ok(),
            )
        });
        let mut pair = built.ok().flatten()?;
        pair.record = Some(self.record.clone());
        Some(Arc::new(pair))
    }
}

impl Pipelines {
    /// Builds each pipeline of `pair` (none where the pair failed) unless a draw took it.
    fn run(&self, pair: Option<&ShaderPair>) {
        for (key, slot) in &self.list {
            if !slot.start() {
                continue;
            }
            let entry = pair.and_then(|pair| unwound(|| self.pipeline(pair, key).ok()).flatten());
            slot.finish(entry.map(Arc::new));
        }
    }

    /// The pipeline of `key`, built as the draw builds it, where the pair binds the streams
    /// as the record says.
    fn pipeline(&self, pair: &ShaderPair, key: &PipelineKey) -> Result<PipelineEntry, DeviceError> {
        let mut binding = bind_program(
            &pair.declaration,
            pair.vertex_program.program(),
            &self.streams,
            self.processing,
        )
        .map_err(|source| DeviceError::Bind {
            call: "prebuild",
            source,
        })?;
        let same = binding.streams.len() == key.streams.len()
            && binding.streams.iter_mut().zip(&key.streams).all(|(s, k)| {
                // Points drawn as quads read per instance (`vertex_input`).
                s.step_mode = k.2;
                (s.stream, s.array_stride) == (k.0, k.1)
            });
        if !same {
            return Err(super::error::invalid("prebuild", "the streams differ"));
        }
        build_pipeline(
            &self.context.builder,
            &self.context.state,
            pair,
            key,
            &binding.streams,
        )
    }
}

/// `work`'s result, or `None` where it panicked: a worker's panic (a translator or wgpu bug
/// met on a recorded combination) leaves the pair or pipeline to the draw, which builds it
/// again under the C boundary's own catch, and never leaves a slot a draw would wait on.
fn unwound<T>(work: impl FnOnce() -> T) -> Option<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> PairKey {
        PairKey::example(DeclarationId(1), VertexShaderId(2), PixelShaderId(3))
    }

    /// A draw that finds its pair still queued takes it back with the recorded pipelines
    /// that were to follow it (to hand them to the workers under its own pair); one that
    /// finds none, or a failed build, builds as if nothing were recorded.
    #[test]
    fn a_queued_pair_is_taken_back_with_its_pipelines() {
        let mut p = Prebuilds::open(None, true);
        let pipeline = PipelineKey::example().for_pair(9);
        p.pairs
            .insert(key(), (Arc::new(Slot::new()), vec![pipeline.clone()]));
        match p.take_pair(&key()) {
            TakenPair::Back(pipelines) => assert_eq!(pipelines, vec![pipeline]),
            _ => panic!("a queued pair is taken back"),
        }
        assert!(
            matches!(p.take_pair(&key()), TakenPair::Missing),
            "taken once"
        );
        let failed = Arc::new(Slot::new());
        assert!(failed.start());
        failed.finish(None);
        p.pairs.insert(key(), (failed, Vec::new()));
        assert!(matches!(p.take_pair(&key()), TakenPair::Missing));
        assert_eq!(p.stats.pairs_used, 0);
    }

    #[test]
    fn a_panicking_build_finishes_its_slot_empty() {
        let slot = Slot::<u32>::new();
        assert!(slot.start());
        let built = unwound(|| -> Option<u32> { panic!("a bug met on a worker") }).flatten();
        slot.finish(built);
        // The draw does not wait forever: it finds nothing and builds it itself.
        assert_eq!(slot.take(), None);
        assert_eq!(unwound(|| Some(7)).flatten(), Some(7));
    }
}
