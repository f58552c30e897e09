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
    TextureType, TokenOffset, Usage, Version, WriteMask, CONST_BANK_SIZE, OPCODES,
};

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
    let mut offset = 1u32;
    for inst in &mut program.instructions {
        inst.offset = TokenOffset(offset);
        offset = offset.saturating_add(instruction_length(inst, version));
    }
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

/// Tokens an instruction takes, for the token offsets [`decode`](crate::bytecode::decode)
/// would report.
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

/// The tokens of one line, read left to right.
struct Cursor<'a> {
    toks: &'a [Token],
    i: usize,
    /// Where "end of line" is reported.
    end: Pos,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<&'a Tok> {
        self.toks.get(self.i).map(|t| &t.tok)
    }

    fn pos(&self) -> Pos {
        self.toks.get(self.i).map_or(self.end, |t| t.pos)
    }

    fn at_end(&self) -> bool {
        self.i >= self.toks.len()
    }

    fn found(&self) -> String {
        self.peek()
            .map_or_else(|| "end of line".to_string(), Tok::describe)
    }

    fn expected(&self, expected: &'static str) -> AsmError {
        AsmError::new(
            self.pos(),
            AsmErrorKind::Expected {
                expected,
                found: self.found(),
            },
        )
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(&Tok::Punct(c)) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: char, what: &'static str) -> Result<(), AsmError> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.expected(what))
        }
    }

    /// The next token if it is an identifier.
    fn ident(&mut self) -> Option<(&'a str, Pos)> {
        self.take(|t| match t {
            Tok::Ident(s) => Some(s),
            _ => None,
        })
    }

    /// The next token if it is a number.
    fn number(&mut self) -> Option<(&'a str, Pos)> {
        self.take(|t| match t {
            Tok::Number(s) => Some(s),
            _ => None,
        })
    }

    /// The next token's text, if `pick` accepts the token.
    fn take(&mut self, pick: fn(&Tok) -> Option<&String>) -> Option<(&'a str, Pos)> {
        let token = self.toks.get(self.i)?;
        let text = pick(&token.tok)?;
        self.i += 1;
        Some((text.as_str(), token.pos))
    }
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

    /// `dcl[_usageN|_2d|_cube|_volume][_pp][_centroid] reg[.mask]`.
    fn dcl(
        &mut self,
        cur: &mut Cursor<'_>,
        suffixes: &[Part<'_>],
        mpos: Pos,
    ) -> Result<Instruction, AsmError> {
        let version = self.version;
        // ps_1_x has no dcl (the opcode table's forms).
        if !rules::opcode_allowed(version, Opcode::Dcl) {
            return Err(err(
                mpos,
                AsmErrorKind::OpcodeNotInVersion {
                    mnemonic: "dcl".to_string(),
                    version,
                },
            ));
        }
        enum Kind {
            Plain,
            Usage(Usage, u8),
            Sampler(TextureType),
        }
        let mut kind = Kind::Plain;
        let mut mods = suffixes;
        if let Some(&(first, fpos)) = suffixes.first() {
            let lower = first.to_ascii_lowercase();
            let digits = lower.len()
                - lower
                    .chars()
                    .rev()
                    .take_while(|c| c.is_ascii_digit())
                    .count();
            let (name, index) = lower.split_at(digits);
            let sampler = match lower.as_str() {
                "2d" => Some(TextureType::TwoD),
                "cube" => Some(TextureType::Cube),
                "volume" => Some(TextureType::Volume),
                "unknown" => Some(TextureType::Unknown),
                "1d" => {
                    return Err(err(
                        fpos,
                        AsmErrorKind::Unsupported("1D samplers (dcl_1d)".into()),
                    ))
                }
                _ => None,
            };
            if let Some(ty) = sampler {
                kind = Kind::Sampler(ty);
                mods = &suffixes[1..];
            } else if let Some(usage) = Usage::from_name(name) {
                let index: u8 = if index.is_empty() {
                    0
                } else {
                    index.parse().ok().filter(|&i: &u8| i < 16).ok_or_else(|| {
                        err(
                            fpos,
                            AsmErrorKind::Invalid(format!(
                                "usage index {index} is out of range (0..=15)"
                            )),
                        )
                    })?
                };
                kind = Kind::Usage(usage, index);
                mods = &suffixes[1..];
            }
        }
        let dst_mods = parse_dst_mods(mods)?;
        let bad_mod = |modifier: String, context: String, pos: Pos| {
            err(pos, AsmErrorKind::ModifierNotAllowed { modifier, context })
        };
        if let Some((s, pos)) = &dst_mods.shift_text {
            return Err(bad_mod(format!("_{s}"), "on dcl".into(), *pos));
        }
        if let Some(pos) = dst_mods.sat {
            return Err(bad_mod("_sat".into(), "on dcl".into(), pos));
        }
        if let Some((s, pos)) = &dst_mods.pp_or_centroid {
            if !rules::dcl_modifier_allowed(version) {
                return Err(bad_mod(
                    format!("_{s}"),
                    format!("on dcl in {version}"),
                    *pos,
                ));
            }
        }
        let parsed = self.register(cur)?;
        let pos = parsed.pos;
        let reg = parsed.reg;
        if let Some((s, p)) = parsed.suffix {
            return Err(err(p, AsmErrorKind::UnknownModifier(s)));
        }
        if reg.relative.is_some() {
            return Err(err(
                pos,
                AsmErrorKind::Invalid("a declared register cannot be relatively addressed".into()),
            ));
        }
        let mask = self.write_mask(cur)?;
        let invalid = |msg: String| Err(err(pos, AsmErrorKind::Invalid(msg)));
        let decl = match reg.file {
            // `s#` exists from ps_2_0 and vs_3_0 on, as do its declarations: the register
            // was refused before in other versions (`bytecode::file_rule`).
            RegisterFile::Sampler => {
                if mask != WriteMask::ALL {
                    return invalid("a sampler declaration takes no write mask".into());
                }
                match kind {
                    Kind::Sampler(ty) => Declaration::Sampler(ty),
                    Kind::Plain if version.stage == Stage::Pixel => {
                        Declaration::Sampler(TextureType::Unknown)
                    }
                    Kind::Plain => return invalid(
                        "a sampler declaration needs a texture type (dcl_2d, dcl_cube, dcl_volume)"
                            .into(),
                    ),
                    Kind::Usage(..) => {
                        return invalid(
                            "a sampler is declared with a texture type, not a usage".into(),
                        )
                    }
                }
            }
            // vPos and vFace are declared like inputs: `dcl vPos.xy`, `dcl vFace`.
            RegisterFile::Input
            | RegisterFile::Texture
            | RegisterFile::Output
            | RegisterFile::MiscType => {
                if reg.file == RegisterFile::Output && version.stage == Stage::Pixel {
                    return invalid("output registers cannot be declared in a pixel shader".into());
                }
                let what = if reg.file == RegisterFile::Output {
                    "output"
                } else {
                    "input"
                };
                // Inputs are declared wherever `dcl` exists (ps_1_x has no `dcl`: the opcode
                // table refuses it first); `o#` declarations are vs_3_0's.
                if reg.file == RegisterFile::Output && version.major < 3 {
                    return invalid(format!("output declarations do not exist in {version}"));
                }
                match kind {
                    Kind::Usage(usage, index) => Declaration::Semantic { usage, index },
                    Kind::Plain if version.stage == Stage::Pixel => Declaration::Semantic {
                        usage: Usage::Position,
                        index: 0,
                    },
                    Kind::Plain => {
                        return invalid(format!(
                            "a vertex shader {what} declaration needs a usage (dcl_position, dcl_texcoord1, ...)"
                        ))
                    }
                    Kind::Sampler(_) => {
                        return invalid(format!(
                            "{reg} is not a sampler: texture types are declared on s#"
                        ))
                    }
                }
            }
            _ => {
                return invalid(format!("{reg} cannot be declared"));
            }
        };
        self.check_register(&reg, pos)?;
        let mut inst = Instruction::new(Opcode::Dcl);
        inst.decl = Some(decl);
        inst.dst = Some(DstParam {
            reg,
            mask,
            modifier: ResultModifier(dst_mods.modifier),
            shift: 0,
        });
        Ok(inst)
    }

    /// `def c#, x, y, z, w`, `defi i#, x, y, z, w`, `defb b#, true|false`.
    fn def(
        &mut self,
        cur: &mut Cursor<'_>,
        base: &str,
        suffixes: &[Part<'_>],
        mpos: Pos,
    ) -> Result<Instruction, AsmError> {
        let version = self.version;
        let (opcode, file) = match base {
            "def" => (Opcode::Def, RegisterFile::Const),
            "defi" => (Opcode::Defi, RegisterFile::ConstInt),
            _ => (Opcode::Defb, RegisterFile::ConstBool),
        };
        if !rules::opcode_allowed(version, opcode) {
            return Err(err(
                mpos,
                AsmErrorKind::OpcodeNotInVersion {
                    mnemonic: base.to_string(),
                    version,
                },
            ));
        }
        if let Some((s, pos)) = suffixes.first() {
            return Err(err(
                *pos,
                AsmErrorKind::ModifierNotAllowed {
                    modifier: format!("_{s}"),
                    context: format!("on {base}"),
                },
            ));
        }
        let parsed = self.register(cur)?;
        // `def c3056` defines a CONST2 register: every float constant bank counts as c#.
        let same_file = parsed.reg.file == file
            || (file == RegisterFile::Const && parsed.reg.file.const_bank().is_some());
        if !same_file || parsed.reg.relative.is_some() {
            return Err(err(
                parsed.pos,
                AsmErrorKind::BadOperandRegister {
                    register: parsed.reg.to_string(),
                    role: if opcode == Opcode::Def {
                        "defined by def (it defines c#)"
                    } else if opcode == Opcode::Defi {
                        "defined by defi (it defines i#)"
                    } else {
                        "defined by defb (it defines b#)"
                    },
                },
            ));
        }
        if let Some((s, p)) = parsed.suffix {
            return Err(err(p, AsmErrorKind::UnknownModifier(s)));
        }
        self.check_register(&parsed.reg, parsed.pos)?;
        let mut inst = Instruction::new(opcode);
        inst.dst = Some(DstParam::new(parsed.reg));
        inst.literal = Some(match opcode {
            Opcode::Def => {
                let mut v = [0u32; 4];
                for x in &mut v {
                    cur.expect(',', "','")?;
                    *x = float_value(cur)?;
                }
                Literal::Float(v)
            }
            Opcode::Defi => {
                let mut v = [0i32; 4];
                for x in &mut v {
                    cur.expect(',', "','")?;
                    *x = int_value(cur)?;
                }
                Literal::Int(v)
            }
            _ => {
                cur.expect(',', "','")?;
                Literal::Bool(bool_value(cur)?)
            }
        });
        Ok(inst)
    }

    /// A register name with optional relative address and `_mod` suffix.
    fn register(&mut self, cur: &mut Cursor<'_>) -> Result<ParsedReg, AsmError> {
        let Some((text, pos)) = cur.ident() else {
            return Err(cur.expected("a register"));
        };
        let (name, suffix) = match text.split_once('_') {
            Some((n, s)) => (n, Some((s.to_string(), pos))),
            None => (text, None),
        };
        let (file, index) = register_name(name)
            .ok_or_else(|| err(pos, AsmErrorKind::UnknownRegister(name.to_string())))?;
        let (index, relative, suffix) = if cur.peek() == Some(&Tok::Punct('[')) {
            if let Some((_, p)) = suffix {
                return Err(err(
                    p,
                    AsmErrorKind::Invalid(
                        "a source modifier follows the relative address: c[a0.x]_abs".into(),
                    ),
                ));
            }
            cur.eat('[');
            let (offset, relative) = self.relative(cur)?;
            let index = index.unwrap_or(0).saturating_add(offset);
            let suffix = match cur.toks.get(cur.i) {
                Some(Token {
                    tok: Tok::Ident(s),
                    pos,
                }) if s.starts_with('_') => {
                    cur.i += 1;
                    Some((s[1..].to_string(), *pos))
                }
                _ => None,
            };
            (index, relative, suffix)
        } else {
            let index = index.ok_or_else(|| {
                err(
                    pos,
                    AsmErrorKind::Invalid(format!(
                        "register '{name}' needs an index (or [a relative address])"
                    )),
                )
            })?;
            (index, None, suffix)
        };
        // The index field holds 11 bits; c2048..c8191 are the CONST2..CONST4 files
        // (`check_register` then asks whether the version has them).
        let reg = match u32::try_from(index).ok() {
            Some(i) if i < CONST_BANK_SIZE => Some(Register::new(file, i)),
            Some(i) if file == RegisterFile::Const => Register::float_constant(i),
            _ => None,
        };
        let Some(mut reg) = reg else {
            return Err(err(pos, AsmErrorKind::IndexOutOfRange { index }));
        };
        reg.relative = relative;
        Ok(ParsedReg { reg, pos, suffix })
    }

    /// The inside of `[...]` (the `[` is read): integer terms joined by `+`/`-` and at most one
    /// address register (`a0[.swizzle]` or `aL`), which must be added (`aL - 3` is an error).
    fn relative(
        &mut self,
        cur: &mut Cursor<'_>,
    ) -> Result<(i64, Option<RelativeAddress>), AsmError> {
        let version = self.version;
        let mut offset: i64 = 0;
        let mut address: Option<RelativeAddress> = None;
        let mut minus = false;
        loop {
            let neg_pos = cur.pos();
            let neg = cur.eat('-');
            if let Some((n, pos)) = cur.number() {
                let v = parse_integer(n).ok_or_else(|| {
                    err(
                        pos,
                        AsmErrorKind::BadRelative("a relative address offset must be an integer"),
                    )
                })?;
                let v = if neg { -v } else { v };
                offset = if minus {
                    offset.saturating_sub(v)
                } else {
                    offset.saturating_add(v)
                };
            } else if let Some((name, pos)) = cur.ident() {
                if neg || minus {
                    return Err(err(
                        neg_pos,
                        AsmErrorKind::BadRelative("an address register cannot be subtracted"),
                    ));
                }
                if address.is_some() {
                    return Err(err(
                        pos,
                        AsmErrorKind::BadRelative("a relative address has one address register"),
                    ));
                }
                let (file, index) = match register_name(name) {
                    Some((f @ (RegisterFile::Addr | RegisterFile::Loop), Some(i))) => (f, i),
                    Some((RegisterFile::Addr | RegisterFile::Loop, None)) => {
                        return Err(err(pos, AsmErrorKind::UnknownRegister(name.to_string())))
                    }
                    _ => {
                        return Err(err(
                            pos,
                            AsmErrorKind::BadRelativeRegister(name.to_string()),
                        ))
                    }
                };
                let index = u32::try_from(index).unwrap_or(u32::MAX);
                let reg = Register::new(file, index);
                self.check_register(&reg, pos)?;
                let (swizzle, written) = self.swizzle(cur)?;
                let swizzle = if file == RegisterFile::Loop {
                    if written.is_some() {
                        return Err(err(
                            pos,
                            AsmErrorKind::BadRelative(
                                "aL is a scalar register: it takes no swizzle",
                            ),
                        ));
                    }
                    swizzle
                } else if !version.has_length_field() {
                    // SM1 has no address token: the address is always a0.x.
                    if swizzle != Swizzle::replicate(0) || written.is_none() {
                        return Err(err(
                            pos,
                            AsmErrorKind::BadRelative(
                                "only a0.x can address registers in shader model 1",
                            ),
                        ));
                    }
                    Swizzle(0)
                } else {
                    swizzle
                };
                address = Some(RelativeAddress {
                    file,
                    index,
                    swizzle,
                });
                if cur.eat(']') {
                    break;
                }
                if cur.eat('-') {
                    return Err(err(
                        cur.toks.get(cur.i - 1).map_or(cur.end, |t| t.pos),
                        AsmErrorKind::BadRelative(
                            "only '+' can follow the address register in a relative address",
                        ),
                    ));
                }
                cur.expect('+', "'+' or ']'")?;
                minus = false;
                continue;
            } else {
                return Err(cur.expected("an integer or a0/aL in the relative address"));
            }
            if cur.eat(']') {
                break;
            }
            if cur.eat('+') {
                minus = false;
            } else if cur.eat('-') {
                minus = true;
            } else {
                return Err(cur.expected("'+', '-' or ']'"));
            }
        }
        Ok((offset, address))
    }

    /// An optional `.swizzle`; returns the swizzle and the letters as written.
    fn swizzle(&mut self, cur: &mut Cursor<'_>) -> Result<(Swizzle, Option<String>), AsmError> {
        let dot = cur.pos();
        if !cur.eat('.') {
            return Ok((Swizzle::IDENTITY, None));
        }
        let Some((letters, pos)) = cur.ident() else {
            return Err(err(dot, AsmErrorKind::BadSwizzle(String::new())));
        };
        let swizzle = parse_swizzle(letters)
            .ok_or_else(|| err(pos, AsmErrorKind::BadSwizzle(letters.to_string())))?;
        Ok((swizzle, Some(letters.to_string())))
    }

    /// An optional `.mask` of a destination.
    fn write_mask(&mut self, cur: &mut Cursor<'_>) -> Result<WriteMask, AsmError> {
        let dot = cur.pos();
        if !cur.eat('.') {
            return Ok(WriteMask::ALL);
        }
        let Some((letters, pos)) = cur.ident() else {
            return Err(err(dot, AsmErrorKind::BadWriteMask(String::new())));
        };
        parse_write_mask(letters)
            .ok_or_else(|| err(pos, AsmErrorKind::BadWriteMask(letters.to_string())))
    }

    /// A destination parameter: register, optional relative address, optional write mask.
    fn dst(&mut self, cur: &mut Cursor<'_>) -> Result<DstParam, AsmError> {
        let parsed = self.register(cur)?;
        if let Some((s, p)) = parsed.suffix {
            return Err(err(
                p,
                AsmErrorKind::ModifierNotAllowed {
                    modifier: format!("_{s}"),
                    context:
                        "on a destination register (instruction modifiers follow the mnemonic)"
                            .into(),
                },
            ));
        }
        if !rules::is_writable(parsed.reg.file) {
            return Err(err(
                parsed.pos,
                AsmErrorKind::BadOperandRegister {
                    register: parsed.reg.to_string(),
                    role: "a destination here",
                },
            ));
        }
        self.check_register(&parsed.reg, parsed.pos)?;
        let mask = self.write_mask(cur)?;
        Ok(DstParam {
            reg: parsed.reg,
            mask,
            modifier: ResultModifier(0),
            shift: 0,
        })
    }

    /// A source parameter: `[-]reg[rel][_mod][.swizzle]`, `1 - reg`, `!b#`/`!p0`.
    fn src(&mut self, cur: &mut Cursor<'_>) -> Result<SrcParam, AsmError> {
        let version = self.version;
        let start = cur.pos();
        enum Prefix {
            None,
            Neg,
            Comp,
            Not,
        }
        let prefix = if cur.eat('!') {
            Prefix::Not
        } else if cur.eat('-') {
            Prefix::Neg
        } else if let Some((n, pos)) = cur.number() {
            if parse_integer(n) != Some(1) {
                return Err(err(
                    pos,
                    AsmErrorKind::Invalid(format!(
                        "only '1 - reg' (complement) can start a source operand, not '{n}'"
                    )),
                ));
            }
            cur.expect('-', "'-' of '1 - reg'")?;
            Prefix::Comp
        } else {
            Prefix::None
        };
        let parsed = self.register(cur)?;
        let mut suffix = parsed.suffix;
        let mut swizzle = Swizzle::IDENTITY;
        let mut swizzle_written = false;
        let dot = cur.pos();
        if cur.eat('.') {
            let Some((text, pos)) = cur.ident() else {
                return Err(err(dot, AsmErrorKind::BadSwizzle(String::new())));
            };
            // Accept the modifier after the swizzle as well: `r0.x_bx2`.
            let (letters, after) = match text.split_once('_') {
                Some((l, m)) => (l, Some((m.to_string(), pos))),
                None => (text, None),
            };
            if let Some(m) = after {
                if suffix.is_some() {
                    return Err(err(m.1, AsmErrorKind::UnknownModifier(m.0)));
                }
                suffix = Some(m);
            }
            swizzle = parse_swizzle(letters)
                .ok_or_else(|| err(pos, AsmErrorKind::BadSwizzle(letters.to_string())))?;
            swizzle_written = true;
        }
        let reg = parsed.reg;
        let suffix_mod = match &suffix {
            None => None,
            Some((s, p)) => Some((
                match s.to_ascii_lowercase().as_str() {
                    "bias" => SrcModifier::Bias,
                    "bx2" => SrcModifier::Sign,
                    "x2" => SrcModifier::X2,
                    "dz" | "db" => SrcModifier::Dz,
                    "dw" | "da" => SrcModifier::Dw,
                    "abs" => SrcModifier::Abs,
                    _ => return Err(err(*p, AsmErrorKind::UnknownModifier(s.clone()))),
                },
                *p,
                s.as_str(),
            )),
        };
        let incompatible = |what: &str, s: &str, p: Pos| {
            err(
                p,
                AsmErrorKind::ModifierNotAllowed {
                    modifier: format!("_{s}"),
                    context: format!("together with {what}"),
                },
            )
        };
        let modifier = match (prefix, suffix_mod) {
            (Prefix::None, None) => SrcModifier::None,
            (Prefix::None, Some((m, _, _))) => m,
            (Prefix::Neg, None) => SrcModifier::Neg,
            (Prefix::Neg, Some((m, p, s))) => match m {
                SrcModifier::Bias => SrcModifier::BiasNeg,
                SrcModifier::Sign => SrcModifier::SignNeg,
                SrcModifier::X2 => SrcModifier::X2Neg,
                SrcModifier::Abs => SrcModifier::AbsNeg,
                _ => return Err(incompatible("negation '-'", s, p)),
            },
            (Prefix::Comp, None) => SrcModifier::Comp,
            (Prefix::Comp, Some((_, p, s))) => return Err(incompatible("'1 -'", s, p)),
            (Prefix::Not, None) => SrcModifier::Not,
            (Prefix::Not, Some((_, p, s))) => return Err(incompatible("'!'", s, p)),
        };
        if modifier == SrcModifier::Not {
            if !matches!(reg.file, RegisterFile::ConstBool | RegisterFile::Predicate) {
                return Err(err(
                    start,
                    AsmErrorKind::ModifierNotAllowed {
                        modifier: "!".into(),
                        context: format!("on {reg} (only on b# and p0)"),
                    },
                ));
            }
            if reg.relative.is_some() {
                return Err(err(
                    parsed.pos,
                    AsmErrorKind::Invalid("'!' cannot be combined with relative addressing".into()),
                ));
            }
        } else if !rules::src_modifier_allowed(version, modifier) {
            return Err(err(
                start,
                AsmErrorKind::ModifierNotAllowed {
                    modifier: modifier_text(modifier).into(),
                    context: format!("in {version}"),
                },
            ));
        }
        if !rules::is_readable(reg.file) {
            return Err(err(
                parsed.pos,
                AsmErrorKind::BadOperandRegister {
                    register: reg.to_string(),
                    role: "read (it is an output)",
                },
            ));
        }
        if reg.file == RegisterFile::Loop && swizzle_written && swizzle != Swizzle::IDENTITY {
            return Err(err(
                parsed.pos,
                AsmErrorKind::Invalid("aL is a scalar register: it takes no swizzle".into()),
            ));
        }
        self.check_register(&reg, parsed.pos)?;
        Ok(SrcParam {
            reg,
            swizzle,
            modifier,
        })
    }

    /// The register exists in this version: its file, its index (unless relatively addressed)
    /// and relative addressing of its file.
    fn check_register(&self, reg: &Register, pos: Pos) -> Result<(), AsmError> {
        let version = self.version;
        let rule = rules::register_rule(version, reg.file).ok_or_else(|| {
            err(
                pos,
                AsmErrorKind::RegisterNotInVersion {
                    register: reg.to_string(),
                    version,
                },
            )
        })?;
        // Which address register a file takes is the checker's rule; the assembler, like
        // Wine's, only asks whether the file is relatively addressable at all (Wine's asm
        // tests assemble `mov o[a0.x + 12], r0` in vs_3_0).
        if reg.relative.is_some() {
            if !(rule.relative_a0 || rule.relative_loop) {
                return Err(err(
                    pos,
                    AsmErrorKind::RelativeNotAllowed {
                        register: Register::new(reg.file, reg.index).to_string(),
                        version,
                    },
                ));
            }
        } else if reg.index >= rule.count.max() {
            return Err(err(
                pos,
                AsmErrorKind::RegisterNotInVersion {
                    register: reg.to_string(),
                    version,
                },
            ));
        }
        Ok(())
    }
}

impl DstMods {
    /// The first suffix, for "not allowed here" messages.
    fn first(&self) -> Option<(String, Pos)> {
        if let Some((s, pos)) = &self.shift_text {
            return Some((format!("_{s}"), *pos));
        }
        if let Some(pos) = self.sat {
            return Some(("_sat".into(), pos));
        }
        self.pp_or_centroid
            .as_ref()
            .map(|(s, pos)| (format!("_{s}"), *pos))
    }
}

/// Parse the instruction suffixes `_x2 _x4 _x8 _d2 _d4 _d8 _shiftN _sat _pp _centroid`.
fn parse_dst_mods(suffixes: &[Part<'_>]) -> Result<DstMods, AsmError> {
    let mut mods = DstMods::default();
    for &(s, mpos) in suffixes {
        let lower = s.to_ascii_lowercase();
        let shift = match lower.as_str() {
            "x2" => Some(1),
            "x4" => Some(2),
            "x8" => Some(3),
            "d2" => Some(-1),
            "d4" => Some(-2),
            "d8" => Some(-3),
            _ => match lower.strip_prefix("shift") {
                Some(n) => Some(
                    n.parse::<i8>()
                        .ok()
                        .filter(|v| (-8..=7).contains(v))
                        .ok_or_else(|| err(mpos, AsmErrorKind::UnknownModifier(s.to_string())))?,
                ),
                None => None,
            },
        };
        if let Some(shift) = shift {
            if mods.shift_text.is_some() {
                return Err(err(mpos, AsmErrorKind::TwoShifts));
            }
            mods.shift = shift;
            mods.shift_text = Some((s.to_string(), mpos));
            continue;
        }
        match lower.as_str() {
            "sat" => {
                mods.sat.get_or_insert(mpos);
                mods.modifier |= ResultModifier::SATURATE;
            }
            "pp" => {
                mods.pp_or_centroid
                    .get_or_insert_with(|| (s.to_string(), mpos));
                mods.modifier |= ResultModifier::PARTIAL_PRECISION;
            }
            "centroid" => {
                mods.pp_or_centroid
                    .get_or_insert_with(|| (s.to_string(), mpos));
                mods.modifier |= ResultModifier::CENTROID;
            }
            _ => return Err(err(mpos, AsmErrorKind::UnknownModifier(s.to_string()))),
        }
    }
    Ok(mods)
}

/// A register name (`r0`, `oPos`, `c`, `aL`, ...), case-insensitive, to its file and index
/// (`None` when written without one, as in `c[a0.x]`).
fn register_name(name: &str) -> Option<(RegisterFile, Option<i64>)> {
    use RegisterFile::*;
    let lower = name.to_ascii_lowercase();
    let special = match lower.as_str() {
        "opos" => Some((RastOut, 0)),
        "ofog" => Some((RastOut, 1)),
        "opts" => Some((RastOut, 2)),
        "odepth" => Some((DepthOut, 0)),
        "vpos" => Some((MiscType, 0)),
        "vface" => Some((MiscType, 1)),
        "al" => Some((Loop, 0)),
        _ => None,
    };
    if let Some((file, index)) = special {
        return Some((file, Some(index)));
    }
    const PREFIXES: [(&str, RegisterFile); 14] = [
        ("oc", ColorOut),
        ("od", AttrOut),
        ("ot", TexCrdOut),
        ("o", Output),
        ("r", Temp),
        ("v", Input),
        ("c", Const),
        ("a", Addr),
        ("t", Texture),
        ("i", ConstInt),
        ("b", ConstBool),
        ("s", Sampler),
        ("l", Label),
        ("p", Predicate),
    ];
    let (prefix, file) = PREFIXES.iter().find(|(p, _)| {
        lower
            .strip_prefix(p)
            .is_some_and(|rest| rest.chars().all(|c| c.is_ascii_digit()))
    })?;
    let digits = &lower[prefix.len()..];
    let file = *file;
    if digits.is_empty() {
        return Some((file, None));
    }
    // Long digit strings saturate to an out-of-range index rather than failing to parse.
    let index = digits.parse::<i64>().unwrap_or(i64::MAX);
    Some((file, Some(index)))
}

/// The text of a source modifier for messages.
fn modifier_text(m: SrcModifier) -> &'static str {
    use SrcModifier::*;
    match m {
        None => "(none)",
        Neg => "'-' (negate)",
        Bias => "_bias",
        BiasNeg => "-_bias",
        Sign => "_bx2",
        SignNeg => "-_bx2",
        Comp => "'1 -' (complement)",
        X2 => "_x2",
        X2Neg => "-_x2",
        Dz => "_dz",
        Dw => "_dw",
        Abs => "_abs",
        AbsNeg => "-_abs",
        Not => "'!'",
    }
}

/// Component letter to selector: `xyzw` or `rgba` (case-insensitive).
fn component(c: char) -> Option<u8> {
    match c.to_ascii_lowercase() {
        'x' | 'r' => Some(0),
        'y' | 'g' => Some(1),
        'z' | 'b' => Some(2),
        'w' | 'a' => Some(3),
        _ => None,
    }
}

/// 1–4 component letters; a short swizzle repeats its last letter (`.xy` = `.xyyy`).
fn parse_swizzle(letters: &str) -> Option<Swizzle> {
    let comps: Vec<u8> = letters.chars().map(component).collect::<Option<_>>()?;
    if comps.is_empty() || comps.len() > 4 {
        return None;
    }
    let mut c = [0u8; 4];
    for (i, slot) in c.iter_mut().enumerate() {
        *slot = *comps.get(i).or(comps.last())?;
    }
    Some(Swizzle::new(c))
}

/// 1–4 distinct component letters in `xyzw` order.
fn parse_write_mask(letters: &str) -> Option<WriteMask> {
    let comps: Vec<u8> = letters.chars().map(component).collect::<Option<_>>()?;
    if comps.is_empty() || comps.windows(2).any(|w| w[0] >= w[1]) {
        return None;
    }
    Some(WriteMask(comps.iter().fold(0, |m, &c| m | (1 << c))))
}

/// A decimal integer (`12`) or hexadecimal (`0x1f`), no fraction or exponent.
fn parse_integer(text: &str) -> Option<i64> {
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        return i64::from_str_radix(hex, 16).ok();
    }
    if text.chars().all(|c| c.is_ascii_digit()) {
        return text.parse().ok();
    }
    None
}

/// A `def` value: `[-]float` with an optional `f` suffix, or raw IEEE bits `0x7fc00000`.
fn float_value(cur: &mut Cursor<'_>) -> Result<u32, AsmError> {
    let neg_pos = cur.pos();
    let neg = cur.eat('-');
    let Some((text, pos)) = cur.number() else {
        return Err(cur.expected("a number"));
    };
    let bad = || err(pos, AsmErrorKind::BadNumber(text.to_string()));
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        if neg {
            return Err(err(
                neg_pos,
                AsmErrorKind::Invalid("raw float bits (0x...) cannot be negated".into()),
            ));
        }
        return u32::from_str_radix(hex, 16).map_err(|_| bad());
    }
    let body = text
        .strip_suffix('f')
        .or_else(|| text.strip_suffix('F'))
        .unwrap_or(text);
    if !body
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'))
    {
        return Err(bad());
    }
    let v: f32 = body.parse().map_err(|_| bad())?;
    Ok(if neg { (-v).to_bits() } else { v.to_bits() })
}

/// A `defi` value: `[-]integer` in the i32 range, or a raw hexadecimal token.
fn int_value(cur: &mut Cursor<'_>) -> Result<i32, AsmError> {
    let neg = cur.eat('-');
    let Some((text, pos)) = cur.number() else {
        return Err(cur.expected("an integer"));
    };
    let is_hex = text.starts_with("0x") || text.starts_with("0X");
    let v = parse_integer(text).ok_or_else(|| {
        err(
            pos,
            AsmErrorKind::Invalid(format!("defi takes integers, not '{text}'")),
        )
    })?;
    if is_hex {
        if neg {
            return Err(err(pos, AsmErrorKind::BadNumber(format!("-{text}"))));
        }
        return u32::try_from(v)
            .map(|u| u as i32)
            .map_err(|_| err(pos, AsmErrorKind::BadNumber(text.to_string())));
    }
    let v = if neg { -v } else { v };
    i32::try_from(v).map_err(|_| err(pos, AsmErrorKind::BadNumber(text.to_string())))
}

/// A `defb` value: `true`, `false`, or a raw token (our extension for other bit patterns).
fn bool_value(cur: &mut Cursor<'_>) -> Result<u32, AsmError> {
    if let Some((text, pos)) = cur.ident() {
        return match text.to_ascii_lowercase().as_str() {
            "true" => Ok(1),
            "false" => Ok(0),
            _ => Err(err(
                pos,
                AsmErrorKind::Expected {
                    expected: "true or false",
                    found: format!("'{text}'"),
                },
            )),
        };
    }
    if let Some((text, pos)) = cur.number() {
        return parse_integer(text)
            .and_then(|v| u32::try_from(v).ok())
            .ok_or_else(|| err(pos, AsmErrorKind::BadNumber(text.to_string())));
    }
    Err(cur.expected("true or false"))
}

#[cfg(test)]
mod tests;
