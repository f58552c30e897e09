//! The fixed-function stages the device generates, for draws made without a vertex shader
//! (or with a pre-transformed declaration, where D3D9 skips the vertex shader) or without a
//! pixel shader.
//!
//! - Vertex stage: the translator's (`d3d9_translator::fixed_function`): the device reads
//!   its [`VertexState`] from the raw states (`keys`), and the draw's pairing hands the
//!   description to `translate_pair`, which builds, checks and lifts its program (also what
//!   `ProcessVertices` runs in the interpreter); its numbers are float constants of the
//!   translator's layout (`registers`), filled here (`constants`) with the lights and
//!   material of `lighting`.
//! - Pixel stage (`pixel`): the eight texture stages (`stages`: every `D3DTEXTUREOP` for
//!   colour and alpha, every argument and modifier, `RESULTARG`, 2D/cube/volume textures,
//!   bump mapping, projected coordinates), specular add, fog and the alpha test; generated
//!   per [`PixelKey`] as WGSL, its numbers in one uniform.
//! - `keys`: the two keys from the device state at draw time.
//!
//! What decides the code is in the keys (the pairing cache holds one pair per key); what
//! only changes numbers is read at run time, so a draw never generates a stage for a new
//! matrix, light position, colour or fog distance.

mod constants;
mod keys;
mod lighting;
mod pixel;
mod stages;

use d3d9_translator::lift::FogMode as Equation;

use super::state::FogMode;

pub(crate) use constants::{bump_env_data, pixel_uniform, vertex_constants};
pub use d3d9_translator::fixed_function::LightType;
pub(crate) use lighting::Lights;
pub use lighting::{Light, Material, MAX_ACTIVE_LIGHTS};
pub use pixel::FIXED_FUNCTION_ENTRY_POINT;
pub(crate) use pixel::{
    pixel_stage_wgsl, PixelFog, PixelKey, FF_FOG_LOCATION, FF_TEXCOORD_LOCATIONS,
    PIXEL_UNIFORM_BINDING, PIXEL_UNIFORM_GROUP,
};
pub use stages::{StageArg, StageOp, TextureStage};

/// The fog render states of a draw (the pixel constants' bind-group key holds them, and
/// pixel shaders' fog stage reads the mode).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct FogState {
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
    /// Table fog from w (a W-friendly projection, `Transforms::w_fog`).
    pub from_w: bool,
}

/// [`FogState::key`]: the fog states as hashable bits.
pub(crate) type FogKey = (bool, u32, FogMode, FogMode, [u32; 3], bool);

impl FogState {
    /// The fog render states of `render`; `from_w` as `Transforms::w_fog` says.
    pub(crate) fn of(render: &super::state::RenderStates, from_w: bool) -> FogState {
        FogState {
            from_w,
            enable: render.fog_enable,
            colour: render.fog_color,
            table: render.fog_table_mode,
            vertex: render.fog_vertex_mode,
            start: render.fog_start,
            end: render.fog_end,
            density: render.fog_density,
        }
    }

    /// The state as hashable bits.
    pub(crate) fn key(&self) -> FogKey {
        (
            self.enable,
            self.colour,
            self.table,
            self.vertex,
            [
                self.start.to_bits(),
                self.end.to_bits(),
                self.density.to_bits(),
            ],
            self.from_w,
        )
    }
}

/// The fog equation of a `D3DFOGMODE`; `None` for `D3DFOG_NONE`.
pub(crate) fn fog_equation(mode: FogMode) -> Option<Equation> {
    match mode {
        FogMode::None => None,
        FogMode::Linear => Some(Equation::Linear),
        FogMode::Exp => Some(Equation::Exp),
        FogMode::Exp2 => Some(Equation::Exp2),
    }
}
