//! Input and output semantics of a shader: which registers carry which (usage, index) and
//! which components.
//!
//! - vs_3_0 and ps_3_0 state every input and output with `dcl_<usage><n> reg.mask`.
//! - Vertex shaders before 3.0 declare inputs with `dcl` (D3D9) or not at all (DX8-era
//!   vs_1_0/vs_1_1, where the vertex declaration binds `v#` directly: the DX8 register table
//!   `D3DVSDE_*` gives their meaning); their outputs are the fixed registers oPos, oFog, oPts,
//!   oD0/oD1 and oT0–oT7, present when written.
//! - Pixel shaders before 3.0 read colours from `v#` (COLOR#) and texture coordinates from
//!   `t#` (TEXCOORD#), declared with a plain `dcl` in ps_2_x and implied by use in ps_1_x.
//!
//! Extraction never fails: conflicting or missing declarations are the checker's business.

use crate::bytecode::{
    Declaration, Opcode, Program, Register, RegisterFile, Stage, TokenOffset, Usage, WriteMask,
};
use std::fmt;

/// A semantic: usage and usage index (`TEXCOORD3`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Semantic {
    pub usage: Usage,
    pub index: u8,
}

impl Semantic {
    /// A semantic from its parts.
    pub const fn new(usage: Usage, index: u8) -> Self {
        Semantic { usage, index }
    }

    /// What a pixel stage reads for this vertex output when the vertex shader never writes
    /// it, and what a pre-3.0 fixed output register (oD#, oT#, oFog, oPts) holds before the
    /// shader writes it (a partly written `oD1.x` keeps `.yzw` = (0, 0, 1)): COLOR0 =
    /// (1,1,1,1), other COLOR = (0,0,0,1), everything else 0 (FOG 0: fully fogged, as
    /// Windows, Wine and DXVK give). One definition, read by the lifter, the linker and the
    /// pixel stage. (vs_3_0 `o#` registers start at 0 instead: see `docs/decisions.md`.)
    pub fn unwritten_value(self) -> [f32; 4] {
        match self.usage {
            Usage::Color if self.index == 0 => [1.0; 4],
            Usage::Color => [0.0, 0.0, 0.0, 1.0],
            _ => [0.0; 4],
        }
    }
}

impl fmt::Display for Semantic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.usage.name().to_uppercase(), self.index)
    }
}

/// The DX8 vertex-declaration register table (`D3DVSDE_POSITION` = 0 … `D3DVSDE_NORMAL2` = 16):
/// the semantic a DX8 `D3DVSD_REG(reg, type)` binds, and the meaning of `v#` in a vertex shader
/// that declares no inputs.
pub const DX8_REGISTERS: [Semantic; 17] = [
    Semantic::new(Usage::Position, 0),
    Semantic::new(Usage::BlendWeight, 0),
    Semantic::new(Usage::BlendIndices, 0),
    Semantic::new(Usage::Normal, 0),
    Semantic::new(Usage::PSize, 0),
    Semantic::new(Usage::Color, 0),
    Semantic::new(Usage::Color, 1),
    Semantic::new(Usage::TexCoord, 0),
    Semantic::new(Usage::TexCoord, 1),
    Semantic::new(Usage::TexCoord, 2),
    Semantic::new(Usage::TexCoord, 3),
    Semantic::new(Usage::TexCoord, 4),
    Semantic::new(Usage::TexCoord, 5),
    Semantic::new(Usage::TexCoord, 6),
    Semantic::new(Usage::TexCoord, 7),
    Semantic::new(Usage::Position, 1),
    Semantic::new(Usage::Normal, 1),
];

/// The semantic of DX8 register `reg` (`D3DVSDE_*`), if it is one.
pub fn dx8_register_semantic(reg: u32) -> Option<Semantic> {
    DX8_REGISTERS.get(usize::try_from(reg).ok()?).copied()
}

/// The DX8 register (`D3DVSDE_*`) that carries `semantic`, if any.
pub fn dx8_register_of(semantic: Semantic) -> Option<u32> {
    DX8_REGISTERS
        .iter()
        .position(|s| *s == semantic)
        .map(|p| p as u32)
}

/// One input or output of a shader.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SignatureElement {
    pub register: Register,
    pub semantic: Semantic,
    /// Components declared (or, for implied elements, written/read).
    pub mask: WriteMask,
    /// Whether a `dcl` states it (false: implied by a fixed register or by use).
    pub declared: bool,
    /// The `dcl` instruction, or the first instruction using the register.
    pub offset: TokenOffset,
}

/// The inputs and outputs of a shader, in declaration (or first-use) order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Signature {
    pub inputs: Vec<SignatureElement>,
    pub outputs: Vec<SignatureElement>,
}

impl Signature {
    /// Extract the signature of `program` by the rules in the module documentation.
    pub fn of(program: &Program) -> Signature {
        let mut sig = Signature::default();
        let version = program.version;
        for inst in &program.instructions {
            if inst.opcode != Opcode::Dcl {
                continue;
            }
            let (Some(dst), Some(Declaration::Semantic { usage, index })) = (inst.dst, inst.decl)
            else {
                continue;
            };
            let semantic = match (version.stage, dst.reg.file) {
                // ps_2_x `dcl v0` / `dcl t0`: the register names the semantic.
                (Stage::Pixel, RegisterFile::Input) if version.major < 3 => {
                    Semantic::new(Usage::Color, dst.reg.index as u8)
                }
                (Stage::Pixel, RegisterFile::Texture) => {
                    Semantic::new(Usage::TexCoord, dst.reg.index as u8)
                }
                _ => Semantic::new(usage, index),
            };
            let element = SignatureElement {
                register: Register::new(dst.reg.file, dst.reg.index),
                semantic,
                mask: dst.mask,
                declared: true,
                offset: inst.offset,
            };
            match dst.reg.file {
                RegisterFile::Input | RegisterFile::Texture => sig.inputs.push(element),
                RegisterFile::Output => sig.outputs.push(element),
                _ => {}
            }
        }
        sig.add_implied(program);
        sig
    }

    /// The input element with this semantic.
    pub fn input(&self, semantic: Semantic) -> Option<&SignatureElement> {
        self.inputs.iter().find(|e| e.semantic == semantic)
    }

    /// The output element with this semantic.
    pub fn output(&self, semantic: Semantic) -> Option<&SignatureElement> {
        self.outputs.iter().find(|e| e.semantic == semantic)
    }

    /// Inputs implied by use (DX8-style vertex shaders, ps_1_x) and the fixed outputs of
    /// vertex shaders before 3.0.
    fn add_implied(&mut self, program: &Program) {
        let version = program.version;
        let stage = version.stage;
        let vs_declares_inputs = self.inputs.iter().any(|e| e.declared);
        for inst in &program.instructions {
            if inst.opcode.is_declaration() {
                continue;
            }
            // Inputs read without a dcl.
            let reads = inst
                .src
                .iter()
                .map(|s| s.reg)
                .chain(inst.predicate.map(|p| p.reg));
            // ps_1_x `tex t0` / `texcoord t0` read t# through their destination.
            let tex_dst = (stage == Stage::Pixel && version.major == 1)
                .then_some(inst.dst.map(|d| d.reg))
                .flatten()
                .filter(|r| r.file == RegisterFile::Texture);
            for reg in reads.chain(tex_dst) {
                let semantic = match (stage, reg.file) {
                    (Stage::Vertex, RegisterFile::Input)
                        if version.major < 3 && !vs_declares_inputs =>
                    {
                        dx8_register_semantic(reg.index)
                    }
                    (Stage::Pixel, RegisterFile::Input) if version.major == 1 => {
                        Some(Semantic::new(Usage::Color, reg.index as u8))
                    }
                    (Stage::Pixel, RegisterFile::Texture) if version.major == 1 => {
                        Some(Semantic::new(Usage::TexCoord, reg.index as u8))
                    }
                    _ => None,
                };
                if let Some(semantic) = semantic {
                    if self.input(semantic).is_none() {
                        self.inputs.push(SignatureElement {
                            register: Register::new(reg.file, reg.index),
                            semantic,
                            mask: WriteMask::ALL,
                            declared: false,
                            offset: inst.offset,
                        });
                    }
                }
            }
            // Fixed vertex outputs before vs_3_0.
            if stage == Stage::Vertex && version.major < 3 {
                if let Some(dst) = inst.dst {
                    if let Some(semantic) = fixed_vs_output(dst.reg) {
                        match self.outputs.iter_mut().find(|e| e.semantic == semantic) {
                            Some(e) => e.mask = WriteMask(e.mask.0 | dst.mask.0),
                            None => self.outputs.push(SignatureElement {
                                register: Register::new(dst.reg.file, dst.reg.index),
                                semantic,
                                mask: dst.mask,
                                declared: false,
                                offset: inst.offset,
                            }),
                        }
                    }
                }
            }
        }
    }
}

/// The semantic of a fixed vertex-shader output register before vs_3_0: oPos = POSITION0,
/// oFog = FOG0, oPts = PSIZE0, oD# = COLOR#, oT# = TEXCOORD#.
pub fn fixed_vs_output(reg: Register) -> Option<Semantic> {
    let index = u8::try_from(reg.index).ok()?;
    match reg.file {
        RegisterFile::RastOut => match reg.index {
            0 => Some(Semantic::new(Usage::Position, 0)),
            1 => Some(Semantic::new(Usage::Fog, 0)),
            2 => Some(Semantic::new(Usage::PSize, 0)),
            _ => None,
        },
        RegisterFile::AttrOut if index < 2 => Some(Semantic::new(Usage::Color, index)),
        RegisterFile::TexCrdOut if index < 8 => Some(Semantic::new(Usage::TexCoord, index)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bytecode::decode;

    #[test]
    fn vs_1_1_fixed_outputs_and_declared_inputs() {
        // vs_1_1; dcl_position v0; dp4 oPos.x, v0, c0; mov oD0, c1; mov oT2.xy, v0
        let tokens = [
            0xFFFE0101, 0x1F, 0x80000000, 0x900F0000, 0x9, 0xC0010000, 0x90E40000, 0xA0E40000, 0x1,
            0xD00F0000, 0xA0E40001, 0x1, 0xE0030002, 0x90E40000, 0xFFFF,
        ];
        let program = decode(&tokens).expect("decodes");
        let sig = Signature::of(&program);
        assert_eq!(sig.inputs.len(), 1);
        assert_eq!(sig.inputs[0].semantic, Semantic::new(Usage::Position, 0));
        let outs: Vec<_> = sig.outputs.iter().map(|e| (e.semantic, e.mask.0)).collect();
        assert_eq!(
            outs,
            vec![
                (Semantic::new(Usage::Position, 0), 0x1),
                (Semantic::new(Usage::Color, 0), 0xF),
                (Semantic::new(Usage::TexCoord, 2), 0x3),
            ]
        );
    }

    #[test]
    fn undeclared_vs_inputs_follow_the_dx8_register_table() {
        // vs_1_1; mov oPos, v0; mov oD0, v5; mov oT0, v7
        let tokens = [
            0xFFFE0101, 0x1, 0xC00F0000, 0x90E40000, 0x1, 0xD00F0000, 0x90E40005, 0x1, 0xE00F0000,
            0x90E40007, 0xFFFF,
        ];
        let program = decode(&tokens).expect("decodes");
        let sig = Signature::of(&program);
        let ins: Vec<_> = sig
            .inputs
            .iter()
            .map(|e| (e.register.index, e.semantic))
            .collect();
        assert_eq!(
            ins,
            vec![
                (0, Semantic::new(Usage::Position, 0)),
                (5, Semantic::new(Usage::Color, 0)),
                (7, Semantic::new(Usage::TexCoord, 0)),
            ]
        );
        assert_eq!(dx8_register_of(Semantic::new(Usage::Normal, 1)), Some(16));
    }
}
