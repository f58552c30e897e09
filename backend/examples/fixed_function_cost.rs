//! What fixed-function state costs at draw time (issue 26, item 3): the figures behind the
//! choice of specialised stages per state key (`docs/benchmarks.md`).
//!
//! - **miss**: a draw whose code-changing fixed-function state (lights, their types,
//!   specular, texture-stage operations) is new: it generates, assembles, checks and
//!   translates the vertex stage, generates the pixel stage, builds the wgpu modules and the
//!   pipeline, then draws; timed with the flush and the GPU wait.
//! - **numbers**: draws that change only numbers (a light's position, the material, TFACTOR,
//!   a matrix) under one key: no pair is built; timed the same way.
//! - **uber compile**: one pixel-stage uber-shader (eight stages, every operation behind a
//!   `switch` on uniform state, as DXVK's GLSL) against one specialised pixel stage of two
//!   operations: `create_shader_module` + `create_render_pipeline`.
//! - **uber draw**: GPU time of a 512x512 quad through each of the two, 20 draws per batch.
//!
//! ```sh
//! cargo run -p d3d9-backend --release --example fixed_function_cost
//! ```

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::{Duration, Instant};

use d3d9_backend::device::{
    ClearFlags, Device, DeviceParams, Format, Light, LightType, Material, PrimitiveType,
    RenderState,
};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// A lit, textured quad (XYZ | NORMAL | DIFFUSE | TEX1).
fn quad() -> Vec<u8> {
    let mut out = Vec::new();
    for (x, y) in [(-1.0f32, -1.0f32), (-1.0, 1.0), (1.0, -1.0), (1.0, 1.0)] {
        for v in [x, y, 0.5, 0.0, 0.0, -1.0] {
            out.extend(v.to_le_bytes());
        }
        out.extend(0xff80_8080u32.to_le_bytes());
        for v in [x * 0.5 + 0.5, y * 0.5 + 0.5] {
            out.extend(v.to_le_bytes());
        }
    }
    out
}

fn draw_and_wait(dev: &mut Device, data: &[u8]) -> Duration {
    let start = Instant::now();
    dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, data, 36)
        .unwrap();
    let bb = dev.back_buffer();
    dev.get_render_target_data(bb).unwrap();
    start.elapsed()
}

fn main() {
    let mut dev = Device::new(DeviceParams {
        back_buffer: (512, 512, Format::A8R8G8B8),
        ..DeviceParams::default()
    })
    .expect("an adapter");
    println!("adapter: {:?}", dev.gpu().adapter_info().name);
    let data = quad();
    dev.set_fvf(0x002 | 0x010 | 0x040 | 0x100).unwrap();
    let texture = dev.create_texture(64, 64, 1, Format::A8R8G8B8).unwrap();
    dev.update_texture(texture, 0, &vec![0x80; 64 * 64 * 4])
        .unwrap();
    dev.set_texture(0, Some(texture)).unwrap();
    dev.set_material(&Material {
        diffuse: [1.0; 4],
        specular: [1.0; 4],
        power: 8.0,
        ..Material::default()
    })
    .unwrap();
    dev.clear(&[], ClearFlags::TARGET, 0, 1.0, 0).unwrap();
    // Warm-up: the first draw builds the device's shared objects.
    draw_and_wait(&mut dev, &data);

    // Misses: 2 × 9 × 3 new keys (specular, 0–8 lights of mixed types, 3 stage setups).
    let mut misses = Vec::new();
    let types = [LightType::Point, LightType::Directional, LightType::Spot];
    for specular in [0u32, 1] {
        for lights in 0..9u32 {
            for ops in [4u32, 7, 24] {
                dev.set_render_state_raw(29, specular).unwrap();
                for i in 0..8 {
                    let mut l = Light {
                        light_type: types[(i as usize + lights as usize) % 3],
                        position: [0.0, 0.0, -1.0],
                        range: 10.0,
                        attenuation0: 1.0,
                        theta: 0.5,
                        phi: 1.0,
                        falloff: 1.0,
                        ..Light::default()
                    };
                    l.direction = [0.0, 0.0, 1.0];
                    dev.set_light(i, &l).unwrap();
                    dev.light_enable(i, i < lights).unwrap();
                }
                dev.set_texture_stage_state_raw(0, 1, ops).unwrap();
                let before = dev.cache_stats().0.misses;
                let t = draw_and_wait(&mut dev, &data);
                if dev.cache_stats().0.misses == before + 1 {
                    misses.push(t);
                }
            }
        }
    }
    // Numbers only, under the last key.
    let mut numbers = Vec::new();
    let before = dev.cache_stats().0.misses;
    for i in 0..200u32 {
        let f = i as f32 / 200.0;
        let mut l = dev.light(0).unwrap();
        l.position = [f, -f, -1.0];
        dev.set_light(0, &l).unwrap();
        dev.set_render_state(RenderState::TextureFactor(0xff00_0000 | i))
            .unwrap();
        numbers.push(draw_and_wait(&mut dev, &data));
    }
    assert_eq!(dev.cache_stats().0.misses, before, "numbers build nothing");
    println!(
        "miss (new key): median {:.2} ms over {} keys; numbers changed under one key: median {:.3} ms",
        ms(median(misses.clone())),
        misses.len(),
        ms(median(numbers))
    );
    uber(&dev);
}

const VS: &str = "@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    let p = array(vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));
    return vec4(p[i], 0.5, 1.0);
}
";

/// Two stages specialised: MODULATE(TEXTURE, DIFFUSE), ADD(TFACTOR, CURRENT).
const SPECIALISED: &str = "@group(0) @binding(0) var<uniform> u: array<vec4<f32>, 32>;
@group(0) @binding(1) var t0: texture_2d<f32>;
@group(0) @binding(2) var s0: sampler;
@fragment fn fs(@builtin(position) p: vec4<f32>) -> @location(0) vec4<f32> {
    let d = vec4(p.x / 512.0, p.y / 512.0, 0.5, 1.0);
    let texel0 = textureSample(t0, s0, d.xy);
    var current = d;
    current = vec4((texel0 * d).rgb, current.a);
    current = vec4(saturate(u[0] + current).rgb, current.a);
    return saturate(current);
}
";

/// Eight stages, each operation behind a switch on `u[8 + stage]` (op, arg1, arg2, alpha op).
const UBER: &str = "@group(0) @binding(0) var<uniform> u: array<vec4<f32>, 32>;
@group(0) @binding(1) var t0: texture_2d<f32>;
@group(0) @binding(2) var s0: sampler;
fn arg(a: u32, d: vec4<f32>, cur: vec4<f32>, tex: vec4<f32>, tmp: vec4<f32>, k: vec4<f32>) -> vec4<f32> {
    var v = cur;
    switch a & 7u {
        case 0u: { v = d; }
        case 2u: { v = tex; }
        case 3u: { v = u[0]; }
        case 5u: { v = tmp; }
        case 6u: { v = k; }
        default: { v = cur; }
    }
    if (a & 16u) != 0u { v = 1.0 - v; }
    if (a & 32u) != 0u { v = vec4(v.a); }
    return v;
}
fn op(o: u32, a0: vec4<f32>, a1: vec4<f32>, a2: vec4<f32>, d: vec4<f32>, tex: vec4<f32>, cur: vec4<f32>) -> vec4<f32> {
    switch o {
        case 2u: { return a1; }
        case 3u: { return a2; }
        case 4u: { return a1 * a2; }
        case 5u: { return saturate(2.0 * a1 * a2); }
        case 6u: { return saturate(4.0 * a1 * a2); }
        case 7u: { return saturate(a1 + a2); }
        case 8u: { return saturate(a1 + a2 - 0.5); }
        case 9u: { return saturate(2.0 * (a1 + a2 - 0.5)); }
        case 10u: { return saturate(a1 - a2); }
        case 11u: { return saturate(a1 + (1.0 - a1) * a2); }
        case 12u: { return mix(a2, a1, d.a); }
        case 13u: { return mix(a2, a1, tex.a); }
        case 14u: { return mix(a2, a1, u[0].a); }
        case 15u: { return saturate(a1 + a2 * (1.0 - tex.a)); }
        case 16u: { return mix(a2, a1, cur.a); }
        case 18u: { return saturate(a1 + a1.a * a2); }
        case 19u: { return saturate(a1 * a2 + a1.a); }
        case 20u: { return saturate(a1 + (1.0 - a1.a) * a2); }
        case 21u: { return saturate((1.0 - a1) * a2 + a1.a); }
        case 24u: { return vec4(saturate(4.0 * dot(a1.rgb - 0.5, a2.rgb - 0.5))); }
        case 25u: { return saturate(a1 * a2 + a0); }
        case 26u: { return mix(a2, a1, a0); }
        default: { return cur; }
    }
}
@fragment fn fs(@builtin(position) p: vec4<f32>) -> @location(0) vec4<f32> {
    let d = vec4(p.x / 512.0, p.y / 512.0, 0.5, 1.0);
    var cur = d;
    var tmp = vec4(0.0);
    let texel = textureSample(t0, s0, d.xy);
    for (var i = 0u; i < 8u; i++) {
        let s = vec4<u32>(u[8u + i]);
        if s.x == 1u { break; }
        let k = u[16u + i];
        let c = op(s.x, arg(s.w, d, cur, texel, tmp, k), arg(s.y, d, cur, texel, tmp, k), arg(s.z, d, cur, texel, tmp, k), d, texel, cur);
        let a = op(s.x, arg(s.w, d, cur, texel, tmp, k), arg(s.y, d, cur, texel, tmp, k), arg(s.z, d, cur, texel, tmp, k), d, texel, cur);
        cur = vec4(c.rgb, a.a);
    }
    return saturate(cur);
}
";

/// Compile cost and GPU cost of the uber-shader against the specialised stage.
fn uber(dev: &Device) {
    let device = dev.gpu().device();
    let queue = dev.gpu().queue();
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: None,
        entries: &[
            wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            },
            wgpu::BindGroupLayoutEntry {
                binding: 1,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: true },
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
                count: None,
            },
            wgpu::BindGroupLayoutEntry {
                binding: 2,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                count: None,
            },
        ],
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: None,
        bind_group_layouts: &[Some(&layout)],
        immediate_size: 0,
    });
    let target = device.create_texture(&wgpu::TextureDescriptor {
        label: None,
        size: wgpu::Extent3d {
            width: 512,
            height: 512,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8Unorm,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
        view_formats: &[],
    });
    let view = target.create_view(&Default::default());
    let mut uniforms = vec![[0f32; 4]; 32];
    uniforms[8] = [4.0, 2.0, 0.0, 0.0];
    uniforms[9] = [7.0, 3.0, 1.0, 1.0];
    uniforms[10] = [1.0; 4];
    let bytes: Vec<u8> = uniforms
        .iter()
        .flatten()
        .flat_map(|f| f.to_le_bytes())
        .collect();
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: bytes.len() as u64,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    queue.write_buffer(&buffer, 0, &bytes);
    let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout: &layout,
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: buffer.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: wgpu::BindingResource::TextureView(&view),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: wgpu::BindingResource::Sampler(
                    &device.create_sampler(&Default::default()),
                ),
            },
        ],
    });
    let other = device.create_texture(&wgpu::TextureDescriptor {
        label: None,
        size: wgpu::Extent3d {
            width: 512,
            height: 512,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8Unorm,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
        view_formats: &[],
    });
    let other_view = other.create_view(&Default::default());
    let build = |fragment: &str| {
        let start = Instant::now();
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: None,
            source: wgpu::ShaderSource::Wgsl(format!("{VS}{fragment}").into()),
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: None,
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: Default::default(),
            depth_stencil: None,
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::TextureFormat::Rgba8Unorm.into())],
            }),
            multiview_mask: None,
            cache: None,
        });
        device.poll(wgpu::PollType::wait_indefinitely()).ok();
        (pipeline, start.elapsed())
    };
    let time_draws = |pipeline: &wgpu::RenderPipeline| {
        let mut best = Duration::MAX;
        for _ in 0..5 {
            let start = Instant::now();
            let mut encoder = device.create_command_encoder(&Default::default());
            for _ in 0..20 {
                let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: None,
                    color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                        view: &other_view,
                        depth_slice: None,
                        resolve_target: None,
                        ops: Default::default(),
                    })],
                    depth_stencil_attachment: None,
                    timestamp_writes: None,
                    occlusion_query_set: None,
                    multiview_mask: None,
                });
                pass.set_pipeline(pipeline);
                pass.set_bind_group(0, &group, &[]);
                pass.draw(0..3, 0..1);
            }
            queue.submit([encoder.finish()]);
            device.poll(wgpu::PollType::wait_indefinitely()).ok();
            best = best.min(start.elapsed() / 20);
        }
        best
    };
    let mut compile = [Vec::new(), Vec::new()];
    let mut pipelines = Vec::new();
    for round in 0..5 {
        for (k, source) in [SPECIALISED, UBER].iter().enumerate() {
            // A distinct module each time (a comment), so no driver cache answers.
            let (pipeline, t) = build(&format!("// {round}\n{source}"));
            compile[k].push(t);
            if round == 0 {
                pipelines.push(pipeline);
            }
        }
    }
    let [specialised, uber] = compile;
    println!(
        "pipeline build: specialised pixel stage {:.2} ms, uber pixel stage {:.2} ms",
        ms(median(specialised)),
        ms(median(uber))
    );
    println!(
        "GPU per 512x512 draw: specialised {:.3} ms, uber {:.3} ms",
        ms(time_draws(&pipelines[0])),
        ms(time_draws(&pipelines[1]))
    );
}
