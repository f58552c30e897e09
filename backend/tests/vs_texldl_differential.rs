//! Vertex texture fetch: the reference interpreter (`interp::texture`) and the GPU agree on
//! `texldl` (issue: interpreter texldl). Random cases, each a vs_3_0 shader sampling one
//! texture through one of the four vertex sampler stages, run on both with the same texture
//! and sampler states:
//!
//! - textures: 2D, cube and volume, power-of-two sizes from 1 to 8 texels per axis, from one
//!   mip level to the full chain, texels that are multiples of 1/256 in [0, 1], uploaded as
//!   `Rgba32Float`, or as `Rgba16Float` (which holds them exactly) where the device cannot
//!   filter 32-bit floats (GL/llvmpipe lacks `FLOAT32_FILTERABLE`);
//! - sampler states: `WRAP`/`MIRROR`/`CLAMP` per axis, `POINT`/`LINEAR` min and mag filters,
//!   mip filter `NONE`/`POINT`/`LINEAR`, `MAXMIPLEVEL` from 0 to past the chain;
//! - per vertex a coordinate (xyz, or a cube direction) and a LOD in w, also through the
//!   coordinate and sampler swizzles and a write mask.
//!
//! Tolerances: where every filter that applies is `POINT` the results are compared exactly;
//! the coordinates are then texel centres (plus whole repetitions of the texture, so that
//! `WRAP` and `MIRROR` are exercised) and LODs stay 0.25 away from halves, so no rounding
//! rule at a texel edge or at a half-way LOD is relied on. With a `LINEAR` filter the
//! coordinates and LODs are arbitrary and components agree within [`LINEAR_TOLERANCE`]
//! absolute: the texels are in [0, 1], and GPUs compute filter weights with limited subtexel
//! precision (8 bits is the D3D9-era norm: 1/512 per weight after rounding, so at most
//! 4 × 1/512 for two blended trilinear taps) where the interpreter uses exact weights.
//!
//! The case count is `D3D9_TEXLDL_CASES` (default 300; the seed `D3D9_TEXLDL_SEED`, default 1).
//! Needs a GPU adapter (lavapipe is enough) and fails without one.

mod differential;

use d3d9_backend::Gpu;
use d3d9_harness::{Harness, ShaderStage, TextureBinding, Uniform, VertexBuffer, VertexProbe};
use d3d9_translator::asm::assemble;
use d3d9_translator::bytecode::{Stage, Usage};
use d3d9_translator::check::{check, DeviceCaps};
use d3d9_translator::interp::{
    Address, Constants, Filter, Interpreter, MipFilter, SamplerStates, Texture, TextureKind,
    VertexTextures,
};
use d3d9_translator::lift::{translate_vertex_shader, FloatMode, VertexShaderOptions};
use d3d9_translator::signature::Semantic;
use differential::generate::Rng;
use differential::{gpu_kind, gpu_states, level_bytes, level_bytes_as};

/// The largest difference accepted with a linear filter (texels in [0, 1]).
const LINEAR_TOLERANCE: f32 = 4.0 / 512.0;

/// Vertices (coordinates) per case.
const VERTICES: usize = 16;

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// One random case: the texture, its states, the stage, and the coordinates.
struct Case {
    texture: Texture,
    states: SamplerStates,
    stage: u32,
    coords: Vec<[f32; 4]>,
    /// Whether every applicable filter is point (compare exactly).
    exact: bool,
}

fn random_case(rng: &mut Rng) -> Case {
    let kind = *rng.pick(&[TextureKind::TwoD, TextureKind::Cube, TextureKind::Volume]);
    let mut axis = || 1u32 << rng.below(4);
    let size = match kind {
        TextureKind::TwoD => [axis(), axis(), 1],
        TextureKind::Cube => {
            let n = axis();
            [n, n, 1]
        }
        TextureKind::Volume => [axis(), axis(), axis()],
    };
    let most = 32 - size.iter().max().copied().unwrap_or(1).leading_zeros() as usize;
    let level_count = 1 + rng.below(most);
    let extent = |m: usize| {
        let s = |n: u32| (n >> m).max(1);
        let layers = match kind {
            TextureKind::TwoD => 1,
            TextureKind::Cube => 6,
            TextureKind::Volume => s(size[2]),
        };
        [s(size[0]), s(size[1]), layers]
    };
    let levels: Vec<Vec<[f32; 4]>> = (0..level_count)
        .map(|m| {
            let [w, h, l] = extent(m);
            (0..w * h * l)
                .map(|_| [0; 4].map(|_| rng.below(257) as f32 / 256.0))
                .collect()
        })
        .collect();
    let texture = Texture::new(kind, size, levels).expect("a valid random texture");
    let address = [0; 3].map(|_| *rng.pick(&[Address::Wrap, Address::Mirror, Address::Clamp]));
    let linear = rng.chance(50);
    let filter = |rng: &mut Rng| {
        if linear && rng.chance(70) {
            Filter::Linear
        } else {
            Filter::Point
        }
    };
    let mag_filter = filter(rng);
    let min_filter = filter(rng);
    let mip_filter = *rng.pick(&[MipFilter::None, MipFilter::Point, MipFilter::Linear]);
    let max_mip_level = rng.below(level_count + 1) as u32;
    let states = SamplerStates {
        address,
        mag_filter,
        min_filter,
        mip_filter,
        max_mip_level,
    };
    let exact = mag_filter == Filter::Point
        && min_filter == Filter::Point
        && mip_filter != MipFilter::Linear;
    let coords = (0..VERTICES)
        .map(|_| {
            let (lod, [x, y, z]) = if exact {
                // Quarters from -1 to 5, never half-way between two levels.
                let lod = rng.below(24) as f32 / 4.0 - 1.0;
                let lod = if lod.fract().abs() == 0.5 {
                    lod + 0.25
                } else {
                    lod
                };
                (lod, centre_coordinate(rng, &texture, kind))
            } else {
                let lod = rng.below(1 << 12) as f32 / 512.0 - 1.0;
                (
                    lod,
                    [0; 3].map(|_| rng.below(1 << 12) as f32 / 1024.0 - 1.5),
                )
            };
            [x, y, z, lod]
        })
        .collect();
    Case {
        texture,
        states,
        stage: rng.below(4) as u32,
        coords,
        exact,
    }
}

/// A coordinate at the centre of a texel of level 0, plus whole repetitions of the texture
/// (for 2D and volumes): on an axis of 2^k·n texels the centre (i + ½) / n lies at
/// (i + ½)·2^(j−k) texels of a level of 2^j texels, never on a texel edge of a coarser
/// level. Cubes: a direction through a texel centre of a face, scaled by a power of two
/// (directions need not be normalised).
fn centre_coordinate(rng: &mut Rng, texture: &Texture, kind: TextureKind) -> [f32; 3] {
    let [w, h, d] = texture.extent(0);
    let repeat = |rng: &mut Rng| rng.below(5) as f32 - 2.0;
    let centre = |rng: &mut Rng, n: u32| (rng.below(n as usize) as f32 + 0.5) / n as f32;
    match kind {
        TextureKind::TwoD => [
            centre(rng, w) + repeat(rng),
            centre(rng, h) + repeat(rng),
            0.0,
        ],
        TextureKind::Volume => [
            centre(rng, w) + repeat(rng),
            centre(rng, h) + repeat(rng),
            centre(rng, d) + repeat(rng),
        ],
        TextureKind::Cube => {
            // Face coordinates (sc, tc) in -1..1 at a texel centre, the major axis ±1.
            let sc = 2.0 * centre(rng, w) - 1.0;
            let tc = 2.0 * centre(rng, w) - 1.0;
            let major = rng.below(3);
            let sign = if rng.chance(50) { 1.0 } else { -1.0 };
            let scale = (1 << rng.below(3)) as f32;
            let mut v = [0.0f32; 3];
            let mut minors = [sc, tc].into_iter();
            for (k, slot) in v.iter_mut().enumerate() {
                *slot = if k == major {
                    sign
                } else {
                    minors.next().unwrap_or(0.0)
                };
            }
            v.map(|c| c * scale)
        }
    }
}

/// The shader: `texldl` from `s#stage` with the coordinate in v0, the texel in texcoord0,
/// and again through swizzles and a write mask into texcoord1.
fn shader_text(kind: TextureKind, stage: u32) -> String {
    let dcl = match kind {
        TextureKind::TwoD => "2d",
        TextureKind::Cube => "cube",
        TextureKind::Volume => "volume",
    };
    format!(
        "vs_3_0
dcl_position o0
dcl_texcoord0 o1
dcl_texcoord1 o2
dcl_texcoord0 v0
dcl_{dcl} s{stage}
def c95, 0.0, 0.0, 0.5, 1.0
def c1, -7.0, -8.0, -9.0, -10.0
mov o0, c95
texldl r0, v0, s{stage}
mov o1, r0
mov r1, c1
mov r2, v0.yxzw
texldl r1.xzw, r2.yxzw, s{stage}.wzyx
mov o2, r1
"
    )
}

/// Runs `case` on the GPU and the interpreter: (texcoord0, texcoord1) per vertex from each.
type Pair = ([f32; 4], [f32; 4]);

fn run_case(gpu: &Gpu, case: &Case) -> Result<(Vec<Pair>, Vec<Pair>), String> {
    let text = shader_text(case.texture.kind(), case.stage);
    let program = assemble(&text).map_err(|e| format!("{e}\n{text}"))?;
    let checked =
        check(&program, Stage::Vertex, &DeviceCaps::default()).map_err(|e| e.to_string())?;
    // The interpreter.
    let interpreter = Interpreter::new(&checked, FloatMode::Legacy).map_err(|e| e.to_string())?;
    let textures = VertexTextures::none().with(case.stage as usize, &case.texture, case.states);
    let tc = |k| Semantic::new(Usage::TexCoord, k);
    let mut cpu = Vec::new();
    for coord in &case.coords {
        let out = interpreter
            .run_textured(&[*coord], &Constants::default(), &textures)
            .map_err(|e| e.to_string())?;
        cpu.push((
            out.get(tc(0)).ok_or("no texcoord0")?,
            out.get(tc(1)).ok_or("no texcoord1")?,
        ));
    }
    // The GPU.
    let shader = translate_vertex_shader(&checked, &VertexShaderOptions::default())
        .map_err(|e| e.to_string())?;
    let iface = &shader.interface;
    let sampler = iface
        .samplers
        .iter()
        .find(|s| s.register == case.stage)
        .ok_or("the sampler is missing from the interface")?;
    // Texels are multiples of 1/256 in [0, 1]: exact in f16 too, so the fallback format
    // changes nothing the interpreter sees.
    let format = texel_format(gpu);
    let levels = match format {
        wgpu::TextureFormat::Rgba32Float => level_bytes(&case.texture),
        _ => half_level_bytes(&case.texture),
    };
    let level_refs: Vec<&[u8]> = levels.iter().map(Vec::as_slice).collect();
    let [width, height, depth] = case.texture.size();
    let textures = [TextureBinding {
        group: sampler.group,
        binding: sampler.texture_binding,
        kind: gpu_kind(case.texture.kind()),
        format,
        width,
        height,
        depth,
        levels: &level_refs,
    }];
    let samplers = [gpu_states(
        &case.states,
        sampler.group,
        sampler.sampler_binding,
    )];
    let registers = iface.float_constants.map_or(0, |f| f.registers as usize);
    let mut floats = vec![[0.0f32; 4]; registers + 1];
    for &(n, v) in &iface.defined_floats {
        if let Some(slot) = floats.get_mut(n as usize) {
            *slot = v;
        }
    }
    let float_bytes: Vec<u8> = floats
        .iter()
        .flatten()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let uniforms: Vec<_> = iface
        .float_constants
        .iter()
        .map(|f| Uniform::new(f.group, f.binding, &float_bytes))
        .collect();
    let location = iface
        .input(0)
        .and_then(|i| i.location)
        .ok_or("no v0 location")?;
    let attributes = [wgpu::VertexAttribute {
        format: wgpu::VertexFormat::Float32x4,
        offset: 0,
        shader_location: location,
    }];
    let coord_bytes: Vec<u8> = case
        .coords
        .iter()
        .flatten()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let buffers = [VertexBuffer {
        layout: wgpu::VertexBufferLayout {
            array_stride: 16,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &attributes,
        },
        data: &coord_bytes,
    }];
    let out = gpu
        .vertex_outputs(&VertexProbe {
            vertex_buffers: &buffers,
            uniforms: &uniforms,
            textures: &textures,
            samplers: &samplers,
            ..VertexProbe::new(ShaderStage::naga(&shader.module), VERTICES as u32)
        })
        .map_err(|e| e.to_string())?;
    let loc = |k| {
        iface
            .output(tc(k))
            .and_then(|o| o.location)
            .ok_or("no output location")
    };
    let (l0, l1) = (loc(0)?, loc(1)?);
    let read = |o: &d3d9_harness::OutputValues, l| -> Result<[f32; 4], String> {
        o.get(&l)
            .and_then(|v| <[f32; 4]>::try_from(v.as_slice()).ok())
            .ok_or_else(|| "an output not read back".to_string())
    };
    let gpu_pairs = out
        .iter()
        .map(|o| Ok((read(o, l0)?, read(o, l1)?)))
        .collect::<Result<Vec<_>, String>>()?;
    Ok((cpu, gpu_pairs))
}

/// `Rgba32Float` where the device filters it, else `Rgba16Float`.
fn texel_format(gpu: &Gpu) -> wgpu::TextureFormat {
    if gpu
        .device()
        .features()
        .contains(wgpu::Features::FLOAT32_FILTERABLE)
    {
        wgpu::TextureFormat::Rgba32Float
    } else {
        wgpu::TextureFormat::Rgba16Float
    }
}

/// Each mip level of `texture` as `Rgba16Float` bytes; fails a value that f16 cannot hold.
fn half_level_bytes(texture: &Texture) -> Vec<Vec<u8>> {
    level_bytes_as(texture, |x| {
        let h = half::f16::from_f32(x);
        assert_eq!(h.to_f32(), x, "a texel that f16 cannot hold exactly");
        h.to_le_bytes().to_vec()
    })
}

#[test]
fn texldl_interpreter_and_gpu_agree() {
    let gpu = Gpu::for_tests().expect("a GPU adapter (lavapipe is enough)");
    let Some(gpu) = gpu else { return };
    let count = env_number("D3D9_TEXLDL_CASES", 300);
    let seed = env_number("D3D9_TEXLDL_SEED", 1);
    let mut rng = Rng::new(seed);
    let (mut exact_cases, mut linear_cases, mut worst) = (0, 0, 0.0f32);
    let mut failures = Vec::new();
    for n in 0..count {
        let case = random_case(&mut rng);
        let (cpu, gpu_out) = match run_case(&gpu, &case) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("case {n}: {e}"));
                continue;
            }
        };
        if case.exact {
            exact_cases += 1;
        } else {
            linear_cases += 1;
        }
        for (v, ((c0, c1), (g0, g1))) in cpu.iter().zip(&gpu_out).enumerate() {
            for (c, g) in c0.iter().chain(c1).zip(g0.iter().chain(g1)) {
                let diff = (c - g).abs();
                let ok = if case.exact {
                    c == g
                } else {
                    diff <= LINEAR_TOLERANCE
                };
                if !case.exact {
                    worst = worst.max(diff);
                }
                if !ok {
                    failures.push(format!(
                        "case {n} vertex {v}: {:?} {:?} s{} {:?} {:?} coord {:?}: cpu {c0:?} {c1:?} gpu {g0:?} {g1:?}",
                        case.texture.kind(),
                        case.texture.size(),
                        case.stage,
                        case.texture.level_count(),
                        case.states,
                        case.coords[v]
                    ));
                    break;
                }
            }
        }
    }
    eprintln!(
        "texldl ({:?} texels): {exact_cases} point-filtered and {linear_cases} linear cases of {count}; largest linear difference {worst:e}; {} failures",
        texel_format(&gpu),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
    // Both kinds of case ran (the generator makes each about half the time).
    assert!(exact_cases > 0 && linear_cases > 0);
}
