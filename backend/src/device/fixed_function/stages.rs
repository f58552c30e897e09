//! The texture stages of the fixed-function pixel stage, as D3D9 states them
//! (`D3DTSS_COLOROP`, `ALPHAOP`, their arguments, `RESULTARG`), and the per-draw description
//! the pixel stage is generated from ([`PixelStageKey`]).
//!
//! The raw `SetTextureStageState` values are the only source (`raw_state`); the key is
//! derived from them at draw time with the rules D3D9 drivers follow for stages that read a
//! texture that is not there (see [`stage_keys`]).

use d3d9_translator::bytecode::TextureType;

use super::super::raw_state::{RawStageStates, D3DTSS_ALPHAOP, D3DTSS_COLOROP, TEXTURE_STAGES};

/// `D3DTEXTUREOP`: a texture stage's colour or alpha operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StageOp {
    /// `D3DTOP_DISABLE` (1): as a colour operation, this stage and the later ones are off; as
    /// an alpha operation, the alpha passes through.
    Disable,
    /// `D3DTOP_SELECTARG1` (2).
    SelectArg1,
    /// `D3DTOP_SELECTARG2` (3).
    SelectArg2,
    /// `D3DTOP_MODULATE` (4): arg1 × arg2.
    Modulate,
    /// `D3DTOP_MODULATE2X` (5): arg1 × arg2 × 2, clamped.
    Modulate2x,
    /// `D3DTOP_MODULATE4X` (6): arg1 × arg2 × 4, clamped.
    Modulate4x,
    /// `D3DTOP_ADD` (7): arg1 + arg2, clamped.
    Add,
    /// `D3DTOP_ADDSIGNED` (8): arg1 + arg2 − 0.5, clamped.
    AddSigned,
    /// `D3DTOP_ADDSIGNED2X` (9): (arg1 + arg2 − 0.5) × 2, clamped.
    AddSigned2x,
    /// `D3DTOP_SUBTRACT` (10): arg1 − arg2, clamped.
    Subtract,
    /// `D3DTOP_ADDSMOOTH` (11): arg1 + arg2 − arg1 × arg2, clamped.
    AddSmooth,
    /// `D3DTOP_BLENDDIFFUSEALPHA` (12): arg1 × α + arg2 × (1 − α), α the diffuse alpha.
    BlendDiffuseAlpha,
    /// `D3DTOP_BLENDTEXTUREALPHA` (13): α of the stage's texture.
    BlendTextureAlpha,
    /// `D3DTOP_BLENDFACTORALPHA` (14): α of `D3DRS_TEXTUREFACTOR`.
    BlendFactorAlpha,
    /// `D3DTOP_BLENDTEXTUREALPHAPM` (15): arg1 + arg2 × (1 − texture α), clamped.
    BlendTextureAlphaPm,
    /// `D3DTOP_BLENDCURRENTALPHA` (16): α of the current colour.
    BlendCurrentAlpha,
    /// `D3DTOP_PREMODULATE` (17): arg1; the next stage's CURRENT is multiplied by that
    /// stage's texture.
    PreModulate,
    /// `D3DTOP_MODULATEALPHA_ADDCOLOR` (18): arg1 + arg1.α × arg2, clamped.
    ModulateAlphaAddColor,
    /// `D3DTOP_MODULATECOLOR_ADDALPHA` (19): arg1 × arg2 + arg1.α, clamped.
    ModulateColorAddAlpha,
    /// `D3DTOP_MODULATEINVALPHA_ADDCOLOR` (20): arg1 + (1 − arg1.α) × arg2, clamped.
    ModulateInvAlphaAddColor,
    /// `D3DTOP_MODULATEINVCOLOR_ADDALPHA` (21): (1 − arg1) × arg2 + arg1.α, clamped.
    ModulateInvColorAddAlpha,
    /// `D3DTOP_BUMPENVMAP` (22): this stage's texture (du, dv) displaces the next stage's
    /// coordinate by `D3DTSS_BUMPENVMAT00..11`; the colour passes through.
    BumpEnvMap,
    /// `D3DTOP_BUMPENVMAPLUMINANCE` (23): as BUMPENVMAP, and the next stage's texel is scaled
    /// by `clamp(l × LSCALE + LOFFSET, 0, 1)`, l this stage's texel's third channel.
    BumpEnvMapLuminance,
    /// `D3DTOP_DOTPRODUCT3` (24): 4 × (arg1.rgb − 0.5) · (arg2.rgb − 0.5), clamped, in every
    /// channel (the alpha too, whatever the alpha operation).
    DotProduct3,
    /// `D3DTOP_MULTIPLYADD` (25): arg1 × arg2 + arg0, clamped.
    MultiplyAdd,
    /// `D3DTOP_LERP` (26): arg0 × arg1 + (1 − arg0) × arg2.
    Lerp,
}

impl StageOp {
    /// The operation of D3D9's number (1–26).
    pub fn from_d3d(value: u32) -> Option<StageOp> {
        use StageOp::*;
        const ALL: [StageOp; 26] = [
            Disable,
            SelectArg1,
            SelectArg2,
            Modulate,
            Modulate2x,
            Modulate4x,
            Add,
            AddSigned,
            AddSigned2x,
            Subtract,
            AddSmooth,
            BlendDiffuseAlpha,
            BlendTextureAlpha,
            BlendFactorAlpha,
            BlendTextureAlphaPm,
            BlendCurrentAlpha,
            PreModulate,
            ModulateAlphaAddColor,
            ModulateColorAddAlpha,
            ModulateInvAlphaAddColor,
            ModulateInvColorAddAlpha,
            BumpEnvMap,
            BumpEnvMapLuminance,
            DotProduct3,
            MultiplyAdd,
            Lerp,
        ];
        let index = usize::try_from(value.checked_sub(1)?).ok()?;
        ALL.get(index).copied()
    }

    /// D3D9's number of the operation.
    pub fn to_d3d(self) -> u32 {
        self as u32 + 1
    }

    /// Which of arg0, arg1, arg2 the operation reads (bits 0, 1, 2).
    pub(crate) fn args_read(self) -> u8 {
        match self {
            StageOp::Disable | StageOp::BumpEnvMap | StageOp::BumpEnvMapLuminance => 0b000,
            StageOp::SelectArg1 | StageOp::PreModulate => 0b010,
            StageOp::SelectArg2 => 0b100,
            StageOp::MultiplyAdd | StageOp::Lerp => 0b111,
            _ => 0b110,
        }
    }

    /// Whether the operation reads the stage's texture without naming it as an argument.
    pub(crate) fn reads_texture_itself(self) -> bool {
        matches!(
            self,
            StageOp::BlendTextureAlpha
                | StageOp::BlendTextureAlphaPm
                | StageOp::BumpEnvMap
                | StageOp::BumpEnvMapLuminance
        )
    }

    /// BUMPENVMAP or BUMPENVMAPLUMINANCE.
    pub(crate) fn is_bump(self) -> bool {
        matches!(self, StageOp::BumpEnvMap | StageOp::BumpEnvMapLuminance)
    }
}

/// `D3DTA_*`: the register a texture stage argument selects (`D3DTA_SELECTMASK`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StageArg {
    /// `D3DTA_DIFFUSE` (0): the interpolated COLOR0, clamped.
    Diffuse,
    /// `D3DTA_CURRENT` (1): the previous stage's result (the diffuse for stage 0).
    Current,
    /// `D3DTA_TEXTURE` (2): the stage's texture (sampler n for stage n).
    Texture,
    /// `D3DTA_TFACTOR` (3): `D3DRS_TEXTUREFACTOR`.
    TFactor,
    /// `D3DTA_SPECULAR` (4): the interpolated COLOR1, clamped.
    Specular,
    /// `D3DTA_TEMP` (5): the register stages write with `D3DTSS_RESULTARG` TEMP; (0, 0, 0, 0)
    /// before.
    Temp,
    /// `D3DTA_CONSTANT` (6): the stage's `D3DTSS_CONSTANT`.
    Constant,
}

impl StageArg {
    /// The register of `D3DTA_*` `value & D3DTA_SELECTMASK`.
    pub fn from_d3d(value: u32) -> Option<StageArg> {
        Some(match value & 0xf {
            0 => StageArg::Diffuse,
            1 => StageArg::Current,
            2 => StageArg::Texture,
            3 => StageArg::TFactor,
            4 => StageArg::Specular,
            5 => StageArg::Temp,
            6 => StageArg::Constant,
            _ => return None,
        })
    }

    /// D3D9's number of the register.
    pub fn to_d3d(self) -> u32 {
        self as u32
    }
}

/// `D3DTA_COMPLEMENT`: the argument is 1 − value.
pub(crate) const D3DTA_COMPLEMENT: u32 = 0x10;
/// `D3DTA_ALPHAREPLICATE`: the argument's alpha in every channel.
pub(crate) const D3DTA_ALPHAREPLICATE: u32 = 0x20;

/// A texture stage's colour operation and its two arguments, the typed form of
/// `D3DTSS_COLOROP`, `COLORARG1` and `COLORARG2` ([`super::super::Device::set_texture_stage`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TextureStage {
    pub op: StageOp,
    pub arg1: StageArg,
    pub arg2: StageArg,
}

impl TextureStage {
    /// D3D9's defaults: stage 0 `MODULATE(TEXTURE, CURRENT)`, the others `DISABLE`.
    pub fn default_for(stage: usize) -> TextureStage {
        TextureStage {
            op: if stage == 0 {
                StageOp::Modulate
            } else {
                StageOp::Disable
            },
            arg1: StageArg::Texture,
            arg2: StageArg::Current,
        }
    }
}

/// One argument as a stage reads it: the register and its modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Arg {
    pub(crate) source: StageArg,
    pub(crate) complement: bool,
    pub(crate) alpha_replicate: bool,
}

impl Arg {
    /// The argument of a raw `D3DTA_*` value (an unknown register reads as CURRENT, which
    /// the caller has refused before: see [`stage_keys`]).
    fn of(value: u32) -> Arg {
        Arg {
            source: StageArg::from_d3d(value).unwrap_or(StageArg::Current),
            complement: value & D3DTA_COMPLEMENT != 0,
            alpha_replicate: value & D3DTA_ALPHAREPLICATE != 0,
        }
    }

    const CURRENT: Arg = Arg {
        source: StageArg::Current,
        complement: false,
        alpha_replicate: false,
    };
}

/// An operation with the arguments it reads (unread arguments are CURRENT, so that states
/// an operation ignores do not change the key).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Operation {
    pub(crate) op: StageOp,
    /// arg0, arg1, arg2.
    pub(crate) args: [Arg; 3],
}

impl Operation {
    fn of(op: StageOp, raw: [u32; 3]) -> Operation {
        let read = op.args_read();
        let mut args = [Arg::CURRENT; 3];
        for (i, arg) in args.iter_mut().enumerate() {
            if read & (1 << i) != 0 {
                *arg = Arg::of(raw[i]);
            }
        }
        Operation { op, args }
    }

    /// Whether the operation reads the stage's texture (as an argument or by itself).
    pub(crate) fn reads_texture(&self) -> bool {
        self.op.reads_texture_itself() || self.args.iter().any(|a| a.source == StageArg::Texture)
    }

    /// Whether an argument it reads is TEXTURE (what disables a stage without a texture).
    fn names_texture(&self) -> bool {
        self.args.iter().any(|a| a.source == StageArg::Texture)
    }
}

/// One active texture stage of a draw, as the generated pixel stage computes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct StageKey {
    pub(crate) color: Operation,
    /// `None`: `D3DTOP_DISABLE`, the alpha passes through.
    pub(crate) alpha: Option<Operation>,
    /// `D3DTSS_RESULTARG` is TEMP (never on the last active stage, which always writes
    /// CURRENT).
    pub(crate) result_temp: bool,
    /// The type of the texture the stage samples; `None` when the stage reads no texture or
    /// none is set (it then reads (0, 0, 0, 0), as Windows' null texture).
    pub(crate) texture: Option<TextureType>,
    /// `D3DTTFF_PROJECTED` in `D3DTSS_TEXTURETRANSFORMFLAGS`: the coordinate is divided by
    /// its w before sampling.
    pub(crate) projected: bool,
}

/// `D3DTSS_*` numbers read here.
const COLORARG1: u32 = 2;
const COLORARG2: u32 = 3;
const ALPHAARG1: u32 = 5;
const ALPHAARG2: u32 = 6;
const COLORARG0: u32 = 26;
const ALPHAARG0: u32 = 27;
const RESULTARG: u32 = 28;
const TEXTURETRANSFORMFLAGS: u32 = 24;
/// `D3DTTFF_PROJECTED`.
pub(crate) const D3DTTFF_PROJECTED: u32 = 256;

/// The texture stages a draw runs, from the raw stage states and the types of the textures
/// set on samplers 0–7 (`None`: no texture), with D3D9's rules:
/// - stages run up to the first whose colour operation is DISABLE;
/// - a stage with no texture whose colour operation reads TEXTURE as an argument is off,
///   with every later stage (what DXVK found Windows does); an alpha operation reading
///   TEXTURE as an argument becomes SELECTARG1(CURRENT) (wined3d's rule; Windows in Wine's
///   test_per_stage_constant); BLENDTEXTUREALPHA-style operations read (0, 0, 0, 0);
/// - stage 0 writing TEMP with its alpha operation DISABLE takes the diffuse alpha;
/// - the last active stage always writes CURRENT.
///
/// `Err` names a state value D3D9 does not define (an unknown operation or register).
pub(crate) fn stage_keys(
    raw: &[RawStageStates; TEXTURE_STAGES],
    textures: &[Option<TextureType>; TEXTURE_STAGES],
) -> Result<Vec<StageKey>, String> {
    let mut keys = Vec::new();
    for (n, stage) in raw.iter().enumerate() {
        let op = |ty: u32| {
            let value = stage.get(ty);
            StageOp::from_d3d(value).ok_or_else(|| {
                let name = if ty == D3DTSS_COLOROP {
                    "COLOROP"
                } else {
                    "ALPHAOP"
                };
                format!("D3DTSS_{name} {value} on stage {n}")
            })
        };
        let color_op = op(D3DTSS_COLOROP)?;
        if color_op == StageOp::Disable {
            break;
        }
        let alpha_op = op(D3DTSS_ALPHAOP)?;
        for ty in [
            COLORARG0, COLORARG1, COLORARG2, ALPHAARG0, ALPHAARG1, ALPHAARG2,
        ] {
            let value = stage.get(ty);
            if StageArg::from_d3d(value).is_none() || value & !0x3f != 0 {
                return Err(format!("texture argument {value:#x} on stage {n}"));
            }
        }
        let color = Operation::of(
            color_op,
            [COLORARG0, COLORARG1, COLORARG2].map(|t| stage.get(t)),
        );
        let texture = textures[n];
        if texture.is_none() && color.names_texture() {
            break;
        }
        let result_temp = match stage.get(RESULTARG) {
            1 => false,
            5 => true,
            v => return Err(format!("D3DTSS_RESULTARG {v:#x} on stage {n}")),
        };
        let mut alpha = (alpha_op != StageOp::Disable).then(|| {
            Operation::of(
                alpha_op,
                [ALPHAARG0, ALPHAARG1, ALPHAARG2].map(|t| stage.get(t)),
            )
        });
        if texture.is_none() && alpha.is_some_and(|a| a.names_texture()) {
            alpha = Some(Operation::of(StageOp::SelectArg1, [1, 1, 1]));
        }
        if n == 0 && result_temp && alpha.is_none() {
            alpha = Some(Operation::of(StageOp::SelectArg1, [0, 0, 0]));
        }
        let previous_premodulates = keys
            .last()
            .is_some_and(|k: &StageKey| k.color.op == StageOp::PreModulate);
        let reads = color.reads_texture()
            || alpha.is_some_and(|a| a.reads_texture())
            || previous_premodulates;
        keys.push(StageKey {
            color,
            alpha,
            result_temp,
            texture: texture.filter(|_| reads),
            projected: stage.get(TEXTURETRANSFORMFLAGS) & D3DTTFF_PROJECTED != 0,
        });
    }
    if let Some(last) = keys.last_mut() {
        last.result_temp = false;
    }
    // A bump stage's texture feeds the next stage's coordinate: it is sampled even when no
    // argument names it.
    Ok(keys)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw() -> [RawStageStates; TEXTURE_STAGES] {
        std::array::from_fn(RawStageStates::defaults)
    }

    #[test]
    fn operations_round_trip_d3d9_numbers() {
        for n in 1..=26 {
            assert_eq!(StageOp::from_d3d(n).map(StageOp::to_d3d), Some(n));
        }
        assert_eq!(StageOp::from_d3d(0), None);
        assert_eq!(StageOp::from_d3d(27), None);
        assert_eq!(StageArg::from_d3d(0x26), Some(StageArg::Constant));
        assert_eq!(StageArg::from_d3d(7), None);
    }

    #[test]
    fn default_stage_zero_without_a_texture_is_off() {
        let keys = stage_keys(&raw(), &[None; 8]);
        assert_eq!(keys, Ok(Vec::new()));
        let mut textures = [None; 8];
        textures[0] = Some(TextureType::TwoD);
        let keys = stage_keys(&raw(), &textures).unwrap_or_default();
        assert_eq!(keys.len(), 1);
        assert_eq!(keys[0].texture, Some(TextureType::TwoD));
        assert!(keys[0].alpha.is_some_and(|a| a.op == StageOp::SelectArg1));
    }

    #[test]
    fn the_last_stage_writes_current_and_unknown_values_are_named() {
        let mut r = raw();
        r[0].set(D3DTSS_COLOROP, StageOp::SelectArg1.to_d3d());
        r[0].set(COLORARG1, 3);
        r[0].set(RESULTARG, 5);
        let keys = stage_keys(&r, &[None; 8]).unwrap_or_default();
        assert_eq!(keys.len(), 1);
        assert!(!keys[0].result_temp);
        r[0].set(D3DTSS_ALPHAOP, 40);
        assert!(stage_keys(&r, &[None; 8]).is_err());
    }

    fn arg(source: StageArg) -> Arg {
        Arg {
            source,
            ..Arg::CURRENT
        }
    }

    /// An operation keeps only the arguments it reads (the others read as CURRENT, so that
    /// states it ignores do not change the key).
    #[test]
    fn operations_keep_the_arguments_they_read() {
        use StageArg::{Diffuse, TFactor, Texture};
        let raw = [0, 2, 3]; // arg0 DIFFUSE, arg1 TEXTURE, arg2 TFACTOR
        let c = arg(StageArg::Current);
        for (op, args) in [
            (StageOp::Disable, [c, c, c]),
            (StageOp::BumpEnvMap, [c, c, c]),
            (StageOp::BumpEnvMapLuminance, [c, c, c]),
            (StageOp::SelectArg1, [c, arg(Texture), c]),
            (StageOp::PreModulate, [c, arg(Texture), c]),
            (StageOp::SelectArg2, [c, c, arg(TFactor)]),
            (StageOp::Modulate, [c, arg(Texture), arg(TFactor)]),
            (
                StageOp::MultiplyAdd,
                [arg(Diffuse), arg(Texture), arg(TFactor)],
            ),
            (StageOp::Lerp, [arg(Diffuse), arg(Texture), arg(TFactor)]),
        ] {
            assert_eq!(Operation::of(op, raw).args, args, "{op:?}");
        }
        // The modifiers come with the register.
        let a = Operation::of(StageOp::SelectArg1, [0, 0x33, 0]).args[1];
        assert_eq!(
            (a.source, a.complement, a.alpha_replicate),
            (TFactor, true, true)
        );
        let a = Operation::of(StageOp::SelectArg1, [0, 0x12, 0]).args[1];
        assert_eq!(
            (a.source, a.complement, a.alpha_replicate),
            (Texture, true, false)
        );
    }

    /// An operation reads the stage's texture where an argument it reads is TEXTURE, or where
    /// it reads the texture by itself (its alpha, or a bump map's texel).
    #[test]
    fn which_operations_read_the_texture() {
        for op in [
            StageOp::BlendTextureAlpha,
            StageOp::BlendTextureAlphaPm,
            StageOp::BumpEnvMap,
            StageOp::BumpEnvMapLuminance,
        ] {
            assert!(op.reads_texture_itself(), "{op:?}");
            assert!(Operation::of(op, [0; 3]).reads_texture(), "{op:?}");
        }
        for op in [
            StageOp::Modulate,
            StageOp::BlendDiffuseAlpha,
            StageOp::SelectArg1,
        ] {
            assert!(!op.reads_texture_itself(), "{op:?}");
            assert!(!Operation::of(op, [0, 3, 1]).reads_texture(), "{op:?}");
        }
        assert!(Operation::of(StageOp::Modulate, [0, 3, 2]).reads_texture());
        assert!(!Operation::of(StageOp::SelectArg1, [0, 3, 2]).reads_texture());
    }

    #[test]
    fn stage_0_modulates_and_the_others_are_off_by_default() {
        let zero = TextureStage::default_for(0);
        assert_eq!(zero.op, StageOp::Modulate);
        assert_eq!(
            (zero.arg1, zero.arg2),
            (StageArg::Texture, StageArg::Current)
        );
        for n in 1..8 {
            assert_eq!(
                TextureStage::default_for(n).op,
                StageOp::Disable,
                "stage {n}"
            );
        }
    }

    /// A stage samples its texture only where it reads it, or where the stage before it
    /// premodulates; an argument that names TEXTURE without being read does not turn a stage
    /// without a texture off; D3DTTFF_PROJECTED is kept per stage.
    #[test]
    fn stages_sample_what_they_read() {
        let two_d = Some(TextureType::TwoD);
        let mut r = raw();
        r[0].set(D3DTSS_COLOROP, StageOp::SelectArg1.to_d3d());
        r[0].set(COLORARG1, 0); // DIFFUSE; COLORARG2 TEXTURE, not read
        r[0].set(COLORARG2, 2);
        r[0].set(ALPHAARG1, 0);
        let keys = stage_keys(&r, &[None; 8]).unwrap_or_default();
        assert_eq!(keys.len(), 1, "SELECTARG1 does not read arg2's TEXTURE");
        let keys = stage_keys(&r, &[two_d; 8]).unwrap_or_default();
        assert_eq!(keys[0].texture, None, "not sampled");
        assert!(!keys[0].projected);
        // Stage 0 premodulates: stage 1 samples its texture without naming it.
        r[0].set(D3DTSS_COLOROP, StageOp::PreModulate.to_d3d());
        r[1].set(D3DTSS_COLOROP, StageOp::SelectArg1.to_d3d());
        r[1].set(COLORARG1, 0);
        r[1].set(D3DTSS_ALPHAOP, StageOp::SelectArg1.to_d3d());
        r[1].set(ALPHAARG1, 0);
        r[1].set(TEXTURETRANSFORMFLAGS, D3DTTFF_PROJECTED | 2);
        let keys = stage_keys(&r, &[two_d; 8]).unwrap_or_default();
        assert_eq!(keys.len(), 2);
        assert_eq!(keys[1].texture, two_d, "after PREMODULATE");
        assert!(keys[1].projected);
        r[0].set(D3DTSS_COLOROP, StageOp::SelectArg1.to_d3d());
        let keys = stage_keys(&r, &[two_d; 8]).unwrap_or_default();
        assert_eq!(keys[1].texture, None);
    }

    /// Stage 0 writing TEMP with its alpha operation DISABLE takes the diffuse alpha; a later
    /// stage's DISABLE passes the alpha through.
    #[test]
    fn stage_0_writing_temp_takes_the_diffuse_alpha() {
        let mut r = raw();
        for stage in r.iter_mut().take(2) {
            stage.set(D3DTSS_COLOROP, StageOp::SelectArg1.to_d3d());
            stage.set(COLORARG1, 3);
            stage.set(D3DTSS_ALPHAOP, StageOp::Disable.to_d3d());
            stage.set(RESULTARG, 5);
        }
        r[2].set(D3DTSS_COLOROP, StageOp::SelectArg1.to_d3d());
        r[2].set(COLORARG1, 5);
        let keys = stage_keys(&r, &[None; 8]).unwrap_or_default();
        assert_eq!(keys.len(), 3);
        let diffuse = Operation::of(StageOp::SelectArg1, [0, 0, 0]);
        assert_eq!(keys[0].alpha, Some(diffuse));
        assert!(keys[0].result_temp && keys[1].result_temp);
        assert_eq!(keys[1].alpha, None);
    }

    /// Values D3D9 does not define are named: the operation's state, a register past
    /// CONSTANT, a modifier bit past ALPHAREPLICATE.
    #[test]
    fn undefined_values_are_named() {
        let mut r = raw();
        r[0].set(D3DTSS_COLOROP, 27);
        assert_eq!(
            stage_keys(&r, &[None; 8]),
            Err("D3DTSS_COLOROP 27 on stage 0".to_string())
        );
        r[0].set(D3DTSS_COLOROP, StageOp::SelectArg1.to_d3d());
        r[0].set(D3DTSS_ALPHAOP, 0);
        assert_eq!(
            stage_keys(&r, &[None; 8]),
            Err("D3DTSS_ALPHAOP 0 on stage 0".to_string())
        );
        r[0].set(D3DTSS_ALPHAOP, StageOp::SelectArg1.to_d3d());
        for value in [7, 0x40] {
            r[0].set(COLORARG2, value);
            assert_eq!(
                stage_keys(&r, &[None; 8]),
                Err(format!("texture argument {value:#x} on stage 0"))
            );
        }
    }
}
