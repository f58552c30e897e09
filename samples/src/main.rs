//! `d3d9-samples --out DIR`: renders every sample scene headless and writes
//! `DIR/<scene>.png`, the C samples' `DIR/c_<name>.png` (when libd3d9.so is built: see
//! `c_samples`) and `DIR/index.html`. `d3d9-samples --window [SCENE]`: animates one scene (the first by
//! default) in a window, vsync-paced; Esc quits, resizing works (the device is `Reset`).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use d3d9_backend::Gpu;
use d3d9_samples::window::{run, WindowOptions};
use d3d9_samples::SCENES;

/// Render the D3D9 sample scenes headless to PNG files, or one in a window.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// Directory to write `<scene>.png` into (created if missing).
    #[arg(long, required_unless_present = "window")]
    out: Option<PathBuf>,
    /// Open a window and animate SCENE in it (default: the first scene).
    #[arg(long, value_name = "SCENE", num_args = 0..=1, default_missing_value = "")]
    window: Option<String>,
    /// With --window: stop after this many presented frames.
    #[arg(long, requires = "window")]
    frames: Option<u64>,
    /// With --window: draw every frame as the gallery's still picture (time 0).
    #[arg(long, requires = "window")]
    still: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    if let Some(name) = &args.window {
        let scene = match name.as_str() {
            "" => SCENES.first(),
            name => SCENES.iter().find(|s| s.name == name),
        };
        let Some(scene) = scene else {
            let names: Vec<_> = SCENES.iter().map(|s| s.name).collect();
            eprintln!(
                "d3d9-samples: no scene {name:?}; scenes: {}",
                names.join(", ")
            );
            return ExitCode::FAILURE;
        };
        let options = WindowOptions {
            frames: args.frames,
            still: args.still,
            after_last_frame: None,
        };
        return match run(scene, options) {
            Ok(frames) => {
                println!("{}: presented {frames} frames", scene.name);
                ExitCode::SUCCESS
            }
            Err(err) => {
                eprintln!("d3d9-samples: {err}");
                ExitCode::FAILURE
            }
        };
    }
    let Some(out) = args.out else {
        return ExitCode::FAILURE;
    };
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
    // The C samples first: the gallery's page shows the pictures they leave.
    match d3d9_samples::render_c_gallery(&out) {
        Ok(written) => {
            for path in written {
                println!("wrote {} — C sample (samples/c)", path.display());
            }
        }
        Err(err) => {
            for sample in d3d9_samples::c_samples::C_SAMPLES {
                // An old run's picture must not pass for this run's.
                let _ = std::fs::remove_file(out.join(format!("c_{}.png", sample.name)));
            }
            eprintln!("d3d9-samples: C samples not rendered: {err}");
        }
    }
    match d3d9_samples::render_gallery(&gpu, &out) {
        Ok(written) => {
            for (path, scene) in written.iter().zip(SCENES) {
                println!("wrote {} — {}", path.display(), scene.description);
            }
            println!("wrote {}", out.join("index.html").display());
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("d3d9-samples: {err}");
            ExitCode::FAILURE
        }
    }
}
