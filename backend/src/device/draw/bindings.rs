//! What a draw's pipeline binds: the textures the pair samples (checked against its
//! declarations), the vertex and pixel constants (placed in the constants ring, `ring`, when
//! they changed), the samplers from D3D9's sampler states, and the texture bind groups.

use d3d9_translator::bytecode::TextureType;
use d3d9_translator::lift::interface::alpha_ref_data;
use d3d9_translator::lift::interface::{BUMP_ENV_STAGES, HW_FLOAT_CONSTANTS};
use d3d9_translator::lift::{FogConstants, SamplerRead};

use super::super::clip::{clip_plane_buffer, clip_planes_key};
use super::super::error::{invalid, unsupported, DeviceError};
use super::super::fixed_function::FogState;
use super::super::float_bits::sampled_format;
use super::super::objects::{TextureId, TextureObject};
use super::super::pairing::{SampledTexture, ShaderPair};
use super::super::points::{point_constant_buffer, point_constants_key};
use super::super::{Device, DeviceState};
use super::ring::{Offsets, Stage};
use super::{BindGroupKey, ConstantsGroup, PipelineEntry, SamplerKey};
use crate::device::{ConstantBuffer, Extent, MipFilter, TextureFilter, TextureKind};

/// A draw's bind groups with their dynamic offsets, and what placed its constants.
pub(super) struct BoundGroups {
    pub(super) groups: Vec<Option<wgpu::BindGroup>>,
    pub(super) offsets: [Offsets; 4],
    pub(super) constants: ConstantKeys,
}

/// The keys a draw's constants were placed under (vertex, pixel), at the float constants'
/// versions then, with the position fix-up: what places them again when only the float
/// constants change (`Device::constants_changed`).
#[derive(Clone)]
pub(super) struct ConstantKeys {
    pub(super) keys: [Option<BindGroupKey>; 2],
    pub(super) versions: [u64; 2],
    pub(super) fixup: [f32; 4],
}

/// The textures on the slots a pair samples.
pub(super) struct SampledTextures {
    /// Per sampled texture of the pair: the texture (`None` where none with a GPU side is
    /// set) and its format.
    bound: Vec<(Option<TextureId>, Option<wgpu::TextureFormat>)>,
    /// Per sampled texture: whether its format filters.
    pub(super) filterable: Vec<bool>,
    /// A texture is read through a copy made at bind time: a 2D texture as a one-slice
    /// volume (`volume_slice`), float32 bits as floats (`float_bits`).
    pub(super) copied: bool,
}

impl Device {
    /// Textures: what is bound on each slot the pair samples, refusing what WebGPU cannot bind.
    pub(super) fn sampled_textures(
        &mut self,
        call: &'static str,
        pair: &ShaderPair,
    ) -> Result<SampledTextures, DeviceError> {
        let mut bound_textures = Vec::new();
        let mut copied = false;
        for t in &pair.textures {
            let id = self.state.textures[t.slot];
            // What locks wrote to system memory reaches the GPU before sampling (a SYSTEMMEM
            // texture gets a GPU copy).
            if let Some(id) = id {
                self.prepare_sampled(id)?;
            }
            // A texture with no GPU side (SCRATCH) samples as none.
            let object = id
                .and_then(|id| self.textures.get(&id))
                .filter(|o| o.gpu.is_some());
            if let Some(object) = object {
                self.check_depth_read(call, t, id, object)?;
                let expected = match t.texture_type {
                    TextureType::Cube => TextureKind::Cube,
                    TextureType::Volume => TextureKind::Volume,
                    _ => TextureKind::TwoD,
                };
                // A 2D texture on a `dcl_volume` sampler reads as a one-slice volume
                // (`volume_slice`); other mismatches are refused.
                let slice = object.kind == TextureKind::TwoD && expected == TextureKind::Volume;
                // The slice and the float copy are copied again at every bind that needs
                // them: never memoised.
                copied |= slice || object.holds_bits();
                if object.kind != expected && !slice {
                    return Err(unsupported(
                        call,
                        format!(
                            "sampler {} is declared {:?} and a {:?} texture is set (D3D9 leaves the result undefined; WebGPU binds only the declared type)",
                            t.slot, expected, object.kind
                        ),
                    ));
                }
                // A narrow texture reads its missing channels as 1 through the shader
                // (`SamplerRead::Narrow`: `Device::sampler_reads`, `vertex_sampler_reads`).
                let channels = object.format.channels(object.wgpu_format);
                let narrow = matches!(t.read, SamplerRead::Narrow { channels: c } if u32::from(c) == channels);
                if channels < 4 && !narrow {
                    return Err(unsupported(
                        call,
                        format!(
                            "sampling a {:?} texture on device sampler slot {} without its missing channels read as 1 (internal: the pair was made for another texture)",
                            object.format,
                            t.slot
                        ),
                    ));
                }
            }
            // Float32 bits sample as floats (`float_bits`).
            bound_textures.push((
                id.filter(|_| object.is_some()),
                object.map(|o| sampled_format(o.wgpu_format)),
            ));
        }
        let features = self.gpu.features();
        let filterable: Vec<bool> = bound_textures
            .iter()
            .map(|(_, format)| match format {
                Some(f) => matches!(
                    f.sample_type(None, Some(features)),
                    Some(wgpu::TextureSampleType::Float { filterable: true })
                ),
                None => true,
            })
            .collect();
        Ok(SampledTextures {
            bound: bound_textures,
            filterable,
            copied,
        })
    }

    /// Bind groups, with the dynamic offsets of each: constants (placed in the constants
    /// ring, again only when they changed) and textures.
    pub(super) fn bind_groups(
        &mut self,
        call: &'static str,
        pair: &ShaderPair,
        entry: &PipelineEntry,
        textures: &SampledTextures,
        depth_bias: f32,
    ) -> Result<BoundGroups, DeviceError> {
        let render = self.state.render;
        let viewport = self.state.viewport;
        // The position fix-up: D3D9's half-pixel offset where the viewport does not carry it,
        // and the depth bias in z.
        let fixup = match self.half_pixel_in_viewport {
            true => [0.0, 0.0, depth_bias, 0.0],
            false => [
                1.0 / viewport.width.max(1) as f32,
                -1.0 / viewport.height.max(1) as f32,
                depth_bias,
                0.0,
            ],
        };
        let mut groups: Vec<Option<wgpu::BindGroup>> = entry.empty_groups.clone();
        let mut offsets = [Offsets::default(); 4];
        let mut keys = [None, None];
        if let Some(constants) = entry.vs_constants {
            let key = BindGroupKey::VertexConstants {
                pair: pair.id,
                // The fixed-function constants come from many states (transforms, lights,
                // material, render and stage states): any state change makes new ones.
                version: match pair.fixed_function_vertex {
                    true => self.states_version(0),
                    false => [0, 0, self.state.vs_constants_version],
                },
                viewport: (viewport.width, viewport.height),
                fixup: fixup.map(f32::to_bits),
                points: point_constants_key(&self.state, &pair.vertex_interface),
                clip: clip_planes_key(&self.state, pair)?,
            };
            let (group, at) =
                self.constants(Stage::Vertex, entry, &key, constants, |state, extent| {
                    vertex_constant_buffers(state, pair, fixup, extent)
                })?;
            set_group(&mut groups, constants.group, group);
            set_offsets(&mut offsets, constants.group, at);
            keys[Stage::Vertex as usize] = Some(key);
        }
        if let Some(constants) = entry.ps_constants {
            let fog = FogState::of(&render, self.state.transforms.w_fog());
            let key = BindGroupKey::PixelConstants {
                pair: pair.id,
                // The fixed-function uniform and ps_1_x's bump-environment matrices come from
                // render and texture-stage states: any state change makes new ones. (The
                // float constants do not bump the state's version: their own counts.)
                version: match (pair.fixed_function_pixel, &pair.pixel_interface) {
                    (true, _) => self.states_version(0),
                    (false, Some(i)) if i.bump_env.is_some() => {
                        self.states_version(self.state.ps_constants_version)
                    }
                    (false, _) => [0, 0, self.state.ps_constants_version],
                },
                fog: fog.key(),
                alpha_ref: render.alpha_reference(),
            };
            let (group, at) =
                self.constants(Stage::Pixel, entry, &key, constants, |state, extent| {
                    Ok(pixel_constant_buffers(state, pair, extent))
                })?;
            set_group(&mut groups, constants.group, group);
            set_offsets(&mut offsets, constants.group, at);
            keys[Stage::Pixel as usize] = Some(key);
        }
        self.texture_groups(call, pair, entry, textures, &mut groups)?;
        Ok(BoundGroups {
            groups,
            offsets,
            constants: ConstantKeys {
                keys,
                versions: self.constants_versions(),
                fixup,
            },
        })
    }

    /// The texture bind groups (groups 1 and 3) of `pair` over `textures`, into `groups`.
    pub(super) fn texture_groups(
        &mut self,
        call: &'static str,
        pair: &ShaderPair,
        entry: &PipelineEntry,
        textures: &SampledTextures,
        groups: &mut [Option<wgpu::BindGroup>],
    ) -> Result<(), DeviceError> {
        for group in [1u32, 3] {
            let members: Vec<usize> = (0..pair.textures.len())
                .filter(|&i| pair.textures[i].group == group)
                .collect();
            if members.is_empty() {
                continue;
            }
            let mut bound = Vec::new();
            for &i in &members {
                let (slot, read) = (pair.textures[i].slot, pair.textures[i].read);
                let texture = textures.bound[i].0;
                let object = texture.and_then(|id| self.textures.get(&id));
                let lod = object.map_or(0, |t| t.lod);
                // The sRGB view where the sampler reads sRGB and the format has it (`srgb`).
                let srgb = self.srgb_read(slot) && object.is_some_and(|t| t.format.srgb_capable());
                let sampler = self.sampler_key(call, slot, read, textures.filterable[i], lod)?;
                bound.push((texture, srgb, sampler));
            }
            let key = BindGroupKey::Textures {
                pair: pair.id,
                group,
                bound,
            };
            let bound = match &key {
                BindGroupKey::Textures { bound, .. } => bound.as_slice(),
                _ => &[],
            };
            let layout = entry
                .layouts
                .get(group as usize)
                .ok_or_else(|| invalid(call, "internal: no texture layout"))?
                .clone();
            let textures_group = self.texture_group(call, &key, &layout, pair, &members, bound)?;
            set_group(groups, group, textures_group);
        }
        Ok(())
    }

    /// The constants' key version of constants that come from the states (`SetTexture`
    /// included) and the float constants' version `constants`.
    fn states_version(&self, constants: u64) -> [u64; 3] {
        [self.state.version(), self.state.textures_version, constants]
    }

    /// The vertex and pixel float constants' versions (`SetVertexShaderConstantF` and
    /// `SetPixelShaderConstantF` change only these, not the state's version).
    pub(super) fn constants_versions(&self) -> [u64; 2] {
        [
            self.state.vs_constants_version,
            self.state.ps_constants_version,
        ]
    }

    /// The bind group and dynamic offsets of one stage's constants under `key`: placed in the
    /// constants ring, or where the pipeline binds them without dynamic offsets, a bind group
    /// of their own (`constants_group`).
    pub(super) fn constants(
        &mut self,
        stage: Stage,
        entry: &PipelineEntry,
        key: &BindGroupKey,
        constants: ConstantsGroup,
        buffers: impl FnOnce(&DeviceState, Extent) -> Result<Vec<ConstantBuffer>, DeviceError>,
    ) -> Result<(wgpu::BindGroup, Offsets), DeviceError> {
        let Some(shape) = constants.shape else {
            // Buffers of their own hold the whole type.
            let group = self.constants_group(entry, key, constants.group, |state| {
                buffers(state, Extent::Full)
            })?;
            return Ok((group, Offsets::default()));
        };
        // The ring copies only the registers the shader reads (its bindings have their full
        // size; the shader reads no more).
        let state = &self.state;
        self.constant_ring
            .place(&self.gpu.device, stage, key, shape, || {
                buffers(state, Extent::Read)
            })
    }

    /// The bind group of the constants `buffers` gives, under `key`, made on a miss.
    fn constants_group(
        &mut self,
        entry: &PipelineEntry,
        key: &BindGroupKey,
        group: u32,
        buffers: impl FnOnce(&DeviceState) -> Result<Vec<ConstantBuffer>, DeviceError>,
    ) -> Result<wgpu::BindGroup, DeviceError> {
        let layout = entry
            .layouts
            .get(group as usize)
            .ok_or_else(|| invalid("draw", "internal: no constants layout"))?;
        let gpu = &self.gpu;
        let state = &self.state;
        self.bind_groups.get_or_try_insert(key, || {
            let buffers = buffers(state)?;
            let created: Vec<(u32, wgpu::Buffer)> = buffers
                .iter()
                .map(|b| {
                    let usage = match b.storage {
                        true => wgpu::BufferUsages::STORAGE,
                        false => wgpu::BufferUsages::UNIFORM,
                    };
                    (b.binding, gpu.init_buffer(&b.data, usage))
                })
                .collect();
            let entries: Vec<wgpu::BindGroupEntry<'_>> = created
                .iter()
                .map(|(binding, buffer)| wgpu::BindGroupEntry {
                    binding: *binding,
                    resource: buffer.as_entire_binding(),
                })
                .collect();
            gpu.capture("constants bind group", || {
                Ok(gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("constants"),
                    layout,
                    entries: &entries,
                }))
            })
            .map_err(Device::gpu_error("draw"))
        })
    }

    /// The sampler of slot `slot`'s states, for a texture read as `read`.
    /// `lod`: the bound texture's `SetLOD`.
    fn sampler_key(
        &self,
        call: &'static str,
        slot: usize,
        read: SamplerRead,
        filterable: bool,
        lod: u32,
    ) -> Result<SamplerKey, DeviceError> {
        let s = self.state.samplers[slot];
        // The LOD bias, MIRRORONCE and border colours WebGPU lacks are the shader's (`fixups`).
        self.check_fixups(call, slot, read.is_depth())?;
        let (address, border) = self.hardware_address(slot);
        if border.is_some() {
            self.require_feature(
                call,
                wgpu::Features::ADDRESS_MODE_CLAMP_TO_BORDER,
                "D3DTADDRESS_BORDER",
            )?;
        }
        let filtering =
            s.mag_filter.blends() || s.min_filter.blends() || s.mip_filter == MipFilter::Linear;
        // Depth textures filter through a comparison sampler (shadow maps) or in the shader
        // (raw depth, whose sampler points).
        if filtering && !filterable && !read.is_depth() {
            return Err(unsupported(call, format!("linear filtering on sampler {slot} of a texture format this adapter cannot filter")));
        }
        let raw_depth = matches!(read, SamplerRead::Depth { .. });
        let point = |f: TextureFilter| if raw_depth { TextureFilter::Point } else { f };
        Ok(SamplerKey {
            address,
            border,
            mag: point(s.mag_filter),
            min: point(s.min_filter),
            mip: match s.mip_filter {
                MipFilter::Linear if raw_depth => MipFilter::Point,
                mip => mip,
            },
            compare: read == SamplerRead::Shadow,
            // The most detailed level sampled (Wine's maxmip_test, checked on Windows): the
            // texture's LOD, and with mipmapping on also no finer than D3DSAMP_MAXMIPLEVEL
            // (MAXMIPLEVEL is ignored under MIPFILTER NONE).
            max_mip_level: match s.mip_filter {
                MipFilter::None => lod,
                MipFilter::Point | MipFilter::Linear => s.max_mip_level.max(lod),
            },
            filtering: filterable,
            max_anisotropy: s.max_anisotropy,
        })
    }

    fn sampler(&mut self, key: SamplerKey) -> wgpu::Sampler {
        let device = &self.gpu.device;
        self.samplers
            .entry(key)
            .or_insert_with(|| {
                let mut desc = crate::device::sampler_descriptor(
                    key.address,
                    [key.mag, key.min],
                    key.mip,
                    key.max_mip_level,
                    key.border,
                    key.max_anisotropy,
                );
                // Shadow maps: the texel is `reference <= depth` (Wine's shadow_test).
                if key.compare {
                    desc.compare = Some(wgpu::CompareFunction::LessEqual);
                }
                device.create_sampler(&desc)
            })
            .clone()
    }

    #[allow(clippy::too_many_arguments)]
    fn texture_group(
        &mut self,
        call: &'static str,
        key: &BindGroupKey,
        layout: &wgpu::BindGroupLayout,
        pair: &ShaderPair,
        members: &[usize],
        bound: &[(Option<TextureId>, bool, SamplerKey)],
    ) -> Result<wgpu::BindGroup, DeviceError> {
        // A group the cache holds is answered before its views and samplers are looked up,
        // unless a member reads a view made from its texture, which is brought up to date on
        // every draw.
        let derived = members.iter().zip(bound).any(|(&i, (id, _, _))| {
            id.and_then(|id| self.textures.get(&id))
                .is_some_and(|o| ViewSource::of(o, &pair.textures[i]) != ViewSource::Own)
        });
        if !derived {
            if let Some(group) = self.bind_groups.get(key) {
                return Ok(group);
            }
        }
        let mut views = Vec::new();
        let mut samplers = Vec::new();
        for (&i, (id, _, sampler)) in members.iter().zip(bound) {
            let t = &pair.textures[i];
            let view = match id.and_then(|id| {
                self.textures
                    .get(&id)
                    .and_then(|o| Some((id, o, o.gpu.as_ref()?)))
            }) {
                Some((id, object, gpu)) => match ViewSource::of(object, t) {
                    ViewSource::VolumeSlice => {
                        if self.srgb_read(t.slot) && object.format.srgb_capable() {
                            return Err(unsupported(
                                call,
                                format!(
                                    "D3DSAMP_SRGBTEXTURE on sampler {}, a 2D texture read as a volume",
                                    t.slot
                                ),
                            ));
                        }
                        self.volume_slice_view(call, id)?
                    }
                    ViewSource::FloatCopy => self.float_copy_view(call, id)?,
                    ViewSource::Own => self.sampled_view(call, t.slot, object, gpu)?,
                },
                None => self.unbound_texture(t.texture_type),
            };
            views.push((t.texture_binding, view));
            samplers.push((t.sampler_binding, self.sampler(*sampler)));
        }
        let gpu = &self.gpu;
        self.bind_groups.get_or_try_insert(key, || {
            let mut entries = Vec::new();
            for (binding, view) in &views {
                entries.push(wgpu::BindGroupEntry {
                    binding: *binding,
                    resource: wgpu::BindingResource::TextureView(view),
                });
            }
            for (binding, sampler) in &samplers {
                entries.push(wgpu::BindGroupEntry {
                    binding: *binding,
                    resource: wgpu::BindingResource::Sampler(sampler),
                });
            }
            gpu.capture("textures bind group", || {
                Ok(gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("textures"),
                    layout,
                    entries: &entries,
                }))
            })
            .map_err(Device::gpu_error(call))
        })
    }

    /// A depth texture is read on a 2D pixel sampler (as the pair's `read` says) and not while
    /// it is the depth-stencil surface the pass draws into (WebGPU cannot sample an attachment
    /// the pass writes; D3D9 leaves that undefined).
    fn check_depth_read(
        &self,
        call: &'static str,
        t: &SampledTexture,
        id: Option<TextureId>,
        object: &TextureObject,
    ) -> Result<(), DeviceError> {
        if object.format.is_depth() && t.read == SamplerRead::Color {
            return Err(unsupported(
                call,
                format!(
                    "a {:?} depth texture on sampler {} (depth textures are read on 2D pixel samplers)",
                    object.format, t.slot
                ),
            ));
        }
        let attached = self
            .state
            .depth_stencil
            .and_then(|ds| self.surfaces.get(&ds))
            .and_then(|ds| ds.container)
            .is_some_and(|(texture, _, _)| Some(texture) == id);
        if t.read.is_depth() && attached {
            return Err(unsupported(
                call,
                format!(
                    "sampler {} reads the depth texture that is the depth-stencil surface drawn into",
                    t.slot
                ),
            ));
        }
        Ok(())
    }

    /// What a sampler with no texture set reads: a 1x1 texture of (0, 0, 0, 1), as Windows
    /// drivers and Wine give for an unbound sampler.
    fn unbound_texture(&mut self, texture_type: TextureType) -> wgpu::TextureView {
        let (dimension, view_dimension, layers) = match texture_type {
            TextureType::Cube => (
                wgpu::TextureDimension::D2,
                wgpu::TextureViewDimension::Cube,
                6,
            ),
            TextureType::Volume => (
                wgpu::TextureDimension::D3,
                wgpu::TextureViewDimension::D3,
                1,
            ),
            _ => (
                wgpu::TextureDimension::D2,
                wgpu::TextureViewDimension::D2,
                1,
            ),
        };
        let texture = self.gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("unbound sampler"),
            size: wgpu::Extent3d {
                width: 1,
                height: 1,
                depth_or_array_layers: layers,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension,
            format: wgpu::TextureFormat::Rgba8Unorm,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        let texel: Vec<u8> = [0u8, 0, 0, 0xff].repeat(layers as usize);
        let copy = crate::gpu::TexelCopy {
            level: 0,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
            extent: wgpu::Extent3d {
                width: 1,
                height: 1,
                depth_or_array_layers: layers,
            },
            row_bytes: 4,
            rows: 1,
        };
        crate::gpu::write_texels(&self.gpu.queue, &texture, copy, &texel);
        texture.create_view(&wgpu::TextureViewDescriptor {
            dimension: Some(view_dimension),
            ..Default::default()
        })
    }
}

/// The vertex stage's constant buffers now (the device's `c#`/`i#`/`b#` with the shader's
/// `def`s, and the half-pixel fix-up of the viewport). The fixed-function stage's `c0`–`c7`
/// are the transforms (`transform`'s layout) instead of the application's constants.
pub(crate) fn vertex_constant_buffers(
    state: &DeviceState,
    pair: &ShaderPair,
    fixup: [f32; 4],
    extent: Extent,
) -> Result<Vec<ConstantBuffer>, DeviceError> {
    let fixed_function;
    let constants = if pair.fixed_function_vertex {
        // The generated stage's constants: hardware vertex processing's 256 registers, or
        // software's 8192 (indexed vertex blending, or a software device).
        let software = pair
            .vertex_interface
            .float_constants
            .is_some_and(|f| f.registers > HW_FLOAT_CONSTANTS);
        let processing = match software {
            true => d3d9_translator::decl::VertexProcessing::Software,
            false => d3d9_translator::decl::VertexProcessing::Hardware,
        };
        let mut c = crate::device::VertexConstants::new(processing);
        c.set_f(
            0,
            &super::super::fixed_function::vertex_constants(state, software),
        );
        fixed_function = c;
        &fixed_function
    } else {
        &state.vs_constants
    };
    let mut buffers = constants
        .buffers_of(&pair.vertex_interface, fixup, extent)
        .map_err(|e| unsupported("draw", format!("vertex shader constants: {e}")))?;
    buffers.extend(point_constant_buffer(state, &pair.vertex_interface));
    buffers.extend(clip_plane_buffer(state, pair)?);
    Ok(buffers)
}

/// The pixel stage's constant buffers now: `c#`/`i#`/`b#` with the shader's `def`s, fog
/// states, bump-environment and alpha reference uniforms, as the interface names them.
pub(crate) fn pixel_constant_buffers(
    state: &DeviceState,
    pair: &ShaderPair,
    extent: Extent,
) -> Vec<ConstantBuffer> {
    if pair.fixed_function_pixel {
        let data = super::super::fixed_function::pixel_uniform(state);
        return vec![ConstantBuffer {
            group: super::super::fixed_function::PIXEL_UNIFORM_GROUP,
            binding: super::super::fixed_function::PIXEL_UNIFORM_BINDING,
            storage: false,
            data: bytemuck::cast_slice(&data).to_vec(),
        }];
    }
    let Some(interface) = &pair.pixel_interface else {
        return Vec::new();
    };
    let render = &state.render;
    let mut out = state.ps_constants.buffers_of(interface, extent);
    if let Some(b) = interface.fog {
        let data = FogConstants {
            color: super::super::d3dcolor::rgba(render.fog_color),
            start: render.fog_start,
            end: render.fog_end,
            density: render.fog_density,
        }
        .data();
        out.push(ConstantBuffer {
            group: b.group,
            binding: b.binding,
            storage: false,
            data: bytemuck::cast_slice(&data).to_vec(),
        });
    }
    if let Some(b) = interface.bump_env {
        // D3DTSS_BUMPENVMAT*, LSCALE, LOFFSET of every stage.
        let mut data = super::super::fixed_function::bump_env_data(&state.raw.stages);
        data.resize(2 * BUMP_ENV_STAGES as usize, [0.0; 4]);
        out.push(ConstantBuffer {
            group: b.group,
            binding: b.binding,
            storage: false,
            data: bytemuck::cast_slice(&data).to_vec(),
        });
    }
    if let Some(b) = interface.alpha_ref {
        let data = alpha_ref_data(render.alpha_reference());
        out.push(ConstantBuffer {
            group: b.group,
            binding: b.binding,
            storage: false,
            data: bytemuck::cast_slice(&data).to_vec(),
        });
    }
    out
}

/// The view a sampled texture is read through.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ViewSource {
    /// A 2D texture read as a volume: a one-slice volume copy (`volume_slice`).
    VolumeSlice,
    /// Float32 bits: their float copy (`float_bits`; no sRGB twin to read).
    FloatCopy,
    /// The texture's own view (or its sRGB view).
    Own,
}

impl ViewSource {
    fn of(object: &TextureObject, t: &SampledTexture) -> ViewSource {
        if object.kind == TextureKind::TwoD && t.texture_type == TextureType::Volume {
            ViewSource::VolumeSlice
        } else if object.holds_bits() {
            ViewSource::FloatCopy
        } else {
            ViewSource::Own
        }
    }
}

pub(super) fn set_offsets(offsets: &mut [Offsets; 4], group: u32, at: Offsets) {
    if let Some(slot) = offsets.get_mut(group as usize) {
        *slot = at;
    }
}

/// Sets `group` among a draw's groups, which are one per group of its pipeline layout
/// (`PipelineEntry::empty_groups`).
pub(super) fn set_group(
    groups: &mut [Option<wgpu::BindGroup>],
    group: u32,
    bind_group: wgpu::BindGroup,
) {
    if let Some(slot) = groups.get_mut(group as usize) {
        *slot = Some(bind_group);
    }
}
