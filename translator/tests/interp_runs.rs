//! How the reference interpreter runs a vertex, beside what each instruction computes
//! (`interp_opcodes`): the observed run (`Interpreter::run_observed`, each executed
//! instruction's reads, write, branch and aL as the differential test follows them), the
//! pre-3.0 output registers' values where the shader leaves them unwritten, the address
//! register's rounding per version, the instruction budget, and `ProcessVertices`' fetch of
//! each vertex at stream offset + stride × vertex + element offset. Expected values are
//! written from D3D9's definitions (the SDK pages named at each test), not computed with the
//! interpreter's code.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use d3d9_translator::asm::assemble;
use d3d9_translator::bytecode::{Opcode, RegisterFile, SrcModifier, Stage, Usage};
use d3d9_translator::check::{check, CheckedProgram, DeviceCaps};
use d3d9_translator::decl::{BindError, DeclMethod, DeclType, VertexDeclaration, VertexElement};
use d3d9_translator::interp::{
    process_vertices, Constants, InterpError, Interpreter, Stream, VertexTextures, Written,
};
use d3d9_translator::lift::FloatMode;
use d3d9_translator::signature::Semantic;

fn checked(text: &str) -> CheckedProgram {
    let program = assemble(text).unwrap_or_else(|e| panic!("{e}"));
    check(&program, Stage::Vertex, &DeviceCaps::default()).unwrap_or_else(|e| panic!("{e}"))
}

const TC0: Semantic = Semantic::new(Usage::TexCoord, 0);

/// One observed step, as the test compares it.
#[derive(Debug, Clone, PartialEq)]
struct Seen {
    index: usize,
    opcode: Opcode,
    reads: Vec<[f32; 4]>,
    write: Option<Written>,
    taken: Option<bool>,
    al: i32,
}

/// `run_observed` reports every executed instruction in execution order: its index, the
/// operands it read (after swizzle and modifier), what it computed and stored under which
/// mask, whether a branch was taken, and aL after it (`loop aL, i#`: aL = i#.y, then
/// + i#.z each iteration, the enclosing value back when the loop ends; SDK "loop - vs").
#[test]
fn observed_runs_report_each_executed_instruction() {
    let text = "vs_3_0
        dcl_position v0
        dcl_position o0
        dcl_texcoord0 o1
        defi i0, 2, 4, 3, 0
        def c0, 0.5, -2, 3, 0
        defb b1, true
        mov o0, v0
        mov_sat r0, c0
        loop aL, i0
            add r0.w, r0.w, c[aL].x
        endloop
        if b0
            mov r0.x, c0.y
        endif
        if b1
            mov r0.y, c0.x
        else
            mov r0.y, c0.z
        endif
        mov o1, r0
    ";
    let c = checked(text);
    let mut floats = vec![[0.0f32; 4]; 8];
    floats[4] = [10.0, 0.0, 0.0, 0.0];
    floats[7] = [20.0, 0.0, 0.0, 0.0];
    let constants = Constants {
        floats,
        ..Constants::default()
    };
    let input = [1.0, 2.0, 3.0, 4.0];
    let mut seen = Vec::new();
    let out = Interpreter::new(&c, FloatMode::Ieee)
        .expect("prepares")
        .run_observed(&[input], &constants, &VertexTextures::none(), &mut |step| {
            seen.push(Seen {
                index: step.index,
                opcode: step.instruction.opcode,
                reads: step.reads.iter().map(|r| r.1).collect(),
                write: step.write,
                taken: step.taken,
                al: step.loop_counter,
            });
        })
        .expect("runs");
    assert_eq!(out.get(TC0), Some([0.5, 0.5, 1.0, 30.0]));
    let all = [true; 4];
    let w_only = [false, false, false, true];
    let step = |index, opcode, reads: Vec<[f32; 4]>, write, taken, al| Seen {
        index,
        opcode,
        reads,
        write,
        taken,
        al,
    };
    let wrote = |computed, stored, mask| {
        Some(Written {
            computed,
            stored,
            mask,
        })
    };
    let expected = vec![
        step(0, Opcode::Dcl, vec![], None, None, 0),
        step(1, Opcode::Dcl, vec![], None, None, 0),
        step(2, Opcode::Dcl, vec![], None, None, 0),
        step(3, Opcode::Defi, vec![], None, None, 0),
        step(4, Opcode::Def, vec![], None, None, 0),
        step(5, Opcode::Defb, vec![], None, None, 0),
        step(
            6,
            Opcode::Mov,
            vec![input],
            wrote(input, input, all),
            None,
            0,
        ),
        // _sat clamps what is stored, not what was computed.
        step(
            7,
            Opcode::Mov,
            vec![[0.5, -2.0, 3.0, 0.0]],
            wrote([0.5, -2.0, 3.0, 0.0], [0.5, 0.0, 1.0, 0.0], all),
            None,
            0,
        ),
        // aL = 4, then 7; each add computes all four components, stores w.
        step(8, Opcode::Loop, vec![], None, None, 4),
        step(
            9,
            Opcode::Add,
            vec![[0.0; 4], [10.0; 4]],
            wrote([10.0; 4], [10.0; 4], w_only),
            None,
            4,
        ),
        step(10, Opcode::EndLoop, vec![], None, None, 7),
        step(
            9,
            Opcode::Add,
            vec![[10.0; 4], [20.0; 4]],
            wrote([30.0; 4], [30.0; 4], w_only),
            None,
            7,
        ),
        // The loop ends: aL is the enclosing value again (none: 0).
        step(10, Opcode::EndLoop, vec![], None, None, 0),
        // b0 is false (never set): the if is not taken and its block is skipped, endif too.
        step(11, Opcode::If, vec![], None, Some(false), 0),
        // b1 is true: the accept block runs, then else goes past the endif.
        step(14, Opcode::If, vec![], None, Some(true), 0),
        step(
            15,
            Opcode::Mov,
            vec![[0.5; 4]],
            wrote([0.5; 4], [0.5; 4], [false, true, false, false]),
            None,
            0,
        ),
        step(16, Opcode::Else, vec![], None, None, 0),
        step(
            19,
            Opcode::Mov,
            vec![[0.5, 0.5, 1.0, 30.0]],
            wrote([0.5, 0.5, 1.0, 30.0], [0.5, 0.5, 1.0, 30.0], all),
            None,
            0,
        ),
    ];
    assert_eq!(seen, expected);
}

/// Branches as the observer sees them: `callnz` and `breakc` taken or not, and a `ret`
/// from a subroutine called inside a loop.
#[test]
fn observed_branches_and_calls() {
    let text = "vs_3_0
        dcl_position v0
        dcl_position o0
        dcl_texcoord0 o1
        defb b1, true
        defi i0, 3, 0, 1, 0
        def c0, 1, 2, 0, 0
        mov o0, v0
        mov r0, c0.z
        rep i0
            callnz l1, b1
            callnz l2, !b1
            break_ge r0.x, c0.y
        endrep
        mov o1, r0
        ret
        label l1
        add r0.x, r0.x, c0.x
        ret
        label l2
        add r0.y, r0.y, c0.x
        ret
    ";
    let c = checked(text);
    let mut taken = Vec::new();
    let out = Interpreter::new(&c, FloatMode::Ieee)
        .expect("prepares")
        .run_observed(
            &[[0.0; 4]],
            &Constants::default(),
            &VertexTextures::none(),
            &mut |step| {
                if let Some(t) = step.taken {
                    taken.push((step.instruction.opcode, t));
                }
            },
        )
        .expect("runs");
    // Iteration 1: l1 adds 1 (r0.x = 1 < 2, no break); iteration 2: r0.x = 2, break.
    assert_eq!(out.get(TC0), Some([2.0, 0.0, 0.0, 0.0]));
    assert_eq!(
        taken,
        [
            (Opcode::CallNz, true),
            (Opcode::CallNz, false),
            (Opcode::Breakc, false),
            (Opcode::CallNz, true),
            (Opcode::CallNz, false),
            (Opcode::Breakc, true),
        ]
    );
}

/// Pre-3.0 output registers the shader does not write, or writes in part, keep their
/// initial values in the other components: oD0 (1, 1, 1, 1), oD1 (0, 0, 0, 1), oT#, oFog and
/// oPts 0 (Windows and Wine's `test_vs_output` defaults: an unwritten diffuse is white, an
/// unwritten specular black).
#[test]
fn pre_3_0_outputs_keep_their_defaults_where_unwritten() {
    let text = "vs_2_0
        dcl_position v0
        def c0, 0.25, 0.5, 0.75, 0.125
        mov oPos, v0
        mov oD0.y, c0.x
        mov oD1.z, c0.y
        mov oT0.x, c0.z
        mov oT1.w, c0.w
        mov oT7.y, c0.x
        mov oFog, c0.y
        mov oPts, c0.z
    ";
    let c = checked(text);
    let out = Interpreter::new(&c, FloatMode::Ieee)
        .expect("prepares")
        .run(&[[0.0; 4]], &Constants::default())
        .expect("runs");
    let get = |usage, index| out.get(Semantic::new(usage, index)).expect("an output");
    assert_eq!(get(Usage::Color, 0), [1.0, 0.25, 1.0, 1.0]);
    assert_eq!(get(Usage::Color, 1), [0.0, 0.0, 0.5, 1.0]);
    assert_eq!(get(Usage::TexCoord, 0), [0.75, 0.0, 0.0, 0.0]);
    assert_eq!(get(Usage::TexCoord, 1), [0.0, 0.0, 0.0, 0.125]);
    assert_eq!(get(Usage::TexCoord, 7), [0.0, 0.25, 0.0, 0.0]);
    assert_eq!(get(Usage::Fog, 0)[0], 0.5);
    assert_eq!(get(Usage::PSize, 0)[0], 0.75);
    // Every output is reported with its register.
    let registers: Vec<RegisterFile> = out.outputs.iter().map(|o| o.register.file).collect();
    assert!(registers.contains(&RegisterFile::AttrOut));
    assert!(registers.contains(&RegisterFile::TexCrdOut));
    assert!(registers.contains(&RegisterFile::RastOut));
}

/// The address register from a float: vs_1_1's `mov a0` floors, `mova` (vs_2_0, vs_3_0)
/// rounds to nearest (SDK "mova - vs": "rounded to the nearest integer"; Wine's `test_mova`
/// on Windows for vs_1_1's floor).
#[test]
fn address_register_rounding_per_version() {
    let mut floats = vec![[0.0f32; 4]; 16];
    for (k, row) in floats.iter_mut().enumerate() {
        *row = [k as f32; 4];
    }
    let constants = Constants {
        floats,
        ..Constants::default()
    };
    // c[a0.x + 8] after a0.x = 1.7 and a0.x = -1.3.
    for (version, write, expected) in [
        ("vs_1_1", "mov", [9.0, 6.0]),
        ("vs_2_0", "mova", [10.0, 7.0]),
        ("vs_3_0", "mova", [10.0, 7.0]),
    ] {
        let (decl, pos, out) = if version == "vs_3_0" {
            ("dcl_position o0\ndcl_texcoord0 o1", "o0", "o1")
        } else {
            ("", "oPos", "oT0")
        };
        let text = format!(
            "{version}
            dcl_position v0
            {decl}
            mov {pos}, v0
            {write} a0.x, v0.y
            mov {out}.x, c[a0.x + 8].x
            {write} a0.x, v0.z
            mov {out}.y, c[a0.x + 8].x
            mov {out}.zw, v0.w
            "
        );
        let c = checked(&text);
        let got = Interpreter::new(&c, FloatMode::Ieee)
            .expect("prepares")
            .run(&[[0.0, 1.7, -1.3, 0.0]], &constants)
            .expect("runs")
            .get(TC0)
            .expect("tc0");
        assert_eq!(&got[..2], &expected, "{version}");
    }
}

/// `ProcessVertices` fetches vertex n's element at stream offset + n × stride + the
/// element's offset (SDK `SetStreamSource`, `D3DVERTEXELEMENT9::Offset`).
#[test]
fn process_vertices_reads_at_offset_stride_and_element_offset() {
    let text = "vs_2_0
        dcl_position v0
        dcl_texcoord0 v1
        mov oPos, v0
        mov oT0, v1
    ";
    let c = checked(text);
    let element = |offset, usage| VertexElement {
        stream: 0,
        offset,
        ty: DeclType::Float1,
        method: DeclMethod::Default,
        usage,
        usage_index: 0,
    };
    let decl = VertexDeclaration::from_elements(&[
        element(4, Usage::Position),
        element(12, Usage::TexCoord),
    ])
    .expect("declaration");
    // Floats 0, 1, 2, …: float k sits at byte 4k.
    let data: Vec<u8> = (0..64).flat_map(|k| (k as f32).to_le_bytes()).collect();
    let stream = Stream {
        data: &data,
        offset: 8,
        stride: 20,
    };
    let out = process_vertices(
        &c,
        &decl,
        &[stream],
        &Constants::default(),
        2,
        2,
        FloatMode::Ieee,
    )
    .expect("processes");
    // Vertex 2: bytes 8 + 40 + 4 = 52 (float 13) and 8 + 40 + 12 = 60 (float 15); vertex 3:
    // 20 bytes (5 floats) on.
    let x = |v: usize, usage| out[v].get(Semantic::new(usage, 0)).expect("output")[0];
    assert_eq!(x(0, Usage::Position), 13.0);
    assert_eq!(x(0, Usage::TexCoord), 15.0);
    assert_eq!(x(1, Usage::Position), 18.0);
    assert_eq!(x(1, Usage::TexCoord), 20.0);
    let err = process_vertices(
        &c,
        &decl,
        &[stream],
        &Constants::default(),
        12,
        1,
        FloatMode::Ieee,
    )
    .expect_err("past the data");
    assert!(
        matches!(err, InterpError::OutOfRange { vertex: 12, .. }),
        "{err}"
    );
    // The draw's stream checks (`decl::bind_program`) see the stream's stride: element 1
    // ends at byte 16, past a stride of 12, and the draw (so `ProcessVertices`) is refused.
    let narrow = Stream {
        stride: 12,
        ..stream
    };
    let err = process_vertices(
        &c,
        &decl,
        &[narrow],
        &Constants::default(),
        0,
        1,
        FloatMode::Ieee,
    )
    .expect_err("stride too small");
    assert_eq!(
        err,
        InterpError::Bind(BindError::StrideTooSmall {
            stream: 0,
            stride: 12,
            element: 1,
            end: 16
        })
    );
}

/// The interpreter runs vertex shaders only: a pixel shader (here ps_1_1 with the `_bx2`
/// and `1 -` source modifiers, which exist only in ps_1_x) is refused before it runs, so
/// the ps_1_x modifiers never reach it (the checker refuses them in every vertex shader).
#[test]
fn pixel_shaders_are_refused() {
    let program = assemble("ps_1_1\nmov r0, c0_bx2\nadd r0, r0, 1 - c1\n").expect("assembles");
    let pixel = check(&program, Stage::Pixel, &DeviceCaps::default()).expect("checks");
    let err = Interpreter::new(&pixel, FloatMode::Ieee).expect_err("a pixel shader");
    assert!(
        matches!(err, InterpError::NotVertexShader { version } if version == program.version),
        "{err}"
    );
    // The assembler refuses `_bx2` in a vertex shader; patched into the tokens, the checker
    // refuses each ps_1_x modifier.
    let mut vertex = assemble("vs_2_0\ndcl_position v0\nmov oPos, c0\n").expect("assembles");
    assert!(check(&vertex, Stage::Vertex, &DeviceCaps::default()).is_ok());
    for modifier in [
        SrcModifier::Bias,
        SrcModifier::BiasNeg,
        SrcModifier::Sign,
        SrcModifier::SignNeg,
        SrcModifier::Comp,
        SrcModifier::X2,
        SrcModifier::X2Neg,
    ] {
        vertex.instructions[1].src[0].modifier = modifier;
        assert!(
            check(&vertex, Stage::Vertex, &DeviceCaps::default()).is_err(),
            "{modifier:?}"
        );
    }
}

/// Relative addresses outside a register file: reads of `v[aL + n]` and `c[a0.x + n]` past
/// either end read 0, and writes to `o[aL + n]` past the outputs are dropped (the lifter's
/// rule for what D3D9 leaves undefined, `docs/decisions.md`); inside, the register named.
#[test]
fn relative_addresses_outside_the_file_read_zero_and_drop_writes() {
    let text = "vs_3_0
        dcl_position v0
        dcl_texcoord0 v15
        dcl_position o0
        dcl_texcoord0 o1
        dcl_texcoord1 o11
        defi i0, 3, 15, 1, 0
        defi i1, 2, -2, 1, 0
        defi i2, 3, 11, 1, 0
        def c0, 0, 0, 0, 0
        mov o0, v0
        mov r0, c0
        loop aL, i0
            add r0, r0, v[aL + 0]
        endloop
        loop aL, i1
            add r0, r0, v[aL + 0]
        endloop
        mova a0.x, v0.x
        add r0.x, r0.x, c[a0.x + 0].x
        add r0.y, r0.y, c[a0.x + 255].y
        mov o1, r0
        loop aL, i2
            mov o[aL + 0], v15
        endloop
    ";
    let c = checked(text);
    let constants = Constants {
        floats: vec![[100.0; 4]; 256],
        ..Constants::default()
    };
    let mut inputs = [[0.0f32; 4]; 16];
    inputs[0] = [-1.0, 0.0, 0.0, 1.0];
    inputs[15] = [1.0, 2.0, 3.0, 4.0];
    let out = Interpreter::new(&c, FloatMode::Ieee)
        .expect("prepares")
        .run(&inputs, &constants)
        .expect("runs");
    // v15 once (aL = 15; 16 and 17 are past v15, -2 and -1 before v0); with a0.x = -1,
    // c[a0.x + 0] is before c0 (0) and c[a0.x + 255] is c254 (100).
    assert_eq!(out.get(TC0), Some([1.0, 102.0, 3.0, 4.0]));
    // o11 = v15; o12 and o13 do not exist.
    assert_eq!(
        out.get(Semantic::new(Usage::TexCoord, 1)),
        Some([1.0, 2.0, 3.0, 4.0])
    );
}

/// vs_3_0's source modifiers: `-r` negates, `r_abs` is |r|, `-r_abs` is −|r| (SDK "Source
/// Register Modifiers").
#[test]
fn vs_3_0_source_modifiers() {
    let text = "vs_3_0
        dcl_position o0
        dcl_texcoord0 o1
        dcl_texcoord1 o2
        dcl_texcoord2 o3
        def c0, 1.5, -2, 0.25, -3
        mov o0, c0
        mov o1, -c0
        mov o2, c0_abs
        mov o3, -c0_abs
    ";
    let c = checked(text);
    let out = Interpreter::new(&c, FloatMode::Ieee)
        .expect("prepares")
        .run(&[], &Constants::default())
        .expect("runs");
    let tc = |n| out.get(Semantic::new(Usage::TexCoord, n)).expect("output");
    assert_eq!(tc(0), [-1.5, 2.0, -0.25, 3.0]);
    assert_eq!(tc(1), [1.5, 2.0, 0.25, 3.0]);
    assert_eq!(tc(2), [-1.5, -2.0, -0.25, -3.0]);
}
