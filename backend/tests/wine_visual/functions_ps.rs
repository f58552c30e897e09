//! The pixel-shader and vertex↔pixel functions of Wine's `dlls/d3d9/tests/visual.c`, replayed
//! call by call on [`Device`], like [`super::functions`]: shaders, vertex data and expected
//! colours from the corpus; each function's control flow (shader, constants, state, draw,
//! check) as visual.c has it.

use super::corpus::CToken;
use super::corpus::Corpus;
use super::device::{
    Device, FogMode, FogState, Format, Primitive, StageArg, StageOp, TextureStage,
};
use super::functions::{bytes_of, f32_bytes, literal_checks, vec4, words, Field, Report};
use d3d9_backend::{CullMode, TextureFilter, TextureKind};
use d3d9_translator::lift::FloatMode;

/// The functions of the pixel-shader issue, in the order of the issue, then other
/// pixel-shader functions of visual.c.
pub const FUNCTIONS: [&str; 18] = [
    "fp_special_test",
    "cnd_test",
    "texkill_test",
    "dp2add_ps_test",
    "pretransformed_varying_test",
    "nested_loop_test",
    "vface_register_test",
    "test_fragment_coords",
    "test_color_clamping",
    "test_uninitialized_varyings",
    "test_vshader_input",
    "multiple_rendertargets_test",
    "test_nrm_instruction",
    "test_dsy",
    "test_mismatched_sample_types",
    "fog_with_shader_test",
    "constant_clamp_ps_test",
    "test_shademode",
];

const D3DFVF_XYZ: u32 = 0x002;
const D3DFVF_DIFFUSE: u32 = 0x040;
const D3DFVF_TEX1: u32 = 0x100;
/// `D3DFVF_TEXCOORDSIZE4(0)`.
const D3DFVF_TEXCOORDSIZE4_0: u32 = 2 << 16;

/// Replay `function` on a fresh device (the lifter's default float mode).
pub fn run(function: &str) -> Report {
    run_in(function, FloatMode::Legacy)
}

/// Replay `function` with the shaders translated in `float_mode`.
pub fn run_in(function: &str, float_mode: FloatMode) -> Report {
    if function == "fp_special_test" {
        return super::functions::run_in(function, float_mode);
    }
    let mut report = Report {
        function: function.to_string(),
        checks: Vec::new(),
        failures: Vec::new(),
        error: None,
    };
    let corpus = match Corpus::load() {
        Ok(c) => c,
        Err(e) => {
            report.error = Some(e);
            return report;
        }
    };
    let mut dev = match Device::new(float_mode) {
        Ok(d) => d,
        Err(e) => {
            report.error = Some(format!("no GPU device: {e}"));
            return report;
        }
    };
    let result = match function {
        "cnd_test" => cnd_test(&corpus, &mut dev),
        "texkill_test" => texkill_test(&corpus, &mut dev),
        "dp2add_ps_test" => dp2add_ps_test(&corpus, &mut dev),
        "nested_loop_test" => nested_loop_test(&corpus, &mut dev),
        "vface_register_test" => vface_register_test(&corpus, &mut dev),
        "multiple_rendertargets_test" => multiple_rendertargets_test(&corpus, &mut dev),
        "test_dsy" => test_dsy(&corpus, &mut dev),
        "test_fragment_coords" => test_fragment_coords(&corpus, &mut dev),
        "constant_clamp_ps_test" => constant_clamp_ps_test(&corpus, &mut dev),
        "test_shademode" => test_shademode(&corpus, &mut dev),
        "fog_with_shader_test" => fog_with_shader_test(&corpus, &mut dev),
        "test_color_clamping" => test_color_clamping(&corpus, &mut dev),
        "test_uninitialized_varyings" => test_uninitialized_varyings(&corpus, &mut dev),
        "pretransformed_varying_test" => pretransformed_varying_test(&corpus, &mut dev),
        "test_vshader_input" => test_vshader_input(&corpus, &mut dev),
        "test_nrm_instruction" => test_nrm_instruction(&corpus, &mut dev),
        "test_mismatched_sample_types" => test_mismatched_sample_types(&corpus, &mut dev),
        other => Err(format!("{other} is not one of the replayed functions")),
    };
    report.error = result.err();
    report.checks = std::mem::take(&mut dev.checks);
    report.failures = std::mem::take(&mut dev.failures);
    report
}

/// cnd_test: ps_1_1–1_4 `cnd` with the `r0.a` condition, then with co-issue on the colour
/// and on the alpha instruction; 16 checks each.
fn cnd_test(corpus: &Corpus, dev: &mut Device) -> Result<(), String> {
    const FN: &str = "cnd_test";
    let quads: Vec<Vec<u8>> = ["quad1", "quad2", "quad3", "quad4"]
        .iter()
        .map(|q| corpus.floats(FN, q).map(|v| f32_bytes(&v)))
        .collect::<Result<_, _>>()?;
    let pass = |dev: &mut Device, suffix: &str| -> Result<(), String> {
        for (version, quad) in ["11", "12", "13", "14"].iter().zip(&quads) {
            let name = format!("shader_code_{version}{suffix}");
            dev.set_pixel_shader(Some(&corpus.shader(FN, &name)?));
            dev.draw_up(&name, Primitive::TriangleStrip, 2, quad, 24);
        }
        dev.set_pixel_shader(None);
        Ok(())
    };
    dev.clear(0xff00_ffff);
    dev.set_ps_const_f(1, &[vec4(corpus, FN, "test_data_c1")?]);
    dev.set_ps_const_f(2, &[vec4(corpus, FN, "test_data_c2")?]);
    dev.set_fvf(D3DFVF_XYZ | D3DFVF_TEX1)?;
    pass(dev, "")?;
    literal_checks(corpus, dev, FN, 6942..7018, 16)?;
    dev.clear(0xff00_ffff);
    dev.set_ps_const_f(1, &[vec4(corpus, FN, "test_data_c1_coi")?]);
    dev.set_ps_const_f(2, &[vec4(corpus, FN, "test_data_c2_coi")?]);
    pass(dev, "_coissue")?;
    literal_checks(corpus, dev, FN, 7023..7116, 16)?;
    dev.clear(0xff00_ffff);
    pass(dev, "_coissue_2")?;
    literal_checks(corpus, dev, FN, 7117..u64::MAX, 16)
}

/// texkill_test: `texkill t0` (ps_1_1, then ps_2_0) discards where any of x, y, z (and w in
/// ps_2_0) of the interpolated coordinate is negative; 16 checks each.
fn texkill_test(corpus: &Corpus, dev: &mut Device) -> Result<(), String> {
    const FN: &str = "texkill_test";
    let vertex = f32_bytes(&corpus.floats(FN, "vertex")?);
    dev.clear(0xff00_ff00);
    dev.set_pixel_shader(Some(&corpus.shader(FN, "shader_code_11")?));
    dev.set_fvf(D3DFVF_XYZ | D3DFVF_TEXCOORDSIZE4_0 | D3DFVF_TEX1)?;
    dev.draw_up("ps_1_1 texkill", Primitive::TriangleStrip, 2, &vertex, 28);
    literal_checks(corpus, dev, FN, 0..5579, 16)?;
    dev.set_pixel_shader(None);
    dev.clear(0xffff_ff00);
    dev.set_pixel_shader(Some(&corpus.shader(FN, "shader_code_20")?));
    dev.draw_up("ps_2_0 texkill", Primitive::TriangleStrip, 2, &vertex, 28);
    literal_checks(corpus, dev, FN, 5579..u64::MAX, 16)
}

/// dp2add_ps_test: `dp2add` and `dp2add_sat` of constants, each drawn and checked.
fn dp2add_ps_test(corpus: &Corpus, dev: &mut Device) -> Result<(), String> {
    const FN: &str = "dp2add_ps_test";
    let quad = f32_bytes(&corpus.floats(FN, "quad")?);
    let lines = corpus.pixel_checks(FN)?;
    let second = lines.get(1).map_or(u64::MAX, |c| c.line);
    dev.clear(0xff00_0000);
    dev.set_fvf(D3DFVF_XYZ)?;
    dev.set_pixel_shader(Some(&corpus.shader(FN, "shader_code_dp2add")?));
    dev.draw_up("dp2add", Primitive::TriangleStrip, 2, &quad, 12);
    literal_checks(corpus, dev, FN, 0..second, 1)?;
    dev.set_pixel_shader(Some(&corpus.shader(FN, "shader_code_dp2add_sat")?));
    dev.draw_up("dp2add_sat", Primitive::TriangleStrip, 2, &quad, 12);
    literal_checks(corpus, dev, FN, second..u64::MAX, 1)
}

/// nested_loop_test: a ps_3_0 `loop` inside a `loop`, accumulating into the colour.
fn nested_loop_test(corpus: &Corpus, dev: &mut Device) -> Result<(), String> {
    const FN: &str = "nested_loop_test";
    let quad = f32_bytes(&corpus.floats(FN, "quad")?);
    dev.set_pixel_shader(Some(&corpus.shader(FN, "shader_code")?));
    dev.set_vertex_shader(&corpus.shader(FN, "vshader_code")?);
    dev.set_fvf(D3DFVF_XYZ)?;
    dev.clear(0x0000_ff00);
    dev.draw_up("nested loops", Primitive::TriangleStrip, 2, &quad, 12);
    literal_checks(corpus, dev, FN, 0..u64::MAX, 1)
}

/// vface_register_test: a ps_3_0 shader colours by `vFace`; drawn with culling off into a
/// render-target texture and into the back buffer, the texture then blitted onto the right
/// half with the fixed-function stage (`SELECTARG1` of the texture).
fn vface_register_test(corpus: &Corpus, dev: &mut Device) -> Result<(), String> {
    const FN: &str = "vface_register_test";
    let quad = f32_bytes(&corpus.floats(FN, "quad")?);
    let blit = f32_bytes(&corpus.floats(FN, "blit")?);
    let (texture, surface) = dev.create_render_target_texture(128, 128)?;
    dev.set_cull(CullMode::None);
    dev.set_pixel_shader(Some(&corpus.shader(FN, "shader_code")?));
    dev.set_vertex_shader(&corpus.shader(FN, "vshader_code")?);
    dev.set_fvf(D3DFVF_XYZ)?;
    dev.clear(0xff00_00ff);
    dev.set_render_target(0, Some(surface));
    dev.clear(0xff00_00ff);
    dev.draw_up("offscreen", Primitive::TriangleList, 4, &quad, 12);
    dev.set_back_buffer();
    dev.draw_up("onscreen", Primitive::TriangleList, 4, &quad, 12);
    dev.set_no_vertex_shader();
    dev.set_pixel_shader(None);
    dev.set_texture(0, Some(texture));
    dev.set_texture_stage(
        0,
        TextureStage {
            op: StageOp::SelectArg1,
            arg1: StageArg::Texture,
            arg2: StageArg::Current,
        },
    );
    dev.set_fvf(D3DFVF_XYZ | D3DFVF_TEX1)?;
    dev.draw_up("blit", Primitive::TriangleStrip, 2, &blit, 20);
    literal_checks(corpus, dev, FN, 0..u64::MAX, 4)
}

/// multiple_rendertargets_test: two render-target textures bound at once; `Clear` clears
/// both; a ps_3_0 shader writing only oC0 leaves target 1 as it was; one writing oC0 and oC1
/// fills both, which are then drawn onto the back buffer's halves with the fixed-function
/// stage (texture × white diffuse, lighting off). The render targets are read back whole
/// (`GetRenderTargetData`), alpha included.
fn multiple_rendertargets_test(corpus: &Corpus, dev: &mut Device) -> Result<(), String> {
    const FN: &str = "multiple_rendertargets_test";
    let quad = f32_bytes(&corpus.floats(FN, "quad")?);
    let texquad = f32_bytes(&corpus.floats(FN, "texquad")?);
    let (tex1, surf1) = dev.create_render_target_texture(16, 16)?;
    let (tex2, surf2) = dev.create_render_target_texture(16, 16)?;
    dev.clear(0xffff_0000);
    let all = 0xffff_ffff;
    dev.set_vertex_shader(&corpus.shader(FN, "vshader_code")?);
    dev.set_render_target(0, Some(surf1));
    dev.set_render_target(1, Some(surf2));
    dev.set_fvf(D3DFVF_XYZ)?;
    dev.clear(0xff00_00ff);
    dev.check_surface("surf1 cleared", surf1, (8, 8), all, &[0xff00_00ff], 0);
    dev.check_surface("surf2 cleared", surf2, (8, 8), all, &[0xff00_00ff], 0);
    dev.set_pixel_shader(Some(&corpus.shader(FN, "pshader_code1")?));
    dev.draw_up("oC0 only", Primitive::TriangleStrip, 2, &quad, 12);
    dev.check_surface("surf1 written", surf1, (8, 8), all, &[0x0000_ff00], 0);
    for y in 6..10 {
        for x in 6..10 {
            dev.check_surface("surf2 unwritten", surf2, (x, y), all, &[0xff00_00ff], 0);
        }
    }
    dev.clear(0xff00_ff00);
    dev.check_surface("surf1 cleared", surf1, (8, 8), all, &[0xff00_ff00], 0);
    dev.check_surface("surf2 cleared", surf2, (8, 8), all, &[0xff00_ff00], 0);
    dev.set_pixel_shader(Some(&corpus.shader(FN, "pshader_code2")?));
    dev.draw_up("oC0 and oC1", Primitive::TriangleStrip, 2, &quad, 12);
    dev.set_lighting(false);
    dev.set_no_vertex_shader();
    dev.set_pixel_shader(None);
    dev.set_back_buffer();
    dev.set_render_target(1, None);
    dev.set_fvf(D3DFVF_XYZ | D3DFVF_TEX1)?;
    dev.set_texture(0, Some(tex1));
    let (left, right) = texquad.split_at(texquad.len() / 2);
    dev.draw_up("tex1", Primitive::TriangleStrip, 2, left, 20);
    dev.set_texture(0, Some(tex2));
    dev.draw_up("tex2", Primitive::TriangleStrip, 2, right, 20);
    literal_checks(corpus, dev, FN, 0..u64::MAX, 2)
}

/// test_dsy: `dsy` of the interpolated colour (red at the bottom, green at the top), into an
/// offscreen A8R8G8B8 render target and into the back buffer.
fn test_dsy(corpus: &Corpus, dev: &mut Device) -> Result<(), String> {
    const FN: &str = "test_dsy";
    let quad: Vec<u8> = corpus
        .initialiser(FN, "quad")?
        .chunks(4)
        .map(|v| -> Result<Vec<u8>, String> {
            let [x, y, z, c] = v else {
                return Err(format!("{FN}/quad: a vertex of {} values", v.len()));
            };
            let mut out = Vec::new();
            for f in [x, y, z] {
                out.extend(f.f32().ok_or("quad: not a float")?.to_le_bytes());
            }
            out.extend(c.u32().ok_or("quad: not a colour")?.to_le_bytes());
            Ok(out)
        })
        .collect::<Result<Vec<_>, _>>()?
        .concat();
    let lines = corpus.pixel_checks(FN)?;
    let second = lines.get(1).map_or(u64::MAX, |c| c.line);
    let rt = dev.create_render_target(640, 480)?;
    dev.set_render_target(0, Some(rt));
    dev.set_fvf(D3DFVF_XYZ | D3DFVF_DIFFUSE)?;
    dev.set_vertex_shader(&corpus.shader(FN, "vs_code")?);
    dev.set_pixel_shader(Some(&corpus.shader(FN, "ps_code")?));
    dev.clear(0xff00_0000);
    dev.draw_up("offscreen", Primitive::TriangleStrip, 2, &quad, 16);
    literal_checks(corpus, dev, FN, 0..second, 1)?;
    dev.set_back_buffer();
    dev.clear(0xff00_0000);
    dev.draw_up("onscreen", Primitive::TriangleStrip, 2, &quad, 16);
    literal_checks(corpus, dev, FN, second..u64::MAX, 1)
}

/// test_fragment_coords: `vPos` is the pixel's integer coordinate (`cmp` against c0.zw splits
/// the target at (320, 240), then at (16, 16) of a 32x32 offscreen target read back with
/// `LockRect`), and its fraction is 0.
fn test_fragment_coords(corpus: &Corpus, dev: &mut Device) -> Result<(), String> {
    const FN: &str = "test_fragment_coords";
    // `quad` is XYZ plus two floats the FVF (XYZ) does not name: a stride of 20 bytes.
    let quad = f32_bytes(&corpus.floats(FN, "quad")?);
    dev.clear(0xff00_00ff);
    dev.set_pixel_shader(Some(&corpus.shader(FN, "shader_code")?));
    dev.set_vertex_shader(&corpus.shader(FN, "vshader_code")?);
    dev.set_fvf(D3DFVF_XYZ)?;
    // float constant[4] = {1.0, 0.0, 320, 240};
    dev.set_ps_const_f(0, &[[1.0, 0.0, 320.0, 240.0]]);
    dev.draw_up("back buffer", Primitive::TriangleStrip, 2, &quad, 20);
    literal_checks(corpus, dev, FN, 0..u64::MAX, 4)?;
    let surface = dev.create_render_target(32, 32)?;
    dev.set_ps_const_f(0, &[[1.0, 0.0, 16.0, 16.0]]);
    dev.set_render_target(0, Some(surface));
    dev.draw_up("32x32 target", Primitive::TriangleStrip, 2, &quad, 20);
    // visual.c reads row 14 / 18, column 14 / 18 of the locked rectangle, masked to RGB.
    for (x, y, expected) in [
        (14, 14, 0x0000_0000),
        (18, 14, 0x0000_ff00),
        (14, 18, 0x0000_00ff),
        (18, 18, 0x0000_ffff),
    ] {
        dev.check_surface("LockRect", surface, (x, y), 0x00ff_ffff, &[expected], 0);
    }
    dev.set_pixel_shader(Some(&corpus.shader(FN, "shader_frac_code")?));
    dev.clear(0xff00_00ff);
    dev.draw_up("vPos fraction", Primitive::TriangleStrip, 2, &quad, 20);
    dev.set_back_buffer();
    dev.check_surface("vPos fraction", surface, (14, 14), 0x00ff_ffff, &[0], 0);
    Ok(())
}

/// The value of a corpus text field `field` of a composed shader entry.
fn entry_text<'a>(entry: &'a serde_json::Value, field: &str) -> Result<&'a str, String> {
    entry[field]
        .as_str()
        .ok_or_else(|| format!("composed shader without {field}"))
}

/// test_nrm_instruction: `nrm` of texture coordinates (masks, swizzles, declared widths) and
/// of constants (zero, non-unit, swizzled); one composed ps_3_0 shader per case, each drawn
/// over a cleared target and checked at the centre.
fn test_nrm_instruction(corpus: &Corpus, dev: &mut Device) -> Result<(), String> {
    const FN: &str = "test_nrm_instruction";
    let decl = corpus.declaration(FN, "decl_elements")?;
    let quad = f32_bytes(&corpus.floats(FN, "quad")?);
    dev.set_cull(CullMode::None);
    dev.set_vertex_shader(&corpus.shader(FN, "vs_code")?);
    dev.set_vertex_declaration(&decl);
    let cases = corpus.composed(FN)?;
    if cases.len() != 12 {
        return Err(format!(
            "{FN}: {} composed shaders, expected 12",
            cases.len()
        ));
    }
    for (name, tokens, entry) in cases {
        // "2.0f, 0.0f, 0.0f, 0.5f  (C initializer; unlisted components are 0)"
        let text = entry_text(entry, "ps_constant_c0")?;
        let values = super::corpus::tokenize(text.split('(').next().unwrap_or_default())?;
        let mut c0 = [0.0f32; 4];
        for (slot, v) in c0.iter_mut().zip(&values) {
            *slot = v.f32().ok_or_else(|| format!("{name}: c0 value {v:?}"))?;
        }
        let expected = &entry["expected"];
        let colour = expected["color"]
            .as_str()
            .and_then(|c| u32::from_str_radix(c.trim_start_matches("0x"), 16).ok())
            .ok_or_else(|| format!("{name}: no expected colour"))?;
        let tolerance = expected["max_channel_diff"].as_u64().unwrap_or(0) as u8;
        dev.clear(0x8080_8080);
        dev.set_pixel_shader(Some(&tokens));
        dev.set_ps_const_f(0, &[c0]);
        dev.draw_up(&name, Primitive::TriangleStrip, 2, &quad, 36);
        dev.check(&name, 320, 240, &[colour], tolerance);
    }
    Ok(())
}

/// test_mismatched_sample_types: a 2D texture (0x70 texels) and a 2x2x2 volume (slices 0x20
/// and 0x40) sampled through `dcl_2d` and `dcl_volume` samplers, matched and mismatched, with
/// linear magnification; the expected colours are the texture's own (Wine's primary values).
fn test_mismatched_sample_types(corpus: &Corpus, dev: &mut Device) -> Result<(), String> {
    const FN: &str = "test_mismatched_sample_types";
    let decl = corpus.declaration(FN, "decl_elements")?;
    let quad = f32_bytes(&corpus.floats(FN, "quad")?);
    let shaders = corpus.composed(FN)?;
    let shader = |suffix: &str| {
        shaders
            .iter()
            .find(|(name, _, _)| name.ends_with(suffix))
            .map(|(_, tokens, _)| tokens.clone())
            .ok_or_else(|| format!("{FN}: no composed shader {suffix}"))
    };
    let (ps_2d, ps_3d) = (shader("ps_tex_2d")?, shader("ps_tex_3d")?);
    // test_mismatched_sample_types_fill_texture: every texel of a slice the same DWORD.
    let fill = |value: u32, texels: usize| -> Vec<u8> {
        std::iter::repeat_n(value.to_le_bytes(), texels)
            .flatten()
            .collect()
    };
    let mut volume_data = fill(0x2020_2020, 4);
    volume_data.extend(fill(0x4040_4040, 4));
    let volume = dev.create_texture(
        TextureKind::Volume,
        Format::A8R8G8B8,
        [2, 2, 2],
        &volume_data,
    )?;
    let tex_2d = dev.create_texture(
        TextureKind::TwoD,
        Format::A8R8G8B8,
        [2, 2, 1],
        &fill(0x7070_7070, 4),
    )?;
    dev.set_vertex_declaration(&decl);
    dev.set_vertex_shader(&corpus.shader(FN, "vs_code")?);
    dev.set_filter(0, TextureFilter::Linear, TextureFilter::Point);
    for (name, texture, ps, expected) in [
        ("2d_2d", tex_2d, &ps_2d, 0x0070_7070),
        ("3d_3d", volume, &ps_3d, 0x0030_3030),
        ("2d_3d", tex_2d, &ps_3d, 0x0070_7070),
        ("3d_2d", volume, &ps_2d, 0x0030_3030),
    ] {
        dev.clear(0x8080_8080);
        dev.set_texture(0, Some(texture));
        dev.set_pixel_shader(Some(ps));
        dev.draw_up(name, Primitive::TriangleStrip, 2, &quad, 24);
        dev.check(name, 320, 240, &[expected], 1);
    }
    Ok(())
}

/// The `{{x, y, z}, 0xAARRGGBB}` vertices of `name` in a C text holding several arrays of
/// that struct (test_vshader_input's `quad1_color`, `quad2_color`, `quad3_color`).
fn position_colour_vertices(
    corpus: &Corpus,
    function: &str,
    name: &str,
) -> Result<Vec<u8>, String> {
    let tokens = super::corpus::tokenize(corpus.data_array(function, name)?)?;
    let start = tokens
        .iter()
        .position(|t| t.ident() == Some(name))
        .ok_or_else(|| format!("{function}: no {name} in its text"))?;
    let values: Vec<&CToken> = tokens[start + 1..]
        .iter()
        .take_while(|t| t.ident().is_none())
        .collect();
    if values.is_empty() || !values.len().is_multiple_of(4) {
        return Err(format!("{function}/{name}: {} values", values.len()));
    }
    let words = values
        .chunks(4)
        .flat_map(|v| {
            let f = |t: &CToken| t.f32().map(f32::to_bits);
            [f(v[0]), f(v[1]), f(v[2]), v[3].u32()]
        })
        .collect::<Option<Vec<u32>>>()
        .ok_or_else(|| format!("{function}/{name}: not position + colour"))?;
    Ok(bytes_of(&words))
}

/// test_vshader_input: vertex shader inputs matched to declaration elements by semantic,
/// with vs_1_1, vs_2_0 (fixed-function pixel stage) and vs_3_0 (with a ps_3_0 shader):
/// elements in another order, a missing element (reads 0 under hardware vertex processing),
/// a wrong usage index; then D3DCOLOR, UBYTE4 and FLOAT4 colours and texture coordinates.
/// The accepted colours are Wine's, `broken()` ones left out.
fn test_vshader_input(corpus: &Corpus, dev: &mut Device) -> Result<(), String> {
    const FN: &str = "test_vshader_input";
    let decl = |name: &str| corpus.declaration(FN, &format!("decl_elements_{name}"));
    let floats = |name: &str| corpus.floats(FN, name).map(|v| f32_bytes(&v));
    let ps = corpus.shader(FN, "ps3_code")?;
    for i in 1..=3 {
        dev.clear(0xffff_0000);
        let swapped = corpus.shader(FN, &format!("swapped_shader_code_{i}"))?;
        if i == 3 {
            dev.set_pixel_shader(Some(&ps));
        }
        dev.set_vertex_shader(&swapped);
        let v = format!("vs_{i}");
        for (d, quad, label) in [
            ("twotexcrd", "quad1", "2crd"),
            ("onetexcrd", "quad2", "1crd"),
            ("twotexcrd_rightorder", "quad4", "2crd-rightorder"),
            ("twotexcrd_wrongidx", "quad3", "2crd-wrongidx"),
        ] {
            dev.set_vertex_declaration(&decl(d)?);
            dev.draw_up(
                &format!("{v} {label}"),
                Primitive::TriangleStrip,
                2,
                &floats(quad)?,
                44,
            );
        }
        dev.check(&format!("{v} quad 1 (2crd)"), 160, 360, &[0x00ff_ff80], 1);
        // The missing element reads 0 (or, on some drivers, the last value read).
        let colour = dev.pixel(480, 360);
        dev.check_value(
            &format!("{v} quad 2 (1crd)"),
            (480, 360),
            colour,
            &[0x00ff_ff00, 0x00ff_0000],
            0,
        );
        // `color_match(color, 0x00ff0080, 1) || color == 0x00ff0000`
        let colour = dev.pixel(160, 120);
        dev.check_any(
            &format!("{v} quad 3 (2crd-wrongidx)"),
            (160, 120),
            colour,
            &[(0x00ff_0080, 1), (0x00ff_0000, 0)],
        );
        dev.check(&format!("{v} quad 4 (2crd-rightorder)"), 480, 160, &[0], 0);
        dev.clear(0xff80_8080);
        dev.set_vertex_declaration(&decl("twotexcrd")?);
        dev.draw_up(
            &format!("{v} modified points"),
            Primitive::PointList,
            3,
            &floats("quad1_modified")?,
            44,
        );
        dev.set_vertex_declaration(&decl("onetexcrd")?);
        dev.draw_up(
            &format!("{v} modified quad"),
            Primitive::TriangleStrip,
            2,
            &floats("quad2_modified")?,
            44,
        );
        let colour = dev.pixel(480, 350);
        dev.check_value(
            &format!("{v} quad 2 (different colours)"),
            (480, 350),
            colour,
            &[0x0000_00ff, 0x0080_8080, 0],
            0,
        );
        dev.set_pixel_shader(None);
    }
    let normalize = [1.0f32 / 256.0; 4];
    for i in 1..=3 {
        dev.clear(0xff00_00ff);
        let texcoord_color = corpus.shader(FN, &format!("texcoord_color_shader_code_{i}"))?;
        let color_color = corpus.shader(FN, &format!("color_color_shader_code_{i}"))?;
        if i == 3 {
            dev.set_pixel_shader(Some(&ps));
        }
        let v = format!("vs_{i}");
        dev.set_vertex_shader(&texcoord_color);
        dev.set_vertex_declaration(&decl("texcoord_color")?);
        dev.draw_up(
            &format!("{v} texcoord colour"),
            Primitive::TriangleStrip,
            2,
            &position_colour_vertices(corpus, FN, "quad1_color")?,
            16,
        );
        dev.set_vertex_shader(&color_color);
        dev.set_vs_const_f(0, &[normalize]);
        dev.set_vertex_declaration(&decl("color_ubyte")?);
        dev.draw_up(
            &format!("{v} ubyte colour"),
            Primitive::TriangleStrip,
            2,
            &position_colour_vertices(corpus, FN, "quad2_color")?,
            16,
        );
        dev.set_vs_const_f(0, &[[1.0; 4]]);
        dev.set_vertex_declaration(&decl("color_color")?);
        dev.draw_up(
            &format!("{v} D3DCOLOR colour"),
            Primitive::TriangleStrip,
            2,
            &position_colour_vertices(corpus, FN, "quad3_color")?,
            16,
        );
        dev.set_vertex_declaration(&decl("color_float")?);
        dev.draw_up(
            &format!("{v} float colour"),
            Primitive::TriangleStrip,
            2,
            &floats("quad4_color")?,
            28,
        );
        dev.check(
            &format!("{v} quad 1 (color-texcoord)"),
            160,
            360,
            &[0x00ff_8040],
            1,
        );
        dev.check(
            &format!("{v} quad 2 (color-ubyte)"),
            480,
            360,
            &[0x0040_80ff],
            1,
        );
        dev.check(
            &format!("{v} quad 3 (color-color)"),
            160,
            120,
            &[0x00ff_8040],
            1,
        );
        dev.check(
            &format!("{v} quad 4 (color-float)"),
            480,
            160,
            &[0x00ff_ff00],
            1,
        );
        dev.set_vertex_declaration(&decl("nocolor")?);
        dev.clear(0xff00_00ff);
        dev.draw_up(
            &format!("{v} no colour"),
            Primitive::TriangleStrip,
            2,
            &floats("quad_nocolor")?,
            12,
        );
        dev.check(&format!("{v} no colour attribute"), 160, 360, &[0], 1);
        dev.set_pixel_shader(None);
    }
    Ok(())
}

/// The `{..., <shader>_code, 0xCOLOUR, ...}` rows of a test table: each shader array named
/// in it with the colour that follows it (Wine's primary expectation).
fn shader_colour_rows(
    corpus: &Corpus,
    function: &str,
    table: &str,
) -> Result<Vec<(String, u32)>, String> {
    let tokens = corpus.initialiser(function, table)?;
    Ok(tokens
        .windows(2)
        .filter_map(|w| match w {
            [CToken::Ident(shader), CToken::Hex(colour)] if shader.ends_with("_code") => {
                Some((shader.clone(), *colour))
            }
            _ => None,
        })
        .collect())
}

/// pretransformed_varying_test: XYZRHW vertices carrying every semantic (blend weights,
/// normal, fog, texture coordinates, tangent, binormal, depth, both colours) with no vertex
/// shader; each ps_3_0 shader reads one semantic and turns it into the colour. Wine's
/// expectations are those of Windows drivers (several are `todo_wine` in Wine itself).
fn pretransformed_varying_test(corpus: &Corpus, dev: &mut Device) -> Result<(), String> {
    const FN: &str = "pretransformed_varying_test";
    let decl = corpus.declaration(FN, "decl_elements")?;
    let mut fields = vec![Field::Float; 36];
    fields.extend([Field::Dword, Field::Dword]);
    let data = bytes_of(&words(&corpus.initialiser(FN, "data")?, &fields)?);
    let rows = shader_colour_rows(corpus, FN, "tests")?;
    if rows.len() != 12 {
        return Err(format!("{FN}/tests: {} rows, expected 12", rows.len()));
    }
    dev.set_vertex_declaration(&decl);
    for (shader, colour) in rows {
        dev.clear(0xffff_ffff);
        dev.set_pixel_shader(Some(&corpus.shader(FN, &shader)?));
        dev.draw_up(&shader, Primitive::TriangleStrip, 2, &data, 152);
        dev.check(&shader, 360, 240, &[colour], 1);
        dev.set_pixel_shader(None);
    }
    Ok(())
}

/// One row of test_uninitialized_varyings' table.
struct VaryingCase {
    vs: Option<String>,
    ps: Option<String>,
    expected: u32,
    allow_zero_alpha: bool,
}

/// test_uninitialized_varyings' `tests[]`: `{vs_version, vs, ps_version, ps, expected,
/// allow_zero_alpha, partial, broken_warp}` (the rows visual.c comments out are left out
/// with the comments).
fn varying_cases(corpus: &Corpus, function: &str) -> Result<Vec<VaryingCase>, String> {
    let tokens = corpus.initialiser(function, "tests")?;
    let mut rows: Vec<VaryingCase> = Vec::new();
    let mut refs: Vec<Option<String>> = Vec::new();
    let mut flags = 0;
    for t in &tokens {
        match t {
            CToken::Ident(name) if name.ends_with("_code") => refs.push(Some(name.clone())),
            CToken::Ident(name) if name == "NULL" => refs.push(None),
            CToken::Hex(expected) if refs.len() == 2 => {
                rows.push(VaryingCase {
                    vs: refs[0].take(),
                    ps: refs[1].take(),
                    expected: *expected,
                    allow_zero_alpha: false,
                });
                refs.clear();
                flags = 0;
            }
            CToken::Ident(flag) if refs.is_empty() && (flag == "TRUE" || flag == "FALSE") => {
                if flags == 0 {
                    if let Some(row) = rows.last_mut() {
                        row.allow_zero_alpha = flag == "TRUE";
                    }
                }
                flags += 1;
            }
            _ => {}
        }
    }
    Ok(rows)
}

/// test_uninitialized_varyings: what a pixel stage reads for colours and texture coordinates
/// the vertex stage does not write (or writes partly), over vs_1_1/2_0/3_0, the
/// fixed-function stages and ps_1_1/2_0/3_0; the whole A8R8G8B8 value of the back buffer is
/// compared (alpha included), zero alpha accepted where visual.c accepts it.
fn test_uninitialized_varyings(corpus: &Corpus, dev: &mut Device) -> Result<(), String> {
    const FN: &str = "test_uninitialized_varyings";
    let quad = f32_bytes(&corpus.floats(FN, "quad")?);
    let cases = varying_cases(corpus, FN)?;
    if cases.len() != 20 {
        return Err(format!("{FN}/tests: {} rows, expected 20", cases.len()));
    }
    dev.set_cull(CullMode::None);
    dev.set_fvf(D3DFVF_XYZ)?;
    for (i, case) in cases.iter().enumerate() {
        match &case.vs {
            Some(vs) => dev.set_vertex_shader(&corpus.shader(FN, vs)?),
            None => dev.set_no_vertex_shader(),
        }
        match &case.ps {
            Some(ps) => dev.set_pixel_shader(Some(&corpus.shader(FN, ps)?)),
            None => dev.set_pixel_shader(None),
        }
        dev.clear(0xff00_ff00);
        let label = format!(
            "case {i}: {} + {}",
            case.vs.as_deref().unwrap_or("fixed-function"),
            case.ps.as_deref().unwrap_or("fixed-function")
        );
        dev.draw_up(&label, Primitive::TriangleStrip, 2, &quad, 12);
        let colour = dev.surface_pixel(dev.back_buffer(), 320, 240);
        let mut accepted = vec![(case.expected, 1)];
        if case.allow_zero_alpha {
            accepted.push((case.expected & 0x00ff_ffff, 1));
        }
        dev.check_any(&label, (320, 240), colour, &accepted);
    }
    Ok(())
}

/// A vertex shader, a pixel shader (`None`: fixed-function) and the expected colour.
type ShaderPair = (Option<String>, Option<String>, u32);

/// The `{vs_version, vs, ps_version, ps, expected, ...}` rows of a table: the shader arrays
/// (`None` for `NULL`) and the first colour after them.
fn shader_pair_rows(corpus: &Corpus, function: &str) -> Result<Vec<ShaderPair>, String> {
    let tokens = corpus.initialiser(function, "tests")?;
    let mut rows = Vec::new();
    let mut refs: Vec<Option<String>> = Vec::new();
    for t in &tokens {
        match t {
            CToken::Ident(name) if name.ends_with("_code") => refs.push(Some(name.clone())),
            CToken::Ident(name) if name == "NULL" => refs.push(None),
            CToken::Hex(colour) if refs.len() == 2 => {
                rows.push((refs[0].take(), refs[1].take(), *colour));
                refs.clear();
            }
            _ => {}
        }
    }
    Ok(rows)
}

/// test_color_clamping: vertex colours outside [0, 1] through `ADD(DIFFUSE, SPECULAR)` then
/// `MODULATE(TFACTOR, CURRENT)` (TFACTOR 0x404040) with the fixed-function stages, and
/// through ps_1_1 (values clamped to [-1, 1] and the colour to [0, 1]), ps_2_0 and ps_3_0
/// shaders (the colour output clamped by the unorm target).
fn test_color_clamping(corpus: &Corpus, dev: &mut Device) -> Result<(), String> {
    const FN: &str = "test_color_clamping";
    let quad = f32_bytes(&corpus.floats(FN, "quad")?);
    let rows = shader_pair_rows(corpus, FN)?;
    if rows.len() != 6 {
        return Err(format!("{FN}/tests: {} rows, expected 6", rows.len()));
    }
    dev.set_cull(CullMode::None);
    dev.set_lighting(false);
    dev.set_texture_factor(0xff40_4040);
    dev.set_texture_stage(
        0,
        TextureStage {
            op: StageOp::Add,
            arg1: StageArg::Diffuse,
            arg2: StageArg::Specular,
        },
    );
    dev.set_texture_stage(
        1,
        TextureStage {
            op: StageOp::Modulate,
            arg1: StageArg::TFactor,
            arg2: StageArg::Current,
        },
    );
    dev.set_fvf(D3DFVF_XYZ)?;
    for (i, (vs, ps, expected)) in rows.into_iter().enumerate() {
        match &vs {
            Some(vs) => dev.set_vertex_shader(&corpus.shader(FN, vs)?),
            None => dev.set_no_vertex_shader(),
        }
        match &ps {
            Some(ps) => dev.set_pixel_shader(Some(&corpus.shader(FN, ps)?)),
            None => dev.set_pixel_shader(None),
        }
        dev.clear(0xff00_ff00);
        let label = format!(
            "case {i}: {} + {}",
            vs.as_deref().unwrap_or("fixed-function"),
            ps.as_deref().unwrap_or("fixed-function")
        );
        dev.draw_up(&label, Primitive::TriangleStrip, 2, &quad, 12);
        dev.check(&label, 320, 240, &[expected], 1);
    }
    Ok(())
}

/// A `D3DFOG_*` name.
fn fog_mode(token: &CToken) -> Result<FogMode, String> {
    match token.ident() {
        Some("D3DFOG_NONE") => Ok(FogMode::None),
        Some("D3DFOG_EXP") => Ok(FogMode::Exp),
        Some("D3DFOG_EXP2") => Ok(FogMode::Exp2),
        Some("D3DFOG_LINEAR") => Ok(FogMode::Linear),
        _ => Err(format!("{token:?} is not a D3DFOG_ mode")),
    }
}

/// fog_with_shader_test: vertex fog (the vertex shader's `oFog`, or 0 where it writes none)
/// and LINEAR/EXP/EXP2 table fog of the depth, with the fixed-function pixel stage and after
/// ps_1_1/ps_2_0 shaders, for 11 depths per row of `test_data` (green fog colour, start 0.1,
/// end 0.9, Wine's 5 % tolerance).
fn fog_with_shader_test(corpus: &Corpus, dev: &mut Device) -> Result<(), String> {
    const FN: &str = "fog_with_shader_test";
    let decl = corpus.declaration(FN, "decl_elements")?;
    let quad_tokens = super::corpus::tokenize(corpus.data_array(FN, "quad")?)?;
    let quad_values: Vec<&CToken> = quad_tokens.iter().filter(|t| t.ident().is_none()).collect();
    if quad_values.len() != 16 {
        return Err(format!("{FN}/quad: {} values", quad_values.len()));
    }
    let vertex_shaders = [
        None,
        Some(corpus.shader(FN, "vertex_shader_code1")?),
        Some(corpus.shader(FN, "vertex_shader_code2")?),
        Some(corpus.shader(FN, "vertex_shader_code3")?),
    ];
    let pixel_shaders = [
        None,
        Some(corpus.shader(FN, "pixel_shader_code")?),
        Some(corpus.shader(FN, "pixel_shader_code2")?),
    ];
    // test_data[] = {{vshader, pshader, vfog, tfog, {11 colours}}, ...}
    let tokens = corpus.initialiser(FN, "test_data")?;
    let mut rows = Vec::new();
    let mut rest = tokens.as_slice();
    while let [vs, ps, vfog, tfog, tail @ ..] = rest {
        let index = |t: &CToken| t.u32().map(|v| v as usize).ok_or(format!("{FN}: {t:?}"));
        let colours: Vec<u32> = tail
            .iter()
            .take(11)
            .map(|t| t.u32().ok_or(format!("{FN}: colour {t:?}")))
            .collect::<Result<_, _>>()?;
        if colours.len() != 11 {
            return Err(format!(
                "{FN}/test_data: a row of {} colours",
                colours.len()
            ));
        }
        rows.push((
            index(vs)?,
            index(ps)?,
            fog_mode(vfog)?,
            fog_mode(tfog)?,
            colours,
        ));
        rest = tail.get(11..).unwrap_or(&[]);
    }
    if rows.is_empty() {
        return Err(format!("{FN}/test_data: no rows"));
    }
    dev.set_lighting(false);
    let mut fog = FogState {
        enable: true,
        colour: 0xff00_ff00,
        start: 0.1,
        end: 0.9,
        ..FogState::default()
    };
    dev.set_vertex_declaration(&decl);
    for (vs, ps, vfog, tfog, colours) in rows {
        match vertex_shaders
            .get(vs)
            .ok_or(format!("{FN}: vertex shader {vs}"))?
        {
            Some(code) => dev.set_vertex_shader(code),
            None => dev.set_no_vertex_shader(),
        }
        let ps_code = pixel_shaders
            .get(ps)
            .ok_or(format!("{FN}: pixel shader {ps}"))?;
        dev.set_pixel_shader(ps_code.as_deref());
        fog.vertex = vfog;
        fog.table = tfog;
        dev.set_fog(fog);
        for (j, expected) in colours.into_iter().enumerate() {
            // quad[k].position.z = 0.001f + (float)j / 10.02f;
            let z = 0.001f32 + j as f32 / 10.02f32;
            let mut words = Vec::new();
            for v in quad_values.chunks(4) {
                let f = |t: &CToken| t.f32().map(f32::to_bits).ok_or(format!("{FN}/quad: {t:?}"));
                words.extend([
                    f(v[0])?,
                    f(v[1])?,
                    z.to_bits(),
                    v[3].u32().ok_or("quad colour")?,
                ]);
            }
            let label = format!("vs{vs} ps{ps} {vfog:?}/{tfog:?} depth {j}");
            dev.clear(0xffff_00ff);
            dev.draw_up(&label, Primitive::TriangleStrip, 2, &bytes_of(&words), 16);
            dev.check(&label, 128, 240, &[expected], 13);
        }
    }
    Ok(())
}

/// constant_clamp_ps_test: constants outside [-1, 1], set (c1, c2) or `def`'d, are read
/// clamped by ps_1_1, ps_1_2 and ps_1_4 and as they are by ps_2_0.
fn constant_clamp_ps_test(corpus: &Corpus, dev: &mut Device) -> Result<(), String> {
    const FN: &str = "constant_clamp_ps_test";
    dev.clear(0xff00_ffff);
    dev.set_ps_const_f(1, &[vec4(corpus, FN, "test_data_c1")?]);
    dev.set_ps_const_f(2, &[vec4(corpus, FN, "test_data_c2")?]);
    dev.set_fvf(D3DFVF_XYZ)?;
    for (shader, quad) in [
        ("shader_code_11", "quad1"),
        ("shader_code_12", "quad2"),
        ("shader_code_14", "quad3"),
        ("shader_code_20", "quad4"),
    ] {
        dev.set_pixel_shader(Some(&corpus.shader(FN, shader)?));
        let data = f32_bytes(&corpus.floats(FN, quad)?);
        dev.draw_up(shader, Primitive::TriangleStrip, 2, &data, 12);
    }
    literal_checks(corpus, dev, FN, 0..u64::MAX, 4)
}

/// test_shademode: `D3DSHADE_FLAT` gives each triangle its first vertex's colours, GOURAUD
/// (and PHONG, which no hardware has) interpolates them; triangle strips and lists, with the
/// fixed-function stages and vs/ps 1_1, 2_0 and 3_0 pairs (Wine's table, where flat vs_3_0 +
/// ps_3_0 is `todo_wine` in Wine itself).
fn test_shademode(corpus: &Corpus, dev: &mut Device) -> Result<(), String> {
    const FN: &str = "test_shademode";
    let strip = position_colour_vertices(corpus, FN, "quad_strip")?;
    let list = position_colour_vertices(corpus, FN, "quad_list")?;
    // tests[] = {{&vs, &ps, D3DPT_*, D3DSHADE_*, color0, color1, todo}, ...}
    let tokens = corpus.initialiser(FN, "tests")?;
    let mut rows = Vec::new();
    let mut rest = tokens.as_slice();
    while let [vs, ps, primitive, shade, c0, c1, _todo, tail @ ..] = rest {
        let name = |t: &CToken| t.ident().map(str::to_owned).ok_or(format!("{FN}: {t:?}"));
        let colour = |t: &CToken| t.u32().ok_or(format!("{FN}: {t:?}"));
        rows.push((
            name(vs)?,
            name(ps)?,
            name(primitive)?,
            name(shade)?,
            colour(c0)?,
            colour(c1)?,
        ));
        rest = tail;
    }
    if rows.len() != 16 || !rest.is_empty() {
        return Err(format!(
            "{FN}/tests: {} rows, {} tokens left",
            rows.len(),
            rest.len()
        ));
    }
    let shader = |name: &str| -> Result<Option<Vec<u32>>, String> {
        match name {
            "novs" | "nops" => Ok(None),
            "vs_1" => corpus.shader(FN, "vs1_code").map(Some),
            "vs_2" => corpus.shader(FN, "vs2_code").map(Some),
            "vs_3" => corpus.shader(FN, "vs3_code").map(Some),
            "ps_1" => corpus.shader(FN, "ps1_code").map(Some),
            "ps_2" => corpus.shader(FN, "ps2_code").map(Some),
            "ps_3" => corpus.shader(FN, "ps3_code").map(Some),
            other => Err(format!("{FN}: shader {other}")),
        }
    };
    dev.set_lighting(false);
    dev.set_fvf(D3DFVF_XYZ | D3DFVF_DIFFUSE)?;
    for (i, (vs, ps, primitive, shade, c0, c1)) in rows.into_iter().enumerate() {
        match shader(&vs)? {
            Some(code) => dev.set_vertex_shader(&code),
            None => dev.set_no_vertex_shader(),
        }
        dev.set_pixel_shader(shader(&ps)?.as_deref());
        let (primitive, data) = match primitive.as_str() {
            "D3DPT_TRIANGLESTRIP" => (Primitive::TriangleStrip, &strip),
            "D3DPT_TRIANGLELIST" => (Primitive::TriangleList, &list),
            other => return Err(format!("{FN}: primitive {other}")),
        };
        dev.clear(0xffff_ffff);
        dev.set_flat_shading(shade == "D3DSHADE_FLAT");
        let label = format!("test {i}: {vs} + {ps} {primitive:?} {shade}");
        dev.draw(&label, primitive, data, 16, 0, 2);
        dev.check(&format!("{label} first triangle"), 100, 100, &[c0], 1);
        dev.check(&format!("{label} second triangle"), 500, 350, &[c1], 1);
    }
    dev.set_flat_shading(false);
    Ok(())
}
