//! Differential testing: the same vertex shader run by the reference interpreter
//! (`d3d9_translator::interp`) and, translated, on the GPU (`Harness::vertex_outputs`), with every
//! output (texture coordinates, colours, fog, point size; position apart) compared component
//! by component.
//!
//! Tolerances come from each value's own operands ([`bounds`]): the interpreter's run is
//! followed instruction by instruction and every component carries an error bound derived per
//! instruction (0 for exactly rounded operations of exact operands, which must then agree bit
//! for bit, `+0 == -0` and a denormal equal to 0; Vulkan's precision for the others,
//! propagated through the instruction's own values). Infinities and NaNs are compared by
//! class (+inf, -inf, NaN) except where a driver may legally differ, each case named by
//! [`bounds::Legal`] and counted in [`Tally`].

#![allow(dead_code)]

pub mod bounds;
pub mod generate;

use bounds::{Bound, Legal, Tracker};
use d3d9_backend::device::{
    MipFilter as GpuMipFilter, TextureAddress, TextureFilter, TextureKind as GpuKind,
    VertexConstants,
};
use d3d9_backend::Gpu;
use d3d9_harness::{
    Harness, SamplerBinding, ShaderStage, TextureBinding, VertexBuffer, VertexProbe,
};
use d3d9_translator::bytecode::{Program, RegisterFile, TextureType, Usage};
use d3d9_translator::check::CheckedProgram;
use d3d9_translator::interp::{
    Address, Constants, Filter, Interpreter, MipFilter, SamplerStates, Texture, TextureKind,
    VertexTextures,
};
use d3d9_translator::lift::{translate_vertex_shader, FloatMode, VertexShaderOptions};
use d3d9_translator::signature::Semantic;
use std::collections::BTreeMap;

/// Vertices run per program.
pub const VERTICES: usize = 4;

/// The inputs and constants of one run.
pub struct Data {
    pub inputs: Vec<[[f32; 4]; generate::INPUTS]>,
    pub constants: Constants,
}

/// Random inputs and constants for a generated program (`special`: include ±inf, NaN,
/// denormals and huge values).
pub fn data(rng: &mut generate::Rng, program: &generate::Program, special: bool) -> Data {
    let mut floats = vec![[0.0f32; 4]; 64];
    for slot in floats.iter_mut().take(generate::RANDOM_CONSTANTS) {
        *slot = [0; 4].map(|_| rng.value(special));
    }
    for k in generate::INDEX_CONSTANTS {
        // Small indices, some halfway between two (mova rounds them to even, vs_1_1's mov
        // floors them).
        floats[k] =
            [0; 4].map(|_| rng.below(40) as f32 - 6.0 + if rng.chance(30) { 0.5 } else { 0.0 });
    }
    floats[48] = [std::f32::consts::TAU, -std::f32::consts::PI, 0.0, 0.0];
    // D3DSINCOSCONST1/2 (the values vs_2_0 sincos expects; the translation ignores them).
    floats[49] = [
        -1.552_099_7e-4,
        -2.170_69e-5,
        2.604_166_8e-3,
        2.604_166_8e-4,
    ];
    floats[50] = [-2.083_333_4e-2, -1.250_000_1e-1, 1.0, 0.5];
    for slot in floats.iter_mut().skip(generate::OUTPUT_CONSTANTS).take(8) {
        *slot = [0; 4].map(|_| rng.value(false));
    }
    floats[generate::POSITION_CONSTANT] = [0.0, 0.0, 0.5, 1.0];
    let inputs = (0..VERTICES)
        .map(|_| [0; generate::INPUTS].map(|_| [0; 4].map(|_| rng.value(special))))
        .collect();
    let mut ints = vec![[0i32; 4]; 16];
    ints[..4].copy_from_slice(&program.ints);
    let mut bools = vec![false; 16];
    bools[..4].copy_from_slice(&program.bools);
    Data {
        inputs,
        constants: Constants {
            floats,
            ints,
            bools,
        },
    }
}

/// One output of one vertex as it travels (components in mask order): the interpreter's
/// values, the GPU's and each component's bound.
#[derive(Debug, Clone)]
pub struct Compared {
    pub semantic: Semantic,
    pub cpu: Vec<f32>,
    pub gpu: Vec<f32>,
    pub bounds: Vec<Bound>,
}

/// The compared outputs of each vertex.
pub type Outputs = Vec<Vec<Compared>>;

/// The output of `row` with `semantic`.
pub fn output(row: &[Compared], semantic: Semantic) -> &Compared {
    row.iter()
        .find(|o| o.semantic == semantic)
        .unwrap_or_else(|| panic!("no output {semantic:?}"))
}

/// TEXCOORDn of `row`.
pub fn texcoord(row: &[Compared], n: u8) -> &Compared {
    output(row, Semantic::new(Usage::TexCoord, n))
}

/// Run `checked` on both executors (no vertex textures).
pub fn run_both(
    gpu: &Gpu,
    checked: &CheckedProgram,
    data: &Data,
    mode: FloatMode,
) -> Result<Outputs, String> {
    run_both_textured(gpu, checked, data, mode, &VertexTextures::none())
}

/// The sampler states as the backend takes them.
pub fn gpu_states(s: &SamplerStates, group: u32, binding: u32) -> SamplerBinding {
    let address = |a: Address| match a {
        Address::Wrap => TextureAddress::Wrap,
        Address::Mirror => TextureAddress::Mirror,
        Address::Clamp => TextureAddress::Clamp,
    };
    let filter = |f: Filter| match f {
        Filter::Point => TextureFilter::Point,
        Filter::Linear => TextureFilter::Linear,
    };
    SamplerBinding {
        address: s.address.map(address),
        mag_filter: filter(s.mag_filter),
        min_filter: filter(s.min_filter),
        mip_filter: match s.mip_filter {
            MipFilter::None => GpuMipFilter::None,
            MipFilter::Point => GpuMipFilter::Point,
            MipFilter::Linear => GpuMipFilter::Linear,
        },
        max_mip_level: s.max_mip_level,
        ..SamplerBinding::new(group, binding)
    }
}

/// The backend's texture kind of an interpreter texture kind.
pub fn gpu_kind(kind: TextureKind) -> GpuKind {
    match kind {
        TextureKind::TwoD => GpuKind::TwoD,
        TextureKind::Cube => GpuKind::Cube,
        TextureKind::Volume => GpuKind::Volume,
    }
}

/// A texture's levels as `Rgba32Float` bytes.
pub fn level_bytes(texture: &Texture) -> Vec<Vec<u8>> {
    level_bytes_as(texture, |x| x.to_le_bytes().to_vec())
}

/// Each mip level of `texture` as bytes, each texel component written by `encode`.
pub fn level_bytes_as(texture: &Texture, encode: impl Fn(f32) -> Vec<u8>) -> Vec<Vec<u8>> {
    (0..texture.level_count())
        .map(|m| {
            texture
                .level(m)
                .unwrap_or_default()
                .iter()
                .flatten()
                .flat_map(|&x| encode(x))
                .collect()
        })
        .collect()
}

/// A 1x1 texture of `declared`'s kind holding `texel`: what a D3D9 runtime binds for a stage
/// whose texture is missing (`UNBOUND_TEXEL`) or of another type (`MISMATCHED_TEXEL`).
fn stand_in(declared: TextureType, texel: [f32; 4]) -> Result<Texture, String> {
    let (kind, layers) = match declared {
        TextureType::Cube => (TextureKind::Cube, 6),
        TextureType::Volume => (TextureKind::Volume, 1),
        _ => (TextureKind::TwoD, 1),
    };
    Texture::new(kind, [1, 1, 1], vec![vec![texel; layers]]).map_err(|e| e.to_string())
}

/// [`run_both`] with `textures` on the vertex sampler stages: the interpreter samples them,
/// the GPU gets each declared sampler's texture and states where the interface puts them
/// (a stage without a texture of the declared type gets the runtime's 1x1 stand-in).
pub fn run_both_textured(
    gpu: &Gpu,
    checked: &CheckedProgram,
    data: &Data,
    mode: FloatMode,
    textures: &VertexTextures<'_>,
) -> Result<Outputs, String> {
    let interpreter = Interpreter::new(checked, mode).map_err(|e| e.to_string())?;
    let shader = translate_vertex_shader(
        checked,
        &VertexShaderOptions {
            float_mode: mode,
            ..Default::default()
        },
    )
    .map_err(|e| e.to_string())?;
    let iface = &shader.interface;
    let mut constants = VertexConstants::default();
    constants
        .set_f(0, &data.constants.floats)
        .set_i(0, &data.constants.ints)
        .set_b(0, &data.constants.bools);
    let buffers = constants
        .buffers(iface, (1, 1))
        .map_err(|e| e.to_string())?;
    let uniforms: Vec<_> = buffers.iter().map(d3d9_harness::Uniform::from).collect();
    let attributes: Vec<wgpu::VertexAttribute> = iface
        .inputs
        .iter()
        .filter_map(|i| {
            let location = i.location?;
            ((i.register as usize) < generate::INPUTS).then_some(wgpu::VertexAttribute {
                format: wgpu::VertexFormat::Float32x4,
                offset: 16 * u64::from(i.register),
                shader_location: location,
            })
        })
        .collect();
    let bytes: Vec<u8> = data
        .inputs
        .iter()
        .flat_map(|v| {
            v.iter()
                .flat_map(|c| c.iter().flat_map(|x| x.to_le_bytes()))
        })
        .collect();
    let vb = [VertexBuffer {
        layout: wgpu::VertexBufferLayout {
            array_stride: 16 * generate::INPUTS as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &attributes,
        },
        data: &bytes,
    }];
    let vertex_buffers: &[VertexBuffer<'_>] = if attributes.is_empty() { &[] } else { &vb };
    // Per declared sampler: the texture the GPU gets and its states.
    let mut bound = Vec::new();
    for s in &iface.samplers {
        let stage = textures.stages.get(s.register as usize).copied().flatten();
        let (texture, states) = match stage {
            Some(b) if b.texture.kind().texture_type() == s.texture_type => {
                (b.texture.clone(), b.states)
            }
            Some(_) => (
                stand_in(
                    s.texture_type,
                    d3d9_translator::interp::texture::MISMATCHED_TEXEL,
                )?,
                SamplerStates::default(),
            ),
            None => (
                stand_in(
                    s.texture_type,
                    d3d9_translator::interp::texture::UNBOUND_TEXEL,
                )?,
                SamplerStates::default(),
            ),
        };
        bound.push((s, level_bytes(&texture), texture, states));
    }
    let level_refs: Vec<Vec<&[u8]>> = bound
        .iter()
        .map(|(_, levels, _, _)| levels.iter().map(Vec::as_slice).collect())
        .collect();
    let gpu_textures: Vec<TextureBinding<'_>> = bound
        .iter()
        .zip(&level_refs)
        .map(|((s, _, texture, _), levels)| {
            let [width, height, depth] = texture.size();
            TextureBinding {
                group: s.group,
                binding: s.texture_binding,
                kind: gpu_kind(texture.kind()),
                format: wgpu::TextureFormat::Rgba32Float,
                width,
                height,
                depth,
                levels,
            }
        })
        .collect();
    let gpu_samplers: Vec<SamplerBinding> = bound
        .iter()
        .map(|(s, _, _, states)| gpu_states(states, s.group, s.sampler_binding))
        .collect();
    let gpu_out = gpu
        .vertex_outputs(&VertexProbe {
            vertex_buffers,
            uniforms: &uniforms,
            textures: &gpu_textures,
            samplers: &gpu_samplers,
            ..VertexProbe::new(ShaderStage::naga(&shader.module), VERTICES as u32)
        })
        .map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    let version = checked.program().version;
    for (v, inputs) in data.inputs.iter().enumerate() {
        let mut tracker = Tracker::new(mode, version);
        let cpu = interpreter
            .run_observed(inputs, &data.constants, textures, &mut |step| {
                tracker.step(step)
            })
            .map_err(|e| e.to_string())?;
        let mut row = Vec::new();
        for value in &cpu.outputs {
            if value.semantic.usage == Usage::Position {
                continue;
            }
            let Some(o) = iface.output(value.semantic) else {
                continue;
            };
            let Some(location) = o.location else {
                continue;
            };
            let lanes: Vec<usize> = (0..4)
                .filter(|&c| o.mask.contains(c))
                .take(usize::from(o.components))
                .collect();
            let colour = value.register.file == RegisterFile::AttrOut;
            let bounds = lanes
                .iter()
                .map(|&c| {
                    let b = tracker.bound(value.register.file, value.register.index, c);
                    if colour {
                        bounds::saturated(b)
                    } else {
                        b
                    }
                })
                .collect();
            let gpu_values = gpu_out
                .get(v)
                .and_then(|m| m.get(&location))
                .cloned()
                .unwrap_or_default();
            row.push(Compared {
                semantic: value.semantic,
                cpu: lanes.iter().map(|&c| value.value[c]).collect(),
                gpu: gpu_values,
                bounds,
            });
        }
        out.push(row);
    }
    Ok(out)
}

/// How the components of a run were compared: exactly, within a bound, or not at all for a
/// legal reason (by reason).
#[derive(Debug, Clone, Default)]
pub struct Tally {
    pub exact: u64,
    pub bounded: u64,
    pub legal: BTreeMap<Legal, u64>,
}

impl Tally {
    pub fn add(&mut self, other: &Tally) {
        self.exact += other.exact;
        self.bounded += other.bounded;
        for (k, n) in &other.legal {
            *self.legal.entry(*k).or_insert(0) += n;
        }
    }
}

/// The components of `outputs` that disagree, as text, and how every component was compared.
pub fn disagreements(outputs: &Outputs) -> (Vec<String>, Tally) {
    let mut bad = Vec::new();
    let mut tally = Tally::default();
    for (v, row) in outputs.iter().enumerate() {
        for o in row {
            if o.cpu.len() != o.gpu.len() {
                bad.push(format!(
                    "vertex {v} {:?}: cpu {:?} gpu {:?}",
                    o.semantic, o.cpu, o.gpu
                ));
                continue;
            }
            for (c, ((&a, &b), bound)) in o.cpu.iter().zip(&o.gpu).zip(&o.bounds).enumerate() {
                match bound.free {
                    Some(reason) => *tally.legal.entry(reason).or_insert(0) += 1,
                    None if bound.error == 0.0 => tally.exact += 1,
                    None => tally.bounded += 1,
                }
                if !bounds::agree(a, b, bound) {
                    bad.push(format!(
                        "vertex {v} {}{}.{}: cpu {a:e} gpu {b:e} (bound {:e})",
                        o.semantic.usage,
                        o.semantic.index,
                        ['x', 'y', 'z', 'w'][c],
                        bound.error
                    ));
                }
            }
        }
    }
    (bad, tally)
}

/// A program's text for a failure report.
pub fn listing(program: &Program) -> String {
    d3d9_translator::asm::disassemble(program)
}
