//! What a translated shader expects from its caller: bind groups and bindings, vertex inputs,
//! inter-stage outputs, pixel inputs and colour/depth outputs, and the constants the shader
//! itself defines.
//!
//! Binding layout of vertex shaders:
//! - group [`VS_CONSTANTS_GROUP`]: float constants `c#` at [`FLOAT_CONSTANTS_BINDING`]
//!   (`array<vec4<f32>, N + 1>`, a uniform buffer, or a read-only storage buffer in software
//!   vertex processing where 8192 registers exceed the 64 KiB uniform limit), integer constants
//!   `i#` at [`INT_CONSTANTS_BINDING`] (`array<vec4<i32>, 16>`), boolean constants `b#` at
//!   [`BOOL_CONSTANTS_BINDING`] (one `u32`, bit n = `b#n`), and the position fix-up at
//!   [`POSITION_FIXUP_BINDING`] (`vec4<f32>`; the shader adds `fixup.xyz * position.w` to the
//!   position, which is how the backend applies D3D9's half-pixel offset and depth bias), and
//!   with point
//!   expansion the point render states at [`POINT_BINDING`].
//! - group [`VS_TEXTURES_GROUP`]: for vertex sampler `s#n`, the texture at
//!   [`texture_binding`]`(n)` and the sampler at [`sampler_binding`]`(n)`.
//!
//! Binding layout of pixel shaders (the groups after the vertex stage's, so one pipeline
//! layout holds both stages):
//! - group [`PS_CONSTANTS_GROUP`]: `c#` at [`FLOAT_CONSTANTS_BINDING`] (a uniform
//!   `array<vec4<f32>, N + 1>`, N = [`PS2_FLOAT_CONSTANTS`] in ps_2_0/2_x,
//!   [`PS3_FLOAT_CONSTANTS`] in ps_3_0), `i#` at [`INT_CONSTANTS_BINDING`]
//!   (`array<vec4<i32>, 16>`) and `b#` at [`BOOL_CONSTANTS_BINDING`] (one `u32`), the same
//!   shapes as the vertex side's hardware layout; with fixed-function fog, the fog render
//!   states at [`FOG_BINDING`] (`array<vec4<f32>, 2>`: colour, then start, end, density).
//! - group [`PS_TEXTURES_GROUP`]: for sampler `s#n`, the texture at [`texture_binding`]`(n)`
//!   and the sampler at [`sampler_binding`]`(n)`.
//!
//! Pixel inputs travel as the link's [`Varying`]s say: the inter-stage variable at a location
//! is `vecN<f32>` (`f32` for N = 1), N the largest `component + components` of the varyings at
//! that location; a varying occupies components `component .. component + components`; the
//! j-th component of a pixel input's declared mask reads component `component + j`, and
//! components past `components` read the semantic's default
//! ([`Semantic::unwritten_value`]). Without a link map, each input travels alone at its own
//! location (signature order) as a `vec4<f32>`.
//!
//! Only resources the shader uses are present; the interface says which.

use crate::bytecode::{TextureType, WriteMask};
use crate::decl::FetchConversion;
use crate::signature::Semantic;

/// Bind group of the vertex shader's constants.
pub const VS_CONSTANTS_GROUP: u32 = 0;
/// Binding of the float constants `c#`.
pub const FLOAT_CONSTANTS_BINDING: u32 = 0;
/// Binding of the integer constants `i#`.
pub const INT_CONSTANTS_BINDING: u32 = 1;
/// Binding of the boolean constants `b#`: a `u32` bit mask (bit n = `b#n`) in hardware vertex
/// processing; in software vertex processing `array<vec4<u32>, 16>`, 2048 bits, `b#n` being bit
/// `n % 32` of word `n / 32` (word w = element `w / 4`, component `w % 4`).
pub const BOOL_CONSTANTS_BINDING: u32 = 2;
/// Binding of the position fix-up (`vec4<f32>`, `.xy` used).
pub const POSITION_FIXUP_BINDING: u32 = 3;
/// Binding of the point expansion's render states in [`VS_CONSTANTS_GROUP`]
/// (`array<vec4<f32>, 3>`: `PointConstants::data`), with `VertexShaderOptions::point_expansion`.
pub const POINT_BINDING: u32 = 4;
/// Binding of the user clip planes in [`VS_CONSTANTS_GROUP`] (`array<vec4<f32>, 6>`, clip
/// space; zeros for a disabled plane), with `VertexShaderOptions::clip_planes`.
pub const CLIP_PLANES_BINDING: u32 = 5;
/// How many user clip planes D3D9 has (`D3DMAXUSERCLIPPLANES`).
pub const CLIP_PLANES: u32 = 6;
/// Binding of the fixed-function fog render states in [`PS_CONSTANTS_GROUP`]
/// (`array<vec4<f32>, 2>`: `FogConstants::data`).
pub const FOG_BINDING: u32 = 3;
/// Binding of the alpha test's reference in [`PS_CONSTANTS_GROUP`] (`vec4<f32>`:
/// [`alpha_ref_data`]).
pub const ALPHA_TEST_BINDING: u32 = 4;

/// The alpha test's uniform: `.x` is `D3DRS_ALPHAREF` clamped to 0..=255, as a float (the
/// shader compares it with the alpha quantised to 8 bits; see `lift/alpha_test.rs`).
pub fn alpha_ref_data(alpha_ref: u32) -> [f32; 4] {
    [alpha_ref.min(255) as f32, 0.0, 0.0, 0.0]
}

/// Bind group of vertex textures and samplers.
pub const VS_TEXTURES_GROUP: u32 = 1;
/// Bind group of the pixel shader's constants (`c#`, `i#`, `b#` at the same bindings as the
/// vertex side's).
pub const PS_CONSTANTS_GROUP: u32 = 2;
/// Bind group of pixel textures and samplers.
pub const PS_TEXTURES_GROUP: u32 = 3;
/// Binding (in [`PS_CONSTANTS_GROUP`]) of the ps_1_x bump-environment uniform
/// `array<vec4<f32>, 16>`: element `2n` is `(D3DTSS_BUMPENVMAT00, 01, 10, 11)` of stage n,
/// element `2n + 1` is `(D3DTSS_BUMPENVLSCALE, D3DTSS_BUMPENVLOFFSET, 0, 0)` of stage n.
pub const BUMP_ENV_BINDING: u32 = 3;
/// Texture stages of the bump-environment uniform.
pub const BUMP_ENV_STAGES: u32 = 8;
/// Float constant registers of ps_2_0 and ps_2_x.
pub const PS2_FLOAT_CONSTANTS: u32 = 32;
/// Float constant registers of ps_3_0.
pub const PS3_FLOAT_CONSTANTS: u32 = 224;
/// Float constant registers in hardware vertex processing (`MaxVertexShaderConst`).
pub const HW_FLOAT_CONSTANTS: u32 = 256;
/// Float constant registers in software vertex processing.
pub const SW_FLOAT_CONSTANTS: u32 = 8192;
/// Integer constant registers `i#` in hardware vertex processing.
pub const INT_CONSTANTS: u32 = 16;
/// Boolean constant registers `b#` in hardware vertex processing.
pub const BOOL_CONSTANTS: u32 = 16;
/// Integer constant registers `i#` in software vertex processing (`array<vec4<i32>, 2048>`).
pub const SW_INT_CONSTANTS: u32 = 2048;
/// Boolean constant registers `b#` in software vertex processing.
pub const SW_BOOL_CONSTANTS: u32 = 2048;
/// Inter-stage variables WebGPU allows (`maxInterStageShaderVariables`).
pub const MAX_INTER_STAGE_VARIABLES: usize = 16;

/// The texture binding of sampler `s#sampler` (either stage, in its textures group).
pub const fn texture_binding(sampler: u32) -> u32 {
    2 * sampler
}

/// The sampler binding of sampler `s#sampler` (either stage, in its textures group).
pub const fn sampler_binding(sampler: u32) -> u32 {
    2 * sampler + 1
}

/// The float constant buffer: `array<vec4<f32>, registers + 1>`; element `registers` is the zero
/// register that out-of-range relative reads hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FloatConstants {
    pub group: u32,
    pub binding: u32,
    /// Addressable registers (256, or 8192 in software vertex processing).
    pub registers: u32,
    /// Whether the buffer is a read-only storage buffer (software vertex processing) rather
    /// than a uniform buffer.
    pub storage: bool,
    /// `VertexShaderOptions::float_constants_window`, where it applies: the binding is
    /// `array<vec4<f32>, window>` and `c#n` is element `instance_index + n` (the zero
    /// register at `instance_index + registers`).
    pub window: Option<u32>,
}

/// A uniform binding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UniformBinding {
    pub group: u32,
    pub binding: u32,
}

/// A texture and sampler pair of sampler register `s#register` (vertex `texldl`, pixel
/// `texld*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SamplerBinding {
    pub register: u32,
    /// From `dcl_2d` / `dcl_cube` / `dcl_volume`: a `texture_2d`, `texture_cube` or
    /// `texture_3d` of `f32`.
    pub texture_type: TextureType,
    /// A colour texture, or a `texture_depth_2d` read raw or through a comparison sampler
    /// (`PixelShaderOptions::sampler_reads`).
    pub read: SamplerRead,
    pub group: u32,
    pub texture_binding: u32,
    pub sampler_binding: u32,
}

/// One vertex input register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VertexInput {
    /// The `v#` register.
    pub register: u32,
    /// Its semantic (declared, or the DX8 register table for undeclared vs_1_1 inputs).
    pub semantic: Option<Semantic>,
    /// The shader location it is fetched from; `None` when no element supplies it (it reads
    /// (0, 0, 0, 0)).
    pub location: Option<u32>,
    /// The conversion applied after the fetch (`Float` = a plain `vec4<f32>` input).
    pub conversion: FetchConversion,
}

/// One output of the vertex shader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VertexOutput {
    pub semantic: Semantic,
    /// The `o#` register (vs_3_0) holding it; `None` for the fixed outputs before 3.0 and for
    /// outputs only the location map asks for.
    pub register: Option<u32>,
    /// The components of the register it occupies (declared mask in vs_3_0, written mask
    /// before).
    pub mask: WriteMask,
    /// `@location`, or `None` for the position builtin and for outputs dropped by the map.
    pub location: Option<u32>,
    /// The first component of the location's variable that carries it (0 unless several
    /// semantics share the location).
    pub component: u8,
    /// Components it occupies in the inter-stage variable (1 = `f32` … 4 = `vec4<f32>` when
    /// alone at its location).
    pub components: u8,
    /// How the location is interpolated.
    pub interpolation: VaryingInterpolation,
    /// Whether the shader writes it (false: it carries its default).
    pub written: bool,
}

impl VertexOutput {
    /// Where it travels, if it has a location.
    pub fn varying(&self) -> Option<Varying> {
        Some(Varying {
            semantic: self.semantic,
            location: self.location?,
            component: self.component,
            components: self.components,
            interpolation: self.interpolation,
        })
    }
}

/// How an inter-stage value is interpolated. Decided per link, so that both stages state the
/// same interpolation as WebGPU requires: centroid from the pixel shader's `_centroid`, flat
/// for COLOR0/1 under `D3DSHADE_FLAT`, perspective otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum VaryingInterpolation {
    #[default]
    Perspective,
    Centroid,
    Flat,
}

impl VaryingInterpolation {
    /// The naga interpolation and sampling: perspective at the pixel centre, perspective at
    /// the centroid, or flat (no sampling: WebGPU's default, the first vertex, which is
    /// D3D9's flat-shading vertex). What WGSL `@interpolate(perspective, center)`,
    /// `@interpolate(perspective, centroid)` and `@interpolate(flat)` give.
    pub fn naga(self) -> (naga::Interpolation, Option<naga::Sampling>) {
        match self {
            VaryingInterpolation::Perspective => (
                naga::Interpolation::Perspective,
                Some(naga::Sampling::Center),
            ),
            VaryingInterpolation::Centroid => (
                naga::Interpolation::Perspective,
                Some(naga::Sampling::Centroid),
            ),
            VaryingInterpolation::Flat => (naga::Interpolation::Flat, None),
        }
    }

    /// The `@location(location)` binding with this interpolation.
    pub fn binding(self, location: u32) -> naga::Binding {
        let (interpolation, sampling) = self.naga();
        naga::Binding::Location {
            location,
            interpolation: Some(interpolation),
            sampling,
            blend_src: None,
            per_primitive: false,
        }
    }
}

/// Where one semantic travels between the vertex and the pixel stage: components
/// `component .. component + components` of the inter-stage variable at `@location(location)`
/// (the semantic's components compacted: its j-th written component is the location's
/// component `component + j`). Several semantics share a location only when more than the
/// WebGPU limit travel (all of the same interpolation); see [`mod@super::link`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Varying {
    pub semantic: Semantic,
    pub location: u32,
    /// The first component of the location's vector that carries this semantic (0–3).
    pub component: u8,
    /// Components that travel (1–4): what the vertex shader writes; missing ones read the
    /// semantic's default.
    pub components: u8,
    pub interpolation: VaryingInterpolation,
}

impl Varying {
    /// A semantic alone at a location, interpolated with perspective.
    pub fn new(semantic: Semantic, location: u32, components: u8) -> Varying {
        Varying {
            semantic,
            location,
            component: 0,
            components,
            interpolation: VaryingInterpolation::Perspective,
        }
    }

    /// The components of the location's variable it occupies.
    pub fn end(&self) -> u8 {
        self.component.saturating_add(self.components)
    }
}

/// One input of a pixel shader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PixelInput {
    /// The register read: `v#` (ps_3_0 inputs, and colours before 3.0) or `t#` (texture
    /// coordinates before 3.0).
    pub register: crate::bytecode::Register,
    /// Its semantic: declared in ps_3_0, COLOR# for `v#` and TEXCOORD# for `t#` before.
    pub semantic: Semantic,
    /// The components the shader declares (or, in ps_1_x, reads).
    pub mask: WriteMask,
    /// `_centroid` on its declaration.
    pub centroid: bool,
    /// Where it arrives; `None`: nothing supplies it and it reads the semantic's default.
    pub varying: Option<Varying>,
}

/// Everything a caller needs to bind and feed a translated shader (vertex or pixel).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ShaderInterface {
    pub float_constants: Option<FloatConstants>,
    pub int_constants: Option<UniformBinding>,
    pub bool_constants: Option<UniformBinding>,
    pub position_fixup: Option<UniformBinding>,
    pub samplers: Vec<SamplerBinding>,
    pub inputs: Vec<VertexInput>,
    pub outputs: Vec<VertexOutput>,
    /// `def c#` values (raw bits as f32): the backend writes them over the application's
    /// constants so that relative reads see them; direct reads are already literals.
    pub defined_floats: Vec<(u32, [f32; 4])>,
    /// `defi i#` values (compiled in as literals).
    pub defined_ints: Vec<(u32, [i32; 4])>,
    /// `defb b#` values (compiled in as literals).
    pub defined_bools: Vec<(u32, bool)>,
    /// `Some(n)`: the module reads `c#` only directly, registers `0..n` covering every read
    /// (`n` past `registers` where it reads the spare zero register); `None` where it reads
    /// with a run-time index (relative addressing), so any register may be read. A draw needs
    /// only those registers' values in its buffer (the device copies no more).
    pub float_constants_read: Option<u32>,
    /// Float constant ranges read with relative addressing: `(base, count)` means registers
    /// `base + addr .. base + addr + count` for a run-time address `addr` (a0 or aL).
    pub relative_constant_reads: Vec<(u32, u32)>,
    /// Whether the shader writes point size (`oPts` or a `psize` output). WebGPU has no point
    /// size; the backend expands points itself.
    pub writes_point_size: bool,
    /// Vertex shaders with point expansion: the point render states' uniform
    /// ([`POINT_BINDING`], filled with `PointConstants::data`).
    pub points: Option<UniformBinding>,
    /// Vertex shaders with `VertexShaderOptions::clip_planes`: the clip planes' uniform
    /// ([`CLIP_PLANES_BINDING`], `array<vec4<f32>, 6>`).
    pub clip_planes: Option<UniformBinding>,
    /// Pixel shaders: the inputs, in register order.
    pub pixel_inputs: Vec<PixelInput>,
    /// Pixel shaders: the colour outputs, `@location(n)` for render target n (0–3): `oC0`
    /// always (0 when the shader never writes it), `oC1`–`oC3` when written (`r0` is oC0
    /// before ps_2_0).
    pub color_outputs: Vec<u32>,
    /// Pixel shaders: whether the shader writes depth (`oDepth`, ps_1_x `texdepth`,
    /// `texm3x2depth`).
    pub writes_depth: bool,
    /// Pixel shaders: whether `vPos` (ps_3_0) is read.
    pub reads_position: bool,
    /// Pixel shaders: whether `vFace` (ps_3_0) is read.
    pub reads_face: bool,
    /// ps_1_x: the bump-environment uniform ([`BUMP_ENV_BINDING`]), when `texbem`,
    /// `texbeml` or `bem` reads it.
    pub bump_env: Option<UniformBinding>,
    /// Pixel shaders with fixed-function fog: the fog render states' uniform.
    pub fog: Option<UniformBinding>,
    /// Pixel shaders with the alpha test compiled in (`PixelShaderOptions::alpha_test`
    /// other than `Never` and `Always`): the reference's uniform ([`ALPHA_TEST_BINDING`],
    /// filled with [`alpha_ref_data`]).
    pub alpha_ref: Option<UniformBinding>,
    /// The `i#` registers that `loop`/`rep` read (those not `defi`'d) as pipeline-overridable
    /// constants, in register order: a pipeline built with [`Self::loop_constant_values`]
    /// runs its loops with those values compiled in; one built without reads the uniform.
    pub loop_constants: Vec<LoopConstant>,
}

/// An `i#` register a `loop` or `rep` reads, as pipeline-overridable constants: where the
/// bool `flag` is true the loops take count, start and step (`i#.x`, `.y`, `.z`) from the
/// i32 `components` instead of the uniform. All four default to false / 0 (the uniform).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoopConstant {
    pub register: u32,
    /// The flag's name (`vs_i0_spec`; `ps_` in pixel shaders).
    pub flag: String,
    /// The names of x, y, z (`vs_i0_x`, `vs_i0_y`, `vs_i0_z`).
    pub components: [String; 3],
}

impl LoopConstant {
    /// The pipeline constants (name, value) that fix the register to `value`.
    pub fn constants(&self, value: [i32; 4]) -> [(&str, f64); 4] {
        let [x, y, z] = &self.components;
        [
            (self.flag.as_str(), 1.0),
            (x.as_str(), f64::from(value[0])),
            (y.as_str(), f64::from(value[1])),
            (z.as_str(), f64::from(value[2])),
        ]
    }
}

impl ShaderInterface {
    /// The (name, value) pairs that fix every loop's `i#` to its value in `ints` (`i0`…;
    /// registers past its end read 0): for [`super::resolve_overrides`], or as WebGPU
    /// pipeline constants of the WGSL text.
    pub fn loop_constant_values(&self, ints: &[[i32; 4]]) -> Vec<(&str, f64)> {
        self.loop_constants
            .iter()
            .flat_map(|l| l.constants(ints.get(l.register as usize).copied().unwrap_or([0; 4])))
            .collect()
    }

    /// The output with this semantic.
    pub fn output(&self, semantic: Semantic) -> Option<&VertexOutput> {
        self.outputs.iter().find(|o| o.semantic == semantic)
    }

    /// The input of register `v#register`.
    pub fn input(&self, register: u32) -> Option<&VertexInput> {
        self.inputs.iter().find(|i| i.register == register)
    }
}

/// A (location, conversion) pair, for [`VertexInput`]s built from fetches.
pub(super) fn plain_input(register: u32, semantic: Option<Semantic>) -> VertexInput {
    VertexInput {
        register,
        semantic,
        location: Some(register),
        conversion: FetchConversion::Float,
    }
}

/// How a pixel shader's sampler reads the texture bound to it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum SamplerRead {
    /// A colour texture (`texture_2d/cube/3d<f32>`).
    #[default]
    Color,
    /// A depth texture read raw; `linear`: the sampler filters linearly (the shader weights
    /// the gathered texels).
    Depth {
        channels: DepthChannels,
        linear: bool,
    },
    /// A shadow map: the depth comparison of the coordinate's z, through a comparison
    /// sampler (`LESSEQUAL`).
    Shadow,
    /// A colour texture whose GPU format holds only its first `channels` (1 or 2) of red and
    /// green: D3D9 reads the missing ones of r, g, b as 1 where WebGPU reads 0 (render-target
    /// textures of `R16F`, `R32F`: (r, 1, 1, 1); `G16R16F`, `G32R32F`, `G16R16`: (r, g, 1, 1)).
    /// Any texture type.
    Narrow { channels: u8 },
}

impl SamplerRead {
    /// Reads a depth texture (raw or as a shadow map).
    pub fn is_depth(self) -> bool {
        matches!(self, SamplerRead::Depth { .. } | SamplerRead::Shadow)
    }

    /// D3D9's missing-channel rule for a colour read: per channel (r, g, b, a), whether the
    /// texel's value is read (`true`) or 1, the value D3D9 gives a channel the format lacks
    /// ([`SamplerRead::Narrow`]: r, and g with two channels; alpha is the texel's). Every
    /// channel is the texel's for other reads. The lifter and the device's fixed-function
    /// pixel stage both apply this.
    pub fn texel_channels(self) -> [bool; 4] {
        match self {
            SamplerRead::Narrow { channels } => [true, channels >= 2, false, true],
            _ => [true; 4],
        }
    }
}

/// Where a raw depth read puts the depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum DepthChannels {
    /// (d, d, d, d): `INTZ`.
    All,
    /// (d, 0, 0, 1): `DF16`, `DF24`.
    Red,
}

/// What a pixel sampler's D3D9 states ask of the shader beyond what a WebGPU sampler holds
/// (`PixelShaderOptions::sampler_fixups`, index = `s#` / ps_1_x stage; see `lift/texture.rs`).
/// The default asks nothing. Applied to colour reads (raw depth reads take only `fetch4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SamplerFixup {
    /// `D3DSAMP_MIPMAPLODBIAS` as `f32` bits, added to every sample's level of detail: the
    /// implicit one, `texldb`'s bias and `texldl`'s level; `texldd`'s gradients are scaled by
    /// 2^bias (the same level). 0: none.
    pub lod_bias: u32,
    /// Per axis (u, v, w) of a 2D or volume texture, how the shader addresses it (the WebGPU
    /// sampler clamps to the edge on a fixed-up axis). Ignored on cube maps.
    pub address: [AxisFixup; 3],
    /// `D3DSAMP_BORDERCOLOR` (A8R8G8B8), read outside [0, 1] on `AxisFixup::Border` axes.
    pub border_color: u32,
    /// The sampler's min or mag filter blends: the border colour weighs in over the half texel
    /// at each edge (level 0's size), as bilinear filtering with a border gives.
    pub linear: bool,
    /// AMD's Fetch4 (`D3DSAMP_MIPMAPLODBIAS` = `GET4`) on a 2D texture of one channel: every
    /// sample returns texels of the 2x2 around the coordinate instead of a filtered texel
    /// (see `depth::fetch4`); the level of detail is ignored. `None`: off.
    pub fetch4: Option<Fetch4>,
}

/// What a Fetch4 sample returns ([`SamplerFixup::fetch4`]): of the 2x2 texels from the
/// coordinate's texel (u0, v0) on, gathered from `channel` (0–3) as a gather's lanes
/// x (u0, v1), y (u1, v1), z (u1, v0), w (u0, v0), the lanes `lanes` name in r, g, b, a.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Fetch4 {
    pub channel: u8,
    pub lanes: [u8; 4],
}

impl Fetch4 {
    /// AMD's order: (u1 v0, u0 v1, u1 v1, u0 v0) in (r, g, b, a).
    pub const AMD: [u8; 4] = [2, 0, 1, 3];
    /// The coordinate's texel in every channel (AMD's ATI1 under Fetch4).
    pub const TEXEL: [u8; 4] = [3, 3, 3, 3];
}

impl SamplerFixup {
    /// The LOD bias.
    pub fn bias(&self) -> f32 {
        f32::from_bits(self.lod_bias)
    }

    /// Whether an axis is addressed in the shader.
    pub fn addresses(&self) -> bool {
        self.address.iter().any(|a| *a != AxisFixup::None)
    }
}

/// How the shader addresses one axis of a texture (see [`SamplerFixup`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum AxisFixup {
    /// As the WebGPU sampler does.
    #[default]
    None,
    /// `D3DTADDRESS_MIRRORONCE`: the coordinate's absolute value, then clamped to the edge.
    MirrorOnce,
    /// `D3DTADDRESS_BORDER` with a colour WebGPU's border modes cannot express (or on an
    /// adapter without them): outside [0, 1] reads the border colour.
    Border,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bytecode::{
        file_rule, float_constants, RegisterFile, Stage, Version, VertexProcessing,
    };

    /// `D3DRS_ALPHAREF` is 0..=255; larger values clamp to 255.
    #[test]
    fn alpha_ref_data_clamps_the_reference() {
        for (alpha_ref, x) in [(0, 0.0), (0x80, 128.0), (255, 255.0), (256, 255.0)] {
            assert_eq!(alpha_ref_data(alpha_ref), [x, 0.0, 0.0, 0.0]);
        }
        assert_eq!(alpha_ref_data(u32::MAX)[0], 255.0);
        assert_eq!(alpha_ref_data(1.0f32.to_bits())[0], 255.0);
    }

    /// The buffer sizes callers allocate are the register-file table's counts for a typical
    /// device: the table is the one source, these constants only name its values.
    #[test]
    fn constant_counts_are_the_register_file_table() {
        let vs = Version::new(Stage::Vertex, 3, 0);
        let count = |file, vp| file_rule(vs, file, vp).map(|r| r.count.typical());
        let (hw, sw) = (VertexProcessing::Hardware, VertexProcessing::Software);
        assert_eq!(float_constants(vs, hw).typical(), HW_FLOAT_CONSTANTS);
        assert_eq!(float_constants(vs, sw).typical(), SW_FLOAT_CONSTANTS);
        assert_eq!(count(RegisterFile::ConstInt, hw), Some(INT_CONSTANTS));
        assert_eq!(count(RegisterFile::ConstBool, hw), Some(BOOL_CONSTANTS));
        assert_eq!(count(RegisterFile::ConstInt, sw), Some(SW_INT_CONSTANTS));
        assert_eq!(count(RegisterFile::ConstBool, sw), Some(SW_BOOL_CONSTANTS));
        for (major, minor, n) in [
            (2, 0, PS2_FLOAT_CONSTANTS),
            (2, 1, PS2_FLOAT_CONSTANTS),
            (3, 0, PS3_FLOAT_CONSTANTS),
        ] {
            let ps = Version::new(Stage::Pixel, major, minor);
            assert_eq!(float_constants(ps, hw).typical(), n);
            // ps_2_0 has no i#/b#; ps_2_x and ps_3_0 have the vertex side's 16 of each.
            let count = |file| file_rule(ps, file, hw).map(|r| r.count.typical());
            let expected = |n| (minor > 0 || major == 3).then_some(n);
            assert_eq!(
                count(RegisterFile::ConstInt),
                expected(INT_CONSTANTS),
                "{ps}"
            );
            assert_eq!(
                count(RegisterFile::ConstBool),
                expected(BOOL_CONSTANTS),
                "{ps}"
            );
        }
    }

    /// A format without green or blue reads them as 1 (R16F: (r, 1, 1, a); G16R16F: (r, g,
    /// 1, a)); every other read keeps the texel.
    #[test]
    fn narrow_formats_read_their_missing_channels_as_one() {
        let narrow = |channels| SamplerRead::Narrow { channels }.texel_channels();
        assert_eq!(narrow(1), [true, false, false, true]);
        assert_eq!(narrow(2), [true, true, false, true]);
        assert_eq!(SamplerRead::Color.texel_channels(), [true; 4]);
        assert_eq!(SamplerRead::Shadow.texel_channels(), [true; 4]);
    }

    /// A sampler asks for shader addressing when any axis is fixed up.
    #[test]
    fn a_sampler_addresses_when_any_axis_is_fixed_up() {
        assert!(!SamplerFixup::default().addresses());
        for axis in 0..3 {
            for fix in [AxisFixup::MirrorOnce, AxisFixup::Border] {
                let mut f = SamplerFixup::default();
                f.address[axis] = fix;
                assert!(f.addresses(), "{axis} {fix:?}");
            }
        }
    }
}
