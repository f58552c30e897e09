//! CPU cost of one draw through the D3D9-style [`Device`] against the same draw issued with
//! raw wgpu, in one run.
//!
//! The draw: one indexed triangle from a vertex buffer and a 16-bit index buffer (FVF
//! `XYZ | DIFFUSE`), a vs_2_0 shader (`m4x4 oPos, v0, c0`, `mov oD0, v1`), the
//! fixed-function pixel stage, into a 64x64 A8R8G8B8 render target.
//!
//! - **hit**: the device with everything unchanged between draws (declaration, shaders, state,
//!   constants), so every draw finds its pairing, pipeline and bind group in the caches. `N`
//!   draws, then `Device::flush` (one submit), timed together and divided by `N`; the device
//!   records one render pass per draw on its one pending encoder.
//! - **raw**: the same draw with raw wgpu on the device's wgpu device: a pipeline, bind group,
//!   vertex and index buffers made once beforehand, then `N` render passes on one encoder
//!   (`set_pipeline`, `set_bind_group`, `set_vertex_buffer`, `set_index_buffer`,
//!   `draw_indexed`), then one submit. Its WGSL is written by hand to compute what the
//!   translation computes.
//! - **miss**: a new vertex shader object per draw (same tokens, so `CreateVertexShader` is
//!   untimed): the draw pairs, translates and links it, builds the wgpu shader modules, the
//!   pipeline and the bind group; timed is the draw and the flush. The shader is released
//!   afterwards (dropping its pairing).
//!
//! In every case the GPU is waited for outside the timed region, after each batch.
//!
//! The ratio hit/raw is measured first as the vertex_stage bench does it: `BENCH_ROUNDS`
//! rounds (default 15), each timing a batch of `BENCH_DRAWS` (default 500) draws of each
//! side, in an order that alternates per round; the ratio is the median over rounds of the
//! two sides' times in the same round (target ≤ 1.10), printed beside the ratio of the best
//! batches (on a loaded machine the steadier of the two). "raw (control)" is the raw side
//! timed a second time in each round, so raw (control)/raw shows the noise floor. Then criterion
//! times hit, raw and miss (`cargo bench -p d3d9-backend --bench device_draw -- hit` etc.
//! filter as usual). `BENCH_PROFILE=<batches>` runs only that many batches of hit and of raw
//! draws, for a profiler. Figures and how to rerun: `docs/benchmarks.md`.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use std::borrow::Cow;
use std::time::{Duration, Instant};

use criterion::Criterion;
use d3d9_backend::device::{
    ClearFlags, Device, DeviceParams, Format, IndexBufferId, PrimitiveType, VertexBufferId,
};
use d3d9_translator::asm::assemble_tokens;
use d3d9_translator::decl::fvf::{D3DFVF_DIFFUSE, D3DFVF_XYZ};

const SIZE: u32 = 64;
const SHADER: &str = "vs_2_0\ndcl_position v0\ndcl_color v1\nm4x4 oPos, v0, c0\nmov oD0, v1\n";
/// What the translation computes, by hand: `c0..c3` as a matrix applied to the position (as
/// `m4x4`: one dp4 per row register), the diffuse D3DCOLOR (bytes B, G, R, A) swizzled to RGBA.
const HAND_WGSL: &str = r#"
@group(0) @binding(0) var<uniform> c: array<vec4<f32>, 4>;
struct Out { @builtin(position) pos: vec4<f32>, @location(0) color: vec4<f32> };
@vertex fn vs(@location(0) p: vec3<f32>, @location(1) d: vec4<f32>) -> Out {
    let v = vec4(p, 1.0);
    return Out(vec4(dot(v, c[0]), dot(v, c[1]), dot(v, c[2]), dot(v, c[3])), d.zyxw);
}
@fragment fn fs(@location(0) color: vec4<f32>) -> @location(0) vec4<f32> {
    return clamp(color, vec4(0.0), vec4(1.0));
}
"#;
const IDENTITY: [[f32; 4]; 4] = [
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
    [0.0, 0.0, 0.0, 1.0],
];

/// x, y, z and a D3DCOLOR per vertex, clockwise.
fn vertex_bytes() -> Vec<u8> {
    let vertex = |x: f32, y: f32, argb: u32| [x.to_bits(), y.to_bits(), 0.5f32.to_bits(), argb];
    [
        vertex(0.0, 0.8, 0xffff_0000),
        vertex(0.8, -0.8, 0xff00_00ff),
        vertex(-0.8, -0.8, 0xff00_ff00),
    ]
    .iter()
    .flatten()
    .flat_map(|v| v.to_le_bytes())
    .collect()
}

const INDICES: [u16; 3] = [0, 1, 2];

fn env_u32(name: &str, default: u32) -> u32 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The device side, set up once: state that every hit draw reuses.
struct DeviceSide {
    dev: Device,
    tokens: Vec<u32>,
}

impl DeviceSide {
    fn new() -> Self {
        let mut dev = Device::new(DeviceParams {
            back_buffer: (SIZE, SIZE, Format::A8R8G8B8),
            ..DeviceParams::default()
        })
        .expect("a GPU adapter");
        let tokens = assemble_tokens(SHADER).expect("assembles");
        let vs = dev.create_vertex_shader(&tokens).expect("vertex shader");
        dev.set_vertex_shader(Some(vs)).expect("set vs");
        dev.set_fvf(D3DFVF_XYZ | D3DFVF_DIFFUSE).expect("fvf");
        let vb: VertexBufferId = dev.create_vertex_buffer_with(&vertex_bytes()).expect("vb");
        dev.set_stream_source(0, Some(vb), 0, 16).expect("stream");
        let ib: IndexBufferId = dev.create_index_buffer_u16(&INDICES).expect("ib");
        dev.set_indices(Some(ib)).expect("indices");
        dev.set_vertex_shader_constant_f(0, &IDENTITY)
            .expect("constants");
        dev.clear(&[], ClearFlags::TARGET, 0xff00_0040, 1.0, 0)
            .expect("clear");
        let mut side = DeviceSide { dev, tokens };
        side.draw();
        // The triangle covers the centre in the vertices' colours; the corner is cleared.
        let data = side
            .dev
            .get_render_target_data(side.dev.back_buffer())
            .expect("readback");
        assert_eq!(data.color(1, 1), Some(0xff00_0040));
        assert_ne!(data.color(SIZE / 2, SIZE / 2), Some(0xff00_0040));
        side
    }

    fn draw(&mut self) {
        self.dev
            .draw_indexed_primitive(PrimitiveType::TriangleList, 0, 0, 3, 0, 1)
            .expect("draw");
    }

    fn wait(&self) {
        self.dev
            .gpu()
            .device()
            .poll(wgpu::PollType::wait_indefinitely())
            .expect("poll");
    }

    /// `n` draws and one flush, timed; then the GPU waited for, untimed.
    fn batch(&mut self, n: u32) -> Duration {
        let start = Instant::now();
        for _ in 0..n {
            self.draw();
        }
        self.dev.flush().expect("flush");
        let elapsed = start.elapsed();
        self.wait();
        elapsed
    }

    /// One draw with a vertex shader object made for it (a pairing and pipeline miss), and
    /// the flush, timed; creating the shader and waiting for the GPU are not.
    fn miss(&mut self) -> Duration {
        let vs = self
            .dev
            .create_vertex_shader(&self.tokens)
            .expect("vertex shader");
        self.dev.set_vertex_shader(Some(vs)).expect("set vs");
        let start = Instant::now();
        self.draw();
        self.dev.flush().expect("flush");
        let elapsed = start.elapsed();
        self.wait();
        self.dev.set_vertex_shader(None).expect("unset vs");
        self.dev.release_vertex_shader(vs).expect("release");
        elapsed
    }
}

/// The raw wgpu side: everything made beforehand on the device's wgpu device.
struct RawSide {
    device: wgpu::Device,
    queue: wgpu::Queue,
    pipeline: wgpu::RenderPipeline,
    bind_group: wgpu::BindGroup,
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
    view: wgpu::TextureView,
}

impl RawSide {
    fn new(dev: &Device) -> Self {
        use wgpu::util::DeviceExt;
        let device = dev.gpu().device().clone();
        let queue = dev.gpu().queue().clone();
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("raw"),
            source: wgpu::ShaderSource::Wgsl(Cow::Borrowed(HAND_WGSL)),
        });
        let constants = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("raw constants"),
            contents: bytemuck::cast_slice(&IDENTITY),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("raw"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            }],
        });
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("raw"),
            layout: &layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: constants.as_entire_binding(),
            }],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("raw"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let attributes = [
            wgpu::VertexAttribute {
                format: wgpu::VertexFormat::Float32x3,
                offset: 0,
                shader_location: 0,
            },
            wgpu::VertexAttribute {
                format: wgpu::VertexFormat::Unorm8x4,
                offset: 12,
                shader_location: 1,
            },
        ];
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("raw"),
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs"),
                compilation_options: Default::default(),
                buffers: &[Some(wgpu::VertexBufferLayout {
                    array_stride: 16,
                    step_mode: wgpu::VertexStepMode::Vertex,
                    attributes: &attributes,
                })],
            },
            primitive: wgpu::PrimitiveState {
                front_face: wgpu::FrontFace::Cw,
                cull_mode: Some(wgpu::Face::Back),
                ..Default::default()
            },
            depth_stencil: None,
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format: wgpu::TextureFormat::Rgba8Unorm,
                    blend: None,
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        let vertices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("raw vertices"),
            contents: &vertex_bytes(),
            usage: wgpu::BufferUsages::VERTEX,
        });
        let mut index_bytes: Vec<u8> = bytemuck::cast_slice(&INDICES).to_vec();
        index_bytes.resize(8, 0);
        let indices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("raw indices"),
            contents: &index_bytes,
            usage: wgpu::BufferUsages::INDEX,
        });
        let target = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("raw target"),
            size: wgpu::Extent3d {
                width: SIZE,
                height: SIZE,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba8Unorm,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let view = target.create_view(&Default::default());
        RawSide {
            device,
            queue,
            pipeline,
            bind_group,
            vertices,
            indices,
            view,
        }
    }

    /// `n` render passes of the draw on one encoder and one submit, timed; then the GPU
    /// waited for, untimed.
    fn batch(&self, n: u32) -> Duration {
        let start = Instant::now();
        let mut encoder = self.device.create_command_encoder(&Default::default());
        for _ in 0..n {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("raw"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &self.view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Load,
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &self.bind_group, &[]);
            pass.set_vertex_buffer(0, self.vertices.slice(..));
            pass.set_index_buffer(self.indices.slice(..), wgpu::IndexFormat::Uint16);
            pass.draw_indexed(0..3, 0, 0..1);
        }
        self.queue.submit([encoder.finish()]);
        let elapsed = start.elapsed();
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .expect("poll");
        elapsed
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The alternated rounds: hit/raw and raw (control)/raw, medians over rounds.
fn ratios(device: &mut DeviceSide, raw: &RawSide) {
    let rounds = env_u32("BENCH_ROUNDS", 15);
    let draws = env_u32("BENCH_DRAWS", 500);
    // Warm-up: caches filled, lazily made wgpu objects made.
    device.batch(draws);
    raw.batch(draws);
    let (mut hit, mut base, mut control) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds {
        let mut times = [0.0f64; 3];
        for k in 0..3 {
            let side = (k + round as usize) % 3;
            let t = match side {
                0 => device.batch(draws),
                1 => raw.batch(draws),
                _ => raw.batch(draws),
            };
            times[side] = t.as_secs_f64() / f64::from(draws);
        }
        hit.push(times[0]);
        base.push(times[1]);
        control.push(times[2]);
    }
    let ratio = |a: &[f64], b: &[f64]| median(a.iter().zip(b).map(|(x, y)| x / y).collect());
    let (pairs, pipelines) = device.dev.cache_stats();
    eprintln!("device_draw: {rounds} rounds x {draws} draws per side, per draw (median, best):");
    for (name, t) in [("hit", &hit), ("raw", &base), ("raw (control)", &control)] {
        let best = t.iter().copied().fold(f64::INFINITY, f64::min);
        eprintln!(
            "  {name:<14} {:>8.2} us  {:>8.2} us",
            median(t.clone()) * 1e6,
            best * 1e6
        );
    }
    let best = |t: &[f64]| t.iter().copied().fold(f64::INFINITY, f64::min);
    eprintln!(
        "  hit/raw = {:.3} (target <= 1.10); raw (control)/raw = {:.3}",
        ratio(&hit, &base),
        ratio(&control, &base)
    );
    eprintln!(
        "  best hit / best raw = {:.3}; best raw (control) / best raw = {:.3}",
        best(&hit) / best(&base),
        best(&control) / best(&base)
    );
    eprintln!(
        "  caches: pairs {} hits / {} misses, pipelines {} hits / {} misses",
        pairs.hits, pairs.misses, pipelines.hits, pipelines.misses
    );
}

fn main() {
    let mut device = DeviceSide::new();
    let raw = RawSide::new(&device.dev);
    let info = device.dev.gpu().adapter_info().clone();
    eprintln!(
        "adapter: {} ({:?}, {:?}, {})",
        info.name, info.backend, info.device_type, info.driver_info
    );
    if let Ok(batches) = std::env::var("BENCH_PROFILE") {
        // For a profiler: hit draws and raw draws, no timing output.
        let batches: u32 = batches.parse().expect("BENCH_PROFILE=<batches>");
        for _ in 0..batches {
            device.batch(env_u32("BENCH_DRAWS", 500));
            raw.batch(env_u32("BENCH_DRAWS", 500));
        }
        return;
    }
    ratios(&mut device, &raw);

    let mut c = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    let batch = env_u32("BENCH_DRAWS", 500);
    let mut group = c.benchmark_group("device_draw");
    // One iteration is one draw; draws are flushed in batches.
    let per_draw = |iters: u64, f: &mut dyn FnMut(u32) -> Duration| {
        let mut total = Duration::ZERO;
        let mut left = iters;
        while left > 0 {
            let n = left.min(u64::from(batch)) as u32;
            total += f(n);
            left -= u64::from(n);
        }
        total
    };
    group.bench_function("hit", |b| {
        b.iter_custom(|iters| per_draw(iters, &mut |n| device.batch(n)))
    });
    group.bench_function("raw", |b| {
        b.iter_custom(|iters| per_draw(iters, &mut |n| raw.batch(n)))
    });
    group.sample_size(10);
    group.bench_function("miss", |b| {
        b.iter_custom(|iters| (0..iters).map(|_| device.miss()).sum())
    });
    group.finish();
    let (pairs, pipelines) = device.dev.cache_stats();
    eprintln!("caches after the bench: pairs {pairs:?}, pipelines {pipelines:?}");
    c.final_summary();
}
