//! The device's state as D3D9 starts it, when the device is created and when `Reset` makes
//! the implicit swap chain again.
//!
//! `Reset` (Wine's `d3d9_device_Reset` / `wined3d_device_reset`, DXVK's `D3D9DeviceEx::Reset`,
//! checked by Wine's `test_reset` on Windows):
//! - fails with `D3DERR_INVALIDCALL`, changing nothing, while a `D3DPOOL_DEFAULT` resource
//!   other than the implicit swap chain's surfaces is alive: a texture, a vertex or index
//!   buffer, a render target, depth-stencil or offscreen plain surface, an additional swap
//!   chain (its back buffers). MANAGED, SYSTEMMEM and SCRATCH resources, shaders and
//!   declarations survive with their contents;
//! - makes the implicit swap chain's back buffers (size, format, count, lockability) and the
//!   automatic depth-stencil surface again, new surfaces, the old ones released;
//! - sets every state back to D3D9's defaults (the raw state tables' defaults, with
//!   `D3DRS_ZENABLE` from `EnableAutoDepthStencil`), unbinds every object, and sets the
//!   viewport and scissor rectangle to the new back buffer, render target 0 to it and the
//!   depth-stencil surface to the automatic one. A mixed device keeps its
//!   `SetSoftwareVertexProcessing` choice;
//! - configures the implicit swap chain's window (if it has one) again at the window's
//!   size, ending the lost state a resized window began (`window`).

use super::clip::Plane;
use super::error::{invalid, DeviceError};
use super::objects::Pool;
use super::present::{PresentParams, SwapChain};
use super::raw_state::{DeviceRawStates, RawRenderStates};
use super::state::{Rect, RenderStates, SamplerStates, Viewport};
use super::{
    fixed_function, transform, Device, DeviceParams, DeviceState, Stream, MAX_RENDER_TARGETS,
    MAX_STREAMS, SAMPLER_STAGES,
};
use crate::device::{PixelConstants, VertexConstants};
use d3d9_translator::decl::VertexProcessing;

impl DeviceState {
    /// D3D9's state of a device made with `params` whose implicit swap chain is `chain`:
    /// every state at its default, nothing bound but render target 0 (the first back
    /// buffer) and the automatic depth-stencil surface, the viewport and scissor rectangle
    /// the back buffer's size.
    pub(crate) fn defaults(params: &DeviceParams, chain: &SwapChain) -> DeviceState {
        let (width, height, _) = params.back_buffer;
        let auto_depth = params.auto_depth_stencil.is_some();
        let mut render_targets = [None; MAX_RENDER_TARGETS];
        render_targets[0] = chain.back_buffers.first().copied();
        DeviceState {
            declaration: None,
            vertex_shader: None,
            hardware_refused: None,
            pixel_shader: None,
            streams: [Stream::default(); MAX_STREAMS],
            indices: None,
            vs_constants: VertexConstants::new(params.processing),
            ps_constants: PixelConstants::default(),
            vs_constants_version: 0,
            ps_constants_version: 0,
            textures: [None; SAMPLER_STAGES],
            textures_version: 0,
            samplers: [SamplerStates::default(); SAMPLER_STAGES],
            lights: fixed_function::Lights::default(),
            raw: DeviceRawStates::new(auto_depth),
            transforms: transform::Transforms::default(),
            clip_planes: [Plane::default(); 6],
            render: RenderStates::from_raw(&RawRenderStates::defaults(auto_depth)),
            viewport: Viewport {
                x: 0,
                y: 0,
                width,
                height,
                min_z: 0.0,
                max_z: 1.0,
            },
            scissor: Rect {
                left: 0,
                top: 0,
                right: width as i32,
                bottom: height as i32,
            },
            render_targets,
            depth_stencil: chain.depth_stencil,
            software_processing: params.processing == VertexProcessing::Software,
        }
    }
}

impl Device {
    /// `Reset(present)`: see the module documentation. On failure nothing changes (the
    /// C ABI keeps D3D9's lost state).
    pub fn reset(&mut self, present: PresentParams) -> Result<(), DeviceError> {
        let call = "Reset";
        if let Some(what) = self.reset_blocker() {
            return Err(invalid(
                call,
                format!("{what} in D3DPOOL_DEFAULT is still alive"),
            ));
        }
        // What was recorded reaches the old surfaces before they go.
        self.flush()?;
        let mut chain = self.make_swap_chain(call, &present, true)?;
        chain.window = self.implicit.window.take();
        let old = std::mem::replace(&mut self.implicit, chain);
        self.release_swap_chain_surfaces(&old);
        self.params.set_present(&present);
        let mut state = DeviceState::defaults(&self.params, &self.implicit);
        // Constants went back to zero: bind groups cached at earlier versions must not match.
        state.vs_constants_version = self.state.vs_constants_version + 1;
        state.ps_constants_version = self.state.ps_constants_version + 1;
        state.textures_version = self.state.textures_version + 1;
        state.software_processing = self.state.software_processing;
        *self.state = state;
        self.memo = None;
        self.memo_spare = None;
        // A window's surface at the window's size, its lost state over.
        self.window_after_reset()
    }

    /// The first `D3DPOOL_DEFAULT` resource (lowest handle of each kind) that keeps
    /// `Reset` from succeeding, named; `None` when there is none.
    pub(crate) fn reset_blocker(&self) -> Option<String> {
        let default_pool = |pool: Pool| pool == Pool::Default;
        if let Some(id) = first(self.textures.iter().filter(|(_, t)| default_pool(t.pool))) {
            return Some(format!("texture {id:?}"));
        }
        if let Some(id) = first(
            self.vertex_buffers
                .iter()
                .filter(|(_, b)| default_pool(b.pool)),
        ) {
            return Some(format!("vertex buffer {id:?}"));
        }
        if let Some(id) = first(
            self.index_buffers
                .iter()
                .filter(|(_, b)| default_pool(b.pool)),
        ) {
            return Some(format!("index buffer {id:?}"));
        }
        if let Some(id) = first(self.additional.iter()) {
            return Some(format!("additional swap chain {id:?} (its back buffers)"));
        }
        let implicit: Vec<_> = self.implicit.surfaces().collect();
        let surface = self.surfaces.iter().filter(|(id, s)| {
            default_pool(s.pool) && s.container.is_none() && !implicit.contains(id)
        });
        first(surface).map(|id| format!("surface {id:?}"))
    }
}

/// The lowest key of `entries`.
fn first<'a, K: Ord + Copy + 'a, V: 'a>(
    entries: impl Iterator<Item = (&'a K, &'a V)>,
) -> Option<K> {
    entries.map(|(k, _)| *k).min()
}
