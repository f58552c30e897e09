//! User clip planes: `SetClipPlane`, `GetClipPlane` and `D3DRS_CLIPPLANEENABLE`.
//!
//! D3D9 keeps a vertex where `A·x + B·y + C·z + D·w >= 0` for every enabled plane
//! `(A, B, C, D)`. With a vertex shader the planes are in clip space (the space of `oPos`);
//! with the fixed-function pipeline they are in world space. The vertex stage is translated
//! with `VertexShaderOptions::clip_planes` (six `@builtin(clip_distances)` from a uniform,
//! of the position before the half-pixel fix-up), so the GPU clips the primitives as D3D9
//! does, at the plane rather than per pixel. The uniform holds clip-space planes: a
//! fixed-function stage's world-space planes are carried into clip space through the inverse
//! of `View · Projection` (`dot(p, w) = dot(M⁻¹ · p, w · M)` for `M = View · Projection`);
//! a disabled plane is zeros, which clips nothing. Pre-transformed (XYZRHW) vertices are
//! not clipped against user planes (D3D9 skips the vertex pipeline for them; wined3d
//! disables the planes there too).
//!
//! Only whether any plane is enabled is part of the pairing key; the planes themselves are
//! a uniform, so changing them never translates a shader.

use super::error::{invalid, unsupported, DeviceError};
use super::pairing::ShaderPair;
use super::transform::{inverse, multiply, TransformState, IDENTITY};
use super::{Device, DeviceState};
use crate::device::ConstantBuffer;
use d3d9_translator::lift::interface::CLIP_PLANES;

/// A plane `(A, B, C, D)`.
pub type Plane = [f32; 4];

impl Device {
    /// `SetClipPlane(index, plane)`: `index` 0–5 (`D3DMAXUSERCLIPPLANES`), else
    /// `D3DERR_INVALIDCALL`. Enabling is `D3DRS_CLIPPLANEENABLE`.
    pub fn set_clip_plane(&mut self, index: u32, plane: Plane) -> Result<(), DeviceError> {
        let slot = self
            .state
            .clip_planes
            .get_mut(index as usize)
            .ok_or_else(|| invalid("SetClipPlane", format!("clip plane {index} (0-5)")))?;
        *slot = plane;
        Ok(())
    }

    /// `GetClipPlane(index)`: the plane last set (zeros by default).
    pub fn get_clip_plane(&self, index: u32) -> Result<Plane, DeviceError> {
        self.state
            .clip_planes
            .get(index as usize)
            .copied()
            .ok_or_else(|| invalid("GetClipPlane", format!("clip plane {index} (0-5)")))
    }

    /// Whether a draw whose vertex stage is not pre-transformed clips against user planes;
    /// refused where the adapter has no clip distances.
    pub(super) fn clips_user_planes(
        &self,
        call: &'static str,
        pretransformed: bool,
    ) -> Result<bool, DeviceError> {
        if pretransformed || self.state.render.clip_plane_enable == 0 {
            return Ok(false);
        }
        self.require_feature(
            call,
            wgpu::Features::CLIP_DISTANCES,
            "user clip planes (D3DRS_CLIPPLANEENABLE)",
        )?;
        Ok(true)
    }
}

/// The clip-space planes of `pair`'s uniform: the enabled planes, carried from world space
/// for a fixed-function vertex stage; zeros for the others.
fn clip_space_planes(
    state: &DeviceState,
    pair: &ShaderPair,
) -> Result<[Plane; CLIP_PLANES as usize], &'static str> {
    let mut planes = [[0.0; 4]; CLIP_PLANES as usize];
    let world_to_clip = match pair.fixed_function_vertex {
        true => {
            let get = |t| state.transforms.get(t).unwrap_or(IDENTITY);
            let (view, projection) = (get(TransformState::View), get(TransformState::Projection));
            Some(inverse(&multiply(&view, &projection)).ok_or(
                "user clip planes with a singular View · Projection (world-space planes cannot be carried into clip space)",
            )?)
        }
        false => None,
    };
    for (i, out) in planes.iter_mut().enumerate() {
        if state.render.clip_plane_enable & (1 << i) == 0 {
            continue;
        }
        let p = state.clip_planes[i];
        *out = match &world_to_clip {
            None => p,
            Some(inverse) => {
                let mut q = [0.0; 4];
                for (j, q) in q.iter_mut().enumerate() {
                    *q = (0..4).map(|k| inverse[j][k] * p[k]).sum();
                }
                q
            }
        };
    }
    Ok(planes)
}

/// The clip planes' uniform of `pair` (where its vertex stage clips).
pub(super) fn clip_plane_buffer(
    state: &DeviceState,
    pair: &ShaderPair,
) -> Result<Option<ConstantBuffer>, DeviceError> {
    let Some(b) = pair.vertex_interface.clip_planes else {
        return Ok(None);
    };
    let planes = clip_space_planes(state, pair).map_err(|why| unsupported("draw", why))?;
    Ok(Some(ConstantBuffer {
        group: b.group,
        binding: b.binding,
        storage: false,
        data: bytemuck::cast_slice(&planes).to_vec(),
    }))
}

/// The clip planes' uniform as the bind-group key compares it (bits); `None` without one.
pub(super) fn clip_planes_key(
    state: &DeviceState,
    pair: &ShaderPair,
) -> Result<Option<[u32; 24]>, DeviceError> {
    if pair.vertex_interface.clip_planes.is_none() {
        return Ok(None);
    }
    let planes = clip_space_planes(state, pair).map_err(|why| unsupported("draw", why))?;
    let mut key = [0u32; 24];
    for (k, v) in key.iter_mut().zip(planes.iter().flatten()) {
        *k = v.to_bits();
    }
    Ok(Some(key))
}
