//! Draw-time pairing: the vertex declaration, the vertex stage and the pixel stage of a draw,
//! with the state that changes their code, translated and linked into one [`ShaderPair`].
//!
//! The key ([`PairKey`]) names the objects by handle and the code-changing state by value:
//! the declaration's element types (fetch conversions: through the declaration handle), the
//! link (shade mode, point lists, vertex fog), point expansion (sprites, scaling), the
//! fixed-function stages' baked state, the alpha test, and for ps_1_x the types of the
//! textures bound (which pick its sampling code).

use std::sync::Arc;

use d3d9_translator::bytecode::{Stage, TextureType, Usage, VertexProcessing};
use d3d9_translator::check::{check, CheckedProgram};
use d3d9_translator::decl::{bind_program, StreamSource, VertexBinding, VertexDeclaration};
use d3d9_translator::lift::{
    translate_pair, CompareFunction, FogMode as LiftFogMode, FogOptions, FogSource, PairError,
    PairOptions, PairPixelStage, PixelShaderOptions, PointExpansion, SamplerRead, ShaderInterface,
    TranslatedShader, Varying, VaryingInterpolation, VertexShaderOptions,
};
use d3d9_translator::signature::Semantic;

use super::error::{invalid, unsupported, DeviceError};
use super::fixed_function::{
    pixel_stage_wgsl, vertex_program, PixelKey, VertexKey, VertexOutputs, FF_FOG_LOCATION,
    FF_TEXCOORD_LOCATIONS,
};
use super::objects::{DeclarationId, PixelShaderId, VertexShaderId};
use super::state::FogMode;
use super::DeviceParams;

/// The vertex stage of a draw.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum VertexStage {
    /// The application's vertex shader.
    Shader(VertexShaderId),
    /// The generated fixed-function stage (no vertex shader, or POSITIONT in the
    /// declaration, where D3D9 skips the vertex shader).
    FixedFunction(VertexKey),
}

/// The pixel stage of a draw.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum PixelStage {
    /// The application's pixel shader; the fog render states that pick its fog stage
    /// (enable, table mode); for ps_1_x the texture types of stages 0–5.
    Shader {
        id: PixelShaderId,
        /// `D3DRS_FOGTABLEMODE` with fog on, and whether table fog reads w.
        fog: Option<(FogMode, bool)>,
        ps1_texture_types: Vec<TextureType>,
        /// ps_1_1–1_3: stages 0–3's `D3DTSS_TEXTURETRANSFORMFLAGS` (`D3DTTFF_PROJECTED`).
        ps1_texture_transform_flags: Vec<u32>,
        /// How each sampler reads a depth texture set on it (`Device::sampler_reads`).
        sampler_reads: Vec<SamplerRead>,
        /// What each sampler's states ask of the shader (`Device::sampler_fixups`).
        sampler_fixups: Vec<d3d9_translator::lift::interface::SamplerFixup>,
    },
    /// The generated fixed-function stage.
    FixedFunction(PixelKey),
}

/// What decides a draw's shader code.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PairKey {
    /// Render target 0 holds float32 bits in a u32 format (`SurfaceObject::holds_bits`):
    /// the fragment stage writes `bitcast<u32>` of its colour.
    pub(crate) bitcast: bool,
    pub(crate) declaration: DeclarationId,
    pub(crate) vertex: VertexStage,
    pub(crate) pixel: PixelStage,
    /// `D3DSHADE_FLAT`.
    pub(crate) flat: bool,
    pub(crate) point_list: bool,
    /// Point lists drawn as quads (see `points`): whether sprites replace the texture
    /// coordinates and whether fixed-function point scaling applies. The sizes are uniforms.
    pub(crate) points: Option<PointExpansion>,
    /// `D3DRS_ALPHATESTENABLE` with `D3DRS_ALPHAFUNC`; the fixed-function pixel stage bakes
    /// `D3DRS_ALPHAREF` in too (a pixel shader reads it from a uniform).
    pub(crate) alpha_test: Option<(CompareFunction, Option<u32>)>,
    /// Render target 0 is a float format and a pixel shader's alpha test reads the alpha
    /// unquantised (`PixelShaderOptions::alpha_test_float_target`).
    pub(crate) alpha_test_float_target: bool,
    /// User clip planes enabled (see `clip`; the planes are a uniform).
    pub(crate) clip_planes: bool,
    /// The vertex processing the declaration is paired under (a mixed device's current
    /// mode: hardware reads zeros for inputs the declaration lacks, software refuses them).
    pub(crate) processing: VertexProcessing,
}

impl PairKey {
    pub(crate) fn names_vertex_shader(&self, id: VertexShaderId) -> bool {
        self.vertex == VertexStage::Shader(id)
    }

    pub(crate) fn names_pixel_shader(&self, id: PixelShaderId) -> bool {
        matches!(&self.pixel, PixelStage::Shader { id: p, .. } if *p == id)
    }
}

/// A texture a stage samples: the sampler stage slot it reads and where it is bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SampledTexture {
    /// Device sampler slot (0–15 pixel, 16–19 vertex).
    pub(crate) slot: usize,
    pub(crate) texture_type: TextureType,
    /// A colour texture, or a depth texture read raw or as a shadow map.
    pub(crate) read: SamplerRead,
    pub(crate) group: u32,
    pub(crate) texture_binding: u32,
    pub(crate) sampler_binding: u32,
}

/// The translated stages of a draw.
pub(crate) struct ShaderPair {
    /// Unique per pair, for the pipeline and bind-group caches.
    pub(crate) id: u64,
    pub(crate) vertex_module: wgpu::ShaderModule,
    pub(crate) fragment_module: wgpu::ShaderModule,
    pub(crate) vertex_interface: ShaderInterface,
    /// `None` for the fixed-function pixel stage.
    pub(crate) pixel_interface: Option<ShaderInterface>,
    /// The declaration the vertex stage is bound to (POSITIONT rewritten for the
    /// fixed-function stage).
    pub(crate) declaration: Arc<VertexDeclaration>,
    pub(crate) vertex_program: Arc<CheckedProgram>,
    /// The vertex stage is the generated fixed-function one: its float constants are the
    /// fixed-function state (`fixed_function::vertex_constants`), not the application's `c#`.
    pub(crate) fixed_function_vertex: bool,
    /// The pixel stage is the generated fixed-function one, reading the uniform
    /// `fixed_function::pixel_uniform`.
    pub(crate) fixed_function_pixel: bool,
    /// Textures and where they are bound, both stages.
    pub(crate) textures: Vec<SampledTexture>,
    /// Render target locations the fragment stage writes.
    pub(crate) color_outputs: Vec<u32>,
    /// Whether flat-shaded varyings travel (GL reissues such draws, see `provoking`).
    pub(crate) flat: bool,
}

/// Everything pairing reads besides the key.
pub(crate) struct PairInputs<'a> {
    pub(crate) params: &'a DeviceParams,
    pub(crate) declaration: Arc<VertexDeclaration>,
    pub(crate) vertex_shader: Option<Arc<CheckedProgram>>,
    pub(crate) pixel_shader: Option<Arc<CheckedProgram>>,
    pub(crate) streams: Vec<StreamSource>,
    /// Whether the vertex shader applies D3D9's half-pixel offset (its position fix-up);
    /// false where the device moves the viewport by half a pixel instead.
    pub(crate) position_fixup: bool,
}

const CALL: &str = "draw";

/// Builds the pair for `key`.
pub(crate) fn build_pair(
    device: &wgpu::Device,
    id: u64,
    key: &PairKey,
    inputs: PairInputs<'_>,
) -> Result<ShaderPair, DeviceError> {
    let params = inputs.params;
    // The vertex program and the declaration it reads.
    let (program, declaration) = match &key.vertex {
        VertexStage::Shader(_) => {
            let program = inputs
                .vertex_shader
                .clone()
                .ok_or_else(|| invalid(CALL, "no vertex shader"))?;
            (program, inputs.declaration.clone())
        }
        VertexStage::FixedFunction(vertex) => fixed_function_vertex(key, vertex, &inputs)?,
    };
    let binding: VertexBinding = bind_program(
        &declaration,
        program.program(),
        &inputs.streams,
        key.processing,
    )
    .map_err(|source| DeviceError::Bind { call: CALL, source })?;
    let vs_options = VertexShaderOptions {
        input_fetches: Some(binding.fetches()),
        output_locations: None,
        float_mode: params.float_mode,
        position_fixup: inputs.position_fixup,
        point_expansion: key.points,
        clip_planes: key.clip_planes,
    };
    let pair_options = PairOptions {
        vertex: vs_options,
        flat_shading: key.flat,
        point_list: key.point_list,
        sprite_texture_coordinates: key.points.is_some_and(|p| p.sprite),
    };
    let mut textures = Vec::new();
    let (vertex, pixel_interface, fragment) = match (&key.pixel, inputs.pixel_shader.as_deref()) {
        (PixelStage::Shader { .. }, Some(ps)) => {
            let ps_options = pixel_shader_options(key, params, ps);
            let pair = translate_pair(
                &program,
                PairPixelStage::Shader {
                    program: ps,
                    options: ps_options,
                },
                pair_options,
            )
            .map_err(pair_error)?;
            let ps = pair
                .pixel
                .ok_or_else(|| invalid(CALL, "no pixel stage translated"))?;
            for s in &ps.interface.samplers {
                textures.push(SampledTexture {
                    slot: s.register as usize,
                    texture_type: s.texture_type,
                    read: s.read,
                    group: s.group,
                    texture_binding: s.texture_binding,
                    sampler_binding: s.sampler_binding,
                });
            }
            let mut module = ps.module;
            if key.bitcast {
                crate::gpu::bitcast::bitcast_fragment_output(&mut module, None)
                    .map_err(|source| DeviceError::Gpu { call: CALL, source })?;
            }
            let fragment = naga_module(device, module);
            (pair.vertex, Some(ps.interface), fragment)
        }
        (PixelStage::Shader { .. }, None) => return Err(invalid(CALL, "no pixel shader")),
        (PixelStage::FixedFunction(pixel), _) => {
            let (vs, fragment) =
                fixed_function_pixel(device, key, pixel, &program, &mut textures, |map| {
                    translate_pair(&program, PairPixelStage::Varyings(map), pair_options)
                        .map(|pair| pair.vertex)
                        .map_err(pair_error)
                })?;
            (vs, None, fragment)
        }
    };
    for s in &vertex.interface.samplers {
        textures.push(SampledTexture {
            slot: super::VERTEX_SAMPLER_BASE + s.register as usize,
            texture_type: s.texture_type,
            read: s.read,
            group: s.group,
            texture_binding: s.texture_binding,
            sampler_binding: s.sampler_binding,
        });
    }
    let color_outputs = match &pixel_interface {
        Some(i) => i.color_outputs.clone(),
        None => vec![0],
    };
    let flat = key.flat
        && vertex
            .interface
            .outputs
            .iter()
            .any(|o| o.semantic.usage == Usage::Color && o.location.is_some());
    let vertex_interface = vertex.interface.clone();
    let vertex_module = naga_module(device, vertex.module);
    Ok(ShaderPair {
        id,
        vertex_module,
        fragment_module: fragment,
        vertex_interface,
        pixel_interface,
        declaration,
        vertex_program: program,
        fixed_function_vertex: matches!(key.vertex, VertexStage::FixedFunction(_)),
        fixed_function_pixel: matches!(key.pixel, PixelStage::FixedFunction(_)),
        textures,
        color_outputs,
        flat,
    })
}

/// The options of the draw's pixel shader `ps` (`key.pixel` names it): the fog stage that
/// follows it before ps_3_0, ps_1_x's texture state, the alpha test, depth reads.
fn pixel_shader_options(
    key: &PairKey,
    params: &DeviceParams,
    ps: &CheckedProgram,
) -> PixelShaderOptions {
    let PixelStage::Shader {
        fog,
        ps1_texture_types,
        ps1_texture_transform_flags,
        sampler_reads,
        sampler_fixups,
        ..
    } = &key.pixel
    else {
        return PixelShaderOptions::default();
    };
    let fog = fog
        .filter(|_| ps.program().version.major < 3)
        .map(|(table, from_w)| FogOptions {
            from_w,
            source: match table {
                FogMode::None => FogSource::Vertex,
                FogMode::Linear => FogSource::Table(LiftFogMode::Linear),
                FogMode::Exp => FogSource::Table(LiftFogMode::Exp),
                FogMode::Exp2 => FogSource::Table(LiftFogMode::Exp2),
            },
        });
    PixelShaderOptions {
        float_mode: params.float_mode,
        ps1_range: params.ps1_range,
        fog,
        ps1_texture_types: ps1_texture_types.clone(),
        ps1_texture_transform_flags: ps1_texture_transform_flags.clone(),
        alpha_test: key.alpha_test.map(|(f, _)| f),
        alpha_test_float_target: key.alpha_test_float_target,
        sampler_reads: sampler_reads.clone(),
        sampler_fixups: sampler_fixups.clone(),
        ..PixelShaderOptions::default()
    }
}

/// A pair that did not translate, as the device reports it.
fn pair_error(error: PairError) -> DeviceError {
    let (stage, source) = match error {
        PairError::Vertex(source) => ("vertex shader", source),
        PairError::Pixel(source) => ("pixel shader", source),
        PairError::Link(source) => return DeviceError::Link { call: CALL, source },
    };
    DeviceError::Translate {
        call: CALL,
        stage,
        source,
    }
}

fn naga_module(device: &wgpu::Device, module: naga::Module) -> wgpu::ShaderModule {
    device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: None,
        source: wgpu::ShaderSource::Naga(std::borrow::Cow::Owned(module)),
    })
}

/// The generated fixed-function vertex stage of `vertex` for the draw's declaration, with
/// the outputs the pixel stage reads, assembled and checked (against software vertex
/// processing's constants for indexed vertex blending), and the declaration it reads.
fn fixed_function_vertex(
    key: &PairKey,
    vertex: &VertexKey,
    inputs: &PairInputs<'_>,
) -> Result<(Arc<CheckedProgram>, Arc<VertexDeclaration>), DeviceError> {
    let read = match (&key.pixel, inputs.pixel_shader.as_deref()) {
        (PixelStage::Shader { .. }, Some(ps)) => pixel_inputs(ps),
        _ => Vec::new(),
    };
    let outputs = VertexOutputs {
        texcoords: match &key.pixel {
            PixelStage::FixedFunction(pixel) => pixel.texcoords_read(),
            PixelStage::Shader { .. } => read
                .iter()
                .filter(|(usage, index)| *usage == Usage::TexCoord && *index < 8)
                .fold(0, |mask, (_, index)| mask | 1 << index),
        },
        eye: key.points.is_some_and(|p| p.scale),
        passthrough: read,
    };
    let generated = vertex_program(&inputs.declaration, vertex, outputs)
        .map_err(|e| unsupported(CALL, format!("the fixed-function vertex stage: {e}")))?;
    let program = d3d9_translator::asm::assemble(&generated.text).map_err(|e| {
        unsupported(
            CALL,
            format!("the fixed-function vertex stage does not assemble: {e}"),
        )
    })?;
    let caps = match generated.software_constants {
        true => d3d9_translator::check::DeviceCaps::software(),
        false => inputs.params.caps,
    };
    let checked = check(&program, Stage::Vertex, &caps).map_err(|source| DeviceError::Check {
        call: "fixed-function vertex stage",
        source,
    })?;
    Ok((Arc::new(checked), Arc::new(generated.declaration)))
}

/// The vertex stage translated for the fixed-function pixel stage `pixel` (`translate`
/// translates the vertex program with an output map), and the pixel stage's module; the
/// textures it samples are pushed on `textures`.
fn fixed_function_pixel(
    device: &wgpu::Device,
    key: &PairKey,
    pixel: &PixelKey,
    program: &CheckedProgram,
    textures: &mut Vec<SampledTexture>,
    translate: impl FnOnce(Vec<Varying>) -> Result<TranslatedShader, DeviceError>,
) -> Result<(TranslatedShader, wgpu::ShaderModule), DeviceError> {
    // Vertex fog reads the specular alpha when the vertex stage writes COLOR1 and no FOG
    // (Windows, in Wine's test_fog), else FOG (0 when unwritten: fully fogged, as
    // fog_with_shader_test expects).
    let signature = d3d9_translator::signature::Signature::of(program.program());
    let fog_from_specular = signature.output(Semantic::new(Usage::Fog, 0)).is_none()
        && signature.output(Semantic::new(Usage::Color, 1)).is_some();
    let vs = translate(fixed_function_varyings(pixel, key.flat, fog_from_specular))?;
    for (n, texture_type, read) in pixel.samplers() {
        let sampler = n as u32;
        textures.push(SampledTexture {
            slot: n,
            texture_type,
            read,
            group: d3d9_translator::lift::interface::PS_TEXTURES_GROUP,
            texture_binding: d3d9_translator::lift::interface::texture_binding(sampler),
            sampler_binding: d3d9_translator::lift::interface::sampler_binding(sampler),
        });
    }
    let wgsl = pixel_stage_wgsl(pixel, fog_from_specular);
    let mut module = naga::front::wgsl::parse_str(&wgsl).map_err(|e| {
        unsupported(
            CALL,
            format!(
                "the fixed-function pixel stage: {}",
                e.emit_to_string(&wgsl)
            ),
        )
    })?;
    if key.bitcast {
        crate::gpu::bitcast::bitcast_fragment_output(&mut module, None)
            .map_err(|source| DeviceError::Gpu { call: CALL, source })?;
    }
    Ok((vs, naga_module(device, module)))
}

/// Where the fixed-function pixel stage reads the vertex stage's outputs: COLOR0 at 0,
/// COLOR1 at 1 (flat with `D3DSHADE_FLAT`), FOG at [`FF_FOG_LOCATION`] with vertex fog,
/// TEXCOORDn at [`FF_TEXCOORD_LOCATIONS`]`[n]` for the sets the stages sample.
fn fixed_function_varyings(pixel: &PixelKey, flat: bool, fog_from_specular: bool) -> Vec<Varying> {
    let colour = |index, location| Varying {
        interpolation: if flat {
            VaryingInterpolation::Flat
        } else {
            VaryingInterpolation::Perspective
        },
        ..Varying::new(Semantic::new(Usage::Color, index), location, 4)
    };
    let mut map = vec![colour(0, 0), colour(1, 1)];
    if !fog_from_specular && pixel.fog == Some(super::fixed_function::PixelFog::Vertex) {
        map.push(Varying::new(
            Semantic::new(Usage::Fog, 0),
            FF_FOG_LOCATION,
            1,
        ));
    }
    let read = pixel.texcoords_read();
    for (n, location) in FF_TEXCOORD_LOCATIONS.iter().enumerate() {
        if read & (1 << n) != 0 {
            map.push(Varying::new(
                Semantic::new(Usage::TexCoord, n as u8),
                *location,
                4,
            ));
        }
    }
    map
}

/// The semantics a pixel shader reads.
fn pixel_inputs(ps: &CheckedProgram) -> Vec<(Usage, u8)> {
    d3d9_translator::signature::Signature::of(ps.program())
        .inputs
        .iter()
        .map(|e| (e.semantic.usage, e.semantic.index))
        .collect()
}
