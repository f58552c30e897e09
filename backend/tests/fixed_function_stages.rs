//! The fixed-function pixel stage against the SDK's texture-stage formulas computed on the
//! CPU here ("Texture Blending", `D3DTEXTUREOP`): every colour and alpha operation on known
//! arguments, the argument modifiers, TEMP and RESULTARG, per-stage constants, 2D, cube and
//! volume textures on eight stages, bump mapping, the rule for a stage reading a texture
//! that is not there, and specular add and fog after the stages. GPU tests fail without an
//! adapter.

#![allow(clippy::panic)] // a failing test says why

#[allow(dead_code)]
mod device_common;
use d3d9_backend::device::{
    ClearFlags, Device, FogMode, Format, PrimitiveType, RenderState, StageArg, StageOp, SurfaceId,
    TextureId, TextureStage,
};
use device_common::{device, floats, ok, set_bump_textures, tokens};

/// `D3DTSS_*` numbers.
const COLOROP: u32 = 1;
const COLORARG1: u32 = 2;
const COLORARG2: u32 = 3;
const ALPHAOP: u32 = 4;
const ALPHAARG1: u32 = 5;
const ALPHAARG2: u32 = 6;
const BUMPENVMAT: [u32; 4] = [7, 8, 9, 10];
const BUMPENVLSCALE: u32 = 22;
const BUMPENVLOFFSET: u32 = 23;
const COLORARG0: u32 = 26;
const ALPHAARG0: u32 = 27;
const RESULTARG: u32 = 28;
const CONSTANT: u32 = 32;
/// `D3DTA_*`.
const DIFFUSE: u32 = 0;
const CURRENT: u32 = 1;
const TEXTURE: u32 = 2;
const TFACTOR: u32 = 3;
const SPECULAR: u32 = 4;
const TEMP: u32 = 5;
const CONSTANT_ARG: u32 = 6;
const COMPLEMENT: u32 = 0x10;
const ALPHAREPLICATE: u32 = 0x20;

/// The argument colours: TFACTOR (arg1), the vertex diffuse (arg2), the vertex specular
/// (arg0) and the texture.
const F: u32 = 0xc060_4020;
const D: u32 = 0x80a0_5030;
const S: u32 = 0x4030_7090;
const T: u32 = 0x60ff_8010;

type C = [f64; 4];

/// A D3DCOLOR as (r, g, b, a).
fn rgba(c: u32) -> C {
    [16, 8, 0, 24].map(|s| f64::from((c >> s) & 0xff) / 255.0)
}

fn argb(c: C) -> u32 {
    let b = |x: f64| (x.clamp(0.0, 1.0) * 255.0).round() as u32;
    b(c[3]) << 24 | b(c[0]) << 16 | b(c[1]) << 8 | b(c[2])
}

fn close(a: u32, b: u32, mask: u32, tolerance: i32) -> bool {
    (0..4).all(|i| {
        mask >> (8 * i) & 0xff == 0
            || (((a >> (8 * i)) & 0xff) as i32 - ((b >> (8 * i)) & 0xff) as i32).abs() <= tolerance
    })
}

/// The SDK's formula of `op` per channel; `diffuse`, `texture`, `factor`, `current` give the
/// alphas the BLEND*ALPHA operations read.
fn formula(op: StageOp, a0: C, a1: C, a2: C, alphas: [f64; 4]) -> C {
    let [diffuse, texture, factor, current] = alphas;
    let per = |f: &dyn Fn(f64, f64, f64) -> f64| -> C {
        std::array::from_fn(|k| f(a0[k], a1[k], a2[k]).clamp(0.0, 1.0))
    };
    match op {
        StageOp::SelectArg1 | StageOp::PreModulate => per(&|_, x, _| x),
        StageOp::SelectArg2 => per(&|_, _, y| y),
        StageOp::Modulate => per(&|_, x, y| x * y),
        StageOp::Modulate2x => per(&|_, x, y| 2.0 * x * y),
        StageOp::Modulate4x => per(&|_, x, y| 4.0 * x * y),
        StageOp::Add => per(&|_, x, y| x + y),
        StageOp::AddSigned => per(&|_, x, y| x + y - 0.5),
        StageOp::AddSigned2x => per(&|_, x, y| (x + y - 0.5) * 2.0),
        StageOp::Subtract => per(&|_, x, y| x - y),
        StageOp::AddSmooth => per(&|_, x, y| x + y - x * y),
        StageOp::BlendDiffuseAlpha => per(&|_, x, y| x * diffuse + y * (1.0 - diffuse)),
        StageOp::BlendTextureAlpha => per(&|_, x, y| x * texture + y * (1.0 - texture)),
        StageOp::BlendFactorAlpha => per(&|_, x, y| x * factor + y * (1.0 - factor)),
        StageOp::BlendTextureAlphaPm => per(&|_, x, y| x + y * (1.0 - texture)),
        StageOp::BlendCurrentAlpha => per(&|_, x, y| x * current + y * (1.0 - current)),
        StageOp::ModulateAlphaAddColor => per(&|_, x, y| x + a1[3] * y),
        StageOp::ModulateColorAddAlpha => per(&|_, x, y| x * y + a1[3]),
        StageOp::ModulateInvAlphaAddColor => per(&|_, x, y| x + (1.0 - a1[3]) * y),
        StageOp::ModulateInvColorAddAlpha => per(&|_, x, y| (1.0 - x) * y + a1[3]),
        StageOp::DotProduct3 => {
            let d: f64 = (0..3).map(|k| (a1[k] - 0.5) * (a2[k] - 0.5)).sum();
            [(4.0 * d).clamp(0.0, 1.0); 4]
        }
        StageOp::MultiplyAdd => per(&|z, x, y| z + x * y),
        StageOp::Lerp => per(&|z, x, y| z * x + (1.0 - z) * y),
        StageOp::Disable | StageOp::BumpEnvMap | StageOp::BumpEnvMapLuminance => a1,
    }
}

/// A device with a 16x16 A8R8G8B8 render target, unlit and unfogged, `D3DRS_TEXTUREFACTOR`
/// [`F`], a 1x1 texture of [`T`] on stage 0.
fn setup() -> (Device, SurfaceId, TextureId) {
    let mut dev = device();
    let rt = ok(dev.create_render_target(16, 16, Format::A8R8G8B8));
    ok(dev.set_render_target(0, Some(rt)));
    ok(dev.set_render_state(RenderState::Lighting(false)));
    ok(dev.set_render_state(RenderState::ZEnable(false)));
    ok(dev.set_render_state(RenderState::TextureFactor(F)));
    let texture = ok(dev.create_texture(1, 1, 1, Format::A8R8G8B8));
    ok(dev.update_texture(texture, 0, &T.to_le_bytes()));
    ok(dev.set_texture(0, Some(texture)));
    (dev, rt, texture)
}

/// Draws a pre-transformed quad over the target (diffuse [`D`], specular [`S`], texture
/// coordinate `tc` of `tc.len()` components, depth `z`) and returns the pixel at (8, 8).
fn draw(dev: &mut Device, rt: SurfaceId, tc: &[f32], z: f32) -> u32 {
    // XYZRHW | DIFFUSE | SPECULAR | TEX1, with D3DFVF_TEXCOORDSIZEn(0).
    let size_bits = match tc.len() {
        1 => 3u32 << 16,
        3 => 1 << 16,
        4 => 2 << 16,
        _ => 0,
    };
    ok(dev.set_fvf(0x004 | 0x040 | 0x080 | 0x100 | size_bits));
    let mut data = Vec::new();
    for (x, y) in [(0.0, 0.0), (16.0, 0.0), (0.0, 16.0), (16.0, 16.0)] {
        data.extend(floats(&[x, y, z, 1.0]));
        data.extend(D.to_le_bytes());
        data.extend(S.to_le_bytes());
        data.extend(floats(tc));
    }
    let stride = 24 + 4 * tc.len() as u32;
    ok(dev.clear(&[], ClearFlags::TARGET, 0x1122_3344, 1.0, 0));
    ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &data, stride));
    let s = ok(dev.get_render_target_data(rt));
    s.color(8, 8)
        .unwrap_or_else(|| panic!("no colour at (8, 8)"))
}

fn tss(dev: &mut Device, stage: u32, ty: u32, value: u32) {
    ok(dev.set_texture_stage_state_raw(stage, ty, value));
}

const OPS: [StageOp; 23] = [
    StageOp::SelectArg1,
    StageOp::SelectArg2,
    StageOp::Modulate,
    StageOp::Modulate2x,
    StageOp::Modulate4x,
    StageOp::Add,
    StageOp::AddSigned,
    StageOp::AddSigned2x,
    StageOp::Subtract,
    StageOp::AddSmooth,
    StageOp::BlendDiffuseAlpha,
    StageOp::BlendTextureAlpha,
    StageOp::BlendFactorAlpha,
    StageOp::BlendTextureAlphaPm,
    StageOp::BlendCurrentAlpha,
    StageOp::PreModulate,
    StageOp::ModulateAlphaAddColor,
    StageOp::ModulateColorAddAlpha,
    StageOp::ModulateInvAlphaAddColor,
    StageOp::ModulateInvColorAddAlpha,
    StageOp::DotProduct3,
    StageOp::MultiplyAdd,
    StageOp::Lerp,
];

/// Every colour operation of stage 0 on arg1 = TFACTOR, arg2 = DIFFUSE, arg0 = SPECULAR
/// (the alpha: SELECTARG1(DIFFUSE), the diffuse alpha; DOTPRODUCT3 replicates into it).
#[test]
fn gpu_every_colour_operation_follows_the_sdk() {
    let (mut dev, rt, _) = setup();
    tss(&mut dev, 0, COLORARG1, TFACTOR);
    tss(&mut dev, 0, COLORARG2, DIFFUSE);
    tss(&mut dev, 0, COLORARG0, SPECULAR);
    tss(&mut dev, 0, ALPHAOP, StageOp::SelectArg1.to_d3d());
    tss(&mut dev, 0, ALPHAARG1, DIFFUSE);
    let alphas = [rgba(D)[3], rgba(T)[3], rgba(F)[3], rgba(D)[3]];
    for op in OPS {
        tss(&mut dev, 0, COLOROP, op.to_d3d());
        let mut expected = formula(op, rgba(S), rgba(F), rgba(D), alphas);
        if op != StageOp::DotProduct3 {
            expected[3] = rgba(D)[3];
        }
        let got = draw(&mut dev, rt, &[0.5, 0.5], 0.5);
        let expected = argb(expected);
        assert!(
            close(got, expected, !0, 2),
            "{op:?}: {got:#010x}, the SDK's {expected:#010x}"
        );
    }
}

/// Every alpha operation that D3D9 defines for alpha on the same arguments' alphas; the
/// colour is SELECTARG1(DIFFUSE).
#[test]
fn gpu_every_alpha_operation_follows_the_sdk() {
    let (mut dev, rt, _) = setup();
    tss(&mut dev, 0, COLOROP, StageOp::SelectArg1.to_d3d());
    tss(&mut dev, 0, COLORARG1, DIFFUSE);
    tss(&mut dev, 0, ALPHAARG1, TFACTOR);
    tss(&mut dev, 0, ALPHAARG2, DIFFUSE);
    tss(&mut dev, 0, ALPHAARG0, SPECULAR);
    let alphas = [rgba(D)[3], rgba(T)[3], rgba(F)[3], rgba(D)[3]];
    for op in OPS.into_iter().filter(|op| {
        !matches!(
            op,
            StageOp::ModulateAlphaAddColor
                | StageOp::ModulateColorAddAlpha
                | StageOp::ModulateInvAlphaAddColor
                | StageOp::ModulateInvColorAddAlpha
                | StageOp::DotProduct3
                | StageOp::PreModulate
        )
    }) {
        tss(&mut dev, 0, ALPHAOP, op.to_d3d());
        let a = formula(op, rgba(S), rgba(F), rgba(D), alphas)[3];
        let got = draw(&mut dev, rt, &[0.5, 0.5], 0.5);
        let expected = argb([0.0, 0.0, 0.0, a]);
        assert!(
            close(got, expected, 0xff00_0000, 2),
            "alpha {op:?}: {got:#010x}, the SDK's alpha {expected:#010x}"
        );
        let d = argb(rgba(D));
        assert!(
            close(got, d, 0x00ff_ffff, 1),
            "alpha {op:?} kept the colour: {got:#010x}"
        );
    }
}

/// COMPLEMENT (1 − x), ALPHAREPLICATE (x.a in every channel), both (complement first), the
/// per-stage constant, and TEMP: stage 0 writes TEMP, stage 1 replaces CURRENT, stage 2
/// modulates the two.
#[test]
fn gpu_argument_modifiers_temp_and_constants() {
    let (mut dev, rt, _) = setup();
    tss(&mut dev, 0, COLOROP, StageOp::SelectArg1.to_d3d());
    tss(&mut dev, 0, ALPHAOP, StageOp::SelectArg1.to_d3d());
    let f = rgba(F);
    let cases: [(u32, C); 4] = [
        (TFACTOR | COMPLEMENT, f.map(|x| 1.0 - x)),
        (TFACTOR | ALPHAREPLICATE, [f[3]; 4]),
        (TFACTOR | COMPLEMENT | ALPHAREPLICATE, [1.0 - f[3]; 4]),
        (CONSTANT_ARG, rgba(0x9988_7766)),
    ];
    tss(&mut dev, 0, CONSTANT, 0x9988_7766);
    for (arg, expected) in cases {
        tss(&mut dev, 0, COLORARG1, arg);
        tss(&mut dev, 0, ALPHAARG1, arg);
        let got = draw(&mut dev, rt, &[0.5, 0.5], 0.5);
        assert!(
            close(got, argb(expected), !0, 1),
            "argument {arg:#x}: {got:#010x}, expected {:#010x}",
            argb(expected)
        );
    }
    // TEMP.
    tss(&mut dev, 0, COLORARG1, TFACTOR);
    tss(&mut dev, 0, ALPHAARG1, TFACTOR);
    tss(&mut dev, 0, RESULTARG, TEMP);
    tss(&mut dev, 1, COLOROP, StageOp::SelectArg1.to_d3d());
    tss(&mut dev, 1, COLORARG1, SPECULAR);
    tss(&mut dev, 1, ALPHAOP, StageOp::SelectArg1.to_d3d());
    tss(&mut dev, 1, ALPHAARG1, SPECULAR);
    tss(&mut dev, 2, COLOROP, StageOp::Modulate.to_d3d());
    tss(&mut dev, 2, COLORARG1, TEMP);
    tss(&mut dev, 2, COLORARG2, CURRENT);
    tss(&mut dev, 2, ALPHAOP, StageOp::Add.to_d3d());
    tss(&mut dev, 2, ALPHAARG1, TEMP);
    tss(&mut dev, 2, ALPHAARG2, CURRENT);
    let (fc, sc) = (rgba(F), rgba(S));
    let expected = argb([fc[0] * sc[0], fc[1] * sc[1], fc[2] * sc[2], fc[3] + sc[3]]);
    let got = draw(&mut dev, rt, &[0.5, 0.5], 0.5);
    assert!(
        close(got, expected, !0, 2),
        "TEMP: {got:#010x}, expected {expected:#010x}"
    );
}

/// Eight stages, each adding its own texture (stage n's sampler n): 2D, cube and volume
/// textures read at the stage's coordinate (a cube map at +x, a volume at its one slice).
#[test]
fn gpu_eight_stages_sample_2d_cube_and_volume_textures() {
    let (mut dev, rt, _) = setup();
    let mut expected = [0.0f64; 4];
    for n in 0..8u32 {
        let texel = 0x0402_0100u32.wrapping_mul(n + 1) & 0x0f0f_0f0f;
        let texture = match n % 3 {
            0 => {
                let t = ok(dev.create_texture(1, 1, 1, Format::A8R8G8B8));
                ok(dev.update_texture(t, 0, &texel.to_le_bytes()));
                t
            }
            1 => {
                let t = ok(dev.create_cube_texture(1, 1, Format::A8R8G8B8));
                let faces: Vec<u8> = (0..6u32)
                    .flat_map(|face| if face == 0 { texel } else { 0xffff_ffff }.to_le_bytes())
                    .collect();
                ok(dev.update_texture(t, 0, &faces));
                t
            }
            _ => {
                let t = ok(dev.create_volume_texture(1, 1, 1, 1, Format::A8R8G8B8));
                ok(dev.update_texture(t, 0, &texel.to_le_bytes()));
                t
            }
        };
        ok(dev.set_texture(n, Some(texture)));
        let arg2 = if n == 0 { DIFFUSE } else { CURRENT };
        ok(dev.set_texture_stage(
            n as usize,
            TextureStage {
                op: StageOp::Add,
                arg1: StageArg::Texture,
                arg2: StageArg::from_d3d(arg2).unwrap_or(StageArg::Current),
            },
        ));
        tss(&mut dev, n, ALPHAOP, StageOp::SelectArg1.to_d3d());
        tss(&mut dev, n, ALPHAARG1, DIFFUSE);
        for (k, e) in expected.iter_mut().enumerate() {
            *e += rgba(texel)[k];
        }
    }
    let d = rgba(D);
    let sum = [
        d[0] + expected[0],
        d[1] + expected[1],
        d[2] + expected[2],
        d[3],
    ];
    // Every stage reads texture coordinate set 0 (D3DTSS_TEXCOORDINDEX 0): (1, 0.5, 0.5)
    // is the cube's +x face and inside the 2D texture and the volume.
    for n in 0..8 {
        tss(&mut dev, n, 11, 0);
    }
    let got = draw(&mut dev, rt, &[1.0, 0.5, 0.5], 0.5);
    assert!(
        close(got, argb(sum), !0, 2),
        "eight stages: {got:#010x}, expected {:#010x}",
        argb(sum)
    );
}

/// A stage whose colour operation reads TEXTURE with no texture set is off, with the later
/// stages; an alpha operation reading it takes CURRENT's alpha instead.
#[test]
fn gpu_a_missing_texture_turns_the_stage_off() {
    let (mut dev, rt, _) = setup();
    ok(dev.set_texture(0, None));
    tss(&mut dev, 0, COLOROP, StageOp::Add.to_d3d());
    tss(&mut dev, 0, COLORARG1, TEXTURE);
    tss(&mut dev, 0, COLORARG2, TFACTOR);
    tss(&mut dev, 1, COLOROP, StageOp::SelectArg1.to_d3d());
    tss(&mut dev, 1, COLORARG1, SPECULAR);
    let got = draw(&mut dev, rt, &[0.5, 0.5], 0.5);
    assert!(
        close(got, D, !0, 1),
        "stages off: {got:#010x}, the diffuse {D:#010x}"
    );
    tss(&mut dev, 0, COLOROP, StageOp::SelectArg1.to_d3d());
    tss(&mut dev, 0, COLORARG1, TFACTOR);
    tss(&mut dev, 0, ALPHAOP, StageOp::SelectArg1.to_d3d());
    tss(&mut dev, 0, ALPHAARG1, TEXTURE);
    tss(&mut dev, 1, COLOROP, StageOp::Disable.to_d3d());
    let got = draw(&mut dev, rt, &[0.5, 0.5], 0.5);
    let expected = F & 0x00ff_ffff | D & 0xff00_0000;
    assert!(
        close(got, expected, !0, 1),
        "alpha from CURRENT: {got:#010x}, expected {expected:#010x}"
    );
}

/// BUMPENVMAP: stage 0's (du, dv) texel moves stage 1's coordinate by
/// (M00·du + M10·dv, M01·du + M11·dv); BUMPENVMAPLUMINANCE also scales stage 1's texel by
/// clamp(l·LSCALE + LOFFSET, 0, 1).
#[test]
fn gpu_bump_mapping_displaces_the_next_stage() {
    let (mut dev, rt, _) = setup();
    // du ≈ 0.504, dv = 0, l = 0x80; stage 1: red, green, blue, white.
    set_bump_textures(&mut dev);
    tss(&mut dev, 0, COLOROP, StageOp::BumpEnvMap.to_d3d());
    for (ty, v) in BUMPENVMAT.iter().zip([1.0f32, 0.0, 0.0, 1.0]) {
        tss(&mut dev, 0, *ty, v.to_bits());
    }
    tss(&mut dev, 0, BUMPENVLSCALE, 0.5f32.to_bits());
    tss(&mut dev, 0, BUMPENVLOFFSET, 0.25f32.to_bits());
    tss(&mut dev, 1, COLOROP, StageOp::SelectArg1.to_d3d());
    tss(&mut dev, 1, COLORARG1, TEXTURE);
    tss(&mut dev, 1, 11, 0);
    // u = 0.125 (red) + 0.504 → 0.63 (blue).
    let got = draw(&mut dev, rt, &[0.125, 0.5], 0.5);
    assert!(
        close(got, 0x0000_00ff, 0x00ff_ffff, 1),
        "BUMPENVMAP: {got:#010x}"
    );
    tss(&mut dev, 0, COLOROP, StageOp::BumpEnvMapLuminance.to_d3d());
    // l = 128/255: 0.502 · 0.5 + 0.25 = 0.501.
    let scale = (128.0 / 255.0) * 0.5 + 0.25;
    let expected = argb([0.0, 0.0, scale, 0.0]);
    let got = draw(&mut dev, rt, &[0.125, 0.5], 0.5);
    assert!(
        close(got, expected, 0x00ff_ffff, 2),
        "BUMPENVMAPLUMINANCE: {got:#010x}, expected {expected:#010x}"
    );
}

/// After the stages: the specular colour added with `D3DRS_SPECULARENABLE`, then table fog
/// (LINEAR, on the pixel's z) mixed with `D3DRS_FOGCOLOR`.
#[test]
fn gpu_specular_add_and_fog_follow_the_stages() {
    let (mut dev, rt, _) = setup();
    tss(&mut dev, 0, COLOROP, StageOp::SelectArg1.to_d3d());
    tss(&mut dev, 0, COLORARG1, DIFFUSE);
    ok(dev.set_render_state_raw(29, 1));
    // The alpha: stage 0's default SELECTARG1(TEXTURE).
    let (d, s, t) = (rgba(D), rgba(S), rgba(T));
    let added = [d[0] + s[0], d[1] + s[1], d[2] + s[2], t[3]];
    let got = draw(&mut dev, rt, &[0.5, 0.5], 0.5);
    assert!(close(got, argb(added), !0, 1), "specular add: {got:#010x}");
    ok(dev.set_render_state(RenderState::FogEnable(true)));
    ok(dev.set_render_state(RenderState::FogTableMode(FogMode::Linear)));
    ok(dev.set_render_state(RenderState::FogColor(0xff20_4060)));
    ok(dev.set_render_state(RenderState::FogStart(0.2)));
    ok(dev.set_render_state(RenderState::FogEnd(0.8)));
    let z = 0.35f32;
    let f = (0.8 - f64::from(z)) / 0.6;
    let fog = rgba(0xff20_4060);
    let clamped = added.map(|x| x.clamp(0.0, 1.0));
    let expected: C = std::array::from_fn(|k| {
        if k < 3 {
            f * clamped[k] + (1.0 - f) * fog[k]
        } else {
            t[3]
        }
    });
    let got = draw(&mut dev, rt, &[0.5, 0.5], z);
    assert!(
        close(got, argb(expected), !0, 2),
        "fog: {got:#010x}, expected {:#010x}",
        argb(expected)
    );
}

/// The alpha test after the stages (`D3DRS_ALPHATESTENABLE`, `ALPHAFUNC`, `ALPHAREF`): the
/// diffuse alpha 0x80 passes LESS 0x90 and ALWAYS, and fails GREATER 0x90 and NEVER (the
/// clear colour stays).
#[test]
fn gpu_the_alpha_test_compares_the_stages_alpha() {
    const ALPHATESTENABLE: u32 = 15;
    const ALPHAREF: u32 = 24;
    const ALPHAFUNC: u32 = 25;
    let (mut dev, rt, _) = setup();
    tss(&mut dev, 0, COLOROP, StageOp::SelectArg2.to_d3d());
    tss(&mut dev, 0, ALPHAOP, StageOp::SelectArg2.to_d3d());
    ok(dev.set_render_state_raw(ALPHATESTENABLE, 1));
    ok(dev.set_render_state_raw(ALPHAREF, 0x90));
    // D3DCMP_NEVER 1, LESS 2, GREATER 5, ALWAYS 8.
    for (func, passes) in [(2, true), (8, true), (5, false), (1, false)] {
        ok(dev.set_render_state_raw(ALPHAFUNC, func));
        let want = if passes { D } else { 0x1122_3344 };
        assert_eq!(draw(&mut dev, rt, &[0.0, 0.0], 0.5), want, "D3DCMP {func}");
    }
}

/// Pre-transformed vertices are not blended: `D3DRS_VERTEXBLEND` set, the XYZRHW quad still
/// covers the target where it says.
#[test]
fn gpu_pretransformed_vertices_ignore_vertex_blending() {
    let (mut dev, rt, _) = setup();
    tss(&mut dev, 0, COLOROP, StageOp::SelectArg2.to_d3d());
    tss(&mut dev, 0, ALPHAOP, StageOp::SelectArg2.to_d3d());
    ok(dev.set_render_state_raw(151, 2)); // D3DRS_VERTEXBLEND: D3DVBF_2WEIGHTS
    assert_eq!(draw(&mut dev, rt, &[0.0, 0.0], 0.5), D);
}

/// PREMODULATE: the next stage's CURRENT is this stage's result times that stage's texture.
#[test]
fn gpu_premodulate_multiplies_the_next_stages_current_by_its_texture() {
    const TEXCOORDINDEX: u32 = 11;
    let (mut dev, rt, _) = setup();
    let t1 = 0xff40_c080u32;
    let texture = ok(dev.create_texture(1, 1, 1, Format::A8R8G8B8));
    ok(dev.update_texture(texture, 0, &t1.to_le_bytes()));
    ok(dev.set_texture(1, Some(texture)));
    tss(&mut dev, 0, COLOROP, StageOp::PreModulate.to_d3d());
    tss(&mut dev, 0, COLORARG1, TFACTOR);
    tss(&mut dev, 1, COLOROP, StageOp::SelectArg1.to_d3d());
    tss(&mut dev, 1, COLORARG1, CURRENT);
    tss(&mut dev, 1, TEXCOORDINDEX, 0);
    let got = draw(&mut dev, rt, &[0.5, 0.5], 0.5);
    let (f, t) = (rgba(F), rgba(t1));
    let expected = argb(std::array::from_fn(|k| f[k] * t[k]));
    assert!(
        close(got, expected, 0x00ff_ffff, 1),
        "TFACTOR premodulated: {got:#010x}, expected {expected:#010x}"
    );
}

/// Vertex fog behind a vertex shader that writes COLOR1 and no FOG takes the specular alpha
/// as the fog factor (Windows, in Wine's test_fog): 0.25 of the green diffuse, 0.75 of the
/// red fog colour.
#[test]
fn gpu_vertex_fog_without_ofog_takes_the_specular_alpha() {
    const FOGENABLE: u32 = 28;
    const FOGCOLOR: u32 = 34;
    let (mut dev, rt, _) = setup();
    ok(dev.set_texture(0, None));
    let vs = ok(dev.create_vertex_shader(&tokens(
        "vs_2_0\ndcl_position v0\nmov oPos, v0\nmov oD0, c0\nmov oD1, c1\n",
    )));
    ok(dev.set_vertex_shader(Some(vs)));
    ok(dev.set_vertex_shader_constant_f(0, &[[0.0, 1.0, 0.0, 1.0], [0.0, 0.0, 0.0, 0.25]]));
    ok(dev.set_render_state_raw(FOGENABLE, 1));
    ok(dev.set_render_state_raw(FOGCOLOR, 0xffff_0000));
    ok(dev.set_fvf(0x002));
    let quad = floats(&[
        -1.0, -1.0, 0.5, -1.0, 1.0, 0.5, 1.0, -1.0, 0.5, 1.0, 1.0, 0.5,
    ]);
    ok(dev.clear(&[], ClearFlags::TARGET, 0, 1.0, 0));
    ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &quad, 12));
    let got = ok(dev.get_render_target_data(rt))
        .color(8, 8)
        .unwrap_or_else(|| panic!("no colour at (8, 8)"));
    assert!(
        close(got, 0xffbf_4000, 0x00ff_ffff, 1),
        "fogged by the specular alpha: {got:#010x}"
    );
}

/// A texture with fewer channels than four reads the ones it lacks as 1 on every texture
/// type: an R32F cube map's +x face of 0.5 reads (0.5, 1, 1).
#[test]
fn gpu_a_narrow_cube_map_reads_its_missing_channels_as_1() {
    let (mut dev, rt, _) = setup();
    let cube = ok(dev.create_cube_texture(1, 1, Format::R32F));
    let faces: Vec<u8> = (0..6)
        .flat_map(|face| if face == 0 { 0.5f32 } else { 0.0 }.to_le_bytes())
        .collect();
    ok(dev.update_texture(cube, 0, &faces));
    ok(dev.set_texture(0, Some(cube)));
    tss(&mut dev, 0, COLOROP, StageOp::SelectArg1.to_d3d());
    tss(&mut dev, 0, COLORARG1, TEXTURE);
    let got = draw(&mut dev, rt, &[1.0, 0.5, 0.5], 0.5);
    assert!(
        close(got, 0x0080_ffff, 0x00ff_ffff, 1),
        "R32F cube: {got:#010x}"
    );
}
