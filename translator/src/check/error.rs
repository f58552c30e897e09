//! Check errors: [`InvalidShader`] (a D3D9 runtime refuses it) and [`UnsupportedShader`]
//! (legal D3D9 this project does not handle yet), each naming the rule, the instruction and
//! the register.

use crate::bytecode::{
    CountCap, DecodeError, Instruction, Opcode, Register, RegisterFile, TokenOffset, Usage,
    Version, WriteMask,
};
use std::fmt;

/// What sets the size of a register file an out-of-range message names: the version alone,
/// a `D3DCAPS9` field (`VS20Caps.NumTemps`), or the constant files' vertex-processing mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileSize {
    /// The version's fixed count.
    Version,
    /// A device capability, named in the message.
    Cap(CountCap),
    /// Vertex-shader constants under software (true) or hardware (false) vertex processing.
    VertexProcessing { software: bool },
}

impl fmt::Display for FileSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileSize::Version => Ok(()),
            FileSize::Cap(cap) => write!(f, " ({})", cap.name()),
            FileSize::VertexProcessing { software: true } => {
                f.write_str(" under software vertex processing")
            }
            FileSize::VertexProcessing { software: false } => {
                f.write_str(" under hardware vertex processing")
            }
        }
    }
}

/// Where an instruction is: its index in [`crate::bytecode::Program::instructions`], opcode
/// and token offset. Displays as `instruction 7 (mad) at token 23`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Site {
    pub index: usize,
    pub opcode: Opcode,
    pub offset: TokenOffset,
}

impl Site {
    /// The site of `inst`, the `index`th instruction.
    pub fn of(index: usize, inst: &Instruction) -> Site {
        Site {
            index,
            opcode: inst.opcode,
            offset: inst.offset,
        }
    }
}

impl fmt::Display for Site {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "instruction {} ({}) at token {}",
            self.index, self.opcode, self.offset
        )
    }
}

/// A register as assembly text (`c256`, `oPos`, `v[aL + 2]`), for error messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RegName(pub Register);

impl fmt::Display for RegName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// How a shader breaks a Direct3D 9 rule. Every variant names the rule; those tied to an
/// instruction carry its [`Site`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum InvalidShader {
    #[error("not Direct3D 9 shader bytecode: {0}")]
    Decode(DecodeError),
    #[error("{version} is a {shader} shader, given to the {api} shader creation call")]
    WrongStage {
        version: Version,
        shader: &'static str,
        api: &'static str,
    },
    #[error("{version} is not a {api} shader profile")]
    ProfileNotInApi { version: Version, api: &'static str },
    #[error("{version} is above the device's {caps_field} {major}.{minor}")]
    VersionAboveCaps {
        version: Version,
        caps_field: &'static str,
        major: u8,
        minor: u8,
    },
    #[error("{version} needs software vertex processing (a software or mixed device)")]
    SoftwareProfileOnHardware { version: Version },
    #[error("{site}: {opcode} does not exist in {version}")]
    OpcodeNotInVersion {
        site: Site,
        opcode: Opcode,
        version: Version,
    },
    #[error("{site}: {opcode} cannot write .{mask}; the SDK allows {allowed}")]
    DestinationMask {
        site: Site,
        opcode: Opcode,
        mask: WriteMask,
        allowed: String,
    },
    #[error("{site}: {what} is not allowed in {version}")]
    NotInVersion {
        site: Site,
        what: String,
        version: Version,
    },
    #[error("{site}: register {reg} ({file}) cannot be {access} in {version}")]
    RegisterAccess {
        site: Site,
        reg: RegName,
        file: RegisterFile,
        access: &'static str,
        version: Version,
    },
    #[error(
        "{site}: register {reg} is out of range; {version} has {limit} {file} registers{set_by}"
    )]
    RegisterOutOfRange {
        site: Site,
        reg: RegName,
        file: RegisterFile,
        limit: u32,
        version: Version,
        /// What set `limit`; displays as the message's tail.
        set_by: FileSize,
    },
    #[error("{site}: {reg} cannot be addressed relatively in {version}")]
    RelativeAddressing {
        site: Site,
        reg: RegName,
        version: Version,
    },
    #[error("{site}: operand {operand} must be {expected}, not {reg}")]
    OperandFile {
        site: Site,
        operand: &'static str,
        expected: &'static str,
        reg: RegName,
    },
    #[error("{site} reads {count} distinct {file} registers; {version} allows {limit}")]
    ReadPorts {
        site: Site,
        file: RegisterFile,
        count: usize,
        limit: usize,
        version: Version,
    },
    #[error("{site}: dcl after the first executable instruction (instruction {first})")]
    DeclarationAfterCode { site: Site, first: usize },
    #[error("{site}: {what} cannot be declared in {version}")]
    BadDeclaration {
        site: Site,
        what: String,
        version: Version,
    },
    #[error("{site}: {reg} is used but not declared")]
    Undeclared { site: Site, reg: RegName },
    #[error("{site}: {reg} declared again with overlapping mask .{mask}")]
    OverlappingDeclaration {
        site: Site,
        reg: RegName,
        mask: WriteMask,
    },
    #[error("{site}: semantic {usage}{index} is declared twice")]
    SemanticDeclaredTwice { site: Site, usage: Usage, index: u8 },
    #[error("{site}: dcl_{usage} {reg} must have the full mask .xyzw, not .{mask}")]
    PartialMask {
        site: Site,
        usage: Usage,
        reg: RegName,
        mask: WriteMask,
    },
    #[error("{site}: {reg} holds psize, no other semantic may share its register")]
    PsizeShared { site: Site, reg: RegName },
    #[error("vs_3_0 must declare a position (or positiont) output with the full mask")]
    MissingPosition,
    #[error("{site}: a second position output is declared")]
    PositionDeclaredTwice { site: Site },
    #[error("{site}: ps_3_0 cannot declare input dcl_position0")]
    PixelPosition0 { site: Site },
    #[error("{site}: {opcode} without a matching {expected}")]
    Unmatched {
        site: Site,
        opcode: Opcode,
        expected: &'static str,
    },
    #[error("{site}: {opcode} is not closed before the end of its {scope}")]
    Unclosed {
        site: Site,
        opcode: Opcode,
        scope: &'static str,
    },
    #[error("{site}: {what} is outside any {needed}")]
    OutsideBlock {
        site: Site,
        what: &'static str,
        needed: &'static str,
    },
    #[error("{site}: {kind} nesting depth {depth} exceeds {limit} in {version}")]
    NestingTooDeep {
        site: Site,
        kind: &'static str,
        depth: u32,
        limit: u32,
        version: Version,
    },
    #[error("{site}: label l{label} is defined twice")]
    LabelDefinedTwice { site: Site, label: u32 },
    #[error("{site}: call to undefined label l{label}")]
    UndefinedLabel { site: Site, label: u32 },
    #[error("{site}: subroutine l{label} calls itself (recursion is not allowed)")]
    Recursion { site: Site, label: u32 },
    #[error("{site}: instruction after ret is not inside any subroutine (label)")]
    CodeAfterReturn { site: Site },
    #[error("{site}: {what} (ps_1_x texture-addressing rules)")]
    TextureRule { site: Site, what: String },
    #[error("{site} goes over the limit: {used} {what}; {version} allows {limit}")]
    TooManySlots {
        site: Site,
        what: &'static str,
        used: u32,
        limit: u32,
        version: Version,
    },
}

/// Legal Direct3D 9 that this project does not handle yet.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UnsupportedShader {
    #[error("{version}: reference-rasterizer-only software pixel shader profile")]
    SoftwarePixelProfile { version: Version },
}

/// Why [`super::check`] refused a shader.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CheckError {
    /// A D3D9 runtime rejects the shader (`D3DERR_INVALIDCALL`).
    #[error("invalid: {0}")]
    Invalid(InvalidShader),
    /// Legal D3D9 this project does not handle yet.
    #[error("unsupported: {0}")]
    Unsupported(UnsupportedShader),
}

impl CheckError {
    /// Whether a D3D9 runtime rejects the shader (as opposed to [`CheckError::Unsupported`]).
    pub fn is_invalid(&self) -> bool {
        matches!(self, CheckError::Invalid(_))
    }
}

impl From<InvalidShader> for CheckError {
    fn from(e: InvalidShader) -> Self {
        CheckError::Invalid(e)
    }
}

impl From<UnsupportedShader> for CheckError {
    fn from(e: UnsupportedShader) -> Self {
        CheckError::Unsupported(e)
    }
}
