//! A small D3D9 device, enough to replay the draws of Wine's shader visual tests: device state
//! (constants, declaration, shaders, textures, a few render states, render targets), the draws
//! made into each render target since its last `Clear`, and `getPixelColor` /
//! `check_rt_color` as Wine's checks call them.
//!
//! What it does as D3D9 does:
//! - The back buffer is 640x480 X8R8G8B8, here an `Rgba8Unorm` target; reads return
//!   0x00RRGGBB (Wine's `getPixelColor` masks the X channel). Other render targets
//!   (`CreateRenderTarget`, render-target textures) are `Rgba8Unorm` too; up to four are bound
//!   at once (multiple render targets). `Clear` clears every bound target.
//! - Hardware vertex processing (Wine's `create_device`): a shader input without an element
//!   reads (0, 0, 0, 0).
//! - Each draw is bound at draw time: the current declaration paired with the current vertex
//!   shader (`decl::bind_program`); with a pixel shader, both translated once, linked with
//!   `lift::link` (vertex outputs to pixel inputs by semantic) and translated again with the
//!   link's maps; the current `SetVertexShaderConstantF/I/B` and `SetPixelShaderConstantF/I/B`
//!   values written into the bindings each shader's interface names, with its `def`s written
//!   over them (`d3d9_backend::VertexConstants`, `PixelConstants`); the textures of the
//!   sampler stages the pixel shader declares, with their sampler states.
//! - `MaxPixelShaderValue` is FLT_MAX: ps_1_x arithmetic is not clamped to ±1
//!   (`Ps1Range::Unclamped`), as Wine's own d3d9 reports (wined3d's `ps_1x_max_value` is
//!   FLT_MAX on its GLSL and SPIR-V back-ends) and as test_color_clamping expects of Windows
//!   drivers (`add r0, v0, v1` of two 1.0 colours, then × 0.25, gives 0x7f7f7f).
//! - Viewport: the whole target. D3D9 pixel centres lie on integer coordinates, half a pixel
//!   up-left of WebGPU's: every draw gets the translator's position fix-up
//!   `(1/width, -1/height)`, so pixel (x, y) is shaded where D3D9 shades it.
//! - `D3DRS_CULLMODE` (default `D3DCULL_CCW`), `D3DRS_LIGHTING` (default TRUE).
//! - No vertex shader: the fixed-function vertex stage with identity transforms, as a vs_3_0
//!   shader written for the declaration ([`fixed_function_vertex_shader`]): the position
//!   passed through (pre-transformed XYZRHW positions mapped back to clip space with
//!   w = 1/rhw), COLOR0 (white when absent) and COLOR1 (black when absent) passed through
//!   with lighting off, and with lighting on and no lights the emissive/ambient result
//!   (0, 0, 0) with the diffuse alpha; every other element passed through by semantic.
//! - A 2D texture on a `dcl_volume` sampler is sampled as a volume of one slice (D3D9 leaves
//!   mismatched sampler types undefined; drivers read the 2D texels); other mismatches fail
//!   the draw, since WebGPU binds only the declared texture type.
//! - No pixel shader: the fixed-function pixel stage in its default state (the diffuse colour,
//!   clamped, `d3d9_backend::fixed_function_pixel_wgsl`), or texture stages 0 and 1 with the
//!   colour operations SELECTARG1/2, MODULATE and ADD of DIFFUSE, SPECULAR, TEXTURE (stage
//!   0's texture), TFACTOR and CURRENT ([`TextureStage`]); the alpha is the diffuse alpha.
//!
//! - Fog (`D3DRS_FOG*`): with the fixed-function pixel stage, vertex fog from the vertex
//!   shader's FOG output or table fog (LINEAR/EXP/EXP2) of the pixel's depth, blended towards
//!   the fog colour; after a ps_1_x/ps_2_x shader, requested from the translator
//!   (`PixelShaderOptions::fog`).
//!
//! What it does not do: depth and stencil (no replayed test draws overlapping geometry whose
//! order is not the draw order), texture stages beyond stage 0's colour,
//! alpha test, blending, transforms other than identity. A draw that needs one of them fails
//! with the reason. The back buffer before the first `Clear` reads as black.

use d3d9_backend::{
    fixed_function_pixel_wgsl, ConstantBuffer, CullMode, Draw, Frame, Gpu, Image, PixelConstants,
    SamplerBinding, ShaderStage, Target, TextureBinding, TextureFilter, TextureKind, Uniform,
    VertexBuffer, VertexConstants, FIXED_FUNCTION_ENTRY_POINT,
};
use d3d9_translator::asm::assemble_tokens;
use d3d9_translator::bytecode::{decode, Stage, TextureType, Usage};
use d3d9_translator::check::{check, CheckedProgram, DeviceCaps};
use d3d9_translator::decl::{
    bind_program, StreamFrequency, StreamSource, VertexDeclaration, VertexElement, VertexProcessing,
};
use d3d9_translator::lift::interface::{sampler_binding, texture_binding, PS_TEXTURES_GROUP};
use d3d9_translator::lift::{
    link, translate_pixel_shader, translate_vertex_shader, FloatMode, FogConstants,
    FogMode as LiftFogMode, FogOptions, FogSource, LinkOptions, PixelShaderOptions, Ps1Range,
    ShaderInterface, Varying, VaryingInterpolation, VertexShaderOptions, ENTRY_POINT,
};
use d3d9_translator::signature::Semantic;

/// Back buffer size of Wine's visual tests.
pub const WIDTH: u32 = 640;
pub const HEIGHT: u32 = 480;

/// The back buffer's surface.
pub const BACK_BUFFER: SurfaceId = SurfaceId(0);

/// A render target surface of the device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SurfaceId(usize);

/// A texture of the device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextureId(usize);

/// `D3DPRIMITIVETYPE` values the tests use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Primitive {
    PointList,
    TriangleStrip,
    TriangleList,
}

impl Primitive {
    fn vertices(self, primitives: u32) -> u32 {
        match self {
            Primitive::PointList => primitives,
            Primitive::TriangleStrip => primitives + 2,
            Primitive::TriangleList => primitives * 3,
        }
    }

    fn topology(self) -> wgpu::PrimitiveTopology {
        match self {
            Primitive::PointList => wgpu::PrimitiveTopology::PointList,
            Primitive::TriangleStrip => wgpu::PrimitiveTopology::TriangleStrip,
            Primitive::TriangleList => wgpu::PrimitiveTopology::TriangleList,
        }
    }
}

/// `D3DTSS_COLOROP` of a texture stage (the operations the replayed tests use).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StageOp {
    /// `D3DTOP_DISABLE`: this stage and the later ones are off.
    Disable,
    /// `D3DTOP_SELECTARG1`.
    SelectArg1,
    /// `D3DTOP_SELECTARG2`.
    SelectArg2,
    /// `D3DTOP_MODULATE`: arg1 × arg2.
    Modulate,
    /// `D3DTOP_ADD`: arg1 + arg2, clamped.
    Add,
}

/// `D3DTSS_COLORARG1/2` of a texture stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StageArg {
    /// `D3DTA_DIFFUSE`: the interpolated COLOR0, clamped.
    Diffuse,
    /// `D3DTA_SPECULAR`: the interpolated COLOR1, clamped.
    Specular,
    /// `D3DTA_TEXTURE`: the stage's texture at TEXCOORD0 (stage 0 only here); opaque white
    /// without a texture, so that the default `MODULATE(TEXTURE, CURRENT)` is the diffuse.
    Texture,
    /// `D3DTA_TFACTOR`: `D3DRS_TEXTUREFACTOR`.
    TFactor,
    /// `D3DTA_CURRENT`: the previous stage's result (the diffuse for stage 0).
    Current,
}

/// The colour states of one texture stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextureStage {
    pub op: StageOp,
    pub arg1: StageArg,
    pub arg2: StageArg,
}

impl TextureStage {
    /// D3D9's defaults: stage 0 `MODULATE(TEXTURE, CURRENT)`, the others `DISABLE`.
    pub fn default_for(stage: usize) -> TextureStage {
        TextureStage {
            op: if stage == 0 {
                StageOp::Modulate
            } else {
                StageOp::Disable
            },
            arg1: StageArg::Texture,
            arg2: StageArg::Current,
        }
    }
}

/// `D3DFOGMODE` of `D3DRS_FOGTABLEMODE` / `D3DRS_FOGVERTEXMODE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FogMode {
    None,
    Exp,
    Exp2,
    Linear,
}

/// The fog render states.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FogState {
    /// `D3DRS_FOGENABLE`.
    pub enable: bool,
    /// `D3DRS_FOGCOLOR`.
    pub colour: u32,
    /// `D3DRS_FOGTABLEMODE`.
    pub table: FogMode,
    /// `D3DRS_FOGVERTEXMODE`.
    pub vertex: FogMode,
    /// `D3DRS_FOGSTART`, `D3DRS_FOGEND`, `D3DRS_FOGDENSITY`.
    pub start: f32,
    pub end: f32,
    pub density: f32,
}

impl Default for FogState {
    /// D3D9's defaults: off, black, both modes NONE, start 0, end 1, density 1.
    fn default() -> Self {
        FogState {
            enable: false,
            colour: 0,
            table: FogMode::None,
            vertex: FogMode::None,
            start: 0.0,
            end: 1.0,
            density: 1.0,
        }
    }
}

/// Texel data of one texture, owned, as `TextureBinding` wants it.
#[derive(Debug, Clone)]
struct TextureData {
    kind: TextureKind,
    format: wgpu::TextureFormat,
    size: [u32; 3],
    levels: Vec<Vec<u8>>,
}

/// What a texture holds: data the test wrote, or a render target surface.
#[derive(Debug, Clone)]
enum TextureSource {
    Data(TextureData),
    RenderTarget(SurfaceId),
}

/// The fragment stage of a prepared draw.
enum Fragment {
    Module(Box<naga::Module>),
    Wgsl(String),
}

/// One draw with everything it needs, owned.
struct PreparedDraw {
    vertex: naga::Module,
    fragment: Fragment,
    vertices: Vec<u8>,
    stride: u64,
    attributes: Vec<wgpu::VertexAttribute>,
    has_stream: bool,
    constants: Vec<ConstantBuffer>,
    textures: Vec<(u32, u32, TextureData)>,
    samplers: Vec<SamplerBinding>,
    topology: wgpu::PrimitiveTopology,
    vertex_count: u32,
    cull: CullMode,
}

/// One render target.
struct Surface {
    width: u32,
    height: u32,
    clear: u32,
    image: Option<Result<Image, String>>,
}

/// The outcome of one check.
#[derive(Debug, Clone)]
pub struct CheckResult {
    pub label: String,
    pub passed: bool,
    pub detail: String,
}

/// The replayed device.
pub struct Device {
    gpu: Gpu,
    float_mode: FloatMode,
    constants: VertexConstants,
    ps_constants: PixelConstants,
    declaration: Option<VertexDeclaration>,
    vertex_shader: Option<Result<CheckedProgram, String>>,
    pixel_shader: Option<Result<CheckedProgram, String>>,
    textures: Vec<TextureSource>,
    stages: [Option<TextureId>; 16],
    samplers: [SamplerBinding; 16],
    texture_stages: [TextureStage; 2],
    texture_factor: u32,
    fog: FogState,
    cull: CullMode,
    lighting: bool,
    flat_shading: bool,
    surfaces: Vec<Surface>,
    render_targets: [Option<SurfaceId>; 4],
    /// Draws since the last `Clear` of their targets: label, render targets, the draw.
    draws: Vec<(String, Vec<SurfaceId>, Result<PreparedDraw, String>)>,
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
            ps_constants: PixelConstants::default(),
            declaration: None,
            vertex_shader: None,
            pixel_shader: None,
            textures: Vec::new(),
            stages: [None; 16],
            samplers: std::array::from_fn(|_| SamplerBinding::new(0, 0)),
            texture_stages: [TextureStage::default_for(0), TextureStage::default_for(1)],
            texture_factor: 0xffff_ffff,
            fog: FogState::default(),
            cull: CullMode::Ccw,
            lighting: true,
            flat_shading: false,
            surfaces: vec![Surface {
                width: WIDTH,
                height: HEIGHT,
                clear: 0,
                image: None,
            }],
            render_targets: [Some(BACK_BUFFER), None, None, None],
            draws: Vec::new(),
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
        self.vertex_shader = Some(create_shader(tokens, Stage::Vertex));
    }

    /// `SetVertexShader(NULL)`: the fixed-function vertex stage.
    pub fn set_no_vertex_shader(&mut self) {
        self.vertex_shader = None;
    }

    /// `CreatePixelShader` + `SetPixelShader(shader)`, `None` for `SetPixelShader(NULL)`.
    pub fn set_pixel_shader(&mut self, tokens: Option<&[u32]>) {
        self.pixel_shader = tokens.map(|t| create_shader(t, Stage::Pixel));
    }

    /// `SetVertexShaderConstantF(start, values, count)`.
    pub fn set_vs_const_f(&mut self, start: usize, values: &[[f32; 4]]) {
        self.constants.set_f(start, values);
    }

    /// `SetVertexShaderConstantI(start, values, count)`.
    pub fn set_vs_const_i(&mut self, start: usize, values: &[[i32; 4]]) {
        self.constants.set_i(start, values);
    }

    /// `SetPixelShaderConstantF(start, values, count)`.
    pub fn set_ps_const_f(&mut self, start: usize, values: &[[f32; 4]]) {
        self.ps_constants.set_f(start, values);
    }

    /// `SetRenderState(D3DRS_CULLMODE, mode)`.
    pub fn set_cull(&mut self, cull: CullMode) {
        self.cull = cull;
    }

    /// `SetRenderState(D3DRS_LIGHTING, on)`.
    pub fn set_lighting(&mut self, on: bool) {
        self.lighting = on;
    }

    /// `SetRenderState(D3DRS_SHADEMODE, flat ? D3DSHADE_FLAT : D3DSHADE_GOURAUD)`.
    pub fn set_flat_shading(&mut self, flat: bool) {
        self.flat_shading = flat;
    }

    /// `SetTextureStageState(stage, D3DTSS_COLOROP / COLORARG1 / COLORARG2, ...)` (stages 0
    /// and 1).
    pub fn set_texture_stage(&mut self, stage: usize, state: TextureStage) {
        if let Some(slot) = self.texture_stages.get_mut(stage) {
            *slot = state;
        }
    }

    /// `SetRenderState(D3DRS_FOG*, ...)`.
    pub fn set_fog(&mut self, fog: FogState) {
        self.fog = fog;
    }

    /// `SetRenderState(D3DRS_TEXTUREFACTOR, colour)`.
    pub fn set_texture_factor(&mut self, colour: u32) {
        self.texture_factor = colour;
    }

    /// `SetSamplerState(stage, D3DSAMP_MAGFILTER / MINFILTER, filter)`.
    pub fn set_filter(&mut self, stage: usize, mag: TextureFilter, min: TextureFilter) {
        if let Some(s) = self.samplers.get_mut(stage) {
            s.mag_filter = mag;
            s.min_filter = min;
        }
    }

    /// `CreateRenderTarget(width, height, D3DFMT_X8R8G8B8 / A8R8G8B8, ...)`; its contents
    /// before a `Clear` read as black.
    pub fn create_render_target(&mut self, width: u32, height: u32) -> SurfaceId {
        self.surfaces.push(Surface {
            width,
            height,
            clear: 0,
            image: None,
        });
        SurfaceId(self.surfaces.len() - 1)
    }

    /// `CreateTexture(..., D3DUSAGE_RENDERTARGET, ...)`: a texture whose level 0 is the
    /// render target `GetSurfaceLevel(0)` returns.
    pub fn create_render_target_texture(
        &mut self,
        width: u32,
        height: u32,
    ) -> (TextureId, SurfaceId) {
        let surface = self.create_render_target(width, height);
        self.textures.push(TextureSource::RenderTarget(surface));
        (TextureId(self.textures.len() - 1), surface)
    }

    /// `CreateTexture` / `CreateVolumeTexture` / `CreateCubeTexture` of one level, filled
    /// with `LockRect`/`LockBox`: `data` holds the texels as D3D9 lays them out in memory
    /// (A8R8G8B8 is B, G, R, A bytes; X8R8G8B8 reads alpha as 1).
    pub fn create_texture(
        &mut self,
        kind: TextureKind,
        format: D3dFormat,
        size: [u32; 3],
        data: Vec<u8>,
    ) -> TextureId {
        let mut data = data;
        if format == D3dFormat::X8R8G8B8 {
            for texel in data.chunks_exact_mut(4) {
                texel[3] = 0xff;
            }
        }
        self.textures.push(TextureSource::Data(TextureData {
            kind,
            format: format.wgpu(),
            size,
            levels: vec![data],
        }));
        TextureId(self.textures.len() - 1)
    }

    /// `SetTexture(stage, texture)`.
    pub fn set_texture(&mut self, stage: usize, texture: Option<TextureId>) {
        if let Some(slot) = self.stages.get_mut(stage) {
            *slot = texture;
        }
    }

    /// `SetRenderTarget(index, surface)`.
    pub fn set_render_target(&mut self, index: usize, surface: Option<SurfaceId>) {
        if let Some(slot) = self.render_targets.get_mut(index) {
            *slot = surface;
        }
    }

    fn bound_targets(&self) -> Vec<SurfaceId> {
        self.render_targets.iter().flatten().copied().collect()
    }

    /// `Clear(D3DCLEAR_TARGET, colour)`: every bound render target; the draws made into them
    /// so far are covered.
    pub fn clear(&mut self, colour: u32) {
        let targets = self.bound_targets();
        for t in &targets {
            if let Some(s) = self.surfaces.get_mut(t.0) {
                s.clear = colour;
                s.image = None;
            }
        }
        self.draws
            .retain(|(_, on, _)| !on.iter().any(|s| targets.contains(s)));
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
        let targets = self.bound_targets();
        let draw = self.prepare(primitive, count, data, stride, &targets);
        if let Err(e) = &draw {
            self.failures.push(format!("{label}: {e}"));
        }
        for t in &targets {
            if let Some(s) = self.surfaces.get_mut(t.0) {
                s.image = None;
            }
        }
        self.draws.push((label.to_string(), targets, draw));
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
        &mut self,
        primitive: Primitive,
        count: u32,
        data: &[u8],
        stride: u32,
        targets: &[SurfaceId],
    ) -> Result<PreparedDraw, String> {
        let first = targets.first().ok_or("no render target bound")?;
        let size = self
            .surfaces
            .get(first.0)
            .map(|s| (s.width, s.height))
            .ok_or("unknown render target")?;
        let decl = self
            .declaration
            .clone()
            .ok_or("no vertex declaration or FVF set")?;
        // The vertex stage: the application's shader, or the fixed-function one written for
        // the declaration.
        let (program, decl) = match &self.vertex_shader {
            Some(Ok(p)) => {
                if decl.is_pretransformed() {
                    return Err("pre-transformed vertices (POSITIONT) with a vertex shader".into());
                }
                (p.clone(), decl)
            }
            Some(Err(e)) => return Err(e.clone()),
            None => {
                let vertex_fog =
                    (self.fog.enable && self.fog.table == FogMode::None).then_some(self.fog);
                let (text, decl) =
                    fixed_function_vertex_shader(&decl, self.lighting, size, vertex_fog)?;
                let tokens = assemble_tokens(&text)
                    .map_err(|e| format!("fixed-function vertex shader: {e}\n{text}"))?;
                (create_shader(&tokens, Stage::Vertex)?, decl)
            }
        };
        let streams = [StreamSource {
            stride,
            frequency: StreamFrequency::Vertex,
        }];
        let binding = bind_program(&decl, &program, &streams, VertexProcessing::Hardware)
            .map_err(|e| format!("binding the declaration to the vertex shader: {e}"))?;
        let float_mode = self.float_mode;
        let vs_options = |output_locations| VertexShaderOptions {
            input_fetches: Some(binding.fetches()),
            output_locations,
            float_mode,
            position_fixup: true,
            point_expansion: None,
        };
        let mut textures = Vec::new();
        let mut samplers = Vec::new();
        let (vertex, fragment, ps_constants) = match self.pixel_shader.clone() {
            Some(Err(e)) => return Err(e),
            Some(Ok(ps)) => {
                let ps = &ps;
                let vs_alone = translate_vertex_shader(&program, &vs_options(None))
                    .map_err(|e| format!("translating the vertex shader: {e}"))?;
                // Fixed-function fog follows ps_1_x/ps_2_x (ps_3_0 does its own).
                let fog =
                    (self.fog.enable && ps.program().version.major < 3).then_some(FogOptions {
                        source: match self.fog.table {
                            FogMode::None => FogSource::Vertex,
                            FogMode::Linear => FogSource::Table(LiftFogMode::Linear),
                            FogMode::Exp => FogSource::Table(LiftFogMode::Exp),
                            FogMode::Exp2 => FogSource::Table(LiftFogMode::Exp2),
                        },
                    });
                let ps_options = PixelShaderOptions {
                    float_mode: self.float_mode,
                    ps1_range: Ps1Range::Unclamped,
                    fog,
                    ..PixelShaderOptions::default()
                };
                let ps_alone = translate_pixel_shader(ps, &ps_options)
                    .map_err(|e| format!("translating the pixel shader: {e}"))?;
                let linked = link(
                    &vs_alone.interface,
                    &ps_alone.interface,
                    &LinkOptions {
                        flat_shading: self.flat_shading,
                        point_list: primitive == Primitive::PointList,
                        vertex_fog: fog.is_some_and(|f| f.source == FogSource::Vertex),
                    },
                )
                .map_err(|e| format!("linking the shaders: {e}"))?;
                let vs = translate_vertex_shader(&program, &vs_options(Some(linked.vertex)))
                    .map_err(|e| format!("translating the vertex shader (linked): {e}"))?;
                let ps = translate_pixel_shader(
                    ps,
                    &PixelShaderOptions {
                        input_locations: Some(linked.pixel),
                        ..ps_options
                    },
                )
                .map_err(|e| format!("translating the pixel shader (linked): {e}"))?;
                for s in &ps.interface.samplers {
                    let mut data = self.stage_texture(s.register as usize)?;
                    let expected = match s.texture_type {
                        TextureType::Cube => TextureKind::Cube,
                        TextureType::Volume => TextureKind::Volume,
                        _ => TextureKind::TwoD,
                    };
                    // A 2D texture on a `dcl_volume` sampler reads as a volume of one
                    // slice (what Wine's test_mismatched_sample_types expects: the 2D
                    // texels, whatever w). The other mismatches have no exact stand-in.
                    if data.kind == TextureKind::TwoD && expected == TextureKind::Volume {
                        data.kind = TextureKind::Volume;
                        data.size[2] = 1;
                    }
                    if data.kind != expected {
                        return Err(format!(
                            "sampler s{} is declared {:?}, the texture set on it is {:?} (D3D9 leaves the result undefined; WebGPU needs the declared type)",
                            s.register, expected, data.kind
                        ));
                    }
                    textures.push((s.group, s.texture_binding, data));
                    let mut sampler = self.samplers[s.register as usize % 16];
                    sampler.group = s.group;
                    sampler.binding = s.sampler_binding;
                    samplers.push(sampler);
                }
                let mut constants = self.ps_constants.buffers(&ps.interface);
                // The fog render states, where the fog stage follows the shader.
                if let Some(binding) = ps.interface.fog {
                    let f = self.fog;
                    let c = |shift: u32| ((f.colour >> shift) & 0xff) as f32 / 255.0;
                    let data = FogConstants {
                        color: [c(16), c(8), c(0), c(24)],
                        start: f.start,
                        end: f.end,
                        density: f.density,
                    }
                    .data();
                    constants.push(ConstantBuffer {
                        group: binding.group,
                        binding: binding.binding,
                        storage: false,
                        data: bytemuck::cast_slice(&data).to_vec(),
                    });
                }
                (vs, Fragment::Module(Box::new(ps.module)), constants)
            }
            None => {
                let color0 = Semantic::new(Usage::Color, 0);
                let color1 = Semantic::new(Usage::Color, 1);
                let texcoord0 = Semantic::new(Usage::TexCoord, 0);
                let active: Vec<TextureStage> = self
                    .texture_stages
                    .iter()
                    .take_while(|s| s.op != StageOp::Disable)
                    .copied()
                    .collect();
                let reads = |arg: StageArg| {
                    active.iter().any(|s| {
                        (s.op != StageOp::SelectArg2 && s.arg1 == arg)
                            || (s.op != StageOp::SelectArg1 && s.arg2 == arg)
                    })
                };
                if active
                    .iter()
                    .skip(1)
                    .any(|s| s.arg1 == StageArg::Texture || s.arg2 == StageArg::Texture)
                {
                    return Err(
                        "fixed-function texture stage 1 reading a texture (not emulated)".into(),
                    );
                }
                let texture = match self.stages[0] {
                    Some(_) if reads(StageArg::Texture) => Some(self.stage_texture(0)?),
                    _ => None,
                };
                let default_stages = self.texture_stages
                    == [TextureStage::default_for(0), TextureStage::default_for(1)];
                let fog = self.fog.enable.then_some(self.fog);
                let flat = self.flat_shading;
                if default_stages && texture.is_none() && fog.is_none() && !flat {
                    // D3D9's default pixel stage: the backend's.
                    let vs = translate_vertex_shader(
                        &program,
                        &vs_options(Some(vec![Varying::new(color0, 0, 4)])),
                    )
                    .map_err(|e| format!("translating the vertex shader: {e}"))?;
                    let location = vs.interface.output(color0).and_then(|o| o.location);
                    (
                        vs,
                        Fragment::Wgsl(fixed_function_pixel_wgsl(location)),
                        Vec::new(),
                    )
                } else {
                    // D3DSHADE_FLAT: both colours are the first vertex's.
                    let colour = |semantic, location| Varying {
                        interpolation: if flat {
                            VaryingInterpolation::Flat
                        } else {
                            VaryingInterpolation::Perspective
                        },
                        ..Varying::new(semantic, location, 4)
                    };
                    let mut map = vec![colour(color0, 0), colour(color1, 1)];
                    if texture.is_some() {
                        map.push(Varying::new(texcoord0, 2, 4));
                    }
                    if fog.is_some_and(|f| f.table == FogMode::None) {
                        map.push(Varying::new(Semantic::new(Usage::Fog, 0), 3, 1));
                    }
                    let vs = translate_vertex_shader(&program, &vs_options(Some(map)))
                        .map_err(|e| format!("translating the vertex shader: {e}"))?;
                    if let Some(data) = texture.clone() {
                        if data.kind != TextureKind::TwoD {
                            return Err(
                                "fixed-function stage 0 with a cube or volume texture".into()
                            );
                        }
                        textures.push((PS_TEXTURES_GROUP, texture_binding(0), data));
                        let mut sampler = self.samplers[0];
                        sampler.group = PS_TEXTURES_GROUP;
                        sampler.binding = sampler_binding(0);
                        samplers.push(sampler);
                    }
                    let wgsl = fixed_function_stages_wgsl(
                        &active,
                        texture.is_some(),
                        self.texture_factor,
                        fog,
                        flat,
                    );
                    (vs, Fragment::Wgsl(wgsl), Vec::new())
                }
            }
        };
        let interface: &ShaderInterface = &vertex.interface;
        let mut constants = self
            .constants
            .buffers(interface, size)
            .map_err(|e| format!("vertex shader constants: {e}"))?;
        if constants.iter().any(|c| c.storage) {
            return Err("float constants in a storage buffer (software vertex processing)".into());
        }
        if !interface.samplers.is_empty() {
            return Err("vertex texture fetch is not part of these tests".into());
        }
        constants.extend(ps_constants);
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
            vertex: vertex.module,
            fragment,
            vertices: data.to_vec(),
            stride,
            attributes,
            has_stream,
            constants,
            textures,
            samplers,
            topology: primitive.topology(),
            vertex_count,
            cull: self.cull,
        })
    }

    /// The texel data of the texture on sampler stage `stage` (a render target's contents
    /// as of now).
    fn stage_texture(&mut self, stage: usize) -> Result<TextureData, String> {
        let id = self
            .stages
            .get(stage)
            .copied()
            .flatten()
            .ok_or_else(|| format!("no texture set on sampler {stage}"))?;
        match self.textures.get(id.0).cloned() {
            Some(TextureSource::Data(d)) => Ok(d),
            Some(TextureSource::RenderTarget(surface)) => {
                let image = self.surface(surface)?.clone();
                Ok(TextureData {
                    kind: TextureKind::TwoD,
                    format: image.format,
                    size: [image.width, image.height, 1],
                    levels: vec![image.data],
                })
            }
            None => Err(format!("texture {} does not exist", id.0)),
        }
    }

    /// The contents of `surface`: its clear colour and every draw made into it since,
    /// rendered once and cached (with the other targets those draws were made into).
    fn surface(&mut self, surface: SurfaceId) -> Result<&Image, String> {
        let cached = self
            .surfaces
            .get(surface.0)
            .ok_or("no such surface")?
            .image
            .is_some();
        if !cached {
            let (set, result) = self.render(surface);
            match result {
                Ok(images) => {
                    for (s, image) in set.iter().zip(images) {
                        if let Some(slot) = self.surfaces.get_mut(s.0) {
                            slot.image = Some(Ok(image));
                        }
                    }
                }
                Err(e) => {
                    if let Some(slot) = self.surfaces.get_mut(surface.0) {
                        slot.image = Some(Err(e));
                    }
                }
            }
        }
        match self.surfaces.get(surface.0).and_then(|s| s.image.as_ref()) {
            Some(Ok(image)) => Ok(image),
            Some(Err(e)) => Err(e.clone()),
            None => Err("not rendered".into()),
        }
    }

    /// Renders `surface` with the draws made into it; returns the target set rendered (the
    /// draws' render targets, `surface` alone without draws) and its images.
    fn render(&self, surface: SurfaceId) -> (Vec<SurfaceId>, Result<Vec<Image>, String>) {
        let draws: Vec<_> = self
            .draws
            .iter()
            .filter(|(_, on, _)| on.contains(&surface))
            .collect();
        let set = draws
            .first()
            .map_or_else(|| vec![surface], |(_, on, _)| on.clone());
        if draws.iter().any(|(_, on, _)| *on != set) {
            return (
                vec![surface],
                Err("draws into this surface were made with different render target sets (not replayed)".into()),
            );
        }
        let failed: Vec<&str> = draws
            .iter()
            .filter(|(_, _, d)| d.is_err())
            .map(|(label, _, _)| label.as_str())
            .collect();
        if !failed.is_empty() {
            let e = format!(
                "the frame has {} draw(s) that could not be made ({}; reasons above)",
                failed.len(),
                failed.join(", ")
            );
            return (set, Err(e));
        }
        let result = self.render_set(&set, &draws);
        (set, result)
    }

    fn render_set(
        &self,
        set: &[SurfaceId],
        draws: &[&(String, Vec<SurfaceId>, Result<PreparedDraw, String>)],
    ) -> Result<Vec<Image>, String> {
        let prepared: Vec<&PreparedDraw> = draws
            .iter()
            .filter_map(|(_, _, d)| d.as_ref().ok())
            .collect();
        let targets: Vec<Target> =
            set.iter()
                .map(|s| {
                    let surface = self.surfaces.get(s.0).ok_or("no such surface")?;
                    Ok(Target::rgba8(surface.width, surface.height)
                        .cleared_to(d3dcolor(surface.clear)))
                })
                .collect::<Result<_, String>>()?;
        let [target, more @ ..] = targets.as_slice() else {
            return Err("no render target".into());
        };
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
        let levels: Vec<Vec<Vec<&[u8]>>> = prepared
            .iter()
            .map(|d| {
                d.textures
                    .iter()
                    .map(|(_, _, t)| t.levels.iter().map(Vec::as_slice).collect())
                    .collect()
            })
            .collect();
        let textures: Vec<Vec<TextureBinding<'_>>> = prepared
            .iter()
            .zip(&levels)
            .map(|(d, levels)| {
                d.textures
                    .iter()
                    .zip(levels)
                    .map(|((group, binding, t), levels)| TextureBinding {
                        group: *group,
                        binding: *binding,
                        kind: t.kind,
                        format: t.format,
                        width: t.size[0],
                        height: t.size[1],
                        depth: t.size[2],
                        levels,
                    })
                    .collect()
            })
            .collect();
        let draws: Vec<Draw<'_>> = prepared
            .iter()
            .zip(&buffers)
            .zip(&uniforms)
            .zip(&textures)
            .map(|(((d, b), u), t)| {
                let fragment = match &d.fragment {
                    Fragment::Module(m) => ShaderStage::naga(m).entry(ENTRY_POINT),
                    Fragment::Wgsl(w) => ShaderStage::wgsl(w).entry(FIXED_FUNCTION_ENTRY_POINT),
                };
                Draw {
                    vertex_buffers: b,
                    uniforms: u,
                    textures: t,
                    samplers: &d.samplers,
                    topology: d.topology,
                    cull: Some(d.cull),
                    ..Draw::new(
                        ShaderStage::naga(&d.vertex).entry(ENTRY_POINT),
                        fragment,
                        d.vertex_count,
                        *target,
                    )
                }
            })
            .collect();
        self.gpu
            .render_frame_targets(
                &Frame {
                    target: *target,
                    draws: &draws,
                    cull: CullMode::Ccw,
                },
                more,
            )
            .map_err(|e| format!("rendering the frame: {e}"))
    }

    /// The A8R8G8B8 value of pixel (x, y) of `surface`.
    pub fn surface_pixel(&mut self, surface: SurfaceId, x: u32, y: u32) -> Result<u32, String> {
        let image = self.surface(surface)?;
        let [r, g, b, a] = image
            .rgba8(x, y)
            .ok_or_else(|| format!("pixel ({x}, {y}) outside the surface"))?;
        Ok(u32::from(a) << 24 | u32::from(r) << 16 | u32::from(g) << 8 | u32::from(b))
    }

    /// `getPixelColor(x, y)`: 0x00RRGGBB of render target 0.
    pub fn pixel(&mut self, x: u32, y: u32) -> Result<u32, String> {
        let target = self.render_targets[0].ok_or("no render target 0")?;
        self.surface_pixel(target, x, y).map(|c| c & 0x00ff_ffff)
    }

    /// Records a check of `colour` (a read that may have failed) against `accepted`, all
    /// within `tolerance`.
    pub fn check_value(
        &mut self,
        label: &str,
        at: (u32, u32),
        colour: Result<u32, String>,
        accepted: &[u32],
        tolerance: u8,
    ) {
        let accepted: Vec<(u32, u8)> = accepted.iter().map(|&c| (c, tolerance)).collect();
        self.check_any(label, at, colour, &accepted);
    }

    /// Records a check of `colour` against alternatives `(colour, tolerance)`, as
    /// `ok(color_match(c, a, ta) || color == b)` does.
    pub fn check_any(
        &mut self,
        label: &str,
        (x, y): (u32, u32),
        colour: Result<u32, String>,
        accepted: &[(u32, u8)],
    ) {
        let (passed, detail) = match colour {
            Ok(colour) => {
                let passed = accepted.iter().any(|&(c, d)| color_match(colour, c, d));
                let want: Vec<String> = accepted
                    .iter()
                    .map(|(c, d)| format!("0x{c:08x} ±{d}"))
                    .collect();
                (
                    passed,
                    format!(
                        "({x}, {y}) is 0x{colour:08x}, expected {}",
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

    /// `ok(color_match(getPixelColor(x, y), c, tolerance) || ...)` for any of `accepted`
    /// (alternatives Wine accepts on every driver; `broken()` ones are not passed in).
    pub fn check(&mut self, label: &str, x: u32, y: u32, accepted: &[u32], tolerance: u8) {
        let colour = self.pixel(x, y);
        self.check_value(label, (x, y), colour, accepted, tolerance);
    }

    /// A check of pixel (x, y) of `surface` masked with `mask` (Wine's
    /// `getPixelColorFromSurface` & mask).
    pub fn check_surface(
        &mut self,
        label: &str,
        surface: SurfaceId,
        (x, y): (u32, u32),
        mask: u32,
        accepted: &[u32],
        tolerance: u8,
    ) {
        let colour = self.surface_pixel(surface, x, y).map(|c| c & mask);
        self.check_value(label, (x, y), colour, accepted, tolerance);
    }

    /// `check_rt_color(backbuffer, colour)`: every pixel exactly `colour` (X channel masked).
    pub fn check_whole_target(&mut self, label: &str, expected: u32) {
        let (passed, detail) = match self.surface(BACK_BUFFER) {
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

/// The D3D9 texture formats the replayed tests fill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum D3dFormat {
    /// `D3DFMT_A8R8G8B8`: B, G, R, A bytes.
    A8R8G8B8,
    /// `D3DFMT_X8R8G8B8`: B, G, R, X bytes; alpha reads 1.
    X8R8G8B8,
}

impl D3dFormat {
    fn wgpu(self) -> wgpu::TextureFormat {
        wgpu::TextureFormat::Bgra8Unorm
    }
}

/// `CreateVertexShader` / `CreatePixelShader`: decoded and checked as a hardware device would.
fn create_shader(tokens: &[u32], stage: Stage) -> Result<CheckedProgram, String> {
    let what = match stage {
        Stage::Vertex => "vertex shader",
        Stage::Pixel => "pixel shader",
    };
    decode(tokens)
        .map_err(|e| format!("{what}: {e}"))
        .and_then(|p| check(&p, stage, &DeviceCaps::default()).map_err(|e| format!("{what}: {e}")))
}

/// The fixed-function vertex stage for `decl`, with identity world, view and projection
/// matrices and no lights, as vs_3_0 assembly, and the declaration it reads (POSITIONT read
/// as POSITION: the shader maps it back to clip space itself).
///
/// - POSITION: passed through (identity transforms).
/// - POSITIONT (XYZRHW, pixel coordinates on a `target`-sized viewport): w = 1/rhw, clip
///   (x·2/width − 1, 1 − y·2/height, z, 1) · w, so that interpolation is perspective-correct
///   with 1/rhw as D3D9 does it.
/// - COLOR0: the vertex's, white (1, 1, 1, 1) without one; with lighting on (and never for
///   pre-transformed vertices) and no lights, emissive + ambient = (0, 0, 0) with the diffuse
///   alpha.
/// - COLOR1: the vertex's, (0, 0, 0, 0) without one or with lighting on.
/// - Every other element: passed through under its own semantic.
/// - FOG, with `vertex_fog` (`D3DRS_FOGENABLE` and no table fog) and no FOG element: the
///   `D3DRS_FOGVERTEXMODE` factor of the eye-space depth (= z with identity transforms):
///   LINEAR `(end − z)/(end − start)`, EXP `e^(−z·density)`, EXP2 `e^(−(z·density)²)`; with
///   mode NONE or pre-transformed vertices, the specular alpha (0 without a specular colour),
///   which is where D3D9 takes the fog factor from then.
pub fn fixed_function_vertex_shader(
    decl: &VertexDeclaration,
    lighting: bool,
    target: (u32, u32),
    vertex_fog: Option<FogState>,
) -> Result<(String, VertexDeclaration), String> {
    let pretransformed = decl.is_pretransformed();
    let lit = lighting && !pretransformed;
    let elements: Vec<VertexElement> = decl
        .elements()
        .iter()
        .map(|e| {
            let mut e = *e;
            if e.usage == Usage::PositionT {
                e.usage = Usage::Position;
            }
            e
        })
        .collect();
    let rewritten = VertexDeclaration::from_elements(&elements)
        .map_err(|e| format!("fixed-function declaration: {e}"))?;
    let (w, h) = target;
    let mut text = String::from("vs_3_0\n");
    text += "def c250, 1.0, 1.0, 1.0, 1.0\ndef c251, 0.0, 0.0, 0.0, 0.0\n";
    text += &format!(
        "def c252, {:?}, {:?}, -1.0, 1.0\n",
        2.0 / w as f32,
        -2.0 / h as f32
    );
    let mut dcls = String::from("dcl_position o0\n");
    let mut body = String::new();
    let find = |usage: Usage, index: u8| {
        elements
            .iter()
            .position(|e| e.usage == usage && e.usage_index == index)
    };
    let mut next_output = 1;
    for (i, e) in elements.iter().enumerate() {
        dcls += &format!("dcl_{}{} v{i}\n", e.usage.name(), e.usage_index);
    }
    match find(Usage::Position, 0) {
        None => return Err("fixed-function vertex stage without a position".into()),
        Some(p) if pretransformed => {
            body += &format!(
                "rcp r0.w, v{p}.w\nmad r1.xy, v{p}.xy, c252.xy, c252.zw\nmov r1.z, v{p}.z\n\
                 mov r1.w, c250.x\nmul o0, r1, r0.w\n"
            );
        }
        Some(p) => body += &format!("mov o0, v{p}\n"),
    }
    for index in 0..2u8 {
        let o = next_output;
        next_output += 1;
        dcls += &format!("dcl_color{index} o{o}\n");
        let input = find(Usage::Color, index);
        body += &match (input, lit, index) {
            (Some(v), false, _) => format!("mov o{o}, v{v}\n"),
            (None, false, 0) => format!("mov o{o}, c250\n"),
            (Some(v), true, 0) => format!("mov o{o}.xyz, c251\nmov o{o}.w, v{v}.w\n"),
            (None, true, 0) => format!("mov o{o}.xyz, c251\nmov o{o}.w, c250.w\n"),
            _ => format!("mov o{o}, c251\n"),
        };
    }
    for (i, e) in elements.iter().enumerate() {
        if matches!(e.usage, Usage::Position | Usage::Color) && e.usage_index < 2 {
            continue;
        }
        if next_output > 11 {
            return Err("more than 12 fixed-function outputs".into());
        }
        let o = next_output;
        next_output += 1;
        dcls += &format!("dcl_{}{} o{o}\n", e.usage.name(), e.usage_index);
        body += &format!("mov o{o}, v{i}\n");
    }
    if let Some(fog) = vertex_fog.filter(|_| find(Usage::Fog, 0).is_none()) {
        let o = next_output;
        dcls += &format!("dcl_fog o{o}.x\n");
        let log2e = std::f32::consts::LOG2_E;
        text += &format!(
            "def c253, {:?}, {:?}, {:?}, {:?}\ndef c254, {:?}, {:?}, 0.0, 0.0\n",
            fog.start,
            fog.end,
            1.0 / (fog.end - fog.start),
            fog.density,
            -fog.density * log2e,
            -log2e
        );
        let z = find(Usage::Position, 0).map_or(0, |p| p);
        let specular_alpha = match find(Usage::Color, 1) {
            Some(v) => format!("v{v}.w"),
            None => "c251.x".to_string(),
        };
        body += &match (fog.vertex, pretransformed) {
            (FogMode::None, _) | (_, true) => format!("mov o{o}.x, {specular_alpha}\n"),
            (FogMode::Linear, false) => {
                format!("add r2.x, c253.y, -v{z}.z\nmul o{o}.x, r2.x, c253.z\n")
            }
            (FogMode::Exp, false) => format!("mul r2.x, v{z}.z, c254.x\nexp o{o}.x, r2.x\n"),
            (FogMode::Exp2, false) => format!(
                "mul r2.x, v{z}.z, c253.w\nmul r2.x, r2.x, r2.x\nmul r2.x, r2.x, c254.y\nexp o{o}.x, r2.x\n"
            ),
        };
    }
    Ok((text + &dcls + &body, rewritten))
}

/// The fixed-function pixel stage with the texture stages `stages` (colour operations only;
/// the alpha is the diffuse alpha): diffuse at location 0, specular at 1, and with a texture
/// on stage 0 (`@group(3)`, bindings 0 and 1, as a pixel shader's `s0`) texture coordinate 0
/// at 2. Colour inputs are clamped to [0, 1] as D3D9's interpolated colours are; with `flat`
/// (`D3DSHADE_FLAT`) they are the first vertex's.
fn fixed_function_stages_wgsl(
    stages: &[TextureStage],
    texture: bool,
    factor: u32,
    fog: Option<FogState>,
    flat: bool,
) -> String {
    let channel = |shift: u32| f64::from((factor >> shift) & 0xff) / 255.0;
    let mut body = format!(
        "    let tfactor = vec4<f32>({:?}, {:?}, {:?}, {:?});\n    let d = saturate(diffuse);\n    let s = saturate(specular);\n",
        channel(16),
        channel(8),
        channel(0),
        channel(24)
    );
    let shading = if flat { "@interpolate(flat) " } else { "" };
    let mut inputs = format!(
        "@location(0) {shading}diffuse: vec4<f32>, @location(1) {shading}specular: vec4<f32>"
    );
    let mut globals = String::new();
    if texture {
        inputs += ", @location(2) tc: vec4<f32>";
        globals = format!(
            "@group({PS_TEXTURES_GROUP}) @binding(0) var stage0: texture_2d<f32>;\n\
             @group({PS_TEXTURES_GROUP}) @binding(1) var stage0_sampler: sampler;\n"
        );
        body += "    let texel = textureSample(stage0, stage0_sampler, tc.xy);\n";
    } else {
        body += "    let texel = vec4<f32>(1.0);\n";
    }
    body += "    var current = d;\n";
    let arg = |a: StageArg| match a {
        StageArg::Diffuse => "d",
        StageArg::Specular => "s",
        StageArg::Texture => "texel",
        StageArg::TFactor => "tfactor",
        StageArg::Current => "current",
    };
    for stage in stages {
        let (a1, a2) = (arg(stage.arg1), arg(stage.arg2));
        let rgb = match stage.op {
            StageOp::Disable => break,
            StageOp::SelectArg1 => format!("{a1}.rgb"),
            StageOp::SelectArg2 => format!("{a2}.rgb"),
            StageOp::Modulate => format!("{a1}.rgb * {a2}.rgb"),
            StageOp::Add => format!("saturate({a1}.rgb + {a2}.rgb)"),
        };
        body += &format!("    current = vec4<f32>({rgb}, d.a);\n");
    }
    body += "    current = saturate(current);\n";
    if let Some(fog) = fog {
        // The fog factor: the interpolated FOG value (vertex fog), or the table mode of the
        // pixel's depth; colour = f · colour + (1 − f) · fog colour.
        let (start, end, density) = (fog.start, fog.end, fog.density);
        let factor = match fog.table {
            FogMode::None => {
                inputs += ", @location(3) fog: f32";
                "fog".to_string()
            }
            FogMode::Linear => format!("({end:?} - depth) / ({end:?} - {start:?})"),
            FogMode::Exp => format!("exp(-depth * {density:?})"),
            FogMode::Exp2 => format!("exp(-(depth * {density:?}) * (depth * {density:?}))"),
        };
        inputs += ", @builtin(position) frag: vec4<f32>";
        let c = |shift: u32| f64::from((fog.colour >> shift) & 0xff) / 255.0;
        body += &format!(
            "    let depth = frag.z;\n    let f = saturate({factor});\n    let fog_colour = vec3<f32>({:?}, {:?}, {:?});\n    current = vec4<f32>(mix(fog_colour, current.rgb, f), current.a);\n",
            c(16),
            c(8),
            c(0)
        );
    }
    format!(
        "{globals}@fragment\nfn {FIXED_FUNCTION_ENTRY_POINT}({inputs}) -> @location(0) vec4<f32> {{\n{body}    return current;\n}}\n"
    )
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

#[cfg(test)]
#[allow(clippy::panic)] // a failing test says why
mod tests {
    use super::*;

    /// D3D9 samples pixel (x, y) at integer coordinates: a quad whose left edge is at
    /// x = 10.25 and top edge at y = 20.25 covers column 11 and row 21 but not column 10 or
    /// row 20 (WebGPU's own centres, at +0.5, would cover both; without the position fix-up
    /// this test fails on column 10).
    #[test]
    fn gpu_pixel_centres_are_d3d9s() {
        let mut dev = Device::new(FloatMode::Legacy)
            .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
        let vs = assemble_tokens("vs_1_1\ndcl_position v0\nmov oPos, v0\nmov oD0, c0\n")
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

    /// Pre-transformed (XYZRHW) vertices through the fixed-function vertex stage land on the
    /// pixels D3D9 gives them: a quad from (10, 20) to (100, 200) covers pixel (10, 20) and
    /// (99, 199) but not (9, 20), (10, 19), (100, 100) or (50, 200); its diffuse colour comes
    /// through with lighting on (pre-transformed vertices are never lit).
    #[test]
    fn gpu_pretransformed_vertices_cover_d3d9s_pixels() {
        let mut dev = Device::new(FloatMode::Legacy)
            .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
        // D3DFVF_XYZRHW | D3DFVF_DIFFUSE
        dev.set_fvf(0x004 | 0x040).unwrap_or_else(|e| panic!("{e}"));
        let vertex = |x: f32, y: f32| {
            let mut v: Vec<u8> = [x, y, 0.5, 1.0]
                .iter()
                .flat_map(|f| f.to_le_bytes())
                .collect();
            v.extend(0xff20_40c0u32.to_le_bytes());
            v
        };
        let quad: Vec<u8> = [(10.0, 20.0), (100.0, 20.0), (10.0, 200.0), (100.0, 200.0)]
            .iter()
            .flat_map(|&(x, y)| vertex(x, y))
            .collect();
        dev.set_cull(CullMode::None);
        dev.clear(0);
        dev.draw_up("quad", Primitive::TriangleStrip, 2, &quad, 20);
        assert_eq!(dev.failures, Vec::<String>::new());
        for (x, y, c) in [
            (10, 20, 0x0020_40c0),
            (99, 199, 0x0020_40c0),
            (9, 20, 0),
            (10, 19, 0),
            (100, 100, 0),
            (50, 200, 0),
        ] {
            assert_eq!(dev.pixel(x, y), Ok(c), "({x}, {y})");
        }
    }

    #[test]
    fn color_match_is_per_channel() {
        assert!(color_match(0x0000_ff00, 0x0001_fe00, 1));
        assert!(!color_match(0x0000_ff00, 0x0002_ff00, 1));
        assert!(color_match(0x00bf_bf80, 0x00bf_bf80, 0));
    }
}
