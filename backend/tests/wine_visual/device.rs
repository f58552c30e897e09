//! The replays' view of [`d3d9_backend::device::Device`]: the calls Wine's visual tests make,
//! each forwarded to the device, with the device's errors on state calls and draws recorded
//! as `failures` (a replay goes on after a failed call, as Wine's tests do after a failed
//! `ok()`), and `getPixelColor` / `check_rt_color` as Wine's checks call them. Everything is
//! drawn by the device; nothing here translates, links or builds pipelines.
//!
//! What the device is created with ([`DeviceParams`]'s defaults, which are Wine's
//! `create_device`): hardware vertex processing (a shader input without an element reads
//! (0, 0, 0, 0)), a 640x480 X8R8G8B8 back buffer, `MaxPixelShaderValue` FLT_MAX (ps_1_x
//! unclamped, as Wine's d3d9 reports and test_color_clamping expects of Windows drivers).
//! Reads of render target 0 are masked to 0x00RRGGBB (Wine's `getPixelColor` masks the X
//! channel). Render targets and render-target textures the replays create are A8R8G8B8.
//!
//! `CreateVertexShader` / `CreatePixelShader` failures fail every draw made while the shader
//! would be set (the old D3D9 call sequence goes on with a NULL handle, which Wine's tests
//! never draw with on purpose). Shaders are created once per distinct bytecode, so that
//! setting the same tokens again reuses the device's cached pairing, as an application that
//! keeps its shader objects does.

use std::collections::HashMap;

use d3d9_backend::device::{
    ClearFlags, Device as D3dDevice, DeviceParams, PixelShaderId, RenderState, SamplerState,
    ShadeMode, VertexShaderId,
};
pub use d3d9_backend::device::{
    FogMode, Format, PrimitiveType as Primitive, StageArg, StageOp, SurfaceId, TextureId,
    TextureStage,
};
use d3d9_backend::{CullMode, TextureFilter, TextureKind};
use d3d9_translator::decl::VertexDeclaration;
use d3d9_translator::lift::FloatMode;

/// Back buffer size of Wine's visual tests.
pub const WIDTH: u32 = 640;
pub const HEIGHT: u32 = 480;

/// The fog render states.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FogState {
    /// `D3DRS_FOGENABLE`.
    pub enable: bool,
    /// `D3DRS_FOGCOLOR`.
    pub colour: u32,
    /// `D3DRS_FOGTABLEMODE`.
    pub table: FogMode,
    /// `D3DRS_FOGVERTEXMODE`.
    pub vertex: FogMode,
    /// `D3DRS_FOGSTART`, `D3DRS_FOGEND`, `D3DRS_FOGDENSITY`.
    pub start: f32,
    pub end: f32,
    pub density: f32,
}

impl Default for FogState {
    /// D3D9's defaults: off, black, both modes NONE, start 0, end 1, density 1.
    fn default() -> Self {
        FogState {
            enable: false,
            colour: 0,
            table: FogMode::None,
            vertex: FogMode::None,
            start: 0.0,
            end: 1.0,
            density: 1.0,
        }
    }
}

/// The outcome of one check.
#[derive(Debug, Clone)]
pub struct CheckResult {
    pub label: String,
    pub passed: bool,
    pub detail: String,
}

/// A shader as set: created on the device, or the reason `Create*Shader` refused it.
type SetShader<T> = Option<Result<T, String>>;

/// The replayed device.
pub struct Device {
    /// The D3D9-style device everything is drawn on.
    pub d3d: D3dDevice,
    vertex_shaders: HashMap<Vec<u32>, Result<VertexShaderId, String>>,
    pixel_shaders: HashMap<Vec<u32>, Result<PixelShaderId, String>>,
    vertex_shader: SetShader<VertexShaderId>,
    pixel_shader: SetShader<PixelShaderId>,
    pub checks: Vec<CheckResult>,
    /// Calls and draws that failed, with the reason.
    pub failures: Vec<String>,
}

impl Device {
    /// A device on the default adapter with the replays' parameters and `float_mode`; no
    /// adapter is an error (GPU tests never skip).
    pub fn new(float_mode: FloatMode) -> Result<Device, String> {
        let d3d = D3dDevice::new(DeviceParams {
            float_mode,
            ..DeviceParams::default()
        })
        .map_err(|e| e.to_string())?;
        Ok(Device {
            d3d,
            vertex_shaders: HashMap::new(),
            pixel_shaders: HashMap::new(),
            vertex_shader: None,
            pixel_shader: None,
            checks: Vec::new(),
            failures: Vec::new(),
        })
    }

    /// Records a failed call as a failure; the value of a call that succeeded.
    pub fn note<T>(
        &mut self,
        what: &str,
        result: Result<T, d3d9_backend::DeviceError>,
    ) -> Option<T> {
        match result {
            Ok(v) => Some(v),
            Err(e) => {
                self.failures.push(format!("{what}: {e}"));
                None
            }
        }
    }

    /// The implicit swap chain's back buffer.
    pub fn back_buffer(&self) -> SurfaceId {
        self.d3d.back_buffer()
    }

    /// `SetFVF`.
    pub fn set_fvf(&mut self, fvf: u32) -> Result<(), String> {
        self.d3d.set_fvf(fvf).map_err(|e| e.to_string())
    }

    /// `CreateVertexDeclaration` + `SetVertexDeclaration`.
    pub fn set_vertex_declaration(&mut self, decl: &VertexDeclaration) {
        let id = self.d3d.create_vertex_declaration(decl.elements());
        if let Some(id) = self.note("CreateVertexDeclaration", id) {
            let r = self.d3d.set_vertex_declaration(Some(id));
            self.note("SetVertexDeclaration", r);
        }
    }

    /// `CreateVertexShader` + `SetVertexShader`; a shader the device refuses fails the draws
    /// made with it.
    pub fn set_vertex_shader(&mut self, tokens: &[u32]) {
        let created = match self.vertex_shaders.get(tokens) {
            Some(c) => c.clone(),
            None => {
                let c = self
                    .d3d
                    .create_vertex_shader(tokens)
                    .map_err(|e| e.to_string());
                self.vertex_shaders.insert(tokens.to_vec(), c.clone());
                c
            }
        };
        if let Ok(id) = &created {
            let r = self.d3d.set_vertex_shader(Some(*id));
            self.note("SetVertexShader", r);
        }
        self.vertex_shader = Some(created);
    }

    /// `SetVertexShader(NULL)`: the fixed-function vertex stage.
    pub fn set_no_vertex_shader(&mut self) {
        let r = self.d3d.set_vertex_shader(None);
        self.note("SetVertexShader(NULL)", r);
        self.vertex_shader = None;
    }

    /// `CreatePixelShader` + `SetPixelShader(shader)`, `None` for `SetPixelShader(NULL)`.
    pub fn set_pixel_shader(&mut self, tokens: Option<&[u32]>) {
        let Some(tokens) = tokens else {
            let r = self.d3d.set_pixel_shader(None);
            self.note("SetPixelShader(NULL)", r);
            self.pixel_shader = None;
            return;
        };
        let created = match self.pixel_shaders.get(tokens) {
            Some(c) => c.clone(),
            None => {
                let c = self
                    .d3d
                    .create_pixel_shader(tokens)
                    .map_err(|e| e.to_string());
                self.pixel_shaders.insert(tokens.to_vec(), c.clone());
                c
            }
        };
        if let Ok(id) = &created {
            let r = self.d3d.set_pixel_shader(Some(*id));
            self.note("SetPixelShader", r);
        }
        self.pixel_shader = Some(created);
    }

    /// `SetVertexShaderConstantF(start, values, count)`.
    pub fn set_vs_const_f(&mut self, start: usize, values: &[[f32; 4]]) {
        let r = self.d3d.set_vertex_shader_constant_f(start, values);
        self.note("SetVertexShaderConstantF", r);
    }

    /// `SetVertexShaderConstantI(start, values, count)`.
    pub fn set_vs_const_i(&mut self, start: usize, values: &[[i32; 4]]) {
        let r = self.d3d.set_vertex_shader_constant_i(start, values);
        self.note("SetVertexShaderConstantI", r);
    }

    /// `SetPixelShaderConstantF(start, values, count)`.
    pub fn set_ps_const_f(&mut self, start: usize, values: &[[f32; 4]]) {
        let r = self.d3d.set_pixel_shader_constant_f(start, values);
        self.note("SetPixelShaderConstantF", r);
    }

    /// `SetRenderState(state, value)`.
    pub fn set_render_state(&mut self, state: RenderState) {
        let r = self.d3d.set_render_state(state);
        self.note("SetRenderState", r);
    }

    /// `SetRenderState(D3DRS_CULLMODE, mode)`.
    pub fn set_cull(&mut self, cull: CullMode) {
        self.set_render_state(RenderState::CullMode(cull));
    }

    /// `SetRenderState(D3DRS_LIGHTING, on)`.
    pub fn set_lighting(&mut self, on: bool) {
        self.set_render_state(RenderState::Lighting(on));
    }

    /// `SetRenderState(D3DRS_SHADEMODE, flat ? D3DSHADE_FLAT : D3DSHADE_GOURAUD)`.
    pub fn set_flat_shading(&mut self, flat: bool) {
        self.set_render_state(RenderState::ShadeMode(if flat {
            ShadeMode::Flat
        } else {
            ShadeMode::Gouraud
        }));
    }

    /// `SetTextureStageState(stage, D3DTSS_COLOROP / COLORARG1 / COLORARG2, ...)`.
    pub fn set_texture_stage(&mut self, stage: usize, state: TextureStage) {
        let r = self.d3d.set_texture_stage(stage, state);
        self.note("SetTextureStageState", r);
    }

    /// `SetRenderState(D3DRS_FOG*, ...)`.
    pub fn set_fog(&mut self, fog: FogState) {
        for state in [
            RenderState::FogEnable(fog.enable),
            RenderState::FogColor(fog.colour),
            RenderState::FogTableMode(fog.table),
            RenderState::FogVertexMode(fog.vertex),
            RenderState::FogStart(fog.start),
            RenderState::FogEnd(fog.end),
            RenderState::FogDensity(fog.density),
        ] {
            self.set_render_state(state);
        }
    }

    /// `SetRenderState(D3DRS_TEXTUREFACTOR, colour)`.
    pub fn set_texture_factor(&mut self, colour: u32) {
        self.set_render_state(RenderState::TextureFactor(colour));
    }

    /// `SetSamplerState(stage, D3DSAMP_MAGFILTER / MINFILTER, filter)`.
    pub fn set_filter(&mut self, stage: u32, mag: TextureFilter, min: TextureFilter) {
        for state in [SamplerState::MagFilter(mag), SamplerState::MinFilter(min)] {
            let r = self.d3d.set_sampler_state(stage, state);
            self.note("SetSamplerState", r);
        }
    }

    /// `CreateRenderTarget(width, height, D3DFMT_A8R8G8B8, ...)`.
    pub fn create_render_target(&mut self, width: u32, height: u32) -> Result<SurfaceId, String> {
        self.d3d
            .create_render_target(width, height, Format::A8R8G8B8)
            .map_err(|e| e.to_string())
    }

    /// `CreateTexture(..., D3DUSAGE_RENDERTARGET, D3DFMT_A8R8G8B8, ...)` and its
    /// `GetSurfaceLevel(0)`.
    pub fn create_render_target_texture(
        &mut self,
        width: u32,
        height: u32,
    ) -> Result<(TextureId, SurfaceId), String> {
        let texture = self
            .d3d
            .create_render_target_texture(width, height, Format::A8R8G8B8)
            .map_err(|e| e.to_string())?;
        let surface = self
            .d3d
            .get_surface_level(texture, 0)
            .map_err(|e| e.to_string())?;
        Ok((texture, surface))
    }

    /// `CreateTexture` / `CreateVolumeTexture` / `CreateCubeTexture` of one level, filled
    /// with `LockRect`/`LockBox`: `data` holds the texels as D3D9 lays them out in memory.
    pub fn create_texture(
        &mut self,
        kind: TextureKind,
        format: Format,
        [width, height, depth]: [u32; 3],
        data: &[u8],
    ) -> Result<TextureId, String> {
        let texture = match kind {
            TextureKind::TwoD => self.d3d.create_texture(width, height, 1, format),
            TextureKind::Cube => self.d3d.create_cube_texture(width, 1, format),
            TextureKind::Volume => self
                .d3d
                .create_volume_texture(width, height, depth, 1, format),
        }
        .map_err(|e| e.to_string())?;
        self.d3d
            .update_texture(texture, 0, data)
            .map_err(|e| e.to_string())?;
        Ok(texture)
    }

    /// `SetTexture(sampler, texture)` (0–15, or `D3DVERTEXTEXTURESAMPLER0` = 257 …).
    pub fn set_texture(&mut self, sampler: u32, texture: Option<TextureId>) {
        let r = self.d3d.set_texture(sampler, texture);
        self.note("SetTexture", r);
    }

    /// `SetRenderTarget(index, surface)`.
    pub fn set_render_target(&mut self, index: usize, surface: Option<SurfaceId>) {
        let r = self.d3d.set_render_target(index, surface);
        self.note("SetRenderTarget", r);
    }

    /// `SetRenderTarget(0, back buffer)`.
    pub fn set_back_buffer(&mut self) {
        let back = self.back_buffer();
        self.set_render_target(0, Some(back));
    }

    /// `Clear(0, NULL, D3DCLEAR_TARGET, colour, 0.0, 0)`: every bound render target.
    pub fn clear(&mut self, colour: u32) {
        let r = self.d3d.clear(&[], ClearFlags::TARGET, colour, 0.0, 0);
        self.note("Clear", r);
    }

    /// Why a draw cannot be made with the shaders as set: a shader the device refused.
    fn shader_error(&self) -> Option<String> {
        let vs = match &self.vertex_shader {
            Some(Err(e)) => Some(e.clone()),
            _ => None,
        };
        let ps = match &self.pixel_shader {
            Some(Err(e)) => Some(e.clone()),
            _ => None,
        };
        vs.or(ps)
    }

    /// `DrawPrimitiveUP(primitive, count, data, stride)`.
    pub fn draw_up(
        &mut self,
        label: &str,
        primitive: Primitive,
        count: u32,
        data: &[u8],
        stride: u32,
    ) {
        if let Some(e) = self.shader_error() {
            self.failures.push(format!("{label}: {e}"));
            return;
        }
        let r = self.d3d.draw_primitive_up(primitive, count, data, stride);
        self.note(label, r);
    }

    /// `CreateVertexBuffer` + `Lock` + copy + `Unlock` of `buffer`, `SetStreamSource(0, vb,
    /// 0, stride)` + `DrawPrimitive(primitive, start, count)`.
    pub fn draw(
        &mut self,
        label: &str,
        primitive: Primitive,
        buffer: &[u8],
        stride: u32,
        start: u32,
        count: u32,
    ) {
        if let Some(e) = self.shader_error() {
            self.failures.push(format!("{label}: {e}"));
            return;
        }
        let vb = self.d3d.create_vertex_buffer_with(buffer);
        let Some(vb) = self.note(label, vb) else {
            return;
        };
        let r = self.d3d.set_stream_source(0, Some(vb), 0, stride);
        if self.note(label, r).is_none() {
            return;
        }
        let r = self.d3d.draw_primitive(primitive, start, count);
        self.note(label, r);
    }

    /// The A8R8G8B8 value of pixel (x, y) of `surface` (`GetRenderTargetData` + `LockRect`).
    pub fn surface_pixel(&mut self, surface: SurfaceId, x: u32, y: u32) -> Result<u32, String> {
        let data = self
            .d3d
            .get_render_target_data(surface)
            .map_err(|e| e.to_string())?;
        data.color(x, y)
            .ok_or_else(|| format!("pixel ({x}, {y}) outside the surface"))
    }

    /// `getPixelColor(x, y)`: 0x00RRGGBB of render target 0.
    pub fn pixel(&mut self, x: u32, y: u32) -> Result<u32, String> {
        self.d3d
            .pixel(x, y)
            .map(|c| c & 0x00ff_ffff)
            .map_err(|e| e.to_string())
    }

    /// Records Wine's `ok(hr == S_OK)` (`expect_ok`) or `ok(hr == D3DERR_INVALIDCALL)` of a
    /// call.
    pub fn check_call<T>(
        &mut self,
        label: &str,
        result: Result<T, d3d9_backend::DeviceError>,
        expect_ok: bool,
    ) {
        let (passed, detail) = match (result, expect_ok) {
            (Ok(_), true) => (true, "S_OK".to_string()),
            (Ok(_), false) => (false, "S_OK, expected D3DERR_INVALIDCALL".to_string()),
            (Err(e), false) => (e.is_invalid_call(), e.to_string()),
            (Err(e), true) => (false, format!("{e}, expected S_OK")),
        };
        self.checks.push(CheckResult {
            label: label.to_string(),
            passed,
            detail,
        });
    }

    /// Records a check of a value that is not a colour (`ok(value == expected)`).
    pub fn check_eq<T: PartialEq + std::fmt::Debug>(&mut self, label: &str, value: T, expected: T) {
        self.checks.push(CheckResult {
            label: label.to_string(),
            passed: value == expected,
            detail: format!("{value:?}, expected {expected:?}"),
        });
    }

    /// Records a check of `colour` (a read that may have failed) against `accepted`, all
    /// within `tolerance`.
    pub fn check_value(
        &mut self,
        label: &str,
        at: (u32, u32),
        colour: Result<u32, String>,
        accepted: &[u32],
        tolerance: u8,
    ) {
        let accepted: Vec<(u32, u8)> = accepted.iter().map(|&c| (c, tolerance)).collect();
        self.check_any(label, at, colour, &accepted);
    }

    /// Records a check of `colour` against alternatives `(colour, tolerance)`, as
    /// `ok(color_match(c, a, ta) || color == b)` does.
    pub fn check_any(
        &mut self,
        label: &str,
        (x, y): (u32, u32),
        colour: Result<u32, String>,
        accepted: &[(u32, u8)],
    ) {
        let (passed, detail) = match colour {
            Ok(colour) => {
                let passed = accepted.iter().any(|&(c, d)| color_match(colour, c, d));
                let want: Vec<String> = accepted
                    .iter()
                    .map(|(c, d)| format!("0x{c:08x} ±{d}"))
                    .collect();
                (
                    passed,
                    format!(
                        "({x}, {y}) is 0x{colour:08x}, expected {}",
                        want.join(" or ")
                    ),
                )
            }
            Err(e) => (false, format!("({x}, {y}) not rendered: {e}")),
        };
        self.checks.push(CheckResult {
            label: label.to_string(),
            passed,
            detail,
        });
    }

    /// `ok(color_match(getPixelColor(x, y), c, tolerance) || ...)` for any of `accepted`
    /// (alternatives Wine accepts on every driver; `broken()` ones are not passed in).
    pub fn check(&mut self, label: &str, x: u32, y: u32, accepted: &[u32], tolerance: u8) {
        let colour = self.pixel(x, y);
        self.check_value(label, (x, y), colour, accepted, tolerance);
    }

    /// A check of pixel (x, y) of `surface` masked with `mask` (Wine's
    /// `getPixelColorFromSurface` & mask).
    pub fn check_surface(
        &mut self,
        label: &str,
        surface: SurfaceId,
        (x, y): (u32, u32),
        mask: u32,
        accepted: &[u32],
        tolerance: u8,
    ) {
        let colour = self.surface_pixel(surface, x, y).map(|c| c & mask);
        self.check_value(label, (x, y), colour, accepted, tolerance);
    }

    /// `check_rt_color(backbuffer, colour)`: every pixel exactly `colour` (X channel masked).
    pub fn check_whole_target(&mut self, label: &str, expected: u32) {
        let back = self.back_buffer();
        let (passed, detail) = match self.d3d.get_render_target_data(back) {
            Ok(data) => {
                let mut first_bad = None;
                'rows: for y in 0..data.height {
                    for x in 0..data.width {
                        let colour = data.color(x, y).map(|c| c & 0x00ff_ffff);
                        if colour != Some(expected) {
                            first_bad = Some((x, y, colour));
                            break 'rows;
                        }
                    }
                }
                match first_bad {
                    None => (true, format!("every pixel is 0x{expected:08x}")),
                    Some((x, y, c)) => (
                        false,
                        format!(
                            "pixel ({x}, {y}) is {c:08x?}, expected every pixel 0x{expected:08x}"
                        ),
                    ),
                }
            }
            Err(e) => (false, format!("not rendered: {e}")),
        };
        self.checks.push(CheckResult {
            label: label.to_string(),
            passed,
            detail,
        });
    }
}

/// Wine's `color_match`: every 8-bit channel within `d`.
pub fn color_match(c1: u32, c2: u32, d: u8) -> bool {
    (0..4).all(|i| {
        let a = (c1 >> (8 * i)) & 0xff;
        let b = (c2 >> (8 * i)) & 0xff;
        a.abs_diff(b) <= u32::from(d)
    })
}

#[cfg(test)]
#[allow(clippy::panic)] // a failing test says why
mod tests {
    use super::*;
    use d3d9_translator::asm::assemble_tokens;

    /// D3D9 samples pixel (x, y) at integer coordinates: a quad whose left edge is at
    /// x = 10.25 and top edge at y = 20.25 covers column 11 and row 21 but not column 10 or
    /// row 20 (WebGPU's own centres, at +0.5, would cover both).
    #[test]
    fn gpu_pixel_centres_are_d3d9s() {
        let mut dev = Device::new(FloatMode::Legacy)
            .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
        let vs = assemble_tokens("vs_1_1\ndcl_position v0\nmov oPos, v0\nmov oD0, c0\n")
            .unwrap_or_else(|e| panic!("{e}"));
        let left = 10.25 / (WIDTH as f32 / 2.0) - 1.0;
        let top = 1.0 - 20.25 / (HEIGHT as f32 / 2.0);
        let quad: Vec<u8> = [
            left, -1.0, 0.5, left, top, 0.5, 1.0, -1.0, 0.5, 1.0, top, 0.5,
        ]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
        dev.set_fvf(0x002).unwrap_or_else(|e| panic!("{e}"));
        dev.set_vertex_shader(&vs);
        dev.set_vs_const_f(0, &[[1.0; 4]]);
        dev.clear(0);
        dev.draw_up("quad", Primitive::TriangleStrip, 2, &quad, 12);
        assert_eq!(dev.failures, Vec::<String>::new());
        assert_eq!(dev.pixel(10, 100), Ok(0), "column 10");
        assert_eq!(dev.pixel(11, 100), Ok(0x00ff_ffff), "column 11");
        assert_eq!(dev.pixel(100, 20), Ok(0), "row 20");
        assert_eq!(dev.pixel(100, 21), Ok(0x00ff_ffff), "row 21");
    }

    /// A shader the device refuses fails the draws made with it, and only those.
    #[test]
    fn gpu_a_refused_shader_fails_its_draws() {
        let mut dev = Device::new(FloatMode::Legacy)
            .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
        dev.set_fvf(0x002).unwrap_or_else(|e| panic!("{e}"));
        dev.set_vertex_shader(&[0xfffe_0101, 0x1234_5678]);
        let tri: Vec<u8> = [-1.0f32, -1.0, 0.5, -1.0, 1.0, 0.5, 1.0, -1.0, 0.5]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        dev.draw_up("bad", Primitive::TriangleList, 1, &tri, 12);
        assert_eq!(dev.failures.len(), 1, "{:?}", dev.failures);
        dev.set_no_vertex_shader();
        dev.draw_up("fixed-function", Primitive::TriangleList, 1, &tri, 12);
        assert_eq!(dev.failures.len(), 1, "{:?}", dev.failures);
    }

    #[test]
    fn color_match_is_per_channel() {
        assert!(color_match(0x0000_ff00, 0x0001_fe00, 1));
        assert!(!color_match(0x0000_ff00, 0x0002_ff00, 1));
        assert!(color_match(0x00bf_bf80, 0x00bf_bf80, 0));
    }
}
