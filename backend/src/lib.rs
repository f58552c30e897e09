//! Runs translated Direct3D 9 vertex work on wgpu.
