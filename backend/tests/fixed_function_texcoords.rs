//! The fixed-function vertex stage's texture coordinates and the vertex-blending forms the
//! lighting tests leave out, against the SDK's formulas computed on the CPU here:
//! `D3DTSS_TCI_*` generation in eye space, `D3DTS_TEXTUREn` transforms with
//! `D3DTTFF_COUNTn` and PROJECTED, tweening, and indexed vertex blending. Each value is read
//! through a ps_2_0 shader writing texture coordinate 0 as its colour. GPU tests fail
//! without an adapter.

#![allow(clippy::panic)] // a failing test says why

#[allow(dead_code)]
mod device_common;
use d3d9_backend::device::{
    ClearFlags, Device, Format, Matrix, PrimitiveType, RenderState, SurfaceId, TransformState,
    IDENTITY,
};
use d3d9_translator::bytecode::Usage;
use d3d9_translator::decl::{DeclType, VertexElement};
use device_common::{device, floats, ok, tokens};

type V4 = [f64; 4];

/// `D3DTSS_TEXCOORDINDEX`, `D3DTSS_TEXTURETRANSFORMFLAGS`.
const TEXCOORDINDEX: u32 = 11;
const TEXTURETRANSFORMFLAGS: u32 = 24;
const PROJECTED: u32 = 256;

fn mul(v: V4, m: &Matrix) -> V4 {
    std::array::from_fn(|j| (0..4).map(|i| v[i] * f64::from(m[i][j])).sum())
}

fn dot3(a: V4, b: V4) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn normalize(a: V4) -> V4 {
    let l = dot3(a, a).sqrt();
    [a[0] / l, a[1] / l, a[2] / l, a[3]]
}

fn argb(c: V4) -> u32 {
    let b = |x: f64| (x.clamp(0.0, 1.0) * 255.0).round() as u32;
    b(c[3]) << 24 | b(c[0]) << 16 | b(c[1]) << 8 | b(c[2])
}

fn close(a: u32, b: u32, tolerance: i32) -> bool {
    (0..4).all(|i| {
        (((a >> (8 * i)) & 0xff) as i32 - ((b >> (8 * i)) & 0xff) as i32).abs() <= tolerance
    })
}

/// A device drawing into a 64x64 A8R8G8B8 target through `mov oC0, t0`.
fn setup() -> (Device, SurfaceId) {
    let mut dev = device();
    let rt = ok(dev.create_render_target(64, 64, Format::A8R8G8B8));
    ok(dev.set_render_target(0, Some(rt)));
    ok(dev.set_render_state(RenderState::Lighting(false)));
    ok(dev.set_render_state(RenderState::ZEnable(false)));
    ok(dev.set_render_state(RenderState::CullMode(d3d9_backend::device::CullMode::None)));
    let ps = ok(dev.create_pixel_shader(&tokens("ps_2_0\ndcl t0\nmov oC0, t0")));
    ok(dev.set_pixel_shader(Some(ps)));
    (dev, rt)
}

/// A projection mapping eye-space `e` (± 1e-4 in x and y) over the target.
fn magnifier(e: V4) -> Matrix {
    let k = 15_000.0;
    [
        [k, 0.0, 0.0, 0.0],
        [0.0, k, 0.0, 0.0],
        [0.0, 0.0, 0.0, 0.0],
        [-(e[0] as f32) * k, -(e[1] as f32) * k, 0.5, 1.0],
    ]
}

/// The centre pixel after drawing `vertex(dx, dy)` (bytes of one vertex offset by dx, dy in
/// object space) as a strip of four with `stride`.
fn draw(dev: &mut Device, rt: SurfaceId, stride: u32, vertex: impl Fn(f32, f32) -> Vec<u8>) -> u32 {
    let h = 1e-4f32;
    let data: Vec<u8> = [(-h, -h), (-h, h), (h, -h), (h, h)]
        .iter()
        .flat_map(|&(dx, dy)| vertex(dx, dy))
        .collect();
    ok(dev.clear(&[], ClearFlags::TARGET, 0x1122_3344, 1.0, 0));
    ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &data, stride));
    let s = ok(dev.get_render_target_data(rt));
    s.color(32, 32)
        .unwrap_or_else(|| panic!("no colour at (32, 32)"))
}

/// Eye-space texture coordinate generation (normal, position, reflection vector, sphere
/// map), through a texture matrix (x · ½ + ½ with COUNT3 or COUNT4) where the raw value
/// leaves 0..1, and the PROJECTED w of COUNT2/COUNT3.
#[test]
fn gpu_texture_coordinates_are_generated_in_eye_space_and_transformed() {
    let (mut dev, rt) = setup();
    // View: rotate 20° about y, translate; world: translate.
    let (s, c) = 20f32.to_radians().sin_cos();
    let view: Matrix = [
        [c, 0.0, -s, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [s, 0.0, c, 0.0],
        [0.1, -0.2, 0.4, 1.0],
    ];
    let mut world = IDENTITY;
    world[3] = [0.05, 0.1, 0.2, 1.0];
    ok(dev.set_transform(TransformState::View, view));
    ok(dev.set_transform(TransformState::WORLD, world));
    let half: Matrix = [
        [0.5, 0.0, 0.0, 0.0],
        [0.0, 0.5, 0.0, 0.0],
        [0.0, 0.0, 0.5, 0.0],
        [0.5, 0.5, 0.5, 1.0],
    ];
    ok(dev.set_transform(TransformState::Texture(0), half));
    let object = [0.3f32, -0.2, 0.9];
    let normal = [0.2f32, 0.5, -0.8];
    let world_view = {
        let mut m = [[0.0f32; 4]; 4];
        for (i, row) in m.iter_mut().enumerate() {
            for (j, v) in row.iter_mut().enumerate() {
                *v = (0..4).map(|k| world[i][k] * view[k][j]).sum();
            }
        }
        m
    };
    let o = [object[0], object[1], object[2], 1.0].map(f64::from);
    let e = mul(o, &world_view);
    // The normal through the inverse transpose of a rotation and translations: the rotation.
    let n = mul(
        [normal[0], normal[1], normal[2], 0.0].map(f64::from),
        &world_view,
    );
    let i = normalize(e);
    let n_dot_i = dot3(n, i);
    let r: V4 = std::array::from_fn(|k| {
        if k < 3 {
            i[k] - 2.0 * n_dot_i * n[k]
        } else {
            0.0
        }
    });
    let m = 2.0 * (r[0] * r[0] + r[1] * r[1] + (r[2] - 1.0) * (r[2] - 1.0)).sqrt();
    let sphere = [r[0] / m + 0.5, r[1] / m + 0.5, 0.0, 1.0];
    let with_w = |v: V4, w: f64| [v[0], v[1], v[2], w];
    ok(dev.set_transform(TransformState::Projection, magnifier(e)));
    ok(dev.set_fvf(0x002 | 0x010));
    let vertex = |dx: f32, dy: f32| {
        floats(&[
            object[0] + dx,
            object[1] + dy,
            object[2],
            normal[0],
            normal[1],
            normal[2],
        ])
    };
    // (generation, flags, expected)
    let halfway = |v: V4| mul(v, &half);
    let cases: Vec<(u32, u32, V4, &str)> = vec![
        (0x1_0000, 4, halfway(with_w(n, 1.0)), "normal, COUNT4"),
        (
            0x2_0000,
            3,
            {
                let t = halfway(with_w(e, 1.0));
                [t[0], t[1], t[2], 0.0]
            },
            "position, COUNT3",
        ),
        (
            0x3_0000,
            3 | PROJECTED,
            {
                let t = halfway(with_w(r, 1.0));
                [t[0], t[1], t[2], t[2]]
            },
            "reflection, COUNT3 PROJECTED",
        ),
        (0x4_0000, 0, sphere, "sphere map"),
        (
            0x4_0000,
            2 | PROJECTED,
            {
                let t = halfway(sphere);
                [t[0], t[1], 0.0, t[1]]
            },
            "sphere map, COUNT2 PROJECTED",
        ),
    ];
    for (generation, flags, expected, what) in cases {
        ok(dev.set_texture_stage_state_raw(0, TEXCOORDINDEX, generation));
        ok(dev.set_texture_stage_state_raw(0, TEXTURETRANSFORMFLAGS, flags));
        let got = draw(&mut dev, rt, 24, vertex);
        assert!(
            close(got, argb(expected), 1),
            "{what}: {got:#010x}, expected {:#010x} ({expected:?})",
            argb(expected)
        );
    }
}

/// `D3DVBF_TWEENING`: position = lerp(POSITION0, POSITION1, `D3DRS_TWEENFACTOR`), read as the
/// camera-space position.
#[test]
fn gpu_tweening_lerps_the_two_positions() {
    let (mut dev, rt) = setup();
    let decl = ok(dev.create_vertex_declaration(&[
        VertexElement::new(0, 0, DeclType::Float3, Usage::Position, 0),
        VertexElement::new(0, 12, DeclType::Float3, Usage::Position, 1),
    ]));
    ok(dev.set_vertex_declaration(Some(decl)));
    ok(dev.set_render_state_raw(151, 255)); // D3DVBF_TWEENING
    ok(dev.set_render_state_raw(170, 0.3f32.to_bits()));
    ok(dev.set_texture_stage_state_raw(0, TEXCOORDINDEX, 0x2_0000));
    let (p0, p1) = ([0.1f32, 0.2, 0.3], [0.9f32, 0.4, 0.7]);
    let e: V4 = std::array::from_fn(|k| {
        if k < 3 {
            f64::from(p0[k]) + 0.3 * (f64::from(p1[k]) - f64::from(p0[k]))
        } else {
            0.0
        }
    });
    ok(dev.set_transform(TransformState::Projection, magnifier(e)));
    let got = draw(&mut dev, rt, 24, |dx, dy| {
        floats(&[p0[0] + dx, p0[1] + dy, p0[2], p1[0] + dx, p1[1] + dy, p1[2]])
    });
    assert!(
        close(got, argb(e), 1),
        "tweened {got:#010x}, expected {:#010x}",
        argb(e)
    );
}

/// `D3DRS_INDEXEDVERTEXBLENDENABLE` with `D3DVBF_1WEIGHTS`: the two matrices are
/// `D3DTS_WORLDMATRIX(i)` of the vertex's UBYTE4 indices (here 5 and 200, past the 4
/// matrices of non-indexed blending).
#[test]
fn gpu_indexed_vertex_blending_reads_the_indexed_world_matrices() {
    let (mut dev, rt) = setup();
    let mut w5 = IDENTITY;
    w5[3] = [0.2, 0.1, 0.3, 1.0];
    let mut w200 = IDENTITY;
    w200[3] = [0.6, 0.5, 0.1, 1.0];
    w200[1][1] = 2.0;
    ok(dev.set_transform(TransformState::World(5), w5));
    ok(dev.set_transform(TransformState::World(200), w200));
    ok(dev.set_render_state_raw(151, 1)); // D3DVBF_1WEIGHTS
    ok(dev.set_render_state_raw(167, 1)); // INDEXEDVERTEXBLENDENABLE
    ok(dev.set_texture_stage_state_raw(0, TEXCOORDINDEX, 0x2_0000));
    // D3DFVF_XYZB2 | D3DFVF_LASTBETA_UBYTE4: one weight, then the indices.
    ok(dev.set_fvf(0x008 | 0x1000));
    let object = [0.1f32, 0.2, 0.3];
    let weight = 0.25f64;
    let o = [0.1, 0.2, 0.3, 1.0].map(f64::from);
    let (a, b) = (mul(o, &w5), mul(o, &w200));
    let e: V4 = std::array::from_fn(|k| {
        if k < 3 {
            weight * a[k] + (1.0 - weight) * b[k]
        } else {
            0.0
        }
    });
    ok(dev.set_transform(TransformState::Projection, magnifier(e)));
    let got = draw(&mut dev, rt, 20, |dx, dy| {
        let mut v = floats(&[object[0] + dx, object[1] + dy, object[2], weight as f32]);
        v.extend([5u8, 200, 0, 0]);
        v
    });
    assert!(
        close(got, argb(e), 1),
        "indexed blend {got:#010x}, expected {:#010x}",
        argb(e)
    );
}
