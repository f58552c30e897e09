//! The hand-written WGSL of the `vertex_stage` bench (`benches/hand/`) computes what the
//! translations of `shaders/point_lights.asm` and `shaders/skinned_arm.asm` compute, in every
//! float mode: COLOR0 of the first vertices of each bench draw, read back through the vertex
//! probe, agrees to 1e-4. Otherwise the bench's ratios would compare different work.

#[path = "../benches/scenes/mod.rs"]
mod scenes;

use d3d9_backend::{Gpu, GpuError};

#[test]
fn gpu_bench_hand_written_shaders_match_their_translations() -> Result<(), GpuError> {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    for scene in [scenes::point_lights(), scenes::skinned_arm()] {
        let (variants, binding, buffers) = scenes::variants(&scene);
        scenes::check_outputs(&scene, &variants, &binding, &buffers, &gpu);
    }
    Ok(())
}

/// The specialised pipeline runs the loop the constants say, not the uniform: point_lights
/// with `vs_i0_x` = 0 (the uniform's i0 says four lights) lights nothing, COLOR0 being the
/// ambient colour times the material (c10 * c9); with `vs_i0_z` = 0 it adds light 0 four
/// times, as D3D9's aL would with that step.
#[test]
fn gpu_specialised_loops_read_their_pipeline_constants() -> Result<(), GpuError> {
    let Some(gpu) = Gpu::for_tests()? else {
        return Ok(());
    };
    let scene = scenes::point_lights();
    let (variants, binding, buffers) = scenes::variants(&scene);
    let spec = variants
        .iter()
        .find(|v| v.label == "Ieee spec")
        .expect("a specialised variant");
    let with = |name: &str, value: f64| scenes::Variant {
        label: format!("Ieee spec, {name} = {value}"),
        module: spec.module.clone(),
        probe: scenes::ProbeShader::Naga(match &spec.probe {
            scenes::ProbeShader::Naga(m) => m.clone(),
            scenes::ProbeShader::Wgsl(_) => unreachable!("a translation"),
        }),
        constants: spec
            .constants
            .iter()
            .map(|(k, v)| (k.clone(), if k == name { value } else { *v }))
            .collect(),
    };
    let none = scenes::probe(&scene, &with("vs_i0_x", 0.0), &binding, &buffers, &gpu);
    let ambient = [0.06f32 * 0.9, 0.06 * 0.9, 0.08 * 0.9, 1.0];
    for o in &none {
        let c = &o[&0];
        assert!(
            c.iter().zip(ambient).all(|(a, b)| (a - b).abs() <= 1e-6),
            "COLOR0 {c:?}, ambient {ambient:?}"
        );
    }
    let all = scenes::probe(&scene, spec, &binding, &buffers, &gpu);
    let first = scenes::probe(&scene, &with("vs_i0_z", 0.0), &binding, &buffers, &gpu);
    assert!(
        first.iter().zip(&all).any(|(f, a)| f[&0] != a[&0]),
        "a step of 0 lights as four different lights do"
    );
    Ok(())
}
