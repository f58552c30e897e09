//! [`Program`] → fxc-style assembly text, the project's canonical text (the contract shared
//! with the assembler, which reads it back: `tests/asm_roundtrip.rs`): the profile line, then
//! one instruction per line indented by four spaces, comment blocks as `//` lines where they
//! sit in the token stream.
//!
//! The text names what the tokens say, nothing more: a program that no D3D9 runtime would
//! accept still prints (the checker, not the disassembler, judges it).

use crate::bytecode::{
    Comment, Control, Declaration, DstParam, Instruction, Literal, Opcode, Program, Register,
    RegisterFile, ResultModifier, SrcModifier, SrcParam, Stage, Swizzle, TextureType, Usage,
    Version, WriteMask,
};
use std::fmt::{self, Write as _};

/// The text of a whole program: header line, instructions, comment blocks.
pub fn disassemble(program: &Program) -> String {
    let version = program.version;
    let mut out = String::new();
    out.push_str(&version.profile());
    out.push('\n');
    let mut comments = program.comments.iter().peekable();
    for (i, inst) in program.instructions.iter().enumerate() {
        while let Some(c) = comments.next_if(|c| c.position <= i) {
            let _ = writeln!(out, "    {}", CommentLine(c));
        }
        let _ = writeln!(out, "    {}", InstructionText { inst, version });
    }
    for c in comments {
        let _ = writeln!(out, "    {}", CommentLine(c));
    }
    out
}

/// One instruction as text (`add_sat r0.xy, -r1_bx2.x, c[a0.x + 4]`), without indentation.
pub fn instruction_text(inst: &Instruction, version: Version) -> String {
    InstructionText { inst, version }.to_string()
}

/// A register name as fxc prints it in `version` (`r3`, `oPos`, `c[a0.x + 4]`, `vFace`).
pub fn register_text(reg: &Register, version: Version) -> String {
    // vs_1_x has no address token: the address is always a0.x.
    let mut reg = *reg;
    if let Some(rel) = reg.relative.as_mut() {
        if version.major < 2 {
            rel.swizzle = Swizzle::replicate(0);
        }
    }
    reg.to_string()
}

/// A source operand as text (`-r1_bx2.x`, `1 - t0`, `!b0`, `c[aL + 2].yzw`).
pub fn src_text(src: &SrcParam, version: Version) -> String {
    SrcText { src, version }.to_string()
}

/// A destination operand as text, without the modifiers that belong to the mnemonic
/// (`r0.xy`, `o[aL + 1]`).
pub fn dst_text(dst: &DstParam, version: Version) -> String {
    DstText { dst, version }.to_string()
}

/// The mnemonic of an instruction in `version`, without result-modifier suffixes:
/// `if_gt` for `ifc`, `tex`/`texld`/`texldp`/`texldb` for opcode 66, `texcrd` for ps_1_4
/// `texcoord`.
pub fn mnemonic(inst: &Instruction, version: Version) -> String {
    let ps = version.stage == Stage::Pixel;
    match (inst.opcode, inst.control) {
        (Opcode::Ifc | Opcode::Breakc | Opcode::Setp, Control::Comparison(c)) => {
            format!("{}_{}", inst.opcode.name(), c.name())
        }
        (Opcode::Tex, _) if ps && version.major == 1 && version.minor < 4 => "tex".into(),
        (Opcode::Tex, Control::TexProject) => "texldp".into(),
        (Opcode::Tex, Control::TexBias) => "texldb".into(),
        (Opcode::Tex, _) => "texld".into(),
        (Opcode::TexCoord, _) if ps && version.major == 1 && version.minor == 4 => "texcrd".into(),
        (op, _) => op.name().into(),
    }
}

/// `_x2`/`_d4`… then `_sat`, `_pp`, `_centroid`: the suffixes a destination puts on the
/// mnemonic. Shifts outside ±3 print `_shiftN`; unknown result-modifier bits print `_rmN`.
pub fn result_suffixes(dst: &DstParam) -> String {
    let mut s = String::new();
    match dst.shift {
        0 => {}
        1 => s.push_str("_x2"),
        2 => s.push_str("_x4"),
        3 => s.push_str("_x8"),
        -1 => s.push_str("_d2"),
        -2 => s.push_str("_d4"),
        -3 => s.push_str("_d8"),
        n => {
            let _ = write!(s, "_shift{n}");
        }
    }
    let m = dst.modifier;
    if m.saturate() {
        s.push_str("_sat");
    }
    if m.partial_precision() {
        s.push_str("_pp");
    }
    if m.centroid() {
        s.push_str("_centroid");
    }
    let unknown = m.0
        & !(ResultModifier::SATURATE
            | ResultModifier::PARTIAL_PRECISION
            | ResultModifier::CENTROID);
    if unknown != 0 {
        let _ = write!(s, "_rm{unknown}");
    }
    s
}

/// Source swizzle text with its dot, or nothing for `.xyzw`: one letter when all four
/// selectors agree, else the shortest prefix whose last letter replicates to fill four.
pub fn swizzle_suffix(swizzle: Swizzle) -> String {
    if swizzle == Swizzle::IDENTITY {
        return String::new();
    }
    let c = swizzle.components();
    let mut len = 4;
    while len > 1 && c[len - 1] == c[len - 2] {
        len -= 1;
    }
    let mut s = String::from(".");
    s.extend(c[..len].iter().map(|&x| letter(x)));
    s
}

/// Write-mask text with its dot, or nothing for `.xyzw`. An empty mask prints `.0`
/// (no assembler syntax writes one; it shows what the token says).
pub fn mask_suffix(mask: WriteMask) -> String {
    match mask.0 & 0xF {
        0xF => String::new(),
        0 => ".0".into(),
        _ => format!(".{}", mask.letters()),
    }
}

fn letter(c: u8) -> char {
    char::from(b"xyzw"[usize::from(c & 3)])
}

/// A float of `def` in Rust's shortest round-trip form, or its raw bits (`0x7fc00000`) when
/// that text would not read back to the same bits (NaN, infinities).
pub fn float_text(bits: u32) -> String {
    let v = f32::from_bits(bits);
    let text = format!("{v:?}");
    match text.parse::<f32>() {
        Ok(back) if back.to_bits() == bits && v.is_finite() => text,
        _ => format!("{bits:#010x}"),
    }
}

struct CommentLine<'a>(&'a Comment);

impl fmt::Display for CommentLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.0;
        write!(
            f,
            "// comment block at token {}: {} tokens",
            c.offset,
            c.data.len()
        )?;
        if let Some(cc) = c.fourcc() {
            if cc.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
                let text: String = cc.iter().map(|&b| char::from(b)).collect();
                write!(f, " ({text})")?;
            }
        }
        Ok(())
    }
}

struct InstructionText<'a> {
    inst: &'a Instruction,
    version: Version,
}

impl fmt::Display for InstructionText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (inst, version) = (self.inst, self.version);
        if inst.coissue {
            f.write_str("+")?;
        }
        if let Some(p) = &inst.predicate {
            write!(f, "({}) ", SrcText { src: p, version })?;
        }
        match (inst.opcode, inst.dst) {
            (Opcode::Dcl, Some(dst)) => return write_dcl(f, inst, &dst, version),
            (Opcode::Def | Opcode::Defi | Opcode::Defb, Some(dst)) => {
                return write_def(f, inst, &dst, version)
            }
            _ => {}
        }
        f.write_str(&mnemonic(inst, version))?;
        if let Some(dst) = &inst.dst {
            f.write_str(&result_suffixes(dst))?;
        }
        let mut first = true;
        let mut sep = |f: &mut fmt::Formatter<'_>| -> fmt::Result {
            let s = if first { " " } else { ", " };
            first = false;
            f.write_str(s)
        };
        if let Some(dst) = &inst.dst {
            sep(f)?;
            write!(f, "{}", DstText { dst, version })?;
        }
        for src in &inst.src {
            sep(f)?;
            write!(f, "{}", SrcText { src, version })?;
        }
        Ok(())
    }
}

/// `dcl_texcoord3 o3.yz`, `dcl_2d s0`, ps_2_x `dcl t0.xy`, ps_3_0 `dcl vPos.xy`.
fn write_dcl(
    f: &mut fmt::Formatter<'_>,
    inst: &Instruction,
    dst: &DstParam,
    version: Version,
) -> fmt::Result {
    f.write_str("dcl")?;
    match inst.decl {
        Some(Declaration::Sampler(TextureType::Unknown)) | None => {}
        Some(Declaration::Sampler(ty)) => write!(f, "_{}", ty.name())?,
        Some(Declaration::Semantic { usage, index }) => {
            let file = dst.reg.file;
            let plain = usage == Usage::Position
                && index == 0
                && ((version.stage == Stage::Pixel
                    && version.major < 3
                    && matches!(file, RegisterFile::Input | RegisterFile::Texture))
                    || file == RegisterFile::MiscType);
            if !plain {
                write!(f, "_{}", usage.name())?;
                if index != 0 {
                    write!(f, "{index}")?;
                }
            }
        }
    }
    write!(f, "{} {}", result_suffixes(dst), DstText { dst, version })
}

/// `def c0, 1.0, 0.5, -0.0, 1e10`, `defi i0, 3, 0, 1, 0`, `defb b0, true`.
fn write_def(
    f: &mut fmt::Formatter<'_>,
    inst: &Instruction,
    dst: &DstParam,
    version: Version,
) -> fmt::Result {
    write!(
        f,
        "{}{} {}",
        inst.opcode.name(),
        result_suffixes(dst),
        DstText { dst, version }
    )?;
    match inst.literal {
        Some(Literal::Float(v)) => {
            for bits in v {
                write!(f, ", {}", float_text(bits))?;
            }
        }
        Some(Literal::Int(v)) => {
            for x in v {
                write!(f, ", {x}")?;
            }
        }
        Some(Literal::Bool(0)) => f.write_str(", false")?,
        Some(Literal::Bool(1)) => f.write_str(", true")?,
        Some(Literal::Bool(raw)) => write!(f, ", {raw:#x}")?,
        None => {}
    }
    Ok(())
}

struct DstText<'a> {
    dst: &'a DstParam,
    version: Version,
}

impl fmt::Display for DstText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            register_text(&self.dst.reg, self.version),
            mask_suffix(self.dst.mask)
        )
    }
}

struct SrcText<'a> {
    src: &'a SrcParam,
    version: Version,
}

impl fmt::Display for SrcText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use SrcModifier::*;
        let m = self.src.modifier;
        let prefix = match m {
            Neg | BiasNeg | SignNeg | X2Neg | AbsNeg => "-",
            Comp => "1 - ",
            Not => "!",
            None | Bias | Sign | X2 | Dz | Dw | Abs => "",
        };
        let suffix = match m {
            Bias | BiasNeg => "_bias",
            Sign | SignNeg => "_bx2",
            X2 | X2Neg => "_x2",
            Dz => "_dz",
            Dw => "_dw",
            Abs | AbsNeg => "_abs",
            None | Neg | Comp | Not => "",
        };
        write!(
            f,
            "{prefix}{}{suffix}{}",
            register_text(&self.src.reg, self.version),
            swizzle_suffix(self.src.swizzle)
        )
    }
}

#[cfg(test)]
mod tests;
