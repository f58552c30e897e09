//! `d3d9-translate`: the command-line face of the translator. One module per subcommand;
//! this file only parses the command line and dispatches.

mod asm;
mod check;
mod decl;
mod disasm;
mod info;
mod io;

use clap::{Parser, Subcommand};
use d3d9_translate::{batch, translate, wgsl};
use std::process::ExitCode;

/// Direct3D 9 shader bytecode tools.
#[derive(Parser)]
#[command(name = "d3d9-translate", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print shader bytecode as fxc-style assembly text.
    Disasm(disasm::Args),
    /// Assemble fxc-style assembly text into shader bytecode.
    Asm(asm::Args),
    /// Check a shader as Direct3D 9 shader creation would: silent exit 0 if accepted.
    Check(check::CheckArgs),
    /// Summarise a shader: version, inputs, outputs, samplers, constants, registers.
    Info(info::Args),
    /// Vertex declarations: elements, FVF and DX8 forms, and wgpu layouts for a vertex shader.
    Decl(decl::Args),
    /// Translate a vertex shader to WGSL.
    Wgsl(wgsl::WgslArgs),
    /// Translate a shader to WGSL, SPIR-V, MSL, HLSL or GLSL (naga's back ends).
    Translate(translate::TranslateArgs),
    /// Translate every D3D9 shader under folders, in parallel, with a summary (and a JSON report).
    Batch(batch::BatchArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Disasm(args) => disasm::run(&args),
        Command::Asm(args) => asm::run(&args),
        Command::Info(args) => info::run(&args),
        Command::Check(args) => return check::run(&args),
        Command::Decl(args) => decl::run(&args),
        Command::Wgsl(args) => return wgsl::run(&args),
        Command::Translate(args) => return translate::run(&args),
        Command::Batch(args) => return batch::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("d3d9-translate: {e}");
            ExitCode::FAILURE
        }
    }
}
