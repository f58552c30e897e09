//! GPU time of the vertex stage: `shaders/point_lights.asm` and `shaders/skinned_arm.asm`
//! translated in each `FloatMode`, against the same math written by hand in WGSL
//! (`benches/hand/`, same vertex layout, constant buffers and bind group as the translation).
//! "Ieee spec" is the Ieee translation specialised on the scene's `i#` (its loops' count,
//! start and step compiled in: the overrides resolved as the device resolves them), where the
//! shader loops.
//!
//! Each draw is `BENCH_VERTICES` (default 1,000,002) non-indexed vertices whose triangles are
//! degenerate (a triangle's three vertices are the same vertex), so the rasterizer discards
//! every one and only the vertex stage costs; the bench reads the target back afterwards to
//! prove nothing was drawn. Each draw is its own render pass, timed by the pass's GPU
//! timestamps (`TIMESTAMP_QUERY`; CPU wall time of submit → completion where the adapter lacks
//! it). The variants of a shader alternate: `BENCH_ROUNDS` rounds (default 15), each drawing every
//! variant once in an order rotated per round, after two warm-up draws each. A ratio a/b is the
//! median over rounds of a's time over b's in the same round; "hand (control)" is the hand
//! shader in a second pipeline, so hand (control)/hand shows the noise floor (≈ 1.00).
//!
//! Beside them, the reference interpreter's CPU time per vertex for the same shader and
//! vertices (`interp::process_vertices`), and how many times the GPU's Legacy time it is.
//!
//! Before timing, every variant's COLOR0 is read back (through the backend's vertex probe) for
//! 64 vertices spread over the draw and compared with the hand shader's, so the hand shaders
//! compute what the translations compute (`scenes/mod.rs`, also run as the test
//! `tests/bench_shaders.rs`). Figures and how to rerun: `docs/benchmarks.md`.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use std::borrow::Cow;
use std::time::{Duration, Instant};

use d3d9_backend::device::ConstantBuffer;
use d3d9_backend::Gpu;
use d3d9_translator::decl::VertexBinding;

mod scenes;
use scenes::{check_outputs, point_lights, skinned_arm, variants, Scene, Variant, TARGET};

/// The render target's format (its size, small since nothing reaches it, is `TARGET`).
const TARGET_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
/// The fragment stage: never runs (every triangle is discarded).
const FRAGMENT: &str = "@fragment fn fs() -> @location(0) vec4<f32> { return vec4(1.0); }";
/// A device for timing: the adapter `Gpu::new` would pick, with `TIMESTAMP_QUERY` where the
/// adapter has it.
struct Timer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    info: wgpu::AdapterInfo,
    timestamps: bool,
}

impl Timer {
    fn new() -> Self {
        pollster::block_on(async {
            let instance = wgpu::Instance::new(
                wgpu::InstanceDescriptor::new_without_display_handle_from_env(),
            );
            let adapter = wgpu::util::initialize_adapter_from_env_or_default(&instance, None)
                .await
                .expect("a GPU adapter");
            let timestamps = adapter.features().contains(wgpu::Features::TIMESTAMP_QUERY);
            let (device, queue) = adapter
                .request_device(&wgpu::DeviceDescriptor {
                    label: Some("vertex_stage bench"),
                    required_features: if timestamps {
                        wgpu::Features::TIMESTAMP_QUERY
                    } else {
                        wgpu::Features::empty()
                    },
                    required_limits: adapter.limits(),
                    ..Default::default()
                })
                .await
                .expect("a device");
            Timer {
                device,
                queue,
                info: adapter.get_info(),
                timestamps,
            }
        })
    }

    fn wait(&self) {
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .expect("poll");
    }

    fn read(&self, buffer: &wgpu::Buffer) -> Vec<u8> {
        buffer
            .slice(..)
            .map_async(wgpu::MapMode::Read, |r| r.expect("map"));
        self.wait();
        let data = buffer.get_mapped_range(..).expect("mapped").to_vec();
        buffer.unmap();
        data
    }

    fn buffer(&self, data: &[u8], usage: wgpu::BufferUsages) -> wgpu::Buffer {
        use wgpu::util::DeviceExt;
        let mut contents = data.to_vec();
        contents.resize(data.len().div_ceil(16).max(1) * 16, 0);
        self.device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: None,
                contents: &contents,
                usage,
            })
    }
}

/// A scene's draw on the timing device: vertex buffer, constant buffers in one bind group, a
/// pipeline per variant.
struct Bench<'a> {
    timer: &'a Timer,
    vertices: u32,
    vertex_buffer: wgpu::Buffer,
    bind_group: wgpu::BindGroup,
    pipelines: Vec<wgpu::RenderPipeline>,
    target: wgpu::Texture,
    view: wgpu::TextureView,
    query_set: Option<wgpu::QuerySet>,
    resolve: wgpu::Buffer,
    readback: wgpu::Buffer,
}

impl<'a> Bench<'a> {
    fn new(
        timer: &'a Timer,
        scene: &Scene,
        variants: &[Variant],
        binding: &VertexBinding,
        buffers: &[ConstantBuffer],
        vertices: u32,
    ) -> Self {
        let device = &timer.device;
        let data: Vec<u8> = (0..vertices).flat_map(scene.vertex).collect();
        assert_eq!(data.len(), vertices as usize * scene.stride as usize);
        let vertex_buffer = timer.buffer(&data, wgpu::BufferUsages::VERTEX);
        let uniforms: Vec<wgpu::Buffer> = buffers
            .iter()
            .map(|b| {
                assert!(!b.storage && b.group == 0, "hardware constants in group 0");
                timer.buffer(&b.data, wgpu::BufferUsages::UNIFORM)
            })
            .collect();
        let entries: Vec<_> = buffers
            .iter()
            .map(|b| wgpu::BindGroupLayoutEntry {
                binding: b.binding,
                visibility: wgpu::ShaderStages::VERTEX,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            })
            .collect();
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: None,
            entries: &entries,
        });
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &layout,
            entries: &buffers
                .iter()
                .zip(&uniforms)
                .map(|(b, u)| wgpu::BindGroupEntry {
                    binding: b.binding,
                    resource: u.as_entire_binding(),
                })
                .collect::<Vec<_>>(),
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: None,
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let fragment = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: None,
            source: wgpu::ShaderSource::Wgsl(Cow::Borrowed(FRAGMENT)),
        });
        let stream = binding.streams.first().expect("one stream");
        assert_eq!(binding.streams.len(), 1);
        let (array_stride, step_mode, attributes) = stream.as_layout();
        let buffer_layout = wgpu::VertexBufferLayout {
            array_stride,
            step_mode,
            attributes,
        };
        let pipelines = variants
            .iter()
            .map(|v| {
                let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
                    label: Some(&v.label),
                    source: v.source(),
                });
                device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                    label: Some(&v.label),
                    layout: Some(&pipeline_layout),
                    vertex: wgpu::VertexState {
                        module: &module,
                        entry_point: None,
                        compilation_options: Default::default(),
                        buffers: &[Some(buffer_layout.clone())],
                    },
                    primitive: wgpu::PrimitiveState {
                        topology: wgpu::PrimitiveTopology::TriangleList,
                        cull_mode: Some(wgpu::Face::Back),
                        ..Default::default()
                    },
                    depth_stencil: None,
                    multisample: Default::default(),
                    fragment: Some(wgpu::FragmentState {
                        module: &fragment,
                        entry_point: None,
                        compilation_options: Default::default(),
                        targets: &[Some(TARGET_FORMAT.into())],
                    }),
                    multiview_mask: None,
                    cache: None,
                })
            })
            .collect();
        let target = device.create_texture(&wgpu::TextureDescriptor {
            label: None,
            size: wgpu::Extent3d {
                width: TARGET.0,
                height: TARGET.1,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: TARGET_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let view = target.create_view(&Default::default());
        let query_set = timer.timestamps.then(|| {
            device.create_query_set(&wgpu::QuerySetDescriptor {
                label: None,
                ty: wgpu::QueryType::Timestamp,
                count: 2,
            })
        });
        let resolve = device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: 16,
            usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        // Timestamps, or the target's texels (64 x 4 bytes a row, already aligned).
        let readback = device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: u64::from(TARGET.0 * TARGET.1 * 4),
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        Bench {
            timer,
            vertices,
            vertex_buffer,
            bind_group,
            pipelines,
            target,
            view,
            query_set,
            resolve,
            readback,
        }
    }

    /// One draw of variant `v` in its own pass: (GPU time between the pass's timestamps, or
    /// the wall time without timestamps; wall time from submit to completion).
    fn draw(&self, v: usize) -> (Duration, Duration) {
        let mut encoder = self
            .timer
            .device
            .create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: None,
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &self.view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: self.query_set.as_ref().map(|query_set| {
                    wgpu::RenderPassTimestampWrites {
                        query_set,
                        beginning_of_pass_write_index: Some(0),
                        end_of_pass_write_index: Some(1),
                    }
                }),
                occlusion_query_set: None,
                multiview_mask: None,
            });
            pass.set_pipeline(&self.pipelines[v]);
            pass.set_bind_group(0, &self.bind_group, &[]);
            pass.set_vertex_buffer(0, self.vertex_buffer.slice(..));
            pass.draw(0..self.vertices, 0..1);
        }
        if let Some(query_set) = &self.query_set {
            encoder.resolve_query_set(query_set, 0..2, &self.resolve, 0);
            encoder.copy_buffer_to_buffer(&self.resolve, 0, &self.readback, 0, 16);
        }
        let start = Instant::now();
        self.timer.queue.submit([encoder.finish()]);
        if self.query_set.is_none() {
            self.timer.wait();
            let wall = start.elapsed();
            return (wall, wall);
        }
        let data = self.timer.read(&self.readback);
        let wall = start.elapsed();
        let stamp = |i: usize| u64::from_le_bytes(data[i * 8..i * 8 + 8].try_into().expect("8"));
        let ticks = stamp(1).saturating_sub(stamp(0));
        let period = f64::from(self.timer.queue.get_timestamp_period());
        (Duration::from_secs_f64(ticks as f64 * period * 1e-9), wall)
    }

    /// The target after a draw: still the clear colour (every triangle was discarded).
    fn assert_nothing_drawn(&self) {
        let mut encoder = self
            .timer
            .device
            .create_command_encoder(&Default::default());
        encoder.copy_texture_to_buffer(
            self.target.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &self.readback,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(TARGET.0 * 4),
                    rows_per_image: Some(TARGET.1),
                },
            },
            wgpu::Extent3d {
                width: TARGET.0,
                height: TARGET.1,
                depth_or_array_layers: 1,
            },
        );
        self.timer.queue.submit([encoder.finish()]);
        let texels = self.timer.read(&self.readback);
        assert!(
            texels.chunks(4).all(|t| t == [0, 0, 0, 0]),
            "a triangle reached the target"
        );
    }
}

fn env_number(name: &str, default: u32) -> u32 {
    match std::env::var(name) {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v}: not a number")),
        Err(_) => default,
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).expect("comparable"));
    v[v.len() / 2]
}

fn run(timer: &Timer, scene: &Scene, vertices: u32, rounds: u32) {
    let (variants, binding, buffers) = variants(scene);
    let gpu = Gpu::new().expect("a GPU adapter for the output check");
    check_outputs(scene, &variants, &binding, &buffers, &gpu);
    drop(gpu);
    let bench = Bench::new(timer, scene, &variants, &binding, &buffers, vertices);
    for v in 0..variants.len() {
        for _ in 0..2 {
            bench.draw(v);
        }
    }
    bench.assert_nothing_drawn();
    // times[v][round], wall[v][round]
    let mut times = vec![Vec::new(); variants.len()];
    let mut wall = vec![Vec::new(); variants.len()];
    for round in 0..rounds as usize {
        for k in 0..variants.len() {
            let v = (k + round) % variants.len();
            let (t, w) = bench.draw(v);
            times[v].push(t.as_secs_f64());
            wall[v].push(w.as_secs_f64());
        }
    }
    println!("{}: {vertices} vertices, {rounds} rounds", scene.name);
    let interpreted = interpreter_ns_per_vertex(scene);
    for ((v, t), w) in variants.iter().zip(&times).zip(&wall) {
        let best = t.iter().copied().fold(f64::INFINITY, f64::min);
        println!(
            "  {:<16} median {:>8.2} ms  best {:>8.2} ms  ({:.1} ns/vertex; wall median {:.2} ms)",
            v.label,
            median(t.clone()) * 1e3,
            best * 1e3,
            median(t.clone()) * 1e9 / f64::from(vertices),
            median(w.clone()) * 1e3,
        );
    }
    if let Some(legacy) = variants.iter().position(|v| v.label == "Legacy") {
        let gpu = median(times[legacy].clone()) * 1e9 / f64::from(vertices);
        println!(
            "  {:<16} {:>8.1} ns/vertex ({:.2} M vertices/s; {:.0}× the GPU's Legacy time per vertex)",
            "interpreter",
            interpreted,
            1e3 / interpreted,
            interpreted / gpu
        );
    }
    let index = |label: &str| variants.iter().position(|v| v.label == label);
    let mut pairs = vec![
        ("Legacy", "Ieee", "≤ 1.20"),
        ("LegacyStrict", "Ieee", ""),
        ("Ieee", "hand", "≤ 1.10"),
        ("hand (control)", "hand", "≈ 1.00"),
    ];
    if index("Ieee spec").is_some() {
        pairs.push(("Ieee spec", "hand", "≤ 1.10"));
        pairs.push(("Ieee spec", "Ieee", ""));
    }
    if index("hand aL").is_some() {
        pairs.push(("Ieee", "hand aL", ""));
        pairs.push(("hand aL", "hand", ""));
    }
    for (a, b, target) in pairs {
        let (Some(a_i), Some(b_i)) = (index(a), index(b)) else {
            continue;
        };
        let ratios: Vec<f64> = times[a_i]
            .iter()
            .zip(&times[b_i])
            .map(|(x, y)| x / y)
            .collect();
        let best = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
        println!(
            "  {:<28} {:>5.2}×  (best/best {:.2}×){}",
            format!("{a} / {b}"),
            median(ratios),
            best(&times[a_i]) / best(&times[b_i]),
            if target.is_empty() {
                String::new()
            } else {
                format!("   target {target}")
            }
        );
    }
}

/// CPU time per vertex of the reference interpreter (`interp::process_vertices`, Legacy) over
/// the scene's first `INTERPRETED_VERTICES` vertices, fetched through its declaration: the
/// best of three runs.
fn interpreter_ns_per_vertex(scene: &Scene) -> f64 {
    use d3d9_translator::interp::{process_vertices, Constants, Stream};
    const INTERPRETED_VERTICES: u32 = 30_000;
    let program = d3d9_translator::asm::assemble(scene.asm).expect("assembles");
    let checked = d3d9_translator::check::check(
        &program,
        d3d9_translator::bytecode::Stage::Vertex,
        &d3d9_translator::check::DeviceCaps::default(),
    )
    .expect("checks");
    let data: Vec<u8> = (0..INTERPRETED_VERTICES).flat_map(scene.vertex).collect();
    let constants = Constants {
        floats: scene.constants.floats.clone(),
        ints: scene.constants.ints.clone(),
        bools: scene.constants.bools.clone(),
    };
    let stream = Stream {
        data: &data,
        offset: 0,
        stride: scene.stride,
    };
    let mut best = f64::INFINITY;
    for _ in 0..3 {
        let start = Instant::now();
        let out = process_vertices(
            &checked,
            &scene.declaration,
            &[stream],
            &constants,
            0,
            INTERPRETED_VERTICES,
            d3d9_translator::lift::FloatMode::Legacy,
        )
        .expect("interprets");
        assert_eq!(out.len(), INTERPRETED_VERTICES as usize);
        best = best.min(start.elapsed().as_secs_f64());
    }
    best * 1e9 / f64::from(INTERPRETED_VERTICES)
}

fn main() {
    let vertices = env_number("BENCH_VERTICES", 1_000_002) / 3 * 3;
    let rounds = env_number("BENCH_ROUNDS", 15).max(1);
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let timer = Timer::new();
    println!(
        "adapter: {} ({:?}, {:?}, driver {} {}); timing: {}",
        timer.info.name,
        timer.info.backend,
        timer.info.device_type,
        timer.info.driver,
        timer.info.driver_info,
        if timer.timestamps {
            "render pass timestamps"
        } else {
            "wall time of submit → completion (no TIMESTAMP_QUERY)"
        }
    );
    for scene in [point_lights(), skinned_arm()] {
        if filter.is_empty() || filter.iter().any(|f| scene.name.contains(f.as_str())) {
            run(&timer, &scene, vertices, rounds);
        }
    }
}
