//! `dcl` and `def`/`defi`/`defb`: declarations and their literal values.

use super::*;

/// What a `dcl`'s first suffix declares.
enum DclKind {
    /// No suffix (`dcl v0` in a pixel shader, `dcl s0` in ps_2_0).
    Plain,
    /// `_usageN`.
    Usage(Usage, u8),
    /// `_2d`, `_cube`, `_volume`.
    Sampler(TextureType),
}

impl Assembler {
    /// `dcl[_usageN|_2d|_cube|_volume][_pp][_centroid] reg[.mask]`.
    pub(super) fn dcl(
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
        let (kind, mods) = dcl_kind(suffixes)?;
        let dst_mods = parse_dst_mods(mods)?;
        check_dcl_mods(version, &dst_mods)?;
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
        let decl = match reg.file {
            // `s#` exists from ps_2_0 and vs_3_0 on, as do its declarations: the register
            // was refused before in other versions (`bytecode::file_rule`).
            RegisterFile::Sampler => sampler_declaration(kind, version, mask, pos)?,
            // vPos and vFace are declared like inputs: `dcl vPos.xy`, `dcl vFace`.
            RegisterFile::Input
            | RegisterFile::Texture
            | RegisterFile::Output
            | RegisterFile::MiscType => semantic_declaration(kind, version, &reg, pos)?,
            _ => {
                return Err(err(
                    pos,
                    AsmErrorKind::Invalid(format!("{reg} cannot be declared")),
                ));
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
    pub(super) fn def(
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
}

/// A `def` value: `[-]float` with an optional `f` suffix, or raw IEEE bits `0x7fc00000`.
pub(super) fn float_value(cur: &mut Cursor<'_>) -> Result<u32, AsmError> {
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
pub(super) fn int_value(cur: &mut Cursor<'_>) -> Result<i32, AsmError> {
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
pub(super) fn bool_value(cur: &mut Cursor<'_>) -> Result<u32, AsmError> {
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

/// What a `dcl`'s first suffix declares, and the suffixes after it (the modifiers).
fn dcl_kind<'a, 'b>(suffixes: &'a [Part<'b>]) -> Result<(DclKind, &'a [Part<'b>]), AsmError> {
    let Some(&(first, fpos)) = suffixes.first() else {
        return Ok((DclKind::Plain, suffixes));
    };
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
        return Ok((DclKind::Sampler(ty), &suffixes[1..]));
    }
    if let Some(usage) = Usage::from_name(name) {
        let index: u8 = if index.is_empty() {
            0
        } else {
            index.parse().ok().filter(|&i: &u8| i < 16).ok_or_else(|| {
                err(
                    fpos,
                    AsmErrorKind::Invalid(format!("usage index {index} is out of range (0..=15)")),
                )
            })?
        };
        return Ok((DclKind::Usage(usage, index), &suffixes[1..]));
    }
    Ok((DclKind::Plain, suffixes))
}

/// A `dcl` takes no shift and no `_sat`; `_pp` and `_centroid` where the version allows.
fn check_dcl_mods(version: Version, dst_mods: &DstMods) -> Result<(), AsmError> {
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
    Ok(())
}

/// A sampler's declaration: a texture type, no write mask (a pixel shader's plain `dcl s#`
/// is of unknown type).
fn sampler_declaration(
    kind: DclKind,
    version: Version,
    mask: WriteMask,
    pos: Pos,
) -> Result<Declaration, AsmError> {
    let invalid = |msg: String| Err(err(pos, AsmErrorKind::Invalid(msg)));
    if mask != WriteMask::ALL {
        return invalid("a sampler declaration takes no write mask".into());
    }
    match kind {
        DclKind::Sampler(ty) => Ok(Declaration::Sampler(ty)),
        DclKind::Plain if version.stage == Stage::Pixel => {
            Ok(Declaration::Sampler(TextureType::Unknown))
        }
        DclKind::Plain => invalid(
            "a sampler declaration needs a texture type (dcl_2d, dcl_cube, dcl_volume)".into(),
        ),
        DclKind::Usage(..) => {
            invalid("a sampler is declared with a texture type, not a usage".into())
        }
    }
}

/// An input's or (vs_3_0) an output's declaration: a usage (a pixel shader's plain
/// `dcl v#` is POSITION0).
fn semantic_declaration(
    kind: DclKind,
    version: Version,
    reg: &Register,
    pos: Pos,
) -> Result<Declaration, AsmError> {
    let invalid = |msg: String| Err(err(pos, AsmErrorKind::Invalid(msg)));
    if reg.file == RegisterFile::Output && version.stage == Stage::Pixel {
        return invalid("output registers cannot be declared in a pixel shader".into());
    }
    let what = if reg.file == RegisterFile::Output {
        "output"
    } else {
        "input"
    };
    // Inputs are declared wherever `dcl` exists (ps_1_x has no `dcl`: the opcode table
    // refuses it first); `o#` declarations are vs_3_0's.
    if reg.file == RegisterFile::Output && version.major < 3 {
        return invalid(format!("output declarations do not exist in {version}"));
    }
    match kind {
        DclKind::Usage(usage, index) => Ok(Declaration::Semantic { usage, index }),
        DclKind::Plain if version.stage == Stage::Pixel => Ok(Declaration::Semantic {
            usage: Usage::Position,
            index: 0,
        }),
        DclKind::Plain => invalid(format!(
            "a vertex shader {what} declaration needs a usage (dcl_position, dcl_texcoord1, ...)"
        )),
        DclKind::Sampler(_) => invalid(format!(
            "{reg} is not a sampler: texture types are declared on s#"
        )),
    }
}
