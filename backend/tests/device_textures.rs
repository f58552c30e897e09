//! Textures in D3D9's pools: dirty regions (what MANAGED textures upload and what
//! `UpdateTexture` copies of a SYSTEMMEM source), `UpdateTexture`'s level matching and format
//! conversion, SYSTEMMEM textures drawn with, and a volume on a `dcl_2d` sampler. GPU tests
//! fail without an adapter.

#![allow(clippy::panic)] // a failing test says why

#[allow(dead_code)]
mod device_common;
use d3d9_backend::device::{CullMode, SamplerState, TextureFilter, TextureKind};
use d3d9_backend::device::{
    Device, Format, LockFlags, Pool, PrimitiveType, RenderState, TexelBox, TextureDesc, TextureId,
    Usage,
};
use device_common::{device, floats, ok, tokens};

const RED: u32 = 0x00ff_0000;
const GREEN: u32 = 0x0000_ff00;
const BLUE: u32 = 0x0000_00ff;

/// A one-level texture of `kind`, `[width, height, depth]`.
fn desc(
    kind: TextureKind,
    [width, height, depth]: [u32; 3],
    format: Format,
    usage: Usage,
    pool: Pool,
) -> TextureDesc {
    TextureDesc {
        kind,
        width,
        height,
        depth,
        levels: 1,
        format,
        usage,
        pool,
    }
}

fn texture(dev: &mut Device, format: Format, pool: Pool, levels: u32) -> TextureId {
    ok(dev.create_texture_with(&TextureDesc {
        levels,
        ..desc(TextureKind::TwoD, [8, 8, 1], format, Usage::default(), pool)
    }))
}

/// Locks `region` of level 0 of an 8 x 8 A8R8G8B8/X8R8G8B8 texture with `flags` and fills
/// it with `colour`.
fn fill(dev: &mut Device, id: TextureId, region: Option<TexelBox>, colour: u32, flags: LockFlags) {
    fill_level(dev, id, (0, 0, 8), region, colour, flags);
}

/// [`fill`] of `face` (0 where not a cube) and `level`, `edge` texels square.
fn fill_level(
    dev: &mut Device,
    id: TextureId,
    (face, level, edge): (u32, u32, u32),
    region: Option<TexelBox>,
    colour: u32,
    flags: LockFlags,
) {
    let b = region.unwrap_or(TexelBox::whole(edge, edge, 1));
    let locked = ok(dev.lock_texture(id, face, level, region, flags));
    for y in 0..(b.bottom - b.top) as usize {
        for x in 0..(b.right - b.left) as usize {
            let at = y * locked.row_pitch as usize + x * 4;
            // SAFETY: the lock holds the box's rows of `row_pitch` bytes until the unlock.
            #[allow(unsafe_code)]
            unsafe {
                locked
                    .bits
                    .add(at)
                    .cast::<[u8; 4]>()
                    .write_unaligned(colour.to_le_bytes());
            }
        }
    }
    ok(dev.unlock_texture(id, face, level));
}

/// Draws `id` over the whole target and reads pixels (x, y) of the 640 x 480 target's
/// left and right halves' centres (texels 2 and 6 of each row).
fn draw(dev: &mut Device, id: TextureId) -> (u32, u32) {
    let ps = ok(dev.create_pixel_shader(&tokens(
        "ps_2_0\ndcl t0.xy\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n",
    )));
    // D3DFVF_XYZ | D3DFVF_TEX1
    ok(dev.set_fvf(0x002 | 0x100));
    ok(dev.set_pixel_shader(Some(ps)));
    ok(dev.set_texture(0, Some(id)));
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    let quad = floats(&[
        -1.0, -1.0, 0.5, 0.0, 1.0, //
        -1.0, 1.0, 0.5, 0.0, 0.0, //
        1.0, -1.0, 0.5, 1.0, 1.0, //
        1.0, 1.0, 0.5, 1.0, 0.0,
    ]);
    ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &quad, 20));
    let px = |dev: &mut Device, x| ok(dev.pixel(x, 240)) & 0xff_ffff;
    (px(dev, 200), px(dev, 520))
}

fn left_half() -> Option<TexelBox> {
    Some(TexelBox {
        right: 4,
        ..TexelBox::whole(8, 8, 1)
    })
}

#[test]
fn gpu_update_texture_copies_the_sources_dirty_region() {
    let mut dev = device();
    let src = texture(&mut dev, Format::X8R8G8B8, Pool::SystemMem, 1);
    let dst = texture(&mut dev, Format::X8R8G8B8, Pool::Default, 1);
    fill(&mut dev, src, None, RED, LockFlags(0));
    ok(dev.update_texture_from(src, dst));
    assert_eq!(draw(&mut dev, dst), (RED, RED));
    // A lock without a dirty update leaves the source clean: nothing is copied.
    fill(&mut dev, src, None, GREEN, LockFlags::NO_DIRTY_UPDATE);
    ok(dev.update_texture_from(src, dst));
    assert_eq!(draw(&mut dev, dst), (RED, RED));
    // Read-only locks record nothing either.
    fill(&mut dev, src, None, GREEN, LockFlags::READ_ONLY);
    ok(dev.update_texture_from(src, dst));
    assert_eq!(draw(&mut dev, dst), (RED, RED));
    // AddDirtyRect of the left half copies that half.
    ok(dev.add_dirty_region(src, left_half()));
    ok(dev.update_texture_from(src, dst));
    assert_eq!(draw(&mut dev, dst), (GREEN, RED));
    // A partial lock dirties what it locked.
    fill(&mut dev, src, left_half(), BLUE, LockFlags(0));
    ok(dev.update_texture_from(src, dst));
    assert_eq!(draw(&mut dev, dst), (BLUE, RED));
    // And the whole texture again.
    ok(dev.add_dirty_region(src, None));
    ok(dev.update_texture_from(src, dst));
    assert_eq!(draw(&mut dev, dst), (BLUE, GREEN));
    // A dirty rectangle outside level 0 is refused; a lock of one locks the whole level.
    let outside = Some(TexelBox {
        right: 9,
        ..TexelBox::whole(8, 8, 1)
    });
    assert!(dev.add_dirty_region(src, outside).is_err());
    ok(dev.lock_texture(src, 0, 0, outside, LockFlags(0)));
    ok(dev.unlock_texture(src, 0, 0));
}

#[test]
fn gpu_managed_textures_upload_their_dirty_region() {
    let mut dev = device();
    let managed = texture(&mut dev, Format::X8R8G8B8, Pool::Managed, 1);
    // Textures start dirty: a read-only lock's writes are uploaded before the first draw.
    fill(&mut dev, managed, None, RED, LockFlags::READ_ONLY);
    assert_eq!(draw(&mut dev, managed), (RED, RED));
    fill(&mut dev, managed, None, GREEN, LockFlags::NO_DIRTY_UPDATE);
    assert_eq!(draw(&mut dev, managed), (RED, RED));
    ok(dev.add_dirty_region(managed, left_half()));
    assert_eq!(draw(&mut dev, managed), (GREEN, RED));
    fill(&mut dev, managed, None, BLUE, LockFlags::NO_DIRTY_UPDATE);
    dev.evict_managed_resources();
    assert_eq!(draw(&mut dev, managed), (BLUE, BLUE));
}

#[test]
fn gpu_system_memory_textures_draw_their_memory() {
    let mut dev = device();
    let sysmem = texture(&mut dev, Format::X8R8G8B8, Pool::SystemMem, 1);
    fill(&mut dev, sysmem, None, RED, LockFlags::NO_DIRTY_UPDATE);
    assert_eq!(draw(&mut dev, sysmem), (RED, RED));
    fill(&mut dev, sysmem, left_half(), GREEN, LockFlags::READ_ONLY);
    assert_eq!(draw(&mut dev, sysmem), (GREEN, RED));
}

#[test]
fn gpu_update_texture_converts_formats_and_matches_levels() {
    let mut dev = device();
    // A one-level source into a four-level destination fills its first level.
    let src = texture(&mut dev, Format::A8R8G8B8, Pool::SystemMem, 1);
    let dst = texture(&mut dev, Format::R5G6B5, Pool::Default, 4);
    fill(&mut dev, src, None, 0xff00_ff00, LockFlags(0));
    ok(dev.update_texture_from(src, dst));
    assert_eq!(draw(&mut dev, dst), (GREEN, GREEN));
    // A dirty part is converted too; a clean source copies nothing.
    fill(&mut dev, src, left_half(), 0xff00_00ff, LockFlags(0));
    ok(dev.update_texture_from(src, dst));
    assert_eq!(draw(&mut dev, dst), (BLUE, GREEN));
    fill(&mut dev, src, None, 0xffff_0000, LockFlags::NO_DIRTY_UPDATE);
    ok(dev.update_texture_from(src, dst));
    assert_eq!(draw(&mut dev, dst), (BLUE, GREEN));
    // Depth and block-compressed formats do not convert.
    let dxt = texture(&mut dev, Format::Dxt1, Pool::Default, 1);
    assert!(dev.update_texture_from(src, dxt).is_err());
    // Nor does a 2D texture into a cube map of its size and format.
    let cube = ok(dev.create_texture_with(&desc(
        TextureKind::Cube,
        [8, 8, 1],
        Format::A8R8G8B8,
        Usage::default(),
        Pool::Default,
    )));
    assert!(dev
        .update_texture_from(src, cube)
        .is_err_and(|e| e.is_invalid_call()));
    // The source is in SYSTEMMEM and the destination in DEFAULT, never the other pools.
    let default = texture(&mut dev, Format::A8R8G8B8, Pool::Default, 1);
    let sysmem = texture(&mut dev, Format::A8R8G8B8, Pool::SystemMem, 1);
    for (from, to) in [(default, dst), (src, sysmem)] {
        assert!(dev
            .update_texture_from(from, to)
            .is_err_and(|e| e.is_invalid_call()));
    }
}

/// `UpdateTexture` pairs the destination's first level with the source level of its size
/// and copies what follows (an 8 x 8 source of three levels into a 4 x 4 destination of
/// three: its last level has no source, and the copy stops there); where no source level has the
/// size, the levels pair from the first and the texels both cover are copied.
#[test]
fn gpu_update_texture_pairs_levels_by_size() {
    let mut dev = device();
    let sized = |dev: &mut Device, [w, h]: [u32; 2], levels, (format, pool)| {
        ok(dev.create_texture_with(&TextureDesc {
            levels,
            ..desc(TextureKind::TwoD, [w, h, 1], format, Usage::default(), pool)
        }))
    };
    let xrgb = Format::X8R8G8B8;
    let src = sized(&mut dev, [8, 8], 3, (xrgb, Pool::SystemMem));
    let dst = sized(&mut dev, [4, 4], 3, (xrgb, Pool::Default));
    fill_level(&mut dev, src, (0, 1, 4), None, GREEN, LockFlags(0));
    ok(dev.update_texture_from(src, dst));
    assert_eq!(draw(&mut dev, dst), (GREEN, GREEN));
    // Converted the same way (an A8R8G8B8 destination).
    let argb = sized(&mut dev, [4, 4], 3, (Format::A8R8G8B8, Pool::Default));
    ok(dev.add_dirty_region(src, None));
    ok(dev.update_texture_from(src, argb));
    assert_eq!(draw(&mut dev, argb), (GREEN, GREEN));
    // Only the dirty part of the paired level: a lock of its left half (after a write
    // that dirtied nothing).
    fill_level(
        &mut dev,
        src,
        (0, 1, 4),
        None,
        RED,
        LockFlags::NO_DIRTY_UPDATE,
    );
    let left = Some(TexelBox::rect(0, 0, 2, 4));
    fill_level(&mut dev, src, (0, 1, 4), left, BLUE, LockFlags(0));
    ok(dev.update_texture_from(src, dst));
    assert_eq!(draw(&mut dev, dst), (BLUE, GREEN));
    // No level of 3 x 3 texels: the first 3 x 3 texels of the 8 x 8 level (then the dirty
    // columns only).
    let small = sized(&mut dev, [3, 3], 1, (xrgb, Pool::Default));
    fill(&mut dev, src, None, RED, LockFlags(0));
    ok(dev.update_texture_from(src, small));
    assert_eq!(draw(&mut dev, small), (RED, RED));
    let right = Some(TexelBox::rect(1, 0, 8, 8));
    fill(&mut dev, src, right, GREEN, LockFlags(0));
    ok(dev.update_texture_from(src, small));
    assert_eq!(draw(&mut dev, small), (RED, GREEN));
}

#[test]
fn gpu_autogen_textures_show_one_level_and_make_the_others() {
    use d3d9_backend::device::{Filter, MipFilter, SamplerState};
    let mut dev = device();
    let desc = TextureDesc {
        kind: TextureKind::TwoD,
        width: 8,
        height: 8,
        depth: 1,
        levels: 0,
        format: Format::X8R8G8B8,
        usage: Usage::AUTOGEN_MIPMAP,
        pool: Pool::Managed,
    };
    let texture = ok(dev.create_texture_with(&desc));
    assert_eq!(dev.texture_info(texture).map(|i| i.levels), Some(1));
    // One level asked for is as good as the whole chain (0).
    ok(dev.create_texture_with(&TextureDesc { levels: 1, ..desc }));
    assert!(dev.texture_surface(texture, 0, 1).is_err());
    assert!(dev.lock_texture(texture, 0, 1, None, LockFlags(0)).is_err());
    // Left half red, right half green: the 1 x 1 level is their mean.
    fill(&mut dev, texture, None, GREEN, LockFlags(0));
    fill(&mut dev, texture, left_half(), RED, LockFlags(0));
    ok(dev.set_sampler_state(0, SamplerState::MipFilter(MipFilter::Point)));
    ok(dev.set_sampler_state(0, SamplerState::MaxMipLevel(3)));
    let (left, right) = draw(&mut dev, texture);
    assert_eq!(left, right);
    for (shift, expected) in [(16, 0x80), (8, 0x80), (0, 0)] {
        let c = (left >> shift) & 0xff;
        assert!(c.abs_diff(expected) <= 1, "{left:#08x}");
    }
    // POINT (SetAutoGenFilterType) makes them again, each texel one of level 0's: all red
    // or all green, not their mean.
    ok(dev.set_autogen_filter(texture, Filter::Point));
    let (left, right) = draw(&mut dev, texture);
    assert_eq!(left, right);
    assert!(left == RED || left == GREEN, "{left:#08x}");
    // Level 0 changed: the levels are made again before the next draw.
    fill(&mut dev, texture, None, BLUE, LockFlags(0));
    assert_eq!(draw(&mut dev, texture), (BLUE, BLUE));
    // D3DUSAGE_DYNAMIC with AUTOGENMIPMAP only in DEFAULT.
    let dynamic = Usage(Usage::AUTOGEN_MIPMAP.0 | Usage::DYNAMIC.0);
    let in_pool = |pool| TextureDesc {
        usage: dynamic,
        pool,
        ..desc
    };
    assert!(dev.create_texture_with(&in_pool(Pool::Managed)).is_err());
    ok(dev.create_texture_with(&in_pool(Pool::Default)));
    // More than one level, or a volume, is refused.
    for bad in [
        TextureDesc { levels: 2, ..desc },
        TextureDesc {
            kind: TextureKind::Volume,
            depth: 8,
            ..desc
        },
    ] {
        assert!(dev.create_texture_with(&bad).is_err());
    }
}

/// An AUTOGENMIPMAP cube makes each face's levels from that face's level 0 (on wgpu's GL
/// backend, which cannot draw into a face, in the MANAGED texture's memory): +x left half
/// red and right half green reads their mean at the 1 x 1 level, -x blue reads blue.
#[test]
fn gpu_autogen_cubes_make_each_faces_levels() {
    use d3d9_backend::device::{MipFilter, SamplerState};
    let mut dev = device();
    let cube = ok(dev.create_texture_with(&TextureDesc {
        levels: 0,
        ..desc(
            TextureKind::Cube,
            [8, 8, 1],
            Format::X8R8G8B8,
            Usage::AUTOGEN_MIPMAP,
            Pool::Managed,
        )
    }));
    for face in 0..6 {
        fill_level(&mut dev, cube, (face, 0, 8), None, BLUE, LockFlags(0));
    }
    fill_level(&mut dev, cube, (0, 0, 8), None, GREEN, LockFlags(0));
    fill_level(&mut dev, cube, (0, 0, 8), left_half(), RED, LockFlags(0));
    let ps = ok(dev.create_pixel_shader(&tokens(
        "ps_2_0\ndcl t0.xyz\ndcl_cube s0\ntexld r0, t0, s0\nmov oC0, r0\n",
    )));
    // D3DFVF_XYZ | D3DFVF_TEX1 | D3DFVF_TEXCOORDSIZE3(0)
    ok(dev.set_fvf(0x002 | 0x100 | 0x1_0000));
    ok(dev.set_pixel_shader(Some(ps)));
    ok(dev.set_texture(0, Some(cube)));
    ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
    ok(dev.set_sampler_state(0, SamplerState::MipFilter(MipFilter::Point)));
    ok(dev.set_sampler_state(0, SamplerState::MaxMipLevel(3)));
    let mut sample = |x: f32| {
        let v: Vec<f32> = [[-1.0, -1.0], [-1.0, 1.0], [1.0, -1.0], [1.0, 1.0]]
            .iter()
            .flat_map(|[px, py]| [*px, *py, 0.5, x, 0.0, 0.0])
            .collect();
        ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &floats(&v), 24));
        ok(dev.pixel(320, 240)) & 0xff_ffff
    };
    let plus_x = sample(1.0);
    for (shift, expected) in [(16, 0x80), (8, 0x80), (0, 0)] {
        let c = (plus_x >> shift) & 0xff;
        assert!(c.abs_diff(expected) <= 1, "{plus_x:#08x}");
    }
    assert_eq!(sample(-1.0), BLUE);
}

/// D3D9 reads the channels a narrow format lacks as 1 (Wine's pixelshader_blending_test on
/// Windows): an R16F render-target texture cleared to red 0x40 samples (0x40, 0xff, 0xff), a
/// G16R16F one cleared to (0x40, 0x80) samples (0x40, 0x80, 0xff), through a ps_2_0 `texld`
/// and through the fixed-function stage. Their GPU formats hold one and two channels, where
/// WebGPU reads 0.
#[test]
fn gpu_narrow_render_target_textures_read_missing_channels_as_one() {
    use d3d9_backend::device::ClearFlags;
    for (format, expected) in [(Format::R16F, 0x40ffff), (Format::G16R16F, 0x4080ff)] {
        let mut dev = device();
        let target = ok(dev.create_texture_with(&TextureDesc {
            kind: TextureKind::TwoD,
            width: 8,
            height: 8,
            depth: 1,
            levels: 1,
            format,
            usage: Usage::RENDER_TARGET,
            pool: Pool::Default,
        }));
        let surface = ok(dev.get_surface_level(target, 0));
        let back = dev.back_buffer();
        ok(dev.set_render_target(0, Some(surface)));
        ok(dev.clear(&[], ClearFlags::TARGET, 0x0040_8020, 1.0, 0));
        ok(dev.set_render_target(0, Some(back)));
        let (shader, _) = draw(&mut dev, target);
        assert_eq!(shader, expected, "{format:?} through texld: {shader:#08x}");
        // The fixed-function stage: stage 0's default MODULATE of the texture and the
        // unlit diffuse (white without a colour in the vertices).
        ok(dev.set_pixel_shader(None));
        ok(dev.set_render_state(RenderState::Lighting(false)));
        ok(dev.draw_primitive_up(
            PrimitiveType::TriangleStrip,
            2,
            &floats(&[
                -1.0, -1.0, 0.5, 0.0, 1.0, //
                -1.0, 1.0, 0.5, 0.0, 0.0, //
                1.0, -1.0, 0.5, 1.0, 1.0, //
                1.0, 1.0, 0.5, 1.0, 0.0,
            ]),
            20,
        ));
        let fixed = ok(dev.pixel(200, 240)) & 0xff_ffff;
        assert_eq!(fixed, expected, "{format:?} fixed-function: {fixed:#08x}");
    }
}

/// A vertex shader's `texldl` of a narrow texture reads the channels its format lacks as 1,
/// as a pixel shader's does (Windows' vertex texture formats are R32F, R16F and their two-
/// and four-channel kin): R32F 0.25 gives (0x40, 0xff, 0xff), G16R16F (0.25, 0.5) gives
/// (0x40, 0x80, 0xff), A32B32G32R32F as it is. Before, such draws were refused.
#[test]
fn gpu_vertex_texture_fetch_of_narrow_formats_reads_missing_channels_as_one() {
    let half = |v: f32| half::f16::from_f32(v).to_bits().to_le_bytes();
    let cases: [(Format, Vec<u8>, u32); 3] = [
        (Format::R32F, 0.25f32.to_le_bytes().to_vec(), 0x40ffff),
        (Format::G16R16F, [half(0.25), half(0.5)].concat(), 0x4080ff),
        (
            Format::A32B32G32R32F,
            floats(&[0.25, 0.5, 0.75, 1.0]),
            0x4080bf,
        ),
    ];
    // Each on another vertex sampler: s0, s2, s3.
    for ((format, texel, expected), sampler) in cases.into_iter().zip([0, 2, 3]) {
        let mut dev = device();
        let tex = ok(dev.create_texture_with(&TextureDesc {
            kind: TextureKind::TwoD,
            width: 1,
            height: 1,
            depth: 1,
            levels: 1,
            format,
            usage: Usage::default(),
            pool: Pool::Managed,
        }));
        ok(dev.update_texture(tex, 0, &texel));
        let vs = ok(dev.create_vertex_shader(&tokens(&format!(
            "vs_3_0\ndcl_position v0\ndcl_2d s{sampler}\ndcl_position o0\ndcl_color o1\n\
             def c0, 0.5, 0.5, 0, 0\nmov o0, v0\ntexldl r0, c0, s{sampler}\nmov o1, r0\n",
        ))));
        let ps = ok(dev.create_pixel_shader(&tokens("ps_3_0\ndcl_color v0\nmov oC0, v0\n")));
        ok(dev.set_vertex_shader(Some(vs)));
        ok(dev.set_pixel_shader(Some(ps)));
        // D3DVERTEXTEXTURESAMPLER0 + sampler.
        ok(dev.set_texture(257 + sampler, Some(tex)));
        ok(dev.set_fvf(0x002)); // D3DFVF_XYZ
        ok(dev.set_render_state(RenderState::CullMode(CullMode::None)));
        ok(dev.draw_primitive_up(
            PrimitiveType::TriangleStrip,
            2,
            &floats(&[
                -1.0, -1.0, 0.5, //
                -1.0, 1.0, 0.5, //
                1.0, -1.0, 0.5, //
                1.0, 1.0, 0.5,
            ]),
            12,
        ));
        let got = ok(dev.pixel(320, 240)) & 0xff_ffff;
        assert_eq!(got, expected, "{format:?}: {got:#08x}");
    }
}

/// A volume texture on a `dcl_2d` sampler (D3D9 leaves it undefined; Star Wars: The Old
/// Republic draws its water so): read as the volume at depth 0.5, as Windows does in Wine's
/// test_mismatched_sample_types, so two slices of 0x20 and 0x40 give 0x30 under linear
/// filtering.
#[test]
fn gpu_a_volume_on_a_2d_sampler_reads_at_depth_one_half() {
    let mut dev = device();
    let volume = ok(dev.create_texture_with(&desc(
        TextureKind::Volume,
        [8, 8, 2],
        Format::A8R8G8B8,
        Usage::default(),
        Pool::Managed,
    )));
    let mut texels = 0xff20_2020u32.to_le_bytes().repeat(64);
    texels.extend(0xff40_4040u32.to_le_bytes().repeat(64));
    ok(dev.update_texture(volume, 0, &texels));
    ok(dev.set_sampler_state(0, SamplerState::MagFilter(TextureFilter::Linear)));
    assert_eq!(draw(&mut dev, volume), (0x30_3030, 0x30_3030));
    // A 2D texture on the same sampler afterwards reads as before.
    let flat = texture(&mut dev, Format::A8R8G8B8, Pool::Managed, 1);
    fill(&mut dev, flat, None, 0xff70_7070, LockFlags::default());
    assert_eq!(draw(&mut dev, flat), (0x70_7070, 0x70_7070));
}

/// A face of a cube render-target texture is drawn into, filled, stretched into and read
/// back; on wgpu's GL backend, which attaches a face as the whole cube (copies and draws into
/// a face do nothing there), a cube render-target texture is `Unsupported`, and so are a cube
/// face as a copy's source and a DEFAULT AUTOGENMIPMAP cube's levels, never a silent miss.
#[test]
fn gpu_cube_faces_are_render_targets_or_refused_on_gl() {
    use d3d9_backend::device::{ClearFlags, Filter};
    use d3d9_backend::DeviceError;
    let mut dev = device();
    let gl = dev.gpu().adapter_info().backend == d3d9_backend::wgpu::Backend::Gl;
    let cube = |dev: &mut Device, usage| {
        let cube = desc(
            TextureKind::Cube,
            [8, 8, 1],
            Format::A8R8G8B8,
            usage,
            Pool::Default,
        );
        dev.create_texture_with(&cube)
    };
    let refused = |what: &str, r: Result<(), DeviceError>| match r {
        Err(DeviceError::Unsupported { what: w, .. }) => assert!(w.contains("cube"), "{what}: {w}"),
        other => panic!("{what} on GL: {other:?}"),
    };
    assert_eq!(Format::A8R8G8B8.support(dev.gpu()).cube_render_target, !gl);
    let rt = ok(dev.create_render_target(8, 8, Format::A8R8G8B8));
    ok(dev.color_fill(rt, None, 0xff00_ff00));
    let plain = ok(cube(&mut dev, Usage::default()));
    let plain_face = ok(dev.texture_surface(plain, 0, 0));
    // A DEFAULT AUTOGENMIPMAP cube has no memory to make its levels in on GL.
    let autogen = ok(dev.create_texture_with(&TextureDesc {
        levels: 0,
        ..desc(
            TextureKind::Cube,
            [8, 8, 1],
            Format::A8R8G8B8,
            Usage::AUTOGEN_MIPMAP,
            Pool::Default,
        )
    }));
    let generated = dev.generate_mip_sub_levels(autogen);
    if gl {
        refused("AUTOGENMIPMAP of a DEFAULT cube", generated);
        refused(
            "a cube render target",
            cube(&mut dev, Usage::RENDER_TARGET).map(|_| ()),
        );
        refused(
            "StretchRect out of a face",
            dev.stretch_rect(plain_face, None, rt, None, Filter::Point),
        );
        return;
    }
    ok(generated);
    let target = ok(cube(&mut dev, Usage::RENDER_TARGET));
    let face = ok(dev.texture_surface(target, 2, 0));
    let read = |dev: &mut Device| ok(dev.get_render_target_data(face)).color(3, 3);
    ok(dev.color_fill(face, None, 0xffff_0000));
    assert_eq!(read(&mut dev), Some(0xffff_0000));
    ok(dev.stretch_rect(rt, None, face, None, Filter::Point));
    assert_eq!(read(&mut dev), Some(0xff00_ff00));
    ok(dev.set_render_target(0, Some(face)));
    ok(dev.clear(&[], ClearFlags::TARGET, 0xff00_00ff, 1.0, 0));
    assert_eq!(read(&mut dev), Some(0xff00_00ff));
    ok(dev.stretch_rect(plain_face, None, rt, None, Filter::Point));
}

/// `LockRect`'s pitch pads rows of texels to 4 bytes, as Windows' drivers do (Wine's
/// test_fetch4 writes 4 bytes into the first row of a 2 x 2 L8 texture): a 3 x 2 L8 level
/// locks with pitch 4, what is written there is what is read back and sampled, and the
/// padding is not texels.
#[test]
fn gpu_locks_pad_rows_to_four_bytes() {
    let mut dev = device();
    let l8 = ok(dev.create_texture_with(&desc(
        TextureKind::TwoD,
        [3, 2, 1],
        Format::L8,
        Usage::default(),
        Pool::Managed,
    )));
    let locked = ok(dev.lock_texture(l8, 0, 0, None, LockFlags::default()));
    assert_eq!((locked.row_pitch, locked.slice_pitch), (4, 8));
    let rows = [10u8, 20, 30, 0xee, 10, 20, 30, 0xee];
    // SAFETY: the lock holds 2 rows of `row_pitch` bytes until the unlock.
    #[allow(unsafe_code)]
    unsafe {
        std::ptr::copy_nonoverlapping(rows.as_ptr(), locked.bits, rows.len());
    }
    ok(dev.unlock_texture(l8, 0, 0));
    let locked = ok(dev.lock_texture(l8, 0, 0, None, LockFlags::READ_ONLY));
    let mut back = [0u8; 8];
    // SAFETY: as above.
    #[allow(unsafe_code)]
    unsafe {
        std::ptr::copy_nonoverlapping(locked.bits, back.as_mut_ptr(), back.len());
    }
    ok(dev.unlock_texture(l8, 0, 0));
    assert_eq!(back, [10, 20, 30, 0, 10, 20, 30, 0]);
    // Columns 0 and 2 (the pixels `draw` reads), grey.
    assert_eq!(draw(&mut dev, l8), (0x0a_0a0a, 0x1e_1e1e));
    // A rectangle's pointer is its first texel at that pitch: (1, 1)–(3, 2).
    let rect = TexelBox {
        left: 1,
        top: 1,
        right: 3,
        bottom: 2,
        front: 0,
        back: 1,
    };
    let locked = ok(dev.lock_texture(l8, 0, 0, Some(rect), LockFlags::default()));
    // SAFETY: the lock holds the rectangle's texels until the unlock.
    #[allow(unsafe_code)]
    unsafe {
        std::ptr::copy_nonoverlapping([99u8, 98].as_ptr(), locked.bits, 2);
    }
    ok(dev.unlock_texture(l8, 0, 0));
    let locked = ok(dev.lock_texture(l8, 0, 0, None, LockFlags::READ_ONLY));
    // SAFETY: as above.
    #[allow(unsafe_code)]
    unsafe {
        std::ptr::copy_nonoverlapping(locked.bits, back.as_mut_ptr(), back.len());
    }
    ok(dev.unlock_texture(l8, 0, 0));
    assert_eq!(back, [10, 20, 30, 0, 10, 99, 98, 0]);
}

/// `CheckDeviceFormat`'s answers: what D3D9 hardware of its time offers each kind of format,
/// within what the adapter can do.
#[test]
fn gpu_format_support_follows_d3d9_and_the_adapter() {
    let dev = device();
    let gpu = dev.gpu();
    let srgb_views = gpu
        .adapter()
        .get_downlevel_capabilities()
        .flags
        .contains(d3d9_backend::wgpu::DownlevelFlags::VIEW_FORMATS);
    let argb = Format::A8R8G8B8.support(gpu);
    assert!(
        argb.texture && argb.volume && argb.render_target && argb.surface,
        "{argb:?}"
    );
    assert!(argb.filter && argb.blend && !argb.depth_stencil && !argb.depth_texture);
    assert_eq!((argb.srgb_read, argb.srgb_write), (srgb_views, srgb_views));
    assert_eq!(argb.cube_render_target, gpu.draws_into_cube_faces());
    // Sampled but never drawn into in D3D9; no sRGB twin.
    let l8 = Format::L8.support(gpu);
    assert!(
        l8.texture
            && l8.filter
            && l8.surface
            && !l8.render_target
            && !l8.blend
            && !l8.cube_render_target,
        "{l8:?}"
    );
    let r5g6b5 = Format::R5G6B5.support(gpu);
    assert!(
        r5g6b5.render_target && !r5g6b5.srgb_read && !r5g6b5.srgb_write,
        "{r5g6b5:?}"
    );
    // YUV: offscreen surfaces StretchRect converts, never textures.
    let yuy2 = Format::Yuy2.support(gpu);
    assert!(
        yuy2.surface && !yuy2.texture && !yuy2.volume && !yuy2.filter,
        "{yuy2:?}"
    );
    // Depth formats: depth-stencil surfaces; the shadow-map and raw-depth ones as textures.
    let d24s8 = Format::D24S8.support(gpu);
    assert!(
        d24s8.depth_stencil && d24s8.depth_texture && !d24s8.texture,
        "{d24s8:?}"
    );
    assert!(!d24s8.render_target && !d24s8.surface);
    let d32f = Format::D32FLockable.support(gpu);
    assert!(d32f.depth_stencil && !d32f.depth_texture, "{d32f:?}");
    // NULL: a render target that stores nothing.
    let null = Format::Null.support(gpu);
    assert!(null.render_target && !null.texture && !null.surface && !null.depth_stencil);
}

/// `StretchRect` from a YUY2 or UYVY surface converts its one macropixel (two pixels, their
/// own Y, shared U and V) to RGB as Windows drivers do: Wine's yuv_color_test values, with its
/// tolerance of 18.
#[test]
fn gpu_yuv_surfaces_stretch_to_windows_rgb() {
    use d3d9_backend::device::Filter;
    let mut dev = device();
    let target = ok(dev.create_render_target(2, 1, Format::A8R8G8B8));
    for (format, packed, left, right) in [
        (Format::Yuy2, 0x0080_0080u32, 0x0000_ff00u32, 0x0000_ff00u32),
        (Format::Yuy2, 0xff80_ff80, 0x00ff_00ff, 0x00ff_00ff),
        (Format::Yuy2, 0x1c6b_1cff, 0x006d_ff45, 0x0000_d500),
        (Format::Uyvy, 0x4cff_4c54, 0x00ff_0000, 0x00ff_0000),
        (Format::Uyvy, 0x00ff_0000, 0x00b3_0000, 0x00b3_0000),
    ] {
        let surface = ok(dev.create_offscreen_plain_surface(2, 1, format, Pool::Default));
        let locked = ok(dev.lock_surface(surface, None, LockFlags(0)));
        // SAFETY: the lock's memory holds the surface's one row of 4 bytes until unlocked.
        #[allow(unsafe_code)]
        unsafe {
            std::ptr::copy_nonoverlapping(packed.to_le_bytes().as_ptr(), locked.bits, 4);
        }
        ok(dev.unlock_surface(surface));
        ok(dev.stretch_rect(surface, None, target, None, Filter::Point));
        let s = ok(dev.get_render_target_data(target));
        for (x, want) in [(0, left), (1, right)] {
            let got = s.color(x, 0).unwrap_or_default() & 0x00ff_ffff;
            let near =
                (0..3).all(|i| ((got >> (8 * i)) & 0xff).abs_diff((want >> (8 * i)) & 0xff) <= 18);
            assert!(
                near,
                "{format:?} {packed:#010x}, pixel {x}: {got:#08x}, Windows {want:#08x}"
            );
        }
    }
}

/// `StretchRect` stretches a rectangle to the destination's size, whatever the corners:
/// a 2-texel-wide (or high) source over 4 texels fills all 4, and a 4-texel source over 2
/// leaves the texels past them as they were.
#[test]
fn gpu_stretch_rect_scales_by_the_rectangles_sizes() {
    use d3d9_backend::device::{Filter, Rect};
    let mut dev = device();
    let r = |left, top, right, bottom| {
        Some(Rect {
            left,
            top,
            right,
            bottom,
        })
    };
    let target = |dev: &mut Device, colour| {
        let id = ok(dev.create_render_target(4, 4, Format::X8R8G8B8));
        ok(dev.color_fill(id, None, colour));
        id
    };
    let texel = |dev: &mut Device, id, x, y| {
        let data = ok(dev.get_render_target_data(id));
        data.color(x, y)
            .unwrap_or_else(|| panic!("texel ({x}, {y})"))
            & 0x00ff_ffff
    };
    let cases = [
        // (source rect, destination rect, a destination texel and its colour after)
        (r(1, 0, 3, 4), r(0, 0, 4, 4), (3, 0), GREEN),
        (r(0, 1, 4, 3), r(0, 0, 4, 4), (0, 3), GREEN),
        (r(0, 0, 4, 4), r(1, 0, 3, 4), (3, 0), RED),
        (r(0, 0, 4, 4), r(0, 1, 4, 3), (0, 3), RED),
    ];
    for (s, d, (x, y), colour) in cases {
        let src = target(&mut dev, GREEN);
        let dst = target(&mut dev, RED);
        ok(dev.stretch_rect(src, s, dst, d, Filter::Point));
        assert_eq!(texel(&mut dev, dst, x, y), colour, "{s:?} into {d:?}");
        assert_eq!(texel(&mut dev, dst, 1, 1), GREEN, "{s:?} into {d:?}");
    }
    // Into a box further right or lower down: it scales by the box's width or height (2),
    // not its right or bottom edge (4). The source's left or top half red.
    let shifted = [
        (r(0, 0, 2, 4), r(2, 0, 4, 4), [(2, 0), (3, 0)]),
        (r(0, 0, 4, 2), r(0, 2, 4, 4), [(0, 2), (0, 3)]),
    ];
    for (red, d, [a, b]) in shifted {
        let src = target(&mut dev, GREEN);
        ok(dev.color_fill(src, red, RED));
        let dst = target(&mut dev, 0);
        ok(dev.stretch_rect(src, None, dst, d, Filter::Point));
        let got = (
            texel(&mut dev, dst, a.0, a.1),
            texel(&mut dev, dst, b.0, b.1),
        );
        assert_eq!(got, (RED, GREEN), "into {d:?}");
    }
    // Red beside green stretched over 4 texels: POINT copies texels, LINEAR blends them.
    for (filter, middle) in [(Filter::Point, RED), (Filter::Linear, 0x00bf_4000)] {
        let src = target(&mut dev, GREEN);
        ok(dev.color_fill(src, r(0, 0, 2, 4), RED));
        let dst = target(&mut dev, 0);
        ok(dev.stretch_rect(src, r(1, 0, 3, 4), dst, r(0, 0, 4, 4), filter));
        let got = texel(&mut dev, dst, 1, 0);
        // Shrunk: red and green under one texel, LINEAR (the minifying filter) averages them.
        let dst2 = target(&mut dev, 0);
        ok(dev.stretch_rect(src, r(1, 0, 3, 4), dst2, r(0, 0, 1, 4), filter));
        let shrunk = texel(&mut dev, dst2, 0, 0);
        match filter {
            Filter::Point => assert!(shrunk == RED || shrunk == GREEN, "{shrunk:#08x}"),
            Filter::Linear => assert!(shrunk.abs_diff(0x0080_8000) <= 0x0001_0100, "{shrunk:#08x}"),
        }
        let near =
            (0..3).all(|i| ((got >> (8 * i)) & 0xff).abs_diff((middle >> (8 * i)) & 0xff) <= 2);
        assert!(near, "{filter:?}: {got:#08x}");
    }
}
