//! Setup shared by the `Device` tests: a device (or the adapter, for a wgpu device of the
//! test's own) on the default adapter (GPU tests fail, not skip, without one), result
//! unwrapping that prints the error, shader tokens from assembly text, vertex data from
//! floats, and the textures of a bump-mapping draw.

use d3d9_backend::device::Format;
use d3d9_backend::{Device, DeviceParams};
use d3d9_translator::asm::assemble_tokens;

/// A device with the default parameters; panics naming the missing adapter.
pub fn device() -> Device {
    device_with(DeviceParams::default())
}

/// A device with `params`; panics naming the missing adapter.
pub fn device_with(params: DeviceParams) -> Device {
    Device::new(params).unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"))
}

/// The default adapter (`WGPU_BACKEND` and the like), for a test that opens its own wgpu
/// device (`Device::from_wgpu`); panics naming the missing adapter.
pub fn default_adapter() -> wgpu::Adapter {
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    pollster::block_on(wgpu::util::initialize_adapter_from_env_or_default(
        &instance, None,
    ))
    .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"))
}

/// The value of `r`; panics with the error's message.
pub fn ok<T, E: std::fmt::Display>(r: Result<T, E>) -> T {
    r.unwrap_or_else(|e| panic!("{e}"))
}

/// The tokens of the assembly `text`; panics with the assembler's error and the text.
pub fn tokens(text: &str) -> Vec<u32> {
    assemble_tokens(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// `values` as little-endian bytes, the layout of a vertex buffer of FLOAT elements.
pub fn floats(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// Positions (x, y, 0.5) of `bands` horizontal bands across clip space, bottom to top, two
/// triangles (six vertices) each: band `b` is drawn by vertices `6b .. 6b + 6`.
pub fn band_positions(bands: usize) -> Vec<f32> {
    let mut vertices = Vec::new();
    for b in 0..bands {
        let y0 = -1.0 + 2.0 * b as f32 / bands as f32;
        let y1 = -1.0 + 2.0 * (b + 1) as f32 / bands as f32;
        for [x, y] in [
            [-1.0, y0],
            [1.0, y0],
            [-1.0, y1],
            [1.0, y0],
            [1.0, y1],
            [-1.0, y1],
        ] {
            vertices.extend_from_slice(&[x, y, 0.5]);
        }
    }
    vertices
}

/// A fresh folder under the system's temporary folder for one test (`what` names the test
/// file, `test` the test), removed when dropped.
pub struct TempFolder(pub std::path::PathBuf);

impl TempFolder {
    pub fn new(what: &str, test: &str) -> TempFolder {
        let path = std::env::temp_dir().join(format!("d3d9-{what}-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        TempFolder(path)
    }
}

impl Drop for TempFolder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Sets the textures of a bump-mapping draw: on stage 0 a 1x1 `X8L8V8U8` bump map (du =
/// 64/127 ≈ 0.504, dv = 0, l = 0x80), on stage 1 a 4x1 `A8R8G8B8` strip of red, green, blue
/// and white.
pub fn set_bump_textures(dev: &mut Device) {
    let bump = ok(dev.create_texture(1, 1, 1, Format::X8L8V8U8));
    ok(dev.update_texture(bump, 0, &[64, 0, 0x80, 0]));
    ok(dev.set_texture(0, Some(bump)));
    let strip = ok(dev.create_texture(4, 1, 1, Format::A8R8G8B8));
    let texels: Vec<u8> = [0xffff_0000u32, 0xff00_ff00, 0xff00_00ff, 0xffff_ffff]
        .iter()
        .flat_map(|t| t.to_le_bytes())
        .collect();
    ok(dev.update_texture(strip, 0, &texels));
    ok(dev.set_texture(1, Some(strip)));
}
