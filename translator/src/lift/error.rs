//! The one error type of shader lifting (vertex and pixel).

use crate::bytecode::{Opcode, Stage, TokenOffset, Version};

/// Legal D3D9 that the lifter does not translate yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Feature {
    /// A flow-control instruction with a predicate (`(p0.x) break`, `(p0) call l0`).
    #[error("predicated flow-control instruction")]
    PredicatedFlowControl,
}

/// Why a shader did not translate.
///
/// Translation takes a [`crate::check::CheckedProgram`], so D3D9 rules are not re-checked
/// here: `Unsupported` means legal D3D9 that this translator does not handle; `Internal` is a
/// translator bug (an assumption about a checked program that did not hold, or a module that
/// failed naga validation, with the D3D9 instruction its span names); such a module is never
/// handed out.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LiftError {
    /// The program is of the other stage than the translation asked for.
    #[error("{version} is not a {expected} shader")]
    WrongStage { expected: Stage, version: Version },
    #[error("instruction {index} ({opcode}) at token {offset}: unsupported: {feature}")]
    Unsupported {
        index: usize,
        opcode: Opcode,
        offset: TokenOffset,
        feature: Feature,
    },
    /// More inter-stage variables than WebGPU allows.
    #[error("the shader needs {count} inter-stage variables; WebGPU allows {limit}")]
    TooManyOutputs { count: usize, limit: usize },
    /// The varying map of the options is inconsistent.
    #[error("invalid varying map: {0}")]
    Varyings(#[from] super::link::LinkError),
    /// The options contradict the shader or themselves.
    #[error("invalid options: {0}")]
    Options(String),
    /// A translator bug; the message names the D3D9 instruction where one is known.
    #[error("internal error (translator bug): {0}")]
    Internal(String),
}

impl LiftError {
    /// Whether the shader is legal D3D9 that this translator does not handle.
    pub fn is_unsupported(&self) -> bool {
        matches!(self, LiftError::Unsupported { .. })
    }
}
