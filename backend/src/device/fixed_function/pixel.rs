//! The fixed-function pixel stage as WGSL, generated per [`PixelKey`] (which operations,
//! arguments and texture types the stages use); every number the application sets
//! (`D3DRS_TEXTUREFACTOR`, `D3DTSS_CONSTANT`, the bump-environment matrices, fog colour and
//! distances, `D3DRS_ALPHAREF`) is read from one uniform ([`PixelUniform`]), so changing
//! one never generates a new stage.
//!
//! D3D9's order: the texture stages from the diffuse colour (`current` starts as the clamped
//! COLOR0, `temp` as 0), then the specular colour added with `D3DRS_SPECULARENABLE`, the
//! result clamped, then fog, then the alpha test.

use std::fmt::Write as _;

use d3d9_translator::bytecode::TextureType;
use d3d9_translator::lift::interface::{sampler_binding, texture_binding, PS_TEXTURES_GROUP};
use d3d9_translator::lift::interface::{AxisFixup, SamplerFixup};
use d3d9_translator::lift::{CompareFunction, DepthChannels, SamplerRead, WrapTwin};

use super::super::state::FogMode;
use super::stages::{Arg, Operation, StageArg, StageKey, StageOp};

/// The entry point of every generated fixed-function pixel stage (and of the test harness's
/// default one).
pub const FIXED_FUNCTION_ENTRY_POINT: &str = "main";

/// The locations of texture coordinate sets 0–7 in the fixed-function pixel stage (after
/// diffuse 0, specular 1 and fog 3).
pub(crate) const FF_TEXCOORD_LOCATIONS: [u32; 8] = [2, 4, 5, 6, 7, 8, 9, 10];
/// The location of the vertex fog factor.
pub(crate) const FF_FOG_LOCATION: u32 = 3;
/// The uniform's group and binding.
pub(crate) const PIXEL_UNIFORM_GROUP: u32 = d3d9_translator::lift::interface::PS_CONSTANTS_GROUP;
pub(crate) const PIXEL_UNIFORM_BINDING: u32 = 0;

/// Fog as the pixel stage applies it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum PixelFog {
    /// Vertex fog: the interpolated FOG value is the factor.
    Vertex,
    /// Table fog of this mode on the pixel's depth (from w with a W-friendly projection).
    Table { mode: FogMode, from_w: bool },
}

/// What the generated pixel stage depends on.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct PixelKey {
    pub(crate) stages: Vec<StageKey>,
    /// `D3DRS_SPECULARENABLE`.
    pub(crate) specular: bool,
    /// `D3DRS_FOGENABLE` and how.
    pub(crate) fog: Option<PixelFog>,
    /// `D3DSHADE_FLAT`: the colours are the first vertex's.
    pub(crate) flat: bool,
    /// `D3DRS_ALPHATESTENABLE` with `D3DRS_ALPHAFUNC` (the reference is in the uniform).
    pub(crate) alpha_test: Option<CompareFunction>,
    /// How each stage reads a depth texture set on it (`Device::sampler_reads`).
    pub(crate) sampler_reads: Vec<SamplerRead>,
    /// What each stage's sampler states ask of the shader (`Device::sampler_fixups`).
    pub(crate) sampler_fixups: Vec<SamplerFixup>,
}

impl PixelKey {
    /// The texture coordinate sets the stages read (bit n: set n).
    pub(crate) fn texcoords_read(&self) -> u8 {
        self.stages
            .iter()
            .enumerate()
            .filter(|(_, s)| s.texture.is_some())
            .fold(0, |mask, (n, _)| mask | 1 << n)
    }

    /// The samplers the stage binds, with their texture types and how they read.
    pub(crate) fn samplers(&self) -> impl Iterator<Item = (usize, TextureType, SamplerRead)> + '_ {
        self.stages
            .iter()
            .enumerate()
            .filter_map(|(n, s)| s.texture.map(|t| (n, t, self.read(n, t))))
    }

    /// How stage `n` reads its texture of type `ty` (a depth texture on a 2D stage, a narrow
    /// one on any).
    fn read(&self, n: usize, ty: TextureType) -> SamplerRead {
        let read = self.sampler_reads.get(n).copied().unwrap_or_default();
        match ty {
            TextureType::TwoD | TextureType::Unknown => read,
            _ if read.is_depth() => SamplerRead::Color,
            _ => read,
        }
    }

    /// Stage `n`'s fixups for its texture of type `ty` read as `read`: a cube map's
    /// addressing is the hardware's, a depth read takes only Fetch4 (as the translator's).
    fn fixup(&self, n: usize, ty: TextureType, read: SamplerRead) -> SamplerFixup {
        let mut fix = self.sampler_fixups.get(n).copied().unwrap_or_default();
        if ty == TextureType::Cube {
            fix.address = [AxisFixup::None; 3];
        }
        match read {
            SamplerRead::Shadow => SamplerFixup::default(),
            SamplerRead::Depth { .. } => SamplerFixup {
                fetch4: fix.fetch4,
                ..SamplerFixup::default()
            },
            _ => fix,
        }
    }
}

/// The uniform of the generated pixel stage, as `vec4<f32>`s:
/// `tfactor`, `fog_colour`, `fog` (start, end, scale, density), `misc` (alpha reference
/// 0–255), then per stage the constant colour, the bump matrix (M00, M01, M10, M11) and
/// (LSCALE, LOFFSET, 0, 0).
pub(crate) struct PixelUniform;

impl PixelUniform {
    pub(crate) const WGSL: &'static str = "struct FixedFunctionPixel {\n    tfactor: vec4<f32>,\n    fog_colour: vec4<f32>,\n    fog: vec4<f32>,\n    misc: vec4<f32>,\n    constants: array<vec4<f32>, 8>,\n    bump: array<vec4<f32>, 8>,\n    bump_luminance: array<vec4<f32>, 8>,\n}\n";
    /// Its size in `vec4<f32>`s.
    pub(crate) const VEC4S: usize = 4 + 3 * 8;
}

/// The WGSL of the pixel stage for `key`. `fog_from_specular`: the vertex stage writes
/// COLOR1 and no FOG, so vertex fog takes the specular alpha (Windows, in Wine's test_fog
/// with a vertex shader that writes oD1 and no oFog). `wrapped`: the texture coordinates'
/// locations that wrap (`D3DRS_WRAPn`) and their twins (the translator's `wrap`).
pub(crate) fn pixel_stage_wgsl(
    key: &PixelKey,
    fog_from_specular: bool,
    wrapped: &[WrapTwin],
) -> String {
    let shading = if key.flat { "@interpolate(flat) " } else { "" };
    let mut inputs = format!(
        "@location(0) {shading}diffuse: vec4<f32>, @location(1) {shading}specular: vec4<f32>"
    );
    let mut globals = String::from(PixelUniform::WGSL);
    if key
        .sampler_reads
        .iter()
        .any(|r| matches!(r, SamplerRead::Depth { linear: true, .. }))
    {
        globals += BILINEAR_DEPTH;
    }
    let _ = writeln!(
        globals,
        "@group({PIXEL_UNIFORM_GROUP}) @binding({PIXEL_UNIFORM_BINDING}) var<uniform> ff: FixedFunctionPixel;"
    );
    let mut body = String::from(
        "    let d = saturate(diffuse);\n    let s = saturate(specular);\n    var current = d;\n    var temp = vec4<f32>(0.0);\n",
    );
    for (n, stage) in key.stages.iter().enumerate() {
        if let Some(ty) = stage.texture {
            coordinate(n, wrapped, &mut inputs, &mut body);
            sample(n, stage, ty, key, &mut globals, &mut body);
        } else {
            let _ = writeln!(body, "    let texel{n} = vec4<f32>(0.0);");
        }
        let premodulated = n > 0 && key.stages[n - 1].color.op == StageOp::PreModulate;
        stage_wgsl(n, stage, premodulated, &mut body);
    }
    if key.specular {
        body += "    current = vec4<f32>(current.rgb + s.rgb, current.a);\n";
    }
    body += "    current = saturate(current);\n";
    if let Some(fog) = key.fog {
        let factor = match fog {
            PixelFog::Vertex if fog_from_specular => "s.a".to_string(),
            PixelFog::Vertex => {
                let _ = write!(inputs, ", @location({FF_FOG_LOCATION}) fog: f32");
                "fog".to_string()
            }
            PixelFog::Table { mode, from_w } => {
                inputs += ", @builtin(position) frag: vec4<f32>";
                let depth = if from_w { "1.0 / frag.w" } else { "frag.z" };
                let _ = writeln!(body, "    let depth = {depth};");
                match mode {
                    FogMode::None => "1.0".to_string(),
                    // Divided at run time: with FOGSTART = FOGEND the factor is a step at
                    // that depth (Wine's fog_special_test), as the translator's table fog.
                    FogMode::Linear => "(ff.fog.y - depth) / (ff.fog.y - ff.fog.x)".to_string(),
                    FogMode::Exp => "exp(-depth * ff.fog.w)".to_string(),
                    FogMode::Exp2 => "exp(-(depth * ff.fog.w) * (depth * ff.fog.w))".to_string(),
                }
            }
        };
        let _ = writeln!(
            body,
            "    let f = saturate({factor});\n    current = vec4<f32>(mix(ff.fog_colour.rgb, current.rgb, f), current.a);"
        );
    }
    if let Some(function) = key.alpha_test {
        body += &alpha_test_wgsl(function, "current.a", "u32(ff.misc.x)");
    }
    format!(
        "{globals}@fragment\nfn {FIXED_FUNCTION_ENTRY_POINT}({inputs}) -> @location(0) vec4<f32> {{\n{body}    return current;\n}}\n"
    )
}

/// Stage `n`'s texture coordinate `tc{n}`, from its location; where it wraps, per wrapped
/// component the location or its twin, whichever changes less across the pixel (as the
/// translator's `wrap` reads a shader's wrapped inputs).
fn coordinate(n: usize, wrapped: &[WrapTwin], inputs: &mut String, body: &mut String) {
    let location = FF_TEXCOORD_LOCATIONS[n];
    let Some(t) = wrapped.iter().find(|t| t.location == location) else {
        let _ = write!(inputs, ", @location({location}) tc{n}: vec4<f32>");
        return;
    };
    let twin = t.twin;
    let _ = write!(
        inputs,
        ", @location({location}) tc{n}_in: vec4<f32>, @location({twin}) tc{n}_twin: vec4<f32>"
    );
    let mask: Vec<&str> = (0..4)
        .map(|c| match t.components & (1 << c) {
            0 => "false",
            _ => "true",
        })
        .collect();
    let _ = writeln!(
        body,
        "    let tc{n} = select(tc{n}_in, tc{n}_twin, (fwidth(tc{n}_twin) < fwidth(tc{n}_in)) & vec4<bool>({}));",
        mask.join(", ")
    );
}

/// Stage `n`'s texel `texel{n}`: its coordinate `tc{n}` (divided by w when projected, 0 where
/// w is 0), displaced by the previous stage's bump map, sampled, and scaled by the previous
/// stage's luminance with BUMPENVMAPLUMINANCE.
fn sample(
    n: usize,
    stage: &StageKey,
    ty: TextureType,
    key: &PixelKey,
    globals: &mut String,
    body: &mut String,
) {
    let (t, s) = (texture_binding(n as u32), sampler_binding(n as u32));
    let read = key.read(n, ty);
    let (texture_type, lanes) = match ty {
        TextureType::Cube => ("texture_cube<f32>", "xyz"),
        TextureType::Volume => ("texture_3d<f32>", "xyz"),
        // A shadow map's reference is the coordinate's z.
        _ if read == SamplerRead::Shadow => ("texture_depth_2d", "xyz"),
        // Raw depth: an unfilterable float texture whose red channel is the depth.
        _ => ("texture_2d<f32>", "xy"),
    };
    let sampler_type = match read {
        SamplerRead::Shadow => "sampler_comparison",
        _ => "sampler",
    };
    let _ = writeln!(
        globals,
        "@group({PS_TEXTURES_GROUP}) @binding({t}) var stage{n}: {texture_type};\n@group({PS_TEXTURES_GROUP}) @binding({s}) var stage{n}_sampler: {sampler_type};"
    );
    let _ = writeln!(body, "    var coord{n} = tc{n}.{lanes};");
    if stage.projected {
        let _ = writeln!(
            body,
            "    coord{n} = select(coord{n} / tc{n}.w, coord{n} * 0.0, tc{n}.w == 0.0);"
        );
    }
    let bump = n
        .checked_sub(1)
        .and_then(|p| key.stages.get(p))
        .filter(|p| p.color.op.is_bump());
    if bump.is_some() {
        // u += M00·du + M10·dv, v += M01·du + M11·dv (du, dv: the bump texel's r, g).
        let p = n - 1;
        let _ = writeln!(
            body,
            "    coord{n}.x += ff.bump[{p}].x * texel{p}.r + ff.bump[{p}].z * texel{p}.g;\n    coord{n}.y += ff.bump[{p}].y * texel{p}.r + ff.bump[{p}].w * texel{p}.g;"
        );
    }
    // The sampler's fixups (the translator's `texture`): MIRRORONCE's |u|, the LOD bias,
    // a border colour WebGPU cannot express.
    let fix = key.fixup(n, ty, read);
    let axes = if ty == TextureType::Volume { 3 } else { 2 };
    for (c, lane) in ['x', 'y', 'z'].into_iter().enumerate().take(axes) {
        if fix.address[c] == AxisFixup::MirrorOnce {
            let _ = writeln!(body, "    coord{n}.{lane} = abs(coord{n}.{lane});");
        }
    }
    let texel = match fix.fetch4 {
        // AMD's Fetch4 (the translator's `depth::fetch4`): the 2x2 texels from the
        // coordinate's on, gathered half a texel on, as (u1 v0, u0 v1, u1 v1, u0 v0).
        Some(fetch4)
            if matches!(ty, TextureType::TwoD | TextureType::Unknown)
                && read != SamplerRead::Shadow =>
        {
            // A raw depth texture's one channel is its red.
            let channel = if read.is_depth() {
                0
            } else {
                fetch4.channel & 3
            };
            let lanes: String = fetch4
                .lanes
                .iter()
                .map(|&l| ['x', 'y', 'z', 'w'][usize::from(l & 3)])
                .collect();
            format!(
            "textureGather({channel}, stage{n}, stage{n}_sampler, coord{n}.xy + 0.5 / vec2<f32>(textureDimensions(stage{n}))).{lanes}"
        )
        }
        _ => depth_texel(n, read, fix.bias()),
    };
    let _ = writeln!(body, "    var texel{n} = {texel};");
    border(n, &fix, axes, body);
    if bump.is_some_and(|p| p.color.op == StageOp::BumpEnvMapLuminance) {
        let p = n - 1;
        let _ = writeln!(
            body,
            "    texel{n} *= saturate(texel{p}.b * ff.bump_luminance[{p}].x + ff.bump_luminance[{p}].y);"
        );
    }
}

/// Stage `n`'s texel expression for a texture read as `read` (see the translator's `depth`:
/// a shadow map's comparison of z, raw depth filtered from four gathered texels under linear
/// filtering).
fn depth_texel(n: usize, read: SamplerRead, bias: f32) -> String {
    let sample = format!("stage{n}, stage{n}_sampler, coord{n}");
    // A colour read adds the sampler's LOD bias.
    let colour = match bias == 0.0 {
        true => format!("textureSample({sample})"),
        false => format!("textureSampleBias({sample}, {bias:?})"),
    };
    let (depth, channels) = match read {
        SamplerRead::Color => return colour,
        // D3D9 reads the channels the format lacks as 1 (the translator's rule).
        SamplerRead::Narrow { .. } => {
            let kept = read.texel_channels();
            let [keep, fill] = [true, false].map(|value| {
                let lanes = kept.map(|k| if k == value { "1.0" } else { "0.0" });
                format!("vec4<f32>({})", lanes.join(", "))
            });
            return format!("{colour} * {keep} + {fill}");
        }
        SamplerRead::Shadow => {
            let compare = format!("textureSampleCompare(stage{n}, stage{n}_sampler, coord{n}.xy, coord{n}.z)");
            return format!("vec4<f32>({compare})");
        }
        SamplerRead::Depth {
            channels,
            linear: false,
        } => (format!("textureSample({sample}).x"), channels),
        SamplerRead::Depth {
            channels,
            linear: true,
        } => (
            format!(
                "bilinear_depth(textureGather(0, {sample}), coord{n} * vec2<f32>(textureDimensions(stage{n})) - 0.5)"
            ),
            channels,
        ),
    };
    match channels {
        DepthChannels::All => format!("vec4<f32>({depth})"),
        DepthChannels::Red => format!("vec4<f32>({depth}, 0.0, 0.0, 1.0)"),
    }
}

/// Stage `n`'s border colour on the axes the shader addresses (`AxisFixup::Border`), as the
/// translator's `texture` does: the texel mixed with the colour by the share of the filter
/// footprint outside the texture (all of it outside [0, 1) when point sampling; the bilinear
/// weight past the edge at level 0 when filtering).
fn border(n: usize, fix: &SamplerFixup, axes: usize, body: &mut String) {
    let lanes: Vec<char> = ['x', 'y', 'z']
        .into_iter()
        .enumerate()
        .take(axes)
        .filter(|(c, _)| fix.address[*c] == AxisFixup::Border)
        .map(|(_, lane)| lane)
        .collect();
    if lanes.is_empty() {
        return;
    }
    if fix.linear {
        let _ = writeln!(
            body,
            "    let size{n} = vec{axes}<f32>(textureDimensions(stage{n}));"
        );
    }
    let inside: Vec<String> = lanes
        .iter()
        .map(|l| {
            let u = format!("coord{n}.{l}");
            match fix.linear {
                true => {
                    let t = format!("{u} * size{n}.{l}");
                    format!("(1.0 - clamp(0.5 - {t}, 0.0, 1.0) - clamp({t} - size{n}.{l} + 0.5, 0.0, 1.0))")
                }
                false => format!("select(1.0, 0.0, {u} < 0.0 || {u} >= 1.0)"),
            }
        })
        .collect();
    let [r, g, b, a] = super::super::d3dcolor::rgba(fix.border_color);
    let _ = writeln!(
        body,
        "    texel{n} = mix(texel{n}, vec4<f32>({:?}, {:?}, {:?}, {:?}), 1.0 - {});",
        r,
        g,
        b,
        a,
        inside.join(" * ")
    );
}

/// The WGSL function the linearly filtered raw depth reads call.
const BILINEAR_DEPTH: &str = "fn bilinear_depth(g: vec4<f32>, texel: vec2<f32>) -> f32 {\n    let w = fract(texel);\n    return mix(mix(g.w, g.z, w.x), mix(g.x, g.y, w.x), w.y);\n}\n";

/// One stage's colour and alpha operations on `current` (or `temp` with RESULTARG TEMP).
fn stage_wgsl(n: usize, stage: &StageKey, premodulated: bool, body: &mut String) {
    let target = if stage.result_temp { "temp" } else { "current" };
    let _ = writeln!(body, "    {{\n        var next = {target};");
    let color = operation(n, &stage.color, premodulated, "c", body);
    if stage.color.op == StageOp::DotProduct3 {
        let _ = writeln!(body, "        next = {color};");
    } else if stage.color.op.is_bump() {
        // A bump stage passes the current colour and alpha on; its alpha operation is not
        // applied (wined3d; Windows in Wine's test_texture_blending).
    } else {
        let _ = writeln!(body, "        next = vec4<f32>(({color}).rgb, next.a);");
        if let Some(alpha) = &stage.alpha {
            let a = operation(n, alpha, premodulated, "a", body);
            let _ = writeln!(body, "        next.a = ({a}).a;");
        }
    }
    let _ = writeln!(body, "        {target} = next;\n    }}");
}

/// The value of an operation (a `vec4<f32>` expression), its arguments bound with `let`
/// (named `{prefix}{i}`) first.
fn operation(
    n: usize,
    operation: &Operation,
    premodulated: bool,
    prefix: &str,
    body: &mut String,
) -> String {
    let read = operation.op.args_read();
    for (i, arg) in operation.args.iter().enumerate() {
        if read & (1 << i) != 0 {
            let _ = writeln!(
                body,
                "        let {prefix}{i} = {};",
                argument(n, arg, premodulated)
            );
        }
    }
    let (a0, a1, a2) = (
        format!("{prefix}0"),
        format!("{prefix}1"),
        format!("{prefix}2"),
    );
    let texel = format!("texel{n}");
    match operation.op {
        StageOp::Disable | StageOp::BumpEnvMap | StageOp::BumpEnvMapLuminance => "next".into(),
        StageOp::SelectArg1 | StageOp::PreModulate => a1,
        StageOp::SelectArg2 => a2,
        StageOp::Modulate => format!("{a1} * {a2}"),
        StageOp::Modulate2x => format!("saturate({a1} * {a2} * 2.0)"),
        StageOp::Modulate4x => format!("saturate({a1} * {a2} * 4.0)"),
        StageOp::Add => format!("saturate({a1} + {a2})"),
        StageOp::AddSigned => format!("saturate({a1} + {a2} - 0.5)"),
        StageOp::AddSigned2x => format!("saturate(({a1} + {a2} - 0.5) * 2.0)"),
        StageOp::Subtract => format!("saturate({a1} - {a2})"),
        StageOp::AddSmooth => format!("saturate({a1} + (1.0 - {a1}) * {a2})"),
        StageOp::BlendDiffuseAlpha => format!("mix({a2}, {a1}, d.a)"),
        StageOp::BlendTextureAlpha => format!("mix({a2}, {a1}, {texel}.a)"),
        StageOp::BlendFactorAlpha => format!("mix({a2}, {a1}, ff.tfactor.a)"),
        StageOp::BlendTextureAlphaPm => format!("saturate({a1} + {a2} * (1.0 - {texel}.a))"),
        StageOp::BlendCurrentAlpha => format!("mix({a2}, {a1}, current.a)"),
        StageOp::ModulateAlphaAddColor => format!("saturate({a1} + {a1}.a * {a2})"),
        StageOp::ModulateColorAddAlpha => format!("saturate({a1} * {a2} + {a1}.a)"),
        StageOp::ModulateInvAlphaAddColor => format!("saturate({a1} + (1.0 - {a1}.a) * {a2})"),
        StageOp::ModulateInvColorAddAlpha => {
            format!("saturate((1.0 - {a1}) * {a2} + {a1}.a)")
        }
        StageOp::DotProduct3 => {
            format!("vec4<f32>(saturate(4.0 * dot({a1}.rgb - 0.5, {a2}.rgb - 0.5)))")
        }
        StageOp::MultiplyAdd => format!("saturate({a1} * {a2} + {a0})"),
        StageOp::Lerp => format!("mix({a2}, {a1}, {a0})"),
    }
}

/// An argument's value: the register (CURRENT times this stage's texture after a PREMODULATE
/// stage), complemented, then alpha-replicated.
fn argument(n: usize, arg: &Arg, premodulated: bool) -> String {
    let mut value = match arg.source {
        StageArg::Diffuse => "d".to_string(),
        StageArg::Specular => "s".to_string(),
        StageArg::Texture => format!("texel{n}"),
        StageArg::TFactor => "ff.tfactor".to_string(),
        StageArg::Current if premodulated => format!("(current * texel{n})"),
        StageArg::Current => "current".to_string(),
        StageArg::Temp => "temp".to_string(),
        StageArg::Constant => format!("ff.constants[{n}]"),
    };
    if arg.complement {
        value = format!("(vec4<f32>(1.0) - {value})");
    }
    if arg.alpha_replicate {
        value = format!("vec4<f32>({value}.a)");
    }
    value
}

/// WGSL that discards the pixel when `alpha` fails D3D9's alpha test `function` against
/// `reference` (a `u32` expression, 0–255): the alpha quantized to 8 bits,
/// `round(saturate(alpha) · 255)`, as the translator's pixel shaders compare it
/// (`lift::alpha_test`).
pub(crate) fn alpha_test_wgsl(function: CompareFunction, alpha: &str, reference: &str) -> String {
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
        "    let alpha8 = u32(round(saturate({alpha}) * 255.0));\n    if !(alpha8 {op} min({reference}, 255u)) {{\n        discard;\n    }}\n"
    )
}

#[cfg(test)]
#[allow(clippy::panic)] // a failing test prints the WGSL error
mod tests {
    use super::*;
    use d3d9_translator::lift::interface::Fetch4;

    fn parses(source: &str) {
        let module = match naga::front::wgsl::parse_str(source) {
            Ok(m) => m,
            Err(e) => panic!("{}\n{source}", e.emit_to_string(source)),
        };
        if let Err(e) = naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::all(),
        )
        .validate(&module)
        {
            panic!("{}\n{source}", e.emit_to_string(source));
        }
    }

    fn op(op: StageOp, args: [StageArg; 3]) -> Operation {
        Operation {
            op,
            args: args.map(|source| Arg {
                source,
                complement: source == StageArg::TFactor,
                alpha_replicate: source == StageArg::Specular,
            }),
        }
    }

    #[test]
    fn every_operation_and_argument_parses() {
        use StageArg::*;
        let mut stages = Vec::new();
        for (i, code) in (1..=26).enumerate() {
            let Some(o) = StageOp::from_d3d(code) else {
                panic!("operation {code}");
            };
            if o == StageOp::Disable {
                continue;
            }
            let args = [[Texture, Current, Diffuse], [Specular, TFactor, Temp]][i % 2];
            let texture = [TextureType::TwoD, TextureType::Cube, TextureType::Volume][i % 3];
            stages.push(StageKey {
                color: op(o, args),
                alpha: (i % 4 != 0).then(|| op(o, [Constant, Current, Texture])),
                result_temp: i % 5 == 0,
                texture: (i % 7 != 0).then_some(texture),
                projected: i % 2 == 0,
            });
        }
        for chunk in stages.chunks(8) {
            for (fog, test) in [
                (Some(PixelFog::Vertex), None),
                (
                    Some(PixelFog::Table {
                        mode: FogMode::Exp2,
                        from_w: true,
                    }),
                    Some(CompareFunction::Greater),
                ),
                (None, Some(CompareFunction::Never)),
            ] {
                // Depth textures on the 2D stages: shadow maps, raw depth point-sampled and
                // filtered in the shader.
                let depth = |i: usize| match i % 4 {
                    0 => SamplerRead::Color,
                    1 => SamplerRead::Shadow,
                    2 => SamplerRead::Depth {
                        channels: DepthChannels::All,
                        linear: false,
                    },
                    _ => SamplerRead::Depth {
                        channels: DepthChannels::Red,
                        linear: true,
                    },
                };
                // Every fixup: bias, MIRRORONCE, point and linear borders.
                let fixup = |i: usize| SamplerFixup {
                    lod_bias: (i as f32 - 1.5).to_bits(),
                    address: [
                        [AxisFixup::None, AxisFixup::MirrorOnce, AxisFixup::Border][i % 3],
                        AxisFixup::Border,
                        AxisFixup::MirrorOnce,
                    ],
                    border_color: 0xff00_ff00,
                    linear: i.is_multiple_of(2),
                    // Fetch4 on every third stage, of red or alpha.
                    fetch4: (i % 3 == 1).then_some(Fetch4 {
                        channel: (i % 2 * 3) as u8,
                        lanes: [Fetch4::AMD, Fetch4::TEXEL][i % 2],
                    }),
                };
                for shift in [0, 1, 2, 3] {
                    let key = PixelKey {
                        stages: chunk.to_vec(),
                        specular: fog.is_some(),
                        fog,
                        flat: test.is_some(),
                        alpha_test: test,
                        sampler_reads: (0..8).map(|i| depth(i + shift)).collect(),
                        sampler_fixups: (0..8).map(|i| fixup(i + shift)).collect(),
                    };
                    // Stage `shift`'s coordinate wraps its u and q (`shift` 0–2).
                    let wrapped = [WrapTwin {
                        location: FF_TEXCOORD_LOCATIONS[shift],
                        twin: 11,
                        components: 0b1001,
                    }];
                    let wrapped = &wrapped[..usize::from(shift < 3)];
                    parses(&pixel_stage_wgsl(&key, test.is_some(), wrapped));
                }
            }
        }
        let wgsl = alpha_test_wgsl(CompareFunction::GreaterEqual, "a", "300u");
        assert!(wgsl.contains("alpha8 >= min(300u, 255u)"), "{wgsl}");
    }

    /// `PixelUniform::VEC4S` is the size of the WGSL struct the data fills.
    #[test]
    fn the_uniform_size_is_the_structs() {
        let module = naga::front::wgsl::parse_str(PixelUniform::WGSL)
            .unwrap_or_else(|e| panic!("{}", e.emit_to_string(PixelUniform::WGSL)));
        let span = module
            .types
            .iter()
            .find(|(_, ty)| ty.name.as_deref() == Some("FixedFunctionPixel"))
            .map(|(_, ty)| ty.inner.size(module.to_ctx()))
            .unwrap_or_else(|| panic!("no FixedFunctionPixel struct"));
        assert_eq!(span as usize, PixelUniform::VEC4S * 16);
    }
}
