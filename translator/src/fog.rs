//! `D3DFOGMODE`, read by the fixed-function vertex stage's generator and by the lifter's
//! fog stage.

/// `D3DFOGMODE`: how the fog factor is computed from the fog coordinate (vertex fog: the FOG
/// output; table fog: the pixel's depth).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FogMode {
    /// `(end - d) / (end - start)`.
    Linear,
    /// `1 / e^(d · density)`.
    Exp,
    /// `1 / e^((d · density)²)`.
    Exp2,
}
