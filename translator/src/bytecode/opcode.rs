//! The D3D9 opcode table: token value, mnemonic, operand counts and the
//! stages and versions in which each form exists (like vkd3d's `{min, max}` ranges).
//!
//! This is the one statement of which instructions exist where: the decoder reads the
//! operand counts, and the assembler and the checker ask [`Opcode::exists_in`]
//! (`tests/table_agreement.rs` holds every stage, the lifter included, to it). Sources: the SDK's instruction table of each profile (vs_1_1,
//! vs_2_0, vs_2_x, vs_3_0, ps_1_x, ps_2_0, ps_2_x, ps_3_0) and Wine's
//! `test_unsupported_shaders` (`rep`/`if`/`defb`/`defi` refused in ps_2_0).

use super::{Stage, Version, WriteMask};
use std::fmt;

/// A D3D9 instruction opcode (`D3DSHADER_INSTRUCTION_OPCODE_TYPE`).
#[allow(missing_docs)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Opcode {
    Nop,
    Mov,
    Add,
    Sub,
    Mad,
    Mul,
    Rcp,
    Rsq,
    Dp3,
    Dp4,
    Min,
    Max,
    Slt,
    Sge,
    Exp,
    Log,
    Lit,
    Dst,
    Lrp,
    Frc,
    M4x4,
    M4x3,
    M3x4,
    M3x3,
    M3x2,
    Call,
    CallNz,
    Loop,
    Ret,
    EndLoop,
    Label,
    Dcl,
    Pow,
    Crs,
    Sgn,
    Abs,
    Nrm,
    SinCos,
    Rep,
    EndRep,
    If,
    Ifc,
    Else,
    EndIf,
    Break,
    Breakc,
    Mova,
    Defb,
    Defi,
    TexCoord,
    TexKill,
    Tex,
    TexBem,
    TexBemL,
    TexReg2Ar,
    TexReg2Gb,
    TexM3x2Pad,
    TexM3x2Tex,
    TexM3x3Pad,
    TexM3x3Tex,
    TexM3x3Spec,
    TexM3x3VSpec,
    Expp,
    Logp,
    Cnd,
    Def,
    TexReg2Rgb,
    TexDp3Tex,
    TexM3x2Depth,
    TexDp3,
    TexM3x3,
    TexDepth,
    Cmp,
    Bem,
    Dp2Add,
    Dsx,
    Dsy,
    TexLdd,
    Setp,
    TexLdl,
    Breakp,
    /// `phase` (0xFFFD): splits a ps_1_4 shader into its two phases.
    Phase,
}

/// Opcode token values that are not instructions.
pub const COMMENT_OPCODE: u32 = 0xFFFE;
/// The end token's low word.
pub const END_OPCODE: u32 = 0xFFFF;

/// Which stages a form exists in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stages {
    Vertex,
    Pixel,
    Both,
}

/// One form of an opcode: its operands in the versions `min..=max`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Form {
    pub stages: Stages,
    /// Lowest version, as (major, minor); minor 1 stands for `_2_x`.
    pub min: (u8, u8),
    /// Highest version, as (major, minor); 0xFF minor covers `_sw`.
    pub max: (u8, u8),
    /// Whether the instruction has a destination parameter.
    pub dst: bool,
    /// Number of source parameters (not counting a predicate token).
    pub srcs: u8,
}

impl Stages {
    /// Whether `stage` is one of these stages.
    pub fn contains(self, stage: Stage) -> bool {
        match self {
            Stages::Both => true,
            Stages::Vertex => stage == Stage::Vertex,
            Stages::Pixel => stage == Stage::Pixel,
        }
    }
}

impl Form {
    /// Whether this form is the one used in `version` (its stage, between `min` and `max`).
    pub fn covers(&self, version: Version) -> bool {
        let v = (version.major, version.minor);
        self.stages.contains(version.stage) && self.min <= v && v <= self.max
    }
}

const ALL: (u8, u8) = (0, 0);
const LAST: (u8, u8) = (3, 0xFF);

const fn form(stages: Stages, min: (u8, u8), max: (u8, u8), dst: bool, srcs: u8) -> Form {
    Form {
        stages,
        min,
        max,
        dst,
        srcs,
    }
}
const fn both(dst: bool, srcs: u8) -> Form {
    form(Stages::Both, ALL, LAST, dst, srcs)
}
/// A vertex-shader form from `min` to the last version.
const fn vs(min: (u8, u8), dst: bool, srcs: u8) -> Form {
    form(Stages::Vertex, min, LAST, dst, srcs)
}
/// A pixel-shader form from `min` to the last version.
const fn ps(min: (u8, u8), dst: bool, srcs: u8) -> Form {
    form(Stages::Pixel, min, LAST, dst, srcs)
}

/// Static description of an opcode: its token value, mnemonic and forms.
#[derive(Debug)]
pub struct OpcodeInfo {
    pub opcode: Opcode,
    pub value: u16,
    pub name: &'static str,
    pub forms: &'static [Form],
}

use Stages::{Both as B, Pixel as P, Vertex as V};

macro_rules! table {
    ($($op:ident = $val:literal, $name:literal, [$($f:expr),* $(,)?];)*) => {
        /// Every opcode with its forms, in token-value order.
        pub static OPCODES: &[OpcodeInfo] = &[
            $(OpcodeInfo { opcode: Opcode::$op, value: $val, name: $name, forms: &[$($f),*] },)*
        ];
    };
}

table! {
    Nop = 0, "nop", [both(false, 0)];
    Mov = 1, "mov", [both(true, 1)];
    Add = 2, "add", [both(true, 2)];
    Sub = 3, "sub", [both(true, 2)];
    Mad = 4, "mad", [both(true, 3)];
    Mul = 5, "mul", [both(true, 2)];
    Rcp = 6, "rcp", [vs(ALL, true, 1), ps((2, 0), true, 1)];
    Rsq = 7, "rsq", [vs(ALL, true, 1), ps((2, 0), true, 1)];
    Dp3 = 8, "dp3", [both(true, 2)];
    Dp4 = 9, "dp4", [vs(ALL, true, 2), ps((1, 2), true, 2)];
    Min = 10, "min", [vs(ALL, true, 2), ps((2, 0), true, 2)];
    Max = 11, "max", [vs(ALL, true, 2), ps((2, 0), true, 2)];
    Slt = 12, "slt", [vs(ALL, true, 2)];
    Sge = 13, "sge", [vs(ALL, true, 2)];
    Exp = 14, "exp", [vs(ALL, true, 1), ps((2, 0), true, 1)];
    Log = 15, "log", [vs(ALL, true, 1), ps((2, 0), true, 1)];
    Lit = 16, "lit", [vs(ALL, true, 1)];
    Dst = 17, "dst", [vs(ALL, true, 2)];
    Lrp = 18, "lrp", [vs((2, 0), true, 3), ps(ALL, true, 3)];
    Frc = 19, "frc", [vs(ALL, true, 1), ps((2, 0), true, 1)];
    M4x4 = 20, "m4x4", [vs(ALL, true, 2), ps((2, 0), true, 2)];
    M4x3 = 21, "m4x3", [vs(ALL, true, 2), ps((2, 0), true, 2)];
    M3x4 = 22, "m3x4", [vs(ALL, true, 2), ps((2, 0), true, 2)];
    M3x3 = 23, "m3x3", [vs(ALL, true, 2), ps((2, 0), true, 2)];
    M3x2 = 24, "m3x2", [vs(ALL, true, 2), ps((2, 0), true, 2)];
    Call = 25, "call", [vs((2, 0), false, 1), ps((2, 1), false, 1)];
    CallNz = 26, "callnz", [vs((2, 0), false, 2), ps((2, 1), false, 2)];
    Loop = 27, "loop", [vs((2, 0), false, 2), ps((3, 0), false, 2)];
    Ret = 28, "ret", [vs((2, 0), false, 0), ps((2, 1), false, 0)];
    EndLoop = 29, "endloop", [vs((2, 0), false, 0), ps((3, 0), false, 0)];
    Label = 30, "label", [vs((2, 0), false, 1), ps((2, 1), false, 1)];
    Dcl = 31, "dcl", [vs(ALL, true, 0), ps((2, 0), true, 0)];
    Pow = 32, "pow", [form(B, (2, 0), LAST, true, 2)];
    Crs = 33, "crs", [form(B, (2, 0), LAST, true, 2)];
    Sgn = 34, "sgn", [form(V, (2, 0), (2, 0xFF), true, 3), vs((3, 0), true, 1)];
    Abs = 35, "abs", [form(B, (2, 0), LAST, true, 1)];
    Nrm = 36, "nrm", [form(B, (2, 0), LAST, true, 1)];
    SinCos = 37, "sincos", [form(B, (2, 0), (2, 0xFF), true, 3), form(B, (3, 0), LAST, true, 1)];
    Rep = 38, "rep", [vs((2, 0), false, 1), ps((2, 1), false, 1)];
    EndRep = 39, "endrep", [vs((2, 0), false, 0), ps((2, 1), false, 0)];
    If = 40, "if", [vs((2, 0), false, 1), ps((2, 1), false, 1)];
    Ifc = 41, "if", [form(B, (2, 1), LAST, false, 2)];
    Else = 42, "else", [vs((2, 0), false, 0), ps((2, 1), false, 0)];
    EndIf = 43, "endif", [vs((2, 0), false, 0), ps((2, 1), false, 0)];
    Break = 44, "break", [form(B, (2, 1), LAST, false, 0)];
    Breakc = 45, "break", [form(B, (2, 1), LAST, false, 2)];
    Mova = 46, "mova", [form(V, (2, 0), LAST, true, 1)];
    Defb = 47, "defb", [vs((2, 0), true, 0), ps((2, 1), true, 0)];
    Defi = 48, "defi", [vs((2, 0), true, 0), ps((2, 1), true, 0)];
    TexCoord = 64, "texcoord", [form(P, ALL, (1, 3), true, 0), form(P, (1, 4), (1, 4), true, 1)];
    TexKill = 65, "texkill", [form(P, ALL, LAST, true, 0)];
    Tex = 66, "tex", [form(P, ALL, (1, 3), true, 0), form(P, (1, 4), (1, 4), true, 1), form(P, (2, 0), LAST, true, 2)];
    TexBem = 67, "texbem", [form(P, ALL, (1, 3), true, 1)];
    TexBemL = 68, "texbeml", [form(P, ALL, (1, 3), true, 1)];
    TexReg2Ar = 69, "texreg2ar", [form(P, ALL, (1, 3), true, 1)];
    TexReg2Gb = 70, "texreg2gb", [form(P, ALL, (1, 3), true, 1)];
    TexM3x2Pad = 71, "texm3x2pad", [form(P, ALL, (1, 3), true, 1)];
    TexM3x2Tex = 72, "texm3x2tex", [form(P, ALL, (1, 3), true, 1)];
    TexM3x3Pad = 73, "texm3x3pad", [form(P, ALL, (1, 3), true, 1)];
    TexM3x3Tex = 74, "texm3x3tex", [form(P, ALL, (1, 3), true, 1)];
    TexM3x3Spec = 76, "texm3x3spec", [form(P, ALL, (1, 3), true, 2)];
    TexM3x3VSpec = 77, "texm3x3vspec", [form(P, ALL, (1, 3), true, 1)];
    Expp = 78, "expp", [form(V, ALL, LAST, true, 1)];
    Logp = 79, "logp", [form(V, ALL, LAST, true, 1)];
    Cnd = 80, "cnd", [form(P, ALL, (1, 4), true, 3)];
    Def = 81, "def", [both(true, 0)];
    TexReg2Rgb = 82, "texreg2rgb", [form(P, (1, 2), (1, 3), true, 1)];
    TexDp3Tex = 83, "texdp3tex", [form(P, (1, 2), (1, 3), true, 1)];
    TexM3x2Depth = 84, "texm3x2depth", [form(P, (1, 3), (1, 3), true, 1)];
    TexDp3 = 85, "texdp3", [form(P, (1, 2), (1, 3), true, 1)];
    TexM3x3 = 86, "texm3x3", [form(P, (1, 2), (1, 3), true, 1)];
    TexDepth = 87, "texdepth", [form(P, (1, 4), (1, 4), true, 0)];
    Cmp = 88, "cmp", [ps((1, 2), true, 3)];
    Bem = 89, "bem", [form(P, (1, 4), (1, 4), true, 2)];
    Dp2Add = 90, "dp2add", [form(P, (2, 0), LAST, true, 3)];
    Dsx = 91, "dsx", [form(P, (2, 1), LAST, true, 1)];
    Dsy = 92, "dsy", [form(P, (2, 1), LAST, true, 1)];
    TexLdd = 93, "texldd", [form(P, (2, 1), LAST, true, 4)];
    Setp = 94, "setp", [form(B, (2, 1), LAST, true, 2)];
    TexLdl = 95, "texldl", [form(B, (3, 0), LAST, true, 2)];
    Breakp = 96, "breakp", [form(B, (2, 1), LAST, false, 1)];
    Phase = 0xFFFD, "phase", [form(P, (1, 4), (1, 4), false, 0)];
}

impl Opcode {
    /// The table entry for this opcode.
    pub fn info(self) -> &'static OpcodeInfo {
        // `OPCODES` lists the variants in declaration order (a unit test pins this), so the
        // discriminant is the index; the search is only a fallback should the two ever differ.
        match OPCODES.get(self as usize) {
            Some(info) if info.opcode == self => info,
            _ => OPCODES
                .iter()
                .find(|i| i.opcode == self)
                .unwrap_or(&OPCODES[0]),
        }
    }

    /// The opcode with this token value (low 16 bits of an instruction token).
    pub fn from_value(value: u32) -> Option<Opcode> {
        // The table is sorted by value: 0–48, 64–74, 76–96, 0xFFFD.
        let index = OPCODES
            .binary_search_by_key(&value, |i| u32::from(i.value))
            .ok()?;
        OPCODES.get(index).map(|i| i.opcode)
    }

    /// The token value.
    pub fn value(self) -> u16 {
        self.info().value
    }

    /// The base mnemonic (`ifc` and `breakc` print as `if_gt`, `break_lt`, ...).
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The form this opcode takes in `version`, if it exists there.
    pub fn form(self, version: Version) -> Option<&'static Form> {
        self.info().forms.iter().find(|f| f.covers(version))
    }

    /// Whether the instruction exists in `version` (the SDK's instruction table of the
    /// profile). The assembler refuses, and the checker rejects, an opcode for which this is
    /// false.
    pub fn exists_in(self, version: Version) -> bool {
        self.form(version).is_some()
    }

    /// The destination write masks the SDK allows, for the opcodes whose pages restrict them
    /// (`None`: any mask). `sincos` (vs/ps 2.0+): `.x`, `.y` or `.xy`; `crs`: a non-empty
    /// subset of `.xyz`; `m3x2`: `.xy`; `m3x3` and `m4x3`: `.xyz`; `m3x4` and `m4x4`: `.xyzw`,
    /// or `.xyz` (the SDK's "Destination Register Masking" page). The components outside
    /// the mask keep their values, so a legal mask names every component the instruction
    /// writes.
    pub fn dst_masks(self) -> Option<&'static [WriteMask]> {
        const X: u8 = 1;
        const Y: u8 = 2;
        const Z: u8 = 4;
        const W: u8 = 8;
        Some(match self {
            Opcode::SinCos => &[WriteMask(X), WriteMask(Y), WriteMask(X | Y)],
            Opcode::Crs => &[
                WriteMask(X),
                WriteMask(Y),
                WriteMask(Z),
                WriteMask(X | Y),
                WriteMask(X | Z),
                WriteMask(Y | Z),
                WriteMask(X | Y | Z),
            ],
            Opcode::M3x2 => &[WriteMask(X | Y)],
            Opcode::M3x3 | Opcode::M4x3 => &[WriteMask(X | Y | Z)],
            Opcode::M3x4 | Opcode::M4x4 => &[WriteMask(X | Y | Z | W), WriteMask(X | Y | Z)],
            _ => return None,
        })
    }

    /// Whether this opcode opens, splits or closes a block of flow control.
    pub fn is_flow_control(self) -> bool {
        matches!(
            self,
            Opcode::Call
                | Opcode::CallNz
                | Opcode::Loop
                | Opcode::Ret
                | Opcode::EndLoop
                | Opcode::Label
                | Opcode::Rep
                | Opcode::EndRep
                | Opcode::If
                | Opcode::Ifc
                | Opcode::Else
                | Opcode::EndIf
                | Opcode::Break
                | Opcode::Breakc
                | Opcode::Breakp
        )
    }

    /// Whether this opcode declares rather than executes (`dcl`, `def`, `defi`, `defb`).
    pub fn is_declaration(self) -> bool {
        matches!(
            self,
            Opcode::Dcl | Opcode::Def | Opcode::Defi | Opcode::Defb
        )
    }
}

impl fmt::Display for Opcode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_consistent() {
        for (i, a) in OPCODES.iter().enumerate() {
            assert!(!a.forms.is_empty(), "{} has no form", a.name);
            assert_eq!(a.opcode.info().value, a.value);
            for b in &OPCODES[i + 1..] {
                assert_ne!(a.value, b.value, "{} and {} share a value", a.name, b.name);
                assert_ne!(a.opcode, b.opcode);
            }
        }
    }

    #[test]
    fn lookups_agree_with_the_table() {
        for (index, info) in OPCODES.iter().enumerate() {
            assert_eq!(info.opcode as usize, index, "{} out of order", info.name);
        }
        for value in 0..=0xFFFFu32 {
            let linear = OPCODES
                .iter()
                .find(|i| u32::from(i.value) == value)
                .map(|i| i.opcode);
            assert_eq!(Opcode::from_value(value), linear, "value {value:#x}");
        }
    }

    #[test]
    fn sincos_has_three_sources_before_3_0() {
        let v2 = Version::new(Stage::Vertex, 2, 0);
        let v3 = Version::new(Stage::Vertex, 3, 0);
        assert_eq!(Opcode::SinCos.form(v2).map(|f| f.srcs), Some(3));
        assert_eq!(Opcode::SinCos.form(v3).map(|f| f.srcs), Some(1));
        assert!(Opcode::TexLdl.form(v2).is_none());
    }
}
