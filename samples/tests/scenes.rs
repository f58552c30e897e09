//! The SDK-tutorial and programmable scenes: pixels whose colour follows from the scene's
//! numbers by D3D9's rules, computed here on their own (the lighting formula at a known
//! point, a texel of a known texture, the sepia matrix, the point-size formula).
//! Needs a GPU adapter (lavapipe is enough); D3D9_ALLOW_NO_GPU=1 skips.

use d3d9_backend::device::SurfaceData;
use d3d9_backend::Gpu;
use d3d9_samples::draw::{HEIGHT, WIDTH};
use d3d9_samples::math::{add, dot, normalize, sub, to_pixel, Mat4, Vec3};

fn scene(gpu: &Gpu, name: &str) -> SurfaceData {
    let scene = d3d9_samples::SCENES
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no scene {name}"));
    d3d9_samples::render_scene(gpu, scene).unwrap_or_else(|e| panic!("{e}"))
}

/// Pixel (x, y) as R, G, B.
fn px(image: &SurfaceData, (x, y): (u32, u32)) -> [u8; 3] {
    let [_, r, g, b] = image.color(x, y).expect("an 8-bit pixel").to_be_bytes();
    [r, g, b]
}

/// The pixel of `image` at `at` is `expected` (0..1 per channel) within `tolerance`.
fn assert_near(image: &SurfaceData, at: (u32, u32), expected: [f32; 3], tolerance: u8) {
    let got = px(image, at);
    let want = expected.map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8);
    assert!(
        (0..3).all(|i| got[i].abs_diff(want[i]) <= tolerance),
        "pixel {at:?}: {got:?}, expected {want:?}"
    );
}

fn rgb(argb: u32) -> [f32; 3] {
    let [_, r, g, b] = argb.to_be_bytes();
    [r, g, b].map(|c| f32::from(c) / 255.0)
}

/// The pixel a world-space point lands on through `view_projection`.
fn project(view_projection: &Mat4, point: Vec3) -> (u32, u32) {
    let (x, y) = to_pixel(view_projection.transform_point(point), WIDTH, HEIGHT);
    (x as u32, y as u32)
}

/// The SDK tutorials' camera: (0, 3, -5) towards the origin, 45°, 4:3, near 1, far 100.
fn tutorial_camera() -> Mat4 {
    Mat4::look_at_lh([0.0, 3.0, -5.0], [0.0; 3], [0.0, 1.0, 0.0]).then(&Mat4::perspective_fov_lh(
        std::f32::consts::FRAC_PI_4,
        4.0 / 3.0,
        1.0,
        100.0,
    ))
}

/// The gallery's own projection: 45°, 640x480, near 0.5, far 50.
fn gallery_projection() -> Mat4 {
    Mat4::perspective_fov_lh(std::f32::consts::FRAC_PI_4, 4.0 / 3.0, 0.5, 50.0)
}

#[test]
fn gpu_vertices_interpolate_the_three_colours() {
    let Some(gpu) = Gpu::for_tests().expect("GPU") else {
        return;
    };
    let image = scene(&gpu, "vertices");
    assert_near(&image, (5, 5), [0.0, 0.0, 1.0], 0);
    // At the centroid (320, 300) each vertex weighs a third: red, green, cyan.
    let third = 1.0 / 3.0;
    assert_near(&image, (320, 300), [third, 2.0 * third, third], 2);
    // Near a corner its own colour.
    assert_near(&image, (320, 66), [1.0, 0.0, 0.0], 8);
}

#[test]
fn gpu_matrices_place_the_turned_triangle() {
    let Some(gpu) = Gpu::for_tests().expect("GPU") else {
        return;
    };
    let image = scene(&gpu, "matrices");
    let wvp = Mat4::rotation_y(0.6).then(&tutorial_camera());
    // The triangle's centroid (0, -1/3, 0) weighs red, blue and white a third each.
    let third = 1.0 / 3.0;
    let at = project(&wvp, [0.0, -third, 0.0]);
    assert_near(&image, at, [2.0 * third, third, 2.0 * third], 3);
    // Its mirror image about the turned triangle's plane is outside: black.
    assert_near(&image, (10, 470), [0.0; 3], 0);
}

#[test]
fn gpu_lights_follow_the_lighting_formula() {
    let Some(gpu) = Gpu::for_tests().expect("GPU") else {
        return;
    };
    let image = scene(&gpu, "lights");
    // The cylinder's line facing the camera: normal (0, 0, -1). D3D9: ambient * material
    // ambient + N.L * light diffuse * material diffuse, L = -direction.
    let to_light = normalize([-0.5, 0.3, -1.0]);
    let n_dot_l = dot([0.0, 0.0, -1.0], to_light).max(0.0);
    let ambient = f32::from(0x20u8) / 255.0;
    let lit = ambient + n_dot_l;
    let at = project(&tutorial_camera(), [0.0, 0.0, -1.0]);
    assert_near(&image, at, [lit, 0.75 * lit, 0.0], 3);
    assert_near(&image, (5, 5), [0.0, 0.0, 1.0], 0);
}

#[test]
fn gpu_textures_show_the_checker_texels() {
    let Some(gpu) = Gpu::for_tests().expect("GPU") else {
        return;
    };
    let image = scene(&gpu, "textures");
    let camera = tutorial_camera();
    // Front line: u = 0.5 (texel column 32). y = 0 is v = 0.5 (row 32): cell (4, 4), the
    // first colour; y = 0.25 is v = 0.375 (row 24): cell (4, 3), the second.
    assert_near(&image, project(&camera, [0.0, 0.0, -1.0]), rgb(0xE08020), 2);
    assert_near(
        &image,
        project(&camera, [0.0, 0.25, -1.0]),
        rgb(0x2040A0),
        2,
    );
}

#[test]
fn gpu_meshes_light_each_subset_with_its_material_and_dxt_texels() {
    let Some(gpu) = Gpu::for_tests().expect("GPU") else {
        return;
    };
    let image = scene(&gpu, "meshes");
    let camera = Mat4::look_at_lh([-2.5, 3.2, -5.5], [0.0, 1.0, 0.0], [0.0, 1.0, 0.0])
        .then(&gallery_projection());
    let to_light = normalize([0.5, 1.0, -0.7]);
    let ambient = f32::from(0x40u8) / 255.0;
    // Ground (untextured): material (0.3, 0.6, 0.25) times ambient + N.L, N = +y.
    let lit = ambient + to_light[1];
    let ground = project(&camera, [2.2, 0.0, -2.2]);
    assert_near(&image, ground, [0.3 * lit, 0.6 * lit, 0.25 * lit], 3);
    // Front wall, texel (8, 38) of the brick texture: brick 0x9A3A2A, which DXT1 stores as
    // R5G6B5 (19, 14, 5) and decodes to (0x9C, 0x38, 0x29); white material.
    let lit = ambient + dot([0.0, 0.0, -1.0], to_light);
    let (u, v) = (8.5 / 64.0, 38.5 / 64.0);
    let wall = project(&camera, [-1.0 + u, 1.5 - v, -1.0]);
    let texel = rgb(0x9C3829);
    assert_near(&image, wall, texel.map(|c| c * lit), 3);
    // The DXT5 roof: red tiles over the walls.
    let [r, g, b] = px(&image, project(&camera, [0.0, 2.0, -0.6]));
    assert!(r > 120 && r > 2 * g && g >= b, "roof {:?}", [r, g, b]);
}

#[test]
fn gpu_normal_map_lights_each_pixel() {
    let Some(gpu) = Gpu::for_tests().expect("GPU") else {
        return;
    };
    let image = scene(&gpu, "normal_map");
    let camera =
        Mat4::look_at_lh([0.0, 0.0, -4.0], [0.0; 3], [0.0, 1.0, 0.0]).then(&gallery_projection());
    let light = [-1.0, 1.2, -2.0];
    let shade = |p: Vec3, n: Vec3| {
        let l = normalize([light[0] - p[0], light[1] - p[1], light[2] - p[2]]);
        let d = dot(n, l).clamp(0.0, 1.0);
        [0.9 * d + 0.08, 0.75 * d + 0.08, 0.55 * d + 0.1]
    };
    // The plate between bumps: the texel (128, 128, 0) unpacks to (1/255, 1/255, -1).
    let flat = [128.0 / 255.0 * 2.0 - 1.0, 128.0 / 255.0 * 2.0 - 1.0, -1.0];
    let centre = [0.0, 0.0, 0.0];
    assert_near(&image, project(&camera, centre), shade(centre, flat), 3);
    let lower = [0.75, -0.75, 0.0];
    assert_near(&image, project(&camera, lower), shade(lower, flat), 3);
    // Bump (1, 1) (texels 32..64): its upper-left slope faces the light and is far
    // brighter than its lower-right slope, which faces away, darker than the plate.
    let sum = |p: [u8; 3]| p.iter().map(|&c| u32::from(c)).sum::<u32>();
    let plate = sum(px(&image, project(&camera, centre)));
    let texel_point = |tx: f32, ty: f32| [-1.5 + 3.0 * tx / 128.0, 1.5 - 3.0 * ty / 128.0, 0.0];
    let lit = sum(px(&image, project(&camera, texel_point(41.0, 41.0))));
    let dark = sum(px(&image, project(&camera, texel_point(55.0, 55.0))));
    assert!(
        lit > dark + 150 && dark + 60 < plate,
        "{lit} {plate} {dark}"
    );
}

#[test]
fn gpu_post_process_shows_the_texture_and_its_sepia() {
    let Some(gpu) = Gpu::for_tests().expect("GPU") else {
        return;
    };
    let image = scene(&gpu, "post_process");
    let clear = rgb(0x3080C0);
    let sepia = |c: [f32; 3]| {
        [
            [0.393, 0.769, 0.189],
            [0.349, 0.686, 0.168],
            [0.272, 0.534, 0.131],
        ]
        .map(|row| (row[0] * c[0] + row[1] * c[1] + row[2] * c[2]).min(1.0))
    };
    // Left half: the render-target texture as it is; right half: its sepia.
    assert_near(&image, (20, 20), clear, 1);
    assert_near(&image, (620, 20), sepia(clear), 2);
    assert_near(&image, (620, 470), sepia(clear), 2);
    // Inside the triangle, right half: a sepia tone (red over green over blue).
    let [r, g, b] = px(&image, (400, 380));
    assert!(r > g && g > b && px(&image, (400, 380)) != px(&image, (620, 20)));
    // Left of the middle the triangle keeps its colours: green at the bottom-left corner.
    let [r, g, b] = px(&image, (100, 410));
    assert!(g > r && g > b, "{:?}", [r, g, b]);
}

#[test]
fn gpu_point_sprites_are_sized_by_distance() {
    let Some(gpu) = Gpu::for_tests().expect("GPU") else {
        return;
    };
    let image = scene(&gpu, "point_sprites");
    let view = Mat4::look_at_lh([0.0, 0.0, -6.0], [0.0; 3], [0.0, 1.0, 0.0]);
    let clear = rgb(0x000010);
    // Point 0 at (2, 0, 0): its sprite's middle is the texture's full-bright centre times
    // its colour 0xFF4040, added to the clear colour.
    let (x, y) = project(&view.then(&gallery_projection()), [2.0, 0.0, 0.0]);
    let colour = rgb(0xFF4040);
    let added = [0, 1, 2].map(|i| colour[i] + clear[i]);
    assert_near(&image, (x, y), added, 2);
    // D3D9's point size: viewport height * size * sqrt(1 / (A + B De + C De^2)), with
    // A = B = 0, C = 1: 480 * 0.6 / De, De the eye-space distance.
    let eye = view.transform_point([2.0, 0.0, 0.0]);
    let size = 480.0 * 0.6 / (eye[0] * eye[0] + eye[1] * eye[1] + eye[2] * eye[2]).sqrt();
    let outside = (size * 0.5 + 2.0) as u32;
    assert_near(&image, (x, y + outside), clear, 0);
    assert_near(&image, (x, y - outside), clear, 0);
    // Inside the square, the blob fades: dimmer than the middle, brighter than the clear.
    let [r, _, _] = px(&image, (x, y + (size * 0.3) as u32));
    assert!(r > 20 && r < 250, "{r}");
}

#[test]
fn gpu_vertex_blend_bends_the_bar_with_its_bones() {
    let Some(gpu) = Gpu::for_tests().expect("GPU") else {
        return;
    };
    let image = scene(&gpu, "vertex_blend");
    // The scene's numbers: camera (0, 0, -4) towards the origin, the gallery's projection;
    // bone 0 the identity, bone 1 turned 1.2 rad about z; bone 0's weight 1 for x <= -0.2,
    // 0 for x >= 0.2; left vertices 0xFFFF00, right 0x00FFFF; tint (1, 0.5, 1).
    let vp =
        Mat4::look_at_lh([0.0, 0.0, -4.0], [0.0; 3], [0.0, 1.0, 0.0]).then(&gallery_projection());
    let tint = [1.0, 0.5, 1.0];
    let tinted = |c: [f32; 3]| [c[0] * tint[0], c[1] * tint[1], c[2] * tint[2]];
    // The left half follows bone 0: (-1, 0) stays, yellow tinted.
    let left = project(&vp, [-1.0, 0.0, 0.0]);
    assert_near(&image, left, tinted(rgb(0xFFFF00)), 2);
    // The right half follows bone 1: (1, 0) is carried to (cos 1.2, sin 1.2), cyan tinted.
    let (s, c) = 1.2f32.sin_cos();
    let right = project(&vp, [c, s, 0.0]);
    assert_near(&image, right, tinted(rgb(0x00FFFF)), 2);
    let outer = project(&vp, [1.4 * c - 0.1 * s, 1.4 * s + 0.1 * c, 0.0]);
    assert_near(&image, outer, tinted(rgb(0x00FFFF)), 2);
    // Where the right half would be unbent: the clear colour.
    let unbent = project(&vp, [1.0, 0.0, 0.0]);
    assert_near(&image, unbent, rgb(0x101020), 0);
    // Below the bar's left half: the clear colour too.
    assert_near(&image, project(&vp, [-1.0, -0.5, 0.0]), rgb(0x101020), 0);
}

#[test]
fn gpu_skinned_arm_is_lit_per_pixel_with_a_highlight() {
    let Some(gpu) = Gpu::for_tests().expect("GPU") else {
        return;
    };
    let image = scene(&gpu, "skinned_arm");
    // The scene's numbers: camera at EYE towards (0, 0.6, 0); bone 1 turns the right half
    // 40° about z; the tube's radius is 0.35. Pixel shader: towards the light L, diffuse
    // (0.35, 0.8, 0.4), ambient (0.1, 0.1, 0.12), specular 0.8, power 32:
    // ambient + diffuse sat(N.L) + specular sat(N.H)^32, H = normalize(L + V).
    const EYE: Vec3 = [0.0, 0.6, -6.0];
    let vp = Mat4::look_at_lh(EYE, [0.0, 0.6, 0.0], [0.0, 1.0, 0.0]).then(&gallery_projection());
    let to_light = normalize([-0.3, 0.6, -0.8]);
    let (diffuse, ambient) = ([0.35, 0.8, 0.4], [0.1, 0.1, 0.12]);
    let shade = |p: Vec3, n: Vec3| {
        let h = normalize(add(to_light, normalize(sub(EYE, p))));
        let d = dot(n, to_light).clamp(0.0, 1.0);
        let s = dot(n, h).clamp(0.0, 1.0).powf(32.0);
        [0, 1, 2].map(|i| ambient[i] + diffuse[i] * d + 0.8 * s)
    };
    // The point at rest x and `degrees` round the tube (bone 1 only), and its normal.
    let bone = Mat4::rotation_z(40f32.to_radians());
    let turn = |v: Vec3| {
        let [x, y, z, _] = bone.transform_point(v);
        [x, y, z]
    };
    let surface = |x: f32, degrees: f32| {
        let (s, c) = degrees.to_radians().sin_cos();
        (turn([x, 0.35 * c, 0.35 * s]), normalize(turn([0.0, c, s])))
    };
    // The pixel a point lands on, and what the pixel shows: the point near it whose
    // projection is nearest the pixel's centre, (i, j) in D3D9 (pixel i covers
    // [i - 0.5, i + 0.5]).
    let seen = |degrees: f32| {
        let at = project(&vp, surface(1.5, degrees).0);
        let mut best = (f32::MAX, surface(1.5, degrees));
        for step in -600..=600 {
            for dx in -20..=20 {
                let point = surface(1.5 + 0.005 * dx as f32, degrees + 0.02 * step as f32);
                let (u, v) = to_pixel(vp.transform_point(point.0), WIDTH, HEIGHT);
                let d = (u - at.0 as f32).powi(2) + (v - at.1 as f32).powi(2);
                if d < best.0 {
                    best = (d, point);
                }
            }
        }
        (at, shade(best.1 .0, best.1 .1))
    };
    // Per pixel: between the vertices (every 18°) too, the formula with the normal there.
    for degrees in [216.0, 250.0, 270.0, 300.0, 324.0, 330.0] {
        let (at, expected) = seen(degrees);
        assert_near(&image, at, expected, 4);
    }
    // The side towards the light is far brighter than the side away from it (216°,
    // N.L < 0: ambient only).
    let sum = |p: [u8; 3]| p.iter().map(|&c| u32::from(c)).sum::<u32>();
    let lit = sum(px(&image, seen(324.0).0));
    let (p, n) = surface(1.5, 216.0);
    let shadow = sum(px(&image, project(&vp, p)));
    assert!(
        dot(n, to_light) < 0.0 && lit > shadow + 300,
        "{lit} {shadow}"
    );
    // The highlight, where N.H peaks round the ring: white, its blue above anything the
    // diffuse and ambient terms alone give (0.12 + 0.4).
    let peak = (0..360)
        .map(|d| surface(1.5, d as f32))
        .filter(|&(p, n)| dot(n, sub(EYE, p)) > 0.0)
        .max_by(|a, b| shade(a.0, a.1)[2].total_cmp(&shade(b.0, b.1)[2]))
        .expect("a visible point");
    let at = project(&vp, peak.0);
    assert_near(&image, at, shade(peak.0, peak.1), 4);
    let [r, g, b] = px(&image, at);
    assert!(
        r > 200 && g > 200 && b > 200,
        "highlight {:?} at {at:?}",
        [r, g, b]
    );
}

/// A program releases what it made: drawn again after a release and a new creation on the
/// same device (the windowed run's `Reset`), each scene gives the same picture.
#[test]
fn gpu_scenes_draw_again_after_release() {
    let Some(gpu) = Gpu::for_tests().expect("GPU") else {
        return;
    };
    for name in ["skinned_arm", "meshes", "post_process", "vertex_blend"] {
        let scene = d3d9_samples::SCENES
            .iter()
            .find(|s| s.name == name)
            .expect("scene");
        let mut device = d3d9_samples::draw::scene_device(&gpu).expect("device");
        let mut first = scene.create(&mut device).expect("create");
        first.frame(&mut device, 0.0).expect("frame");
        let before = device
            .get_render_target_data(device.back_buffer())
            .expect("read");
        first.release(&mut device).expect("release");
        let mut again = scene.create(&mut device).expect("create again");
        again.frame(&mut device, 0.0).expect("frame again");
        let after = device
            .get_render_target_data(device.back_buffer())
            .expect("read");
        assert!(before.data == after.data, "{name}");
    }
}
