//! Render and sampler states: D3D9's defaults, each `Set*` landing in its own field, and the
//! wgpu blend, depth and stencil state they make.

use super::*;

#[test]
fn defaults_are_d3d9s() {
    let s = RenderStates::default();
    assert!(s.z_enable && s.z_write && s.lighting);
    assert_eq!(s.z_func, CompareFunction::LessEqual);
    assert_eq!(s.cull, CullMode::Ccw);
    assert_eq!(s.blend(), None);
    assert_eq!(s.write_mask(3), wgpu::ColorWrites::ALL);
}

#[test]
fn both_src_alpha_sets_both_factors() {
    let mut s = RenderStates::default();
    s.set(RenderState::AlphaBlendEnable(true));
    s.set(RenderState::SrcBlend(Blend::BothInvSrcAlpha));
    s.set(RenderState::DestBlend(Blend::One));
    let b = s.blend().unwrap_or_else(|| unreachable!("blending is on"));
    assert_eq!(b.color.src_factor, wgpu::BlendFactor::OneMinusSrcAlpha);
    assert_eq!(b.color.dst_factor, wgpu::BlendFactor::SrcAlpha);
    // Colour factors read the alpha for the alpha channel.
    s.set(RenderState::SrcBlend(Blend::DestColor));
    let b = s.blend().unwrap_or_else(|| unreachable!("blending is on"));
    assert_eq!(b.alpha.src_factor, wgpu::BlendFactor::DstAlpha);
}

#[test]
fn stencil_faces_follow_d3d9s_winding() {
    let mut s = RenderStates::default();
    s.set(RenderState::StencilEnable(true));
    s.set(RenderState::StencilPass(StencilOp::Replace));
    s.set(RenderState::TwoSidedStencilMode(true));
    s.set(RenderState::CcwStencilPass(StencilOp::Incr));
    let d = s
        .depth_stencil(Some(wgpu::TextureFormat::Depth24PlusStencil8))
        .unwrap_or_else(|| unreachable!("a surface is given"));
    assert_eq!(d.stencil.front.pass_op, wgpu::StencilOperation::Replace);
    assert_eq!(
        d.stencil.back.pass_op,
        wgpu::StencilOperation::IncrementWrap
    );
    assert!(s.depth_stencil(None).is_none());
}

#[test]
fn rects_clip_to_the_surface() {
    let r = Rect {
        left: -5,
        top: 10,
        right: 700,
        bottom: 20,
    };
    assert_eq!(r.clip(640, 480), Some((0, 10, 640, 10)));
    let empty = Rect {
        left: 10,
        top: 10,
        right: 10,
        bottom: 20,
    };
    assert_eq!(empty.clip(640, 480), None);
    let flat = Rect {
        bottom: 10,
        right: 20,
        ..empty
    };
    assert_eq!(flat.clip(640, 480), None);
    // Inverted rectangles are empty, not an overflow.
    let inverted = Rect {
        left: 300,
        top: 10,
        right: 20,
        bottom: 5,
    };
    assert_eq!(inverted.clip(640, 480), None);
}

/// Every typed render state with a value that is not its default.
fn one_of_each() -> Vec<RenderState> {
    use RenderState as R;
    vec![
        R::ZEnable(false),
        R::ZWriteEnable(false),
        R::ZFunc(CompareFunction::Greater),
        R::CullMode(CullMode::Cw),
        R::FillMode(FillMode::Wireframe),
        R::ShadeMode(ShadeMode::Flat),
        R::AlphaBlendEnable(true),
        R::SrcBlend(Blend::SrcAlpha),
        R::DestBlend(Blend::InvSrcAlpha),
        R::BlendOp(BlendOp::Max),
        R::SeparateAlphaBlendEnable(true),
        R::SrcBlendAlpha(Blend::DestAlpha),
        R::DestBlendAlpha(Blend::One),
        R::BlendOpAlpha(BlendOp::Subtract),
        R::BlendFactor(0x8040_2010),
        R::AlphaTestEnable(true),
        R::AlphaFunc(CompareFunction::Less),
        R::AlphaRef(0x70),
        R::StencilEnable(true),
        R::StencilFail(StencilOp::Zero),
        R::StencilZFail(StencilOp::Invert),
        R::StencilPass(StencilOp::Replace),
        R::StencilFunc(CompareFunction::Equal),
        R::StencilRef(3),
        R::StencilMask(0xf0),
        R::StencilWriteMask(0x0f),
        R::TwoSidedStencilMode(true),
        R::CcwStencilFail(StencilOp::IncrSat),
        R::CcwStencilZFail(StencilOp::DecrSat),
        R::CcwStencilPass(StencilOp::Incr),
        R::CcwStencilFunc(CompareFunction::NotEqual),
        R::ColorWriteEnable(0, 0x5),
        R::ColorWriteEnable(3, 0x12),
        R::ScissorTestEnable(true),
        R::DepthBias(0.25),
        R::SlopeScaleDepthBias(2.0),
        R::FogEnable(true),
        R::FogColor(0xff00_ff00),
        R::FogTableMode(FogMode::Linear),
        R::FogVertexMode(FogMode::Exp2),
        R::FogStart(0.5),
        R::FogEnd(0.75),
        R::FogDensity(0.5),
        R::Lighting(false),
        R::TextureFactor(0x1234_5678),
        R::PointSize(4.0),
        R::PointSizeMin(2.0),
        R::PointSizeMax(8.0),
        R::PointSpriteEnable(true),
        R::PointScaleEnable(true),
        R::PointScale([0.5, 0.25, 0.125]),
        R::ClipPlaneEnable(0xff),
        R::Wrap(17, 0x3),
    ]
}

#[test]
fn each_render_state_lands_in_its_own_field() {
    let defaults = RenderStates::default();
    let mut all = defaults;
    for state in one_of_each() {
        let mut one = defaults;
        one.set(state);
        assert_ne!(one, defaults, "{state:?} changed nothing");
        // Each state changes a field no other state of the list has changed yet.
        let before = all;
        all.set(state);
        assert_ne!(all, before, "{state:?} landed where another state did");
    }
    assert_eq!(
        all.color_write,
        [0x5, 0xf, 0xf, 0x2],
        "the low 4 bits, per target"
    );
    assert_eq!(all.clip_plane_enable, 0x3f, "six planes");
    assert_eq!(all.texture_wrap.0[1], 0x3, "sets wrap at 16");
    assert_eq!(all.alpha_reference(), 0x70);
    let mut high = defaults;
    high.set(RenderState::AlphaRef(0xff70));
    assert_eq!((high.alpha_ref, high.alpha_reference()), (0xff70, 0x70));
    // A fifth render target has no state, and writes everything.
    high.set(RenderState::ColorWriteEnable(4, 0));
    assert_eq!(high, {
        let mut h = defaults;
        h.set(RenderState::AlphaRef(0xff70));
        h
    });
    assert_eq!(high.write_mask(4), wgpu::ColorWrites::ALL);
    assert_eq!(
        all.write_mask(0),
        wgpu::ColorWrites::RED | wgpu::ColorWrites::BLUE
    );
}

#[test]
fn blend_factors_and_operations_are_wgpus() {
    use wgpu::{BlendFactor as F, BlendOperation as O};
    let mut s = RenderStates::default();
    s.set(RenderState::AlphaBlendEnable(true));
    let factors = |s: &RenderStates| {
        let b = s.blend().unwrap_or_else(|| unreachable!("blending is on"));
        (
            b.color.src_factor,
            b.color.dst_factor,
            b.alpha.src_factor,
            b.alpha.dst_factor,
        )
    };
    for (blend, colour, alpha) in [
        (Blend::Zero, F::Zero, F::Zero),
        (Blend::One, F::One, F::One),
        (Blend::SrcColor, F::Src, F::SrcAlpha),
        (Blend::InvSrcColor, F::OneMinusSrc, F::OneMinusSrcAlpha),
        (Blend::SrcAlpha, F::SrcAlpha, F::SrcAlpha),
        (Blend::InvSrcAlpha, F::OneMinusSrcAlpha, F::OneMinusSrcAlpha),
        (Blend::DestAlpha, F::DstAlpha, F::DstAlpha),
        (
            Blend::InvDestAlpha,
            F::OneMinusDstAlpha,
            F::OneMinusDstAlpha,
        ),
        (Blend::DestColor, F::Dst, F::DstAlpha),
        (Blend::InvDestColor, F::OneMinusDst, F::OneMinusDstAlpha),
        (
            Blend::SrcAlphaSat,
            F::SrcAlphaSaturated,
            F::SrcAlphaSaturated,
        ),
        (Blend::BlendFactor, F::Constant, F::Constant),
        (
            Blend::InvBlendFactor,
            F::OneMinusConstant,
            F::OneMinusConstant,
        ),
    ] {
        s.set(RenderState::DestBlend(blend));
        let (_, dst, _, dst_alpha) = factors(&s);
        assert_eq!((dst, dst_alpha), (colour, alpha), "{blend:?}");
    }
    s.set(RenderState::SrcBlend(Blend::BothSrcAlpha));
    let (src, dst, ..) = factors(&s);
    assert_eq!(
        (src, dst),
        (F::SrcAlpha, F::OneMinusSrcAlpha),
        "the destination is ignored"
    );
    // The alpha channel's own factors and operation.
    s.set(RenderState::SeparateAlphaBlendEnable(true));
    s.set(RenderState::SrcBlendAlpha(Blend::BothInvSrcAlpha));
    s.set(RenderState::BlendOpAlpha(BlendOp::RevSubtract));
    let b = s.blend().unwrap_or_else(|| unreachable!("blending is on"));
    assert_eq!(
        (b.alpha.src_factor, b.alpha.dst_factor),
        (F::OneMinusSrcAlpha, F::SrcAlpha)
    );
    assert_eq!(
        (b.color.operation, b.alpha.operation),
        (O::Add, O::ReverseSubtract)
    );
    for (op, wgpu) in [
        (BlendOp::Subtract, O::Subtract),
        (BlendOp::RevSubtract, O::ReverseSubtract),
        (BlendOp::Min, O::Min),
        (BlendOp::Max, O::Max),
    ] {
        s.set(RenderState::BlendOp(op));
        let b = s.blend().unwrap_or_else(|| unreachable!("blending is on"));
        assert_eq!(b.color.operation, wgpu);
        // MIN and MAX ignore the factors.
        let ignored = matches!(op, BlendOp::Min | BlendOp::Max);
        assert_eq!(
            b.color.src_factor == F::One && b.color.dst_factor == F::One,
            ignored
        );
    }
}

#[test]
fn depth_and_stencil_states_are_wgpus() {
    use wgpu::{CompareFunction as C, StencilOperation as S, TextureFormat as T};
    let mut s = RenderStates::default();
    let state = |s: &RenderStates, f: T| s.depth_stencil(Some(f)).unwrap_or_else(|| unreachable!());
    let d = state(&s, T::Depth32Float);
    assert_eq!(
        (d.depth_compare, d.depth_write_enabled),
        (Some(C::LessEqual), Some(true))
    );
    assert_eq!(d.stencil, wgpu::StencilState::default());
    // Without a z-buffer every pixel passes and nothing is written; a stencil-only format
    // writes no depth.
    s.set(RenderState::ZEnable(false));
    let d = state(&s, T::Depth32Float);
    assert_eq!(
        (d.depth_compare, d.depth_write_enabled),
        (Some(C::Always), Some(false))
    );
    s.set(RenderState::ZEnable(true));
    assert_eq!(state(&s, T::Stencil8).depth_write_enabled, Some(false));
    s.set(RenderState::SlopeScaleDepthBias(1.5));
    assert_eq!(state(&s, T::Depth32Float).bias.slope_scale, 1.5);
    for (op, wgpu) in [
        (StencilOp::Keep, S::Keep),
        (StencilOp::Zero, S::Zero),
        (StencilOp::Replace, S::Replace),
        (StencilOp::IncrSat, S::IncrementClamp),
        (StencilOp::DecrSat, S::DecrementClamp),
        (StencilOp::Invert, S::Invert),
        (StencilOp::Incr, S::IncrementWrap),
        (StencilOp::Decr, S::DecrementWrap),
    ] {
        for set in [RenderState::StencilFail(op), RenderState::StencilZFail(op)] {
            s.set(set);
        }
        s.set(RenderState::StencilEnable(true));
        let d = state(&s, T::Depth24PlusStencil8);
        assert_eq!(
            (d.stencil.front.fail_op, d.stencil.front.depth_fail_op),
            (wgpu, wgpu)
        );
        assert_eq!(d.stencil.back, d.stencil.front, "one-sided: both faces");
    }
    for (func, wgpu) in [
        (CompareFunction::Never, C::Never),
        (CompareFunction::Less, C::Less),
        (CompareFunction::Equal, C::Equal),
        (CompareFunction::LessEqual, C::LessEqual),
        (CompareFunction::Greater, C::Greater),
        (CompareFunction::NotEqual, C::NotEqual),
        (CompareFunction::GreaterEqual, C::GreaterEqual),
        (CompareFunction::Always, C::Always),
    ] {
        s.set(RenderState::StencilFunc(func));
        assert_eq!(
            state(&s, T::Depth24PlusStencil8).stencil.front.compare,
            wgpu
        );
    }
    s.set(RenderState::StencilMask(0x1f0));
    s.set(RenderState::StencilWriteMask(0x30f));
    s.set(RenderState::TwoSidedStencilMode(true));
    s.set(RenderState::CcwStencilFunc(CompareFunction::Less));
    s.set(RenderState::CcwStencilFail(StencilOp::Zero));
    s.set(RenderState::CcwStencilZFail(StencilOp::Invert));
    let d = state(&s, T::Depth24PlusStencil8);
    assert_eq!(
        (d.stencil.read_mask, d.stencil.write_mask),
        (0xf0, 0x0f),
        "8-bit masks"
    );
    assert_eq!(d.stencil.back.compare, C::Less);
    assert_eq!(
        (d.stencil.back.fail_op, d.stencil.back.depth_fail_op),
        (S::Zero, S::Invert)
    );
    assert_eq!(
        state(&s, T::Depth32Float).stencil,
        wgpu::StencilState::default(),
        "no stencil"
    );
}

#[test]
fn culling_keeps_d3d9s_clockwise_front() {
    use wgpu::{Face, FrontFace};
    assert_eq!(CullMode::None.primitive_state().1, None);
    assert_eq!(
        CullMode::Cw.primitive_state(),
        (FrontFace::Ccw, Some(Face::Back))
    );
    assert_eq!(
        CullMode::Ccw.primitive_state(),
        (FrontFace::Cw, Some(Face::Back))
    );
}

#[test]
fn rects_intersect() {
    let a = Rect {
        left: 0,
        top: 5,
        right: 10,
        bottom: 20,
    };
    let b = Rect {
        left: 4,
        top: 0,
        right: 30,
        bottom: 8,
    };
    assert_eq!(
        a.intersect(&b),
        Rect {
            left: 4,
            top: 5,
            right: 10,
            bottom: 8
        }
    );
}

#[test]
fn each_sampler_state_lands_in_its_own_field() {
    let defaults = SamplerStates::default();
    let mut all = defaults;
    for state in [
        SamplerState::AddressU(TextureAddress::Clamp),
        SamplerState::AddressV(TextureAddress::Mirror),
        SamplerState::AddressW(TextureAddress::Border),
        SamplerState::BorderColor(0xff00_0000),
        SamplerState::MagFilter(TextureFilter::Linear),
        SamplerState::MinFilter(TextureFilter::Anisotropic),
        SamplerState::MipFilter(MipFilter::Point),
        SamplerState::MaxMipLevel(2),
        SamplerState::MipMapLodBias(-0.5),
        SamplerState::MaxAnisotropy(4),
    ] {
        let before = all;
        all.set(state);
        assert_ne!(all, before, "{state:?}");
    }
    assert_eq!(
        all.address,
        [
            TextureAddress::Clamp,
            TextureAddress::Mirror,
            TextureAddress::Border
        ]
    );
}
