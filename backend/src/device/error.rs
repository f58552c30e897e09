//! The device's one error type: D3D9's `D3DERR_INVALIDCALL` with the reason, and what
//! D3D9 allows but this device cannot do yet.

use d3d9_translator::bytecode::DecodeError;
use d3d9_translator::check::CheckError;
use d3d9_translator::decl::{BindError, DeclError};
use d3d9_translator::lift::{LiftError, LinkError};

use crate::gpu::GpuError;

/// Why a device call failed. Nothing on the device changes when a call fails.
///
/// `Debug` prints the same message as `Display`, so a test returning
/// `Result<(), DeviceError>` fails with the readable reason.
#[derive(thiserror::Error)]
pub enum DeviceError {
    /// `D3DERR_INVALIDCALL`: the call breaks a D3D9 rule (a draw without a declaration, a
    /// range past the end of a buffer, a handle that names nothing, ...).
    #[error("{call}: D3DERR_INVALIDCALL: {reason}")]
    InvalidCall { call: &'static str, reason: String },
    /// Legal D3D9 that this device does not do (yet); nothing was drawn.
    #[error("{call}: unsupported: {what}")]
    Unsupported { call: &'static str, what: String },
    /// `CreateVertexShader` / `CreatePixelShader`: the bytecode does not decode.
    #[error("{call}: the bytecode does not decode: {source}")]
    Decode {
        call: &'static str,
        source: DecodeError,
    },
    /// `CreateVertexShader` / `CreatePixelShader`: the program breaks a D3D9 rule for this
    /// device's caps (or is legal D3D9 that is not supported; see [`CheckError`]).
    #[error("{call}: {source}")]
    Check {
        call: &'static str,
        source: CheckError,
    },
    /// `CreateVertexDeclaration` / `SetFVF`: the declaration breaks a D3D9 rule.
    #[error("{call}: {source}")]
    Declaration {
        call: &'static str,
        source: DeclError,
    },
    /// A draw: the declaration cannot feed the vertex shader with the streams set.
    #[error("{call}: pairing the vertex declaration with the vertex shader: {source}")]
    Bind {
        call: &'static str,
        source: BindError,
    },
    /// A draw: translating a shader for the draw failed.
    #[error("{call}: translating the {stage} for this draw: {source}")]
    Translate {
        call: &'static str,
        stage: &'static str,
        source: LiftError,
    },
    /// A draw: the vertex shader's outputs cannot be linked to the pixel shader's inputs.
    #[error("{call}: linking the vertex shader to the pixel shader: {source}")]
    Link {
        call: &'static str,
        source: LinkError,
    },
    /// `D3DERR_DEVICELOST`: the window presented to was resized or its surface lost; the
    /// device draws on, and a `Reset` makes its window's surface again.
    #[error("{call}: D3DERR_DEVICELOST: {reason}")]
    DeviceLost { call: &'static str, reason: String },
    /// `TestCooperativeLevel`'s `D3DERR_DEVICENOTRESET`: the device was lost and can be
    /// `Reset` now.
    #[error("{call}: D3DERR_DEVICENOTRESET: {reason}")]
    DeviceNotReset { call: &'static str, reason: String },
    /// The GPU refused or lacks what the call needs.
    #[error("{call}: {source}")]
    Gpu {
        call: &'static str,
        source: GpuError,
    },
}

impl std::fmt::Debug for DeviceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}

impl DeviceError {
    /// Whether D3D9 would return `D3DERR_INVALIDCALL` (the application's mistake), as
    /// opposed to something this device does not support or the GPU refused.
    pub fn is_invalid_call(&self) -> bool {
        match self {
            DeviceError::InvalidCall { .. }
            | DeviceError::Decode { .. }
            | DeviceError::Declaration { .. } => true,
            DeviceError::Check { source, .. } => source.is_invalid(),
            DeviceError::Bind { source, .. } => !source.is_unsupported(),
            _ => false,
        }
    }
}

/// `D3DERR_INVALIDCALL` from `call` with `reason`.
pub(crate) fn invalid(call: &'static str, reason: impl Into<String>) -> DeviceError {
    DeviceError::InvalidCall {
        call,
        reason: reason.into(),
    }
}

/// Legal D3D9 that `call` cannot do: `what`.
pub(crate) fn unsupported(call: &'static str, what: impl Into<String>) -> DeviceError {
    DeviceError::Unsupported {
        call,
        what: what.into(),
    }
}

#[cfg(test)]
mod tests {
    use d3d9_translator::decl::BindError;

    use super::*;

    /// `{:?}` prints what `{}` does (the message a test failure shows).
    #[test]
    fn debug_prints_the_message() {
        let e = invalid("SetTexture", "stage 20");
        assert_eq!(format!("{e:?}"), "SetTexture: D3DERR_INVALIDCALL: stage 20");
        assert_eq!(format!("{e:?}"), e.to_string());
    }

    /// The application's mistakes are `D3DERR_INVALIDCALL`; what D3D9 allows but this
    /// device cannot draw, a lost device and the GPU's refusals are not.
    #[test]
    fn invalid_calls_are_the_applications_mistakes() {
        assert!(invalid("Clear", "rects").is_invalid_call());
        assert!(!unsupported("Clear", "rects").is_invalid_call());
        let bind = |source| DeviceError::Bind {
            call: "DrawPrimitive",
            source,
        };
        assert!(bind(BindError::StreamNotSet {
            stream: 1,
            element: 0
        })
        .is_invalid_call());
        assert!(!bind(BindError::StrideUnaligned {
            stream: 0,
            stride: 6
        })
        .is_invalid_call());
        let lost = DeviceError::DeviceLost {
            call: "Present",
            reason: "the window closed".into(),
        };
        assert!(!lost.is_invalid_call());
    }
}
