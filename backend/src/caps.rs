//! What the adapter can do, checked before anything is created on the GPU.
//!
//! D3D9 vertex work runs on every wgpu backend, but the downlevel ones (GL/GLES, and
//! WebGPU's compatibility tier) lack some WebGPU guarantees: float render targets, vertex
//! storage buffers, large uniform buffers. Each draw, probe, texture and buffer the harness
//! makes is checked here against the adapter's downlevel flags, limits and format features
//! first, so a feature that cannot run is a [`GpuError::Unsupported`](crate::GpuError)
//! naming the missing [`Capability`], never a wgpu validation error deep in a draw.

use crate::{SamplerBinding, TextureBinding, TextureKind, Uniform, VertexBuffer};

/// A device capability some work needs and the adapter lacks. `Display` says what is
/// missing and, where it is a limit, what was asked and what the adapter allows.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Capability {
    /// The format cannot be a render target that is copied out (`RENDER_ATTACHMENT` and
    /// `COPY_SRC` in the adapter's format features).
    #[error("render target format {format:?} (RENDER_ATTACHMENT | COPY_SRC)")]
    RenderTarget { format: wgpu::TextureFormat },
    /// Neither `Rgba32Float` nor `Rgba32Uint` can be rendered to and copied out, so no
    /// exact float readback path exists.
    #[error("exact float readback: neither Rgba32Float nor Rgba32Uint is a render target that can be copied out")]
    ExactReadback,
    /// Read-only storage buffers in the vertex stage (software vertex processing's 8192
    /// `c#`): `DownlevelFlags::VERTEX_STORAGE` and `max_storage_buffers_per_shader_stage`.
    #[error("{needed} read-only storage buffer(s) in the vertex stage (software vertex processing constants): the adapter allows {limit}{}", if *.vertex_storage { "" } else { " (no DownlevelFlags::VERTEX_STORAGE)" })]
    VertexStorageBuffers {
        needed: u32,
        limit: u32,
        vertex_storage: bool,
    },
    /// A storage buffer binding larger than `max_storage_buffer_binding_size`.
    #[error("a {bytes}-byte storage buffer binding: the adapter allows {limit} bytes")]
    StorageBufferSize { bytes: u64, limit: u64 },
    /// More uniform buffers per stage than `max_uniform_buffers_per_shader_stage`.
    #[error("{needed} uniform buffers per shader stage: the adapter allows {limit}")]
    UniformBuffers { needed: u32, limit: u32 },
    /// A uniform buffer binding larger than `max_uniform_buffer_binding_size`.
    #[error("a {bytes}-byte uniform buffer binding: the adapter allows {limit} bytes")]
    UniformBufferSize { bytes: u64, limit: u64 },
    /// More bind groups than `max_bind_groups`.
    #[error("{needed} bind groups: the adapter allows {limit}")]
    BindGroups { needed: u32, limit: u32 },
    /// Vertex texture fetch (`texldl`) of more textures than
    /// `max_sampled_textures_per_shader_stage`.
    #[error("{needed} sampled textures per shader stage (vertex texture fetch): the adapter allows {limit}")]
    VertexTextures { needed: u32, limit: u32 },
    /// More samplers than `max_samplers_per_shader_stage`.
    #[error(
        "{needed} samplers per shader stage (vertex texture fetch): the adapter allows {limit}"
    )]
    Samplers { needed: u32, limit: u32 },
    /// The format cannot be sampled (`TEXTURE_BINDING` and `COPY_DST` in the adapter's
    /// format features).
    #[error("sampled texture format {format:?} (TEXTURE_BINDING | COPY_DST)")]
    SampledTexture { format: wgpu::TextureFormat },
    /// A filtering sampler (`LINEAR` min, mag or mip filter) on a texture whose format the
    /// device cannot filter (`Rgba32Float` without `FLOAT32_FILTERABLE`).
    #[error(
        "linear filtering of texture format {format:?} (FLOAT32_FILTERABLE or a filterable format)"
    )]
    FilterableTexture { format: wgpu::TextureFormat },
    /// A texture larger than `max_texture_dimension_2d` / `_3d`.
    #[error(
        "a {kind:?} texture of {width}x{height}x{depth}: the adapter allows {limit} per dimension"
    )]
    TextureSize {
        kind: TextureKind,
        width: u32,
        height: u32,
        depth: u32,
        limit: u32,
    },
    /// More vertex buffers than `max_vertex_buffers`.
    #[error("{needed} vertex buffers (streams): the adapter allows {limit}")]
    VertexBuffers { needed: u32, limit: u32 },
    /// A vertex attribute at a location past `max_vertex_attributes`.
    #[error(
        "vertex attribute at @location({location}): the adapter allows locations below {limit}"
    )]
    VertexAttributeLocation { location: u32, limit: u32 },
    /// A vertex (or instance) stride past `max_vertex_buffer_array_stride`.
    #[error("a {stride}-byte vertex stride: the adapter allows {limit}")]
    VertexStride { stride: u64, limit: u32 },
    /// A vertex format that needs a device feature (`VERTEX_ATTRIBUTE_64BIT` for `Float64*`).
    #[error("vertex format {format:?} (needs {feature:?})")]
    VertexFormat {
        format: wgpu::VertexFormat,
        feature: wgpu::Features,
    },
    /// More colour targets than `max_color_attachments`.
    #[error("{needed} colour targets: the adapter allows {limit}")]
    ColorAttachments { needed: u32, limit: u32 },
    /// `D3DTADDRESS_MIRRORONCE` on a harness sampler: WebGPU has no such address mode (the
    /// device's shaders take the coordinate's absolute value; a harness shader does not).
    #[error("D3DTADDRESS_MIRRORONCE on sampler @binding({binding}) (no WebGPU address mode)")]
    MirrorOnce { binding: u32 },
}

/// How exact `f32` values come back from the GPU (the vertex probe and `Rgba32Float`
/// render targets). [`Gpu::exact_readback`](crate::Gpu::exact_readback) says which one a
/// device uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExactReadback {
    /// The fragment stage writes the floats to an `Rgba32Float` target (Vulkan, Metal, DX12).
    FloatTarget,
    /// The fragment stage writes their bit patterns (`bitcast<vec4<u32>>`) to an
    /// `Rgba32Uint` target, renderable in GLES 3.0 and core WebGPU; the readback
    /// reinterprets the bits, so the values are exact, NaN payloads included.
    UintTarget,
}

impl ExactReadback {
    /// The render target format the fragment stage writes on this path.
    pub fn format(self) -> wgpu::TextureFormat {
        match self {
            ExactReadback::FloatTarget => wgpu::TextureFormat::Rgba32Float,
            ExactReadback::UintTarget => wgpu::TextureFormat::Rgba32Uint,
        }
    }
}

/// The usages a harness render target needs.
pub(crate) const TARGET_USAGES: wgpu::TextureUsages =
    wgpu::TextureUsages::RENDER_ATTACHMENT.union(wgpu::TextureUsages::COPY_SRC);

/// The usages a harness texture needs.
pub(crate) const TEXTURE_USAGES: wgpu::TextureUsages =
    wgpu::TextureUsages::TEXTURE_BINDING.union(wgpu::TextureUsages::COPY_DST);

/// The exact readback path: an `Rgba32Float` target where the adapter renders to one,
/// else an `Rgba32Uint` target.
pub(crate) fn choose_readback(
    float: wgpu::TextureUsages,
    uint: wgpu::TextureUsages,
) -> Result<ExactReadback, Capability> {
    if float.contains(TARGET_USAGES) {
        Ok(ExactReadback::FloatTarget)
    } else if uint.contains(TARGET_USAGES) {
        Ok(ExactReadback::UintTarget)
    } else {
        Err(Capability::ExactReadback)
    }
}

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

/// Counts of bind groups, textures and samplers of one pipeline against the adapter's limits.
pub(crate) fn check_bindings(
    groups: u32,
    textures: usize,
    samplers: usize,
    limits: &wgpu::Limits,
) -> Result<(), Capability> {
    if groups > limits.max_bind_groups {
        return Err(Capability::BindGroups {
            needed: groups,
            limit: limits.max_bind_groups,
        });
    }
    let needed = count(textures);
    if needed > limits.max_sampled_textures_per_shader_stage {
        return Err(Capability::VertexTextures {
            needed,
            limit: limits.max_sampled_textures_per_shader_stage,
        });
    }
    let needed = count(samplers);
    if needed > limits.max_samplers_per_shader_stage {
        return Err(Capability::Samplers {
            needed,
            limit: limits.max_samplers_per_shader_stage,
        });
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

/// The size of a texture against the adapter's dimension limits.
pub(crate) fn check_texture_size(
    kind: TextureKind,
    [width, height, depth]: [u32; 3],
    limits: &wgpu::Limits,
) -> Result<(), Capability> {
    let (limit, fits) = match kind {
        TextureKind::TwoD | TextureKind::Cube => {
            let limit = limits.max_texture_dimension_2d;
            (limit, width <= limit && height <= limit)
        }
        TextureKind::Volume => {
            let limit = limits.max_texture_dimension_3d;
            (limit, width <= limit && height <= limit && depth <= limit)
        }
    };
    match fits {
        true => Ok(()),
        false => Err(Capability::TextureSize {
            kind,
            width,
            height,
            depth,
            limit,
        }),
    }
}

/// Vertex streams (per-vertex or per-instance) against the adapter's limits and features.
pub(crate) fn check_vertex_buffers(
    buffers: &[VertexBuffer<'_>],
    limits: &wgpu::Limits,
    features: wgpu::Features,
) -> Result<(), Capability> {
    let needed = count(buffers.len());
    if needed > limits.max_vertex_buffers {
        return Err(Capability::VertexBuffers {
            needed,
            limit: limits.max_vertex_buffers,
        });
    }
    for buffer in buffers {
        let stride = buffer.layout.array_stride;
        if stride > u64::from(limits.max_vertex_buffer_array_stride) {
            return Err(Capability::VertexStride {
                stride,
                limit: limits.max_vertex_buffer_array_stride,
            });
        }
        for attribute in buffer.layout.attributes {
            if attribute.shader_location >= limits.max_vertex_attributes {
                return Err(Capability::VertexAttributeLocation {
                    location: attribute.shader_location,
                    limit: limits.max_vertex_attributes,
                });
            }
            let feature = match attribute.format {
                wgpu::VertexFormat::Float64
                | wgpu::VertexFormat::Float64x2
                | wgpu::VertexFormat::Float64x3
                | wgpu::VertexFormat::Float64x4 => wgpu::Features::VERTEX_ATTRIBUTE_64BIT,
                _ => wgpu::Features::empty(),
            };
            if !features.contains(feature) {
                return Err(Capability::VertexFormat {
                    format: attribute.format,
                    feature,
                });
            }
        }
    }
    Ok(())
}

/// Colour targets of one pass against the adapter's limit.
pub(crate) fn check_color_attachments(
    needed: u32,
    limits: &wgpu::Limits,
) -> Result<(), Capability> {
    match needed <= limits.max_color_attachments {
        true => Ok(()),
        false => Err(Capability::ColorAttachments {
            needed,
            limit: limits.max_color_attachments,
        }),
    }
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
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
    fn readback_prefers_float_then_uint() {
        let all = wgpu::TextureUsages::all();
        let sampled = wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_SRC;
        assert_eq!(choose_readback(all, all), Ok(ExactReadback::FloatTarget));
        assert_eq!(choose_readback(sampled, all), Ok(ExactReadback::UintTarget));
        assert_eq!(
            choose_readback(sampled, sampled),
            Err(Capability::ExactReadback)
        );
        assert_eq!(
            ExactReadback::UintTarget.format(),
            wgpu::TextureFormat::Rgba32Uint
        );
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
            mag_filter: crate::TextureFilter::Linear,
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

    #[test]
    fn binding_counts_texture_sizes_and_vertex_streams() {
        let limits = wgpu::Limits::downlevel_defaults();
        assert_eq!(check_bindings(4, 16, 16, &limits), Ok(()));
        assert_eq!(
            check_bindings(5, 0, 0, &limits),
            Err(Capability::BindGroups {
                needed: 5,
                limit: 4
            })
        );
        assert_eq!(
            check_bindings(1, 17, 0, &limits),
            Err(Capability::VertexTextures {
                needed: 17,
                limit: 16
            })
        );
        assert_eq!(
            check_texture_size(TextureKind::Volume, [4, 4, 4096], &limits)
                .map_err(|e| e.to_string()),
            Err("a Volume texture of 4x4x4096: the adapter allows 256 per dimension".to_owned())
        );
        let attributes = [wgpu::VertexAttribute {
            format: wgpu::VertexFormat::Float64x2,
            offset: 0,
            shader_location: 0,
        }];
        let buffer = VertexBuffer {
            layout: wgpu::VertexBufferLayout {
                array_stride: 16,
                step_mode: wgpu::VertexStepMode::Instance,
                attributes: &attributes,
            },
            data: &[],
        };
        assert_eq!(
            check_vertex_buffers(
                std::slice::from_ref(&buffer),
                &limits,
                wgpu::Features::empty()
            ),
            Err(Capability::VertexFormat {
                format: wgpu::VertexFormat::Float64x2,
                feature: wgpu::Features::VERTEX_ATTRIBUTE_64BIT
            })
        );
        let wide = VertexBuffer {
            layout: wgpu::VertexBufferLayout {
                array_stride: 4096,
                attributes: &[],
                ..buffer.layout.clone()
            },
            data: &[],
        };
        assert_eq!(
            check_vertex_buffers(&[wide], &limits, wgpu::Features::empty()),
            Err(Capability::VertexStride {
                stride: 4096,
                limit: 2048
            })
        );
        assert_eq!(
            check_color_attachments(5, &limits),
            Err(Capability::ColorAttachments {
                needed: 5,
                limit: 4
            })
        );
    }
}
