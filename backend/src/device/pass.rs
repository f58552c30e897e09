//! The attachments of the render passes the device records: every draw and clear is one
//! pass over the bound render targets and depth-stencil surface.

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
