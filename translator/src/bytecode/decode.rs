//! Tokens → [`Program`]: the D3D9 bytecode reader. Every malformed stream gives a
//! [`DecodeError`] with the token offset; nothing here panics on input.

use super::*;

/// Why a token stream is not D3D9 shader bytecode.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("empty shader: no version token")]
    Empty,
    #[error("shader is {len} bytes long, not a whole number of 32-bit tokens")]
    OddLength { len: usize },
    #[error("token 0: this is a DXBC container (Direct3D 10+), not Direct3D 9 bytecode")]
    Dxbc,
    #[error("token 0: {token:#010x} is not a D3D9 version token")]
    BadVersion { token: u32 },
    #[error("token {offset}: shader ends without the end token 0x0000ffff")]
    MissingEnd { offset: TokenOffset },
    #[error("token {offset}: unknown opcode {value:#06x}")]
    UnknownOpcode { offset: TokenOffset, value: u32 },
    #[error("token {offset}: reserved bits set in {token:#010x}")]
    ReservedBits { offset: TokenOffset, token: u32 },
    #[error(
        "token {offset}: {opcode} states a length of {length} tokens, past the end of the shader"
    )]
    LengthPastEnd {
        offset: TokenOffset,
        opcode: Opcode,
        length: u32,
    },
    #[error("token {offset}: comment of {length} tokens runs past the end of the shader")]
    CommentPastEnd { offset: TokenOffset, length: u32 },
    #[error(
        "token {offset}: {opcode} states a length of {stated} tokens but its operands take {used}"
    )]
    LengthMismatch {
        offset: TokenOffset,
        opcode: Opcode,
        stated: u32,
        used: u32,
    },
    #[error("token {offset}: {opcode} runs past the end of the shader")]
    Truncated { offset: TokenOffset, opcode: Opcode },
    #[error("token {offset}: {token:#010x} is not a parameter token (bit 31 clear)")]
    NotAParameter { offset: TokenOffset, token: u32 },
    #[error("token {offset}: unknown register type {raw}")]
    UnknownRegisterType { offset: TokenOffset, raw: u32 },
    #[error("token {offset}: unknown source modifier {raw}")]
    UnknownSrcModifier { offset: TokenOffset, raw: u32 },
    #[error("token {offset}: {opcode} has unknown comparison {raw}")]
    UnknownComparison {
        offset: TokenOffset,
        opcode: Opcode,
        raw: u32,
    },
    #[error("token {offset}: dcl has unknown usage {raw}")]
    UnknownUsage { offset: TokenOffset, raw: u32 },
    #[error("token {offset}: dcl has unknown sampler texture type {raw}")]
    UnknownTextureType { offset: TokenOffset, raw: u32 },
    #[error("token {offset}: relative address must be a0 or aL, not {file}")]
    BadRelativeAddress {
        offset: TokenOffset,
        file: RegisterFile,
    },
    #[error("token {offset}: {opcode} does not exist in {version}")]
    OpcodeNotInVersion {
        offset: TokenOffset,
        opcode: Opcode,
        version: Version,
    },
}

/// Decode little-endian bytes as `fxc /Fo` writes them.
pub fn decode_bytes(bytes: &[u8]) -> Result<Program, DecodeError> {
    if !bytes.len().is_multiple_of(4) {
        return Err(DecodeError::OddLength { len: bytes.len() });
    }
    let tokens: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    decode(&tokens)
}

/// Decode a token stream into a [`Program`]. Tokens after the end token are ignored.
pub fn decode(tokens: &[u32]) -> Result<Program, DecodeError> {
    let first = *tokens.first().ok_or(DecodeError::Empty)?;
    if first == DXBC_MAGIC {
        return Err(DecodeError::Dxbc);
    }
    let version = Version::from_token(first).ok_or(DecodeError::BadVersion { token: first })?;
    let mut reader = Reader {
        tokens,
        pos: 1,
        version,
    };
    let mut program = Program::new(version);
    loop {
        let offset = reader.offset();
        let token = reader.peek().ok_or(DecodeError::MissingEnd { offset })?;
        if token == END_TOKEN {
            return Ok(program);
        }
        if token & 0xFFFF == COMMENT_OPCODE {
            if token & 0x8000_0000 != 0 {
                return Err(DecodeError::ReservedBits { offset, token });
            }
            let length = (token >> 16) & 0x7FFF;
            let start = reader.pos + 1;
            let data = tokens
                .get(start..start + length as usize)
                .ok_or(DecodeError::CommentPastEnd { offset, length })?;
            program.comments.push(Comment {
                offset,
                position: program.instructions.len(),
                data: data.to_vec(),
            });
            reader.pos = start + length as usize;
            continue;
        }
        let instruction = reader.instruction()?;
        program.instructions.push(instruction);
    }
}

struct Reader<'a> {
    tokens: &'a [u32],
    pos: usize,
    version: Version,
}

impl Reader<'_> {
    fn offset(&self) -> TokenOffset {
        TokenOffset(u32::try_from(self.pos).unwrap_or(u32::MAX))
    }

    fn peek(&self) -> Option<u32> {
        self.tokens.get(self.pos).copied()
    }

    fn instruction(&mut self) -> Result<Instruction, DecodeError> {
        let offset = self.offset();
        let token = self.peek().ok_or(DecodeError::MissingEnd { offset })?;
        let value = token & 0xFFFF;
        let opcode =
            Opcode::from_value(value).ok_or(DecodeError::UnknownOpcode { offset, value })?;
        if token & 0xA000_0000 != 0 {
            return Err(DecodeError::ReservedBits { offset, token });
        }
        self.pos += 1;
        let body_start = self.pos;
        let mut inst = Instruction::new(opcode);
        inst.offset = offset;
        inst.coissue = token & 0x4000_0000 != 0;
        inst.control = self.control(opcode, token, offset)?;

        let version = self.version;
        let stated = (token >> 24) & 0xF;
        if version.has_length_field() && body_start + stated as usize > self.tokens.len() {
            return Err(DecodeError::LengthPastEnd {
                offset,
                opcode,
                length: stated,
            });
        }
        let mut forms = candidate_forms(opcode, version).peekable();
        if forms.peek().is_none() {
            return Err(DecodeError::OpcodeNotInVersion {
                offset,
                opcode,
                version,
            });
        }
        // SM2+ states the length: pick the form whose operands fill it exactly. SM1 has one
        // form per version.
        let mut last_err = None;
        for form in forms {
            self.pos = body_start;
            match self.operands(&mut inst, form, token, offset) {
                Ok(()) => {
                    let used = (self.pos - body_start) as u32;
                    if !version.has_length_field() || used == stated {
                        return Ok(inst);
                    }
                    last_err = Some(DecodeError::LengthMismatch {
                        offset,
                        opcode,
                        stated,
                        used,
                    });
                }
                Err(e) => last_err = Some(e),
            }
        }
        Err(last_err.unwrap_or(DecodeError::Truncated { offset, opcode }))
    }

    fn control(
        &self,
        opcode: Opcode,
        token: u32,
        offset: TokenOffset,
    ) -> Result<Control, DecodeError> {
        let bits = (token >> 16) & 0xFF;
        Ok(match opcode {
            Opcode::Ifc | Opcode::Breakc | Opcode::Setp => {
                let raw = bits & 0x7;
                if bits & !0x7 != 0 {
                    return Err(DecodeError::ReservedBits { offset, token });
                }
                Control::Comparison(Comparison::from_raw(raw).ok_or(
                    DecodeError::UnknownComparison {
                        offset,
                        opcode,
                        raw,
                    },
                )?)
            }
            Opcode::Tex if self.version.major >= 2 => match bits {
                0 => Control::None,
                1 => Control::TexProject,
                2 => Control::TexBias,
                _ => return Err(DecodeError::ReservedBits { offset, token }),
            },
            _ if bits != 0 => return Err(DecodeError::ReservedBits { offset, token }),
            _ => Control::None,
        })
    }

    fn operands(
        &mut self,
        inst: &mut Instruction,
        form: &Form,
        token: u32,
        offset: TokenOffset,
    ) -> Result<(), DecodeError> {
        let opcode = inst.opcode;
        inst.dst = None;
        inst.src.clear();
        inst.predicate = None;
        inst.decl = None;
        inst.literal = None;
        let dcl_token = if opcode == Opcode::Dcl {
            Some(self.next(opcode)?)
        } else {
            None
        };
        if form.dst {
            inst.dst = Some(self.dst(opcode)?);
        }
        if let (Some(dcl), Some(dst)) = (dcl_token, inst.dst) {
            inst.decl = Some(declaration(dcl, dst.reg.file, TokenOffset(offset.0 + 1))?);
        }
        match opcode {
            Opcode::Def => {
                inst.literal = Some(Literal::Float([
                    self.next(opcode)?,
                    self.next(opcode)?,
                    self.next(opcode)?,
                    self.next(opcode)?,
                ]));
            }
            Opcode::Defi => {
                let mut v = [0i32; 4];
                for x in &mut v {
                    *x = self.next(opcode)? as i32;
                }
                inst.literal = Some(Literal::Int(v));
            }
            Opcode::Defb => inst.literal = Some(Literal::Bool(self.next(opcode)?)),
            _ => {}
        }
        if token & 0x1000_0000 != 0 {
            inst.predicate = Some(self.src(opcode)?);
        }
        for _ in 0..form.srcs {
            let s = self.src(opcode)?;
            inst.src.push(s);
        }
        Ok(())
    }

    fn next(&mut self, opcode: Opcode) -> Result<u32, DecodeError> {
        let offset = self.offset();
        let t = self
            .peek()
            .ok_or(DecodeError::Truncated { offset, opcode })?;
        // In SM1 the end token can never be an operand.
        if !self.version.has_length_field() && t == END_TOKEN {
            return Err(DecodeError::Truncated { offset, opcode });
        }
        self.pos += 1;
        Ok(t)
    }

    fn param(&mut self, opcode: Opcode) -> Result<(u32, TokenOffset), DecodeError> {
        let offset = self.offset();
        let t = self.next(opcode)?;
        if t & 0x8000_0000 == 0 {
            return Err(DecodeError::NotAParameter { offset, token: t });
        }
        Ok((t, offset))
    }

    fn register(
        &mut self,
        t: u32,
        offset: TokenOffset,
        opcode: Opcode,
    ) -> Result<Register, DecodeError> {
        let raw = ((t >> 28) & 0x7) | ((t >> 8) & 0x18);
        let file = RegisterFile::from_raw(raw, self.version)
            .ok_or(DecodeError::UnknownRegisterType { offset, raw })?;
        let index = t & 0x7FF;
        let relative = if t & 0x2000 != 0 {
            if self.version.has_length_field() {
                let (rt, roff) = self.param(opcode)?;
                let rraw = ((rt >> 28) & 0x7) | ((rt >> 8) & 0x18);
                let rfile = RegisterFile::from_raw(rraw, self.version).ok_or(
                    DecodeError::UnknownRegisterType {
                        offset: roff,
                        raw: rraw,
                    },
                )?;
                if !matches!(rfile, RegisterFile::Addr | RegisterFile::Loop) {
                    return Err(DecodeError::BadRelativeAddress {
                        offset: roff,
                        file: rfile,
                    });
                }
                Some(RelativeAddress {
                    file: rfile,
                    index: rt & 0x7FF,
                    swizzle: Swizzle(((rt >> 16) & 0xFF) as u8),
                })
            } else {
                Some(RelativeAddress {
                    file: RegisterFile::Addr,
                    index: 0,
                    swizzle: Swizzle(0),
                })
            }
        } else {
            None
        };
        Ok(Register {
            file,
            index,
            relative,
        })
    }

    fn dst(&mut self, opcode: Opcode) -> Result<DstParam, DecodeError> {
        let (t, offset) = self.param(opcode)?;
        if t & 0xC000 != 0 {
            return Err(DecodeError::ReservedBits { offset, token: t });
        }
        let reg = self.register(t, offset, opcode)?;
        let shift = (((t >> 24) & 0xF) as i8) << 4 >> 4;
        Ok(DstParam {
            reg,
            mask: WriteMask(((t >> 16) & 0xF) as u8),
            modifier: ResultModifier(((t >> 20) & 0xF) as u8),
            shift,
        })
    }

    fn src(&mut self, opcode: Opcode) -> Result<SrcParam, DecodeError> {
        let (t, offset) = self.param(opcode)?;
        if t & 0xC000 != 0 {
            return Err(DecodeError::ReservedBits { offset, token: t });
        }
        let raw_mod = (t >> 24) & 0xF;
        let modifier = SrcModifier::from_raw(raw_mod).ok_or(DecodeError::UnknownSrcModifier {
            offset,
            raw: raw_mod,
        })?;
        let reg = self.register(t, offset, opcode)?;
        Ok(SrcParam {
            reg,
            swizzle: Swizzle(((t >> 16) & 0xFF) as u8),
            modifier,
        })
    }
}

/// The forms to try for `opcode` in `version`: the version's own form; failing that (fragments
/// assembled without validation), every form of the stage, or of any stage when the stage has
/// none, so the checker can name the problem.
fn candidate_forms(opcode: Opcode, version: Version) -> impl Iterator<Item = &'static Form> {
    let own = opcode.form(version);
    let forms: &'static [Form] = match own {
        Some(f) => std::slice::from_ref(f),
        None => opcode.info().forms,
    };
    let stage_has_forms = forms.iter().any(|f| f.stages.contains(version.stage));
    forms
        .iter()
        .filter(move |f| own.is_some() || !stage_has_forms || f.stages.contains(version.stage))
}

fn declaration(
    token: u32,
    file: RegisterFile,
    offset: TokenOffset,
) -> Result<Declaration, DecodeError> {
    if token & 0x8000_0000 == 0 {
        return Err(DecodeError::NotAParameter { offset, token });
    }
    if file == RegisterFile::Sampler {
        if token & 0x07FF_FFFF != 0 {
            return Err(DecodeError::ReservedBits { offset, token });
        }
        let raw = (token >> 27) & 0xF;
        let ty =
            TextureType::from_raw(raw).ok_or(DecodeError::UnknownTextureType { offset, raw })?;
        Ok(Declaration::Sampler(ty))
    } else {
        if token & 0x7FF0_FFE0 != 0 {
            return Err(DecodeError::ReservedBits { offset, token });
        }
        let raw = token & 0x1F;
        let usage = Usage::from_raw(raw).ok_or(DecodeError::UnknownUsage { offset, raw })?;
        Ok(Declaration::Semantic {
            usage,
            index: ((token >> 16) & 0xF) as u8,
        })
    }
}
