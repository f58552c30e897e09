//! Software vertex processing on the GPU: a vs_3_0 shader lifted with
//! `software_vertex_processing` reads 8192 `c#` from a read-only storage buffer, 2048 `i#` and
//! 2048 `b#`, all set through [`VertexConstants::new`]`(VertexProcessing::Software)`, and is
//! run through [`Harness::vertex_outputs`]. Expected values are computed on the CPU from the same
//! constants: a direct read of `c2047` (the last register the `c#` file names directly;
//! direct reads past c2047 use the CONST2–CONST4 register files, which come later), relative
//! reads `c300[a0.x]` and `c2000[a0.x]` that land past 255, on 8191, and out of range (≥ 8192
//! or negative: D3D9 reads zero), `rep i100`, `loop aL, i2000` reading `c100[aL]`, and
//! `if b1000` / `if b1001`.
//!
//! GPU tests fail, not skip, when no adapter exists (unless `D3D9_ALLOW_NO_GPU=1`).

use std::error::Error;

use d3d9_backend::device::VertexConstants;
use d3d9_backend::Gpu;
use d3d9_harness::{Harness, ShaderStage, VertexBuffer, VertexProbe};
use d3d9_translator::asm::assemble;
use d3d9_translator::bytecode::Stage;
use d3d9_translator::bytecode::{RegisterFile, Usage};
use d3d9_translator::check::{check, DeviceCaps};
use d3d9_translator::decl::VertexProcessing;
use d3d9_translator::lift::{translate_vertex_shader, VertexShaderOptions};
use d3d9_translator::signature::Semantic;

const SHADER: &str = "vs_3_0
dcl_position o0
dcl_texcoord0 o1
dcl_texcoord1 o2
dcl_texcoord2 o3
dcl_texcoord3 o4
dcl_texcoord4 o5
dcl_texcoord5 o6
dcl_texcoord0 v0
def c95, 0.0, 0.0, 0.5, 1.0
def c94, 1.0, 1.0, 1.0, 1.0
def c93, 0.0, 0.0, 0.0, 0.0
mov o0, c95
mov o1, c2047
mova a0.x, v0.x
mov o2, c300[a0.x]
mov o3, c2000[a0.x]
mov r0, c93
rep i1
add r0, r0, c94
endrep
mov o4, r0
mov r1, c93
loop aL, i2
add r1, r1, c100[aL]
endloop
mov o5, r1
mov r2, c2002
if b1
mov r2, c2001
endif
if b2
mov r2, c2003
endif
mov o6, r2
";

/// `rep i100`: five iterations.
const REP: [i32; 4] = [5, 0, 0, 0];
/// `loop aL, i2000`: three iterations, aL = 7000, 7010, 7020.
const LOOP: [i32; 4] = [3, 7000, 10, 0];

/// The application's value of `c#n` (none is zero, none is −0).
fn app_value(n: usize) -> [f32; 4] {
    let x = n as f32;
    [x, x + 0.5, -x - 1.0, 1000.0 + x]
}

/// What the shader reads from `c#n`: the `def`s over the application's values, zero out of
/// range.
fn register(n: i64) -> [f32; 4] {
    match n {
        95 => [0.0, 0.0, 0.5, 1.0],
        94 => [1.0; 4],
        93 => [0.0; 4],
        0..8192 => app_value(n as usize),
        _ => [0.0; 4],
    }
}

fn add(a: [f32; 4], b: [f32; 4]) -> [f32; 4] {
    std::array::from_fn(|k| a[k] + b[k])
}

#[test]
fn software_vertex_processing_constants() -> Result<(), Box<dyn Error>> {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    // The assembler knows the hardware register counts (i#, b# < 16), so the shader names
    // i1, i2, b1, b2 and the operands are renumbered to i100, i2000, b1000, b1001 here.
    let mut program = assemble(SHADER)?;
    for src in program.instructions.iter_mut().flat_map(|i| &mut i.src) {
        src.reg.index = match (src.reg.file, src.reg.index) {
            (RegisterFile::ConstInt, 1) => 100,
            (RegisterFile::ConstInt, 2) => 2000,
            (RegisterFile::ConstBool, 1) => 1000,
            (RegisterFile::ConstBool, 2) => 1001,
            (_, index) => index,
        };
    }
    let checked = check(&program, Stage::Vertex, &DeviceCaps::software())?;
    let shader = translate_vertex_shader(&checked, &VertexShaderOptions::default())?;
    let iface = &shader.interface;
    let floats = iface.float_constants.ok_or("the shader reads no c#")?;
    assert!(floats.storage, "8192 c# live in a storage buffer");
    assert_eq!(floats.registers, 8192);

    let mut constants = VertexConstants::new(VertexProcessing::Software);
    let values: Vec<[f32; 4]> = (0..8192).map(app_value).collect();
    constants
        .set_f(0, &values)
        .set_i(100, &[REP])
        .set_i(2000, &[LOOP])
        .set_b(999, &[false, true, false]);
    let buffers = constants.buffers(iface, (1, 1))?;
    assert!(buffers.iter().any(|b| b.storage));
    let uniforms: Vec<_> = buffers.iter().map(d3d9_harness::Uniform::from).collect();

    // a0.x per vertex: c300[a0.x] and c2000[a0.x] land on 300 + a and 2000 + a (a = 6191
    // reaches c8191, the last; a = 6192 and a < -300 fall outside and read zero).
    let addresses: [f32; 8] = [0.0, 6191.0, 6192.0, -1.0, -205.0, -301.0, 1000.0, -2301.0];
    let inputs: Vec<[f32; 4]> = addresses.iter().map(|&a| [a, 0.0, 0.0, 0.0]).collect();
    let attributes = [wgpu::VertexAttribute {
        format: wgpu::VertexFormat::Float32x4,
        offset: 0,
        shader_location: iface
            .inputs
            .first()
            .and_then(|i| i.location)
            .ok_or("v0 has no location")?,
    }];
    let vertex_buffers = [VertexBuffer {
        layout: wgpu::VertexBufferLayout {
            array_stride: 16,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &attributes,
        },
        data: bytemuck::cast_slice(&inputs),
    }];
    let outputs = gpu.vertex_outputs(&VertexProbe {
        vertex_buffers: &vertex_buffers,
        uniforms: &uniforms,
        ..VertexProbe::new(ShaderStage::naga(&shader.module), inputs.len() as u32)
    })?;

    let location = |k: u8| -> Result<u32, Box<dyn Error>> {
        Ok(iface
            .output(Semantic::new(Usage::TexCoord, k))
            .and_then(|o| o.location)
            .ok_or(format!("no texcoord{k} output"))?)
    };
    let rep_sum = (0..REP[0]).fold([0.0; 4], |sum, _| add(sum, [1.0; 4]));
    let loop_sum = (0..LOOP[0]).fold([0.0; 4], |sum, i| {
        add(sum, register(100 + i64::from(LOOP[1] + i * LOOP[2])))
    });
    let mut failures = Vec::new();
    for (vertex, (&a, got)) in addresses.iter().zip(&outputs).enumerate() {
        let a = a as i64;
        let want = [
            ("c2047", register(2047)),
            ("c300[a0.x]", register(300 + a)),
            ("c2000[a0.x]", register(2000 + a)),
            ("rep i100", rep_sum),
            ("loop aL, i2000: c100[aL]", loop_sum),
            ("if b1000 / if b1001", register(2001)),
        ];
        for (k, (what, want)) in (0u8..).zip(want) {
            let got = got.get(&location(k)?).ok_or("missing output")?;
            if got[..] != want[..] {
                failures.push(format!(
                    "vertex {vertex} (a0.x = {a}) {what}: got {got:?}, want {want:?}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    Ok(())
}
