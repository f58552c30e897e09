//! The numbers the fixed-function stages read at run time, computed from the device state
//! at draw time: the vertex stage's float constants (the translator's layout,
//! `d3d9_translator::fixed_function::registers`, each matrix as its four columns), the pixel
//! stage's uniform (`pixel::PixelUniform`) and ps_1_x's bump-environment uniform.

use super::super::d3dcolor::rgba;
use super::super::raw_state::RawStageStates;
use super::super::transform::{inverse, multiply, Matrix, TransformState};
use super::super::DeviceState;
use super::lighting::{Light, MAX_ACTIVE_LIGHTS};
use super::pixel::PixelUniform;
use super::LightType;
use d3d9_translator::fixed_function::registers::{
    light, texture_matrix, AMBIENT, BLEND_WORLD_VIEW, FOG, HARDWARE_REGISTERS, INDEXED_WORLD_VIEW,
    LIGHT_REGISTERS, MATERIAL_AMBIENT, MATERIAL_DIFFUSE, MATERIAL_EMISSIVE, MATERIAL_POWER,
    MATERIAL_SPECULAR, MISC, NORMAL_MATRIX, PROJECTION, SOFTWARE_REGISTERS, WORLD_VIEW,
    WORLD_VIEW_PROJECTION,
};

fn columns(m: &Matrix) -> [[f32; 4]; 4] {
    std::array::from_fn(|col| std::array::from_fn(|row| m[row][col]))
}

/// The normal matrix of `world_view` for row vectors (n' = n · N): the transpose of its
/// inverse (the full 4×4 inverse, whose upper 3×3 is what Windows uses: Wine's lighting_test
/// draws black with a non-affine world matrix); a singular matrix is used transposed
/// (wined3d's rule, matching Windows in Wine's lighting_test).
pub(crate) fn normal_matrix(world_view: &Matrix) -> Matrix {
    let m = inverse(world_view).unwrap_or(*world_view);
    std::array::from_fn(|i| std::array::from_fn(|j| m[j][i]))
}

/// `(v, w) · m` for a row vector.
fn transform_point(v: [f32; 3], w: f32, m: &Matrix) -> [f32; 3] {
    std::array::from_fn(|j| v[0] * m[0][j] + v[1] * m[1][j] + v[2] * m[2][j] + w * m[3][j])
}

/// A light's registers (`registers::light`'s order) for a draw with view matrix `view`.
fn light_registers(light: &Light, view: &Matrix) -> [[f32; 4]; LIGHT_REGISTERS] {
    let p = transform_point(light.position, 1.0, view);
    let d = transform_point(light.direction, 0.0, view);
    let length = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
    let d = if length > 0.0 {
        d.map(|x| x / length)
    } else {
        d
    };
    let (cos_theta, cos_phi) = match light.light_type {
        LightType::Spot => ((light.theta / 2.0).cos(), (light.phi / 2.0).cos()),
        _ => (1.0, 0.0),
    };
    let scale = if cos_theta > cos_phi {
        1.0 / (cos_theta - cos_phi)
    } else {
        f32::MAX
    };
    [
        light.diffuse,
        light.specular,
        light.ambient,
        [p[0], p[1], p[2], 1.0],
        [d[0], d[1], d[2], 0.0],
        [
            light.range,
            light.attenuation0,
            light.attenuation1,
            light.attenuation2,
        ],
        [cos_theta, cos_phi, light.falloff, scale],
    ]
}

/// `D3DRS_FOGSTART`, `FOGEND`, their scale and `FOGDENSITY`.
fn fog(state: &DeviceState) -> [f32; 4] {
    let r = &state.render;
    let scale = if r.fog_end != r.fog_start {
        1.0 / (r.fog_end - r.fog_start)
    } else {
        0.0
    };
    [r.fog_start, r.fog_end, scale, r.fog_density]
}

/// `D3DRS_AMBIENT` and `D3DRS_TWEENFACTOR` (raw render states 139 and 170).
const D3DRS_AMBIENT: u32 = 139;
const D3DRS_TWEENFACTOR: u32 = 170;

/// The vertex stage's float constants now (256 registers; 8192 with `software`, for indexed
/// vertex blending).
pub(crate) fn vertex_constants(state: &DeviceState, software: bool) -> Vec<[f32; 4]> {
    let count = if software {
        SOFTWARE_REGISTERS
    } else {
        HARDWARE_REGISTERS
    };
    let mut out = vec![[0.0; 4]; count];
    let t = &state.transforms;
    let get = |s| t.get(s).unwrap_or(super::super::IDENTITY);
    let view = get(TransformState::View);
    let projection = get(TransformState::Projection);
    let world_view = |i: u8| multiply(&get(TransformState::World(i)), &view);
    let mut put = |at: usize, m: &Matrix| {
        for (k, col) in columns(m).into_iter().enumerate() {
            if let Some(slot) = out.get_mut(at + k) {
                *slot = col;
            }
        }
    };
    let wv = world_view(0);
    put(WORLD_VIEW, &wv);
    put(PROJECTION, &projection);
    put(NORMAL_MATRIX, &normal_matrix(&wv));
    for (i, at) in BLEND_WORLD_VIEW.iter().enumerate().skip(1) {
        put(*at, &world_view(i as u8));
    }
    put(WORLD_VIEW_PROJECTION, &multiply(&wv, &projection));
    for n in 0..8u8 {
        put(
            texture_matrix(usize::from(n)),
            &get(TransformState::Texture(n)),
        );
    }
    if software {
        for i in 0..=255u8 {
            put(INDEXED_WORLD_VIEW + 4 * usize::from(i), &world_view(i));
        }
    }
    let raw = &state.raw.render;
    out[MISC] = [f32::from_bits(raw.get(D3DRS_TWEENFACTOR)), 0.0, 0.0, 0.0];
    out[AMBIENT] = rgba(raw.get(D3DRS_AMBIENT));
    let m = &state.lights.material;
    out[MATERIAL_DIFFUSE] = m.diffuse;
    out[MATERIAL_AMBIENT] = m.ambient;
    out[MATERIAL_SPECULAR] = m.specular;
    out[MATERIAL_EMISSIVE] = m.emissive;
    out[MATERIAL_POWER] = [m.power, 0.0, 0.0, 0.0];
    out[FOG] = fog(state);
    for (i, l) in state
        .lights
        .active()
        .iter()
        .enumerate()
        .take(MAX_ACTIVE_LIGHTS)
    {
        for (k, register) in light_registers(l, &view).into_iter().enumerate() {
            out[light(i) + k] = register;
        }
    }
    out
}

/// `D3DTSS_*` numbers of the bump-environment states and the per-stage constant.
const BUMPENVMAT: [u32; 4] = [7, 8, 9, 10];
const BUMPENVLSCALE: u32 = 22;
const BUMPENVLOFFSET: u32 = 23;
const CONSTANT: u32 = 32;

/// Stage n's (M00, M01, M10, M11) and (LSCALE, LOFFSET, 0, 0).
fn bump_env(stage: &RawStageStates) -> [[f32; 4]; 2] {
    let f = |ty: u32| f32::from_bits(stage.get(ty));
    [
        BUMPENVMAT.map(f),
        [f(BUMPENVLSCALE), f(BUMPENVLOFFSET), 0.0, 0.0],
    ]
}

/// ps_1_x's bump-environment uniform (`lift::interface::BUMP_ENV_BINDING`) for the texture
/// stages' states `stages`: per stage the matrix, then the luminance scale and offset.
pub(crate) fn bump_env_data(stages: &[RawStageStates]) -> Vec<[f32; 4]> {
    stages.iter().flat_map(bump_env).collect()
}

/// The fixed-function pixel stage's uniform now (`pixel::PixelUniform`'s layout).
pub(crate) fn pixel_uniform(state: &DeviceState) -> Vec<[f32; 4]> {
    let r = &state.render;
    let mut out = Vec::with_capacity(PixelUniform::VEC4S);
    out.push(rgba(r.texture_factor));
    out.push(rgba(r.fog_color));
    out.push(fog(state));
    out.push([r.alpha_reference() as f32, 0.0, 0.0, 0.0]);
    out.extend(state.raw.stages.iter().map(|s| rgba(s.get(CONSTANT))));
    let bump: Vec<[[f32; 4]; 2]> = state.raw.stages.iter().map(bump_env).collect();
    out.extend(bump.iter().map(|b| b[0]));
    out.extend(bump.iter().map(|b| b[1]));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_normal_matrix_is_the_transposed_inverse_or_the_transpose_when_singular() {
        // A non-affine matrix (Wine's lighting_test): the normal (0, 0, -1) maps to 0.
        let m: Matrix = [
            [1.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, -1.0],
            [10.0, 10.0, 10.0, 0.0],
        ];
        let n = normal_matrix(&m);
        let out: Vec<f32> = (0..3).map(|j| -n[2][j]).collect();
        assert!(out.iter().all(|v| v.abs() < 1e-6), "{out:?}");
        // Scaling by 2 scales normals by 1/2.
        let mut s = super::super::super::IDENTITY;
        s[0][0] = 2.0;
        assert!((normal_matrix(&s)[0][0] - 0.5).abs() < 1e-6);
        // Singular: the transpose.
        let mut z = super::super::super::IDENTITY;
        z[0][1] = 3.0;
        z[2][2] = 0.0;
        assert_eq!(normal_matrix(&z)[1][0], 3.0);
    }

    /// Each stage's D3DTSS_BUMPENVMAT00–11 (7–10) and LSCALE, LOFFSET (22, 23), floats
    /// given as their bits, two `vec4`s a stage in stage order.
    #[test]
    fn bump_environment_registers_come_stage_by_stage() {
        let mut stages: Vec<RawStageStates> = (0..3).map(RawStageStates::defaults).collect();
        for (ty, value) in [
            (7, 0.5f32),
            (8, -1.0),
            (9, 2.0),
            (10, 0.25),
            (22, 4.0),
            (23, -0.5),
        ] {
            stages[1].set(ty, value.to_bits());
        }
        let data = bump_env_data(&stages);
        assert_eq!(data.len(), 6);
        assert_eq!(data[2], [0.5, -1.0, 2.0, 0.25]);
        assert_eq!(data[3], [4.0, -0.5, 0.0, 0.0]);
        assert_eq!(data[0], [0.0; 4], "stage 0 keeps the default matrix");
        assert_eq!(
            data[5], [0.0; 4],
            "stage 2 keeps the default scale and offset"
        );
    }

    #[test]
    fn lights_are_moved_into_view_space() {
        // A view that turns x into y and moves everything by (1, 2, 3).
        let view: Matrix = [
            [0.0, 1.0, 0.0, 0.0],
            [-1.0, 0.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, 0.0],
            [1.0, 2.0, 3.0, 1.0],
        ];
        let light = Light {
            light_type: LightType::Spot,
            position: [1.0, 0.0, 0.0],
            direction: [0.0, -3.0, 4.0],
            range: 10.0,
            attenuation0: 0.25,
            attenuation1: 0.5,
            attenuation2: 0.75,
            falloff: 2.0,
            theta: 1.0,
            phi: 2.0,
            ..Light::default()
        };
        let r = light_registers(&light, &view);
        assert_eq!(r[0], light.diffuse);
        assert_eq!(r[3], [1.0, 3.0, 3.0, 1.0], "the position moves");
        assert_eq!(
            r[4],
            [0.6, 0.0, 0.8, 0.0],
            "the direction turns, normalised"
        );
        assert_eq!(r[5], [10.0, 0.25, 0.5, 0.75]);
        let (cos_theta, cos_phi) = (0.5f32.cos(), 1.0f32.cos());
        assert_eq!(r[6], [cos_theta, cos_phi, 2.0, 1.0 / (cos_theta - cos_phi)]);
        // Point and directional lights have no cone; an empty cone scales without bound.
        let point = light_registers(
            &Light {
                light_type: LightType::Point,
                ..light
            },
            &view,
        );
        assert_eq!(point[6], [1.0, 0.0, 2.0, 1.0]);
        let empty = light_registers(
            &Light {
                theta: 2.0,
                ..light
            },
            &view,
        );
        assert_eq!(empty[6][3], f32::MAX);
        let still = light_registers(
            &Light {
                direction: [0.0; 3],
                ..light
            },
            &view,
        );
        assert_eq!(still[4], [0.0; 4], "no direction stays none");
    }
}
