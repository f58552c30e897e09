//! Depth textures: `CreateTexture(.., D3DUSAGE_DEPTHSTENCIL, format, D3DPOOL_DEFAULT)` of
//! `D3DFMT_D16`, `D24X8`, `D24S8`, `D32` and the FOURCC formats `INTZ`, `DF16`, `DF24`, as
//! Windows drivers offer them for shadow maps and depth reads (`RAWZ`, the lockable and the
//! 15/4-bit-stencil formats are not offered).
//!
//! A level's surface (`GetSurfaceLevel`) is a depth-stencil surface: `SetDepthStencilSurface`
//! draws into it. Shaders sample the depth aspect of the texture (WebGPU cannot sample depth
//! and stencil through one view) as the format says (`Format::depth_read`: a shadow map's
//! comparison or the raw depth), which the draw's pairing passes to the pixel stage per
//! sampler. The texels live on the GPU only: a depth texture is not lockable, as on Windows.

use d3d9_translator::lift::SamplerRead;

use super::error::{invalid, unsupported, DeviceError};
use super::objects::{
    DirtyRegion, GpuTexture, Pool, TextureDesc, TextureId, TextureMemory, TextureObject, Usage,
};
use super::Device;
use crate::device::TextureKind;

impl Device {
    /// `CreateTexture` of a depth format (the caller checked the size and the pool).
    pub(super) fn create_depth_texture(
        &mut self,
        call: &'static str,
        desc: &TextureDesc,
    ) -> Result<TextureId, DeviceError> {
        let TextureDesc {
            kind,
            width,
            height,
            format,
            usage,
            pool,
            ..
        } = *desc;
        if !format.is_depth() || !usage.contains(Usage::DEPTH_STENCIL) {
            return Err(invalid(
                call,
                format!("{format:?} with usage {usage:?}: depth textures take a depth format and D3DUSAGE_DEPTHSTENCIL"),
            ));
        }
        if pool != Pool::Default {
            return Err(invalid(call, format!("a depth texture in {pool:?}")));
        }
        if usage.contains(Usage::RENDER_TARGET)
            || usage.contains(Usage::DYNAMIC)
            || usage.contains(Usage::AUTOGEN_MIPMAP)
        {
            return Err(invalid(
                call,
                format!("usage {usage:?} with D3DUSAGE_DEPTHSTENCIL"),
            ));
        }
        if kind != TextureKind::TwoD {
            return Err(unsupported(
                call,
                format!("a {kind:?} texture of {format:?} (depth textures are 2D)"),
            ));
        }
        if format.depth_read().is_none() {
            return Err(unsupported(
                call,
                format!("{format:?} textures (depth textures are D16, D24X8, D24S8, D32, INTZ, DF16 and DF24)"),
            ));
        }
        let full_chain = 32 - width.max(height).leading_zeros();
        let levels = match desc.levels {
            0 => full_chain,
            n if n > full_chain => {
                return Err(invalid(
                    call,
                    format!("{n} levels; a {width}x{height} texture has at most {full_chain}"),
                ))
            }
            n => n,
        };
        let wgpu_format = format.wgpu(true, self.depth32_stencil8());
        let needed = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
        let allowed = self.gpu.format_usages(wgpu_format);
        if !self.gpu.features().contains(format.required_features()) || !allowed.contains(needed) {
            return Err(unsupported(
                call,
                format!(
                    "{format:?} ({wgpu_format:?}) depth textures with {needed:?} on this adapter"
                ),
            ));
        }
        self.gpu
            .require(crate::gpu::caps::check_texture_size(
                kind.dimensions().1,
                [width, height, 1],
                &self.gpu.device.limits(),
            ))
            .map_err(Device::gpu_error(call))?;
        // Copies (StretchRect between depth-stencil surfaces) where the format allows them.
        let copies = allowed & (wgpu::TextureUsages::COPY_SRC | wgpu::TextureUsages::COPY_DST);
        let texture = self.gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some(call),
            size: wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
            mip_level_count: levels,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu_format,
            usage: needed | copies,
            view_formats: &[],
        });
        // Shaders read the depth aspect (a depth-stencil view cannot be sampled).
        let view = texture.create_view(&wgpu::TextureViewDescriptor {
            label: Some("depth texture"),
            dimension: Some(wgpu::TextureViewDimension::D2),
            aspect: wgpu::TextureAspect::DepthOnly,
            ..Default::default()
        });
        let object = TextureObject {
            kind,
            format,
            wgpu_format,
            width,
            height,
            depth: 1,
            levels,
            pool,
            usage,
            gpu: Some(GpuTexture {
                texture,
                view,
                srgb_view: None,
            }),
            memory: TextureMemory::default(),
            locks: (0..levels).map(|_| None).collect(),
            surfaces: vec![None; levels as usize],
            lod: 0,
            dirty: DirtyRegion::Clean,
            stale: false,
            version: 0,
            autogen: None,
        };
        let id = TextureId(self.next_id());
        self.textures.insert(id, object);
        Ok(id)
    }
}

impl Device {
    /// How vertex samplers 0–3 read the textures set on them: `Narrow` where the texture's
    /// GPU format lacks channels D3D9 reads as 1 (R32F, R16F, G32R32F, L8, ...), `Color`
    /// otherwise (trailing `Color`s left out); depth textures are read on pixel samplers only.
    pub(crate) fn vertex_sampler_reads(&self) -> Vec<SamplerRead> {
        trailing_colour_dropped(
            (super::VERTEX_SAMPLER_BASE..super::SAMPLER_STAGES)
                .map(|slot| self.narrow_read(slot).unwrap_or_default())
                .collect(),
        )
    }

    /// How pixel samplers 0–15 read the textures set on them (`Color` for colour textures
    /// and empty slots; the trailing `Color`s left out, so a draw without depth or narrow
    /// textures has an empty list): the code-changing state of depth textures and of
    /// textures whose GPU format lacks channels D3D9 reads as 1 (`SamplerRead::Narrow`), for
    /// the pair key. A raw depth read filters in the shader where the sampler's min or mag
    /// filter blends.
    pub(crate) fn sampler_reads(&self) -> Vec<SamplerRead> {
        trailing_colour_dropped(
            (0..super::VERTEX_SAMPLER_BASE)
                .map(|slot| {
                    let texture = self.state.textures[slot].and_then(|id| self.textures.get(&id));
                    let read = texture
                        .filter(|t| t.kind == TextureKind::TwoD)
                        .and_then(|t| t.format.depth_read());
                    match read {
                        Some(SamplerRead::Depth { channels, .. }) => {
                            let s = &self.state.samplers[slot];
                            SamplerRead::Depth {
                                channels,
                                linear: s.mag_filter.blends() || s.min_filter.blends(),
                            }
                        }
                        Some(read) => read,
                        None => self.narrow_read(slot).unwrap_or_default(),
                    }
                })
                .collect(),
        )
    }

    /// `Narrow` where the colour texture set on sampler slot `slot` has fewer channels in its
    /// GPU format than D3D9 reads (the missing ones read as 1).
    fn narrow_read(&self, slot: usize) -> Option<SamplerRead> {
        let texture = self.state.textures[slot].and_then(|id| self.textures.get(&id))?;
        let channels = texture.format.channels(texture.wgpu_format);
        (!texture.format.is_depth() && channels < 4).then_some(SamplerRead::Narrow {
            channels: channels as u8,
        })
    }
}

/// `reads` without its trailing `Color`s (the default: a key without depth or narrow
/// textures is empty).
fn trailing_colour_dropped(mut reads: Vec<SamplerRead>) -> Vec<SamplerRead> {
    while reads.last() == Some(&SamplerRead::Color) {
        reads.pop();
    }
    reads
}
