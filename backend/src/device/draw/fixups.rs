//! Sampler states a WebGPU sampler cannot hold, done in the shader: `D3DSAMP_MIPMAPLODBIAS`,
//! `D3DTADDRESS_MIRRORONCE`, `D3DTADDRESS_BORDER` with a colour WebGPU's three border
//! colours do not express (or on an adapter without `ADDRESS_MODE_CLAMP_TO_BORDER`), and
//! AMD's Fetch4 (`D3DSAMP_MIPMAPLODBIAS` = `GET4`). One
//! function decides per sampler what the shader does ([`Device::sampler_fixup`], read by the
//! pair key of both pixel stages) and what the WebGPU sampler then does
//! ([`Device::hardware_address`]), so the two always agree.

use d3d9_translator::lift::interface::{AxisFixup, SamplerFixup};

use super::super::error::{unsupported, DeviceError};
use super::super::objects::TextureObject;
use super::super::state::{SamplerStates, FOURCC_GET1, FOURCC_GET4};
use super::super::{Device, VERTEX_SAMPLER_BASE};
use crate::device::{MipFilter, TextureAddress, TextureKind};

/// The largest LOD bias honoured, either way: D3D9's 15 mip levels past the first (DXVK
/// clamps to the same).
const MAX_LOD_BIAS: f32 = 15.0;

/// `D3DSAMP_MIPMAPLODBIAS` as the shader adds it: none under `MIPFILTER` NONE (one level is
/// read, DXVK drops it there too), NaN as 0 (games pass it; DXVK), clamped to ±15; Fetch4's
/// switches `GET4` and `GET1` are no bias.
pub(crate) fn lod_bias(s: &SamplerStates) -> f32 {
    let fetch4_switch = matches!(s.mip_lod_bias.to_bits(), FOURCC_GET4 | FOURCC_GET1);
    match s.mip_filter {
        _ if fetch4_switch => 0.0,
        MipFilter::None => 0.0,
        _ if s.mip_lod_bias.is_nan() => 0.0,
        // +0.0 for -0.0: the key's bits compare equal to the default.
        _ => s.mip_lod_bias.clamp(-MAX_LOD_BIAS, MAX_LOD_BIAS) + 0.0,
    }
}

impl Device {
    /// What pixel samplers 0–15's states ask of the shader ([`Device::sampler_fixup`]), the
    /// trailing defaults left out (a draw with none has an empty list): for the pair key.
    pub(crate) fn sampler_fixups(&self) -> Vec<SamplerFixup> {
        let mut fixups: Vec<SamplerFixup> = (0..VERTEX_SAMPLER_BASE)
            .map(|slot| self.sampler_fixup(slot))
            .collect();
        while fixups.last() == Some(&SamplerFixup::default()) {
            fixups.pop();
        }
        fixups
    }

    /// What sampler slot `slot`'s states ask of the shader: the LOD bias, and per axis
    /// `MIRRORONCE` and border colours WebGPU cannot express. None on a cube map (D3D9
    /// ignores the address modes there: Windows in Wine's test_cube_wrap) or a depth texture
    /// (its reads do not take fixups: [`Device::check_fixups`] refuses what they would need).
    pub(crate) fn sampler_fixup(&self, slot: usize) -> SamplerFixup {
        let texture = self.state.textures[slot].and_then(|id| self.textures.get(&id));
        // AMD's Fetch4: `GET4` as the LOD bias, on a 2D texture of a format it applies to.
        let fetch4 = texture
            .filter(|t| t.kind == TextureKind::TwoD)
            .and_then(|t| t.format.fetch4())
            .filter(|_| self.state.samplers[slot].mip_lod_bias.to_bits() == FOURCC_GET4);
        if texture.is_some_and(|t| t.format.is_depth()) {
            return SamplerFixup {
                fetch4,
                ..SamplerFixup::default()
            };
        }
        SamplerFixup {
            fetch4,
            ..self.states_fixup(slot, texture)
        }
    }

    /// [`Device::sampler_fixup`] whatever the format of `texture`, the one set on `slot`.
    fn states_fixup(&self, slot: usize, texture: Option<&TextureObject>) -> SamplerFixup {
        let s = &self.state.samplers[slot];
        let cube = texture.is_some_and(|t| t.kind == TextureKind::Cube);
        let hardware_border = self.hardware_border(s.border_color).is_some();
        let address = s.address.map(|a| match a {
            _ if cube => AxisFixup::None,
            TextureAddress::MirrorOnce => AxisFixup::MirrorOnce,
            TextureAddress::Border if !hardware_border => AxisFixup::Border,
            _ => AxisFixup::None,
        });
        let border = address.contains(&AxisFixup::Border);
        SamplerFixup {
            lod_bias: lod_bias(s).to_bits(),
            address,
            border_color: if border { s.border_color } else { 0 },
            linear: border && (s.mag_filter.blends() || s.min_filter.blends()),
            fetch4: None,
        }
    }

    /// WebGPU's border colour for a `D3DSAMP_BORDERCOLOR`, where the adapter has
    /// `ADDRESS_MODE_CLAMP_TO_BORDER` and the colour is one of its three.
    pub(crate) fn hardware_border(&self, colour: u32) -> Option<wgpu::SamplerBorderColor> {
        let features = self.gpu.features();
        if !features.contains(wgpu::Features::ADDRESS_MODE_CLAMP_TO_BORDER) {
            return None;
        }
        match colour {
            0x0000_0000 => Some(wgpu::SamplerBorderColor::TransparentBlack),
            0xff00_0000 => Some(wgpu::SamplerBorderColor::OpaqueBlack),
            0xffff_ffff => Some(wgpu::SamplerBorderColor::OpaqueWhite),
            _ => None,
        }
    }

    /// The WebGPU sampler's address modes and border colour for slot `slot`: clamped to the
    /// edge where the shader addresses the axis (or on a cube map, whose addressing D3D9
    /// ignores), the hardware border where it expresses the colour.
    pub(crate) fn hardware_address(
        &self,
        slot: usize,
    ) -> ([TextureAddress; 3], Option<wgpu::SamplerBorderColor>) {
        let s = &self.state.samplers[slot];
        let texture = self.state.textures[slot].and_then(|id| self.textures.get(&id));
        let cube = texture.is_some_and(|t| t.kind == TextureKind::Cube);
        let border = self.hardware_border(s.border_color);
        let address = s.address.map(|a| match a {
            TextureAddress::MirrorOnce => TextureAddress::Clamp,
            TextureAddress::Border if cube || border.is_none() => TextureAddress::Clamp,
            a => a,
        });
        let border = border.filter(|_| address.contains(&TextureAddress::Border));
        (address, border)
    }

    /// Refuses the fixups a sampled slot's reads cannot take: any on a vertex sampler (vertex
    /// shaders take none), and on a depth texture the address fixups, and the bias where it
    /// has more than one level (a single level reads the same at any bias).
    pub(crate) fn check_fixups(
        &self,
        call: &'static str,
        slot: usize,
        depth: bool,
    ) -> Result<(), DeviceError> {
        let texture = self.state.textures[slot].and_then(|id| self.textures.get(&id));
        let fix = self.states_fixup(slot, texture);
        let levels = self.state.textures[slot]
            .and_then(|id| self.textures.get(&id))
            .map_or(1, |t| t.levels);
        let where_ = match (slot >= VERTEX_SAMPLER_BASE, depth) {
            (true, _) => "a vertex sampler",
            (false, true) => "a depth texture",
            (false, false) => return Ok(()),
        };
        let s = &self.state.samplers[slot];
        if fix.addresses() {
            let what = match fix.address.contains(&AxisFixup::MirrorOnce) {
                true => "D3DTADDRESS_MIRRORONCE".to_string(),
                false => format!("D3DSAMP_BORDERCOLOR {:#010x}", s.border_color),
            };
            return Err(unsupported(
                call,
                format!(
                    "{what} on sampler {slot}, {where_} (done in pixel shaders' colour reads only)"
                ),
            ));
        }
        if fix.bias() != 0.0 && (levels > 1 || !depth) {
            return Err(unsupported(
                call,
                format!(
                    "D3DSAMP_MIPMAPLODBIAS {} on sampler {slot}, {where_} of {levels} levels (done in pixel shaders' colour reads only)",
                    s.mip_lod_bias
                ),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fetch4_switches_are_no_bias() {
        let mut s = SamplerStates {
            mip_filter: MipFilter::Linear,
            ..SamplerStates::default()
        };
        for (bits, bias) in [
            (FOURCC_GET4, 0.0),
            (FOURCC_GET1, 0.0),
            (1.5f32.to_bits(), 1.5),
            (20.0f32.to_bits(), MAX_LOD_BIAS),
            (f32::NAN.to_bits(), 0.0),
        ] {
            s.mip_lod_bias = f32::from_bits(bits);
            assert_eq!(lod_bias(&s), bias, "{bits:#x}");
        }
        // -0.0 is the default's +0.0, to the bit (the pair key compares bits), and -20 is
        // clamped to -15.
        s.mip_lod_bias = -0.0;
        assert_eq!(lod_bias(&s).to_bits(), 0);
        s.mip_lod_bias = -20.0;
        assert_eq!(lod_bias(&s), -MAX_LOD_BIAS);
        s.mip_filter = MipFilter::None;
        s.mip_lod_bias = 1.5;
        assert_eq!(lod_bias(&s), 0.0);
    }

    /// The pair key's list leaves the trailing defaults out (the last slot's own fixup
    /// stays); a cube map takes no address fixup and its hardware address modes clamp, as
    /// D3D9 ignores a cube map's address modes (Windows in Wine's test_cube_wrap), while a
    /// 2D texture's border is the hardware's where the adapter has the colour.
    #[test]
    fn gpu_the_fixups_list_what_samplers_ask_and_cube_maps_ask_no_addressing() {
        use crate::device::{DeviceParams, Format, SamplerState, TextureFilter};
        let mut dev = Device::new(DeviceParams::default())
            .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
        assert!(dev.sampler_fixups().is_empty());
        let set = |dev: &mut Device, slot, state| {
            dev.set_sampler_state(slot, state)
                .unwrap_or_else(|e| panic!("{e}"));
        };
        set(
            &mut dev,
            2,
            SamplerState::AddressU(TextureAddress::MirrorOnce),
        );
        let fixups = dev.sampler_fixups();
        assert_eq!(fixups.len(), 3);
        assert_eq!(fixups[2].address[0], AxisFixup::MirrorOnce);
        set(
            &mut dev,
            15,
            SamplerState::AddressV(TextureAddress::MirrorOnce),
        );
        assert_eq!(dev.sampler_fixups().len(), 16);
        let cube = dev
            .create_cube_texture(4, 1, Format::A8R8G8B8)
            .unwrap_or_else(|e| panic!("{e}"));
        let flat = dev
            .create_texture(4, 4, 1, Format::A8R8G8B8)
            .unwrap_or_else(|e| panic!("{e}"));
        // WebGPU's three border colours, where the adapter clamps to a border.
        let clamps = dev
            .gpu
            .features()
            .contains(wgpu::Features::ADDRESS_MODE_CLAMP_TO_BORDER);
        for (colour, hardware) in [
            (
                0x0000_0000,
                Some(wgpu::SamplerBorderColor::TransparentBlack),
            ),
            (0xff00_0000, Some(wgpu::SamplerBorderColor::OpaqueBlack)),
            (0xffff_ffff, Some(wgpu::SamplerBorderColor::OpaqueWhite)),
            (0x8012_3456, None),
        ] {
            let expected = hardware.filter(|_| clamps);
            assert_eq!(dev.hardware_border(colour), expected, "{colour:#x}");
        }
        // Another colour is the shader's, filtered where either filter blends.
        set(&mut dev, 3, SamplerState::AddressU(TextureAddress::Border));
        set(&mut dev, 3, SamplerState::BorderColor(0x8012_3456));
        set(&mut dev, 3, SamplerState::MagFilter(TextureFilter::Linear));
        let border = dev.sampler_fixup(3);
        assert_eq!(border.address[0], AxisFixup::Border);
        assert_eq!((border.border_color, border.linear), (0x8012_3456, true));
        set(&mut dev, 2, SamplerState::AddressV(TextureAddress::Border));
        set(&mut dev, 2, SamplerState::BorderColor(0xffff_ffff));
        let hardware = dev.hardware_border(0xffff_ffff);
        dev.set_texture(2, Some(cube))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(dev.sampler_fixup(2).address, [AxisFixup::None; 3]);
        let clamp = TextureAddress::Clamp;
        assert_eq!(dev.hardware_address(2).0[..2], [clamp, clamp]);
        dev.set_texture(2, Some(flat))
            .unwrap_or_else(|e| panic!("{e}"));
        let fixup = dev.sampler_fixup(2).address;
        let (address, border) = dev.hardware_address(2);
        assert_eq!(fixup[0], AxisFixup::MirrorOnce);
        assert_eq!(address[0], clamp);
        match hardware {
            Some(colour) => {
                assert_eq!(fixup[1], AxisFixup::None);
                assert_eq!((address[1], border), (TextureAddress::Border, Some(colour)));
            }
            None => {
                assert_eq!(fixup[1], AxisFixup::Border);
                assert_eq!((address[1], border), (clamp, None));
            }
        }
    }
}
