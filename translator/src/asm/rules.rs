//! What the D3D9 assembler accepts per shader version, before any validation: which register
//! files exist and how many registers each has, which may be relatively addressed, and which
//! instruction and source modifiers exist.
//!
//! These are the checks Microsoft's assembler (and Wine's `D3DAssemble`) apply even with
//! `D3DCOMPILE_SKIP_VALIDATION`. Instructions and register files come from the tables in
//! `bytecode` ([`Opcode::exists_in`], [`file_rule`]); ranges are the largest any device of the
//! version may expose (e.g. 32 temporaries in vs_2_x), and the software profiles (`_sw`) get
//! the software limits (`c0`–`c8191`, 2048 `i#`/`b#`).

use crate::bytecode::{
    file_rule, FileRule, Opcode, RegisterFile, SrcModifier, Stage, Version, VertexProcessing,
};

/// The register file `file` in `version`, or `None` if the version has no such register
/// (hardware limits at their largest; the `_sw` profiles get the software limits).
pub fn register_rule(version: Version, file: RegisterFile) -> Option<FileRule> {
    file_rule(version, file, VertexProcessing::Hardware)
}

/// Whether `opcode` exists in `version` (the opcode table's stage and version ranges).
pub fn opcode_allowed(version: Version, opcode: Opcode) -> bool {
    opcode.exists_in(version)
}

/// Whether a register file can be written by an ordinary instruction
/// ([`RegisterFile::is_writable`]).
pub fn is_writable(file: RegisterFile) -> bool {
    file.is_writable()
}

/// Whether a register file can be read ([`RegisterFile::is_readable`]).
pub fn is_readable(file: RegisterFile) -> bool {
    file.is_readable()
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
        let count = |v, f| register_rule(v, f).map(|r| r.count.max());
        assert!(register_rule(VS11, RegisterFile::Sampler).is_none());
        assert_eq!(count(PS13, RegisterFile::Temp), Some(2));
        assert_eq!(count(PS30, RegisterFile::ColorOut), Some(4));
        assert!(register_rule(PS30, RegisterFile::Addr).is_none());
        assert!(register_rule(PS20, RegisterFile::Loop).is_none());
        assert!(register_rule(VS30, RegisterFile::Input).is_some_and(|r| r.relative_loop));
        assert!(register_rule(VS30, RegisterFile::Temp).is_some_and(|r| !r.relative_loop));
        // c2048.. (CONST2..4) exist in the software profiles only.
        assert!(register_rule(VS30, RegisterFile::Const2).is_none());
        let vs3sw = Version::new(Stage::Vertex, 3, 0xFF);
        assert_eq!(count(vs3sw, RegisterFile::Const4), Some(2048));
        assert_eq!(count(vs3sw, RegisterFile::ConstInt), Some(2048));
        assert_eq!(count(VS30, RegisterFile::ConstInt), Some(16));
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
