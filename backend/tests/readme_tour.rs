//! The README's tour example, compiled and run: a triangle from an FVF and a vs_2_0 shader
//! drawn through the device and read back. `readme_shows_this_example` holds the README's
//! text to the lines between the markers below, so neither can change without the other.
//! Needs a GPU adapter (lavapipe is enough); fails without one.

#![allow(clippy::panic)] // a failing test says why

use std::error::Error;

use d3d9_backend::device::SurfaceData;

/// The README's example, run: returns the back buffer it read back.
fn readme_example() -> Result<SurfaceData, Box<dyn Error>> {
    // README tour: begin
    use d3d9_backend::device::{ClearFlags, Device, DeviceParams, PrimitiveType};
    use d3d9_translator::asm::assemble_tokens;
    use d3d9_translator::decl::fvf::{D3DFVF_DIFFUSE, D3DFVF_XYZ};

    let mut dev = Device::new(DeviceParams::default())?; // 640x480 back buffer, hardware VP
    let vs = assemble_tokens("vs_2_0\ndcl_position v0\ndcl_color v1\nmov oPos, v0\nmov oD0, v1")?;
    let vs = dev.create_vertex_shader(&vs)?; // decoded and checked against the caps, once
    dev.set_vertex_shader(Some(vs))?;
    dev.set_fvf(D3DFVF_XYZ | D3DFVF_DIFFUSE)?;
    // x, y, z and a D3DCOLOR (0xAARRGGBB) per vertex, clockwise: D3D9's front face.
    let vertex = |x: f32, y: f32, argb: u32| [x.to_bits(), y.to_bits(), 0.5f32.to_bits(), argb];
    let corners = [
        vertex(0.0, 0.8, 0xffff_0000),
        vertex(0.8, -0.8, 0xff00_00ff),
        vertex(-0.8, -0.8, 0xff00_ff00),
    ];
    let bytes: Vec<u8> = corners
        .iter()
        .flatten()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    dev.clear(&[], ClearFlags::TARGET, 0xff00_0040, 1.0, 0)?;
    // Pairs declaration and shader (translated and linked on first use, then cached).
    dev.draw_primitive_up(PrimitiveType::TriangleList, 1, &bytes, 16)?;
    // Submits and reads the back buffer back as D3D9's memory holds it.
    let back_buffer = dev.get_render_target_data(dev.back_buffer())?;
    // README tour: end
    Ok(back_buffer)
}

#[test]
fn gpu_readme_example_draws_the_triangle() {
    let image = readme_example().unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let rgb = |x, y| image.color(x, y).map(|c| c & 0xff_ffff);
    // Near each vertex its own D3DCOLOR dominates; outside, the clear colour.
    let channels = |c: u32| [(c >> 16) & 0xff, (c >> 8) & 0xff, c & 0xff];
    let top = channels(rgb(320, 60).unwrap_or_else(|| panic!("pixel")));
    assert!(top[0] > 220 && top[1] < 30 && top[2] < 30, "top {top:?}");
    let right = channels(rgb(564, 427).unwrap_or_else(|| panic!("pixel")));
    assert!(
        right[2] > 220 && right[0] < 30 && right[1] < 30,
        "right {right:?}"
    );
    let left = channels(rgb(75, 427).unwrap_or_else(|| panic!("pixel")));
    assert!(
        left[1] > 220 && left[0] < 30 && left[2] < 30,
        "left {left:?}"
    );
    assert_eq!(rgb(637, 2), Some(0x00_0040));
}

/// The lines of `text` between `begin` and `end` (exclusive), without their common indent.
fn between(text: &str, begin: &str, end: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.trim() == begin)
        .unwrap_or_else(|| panic!("no line {begin:?}"));
    let stop = lines[start..]
        .iter()
        .position(|l| l.trim() == end)
        .unwrap_or_else(|| panic!("no line {end:?} after {begin:?}"));
    let body = &lines[start + 1..start + stop];
    let indent = body
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    body.iter()
        .map(|l| l.get(indent..).unwrap_or("").trim_end().to_owned())
        .collect()
}

#[test]
fn readme_shows_this_example() {
    let readme = include_str!("../../README.md");
    let shown = between(
        readme,
        "<!-- device example: begin (backend/tests/readme_tour.rs) -->",
        "<!-- device example: end -->",
    );
    let this = include_str!("readme_tour.rs");
    let example = between(this, "// README tour: begin", "// README tour: end");
    let mut expected = vec!["```rust".to_owned()];
    expected.extend(example);
    expected.push("```".to_owned());
    assert_eq!(
        shown, expected,
        "README.md's device example and backend/tests/readme_tour.rs differ"
    );
}
