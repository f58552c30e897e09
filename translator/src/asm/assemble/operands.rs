//! Operands: registers (relative addressing included), swizzles, write masks, source and
//! destination modifiers, and the version checks of a register.

use super::*;

impl Assembler {
    /// A register name with optional relative address and `_mod` suffix.
    pub(super) fn register(&mut self, cur: &mut Cursor<'_>) -> Result<ParsedReg, AsmError> {
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
    pub(super) fn relative(
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
    pub(super) fn swizzle(
        &mut self,
        cur: &mut Cursor<'_>,
    ) -> Result<(Swizzle, Option<String>), AsmError> {
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
    pub(super) fn write_mask(&mut self, cur: &mut Cursor<'_>) -> Result<WriteMask, AsmError> {
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
    pub(super) fn dst(&mut self, cur: &mut Cursor<'_>) -> Result<DstParam, AsmError> {
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
    pub(super) fn src(&mut self, cur: &mut Cursor<'_>) -> Result<SrcParam, AsmError> {
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
    pub(super) fn check_register(&self, reg: &Register, pos: Pos) -> Result<(), AsmError> {
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
    pub(super) fn first(&self) -> Option<(String, Pos)> {
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
pub(super) fn parse_dst_mods(suffixes: &[Part<'_>]) -> Result<DstMods, AsmError> {
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
pub(super) fn register_name(name: &str) -> Option<(RegisterFile, Option<i64>)> {
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
pub(super) fn modifier_text(m: SrcModifier) -> &'static str {
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
pub(super) fn component(c: char) -> Option<u8> {
    match c.to_ascii_lowercase() {
        'x' | 'r' => Some(0),
        'y' | 'g' => Some(1),
        'z' | 'b' => Some(2),
        'w' | 'a' => Some(3),
        _ => None,
    }
}

/// 1–4 component letters; a short swizzle repeats its last letter (`.xy` = `.xyyy`).
pub(super) fn parse_swizzle(letters: &str) -> Option<Swizzle> {
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
pub(super) fn parse_write_mask(letters: &str) -> Option<WriteMask> {
    let comps: Vec<u8> = letters.chars().map(component).collect::<Option<_>>()?;
    if comps.is_empty() || comps.windows(2).any(|w| w[0] >= w[1]) {
        return None;
    }
    Some(WriteMask(comps.iter().fold(0, |m, &c| m | (1 << c))))
}

/// A decimal integer (`12`) or hexadecimal (`0x1f`), no fraction or exponent.
pub(super) fn parse_integer(text: &str) -> Option<i64> {
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        return i64::from_str_radix(hex, 16).ok();
    }
    if text.chars().all(|c| c.is_ascii_digit()) {
        return text.parse().ok();
    }
    None
}
