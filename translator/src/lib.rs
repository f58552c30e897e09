//! Direct3D 9 shader bytecode and vertex declarations, translated for wgpu.
//!
//! Data flows one way: bytes → [`bytecode::Program`] → checked program → naga module →
//! WGSL, with vertex declarations turned into wgpu vertex buffer layouts beside it.

pub mod asm;
pub mod bytecode;
pub mod check;
pub mod ctab;
pub mod decl;
pub mod fixed_function;
pub mod fog;
pub mod interp;
pub mod lift;
pub mod rules;
pub mod signature;
