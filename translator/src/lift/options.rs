//! The options of a stage's translation: how inputs are fetched and outputs located, the D3D9
//! arithmetic, and the fixed-function stages that follow a pixel shader (fog, alpha test).

use super::interface::{SamplerRead, Varying};
use super::wrap::WrapTwin;
use crate::decl::InputFetch;
use crate::rules::FloatMode;

/// Options of [`super::translate_vertex_shader`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VertexShaderOptions {
    /// How each `v#` is fetched, from the bound vertex declaration; `None`: every used input
    /// is a plain `vec4<f32>` at `@location(n)` for `v#n`.
    pub input_fetches: Option<Vec<InputFetch>>,
    /// Output locations from linking with a pixel shader; `None`: outputs are numbered in
    /// declaration (first-write) order. With a map, outputs it does not name are dropped and
    /// named outputs the shader never writes carry their defaults.
    pub output_locations: Option<Vec<Varying>>,
    pub float_mode: FloatMode,
    /// Add the position fix-up uniform (`position.xyz += fixup.xyz * position.w`), through
    /// which the backend applies D3D9's half-pixel offset (x, y) and depth bias (z).
    pub position_fixup: bool,
    /// Draw a point list's points as quads (see `points`): each instance of a 4-vertex
    /// strip is one point, the corner chosen by `@builtin(vertex_index)`; the point render
    /// states come from the uniform `interface.points`. `None`: no expansion.
    pub point_expansion: Option<PointExpansion>,
    /// D3D9's user clip planes (`SetClipPlane`, `D3DRS_CLIPPLANEENABLE`): write
    /// `@builtin(clip_distances)`, six distances `dot(plane[i], oPos)` of the shader's position
    /// (clip space, before the half-pixel fix-up and point expansion) from the uniform
    /// `interface.clip_planes`; a plane of zeros (a disabled one) clips nothing. Needs the
    /// device's `CLIP_DISTANCES` feature.
    pub clip_planes: bool,
    /// How each vertex sampler (index = `s#`, 0–3) reads the texture bound to it: only
    /// [`SamplerRead::Narrow`] applies here (a texture whose format lacks channels D3D9 reads
    /// as 1, as R32F's (r, 1, 1, 1)); depth textures are read on pixel samplers, and samplers
    /// past the end read colour.
    pub sampler_reads: Vec<SamplerRead>,
    /// The locations carrying wrapped texture coordinates (`D3DRS_WRAPn`): each also written
    /// at its twin's location as `fract(c + 0.5) - 0.5` (see `wrap`; a link decides them).
    pub wrap_twins: Vec<WrapTwin>,
    /// Read `c#` from a window of this many registers of a larger uniform buffer, `c#n` at
    /// element `instance_index + n` (`interface.float_constants.window`): a device that
    /// draws one instance at a time, with the place of the draw's constants in the window
    /// as its first instance, changes constants between draws without rebinding anything.
    /// Applies to hardware vertex processing without point expansion (which draws points
    /// as instances), and where the window holds the register file and its zero register;
    /// otherwise, and with `None`, `c#` is a binding of its own (`array<vec4<f32>, N + 1>`).
    pub float_constants_window: Option<u32>,
}

/// How ps_1_x arithmetic is clamped: D3D9 keeps ps_1_x values within
/// `[-MaxPixelShaderValue, MaxPixelShaderValue]` (`D3DCAPS9.MaxPixelShaderValue`; 1 on the
/// ps_1_1–1_3 hardware of the time, 8 for ps_1_4 on most cards, FLT_MAX on recent drivers).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Ps1Range {
    /// Every ps_1_x register write is clamped to ±`MaxPixelShaderValue` = the D3D9 caps value
    /// of a typical ps_1_x part: ±1 for ps_1_1–1_3, ±8 for ps_1_4.
    #[default]
    Hardware,
    /// Clamp to ±this value (`MaxPixelShaderValue`).
    Max(f32),
    /// No clamp (what DXVK does: the value range of modern hardware).
    Unclamped,
}

pub use crate::fog::FogMode;

/// Where the fog coordinate comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FogSource {
    /// Vertex fog (`D3DRS_FOGVERTEXMODE` or the shader's FOG output): the interpolated FOG
    /// value is the factor itself (what a vertex shader writes to `oFog`).
    Vertex,
    /// Table (pixel) fog (`D3DRS_FOGTABLEMODE`): the mode applied to the pixel's depth.
    Table(FogMode),
}

/// Fixed-function fog after a pixel shader (every version; ps_3_0 included, as Windows draws:
/// vkd3d's `fog.shader_test`, see `docs/decisions.md`): the colour
/// becomes `lerp(fog_colour, colour, f)` for the fog factor `f`, `D3DRS_FOG*` render states
/// read from a uniform at run time (see [`super::interface`]), so only the source and mode are
/// here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FogOptions {
    pub source: FogSource,
    /// Table fog from the pixel's clip-space w instead of its depth: D3D9 takes the fog
    /// distance from w when `D3DTS_PROJECTION` is "W-friendly" (its last column is not
    /// (0, 0, 0, 1): a perspective projection), from z otherwise (wined3d's test). Ignored by
    /// vertex fog.
    pub from_w: bool,
}

/// Options of [`super::translate_pixel_shader`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PixelShaderOptions {
    /// Input locations from linking with a vertex shader; `None`: every input travels at its
    /// own location (see [`super::interface`]) as a `vec4<f32>`.
    pub input_locations: Option<Vec<Varying>>,
    pub float_mode: FloatMode,
    /// The ps_1_x value range.
    pub ps1_range: Ps1Range,
    /// Fixed-function fog after the shader (`None`: `D3DRS_FOGENABLE` off), in every version.
    /// Whether a ps_3_0 shader gets it is the caller's choice: Windows applies it (vkd3d's
    /// `fog.shader_test`), the SDK's text, DXVK and wined3d do not (`docs/decisions.md`).
    pub fog: Option<FogOptions>,
    /// The type of the texture bound to each sampler (index = stage = `s#`); samplers past
    /// the end of the list are 2D, `Unknown` counts as 2D. ps_1_x takes its texture types
    /// from it (D3D9 takes them from the bound texture at draw time: ps_1_x has no `dcl s#`);
    /// from ps_2_0 on a volume bound to a `dcl_2d` sampler is read as a volume at depth 0.5
    /// (Windows in Wine's test_mismatched_sample_types; see `texture`), other types are the
    /// declaration's.
    pub texture_types: Vec<crate::bytecode::TextureType>,
    /// ps_1_1–1_3: each stage's `D3DTSS_TEXTURETRANSFORMFLAGS` (`D3DTTFF_COUNT1..4` = 1–4,
    /// `D3DTTFF_PROJECTED` = 256); stages past the end are 0. With `PROJECTED`, `tex` and
    /// `texbem`/`texbeml` divide the stage's coordinate by its `.y`, `.z` or `.w` (`COUNT2`,
    /// `COUNT3`, `COUNT4` or none), except on a cube map (see `ps1`).
    pub ps1_texture_transform_flags: Vec<u32>,
    /// The alpha test after the shader and fog (`None`: `D3DRS_ALPHATESTENABLE` off), on
    /// oC0's alpha (`r0` in ps_1_x) quantised to 8 bits, against `D3DRS_ALPHAREF` read from a
    /// uniform (see `lift/alpha_test.rs`); a failing pixel is discarded.
    pub alpha_test: Option<CompareFunction>,
    /// Render target 0 has a floating-point format: the alpha test compares the alpha as it
    /// is, `alpha FUNC ref / 255`, instead of quantising it to 8 bits (see
    /// `lift/alpha_test.rs`).
    pub alpha_test_float_target: bool,
    /// How each sampler (index = `s#` / ps_1_x stage) reads the texture bound to it: a depth
    /// texture raw or as a shadow map on a 2D sampler (see `depth`); samplers past the end
    /// read colour.
    pub sampler_reads: Vec<SamplerRead>,
    /// What each sampler's states ask of the shader (index = `s#` / ps_1_x stage): the LOD
    /// bias, `MIRRORONCE` and border colours WebGPU cannot express (see `texture`); samplers
    /// past the end ask nothing.
    pub sampler_fixups: Vec<super::interface::SamplerFixup>,
    /// ps_1_x: write `r0` to the colour output as it is instead of saturated (D3D9's ps_1_x
    /// colour output is [0, 1]). For tests that observe the register range through a float
    /// target; a device never sets it.
    pub ps1_unsaturated_output: bool,
    /// The locations carrying wrapped texture coordinates (`D3DRS_WRAPn`) and their twins:
    /// each wrapped component reads the twin where it changes less across the pixel (see
    /// `wrap`; a link decides them).
    pub wrap_twins: Vec<WrapTwin>,
}

/// `D3DCMPFUNC`: how the alpha test compares the pixel's alpha with the reference
/// (`alpha FUNC ref`; the pixel survives when the comparison holds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CompareFunction {
    /// `D3DCMP_NEVER` (1): every pixel is discarded.
    Never,
    /// `D3DCMP_LESS` (2).
    Less,
    /// `D3DCMP_EQUAL` (3).
    Equal,
    /// `D3DCMP_LESSEQUAL` (4).
    LessEqual,
    /// `D3DCMP_GREATER` (5).
    Greater,
    /// `D3DCMP_NOTEQUAL` (6).
    NotEqual,
    /// `D3DCMP_GREATEREQUAL` (7).
    GreaterEqual,
    /// `D3DCMP_ALWAYS` (8): every pixel survives.
    Always,
}

impl CompareFunction {
    /// The function of a `D3DCMPFUNC` value (`D3DCMP_NEVER` = 1 … `D3DCMP_ALWAYS` = 8);
    /// `None` for any other value.
    pub fn from_d3d(value: u32) -> Option<CompareFunction> {
        use CompareFunction as C;
        Some(match value {
            1 => C::Never,
            2 => C::Less,
            3 => C::Equal,
            4 => C::LessEqual,
            5 => C::Greater,
            6 => C::NotEqual,
            7 => C::GreaterEqual,
            8 => C::Always,
            _ => return None,
        })
    }
}

/// How the vertex entry point expands a point into a quad (see `points`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PointExpansion {
    /// `D3DRS_POINTSPRITEENABLE`: texture coordinate outputs become the sprite coordinate.
    pub sprite: bool,
    /// `D3DRS_POINTSCALEENABLE` for fixed-function vertices: the size is scaled by the
    /// distance from the eye. The eye-space position is the shader's POSITION1 output when
    /// it writes one (a generated fixed-function stage writes `v · World · View` there),
    /// else its position output (right for identity world, view and projection).
    pub scale: bool,
}
