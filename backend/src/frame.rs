//! Several draws into one cleared target, in order, as a D3D9 frame between
//! `Clear` and the read-back: later draws cover earlier ones.

use crate::render::{begin_pass, Bindings};
use crate::{Draw, Gpu, GpuError, Image, Indices, Target};

/// `D3DRS_CULLMODE`: which triangles D3D9 discards. Winding is judged as
/// the triangle appears on screen; points and lines are never culled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CullMode {
    /// `D3DCULL_NONE`: every triangle is drawn.
    None,
    /// `D3DCULL_CW`: clockwise triangles are discarded.
    Cw,
    /// `D3DCULL_CCW` (the D3D9 default): counter-clockwise triangles are discarded.
    #[default]
    Ccw,
}

impl CullMode {
    /// The wgpu front face and cull mode with the same effect.
    pub fn primitive_state(self) -> (wgpu::FrontFace, Option<wgpu::Face>) {
        match self {
            CullMode::None => (wgpu::FrontFace::Cw, None),
            CullMode::Cw => (wgpu::FrontFace::Ccw, Some(wgpu::Face::Back)),
            CullMode::Ccw => (wgpu::FrontFace::Cw, Some(wgpu::Face::Back)),
        }
    }
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

impl Gpu {
    /// Clears `frame.target`, makes every draw in order in one render pass
    /// (no depth buffer, no blending: a later draw overwrites what it
    /// covers), and reads the target back.
    pub fn render_frame(&self, frame: &Frame<'_>) -> Result<Image, GpuError> {
        let target = frame.target;
        let texture = self.target_texture(target.format, target.width, target.height)?;
        self.capture("frame", || {
            let (front_face, cull_mode) = frame.cull.primitive_state();
            let mut prepared = Vec::with_capacity(frame.draws.len());
            for draw in frame.draws {
                let vs = self.create_module(draw.vertex.shader);
                let fs = self.create_module(draw.fragment.shader);
                let bindings = Bindings::new(self, draw.uniforms, draw.textures, draw.samplers)?;
                let layouts: Vec<_> = draw
                    .vertex_buffers
                    .iter()
                    .map(|b| Some(b.layout.clone()))
                    .collect();
                let pipeline =
                    self.device
                        .create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                            label: Some("frame draw"),
                            layout: Some(&bindings.pipeline_layout),
                            vertex: wgpu::VertexState {
                                module: &vs,
                                entry_point: draw.vertex.entry_point,
                                compilation_options: Default::default(),
                                buffers: &layouts,
                            },
                            primitive: wgpu::PrimitiveState {
                                topology: draw.topology,
                                strip_index_format: draw
                                    .indices
                                    .filter(|_| draw.topology.is_strip())
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
                                compilation_options: Default::default(),
                                targets: &[Some(target.format.into())],
                            }),
                            multiview_mask: None,
                            cache: None,
                        });
                let buffers: Vec<_> = draw
                    .vertex_buffers
                    .iter()
                    .map(|b| self.init_buffer(b.data, wgpu::BufferUsages::VERTEX))
                    .collect();
                let index = draw.indices.map(|indices| {
                    let (bytes, count): (&[u8], usize) = match indices {
                        Indices::U16(i) => (bytemuck::cast_slice(i), i.len()),
                        Indices::U32(i) => (bytemuck::cast_slice(i), i.len()),
                    };
                    let buffer = self.init_buffer(bytes, wgpu::BufferUsages::INDEX);
                    (
                        buffer,
                        indices.format(),
                        u32::try_from(count).unwrap_or(u32::MAX),
                    )
                });
                prepared.push((draw, pipeline, bindings, buffers, index));
            }
            let view = texture.create_view(&Default::default());
            let mut encoder = self.device.create_command_encoder(&Default::default());
            {
                let mut pass = begin_pass(&mut encoder, &[(&view, target.clear)]);
                for (draw, pipeline, bindings, buffers, index) in &prepared {
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
            self.queue.submit([encoder.finish()]);
            Ok(())
        })?;
        self.read_texture(&texture, target.format, target.width, target.height)
    }
}
