//! A small D3D9 device, enough to replay the draws of Wine's vertex-shader visual tests:
//! device state (constants, declaration, shaders, clear colour), draws recorded since the last
//! `Clear`, and `getPixelColor` / `check_rt_color` as Wine's checks call them.
//!
//! What it does as D3D9 does:
//! - The back buffer is 640x480 X8R8G8B8, here an `Rgba8Unorm` target; reads return
//!   0x00RRGGBB (Wine's `getPixelColor` masks the X channel).
//! - Hardware vertex processing (Wine's `create_device`): a shader input without an element
//!   reads (0, 0, 0, 0).
//! - Each draw is bound at draw time: the current declaration paired with the current vertex
//!   shader (`decl::bind_program`), the shader translated with those input fetches, the
//!   current `SetVertexShaderConstantF/I/B` values written into the bindings the shader's
//!   interface names, with its `def c#` values written over them
//!   (`d3d9_backend::VertexConstants`).
//! - Viewport: the whole target. D3D9 pixel centres lie on integer coordinates, half a pixel
//!   up-left of WebGPU's: every draw gets the translator's position fix-up
//!   `(1/640, -1/480)` (clip-space x right and y down by half a pixel), so pixel (x, y) is
//!   shaded where D3D9 shades it.
//! - Cull mode `D3DCULL_CCW` (the default).
//! - No pixel shader: the default fixed-function pixel stage, the diffuse colour clamped
//!   (`d3d9_backend::fixed_function_pixel_wgsl`). A pixel shader runs only where it is exactly
//!   equivalent to a pass-through of one vertex output (`dcl_<semantic> v#` +
//!   `mov oC0, v#` in ps_3_0): a unorm target clamps like the fixed-function stage, so the
//!   same stage is used, fed by that semantic. Any other pixel shader fails the draw with
//!   "needs pixel shader translation".
//!
//! What it does not do: depth and stencil (no test here draws overlapping geometry whose
//! order is not the draw order), fog, texture stages, alpha test, blending. The back buffer
//! before the first `Clear` reads as black.

use d3d9_backend::{
    fixed_function_pixel_wgsl, ConstantBuffer, CullMode, Draw, Frame, Gpu, Image, ShaderStage,
    Target, Uniform, VertexBuffer, VertexConstants, FIXED_FUNCTION_ENTRY_POINT,
};
use d3d9_translator::bytecode::{
    decode, Declaration, Opcode, Program, RegisterFile, SrcModifier, Stage, Swizzle, WriteMask,
};
use d3d9_translator::check::{check, CheckedProgram, DeviceCaps};
use d3d9_translator::decl::{
    bind_program, StreamFrequency, StreamSource, VertexDeclaration, VertexProcessing,
};
use d3d9_translator::lift::{
    translate_vertex_shader, FloatMode, Varying, VertexShaderOptions, ENTRY_POINT,
};
use d3d9_translator::signature::Semantic;

/// Back buffer size of Wine's visual tests.
pub const WIDTH: u32 = 640;
pub const HEIGHT: u32 = 480;

/// `D3DPRIMITIVETYPE` values the tests use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Primitive {
    PointList,
    TriangleStrip,
}

impl Primitive {
    fn vertices(self, primitives: u32) -> u32 {
        match self {
            Primitive::PointList => primitives,
            Primitive::TriangleStrip => primitives + 2,
        }
    }

    fn topology(self) -> wgpu::PrimitiveTopology {
        match self {
            Primitive::PointList => wgpu::PrimitiveTopology::PointList,
            Primitive::TriangleStrip => wgpu::PrimitiveTopology::TriangleStrip,
        }
    }
}

/// One draw with everything it needs, owned.
struct PreparedDraw {
    module: naga::Module,
    fragment: String,
    vertices: Vec<u8>,
    stride: u64,
    attributes: Vec<wgpu::VertexAttribute>,
    has_stream: bool,
    constants: Vec<ConstantBuffer>,
    topology: wgpu::PrimitiveTopology,
    vertex_count: u32,
}

/// The outcome of one check.
#[derive(Debug, Clone)]
pub struct CheckResult {
    pub label: String,
    pub passed: bool,
    pub detail: String,
}

/// The pixel stage bound with `SetPixelShader`.
#[derive(Debug, Clone)]
enum PixelStage {
    FixedFunction,
    Shader(Program),
}

/// The replayed device.
pub struct Device {
    gpu: Gpu,
    float_mode: FloatMode,
    constants: VertexConstants,
    declaration: Option<VertexDeclaration>,
    vertex_shader: Option<Result<CheckedProgram, String>>,
    pixel_stage: Result<PixelStage, String>,
    clear: u32,
    draws: Vec<(String, Result<PreparedDraw, String>)>,
    frame: Option<Result<Image, String>>,
    pub checks: Vec<CheckResult>,
    /// Draws that could not be made, with the reason.
    pub failures: Vec<String>,
}

impl Device {
    /// A device on the default adapter; no adapter is an error (GPU tests never skip).
    pub fn new(float_mode: FloatMode) -> Result<Device, String> {
        let gpu = Gpu::new().map_err(|e| e.to_string())?;
        Ok(Device {
            gpu,
            float_mode,
            constants: VertexConstants::default(),
            declaration: None,
            vertex_shader: None,
            pixel_stage: Ok(PixelStage::FixedFunction),
            clear: 0,
            draws: Vec::new(),
            frame: None,
            checks: Vec::new(),
            failures: Vec::new(),
        })
    }

    /// `SetFVF`.
    pub fn set_fvf(&mut self, fvf: u32) -> Result<(), String> {
        self.declaration =
            Some(VertexDeclaration::from_fvf(fvf).map_err(|e| format!("SetFVF({fvf:#x}): {e}"))?);
        Ok(())
    }

    /// `SetVertexDeclaration`.
    pub fn set_vertex_declaration(&mut self, decl: &VertexDeclaration) {
        self.declaration = Some(decl.clone());
    }

    /// `CreateVertexShader` + `SetVertexShader`; a shader that does not decode fails the draws
    /// made with it.
    pub fn set_vertex_shader(&mut self, tokens: &[u32]) {
        // CreateVertexShader: decode and check as a hardware device would.
        self.vertex_shader = Some(
            decode(tokens)
                .map_err(|e| format!("vertex shader: {e}"))
                .and_then(|p| {
                    check(&p, Stage::Vertex, &DeviceCaps::default())
                        .map_err(|e| format!("vertex shader: {e}"))
                }),
        );
    }

    /// `SetPixelShader(shader)`, `None` for `SetPixelShader(NULL)`.
    pub fn set_pixel_shader(&mut self, tokens: Option<&[u32]>) {
        self.pixel_stage = match tokens {
            None => Ok(PixelStage::FixedFunction),
            Some(t) => decode(t)
                .map(PixelStage::Shader)
                .map_err(|e| format!("pixel shader: {e}")),
        };
    }

    /// `SetVertexShaderConstantF(start, values, count)`.
    pub fn set_vs_const_f(&mut self, start: usize, values: &[[f32; 4]]) {
        self.constants.set_f(start, values);
    }

    /// `SetVertexShaderConstantI(start, values, count)`.
    pub fn set_vs_const_i(&mut self, start: usize, values: &[[i32; 4]]) {
        self.constants.set_i(start, values);
    }

    /// `Clear(D3DCLEAR_TARGET, colour)`: the draws made so far are covered.
    pub fn clear(&mut self, colour: u32) {
        self.clear = colour;
        self.draws.clear();
        self.frame = None;
    }

    /// `DrawPrimitiveUP(primitive, count, data, stride)`.
    pub fn draw_up(
        &mut self,
        label: &str,
        primitive: Primitive,
        count: u32,
        data: &[u8],
        stride: u32,
    ) {
        let draw = self.prepare(primitive, count, data, stride);
        if let Err(e) = &draw {
            self.failures.push(format!("{label}: {e}"));
        }
        self.draws.push((label.to_string(), draw));
        self.frame = None;
    }

    /// `SetStreamSource(0, vb, 0, stride)` + `DrawPrimitive(primitive, start, count)`.
    pub fn draw(
        &mut self,
        label: &str,
        primitive: Primitive,
        buffer: &[u8],
        stride: u32,
        start: u32,
        count: u32,
    ) {
        let offset = (start as usize) * (stride as usize);
        let data = buffer.get(offset..).unwrap_or(&[]);
        self.draw_up(label, primitive, count, data, stride);
    }

    fn prepare(
        &self,
        primitive: Primitive,
        count: u32,
        data: &[u8],
        stride: u32,
    ) -> Result<PreparedDraw, String> {
        let program = match &self.vertex_shader {
            Some(Ok(p)) => p,
            Some(Err(e)) => return Err(e.clone()),
            None => return Err("no vertex shader set (fixed-function vertex processing is not part of these tests)".into()),
        };
        let pixel = self.pixel_stage.as_ref().map_err(Clone::clone)?;
        let decl = self
            .declaration
            .as_ref()
            .ok_or("no vertex declaration or FVF set")?;
        let streams = [StreamSource {
            stride,
            frequency: StreamFrequency::Vertex,
        }];
        let binding = bind_program(decl, program, &streams, VertexProcessing::Hardware)
            .map_err(|e| format!("binding the declaration to the vertex shader: {e}"))?;
        if binding.pretransformed {
            return Err("pre-transformed vertices (POSITIONT) skip the vertex shader; not part of these tests".into());
        }
        // The pixel stage reads one semantic at location 0: link it.
        let semantic = match pixel {
            PixelStage::FixedFunction => Semantic::new(d3d9_translator::bytecode::Usage::Color, 0),
            PixelStage::Shader(ps) => pass_through_input(ps)?,
        };
        let options = VertexShaderOptions {
            input_fetches: Some(binding.fetches()),
            output_locations: Some(vec![Varying::new(semantic, 0, 4)]),
            float_mode: self.float_mode,
            position_fixup: true,
        };
        let shader = translate_vertex_shader(program, &options)
            .map_err(|e| format!("translating the vertex shader: {e}"))?;
        let interface = &shader.interface;
        let location = interface.output(semantic).and_then(|o| o.location);
        let fragment = fixed_function_pixel_wgsl(location);

        let constants = self
            .constants
            .buffers(interface, (WIDTH, HEIGHT))
            .map_err(|e| format!("vertex shader constants: {e}"))?;
        if constants.iter().any(|c| c.storage) {
            return Err("float constants in a storage buffer (software vertex processing)".into());
        }
        if !interface.samplers.is_empty() {
            return Err("vertex texture fetch is not part of these tests".into());
        }
        let (stride, attributes, has_stream) = match binding.streams.as_slice() {
            [] => (0, Vec::new(), false),
            [layout] if layout.stream == 0 => {
                (layout.array_stride, layout.attributes.clone(), true)
            }
            other => {
                return Err(format!(
                    "{} streams; these tests use stream 0 only",
                    other.len()
                ))
            }
        };
        let vertex_count = primitive.vertices(count);
        let needed = u64::from(vertex_count) * stride;
        if has_stream && (data.len() as u64) < needed {
            return Err(format!(
                "{vertex_count} vertices of {stride} bytes exceed the {} bytes given",
                data.len()
            ));
        }
        Ok(PreparedDraw {
            module: shader.module,
            fragment,
            vertices: data.to_vec(),
            stride,
            attributes,
            has_stream,
            constants,
            topology: primitive.topology(),
            vertex_count,
        })
    }

    /// The back buffer: the clear colour and every draw since, rendered once and cached.
    fn frame(&mut self) -> Result<&Image, String> {
        if self.frame.is_none() {
            let result = self.render();
            self.frame = Some(result);
        }
        match self.frame.as_ref() {
            Some(Ok(image)) => Ok(image),
            Some(Err(e)) => Err(e.clone()),
            None => Err("no frame".into()),
        }
    }

    fn render(&self) -> Result<Image, String> {
        let failed: Vec<&str> = self
            .draws
            .iter()
            .filter(|(_, d)| d.is_err())
            .map(|(label, _)| label.as_str())
            .collect();
        if !failed.is_empty() {
            return Err(format!(
                "the frame has {} draw(s) that could not be made ({}; reasons above)",
                failed.len(),
                failed.join(", ")
            ));
        }
        let prepared: Vec<&PreparedDraw> = self
            .draws
            .iter()
            .filter_map(|(_, d)| d.as_ref().ok())
            .collect();
        let buffers: Vec<Vec<VertexBuffer<'_>>> = prepared
            .iter()
            .map(|d| {
                if d.has_stream {
                    vec![VertexBuffer {
                        layout: wgpu::VertexBufferLayout {
                            array_stride: d.stride,
                            step_mode: wgpu::VertexStepMode::Vertex,
                            attributes: &d.attributes,
                        },
                        data: &d.vertices,
                    }]
                } else {
                    Vec::new()
                }
            })
            .collect();
        let uniforms: Vec<Vec<Uniform<'_>>> = prepared
            .iter()
            .map(|d| d.constants.iter().map(ConstantBuffer::uniform).collect())
            .collect();
        let target = Target::rgba8(WIDTH, HEIGHT).cleared_to(d3dcolor(self.clear));
        let draws: Vec<Draw<'_>> = prepared
            .iter()
            .zip(&buffers)
            .zip(&uniforms)
            .map(|((d, b), u)| Draw {
                vertex_buffers: b,
                uniforms: u,
                topology: d.topology,
                ..Draw::new(
                    ShaderStage::naga(&d.module).entry(ENTRY_POINT),
                    ShaderStage::wgsl(&d.fragment).entry(FIXED_FUNCTION_ENTRY_POINT),
                    d.vertex_count,
                    target,
                )
            })
            .collect();
        self.gpu
            .render_frame(&Frame {
                target,
                draws: &draws,
                cull: CullMode::Ccw,
            })
            .map_err(|e| format!("rendering the frame: {e}"))
    }

    /// `getPixelColor(x, y)`: 0x00RRGGBB.
    pub fn pixel(&mut self, x: u32, y: u32) -> Result<u32, String> {
        let image = self.frame()?;
        let [r, g, b, _] = image
            .rgba8(x, y)
            .ok_or_else(|| format!("pixel ({x}, {y}) outside the back buffer"))?;
        Ok(u32::from(r) << 16 | u32::from(g) << 8 | u32::from(b))
    }

    /// `ok(color_match(getPixelColor(x, y), c, tolerance) || ...)` for any of `accepted`
    /// (alternatives Wine accepts on every driver; `broken()` ones are not passed in).
    pub fn check(&mut self, label: &str, x: u32, y: u32, accepted: &[u32], tolerance: u8) {
        let result = self.pixel(x, y);
        let (passed, detail) = match result {
            Ok(colour) => {
                let passed = accepted.iter().any(|&c| color_match(colour, c, tolerance));
                let want: Vec<String> = accepted.iter().map(|c| format!("0x{c:08x}")).collect();
                (
                    passed,
                    format!(
                        "({x}, {y}) is 0x{colour:08x}, expected {} ±{tolerance}",
                        want.join(" or ")
                    ),
                )
            }
            Err(e) => (false, format!("({x}, {y}) not rendered: {e}")),
        };
        self.checks.push(CheckResult {
            label: label.to_string(),
            passed,
            detail,
        });
    }

    /// `check_rt_color(backbuffer, colour)`: every pixel exactly `colour` (X channel masked).
    pub fn check_whole_target(&mut self, label: &str, expected: u32) {
        let (passed, detail) = match self.frame() {
            Ok(image) => {
                let mut first_bad = None;
                'rows: for y in 0..HEIGHT {
                    for x in 0..WIDTH {
                        let colour = image.rgba8(x, y).map(|[r, g, b, _]| {
                            u32::from(r) << 16 | u32::from(g) << 8 | u32::from(b)
                        });
                        if colour != Some(expected) {
                            first_bad = Some((x, y, colour));
                            break 'rows;
                        }
                    }
                }
                match first_bad {
                    None => (true, format!("every pixel is 0x{expected:08x}")),
                    Some((x, y, c)) => (
                        false,
                        format!(
                            "pixel ({x}, {y}) is {c:08x?}, expected every pixel 0x{expected:08x}"
                        ),
                    ),
                }
            }
            Err(e) => (false, format!("not rendered: {e}")),
        };
        self.checks.push(CheckResult {
            label: label.to_string(),
            passed,
            detail,
        });
    }
}

/// Wine's `color_match`: every 8-bit channel within `d`.
pub fn color_match(c1: u32, c2: u32, d: u8) -> bool {
    (0..4).all(|i| {
        let a = (c1 >> (8 * i)) & 0xff;
        let b = (c2 >> (8 * i)) & 0xff;
        a.abs_diff(b) <= u32::from(d)
    })
}

/// A D3DCOLOR (0xAARRGGBB) as a wgpu clear colour.
fn d3dcolor(c: u32) -> wgpu::Color {
    let ch = |shift: u32| f64::from((c >> shift) & 0xff) / 255.0;
    wgpu::Color {
        r: ch(16),
        g: ch(8),
        b: ch(0),
        a: ch(24),
    }
}

/// The one input a pixel shader passes through unchanged: ps_3_0 `dcl_<semantic> v#` (full
/// mask) followed by `mov oC0, v#` and nothing else. Anything else needs pixel shader
/// translation, which this project does not have yet.
fn pass_through_input(ps: &Program) -> Result<Semantic, String> {
    let needs = |why: &str| {
        Err(format!(
            "needs pixel shader translation: ps_{}_{} shader of {} instructions ({why})",
            ps.version.major,
            ps.version.minor,
            ps.instructions.len()
        ))
    };
    if ps.version.stage != Stage::Pixel || ps.version.major != 3 {
        return needs("only a ps_3_0 pass-through of one input is run without it");
    }
    let [dcl, mov] = ps.instructions.as_slice() else {
        return needs("not a dcl + mov pass-through");
    };
    let (Opcode::Dcl, Opcode::Mov) = (dcl.opcode, mov.opcode) else {
        return needs("not a dcl + mov pass-through");
    };
    let (Some(dcl_dst), Some(Declaration::Semantic { usage, index })) = (dcl.dst, dcl.decl) else {
        return needs("dcl is not an input semantic");
    };
    let Some(mov_dst) = mov.dst else {
        return needs("mov without destination");
    };
    let [src] = mov.src.as_slice() else {
        return needs("mov without one source");
    };
    let plain = dcl_dst.reg.file == RegisterFile::Input
        && dcl_dst.mask == WriteMask::ALL
        && !dcl_dst.modifier.saturate()
        && !dcl_dst.modifier.centroid()
        && mov_dst.reg.file == RegisterFile::ColorOut
        && mov_dst.reg.index == 0
        && mov_dst.mask == WriteMask::ALL
        && mov_dst.shift == 0
        && !mov_dst.modifier.saturate()
        && src.reg.file == RegisterFile::Input
        && src.reg.index == dcl_dst.reg.index
        && src.reg.relative.is_none()
        && src.swizzle == Swizzle::IDENTITY
        && src.modifier == SrcModifier::None
        && mov.predicate.is_none();
    if !plain {
        return needs("operands are not a plain full-mask copy");
    }
    Ok(Semantic::new(usage, index))
}

#[cfg(test)]
#[allow(clippy::panic)] // a failing test says why
mod tests {
    use super::*;
    use d3d9_translator::asm::assemble;
    use d3d9_translator::bytecode::Usage;

    fn recognise(text: &str) -> Result<Semantic, String> {
        pass_through_input(&assemble(text).map_err(|e| e.to_string())?)
    }

    #[test]
    fn ps_3_0_copy_of_one_input_is_a_pass_through() {
        assert_eq!(
            recognise("ps_3_0\ndcl_position1 v0\nmov oC0, v0\n"),
            Ok(Semantic::new(Usage::Position, 1))
        );
        assert_eq!(
            recognise("ps_3_0\ndcl_texcoord0 v3\nmov oC0, v3\n"),
            Ok(Semantic::new(Usage::TexCoord, 0))
        );
    }

    #[test]
    fn anything_else_needs_pixel_shader_translation() {
        for text in [
            "ps_3_0\ndcl_texcoord0 v0\nmov_sat oC0, v0\n",
            "ps_3_0\ndcl_texcoord0 v0\nmov oC0, v0.yzwx\n",
            "ps_3_0\ndcl_texcoord0 v0\nmov oC0, -v0\n",
            "ps_3_0\ndcl_texcoord0 v0.xy\nmov oC0, v0\n",
            "ps_3_0\ndcl_texcoord0 v0\nmov oC1, v0\n",
            "ps_3_0\ndcl_texcoord0 v0\ndcl_texcoord1 v1\nmov oC0, v1\n",
            "ps_2_0\ndcl v0\nmov oC0, v0\n",
            "ps_1_1\nmov r0, v0\n",
        ] {
            let err = recognise(text).expect_err(text);
            assert!(
                err.starts_with("needs pixel shader translation"),
                "{text}: {err}"
            );
        }
    }

    /// D3D9 samples pixel (x, y) at integer coordinates: a quad whose left edge is at
    /// x = 10.25 and top edge at y = 20.25 covers column 11 and row 21 but not column 10 or
    /// row 20 (WebGPU's own centres, at +0.5, would cover both; without the position fix-up
    /// this test fails on column 10).
    #[test]
    fn gpu_pixel_centres_are_d3d9s() {
        let mut dev = Device::new(FloatMode::Legacy)
            .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
        let vs = d3d9_translator::asm::assemble_tokens(
            "vs_1_1\ndcl_position v0\nmov oPos, v0\nmov oD0, c0\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let left = 10.25 / (WIDTH as f32 / 2.0) - 1.0;
        let top = 1.0 - 20.25 / (HEIGHT as f32 / 2.0);
        let quad: Vec<u8> = [
            left, -1.0, 0.5, left, top, 0.5, 1.0, -1.0, 0.5, 1.0, top, 0.5,
        ]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
        dev.set_fvf(0x002).unwrap_or_else(|e| panic!("{e}"));
        dev.set_vertex_shader(&vs);
        dev.set_vs_const_f(0, &[[1.0; 4]]);
        dev.clear(0);
        dev.draw_up("quad", Primitive::TriangleStrip, 2, &quad, 12);
        assert_eq!(dev.failures, Vec::<String>::new());
        assert_eq!(dev.pixel(10, 100), Ok(0), "column 10");
        assert_eq!(dev.pixel(11, 100), Ok(0x00ff_ffff), "column 11");
        assert_eq!(dev.pixel(100, 20), Ok(0), "row 20");
        assert_eq!(dev.pixel(100, 21), Ok(0x00ff_ffff), "row 21");
    }

    #[test]
    fn color_match_is_per_channel() {
        assert!(color_match(0x0000_ff00, 0x0001_fe00, 1));
        assert!(!color_match(0x0000_ff00, 0x0002_ff00, 1));
        assert!(color_match(0x00bf_bf80, 0x00bf_bf80, 0));
    }
}
