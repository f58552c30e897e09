//! `d3d9-translate translate FILE --lang wgsl|spirv|msl|hlsl|glsl [-o OUT]`: a shader in the
//! language of any naga back end. Every output is written from the module the translator
//! has already validated; the back-end options have defaults that work for every translated
//! vertex shader.

use crate::wgsl::FloatModeArg;
use clap::{Args, ValueEnum};
use d3d9_translator::bytecode::{decode_bytes, Stage};
use d3d9_translator::check::{check, CheckError, DeviceCaps};
use d3d9_translator::lift::{
    translate_vertex_shader, FloatMode, TranslatedShader, VertexShaderOptions,
};
use std::path::PathBuf;
use std::process::ExitCode;

/// Output language: one per naga back end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, ValueEnum)]
pub enum Lang {
    Wgsl,
    Spirv,
    Msl,
    Hlsl,
    Glsl,
}

impl Lang {
    /// File extension of an output in this language.
    pub fn extension(self) -> &'static str {
        match self {
            Lang::Wgsl => "wgsl",
            Lang::Spirv => "spv",
            Lang::Msl => "metal",
            Lang::Hlsl => "hlsl",
            Lang::Glsl => "glsl",
        }
    }
}

/// Back-end options with their defaults.
#[derive(Debug, Clone, Args)]
pub struct BackendOptions {
    /// SPIR-V version of `--lang spirv` output (1.0 to 1.6).
    #[arg(long, default_value = "1.0", value_parser = parse_version)]
    pub spirv_version: (u8, u8),
    /// Metal Shading Language version of `--lang msl` output (2.1 or later: translated
    /// positions are `invariant`). Bindings the module does not
    /// map are given slots in order (naga's `fake_missing_bindings`), which covers every
    /// translated vertex shader.
    #[arg(long, default_value = "2.1", value_parser = parse_version)]
    pub msl_version: (u8, u8),
    /// HLSL shader model of `--lang hlsl` output (5.0, 5.1, 6.0 ... 6.9). Registers are
    /// assigned in order (`fake_missing_bindings`).
    #[arg(long, default_value = "5.0", value_parser = parse_version)]
    pub hlsl_shader_model: (u8, u8),
    /// GLSL version of `--lang glsl` output (desktop: 330, 400, 410, 420, 430, 440, 450,
    /// 460; with --glsl-es: 300, 310, 320). The entry point is the module's vertex entry
    /// point; its bindings are numbered from 0 in (group, binding) order.
    #[arg(long, default_value_t = 450)]
    pub glsl_version: u16,
    /// Write GLSL ES instead of desktop GLSL.
    #[arg(long)]
    pub glsl_es: bool,
}

impl Default for BackendOptions {
    fn default() -> Self {
        BackendOptions {
            spirv_version: (1, 0),
            msl_version: (2, 1),
            hlsl_shader_model: (5, 0),
            glsl_version: 450,
            glsl_es: false,
        }
    }
}

/// `1.3` → (1, 3).
fn parse_version(s: &str) -> Result<(u8, u8), String> {
    let (a, b) = s
        .split_once(['.', '_'])
        .ok_or_else(|| format!("`{s}`: expected MAJOR.MINOR"))?;
    let n = |x: &str| x.parse::<u8>().map_err(|e| format!("`{s}`: {e}"));
    Ok((n(a)?, n(b)?))
}

/// Arguments of `translate`.
#[derive(Debug, Args)]
pub struct TranslateArgs {
    /// Shader bytecode file (raw little-endian tokens); vertex or pixel by its version token.
    pub file: PathBuf,
    /// Output language.
    #[arg(long, value_enum, default_value = "wgsl")]
    pub lang: Lang,
    /// Output file (default: stdout; SPIR-V is binary little-endian words).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// D3D9 float rules (legacy: cheap form; legacy-strict: exact) or plain IEEE arithmetic.
    #[arg(long, value_enum, default_value = "legacy")]
    pub float_mode: FloatModeArg,
    /// Software vertex processing (8192 float constants in a storage buffer).
    #[arg(long)]
    pub swvp: bool,
    /// Pixel shader to link the outputs against (as `wgsl --ps`).
    #[arg(long)]
    pub ps: Option<PathBuf>,
    #[command(flatten)]
    pub backend: BackendOptions,
}

/// Why one shader did not translate.
#[derive(Debug, thiserror::Error)]
pub enum TranslateError {
    /// Bytecode that does not decode (truncated, unknown opcode...).
    #[error("malformed bytecode: {0}")]
    Decode(#[from] d3d9_translator::bytecode::DecodeError),
    /// D3D9 would refuse it at creation (the rule it breaks).
    #[error("invalid: {0}")]
    Invalid(d3d9_translator::check::InvalidShader),
    /// A feature this project does not have yet.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// Translation or a back end failed.
    #[error("{0}")]
    Failed(String),
}

/// Translate a shader's bytes as a device of `caps` would create it.
pub fn translate_bytes(
    bytes: &[u8],
    caps: &DeviceCaps,
    options: &VertexShaderOptions,
) -> Result<TranslatedShader, TranslateError> {
    let program = decode_bytes(bytes)?;
    if program.stage() == Stage::Pixel {
        return Err(TranslateError::Unsupported(
            "pixel-shader translation (not implemented yet)".into(),
        ));
    }
    let checked = check(&program, Stage::Vertex, caps).map_err(|e| match e {
        CheckError::Invalid(rule) => TranslateError::Invalid(rule),
        CheckError::Unsupported(what) => TranslateError::Unsupported(what.to_string()),
    })?;
    translate_vertex_shader(&checked, options).map_err(|e| match e {
        e if e.is_unsupported() => TranslateError::Unsupported(e.to_string()),
        other => TranslateError::Failed(other.to_string()),
    })
}

/// Write a translated (already validated) module in `lang`.
pub fn emit(
    shader: &TranslatedShader,
    lang: Lang,
    opts: &BackendOptions,
) -> Result<Vec<u8>, TranslateError> {
    let fail = |what: &str, e: &dyn std::fmt::Display| {
        TranslateError::Failed(format!("{what} output: {e}"))
    };
    let module = &shader.module;
    let info = &shader.info;
    let entry = module
        .entry_points
        .first()
        .ok_or_else(|| TranslateError::Failed("module has no entry point".into()))?;
    let stage = entry.stage;
    let name = entry.name.clone();
    Ok(match lang {
        Lang::Wgsl => shader.wgsl().map_err(|e| fail("WGSL", &e))?.into_bytes(),
        Lang::Spirv => {
            let options = naga::back::spv::Options {
                lang_version: opts.spirv_version,
                ..Default::default()
            };
            let pipeline = naga::back::spv::PipelineOptions {
                shader_stage: stage,
                entry_point: name,
            };
            naga::back::spv::write_vec(module, info, &options, Some(&pipeline))
                .map_err(|e| fail("SPIR-V", &e))?
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect()
        }
        Lang::Msl => {
            let options = naga::back::msl::Options {
                lang_version: opts.msl_version,
                fake_missing_bindings: true,
                ..Default::default()
            };
            let pipeline = naga::back::msl::PipelineOptions {
                entry_point: Some((stage, name)),
                ..Default::default()
            };
            naga::back::msl::write_string(module, info, &options, &pipeline)
                .map_err(|e| fail("MSL", &e))?
                .0
                .into_bytes()
        }
        Lang::Hlsl => {
            use naga::back::hlsl::ShaderModel as M;
            let shader_model = match opts.hlsl_shader_model {
                (5, 0) => M::V5_0,
                (5, 1) => M::V5_1,
                (6, 0) => M::V6_0,
                (6, 1) => M::V6_1,
                (6, 2) => M::V6_2,
                (6, 3) => M::V6_3,
                (6, 4) => M::V6_4,
                (6, 5) => M::V6_5,
                (6, 6) => M::V6_6,
                (6, 7) => M::V6_7,
                (6, 8) => M::V6_8,
                (6, 9) => M::V6_9,
                (a, b) => {
                    return Err(TranslateError::Failed(format!(
                        "HLSL output: shader model {a}.{b} is not one of 5.0, 5.1, 6.0-6.9"
                    )))
                }
            };
            let options = naga::back::hlsl::Options {
                shader_model,
                fake_missing_bindings: true,
                ..Default::default()
            };
            let pipeline = naga::back::hlsl::PipelineOptions {
                entry_point: Some((stage, name)),
            };
            let mut text = String::new();
            naga::back::hlsl::Writer::new(&mut text, &options, &pipeline)
                .write(module, info, None)
                .map_err(|e| fail("HLSL", &e))?;
            text.into_bytes()
        }
        Lang::Glsl => {
            let version = if opts.glsl_es {
                naga::back::glsl::Version::new_gles(opts.glsl_version)
            } else {
                naga::back::glsl::Version::Desktop(opts.glsl_version)
            };
            // GLSL has one flat binding space: number the module's (group, binding) pairs
            // from 0 in order.
            let mut bindings: Vec<naga::ResourceBinding> = module
                .global_variables
                .iter()
                .filter_map(|(_, g)| g.binding)
                .collect();
            bindings.sort_by_key(|b| (b.group, b.binding));
            bindings.dedup();
            let binding_map = bindings
                .into_iter()
                .enumerate()
                .map(|(i, b)| (b, u8::try_from(i).unwrap_or(u8::MAX)))
                .collect();
            let options = naga::back::glsl::Options {
                version,
                binding_map,
                ..Default::default()
            };
            let pipeline = naga::back::glsl::PipelineOptions {
                shader_stage: stage,
                entry_point: name,
                multiview: None,
            };
            let mut text = String::new();
            naga::back::glsl::Writer::new(
                &mut text,
                module,
                info,
                &options,
                &pipeline,
                naga::proc::BoundsCheckPolicies::default(),
            )
            .and_then(|mut w| w.write())
            .map_err(|e| fail("GLSL", &e))?;
            text.into_bytes()
        }
    })
}

/// The translator options of a float-mode argument.
pub fn vertex_options(float_mode: FloatModeArg) -> VertexShaderOptions {
    VertexShaderOptions {
        float_mode: match float_mode {
            FloatModeArg::Legacy => FloatMode::Legacy,
            FloatModeArg::LegacyStrict => FloatMode::LegacyStrict,
            FloatModeArg::Ieee => FloatMode::Ieee,
        },
        ..Default::default()
    }
}

/// Run `translate`.
pub fn run(args: &TranslateArgs) -> ExitCode {
    if args.ps.is_some() {
        eprintln!("unsupported: --ps needs pixel-shader translation and VS/PS linking, which this project does not have yet");
        return ExitCode::FAILURE;
    }
    let name = args.file.display();
    let result = std::fs::read(&args.file)
        .map_err(|e| TranslateError::Failed(e.to_string()))
        .and_then(|bytes| {
            let caps = if args.swvp {
                DeviceCaps::software()
            } else {
                DeviceCaps::default()
            };
            let shader = translate_bytes(&bytes, &caps, &vertex_options(args.float_mode))?;
            // The constant names fxc recorded, as comments in front of text output.
            let table = decode_bytes(&bytes)
                .ok()
                .and_then(|p| d3d9_translator::ctab::ConstantTable::of(&p))
                .and_then(Result::ok);
            let out = emit(&shader, args.lang, &args.backend)?;
            Ok(crate::constants::annotate(
                out,
                table.as_ref(),
                &shader.interface,
                args.lang,
            ))
        });
    let out = match result {
        Ok(out) => out,
        Err(e) => {
            eprintln!("{name}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let written = match &args.output {
        Some(path) => std::fs::write(path, &out).map_err(|e| format!("{}: {e}", path.display())),
        None => {
            use std::io::Write;
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(&out)
                .and_then(|()| stdout.flush())
                .map_err(|e| format!("<stdout>: {e}"))
        }
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("d3d9-translate: {e}");
            ExitCode::FAILURE
        }
    }
}
