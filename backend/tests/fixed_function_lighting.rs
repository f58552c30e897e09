//! The fixed-function vertex stage against the SDK's equations computed on the CPU here
//! ("Mathematics of Lighting", "Attenuation and Spotlight Factor", "Fog Formulas"):
//! directional, point and spot lights with attenuation, range and falloff, specular with
//! and without a local viewer, material sources, vertex fog with |z| and range fog, vertex
//! blending, tweening, texture coordinate generation and transforms. GPU tests fail without
//! an adapter.
//!
//! Each lit value is read from one point of eye space: the quad drawn has its four vertices
//! within 1e-4 of that point (same normal, same colours), and the projection magnifies it to
//! cover the target, so the centre pixel is the vertex stage's value at that point.

#![allow(clippy::panic)] // a failing test says why

#[allow(dead_code)]
mod device_common;
use d3d9_backend::device::{
    ClearFlags, Device, Format, Light, LightType, Material, Matrix, PrimitiveType, RenderState,
    SurfaceId, TransformState, IDENTITY,
};
use device_common::{device, floats, ok, tokens};

type V3 = [f64; 3];

const XYZ: u32 = 0x002;
const NORMAL: u32 = 0x010;
const DIFFUSE: u32 = 0x040;
const SPECULAR: u32 = 0x080;
/// `D3DRENDERSTATETYPE` numbers without a typed state.
const SPECULARENABLE: u32 = 29;
const RANGEFOGENABLE: u32 = 48;
const AMBIENT: u32 = 139;
const COLORVERTEX: u32 = 141;
const LOCALVIEWER: u32 = 142;
const NORMALIZENORMALS: u32 = 143;
const DIFFUSEMATERIALSOURCE: u32 = 145;
const SPECULARMATERIALSOURCE: u32 = 146;
const AMBIENTMATERIALSOURCE: u32 = 147;
const EMISSIVEMATERIALSOURCE: u32 = 148;

fn dot(a: V3, b: V3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn norm(a: V3) -> V3 {
    let l = dot(a, a).sqrt();
    if l == 0.0 {
        a
    } else {
        a.map(|x| x / l)
    }
}

fn v3(a: [f32; 3]) -> V3 {
    a.map(f64::from)
}

fn c4(a: [f32; 4]) -> [f64; 4] {
    a.map(f64::from)
}

/// The SDK's per-light terms at eye-space point `p` with unit normal `n`: the light's
/// ambient, diffuse and specular contributions (before the material), each already
/// multiplied by attenuation and spot factor.
fn light_terms(l: &Light, p: V3, n: V3, local_viewer: bool, power: f64) -> [[f64; 4]; 3] {
    let (dir, atten) = match l.light_type {
        LightType::Directional => (norm(v3(l.direction).map(|x| -x)), 1.0),
        _ => {
            let to_light = sub(v3(l.position), p);
            let d = dot(to_light, to_light).sqrt();
            let mut atten = if d <= f64::from(l.range) {
                1.0 / (f64::from(l.attenuation0)
                    + f64::from(l.attenuation1) * d
                    + f64::from(l.attenuation2) * d * d)
            } else {
                0.0
            };
            let dir = norm(to_light);
            if l.light_type == LightType::Spot {
                let rho = dot(dir.map(|x| -x), norm(v3(l.direction)));
                let (ct, cp) = (
                    (f64::from(l.theta) / 2.0).cos(),
                    (f64::from(l.phi) / 2.0).cos(),
                );
                atten *= if rho > ct {
                    1.0
                } else if rho <= cp {
                    0.0
                } else {
                    ((rho - cp) / (ct - cp)).powf(f64::from(l.falloff))
                };
            }
            (dir, atten)
        }
    };
    let n_dot_l = dot(n, dir);
    let view = if local_viewer {
        norm(p).map(|x| -x)
    } else {
        [0.0, 0.0, -1.0]
    };
    let h = norm([dir[0] + view[0], dir[1] + view[1], dir[2] + view[2]]);
    let n_dot_h = dot(n, h);
    let spec = if n_dot_l > 0.0 && n_dot_h > 0.0 {
        n_dot_h.powf(power) * atten
    } else {
        0.0
    };
    let scale = |c: [f32; 4], k: f64| c4(c).map(|x| x * k);
    [
        scale(l.ambient, atten),
        scale(l.diffuse, n_dot_l.clamp(0.0, 1.0) * atten),
        scale(l.specular, spec),
    ]
}

/// COLOR0 and COLOR1 of the SDK's lighting equation with material colours `m` (diffuse,
/// ambient, specular, emissive already picked from their sources), `global` ambient.
fn lit(
    lights: &[Light],
    m: &Material,
    global: [f64; 4],
    p: V3,
    n: V3,
    local_viewer: bool,
) -> ([f64; 4], [f64; 4]) {
    let (mut a, mut d, mut s) = ([0.0; 4], [0.0; 4], [0.0; 4]);
    for l in lights {
        let [la, ld, ls] = light_terms(l, p, n, local_viewer, f64::from(m.power));
        for k in 0..4 {
            a[k] += la[k];
            d[k] += ld[k];
            s[k] += ls[k];
        }
    }
    let (md, ma, ms, me) = (c4(m.diffuse), c4(m.ambient), c4(m.specular), c4(m.emissive));
    let mut c0 = [0.0; 4];
    for k in 0..3 {
        c0[k] = (me[k] + ma[k] * (global[k] + a[k]) + md[k] * d[k]).clamp(0.0, 1.0);
    }
    c0[3] = md[3].clamp(0.0, 1.0);
    let c1 = std::array::from_fn(|k| (ms[k] * s[k]).clamp(0.0, 1.0));
    (c0, c1)
}

/// (r, g, b, a) in 0..1 as a D3DCOLOR.
fn argb(c: [f64; 4]) -> u32 {
    let b = |x: f64| (x.clamp(0.0, 1.0) * 255.0).round() as u32;
    b(c[3]) << 24 | b(c[0]) << 16 | b(c[1]) << 8 | b(c[2])
}

/// Whether two D3DCOLORs agree within `tolerance` per channel.
fn close(a: u32, b: u32, tolerance: i32) -> bool {
    (0..4).all(|i| {
        (((a >> (8 * i)) & 0xff) as i32 - ((b >> (8 * i)) & 0xff) as i32).abs() <= tolerance
    })
}

/// A device drawing unculled into a 64x64 A8R8G8B8 render target (its alpha is kept).
fn setup() -> (Device, SurfaceId) {
    let mut dev = device();
    let rt = ok(dev.create_render_target(64, 64, Format::A8R8G8B8));
    ok(dev.set_render_target(0, Some(rt)));
    ok(dev.set_render_state(RenderState::CullMode(d3d9_backend::device::CullMode::None)));
    ok(dev.set_render_state(RenderState::ZEnable(false)));
    (dev, rt)
}

/// A projection that maps eye-space point `p` (± 1e-4 in x and y) over the whole target
/// at depth 0.5, w 1.
fn magnifier(p: [f32; 3]) -> Matrix {
    let k = 15_000.0;
    [
        [k, 0.0, 0.0, 0.0],
        [0.0, k, 0.0, 0.0],
        [0.0, 0.0, 0.0, 0.0],
        [-p[0] * k, -p[1] * k, 0.5, 1.0],
    ]
}

/// Draws the magnified quad at eye-space `p` (view and world identity) with normal `n` and
/// the vertex colours given, and returns the centre pixel.
fn draw_at(dev: &mut Device, rt: SurfaceId, p: [f32; 3], n: [f32; 3], colours: [u32; 2]) -> u32 {
    ok(dev.set_transform(TransformState::Projection, magnifier(p)));
    ok(dev.set_fvf(XYZ | NORMAL | DIFFUSE | SPECULAR));
    let h = 1e-4f32;
    let mut data = Vec::new();
    for (dx, dy) in [(-h, -h), (-h, h), (h, -h), (h, h)] {
        data.extend(floats(&[p[0] + dx, p[1] + dy, p[2], n[0], n[1], n[2]]));
        data.extend(colours[0].to_le_bytes());
        data.extend(colours[1].to_le_bytes());
    }
    ok(dev.clear(&[], ClearFlags::TARGET, 0x1234_5678, 1.0, 0));
    ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &data, 32));
    let s = ok(dev.get_render_target_data(rt));
    s.color(32, 32)
        .unwrap_or_else(|| panic!("no colour at (32, 32)"))
}

fn raw(dev: &mut Device, state: u32, value: u32) {
    ok(dev.set_render_state_raw(state, value));
}

fn material() -> Material {
    Material {
        diffuse: [1.0, 0.5, 0.25, 0.6],
        ambient: [0.2, 0.4, 0.6, 1.0],
        specular: [0.9, 0.8, 0.7, 0.5],
        emissive: [0.1, 0.0, 0.05, 0.0],
        power: 12.0,
    }
}

fn light(light_type: LightType) -> Light {
    Light {
        light_type,
        diffuse: [0.9, 0.7, 0.5, 1.0],
        specular: [0.6, 0.9, 1.0, 1.0],
        ambient: [0.1, 0.1, 0.2, 0.0],
        position: [0.4, -0.3, 0.2],
        direction: [0.3, -0.5, 0.8],
        range: 5.0,
        falloff: 2.0,
        attenuation0: 0.5,
        attenuation1: 0.3,
        attenuation2: 0.2,
        theta: 0.6,
        phi: 1.4,
    }
}

/// Lights every `(p, n)` with `lights` (at indices 0..) and the material, and compares COLOR0
/// (SPECULARENABLE off) and COLOR0 + COLOR1 (on) with the CPU's equation.
fn check_lit(lights: &[Light], cases: &[([f32; 3], [f32; 3])], local_viewer: bool, what: &str) {
    let (mut dev, rt) = setup();
    let m = material();
    ok(dev.set_material(&m));
    raw(&mut dev, COLORVERTEX, 0);
    raw(&mut dev, NORMALIZENORMALS, 1);
    raw(&mut dev, LOCALVIEWER, u32::from(local_viewer));
    raw(&mut dev, AMBIENT, 0x0040_2010);
    let global = [
        0x40 as f64 / 255.0,
        0x20 as f64 / 255.0,
        0x10 as f64 / 255.0,
        0.0,
    ];
    for (i, l) in lights.iter().enumerate() {
        ok(dev.set_light(i as u32 * 3 + 1, l));
        ok(dev.light_enable(i as u32 * 3 + 1, true));
    }
    for &(p, n) in cases {
        let (c0, c1) = lit(lights, &m, global, v3(p), norm(v3(n)), local_viewer);
        raw(&mut dev, SPECULARENABLE, 0);
        let got = draw_at(&mut dev, rt, p, n, [0xffff_ffff, 0xffff_ffff]);
        let expected = argb(c0);
        assert!(
            close(got, expected, 2),
            "{what} at {p:?}, n {n:?}: COLOR0 {got:#010x}, the SDK's {expected:#010x}"
        );
        raw(&mut dev, SPECULARENABLE, 1);
        let got = draw_at(&mut dev, rt, p, n, [0xffff_ffff, 0xffff_ffff]);
        let sum = std::array::from_fn(|k| if k < 3 { c0[k] + c1[k] } else { c0[3] });
        let expected = argb(sum);
        assert!(
            close(got, expected, 2),
            "{what} at {p:?}, n {n:?}: COLOR0 + COLOR1 {got:#010x}, the SDK's {expected:#010x}"
        );
    }
}

/// Normals facing the light, away from it (ambient and emissive only) and grazing.
const NORMALS: [[f32; 3]; 4] = [
    [-0.2, 0.3, -0.9],
    [0.1, -0.4, 0.9],
    [-0.6, 0.5, -0.2],
    [0.0, 0.0, -1.0],
];

#[test]
fn gpu_directional_light_follows_the_lighting_equation() {
    let cases: Vec<_> = NORMALS.iter().map(|&n| ([0.1, 0.2, 1.5], n)).collect();
    check_lit(
        &[light(LightType::Directional)],
        &cases,
        false,
        "directional",
    );
    check_lit(
        &[light(LightType::Directional)],
        &cases,
        true,
        "directional, local viewer",
    );
}

#[test]
fn gpu_point_light_attenuates_with_distance_and_stops_at_its_range() {
    let points = [
        [0.1, 0.2, 1.5],
        [-0.8, 0.5, 2.5],
        [1.5, 1.0, 3.0],
        [2.0, 3.0, 4.5],
    ];
    let cases: Vec<_> = points
        .iter()
        .flat_map(|&p| NORMALS.iter().map(move |&n| (p, n)))
        .collect();
    // The last point lies past the range of 5: no light at all, not even its ambient.
    check_lit(&[light(LightType::Point)], &cases, false, "point");
    check_lit(
        &[light(LightType::Point)],
        &cases,
        true,
        "point, local viewer",
    );
}

#[test]
fn gpu_spot_light_falls_off_between_theta_and_phi() {
    let mut spot = light(LightType::Spot);
    spot.position = [0.0, 0.0, 0.0];
    spot.direction = [0.0, 0.0, 1.0];
    // Inside θ/2 = 0.3 rad, between θ/2 and φ/2 = 0.7 rad (twice), outside φ/2.
    let points: Vec<[f32; 3]> = [0.1f32, 0.45, 0.6, 0.9]
        .iter()
        .map(|a| [2.0 * a.sin(), 0.0, 2.0 * a.cos()])
        .collect();
    let cases: Vec<_> = points.iter().map(|&p| (p, [0.0, 0.0, -1.0])).collect();
    check_lit(&[spot], &cases, false, "spot, falloff 2");
    spot.falloff = 0.5;
    check_lit(&[spot], &cases, true, "spot, falloff 0.5");
}

#[test]
fn gpu_lights_add_up_in_any_index_order() {
    let mut point = light(LightType::Point);
    point.diffuse = [0.3, 0.1, 0.6, 1.0];
    let mut spot = light(LightType::Spot);
    spot.position = [0.0, 0.0, -0.5];
    spot.direction = [0.05, 0.1, 1.0];
    let lights = [spot, light(LightType::Directional), point];
    let cases: Vec<_> = NORMALS.iter().map(|&n| ([0.1, 0.2, 1.5], n)).collect();
    check_lit(&lights, &cases, false, "three lights");
}

/// `D3DRS_COLORVERTEX` with the four material sources: each term from the material, the
/// vertex's diffuse or its specular colour, and the material's when the vertex has no such
/// colour (the sum of emissive + ambient × global ambient, no lights: Wine's
/// test_color_vertex's idea, checked against the equation).
#[test]
fn gpu_material_sources_pick_vertex_colours() {
    let (mut dev, rt) = setup();
    let m = Material {
        diffuse: [0.0, 0.0, 0.0, 0.25],
        ambient: [0.0, 0.0, 0.5, 0.0],
        specular: [0.0; 4],
        emissive: [0.0, 0.0, 0.25, 0.0],
        power: 0.0,
    };
    ok(dev.set_material(&m));
    raw(&mut dev, AMBIENT, 0xffff_ffff);
    let (diffuse, specular) = (0xc0ff_0000u32, 0x8000_ff00u32);
    let colour = |c: u32| [16, 8, 0, 24].map(|s| f64::from((c >> s) & 0xff) / 255.0);
    for color_vertex in [false, true] {
        for ambient_source in 0..3u32 {
            for emissive_source in 0..3u32 {
                raw(&mut dev, COLORVERTEX, u32::from(color_vertex));
                raw(&mut dev, AMBIENTMATERIALSOURCE, ambient_source);
                raw(&mut dev, EMISSIVEMATERIALSOURCE, emissive_source);
                raw(&mut dev, DIFFUSEMATERIALSOURCE, ambient_source);
                raw(&mut dev, SPECULARMATERIALSOURCE, 0);
                let pick = |source: u32, material: [f32; 4]| match (color_vertex, source) {
                    (true, 1) => colour(diffuse),
                    (true, 2) => colour(specular),
                    _ => c4(material),
                };
                let (a, e, d) = (
                    pick(ambient_source, m.ambient),
                    pick(emissive_source, m.emissive),
                    pick(ambient_source, m.diffuse),
                );
                let expected = argb([e[0] + a[0], e[1] + a[1], e[2] + a[2], d[3]]);
                let got = draw_at(
                    &mut dev,
                    rt,
                    [0.0, 0.0, 1.0],
                    [0.0, 0.0, -1.0],
                    [diffuse, specular],
                );
                assert!(
                    close(got, expected, 1),
                    "COLORVERTEX {color_vertex}, ambient/diffuse source {ambient_source}, emissive source {emissive_source}: {got:#010x}, expected {expected:#010x}"
                );
            }
        }
    }
}

/// Vertex fog from the eye-space distance: LINEAR (end − d)/(end − start), EXP e^(−d·density),
/// EXP2 e^(−(d·density)²), with d = |z| (a right-handed view puts z below 0) or, with
/// `D3DRS_RANGEFOGENABLE`, |e|. White vertices, black fog: the colour is the factor.
#[test]
fn gpu_vertex_fog_takes_the_absolute_eye_depth_or_the_range() {
    use d3d9_backend::device::FogMode;
    let (mut dev, rt) = setup();
    ok(dev.set_render_state(RenderState::Lighting(false)));
    ok(dev.set_render_state(RenderState::FogEnable(true)));
    ok(dev.set_render_state(RenderState::FogColor(0xff00_0000)));
    ok(dev.set_render_state(RenderState::FogStart(0.5)));
    ok(dev.set_render_state(RenderState::FogEnd(3.5)));
    ok(dev.set_render_state(RenderState::FogDensity(0.4)));
    let points = [
        [0.3, -0.4, 1.2],
        [0.6, 0.8, -2.0],
        [-1.5, 0.2, -3.0],
        [0.0, 0.0, 0.1],
    ];
    for (mode, name) in [
        (FogMode::Linear, "LINEAR"),
        (FogMode::Exp, "EXP"),
        (FogMode::Exp2, "EXP2"),
    ] {
        ok(dev.set_render_state(RenderState::FogVertexMode(mode)));
        for range in [false, true] {
            raw(&mut dev, RANGEFOGENABLE, u32::from(range));
            for p in points {
                let e = v3(p);
                let d = if range { dot(e, e).sqrt() } else { e[2].abs() };
                let f = match mode {
                    FogMode::Linear => (3.5 - d) / 3.0,
                    FogMode::Exp => (-d * 0.4).exp(),
                    _ => (-(d * 0.4) * (d * 0.4)).exp(),
                }
                .clamp(0.0, 1.0);
                let got = draw_at(
                    &mut dev,
                    rt,
                    p,
                    [0.0, 0.0, -1.0],
                    [0xffff_ffff, 0xffff_ffff],
                );
                let expected = argb([f, f, f, 1.0]);
                assert!(
                    close(got, expected, 2),
                    "{name}, range {range}, eye {p:?}: {got:#010x}, expected {expected:#010x}"
                );
            }
        }
    }
}

/// ps_2_0 `mov oC0, t0`: the vertex stage's texture coordinate 0 as the colour.
fn texcoord_shader(dev: &mut Device) {
    let ps = ok(dev.create_pixel_shader(&tokens("ps_2_0\ndcl t0\nmov oC0, t0")));
    ok(dev.set_pixel_shader(Some(ps)));
}

/// Vertex blending: e = Σ wᵢ · (v · Worldᵢ · View) with the last weight 1 − Σ, for
/// `D3DVBF_2WEIGHTS`, and v · World0 · View for `D3DVBF_0WEIGHTS`; read as `D3DTSS_TCI_CAMERASPACEPOSITION` through a pixel shader.
#[test]
fn gpu_vertex_blending_weights_the_world_matrices() {
    let (mut dev, rt) = setup();
    ok(dev.set_render_state(RenderState::Lighting(false)));
    texcoord_shader(&mut dev);
    // D3DTSS_TEXCOORDINDEX: camera-space position.
    ok(dev.set_texture_stage_state_raw(0, 11, 0x2_0000));
    let worlds: [Matrix; 3] = std::array::from_fn(|i| {
        let mut m = IDENTITY;
        m[3] = [0.1 * i as f32, 0.3 - 0.1 * i as f32, 0.2 * i as f32, 1.0];
        m[0][0] = 1.0 + 0.25 * i as f32;
        m
    });
    for (i, w) in worlds.iter().enumerate() {
        ok(dev.set_transform(TransformState::World(i as u8), *w));
    }
    let mut view = IDENTITY;
    view[3] = [0.05, 0.1, 0.3, 1.0];
    ok(dev.set_transform(TransformState::View, view));
    raw(&mut dev, 151, 2); // D3DRS_VERTEXBLEND: D3DVBF_2WEIGHTS
    let object = [0.2f32, 0.1, 0.25];
    let weights = [0.25f32, 0.5];
    let mut e = [0.0f64; 3];
    for (i, w) in worlds.iter().enumerate() {
        let weight = f64::from(*weights.get(i).unwrap_or(&(1.0 - weights[0] - weights[1])));
        for (j, ej) in e.iter_mut().enumerate() {
            let world: f64 = (0..3)
                .map(|k| f64::from(object[k]) * f64::from(w[k][j]))
                .sum::<f64>()
                + f64::from(w[3][j]);
            *ej += weight * (world + f64::from(view[3][j]));
        }
    }
    let centre = e.map(|x| x as f32);
    ok(dev.set_transform(TransformState::Projection, magnifier(centre)));
    // D3DFVF_XYZB2: position, two blend weights. The quad spans ±1e-4 in object x and y
    // (scaled by the blended matrices, which the magnifier tolerates).
    ok(dev.set_fvf(0x008));
    let h = 1e-4f32;
    let mut data = Vec::new();
    for (dx, dy) in [(-h, -h), (-h, h), (h, -h), (h, h)] {
        data.extend(floats(&[
            object[0] + dx,
            object[1] + dy,
            object[2],
            weights[0],
            weights[1],
        ]));
    }
    // Draws the quad and checks the centre shows eye position `e`.
    let eye_at_centre = |dev: &mut Device, data: &[u8], stride: u32, e: [f64; 3], what: &str| {
        ok(dev.clear(&[], ClearFlags::TARGET, 0, 1.0, 0));
        ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, data, stride));
        let got = ok(dev.get_render_target_data(rt))
            .color(32, 32)
            .unwrap_or_default();
        let expected = argb([e[0], e[1], e[2], 0.0]);
        assert!(
            close(got, expected, 1),
            "{what} eye position {e:?}: {got:#010x}, expected {expected:#010x}"
        );
    };
    eye_at_centre(&mut dev, &data, 20, e, "blended");
    // D3DVBF_0WEIGHTS: vertices without weights (D3DFVF_XYZ) take World0 alone.
    raw(&mut dev, 151, 256);
    let e0: [f64; 3] = std::array::from_fn(|j| {
        (0..3)
            .map(|k| f64::from(object[k]) * f64::from(worlds[0][k][j]))
            .sum::<f64>()
            + f64::from(worlds[0][3][j])
            + f64::from(view[3][j])
    });
    ok(dev.set_transform(TransformState::Projection, magnifier(e0.map(|x| x as f32))));
    ok(dev.set_fvf(0x002));
    let mut data = Vec::new();
    for (dx, dy) in [(-h, -h), (-h, h), (h, -h), (h, h)] {
        data.extend(floats(&[object[0] + dx, object[1] + dy, object[2]]));
    }
    eye_at_centre(&mut dev, &data, 12, e0, "D3DVBF_0WEIGHTS");
}

/// `SetLight`/`GetLight`, `LightEnable`/`GetLightEnable` and `SetMaterial`/`GetMaterial`:
/// lights at any index, D3D9's default light where `LightEnable` finds none, and at most
/// `MaxActiveLights` (8) applied: nine enabled lights of 0.1 red each light 0.8.
#[test]
fn gpu_lights_are_kept_by_index_and_eight_apply() {
    use d3d9_backend::device::MAX_ACTIVE_LIGHTS;
    let (mut dev, rt) = setup();
    assert!(dev.light(7).is_err_and(|e| e.is_invalid_call()));
    assert!(dev.light_enabled(7).is_err_and(|e| e.is_invalid_call()));
    ok(dev.light_enable(7, false));
    assert_eq!(ok(dev.light(7)), Light::default());
    assert_eq!(Light::default().light_type, LightType::Directional);
    assert_eq!(Light::default().diffuse, [1.0, 1.0, 1.0, 0.0]);
    assert!(!ok(dev.light_enabled(7)));
    let m = material();
    ok(dev.set_material(&m));
    assert_eq!(dev.material(), m);
    let mut l = light(LightType::Directional);
    l.direction = [0.0, 0.0, 1.0];
    l.diffuse = [0.1, 0.0, 0.0, 0.0];
    l.ambient = [0.0; 4];
    for index in [1000u32, 3, 40, 5, 6, 70, 8, 9, 100_000] {
        ok(dev.set_light(index, &l));
        ok(dev.light_enable(index, true));
    }
    assert_eq!(ok(dev.light(100_000)), l);
    assert!(ok(dev.light_enabled(40)));
    // The indices set or enabled, in order (what a state block captures).
    assert_eq!(
        dev.light_indices(),
        [3, 5, 6, 7, 8, 9, 40, 70, 1000, 100_000]
    );
    ok(dev.set_material(&Material {
        diffuse: [1.0; 4],
        ..Material::default()
    }));
    raw(&mut dev, COLORVERTEX, 0);
    let got = draw_at(&mut dev, rt, [0.0, 0.0, 1.0], [0.0, 0.0, -1.0], [0, 0]);
    let expected = argb([0.1 * MAX_ACTIVE_LIGHTS as f64, 0.0, 0.0, 1.0]);
    assert!(
        close(got, expected, 1),
        "nine lights: {got:#010x}, expected {expected:#010x}"
    );
}

/// `ProcessVertices` without a vertex shader (software vertex processing): the reference
/// interpreter runs the fixed-function vertex stage the draws translate, so the processed
/// COLOR0 is the lighting equation's; read back by drawing the processed vertices.
#[test]
fn gpu_process_vertices_lights_with_the_fixed_function_stage() {
    use d3d9_backend::device::DeviceParams;
    use d3d9_translator::bytecode::Usage;
    use d3d9_translator::decl::{DeclType, VertexElement, VertexProcessing};
    let mut dev = Device::new(DeviceParams {
        processing: VertexProcessing::Software,
        ..DeviceParams::default()
    })
    .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let m = material();
    ok(dev.set_material(&m));
    raw(&mut dev, COLORVERTEX, 0);
    raw(&mut dev, NORMALIZENORMALS, 1);
    raw(&mut dev, AMBIENT, 0x0040_2010);
    let l = light(LightType::Directional);
    ok(dev.set_light(0, &l));
    ok(dev.light_enable(0, true));
    ok(dev.set_fvf(XYZ | NORMAL));
    let n = NORMALS[0];
    let quad: Vec<f32> = [(-1.0f32, -1.0f32), (-1.0, 1.0), (1.0, -1.0), (1.0, 1.0)]
        .iter()
        .flat_map(|&(x, y)| [x, y, 0.5, n[0], n[1], n[2]])
        .collect();
    let vb = ok(dev.create_vertex_buffer_with(&floats(&quad)));
    ok(dev.set_stream_source(0, Some(vb), 0, 24));
    let out_decl = ok(dev.create_vertex_declaration(&[
        VertexElement::new(0, 0, DeclType::Float4, Usage::PositionT, 0),
        VertexElement::new(0, 16, DeclType::D3DColor, Usage::Color, 0),
    ]));
    let out = ok(dev.create_vertex_buffer(4 * 20));
    ok(dev.process_vertices(0, 0, 4, out, out_decl));
    ok(dev.set_vertex_declaration(Some(out_decl)));
    ok(dev.set_stream_source(0, Some(out), 0, 20));
    ok(dev.set_render_state(RenderState::CullMode(d3d9_backend::device::CullMode::None)));
    ok(dev.clear(&[], ClearFlags::TARGET, 0, 1.0, 0));
    ok(dev.draw_primitive(PrimitiveType::TriangleStrip, 0, 2));
    let global = [
        0x40 as f64 / 255.0,
        0x20 as f64 / 255.0,
        0x10 as f64 / 255.0,
        0.0,
    ];
    let (c0, _) = lit(&[l], &m, global, [0.0, 0.0, 0.5], norm(v3(n)), false);
    let expected = argb(c0) & 0x00ff_ffff;
    let got = ok(dev.pixel(320, 240)) & 0x00ff_ffff;
    assert!(
        close(got, expected, 2),
        "processed COLOR0 {got:#010x}, the SDK's {expected:#010x}"
    );
}
