//! Functions of Wine's `dlls/d3d9/tests/visual.c` that exercise the device more than the
//! translator: instancing (`stream_test`), vertex texture fetch (`test_vertex_texture`) and
//! the alpha test (`alphatest_test`), replayed call by call on [`Device`] like
//! [`super::functions_ps`]: vertex data, shaders and tables from the corpus, each function's
//! control flow as visual.c has it.

use super::corpus::{tokenize, CToken, Corpus};
use super::device::{Device, Format, Primitive};
use super::functions::{bytes_of, f32_bytes, Report};
use d3d9_backend::device::{CompareFunction, IndexBufferId, RenderState, VertexBufferId};
use d3d9_backend::TextureKind;
use d3d9_translator::lift::FloatMode;

/// The replayed functions.
pub const FUNCTIONS: [&str; 3] = ["stream_test", "test_vertex_texture", "alphatest_test"];

/// `D3DSTREAMSOURCE_INDEXEDDATA`.
const INDEXEDDATA: u32 = 0x4000_0000;
/// `D3DSTREAMSOURCE_INSTANCEDATA`.
const INSTANCEDATA: u32 = 0x8000_0000;
/// `D3DVERTEXTEXTURESAMPLER0`.
const D3DVERTEXTEXTURESAMPLER0: u32 = 257;
const D3DFVF_XYZ: u32 = 0x002;
const D3DFVF_DIFFUSE: u32 = 0x040;
/// alphatest_test's `#define ALPHATEST_PASSED 0x0000ff00` and `ALPHATEST_FAILED 0x00ff0000`
/// (the defines are in the function's body, which the corpus keeps only as data arrays).
const ALPHATEST_PASSED: u32 = 0x0000_ff00;
const ALPHATEST_FAILED: u32 = 0x00ff_0000;

/// Replay `function` on a fresh device.
pub fn run(function: &str) -> Report {
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
    let mut dev = match Device::new(FloatMode::Legacy) {
        Ok(d) => d,
        Err(e) => {
            report.error = Some(format!("no GPU device: {e}"));
            return report;
        }
    };
    let result = match function {
        "stream_test" => stream_test(&corpus, &mut dev),
        "test_vertex_texture" => test_vertex_texture(&corpus, &mut dev),
        "alphatest_test" => alphatest_test(&corpus, &mut dev),
        other => Err(format!("{other} is not one of the replayed functions")),
    };
    report.error = result.err();
    report.checks = std::mem::take(&mut dev.checks);
    report.failures = std::mem::take(&mut dev.failures);
    report
}

/// The innermost `{ ... }` groups of data array `name`'s initialiser, each tokenized: the
/// rows of a table of structs (rows may leave trailing fields out, which C zero-fills).
fn table_rows(corpus: &Corpus, function: &str, name: &str) -> Result<Vec<Vec<CToken>>, String> {
    let text = corpus.data_array(function, name)?;
    let body = text
        .find('=')
        .map(|i| &text[i + 1..])
        .ok_or_else(|| format!("{function}/{name}: no initialiser"))?;
    let mut rows = Vec::new();
    let mut start = None;
    let mut in_comment = false;
    let bytes = body.as_bytes();
    for (i, &c) in bytes.iter().enumerate() {
        match (in_comment, c) {
            (false, b'/') if bytes.get(i + 1) == Some(&b'*') => in_comment = true,
            (true, b'/') if i > 0 && bytes[i - 1] == b'*' => in_comment = false,
            (false, b'{') => start = Some(i + 1),
            (false, b'}') => {
                if let Some(s) = start.take() {
                    rows.push(
                        tokenize(&body[s..i]).map_err(|e| format!("{function}/{name}: {e}"))?,
                    );
                }
            }
            _ => {}
        }
    }
    Ok(rows)
}

/// One row of stream_test's `testcases`.
#[derive(Debug, Clone, Copy)]
struct StreamCase {
    idx_vertex: u32,
    idx_color: u32,
    idx_instance: u32,
    colors: [u32; 4],
    str_vertex: usize,
    str_color: usize,
    str_instance: usize,
    explicit_zero_freq: u32,
}

fn stream_cases(corpus: &Corpus) -> Result<Vec<StreamCase>, String> {
    table_rows(corpus, "stream_test", "testcases")?
        .iter()
        .map(|row| {
            let v: Vec<u32> = row
                .iter()
                .map(|t| t.u32().ok_or_else(|| format!("testcases: {t:?}")))
                .collect::<Result<_, _>>()?;
            // idxVertex, idxColor, idxInstance, color1..4, strVertex, strColor, strInstance
            // and the optional explicit_zero_freq.
            if !(10..=11).contains(&v.len()) {
                return Err(format!("testcases: a row of {} values", v.len()));
            }
            Ok(StreamCase {
                idx_vertex: v[0],
                idx_color: v[1],
                idx_instance: v[2],
                colors: [v[3], v[4], v[5], v[6]],
                str_vertex: v[7] as usize,
                str_color: v[8] as usize,
                str_instance: v[9] as usize,
                explicit_zero_freq: v.get(10).copied().unwrap_or(0),
            })
        })
        .collect()
}

/// stream_test: instancing. First Wine's `SetStreamSourceFreq` validity checks (a plain 0,
/// INSTANCEDATA on stream 0 and both flags together are `D3DERR_INVALIDCALL`; counts of 0 with
/// a flag are accepted). Then, per row of `testcases`, a declaration with the row's stream
/// numbers (position, colour, per-instance offset), `INDEXEDDATA | n` on the position and
/// colour streams and `INSTANCEDATA | 1` on the instance stream, and (when stream 0 is
/// unused) `INDEXEDDATA | explicit_zero_freq` on stream 0, since the instance count is read
/// from stream 0 only:
/// - a non-indexed draw, checked at (200, 340) (the row's first colour) and three white
///   points: D3D9 instances only indexed draws, so one instance, at instance 0's offset, is
///   drawn. The corpus (Wine 11.10) has these four checks (visual.c lines 12420–12427) but
///   not the text of the draw between them and the `Clear`; the replay draws the quad with
///   `DrawPrimitive(D3DPT_TRIANGLESTRIP, 0, 2)`, the only non-indexed draw of the 4-vertex
///   buffer that covers the checked point;
/// - `DrawIndexedPrimitive(D3DPT_TRIANGLELIST, 0, 0, 4, 0, 2)`, checked in the four
///   quadrants: one quadrant per instance drawn.
///
/// The streams are reset as visual.c resets them (with `idxColor` and `idxInstance` as the
/// stream numbers, as its code has it).
fn stream_test(corpus: &Corpus, dev: &mut Device) -> Result<(), String> {
    const FN: &str = "stream_test";
    for (label, stream, value, ok) in [
        ("SetStreamSourceFreq(1, 1)", 1, 1, true),
        (
            "SetStreamSourceFreq(0, INSTANCEDATA | 1)",
            0,
            INSTANCEDATA | 1,
            false,
        ),
        ("SetStreamSourceFreq(1, 0)", 1, 0, false),
        ("SetStreamSourceFreq(1, 2)", 1, 2, true),
        (
            "SetStreamSourceFreq(1, INDEXEDDATA | 0)",
            1,
            INDEXEDDATA,
            true,
        ),
        (
            "SetStreamSourceFreq(1, INSTANCEDATA | 0)",
            1,
            INSTANCEDATA,
            true,
        ),
        (
            "SetStreamSourceFreq(1, INSTANCEDATA | INDEXEDDATA | 0)",
            1,
            INSTANCEDATA | INDEXEDDATA,
            false,
        ),
        ("SetStreamSourceFreq(1, 1) (default back)", 1, 1, true),
    ] {
        let r = dev.d3d.set_stream_source_freq(stream, value);
        dev.check_call(label, r, ok);
    }
    let quad = f32_bytes(&corpus.floats(FN, "quad")?);
    let vertcolor = f32_bytes(&corpus.floats(FN, "vertcolor")?);
    let instancepos = f32_bytes(&corpus.floats(FN, "instancepos")?);
    let indices: Vec<u16> = corpus
        .initialiser(FN, "indices")?
        .iter()
        .map(|t| {
            t.u32()
                .and_then(|v| u16::try_from(v).ok())
                .ok_or_else(|| format!("{FN}/indices: {t:?}"))
        })
        .collect::<Result<_, _>>()?;
    let buffer = |dev: &mut Device, data: &[u8]| -> Result<VertexBufferId, String> {
        dev.d3d
            .create_vertex_buffer_with(data)
            .map_err(|e| e.to_string())
    };
    let vb = buffer(dev, &quad)?;
    let vb2 = buffer(dev, &vertcolor)?;
    let vb3 = buffer(dev, &instancepos)?;
    let ib: IndexBufferId = dev
        .d3d
        .create_index_buffer_u16(&indices)
        .map_err(|e| e.to_string())?;
    dev.set_vertex_shader(&corpus.shader(FN, "shader_code")?);
    let r = dev.d3d.set_indices(Some(ib));
    dev.note("SetIndices", r);
    let base = corpus.declaration(FN, "decl")?;
    let cases = stream_cases(corpus)?;
    if cases.len() != 16 {
        return Err(format!("{FN}/testcases: {} rows, expected 16", cases.len()));
    }
    for (i, act) in cases.iter().enumerate() {
        let mut elements = base.elements().to_vec();
        for (element, stream) in
            elements
                .iter_mut()
                .zip([act.str_vertex, act.str_color, act.str_instance])
        {
            element.stream = stream as u16;
        }
        let decl = dev.d3d.create_vertex_declaration(&elements);
        let Some(decl) = dev.note(&format!("case {i}: CreateVertexDeclaration"), decl) else {
            continue;
        };
        dev.clear(0xffff_ffff);
        let r = dev.d3d.set_vertex_declaration(Some(decl));
        dev.note("SetVertexDeclaration", r);
        let set = |dev: &mut Device,
                   stream: usize,
                   freq: u32,
                   vb: Option<VertexBufferId>,
                   stride: u32| {
            let r = dev.d3d.set_stream_source_freq(stream, freq);
            dev.note(
                &format!("case {i}: SetStreamSourceFreq({stream}, {freq:#x})"),
                r,
            );
            let r = dev.d3d.set_stream_source(stream, vb, 0, stride);
            dev.note(&format!("case {i}: SetStreamSource({stream})"), r);
        };
        if act.str_vertex != 0 && act.str_color != 0 && act.str_instance != 0 {
            let r = dev
                .d3d
                .set_stream_source_freq(0, INDEXEDDATA | act.explicit_zero_freq);
            dev.note(&format!("case {i}: SetStreamSourceFreq(0)"), r);
        }
        set(
            dev,
            act.str_vertex,
            INDEXEDDATA | act.idx_vertex,
            Some(vb),
            12,
        );
        set(
            dev,
            act.str_color,
            INDEXEDDATA | act.idx_color,
            Some(vb2),
            16,
        );
        set(
            dev,
            act.str_instance,
            INSTANCEDATA | act.idx_instance,
            Some(vb3),
            12,
        );
        let r = dev.d3d.draw_primitive(Primitive::TriangleStrip, 0, 2);
        dev.note(&format!("case {i}: DrawPrimitive"), r);
        let white = 0x00ff_ffff;
        for (x, y, expected) in [
            (200, 340, act.colors[0]),
            (400, 340, white),
            (400, 180, white),
            (200, 180, white),
        ] {
            dev.check(&format!("case {i}: non-indexed"), x, y, &[expected], 0);
        }
        dev.clear(0xffff_ffff);
        let r = dev
            .d3d
            .draw_indexed_primitive(Primitive::TriangleList, 0, 0, 4, 0, 2);
        dev.note(&format!("case {i}: DrawIndexedPrimitive"), r);
        set(dev, act.str_vertex, 1, None, 0);
        set(dev, act.idx_color as usize, 1, None, 0);
        set(dev, act.idx_instance as usize, 1, None, 0);
        let r = dev.d3d.release_vertex_declaration(decl);
        dev.note("Release (declaration)", r);
        for ((x, y), expected) in [(160, 360), (480, 360), (480, 120), (160, 120)]
            .into_iter()
            .zip(act.colors)
        {
            dev.check(&format!("case {i}: instanced"), x, y, &[expected], 0);
        }
    }
    Ok(())
}

/// test_vertex_texture: a vs_3_0 shader reads a 2x2 A8R8G8B8 texture (every texel
/// `texture_data[0]`) with `texldl` from `D3DVERTEXTEXTURESAMPLER0` (257) and outputs it as
/// its colour; a ps_3_0 shader passes the colour on. The back buffer, cleared white, reads
/// the texel colour at (160, 360), exactly.
fn test_vertex_texture(corpus: &Corpus, dev: &mut Device) -> Result<(), String> {
    const FN: &str = "test_vertex_texture";
    let decl = corpus.declaration(FN, "decl_elements")?;
    let quad = f32_bytes(&corpus.floats(FN, "quad")?);
    let texels: Vec<u32> = corpus
        .initialiser(FN, "texture_data")?
        .iter()
        .map(|t| t.u32().ok_or_else(|| format!("{FN}/texture_data: {t:?}")))
        .collect::<Result<_, _>>()?;
    let first = *texels.first().ok_or("texture_data is empty")?;
    let texture = dev.create_texture(
        TextureKind::TwoD,
        Format::A8R8G8B8,
        [2, 2, 1],
        &bytes_of(&texels),
    )?;
    dev.set_vertex_shader(&corpus.shader(FN, "vs_code")?);
    dev.set_pixel_shader(Some(&corpus.shader(FN, "ps_code")?));
    dev.set_vertex_declaration(&decl);
    dev.set_texture(D3DVERTEXTEXTURESAMPLER0, Some(texture));
    dev.clear(0xffff_ffff);
    dev.draw_up("vertex texture", Primitive::TriangleStrip, 2, &quad, 12);
    dev.check(
        "texldl from sampler 257",
        160,
        360,
        &[first & 0x00ff_ffff],
        0,
    );
    Ok(())
}

/// `D3DCMPFUNC` by name.
fn compare_function(name: &str) -> Option<CompareFunction> {
    Some(match name {
        "D3DCMP_NEVER" => CompareFunction::Never,
        "D3DCMP_LESS" => CompareFunction::Less,
        "D3DCMP_EQUAL" => CompareFunction::Equal,
        "D3DCMP_LESSEQUAL" => CompareFunction::LessEqual,
        "D3DCMP_GREATER" => CompareFunction::Greater,
        "D3DCMP_NOTEQUAL" => CompareFunction::NotEqual,
        "D3DCMP_GREATEREQUAL" => CompareFunction::GreaterEqual,
        "D3DCMP_ALWAYS" => CompareFunction::Always,
        _ => return None,
    })
}

/// An alphatest_test colour expression: `ALPHATEST_PASSED`, `ALPHATEST_FAILED`, hex
/// literals, or'ed together.
fn alphatest_colour(tokens: &[CToken]) -> Result<u32, String> {
    tokens.iter().try_fold(0, |acc, t| {
        Ok(acc
            | match t {
                CToken::Ident(n) if n == "ALPHATEST_PASSED" => ALPHATEST_PASSED,
                CToken::Ident(n) if n == "ALPHATEST_FAILED" => ALPHATEST_FAILED,
                CToken::Hex(v) => *v,
                other => return Err(format!("alphatest_test: colour {other:?}")),
            })
    })
}

/// alphatest_test: a quad of diffuse 0x8000ff00 (alpha 0x80), lighting off, alpha test on,
/// over a red clear; for each `D3DCMPFUNC` of `testdata`, with `D3DRS_ALPHAREF` 0x90 (alpha
/// below), 0x80 (equal), 0x70 (above) and 0xff70 (read back as set, tested as 0x70), the
/// centre is green where the test passes and red where it fails. Done with the
/// fixed-function pixel stage, then with a ps_1_1 shader (`mov r0, v0`).
fn alphatest_test(corpus: &Corpus, dev: &mut Device) -> Result<(), String> {
    const FN: &str = "alphatest_test";
    let rows = table_rows(corpus, FN, "testdata")?;
    let table: Vec<(CompareFunction, [u32; 3])> = rows
        .iter()
        .map(|row| {
            let func = row
                .first()
                .and_then(CToken::ident)
                .and_then(compare_function)
                .ok_or_else(|| format!("{FN}/testdata: row {row:?}"))?;
            let colours: Vec<u32> = row[1..]
                .iter()
                .map(|t| alphatest_colour(std::slice::from_ref(t)))
                .collect::<Result<_, _>>()?;
            let colours: [u32; 3] = colours
                .try_into()
                .map_err(|_| format!("{FN}/testdata: row {row:?}"))?;
            Ok((func, colours))
        })
        .collect::<Result<_, String>>()?;
    if table.len() != 8 {
        return Err(format!("{FN}/testdata: {} rows, expected 8", table.len()));
    }
    // quad[]: {{x, y, z}, ALPHATEST_PASSED | 0x80000000} per vertex.
    let mut quad = Vec::new();
    let tokens = corpus.initialiser(FN, "quad")?;
    let mut rest = tokens.as_slice();
    while !rest.is_empty() {
        let (position, tail) = rest.split_at(3.min(rest.len()));
        let colour_len = tail
            .iter()
            .position(|t| matches!(t, CToken::Number(_)))
            .unwrap_or(tail.len());
        let (colour, tail) = tail.split_at(colour_len);
        for t in position {
            let v = t.f32().ok_or_else(|| format!("{FN}/quad: {t:?}"))?;
            quad.extend(v.to_le_bytes());
        }
        quad.extend(alphatest_colour(colour)?.to_le_bytes());
        rest = tail;
    }
    if quad.len() != 4 * 16 {
        return Err(format!(
            "{FN}/quad: {} bytes, expected 4 vertices",
            quad.len()
        ));
    }
    dev.clear(0xff00_00ff);
    dev.set_lighting(false);
    dev.set_render_state(RenderState::AlphaTestEnable(true));
    dev.set_fvf(D3DFVF_XYZ | D3DFVF_DIFFUSE)?;
    for pass in ["fixed function", "ps_1_1"] {
        if pass == "ps_1_1" {
            dev.set_pixel_shader(Some(&corpus.shader(FN, "shader_code")?));
        }
        for (func, [less, equal, greater]) in &table {
            dev.set_render_state(RenderState::AlphaFunc(*func));
            for (reference, expected) in [
                (0x90, less),
                (0x80, equal),
                (0x70, greater),
                (0xff70, greater),
            ] {
                dev.clear(ALPHATEST_FAILED);
                dev.set_render_state(RenderState::AlphaRef(reference));
                let label = format!("{pass}: {func:?}, ALPHAREF {reference:#x}");
                if reference == 0xff70 {
                    let value = dev.d3d.render_states().alpha_ref;
                    dev.check_eq(&format!("{label}: GetRenderState"), value, 0xff70);
                }
                dev.draw_up(&label, Primitive::TriangleStrip, 2, &quad, 16);
                dev.check(&label, 320, 240, &[*expected], 1);
            }
        }
    }
    Ok(())
}
