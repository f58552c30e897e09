//! `d3d9-translate check FILE [--swvp]`: does Direct3D 9 accept this shader? Prints nothing
//! and exits 0 when it does; prints the error on stderr and exits 1 when it does not.

use crate::io::read_bytes;
use d3d9_translator::bytecode::{decode_bytes, Stage};
use d3d9_translator::check::check_bytes;
use std::path::PathBuf;
use std::process::ExitCode;

/// The creation call to check against.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum CreateCall {
    /// `CreateVertexShader`.
    Vertex,
    /// `CreatePixelShader`.
    Pixel,
}

/// Arguments of `check`.
#[derive(clap::Args)]
pub struct CheckArgs {
    /// Shader bytecode (raw little-endian tokens, as `fxc /Fo` writes); `-` reads stdin.
    file: PathBuf,
    /// Check for a software-vertex-processing device (8192 float constants, 2048 i#/b#).
    #[arg(long)]
    swvp: bool,
    /// Check as a Direct3D 8 device does (vs_1_1/ps_1_4 at most; no `dcl` needed for vertex
    /// inputs, which the declaration's register numbers bind).
    #[arg(long, conflicts_with = "swvp")]
    d3d8: bool,
    /// The creation call the shader is given to (default: the one its version token names).
    #[arg(long = "as", value_enum)]
    create: Option<CreateCall>,
}

/// Run `check`: exit 0 silently when the default SM3 device (or the software one with
/// `--swvp`) accepts the shader, else print the error and exit 1.
pub fn run(args: &CheckArgs) -> ExitCode {
    let bytes = match read_bytes(&args.file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("d3d9-translate: {e}");
            return ExitCode::FAILURE;
        }
    };
    let caps = d3d9_translate::caps::device_caps(args.swvp, args.d3d8);
    // Without --as, the shader goes to the call its own version token names; a stream that
    // does not decode is reported by check_bytes as invalid whichever call it goes to.
    let stage = match args.create {
        Some(CreateCall::Vertex) => Stage::Vertex,
        Some(CreateCall::Pixel) => Stage::Pixel,
        None => decode_bytes(&bytes).map_or(Stage::Vertex, |p| p.stage()),
    };
    match check_bytes(&bytes, stage, &caps) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{}: {e}", args.file.display());
            ExitCode::FAILURE
        }
    }
}
