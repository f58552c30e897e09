//! The gallery renders in-process and the PNGs hold the expected pixels.
//! Needs a GPU adapter (lavapipe is enough); D3D9_ALLOW_NO_GPU=1 skips.

use std::path::Path;

use d3d9_backend::Gpu;

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

fn pixel(data: &[u8], width: u32, x: u32, y: u32) -> [u8; 4] {
    let i = ((y * width + x) * 4) as usize;
    data[i..i + 4].try_into().expect("four bytes")
}

#[test]
fn gpu_gallery_writes_triangle_png() {
    let Some(gpu) = Gpu::for_tests().expect("GPU for the gallery") else {
        return;
    };
    let out = std::env::temp_dir().join(format!("d3d9-samples-test-{}", std::process::id()));
    let written = d3d9_samples::render_gallery(&gpu, &out).expect("gallery renders");
    let triangle = out.join("triangle.png");
    assert!(written.contains(&triangle), "{written:?}");
    assert_eq!(written.len(), d3d9_samples::SCENES.len());

    let (width, height, data) = decode_png(&triangle);
    assert_eq!((width, height), (640, 480));
    // Clear colour D3DCOLOR_XRGB(0, 0, 64) outside the triangle.
    assert_eq!(pixel(&data, width, 2, 2), [0, 0, 64, 255]);
    assert_eq!(pixel(&data, width, 637, 2), [0, 0, 64, 255]);
    // Near each vertex its own colour dominates: red top, green bottom
    // left, blue bottom right (D3DCOLOR 0xAARRGGBB read as R, G, B, A).
    let [r, g, b, a] = pixel(&data, width, 320, 60);
    assert!(
        r > 220 && g < 30 && b < 30 && a == 255,
        "top {:?}",
        [r, g, b, a]
    );
    let [r, g, b, _] = pixel(&data, width, 75, 427);
    assert!(g > 220 && r < 30 && b < 30, "bottom left {:?}", [r, g, b]);
    let [r, g, b, _] = pixel(&data, width, 564, 427);
    assert!(b > 220 && r < 30 && g < 30, "bottom right {:?}", [r, g, b]);
    std::fs::remove_dir_all(&out).expect("remove test output");
}
