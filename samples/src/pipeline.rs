//! One D3D9 draw made through the translator, as a D3D9 application makes
//! it: `CreateVertexShader` (assemble, then check against the device caps),
//! `SetVertexDeclaration` / `SetFVF`, `SetStreamSource`,
//! `SetVertexShaderConstantF/I/B`, `Clear`, `DrawIndexedPrimitive`, with no
//! pixel shader (the default fixed-function pixel stage shows COLOR0).
//!
//! Per draw: assemble → check (hardware device caps) → bind the
//! declaration to the shader's inputs → lift with those input fetches and
//! COLOR0 linked to the fixed-function stage → render with the backend.

use d3d9_backend::{
    fixed_function_pixel_wgsl, ConstantBuffer, CullMode, Draw, Frame, Gpu, GpuError, Image,
    Indices, ShaderStage, Target, VertexBuffer, VertexConstants, FIXED_FUNCTION_ENTRY_POINT,
};
use d3d9_translator::asm::{assemble, AsmError};
use d3d9_translator::bytecode::{Stage, Usage};
use d3d9_translator::check::{check, CheckError, DeviceCaps};
use d3d9_translator::decl::{
    bind_program, BindError, DeclError, StreamSource, VertexBinding, VertexDeclaration,
    VertexProcessing,
};
use d3d9_translator::lift::{
    translate_vertex_shader, FloatMode, LiftError, TranslatedShader, Varying, VertexShaderOptions,
    ENTRY_POINT,
};
use d3d9_translator::signature::Semantic;

/// Width of every gallery image (the D3D9 SDK samples' 640x480 window).
pub const WIDTH: u32 = 640;
/// Height of every gallery image.
pub const HEIGHT: u32 = 480;

/// Why a draw could not be made; each variant is one step of the pipeline.
#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    #[error("assembling the vertex shader: {0}")]
    Assemble(#[from] AsmError),
    #[error("CreateVertexShader refuses it: {0}")]
    Check(#[from] CheckError),
    #[error("vertex declaration: {0}")]
    Declaration(#[from] DeclError),
    #[error("binding the declaration to the shader: {0}")]
    Bind(#[from] BindError),
    #[error("translating the vertex shader: {0}")]
    Lift(#[from] LiftError),
    #[error("the draw needs {0}, which the gallery does not set up")]
    Unsupported(&'static str),
    #[error("rendering: {0}")]
    Gpu(#[from] GpuError),
}

/// The primitives of a draw (`D3DPRIMITIVETYPE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Primitive {
    /// `D3DPT_TRIANGLELIST`.
    TriangleList,
}

/// Everything one D3D9 draw of a scene sets on the device.
#[derive(Clone, Debug)]
pub struct SceneDraw {
    /// Vertex shader assembly text (the source of `fxc /Fo`-style bytecode).
    pub shader: &'static str,
    /// `SetVertexDeclaration` (or the declaration `SetFVF` installs).
    pub declaration: VertexDeclaration,
    /// `SetStreamSource(0, .., stride)`: the bytes of stream 0 and its stride.
    pub stream: Vec<u8>,
    pub stride: u32,
    /// `SetIndices` (16-bit); `None`: `DrawPrimitive` over `vertex_count`.
    pub indices: Option<Vec<u16>>,
    pub vertex_count: u32,
    pub primitive: Primitive,
    /// `SetVertexShaderConstantF/I/B` on the hardware-vertex-processing device.
    pub constants: VertexConstants,
    /// `D3DRS_CULLMODE`.
    pub cull: CullMode,
    /// `Clear(.., D3DCLEAR_TARGET, colour, ..)`: a D3DCOLOR, 0xAARRGGBB.
    pub clear: u32,
}

impl SceneDraw {
    /// `DrawIndexedPrimitive(D3DPT_TRIANGLELIST, ..)` over `vertices` in stream 0 (stride:
    /// the size of `V`) after `Clear` to `clear`, with D3D9's default `D3DCULL_CCW`.
    pub fn indexed_triangles<V: bytemuck::Pod>(
        shader: &'static str,
        declaration: VertexDeclaration,
        vertices: &[V],
        indices: Vec<u16>,
        constants: VertexConstants,
        clear: u32,
    ) -> Self {
        SceneDraw {
            shader,
            declaration,
            stream: bytemuck::cast_slice(vertices).to_vec(),
            stride: std::mem::size_of::<V>() as u32,
            vertex_count: vertices.len() as u32,
            indices: Some(indices),
            primitive: Primitive::TriangleList,
            constants,
            cull: CullMode::Ccw,
            clear,
        }
    }
}

/// A D3DCOLOR (0xAARRGGBB) as the wgpu colour the back buffer is cleared to.
pub fn d3dcolor(argb: u32) -> wgpu::Color {
    let channel = |shift: u32| f64::from((argb >> shift) & 0xFF) / 255.0;
    wgpu::Color {
        r: channel(16),
        g: channel(8),
        b: channel(0),
        a: channel(24),
    }
}

/// A draw's vertex shader after translation, with the declaration binding
/// it was specialised for.
#[derive(Clone, Debug)]
pub struct Translated {
    pub shader: TranslatedShader,
    /// The vertex buffer layouts (one per stream the shader reads).
    pub binding: VertexBinding,
}

/// `CreateVertexShader` + draw-time pairing: the shader assembled, checked
/// for a hardware-vertex-processing SM3 device, bound to the declaration,
/// and lifted with the declaration's input fetches, COLOR0 at location 0
/// for the fixed-function pixel stage and the half-pixel position fix-up.
pub fn translate(draw: &SceneDraw) -> Result<Translated, PipelineError> {
    let program = assemble(draw.shader)?;
    let checked = check(&program, Stage::Vertex, &DeviceCaps::default())?;
    let streams = [StreamSource {
        stride: draw.stride,
        ..StreamSource::default()
    }];
    let binding = bind_program(
        &draw.declaration,
        checked.program(),
        &streams,
        VertexProcessing::Hardware,
    )?;
    // The draw binds stream 0 only.
    if binding.streams.iter().any(|s| s.stream != 0) {
        return Err(PipelineError::Unsupported("streams other than 0"));
    }
    if binding.pretransformed {
        return Err(PipelineError::Unsupported(
            "pre-transformed vertices (POSITIONT)",
        ));
    }
    let options = VertexShaderOptions {
        input_fetches: Some(binding.fetches()),
        output_locations: Some(vec![Varying::new(Semantic::new(Usage::Color, 0), 0, 4)]),
        float_mode: FloatMode::Legacy,
        position_fixup: true,
        point_expansion: None,
    };
    let shader = translate_vertex_shader(&checked, &options)?;
    Ok(Translated { shader, binding })
}

/// Makes the draw into a cleared `WIDTH` x `HEIGHT` back buffer and reads
/// it back (`Rgba8Unorm`).
pub fn render_draw(gpu: &Gpu, draw: &SceneDraw) -> Result<Image, PipelineError> {
    let Translated { shader, binding } = translate(draw)?;
    let diffuse = shader
        .interface
        .output(Semantic::new(Usage::Color, 0))
        .and_then(|o| o.location);
    let fragment = fixed_function_pixel_wgsl(diffuse);
    if !shader.interface.samplers.is_empty() {
        return Err(PipelineError::Unsupported("vertex textures"));
    }
    // The draw's constants, the shader's `def`s written over them, and the half-pixel
    // position fix-up for the back buffer.
    let constants = draw
        .constants
        .buffers(&shader.interface, (WIDTH, HEIGHT))
        .map_err(|_| PipelineError::Unsupported("software vertex processing constants"))?;
    let uniforms: Vec<_> = constants.iter().map(ConstantBuffer::uniform).collect();
    let buffers: Vec<VertexBuffer<'_>> = binding
        .streams
        .iter()
        .map(|layout| VertexBuffer::stream(layout, &draw.stream))
        .collect();
    let topology = match draw.primitive {
        Primitive::TriangleList => wgpu::PrimitiveTopology::TriangleList,
    };
    let target = Target::rgba8(WIDTH, HEIGHT).cleared_to(d3dcolor(draw.clear));
    let draws = [Draw {
        vertex_buffers: &buffers,
        uniforms: &uniforms,
        topology,
        indices: draw.indices.as_deref().map(Indices::U16),
        ..Draw::new(
            ShaderStage::naga(&shader.module).entry(ENTRY_POINT),
            ShaderStage::wgsl(&fragment).entry(FIXED_FUNCTION_ENTRY_POINT),
            draw.vertex_count,
            target,
        )
    }];
    Ok(gpu.render_frame(&Frame {
        target,
        draws: &draws,
        cull: draw.cull,
    })?)
}
