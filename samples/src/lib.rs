//! D3D9 sample scenes rendered headless through `d3d9-backend` and
//! written as PNG files.
//!
//! For now the scenes use hand-written WGSL; they move to translated D3D9
//! shaders from `shaders/` as the translator grows.

use std::path::{Path, PathBuf};

use d3d9_backend::{Gpu, GpuError, Image};

mod png_out;
mod scenes;

pub use png_out::write_png;
pub use scenes::{Scene, SCENES};

/// Why a scene could not be rendered or written.
#[derive(Debug, thiserror::Error)]
pub enum SampleError {
    #[error("rendering scene {scene:?}: {source}")]
    Render {
        scene: &'static str,
        source: GpuError,
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

/// Renders one scene.
pub fn render_scene(gpu: &Gpu, scene: &Scene) -> Result<Image, SampleError> {
    (scene.render)(gpu).map_err(|source| SampleError::Render {
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
