//! D3D9's state numbers and defaults, once: every `D3DRENDERSTATETYPE`,
//! `D3DSAMPLERSTATETYPE` and `D3DTEXTURESTAGESTATETYPE` with its name and default value, and
//! the raw values the device holds for each (what `Get*State` returns, whatever the device
//! does with it). The typed states the draws read (`state::RenderStates`,
//! `state::SamplerStates`, the fixed-function texture stages) are derived from these values.

/// One state of a D3D9 state table: its number, its SDK name and its default value (floats
/// as their bit patterns).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateInfo {
    pub number: u32,
    pub name: &'static str,
    pub default: u32,
}

const fn s(number: u32, name: &'static str, default: u32) -> StateInfo {
    StateInfo {
        number,
        name,
        default,
    }
}

const ONE: u32 = 0x3f80_0000;
const SIXTY_FOUR: u32 = 0x4280_0000;

/// `D3DRS_ZENABLE`: its default is `D3DZB_TRUE` when the device was created with
/// `EnableAutoDepthStencil`, else `D3DZB_FALSE` (the table holds TRUE).
pub const D3DRS_ZENABLE: u32 = 7;

/// Every `D3DRENDERSTATETYPE`, with the default a new device (and `D3DSBT_ALL`) has.
pub const RENDER_STATES: &[StateInfo] = &[
    s(7, "D3DRS_ZENABLE", 1),
    s(8, "D3DRS_FILLMODE", 3),
    s(9, "D3DRS_SHADEMODE", 2),
    s(14, "D3DRS_ZWRITEENABLE", 1),
    s(15, "D3DRS_ALPHATESTENABLE", 0),
    s(16, "D3DRS_LASTPIXEL", 1),
    s(19, "D3DRS_SRCBLEND", 2),
    s(20, "D3DRS_DESTBLEND", 1),
    s(22, "D3DRS_CULLMODE", 3),
    s(23, "D3DRS_ZFUNC", 4),
    s(24, "D3DRS_ALPHAREF", 0),
    s(25, "D3DRS_ALPHAFUNC", 8),
    s(26, "D3DRS_DITHERENABLE", 0),
    s(27, "D3DRS_ALPHABLENDENABLE", 0),
    s(28, "D3DRS_FOGENABLE", 0),
    s(29, "D3DRS_SPECULARENABLE", 0),
    s(34, "D3DRS_FOGCOLOR", 0),
    s(35, "D3DRS_FOGTABLEMODE", 0),
    s(36, "D3DRS_FOGSTART", 0),
    s(37, "D3DRS_FOGEND", ONE),
    s(38, "D3DRS_FOGDENSITY", ONE),
    s(48, "D3DRS_RANGEFOGENABLE", 0),
    s(52, "D3DRS_STENCILENABLE", 0),
    s(53, "D3DRS_STENCILFAIL", 1),
    s(54, "D3DRS_STENCILZFAIL", 1),
    s(55, "D3DRS_STENCILPASS", 1),
    s(56, "D3DRS_STENCILFUNC", 8),
    s(57, "D3DRS_STENCILREF", 0),
    s(58, "D3DRS_STENCILMASK", 0xffff_ffff),
    s(59, "D3DRS_STENCILWRITEMASK", 0xffff_ffff),
    s(60, "D3DRS_TEXTUREFACTOR", 0xffff_ffff),
    s(128, "D3DRS_WRAP0", 0),
    s(129, "D3DRS_WRAP1", 0),
    s(130, "D3DRS_WRAP2", 0),
    s(131, "D3DRS_WRAP3", 0),
    s(132, "D3DRS_WRAP4", 0),
    s(133, "D3DRS_WRAP5", 0),
    s(134, "D3DRS_WRAP6", 0),
    s(135, "D3DRS_WRAP7", 0),
    s(136, "D3DRS_CLIPPING", 1),
    s(137, "D3DRS_LIGHTING", 1),
    s(139, "D3DRS_AMBIENT", 0),
    s(140, "D3DRS_FOGVERTEXMODE", 0),
    s(141, "D3DRS_COLORVERTEX", 1),
    s(142, "D3DRS_LOCALVIEWER", 1),
    s(143, "D3DRS_NORMALIZENORMALS", 0),
    s(145, "D3DRS_DIFFUSEMATERIALSOURCE", 1),
    s(146, "D3DRS_SPECULARMATERIALSOURCE", 2),
    s(147, "D3DRS_AMBIENTMATERIALSOURCE", 0),
    s(148, "D3DRS_EMISSIVEMATERIALSOURCE", 0),
    s(151, "D3DRS_VERTEXBLEND", 0),
    s(152, "D3DRS_CLIPPLANEENABLE", 0),
    s(154, "D3DRS_POINTSIZE", ONE),
    s(155, "D3DRS_POINTSIZE_MIN", ONE),
    s(156, "D3DRS_POINTSPRITEENABLE", 0),
    s(157, "D3DRS_POINTSCALEENABLE", 0),
    s(158, "D3DRS_POINTSCALE_A", ONE),
    s(159, "D3DRS_POINTSCALE_B", 0),
    s(160, "D3DRS_POINTSCALE_C", 0),
    s(161, "D3DRS_MULTISAMPLEANTIALIAS", 1),
    s(162, "D3DRS_MULTISAMPLEMASK", 0xffff_ffff),
    s(163, "D3DRS_PATCHEDGESTYLE", 0),
    s(165, "D3DRS_DEBUGMONITORTOKEN", 0xbaad_cafe),
    s(166, "D3DRS_POINTSIZE_MAX", SIXTY_FOUR),
    s(167, "D3DRS_INDEXEDVERTEXBLENDENABLE", 0),
    s(168, "D3DRS_COLORWRITEENABLE", 0xf),
    s(170, "D3DRS_TWEENFACTOR", 0),
    s(171, "D3DRS_BLENDOP", 1),
    s(172, "D3DRS_POSITIONDEGREE", 3),
    s(173, "D3DRS_NORMALDEGREE", 1),
    s(174, "D3DRS_SCISSORTESTENABLE", 0),
    s(175, "D3DRS_SLOPESCALEDEPTHBIAS", 0),
    s(176, "D3DRS_ANTIALIASEDLINEENABLE", 0),
    s(178, "D3DRS_MINTESSELLATIONLEVEL", ONE),
    s(179, "D3DRS_MAXTESSELLATIONLEVEL", ONE),
    s(180, "D3DRS_ADAPTIVETESS_X", 0),
    s(181, "D3DRS_ADAPTIVETESS_Y", 0),
    s(182, "D3DRS_ADAPTIVETESS_Z", ONE),
    s(183, "D3DRS_ADAPTIVETESS_W", 0),
    s(184, "D3DRS_ENABLEADAPTIVETESSELLATION", 0),
    s(185, "D3DRS_TWOSIDEDSTENCILMODE", 0),
    s(186, "D3DRS_CCW_STENCILFAIL", 1),
    s(187, "D3DRS_CCW_STENCILZFAIL", 1),
    s(188, "D3DRS_CCW_STENCILPASS", 1),
    s(189, "D3DRS_CCW_STENCILFUNC", 8),
    s(190, "D3DRS_COLORWRITEENABLE1", 0xf),
    s(191, "D3DRS_COLORWRITEENABLE2", 0xf),
    s(192, "D3DRS_COLORWRITEENABLE3", 0xf),
    s(193, "D3DRS_BLENDFACTOR", 0xffff_ffff),
    s(194, "D3DRS_SRGBWRITEENABLE", 0),
    s(195, "D3DRS_DEPTHBIAS", 0),
    s(198, "D3DRS_WRAP8", 0),
    s(199, "D3DRS_WRAP9", 0),
    s(200, "D3DRS_WRAP10", 0),
    s(201, "D3DRS_WRAP11", 0),
    s(202, "D3DRS_WRAP12", 0),
    s(203, "D3DRS_WRAP13", 0),
    s(204, "D3DRS_WRAP14", 0),
    s(205, "D3DRS_WRAP15", 0),
    s(206, "D3DRS_SEPARATEALPHABLENDENABLE", 0),
    s(207, "D3DRS_SRCBLENDALPHA", 2),
    s(208, "D3DRS_DESTBLENDALPHA", 1),
    s(209, "D3DRS_BLENDOPALPHA", 1),
];

/// Every `D3DSAMPLERSTATETYPE` with its default.
pub const SAMPLER_STATES: &[StateInfo] = &[
    s(1, "D3DSAMP_ADDRESSU", 1),
    s(2, "D3DSAMP_ADDRESSV", 1),
    s(3, "D3DSAMP_ADDRESSW", 1),
    s(4, "D3DSAMP_BORDERCOLOR", 0),
    s(5, "D3DSAMP_MAGFILTER", 1),
    s(6, "D3DSAMP_MINFILTER", 1),
    s(7, "D3DSAMP_MIPFILTER", 0),
    s(8, "D3DSAMP_MIPMAPLODBIAS", 0),
    s(9, "D3DSAMP_MAXMIPLEVEL", 0),
    s(10, "D3DSAMP_MAXANISOTROPY", 1),
    s(11, "D3DSAMP_SRGBTEXTURE", 0),
    s(12, "D3DSAMP_ELEMENTINDEX", 0),
    s(13, "D3DSAMP_DMAPOFFSET", 0),
];

/// `D3DTSS_COLOROP`, `D3DTSS_ALPHAOP` and `D3DTSS_TEXCOORDINDEX`, whose defaults depend on
/// the stage.
pub const D3DTSS_COLOROP: u32 = 1;
pub const D3DTSS_ALPHAOP: u32 = 4;
pub const D3DTSS_TEXCOORDINDEX: u32 = 11;

/// Every `D3DTEXTURESTAGESTATETYPE` with its default for stage 0 (`COLOROP` is
/// `D3DTOP_MODULATE` and `ALPHAOP` `D3DTOP_SELECTARG1` on stage 0, `D3DTOP_DISABLE` on the
/// others; `TEXCOORDINDEX` is the stage's number).
pub const TEXTURE_STAGE_STATES: &[StateInfo] = &[
    s(1, "D3DTSS_COLOROP", 4),
    s(2, "D3DTSS_COLORARG1", 2),
    s(3, "D3DTSS_COLORARG2", 1),
    s(4, "D3DTSS_ALPHAOP", 2),
    s(5, "D3DTSS_ALPHAARG1", 2),
    s(6, "D3DTSS_ALPHAARG2", 1),
    s(7, "D3DTSS_BUMPENVMAT00", 0),
    s(8, "D3DTSS_BUMPENVMAT01", 0),
    s(9, "D3DTSS_BUMPENVMAT10", 0),
    s(10, "D3DTSS_BUMPENVMAT11", 0),
    s(11, "D3DTSS_TEXCOORDINDEX", 0),
    s(22, "D3DTSS_BUMPENVLSCALE", 0),
    s(23, "D3DTSS_BUMPENVLOFFSET", 0),
    s(24, "D3DTSS_TEXTURETRANSFORMFLAGS", 0),
    s(26, "D3DTSS_COLORARG0", 1),
    s(27, "D3DTSS_ALPHAARG0", 1),
    s(28, "D3DTSS_RESULTARG", 1),
    s(32, "D3DTSS_CONSTANT", 0),
];

/// Texture stages of the fixed-function pixel stage (`MaxTextureBlendStages`).
pub const TEXTURE_STAGES: usize = 8;

/// Slots of the raw arrays: one past the highest number of each table.
const RENDER_SLOTS: usize = 210;
const SAMPLER_SLOTS: usize = 14;
const STAGE_SLOTS: usize = 33;

/// The entry of `number` in `table`.
pub fn lookup(table: &'static [StateInfo], number: u32) -> Option<&'static StateInfo> {
    table.iter().find(|s| s.number == number)
}

/// The raw values of one state table, indexed by D3D9 number (numbers the table lacks stay
/// unused).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawStates<const N: usize> {
    values: [u32; N],
}

impl<const N: usize> RawStates<N> {
    fn from_table(table: &[StateInfo]) -> Self {
        let mut values = [0; N];
        for info in table {
            if let Some(slot) = values.get_mut(info.number as usize) {
                *slot = info.default;
            }
        }
        RawStates { values }
    }

    /// The value of state `number` (0 for a number outside the table's range).
    pub fn get(&self, number: u32) -> u32 {
        self.values.get(number as usize).copied().unwrap_or(0)
    }

    /// Sets state `number` (ignored outside the table's range; callers check the table).
    pub fn set(&mut self, number: u32, value: u32) {
        if let Some(slot) = self.values.get_mut(number as usize) {
            *slot = value;
        }
    }
}

/// `D3DRENDERSTATETYPE` values.
pub type RawRenderStates = RawStates<RENDER_SLOTS>;
/// One sampler's `D3DSAMPLERSTATETYPE` values.
pub type RawSamplerStates = RawStates<SAMPLER_SLOTS>;
/// One texture stage's `D3DTEXTURESTAGESTATETYPE` values.
pub type RawStageStates = RawStates<STAGE_SLOTS>;

impl RawRenderStates {
    /// A new device's render states (`ZENABLE` TRUE only with an automatic depth-stencil
    /// surface).
    pub fn defaults(auto_depth_stencil: bool) -> Self {
        let mut states = Self::from_table(RENDER_STATES);
        states.set(D3DRS_ZENABLE, u32::from(auto_depth_stencil));
        states
    }
}

impl RawSamplerStates {
    /// A sampler's defaults.
    pub fn defaults() -> Self {
        Self::from_table(SAMPLER_STATES)
    }
}

impl RawStageStates {
    /// Texture stage `stage`'s defaults.
    pub fn defaults(stage: usize) -> Self {
        let mut states = Self::from_table(TEXTURE_STAGE_STATES);
        if stage != 0 {
            states.set(D3DTSS_COLOROP, 1);
            states.set(D3DTSS_ALPHAOP, 1);
        }
        states.set(D3DTSS_TEXCOORDINDEX, stage as u32);
        states
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_sorted_unique_and_fit_their_arrays() {
        for (table, slots) in [
            (RENDER_STATES, RENDER_SLOTS),
            (SAMPLER_STATES, SAMPLER_SLOTS),
            (TEXTURE_STAGE_STATES, STAGE_SLOTS),
        ] {
            assert!(table.windows(2).all(|w| w[0].number < w[1].number));
            assert!(table.iter().all(|s| (s.number as usize) < slots));
        }
        assert_eq!(RENDER_STATES.len(), 103);
    }

    #[test]
    fn defaults_follow_the_sdk() {
        let r = RawRenderStates::defaults(false);
        assert_eq!(r.get(D3DRS_ZENABLE), 0);
        assert_eq!(RawRenderStates::defaults(true).get(D3DRS_ZENABLE), 1);
        assert_eq!(f32::from_bits(r.get(166)), 64.0);
        assert_eq!(f32::from_bits(r.get(37)), 1.0);
        assert_eq!(r.get(165), 0xbaad_cafe);
        let stage1 = RawStageStates::defaults(1);
        assert_eq!(stage1.get(D3DTSS_COLOROP), 1);
        assert_eq!(stage1.get(D3DTSS_TEXCOORDINDEX), 1);
        assert_eq!(RawStageStates::defaults(0).get(D3DTSS_ALPHAOP), 2);
        assert_eq!(RawSamplerStates::defaults().get(10), 1);
    }
}

use std::collections::BTreeMap;

use super::error::{invalid, unsupported, DeviceError};
use super::state::{RawStateError, RenderState, RenderStates, SamplerState};
use super::{Device, SAMPLER_STAGES};

/// Which table an unsupported raw value belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Table {
    Render,
    Sampler(usize),
}

/// The raw states of a device, and the values set that this device cannot honour yet (a
/// draw that depends on one is refused, naming it; setting the state back clears it).
pub(crate) struct DeviceRawStates {
    pub(crate) render: RawRenderStates,
    pub(crate) samplers: [RawSamplerStates; SAMPLER_STAGES],
    pub(crate) stages: [RawStageStates; TEXTURE_STAGES],
    pub(crate) unsupported: BTreeMap<(Table, u32), String>,
}

impl DeviceRawStates {
    pub(crate) fn new(auto_depth_stencil: bool) -> Self {
        DeviceRawStates {
            render: RawRenderStates::defaults(auto_depth_stencil),
            samplers: std::array::from_fn(|_| RawSamplerStates::defaults()),
            stages: std::array::from_fn(RawStageStates::defaults),
            unsupported: BTreeMap::new(),
        }
    }

    /// The first unsupported value among the render states and the samplers `slots` (the
    /// texture stages have none: every value D3D9 defines is emulated, and the
    /// fixed-function keys refuse values it does not).
    pub(crate) fn refusal(&self, slots: impl Fn(usize) -> bool) -> Option<&str> {
        self.unsupported
            .iter()
            .find(|((table, _), _)| match table {
                Table::Render => true,
                Table::Sampler(slot) => slots(*slot),
            })
            .map(|(_, why)| why.as_str())
    }
}

impl RenderStates {
    /// The typed render states of raw values (values the device cannot honour keep the
    /// typed default's meaning).
    pub(crate) fn from_raw(raw: &RawRenderStates) -> RenderStates {
        let mut states = RenderStates::fallback();
        for info in RENDER_STATES {
            if let Ok(Some(typed)) = typed_render_state(raw, info.number) {
                states.set(typed);
            }
        }
        states
    }
}

/// The typed state of raw render state `number` (`POINTSCALE_A/B/C` together).
fn typed_render_state(
    raw: &RawRenderStates,
    number: u32,
) -> Result<Option<RenderState>, RawStateError> {
    match number {
        158..=160 => Ok(Some(RenderState::PointScale([
            f32::from_bits(raw.get(158)),
            f32::from_bits(raw.get(159)),
            f32::from_bits(raw.get(160)),
        ]))),
        _ => RenderState::from_d3d(number, raw.get(number)),
    }
}

impl Device {
    /// `SetRenderState(state, value)` with D3D9's numbers (`D3DRS_*`, floats as bit
    /// patterns), as a compatibility layer passes them. The value is kept (what
    /// `GetRenderState` returns); states with no effect on this device are taken; a value
    /// this device cannot honour yet (`D3DRS_WRAPn`, one of `POINTSCALE_A/B/C`, ...) is
    /// `Unsupported` here and refuses the draws made while it is set. An unknown state
    /// number is `D3DERR_INVALIDCALL`.
    pub fn set_render_state_raw(&mut self, state: u32, value: u32) -> Result<(), DeviceError> {
        let call = "SetRenderState";
        let info = lookup(RENDER_STATES, state)
            .ok_or_else(|| invalid(call, format!("D3DRENDERSTATETYPE {state}")))?;
        self.state.raw.render.set(state, value);
        let key = (Table::Render, state);
        self.state.raw.unsupported.remove(&key);
        match typed_render_state(&self.state.raw.render, state) {
            Ok(Some(typed)) => self.set_render_state(typed),
            Ok(None) => Ok(()),
            Err(RawStateError::Invalid(why)) => Err(invalid(call, why)),
            Err(RawStateError::Unsupported(why)) => {
                let why = format!("{} = {value:#x}: {why}", info.name);
                self.state.raw.unsupported.insert(key, why.clone());
                Err(unsupported(call, why))
            }
        }
    }

    /// `GetRenderState(state)`: the value last set (the default before).
    pub fn render_state_raw(&self, state: u32) -> Result<u32, DeviceError> {
        lookup(RENDER_STATES, state)
            .map(|_| self.state.raw.render.get(state))
            .ok_or_else(|| invalid("GetRenderState", format!("D3DRENDERSTATETYPE {state}")))
    }

    /// `SetSamplerState(sampler, type, value)` with D3D9's numbers (`D3DSAMP_*`); kept as
    /// [`Device::set_render_state_raw`] keeps render states. A value this device cannot
    /// honour refuses the draws that sample this sampler.
    pub fn set_sampler_state_raw(
        &mut self,
        sampler: u32,
        ty: u32,
        value: u32,
    ) -> Result<(), DeviceError> {
        let call = "SetSamplerState";
        let slot = Device::sampler_slot(call, sampler)?;
        let info = lookup(SAMPLER_STATES, ty)
            .ok_or_else(|| invalid(call, format!("D3DSAMPLERSTATETYPE {ty}")))?;
        self.state.raw.samplers[slot].set(ty, value);
        let key = (Table::Sampler(slot), ty);
        self.state.raw.unsupported.remove(&key);
        match SamplerState::from_d3d(ty, value) {
            Ok(Some(typed)) => self.set_sampler_state(sampler, typed),
            Ok(None) => Ok(()),
            Err(RawStateError::Invalid(why)) => Err(invalid(call, why)),
            Err(RawStateError::Unsupported(why)) => {
                let why = format!("{} = {value:#x} on sampler {sampler}: {why}", info.name);
                self.state.raw.unsupported.insert(key, why.clone());
                Err(unsupported(call, why))
            }
        }
    }

    /// `GetSamplerState(sampler, type)`.
    pub fn sampler_state_raw(&self, sampler: u32, ty: u32) -> Result<u32, DeviceError> {
        let call = "GetSamplerState";
        let slot = Device::sampler_slot(call, sampler)?;
        lookup(SAMPLER_STATES, ty)
            .map(|_| self.state.raw.samplers[slot].get(ty))
            .ok_or_else(|| invalid(call, format!("D3DSAMPLERSTATETYPE {ty}")))
    }

    /// `SetTextureStageState(stage, type, value)` with D3D9's numbers (`D3DTSS_*`), stages
    /// 0–7: kept as given (what `GetTextureStageState` returns); the fixed-function stages
    /// read them at draw time (`fixed_function::keys`), where a value D3D9 does not define
    /// (an operation past `D3DTOP_LERP`, say) refuses the draw.
    pub fn set_texture_stage_state_raw(
        &mut self,
        stage: u32,
        ty: u32,
        value: u32,
    ) -> Result<(), DeviceError> {
        let call = "SetTextureStageState";
        let index = stage as usize;
        if index >= TEXTURE_STAGES {
            return Err(invalid(call, format!("texture stage {stage}")));
        }
        lookup(TEXTURE_STAGE_STATES, ty)
            .ok_or_else(|| invalid(call, format!("D3DTEXTURESTAGESTATETYPE {ty}")))?;
        self.state.raw.stages[index].set(ty, value);
        Ok(())
    }

    /// `GetTextureStageState(stage, type)`.
    pub fn texture_stage_state_raw(&self, stage: u32, ty: u32) -> Result<u32, DeviceError> {
        let call = "GetTextureStageState";
        let raw = self
            .state
            .raw
            .stages
            .get(stage as usize)
            .ok_or_else(|| invalid(call, format!("texture stage {stage}")))?;
        lookup(TEXTURE_STAGE_STATES, ty)
            .map(|_| raw.get(ty))
            .ok_or_else(|| invalid(call, format!("D3DTEXTURESTAGESTATETYPE {ty}")))
    }
}
