//! D3D9's fixed-function vertex pipeline as a translator input: a [`VertexDescription`] (the
//! state that changes the code, the declaration and the outputs the pixel stage reads) is
//! turned into a vs_3_0 [`Program`] built in memory ([`VertexDescription::build`]), checked
//! ([`VertexDescription::program`]) and then treated like an application's vertex shader:
//! [`translate_pair`](crate::lift::translate_pair) lifts it
//! ([`PairVertexStage::FixedFunction`](crate::lift::PairVertexStage)), and the reference
//! interpreter runs the same program for `ProcessVertices` without a vertex shader (as
//! wined3d compiles its fixed-function description to shader model 1–3 bytecode). The
//! translator brings the declaration's fetch conversions, the link with the pixel stage,
//! user clip planes, the half-pixel fix-up and point expansion.
//!
//! Every number (matrices, light and material colours, positions, fog distances) is a float
//! constant of the layout in [`registers`], which the device fills; moving a light or
//! changing a matrix never generates a new program. The equations (D3D9's fixed-function
//! vertex pipeline as Windows runs it; wined3d and DXVK agree) are written on each part of
//! the generator (`vertex`, `lighting`, `texcoord`).

mod emit;
mod lighting;
pub mod registers;
mod texcoord;
mod vertex;

use crate::bytecode::{Program, Stage, Usage};
use crate::check::{check, CheckError, CheckedProgram, DeviceCaps};
use crate::decl::{DeclError, ShaderInput, VertexDeclaration, VertexElement};
use crate::fog::FogMode;
use crate::signature::Semantic;

/// `D3DLIGHTTYPE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LightType {
    /// `D3DLIGHT_POINT` (1): from `position` in every direction, attenuated with distance
    /// up to `range`.
    Point,
    /// `D3DLIGHT_SPOT` (2): a point light limited to a cone around `direction`: full inside
    /// `theta`, none outside `phi`, `falloff` between.
    Spot,
    /// `D3DLIGHT_DIRECTIONAL` (3): along `direction` from infinitely far away.
    Directional,
}

impl LightType {
    /// The type of D3D9's number (1–3).
    pub fn from_d3d(value: u32) -> Option<LightType> {
        match value {
            1 => Some(LightType::Point),
            2 => Some(LightType::Spot),
            3 => Some(LightType::Directional),
            _ => None,
        }
    }

    /// D3D9's number of the type.
    pub fn to_d3d(self) -> u32 {
        match self {
            LightType::Point => 1,
            LightType::Spot => 2,
            LightType::Directional => 3,
        }
    }
}

/// `D3DMATERIALCOLORSOURCE` after `D3DRS_COLORVERTEX`: where a lit colour's material term
/// comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MaterialSource {
    /// `D3DMCS_MATERIAL` (or `COLORVERTEX` off, or the vertex lacks the colour).
    Material,
    /// `D3DMCS_COLOR1`: the vertex's diffuse colour.
    Color1,
    /// `D3DMCS_COLOR2`: the vertex's specular colour.
    Color2,
}

/// What lighting changes in the code.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Lighting {
    /// The active lights' types, in constant order ([`registers::light`]).
    pub lights: Vec<LightType>,
    /// `D3DRS_LOCALVIEWER`.
    pub local_viewer: bool,
    /// `D3DRS_SPECULARENABLE`: COLOR1 is the lit specular colour (else the vertex's).
    pub specular: bool,
    /// Diffuse, ambient, specular and emissive sources.
    pub sources: [MaterialSource; 4],
}

/// `D3DRS_VERTEXBLEND` with `D3DRS_INDEXEDVERTEXBLENDENABLE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VertexBlend {
    /// `D3DVBF_DISABLE`: `D3DTS_WORLD` alone.
    None,
    /// `D3DVBF_1WEIGHTS`..`3WEIGHTS` (1–3 blend weights, one matrix more) and `0WEIGHTS` (0:
    /// one matrix of weight 1); `indexed`: the matrices are `D3DTS_WORLDMATRIX(index)` of
    /// the vertex's BLENDINDICES, else `D3DTS_WORLDMATRIX(0..=weights)`.
    Weights { weights: u8, indexed: bool },
    /// `D3DVBF_TWEENING`: position and normal are `lerp(POSITION0, POSITION1,
    /// D3DRS_TWEENFACTOR)` (NORMAL0/1 likewise).
    Tween,
}

/// Vertex fog: the FOG output's factor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct VertexFog {
    /// `D3DRS_FOGVERTEXMODE`; `None` (`D3DFOG_NONE`) takes the specular alpha.
    pub mode: Option<FogMode>,
    /// `D3DRS_RANGEFOGENABLE`: the distance is |eye position| instead of |eye z|.
    pub range: bool,
}

/// The render and texture-stage states that change the fixed-function vertex code (what a
/// draw's pairing is keyed by, besides the declaration).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VertexState {
    /// POSITIONT declarations: the viewport (x, y, width, height) screen coordinates map
    /// to; nothing else applies but the texture coordinate indices.
    pub viewport: Option<[u32; 4]>,
    /// `D3DRS_LIGHTING` with the lights; `None`: the vertex colours pass through.
    pub lighting: Option<Lighting>,
    pub blend: VertexBlend,
    /// `D3DRS_NORMALIZENORMALS`.
    pub normalize: bool,
    /// Per texture coordinate output n: stage n's `D3DTSS_TEXCOORDINDEX` and
    /// `D3DTSS_TEXTURETRANSFORMFLAGS`.
    pub texcoords: [(u32, u32); 8],
    /// Vertex fog (`D3DRS_FOGENABLE` with table fog NONE).
    pub fog: Option<VertexFog>,
}

/// The outputs the pixel stage needs besides position and colours.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct VertexOutputs {
    /// Texture coordinate sets (bit n: TEXCOORDn).
    pub texcoords: u8,
    /// The eye-space position as POSITION1 (fixed-function point scaling).
    pub eye: bool,
    /// Other semantics a pixel shader reads (ps_3_0 `dcl_normal`, `dcl_fog`, ...): the
    /// declaration's element of that semantic passes through unchanged, as D3D9 hands
    /// vertex data to the pixel shader by semantic (Wine's pretransformed_varying_test).
    pub passthrough: Vec<(Usage, u8)>,
}

/// The fixed-function vertex stage of a draw: the state, the declaration it reads and the
/// outputs the pixel stage needs.
#[derive(Debug, Clone)]
pub struct VertexDescription {
    /// The declaration with POSITIONT read as POSITION (element i is input `v<i>`).
    declaration: VertexDeclaration,
    pub state: VertexState,
    pub outputs: VertexOutputs,
}

/// The checked program of a [`VertexDescription`] and the declaration it reads.
#[derive(Debug, Clone)]
pub struct FixedFunctionVertex {
    pub program: CheckedProgram,
    /// The draw's declaration with POSITIONT read as POSITION.
    pub declaration: VertexDeclaration,
}

/// Why a description has no program.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FixedFunctionError {
    /// The declaration is not one a vertex stage reads.
    #[error("fixed-function declaration: {0}")]
    Declaration(#[from] DeclError),
    /// The state asks for what D3D9 does not define or this stage does not do.
    #[error("the fixed-function vertex stage: {0}")]
    Unsupported(String),
    /// The generated program fails the checker (a generator bug).
    #[error("the fixed-function vertex stage does not check: {0}")]
    Check(#[from] CheckError),
}

impl VertexDescription {
    /// The description of `state` for a draw with `declaration` (POSITIONT is read as
    /// POSITION: the state's viewport maps it) writing `outputs`.
    pub fn new(
        declaration: &VertexDeclaration,
        state: VertexState,
        outputs: VertexOutputs,
    ) -> Result<VertexDescription, FixedFunctionError> {
        let elements: Vec<VertexElement> = declaration
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
        Ok(VertexDescription {
            declaration: VertexDeclaration::from_elements(&elements)?,
            state,
            outputs,
        })
    }

    /// The declaration the program reads (POSITIONT read as POSITION).
    pub fn declaration(&self) -> &VertexDeclaration {
        &self.declaration
    }

    /// The program's inputs: element i of [`Self::declaration`] as `v<i>`.
    pub fn inputs(&self) -> Vec<ShaderInput> {
        self.declaration
            .elements()
            .iter()
            .enumerate()
            .map(|(i, e)| ShaderInput {
                register: i as u32,
                semantic: e.semantic(),
            })
            .collect()
    }

    /// Whether indexed vertex blending reads software vertex processing's 8192 constants
    /// (256 matrices from [`registers::INDEXED_WORLD_VIEW`]).
    pub fn software_constants(&self) -> bool {
        matches!(self.state.blend, VertexBlend::Weights { indexed: true, .. })
    }

    /// Whether the program writes FOG: with vertex fog, or passing a FOG element through
    /// for a pixel shader that reads it.
    pub fn writes_fog(&self) -> bool {
        self.passthrough().any(|(usage, _, _)| usage == Usage::Fog) || self.state.fog.is_some()
    }

    /// The pass-through outputs: (usage, index, input) of each semantic of
    /// [`VertexOutputs::passthrough`] the stage does not compute and the declaration has.
    fn passthrough(&self) -> impl Iterator<Item = (Usage, u8, usize)> + '_ {
        self.outputs
            .passthrough
            .iter()
            .filter_map(move |&(usage, index)| {
                let computed = match usage {
                    Usage::Color | Usage::Position | Usage::PSize => true,
                    Usage::TexCoord => index < 8,
                    Usage::Fog => self.state.fog.is_some(),
                    _ => false,
                };
                let input = self.input(Semantic::new(usage, index))?;
                (!computed).then_some((usage, index, input))
            })
    }

    /// The input register of the element of `semantic`.
    fn input(&self, semantic: Semantic) -> Option<usize> {
        self.declaration
            .elements()
            .iter()
            .position(|e| e.semantic() == semantic)
    }

    /// The vs_3_0 program, unchecked (element i read as `v<i>`).
    pub fn build(&self) -> Result<Program, FixedFunctionError> {
        vertex::build(self)
    }

    /// The program built and checked: against `caps`, or against software vertex
    /// processing's where [`Self::software_constants`].
    pub fn program(&self, caps: &DeviceCaps) -> Result<FixedFunctionVertex, FixedFunctionError> {
        let program = self.build()?;
        let software;
        let caps = if self.software_constants() {
            software = DeviceCaps::software();
            &software
        } else {
            caps
        };
        Ok(FixedFunctionVertex {
            program: check(&program, Stage::Vertex, caps)?,
            declaration: self.declaration.clone(),
        })
    }
}

#[cfg(test)]
mod tests;
