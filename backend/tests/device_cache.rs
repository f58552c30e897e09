//! Draw-time pairing with bounded caches: 1,000 distinct (declaration, vertex shader) pairs
//! drawn through a device whose caches hold 64 entries each. Every first draw is a miss,
//! the caches never grow past their capacity (evicting the least recently used), a repeated
//! draw is a hit, and every draw renders what its own shader says.

#![allow(clippy::panic)] // a failing test says why

#[allow(dead_code)]
mod device_common;
use d3d9_backend::device::CullMode;
use d3d9_backend::device::{ClearFlags, Device, DeviceParams, PrimitiveType, RenderState};
use d3d9_translator::asm::assemble_tokens;
use d3d9_translator::bytecode::Usage;
use d3d9_translator::decl::{DeclType, VertexElement};
use device_common::{floats, ok};

const PAIRS: usize = 1000;
const CAPACITY: usize = 64;

#[test]
fn gpu_thousand_pairs_stay_within_the_cache_bounds() {
    let mut dev = Device::new(DeviceParams {
        shader_cache_capacity: CAPACITY,
        pipeline_cache_capacity: CAPACITY,
        ..DeviceParams::default()
    })
    .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    // Ten declarations (position at a different offset in a 48-byte vertex) times 100
    // shaders (each writes its own colour): 1,000 pairs.
    let corners = [[-1.0f32, -1.0, 0.5], [-1.0, 1.0, 0.5], [1.0, -1.0, 0.5]];
    let declarations: Vec<_> = (0..10u16)
        .map(|d| {
            let offset = d * 4;
            let elements = [d3d9_translator::decl::VertexElement::new(
                0,
                offset,
                d3d9_translator::decl::DeclType::Float3,
                d3d9_translator::bytecode::Usage::Position,
                0,
            )];
            ok(dev.create_vertex_declaration(&elements))
        })
        .collect();
    let shaders: Vec<_> = (0..100)
        .map(|s| {
            let red = s as f32 / 255.0;
            let text = format!(
                "vs_2_0\ndef c0, {red:?}, 1.0, 0.0, 1.0\ndcl_position v0\nmov oPos, v0\nmov oD0, c0\n"
            );
            let tokens = assemble_tokens(&text).unwrap_or_else(|e| panic!("{e}"));
            ok(dev.create_vertex_shader(&tokens))
        })
        .collect();
    // Per declaration, a buffer whose vertices sit at that declaration's offset.
    let buffers: Vec<_> = (0..10usize)
        .map(|d| {
            let mut data = vec![0u8; 3 * 48];
            for (v, corner) in corners.iter().enumerate() {
                let at = v * 48 + d * 4;
                data[at..at + 12].copy_from_slice(&floats(corner));
            }
            ok(dev.create_vertex_buffer_with(&data))
        })
        .collect();
    let mut drawn = 0;
    for (d, decl) in declarations.iter().enumerate() {
        ok(dev.set_vertex_declaration(Some(*decl)));
        ok(dev.set_stream_source(0, Some(buffers[d]), 0, 48));
        for (s, shader) in shaders.iter().enumerate() {
            ok(dev.set_vertex_shader(Some(*shader)));
            ok(dev.draw_primitive(PrimitiveType::TriangleList, 0, 1));
            drawn += 1;
            let (pairs, pipelines) = dev.cache_stats();
            assert!(pairs.len <= CAPACITY && pipelines.len <= CAPACITY);
            // Check a sample of draws read back their own colour.
            if s % 37 == 0 {
                let c = ok(dev.pixel(10, 470)) & 0xffffff;
                assert_eq!(c, (s as u32) << 16 | 0xff00, "declaration {d}, shader {s}");
                ok(dev.clear(&[], ClearFlags::TARGET, 0, 1.0, 0));
            }
        }
    }
    assert_eq!(drawn, PAIRS);
    let (pairs, pipelines) = dev.cache_stats();
    assert_eq!((pairs.misses, pairs.hits), (PAIRS as u64, 0));
    assert_eq!(pairs.evictions, (PAIRS - CAPACITY) as u64);
    assert_eq!(pairs.len, CAPACITY);
    assert_eq!(pipelines.misses, PAIRS as u64);
    assert_eq!(pipelines.evictions, (PAIRS - CAPACITY) as u64);
    // The last pair drawn is a hit in both caches; the first one was evicted long ago.
    ok(dev.draw_primitive(PrimitiveType::TriangleList, 0, 1));
    let (after, after_pipelines) = dev.cache_stats();
    assert_eq!((after.hits, after_pipelines.hits), (1, 1));
    ok(dev.set_vertex_declaration(Some(declarations[0])));
    ok(dev.set_stream_source(0, Some(buffers[0]), 0, 48));
    ok(dev.set_vertex_shader(Some(shaders[0])));
    ok(dev.draw_primitive(PrimitiveType::TriangleList, 0, 1));
    let (again, _) = dev.cache_stats();
    assert_eq!((again.hits, again.misses), (1, PAIRS as u64 + 1));
    assert_eq!(ok(dev.pixel(10, 470)) & 0xffffff, 0x00ff00);
    // Releasing a shader drops its pairings.
    let len = dev.cache_stats().0.len;
    ok(dev.release_vertex_shader(shaders[0]));
    assert_eq!(dev.cache_stats().0.len, len - 1);
}

/// A draw repeated with nothing changed is answered from the device's memo of the last
/// draw (counted as a hit in both caches); any change in between — a constant, the contents
/// of a vertex or index buffer, a render state, a released object — is seen by the next draw.
#[test]
fn gpu_a_repeated_draw_sees_every_change() {
    let mut dev = Device::new(DeviceParams::default())
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    const D3DFVF_XYZ: u32 = 0x002;
    let shader = ok(dev.create_vertex_shader(
        &assemble_tokens("vs_2_0\ndcl_position v0\nmov oPos, v0\nmov oD0, c0\n")
            .unwrap_or_else(|e| panic!("{e}")),
    ));
    let corners = |x: f32| floats(&[x - 2.0, -1.0, 0.5, x - 2.0, 1.0, 0.5, x, -1.0, 0.5]);
    let vb = ok(dev.create_vertex_buffer_with(&corners(1.0)));
    let ib = ok(dev.create_index_buffer_u16(&[0, 1, 2]));
    ok(dev.set_fvf(D3DFVF_XYZ));
    ok(dev.set_vertex_shader(Some(shader)));
    ok(dev.set_stream_source(0, Some(vb), 0, 12));
    ok(dev.set_indices(Some(ib)));
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    let red = [1.0f32, 0.0, 0.0, 1.0];
    let green = [0.0f32, 1.0, 0.0, 1.0];
    ok(dev.set_vertex_shader_constant_f(0, &[red]));
    let draw = |dev: &mut Device| {
        ok(dev.clear(&[], ClearFlags::TARGET, 0xff00_00ff, 1.0, 0));
        ok(dev.draw_indexed_primitive(PrimitiveType::TriangleList, 0, 0, 3, 0, 1));
        ok(dev.pixel(10, 470))
    };
    assert_eq!(draw(&mut dev), 0xffff_0000);
    let (pairs, pipelines) = dev.cache_stats();
    let memo_hits = dev.memo_hits();
    // The same draw again: the memo, counted as a hit in both caches.
    assert_eq!(draw(&mut dev), 0xffff_0000);
    assert_eq!(dev.memo_hits(), memo_hits + 1);
    let (pairs2, pipelines2) = dev.cache_stats();
    assert_eq!(
        (
            pairs2.hits,
            pairs2.misses,
            pipelines2.hits,
            pipelines2.misses
        ),
        (
            pairs.hits + 1,
            pairs.misses,
            pipelines.hits + 1,
            pipelines.misses
        )
    );
    // A float constant: the memo answers with the constants placed anew.
    ok(dev.set_vertex_shader_constant_f(0, &[green]));
    assert_eq!(draw(&mut dev), 0xff00_ff00);
    assert_eq!(dev.memo_hits(), memo_hits + 2);
    assert_eq!(draw(&mut dev), 0xff00_ff00);
    assert_eq!(dev.memo_hits(), memo_hits + 3);
    // An integer constant (it may pick a specialised pipeline): the full path, then the memo.
    ok(dev.set_vertex_shader_constant_i(0, &[[1, 0, 0, 0]]));
    assert_eq!(draw(&mut dev), 0xff00_ff00);
    assert_eq!(dev.memo_hits(), memo_hits + 3);
    assert_eq!(draw(&mut dev), 0xff00_ff00);
    assert_eq!(dev.memo_hits(), memo_hits + 4);
    // The vertex buffer's contents: the triangle moves off the pixel, then back.
    ok(dev.update_vertex_buffer(vb, 0, &corners(-1.5)));
    assert_eq!(draw(&mut dev), 0xff00_00ff);
    ok(dev.update_vertex_buffer(vb, 0, &corners(1.0)));
    assert_eq!(draw(&mut dev), 0xff00_ff00);
    // The index buffer's contents: a degenerate triangle draws nothing.
    ok(dev.update_index_buffer(ib, 0, bytemuck_u16(&[0, 0, 0]).as_slice()));
    assert_eq!(draw(&mut dev), 0xff00_00ff);
    ok(dev.update_index_buffer(ib, 0, bytemuck_u16(&[0, 1, 2]).as_slice()));
    assert_eq!(draw(&mut dev), 0xff00_ff00);
    // A render state: one of the two cull modes removes the triangle.
    ok(dev.set_render_state(RenderState::CullMode(CullMode::Cw)));
    let cw = draw(&mut dev);
    ok(dev.set_render_state(RenderState::CullMode(CullMode::Ccw)));
    let ccw = draw(&mut dev);
    let mut culled = [cw, ccw];
    culled.sort_unstable();
    assert_eq!(culled, [0xff00_00ff, 0xff00_ff00]);
    // A released object: releasing the bound vertex shader unbinds it, so the same draw
    // now runs the fixed-function vertex stage (no lighting: the default diffuse, white).
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    ok(dev.set_render_state(RenderState::Lighting(false)));
    assert_eq!(draw(&mut dev), 0xff00_ff00);
    ok(dev.release_vertex_shader(shader));
    assert_eq!(draw(&mut dev), 0xffff_ffff);
}

fn bytemuck_u16(indices: &[u16]) -> Vec<u8> {
    indices.iter().flat_map(|i| i.to_le_bytes()).collect()
}

/// A device drawing quad q of a `grid` x `grid` grid over the 640 x 480 target as
/// `DrawPrimitive(TRIANGLESTRIP, 4q, 2)` (stream 0, FVF XYZ) with the shaders `vs` and `ps`,
/// culling off.
fn grid_device(vs: &str, ps: &str, grid: u32) -> Device {
    let mut dev = Device::new(DeviceParams::default())
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    const D3DFVF_XYZ: u32 = 0x002;
    let asm = |text: &str| assemble_tokens(text).unwrap_or_else(|e| panic!("{e}"));
    let vs = ok(dev.create_vertex_shader(&asm(vs)));
    let ps = ok(dev.create_pixel_shader(&asm(ps)));
    let mut vertices = Vec::new();
    for q in 0..grid * grid {
        let (x0, y0) = ((q % grid) as f32, (q / grid) as f32);
        let clip = |x: f32, y: f32| [x / grid as f32 * 2.0 - 1.0, 1.0 - y / grid as f32 * 2.0];
        for (dx, dy) in [(0.1, 0.1), (0.9, 0.1), (0.1, 0.9), (0.9, 0.9)] {
            let [x, y] = clip(x0 + dx, y0 + dy);
            vertices.extend(floats(&[x, y, 0.5]));
        }
    }
    let vb = ok(dev.create_vertex_buffer_with(&vertices));
    ok(dev.set_fvf(D3DFVF_XYZ));
    ok(dev.set_vertex_shader(Some(vs)));
    ok(dev.set_pixel_shader(Some(ps)));
    ok(dev.set_stream_source(0, Some(vb), 0, 12));
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    dev
}

/// Reads the target back and checks that the centre of each quad of `grid_device`'s grid
/// has the colour `colour(q)` (8-bit red, green, blue); `what` names the pass.
fn check_grid(dev: &mut Device, grid: u32, what: &str, colour: impl Fn(u32) -> [u32; 3]) {
    let (width, height) = (640u32, 480u32);
    let data = ok(dev.get_render_target_data(dev.back_buffer()));
    for q in 0..grid * grid {
        let x = (q % grid) * width / grid + width / grid / 2;
        let y = (q / grid) * height / grid + height / grid / 2;
        let [r, g, b] = colour(q);
        let got = data
            .color(x, y)
            .unwrap_or_else(|| panic!("no pixel ({x}, {y})"));
        assert_eq!(
            got & 0xff_ffff,
            r << 16 | g << 8 | b,
            "{what}, draw {q} at ({x}, {y}): {got:08x}"
        );
    }
}

/// Constants changed between many draws of one frame each reach their own draw: 100 quads,
/// each drawn after its own vertex-shader `c0` (red, green) and pixel-shader `c0` (blue),
/// all recorded before one read-back, then again with other colours after that submit.
#[test]
fn gpu_constants_changed_between_draws_each_reach_their_draw() {
    const GRID: u32 = 10;
    let mut dev = grid_device(
        "vs_2_0\ndcl_position v0\nmov oPos, v0\nmov oD0, c0\n",
        "ps_2_0\ndcl v0\nadd r0, v0, c0\nmov oC0, r0\n",
        GRID,
    );
    let colour = |q: u32, frame: u32| {
        let q = q + frame * 7;
        [(q * 2) % 256, 255 - (q * 2) % 256, (q * 37) % 256]
    };
    for frame in 0..2 {
        ok(dev.clear(&[], ClearFlags::TARGET, 0xff00_0000, 1.0, 0));
        for q in 0..GRID * GRID {
            let [r, g, b] = colour(q, frame).map(|c| c as f32 / 255.0);
            ok(dev.set_vertex_shader_constant_f(0, &[[r, g, 0.0, 1.0]]));
            ok(dev.set_pixel_shader_constant_f(0, &[[0.0, 0.0, b, 0.0]]));
            ok(dev.draw_primitive(PrimitiveType::TriangleStrip, q * 4, 2));
        }
        check_grid(&mut dev, GRID, &format!("frame {frame}"), |q| {
            colour(q, frame)
        });
    }
}

/// A device drawing a whole-target quad (`DrawPrimitive(TRIANGLESTRIP, 0, 2)` of stream 0,
/// FVF XYZ) with the shaders `vs` and `ps`, culling off.
fn quad_device(vs: &str, ps: &str) -> Device {
    let mut dev = Device::new(DeviceParams::default())
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    const D3DFVF_XYZ: u32 = 0x002;
    let asm = |text: &str| assemble_tokens(text).unwrap_or_else(|e| panic!("{e}"));
    let vs = ok(dev.create_vertex_shader(&asm(vs)));
    let ps = ok(dev.create_pixel_shader(&asm(ps)));
    let quad: Vec<u8> = [
        [-1.0f32, -1.0, 0.5],
        [-1.0, 1.0, 0.5],
        [1.0, -1.0, 0.5],
        [1.0, 1.0, 0.5],
    ]
    .iter()
    .flatten()
    .flat_map(|c| c.to_le_bytes())
    .collect();
    let vb = ok(dev.create_vertex_buffer_with(&quad));
    ok(dev.set_fvf(D3DFVF_XYZ));
    ok(dev.set_vertex_shader(Some(vs)));
    ok(dev.set_pixel_shader(Some(ps)));
    ok(dev.set_stream_source(0, Some(vb), 0, 12));
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    dev
}

/// The same draw repeated with only its float constants changed is answered by the draw
/// memo (no pairing, no lookups), and each repeat still reads its own constants: ten
/// additive draws of one quad, draw k with vertex `c0.r` and pixel `c0.b` of k/255, sum to
/// 55/255 in red and blue; constants kept from an earlier draw would give another sum.
#[test]
fn gpu_a_repeated_draw_with_new_constants_reads_them() {
    use d3d9_backend::device::Blend;
    let mut dev = quad_device(
        "vs_2_0\ndcl_position v0\nmov oPos, v0\nmov oD0, c0\n",
        "ps_2_0\ndcl v0\nadd r0, v0, c0\nmov oC0, r0\n",
    );
    ok(dev.set_render_state(RenderState::AlphaBlendEnable(true)));
    ok(dev.set_render_state(RenderState::SrcBlend(Blend::One)));
    ok(dev.set_render_state(RenderState::DestBlend(Blend::One)));
    for frame in 0..2 {
        ok(dev.clear(&[], ClearFlags::TARGET, 0xff00_0000, 1.0, 0));
        let hits = dev.memo_hits();
        for k in 1..=10u8 {
            let v = f32::from(k) / 255.0;
            ok(dev.set_vertex_shader_constant_f(0, &[[v, 0.0, 0.0, 0.0]]));
            ok(dev.set_pixel_shader_constant_f(0, &[[0.0, 0.0, v, 0.0]]));
            ok(dev.draw_primitive(PrimitiveType::TriangleStrip, 0, 2));
        }
        // The first draw of the first frame takes the full path (the blend states changed);
        // every later one, the second frame's first after the clear and read-back too, is a
        // memo hit.
        let expected = if frame == 0 { 9 } else { 10 };
        assert_eq!(dev.memo_hits() - hits, expected, "frame {frame}: memo hits");
        let data = ok(dev.get_render_target_data(dev.back_buffer()));
        for (x, y) in [(0, 0), (320, 240), (639, 479)] {
            let got = data
                .color(x, y)
                .unwrap_or_else(|| panic!("no pixel ({x}, {y})"));
            assert_eq!(
                got & 0xff_ffff,
                55 << 16 | 55,
                "frame {frame} at ({x}, {y}): {got:08x}"
            );
        }
    }
}

/// A draw repeated after `SetTexture` to a texture of the same kind and format is answered
/// by the memo with only the texture group made anew; another format, or no texture, takes
/// the full path. Every draw samples its own texture.
#[test]
fn gpu_a_repeated_draw_with_another_texture_samples_it() {
    use d3d9_backend::device::Format;
    let mut dev = quad_device(
        "vs_2_0\ndcl_position v0\ndef c0, 0.5, 0.5, 0, 0\nmov oPos, v0\nmov oT0, c0\n",
        "ps_2_0\ndcl t0.xy\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n",
    );
    // 2 x 2 textures of one colour each (D3DCOLOR bytes: b, g, r, a).
    let texture = |dev: &mut Device, format: Format, colour: u32| {
        let id = ok(dev.create_texture(2, 2, 1, format));
        let texels: Vec<u8> = (0..4).flat_map(|_| colour.to_le_bytes()).collect();
        ok(dev.update_texture(id, 0, &texels));
        id
    };
    let red = texture(&mut dev, Format::A8R8G8B8, 0xffff_0000);
    let green = texture(&mut dev, Format::A8R8G8B8, 0xff00_ff00);
    let blue = texture(&mut dev, Format::A8R8G8B8, 0xff00_00ff);
    let grey = texture(&mut dev, Format::X8R8G8B8, 0x0080_8080);
    // Each step: the texture set, the colour drawn, whether the memo answers.
    let steps = [
        (Some(red), 0xffff_0000, false),
        (Some(green), 0xff00_ff00, true),
        (Some(blue), 0xff00_00ff, true),
        (Some(grey), 0xff80_8080, false),
        (Some(red), 0xffff_0000, false),
        (Some(red), 0xffff_0000, true),
        (None, 0xff00_0000, false),
        (Some(green), 0xff00_ff00, false),
    ];
    for (i, (set, colour, hit)) in steps.into_iter().enumerate() {
        ok(dev.set_texture(0, set));
        let hits = dev.memo_hits();
        ok(dev.draw_primitive(PrimitiveType::TriangleStrip, 0, 2));
        assert_eq!(dev.memo_hits() - hits, u64::from(hit), "step {i}: memo hit");
        // A read-back ends the pass; the memo stays.
        assert_eq!(ok(dev.pixel(320, 240)), colour, "step {i}");
    }
}

/// A run of draws into the same targets records into one render pass, each draw setting
/// only the pass state that differs from the draw before; every draw must still see its own
/// viewport, blend factor (0 too), pixel shader and texture, across passes into targets of
/// other sizes (wgpu's GL backend begins a pass with the last pass's viewport).
#[test]
fn gpu_a_run_of_draws_keeps_each_draws_state() {
    use d3d9_backend::device::{Blend, Format, Pool, TextureDesc, TextureKind, Usage, Viewport};
    // With a 640 x 480 depth-stencil surface, the 64 x 64 target is drawn through stand-ins.
    let mut dev = Device::new(DeviceParams {
        auto_depth_stencil: Some(Format::D24S8),
        ..DeviceParams::default()
    })
    .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    const D3DFVF_XYZ: u32 = 0x002;
    let asm = |text: &str| assemble_tokens(text).unwrap_or_else(|e| panic!("{e}"));
    let vs = ok(dev.create_vertex_shader(&asm(
        "vs_2_0\ndcl_position v0\nmov oPos, v0\nmov oD0, c0\nmov oT0, c1\n",
    )));
    let colour_ps = ok(dev.create_pixel_shader(&asm("ps_2_0\ndcl v0\nmov oC0, v0\n")));
    let texture_ps = ok(dev.create_pixel_shader(&asm(
        "ps_2_0\ndcl t0.xy\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n",
    )));
    // Quads in clip space: the whole viewport, and its four quarters.
    let quad = |x0: f32, y0: f32, x1: f32, y1: f32| {
        [[x0, y0], [x1, y0], [x0, y1], [x1, y1]]
            .iter()
            .flat_map(|[x, y]| [*x, *y, 0.5])
            .flat_map(f32::to_le_bytes)
            .collect::<Vec<u8>>()
    };
    let vertices: Vec<u8> = [
        quad(-1.0, -1.0, 1.0, 1.0),
        quad(-1.0, 0.0, 0.0, 1.0), // top left
        quad(0.0, -1.0, 1.0, 0.0), // bottom right
    ]
    .concat();
    let (whole, top_left, bottom_right) = (0, 4, 8);
    let vb = ok(dev.create_vertex_buffer_with(&vertices));
    let small = ok(dev.create_texture_with(&TextureDesc {
        kind: TextureKind::TwoD,
        width: 64,
        height: 64,
        depth: 1,
        levels: 1,
        format: Format::A8R8G8B8,
        usage: Usage::RENDER_TARGET,
        pool: Pool::Default,
    }));
    let small_surface = ok(dev.get_surface_level(small, 0));
    let back = dev.back_buffer();
    ok(dev.set_fvf(D3DFVF_XYZ));
    ok(dev.set_vertex_shader(Some(vs)));
    ok(dev.set_pixel_shader(Some(colour_ps)));
    ok(dev.set_stream_source(0, Some(vb), 0, 12));
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    let rgb = |c: u32| {
        let ch = |s: u32| ((c >> s) & 0xff) as f32 / 255.0;
        [ch(16), ch(8), ch(0), 1.0]
    };
    let draw = |dev: &mut Device, colour: u32, first: u32| {
        ok(dev.set_vertex_shader_constant_f(0, &[rgb(colour), [0.5, 0.5, 0.0, 1.0]]));
        ok(dev.draw_primitive(PrimitiveType::TriangleStrip, first, 2));
    };
    let viewport = |x, y, width, height| Viewport {
        x,
        y,
        width,
        height,
        min_z: 0.0,
        max_z: 1.0,
    };
    ok(dev.clear(&[], ClearFlags::ALL, 0xff00_0000, 1.0, 0));
    // A quarter viewport, then the whole one, in one pass.
    ok(dev.set_viewport(viewport(0, 0, 320, 240)));
    draw(&mut dev, 0x00ff_0000, whole);
    ok(dev.set_viewport(viewport(0, 0, 640, 480)));
    draw(&mut dev, 0x0000_ff00, bottom_right);
    // A pass into a 64 x 64 target after a pass with a quarter viewport: SetRenderTarget
    // sets the whole target as the viewport.
    ok(dev.set_viewport(viewport(320, 240, 320, 240)));
    draw(&mut dev, 0x0000_00ff, top_left);
    ok(dev.set_render_target(0, Some(small_surface)));
    draw(&mut dev, 0x00ff_ff00, whole);
    // Back: the texture drawn through another pixel shader, then the colour shader again.
    ok(dev.set_render_target(0, Some(back)));
    ok(dev.set_texture(0, Some(small)));
    ok(dev.set_pixel_shader(Some(texture_ps)));
    ok(dev.set_viewport(viewport(320, 0, 320, 240)));
    draw(&mut dev, 0, whole);
    ok(dev.set_pixel_shader(Some(colour_ps)));
    ok(dev.set_viewport(viewport(0, 240, 320, 240)));
    draw(&mut dev, 0x0080_8080, whole);
    // Blending by the blend factor: 0 (set all the same), then 0x40.
    ok(dev.set_render_state(RenderState::AlphaBlendEnable(true)));
    ok(dev.set_render_state(RenderState::SrcBlend(Blend::BlendFactor)));
    ok(dev.set_render_state(RenderState::DestBlend(Blend::Zero)));
    ok(dev.set_viewport(viewport(0, 240, 160, 120)));
    ok(dev.set_render_state(RenderState::BlendFactor(0)));
    draw(&mut dev, 0x00ff_ffff, whole);
    ok(dev.set_viewport(viewport(160, 240, 160, 120)));
    ok(dev.set_render_state(RenderState::BlendFactor(0x4040_4040)));
    draw(&mut dev, 0x00ff_ffff, whole);
    let data = ok(dev.get_render_target_data(back));
    let at = |x, y| data.color(x, y).map(|c| c & 0xff_ffff);
    let expected = [
        ((100, 60), 0x00ff_0000, "quarter viewport"),
        ((500, 400), 0x0000_ff00, "whole viewport, bottom right"),
        (
            (380, 300),
            0x0000_00ff,
            "viewport at the centre, its top left",
        ),
        ((500, 100), 0x00ff_ff00, "the 64 x 64 target sampled"),
        ((80, 300), 0x0000_0000, "blend factor 0"),
        ((240, 300), 0x0040_4040, "blend factor 0x40"),
        ((100, 450), 0x0080_8080, "the colour shader again"),
    ];
    for ((x, y), colour, what) in expected {
        assert_eq!(at(x, y), Some(colour), "{what} at ({x}, {y})");
    }
    let small_data = ok(dev.get_render_target_data(small_surface));
    assert_eq!(
        small_data.color(0, 0).map(|c| c & 0xff_ffff),
        Some(0x00ff_ff00)
    );
    assert_eq!(
        small_data.color(63, 63).map(|c| c & 0xff_ffff),
        Some(0x00ff_ff00)
    );
}

/// The vertex stage reads `c#` from a window of the constants ring at the draw's first
/// instance: 1,600 draws in one pass, each with its own `c0` and `c100`, read directly and
/// relatively, with a relative read past c255 that must read the zero register. Each draw
/// copies the whole register file (it reads relatively), so the draws fill many windows and
/// more than one ring buffer; every quad must show its own constants.
#[test]
fn gpu_each_draw_reads_its_constants_through_the_window() {
    const GRID: u32 = 40;
    // a0.x = 100: c[a0.x + 0] is c100, c[a0.x + 200] is c300, past the file: zero.
    let mut dev = grid_device(
        "vs_2_0\ndcl_position v0\ndef c10, 100, 0, 0, 0\nmova a0.x, c10.x\nmov oPos, v0\n\
         mov r1, c[a0.x + 0]\nadd r0, c0, r1\nmov r2, c[a0.x + 200]\nadd oD0, r0, r2\n",
        "ps_2_0\ndcl v0\nmov oC0, v0\n",
        GRID,
    );
    // Red and blue from c0, green from c100.
    let colour = |q: u32| [(q * 3) % 256, (q * 5 + 17) % 256, 255 - q % 256];
    ok(dev.clear(&[], ClearFlags::TARGET, 0xff00_0000, 1.0, 0));
    for q in 0..GRID * GRID {
        let [r, g, b] = colour(q).map(|c| c as f32 / 255.0);
        ok(dev.set_vertex_shader_constant_f(0, &[[r, 0.0, b, 1.0]]));
        ok(dev.set_vertex_shader_constant_f(100, &[[0.0, g, 0.0, 0.0]]));
        ok(dev.draw_primitive(PrimitiveType::TriangleStrip, q * 4, 2));
    }
    check_grid(&mut dev, GRID, "one frame", colour);
}

/// Draws that record more than their pass are drawn in full each time, never answered from
/// the memo: a triangle fan (indices generated for it), expanded points, `UP` draws and a 2D
/// texture read on a volume sampler (a slice copied at bind time). Each repeat still draws.
#[test]
fn gpu_draws_with_more_than_a_pass_are_not_memoised() {
    const D3DFVF_XYZRHW: u32 = 0x004;
    const D3DFVF_PSIZE: u32 = 0x020;
    const D3DFVF_XYZ_TEX1_SIZE3: u32 = 0x002 | 0x100 | (1 << 16);
    let mut dev = Device::new(DeviceParams::default())
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    ok(dev.set_render_state(RenderState::Lighting(false)));
    let twice = |dev: &mut Device, draw: &dyn Fn(&mut Device), what: &str| {
        let hits = dev.memo_hits();
        for _ in 0..2 {
            ok(dev.clear(&[], ClearFlags::TARGET, 0xff00_00ff, 1.0, 0));
            draw(dev);
            assert_eq!(ok(dev.pixel(100, 100)), 0xffff_ffff, "{what}");
        }
        assert_eq!(dev.memo_hits(), hits, "{what}: memo hits");
    };
    // A fan over the whole target, white (no diffuse: the fixed-function default).
    let fan = floats(&[
        0.0, 0.0, 0.5, 1.0, 640.0, 0.0, 0.5, 1.0, 640.0, 480.0, 0.5, 1.0, 0.0, 480.0, 0.5, 1.0,
    ]);
    let vb = ok(dev.create_vertex_buffer_with(&fan));
    ok(dev.set_fvf(D3DFVF_XYZRHW));
    ok(dev.set_stream_source(0, Some(vb), 0, 16));
    twice(
        &mut dev,
        &|dev| ok(dev.draw_primitive(PrimitiveType::TriangleFan, 0, 2)),
        "fan",
    );
    // An 8-pixel point at (100, 100).
    let point = ok(dev.create_vertex_buffer_with(&floats(&[100.0, 100.0, 0.5, 1.0, 8.0])));
    ok(dev.set_fvf(D3DFVF_XYZRHW | D3DFVF_PSIZE));
    ok(dev.set_stream_source(0, Some(point), 0, 20));
    twice(
        &mut dev,
        &|dev| ok(dev.draw_primitive(PrimitiveType::PointList, 0, 1)),
        "points",
    );
    ok(dev.set_fvf(D3DFVF_XYZRHW));
    twice(
        &mut dev,
        &|dev| ok(dev.draw_primitive_up(PrimitiveType::TriangleFan, 2, &fan, 16)),
        "UP",
    );
    // A white 2D texture on a dcl_volume sampler, over the whole target.
    let ps = ok(dev.create_pixel_shader(
        &assemble_tokens("ps_2_0\ndcl t0.xyz\ndcl_volume s0\ntexld r0, t0, s0\nmov oC0, r0\n")
            .unwrap_or_else(|e| panic!("{e}")),
    ));
    let texture = ok(dev.create_texture(2, 2, 1, d3d9_backend::device::Format::A8R8G8B8));
    ok(dev.update_texture(texture, 0, &[0xff; 16]));
    let quad = floats(&[
        -1.0, -1.0, 0.5, 0.5, 0.5, 0.5, //
        -1.0, 1.0, 0.5, 0.5, 0.5, 0.5, //
        1.0, -1.0, 0.5, 0.5, 0.5, 0.5, //
        1.0, 1.0, 0.5, 0.5, 0.5, 0.5,
    ]);
    let vb = ok(dev.create_vertex_buffer_with(&quad));
    ok(dev.set_fvf(D3DFVF_XYZ_TEX1_SIZE3));
    ok(dev.set_stream_source(0, Some(vb), 0, 24));
    ok(dev.set_pixel_shader(Some(ps)));
    ok(dev.set_texture(0, Some(texture)));
    twice(
        &mut dev,
        &|dev| ok(dev.draw_primitive(PrimitiveType::TriangleStrip, 0, 2)),
        "a 2D texture on a volume sampler",
    );
}

/// Memo repeats recorded into one open pass (no read-back between them) set again the
/// groups that changed since the last: a vertex texture, a pixel texture, only the vertex
/// constants, only the pixel constants, each alone. Additive draws of one quad, vertex
/// texture (red) + pixel texture (green) + vertex `c1` and pixel `c2` (blue), must sum
/// what each draw read.
#[test]
fn gpu_memo_repeats_in_one_pass_rebind_what_changed() {
    use d3d9_backend::device::{Blend, Format, D3DVERTEXTEXTURESAMPLER0};
    let mut dev = quad_device(
        "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_color o1\ndcl_2d s0\n\
         def c0, 0.5, 0.5, 0, 0\nmov o0, v0\nmov r1, c0\ntexldl r0, r1, s0\nadd o1, r0, c1\n",
        "ps_3_0\ndcl_color v0\ndcl_2d s0\ndef c0, 0.5, 0.5, 0, 0\ndef c1, 0, 1, 0, 0\n\
         mov r1, c0\ntexld r0, r1, s0\nmad r0, r0, c1, v0\nadd oC0, r0, c2\n",
    );
    // 2 x 2 textures of one colour each (D3DCOLOR: 0x00RRGGBB), no alpha.
    let texture = |dev: &mut Device, colour: u32| {
        let id = ok(dev.create_texture(2, 2, 1, Format::A8R8G8B8));
        let texels: Vec<u8> = (0..4).flat_map(|_| colour.to_le_bytes()).collect();
        ok(dev.update_texture(id, 0, &texels));
        id
    };
    let red = |r: u32| r << 16;
    let green = |g: u32| g << 8;
    let (v1, v2) = (texture(&mut dev, red(0x10)), texture(&mut dev, red(0x40)));
    let (p1, p2) = (
        texture(&mut dev, green(0x10)),
        texture(&mut dev, green(0x20)),
    );
    ok(dev.set_render_state(RenderState::AlphaBlendEnable(true)));
    ok(dev.set_render_state(RenderState::SrcBlend(Blend::One)));
    ok(dev.set_render_state(RenderState::DestBlend(Blend::One)));
    ok(dev.set_texture(D3DVERTEXTEXTURESAMPLER0, Some(v1)));
    ok(dev.set_texture(0, Some(p1)));
    let blue = |b: f32| [[0.0, 0.0, b / 255.0, 0.0]];
    ok(dev.set_vertex_shader_constant_f(1, &blue(4.0)));
    ok(dev.clear(&[], ClearFlags::TARGET, 0xff00_0000, 1.0, 0));
    let hits = dev.memo_hits();
    let draw = |dev: &mut Device| ok(dev.draw_primitive(PrimitiveType::TriangleStrip, 0, 2));
    draw(&mut dev); // red 0x10, green 0x10, blue 4
    ok(dev.set_texture(0, Some(p2)));
    draw(&mut dev); // red 0x10, green 0x20, blue 4
    ok(dev.set_texture(D3DVERTEXTEXTURESAMPLER0, Some(v2)));
    draw(&mut dev); // red 0x40, green 0x20, blue 4
    ok(dev.set_vertex_shader_constant_f(1, &blue(8.0)));
    draw(&mut dev); // red 0x40, green 0x20, blue 8
    ok(dev.set_pixel_shader_constant_f(2, &blue(16.0)));
    draw(&mut dev); // red 0x40, green 0x20, blue 8 + 16
    assert_eq!(dev.memo_hits() - hits, 4, "memo hits");
    let got = ok(dev.pixel(320, 240)) & 0xff_ffff;
    assert_eq!(got, red(0xe0) | green(0x90) | 44, "{got:06x}");
}

/// A draw repeated from the memo after a submit places its constants again in the new
/// submit's constants ring: a later draw of other constants placed in that submit does not
/// take their place.
#[test]
fn gpu_a_memo_repeat_after_a_submit_keeps_its_constants() {
    let mut dev = quad_device(
        "vs_2_0\ndcl_position v0\nadd oPos, v0, c1\nmov oD0, c0\n",
        "ps_2_0\ndcl v0\nmov oC0, v0\n",
    );
    // The whole-target quad moved left (c1.x = -0.5, red) and right (c1.x = 0.5, green).
    let left = [[1.0f32, 0.0, 0.0, 1.0], [-0.5, 0.0, 0.0, 0.0]];
    let right = [[0.0f32, 1.0, 0.0, 1.0], [0.5, 0.0, 0.0, 0.0]];
    ok(dev.set_vertex_shader_constant_f(0, &left));
    ok(dev.draw_primitive(PrimitiveType::TriangleStrip, 0, 2));
    ok(dev.flush());
    ok(dev.clear(&[], ClearFlags::TARGET, 0xff00_0000, 1.0, 0));
    let hits = dev.memo_hits();
    ok(dev.draw_primitive(PrimitiveType::TriangleStrip, 0, 2));
    assert_eq!(dev.memo_hits() - hits, 1, "memo hit");
    // Another draw (a range of its own), with the right half's constants.
    ok(dev.set_vertex_shader_constant_f(0, &right));
    ok(dev.draw_primitive(PrimitiveType::TriangleStrip, 1, 1));
    assert_eq!(ok(dev.pixel(100, 240)), 0xffff_0000, "the repeated draw");
    assert_eq!(ok(dev.pixel(600, 240)), 0xff00_ff00, "the later draw");
}

/// A memoised fixed-function draw is not moved by `SetVertexShaderConstantF` or
/// `SetPixelShaderConstantF` (its constants are the device's transforms and stage states,
/// not the application's `c#`): repeats after each draw the same triangle in the same colour.
#[test]
fn gpu_a_memoised_fixed_function_draw_ignores_shader_constants() {
    const D3DFVF_XYZ: u32 = 0x002;
    const D3DFVF_DIFFUSE: u32 = 0x040;
    let mut dev = Device::new(DeviceParams::default())
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    ok(dev.set_render_state(RenderState::Lighting(false)));
    let vertices: Vec<u8> = [[-1.0f32, -1.0, 0.5], [-1.0, 1.0, 0.5], [1.0, -1.0, 0.5]]
        .iter()
        .flat_map(|p| {
            let mut v = floats(p);
            v.extend_from_slice(&0xff20_40c0u32.to_le_bytes());
            v
        })
        .collect();
    let vb = ok(dev.create_vertex_buffer_with(&vertices));
    ok(dev.set_fvf(D3DFVF_XYZ | D3DFVF_DIFFUSE));
    ok(dev.set_stream_source(0, Some(vb), 0, 16));
    let draw = |dev: &mut Device| {
        ok(dev.clear(&[], ClearFlags::TARGET, 0xff00_0000, 1.0, 0));
        ok(dev.draw_primitive(PrimitiveType::TriangleList, 0, 1));
        (ok(dev.pixel(100, 400)), ok(dev.pixel(600, 50)))
    };
    let expected = (0xff20_40c0, 0xff00_0000);
    assert_eq!(draw(&mut dev), expected);
    let hits = dev.memo_hits();
    let noise = [[7.0f32, -3.0, 0.25, 2.0]; 8];
    ok(dev.set_vertex_shader_constant_f(0, &noise));
    assert_eq!(draw(&mut dev), expected, "after SetVertexShaderConstantF");
    ok(dev.set_pixel_shader_constant_f(0, &noise));
    assert_eq!(draw(&mut dev), expected, "after SetPixelShaderConstantF");
    assert_eq!(dev.memo_hits() - hits, 2, "memo hits");
}

/// Fixed-function draws between two read-backs each read the states set for them: the
/// texture factor changed between two draws of one pair (its constants come from the states,
/// not from `c#`) colours each draw its own.
#[test]
fn gpu_fixed_function_draws_read_the_states_set_for_each() {
    const D3DFVF_XYZ: u32 = 0x002;
    let mut dev = Device::new(DeviceParams::default())
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    ok(dev.set_render_state(RenderState::Lighting(false)));
    // Stage 0: SELECTARG1(TFACTOR), alpha too.
    for (ty, value) in [(1, 2), (2, 3), (4, 2), (5, 3)] {
        ok(dev.set_texture_stage_state_raw(0, ty, value));
    }
    ok(dev.set_fvf(D3DFVF_XYZ));
    // Quads over the left and the right half.
    let half = |x0: f32| -> Vec<u8> {
        [
            [x0, -1.0, 0.5],
            [x0, 1.0, 0.5],
            [x0 + 1.0, -1.0, 0.5],
            [x0 + 1.0, 1.0, 0.5],
        ]
        .iter()
        .flatten()
        .flat_map(|c| c.to_le_bytes())
        .collect()
    };
    ok(dev.clear(&[], ClearFlags::TARGET, 0xff00_0000, 1.0, 0));
    ok(dev.set_render_state(RenderState::TextureFactor(0xff20_4060)));
    ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &half(-1.0), 12));
    ok(dev.set_render_state(RenderState::TextureFactor(0xffa0_c0e0)));
    ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &half(0.0), 12));
    assert_eq!(ok(dev.pixel(100, 240)), 0xff20_4060);
    assert_eq!(ok(dev.pixel(540, 240)), 0xffa0_c0e0);
}

/// Releasing a shader or a declaration drops the cached pairs that name it, and only those;
/// what is set stays set.
#[test]
fn gpu_a_released_shader_drops_only_its_pairs() {
    let mut dev = Device::new(DeviceParams::default())
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let tokens = |text: &str| assemble_tokens(text).unwrap_or_else(|e| panic!("{e}"));
    let vs = ok(dev.create_vertex_shader(&tokens(
        "vs_2_0\ndcl_position v0\nmov oPos, v0\nmov oD0, c0\n",
    )));
    let ps = [
        "ps_2_0\ndcl v0\nmov oC0, v0\n",
        "ps_2_0\ndef c0, 1, 0, 0, 1\nmov oC0, c0\n",
    ]
    .map(|text| ok(dev.create_pixel_shader(&tokens(text))));
    ok(dev.set_fvf(0x002));
    ok(dev.set_vertex_shader(Some(vs)));
    let triangle = floats(&[-1.0, -1.0, 0.5, -1.0, 1.0, 0.5, 1.0, -1.0, 0.5]);
    for p in ps {
        ok(dev.set_pixel_shader(Some(p)));
        ok(dev.draw_primitive_up(PrimitiveType::TriangleList, 1, &triangle, 12));
    }
    let pairs = |dev: &Device| dev.cache_stats().0.len;
    assert_eq!(pairs(&dev), 2);
    // The second pixel shader stays set: its pair is drawn again, not made anew.
    ok(dev.release_pixel_shader(ps[0]));
    assert_eq!(pairs(&dev), 1, "the other pixel shader's pair stays");
    ok(dev.draw_primitive_up(PrimitiveType::TriangleList, 1, &triangle, 12));
    assert_eq!(pairs(&dev), 1, "the set pixel shader is still set");
    // A declaration released: its pairs go, the FVF's declaration and its pair stay.
    let elements = [VertexElement::new(
        0,
        0,
        DeclType::Float3,
        Usage::Position,
        0,
    )];
    let decl = ok(dev.create_vertex_declaration(&elements));
    assert_eq!(dev.declaration_elements(decl), Some(&elements[..]));
    ok(dev.set_vertex_declaration(Some(decl)));
    ok(dev.draw_primitive_up(PrimitiveType::TriangleList, 1, &triangle, 12));
    assert_eq!(pairs(&dev), 2);
    ok(dev.set_fvf(0x002));
    ok(dev.release_vertex_declaration(decl));
    assert_eq!(pairs(&dev), 1, "the declaration's pair is dropped");
    ok(dev.draw_primitive_up(PrimitiveType::TriangleList, 1, &triangle, 12));
    assert_eq!(
        pairs(&dev),
        1,
        "the FVF's declaration stays set, its pair kept"
    );
    ok(dev.release_vertex_shader(vs));
    assert_eq!(pairs(&dev), 0);
}
