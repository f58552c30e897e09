//! `d3d9-translate wgsl FILE`: print the WGSL of a vertex or pixel shader;
//! `wgsl VSFILE --ps PSFILE` links the two by semantic and prints both stages in one module
//! (`vs_main`, `ps_main`).

use crate::translate::FloatModeArg;
use clap::Args;
use d3d9_translator::bytecode::decode_bytes;
use d3d9_translator::bytecode::Stage;
use d3d9_translator::check::check;
use d3d9_translator::lift::{translate_pixel_shader, translate_vertex_shader, VertexShaderOptions};
use std::path::PathBuf;
use std::process::ExitCode;

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
    /// Pixel shader to link the vertex shader's outputs to: both stages are printed, linked,
    /// in one module.
    #[arg(long)]
    pub ps: Option<PathBuf>,
}

/// Run `wgsl`.
pub fn run(args: &WgslArgs) -> ExitCode {
    let fail = |what: &dyn std::fmt::Display| {
        eprintln!("{what}");
        ExitCode::FAILURE
    };
    let bytes = match std::fs::read(&args.file) {
        Ok(b) => b,
        Err(e) => return fail(&format!("{}: {e}", args.file.display())),
    };
    let program = match decode_bytes(&bytes) {
        Ok(p) => p,
        Err(e) => return fail(&format!("{}: {e}", args.file.display())),
    };
    // Only checked programs are translated: check as the device would at creation.
    let caps = crate::caps::device_caps(args.swvp, args.d3d8);
    let stage = program.stage();
    let checked = match check(&program, stage, &caps) {
        Ok(c) => c,
        Err(e) => return fail(&format!("{}: {e}", args.file.display())),
    };
    let float_mode = args.float_mode.mode();
    if stage == Stage::Pixel {
        if args.decl.is_some() || args.ps.is_some() {
            return fail(&format!(
                "{}: {} is a pixel shader: --decl and --ps apply to a vertex shader",
                args.file.display(),
                program.version
            ));
        }
        let options = d3d9_translator::lift::PixelShaderOptions {
            float_mode,
            ..Default::default()
        };
        return match translate_pixel_shader(&checked, &options).and_then(|t| t.wgsl()) {
            Ok(w) => {
                print!("{w}");
                ExitCode::SUCCESS
            }
            Err(e) => fail(&format!("{}: {e}", args.file.display())),
        };
    }
    let input_fetches = match &args.decl {
        Some(path) => match declaration_fetches(path, &program, args.swvp) {
            Ok(f) => Some(f),
            Err(e) => return fail(&format!("{}: {e}", path.display())),
        },
        None => None,
    };
    let options = VertexShaderOptions {
        input_fetches,
        float_mode,
        ..Default::default()
    };
    if let Some(ps) = &args.ps {
        let linked = std::fs::read(ps)
            .map_err(|e| crate::translate::TranslateError::Failed(e.to_string()))
            .and_then(|ps_bytes| {
                crate::translate::translate_linked(&bytes, &ps_bytes, &caps, &options)
            });
        return match linked {
            Ok(l) => {
                print!("{}", l.wgsl);
                ExitCode::SUCCESS
            }
            Err(e) => fail(&format!("{} + {}: {e}", args.file.display(), ps.display())),
        };
    }
    match translate_vertex_shader(&checked, &options).and_then(|t| t.wgsl()) {
        Ok(w) => {
            print!("{w}");
            ExitCode::SUCCESS
        }
        Err(e) => fail(&format!("{}: {e}", args.file.display())),
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
