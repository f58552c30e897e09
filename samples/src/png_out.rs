//! 8-bit surfaces to PNG files.

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

use d3d9_backend::device::SurfaceData;

use crate::SampleError;

/// Writes an 8-bit surface (A8R8G8B8, X8R8G8B8, A8B8G8R8, X8B8G8R8; X channels as stored)
/// as an 8-bit RGBA PNG at `path`.
pub fn write_png(image: &SurfaceData, path: &Path) -> Result<(), SampleError> {
    let mut rgba = Vec::with_capacity(image.width as usize * image.height as usize * 4);
    for y in 0..image.height {
        for x in 0..image.width {
            let argb = image.color(x, y).ok_or(SampleError::Format(image.format))?;
            let [a, r, g, b] = argb.to_be_bytes();
            rgba.extend([r, g, b, a]);
        }
    }
    let png_err = |source| SampleError::Png {
        path: path.to_owned(),
        source,
    };
    let file = File::create(path).map_err(|source| SampleError::Io {
        path: path.to_owned(),
        source,
    })?;
    let mut encoder = png::Encoder::new(BufWriter::new(file), image.width, image.height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(png_err)?;
    writer.write_image_data(&rgba).map_err(png_err)?;
    writer.finish().map_err(png_err)
}
