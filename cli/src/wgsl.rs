//! `d3d9-translate wgsl FILE`: print the WGSL of a vertex shader (a pixel shader is refused
//! as unsupported: there is no pixel-shader translation yet).

use clap::{Args, ValueEnum};
use d3d9_translator::bytecode::decode_bytes;
use d3d9_translator::bytecode::Stage;
use d3d9_translator::check::check;
use d3d9_translator::lift::{translate_vertex_shader, FloatMode, VertexShaderOptions};
use std::path::PathBuf;
use std::process::ExitCode;

/// Float rules on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum FloatModeArg {
    Legacy,
    LegacyStrict,
    Ieee,
}

/// Arguments of `wgsl`.
#[derive(Debug, Args)]
pub struct WgslArgs {
    /// Shader bytecode file (little-endian tokens).
    pub file: PathBuf,
    /// D3D9 float rules (legacy: cheap form; legacy-strict: exact) or plain IEEE arithmetic.
    #[arg(long, value_enum, default_value = "legacy")]
    pub float_mode: FloatModeArg,
    /// Software vertex processing (8192 float constants in a storage buffer).
    #[arg(long)]
    pub swvp: bool,
    /// Check and translate as a Direct3D 8 device does (no `dcl` needed for vertex inputs).
    #[arg(long, conflicts_with = "swvp")]
    pub d3d8: bool,
    /// Vertex declaration elements to specialise the inputs for.
    #[arg(long)]
    pub decl: Option<PathBuf>,
    /// Pixel shader to link the outputs against.
    #[arg(long)]
    pub ps: Option<PathBuf>,
}

/// Run `wgsl`.
pub fn run(args: &WgslArgs) -> ExitCode {
    if args.ps.is_some() {
        eprintln!("unsupported: --ps needs pixel-shader translation and VS/PS linking, which this project does not have yet");
        return ExitCode::FAILURE;
    }
    let bytes = match std::fs::read(&args.file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{}: {e}", args.file.display());
            return ExitCode::FAILURE;
        }
    };
    let program = match decode_bytes(&bytes) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{}: {e}", args.file.display());
            return ExitCode::FAILURE;
        }
    };
    // Only vertex shaders are translated; a pixel shader is legal input this project cannot
    // translate yet, so say that rather than what the vertex-shader creation call would.
    if program.stage() == Stage::Pixel {
        eprintln!(
            "{}: unsupported: {} is a pixel shader; pixel-shader translation is not implemented yet (wgsl translates vertex shaders only)",
            args.file.display(),
            program.version
        );
        return ExitCode::FAILURE;
    }
    // Only checked programs are translated: check as the device would at creation.
    let caps = crate::device_caps(args.swvp, args.d3d8);
    let checked = match check(&program, Stage::Vertex, &caps) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{}: {e}", args.file.display());
            return ExitCode::FAILURE;
        }
    };
    let input_fetches = match &args.decl {
        Some(path) => match declaration_fetches(path, &program, args.swvp) {
            Ok(f) => Some(f),
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        },
        None => None,
    };
    let options = VertexShaderOptions {
        input_fetches,
        float_mode: match args.float_mode {
            FloatModeArg::Legacy => FloatMode::Legacy,
            FloatModeArg::LegacyStrict => FloatMode::LegacyStrict,
            FloatModeArg::Ieee => FloatMode::Ieee,
        },
        ..Default::default()
    };
    match translate_vertex_shader(&checked, &options).and_then(|t| t.wgsl()) {
        Ok(w) => {
            print!("{w}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{}: {e}", args.file.display());
            ExitCode::FAILURE
        }
    }
}

/// Bind the declaration in `path` (raw `D3DVERTEXELEMENT9` bytes) to `program` as a draw would,
/// each stream with its packed vertex size as stride, and return the input fetches.
fn declaration_fetches(
    path: &std::path::Path,
    program: &d3d9_translator::bytecode::Program,
    software: bool,
) -> Result<Vec<d3d9_translator::decl::InputFetch>, String> {
    use d3d9_translator::decl::{bind_program, StreamSource, VertexDeclaration, VertexProcessing};
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let decl = VertexDeclaration::from_bytes(&bytes).map_err(|e| e.to_string())?;
    let last = decl.streams().last().copied().unwrap_or(0);
    let streams: Vec<StreamSource> = (0..=last)
        .map(|s| StreamSource {
            stride: decl.stream_size(s),
            ..Default::default()
        })
        .collect();
    let processing = if software {
        VertexProcessing::Software
    } else {
        VertexProcessing::Hardware
    };
    let binding = bind_program(&decl, program, &streams, processing).map_err(|e| e.to_string())?;
    if binding.pretransformed {
        return Err(
            "the declaration is pre-transformed (POSITIONT): D3D9 runs no vertex shader".into(),
        );
    }
    Ok(binding.fetches())
}
