//! D3D9 sample scenes rendered headless through `d3d9-backend`'s D3D9-style
//! [`Device`](d3d9_backend::device::Device), written as PNG files, or animated in a window
//! ([`window`]).
//!
//! Each scene ([`SCENES`]) is a D3D9 program on a fresh device: one vertex-shader draw
//! ([`draw`]), or a program in the shape of the D3D9 SDK's tutorials and samples
//! ([`program`]): the fixed-function pipeline, and vertex and pixel shaders in D3D9
//! assembly. The headless run also writes `index.html` ([`html`]): each picture, the
//! scene's D3D9 calls, each shader's disassembly beside the WGSL it became. [`c_samples`]
//! builds and runs the C programs of `samples/c/` against libd3d9.

use std::path::{Path, PathBuf};

use d3d9_backend::device::SurfaceData;
use d3d9_backend::Gpu;

pub mod c_samples;
mod d3d;
pub mod draw;
pub mod dxt;
pub mod error;
pub mod html;
pub mod math;
mod objects;
mod png_out;
pub mod program;
mod scenes;
pub mod window;

pub use png_out::write_png;
pub use scenes::{Scene, SceneKind, SCENES};

/// Why a scene could not be rendered or written.
#[derive(Debug, thiserror::Error)]
pub enum SampleError {
    #[error("scene {scene:?}: {source}")]
    Scene {
        scene: &'static str,
        source: Box<error::DrawError>,
    },
    #[error("writing {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("encoding {path}: {source}")]
    Png {
        path: PathBuf,
        source: png::EncodingError,
    },
    #[error("surface format {0:?} has no PNG mapping; scenes render A8R8G8B8")]
    Format(d3d9_backend::device::Format),
    #[error("C samples: {0}")]
    C(#[from] c_samples::CError),
    #[error("writing the gallery page: {0}")]
    Html(#[from] html::HtmlError),
}

/// Renders one scene on a fresh device on `gpu`: its frame at time 0, the back buffer
/// (640x480, `A8R8G8B8`).
pub fn render_scene(gpu: &Gpu, scene: &Scene) -> Result<SurfaceData, SampleError> {
    let render = || -> Result<SurfaceData, error::DrawError> {
        let mut device = draw::scene_device(gpu)?;
        let mut program = scene.create(&mut device)?;
        program.frame(&mut device, 0.0)?;
        let image = device.get_render_target_data(device.back_buffer())?;
        program.release(&mut device)?;
        Ok(image)
    };
    render().map_err(|source| SampleError::Scene {
        scene: scene.name,
        source: Box::new(source),
    })
}

/// Renders every scene of [`SCENES`] into `out/<name>.png` (creating `out`), then writes
/// `out/index.html` naming them (and the C samples' pictures `c_samples` put there), and
/// returns the pictures written, in order.
pub fn render_gallery(gpu: &Gpu, out: &Path) -> Result<Vec<PathBuf>, SampleError> {
    std::fs::create_dir_all(out).map_err(|source| SampleError::Io {
        path: out.to_owned(),
        source,
    })?;
    let mut written = Vec::new();
    for scene in SCENES {
        let image = render_scene(gpu, scene)?;
        let path = out.join(format!("{}.png", scene.name));
        write_png(&image, &path)?;
        written.push(path);
    }
    html::write_index(out)?;
    Ok(written)
}

/// Builds and runs the C samples ([`c_samples`]) and writes `out/c_<name>.png` for each
/// (before [`render_gallery`], whose page shows them); returns the pictures written.
pub fn render_c_gallery(out: &Path) -> Result<Vec<PathBuf>, SampleError> {
    std::fs::create_dir_all(out).map_err(|source| SampleError::Io {
        path: out.to_owned(),
        source,
    })?;
    let build_dir = std::env::temp_dir().join(format!("d3d9-c-samples-{}", std::process::id()));
    let rendered = c_samples::render_all(&build_dir);
    // The build folder is scratch; failing to remove it changes nothing.
    let _ = std::fs::remove_dir_all(&build_dir);
    let mut written = Vec::new();
    for (name, image) in rendered? {
        let path = out.join(format!("c_{name}.png"));
        write_png(&image, &path)?;
        written.push(path);
    }
    Ok(written)
}
