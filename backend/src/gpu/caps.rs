//! What the adapter can do, checked before anything is created on the GPU.
//!
//! D3D9 vertex work runs on every wgpu backend, but the downlevel ones (GL/GLES, and
//! WebGPU's compatibility tier) lack some WebGPU guarantees: float render targets, vertex
//! storage buffers, large uniform buffers. Each texture, target and pass the device or the
//! test harness makes is checked here against the adapter's downlevel flags, limits and format features
//! first, so a feature that cannot run is a [`GpuError::Unsupported`](super::GpuError)
//! naming the missing [`Capability`], never a wgpu validation error deep in a draw.

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
        "a {dimension:?} texture of {width}x{height}x{depth}: the adapter allows {limit} per dimension"
    )]
    TextureSize {
        dimension: wgpu::TextureViewDimension,
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
}

/// How exact `f32` values come back from the GPU (the vertex probe and `Rgba32Float`
/// render targets). [`Gpu::exact_readback`](super::Gpu::exact_readback) says which one a
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

/// The usages a render target that is read back needs.
pub const TARGET_USAGES: wgpu::TextureUsages =
    wgpu::TextureUsages::RENDER_ATTACHMENT.union(wgpu::TextureUsages::COPY_SRC);

/// The usages a sampled texture filled from the CPU needs.
pub const TEXTURE_USAGES: wgpu::TextureUsages =
    wgpu::TextureUsages::TEXTURE_BINDING.union(wgpu::TextureUsages::COPY_DST);

/// The exact readback path: an `Rgba32Float` target where the adapter renders to one,
/// else an `Rgba32Uint` target.
pub fn choose_readback(
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

/// Counts of bind groups, textures and samplers of one pipeline against the adapter's limits.
pub fn check_bindings(
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

/// The size of a texture viewed as `dimension` (`D2`, `Cube` or `D3`) against the adapter's
/// dimension limits.
pub fn check_texture_size(
    dimension: wgpu::TextureViewDimension,
    [width, height, depth]: [u32; 3],
    limits: &wgpu::Limits,
) -> Result<(), Capability> {
    let (limit, fits) = match dimension {
        wgpu::TextureViewDimension::D3 => {
            let limit = limits.max_texture_dimension_3d;
            (limit, width <= limit && height <= limit && depth <= limit)
        }
        _ => {
            let limit = limits.max_texture_dimension_2d;
            (limit, width <= limit && height <= limit)
        }
    };
    match fits {
        true => Ok(()),
        false => Err(Capability::TextureSize {
            dimension,
            width,
            height,
            depth,
            limit,
        }),
    }
}

/// Vertex streams (per-vertex or per-instance) against the adapter's limits and features.
pub fn check_vertex_buffers(
    buffers: &[wgpu::VertexBufferLayout<'_>],
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
        let stride = buffer.array_stride;
        if stride > u64::from(limits.max_vertex_buffer_array_stride) {
            return Err(Capability::VertexStride {
                stride,
                limit: limits.max_vertex_buffer_array_stride,
            });
        }
        for attribute in buffer.attributes {
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
pub fn check_color_attachments(needed: u32, limits: &wgpu::Limits) -> Result<(), Capability> {
    match needed <= limits.max_color_attachments {
        true => Ok(()),
        false => Err(Capability::ColorAttachments {
            needed,
            limit: limits.max_color_attachments,
        }),
    }
}

/// `n` as a `u32` limit count, saturating.
pub fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

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
            check_texture_size(wgpu::TextureViewDimension::D3, [4, 4, 4096], &limits)
                .map_err(|e| e.to_string()),
            Err("a D3 texture of 4x4x4096: the adapter allows 256 per dimension".to_owned())
        );
        let attributes = [wgpu::VertexAttribute {
            format: wgpu::VertexFormat::Float64x2,
            offset: 0,
            shader_location: 0,
        }];
        let buffer = wgpu::VertexBufferLayout {
            array_stride: 16,
            step_mode: wgpu::VertexStepMode::Instance,
            attributes: &attributes,
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
        let wide = wgpu::VertexBufferLayout {
            array_stride: 4096,
            attributes: &[],
            ..buffer.clone()
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
