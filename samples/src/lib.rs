//! D3D9 sample scenes rendered headless through `d3d9-backend`'s D3D9-style
//! [`Device`](d3d9_backend::device::Device), written as PNG files.
//!
//! Each scene is a D3D9 vertex shader from `shaders/` (assembly text), its
//! vertex data, declaration or FVF and CPU-computed constants. [`draw`] makes
//! the draw as a D3D9 application would, on a fresh device per scene; the
//! device checks, pairs, translates and renders it.

use std::path::{Path, PathBuf};

use d3d9_backend::device::SurfaceData;
use d3d9_backend::Gpu;

pub mod draw;
pub mod math;
mod png_out;
mod scenes;

pub use png_out::write_png;
pub use scenes::{Scene, SCENES};

/// Why a scene could not be rendered or written.
#[derive(Debug, thiserror::Error)]
pub enum SampleError {
    #[error("scene {scene:?}: {source}")]
    Scene {
        scene: &'static str,
        source: Box<draw::DrawError>,
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
}

/// Renders one scene on a fresh device on `gpu`: the back buffer (640x480, `A8R8G8B8`).
pub fn render_scene(gpu: &Gpu, scene: &Scene) -> Result<SurfaceData, SampleError> {
    draw::scene_device(gpu)
        .map_err(draw::DrawError::from)
        .and_then(|mut device| draw::render_draw(&mut device, &(scene.setup)()))
        .map_err(|source| SampleError::Scene {
            scene: scene.name,
            source: Box::new(source),
        })
}

/// Renders every scene of [`SCENES`] into `out/<name>.png` (creating `out`)
/// and returns the paths written, in order.
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
    Ok(written)
}
