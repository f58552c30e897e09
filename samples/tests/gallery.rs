//! The gallery renders in-process through the D3D9-style device, and each
//! scene's pixels show that its D3D9 shader ran as D3D9 would run it.
//! Needs a GPU adapter (lavapipe is enough); D3D9_ALLOW_NO_GPU=1 skips.

use std::path::Path;

use d3d9_backend::device::SurfaceData;
use d3d9_backend::Gpu;
use d3d9_samples::draw::{Declaration, SceneDraw};
use d3d9_samples::draw::{HEIGHT, WIDTH};
use d3d9_samples::math::{to_pixel, Mat4};
use d3d9_samples::SceneKind;
use d3d9_translator::asm::assemble;
use d3d9_translator::bytecode::{Stage, Usage};
use d3d9_translator::check::{check, DeviceCaps};
use d3d9_translator::decl::{bind_program, StreamSource, VertexDeclaration, VertexProcessing};
use d3d9_translator::lift::{
    translate_pixel_shader, translate_vertex_shader, PixelShaderOptions, TranslatedShader,
    VertexShaderOptions,
};
use d3d9_translator::signature::Semantic;

fn decode_png(path: &Path) -> (u32, u32, Vec<u8>) {
    let file = std::fs::File::open(path).expect("gallery PNG exists");
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .expect("PNG header");
    let mut data = vec![0; reader.output_buffer_size().expect("PNG size fits")];
    let info = reader.next_frame(&mut data).expect("PNG data");
    assert_eq!(info.color_type, png::ColorType::Rgba);
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    data.truncate(info.buffer_size());
    (info.width, info.height, data)
}

fn png_pixel(data: &[u8], width: u32, x: u32, y: u32) -> [u8; 4] {
    let i = ((y * width + x) * 4) as usize;
    data[i..i + 4].try_into().expect("four bytes")
}

fn scene(gpu: &Gpu, name: &str) -> SurfaceData {
    let scene = d3d9_samples::SCENES
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no scene {name}"));
    d3d9_samples::render_scene(gpu, scene).unwrap_or_else(|e| panic!("{e}"))
}

/// Pixel (x, y) as R, G, B, A bytes.
fn px(image: &SurfaceData, x: u32, y: u32) -> [u8; 4] {
    let [a, r, g, b] = image
        .color(x, y)
        .expect("an 8-bit pixel inside the image")
        .to_be_bytes();
    [r, g, b, a]
}

/// Sum of the colour channels: how bright a pixel is.
fn brightness([r, g, b, _]: [u8; 4]) -> u32 {
    u32::from(r) + u32::from(g) + u32::from(b)
}

/// The pixel a world-space point lands on with `view` and the scenes'
/// projection (45° vertical field of view, 640x480, near 0.5, far 50).
fn project(view: &Mat4, point: [f32; 3]) -> (u32, u32) {
    let projection = Mat4::perspective_fov_lh(
        std::f32::consts::FRAC_PI_4,
        WIDTH as f32 / HEIGHT as f32,
        0.5,
        50.0,
    );
    let (x, y) = to_pixel(view.then(&projection).transform_point(point), WIDTH, HEIGHT);
    (x as u32, y as u32)
}

#[test]
fn gpu_gallery_writes_every_scene_as_png() {
    let Some(gpu) = Gpu::for_tests().expect("GPU for the gallery") else {
        return;
    };
    let out = std::env::temp_dir().join(format!("d3d9-samples-test-{}", std::process::id()));
    let written = d3d9_samples::render_gallery(&gpu, &out).expect("gallery renders");
    assert_eq!(written.len(), d3d9_samples::SCENES.len());
    for scene in d3d9_samples::SCENES {
        let path = out.join(format!("{}.png", scene.name));
        assert!(written.contains(&path), "{written:?}");
        let (width, height, _) = decode_png(&path);
        assert_eq!((width, height), (640, 480), "{}", scene.name);
    }

    // index.html names every scene, and every picture it links exists.
    let page = std::fs::read_to_string(out.join("index.html")).expect("index.html");
    for scene in d3d9_samples::SCENES {
        assert!(
            page.contains(&format!("id=\"{}\"", scene.name)),
            "{}",
            scene.name
        );
        assert!(
            page.contains(&format!("src=\"{}.png\"", scene.name)),
            "{}",
            scene.name
        );
    }
    let linked: Vec<&str> = page
        .split("src=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .collect();
    assert!(linked.len() >= d3d9_samples::SCENES.len(), "{linked:?}");
    for picture in linked {
        assert!(out.join(picture).is_file(), "index.html links {picture}");
    }

    let (width, _, data) = decode_png(&out.join("triangle.png"));
    // Clear colour D3DCOLOR_XRGB(0, 0, 64) outside the triangle.
    assert_eq!(png_pixel(&data, width, 2, 2), [0, 0, 64, 255]);
    assert_eq!(png_pixel(&data, width, 637, 2), [0, 0, 64, 255]);
    // Near each vertex its own colour dominates: red top, green bottom
    // left, blue bottom right (D3DCOLOR 0xAARRGGBB read as R, G, B, A).
    let [r, g, b, a] = png_pixel(&data, width, 320, 60);
    assert!(
        r > 220 && g < 30 && b < 30 && a == 255,
        "top {:?}",
        [r, g, b, a]
    );
    let [r, g, b, _] = png_pixel(&data, width, 75, 427);
    assert!(g > 220 && r < 30 && b < 30, "bottom left {:?}", [r, g, b]);
    let [r, g, b, _] = png_pixel(&data, width, 564, 427);
    assert!(b > 220 && r < 30 && g < 30, "bottom right {:?}", [r, g, b]);
    std::fs::remove_dir_all(&out).expect("remove test output");
}

#[test]
fn gpu_lit_cube_faces_follow_the_light() {
    let Some(gpu) = Gpu::for_tests().expect("GPU") else {
        return;
    };
    let image = scene(&gpu, "lit_cube");
    assert_eq!(px(&image, 10, 10), [0x20, 0x20, 0x30, 255], "clear colour");
    // N.L: top face about 0.87, front face about 0.5, right face 0 (ambient
    // only), times the orange material (1, 0.55, 0.15).
    let top = px(&image, 280, 140);
    let front = px(&image, 260, 300);
    let right = px(&image, 420, 280);
    assert!(
        brightness(top) > brightness(front) + 60,
        "top {top:?} front {front:?}"
    );
    assert!(
        brightness(front) > brightness(right) + 60,
        "front {front:?} right {right:?}"
    );
    // The lit faces carry the material's hue: red over green over blue.
    assert!(
        top[0] > 200 && top[0] > top[1] && top[1] > top[2],
        "{top:?}"
    );
    // The unlit face is the ambient colour (0.08, 0.08, 0.12).
    let [r, g, b, a] = right;
    assert!(r < 30 && g < 30 && b < 40 && a == 255, "{right:?}");
}

#[test]
fn gpu_point_lights_each_light_its_own_spot() {
    let Some(gpu) = Gpu::for_tests().expect("GPU") else {
        return;
    };
    let image = scene(&gpu, "point_lights");
    assert_eq!(px(&image, 5, 5), [0x10, 0x10, 0x18, 255], "clear colour");
    let view = Mat4::look_at_lh([0.0, 4.5, -6.0], [0.0, 0.0, 0.6], [0.0, 1.0, 0.0]);
    // The floor right below each light is lit in that light's colour: the
    // loop ran once per light with aL = 0..3 picking c[aL + 12] / c[aL + 20].
    let spot = |x: f32, z: f32| {
        let (px_, py) = project(&view, [x, 0.0, z]);
        px(&image, px_, py)
    };
    let [r, g, b, _] = spot(-1.8, -1.0);
    assert!(r > 200 && g < 80 && b < 80, "red spot {:?}", [r, g, b]);
    let [r, g, b, _] = spot(1.8, -1.0);
    assert!(g > 200 && r < 80 && b < 80, "green spot {:?}", [r, g, b]);
    let [r, g, b, _] = spot(-1.8, 2.2);
    assert!(b > 200 && r < 80 && g < 120, "blue spot {:?}", [r, g, b]);
    let [r, g, b, _] = spot(1.8, 2.2);
    assert!(r > 200 && g > 180 && b < 80, "yellow spot {:?}", [r, g, b]);
    // Far from every light only the ambient term remains.
    let corner = spot(0.0, 0.6);
    assert!(brightness(corner) < 120, "between the lights {corner:?}");
}

#[test]
fn gpu_wave_grid_is_deformed_by_sincos() {
    let Some(gpu) = Gpu::for_tests().expect("GPU") else {
        return;
    };
    let image = scene(&gpu, "wave_grid");
    let clear = [0x08, 0x08, 0x10, 255];
    assert_eq!(px(&image, 320, 5), clear, "clear colour above the grid");
    assert_eq!(px(&image, 320, 475), clear, "clear colour below the grid");
    // A flat grid's far edge would be one straight row; the waves move it
    // up and down across the image.
    let top_rows: Vec<u32> = (60..=580)
        .step_by(40)
        .map(|x| {
            (0..HEIGHT)
                .find(|&y| px(&image, x, y) != clear)
                .expect("the grid reaches every column")
        })
        .collect();
    let (min, max) = (
        top_rows.iter().min().expect("rows"),
        top_rows.iter().max().expect("rows"),
    );
    assert!(max - min > 20, "far edge rows {top_rows:?}");
    // Crests are light, troughs deep blue: the colour follows the height.
    let column: Vec<[u8; 4]> = (top_rows[6]..HEIGHT)
        .map(|y| px(&image, 300, y))
        .filter(|&p| p != clear)
        .collect();
    let brightest = column.iter().map(|&p| brightness(p)).max().expect("pixels");
    let darkest = column.iter().map(|&p| brightness(p)).min().expect("pixels");
    assert!(
        brightest > 450 && brightest > darkest + 200,
        "{brightest} .. {darkest}"
    );
    assert!(column.iter().all(|p| p[2] >= p[0]), "blue dominates");
}

#[test]
fn gpu_skinned_arm_follows_its_bones() {
    let Some(gpu) = Gpu::for_tests().expect("GPU") else {
        return;
    };
    let image = scene(&gpu, "skinned_arm");
    let clear = [0x18, 0x18, 0x18, 255];
    assert_eq!(px(&image, 5, 5), clear, "clear colour");
    let view = Mat4::look_at_lh([0.0, 0.6, -6.0], [0.0, 0.6, 0.0], [0.0, 1.0, 0.0]);
    // A point on the tube's axis at rest x, turned by its bone's angle
    // (bone 0: -15°, bone 1: +40° about z).
    let on_axis = |x: f32, degrees: f32| {
        let p = Mat4::rotation_z(degrees.to_radians()).transform_point([x, 0.0, 0.0]);
        project(&view, [p[0], p[1], p[2]])
    };
    let green = |p: [u8; 4]| p[1] > 100 && p[1] > p[0] && p[1] > p[2];
    // Vertices whose blend indices name bone 1 (c23–c25 through
    // c[a0.x + 20] with a0.x = 3) moved up with it ...
    for x in [1.2, 1.6, 2.0] {
        let (u, v) = on_axis(x, 40.0);
        assert!(green(px(&image, u, v)), "bone 1 at x = {x}: ({u}, {v})");
        // ... and are no longer where they rest.
        let (u, v) = on_axis(x, 0.0);
        assert_eq!(px(&image, u, v), clear, "rest pose at x = {x}: ({u}, {v})");
    }
    // Bone 0's half tilted down.
    for x in [-2.0, -1.5, -1.0] {
        let (u, v) = on_axis(x, -15.0);
        assert!(green(px(&image, u, v)), "bone 0 at x = {x}: ({u}, {v})");
    }
}

/// The one-draw vertex-shader scenes and their draws at time 0.
fn draw_scenes() -> Vec<(&'static str, SceneDraw)> {
    d3d9_samples::SCENES
        .iter()
        .filter_map(|scene| match scene.kind {
            SceneKind::Draw(setup) => Some((scene.name, setup(0.0))),
            SceneKind::Program(_) => None,
        })
        .collect()
}

/// Each one-draw scene is one draw on its own device: one pairing made (a miss) and nothing evicted.
#[test]
fn gpu_each_scene_pairs_its_shader_once() {
    let Some(gpu) = Gpu::for_tests().expect("GPU") else {
        return;
    };
    for (name, draw) in draw_scenes() {
        let mut device = d3d9_samples::draw::scene_device(&gpu).expect("device");
        d3d9_samples::draw::render_draw(&mut device, &draw)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let (pairs, pipelines) = device.cache_stats();
        assert_eq!(
            (pairs.hits, pairs.misses, pairs.evictions),
            (0, 1, 0),
            "{name}"
        );
        assert_eq!(pipelines.misses, 1, "{name}");
    }
}

/// Without a GPU, what `CreateVertexShader` and the draw-time pairing do
/// with each scene: the shader assembles, passes the D3D9 checks for a
/// hardware-vertex-processing device, binds to its declaration (stream 0,
/// the scene's stride) and lifts to a module naga validates.
fn translate(draw: &SceneDraw) -> TranslatedShader {
    let program = assemble(draw.shader).expect("assembles");
    let checked = check(&program, Stage::Vertex, &DeviceCaps::default()).expect("checks");
    let declaration = match &draw.declaration {
        Declaration::Fvf(code) => VertexDeclaration::from_fvf(*code),
        Declaration::Elements(elements) => VertexDeclaration::from_elements(elements),
    }
    .expect("declaration");
    let streams = [StreamSource {
        stride: draw.stride,
        ..StreamSource::default()
    }];
    let binding = bind_program(
        &declaration,
        checked.program(),
        &streams,
        VertexProcessing::Hardware,
    )
    .expect("binds");
    assert_eq!(binding.streams.len(), 1);
    assert_eq!(u64::from(draw.stride), binding.streams[0].array_stride);
    let options = VertexShaderOptions {
        input_fetches: Some(binding.fetches()),
        ..VertexShaderOptions::default()
    };
    translate_vertex_shader(&checked, &options).expect("lifts")
}

/// A draw's pixel shader, checked and lifted on its own.
fn translate_pixel(asm: &str) -> TranslatedShader {
    let program = assemble(asm).expect("assembles");
    let checked = check(&program, Stage::Pixel, &DeviceCaps::default()).expect("checks");
    translate_pixel_shader(&checked, &PixelShaderOptions::default()).expect("lifts")
}

/// Each vertex shader writes what its pixel stage reads: COLOR0 for D3D9's fixed-function
/// pixel stage, or every input its pixel shader declares, in all the declared components.
#[test]
fn every_scene_translates() {
    let scenes = draw_scenes();
    assert_eq!(scenes.len(), 5, "the five vertex-shader scenes");
    for (name, draw) in scenes {
        let shader = translate(&draw);
        let Some(pixel) = &draw.pixel_shader else {
            let colour = shader
                .interface
                .output(Semantic::new(Usage::Color, 0))
                .unwrap_or_else(|| panic!("{name}: no COLOR0"));
            assert!(colour.written, "{name}");
            continue;
        };
        let inputs = translate_pixel(pixel.shader).interface.pixel_inputs;
        assert!(!inputs.is_empty(), "{name}");
        for input in inputs {
            let output = shader
                .interface
                .output(input.semantic)
                .unwrap_or_else(|| panic!("{name}: no {:?}", input.semantic));
            assert!(output.written, "{name}: {:?}", input.semantic);
            assert!(
                output.mask.0 & input.mask.0 == input.mask.0,
                "{name}: {:?} {:?} {:?}",
                input.semantic,
                output.mask,
                input.mask
            );
        }
    }
}

/// skinned_arm has both stages: the skinned normal (TEXCOORD0) and the eye vector
/// (TEXCOORD1) go to a ps_2_0 that lights per pixel; the page shows both shaders.
#[test]
fn skinned_arm_lights_in_a_pixel_shader() {
    let (_, draw) = draw_scenes()
        .into_iter()
        .find(|(name, _)| *name == "skinned_arm")
        .expect("skinned_arm scene");
    let pixel = draw.pixel_shader.as_ref().expect("a pixel shader");
    let program = assemble(pixel.shader).expect("assembles");
    assert_eq!(program.stage(), Stage::Pixel);
    let inputs: Vec<Semantic> = translate_pixel(pixel.shader)
        .interface
        .pixel_inputs
        .iter()
        .map(|input| input.semantic)
        .collect();
    assert_eq!(
        inputs,
        [
            Semantic::new(Usage::TexCoord, 0),
            Semantic::new(Usage::TexCoord, 1)
        ]
    );
    let scene = d3d9_samples::SCENES
        .iter()
        .find(|s| s.name == "skinned_arm")
        .expect("scene");
    assert_eq!(scene.shaders, [draw.shader, pixel.shader]);
    for call in [
        "CreatePixelShader",
        "SetPixelShader",
        "SetPixelShaderConstantF",
    ] {
        assert!(scene.calls.contains(call), "{call}");
    }
    let out = std::env::temp_dir().join(format!("d3d9-samples-page-{}", std::process::id()));
    let page = d3d9_samples::html::index_html(&out).expect("page");
    let section = page
        .split("<section id=\"skinned_arm\">")
        .nth(1)
        .and_then(|rest| rest.split("</section>").next())
        .expect("skinned_arm section");
    for text in [
        "vs_2_0",
        "ps_2_0",
        "@vertex",
        "@fragment",
        "Disassembly",
        "WGSL",
    ] {
        assert!(section.contains(text), "{text}");
    }
}

#[test]
fn skinning_reads_the_palette_relative_to_a0() {
    let (_, draw) = draw_scenes()
        .into_iter()
        .find(|(name, _)| *name == "skinned_arm")
        .expect("skinned_arm scene");
    let shader = translate(&draw);
    // m4x3 / m3x3 from c[a0.x + 20]: three registers from 20 on.
    assert!(
        shader.interface.relative_constant_reads.contains(&(20, 3)),
        "{:?}",
        shader.interface.relative_constant_reads
    );
}

/// Without a GPU: the page shows every shader's disassembly and WGSL.
#[test]
fn every_shader_disassembles_and_translates_for_the_page() {
    let mut count = 0;
    for scene in d3d9_samples::SCENES {
        for asm in scene.shaders {
            let text = d3d9_samples::html::shader_text(asm)
                .unwrap_or_else(|e| panic!("{}: {e}", scene.name));
            let first = text
                .disassembly
                .lines()
                .next()
                .unwrap_or_default()
                .to_string();
            assert!(
                first.starts_with("vs_") || first.starts_with("ps_"),
                "{first}"
            );
            assert!(text.wgsl.contains("@fragment") || text.wgsl.contains("@vertex"));
            count += 1;
        }
        assert!(!scene.calls.is_empty(), "{}", scene.name);
    }
    // Five vertex-shader scenes and skinned_arm's pixel shader, normal_map (2),
    // post_process (2), point_sprites (1), vertex_blend (1).
    assert_eq!(count, 12);
}
