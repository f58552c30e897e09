//! Prints the adapter the GPU tests will use (chosen from `WGPU_BACKEND`,
//! `WGPU_ADAPTER_NAME`, `WGPU_POWER_PREF`), its exact-float readback path and the
//! downlevel capabilities and limits the harness checks. `.ci/run` runs it before each
//! backend's test pass. Exits with an error where no adapter is found.

use d3d9_backend::{ExactReadback, Gpu, GpuError};

fn main() -> Result<(), GpuError> {
    let gpu = Gpu::new()?;
    println!("{}", gpu.describe());
    let limits = gpu.device().limits();
    let downlevel = gpu.downlevel();
    println!(
        "downlevel: webgpu compliant {}, vertex storage {}, flags {:?}",
        downlevel.is_webgpu_compliant(),
        downlevel
            .flags
            .contains(wgpu::DownlevelFlags::VERTEX_STORAGE),
        downlevel.flags
    );
    println!(
        "limits: uniform buffers/stage {}, uniform binding {} B, storage buffers/stage {}, \
         storage binding {} B, sampled textures/stage {}, samplers/stage {}, vertex buffers {}, \
         vertex attributes {}, vertex stride {}, inter-stage variables {}, 2D texture {}, 3D texture {}",
        limits.max_uniform_buffers_per_shader_stage,
        limits.max_uniform_buffer_binding_size,
        limits.max_storage_buffers_per_shader_stage,
        limits.max_storage_buffer_binding_size,
        limits.max_sampled_textures_per_shader_stage,
        limits.max_samplers_per_shader_stage,
        limits.max_vertex_buffers,
        limits.max_vertex_attributes,
        limits.max_vertex_buffer_array_stride,
        limits.max_inter_stage_shader_variables,
        limits.max_texture_dimension_2d,
        limits.max_texture_dimension_3d,
    );
    println!("device features: {:?}", gpu.device().features());
    for path in [ExactReadback::FloatTarget, ExactReadback::UintTarget] {
        println!(
            "{:?} usages: {:?}",
            path.format(),
            gpu.format_usages(path.format())
        );
    }
    Ok(())
}
