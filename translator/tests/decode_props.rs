//! Bad input never panics the decoder: every malformed stream is a typed error.

mod common;

use d3d9_translator::bytecode::{decode, decode_bytes, encode, DecodeError, TokenOffset};
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
