//! `d3d9-samples --out DIR`: renders every sample scene headless and
//! writes `DIR/<scene>.png`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use d3d9_backend::Gpu;

/// Render the D3D9 sample scenes headless to PNG files.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// Directory to write `<scene>.png` into (created if missing).
    #[arg(long)]
    out: PathBuf,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(err) => {
            eprintln!("d3d9-samples: {err}");
            return ExitCode::FAILURE;
        }
    };
    let info = gpu.adapter_info();
    println!(
        "adapter: {} ({:?}, {:?})",
        info.name, info.backend, info.device_type
    );
    match d3d9_samples::render_gallery(&gpu, &args.out) {
        Ok(written) => {
            for (path, scene) in written.iter().zip(d3d9_samples::SCENES) {
                println!("wrote {} — {}", path.display(), scene.description);
            }
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("d3d9-samples: {err}");
            ExitCode::FAILURE
        }
    }
}
