//! Support for `wine_visual_vs.rs` and `wine_visual_ps.rs`: replaying Wine's d3d9 shader
//! visual tests. Each test binary uses part of it (and allows the rest to be dead code).
//!
//! - [`corpus`]: reading `d3d9_visual.json` (shaders, C data arrays, pixel checks).
//! - [`device`]: the replays' view of `d3d9_backend::device::Device`, which draws everything.
//! - [`functions`]: the ten vertex-shader test functions, call by call.
//! - [`functions_ps`]: the pixel-shader and vertex↔pixel test functions.
//! - [`functions_device`]: instancing, vertex texture fetch and the alpha test.

pub mod corpus;
pub mod device;
pub mod functions;
pub mod functions_device;
pub mod functions_ps;
