//! Sampler states done in the shader (`PixelShaderOptions::sampler_fixups`): the LOD bias in
//! every sample form, `MIRRORONCE`'s absolute value, a border colour mixed in per axis, none of
//! them on cube maps or depth reads. Every module is re-parsed from its WGSL and validated;
//! the GPU results are in the backend's `device_sampler_fixups.rs`.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

mod common;

use d3d9_translator::lift::interface::{AxisFixup, Fetch4, SamplerFixup};
use d3d9_translator::lift::{PixelShaderOptions, SamplerRead};

/// The WGSL of `text` translated with sampler 0's `fixup` (and `read`), re-parsed and
/// validated.
fn wgsl(text: &str, fixup: SamplerFixup, read: SamplerRead) -> String {
    let options = PixelShaderOptions {
        sampler_fixups: vec![fixup],
        sampler_reads: vec![read],
        ..Default::default()
    };
    common::validated_pixel_shader(text, &options).0
}

fn fixup(address: [AxisFixup; 3], linear: bool) -> SamplerFixup {
    SamplerFixup {
        lod_bias: 1.5f32.to_bits(),
        address,
        border_color: 0xff00_ff00,
        linear,
        fetch4: None,
    }
}

const ALL: [AxisFixup; 3] = [AxisFixup::MirrorOnce, AxisFixup::Border, AxisFixup::Border];

/// Every sample form of ps_2_0/ps_3_0 and ps_1_x on 2D, volume and cube textures, with every
/// fixup, translates to a valid module.
#[test]
fn every_sample_form_takes_every_fixup() {
    let forms = [
        "ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\ntexldp r1, t0, s0\ntexldb r2, t0, s0\nadd r0, r0, r1\nadd r0, r0, r2\nmov oC0, r0\n",
        "ps_2_0\ndcl t0\ndcl_volume s0\ntexld r0, t0, s0\ntexldb r1, t0, s0\nadd r0, r0, r1\nmov oC0, r0\n",
        "ps_2_0\ndcl t0\ndcl_cube s0\ntexld r0, t0, s0\nmov oC0, r0\n",
        "ps_3_0\ndcl_texcoord v0\ndcl_2d s0\ntexldl r0, v0, s0\ntexldd r1, v0, s0, v0, v0\nadd oC0, r0, r1\n",
        "ps_3_0\ndcl_texcoord v0\ndcl_volume s0\ntexldl r0, v0, s0\ntexldd r1, v0, s0, v0, v0\nadd oC0, r0, r1\n",
        "ps_1_1\ntex t0\nmov r0, t0\n",
        "ps_1_4\ntexld r0, t0\n",
    ];
    for form in forms {
        for linear in [false, true] {
            wgsl(form, fixup(ALL, linear), SamplerRead::Color);
            wgsl(
                form,
                fixup(ALL, linear),
                SamplerRead::Narrow { channels: 1 },
            );
        }
    }
}

#[test]
fn the_bias_reaches_implicit_biased_and_explicit_levels_and_gradients() {
    let none = [AxisFixup::None; 3];
    let w = wgsl(
        "ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n",
        fixup(none, false),
        SamplerRead::Color,
    );
    assert!(w.contains("textureSampleBias(") && w.contains("1.5"), "{w}");
    let w = wgsl(
        "ps_3_0\ndcl_texcoord v0\ndcl_2d s0\ntexldl r0, v0, s0\nmov oC0, r0\n",
        fixup(none, false),
        SamplerRead::Color,
    );
    assert!(
        w.contains("textureSampleLevel(") && w.contains("1.5"),
        "{w}"
    );
    // 2^1.5 scales the gradients.
    let w = wgsl(
        "ps_3_0\ndcl_texcoord v0\ndcl_2d s0\ntexldd r0, v0, s0, v0, v0\nmov oC0, r0\n",
        fixup(none, false),
        SamplerRead::Color,
    );
    assert!(
        w.contains("textureSampleGrad(") && w.contains("2.828427"),
        "{w}"
    );
    // No fixup, no change.
    let w = wgsl(
        "ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n",
        SamplerFixup::default(),
        SamplerRead::Color,
    );
    assert!(
        w.contains("textureSample(") && !w.contains("abs(") && !w.contains("mix("),
        "{w}"
    );
}

#[test]
fn addressing_is_in_the_shader_except_on_cube_maps_and_depth_reads() {
    let w = wgsl(
        "ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n",
        fixup(ALL, true),
        SamplerRead::Color,
    );
    assert!(
        w.contains("abs(") && w.contains("mix(") && w.contains("textureDimensions("),
        "{w}"
    );
    let w = wgsl(
        "ps_2_0\ndcl t0\ndcl_cube s0\ntexld r0, t0, s0\nmov oC0, r0\n",
        fixup(ALL, true),
        SamplerRead::Color,
    );
    assert!(!w.contains("abs(") && !w.contains("mix("), "{w}");
    let w = wgsl(
        "ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n",
        fixup(ALL, true),
        SamplerRead::Shadow,
    );
    assert!(!w.contains("abs(") && !w.contains("mix("), "{w}");
}

/// AMD's Fetch4: every sample form of a 2D texture (colour, one channel of it, or raw depth)
/// becomes a gather half a texel on, its lanes z, x, y, w; volume textures and shadow maps
/// sample as before.
#[test]
fn fetch4_gathers_two_d_reads_only() {
    use d3d9_translator::lift::DepthChannels;
    let forms = [
        "ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\ntexldp r1, t0, s0\ntexldb r2, t0, s0\nadd r0, r0, r1\nadd r0, r0, r2\nmov oC0, r0\n",
        "ps_3_0\ndcl_texcoord v0\ndcl_2d s0\ntexldl r0, v0, s0\ntexldd r1, v0, s0, v0, v0\nadd oC0, r0, r1\n",
        "ps_1_4\ntexld r0, t0\n",
    ];
    let raw = SamplerRead::Depth {
        channels: DepthChannels::Red,
        linear: true,
    };
    for form in forms {
        for (channel, read) in [(0, SamplerRead::Color), (3, SamplerRead::Color), (0, raw)] {
            let fix = SamplerFixup {
                fetch4: Some(Fetch4 {
                    channel,
                    lanes: Fetch4::AMD,
                }),
                ..SamplerFixup::default()
            };
            let w = wgsl(form, fix, read);
            assert!(w.contains("textureGather(") && w.contains(".zxyw"), "{w}");
            assert!(!w.contains("textureSample"), "{w}");
            if read == SamplerRead::Color {
                assert!(w.contains(&format!("textureGather({channel}")), "{w}");
            }
        }
    }
    let fix = SamplerFixup {
        fetch4: Some(Fetch4 {
            channel: 0,
            lanes: Fetch4::TEXEL,
        }),
        ..SamplerFixup::default()
    };
    let volume = wgsl(
        "ps_2_0\ndcl t0\ndcl_volume s0\ntexld r0, t0, s0\nmov oC0, r0\n",
        fix,
        SamplerRead::Color,
    );
    assert!(!volume.contains("textureGather"), "{volume}");
    let shadow = wgsl(
        "ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n",
        fix,
        SamplerRead::Shadow,
    );
    assert!(!shadow.contains("textureGather"), "{shadow}");
}
