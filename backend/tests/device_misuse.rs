//! Misuse of the device gives D3D9's `D3DERR_INVALIDCALL` with the reason, never a panic and
//! never an out-of-bounds read, and leaves the device usable: after every refused call a
//! correct draw still renders.

#![allow(clippy::panic)] // a failing test says why

#[allow(dead_code)]
mod device_common;
use d3d9_backend::device::CullMode;
use d3d9_backend::device::{
    ClearFlags, Device, DeviceError, DeviceParams, IndexFormat, PrimitiveType, RenderState,
};
use d3d9_translator::bytecode::Usage;
use d3d9_translator::decl::{DeclType, VertexElement};
use device_common::{ok, tokens};

/// The error of `r`, which must be `D3DERR_INVALIDCALL` whose reason mentions `about`.
fn invalid_call<T: std::fmt::Debug>(r: Result<T, DeviceError>, about: &str) {
    // Every refusal names its rule: an empty `about` would accept any message.
    assert!(!about.is_empty(), "invalid_call needs the rule's words");
    match r {
        Ok(v) => panic!("expected D3DERR_INVALIDCALL about {about:?}, got Ok({v:?})"),
        Err(e) => {
            assert!(e.is_invalid_call(), "not an invalid call: {e}");
            assert!(
                e.to_string().contains(about),
                "{e:?} does not mention {about:?}"
            );
        }
    }
}

/// A triangle covering the lower-left half of the back buffer, positions only.
fn triangle() -> Vec<u8> {
    [-1.0f32, -1.0, 0.5, -1.0, 1.0, 0.5, 1.0, -1.0, 0.5]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect()
}

/// A device with a vs_2_0 shader writing c0 as its colour, a position-only declaration
/// and culling off.
fn device() -> Device {
    let mut dev = Device::new(DeviceParams::default())
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let vs = ok(dev.create_vertex_shader(&tokens(
        "vs_2_0\ndcl_position v0\nmov oPos, v0\nmov oD0, c0\n",
    )));
    ok(dev.set_vertex_shader(Some(vs)));
    ok(dev.set_vertex_shader_constant_f(0, &[[0.0, 1.0, 0.0, 1.0]]));
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    dev
}

/// Proves the device still draws: clears to black, draws the triangle from a vertex
/// buffer, and reads green inside it.
fn still_draws(dev: &mut Device) {
    ok(dev.set_fvf(0x002));
    let vb = ok(dev.create_vertex_buffer_with(&triangle()));
    ok(dev.set_stream_source(0, Some(vb), 0, 12));
    ok(dev.clear(&[], ClearFlags::TARGET, 0, 1.0, 0));
    ok(dev.draw_primitive(PrimitiveType::TriangleList, 0, 1));
    assert_eq!(ok(dev.pixel(10, 470)) & 0xffffff, 0x00ff00);
    assert_eq!(ok(dev.pixel(630, 10)) & 0xffffff, 0);
}

#[test]
fn gpu_draw_without_a_declaration() {
    let mut dev = device();
    let vb = ok(dev.create_vertex_buffer_with(&triangle()));
    ok(dev.set_stream_source(0, Some(vb), 0, 12));
    invalid_call(
        dev.draw_primitive(PrimitiveType::TriangleList, 0, 1),
        "no vertex declaration",
    );
    still_draws(&mut dev);
}

#[test]
fn gpu_stride_zero_on_a_draw_from_a_buffer() {
    let mut dev = device();
    ok(dev.set_fvf(0x002));
    let vb = ok(dev.create_vertex_buffer_with(&triangle()));
    ok(dev.set_stream_source(0, Some(vb), 0, 0));
    invalid_call(
        dev.draw_primitive(PrimitiveType::TriangleList, 0, 1),
        "stride of 0",
    );
    invalid_call(
        dev.draw_primitive_up(PrimitiveType::TriangleList, 1, &triangle(), 0),
        "stride of 0",
    );
    still_draws(&mut dev);
}

#[test]
fn gpu_vertex_range_past_the_end_of_a_buffer() {
    let mut dev = device();
    ok(dev.set_fvf(0x002));
    let vb = ok(dev.create_vertex_buffer_with(&triangle()));
    ok(dev.set_stream_source(0, Some(vb), 0, 12));
    // Two triangles need six vertices; the buffer holds three.
    invalid_call(
        dev.draw_primitive(PrimitiveType::TriangleList, 0, 2),
        "past the end",
    );
    // Starting at vertex 1, three vertices end one past the buffer.
    invalid_call(
        dev.draw_primitive(PrimitiveType::TriangleList, 1, 1),
        "past the end",
    );
    // An offset that pushes the last vertex out.
    ok(dev.set_stream_source(0, Some(vb), 4, 12));
    invalid_call(
        dev.draw_primitive(PrimitiveType::TriangleList, 0, 1),
        "past the end",
    );
    // Indexed: NumVertices is a hint the indices need not keep to (Windows draws, Wine's
    // test_sysmem_draw); a first vertex (base vertex + min index) past the end is refused.
    ok(dev.set_stream_source(0, Some(vb), 0, 12));
    let ib = ok(dev.create_index_buffer_u16(&[0, 1, 2]));
    ok(dev.set_indices(Some(ib)));
    ok(dev.draw_indexed_primitive(PrimitiveType::TriangleList, 0, 0, 5, 0, 1));
    invalid_call(
        dev.draw_indexed_primitive(PrimitiveType::TriangleList, 3, 0, 3, 0, 1),
        "past the end",
    );
    invalid_call(
        dev.draw_indexed_primitive(PrimitiveType::TriangleList, -1, 0, 3, 0, 1),
        "negative first vertex",
    );
    still_draws(&mut dev);
}

#[test]
fn gpu_index_buffer_too_small() {
    let mut dev = device();
    ok(dev.set_fvf(0x002));
    let vb = ok(dev.create_vertex_buffer_with(&triangle()));
    ok(dev.set_stream_source(0, Some(vb), 0, 12));
    let ib = ok(dev.create_index_buffer_u16(&[0, 1, 2]));
    ok(dev.set_indices(Some(ib)));
    invalid_call(
        dev.draw_indexed_primitive(PrimitiveType::TriangleList, 0, 0, 3, 1, 1),
        "past the end of an index buffer",
    );
    invalid_call(
        dev.draw_indexed_primitive(PrimitiveType::TriangleList, 0, 0, 3, 0, 2),
        "past the end of an index buffer",
    );
    ok(dev.set_indices(None));
    invalid_call(
        dev.draw_indexed_primitive(PrimitiveType::TriangleList, 0, 0, 3, 0, 1),
        "no index buffer",
    );
    // A 32-bit buffer of 5 bytes holds one index.
    let odd = ok(dev.create_index_buffer(5, IndexFormat::Index32));
    ok(dev.set_indices(Some(odd)));
    invalid_call(
        dev.draw_indexed_primitive(PrimitiveType::TriangleList, 0, 0, 3, 0, 1),
        "past the end of an index buffer",
    );
    invalid_call(dev.update_index_buffer(odd, 4, &[0, 0]), "offset 4");
    still_draws(&mut dev);
}

#[test]
fn gpu_shader_of_the_wrong_stage() {
    let mut dev = device();
    let ps = tokens("ps_2_0\nmov oC0, c0\n");
    invalid_call(
        dev.create_vertex_shader(&ps),
        "ps_2_0 is a pixel shader, given to the vertex shader creation call",
    );
    let vs = tokens("vs_2_0\ndcl_position v0\nmov oPos, v0\n");
    invalid_call(
        dev.create_pixel_shader(&vs),
        "vs_2_0 is a vertex shader, given to the pixel shader creation call",
    );
    invalid_call(
        dev.create_vertex_shader(&[0xdead_beef, 1, 2]),
        "0xdeadbeef is not a D3D9 version token",
    );
    still_draws(&mut dev);
}

#[test]
fn gpu_constants_past_the_limit() {
    let mut dev = device();
    invalid_call(
        dev.set_vertex_shader_constant_f(255, &[[0.0; 4]; 2]),
        "past the device's 256",
    );
    invalid_call(
        dev.set_vertex_shader_constant_f(usize::MAX, &[[0.0; 4]]),
        "past the device's",
    );
    invalid_call(
        dev.set_vertex_shader_constant_i(16, &[[0; 4]]),
        "past the device's 16",
    );
    invalid_call(
        dev.set_vertex_shader_constant_b(15, &[true, true]),
        "past the device's 16",
    );
    invalid_call(
        dev.set_pixel_shader_constant_f(224, &[[0.0; 4]]),
        "past the device's 224",
    );
    invalid_call(
        dev.set_pixel_shader_constant_i(16, &[[0; 4]]),
        "past the device's 16",
    );
    invalid_call(
        dev.set_pixel_shader_constant_b(16, &[true]),
        "past the device's 16",
    );
    // The last register is fine.
    ok(dev.set_vertex_shader_constant_f(255, &[[0.0; 4]]));
    still_draws(&mut dev);
}

/// A declaration element on a stream with no vertex buffer (a UP draw's streams past 0)
/// reads zeros, as on Windows (Wine's test_default_diffuse and test_color_vertex).
#[test]
fn gpu_declaration_element_on_an_unset_stream_reads_zeros() {
    let mut dev = device();
    let elements = [
        VertexElement::new(0, 0, DeclType::Float3, Usage::Position, 0),
        VertexElement::new(1, 0, DeclType::D3DColor, Usage::Color, 0),
    ];
    let decl = ok(dev.create_vertex_declaration(&elements));
    let vs = ok(dev.create_vertex_shader(&tokens(
        "vs_2_0\ndcl_position v0\ndcl_color v1\nmov oPos, v0\nmov oD0, v1\n",
    )));
    ok(dev.set_vertex_shader(Some(vs)));
    ok(dev.set_vertex_declaration(Some(decl)));
    let vb = ok(dev.create_vertex_buffer_with(&triangle()));
    ok(dev.set_stream_source(0, Some(vb), 0, 12));
    ok(dev.clear(&[], ClearFlags::TARGET, 0xff00_00ff, 1.0, 0));
    ok(dev.draw_primitive(PrimitiveType::TriangleList, 0, 1));
    assert_eq!(ok(dev.pixel(10, 470)) & 0xffffff, 0);
    assert_eq!(ok(dev.pixel(630, 10)) & 0xffffff, 0xff);
    // A UP draw has stream 0 only.
    ok(dev.clear(&[], ClearFlags::TARGET, 0xff00_00ff, 1.0, 0));
    ok(dev.draw_primitive_up(PrimitiveType::TriangleList, 1, &triangle(), 12));
    assert_eq!(ok(dev.pixel(10, 470)) & 0xffffff, 0);
    let first = ok(dev.create_vertex_shader(&tokens(
        "vs_2_0\ndcl_position v0\nmov oPos, v0\nmov oD0, c0\n",
    )));
    ok(dev.set_vertex_shader(Some(first)));
    still_draws(&mut dev);
}

#[test]
fn gpu_handles_that_name_nothing() {
    let mut dev = device();
    let vb = ok(dev.create_vertex_buffer_with(&triangle()));
    let vs = ok(dev.create_vertex_shader(&tokens("vs_2_0\ndcl_position v0\nmov oPos, v0\n")));
    ok(dev.release_vertex_shader(vs));
    invalid_call(dev.set_vertex_shader(Some(vs)), "not a vertex shader");
    invalid_call(dev.release_vertex_shader(vs), "not a vertex shader");
    invalid_call(dev.set_stream_source(16, Some(vb), 0, 12), "stream 16");
    invalid_call(dev.set_texture(16, None), "sampler 16");
    invalid_call(dev.set_render_target(4, None), "render target 4");
    invalid_call(dev.set_render_target(0, None), "cannot be NULL");
    invalid_call(dev.update_vertex_buffer(vb, 30, &[0; 12]), "offset 30");
    invalid_call(dev.create_vertex_buffer(0), "0 bytes");
    invalid_call(
        dev.set_stream_source_freq(0, 0x8000_0001),
        "INSTANCEDATA on stream 0",
    );
    invalid_call(dev.set_stream_source_freq(1, 0xc000_0001), "both");
    // A plain 0 is refused; INDEXEDDATA | 0 is accepted (Wine's stream_test).
    invalid_call(dev.set_stream_source_freq(1, 0), "frequency of 0");
    let only = |zbuffer| ClearFlags {
        target: false,
        zbuffer,
        stencil: !zbuffer,
    };
    for flags in [ClearFlags::ALL, only(true), only(false)] {
        invalid_call(
            dev.clear(&[], flags, 0, 1.0, 0),
            "without a depth-stencil surface",
        );
    }
    let device_vs = ok(dev.create_vertex_shader(&tokens(
        "vs_2_0\ndcl_position v0\nmov oPos, v0\nmov oD0, c0\n",
    )));
    ok(dev.set_vertex_shader(Some(device_vs)));
    still_draws(&mut dev);
}

/// Buffer locks as Windows takes them: one may start at the end (0 bytes), not past it; its
/// size is clamped at the end; an Unlock of an unlocked buffer succeeds. Releasing a buffer
/// leaves the streams and indices that name others alone; each buffer keeps what it was
/// made with.
#[test]
fn gpu_buffer_locks_and_releases_follow_d3d9() {
    use d3d9_backend::device::{Pool, Usage};
    let mut dev = device();
    let vb = ok(dev.create_vertex_buffer_with(&triangle()));
    let flags = d3d9_backend::device::LockFlags(0);
    // A lock may start at the end (0 bytes), not past it.
    assert_eq!(ok(dev.lock_vertex_buffer(vb, 36, 0, flags)).row_pitch, 0);
    ok(dev.unlock_vertex_buffer(vb));
    invalid_call(dev.lock_vertex_buffer(vb, 40, 0, flags), "offset 40");
    // The lock's size, clamped at the end; an Unlock of an unlocked buffer succeeds.
    for (size, locked) in [(8, 8), (0x7fff_ffff, 32)] {
        let l = ok(dev.lock_vertex_buffer(vb, 4, size, flags));
        assert_eq!((l.row_pitch, l.slice_pitch), (locked, locked));
        ok(dev.unlock_vertex_buffer(vb));
    }
    ok(dev.unlock_vertex_buffer(vb));
    // Releasing a buffer leaves the streams and indices that name others alone.
    ok(dev.set_fvf(0x002));
    ok(dev.set_stream_source(0, Some(vb), 0, 12));
    let ib = ok(dev.create_index_buffer_u16(&[0, 1, 2]));
    ok(dev.set_indices(Some(ib)));
    let other = ok(dev.create_vertex_buffer(12));
    ok(dev.release_vertex_buffer(other));
    let other = ok(dev.create_index_buffer_u16(&[0, 1, 2]));
    ok(dev.release_index_buffer(other));
    ok(dev.draw_indexed_primitive(PrimitiveType::TriangleList, 0, 0, 3, 0, 1));
    assert_eq!(ok(dev.pixel(10, 470)) & 0xffffff, 0x00ff00);
    // What each buffer was made with.
    let dynamic = ok(dev.create_vertex_buffer_in(20, Usage::DYNAMIC, Pool::Default));
    assert_eq!(
        dev.vertex_buffer_desc(dynamic),
        Some((20, Usage::DYNAMIC, Pool::Default))
    );
    let ib32 = ok(dev.create_index_buffer_in(
        24,
        IndexFormat::Index32,
        Usage::WRITE_ONLY,
        Pool::SystemMem,
    ));
    assert_eq!(
        dev.index_buffer_desc(ib32),
        Some((24, IndexFormat::Index32, Usage::WRITE_ONLY, Pool::SystemMem))
    );
}

/// Surfaces of no texels or past the adapter's 2D limit are refused, at the limit made;
/// offscreen plain surfaces of a depth format or NULL are refused; a surface lock's
/// rectangle may not reach left of or above the surface.
#[test]
fn gpu_surface_sizes_and_locks_follow_d3d9() {
    let mut dev = device();
    let flags = d3d9_backend::device::LockFlags(0);
    use d3d9_backend::device::Pool;
    // Surfaces of no texels or past the adapter's 2D limit; offscreen plain surfaces of a
    // depth format or NULL.
    let limit = dev.gpu().device().limits().max_texture_dimension_2d;
    for (w, h) in [(0, 4), (4, 0), (limit + 1, 4), (4, limit + 1)] {
        invalid_call(
            dev.create_render_target(w, h, d3d9_backend::device::Format::A8R8G8B8),
            "surface",
        );
    }
    // At the limit they are made.
    for (w, h) in [(limit, 4), (4, limit)] {
        ok(dev.create_render_target(w, h, d3d9_backend::device::Format::A8R8G8B8));
    }
    for format in [
        d3d9_backend::device::Format::D24S8,
        d3d9_backend::device::Format::Null,
    ] {
        invalid_call(
            dev.create_offscreen_plain_surface(4, 4, format, Pool::SystemMem),
            "depth format",
        );
    }
    // A surface lock's rectangle may not reach left of or above the surface.
    let plain = ok(dev.create_offscreen_plain_surface(
        4,
        4,
        d3d9_backend::device::Format::A8R8G8B8,
        Pool::SystemMem,
    ));
    let rect = |left, top| d3d9_backend::device::Rect {
        left,
        top,
        right: 2,
        bottom: 2,
    };
    for (left, top) in [(-1, 0), (0, -1)] {
        let locked = dev.lock_surface(plain, Some(rect(left, top)), flags);
        invalid_call(locked.map(|l| l.row_pitch), "Rect");
    }
    assert!(!dev.surface_locked(plain));
    ok(dev.lock_surface(plain, Some(rect(0, 0)), flags));
    assert!(dev.surface_locked(plain));
    ok(dev.unlock_surface(plain));
    assert!(!dev.surface_locked(plain));
}

/// `GetRenderTargetData` reads only DEFAULT render targets (not a SYSTEMMEM surface, not a
/// depth-stencil surface); `UpdateSurface` copies between surfaces of one format. Windows
/// answers `D3DERR_INVALIDCALL` to both (the SDK's rules for the two calls).
#[test]
fn gpu_copies_between_the_wrong_surfaces() {
    use d3d9_backend::device::{Filter, Format, Pool, Rect};
    let mut dev = device();
    let sysmem = |dev: &mut Device, format| {
        ok(dev.create_offscreen_plain_surface(16, 16, format, Pool::SystemMem))
    };
    let (a, b) = (
        sysmem(&mut dev, Format::X8R8G8B8),
        sysmem(&mut dev, Format::X8R8G8B8),
    );
    let rule = "not a render target in D3DPOOL_DEFAULT";
    invalid_call(dev.get_render_target_data_into(a, b), rule);
    let depth = ok(dev.create_depth_stencil_surface(16, 16, Format::D24S8));
    invalid_call(dev.get_render_target_data_into(depth, b), rule);
    let target = ok(dev.create_render_target(16, 16, Format::X8R8G8B8));
    ok(dev.get_render_target_data_into(target, b));
    let other = sysmem(&mut dev, Format::A8R8G8B8);
    invalid_call(
        dev.update_surface(other, None, target, None),
        "from A8R8G8B8 to X8R8G8B8",
    );
    ok(dev.update_surface(a, None, target, None));
    // StretchRect: between DEFAULT surfaces; into an offscreen plain surface only from
    // another, of the same size (anywhere in either).
    invalid_call(
        dev.stretch_rect(a, None, target, None, Filter::Point),
        "from SystemMem to Default",
    );
    let plain = |dev: &mut Device| {
        ok(dev.create_offscreen_plain_surface(16, 16, Format::X8R8G8B8, Pool::Default))
    };
    let (p, q) = (plain(&mut dev), plain(&mut dev));
    let rect = |left, top, edge| {
        Some(Rect {
            left,
            top,
            right: left + edge,
            bottom: top + edge,
        })
    };
    ok(dev.stretch_rect(p, rect(2, 3, 4), q, rect(9, 11, 4), Filter::Point));
    invalid_call(
        dev.stretch_rect(p, rect(2, 3, 4), q, rect(9, 11, 5), Filter::Point),
        "only from another, unstretched",
    );
    still_draws(&mut dev);
}
