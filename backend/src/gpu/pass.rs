//! The attachments of a render pass: colour targets loaded as asked and stored, a
//! depth-stencil target's aspects (those its format has), and the pass over them.

/// A colour attachment of `view`, loaded with `load` and stored.
pub fn color_attachment(
    view: &wgpu::TextureView,
    load: wgpu::LoadOp<wgpu::Color>,
) -> wgpu::RenderPassColorAttachment<'_> {
    wgpu::RenderPassColorAttachment {
        view,
        depth_slice: None,
        resolve_target: None,
        ops: wgpu::Operations {
            load,
            store: wgpu::StoreOp::Store,
        },
    }
}

/// Colour attachments for `views` (holes stay holes), each loaded with `load[i]` (or kept
/// when `load` is shorter) and stored.
pub fn color_attachments<'a>(
    views: &'a [Option<wgpu::TextureView>],
    load: &[wgpu::LoadOp<wgpu::Color>],
) -> Vec<Option<wgpu::RenderPassColorAttachment<'a>>> {
    (0..)
        .zip(views)
        .map(|(i, v)| {
            let load = load.get(i).copied().unwrap_or(wgpu::LoadOp::Load);
            v.as_ref().map(|view| color_attachment(view, load))
        })
        .collect()
}

/// The depth-stencil attachment of a surface `(view, format)`: its depth and stencil aspects
/// (those the format has) loaded with `depth` / `stencil` and stored.
pub fn depth_attachment(
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

/// Begins the pass `label` over `color` and `depth` (no queries, no timestamps).
pub fn begin<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    label: &str,
    color: &[Option<wgpu::RenderPassColorAttachment<'_>>],
    depth: Option<wgpu::RenderPassDepthStencilAttachment<'_>>,
) -> wgpu::RenderPass<'e> {
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some(label),
        color_attachments: color,
        depth_stencil_attachment: depth,
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    })
}
