//! The harness's own capability checks: its uniform and storage buffers, its samplers
//! against the textures they filter, and its vertex streams, each against the adapter (the
//! [`Capability`] they report is the GPU layer's).

use d3d9_backend::gpu::caps::{check_vertex_buffers, count};
use d3d9_backend::gpu::Capability;

use crate::draw::{Uniform, VertexBuffer};
use crate::texture::{SamplerBinding, TextureBinding};

/// Uniform and storage buffers of one pipeline against the adapter's limits. Uniform buffers
/// are visible to both stages, storage buffers to the vertex stage only.
pub(crate) fn check_buffers(
    uniforms: &[Uniform<'_>],
    limits: &wgpu::Limits,
    downlevel: &wgpu::DownlevelCapabilities,
) -> Result<(), Capability> {
    let padded = |u: &Uniform<'_>| (u.data.len() as u64).div_ceil(16).max(1) * 16;
    let storage: Vec<_> = uniforms.iter().filter(|u| u.storage).collect();
    let uniform: Vec<_> = uniforms.iter().filter(|u| !u.storage).collect();
    if !storage.is_empty() {
        let vertex_storage = downlevel
            .flags
            .contains(wgpu::DownlevelFlags::VERTEX_STORAGE);
        let limit = match vertex_storage {
            true => limits.max_storage_buffers_per_shader_stage,
            false => 0,
        };
        let needed = count(storage.len());
        if needed > limit {
            return Err(Capability::VertexStorageBuffers {
                needed,
                limit,
                vertex_storage,
            });
        }
        let limit = limits.max_storage_buffer_binding_size;
        if let Some(bytes) = storage.iter().map(|u| padded(u)).find(|&b| b > limit) {
            return Err(Capability::StorageBufferSize { bytes, limit });
        }
    }
    let needed = count(uniform.len());
    let limit = limits.max_uniform_buffers_per_shader_stage;
    if needed > limit {
        return Err(Capability::UniformBuffers { needed, limit });
    }
    let limit = limits.max_uniform_buffer_binding_size;
    if let Some(bytes) = uniform.iter().map(|u| padded(u)).find(|&b| b > limit) {
        return Err(Capability::UniformBufferSize { bytes, limit });
    }
    Ok(())
}

/// Each filtering sampler against the texture it samples: in the translator's layout,
/// sampler `@binding(2n+1)` samples texture `@binding(2n)` of the same group.
/// `filterable` says whether the device filters a format.
pub(crate) fn check_filtering(
    textures: &[TextureBinding<'_>],
    samplers: &[SamplerBinding],
    filterable: impl Fn(wgpu::TextureFormat) -> bool,
) -> Result<(), Capability> {
    for sampler in samplers.iter().filter(|s| s.filters()) {
        let paired = textures.iter().find(|t| {
            t.group == sampler.group && t.binding.checked_add(1) == Some(sampler.binding)
        });
        if let Some(texture) = paired {
            if !filterable(texture.format) {
                return Err(Capability::FilterableTexture {
                    format: texture.format,
                });
            }
        }
    }
    Ok(())
}

/// The streams of a draw or probe against the adapter's limits and features.
pub(crate) fn check_streams(
    buffers: &[VertexBuffer<'_>],
    limits: &wgpu::Limits,
    features: wgpu::Features,
) -> Result<(), Capability> {
    let layouts: Vec<_> = buffers.iter().map(|b| b.layout.clone()).collect();
    check_vertex_buffers(&layouts, limits, features)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gles() -> (wgpu::Limits, wgpu::DownlevelCapabilities) {
        (
            wgpu::Limits::downlevel_webgl2_defaults(),
            wgpu::DownlevelCapabilities {
                flags: wgpu::DownlevelFlags::empty(),
                ..Default::default()
            },
        )
    }

    #[test]
    fn vertex_storage_needs_the_downlevel_flag() {
        let (limits, downlevel) = gles();
        let data = [0u8; 16];
        let err = check_buffers(&[Uniform::storage(0, 0, &data)], &limits, &downlevel);
        assert_eq!(
            err,
            Err(Capability::VertexStorageBuffers {
                needed: 1,
                limit: 0,
                vertex_storage: false
            })
        );
        let message = err.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(message.contains("VERTEX_STORAGE"), "{message}");
        let full = wgpu::DownlevelCapabilities::default();
        let limits = wgpu::Limits::default();
        assert_eq!(
            check_buffers(&[Uniform::storage(0, 0, &data)], &limits, &full),
            Ok(())
        );
    }

    #[test]
    fn uniform_size_and_count_limits() {
        let (limits, downlevel) = gles();
        let big = vec![0u8; 16 * 2048]; // software vertex processing's i# file
        assert_eq!(
            check_buffers(&[Uniform::new(0, 1, &big)], &limits, &downlevel),
            Err(Capability::UniformBufferSize {
                bytes: 32768,
                limit: limits.max_uniform_buffer_binding_size
            })
        );
        let small = [0u8; 4];
        let many: Vec<_> = (0..13).map(|b| Uniform::new(0, b, &small)).collect();
        assert_eq!(
            check_buffers(&many, &limits, &downlevel),
            Err(Capability::UniformBuffers {
                needed: 13,
                limit: 11
            })
        );
        assert_eq!(check_buffers(&many[..11], &limits, &downlevel), Ok(()));
    }

    #[test]
    fn filtering_needs_a_filterable_paired_texture() {
        let level: &[u8] = &[0; 16];
        let levels = [level];
        let float = TextureBinding::two_d(1, 0, wgpu::TextureFormat::Rgba32Float, 1, 1, &levels);
        let linear = SamplerBinding {
            mag_filter: d3d9_backend::device::TextureFilter::Linear,
            ..SamplerBinding::new(1, 1)
        };
        let unfilterable = |f: wgpu::TextureFormat| f != wgpu::TextureFormat::Rgba32Float;
        assert_eq!(
            check_filtering(&[float], &[linear], unfilterable),
            Err(Capability::FilterableTexture {
                format: wgpu::TextureFormat::Rgba32Float
            })
        );
        // Point sampling, or a sampler paired with another texture, needs no filtering.
        assert_eq!(
            check_filtering(&[float], &[SamplerBinding::new(1, 1)], unfilterable),
            Ok(())
        );
        assert_eq!(
            check_filtering(
                &[float],
                &[SamplerBinding {
                    binding: 3,
                    ..linear
                }],
                unfilterable
            ),
            Ok(())
        );
        assert_eq!(check_filtering(&[float], &[linear], |_| true), Ok(()));
    }
}
