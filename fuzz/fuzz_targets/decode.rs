//! Fuzz the bytecode reader: any byte string decodes or returns a typed error, and whatever
//! decodes re-encodes to tokens that decode to the same program.
#![no_main]

use d3d9_translator::bytecode::{decode, decode_bytes, encode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(program) = decode_bytes(data) {
        let tokens = encode(&program);
        assert_eq!(decode(&tokens).ok().as_ref(), Some(&program));
    }
});
