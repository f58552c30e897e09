//! `SetLight`, `LightEnable`, `SetMaterial` and their getters: the lights and the material
//! the fixed-function vertex stage lights with.
//!
//! D3D9 keeps any number of lights by index; `LightEnable` on an index never set first sets
//! D3D9's default light there. The vertex stage lights with the enabled lights of the lowest
//! indices, at most [`MAX_ACTIVE_LIGHTS`] (`D3DCAPS9.MaxActiveLights`, what the hardware of
//! the time reports); more may be enabled (Windows accepts it) and are not applied.

use std::collections::BTreeMap;

use super::super::error::{invalid, DeviceError};
use super::super::Device;
use super::LightType;

/// `D3DCAPS9.MaxActiveLights`.
pub const MAX_ACTIVE_LIGHTS: usize = 8;

/// `D3DLIGHT9`: colours are (r, g, b, a); position and direction in world space (the view
/// matrix of the draw takes them to eye space).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Light {
    pub light_type: LightType,
    pub diffuse: [f32; 4],
    pub specular: [f32; 4],
    pub ambient: [f32; 4],
    pub position: [f32; 3],
    pub direction: [f32; 3],
    pub range: f32,
    pub falloff: f32,
    pub attenuation0: f32,
    pub attenuation1: f32,
    pub attenuation2: f32,
    /// The inner cone's full angle, radians.
    pub theta: f32,
    /// The outer cone's full angle, radians.
    pub phi: f32,
}

impl Default for Light {
    /// The light `LightEnable` creates at an index never set: white diffuse (alpha 0),
    /// directional, down +z, everything else 0.
    fn default() -> Self {
        Light {
            light_type: LightType::Directional,
            diffuse: [1.0, 1.0, 1.0, 0.0],
            specular: [0.0; 4],
            ambient: [0.0; 4],
            position: [0.0; 3],
            direction: [0.0, 0.0, 1.0],
            range: 0.0,
            falloff: 0.0,
            attenuation0: 0.0,
            attenuation1: 0.0,
            attenuation2: 0.0,
            theta: 0.0,
            phi: 0.0,
        }
    }
}

/// `D3DMATERIAL9`: colours (r, g, b, a) and the specular power. All zero by default.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Material {
    pub diffuse: [f32; 4],
    pub ambient: [f32; 4],
    pub specular: [f32; 4],
    pub emissive: [f32; 4],
    pub power: f32,
}

/// The lights set on a device (by index, with whether each is enabled) and its material.
#[derive(Debug, Clone, Default)]
pub(crate) struct Lights {
    lights: BTreeMap<u32, (Light, bool)>,
    pub(crate) material: Material,
}

impl Lights {
    /// The lights the vertex stage applies: the enabled ones of the lowest indices, at most
    /// [`MAX_ACTIVE_LIGHTS`].
    pub(crate) fn active(&self) -> Vec<Light> {
        self.lights
            .values()
            .filter(|(_, enabled)| *enabled)
            .map(|(light, _)| *light)
            .take(MAX_ACTIVE_LIGHTS)
            .collect()
    }

    /// How many lights are enabled.
    pub(crate) fn enabled_count(&self) -> usize {
        self.lights.values().filter(|(_, on)| *on).count()
    }
}

impl Device {
    /// `SetLight(index, light)`: any index; the light keeps its enabled state.
    pub fn set_light(&mut self, index: u32, light: &Light) -> Result<(), DeviceError> {
        self.state
            .lights
            .lights
            .entry(index)
            .and_modify(|(l, _)| *l = *light)
            .or_insert((*light, false));
        Ok(())
    }

    /// `GetLight(index)`: `D3DERR_INVALIDCALL` for an index never set (nor enabled).
    pub fn light(&self, index: u32) -> Result<Light, DeviceError> {
        self.state
            .lights
            .lights
            .get(&index)
            .map(|(l, _)| *l)
            .ok_or_else(|| invalid("GetLight", format!("light {index} was never set")))
    }

    /// `LightEnable(index, enable)`: an index never set gets D3D9's default light first
    /// ([`Light::default`]).
    pub fn light_enable(&mut self, index: u32, enable: bool) -> Result<(), DeviceError> {
        self.state
            .lights
            .lights
            .entry(index)
            .or_insert((Light::default(), false))
            .1 = enable;
        let enabled = self.state.lights.enabled_count();
        if enable && enabled > MAX_ACTIVE_LIGHTS {
            log::warn!(
                "LightEnable: {enabled} lights enabled; the fixed-function vertex stage applies the {MAX_ACTIVE_LIGHTS} of the lowest indices (MaxActiveLights)"
            );
        }
        Ok(())
    }

    /// `GetLightEnable(index)`: `D3DERR_INVALIDCALL` for an index never set.
    pub fn light_enabled(&self, index: u32) -> Result<bool, DeviceError> {
        self.state
            .lights
            .lights
            .get(&index)
            .map(|(_, on)| *on)
            .ok_or_else(|| invalid("GetLightEnable", format!("light {index} was never set")))
    }

    /// The indices of the lights set or enabled so far (what a state block captures).
    pub fn light_indices(&self) -> Vec<u32> {
        self.state.lights.lights.keys().copied().collect()
    }

    /// `SetMaterial(material)`.
    pub fn set_material(&mut self, material: &Material) -> Result<(), DeviceError> {
        self.state.lights.material = *material;
        Ok(())
    }

    /// `GetMaterial()`.
    pub fn material(&self) -> Material {
        self.state.lights.material
    }
}
