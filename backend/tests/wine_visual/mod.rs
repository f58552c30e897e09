//! Support for `wine_visual_vs.rs`: replaying Wine's d3d9 vertex-shader visual tests.
//!
//! - [`corpus`]: reading `d3d9_visual.json` (shaders, C data arrays, pixel checks).
//! - [`device`]: the small D3D9 device the draws run on.
//! - [`functions`]: the ten test functions, call by call.

pub mod corpus;
pub mod device;
pub mod functions;
