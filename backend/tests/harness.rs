//! The offscreen harness itself: draws, readback, D3DCOLOR fetch, probe.
//! Tests named `gpu_*` need an adapter (lavapipe is enough); they fail
//! without one unless D3D9_ALLOW_NO_GPU=1.

use d3d9_backend::{Capability, ExactReadback, Gpu, GpuError};
use d3d9_harness::{
    Draw, Harness, HarnessError, Image, ShaderStage, Target, Uniform, VertexBuffer, VertexProbe,
};

/// Position + D3DCOLOR, as a D3D9 FVF `XYZ | DIFFUSE` vertex.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct ColouredVertex {
    position: [f32; 3],
    /// 0xAARRGGBB, stored little-endian: bytes B, G, R, A.
    diffuse: u32,
}

const COLOURED_VERTEX_ATTRIBUTES: [wgpu::VertexAttribute; 2] = [
    wgpu::VertexAttribute {
        format: wgpu::VertexFormat::Float32x3,
        offset: 0,
        shader_location: 0,
    },
    wgpu::VertexAttribute {
        format: wgpu::VertexFormat::Unorm8x4Bgra,
        offset: 12,
        shader_location: 1,
    },
];

fn coloured_layout() -> wgpu::VertexBufferLayout<'static> {
    wgpu::VertexBufferLayout {
        array_stride: std::mem::size_of::<ColouredVertex>() as u64,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &COLOURED_VERTEX_ATTRIBUTES,
    }
}

const COLOURED_WGSL: &str = "
struct VsOut { @builtin(position) position: vec4<f32>, @location(0) colour: vec4<f32> }
@vertex fn vs(@location(0) position: vec3<f32>, @location(1) colour: vec4<f32>) -> VsOut {
    return VsOut(vec4<f32>(position, 1.0), colour);
}
@fragment fn fs(input: VsOut) -> @location(0) vec4<f32> { return input.colour; }
";

fn draw_coloured(
    gpu: &Gpu,
    vertices: &[ColouredVertex],
    target: Target,
) -> Result<Image, HarnessError> {
    let buffers = [VertexBuffer {
        layout: coloured_layout(),
        data: bytemuck::cast_slice(vertices),
    }];
    let shader = ShaderStage::wgsl(COLOURED_WGSL);
    gpu.render(&Draw {
        vertex_buffers: &buffers,
        ..Draw::new(
            shader.entry("vs"),
            shader.entry("fs"),
            vertices.len() as u32,
            target,
        )
    })
}

fn vertex(x: f32, y: f32, diffuse: u32) -> ColouredVertex {
    ColouredVertex {
        position: [x, y, 0.5],
        diffuse,
    }
}

#[test]
fn gpu_d3dcolor_is_fetched_as_rgba() -> Result<(), HarnessError> {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    // One triangle covering the whole 640x480 target, all vertices 0x80FF4020.
    let colour = 0x80FF_4020;
    let full = [
        vertex(-1.0, -1.0, colour),
        vertex(3.0, -1.0, colour),
        vertex(-1.0, 3.0, colour),
    ];
    let image = draw_coloured(&gpu, &full, Target::rgba8(640, 480))?;
    assert_eq!((image.width, image.height), (640, 480));
    for (x, y) in [(0, 0), (639, 0), (0, 479), (639, 479), (320, 240)] {
        assert_eq!(
            image.rgba8(x, y),
            Some([0xFF, 0x40, 0x20, 0x80]),
            "pixel ({x}, {y})"
        );
    }
    Ok(())
}

#[test]
fn gpu_triangle_has_vertex_colours_and_clear_outside() -> Result<(), HarnessError> {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    // Clip space y points up; image row 0 is the top.
    let triangle = [
        vertex(0.0, 0.9, 0xFFFF_0000),   // top: red
        vertex(-0.9, -0.9, 0xFF00_FF00), // bottom left: green
        vertex(0.9, -0.9, 0xFF00_00FF),  // bottom right: blue
    ];
    let clear = wgpu::Color {
        r: 0.0,
        g: 0.0,
        b: 0.2,
        a: 1.0,
    };
    let image = draw_coloured(&gpu, &triangle, Target::rgba8(640, 480).cleared_to(clear))?;
    let near = |x, y| image.rgba8(x, y).expect("pixel inside the image");
    let [r, g, b, a] = near(320, 30);
    assert!(
        r > 230 && g < 20 && b < 20 && a == 255,
        "top {:?}",
        [r, g, b, a]
    );
    let [r, g, b, _] = near(40, 452);
    assert!(g > 230 && r < 20 && b < 20, "bottom left {:?}", [r, g, b]);
    let [r, g, b, _] = near(599, 452);
    assert!(b > 230 && r < 20 && g < 20, "bottom right {:?}", [r, g, b]);
    // 0.2 * 255 = 51.
    assert_eq!(near(5, 5), [0, 0, 51, 255]);
    assert_eq!(near(634, 5), [0, 0, 51, 255]);
    Ok(())
}

#[test]
fn gpu_float_target_reads_exact_values() -> Result<(), HarnessError> {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    let shader = "
struct C { values: array<vec4<f32>, 2> }
@group(0) @binding(0) var<uniform> c: C;
struct VsOut { @builtin(position) position: vec4<f32>, @location(0) @interpolate(flat) value: vec4<f32> }
@vertex fn vs(@builtin(vertex_index) i: u32) -> VsOut {
    let xy = vec2<f32>(f32(i & 1u) * 4.0 - 1.0, f32(i >> 1u) * 4.0 - 1.0);
    return VsOut(vec4<f32>(xy, 0.0, 1.0), c.values[0] * c.values[1].x);
}
@fragment fn fs(input: VsOut) -> @location(0) vec4<f32> { return input.value; }
";
    let constants: [f32; 8] = [1.0e30, -0.5, 3.25, 1.0 / 3.0, 2.0, 0.0, 0.0, 0.0];
    let uniforms = [Uniform::new(0, 0, bytemuck::cast_slice(&constants))];
    let stage = ShaderStage::wgsl(shader);
    let image = gpu.render(&Draw {
        uniforms: &uniforms,
        ..Draw::new(
            stage.entry("vs"),
            stage.entry("fs"),
            3,
            Target::rgba32f(7, 5),
        )
    })?;
    let expected = [2.0e30, -1.0, 6.5, 2.0 / 3.0];
    for (x, y) in [(0, 0), (6, 4), (3, 2)] {
        assert_eq!(image.rgba32f(x, y), Some(expected), "pixel ({x}, {y})");
    }
    // Odd width: 7 * 16 bytes per row is padded to 256 for the copy.
    assert_eq!(image.data.len(), 7 * 5 * 16);
    Ok(())
}

/// The exact-float path this device uses follows the adapter's format features, and is
/// printed (with `--nocapture`) so a run says which one it exercised.
#[test]
fn gpu_exact_readback_path_is_reported() -> Result<(), HarnessError> {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    let path = gpu.exact_readback()?;
    println!("{}", gpu.describe());
    let renders = |format| {
        gpu.format_usages(format)
            .contains(wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC)
    };
    let expected = match renders(wgpu::TextureFormat::Rgba32Float) {
        true => ExactReadback::FloatTarget,
        false => ExactReadback::UintTarget,
    };
    assert_eq!(path, expected);
    assert!(renders(path.format()));
    Ok(())
}

/// Both readback paths give the same bits where the adapter has both; the uint path
/// keeps NaN payloads and −0. Where `Rgba32Float` cannot be rendered to, forcing the float
/// path is `Unsupported` naming that render target.
#[test]
fn gpu_probe_readback_paths_agree_bit_for_bit() -> Result<(), HarnessError> {
    let Some(mut gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    let shader = "
struct VsOut { @builtin(position) p: vec4<f32>, @location(0) bits: vec4<f32>, @location(2) more: vec3<f32> }
@vertex fn main(@builtin(vertex_index) v: u32) -> VsOut {
    let nan = bitcast<f32>(0x7fc01234u + v);
    let big = bitcast<f32>(0x7f7fffffu);
    return VsOut(vec4<f32>(0.0, 0.0, 0.5, 1.0), vec4<f32>(nan, -0.0, big, -1.0 / 3.0),
                 vec3<f32>(f32(v) * 0.1, -f32(v), bitcast<f32>(0xff800000u)));
}
";
    let probe = VertexProbe::new(ShaderStage::wgsl(shader), 2);
    let bits = |outputs: &[d3d9_harness::OutputValues]| -> Vec<Vec<u32>> {
        outputs
            .iter()
            .map(|o| o.values().flatten().map(|v| v.to_bits()).collect())
            .collect()
    };
    gpu.set_exact_readback(ExactReadback::UintTarget)?;
    let uint = bits(&gpu.vertex_outputs(&probe)?);
    for (v, got) in (0u32..).zip(&uint) {
        let third = (-1.0f32 / 3.0).to_bits();
        let expected = [
            0x7fc0_1234 + v,
            0x8000_0000,
            0x7f7f_ffff,
            third,
            (v as f32 * 0.1).to_bits(),
            (-(v as f32)).to_bits(),
            0xff80_0000,
        ];
        assert_eq!(got, &expected, "vertex {v} through Rgba32Uint");
    }
    match gpu.set_exact_readback(ExactReadback::FloatTarget) {
        Ok(()) => {
            let float = bits(&gpu.vertex_outputs(&probe)?);
            println!("both readback paths ran");
            assert_eq!(float, uint, "Rgba32Float and Rgba32Uint paths");
        }
        Err(GpuError::Unsupported { capability, .. }) => {
            println!("only the Rgba32Uint path ran: {capability}");
            assert_eq!(
                capability,
                Capability::RenderTarget {
                    format: wgpu::TextureFormat::Rgba32Float
                }
            );
        }
        Err(other) => return Err(other.into()),
    }
    Ok(())
}

/// An `Rgba32Float` target drawn through the uint path: covered texels hold the fragment
/// stage's floats, the rest the clear colour, both exactly.
#[test]
fn gpu_float_target_through_uint_bits() -> Result<(), HarnessError> {
    let Some(mut gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    gpu.set_exact_readback(ExactReadback::UintTarget)?;
    let shader = "
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    // The left half of the target.
    let xy = vec2<f32>(f32(i & 1u) * 2.0 - 1.0, f32(i >> 1u) * 4.0 - 1.0);
    return vec4<f32>(xy, 0.0, 1.0);
}
struct Out { @location(0) value: vec4<f32> }
@fragment fn fs() -> Out { return Out(vec4<f32>(1.0e-3, -2.5, bitcast<f32>(0x7f800000u), 1.0 / 3.0)); }
";
    let stage = ShaderStage::wgsl(shader);
    let clear = wgpu::Color {
        r: 0.1,
        g: -7.0,
        b: 0.0,
        a: 1.0e20,
    };
    let image = gpu.render(&Draw::new(
        stage.entry("vs"),
        stage.entry("fs"),
        3,
        Target::rgba32f(4, 2).cleared_to(clear),
    ))?;
    assert_eq!(image.format, wgpu::TextureFormat::Rgba32Float);
    let drawn = [1.0e-3, -2.5, f32::INFINITY, 1.0 / 3.0];
    let cleared = [0.1, -7.0, 0.0, 1.0e20];
    for y in 0..2 {
        assert_eq!(image.rgba32f(0, y), Some(drawn), "row {y}, drawn");
        assert_eq!(image.rgba32f(3, y), Some(cleared), "row {y}, cleared");
    }
    Ok(())
}

/// More vertex storage buffers than the adapter allows is `Unsupported`, named, before
/// anything is drawn.
#[test]
fn gpu_too_many_vertex_storage_buffers_is_unsupported() -> Result<(), HarnessError> {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    let limits = gpu.device().limits();
    let vertex_storage = gpu
        .downlevel()
        .flags
        .contains(wgpu::DownlevelFlags::VERTEX_STORAGE);
    let limit = match vertex_storage {
        true => limits.max_storage_buffers_per_shader_stage,
        false => 0,
    };
    let data = [0u8; 16];
    let storage: Vec<_> = (0..=limit.min(64))
        .map(|b| Uniform::storage(0, b, &data))
        .collect();
    let probe = VertexProbe {
        uniforms: &storage,
        ..VertexProbe::new(
            ShaderStage::wgsl(
                "@vertex fn main() -> @builtin(position) vec4<f32> { return vec4<f32>(0.0, 0.0, 0.5, 1.0); }",
            ),
            1,
        )
    };
    let result = gpu.vertex_outputs(&probe);
    if limit > 64 {
        // An adapter this generous is not refused; the count is too large to reach here.
        return result.map(|_| ());
    }
    match result {
        Err(HarnessError::Gpu(GpuError::Unsupported { capability, .. })) => assert_eq!(
            capability,
            Capability::VertexStorageBuffers {
                needed: limit + 1,
                limit,
                vertex_storage
            }
        ),
        other => panic!("expected Unsupported, got {other:?}"),
    }
    Ok(())
}

/// Linear filtering of an `Rgba32Float` vertex texture runs where the device has
/// `FLOAT32_FILTERABLE` (lavapipe) and is `Unsupported`, named, where it has not (GL).
#[test]
fn gpu_linear_filtering_of_float_textures_needs_float32_filterable() -> Result<(), HarnessError> {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    let shader = "
@group(1) @binding(0) var t: texture_2d<f32>;
@group(1) @binding(1) var s: sampler;
struct VsOut { @builtin(position) p: vec4<f32>, @location(0) texel: vec4<f32> }
@vertex fn main() -> VsOut {
    return VsOut(vec4<f32>(0.0, 0.0, 0.5, 1.0), textureSampleLevel(t, s, vec2<f32>(0.5, 0.5), 0.0));
}
";
    let texels: [f32; 8] = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0];
    let level: &[u8] = bytemuck::cast_slice(&texels);
    let levels = [level];
    let textures = [d3d9_harness::TextureBinding::two_d(
        1,
        0,
        wgpu::TextureFormat::Rgba32Float,
        2,
        1,
        &levels,
    )];
    let samplers = [d3d9_harness::SamplerBinding {
        mag_filter: d3d9_backend::device::TextureFilter::Linear,
        min_filter: d3d9_backend::device::TextureFilter::Linear,
        address: [d3d9_backend::device::TextureAddress::Clamp; 3],
        ..d3d9_harness::SamplerBinding::new(1, 1)
    }];
    let result = gpu.vertex_outputs(&VertexProbe {
        textures: &textures,
        samplers: &samplers,
        ..VertexProbe::new(ShaderStage::wgsl(shader), 1)
    });
    if gpu
        .device()
        .features()
        .contains(wgpu::Features::FLOAT32_FILTERABLE)
    {
        // Halfway between the two texels.
        assert_eq!(result?[0].get(&0), Some(&vec![2.0, 3.0, 4.0, 5.0]));
    } else {
        match result {
            Err(HarnessError::Gpu(GpuError::Unsupported { capability, .. })) => assert_eq!(
                capability,
                Capability::FilterableTexture {
                    format: wgpu::TextureFormat::Rgba32Float
                }
            ),
            other => panic!("expected Unsupported, got {other:?}"),
        }
    }
    Ok(())
}

#[test]
fn gpu_indexed_strip_and_instances_draw() -> Result<(), HarnessError> {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    // Two instances of a half-width quad; instance 1 is shifted right.
    let shader = "
@vertex fn vs(@location(0) position: vec2<f32>, @builtin(instance_index) i: u32) -> @builtin(position) vec4<f32> {
    return vec4<f32>(position.x + f32(i), position.y, 0.0, 1.0);
}
@fragment fn fs() -> @location(0) vec4<f32> { return vec4<f32>(1.0, 1.0, 1.0, 1.0); }
";
    let quad: [[f32; 2]; 4] = [[-1.0, -1.0], [0.0, -1.0], [-1.0, 1.0], [0.0, 1.0]];
    let attributes = [wgpu::VertexAttribute {
        format: wgpu::VertexFormat::Float32x2,
        offset: 0,
        shader_location: 0,
    }];
    let buffers = [VertexBuffer {
        layout: wgpu::VertexBufferLayout {
            array_stride: 8,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &attributes,
        },
        data: bytemuck::cast_slice(&quad),
    }];
    let stage = ShaderStage::wgsl(shader);
    let image = gpu.render(&Draw {
        vertex_buffers: &buffers,
        topology: wgpu::PrimitiveTopology::TriangleStrip,
        indices: Some(d3d9_harness::Indices::U16(&[0, 1, 2, 3])),
        instance_count: 2,
        ..Draw::new(stage.entry("vs"), stage.entry("fs"), 0, Target::rgba8(8, 2))
    })?;
    for x in 0..8 {
        assert_eq!(image.rgba8(x, 1), Some([255; 4]), "column {x}");
    }
    Ok(())
}

#[test]
fn gpu_probe_reads_vertex_outputs_exactly() -> Result<(), HarnessError> {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    let shader = "
struct C { c: array<vec4<f32>, 3> }
@group(0) @binding(0) var<uniform> consts: C;
struct VsOut {
    @builtin(position) position: vec4<f32>,
    @location(0) colour: vec4<f32>,
    @location(3) @interpolate(flat) index: f32,
    @location(5) pair: vec2<f32>,
}
@vertex fn main(@location(0) v: vec4<f32>, @builtin(vertex_index) i: u32) -> VsOut {
    // Positions anywhere inside the clip volume, including its edges.
    let corner = vec4<f32>(select(-1.0, 1.0, (i & 1u) != 0u), select(-1.0, 1.0, i >= 2u), 0.0, 1.0);
    return VsOut(corner, v * consts.c[i].x, f32(i), vec2<f32>(v.x * 1.0e38, -v.y));
}
";
    let inputs: [[f32; 4]; 3] = [
        [4.0, 2.0, 3.0, 4.0],
        [-0.5, 0.25, 1e-30, 7.0],
        [0.1, 0.2, 0.3, 0.4],
    ];
    let attributes = [wgpu::VertexAttribute {
        format: wgpu::VertexFormat::Float32x4,
        offset: 0,
        shader_location: 0,
    }];
    let buffers = [VertexBuffer {
        layout: wgpu::VertexBufferLayout {
            array_stride: 16,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &attributes,
        },
        data: bytemuck::cast_slice(&inputs),
    }];
    let constants: [[f32; 4]; 3] = [[2.0; 4], [-4.0; 4], [10.0; 4]];
    let uniforms = [Uniform::new(0, 0, bytemuck::cast_slice(&constants))];
    let outputs = gpu.vertex_outputs(&VertexProbe {
        vertex_buffers: &buffers,
        uniforms: &uniforms,
        ..VertexProbe::new(ShaderStage::wgsl(shader), 3)
    })?;
    assert_eq!(outputs.len(), 3);
    assert_eq!(outputs[0].get(&5).map(|p| p[0]), Some(f32::INFINITY));
    for (i, out) in outputs.iter().enumerate() {
        let scale = constants[i][0];
        let colour: Vec<f32> = inputs[i].iter().map(|v| v * scale).collect();
        assert_eq!(out.get(&0), Some(&colour), "vertex {i} colour");
        assert_eq!(out.get(&3), Some(&vec![i as f32]), "vertex {i} index");
        // Overflows to +inf for vertex 0: infinities pass through exactly.
        let big = inputs[i][0] * 1.0e38;
        assert_eq!(
            out.get(&5),
            Some(&vec![big, -inputs[i][1]]),
            "vertex {i} pair"
        );
        assert_eq!(out.len(), 3);
    }
    Ok(())
}

#[test]
fn gpu_probe_instances_are_laid_out_per_instance() -> Result<(), HarnessError> {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    let shader = "
struct VsOut { @builtin(position) p: vec4<f32>, @location(1) id: vec2<f32> }
@vertex fn main(@builtin(vertex_index) v: u32, @builtin(instance_index) i: u32) -> VsOut {
    return VsOut(vec4<f32>(0.0, 0.0, 0.5, 1.0), vec2<f32>(f32(v), f32(i)));
}
";
    let probe = VertexProbe {
        instance_count: 2,
        ..VertexProbe::new(ShaderStage::wgsl(shader), 3)
    };
    let outputs = gpu.vertex_outputs(&probe)?;
    let ids: Vec<_> = outputs.iter().map(|o| o.get(&1).cloned()).collect();
    let expected: Vec<_> = (0..2)
        .flat_map(|i| (0..3).map(move |v| Some(vec![v as f32, i as f32])))
        .collect();
    assert_eq!(ids, expected);
    Ok(())
}

#[test]
fn gpu_probe_reports_clipped_vertex() -> Result<(), HarnessError> {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    let shader = "
struct VsOut { @builtin(position) p: vec4<f32>, @location(0) value: f32 }
@vertex fn main(@builtin(vertex_index) v: u32) -> VsOut {
    return VsOut(vec4<f32>(0.0, 0.0, 0.0, select(1.0, -1.0, v == 1u)), 1.0);
}
";
    let result = gpu.vertex_outputs(&VertexProbe::new(ShaderStage::wgsl(shader), 2));
    assert!(
        matches!(
            result,
            Err(HarnessError::Clipped {
                vertex: 1,
                instance: 0
            })
        ),
        "{result:?}"
    );
    Ok(())
}

#[test]
fn gpu_bad_shader_is_an_error_not_a_panic() -> Result<(), HarnessError> {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    let stage = ShaderStage::wgsl("@vertex fn vs() -> @builtin(position) vec4<f32> { return 1; }");
    let result = gpu.render(&Draw::new(stage, stage, 3, Target::rgba8(4, 4)));
    assert!(
        matches!(result, Err(HarnessError::Gpu(GpuError::Wgpu { .. }))),
        "{result:?}"
    );
    // The device stays usable afterwards: a draw that must succeed does, with its colour.
    let colour = 0xFF20_40C0;
    let image = draw_coloured(
        &gpu,
        &[
            vertex(-1.0, -1.0, colour),
            vertex(3.0, -1.0, colour),
            vertex(-1.0, 3.0, colour),
        ],
        Target::rgba8(4, 4),
    )?;
    assert_eq!(image.rgba8(0, 0), Some([0x20, 0x40, 0xC0, 0xFF]));
    assert_eq!(image.rgba8(3, 3), Some([0x20, 0x40, 0xC0, 0xFF]));
    Ok(())
}

#[test]
fn gpu_naga_module_is_accepted() -> Result<(), HarnessError> {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    let module = naga::front::wgsl::parse_str(
        "@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
             return vec4<f32>(f32(i & 1u) * 4.0 - 1.0, f32(i >> 1u) * 4.0 - 1.0, 0.0, 1.0);
         }
         @fragment fn fs() -> @location(0) vec4<f32> { return vec4<f32>(0.0, 1.0, 0.0, 1.0); }",
    )
    .map_err(|e| HarnessError::Wgsl {
        stage: "test",
        message: e.to_string(),
    })?;
    let stage = ShaderStage::naga(&module);
    let image = gpu.render(&Draw::new(
        stage.entry("vs"),
        stage.entry("fs"),
        3,
        Target::rgba8(3, 3),
    ))?;
    assert_eq!(image.rgba8(1, 1), Some([0, 255, 0, 255]));
    Ok(())
}

#[test]
fn no_adapter_error_names_the_search_and_the_escape() {
    let err = GpuError::NoAdapter {
        backends: wgpu::Backends::all(),
        source: wgpu::RequestAdapterError::EnvNotSet,
    };
    let message = err.to_string();
    assert!(message.contains("no GPU adapter found"), "{message}");
    assert!(message.contains("WGPU_ADAPTER_NAME"), "{message}");
    assert!(message.contains("D3D9_ALLOW_NO_GPU=1"), "{message}");
}

#[test]
fn image_accessors_check_bounds_and_format() {
    let image = Image {
        format: wgpu::TextureFormat::Rgba8Unorm,
        width: 2,
        height: 1,
        data: vec![1, 2, 3, 4, 5, 6, 7, 8],
    };
    assert_eq!(image.rgba8(1, 0), Some([5, 6, 7, 8]));
    assert_eq!(image.rgba8(2, 0), None);
    assert_eq!(image.rgba8(0, 1), None);
    assert_eq!(image.rgba32f(0, 0), None);
}
