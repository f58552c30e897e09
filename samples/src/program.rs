//! A scene as a running D3D9 program: it creates its objects once ([`Scene::create`]), draws
//! a frame at any time `t` into render target 0, and releases everything it made (before
//! `Reset`; the windowed run then creates it again).

use d3d9_backend::device::Device;

use crate::draw::{DrawError, Prepared, SceneDraw};
use crate::scenes::{Scene, SceneKind};

/// One scene's objects on one device.
pub trait Program {
    /// Clears and draws the frame at `t` seconds into render target 0.
    fn frame(&mut self, device: &mut Device, t: f32) -> Result<(), DrawError>;
    /// Releases every object it made.
    fn release(&mut self, device: &mut Device) -> Result<(), DrawError>;
}

impl Scene {
    /// Creates the scene's objects on `device`.
    pub fn create(&self, device: &mut Device) -> Result<Box<dyn Program>, DrawError> {
        match self.kind {
            SceneKind::Draw(setup) => Ok(Box::new(DrawProgram {
                prepared: Prepared::new(device, &setup(0.0))?,
                setup,
            })),
            SceneKind::Program(create) => create(device),
        }
    }
}

/// A one-draw vertex-shader scene ([`SceneKind::Draw`]) as a program.
struct DrawProgram {
    setup: fn(f32) -> SceneDraw,
    prepared: Prepared,
}

impl Program for DrawProgram {
    fn frame(&mut self, device: &mut Device, t: f32) -> Result<(), DrawError> {
        self.prepared.draw(device, &(self.setup)(t))
    }

    fn release(&mut self, device: &mut Device) -> Result<(), DrawError> {
        self.prepared.release(device)
    }
}
