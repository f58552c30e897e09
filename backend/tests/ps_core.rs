//! GPU tests of translated ps_3_0 pixel shaders' builtin inputs and kills, drawn with
//! [`Harness::render`](d3d9_harness::Harness::render) into a small `Rgba8Unorm` target with a WGSL vertex stage that covers it:
//! `vPos` holds integer pixel centres (D3D9's convention), `vFace` is positive for the faces
//! D3D9 calls front (clockwise), `dsx`/`dsy` of `vPos` are 1, and `texkill` discards pixels
//! with a negative component; and the `texld` family on a mipmapped 2D texture: `texldp`
//! divides by `.w`, `texldb` biases the level of detail by `.w`, `texldl` samples level `.w`,
//! `texldd` takes its gradients from its operands; and inputs placed by a link map (packed
//! components, a flat location, defaults). Values are chosen to be exact in 8 bits (±1 for the interpolated inputs).
//!
//! GPU tests fail, not skip, when no adapter exists (unless `D3D9_ALLOW_NO_GPU=1`).

use std::error::Error;

use d3d9_backend::device::{MipFilter, TextureFilter};
use d3d9_backend::Gpu;
use d3d9_harness::{Draw, Harness, SamplerBinding, ShaderStage, Target, TextureBinding};
use d3d9_translator::asm::assemble;
use d3d9_translator::bytecode::Stage;
use d3d9_translator::check::{check, DeviceCaps};
use d3d9_translator::lift::{translate_pixel_shader, PixelShaderOptions, TranslatedShader};

type TestResult = Result<(), Box<dyn Error>>;

const SIZE: u32 = 16;

/// Two triangles per half of the target: the left half counter-clockwise, the right half
/// clockwise (in y-up normalised device coordinates, as the viewer sees them).
const HALVES_VS: &str = "
@vertex
fn main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    var p = array<vec2<f32>, 12>(
        vec2(-1.0, -1.0), vec2(0.0, -1.0), vec2(-1.0, 1.0),
        vec2(0.0, -1.0), vec2(0.0, 1.0), vec2(-1.0, 1.0),
        vec2(0.0, -1.0), vec2(0.0, 1.0), vec2(1.0, -1.0),
        vec2(1.0, -1.0), vec2(0.0, 1.0), vec2(1.0, 1.0),
    );
    return vec4<f32>(p[i], 0.5, 1.0);
}
";

fn pixel_shader(text: &str) -> Result<TranslatedShader, Box<dyn Error>> {
    let program = assemble(text)?;
    let checked = check(&program, Stage::Pixel, &DeviceCaps::default())?;
    Ok(translate_pixel_shader(
        &checked,
        &PixelShaderOptions::default(),
    )?)
}

fn render(ps: &TranslatedShader) -> Result<Option<d3d9_harness::Image>, Box<dyn Error>> {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(None);
    };
    let draw = Draw::new(
        ShaderStage::wgsl(HALVES_VS),
        ShaderStage::naga(&ps.module),
        12,
        Target::rgba8(SIZE, SIZE),
    );
    Ok(Some(gpu.render(&draw)?))
}

#[test]
fn gpu_vpos_is_the_integer_pixel_centre_and_vface_the_winding() -> TestResult {
    // r = vPos.x / 255, g = vPos.y / 255, b = frc(vPos.x) + frc(vPos.y), a = vFace >= 0.
    let ps = pixel_shader(
        "ps_3_0\n def c0, 0.003921568627451, 1, 0, 0\n dcl vPos.xy\n dcl vFace\n\
         mul r0.xy, vPos, c0.x\n frc r1.xy, vPos\n add r0.z, r1.x, r1.y\n\
         cmp r0.w, vFace, c0.y, c0.z\n mov oC0, r0\n",
    )?;
    assert!(ps.interface.reads_position && ps.interface.reads_face);
    let Some(image) = render(&ps)? else {
        return Ok(());
    };
    for y in 0..SIZE {
        for x in 0..SIZE {
            // Clockwise (the right half) is D3D9's front face.
            let front = x >= SIZE / 2;
            let expected = [x as u8, y as u8, 0, if front { 255 } else { 0 }];
            assert_eq!(image.rgba8(x, y), Some(expected), "pixel {x},{y}");
        }
    }
    Ok(())
}

#[test]
fn gpu_texkill_discards_and_derivatives_of_vpos_are_one() -> TestResult {
    // Pixels left of x = 8 have a negative component and are discarded (the clear colour
    // stays); the rest write (dsx(vPos).x, dsy(vPos).y, dsx(vPos).y, dsy(vPos).x) = (1, 1, 0, 0).
    let ps = pixel_shader(
        "ps_3_0\n def c0, -8, 0, 0, 0\n dcl vPos.xy\n add r0, vPos.x, c0.x\n texkill r0\n\
         dsx r1, vPos\n dsy r2, vPos\n mov r3.xz, r1.xxyy\n mov r3.yw, r2.xyyx\n mov oC0, r3\n",
    )?;
    let Some(image) = render(&ps)? else {
        return Ok(());
    };
    for y in 0..SIZE {
        for x in 0..SIZE {
            let expected = if x < 8 { [0; 4] } else { [255, 255, 0, 0] };
            assert_eq!(image.rgba8(x, y), Some(expected), "pixel {x},{y}");
        }
    }
    Ok(())
}

#[test]
fn gpu_derivatives_under_a_per_pixel_branch_run_from_wgsl_text() -> TestResult {
    // dsx inside `if_gt vPos.x, 7.5`: the module turns `derivative_uniformity` off and its
    // WGSL text says so; wgpu takes the text. Quads do not straddle x = 8, so every
    // derivative is taken with the whole quad active: (1, 0, 0, 0) right, c1 left.
    let ps = pixel_shader(
        "ps_3_0\n def c0, 7.5, 0, 0, 0\n def c1, 0, 0, 1, 1\n dcl vPos.xy\n mov r0, c1\n\
         if_gt vPos.x, c0.x\n dsx r0, vPos\n endif\n mov oC0, r0\n",
    )?;
    let wgsl = ps.wgsl()?;
    assert!(wgsl.starts_with(d3d9_translator::lift::NONUNIFORM_DERIVATIVES_DIRECTIVE));
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    let draw = Draw::new(
        ShaderStage::wgsl(HALVES_VS),
        ShaderStage::wgsl(&wgsl),
        12,
        Target::rgba8(SIZE, SIZE),
    );
    let image = gpu.render(&draw)?;
    for y in 0..SIZE {
        for x in 0..SIZE {
            let expected = if x < 8 {
                [0, 0, 255, 255]
            } else {
                [255, 0, 0, 0]
            };
            assert_eq!(image.rgba8(x, y), Some(expected), "pixel {x},{y}");
        }
    }
    Ok(())
}

/// A full-screen quad (clockwise) with TEXCOORD0 = (u, v, 0, 1) at location 0, u and v
/// running 0 → 1 left to right and top to bottom.
const TEXCOORD_VS: &str = "
struct Out {
    @builtin(position) position: vec4<f32>,
    @location(0) texcoord: vec4<f32>,
}
@vertex
fn main(@builtin(vertex_index) i: u32) -> Out {
    var p = array<vec2<f32>, 6>(
        vec2(-1.0, -1.0), vec2(-1.0, 1.0), vec2(1.0, -1.0),
        vec2(1.0, -1.0), vec2(-1.0, 1.0), vec2(1.0, 1.0),
    );
    let xy = p[i];
    return Out(vec4(xy, 0.5, 1.0), vec4((xy.x + 1.0) * 0.5, (1.0 - xy.y) * 0.5, 0.0, 1.0));
}
";

/// Level 0 texel (i, j) of the 4x4 test texture.
fn level0_texel(i: u32, j: u32) -> [u8; 4] {
    [(40 * i + 20) as u8, (40 * j + 20) as u8, 0, 255]
}
const LEVEL1: [u8; 4] = [0, 0, 128, 255];
const LEVEL2: [u8; 4] = [0, 0, 255, 255];

/// Draw `ps` over the 16x16 target with the 4x4 three-level texture at `s0` (point
/// filtering, point mip filter): level 0 distinct per texel, level 1 and 2 each one colour.
fn sample(ps: &TranslatedShader) -> Result<Option<d3d9_harness::Image>, Box<dyn Error>> {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(None);
    };
    let binding = ps.interface.samplers.first().ok_or("no sampler")?;
    let level0: Vec<u8> = (0..4)
        .flat_map(|j| (0..4).flat_map(move |i| level0_texel(i, j)))
        .collect();
    let level1: Vec<u8> = LEVEL1.repeat(4);
    let levels: [&[u8]; 3] = [&level0, &level1, &LEVEL2];
    let textures = [TextureBinding::two_d(
        binding.group,
        binding.texture_binding,
        wgpu::TextureFormat::Rgba8Unorm,
        4,
        4,
        &levels,
    )];
    let samplers = [SamplerBinding {
        mag_filter: TextureFilter::Point,
        min_filter: TextureFilter::Point,
        mip_filter: MipFilter::Point,
        ..SamplerBinding::new(binding.group, binding.sampler_binding)
    }];
    let draw = Draw {
        textures: &textures,
        samplers: &samplers,
        ..Draw::new(
            ShaderStage::wgsl(TEXCOORD_VS),
            ShaderStage::naga(&ps.module),
            6,
            Target::rgba8(SIZE, SIZE),
        )
    };
    Ok(Some(gpu.render(&draw)?))
}

/// The colour expected at pixel (x, y).
type Expected = dyn Fn(u32, u32) -> [u8; 4];

#[test]
fn gpu_texld_family_projects_biases_and_picks_levels() -> TestResult {
    // The texture coordinate moves a quarter texel per pixel: level of detail -2.
    let header = "ps_3_0\n def c0, 2, 2, 0, 2\n def c1, 0, 0, 0, 3\n def c2, 0.5, 0, 0, 0\n\
                  def c3, 0, 0.5, 0, 0\n dcl_texcoord0 v0\n dcl_2d s0\n mov r1, v0\n";
    let level0 = |x: u32, y: u32| level0_texel(x / 4, y / 4);
    let cases: [(&str, &Expected); 5] = [
        ("texld r0, r1, s0", &level0),
        // (2u, 2v, 0, 2) / 2: the same texels.
        ("mul r1, r1, c0\n texldp r0, r1, s0", &level0),
        // -2 + 3: level 1.
        ("mov r1.w, c1.w\n texldb r0, r1, s0", &|_, _| LEVEL1),
        // Level 2 exactly.
        ("mov r1.w, c0.w\n texldl r0, r1, s0", &|_, _| LEVEL2),
        // Gradients of two texels per pixel: level 1.
        (
            "mov r2, c2\n mov r3, c3\n texldd r0, r1, s0, r2, r3",
            &|_, _| LEVEL1,
        ),
    ];
    for (body, expected) in cases {
        let ps = pixel_shader(&format!("{header} {body}\n mov oC0, r0\n"))?;
        let Some(image) = sample(&ps)? else {
            return Ok(());
        };
        for y in 0..SIZE {
            for x in 0..SIZE {
                assert_eq!(
                    image.rgba8(x, y),
                    Some(expected(x, y)),
                    "{body}: pixel {x},{y}"
                );
            }
        }
    }
    Ok(())
}

/// A full-screen quad whose outputs follow a link map: location 0 a `vec3` (TEXCOORD0 in
/// components 0–1, FOG in component 2), centroid; location 1 an `f32` (COLOR1), flat.
const LINKED_VS: &str = "
struct Out {
    @builtin(position) position: vec4<f32>,
    @location(0) @interpolate(perspective, centroid) packed: vec3<f32>,
    @location(1) @interpolate(flat) color1: f32,
}
@vertex
fn main(@builtin(vertex_index) i: u32) -> Out {
    var p = array<vec2<f32>, 6>(
        vec2(-1.0, -1.0), vec2(-1.0, 1.0), vec2(1.0, -1.0),
        vec2(1.0, -1.0), vec2(-1.0, 1.0), vec2(1.0, 1.0),
    );
    return Out(vec4(p[i], 0.5, 1.0), vec3(0.2, 0.4, 0.6), 0.1);
}
";

#[test]
fn gpu_linked_inputs_read_packed_components_and_defaults() -> TestResult {
    use d3d9_translator::bytecode::Usage;
    use d3d9_translator::lift::interface::{Varying, VaryingInterpolation};
    use d3d9_translator::signature::Semantic;
    let varying = |usage, index, location, component, components, interpolation| Varying {
        component,
        interpolation,
        ..Varying::new(Semantic::new(usage, index), location, components)
    };
    let options = PixelShaderOptions {
        input_locations: Some(vec![
            varying(Usage::TexCoord, 0, 0, 0, 2, VaryingInterpolation::Centroid),
            varying(Usage::Fog, 0, 0, 2, 1, VaryingInterpolation::Centroid),
            varying(Usage::Color, 1, 1, 0, 1, VaryingInterpolation::Flat),
        ]),
        ..Default::default()
    };
    // oC0 = (TEXCOORD0.x, TEXCOORD0.y, FOG, 2 * COLOR1.x * COLOR1.w + TEXCOORD5.x), COLOR1.w
    // being its default 1 (one component travels) and TEXCOORD5 (not linked) 0.
    let program = assemble(
        "ps_3_0\n def c0, 2, 0, 0, 0\n dcl_texcoord0 v0.xy\n dcl_fog v0.z\n dcl_color1 v1\n\
         dcl_texcoord5 v2\n mov r0.xyz, v0\n mul r1.x, v1.x, v1.w\n mul r1.x, r1.x, c0.x\n\
         add r0.w, r1.x, v2.x\n mov oC0, r0\n",
    )?;
    let checked = check(&program, Stage::Pixel, &DeviceCaps::default())?;
    let ps = translate_pixel_shader(&checked, &options)?;
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    let draw = Draw::new(
        ShaderStage::wgsl(LINKED_VS),
        ShaderStage::naga(&ps.module),
        6,
        Target::rgba8(SIZE, SIZE),
    );
    let image = gpu.render(&draw)?;
    for (x, y) in [(0, 0), (7, 9), (15, 15)] {
        let got = image.rgba8(x, y).ok_or("pixel")?;
        for (g, e) in got.iter().zip([51u8, 102, 153, 51]) {
            assert!(g.abs_diff(e) <= 1, "pixel {x},{y}: {got:?}");
        }
    }
    Ok(())
}
