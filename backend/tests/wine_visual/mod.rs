//! Support for the link and fog tests that read Wine's d3d9 visual tests
//! (`link_uninitialized.rs`, `link_shademode.rs`, `pixel_fog.rs`): `corpus` reads
//! `d3d9_visual.json` (shaders, C data arrays, pixel checks) and gives Wine's `color_match`.
//! Wine's visual.c itself runs compiled against the C ABI (`capi/tests/wine_visual.rs`).

pub mod corpus;
