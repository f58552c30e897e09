//! A scene as a running D3D9 program: it creates its objects once (`Scene::create`), draws
//! a frame at any time `t` into render target 0, and releases everything it made (before
//! `Reset`; the windowed run then creates it again).

use d3d9_backend::device::Device;

use crate::error::DrawError;

/// One scene's objects on one device.
pub trait Program {
    /// Clears and draws the frame at `t` seconds into render target 0.
    fn frame(&mut self, device: &mut Device, t: f32) -> Result<(), DrawError>;
    /// Releases every object it made.
    fn release(&mut self, device: &mut Device) -> Result<(), DrawError>;
}
