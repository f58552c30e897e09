//! Assembler errors: every error names the 1-based line and column of the input text.

use crate::bytecode::Version;
use std::fmt;

/// A place in the assembly text: 1-based physical line and column (in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Pos {
    pub line: u32,
    pub column: u32,
}

impl Pos {
    /// A position from its 1-based line and column.
    pub const fn new(line: u32, column: u32) -> Pos {
        Pos { line, column }
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// Why the text was rejected.
///
/// [`AsmErrorKind::Unsupported`] marks text that is legal for Microsoft's assembler but that
/// this assembler does not handle (function-like macros, `#include`, ...); every other kind is
/// text that the D3D9 assembler rejects.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AsmErrorKind {
    #[error("the text has no shader version line (vs_1_1 ... ps_3_0)")]
    MissingVersion,
    #[error("unknown shader version '{0}'")]
    UnknownVersion(String),
    #[error("unexpected character '{0}'")]
    UnexpectedChar(char),
    #[error("expected {expected}, found {found}")]
    Expected {
        expected: &'static str,
        found: String,
    },
    #[error("unknown instruction '{0}'")]
    UnknownMnemonic(String),
    #[error("{mnemonic} does not exist in {version}")]
    OpcodeNotInVersion { mnemonic: String, version: Version },
    #[error("{mnemonic} takes {expected} source operand(s) in {version}, found {found}")]
    SourceCount {
        mnemonic: String,
        expected: u8,
        found: usize,
        version: Version,
    },
    #[error("unknown register '{0}'")]
    UnknownRegister(String),
    #[error("register {register} does not exist in {version}")]
    RegisterNotInVersion { register: String, version: Version },
    #[error("register index {index} is out of range (the token holds 0..=2047)")]
    IndexOutOfRange { index: i64 },
    #[error("{register} cannot be relatively addressed in {version}")]
    RelativeNotAllowed { register: String, version: Version },
    #[error("relative addressing needs a0 or aL, not {0}")]
    BadRelativeRegister(String),
    #[error("{0}")]
    BadRelative(&'static str),
    #[error("{register} cannot be {role}")]
    BadOperandRegister {
        register: String,
        role: &'static str,
    },
    #[error("invalid swizzle '.{0}'")]
    BadSwizzle(String),
    #[error("invalid write mask '.{0}' (components must be distinct, in xyzw order)")]
    BadWriteMask(String),
    #[error("unknown modifier '_{0}'")]
    UnknownModifier(String),
    #[error("modifier {modifier} is not allowed {context}")]
    ModifierNotAllowed { modifier: String, context: String },
    #[error("more than one shift modifier")]
    TwoShifts,
    #[error("invalid number '{0}'")]
    BadNumber(String),
    #[error("{0}")]
    Invalid(String),
    #[error("unsupported: {0}")]
    Unsupported(String),
}

/// An assembly error at a line and column of the input text; displays as
/// `line L, column C: reason` (the [`Pos`] first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AsmError {
    /// 1-based physical line of the input (continuation lines and `#line` do not change it).
    pub line: u32,
    /// 1-based column, counted in characters.
    pub column: u32,
    pub kind: AsmErrorKind,
}

impl AsmError {
    /// An error of `kind` at `pos`.
    pub fn new(pos: Pos, kind: AsmErrorKind) -> AsmError {
        AsmError {
            line: pos.line,
            column: pos.column,
            kind,
        }
    }

    /// Where the error is.
    pub fn pos(&self) -> Pos {
        Pos::new(self.line, self.column)
    }
}

impl fmt::Display for AsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.pos(), self.kind)
    }
}

impl std::error::Error for AsmError {}
