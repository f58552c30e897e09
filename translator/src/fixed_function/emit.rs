//! An instruction builder: the decoded representation ([`Program`]) written directly, as the
//! assembler would produce it from text, without text or parsing.

use crate::bytecode::{
    Declaration, DstParam, Instruction, Literal, Opcode, Program, Register, RegisterFile,
    RelativeAddress, ResultModifier, SrcModifier, SrcParam, Stage, Swizzle, Usage, Version,
    WriteMask,
};

/// Lane numbers (x, y, z, w) for swizzles and masks.
pub(super) const X: u8 = 0;
pub(super) const Y: u8 = 1;
pub(super) const Z: u8 = 2;
pub(super) const W: u8 = 3;
/// Write masks.
pub(super) const XYZ: WriteMask = WriteMask(0b0111);
pub(super) const XY: WriteMask = WriteMask(0b0011);

/// A source operand: a register with its swizzle and modifier; also a destination
/// ([`Operand::all`], [`Operand::mask`], [`Operand::lane`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct Operand {
    reg: Register,
    swizzle: Swizzle,
    modifier: SrcModifier,
}

fn operand(file: RegisterFile, index: u32) -> Operand {
    Operand {
        reg: Register::new(file, index),
        swizzle: Swizzle::IDENTITY,
        modifier: SrcModifier::None,
    }
}

/// `r#`.
pub(super) fn r(index: u32) -> Operand {
    operand(RegisterFile::Temp, index)
}

/// `c#`.
pub(super) fn c(index: usize) -> Operand {
    operand(RegisterFile::Const, index as u32)
}

/// `v#`.
pub(super) fn v(index: usize) -> Operand {
    operand(RegisterFile::Input, index as u32)
}

/// `o#`.
pub(super) fn o(index: u32) -> Operand {
    operand(RegisterFile::Output, index)
}

/// `a0`.
pub(super) fn a0() -> Operand {
    operand(RegisterFile::Addr, 0)
}

/// `c[a0.x + index]`.
pub(super) fn c_a0x(index: usize) -> Operand {
    let mut op = c(index);
    op.reg.relative = Some(RelativeAddress {
        file: RegisterFile::Addr,
        index: 0,
        swizzle: Swizzle::replicate(X),
    });
    op
}

impl Operand {
    /// `.x`, `.y`, ...: one lane replicated.
    pub(super) fn at(mut self, lane: u8) -> Operand {
        self.swizzle = Swizzle::replicate(lane);
        self
    }

    /// `.xxyy`-style swizzle.
    pub(super) fn swz(mut self, lanes: [u8; 4]) -> Operand {
        self.swizzle = Swizzle::new(lanes);
        self
    }

    /// `-x`.
    pub(super) fn neg(mut self) -> Operand {
        self.modifier = SrcModifier::Neg;
        self
    }

    /// The register as a destination writing `mask`.
    pub(super) fn mask(self, mask: WriteMask) -> DstParam {
        DstParam {
            reg: self.reg,
            mask,
            modifier: ResultModifier(0),
            shift: 0,
        }
    }

    /// The register as a destination writing every lane.
    pub(super) fn all(self) -> DstParam {
        self.mask(WriteMask::ALL)
    }

    /// The register as a destination writing one lane.
    pub(super) fn lane(self, lane: u8) -> DstParam {
        self.mask(WriteMask(1 << lane))
    }

    fn src(self) -> SrcParam {
        SrcParam {
            reg: self.reg,
            swizzle: self.swizzle,
            modifier: self.modifier,
        }
    }
}

/// A vs_3_0 program under construction: its `def`s, `dcl`s and body, each in order.
pub(super) struct Emitter {
    defs: Vec<Instruction>,
    dcls: Vec<Instruction>,
    body: Vec<Instruction>,
}

impl Emitter {
    pub(super) fn new() -> Self {
        Emitter {
            defs: Vec::new(),
            dcls: Vec::new(),
            body: Vec::with_capacity(128),
        }
    }

    /// `def c#, x, y, z, w`.
    pub(super) fn def(&mut self, register: u32, values: [f32; 4]) {
        let mut inst = Instruction::new(Opcode::Def);
        inst.dst = Some(operand(RegisterFile::Const, register).all());
        inst.literal = Some(Literal::Float(values.map(f32::to_bits)));
        self.defs.push(inst);
    }

    /// `dcl_<usage><index> reg[.mask]`.
    pub(super) fn dcl(&mut self, dst: DstParam, usage: Usage, index: u8) {
        let mut inst = Instruction::new(Opcode::Dcl);
        inst.dst = Some(dst);
        inst.decl = Some(Declaration::Semantic { usage, index });
        self.dcls.push(inst);
    }

    /// `opcode dst, srcs...`.
    pub(super) fn op(&mut self, opcode: Opcode, dst: DstParam, srcs: &[Operand]) {
        let mut inst = Instruction::new(opcode);
        inst.dst = Some(dst);
        inst.src = srcs.iter().map(|s| s.src()).collect();
        self.body.push(inst);
    }

    /// `opcode_sat dst, srcs...`.
    pub(super) fn sat(&mut self, opcode: Opcode, mut dst: DstParam, srcs: &[Operand]) {
        dst.modifier = ResultModifier(ResultModifier::SATURATE);
        self.op(opcode, dst, srcs);
    }

    pub(super) fn mov(&mut self, dst: DstParam, a: Operand) {
        self.op(Opcode::Mov, dst, &[a]);
    }

    pub(super) fn add(&mut self, dst: DstParam, a: Operand, b: Operand) {
        self.op(Opcode::Add, dst, &[a, b]);
    }

    pub(super) fn mul(&mut self, dst: DstParam, a: Operand, b: Operand) {
        self.op(Opcode::Mul, dst, &[a, b]);
    }

    pub(super) fn mad(&mut self, dst: DstParam, a: Operand, b: Operand, c: Operand) {
        self.op(Opcode::Mad, dst, &[a, b, c]);
    }

    pub(super) fn dp3(&mut self, dst: DstParam, a: Operand, b: Operand) {
        self.op(Opcode::Dp3, dst, &[a, b]);
    }

    pub(super) fn dp4(&mut self, dst: DstParam, a: Operand, b: Operand) {
        self.op(Opcode::Dp4, dst, &[a, b]);
    }

    pub(super) fn rsq(&mut self, dst: DstParam, a: Operand) {
        self.op(Opcode::Rsq, dst, &[a]);
    }

    pub(super) fn rcp(&mut self, dst: DstParam, a: Operand) {
        self.op(Opcode::Rcp, dst, &[a]);
    }

    pub(super) fn slt(&mut self, dst: DstParam, a: Operand, b: Operand) {
        self.op(Opcode::Slt, dst, &[a, b]);
    }

    /// `v / |v|` into `dst.xyz` (through `scratch.x`): `dp3`, `rsq`, `mul`.
    pub(super) fn normalize(&mut self, dst: Operand, v: Operand, scratch: Operand) {
        self.dp3(scratch.lane(X), v, v);
        self.rsq(scratch.lane(X), scratch.at(X));
        self.mul(dst.mask(XYZ), v, scratch.at(X));
    }

    /// The vs_3_0 program: `def`s, `dcl`s, then the body, with the token offsets the
    /// bytecode would have.
    pub(super) fn finish(self) -> Program {
        let mut program = Program::new(Version::new(Stage::Vertex, 3, 0));
        program.instructions = self.defs;
        program.instructions.extend(self.dcls);
        program.instructions.extend(self.body);
        program.number_instructions();
        program
    }
}
