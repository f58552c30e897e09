//! The shaders the `vertex_stage` bench times, shared with the test that keeps the hand-written
//! WGSL honest (`tests/bench_shaders.rs`): each scene's shader, declaration, vertices and
//! constants, its translations in every `FloatMode` and its hand-written versions.
#![allow(dead_code)]

use std::borrow::Cow;

use d3d9_backend::device::{ConstantBuffer, VertexConstants};
use d3d9_backend::Gpu;
use d3d9_harness::{Harness, ShaderStage, VertexBuffer, VertexProbe};
use d3d9_translator::asm::assemble;
use d3d9_translator::bytecode::{Stage, Usage};
use d3d9_translator::check::{check, DeviceCaps};
use d3d9_translator::decl::{
    bind_program, DeclType, StreamSource, VertexBinding, VertexDeclaration, VertexElement,
    VertexProcessing,
};
use d3d9_translator::lift::{
    translate_vertex_shader, FloatMode, TranslatedShader, Varying, VertexShaderOptions, ENTRY_POINT,
};
use d3d9_translator::signature::Semantic;

/// The render target size the constants' position fix-up is made for.
pub const TARGET: (u32, u32) = (64, 64);

/// Vertices the hand shaders are checked against the translations on: the first vertex of
/// every `CHECKED_STRIDE`-th triangle, spread over the whole floor and tube.
pub const CHECKED_VERTICES: u32 = 64;
const CHECKED_STRIDE: u32 = 5200;

/// One shader of `shaders/` with the draw it is benchmarked with.
pub struct Scene {
    pub name: &'static str,
    pub asm: &'static str,
    pub declaration: VertexDeclaration,
    pub stride: u32,
    /// The bytes of vertex `k` (`stride` long); vertices 3t..3t+2 must be equal.
    pub vertex: fn(u32) -> Vec<u8>,
    pub constants: VertexConstants,
    /// (label, WGSL) of the hand-written versions; the first is the reference.
    pub hand: Vec<(&'static str, &'static str)>,
}

fn floats(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|f| f.to_le_bytes()).collect()
}

/// A view * projection stand-in mapping the scenes' few units around the origin inside the
/// clip volume (the vertex probe needs the first vertices unclipped), every row used.
const VIEW_PROJECTION: [[f32; 4]; 4] = [
    [0.2, 0.0, 0.05, 0.0],
    [0.0, 0.18, 0.12, 0.0],
    [0.02, 0.05, 0.04, 0.5],
    [0.0, 0.0, 0.0, 1.0],
];

pub fn point_lights() -> Scene {
    // FVF D3DFVF_XYZ | D3DFVF_NORMAL: v0 position, v1 normal (FLOAT3 each).
    let declaration = VertexDeclaration::from_elements(&[
        VertexElement::new(0, 0, DeclType::Float3, Usage::Position, 0),
        VertexElement::new(0, 12, DeclType::Float3, Usage::Normal, 0),
    ])
    .expect("declaration");
    let mut c = VertexConstants::default();
    c.set_f(0, &VIEW_PROJECTION)
        // World: identity rows (4x3).
        .set_f(
            4,
            &[
                [1.0, 0.0, 0.0, 0.0],
                [0.0, 1.0, 0.0, 0.0],
                [0.0, 0.0, 1.0, 0.0],
            ],
        )
        .set_f(9, &[[0.9, 0.9, 0.9, 1.0]])
        .set_f(10, &[[0.06, 0.06, 0.08, 1.0]])
        .set_f(11, &[[0.0, 1.2, 1.0, 0.0]])
        .set_f(
            12,
            &[
                [-1.8, 0.6, -1.0, 1.0],
                [1.8, 0.6, -1.0, 1.0],
                [-1.8, 0.6, 2.2, 1.0],
                [1.8, 0.6, 2.2, 1.0],
            ],
        )
        .set_f(
            20,
            &[
                [1.6, 0.15, 0.1, 1.0],
                [0.15, 1.5, 0.2, 1.0],
                [0.2, 0.35, 1.8, 1.0],
                [1.5, 1.3, 0.2, 1.0],
            ],
        )
        // i0: four lights, aL from 0 in steps of 1.
        .set_i(0, &[[4, 0, 1, 0]]);
    Scene {
        name: "point_lights",
        asm: include_str!("../../../shaders/point_lights.asm"),
        declaration,
        stride: 24,
        vertex: |k| {
            // A floor of 578 x 578 cells, y = 0, normals tilted a little per cell.
            let t = k / 3;
            let (x, z) = ((t % 578) as f32, (t / 578) as f32);
            let (s, c) = (t as f32 * 0.1).sin_cos();
            floats(&[
                -3.0 + x * 6.0 / 577.0,
                0.0,
                -3.0 + z * 6.0 / 577.0,
                0.1 * s,
                1.0,
                0.1 * c,
            ])
        },
        constants: c,
        hand: vec![
            ("hand", include_str!("../hand/point_lights.wgsl")),
            ("hand aL", include_str!("../hand/point_lights_al.wgsl")),
        ],
    }
}

/// Rows of a rotation by `degrees` about z (a transposed 4x3), moved by `dy`.
fn bone(degrees: f32, dy: f32) -> [[f32; 4]; 3] {
    let (s, c) = degrees.to_radians().sin_cos();
    [[c, -s, 0.0, 0.0], [s, c, 0.0, dy], [0.0, 0.0, 1.0, 0.0]]
}

pub fn skinned_arm() -> Scene {
    let declaration = VertexDeclaration::from_elements(&[
        VertexElement::new(0, 0, DeclType::Float3, Usage::Position, 0),
        VertexElement::new(0, 12, DeclType::Float3, Usage::Normal, 0),
        VertexElement::new(0, 24, DeclType::Float1, Usage::BlendWeight, 0),
        VertexElement::new(0, 28, DeclType::UByte4, Usage::BlendIndices, 0),
    ])
    .expect("declaration");
    let light = [-0.3f32, 0.6, -0.8];
    let len = light.iter().map(|v| v * v).sum::<f32>().sqrt();
    let mut c = VertexConstants::default();
    c.set_f(0, &VIEW_PROJECTION)
        .set_f(8, &[[light[0] / len, light[1] / len, light[2] / len, 0.0]])
        .set_f(9, &[[0.35, 0.8, 0.4, 1.0]])
        .set_f(10, &[[0.1, 0.1, 0.12, 0.0]])
        .set_f(20, &bone(-15.0, 0.1))
        .set_f(23, &bone(40.0, -0.1));
    Scene {
        name: "skinned_arm",
        asm: include_str!("../../../shaders/skinned_arm.asm"),
        declaration,
        stride: 32,
        vertex: |k| {
            // A tube along x in [-2.2, 2.2]: 1000 rings of 20 sides, repeated; the joint
            // blends both bones over x in [-0.45, 0.45], the right half follows bone 1 only.
            let t = k / 3;
            let x = -2.2 + 4.4 * (t % 1000) as f32 / 999.0;
            let (s, c) = (std::f32::consts::TAU * ((t / 1000) % 20) as f32 / 20.0).sin_cos();
            let w = ((0.45 - x) / 0.9).clamp(0.0, 1.0);
            let (weight, indices) = if w == 0.0 {
                (1.0, [1u8, 0, 0, 0])
            } else {
                (w, [0, 1, 0, 0])
            };
            let mut bytes = floats(&[x, 0.35 * c, 0.35 * s, 0.0, c, s, weight]);
            bytes.extend(indices);
            bytes
        },
        constants: c,
        hand: vec![("hand", include_str!("../hand/skinned_arm.wgsl"))],
    }
}

/// The scene's shader as a D3D9 device makes it: assemble, check for a hardware-vertex-
/// processing SM3 device, bind the declaration, lift with its fetches, COLOR0 at location 0
/// and the half-pixel position fix-up.
pub fn translate(scene: &Scene, float_mode: FloatMode) -> (TranslatedShader, VertexBinding) {
    let program = assemble(scene.asm).expect("assembles");
    let checked = check(&program, Stage::Vertex, &DeviceCaps::default()).expect("checks");
    let streams = [StreamSource {
        stride: scene.stride,
        ..StreamSource::default()
    }];
    let binding = bind_program(
        &scene.declaration,
        &checked,
        &streams,
        VertexProcessing::Hardware,
    )
    .expect("binds");
    let options = VertexShaderOptions {
        sampler_reads: Vec::new(),
        input_fetches: Some(binding.fetches()),
        output_locations: Some(vec![Varying::new(Semantic::new(Usage::Color, 0), 0, 4)]),
        float_mode,
        position_fixup: true,
        point_expansion: None,
        clip_planes: false,
        wrap_twins: Vec::new(),
        float_constants_window: None,
    };
    let shader = translate_vertex_shader(&checked, &options).expect("translates");
    (shader, binding)
}

/// One vertex shader to time.
pub struct Variant {
    pub label: String,
    pub module: wgpu::ShaderSource<'static>,
    /// The same code for the probe.
    pub probe: ProbeShader,
    /// Values of the translation's loop overrides (a translation specialised on the scene's
    /// `i#`); none for the generic translation.
    pub constants: Vec<(String, f64)>,
}

impl Variant {
    /// `constants` as the harness and `lift::resolve_overrides` take them.
    pub fn constants(&self) -> Vec<(&str, f64)> {
        self.constants
            .iter()
            .map(|(k, v)| (k.as_str(), *v))
            .collect()
    }

    /// The shader for wgpu: a translation with its loop overrides resolved to `constants`
    /// (their defaults where none), as the device builds it.
    pub fn source(&self) -> wgpu::ShaderSource<'static> {
        match &self.probe {
            ProbeShader::Naga(m) => {
                let mut module = (**m).clone();
                d3d9_translator::lift::resolve_overrides(&mut module, &self.constants());
                wgpu::ShaderSource::Naga(Cow::Owned(module))
            }
            ProbeShader::Wgsl(_) => self.module.clone(),
        }
    }
}

pub enum ProbeShader {
    Naga(Box<naga::Module>),
    Wgsl(&'static str),
}

impl ProbeShader {
    pub fn stage(&self) -> ShaderStage<'_> {
        match self {
            ProbeShader::Naga(m) => ShaderStage::naga(m).entry(ENTRY_POINT),
            ProbeShader::Wgsl(w) => ShaderStage::wgsl(w).entry("main"),
        }
    }
}

pub fn variants(scene: &Scene) -> (Vec<Variant>, VertexBinding, Vec<ConstantBuffer>) {
    let mut out = Vec::new();
    let mut reference = None;
    for (label, mode) in [
        ("Ieee", FloatMode::Ieee),
        ("Legacy", FloatMode::Legacy),
        ("LegacyStrict", FloatMode::LegacyStrict),
    ] {
        let (shader, binding) = translate(scene, mode);
        let buffers = scene
            .constants
            .buffers(&shader.interface, TARGET)
            .expect("hardware constants");
        match &reference {
            None => reference = Some((binding, buffers)),
            Some((b, c)) => {
                assert_eq!(b.fetches(), binding.fetches(), "{label}: other fetches");
                assert_eq!(*c, buffers, "{label}: other constant buffers");
            }
        }
        // Ieee with the pipeline specialised on the scene's `i#` (its loops' count, start
        // and step compiled in), where the shader has loops over uniform `i#`.
        let specialised: Vec<(String, f64)> = shader
            .interface
            .loop_constant_values(&scene.constants.ints)
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        if mode == FloatMode::Ieee && !specialised.is_empty() {
            out.push(Variant {
                label: "Ieee spec".to_string(),
                module: wgpu::ShaderSource::Naga(Cow::Owned(shader.module.clone())),
                probe: ProbeShader::Naga(Box::new(shader.module.clone())),
                constants: specialised,
            });
        }
        out.push(Variant {
            label: label.to_string(),
            module: wgpu::ShaderSource::Naga(Cow::Owned(shader.module.clone())),
            probe: ProbeShader::Naga(Box::new(shader.module)),
            constants: Vec::new(),
        });
    }
    for (label, wgsl) in &scene.hand {
        out.push(Variant {
            label: label.to_string(),
            module: wgpu::ShaderSource::Wgsl(Cow::Borrowed(wgsl)),
            probe: ProbeShader::Wgsl(wgsl),
            constants: Vec::new(),
        });
    }
    // The control: the first hand shader again, in a pipeline of its own.
    let (_, wgsl) = scene.hand[0];
    out.push(Variant {
        label: "hand (control)".to_string(),
        module: wgpu::ShaderSource::Wgsl(Cow::Borrowed(wgsl)),
        probe: ProbeShader::Wgsl(wgsl),
        constants: Vec::new(),
    });
    let (binding, buffers) = reference.expect("three modes");
    (out, binding, buffers)
}

/// The outputs of variant `v` on the checked vertices (the probe's pipeline built with the
/// variant's constants).
pub fn probe(
    scene: &Scene,
    v: &Variant,
    binding: &VertexBinding,
    buffers: &[ConstantBuffer],
    gpu: &Gpu,
) -> Vec<d3d9_harness::OutputValues> {
    let data: Vec<u8> = (0..CHECKED_VERTICES)
        .flat_map(|j| (scene.vertex)(3 * CHECKED_STRIDE * j))
        .collect();
    let streams: Vec<VertexBuffer<'_>> = binding
        .streams
        .iter()
        .map(|layout| VertexBuffer::stream(layout, &data))
        .collect();
    let uniforms: Vec<_> = buffers.iter().map(d3d9_harness::Uniform::from).collect();
    let constants = v.constants();
    gpu.vertex_outputs(&VertexProbe {
        vertex_buffers: &streams,
        uniforms: &uniforms,
        ..VertexProbe::new(v.probe.stage().constants(&constants), CHECKED_VERTICES)
    })
    .unwrap_or_else(|e| panic!("{} {}: {e}", scene.name, v.label))
}

/// Every variant computes the reference hand shader's COLOR0 on the first vertices.
pub fn check_outputs(
    scene: &Scene,
    variants: &[Variant],
    binding: &VertexBinding,
    buffers: &[ConstantBuffer],
    gpu: &Gpu,
) {
    let outputs = |v: &Variant| probe(scene, v, binding, buffers, gpu);
    let hand = variants
        .iter()
        .find(|v| v.label == scene.hand[0].0)
        .expect("hand variant");
    let want = outputs(hand);
    // Colours inside (0, 1), not clamped, so that the comparison sees the math.
    let unclamped = want
        .iter()
        .filter(|o| o[&0].iter().take(3).any(|&c| c > 0.01 && c < 0.99))
        .count();
    assert!(
        unclamped >= want.len() / 2,
        "{}: only {unclamped} checked vertices have unclamped colours",
        scene.name
    );
    for v in variants {
        let got = outputs(v);
        for (k, (g, w)) in got.iter().zip(&want).enumerate() {
            let (g, w) = (&g[&0], &w[&0]);
            let close = g.iter().zip(w).all(|(a, b)| (a - b).abs() <= 1e-4);
            assert!(
                close,
                "{} {} vertex {k}: COLOR0 {g:?}, hand {w:?}",
                scene.name, v.label
            );
        }
    }
}
