//! Every state-setting call as one value ([`Change`]), so that one path applies it to the
//! device, records it into a state block (between `BeginStateBlock` and `EndStateBlock`,
//! where D3D9 records instead of applying), captures it (`Capture`, `CreateStateBlock`) and
//! applies it again (`Apply`). Objects a change names are held by a private reference: a
//! state block keeps alive what it recorded.

use std::collections::BTreeMap;

use d3d9_backend::device::{
    IndexBufferId, Light, Material, Matrix, Rect, Viewport, MAX_RENDER_TARGETS, MAX_STREAMS,
    RENDER_STATES, SAMPLER_STATES, TEXTURE_STAGES, TEXTURE_STAGE_STATES,
};

use super::buffer::{IndexBuffer9, VertexBuffer9};
use super::shader::{PixelShader9, VertexDeclaration9, VertexShader9};
use super::surface::Surface9;
use super::texture::Texture9;
use crate::com::{Deferred, Private};
use crate::device::DeviceInner;
use crate::hresult::{invalid_call, CallResult, Refusal};

/// Sampler slots: 0–15, then `D3DVERTEXTEXTURESAMPLER0..3` (257–260).
pub const SAMPLERS: [u32; 20] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 257, 258, 259, 260,
];

/// The slot of a D3D9 sampler number.
pub fn sampler_slot(sampler: u32) -> Option<usize> {
    SAMPLERS.iter().position(|&s| s == sampler)
}

/// One state-setting call.
pub enum Change {
    RenderState(u32, u32),
    SamplerState(u32, u32, u32),
    TextureStageState(u32, u32, u32),
    Texture(u32, Option<Private<Texture9>>),
    StreamSource(u32, Option<Private<VertexBuffer9>>, u32, u32),
    StreamSourceFreq(u32, u32),
    Indices(Option<Private<IndexBuffer9>>),
    /// `SetVertexDeclaration`, or `SetFVF` (the FVF, and the declaration made of it).
    VertexDeclaration(Option<Private<VertexDeclaration9>>, u32),
    VertexShader(Option<Private<VertexShader9>>),
    PixelShader(Option<Private<PixelShader9>>),
    VertexConstantF(u32, [f32; 4]),
    VertexConstantI(u32, [i32; 4]),
    VertexConstantB(u32, bool),
    PixelConstantF(u32, [f32; 4]),
    PixelConstantI(u32, [i32; 4]),
    PixelConstantB(u32, bool),
    Transform(u32, Matrix),
    Viewport(Viewport),
    ScissorRect(Rect),
    ClipPlane(u32, [f32; 4]),
    Material(Material),
    Light(u32, Light),
    LightEnable(u32, bool),
    NPatchMode(f32),
}

/// What a change sets (a later change with the same key replaces it in a state block).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Key {
    RenderState(u32),
    SamplerState(u32, u32),
    TextureStageState(u32, u32),
    Texture(u32),
    StreamSource(u32),
    StreamSourceFreq(u32),
    Indices,
    VertexDeclaration,
    VertexShader,
    PixelShader,
    VertexConstantF(u32),
    VertexConstantI(u32),
    VertexConstantB(u32),
    PixelConstantF(u32),
    PixelConstantI(u32),
    PixelConstantB(u32),
    Transform(u32),
    Viewport,
    ScissorRect,
    ClipPlane(u32),
    Material,
    Light(u32),
    LightEnable(u32),
    NPatchMode,
}

impl Change {
    pub fn key(&self) -> Key {
        match self {
            Change::RenderState(s, _) => Key::RenderState(*s),
            Change::SamplerState(s, t, _) => Key::SamplerState(*s, *t),
            Change::TextureStageState(s, t, _) => Key::TextureStageState(*s, *t),
            Change::Texture(s, _) => Key::Texture(*s),
            Change::StreamSource(s, ..) => Key::StreamSource(*s),
            Change::StreamSourceFreq(s, _) => Key::StreamSourceFreq(*s),
            Change::Indices(_) => Key::Indices,
            Change::VertexDeclaration(..) => Key::VertexDeclaration,
            Change::VertexShader(_) => Key::VertexShader,
            Change::PixelShader(_) => Key::PixelShader,
            Change::VertexConstantF(r, _) => Key::VertexConstantF(*r),
            Change::VertexConstantI(r, _) => Key::VertexConstantI(*r),
            Change::VertexConstantB(r, _) => Key::VertexConstantB(*r),
            Change::PixelConstantF(r, _) => Key::PixelConstantF(*r),
            Change::PixelConstantI(r, _) => Key::PixelConstantI(*r),
            Change::PixelConstantB(r, _) => Key::PixelConstantB(*r),
            Change::Transform(t, _) => Key::Transform(*t),
            Change::Viewport(_) => Key::Viewport,
            Change::ScissorRect(_) => Key::ScissorRect,
            Change::ClipPlane(i, _) => Key::ClipPlane(*i),
            Change::Material(_) => Key::Material,
            Change::Light(i, _) => Key::Light(*i),
            Change::LightEnable(i, _) => Key::LightEnable(*i),
            Change::NPatchMode(_) => Key::NPatchMode,
        }
    }

    /// A copy holding its own private references.
    pub fn share(&self) -> Change {
        match self {
            Change::RenderState(a, b) => Change::RenderState(*a, *b),
            Change::SamplerState(a, b, c) => Change::SamplerState(*a, *b, *c),
            Change::TextureStageState(a, b, c) => Change::TextureStageState(*a, *b, *c),
            Change::Texture(s, t) => Change::Texture(*s, t.as_ref().map(Private::share)),
            Change::StreamSource(s, b, o, st) => {
                Change::StreamSource(*s, b.as_ref().map(Private::share), *o, *st)
            }
            Change::StreamSourceFreq(s, f) => Change::StreamSourceFreq(*s, *f),
            Change::Indices(b) => Change::Indices(b.as_ref().map(Private::share)),
            Change::VertexDeclaration(d, fvf) => {
                Change::VertexDeclaration(d.as_ref().map(Private::share), *fvf)
            }
            Change::VertexShader(v) => Change::VertexShader(v.as_ref().map(Private::share)),
            Change::PixelShader(p) => Change::PixelShader(p.as_ref().map(Private::share)),
            Change::VertexConstantF(r, v) => Change::VertexConstantF(*r, *v),
            Change::VertexConstantI(r, v) => Change::VertexConstantI(*r, *v),
            Change::VertexConstantB(r, v) => Change::VertexConstantB(*r, *v),
            Change::PixelConstantF(r, v) => Change::PixelConstantF(*r, *v),
            Change::PixelConstantI(r, v) => Change::PixelConstantI(*r, *v),
            Change::PixelConstantB(r, v) => Change::PixelConstantB(*r, *v),
            Change::Transform(t, m) => Change::Transform(*t, *m),
            Change::Viewport(v) => Change::Viewport(*v),
            Change::ScissorRect(r) => Change::ScissorRect(*r),
            Change::ClipPlane(i, p) => Change::ClipPlane(*i, *p),
            Change::Material(m) => Change::Material(*m),
            Change::Light(i, l) => Change::Light(*i, *l),
            Change::LightEnable(i, e) => Change::LightEnable(*i, *e),
            Change::NPatchMode(n) => Change::NPatchMode(*n),
        }
    }

    /// Gives up the private references the change holds (after the device is unlocked).
    pub fn release(self, deferred: &mut Deferred) {
        match self {
            Change::Texture(_, t) => deferred.push_opt(t),
            Change::StreamSource(_, b, ..) => deferred.push_opt(b),
            Change::Indices(b) => deferred.push_opt(b),
            Change::VertexDeclaration(d, _) => deferred.push_opt(d),
            Change::VertexShader(v) => deferred.push_opt(v),
            Change::PixelShader(p) => deferred.push_opt(p),
            _ => {}
        }
    }
}

/// Recorded or captured state: the latest change per key.
#[derive(Default)]
pub struct Block {
    pub changes: BTreeMap<Key, Change>,
}

impl Block {
    /// Records `change`, replacing (and releasing) an earlier one with its key.
    pub fn record(&mut self, change: Change, deferred: &mut Deferred) {
        if let Some(old) = self.changes.insert(change.key(), change) {
            old.release(deferred);
        }
    }

    /// Releases every change.
    pub fn clear(&mut self, deferred: &mut Deferred) {
        for (_, change) in std::mem::take(&mut self.changes) {
            change.release(deferred);
        }
    }
}

/// `D3DSTATEBLOCKTYPE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockType {
    All,
    PixelState,
    VertexState,
}

impl BlockType {
    pub fn from_d3d(value: u32) -> Option<BlockType> {
        match value {
            1 => Some(BlockType::All),
            2 => Some(BlockType::PixelState),
            3 => Some(BlockType::VertexState),
            _ => None,
        }
    }
}

/// D3D9's lists of the render states a pixel-state and a vertex-state block hold.
const PIXEL_RENDER_STATES: &[u32] = &[
    7, 8, 9, 14, 15, 16, 19, 20, 23, 24, 25, 26, 27, 34, 35, 36, 37, 38, 52, 53, 54, 55, 56, 57,
    58, 59, 60, 128, 129, 130, 131, 132, 133, 134, 135, 168, 171, 174, 175, 176, 185, 186, 187,
    188, 189, 190, 191, 192, 193, 194, 195, 198, 199, 200, 201, 202, 203, 204, 205, 206, 207, 208,
    209,
];
const VERTEX_RENDER_STATES: &[u32] = &[
    9, 22, 28, 29, 34, 35, 36, 37, 38, 48, 136, 137, 139, 140, 141, 142, 143, 145, 146, 147, 148,
    151, 152, 154, 155, 156, 157, 158, 159, 160, 161, 162, 163, 166, 167, 170, 172, 173, 178, 179,
    180, 181, 182, 183, 184,
];
/// Sampler states of a pixel-state block (all of them); a vertex-state block holds
/// `D3DSAMP_DMAPOFFSET` only.
const VERTEX_SAMPLER_STATES: &[u32] = &[13];
/// Texture-stage states of a vertex-state block (`TEXCOORDINDEX`, `TEXTURETRANSFORMFLAGS`);
/// a pixel-state block holds them all.
const VERTEX_STAGE_STATES: &[u32] = &[11, 24];

/// Float, integer and boolean constant registers of each stage a state block captures.
pub struct ConstantCounts {
    pub vs_f: u32,
    pub vs_i: u32,
    pub vs_b: u32,
    pub ps_f: u32,
    pub ps_i: u32,
    pub ps_b: u32,
}

/// The keys a state block of `kind` holds.
pub fn block_keys(kind: BlockType, counts: &ConstantCounts, lights: &[u32]) -> Vec<Key> {
    let pixel = matches!(kind, BlockType::All | BlockType::PixelState);
    let vertex = matches!(kind, BlockType::All | BlockType::VertexState);
    let mut keys = Vec::new();
    for info in RENDER_STATES {
        let n = info.number;
        if kind == BlockType::All
            || (pixel && PIXEL_RENDER_STATES.contains(&n))
            || (vertex && VERTEX_RENDER_STATES.contains(&n))
        {
            keys.push(Key::RenderState(n));
        }
    }
    for &sampler in &SAMPLERS {
        for info in SAMPLER_STATES {
            if pixel || VERTEX_SAMPLER_STATES.contains(&info.number) {
                keys.push(Key::SamplerState(sampler, info.number));
            }
        }
    }
    for stage in 0..TEXTURE_STAGES as u32 {
        for info in TEXTURE_STAGE_STATES {
            if pixel || VERTEX_STAGE_STATES.contains(&info.number) {
                keys.push(Key::TextureStageState(stage, info.number));
            }
        }
    }
    if pixel {
        keys.push(Key::PixelShader);
        keys.extend((0..counts.ps_f).map(Key::PixelConstantF));
        keys.extend((0..counts.ps_i).map(Key::PixelConstantI));
        keys.extend((0..counts.ps_b).map(Key::PixelConstantB));
    }
    if vertex {
        keys.push(Key::VertexDeclaration);
        keys.push(Key::VertexShader);
        keys.extend((0..counts.vs_f).map(Key::VertexConstantF));
        keys.extend((0..counts.vs_i).map(Key::VertexConstantI));
        keys.extend((0..counts.vs_b).map(Key::VertexConstantB));
        keys.extend((0..MAX_STREAMS as u32).map(Key::StreamSourceFreq));
        keys.push(Key::NPatchMode);
        for &light in lights {
            keys.push(Key::Light(light));
            keys.push(Key::LightEnable(light));
        }
    }
    if kind == BlockType::All {
        keys.extend(SAMPLERS.iter().map(|&s| Key::Texture(s)));
        keys.extend((0..MAX_STREAMS as u32).map(Key::StreamSource));
        keys.push(Key::Indices);
        keys.push(Key::Viewport);
        keys.push(Key::ScissorRect);
        keys.push(Key::Material);
        keys.extend((0..6).map(Key::ClipPlane));
        for t in [2u32, 3, 256, 16, 17, 18, 19, 20, 21, 22, 23] {
            keys.push(Key::Transform(t));
        }
    }
    keys
}

fn refuse<T>(result: Result<T, d3d9_backend::device::DeviceError>) -> CallResult<T> {
    result.map_err(Refusal::from)
}

impl DeviceInner {
    /// A state-setting call: recorded while a state block is being recorded, else applied.
    pub fn set(&mut self, change: Change) -> CallResult {
        if let Err(e) = self.validate(&change) {
            // A refused change gives up the references it took.
            change.release(&mut self.deferred);
            return Err(e);
        }
        if let Some(block) = self.recording.as_mut() {
            block.record(change, &mut self.deferred);
            return Ok(());
        }
        self.apply(change)
    }

    /// Refuses what D3D9 refuses whether recording or not.
    fn validate(&self, change: &Change) -> CallResult {
        match change {
            Change::SamplerState(s, ..) | Change::Texture(s, _) if sampler_slot(*s).is_none() => {
                Err(invalid_call(format!("sampler {s}")))
            }
            Change::StreamSource(s, ..) | Change::StreamSourceFreq(s, _)
                if *s as usize >= MAX_STREAMS =>
            {
                Err(invalid_call(format!("stream {s}")))
            }
            Change::TextureStageState(s, ..) if *s as usize >= TEXTURE_STAGES => {
                Err(invalid_call(format!("texture stage {s}")))
            }
            Change::ClipPlane(i, _) if *i >= 6 => Err(invalid_call(format!("clip plane {i}"))),
            _ => Ok(()),
        }
    }

    /// Applies a change to the device (the backend's state and the bound objects). A
    /// refused change gives up its references.
    pub fn apply(&mut self, change: Change) -> CallResult {
        match self.apply_to_device(&change) {
            Ok(()) => {
                self.bind(change);
                Ok(())
            }
            Err(e) => {
                change.release(&mut self.deferred);
                Err(e)
            }
        }
    }

    /// The backend's part of a change (and the state this layer keeps).
    fn apply_to_device(&mut self, change: &Change) -> CallResult {
        let d = &mut self.device;
        match change {
            Change::RenderState(s, v) => return accept(d.set_render_state_raw(*s, *v)),
            Change::SamplerState(s, t, v) => return accept(d.set_sampler_state_raw(*s, *t, *v)),
            Change::TextureStageState(s, t, v) => {
                refuse(d.set_texture_stage_state_raw(*s, *t, *v))?
            }
            Change::Texture(stage, texture) => {
                refuse(d.set_texture(*stage, texture.as_ref().map(|t| t.get().data.id)))?
            }
            Change::StreamSource(stream, buffer, offset, stride) => {
                let id = buffer.as_ref().map(|b| b.get().data.id);
                refuse(d.set_stream_source(*stream as usize, id, *offset, *stride))?
            }
            Change::StreamSourceFreq(stream, value) => {
                refuse(d.set_stream_source_freq(*stream as usize, *value))?
            }
            Change::Indices(buffer) => {
                let id: Option<IndexBufferId> = buffer.as_ref().map(|b| b.get().data.id);
                refuse(d.set_indices(id))?
            }
            Change::VertexDeclaration(declaration, _) => {
                refuse(d.set_vertex_declaration(declaration.as_ref().map(|x| x.get().data.id)))?
            }
            Change::VertexShader(shader) => {
                refuse(d.set_vertex_shader(shader.as_ref().map(|s| s.get().data.id)))?
            }
            Change::PixelShader(shader) => {
                refuse(d.set_pixel_shader(shader.as_ref().map(|s| s.get().data.id)))?
            }
            Change::VertexConstantF(r, v) => {
                refuse(d.set_vertex_shader_constant_f(*r as usize, &[*v]))?
            }
            Change::VertexConstantI(r, v) => {
                refuse(d.set_vertex_shader_constant_i(*r as usize, &[*v]))?
            }
            Change::VertexConstantB(r, v) => {
                refuse(d.set_vertex_shader_constant_b(*r as usize, &[*v]))?
            }
            Change::PixelConstantF(r, v) => {
                refuse(d.set_pixel_shader_constant_f(*r as usize, &[*v]))?
            }
            Change::PixelConstantI(r, v) => {
                refuse(d.set_pixel_shader_constant_i(*r as usize, &[*v]))?
            }
            Change::PixelConstantB(r, v) => {
                refuse(d.set_pixel_shader_constant_b(*r as usize, &[*v]))?
            }
            Change::Transform(t, m) => refuse(d.set_transform_raw(*t, *m))?,
            Change::Viewport(v) => refuse(d.set_viewport(*v))?,
            Change::ScissorRect(r) => refuse(d.set_scissor_rect(*r))?,
            Change::ClipPlane(i, p) => refuse(d.set_clip_plane(*i, *p))?,
            Change::Material(m) => refuse(d.set_material(m))?,
            Change::Light(i, l) => refuse(d.set_light(*i, l))?,
            Change::LightEnable(i, e) => refuse(d.light_enable(*i, *e))?,
            Change::NPatchMode(n) => self.npatch = *n,
        }
        Ok(())
    }

    /// Moves the objects an applied change names into the bound set (releasing what they
    /// replace).
    fn bind(&mut self, change: Change) {
        let b = &mut self.bound;
        let old = match change {
            Change::Texture(stage, texture) => match sampler_slot(stage) {
                Some(slot) => {
                    std::mem::replace(&mut b.textures[slot], texture).map(|t| t.into_release())
                }
                None => texture.map(|t| t.into_release()),
            },
            Change::StreamSource(stream, buffer, offset, stride) => {
                let i = stream as usize;
                b.stream_ranges[i] = (offset, stride);
                std::mem::replace(&mut b.streams[i], buffer).map(|x| x.into_release())
            }
            Change::Indices(buffer) => {
                std::mem::replace(&mut b.indices, buffer).map(|x| x.into_release())
            }
            Change::VertexDeclaration(declaration, fvf) => {
                b.fvf = fvf;
                std::mem::replace(&mut b.declaration, declaration).map(|x| x.into_release())
            }
            Change::VertexShader(shader) => {
                std::mem::replace(&mut b.vertex_shader, shader).map(|x| x.into_release())
            }
            Change::PixelShader(shader) => {
                std::mem::replace(&mut b.pixel_shader, shader).map(|x| x.into_release())
            }
            _ => None,
        };
        if let Some(release) = old {
            self.deferred.push_release(release);
        }
    }

    /// The device's value for `key` now, as a change (holding its own references).
    pub fn current(&self, key: Key) -> Option<Change> {
        let d = &self.device;
        Some(match key {
            Key::RenderState(s) => Change::RenderState(s, d.render_state_raw(s).ok()?),
            Key::SamplerState(s, t) => Change::SamplerState(s, t, d.sampler_state_raw(s, t).ok()?),
            Key::TextureStageState(s, t) => {
                Change::TextureStageState(s, t, d.texture_stage_state_raw(s, t).ok()?)
            }
            Key::Texture(s) => {
                let slot = sampler_slot(s)?;
                Change::Texture(s, self.bound.textures[slot].as_ref().map(Private::share))
            }
            Key::StreamSource(s) => {
                let i = s as usize;
                let (offset, stride) = *self.bound.stream_ranges.get(i)?;
                let buffer = self.bound.streams.get(i)?.as_ref().map(Private::share);
                Change::StreamSource(s, buffer, offset, stride)
            }
            Key::StreamSourceFreq(s) => {
                Change::StreamSourceFreq(s, d.stream_source_freq(s as usize)?)
            }
            Key::Indices => Change::Indices(self.bound.indices.as_ref().map(Private::share)),
            Key::VertexDeclaration => Change::VertexDeclaration(
                self.bound.declaration.as_ref().map(Private::share),
                self.bound.fvf,
            ),
            Key::VertexShader => {
                Change::VertexShader(self.bound.vertex_shader.as_ref().map(Private::share))
            }
            Key::PixelShader => {
                Change::PixelShader(self.bound.pixel_shader.as_ref().map(Private::share))
            }
            Key::VertexConstantF(r) => {
                Change::VertexConstantF(r, *d.vertex_shader_constants().floats.get(r as usize)?)
            }
            Key::VertexConstantI(r) => {
                Change::VertexConstantI(r, *d.vertex_shader_constants().ints.get(r as usize)?)
            }
            Key::VertexConstantB(r) => {
                Change::VertexConstantB(r, *d.vertex_shader_constants().bools.get(r as usize)?)
            }
            Key::PixelConstantF(r) => {
                Change::PixelConstantF(r, *d.pixel_shader_constants().floats.get(r as usize)?)
            }
            Key::PixelConstantI(r) => {
                Change::PixelConstantI(r, *d.pixel_shader_constants().ints.get(r as usize)?)
            }
            Key::PixelConstantB(r) => {
                Change::PixelConstantB(r, *d.pixel_shader_constants().bools.get(r as usize)?)
            }
            Key::Transform(t) => Change::Transform(t, d.get_transform_raw(t).ok()?),
            Key::Viewport => Change::Viewport(d.viewport()),
            Key::ScissorRect => Change::ScissorRect(d.scissor_rect()),
            Key::ClipPlane(i) => Change::ClipPlane(i, d.get_clip_plane(i).ok()?),
            Key::Material => Change::Material(d.material()),
            Key::Light(i) => Change::Light(i, d.light(i).ok()?),
            Key::LightEnable(i) => Change::LightEnable(i, d.light_enabled(i).ok()?),
            Key::NPatchMode => Change::NPatchMode(self.npatch),
        })
    }
}

/// A setter whose value the device cannot honour yet succeeds, as on Windows; the device
/// refuses the draws that would depend on it (logged then).
fn accept(result: Result<(), d3d9_backend::device::DeviceError>) -> CallResult {
    match result {
        Err(e) if !e.is_invalid_call() => {
            log::info!("{e} (draws that depend on it are refused)");
            Ok(())
        }
        other => refuse(other),
    }
}

/// Objects bound with `Set*`, each held by a private reference.
pub struct Bound {
    pub textures: [Option<Private<Texture9>>; 20],
    pub streams: [Option<Private<VertexBuffer9>>; MAX_STREAMS],
    /// Offset and stride of each stream.
    pub stream_ranges: [(u32, u32); MAX_STREAMS],
    pub indices: Option<Private<IndexBuffer9>>,
    pub declaration: Option<Private<VertexDeclaration9>>,
    /// The FVF of `SetFVF` (0 after `SetVertexDeclaration`).
    pub fvf: u32,
    pub vertex_shader: Option<Private<VertexShader9>>,
    pub pixel_shader: Option<Private<PixelShader9>>,
    pub render_targets: [Option<Private<Surface9>>; MAX_RENDER_TARGETS],
    pub depth_stencil: Option<Private<Surface9>>,
}

impl Default for Bound {
    fn default() -> Self {
        Bound {
            textures: std::array::from_fn(|_| None),
            streams: std::array::from_fn(|_| None),
            stream_ranges: [(0, 0); MAX_STREAMS],
            indices: None,
            declaration: None,
            fvf: 0,
            vertex_shader: None,
            pixel_shader: None,
            render_targets: std::array::from_fn(|_| None),
            depth_stencil: None,
        }
    }
}

impl Bound {
    /// Gives up every reference (the device's destruction).
    pub fn release(&mut self, deferred: &mut Deferred) {
        let old = std::mem::take(self);
        old.textures.into_iter().for_each(|t| deferred.push_opt(t));
        old.streams.into_iter().for_each(|b| deferred.push_opt(b));
        deferred.push_opt(old.indices);
        deferred.push_opt(old.declaration);
        deferred.push_opt(old.vertex_shader);
        deferred.push_opt(old.pixel_shader);
        old.render_targets
            .into_iter()
            .for_each(|s| deferred.push_opt(s));
        deferred.push_opt(old.depth_stencil);
    }
}
