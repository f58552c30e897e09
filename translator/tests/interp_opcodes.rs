//! Every vertex-shader arithmetic instruction of the reference interpreter against its
//! definition in the D3D9 SDK's instruction reference, computed here from the operands
//! (not from the interpreter's code, nor from the lifter's: the interpreter is the oracle the
//! GPU path is judged by, so a mistake shared by both would pass every differential test).
//! Operands are exact binary values away from the special cases, so the expected results are
//! exact (`sincos`, `exp`, `log`, `pow` within 1e-6).

#![allow(clippy::panic)] // a failing test says why

use d3d9_translator::asm::assemble;
use d3d9_translator::bytecode::{Stage, Usage};
use d3d9_translator::check::{check, DeviceCaps};
use d3d9_translator::interp::{Constants, Interpreter};
use d3d9_translator::lift::FloatMode;
use d3d9_translator::signature::Semantic;

const A: [f32; 4] = [1.5, -2.0, 0.25, 3.0];
const B: [f32; 4] = [-0.5, 4.0, 2.0, -1.25];
const C: [f32; 4] = [2.0, 0.5, -3.0, 1.0];

/// Runs `body` in a `version` shader with `r4 = A`, `r5 = B`, `r6 = C` (temporaries, as
/// most instructions read one constant register at most) and `rows` in `c4..`, writing its
/// result to `r0` (initialised to 7s); returns `r0`.
fn run(version: &str, body: &str, rows: &[[f32; 4]]) -> [f32; 4] {
    let text = format!(
        "{version}
        dcl_position v0
        {decl}
        def c3, 7, 7, 7, 7
        mov {pos}, v0
        mov r0, c3
        mov r4, c0
        mov r5, c1
        mov r6, c2
        {body}
        mov {out}, r0
        ",
        decl = match version {
            "vs_3_0" => "dcl_position o0\ndcl_texcoord0 o1",
            _ => "",
        },
        pos = if version == "vs_3_0" { "o0" } else { "oPos" },
        out = if version == "vs_3_0" { "o1" } else { "oT0" },
    );
    let program = assemble(&text).unwrap_or_else(|e| panic!("{body}: {e}"));
    let checked = check(&program, Stage::Vertex, &DeviceCaps::default())
        .unwrap_or_else(|e| panic!("{body}: {e}"));
    let mut floats = vec![A, B, C, [7.0; 4]];
    floats.extend_from_slice(rows);
    let constants = Constants {
        floats,
        ..Constants::default()
    };
    let out = Interpreter::new(&checked, FloatMode::Ieee)
        .unwrap_or_else(|e| panic!("{body}: {e}"))
        .run(&[[0.0; 4]], &constants)
        .unwrap_or_else(|e| panic!("{body}: {e}"));
    out.get(Semantic::new(Usage::TexCoord, 0))
        .unwrap_or_else(|| panic!("{body}: no output"))
}

fn close(got: [f32; 4], expected: [f32; 4], what: &str) {
    for (g, e) in got.iter().zip(expected) {
        assert!(
            (g - e).abs() <= 1e-6 * e.abs().max(1.0),
            "{what}: got {got:?}, expected {expected:?}"
        );
    }
}

fn each(f: impl Fn(usize) -> f32) -> [f32; 4] {
    [0, 1, 2, 3].map(f)
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[test]
fn componentwise_instructions_follow_their_definitions() {
    let cases: [(&str, [f32; 4]); 10] = [
        ("add r0, r4, r5", each(|k| A[k] + B[k])),
        ("sub r0, r4, r5", each(|k| A[k] - B[k])),
        ("mul r0, r4, r5", each(|k| A[k] * B[k])),
        ("mad r0, r4, r5, r6", each(|k| A[k] * B[k] + C[k])),
        ("min r0, r4, r5", each(|k| A[k].min(B[k]))),
        ("max r0, r4, r5", each(|k| A[k].max(B[k]))),
        ("slt r0, r4, r5", each(|k| f32::from(u8::from(A[k] < B[k])))),
        (
            "sge r0, r4, r5",
            each(|k| f32::from(u8::from(A[k] >= B[k]))),
        ),
        ("frc r0, r5", each(|k| B[k] - B[k].floor())),
        ("abs r0, r5", each(|k| B[k].abs())),
    ];
    for (body, expected) in cases {
        close(run("vs_2_0", body, &[]), expected, body);
    }
    // lrp: a·(b − c) + c, per component (vs_2_0 and later).
    close(
        run("vs_2_0", "lrp r0, r4, r5, r6", &[]),
        each(|k| A[k] * (B[k] - C[k]) + C[k]),
        "lrp",
    );
    // sgn (vs_2_0's form needs two temporaries): -1, 0 or 1 by the sign.
    let sgn = run(
        "vs_2_0",
        "mov r1, r4\nmul r1.z, r1.z, c3.w\nsub r1.z, r1.z, r1.z\nsgn r0, r1, r2, r3",
        &[],
    );
    assert_eq!(sgn, [1.0, -1.0, 0.0, 1.0]);
    // Equal operands: min keeps either, slt is 0, sge is 1.
    assert_eq!(run("vs_2_0", "slt r0, r4, r4", &[]), [0.0; 4]);
    assert_eq!(run("vs_2_0", "sge r0, r4, r4", &[]), [1.0; 4]);
}

#[test]
fn scalar_instructions_replicate_their_result() {
    let x = A[3]; // 3.0
    let cases: [(&str, f32); 6] = [
        ("rcp r0, r4.w", 1.0 / x),
        ("rsq r0, r4.w", 1.0 / x.sqrt()),
        ("exp r0, r4.w", x.exp2()),
        ("log r0, r4.w", x.log2()),
        ("pow r0, r4.z, r4.w", A[2].powf(x)),
        ("dp3 r0, r4, r5", dot(&A[..3], &B[..3])),
    ];
    for (body, expected) in cases {
        close(run("vs_2_0", body, &[]), [expected; 4], body);
    }
    close(
        run("vs_2_0", "dp4 r0, r4, r5", &[]),
        [dot(&A, &B); 4],
        "dp4",
    );
    // Negative operands read |x| for rsq and log as D3D9 defines them.
    close(
        run("vs_2_0", "log r0, r5.x", &[]),
        [B[0].abs().log2(); 4],
        "log |x|",
    );
}

#[test]
fn expp_is_partial_precision_in_vs_1_1_and_exp_from_vs_2_0() {
    let x = C[2] + 1.25; // -1.75: x - floor(x) = 0.25, unlike x / floor(x)
    let f = x.floor();
    // vs_1_1: (2^floor(x), x − floor(x), 2^x, 1).
    let rows = [[x, 0.0, 0.0, 0.0]];
    close(
        run("vs_1_1", "expp r0, c4.x", &rows),
        [f.exp2(), x - f, x.exp2(), 1.0],
        "vs_1_1 expp",
    );
    // vs_2_0 and later: 2^x in every component.
    close(
        run("vs_2_0", "expp r0, c4.x", &rows),
        [x.exp2(); 4],
        "vs_2_0 expp",
    );
}

#[test]
fn lit_dst_crs_and_nrm_follow_their_definitions() {
    // lit: (1, max(x, 0), x > 0 && y > 0 ? y^w : 0, 1).
    let l = [0.5, 2.0, 0.0, 3.0];
    close(
        run("vs_2_0", "lit r0, c4", &[l]),
        [1.0, 0.5, 2.0f32.powf(3.0), 1.0],
        "lit",
    );
    // x ≤ 0: no specular, no diffuse.
    close(
        run("vs_2_0", "lit r0, c4", &[[-0.5, 2.0, 0.0, 3.0]]),
        [1.0, 0.0, 0.0, 1.0],
        "lit, x < 0",
    );
    // x = 0 is not lit: no specular (y^w would be 8).
    close(
        run("vs_2_0", "lit r0, c4", &[[0.0, 2.0, 0.0, 3.0]]),
        [1.0, 0.0, 0.0, 1.0],
        "lit, x = 0",
    );
    // y = 0: no specular, even with w = 0 (0^0 would be 1).
    close(
        run("vs_2_0", "lit r0, c4", &[[0.5, 0.0, 0.0, 0.0]]),
        [1.0, 0.5, 0.0, 1.0],
        "lit, y = 0",
    );
    // y ≤ 0: no specular.
    close(
        run("vs_2_0", "lit r0, c4", &[[0.5, -2.0, 0.0, 3.0]]),
        [1.0, 0.5, 0.0, 1.0],
        "lit, y < 0",
    );
    // dst: (1, a.y·b.y, a.z, b.w).
    close(
        run("vs_2_0", "dst r0, r4, r5", &[]),
        [1.0, A[1] * B[1], A[2], B[3]],
        "dst",
    );
    // crs: the cross product of xyz (w not written: its mask may not include w).
    let crs = run("vs_2_0", "crs r0.xyz, r4, r5", &[]);
    close(
        crs,
        [
            A[1] * B[2] - A[2] * B[1],
            A[2] * B[0] - A[0] * B[2],
            A[0] * B[1] - A[1] * B[0],
            7.0,
        ],
        "crs",
    );
    // nrm: v / |v.xyz|, every component (w too).
    let n = 1.0 / dot(&A[..3], &A[..3]).sqrt();
    close(run("vs_2_0", "nrm r0, r4", &[]), each(|k| A[k] * n), "nrm");
}

#[test]
fn sincos_writes_cos_to_x_and_sin_to_y() {
    let x = 0.75f32;
    let rows = [[x, 0.0, 0.0, 0.0]];
    // vs_3_0: sincos r0.xy, src.
    let got = run("vs_3_0", "sincos r0.xy, c4.x", &rows);
    close(got, [x.cos(), x.sin(), 7.0, 7.0], "vs_3_0 sincos");
    // vs_2_0: with the SDK's two constant registers (D3DSINCOSCONST1/2).
    let got = run(
        "vs_2_0",
        "def c10, -1.5500992e-006, -2.1701389e-005, 0.0026041667, 0.00026041668
        def c11, -0.020833334, -0.12500000, 1.0, 0.50000000
        sincos r0.xy, c4.x, c10, c11",
        &rows,
    );
    close(got, [x.cos(), x.sin(), 7.0, 7.0], "vs_2_0 sincos");
    // Only the components written: y alone leaves x.
    let got = run("vs_3_0", "sincos r0.y, c4.x", &rows);
    close(got, [7.0, x.sin(), 7.0, 7.0], "sincos .y");
}

#[test]
fn matrix_instructions_take_one_row_per_register() {
    let rows = [
        [1.0, 2.0, 3.0, 4.0],
        [-1.0, 0.5, 0.0, 2.0],
        [0.25, -0.75, 1.5, -2.0],
        [3.0, 1.0, -1.0, 0.5],
    ];
    let v = A;
    let row = |r: usize, n: usize| dot(&v[..n], &rows[r][..n]);
    let cases: [(&str, [f32; 4]); 5] = [
        ("m4x4 r0, r4, c4", each(|r| row(r, 4))),
        (
            "m4x3 r0.xyz, r4, c4",
            [row(0, 4), row(1, 4), row(2, 4), 7.0],
        ),
        ("m3x4 r0, r4, c4", each(|r| row(r, 3))),
        (
            "m3x3 r0.xyz, r4, c4",
            [row(0, 3), row(1, 3), row(2, 3), 7.0],
        ),
        ("m3x2 r0.xy, r4, c4", [row(0, 3), row(1, 3), 7.0, 7.0]),
    ];
    for (body, expected) in cases {
        close(run("vs_2_0", body, &rows), expected, body);
    }
}

#[test]
fn setp_sets_the_predicate_per_component() {
    // vs_2_x: setp_gt p0, r4, r5, then a predicated move of 1s into the components it set.
    let got = run(
        "vs_2_x",
        "def c9, 1, 1, 1, 1
        setp_gt p0, r4, r5
        (p0) mov r0, c9",
        &[],
    );
    let expected = each(|k| if A[k] > B[k] { 1.0 } else { 7.0 });
    assert_eq!(got, expected);
    // A mask: only x and w set; the rest of p0 stays false.
    let got = run(
        "vs_2_x",
        "def c9, 1, 1, 1, 1
        setp_lt p0.xw, r5, r4
        (p0) mov r0, c9",
        &[],
    );
    assert_eq!(
        got,
        [
            if B[0] < A[0] { 1.0 } else { 7.0 },
            7.0,
            7.0,
            if B[3] < A[3] { 1.0 } else { 7.0 }
        ]
    );
}

/// `run` with boolean constants `bools` (`SetVertexShaderConstantB`).
fn run_with_bools(version: &str, body: &str, bools: &[bool]) -> [f32; 4] {
    let text = format!(
        "{version}
        dcl_position v0
        def c3, 7, 7, 7, 7
        def c9, 1, 1, 1, 1
        mov oPos, v0
        mov r0, c3
        mov r4, c0
        mov r5, c1
        {body}
        mov oT0, r0
        "
    );
    let program = assemble(&text).unwrap_or_else(|e| panic!("{body}: {e}"));
    let checked = check(&program, Stage::Vertex, &DeviceCaps::default())
        .unwrap_or_else(|e| panic!("{body}: {e}"));
    let constants = Constants {
        floats: vec![A, B, C, [7.0; 4]],
        bools: bools.to_vec(),
        ..Constants::default()
    };
    let out = Interpreter::new(&checked, FloatMode::Ieee)
        .unwrap_or_else(|e| panic!("{body}: {e}"))
        .run(&[[0.0; 4]], &constants)
        .unwrap_or_else(|e| panic!("{body}: {e}"));
    out.get(Semantic::new(Usage::TexCoord, 0))
        .unwrap_or_else(|| panic!("{body}: no output"))
}

#[test]
fn comparisons_follow_their_definitions() {
    // Per component: A < B, A > B, A > B, A > B (1.5/-0.5, -2/4, 0.25/2, 3/-1.25) and the
    // equal case against itself.
    type Comparison = fn(f32, f32) -> bool;
    let cases: [(&str, Comparison); 6] = [
        ("gt", |a, b| a > b),
        ("lt", |a, b| a < b),
        ("ge", |a, b| a >= b),
        ("le", |a, b| a <= b),
        ("eq", |a, b| a == b),
        ("ne", |a, b| a != b),
    ];
    for (cmp, f) in cases {
        for (second, other) in [("r5", B), ("r4", A)] {
            let got = run_with_bools(
                "vs_2_x",
                &format!("setp_{cmp} p0, r4, {second}\n(p0) mov r0, c9"),
                &[],
            );
            let expected = each(|k| if f(A[k], other[k]) { 1.0 } else { 7.0 });
            assert_eq!(got, expected, "setp_{cmp} against {second}");
            // ifc compares the first components.
            let got = run_with_bools(
                "vs_2_x",
                &format!("if_{cmp} r4.x, {second}.x\nmov r0, c9\nendif"),
                &[],
            );
            let taken = f(A[0], other[0]);
            assert_eq!(got, [if taken { 1.0 } else { 7.0 }; 4], "if_{cmp} {second}");
        }
    }
}

#[test]
fn boolean_constants_steer_if_and_default_to_false() {
    let body = "if b1\nmov r0, c9\nendif";
    assert_eq!(run_with_bools("vs_2_0", body, &[false, true]), [1.0; 4]);
    assert_eq!(run_with_bools("vs_2_0", body, &[true, false]), [7.0; 4]);
    // Never set: false.
    assert_eq!(run_with_bools("vs_2_0", body, &[]), [7.0; 4]);
    // `defb` wins over the application's value.
    let body = "defb b1, false\nif b1\nmov r0, c9\nendif";
    assert_eq!(run_with_bools("vs_2_0", body, &[false, true]), [7.0; 4]);
}

#[test]
fn relative_reads_outside_the_constants_read_zero() {
    // c[a0.x + 1] with a0.x = -2 (address -1) and a0.x = 300 (past c255): the zero register.
    for (a0, expected) in [(-2.0f32, [0.0; 4]), (300.0, [0.0; 4]), (-1.0, A), (0.0, B)] {
        let rows = [[a0, 0.0, 0.0, 0.0]];
        let got = run("vs_2_0", "mova a0.x, c4.x\nmov r0, c[a0.x + 1]", &rows);
        assert_eq!(got, expected, "a0.x = {a0}");
    }
}

#[test]
fn else_break_and_breakc_leave_where_d3d9_says() {
    // if/else on b0.
    let body = "def c10, 10, 10, 10, 10\nif b0\nmov r0, c9\nelse\nmov r0, c10\nendif";
    assert_eq!(run_with_bools("vs_2_0", body, &[true]), [1.0; 4]);
    assert_eq!(run_with_bools("vs_2_0", body, &[false]), [10.0; 4]);
    // rep 5 adding 1 to 7, leaving by breakc once x reaches 10: 10, not 12.
    let body = "def c10, 10, 10, 10, 10
        defi i0, 5, 0, 0, 0
        rep i0
        add r0.x, r0.x, c9.x
        break_ge r0.x, c10.x
        endrep";
    assert_eq!(run_with_bools("vs_2_x", body, &[])[0], 10.0);
    // break inside if b0: one iteration (8) when set, all five (12) when not.
    let body = "defi i0, 5, 0, 0, 0
        rep i0
        add r0.y, r0.y, c9.y
        if b0
        break
        endif
        endrep";
    assert_eq!(run_with_bools("vs_2_x", body, &[true])[1], 8.0);
    assert_eq!(run_with_bools("vs_2_x", body, &[false])[1], 12.0);
}
