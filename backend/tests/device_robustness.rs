//! Bad input never panics the device: random sequences of device calls (objects of random
//! sizes and formats, streams with random strides, offsets and frequencies, random
//! declarations and FVF codes, raw render and sampler states, constants, viewports, clears,
//! and draws of every type with random ranges) return `Ok` or one of the two refusals D3D9
//! has for them: `D3DERR_INVALIDCALL` (`DeviceError::is_invalid_call`) or unsupported (legal
//! D3D9 this device does not do); a translation, link or GPU error is a device bug and fails
//! the test. Reading the back buffer afterwards works. A deterministic generator, so a
//! failure reproduces.

#![allow(clippy::panic)] // a failing test says why

use d3d9_backend::device::{
    ClearFlags, Device, DeviceParams, Format, IndexBufferId, IndexFormat, PixelShaderId,
    PrimitiveType, Rect, TextureId, VertexBufferId, VertexShaderId, Viewport,
};
use d3d9_backend::DeviceError;
use d3d9_harness::Indices;
use d3d9_translator::asm::assemble_tokens;
use d3d9_translator::bytecode::Usage;
use d3d9_translator::decl::{DeclType, VertexElement};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

#[derive(Clone, Debug)]
enum Op {
    CreateVertexBuffer(u32),
    CreateIndexBuffer(u32, bool),
    UpdateVertexBuffer(usize, u32, u8),
    SetStream(usize, Option<usize>, u32, u32),
    SetFreq(usize, u32),
    SetIndices(Option<usize>),
    SetFvf(u32),
    SetDeclaration(Vec<(u16, u16, u8, u8, u8)>),
    SetVertexShader(Option<usize>),
    SetPixelShader(Option<usize>),
    SetConstants(usize, usize),
    RenderState(u32, u32),
    SamplerState(u32, u32, u32),
    CreateTexture(u32, u32, u32, usize),
    SetTexture(u32, Option<usize>),
    Viewport(u32, u32, u32, u32),
    Clear(i32, i32, i32, i32, bool),
    Draw(usize, u32, u32),
    DrawIndexed(usize, i32, u32, u32, u32, u32),
    DrawUp(usize, u32, u16, u32),
    DrawIndexedUp(usize, u32, u32, u32, u8, u16, u32),
}

fn op() -> impl Strategy<Value = Op> {
    let small = 0u32..64;
    prop_oneof![
        (0u32..300).prop_map(Op::CreateVertexBuffer),
        (0u32..64, any::<bool>()).prop_map(|(s, w)| Op::CreateIndexBuffer(s, w)),
        (0usize..4, 0u32..300, any::<u8>()).prop_map(|(b, o, l)| Op::UpdateVertexBuffer(b, o, l)),
        (
            0usize..18,
            proptest::option::of(0usize..4),
            0u32..40,
            0u32..48
        )
            .prop_map(|(n, b, o, s)| Op::SetStream(n, b, o, s)),
        (
            0usize..3,
            prop_oneof![
                Just(1u32),
                Just(0x4000_0003),
                Just(0x8000_0001),
                Just(0x8000_0002),
                Just(0xC000_0001),
                Just(0x4000_0000),
                any::<u32>()
            ]
        )
            .prop_map(|(n, v)| Op::SetFreq(n, v)),
        proptest::option::of(0usize..3).prop_map(Op::SetIndices),
        prop_oneof![
            Just(0x002u32),
            Just(0x042),
            Just(0x044),
            Just(0x144),
            Just(0x102),
            any::<u32>()
        ]
        .prop_map(Op::SetFvf),
        proptest::collection::vec((0u16..3, 0u16..40, 0u8..18, 0u8..14, 0u8..3), 0..4)
            .prop_map(Op::SetDeclaration),
        proptest::option::of(0usize..4).prop_map(Op::SetVertexShader),
        proptest::option::of(0usize..3).prop_map(Op::SetPixelShader),
        (0usize..300, 0usize..4).prop_map(|(s, c)| Op::SetConstants(s, c)),
        (0u32..212, prop_oneof![0u32..10, any::<u32>()]).prop_map(|(s, v)| Op::RenderState(s, v)),
        (prop_oneof![0u32..20, 255u32..262], 0u32..14, 0u32..8)
            .prop_map(|(s, t, v)| Op::SamplerState(s, t, v)),
        (0u32..9, 0u32..9, 0u32..5, 0usize..6)
            .prop_map(|(w, h, l, f)| Op::CreateTexture(w, h, l, f)),
        (
            prop_oneof![0u32..20, 255u32..262],
            proptest::option::of(0usize..3)
        )
            .prop_map(|(s, t)| Op::SetTexture(s, t)),
        (0u32..700, 0u32..500, 0u32..700, 0u32..500)
            .prop_map(|(x, y, w, h)| Op::Viewport(x, y, w, h)),
        (
            -10i32..700,
            -10i32..500,
            -10i32..700,
            -10i32..500,
            any::<bool>()
        )
            .prop_map(|(l, t, r, b, z)| Op::Clear(l, t, r, b, z)),
        (0usize..6, small.clone(), small.clone()).prop_map(|(p, s, c)| Op::Draw(p, s, c)),
        (0usize..6, -5i32..5, 0u32..8, 0u32..8, 0u32..8, 0u32..8)
            .prop_map(|(p, b, m, n, s, c)| Op::DrawIndexed(p, b, m, n, s, c)),
        (0usize..6, 0u32..8, 0u16..400, 0u32..40).prop_map(|(p, c, l, s)| Op::DrawUp(p, c, l, s)),
        (
            0usize..6,
            0u32..8,
            0u32..8,
            0u32..8,
            any::<u8>(),
            0u16..400,
            0u32..40
        )
            .prop_map(|(p, m, n, c, i, l, s)| Op::DrawIndexedUp(p, m, n, c, i, l, s)),
    ]
}

const PRIMITIVES: [PrimitiveType; 6] = [
    PrimitiveType::PointList,
    PrimitiveType::LineList,
    PrimitiveType::LineStrip,
    PrimitiveType::TriangleList,
    PrimitiveType::TriangleStrip,
    PrimitiveType::TriangleFan,
];

const VERTEX_SHADERS: [&str; 4] = [
    "vs_1_1\ndcl_position v0\nmov oPos, v0\nmov oD0, c0\n",
    "vs_2_0\ndcl_position v0\ndcl_color v1\ndcl_texcoord v2\nmov oPos, v0\nmov oD0, v1\nmov oT0, v2\nmov oPts, c1.x\n",
    "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_texcoord o1\ndcl_2d s0\ntexldl r0, c0, s0\nmov o0, v0\nmov o1, r0\n",
    "vs_3_0\ndcl_position v0\ndcl_blendweight v1\ndcl_position o0\ndcl_color o1\ndcl_fog o2.x\nmov o0, v0\nmov o1, v1\nmov o2.x, v1.y\n",
];

const PIXEL_SHADERS: [&str; 3] = [
    "ps_1_1\ntex t0\nmul r0, t0, v0\n",
    "ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n",
    "ps_3_0\ndcl_texcoord v0\ndcl_color v1\ndcl_cube s1\ntexld r0, v0, s1\nadd oC0, r0, v1\n",
];

struct World {
    dev: Device,
    vbs: Vec<VertexBufferId>,
    ibs: Vec<IndexBufferId>,
    textures: Vec<TextureId>,
    vs: Vec<VertexShaderId>,
    ps: Vec<PixelShaderId>,
    /// Draw calls that succeeded, and all calls.
    drawn: usize,
    calls: usize,
    ok: usize,
    /// Calls refused as `D3DERR_INVALIDCALL` and as unsupported.
    invalid: usize,
    unsupported: usize,
    /// Errors of any other kind (device bugs), with the call.
    other: Vec<String>,
}

/// Whether `e` is legal D3D9 the device does not do (as opposed to the application's mistake).
fn is_unsupported(e: &DeviceError) -> bool {
    match e {
        DeviceError::Unsupported { .. } => true,
        DeviceError::Check { source, .. } => !source.is_invalid(),
        DeviceError::Bind { source, .. } => source.is_unsupported(),
        _ => false,
    }
}

fn apply(w: &mut World, op: &Op) {
    let dev = &mut w.dev;
    let pick = |v: usize, n: usize| v.checked_rem(n);
    let is_draw = matches!(
        op,
        Op::Draw(..) | Op::DrawIndexed(..) | Op::DrawUp(..) | Op::DrawIndexedUp(..)
    );
    // Every call's result is either fine or a typed error; only panics fail the test.
    let result = match op.clone() {
        Op::CreateVertexBuffer(size) => dev.create_vertex_buffer(size).map(|id| w.vbs.push(id)),
        Op::CreateIndexBuffer(size, wide) => {
            let format = if wide {
                IndexFormat::Index32
            } else {
                IndexFormat::Index16
            };
            dev.create_index_buffer(size, format)
                .map(|id| w.ibs.push(id))
        }
        Op::UpdateVertexBuffer(b, offset, len) => match pick(b, w.vbs.len()) {
            Some(i) => dev.update_vertex_buffer(w.vbs[i], offset, &vec![0x3f; len as usize]),
            None => Ok(()),
        },
        Op::SetStream(n, b, offset, stride) => {
            let buffer = b.and_then(|b| pick(b, w.vbs.len())).map(|i| w.vbs[i]);
            dev.set_stream_source(n, buffer, offset, stride)
        }
        Op::SetFreq(n, v) => dev.set_stream_source_freq(n, v),
        Op::SetIndices(b) => {
            let buffer = b.and_then(|b| pick(b, w.ibs.len())).map(|i| w.ibs[i]);
            dev.set_indices(buffer)
        }
        Op::SetFvf(fvf) => dev.set_fvf(fvf),
        Op::SetDeclaration(elements) => {
            let elements: Vec<VertexElement> = elements
                .iter()
                .filter_map(|&(stream, offset, ty, usage, index)| {
                    let ty = DeclType::from_raw(ty)?;
                    let usage = Usage::from_raw(u32::from(usage))?;
                    Some(VertexElement::new(stream, offset, ty, usage, index))
                })
                .collect();
            dev.create_vertex_declaration(&elements)
                .and_then(|d| dev.set_vertex_declaration(Some(d)))
        }
        Op::SetVertexShader(s) => dev.set_vertex_shader(s.map(|s| w.vs[s % w.vs.len()])),
        Op::SetPixelShader(s) => dev.set_pixel_shader(s.map(|s| w.ps[s % w.ps.len()])),
        Op::SetConstants(start, count) => {
            let values = vec![[f32::NAN, 1.0e30, -0.0, 8.0]; count];
            dev.set_vertex_shader_constant_f(start, &values)
                .and_then(|()| dev.set_pixel_shader_constant_f(start, &values))
        }
        Op::RenderState(state, value) => dev.set_render_state_raw(state, value),
        Op::SamplerState(s, t, v) => dev.set_sampler_state_raw(s, t, v),
        Op::CreateTexture(width, height, levels, format) => {
            let format = [
                Format::A8R8G8B8,
                Format::X8R8G8B8,
                Format::R32F,
                Format::A16B16G16R16F,
                Format::A32B32G32R32F,
                Format::D24S8,
            ][format];
            let made = if width % 3 == 0 {
                dev.create_cube_texture(width, levels, format)
            } else {
                dev.create_texture(width, height, levels, format)
            };
            made.map(|id| w.textures.push(id))
        }
        Op::SetTexture(s, t) => {
            let texture = t
                .and_then(|t| pick(t, w.textures.len()))
                .map(|i| w.textures[i]);
            dev.set_texture(s, texture)
        }
        Op::Viewport(x, y, width, height) => dev.set_viewport(Viewport {
            x,
            y,
            width,
            height,
            min_z: 0.0,
            max_z: 1.0,
        }),
        Op::Clear(left, top, right, bottom, all) => {
            let rect = Rect {
                left,
                top,
                right,
                bottom,
            };
            let flags = if all {
                ClearFlags::ALL
            } else {
                ClearFlags::TARGET
            };
            dev.clear(&[rect], flags, 0xff10_2030, 0.5, 1)
        }
        Op::Draw(p, start, count) => dev.draw_primitive(PRIMITIVES[p], start, count),
        Op::DrawIndexed(p, base, min, num, start, count) => {
            dev.draw_indexed_primitive(PRIMITIVES[p], base, min, num, start, count)
        }
        Op::DrawUp(p, count, len, stride) => {
            dev.draw_primitive_up(PRIMITIVES[p], count, &vec![0x3e; usize::from(len)], stride)
        }
        Op::DrawIndexedUp(p, min, num, count, index, len, stride) => {
            let indices = vec![u16::from(index); 24];
            dev.draw_indexed_primitive_up(
                PRIMITIVES[p],
                min,
                num,
                count,
                Indices::U16(&indices),
                &vec![0x3e; usize::from(len)],
                stride,
            )
        }
    };
    w.calls += 1;
    match result {
        Ok(()) => {
            w.ok += 1;
            w.drawn += usize::from(is_draw);
        }
        Err(e) if e.is_invalid_call() => w.invalid += 1,
        Err(e) if is_unsupported(&e) => w.unsupported += 1,
        Err(e) => w.other.push(format!("{op:?}: {e}")),
    }
}

#[test]
fn gpu_random_call_sequences_never_panic() {
    let mut dev = Device::new(DeviceParams::default())
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let tokens = |t: &str| assemble_tokens(t).unwrap_or_else(|e| panic!("{e}\n{t}"));
    let vs = VERTEX_SHADERS
        .iter()
        .map(|t| {
            dev.create_vertex_shader(&tokens(t))
                .unwrap_or_else(|e| panic!("{e}"))
        })
        .collect();
    let ps = PIXEL_SHADERS
        .iter()
        .map(|t| {
            dev.create_pixel_shader(&tokens(t))
                .unwrap_or_else(|e| panic!("{e}"))
        })
        .collect();
    let mut world = World {
        dev,
        vbs: Vec::new(),
        ibs: Vec::new(),
        textures: Vec::new(),
        vs,
        ps,
        drawn: 0,
        calls: 0,
        ok: 0,
        invalid: 0,
        unsupported: 0,
        other: Vec::new(),
    };
    let config = Config {
        cases: 200,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    let world = std::cell::RefCell::new(&mut world);
    let result = runner.run(&proptest::collection::vec(op(), 1..40), |ops| {
        let mut w = world.borrow_mut();
        for op in &ops {
            apply(&mut w, op);
        }
        // The device still reads back.
        let back = w.dev.back_buffer();
        w.dev
            .set_render_target(0, Some(back))
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        w.dev
            .pixel(0, 0)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    // The sequences reach deep: many calls succeed, draws among them.
    let w = world.borrow();
    eprintln!(
        "{} calls, {} succeeded, {} draws made, {} D3DERR_INVALIDCALL, {} unsupported",
        w.calls, w.ok, w.drawn, w.invalid, w.unsupported
    );
    assert!(
        w.other.is_empty(),
        "{} calls failed with neither D3DERR_INVALIDCALL nor unsupported:\n{}",
        w.other.len(),
        w.other.join("\n")
    );
    assert_eq!(w.ok + w.invalid + w.unsupported, w.calls);
    assert!(
        w.calls > 2000 && w.ok > w.calls / 3 && w.drawn >= 50,
        "{} / {} / {}",
        w.calls,
        w.ok,
        w.drawn
    );
}
