//! CPU cost of a game-like frame of changing draws, three ways in one run: the D3D9-style
//! [`Device`], libd3d9's C ABI called from C, and raw wgpu doing the same work well.
//!
//! The frame (issue 29, item 1): 2,000 draws of a 12-triangle indexed cube (one vertex buffer
//! of 8 vertices, FLOAT3 position, D3DCOLOR diffuse, FLOAT2 texture coordinate; 36 16-bit
//! indices) into a 128x128 X8R8G8B8 target with a D24S8 depth buffer.
//! - every draw sets its world matrix: `SetVertexShaderConstantF(0, m, 4)`;
//! - every 8th draw binds another of 8 textures (16x16 A8R8G8B8): `SetTexture(0, t)`;
//! - every 64th draw sets another of 4 shader pairs (vs_2_0 `m4x4 oPos, v0, c0`, ps_2_0
//!   `texld` times diffuse times a `def` constant that differs per pair) and one render state:
//!   `D3DRS_ALPHABLENDENABLE` on even groups of 64, `D3DRS_ZFUNC` on odd ones. The states at
//!   each draw depend only on the draw's index, so every frame is the same frame.
//!
//! The sides:
//! - **device**: the calls above on [`Device`], then [`Device::flush`] (the submit).
//! - **C ABI**: `frame.c` (beside this file), compiled at run time with the project's compile
//!   line against libd3d9.so and run as a child process; it makes the same calls through the
//!   COM vtables, ends the frame with an event query flushed (`GetData(D3DGETDATA_FLUSH)`,
//!   which is `Device::flush`), and times itself (`CLOCK_MONOTONIC`). It looks for
//!   libd3d9.so in `D3D9_LIB_DIR`, else beside the bench's own folder (`target/release`, put
//!   there by `cargo build --release -p d3d9-capi`); without it or without `cc`, the bench
//!   says so and times the two other sides.
//! - **raw**: the same frame with wgpu on the device's wgpu device, as a renderer written for
//!   wgpu would do it: the 16 pipelines (4 pairs x blend x depth function) and the 8 texture
//!   bind groups built beforehand, one render pass for the frame, the vertex and index
//!   buffers set once, each draw's matrix copied into one uniform ring (256-byte slots) bound
//!   with a dynamic offset, the pipeline and texture group set only where they change, the
//!   ring written with one `Queue::write_buffer`, one submit. Its WGSL is written by hand to
//!   compute what the translated pair computes. With `BENCH_RAW_INSTANCE` set, raw instead
//!   reads each matrix from a 64 KiB window of the ring at the draw's first instance, bound
//!   anew every 1,024 draws, as the device's constants window does (no `set_bind_group` per
//!   draw): a second baseline, the way a wgpu renderer tuned for this would draw.
//!
//! Timed per side: the frame's calls and the submit, from the first call to the submit's
//! return; the GPU is waited for afterwards, untimed. Before timing, each side draws one frame
//! on a cleared target and the bench compares the pictures: the C ABI's hash must equal the
//! device's; raw wgpu's pixels (with D3D9's half-pixel offset in its viewport, as the device
//! has it) must be within 8 of the device's in each channel on all but 2 % of the pixels.
//!
//! `BENCH_ROUNDS` rounds (default 24), each timing one frame of every side, the rounds going
//! through the 24 orders of the four sides, each timed frame right after `BENCH_WARM`
//! (default 1) untimed frames of the same side; "raw (control)" is raw timed a second time
//! per round, so raw (control)/raw shows the noise floor. A ratio is the median over rounds of the two sides'
//! frames in the same round. `BENCH_PROFILE=<frames>` draws two frames of the device and raw
//! sides, then that many more (the function `profiled`), untimed, for callgrind; `frame.c`'s
//! `profile` command does the same for the C side. A frame's instructions are the difference
//! of `DeviceSide::frame`'s (`RawSide::frame`'s, `frame.c`'s `frame`) inclusive cost between
//! two runs with different `frames`, which leaves out setup and first-use costs. Commands and
//! figures: `docs/benchmarks.md`.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

mod cube;
use cube::{
    env_u32, hash_pixels, median, texel_bytes, world_registers, CLEAR_COLOUR, CUBE_COLOURS,
    CUBE_INDICES, TEXTURES, TEX_SIZE,
};
use std::borrow::Cow;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use d3d9_backend::device::{
    Blend, ClearFlags, CompareFunction, Device, DeviceParams, Format, PixelShaderId, PrimitiveType,
    RenderState, TextureId, VertexShaderId,
};
use d3d9_translator::asm::assemble_tokens;
use d3d9_translator::bytecode::Usage;
use d3d9_translator::decl::{DeclType, VertexElement};

const SIZE: u32 = 128;
const DRAWS: usize = 2000;
const PAIRS: usize = 4;
/// Bytes between two draws' matrices in the raw side's ring (wgpu's default
/// `min_uniform_buffer_offset_alignment`).
const RING_STRIDE: usize = 256;

/// The `def` constant of each pair's vertex shader (`c8`, multiplies the diffuse colour) and
/// pixel shader (`c0`, multiplies the result). The same tables are in `frame.c`.
const VS_DEF: [[f32; 4]; PAIRS] = [
    [1.0, 0.75, 0.5, 1.0],
    [0.5, 1.0, 0.75, 1.0],
    [0.75, 0.5, 1.0, 1.0],
    [1.0, 1.0, 1.0, 1.0],
];
const PS_DEF: [[f32; 4]; PAIRS] = [
    [0.5, 1.0, 0.8, 1.0],
    [1.0, 0.5, 1.0, 1.0],
    [0.8, 0.8, 0.5, 1.0],
    [1.0, 1.0, 1.0, 0.75],
];

fn vs_asm(k: usize) -> String {
    let [a, b, c, d] = VS_DEF[k];
    format!(
        "vs_2_0\ndef c8, {a:?}, {b:?}, {c:?}, {d:?}\ndcl_position v0\ndcl_color v1\n\
         dcl_texcoord v2\nm4x4 oPos, v0, c0\nmul oD0, v1, c8\nmov oT0, v2\n"
    )
}

fn ps_asm(k: usize) -> String {
    let [a, b, c, d] = PS_DEF[k];
    format!(
        "ps_2_0\ndef c0, {a:?}, {b:?}, {c:?}, {d:?}\ndcl t0.xy\ndcl v0\ndcl_2d s0\n\
         texld r0, t0, s0\nmul r0, r0, v0\nmul r0, r0, c0\nmov oC0, r0\n"
    )
}

/// Whether raw wgpu reads each draw's matrix at its first instance (`BENCH_RAW_INSTANCE`
/// set: the device's way since its constants window) rather than at a dynamic offset per
/// draw (the issue's baseline, the default).
fn first_instance() -> bool {
    std::env::var_os("BENCH_RAW_INSTANCE").is_some()
}

/// Bytes of raw's window of matrices with `first_instance` (one binding, 1024 matrices).
const WINDOW_BYTES: usize = 64 << 10;
/// Bytes of a matrix in raw's window.
const MATRIX_BYTES: usize = 64;

/// Pair `k` by hand: `c0..c3` applied as `m4x4` does (one dp4 per register), the diffuse
/// D3DCOLOR (bytes B, G, R, A) swizzled to RGBA, times `c8`, saturated as D3D9 interpolates
/// colours; the texel times the colour times the pixel shader's `c0`. With `first_instance`,
/// the matrix is the window's at the instance index.
fn hand_wgsl(k: usize) -> String {
    let v = |c: [f32; 4]| format!("vec4<f32>({:?}, {:?}, {:?}, {:?})", c[0], c[1], c[2], c[3]);
    format!(
        r#"
@group(0) @binding(0) var<uniform> c: array<vec4<f32>, {n}>;
@group(1) @binding(0) var tex: texture_2d<f32>;
@group(1) @binding(1) var samp: sampler;
struct Out {{ @builtin(position) pos: vec4<f32>, @location(0) colour: vec4<f32>, @location(1) uv: vec4<f32> }};
@vertex fn vs(@location(0) p: vec3<f32>, @location(1) d: vec4<f32>, @location(2) uv: vec2<f32>, @builtin(instance_index) ii: u32) -> Out {{
    let v = vec4(p, 1.0);
    let b = {base};
    let pos = vec4(dot(v, c[b]), dot(v, c[b + 1u]), dot(v, c[b + 2u]), dot(v, c[b + 3u]));
    return Out(pos, clamp(d.zyxw * {vs}, vec4(0.0), vec4(1.0)), vec4(uv, 0.0, 1.0));
}}
@fragment fn fs(i: Out) -> @location(0) vec4<f32> {{
    return textureSample(tex, samp, i.uv.xy) * i.colour * {ps};
}}
"#,
        vs = v(VS_DEF[k]),
        ps = v(PS_DEF[k]),
        n = match first_instance() {
            true => WINDOW_BYTES / 16,
            false => 4,
        },
        base = match first_instance() {
            true => "ii * 4u",
            false => "0u",
        },
    )
}

/// The cube's 8 vertices: x, y, z, D3DCOLOR, u, v (24 bytes each).
fn vertex_bytes() -> Vec<u8> {
    let mut out = Vec::new();
    for i in 0..8u32 {
        let half = |bit: u32| if i & bit != 0 { 0.5f32 } else { -0.5 };
        for f in [half(1), half(2), half(4)] {
            out.extend_from_slice(&f.to_le_bytes());
        }
        out.extend_from_slice(&CUBE_COLOURS[i as usize].to_le_bytes());
        for f in [(i & 1) as f32, ((i >> 1) & 1) as f32] {
            out.extend_from_slice(&f.to_le_bytes());
        }
    }
    out
}

/// The render states in force at each group of 64 draws: (pair, blending on, depth function).
fn group_states() -> Vec<(usize, bool, CompareFunction)> {
    let (mut blend, mut zfunc) = (false, CompareFunction::LessEqual);
    (0..DRAWS.div_ceil(64))
        .map(|k| {
            if k % 2 == 0 {
                blend = (k / 2) % 2 == 1;
            } else {
                zfunc = if (k / 2) % 2 == 1 {
                    CompareFunction::LessEqual
                } else {
                    CompareFunction::Always
                };
            }
            (k % PAIRS, blend, zfunc)
        })
        .collect()
}

struct DeviceSide {
    dev: Device,
    vs: Vec<VertexShaderId>,
    ps: Vec<PixelShaderId>,
    textures: Vec<TextureId>,
    world: Vec<[[f32; 4]; 4]>,
}

impl DeviceSide {
    fn new() -> Self {
        let mut dev = Device::new(DeviceParams {
            back_buffer: (SIZE, SIZE, Format::X8R8G8B8),
            auto_depth_stencil: Some(Format::D24S8),
            ..DeviceParams::default()
        })
        .expect("a GPU adapter");
        let vs = (0..PAIRS)
            .map(|k| {
                let tokens = assemble_tokens(&vs_asm(k)).expect("assembles");
                dev.create_vertex_shader(&tokens).expect("vertex shader")
            })
            .collect();
        let ps = (0..PAIRS)
            .map(|k| {
                let tokens = assemble_tokens(&ps_asm(k)).expect("assembles");
                dev.create_pixel_shader(&tokens).expect("pixel shader")
            })
            .collect();
        let decl = dev
            .create_vertex_declaration(&[
                VertexElement::new(0, 0, DeclType::Float3, Usage::Position, 0),
                VertexElement::new(0, 12, DeclType::D3DColor, Usage::Color, 0),
                VertexElement::new(0, 16, DeclType::Float2, Usage::TexCoord, 0),
            ])
            .expect("declaration");
        dev.set_vertex_declaration(Some(decl)).expect("declaration");
        let vb = dev
            .create_vertex_buffer_with(&vertex_bytes())
            .expect("vertex buffer");
        dev.set_stream_source(0, Some(vb), 0, 24).expect("stream");
        let ib = dev
            .create_index_buffer_u16(&CUBE_INDICES)
            .expect("index buffer");
        dev.set_indices(Some(ib)).expect("indices");
        let textures = (0..TEXTURES)
            .map(|k| {
                let t = dev
                    .create_texture(TEX_SIZE, TEX_SIZE, 1, Format::A8R8G8B8)
                    .expect("texture");
                dev.update_texture(t, 0, &texel_bytes(k)).expect("texels");
                t
            })
            .collect();
        dev.set_render_state(RenderState::SrcBlend(Blend::SrcAlpha))
            .expect("blend");
        dev.set_render_state(RenderState::DestBlend(Blend::InvSrcAlpha))
            .expect("blend");
        DeviceSide {
            dev,
            vs,
            ps,
            textures,
            world: (0..DRAWS).map(world_registers).collect(),
        }
    }

    /// The frame's calls and the flush.
    #[inline(never)]
    fn frame(&mut self) {
        let dev = &mut self.dev;
        for (i, world) in self.world.iter().enumerate() {
            if i % 64 == 0 {
                let k = i / 64;
                dev.set_vertex_shader(Some(self.vs[k % PAIRS])).expect("vs");
                dev.set_pixel_shader(Some(self.ps[k % PAIRS])).expect("ps");
                let state = if k % 2 == 0 {
                    RenderState::AlphaBlendEnable((k / 2) % 2 == 1)
                } else if (k / 2) % 2 == 1 {
                    RenderState::ZFunc(CompareFunction::LessEqual)
                } else {
                    RenderState::ZFunc(CompareFunction::Always)
                };
                dev.set_render_state(state).expect("render state");
            }
            if i % 8 == 0 {
                dev.set_texture(0, Some(self.textures[(i / 8) % TEXTURES]))
                    .expect("texture");
            }
            dev.set_vertex_shader_constant_f(0, world)
                .expect("constants");
            dev.draw_indexed_primitive(PrimitiveType::TriangleList, 0, 0, 8, 0, 12)
                .expect("draw");
        }
        dev.flush().expect("flush");
    }

    fn wait(&self) {
        self.dev
            .gpu()
            .device()
            .poll(wgpu::PollType::wait_indefinitely())
            .expect("poll");
    }

    fn timed(&mut self) -> Duration {
        let start = Instant::now();
        self.frame();
        let elapsed = start.elapsed();
        self.wait();
        elapsed
    }

    /// The frame on a cleared target, read back: (hash, pixels).
    fn picture(&mut self) -> (u32, Vec<u32>) {
        let flags = ClearFlags {
            target: true,
            zbuffer: true,
            stencil: false,
        };
        self.dev
            .clear(&[], flags, CLEAR_COLOUR, 1.0, 0)
            .expect("clear");
        self.frame();
        let data = self
            .dev
            .get_render_target_data(self.dev.back_buffer())
            .expect("readback");
        let pixels: Vec<u32> = (0..SIZE * SIZE)
            .map(|p| data.color(p % SIZE, p / SIZE).expect("pixel"))
            .collect();
        (hash_pixels(pixels.iter().copied()), pixels)
    }
}

/// The raw wgpu side: everything made beforehand on the device's wgpu device.
struct RawSide {
    device: wgpu::Device,
    queue: wgpu::Queue,
    /// Indexed by `pair * 4 + blend * 2 + (depth function is ALWAYS)`.
    pipelines: Vec<wgpu::RenderPipeline>,
    /// Each group of 64 draws' index into `pipelines`.
    plan: Vec<usize>,
    texture_groups: Vec<wgpu::BindGroup>,
    ring: wgpu::Buffer,
    ring_group: wgpu::BindGroup,
    staging: Vec<u8>,
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
    target: wgpu::Texture,
    view: wgpu::TextureView,
    depth: wgpu::TextureView,
    world: Vec<[[f32; 4]; 4]>,
    /// See [`first_instance`].
    first_instance: bool,
}

impl RawSide {
    fn new(dev: &Device) -> Self {
        use wgpu::util::DeviceExt;
        let device = dev.gpu().device().clone();
        let queue = dev.gpu().queue().clone();
        let binding_size = match first_instance() {
            true => WINDOW_BYTES,
            false => MATRIX_BYTES,
        } as u64;
        // Room for the last draw's binding either way.
        let ring_size = (DRAWS * RING_STRIDE).max(2 * WINDOW_BYTES);
        let ring_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("raw ring"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: true,
                    min_binding_size: wgpu::BufferSize::new(binding_size),
                },
                count: None,
            }],
        });
        let texture_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("raw texture"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: true },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
            ],
        });
        let ring = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("raw ring"),
            size: ring_size as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let ring_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("raw ring"),
            layout: &ring_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: &ring,
                    offset: 0,
                    size: wgpu::BufferSize::new(binding_size),
                }),
            }],
        });
        // D3D9's default sampler: point filtering, wrap.
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            address_mode_u: wgpu::AddressMode::Repeat,
            address_mode_v: wgpu::AddressMode::Repeat,
            ..Default::default()
        });
        let texture_groups = (0..TEXTURES)
            .map(|k| {
                let texture = device.create_texture_with_data(
                    &queue,
                    &wgpu::TextureDescriptor {
                        label: Some("raw texture"),
                        size: wgpu::Extent3d {
                            width: TEX_SIZE,
                            height: TEX_SIZE,
                            depth_or_array_layers: 1,
                        },
                        mip_level_count: 1,
                        sample_count: 1,
                        dimension: wgpu::TextureDimension::D2,
                        format: wgpu::TextureFormat::Bgra8Unorm,
                        usage: wgpu::TextureUsages::TEXTURE_BINDING,
                        view_formats: &[],
                    },
                    wgpu::util::TextureDataOrder::LayerMajor,
                    &texel_bytes(k),
                );
                let view = texture.create_view(&Default::default());
                device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("raw texture"),
                    layout: &texture_layout,
                    entries: &[
                        wgpu::BindGroupEntry {
                            binding: 0,
                            resource: wgpu::BindingResource::TextureView(&view),
                        },
                        wgpu::BindGroupEntry {
                            binding: 1,
                            resource: wgpu::BindingResource::Sampler(&sampler),
                        },
                    ],
                })
            })
            .collect();
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("raw"),
            bind_group_layouts: &[Some(&ring_layout), Some(&texture_layout)],
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
            wgpu::VertexAttribute {
                format: wgpu::VertexFormat::Float32x2,
                offset: 16,
                shader_location: 2,
            },
        ];
        let alpha_blend = wgpu::BlendComponent {
            src_factor: wgpu::BlendFactor::SrcAlpha,
            dst_factor: wgpu::BlendFactor::OneMinusSrcAlpha,
            operation: wgpu::BlendOperation::Add,
        };
        let mut pipelines = Vec::new();
        for k in 0..PAIRS {
            let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some("raw"),
                source: wgpu::ShaderSource::Wgsl(Cow::Owned(hand_wgsl(k))),
            });
            for blend in [false, true] {
                for always in [false, true] {
                    pipelines.push(device.create_render_pipeline(
                        &wgpu::RenderPipelineDescriptor {
                            label: Some("raw"),
                            layout: Some(&layout),
                            vertex: wgpu::VertexState {
                                module: &module,
                                entry_point: Some("vs"),
                                compilation_options: Default::default(),
                                buffers: &[Some(wgpu::VertexBufferLayout {
                                    array_stride: 24,
                                    step_mode: wgpu::VertexStepMode::Vertex,
                                    attributes: &attributes,
                                })],
                            },
                            primitive: wgpu::PrimitiveState {
                                front_face: wgpu::FrontFace::Cw,
                                cull_mode: Some(wgpu::Face::Back),
                                ..Default::default()
                            },
                            depth_stencil: Some(wgpu::DepthStencilState {
                                format: wgpu::TextureFormat::Depth24PlusStencil8,
                                depth_write_enabled: Some(true),
                                depth_compare: Some(if always {
                                    wgpu::CompareFunction::Always
                                } else {
                                    wgpu::CompareFunction::LessEqual
                                }),
                                stencil: Default::default(),
                                bias: Default::default(),
                            }),
                            multisample: Default::default(),
                            fragment: Some(wgpu::FragmentState {
                                module: &module,
                                entry_point: Some("fs"),
                                compilation_options: Default::default(),
                                targets: &[Some(wgpu::ColorTargetState {
                                    format: wgpu::TextureFormat::Bgra8Unorm,
                                    blend: blend.then_some(wgpu::BlendState {
                                        color: alpha_blend,
                                        alpha: alpha_blend,
                                    }),
                                    write_mask: wgpu::ColorWrites::ALL,
                                })],
                            }),
                            multiview_mask: None,
                            cache: None,
                        },
                    ));
                }
            }
        }
        let plan = group_states()
            .into_iter()
            .map(|(pair, blend, zfunc)| {
                pair * 4 + usize::from(blend) * 2 + usize::from(zfunc == CompareFunction::Always)
            })
            .collect();
        let vertices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("raw vertices"),
            contents: &vertex_bytes(),
            usage: wgpu::BufferUsages::VERTEX,
        });
        let indices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("raw indices"),
            contents: bytemuck::cast_slice(&CUBE_INDICES),
            usage: wgpu::BufferUsages::INDEX,
        });
        let extent = wgpu::Extent3d {
            width: SIZE,
            height: SIZE,
            depth_or_array_layers: 1,
        };
        let target = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("raw target"),
            size: extent,
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Bgra8Unorm,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let view = target.create_view(&Default::default());
        let depth = device
            .create_texture(&wgpu::TextureDescriptor {
                label: Some("raw depth"),
                size: extent,
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: wgpu::TextureFormat::Depth24PlusStencil8,
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                view_formats: &[],
            })
            .create_view(&Default::default());
        RawSide {
            device,
            queue,
            pipelines,
            plan,
            texture_groups,
            ring,
            ring_group,
            staging: vec![0; ring_size],
            first_instance: first_instance(),
            vertices,
            indices,
            target,
            view,
            depth,
            world: (0..DRAWS).map(world_registers).collect(),
        }
    }

    /// The frame's pass, the ring written, one submit; `clear` clears target and depth first.
    #[inline(never)]
    fn frame(&mut self, clear: bool) {
        let mut encoder = self.device.create_command_encoder(&Default::default());
        {
            let (colour_load, depth_load) = if clear {
                let [_, r, g, b] = CLEAR_COLOUR.to_be_bytes().map(|c| f64::from(c) / 255.0);
                (
                    wgpu::LoadOp::Clear(wgpu::Color { r, g, b, a: 1.0 }),
                    wgpu::LoadOp::Clear(1.0),
                )
            } else {
                (wgpu::LoadOp::Load, wgpu::LoadOp::Load)
            };
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("raw frame"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &self.view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: colour_load,
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &self.depth,
                    depth_ops: Some(wgpu::Operations {
                        load: depth_load,
                        store: wgpu::StoreOp::Store,
                    }),
                    stencil_ops: None,
                }),
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            // D3D9's pixel centres, as the device places them (its half-pixel offset).
            pass.set_viewport(0.5, 0.5, SIZE as f32, SIZE as f32, 0.0, 1.0);
            pass.set_vertex_buffer(0, self.vertices.slice(..));
            pass.set_index_buffer(self.indices.slice(..), wgpu::IndexFormat::Uint16);
            for (i, world) in self.world.iter().enumerate() {
                if i % 64 == 0 {
                    pass.set_pipeline(&self.pipelines[self.plan[i / 64]]);
                }
                if i % 8 == 0 {
                    pass.set_bind_group(1, &self.texture_groups[(i / 8) % TEXTURES], &[]);
                }
                let world: &[u8] = bytemuck::cast_slice(world);
                if self.first_instance {
                    // A new window every 1024 matrices; the draw's first instance says
                    // which of its matrices is the draw's.
                    let per_window = WINDOW_BYTES / MATRIX_BYTES;
                    let offset = i * MATRIX_BYTES;
                    self.staging[offset..offset + MATRIX_BYTES].copy_from_slice(world);
                    if i % per_window == 0 {
                        pass.set_bind_group(0, &self.ring_group, &[offset as u32]);
                    }
                    let first = (i % per_window) as u32;
                    pass.draw_indexed(0..36, 0, first..first + 1);
                } else {
                    let offset = i * RING_STRIDE;
                    self.staging[offset..offset + MATRIX_BYTES].copy_from_slice(world);
                    pass.set_bind_group(0, &self.ring_group, &[offset as u32]);
                    pass.draw_indexed(0..36, 0, 0..1);
                }
            }
        }
        self.queue.write_buffer(&self.ring, 0, &self.staging);
        self.queue.submit([encoder.finish()]);
    }

    fn wait(&self) {
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .expect("poll");
    }

    fn timed(&mut self) -> Duration {
        let start = Instant::now();
        self.frame(false);
        let elapsed = start.elapsed();
        self.wait();
        elapsed
    }

    /// The frame on a cleared target, read back as D3DCOLORs.
    fn picture(&mut self) -> Vec<u32> {
        self.frame(true);
        let row = (SIZE * 4).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
        let buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("raw readback"),
            size: u64::from(row * SIZE),
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let mut encoder = self.device.create_command_encoder(&Default::default());
        encoder.copy_texture_to_buffer(
            self.target.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(row),
                    rows_per_image: None,
                },
            },
            wgpu::Extent3d {
                width: SIZE,
                height: SIZE,
                depth_or_array_layers: 1,
            },
        );
        self.queue.submit([encoder.finish()]);
        buffer
            .slice(..)
            .map_async(wgpu::MapMode::Read, |r| r.expect("map"));
        self.wait();
        let bytes = buffer.slice(..).get_mapped_range().expect("mapped");
        (0..SIZE * SIZE)
            .map(|p| {
                let at = ((p / SIZE) * row + (p % SIZE) * 4) as usize;
                u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
            })
            .collect()
    }
}

/// `frame.c` compiled against libd3d9.so and running, answering one line per command.
struct CSide {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl CSide {
    /// The folder holding libd3d9.so: `D3D9_LIB_DIR`, else `target/release` (the folder above
    /// this bench's `deps`).
    fn library_dir() -> Option<PathBuf> {
        let dir = match std::env::var_os("D3D9_LIB_DIR") {
            Some(dir) => PathBuf::from(dir),
            None => std::env::current_exe()
                .ok()?
                .parent()?
                .parent()?
                .to_path_buf(),
        };
        dir.join("libd3d9.so").is_file().then_some(dir)
    }

    /// Compiles `frame.c` (the README's compile line, `-O2`) and starts it; `None`, having
    /// said why, where libd3d9.so or the compiler is missing.
    fn start() -> Option<CSide> {
        let Some(lib) = CSide::library_dir() else {
            eprintln!(
                "C ABI side skipped: no libd3d9.so (run `cargo build --release -p d3d9-capi`, \
                 or set D3D9_LIB_DIR)"
            );
            return None;
        };
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
        let exe = Path::new(env!("CARGO_TARGET_TMPDIR")).join("frame_c");
        let compiler = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
        let mut cmd = Command::new(&compiler);
        cmd.args([
            "-std=gnu11",
            "-O2",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-g",
            "-I",
        ])
        .arg(manifest.join("../capi/include"))
        .args(["-idirafter", "/usr/share/mingw-w64/include"])
        .arg(manifest.join("benches/frame.c"))
        .arg("-o")
        .arg(&exe)
        .arg("-L")
        .arg(&lib)
        .args(["-ld3d9", "-lm"])
        .arg(format!("-Wl,-rpath,{}", lib.display()));
        match cmd.output() {
            Ok(out) if out.status.success() => {}
            Ok(out) => panic!("{cmd:?} failed:\n{}", String::from_utf8_lossy(&out.stderr)),
            Err(e) => {
                eprintln!("C ABI side skipped: {compiler}: {e}");
                return None;
            }
        }
        eprintln!(
            "C ABI side: {} against {}",
            exe.display(),
            lib.join("libd3d9.so").display()
        );
        let mut child = Command::new(&exe)
            .env("LD_LIBRARY_PATH", &lib)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{}: {e}", exe.display()));
        let input = child.stdin.take().expect("stdin");
        let output = BufReader::new(child.stdout.take().expect("stdout"));
        let mut side = CSide {
            child,
            input,
            output,
        };
        assert_eq!(side.read_line(), "ready");
        Some(side)
    }

    fn read_line(&mut self) -> String {
        let mut line = String::new();
        self.output.read_line(&mut line).expect("frame_c output");
        assert!(!line.is_empty(), "frame_c ended");
        line.trim().to_string()
    }

    fn command(&mut self, command: &str) -> String {
        writeln!(self.input, "{command}").expect("frame_c input");
        self.input.flush().expect("frame_c input");
        self.read_line()
    }

    fn timed(&mut self) -> Duration {
        self.timed_after(0)
    }

    /// One frame timed after `warm` untimed ones, all in the child (`frame N`).
    fn timed_after(&mut self, warm: u32) -> Duration {
        let ns: u64 = self
            .command(&format!("frame {warm}"))
            .parse()
            .expect("nanoseconds");
        Duration::from_nanos(ns)
    }

    fn picture_hash(&mut self) -> u32 {
        u32::from_str_radix(&self.command("check"), 16).expect("hex hash")
    }
}

impl Drop for CSide {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        let _ = self.child.wait();
    }
}

/// `frames` frames of each side, each waited for, for a profiler.
#[inline(never)]
fn profiled(device: &mut DeviceSide, raw: &mut RawSide, frames: u32) {
    for _ in 0..frames {
        device.frame();
        device.wait();
        raw.frame(false);
        raw.wait();
    }
}

fn main() {
    let mut device = DeviceSide::new();
    let mut raw = RawSide::new(&device.dev);
    let info = device.dev.gpu().adapter_info().clone();
    eprintln!(
        "adapter: {} ({:?}, {:?}, {})",
        info.name, info.backend, info.device_type, info.driver_info
    );
    if let Ok(frames) = std::env::var("BENCH_PROFILE") {
        let frames: u32 = frames.parse().expect("BENCH_PROFILE=<frames>");
        // Two frames first, so that pairings and pipelines exist.
        for _ in 0..2 {
            device.timed();
            raw.timed();
        }
        profiled(&mut device, &mut raw, frames);
        return;
    }

    // The pictures, which also warm every cache.
    let (device_hash, device_pixels) = device.picture();
    let raw_pixels = raw.picture();
    let close = |a: u32, b: u32| {
        a.to_le_bytes()[..3]
            .iter()
            .zip(&b.to_le_bytes()[..3])
            .all(|(x, y)| x.abs_diff(*y) <= 8)
    };
    let differing = device_pixels
        .iter()
        .zip(&raw_pixels)
        .filter(|(a, b)| !close(**a, **b))
        .count();
    let drawn = device_pixels
        .iter()
        .filter(|p| *p & 0x00ff_ffff != CLEAR_COLOUR & 0x00ff_ffff)
        .count();
    eprintln!(
        "pictures: device {device_hash:08x}, {drawn} of {} pixels drawn; raw wgpu differs \
         from it by more than 8 in a channel on {differing}",
        SIZE * SIZE
    );
    assert!(drawn > (SIZE * SIZE / 4) as usize, "the frame draws");
    assert!(
        differing < drawn / 50,
        "raw wgpu draws another picture ({differing} pixels differ)"
    );
    let mut c_side = CSide::start();
    if let Some(c) = c_side.as_mut() {
        let hash = c.picture_hash();
        assert_eq!(hash, device_hash, "the C ABI's picture is the device's");
        eprintln!("pictures: C ABI {hash:08x}, equal to the device's");
    }

    let rounds = env_u32("BENCH_ROUNDS", 24) as usize;
    for _ in 0..2 {
        device.timed();
        raw.timed();
        if let Some(c) = c_side.as_mut() {
            c.timed();
        }
    }
    const NAMES: [&str; 4] = ["device", "C ABI", "raw", "raw (control)"];
    let mut times: [Vec<f64>; 4] = Default::default();
    // Every order of the four sides in turn, and each side's timed frame right after an
    // untimed one of its own: a game's frame follows the game's last frame, while a side
    // timed right after another side (the C process's, above all) finds the caches cold.
    // (With a rotating order and no warm-up frame, raw always came right after the C
    // process and ran slower than its control, which flattered both ratios.)
    let warm = env_u32("BENCH_WARM", 1);
    let orders = permutations4();
    for round in 0..rounds {
        for &side in &orders[round % orders.len()] {
            // The C process draws its untimed frames and the timed one in one command, as
            // the Rust sides draw theirs in one stretch (a command per frame would put a pipe
            // round trip and a wake-up of the process before each).
            let t = match side {
                0 => (0..=warm).map(|_| device.timed()).last(),
                1 => c_side.as_mut().map(|c| c.timed_after(warm)),
                _ => (0..=warm).map(|_| raw.timed()).last(),
            };
            if let Some(t) = t {
                times[side].push(t.as_secs_f64());
            }
        }
    }
    let (pairs, pipelines) = device.dev.cache_stats();
    eprintln!(
        "frame: {rounds} rounds, one frame of {DRAWS} draws per side per round, per frame \
         (median, best):"
    );
    for (name, t) in NAMES.iter().zip(&times) {
        if t.is_empty() {
            continue;
        }
        let best = t.iter().copied().fold(f64::INFINITY, f64::min);
        eprintln!(
            "  {name:<14} {:>9.2} ms  {:>9.2} ms",
            median(t.clone()) * 1e3,
            best * 1e3
        );
    }
    let ratio = |a: &[f64], b: &[f64]| median(a.iter().zip(b).map(|(x, y)| x / y).collect());
    let [dev_t, c_t, raw_t, control_t] = &times;
    eprintln!(
        "  device/raw = {:.3} (target <= 1.10); raw (control)/raw = {:.3}",
        ratio(dev_t, raw_t),
        ratio(control_t, raw_t)
    );
    if !c_t.is_empty() {
        eprintln!(
            "  C ABI/raw = {:.3} (target <= 1.15); C ABI/device = {:.3}",
            ratio(c_t, raw_t),
            ratio(c_t, dev_t)
        );
    }
    eprintln!(
        "  device caches: pairs {} hits / {} misses, pipelines {} hits / {} misses; memo hits {}",
        pairs.hits,
        pairs.misses,
        pipelines.hits,
        pipelines.misses,
        device.dev.memo_hits()
    );
}

/// The 24 orders of the sides 0..4, each side first in six of them.
fn permutations4() -> Vec<[usize; 4]> {
    let mut out = Vec::with_capacity(24);
    for a in 0..4 {
        for b in (0..4).filter(|&b| b != a) {
            for c in (0..4).filter(|&c| c != a && c != b) {
                out.push([a, b, c, 6 - a - b - c]);
            }
        }
    }
    out
}
