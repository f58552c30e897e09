//! Vertex declaration types on the GPU: for every `D3DDECLTYPE`, raw vertex bytes are bound
//! through a declaration, fetched by a translated vertex shader and read back exactly; each
//! component must equal the value D3D9 defines for those bytes.
//!
//! The expected values come from [`reference`], a CPU model written from the SDK's
//! `D3DDECLTYPE` definitions, not from the translator's `DECL_TYPES` table.
//!
//! Tolerances: FLOATn, FLOAT16_n, UBYTE4, SHORTn and UDEC3 are compared bit for bit (so −0,
//! ±inf and FLT_MAX must survive); the normalized types (D3DCOLOR, UBYTE4N, SHORTnN, USHORTnN,
//! DEC3N) within 1e-6 relative (a few ulp: the GPU may divide or multiply by a reciprocal), and
//! 0 exactly.
//!
//! Tests named `gpu_*` need an adapter (lavapipe is enough) and fail without one unless
//! `D3D9_ALLOW_NO_GPU=1`.

use d3d9_backend::Gpu;
use d3d9_harness::{Harness, OutputValues, ShaderStage, VertexBuffer, VertexProbe};
use d3d9_translator::asm::assemble;
use d3d9_translator::bytecode::Stage;
use d3d9_translator::bytecode::Usage;
use d3d9_translator::check::{check, DeviceCaps};
use d3d9_translator::decl::{
    bind_program, BindError, DeclType, RawElement, StreamFrequency, StreamSource,
    VertexDeclaration, VertexProcessing,
};
use d3d9_translator::lift::{translate_vertex_shader, VertexShaderOptions, ENTRY_POINT};
use d3d9_translator::signature::Semantic;

type TestResult<T = ()> = Result<T, Box<dyn std::error::Error>>;

/// One vertex's located outputs, by semantic.
type VertexRead = Vec<(Semantic, Vec<f32>)>;

// ---------------------------------------------------------------------------------------------
// The CPU reference: D3DDECLTYPE as the SDK defines it.
// ---------------------------------------------------------------------------------------------

/// How a type's values are compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tolerance {
    /// Bit for bit.
    Exact,
    /// Within 1e-6 relative; 0 exactly.
    Normalized,
}

fn f32_at(b: &[u8], i: usize) -> f32 {
    f32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
}

fn i16_at(b: &[u8], i: usize) -> i16 {
    i16::from_le_bytes([b[2 * i], b[2 * i + 1]])
}

fn u16_at(b: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([b[2 * i], b[2 * i + 1]])
}

fn u32_at(b: &[u8]) -> u32 {
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

/// IEEE 754 binary16 → f32 (every half is exactly representable).
fn half_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0f64 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1F);
    let mant = f64::from(h & 0x3FF);
    let magnitude = match exp {
        0 => mant * 2f64.powi(-24),
        31 if mant == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1.0 + mant / 1024.0) * 2f64.powi(exp - 15),
    };
    (sign * magnitude) as f32
}

/// Signed normalized: v / max, clamped to −1 (the most negative value also reads −1).
fn snorm(v: i32, max: f64) -> f32 {
    (f64::from(v) / max).max(-1.0) as f32
}

/// Sign-extend a 10-bit field.
fn signed10(v: u32) -> i32 {
    let v = (v & 0x3FF) as i32;
    if v >= 0x200 {
        v - 0x400
    } else {
        v
    }
}

/// What a vertex shader reads from an element of type `ty` holding `b`, per the DirectX 9 SDK:
///
/// - FLOAT1..4: (x, [y, z, w]), missing components (0, 0, 1)-padded.
/// - D3DCOLOR: 0xAARRGGBB → (R, G, B, A) / 255.
/// - UBYTE4: four unsigned bytes, unscaled. UBYTE4N: each / 255.
/// - SHORT2 / SHORT4: (a, b, 0, 1) / (a, b, c, d), unscaled.
/// - SHORT2N / SHORT4N: each / 32767 (−32768 reads −1). USHORT2N / USHORT4N: each / 65535.
/// - UDEC3: (x, y, z, 1), unsigned 10-bit fields at bits 0, 10, 20, unscaled.
/// - DEC3N: (x / 511, y / 511, z / 511, 1), signed 10-bit fields (−512 reads −1).
/// - FLOAT16_2 / FLOAT16_4: half → float, (x, y, 0, 1) / (x, y, z, w).
fn reference(ty: DeclType, b: &[u8]) -> ([f32; 4], Tolerance) {
    use Tolerance::{Exact, Normalized};
    let pad = |v: &[f32]| {
        let mut out = [0.0, 0.0, 0.0, 1.0];
        out[..v.len()].copy_from_slice(v);
        out
    };
    match ty {
        DeclType::Float1 => (pad(&[f32_at(b, 0)]), Exact),
        DeclType::Float2 => (pad(&[f32_at(b, 0), f32_at(b, 1)]), Exact),
        DeclType::Float3 => (pad(&[f32_at(b, 0), f32_at(b, 1), f32_at(b, 2)]), Exact),
        DeclType::Float4 => (
            [f32_at(b, 0), f32_at(b, 1), f32_at(b, 2), f32_at(b, 3)],
            Exact,
        ),
        DeclType::D3DColor => {
            let c = u32_at(b);
            let ch = |shift: u32| (f64::from((c >> shift) & 0xFF) / 255.0) as f32;
            ([ch(16), ch(8), ch(0), ch(24)], Normalized)
        }
        DeclType::UByte4 => (b[..4].iter().map(|&v| f32::from(v)).collect4(), Exact),
        DeclType::UByte4N => (
            b[..4]
                .iter()
                .map(|&v| (f64::from(v) / 255.0) as f32)
                .collect4(),
            Normalized,
        ),
        DeclType::Short2 => (
            pad(&[f32::from(i16_at(b, 0)), f32::from(i16_at(b, 1))]),
            Exact,
        ),
        DeclType::Short4 => ((0..4).map(|i| f32::from(i16_at(b, i))).collect4(), Exact),
        DeclType::Short2N => (
            pad(&[
                snorm(i32::from(i16_at(b, 0)), 32767.0),
                snorm(i32::from(i16_at(b, 1)), 32767.0),
            ]),
            Normalized,
        ),
        DeclType::Short4N => (
            (0..4)
                .map(|i| snorm(i32::from(i16_at(b, i)), 32767.0))
                .collect4(),
            Normalized,
        ),
        DeclType::UShort2N => (
            pad(&[
                (f64::from(u16_at(b, 0)) / 65535.0) as f32,
                (f64::from(u16_at(b, 1)) / 65535.0) as f32,
            ]),
            Normalized,
        ),
        DeclType::UShort4N => (
            (0..4)
                .map(|i| (f64::from(u16_at(b, i)) / 65535.0) as f32)
                .collect4(),
            Normalized,
        ),
        DeclType::UDec3 => {
            let w = u32_at(b);
            let f = |shift: u32| ((w >> shift) & 0x3FF) as f32;
            ([f(0), f(10), f(20), 1.0], Exact)
        }
        DeclType::Dec3N => {
            let w = u32_at(b);
            let f = |shift: u32| snorm(signed10(w >> shift), 511.0);
            ([f(0), f(10), f(20), 1.0], Normalized)
        }
        DeclType::Float16x2 => (
            pad(&[half_to_f32(u16_at(b, 0)), half_to_f32(u16_at(b, 1))]),
            Exact,
        ),
        DeclType::Float16x4 => ((0..4).map(|i| half_to_f32(u16_at(b, i))).collect4(), Exact),
        DeclType::Unused => unreachable!("UNUSED is never an element type"),
    }
}

/// Bytes of one element of `ty` (the SDK's sizes, not the translator's table).
fn sdk_size(ty: DeclType) -> usize {
    match ty {
        DeclType::Float1
        | DeclType::D3DColor
        | DeclType::UByte4
        | DeclType::UByte4N
        | DeclType::Short2
        | DeclType::Short2N
        | DeclType::UShort2N
        | DeclType::UDec3
        | DeclType::Dec3N
        | DeclType::Float16x2 => 4,
        DeclType::Float2 | DeclType::Short4 | DeclType::Short4N | DeclType::UShort4N => 8,
        DeclType::Float16x4 => 8,
        DeclType::Float3 => 12,
        DeclType::Float4 => 16,
        DeclType::Unused => 0,
    }
}

trait Collect4 {
    fn collect4(self) -> [f32; 4];
}

impl<I: Iterator<Item = f32>> Collect4 for I {
    fn collect4(self) -> [f32; 4] {
        let mut out = [0.0; 4];
        for (o, v) in out.iter_mut().zip(self) {
            *o = v;
        }
        out
    }
}

fn matches(got: f32, want: f32, tolerance: Tolerance) -> bool {
    match tolerance {
        Tolerance::Exact => got.to_bits() == want.to_bits(),
        Tolerance::Normalized if want == 0.0 => got == 0.0,
        Tolerance::Normalized => (got - want).abs() <= 1e-6 * want.abs(),
    }
}

// ---------------------------------------------------------------------------------------------
// Hand-chosen element bytes per type, extremes included.
// ---------------------------------------------------------------------------------------------

fn floats(n: usize) -> Vec<Vec<u8>> {
    let values = [
        0.0f32,
        -0.0,
        1.0,
        -1.5,
        0.1,
        3.25e10,
        f32::MAX,
        f32::MIN,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        f32::INFINITY,
        f32::NEG_INFINITY,
        -123_456.79,
    ];
    (0..values.len())
        .map(|v| {
            (0..n)
                .flat_map(|k| values[(v + 5 * k) % values.len()].to_le_bytes())
                .collect()
        })
        .collect()
}

fn words16(rows: &[&[u16]]) -> Vec<Vec<u8>> {
    rows.iter()
        .map(|r| r.iter().flat_map(|v| v.to_le_bytes()).collect())
        .collect()
}

fn shorts(rows: &[&[i16]]) -> Vec<Vec<u8>> {
    rows.iter()
        .map(|r| r.iter().flat_map(|v| v.to_le_bytes()).collect())
        .collect()
}

fn words32(values: &[u32]) -> Vec<Vec<u8>> {
    values.iter().map(|v| v.to_le_bytes().to_vec()).collect()
}

fn dec3(x: u32, y: u32, z: u32, top: u32) -> u32 {
    (x & 0x3FF) | (y & 0x3FF) << 10 | (z & 0x3FF) << 20 | top << 30
}

const BYTES4: [[u8; 4]; 5] = [
    [0, 0, 0, 0],
    [255, 255, 255, 255],
    [1, 2, 3, 4],
    [128, 127, 255, 0],
    [0, 255, 1, 254],
];

const SHORT_ROWS: [[i16; 4]; 6] = [
    [i16::MIN, i16::MAX, 0, -1],
    [-32767, 1, -2, 2],
    [12345, -12345, i16::MAX, i16::MIN],
    [0, 0, 0, 0],
    [-1, -1, -1, -1],
    [256, -256, 16384, -16384],
];

const USHORT_ROWS: [[u16; 4]; 4] = [
    [0, u16::MAX, 1, 32768],
    [65534, 12345, 32767, 0],
    [u16::MAX, u16::MAX, u16::MAX, u16::MAX],
    [255, 256, 4096, 40000],
];

/// Halves: ±0, ±1, −2, ±65504 (max), min normal, 1/3, 1.5, ±inf. No denormals or NaNs.
const HALVES: [u16; 13] = [
    0x0000, 0x8000, 0x3C00, 0xBC00, 0xC000, 0x7BFF, 0xFBFF, 0x0400, 0x8400, 0x3555, 0x3E00, 0x7C00,
    0xFC00,
];

fn samples(ty: DeclType) -> Vec<Vec<u8>> {
    match ty {
        DeclType::Float1 => floats(1),
        DeclType::Float2 => floats(2),
        DeclType::Float3 => floats(3),
        DeclType::Float4 => floats(4),
        DeclType::D3DColor => words32(&[
            0x0000_0000,
            0xFFFF_FFFF,
            0x80FF_4020,
            0x0102_0304,
            0xFF00_0000,
            0x00FF_0000,
            0x0000_FF00,
            0x0000_00FF,
            0x7F80_7F80,
        ]),
        DeclType::UByte4 | DeclType::UByte4N => BYTES4.iter().map(|b| b.to_vec()).collect(),
        DeclType::Short2 | DeclType::Short2N => {
            let rows: Vec<&[i16]> = SHORT_ROWS.iter().map(|r| &r[..2]).collect();
            shorts(&rows)
        }
        DeclType::Short4 | DeclType::Short4N => {
            let rows: Vec<&[i16]> = SHORT_ROWS.iter().map(|r| &r[..]).collect();
            shorts(&rows)
        }
        DeclType::UShort2N => {
            let rows: Vec<&[u16]> = USHORT_ROWS.iter().map(|r| &r[..2]).collect();
            words16(&rows)
        }
        DeclType::UShort4N => {
            let rows: Vec<&[u16]> = USHORT_ROWS.iter().map(|r| &r[..]).collect();
            words16(&rows)
        }
        DeclType::UDec3 => words32(&[
            dec3(1023, 0, 512, 0),
            dec3(0, 1023, 1, 3),
            dec3(1, 2, 3, 0),
            0xFFFF_FFFF,
            0x0000_0000,
            0xC000_0000,
            dec3(511, 513, 1022, 1),
        ]),
        DeclType::Dec3N => words32(&[
            dec3(0x1FF, 0x201, 0x200, 0),
            dec3(0, 1, 0x3FF, 3),
            dec3(0x200, 0x1FF, 0x100, 2),
            0xFFFF_FFFF,
            0x0000_0000,
            0xC000_0000,
            dec3(0x300, 0x0FF, 0x201, 1),
        ]),
        DeclType::Float16x2 => {
            let rows: Vec<[u16; 2]> = (0..HALVES.len())
                .map(|i| [HALVES[i], HALVES[(i + 4) % HALVES.len()]])
                .collect();
            let rows: Vec<&[u16]> = rows.iter().map(|r| &r[..]).collect();
            words16(&rows)
        }
        DeclType::Float16x4 => {
            let rows: Vec<[u16; 4]> = (0..HALVES.len())
                .map(|i| [0, 3, 6, 9].map(|k| HALVES[(i + k) % HALVES.len()]))
                .collect();
            let rows: Vec<&[u16]> = rows.iter().map(|r| &r[..]).collect();
            words16(&rows)
        }
        DeclType::Unused => Vec::new(),
    }
}

// ---------------------------------------------------------------------------------------------
// Declaration, binding, translation and the probe.
// ---------------------------------------------------------------------------------------------

fn element(stream: u16, offset: u16, ty: DeclType, usage: Usage, index: u8) -> RawElement {
    RawElement {
        stream,
        offset,
        ty: ty.raw(),
        method: 0,
        usage: usage as u8,
        usage_index: index,
    }
}

/// One bound stream: its `SetStreamSource` / `SetStreamSourceFreq` state and its bytes.
struct Stream {
    source: StreamSource,
    data: Vec<u8>,
}

fn per_vertex(stride: u32, data: Vec<u8>) -> Stream {
    Stream {
        source: StreamSource {
            stride,
            frequency: StreamFrequency::Vertex,
        },
        data,
    }
}

/// The vertex outputs of `shader` drawn with `decl` and `streams` (stream n = `streams[n]`),
/// under hardware vertex processing, keyed by output semantic.
fn run(
    gpu: &Gpu,
    shader: &str,
    decl: &VertexDeclaration,
    streams: &[Stream],
    vertex_count: u32,
    instance_count: u32,
) -> TestResult<Vec<VertexRead>> {
    let program = assemble(shader)?;
    let sources: Vec<StreamSource> = streams.iter().map(|s| s.source).collect();
    let binding = bind_program(decl, &program, &sources, VertexProcessing::Hardware)?;
    let checked = check(&program, Stage::Vertex, &DeviceCaps::default())?;
    let translated = translate_vertex_shader(
        &checked,
        &VertexShaderOptions {
            input_fetches: Some(binding.fetches()),
            ..Default::default()
        },
    )?;
    let buffers: Vec<VertexBuffer<'_>> = binding
        .streams
        .iter()
        .map(|layout| VertexBuffer::stream(layout, &streams[usize::from(layout.stream)].data))
        .collect();
    let wgsl = flat_outputs(&translated.wgsl()?)?;
    let outputs: Vec<OutputValues> = gpu.vertex_outputs(&VertexProbe {
        vertex_buffers: &buffers,
        instance_count,
        ..VertexProbe::new(ShaderStage::wgsl(&wgsl).entry(ENTRY_POINT), vertex_count)
    })?;
    let located: Vec<(Semantic, u32)> = translated
        .interface
        .outputs
        .iter()
        .filter_map(|o| o.location.map(|l| (o.semantic, l)))
        .collect();
    Ok(outputs
        .into_iter()
        .map(|values| {
            located
                .iter()
                .filter_map(|&(s, l)| values.get(&l).map(|v| (s, v.clone())))
                .collect()
        })
        .collect())
}

/// The translated WGSL with every located output of the entry point's result struct made
/// `@interpolate(flat)`, so the probe reads each vertex's own values: perspective interpolation
/// of a point on lavapipe computes `a0 + dadx·x + dady·y` and so turns −0 into +0, which is
/// the rasterizer's doing, not the fetch's.
fn flat_outputs(wgsl: &str) -> TestResult<String> {
    let start = wgsl
        .find("struct VertexOutput {")
        .ok_or("no VertexOutput struct in the WGSL")?;
    let end = start
        + wgsl[start..]
            .find('}')
            .ok_or("unterminated VertexOutput struct")?;
    Ok(format!(
        "{}{}{}",
        &wgsl[..start],
        wgsl[start..end].replace("@location(", "@interpolate(flat) @location("),
        &wgsl[end..]
    ))
}

fn texcoord(index: u8) -> Semantic {
    Semantic::new(Usage::TexCoord, index)
}

/// The value of output `semantic` of one vertex, as four components.
fn output(vertex: &[(Semantic, Vec<f32>)], semantic: Semantic) -> TestResult<[f32; 4]> {
    let values = vertex
        .iter()
        .find(|(s, _)| *s == semantic)
        .map(|(_, v)| v)
        .ok_or_else(|| format!("no output {semantic}"))?;
    let mut out = [0.0; 4];
    if values.len() != 4 {
        return Err(format!(
            "output {semantic} has {} components: {values:?}",
            values.len()
        )
        .into());
    }
    out.copy_from_slice(values);
    Ok(out)
}

/// An in-clip position for every vertex.
const POSITION: [f32; 4] = [0.25, -0.5, 0.5, 1.0];

const VS_3_0: &str = "vs_3_0
dcl_position v0
dcl_texcoord0 v1
dcl_position o0
dcl_texcoord0 o1
mov o0, v0
mov o1, v1
";

/// vs_1_1 with fixed outputs; the element lands on v3.
const VS_1_1: &str = "vs_1_1
dcl_position v0
dcl_texcoord0 v3
mov oPos, v0
mov oT0, v3
";

/// Compare what the shader read for each sample against the reference; one line per mismatch.
fn check_reads(
    ty: DeclType,
    variant: &str,
    samples: &[Vec<u8>],
    read: &[VertexRead],
) -> TestResult<Vec<String>> {
    let mut failures = Vec::new();
    if read.len() != samples.len() {
        return Err(format!(
            "{variant}: {} vertices read, {} drawn",
            read.len(),
            samples.len()
        )
        .into());
    }
    for (sample, vertex) in samples.iter().zip(read) {
        let (want, tolerance) = reference(ty, sample);
        let got = output(vertex, texcoord(0))?;
        if !(0..4).all(|c| matches(got[c], want[c], tolerance)) {
            failures.push(format!(
                "{ty} {variant}: bytes {sample:02X?}: got {got:?}, D3D9 defines {want:?} ({tolerance:?})"
            ));
        }
    }
    Ok(failures)
}

/// Draw every sample of `ty` through the vs_3_0 shader (one stream: POSITION FLOAT4 at 0, the
/// element at 16), the vs_1_1 shader (two streams: the element declared first, on stream 0 at
/// offset 0; POSITION FLOAT3 on stream 1, its w read as the padding 1) and the vs_3_0 shader
/// again with the element on an instance stream (`D3DSTREAMSOURCE_INSTANCEDATA | 1`), and
/// compare every component with [`reference`].
fn check_type(ty: DeclType) -> TestResult {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    let samples = samples(ty);
    let size = sdk_size(ty);
    assert!(!samples.is_empty() && samples.iter().all(|s| s.len() == size));
    let count = samples.len() as u32;

    // vs_3_0, one stream.
    let decl = VertexDeclaration::from_raw(&[
        element(0, 0, DeclType::Float4, Usage::Position, 0),
        element(0, 16, ty, Usage::TexCoord, 0),
    ])?;
    let stride = 16 + size;
    let mut data = Vec::new();
    for s in &samples {
        data.extend(POSITION.iter().flat_map(|v| v.to_le_bytes()));
        data.extend_from_slice(s);
    }
    let read = run(
        &gpu,
        VS_3_0,
        &decl,
        &[per_vertex(stride as u32, data)],
        count,
        1,
    )?;
    let mut failures = check_reads(ty, "vs_3_0", &samples, &read)?;
    for v in &read {
        let p = output(v, Semantic::new(Usage::Position, 0));
        assert!(p.is_err(), "position is a builtin, not a located output");
    }

    // vs_1_1, two streams, element declared before position.
    let decl = VertexDeclaration::from_raw(&[
        element(0, 0, ty, Usage::TexCoord, 0),
        element(1, 0, DeclType::Float3, Usage::Position, 0),
    ])?;
    let positions: Vec<u8> = (0..count)
        .flat_map(|_| POSITION[..3].iter().flat_map(|v| v.to_le_bytes()))
        .collect();
    let read = run(
        &gpu,
        VS_1_1,
        &decl,
        &[
            per_vertex(size as u32, samples.concat()),
            per_vertex(12, positions),
        ],
        count,
        1,
    )?;
    failures.extend(check_reads(ty, "vs_1_1", &samples, &read)?);

    // vs_3_0, the element on an instance stream: one vertex per instance, one sample each.
    let decl = VertexDeclaration::from_raw(&[
        element(0, 0, DeclType::Float4, Usage::Position, 0),
        element(1, 0, ty, Usage::TexCoord, 0),
    ])?;
    let streams = [
        Stream {
            source: StreamSource {
                stride: 16,
                frequency: StreamFrequency::IndexedData(count),
            },
            data: POSITION.iter().flat_map(|v| v.to_le_bytes()).collect(),
        },
        Stream {
            source: StreamSource {
                stride: size as u32,
                frequency: StreamFrequency::InstanceData(1),
            },
            data: samples.concat(),
        },
    ];
    let read = run(&gpu, VS_3_0, &decl, &streams, 1, count)?;
    failures.extend(check_reads(ty, "vs_3_0 per instance", &samples, &read)?);
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
    Ok(())
}

macro_rules! type_tests {
    ($($name:ident => $ty:ident,)*) => {$(
        #[test]
        fn $name() -> TestResult {
            check_type(DeclType::$ty)
        }
    )*};
}

type_tests! {
    gpu_float1 => Float1,
    gpu_float2 => Float2,
    gpu_float3 => Float3,
    gpu_float4 => Float4,
    gpu_d3dcolor => D3DColor,
    gpu_ubyte4 => UByte4,
    gpu_short2 => Short2,
    gpu_short4 => Short4,
    gpu_ubyte4n => UByte4N,
    gpu_short2n => Short2N,
    gpu_short4n => Short4N,
    gpu_ushort2n => UShort2N,
    gpu_ushort4n => UShort4N,
    gpu_udec3 => UDec3,
    gpu_dec3n => Dec3N,
    gpu_float16_2 => Float16x2,
    gpu_float16_4 => Float16x4,
}

#[test]
fn every_decl_type_has_a_gpu_test_and_samples() {
    // The macro above lists 17 tests; this keeps the sample table in step with D3DDECLTYPE.
    assert_eq!(DeclType::ALL.len(), 17);
    for ty in DeclType::ALL {
        let s = samples(ty);
        assert!(s.len() >= 4, "{ty}: {} samples", s.len());
        assert!(s.iter().all(|b| b.len() == sdk_size(ty)), "{ty}");
    }
}

#[test]
fn reference_matches_the_sdk_examples() {
    // The examples of the D3DDECLTYPE definitions, checked on the CPU model itself.
    let udec3 = reference(DeclType::UDec3, &dec3(1023, 0, 0, 0).to_le_bytes()).0;
    assert_eq!(udec3, [1023.0, 0.0, 0.0, 1.0]);
    let dec3n = reference(DeclType::Dec3N, &dec3(0x1FF, 0x201, 0x200, 0).to_le_bytes()).0;
    assert_eq!(dec3n, [1.0, -1.0, -1.0, 1.0]);
    let short2n = reference(DeclType::Short2N, &shorts(&[&[-32768, -32767]])[0]).0;
    assert_eq!(short2n, [-1.0, -1.0, 0.0, 1.0]);
    let color = reference(DeclType::D3DColor, &0xFF00_8000u32.to_le_bytes()).0;
    assert_eq!(color, [0.0, 128.0 / 255.0, 0.0, 1.0]);
    let ubyte4 = reference(DeclType::UByte4, &[1, 2, 255, 0]).0;
    assert_eq!(ubyte4, [1.0, 2.0, 255.0, 0.0]);
    assert_eq!(half_to_f32(0x7BFF), 65504.0);
    assert_eq!(half_to_f32(0x3555), 0.333_251_95);
    assert_eq!(half_to_f32(0x8000).to_bits(), (-0.0f32).to_bits());
    assert_eq!(
        reference(DeclType::Float1, &2.5f32.to_le_bytes()).0,
        [2.5, 0.0, 0.0, 1.0]
    );
}

// ---------------------------------------------------------------------------------------------
// Matching, missing components, missing elements, streams and instancing.
// ---------------------------------------------------------------------------------------------

/// Every type with fewer than four components reads the missing ones as (…, 0, 0, 1),
/// whatever the type's kind (float, integer, normalized, packed, half).
#[test]
fn gpu_missing_components_read_0_0_1() -> TestResult {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    let short = |a: i16, b: i16| [a.to_le_bytes(), b.to_le_bytes()].concat();
    let parts: [(DeclType, Vec<u8>, [f32; 4]); 9] = [
        (
            DeclType::Float1,
            7.0f32.to_le_bytes().to_vec(),
            [7.0, 0.0, 0.0, 1.0],
        ),
        (
            DeclType::Float2,
            [(-2.0f32).to_le_bytes(), 3.0f32.to_le_bytes()].concat(),
            [-2.0, 3.0, 0.0, 1.0],
        ),
        (
            DeclType::Float3,
            [4.0f32, 5.0, 6.0]
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect(),
            [4.0, 5.0, 6.0, 1.0],
        ),
        (DeclType::Short2, short(-3, 9), [-3.0, 9.0, 0.0, 1.0]),
        (DeclType::Short2N, short(32767, 0), [1.0, 0.0, 0.0, 1.0]),
        (
            DeclType::UShort2N,
            [0u8, 0, 0xFF, 0xFF].to_vec(),
            [0.0, 1.0, 0.0, 1.0],
        ),
        (
            DeclType::UDec3,
            dec3(1, 2, 3, 0).to_le_bytes().to_vec(),
            [1.0, 2.0, 3.0, 1.0],
        ),
        (
            DeclType::Dec3N,
            dec3(0x1FF, 0, 0x201, 0).to_le_bytes().to_vec(),
            [1.0, 0.0, -1.0, 1.0],
        ),
        (
            DeclType::Float16x2,
            [0x00, 0x3C, 0x00, 0xC0].to_vec(),
            [1.0, -2.0, 0.0, 1.0],
        ),
    ];
    let mut raw = vec![element(0, 0, DeclType::Float4, Usage::Position, 0)];
    let mut data: Vec<u8> = POSITION.iter().flat_map(|v| v.to_le_bytes()).collect();
    let mut dcls = String::from("dcl_position v0\ndcl_position o0\n");
    let mut movs = String::from("mov o0, v0\n");
    for (i, (ty, bytes, _)) in parts.iter().enumerate() {
        raw.push(element(0, data.len() as u16, *ty, Usage::TexCoord, i as u8));
        data.extend_from_slice(bytes);
        let r = i + 1;
        dcls += &format!("dcl_texcoord{i} v{r}\ndcl_texcoord{i} o{r}\n");
        movs += &format!("mov o{r}, v{r}\n");
    }
    let shader = format!("vs_3_0\n{dcls}{movs}");
    let decl = VertexDeclaration::from_raw(&raw)?;
    let stride = data.len() as u32;
    let read = run(&gpu, &shader, &decl, &[per_vertex(stride, data)], 1, 1)?;
    for (i, (ty, _, want)) in parts.iter().enumerate() {
        let got = output(&read[0], texcoord(i as u8))?;
        assert_eq!(got, *want, "{ty}");
    }
    Ok(())
}

/// Elements are matched by (usage, usage index), not by position in the declaration or by
/// register number; elements no input names are ignored.
#[test]
fn gpu_elements_match_by_usage_and_index_not_order() -> TestResult {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    // Declaration order: TEXCOORD2, NORMAL (unused by the shader), TEXCOORD0, POSITION, TEXCOORD1.
    let decl = VertexDeclaration::from_raw(&[
        element(0, 0, DeclType::Float2, Usage::TexCoord, 2),
        element(0, 8, DeclType::Float3, Usage::Normal, 0),
        element(0, 20, DeclType::Short2, Usage::TexCoord, 0),
        element(0, 24, DeclType::Float4, Usage::Position, 0),
        element(0, 40, DeclType::UByte4, Usage::TexCoord, 1),
    ])?;
    let mut data = Vec::new();
    data.extend([20.0f32, 21.0].iter().flat_map(|v| v.to_le_bytes()));
    data.extend([-9.0f32, -9.0, -9.0].iter().flat_map(|v| v.to_le_bytes()));
    data.extend([100i16, -100].iter().flat_map(|v| v.to_le_bytes()));
    data.extend(POSITION.iter().flat_map(|v| v.to_le_bytes()));
    data.extend([11u8, 12, 13, 14]);
    // Shader order and registers differ from the declaration's; outputs are shuffled too.
    let shader = "vs_3_0
dcl_texcoord1 v7
dcl_position v2
dcl_texcoord2 v0
dcl_texcoord0 v5
dcl_texcoord0 o3
dcl_position o1
dcl_texcoord1 o0
dcl_texcoord2 o2
mov o1, v2
mov o3, v5
mov o0, v7
mov o2, v0
";
    let stride = data.len() as u32;
    let read = run(&gpu, shader, &decl, &[per_vertex(stride, data)], 1, 1)?;
    assert_eq!(output(&read[0], texcoord(0))?, [100.0, -100.0, 0.0, 1.0]);
    assert_eq!(output(&read[0], texcoord(1))?, [11.0, 12.0, 13.0, 14.0]);
    assert_eq!(output(&read[0], texcoord(2))?, [20.0, 21.0, 0.0, 1.0]);
    Ok(())
}

const MISSING_INPUT_VS_3_0: &str = "vs_3_0
dcl_position v0
dcl_texcoord0 v1
dcl_normal v2
dcl_position o0
dcl_texcoord0 o1
dcl_texcoord1 o2
mov o0, v0
mov o1, v1
mov o2, v2
";

const MISSING_INPUT_VS_1_1: &str = "vs_1_1
dcl_position v0
dcl_texcoord0 v1
dcl_normal v2
mov oPos, v0
mov oT0, v1
mov oT1, v2
";

/// A shader input with no element reads (0, 0, 0, 0) under hardware vertex processing — not the
/// (0, 0, 0, 1) of missing components.
#[test]
fn gpu_input_without_element_reads_zero() -> TestResult {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    let decl = VertexDeclaration::from_raw(&[
        element(0, 0, DeclType::Float4, Usage::Position, 0),
        element(0, 16, DeclType::Float1, Usage::TexCoord, 0),
    ])?;
    let mut data: Vec<u8> = POSITION.iter().flat_map(|v| v.to_le_bytes()).collect();
    data.extend(5.0f32.to_le_bytes());
    for shader in [MISSING_INPUT_VS_3_0, MISSING_INPUT_VS_1_1] {
        let read = run(&gpu, shader, &decl, &[per_vertex(20, data.clone())], 1, 1)?;
        assert_eq!(
            output(&read[0], texcoord(0))?,
            [5.0, 0.0, 0.0, 1.0],
            "{shader}"
        );
        let missing = output(&read[0], texcoord(1))?;
        assert_eq!(missing.map(f32::to_bits), [0; 4], "{shader}: {missing:?}");
    }
    Ok(())
}

/// Under software vertex processing the same draw fails: every declared input needs an element.
#[test]
fn input_without_element_fails_under_software_processing() -> TestResult {
    let decl = VertexDeclaration::from_raw(&[
        element(0, 0, DeclType::Float4, Usage::Position, 0),
        element(0, 16, DeclType::Float1, Usage::TexCoord, 0),
    ])?;
    let program = assemble(MISSING_INPUT_VS_3_0)?;
    let streams = [StreamSource {
        stride: 20,
        frequency: StreamFrequency::Vertex,
    }];
    let result = bind_program(&decl, &program, &streams, VertexProcessing::Software);
    assert_eq!(
        result,
        Err(BindError::MissingInput {
            register: 2,
            semantic: Semantic::new(Usage::Normal, 0),
        })
    );
    assert!(bind_program(&decl, &program, &streams, VertexProcessing::Hardware).is_ok());
    Ok(())
}

/// Two streams with different strides, one element each plus one sharing stream 0.
#[test]
fn gpu_two_streams_feed_their_elements() -> TestResult {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    let decl = VertexDeclaration::from_raw(&[
        element(0, 0, DeclType::Float4, Usage::Position, 0),
        element(1, 4, DeclType::Short4, Usage::TexCoord, 0),
        element(0, 16, DeclType::D3DColor, Usage::TexCoord, 1),
    ])?;
    let shader = "vs_3_0
dcl_position v0
dcl_texcoord0 v1
dcl_texcoord1 v2
dcl_position o0
dcl_texcoord0 o1
dcl_texcoord1 o2
mov o0, v0
mov o1, v1
mov o2, v2
";
    // Stream 0: position + colour, stride 20. Stream 1: 4 bytes of padding + SHORT4, stride 16
    // (4 more bytes unused after the element).
    let colours = [0xFF00_00FFu32, 0x00FF_0000];
    let shorts4 = [[1i16, -2, 3, -4], [i16::MIN, i16::MAX, 0, 7]];
    let mut s0 = Vec::new();
    let mut s1 = Vec::new();
    for v in 0..2 {
        s0.extend(POSITION.iter().flat_map(|p| p.to_le_bytes()));
        s0.extend(colours[v].to_le_bytes());
        s1.extend([0xEEu8; 4]);
        s1.extend(shorts4[v].iter().flat_map(|s| s.to_le_bytes()));
        s1.extend([0xEEu8; 4]);
    }
    let read = run(
        &gpu,
        shader,
        &decl,
        &[per_vertex(20, s0), per_vertex(16, s1)],
        2,
        1,
    )?;
    assert_eq!(output(&read[0], texcoord(0))?, [1.0, -2.0, 3.0, -4.0]);
    assert_eq!(
        output(&read[1], texcoord(0))?,
        [-32768.0, 32767.0, 0.0, 7.0]
    );
    assert_eq!(output(&read[0], texcoord(1))?, [0.0, 0.0, 1.0, 1.0]);
    assert_eq!(output(&read[1], texcoord(1))?, [1.0, 0.0, 0.0, 0.0]);
    Ok(())
}

/// Stream 1 at `D3DSTREAMSOURCE_INSTANCEDATA | 1`: each instance reads its own values while
/// the geometry stream (`D3DSTREAMSOURCE_INDEXEDDATA | 2`) advances per vertex.
#[test]
fn gpu_instance_stream_gives_per_instance_values() -> TestResult {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    let decl = VertexDeclaration::from_raw(&[
        element(0, 0, DeclType::Float4, Usage::Position, 0),
        element(0, 16, DeclType::Float1, Usage::TexCoord, 1),
        element(1, 0, DeclType::Short2N, Usage::TexCoord, 0),
        element(1, 4, DeclType::UDec3, Usage::TexCoord, 2),
    ])?;
    let shader = "vs_3_0
dcl_position v0
dcl_texcoord0 v1
dcl_texcoord1 v2
dcl_texcoord2 v3
dcl_position o0
dcl_texcoord0 o1
dcl_texcoord1 o2
dcl_texcoord2 o3
mov o0, v0
mov o1, v1
mov o2, v2
mov o3, v3
";
    let mut geometry = Vec::new();
    for v in 0..3 {
        geometry.extend(POSITION.iter().flat_map(|p| p.to_le_bytes()));
        geometry.extend((v as f32 * 10.0).to_le_bytes());
    }
    let per_instance = [
        ([32767i16, 0], dec3(7, 8, 9, 0)),
        ([-32768, 16384], dec3(1023, 0, 5, 3)),
    ];
    let mut instances = Vec::new();
    for (s, d) in per_instance {
        instances.extend(s.iter().flat_map(|v| v.to_le_bytes()));
        instances.extend(d.to_le_bytes());
    }
    let streams = [
        Stream {
            source: StreamSource {
                stride: 20,
                frequency: StreamFrequency::from_raw((1 << 30) | 2),
            },
            data: geometry,
        },
        Stream {
            source: StreamSource {
                stride: 8,
                frequency: StreamFrequency::from_raw((2 << 30) | 1),
            },
            data: instances,
        },
    ];
    let read = run(&gpu, shader, &decl, &streams, 3, 2)?;
    assert_eq!(read.len(), 6);
    let short2n = [
        [1.0, 0.0, 0.0, 1.0],
        [-1.0, (16384.0f64 / 32767.0) as f32, 0.0, 1.0],
    ];
    let udec3 = [[7.0, 8.0, 9.0, 1.0], [1023.0, 0.0, 5.0, 1.0]];
    for instance in 0..2 {
        for v in 0..3 {
            let vertex = &read[instance * 3 + v];
            let at = format!("instance {instance} vertex {v}");
            let got = output(vertex, texcoord(0))?;
            let want = short2n[instance];
            assert!(
                (0..4).all(|c| matches(got[c], want[c], Tolerance::Normalized)),
                "{at}: {got:?} vs {want:?}"
            );
            assert_eq!(output(vertex, texcoord(2))?, udec3[instance], "{at}");
            assert_eq!(
                output(vertex, texcoord(1))?,
                [v as f32 * 10.0, 0.0, 0.0, 1.0],
                "{at}"
            );
        }
    }
    Ok(())
}
