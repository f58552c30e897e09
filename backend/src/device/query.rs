//! D3D9's queries (`IDirect3DQuery9`): events, occlusion, timestamps.
//!
//! - **Occlusion** (`D3DQUERYTYPE_OCCLUSION`): the samples that passed the depth and stencil
//!   tests in the draws between `Issue(D3DISSUE_BEGIN)` and `Issue(D3DISSUE_END)`. The device
//!   records one render pass per draw; while any occlusion query is open, each pass takes a
//!   slot of a wgpu occlusion query set (`draw/encode.rs`), shared by every query open then,
//!   so overlapping queries need no extra GPU work. A query's result is the sum of its slots.
//!   Slots come from batches (a query set, a resolve buffer and a buffer to read back); a
//!   batch is resolved when a query whose slots it holds ends or when it is full, and read
//!   back once the GPU has done it (mapped on submission, read without waiting). Clears,
//!   `StretchRect` and the other copies take no slots: they count nothing, as in D3D9.
//!   Vulkan gives sample counts; wgpu's GL, DX12 and Metal occlusion queries are boolean,
//!   so there each draw in the span counts 1 if any of its samples passed
//!   ([`Device::occlusion_counts_samples`]).
//! - **Timestamp** (`D3DQUERYTYPE_TIMESTAMP`): a GPU timestamp written after the work
//!   recorded before `Issue(D3DISSUE_END)`, in nanoseconds, so `TIMESTAMPFREQ` is always
//!   1 000 000 000; `TIMESTAMPDISJOINT` is never disjoint (FALSE). They need the adapter's
//!   `wgpu::Features::TIMESTAMP_QUERY` ([`Device::query_supported`]).
//! - **Event** (`D3DQUERYTYPE_EVENT`): `Issue(D3DISSUE_END)` submits what was recorded;
//!   the event is then reported as done (every later read-back waits for the GPU anyway).
//!
//! Windows' rules (Wine's `test_occlusion_query`, `test_timestamp_query`): `BEGIN` on a
//! query open already starts it again, `END` on one never begun counts nothing (0), `BEGIN`
//! on a type that has no begin (event, timestamps) is accepted and does nothing, and data
//! asked before any `Issue` is [`QueryData::NotIssued`] (the C ABI fills the caller's buffer
//! with 0xdd bytes then, as Windows).

use std::collections::HashMap;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::Arc;

use super::error::{invalid, unsupported};
use super::{Device, DeviceError};
use crate::gpu::GpuError;

/// A query of a [`Device`]; never reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct QueryId(pub u64);

/// `D3DQUERYTYPE`s the device may answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QueryKind {
    Event,
    Occlusion,
    Timestamp,
    TimestampDisjoint,
    TimestampFreq,
}

/// Each kind: its `D3DQUERYTYPE` number, `GetDataSize` (bytes), and whether it has a begin.
const KINDS: [(QueryKind, u32, u32, bool); 5] = [
    (QueryKind::Event, 8, 4, false),             // BOOL
    (QueryKind::Occlusion, 9, 4, true),          // DWORD
    (QueryKind::Timestamp, 10, 8, false),        // UINT64
    (QueryKind::TimestampDisjoint, 11, 4, true), // BOOL
    (QueryKind::TimestampFreq, 12, 8, false),    // UINT64
];

impl QueryKind {
    fn row(self) -> (QueryKind, u32, u32, bool) {
        KINDS
            .into_iter()
            .find(|row| row.0 == self)
            .unwrap_or((self, 0, 0, false))
    }

    /// The kind of a `D3DQUERYTYPE` number; `None` for the types the device never answers.
    pub fn from_d3d(value: u32) -> Option<QueryKind> {
        KINDS
            .into_iter()
            .find(|row| row.1 == value)
            .map(|row| row.0)
    }

    /// The `D3DQUERYTYPE` number.
    pub fn to_d3d(self) -> u32 {
        self.row().1
    }

    /// `GetDataSize`: the bytes of the result.
    pub fn data_size(self) -> u32 {
        self.row().2
    }

    /// Whether `Issue(D3DISSUE_BEGIN)` opens a span (occlusion, timestamp disjoint).
    pub fn has_begin(self) -> bool {
        self.row().3
    }
}

/// What `GetData` answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueryData {
    /// Never issued (Windows answers `S_OK` and fills the buffer with 0xdd bytes).
    NotIssued,
    /// Begun and not ended, or ended and the GPU has not answered yet (`S_FALSE`).
    Pending,
    /// The result: samples, nanoseconds, ticks per second, or a BOOL.
    Ready(u64),
}

/// The ticks per second of [`QueryKind::TimestampFreq`]: timestamps are in nanoseconds.
pub const TIMESTAMP_FREQUENCY: u64 = 1_000_000_000;

/// Occlusion slots of one batch (wgpu allows 4096 per query set).
const OCCLUSION_SLOTS: u32 = 256;
/// Batches kept for reuse, per kind.
const FREE_BATCHES: usize = 8;

/// A run of slots of one batch that a query counts.
#[derive(Clone, Debug)]
struct Span {
    batch: u64,
    slots: Range<u32>,
}

#[derive(Clone, Debug)]
enum State {
    Fresh,
    /// Between BEGIN and END: the total of the batches read so far and the spans still out.
    Building {
        total: u64,
        spans: Vec<Span>,
    },
    /// Ended; waiting for the batches of `spans`.
    Waiting {
        total: u64,
        spans: Vec<Span>,
    },
    /// An event ended: done when the GPU has finished the work submitted before its END
    /// (wgpu's `on_submitted_work_done`).
    Event(Arc<AtomicBool>),
    Ready(u64),
}

struct Query {
    kind: QueryKind,
    state: State,
}

/// A query set with the buffers its results are resolved into and read back from.
struct Batch {
    set: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    readback: wgpu::Buffer,
}

impl Batch {
    fn new(gpu: &crate::gpu::Gpu, ty: wgpu::QueryType, count: u32) -> Batch {
        let size = u64::from(count) * 8;
        let buffer = |usage| {
            gpu.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("D3D9 query results"),
                size,
                usage,
                mapped_at_creation: false,
            })
        };
        Batch {
            set: gpu.device.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("D3D9 queries"),
                ty,
                count,
            }),
            resolve: buffer(wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC),
            readback: buffer(wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST),
        }
    }
}

/// The batch passes take occlusion slots from.
struct OpenBatch {
    id: u64,
    batch: Batch,
    used: u32,
}

/// A batch whose resolve is recorded: `mapped` becomes `MAPPED` (or `FAILED`) once the GPU
/// has done it and the read-back buffer is mapped.
struct ClosedBatch {
    id: u64,
    batch: Batch,
    timestamps: bool,
    used: u32,
    mapped: Arc<AtomicU8>,
}

const MAPPED: u8 = 1;
const FAILED: u8 = 2;

/// The device's queries (a field of [`Device`]).
#[derive(Default)]
pub(crate) struct Queries {
    objects: HashMap<QueryId, Query>,
    /// Occlusion queries between BEGIN and END, in the order begun.
    active: Vec<QueryId>,
    open: Option<OpenBatch>,
    closed: Vec<ClosedBatch>,
    free_occlusion: Vec<Batch>,
    free_timestamp: Vec<Batch>,
    next_batch: u64,
}

impl Queries {
    fn get_mut(&mut self, call: &'static str, id: QueryId) -> Result<&mut Query, DeviceError> {
        self.objects
            .get_mut(&id)
            .ok_or_else(|| invalid(call, format!("{id:?} is not a query of this device")))
    }

    /// Adds `values` (the slots of batch `batch`) to every query that counts them.
    fn distribute(&mut self, batch: u64, values: &[u64], timestamp_period: f64) {
        for query in self.objects.values_mut() {
            let kind = query.kind;
            let (State::Building { total, spans } | State::Waiting { total, spans }) =
                &mut query.state
            else {
                continue;
            };
            spans.retain(|span| {
                if span.batch != batch {
                    return true;
                }
                let slots = span.slots.start as usize..span.slots.end as usize;
                let sum: u64 = values.get(slots).unwrap_or(&[]).iter().sum();
                *total += match kind {
                    // Ticks to nanoseconds (the period is 1 on most adapters).
                    QueryKind::Timestamp if timestamp_period != 1.0 => {
                        (sum as f64 * timestamp_period) as u64
                    }
                    _ => sum,
                };
                false
            });
            if let State::Waiting { total, spans } = &query.state {
                if spans.is_empty() {
                    query.state = State::Ready(*total);
                }
            }
        }
    }
}

impl Device {
    /// Whether `CreateQuery(kind)` succeeds on this device: events and occlusion always,
    /// the timestamp kinds where the wgpu device has `TIMESTAMP_QUERY`.
    pub fn query_supported(&self, kind: QueryKind) -> bool {
        match kind {
            QueryKind::Event | QueryKind::Occlusion => true,
            QueryKind::Timestamp | QueryKind::TimestampDisjoint | QueryKind::TimestampFreq => self
                .gpu
                .features()
                .contains(wgpu::Features::TIMESTAMP_QUERY),
        }
    }

    /// Whether occlusion queries count samples (Vulkan) or, per draw, whether any sample
    /// passed (wgpu's GL, DX12 and Metal backends: each draw in the span then counts 1 or 0).
    pub fn occlusion_counts_samples(&self) -> bool {
        self.gpu.adapter_info().backend == wgpu::Backend::Vulkan
    }

    /// `CreateQuery(kind)`: `Unsupported` where [`Device::query_supported`] says no.
    pub fn create_query(&mut self, kind: QueryKind) -> Result<QueryId, DeviceError> {
        if !self.query_supported(kind) {
            return Err(unsupported(
                "CreateQuery",
                format!("{kind:?} queries (no TIMESTAMP_QUERY on this adapter)"),
            ));
        }
        let id = QueryId(self.next_id());
        self.queries.objects.insert(
            id,
            Query {
                kind,
                state: State::Fresh,
            },
        );
        Ok(id)
    }

    /// `Release` of a query (one still open counts nothing more).
    pub fn release_query(&mut self, id: QueryId) -> Result<(), DeviceError> {
        self.queries
            .objects
            .remove(&id)
            .ok_or_else(|| invalid("Release", format!("{id:?} is not a query of this device")))?;
        self.queries.active.retain(|q| *q != id);
        Ok(())
    }

    /// The kind a query was created with.
    pub fn query_kind(&self, id: QueryId) -> Option<QueryKind> {
        self.queries.objects.get(&id).map(|q| q.kind)
    }

    /// `Issue(D3DISSUE_BEGIN)`: an occlusion or disjoint query starts counting (again, if it
    /// was open); other kinds have no begin and ignore it, as Windows does.
    pub fn issue_begin(&mut self, id: QueryId) -> Result<(), DeviceError> {
        self.harvest_queries();
        let query = self.queries.get_mut("Issue", id)?;
        if !query.kind.has_begin() {
            return Ok(());
        }
        query.state = State::Building {
            total: 0,
            spans: Vec::new(),
        };
        if query.kind == QueryKind::Occlusion && !self.queries.active.contains(&id) {
            self.queries.active.push(id);
        }
        Ok(())
    }

    /// `Issue(D3DISSUE_END)`: the span ends (an occlusion query never begun counts 0), a
    /// timestamp is written, an event submits what was recorded.
    pub fn issue_end(&mut self, id: QueryId) -> Result<(), DeviceError> {
        self.harvest_queries();
        let query = self.queries.get_mut("Issue", id)?;
        let kind = query.kind;
        let state = std::mem::replace(&mut query.state, State::Fresh);
        let state = match (kind, state) {
            (QueryKind::Occlusion, State::Building { total, spans }) => {
                self.queries.active.retain(|q| *q != id);
                let open = self.queries.open.as_ref().map(|o| o.id);
                if spans.iter().any(|s| Some(s.batch) == open) {
                    self.close_open_batch();
                }
                match spans.is_empty() {
                    true => State::Ready(total),
                    false => State::Waiting { total, spans },
                }
            }
            (QueryKind::Occlusion | QueryKind::TimestampDisjoint, _) => State::Ready(0),
            (QueryKind::TimestampFreq, _) => State::Ready(TIMESTAMP_FREQUENCY),
            (QueryKind::Timestamp, _) => self.write_timestamp(),
            // Reached once the GPU has done what was recorded before it (Windows answers
            // S_FALSE until then; games wait on events to bound the frames in flight).
            (QueryKind::Event, _) => {
                self.flush()?;
                let done = Arc::new(AtomicBool::new(false));
                let signal = done.clone();
                self.gpu
                    .queue
                    .on_submitted_work_done(move || signal.store(true, Ordering::Release));
                State::Event(done)
            }
        };
        self.queries.get_mut("Issue", id)?.state = state;
        Ok(())
    }

    /// `GetData`: the result if the GPU has given it, without waiting. With `flush`
    /// (`D3DGETDATA_FLUSH`) what was recorded is submitted first, so a later call answers.
    pub fn query_data(&mut self, id: QueryId, flush: bool) -> Result<QueryData, DeviceError> {
        let call = "GetData";
        let waiting = |s: &State| matches!(s, State::Waiting { .. } | State::Event(_));
        if waiting(&self.queries.get_mut(call, id)?.state) {
            if flush {
                self.flush()?;
            }
            self.gpu
                .device
                .poll(wgpu::PollType::Poll)
                .map_err(|e| DeviceError::Gpu {
                    call,
                    source: GpuError::Readback(e.to_string()),
                })?;
        }
        self.harvest_queries();
        let query = self.queries.get_mut(call, id)?;
        if let State::Event(done) = &query.state {
            if done.load(Ordering::Acquire) {
                query.state = State::Ready(1);
            }
        }
        Ok(match &query.state {
            State::Fresh => QueryData::NotIssued,
            State::Building { .. } | State::Waiting { .. } | State::Event(_) => QueryData::Pending,
            State::Ready(value) => QueryData::Ready(*value),
        })
    }

    /// [`Device::query_data`] with a flush, waiting for the GPU until the result is there
    /// (`Pending` only for a query begun and not ended).
    pub fn wait_query(&mut self, id: QueryId) -> Result<QueryData, DeviceError> {
        let data = self.query_data(id, true)?;
        if data != QueryData::Pending || self.queries.active.contains(&id) {
            return Ok(data);
        }
        self.gpu
            .device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| DeviceError::Gpu {
                call: "GetData",
                source: GpuError::Readback(e.to_string()),
            })?;
        self.query_data(id, false)
    }

    /// Whether an occlusion query counts the draws recorded now.
    pub(crate) fn occlusion_counting(&self) -> bool {
        !self.queries.active.is_empty()
    }

    /// The occlusion slot the next pass counts its samples in, while an occlusion query
    /// is open (see `draw/encode.rs`): the query set and the index.
    pub(crate) fn occlusion_slot(&mut self) -> Option<(wgpu::QuerySet, u32)> {
        if !self.occlusion_counting() {
            return None;
        }
        if self
            .queries
            .open
            .as_ref()
            .is_some_and(|o| o.used == OCCLUSION_SLOTS)
        {
            self.close_open_batch();
        }
        let queries = &mut self.queries;
        if queries.open.is_none() {
            let batch = queries.free_occlusion.pop().unwrap_or_else(|| {
                Batch::new(&self.gpu, wgpu::QueryType::Occlusion, OCCLUSION_SLOTS)
            });
            queries.next_batch += 1;
            queries.open = Some(OpenBatch {
                id: queries.next_batch,
                batch,
                used: 0,
            });
        }
        let open = queries.open.as_mut()?;
        let slot = open.used;
        open.used += 1;
        for id in &queries.active {
            let Some(Query {
                state: State::Building { spans, .. },
                ..
            }) = queries.objects.get_mut(id)
            else {
                continue;
            };
            // A query counts every slot taken while it is open, so within one batch its
            // slots run on without a gap: the span in this batch grows by one.
            match spans.last_mut() {
                Some(span) if span.batch == open.id => span.slots.end = slot + 1,
                _ => spans.push(Span {
                    batch: open.id,
                    slots: slot..slot + 1,
                }),
            }
        }
        Some((open.batch.set.clone(), slot))
    }

    /// Records the open batch's resolve and read-back on the pending encoder.
    fn close_open_batch(&mut self) {
        let Some(open) = self.queries.open.take() else {
            return;
        };
        if open.used == 0 {
            self.queries.free_occlusion.push(open.batch);
            return;
        }
        let closed = self.resolve(open.id, open.batch, open.used, false);
        self.queries.closed.push(closed);
    }

    /// A timestamp after the work recorded so far: an empty compute pass writing it at its
    /// end (which needs only `TIMESTAMP_QUERY`), resolved and read back as a batch of one.
    fn write_timestamp(&mut self) -> State {
        let batch = self
            .queries
            .free_timestamp
            .pop()
            .unwrap_or_else(|| Batch::new(&self.gpu, wgpu::QueryType::Timestamp, 1));
        let encoder = self.encoder();
        drop(encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("D3DQUERYTYPE_TIMESTAMP"),
            timestamp_writes: Some(wgpu::ComputePassTimestampWrites {
                query_set: &batch.set,
                beginning_of_pass_write_index: None,
                end_of_pass_write_index: Some(0),
            }),
        }));
        self.queries.next_batch += 1;
        let id = self.queries.next_batch;
        let closed = self.resolve(id, batch, 1, true);
        self.queries.closed.push(closed);
        State::Waiting {
            total: 0,
            spans: vec![Span {
                batch: id,
                slots: 0..1,
            }],
        }
    }

    fn resolve(&mut self, id: u64, batch: Batch, used: u32, timestamps: bool) -> ClosedBatch {
        let bytes = u64::from(used) * 8;
        let encoder = self.encoder();
        encoder.resolve_query_set(&batch.set, 0..used, &batch.resolve, 0);
        encoder.copy_buffer_to_buffer(&batch.resolve, 0, &batch.readback, 0, bytes);
        let mapped = Arc::new(AtomicU8::new(0));
        let flag = mapped.clone();
        encoder.map_buffer_on_submit(
            &batch.readback,
            wgpu::MapMode::Read,
            0..bytes,
            move |result| {
                flag.store(
                    if result.is_ok() { MAPPED } else { FAILED },
                    Ordering::Release,
                )
            },
        );
        ClosedBatch {
            id,
            batch,
            timestamps,
            used,
            mapped,
        }
    }

    /// Reads the batches the GPU has answered (never waits) into the queries counting them,
    /// and keeps their buffers for reuse.
    fn harvest_queries(&mut self) {
        let period = f64::from(self.gpu.queue.get_timestamp_period());
        let mut i = 0;
        while i < self.queries.closed.len() {
            let state = self.queries.closed[i].mapped.load(Ordering::Acquire);
            if state == 0 {
                i += 1;
                continue;
            }
            let closed = self.queries.closed.swap_remove(i);
            let bytes = u64::from(closed.used) * 8;
            let mut values = vec![0u64; closed.used as usize];
            if state == MAPPED {
                if let Ok(mapped) = closed.batch.readback.slice(0..bytes).get_mapped_range() {
                    values = bytemuck::pod_collect_to_vec(&mapped);
                }
                closed.batch.readback.unmap();
            } else {
                log::warn!("a query batch could not be read back: its queries count 0");
            }
            self.queries.distribute(closed.id, &values, period);
            if state == MAPPED {
                let free = match closed.timestamps {
                    true => &mut self.queries.free_timestamp,
                    false => &mut self.queries.free_occlusion,
                };
                if free.len() < FREE_BATCHES {
                    free.push(closed.batch);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::DeviceParams;

    /// A batch's values go to the queries whose spans are in it: occlusion counts summed,
    /// timestamps turned from ticks into nanoseconds by the adapter's period (kept exact
    /// where the period is 1); a query is ready once its last span is in.
    #[test]
    fn batches_are_summed_into_their_queries_and_timestamps_scaled() {
        let mut q = Queries::default();
        let span = |batch, slots| Span { batch, slots };
        let waiting = |total, spans| State::Waiting { total, spans };
        q.objects.insert(
            QueryId(1),
            Query {
                kind: QueryKind::Timestamp,
                state: waiting(0, vec![span(3, 0..1)]),
            },
        );
        q.objects.insert(
            QueryId(2),
            Query {
                kind: QueryKind::Occlusion,
                state: waiting(5, vec![span(3, 1..3), span(4, 0..1)]),
            },
        );
        q.distribute(3, &[10, 20, 30], 2.5);
        let state = |q: &Queries, id| q.objects.get(&QueryId(id)).map(|q| q.state.clone());
        assert!(matches!(state(&q, 1), Some(State::Ready(25))));
        assert!(
            matches!(state(&q, 2), Some(State::Waiting { total: 55, ref spans }) if spans.len() == 1)
        );
        q.distribute(4, &[7], 2.5);
        assert!(matches!(state(&q, 2), Some(State::Ready(62))));
        // With a period of 1 the ticks are kept as they are, past f64's 53 bits too.
        let ticks = (1u64 << 60) + 1;
        q.objects.insert(
            QueryId(3),
            Query {
                kind: QueryKind::Timestamp,
                state: waiting(0, vec![span(5, 0..1)]),
            },
        );
        q.distribute(5, &[ticks], 1.0);
        assert!(matches!(state(&q, 3), Some(State::Ready(t)) if t == ticks));
    }

    /// Passes share a batch of slots: a query's slots in one batch are one span, a batch
    /// closes when a query counting in it ends (so its result can come back) and the next
    /// one has a new id; no slot is taken while no occlusion query is open; read-back
    /// batches are kept for reuse, at most `FREE_BATCHES` of them.
    #[test]
    fn gpu_passes_share_batches_and_batches_are_reused() {
        use crate::device::{CullMode, Format, PrimitiveType, RenderState};
        let mut dev = Device::new(DeviceParams {
            back_buffer: (8, 8, Format::X8R8G8B8),
            ..DeviceParams::default()
        })
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
        dev.set_render_state(RenderState::CullMode(CullMode::None))
            .unwrap();
        dev.set_fvf(0x004).unwrap(); // D3DFVF_XYZRHW
        let quad: Vec<u8> = [(0.0f32, 0.0f32), (4.0, 0.0), (0.0, 4.0), (4.0, 4.0)]
            .iter()
            .flat_map(|&(x, y)| [x, y, 0.5, 1.0])
            .flat_map(f32::to_le_bytes)
            .collect();
        let draw = |dev: &mut Device, n| {
            for _ in 0..n {
                dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &quad, 16)
                    .unwrap();
            }
        };
        assert!(dev.occlusion_slot().is_none(), "a slot with no query open");
        let spans = |dev: &mut Device, id| match &dev.queries.get_mut("test", id).unwrap().state {
            State::Building { spans, .. } | State::Waiting { spans, .. } => spans
                .iter()
                .map(|s| (s.batch, s.slots.clone()))
                .collect::<Vec<_>>(),
            other => panic!("{other:?}"),
        };
        let (a, b) = (
            dev.create_query(QueryKind::Occlusion).unwrap(),
            dev.create_query(QueryKind::Occlusion).unwrap(),
        );
        // BEGIN again restarts a query: it is open once.
        dev.issue_begin(a).unwrap();
        dev.issue_begin(a).unwrap();
        assert_eq!(dev.queries.active, [a]);
        draw(&mut dev, 3);
        dev.issue_begin(b).unwrap();
        draw(&mut dev, 2);
        assert_eq!(spans(&mut dev, a), [(1, 0..5)]);
        assert_eq!(spans(&mut dev, b), [(1, 3..5)]);
        dev.issue_end(b).unwrap();
        draw(&mut dev, 2);
        dev.issue_end(a).unwrap();
        assert_eq!(spans(&mut dev, a), [(1, 0..5), (2, 0..2)]);
        assert!(matches!(dev.wait_query(a).unwrap(), QueryData::Ready(_)));
        assert!(matches!(dev.wait_query(b).unwrap(), QueryData::Ready(_)));
        assert_eq!(dev.queries.free_occlusion.len(), 2);
        // Ten batches in flight at once: two reused, eight new; eight are kept.
        let ids: Vec<_> = (0..10)
            .map(|_| dev.create_query(QueryKind::Occlusion).unwrap())
            .collect();
        for &id in &ids {
            dev.issue_begin(id).unwrap();
            draw(&mut dev, 1);
            dev.issue_end(id).unwrap();
        }
        assert!(dev.queries.free_occlusion.is_empty());
        for &id in &ids {
            assert!(matches!(dev.wait_query(id).unwrap(), QueryData::Ready(_)));
        }
        assert_eq!(dev.queries.free_occlusion.len(), FREE_BATCHES);
    }

    /// An EVENT's END leaves it waiting on the GPU's signal, not reached at the submit
    /// (`device_queries.rs` shows it reached afterwards through `GetData`); waiting for it
    /// turns it into TRUE.
    #[test]
    fn gpu_an_event_waits_for_the_gpus_signal() {
        let mut dev = Device::new(DeviceParams::default())
            .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
        let event = dev.create_query(QueryKind::Event).unwrap();
        dev.clear(&[], crate::device::ClearFlags::TARGET, 0, 1.0, 0)
            .unwrap();
        dev.issue_end(event).unwrap();
        let state = &dev.queries.get_mut("test", event).unwrap().state;
        assert!(matches!(state, State::Event(_)), "not reached at its END");
        assert_eq!(dev.wait_query(event).unwrap(), QueryData::Ready(1));
        let state = &dev.queries.get_mut("test", event).unwrap().state;
        assert!(matches!(state, State::Ready(1)));
    }
}
