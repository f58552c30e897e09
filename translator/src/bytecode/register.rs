//! Registers and parameters: register files, swizzles, write masks and modifiers.

use super::{Stage, Version};
use std::fmt;

/// A D3D9 register file (`D3DSHADER_PARAM_REGISTER_TYPE`), resolved for the shader's stage:
/// raw type 3 is `a0` in vertex shaders and `t#` in pixel shaders; raw type 6 is `oT#` before
/// vs_3_0 and `o#` in vs_3_0.
#[allow(missing_docs)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RegisterFile {
    /// r#
    Temp,
    /// v#
    Input,
    /// c#
    Const,
    /// a0 (vertex shaders)
    Addr,
    /// t# (pixel shaders)
    Texture,
    /// oPos (0), oFog (1), oPts (2)
    RastOut,
    /// oD0, oD1
    AttrOut,
    /// oT0–oT7 (vertex shaders before 3.0)
    TexCrdOut,
    /// o# (vs_3_0)
    Output,
    /// i#
    ConstInt,
    /// oC# (pixel shaders)
    ColorOut,
    /// oDepth
    DepthOut,
    /// s#
    Sampler,
    Const2,
    Const3,
    Const4,
    /// b#
    ConstBool,
    /// aL
    Loop,
    TempFloat16,
    /// vPos (0), vFace (1)
    MiscType,
    /// l# (call targets)
    Label,
    /// p0
    Predicate,
}

impl RegisterFile {
    /// The file for a raw register type in a shader of `version`.
    pub fn from_raw(raw: u32, version: Version) -> Option<RegisterFile> {
        use RegisterFile::*;
        Some(match raw {
            0 => Temp,
            1 => Input,
            2 => Const,
            3 if version.stage == Stage::Vertex => Addr,
            3 => Texture,
            4 => RastOut,
            5 => AttrOut,
            6 if version.stage == Stage::Vertex && version.major >= 3 => Output,
            6 => TexCrdOut,
            7 => ConstInt,
            8 => ColorOut,
            9 => DepthOut,
            10 => Sampler,
            11 => Const2,
            12 => Const3,
            13 => Const4,
            14 => ConstBool,
            15 => Loop,
            16 => TempFloat16,
            17 => MiscType,
            18 => Label,
            19 => Predicate,
            _ => return None,
        })
    }

    /// The raw register type.
    pub fn raw(self) -> u32 {
        use RegisterFile::*;
        match self {
            Temp => 0,
            Input => 1,
            Const => 2,
            Addr | Texture => 3,
            RastOut => 4,
            AttrOut => 5,
            TexCrdOut | Output => 6,
            ConstInt => 7,
            ColorOut => 8,
            DepthOut => 9,
            Sampler => 10,
            Const2 => 11,
            Const3 => 12,
            Const4 => 13,
            ConstBool => 14,
            Loop => 15,
            TempFloat16 => 16,
            MiscType => 17,
            Label => 18,
            Predicate => 19,
        }
    }

    /// The register-name prefix fxc prints for files named `prefix#`.
    pub fn prefix(self) -> &'static str {
        use RegisterFile::*;
        match self {
            Temp => "r",
            Input => "v",
            Const => "c",
            Addr => "a",
            Texture => "t",
            RastOut => "o",
            AttrOut => "oD",
            TexCrdOut => "oT",
            Output => "o",
            ConstInt => "i",
            ColorOut => "oC",
            DepthOut => "oDepth",
            Sampler => "s",
            Const2 => "c",
            Const3 => "c",
            Const4 => "c",
            ConstBool => "b",
            Loop => "aL",
            TempFloat16 => "half",
            MiscType => "misc",
            Label => "l",
            Predicate => "p",
        }
    }
}

impl fmt::Display for RegisterFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use RegisterFile::*;
        let name = match self {
            Temp => "temporary (r#)",
            Input => "input (v#)",
            Const => "float constant (c#)",
            Addr => "address (a0)",
            Texture => "texture (t#)",
            RastOut => "rasterizer output (oPos/oFog/oPts)",
            AttrOut => "colour output (oD#)",
            TexCrdOut => "texture coordinate output (oT#)",
            Output => "output (o#)",
            ConstInt => "integer constant (i#)",
            ColorOut => "colour output (oC#)",
            DepthOut => "depth output (oDepth)",
            Sampler => "sampler (s#)",
            Const2 | Const3 | Const4 => "float constant bank (c#)",
            ConstBool => "boolean constant (b#)",
            Loop => "loop counter (aL)",
            TempFloat16 => "half temporary",
            MiscType => "misc (vPos/vFace)",
            Label => "label (l#)",
            Predicate => "predicate (p0)",
        };
        f.write_str(name)
    }
}

/// A swizzle: four 2-bit component selectors (x=0, y=1, z=2, w=3), x in the low bits,
/// as in source-parameter bits 16–23 (shifted down).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Swizzle(pub u8);

impl Swizzle {
    /// `.xyzw`: no swizzle.
    pub const IDENTITY: Swizzle = Swizzle(0b11_10_01_00);

    /// A swizzle from four component indices (each 0..=3).
    pub fn new(c: [u8; 4]) -> Swizzle {
        Swizzle((c[0] & 3) | ((c[1] & 3) << 2) | ((c[2] & 3) << 4) | ((c[3] & 3) << 6))
    }

    /// The same component in all four places (`.x` = `.xxxx`).
    pub fn replicate(c: u8) -> Swizzle {
        Swizzle::new([c; 4])
    }

    /// The component read into place `i` (0..=3).
    pub fn get(self, i: usize) -> u8 {
        (self.0 >> ((i & 3) * 2)) & 3
    }

    /// All four selectors.
    pub fn components(self) -> [u8; 4] {
        [self.get(0), self.get(1), self.get(2), self.get(3)]
    }
}

impl Default for Swizzle {
    fn default() -> Self {
        Swizzle::IDENTITY
    }
}

/// A destination write mask: bit 0 = x … bit 3 = w.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct WriteMask(pub u8);

impl WriteMask {
    /// `.xyzw`.
    pub const ALL: WriteMask = WriteMask(0xF);
    /// `.w` alone: the alpha half of a ps_1_x co-issued pair.
    pub const ALPHA: WriteMask = WriteMask(0x8);

    /// Whether component `c` (0..=3) is written.
    pub fn contains(self, c: usize) -> bool {
        c < 4 && self.0 & (1 << c) != 0
    }

    /// Number of components written.
    pub fn count(self) -> u32 {
        (self.0 & 0xF).count_ones()
    }

    /// Whether two masks share a component.
    pub fn overlaps(self, other: WriteMask) -> bool {
        self.0 & other.0 & 0xF != 0
    }

    /// `xyzw`-style text of the written components.
    pub fn letters(self) -> String {
        (0..4)
            .filter(|&c| self.contains(c))
            .map(|c| b"xyzw"[c] as char)
            .collect()
    }
}

impl Default for WriteMask {
    fn default() -> Self {
        WriteMask::ALL
    }
}

impl fmt::Display for WriteMask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.letters())
    }
}

/// A source modifier (source-parameter bits 24–27).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SrcModifier {
    #[default]
    None = 0,
    /// `-r0`
    Neg = 1,
    /// `r0_bias`: x − 0.5
    Bias = 2,
    /// `-r0_bias`
    BiasNeg = 3,
    /// `r0_bx2`: 2x − 1 (`_sign`)
    Sign = 4,
    /// `-r0_bx2`
    SignNeg = 5,
    /// `1 - r0`
    Comp = 6,
    /// `r0_x2`
    X2 = 7,
    /// `-r0_x2`
    X2Neg = 8,
    /// `r0_dz`: divide by z (ps_1_4 texld/texcrd)
    Dz = 9,
    /// `r0_dw`: divide by w
    Dw = 10,
    /// `r0_abs`
    Abs = 11,
    /// `-r0_abs`
    AbsNeg = 12,
    /// `!b0` / `!p0`
    Not = 13,
}

impl SrcModifier {
    /// The modifier with this raw value.
    pub fn from_raw(raw: u32) -> Option<SrcModifier> {
        use SrcModifier::*;
        Some(match raw {
            0 => None,
            1 => Neg,
            2 => Bias,
            3 => BiasNeg,
            4 => Sign,
            5 => SignNeg,
            6 => Comp,
            7 => X2,
            8 => X2Neg,
            9 => Dz,
            10 => Dw,
            11 => Abs,
            12 => AbsNeg,
            13 => Not,
            _ => return Option::None,
        })
    }
}

/// Result modifiers of a destination (bits 20–23): `_sat`, `_pp`, `_centroid`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ResultModifier(pub u8);

impl ResultModifier {
    pub const SATURATE: u8 = 1;
    pub const PARTIAL_PRECISION: u8 = 2;
    pub const CENTROID: u8 = 4;

    pub fn saturate(self) -> bool {
        self.0 & Self::SATURATE != 0
    }
    pub fn partial_precision(self) -> bool {
        self.0 & Self::PARTIAL_PRECISION != 0
    }
    pub fn centroid(self) -> bool {
        self.0 & Self::CENTROID != 0
    }
}

/// Relative addressing of a register: `c[a0.x + 4]`, `c0[aL]`, `o[aL + 2]`.
/// In vs_1_1 the address is always `a0.x` and takes no token of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RelativeAddress {
    /// [`RegisterFile::Addr`] or [`RegisterFile::Loop`].
    pub file: RegisterFile,
    pub index: u32,
    /// The swizzle of the address token; its first selector is the component used.
    /// (vs_1_1 has no address token: the address is always `a0.x`.)
    pub swizzle: Swizzle,
}

impl RelativeAddress {
    /// The component of the address register that holds the offset (0..=3).
    pub fn component(&self) -> u8 {
        self.swizzle.get(0)
    }
}

/// A register reference: file, index and optional relative address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Register {
    pub file: RegisterFile,
    pub index: u32,
    pub relative: Option<RelativeAddress>,
}

impl Register {
    /// A register without relative addressing.
    pub fn new(file: RegisterFile, index: u32) -> Register {
        Register {
            file,
            index,
            relative: None,
        }
    }
}

impl fmt::Display for Register {
    /// The register as fxc writes it: `r5`, `oPos`, `vFace`, `aL`, `c3056` (a `CONST2`
    /// register), `c[a0.x + 4]`, `o[aL + 1]`, `c[a0.xyww]` (a whole address swizzle is kept).
    /// The one text form of a register: the disassembler, the assembler's and the checker's
    /// messages and the command line print this.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write as _;
        use RegisterFile::*;
        let index = self.float_constant_index().unwrap_or(self.index);
        let letter = |c: u8| char::from(b"xyzw"[usize::from(c & 3)]);
        let Some(rel) = self.relative else {
            return match (self.file, index) {
                (RastOut, 0) => f.write_str("oPos"),
                (RastOut, 1) => f.write_str("oFog"),
                (RastOut, 2) => f.write_str("oPts"),
                (RastOut, n) => write!(f, "oRast{n}"),
                (MiscType, 0) => f.write_str("vPos"),
                (MiscType, 1) => f.write_str("vFace"),
                (MiscType, n) => write!(f, "vMisc{n}"),
                (DepthOut | Loop, 0) => f.write_str(self.file.prefix()),
                (file, n) => write!(f, "{}{n}", file.prefix()),
            };
        };
        // Relative: `c[a0.x + 4]`; the index moves inside the brackets.
        write!(f, "{}[", self.file.prefix())?;
        match rel.file {
            Loop => f.write_str("aL")?,
            other => write!(f, "{}{}", other.prefix(), rel.index)?,
        }
        if !(rel.file == Loop && rel.swizzle == Swizzle::IDENTITY) {
            let c = rel.swizzle.components();
            f.write_char('.')?;
            if c.iter().all(|&x| x == c[0]) {
                f.write_char(letter(c[0]))?;
            } else {
                for x in c {
                    f.write_char(letter(x))?;
                }
            }
        }
        if index != 0 {
            write!(f, " + {index}")?;
        }
        f.write_str("]")
    }
}

/// A destination parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DstParam {
    pub reg: Register,
    pub mask: WriteMask,
    pub modifier: ResultModifier,
    /// Result shift (bits 24–27, signed): `_x2` = 1, `_x4` = 2, `_x8` = 3, `_d2` = −1, ...
    pub shift: i8,
}

impl DstParam {
    /// A full-mask destination with no modifier.
    pub fn new(reg: Register) -> DstParam {
        DstParam {
            reg,
            mask: WriteMask::ALL,
            modifier: ResultModifier(0),
            shift: 0,
        }
    }
}

/// A source parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SrcParam {
    pub reg: Register,
    pub swizzle: Swizzle,
    pub modifier: SrcModifier,
}

impl SrcParam {
    /// An unmodified `.xyzw` read.
    pub fn new(reg: Register) -> SrcParam {
        SrcParam {
            reg,
            swizzle: Swizzle::IDENTITY,
            modifier: SrcModifier::None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bytecode::Stage;

    /// Every register type 0–19 of the SDK's `D3DSHADER_PARAM_REGISTER_TYPE` decodes to its
    /// file and encodes back to the same number (3 and 6 by stage and version); 20 and past
    /// are no register type.
    #[test]
    fn register_types_round_trip() {
        for version in [
            Version::new(Stage::Vertex, 1, 1),
            Version::new(Stage::Vertex, 3, 0),
            Version::new(Stage::Pixel, 2, 0),
        ] {
            for raw in 0..20 {
                let file = RegisterFile::from_raw(raw, version);
                assert_eq!(
                    file.map(RegisterFile::raw),
                    Some(raw),
                    "{raw} in {version:?}"
                );
            }
            assert_eq!(RegisterFile::from_raw(20, version), None);
        }
        let v = |stage, major| Version::new(stage, major, 0);
        assert_eq!(
            RegisterFile::from_raw(16, v(Stage::Vertex, 3)),
            Some(RegisterFile::TempFloat16)
        );
        assert_eq!(
            RegisterFile::from_raw(3, v(Stage::Vertex, 2)),
            Some(RegisterFile::Addr)
        );
        assert_eq!(
            RegisterFile::from_raw(3, v(Stage::Pixel, 2)),
            Some(RegisterFile::Texture)
        );
        assert_eq!(
            RegisterFile::from_raw(6, v(Stage::Vertex, 3)),
            Some(RegisterFile::Output)
        );
        assert_eq!(
            RegisterFile::from_raw(6, v(Stage::Vertex, 2)),
            Some(RegisterFile::TexCrdOut)
        );
    }

    /// Every source modifier 0–13 of `D3DSHADER_PARAM_SRCMOD_TYPE` decodes to the variant
    /// of that number; 14 and 15 are none.
    #[test]
    fn source_modifiers_round_trip() {
        for raw in 0..14 {
            let m = SrcModifier::from_raw(raw);
            assert_eq!(m.map(|m| m as u32), Some(raw), "modifier {raw}");
        }
        assert_eq!(SrcModifier::from_raw(7), Some(SrcModifier::X2));
        assert_eq!(SrcModifier::from_raw(10), Some(SrcModifier::Dw));
        assert_eq!(SrcModifier::from_raw(12), Some(SrcModifier::AbsNeg));
        assert_eq!(SrcModifier::from_raw(14), None);
        assert_eq!(SrcModifier::from_raw(15), None);
    }

    /// A mask has components 0–3 only, whatever bits lie above them.
    #[test]
    fn write_masks_have_four_components() {
        let mask = WriteMask(0xFF);
        assert!((0..4).all(|c| mask.contains(c)));
        assert!(!mask.contains(4));
        assert_eq!(mask.count(), 4);
        assert!(!WriteMask(0x5).contains(1));
        assert_eq!(WriteMask(0x5).count(), 2);
    }

    /// The address component is the first selector of the address token's swizzle
    /// (`c[a0.y]` replicates y).
    #[test]
    fn the_relative_address_component_is_the_first_selector() {
        for c in 0..4 {
            let rel = RelativeAddress {
                file: RegisterFile::Addr,
                index: 0,
                swizzle: Swizzle::replicate(c),
            };
            assert_eq!(rel.component(), c);
        }
    }
}
