//! Depth textures read by pixel shaders (`PixelShaderOptions::sampler_reads`): shadow maps
//! through a comparison sampler, raw depth (INTZ, DF16/DF24) with and without the shader's
//! bilinear filter, in ps_2_0/ps_3_0 `texld*` and ps_1_x `tex`/`texld`. Every module is
//! re-parsed from its WGSL and validated; the GPU results are in the backend's
//! `device_depth_textures.rs`.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

mod common;

use d3d9_translator::lift::{DepthChannels, PixelShaderOptions, SamplerRead};

/// The WGSL of `text` translated with sampler 0 read as `read`, re-parsed and validated,
/// and the read the interface reports for it.
fn wgsl(text: &str, read: SamplerRead) -> (String, SamplerRead) {
    let options = PixelShaderOptions {
        sampler_reads: vec![read],
        ..Default::default()
    };
    let (wgsl, t) = common::validated_pixel_shader(text, &options);
    let reported = t.interface.samplers.first().expect("a sampler").read;
    (wgsl, reported)
}

const PS2: &str =
    "ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\ntexldp r1, t0, s0\nmov r0.y, r1.x\nmov oC0, r0\n";
const RAW: SamplerRead = SamplerRead::Depth {
    channels: DepthChannels::All,
    linear: false,
};

#[test]
fn shadow_maps_compare_the_coordinates_z_through_a_comparison_sampler() {
    let (w, read) = wgsl(PS2, SamplerRead::Shadow);
    assert_eq!(read, SamplerRead::Shadow);
    assert!(w.contains("texture_depth_2d"), "{w}");
    assert!(w.contains("sampler_comparison"), "{w}");
    assert_eq!(w.matches("textureSampleCompare(").count(), 2, "{w}");
    // The texture coordinate's x and y, and its z as the reference (texldp: divided by w).
    assert!(
        w.contains("vec2<f32>(location0_.x, location0_.y), location0_.z)"),
        "{w}"
    );
    assert!(w.contains("vec2<f32>(_e12.x, _e12.y), _e12.z)"), "{w}");
}

#[test]
fn raw_depth_samples_the_depth_as_an_unfilterable_float_texture() {
    let (w, read) = wgsl(PS2, RAW);
    assert_eq!(read, RAW);
    assert!(!w.contains("texture_depth_2d"), "{w}");
    assert!(!w.contains("sampler_comparison"), "{w}");
    assert_eq!(w.matches("textureSample(").count(), 2, "{w}");
}

#[test]
fn linearly_filtered_raw_depth_weights_four_gathered_texels() {
    let read = SamplerRead::Depth {
        channels: DepthChannels::Red,
        linear: true,
    };
    let (w, _) = wgsl(PS2, read);
    assert_eq!(w.matches("textureGather(").count(), 2, "{w}");
    assert!(w.contains("textureDimensions("), "{w}");
}

#[test]
fn explicit_levels_read_level_zero() {
    let text = "ps_3_0\ndcl_texcoord0 v0\ndcl_2d s0\ntexldl r0, v0, s0\ntexldd r1, v0, s0, v0, v0\nadd oC0, r0, r1\n";
    let (w, _) = wgsl(text, SamplerRead::Shadow);
    assert_eq!(w.matches("textureSampleCompareLevel(").count(), 2, "{w}");
    let (w, _) = wgsl(text, RAW);
    assert_eq!(w.matches("textureSampleLevel(").count(), 2, "{w}");
}

#[test]
fn ps_1_x_texture_reads_follow_the_bound_depth_texture() {
    for text in ["ps_1_1\ntex t0\nmov r0, t0\n", "ps_1_4\ntexld r0, t0\n"] {
        let (w, _) = wgsl(text, SamplerRead::Shadow);
        assert!(w.contains("textureSampleCompare("), "{text}\n{w}");
        let (w, _) = wgsl(text, RAW);
        assert!(w.contains("textureSample("), "{text}\n{w}");
    }
}

#[test]
fn other_sampler_types_ignore_a_depth_read() {
    let text = "ps_2_0\ndcl t0\ndcl_cube s0\ntexld r0, t0, s0\nmov oC0, r0\n";
    let (w, read) = wgsl(text, SamplerRead::Shadow);
    assert_eq!(read, SamplerRead::Color);
    assert!(w.contains("texture_cube<f32>"), "{w}");
}
