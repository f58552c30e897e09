//! The attachments of the render passes the device records: every draw and clear is one
//! pass over the bound render targets and depth-stencil surface; and the pipelines of the
//! device's own full-screen passes (clears, blits, depth copies, presentation).

/// Colour attachments for `views` (holes stay holes), each loaded with `load[i]` (or kept
/// when `load` is shorter) and stored.
pub(crate) fn color_attachments<'a>(
    views: &'a [Option<wgpu::TextureView>],
    load: &[wgpu::LoadOp<wgpu::Color>],
) -> Vec<Option<wgpu::RenderPassColorAttachment<'a>>> {
    views
        .iter()
        .enumerate()
        .map(|(i, v)| {
            v.as_ref().map(|view| wgpu::RenderPassColorAttachment {
                view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: load.get(i).copied().unwrap_or(wgpu::LoadOp::Load),
                    store: wgpu::StoreOp::Store,
                },
            })
        })
        .collect()
}

/// The depth-stencil attachment of a surface `(view, format)`: its depth and stencil aspects
/// (those the format has) loaded with `depth` / `stencil` and stored.
pub(crate) fn depth_attachment(
    (view, format): &(wgpu::TextureView, wgpu::TextureFormat),
    depth: wgpu::LoadOp<f32>,
    stencil: wgpu::LoadOp<u32>,
) -> wgpu::RenderPassDepthStencilAttachment<'_> {
    wgpu::RenderPassDepthStencilAttachment {
        view,
        depth_ops: format.has_depth_aspect().then_some(wgpu::Operations {
            load: depth,
            store: wgpu::StoreOp::Store,
        }),
        stencil_ops: format.has_stencil_aspect().then_some(wgpu::Operations {
            load: stencil,
            store: wgpu::StoreOp::Store,
        }),
    }
}

/// A pipeline of the device's own passes: one triangle over the target from the module's
/// `vs` (no vertex buffers), coloured by its `fragment` entry point.
pub(crate) struct FullScreen<'a> {
    pub(crate) label: &'a str,
    pub(crate) layout: &'a wgpu::PipelineLayout,
    pub(crate) module: &'a wgpu::ShaderModule,
    pub(crate) fragment: &'a str,
    /// The fragment stage's override constants.
    pub(crate) constants: &'a [(&'a str, f64)],
    pub(crate) targets: &'a [Option<wgpu::ColorTargetState>],
    pub(crate) depth_stencil: Option<wgpu::DepthStencilState>,
    pub(crate) samples: u32,
}

impl FullScreen<'_> {
    pub(crate) fn build(self, device: &wgpu::Device) -> wgpu::RenderPipeline {
        device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some(self.label),
            layout: Some(self.layout),
            vertex: wgpu::VertexState {
                module: self.module,
                entry_point: Some("vs"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: Default::default(),
            depth_stencil: self.depth_stencil,
            multisample: wgpu::MultisampleState {
                count: self.samples,
                ..Default::default()
            },
            fragment: Some(wgpu::FragmentState {
                module: self.module,
                entry_point: Some(self.fragment),
                compilation_options: wgpu::PipelineCompilationOptions {
                    constants: self.constants,
                    ..Default::default()
                },
                targets: self.targets,
            }),
            multiview_mask: None,
            cache: None,
        })
    }
}
