//! `d3d9-translate translate FILE --lang wgsl|spirv|msl|hlsl|glsl [-o OUT]`: a shader in the
//! language of any naga back end. Every output is written from the module the translator
//! has already validated; the back-end options have defaults that work for every translated
//! shader, vertex or pixel. `--ps` links a vertex shader to a pixel shader and writes both stages
//! in one module (`vs_main`, `ps_main`).

use clap::{Args, ValueEnum};
use d3d9_translator::bytecode::{decode_bytes, Stage};
use d3d9_translator::check::{check, CheckError, DeviceCaps};
use d3d9_translator::lift::{
    translate_pair, translate_pixel_shader, translate_vertex_shader, FloatMode, Link, PairError,
    PairOptions, PairPixelStage, PairVertexStage, PixelShaderOptions, TranslatedShader,
    VertexShaderOptions,
};
use std::path::PathBuf;
use std::process::ExitCode;

/// Float rules on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum FloatModeArg {
    Legacy,
    LegacyStrict,
    Ieee,
}

impl FloatModeArg {
    /// The translator's float mode of this argument.
    pub fn mode(self) -> FloatMode {
        match self {
            FloatModeArg::Legacy => FloatMode::Legacy,
            FloatModeArg::LegacyStrict => FloatMode::LegacyStrict,
            FloatModeArg::Ieee => FloatMode::Ieee,
        }
    }
}

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
    /// Whether the output is text that takes `//` comments (every language but SPIR-V).
    pub fn takes_comments(self) -> bool {
        self != Lang::Spirv
    }

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

/// Decode and check a shader's bytes as a device of `caps` would create it.
fn checked_bytes(
    bytes: &[u8],
    caps: &DeviceCaps,
) -> Result<d3d9_translator::check::CheckedProgram, TranslateError> {
    let program = decode_bytes(bytes)?;
    let stage = program.stage();
    check(&program, stage, caps).map_err(|e| match e {
        CheckError::Invalid(rule) => TranslateError::Invalid(rule),
        CheckError::Unsupported(what) => TranslateError::Unsupported(what.to_string()),
    })
}

fn lift_error(e: d3d9_translator::lift::LiftError) -> TranslateError {
    if e.is_unsupported() {
        TranslateError::Unsupported(e.to_string())
    } else {
        TranslateError::Failed(e.to_string())
    }
}

/// The pixel-shader options that go with a vertex shader's: the same float mode.
pub fn pixel_options(options: &VertexShaderOptions) -> PixelShaderOptions {
    PixelShaderOptions {
        float_mode: options.float_mode,
        ..Default::default()
    }
}

/// Translate a shader's bytes, vertex or pixel by its version token, as a device of `caps`
/// would create it (a pixel shader takes the float mode of `options`).
pub fn translate_bytes(
    bytes: &[u8],
    caps: &DeviceCaps,
    options: &VertexShaderOptions,
) -> Result<TranslatedShader, TranslateError> {
    let checked = checked_bytes(bytes, caps)?;
    match checked.program().stage() {
        Stage::Vertex => translate_vertex_shader(&checked, options),
        Stage::Pixel => translate_pixel_shader(&checked, &pixel_options(options)),
    }
    .map_err(lift_error)
}

/// A vertex shader and the pixel shader it feeds, linked by semantic and translated with the
/// link's maps (`d3d9_translator::lift::translate_pair`), and one module holding both entry
/// points: `vs_main` and `ps_main`.
pub struct Linked {
    pub vertex: TranslatedShader,
    pub pixel: TranslatedShader,
    pub link: Link,
    /// The two stages in one validated module (every name of the vertex module prefixed
    /// `vs_`, of the pixel module `ps_`).
    pub module: naga::Module,
    pub info: naga::valid::ModuleInfo,
    /// `module` as WGSL.
    pub wgsl: String,
}

/// Link and translate a vertex and a pixel shader as a draw pairs them (default
/// `PairOptions`: Gouraud shading, triangles, no fog).
pub fn translate_linked(
    vs_bytes: &[u8],
    ps_bytes: &[u8],
    caps: &DeviceCaps,
    options: &VertexShaderOptions,
) -> Result<Linked, TranslateError> {
    let vs = checked_bytes(vs_bytes, caps)?;
    let ps = checked_bytes(ps_bytes, caps)?;
    let stage_of = |c: &d3d9_translator::check::CheckedProgram| c.program().stage();
    if stage_of(&vs) != Stage::Vertex || stage_of(&ps) != Stage::Pixel {
        return Err(TranslateError::Failed(format!(
            "--ps links a vertex shader to a pixel shader; got a {} shader and a {} shader",
            stage_of(&vs),
            stage_of(&ps)
        )));
    }
    let pair = translate_pair(
        PairVertexStage::Shader(&vs),
        PairPixelStage::Shader {
            program: &ps,
            options: pixel_options(options),
        },
        PairOptions {
            vertex: options.clone(),
            ..PairOptions::default()
        },
    )
    .map_err(|e| match e {
        PairError::Vertex(e) | PairError::Pixel(e) => lift_error(e),
        PairError::Link(e) => TranslateError::Failed(format!("link: {e}")),
        PairError::FixedFunction(e) => TranslateError::Failed(e.to_string()),
    })?;
    let (vertex, link) = (pair.vertex, pair.link);
    let pixel = pair
        .pixel
        .ok_or_else(|| TranslateError::Failed("no pixel stage translated".into()))?;
    d3d9_translator::lift::link::check_stage_agreement(&vertex.module, &pixel.module)
        .map_err(|e| TranslateError::Failed(format!("linked stages disagree: {e}")))?;
    let wgsl = combined_wgsl(&vertex, &pixel)?;
    let module = naga::front::wgsl::parse_str(&wgsl).map_err(|e| {
        TranslateError::Failed(format!("combined module: {}", e.emit_to_string(&wgsl)))
    })?;
    let info = d3d9_translator::lift::validate(&module).map_err(lift_error)?;
    Ok(Linked {
        vertex,
        pixel,
        link,
        module,
        info,
        wgsl,
    })
}

/// `shader`'s module with every global, constant, function and named type prefixed, and its
/// entry point named `{prefix}main`.
fn prefixed(shader: &TranslatedShader, prefix: &str) -> Result<String, TranslateError> {
    let mut module = shader.module.clone();
    let name = |n: &mut Option<String>| {
        if let Some(n) = n {
            *n = format!("{prefix}{n}");
        }
    };
    for (_, g) in module.global_variables.iter_mut() {
        name(&mut g.name);
    }
    for (_, c) in module.constants.iter_mut() {
        name(&mut c.name);
    }
    for (_, f) in module.functions.iter_mut() {
        name(&mut f.name);
    }
    for e in &mut module.entry_points {
        e.name = format!("{prefix}{}", e.name);
    }
    // Struct names (`VertexOutput`, `PixelOutput`): the type arena cannot be renamed in place,
    // and the two stages' names differ already.
    let info = d3d9_translator::lift::validate(&module).map_err(lift_error)?;
    let renamed = TranslatedShader {
        module,
        info,
        interface: shader.interface.clone(),
    };
    renamed.wgsl().map_err(lift_error)
}

/// The WGSL of both stages as one module: the directives of both first, then the vertex
/// stage's declarations, then the pixel stage's.
fn combined_wgsl(
    vertex: &TranslatedShader,
    pixel: &TranslatedShader,
) -> Result<String, TranslateError> {
    let vs = prefixed(vertex, "vs_")?;
    let ps = prefixed(pixel, "ps_")?;
    let is_directive = |l: &str| l.starts_with("diagnostic(") || l.starts_with("enable ");
    let mut directives: Vec<&str> = vs
        .lines()
        .chain(ps.lines())
        .filter(|l| is_directive(l))
        .collect();
    directives.dedup();
    let body = |t: &str| {
        t.lines()
            .filter(|l| !is_directive(l))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut out = String::new();
    for d in directives {
        out.push_str(d);
        out.push('\n');
    }
    out.push_str(&body(&vs));
    out.push('\n');
    out.push_str(&body(&ps));
    out.push('\n');
    Ok(out)
}

/// Write a translated (already validated) module in `lang`.
pub fn emit(
    shader: &TranslatedShader,
    lang: Lang,
    opts: &BackendOptions,
) -> Result<Vec<u8>, TranslateError> {
    if lang == Lang::Wgsl {
        return shader
            .wgsl()
            .map(String::into_bytes)
            .map_err(|e| TranslateError::Failed(format!("WGSL output: {e}")));
    }
    emit_module(&shader.module, &shader.info, lang, opts)
}

/// Write the linked stages' one module in `lang`, both entry points in it. GLSL holds one
/// stage per shader, so it is refused there.
pub fn emit_linked(
    linked: &Linked,
    lang: Lang,
    opts: &BackendOptions,
) -> Result<Vec<u8>, TranslateError> {
    match lang {
        Lang::Wgsl => Ok(linked.wgsl.clone().into_bytes()),
        Lang::Glsl => Err(TranslateError::Unsupported(
            "--ps with --lang glsl: a GLSL shader holds one stage; translate each file on its own"
                .into(),
        )),
        _ => emit_module(&linked.module, &linked.info, lang, opts),
    }
}

/// Write a validated module in `lang`: every entry point of a module that has several
/// (SPIR-V, MSL, HLSL), the one entry point otherwise.
fn emit_module(
    module: &naga::Module,
    info: &naga::valid::ModuleInfo,
    lang: Lang,
    opts: &BackendOptions,
) -> Result<Vec<u8>, TranslateError> {
    let fail = |what: &str, e: &dyn std::fmt::Display| {
        TranslateError::Failed(format!("{what} output: {e}"))
    };
    let entry = module
        .entry_points
        .first()
        .ok_or_else(|| TranslateError::Failed("module has no entry point".into()))?;
    let single = module.entry_points.len() == 1;
    let stage = entry.stage;
    let name = entry.name.clone();
    // The back ends besides WGSL take no pipeline-overridable constants (the `i#` of loops,
    // `lift::LoopConstant`): they get their defaults, the shader that reads the uniform
    // (resolved as the device resolves them: `lift::resolve_overrides`).
    let resolved;
    let (module, info) = if lang == Lang::Wgsl || module.overrides.is_empty() {
        (module, info)
    } else {
        let mut m = module.clone();
        d3d9_translator::lift::resolve_overrides(&mut m, &[]);
        let i = d3d9_translator::lift::validate(&m).map_err(|e| fail("resolved overrides", &e))?;
        resolved = (m, i);
        (&resolved.0, &resolved.1)
    };
    Ok(match lang {
        Lang::Wgsl => {
            let mut w = naga::back::wgsl::Writer::new(
                String::new(),
                naga::back::wgsl::WriterFlags::empty(),
            );
            w.write(module, info).map_err(|e| fail("WGSL", &e))?;
            w.finish().into_bytes()
        }
        Lang::Spirv => {
            let options = naga::back::spv::Options {
                lang_version: opts.spirv_version,
                ..Default::default()
            };
            let pipeline = naga::back::spv::PipelineOptions {
                shader_stage: stage,
                entry_point: name,
            };
            naga::back::spv::write_vec(module, info, &options, single.then_some(&pipeline))
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
                entry_point: single.then_some((stage, name)),
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
                entry_point: single.then_some((stage, name)),
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
        float_mode: float_mode.mode(),
        ..Default::default()
    }
}

/// Run `translate`.
pub fn run(args: &TranslateArgs) -> ExitCode {
    let name = args.file.display();
    let caps = if args.swvp {
        DeviceCaps::software()
    } else {
        DeviceCaps::default()
    };
    if let Some(ps) = &args.ps {
        let result = std::fs::read(&args.file)
            .and_then(|vs| Ok((vs, std::fs::read(ps)?)))
            .map_err(|e| TranslateError::Failed(e.to_string()))
            .and_then(|(vs, ps)| {
                translate_linked(&vs, &ps, &caps, &vertex_options(args.float_mode))
            })
            .and_then(|linked| emit_linked(&linked, args.lang, &args.backend));
        return match result {
            Ok(out) => write_output(args.output.as_deref(), &out),
            Err(e) => {
                eprintln!("{name} + {}: {e}", ps.display());
                ExitCode::FAILURE
            }
        };
    }
    let result = std::fs::read(&args.file)
        .map_err(|e| TranslateError::Failed(e.to_string()))
        .and_then(|bytes| {
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
                args.lang.takes_comments(),
            ))
        });
    match result {
        Ok(out) => write_output(args.output.as_deref(), &out),
        Err(e) => {
            eprintln!("{name}: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Write `out` to `path`, or to stdout.
fn write_output(path: Option<&std::path::Path>, out: &[u8]) -> ExitCode {
    let written = match path {
        Some(path) => std::fs::write(path, out).map_err(|e| format!("{}: {e}", path.display())),
        None => {
            use std::io::Write;
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(out)
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
