//! Several draws into one cleared target, in order, as a D3D9 frame between
//! `Clear` and the read-back: later draws cover earlier ones.

use d3d9_backend::device::CullMode;
use d3d9_backend::gpu::bitcast::bitcast_fragment_output;
use d3d9_backend::gpu::provoking::{has_flat_output, last_vertex_order};
use d3d9_backend::gpu::{bits_of, ExactReadback, Gpu, GpuError, Indices};

use crate::caps::check_streams;
use crate::draw::{Draw, Image, Shader, ShaderStage, Target};
use crate::error::HarnessError;
use crate::render::{
    begin_pass, create_module, naga_module, read_texture, target_texture, Bindings,
};

/// Clears `draw.target`, makes the one draw, and reads the target back.
/// Cull mode none, no depth buffer, no blending: a one-draw [`Frame`].
pub(crate) fn render(gpu: &Gpu, draw: &Draw<'_>) -> Result<Image, HarnessError> {
    render_frame(
        gpu,
        &Frame {
            target: draw.target,
            draws: std::slice::from_ref(draw),
            cull: CullMode::None,
        },
    )
}

/// A cleared target and the draws made into it, in order.
///
/// Each draw's own `target` field is ignored: every draw renders into
/// `target`, whose format all pipelines are built for.
#[derive(Clone, Debug)]
pub struct Frame<'a> {
    pub target: Target,
    pub draws: &'a [Draw<'a>],
    pub cull: CullMode,
}

/// Clears `frame.target`, makes every draw in order in one render pass
/// (no depth buffer, no blending: a later draw overwrites what it
/// covers), and reads the target back.
///
/// An `Rgba32Float` target on a device whose [`ExactReadback`] is
/// [`ExactReadback::UintTarget`] is drawn into `Rgba32Uint` by fragment stages that
/// write the bits of their floats; the image is the same, bit for bit.
pub(crate) fn render_frame(gpu: &Gpu, frame: &Frame<'_>) -> Result<Image, HarnessError> {
    let mut images = render_frame_targets(gpu, frame, &[])?;
    images
        .pop()
        .ok_or_else(|| GpuError::Readback("no image".into()).into())
}

/// [`Harness::render_frame`](crate::Harness::render_frame) with D3D9's multiple render
/// targets: `frame.target` is render target 0 and `more[i]` render target `i + 1`, each
/// cleared to its own colour, all of the size of `frame.target`. A target the draw's fragment stage has no `@location` for
/// is left as it is (D3D9: a render target the pixel shader does not write keeps its
/// contents; WebGPU: its write mask is empty). The images come back in target order. The
/// bit-pattern path of `Rgba32Float` ([`ExactReadback::UintTarget`]) is taken only for a
/// target alone.
pub(crate) fn render_frame_targets(
    gpu: &Gpu,
    frame: &Frame<'_>,
    more: &[Target],
) -> Result<Vec<Image>, HarnessError> {
    let target = frame.target;
    let bits = more.is_empty()
        && target.format == wgpu::TextureFormat::Rgba32Float
        && gpu.exact_readback()? == ExactReadback::UintTarget;
    // (format drawn into, clear colour) of each target.
    let drawn: Vec<(wgpu::TextureFormat, wgpu::Color)> = match bits {
        false => std::iter::once(target)
            .chain(more.iter().copied())
            .map(|t| (t.format, t.clear))
            .collect(),
        true => vec![(wgpu::TextureFormat::Rgba32Uint, bits_of(target.clear))],
    };
    for t in more {
        if (t.width, t.height) != (target.width, target.height) {
            return Err(HarnessError::TargetSize {
                width: t.width,
                height: t.height,
                limit: target.width.min(target.height),
            });
        }
    }
    let textures = drawn
        .iter()
        .map(|(format, _)| target_texture(gpu, *format, target.width, target.height))
        .collect::<Result<Vec<_>, _>>()?;
    let limits = gpu.device().limits();
    for draw in frame.draws {
        gpu.require(check_streams(
            draw.vertex_buffers,
            &limits,
            gpu.device().features(),
        ))?;
    }
    let fragments = frame
        .draws
        .iter()
        .map(|draw| {
            let entry = draw.fragment.entry_point;
            if bits {
                let mut module = naga_module(draw.fragment.shader, "fragment")?;
                bitcast_fragment_output(module.to_mut(), entry)?;
                return Ok((Some(module.into_owned()), vec![0]));
            }
            // WGSL that does not parse is left for wgpu to report, as a draw's error.
            let written = match naga_module(draw.fragment.shader, "fragment") {
                Ok(module) => fragment_locations(&module, entry),
                Err(_) => vec![0],
            };
            Ok((None, written))
        })
        .collect::<Result<Vec<_>, HarnessError>>()?;
    // GLES takes flat values from a primitive's last vertex, D3D9 from its first: on GL a
    // draw with a flat output is reissued with its primitives rotated (`provoking`).
    let reordered = frame
        .draws
        .iter()
        .map(|draw| {
            if gpu.adapter_info().backend != wgpu::Backend::Gl {
                return None;
            }
            // WGSL that does not parse is left for wgpu to report, as a draw's error.
            let Ok(module) = naga_module(draw.vertex.shader, "vertex") else {
                return None;
            };
            if !has_flat_output(&module, draw.vertex.entry_point) {
                return None;
            }
            last_vertex_order(draw.topology, draw.indices.as_ref(), draw.vertex_count)
        })
        .collect::<Vec<_>>();
    gpu.capture::<_, HarnessError>("frame", || {
        let prepared = frame
            .draws
            .iter()
            .zip(&fragments)
            .zip(&reordered)
            .map(|((draw, (fragment, written)), reorder)| {
                let fragment = match fragment {
                    Some(module) => Shader::Naga(module),
                    None => draw.fragment.shader,
                };
                prepare(gpu, frame, draw, (fragment, written), reorder, &drawn)
            })
            .collect::<Result<Vec<_>, HarnessError>>()?;
        let views: Vec<_> = textures
            .iter()
            .map(|t| t.create_view(&Default::default()))
            .collect();
        let attachments: Vec<_> = views
            .iter()
            .zip(&drawn)
            .map(|(view, (_, clear))| (view, *clear))
            .collect();
        let mut encoder = gpu.device().create_command_encoder(&Default::default());
        {
            let mut pass = begin_pass(&mut encoder, &attachments);
            for Prepared {
                draw,
                pipeline,
                bindings,
                buffers,
                index,
            } in &prepared
            {
                pass.set_pipeline(pipeline);
                bindings.set(&mut pass);
                for (slot, buffer) in (0u32..).zip(buffers) {
                    pass.set_vertex_buffer(slot, buffer.slice(..));
                }
                let instances = 0..draw.instance_count;
                match index {
                    None => pass.draw(0..draw.vertex_count, instances),
                    Some((buffer, format, count)) => {
                        pass.set_index_buffer(buffer.slice(..), *format);
                        pass.draw_indexed(0..*count, 0, instances);
                    }
                }
            }
        }
        gpu.queue().submit([encoder.finish()]);
        Ok(())
    })?;
    std::iter::once(target)
        .chain(more.iter().copied())
        .zip(textures.iter().zip(&drawn))
        .map(|(t, (texture, (format, _)))| {
            let image = read_texture(gpu, texture, *format, t.width, t.height)?;
            Ok(Image {
                format: t.format,
                ..image
            })
        })
        .collect()
}

/// One draw of a frame, ready to record: its pipeline, bind groups and buffers.
struct Prepared<'d> {
    draw: &'d Draw<'d>,
    pipeline: wgpu::RenderPipeline,
    bindings: Bindings,
    buffers: Vec<wgpu::Buffer>,
    /// The index buffer, its format and count.
    index: Option<(wgpu::Buffer, wgpu::IndexFormat, u32)>,
}

/// Prepares `draw` into the targets `drawn` (format, clear colour): its `fragment` stage
/// writes the `@location`s `written` (the others' write masks are empty); `reorder` rotates
/// its primitives (a topology and indices) where GL's provoking vertex needs it.
fn prepare<'d>(
    gpu: &Gpu,
    frame: &Frame<'_>,
    draw: &'d Draw<'d>,
    (fragment, written): (Shader<'_>, &[u32]),
    reorder: &Option<(wgpu::PrimitiveTopology, Vec<u32>)>,
    drawn: &[(wgpu::TextureFormat, wgpu::Color)],
) -> Result<Prepared<'d>, HarnessError> {
    let topology = reorder.as_ref().map_or(draw.topology, |(t, _)| *t);
    let (front_face, cull_mode) = draw.cull.unwrap_or(frame.cull).primitive_state();
    let vs = create_module(gpu, draw.vertex.shader, draw.vertex.constants);
    let fs = create_module(gpu, fragment, draw.fragment.constants);
    let bindings = Bindings::new(gpu, draw.uniforms, draw.textures, draw.samplers)?;
    let layouts: Vec<_> = draw
        .vertex_buffers
        .iter()
        .map(|b| Some(b.layout.clone()))
        .collect();
    let color_targets: Vec<_> = (0u32..)
        .zip(drawn)
        .map(|(location, (format, _))| {
            Some(wgpu::ColorTargetState {
                format: *format,
                blend: None,
                write_mask: match written.contains(&location) {
                    true => wgpu::ColorWrites::ALL,
                    false => wgpu::ColorWrites::empty(),
                },
            })
        })
        .collect();
    let pipeline = gpu
        .device()
        .create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("frame draw"),
            layout: Some(&bindings.pipeline_layout),
            vertex: wgpu::VertexState {
                module: &vs,
                entry_point: draw.vertex.entry_point,
                compilation_options: draw.vertex.compilation_options(),
                buffers: &layouts,
            },
            primitive: wgpu::PrimitiveState {
                topology,
                strip_index_format: draw
                    .indices
                    .filter(|_| topology.is_strip())
                    .map(|i| i.format()),
                front_face,
                cull_mode,
                ..Default::default()
            },
            depth_stencil: None,
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: &fs,
                entry_point: draw.fragment.entry_point,
                compilation_options: ShaderStage {
                    shader: fragment,
                    ..draw.fragment
                }
                .compilation_options(),
                targets: &color_targets,
            }),
            multiview_mask: None,
            cache: None,
        });
    let buffers: Vec<_> = draw
        .vertex_buffers
        .iter()
        .map(|b| gpu.init_buffer(b.data, wgpu::BufferUsages::VERTEX))
        .collect();
    let reindexed = reorder.as_ref().map(|(_, order)| Indices::U32(order));
    let index = reindexed.or(draw.indices).map(|indices| {
        let (bytes, count): (&[u8], usize) = match indices {
            Indices::U16(i) => (bytemuck::cast_slice(i), i.len()),
            Indices::U32(i) => (bytemuck::cast_slice(i), i.len()),
        };
        let buffer = gpu.init_buffer(bytes, wgpu::BufferUsages::INDEX);
        (
            buffer,
            indices.format(),
            u32::try_from(count).unwrap_or(u32::MAX),
        )
    });
    Ok(Prepared {
        draw,
        pipeline,
        bindings,
        buffers,
        index,
    })
}

/// The `@location`s the fragment entry point `entry` (the only one when `None`) writes.
fn fragment_locations(module: &naga::Module, entry: Option<&str>) -> Vec<u32> {
    let Some(ep) = module.entry_points.iter().find(|e| {
        e.stage == naga::ShaderStage::Fragment && entry.is_none_or(|name| e.name == name)
    }) else {
        return Vec::new();
    };
    let Some(result) = &ep.function.result else {
        return Vec::new();
    };
    let location = |b: &Option<naga::Binding>| match b {
        Some(naga::Binding::Location { location, .. }) => Some(*location),
        _ => None,
    };
    if let Some(l) = location(&result.binding) {
        return vec![l];
    }
    match &module.types[result.ty].inner {
        naga::TypeInner::Struct { members, .. } => members
            .iter()
            .filter_map(|m| location(&m.binding))
            .collect(),
        _ => Vec::new(),
    }
}
