//! Differential testing: the same vertex shader run by the reference interpreter
//! (`d3d9_translator::interp`) and, translated, on the GPU (`Gpu::vertex_outputs`), with the
//! outputs compared component by component.
//!
//! Tolerances: components the generator marks exact (`generate::Class::Exact`/`Product`) must
//! be equal — the same bits, except that NaN equals any NaN, -0 equals +0, and a denormal
//! equals 0 (a GPU may flush denormals); inexact ones (fused multiply-adds, rcp, rsq, exp,
//! log, pow, sincos, nrm, lit) must agree within 1e-3 relative + 1e-3 absolute + 1e-6 times
//! the largest finite magnitude in the run's data (a fused or reordered evaluation of
//! intermediate values that large moves the result by that much), and an
//! GPU infinity or NaN only equals a non-finite interpreter value. Where the interpreter gives
//! inf or NaN any GPU value is accepted: WGSL lets an implementation assume infinities and
//! NaNs are absent (lavapipe folds `-x + x` to 0 for x = inf, and gives 0 for
//! `exp2(b * log2(0))` with b < 0); D3D9's own special values are finite (rcp(0) = FLT_MAX)
//! and stay checked. Vulkan's precision rules (2.5 ulp division, 3 ulp
//! exp2/log2, 2^-11 absolute for sin/cos on [-π, π]) sit well inside that; a semantic
//! difference (a wrong component, modifier, special value or loop count) does not.

#![allow(dead_code)]

pub mod generate;

use d3d9_backend::{
    ConstantBuffer, Gpu, MipFilter as GpuMipFilter, SamplerBinding, ShaderStage, TextureAddress,
    TextureBinding, TextureFilter, TextureKind as GpuKind, VertexBuffer, VertexConstants,
    VertexProbe,
};
use d3d9_translator::bytecode::{Program, TextureType, Usage};
use d3d9_translator::check::CheckedProgram;
use d3d9_translator::interp::{
    Address, Constants, Filter, Interpreter, MipFilter, SamplerStates, Texture, TextureKind,
    VertexTextures,
};
use d3d9_translator::lift::{translate_vertex_shader, FloatMode, VertexShaderOptions};
use d3d9_translator::signature::Semantic;
use generate::Class;

/// Vertices run per program.
pub const VERTICES: usize = 4;

/// Whether two components agree under `class`; `scale` is the largest finite magnitude in the
/// run's data, which bounds how far a reordered or fused evaluation may move an inexact
/// result (lavapipe evaluates `a * (b - c) + c` as `a * b + (1 - a) * c`: with c = 1e30 the
/// two differ by the size of b).
pub fn agree(class: Class, cpu: f32, gpu: f32, scale: f32) -> bool {
    let tiny = |x: f32| x.abs() < f32::MIN_POSITIVE;
    if cpu.to_bits() == gpu.to_bits() || cpu == gpu || (cpu.is_nan() && gpu.is_nan()) {
        return true;
    }
    if tiny(cpu) && tiny(gpu) {
        return true;
    }
    // WGSL lets an implementation assume that infinities and NaNs are not present (its
    // compiler folds `-x + x` to 0; exp2(+inf) may come back as 0), so where the rules give
    // inf or NaN any value is accepted. D3D9's own special values (rcp(0) = FLT_MAX …) are
    // finite and stay checked.
    if !cpu.is_finite() {
        return true;
    }
    if class != Class::Inexact
        || cpu.is_infinite()
        || gpu.is_infinite()
        || cpu.is_nan()
        || gpu.is_nan()
    {
        return false;
    }
    (cpu - gpu).abs() <= 1e-3 * cpu.abs().max(gpu.abs()) + 1e-3 + 1e-6 * scale
}

/// The inputs and constants of one run.
pub struct Data {
    pub inputs: Vec<[[f32; 4]; generate::INPUTS]>,
    pub constants: Constants,
}

impl Data {
    /// The largest finite magnitude among the inputs and float constants.
    pub fn scale(&self) -> f32 {
        self.inputs
            .iter()
            .flatten()
            .flatten()
            .chain(self.constants.floats.iter().flatten())
            .filter(|x| x.is_finite())
            .fold(0.0f32, |m, x| m.max(x.abs()))
    }
}

/// Random inputs and constants for a generated program (`special`: include ±inf, NaN,
/// denormals and huge values).
pub fn data(rng: &mut generate::Rng, program: &generate::Program, special: bool) -> Data {
    let mut floats = vec![[0.0f32; 4]; 64];
    for slot in floats.iter_mut().take(generate::RANDOM_CONSTANTS) {
        *slot = [0; 4].map(|_| rng.value(special));
    }
    for k in generate::INDEX_CONSTANTS {
        // Small indices, some halfway between two (mova rounds them away from zero).
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
    for slot in floats.iter_mut().skip(51).take(generate::OUTPUTS) {
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

/// The outputs TEXCOORD0..3 of each vertex as they travel (components in mask order), from
/// the interpreter and from the GPU: `(cpu, gpu)` per vertex and output.
pub type Outputs = Vec<[(Vec<f32>, Vec<f32>); generate::OUTPUTS]>;

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
    let uniforms: Vec<_> = buffers.iter().map(ConstantBuffer::uniform).collect();
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
    for (v, inputs) in data.inputs.iter().enumerate() {
        let cpu = interpreter
            .run_textured(inputs, &data.constants, textures)
            .map_err(|e| e.to_string())?;
        let mut row: [(Vec<f32>, Vec<f32>); generate::OUTPUTS] = Default::default();
        for (k, slot) in row.iter_mut().enumerate() {
            let semantic = Semantic::new(Usage::TexCoord, k as u8);
            let Some(o) = iface.output(semantic) else {
                continue;
            };
            let Some(location) = o.location else {
                continue;
            };
            let register = cpu.get(semantic).unwrap_or([0.0; 4]);
            let lanes: Vec<f32> = (0..4)
                .filter(|&c| o.mask.contains(c))
                .map(|c| register[c])
                .take(usize::from(o.components))
                .collect();
            let g = gpu_out
                .get(v)
                .and_then(|m| m.get(&location))
                .cloned()
                .unwrap_or_default();
            *slot = (lanes, g);
        }
        out.push(row);
    }
    Ok(out)
}

/// The components of `outputs` that disagree under `classes` (None: every component is
/// compared as inexact), as text.
pub fn disagreements(
    outputs: &Outputs,
    classes: Option<&[[Class; 4]; generate::OUTPUTS]>,
    scale: f32,
) -> Vec<String> {
    let mut bad = Vec::new();
    for (v, row) in outputs.iter().enumerate() {
        for (k, (cpu, gpu)) in row.iter().enumerate() {
            if cpu.len() != gpu.len() {
                bad.push(format!("vertex {v} texcoord{k}: cpu {cpu:?} gpu {gpu:?}"));
                continue;
            }
            for (c, (&a, &b)) in cpu.iter().zip(gpu).enumerate() {
                let class = classes.map_or(Class::Inexact, |cl| cl[k][c]);
                if !agree(class, a, b, scale) {
                    bad.push(format!(
                        "vertex {v} texcoord{k}.{} ({class:?}): cpu {a:e} gpu {b:e}",
                        ['x', 'y', 'z', 'w'][c]
                    ));
                }
            }
        }
    }
    bad
}

/// A program's text for a failure report.
pub fn listing(program: &Program) -> String {
    d3d9_translator::asm::disassemble(program)
}
