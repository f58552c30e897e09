//! The ten vertex-shader functions of Wine's `dlls/d3d9/tests/visual.c`, replayed call by call
//! on [`Device`]. Shaders, vertex data, declarations, constants and expected colours come from
//! the corpus (`d3d9_visual.json`) at run time; what is written here is each function's
//! control flow (which shader, which constants, which draw, which check), as visual.c has it.
//! Values that visual.c computes in code rather than stating in an array (the `values`
//! constants of loop_index_test, the sincos points) are computed here the same way.

use super::corpus::{CToken, Corpus};
use super::device::{CheckResult, Device, Primitive};

/// The functions of the vertex-shader issue, in the order of the issue.
pub const FUNCTIONS: [&str; 10] = [
    "test_mova",
    "sincos_test",
    "loop_index_test",
    "sgn_test",
    "test_constant_clamp_vs",
    "test_compare_instructions",
    "fp_special_test",
    "test_default_attribute_components",
    "test_vshader_float16",
    "test_position_index",
];

const D3DFVF_XYZ: u32 = 0x002;
const D3DFVF_TEX1: u32 = 0x100;
/// `D3DFVF_TEXCOORDSIZE1(0)`.
const D3DFVF_TEXCOORDSIZE1_0: u32 = 3 << 16;

/// `D3DSINCOSCONST1` and `D3DSINCOSCONST2` of the DirectX SDK headers (sincos_test passes
/// them by macro name; the values are the SDK's, not the test's).
#[allow(clippy::excessive_precision)] // the digits of the SDK header
const D3DSINCOSCONST1: [f32; 4] = [
    -1.550_099_2e-6,
    -2.170_138_9e-5,
    0.002_604_166_7,
    0.000_260_416_68,
];
const D3DSINCOSCONST2: [f32; 4] = [-0.020_833_334, -0.125, 1.0, 0.5];

/// What one function's replay gave.
#[derive(Debug)]
pub struct Report {
    pub function: String,
    pub checks: Vec<CheckResult>,
    /// Draws that could not be made.
    pub failures: Vec<String>,
    /// The replay could not run at all (no GPU, corpus unreadable, ...).
    pub error: Option<String>,
}

impl Report {
    /// Every check passed, every draw was made, and the replay ran.
    pub fn passed(&self) -> bool {
        self.error.is_none() && self.failures.is_empty() && self.checks.iter().all(|c| c.passed)
    }

    pub fn passed_checks(&self) -> usize {
        self.checks.iter().filter(|c| c.passed).count()
    }

    /// A readable account: the reason first, then every check.
    pub fn describe(&self) -> String {
        let mut s = format!(
            "{}: {} ({} of {} checks pass)\n",
            self.function,
            if self.passed() { "PASS" } else { "FAIL" },
            self.passed_checks(),
            self.checks.len()
        );
        if let Some(e) = &self.error {
            s += &format!("  replay failed: {e}\n");
        }
        for f in &self.failures {
            s += &format!("  draw failed: {f}\n");
        }
        for c in &self.checks {
            s += &format!(
                "  [{}] {}: {}\n",
                if c.passed { "ok" } else { "FAIL" },
                c.label,
                c.detail
            );
        }
        s
    }
}

/// Replay `function` on a fresh device.
/// Replay `function` with the lifter's default float mode (`Legacy`).
pub fn run(function: &str) -> Report {
    run_in(function, d3d9_translator::lift::FloatMode::Legacy)
}

/// Replay `function` with the vertex shaders translated in `float_mode`.
pub fn run_in(function: &str, float_mode: d3d9_translator::lift::FloatMode) -> Report {
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
        "test_mova" => test_mova(&corpus, &mut dev),
        "sincos_test" => sincos_test(&corpus, &mut dev),
        "loop_index_test" => loop_index_test(&corpus, &mut dev),
        "sgn_test" => sgn_test(&corpus, &mut dev),
        "test_constant_clamp_vs" => test_constant_clamp_vs(&corpus, &mut dev),
        "test_compare_instructions" => test_compare_instructions(&corpus, &mut dev),
        "fp_special_test" => fp_special_test(&corpus, &mut dev),
        "test_default_attribute_components" => test_default_attribute_components(&corpus, &mut dev),
        "test_vshader_float16" => test_vshader_float16(&corpus, &mut dev),
        "test_position_index" => test_position_index(&corpus, &mut dev),
        other => Err(format!("{other} is not one of the replayed functions")),
    };
    report.error = result.err();
    report.checks = std::mem::take(&mut dev.checks);
    report.failures = std::mem::take(&mut dev.failures);
    report
}

/// Little-endian bytes of 32-bit vertex data.
pub fn bytes_of(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

pub fn f32_bytes(values: &[f32]) -> Vec<u8> {
    bytes_of(&values.iter().map(|v| v.to_bits()).collect::<Vec<_>>())
}

/// A `static const float x[4]` constant.
pub fn vec4(corpus: &Corpus, function: &str, name: &str) -> Result<[f32; 4], String> {
    let v = corpus.floats(function, name)?;
    v.try_into()
        .map_err(|v: Vec<f32>| format!("{function}/{name}: {} values, expected 4", v.len()))
}

/// The 32-bit words of a vertex array whose fields are floats (`FN`) or DWORDs (`U`), in
/// declaration order.
pub fn words(tokens: &[CToken], fields: &[Field]) -> Result<Vec<u32>, String> {
    let numbers: Vec<&CToken> = tokens
        .iter()
        .filter(|t| !matches!(t, CToken::Ident(_)))
        .collect();
    if fields.is_empty() || !numbers.len().is_multiple_of(fields.len()) {
        return Err(format!(
            "{} values do not fill records of {} fields",
            numbers.len(),
            fields.len()
        ));
    }
    numbers
        .iter()
        .zip(fields.iter().cycle())
        .map(|(t, f)| {
            match f {
                Field::Float => t.f32().map(f32::to_bits),
                Field::Dword => t.u32(),
            }
            .ok_or_else(|| format!("{t:?} is not a {f:?}"))
        })
        .collect()
}

#[derive(Debug, Clone, Copy)]
pub enum Field {
    /// A `float`.
    Float,
    /// A `DWORD` / `D3DCOLOR` / `int`.
    Dword,
}

/// The function's structured pixel checks on visual.c `lines`, in source order; there must
/// be exactly `expected` of them, so a check lost from the corpus (or a wrong line range)
/// fails the replay instead of passing with fewer checks.
pub fn literal_checks(
    corpus: &Corpus,
    dev: &mut Device,
    function: &str,
    lines: std::ops::Range<u64>,
    expected: usize,
) -> Result<(), String> {
    let checks: Vec<_> = corpus
        .pixel_checks(function)?
        .into_iter()
        .filter(|c| lines.contains(&c.line))
        .collect();
    if checks.len() != expected {
        return Err(format!(
            "{function}: {} pixel checks on lines {lines:?}, expected {expected}",
            checks.len()
        ));
    }
    for c in checks {
        dev.check(
            &format!("visual.c:{}", c.line),
            c.x,
            c.y,
            &[c.expected],
            c.tolerance,
        );
    }
    Ok(())
}

/// test_mova: `mov a0.x` (vs_1_1, rounds down) and `mova a0.x` (vs_2_0, rounds to nearest)
/// from c7 select one of the `def`'d colours through `c[a0.x + 3]`; six inputs each.
fn test_mova(corpus: &Corpus, dev: &mut Device) -> Result<(), String> {
    const FN: &str = "test_mova";
    let mova = corpus.shader(FN, "mova_test")?;
    let mov = corpus.shader(FN, "mov_test")?;
    let decl = corpus.declaration(FN, "decl_elements")?;
    let quad = f32_bytes(&corpus.floats(FN, "quad")?);
    let data = words(
        &corpus.initialiser(FN, "test_data")?,
        &[
            Field::Float,
            Field::Float,
            Field::Float,
            Field::Float,
            Field::Dword,
        ],
    )?;
    if data.len() != 2 * 6 * 5 {
        return Err(format!("test_data has {} words, expected 60", data.len()));
    }
    dev.set_vertex_declaration(&decl);
    dev.set_vertex_shader(&mov);
    for (j, table) in data.chunks(30).enumerate() {
        let name = if j == 0 { "mov" } else { "mova" };
        for row in table.chunks(5) {
            let input = [
                f32::from_bits(row[0]),
                f32::from_bits(row[1]),
                f32::from_bits(row[2]),
                f32::from_bits(row[3]),
            ];
            dev.set_vs_const_f(7, &[input]);
            dev.draw_up(
                &format!("{name} {}", input[0]),
                Primitive::TriangleStrip,
                2,
                &quad,
                12,
            );
            dev.check(
                &format!("{name} input {}", input[0]),
                320,
                240,
                &[row[4]],
                0,
            );
            dev.clear(0);
        }
        dev.set_vertex_shader(&mova);
    }
    Ok(())
}

/// sincos_test: 1280 points along y = 0.85 sin(pi x) and 0.85 cos(pi x). visual.c draws them
/// and checks nothing ("TODO: Find a way to properly validate the lines"), so this is a
/// translation test, not a visual one: it passes when both shaders translate and both draws
/// are made, makes no pixel check, and is not counted among the passing visual functions.
/// sincos itself is checked against the SDK in `vs_instructions.rs`.
fn sincos_test(corpus: &Corpus, dev: &mut Device) -> Result<(), String> {
    const FN: &str = "sincos_test";
    let sin = corpus.shader(FN, "sin_shader_code")?;
    let cos = corpus.shader(FN, "cos_shader_code")?;
    // The data arrays only name the SDK macros; check that they still do.
    for (name, mac) in [
        ("sincosc1", "D3DSINCOSCONST1"),
        ("sincosc2", "D3DSINCOSCONST2"),
    ] {
        if !corpus.data_array(FN, name)?.contains(mac) {
            return Err(format!("{FN}/{name} no longer is {{{mac}}}"));
        }
    }
    dev.clear(0x0000_0000);
    dev.set_fvf(D3DFVF_XYZ)?;
    dev.set_vs_const_f(0, &[D3DSINCOSCONST1]);
    dev.set_vs_const_f(1, &[D3DSINCOSCONST2]);
    // for (i = 0; i < 1280; i++) { data[i].x = (-640.0 + i) / 640.0; data[i].y = 0.0; data[i].z = 0.1; }
    let points: Vec<f32> = (0..1280)
        .flat_map(|i| [((-640.0 + f64::from(i)) / 640.0) as f32, 0.0, 0.1f64 as f32])
        .collect();
    let points = f32_bytes(&points);
    dev.set_vertex_shader(&sin);
    dev.draw_up("sin points", Primitive::PointList, 1280, &points, 12);
    dev.set_vertex_shader(&cos);
    dev.draw_up("cos points", Primitive::PointList, 1280, &points, 12);
    // Render the frame, as Present does, so that a draw wgpu rejects is seen.
    dev.pixel(0, 0).map(|_| ())
}

/// loop_index_test: `loop aL, i0` with i0 = (2, 10, -3) adds c[aL + 1] for aL = 10, 7.
fn loop_index_test(corpus: &Corpus, dev: &mut Device) -> Result<(), String> {
    const FN: &str = "loop_index_test";
    let shader = corpus.shader(FN, "shader_code")?;
    let quad = f32_bytes(&corpus.floats(FN, "quad")?);
    let zero = vec4(corpus, FN, "zero")?;
    let one = vec4(corpus, FN, "one")?;
    let i0: Vec<i32> = corpus
        .initialiser(FN, "i0")?
        .iter()
        .map(|t| t.u32().map(|v| v as i32).ok_or(format!("{FN}/i0: {t:?}")))
        .collect::<Result<_, _>>()?;
    let i0: [i32; 4] = i0
        .try_into()
        .map_err(|_| format!("{FN}/i0 is not 4 ints"))?;
    dev.set_vertex_shader(&shader);
    dev.set_fvf(D3DFVF_XYZ)?;
    dev.clear(0x00ff_0000);
    dev.set_vs_const_f(0, &[zero]);
    for c in 1..=7 {
        dev.set_vs_const_f(c, &[one]);
    }
    dev.set_vs_const_f(8, &[[1.0, 1.0, 0.0, 0.0]]);
    dev.set_vs_const_f(9, &[one]);
    dev.set_vs_const_f(10, &[one]);
    dev.set_vs_const_f(11, &[[-1.0, 0.0, 0.0, 0.0]]);
    for c in 12..=15 {
        dev.set_vs_const_f(c, &[one]);
    }
    dev.set_vs_const_i(0, &[i0]);
    dev.draw_up("quad", Primitive::TriangleStrip, 2, &quad, 12);
    literal_checks(corpus, dev, FN, 0..u64::MAX, 1)
}

/// sgn_test: `sgn r0, c0, r1, r2` of (-0.5, 0, 0.5, 12) plus (1.5, 0, 0, 0).
fn sgn_test(corpus: &Corpus, dev: &mut Device) -> Result<(), String> {
    const FN: &str = "sgn_test";
    let shader = corpus.shader(FN, "shader_code")?;
    let quad = f32_bytes(&corpus.floats(FN, "quad")?);
    dev.set_vertex_shader(&shader);
    dev.set_fvf(D3DFVF_XYZ)?;
    dev.clear(0x00ff_0000);
    dev.draw_up("quad", Primitive::TriangleStrip, 2, &quad, 12);
    literal_checks(corpus, dev, FN, 0..u64::MAX, 1)
}

/// `SetVertexShader(FN/shader)` + `DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, FN/quad, 12)`: a
/// quad of XYZ vertices, both from the corpus.
fn draw_corpus_quad(
    corpus: &Corpus,
    dev: &mut Device,
    function: &str,
    shader: &str,
    quad: &str,
) -> Result<(), String> {
    dev.set_vertex_shader(&corpus.shader(function, shader)?);
    let data = f32_bytes(&corpus.floats(function, quad)?);
    dev.draw_up(
        &format!("{shader} {quad}"),
        Primitive::TriangleStrip,
        2,
        &data,
        12,
    );
    Ok(())
}

/// test_constant_clamp_vs: constants outside [0, 1] (set or `def`'d) are not clamped; only
/// the colour output is.
fn test_constant_clamp_vs(corpus: &Corpus, dev: &mut Device) -> Result<(), String> {
    const FN: &str = "test_constant_clamp_vs";
    let decl = corpus.declaration(FN, "decl_elements")?;
    dev.clear(0xff00_ffff);
    dev.set_vs_const_f(1, &[vec4(corpus, FN, "test_data_c1")?]);
    dev.set_vs_const_f(2, &[vec4(corpus, FN, "test_data_c2")?]);
    dev.set_vertex_declaration(&decl);
    for (shader, quad) in [
        ("shader_code_11", "quad1"),
        ("shader_code_11_2", "quad2"),
        ("shader_code_20", "quad3"),
        ("shader_code_20_2", "quad4"),
    ] {
        draw_corpus_quad(corpus, dev, FN, shader, quad)?;
    }
    literal_checks(corpus, dev, FN, 0..u64::MAX, 4)
}

/// test_compare_instructions: sge / slt, vector and scalar.
fn test_compare_instructions(corpus: &Corpus, dev: &mut Device) -> Result<(), String> {
    const FN: &str = "test_compare_instructions";
    let const0 = vec4(corpus, FN, "const0")?;
    let const1 = vec4(corpus, FN, "const1")?;
    dev.clear(0xffff_ffff);
    dev.set_vs_const_f(0, &[const0]);
    dev.set_vs_const_f(1, &[const1]);
    dev.set_fvf(D3DFVF_XYZ)?;
    for (i, (shader, quad)) in [
        ("shader_sge_vec_code", "quad1"),
        ("shader_slt_vec_code", "quad2"),
        ("shader_sge_scalar_code", "quad3"),
        ("shader_slt_scalar_code", "quad4"),
    ]
    .into_iter()
    .enumerate()
    {
        if i == 3 {
            dev.set_vs_const_f(0, &[const0]);
        }
        draw_corpus_quad(corpus, dev, FN, shader, quad)?;
    }
    literal_checks(corpus, dev, FN, 0..u64::MAX, 4)
}

/// fp_special_test: INF / NaN results of log, pow, nrm, rcp, rsq, lit and `def`, mapped to
/// colours by a ps_2_0 shader. Accepts any of the r500 / r600 / nv40 / nv50 columns (the
/// WARP column is `broken()`, Windows-only).
pub fn fp_special_test(corpus: &Corpus, dev: &mut Device) -> Result<(), String> {
    const FN: &str = "fp_special_test";
    let ps = corpus.shader(FN, "ps_code")?;
    let quad = f32_bytes(&corpus.floats(FN, "quad")?);
    // vs_body[] = {{"name", ops, sizeof(ops), r500, r600, nv40, nv50, warp}, ...}
    let tokens = corpus.initialiser(FN, "vs_body")?;
    let mut bodies = Vec::new();
    let mut rest = tokens.as_slice();
    while let [CToken::Ident(name), CToken::Ident(_), CToken::Ident(_), CToken::Ident(_), r500, r600, nv40, nv50, _warp, tail @ ..] =
        rest
    {
        let colour = |t: &CToken| t.u32().ok_or(format!("{FN}/vs_body: {t:?}"));
        bodies.push((
            name.clone(),
            [colour(r500)?, colour(r600)?, colour(nv40)?, colour(nv50)?],
        ));
        rest = tail;
    }
    if bodies.len() != 11 || !rest.is_empty() {
        return Err(format!(
            "{FN}/vs_body: read {} rows, {} tokens left",
            bodies.len(),
            rest.len()
        ));
    }
    dev.set_fvf(D3DFVF_XYZ | D3DFVF_TEX1 | D3DFVF_TEXCOORDSIZE1_0)?;
    dev.set_pixel_shader(Some(&ps));
    dev.clear(0xff00_ff00);
    for (name, accepted) in bodies {
        let vs = corpus.shader(FN, &format!("fp_special:{name}"))?;
        dev.set_vertex_shader(&vs);
        dev.draw_up(
            &format!("{name} quad"),
            Primitive::TriangleStrip,
            2,
            &quad,
            16,
        );
        dev.check(&format!("instruction {name}"), 320, 240, &accepted, 1);
    }
    Ok(())
}

/// test_default_attribute_components: FLOAT1/2/3 texcoords and colours read the missing
/// components as (0, 0, 0, 1); `mov oD0, v1.yzwx`, the whole target checked.
///
/// The corpus holds this function's arrays and checks (`Clear(D3DCLEAR_TARGET, 0xffff0000)`,
/// `check_rt_color(backbuffer, tests[j].color)`) but not its loop; the replay is the loop
/// those imply: per `tests[j]`, set the vertex shader, clear, draw the quad as a strip, check.
fn test_default_attribute_components(corpus: &Corpus, dev: &mut Device) -> Result<(), String> {
    const FN: &str = "test_default_attribute_components";
    let decl = corpus.declaration(FN, "decl_elements")?;
    let quad = bytes_of(&words(&corpus.initialiser(FN, "quad")?, &[Field::Float])?);
    let stride = 15 * 4;
    let tokens = corpus.initialiser(FN, "tests")?;
    let mut cases = Vec::new();
    let mut rest = tokens.as_slice();
    while let [CToken::Ident(shader), colour, tail @ ..] = rest {
        cases.push((
            shader.clone(),
            colour.u32().ok_or(format!("{FN}/tests: {colour:?}"))?,
        ));
        rest = tail;
    }
    if cases.len() != 6 || !rest.is_empty() {
        return Err(format!(
            "{FN}/tests: read {} rows, {} tokens left",
            cases.len(),
            rest.len()
        ));
    }
    dev.set_vertex_declaration(&decl);
    for (shader, colour) in cases {
        dev.set_vertex_shader(&corpus.shader(FN, &shader)?);
        dev.clear(0xffff_0000);
        dev.draw_up(
            &format!("{shader} quad"),
            Primitive::TriangleStrip,
            2,
            &quad,
            stride,
        );
        dev.check_whole_target(&format!("{shader}: check_rt_color"), colour);
    }
    Ok(())
}

/// test_vshader_float16: FLOAT16_4 colours, drawn from user memory, then from a vertex buffer.
fn test_vshader_float16(corpus: &Corpus, dev: &mut Device) -> Result<(), String> {
    const FN: &str = "test_vshader_float16";
    let decl = corpus.declaration(FN, "decl_elements")?;
    let shader = corpus.shader(FN, "shader_code")?;
    let quad = bytes_of(&words(
        &corpus.initialiser(FN, "quad")?,
        &[
            Field::Float,
            Field::Float,
            Field::Float,
            Field::Dword,
            Field::Dword,
        ],
    )?);
    let stride = 20;
    dev.clear(0xff10_2030);
    dev.set_vertex_shader(&shader);
    dev.set_vertex_declaration(&decl);
    for start in [0u32, 4, 8, 12] {
        let data = quad.get((start * stride) as usize..).unwrap_or(&[]);
        dev.draw_up(
            &format!("DrawPrimitiveUP quad + {start}"),
            Primitive::TriangleStrip,
            2,
            data,
            stride,
        );
    }
    literal_checks(corpus, dev, FN, 0..9790, 4)?;
    // The second half: the same vertices in a vertex buffer, DrawPrimitive(start 0, 4, 8, 12).
    dev.clear(0xff10_2030);
    for start in [0u32, 4, 8, 12] {
        dev.draw(
            &format!("DrawPrimitive start {start}"),
            Primitive::TriangleStrip,
            &quad,
            stride,
            start,
            2,
        );
    }
    literal_checks(corpus, dev, FN, 9790..u64::MAX, 4)
}

/// test_position_index: POSITION1 as an inter-stage value between vs_3_0 and ps_3_0.
fn test_position_index(corpus: &Corpus, dev: &mut Device) -> Result<(), String> {
    const FN: &str = "test_position_index";
    let decl = corpus.declaration(FN, "decl_elements")?;
    let quad = f32_bytes(&corpus.floats(FN, "quad")?);
    let vs = corpus.shader(FN, "vs_code")?;
    let vs2 = corpus.shader(FN, "vs_code_2")?;
    let ps = corpus.shader(FN, "ps_code")?;
    let ps2 = corpus.shader(FN, "ps_code_2")?;
    // expected_colors[] = {{{x, y}, expected, broken}, ...}; broken() colours are not accepted.
    let expected: Vec<(u32, u32, u32)> = words(
        &corpus.initialiser(FN, "expected_colors")?,
        &[Field::Dword, Field::Dword, Field::Dword, Field::Dword],
    )?
    .chunks(4)
    .map(|r| (r[0], r[1], r[2]))
    .collect();
    dev.set_vertex_declaration(&decl);
    dev.set_vertex_shader(&vs);
    for (pass, (vs_name, ps_name)) in [
        ("vs_code", "ps_code"),
        ("vs_code", "ps_code_2"),
        ("vs_code_2", "ps_code_2"),
    ]
    .into_iter()
    .enumerate()
    {
        if pass == 2 {
            dev.set_vertex_shader(&vs2);
        }
        dev.set_pixel_shader(Some(if ps_name == "ps_code" { &ps } else { &ps2 }));
        dev.clear(0x00ff_00ff);
        dev.draw_up(
            &format!("{vs_name} + {ps_name}"),
            Primitive::TriangleStrip,
            2,
            &quad,
            24,
        );
        for &(x, y, colour) in &expected {
            dev.check(&format!("{vs_name} + {ps_name}"), x, y, &[colour], 1);
        }
    }
    Ok(())
}
