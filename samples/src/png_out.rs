//! Rgba8Unorm images to PNG files.

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

use d3d9_backend::Image;

use crate::SampleError;

/// Writes an `Rgba8Unorm` image as an 8-bit RGBA PNG at `path`.
pub fn write_png(image: &Image, path: &Path) -> Result<(), SampleError> {
    if image.format != wgpu::TextureFormat::Rgba8Unorm {
        return Err(SampleError::Format(image.format));
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
    writer.write_image_data(&image.data).map_err(png_err)?;
    writer.finish().map_err(png_err)
}
