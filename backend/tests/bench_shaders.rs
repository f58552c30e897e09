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
