//! Stand-in render targets for a depth-stencil surface larger than the render targets.
//!
//! D3D9 draws with a depth-stencil surface at least as large as render target 0, using the
//! part under the targets; WebGPU requires every attachment of a pass to have one size. A
//! draw with a larger depth-stencil surface renders into stand-ins of its size: each target's
//! texels are copied into its stand-in before the pass and back after it (the viewport and
//! scissor rectangle keep the drawing inside the targets' area).

use super::error::{invalid, DeviceError};
use super::Device;
use crate::gpu::Target;

/// One target drawn through a stand-in.
#[derive(Clone)]
pub(crate) struct StandIn {
    target: wgpu::Texture,
    level: u32,
    layer: u32,
    standin: wgpu::Texture,
    size: (u32, u32),
}

/// Stand-in textures by (format, width, height, target index), reused from draw to draw.
pub(crate) type StandIns =
    std::collections::HashMap<(wgpu::TextureFormat, u32, u32, usize), wgpu::Texture>;

impl StandIn {
    fn copy(&self, encoder: &mut wgpu::CommandEncoder, into_standin: bool) {
        let target = wgpu::TexelCopyTextureInfo {
            texture: &self.target,
            mip_level: self.level,
            origin: wgpu::Origin3d {
                x: 0,
                y: 0,
                z: self.layer,
            },
            aspect: wgpu::TextureAspect::All,
        };
        let standin = wgpu::TexelCopyTextureInfo {
            texture: &self.standin,
            mip_level: 0,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
        };
        let extent = wgpu::Extent3d {
            width: self.size.0,
            height: self.size.1,
            depth_or_array_layers: 1,
        };
        if into_standin {
            encoder.copy_texture_to_texture(target, standin, extent);
        } else {
            encoder.copy_texture_to_texture(standin, target, extent);
        }
    }

    /// The target's texels into the stand-in, before the pass.
    pub(crate) fn copy_in(&self, encoder: &mut wgpu::CommandEncoder) {
        self.copy(encoder, true);
    }

    /// The stand-in's texels back into the target, after the pass.
    pub(crate) fn copy_out(&self, encoder: &mut wgpu::CommandEncoder) {
        self.copy(encoder, false);
    }
}

impl Device {
    /// Stand-ins of `ds_size` for the render targets of `size` bound now; `views` (the
    /// pass's colour views, by target index) are replaced by the stand-ins' views.
    pub(crate) fn standins(
        &mut self,
        call: &'static str,
        ds_size: (u32, u32),
        size: (u32, u32),
        views: &mut [Option<wgpu::TextureView>],
    ) -> Result<Vec<StandIn>, DeviceError> {
        let mut out = Vec::new();
        for (index, view) in views.iter_mut().enumerate() {
            if view.is_none() {
                continue;
            }
            let id = self.state.render_targets[index]
                .ok_or_else(|| invalid(call, "internal: a view without a target"))?;
            let surface = self
                .surfaces
                .get(&id)
                .ok_or_else(|| invalid(call, format!("render target {index} was released")))?;
            let image = surface
                .gpu
                .as_ref()
                .ok_or_else(|| invalid(call, format!("render target {index} is not on the GPU")))?;
            // Drawn through its sRGB view where the target is (`srgb`): every stand-in of a
            // format with an sRGB twin can be viewed so.
            let (_, view_format) = self.target_view(call, surface, image)?;
            let twins: Vec<wgpu::TextureFormat> = super::format::srgb_twin(image.wgpu_format)
                .filter(|_| super::format::srgb_views(&self.gpu))
                .into_iter()
                .collect();
            let key = (image.wgpu_format, ds_size.0, ds_size.1, index);
            let device = &self.gpu.device;
            let standin = self
                .standin_textures
                .entry(key)
                .or_insert_with(|| {
                    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT
                        | wgpu::TextureUsages::COPY_SRC
                        | wgpu::TextureUsages::COPY_DST;
                    let target =
                        Target::new("stand-in render target", image.wgpu_format, ds_size, usage);
                    Target {
                        view_formats: &twins,
                        ..target
                    }
                    .create(device)
                })
                .clone();
            *view = Some(standin.create_view(&wgpu::TextureViewDescriptor {
                format: Some(view_format),
                ..Default::default()
            }));
            out.push(StandIn {
                target: image.texture.clone(),
                level: image.level,
                layer: image.layer,
                standin,
                size,
            });
        }
        Ok(out)
    }
}
