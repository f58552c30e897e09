//! Lifting D3D9 vertex shaders (vs_1_1 … vs_3_0) and pixel shaders (ps_1_1 … ps_3_0) into
//! validated naga modules and WGSL.
//!
//! [`translate_vertex_shader`] and [`translate_pixel_shader`] build a `naga::Module` with one
//! entry point named [`ENTRY_POINT`], validate it with naga's validator (a failure is a
//! translator bug and is returned as [`LiftError::Internal`], never handed out), and describe
//! in [`ShaderInterface`] which bindings and locations a caller must feed and read.
//! [`translate_pair`] is a draw's pair: the link decided from the two checked programs, then
//! each stage lifted once with its map.
//!
//! Module layout, in layers; imports run one way, from a layer to those before it:
//! - data: `options` (each stage's options), `interface` (what callers bind), `error`,
//!   `link_interface` (what linking reads of a program, before lifting), `wrap` (texture
//!   wrapping's state and twin locations), `link` (vertex outputs to pixel inputs);
//! - the state the lifter owns: `function` (the function under construction: open blocks,
//!   what is known of its values), `state` (register file, I/O map, resource map, ps_1_x's
//!   pending state);
//! - the lifter and its basic verbs: `builder` (emit, push, types, loads and stores);
//! - emission, each module adding verbs to the lifter: `values` (literals, lanes, operators,
//!   math, selects), `constness` and `finite` (what is known of a value: constants,
//!   finiteness), `globals` (register files as naga globals), `loads` (register reads
//!   remembered), `operands` (source reads at the written lanes), `writes` (destination and
//!   predicate writes), `numerics` (D3D9 float rules), `arith` (per-opcode lowering), `flow`
//!   (flow control), `loop_constants` (a loop's `i#` as pipeline-overridable constants), `texture` (texld*, texkill), `depth` (depth textures: shadow maps and
//!   raw depth), `ps1` (ps_1_x: texture addressing, modifiers, ranges), `inputs` (vertex
//!   fetch conversions), `outputs` (vertex output semantics and entry point), `pixel_entry`
//!   (pixel inputs, outputs and entry point), `points` (point lists drawn as quads), `fog` and
//!   `alpha_test` (the fixed-function stages after a pixel shader);
//! - drivers: `translate` (one stage: prepass, subroutines, entry point), `validate`
//!   (validated modules, WGSL), `pair` (a draw's pair).

mod alpha_test;
mod arith;
mod builder;
mod constness;
mod depth;
mod error;
mod finite;
mod flow;
mod fog;
mod function;
mod globals;
mod inputs;
pub mod interface;
pub mod link;
mod link_interface;
mod loads;
mod loop_constants;
mod numerics;
mod operands;
mod options;
mod outputs;
mod pair;
mod pixel_entry;
mod points;
mod ps1;
mod state;
mod texture;
mod translate;
mod validate;
mod values;
mod wrap;
mod writes;

pub use crate::rules::FloatMode;
pub use error::{Feature, LiftError};
pub use fog::FogConstants;
pub use interface::{
    DepthChannels, LoopConstant, SamplerRead, ShaderInterface, Varying, VaryingInterpolation,
};
pub use link::{link, Link, LinkError, LinkOptions};
pub use loop_constants::resolve_overrides;
pub use options::{
    CompareFunction, FogMode, FogOptions, FogSource, PixelShaderOptions, PointExpansion, Ps1Range,
    VertexShaderOptions,
};
pub use outputs::ENTRY_POINT;
pub use pair::{
    translate_pair, PairError, PairOptions, PairPixelStage, PairVertexStage, TranslatedPair,
};
pub use points::PointConstants;
pub use translate::{translate_pixel_shader, translate_vertex_shader};
pub use validate::{validate, TranslatedShader, NONUNIFORM_DERIVATIVES_DIRECTIVE};
pub use wrap::{NoTwinLocation, TextureWrap, WrapTwin};

/// The error of [`translate_vertex_shader`] and [`translate_pixel_shader`].
pub type Error = LiftError;
