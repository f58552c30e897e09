//! Depth read back and copied through render passes, where the adapter cannot copy depth.
//!
//! wgpu's GL backend lacks `DownlevelFlags::DEPTH_TEXTURE_AND_BUFFER_COPIES`: no depth aspect
//! is copied into a buffer, and a depth texture-to-texture copy, which wgpu accepts there,
//! fails inside GL (`glCopyTexSubImage2D` from a depth framebuffer:
//! `GL_INVALID_FRAMEBUFFER_OPERATION`), leaving the destination as it was. WebGPU copies no
//! `Depth24Plus` depth into a buffer on any backend (D24S8 is held so only where the adapter
//! lacks `DEPTH32FLOAT_STENCIL8`). So, where depth cannot be copied (or
//! [`super::Fallbacks::depth_through_pass`] says so):
//! - **Reading depth back** (`GetRenderTargetData`, `LockRect` of `D16_LOCKABLE` and
//!   `D32F_LOCKABLE`): a full-screen triangle whose fragment stage `textureLoad`s the depth
//!   aspect, bound as an unfilterable `texture_2d<f32>` (naga's GLSL writer declares every
//!   `texture_depth_2d` a shadow sampler, which `texelFetch` refuses), and writes
//!   `bitcast<u32>` of it into an `R32Uint` target (llvmpipe's GL renders no float format),
//!   read back as colour. The bytes are those a depth copy gives: `Depth16Unorm` as 16-bit
//!   values (the float is k / 65535 exactly, so k comes back exactly), the others as 32-bit
//!   floats. Stencil is not read back on either path: no lockable D3D9 format has stencil
//!   and `SurfaceData` of D24S8 holds its depth as floats, so a stencil read would have
//!   nowhere to go.
//! - **Copying a depth-stencil surface** (`StretchRect`): one pass into the destination whose
//!   first draw writes `@builtin(frag_depth)` from the source's depth (exact: the value read
//!   is the value stored), and whose eight next draws, with the stencil cleared to 0, each
//!   write one stencil bit (write mask `1 << bit`, `Replace` with reference 0xff) where the
//!   source's stencil aspect, bound as a `texture_2d<u32>` and gathered through a nearest
//!   sampler (GL reads 0 from a stencil texture without one), has it set (WebGPU has no
//!   stencil export from a shader).

use std::collections::HashMap;

use wgpu::TextureFormat as W;

use super::error::{invalid, unsupported, DeviceError};
use super::objects::SurfaceId;
use super::Device;
use crate::gpu::caps::TARGET_USAGES;
use crate::gpu::{pass, Target};

const DEPTH_PASS_WGSL: &str = "
@group(0) @binding(0) var depth: texture_2d<f32>;
@group(0) @binding(1) var stencil: texture_2d<u32>;
@group(0) @binding(2) var nearest: sampler;
// A multisampled source's depth and stencil, and its samples.
@group(0) @binding(4) var depth_ms: texture_multisampled_2d<f32>;
@group(0) @binding(5) var stencil_ms: texture_multisampled_2d<u32>;
override samples: u32 = 1u;
// The stencil bit a copy draw writes.
override bit: u32 = 0u;

@vertex
fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    let x = f32(i & 1u) * 4.0 - 1.0;
    let y = f32(i >> 1u) * 4.0 - 1.0;
    return vec4<f32>(x, y, 0.0, 1.0);
}

fn texel(pixel: vec4<f32>) -> vec2<i32> {
    return vec2<i32>(floor(pixel.xy));
}

@fragment
fn read(@builtin(position) pixel: vec4<f32>) -> @location(0) vec4<u32> {
    return vec4<u32>(bitcast<u32>(textureLoad(depth, texel(pixel), 0).x), 0u, 0u, 0u);
}

@fragment
fn copy_depth(@builtin(position) pixel: vec4<f32>) -> @builtin(frag_depth) f32 {
    return textureLoad(depth, texel(pixel), 0).x;
}

// From a multisampled source, sample by sample into a destination of its samples; into one
// of other samples (a single-sampled one: sample 0), the source's sample of that index or
// its last.
fn sample_of(index: u32) -> i32 {
    return i32(min(index, samples - 1u));
}

@fragment
fn copy_depth_ms(
    @builtin(position) pixel: vec4<f32>,
    @builtin(sample_index) index: u32,
) -> @builtin(frag_depth) f32 {
    return textureLoad(depth_ms, texel(pixel), sample_of(index)).x;
}

@fragment
fn copy_stencil_ms(@builtin(position) pixel: vec4<f32>, @builtin(sample_index) index: u32) {
    if ((textureLoad(stencil_ms, texel(pixel), sample_of(index)).x >> bit) & 1u) == 0u {
        discard;
    }
}

// The stencil is gathered through a nearest sampler rather than loaded: GL leaves a stencil
// texture incomplete under its default linear filters (wgpu sets nearest ones only on formats
// that have a sample type, which a depth-stencil format has not), so `texelFetch` reads 0,
// and a sampler's filters replace the texture's. The gather's w is the texel at its
// footprint's top-left: a quarter texel past this texel's centre, that is this texel.
@fragment
fn copy_stencil(@builtin(position) pixel: vec4<f32>) {
    let size = vec2<f32>(textureDimensions(stencil));
    let at = (floor(pixel.xy) + vec2<f32>(0.75)) / size;
    if ((textureGather(0, stencil, nearest, at).w >> bit) & 1u) == 0u {
        discard;
    }
}
";

/// A pipeline of the depth passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum DepthPipeline {
    /// Depth into an `R32Uint` target as bits.
    Read,
    /// Depth into a depth-stencil attachment of this format.
    CopyDepth(W, Samples),
    /// One stencil bit into a depth-stencil attachment of this format.
    CopyStencil(W, u32, Samples),
}

/// The samples of a copy's source and destination (1 and 1 for single-sampled surfaces).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Samples {
    source: u32,
    destination: u32,
}

/// The depth passes' pipelines with their bind group layouts.
pub(crate) type DepthPipelines =
    HashMap<DepthPipeline, (wgpu::RenderPipeline, wgpu::BindGroupLayout)>;

impl Device {
    /// Whether depth is copied out and between textures directly (else through passes).
    fn depth_copies(&self) -> bool {
        !self.params.fallbacks.depth_through_pass
            && self
                .gpu
                .downlevel()
                .flags
                .contains(wgpu::DownlevelFlags::DEPTH_TEXTURE_AND_BUFFER_COPIES)
    }

    /// The depth of depth-stencil surface `id` as a depth-aspect copy gives it (16-bit
    /// values for `Depth16Unorm`, 32-bit floats otherwise), rows tightly packed. Waits for the
    /// GPU.
    pub(crate) fn read_depth(
        &mut self,
        call: &'static str,
        id: SurfaceId,
    ) -> Result<Vec<u8>, DeviceError> {
        let (image, size) = self.depth_image(call, id)?;
        if image.texture.sample_count() > 1 {
            return Err(unsupported(
                call,
                "reading a multisampled depth-stencil surface back",
            ));
        }
        let (format, level, layer) = (image.wgpu_format, image.level, image.layer);
        // WebGPU copies no `Depth24Plus` depth into a buffer.
        if self.depth_copies() && !matches!(format, W::Depth24Plus | W::Depth24PlusStencil8) {
            let aspect = wgpu::TextureAspect::DepthOnly;
            return self.read_texels(call, &image.texture, (level, layer, aspect), size);
        }
        let pipeline = self.depth_pipeline(call, DepthPipeline::Read)?;
        let target =
            Target::new("depth as bits", W::R32Uint, size, TARGET_USAGES).create(&self.gpu.device);
        let group = self.aspect_group(&pipeline.1, &image, wgpu::TextureAspect::DepthOnly);
        let views = [Some(target.create_view(&Default::default()))];
        let loads = [wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT)];
        let encoder = self.encoder();
        {
            let colour = pass::color_attachments(&views, &loads);
            let mut pass = pass::begin(encoder, "depth read", &colour, None);
            pass.set_pipeline(&pipeline.0);
            pass.set_bind_group(0, &group, &[]);
            pass.draw(0..3, 0..1);
        }
        self.flush()?;
        let bits = self.read_texels(call, &target, (0, 0, wgpu::TextureAspect::All), size)?;
        Ok(match format {
            // Depth16Unorm reads k / 65535 (rounded to f32): k again, exactly.
            W::Depth16Unorm => bits
                .chunks_exact(4)
                .flat_map(|b| {
                    let d = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                    ((d * 65535.0).round() as u16).to_le_bytes()
                })
                .collect(),
            _ => bits,
        })
    }

    /// `StretchRect` of a whole depth-stencil surface into another of its size and format:
    /// a texture copy where depth copies (and the surfaces allow it), else depth and stencil
    /// through a pass.
    pub(crate) fn copy_depth_stencil(
        &mut self,
        call: &'static str,
        source: SurfaceId,
        destination: SurfaceId,
    ) -> Result<(), DeviceError> {
        let (src, (width, height)) = self.depth_image(call, source)?;
        let (dst, _) = self.depth_image(call, destination)?;
        let format = dst.wgpu_format;
        let samples = Samples {
            source: src.texture.sample_count(),
            destination: dst.texture.sample_count(),
        };
        let copyable = src.texture.usage().contains(wgpu::TextureUsages::COPY_SRC)
            && dst.texture.usage().contains(wgpu::TextureUsages::COPY_DST);
        if self.depth_copies() && copyable {
            let whole = super::objects::TexelBox::whole(width, height, 1);
            return self.copy_image(call, source, destination, whole, whole);
        }
        if !src
            .texture
            .usage()
            .contains(wgpu::TextureUsages::TEXTURE_BINDING)
            || !dst
                .texture
                .usage()
                .contains(wgpu::TextureUsages::RENDER_ATTACHMENT)
        {
            return Err(unsupported(
                call,
                format!("copying {format:?} depth through a pass (the surfaces are not sampled and drawn into)"),
            ));
        }
        let depth = self.depth_pipeline(call, DepthPipeline::CopyDepth(format, samples))?;
        let mut draws = vec![(
            depth.0,
            self.aspect_group(&depth.1, &src, wgpu::TextureAspect::DepthOnly),
        )];
        if format.has_stencil_aspect() {
            for bit in 0..8 {
                let key = DepthPipeline::CopyStencil(format, bit, samples);
                let (pipeline, layout) = self.depth_pipeline(call, key)?;
                let group = self.aspect_group(&layout, &src, wgpu::TextureAspect::StencilOnly);
                draws.push((pipeline, group));
            }
        }
        let attachment = (dst.view.clone(), format);
        let encoder = self.encoder();
        {
            let depth =
                pass::depth_attachment(&attachment, wgpu::LoadOp::Load, wgpu::LoadOp::Clear(0));
            let mut pass = pass::begin(encoder, "depth-stencil copy", &[], Some(depth));
            pass.set_stencil_reference(0xff);
            for (pipeline, group) in &draws {
                pass.set_pipeline(pipeline);
                pass.set_bind_group(0, group, &[]);
                pass.draw(0..3, 0..1);
            }
        }
        self.bump_container(destination);
        Ok(())
    }

    /// A depth-stencil surface's GPU image (cloned: passes are recorded while it is held)
    /// and size.
    fn depth_image(
        &self,
        call: &'static str,
        id: SurfaceId,
    ) -> Result<(super::objects::GpuImage, (u32, u32)), DeviceError> {
        let surface = self
            .surfaces
            .get(&id)
            .ok_or_else(|| invalid(call, format!("{id:?} is not a surface of this device")))?;
        let image = surface
            .gpu
            .as_ref()
            .filter(|_| surface.format.is_depth())
            .ok_or_else(|| invalid(call, "internal: not a depth-stencil surface on the GPU"))?;
        Ok((image.clone(), (surface.width, surface.height)))
    }

    /// A bind group of one aspect of `image` (its level and layer) under `layout`: depth at
    /// binding 0, stencil at 1 with a nearest sampler at 2.
    fn aspect_group(
        &self,
        layout: &wgpu::BindGroupLayout,
        image: &super::objects::GpuImage,
        aspect: wgpu::TextureAspect,
    ) -> wgpu::BindGroup {
        let view = image.texture.create_view(&wgpu::TextureViewDescriptor {
            label: Some("depth pass source"),
            dimension: Some(wgpu::TextureViewDimension::D2),
            aspect,
            base_mip_level: image.level,
            mip_level_count: Some(1),
            base_array_layer: image.layer,
            array_layer_count: Some(1),
            ..Default::default()
        });
        let sampler = self.gpu.device.create_sampler(&Default::default());
        let multisampled = image.texture.sample_count() > 1;
        let mut entries = vec![wgpu::BindGroupEntry {
            binding: binding_of(aspect, multisampled),
            resource: wgpu::BindingResource::TextureView(&view),
        }];
        if aspect == wgpu::TextureAspect::StencilOnly && !multisampled {
            entries.push(wgpu::BindGroupEntry {
                binding: 2,
                resource: wgpu::BindingResource::Sampler(&sampler),
            });
        }
        self.gpu
            .device
            .create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("depth pass"),
                layout,
                entries: &entries,
            })
    }

    /// A depth pass's pipeline and layout, made on first use.
    fn depth_pipeline(
        &mut self,
        call: &'static str,
        key: DepthPipeline,
    ) -> Result<(wgpu::RenderPipeline, wgpu::BindGroupLayout), DeviceError> {
        if let Some(built) = self.depth_pipelines.get(&key) {
            return Ok(built.clone());
        }
        let gpu = &self.gpu;
        let built = gpu
            .capture("depth pass pipeline", || Ok(build_depth_pipeline(gpu, key)))
            .map_err(Device::gpu_error(call))?;
        self.depth_pipelines.insert(key, built.clone());
        Ok(built)
    }
}

/// The binding an aspect is read at: depth 0, stencil 1; of a multisampled source, 4 and 5.
fn binding_of(aspect: wgpu::TextureAspect, multisampled: bool) -> u32 {
    let single = match aspect {
        wgpu::TextureAspect::StencilOnly => 1,
        _ => 0,
    };
    match multisampled {
        true => single + 4,
        false => single,
    }
}

fn build_depth_pipeline(
    gpu: &crate::gpu::Gpu,
    key: DepthPipeline,
) -> (wgpu::RenderPipeline, wgpu::BindGroupLayout) {
    let device = &gpu.device;
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("depth pass"),
        source: wgpu::ShaderSource::Wgsl(DEPTH_PASS_WGSL.into()),
    });
    let samples = match key {
        DepthPipeline::Read => Samples {
            source: 1,
            destination: 1,
        },
        DepthPipeline::CopyDepth(_, s) | DepthPipeline::CopyStencil(_, _, s) => s,
    };
    let multisampled = samples.source > 1;
    let (aspect, sample_type) = match key {
        DepthPipeline::CopyStencil(..) => (
            wgpu::TextureAspect::StencilOnly,
            wgpu::TextureSampleType::Uint,
        ),
        _ => (
            wgpu::TextureAspect::DepthOnly,
            wgpu::TextureSampleType::Float { filterable: false },
        ),
    };
    let mut entries = vec![wgpu::BindGroupLayoutEntry {
        binding: binding_of(aspect, multisampled),
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Texture {
            sample_type,
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled,
        },
        count: None,
    }];
    if aspect == wgpu::TextureAspect::StencilOnly && !multisampled {
        entries.push(wgpu::BindGroupLayoutEntry {
            binding: 2,
            visibility: wgpu::ShaderStages::FRAGMENT,
            ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::NonFiltering),
            count: None,
        });
    }
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("depth pass"),
        entries: &entries,
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("depth pass"),
        bind_group_layouts: &[Some(&layout)],
        immediate_size: 0,
    });
    let keep = wgpu::StencilOperation::Keep;
    let depth_state = |format: W, depth_write: bool, stencil_write: u32| {
        let face = wgpu::StencilFaceState {
            compare: wgpu::CompareFunction::Always,
            fail_op: keep,
            depth_fail_op: keep,
            pass_op: wgpu::StencilOperation::Replace,
        };
        wgpu::DepthStencilState {
            format,
            depth_write_enabled: Some(depth_write),
            depth_compare: Some(wgpu::CompareFunction::Always),
            stencil: match format.has_stencil_aspect() {
                true => wgpu::StencilState {
                    front: face,
                    back: face,
                    read_mask: 0xff,
                    write_mask: stencil_write,
                },
                false => wgpu::StencilState::default(),
            },
            bias: Default::default(),
        }
    };
    let (entry_point, depth_stencil, targets, constants): (_, _, Vec<_>, Vec<_>) = match key {
        DepthPipeline::Read => (
            "read",
            None,
            vec![Some(wgpu::ColorTargetState {
                format: W::R32Uint,
                blend: None,
                write_mask: wgpu::ColorWrites::ALL,
            })],
            Vec::new(),
        ),
        DepthPipeline::CopyDepth(format, _) if multisampled => (
            "copy_depth_ms",
            Some(depth_state(format, true, 0)),
            Vec::new(),
            vec![("samples", f64::from(samples.source))],
        ),
        DepthPipeline::CopyDepth(format, _) => (
            "copy_depth",
            Some(depth_state(format, true, 0)),
            Vec::new(),
            Vec::new(),
        ),
        DepthPipeline::CopyStencil(format, bit, _) if multisampled => (
            "copy_stencil_ms",
            Some(depth_state(format, false, 1 << bit)),
            Vec::new(),
            vec![
                ("bit", f64::from(bit)),
                ("samples", f64::from(samples.source)),
            ],
        ),
        DepthPipeline::CopyStencil(format, bit, _) => (
            "copy_stencil",
            Some(depth_state(format, false, 1 << bit)),
            Vec::new(),
            vec![("bit", f64::from(bit))],
        ),
    };
    let pipeline = super::pass::FullScreen {
        label: "depth pass",
        layout: &pipeline_layout,
        module: &module,
        fragment: entry_point,
        constants: &constants,
        targets: &targets,
        depth_stencil,
        samples: samples.destination,
    }
    .build(gpu);
    (pipeline, layout)
}

#[cfg(test)]
#[allow(clippy::panic)]
mod tests {
    #[test]
    fn depth_pass_shader_parses() {
        let source = super::DEPTH_PASS_WGSL;
        let module = naga::front::wgsl::parse_str(source)
            .unwrap_or_else(|e| panic!("{}", e.emit_to_string(source)));
        naga::valid::Validator::new(Default::default(), naga::valid::Capabilities::all())
            .validate(&module)
            .unwrap_or_else(|e| panic!("{e:?}"));
    }
}
