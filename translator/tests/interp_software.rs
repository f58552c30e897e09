//! The software profiles' relaxed rules (the SDK's "Software Shaders" page) in the reference
//! interpreter, which is what `ProcessVertices` runs: a vs_3_sw shader that only these rules
//! allow runs, and every relaxed rule shows in its result. The checker's side of each rule is
//! pinned in `check/tests.rs` (`software_profiles_*`, `vs_3_sw_has_16_output_registers`,
//! `vs_2_sw_has_unlimited_flow_control_and_2048_labels`); the GPU path's loop bound of 255 is
//! stated in `docs/decisions.md` ("Software profiles").

#![allow(clippy::panic)] // a failing test says why

use d3d9_translator::asm::assemble;
use d3d9_translator::bytecode::{Stage, Usage};
use d3d9_translator::check::{check, DeviceCaps};
use d3d9_translator::interp::{Constants, Interpreter};
use d3d9_translator::lift::FloatMode;
use d3d9_translator::signature::Semantic;

/// The shader: each line group uses one relaxed rule, and writes its own component of o15.
fn shader(version: &str) -> String {
    let slots = "add r1.x, r1.x, c8190.x\n".repeat(600);
    format!(
        "{version}
        dcl_position v0
        dcl_texcoord0 v1
        dcl_position o0
        dcl_texcoord14 o15
        defi i2047, 300, 0, 0, 0
        defi i1, 3, 7000, -1000, 0
        defi i2, 3, 100000, -47000, 0
        defb b2047, true
        mov o0, v0
        mov r0, c0
        mov r1, c0
        if_lt v0.x, v1.x
            add r0.x, r0.x, c8191.x
        endif
        if b2047
            rep i2047
                add r0.y, r0.y, c8191.y
            endrep
        endif
        loop aL, i1
            add r0.z, r0.z, c[aL].z
        endloop
        loop aL, i2
            add r0.z, r0.z, c[aL].z
        endloop
        call l2047
        {slots}add r0.w, r0.w, r1.x
        mov o15, r0
        ret
        label l2047
        add r0.w, r0.w, c8191.w
        ret
        "
    )
}

/// - no read-port limit: `if_lt v0.x, v1.x` reads two `v#` (vs_3_0 allows one);
/// - 8192 float, 2048 integer and 2048 boolean constants: c8191, c8190, i2047, b2047;
/// - loop counts past 255 (up to MAX_INT/64): `rep` of 300 runs 300 times;
/// - 32-bit signed loop start and step: `loop` from 7000 by -1000 reads c7000, c6000, c5000
///   (1 + 2 + 4), and from 100000 by -47000 reads c100000 and c53000 (past the file: 0) and
///   c6000 (2);
/// - 2048 labels: `call l2047`;
/// - no instruction limit: 600 more arithmetic slots (vs_3_0 allows 512);
/// - 16 `o#`: the result is in o15.
#[test]
fn vs_3_sw_runs_what_only_the_software_rules_allow() {
    let caps = DeviceCaps::software();
    let program = assemble(&shader("vs_3_sw")).unwrap_or_else(|e| panic!("{e}"));
    let checked = check(&program, Stage::Vertex, &caps).unwrap_or_else(|e| panic!("{e}"));
    let mut floats = vec![[0.0f32; 4]; 8192];
    floats[8191] = [5.0, 1.0, 0.0, 3.0];
    floats[8190] = [1.0, 0.0, 0.0, 0.0];
    floats[7000] = [0.0, 0.0, 1.0, 0.0];
    floats[6000] = [0.0, 0.0, 2.0, 0.0];
    floats[5000] = [0.0, 0.0, 4.0, 0.0];
    let constants = Constants {
        floats,
        ..Constants::default()
    };
    let interpreter =
        Interpreter::new(&checked, FloatMode::Legacy).unwrap_or_else(|e| panic!("{e}"));
    let o15 = Semantic::new(Usage::TexCoord, 14);
    for (v0x, v1x, taken) in [(0.0f32, 1.0f32, 5.0f32), (2.0, 1.0, 0.0)] {
        let out = interpreter
            .run(&[[v0x, 0.0, 0.5, 1.0], [v1x, 0.0, 0.0, 0.0]], &constants)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            out.get(o15),
            Some([taken, 300.0, 7.0 + 2.0, 3.0 + 600.0]),
            "v0.x {v0x}, v1.x {v1x}"
        );
    }
    // The same text as vs_3_0 breaks the hardware rules (the assembler already refuses
    // c8191 and o15 there; the checker's refusals of each rule are in check/tests.rs).
    let err = assemble(&shader("vs_3_0")).expect_err("vs_3_0");
    assert!(
        err.to_string().contains("out of range") || err.to_string().contains("does not exist"),
        "{err}"
    );
}
