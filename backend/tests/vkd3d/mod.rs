//! The vkd3d SM2/SM3 conformance runner (`../shared/corpus/vkd3d/vkd3d_sm23.json`), shared by
//! the `vkd3d_conformance` test and the `vkd3d-conformance` example.
//!
//! It replays every runnable test block of a pass through [`Device`] as vkd3d's d3d9 runner
//! (`tests/shader_runner_d3d9.c`) drives a D3D9 device: per draw, the snapshot's uniforms go
//! to `SetVertexShaderConstantF(0, ..)` and `SetPixelShaderConstantF(0, ..)` (offset N is
//! `c[N/4]`), render targets (640x480 A32B32G32R32F unless declared otherwise), textures and
//! sampler states, the input layout as a vertex declaration over the vertex buffers, the
//! fixed-function render states the runner sets before every draw (alpha test, shade mode,
//! clip planes, point size and sprites, fog, cull none), then `DrawPrimitive`. `clear rtv` is
//! `ColorFill` with each channel truncated to 8 bits. Every usable probe is then compared
//! with the runner's ULP rule (negative floats mapped to `INT_MIN - x`, so -0 == +0).
//!
//! A draw the device refuses as unsupported (`DeviceError::Unsupported`, an unsupported
//! shader) makes its probes [`Outcome::Unsupported`]; any other refusal makes them fail.
//! One device per file and pass (the runner's device lives as long as one file's run); the
//! wgpu device is shared.

#![allow(dead_code, clippy::panic)]

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use d3d9_backend::device::{
    ClearFlags, DeclarationId, Device, DeviceParams, Format, PixelShaderId, PrimitiveType,
    SurfaceData, SurfaceId, TextureId, TransformState, VertexBufferId, VertexShaderId, Viewport,
    IDENTITY,
};
use d3d9_backend::DeviceError;
use d3d9_translator::bytecode::Usage;
use d3d9_translator::decl::{DeclType, VertexElement};
use serde_json::Value;

/// The passes of the corpus.
pub const PASSES: [&str; 2] = ["sm2", "sm3"];

/// `../shared/corpus/vkd3d/vkd3d_sm23.json` beside the checkout.
pub fn corpus_path() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = manifest.parent().and_then(Path::parent).unwrap_or(manifest);
    root.join("shared/corpus/vkd3d/vkd3d_sm23.json")
}

/// The parsed corpus, or why it could not be read.
pub fn load_corpus() -> Result<Value, String> {
    let path = corpus_path();
    let text = std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "{} not readable ({e}): the corpus lives in ../shared beside the checkout",
            path.display()
        )
    })?;
    serde_json::from_str(&text).map_err(|e| format!("{}: not JSON: {e}", path.display()))
}

/// What became of one usable probe.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Pass,
    /// The pixel differs, or the draw failed for a reason other than "unsupported".
    Fail(String),
    /// The device refused the draw (or a state it needs) as unsupported.
    Unsupported(String),
}

/// One usable probe's result: `pass file:line`.
#[derive(Clone, Debug)]
pub struct ProbeResult {
    pub pass: String,
    pub file: String,
    pub line: u64,
    pub outcome: Outcome,
}

impl ProbeResult {
    /// `sm2 abs.shader_test:12`, the key of the expectations file.
    pub fn key(&self) -> String {
        format!("{} {}:{}", self.pass, self.file, self.line)
    }
}

/// The runner's float comparison (`compare_float` in vkd3d's `tests/utils.h`): both bit
/// patterns as ints, negative ones mapped to `INT_MIN - x`, then the unsigned distance.
pub fn compare_float(got: u32, expected: u32, ulps: u32) -> bool {
    let map = |bits: u32| {
        let x = bits as i32;
        if x < 0 {
            i32::MIN.wrapping_sub(x)
        } else {
            x
        }
    };
    (map(got) as u32).abs_diff(map(expected) as u32) <= ulps
}

/// How a draw ended.
#[derive(Clone, Debug)]
enum DrawStatus {
    Drawn,
    Unsupported(String),
    Failed(String),
}

/// A device error as the draw's status: unsupported (legal D3D9 this device does not do)
/// or failed.
fn status_of(e: &DeviceError) -> DrawStatus {
    let unsupported = match e {
        DeviceError::Unsupported { .. } => true,
        DeviceError::Check { source, .. } => !source.is_invalid(),
        DeviceError::Bind { source, .. } => source.is_unsupported(),
        DeviceError::Translate { source, .. } => source.is_unsupported(),
        DeviceError::Declaration { source, .. } => source.is_unsupported(),
        _ => false,
    };
    match unsupported {
        true => DrawStatus::Unsupported(e.to_string()),
        false => DrawStatus::Failed(e.to_string()),
    }
}

fn u64_of(v: &Value) -> Result<u64, String> {
    v.as_u64().ok_or_else(|| format!("not an integer: {v}"))
}

fn u32_of(v: &Value) -> Result<u32, String> {
    u32::try_from(u64_of(v)?).map_err(|_| format!("not a u32: {v}"))
}

fn f32_of(v: &Value) -> Result<f32, String> {
    v.as_f64()
        .map(|f| f as f32)
        .ok_or_else(|| format!("not a number: {v}"))
}

fn str_of(v: &Value) -> Result<&str, String> {
    v.as_str().ok_or_else(|| format!("not a string: {v}"))
}

fn array_of(v: &Value) -> Result<&Vec<Value>, String> {
    v.as_array().ok_or_else(|| format!("not an array: {v}"))
}

fn u32s(v: &Value) -> Result<Vec<u32>, String> {
    array_of(v)?.iter().map(u32_of).collect()
}

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// A DXGI format name of the corpus as the `D3DFORMAT` the d3d9 runner creates.
fn format_of(name: &str) -> Result<Format, DrawStatus> {
    match name {
        "R32G32B32A32_FLOAT" => Ok(Format::A32B32G32R32F),
        "R32_FLOAT" => Ok(Format::R32F),
        other => Err(DrawStatus::Failed(format!(
            "the d3d9 runner has no D3DFORMAT for {other}"
        ))),
    }
}

/// `D3DCMPFUNC` of the runner's comparison names.
fn cmp_func(name: &str) -> Result<u32, String> {
    Ok(match name {
        "never" => 1,
        "less" => 2,
        "equal" => 3,
        "less equal" => 4,
        "greater" => 5,
        "not equal" => 6,
        "greater equal" => 7,
        "always" => 8,
        other => return Err(format!("comparison {other:?}")),
    })
}

/// `d3d_color_from_vec4`: each channel times 255 converted to 8 bits (truncated), as
/// 0xAARRGGBB.
fn d3d_color(v: [f32; 4]) -> u32 {
    let ch = |f: f32| u32::from((f * 255.0) as i32 as u8);
    ch(v[3]) << 24 | ch(v[0]) << 16 | ch(v[1]) << 8 | ch(v[2])
}

fn vec4_of(v: &Value) -> Result<[f32; 4], String> {
    let a = array_of(v)?;
    let f = |i: usize| a.get(i).map(f32_of).unwrap_or(Ok(0.0));
    Ok([f(0)?, f(1)?, f(2)?, f(3)?])
}

// D3DRENDERSTATETYPE numbers the runner sets before every draw.
const D3DRS_SHADEMODE: u32 = 9;
const D3DRS_ALPHATESTENABLE: u32 = 15;
const D3DRS_CULLMODE: u32 = 22;
const D3DRS_ALPHAREF: u32 = 24;
const D3DRS_ALPHAFUNC: u32 = 25;
const D3DRS_FOGENABLE: u32 = 28;
const D3DRS_FOGCOLOR: u32 = 34;
const D3DRS_FOGTABLEMODE: u32 = 35;
const D3DRS_FOGSTART: u32 = 36;
const D3DRS_FOGEND: u32 = 37;
const D3DRS_FOGDENSITY: u32 = 38;
const D3DRS_CLIPPING: u32 = 136;
const D3DRS_CLIPPLANEENABLE: u32 = 152;
const D3DRS_POINTSIZE: u32 = 154;
const D3DRS_POINTSIZE_MIN: u32 = 155;
const D3DRS_POINTSPRITEENABLE: u32 = 156;
const D3DRS_POINTSIZE_MAX: u32 = 166;
// D3DSAMPLERSTATETYPE numbers.
const D3DSAMP_ADDRESSU: u32 = 1;
const D3DSAMP_MAGFILTER: u32 = 5;
const D3DSAMP_MINFILTER: u32 = 6;
const D3DSAMP_MIPFILTER: u32 = 7;

/// One file's run through one device.
struct FileRun<'a> {
    corpus: &'a Value,
    file: &'a Value,
    dev: Device,
    /// Render targets by (slot, format, width, height); the one bound last per slot.
    targets: HashMap<(u64, String, u32, u32), SurfaceId>,
    bound: [Option<SurfaceId>; 4],
    textures: HashMap<(u64, u64), TextureId>,
    buffers: HashMap<Vec<u32>, VertexBufferId>,
    declarations: HashMap<String, DeclarationId>,
    vertex_shaders: HashMap<String, VertexShaderId>,
    pixel_shaders: HashMap<u64, PixelShaderId>,
    draws: HashMap<u64, DrawStatus>,
    /// The last read-back of a render target slot, until the next draw or clear.
    readback: Option<(u64, SurfaceData)>,
}

impl FileRun<'_> {
    /// The render target of `slot` with this description, created on first use.
    fn target(
        &mut self,
        slot: u64,
        format: &str,
        width: u32,
        height: u32,
    ) -> Result<SurfaceId, DrawStatus> {
        let key = (slot, format.to_string(), width, height);
        if let Some(id) = self.targets.get(&key) {
            return Ok(*id);
        }
        let id = self
            .dev
            .create_render_target(width, height, format_of(format)?)
            .map_err(|e| status_of(&e))?;
        self.targets.insert(key, id);
        Ok(id)
    }

    /// `clear rtv N r g b a`: `ColorFill` of the whole surface (8-bit quantised colour).
    fn clear(&mut self, command: &Value) -> Result<(), DrawStatus> {
        let fail = |e: String| DrawStatus::Failed(e);
        let slot = u64_of(&command["slot"]).map_err(fail)?;
        let colour = vec4_of(&command["value"]).map_err(fail)?;
        let surface = match self.bound.get(slot as usize).copied().flatten() {
            Some(s) => s,
            None => self.target(slot, "R32G32B32A32_FLOAT", 640, 480)?,
        };
        if let Some(b) = self.bound.get_mut(slot as usize) {
            *b = Some(surface);
        }
        self.readback = None;
        let st = |e: DeviceError| status_of(&e);
        self.dev.set_render_target(0, Some(surface)).map_err(st)?;
        for s in 1..4 {
            self.dev.set_render_target(s, None).map_err(st)?;
        }
        self.dev
            .clear(&[], ClearFlags::TARGET, d3d_color(colour), 1.0, 0)
            .map_err(st)
    }

    /// The tokens of a draw's vertex shader and its cache key; `None` without bytecode.
    fn vertex_tokens(&self, vs: &Value) -> Result<Option<(String, Vec<u32>)>, String> {
        if vs["default_vs"].as_bool() == Some(true) {
            let profile = str_of(&vs["profile"])?;
            let key = match vs["compile_options"].as_array().map(Vec::as_slice) {
                Some([option]) => format!("{profile}:{}", str_of(option)?),
                _ => profile.to_string(),
            };
            let b = &self.corpus["default_vertex_shader"]["bytecode"][key.as_str()];
            if b["compile_ok"].as_bool() != Some(true) {
                return Ok(None);
            }
            return Ok(Some((format!("default {key}"), u32s(&b["tokens"])?)));
        }
        let id = u64_of(&vs["shader_id"])?;
        Ok(self.shader_tokens(id)?.map(|t| (format!("vs {id}"), t)))
    }

    fn shader_tokens(&self, id: u64) -> Result<Option<Vec<u32>>, String> {
        let shader = array_of(&self.file["shaders"])?
            .iter()
            .find(|s| s["id"].as_u64() == Some(id))
            .ok_or_else(|| format!("no shader {id}"))?;
        match shader["tokens"].is_array() && shader["compile_ok"].as_bool() == Some(true) {
            true => Ok(Some(u32s(&shader["tokens"])?)),
            false => Ok(None),
        }
    }

    /// Replays one draw snapshot.
    fn draw(&mut self, draw: &Value) -> DrawStatus {
        self.readback = None;
        match self.try_draw(draw) {
            Ok(()) => DrawStatus::Drawn,
            Err(status) => status,
        }
    }

    fn try_draw(&mut self, draw: &Value) -> Result<(), DrawStatus> {
        let fail = |e: String| DrawStatus::Failed(format!("snapshot: {e}"));
        let st = |e: DeviceError| status_of(&e);
        // Shaders.
        let (vs_key, vs_tokens) = self
            .vertex_tokens(&draw["vs"])
            .map_err(fail)?
            .ok_or_else(|| DrawStatus::Failed("the vertex shader has no bytecode".into()))?;
        let ps_id = u64_of(&draw["ps"]["shader_id"]).map_err(fail)?;
        let vs = match self.vertex_shaders.get(&vs_key) {
            Some(id) => *id,
            None => {
                let id = self.dev.create_vertex_shader(&vs_tokens).map_err(st)?;
                self.vertex_shaders.insert(vs_key, id);
                id
            }
        };
        let ps = match self.pixel_shaders.get(&ps_id) {
            Some(id) => *id,
            None => {
                let tokens = self
                    .shader_tokens(ps_id)
                    .map_err(fail)?
                    .ok_or_else(|| DrawStatus::Failed("the pixel shader has no bytecode".into()))?;
                let id = self.dev.create_pixel_shader(&tokens).map_err(st)?;
                self.pixel_shaders.insert(ps_id, id);
                id
            }
        };
        // Uniforms: one array to both stages' float constants.
        let uniforms = u32s(&draw["uniforms_u32"]).map_err(fail)?;
        if !uniforms.is_empty() {
            let registers: Vec<[f32; 4]> = uniforms
                .chunks(4)
                .map(|c| {
                    let f = |i: usize| f32::from_bits(c.get(i).copied().unwrap_or(0x7f7f_7f7f));
                    [f(0), f(1), f(2), f(3)]
                })
                .collect();
            self.dev
                .set_vertex_shader_constant_f(0, &registers)
                .map_err(st)?;
            self.dev
                .set_pixel_shader_constant_f(0, &registers)
                .map_err(st)?;
        }
        // Render targets; the viewport covers the smallest.
        let mut size = (u32::MAX, u32::MAX);
        let mut bound = [None; 4];
        let mut rts: Vec<&Value> = array_of(&draw["render_targets"])
            .map_err(fail)?
            .iter()
            .collect();
        rts.sort_by_key(|rt| rt["slot"].as_u64());
        for rt in rts {
            let slot = u64_of(&rt["slot"]).map_err(fail)?;
            let (w, h) = (
                u32_of(&rt["width"]).map_err(fail)?,
                u32_of(&rt["height"]).map_err(fail)?,
            );
            let id = self.target(slot, str_of(&rt["format"]).map_err(fail)?, w, h)?;
            *bound
                .get_mut(slot as usize)
                .ok_or_else(|| fail(format!("render target slot {slot}")))? = Some(id);
            size = (size.0.min(w), size.1.min(h));
        }
        if bound[0].is_none() {
            let id = self.target(0, "R32G32B32A32_FLOAT", 640, 480)?;
            bound[0] = Some(id);
            size = (size.0.min(640), size.1.min(480));
        }
        for (slot, id) in bound.iter().enumerate() {
            self.dev.set_render_target(slot, *id).map_err(st)?;
        }
        self.bound = bound;
        self.dev
            .set_viewport(Viewport {
                x: 0,
                y: 0,
                width: size.0,
                height: size.1,
                min_z: 0.0,
                max_z: 1.0,
            })
            .map_err(st)?;
        // Textures on their sampler stages; the others unset.
        let mut textures: [Option<TextureId>; 16] = [None; 16];
        for t in array_of(&draw["textures"]).map_err(fail)? {
            let slot = u64_of(&t["slot"]).map_err(fail)?;
            let id = self.texture(t)?;
            *textures
                .get_mut(slot as usize)
                .ok_or_else(|| fail(format!("texture slot {slot}")))? = Some(id);
        }
        for (slot, id) in textures.iter().enumerate() {
            self.dev.set_texture(slot as u32, *id).map_err(st)?;
        }
        // Sampler states: D3D9's defaults, then what the [sampler] sections say.
        for slot in 0..16u32 {
            for (ty, value) in [(1, 1), (2, 1), (3, 1), (5, 1), (6, 1), (7, 0)] {
                self.dev
                    .set_sampler_state_raw(slot, ty, value)
                    .map_err(st)?;
            }
        }
        for s in array_of(&draw["samplers"]).map_err(fail)? {
            self.sampler(s)?;
        }
        // Input layout and vertex buffers.
        self.vertex_input(draw)?;
        // The fixed-function state the runner sets before every draw.
        self.render_states(&draw["render_state"])?;
        self.dev.set_vertex_shader(Some(vs)).map_err(st)?;
        self.dev.set_pixel_shader(Some(ps)).map_err(st)?;
        let count = u32_of(&draw["vertex_count"]).map_err(fail)?;
        let (primitive, primitives) = match str_of(&draw["topology"]).map_err(fail)? {
            "triangle list" => (PrimitiveType::TriangleList, count / 3),
            "triangle strip" => (PrimitiveType::TriangleStrip, count.saturating_sub(2)),
            "point list" => (PrimitiveType::PointList, count),
            other => return Err(fail(format!("topology {other}"))),
        };
        self.dev
            .draw_primitive(primitive, 0, primitives)
            .map_err(st)
    }

    /// A texture of the snapshot, created and filled once per `[srv]` section.
    fn texture(&mut self, t: &Value) -> Result<TextureId, DrawStatus> {
        let fail = |e: String| DrawStatus::Failed(format!("snapshot: {e}"));
        let st = |e: DeviceError| status_of(&e);
        let key = (
            u64_of(&t["section_line"]).map_err(fail)?,
            u64_of(&t["slot"]).map_err(fail)?,
        );
        if let Some(id) = self.textures.get(&key) {
            return Ok(*id);
        }
        let format = format_of(str_of(&t["format"]).map_err(fail)?)?;
        let (w, h, d) = (
            u32_of(&t["width"]).map_err(fail)?,
            u32_of(&t["height"]).map_err(fail)?,
            u32_of(&t["depth"]).map_err(fail)?,
        );
        let levels = u32_of(&t["level_count"]).map_err(fail)?;
        let dimension = str_of(&t["dimension"]).map_err(fail)?;
        let id = match dimension {
            "2d" => self.dev.create_texture(w, h, levels, format),
            "cube" => self.dev.create_cube_texture(w, levels, format),
            "3d" => self.dev.create_volume_texture(w, h, d, levels, format),
            other => return Err(fail(format!("texture dimension {other}"))),
        }
        .map_err(st)?;
        let data = bytes_of(&u32s(&t["data"]).map_err(fail)?);
        let texel = format.texel_size() as usize;
        let mut offset = 0usize;
        for level in 0..levels {
            let dim = |v: u32| (v >> level).max(1) as usize;
            let size = match dimension {
                "2d" => dim(w) * dim(h) * texel,
                "cube" => 6 * dim(w) * dim(w) * texel,
                _ => dim(w) * dim(h) * dim(d) * texel,
            };
            let bytes = data
                .get(offset..offset + size)
                .ok_or_else(|| fail(format!("texture data ends before level {level}")))?;
            self.dev.update_texture(id, level, bytes).map_err(st)?;
            offset += size;
        }
        self.textures.insert(key, id);
        Ok(id)
    }

    /// A `[sampler N]` section: addressing, and min/mag/mip filters (point or linear).
    fn sampler(&mut self, s: &Value) -> Result<(), DrawStatus> {
        let fail = |e: String| DrawStatus::Failed(format!("snapshot: {e}"));
        let st = |e: DeviceError| status_of(&e);
        let slot = u32_of(&s["slot"]).map_err(fail)?;
        if !s["comparison"].is_null() {
            return Err(DrawStatus::Unsupported(
                "comparison samplers (the d3d9 runner has none)".into(),
            ));
        }
        for (i, a) in array_of(&s["address"]).map_err(fail)?.iter().enumerate() {
            let value = match str_of(a).map_err(fail)? {
                "wrap" => 1,
                "mirror" => 2,
                "clamp" => 3,
                "border" => 4,
                "mirror_once" | "mirror-once" => 5,
                other => return Err(fail(format!("address mode {other}"))),
            };
            self.dev
                .set_sampler_state_raw(slot, D3DSAMP_ADDRESSU + i as u32, value)
                .map_err(st)?;
        }
        let filter = str_of(&s["filter"]).map_err(fail)?;
        let words: Vec<&str> = filter.split_whitespace().collect();
        let [min, mag, mip] = words.as_slice() else {
            return Err(fail(format!("filter {filter:?}")));
        };
        let value = |w: &str| match w {
            "linear" => Ok(2),
            "point" => Ok(1),
            other => Err(fail(format!("filter {other}"))),
        };
        for (ty, w) in [
            (D3DSAMP_MINFILTER, min),
            (D3DSAMP_MAGFILTER, mag),
            (D3DSAMP_MIPFILTER, mip),
        ] {
            self.dev
                .set_sampler_state_raw(slot, ty, value(w)?)
                .map_err(st)?;
        }
        Ok(())
    }

    /// The input layout as a vertex declaration (offsets packed per slot, as the runner
    /// computes them) and the vertex buffers with each slot's stride.
    fn vertex_input(&mut self, draw: &Value) -> Result<(), DrawStatus> {
        let fail = |e: String| DrawStatus::Failed(format!("snapshot: {e}"));
        let st = |e: DeviceError| status_of(&e);
        let layout = array_of(&draw["input_layout"]).map_err(fail)?;
        let mut strides: BTreeMap<u64, u32> = BTreeMap::new();
        let mut elements = Vec::new();
        for e in layout {
            let slot = u64_of(&e["slot"]).map_err(fail)?;
            let size = u32_of(&e["texel_size"]).map_err(fail)?;
            let ty = match str_of(&e["format"]).map_err(fail)? {
                "R32_FLOAT" => DeclType::Float1,
                "R32G32_FLOAT" => DeclType::Float2,
                "R32G32B32A32_FLOAT" => DeclType::Float4,
                other => return Err(fail(format!("vertex format {other}"))),
            };
            let name = str_of(&e["semantic"]).map_err(fail)?.to_ascii_lowercase();
            let usage = match name.as_str() {
                "color" => Usage::Color,
                "position" | "sv_position" => Usage::Position,
                "psize" => Usage::PSize,
                "texcoord" => Usage::TexCoord,
                other => return Err(fail(format!("usage {other}"))),
            };
            let index = u8::try_from(u64_of(&e["index"]).map_err(fail)?)
                .map_err(|_| fail("usage index".into()))?;
            let stride = strides.entry(slot).or_insert(0);
            elements.push(VertexElement::new(
                slot as u16,
                *stride as u16,
                ty,
                usage,
                index,
            ));
            *stride += size;
        }
        let key = format!("{elements:?}");
        let decl = match self.declarations.get(&key) {
            Some(id) => *id,
            None => {
                let id = self.dev.create_vertex_declaration(&elements).map_err(st)?;
                self.declarations.insert(key, id);
                id
            }
        };
        self.dev.set_vertex_declaration(Some(decl)).map_err(st)?;
        for stream in 0..16 {
            self.dev.set_stream_source(stream, None, 0, 0).map_err(st)?;
        }
        for vb in array_of(&draw["vertex_buffers"]).map_err(fail)? {
            let slot = u64_of(&vb["slot"]).map_err(fail)?;
            let data = u32s(&vb["data"]).map_err(fail)?;
            if data.is_empty() {
                continue;
            }
            let id = match self.buffers.get(&data) {
                Some(id) => *id,
                None => {
                    let id = self
                        .dev
                        .create_vertex_buffer_with(&bytes_of(&data))
                        .map_err(st)?;
                    self.buffers.insert(data, id);
                    id
                }
            };
            let stride = strides.get(&slot).copied().unwrap_or(0);
            self.dev
                .set_stream_source(slot as usize, Some(id), 0, stride)
                .map_err(st)?;
        }
        Ok(())
    }

    /// The render states `d3d9_runner_draw` sets before every draw, from the snapshot's
    /// non-default fixed-function state.
    fn render_states(&mut self, state: &Value) -> Result<(), DrawStatus> {
        let fail = |e: String| DrawStatus::Failed(format!("snapshot: {e}"));
        let mut states: Vec<(u32, u32)> = Vec::new();
        // Alpha test: always enabled, ALWAYS unless the test says otherwise.
        let (func, reference) = match state.get("alpha_test") {
            Some(a) => (
                cmp_func(str_of(&a["func"]).map_err(fail)?).map_err(fail)?,
                f32_of(&a["ref"]).map_err(fail)?,
            ),
            None => (8, 0.0),
        };
        states.push((D3DRS_ALPHATESTENABLE, 1));
        states.push((D3DRS_ALPHAFUNC, func));
        states.push((D3DRS_ALPHAREF, (reference * 255.0) as u32));
        let flat = state.get("shade_mode").and_then(Value::as_str) == Some("flat");
        states.push((D3DRS_SHADEMODE, if flat { 1 } else { 2 }));
        // Clip planes: each plane set, and the enable mask.
        let mut clip_planes = Vec::new();
        let mut mask = 0u32;
        if let Some(planes) = state.get("clip_planes").and_then(Value::as_object) {
            for (index, plane) in planes {
                let i: u32 = index
                    .parse()
                    .map_err(|_| fail(format!("clip plane {index}")))?;
                let values = plane
                    .as_array()
                    .filter(|v| v.len() == 4)
                    .ok_or_else(|| fail(format!("clip plane {index}: want 4 numbers")))?;
                let mut p = [0.0f32; 4];
                for (slot, v) in p.iter_mut().zip(values) {
                    *slot = f32_of(v).map_err(fail)?;
                }
                clip_planes.push((i, p));
                mask |= 1 << i;
            }
        }
        states.push((D3DRS_CLIPPING, 1));
        states.push((D3DRS_CLIPPLANEENABLE, mask));
        let (size, min, max) = match state.get("point_size") {
            Some(p) => (
                f32_of(&p["size"]).map_err(fail)?,
                f32_of(&p["min"]).map_err(fail)?,
                f32_of(&p["max"]).map_err(fail)?,
            ),
            None => (1.0, 1.0, f32::MAX),
        };
        states.push((D3DRS_POINTSIZE, size.to_bits()));
        states.push((D3DRS_POINTSIZE_MIN, min.to_bits()));
        states.push((D3DRS_POINTSIZE_MAX, max.to_bits()));
        let sprite = state.get("point_sprite").and_then(Value::as_bool) == Some(true);
        states.push((D3DRS_POINTSPRITEENABLE, u32::from(sprite)));
        let fog = state.get("fog");
        let mode = fog.and_then(|f| f["mode"].as_str()).unwrap_or("disable");
        states.push((D3DRS_FOGENABLE, u32::from(mode != "disable")));
        if let Some(f) = fog.filter(|_| mode != "disable") {
            let table = match mode {
                "none" => 0,
                "exp" => 1,
                "exp2" => 2,
                "linear" => 3,
                other => return Err(fail(format!("fog mode {other}"))),
            };
            // vkd3d's runner selects W fog by a non-orthogonal D3DTS_PROJECTION (the vertex
            // shader ignores the transforms): a perspective-style last column.
            let mut projection = IDENTITY;
            if f["ortho"].as_bool() != Some(true) {
                projection[2][3] = 1.0;
                projection[3][3] = 0.0;
            }
            self.dev
                .set_transform(TransformState::Projection, projection)
                .map_err(|e| status_of(&e))?;
            states.push((D3DRS_FOGTABLEMODE, table));
            states.push((
                D3DRS_FOGCOLOR,
                d3d_color(vec4_of(&f["colour"]).map_err(fail)?),
            ));
            states.push((D3DRS_FOGSTART, f32_of(&f["start"]).map_err(fail)?.to_bits()));
            states.push((D3DRS_FOGEND, f32_of(&f["end"]).map_err(fail)?.to_bits()));
            states.push((
                D3DRS_FOGDENSITY,
                f32_of(&f["density"]).map_err(fail)?.to_bits(),
            ));
        }
        states.push((D3DRS_CULLMODE, 1));
        for (s, v) in states {
            self.dev
                .set_render_state_raw(s, v)
                .map_err(|e| status_of(&e))?;
        }
        for (index, plane) in clip_planes {
            self.dev
                .set_clip_plane(index, plane)
                .map_err(|e| status_of(&e))?;
        }
        Ok(())
    }

    /// One usable probe against the render target it names.
    fn probe(&mut self, probe: &Value) -> Outcome {
        if let Some(line) = probe["draw_line"].as_u64() {
            match self.draws.get(&line) {
                Some(DrawStatus::Unsupported(why)) => return Outcome::Unsupported(why.clone()),
                Some(DrawStatus::Failed(why)) => return Outcome::Fail(format!("draw: {why}")),
                Some(DrawStatus::Drawn) | None => {}
            }
        }
        match self.compare(probe) {
            Ok(outcome) => outcome,
            Err(e) => Outcome::Fail(e),
        }
    }

    fn compare(&mut self, probe: &Value) -> Result<Outcome, String> {
        let slot = u64_of(&probe["target"]["slot"])?;
        let rect = u32s(&probe["rect"])?;
        let [left, top, right, bottom] = rect.as_slice() else {
            return Err(format!("rect {rect:?}"));
        };
        let expected = u32s(&probe["expected_u32"])?;
        let components =
            usize::try_from(u64_of(&probe["components"])?).map_err(|e| e.to_string())?;
        let ulps = u32_of(&probe["ulps"])?;
        if self.readback.as_ref().map(|(s, _)| *s) != Some(slot) {
            let surface = self
                .bound
                .get(slot as usize)
                .copied()
                .flatten()
                .ok_or_else(|| format!("no render target in slot {slot}"))?;
            let data = self
                .dev
                .get_render_target_data(surface)
                .map_err(|e| e.to_string())?;
            self.readback = Some((slot, data));
        }
        let Some((_, data)) = &self.readback else {
            return Err("no read-back".into());
        };
        for y in *top..*bottom {
            for x in *left..*right {
                let texel = data
                    .texel(x, y)
                    .ok_or_else(|| format!("({x}, {y}) is outside the target"))?;
                let got: Vec<u32> = texel
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect();
                let ok = (0..components).all(|i| match (got.get(i), expected.get(i)) {
                    (Some(&g), Some(&e)) => compare_float(g, e, ulps),
                    _ => false,
                });
                if !ok {
                    let show = |v: &[u32]| {
                        v.iter()
                            .take(components)
                            .map(|b| format!("{:e}", f32::from_bits(*b)))
                            .collect::<Vec<_>>()
                            .join(", ")
                    };
                    return Ok(Outcome::Fail(format!(
                        "({x}, {y}) got ({}) expected ({}) within {ulps} ulps",
                        show(&got),
                        show(&expected)
                    )));
                }
            }
        }
        Ok(Outcome::Pass)
    }
}

/// The device the runner replays on: D3D9's defaults, except that instruction slots are not
/// counted. The corpus's bytecode is vkd3d-compiler's, which exceeds ps_2_0's 64 arithmetic
/// slots where the native compiler the expected values come from stays within them; Wine's
/// d3d9 does not count slots either.
fn runner_params() -> DeviceParams {
    DeviceParams {
        caps: d3d9_translator::check::DeviceCaps {
            instruction_slot_limits: false,
            ..d3d9_translator::check::DeviceCaps::default()
        },
        ..DeviceParams::default()
    }
}

/// Runs one pass (or the files named `only`) and returns every usable probe's outcome.
/// `Err`: no adapter, or a corpus that does not parse.
pub fn run_pass(
    corpus: &Value,
    pass: &str,
    only: Option<&str>,
) -> Result<Vec<ProbeResult>, String> {
    let root = Device::new(DeviceParams::default()).map_err(|e| format!("no device: {e}"))?;
    let mut results = Vec::new();
    for file in array_of(&corpus["files"])? {
        let name = str_of(&file["name"])?;
        if only.is_some_and(|o| {
            o != name && o.trim_end_matches(".shader_test") != name.trim_end_matches(".shader_test")
        }) {
            continue;
        }
        let blocks = array_of(&file["passes"][pass]["test_blocks"])?;
        if blocks.iter().all(|b| !b["skipped"].is_null()) {
            continue;
        }
        let gpu = root.gpu();
        let dev = Device::from_wgpu(
            gpu.adapter().clone(),
            gpu.device().clone(),
            gpu.queue().clone(),
            runner_params(),
        )
        .map_err(|e| format!("no device: {e}"))?;
        let mut run = FileRun {
            corpus,
            file,
            dev,
            targets: HashMap::new(),
            bound: [None; 4],
            textures: HashMap::new(),
            buffers: HashMap::new(),
            declarations: HashMap::new(),
            vertex_shaders: HashMap::new(),
            pixel_shaders: HashMap::new(),
            draws: HashMap::new(),
            readback: None,
        };
        for block in blocks.iter().filter(|b| b["skipped"].is_null()) {
            for c in array_of(&block["commands"])? {
                if c["applies"].as_bool() != Some(true) {
                    continue;
                }
                let line = u64_of(&c["line"])?;
                match str_of(&c["op"])? {
                    "draw" | "draw_quad" => {
                        let draw = &c["draw"];
                        if draw["compile_ok"].as_bool() != Some(true) {
                            let why = "a shader of the draw has no bytecode";
                            run.draws.insert(line, DrawStatus::Failed(why.into()));
                            continue;
                        }
                        let status = run.draw(draw);
                        run.draws.insert(line, status);
                    }
                    "clear_rtv" => {
                        if let Err(status) = run.clear(c) {
                            // A failed clear fails the probes of the next draw.
                            run.draws.insert(line, status);
                        }
                    }
                    "probe" => {
                        if c["usable"].as_bool() != Some(true) {
                            continue;
                        }
                        let outcome = run.probe(c);
                        results.push(ProbeResult {
                            pass: pass.to_string(),
                            file: name.to_string(),
                            line,
                            outcome,
                        });
                    }
                    // State commands are in the next draw's snapshot.
                    _ => {}
                }
            }
        }
    }
    Ok(results)
}

/// The wgpu backend the runner draws on, as the expectations file names it.
pub fn backend_name() -> Result<String, String> {
    let dev = Device::new(DeviceParams::default()).map_err(|e| format!("no device: {e}"))?;
    Ok(match dev.gpu().adapter_info().backend {
        wgpu::Backend::Gl => "gl".to_string(),
        wgpu::Backend::Vulkan => "vulkan".to_string(),
        other => format!("{other:?}").to_ascii_lowercase(),
    })
}

/// How a listed probe fails: the kind of its outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// The pixel differs from the expected value (`Outcome::Fail` with `got (...)`).
    Pixel,
    /// The draw was refused for a reason other than "unsupported" (`Outcome::Fail("draw:
    /// ...")`).
    Draw,
    /// Any other failure to read the probe (`Outcome::Fail`).
    Error,
    /// The device refused the draw as unsupported (`Outcome::Unsupported`).
    Unsupported,
}

impl FailureKind {
    const NAMES: [(&'static str, FailureKind); 4] = [
        ("pixel", FailureKind::Pixel),
        ("draw", FailureKind::Draw),
        ("error", FailureKind::Error),
        ("unsupported", FailureKind::Unsupported),
    ];

    pub fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, k)| *k == self)
            .map_or("?", |(n, _)| n)
    }

    fn parse(word: &str) -> Option<FailureKind> {
        Self::NAMES
            .iter()
            .find(|(n, _)| *n == word)
            .map(|(_, k)| *k)
    }
}

impl Outcome {
    /// The kind of failure and its message (`None` for a pass).
    pub fn failure(&self) -> Option<(FailureKind, &str)> {
        match self {
            Outcome::Pass => None,
            Outcome::Fail(why) if why.starts_with("draw: ") => Some((FailureKind::Draw, why)),
            Outcome::Fail(why) if why.contains(" got (") => Some((FailureKind::Pixel, why)),
            Outcome::Fail(why) => Some((FailureKind::Error, why)),
            Outcome::Unsupported(why) => Some((FailureKind::Unsupported, why)),
        }
    }
}

/// One line of the expectations file: `PASS FILE:LINE [BACKEND] KIND `FRAGMENT` reason`: the
/// optional `[vulkan]` / `[gl]` tag limits the line to that wgpu backend; `KIND` (`pixel`,
/// `draw`, `error`, `unsupported`, [`FailureKind`]) is how the probe fails today and
/// `FRAGMENT` (between backquotes) a part of the failure's message.
#[derive(Clone, Debug)]
pub struct Expectation {
    pub backend: Option<String>,
    pub kind: FailureKind,
    pub fragment: String,
    pub reason: String,
}

impl Expectation {
    /// Whether `outcome` is the failure this line states; `Err` says how it differs.
    pub fn matches(&self, outcome: &Outcome) -> Result<(), String> {
        match outcome.failure() {
            None => Err("passes".into()),
            Some((kind, why)) if kind != self.kind => Err(format!(
                "fails as {} ({why}), listed as {} `{}`",
                kind.name(),
                self.kind.name(),
                self.fragment
            )),
            Some((_, why)) if !why.contains(&self.fragment) => Err(format!(
                "fails as {} with \"{why}\", which lacks the listed `{}`",
                self.kind.name(),
                self.fragment
            )),
            Some(_) => Ok(()),
        }
    }
}

/// The expectations (`backend/tests/vkd3d_expectations.txt`) by probe key, for `backend`.
pub fn expectations(text: &str, backend: &str) -> Result<BTreeMap<String, Expectation>, String> {
    let mut out = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let want = || {
            format!(
                "line {}: want `PASS FILE:LINE [BACKEND] KIND `FRAGMENT` reason`: {line}",
                n + 1
            )
        };
        let mut parts = line.splitn(3, ' ');
        let (Some(pass), Some(probe), Some(rest)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(want());
        };
        let (tag, rest) = match rest.strip_prefix('[').and_then(|r| r.split_once(']')) {
            Some((tag, rest)) => (Some(tag.to_string()), rest.trim_start()),
            None => (None, rest),
        };
        let (word, rest) = rest.split_once(' ').ok_or_else(want)?;
        let kind = FailureKind::parse(word).ok_or_else(want)?;
        let (fragment, reason) = rest
            .strip_prefix('`')
            .and_then(|r| r.split_once('`'))
            .ok_or_else(want)?;
        if fragment.is_empty() {
            return Err(want());
        }
        if tag.as_deref().is_some_and(|t| t != backend) {
            continue;
        }
        let key = format!("{pass} {probe}");
        if out.contains_key(&key) {
            return Err(format!("line {}: {key} listed twice", n + 1));
        }
        out.insert(
            key,
            Expectation {
                backend: tag,
                kind,
                fragment: fragment.to_string(),
                reason: reason.trim().to_string(),
            },
        );
    }
    Ok(out)
}

/// Per-pass counts: passed, failed as listed, unsupported, usable.
#[derive(Clone, Copy, Debug, Default)]
pub struct Counts {
    pub passed: usize,
    pub failed: usize,
    pub unsupported: usize,
    pub usable: usize,
}

pub fn counts(results: &[ProbeResult]) -> Counts {
    let mut c = Counts {
        usable: results.len(),
        ..Counts::default()
    };
    for r in results {
        match r.outcome {
            Outcome::Pass => c.passed += 1,
            Outcome::Fail(_) => c.failed += 1,
            Outcome::Unsupported(_) => c.unsupported += 1,
        }
    }
    c
}
