//! `d3d9-translate`: command-line access to the translator, one module per subcommand.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod wgsl;

#[derive(Debug, Parser)]
#[command(name = "d3d9-translate", about = "Direct3D 9 shaders to WGSL")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the WGSL of a vertex shader.
    Wgsl(wgsl::WgslArgs),
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Wgsl(args) => wgsl::run(&args),
    }
}
