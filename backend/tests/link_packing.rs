//! Linked inter-stage variables on the GPU: a vs_3_0 shader writing twenty semantics (more
//! than WebGPU's 16 locations, 15 for a point list) and a ps_3_0 shader reading them are
//! translated as a pair (`translate_pair`), whose link packs them several to a location, and a fragment stage written by hand from the
//! link's pixel map (the convention of `location_shapes`: `vecN<f32>` per location, a
//! semantic at components `component..component + components`) reads every semantic back.
//! One point per semantic, pixel `k` showing semantic `k`.
//!
//! Exact: the values are small integers, and a point's inputs are its vertex's values.
//!
//! GPU tests fail, not skip, when no adapter exists (unless `D3D9_ALLOW_NO_GPU=1`).

use std::error::Error;

use d3d9_backend::Gpu;
use d3d9_harness::{Draw, Harness, ShaderStage, Target, VertexBuffer};
use d3d9_translator::asm::assemble;
use d3d9_translator::bytecode::{Stage, Usage};
use d3d9_translator::check::{check, CheckedProgram, DeviceCaps};
use d3d9_translator::lift::interface::{Varying, VaryingInterpolation};
use d3d9_translator::lift::link::{check_stage_agreement, location_shapes};
use d3d9_translator::lift::{
    translate_pair, PairOptions, PairPixelStage, PairVertexStage, PixelShaderOptions,
};
use d3d9_translator::signature::Semantic;

type TestResult = Result<(), Box<dyn Error>>;

const SEMANTICS: u8 = 20;

/// The `k`th semantic: TEXCOORD0–15, then COLOR0–3.
fn semantic(k: u8) -> Semantic {
    match k {
        0..16 => Semantic::new(Usage::TexCoord, k),
        _ => Semantic::new(Usage::Color, k - 16),
    }
}

/// vs_3_0: semantic `k` in `.xy` or `.zw` of `o(k/2 + 1)`, holding `(2k + 1, 2k + 2)`.
fn vertex_text() -> String {
    let mut text = String::from("vs_3_0\ndcl_position v0\ndcl_position o0\n");
    for k in 0..SEMANTICS {
        let s = semantic(k);
        let mask = if k % 2 == 0 { "xy" } else { "zw" };
        text += &format!("dcl_{}{} o{}.{mask}\n", s.usage.name(), s.index, k / 2 + 1);
    }
    for r in 0..SEMANTICS / 2 {
        let b = 4 * u32::from(r);
        text += &format!("def c{r}, {}, {}, {}, {}\n", b + 1, b + 2, b + 3, b + 4);
    }
    text += "mov o0, v0\n";
    for r in 0..SEMANTICS / 2 {
        text += &format!("mov o{}, c{r}\n", r + 1);
    }
    text
}

/// ps_3_0 reading every semantic: semantic `k` in `.xy` or `.zw` of `v(k/2)` (the vertex
/// shader's packing, shifted by one register), `_centroid` in every third register.
fn pixel_text() -> String {
    let mut text = String::from("ps_3_0\n");
    for k in 0..SEMANTICS {
        let s = semantic(k);
        let r = k / 2;
        let centroid = if r % 3 == 0 { "_centroid" } else { "" };
        let mask = if k % 2 == 0 { "xy" } else { "zw" };
        text += &format!("dcl_{}{}{centroid} v{r}.{mask}\n", s.usage.name(), s.index);
    }
    text += "mov r0, v0\n";
    for r in 1..SEMANTICS / 2 {
        text += &format!("add r0, r0, v{r}\n");
    }
    text += "mov oC0, r0\n";
    text
}

fn checked(text: &str, stage: Stage) -> Result<CheckedProgram, Box<dyn Error>> {
    let program = assemble(text).map_err(|e| format!("{e}\n{text}"))?;
    Ok(check(&program, stage, &DeviceCaps::default()).map_err(|e| format!("{e}\n{text}"))?)
}

/// A fragment stage from the pixel map: pixel `k` shows semantic `k` as `(x, y, 0, 0)`.
fn fragment_wgsl(map: &[Varying]) -> Result<String, Box<dyn Error>> {
    let shapes = location_shapes(map)?;
    let mut members = String::from("@builtin(position) pos: vec4<f32>,\n");
    for (location, shape) in &shapes {
        let ty = match shape.components {
            1 => "f32".to_string(),
            n => format!("vec{n}<f32>"),
        };
        let interp = match shape.interpolation {
            VaryingInterpolation::Perspective => "perspective, center",
            VaryingInterpolation::Centroid => "perspective, centroid",
            VaryingInterpolation::Flat => "flat",
        };
        members += &format!("@location({location}) @interpolate({interp}) l{location}: {ty},\n");
    }
    let mut cases = String::new();
    for k in 0..SEMANTICS {
        let v = map
            .iter()
            .find(|v| v.semantic == semantic(k))
            .ok_or(format!("{} not linked", semantic(k)))?;
        let scalar = shapes.get(&v.location).map(|s| s.components) == Some(1);
        let part = |c: u8| match (scalar, c < v.components) {
            (true, true) => format!("i.l{}", v.location),
            (false, true) => format!("i.l{}[{}]", v.location, v.component + c),
            (_, false) => "0.0".to_string(),
        };
        cases += &format!(
            "case {k}u: {{ out = vec4<f32>({}, {}, 0.0, 0.0); }}\n",
            part(0),
            part(1)
        );
    }
    Ok(format!(
        "struct In {{\n{members}}}\n\
         @fragment fn fs(i: In) -> @location(0) vec4<f32> {{\n\
         var out = vec4<f32>(-1.0);\n\
         switch u32(i.pos.x) {{\n{cases}default: {{}}\n}}\n\
         return out;\n}}\n"
    ))
}

#[test]
fn gpu_twenty_semantics_packed_by_a_link_arrive_exactly() -> TestResult {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    let pair = translate_pair(
        PairVertexStage::Shader(&checked(&vertex_text(), Stage::Vertex)?),
        PairPixelStage::Shader {
            program: &checked(&pixel_text(), Stage::Pixel)?,
            options: PixelShaderOptions::default(),
        },
        PairOptions {
            point_list: true,
            flat_shading: true,
            ..PairOptions::default()
        },
    )?;
    let link = pair.link;
    let shapes = location_shapes(&link.vertex)?;
    assert!(shapes.len() <= 15, "{shapes:?}");
    assert!(
        shapes.values().any(|s| s.components > 2),
        "packed: {shapes:?}"
    );
    assert!(
        shapes
            .values()
            .any(|s| s.interpolation == VaryingInterpolation::Flat),
        "COLOR0/1 flat: {shapes:?}"
    );
    let vs = pair.vertex;
    let source = fragment_wgsl(&link.pixel)?;
    let fs = naga::front::wgsl::parse_str(&source).map_err(|e| format!("{e}\n{source}"))?;
    check_stage_agreement(&vs.module, &fs)?;

    let width = u32::from(SEMANTICS);
    let positions: Vec<[f32; 4]> = (0..width)
        .map(|k| [(2 * k + 1) as f32 / width as f32 - 1.0, 0.0, 0.5, 1.0])
        .collect();
    let location = vs
        .interface
        .input(0)
        .and_then(|i| i.location)
        .ok_or("v0 is not fetched")?;
    let attributes = [wgpu::VertexAttribute {
        format: wgpu::VertexFormat::Float32x4,
        offset: 0,
        shader_location: location,
    }];
    let buffers = [VertexBuffer {
        layout: wgpu::VertexBufferLayout {
            array_stride: 16,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &attributes,
        },
        data: bytemuck::cast_slice(&positions),
    }];
    let image = gpu.render(&Draw {
        vertex_buffers: &buffers,
        topology: wgpu::PrimitiveTopology::PointList,
        ..Draw::new(
            ShaderStage::naga(&vs.module),
            ShaderStage::wgsl(&source),
            width,
            Target::rgba32f(width, 1),
        )
    })?;
    let mut wrong = Vec::new();
    for k in 0..SEMANTICS {
        let want = [f32::from(2 * k + 1), f32::from(2 * k + 2), 0.0, 0.0];
        let got = image
            .rgba32f(u32::from(k), 0)
            .ok_or("pixel outside the image")?;
        if got != want {
            wrong.push(format!("{}: got {got:?}, want {want:?}", semantic(k)));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    Ok(())
}
