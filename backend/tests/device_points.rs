//! Point lists with a size, drawn as quads by the device (WebGPU has no point size): sizes
//! from `D3DRS_POINTSIZE`, clamped by `_MIN`/`_MAX`, from a shader's `oPts`, fixed-function
//! point scaling, sprite texture coordinates per quadrant, indexed point lists, and Wine's
//! `test_pointsize` (dlls/d3d9/tests/visual.c) replayed through the device where it can be.
//! Coverage is checked pixel-exactly, edges included: a point of size `s` centred on D3D9
//! pixel (cx, cy) covers the pixels whose centres lie in the square of side `s` around the
//! pixel centre, left and top edges in, right and bottom edges out. GPU tests fail without an
//! adapter.

#![allow(clippy::panic)] // a failing test says why

#[allow(dead_code)]
mod device_common;
use d3d9_backend::device::TextureAddress;
use d3d9_backend::device::{
    ClearFlags, Device, Format, PrimitiveType, RenderState, SamplerState, StageArg, StageOp,
    SurfaceData, TextureStage, TransformState,
};
use d3d9_translator::bytecode::Usage;
use d3d9_translator::decl::{DeclType, VertexElement};
use device_common::{device, floats, ok, tokens};

/// A shader of Wine's visual.c from the corpus, by array name and version token.
fn visual(name: &str, version: u32) -> Vec<u32> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/corpus/d3d9_visual.json"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let json: serde_json::Value = ok(serde_json::from_str(&text));
    for s in json["shaders"]
        .as_array()
        .unwrap_or_else(|| panic!("no shaders"))
    {
        let t: Vec<u32> = s["tokens"]
            .as_array()
            .unwrap_or_else(|| panic!("tokens"))
            .iter()
            .map(|v| v.as_u64().unwrap_or_else(|| panic!("token")) as u32)
            .collect();
        if s["name"].as_str() == Some(name) && t.first() == Some(&version) {
            return t;
        }
    }
    panic!("no visual.c shader {name}");
}

const D3DFVF_XYZ: u32 = 0x002;
const D3DFVF_XYZRHW: u32 = 0x004;
const D3DFVF_PSIZE: u32 = 0x020;

const BLUE: u32 = 0xff00_00ff;
const WHITE: u32 = 0xffff_ffff;

fn rs(dev: &mut Device, state: RenderState) {
    ok(dev.set_render_state(state));
}

fn read(dev: &mut Device) -> SurfaceData {
    let rt = dev.back_buffer();
    ok(dev.get_render_target_data(rt))
}

fn color(s: &SurfaceData, x: u32, y: u32) -> u32 {
    s.color(x, y)
        .unwrap_or_else(|| panic!("({x}, {y}) outside"))
}

/// The pixel range a point of `size` centred on D3D9 pixel `c` covers on one axis: the
/// pixel centres `p + 0.5` in `[c + 0.5 − size/2, c + 0.5 + size/2)`.
fn covered(c: u32, size: f32) -> std::ops::Range<i64> {
    let lo = (f64::from(c) + 0.5 - f64::from(size) / 2.0 - 0.5).ceil() as i64;
    let hi = (f64::from(c) + 0.5 + f64::from(size) / 2.0 - 0.5).ceil() as i64;
    lo..hi
}

/// Every pixel of `s` within `window` (x0, y0, x1, y1, exclusive ends) is `inside` where a
/// point of `size` at (cx, cy) covers it and `outside` elsewhere; returns the pixels checked.
fn assert_square(
    s: &SurfaceData,
    (cx, cy): (u32, u32),
    size: f32,
    inside: u32,
    outside: u32,
    what: &str,
) -> usize {
    let (xs, ys) = (covered(cx, size), covered(cy, size));
    let margin = (size as u32) / 2 + 3;
    let mut checked = 0;
    for y in cy.saturating_sub(margin)..(cy + margin).min(s.height) {
        for x in cx.saturating_sub(margin)..(cx + margin).min(s.width) {
            let expected = if xs.contains(&i64::from(x)) && ys.contains(&i64::from(y)) {
                inside
            } else {
                outside
            };
            let got = color(s, x, y);
            assert_eq!(
                got, expected,
                "{what}: size {size} at ({cx}, {cy}): pixel ({x}, {y}) is {got:#010x}, expected {expected:#010x}"
            );
            checked += 1;
        }
    }
    checked
}

/// One pre-transformed, white point at D3D9 pixel (x, y).
fn rhw_point(x: u32, y: u32) -> Vec<u8> {
    floats(&[x as f32, y as f32, 0.1, 1.0])
}

/// Wine's first `test_pointsize` block: POINTSIZE 15, 31, 30.75, 63, 62.75 and 1, POINTSIZE
/// 15 with MAX 1, POINTSIZE 1 with MIN 15, each a white point on blue, checked with Wine's
/// `point_match` radii and then pixel-exactly around each point. As Wine draws it (XYZ
/// vertices through its projection of [0, 640] x [0, 480] to clip space), and with the same
/// pixel positions as XYZRHW vertices.
#[test]
fn gpu_point_sizes_from_pointsize_min_and_max() {
    for pretransformed in [false, true] {
        point_sizes_from_pointsize_min_and_max(pretransformed);
    }
}

fn point_sizes_from_pointsize_min_and_max(pretransformed: bool) {
    let mut dev = device();
    rs(&mut dev, RenderState::Lighting(false));
    if pretransformed {
        ok(dev.set_fvf(D3DFVF_XYZRHW));
    } else {
        ok(dev.set_fvf(D3DFVF_XYZ));
        ok(dev.set_transform(
            TransformState::Projection,
            [
                [2.0 / 640.0, 0.0, 0.0, 0.0],
                [0.0, -2.0 / 480.0, 0.0, 0.0],
                [0.0, 0.0, 1.0, 0.0],
                [-1.0, 1.0, 0.0, 1.0],
            ],
        ));
    }
    ok(dev.clear(&[], ClearFlags::TARGET, BLUE, 1.0, 0));
    // (x, POINTSIZE, MIN, MAX, the size D3D9 draws, Wine's point_match radius)
    let cases: [(u32, f32, f32, f32, f32, u32); 8] = [
        (64, 15.0, 1.0, 64.0, 15.0, 7),
        (128, 31.0, 1.0, 64.0, 31.0, 15),
        (192, 30.75, 1.0, 64.0, 30.75, 15),
        (256, 63.0, 1.0, 64.0, 63.0, 31),
        (384, 62.75, 1.0, 64.0, 62.75, 31),
        (320, 1.0, 1.0, 64.0, 1.0, 0),
        (448, 15.0, 1.0, 1.0, 1.0, 0),
        (512, 1.0, 15.0, 64.0, 15.0, 7),
    ];
    for &(x, size, min, max, _, _) in &cases {
        rs(&mut dev, RenderState::PointSize(size));
        rs(&mut dev, RenderState::PointSizeMin(min));
        rs(&mut dev, RenderState::PointSizeMax(max));
        if pretransformed {
            ok(dev.draw_primitive_up(PrimitiveType::PointList, 1, &rhw_point(x, 64), 16));
        } else {
            let vertex = floats(&[x as f32, 64.0, 0.1]);
            ok(dev.draw_primitive_up(PrimitiveType::PointList, 1, &vertex, 12));
        }
    }
    let s = read(&mut dev);
    let mut checks = 0;
    for &(x, _, _, _, drawn, r) in &cases {
        // point_match(x, 64, r): white at ±r on both axes, blue at ±(r + 1).
        for (dx, dy) in [(1i64, 0i64), (-1, 0), (0, 1), (0, -1)] {
            for (d, expected) in [(i64::from(r), WHITE), (i64::from(r) + 1, BLUE)] {
                let px = (i64::from(x) + dx * d) as u32;
                let py = (64 + dy * d) as u32;
                assert_eq!(color(&s, px, py), expected, "point_match({x}, 64, {r})");
                checks += 1;
            }
        }
        assert_square(&s, (x, 64), drawn, WHITE, BLUE, "POINTSIZE");
    }
    assert_eq!(checks, 8 * 8);
}

/// A vertex shader's `oPts` sizes each point (clamped by MIN and MAX); a size of 0 draws
/// nothing, as on Windows hardware; points of size 1 stay native points.
#[test]
fn gpu_point_size_from_the_vertex_shader() {
    let mut dev = device();
    let vs = ok(dev.create_vertex_shader(&tokens(
        "vs_2_0\ndcl_position v0\ndcl_psize v1\nmov oPos, v0\nmov oPts, v1.x\nmov oD0, c0\n",
    )));
    let decl = ok(dev.create_vertex_declaration(&[
        VertexElement::new(0, 0, DeclType::Float3, Usage::Position, 0),
        VertexElement::new(0, 12, DeclType::Float1, Usage::PSize, 0),
    ]));
    ok(dev.set_vertex_declaration(Some(decl)));
    ok(dev.set_vertex_shader(Some(vs)));
    ok(dev.set_vertex_shader_constant_f(0, &[[1.0, 1.0, 1.0, 1.0]]));
    ok(dev.clear(&[], ClearFlags::TARGET, BLUE, 1.0, 0));
    // Clip-space x, y of D3D9 pixel (px, 240) on 640 x 480 (its centre).
    let at = |px: u32| -> [f32; 2] { [(px as f32) / 320.0 - 1.0, 1.0 - 240.0 / 240.0] };
    // (pixel x, oPts, size drawn): MIN 1 and MAX 40 here.
    rs(&mut dev, RenderState::PointSizeMax(40.0));
    let points: [(u32, f32, f32); 5] = [
        (80, 4.0, 4.0),
        (200, 31.0, 31.0),
        (300, 32.0, 32.0),
        (400, 0.25, 1.0),
        (520, 100.0, 40.0),
    ];
    let mut data = Vec::new();
    for &(x, size, _) in &points {
        let [cx, cy] = at(x);
        data.extend(floats(&[cx, cy, 0.5, size]));
    }
    ok(dev.draw_primitive_up(PrimitiveType::PointList, 5, &data, 16));
    let s = read(&mut dev);
    for &(x, size, drawn) in &points {
        assert_square(&s, (x, 240), drawn, WHITE, BLUE, &format!("oPts {size}"));
    }
    // oPts 0 with MIN 0: nothing.
    rs(&mut dev, RenderState::PointSizeMin(0.0));
    ok(dev.clear(&[], ClearFlags::TARGET, BLUE, 1.0, 0));
    let [cx, cy] = at(320);
    ok(dev.draw_primitive_up(
        PrimitiveType::PointList,
        1,
        &floats(&[cx, cy, 0.5, 0.0]),
        16,
    ));
    let s = read(&mut dev);
    assert_square(&s, (320, 240), 0.0, WHITE, BLUE, "oPts 0");
}

/// Native one-pixel points and POINTSIZE 4 from a fixed-function stage: the point is on the
/// D3D9 pixel its position names (pixel centres at integer coordinates).
#[test]
fn gpu_single_pixel_and_small_points_land_on_d3d9_pixel_centres() {
    let mut dev = device();
    rs(&mut dev, RenderState::Lighting(false));
    ok(dev.set_fvf(D3DFVF_XYZRHW));
    ok(dev.clear(&[], ClearFlags::TARGET, BLUE, 1.0, 0));
    ok(dev.draw_primitive_up(PrimitiveType::PointList, 1, &rhw_point(100, 100), 16));
    rs(&mut dev, RenderState::PointSize(4.0));
    ok(dev.draw_primitive_up(PrimitiveType::PointList, 1, &rhw_point(200, 100), 16));
    let s = read(&mut dev);
    assert_square(&s, (100, 100), 1.0, WHITE, BLUE, "native point");
    assert_square(&s, (200, 100), 4.0, WHITE, BLUE, "POINTSIZE 4");
    // Size 4 at pixel 200: pixels 198..=201.
    assert_eq!(covered(200, 4.0), 198..202);
}

/// Fixed-function point scaling: size = Vh · POINTSIZE · sqrt(1 / (A + B·De + C·De²)), De
/// the eye distance (the length of `v · World · View`), then clamped.
#[test]
fn gpu_point_scale_for_fixed_function_vertices() {
    let mut dev = device();
    let rt = ok(dev.create_render_target(128, 128, Format::A8R8G8B8));
    ok(dev.set_render_target(0, Some(rt)));
    rs(&mut dev, RenderState::Lighting(false));
    ok(dev.set_fvf(D3DFVF_XYZ));
    rs(&mut dev, RenderState::PointScaleEnable(true));
    let cases: [([f32; 3], f32, [f32; 3]); 3] = [
        // De = 0.5: factor 2 → 128 · 0.125 · 2 = 32.
        ([0.0, 0.0, 0.5], 0.125, [0.0, 0.0, 1.0]),
        // De = 0.25: 1 / sqrt(1 + 0.25·4) → 128 · 0.25 / sqrt(2) = 22.627.
        ([0.0, 0.0, 0.25], 0.25, [1.0, 4.0, 0.0]),
        // A = 1: 128 · 0.125 = 16.
        ([0.0, 0.0, 0.75], 0.125, [1.0, 0.0, 0.0]),
    ];
    for (position, size, abc) in cases {
        rs(&mut dev, RenderState::PointSize(size));
        rs(&mut dev, RenderState::PointScale(abc));
        ok(dev.clear(&[], ClearFlags::TARGET, BLUE, 1.0, 0));
        ok(dev.draw_primitive_up(PrimitiveType::PointList, 1, &floats(&position), 12));
        let s = ok(dev.get_render_target_data(rt));
        let de = (position[0].powi(2) + position[1].powi(2) + position[2].powi(2)).sqrt();
        let drawn = 128.0 * size * (1.0 / (abc[0] + abc[1] * de + abc[2] * de * de)).sqrt();
        assert_square(&s, (64, 64), drawn, WHITE, BLUE, "point scale");
    }
    // De is the eye-space distance: model z 0.25, world z + 0.5, view scale 2: eye
    // (0, 0, 1.5); the projection takes z to 0.375. 128 · 0.25 / 1.5 = 21.33 (the model
    // position would give 128, the clip-space one 85.3, clamped to 64).
    let mut world = d3d9_backend::device::IDENTITY;
    world[3] = [0.0, 0.0, 0.5, 1.0];
    let mut view = d3d9_backend::device::IDENTITY;
    for (i, row) in view.iter_mut().enumerate().take(3) {
        row[i] = 2.0;
    }
    let mut projection = d3d9_backend::device::IDENTITY;
    for (i, row) in projection.iter_mut().enumerate().take(3) {
        row[i] = if i == 2 { 0.25 } else { 0.5 };
    }
    ok(dev.set_transform(TransformState::WORLD, world));
    ok(dev.set_transform(TransformState::View, view));
    ok(dev.set_transform(TransformState::Projection, projection));
    rs(&mut dev, RenderState::PointSize(0.25));
    rs(&mut dev, RenderState::PointScale([0.0, 0.0, 1.0]));
    ok(dev.clear(&[], ClearFlags::TARGET, BLUE, 1.0, 0));
    ok(dev.draw_primitive_up(PrimitiveType::PointList, 1, &floats(&[0.0, 0.0, 0.25]), 12));
    let s = ok(dev.get_render_target_data(rt));
    assert_square(
        &s,
        (64, 64),
        128.0 * 0.25 / 1.5,
        WHITE,
        BLUE,
        "eye-space De",
    );
    // A vertex shader's size is not scaled (D3D9 scales fixed-function vertices only).
    let vs = ok(dev.create_vertex_shader(&tokens(
        "vs_1_1\ndcl_position v0\nmov oPos, v0\nmov oD0, c0\n",
    )));
    ok(dev.set_vertex_shader(Some(vs)));
    ok(dev.set_vertex_shader_constant_f(0, &[[1.0, 1.0, 1.0, 1.0]]));
    rs(&mut dev, RenderState::PointSize(10.0));
    rs(&mut dev, RenderState::PointScale([0.0, 0.0, 1.0]));
    ok(dev.clear(&[], ClearFlags::TARGET, BLUE, 1.0, 0));
    ok(dev.draw_primitive_up(PrimitiveType::PointList, 1, &floats(&[0.0, 0.0, 0.5]), 12));
    let s = ok(dev.get_render_target_data(rt));
    assert_square(&s, (64, 64), 10.0, WHITE, BLUE, "vertex shader, scale on");
}

/// DrawIndexedPrimitive and DrawIndexedPrimitiveUP of expanded points: de-indexed, each
/// index's vertex drawn (a repeated index draws its point twice, over itself).
#[test]
fn gpu_indexed_point_lists_are_expanded() {
    let mut dev = device();
    rs(&mut dev, RenderState::Lighting(false));
    ok(dev.set_fvf(D3DFVF_XYZRHW | D3DFVF_PSIZE));
    let vertices: Vec<u8> = [(40u32, 6.0f32), (100, 9.0), (160, 12.0), (220, 3.0)]
        .iter()
        .flat_map(|&(x, size)| floats(&[x as f32, 50.0, 0.1, 1.0, size]))
        .collect();
    let vb = ok(dev.create_vertex_buffer_with(&vertices));
    // Indices 2, 0, 2 from index 1 on, base vertex 1: vertices 3, 1, 3.
    let ib = ok(dev.create_index_buffer_u16(&[9, 2, 0, 2]));
    ok(dev.set_stream_source(0, Some(vb), 0, 20));
    ok(dev.set_indices(Some(ib)));
    ok(dev.clear(&[], ClearFlags::TARGET, BLUE, 1.0, 0));
    ok(dev.draw_indexed_primitive(PrimitiveType::PointList, 1, 0, 3, 1, 3));
    let s = read(&mut dev);
    assert_square(&s, (100, 50), 9.0, WHITE, BLUE, "indexed: vertex 1");
    assert_square(&s, (220, 50), 3.0, WHITE, BLUE, "indexed: vertex 3");
    for x in [40u32, 160] {
        assert_eq!(color(&s, x, 50), BLUE, "vertex at {x} is not indexed");
    }
    // The UP form, its vertices lower than the vertex buffer's (still set on stream 0): the
    // points come from the call's vertices.
    let up_vertices: Vec<u8> = vertices
        .chunks(20)
        .flat_map(|v| [&v[..4], &150.0f32.to_le_bytes(), &v[8..]].concat())
        .collect();
    ok(dev.clear(&[], ClearFlags::TARGET, BLUE, 1.0, 0));
    ok(dev.draw_indexed_primitive_up(
        PrimitiveType::PointList,
        0,
        4,
        2,
        d3d9_harness::Indices::U16(&[0, 2]),
        &up_vertices,
        20,
    ));
    let s = read(&mut dev);
    assert_square(&s, (40, 150), 6.0, WHITE, BLUE, "indexed UP: vertex 0");
    assert_square(&s, (160, 150), 12.0, WHITE, BLUE, "indexed UP: vertex 2");
    assert_eq!(color(&s, 100, 150), BLUE);
    assert_eq!(color(&s, 40, 50), BLUE, "the vertex buffer's vertex 0");
}

/// The two 2x2 textures of Wine's sprite test: tex1 red on top, black below; tex2 black on
/// the left, green on the right.
fn sprite_textures(dev: &mut Device) {
    let texture = |dev: &mut Device, texels: [u32; 4]| {
        let t = ok(dev.create_texture(2, 2, 1, Format::A8R8G8B8));
        let bytes: Vec<u8> = texels.iter().flat_map(|t| t.to_le_bytes()).collect();
        ok(dev.update_texture(t, 0, &bytes));
        t
    };
    let tex1 = texture(dev, [0x00ff_0000, 0x00ff_0000, 0x0000_0000, 0x0000_0000]);
    let tex2 = texture(dev, [0x0000_0000, 0x0000_ff00, 0x0000_0000, 0x0000_ff00]);
    ok(dev.set_texture(0, Some(tex1)));
    ok(dev.set_texture(1, Some(tex2)));
}

/// Wine's point sprite block: POINTSPRITEENABLE, POINTSIZE 32, both textures' coordinates
/// replaced by the sprite coordinate, (0, 0) top left: red, yellow, black, green per
/// quadrant at (64 ± 4, 64 ± 4). As Wine draws it (an XYZ vertex through its projection to
/// pixels, texture stage 0 SELECTARG1(TEXTURE), stage 1 ADD(TEXTURE, CURRENT)), and with an
/// XYZRHW vertex and `pshader_code` (ps_1_1, `tex t0`, `tex t1`, `add`), which computes the
/// same.
#[test]
fn gpu_point_sprite_quadrants() {
    for fixed_function in [true, false] {
        point_sprite_quadrants(fixed_function);
    }
}

fn point_sprite_quadrants(fixed_function: bool) {
    let mut dev = device();
    sprite_textures(&mut dev);
    let point = if fixed_function {
        let stage = |op, arg2| TextureStage {
            op,
            arg1: StageArg::Texture,
            arg2,
        };
        ok(dev.set_texture_stage(0, stage(StageOp::SelectArg1, StageArg::Current)));
        ok(dev.set_texture_stage(1, stage(StageOp::Add, StageArg::Current)));
        ok(dev.set_transform(
            TransformState::Projection,
            [
                [2.0 / 640.0, 0.0, 0.0, 0.0],
                [0.0, -2.0 / 480.0, 0.0, 0.0],
                [0.0, 0.0, 1.0, 0.0],
                [-1.0, 1.0, 0.0, 1.0],
            ],
        ));
        ok(dev.set_fvf(D3DFVF_XYZ));
        floats(&[64.0, 64.0, 0.1])
    } else {
        let ps = ok(dev.create_pixel_shader(&visual("pshader_code", 0xffff_0101)));
        ok(dev.set_pixel_shader(Some(ps)));
        ok(dev.set_fvf(D3DFVF_XYZRHW));
        rhw_point(64, 64)
    };
    let stride = point.len() as u32;
    rs(&mut dev, RenderState::Lighting(false));
    ok(dev.clear(&[], ClearFlags::TARGET, BLUE, 1.0, 0));
    rs(&mut dev, RenderState::PointSpriteEnable(true));
    rs(&mut dev, RenderState::PointSize(32.0));
    ok(dev.draw_primitive_up(PrimitiveType::PointList, 1, &point, stride));
    let s = read(&mut dev);
    // Wine's checks (getPixelColor masks alpha).
    let expected = [
        ((60, 60), 0x00ff_0000),
        ((60, 68), 0x0000_0000),
        ((68, 68), 0x0000_ff00),
        ((68, 60), 0x00ff_ff00),
    ];
    for ((x, y), c) in expected {
        assert_eq!(
            color(&s, x, y) & 0x00ff_ffff,
            c,
            "pSprite ({x}, {y}), fixed function {fixed_function}"
        );
    }
    // Pixel-exact: every pixel of the sprite is its quadrant's colour, the edges included.
    // On the left and top edges the sprite coordinate is 0 up to rounding, which wrap
    // addressing may take to the far texel (Wine skips edges for this reason); clamped
    // coordinates make every pixel exact, but for row and column 64, whose pixel centre is
    // the point's centre: the coordinate there is 0.5, the boundary between the texels, so
    // (as Wine does) they are skipped.
    for sampler in 0..2 {
        for a in [SamplerState::AddressU, SamplerState::AddressV] {
            ok(dev.set_sampler_state(sampler, a(TextureAddress::Clamp)));
        }
    }
    ok(dev.clear(&[], ClearFlags::TARGET, BLUE, 1.0, 0));
    ok(dev.draw_primitive_up(PrimitiveType::PointList, 1, &point, stride));
    let s = read(&mut dev);
    for y in (40..90u32).filter(|&y| y != 64) {
        for x in (40..90u32).filter(|&x| x != 64) {
            let inside = (48..80).contains(&x) && (48..80).contains(&y);
            let expected = match (inside, x < 64, y < 64) {
                (false, _, _) => BLUE,
                (true, true, true) => 0x00ff_0000,
                (true, false, true) => 0x00ff_ff00,
                (true, true, false) => 0x0000_0000,
                (true, false, false) => 0x0000_ff00,
            };
            // The back buffer is X8R8G8B8: alpha reads 0xff.
            assert_eq!(
                color(&s, x, y) | 0xff00_0000,
                expected | 0xff00_0000,
                "sprite pixel ({x}, {y}), fixed function {fixed_function}"
            );
        }
    }
}

/// Wine's `test_pointsize` setups loop, replayed through the device: every (setup, test) of
/// Wine's tables whose FVF matches, on a 128x128 A8R8G8B8 target with POINTSPRITEENABLE
/// on, checked as Wine checks them (the square inside and outside, edges and the centre
/// lines skipped as Wine skips them, then its eight corner checks; size ≤ 1: the centre and
/// its four neighbours). Wine's state: the projection to pixels as `SetTransform`
/// (fixed-function vertices) and as `c0..c3` (its vertex shaders), texture stage 0
/// SELECTARG1(TEXTURE) and stage 1 ADD(TEXTURE, CURRENT) (the setups without a pixel
/// shader), POINTSCALE A = B = C = 1: the fixed-function setups' scaled sizes 45 and 33 are
/// `128 · size / sqrt(1 + De + De²)` with De = |(64, 64, 0.1)| (identity world and view).
/// The `decl_elements_missing_psize` tests whose vertex stage reads PSIZE (a vertex shader's
/// `dcl_psize`, or the fixed-function stage, which reads every element) have an unbound
/// stream in a UP draw, which Windows draws (the element reads 0): every case draws here, and
/// a refusal fails the test.
#[test]
fn gpu_wine_test_pointsize_setups() {
    let mut dev = device();
    sprite_textures(&mut dev);
    let rt = ok(dev.create_render_target(128, 128, Format::A8R8G8B8));
    rs(&mut dev, RenderState::Lighting(false));
    rs(&mut dev, RenderState::PointSpriteEnable(true));
    rs(&mut dev, RenderState::PointScale([1.0, 1.0, 1.0]));
    ok(dev.set_texture_stage(
        0,
        TextureStage {
            op: StageOp::SelectArg1,
            arg1: StageArg::Texture,
            arg2: StageArg::Current,
        },
    ));
    ok(dev.set_texture_stage(
        1,
        TextureStage {
            op: StageOp::Add,
            arg1: StageArg::Texture,
            arg2: StageArg::Current,
        },
    ));
    // Transforms [0, 128] x [0, 128] to clip space (visual.c's matrix after its sprite
    // block): the projection, and the vertex shaders' c0..c3.
    let matrix = [
        [1.0 / 64.0, 0.0, 0.0, 0.0],
        [0.0, -1.0 / 64.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [-1.0, 1.0, 0.0, 1.0],
    ];
    ok(dev.set_transform(TransformState::Projection, matrix));
    ok(dev.set_vertex_shader_constant_f(0, &matrix));
    // (vs, ps, accepted fvf, nonscaled size, scaled size, gives_0_0_texcoord)
    type Shader = Option<(&'static str, u32)>;
    let vs1 = Some(("vshader_code", 0xfffe_0101));
    let vs1_psize = Some(("vshader_psize_code", 0xfffe_0101));
    let vs3 = Some(("vshader3_code", 0xfffe_0300));
    let vs3_psize = Some(("vshader3_psize_code", 0xfffe_0300));
    let ps1 = Some(("pshader_code", 0xffff_0101));
    let ps2 = Some(("pshader2_code", 0xffff_0200));
    let ps2_zw = Some(("pshader2_zw_code", 0xffff_0200));
    let ps3 = Some(("pshader3_code", 0xffff_0300));
    let ps3_zw = Some(("pshader3_zw_code", 0xffff_0300));
    let xyz = D3DFVF_XYZ;
    let xyz_psize = D3DFVF_XYZ | D3DFVF_PSIZE;
    let setups: [(Shader, Shader, u32, u32, u32, bool); 13] = [
        (None, None, xyz, 32, 45, false),
        (vs1, ps1, xyz, 32, 32, false),
        (None, ps1, xyz, 32, 45, false),
        (vs1, None, xyz, 32, 32, false),
        (None, ps2, xyz, 32, 45, false),
        (None, ps2_zw, xyz, 32, 45, true),
        (vs1, ps2, xyz, 32, 32, false),
        (vs1, ps2_zw, xyz, 32, 32, true),
        (vs3, ps3, xyz, 32, 32, false),
        (vs3, ps3_zw, xyz, 32, 32, true),
        (None, None, xyz_psize, 48, 33, false),
        (vs1_psize, ps1, xyz_psize, 48, 24, false),
        (vs3_psize, ps3, xyz_psize, 48, 24, false),
    ];
    #[derive(Clone, Copy, PartialEq)]
    enum Decl {
        Fvf,
        NoPsize,
        Psize,
        MissingPsize,
    }
    // (zero_size, scale, override_min, declaration, fvf, vertex: x, y, z[, point size])
    let vertices = floats(&[64.0, 64.0, 0.1]);
    let pointsize = floats(&[64.0, 64.0, 0.1, 48.0]);
    let pointsize_scaled = floats(&[64.0, 64.0, 0.1, 24.0]);
    let pointsize_zero = floats(&[64.0, 64.0, 0.1, 0.0]);
    type Case<'a> = (bool, bool, bool, Decl, u32, &'a [u8]);
    let tests: [Case<'_>; 12] = [
        (false, false, false, Decl::Fvf, xyz, &vertices),
        (false, true, false, Decl::Fvf, xyz, &vertices),
        (false, false, true, Decl::Fvf, xyz, &vertices),
        (true, false, false, Decl::Fvf, xyz, &vertices),
        (false, false, false, Decl::Fvf, xyz_psize, &pointsize),
        (false, true, false, Decl::Fvf, xyz_psize, &pointsize_scaled),
        (false, false, true, Decl::Fvf, xyz_psize, &pointsize),
        (true, false, false, Decl::Fvf, xyz_psize, &pointsize_zero),
        (false, false, false, Decl::NoPsize, xyz, &vertices),
        (false, false, false, Decl::Psize, xyz_psize, &pointsize),
        (false, false, false, Decl::MissingPsize, xyz, &vertices),
        (
            false,
            false,
            false,
            Decl::MissingPsize,
            xyz_psize,
            &vertices,
        ),
    ];
    let position = VertexElement::new(0, 0, DeclType::Float3, Usage::Position, 0);
    let declaration = |dev: &mut Device, decl: Decl| match decl {
        Decl::Fvf => None,
        Decl::NoPsize => Some(ok(dev.create_vertex_declaration(&[position]))),
        Decl::Psize => Some(ok(dev.create_vertex_declaration(&[
            position,
            VertexElement::new(0, 12, DeclType::Float1, Usage::PSize, 0),
        ]))),
        Decl::MissingPsize => Some(ok(dev.create_vertex_declaration(&[
            position,
            VertexElement::new(1, 0, DeclType::Float1, Usage::PSize, 0),
        ]))),
    };
    let (mut replayed, mut checks) = (0, 0usize);
    let (mut zero_cases, mut squares) = (0, 0);
    for (i, &(vs, ps, accepted_fvf, nonscaled, scaled, zero_zero)) in setups.iter().enumerate() {
        let vs = vs.map(|vs| ok(dev.create_vertex_shader(&visual(vs.0, vs.1))));
        let ps = ps.map(|ps| ok(dev.create_pixel_shader(&visual(ps.0, ps.1))));
        ok(dev.set_vertex_shader(vs));
        ok(dev.set_pixel_shader(ps));
        for (j, &(zero, scale, override_min, decl, fvf, data)) in tests.iter().enumerate() {
            if accepted_fvf != fvf {
                continue;
            }
            let mut size = if override_min {
                63
            } else if zero {
                0
            } else if scale {
                scaled
            } else {
                nonscaled
            };
            if decl == Decl::MissingPsize {
                // PSIZE on a stream with no buffer reads 0: a point of size 1 (the minimum)
                // for the fixed-function stage and for a shader writing the point size.
                size = if vs.is_none() || accepted_fvf & D3DFVF_PSIZE != 0 {
                    1
                } else {
                    32
                };
            }
            let what = format!("setup {i}, test {j} (size {size})");
            rs(
                &mut dev,
                RenderState::PointSize(if zero { 0.0 } else { 32.0 }),
            );
            let min = if override_min {
                63.0
            } else if zero {
                0.0
            } else {
                1.0
            };
            rs(&mut dev, RenderState::PointSizeMin(min));
            rs(&mut dev, RenderState::PointScaleEnable(scale));
            match declaration(&mut dev, decl) {
                Some(d) => ok(dev.set_vertex_declaration(Some(d))),
                None => ok(dev.set_fvf(fvf)),
            }
            ok(dev.set_render_target(0, Some(rt)));
            ok(dev.clear(&[], ClearFlags::TARGET, 0xff00_ffff, 1.0, 0));
            let stride = data.len() as u32;
            // A draw Windows makes: refused means not passing.
            if let Err(e) = dev.draw_primitive_up(PrimitiveType::PointList, 1, data, stride) {
                panic!("{what}: Windows draws this case; the device refused it: {e}");
            }
            replayed += 1;
            let s = ok(dev.get_render_target_data(rt));
            let get = |x: u32, y: u32| color(&s, x, y);
            if size <= 1 {
                let c = get(64, 64);
                if size == 0 {
                    zero_cases += 1;
                    assert_eq!(c, 0xff00_ffff, "{what}: a point of size 0 draws nothing");
                } else {
                    assert_ne!(c, 0xff00_ffff, "{what}: the point is drawn");
                }
                for (x, y) in [(63, 64), (65, 64), (64, 63), (64, 65)] {
                    assert_eq!(get(x, y), 0xff00_ffff, "{what}: ({x}, {y})");
                }
                checks += 5;
                continue;
            }
            squares += 1;
            let half = size / 2;
            for y in 0..128u32 {
                if y == 64 - half || y == 64 + half || y == 64 {
                    continue;
                }
                for x in 0..128u32 {
                    if x == 64 - half || x == 64 + half || x == 64 {
                        continue;
                    }
                    let inside = x > 64 - half && x < 64 + half && y > 64 - half && y < 64 + half;
                    let expect = match (inside, zero_zero, x < 64, y < 64) {
                        (false, ..) => 0xff00_ffff,
                        (true, true, ..) => 0x00ff_0000,
                        (true, false, true, true) => 0x00ff_0000,
                        (true, false, true, false) => 0x0000_0000,
                        (true, false, false, true) => 0x00ff_ff00,
                        (true, false, false, false) => 0x0000_ff00,
                    };
                    assert_eq!(get(x, y), expect, "{what}: ({x}, {y})");
                }
            }
            checks += 1;
            let corner = |a: bool, b: bool| match (zero_zero, a, b) {
                (true, ..) => 0x00ff_0000,
                (false, false, false) => 0x00ff_0000,
                (false, true, false) => 0x00ff_ff00,
                (false, false, true) => 0x0000_0000,
                (false, true, true) => 0x0000_ff00,
            };
            let (lo, hi) = (64 - half, 64 + half);
            for (x, y, right, bottom) in [
                (lo + 1, lo + 1, false, false),
                (hi - 1, lo + 1, true, false),
                (lo + 1, hi - 1, false, true),
                (hi - 1, hi - 1, true, true),
            ] {
                assert_eq!(get(x, y), corner(right, bottom), "{what}: ({x}, {y})");
            }
            for (x, y) in [
                (lo - 1, lo - 1),
                (hi + 1, lo - 1),
                (lo - 1, hi + 1),
                (hi + 1, hi + 1),
            ] {
                assert_eq!(get(x, y), 0xff00_ffff, "{what}: ({x}, {y})");
            }
            checks += 8;
        }
        ok(dev.set_vertex_shader(None));
        ok(dev.set_pixel_shader(None));
        if let Some(vs) = vs {
            ok(dev.release_vertex_shader(vs));
        }
        if let Some(ps) = ps {
            ok(dev.release_pixel_shader(ps));
        }
    }
    // 13 setups: 10 of FVF XYZ, 3 of XYZ | PSIZE, 6 tests each (78 cases), all drawn: a
    // PSIZE element on a stream with no buffer reads 0.
    assert_eq!(replayed, 78, "cases replayed");
    // Size 0 (5 checks each): test 3 of every XYZ setup, test 7 of every XYZ | PSIZE setup;
    // size 1 (5 checks each): the missing-PSIZE test of the 5 fixed-function vertex setups
    // and of the 2 vertex shaders reading PSIZE; the others squares (1 + 8 checks each).
    assert_eq!((zero_cases, squares), (13, 58), "size-0 cases, squares");
    assert_eq!(checks, 13 * 5 + 7 * 5 + 58 * 9);
}

/// Instanced point lists that need expansion are refused as unsupported (each expanded
/// point is an instance already), not as invalid; one instance is a plain indexed draw.
#[test]
fn gpu_instanced_expanded_points_are_unsupported() {
    let mut dev = device();
    rs(&mut dev, RenderState::Lighting(false));
    ok(dev.set_fvf(D3DFVF_XYZRHW));
    let vb = ok(dev.create_vertex_buffer_with(&rhw_point(30, 30)));
    let ib = ok(dev.create_index_buffer_u16(&[0]));
    ok(dev.set_stream_source(0, Some(vb), 0, 16));
    ok(dev.set_indices(Some(ib)));
    rs(&mut dev, RenderState::PointSize(4.0));
    const INDEXEDDATA: u32 = 0x4000_0000;
    ok(dev.set_stream_source_freq(0, INDEXEDDATA | 1));
    ok(dev.clear(&[], ClearFlags::TARGET, BLUE, 1.0, 0));
    ok(dev.draw_indexed_primitive(PrimitiveType::PointList, 0, 0, 1, 0, 1));
    let s = read(&mut dev);
    assert_square(&s, (30, 30), 4.0, WHITE, BLUE, "INDEXEDDATA | 1");
    ok(dev.set_stream_source_freq(0, INDEXEDDATA | 2));
    match dev.draw_indexed_primitive(PrimitiveType::PointList, 0, 0, 1, 0, 1) {
        Err(e) if !e.is_invalid_call() => {
            assert!(e.to_string().contains("instanced point lists"), "{e}");
        }
        other => panic!("expected Unsupported, got {other:?}"),
    }
    // Without a size the points stay native and draw: both instances cover the one pixel.
    rs(&mut dev, RenderState::PointSize(1.0));
    ok(dev.clear(&[], ClearFlags::TARGET, BLUE, 1.0, 0));
    ok(dev.draw_indexed_primitive(PrimitiveType::PointList, 0, 0, 1, 0, 1));
    let s = read(&mut dev);
    assert_square(&s, (30, 30), 1.0, WHITE, BLUE, "INDEXEDDATA | 2, size 1");
    // So do a vertex shader's points that write no PSIZE.
    let vs = ok(dev.create_vertex_shader(&tokens(
        "vs_2_0\ndcl_position v0\nmov oPos, v0\nmov oD0, c0\n",
    )));
    ok(dev.set_vertex_shader(Some(vs)));
    ok(dev.set_fvf(D3DFVF_XYZ));
    let vb = ok(dev.create_vertex_buffer_with(&floats(&[0.0, 0.0, 0.5])));
    ok(dev.set_stream_source(0, Some(vb), 0, 12));
    ok(dev.draw_indexed_primitive(PrimitiveType::PointList, 0, 0, 1, 0, 1));
}
