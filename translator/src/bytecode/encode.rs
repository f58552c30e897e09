//! [`Program`] → tokens: the inverse of [`decode`](super::decode).

use super::*;

/// Write a program as D3D9 tokens, comment blocks included, ending with the end token.
pub fn encode(program: &Program) -> Vec<u32> {
    let version = program.version;
    let mut out = vec![version.token()];
    let mut comments = program.comments.iter().peekable();
    for (i, inst) in program.instructions.iter().enumerate() {
        while let Some(c) = comments.next_if(|c| c.position <= i) {
            write_comment(&mut out, c);
        }
        write_instruction(&mut out, inst, version);
    }
    for c in comments {
        write_comment(&mut out, c);
    }
    out.push(END_TOKEN);
    out
}

fn write_comment(out: &mut Vec<u32>, c: &Comment) {
    out.push(COMMENT_OPCODE | ((c.data.len() as u32 & 0x7FFF) << 16));
    out.extend_from_slice(&c.data);
}

fn write_instruction(out: &mut Vec<u32>, inst: &Instruction, version: Version) {
    let start = out.len();
    out.push(0);
    if let (Some(decl), Some(_)) = (inst.decl, inst.dst) {
        out.push(match decl {
            Declaration::Semantic { usage, index } => {
                0x8000_0000 | usage.raw() | (u32::from(index & 0xF) << 16)
            }
            Declaration::Sampler(ty) => 0x8000_0000 | ((ty as u32) << 27),
        });
    }
    if let Some(dst) = &inst.dst {
        write_dst(out, dst, version);
    }
    match inst.literal {
        Some(Literal::Float(v)) => out.extend_from_slice(&v),
        Some(Literal::Int(v)) => out.extend(v.iter().map(|&x| x as u32)),
        Some(Literal::Bool(b)) => out.push(b),
        None => {}
    }
    if let Some(p) = &inst.predicate {
        write_src(out, p, version);
    }
    for s in &inst.src {
        write_src(out, s, version);
    }
    let control = match inst.control {
        Control::None => 0,
        Control::Comparison(c) => c as u32,
        Control::TexProject => 1,
        Control::TexBias => 2,
    };
    let mut token = u32::from(inst.opcode.value()) | (control << 16);
    if version.has_length_field() {
        token |= (((out.len() - start - 1) as u32) & 0xF) << 24;
    }
    if inst.predicate.is_some() {
        token |= 0x1000_0000;
    }
    if inst.coissue {
        token |= 0x4000_0000;
    }
    out[start] = token;
}

fn register_bits(reg: &Register) -> u32 {
    let raw = reg.file.raw();
    0x8000_0000
        | ((raw & 0x7) << 28)
        | ((raw & 0x18) << 8)
        | (reg.index & 0x7FF)
        | if reg.relative.is_some() { 0x2000 } else { 0 }
}

fn write_relative(out: &mut Vec<u32>, reg: &Register, version: Version) {
    if let Some(rel) = reg.relative {
        if version.has_length_field() {
            let addr = Register::new(rel.file, rel.index);
            out.push(register_bits(&addr) | (u32::from(rel.swizzle.0) << 16));
        }
    }
}

fn write_dst(out: &mut Vec<u32>, dst: &DstParam, version: Version) {
    out.push(
        register_bits(&dst.reg)
            | (u32::from(dst.mask.0 & 0xF) << 16)
            | (u32::from(dst.modifier.0 & 0xF) << 20)
            | ((dst.shift as u32 & 0xF) << 24),
    );
    write_relative(out, &dst.reg, version);
}

fn write_src(out: &mut Vec<u32>, src: &SrcParam, version: Version) {
    out.push(
        register_bits(&src.reg) | (u32::from(src.swizzle.0) << 16) | ((src.modifier as u32) << 24),
    );
    write_relative(out, &src.reg, version);
}
