//! Reads a vertex stage's inter-stage outputs back as exact `f32` values.
//!
//! Each probed vertex is drawn as one point into its own cell of
//! `CELL` x `CELL` (4x4) texels, the scissor being the cell. The viewport of
//! vertex `i` is a half-texel square strictly inside one texel of cell `i`, so the
//! point covers that texel's centre wherever the shader places it inside the clip
//! volume, edges included. GL truncates viewports to whole texels, so there it is
//! the 2x2-texel square in the middle of the cell, and the point covers the texel
//! centre its rasterization rule gives it, inside the cell; the readback takes the
//! texel the point covered. A generated pass-through fragment stage copies one
//! `@location` per row to an `Rgba32Float` target (or, where the adapter cannot
//! render to one, the bit patterns to an `Rgba32Uint` target: see
//! [`ExactReadback`]) and marks coverage in a
//! second target, so a clipped vertex is reported, never read as zero.
//! The probe runs a copy of the vertex module whose `@location` outputs are
//! `@interpolate(flat, either)`, as are the pass-through inputs, so the values
//! are the vertex's own bit for bit (perspective interpolation of a point may
//! still turn −0 into +0, as lavapipe does).

use std::collections::BTreeMap;

use d3d9_backend::gpu::{ExactReadback, Gpu};

use crate::draw::{Shader, ShaderStage, Uniform, VertexBuffer};
use crate::error::HarnessError;
use crate::render::{
    begin_pass, create_module, naga_module, read_texture, target_texture, Bindings,
};
use crate::texture::{SamplerBinding, TextureBinding};

/// Texels per side of one probed vertex's cell in the probe's targets.
const CELL: u32 = 4;

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

/// Runs the vertex stage of `probe` and returns, for each instance and
/// vertex (index `instance * vertex_count + vertex`), the values of all
/// its `@location` outputs. The position is not read back; it must lie
/// inside the clip volume (`-w <= x, y <= w`, `0 <= z <= w`), else
/// [`HarnessError::Clipped`].
pub(crate) fn vertex_outputs(
    gpu: &Gpu,
    probe: &VertexProbe<'_>,
) -> Result<Vec<OutputValues>, HarnessError> {
    let module = naga_module(probe.vertex.shader, "vertex")?;
    let mut module = module;
    flatten_outputs(module.to_mut(), probe.vertex.entry_point);
    let outputs = vertex_outputs_of(&module, probe.vertex.entry_point)?;
    let count = u64::from(probe.vertex_count) * u64::from(probe.instance_count);
    let limit = gpu.device().limits().max_texture_dimension_2d / CELL;
    let columns = u32::try_from(count)
        .ok()
        .filter(|&c| c <= limit)
        .ok_or(HarnessError::ProbeCount { count, limit })?;
    if columns == 0 {
        return Ok(Vec::new());
    }
    let rows = u32::try_from(outputs.len().max(1)).unwrap_or(u32::MAX);
    let readback = gpu.exact_readback()?;
    let limits = gpu.device().limits();
    gpu.require(crate::caps::check_streams(
        probe.vertex_buffers,
        &limits,
        gpu.device().features(),
    ))?;
    gpu.require(d3d9_backend::gpu::caps::check_color_attachments(2, &limits))?;
    let fragments = match outputs.len() {
        0 => vec![pass_through(None, readback)?],
        _ => outputs
            .iter()
            .map(|o| pass_through(Some(o), readback))
            .collect::<Result<_, _>>()?,
    };

    let values_format = readback.format();
    let covered_format = wgpu::TextureFormat::R8Unorm;
    let (width, height) = (columns * CELL, rows.saturating_mul(CELL));
    // Where the viewport in a cell lies: strictly inside one texel where viewports may
    // be fractional, so every point covers that texel's centre; two whole texels on GL,
    // which truncates viewports to integers (the point then covers the one texel centre
    // its rasterization rule gives it, inside the cell).
    let viewport = match gpu.adapter_info().backend {
        wgpu::Backend::Gl => ((CELL / 2 - 1) as f32, 2.0),
        _ => (CELL as f32 / 2.0 - 0.75, 0.5),
    };
    let values = target_texture(gpu, values_format, width, height)?;
    let covered = target_texture(gpu, covered_format, width, height)?;
    gpu.capture::<_, HarnessError>("vertex probe", || {
        let vs = create_module(gpu, Shader::Naga(&module), probe.vertex.constants);
        let bindings = Bindings::new(gpu, probe.uniforms, probe.textures, probe.samplers)?;
        let layouts: Vec<_> = probe
            .vertex_buffers
            .iter()
            .map(|b| Some(b.layout.clone()))
            .collect();
        let pipelines: Vec<_> = fragments
            .iter()
            .map(|fragment| {
                let fs = create_module(gpu, Shader::Naga(fragment), &[]);
                gpu.device()
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
            .map(|b| gpu.init_buffer(b.data, wgpu::BufferUsages::VERTEX))
            .collect();
        let values_view = values.create_view(&Default::default());
        let covered_view = covered.create_view(&Default::default());
        let mut encoder = gpu.device().create_command_encoder(&Default::default());
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
                        let (x, y) = (column * CELL, row * CELL);
                        let (offset, size) = viewport;
                        let at = |n: u32| n as f32 + offset;
                        pass.set_viewport(at(x), at(y), size, size, 0.0, 1.0);
                        pass.set_scissor_rect(x, y, CELL, CELL);
                        pass.draw(vertex..vertex + 1, instance..instance + 1);
                    }
                }
            }
        }
        gpu.queue().submit([encoder.finish()]);
        Ok(())
    })?;
    let values = read_texture(gpu, &values, values_format, width, height)?;
    let covered = read_texture(gpu, &covered, covered_format, width, height)?;

    let mut result = Vec::with_capacity(columns as usize);
    for column in 0..columns {
        let mut vertex_values = OutputValues::new();
        // The texel the point covered in each row's cell.
        let mut texels = Vec::with_capacity(rows as usize);
        for row in 0..rows {
            let covered_texel = (0..CELL * CELL)
                .map(|i| (column * CELL + i % CELL, row * CELL + i / CELL))
                .find(|&(x, y)| covered.texel(x, y) == Some(&[255u8][..]));
            let Some(texel) = covered_texel else {
                return Err(HarnessError::Clipped {
                    vertex: column % probe.vertex_count,
                    instance: column / probe.vertex_count,
                });
            };
            texels.push(texel);
        }
        for (&(x, y), output) in texels.iter().zip(&outputs) {
            // Float or uint target alike, the texel's bytes are the floats' bytes.
            let texel: [f32; 4] = values
                .texel(x, y)
                .and_then(|t| <[u8; 16]>::try_from(t).ok())
                .map(bytemuck::cast)
                .unwrap_or_default();
            let components = texel.get(..output.components).unwrap_or(&texel);
            vertex_values.insert(output.location, components.to_vec());
        }
        result.push(vertex_values);
    }
    Ok(result)
}

/// The `@location` outputs of the vertex entry point `name` (or the only one).
fn vertex_outputs_of(
    module: &naga::Module,
    name: Option<&str>,
) -> Result<Vec<Output>, HarnessError> {
    let mut candidates = module
        .entry_points
        .iter()
        .filter(|ep| ep.stage == naga::ShaderStage::Vertex)
        .filter(|ep| name.is_none_or(|n| ep.name == n));
    let no_entry = || HarnessError::NoVertexEntryPoint {
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
                return Err(HarnessError::ProbeOutput {
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

/// `binding` with flat interpolation; built-ins unchanged. The sampling is `either`: a
/// point has one vertex, so it is the same as `first`, and GLSL (the GL backend) has no
/// `first`.
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
            sampling: Some(naga::Sampling::Either),
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

/// A fragment stage writing `output` (zero-extended to vec4) to target 0 — the floats, or
/// their bit patterns on [`ExactReadback::UintTarget`] — and 1.0 to target 1. Its input
/// binding is a copy of the (flattened) vertex output's, so interpolation and sampling
/// match exactly.
fn pass_through(
    output: Option<&Output>,
    readback: ExactReadback,
) -> Result<naga::Module, HarnessError> {
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
    let (ty, value) = match readback {
        ExactReadback::FloatTarget => ("vec4<f32>", value),
        ExactReadback::UintTarget => ("vec4<u32>", format!("bitcast<vec4<u32>>({value})")),
    };
    let source = format!(
        "struct ProbeOut {{ @location(0) value: {ty}, @location(1) covered: f32 }}\n\
         @fragment fn probe({input}) -> ProbeOut {{ return ProbeOut({value}, 1.0); }}\n"
    );
    let mut module = naga::front::wgsl::parse_str(&source).map_err(|e| HarnessError::Wgsl {
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
