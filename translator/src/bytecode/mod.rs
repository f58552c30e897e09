//! The typed model of Direct3D 9 shader bytecode, and the token reader and writer.
//!
//! A shader is a stream of little-endian 32-bit tokens: a version token, then
//! instructions (an instruction token, a destination parameter, source
//! parameters, relative-address tokens and literals), comment blocks, and the
//! end token `0x0000FFFF`. [`decode`] turns tokens into a [`Program`] without
//! interpreting it; [`encode`] writes a program back to the same tokens.

mod decode;
mod encode;
mod files;
mod opcode;
mod register;
mod usage;

pub use decode::{decode, decode_bytes, DecodeError};
pub use encode::encode;
pub use files::{
    file_rule, float_constants, software_limits, CountCap, FileRule, RegisterCount,
    VertexProcessing, CONST_BANKS, CONST_BANK_SIZE, VERTEX_INPUTS,
};
pub use opcode::{Form, Opcode, OpcodeInfo, Stages, COMMENT_OPCODE, END_OPCODE, OPCODES};
pub use register::{
    DstParam, Register, RegisterFile, RelativeAddress, ResultModifier, SrcModifier, SrcParam,
    Swizzle, WriteMask,
};
pub use usage::Usage;

use std::fmt;

/// The end-of-shader token.
pub const END_TOKEN: u32 = 0x0000_FFFF;
/// The first token of a DXBC container (D3D10+), which is not D3D9 bytecode.
pub const DXBC_MAGIC: u32 = 0x4342_5844;

/// A position in the token stream, counted in 32-bit tokens from the version token (0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct TokenOffset(pub u32);

impl fmt::Display for TokenOffset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The pipeline stage a shader runs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stage {
    Vertex,
    Pixel,
}

impl std::fmt::Display for Stage {
    /// `vertex` / `pixel`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Stage::Vertex => "vertex",
            Stage::Pixel => "pixel",
        })
    }
}

/// A shader version token: `vs_1_1`, `vs_2_x` (minor 1), `vs_3_sw` (minor 0xFF), `ps_1_4`, ...
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Version {
    pub stage: Stage,
    pub major: u8,
    /// Minor version: 1 for the `_2_x` profiles, 0xFF for the software `_sw` profiles.
    pub minor: u8,
}

impl Version {
    /// A version from its parts.
    pub const fn new(stage: Stage, major: u8, minor: u8) -> Self {
        Version {
            stage,
            major,
            minor,
        }
    }

    /// Parse a version token (`0xFFFE0300` = vs_3_0, `0xFFFF0104` = ps_1_4).
    pub fn from_token(token: u32) -> Option<Version> {
        let stage = match token >> 16 {
            0xFFFE => Stage::Vertex,
            0xFFFF => Stage::Pixel,
            _ => return None,
        };
        let major = ((token >> 8) & 0xFF) as u8;
        let minor = (token & 0xFF) as u8;
        let known = match (stage, major) {
            (Stage::Vertex, 1) => matches!(minor, 0 | 1),
            (Stage::Pixel, 1) => matches!(minor, 0..=4),
            (_, 2) | (_, 3) => matches!(minor, 0 | 1 | 0xFF) && !(major == 3 && minor == 1),
            _ => false,
        };
        known.then_some(Version {
            stage,
            major,
            minor,
        })
    }

    /// The version token.
    pub fn token(self) -> u32 {
        let high = match self.stage {
            Stage::Vertex => 0xFFFE_0000,
            Stage::Pixel => 0xFFFF_0000,
        };
        high | (u32::from(self.major) << 8) | u32::from(self.minor)
    }

    /// Whether instruction tokens carry their length (shader model 2 and later).
    pub fn has_length_field(self) -> bool {
        self.major >= 2
    }

    /// Whether this is a software-only profile (`vs_2_sw`, `vs_3_sw`, `ps_*_sw`).
    pub fn is_software(self) -> bool {
        self.minor == 0xFF
    }

    /// Compare the numeric version with `(major, minor)`, treating `_x` as 2.1 and `_sw` as the
    /// highest minor of its major.
    pub fn at_least(self, major: u8, minor: u8) -> bool {
        (self.major, self.minor) >= (major, minor)
    }

    /// The profile name fxc prints: `vs_2_x`, `ps_1_4`, `vs_3_sw`.
    pub fn profile(self) -> String {
        let stage = match self.stage {
            Stage::Vertex => "vs",
            Stage::Pixel => "ps",
        };
        match (self.major, self.minor) {
            (2, 1) => format!("{stage}_2_x"),
            (m, 0xFF) => format!("{stage}_{m}_sw"),
            (m, n) => format!("{stage}_{m}_{n}"),
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.profile())
    }
}

/// The comparison of `ifc`, `breakc` and `setp` (instruction-token bits 16–18).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Comparison {
    Gt = 1,
    Eq = 2,
    Ge = 3,
    Lt = 4,
    Ne = 5,
    Le = 6,
}

impl Comparison {
    /// The comparison encoded in instruction-token bits 16–18.
    pub fn from_raw(raw: u32) -> Option<Comparison> {
        Some(match raw {
            1 => Comparison::Gt,
            2 => Comparison::Eq,
            3 => Comparison::Ge,
            4 => Comparison::Lt,
            5 => Comparison::Ne,
            6 => Comparison::Le,
            _ => return None,
        })
    }

    /// The suffix fxc prints: `gt`, `eq`, ...
    pub fn name(self) -> &'static str {
        match self {
            Comparison::Gt => "gt",
            Comparison::Eq => "eq",
            Comparison::Ge => "ge",
            Comparison::Lt => "lt",
            Comparison::Ne => "ne",
            Comparison::Le => "le",
        }
    }

    /// Parse the suffix printed by [`Comparison::name`].
    pub fn from_name(name: &str) -> Option<Comparison> {
        [Self::Gt, Self::Eq, Self::Ge, Self::Lt, Self::Ne, Self::Le]
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(name))
    }
}

/// The opcode-specific control bits (instruction-token bits 16–23), typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Control {
    #[default]
    None,
    /// `ifc`, `breakc`, `setp`.
    Comparison(Comparison),
    /// `texld` in ps_2_0+: bit 16 = `texldp` (projective), bit 17 = `texldb` (bias).
    TexProject,
    TexBias,
}

/// The texture type a sampler is declared with (`dcl_2d s0`, `dcl_cube`, `dcl_volume`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TextureType {
    /// `D3DSTT_UNKNOWN` (0): legal only in ps_1_x-era `dcl` of t#/v#, never on s#.
    Unknown = 0,
    TwoD = 2,
    Cube = 3,
    Volume = 4,
}

impl TextureType {
    /// The type in dcl-token bits 27–30.
    pub fn from_raw(raw: u32) -> Option<TextureType> {
        Some(match raw {
            0 => TextureType::Unknown,
            2 => TextureType::TwoD,
            3 => TextureType::Cube,
            4 => TextureType::Volume,
            _ => return None,
        })
    }

    /// The suffix fxc prints after `dcl_` (`2d`, `cube`, `volume`).
    pub fn name(self) -> &'static str {
        match self {
            TextureType::Unknown => "unknown",
            TextureType::TwoD => "2d",
            TextureType::Cube => "cube",
            TextureType::Volume => "volume",
        }
    }
}

/// What a `dcl` instruction declares about its destination register.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Declaration {
    /// An input or output with a semantic (`dcl_texcoord3 v2`, `dcl_position o0`). In ps_2_x
    /// `dcl t0` / `dcl v0` is encoded as usage 0 index 0 and printed without a suffix.
    Semantic { usage: Usage, index: u8 },
    /// A sampler with its texture type (`dcl_2d s0`).
    Sampler(TextureType),
}

/// Constant values stated by `def`, `defi` and `defb`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Literal {
    /// `def c#, x, y, z, w`: raw IEEE bits, kept exactly (NaN payloads included).
    Float([u32; 4]),
    /// `defi i#, x, y, z, w`.
    Int([i32; 4]),
    /// `defb b#, true|false`: the raw token (non-zero is true).
    Bool(u32),
}

/// The predicate of a predicated instruction: `(p0.x)` or `(!p0)`, a source parameter of p0.
pub type Predicate = SrcParam;

/// One decoded instruction, as the bytecode states it. No interpretation yet.
#[derive(Debug, Clone, PartialEq)]
pub struct Instruction {
    pub opcode: Opcode,
    /// Where the instruction token is, for every error message.
    pub offset: TokenOffset,
    pub control: Control,
    /// `(p0.x) add ...` / `(!p0) ...`: the predicate source (instruction-token bit 28).
    pub predicate: Option<Predicate>,
    pub dst: Option<DstParam>,
    pub src: Vec<SrcParam>,
    /// `+` prefix in ps_1_x: executes together with the previous instruction (bit 30).
    pub coissue: bool,
    /// What `dcl` declares (only for [`Opcode::Dcl`]).
    pub decl: Option<Declaration>,
    /// The values of `def`/`defi`/`defb`.
    pub literal: Option<Literal>,
}

impl Instruction {
    /// A plain instruction with no operands yet.
    pub fn new(opcode: Opcode) -> Self {
        Instruction {
            opcode,
            offset: TokenOffset(0),
            control: Control::None,
            predicate: None,
            dst: None,
            src: Vec::new(),
            coissue: false,
            decl: None,
            literal: None,
        }
    }
}

/// A comment block (`0xFFFE` with its length in bits 16–30), kept as raw tokens.
/// CTAB constant tables arrive this way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comment {
    pub offset: TokenOffset,
    /// The number of instructions before it in [`Program::instructions`].
    pub position: usize,
    pub data: Vec<u32>,
}

impl Comment {
    /// The four-character code at the start of the block (`CTAB`, `PRES`, ...), if any.
    pub fn fourcc(&self) -> Option<[u8; 4]> {
        self.data.first().map(|t| t.to_le_bytes())
    }
}

/// A decoded shader: version, instructions and comment blocks, in token order.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    pub version: Version,
    pub instructions: Vec<Instruction>,
    pub comments: Vec<Comment>,
}

impl Program {
    /// An empty program of `version`.
    pub fn new(version: Version) -> Self {
        Program {
            version,
            instructions: Vec::new(),
            comments: Vec::new(),
        }
    }

    /// The stage this program runs in.
    pub fn stage(&self) -> Stage {
        self.version.stage
    }

    /// Sets each instruction's token offset to where [`encode`] puts it (the version token
    /// is 0), for programs built in memory (the assembler, generated stages).
    pub fn number_instructions(&mut self) {
        let version = self.version;
        let mut offset = 1u32;
        for inst in &mut self.instructions {
            inst.offset = TokenOffset(offset);
            offset = offset.saturating_add(instruction_length(inst, version));
        }
    }
}

/// Tokens an instruction takes, as [`encode`] writes it.
fn instruction_length(inst: &Instruction, version: Version) -> u32 {
    let param = |r: &Register| 1 + u32::from(version.has_length_field() && r.relative.is_some());
    let literal = match inst.literal {
        Some(Literal::Float(_)) | Some(Literal::Int(_)) => 4,
        Some(Literal::Bool(_)) => 1,
        None => 0,
    };
    1 + u32::from(inst.decl.is_some())
        + inst.dst.as_ref().map_or(0, |d| param(&d.reg))
        + literal
        + inst.predicate.as_ref().map_or(0, |p| param(&p.reg))
        + inst.src.iter().map(|s| param(&s.reg)).sum::<u32>()
}

#[cfg(test)]
mod tests {
    //! Expectations written out from the SDK's version-token layout (D3DVS_VERSION /
    //! D3DPS_VERSION: 0xFFFE / 0xFFFF in the high word, major in bits 8–15, minor in 0–7) and
    //! the profile list of the d3d9 runtime.

    use super::*;

    #[test]
    fn version_tokens_known_and_unknown() {
        let known = [
            (0xFFFE_0100, "vs_1_0"),
            (0xFFFE_0101, "vs_1_1"),
            (0xFFFE_0200, "vs_2_0"),
            (0xFFFE_0201, "vs_2_x"),
            (0xFFFE_02FF, "vs_2_sw"),
            (0xFFFE_0300, "vs_3_0"),
            (0xFFFE_03FF, "vs_3_sw"),
            (0xFFFF_0100, "ps_1_0"),
            (0xFFFF_0101, "ps_1_1"),
            (0xFFFF_0102, "ps_1_2"),
            (0xFFFF_0103, "ps_1_3"),
            (0xFFFF_0104, "ps_1_4"),
            (0xFFFF_0200, "ps_2_0"),
            (0xFFFF_0201, "ps_2_x"),
            (0xFFFF_02FF, "ps_2_sw"),
            (0xFFFF_0300, "ps_3_0"),
            (0xFFFF_03FF, "ps_3_sw"),
        ];
        for (token, profile) in known {
            let v = Version::from_token(token).unwrap_or_else(|| panic!("{token:#x} refused"));
            assert_eq!(v.profile(), profile);
            assert_eq!(v.to_string(), profile);
            assert_eq!(v.token(), token);
            let stage = if token >> 16 == 0xFFFE {
                Stage::Vertex
            } else {
                Stage::Pixel
            };
            assert_eq!(v, Version::new(stage, (token >> 8) as u8, token as u8));
        }
        for token in [
            0xFFFE_0102u32, // vs_1_2
            0xFFFE_0104,    // vs_1_4
            0xFFFF_0105,    // ps_1_5
            0xFFFE_0202,
            0xFFFF_0202,
            0xFFFE_0301, // there is no vs_3_x / ps_3_x
            0xFFFF_0301,
            0xFFFE_0302,
            0xFFFE_01FF, // no vs_1_sw
            0xFFFE_0400,
            0xFFFF_0000,
            0xFFFD_0101,
            0xFFFC_0300,
            0x0001_0101,
            0x0000_FFFF,
            DXBC_MAGIC,
        ] {
            assert_eq!(Version::from_token(token), None, "{token:#x}");
        }
    }

    #[test]
    fn version_predicates() {
        let v = |stage, major, minor| Version::new(stage, major, minor);
        for (version, length, software) in [
            (v(Stage::Vertex, 1, 1), false, false),
            (v(Stage::Pixel, 1, 4), false, false),
            (v(Stage::Vertex, 2, 0), true, false),
            (v(Stage::Pixel, 2, 1), true, false),
            (v(Stage::Vertex, 2, 0xFF), true, true),
            (v(Stage::Pixel, 3, 0), true, false),
            (v(Stage::Vertex, 3, 0xFF), true, true),
        ] {
            assert_eq!(version.has_length_field(), length, "{version}");
            assert_eq!(version.is_software(), software, "{version}");
        }
        let vs_2_x = v(Stage::Vertex, 2, 1);
        assert!(vs_2_x.at_least(2, 0));
        assert!(vs_2_x.at_least(2, 1));
        assert!(vs_2_x.at_least(1, 4));
        assert!(!vs_2_x.at_least(2, 2));
        assert!(!vs_2_x.at_least(3, 0));
        assert!(v(Stage::Vertex, 2, 0xFF).at_least(2, 1));
        assert!(!v(Stage::Vertex, 2, 0xFF).at_least(3, 0));
        assert!(v(Stage::Pixel, 3, 0).at_least(3, 0));
        assert!(!v(Stage::Pixel, 1, 4).at_least(2, 0));
    }

    #[test]
    fn comparisons_by_raw_value_and_name() {
        let names = [
            (1, Comparison::Gt, "gt"),
            (2, Comparison::Eq, "eq"),
            (3, Comparison::Ge, "ge"),
            (4, Comparison::Lt, "lt"),
            (5, Comparison::Ne, "ne"),
            (6, Comparison::Le, "le"),
        ];
        for (raw, c, name) in names {
            assert_eq!(Comparison::from_raw(raw), Some(c));
            assert_eq!(c.name(), name);
            assert_eq!(Comparison::from_name(name), Some(c));
            assert_eq!(Comparison::from_name(&name.to_uppercase()), Some(c));
        }
        for raw in [0, 7, 8, 0xFFFF_FFFF] {
            assert_eq!(Comparison::from_raw(raw), None, "{raw}");
        }
        assert_eq!(Comparison::from_name("gte"), None);
        assert_eq!(Comparison::from_name(""), None);
    }

    #[test]
    fn texture_types_by_raw_value() {
        for (raw, t, name) in [
            (0, TextureType::Unknown, "unknown"),
            (2, TextureType::TwoD, "2d"),
            (3, TextureType::Cube, "cube"),
            (4, TextureType::Volume, "volume"),
        ] {
            assert_eq!(TextureType::from_raw(raw), Some(t));
            assert_eq!(t.name(), name);
        }
        for raw in [1, 5, 15] {
            assert_eq!(TextureType::from_raw(raw), None, "{raw}");
        }
    }

    #[test]
    fn comment_fourcc_token_offset_and_stage() {
        let comment = |data: Vec<u32>| Comment {
            offset: TokenOffset(1),
            position: 0,
            data,
        };
        // "CTAB" little-endian.
        assert_eq!(comment(vec![0x4241_5443, 7]).fourcc(), Some(*b"CTAB"));
        assert_eq!(comment(vec![]).fourcc(), None);
        assert_eq!(TokenOffset(17).to_string(), "17");
        assert_eq!(
            Program::new(Version::new(Stage::Pixel, 2, 0)).stage(),
            Stage::Pixel
        );
        assert_eq!(
            Program::new(Version::new(Stage::Vertex, 1, 1)).stage(),
            Stage::Vertex
        );
    }
}
