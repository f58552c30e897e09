//! `StretchRect` between surfaces of different sizes or formats: a draw that covers the
//! destination rectangle and reads the source rectangle with D3D9's filter (`D3DTEXF_POINT`:
//! the texel under each destination pixel's centre; `D3DTEXF_LINEAR`: bilinear). Float32
//! images held as bits (`float_bits`) are read with `textureLoad` + `bitcast<f32>` (filtered
//! in the shader where the float format filters on the adapter) and written as
//! `bitcast<u32>` of the colour. A source's channels its format lacks read 1, as D3D9 samples
//! them (R32F: (r, 1, 1, 1)).

use crate::gpu::pass;
use std::collections::HashMap;

use super::error::{invalid, unsupported, DeviceError};
use super::format::{Format, YUV_TO_RGB};
use super::objects::{Filter, GpuImage, SurfaceId, TexelBox};
use super::Device;

/// How the blit reads its source: the fragment entry point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Sampling {
    Point,
    Bilinear,
    /// YUY2 / UYVY texels (held as bytes) converted to RGB, point-sampled.
    Yuy2,
    Uyvy,
    /// Float32 texels held as bits, point-sampled or (`linear`) filtered in the shader.
    Bits {
        linear: bool,
    },
}

impl Sampling {
    fn entry_point(self) -> &'static str {
        match self {
            Sampling::Point => "point",
            Sampling::Bilinear => "bilinear",
            Sampling::Yuy2 => "yuy2",
            Sampling::Uyvy => "uyvy",
            Sampling::Bits { linear: false } => "bits",
            Sampling::Bits { linear: true } => "bits_bilinear",
        }
    }

    /// The source's binding: 1 for float texels, 3 for bits.
    fn source_binding(self) -> u32 {
        match self {
            Sampling::Bits { .. } => 3,
            _ => 1,
        }
    }
}

/// Blit pipelines by (destination format, sampling, destination samples).
pub(crate) type BlitPipelines =
    HashMap<(wgpu::TextureFormat, Sampling, u32), (wgpu::RenderPipeline, wgpu::BindGroupLayout)>;

/// The blit shader; `Out`, `output` (the destination's texels) and the YUV weights are put
/// before it.
const BLIT_WGSL: &str = "
struct Blit {
    origin: vec2<f32>,
    scale: vec2<f32>,
    dest: vec2<f32>,
    size: vec2<f32>,
    // 1 in each channel the source's format lacks.
    missing: vec4<f32>,
}
@group(0) @binding(0) var<uniform> blit: Blit;
@group(0) @binding(1) var source: texture_2d<f32>;
@group(0) @binding(2) var linear: sampler;
@group(0) @binding(3) var source_bits: texture_2d<u32>;

@vertex
fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    let x = f32(i & 1u) * 4.0 - 1.0;
    let y = f32(i >> 1u) * 4.0 - 1.0;
    return vec4<f32>(x, y, 0.0, 1.0);
}

fn source_position(pixel: vec2<f32>) -> vec2<f32> {
    return blit.origin + (pixel - blit.dest) * blit.scale;
}

// D3D9 reads the channels a format lacks as 1.
fn filled(c: vec4<f32>) -> vec4<f32> {
    return select(c, vec4<f32>(1.0), blit.missing > vec4<f32>(0.5));
}

@fragment
fn point(@builtin(position) pixel: vec4<f32>) -> @location(0) Out {
    let at = vec2<i32>(floor(source_position(pixel.xy)));
    return output(filled(textureLoad(source, at, 0)));
}

@fragment
fn bilinear(@builtin(position) pixel: vec4<f32>) -> @location(0) Out {
    let c = textureSampleLevel(source, linear, source_position(pixel.xy) / blit.size, 0.0);
    return output(filled(c));
}

// A texel of float32 bits, its position clamped to the source (as the sampler's edges).
fn bits_at(at: vec2<i32>) -> vec4<f32> {
    let last = vec2<i32>(textureDimensions(source_bits)) - vec2<i32>(1);
    return bitcast<vec4<f32>>(textureLoad(source_bits, clamp(at, vec2<i32>(0), last), 0));
}

@fragment
fn bits(@builtin(position) pixel: vec4<f32>) -> @location(0) Out {
    return output(filled(bits_at(vec2<i32>(floor(source_position(pixel.xy))))));
}

// Bilinear filtering of bits, as a sampler filters: the four texels around the position.
@fragment
fn bits_bilinear(@builtin(position) pixel: vec4<f32>) -> @location(0) Out {
    let t = source_position(pixel.xy) - vec2<f32>(0.5);
    let at = vec2<i32>(floor(t));
    let f = t - floor(t);
    let top = mix(bits_at(at), bits_at(at + vec2<i32>(1, 0)), f.x);
    let bottom = mix(bits_at(at + vec2<i32>(0, 1)), bits_at(at + vec2<i32>(1, 1)), f.x);
    return output(filled(mix(top, bottom, f.y)));
}

// A YUV texel: its luma, and the chroma of its pair (U on the even texel, V on the odd).
fn yuv(pixel: vec2<f32>, luma_first: bool) -> vec4<f32> {
    let at = vec2<i32>(floor(source_position(pixel)));
    let last = i32(textureDimensions(source).x) - 1;
    let t = textureLoad(source, at, 0);
    let even = textureLoad(source, vec2<i32>(at.x & ~1, at.y), 0);
    let odd = textureLoad(source, vec2<i32>(min(at.x | 1, last), at.y), 0);
    var bytes = vec3<f32>(t.g, even.r, odd.r);
    if luma_first {
        bytes = vec3<f32>(t.r, even.g, odd.g);
    }
    let c = bytes * 255.0 - vec3<f32>(16.0, 128.0, 128.0);
    let rgb = vec3<f32>(dot(YUV_R, c), dot(YUV_G, c), dot(YUV_B, c)) / 255.0;
    return vec4<f32>(clamp(rgb, vec3<f32>(0.0), vec3<f32>(1.0)), 1.0);
}

@fragment
fn yuy2(@builtin(position) pixel: vec4<f32>) -> @location(0) Out {
    return output(yuv(pixel.xy, true));
}

@fragment
fn uyvy(@builtin(position) pixel: vec4<f32>) -> @location(0) Out {
    return output(yuv(pixel.xy, false));
}
";

/// The blit shader with the YUV weights of the format table, writing floats or (`bits`)
/// the bits of floats.
fn blit_wgsl(bits: bool) -> String {
    let row = |name: &str, w: [f32; 3]| {
        format!(
            "const {name} = vec3<f32>({:?}, {:?}, {:?});\n",
            w[0], w[1], w[2]
        )
    };
    let [r, g, b] = YUV_TO_RGB;
    let output = match bits {
        true => "alias Out = vec4<u32>;\nfn output(c: vec4<f32>) -> Out { return bitcast<vec4<u32>>(c); }\n",
        false => "alias Out = vec4<f32>;\nfn output(c: vec4<f32>) -> Out { return c; }\n",
    };
    format!(
        "{}{}{}{output}{BLIT_WGSL}",
        row("YUV_R", r),
        row("YUV_G", g),
        row("YUV_B", b)
    )
}

impl Device {
    /// Refuses a face of a GPU cube texture as an image a copy or a draw reads or writes
    /// where the adapter cannot reach one (`Gpu::draws_into_cube_faces`: wgpu's GL backend,
    /// where such copies, clears, draws and read-backs do nothing; AUTOGENMIPMAP levels are
    /// made in memory there: `autogen`).
    pub(crate) fn refuse_gl_cube_face(
        &self,
        call: &'static str,
        surface: SurfaceId,
    ) -> Result<(), DeviceError> {
        if self.gpu.draws_into_cube_faces() {
            return Ok(());
        }
        let cube = self
            .surfaces
            .get(&surface)
            .and_then(|s| s.container)
            .and_then(|(texture, _, _)| self.textures.get(&texture))
            .is_some_and(|t| t.kind == crate::device::TextureKind::Cube && t.gpu.is_some());
        match cube {
            true => Err(unsupported(
                call,
                "a cube texture's face as a render target or a copy's source or destination on wgpu's GL backend (it attaches the face as the whole cube)",
            )),
            false => Ok(()),
        }
    }
}

impl Device {
    /// Draws box `s` of `source` stretched over box `d` of `destination`. A multisampled
    /// source is read resolved; into a multisampled destination every sample of a pixel
    /// takes the pixel's colour.
    pub(crate) fn blit(
        &mut self,
        call: &'static str,
        source: SurfaceId,
        s: TexelBox,
        destination: SurfaceId,
        d: TexelBox,
        filter: Filter,
    ) -> Result<(), DeviceError> {
        let resolved = self.resolved_image(call, source)?;
        let image = |id| {
            self.surfaces
                .get(&id)
                .and_then(|s| s.gpu.as_ref().map(|g| (s, g)))
                .ok_or_else(|| invalid(call, "a surface that is not on the GPU"))
        };
        let (src_surface, src) = image(source)?;
        let src = resolved.as_ref().unwrap_or(src);
        let (dst_surface, dst) = image(destination)?;
        let samples = dst.texture.sample_count();
        if dst_surface.format.is_yuv() {
            return Err(unsupported(call, "converting into YUV surfaces"));
        }
        let sampling = self.blit_sampling(src_surface.format, src, filter);
        let key = (dst.wgpu_format, sampling, samples);
        let (src_view, src_size) = (src.view.clone(), (src_surface.width, src_surface.height));
        let (dst_view, dst_format) = (dst.view.clone(), dst.wgpu_format);
        let channels = src_surface.format.channels(src.wgpu_format);
        if !self.blit_pipelines.contains_key(&key) {
            let built = build_blit_pipeline(&self.gpu, dst_format, sampling, samples);
            self.blit_pipelines.insert(key, built);
        }
        let (pipeline, layout) = self
            .blit_pipelines
            .get(&key)
            .ok_or_else(|| invalid(call, "internal: no blit pipeline"))?;
        let uniform = blit_uniform(s, d, src_size, channels);
        let group = self.blit_bind_group(layout, sampling, &src_view, &uniform);
        let pipeline = pipeline.clone();
        self.encode_blit(&pipeline, &group, &dst_view, d);
        self.bump_container(destination);
        Ok(())
    }

    /// How the blit reads a source of `format` held in `src`: bits, YUV texels, or point or
    /// bilinear filtered. Bits filter where their float format does (D3D9 filters float32
    /// where QUERY_FILTER says so; no adapter that holds bits filters float32).
    fn blit_sampling(&self, format: Format, src: &GpuImage, filter: Filter) -> Sampling {
        let features = self.gpu.features();
        let filterable = matches!(
            super::float_bits::sampled_format(src.wgpu_format).sample_type(None, Some(features)),
            Some(wgpu::TextureSampleType::Float { filterable: true })
        );
        let linear = filter == Filter::Linear && filterable;
        match format {
            _ if src.holds_bits() => Sampling::Bits { linear },
            Format::Yuy2 => Sampling::Yuy2,
            Format::Uyvy => Sampling::Uyvy,
            _ if linear => Sampling::Bilinear,
            _ => Sampling::Point,
        }
    }

    /// The blit's bind group: its uniform, the source view and (but for bits) a sampler.
    fn blit_bind_group(
        &self,
        layout: &wgpu::BindGroupLayout,
        sampling: Sampling,
        src_view: &wgpu::TextureView,
        uniform: &[f32; 12],
    ) -> wgpu::BindGroup {
        let buffer = self
            .gpu
            .init_buffer(bytemuck::cast_slice(uniform), wgpu::BufferUsages::UNIFORM);
        let device = &self.gpu.device;
        let mut entries = vec![
            wgpu::BindGroupEntry {
                binding: 0,
                resource: buffer.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: sampling.source_binding(),
                resource: wgpu::BindingResource::TextureView(src_view),
            },
        ];
        let sampler;
        if !matches!(sampling, Sampling::Bits { .. }) {
            let filter = match sampling {
                Sampling::Bilinear => wgpu::FilterMode::Linear,
                _ => wgpu::FilterMode::Nearest,
            };
            sampler = device.create_sampler(&wgpu::SamplerDescriptor {
                label: Some("StretchRect"),
                mag_filter: filter,
                min_filter: filter,
                ..Default::default()
            });
            entries.push(wgpu::BindGroupEntry {
                binding: 2,
                resource: wgpu::BindingResource::Sampler(&sampler),
            });
        }
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("StretchRect"),
            layout,
            entries: &entries,
        })
    }

    /// The blit's pass over box `d` of `dst_view`, on the pending encoder.
    fn encode_blit(
        &mut self,
        pipeline: &wgpu::RenderPipeline,
        group: &wgpu::BindGroup,
        dst_view: &wgpu::TextureView,
        d: TexelBox,
    ) {
        let encoder = self.encoder();
        let target = pass::color_attachment(dst_view, wgpu::LoadOp::Load);
        let mut pass = pass::begin(encoder, "StretchRect", &[Some(target)], None);
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, group, &[]);
        pass.set_scissor_rect(d.left, d.top, d.right - d.left, d.bottom - d.top);
        pass.draw(0..3, 0..1);
    }
}

/// The blit's uniform: the source box's origin and its scale over the destination box, the
/// destination's origin, the source's size, and 1 for each channel the source lacks.
fn blit_uniform(s: TexelBox, d: TexelBox, src_size: (u32, u32), channels: u32) -> [f32; 12] {
    let f = |v: u32| v as f32;
    let missing = |channel: u32| f(u32::from(channel >= channels));
    [
        f(s.left),
        f(s.top),
        f(s.right - s.left) / f(d.right - d.left),
        f(s.bottom - s.top) / f(d.bottom - d.top),
        f(d.left),
        f(d.top),
        f(src_size.0),
        f(src_size.1),
        missing(0),
        missing(1),
        missing(2),
        missing(3),
    ]
}

/// A fragment-stage binding of the blit's layout.
fn fragment_entry(binding: u32, ty: wgpu::BindingType) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty,
        count: None,
    }
}

fn build_blit_pipeline(
    gpu: &crate::gpu::Gpu,
    format: wgpu::TextureFormat,
    sampling: Sampling,
    samples: u32,
) -> (wgpu::RenderPipeline, wgpu::BindGroupLayout) {
    let device = &gpu.device;
    let linear = sampling == Sampling::Bilinear;
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("StretchRect"),
        source: wgpu::ShaderSource::Wgsl(blit_wgsl(super::float_bits::holds_bits(format)).into()),
    });
    let texture = |sample_type| wgpu::BindingType::Texture {
        sample_type,
        view_dimension: wgpu::TextureViewDimension::D2,
        multisampled: false,
    };
    let uniform = fragment_entry(
        0,
        wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: false,
            min_binding_size: None,
        },
    );
    // Bits: a `u32` texture and no sampler; floats: a texture and its sampler.
    let entries = match sampling {
        Sampling::Bits { .. } => vec![
            uniform,
            fragment_entry(3, texture(wgpu::TextureSampleType::Uint)),
        ],
        _ => vec![
            uniform,
            fragment_entry(
                1,
                texture(wgpu::TextureSampleType::Float { filterable: linear }),
            ),
            fragment_entry(
                2,
                wgpu::BindingType::Sampler(if linear {
                    wgpu::SamplerBindingType::Filtering
                } else {
                    wgpu::SamplerBindingType::NonFiltering
                }),
            ),
        ],
    };
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("StretchRect"),
        entries: &entries,
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("StretchRect"),
        bind_group_layouts: &[Some(&layout)],
        immediate_size: 0,
    });
    let pipeline = super::pass::FullScreen {
        label: "StretchRect",
        layout: &pipeline_layout,
        module: &module,
        fragment: sampling.entry_point(),
        constants: &[],
        targets: &[Some(wgpu::ColorTargetState {
            format,
            blend: None,
            write_mask: wgpu::ColorWrites::ALL,
        })],
        depth_stencil: None,
        samples,
    }
    .build(gpu);
    (pipeline, layout)
}

#[cfg(test)]
#[allow(clippy::panic)]
mod tests {
    #[test]
    fn blit_shaders_parse() {
        for bits in [false, true] {
            let source = super::blit_wgsl(bits);
            let module = naga::front::wgsl::parse_str(&source)
                .unwrap_or_else(|e| panic!("{}", e.emit_to_string(&source)));
            naga::valid::Validator::new(Default::default(), naga::valid::Capabilities::all())
                .validate(&module)
                .unwrap_or_else(|e| panic!("{e:?}"));
        }
    }
}
