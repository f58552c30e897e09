//! `ProcessVertices` on a software-vertex-processing device runs the interpreter; draws with
//! the same shader run on the GPU. A vs_3_sw shader reading c5000 (a CONST2–CONST4 bank
//! register, past c2047) gives the same colour both ways, and every processed value read
//! back from the destination buffer is the one Windows writes. And a shader only software
//! processing can run, drawn on a mixed device in each mode.

#![allow(clippy::panic)] // a failing test says why

#[allow(dead_code)]
mod device_common;
use d3d9_backend::device::CullMode;
use d3d9_backend::device::{
    ClearFlags, Device, DeviceError, DeviceParams, Format, LockFlags, Pool, PrimitiveType,
    RenderState, TextureDesc, TextureKind, VertexBufferId, Viewport,
};
use d3d9_translator::asm::assemble_tokens;
use d3d9_translator::bytecode::Usage;
use d3d9_translator::decl::{DeclType, VertexElement, VertexProcessing};
use device_common::{floats, ok};

const SHADER: &str = "vs_3_sw\ndcl_position v0\ndcl_position o0\ndcl_color o1\n\
    mov o0, v0\nmov r0, c5000\nadd o1, r0, c7\n";

fn software_device() -> Device {
    Device::new(DeviceParams {
        processing: VertexProcessing::Software,
        ..DeviceParams::default()
    })
    .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"))
}

/// Little-endian floats.
fn f32s(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

/// The first `len` bytes of `vb`, through `Lock(D3DLOCK_READONLY)`.
fn buffer_bytes(dev: &mut Device, vb: VertexBufferId, len: usize) -> Vec<u8> {
    let locked = ok(dev.lock_vertex_buffer(vb, 0, 0, LockFlags(1 << 4)));
    assert!(
        locked.row_pitch as usize >= len,
        "{} bytes locked",
        locked.row_pitch
    );
    // SAFETY: the lock's memory holds `row_pitch` bytes until the unlock.
    #[allow(unsafe_code)]
    let bytes = unsafe { std::slice::from_raw_parts(locked.bits, len) }.to_vec();
    ok(dev.unlock_vertex_buffer(vb));
    bytes
}

#[test]
fn gpu_process_vertices_and_draws_agree_past_c2047() {
    let mut dev = software_device();
    let tokens = assemble_tokens(SHADER).unwrap_or_else(|e| panic!("{e}"));
    let vs = ok(dev.create_vertex_shader(&tokens));
    let ps = ok(dev.create_pixel_shader(
        &assemble_tokens("ps_3_0\ndcl_color v0\nmov oC0, v0\n").unwrap_or_else(|e| panic!("{e}")),
    ));
    ok(dev.set_vertex_shader(Some(vs)));
    ok(dev.set_pixel_shader(Some(ps)));
    ok(dev.set_fvf(0x002));
    ok(dev.set_vertex_shader_constant_f(5000, &[[0.25, 0.5, 0.0, 1.0]]));
    ok(dev.set_vertex_shader_constant_f(7, &[[0.25, 0.0, 0.5, 0.0]]));
    let triangle = floats(&[-1.0, -1.0, 0.5, -1.0, 1.0, 0.5, 1.0, -1.0, 0.5]);
    let vb = ok(dev.create_vertex_buffer_with(&triangle));
    ok(dev.set_stream_source(0, Some(vb), 0, 12));
    // The CPU path: XYZRHW + DIFFUSE out.
    let out_decl = ok(dev.create_vertex_declaration(&[
        VertexElement::new(0, 0, DeclType::Float4, Usage::PositionT, 0),
        VertexElement::new(0, 16, DeclType::D3DColor, Usage::Color, 0),
    ]));
    let out = ok(dev.create_vertex_buffer(3 * 20));
    ok(dev.process_vertices(0, 0, 3, out, out_decl));
    // Every processed value: the position on the 640 x 480 viewport as Windows writes it
    // (Wine's test_sysmem_draw, visual.c:25483: x * 320 + 320, -y * 240 + 240, z, rhw 1, within
    // 1 ULP) and COLOR0 = c5000 + c7 = (0.5, 0.5, 0.5, 1) as a D3DCOLOR (B, G, R, A bytes).
    let bytes = buffer_bytes(&mut dev, out, 3 * 20);
    for (k, (x, y)) in [(-1.0f32, -1.0f32), (-1.0, 1.0), (1.0, -1.0)]
        .into_iter()
        .enumerate()
    {
        let vertex = &bytes[k * 20..k * 20 + 20];
        let position: Vec<f32> = f32s(&vertex[..16]);
        assert_eq!(
            position,
            [x * 320.0 + 320.0, -y * 240.0 + 240.0, 0.5, 1.0],
            "vertex {k}"
        );
        assert_eq!(vertex[16..], [0x80, 0x80, 0x80, 0xff], "vertex {k} COLOR0");
    }
    // The GPU path: the same draw.
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    ok(dev.clear(&[], ClearFlags::TARGET, 0, 1.0, 0));
    ok(dev.draw_primitive(PrimitiveType::TriangleList, 0, 1));
    let gpu = ok(dev.pixel(10, 470)) & 0xffffff;
    // (0.5, 0.5, 0.5, 1): 0x80 in each channel.
    assert_eq!(gpu, 0x808080);
    // Read the processed vertices back by drawing them as pre-transformed vertices: the
    // pixel shader off, so the diffuse colour shows.
    ok(dev.set_pixel_shader(None));
    ok(dev.set_vertex_declaration(Some(out_decl)));
    ok(dev.set_stream_source(0, Some(out), 0, 20));
    ok(dev.clear(&[], ClearFlags::TARGET, 0, 1.0, 0));
    ok(dev.draw_primitive(PrimitiveType::TriangleList, 0, 1));
    assert_eq!(ok(dev.pixel(10, 470)) & 0xffffff, gpu);
    assert_eq!(ok(dev.pixel(630, 10)) & 0xffffff, 0);
}

#[test]
fn gpu_process_vertices_is_an_invalid_call_under_hardware_processing() {
    let mut dev = Device::new(DeviceParams::default())
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let vs = ok(dev.create_vertex_shader(
        &assemble_tokens("vs_2_0\ndcl_position v0\nmov oPos, v0\n")
            .unwrap_or_else(|e| panic!("{e}")),
    ));
    ok(dev.set_vertex_shader(Some(vs)));
    ok(dev.set_fvf(0x002));
    let decl = ok(dev.create_vertex_declaration_fvf(0x004));
    let out = ok(dev.create_vertex_buffer(64));
    match dev.process_vertices(0, 0, 1, out, decl) {
        Err(e) => assert!(e.is_invalid_call(), "{e}"),
        Ok(()) => panic!("ProcessVertices ran a shader on a hardware device"),
    }
    // Without a vertex shader the fixed-function stage processes there too (Windows, in
    // Wine's test_sysmem_draw).
    ok(dev.set_vertex_shader(None));
    let vb = ok(dev.create_vertex_buffer(12));
    ok(dev.update_vertex_buffer(vb, 0, &floats(&[0.5, -0.5, 0.0])));
    ok(dev.set_stream_source(0, Some(vb), 0, 12));
    ok(dev.process_vertices(0, 0, 1, out, decl));
}

/// A shader past the hardware limits on a mixed device (a vs_2_0 `def c256`, accepted at
/// creation, which checks against the software limits), as Windows draws it in Wine's
/// test_mvp_software_vertex_shaders: under hardware processing the first draw is
/// D3DERR_INVALIDCALL and the next takes the fixed-function stage (the vertex colour);
/// under software processing the shader draws (its white).
#[test]
fn gpu_a_software_only_shader_under_hardware_processing() {
    let mut dev = Device::new(DeviceParams {
        processing: VertexProcessing::Mixed,
        ..DeviceParams::default()
    })
    .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let shader =
        "vs_2_0\ndcl_position v0\ndef c256, 1.0, 1.0, 1.0, 1.0\nmov oD0, c256\nmov oPos, v0\n";
    let vs =
        ok(dev.create_vertex_shader(&assemble_tokens(shader).unwrap_or_else(|e| panic!("{e}"))));
    // D3DFVF_XYZ | D3DFVF_DIFFUSE, a red quad over the target.
    let mut quad = Vec::new();
    for (x, y) in [(-1.0f32, -1.0f32), (-1.0, 1.0), (1.0, -1.0), (1.0, 1.0)] {
        quad.extend(floats(&[x, y, 0.1]));
        quad.extend(0xffff_0000u32.to_le_bytes());
    }
    ok(dev.set_fvf(0x002 | 0x040));
    ok(dev.set_render_state(RenderState::Lighting(false)));
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    ok(dev.set_vertex_shader(Some(vs)));
    let draw = |dev: &mut Device| {
        ok(dev.clear(&[], ClearFlags::TARGET, 0, 1.0, 0));
        let drawn = dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &quad, 16);
        (drawn, ok(dev.pixel(5, 5)) & 0xff_ffff)
    };
    let (first, colour) = draw(&mut dev);
    assert!(
        matches!(first, Err(d3d9_backend::DeviceError::InvalidCall { .. })),
        "{first:?}"
    );
    assert_eq!(colour, 0, "nothing drawn");
    let (second, colour) = draw(&mut dev);
    assert!(second.is_ok(), "{second:?}");
    assert_eq!(colour, 0xff_0000, "the vertex colour, not the shader's");
    ok(dev.set_software_vertex_processing(true));
    let (third, colour) = draw(&mut dev);
    assert!(third.is_ok(), "{third:?}");
    assert_eq!(colour, 0xff_ffff, "the shader's white");
}

/// Fixed-function `ProcessVertices` writes texture coordinate set n where the destination
/// declares TEXCOORDn (n < 8, the stages' outputs): stage n's D3DTSS_TEXCOORDINDEX picks the
/// input set. An element the stages do not write (TEXCOORD8) is written as 0.
#[test]
fn gpu_fixed_function_process_vertices_writes_the_declared_texture_coordinates() {
    const TEXCOORDINDEX: u32 = 11;
    let mut dev = software_device();
    ok(dev.set_render_state(RenderState::Lighting(false)));
    // D3DFVF_XYZ | D3DFVF_TEX2: set 0 (0.25, 0.5), set 1 (0.75, 0.125).
    ok(dev.set_fvf(0x002 | 0x200));
    let vertex = floats(&[0.5, -0.5, 0.0, 0.25, 0.5, 0.75, 0.125]);
    let vb = ok(dev.create_vertex_buffer_with(&vertex));
    ok(dev.set_stream_source(0, Some(vb), 0, 28));
    ok(dev.set_texture_stage_state_raw(0, TEXCOORDINDEX, 1));
    ok(dev.set_texture_stage_state_raw(1, TEXCOORDINDEX, 0));
    let out_decl = ok(dev.create_vertex_declaration(&[
        VertexElement::new(0, 0, DeclType::Float4, Usage::PositionT, 0),
        VertexElement::new(0, 16, DeclType::Float2, Usage::TexCoord, 1),
        VertexElement::new(0, 24, DeclType::Float2, Usage::TexCoord, 0),
        VertexElement::new(0, 32, DeclType::Float2, Usage::TexCoord, 8),
    ]));
    let out = ok(dev.create_vertex_buffer(40));
    ok(dev.update_vertex_buffer(out, 0, &floats(&[9.0; 10])));
    ok(dev.process_vertices(0, 0, 1, out, out_decl));
    let bytes = buffer_bytes(&mut dev, out, 40);
    let values: Vec<f32> = f32s(&bytes);
    assert_eq!(
        values[..4],
        [0.5 * 320.0 + 320.0, 0.5 * 240.0 + 240.0, 0.0, 1.0]
    );
    assert_eq!(values[4..6], [0.25, 0.5], "TEXCOORD1: stage 1 reads set 0");
    assert_eq!(
        values[6..8],
        [0.75, 0.125],
        "TEXCOORD0: stage 0 reads set 1"
    );
    assert_eq!(values[8..], [0.0, 0.0], "TEXCOORD8: no stage writes it");
}

/// `ProcessVertices(1, 2, 2, …)`: source vertices 1 and 2 land at destination vertices 2 and
/// 3, the two before them untouched. The declaration reads streams 0 and 2 (stream 1 is
/// not set, which it does not read). A shader sampling a bound vertex texture is refused
/// (the textures live on the GPU, the interpreter reads system memory); unbound, it reads
/// (0, 0, 0, 1); a shader that samples nothing processes with a vertex texture bound.
#[test]
fn gpu_process_vertices_from_a_start_to_a_destination_index() {
    let mut dev = software_device();
    let decl = ok(dev.create_vertex_declaration(&[
        VertexElement::new(0, 0, DeclType::Float3, Usage::Position, 0),
        VertexElement::new(2, 0, DeclType::Float4, Usage::Color, 0),
    ]));
    ok(dev.set_vertex_declaration(Some(decl)));
    let x = |k: usize| k as f32 * 0.25 - 0.5;
    let positions: Vec<f32> = (0..4).flat_map(|k| [x(k), -x(k), 0.25]).collect();
    // Vertex k: red k & 1, green k >> 1, blue and alpha 1.
    let colours: Vec<f32> = (0..4)
        .flat_map(|k| [(k & 1) as f32, (k >> 1) as f32, 1.0, 1.0])
        .collect();
    let vb = ok(dev.create_vertex_buffer_with(&floats(&positions)));
    ok(dev.set_stream_source(0, Some(vb), 0, 12));
    let vb = ok(dev.create_vertex_buffer_with(&floats(&colours)));
    ok(dev.set_stream_source(2, Some(vb), 0, 16));
    let shader = |dev: &mut Device, text: &str| {
        let vs =
            ok(dev.create_vertex_shader(&assemble_tokens(text).unwrap_or_else(|e| panic!("{e}"))));
        ok(dev.set_vertex_shader(Some(vs)));
    };
    shader(
        &mut dev,
        "vs_3_0\ndcl_position v0\ndcl_color v1\ndcl_position o0\ndcl_color o1\n\
         mov o0, v0\nmov o1, v1\n",
    );
    let out_decl = ok(dev.create_vertex_declaration(&[
        VertexElement::new(0, 0, DeclType::Float4, Usage::PositionT, 0),
        VertexElement::new(0, 16, DeclType::D3DColor, Usage::Color, 0),
    ]));
    let out = ok(dev.create_vertex_buffer_with(&[0xaa; 4 * 20]));
    ok(dev.process_vertices(1, 2, 2, out, out_decl));
    let bytes = buffer_bytes(&mut dev, out, 4 * 20);
    assert!(
        bytes[..40].iter().all(|&b| b == 0xaa),
        "vertices 0 and 1 kept"
    );
    for (k, vertex) in [(1, &bytes[40..60]), (2, &bytes[60..80])] {
        let position: Vec<f32> = f32s(&vertex[..16]);
        assert_eq!(
            position,
            [x(k) * 320.0 + 320.0, x(k) * 240.0 + 240.0, 0.25, 1.0],
            "source vertex {k}"
        );
        let (red, green) = ((k & 1) as u8 * 0xff, (k >> 1) as u8 * 0xff);
        assert_eq!(vertex[16..], [0xff, green, red, 0xff], "source vertex {k}");
    }

    let texture = ok(dev.create_texture_with(&TextureDesc {
        kind: TextureKind::TwoD,
        width: 4,
        height: 4,
        depth: 1,
        levels: 1,
        format: Format::A32B32G32R32F,
        usage: Default::default(),
        pool: Pool::Managed,
    }));
    ok(dev.set_texture(257, Some(texture)));
    // Samples nothing: processed with the texture bound.
    ok(dev.process_vertices(0, 0, 1, out, out_decl));
    shader(
        &mut dev,
        "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_color o1\ndcl_2d s0\n\
         mov o0, v0\nmov r0, c0\ntexldl r1, r0, s0\nmov o1, r1\n",
    );
    let refused = dev.process_vertices(0, 0, 1, out, out_decl);
    assert!(
        matches!(refused, Err(DeviceError::Unsupported { .. })),
        "{refused:?}"
    );
    ok(dev.set_texture(257, None));
    ok(dev.process_vertices(0, 0, 1, out, out_decl));
    let bytes = buffer_bytes(&mut dev, out, 20);
    assert_eq!(
        bytes[16..],
        [0, 0, 0, 0xff],
        "an unbound sampler's (0, 0, 0, 1)"
    );

    // w = 2 on a viewport at (32, 16), 320 x 240, depth 0.25..0.75: x, y and z divided by w
    // (-0.25, 0.25, 0.25), z mapped to 0.25 + 0.25 * 0.5, rhw 0.5. POSITION1 is a plain
    // output, not transformed.
    shader(
        &mut dev,
        "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_position1 o1\n\
         mul o0, v0, c1\nmov o1, c2\n",
    );
    ok(dev.set_vertex_shader_constant_f(1, &[[2.0; 4], [1.0, 2.0, 3.0, 4.0]]));
    ok(dev.set_viewport(Viewport {
        x: 32,
        y: 16,
        width: 320,
        height: 240,
        min_z: 0.25,
        max_z: 0.75,
    }));
    let out_decl = ok(dev.create_vertex_declaration(&[
        VertexElement::new(0, 0, DeclType::Float4, Usage::PositionT, 0),
        VertexElement::new(0, 16, DeclType::Float4, Usage::Position, 1),
    ]));
    ok(dev.process_vertices(1, 0, 1, out, out_decl));
    let values: Vec<f32> = f32s(&buffer_bytes(&mut dev, out, 32));
    assert_eq!(
        values[..4],
        [32.0 + 0.75 * 160.0, 16.0 + 0.75 * 120.0, 0.375, 0.5]
    );
    assert_eq!(values[4..], [1.0, 2.0, 3.0, 4.0], "POSITION1 as written");
}
