//! The one error type of vertex-shader lifting.

use crate::bytecode::{Opcode, TokenOffset, Version};

/// Why a vertex shader did not translate.
///
/// `Invalid` means a D3D9 runtime would refuse the shader; `Unsupported` means legal D3D9 that
/// this translator does not handle. `Internal` is a translator bug (the module it built failed
/// naga validation); such a module is never handed out.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LiftError {
    #[error("{version} is not a vertex shader")]
    NotVertexShader { version: Version },
    #[error("instruction {index} ({opcode}) at token {offset}: unsupported: {what}")]
    Unsupported {
        index: usize,
        opcode: Opcode,
        offset: TokenOffset,
        what: String,
    },
    #[error("instruction {index} ({opcode}) at token {offset}: invalid: {what}")]
    Invalid {
        index: usize,
        opcode: Opcode,
        offset: TokenOffset,
        what: String,
    },
    /// More inter-stage variables than WebGPU allows.
    #[error("the shader needs {count} inter-stage variables; WebGPU allows {limit}")]
    TooManyOutputs { count: usize, limit: usize },
    /// The options contradict the shader or themselves.
    #[error("invalid options: {0}")]
    Options(String),
    /// The generated module failed validation or WGSL output: a translator bug.
    #[error("internal error (translator bug): {0}")]
    Internal(String),
}

impl LiftError {
    /// Whether the shader breaks a D3D9 rule (a D3D9 runtime would reject it).
    pub fn is_invalid(&self) -> bool {
        matches!(self, LiftError::Invalid { .. })
    }

    /// Whether the shader is legal D3D9 that this translator does not handle.
    pub fn is_unsupported(&self) -> bool {
        matches!(self, LiftError::Unsupported { .. })
    }
}
