//! `d3d9-translate asm FILE -o OUT`: fxc-style assembly text → bytecode (raw little-endian
//! tokens, as `fxc /Fo` writes).

use crate::io::{read_text, write_bytes, CliError};
use d3d9_translator::asm::assemble_tokens;
use std::path::PathBuf;

/// Arguments of `asm`.
#[derive(clap::Args)]
pub struct Args {
    /// Assembly text; `-` reads stdin.
    file: PathBuf,
    /// Where to write the bytecode; `-` writes stdout.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    output: PathBuf,
}

pub fn run(args: &Args) -> Result<(), CliError> {
    let text = read_text(&args.file)?;
    let tokens = assemble_tokens(&text).map_err(|e| CliError::Input {
        path: if args.file.as_os_str() == "-" {
            "<stdin>".into()
        } else {
            args.file.display().to_string()
        },
        message: e.to_string(),
    })?;
    let bytes: Vec<u8> = tokens.iter().flat_map(|t| t.to_le_bytes()).collect();
    write_bytes(&args.output, &bytes)
}
