//! The library part of `d3d9-translate`: translating D3D9 shaders into every naga back end,
//! one at a time ([`translate`]) or a whole set in parallel with per-shader results
//! ([`batch::translate_batch`], for a compatibility layer warming its shader cache). It lives
//! here, not in d3d9-translator, because it needs rayon and naga's extra back ends, which the
//! translator library does not take.

pub mod batch;
pub mod caps;
pub mod constants;
pub mod translate;
pub mod wgsl;
