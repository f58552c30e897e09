//! What the D3D9 assembler accepts per shader version, before any validation: which register
//! files exist and how many registers each has, which may be relatively addressed, and which
//! instruction and source modifiers exist.
//!
//! These are the checks Microsoft's assembler (and Wine's `D3DAssemble`) apply even with
//! `D3DCOMPILE_SKIP_VALIDATION`. Ranges are the largest any device of the version may expose
//! (e.g. 32 temporaries in vs_2_x); the software profiles (`_sw`) get the software limits.

use crate::bytecode::{Opcode, RegisterFile, SrcModifier, Stage, Version};

/// How a register file exists in a version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileRule {
    /// Registers `0..count` exist.
    pub count: u32,
    /// Whether `file[a0.x + n]` / `file[aL + n]` is allowed (then the index is not checked).
    pub relative: bool,
}

const fn rule(count: u32, relative: bool) -> Option<FileRule> {
    Some(FileRule { count, relative })
}

/// Any index the 11-bit register field can hold.
const ANY: u32 = 2048;

/// The register file `file` in `version`, or `None` if the version has no such register.
pub fn register_rule(version: Version, file: RegisterFile) -> Option<FileRule> {
    use RegisterFile::*;
    let sw = version.is_software();
    match (version.stage, version.major) {
        (Stage::Vertex, 1) => match file {
            Temp => rule(12, false),
            Input => rule(16, false),
            Const => rule(ANY, true),
            Addr => rule(1, false),
            RastOut => rule(3, false),
            AttrOut => rule(2, false),
            TexCrdOut => rule(8, false),
            _ => None,
        },
        (Stage::Vertex, 2) => match file {
            Temp if version.minor == 0 => rule(12, false),
            Temp => rule(32, false),
            Input => rule(16, false),
            Const => rule(ANY, true),
            Addr => rule(1, false),
            ConstBool => rule(if sw { ANY } else { 16 }, false),
            ConstInt => rule(if sw { ANY } else { 16 }, false),
            Loop => rule(1, false),
            Label => rule(ANY, false),
            Predicate if version.at_least(2, 1) => rule(1, false),
            RastOut => rule(3, false),
            AttrOut => rule(2, false),
            TexCrdOut => rule(8, false),
            _ => None,
        },
        (Stage::Vertex, _) => match file {
            Temp => rule(32, false),
            Input => rule(16, true),
            Const => rule(ANY, true),
            Addr => rule(1, false),
            ConstBool => rule(if sw { ANY } else { 16 }, false),
            ConstInt => rule(if sw { ANY } else { 16 }, false),
            Loop => rule(1, false),
            Label => rule(ANY, false),
            Predicate => rule(1, false),
            Sampler => rule(4, false),
            Output => rule(12, true),
            _ => None,
        },
        (Stage::Pixel, 1) => {
            let ps14 = version.minor >= 4;
            match file {
                Const => rule(8, false),
                Temp => rule(if ps14 { 6 } else { 2 }, false),
                Texture => rule(if ps14 { 6 } else { 4 }, false),
                Input => rule(2, false),
                _ => None,
            }
        }
        (Stage::Pixel, 2) => match file {
            // ps_2_0 has no integer or boolean constants (and no flow control to use them).
            ConstInt | ConstBool if version.minor == 0 => None,
            Input => rule(2, false),
            Temp => rule(32, false),
            Const => rule(if sw { 8192 } else { 32 }, false),
            ConstInt => rule(if sw { ANY } else { 16 }, false),
            ConstBool => rule(if sw { ANY } else { 16 }, false),
            Sampler => rule(16, false),
            Texture => rule(8, false),
            ColorOut => rule(4, false),
            DepthOut => rule(1, false),
            Predicate | Label if version.at_least(2, 1) => {
                rule(if file == Label { ANY } else { 1 }, false)
            }
            _ => None,
        },
        (Stage::Pixel, _) => match file {
            Input => rule(10, true),
            Temp => rule(32, false),
            Const => rule(if sw { 8192 } else { 224 }, false),
            ConstInt => rule(if sw { ANY } else { 16 }, false),
            ConstBool => rule(if sw { ANY } else { 16 }, false),
            Predicate => rule(1, false),
            Sampler => rule(16, false),
            MiscType => rule(2, false),
            Loop => rule(1, false),
            Label => rule(ANY, false),
            ColorOut => rule(4, false),
            DepthOut => rule(1, false),
            _ => None,
        },
    }
}

/// Whether `opcode` exists in `version`, refining the opcode table's version ranges (which
/// are shared by both stages): ps_2_0 has no flow control and no `defi`/`defb`, and pixel
/// shaders before 3.0 have no `loop` (they have no `aL`).
pub fn opcode_allowed(version: Version, opcode: Opcode) -> bool {
    use Opcode::*;
    if opcode.form(version).is_none() {
        return false;
    }
    if version.stage != Stage::Pixel || version.major != 2 {
        return true;
    }
    let static_flow = matches!(
        opcode,
        Call | CallNz | Ret | Label | Rep | EndRep | If | Else | EndIf | Defi | Defb
    );
    match opcode {
        Loop | EndLoop => false,
        _ if static_flow => version.minor != 0,
        _ => true,
    }
}

/// Whether a register file can be written by an ordinary instruction (constants, samplers,
/// `vPos`/`vFace`, `aL` and labels cannot; `def*`/`dcl` have their own rules).
pub fn is_writable(file: RegisterFile) -> bool {
    use RegisterFile::*;
    !matches!(
        file,
        Const
            | Const2
            | Const3
            | Const4
            | ConstInt
            | ConstBool
            | Sampler
            | MiscType
            | Loop
            | Label
            | TempFloat16
    )
}

/// Whether a register file can be read (output registers cannot).
pub fn is_readable(file: RegisterFile) -> bool {
    use RegisterFile::*;
    !matches!(
        file,
        RastOut | AttrOut | TexCrdOut | Output | ColorOut | DepthOut
    )
}

/// Whether a source modifier exists in `version`: vertex shaders have only negation (and
/// `_abs` from vs_3_0); ps_1_x has the legacy modifiers (`_bias`, `_bx2`, `_x2`, `1 -`, with
/// `_dz`/`_dw` in ps_1_4) but not `_abs`; ps_2_x has negation only; ps_3_0 adds `_abs`.
/// `!` (not) is checked separately: it applies to b# and p# only.
pub fn src_modifier_allowed(version: Version, modifier: SrcModifier) -> bool {
    use SrcModifier::*;
    let legacy = matches!(
        modifier,
        Bias | BiasNeg | Sign | SignNeg | Comp | X2 | X2Neg
    );
    let divide = matches!(modifier, Dz | Dw);
    let abs = matches!(modifier, Abs | AbsNeg);
    match (version.stage, version.major) {
        (_, _) if matches!(modifier, None | Neg | Not) => true,
        (Stage::Pixel, 1) => legacy || (divide && version.minor >= 4),
        (_, 3) => abs,
        _ => false,
    }
}

/// Result shifts (`_x2`, `_d4`, ...) exist only in ps_1_x.
pub fn shift_allowed(version: Version) -> bool {
    version.stage == Stage::Pixel && version.major == 1
}

/// `_pp` and `_centroid` exist only in pixel shaders.
pub fn pp_centroid_allowed(version: Version) -> bool {
    version.stage == Stage::Pixel
}

/// Co-issue (`+`) exists only in ps_1_x.
pub fn coissue_allowed(version: Version) -> bool {
    version.stage == Stage::Pixel && version.major == 1
}

/// Predication (`(p0) ...`) exists from vs_2_x / ps_2_x on.
pub fn predicate_allowed(version: Version) -> bool {
    version.at_least(2, 1)
}

/// `dcl` of an input register (`v#`, `t#`) exists in vertex shaders and pixel shaders 2.0+.
pub fn input_dcl_allowed(version: Version) -> bool {
    version.stage == Stage::Vertex || version.major >= 2
}

/// `dcl` of a sampler exists in pixel shaders 2.0+ and vertex shaders 3.0+.
pub fn sampler_dcl_allowed(version: Version) -> bool {
    match version.stage {
        Stage::Pixel => version.major >= 2,
        Stage::Vertex => version.major >= 3,
    }
}

/// `_pp` / `_centroid` on a `dcl` exist only in pixel shaders 2.0+ (never `_sat` or a shift).
pub fn dcl_modifier_allowed(version: Version) -> bool {
    version.stage == Stage::Pixel && version.major >= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    const VS11: Version = Version::new(Stage::Vertex, 1, 1);
    const VS30: Version = Version::new(Stage::Vertex, 3, 0);
    const PS13: Version = Version::new(Stage::Pixel, 1, 3);
    const PS20: Version = Version::new(Stage::Pixel, 2, 0);
    const PS30: Version = Version::new(Stage::Pixel, 3, 0);

    #[test]
    fn register_files_per_version() {
        assert!(register_rule(VS11, RegisterFile::Sampler).is_none());
        assert_eq!(
            register_rule(PS13, RegisterFile::Temp).map(|r| r.count),
            Some(2)
        );
        assert_eq!(
            register_rule(PS30, RegisterFile::ColorOut).map(|r| r.count),
            Some(4)
        );
        assert!(register_rule(PS30, RegisterFile::Addr).is_none());
        assert!(register_rule(PS20, RegisterFile::Loop).is_none());
        assert!(register_rule(VS30, RegisterFile::Input).is_some_and(|r| r.relative));
        assert!(register_rule(VS30, RegisterFile::Temp).is_some_and(|r| !r.relative));
    }

    #[test]
    fn pixel_shader_2_0_has_no_flow_control() {
        assert!(!opcode_allowed(PS20, Opcode::Rep));
        assert!(!opcode_allowed(PS20, Opcode::Defb));
        assert!(register_rule(PS20, RegisterFile::ConstBool).is_none());
        let ps2x = Version::new(Stage::Pixel, 2, 1);
        assert!(opcode_allowed(ps2x, Opcode::Rep) && !opcode_allowed(ps2x, Opcode::Loop));
        assert!(opcode_allowed(PS30, Opcode::Loop));
        assert!(opcode_allowed(
            Version::new(Stage::Vertex, 2, 0),
            Opcode::Loop
        ));
    }

    #[test]
    fn modifiers_per_version() {
        assert!(!src_modifier_allowed(VS11, SrcModifier::X2));
        assert!(!src_modifier_allowed(VS11, SrcModifier::Abs));
        assert!(src_modifier_allowed(VS30, SrcModifier::AbsNeg));
        assert!(src_modifier_allowed(PS13, SrcModifier::Comp));
        assert!(!src_modifier_allowed(PS13, SrcModifier::Dz));
        assert!(!src_modifier_allowed(PS20, SrcModifier::Comp));
        assert!(shift_allowed(PS13) && !shift_allowed(PS30) && !shift_allowed(VS11));
        assert!(!pp_centroid_allowed(VS30));
    }
}
