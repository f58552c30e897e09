//! `Clear` and reading surfaces back (`GetRenderTargetData` / `LockRect` of a lockable
//! surface).

use std::collections::HashMap;

use super::error::{invalid, DeviceError};
use super::format::SurfaceData;
use super::objects::{SurfaceId, SurfaceObject};
use super::state::Rect;
use super::{ClearFlags, Device};
use crate::gpu::{bits_of, pass};

/// WGSL of the clear pass for partial clears: a triangle covering the target at depth `z`
/// writing `colour` to every render target location in `0..targets.len()` (as the bits of
/// its floats where `targets[i]` is true: float32 held in a u32 format).
fn clear_wgsl(targets: &[bool]) -> String {
    let outputs: Vec<String> = (0..targets.len())
        .map(|i| match targets[i] {
            true => format!("@location({i}) c{i}: vec4<u32>"),
            false => format!("@location({i}) c{i}: vec4<f32>"),
        })
        .collect();
    let values: Vec<&str> = targets
        .iter()
        .map(|&bits| match bits {
            true => "bitcast<vec4<u32>>(clear.colour)",
            false => "clear.colour",
        })
        .collect();
    let targets = targets.len();
    let (result, body) = if targets == 0 {
        (String::new(), String::new())
    } else {
        (
            " -> Targets".to_string(),
            format!("    return Targets({});\n", values.join(", ")),
        )
    };
    let targets_struct = if targets == 0 {
        String::new()
    } else {
        format!("struct Targets {{ {} }}\n", outputs.join(", "))
    };
    format!(
        "struct Clear {{ colour: vec4<f32>, depth: vec4<f32> }}\n\
         @group(0) @binding(0) var<uniform> clear: Clear;\n\
         {targets_struct}\
         @vertex\nfn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {{\n\
         \x20   let x = f32(i & 1u) * 4.0 - 1.0;\n\
         \x20   let y = f32(i >> 1u) * 4.0 - 1.0;\n\
         \x20   return vec4<f32>(x, y, clear.depth.x, 1.0);\n}}\n\
         @fragment\nfn fs(){result} {{\n{body}}}\n"
    )
}

/// The pipelines of partial clears, by (target formats, depth format, flags).
pub(crate) type ClearPipelines = HashMap<ClearKey, (wgpu::RenderPipeline, wgpu::BindGroupLayout)>;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ClearKey {
    targets: Vec<Option<wgpu::TextureFormat>>,
    depth: Option<wgpu::TextureFormat>,
    flags: (bool, bool, bool),
    /// The attachments' samples (`multisample`).
    samples: u32,
}

/// A view and its format.
type ViewFormat = (wgpu::TextureView, wgpu::TextureFormat);

/// A render target's view, format and size (width, height, samples).
type SizedView = (wgpu::TextureView, wgpu::TextureFormat, (u32, u32, u32));

/// One pass of a clear: its colour attachments and their formats, its depth-stencil
/// attachment, what it clears, and its attachments' size (width, height, samples).
struct ClearPass {
    views: Vec<Option<wgpu::TextureView>>,
    formats: Vec<Option<wgpu::TextureFormat>>,
    depth: Option<(ViewFormat, (u32, u32, u32))>,
    flags: ClearFlags,
    size: (u32, u32, u32),
}

/// A D3DCOLOR (0xAARRGGBB) as a wgpu colour.
fn d3dcolor_to_wgpu(colour: u32) -> wgpu::Color {
    let [r, g, b, a] = super::d3dcolor::rgba(colour).map(f64::from);
    wgpu::Color { r, g, b, a }
}

/// The passes of a clear: one when every attachment has render target 0's `size`;
/// otherwise (a larger or smaller depth-stencil surface, targets of other sizes: WebGPU's
/// attachments must match) a pass per target and one for the depth-stencil surface.
fn clear_passes(
    targets: Vec<Option<SizedView>>,
    depth: Option<(ViewFormat, (u32, u32, u32))>,
    one_size: bool,
    flags: ClearFlags,
    size: (u32, u32, u32),
) -> Vec<ClearPass> {
    let depth_matches = depth.as_ref().is_none_or(|(_, s)| *s == size);
    if one_size && depth_matches {
        let views = targets
            .iter()
            .map(|t| t.as_ref().map(|t| t.0.clone()))
            .collect();
        let formats = targets.iter().map(|t| t.as_ref().map(|t| t.1)).collect();
        return vec![ClearPass {
            views,
            formats,
            depth,
            flags,
            size,
        }];
    }
    let colour_only = ClearFlags {
        zbuffer: false,
        stencil: false,
        ..flags
    };
    let depth_only = ClearFlags {
        target: false,
        ..flags
    };
    let mut passes = Vec::new();
    for (view, format, size) in targets.into_iter().flatten() {
        passes.push(ClearPass {
            views: vec![Some(view)],
            formats: vec![Some(format)],
            depth: None,
            flags: colour_only,
            size,
        });
    }
    if let Some((d, size)) = depth {
        passes.push(ClearPass {
            views: Vec::new(),
            formats: Vec::new(),
            depth: Some((d, size)),
            flags: depth_only,
            size,
        });
    }
    passes
}

impl Device {
    /// `Clear(rects, flags, colour, z, stencil)`: the render targets (all bound ones), the
    /// depth and the stencil of the depth-stencil surface, within the viewport, the scissor
    /// rectangle when the scissor test is on, and `rects` when some are given. `colour` is a
    /// D3DCOLOR (0xAARRGGBB).
    pub fn clear(
        &mut self,
        rects: &[Rect],
        flags: ClearFlags,
        colour: u32,
        z: f32,
        stencil: u32,
    ) -> Result<(), DeviceError> {
        let call = "Clear";
        let ds = self.clear_depth_stencil(call, flags, z)?;
        let rt0 = self.state.render_targets[0]
            .and_then(|id| self.surfaces.get(&id))
            .ok_or_else(|| invalid(call, "no render target 0"))?;
        let samples = rt0.gpu.as_ref().map_or(1, |g| g.texture.sample_count());
        let size = (rt0.width, rt0.height, samples);
        let areas = self.clear_areas(rects);
        let clear_colour = d3dcolor_to_wgpu(colour);
        let (targets, one_size) = self.clear_targets(call, flags, size)?;
        let depth = ds
            .filter(|_| flags.zbuffer || flags.stencil)
            .and_then(|s| Some((s.gpu.as_ref()?, (s.width, s.height))))
            .map(|(s, (w, h))| {
                let size = (w, h, s.texture.sample_count());
                ((s.view.clone(), s.wgpu_format), size)
            });
        for pass in clear_passes(targets, depth, one_size, flags, size) {
            self.run_clear_pass(pass, &areas, clear_colour, z, stencil)?;
        }
        Ok(())
    }

    /// `Clear`'s rules for the depth-stencil surface and `z`; the surface, if one is set.
    fn clear_depth_stencil(
        &self,
        call: &'static str,
        flags: ClearFlags,
        z: f32,
    ) -> Result<Option<&SurfaceObject>, DeviceError> {
        let ds = match self.state.depth_stencil {
            Some(id) => Some(
                self.surfaces
                    .get(&id)
                    .ok_or_else(|| invalid(call, "the depth-stencil surface was released"))?,
            ),
            None => None,
        };
        if (flags.zbuffer || flags.stencil) && ds.is_none() {
            return Err(invalid(
                call,
                "D3DCLEAR_ZBUFFER or _STENCIL without a depth-stencil surface",
            ));
        }
        if flags.stencil && !ds.is_some_and(|s| s.format.has_stencil()) {
            return Err(invalid(
                call,
                "D3DCLEAR_STENCIL on a surface without stencil",
            ));
        }
        if !(0.0..=1.0).contains(&z) {
            return Err(invalid(call, format!("z {z} outside 0..=1")));
        }
        Ok(ds)
    }

    /// The rectangles cleared: the viewport, within the scissor rectangle when the scissor
    /// test is on, within each of `rects` when some are given.
    fn clear_areas(&self, rects: &[Rect]) -> Vec<Rect> {
        let v = self.state.viewport;
        let mut area = Rect {
            left: v.x as i32,
            top: v.y as i32,
            right: (v.x + v.width) as i32,
            bottom: (v.y + v.height) as i32,
        };
        if self.state.render.scissor_test {
            area = area.intersect(&self.state.scissor);
        }
        if rects.is_empty() {
            vec![area]
        } else {
            rects.iter().map(|r| r.intersect(&area)).collect()
        }
    }

    /// Each render target cleared with its view, format and size (D3D9 clears every bound
    /// target, whatever its size; none without `D3DCLEAR_TARGET`), and whether all have
    /// render target 0's `size`.
    fn clear_targets(
        &self,
        call: &'static str,
        flags: ClearFlags,
        size0: (u32, u32, u32),
    ) -> Result<(Vec<Option<SizedView>>, bool), DeviceError> {
        let mut targets = Vec::new();
        let mut one_size = true;
        for id in self.state.render_targets.iter() {
            let target = id
                .and_then(|id| self.surfaces.get(&id))
                .and_then(|s| Some((s, s.gpu.as_ref()?)))
                .filter(|_| flags.target);
            let Some((surface, gpu)) = target else {
                targets.push(None);
                continue;
            };
            // (Targets of another multisampling than render target 0's are cleared apart.)
            let size = (surface.width, surface.height, gpu.texture.sample_count());
            one_size &= size == size0;
            // With D3DRS_SRGBWRITEENABLE the clear colour is encoded too (`srgb`).
            let (view, format) = self.target_view(call, surface, gpu)?;
            targets.push(Some((view, format, size)));
        }
        while targets.last().is_some_and(Option::is_none) {
            targets.pop();
        }
        Ok((targets, one_size))
    }

    /// One pass of a clear, over each of `areas` within its attachments: a load operation
    /// where an area is the whole attachment, a draw otherwise.
    fn run_clear_pass(
        &mut self,
        pass: ClearPass,
        areas: &[Rect],
        clear_colour: wgpu::Color,
        z: f32,
        stencil: u32,
    ) -> Result<(), DeviceError> {
        let ClearPass {
            views,
            formats,
            depth,
            flags,
            size: target,
        } = pass;
        if views.is_empty() && depth.is_none() {
            return Ok(());
        }
        let depth = depth.map(|(d, _)| d);
        for rect in areas {
            let Some((x, y, w, h)) = rect.clip(target.0, target.1) else {
                continue;
            };
            let whole = (x, y, w, h) == (0, 0, target.0, target.1);
            let samples = target.2;
            if whole {
                self.clear_whole(
                    &views,
                    &formats,
                    depth.as_ref(),
                    flags,
                    clear_colour,
                    z,
                    stencil,
                );
            } else {
                self.clear_rect(
                    &views,
                    &formats,
                    depth.as_ref(),
                    flags,
                    clear_colour,
                    z,
                    stencil,
                    (x, y, w, h, samples),
                )?;
            }
        }
        Ok(())
    }

    /// A clear of whole surfaces: load operations.
    #[allow(clippy::too_many_arguments)]
    fn clear_whole(
        &mut self,
        colour_views: &[Option<wgpu::TextureView>],
        formats: &[Option<wgpu::TextureFormat>],
        depth: Option<&(wgpu::TextureView, wgpu::TextureFormat)>,
        flags: ClearFlags,
        colour: wgpu::Color,
        z: f32,
        stencil: u32,
    ) {
        let loads: Vec<_> = bits_targets(formats)
            .into_iter()
            .map(|bits| wgpu::LoadOp::Clear(if bits { bits_of(colour) } else { colour }))
            .collect();
        let attachments = pass::color_attachments(colour_views, &loads);
        let depth_load = match flags.zbuffer {
            true => wgpu::LoadOp::Clear(z),
            false => wgpu::LoadOp::Load,
        };
        let stencil_load = match flags.stencil {
            true => wgpu::LoadOp::Clear(stencil & 0xff),
            false => wgpu::LoadOp::Load,
        };
        let depth_attachment = depth.map(|d| pass::depth_attachment(d, depth_load, stencil_load));
        let encoder = self.encoder();
        drop(pass::begin(
            encoder,
            "Clear",
            &attachments,
            depth_attachment,
        ));
    }

    /// A clear of a rectangle: a triangle drawn with the scissor rectangle.
    #[allow(clippy::too_many_arguments)]
    fn clear_rect(
        &mut self,
        colour_views: &[Option<wgpu::TextureView>],
        formats: &[Option<wgpu::TextureFormat>],
        depth: Option<&(wgpu::TextureView, wgpu::TextureFormat)>,
        flags: ClearFlags,
        colour: wgpu::Color,
        z: f32,
        stencil: u32,
        (x, y, w, h, samples): (u32, u32, u32, u32, u32),
    ) -> Result<(), DeviceError> {
        let key = ClearKey {
            targets: formats.to_vec(),
            depth: depth.map(|(_, f)| *f),
            flags: (flags.target, flags.zbuffer, flags.stencil),
            samples,
        };
        let gpu = &self.gpu;
        let (pipeline, layout) = match self.clear_pipelines.get(&key) {
            Some(p) => p.clone(),
            None => {
                let built = gpu
                    .capture("clear pipeline", || Ok(build_clear_pipeline(gpu, &key)))
                    .map_err(Device::gpu_error("Clear"))?;
                self.clear_pipelines.insert(key.clone(), built.clone());
                built
            }
        };
        let data: [f32; 8] = [
            colour.r as f32,
            colour.g as f32,
            colour.b as f32,
            colour.a as f32,
            z,
            0.0,
            0.0,
            0.0,
        ];
        let buffer = self
            .gpu
            .init_buffer(bytemuck::cast_slice(&data), wgpu::BufferUsages::UNIFORM);
        let group = self
            .gpu
            .device
            .create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("clear"),
                layout: &layout,
                entries: &[wgpu::BindGroupEntry {
                    binding: 0,
                    resource: buffer.as_entire_binding(),
                }],
            });
        let attachments = pass::color_attachments(colour_views, &[]);
        let depth_attachment =
            depth.map(|d| pass::depth_attachment(d, wgpu::LoadOp::Load, wgpu::LoadOp::Load));
        let encoder = self.encoder();
        let mut pass = pass::begin(encoder, "Clear (rectangle)", &attachments, depth_attachment);
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &group, &[]);
        pass.set_scissor_rect(x, y, w, h);
        pass.set_stencil_reference(stencil & 0xff);
        pass.draw(0..3, 0..1);
        Ok(())
    }

    /// `GetRenderTargetData` / `LockRect` of a surface: its texels as D3D9's memory holds
    /// them. Submits the draws recorded so far and waits for them. Depth surfaces read back
    /// their depth (D24X8 and D24S8 as 32-bit floats; no stencil: see `depth_pass`), copied
    /// out where the adapter copies depth and drawn out through a pass where it cannot (GL).
    pub fn get_render_target_data(&mut self, id: SurfaceId) -> Result<SurfaceData, DeviceError> {
        let call = "GetRenderTargetData";
        self.refuse_gl_cube_face(call, id)?;
        self.upload_container(id);
        // A multisampled target reads as its resolve (what `Present` and `StretchRect` give).
        let resolved = self.resolved_image(call, id)?;
        self.flush()?;
        let surface = self
            .surfaces
            .get(&id)
            .ok_or_else(|| invalid(call, format!("{id:?} is not a surface of this device")))?;
        let gpu_image = surface
            .gpu
            .as_ref()
            .ok_or_else(|| invalid(call, "a system-memory surface is not on the GPU"))?;
        let (format, width, height) = (surface.format, surface.width, surface.height);
        let wgpu_format = gpu_image.wgpu_format;
        // The GPU texels (the depth aspect's for depth formats), converted to D3D9's layout.
        let gpu_bytes = if format.is_depth() {
            self.read_depth(call, id)?
        } else {
            let image = resolved.as_ref().unwrap_or(gpu_image);
            let (texture, level, layer) = (image.texture.clone(), image.level, image.layer);
            let aspect = wgpu::TextureAspect::All;
            self.read_texels(call, &texture, (level, layer, aspect), (width, height))?
        };
        Ok(SurfaceData {
            format,
            width,
            height,
            data: format.wgpu_bytes_to_d3d(wgpu_format, &gpu_bytes),
        })
    }

    /// The texels of `aspect` of (level, layer) of `texture`, `width` x `height` of them from
    /// the corner, in rows tightly packed (of blocks for compressed formats). Waits for the
    /// GPU: what it should see must have been submitted.
    pub(crate) fn read_texels(
        &self,
        call: &'static str,
        texture: &wgpu::Texture,
        (level, layer, aspect): (u32, u32, wgpu::TextureAspect),
        (width, height): (u32, u32),
    ) -> Result<Vec<u8>, DeviceError> {
        let format = texture.format();
        let row = match aspect {
            wgpu::TextureAspect::All => super::format::gpu_row_pitch(format, width),
            _ => width * format.block_copy_size(Some(aspect)).unwrap_or(4),
        };
        let rows = super::format::gpu_rows(format, height);
        let (bw, bh) = format.block_dimensions();
        let copy = crate::gpu::TexelCopy {
            level,
            origin: wgpu::Origin3d {
                x: 0,
                y: 0,
                z: layer,
            },
            aspect,
            extent: wgpu::Extent3d {
                width: width.next_multiple_of(bw),
                height: height.next_multiple_of(bh),
                depth_or_array_layers: 1,
            },
            row_bytes: row,
            rows,
        };
        self.gpu
            .read_texels(texture, copy)
            .map_err(Device::gpu_error(call))
    }

    /// The colour of pixel (x, y) of render target 0 as a D3DCOLOR (Wine's
    /// `getPixelColor`, X channels as stored).
    pub fn pixel(&mut self, x: u32, y: u32) -> Result<u32, DeviceError> {
        let id = self.state.render_targets[0]
            .ok_or_else(|| invalid("getPixelColor", "no render target 0"))?;
        let data = self.get_render_target_data(id)?;
        data.color(x, y).ok_or_else(|| {
            invalid(
                "getPixelColor",
                format!(
                    "({x}, {y}) of a {}x{} {:?} surface",
                    data.width, data.height, data.format
                ),
            )
        })
    }
}

/// Which targets hold float32 bits in a u32 format.
fn bits_targets(formats: &[Option<wgpu::TextureFormat>]) -> Vec<bool> {
    formats
        .iter()
        .map(|f| f.is_some_and(super::float_bits::holds_bits))
        .collect()
}

fn build_clear_pipeline(
    gpu: &crate::gpu::Gpu,
    key: &ClearKey,
) -> (wgpu::RenderPipeline, wgpu::BindGroupLayout) {
    let device = &gpu.device;
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("clear"),
        source: wgpu::ShaderSource::Wgsl(clear_wgsl(&bits_targets(&key.targets)).into()),
    });
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("clear"),
        entries: &[wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        }],
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("clear"),
        bind_group_layouts: &[Some(&layout)],
        immediate_size: 0,
    });
    let (target, zbuffer, stencil) = key.flags;
    let targets: Vec<Option<wgpu::ColorTargetState>> = key
        .targets
        .iter()
        .map(|f| {
            f.map(|format| wgpu::ColorTargetState {
                format,
                blend: None,
                write_mask: if target {
                    wgpu::ColorWrites::ALL
                } else {
                    wgpu::ColorWrites::empty()
                },
            })
        })
        .collect();
    let depth_stencil = key.depth.map(|format| {
        let face = wgpu::StencilFaceState {
            compare: wgpu::CompareFunction::Always,
            fail_op: wgpu::StencilOperation::Keep,
            depth_fail_op: wgpu::StencilOperation::Keep,
            pass_op: wgpu::StencilOperation::Replace,
        };
        wgpu::DepthStencilState {
            format,
            depth_write_enabled: Some(zbuffer && format.has_depth_aspect()),
            depth_compare: Some(wgpu::CompareFunction::Always),
            // A format without stencil takes no stencil operations at all.
            stencil: if format.has_stencil_aspect() {
                wgpu::StencilState {
                    front: face,
                    back: face,
                    read_mask: 0xff,
                    write_mask: if stencil { 0xff } else { 0 },
                }
            } else {
                wgpu::StencilState::default()
            },
            bias: Default::default(),
        }
    });
    let pipeline = super::pass::FullScreen {
        label: "clear",
        layout: &pipeline_layout,
        module: &module,
        fragment: "fs",
        constants: &[],
        targets: &targets,
        depth_stencil,
        samples: key.samples,
    }
    .build(gpu);
    (pipeline, layout)
}

#[cfg(test)]
#[allow(clippy::panic)]
mod tests {
    #[test]
    fn clear_shaders_parse() {
        for n in 0..=4 {
            let mut targets = vec![false; n];
            if n > 1 {
                targets[1] = true;
            }
            let source = super::clear_wgsl(&targets);
            if let Err(e) = naga::front::wgsl::parse_str(&source) {
                panic!("{}\n{source}", e.emit_to_string(&source));
            }
        }
    }
}
