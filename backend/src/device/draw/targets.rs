//! What a draw's pass draws into: the render targets and their formats, the depth-stencil
//! attachment (or stand-ins of its size), and the viewport and scissor rectangles of the pass.

use super::super::error::{invalid, unsupported, DeviceError};
use super::super::format::Format;
use super::super::pairing::ShaderPair;
use super::super::standin::StandIn;
use super::super::state::{Rect, RenderStates};
use super::super::{Device, PrimitiveType};
use super::pipeline::blendable;

/// The attachments of a draw's pass.
pub(super) struct PassTargets {
    pub(super) color_views: Vec<Option<wgpu::TextureView>>,
    /// The pipeline's colour targets, one per view.
    pub(super) targets: Vec<Option<wgpu::ColorTargetState>>,
    /// The render targets' width and height.
    pub(super) size: (u32, u32),
    pub(super) depth: Option<(wgpu::TextureView, wgpu::TextureFormat)>,
    /// Targets drawn through stand-ins of a larger depth-stencil surface's size.
    pub(super) standins: Vec<StandIn>,
    /// The targets' `D3DMULTISAMPLE_TYPE` and the samples their images have (1 and 1 for
    /// single-sampled targets; `multisample`).
    pub(super) multisample: (u32, u32),
}

/// The rectangles a pass draws within.
pub(super) struct PassArea {
    /// x, y, width, height, MinZ, MaxZ.
    pub(super) viewport: [f32; 6],
    /// x, y, width, height.
    pub(super) scissor: (u32, u32, u32, u32),
}

impl Device {
    /// The render targets and the depth-stencil surface, on the GPU, as attachments.
    pub(super) fn pass_targets(
        &mut self,
        call: &'static str,
        pair: &ShaderPair,
        render: &RenderStates,
    ) -> Result<PassTargets, DeviceError> {
        for target in self.state.render_targets.into_iter().flatten() {
            self.upload_container(target);
        }
        let mut targets = self.color_targets(call, pair, render)?;
        self.depth_attachment(call, render, &mut targets)?;
        Ok(targets)
    }

    /// Render targets and their formats (no depth-stencil attachment yet).
    fn color_targets(
        &self,
        call: &'static str,
        pair: &ShaderPair,
        render: &RenderStates,
    ) -> Result<PassTargets, DeviceError> {
        let mut color_views = Vec::new();
        let mut targets = Vec::new();
        let mut size = None;
        let mut nulls = false;
        let mut multisample = None;
        for (index, rt) in self.state.render_targets.iter().enumerate() {
            let Some(id) = rt else {
                color_views.push(None);
                targets.push(None);
                continue;
            };
            // One surface cannot be two attachments of a pass (D3D9 leaves it undefined).
            if self.state.render_targets[..index].contains(rt) {
                return Err(invalid(
                    call,
                    format!("render target {index} is also an earlier render target"),
                ));
            }
            let surface = self
                .surfaces
                .get(id)
                .ok_or_else(|| invalid(call, format!("render target {index} was released")))?;
            let format = surface.format;
            if format == Format::Null {
                // Stores nothing: no attachment, and no size (the pass writes depth and
                // stencil only).
                nulls = true;
                color_views.push(None);
                targets.push(None);
                continue;
            }
            match size {
                None => size = Some((surface.width, surface.height)),
                Some(s) if s != (surface.width, surface.height) => {
                    return Err(invalid(
                        call,
                        format!("render target {index} is not the size of render target 0"),
                    ))
                }
                Some(_) => {}
            }
            let gpu = surface
                .gpu
                .as_ref()
                .ok_or_else(|| invalid(call, format!("render target {index} is not on the GPU")))?;
            // One pass draws into targets of one multisampling (D3D9 requires it of MRTs).
            let samples = (surface.multisample.kind, gpu.texture.sample_count());
            match multisample {
                None => multisample = Some(samples),
                Some(m) if m != samples => {
                    return Err(invalid(
                        call,
                        format!("render target {index} is not multisampled as render target 0"),
                    ))
                }
                Some(_) => {}
            }
            let writes = pair.color_outputs.contains(&(index as u32));
            // With D3DRS_SRGBWRITEENABLE, the sRGB view of a format that has one (`srgb`).
            let (view, view_format) = self.target_view(call, surface, gpu)?;
            color_views.push(Some(view));
            // A target without alpha (X8R8G8B8, R5G6B5, ...) reads its alpha as 1.
            let has_alpha = format.has_alpha();
            targets.push(Some(wgpu::ColorTargetState {
                format: view_format,
                blend: render
                    .blend()
                    .filter(|_| blendable(gpu.wgpu_format, self.gpu.features()))
                    .map(|b| if has_alpha { b } else { opaque_destination(b) }),
                write_mask: if writes {
                    render.write_mask(index)
                } else {
                    wgpu::ColorWrites::empty()
                },
            }));
        }
        while targets.last().is_some_and(Option::is_none) {
            targets.pop();
            color_views.pop();
        }
        // Only NULL targets: the pass is the depth-stencil surface's size, whatever theirs
        // (Wine's test_null_format: the draw reaches the viewport past a smaller NULL target,
        // and a depth-stencil surface smaller than the NULL target is drawn with).
        let depth_size = self
            .state
            .depth_stencil
            .and_then(|id| self.surfaces.get(&id))
            .map(|s| (s.width, s.height));
        let size = match (size, nulls, depth_size) {
            (Some(size), _, _) => size,
            (None, true, Some(depth)) => depth,
            _ => self.state.render_targets[0]
                .and_then(|id| self.surfaces.get(&id))
                .filter(|_| nulls)
                .map(|s| (s.width, s.height))
                .ok_or_else(|| invalid(call, "no render target"))?,
        };
        // Only NULL targets: the depth-stencil surface's multisampling.
        let multisample = multisample.unwrap_or_else(|| {
            self.state
                .depth_stencil
                .and_then(|id| self.surfaces.get(&id))
                .and_then(|s| Some((s.multisample.kind, s.gpu.as_ref()?.texture.sample_count())))
                .unwrap_or((0, 1))
        });
        Ok(PassTargets {
            color_views,
            targets,
            size,
            depth: None,
            standins: Vec::new(),
            multisample,
        })
    }

    /// The depth-stencil attachment of `targets`, and the stand-ins that replace its colour
    /// views where the surface is larger.
    fn depth_attachment(
        &mut self,
        call: &'static str,
        render: &RenderStates,
        targets: &mut PassTargets,
    ) -> Result<(), DeviceError> {
        let (width, height) = targets.size;
        targets.depth = match self.state.depth_stencil {
            Some(id) => {
                let s = self
                    .surfaces
                    .get(&id)
                    .ok_or_else(|| invalid(call, "the depth-stencil surface was released"))?;
                let smaller = s.width < width || s.height < height;
                if smaller && (render.z_enable || render.stencil_enable) {
                    return Err(invalid(
                        call,
                        "the depth-stencil surface is smaller than the render target",
                    ));
                }
                let larger = (s.width, s.height) != (width, height);
                let ds_size = (s.width, s.height);
                let s = s
                    .gpu
                    .as_ref()
                    .ok_or_else(|| invalid(call, "the depth-stencil surface is not on the GPU"))?;
                let depth = (s.view.clone(), s.wgpu_format);
                // A depth-stencil surface multisampled unlike the targets is not drawn with
                // (WebGPU's attachments must match; Wine's test_multisample_mismatch draws
                // such pairs only with ZENABLE off, where NVIDIA draws and AMD tests).
                let mismatched = s.texture.sample_count() != targets.multisample.1;
                if mismatched {
                    None
                } else if smaller {
                    // Windows draws with a smaller depth-stencil surface while the depth
                    // and stencil tests are off (Wine's ds_size_test): without it.
                    None
                } else if larger && targets.multisample.1 > 1 {
                    return Err(unsupported(
                        call,
                        "a multisampled depth-stencil surface larger than the render target",
                    ));
                } else if larger {
                    // D3D9 uses the part of a larger depth-stencil surface under the
                    // targets; WebGPU's attachments must match: the pass draws into stand-ins
                    // of the depth-stencil surface's size (`standin`).
                    targets.standins =
                        self.standins(call, ds_size, (width, height), &mut targets.color_views)?;
                    Some(depth)
                } else {
                    Some(depth)
                }
            }
            None => None,
        };
        Ok(())
    }

    /// The viewport and the scissor rectangle of a pass into targets of `(width, height)`;
    /// `None` where the scissor rectangle is empty.
    pub(super) fn pass_area(
        &self,
        render: &RenderStates,
        (width, height): (u32, u32),
    ) -> Option<PassArea> {
        let viewport = self.state.viewport;
        // D3D9 draws nothing outside the viewport, which may reach past the target (Wine's
        // test_viewport, checked on Windows, sets 2000 x 1600 on a 640 x 480 target): the
        // scissor rectangle is the viewport's part of the target (and of the scissor test's).
        let limit = self.gpu.device.limits().max_texture_dimension_2d;
        let (vx, vy) = (viewport.x.min(limit), viewport.y.min(limit));
        let (vw, vh) = (
            viewport.width.clamp(1, limit),
            viewport.height.clamp(1, limit),
        );
        let mut area = Rect {
            left: vx as i32,
            top: vy as i32,
            right: (vx + vw) as i32,
            bottom: (vy + vh) as i32,
        };
        if render.scissor_test {
            area = area.intersect(&self.state.scissor);
        }
        let scissor = area.clip(width, height)?;
        // D3D9's half-pixel offset, where the viewport carries it (`half_pixel_in_viewport`;
        // elsewhere the vertex shader's position fix-up does).
        let half = if self.half_pixel_in_viewport {
            0.5
        } else {
            0.0
        };
        Some(PassArea {
            viewport: [
                vx as f32 + half,
                vy as f32 + half,
                vw as f32,
                vh as f32,
                // D3D9 takes depth ranges past 0..1 (Wine's depth_clamp_test, which passes on
                // Windows, sets MaxZ 7.5); WebGPU's viewport stays within 0..1. A MaxZ not
                // above MinZ maps z = 1 to MinZ + 0.001 on Windows (Wine's test_viewport
                // expects 0.001 for 0..0 and 0.501 for 0.5..0).
                viewport.min_z.clamp(0.0, 1.0),
                viewport.max_z.max(viewport.min_z + 0.001).clamp(0.0, 1.0),
            ],
            scissor,
        })
    }
}

/// Blending into a target without alpha: D3D9 reads the destination alpha as 1 there
/// (`D3DBLEND_DESTALPHA` is one, `INVDESTALPHA` zero, `SRCALPHASAT` zero; Wine's test_blend,
/// checked on Windows), whatever the GPU format keeps in its alpha.
fn opaque_destination(blend: wgpu::BlendState) -> wgpu::BlendState {
    use wgpu::BlendFactor as F;
    let factor = |f: F| match f {
        F::DstAlpha => F::One,
        F::OneMinusDstAlpha | F::SrcAlphaSaturated => F::Zero,
        other => other,
    };
    let component = |c: wgpu::BlendComponent| wgpu::BlendComponent {
        src_factor: factor(c.src_factor),
        dst_factor: factor(c.dst_factor),
        operation: c.operation,
    };
    wgpu::BlendState {
        color: component(blend.color),
        alpha: component(blend.alpha),
    }
}

impl Device {
    /// `D3DRS_DEPTHBIAS` as an offset of the clip-space depth (z / w), which the vertex
    /// stage's position fix-up adds: D3D9's bias is a fraction of the depth range whatever the
    /// depth format (wgpu's constant bias counts format steps, which on float depth, how
    /// D24S8 is held here, vary with the depth: Wine's test_fog and test_depthbias, checked
    /// on Windows). Triangles only, as the slope-scaled part (Vulkan's and wined3d's rule),
    /// and only with a depth-stencil surface.
    pub(super) fn depth_bias_offset(&self, primitive: PrimitiveType, depth: bool) -> f32 {
        let triangles = matches!(
            primitive,
            PrimitiveType::TriangleList | PrimitiveType::TriangleStrip | PrimitiveType::TriangleFan
        );
        let bias = self.state.render.depth_bias;
        if !triangles || !depth || bias == 0.0 || !bias.is_finite() {
            return 0.0;
        }
        // The viewport maps 0..1 onto MinZ..MaxZ (as `pass_area` clamps them).
        let v = self.state.viewport;
        let (min, max) = (
            v.min_z.clamp(0.0, 1.0),
            v.max_z.max(v.min_z + 0.001).clamp(0.0, 1.0),
        );
        let range = if max > min { max - min } else { 1.0 };
        bias / range
    }
}
