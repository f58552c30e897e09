//! D3D9 assembly text → [`Program`]: the parser, with the assembler-level checks of
//! [`rules`](super::rules) applied to every operand.
//!
//! One instruction per line: `[+][(p0.x)] mnemonic[_mods] dst, src, ...`; a line that ends
//! with `,` continues on the next line. The first
//! non-blank line is the version (`vs_1_1`, `vs.1.1`, `ps_2_x`, `vs_3_sw`, ...). The syntax is
//! Microsoft's (as Wine's `D3DAssemble` accepts it) plus the extensions of the project's
//! canonical text: `_shiftN` for result shifts without a name, raw IEEE bits in `def`
//! (`def c0, 0x7fc00000, 1.0, 0, 0`), raw hexadecimal tokens in `defi`/`defb`, and `dcl_unknown
//! s#` for a sampler of unknown type.

use super::error::{AsmError, AsmErrorKind, Pos};
use super::lexer::{lex, version_word, Tok, Token};
use super::preprocess::{preprocess, PChar};
use super::rules;
use crate::bytecode::{
    encode, Comparison, Control, Declaration, DstParam, Instruction, Literal, Opcode, Program,
    Register, RegisterFile, RelativeAddress, ResultModifier, SrcModifier, SrcParam, Stage, Swizzle,
    TextureType, Usage, Version, WriteMask, CONST_BANK_SIZE, OPCODES,
};

mod cursor;
mod declarations;
mod operands;

use cursor::Cursor;
use operands::*;

/// Assemble D3D9 shader assembly text into a [`Program`].
///
/// Checks what Microsoft's assembler checks without validation: the version's register files
/// and ranges, relative addressing, modifiers per version, operand counts, swizzle and mask
/// syntax. Error positions are physical lines and columns of `text` (1-based).
pub fn assemble(text: &str) -> Result<Program, AsmError> {
    let lines = preprocess(text)?;
    let mut lines = lines.iter();
    let (version, rest) = loop {
        let Some(line) = lines.next() else {
            let end = text_end(text);
            return Err(AsmError::new(end, AsmErrorKind::MissingVersion));
        };
        if let Some((word, pos, rest)) = version_word(line) {
            break (parse_version(&word, pos)?, &line[rest..]);
        }
    };
    let mut asm = Assembler {
        version,
        program: Program::new(version),
    };
    // One instruction per line; a line ending in ',' continues on the next one
    // (`def c0, 0.5, 0.5,` / `0.5, 0.5`), as Microsoft's free-form grammar allows.
    let mut pending: Vec<Token> = Vec::new();
    for line in std::iter::once(rest).chain(lines.map(Vec::as_slice)) {
        pending.extend(lex(line)?);
        if pending.last().is_some_and(|t| t.tok == Tok::Punct(',')) {
            continue;
        }
        if !pending.is_empty() {
            asm.statement(&pending, line_end(line))?;
            pending.clear();
        }
    }
    if !pending.is_empty() {
        asm.statement(&pending, text_end(text))?;
    }
    let mut program = asm.program;
    program.number_instructions();
    Ok(program)
}

/// Assemble D3D9 shader assembly text into tokens (version token to end token), as
/// [`encode`] writes them.
pub fn assemble_tokens(text: &str) -> Result<Vec<u32>, AsmError> {
    assemble(text).map(|p| encode(&p))
}

/// The position just after the last character of `text`.
fn text_end(text: &str) -> Pos {
    let line = text.matches('\n').count() as u32 + 1;
    let column = text.rsplit('\n').next().map_or(0, |l| l.chars().count()) as u32 + 1;
    Pos::new(line, column)
}

/// The position just after the last visible character of a line.
fn line_end(line: &[PChar]) -> Pos {
    line.iter()
        .rev()
        .find(|(c, _)| !c.is_whitespace())
        .or(line.last())
        .map_or(Pos::new(1, 1), |&(_, p)| {
            Pos::new(p.line, p.column.saturating_add(1))
        })
}

/// Parse the version word: `vs_1_1`, `vs.1.1`, `ps_2_x`, `vs_3_sw`, ... (case-insensitive).
fn parse_version(word: &str, pos: Pos) -> Result<Version, AsmError> {
    let norm = word.to_ascii_lowercase().replace('.', "_");
    let unknown = || AsmError::new(pos, AsmErrorKind::UnknownVersion(word.to_string()));
    let mut parts = norm.split('_');
    let stage = match parts.next() {
        Some("vs") => Stage::Vertex,
        Some("ps") => Stage::Pixel,
        _ => return Err(unknown()),
    };
    let (major, minor) = match (parts.next(), parts.next(), parts.next()) {
        (Some(major), Some(minor), None) => (major, minor),
        _ => return Err(unknown()),
    };
    let major: u8 = match major {
        "1" => 1,
        "2" => 2,
        "3" => 3,
        _ => return Err(unknown()),
    };
    let minor: u8 = match (major, minor) {
        (2, "x") => 1,
        (2 | 3, "sw") => 0xFF,
        (_, m) if m.len() == 1 => m.parse().map_err(|_| unknown())?,
        _ => return Err(unknown()),
    };
    let version = Version::new(stage, major, minor);
    // Version::from_token knows exactly which versions exist.
    Version::from_token(version.token()).ok_or_else(unknown)
}

/// The parse state: the version and the instructions so far.
struct Assembler {
    version: Version,
    program: Program,
}

/// A register as written, before the version checks.
struct ParsedReg {
    reg: Register,
    pos: Pos,
    /// A `_mod` suffix (`r0_bx2`, `c[a0.x]_abs`) and where it is.
    suffix: Option<(String, Pos)>,
}

/// A `_suffix` of a mnemonic and the position of its `_`.
type Part<'a> = (&'a str, Pos);

/// The `_sat`/`_pp`/`_centroid` and shift suffixes of a mnemonic.
#[derive(Default)]
struct DstMods {
    modifier: u8,
    shift: i8,
    /// The first suffix of each kind, for error messages.
    shift_text: Option<(String, Pos)>,
    sat: Option<Pos>,
    pp_or_centroid: Option<(String, Pos)>,
}

fn err(pos: Pos, kind: AsmErrorKind) -> AsmError {
    AsmError::new(pos, kind)
}

impl Assembler {
    /// Assemble the tokens of one instruction; `end` is where "end of line" is reported.
    fn statement(&mut self, toks: &[Token], end: Pos) -> Result<(), AsmError> {
        let mut cur = Cursor { toks, i: 0, end };
        let inst = self.instruction(&mut cur)?;
        if !cur.at_end() {
            return Err(cur.expected("end of line (one instruction per line)"));
        }
        self.program.instructions.push(inst);
        Ok(())
    }

    fn instruction(&mut self, cur: &mut Cursor<'_>) -> Result<Instruction, AsmError> {
        let version = self.version;
        let coissue_pos = cur.pos();
        let coissue = cur.eat('+');
        if coissue {
            if !rules::coissue_allowed(version) {
                return Err(err(
                    coissue_pos,
                    AsmErrorKind::Invalid(format!(
                        "co-issue ('+') exists only in ps_1_x, not in {version}"
                    )),
                ));
            }
            if self.program.instructions.is_empty() {
                return Err(err(
                    coissue_pos,
                    AsmErrorKind::Invalid(
                        "co-issue ('+') needs a previous instruction to pair with".into(),
                    ),
                ));
            }
        }
        let predicate = if cur.peek() == Some(&Tok::Punct('(')) {
            if coissue {
                return Err(err(
                    cur.pos(),
                    AsmErrorKind::Invalid(
                        "an instruction cannot be both co-issued and predicated".into(),
                    ),
                ));
            }
            Some(self.predicate(cur)?)
        } else {
            None
        };
        let Some((name, mpos)) = cur.ident() else {
            return Err(cur.expected("an instruction"));
        };
        let mut parts = name.split('_');
        let base = parts.next().unwrap_or_default().to_ascii_lowercase();
        // Each suffix with the position of its '_', for messages.
        let mut column = mpos.column.saturating_add(base.chars().count() as u32);
        let mut suffixes: Vec<Part<'_>> = Vec::new();
        for part in parts {
            suffixes.push((part, Pos::new(mpos.line, column)));
            column = column.saturating_add(part.chars().count() as u32 + 1);
        }
        let mut inst = match base.as_str() {
            "dcl" => self.dcl(cur, &suffixes, mpos)?,
            "def" | "defi" | "defb" => self.def(cur, &base, &suffixes, mpos)?,
            _ => self.operation(cur, &base, &suffixes, mpos)?,
        };
        if inst.opcode.is_declaration() && (coissue || predicate.is_some()) {
            return Err(err(
                mpos,
                AsmErrorKind::Invalid(format!(
                    "{} cannot be co-issued or predicated",
                    inst.opcode.name()
                )),
            ));
        }
        inst.coissue = coissue;
        inst.predicate = predicate;
        Ok(inst)
    }

    /// `(p0.x)` / `(!p0)` in front of an instruction.
    fn predicate(&mut self, cur: &mut Cursor<'_>) -> Result<SrcParam, AsmError> {
        let pos = cur.pos();
        cur.expect('(', "'('")?;
        if !rules::predicate_allowed(self.version) {
            return Err(err(
                pos,
                AsmErrorKind::Invalid(format!(
                    "predicated instructions do not exist in {}",
                    self.version
                )),
            ));
        }
        let not = cur.eat('!');
        let parsed = self.register(cur)?;
        if parsed.reg.file != RegisterFile::Predicate {
            return Err(err(
                parsed.pos,
                AsmErrorKind::BadOperandRegister {
                    register: parsed.reg.to_string(),
                    role: "a predicate (only p0 is)",
                },
            ));
        }
        if let Some((s, p)) = parsed.suffix {
            return Err(err(p, AsmErrorKind::UnknownModifier(s)));
        }
        self.check_register(&parsed.reg, parsed.pos)?;
        let swizzle = self.swizzle(cur)?.0;
        cur.expect(')', "')' after the predicate")?;
        Ok(SrcParam {
            reg: parsed.reg,
            swizzle,
            modifier: if not {
                SrcModifier::Not
            } else {
                SrcModifier::None
            },
        })
    }

    /// An arithmetic, texture or flow-control instruction.
    fn operation(
        &mut self,
        cur: &mut Cursor<'_>,
        base: &str,
        suffixes: &[Part<'_>],
        mpos: Pos,
    ) -> Result<Instruction, AsmError> {
        let version = self.version;
        let not_here = || {
            err(
                mpos,
                AsmErrorKind::OpcodeNotInVersion {
                    mnemonic: base.to_string(),
                    version,
                },
            )
        };
        let comparison = suffixes.first().and_then(|(s, _)| Comparison::from_name(s));
        let ps1 = version.stage == Stage::Pixel && version.major == 1;
        let (opcode, control, mods) = match base {
            // `if`/`break` without a comparison are If/Break, found by name below.
            "if" if comparison.is_some() => (Opcode::Ifc, comparison, &suffixes[1..]),
            "break" if comparison.is_some() => (Opcode::Breakc, comparison, &suffixes[1..]),
            "setp" => match comparison {
                Some(c) => (Opcode::Setp, Some(c), &suffixes[1..]),
                None => {
                    return Err(err(
                        mpos,
                        AsmErrorKind::Invalid(
                            "setp needs a comparison: setp_gt, setp_eq, setp_ge, setp_lt, setp_ne or setp_le".into(),
                        ),
                    ))
                }
            },
            // `tex`/`texcoord` are the ps_1_0..ps_1_3 names; `texld`/`texcrd` those of ps_1_4
            // (and `texld` of every later version: TexCoord itself is ps_1_x only, which the
            // opcode table enforces for `texcrd` past ps_1_4).
            "tex" | "texcoord" if !(ps1 && version.minor < 4) => return Err(not_here()),
            "texld" | "texcrd" if ps1 && version.minor < 4 => return Err(not_here()),
            "tex" | "texld" => (Opcode::Tex, None, suffixes),
            "texcoord" | "texcrd" => (Opcode::TexCoord, None, suffixes),
            "texldp" | "texldb" if version.major < 2 => return Err(not_here()),
            "texldp" => (Opcode::Tex, None, suffixes),
            "texldb" => (Opcode::Tex, None, suffixes),
            _ => {
                let info = OPCODES.iter().find(|i| {
                    i.name == base
                        && !matches!(
                            i.opcode,
                            Opcode::Ifc
                                | Opcode::Breakc
                                | Opcode::Dcl
                                | Opcode::Def
                                | Opcode::Defi
                                | Opcode::Defb
                        )
                });
                match info {
                    Some(i) => (i.opcode, None, suffixes),
                    None => {
                        return Err(err(
                            mpos,
                            AsmErrorKind::UnknownMnemonic(base.to_string()),
                        ))
                    }
                }
            }
        };
        let control = match (base, control) {
            ("texldp", _) => Control::TexProject,
            ("texldb", _) => Control::TexBias,
            (_, Some(c)) => Control::Comparison(c),
            (_, None) => Control::None,
        };
        let form = opcode
            .form(version)
            .filter(|_| rules::opcode_allowed(version, opcode))
            .ok_or_else(not_here)?;
        let dst_mods = parse_dst_mods(mods)?;
        let mut inst = Instruction::new(opcode);
        inst.control = control;
        if form.dst {
            let mut dst = self.dst(cur)?;
            self.check_dst_mods(&dst_mods)?;
            dst.modifier = ResultModifier(dst_mods.modifier);
            dst.shift = dst_mods.shift;
            inst.dst = Some(dst);
        } else if let Some((text, pos)) = dst_mods.first() {
            return Err(err(
                pos,
                AsmErrorKind::ModifierNotAllowed {
                    modifier: text,
                    context: format!("on {base}, which has no destination"),
                },
            ));
        }
        let has_srcs = if form.dst {
            cur.eat(',')
        } else {
            !cur.at_end()
        };
        if has_srcs {
            loop {
                inst.src.push(self.src(cur)?);
                if !cur.eat(',') {
                    break;
                }
            }
        }
        if inst.src.len() != usize::from(form.srcs) {
            return Err(err(
                mpos,
                AsmErrorKind::SourceCount {
                    mnemonic: base.to_string(),
                    expected: form.srcs,
                    found: inst.src.len(),
                    version,
                },
            ));
        }
        Ok(inst)
    }

    fn check_dst_mods(&self, mods: &DstMods) -> Result<(), AsmError> {
        let version = self.version;
        let context = format!("in {version}");
        if let Some((s, pos)) = &mods.shift_text {
            if !rules::shift_allowed(version) {
                return Err(err(
                    *pos,
                    AsmErrorKind::ModifierNotAllowed {
                        modifier: format!("_{s}"),
                        context,
                    },
                ));
            }
        }
        if let Some((s, pos)) = &mods.pp_or_centroid {
            if !rules::pp_centroid_allowed(version) {
                return Err(err(
                    *pos,
                    AsmErrorKind::ModifierNotAllowed {
                        modifier: format!("_{s}"),
                        context,
                    },
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
