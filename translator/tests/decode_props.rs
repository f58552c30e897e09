//! Bad input never panics the decoder: every malformed stream is a typed error.

mod common;

use d3d9_translator::bytecode::{
    decode, decode_bytes, encode, Control, DecodeError, Literal, Opcode, TokenOffset,
};
use proptest::prelude::*;
use serde_json::Value;

fn corpus_tokens() -> Vec<Vec<u32>> {
    let pairs: Value = common::corpus("asm_pairs.json");
    pairs
        .as_array()
        .expect("array")
        .iter()
        .map(|p| {
            p["tokens"]
                .as_array()
                .expect("tokens")
                .iter()
                .map(|t| t.as_u64().expect("u32") as u32)
                .collect()
        })
        .collect()
}

#[test]
fn empty_and_odd_inputs_are_typed_errors() {
    assert_eq!(decode(&[]), Err(DecodeError::Empty));
    assert_eq!(
        decode_bytes(&[1, 2, 3]),
        Err(DecodeError::OddLength { len: 3 })
    );
    assert_eq!(decode(&[0x4342_5844, 0, 0]), Err(DecodeError::Dxbc));
    assert_eq!(
        decode(&[0xFFFE_0400, 0xFFFF]),
        Err(DecodeError::BadVersion { token: 0xFFFE_0400 })
    );
    assert_eq!(
        decode(&[0x1234_5678]),
        Err(DecodeError::BadVersion { token: 0x1234_5678 })
    );
}

#[test]
fn structural_errors_name_the_token() {
    // vs_2_0 with no end token.
    assert_eq!(
        decode(&[0xFFFE_0200]),
        Err(DecodeError::MissingEnd {
            offset: TokenOffset(1)
        })
    );
    // Unknown opcode 0x3F.
    assert!(matches!(
        decode(&[0xFFFE_0200, 0x0000_003F, 0xFFFF]),
        Err(DecodeError::UnknownOpcode {
            offset: TokenOffset(1),
            value: 0x3F
        })
    ));
    // Reserved bit 31 on an instruction token. The low 16 bits are 1 (mov), a known opcode, so
    // the decoder gets past the opcode lookup and refuses the token for bit 31 (bit 30 is
    // co-issue, bits 24-27 the length, 16-23 control; 29 and 31 are reserved).
    assert_eq!(
        decode(&[0xFFFE_0200, 0x8000_0001, 0xFFFF]),
        Err(DecodeError::ReservedBits {
            offset: TokenOffset(1),
            token: 0x8000_0001
        })
    );
    // Bit 29 is reserved as well.
    assert_eq!(
        decode(&[0xFFFE_0200, 0x2000_0001, 0xFFFF]),
        Err(DecodeError::ReservedBits {
            offset: TokenOffset(1),
            token: 0x2000_0001
        })
    );
    // With an unknown opcode the opcode is named first: it decides how the token is read.
    assert_eq!(
        decode(&[0xFFFE_0200, 0x8000_003F, 0xFFFF]),
        Err(DecodeError::UnknownOpcode {
            offset: TokenOffset(1),
            value: 0x3F
        })
    );
    // mov claims 15 operand tokens.
    assert!(matches!(
        decode(&[0xFFFE_0200, 0x0F00_0001, 0x800F_0000, 0xFFFF]),
        Err(DecodeError::LengthPastEnd {
            offset: TokenOffset(1),
            ..
        })
    ));
    // Comment of 100 tokens in a 3-token shader.
    assert!(matches!(
        decode(&[0xFFFE_0200, 0x0064_FFFE, 0xFFFF]),
        Err(DecodeError::CommentPastEnd {
            offset: TokenOffset(1),
            length: 100
        })
    ));
    // vs_1_1 mov with its source missing before the end token.
    assert!(matches!(
        decode(&[0xFFFE_0101, 0x0000_0001, 0x800F_0000, 0xFFFF]),
        Err(DecodeError::Truncated { .. })
    ));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Flip, replace, insert or delete tokens of corpus shaders: decode returns Ok or a typed
    /// error, and whatever decodes re-encodes to a stream that decodes to the same program.
    #[test]
    fn mutated_corpus_shaders_never_panic(
        which in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u32>(), 0u8..4), 1..6),
    ) {
        let all = corpus_tokens();
        let mut tokens = all[which.index(all.len())].clone();
        for (at, value, kind) in edits {
            if tokens.is_empty() { break; }
            let i = at.index(tokens.len());
            match kind {
                0 => tokens[i] ^= 1 << (value % 32),
                1 => tokens[i] = value,
                2 => tokens.insert(i, value),
                _ => { tokens.remove(i); }
            }
        }
        if let Ok(program) = decode(&tokens) {
            let again = decode(&encode(&program));
            prop_assert_eq!(again.as_ref().ok(), Some(&program));
        }
    }

    /// Arbitrary bytes behind a valid version token.
    #[test]
    fn random_streams_never_panic(version in prop::sample::select(vec![0xFFFE_0101u32, 0xFFFE_0200, 0xFFFE_0201, 0xFFFE_0300, 0xFFFF_0104, 0xFFFF_0300]),
                                  body in prop::collection::vec(any::<u32>(), 0..64)) {
        let mut tokens = vec![version];
        tokens.extend(body);
        let _ = decode(&tokens);
    }
}

/// vs_2_0 `mov r0, c0` as fxc writes it: length 2, `r0` (type 0, `.xyzw`), `c0` (type 2, `.xyzw`).
const VS_2_0: u32 = 0xFFFE_0200;
const MOV_R0_C0: [u32; 3] = [0x0200_0001, 0x800F_0000, 0xA0E4_0000];

#[test]
fn length_field_bounds_the_instruction_not_the_shader() {
    // An instruction that fills the stream exactly is whole; only the end token is missing.
    let mut tokens = vec![VS_2_0];
    tokens.extend(MOV_R0_C0);
    assert_eq!(
        decode(&tokens),
        Err(DecodeError::MissingEnd {
            offset: TokenOffset(4)
        })
    );
    // `mov` stating one operand token with none left: the stated length runs past the end.
    assert_eq!(
        decode(&[VS_2_0, 0x0100_0001]),
        Err(DecodeError::LengthPastEnd {
            offset: TokenOffset(1),
            opcode: Opcode::Mov,
            length: 1
        })
    );
}

#[test]
fn sm1_instruction_tokens_have_no_length_field() {
    // Before 2.0, bits 24–27 are not a length (Wine's `shader_skip_opcode` reads the operand
    // count from the opcode there): `mov r0, c0` in vs_1_1 with those bits set to 15 still
    // reads its two operands and stops at the end token.
    let program = decode(&[0xFFFE_0101, 0x0F00_0001, 0x800F_0000, 0xA0E4_0000, 0xFFFF])
        .expect("vs_1_1 mov decodes");
    assert_eq!(program.instructions.len(), 1);
    assert_eq!(program.instructions[0].opcode, Opcode::Mov);
    assert_eq!(program.instructions[0].src.len(), 1);
}

#[test]
fn control_bits_are_reserved_except_where_an_opcode_uses_them() {
    // `mov` has no controls: bits 16–23 set are reserved.
    assert_eq!(
        decode(&[VS_2_0, 0x0201_0001, 0x800F_0000, 0xA0E4_0000, 0xFFFF]),
        Err(DecodeError::ReservedBits {
            offset: TokenOffset(1),
            token: 0x0201_0001
        })
    );
    // `texldp` (control 1 on `tex`) exists from ps_2_0 on; in ps_1_1 `tex t0` has no
    // controls, so the same bit is reserved there.
    assert_eq!(
        decode(&[0xFFFF_0101, 0x0001_0042, 0xB00F_0000, 0xFFFF]),
        Err(DecodeError::ReservedBits {
            offset: TokenOffset(1),
            token: 0x0001_0042
        })
    );
    let program = decode(&[0xFFFF_0101, 0x0000_0042, 0xB00F_0000, 0xFFFF]).expect("ps_1_1 tex t0");
    assert_eq!(program.instructions[0].control, Control::None);
}

#[test]
fn dcl_token_errors_name_the_dcl_token() {
    // The token after `dcl`'s instruction token must be a parameter token (bit 31 set); the
    // error points at it (token 2), not at the instruction (token 1).
    assert_eq!(
        decode(&[VS_2_0, 0x0200_001F, 0x0000_0000, 0x900F_0000, 0xFFFF]),
        Err(DecodeError::NotAParameter {
            offset: TokenOffset(2),
            token: 0
        })
    );
    // Usage 14 does not exist (`D3DDECLUSAGE` ends at 13, `SAMPLE`).
    assert_eq!(
        decode(&[VS_2_0, 0x0200_001F, 0x8000_000E, 0x900F_0000, 0xFFFF]),
        Err(DecodeError::UnknownUsage {
            offset: TokenOffset(2),
            raw: 14
        })
    );
}

#[test]
fn sm2_literals_may_hold_the_end_token_value() {
    // With a length field the end token is found by position, so a `def` literal whose bits
    // are 0x0000ffff (a denormal) is a literal, not the end of the shader.
    let program = decode(&[
        VS_2_0,
        0x0500_0051,
        0xA00F_0000,
        0x0000_FFFF,
        0,
        0,
        0,
        0xFFFF,
    ])
    .expect("def with a 0x0000ffff literal decodes");
    assert_eq!(
        program.instructions[0].literal,
        Some(Literal::Float([0x0000_FFFF, 0, 0, 0]))
    );
}

#[test]
fn operand_tokens_need_bit_31() {
    // A source token with bit 31 clear is not a parameter token, even when the rest of it
    // reads as `c0.xyzw`.
    assert_eq!(
        decode(&[VS_2_0, 0x0200_0001, 0x800F_0000, 0x20E4_0000, 0xFFFF]),
        Err(DecodeError::NotAParameter {
            offset: TokenOffset(3),
            token: 0x20E4_0000
        })
    );
}
