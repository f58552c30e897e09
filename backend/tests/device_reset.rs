//! `Reset` as Windows does it (Wine's `test_reset`, `test_backbuffer_resize`,
//! `test_managed_reset`): every state back to D3D9's defaults, the implicit swap chain made
//! again with the new size, count and format, refused (changing nothing) while a
//! `D3DPOOL_DEFAULT` resource is alive, MANAGED and SYSTEMMEM contents kept. And additional
//! swap chains, which present on their own. GPU tests fail without an adapter.

#![allow(clippy::panic)] // a failing test says why

#[allow(dead_code)]
mod device_common;
use d3d9_backend::device::TextureKind;
use d3d9_backend::device::{
    Device, Format, IndexFormat, Light, LockFlags, Material, MultiSample, Pool, PresentParams,
    PrimitiveType, TextureDesc, TextureId, Usage, Viewport, RENDER_STATES, SAMPLER_STATES,
    TEXTURE_STAGES, TEXTURE_STAGE_STATES,
};
use d3d9_backend::DeviceParams;
use device_common::{device, floats, ok, tokens};

const GREEN: u32 = 0x0000_ff00;

/// 800 x 600 A8R8G8B8, two lockable back buffers, a D24S8 automatic depth-stencil surface.
fn big() -> PresentParams {
    PresentParams {
        back_buffer: (800, 600, Format::A8R8G8B8),
        back_buffer_count: 2,
        lockable_back_buffer: true,
        auto_depth_stencil: Some(Format::D24S8),
        multisample: MultiSample::NONE,
    }
}

/// The default 640 x 480 swap chain without a depth-stencil surface.
fn small() -> PresentParams {
    DeviceParams::default().present()
}

fn texture(dev: &mut Device, pool: Pool, usage: Usage) -> TextureId {
    ok(dev.create_texture_with(&TextureDesc {
        kind: TextureKind::TwoD,
        width: 8,
        height: 8,
        depth: 1,
        levels: 1,
        format: Format::A8R8G8B8,
        usage,
        pool,
    }))
}

/// Fills level 0 of an 8 x 8 A8R8G8B8 texture with `colour`.
fn fill(dev: &mut Device, id: TextureId, colour: u32) {
    let locked = ok(dev.lock_texture(id, 0, 0, None, LockFlags(0)));
    let texels: Vec<u8> = (0..8 * 8).flat_map(|_| colour.to_le_bytes()).collect();
    for (y, row) in texels.chunks(8 * 4).enumerate() {
        // SAFETY: the lock holds 8 rows of `row_pitch` bytes until the unlock.
        #[allow(unsafe_code)]
        unsafe {
            std::ptr::copy_nonoverlapping(
                row.as_ptr(),
                locked.bits.add(y * locked.row_pitch as usize),
                row.len(),
            );
        }
    }
    ok(dev.unlock_texture(id, 0, 0));
}

/// Draws `texture` (or an unbound sampler) over the whole target with a ps_2_0 shader and
/// reads the centre pixel.
fn draw_textured(dev: &mut Device, texture: Option<TextureId>) -> u32 {
    let ps = ok(dev.create_pixel_shader(&tokens(
        "ps_2_0\ndcl t0.xy\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n",
    )));
    // D3DFVF_XYZ | D3DFVF_TEX1
    ok(dev.set_fvf(0x002 | 0x100));
    ok(dev.set_pixel_shader(Some(ps)));
    if texture.is_some() {
        ok(dev.set_texture(0, texture));
    }
    ok(dev.set_render_state_raw(22, 1)); // D3DRS_CULLMODE NONE
    ok(dev.set_render_state_raw(7, 0)); // D3DRS_ZENABLE FALSE: the new depth surface holds anything
    let quad = floats(&[
        -1.0, -1.0, 0.5, 0.0, 1.0, //
        -1.0, 1.0, 0.5, 0.0, 0.0, //
        1.0, -1.0, 0.5, 1.0, 1.0, //
        1.0, 1.0, 0.5, 1.0, 0.0,
    ]);
    ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &quad, 20));
    let (w, h) = (dev.viewport().width, dev.viewport().height);
    ok(dev.pixel(w / 2, h / 2)) & 0xff_ffff
}

/// Every raw state, transform, light, material, clip plane and constant, as the getters
/// report them.
fn snapshot(dev: &Device) -> String {
    let mut out = String::new();
    for info in RENDER_STATES {
        out += &format!("{} {:?}\n", info.name, dev.render_state_raw(info.number));
    }
    for sampler in (0..16).chain(257..261) {
        for info in SAMPLER_STATES {
            let value = dev.sampler_state_raw(sampler, info.number);
            out += &format!("{sampler} {} {value:?}\n", info.name);
        }
    }
    for stage in 0..TEXTURE_STAGES as u32 {
        for info in TEXTURE_STAGE_STATES {
            let value = dev.texture_stage_state_raw(stage, info.number);
            out += &format!("{stage} {} {value:?}\n", info.name);
        }
    }
    for t in [2, 3, 256, 16, 17, 18, 19, 20, 21, 22, 23] {
        out += &format!("transform {t} {:?}\n", dev.get_transform_raw(t));
    }
    out += &format!("lights {:?}\n", dev.light_indices());
    out += &format!("material {:?}\n", dev.material());
    for plane in 0..6 {
        out += &format!("clip {plane} {:?}\n", dev.get_clip_plane(plane));
    }
    out += &format!(
        "vs {:?}\nps {:?}\n",
        dev.vertex_shader_constants(),
        dev.pixel_shader_constants()
    );
    out += &format!(
        "viewport {:?} scissor {:?}\n",
        dev.viewport(),
        dev.scissor_rect()
    );
    for stream in 0..16 {
        out += &format!("freq {stream} {:?}\n", dev.stream_source_freq(stream));
    }
    out
}

#[test]
fn gpu_reset_sets_every_state_back_to_its_default() {
    let fresh = snapshot(&device());
    let mut dev = device();
    // One of each kind of state, away from its default.
    ok(dev.set_render_state_raw(137, 0)); // D3DRS_LIGHTING FALSE
    ok(dev.set_render_state_raw(27, 1)); // D3DRS_ALPHABLENDENABLE
    ok(dev.set_render_state_raw(34, 0xff12_3456)); // D3DRS_FOGCOLOR
    ok(dev.set_sampler_state_raw(3, 5, 2)); // D3DSAMP_MAGFILTER LINEAR
    ok(dev.set_sampler_state_raw(257, 1, 3)); // D3DSAMP_ADDRESSU CLAMP
    ok(dev.set_texture_stage_state_raw(1, 1, 4)); // D3DTSS_COLOROP MODULATE
    ok(dev.set_transform_raw(256, [[2.0; 4]; 4])); // D3DTS_WORLD
    ok(dev.set_transform_raw(16, [[3.0; 4]; 4])); // D3DTS_TEXTURE0
    ok(dev.set_light(2, &Light::default()));
    ok(dev.light_enable(5, true));
    ok(dev.set_material(&Material {
        power: 8.0,
        ..Material::default()
    }));
    ok(dev.set_clip_plane(1, [1.0, 2.0, 3.0, 4.0]));
    ok(dev.set_vertex_shader_constant_f(7, &[[1.0; 4]]));
    ok(dev.set_vertex_shader_constant_i(3, &[[5; 4]]));
    ok(dev.set_pixel_shader_constant_b(2, &[true]));
    ok(dev.set_stream_source_freq(1, 0x8000_0001));
    ok(dev.set_viewport(Viewport {
        x: 10,
        y: 20,
        width: 100,
        height: 100,
        min_z: 0.25,
        max_z: 0.5,
    }));
    assert_ne!(snapshot(&dev), fresh);

    ok(dev.reset(small()));
    assert_eq!(snapshot(&dev), fresh);
    // Nothing is bound any more: a draw has no declaration.
    let err = dev
        .draw_primitive(PrimitiveType::TriangleList, 0, 1)
        .expect_err("a draw after Reset has no declaration");
    assert!(err.is_invalid_call(), "{err}");
}

#[test]
fn gpu_reset_makes_the_swap_chain_again_with_the_new_parameters() {
    let mut dev = device();
    let old = dev.back_buffers().to_vec();
    assert_eq!(
        ok(dev.render_state_raw(7)),
        0,
        "ZENABLE without a depth surface"
    );
    ok(dev.reset(big()));
    let bb = dev.back_buffers().to_vec();
    assert_eq!(bb.len(), 2);
    for id in &bb {
        assert!(!old.contains(id), "Reset makes new back buffers");
        assert_eq!(dev.surface_desc(*id), Some((800, 600, Format::A8R8G8B8)));
        // Lockable: D3DPRESENTFLAG_LOCKABLE_BACKBUFFER.
        ok(dev.lock_surface(*id, None, LockFlags(0)));
        ok(dev.unlock_surface(*id));
    }
    for id in &old {
        assert_eq!(
            dev.surface_desc(*id),
            None,
            "the old back buffers are released"
        );
    }
    let ds = dev
        .auto_depth_stencil()
        .expect("an automatic depth-stencil surface");
    assert_eq!(dev.depth_stencil_surface(), Some(ds));
    assert_eq!(dev.surface_desc(ds), Some((800, 600, Format::D24S8)));
    assert_eq!(
        ok(dev.render_state_raw(7)),
        1,
        "ZENABLE with a depth surface"
    );
    let vp = dev.viewport();
    assert_eq!((vp.x, vp.y, vp.width, vp.height), (0, 0, 800, 600));
    assert_eq!((vp.min_z, vp.max_z), (0.0, 1.0));
    let sc = dev.scissor_rect();
    assert_eq!((sc.left, sc.top, sc.right, sc.bottom), (0, 0, 800, 600));
    assert_eq!(dev.params().back_buffer, (800, 600, Format::A8R8G8B8));
    // Render target 0 is the new back buffer: a clear reaches it, and a far pixel exists.
    ok(dev.color_fill(bb[0], None, 0xff00_ff00));
    assert_eq!(ok(dev.pixel(700, 500)) & 0xff_ffff, GREEN);
    // Two back buffers flip.
    ok(dev.color_fill(bb[1], None, 0xff00_00ff));
    ok(dev.present());
    assert_eq!(ok(dev.pixel(700, 500)) & 0xff_ffff, 0xff);
    assert_eq!(ok(dev.front_buffer_data()).color(1, 1), Some(0xff00_ff00));

    // Back without a depth-stencil surface.
    ok(dev.reset(small()));
    assert_eq!(dev.auto_depth_stencil(), None);
    assert_eq!(dev.depth_stencil_surface(), None);
    assert_eq!(dev.surface_desc(ds), None);
    assert_eq!(dev.back_buffers().len(), 1);
    let bad = PresentParams {
        back_buffer_count: 4,
        ..small()
    };
    assert!(dev.reset(bad).is_err());
}

#[test]
fn gpu_default_pool_resources_refuse_the_reset() {
    let mut dev = device();
    ok(dev.set_render_state_raw(137, 0));
    let bb = dev.back_buffers().to_vec();
    let refuses = |dev: &mut Device, what: &str| {
        let err = dev.reset(big()).expect_err(what);
        assert!(err.is_invalid_call(), "{what}: {err}");
        // Nothing changed.
        assert_eq!(dev.back_buffers(), &bb[..], "{what}");
        assert_eq!(ok(dev.render_state_raw(137)), 0, "{what}");
    };

    let t = texture(&mut dev, Pool::Default, Usage::default());
    refuses(&mut dev, "a DEFAULT texture");
    ok(dev.release_texture(t));
    let t = texture(&mut dev, Pool::Default, Usage::RENDER_TARGET);
    ok(dev.get_surface_level(t, 0));
    refuses(&mut dev, "a render-target texture");
    ok(dev.release_texture(t));
    let vb = ok(dev.create_vertex_buffer_in(64, Usage::default(), Pool::Default));
    refuses(&mut dev, "a DEFAULT vertex buffer");
    ok(dev.release_vertex_buffer(vb));
    let ib =
        ok(dev.create_index_buffer_in(64, IndexFormat::Index16, Usage::default(), Pool::Default));
    refuses(&mut dev, "a DEFAULT index buffer");
    ok(dev.release_index_buffer(ib));
    let rt = ok(dev.create_render_target(16, 16, Format::X8R8G8B8));
    refuses(&mut dev, "a render target");
    ok(dev.release_surface(rt));
    let ds = ok(dev.create_depth_stencil_surface(16, 16, Format::D24S8));
    refuses(&mut dev, "a depth-stencil surface");
    ok(dev.release_surface(ds));
    let plain = ok(dev.create_offscreen_plain_surface(16, 16, Format::R5G6B5, Pool::Default));
    refuses(&mut dev, "a DEFAULT offscreen plain surface");
    ok(dev.release_surface(plain));
    let chain = ok(dev.create_swap_chain(small()));
    refuses(&mut dev, "an additional swap chain");
    ok(dev.release_swap_chain(chain));

    // MANAGED, SYSTEMMEM and SCRATCH resources do not refuse it; presenting made a front
    // buffer, which is the implicit chain's.
    ok(dev.present());
    texture(&mut dev, Pool::Managed, Usage::default());
    texture(&mut dev, Pool::SystemMem, Usage::default());
    texture(&mut dev, Pool::Scratch, Usage::default());
    ok(dev.create_vertex_buffer_in(64, Usage::default(), Pool::SystemMem));
    ok(dev.create_offscreen_plain_surface(16, 16, Format::R5G6B5, Pool::SystemMem));
    ok(dev.create_offscreen_plain_surface(16, 16, Format::R5G6B5, Pool::Scratch));
    ok(dev.create_vertex_shader(&tokens("vs_1_1\ndcl_position v0\nmov oPos, v0\n")));
    ok(dev.reset(big()));
    assert_eq!(dev.back_buffers().len(), 2);
}

#[test]
fn gpu_managed_and_system_memory_textures_keep_their_contents() {
    let mut dev = device();
    let managed = texture(&mut dev, Pool::Managed, Usage::default());
    fill(&mut dev, managed, 0xff00_ff00);
    let sysmem = texture(&mut dev, Pool::SystemMem, Usage::default());
    fill(&mut dev, sysmem, 0xff12_3456);
    assert_eq!(draw_textured(&mut dev, Some(managed)), GREEN);

    ok(dev.reset(big()));
    // The texture is unbound: the sampler reads (0, 0, 0, 1).
    assert_eq!(draw_textured(&mut dev, None), 0);
    assert_eq!(draw_textured(&mut dev, Some(managed)), GREEN);
    // D3DLOCK_READONLY
    let locked = ok(dev.lock_texture(sysmem, 0, 0, None, LockFlags(1 << 4)));
    // SAFETY: the lock holds at least one texel until the unlock.
    #[allow(unsafe_code)]
    let texel = unsafe { locked.bits.cast::<[u8; 4]>().read_unaligned() };
    ok(dev.unlock_texture(sysmem, 0, 0));
    assert_eq!(u32::from_le_bytes(texel), 0xff12_3456);
}

#[test]
fn gpu_additional_swap_chains_present_their_own_back_buffers() {
    let mut dev = device();
    let params = PresentParams {
        back_buffer: (64, 32, Format::X8R8G8B8),
        back_buffer_count: 2,
        lockable_back_buffer: false,
        // Additional chains get no depth-stencil surface.
        auto_depth_stencil: Some(Format::D24S8),
        multisample: MultiSample::NONE,
    };
    let chain = ok(dev.create_swap_chain(params));
    let bb = ok(dev
        .swap_chain_back_buffers(chain)
        .map(<[_]>::to_vec)
        .ok_or("no back buffers"));
    assert_eq!(bb.len(), 2);
    assert!(!bb.contains(&dev.back_buffer()));
    assert_eq!(dev.surface_desc(bb[0]), Some((64, 32, Format::X8R8G8B8)));
    assert_eq!(
        ok(dev.swap_chain_front_buffer_data(chain)).color(1, 1),
        Some(0),
        "nothing presented yet"
    );
    ok(dev.color_fill(bb[0], None, 0xff00_ff00));
    ok(dev.color_fill(dev.back_buffer(), None, 0xffff_0000));
    ok(dev.present_swap_chain(chain));
    assert_eq!(
        ok(dev.swap_chain_front_buffer_data(chain)).color(1, 1),
        Some(0xff00_ff00)
    );
    // The implicit chain was not presented.
    assert_eq!(ok(dev.front_buffer_data()).color(1, 1), Some(0));
    // GetFrontBufferData into a SYSTEMMEM surface of the chain's size and format.
    let dst = ok(dev.create_offscreen_plain_surface(64, 32, Format::X8R8G8B8, Pool::SystemMem));
    ok(dev.copy_front_buffer_data(Some(chain), dst));
    let locked = ok(dev.lock_surface(dst, None, LockFlags(0)));
    // SAFETY: the lock holds at least one texel until the unlock.
    #[allow(unsafe_code)]
    let texel = unsafe { locked.bits.cast::<[u8; 4]>().read_unaligned() };
    ok(dev.unlock_surface(dst));
    assert_eq!(u32::from_le_bytes(texel) & 0xff_ffff, GREEN);
    let wrong = ok(dev.create_offscreen_plain_surface(8, 8, Format::X8R8G8B8, Pool::SystemMem));
    assert!(dev.copy_front_buffer_data(Some(chain), wrong).is_err());

    ok(dev.release_swap_chain(chain));
    assert_eq!(
        dev.surface_desc(bb[0]),
        None,
        "the chain's surfaces go with it"
    );
    assert!(dev.present_swap_chain(chain).is_err());
    assert!(dev.release_swap_chain(chain).is_err());
}

/// Constants go back to zero at a Reset, also for draws whose bind groups were made before
/// it: a vertex shader drawing its `c0` and a pixel shader drawing its `c0` draw black after
/// one, the same shaders and draws that drew red and green before.
#[test]
fn gpu_constants_are_zero_in_draws_after_a_reset() {
    let mut dev = device();
    let vs = ok(dev.create_vertex_shader(&tokens(
        "vs_2_0\ndcl_position v0\nmov oPos, v0\nmov oD0, c0\n",
    )));
    let ps = ok(dev.create_pixel_shader(&tokens("ps_2_0\nmov oC0, c0\n")));
    // Left half through the vertex shader's colour, right half the pixel shader's.
    let half = |x0: f32| {
        floats(&[
            x0,
            -1.0,
            0.5,
            x0,
            1.0,
            0.5,
            x0 + 1.0,
            -1.0,
            0.5,
            x0 + 1.0,
            1.0,
            0.5,
        ])
    };
    let draw = |dev: &mut Device| {
        ok(dev.set_render_state_raw(22, 1)); // D3DRS_CULLMODE NONE
        ok(dev.set_fvf(0x002)); // D3DFVF_XYZ
        ok(dev.set_vertex_shader(Some(vs)));
        for (x0, pixel) in [(-1.0, None), (0.0, Some(ps))] {
            ok(dev.set_pixel_shader(pixel));
            ok(dev.draw_primitive_up(PrimitiveType::TriangleStrip, 2, &half(x0), 12));
        }
        let px = |dev: &mut Device, x| ok(dev.pixel(x, 240)) & 0xff_ffff;
        (px(dev, 160), px(dev, 480))
    };
    ok(dev.set_vertex_shader_constant_f(0, &[[1.0, 0.0, 0.0, 1.0]]));
    ok(dev.set_pixel_shader_constant_f(0, &[[0.0, 1.0, 0.0, 1.0]]));
    assert_eq!(draw(&mut dev), (0xff_0000, GREEN));
    // A hardware device starts with software vertex processing off, a software one on.
    assert!(!dev.software_vertex_processing());
    let software = device_common::device_with(DeviceParams {
        processing: d3d9_translator::decl::VertexProcessing::Software,
        ..DeviceParams::default()
    });
    assert!(software.software_vertex_processing());
    ok(dev.reset(small()));
    assert_eq!(draw(&mut dev), (0, 0));
}
