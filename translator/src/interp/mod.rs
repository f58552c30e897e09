//! The reference interpreter: vertex shaders (vs_1_1 … vs_3_0, vs_2_sw, vs_3_sw) run on the
//! CPU with exactly the semantics the lifter gives them on the GPU, as D3D9's software vertex
//! processing and `ProcessVertices` run them.
//!
//! The rules both executions need (rcp/rsq/log at zero, the legacy multiply, a0 rounding,
//! loop bounds, `_sat`, output defaults) are read from [`crate::rules`] and
//! [`crate::signature`], the same definitions the lifter emits. Register files and their sizes
//! come from the register-file table (`bytecode::file_rule`) for the device the program was
//! checked for, so software vertex processing has its 8192 float constants (CONST2–CONST4
//! included), 2048 `i#` and `b#`.
//!
//! - [`Interpreter`] runs one vertex from its input registers (`v#` values);
//!   [`Interpreter::run_observed`] also hands each executed instruction's reads and writes to
//!   an observer ([`Step`]), which the differential test uses to bound each value's error.
//! - [`process_vertices`] fetches each vertex from raw stream bytes through a vertex
//!   declaration (every `D3DDECLTYPE` decoded on the CPU, [`fetch`]) and runs it, as
//!   `IDirect3DDevice9::ProcessVertices` does.
//! - `texldl` samples the textures and sampler states of the four vertex sampler stages
//!   ([`VertexTextures`], [`texture`]) as the GPU path samples them.
//!
//! Where the lifter returns `Unsupported` (predicated flow control) the interpreter does too.
//! Every program that passes
//! `check` runs without panicking and ends: loops are bounded as on the GPU, and a budget of
//! executed instructions ([`INSTRUCTION_BUDGET`]) turns anything longer into an error.

mod arith;
mod exec;
pub mod fetch;
mod machine;
mod operands;
pub mod texture;
mod writes;

pub use exec::Interpreter;
pub use machine::{ConstantFile, Read, Step, Written};
pub use texture::{
    Address, BoundTexture, Filter, MipFilter, SamplerStates, Texture, TextureError, TextureKind,
    VertexTextures,
};

use crate::bytecode::{Opcode, Register, TokenOffset, Version, WriteMask};
use crate::check::CheckedProgram;
use crate::decl::{bind_program, BindError, StreamSource, VertexDeclaration};
use crate::rules::FloatMode;
use crate::signature::Semantic;

/// The most instructions one vertex may execute (255⁴ iterations of a nested loop would take
/// minutes): past it the run is an error, never a hang.
pub const INSTRUCTION_BUDGET: u64 = 50_000_000;

/// An interpreter bug: a checked program broke an assumption the interpreter makes.
fn internal(what: impl Into<String>) -> InterpError {
    InterpError::Internal(what.into())
}

/// Why a vertex did not run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum InterpError {
    #[error("{version} is not a vertex shader")]
    NotVertexShader { version: Version },
    /// Legal D3D9 the interpreter does not run.
    #[error("instruction {index} ({opcode}) at token {offset}: unsupported: {what}")]
    Unsupported {
        index: usize,
        opcode: Opcode,
        offset: TokenOffset,
        what: &'static str,
    },
    #[error("the shader executed more than {limit} instructions")]
    Budget { limit: u64 },
    /// The declaration does not pair with the shader and streams (as a draw would fail).
    #[error(transparent)]
    Bind(#[from] BindError),
    /// A vertex element lies past the end of its stream's data.
    #[error("vertex {vertex}: element {element} reads bytes {start}..{end} of stream {stream}, which holds {len}")]
    OutOfRange {
        vertex: u32,
        element: usize,
        stream: u16,
        start: u64,
        end: u64,
        len: usize,
    },
    /// A broken assumption about a checked program (an interpreter bug).
    #[error("internal error (interpreter bug): {0}")]
    Internal(String),
}

/// The application's constants (`SetVertexShaderConstantF/I/B`). Registers past the end of a
/// vector read 0 / false; `def`, `defi` and `defb` values replace them as on the GPU.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Constants {
    /// `c#` by flat index (c2048 and later are CONST2–CONST4).
    pub floats: Vec<[f32; 4]>,
    pub ints: Vec<[i32; 4]>,
    pub bools: Vec<bool>,
}

/// One output of a vertex: the register holding a semantic after the shader ran.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OutputValue {
    pub semantic: Semantic,
    /// `o#` (vs_3_0) or the fixed register (oPos, oFog, oPts, oD#, oT#).
    pub register: Register,
    /// The components the semantic occupies (declared mask in vs_3_0, written mask before).
    pub mask: WriteMask,
    /// The whole register. Colours before vs_3_0 are clamped to [0, 1], as the lifter does.
    pub value: [f32; 4],
}

/// The outputs of one vertex, in signature order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OutputVertex {
    pub outputs: Vec<OutputValue>,
}

impl OutputVertex {
    /// The register value of `semantic`, if the shader has that output.
    pub fn get(&self, semantic: Semantic) -> Option<[f32; 4]> {
        self.outputs
            .iter()
            .find(|o| o.semantic == semantic)
            .map(|o| o.value)
    }
}

/// One bound stream: its bytes, the byte offset of vertex 0 and the stride
/// (`SetStreamSource(stream, buffer, offset, stride)`).
#[derive(Debug, Clone, Copy)]
pub struct Stream<'a> {
    pub data: &'a [u8],
    pub offset: u32,
    pub stride: u32,
}

/// `ProcessVertices`: vertices `first .. first + count` fetched from `streams` (`streams[n]` is
/// stream n) through `decl` and run through `shader`, with no texture on any vertex sampler
/// stage (`texldl` reads (0, 0, 0, 1)). The pairing follows the draw-time rules
/// (`decl::bind_program`) of the device the shader was checked for: in software vertex
/// processing an input without an element is an error, in hardware it reads (0, 0, 0, 0).
pub fn process_vertices(
    shader: &CheckedProgram,
    decl: &VertexDeclaration,
    streams: &[Stream<'_>],
    constants: &Constants,
    first: u32,
    count: u32,
    mode: FloatMode,
) -> Result<Vec<OutputVertex>, InterpError> {
    process_vertices_textured(
        shader,
        decl,
        streams,
        constants,
        &VertexTextures::none(),
        first..first.saturating_add(count),
        mode,
    )
}

/// [`process_vertices`] of the vertices in `vertices`, `texldl` sampling `textures` (the
/// vertex sampler stages' textures and sampler states).
pub fn process_vertices_textured(
    shader: &CheckedProgram,
    decl: &VertexDeclaration,
    streams: &[Stream<'_>],
    constants: &Constants,
    textures: &VertexTextures<'_>,
    vertices: std::ops::Range<u32>,
    mode: FloatMode,
) -> Result<Vec<OutputVertex>, InterpError> {
    let interpreter = Interpreter::new(shader, mode)?;
    let sources: Vec<StreamSource> = streams
        .iter()
        .map(|s| StreamSource {
            stride: s.stride,
            ..Default::default()
        })
        .collect();
    let binding = bind_program(
        decl,
        shader.program(),
        &sources,
        shader.caps().vertex_processing,
    )?;
    let elements = decl.elements();
    let count = vertices.end.saturating_sub(vertices.start);
    let mut out = Vec::with_capacity(usize::try_from(count).unwrap_or(0).min(1 << 16));
    let file = interpreter.constant_file(constants);
    let mut inputs = [[0.0f32; 4]; crate::bytecode::VERTEX_INPUTS as usize];
    for vertex in vertices {
        inputs.fill([0.0; 4]);
        for bound in &binding.inputs {
            let Some(index) = bound.element else {
                continue;
            };
            let Some(element) = elements.get(index) else {
                return Err(InterpError::Internal(format!("element {index} missing")));
            };
            let Some(stream) = streams.get(usize::from(element.stream)) else {
                return Err(InterpError::Bind(BindError::StreamNotSet {
                    stream: element.stream,
                    element: index,
                }));
            };
            let start = u64::from(stream.offset)
                + u64::from(stream.stride) * u64::from(vertex)
                + u64::from(element.offset);
            let end = start + u64::from(element.ty.size());
            let bytes = usize::try_from(start)
                .ok()
                .zip(usize::try_from(end).ok())
                .and_then(|(s, e)| stream.data.get(s..e))
                .ok_or(InterpError::OutOfRange {
                    vertex,
                    element: index,
                    stream: element.stream,
                    start,
                    end,
                    len: stream.data.len(),
                })?;
            let value = fetch::decode(element.ty, bytes)
                .ok_or_else(|| InterpError::Internal(format!("element {index} has no type")))?;
            if let Some(slot) = inputs.get_mut(bound.fetch.register as usize) {
                *slot = value;
            }
        }
        out.push(interpreter.run_with_textures(&inputs, &file, textures)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asm::assemble;
    use crate::bytecode::{Stage, Usage};
    use crate::check::{check, DeviceCaps};

    fn checked(text: &str, caps: &DeviceCaps) -> CheckedProgram {
        let program = assemble(text).expect("assembles");
        check(&program, Stage::Vertex, caps).expect("checks")
    }

    fn run(
        text: &str,
        inputs: &[[f32; 4]],
        constants: &Constants,
        mode: FloatMode,
    ) -> OutputVertex {
        let c = checked(text, &DeviceCaps::default());
        Interpreter::new(&c, mode)
            .expect("prepares")
            .run(inputs, constants)
            .expect("runs")
    }

    const TC0: Semantic = Semantic::new(Usage::TexCoord, 0);

    #[test]
    fn arithmetic_modifiers_masks_and_rules() {
        let text = "vs_2_0
            dcl_position v0
            def c1, 0, 2, -3, 0.5
            def c2, 0, 0, 0, 1.5
            mov oPos, v0
            mov r0, c1
            rcp r0.x, c1.x
            mad r0.y, -c1.y, c1.z, c1.w
            slt r0.z, c1.z, c1.w
            mov oT0, r0
            log oT1.x, c1.x
            mova a0.x, c1.w
            mov oT1.y, c[a0.x + 1].y
            mova a0.y, c2.w
            mov oT1.zw, c[a0.y + 255]
        ";
        let out = run(
            text,
            &[[1.0, 2.0, 3.0, 1.0]],
            &Constants::default(),
            FloatMode::Legacy,
        );
        assert_eq!(
            out.get(Semantic::new(Usage::Position, 0)),
            Some([1.0, 2.0, 3.0, 1.0])
        );
        assert_eq!(out.get(TC0), Some([f32::MAX, 6.5, 1.0, 0.5]));
        // log(0) = -FLT_MAX; mova rounds 0.5 to even, 0 (away from zero would read c2.y = 0):
        // c1.y = 2; 1.5 to 2, and c[2 + 255] is past the 256 registers and reads 0.
        assert_eq!(
            out.get(Semantic::new(Usage::TexCoord, 1)),
            Some([-f32::MAX, 2.0, 0.0, 0.0])
        );
    }

    /// `c[a0.y + 1]` adds the address register's y, not its x (vs_2_0 addresses with any
    /// component of `a0`).
    #[test]
    fn relative_addresses_read_the_component_named() {
        let text = "vs_2_0
            dcl_position v0
            def c0, 0, 1, 2, 3
            def c1, 10, 0, 0, 0
            def c2, 20, 0, 0, 0
            def c3, 30, 0, 0, 0
            def c4, 40, 0, 0, 0
            mov oPos, v0
            mova a0, c0
            mov oT0.x, c[a0.x + 1].x
            mov oT0.y, c[a0.y + 1].x
            mov oT0.z, c[a0.z + 1].x
            mov oT0.w, c[a0.w + 1].x
        ";
        let out = run(text, &[[0.0; 4]], &Constants::default(), FloatMode::Legacy);
        assert_eq!(out.get(TC0), Some([10.0, 20.0, 30.0, 40.0]));
    }

    #[test]
    fn legacy_multiply_by_mode() {
        let text = "vs_2_0
            dcl_position v0
            mov oPos, v0
            mul oT0, v0, c0
        ";
        let c = Constants {
            floats: vec![[f32::INFINITY, f32::NAN, 1.0, 0.0]],
            ..Constants::default()
        };
        let input = [[0.0, 0.0, 2.0, f32::INFINITY]];
        let strict = run(text, &input, &c, FloatMode::LegacyStrict)
            .get(TC0)
            .expect("tc0");
        assert_eq!(strict, [0.0, 0.0, 2.0, 0.0]);
        let plain = run(text, &input, &c, FloatMode::Legacy)
            .get(TC0)
            .expect("tc0");
        assert!(plain[0].is_nan() && plain[1].is_nan() && plain[3].is_nan());
    }

    #[test]
    fn loops_calls_predication_and_al() {
        let text = "vs_3_0
            dcl_position v0
            dcl_position o0
            dcl_texcoord0 o1
            defi i0, 3, 10, 5, 0
            defi i1, 300, 0, 0, 0
            def c0, 0, 1, 0, 0
            mov o0, v0
            mov r0, c0.x
            loop aL, i0
                add r0.x, r0.x, c[aL].x
                call l0
            endloop
            rep i1
                add r0.z, r0.z, c0.y
            endrep
            setp_gt p0.xy, r0.z, c0.y
            (p0.x) mov r0.w, c0.y
            (!p0.y) mov r0.w, c0.x
            mov o1, r0
            ret
            label l0
            add r0.y, r0.y, c0.y
            ret
        ";
        let mut floats = vec![[0.0; 4]; 30];
        floats[10] = [1.0, 0.0, 0.0, 0.0];
        floats[15] = [2.0, 0.0, 0.0, 0.0];
        floats[20] = [4.0, 0.0, 0.0, 0.0];
        let c = Constants {
            floats,
            ..Constants::default()
        };
        let out = run(text, &[[0.0; 4]], &c, FloatMode::Legacy);
        // aL = 10, 15, 20; the call runs 3 times; rep is clamped to 255 iterations.
        assert_eq!(out.get(TC0), Some([7.0, 3.0, 255.0, 1.0]));
    }

    #[test]
    fn pre_3_0_outputs_defaults_and_colour_clamp() {
        let text = "vs_1_1
            dcl_position v0
            mov oPos, v0
            mov oD0, c0
            mov oT0.xy, v0
        ";
        let c = Constants {
            floats: vec![[2.0, -1.0, 0.5, 1.0]],
            ..Constants::default()
        };
        let out = run(text, &[[0.25, 0.5, 0.0, 1.0]], &c, FloatMode::Legacy);
        assert_eq!(
            out.get(Semantic::new(Usage::Color, 0)),
            Some([1.0, 0.0, 0.5, 1.0])
        );
        let tc = out.get(TC0).expect("tc0");
        assert_eq!(&tc[..2], &[0.25, 0.5]);
        assert_eq!(&tc[2..], &TC0.unwritten_value()[2..]);
    }

    #[test]
    fn software_constants_past_c2047() {
        let text = "vs_3_sw
            dcl_position v0
            dcl_position o0
            dcl_texcoord0 o1
            mov o0, v0
            mova a0.x, v0.x
            mov o1, c[a0.x + 1900]
        ";
        let c = checked(text, &DeviceCaps::software());
        let mut floats = vec![[0.0; 4]; 8192];
        floats[4003] = [9.0, 8.0, 7.0, 6.0];
        let constants = Constants {
            floats,
            ..Constants::default()
        };
        let out = Interpreter::new(&c, FloatMode::Legacy)
            .expect("prepares")
            .run(&[[2103.0, 0.0, 0.0, 1.0]], &constants)
            .expect("runs");
        assert_eq!(out.get(TC0), Some([9.0, 8.0, 7.0, 6.0]));
    }

    /// The software profiles' loops ("Software Shaders": 32-bit signed start and step,
    /// counts up to MAX_INT/64): `rep` of 1000 runs 1000 times in vs_3_sw and 255 times in
    /// vs_3_0; a `loop` from 5000 by 1000 reads c5000 and c6000 of the 8192 constants. As
    /// `ProcessVertices` runs them.
    #[test]
    fn software_profiles_loop_past_255_from_any_start() {
        let body = "dcl_position v0
            dcl_position o0
            dcl_texcoord0 o1
            defi i0, 1000, 0, 0, 0
            defi i1, 2, 5000, 1000, 0
            mov o0, v0
            mov r0, c0
            rep i0
                add r0.x, r0.x, c1.x
            endrep
            loop aL, i1
                add r0.y, r0.y, c[aL + 0].y
            endloop
            mov o1, r0
        ";
        let mut floats = vec![[0.0; 4]; 8192];
        floats[1] = [1.0, 0.0, 0.0, 0.0];
        floats[5000] = [0.0, 3.0, 0.0, 0.0];
        floats[6000] = [0.0, 4.0, 0.0, 0.0];
        let constants = Constants {
            floats,
            ..Constants::default()
        };
        let inputs = [[0.0, 0.0, 0.5, 1.0]];
        let sw = checked(&format!("vs_3_sw\n{body}"), &DeviceCaps::software());
        let out = Interpreter::new(&sw, FloatMode::Legacy)
            .expect("prepares")
            .run(&inputs, &constants)
            .expect("runs");
        assert_eq!(out.get(TC0), Some([1000.0, 7.0, 0.0, 0.0]));
        let hw = checked(&format!("vs_3_0\n{body}"), &DeviceCaps::software());
        let out = Interpreter::new(&hw, FloatMode::Legacy)
            .expect("prepares")
            .run(&inputs, &constants)
            .expect("runs");
        // vs_3_0: 255 iterations; the loop still starts at 5000 (i#.y is not clamped).
        assert_eq!(out.get(TC0), Some([255.0, 7.0, 0.0, 0.0]));
    }

    /// `texldl` from the vertex sampler stages: a bound 2D texture through the coordinate's
    /// swizzle, the sampler's swizzle and a write mask; an empty stage reads (0, 0, 0, 1); a
    /// cube declaration over a 2D texture reads (0, 0, 0, 0).
    #[test]
    fn texldl_samples_the_vertex_sampler_stages() {
        let text = "vs_3_0
            dcl_position o0
            dcl_texcoord0 o1
            dcl_texcoord1 o2
            dcl_texcoord2 o3
            dcl_2d s0
            dcl_2d s1
            dcl_cube s3
            def c0, 0.125, 0.375, 0, 0
            def c1, -7, -8, -9, -10
            mov o0, c0
            mov r0, c1
            texldl r0.xz, c0.yxzw, s0.wzyx
            mov o1, r0
            texldl o2, c0, s1
            texldl o3, c0, s3
        ";
        // 2x2, texel (x, y) = (x, y, 0.5, 10 + x + 2y).
        let mut texels = Vec::new();
        for y in 0..2 {
            for x in 0..2 {
                texels.push([x as f32, y as f32, 0.5, (10 + x + 2 * y) as f32]);
            }
        }
        let texture = Texture::new(TextureKind::TwoD, [2, 2, 1], vec![texels]).expect("texture");
        let textures = VertexTextures::none()
            .with(0, &texture, SamplerStates::default())
            .with(3, &texture, SamplerStates::default());
        let c = checked(text, &DeviceCaps::default());
        let out = Interpreter::new(&c, FloatMode::Legacy)
            .expect("prepares")
            .run_textured(&[], &Constants::default(), &textures)
            .expect("runs");
        // (u, v) = (0.375, 0.125): texel (0, 0) of 2x2 is at u < 0.5: texel (0, 0) → w = 10.
        // r0.x = texel.w, r0.z = texel.y.
        assert_eq!(out.get(TC0), Some([10.0, -8.0, 0.0, -10.0]));
        assert_eq!(
            out.get(Semantic::new(Usage::TexCoord, 1)),
            Some([0.0, 0.0, 0.0, 1.0])
        );
        assert_eq!(
            out.get(Semantic::new(Usage::TexCoord, 2)),
            Some([0.0, 0.0, 0.0, 0.0])
        );
        // With s0 at (0.625, 0.125) instead: texel (1, 0), w = 11, y = 0.
        let text = text.replace("def c0, 0.125, 0.375, 0, 0", "def c0, 0.125, 0.625, 0, 0");
        let c = checked(&text, &DeviceCaps::default());
        let out = Interpreter::new(&c, FloatMode::Legacy)
            .expect("prepares")
            .run_textured(&[], &Constants::default(), &textures)
            .expect("runs");
        assert_eq!(out.get(TC0), Some([11.0, -8.0, 0.0, -10.0]));
    }

    /// `process_vertices_textured` passes the stages' textures to every vertex.
    #[test]
    fn process_vertices_textured_samples_per_vertex() {
        use crate::decl::{DeclMethod, DeclType, VertexElement};
        let text = "vs_3_0
            dcl_texcoord0 v0
            dcl_position o0
            dcl_texcoord0 o1
            dcl_volume s2
            mov o0, v0
            texldl o1, v0, s2
        ";
        let c = checked(text, &DeviceCaps::default());
        let decl = VertexDeclaration::from_elements(&[VertexElement {
            stream: 0,
            offset: 0,
            ty: DeclType::Float4,
            method: DeclMethod::Default,
            usage: Usage::TexCoord,
            usage_index: 0,
        }])
        .expect("declaration");
        // 1x1x2: slice z holds (z, 0, 0, 1).
        let texture = Texture::new(
            TextureKind::Volume,
            [1, 1, 2],
            vec![vec![[0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 1.0]]],
        )
        .expect("texture");
        let textures = VertexTextures::none().with(2, &texture, SamplerStates::default());
        let data: Vec<u8> = [[0.5f32, 0.5, 0.75, 0.0], [0.5, 0.5, 0.25, 0.0]]
            .iter()
            .flatten()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let stream = Stream {
            data: &data,
            offset: 0,
            stride: 16,
        };
        let out = process_vertices_textured(
            &c,
            &decl,
            &[stream],
            &Constants::default(),
            &textures,
            0..2,
            FloatMode::Legacy,
        )
        .expect("processes");
        assert_eq!(out[0].get(TC0), Some([1.0, 0.0, 0.0, 1.0]));
        assert_eq!(out[1].get(TC0), Some([0.0, 0.0, 0.0, 1.0]));
        // Without textures the stage is empty: (0, 0, 0, 1) for both.
        let out = process_vertices(
            &c,
            &decl,
            &[stream],
            &Constants::default(),
            0,
            2,
            FloatMode::Legacy,
        )
        .expect("processes");
        assert_eq!(out[0].get(TC0), Some([0.0, 0.0, 0.0, 1.0]));
    }

    #[test]
    fn process_vertices_fetches_through_the_declaration() {
        use crate::decl::{DeclMethod, DeclType, VertexElement};
        let text = "vs_2_0
            dcl_position v0
            dcl_color v1
            mov oPos, v0
            mov oD0, v1
        ";
        let c = checked(text, &DeviceCaps::default());
        let el = |offset, ty, usage| VertexElement {
            stream: 0,
            offset,
            ty,
            method: DeclMethod::Default,
            usage,
            usage_index: 0,
        };
        let decl = VertexDeclaration::from_elements(&[
            el(0, DeclType::Float2, Usage::Position),
            el(8, DeclType::D3DColor, Usage::Color),
        ])
        .expect("declaration");
        let mut data = Vec::new();
        for k in 0..3u8 {
            data.extend_from_slice(&f32::from(k).to_le_bytes());
            data.extend_from_slice(&2.0f32.to_le_bytes());
            data.extend_from_slice(&[0, 0, 255, k]);
        }
        let stream = Stream {
            data: &data,
            offset: 0,
            stride: 12,
        };
        let out = process_vertices(
            &c,
            &decl,
            &[stream],
            &Constants::default(),
            1,
            2,
            FloatMode::Legacy,
        )
        .expect("processes");
        assert_eq!(out.len(), 2);
        assert_eq!(
            out[1].get(Semantic::new(Usage::Position, 0)),
            Some([2.0, 2.0, 0.0, 1.0])
        );
        assert_eq!(
            out[0].get(Semantic::new(Usage::Color, 0)),
            Some([1.0, 0.0, 0.0, 1.0 / 255.0])
        );
        // Vertex 3 lies past the data: an error, not a panic.
        let err = process_vertices(
            &c,
            &decl,
            &[stream],
            &Constants::default(),
            2,
            2,
            FloatMode::Legacy,
        )
        .expect_err("out of range");
        assert!(
            matches!(err, InterpError::OutOfRange { vertex: 3, .. }),
            "{err}"
        );
    }
}
