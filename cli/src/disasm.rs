//! `d3d9-translate disasm FILE`: bytecode → fxc-style assembly text on stdout.

use crate::io::{print, read_program, CliError};
use d3d9_translator::asm::disassemble;
use std::path::PathBuf;

/// Arguments of `disasm`.
#[derive(clap::Args)]
pub struct Args {
    /// Shader bytecode (raw little-endian tokens, as `fxc /Fo` writes); `-` reads stdin.
    file: PathBuf,
}

pub fn run(args: &Args) -> Result<(), CliError> {
    let program = read_program(&args.file)?;
    print(&disassemble(&program))
}
