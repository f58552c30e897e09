//! Reads a vertex stage's inter-stage outputs back as exact `f32` values.
//!
//! Each probed vertex is drawn as one point into its own texel: the
//! viewport of vertex `i` is a half-texel square inside texel `i`, so the
//! point covers that texel's centre wherever the shader places it inside
//! the clip volume. A generated pass-through fragment stage copies one
//! `@location` per row to an `Rgba32Float` target and marks coverage in a
//! second target, so a clipped vertex is reported, never read as zero.
//! The probe runs a copy of the vertex module whose `@location` outputs are
//! `@interpolate(flat, first)`, as are the pass-through inputs, so the values
//! are the vertex's own bit for bit (perspective interpolation of a point may
//! still turn −0 into +0, as lavapipe does).

use std::borrow::Cow;
use std::collections::BTreeMap;

use crate::render::{begin_pass, Bindings};
use crate::{
    Gpu, GpuError, SamplerBinding, Shader, ShaderStage, TextureBinding, Uniform, VertexBuffer,
};

/// One vertex's float outputs: `@location` → components (1 to 4, as many
/// as the output variable has).
pub type OutputValues = BTreeMap<u32, Vec<f32>>;

/// A vertex stage to run over `vertex_count` vertices of `instance_count`
/// instances. Build it with [`VertexProbe::new`] and override fields.
#[derive(Clone, Debug)]
pub struct VertexProbe<'a> {
    pub vertex: ShaderStage<'a>,
    pub vertex_buffers: &'a [VertexBuffer<'a>],
    pub uniforms: &'a [Uniform<'a>],
    /// Textures the vertex stage samples (`texldl`); none by default.
    pub textures: &'a [TextureBinding<'a>],
    /// Their samplers; none by default.
    pub samplers: &'a [SamplerBinding],
    pub vertex_count: u32,
    pub instance_count: u32,
}

impl<'a> VertexProbe<'a> {
    /// `vertex_count` vertices of one instance, no buffers, no uniforms, no
    /// textures or samplers.
    pub fn new(vertex: ShaderStage<'a>, vertex_count: u32) -> Self {
        Self {
            vertex,
            vertex_buffers: &[],
            uniforms: &[],
            textures: &[],
            samplers: &[],
            vertex_count,
            instance_count: 1,
        }
    }
}

/// One `@location` output of the vertex entry point.
struct Output {
    location: u32,
    binding: naga::Binding,
    components: usize,
}

impl Gpu {
    /// Runs the vertex stage of `probe` and returns, for each instance and
    /// vertex (index `instance * vertex_count + vertex`), the values of all
    /// its `@location` outputs. The position is not read back; it must lie
    /// inside the clip volume (`-w <= x, y <= w`, `0 <= z <= w`), else
    /// [`GpuError::Clipped`].
    pub fn vertex_outputs(&self, probe: &VertexProbe<'_>) -> Result<Vec<OutputValues>, GpuError> {
        let module: Cow<'_, naga::Module> =
            match probe.vertex.shader {
                Shader::Naga(module) => Cow::Borrowed(module),
                Shader::Wgsl(text) => Cow::Owned(naga::front::wgsl::parse_str(text).map_err(
                    |e| GpuError::Wgsl {
                        stage: "vertex",
                        message: e.emit_to_string(text),
                    },
                )?),
            };
        let mut module = module;
        flatten_outputs(module.to_mut(), probe.vertex.entry_point);
        let outputs = vertex_outputs_of(&module, probe.vertex.entry_point)?;
        let count = u64::from(probe.vertex_count) * u64::from(probe.instance_count);
        let limit = self.device.limits().max_texture_dimension_2d;
        let columns = u32::try_from(count)
            .ok()
            .filter(|&c| c <= limit)
            .ok_or(GpuError::ProbeCount { count, limit })?;
        if columns == 0 {
            return Ok(Vec::new());
        }
        let rows = u32::try_from(outputs.len().max(1)).unwrap_or(u32::MAX);
        let fragments = match outputs.len() {
            0 => vec![pass_through(None)?],
            _ => outputs
                .iter()
                .map(|o| pass_through(Some(o)))
                .collect::<Result<_, _>>()?,
        };

        let values_format = wgpu::TextureFormat::Rgba32Float;
        let covered_format = wgpu::TextureFormat::R8Unorm;
        let values = self.target_texture(values_format, columns, rows)?;
        let covered = self.target_texture(covered_format, columns, rows)?;
        self.capture("vertex probe", || {
            let vs = self.create_module(Shader::Naga(&module));
            let bindings = Bindings::new(self, probe.uniforms, probe.textures, probe.samplers)?;
            let layouts: Vec<_> = probe
                .vertex_buffers
                .iter()
                .map(|b| Some(b.layout.clone()))
                .collect();
            let pipelines: Vec<_> = fragments
                .iter()
                .map(|fragment| {
                    let fs = self.create_module(Shader::Naga(fragment));
                    self.device
                        .create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                            label: Some("vertex probe"),
                            layout: Some(&bindings.pipeline_layout),
                            vertex: wgpu::VertexState {
                                module: &vs,
                                entry_point: probe.vertex.entry_point,
                                compilation_options: Default::default(),
                                buffers: &layouts,
                            },
                            primitive: wgpu::PrimitiveState {
                                topology: wgpu::PrimitiveTopology::PointList,
                                ..Default::default()
                            },
                            depth_stencil: None,
                            multisample: Default::default(),
                            fragment: Some(wgpu::FragmentState {
                                module: &fs,
                                entry_point: None,
                                compilation_options: Default::default(),
                                targets: &[Some(values_format.into()), Some(covered_format.into())],
                            }),
                            multiview_mask: None,
                            cache: None,
                        })
                })
                .collect();
            let buffers: Vec<_> = probe
                .vertex_buffers
                .iter()
                .map(|b| self.init_buffer(b.data, wgpu::BufferUsages::VERTEX))
                .collect();
            let values_view = values.create_view(&Default::default());
            let covered_view = covered.create_view(&Default::default());
            let mut encoder = self.device.create_command_encoder(&Default::default());
            {
                let mut pass = begin_pass(
                    &mut encoder,
                    &[
                        (&values_view, wgpu::Color::TRANSPARENT),
                        (&covered_view, wgpu::Color::TRANSPARENT),
                    ],
                );
                bindings.set(&mut pass);
                for (slot, buffer) in (0u32..).zip(&buffers) {
                    pass.set_vertex_buffer(slot, buffer.slice(..));
                }
                for (row, pipeline) in (0u32..).zip(&pipelines) {
                    pass.set_pipeline(pipeline);
                    for instance in 0..probe.instance_count {
                        for vertex in 0..probe.vertex_count {
                            let column = instance * probe.vertex_count + vertex;
                            pass.set_viewport(
                                column as f32 + 0.25,
                                row as f32 + 0.25,
                                0.5,
                                0.5,
                                0.0,
                                1.0,
                            );
                            pass.set_scissor_rect(column, row, 1, 1);
                            pass.draw(vertex..vertex + 1, instance..instance + 1);
                        }
                    }
                }
            }
            self.queue.submit([encoder.finish()]);
            Ok(())
        })?;
        let values = self.read_texture(&values, values_format, columns, rows)?;
        let covered = self.read_texture(&covered, covered_format, columns, rows)?;

        let mut result = Vec::with_capacity(columns as usize);
        for column in 0..columns {
            let mut vertex_values = OutputValues::new();
            for row in 0..rows {
                if covered.texel(column, row) != Some(&[255u8][..]) {
                    return Err(GpuError::Clipped {
                        vertex: column % probe.vertex_count,
                        instance: column / probe.vertex_count,
                    });
                }
            }
            for (row, output) in (0u32..).zip(&outputs) {
                let texel = values.rgba32f(column, row).unwrap_or_default();
                let components = texel.get(..output.components).unwrap_or(&texel);
                vertex_values.insert(output.location, components.to_vec());
            }
            result.push(vertex_values);
        }
        Ok(result)
    }
}

/// The `@location` outputs of the vertex entry point `name` (or the only one).
fn vertex_outputs_of(module: &naga::Module, name: Option<&str>) -> Result<Vec<Output>, GpuError> {
    let mut candidates = module
        .entry_points
        .iter()
        .filter(|ep| ep.stage == naga::ShaderStage::Vertex)
        .filter(|ep| name.is_none_or(|n| ep.name == n));
    let no_entry = || GpuError::NoVertexEntryPoint {
        name: name.map(str::to_owned),
    };
    let entry = candidates.next().ok_or_else(no_entry)?;
    if candidates.next().is_some() {
        return Err(no_entry());
    }
    let Some(result) = &entry.function.result else {
        return Ok(Vec::new());
    };
    let members: Vec<(naga::Handle<naga::Type>, Option<&naga::Binding>)> =
        match (&result.binding, &module.types[result.ty].inner) {
            (Some(binding), _) => vec![(result.ty, Some(binding))],
            (None, naga::TypeInner::Struct { members, .. }) => {
                members.iter().map(|m| (m.ty, m.binding.as_ref())).collect()
            }
            (None, _) => Vec::new(),
        };
    let mut outputs = Vec::new();
    for (ty, binding) in members {
        let Some(binding @ naga::Binding::Location { location, .. }) = binding else {
            continue;
        };
        let inner = &module.types[ty].inner;
        let float = |scalar: &naga::Scalar| *scalar == naga::Scalar::F32;
        let components = match inner {
            naga::TypeInner::Scalar(s) if float(s) => 1,
            naga::TypeInner::Vector { size, scalar } if float(scalar) => *size as usize,
            other => {
                return Err(GpuError::ProbeOutput {
                    location: *location,
                    what: format!("{other:?}"),
                })
            }
        };
        outputs.push(Output {
            location: *location,
            binding: binding.clone(),
            components,
        });
    }
    outputs.sort_by_key(|o| o.location);
    Ok(outputs)
}

/// `binding` with flat interpolation (sampling `first`); built-ins unchanged.
fn flat(binding: &naga::Binding) -> naga::Binding {
    match binding {
        naga::Binding::Location {
            location,
            blend_src,
            per_primitive,
            ..
        } => naga::Binding::Location {
            location: *location,
            interpolation: Some(naga::Interpolation::Flat),
            sampling: Some(naga::Sampling::First),
            blend_src: *blend_src,
            per_primitive: *per_primitive,
        },
        other => other.clone(),
    }
}

/// Makes every `@location` output of the vertex entry point `name` (or each one) flat.
/// A result struct that cannot be rewritten in place (an identical flat struct already
/// exists) is left as it is; the pass-through copies whatever binding the output has.
fn flatten_outputs(module: &mut naga::Module, name: Option<&str>) {
    let mut structs = Vec::new();
    for entry in &mut module.entry_points {
        if entry.stage != naga::ShaderStage::Vertex || name.is_some_and(|n| entry.name != n) {
            continue;
        }
        if let Some(result) = &mut entry.function.result {
            match &mut result.binding {
                Some(binding) => *binding = flat(binding),
                None => structs.push(result.ty),
            }
        }
    }
    for ty in structs {
        let old = module.types[ty].clone();
        let naga::TypeInner::Struct { members, span } = &old.inner else {
            continue;
        };
        let members = members
            .iter()
            .map(|m| naga::StructMember {
                binding: m.binding.as_ref().map(flat),
                ..m.clone()
            })
            .collect();
        let new = naga::Type {
            name: old.name.clone(),
            inner: naga::TypeInner::Struct {
                members,
                span: *span,
            },
        };
        if new != old && module.types.get(&new).is_none() {
            module.types.replace(ty, new);
        }
    }
}

/// A fragment stage writing `output` (zero-extended to vec4) to target 0
/// and 1.0 to target 1. Its input binding is a copy of the (flattened)
/// vertex output's, so interpolation and sampling match exactly.
fn pass_through(output: Option<&Output>) -> Result<naga::Module, GpuError> {
    let (input, value) = match output {
        None => (String::new(), "vec4<f32>(0.0)".to_owned()),
        Some(o) => {
            let ty = match o.components {
                1 => "f32".to_owned(),
                n => format!("vec{n}<f32>"),
            };
            let zeros = ", 0.0".repeat(4 - o.components);
            let value = match o.components {
                4 => "v".to_owned(),
                _ => format!("vec4<f32>(v{zeros})"),
            };
            (format!("@location({}) v: {ty}", o.location), value)
        }
    };
    let source = format!(
        "struct ProbeOut {{ @location(0) value: vec4<f32>, @location(1) covered: f32 }}\n\
         @fragment fn probe({input}) -> ProbeOut {{ return ProbeOut({value}, 1.0); }}\n"
    );
    let mut module = naga::front::wgsl::parse_str(&source).map_err(|e| GpuError::Wgsl {
        stage: "generated probe fragment",
        message: e.emit_to_string(&source),
    })?;
    if let Some(o) = output {
        for entry in &mut module.entry_points {
            for argument in &mut entry.function.arguments {
                argument.binding = Some(o.binding.clone());
            }
        }
    }
    Ok(module)
}
