//! The fixed-function stages the device generates, for draws made without a vertex shader
//! or without a pixel shader.
//!
//! - Vertex stage (no vertex shader, or a pre-transformed declaration): world, view and
//!   projection from `SetTransform` (read from float constants, see `transform`); this
//!   device has no `SetLight` or `SetMaterial`, so lighting runs with no lights and the
//!   default material. It is written as a vs_3_0 shader for the declaration
//!   ([`fixed_function_vertex_shader`]) and translated like an application's shader.
//! - Pixel stage (no pixel shader): texture stages 0 and 1 with the colour operations
//!   SELECTARG1/2, MODULATE and ADD of DIFFUSE, SPECULAR, TEXTURE (the stage's texture),
//!   TFACTOR and CURRENT ([`TextureStage`]); the alpha is D3D9's default alpha stages' (stage
//!   0's texture alpha with a texture, else the diffuse alpha); then fog and the alpha test. Anything else is refused by the draw with the reason.

use d3d9_translator::bytecode::Usage;
use d3d9_translator::decl::{VertexDeclaration, VertexElement};
use d3d9_translator::lift::interface::PS_TEXTURES_GROUP;
use d3d9_translator::lift::CompareFunction;

use super::state::{FogMode, Viewport};
use crate::FIXED_FUNCTION_ENTRY_POINT;

/// `D3DTSS_COLOROP` of a texture stage (the operations the replayed tests use).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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

/// The locations of texture coordinate sets 0 and 1 in the fixed-function pixel stage
/// (after diffuse 0, specular 1 and fog 3).
pub(crate) const FF_TEXCOORD_LOCATIONS: [u32; 2] = [2, 4];

/// `D3DTSS_COLORARG1/2` of a texture stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StageArg {
    /// `D3DTA_DIFFUSE`: the interpolated COLOR0, clamped.
    Diffuse,
    /// `D3DTA_SPECULAR`: the interpolated COLOR1, clamped.
    Specular,
    /// `D3DTA_TEXTURE`: the stage's texture (sampler n for stage n) at texture coordinate
    /// set n; opaque white without a texture, so that the default `MODULATE(TEXTURE,
    /// CURRENT)` is the diffuse.
    Texture,
    /// `D3DTA_TFACTOR`: `D3DRS_TEXTUREFACTOR`.
    TFactor,
    /// `D3DTA_CURRENT`: the previous stage's result (the diffuse for stage 0).
    Current,
}

/// The colour states of one texture stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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

/// The fog render states the generated stages bake in (the fixed-function stages are
/// generated per state, so these are part of the pairing cache key).
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

/// The fixed-function vertex stage for `decl` as vs_3_0 assembly, and the declaration it
/// reads (POSITIONT read as POSITION: the shader maps it back to clip space itself). No
/// lights can be set on this device.
///
/// - POSITION: the eye-space position `e = v · World · View` from `c0`–`c3`, the clip-space
///   position `e · Projection` from `c4`–`c7` (`transform`'s register layout; the device
///   fills them from `SetTransform`, so the code does not depend on the matrices). With
///   `eye_output` (fixed-function point scaling) `e` is also written to a POSITION1
///   output, where the point expansion takes its eye distance from.
/// - POSITIONT (XYZRHW, render-target pixel coordinates; the viewport only clips): w = 1/rhw,
///   clip ((x − vx)·2/vw − 1, 1 − (y − vy)·2/vh, z, 1) · w for the viewport (vx, vy, vw, vh),
///   so that interpolation is perspective-correct with 1/rhw as D3D9 does it. z goes to the
///   depth test as given (with the default depth range 0..1). No transform applies.
/// - COLOR0: the vertex's, white (1, 1, 1, 1) without one; with lighting on (and never for
///   pre-transformed vertices) and no lights, emissive + ambient = (0, 0, 0) with the diffuse
///   alpha.
/// - COLOR1: the vertex's, (0, 0, 0, 0) without one or with lighting on.
/// - Every other element: passed through under its own semantic.
/// - FOG, with `vertex_fog` (`D3DRS_FOGENABLE` and no table fog) and no FOG element: the
///   `D3DRS_FOGVERTEXMODE` factor of the eye-space depth `e.z` (D3D9's vertex fog without
///   `D3DRS_RANGEFOGENABLE`, which this device refuses): LINEAR `(end − z)/(end − start)`,
///   EXP `e^(−z·density)`, EXP2 `e^(−(z·density)²)`; with mode NONE or pre-transformed
///   vertices, the specular alpha (0 without a specular colour), which is where D3D9 takes
///   the fog factor from then.
pub(crate) fn fixed_function_vertex_shader(
    decl: &VertexDeclaration,
    lighting: bool,
    viewport: Viewport,
    vertex_fog: Option<FogState>,
    eye_output: bool,
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
    let (w, h) = (viewport.width.max(1) as f32, viewport.height.max(1) as f32);
    let (x0, y0) = (viewport.x as f32, viewport.y as f32);
    let mut text = String::from("vs_3_0\n");
    text += "def c250, 1.0, 1.0, 1.0, 1.0\ndef c251, 0.0, 0.0, 0.0, 0.0\n";
    // Screen (x, y) to clip space on this viewport: x·2/w − 1 − 2·x0/w, 1 − y·2/h + 2·y0/h.
    text += &format!(
        "def c252, {:?}, {:?}, {:?}, {:?}\n",
        2.0 / w,
        -2.0 / h,
        -1.0 - 2.0 * x0 / w,
        1.0 + 2.0 * y0 / h
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
        Some(p) => {
            // r3 = e = v · (World · View); o0 = e · Projection (row vectors: dp4 with the
            // matrices' columns).
            for (lane, c) in ["x", "y", "z", "w"].iter().zip(0..) {
                body += &format!("dp4 r3.{lane}, v{p}, c{c}\n");
            }
            for (lane, c) in ["x", "y", "z", "w"].iter().zip(4..) {
                body += &format!("dp4 o0.{lane}, r3, c{c}\n");
            }
        }
    }
    if eye_output && !pretransformed {
        let o = next_output;
        next_output += 1;
        dcls += &format!("dcl_position1 o{o}\n");
        body += &format!("mov o{o}, r3\n");
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
        let specular_alpha = match find(Usage::Color, 1) {
            Some(v) => format!("v{v}.w"),
            None => "c251.x".to_string(),
        };
        body += &match (fog.vertex, pretransformed) {
            (FogMode::None, _) | (_, true) => format!("mov o{o}.x, {specular_alpha}\n"),
            (FogMode::Linear, false) => {
                format!("add r2.x, c253.y, -r3.z\nmul o{o}.x, r2.x, c253.z\n")
            }
            (FogMode::Exp, false) => format!("mul r2.x, r3.z, c254.x\nexp o{o}.x, r2.x\n"),
            (FogMode::Exp2, false) => format!(
                "mul r2.x, r3.z, c253.w\nmul r2.x, r2.x, r2.x\nmul r2.x, r2.x, c254.y\nexp o{o}.x, r2.x\n"
            ),
        };
    }
    Ok((text + &dcls + &body, rewritten))
}

/// The fixed-function pixel stage with the texture stages `stages` (colour operations; the
/// alpha is D3D9's default alpha stages': stage 0's texture alpha when stage 0 is active and
/// has a texture, else the diffuse alpha): diffuse at location 0, specular at 1. Stage n's
/// `D3DTA_TEXTURE` is sampler n's texture at texture coordinate set n (D3D9's default
/// `D3DTSS_TEXCOORDINDEX`): with `textures[n]` the texture is bound at `@group(3)` as a pixel
/// shader's `s`n and the coordinate comes from location [`FF_TEXCOORD_LOCATIONS`]`[n]`;
/// without, the stage reads opaque white. Colour inputs are clamped to [0, 1] as D3D9's
/// interpolated colours are; with `flat` (`D3DSHADE_FLAT`) they are the first vertex's.
pub(crate) fn fixed_function_stages_wgsl(
    stages: &[TextureStage],
    textures: [bool; 2],
    factor: u32,
    fog: Option<FogState>,
    flat: bool,
    alpha_test: Option<(CompareFunction, u32)>,
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
    for (n, bound) in textures.iter().enumerate() {
        if *bound {
            let location = FF_TEXCOORD_LOCATIONS[n];
            let (t, s) = (2 * n, 2 * n + 1);
            inputs += &format!(", @location({location}) tc{n}: vec4<f32>");
            globals += &format!(
                "@group({PS_TEXTURES_GROUP}) @binding({t}) var stage{n}: texture_2d<f32>;\n\
                 @group({PS_TEXTURES_GROUP}) @binding({s}) var stage{n}_sampler: sampler;\n"
            );
            body += &format!(
                "    let texel{n} = textureSample(stage{n}, stage{n}_sampler, tc{n}.xy);\n"
            );
        } else {
            body += &format!("    let texel{n} = vec4<f32>(1.0);\n");
        }
    }
    // D3D9's default alpha stages (this device has no D3DTSS_ALPHAOP): stage 0
    // SELECTARG1(TEXTURE), the later ones DISABLE; with no texture the diffuse alpha
    // (Windows' result, which Wine's alphatest_test expects of untextured draws).
    let alpha = if textures[0] && stages.first().is_some_and(|s| s.op != StageOp::Disable) {
        "texel0.a"
    } else {
        "d.a"
    };
    body += "    var current = d;\n";
    for (n, stage) in stages.iter().enumerate() {
        let arg = |a: StageArg| match a {
            StageArg::Diffuse => "d".to_string(),
            StageArg::Specular => "s".to_string(),
            StageArg::Texture => format!("texel{n}"),
            StageArg::TFactor => "tfactor".to_string(),
            StageArg::Current => "current".to_string(),
        };
        let (a1, a2) = (arg(stage.arg1), arg(stage.arg2));
        let rgb = match stage.op {
            StageOp::Disable => break,
            StageOp::SelectArg1 => format!("{a1}.rgb"),
            StageOp::SelectArg2 => format!("{a2}.rgb"),
            StageOp::Modulate => format!("{a1}.rgb * {a2}.rgb"),
            StageOp::Add => format!("saturate({a1}.rgb + {a2}.rgb)"),
        };
        body += &format!("    current = vec4<f32>({rgb}, {alpha});\n");
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
            "    let depth = {depth};\n    let f = saturate({factor});\n    let fog_colour = vec3<f32>({:?}, {:?}, {:?});\n    current = vec4<f32>(mix(fog_colour, current.rgb, f), current.a);\n",
            c(16),
            c(8),
            c(0),
            depth = if fog.from_w { "1.0 / frag.w" } else { "frag.z" },
        );
    }
    if let Some(test) = alpha_test {
        body += &alpha_test_wgsl(test, "current.a");
    }
    format!(
        "{globals}@fragment\nfn {FIXED_FUNCTION_ENTRY_POINT}({inputs}) -> @location(0) vec4<f32> {{\n{body}    return current;\n}}\n"
    )
}

/// WGSL that discards the pixel when `alpha` fails D3D9's alpha test `(function, reference)`:
/// the alpha quantized to 8 bits, `round(saturate(alpha) · 255)`, compared with the reference
/// (the draw passes `D3DRS_ALPHAREF`'s low 8 bits, [`super::RenderStates::alpha_reference`];
/// the clamp to 0..=255 is the translator's rule for pixel shaders, `lift::alpha_test`).
pub(crate) fn alpha_test_wgsl(
    (function, reference): (CompareFunction, u32),
    alpha: &str,
) -> String {
    let reference = reference.min(255);
    let op = match function {
        CompareFunction::Always => return String::new(),
        CompareFunction::Never => return "    discard;\n".to_string(),
        CompareFunction::Less => "<",
        CompareFunction::Equal => "==",
        CompareFunction::LessEqual => "<=",
        CompareFunction::Greater => ">",
        CompareFunction::NotEqual => "!=",
        CompareFunction::GreaterEqual => ">=",
    };
    format!(
        "    let alpha8 = u32(round(saturate({alpha}) * 255.0));\n    if !(alpha8 {op} {reference}u) {{\n        discard;\n    }}\n"
    )
}

/// WGSL of the default fixed-function pixel stage (the diffuse colour, clamped) with an alpha
/// test: what a draw with a vertex shader and no pixel shader in the default texture stage
/// state gets. `diffuse_location`: the vertex shader's COLOR0 output, if it has one.
pub(crate) fn default_pixel_stage_wgsl(
    diffuse_location: Option<u32>,
    alpha_test: Option<(CompareFunction, u32)>,
) -> String {
    let Some(test) = alpha_test else {
        return crate::fixed_function_pixel_wgsl(diffuse_location);
    };
    let (inputs, colour) = match diffuse_location {
        Some(location) => (
            format!("@location({location}) diffuse: vec4<f32>"),
            "saturate(diffuse)",
        ),
        None => (String::new(), "vec4<f32>(1.0, 1.0, 1.0, 1.0)"),
    };
    format!(
        "@fragment\nfn {FIXED_FUNCTION_ENTRY_POINT}({inputs}) -> @location(0) vec4<f32> {{\n    let current = {colour};\n{}    return current;\n}}\n",
        alpha_test_wgsl(test, "current.a")
    )
}

#[cfg(test)]
#[allow(clippy::panic)] // a failing test prints the WGSL error
mod tests {
    use super::*;

    fn parses(source: &str) {
        if let Err(e) = naga::front::wgsl::parse_str(source) {
            panic!("{}\n{source}", e.emit_to_string(source));
        }
    }

    #[test]
    fn generated_pixel_stages_parse() {
        let stages = [TextureStage::default_for(0), TextureStage::default_for(1)];
        let fog = FogState {
            enable: true,
            colour: 0xff00ff00,
            table: FogMode::Linear,
            vertex: FogMode::None,
            start: 0.0,
            end: 1.0,
            density: 1.0,
            from_w: false,
        };
        for (test, from_w) in [
            (None, false),
            (Some((CompareFunction::Greater, 0x80)), true),
            (Some((CompareFunction::Never, 0)), false),
        ] {
            let fog = FogState { from_w, ..fog };
            parses(&fixed_function_stages_wgsl(
                &stages,
                [true, true],
                0xffffffff,
                Some(fog),
                true,
                test,
            ));
            parses(&default_pixel_stage_wgsl(Some(2), test));
            parses(&default_pixel_stage_wgsl(None, test));
        }
        let wgsl = alpha_test_wgsl((CompareFunction::GreaterEqual, 300), "a");
        assert!(wgsl.contains("alpha8 >= 255u"), "{wgsl}");
    }
}
