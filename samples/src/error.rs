//! Why a scene's draw could not be made.

use d3d9_backend::device::DeviceError;
use d3d9_translator::asm::AsmError;

/// Why a draw could not be made.
#[derive(Debug, thiserror::Error)]
pub enum DrawError {
    #[error("assembling a shader: {0}")]
    Assemble(#[from] AsmError),
    #[error("the draw's indices are not whole triangles ({0} indices)")]
    Indices(usize),
    #[error("{0}")]
    Device(#[from] DeviceError),
    #[error("the draw's objects were released (before a Reset) and not made again")]
    Released,
}
