//! Render states, sampler states, viewport and scissor: D3D9's values, their defaults, and
//! the wgpu pipeline state they become. D3D9's raw numbers for them (`SetRenderState` and
//! `SetSamplerState` values) are mapped in `from_d3d`.

mod fourcc;
mod from_d3d;
mod sampler;

use d3d9_translator::lift::{CompareFunction, TextureWrap};

pub(crate) use fourcc::fourcc;
pub use fourcc::{FOURCC_A2M0, FOURCC_A2M1, FOURCC_ATOC, FOURCC_GET1, FOURCC_GET4};
pub(crate) use from_d3d::RawStateError;
pub use sampler::{sampler_descriptor, MipFilter, TextureAddress, TextureFilter};

/// `D3DRS_CULLMODE` (`D3DCULL`): which triangles D3D9 discards (its front face is clockwise). Winding is judged as
/// the triangle appears on screen; points and lines are never culled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CullMode {
    /// `D3DCULL_NONE`: every triangle is drawn.
    None,
    /// `D3DCULL_CW`: clockwise triangles are discarded.
    Cw,
    /// `D3DCULL_CCW` (the D3D9 default): counter-clockwise triangles are discarded.
    #[default]
    Ccw,
}

impl CullMode {
    /// The wgpu front face and cull mode with the same effect.
    pub fn primitive_state(self) -> (wgpu::FrontFace, Option<wgpu::Face>) {
        match self {
            CullMode::None => (wgpu::FrontFace::Cw, None),
            CullMode::Cw => (wgpu::FrontFace::Ccw, Some(wgpu::Face::Back)),
            CullMode::Ccw => (wgpu::FrontFace::Cw, Some(wgpu::Face::Back)),
        }
    }
}

/// `D3DFILLMODE`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FillMode {
    /// `D3DFILL_POINT`: triangles' vertices as one-pixel points, wgpu's `PolygonMode::Point`
    /// where the adapter has it.
    Point,
    /// `D3DFILL_WIREFRAME`: wgpu's `PolygonMode::Line` where the adapter has it.
    Wireframe,
    /// `D3DFILL_SOLID` (default).
    #[default]
    Solid,
}

/// `D3DSHADEMODE`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ShadeMode {
    /// `D3DSHADE_FLAT`: COLOR0 and COLOR1 are the first vertex's.
    Flat,
    /// `D3DSHADE_GOURAUD` (default).
    #[default]
    Gouraud,
}

/// `D3DBLEND`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Blend {
    Zero,
    One,
    SrcColor,
    InvSrcColor,
    SrcAlpha,
    InvSrcAlpha,
    DestAlpha,
    InvDestAlpha,
    DestColor,
    InvDestColor,
    SrcAlphaSat,
    /// `D3DBLEND_BOTHSRCALPHA`: source SRCALPHA and destination INVSRCALPHA (the
    /// destination factor is ignored).
    BothSrcAlpha,
    /// `D3DBLEND_BOTHINVSRCALPHA`: source INVSRCALPHA and destination SRCALPHA.
    BothInvSrcAlpha,
    /// `D3DBLEND_BLENDFACTOR`: `D3DRS_BLENDFACTOR`.
    BlendFactor,
    InvBlendFactor,
}

impl Blend {
    fn factor(self) -> wgpu::BlendFactor {
        use wgpu::BlendFactor as F;
        match self {
            Blend::Zero => F::Zero,
            Blend::One => F::One,
            Blend::SrcColor => F::Src,
            Blend::InvSrcColor => F::OneMinusSrc,
            Blend::SrcAlpha | Blend::BothSrcAlpha => F::SrcAlpha,
            Blend::InvSrcAlpha | Blend::BothInvSrcAlpha => F::OneMinusSrcAlpha,
            Blend::DestAlpha => F::DstAlpha,
            Blend::InvDestAlpha => F::OneMinusDstAlpha,
            Blend::DestColor => F::Dst,
            Blend::InvDestColor => F::OneMinusDst,
            Blend::SrcAlphaSat => F::SrcAlphaSaturated,
            Blend::BlendFactor => F::Constant,
            Blend::InvBlendFactor => F::OneMinusConstant,
        }
    }

    /// The same factor for the alpha channel (colour factors read their alpha).
    fn alpha_factor(self) -> wgpu::BlendFactor {
        use wgpu::BlendFactor as F;
        match self.factor() {
            F::Src => F::SrcAlpha,
            F::OneMinusSrc => F::OneMinusSrcAlpha,
            F::Dst => F::DstAlpha,
            F::OneMinusDst => F::OneMinusDstAlpha,
            other => other,
        }
    }
}

/// `D3DBLENDOP`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BlendOp {
    #[default]
    Add,
    Subtract,
    RevSubtract,
    Min,
    Max,
}

impl BlendOp {
    fn wgpu(self) -> wgpu::BlendOperation {
        match self {
            BlendOp::Add => wgpu::BlendOperation::Add,
            BlendOp::Subtract => wgpu::BlendOperation::Subtract,
            BlendOp::RevSubtract => wgpu::BlendOperation::ReverseSubtract,
            BlendOp::Min => wgpu::BlendOperation::Min,
            BlendOp::Max => wgpu::BlendOperation::Max,
        }
    }
}

/// `D3DSTENCILOP`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum StencilOp {
    #[default]
    Keep,
    Zero,
    Replace,
    IncrSat,
    DecrSat,
    Invert,
    Incr,
    Decr,
}

impl StencilOp {
    fn wgpu(self) -> wgpu::StencilOperation {
        use wgpu::StencilOperation as S;
        match self {
            StencilOp::Keep => S::Keep,
            StencilOp::Zero => S::Zero,
            StencilOp::Replace => S::Replace,
            StencilOp::IncrSat => S::IncrementClamp,
            StencilOp::DecrSat => S::DecrementClamp,
            StencilOp::Invert => S::Invert,
            StencilOp::Incr => S::IncrementWrap,
            StencilOp::Decr => S::DecrementWrap,
        }
    }
}

/// `D3DCMPFUNC` as wgpu's compare function.
pub(crate) fn compare(f: CompareFunction) -> wgpu::CompareFunction {
    use wgpu::CompareFunction as C;
    match f {
        CompareFunction::Never => C::Never,
        CompareFunction::Less => C::Less,
        CompareFunction::Equal => C::Equal,
        CompareFunction::LessEqual => C::LessEqual,
        CompareFunction::Greater => C::Greater,
        CompareFunction::NotEqual => C::NotEqual,
        CompareFunction::GreaterEqual => C::GreaterEqual,
        CompareFunction::Always => C::Always,
    }
}

/// `D3DFOGMODE` of `D3DRS_FOGTABLEMODE` / `D3DRS_FOGVERTEXMODE`.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum FogMode {
    #[default]
    None,
    Exp,
    Exp2,
    Linear,
}

/// One `SetRenderState(state, value)` call, typed. Every state that maps onto wgpu pipeline
/// state or onto the generated shader code is here; the device keeps the rest of D3D9's
/// render states at their defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RenderState {
    /// `D3DRS_ZENABLE` (default TRUE when a depth-stencil surface exists at creation; this
    /// device starts with TRUE and no depth-stencil surface, which tests nothing).
    ZEnable(bool),
    /// `D3DRS_ZWRITEENABLE` (default TRUE).
    ZWriteEnable(bool),
    /// `D3DRS_ZFUNC` (default LESSEQUAL).
    ZFunc(CompareFunction),
    /// `D3DRS_CULLMODE` (default CCW).
    CullMode(CullMode),
    /// `D3DRS_FILLMODE` (default SOLID).
    FillMode(FillMode),
    /// `D3DRS_SHADEMODE` (default GOURAUD).
    ShadeMode(ShadeMode),
    /// `D3DRS_ALPHABLENDENABLE` (default FALSE).
    AlphaBlendEnable(bool),
    /// `D3DRS_SRCBLEND` (default ONE).
    SrcBlend(Blend),
    /// `D3DRS_DESTBLEND` (default ZERO).
    DestBlend(Blend),
    /// `D3DRS_BLENDOP` (default ADD).
    BlendOp(BlendOp),
    /// `D3DRS_SEPARATEALPHABLENDENABLE` (default FALSE).
    SeparateAlphaBlendEnable(bool),
    /// `D3DRS_SRCBLENDALPHA` (default ONE).
    SrcBlendAlpha(Blend),
    /// `D3DRS_DESTBLENDALPHA` (default ZERO).
    DestBlendAlpha(Blend),
    /// `D3DRS_BLENDOPALPHA` (default ADD).
    BlendOpAlpha(BlendOp),
    /// `D3DRS_BLENDFACTOR`, a D3DCOLOR (default 0xFFFFFFFF).
    BlendFactor(u32),
    /// `D3DRS_ALPHATESTENABLE` (default FALSE).
    AlphaTestEnable(bool),
    /// `D3DRS_ALPHAFUNC` (default ALWAYS).
    AlphaFunc(CompareFunction),
    /// `D3DRS_ALPHAREF` (default 0); the alpha test uses its low 8 bits.
    AlphaRef(u32),
    /// `D3DRS_STENCILENABLE` (default FALSE).
    StencilEnable(bool),
    /// `D3DRS_STENCILFAIL` (default KEEP).
    StencilFail(StencilOp),
    /// `D3DRS_STENCILZFAIL` (default KEEP).
    StencilZFail(StencilOp),
    /// `D3DRS_STENCILPASS` (default KEEP).
    StencilPass(StencilOp),
    /// `D3DRS_STENCILFUNC` (default ALWAYS).
    StencilFunc(CompareFunction),
    /// `D3DRS_STENCILREF` (default 0).
    StencilRef(u32),
    /// `D3DRS_STENCILMASK` (default 0xFFFFFFFF).
    StencilMask(u32),
    /// `D3DRS_STENCILWRITEMASK` (default 0xFFFFFFFF).
    StencilWriteMask(u32),
    /// `D3DRS_TWOSIDEDSTENCILMODE` (default FALSE).
    TwoSidedStencilMode(bool),
    /// `D3DRS_CCW_STENCILFAIL` (default KEEP).
    CcwStencilFail(StencilOp),
    /// `D3DRS_CCW_STENCILZFAIL` (default KEEP).
    CcwStencilZFail(StencilOp),
    /// `D3DRS_CCW_STENCILPASS` (default KEEP).
    CcwStencilPass(StencilOp),
    /// `D3DRS_CCW_STENCILFUNC` (default ALWAYS).
    CcwStencilFunc(CompareFunction),
    /// `D3DRS_COLORWRITEENABLE`, `..1`, `..2`, `..3` for render target n: bits R=1, G=2,
    /// B=4, A=8 (default 0xF).
    ColorWriteEnable(usize, u32),
    /// `D3DRS_SCISSORTESTENABLE` (default FALSE).
    ScissorTestEnable(bool),
    /// `D3DRS_DEPTHBIAS` as its float (default 0).
    DepthBias(f32),
    /// `D3DRS_SLOPESCALEDEPTHBIAS` (default 0).
    SlopeScaleDepthBias(f32),
    /// `D3DRS_FOGENABLE` (default FALSE).
    FogEnable(bool),
    /// `D3DRS_FOGCOLOR`, a D3DCOLOR (default 0).
    FogColor(u32),
    /// `D3DRS_FOGTABLEMODE` (default NONE).
    FogTableMode(FogMode),
    /// `D3DRS_FOGVERTEXMODE` (default NONE).
    FogVertexMode(FogMode),
    /// `D3DRS_FOGSTART` (default 0).
    FogStart(f32),
    /// `D3DRS_FOGEND` (default 1).
    FogEnd(f32),
    /// `D3DRS_FOGDENSITY` (default 1).
    FogDensity(f32),
    /// `D3DRS_LIGHTING` (default TRUE). No lights can be set on this device, so lit vertices
    /// get the material's emissive + ambient: black, with the diffuse alpha.
    Lighting(bool),
    /// `D3DRS_TEXTUREFACTOR`, a D3DCOLOR (default 0xFFFFFFFF).
    TextureFactor(u32),
    /// `D3DRS_POINTSIZE` (default 1).
    PointSize(f32),
    /// `D3DRS_POINTSIZE_MIN` (default 1).
    PointSizeMin(f32),
    /// `D3DRS_POINTSIZE_MAX` (default 64).
    PointSizeMax(f32),
    /// `D3DRS_POINTSPRITEENABLE` (default FALSE).
    PointSpriteEnable(bool),
    /// `D3DRS_POINTSCALEENABLE` (default FALSE).
    PointScaleEnable(bool),
    /// `D3DRS_POINTSCALE_A`, `_B`, `_C` (defaults 1, 0, 0).
    PointScale([f32; 3]),
    /// `D3DRS_CLIPPLANEENABLE`: bit n enables user clip plane n (`SetClipPlane`); bits past
    /// the six planes are ignored. Default 0.
    ClipPlaneEnable(u32),
    /// `D3DRS_WRAP0`–`WRAP15` (set, `D3DWRAPCOORD_0..3` bits; default 0): the set's
    /// wrapped coordinates are interpolated the shortest way round (the translator's `wrap`).
    Wrap(usize, u8),
}

/// Every render state the device keeps, with D3D9's defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RenderStates {
    pub z_enable: bool,
    pub z_write: bool,
    pub z_func: CompareFunction,
    pub cull: CullMode,
    pub fill: FillMode,
    pub shade: ShadeMode,
    pub blend_enable: bool,
    pub src_blend: Blend,
    pub dest_blend: Blend,
    pub blend_op: BlendOp,
    pub separate_alpha: bool,
    pub src_blend_alpha: Blend,
    pub dest_blend_alpha: Blend,
    pub blend_op_alpha: BlendOp,
    pub blend_factor: u32,
    pub alpha_test: bool,
    pub alpha_func: CompareFunction,
    pub alpha_ref: u32,
    pub stencil_enable: bool,
    pub stencil_fail: StencilOp,
    pub stencil_z_fail: StencilOp,
    pub stencil_pass: StencilOp,
    pub stencil_func: CompareFunction,
    pub stencil_ref: u32,
    pub stencil_mask: u32,
    pub stencil_write_mask: u32,
    pub two_sided_stencil: bool,
    pub ccw_stencil_fail: StencilOp,
    pub ccw_stencil_z_fail: StencilOp,
    pub ccw_stencil_pass: StencilOp,
    pub ccw_stencil_func: CompareFunction,
    pub color_write: [u32; 4],
    pub scissor_test: bool,
    pub depth_bias: f32,
    pub slope_scale_depth_bias: f32,
    pub fog_enable: bool,
    pub fog_color: u32,
    pub fog_table_mode: FogMode,
    pub fog_vertex_mode: FogMode,
    pub fog_start: f32,
    pub fog_end: f32,
    pub fog_density: f32,
    pub lighting: bool,
    pub texture_factor: u32,
    pub point_size: f32,
    pub point_size_min: f32,
    pub point_size_max: f32,
    pub point_sprite: bool,
    pub point_scale: bool,
    pub point_scale_abc: [f32; 3],
    pub clip_plane_enable: u32,
    pub texture_wrap: TextureWrap,
}

impl Default for RenderStates {
    /// D3D9's defaults, from the render-state table (`raw_state::RENDER_STATES`), with
    /// `ZENABLE` TRUE.
    fn default() -> Self {
        RenderStates::from_raw(&super::raw_state::RawRenderStates::defaults(true))
    }
}

impl RenderStates {
    /// A starting value that `from_raw` overwrites field by field (every field has its raw
    /// state); not D3D9's defaults, which live in the table only.
    pub(crate) fn fallback() -> Self {
        RenderStates {
            z_enable: false,
            z_write: false,
            z_func: CompareFunction::LessEqual,
            cull: CullMode::Ccw,
            fill: FillMode::Solid,
            shade: ShadeMode::Gouraud,
            blend_enable: false,
            src_blend: Blend::One,
            dest_blend: Blend::Zero,
            blend_op: BlendOp::Add,
            separate_alpha: false,
            src_blend_alpha: Blend::One,
            dest_blend_alpha: Blend::Zero,
            blend_op_alpha: BlendOp::Add,
            blend_factor: 0,
            alpha_test: false,
            alpha_func: CompareFunction::Always,
            alpha_ref: 0,
            stencil_enable: false,
            stencil_fail: StencilOp::Keep,
            stencil_z_fail: StencilOp::Keep,
            stencil_pass: StencilOp::Keep,
            stencil_func: CompareFunction::Always,
            stencil_ref: 0,
            stencil_mask: 0,
            stencil_write_mask: 0,
            two_sided_stencil: false,
            ccw_stencil_fail: StencilOp::Keep,
            ccw_stencil_z_fail: StencilOp::Keep,
            ccw_stencil_pass: StencilOp::Keep,
            ccw_stencil_func: CompareFunction::Always,
            color_write: [0; 4],
            scissor_test: false,
            depth_bias: 0.0,
            slope_scale_depth_bias: 0.0,
            fog_enable: false,
            fog_color: 0,
            fog_table_mode: FogMode::None,
            fog_vertex_mode: FogMode::None,
            fog_start: 0.0,
            fog_end: 0.0,
            fog_density: 0.0,
            lighting: false,
            texture_factor: 0,
            point_size: 0.0,
            point_size_min: 0.0,
            point_size_max: 0.0,
            point_sprite: false,
            point_scale: false,
            point_scale_abc: [0.0; 3],
            clip_plane_enable: 0,
            texture_wrap: TextureWrap::default(),
        }
    }
}

impl RenderStates {
    /// The reference the alpha test compares with: the low 8 bits of `D3DRS_ALPHAREF` (D3D9
    /// masks the value: Wine's alphatest_test sets 0xff70 and expects 0x70's results, while
    /// `GetRenderState` still returns 0xff70, as `alpha_ref` does here).
    pub fn alpha_reference(&self) -> u32 {
        self.alpha_ref & 0xff
    }

    /// Applies one `SetRenderState`.
    pub fn set(&mut self, state: RenderState) {
        use RenderState as R;
        match state {
            R::ZEnable(v) => self.z_enable = v,
            R::ZWriteEnable(v) => self.z_write = v,
            R::ZFunc(v) => self.z_func = v,
            R::CullMode(v) => self.cull = v,
            R::FillMode(v) => self.fill = v,
            R::ShadeMode(v) => self.shade = v,
            R::AlphaBlendEnable(v) => self.blend_enable = v,
            R::SrcBlend(v) => self.src_blend = v,
            R::DestBlend(v) => self.dest_blend = v,
            R::BlendOp(v) => self.blend_op = v,
            R::SeparateAlphaBlendEnable(v) => self.separate_alpha = v,
            R::SrcBlendAlpha(v) => self.src_blend_alpha = v,
            R::DestBlendAlpha(v) => self.dest_blend_alpha = v,
            R::BlendOpAlpha(v) => self.blend_op_alpha = v,
            R::BlendFactor(v) => self.blend_factor = v,
            R::AlphaTestEnable(v) => self.alpha_test = v,
            R::AlphaFunc(v) => self.alpha_func = v,
            R::AlphaRef(v) => self.alpha_ref = v,
            R::StencilEnable(v) => self.stencil_enable = v,
            R::StencilFail(v) => self.stencil_fail = v,
            R::StencilZFail(v) => self.stencil_z_fail = v,
            R::StencilPass(v) => self.stencil_pass = v,
            R::StencilFunc(v) => self.stencil_func = v,
            R::StencilRef(v) => self.stencil_ref = v,
            R::StencilMask(v) => self.stencil_mask = v,
            R::StencilWriteMask(v) => self.stencil_write_mask = v,
            R::TwoSidedStencilMode(v) => self.two_sided_stencil = v,
            R::CcwStencilFail(v) => self.ccw_stencil_fail = v,
            R::CcwStencilZFail(v) => self.ccw_stencil_z_fail = v,
            R::CcwStencilPass(v) => self.ccw_stencil_pass = v,
            R::CcwStencilFunc(v) => self.ccw_stencil_func = v,
            R::ColorWriteEnable(target, v) => {
                if let Some(slot) = self.color_write.get_mut(target) {
                    *slot = v & 0xf;
                }
            }
            R::ScissorTestEnable(v) => self.scissor_test = v,
            R::DepthBias(v) => self.depth_bias = v,
            R::SlopeScaleDepthBias(v) => self.slope_scale_depth_bias = v,
            R::FogEnable(v) => self.fog_enable = v,
            R::FogColor(v) => self.fog_color = v,
            R::FogTableMode(v) => self.fog_table_mode = v,
            R::FogVertexMode(v) => self.fog_vertex_mode = v,
            R::FogStart(v) => self.fog_start = v,
            R::FogEnd(v) => self.fog_end = v,
            R::FogDensity(v) => self.fog_density = v,
            R::Lighting(v) => self.lighting = v,
            R::TextureFactor(v) => self.texture_factor = v,
            R::PointSize(v) => self.point_size = v,
            R::PointSizeMin(v) => self.point_size_min = v,
            R::PointSizeMax(v) => self.point_size_max = v,
            R::PointSpriteEnable(v) => self.point_sprite = v,
            R::PointScaleEnable(v) => self.point_scale = v,
            R::PointScale(v) => self.point_scale_abc = v,
            R::ClipPlaneEnable(v) => self.clip_plane_enable = v & 0x3f,
            R::Wrap(set, bits) => self.texture_wrap.0[set & 15] = bits,
        }
    }

    /// The blend state of render target `target`, `None` with blending off.
    pub(crate) fn blend(&self) -> Option<wgpu::BlendState> {
        if !self.blend_enable {
            return None;
        }
        // BOTHSRCALPHA / BOTHINVSRCALPHA set both factors from the source one.
        let pair = |src: Blend, dst: Blend| match src {
            Blend::BothSrcAlpha => (Blend::SrcAlpha, Blend::InvSrcAlpha),
            Blend::BothInvSrcAlpha => (Blend::InvSrcAlpha, Blend::SrcAlpha),
            _ => (src, dst),
        };
        // D3DBLENDOP_MIN / MAX ignore the factors (wgpu takes only One with them).
        let component = |src: wgpu::BlendFactor, dst: wgpu::BlendFactor, op: BlendOp| {
            let ignores = matches!(op, BlendOp::Min | BlendOp::Max);
            let one = wgpu::BlendFactor::One;
            wgpu::BlendComponent {
                src_factor: if ignores { one } else { src },
                dst_factor: if ignores { one } else { dst },
                operation: op.wgpu(),
            }
        };
        let (src, dst) = pair(self.src_blend, self.dest_blend);
        let color = component(src.factor(), dst.factor(), self.blend_op);
        let alpha = if self.separate_alpha {
            let (src, dst) = pair(self.src_blend_alpha, self.dest_blend_alpha);
            component(src.alpha_factor(), dst.alpha_factor(), self.blend_op_alpha)
        } else {
            component(src.alpha_factor(), dst.alpha_factor(), self.blend_op)
        };
        Some(wgpu::BlendState { color, alpha })
    }

    /// `D3DRS_COLORWRITEENABLE{,1,2,3}` of render target `target`.
    pub(crate) fn write_mask(&self, target: usize) -> wgpu::ColorWrites {
        let bits = self.color_write.get(target).copied().unwrap_or(0xf);
        wgpu::ColorWrites::from_bits_truncate(bits)
    }

    /// The depth-stencil state for a depth-stencil surface of `format` (`None`: no surface).
    pub(crate) fn depth_stencil(
        &self,
        format: Option<wgpu::TextureFormat>,
    ) -> Option<wgpu::DepthStencilState> {
        let format = format?;
        let (depth_compare, depth_write) = match self.z_enable {
            true => (compare(self.z_func), self.z_write),
            false => (wgpu::CompareFunction::Always, false),
        };
        let face =
            |func, fail: StencilOp, z_fail: StencilOp, pass: StencilOp| wgpu::StencilFaceState {
                compare: compare(func),
                fail_op: fail.wgpu(),
                depth_fail_op: z_fail.wgpu(),
                pass_op: pass.wgpu(),
            };
        let stencil = if self.stencil_enable && format.has_stencil_aspect() {
            // D3D9's front face is clockwise (the one CCW culling keeps).
            let cw = face(
                self.stencil_func,
                self.stencil_fail,
                self.stencil_z_fail,
                self.stencil_pass,
            );
            let ccw = match self.two_sided_stencil {
                true => face(
                    self.ccw_stencil_func,
                    self.ccw_stencil_fail,
                    self.ccw_stencil_z_fail,
                    self.ccw_stencil_pass,
                ),
                false => cw,
            };
            wgpu::StencilState {
                front: cw,
                back: ccw,
                read_mask: self.stencil_mask & 0xff,
                write_mask: self.stencil_write_mask & 0xff,
            }
        } else {
            wgpu::StencilState::default()
        };
        Some(wgpu::DepthStencilState {
            format,
            depth_write_enabled: Some(depth_write && format.has_depth_aspect()),
            depth_compare: Some(depth_compare),
            stencil,
            bias: self.depth_bias_state(format),
        })
    }

    /// `D3DRS_SLOPESCALEDEPTHBIAS`; `D3DRS_DEPTHBIAS`, a fraction of the depth range, is
    /// added by the vertex stage instead (`draw::targets`' `depth_bias_offset`): wgpu's
    /// constant bias counts the format's steps, which vary with the depth on float formats.
    fn depth_bias_state(&self, _format: wgpu::TextureFormat) -> wgpu::DepthBiasState {
        wgpu::DepthBiasState {
            constant: 0,
            slope_scale: self.slope_scale_depth_bias,
            clamp: 0.0,
        }
    }
}

/// `D3DVIEWPORT9`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
    pub min_z: f32,
    pub max_z: f32,
}

/// A `RECT` (left, top inclusive; right, bottom exclusive), for `SetScissorRect` and
/// `Clear`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rect {
    pub left: i32,
    pub top: i32,
    pub right: i32,
    pub bottom: i32,
}

impl Rect {
    /// The rectangle clipped to a `width` x `height` surface, as (x, y, width, height);
    /// `None` when nothing is left.
    pub(crate) fn clip(&self, width: u32, height: u32) -> Option<(u32, u32, u32, u32)> {
        let clamp = |v: i32, max: u32| v.clamp(0, i32::try_from(max).unwrap_or(i32::MAX)) as u32;
        let (l, t) = (clamp(self.left, width), clamp(self.top, height));
        let (r, b) = (clamp(self.right, width), clamp(self.bottom, height));
        (r > l && b > t).then(|| (l, t, r - l, b - t))
    }

    /// The intersection of two rectangles.
    pub(crate) fn intersect(&self, other: &Rect) -> Rect {
        Rect {
            left: self.left.max(other.left),
            top: self.top.max(other.top),
            right: self.right.min(other.right),
            bottom: self.bottom.min(other.bottom),
        }
    }
}

/// One sampler stage's `D3DSAMPLERSTATETYPE` values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SamplerStates {
    /// `D3DSAMP_ADDRESSU`, `_ADDRESSV`, `_ADDRESSW` (default WRAP).
    pub address: [TextureAddress; 3],
    /// `D3DSAMP_BORDERCOLOR`: a D3DCOLOR (default 0). wgpu has three border colours
    /// (transparent black, opaque black, opaque white); another colour is read in the shader
    /// (`draw/fixups.rs`).
    pub border_color: u32,
    /// `D3DSAMP_MAGFILTER` (default POINT).
    pub mag_filter: TextureFilter,
    /// `D3DSAMP_MINFILTER` (default POINT).
    pub min_filter: TextureFilter,
    /// `D3DSAMP_MIPFILTER` (default NONE).
    pub mip_filter: MipFilter,
    /// `D3DSAMP_MAXMIPLEVEL` (default 0).
    pub max_mip_level: u32,
    /// `D3DSAMP_MIPMAPLODBIAS` (default 0). wgpu samplers have no LOD bias: the shader adds
    /// it to the sample's level (`draw/fixups.rs`).
    pub mip_lod_bias: f32,
    /// `D3DSAMP_MAXANISOTROPY` (default 1), with an ANISOTROPIC filter.
    pub max_anisotropy: u32,
}

impl Default for SamplerStates {
    fn default() -> Self {
        SamplerStates {
            address: [TextureAddress::Wrap; 3],
            border_color: 0,
            mag_filter: TextureFilter::Point,
            min_filter: TextureFilter::Point,
            mip_filter: MipFilter::None,
            max_mip_level: 0,
            mip_lod_bias: 0.0,
            max_anisotropy: 1,
        }
    }
}

/// One `SetSamplerState(sampler, type, value)` call, typed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SamplerState {
    AddressU(TextureAddress),
    AddressV(TextureAddress),
    AddressW(TextureAddress),
    BorderColor(u32),
    MagFilter(TextureFilter),
    MinFilter(TextureFilter),
    MipFilter(MipFilter),
    MaxMipLevel(u32),
    MipMapLodBias(f32),
    MaxAnisotropy(u32),
}

impl SamplerStates {
    /// Applies one `SetSamplerState`.
    pub fn set(&mut self, state: SamplerState) {
        match state {
            SamplerState::AddressU(a) => self.address[0] = a,
            SamplerState::AddressV(a) => self.address[1] = a,
            SamplerState::AddressW(a) => self.address[2] = a,
            SamplerState::BorderColor(c) => self.border_color = c,
            SamplerState::MagFilter(f) => self.mag_filter = f,
            SamplerState::MinFilter(f) => self.min_filter = f,
            SamplerState::MipFilter(f) => self.mip_filter = f,
            SamplerState::MaxMipLevel(l) => self.max_mip_level = l,
            SamplerState::MipMapLodBias(b) => self.mip_lod_bias = b,
            SamplerState::MaxAnisotropy(n) => self.max_anisotropy = n,
        }
    }
}

#[cfg(test)]
mod tests;
