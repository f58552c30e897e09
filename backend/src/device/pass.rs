//! The pipelines of the device's own full-screen passes (clears, blits, depth copies,
//! presentation); their attachments are the GPU layer's (`gpu::pass`).

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
    /// The pipeline, built with the GPU's pipeline cache (`Gpu::pipeline_cache_for_build`).
    pub(crate) fn build(self, gpu: &crate::gpu::Gpu) -> wgpu::RenderPipeline {
        let device = &gpu.device;
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
            cache: gpu.pipeline_cache_for_build(),
        })
    }
}
