//! The scenes of the gallery.

use d3d9_backend::{Gpu, GpuError, Image};

mod triangle;

/// One named scene: renders itself to an `Rgba8Unorm` image.
pub struct Scene {
    /// File stem of the PNG (`<name>.png`).
    pub name: &'static str,
    /// One line saying what the scene shows.
    pub description: &'static str,
    pub render: fn(&Gpu) -> Result<Image, GpuError>,
}

/// Every scene, in gallery order.
pub static SCENES: &[Scene] = &[triangle::SCENE];
