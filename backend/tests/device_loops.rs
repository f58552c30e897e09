//! Loops whose `i#` changes between draws draw right each time. D3D9 runs `loop aL, i#`
//! `i#.x` times with aL from `i#.y` stepping by `i#.z`, and `rep i#` `i#.x` times, with the
//! values set last. The device specialises a pair's pipeline on them (the loop compiled with
//! constant count, start and step) for the pair's first `MAX_LOOP_VARIANTS` (8) distinct
//! value sets, and draws later sets with the generic pipeline, which reads the uniform.

#![allow(clippy::panic)] // a failing test says why

#[allow(dead_code)]
mod device_common;
use d3d9_backend::device::{ClearFlags, CullMode, PrimitiveType, RenderState};
use d3d9_translator::bytecode::Usage;
use d3d9_translator::decl::{DeclType, VertexElement};
use device_common::{device, floats, ok, tokens};

/// The vertex stage sums `c[aL + 1]` over `loop aL, i0` into red (c[n] = (n / 255, 0, 0, 0)).
const VS: &str = "vs_3_0
dcl_position v0
dcl_position o0
dcl_color o1
mov r0, c0
loop aL, i0
add r0, r0, c[aL + 1]
endloop
mov o0, v0
mov o1, r0
";

/// The pixel stage adds c1 (10 / 255 green) `i1.x` times.
const PS: &str = "ps_3_0
dcl_color v0
mov r0, v0
rep i1
add r0, r0, c1
endrep
mov oC0, r0
";

/// (count, start, step) of the vertex loop and the pixel `rep` count per draw: 12 distinct
/// sets (zero, negative and zero steps among them), then the first ones again.
const DRAWS: [([i32; 3], i32); 14] = [
    ([4, 0, 1], 0),
    ([3, 2, 3], 1),
    ([0, 5, 1], 2),
    ([3, 10, -2], 3),
    ([2, 7, 0], 4),
    ([1, 19, 1], 5),
    ([4, 1, 2], 6),
    ([2, 3, 5], 7),
    // Past the bound: the generic pipeline.
    ([3, 0, 4], 8),
    ([4, 6, 1], 0),
    ([1, 0, 1], 2),
    ([2, 9, -4], 1),
    // Specialised again, and generic again.
    ([4, 0, 1], 0),
    ([3, 0, 4], 8),
];

/// D3D9's loop: the sum of aL + 1 over the iterations.
fn red(count: i32, start: i32, step: i32) -> i32 {
    (0..count).map(|j| start + j * step + 1).sum()
}

#[test]
fn gpu_loops_draw_right_as_their_integer_constants_change() {
    let mut dev = device();
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    let decl = ok(dev.create_vertex_declaration(&[VertexElement::new(
        0,
        0,
        DeclType::Float3,
        Usage::Position,
        0,
    )]));
    let vs = ok(dev.create_vertex_shader(&tokens(VS)));
    let ps = ok(dev.create_pixel_shader(&tokens(PS)));
    let vb =
        ok(dev.create_vertex_buffer_with(&floats(&[
            -1.0, -1.0, 0.5, -1.0, 1.0, 0.5, 1.0, -1.0, 0.5,
        ])));
    ok(dev.set_vertex_declaration(Some(decl)));
    ok(dev.set_stream_source(0, Some(vb), 0, 12));
    ok(dev.set_vertex_shader(Some(vs)));
    ok(dev.set_pixel_shader(Some(ps)));
    let c: Vec<[f32; 4]> = (0..=40)
        .map(|n| [n as f32 / 255.0, 0.0, 0.0, 1.0])
        .collect();
    ok(dev.set_vertex_shader_constant_f(0, &c));
    ok(dev.set_pixel_shader_constant_f(1, &[[0.0, 10.0 / 255.0, 0.0, 0.0]]));
    let mut pipelines = Vec::new();
    for (k, &([count, start, step], reps)) in DRAWS.iter().enumerate() {
        ok(dev.set_vertex_shader_constant_i(0, &[[count, start, step, 0]]));
        ok(dev.set_pixel_shader_constant_i(1, &[[reps, 0, 1, 0]]));
        ok(dev.clear(&[], ClearFlags::TARGET, 0, 1.0, 0));
        ok(dev.draw_primitive(PrimitiveType::TriangleList, 0, 1));
        let got = ok(dev.pixel(10, 470));
        let (r, g) = (((got >> 16) & 0xff) as i32, ((got >> 8) & 0xff) as i32);
        let want = (red(count, start, step), 10 * reps);
        assert!(
            (r - want.0).abs() <= 1 && (g - want.1).abs() <= 1,
            "draw {k}: i0 {:?}, i1.x {reps}: got {got:08x}, want red {} green {}",
            [count, start, step],
            want.0,
            want.1
        );
        pipelines.push(dev.cache_stats().1.len);
    }
    // One pipeline per distinct set up to the bound, then the generic one, then no more.
    assert_eq!(&pipelines[..8], [1, 2, 3, 4, 5, 6, 7, 8], "{pipelines:?}");
    assert!(pipelines[8..].iter().all(|&n| n == 9), "{pipelines:?}");
}

/// Static branches whose `b#` changes between draws draw right each time: `if b0` in the
/// vertex stage adds c1's red, `if b1` in the pixel stage adds c1's green, with the values
/// set last.
#[test]
fn gpu_static_branches_draw_right_as_their_boolean_constants_change() {
    const VS: &str = "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_color o1\n\
        mov r0, c0\nif b0\nadd r0, r0, c1\nendif\nmov o0, v0\nmov o1, r0\n";
    const PS: &str = "ps_3_0\ndcl_color v0\nmov r0, v0\nif b1\nadd r0, r0, c1\nendif\n\
        mov oC0, r0\n";
    let mut dev = device();
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    let decl = ok(dev.create_vertex_declaration(&[VertexElement::new(
        0,
        0,
        DeclType::Float3,
        Usage::Position,
        0,
    )]));
    let vb =
        ok(dev.create_vertex_buffer_with(&floats(&[
            -1.0, -1.0, 0.5, -1.0, 1.0, 0.5, 1.0, -1.0, 0.5,
        ])));
    ok(dev.set_vertex_declaration(Some(decl)));
    ok(dev.set_stream_source(0, Some(vb), 0, 12));
    let vs = ok(dev.create_vertex_shader(&tokens(VS)));
    let ps = ok(dev.create_pixel_shader(&tokens(PS)));
    ok(dev.set_vertex_shader(Some(vs)));
    ok(dev.set_pixel_shader(Some(ps)));
    ok(dev.set_vertex_shader_constant_f(0, &[[0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 0.0]]));
    ok(dev.set_pixel_shader_constant_f(1, &[[0.0, 1.0, 0.0, 0.0]]));
    for (k, (vertex, pixel)) in [
        (false, false),
        (true, false),
        (true, true),
        (false, true),
        (false, false),
        (true, true),
    ]
    .into_iter()
    .enumerate()
    {
        ok(dev.set_vertex_shader_constant_b(0, &[vertex]));
        ok(dev.set_pixel_shader_constant_b(1, &[pixel]));
        ok(dev.clear(&[], ClearFlags::TARGET, 0, 1.0, 0));
        ok(dev.draw_primitive(PrimitiveType::TriangleList, 0, 1));
        let want = 0xff00_0000 | (u32::from(vertex) * 0xff_0000) | (u32::from(pixel) * 0xff00);
        assert_eq!(
            ok(dev.pixel(10, 470)),
            want,
            "draw {k}: b0 {vertex}, b1 {pixel}"
        );
    }
}
