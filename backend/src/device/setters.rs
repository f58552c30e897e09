//! The state-setting calls and their getters: declaration and FVF, shaders, streams and
//! indices, shader constants, textures and sampler states, texture stages, transforms,
//! render states, viewport and scissor, render targets and the depth-stencil surface,
//! software vertex processing. Each checks its arguments as D3D9's runtime does.

use super::*;

impl Device {
    // ---- state ------------------------------------------------------------------------------

    /// `SetVertexDeclaration`.
    pub fn set_vertex_declaration(&mut self, id: Option<DeclarationId>) -> Result<(), DeviceError> {
        if let Some(id) = id {
            if !self.declarations.contains_key(&id) {
                return Err(invalid(
                    "SetVertexDeclaration",
                    format!("{id:?} is not a declaration of this device"),
                ));
            }
        }
        self.state.declaration = id;
        Ok(())
    }

    /// `SetFVF`: installs the declaration the FVF code describes.
    pub fn set_fvf(&mut self, fvf: u32) -> Result<(), DeviceError> {
        let id = self.create_vertex_declaration_fvf(fvf)?;
        self.state.declaration = Some(id);
        Ok(())
    }

    /// `SetVertexShader` (`None`: the fixed-function vertex stage).
    pub fn set_vertex_shader(&mut self, id: Option<VertexShaderId>) -> Result<(), DeviceError> {
        if let Some(id) = id {
            if !self.vertex_shaders.contains_key(&id) {
                return Err(invalid(
                    "SetVertexShader",
                    format!("{id:?} is not a vertex shader of this device"),
                ));
            }
        }
        self.state.vertex_shader = id;
        Ok(())
    }

    /// `SetPixelShader` (`None`: the fixed-function pixel stage).
    pub fn set_pixel_shader(&mut self, id: Option<PixelShaderId>) -> Result<(), DeviceError> {
        if let Some(id) = id {
            if !self.pixel_shaders.contains_key(&id) {
                return Err(invalid(
                    "SetPixelShader",
                    format!("{id:?} is not a pixel shader of this device"),
                ));
            }
        }
        self.state.pixel_shader = id;
        Ok(())
    }

    /// `SetStreamSource(stream, buffer, offset, stride)`.
    pub fn set_stream_source(
        &mut self,
        stream: usize,
        buffer: Option<VertexBufferId>,
        offset: u32,
        stride: u32,
    ) -> Result<(), DeviceError> {
        let call = "SetStreamSource";
        if let Some(id) = buffer {
            if !self.vertex_buffers.contains_key(&id) {
                return Err(invalid(
                    call,
                    format!("{id:?} is not a vertex buffer of this device"),
                ));
            }
        }
        let slot = self.state.streams.get_mut(stream).ok_or_else(|| {
            invalid(
                call,
                format!("stream {stream} (a device has {MAX_STREAMS})"),
            )
        })?;
        slot.buffer = buffer;
        slot.offset = offset;
        slot.stride = stride;
        Ok(())
    }

    /// `SetStreamSourceFreq(stream, value)`: `D3DSTREAMSOURCE_INDEXEDDATA | n` on stream 0
    /// draws `n` instances of the indexed geometry, `D3DSTREAMSOURCE_INSTANCEDATA | 1` makes
    /// a stream advance once per instance. D3D9 refuses both flags at once, INSTANCEDATA on
    /// stream 0, and a plain 0; it accepts a count of 0 with either flag (Wine's stream_test:
    /// `INDEXEDDATA | 0` and `INSTANCEDATA | 0` succeed, `0` is `D3DERR_INVALIDCALL`).
    /// `INDEXEDDATA | 0` on stream 0 draws one instance (drivers differ; Wine's test leaves it
    /// open).
    pub fn set_stream_source_freq(&mut self, stream: usize, value: u32) -> Result<(), DeviceError> {
        let call = "SetStreamSourceFreq";
        const INDEXED: u32 = 0x4000_0000;
        const INSTANCE: u32 = 0x8000_0000;
        if value & INDEXED != 0 && value & INSTANCE != 0 {
            return Err(invalid(call, "both INDEXEDDATA and INSTANCEDATA"));
        }
        if stream == 0 && value & INSTANCE != 0 {
            return Err(invalid(call, "INSTANCEDATA on stream 0"));
        }
        if value == 0 {
            return Err(invalid(call, "a frequency of 0"));
        }
        let slot = self.state.streams.get_mut(stream).ok_or_else(|| {
            invalid(
                call,
                format!("stream {stream} (a device has {MAX_STREAMS})"),
            )
        })?;
        slot.frequency = StreamFrequency::from_raw(value);
        slot.raw_frequency = value;
        Ok(())
    }

    /// `SetIndices`.
    pub fn set_indices(&mut self, id: Option<IndexBufferId>) -> Result<(), DeviceError> {
        if let Some(id) = id {
            if !self.index_buffers.contains_key(&id) {
                return Err(invalid(
                    "SetIndices",
                    format!("{id:?} is not an index buffer of this device"),
                ));
            }
        }
        self.state.indices = id;
        Ok(())
    }

    /// The vertex constant register counts (c#, i#, b#) of this device.
    fn vertex_constant_limits(&self) -> (usize, usize, usize) {
        match self.params.processing {
            VertexProcessing::Hardware => (
                (self
                    .params
                    .caps
                    .max_vertex_shader_const
                    .min(HW_FLOAT_CONSTANTS)) as usize,
                INT_CONSTANTS as usize,
                BOOL_CONSTANTS as usize,
            ),
            VertexProcessing::Software | VertexProcessing::Mixed => (
                SW_FLOAT_CONSTANTS as usize,
                SW_INT_CONSTANTS as usize,
                SW_BOOL_CONSTANTS as usize,
            ),
        }
    }

    /// `SetVertexShaderConstantF(start, values, values.len())`; past the device's range
    /// (256 under hardware vertex processing, 8192 under software) is `D3DERR_INVALIDCALL`.
    pub fn set_vertex_shader_constant_f(
        &mut self,
        start: usize,
        values: &[[f32; 4]],
    ) -> Result<(), DeviceError> {
        let (limit, _, _) = self.vertex_constant_limits();
        range_check("SetVertexShaderConstantF", start, values.len(), limit)?;
        // Readers key on the constants' own version (see `Versioned::untracked_mut`).
        let state = self.state.untracked_mut();
        state.vs_constants.set_f(start, values);
        state.vs_constants_version += 1;
        Ok(())
    }

    /// `SetVertexShaderConstantI`.
    pub fn set_vertex_shader_constant_i(
        &mut self,
        start: usize,
        values: &[[i32; 4]],
    ) -> Result<(), DeviceError> {
        let (_, limit, _) = self.vertex_constant_limits();
        range_check("SetVertexShaderConstantI", start, values.len(), limit)?;
        self.state.vs_constants.set_i(start, values);
        self.state.vs_constants_version += 1;
        Ok(())
    }

    /// `SetVertexShaderConstantB`.
    pub fn set_vertex_shader_constant_b(
        &mut self,
        start: usize,
        values: &[bool],
    ) -> Result<(), DeviceError> {
        let (_, _, limit) = self.vertex_constant_limits();
        range_check("SetVertexShaderConstantB", start, values.len(), limit)?;
        self.state.vs_constants.set_b(start, values);
        self.state.vs_constants_version += 1;
        Ok(())
    }

    /// `SetPixelShaderConstantF` (224 registers, ps_3_0's count).
    pub fn set_pixel_shader_constant_f(
        &mut self,
        start: usize,
        values: &[[f32; 4]],
    ) -> Result<(), DeviceError> {
        let limit = PS3_FLOAT_CONSTANTS as usize;
        range_check("SetPixelShaderConstantF", start, values.len(), limit)?;
        // Readers key on the constants' own version (see `Versioned::untracked_mut`).
        let state = self.state.untracked_mut();
        state.ps_constants.set_f(start, values);
        state.ps_constants_version += 1;
        Ok(())
    }

    /// `SetPixelShaderConstantI` (16 registers).
    pub fn set_pixel_shader_constant_i(
        &mut self,
        start: usize,
        values: &[[i32; 4]],
    ) -> Result<(), DeviceError> {
        range_check(
            "SetPixelShaderConstantI",
            start,
            values.len(),
            INT_CONSTANTS as usize,
        )?;
        self.state.ps_constants.set_i(start, values);
        self.state.ps_constants_version += 1;
        Ok(())
    }

    /// `SetPixelShaderConstantB` (16 registers).
    pub fn set_pixel_shader_constant_b(
        &mut self,
        start: usize,
        values: &[bool],
    ) -> Result<(), DeviceError> {
        range_check(
            "SetPixelShaderConstantB",
            start,
            values.len(),
            BOOL_CONSTANTS as usize,
        )?;
        self.state.ps_constants.set_b(start, values);
        self.state.ps_constants_version += 1;
        Ok(())
    }

    /// The sampler stage slot of a D3D9 sampler number: 0–15, or
    /// `D3DVERTEXTEXTURESAMPLER0..3` (257–260).
    pub(crate) fn sampler_slot(call: &'static str, sampler: u32) -> Result<usize, DeviceError> {
        match sampler {
            0..=15 => Ok(sampler as usize),
            257..=260 => Ok(VERTEX_SAMPLER_BASE + (sampler - D3DVERTEXTEXTURESAMPLER0) as usize),
            _ => Err(invalid(call, format!("sampler {sampler}"))),
        }
    }

    /// `SetTexture(sampler, texture)`: samplers 0–15, and `D3DVERTEXTEXTURESAMPLER0..3`
    /// (257–260) for vertex texture fetch.
    pub fn set_texture(
        &mut self,
        sampler: u32,
        texture: Option<TextureId>,
    ) -> Result<(), DeviceError> {
        let call = "SetTexture";
        let slot = Device::sampler_slot(call, sampler)?;
        if let Some(id) = texture {
            if !self.textures.contains_key(&id) {
                return Err(invalid(
                    call,
                    format!("{id:?} is not a texture of this device"),
                ));
            }
        }
        // Readers key on the textures' own version too (see `Device::states_version`).
        let state = self.state.untracked_mut();
        state.textures[slot] = texture;
        state.textures_version += 1;
        Ok(())
    }

    /// `SetSamplerState(sampler, type, value)`.
    pub fn set_sampler_state(
        &mut self,
        sampler: u32,
        state: SamplerState,
    ) -> Result<(), DeviceError> {
        let slot = Device::sampler_slot("SetSamplerState", sampler)?;
        self.state.samplers[slot].set(state);
        Ok(())
    }

    /// `SetTextureStageState(stage, D3DTSS_COLOROP / COLORARG1 / COLORARG2, ..)`, typed:
    /// the colour operation and its two arguments of stage 0–7 (the raw states
    /// [`Device::set_texture_stage_state_raw`] sets, without modifiers).
    pub fn set_texture_stage(
        &mut self,
        stage: usize,
        state: TextureStage,
    ) -> Result<(), DeviceError> {
        let stage = u32::try_from(stage).unwrap_or(u32::MAX);
        for (ty, value) in [
            (raw_state::D3DTSS_COLOROP, state.op.to_d3d()),
            (2, state.arg1.to_d3d()),
            (3, state.arg2.to_d3d()),
        ] {
            self.set_texture_stage_state_raw(stage, ty, value)?;
        }
        Ok(())
    }

    /// `SetTransform(state, matrix)`: `matrix[row][column]` as `D3DMATRIX` holds it (row
    /// vectors, `v' = v · M`). The fixed-function vertex stage reads `D3DTS_WORLD`,
    /// `D3DTS_VIEW` and `D3DTS_PROJECTION`; the other matrices are stored for
    /// [`Device::get_transform`] only (see `transform`). `D3DTS_TEXTURE8` and up are
    /// `D3DERR_INVALIDCALL`.
    pub fn set_transform(
        &mut self,
        state: TransformState,
        matrix: Matrix,
    ) -> Result<(), DeviceError> {
        if self.state.transforms.set(state, matrix) {
            Ok(())
        } else {
            Err(invalid("SetTransform", format!("{state:?}")))
        }
    }

    /// `GetTransform(state)`: the matrix last set (identity by default).
    pub fn get_transform(&self, state: TransformState) -> Result<Matrix, DeviceError> {
        self.state
            .transforms
            .get(state)
            .ok_or_else(|| invalid("GetTransform", format!("{state:?}")))
    }

    /// `SetTransform` with D3D9's `D3DTRANSFORMSTATETYPE` number (2, 3, 16–23, 256–511);
    /// any other number is `D3DERR_INVALIDCALL`.
    pub fn set_transform_raw(&mut self, state: u32, matrix: Matrix) -> Result<(), DeviceError> {
        let state = TransformState::from_d3d(state)
            .ok_or_else(|| invalid("SetTransform", format!("D3DTRANSFORMSTATETYPE {state}")))?;
        self.set_transform(state, matrix)
    }

    /// `GetTransform` with D3D9's number, as [`Device::set_transform_raw`] takes it.
    pub fn get_transform_raw(&self, state: u32) -> Result<Matrix, DeviceError> {
        let state = TransformState::from_d3d(state)
            .ok_or_else(|| invalid("GetTransform", format!("D3DTRANSFORMSTATETYPE {state}")))?;
        self.get_transform(state)
    }

    /// `SetRenderState`.
    pub fn set_render_state(&mut self, state: RenderState) -> Result<(), DeviceError> {
        if let RenderState::ColorWriteEnable(target, _) = state {
            if target >= MAX_RENDER_TARGETS {
                return Err(invalid(
                    "SetRenderState",
                    format!("D3DRS_COLORWRITEENABLE of render target {target}"),
                ));
            }
        }
        self.state.render.set(state);
        Ok(())
    }

    /// The render states now.
    pub fn render_states(&self) -> &RenderStates {
        &self.state.render
    }

    /// `SetViewport`: any viewport of a non-zero size (Windows takes one past render target
    /// 0 and depth ranges past 0..1; draws clip to the target and clamp depth).
    pub fn set_viewport(&mut self, viewport: Viewport) -> Result<(), DeviceError> {
        let call = "SetViewport";
        // Windows takes a viewport reaching past render target 0 (Wine's test_viewport); the
        // draws clip to both.
        if viewport.width == 0 || viewport.height == 0 {
            return Err(invalid(call, format!("{viewport:?}")));
        }
        // D3D9 keeps a depth range past 0..1 (Wine's depth_clamp_test sets MaxZ 7.5 and
        // expects D3D_OK on Windows): draws clamp it to 0..1 where WebGPU needs.
        if !viewport.min_z.is_finite() || !viewport.max_z.is_finite() {
            return Err(invalid(
                call,
                format!("MinZ {} / MaxZ {}", viewport.min_z, viewport.max_z),
            ));
        }
        self.state.viewport = viewport;
        Ok(())
    }

    /// `SetSoftwareVertexProcessing(software)`: a mixed device switches between hardware and
    /// software vertex processing (streams, declaration and shaders stay set); under
    /// software processing every input the vertex shader declares must be in the declaration
    /// at draw time. A hardware or software device cannot switch: `D3DERR_INVALIDCALL`.
    pub fn set_software_vertex_processing(&mut self, software: bool) -> Result<(), DeviceError> {
        if self.params.processing != VertexProcessing::Mixed {
            return Err(invalid(
                "SetSoftwareVertexProcessing",
                "the device was not created with D3DCREATE_MIXED_VERTEXPROCESSING",
            ));
        }
        self.state.software_processing = software;
        Ok(())
    }

    /// Whether vertices are processed in software now.
    pub fn software_vertex_processing(&self) -> bool {
        self.state.software_processing
    }

    /// The processing a draw's declaration is paired under.
    pub(crate) fn binding_processing(&self) -> VertexProcessing {
        if self.state.software_processing {
            VertexProcessing::Software
        } else {
            VertexProcessing::Hardware
        }
    }

    /// The viewport now.
    pub fn viewport(&self) -> Viewport {
        self.state.viewport
    }

    /// `GetScissorRect`.
    pub fn scissor_rect(&self) -> Rect {
        self.state.scissor
    }

    /// `GetStreamSourceFreq(stream)` as D3D9 numbers it (1 by default).
    pub fn stream_source_freq(&self, stream: usize) -> Option<u32> {
        self.state
            .streams
            .get(stream)
            .map(|s| s.raw_frequency.max(1))
    }

    /// `GetVertexShaderConstantF/I/B`: the constants now.
    pub fn vertex_shader_constants(&self) -> &VertexConstants {
        &self.state.vs_constants
    }

    /// `GetPixelShaderConstantF/I/B`: the constants now.
    pub fn pixel_shader_constants(&self) -> &PixelConstants {
        &self.state.ps_constants
    }

    /// `SetScissorRect`.
    pub fn set_scissor_rect(&mut self, rect: Rect) -> Result<(), DeviceError> {
        if rect.left > rect.right || rect.top > rect.bottom {
            return Err(invalid("SetScissorRect", format!("{rect:?}")));
        }
        self.state.scissor = rect;
        Ok(())
    }

    /// `SetRenderTarget(index, surface)`. Render target 0 cannot be unset; setting it resets
    /// the viewport and the scissor rectangle to the whole surface, as D3D9 does. Every
    /// render target must have render target 0's size.
    pub fn set_render_target(
        &mut self,
        index: usize,
        surface: Option<SurfaceId>,
    ) -> Result<(), DeviceError> {
        let call = "SetRenderTarget";
        if index >= MAX_RENDER_TARGETS {
            return Err(invalid(
                call,
                format!("render target {index} (the device has {MAX_RENDER_TARGETS})"),
            ));
        }
        if index == 0 && surface.is_none() {
            return Err(invalid(call, "render target 0 cannot be NULL"));
        }
        if let Some(id) = surface {
            self.refuse_gl_cube_face(call, id)?;
            let s = self
                .surfaces
                .get(&id)
                .ok_or_else(|| invalid(call, format!("{id:?} is not a surface of this device")))?;
            if s.format.is_depth() {
                return Err(invalid(call, format!("{id:?} is a depth-stencil surface")));
            }
            if index == 0 {
                let (width, height) = (s.width, s.height);
                self.state.viewport = Viewport {
                    x: 0,
                    y: 0,
                    width,
                    height,
                    min_z: 0.0,
                    max_z: 1.0,
                };
                self.state.scissor = Rect {
                    left: 0,
                    top: 0,
                    right: width as i32,
                    bottom: height as i32,
                };
            }
        }
        self.state.render_targets[index] = surface;
        Ok(())
    }

    /// `GetDepthStencilSurface`.
    pub fn depth_stencil_surface(&self) -> Option<SurfaceId> {
        self.state.depth_stencil
    }

    /// `SetDepthStencilSurface`.
    pub fn set_depth_stencil_surface(
        &mut self,
        surface: Option<SurfaceId>,
    ) -> Result<(), DeviceError> {
        let call = "SetDepthStencilSurface";
        if let Some(id) = surface {
            let s = self
                .surfaces
                .get(&id)
                .ok_or_else(|| invalid(call, format!("{id:?} is not a surface of this device")))?;
            if !s.format.is_depth() {
                return Err(invalid(
                    call,
                    format!("{id:?} is not a depth-stencil surface"),
                ));
            }
        }
        self.state.depth_stencil = surface;
        Ok(())
    }
}
