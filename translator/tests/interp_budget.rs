//! The reference interpreter's instruction budget (`INSTRUCTION_BUDGET`, 50 million executed
//! instructions a vertex) is exact: a vertex that executes exactly that many ends normally,
//! one more instruction is the `Budget` error. Kept in a test target of its own: each run
//! executes 50 million instructions (under a second with the test profile's opt-level 1, about
//! 5 s at the opt-level 0 that `scripts/mutants-file` builds with), so mutation runs pass this
//! target only for `interp/exec.rs` (see `docs/testing.md`).

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use d3d9_translator::asm::assemble;
use d3d9_translator::bytecode::Stage;
use d3d9_translator::check::{check, DeviceCaps};
use d3d9_translator::interp::{Constants, InterpError, Interpreter, INSTRUCTION_BUDGET};
use d3d9_translator::lift::FloatMode;

/// A vs_3_0 program executing `7 + (1 + 149 × 2) + (1 + 240 × (2 + 251 × (2 + 207 × 4)))
/// + 13 + extra` instructions: 7 before the loops (`dcl`, `defi` and `mov` count), a `rep`
/// of 149 (`nop`, `endrep`), three nested `rep`s of 240, 251 and 207 around three `nop`s
/// (each `rep` runs once per iteration of its parent, each `endrep` once per iteration of its
/// own), then 13 + `extra` `nop`s.
fn program(extra: usize) -> String {
    let nops = "nop\n".repeat(13 + extra);
    format!(
        "vs_3_0
        dcl_position v0
        dcl_position o0
        defi i0, 240, 0, 0, 0
        defi i1, 251, 0, 0, 0
        defi i2, 207, 0, 0, 0
        defi i3, 149, 0, 0, 0
        mov o0, v0
        rep i3
            nop
        endrep
        rep i0
            rep i1
                rep i2
                    nop
                    nop
                    nop
                endrep
            endrep
        endrep
        {nops}"
    )
}

#[test]
fn the_instruction_budget_is_exact() {
    let count = 7 + (1 + 149 * 2) + (1 + 240 * (2 + 251 * (2 + 207 * 4))) + 13;
    assert_eq!(count, INSTRUCTION_BUDGET);
    let run = |extra| {
        let program = assemble(&program(extra)).unwrap_or_else(|e| panic!("{e}"));
        let checked = check(&program, Stage::Vertex, &DeviceCaps::default())
            .unwrap_or_else(|e| panic!("{e}"));
        Interpreter::new(&checked, FloatMode::Ieee)
            .expect("prepares")
            .run(&[[0.0; 4]], &Constants::default())
    };
    assert!(run(0).is_ok(), "exactly the budget");
    assert_eq!(
        run(1).map(|_| ()),
        Err(InterpError::Budget {
            limit: INSTRUCTION_BUDGET
        })
    );
}
