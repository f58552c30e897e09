//! The fixed-function keys of a draw, from the device state: the raw render and texture-stage
//! states (the one source of every fixed-function state), the lights and the bound textures.

use d3d9_translator::bytecode::TextureType;
use d3d9_translator::decl::VertexDeclaration;
use d3d9_translator::lift::CompareFunction;

use super::super::error::{unsupported, DeviceError};
use super::super::raw_state::{D3DTSS_TEXCOORDINDEX, TEXTURE_STAGES};
use super::super::state::{FogMode, ShadeMode};
use super::super::Device;
use super::pixel::{PixelFog, PixelKey};
use super::stages::stage_keys;
use super::{fog_equation, FogState};
use crate::device::TextureKind;
use d3d9_translator::fixed_function::{
    Lighting, MaterialSource, VertexBlend, VertexDescription, VertexFog, VertexOutputs, VertexState,
};

/// `D3DRENDERSTATETYPE` numbers the fixed-function stages read raw.
const SPECULARENABLE: u32 = 29;
const RANGEFOGENABLE: u32 = 48;
const COLORVERTEX: u32 = 141;
const LOCALVIEWER: u32 = 142;
const NORMALIZENORMALS: u32 = 143;
const DIFFUSEMATERIALSOURCE: u32 = 145;
const SPECULARMATERIALSOURCE: u32 = 146;
const AMBIENTMATERIALSOURCE: u32 = 147;
const EMISSIVEMATERIALSOURCE: u32 = 148;
const VERTEXBLEND: u32 = 151;
const INDEXEDVERTEXBLENDENABLE: u32 = 167;
/// `D3DTSS_TEXTURETRANSFORMFLAGS`.
const TEXTURETRANSFORMFLAGS: u32 = 24;

const CALL: &str = "draw";

impl Device {
    /// The fixed-function vertex stage's state for a draw with `declaration`.
    pub(crate) fn fixed_function_vertex_state(
        &self,
        declaration: &VertexDeclaration,
        fog: &FogState,
    ) -> Result<VertexState, DeviceError> {
        let raw = &self.state.raw.render;
        let render = &self.state.render;
        let pretransformed = declaration.is_pretransformed();
        let viewport = pretransformed.then(|| {
            let v = self.state.viewport;
            [v.x, v.y, v.width, v.height]
        });
        let lighting = if render.lighting && !pretransformed {
            let color_vertex = raw.get(COLORVERTEX) != 0;
            let source = |state: u32| -> Result<MaterialSource, DeviceError> {
                Ok(match raw.get(state) {
                    _ if !color_vertex => MaterialSource::Material,
                    0 => MaterialSource::Material,
                    1 => MaterialSource::Color1,
                    2 => MaterialSource::Color2,
                    v => {
                        return Err(unsupported(
                            CALL,
                            format!("D3DMATERIALCOLORSOURCE {v} (render state {state})"),
                        ))
                    }
                })
            };
            Some(Lighting {
                lights: self
                    .state
                    .lights
                    .active()
                    .iter()
                    .map(|l| l.light_type)
                    .collect(),
                local_viewer: raw.get(LOCALVIEWER) != 0,
                specular: raw.get(SPECULARENABLE) != 0,
                sources: [
                    source(DIFFUSEMATERIALSOURCE)?,
                    source(AMBIENTMATERIALSOURCE)?,
                    source(SPECULARMATERIALSOURCE)?,
                    source(EMISSIVEMATERIALSOURCE)?,
                ],
            })
        } else {
            None
        };
        let indexed = raw.get(INDEXEDVERTEXBLENDENABLE) != 0;
        let blend = match raw.get(VERTEXBLEND) {
            _ if pretransformed => VertexBlend::None,
            0 => VertexBlend::None,
            w @ 1..=3 => VertexBlend::Weights {
                weights: w as u8,
                indexed,
            },
            255 => VertexBlend::Tween,
            256 => VertexBlend::Weights {
                weights: 0,
                indexed,
            },
            v => {
                return Err(unsupported(
                    CALL,
                    format!("D3DRS_VERTEXBLEND {v:#x} (not a D3DVERTEXBLENDFLAGS value)"),
                ))
            }
        };
        let stages = &self.state.raw.stages;
        Ok(VertexState {
            viewport,
            lighting,
            blend,
            normalize: raw.get(NORMALIZENORMALS) != 0,
            texcoords: std::array::from_fn(|n| {
                let s = &stages[n];
                (s.get(D3DTSS_TEXCOORDINDEX), s.get(TEXTURETRANSFORMFLAGS))
            }),
            fog: (fog.enable && fog.table == FogMode::None).then(|| VertexFog {
                mode: fog_equation(fog.vertex),
                range: raw.get(RANGEFOGENABLE) != 0,
            }),
        })
    }

    /// The fixed-function pixel stage's key.
    pub(crate) fn fixed_function_pixel_key(&self, fog: &FogState) -> Result<PixelKey, DeviceError> {
        let render = &self.state.render;
        let textures: [Option<TextureType>; TEXTURE_STAGES] = std::array::from_fn(|n| {
            let object = self.state.textures[n].and_then(|id| self.textures.get(&id))?;
            Some(match object.kind {
                TextureKind::TwoD => TextureType::TwoD,
                TextureKind::Cube => TextureType::Cube,
                TextureKind::Volume => TextureType::Volume,
            })
        });
        let stages = stage_keys(&self.state.raw.stages, &textures)
            .map_err(|why| unsupported(CALL, format!("the fixed-function pixel stage: {why}")))?;
        Ok(PixelKey {
            stages,
            specular: self.state.raw.render.get(SPECULARENABLE) != 0,
            fog: fog.enable.then_some(match fog.table {
                FogMode::None => PixelFog::Vertex,
                mode => PixelFog::Table {
                    mode,
                    from_w: fog.from_w,
                },
            }),
            flat: render.shade == ShadeMode::Flat,
            alpha_test: self
                .alpha_test_enabled()
                .then_some(render.alpha_func)
                .filter(|f| *f != CompareFunction::Always),
            sampler_reads: self.sampler_reads(),
            sampler_fixups: self.sampler_fixups(),
        })
    }
}

/// The fixed-function vertex stage as the reference interpreter runs it for
/// `ProcessVertices` without a vertex shader: the program of the description for
/// `declaration` with the outputs `destination` has (texture coordinate sets), checked against
/// the device's caps (the one the draws translate), the declaration it reads, and its float
/// constants now.
pub(crate) struct ProcessingProgram {
    pub(crate) program: std::sync::Arc<d3d9_translator::check::CheckedProgram>,
    pub(crate) declaration: VertexDeclaration,
    pub(crate) floats: Vec<[f32; 4]>,
}

impl Device {
    /// [`ProcessingProgram`] of the current fixed-function state.
    pub(crate) fn fixed_function_processing(
        &self,
        declaration: &VertexDeclaration,
        destination: &VertexDeclaration,
    ) -> Result<ProcessingProgram, DeviceError> {
        use d3d9_translator::bytecode::Usage;
        let call = "ProcessVertices";
        let fog = FogState::of(&self.state.render, self.state.transforms.w_fog());
        let state = self.fixed_function_vertex_state(declaration, &fog)?;
        let texcoords = destination
            .elements()
            .iter()
            .filter(|e| e.usage == Usage::TexCoord && e.usage_index < 8)
            .fold(0u8, |mask, e| mask | 1 << e.usage_index);
        let outputs = VertexOutputs {
            texcoords,
            eye: false,
            passthrough: Vec::new(),
        };
        let generated = VertexDescription::new(declaration, state, outputs)
            .and_then(|d| d.program(&self.params.caps))
            .map_err(|e| unsupported(call, e.to_string()))?;
        let software = d3d9_translator::bytecode::software_limits(
            generated.program.program().version,
            generated.program.caps().vertex_processing,
        );
        Ok(ProcessingProgram {
            program: std::sync::Arc::new(generated.program),
            declaration: generated.declaration,
            floats: super::constants::vertex_constants(&self.state, software),
        })
    }
}
