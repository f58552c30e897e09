//! D3D9 sample scenes rendered headless through the translator and
//! `d3d9-backend`, written as PNG files.
//!
//! Each scene is a D3D9 vertex shader from `shaders/` (assembly text), its
//! vertex data, declaration and CPU-computed constants. [`pipeline`] makes
//! the draw as D3D9 would: assemble → check → bind the declaration → lift
//! to a naga module → draw with the fixed-function pixel stage.

use std::path::{Path, PathBuf};

use d3d9_backend::{Gpu, Image};

pub mod math;
pub mod pipeline;
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
        source: pipeline::PipelineError,
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
    #[error("image format {0:?} has no PNG mapping; scenes render Rgba8Unorm")]
    Format(wgpu::TextureFormat),
}

/// Renders one scene (640x480, `Rgba8Unorm`).
pub fn render_scene(gpu: &Gpu, scene: &Scene) -> Result<Image, SampleError> {
    (scene.setup)()
        .and_then(|draw| pipeline::render_draw(gpu, &draw))
        .map_err(|source| SampleError::Scene {
            scene: scene.name,
            source,
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
